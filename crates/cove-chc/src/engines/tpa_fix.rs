//! Fixpoint checks shared by the two transition-power engines ([`super::tpa`] and
//! [`super::split_tpa`]): when a relation `L(x, x')` that contains the identity is closed
//! under one more step of `T` — from the initial states, or backwards from the bad states —
//! the states it reaches are an inductive invariant, computed by exact projection.
//!
//! Both checks are *restricted* (to `init`, resp. `bad`): they need less than `L ∘ T ⊆ L`
//! and still give a 1-inductive invariant, so there is no unrestricted variant.

use super::ts_util::{eliminate, rename, sat};
use crate::engine::Control;
use crate::result::UnknownReason;
use crate::ts::{TransitionSystem, Unroller};
use cove_logic::{TermId, TermStore, VarId};

/// Disjuncts allowed when projecting an invariant.
pub(crate) const PROJECTION_LIMIT: usize = 64;

/// The step copies (0, 1, 2) the checks use, and the system.
pub(crate) struct Frames<'a> {
    /// The system.
    pub ts: &'a TransitionSystem,
    /// Its unroller (steps 0..=2 at least).
    pub un: &'a mut Unroller,
    /// State copies of steps 0, 1, 2.
    pub steps: &'a [Vec<VarId>],
}

impl Frames<'_> {
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

    /// The forward check: when `init(x₀) ∧ L(x₀,x₁) ∧ T(x₁,x₂) ⇒ L(x₀,x₂)`, the states
    /// `∃x₀· init(x₀) ∧ L(x₀,x)` contain `init` (`L ⊇ Id`) and are closed under `T`. They
    /// exclude `bad` when `L` was built to separate `init` from `bad`; the caller's
    /// self-check decides. `None`: not closed, or the projection failed.
    pub fn forward(
        &mut self,
        store: &mut TermStore,
        l: TermId,
        ctl: &Control,
    ) -> Result<Option<TermId>, UnknownReason> {
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
    pub fn backward(
        &mut self,
        store: &mut TermStore,
        l: TermId,
        ctl: &Control,
    ) -> Result<Option<TermId>, UnknownReason> {
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
