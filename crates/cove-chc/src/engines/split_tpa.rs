//! Split transition power abstraction (split-TPA; Blicha, Fedyukovich, Hyvärinen,
//! Sharygina: "Split transition power abstraction for unbounded safety", FMCAD 2022) on the
//! transition-system view.
//!
//! Plain TPA ([`super::tpa`]) keeps one relation per level for paths of *at most* `2^k`
//! steps. Split-TPA keeps two, which are easier to learn and to close:
//!
//! * `EX[k]` over-approximates paths of *exactly* `2^k` steps (`EX[0] = T`);
//! * `LT[k]` over-approximates paths of *fewer than* `2^k` steps (`LT[0] = Id`).
//!
//! Two reachability questions use level `n` twice ("two steps of level `n` are one step of
//! level `n + 1`"):
//!
//! * exact — `S` reaches `D` in exactly `2^(n+1)` steps: `S(x₀) ∧ EX[n](x₀,x₁) ∧ EX[n](x₁,x₂) ∧ D(x₂)`;
//! * less-than — in fewer than `2^(n+1)` steps:
//!   `S(x₀) ∧ (LT[n](x₀,x₂) ∨ LT[n](x₀,x₁) ∧ EX[n](x₁,x₂)) ∧ D(x₂)`.
//!
//! Unsatisfiable: an interpolant `I(x₀,x₂)` of the relation part against `S ∧ D` strengthens
//! `EX[n+1]` resp. `LT[n+1]`. Satisfiable at level 0: the model is a real path. Otherwise
//! the model's middle state (generalized by model-based projection) splits the question into
//! two questions of level `n - 1`; a refuted half strengthens level `n`, which blocks the
//! model, and the question is asked again. Paths are concrete state sequences, checked in
//! the end by the independent checker.
//!
//! Safety (after the questions from `init` to `bad` of level `n` were refuted):
//!
//! * `LT[k]` contains the identity: when it is closed under one more step from `init` (or
//!   towards `bad`), the reached states are an inductive invariant (`tpa_core`);
//! * `EX[k]` *transitive* (`EX[k] ∘ EX[k] ⊆ EX[k]`, possibly only from states `LT[k]`-reached
//!   from `init`) makes `S = ∃x₀,x₁· init(x₀) ∧ (LT[k](x₀,x) ∨ LT[k](x₀,x₁) ∧ EX[k](x₁,x))` an
//!   invariant: a path of `q·2^k + r` steps is `r` steps of `LT[k]` and `q` blocks of
//!   `EX[k]`, which transitivity folds into one. `S` excludes `bad` (the less-than question
//!   of level `k` was refuted) and is `2^k`-inductive (`2^k` steps from an `S`-state are one
//!   more `EX[k]` block); [`TransitionSystem::k_to_1_inductive`] makes it 1-inductive.
//!   This is how split-TPA proves multi-phase loops, where `LT` never closes.
//!
//! Every invariant is re-checked on the system here and then, like every answer, by the
//! driver's independent checker. The exact question, learning and the fixpoint checks are TPA's
//! (`tpa_core`).

use super::tpa_core::{
    Direction, Family, Levels, Path, Power, PowerStats, concat, middle, project,
};
use super::ts_engine::TsEngine;
use super::ts_util::{rename, sat, solver, state_eq, trivial_answer};
use crate::engine::{BuildEngine, Control, Engine, Stats};
use crate::result::UnknownReason;
use crate::ts::{Trace, TransitionSystem, TsAnswer};
use cove_logic::{TermId, TermStore, Value, VarId};
use cove_smt::SmtResult;
use rustc_hash::FxHashSet;

/// Largest `2^k` for which a transitive `EX[k]` is turned into a 1-inductive invariant
/// (the conversion unrolls `2^(k-1)` steps).
const MAX_KTO1: usize = 256;

/// Options of the split-TPA engine (none yet).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SplitTpaConfig {}

impl BuildEngine for SplitTpaConfig {
    const NAME: &'static str = "split-tpa";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(SplitTpa::default())
    }
}

/// The split-TPA engine.
#[derive(Default)]
pub struct SplitTpa {
    stats: PowerStats,
    proof: Option<String>,
}

impl TsEngine for SplitTpa {
    fn name(&self) -> &'static str {
        SplitTpaConfig::NAME
    }

    fn run(
        &mut self,
        store: &mut TermStore,
        ts: &TransitionSystem,
        ctl: &Control,
    ) -> Result<TsAnswer, UnknownReason> {
        self.proof = None;
        if let Some(answer) = trivial_answer(store, ts, ctl)? {
            return Ok(answer);
        }
        let power = Power::new(store, ts, 4, ctl, &mut self.stats, "split-TPA");
        let mut run = Run {
            exact: Levels::new(store, Family::Exact),
            less: vec![store.mk_bool(true)],
            checked: FxHashSet::default(),
            proof: &mut self.proof,
            power,
        };
        for n in 0.. {
            run.power.stats.level = n;
            run.exact.grow(store);
            run.less.push(store.mk_bool(true));
            if let Some(states) = run.less_reach(store, n, ts.init, ts.bad)? {
                return Ok(TsAnswer::Unsafe(Trace { states }));
            }
            if let Some(inv) = run.less_fixpoint(store, n + 1)? {
                return Ok(TsAnswer::Safe(inv));
            }
            let exact = &mut run.exact;
            if let Some(states) = run.power.reach(store, exact, n, ts.init, ts.bad)? {
                return Ok(TsAnswer::Unsafe(Trace { states }));
            }
            if let Some(inv) = run.exact_fixpoint(store, n)? {
                return Ok(TsAnswer::Safe(inv));
            }
        }
        unreachable!("the level loop only ends by returning")
    }

    fn stats(&self) -> Stats {
        let mut s = self.stats.named(SplitTpaConfig::NAME);
        if let Some(p) = &self.proof {
            s.push(("split-tpa-proof".into(), p.clone()));
        }
        s
    }
}

struct Run<'a> {
    /// The search, with state copies of steps 0..=3.
    power: Power<'a>,
    /// `EX[k]`.
    exact: Levels,
    /// `less[k]` over (`vars`, `next`) for `k ≥ 1` (`less[0]` is unused: `Id`).
    less: Vec<TermId>,
    /// Relations whose fixpoint check failed already (kind, level, relation).
    checked: FxHashSet<(bool, usize, TermId, TermId)>,
    /// How the last proof was found.
    proof: &'a mut Option<String>,
}

impl Run<'_> {
    /// `EX[k]` from step `i` to step `i + 1`.
    fn ex(&mut self, store: &mut TermStore, k: usize, i: usize) -> TermId {
        self.power.step(store, &self.exact, k, i)
    }

    /// `LT[k]` from step `i` to step `j`.
    fn lt(&mut self, store: &mut TermStore, k: usize, i: usize, j: usize) -> TermId {
        if k == 0 {
            let (a, b) = (self.power.steps[i].clone(), self.power.steps[j].clone());
            state_eq(store, &a, &b)
        } else {
            let l = self.less[k];
            self.power.rel(store, l, i, j)
        }
    }

    /// A path of fewer than `2^(n+1)` steps from `s` to `d`, or `None` after strengthening
    /// `LT[n+1]` to exclude every such path.
    fn less_reach(
        &mut self,
        store: &mut TermStore,
        n: usize,
        s: TermId,
        d: TermId,
    ) -> Result<Option<Path>, UnknownReason> {
        loop {
            if let Some(r) = self.power.ctl.should_stop() {
                return Err(r);
            }
            self.power.stats.queries += 1;
            let l02 = self.lt(store, n, 0, 2);
            let l01 = self.lt(store, n, 0, 1);
            let e12 = self.ex(store, n, 1);
            let s0 = self.power.un.at(store, s, 0);
            let d2 = self.power.un.at(store, d, 2);
            let longer = store.mk_and(&[l01, e12]);
            let a = store.mk_or(&[l02, longer]);
            let Some(mut m) = sat(store, &[s0, a, d2], self.power.ctl)? else {
                let b = store.mk_and(&[s0, d2]);
                let i = self.power.learn(store, a, b)?;
                let l = store.mk_and(&[self.less[n + 1], i]);
                self.less[n + 1] = cove_logic::simplify(store, l);
                return Ok(None);
            };
            let st = self.power.states(store, &m);
            for v in cove_logic::free_vars(store, a) {
                if m.get(v).is_none() {
                    m.set(v, Value::default_of(store.var_sort(v)));
                }
            }
            if m.eval_bool(store, l02).unwrap_or(false) {
                // Fewer than 2^n steps.
                if n == 0 {
                    return Ok(Some(vec![st[0].clone()]));
                }
                match self.less_reach(store, n - 1, s, d)? {
                    Some(p) => return Ok(Some(p)),
                    None => continue,
                }
            }
            if n == 0 {
                // Id then one step of T.
                return Ok(Some(vec![st[1].clone(), st[2].clone()]));
            }
            let mid = middle(
                store,
                self.power.ts,
                &self.power.steps[1],
                &m,
                &[s0, l01, e12, d2],
                &st[1],
            );
            let Some(first) = self.less_reach(store, n - 1, s, mid)? else {
                continue;
            };
            let e = self
                .power
                .state_formula(store, first.last().expect("paths are not empty"));
            let Some(second) = self.power.reach(store, &mut self.exact, n - 1, e, d)? else {
                continue;
            };
            return Ok(Some(concat(first, second)));
        }
    }

    /// An invariant from some `LT[i]`, `1 ≤ i ≤ k`, closed under one more step from `init`
    /// or towards `bad` ([`Power::closed`]).
    fn less_fixpoint(
        &mut self,
        store: &mut TermStore,
        k: usize,
    ) -> Result<Option<TermId>, UnknownReason> {
        for i in 1..=k {
            let l = self.less[i];
            if !self.checked.insert((false, i, l, l)) {
                continue;
            }
            if let Some((inv, dir)) = self.power.closed(store, l)? {
                let way = match dir {
                    Direction::Forward => "forward",
                    Direction::Backward => "backward",
                };
                *self.proof = Some(format!("less-than relation closed {way}, level {i}"));
                return Ok(Some(inv));
            }
        }
        Ok(None)
    }

    /// An invariant from some transitive `EX[i]`, `1 ≤ i ≤ n` (see the module docs).
    fn exact_fixpoint(
        &mut self,
        store: &mut TermStore,
        n: usize,
    ) -> Result<Option<TermId>, UnknownReason> {
        for i in 1..=n {
            if let Some(r) = self.power.ctl.should_stop() {
                return Err(r);
            }
            let (e, l) = (self.exact.rels[i], self.less[i]);
            if store.as_bool(e) == Some(true) || !self.checked.insert((true, i, e, l)) {
                continue;
            }
            self.power.stats.fixpoint_checks += 1;
            if !self.transitive(store, e, l)? {
                continue;
            }
            if self.power.ctl.verbosity > 0 {
                eprintln!("split-tpa: EX[{i}] is transitive");
            }
            // S = ∃x₀,x₁· init(x₀) ∧ (LT(x₀,x) ∨ LT(x₀,x₁) ∧ EX(x₁,x)).
            let from: Vec<VarId> = self
                .power
                .ts
                .vars
                .iter()
                .chain(&self.power.ts.next)
                .copied()
                .collect();
            let to0x: Vec<VarId> = self.power.steps[0]
                .iter()
                .chain(&self.power.ts.vars)
                .copied()
                .collect();
            let to1x: Vec<VarId> = self.power.steps[1]
                .iter()
                .chain(&self.power.ts.vars)
                .copied()
                .collect();
            let short = rename(store, l, &from, &to0x);
            let l01 = self.lt(store, i, 0, 1);
            let e1x = rename(store, e, &from, &to1x);
            let long = store.mk_and(&[l01, e1x]);
            let reach = store.mk_or(&[short, long]);
            let init0 = self.power.un.init(store, 0);
            let phi = store.mk_and(&[init0, reach]);
            let elim: Vec<VarId> = self.power.steps[0]
                .iter()
                .chain(&self.power.steps[1])
                .copied()
                .collect();
            let Some(s) = project(store, phi, &elim, false, self.power.ctl)? else {
                continue;
            };
            if sat(store, &[s, self.power.ts.bad], self.power.ctl)?.is_some() {
                continue;
            }
            if self
                .power
                .ts
                .is_safe_inductive(store, s, self.power.ctl)
                .map_err(|e| e.reason())?
            {
                *self.proof = Some(format!("exact relation transitive, level {i}"));
                return Ok(Some(s));
            }
            let k = match 1usize.checked_shl(i as u32) {
                Some(k) if k <= MAX_KTO1 => k,
                _ => continue,
            };
            match self.power.ts.k_to_1_inductive(store, s, k, self.power.ctl) {
                Ok(inv)
                    if self.power.ts.is_safe_inductive(store, inv, self.power.ctl) == Ok(true) =>
                {
                    *self.proof = Some(format!(
                        "exact relation transitive, level {i} ({k}-inductive, strengthened)"
                    ));
                    return Ok(Some(inv));
                }
                r => {
                    if let Some(stop) = self.power.ctl.should_stop() {
                        return Err(stop);
                    }
                    if self.power.ctl.verbosity > 0 {
                        eprintln!("split-tpa: level {i}: no 1-inductive strengthening: {r:?}");
                    }
                }
            }
        }
        Ok(None)
    }

    /// `EX(x₁,x₂) ∧ EX(x₂,x₃) ⇒ EX(x₁,x₃)`, everywhere or for `x₁` that `LT` reaches from
    /// `init`.
    fn transitive(
        &mut self,
        store: &mut TermStore,
        e: TermId,
        l: TermId,
    ) -> Result<bool, UnknownReason> {
        let e12 = self.power.rel(store, e, 1, 2);
        let e23 = self.power.rel(store, e, 2, 3);
        let e13 = self.power.rel(store, e, 1, 3);
        let ne13 = store.mk_not(e13);
        let mut s = solver(self.power.ctl);
        let f = store.mk_and(&[e12, e23, ne13]);
        s.assert(store, f);
        let init0 = self.power.un.init(store, 0);
        let l01 = self.power.rel(store, l, 0, 1);
        for assume in [vec![], vec![init0, l01]] {
            match s.check_assuming(store, &assume) {
                SmtResult::Unsat => return Ok(true),
                SmtResult::Sat => {}
                SmtResult::Unknown(r) => return Err(self.power.ctl.should_stop().unwrap_or(r)),
            }
        }
        Ok(false)
    }
}
