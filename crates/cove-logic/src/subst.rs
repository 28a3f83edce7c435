//! Substitution, free variables and expansion of function definitions.
//!
//! All traversals are memoized on the DAG, so their cost is linear in the number of distinct
//! subterms, not in the size of the tree a term unfolds to.

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
        _ => store.mk_raw(op.clone(), args, sort),
    }
}

/// Replaces the free occurrences of the variables in `map` by the mapped terms (all at once,
/// not iterated). Mapped terms must have the variables' sorts.
pub fn substitute(store: &mut TermStore, t: TermId, map: &FxHashMap<VarId, TermId>) -> TermId {
    if map.is_empty() {
        return t;
    }
    let mut memo = FxHashMap::default();
    subst_rec(store, t, map, &mut memo)
}

fn subst_rec(
    store: &mut TermStore,
    t: TermId,
    map: &FxHashMap<VarId, TermId>,
    memo: &mut FxHashMap<TermId, TermId>,
) -> TermId {
    if let Some(&r) = memo.get(&t) {
        return r;
    }
    let term = store.get(t).clone();
    let r = match &term.op {
        Op::Var(v) => map.get(v).copied().unwrap_or(t),
        Op::Bool(_) | Op::Num(_) => t,
        Op::Forall(vs) | Op::Exists(vs) => {
            // Bound variables shadow the substitution inside the body.
            let inner: FxHashMap<VarId, TermId> = map
                .iter()
                .filter(|(v, _)| !vs.contains(v))
                .map(|(v, t)| (*v, *t))
                .collect();
            let mut inner_memo = FxHashMap::default();
            let body = subst_rec(store, term.args[0], &inner, &mut inner_memo);
            store.mk_raw(term.op.clone(), &[body], Sort::Bool)
        }
        _ => {
            let args: Vec<TermId> = term
                .args
                .iter()
                .map(|&a| subst_rec(store, a, map, memo))
                .collect();
            if args[..] == term.args[..] {
                t
            } else {
                rebuild(store, &term.op, &args, term.sort)
            }
        }
    };
    memo.insert(t, r);
    r
}

/// The free variables of `t`, sorted by id.
pub fn free_vars(store: &TermStore, t: TermId) -> Vec<VarId> {
    let mut out = FxHashSet::default();
    let mut seen = FxHashSet::default();
    collect_free(store, t, &mut Vec::new(), &mut seen, &mut out);
    let mut v: Vec<VarId> = out.into_iter().collect();
    v.sort();
    v
}

fn collect_free(
    store: &TermStore,
    t: TermId,
    bound: &mut Vec<VarId>,
    seen: &mut FxHashSet<TermId>,
    out: &mut FxHashSet<VarId>,
) {
    // `seen` is only sound to use when nothing is bound.
    if bound.is_empty() && !seen.insert(t) {
        return;
    }
    match store.op(t) {
        Op::Var(v) => {
            if !bound.contains(v) {
                out.insert(*v);
            }
        }
        Op::Forall(vs) | Op::Exists(vs) => {
            let n = bound.len();
            bound.extend(vs.iter().copied());
            collect_free(store, store.args(t)[0], bound, seen, out);
            bound.truncate(n);
        }
        _ => {
            for &a in store.args(t) {
                collect_free(store, a, bound, seen, out);
            }
        }
    }
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
    let mut memo = FxHashMap::default();
    expand_rec(store, t, defs, &mut memo)
}

fn expand_rec(
    store: &mut TermStore,
    t: TermId,
    defs: &FxHashMap<FuncId, FuncInterp>,
    memo: &mut FxHashMap<TermId, TermId>,
) -> TermId {
    if let Some(&r) = memo.get(&t) {
        return r;
    }
    let term = store.get(t).clone();
    let r = if term.args.is_empty() && !matches!(term.op, Op::App(_)) {
        t
    } else {
        let args: Vec<TermId> = term
            .args
            .iter()
            .map(|&a| expand_rec(store, a, defs, memo))
            .collect();
        match &term.op {
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
            _ if args[..] == term.args[..] => t,
            _ => rebuild(store, &term.op, &args, term.sort),
        }
    };
    memo.insert(t, r);
    r
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
}
