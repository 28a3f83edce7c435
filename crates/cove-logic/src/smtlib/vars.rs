//! Variable-level walks the front ends need: free variables and capture-avoiding
//! substitution over the hash-consed DAG.
//!
//! Terms name their variables, and a quantifier may rebind a variable that also occurs free
//! elsewhere (`(and (P x) (forall ((x Int)) (Q x)))`). Both walks therefore track the binder
//! context: a node is visited once per context, not once per DAG node, and substitution
//! renames a binder to a fresh variable when it would capture a free variable of the
//! substituted terms. Both walks are iterative, so deep terms cannot overflow the stack.

use crate::{Op, TermId, TermStore, VarId};
use rustc_hash::{FxHashMap, FxHashSet};

/// The free variables of `terms`, in order of first occurrence (left to right).
pub fn free_vars(store: &TermStore, terms: &[TermId]) -> Vec<VarId> {
    let mut out = Vec::new();
    let mut seen = FxHashSet::default();
    // Context 0 binds nothing; each quantifier under a context gets a derived context.
    let mut bound: Vec<FxHashSet<VarId>> = vec![FxHashSet::default()];
    let mut derived: FxHashMap<(u32, TermId), u32> = FxHashMap::default();
    let mut visited: FxHashSet<(TermId, u32)> = FxHashSet::default();
    let mut stack: Vec<(TermId, u32)> = terms.iter().rev().map(|&t| (t, 0)).collect();
    while let Some((t, c)) = stack.pop() {
        if !visited.insert((t, c)) {
            continue;
        }
        match store.op(t) {
            Op::Var(v) => {
                if !bound[c as usize].contains(v) && seen.insert(*v) {
                    out.push(*v);
                }
            }
            Op::Forall(vs) | Op::Exists(vs) => {
                let child = *derived.entry((c, t)).or_insert_with(|| {
                    let mut b = bound[c as usize].clone();
                    b.extend(vs.iter().copied());
                    bound.push(b);
                    (bound.len() - 1) as u32
                });
                stack.push((store.args(t)[0], child));
            }
            _ => stack.extend(store.args(t).iter().rev().map(|&a| (a, c))),
        }
    }
    out
}

/// For a quantifier node under a context: the context of its body and its new binders.
type QuantCtx = FxHashMap<(TermId, u32), (u32, Box<[VarId]>)>;

/// `t` with every free occurrence of a variable in `map` replaced by its image. Binders that
/// would capture a free variable of an image are renamed with [`TermStore::fresh_var`].
pub fn substitute(store: &mut TermStore, t: TermId, map: &FxHashMap<VarId, TermId>) -> TermId {
    substitute_with(store, t, map, &mut |s, v| {
        let (name, sort) = (s.var_name(v).to_string(), s.var_sort(v));
        s.fresh_var(&name, sort)
    })
}

/// [`substitute`] with a caller-supplied way of making fresh variables (the parser records
/// the variables it invents so user symbols can never alias them).
pub fn substitute_with(
    store: &mut TermStore,
    t: TermId,
    map: &FxHashMap<VarId, TermId>,
    fresh: &mut dyn FnMut(&mut TermStore, VarId) -> VarId,
) -> TermId {
    if map.is_empty() {
        return t;
    }
    let images: Vec<TermId> = map.values().copied().collect();
    let range_fv: FxHashSet<VarId> = free_vars(store, &images).into_iter().collect();
    let mut ctxs: Vec<FxHashMap<VarId, TermId>> = vec![map.clone()];
    // For a quantifier node under a context: the context of its body and its new binders.
    let mut quant: QuantCtx = FxHashMap::default();
    let mut memo: FxHashMap<(TermId, u32), TermId> = FxHashMap::default();
    let mut stack: Vec<(TermId, u32, bool)> = vec![(t, 0, false)];
    while let Some((n, c, expanded)) = stack.pop() {
        if memo.contains_key(&(n, c)) {
            continue;
        }
        let op = store.op(n).clone();
        match op {
            Op::Var(v) => {
                let r = ctxs[c as usize].get(&v).copied().unwrap_or(n);
                memo.insert((n, c), r);
            }
            Op::Bool(_) | Op::Num(_) => {
                memo.insert((n, c), n);
            }
            Op::Forall(ref vs) | Op::Exists(ref vs) => {
                let body = store.args(n)[0];
                if !expanded {
                    let mut m = ctxs[c as usize].clone();
                    let mut new_vs = Vec::with_capacity(vs.len());
                    for &v in vs.iter() {
                        m.remove(&v);
                    }
                    if m.is_empty() {
                        memo.insert((n, c), n);
                        continue;
                    }
                    for &v in vs.iter() {
                        if range_fv.contains(&v) {
                            let w = fresh(store, v);
                            let wt = store.mk_var(w);
                            m.insert(v, wt);
                            new_vs.push(w);
                        } else {
                            new_vs.push(v);
                        }
                    }
                    ctxs.push(m);
                    let child = (ctxs.len() - 1) as u32;
                    quant.insert((n, c), (child, new_vs.into()));
                    stack.push((n, c, true));
                    stack.push((body, child, false));
                } else {
                    let (child, new_vs) = quant[&(n, c)].clone();
                    let b = memo[&(body, child)];
                    let forall = matches!(op, Op::Forall(_));
                    let q = if forall {
                        Op::Forall(new_vs)
                    } else {
                        Op::Exists(new_vs)
                    };
                    let r = store.mk_raw(q, &[b], store.sort(n));
                    memo.insert((n, c), r);
                }
            }
            _ => {
                if !expanded {
                    stack.push((n, c, true));
                    for &a in store.args(n).iter().rev() {
                        stack.push((a, c, false));
                    }
                } else {
                    let args: Vec<TermId> = store.args(n).iter().map(|&a| memo[&(a, c)]).collect();
                    let r = if args.as_slice() == store.args(n) {
                        n
                    } else {
                        store.mk_raw(op, &args, store.sort(n))
                    };
                    memo.insert((n, c), r);
                }
            }
        }
    }
    memo[&(t, 0)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sort;

    #[test]
    fn substitution_respects_binders() {
        let mut s = TermStore::new();
        let (x, y) = (s.var("x", Sort::Int), s.var("y", Sort::Int));
        let (xt, yt) = (s.mk_var(x), s.mk_var(y));
        // (exists ((x Int)) (< x y)) [y := x] must rename the binder.
        let lt = s.mk_lt(xt, yt);
        let q = s.mk_quant(false, &[x], lt);
        let map: FxHashMap<VarId, TermId> = [(y, xt)].into_iter().collect();
        let r = substitute(&mut s, q, &map);
        let Op::Exists(vs) = s.op(r).clone() else {
            panic!()
        };
        assert_ne!(vs[0], x);
        assert_eq!(free_vars(&s, &[r]), vec![x]);
        // A binder of the substituted variable shields its body.
        let map: FxHashMap<VarId, TermId> = [(x, yt)].into_iter().collect();
        assert_eq!(substitute(&mut s, q, &map), q);
        assert_eq!(free_vars(&s, &[q]), vec![y]);
    }
}
