//! Transition power abstraction (TPA; Blicha, Fedyukovich, Hyvärinen, Sharygina, TACAS 2022)
//! on the transition-system view.
//!
//! TPA keeps one relation per level: `L[0] = Id ∨ T` (exact: at most one step) and, for
//! `k ≥ 1`, `L[k](x, x')` over-approximating every path of at most `2^k` steps. A query
//! "can `S` reach `D` in at most `2^(n+1)` steps?" (`Run::reach`) checks
//! `S(x₀) ∧ L[n](x₀,x₁) ∧ L[n](x₁,x₂) ∧ D(x₂)`:
//!
//! * unsatisfiable: an interpolant `I(x₀,x₂)` of `L[n] ∘ L[n]` against `S(x₀) ∧ D(x₂)`
//!   over-approximates `2^(n+1)` steps and separates `S` from `D`; it strengthens `L[n+1]`;
//! * satisfiable at `n = 0`: the model is a real path of at most two steps;
//! * satisfiable at `n > 0`: the model's middle state `m` splits the question into
//!   "`S` reaches `m`" and "`m` reaches `D`", each at level `n - 1`. A refuted half
//!   strengthens `L[n]`, which blocks this model, and the query is asked again; two
//!   confirmed halves concatenate into a real path.
//!
//! Levels double the reach with every round, so counterexamples of length `2^n` need only
//! `n` rounds (BMC would need `2^n` unrollings). Safety: when
//! `init(x₀) ∧ L(x₀,x₁) ∧ T(x₁,x₂) ∧ ¬L(x₀,x₂)` is unsatisfiable for `L = L[n+1]`, the
//! states `∃x₀· init(x₀) ∧ L(x₀,x)` contain `init` (`L ⊇ Id`), are closed under `T`, and
//! exclude `bad` (the interpolant that built `L[n+1]` refuted `init → bad`): they are an
//! inductive invariant, computed by exact projection and re-checked before it is reported.
//! The dual check restricted to `bad` gives the complement of the states that reach `bad`.
//! Middle states are generalized by model-based projection of the query onto step 1, so a
//! refuted first half excludes a region, not a point; the second half starts from the
//! concrete state the first half reached.
//!
//! Split-TPA (exact `2^k`-step relations kept apart from the `< 2^k` ones) is
//! [`super::split_tpa`].

use super::tpa_fix::{Frames, middle};
use super::ts_util::{rename, sat, solve_on_view, state_is, state_of, trivial_answer};
use crate::engine::{Control, Engine, Stats};
use crate::result::{ChcResult, UnknownReason};
use crate::system::ChcSystem;
use crate::ts::{Trace, TransitionSystem, TsAnswer, Unroller};
use cove_logic::{TermId, TermStore, Value, VarId, simplify};
use cove_smt::{ItpOutcome, interpolate_formulas};

/// The TPA engine.
#[derive(Default)]
pub struct Tpa {
    level: usize,
    queries: u64,
    interpolants: u64,
    fixpoint_checks: u64,
}

impl Engine for Tpa {
    fn name(&self) -> &'static str {
        "tpa"
    }

    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult {
        solve_on_view(store, sys, ctl, |store, ts| self.run(store, ts, ctl))
    }

    fn stats(&self) -> Stats {
        vec![
            ("tpa-level".into(), self.level.to_string()),
            ("tpa-queries".into(), self.queries.to_string()),
            ("tpa-interpolants".into(), self.interpolants.to_string()),
            (
                "tpa-fixpoint-checks".into(),
                self.fixpoint_checks.to_string(),
            ),
        ]
    }
}

impl Tpa {
    fn run(
        &mut self,
        store: &mut TermStore,
        ts: &TransitionSystem,
        ctl: &Control,
    ) -> Result<TsAnswer, UnknownReason> {
        if let Some(answer) = trivial_answer(store, ts, ctl)? {
            return Ok(answer);
        }
        let mut un = ts.unroller();
        let steps: Vec<Vec<VarId>> = (0..3).map(|k| un.state(store, k).to_vec()).collect();
        let top = store.mk_bool(true);
        let mut run = Run {
            ts,
            un,
            steps,
            levels: vec![top, top],
            ctl,
            eng: self,
        };
        for n in 0.. {
            run.eng.level = n;
            if run.levels.len() <= n + 1 {
                run.levels.push(top);
            }
            if let Some(states) = run.reach(store, n, ts.init, ts.bad)? {
                return Ok(TsAnswer::Unsafe(Trace { states }));
            }
            if let Some(inv) = run.fixpoint(store, n + 1)? {
                return Ok(TsAnswer::Safe(inv));
            }
        }
        unreachable!("the level loop only ends by returning")
    }
}

struct Run<'a> {
    ts: &'a TransitionSystem,
    un: Unroller,
    /// State copies of steps 0, 1, 2.
    steps: Vec<Vec<VarId>>,
    /// `levels[k]` over (`vars`, `next`) for `k ≥ 1` (`levels[0]` is unused: `Id ∨ T`).
    levels: Vec<TermId>,
    ctl: &'a Control,
    eng: &'a mut Tpa,
}

impl Run<'_> {
    /// `L[k]` from step `i` to step `i + 1`.
    fn rel(&mut self, store: &mut TermStore, k: usize, i: usize) -> TermId {
        if k == 0 {
            let t = self.un.trans(store, i);
            let (a, b) = (self.steps[i].clone(), self.steps[i + 1].clone());
            let id = super::ts_util::state_eq(store, &a, &b);
            store.mk_or(&[id, t])
        } else {
            let l = self.levels[k];
            self.un.at(store, l, i)
        }
    }

    /// A path of at most `2^(n+1)` steps from `s` to `d` (both over `vars`) as its states,
    /// or `None` after strengthening `L[n+1]` to exclude every such path.
    fn reach(
        &mut self,
        store: &mut TermStore,
        n: usize,
        s: TermId,
        d: TermId,
    ) -> Result<Option<Vec<Vec<Value>>>, UnknownReason> {
        loop {
            if let Some(r) = self.ctl.should_stop() {
                return Err(r);
            }
            self.eng.queries += 1;
            let a01 = self.rel(store, n, 0);
            let a12 = self.rel(store, n, 1);
            let s0 = self.un.at(store, s, 0);
            let d2 = self.un.at(store, d, 2);
            let Some(m) = sat(store, &[s0, a01, a12, d2], self.ctl)? else {
                let a = store.mk_and(&[a01, a12]);
                let b = store.mk_and(&[s0, d2]);
                let i = match interpolate_formulas(store, a, b, self.ctl) {
                    ItpOutcome::Interpolant(i) => i,
                    ItpOutcome::Sat(_) => {
                        return Err(UnknownReason::Incomplete(
                            "TPA: interpolation disagrees with the solver".into(),
                        ));
                    }
                    ItpOutcome::Unknown(r) => return Err(self.ctl.should_stop().unwrap_or(r)),
                };
                self.eng.interpolants += 1;
                let from: Vec<VarId> = self.steps[0]
                    .iter()
                    .chain(&self.steps[2])
                    .copied()
                    .collect();
                let to: Vec<VarId> = self.ts.vars.iter().chain(&self.ts.next).copied().collect();
                let rel = rename(store, i, &from, &to);
                let l = store.mk_and(&[self.levels[n + 1], rel]);
                self.levels[n + 1] = simplify(store, l);
                return Ok(None);
            };
            let st: Vec<Vec<Value>> = (0..3)
                .map(|k| state_of(store, &m, &self.steps[k]))
                .collect();
            if n == 0 {
                let mut path = vec![st[0].clone()];
                for x in &st[1..] {
                    if path.last() != Some(x) {
                        path.push(x.clone());
                    }
                }
                return Ok(Some(path));
            }
            let mid = middle(
                store,
                self.ts,
                &self.steps[1],
                &m,
                &[s0, a01, a12, d2],
                &st[1],
            );
            let Some(first) = self.reach(store, n - 1, s, mid)? else {
                continue;
            };
            let reached = first.last().expect("paths are not empty").clone();
            let e = state_is(store, &self.ts.vars, &reached);
            let Some(second) = self.reach(store, n - 1, e, d)? else {
                continue;
            };
            let mut path = first;
            path.extend(second.into_iter().skip(1));
            return Ok(Some(path));
        }
    }

    /// An invariant from `L[k]` when it is closed under one more step from the initial
    /// states or towards the bad states ([`super::tpa_fix`]).
    fn fixpoint(
        &mut self,
        store: &mut TermStore,
        k: usize,
    ) -> Result<Option<TermId>, UnknownReason> {
        self.eng.fixpoint_checks += 1;
        let l = self.levels[k];
        let mut f = Frames {
            ts: self.ts,
            un: &mut self.un,
            steps: &self.steps,
        };
        if let Some(inv) = f.forward(store, l, self.ctl)? {
            return Ok(Some(inv));
        }
        f.backward(store, l, self.ctl)
    }
}
