//! Projection of bit-vector variables from a cube of literals (the implicant), word level:
//! a literal `x = t` with `x` not free in `t` defines `x` (substituting `t` is exact), and a
//! variable without a definition gets its model value (a sound under-approximation that
//! keeps the model; a bit-vector has finitely many values, so the image stays finite).
//!
//! Definitions are also read through invertible word-level operations: in `s = t` with `x`
//! occurring once in `s` (and not in `t`) under `bvadd`, `bvneg`, `bvnot`, `bvxor` and
//! `bvmul` by an odd constant, `s` is peeled down to `x` by applying the inverse operation to
//! `t` (`x + u = t` gives `x = t - u`, `c·x = t` with `c` odd gives `x = c⁻¹·t` modulo
//! `2^w`). Each step is an equivalence, so the substitution stays exact.

use super::{MbpError, model_value};
use cove_logic::{
    BvOp, BvValue, Model, Op, TermId, TermStore, VarId, free_vars, simplify, substitute,
};
use rustc_hash::FxHashMap;

/// `lits` with `vars` (bit-vector variables) eliminated; the model satisfies the result.
pub(super) fn project(
    store: &mut TermStore,
    model: &Model,
    lits: &[TermId],
    vars: &[VarId],
) -> Result<Vec<TermId>, MbpError> {
    let mut lits = lits.to_vec();
    for &x in vars {
        let def = lits.iter().find_map(|&l| {
            if store.op(l) != &Op::Eq {
                return None;
            }
            let (a, b) = (store.args(l)[0], store.args(l)[1]);
            [(a, b), (b, a)].into_iter().find_map(|(u, t)| {
                (store.as_var(u) == Some(x) && !free_vars(store, t).contains(&x)).then_some(t)
            })
        });
        let def = match def {
            Some(t) => Some(t),
            None => lits.clone().into_iter().find_map(|l| {
                if store.op(l) != &Op::Eq {
                    return None;
                }
                let (a, b) = (store.args(l)[0], store.args(l)[1]);
                invert(store, x, a, b).or_else(|| invert(store, x, b, a))
            }),
        };
        let image = match def {
            Some(t) => t,
            None => {
                let v = model_value(store, model, x)?;
                v.to_term(store, store.var_sort(x))
            }
        };
        let map: FxHashMap<VarId, TermId> = [(x, image)].into_iter().collect();
        let mut next = Vec::with_capacity(lits.len());
        for &l in &lits {
            let s = substitute(store, l, &map);
            let s = simplify(store, s);
            match store.as_bool(s) {
                Some(true) => {}
                Some(false) => return Err(MbpError::NotAModel),
                None => {
                    if !next.contains(&s) {
                        next.push(s);
                    }
                }
            }
        }
        lits = next;
    }
    Ok(lits)
}

/// How often `x` occurs in `t` as a tree (0, 1, or 2 for "more than once"); a shared
/// subterm that contains `x` counts as two occurrences.
fn occurrences(store: &TermStore, x: VarId, t: TermId) -> usize {
    let mut count = 0;
    let mut stack = vec![t];
    let mut seen = rustc_hash::FxHashSet::default();
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            if free_vars(store, u).contains(&x) {
                return 2;
            }
            continue;
        }
        if store.as_var(u) == Some(x) {
            count += 1;
            if count > 1 {
                return count;
            }
            continue;
        }
        stack.extend(store.args(u).iter().copied());
    }
    count
}

/// The multiplicative inverse of an odd `c` modulo `2^w` (Newton's iteration: each step
/// doubles the number of correct low bits), `None` for an even `c`.
fn odd_inverse(c: &BvValue) -> Option<BvValue> {
    if !c.to_biguint().bit(0) {
        return None;
    }
    let w = c.width();
    let one = BvValue::from_u64(w, 1);
    let two = BvValue::from_u64(w, 2);
    let mut inv = c.clone();
    for _ in 0..64 {
        if c.mul(&inv) == one {
            return Some(inv);
        }
        inv = inv.mul(&two.sub(&c.mul(&inv)));
    }
    None
}

/// A term `d` with `s = t ⟺ x = d`, when `x` occurs exactly once in `s`, not in `t`, and
/// only under invertible operations (see the module docs); `None` otherwise.
fn invert(store: &mut TermStore, x: VarId, s: TermId, t: TermId) -> Option<TermId> {
    if !store.sort(s).is_bv() || free_vars(store, t).contains(&x) || occurrences(store, x, s) != 1 {
        return None;
    }
    let (mut s, mut t) = (s, t);
    // Each step replaces `s = t` by an equivalent `s' = t'` with `s'` a subterm of `s`.
    for _ in 0..64 {
        if store.as_var(s) == Some(x) {
            return Some(simplify(store, t));
        }
        let sort = store.sort(s);
        let args = store.args(s).to_vec();
        let with_x = |store: &TermStore, a: TermId| free_vars(store, a).contains(&x);
        match store.op(s).clone() {
            Op::Bv(BvOp::Not) => {
                t = store.mk_bv_sorted(BvOp::Not, &[t], sort);
                s = args[0];
            }
            Op::Bv(BvOp::Neg) => {
                t = store.mk_bv_sorted(BvOp::Neg, &[t], sort);
                s = args[0];
            }
            Op::Bv(op @ (BvOp::Add | BvOp::Xor)) if args.len() == 2 => {
                let (inner, other) = if with_x(store, args[0]) {
                    (args[0], args[1])
                } else {
                    (args[1], args[0])
                };
                t = match op {
                    BvOp::Add => {
                        let neg = store.mk_bv_sorted(BvOp::Neg, &[other], sort);
                        store.mk_bv_sorted(BvOp::Add, &[t, neg], sort)
                    }
                    _ => store.mk_bv_sorted(BvOp::Xor, &[t, other], sort),
                };
                s = inner;
            }
            Op::Bv(BvOp::Mul) if args.len() == 2 => {
                let (inner, other) = if with_x(store, args[0]) {
                    (args[0], args[1])
                } else {
                    (args[1], args[0])
                };
                let inv = odd_inverse(store.as_bv(other)?)?;
                let inv = store.mk_bv_lit(inv);
                t = store.mk_bv_sorted(BvOp::Mul, &[inv, t], sort);
                s = inner;
            }
            _ => return None,
        }
    }
    None
}
