//! Houdini: the maximal inductive subset of candidate invariants (EXTRACTINVS, thesis
//! Fig. 3.7 line 7), and whether an invariant map refutes the queries. Shared by the
//! engines that guess candidates (abstraction refinement, `terms`, `phases`, predicate
//! abstraction), by the bounds pass of preprocessing, by the portfolio's strengthening and by
//! incremental sessions, so it lives below all of them.
//!
//! [`houdini`] is a greatest fixed point with respect to the *input* clauses: a candidate
//! that fails to be implied by some clause is dropped, until nothing changes. Unlike the
//! thesis's model-driven MUS it drops, per failing check, every candidate the counter-model
//! falsifies; this computes the same maximal subset.

use crate::engine::Control;
use crate::invariant_map::InvMap;
use crate::result::UnknownReason;
use crate::system::ChcSystem;
use cove_logic::{TermId, TermStore, Value};
use cove_smt::{SmtResult, SmtSolver};

/// A fresh SMT solver under `ctl`'s limits.
pub(crate) fn solver(ctl: &Control) -> SmtSolver {
    let mut s = SmtSolver::new();
    s.set_limits(cove_smt::Limits::of(ctl));
    s
}

/// Why a check gave up: the control's reason, or the solver's.
pub(crate) fn unknown(ctl: &Control, r: impl std::fmt::Debug) -> UnknownReason {
    ctl.should_stop()
        .unwrap_or_else(|| UnknownReason::Incomplete(format!("SMT: {r:?}")))
}

/// Shrinks `cands` to its maximal subset that is inductive for the clauses of `sys`.
pub(crate) fn houdini(
    store: &mut TermStore,
    sys: &ChcSystem,
    cands: &mut InvMap,
    ctl: &Control,
) -> Result<(), UnknownReason> {
    let mut changed = true;
    while changed {
        changed = false;
        for c in &sys.clauses {
            let Some(h) = &c.head else { continue };
            loop {
                if let Some(r) = ctl.should_stop() {
                    return Err(r);
                }
                let set = cands.of(h.pred).to_vec();
                if set.is_empty() {
                    break;
                }
                let mut s = solver(ctl);
                s.assert(store, c.constraint);
                for b in &c.body {
                    let t = cands.apply(store, b.pred, &b.args);
                    s.assert(store, t);
                }
                let inst: Vec<TermId> = set
                    .iter()
                    .map(|&f| cands.at(store, h.pred, f, &h.args))
                    .collect();
                let negs: Vec<TermId> = inst.iter().map(|&t| store.mk_not(t)).collect();
                let some_fails = store.mk_or(&negs);
                s.assert(store, some_fails);
                match s.check(store) {
                    SmtResult::Unsat => break,
                    SmtResult::Sat => {
                        let m = s.model(store);
                        let keep: Vec<TermId> = set
                            .iter()
                            .zip(&inst)
                            .filter(|(_, t)| m.eval(store, **t).ok() == Some(Value::Bool(true)))
                            .map(|(f, _)| *f)
                            .collect();
                        // A counter-model falsifies at least one candidate; if evaluation
                        // could not tell which, dropping all is still sound.
                        let keep = if keep.len() == set.len() {
                            Vec::new()
                        } else {
                            keep
                        };
                        cands.sets.insert(h.pred, keep);
                        changed = true;
                    }
                    SmtResult::Unknown(r) => return Err(unknown(ctl, r)),
                }
            }
        }
    }
    Ok(())
}

/// Whether `inv` refutes every query clause of `sys` (then it is a safety proof).
pub(crate) fn blocks_queries(
    store: &mut TermStore,
    sys: &ChcSystem,
    inv: &InvMap,
    ctl: &Control,
) -> Result<bool, UnknownReason> {
    for c in sys.clauses.iter().filter(|c| c.is_query()) {
        let mut s = solver(ctl);
        s.assert(store, c.constraint);
        for b in &c.body {
            let t = inv.apply(store, b.pred, &b.args);
            s.assert(store, t);
        }
        match s.check(store) {
            SmtResult::Unsat => {}
            SmtResult::Sat => return Ok(false),
            SmtResult::Unknown(r) => return Err(unknown(ctl, r)),
        }
    }
    Ok(true)
}
