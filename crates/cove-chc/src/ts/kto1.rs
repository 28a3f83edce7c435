//! From a k-inductive invariant to a 1-inductive one ("certifying k-induction").
//!
//! `P` is *k-inductive* when every path `s_0 → … → s_k` with `P(s_0) … P(s_{k-1})` ends in
//! `P(s_k)`, and every state reachable in fewer than `k` steps satisfies `P`. The independent
//! checker accepts only 1-inductive invariants, so `P` is strengthened to
//!
//! ```text
//! I(s) = P(s) ∧ ¬B_1(s) ∧ … ∧ ¬B_{k-1}(s)
//! B_1(s)     = ∃s'·T(s, s') ∧ ¬P(s')
//! B_{j+1}(s) = ∃s'·T(s, s') ∧ P(s') ∧ B_j(s')
//! ```
//!
//! (`B_j`: from `s`, a path through `P`-states reaches `¬P` in exactly `j` steps). `I` is
//! 1-inductive: for `I(s) ∧ T(s, s')`, `P(s')` holds because `¬B_1(s)`; `¬B_j(s')` for `j < k-1`
//! because `¬B_{j+1}(s)`; and `¬B_{k-1}(s')` because a path from `s'` would extend to a
//! `k`-path from `s` through `P`-states ending in `¬P`, which k-inductiveness excludes.
//! `I` contains the initial states by the base case. This is the construction Golem uses
//! (there with one elimination over all `k - 1` steps); here the existentials are eliminated
//! one step at a time with MBP-based quantifier elimination, which keeps each elimination
//! small.

use super::build::eliminate;
use super::{TransitionSystem, TsError};
use crate::engine::Control;
use cove_logic::{TermId, TermStore, VarId, simplify};

/// Most disjuncts one step's quantifier elimination may produce.
const STEP_QE_LIMIT: usize = 500;

impl TransitionSystem {
    /// A 1-inductive strengthening of the `k`-inductive invariant `inv` (a formula over
    /// `vars`), as described in the module docs. The result is *not* checked here; callers
    /// validate it (e.g. with [`TransitionSystem::answer`]). Fails when a quantifier
    /// elimination fails or the control stops.
    pub fn k_to_1_inductive(
        &self,
        store: &mut TermStore,
        inv: TermId,
        k: usize,
        ctl: &Control,
    ) -> Result<TermId, TsError> {
        if k <= 1 {
            return Ok(inv);
        }
        let mut locals: Vec<VarId> = self.next.clone();
        locals.extend_from_slice(&self.aux);
        let inv_next = self.to_next(store, inv);
        let not_inv_next = store.mk_not(inv_next);
        let mut parts = vec![inv];
        // b = B_j over `vars`.
        let mut b = {
            let f = store.mk_and(&[self.trans, not_inv_next]);
            eliminate(store, f, &locals, STEP_QE_LIMIT, ctl)?
        };
        for j in 1..k {
            if let Some(r) = ctl.should_stop() {
                return Err(TsError::Stopped(r));
            }
            if store.as_bool(b) == Some(false) {
                break; // no path leaves P any more: every later B_j is false too
            }
            let nb = store.mk_not(b);
            parts.push(nb);
            if j + 1 == k {
                break;
            }
            let b_next = self.to_next(store, b);
            let f = store.mk_and(&[self.trans, inv_next, b_next]);
            b = eliminate(store, f, &locals, STEP_QE_LIMIT, ctl)?;
        }
        let r = store.mk_and(&parts);
        Ok(simplify(store, r))
    }
}
