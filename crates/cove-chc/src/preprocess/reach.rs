//! Pass 2: reachability on the predicate graph.
//!
//! A predicate is *derivable* if some clause derives it from derivable predicates (least
//! fixpoint from the facts); one that is not has only the empty set of derivable facts, so it
//! is interpreted as `false` and every clause with it in the body is valid and dropped. A
//! predicate is *relevant* if it occurs in the body of a query or of a clause whose head is
//! relevant; an irrelevant predicate can be interpreted as `true`, which makes every clause
//! with it as head valid, so those clauses are dropped too.
//!
//! # Back-translation
//! Invariants: kept predicates keep theirs, underivable ones get `false`, irrelevant ones
//! `true`. Derivations: only kept clauses can occur, so clause indices are mapped back.

use super::util::fresh_params;
use super::{BackError, BackTranslate};
use crate::engine::Control;
use crate::result::{Derivation, Invariants};
use crate::system::ChcSystem;
use cove_logic::{FuncId, TermStore};
use rustc_hash::{FxHashMap, FxHashSet};

/// The back-translator of the reachability pass.
pub struct Reach {
    /// Per output clause, its input index.
    kept: Vec<usize>,
    /// Predicates interpreted as `false`.
    underivable: Vec<FuncId>,
    /// Predicates interpreted as `true`.
    irrelevant: Vec<FuncId>,
}

/// Runs the pass. Both fixpoints are worklist algorithms over the predicate graph (linear in
/// the size of the system; the naive "repeat until nothing changes" sweep is quadratic on a
/// chain of predicates).
pub fn run(_store: &mut TermStore, sys: &ChcSystem) -> (ChcSystem, Reach) {
    // Derivable: a clause fires once all its body atoms are derivable (counted per
    // occurrence, so a predicate repeated in a body is counted down as often).
    let mut waiting: Vec<usize> = sys.clauses.iter().map(|c| c.body.len()).collect();
    let mut users: FxHashMap<FuncId, Vec<usize>> = FxHashMap::default();
    for (i, c) in sys.clauses.iter().enumerate() {
        for a in &c.body {
            users.entry(a.pred).or_default().push(i);
        }
    }
    let mut derivable: FxHashSet<FuncId> = FxHashSet::default();
    let mut queue: Vec<FuncId> = Vec::new();
    for (i, c) in sys.clauses.iter().enumerate() {
        if waiting[i] == 0
            && let Some(h) = &c.head
            && derivable.insert(h.pred)
        {
            queue.push(h.pred);
        }
    }
    while let Some(p) = queue.pop() {
        for &i in users.get(&p).map_or(&[][..], |v| v.as_slice()) {
            waiting[i] -= 1;
            if waiting[i] == 0
                && let Some(h) = &sys.clauses[i].head
                && derivable.insert(h.pred)
            {
                queue.push(h.pred);
            }
        }
    }
    let usable = |c: &crate::system::Clause| c.body.iter().all(|a| derivable.contains(&a.pred));
    // Relevant: backwards from the usable queries through usable clauses.
    let mut defs: FxHashMap<FuncId, Vec<usize>> = FxHashMap::default();
    for (i, c) in sys.clauses.iter().enumerate() {
        if let Some(h) = &c.head
            && usable(c)
        {
            defs.entry(h.pred).or_default().push(i);
        }
    }
    let mut relevant: FxHashSet<FuncId> = FxHashSet::default();
    let mut queue: Vec<FuncId> = Vec::new();
    for c in sys.clauses.iter().filter(|c| c.head.is_none() && usable(c)) {
        for a in &c.body {
            if relevant.insert(a.pred) {
                queue.push(a.pred);
            }
        }
    }
    while let Some(p) = queue.pop() {
        for &i in defs.get(&p).map_or(&[][..], |v| v.as_slice()) {
            for a in &sys.clauses[i].body {
                if relevant.insert(a.pred) {
                    queue.push(a.pred);
                }
            }
        }
    }
    let mut out = ChcSystem::default();
    let mut bt = Reach {
        kept: Vec::new(),
        underivable: Vec::new(),
        irrelevant: Vec::new(),
    };
    for &p in &sys.preds {
        if !derivable.contains(&p) {
            bt.underivable.push(p);
        } else if !relevant.contains(&p) {
            bt.irrelevant.push(p);
        } else {
            out.preds.push(p);
        }
    }
    for (i, c) in sys.clauses.iter().enumerate() {
        if usable(c) && c.head.as_ref().is_none_or(|h| relevant.contains(&h.pred)) {
            out.clauses.push(c.clone());
            bt.kept.push(i);
        }
    }
    (out, bt)
}

impl BackTranslate for Reach {
    fn invariants(
        &self,
        store: &mut TermStore,
        mut inv: Invariants,
        _ctl: &Control,
    ) -> Result<Invariants, BackError> {
        for (preds, value) in [(&self.underivable, false), (&self.irrelevant, true)] {
            for &p in preds {
                let params = fresh_params(store, p);
                let body = store.mk_bool(value);
                inv.define(p, params, body);
            }
        }
        Ok(inv)
    }

    fn derivation(
        &self,
        _store: &mut TermStore,
        mut d: Derivation,
        _ctl: &Control,
    ) -> Result<Derivation, BackError> {
        for step in &mut d.steps {
            step.clause = *self.kept.get(step.clause).ok_or_else(|| {
                BackError::BadWitness(format!("step over missing clause {}", step.clause))
            })?;
        }
        Ok(d)
    }
}
