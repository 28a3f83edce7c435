//! EXTRACTINVS and PBA (thesis Fig. 3.7 lines 7 and 10, Sec. 3.5(f)).
//!
//! - [`houdini`]: the maximal inductive subset of candidate formulas with respect to the
//!   *input* clauses (a Houdini-style greatest fixed point: a candidate that fails to be
//!   implied by some clause is dropped, until nothing changes). Unlike the thesis's
//!   model-driven MUS we drop, per failing check, every candidate the counter-model falsifies;
//!   this computes the same maximal subset.
//! - [`pba`]: proof-based abstraction. Each step of the bounded proof (a lemma at level `l`
//!   from its body atoms' lemmas at level `l - 1`, and the query from level `bound - 1`) is
//!   re-checked on the *input* clause with every leaf under its σ and the invariants assumed;
//!   the union of the unsat cores is the new abstraction. The invariants take part unguarded,
//!   which is what lets PBA drop updates that the invariants already describe.

use super::invmap::InvMap;
use super::space::Space;
use crate::engine::Control;
use crate::result::UnknownReason;
use crate::system::ChcSystem;
use cove_logic::{FuncId, TermId, TermStore, Value};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::{FxHashMap, FxHashSet};

fn solver(ctl: &Control) -> SmtSolver {
    let mut s = SmtSolver::new();
    s.set_limits(cove_smt::Limits::of(ctl));
    s
}

fn unknown(ctl: &Control, r: impl std::fmt::Debug) -> UnknownReason {
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

/// Lemmas of a bounded proof, per predicate over the [`InvMap`]'s parameters, with levels.
pub(super) type ProofFrames = FxHashMap<FuncId, Vec<(TermId, usize)>>;

/// `O^k(p)` (lemmas at levels `>= k`), `false` below level 0.
fn frame_at(frames: &ProofFrames, store: &mut TermStore, p: FuncId, k: Option<usize>) -> TermId {
    let Some(k) = k else {
        return store.mk_false();
    };
    let lemmas: Vec<TermId> = frames
        .get(&p)
        .map(|v| v.iter().filter(|(_, l)| *l >= k).map(|(f, _)| *f).collect())
        .unwrap_or_default();
    store.mk_and(&lemmas)
}

/// The leaves the bounded proof `frames` (of the query at `bound`) needs, relative to `inv`.
/// Returns the new abstraction and the number of proof steps that did not check on the
/// input clause (their clauses are kept whole).
pub(super) fn pba(
    store: &mut TermStore,
    space: &Space,
    frames: &ProofFrames,
    inv: &InvMap,
    bound: usize,
    ctl: &Control,
) -> Result<(Vec<bool>, usize), UnknownReason> {
    let mut enabled = vec![false; space.leaves.len()];
    let mut failed = 0;
    for (ci, ac) in space.clauses.iter().enumerate() {
        // (premise level, goal over the head parameters); `None` goal = `false`.
        let mut steps: Vec<(Option<usize>, Option<TermId>)> = Vec::new();
        match &ac.head {
            Some((h, _)) => {
                for &(f, l) in frames.get(h).map_or(&[][..], |v| v.as_slice()) {
                    let premise = if l == usize::MAX {
                        Some(l)
                    } else {
                        l.checked_sub(1)
                    };
                    steps.push((premise, Some(f)));
                }
            }
            None => steps.push((bound.checked_sub(1), None)),
        }
        let mut seen = FxHashSet::default();
        steps.retain(|s| (ac.body.is_empty() || s.0.is_some()) && seen.insert(*s));
        if steps.is_empty() {
            continue;
        }
        let mut s = solver(ctl);
        let g = space.guarded(store, ci);
        s.assert(store, g);
        for b in &ac.body {
            let t = inv.apply(store, b.pred, &b.args);
            s.assert(store, t);
        }
        if let Some((h, args)) = &ac.head {
            let t = inv.apply(store, *h, args);
            s.assert(store, t);
        }
        let sigmas: Vec<TermId> = ac.leaves.iter().map(|&l| space.leaves[l].sigma).collect();
        for (premise, goal) in steps {
            if let Some(r) = ctl.should_stop() {
                return Err(r);
            }
            s.push();
            for b in &ac.body {
                let o = frame_at(frames, store, b.pred, premise);
                let t = inv.at(store, b.pred, o, &b.args);
                s.assert(store, t);
            }
            if let (Some(f), Some((h, args))) = (goal, &ac.head) {
                let t = inv.at(store, *h, f, args);
                let n = store.mk_not(t);
                s.assert(store, n);
            }
            match s.check_assuming(store, &sigmas) {
                SmtResult::Unsat => {
                    for lit in s.unsat_core() {
                        if let Some(&l) = space.by_sigma.get(&lit) {
                            enabled[l] = true;
                        }
                    }
                }
                SmtResult::Sat => {
                    failed += 1;
                    for &l in &ac.leaves {
                        enabled[l] = true;
                    }
                }
                SmtResult::Unknown(r) => return Err(unknown(ctl, r)),
            }
            s.pop(1);
        }
    }
    Ok((enabled, failed))
}
