//! The core the two transition-power engines ([`super::tpa`] and [`super::split_tpa`])
//! share: a [`Power`] search over state copies of a few steps, its relation levels
//! ([`Levels`]), the doubling reachability question (two steps of level `n` against
//! `S(x₀) ∧ D(x₂)`, refined by interpolation or split at a middle state), learning a level
//! from an interpolant, and the fixpoint checks.
//!
//! Fixpoint checks: when a relation `L(x, x')` that contains the identity is closed under
//! one more step of `T` — from the initial states, or backwards from the bad states — the
//! states it reaches are an inductive invariant, computed by exact projection. Both checks
//! are *restricted* (to `init`, resp. `bad`): they need less than `L ∘ T ⊆ L` and still give
//! a 1-inductive invariant, so there is no unrestricted variant.

use super::ts_util::{eliminate, rename, sat, state_eq, state_is, state_of};
use crate::engine::{Control, Stats};
use crate::result::UnknownReason;
use crate::ts::{TransitionSystem, Unroller};
use cove_logic::{Model, TermId, TermStore, Value, VarId, simplify};
use cove_smt::{ItpOutcome, interpolate_formulas};

/// Disjuncts allowed when projecting an invariant.
pub(crate) const PROJECTION_LIMIT: usize = 64;

/// A path: its states in order.
pub(crate) type Path = Vec<Vec<Value>>;

/// The counters both engines report.
#[derive(Default)]
pub(crate) struct PowerStats {
    /// The current level.
    pub level: usize,
    /// Reachability questions asked.
    pub queries: u64,
    /// Interpolants learned.
    pub interpolants: u64,
    /// Fixpoint checks made.
    pub fixpoint_checks: u64,
}

impl PowerStats {
    /// The counters, named `{engine}-level` and so on.
    pub fn named(&self, engine: &str) -> Stats {
        vec![
            (format!("{engine}-level"), self.level.to_string()),
            (format!("{engine}-queries"), self.queries.to_string()),
            (
                format!("{engine}-interpolants"),
                self.interpolants.to_string(),
            ),
            (
                format!("{engine}-fixpoint-checks"),
                self.fixpoint_checks.to_string(),
            ),
        ]
    }
}

/// What level 0 of a relation family is, and so which paths its levels over-approximate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Family {
    /// TPA's `L[k]`: at most `2^k` steps (`L[0] = Id ∨ T`). A level is put at a step by the
    /// unroller.
    AtMost,
    /// Split-TPA's `EX[k]`: exactly `2^k` steps (`EX[0] = T`). A level is put at a step by
    /// renaming (and simplifying).
    Exact,
}

/// One relation per level over (`vars`, `next`); `rels[0]` is unused (level 0 is given by
/// the [`Family`]).
pub(crate) struct Levels {
    /// The family.
    pub family: Family,
    /// `rels[k]` for `k ≥ 1`.
    pub rels: Vec<TermId>,
}

impl Levels {
    /// Level 0 only.
    pub fn new(store: &mut TermStore, family: Family) -> Levels {
        Levels {
            family,
            rels: vec![store.mk_bool(true)],
        }
    }

    /// One more level, `true` until it is learned.
    pub fn grow(&mut self, store: &mut TermStore) {
        self.rels.push(store.mk_bool(true));
    }

    /// Conjoins `rel` to level `k`.
    pub fn strengthen(&mut self, store: &mut TermStore, k: usize, rel: TermId) {
        let l = store.mk_and(&[self.rels[k], rel]);
        self.rels[k] = simplify(store, l);
    }
}

/// A search of either engine: the system, its unroller, the state copies of the steps its
/// questions span (0, 1, 2 at least), its counters.
pub(crate) struct Power<'a> {
    /// The system.
    pub ts: &'a TransitionSystem,
    /// Its unroller.
    pub un: Unroller,
    /// State copies of steps `0..steps.len()`.
    pub steps: Vec<Vec<VarId>>,
    /// The limits.
    pub ctl: &'a Control,
    /// The engine's counters.
    pub stats: &'a mut PowerStats,
    /// The engine's name in messages (`TPA`, `split-TPA`).
    pub who: &'static str,
}

/// Which way a relation closed (see [`Power::closed`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// From the initial states.
    Forward,
    /// Towards the bad states.
    Backward,
}

impl<'a> Power<'a> {
    /// A search on `ts` with state copies of `steps` steps.
    pub fn new(
        store: &mut TermStore,
        ts: &'a TransitionSystem,
        steps: usize,
        ctl: &'a Control,
        stats: &'a mut PowerStats,
        who: &'static str,
    ) -> Power<'a> {
        let mut un = ts.unroller();
        let steps: Vec<Vec<VarId>> = (0..steps).map(|k| un.state(store, k).to_vec()).collect();
        Power {
            ts,
            un,
            steps,
            ctl,
            stats,
            who,
        }
    }

    /// `l` (over `vars`, `next`) renamed to (`steps[i]`, `steps[j]`).
    pub fn rel(&self, store: &mut TermStore, l: TermId, i: usize, j: usize) -> TermId {
        let from: Vec<VarId> = self.ts.vars.iter().chain(&self.ts.next).copied().collect();
        let to: Vec<VarId> = self.steps[i]
            .iter()
            .chain(&self.steps[j])
            .copied()
            .collect();
        rename(store, l, &from, &to)
    }

    /// Level `k` of `lv` from step `i` to step `i + 1`.
    pub fn step(&mut self, store: &mut TermStore, lv: &Levels, k: usize, i: usize) -> TermId {
        match (lv.family, k) {
            (Family::AtMost, 0) => {
                let t = self.un.trans(store, i);
                let (a, b) = (self.steps[i].clone(), self.steps[i + 1].clone());
                let id = state_eq(store, &a, &b);
                store.mk_or(&[id, t])
            }
            (Family::Exact, 0) => self.un.trans(store, i),
            (Family::AtMost, _) => self.un.at(store, lv.rels[k], i),
            (Family::Exact, _) => self.rel(store, lv.rels[k], i, i + 1),
        }
    }

    /// An interpolant of `a` (the relation part of a question) against `b`
    /// (`S(x₀) ∧ D(x₂)`), over (`vars`, `next`).
    pub fn learn(
        &mut self,
        store: &mut TermStore,
        a: TermId,
        b: TermId,
    ) -> Result<TermId, UnknownReason> {
        let i = match interpolate_formulas(store, a, b, self.ctl) {
            ItpOutcome::Interpolant(i) => i,
            ItpOutcome::Sat(_) => {
                return Err(UnknownReason::Incomplete(format!(
                    "{}: interpolation disagrees with the solver",
                    self.who
                )));
            }
            ItpOutcome::Unknown(r) => return Err(self.ctl.should_stop().unwrap_or(r)),
        };
        self.stats.interpolants += 1;
        let from: Vec<VarId> = self.steps[0]
            .iter()
            .chain(&self.steps[2])
            .copied()
            .collect();
        let to: Vec<VarId> = self.ts.vars.iter().chain(&self.ts.next).copied().collect();
        Ok(rename(store, i, &from, &to))
    }

    /// The states of steps 0, 1, 2 of a model.
    pub fn states(&self, store: &TermStore, m: &Model) -> Path {
        (0..3).map(|k| state_of(store, m, &self.steps[k])).collect()
    }

    /// The second half of a split question: the states `reached` (the end of the first
    /// half) as a formula over `vars`.
    pub fn state_formula(&self, store: &mut TermStore, reached: &[Value]) -> TermId {
        state_is(store, &self.ts.vars, reached)
    }

    /// A path from `s` to `d` (both over `vars`) along two steps of level `n` of `lv` (at
    /// most resp. exactly `2^(n+1)` steps), as its states; or `None` after strengthening
    /// level `n + 1` to exclude every such path.
    pub fn reach(
        &mut self,
        store: &mut TermStore,
        lv: &mut Levels,
        n: usize,
        s: TermId,
        d: TermId,
    ) -> Result<Option<Path>, UnknownReason> {
        loop {
            if let Some(r) = self.ctl.should_stop() {
                return Err(r);
            }
            self.stats.queries += 1;
            let a01 = self.step(store, lv, n, 0);
            let a12 = self.step(store, lv, n, 1);
            let s0 = self.un.at(store, s, 0);
            let d2 = self.un.at(store, d, 2);
            let Some(m) = sat(store, &[s0, a01, a12, d2], self.ctl)? else {
                let a = store.mk_and(&[a01, a12]);
                let b = store.mk_and(&[s0, d2]);
                let i = self.learn(store, a, b)?;
                lv.strengthen(store, n + 1, i);
                return Ok(None);
            };
            let st = self.states(store, &m);
            if n == 0 {
                return Ok(Some(match lv.family {
                    // Identity steps repeat a state: they are not steps of the path.
                    Family::AtMost => {
                        let mut path = vec![st[0].clone()];
                        for x in &st[1..] {
                            if path.last() != Some(x) {
                                path.push(x.clone());
                            }
                        }
                        path
                    }
                    Family::Exact => st,
                }));
            }
            let mid = middle(
                store,
                self.ts,
                &self.steps[1],
                &m,
                &[s0, a01, a12, d2],
                &st[1],
            );
            let Some(first) = self.reach(store, lv, n - 1, s, mid)? else {
                continue;
            };
            let e = self.state_formula(store, first.last().expect("paths are not empty"));
            let Some(second) = self.reach(store, lv, n - 1, e, d)? else {
                continue;
            };
            return Ok(Some(concat(first, second)));
        }
    }

    /// An invariant from the relation `l` (over `vars`, `next`, containing the identity)
    /// when it is closed under one more step from `init` or towards `bad`, and which way.
    pub fn closed(
        &mut self,
        store: &mut TermStore,
        l: TermId,
    ) -> Result<Option<(TermId, Direction)>, UnknownReason> {
        self.stats.fixpoint_checks += 1;
        if let Some(inv) = self.forward(store, l)? {
            return Ok(Some((inv, Direction::Forward)));
        }
        Ok(self
            .backward(store, l)?
            .map(|inv| (inv, Direction::Backward)))
    }

    /// The forward check: when `init(x₀) ∧ L(x₀,x₁) ∧ T(x₁,x₂) ⇒ L(x₀,x₂)`, the states
    /// `∃x₀· init(x₀) ∧ L(x₀,x)` contain `init` (`L ⊇ Id`) and are closed under `T`. They
    /// exclude `bad` when `L` was built to separate `init` from `bad`; the caller's
    /// self-check decides. `None`: not closed, or the projection failed.
    fn forward(
        &mut self,
        store: &mut TermStore,
        l: TermId,
    ) -> Result<Option<TermId>, UnknownReason> {
        let ctl = self.ctl;
        if store.as_bool(l) == Some(true) {
            return Ok(None);
        }
        let init0 = self.un.init(store, 0);
        let l01 = self.rel(store, l, 0, 1);
        let t12 = self.un.trans(store, 1);
        let l02 = self.rel(store, l, 0, 2);
        let nl02 = store.mk_not(l02);
        if sat(store, &[init0, l01, t12, nl02], ctl)?.is_some() {
            return Ok(None);
        }
        // ∃x₀· init(x₀) ∧ L(x₀, x): L's current copy goes to step 0, its next copy to vars.
        let from: Vec<VarId> = self.ts.vars.iter().chain(&self.ts.next).copied().collect();
        let to: Vec<VarId> = self.steps[0].iter().chain(&self.ts.vars).copied().collect();
        let reach = rename(store, l, &from, &to);
        let phi = store.mk_and(&[init0, reach]);
        let x0 = self.steps[0].clone();
        project(store, phi, &x0, false, ctl)
    }

    /// The dual check, restricted to the bad states: when `T(x₀,x₁) ∧ L(x₁,x₂) ∧ bad(x₂) ⇒
    /// L(x₀,x₂)`, the states that reach `bad` by `L`, `∃x₂· L(x,x₂) ∧ bad(x₂)`, are closed
    /// under backward steps and contain `bad`: their complement is an inductive invariant
    /// when they miss `init`.
    fn backward(
        &mut self,
        store: &mut TermStore,
        l: TermId,
    ) -> Result<Option<TermId>, UnknownReason> {
        let ctl = self.ctl;
        if store.as_bool(l) == Some(true) {
            return Ok(None);
        }
        let t01 = self.un.trans(store, 0);
        let l12 = self.rel(store, l, 1, 2);
        let bad2 = self.un.bad(store, 2);
        let l02 = self.rel(store, l, 0, 2);
        let nl02 = store.mk_not(l02);
        if sat(store, &[t01, l12, bad2, nl02], ctl)?.is_some() {
            return Ok(None);
        }
        // ¬∃x₂· L(x, x₂) ∧ bad(x₂): L's current copy is vars, its next copy step 2.
        let from: Vec<VarId> = self.ts.vars.iter().chain(&self.ts.next).copied().collect();
        let to: Vec<VarId> = self.ts.vars.iter().chain(&self.steps[2]).copied().collect();
        let l_x2 = rename(store, l, &from, &to);
        let phi = store.mk_and(&[l_x2, bad2]);
        let x2 = self.steps[2].clone();
        project(store, phi, &x2, true, ctl)
    }
}

/// `∃ vars · phi` (negated if `negate`); `None` when the projection fails, since that is no
/// answer yet (a later level may do better), unless the control stopped.
pub(crate) fn project(
    store: &mut TermStore,
    phi: TermId,
    vars: &[VarId],
    negate: bool,
    ctl: &Control,
) -> Result<Option<TermId>, UnknownReason> {
    match eliminate(store, phi, vars, PROJECTION_LIMIT, ctl) {
        Ok(p) if negate => Ok(Some(store.mk_not(p))),
        Ok(p) => Ok(Some(p)),
        Err(_) => match ctl.should_stop() {
            Some(stop) => Err(stop),
            None => Ok(None),
        },
    }
}

/// The middle states of a satisfied two-step query (`query` over steps 0, 1, 2, satisfied by
/// `m`), generalized from the model's by projecting the query onto step 1 (`step1`); the
/// concrete state `point` when the projection keeps other variables. Over `vars`.
pub(crate) fn middle(
    store: &mut TermStore,
    ts: &TransitionSystem,
    step1: &[VarId],
    m: &cove_logic::Model,
    query: &[TermId],
    point: &[cove_logic::Value],
) -> TermId {
    let q = store.mk_and(query);
    let others: Vec<VarId> = cove_logic::free_vars(store, q)
        .into_iter()
        .filter(|v| !step1.contains(v))
        .collect();
    match cove_smt::mbp::mbp_cube(store, m, q, &others) {
        Ok(p) if p.kept.is_empty() => rename(store, p.formula, step1, &ts.vars),
        _ => super::ts_util::state_is(store, &ts.vars, point),
    }
}

/// `first` followed by `second`, which starts where `first` ends.
pub(crate) fn concat(mut first: Path, second: Path) -> Path {
    first.extend(second.into_iter().skip(1));
    first
}
