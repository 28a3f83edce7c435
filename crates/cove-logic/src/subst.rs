//! Substitution, free variables and expansion of function definitions: the one
//! implementation every crate uses.
//!
//! Terms name their variables, and a quantifier may rebind a variable that also occurs free
//! elsewhere (`(and (P x) (forall ((x Int)) (Q x)))`). The walks therefore track the binder
//! context: a node is visited once per context, not once per DAG node (so their cost is
//! linear in the number of distinct subterms for quantifier-free terms), and substitution
//! renames a binder to a fresh variable when it would capture a free variable of the
//! substituted terms. Every walk is iterative, so deep terms cannot overflow the stack.

use crate::model::FuncInterp;
use crate::term::{FuncId, Op, Sort, TermId, TermStore, VarId};
use rustc_hash::{FxHashMap, FxHashSet};

/// Rebuilds `op(args)` with the light folding of the engine constructors for Boolean
/// structure (so substituting constants simplifies on the way) and verbatim otherwise.
pub fn rebuild(store: &mut TermStore, op: &Op, args: &[TermId], sort: Sort) -> TermId {
    match op {
        Op::Not => store.mk_not(args[0]),
        Op::And => store.mk_and(args),
        Op::Or => store.mk_or(args),
        Op::Ite => store.mk_ite(args[0], args[1], args[2]),
        Op::Eq if args[0] == args[1] => store.mk_true(),
        Op::Select => store.mk_select(args[0], args[1]),
        _ => store.mk_raw(op.clone(), args, sort),
    }
}

/// The free variables of `t`, sorted by id.
pub fn free_vars(store: &TermStore, t: TermId) -> Vec<VarId> {
    let mut v = free_vars_in_order(store, &[t]);
    v.sort();
    v
}

/// The free variables of `terms`, in order of first occurrence (left to right).
pub fn free_vars_in_order(store: &TermStore, terms: &[TermId]) -> Vec<VarId> {
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

/// `t` with every free occurrence of a variable in `map` replaced by its image (all at once,
/// not iterated), folding Boolean structure on the way ([`rebuild`]). Binders that would
/// capture a free variable of an image are renamed with [`TermStore::fresh_var`]. Images must
/// have the variables' sorts.
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
    // Free variables of the images, computed when the first binder is met.
    let mut range_fv: Option<FxHashSet<VarId>> = None;
    // The top context is the caller's map itself: callers that grow one map definition by
    // definition (clause simplification) would pay a copy of it per call.
    let mut ctxs: Vec<std::borrow::Cow<'_, FxHashMap<VarId, TermId>>> =
        vec![std::borrow::Cow::Borrowed(map)];
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
                    let mut m = ctxs[c as usize].as_ref().clone();
                    for &v in vs.iter() {
                        m.remove(&v);
                    }
                    if m.is_empty() {
                        memo.insert((n, c), n);
                        continue;
                    }
                    let range = range_fv.get_or_insert_with(|| {
                        let images: Vec<TermId> = map.values().copied().collect();
                        free_vars_in_order(store, &images).into_iter().collect()
                    });
                    let mut new_vs = Vec::with_capacity(vs.len());
                    for &v in vs.iter() {
                        if range.contains(&v) {
                            let w = fresh(store, v);
                            let wt = store.mk_var(w);
                            m.insert(v, wt);
                            new_vs.push(w);
                        } else {
                            new_vs.push(v);
                        }
                    }
                    ctxs.push(std::borrow::Cow::Owned(m));
                    let child = (ctxs.len() - 1) as u32;
                    quant.insert((n, c), (child, new_vs.into()));
                    stack.push((n, c, true));
                    stack.push((body, child, false));
                } else {
                    let (child, new_vs) = quant[&(n, c)].clone();
                    let b = memo[&(body, child)];
                    let q = if matches!(op, Op::Forall(_)) {
                        Op::Forall(new_vs)
                    } else {
                        Op::Exists(new_vs)
                    };
                    let r = store.mk_raw(q, &[b], Sort::Bool);
                    memo.insert((n, c), r);
                }
            }
            _ => {
                if !expanded {
                    stack.push((n, c, true));
                    for &a in store.args(n).iter().rev() {
                        if !memo.contains_key(&(a, c)) {
                            stack.push((a, c, false));
                        }
                    }
                } else {
                    let args: Vec<TermId> = store.args(n).iter().map(|&a| memo[&(a, c)]).collect();
                    let r = if args.as_slice() == store.args(n) {
                        n
                    } else {
                        let sort = store.sort(n);
                        rebuild(store, &op, &args, sort)
                    };
                    memo.insert((n, c), r);
                }
            }
        }
    }
    memo[&(t, 0)]
}

/// True when `t` contains an application of an uninterpreted function.
pub fn has_app(store: &TermStore, t: TermId) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        if matches!(store.op(u), Op::App(_)) {
            return true;
        }
        stack.extend_from_slice(store.args(u));
    }
    false
}

/// Replaces every application `f(args)` with `f` in `defs` by the definition's body with the
/// parameters replaced by the (expanded) arguments.
pub fn expand_funcs(
    store: &mut TermStore,
    t: TermId,
    defs: &FxHashMap<FuncId, FuncInterp>,
) -> TermId {
    let mut memo: FxHashMap<TermId, TermId> = FxHashMap::default();
    let mut stack: Vec<(TermId, bool)> = vec![(t, false)];
    while let Some((n, expanded)) = stack.pop() {
        if !expanded {
            if memo.contains_key(&n) {
                continue;
            }
            if store.args(n).is_empty() && !matches!(store.op(n), Op::App(_)) {
                memo.insert(n, n);
                continue;
            }
            stack.push((n, true));
            for &a in store.args(n).iter().rev() {
                if !memo.contains_key(&a) {
                    stack.push((a, false));
                }
            }
            continue;
        }
        let args: Vec<TermId> = store.args(n).iter().map(|a| memo[a]).collect();
        let op = store.op(n).clone();
        let r = match &op {
            Op::App(f) if defs.contains_key(f) => {
                let def = &defs[f];
                let map: FxHashMap<VarId, TermId> = def
                    .params
                    .iter()
                    .copied()
                    .zip(args.iter().copied())
                    .collect();
                let body = def.body;
                substitute(store, body, &map)
            }
            _ if args[..] == store.args(n)[..] => n,
            _ => {
                let sort = store.sort(n);
                rebuild(store, &op, &args, sort)
            }
        };
        memo.insert(n, r);
    }
    memo[&t]
}

/// `t` with the subterms in `map` replaced by their images (all at once; the images are not
/// visited again), folding Boolean structure on the way ([`rebuild`]). Not for terms with
/// binders: a replaced subterm under a quantifier is replaced whether or not it mentions a
/// bound variable. Iterative: children are rebuilt before their parents because a term's
/// id is larger than its arguments' in the hash-consed store.
pub fn replace_subterms(
    store: &mut TermStore,
    t: TermId,
    map: &FxHashMap<TermId, TermId>,
) -> TermId {
    let mut all = Vec::new();
    let mut stack = vec![t];
    let mut seen = FxHashSet::default();
    while let Some(u) = stack.pop() {
        if seen.insert(u) {
            all.push(u);
            if !map.contains_key(&u) {
                stack.extend(store.args(u).iter().copied());
            }
        }
    }
    all.sort_unstable();
    let mut new: FxHashMap<TermId, TermId> = FxHashMap::default();
    for u in all {
        let r = if let Some(&r) = map.get(&u) {
            r
        } else if store.args(u).is_empty() {
            u
        } else {
            let args: Vec<TermId> = store.args(u).iter().map(|a| new[a]).collect();
            if args.as_slice() == store.args(u) {
                u
            } else {
                let op = store.op(u).clone();
                let sort = store.sort(u);
                rebuild(store, &op, &args, sort)
            }
        };
        new.insert(u, r);
    }
    new[&t]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitution_respects_binders_and_folds() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::Bool);
        let y = s.var("y", Sort::Bool);
        let (xt, yt) = (s.mk_var(x), s.mk_var(y));
        let conj = s.mk_and(&[xt, yt]);
        let q = s.mk_quant(true, &[x], conj);
        let both = s.mk_and(&[xt, q]);
        let f = s.mk_false();
        let mut map = FxHashMap::default();
        map.insert(x, f);
        // The free x becomes false, so the whole conjunction folds to false.
        assert_eq!(substitute(&mut s, both, &map), f);
        // Under the binder x is untouched.
        assert_eq!(substitute(&mut s, q, &map), q);
        assert_eq!(free_vars(&s, q), vec![y]);
        assert_eq!(free_vars(&s, both), vec![x, y]);
    }

    #[test]
    fn substitution_renames_capturing_binders() {
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
        assert_eq!(free_vars_in_order(&s, &[r]), vec![x]);
        // A binder of the substituted variable shields its body.
        let map: FxHashMap<VarId, TermId> = [(x, yt)].into_iter().collect();
        assert_eq!(substitute(&mut s, q, &map), q);
        assert_eq!(free_vars_in_order(&s, &[q]), vec![y]);
    }

    #[test]
    fn deep_terms_do_not_overflow() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::Int);
        let mut t = s.mk_var(x);
        let one = s.mk_int(1);
        for _ in 0..300_000 {
            t = s.mk_add(&[one, t]);
        }
        let y = s.var("y", Sort::Int);
        let yt = s.mk_var(y);
        let map: FxHashMap<VarId, TermId> = [(x, yt)].into_iter().collect();
        let r = substitute(&mut s, t, &map);
        assert_eq!(free_vars(&s, r), vec![y]);
        let p = s.declare_func("p", &[Sort::Int], Sort::Bool).unwrap();
        let app = s.mk_app(p, &[r]);
        let mut defs = FxHashMap::default();
        let z = s.var("z", Sort::Int);
        let zt = s.mk_var(z);
        let zero = s.mk_int(0);
        let body = s.mk_ge(zt, zero);
        defs.insert(
            p,
            FuncInterp {
                params: vec![z],
                body,
            },
        );
        let e = expand_funcs(&mut s, app, &defs);
        assert!(!has_app(&s, e));
    }
}
