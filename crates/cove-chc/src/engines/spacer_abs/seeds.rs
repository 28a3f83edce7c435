//! Seed candidates for EXTRACTINVS (beyond the thesis; `SpacerAbsConfig::seeds`).
//!
//! Bounded proofs of small depth talk about the variables the query mentions, rarely about
//! counters that move in lock step (the thesis's Fig. 3.1: `w += 1; z += 10` every
//! iteration), yet exactly such relations (`z = 10w`) are what lets PBA drop the updates
//! themselves. So Houdini also starts from, per predicate and self-loop clause:
//! - the initial value as a bound of every variable with a constant increment
//!   (`w >= 0` for `w' = w + 1` from `w = 0`);
//! - for two variables with constant increments `a` and `b`, the relation
//!   `b·x − a·y` at its initial value (`=`, `<=`, `>=`).
//!
//! Increments are found semantically (`x' − x` takes one value in a model and no other value
//! is possible), so they need not be written as `x' = x + c`. Houdini keeps only what is
//! inductive, so seeds never affect soundness.

use crate::engine::Control;
use crate::invariant_map::InvMap;
use crate::system::ChcSystem;
use cove_logic::{FuncId, Rational, Sort, TermStore, Value};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::FxHashMap;

/// At most this many variables with constant increments per clause are paired.
const MAX_COUNTERS: usize = 12;
/// At most this many SMT checks in all.
const MAX_CHECKS: usize = 400;

fn num(v: &Value) -> Option<Rational> {
    v.as_num().cloned()
}

/// Adds the seed candidates of every predicate to `cands`.
pub(super) fn seed(store: &mut TermStore, sys: &ChcSystem, cands: &mut InvMap, ctl: &Control) {
    let mut checks = 0usize;
    let mut init: FxHashMap<FuncId, Vec<Option<Rational>>> = FxHashMap::default();
    // One initial state per predicate (the first satisfiable fact clause).
    for c in sys.clauses.iter().filter(|c| c.is_fact()) {
        let Some(h) = &c.head else { continue };
        if init.contains_key(&h.pred) {
            continue;
        }
        let mut s = SmtSolver::new();
        s.set_limits(cove_smt::Limits::of(ctl));
        s.assert(store, c.constraint);
        checks += 1;
        if s.check(store) != SmtResult::Sat {
            continue;
        }
        let m = s.model(store);
        let vals = h
            .args
            .iter()
            .map(|a| m.eval(store, *a).ok().as_ref().and_then(num))
            .collect();
        init.insert(h.pred, vals);
    }
    for c in &sys.clauses {
        let Some(h) = &c.head else { continue };
        if c.body.len() != 1 || c.body[0].pred != h.pred {
            continue;
        }
        let Some(vals) = init.get(&h.pred).cloned() else {
            continue;
        };
        let b = &c.body[0];
        let mut s = SmtSolver::new();
        s.set_limits(cove_smt::Limits::of(ctl));
        s.assert(store, c.constraint);
        let mut incs: Vec<(usize, Rational)> = Vec::new();
        for (i, v0) in vals.iter().enumerate() {
            if incs.len() >= MAX_COUNTERS || checks + 2 > MAX_CHECKS || ctl.should_stop().is_some()
            {
                break;
            }
            if !matches!(store.sort(h.args[i]), Sort::Int | Sort::Real) || v0.is_none() {
                continue;
            }
            let diff = store.mk_sub(h.args[i], b.args[i]);
            checks += 1;
            if s.check(store) != SmtResult::Sat {
                break;
            }
            let m = s.model(store);
            let Some(k) = m.eval(store, diff).ok().as_ref().and_then(num) else {
                continue;
            };
            let kt = store.mk_num(k.clone(), store.sort(diff));
            let eq = store.mk_eq(diff, kt);
            let ne = store.mk_not(eq);
            checks += 1;
            if s.check_assuming(store, &[ne]) == SmtResult::Unsat && !k.is_zero() {
                incs.push((i, k));
            }
        }
        let params = cands.params[&h.pred].clone();
        let mut new = Vec::new();
        for (a, (i, ki)) in incs.iter().enumerate() {
            let x = store.mk_var(params[*i]);
            let v0 = vals[*i].clone().expect("checked above");
            let bound = store.mk_num(v0, store.sort(x));
            new.push(if ki.is_positive() {
                store.mk_ge(x, bound)
            } else {
                store.mk_le(x, bound)
            });
            for (j, kj) in &incs[a + 1..] {
                let y = store.mk_var(params[*j]);
                // kj·x − ki·y is invariant under both increments.
                let lhs_x = store.mk_scale(kj, x);
                let lhs_y = store.mk_scale(ki, y);
                let lhs = store.mk_sub(lhs_x, lhs_y);
                let mut v0 = kj.clone();
                v0 *= vals[*i].as_ref().expect("checked above");
                let mut w0 = ki.clone();
                w0 *= vals[*j].as_ref().expect("checked above");
                v0 -= &w0;
                let k = store.mk_num(v0, store.sort(lhs));
                new.push(store.mk_eq(lhs, k));
                new.push(store.mk_le(lhs, k));
                new.push(store.mk_ge(lhs, k));
            }
        }
        let set = cands.sets.entry(h.pred).or_default();
        for f in new {
            if !set.contains(&f) {
                set.push(f);
            }
        }
    }
}
