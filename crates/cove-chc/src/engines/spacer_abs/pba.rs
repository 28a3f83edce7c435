//! PBA, proof-based abstraction (thesis Fig. 3.7 line 10, Sec. 3.5(f)). Each step of the
//! bounded proof (a lemma at level `l` from its body atoms' lemmas at level `l - 1`, and the
//! query from level `bound - 1`) is re-checked on the *input* clause with every leaf under
//! its σ and the invariants assumed; the union of the unsat cores is the new abstraction.
//! The invariants take part unguarded, which is what lets PBA drop updates that the
//! invariants already describe. (EXTRACTINVS, line 7, is [`crate::houdini`].)

use super::space::Space;
use crate::engine::Control;
use crate::houdini::{solver, unknown};
use crate::invariant_map::InvMap;
use crate::result::UnknownReason;
use cove_logic::{FuncId, TermId, TermStore};
use cove_smt::SmtResult;
use rustc_hash::{FxHashMap, FxHashSet};

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
