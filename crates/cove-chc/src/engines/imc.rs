//! Interpolation-based model checking (McMillan, CAV 2003) on the transition-system view.
//!
//! For a bound `k`, `R` starts as `init` and grows by images over-approximated with
//! interpolants: with `A = R(x₀) ∧ T(x₀,x₁)` and `B = T(x₁,x₂) ∧ … ∧ T(x_{k-1},x_k) ∧
//! (bad(x₁) ∨ … ∨ bad(x_k))`, an interpolant `I(x₁)` contains every successor of `R` and
//! cannot reach a bad state within `k - 1` steps. If `I ⇒ R`, `R` is an inductive invariant
//! (it contains `init`, is closed under `T` because `post(R) ⊆ I ⊆ R`, and excludes `bad`
//! because every `I` does and `init ∧ bad` was refuted); otherwise `R := R ∨ I`. When
//! `A ∧ B` becomes satisfiable, the counterexample is real if `R` is still `init` (then BMC
//! recovers its trace) and otherwise an artifact of the over-approximation: `k` grows and
//! `R` restarts from `init`, so the interpolants get more precise.
//!
//! The interpolants come from [`cove_smt::interpolate_formulas`], which is sound over the
//! integers; the final invariant is re-checked on the transition system and validated on the
//! input clauses before it is reported.

use super::ts_engine::TsEngine;
use super::ts_util::{bmc_trace, rename, sat};
use crate::engine::{BuildEngine, Control, Engine, Stats};
use crate::result::UnknownReason;
use crate::ts::{TransitionSystem, TsAnswer};
use cove_logic::{TermId, TermStore, simplify};
use cove_smt::{ItpOutcome, interpolate_formulas};

/// The IMC engine.
#[derive(Default)]
pub struct Imc {
    bound: usize,
    interpolants: u64,
}

/// Options of the IMC engine (none yet).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImcConfig {}

impl BuildEngine for ImcConfig {
    const NAME: &'static str = "imc";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(Imc::default())
    }
}

impl TsEngine for Imc {
    fn name(&self) -> &'static str {
        ImcConfig::NAME
    }
    fn run(
        &mut self,
        store: &mut TermStore,
        ts: &TransitionSystem,
        ctl: &Control,
    ) -> Result<TsAnswer, UnknownReason> {
        if let Some(tr) = bmc_trace(store, ts, 0, ctl)? {
            return Ok(TsAnswer::Unsafe(tr));
        }
        let mut un = ts.unroller();
        let t0 = un.trans(store, 0);
        let step1 = un.state(store, 1).to_vec();
        for k in 1.. {
            self.bound = k;
            let mut parts: Vec<TermId> = (1..k).map(|j| un.trans(store, j)).collect();
            let bads: Vec<TermId> = (1..=k).map(|j| un.bad(store, j)).collect();
            parts.push(store.mk_or(&bads));
            let b = store.mk_and(&parts);
            let mut r = ts.init;
            let mut exact = true;
            loop {
                if let Some(why) = ctl.should_stop() {
                    return Err(why);
                }
                let r0 = un.at(store, r, 0);
                let a = store.mk_and(&[r0, t0]);
                match interpolate_formulas(store, a, b, ctl) {
                    ItpOutcome::Unknown(why) => return Err(ctl.should_stop().unwrap_or(why)),
                    ItpOutcome::Sat(_) if exact => {
                        return match bmc_trace(store, ts, k, ctl)? {
                            Some(tr) => Ok(TsAnswer::Unsafe(tr)),
                            None => Err(UnknownReason::Incomplete(
                                "IMC: counterexample not confirmed by BMC".into(),
                            )),
                        };
                    }
                    ItpOutcome::Sat(_) => break,
                    ItpOutcome::Interpolant(i) => {
                        self.interpolants += 1;
                        let i = rename(store, i, &step1, &ts.vars);
                        let nr = store.mk_not(r);
                        if sat(store, &[i, nr], ctl)?.is_none() {
                            return Ok(TsAnswer::Safe(r));
                        }
                        let grown = store.mk_or(&[r, i]);
                        r = simplify(store, grown);
                        exact = false;
                    }
                }
            }
        }
        unreachable!("the bound loop only ends by returning")
    }

    fn stats(&self) -> Stats {
        vec![
            ("imc-bound".into(), self.bound.to_string()),
            ("imc-interpolants".into(), self.interpolants.to_string()),
        ]
    }
}
