//! Divisibility literals restated through the cube's equalities.
//!
//! Model-based projection states parity and other divisibility facts over whichever
//! variable it happened to keep: a query of a loop `x := x + 1 while x < y` that ends in an
//! odd `x = y` arrives one step earlier as `y = x + 1 ∧ 2·(x+1 div 2) ≤ x` ("`x` even").
//! Dropping literals can never turn that into the fact that blocks every such query, "`y`
//! odd" (false from the start and kept by the loop), because that literal is not in the cube.
//! Rewriting the divisibility literal through the equality `x = y − 1` gives it; the cube
//! implies the rewritten literal, so trying it alone as a cube is just one more candidate
//! for the generalization, checked like every other (`generalize.rs`).

use cove_logic::linear::{LinearSum, linearize};
use cove_logic::{Op, Rational, Sort, TermId, TermStore, VarId, free_vars, simplify, substitute};
use rustc_hash::FxHashMap;

/// Most rewritten literals returned for one cube.
const MAX_REWRITES: usize = 8;

/// Literals implied by `cube`: each of its `div`/`mod` literals with one variable replaced
/// through an equality `x = y + c` between two integer variables that the cube states (as
/// an `=` literal or as two opposite bounds). Only rewrites that remove the variable are
/// kept, so the result speaks about the other one.
pub(super) fn rewrites(store: &mut TermStore, cube: &[TermId]) -> Vec<TermId> {
    if !cube.iter().any(|&l| mentions_div(store, l)) {
        return Vec::new();
    }
    let eqs = equalities(store, cube);
    let mut out = Vec::new();
    for &(x, y, ref c) in &eqs {
        // x = y + c: replace x by y + c, and y by x − c.
        for (from, to, k) in [(x, y, c.clone()), (y, x, -c.clone())] {
            let to_t = store.mk_var(to);
            let k_t = store.mk_num(k, Sort::Int);
            let repl = store.mk_add(&[to_t, k_t]);
            let map: FxHashMap<VarId, TermId> = [(from, repl)].into_iter().collect();
            for &l in cube {
                if !mentions_div(store, l) || !free_vars(store, l).contains(&from) {
                    continue;
                }
                let r = substitute(store, l, &map);
                let r = simplify(store, r);
                if r != l
                    && !cube.contains(&r)
                    && !out.contains(&r)
                    && !free_vars(store, r).contains(&from)
                {
                    out.push(r);
                    if out.len() >= MAX_REWRITES {
                        return out;
                    }
                }
            }
        }
    }
    out
}

/// Does `t` contain `div` or `mod` (iteratively: no recursion over term depth)?
fn mentions_div(store: &TermStore, t: TermId) -> bool {
    let mut stack = vec![t];
    let mut seen = rustc_hash::FxHashSet::default();
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        if matches!(store.op(u), Op::IntDiv | Op::Mod) {
            return true;
        }
        stack.extend_from_slice(store.args(u));
    }
    false
}

/// The equalities `x = y + c` (integer variables `x ≠ y`) stated by `cube`.
fn equalities(store: &TermStore, cube: &[TermId]) -> Vec<(VarId, VarId, Rational)> {
    // Per oriented difference `x − y`: its upper and lower bounds in the cube.
    let mut bounds: FxHashMap<(VarId, VarId), (Option<Rational>, Option<Rational>)> =
        FxHashMap::default();
    for &l in cube {
        let (op, args) = (store.op(l), store.args(l));
        if args.len() != 2 || !matches!(op, Op::Le | Op::Ge | Op::Eq) {
            continue;
        }
        if store.sort(args[0]) != Sort::Int {
            continue;
        }
        // lhs − rhs  op  0
        let mut lin = linearize(store, args[0]);
        lin.add_scaled(&linearize(store, args[1]), &Rational::MINUS_ONE);
        let Some((x, y, sign)) = difference(store, &lin) else {
            continue;
        };
        // sign·(x − y) + k  op  0, i.e. x − y  op'  −k/sign.
        let k = -&lin.constant * &sign;
        let e = bounds.entry((x, y)).or_default();
        let (upper, lower) = match (op, sign.is_positive()) {
            (Op::Eq, _) => (true, true),
            (Op::Le, true) | (Op::Ge, false) => (true, false),
            _ => (false, true),
        };
        if upper && e.0.as_ref().is_none_or(|u| k < *u) {
            e.0 = Some(k.clone());
        }
        if lower && e.1.as_ref().is_none_or(|lo| k > *lo) {
            e.1 = Some(k);
        }
    }
    let mut out: Vec<(VarId, VarId, Rational)> = bounds
        .into_iter()
        .filter_map(|((x, y), b)| match b {
            (Some(u), Some(lo)) if u == lo => Some((x, y, u)),
            _ => None,
        })
        .collect();
    out.sort_by_key(|a| (a.0, a.1));
    out
}

/// `lin` is `s·(x − y) + k` for integer variables `x < y` and `s = ±1`: `(x, y, s)`.
fn difference(store: &TermStore, lin: &LinearSum) -> Option<(VarId, VarId, Rational)> {
    let [(a, ca), (b, cb)] = lin.terms.as_slice() else {
        return None;
    };
    let (va, vb) = (store.as_var(*a)?, store.as_var(*b)?);
    if *ca != -cb || !(ca.is_one() || cb.is_one()) {
        return None;
    }
    // Orient by variable id so that both bounds of one difference meet in one entry.
    if va < vb {
        Some((va, vb, ca.clone()))
    } else {
        Some((vb, va, cb.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parity_moves_to_the_other_side_of_an_equality() {
        let mut s = TermStore::new();
        let (xv, yv, zv) = (
            s.var("x", Sort::Int),
            s.var("y", Sort::Int),
            s.var("z", Sort::Int),
        );
        let (x, y, z) = (s.mk_var(xv), s.mk_var(yv), s.mk_var(zv));
        let _ = xv;
        let one = s.mk_int(1);
        let two = s.mk_int(2);
        // y − x ≤ 1, x − y ≤ −1 (y = x + 1), z ≤ x, and 2·((x + 1) div 2) ≤ x ("x even").
        let yx = s.mk_sub(y, x);
        let xy = s.mk_sub(x, y);
        let m1 = s.mk_int(-1);
        let l1 = s.mk_le(yx, one);
        let l2 = s.mk_le(xy, m1);
        let l3 = s.mk_le(z, x);
        let x1 = s.mk_add(&[x, one]);
        let d = s.mk_raw(Op::IntDiv, &[x1, two], Sort::Int);
        let dd = s.mk_mul(&[two, d]);
        let l4 = s.mk_le(dd, x);
        let got = rewrites(&mut s, &[l1, l2, l3, l4]);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(free_vars(&s, got[0]), vec![yv]);
        // "y odd": true at y = 3, false at y = 4.
        let mut m = cove_logic::Model::new();
        for (v, want) in [(3, true), (4, false)] {
            m.set(yv, cove_logic::Value::Num(Rational::int(v)));
            assert_eq!(m.eval_bool(&s, got[0]).unwrap(), want);
        }
    }

    #[test]
    fn no_equality_no_rewrite() {
        let mut s = TermStore::new();
        let (xv, yv) = (s.var("x", Sort::Int), s.var("y", Sort::Int));
        let (x, y) = (s.mk_var(xv), s.mk_var(yv));
        let two = s.mk_int(2);
        let l1 = s.mk_le(x, y);
        let d = s.mk_raw(Op::Mod, &[x, two], Sort::Int);
        let zero = s.mk_int(0);
        let l2 = s.mk_eq(d, zero);
        assert!(rewrites(&mut s, &[l1, l2]).is_empty());
    }
}
