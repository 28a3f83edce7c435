//! Lazy abstraction with interpolants (Impact; McMillan, CAV 2006) on the transition-system
//! view.
//!
//! Impact unwinds the program into a tree of vertices labelled with formulas, refines the
//! labels of a path with an interpolant sequence when the path's last vertex may reach an
//! error, and *covers* a vertex whose label implies the labels of earlier vertices. The
//! transition-system view has one location and one transition relation, so the tree is a
//! chain `v₀ → v₁ → …` (vertex `vᵢ` stands for the states after `i` steps) and the algorithm
//! reads:
//!
//! * **Expand** the chain by one vertex labelled `true`.
//! * **Refine**: the new leaf may be an error (`true ∧ bad`), so the path formula
//!   `init(x₀) ∧ T(x₀,x₁) ∧ … ∧ bad(x_d)` is checked. Satisfiable: a real counterexample.
//!   Otherwise the interpolant sequence `I₀ … I_d` (`init ⇒ I₀`, `Iᵢ ∧ T ⇒ I'ᵢ₊₁`,
//!   `I_d ∧ bad` unsatisfiable; computed by chaining [`cove_smt::interpolate_formulas`] from
//!   the front) is conjoined to the labels. Labels stay *well-labelled* (`label(vᵢ) ∧ T ⇒
//!   label(vᵢ₊₁)'`) because every old label already was and every `Iᵢ` is.
//! * **Cover**: vertex `v_k` is covered when `label(v_k) ⇒ label(v₀) ∨ … ∨ label(v_{k-1})`.
//!   Then that disjunction contains `init` (`v₀`), is closed under `T` (the successors of
//!   `v_{k-1}` lie in `label(v_k)`), and excludes `bad` (every label was refined against
//!   `bad`): it is the inductive invariant, re-checked before it is reported.
//!
//! Impact's strength on programs — many locations, covering between branches — needs the
//! clause structure rather than this one-location view; that is left for later.

use super::ts_engine::TsEngine;
use super::ts_util::{bmc_trace, rename, sat};
use crate::engine::{BuildEngine, Control, Engine, Stats};
use crate::result::UnknownReason;
use crate::ts::{TransitionSystem, TsAnswer};
use cove_logic::{TermId, TermStore, VarId, simplify};
use cove_smt::{ItpOutcome, interpolate_formulas};

/// The LAWI (Impact) engine.
#[derive(Default)]
pub struct Lawi {
    depth: usize,
    refinements: u64,
    interpolants: u64,
}

/// Options of the LAWI engine (none yet).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LawiConfig {}

impl BuildEngine for LawiConfig {
    const NAME: &'static str = "lawi";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(Lawi::default())
    }
}

impl TsEngine for Lawi {
    fn name(&self) -> &'static str {
        LawiConfig::NAME
    }
    fn run(
        &mut self,
        store: &mut TermStore,
        ts: &TransitionSystem,
        ctl: &Control,
    ) -> Result<TsAnswer, UnknownReason> {
        if sat(store, &[ts.bad], ctl)?.is_none() {
            return Ok(TsAnswer::Safe(store.mk_bool(true)));
        }
        let mut un = ts.unroller();
        let mut labels: Vec<TermId> = Vec::new();
        for d in 0.. {
            if let Some(r) = ctl.should_stop() {
                return Err(r);
            }
            self.depth = d;
            labels.push(store.mk_bool(true));
            // Refine the path to the new leaf against `bad`.
            self.refinements += 1;
            let steps: Vec<Vec<VarId>> = (0..=d).map(|k| un.state(store, k).to_vec()).collect();
            let mut prefix = un.init(store, 0);
            for i in 0..=d {
                let mut suffix: Vec<TermId> = (i..d).map(|k| un.trans(store, k)).collect();
                suffix.push(un.bad(store, d));
                let b = store.mk_and(&suffix);
                let itp = match interpolate_formulas(store, prefix, b, ctl) {
                    ItpOutcome::Interpolant(itp) => itp,
                    ItpOutcome::Sat(_) => {
                        return match bmc_trace(store, ts, d, ctl)? {
                            Some(tr) => Ok(TsAnswer::Unsafe(tr)),
                            None => Err(UnknownReason::Incomplete(
                                "LAWI: counterexample not confirmed by BMC".into(),
                            )),
                        };
                    }
                    ItpOutcome::Unknown(r) => return Err(ctl.should_stop().unwrap_or(r)),
                };
                self.interpolants += 1;
                let label = rename(store, itp, &steps[i], &ts.vars);
                let l = store.mk_and(&[labels[i], label]);
                labels[i] = simplify(store, l);
                if i < d {
                    let t = un.trans(store, i);
                    prefix = store.mk_and(&[itp, t]);
                }
            }
            // Cover: the first vertex whose label lies in the union of the earlier ones.
            for k in 1..=d {
                let mut parts: Vec<TermId> = labels[..k].iter().map(|&l| store.mk_not(l)).collect();
                parts.push(labels[k]);
                if sat(store, &parts, ctl)?.is_none() {
                    let inv = store.mk_or(&labels[..k]);
                    return Ok(TsAnswer::Safe(simplify(store, inv)));
                }
            }
        }
        unreachable!("the unwinding loop only ends by returning")
    }

    fn stats(&self) -> Stats {
        vec![
            ("lawi-depth".into(), self.depth.to_string()),
            ("lawi-refinements".into(), self.refinements.to_string()),
            ("lawi-interpolants".into(), self.interpolants.to_string()),
        ]
    }
}
