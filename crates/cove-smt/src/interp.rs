//! Farkas interpolation for conjunctions of linear literals.
//!
//! Both sides are simplified to canonical literals `(<= s k)`, `(< s k)`, `(= s k)` and
//! asserted in one simplex, each bound tagged with its side. An infeasibility certificate
//! splits into its A-part and B-part; the sum of the A-part is implied by A, contradicts
//! the B-part, and mentions only shared variables (A-local ones cancel inside A), so it is
//! an interpolant (McMillan 2005). Over the integers the simplex rounds bounds of integral
//! rows, which is sound for integers, so a certificate found that way gives an integer
//! interpolant; when the rational relaxation is feasible (no Farkas proof exists) or a
//! literal is outside the fragment (disequalities, Booleans, non-linear terms), the answer
//! is `None`.

use crate::simplex::{BoundTag, Conflict, Rel, Simplex, TVar, farkas_interpolant};
use cove_logic::{
    LinearSum, Op, Rational, Sort, TermId, TermStore, VarId, linearize, mk_linear, simplify,
};
use rustc_hash::FxHashMap;

/// An interpolant of the conjunctions `a` and `b` (with `a ∧ b` unsatisfiable): a linear
/// literal `I` with `a ⇒ I`, `I ∧ b` unsatisfiable, over the variables shared by `a` and
/// `b`. `None` when no Farkas certificate exists or a literal is outside the fragment.
pub fn interpolate(store: &mut TermStore, a: &[TermId], b: &[TermId]) -> Option<TermId> {
    let mut sx = Simplex::new();
    let mut vars: FxHashMap<VarId, TVar> = FxHashMap::default();
    let mut back: Vec<Option<VarId>> = Vec::new();
    let lits_a = literals(store, a)?;
    let lits_b = literals(store, b)?;
    let n_a = lits_a.len() as u32;
    let mut conflict: Option<Conflict> = None;
    for (i, l) in lits_a.iter().chain(&lits_b).enumerate() {
        let in_a = (i as u32) < n_a;
        let Lit::Cmp(rel, sum, k) = l else {
            // A constant false literal: the interpolant is false (in A) or true (in B).
            return Some(store.mk_bool(!in_a));
        };
        let mut form = Vec::with_capacity(sum.terms.len());
        for (t, c) in &sum.terms {
            let v = store.as_var(*t)?;
            let tv = *vars.entry(v).or_insert_with(|| {
                let tv = sx.add_var(store.var_sort(v) == Sort::Int);
                back.resize(tv.idx() + 1, None);
                back[tv.idx()] = Some(v);
                tv
            });
            form.push((tv, c.clone()));
        }
        let Some(row) = sx.add_row(&form) else {
            continue;
        };
        let rhs = k - &sum.constant;
        if let Err(c) = sx.assert_rel(&row, *rel, &rhs, BoundTag(i as u32)) {
            conflict = Some(c);
            break;
        }
    }
    let conflict = match conflict {
        Some(c) => c,
        None => sx.check().err()?,
    };
    let itp = farkas_interpolant(&sx, &conflict, |t| t.0 < n_a);
    let mut sum = LinearSum::default();
    let mut sort = Sort::Int;
    for (v, c) in &itp.lin {
        let var = back.get(v.idx()).copied().flatten()?;
        if store.var_sort(var) == Sort::Real {
            sort = Sort::Real;
        }
        let t = store.mk_var(var);
        sum.add_scaled(&LinearSum::atom(t), c);
    }
    if sum.is_constant() {
        let holds = if itp.strict {
            itp.bound.is_positive()
        } else {
            !itp.bound.is_negative()
        };
        return Some(store.mk_bool(holds));
    }
    if sort == Sort::Int {
        // Integral combination of integer variables: scale to integer coefficients.
        let mut den = Rational::ONE;
        for (_, c) in &sum.terms {
            den = den.lcm(&Rational::from_bigint(c.denom()));
        }
        sum.scale(&den);
        let bound = &itp.bound * &den;
        let s = mk_linear(store, &sum, Sort::Int);
        let k = store.mk_num(bound.floor(), Sort::Int);
        let k = if itp.strict && bound.is_integer() {
            store.mk_num(&bound - &Rational::ONE, Sort::Int)
        } else {
            k
        };
        let t = store.mk_le(s, k);
        return Some(simplify(store, t));
    }
    let s = mk_linear(store, &sum, Sort::Real);
    let k = store.mk_num(itp.bound, Sort::Real);
    let t = if itp.strict {
        store.mk_lt(s, k)
    } else {
        store.mk_le(s, k)
    };
    Some(simplify(store, t))
}

enum Lit {
    /// `sum rel k`.
    Cmp(Rel, LinearSum, Rational),
    /// The literal `false`.
    False,
}

/// The canonical literals of a conjunction, or `None` outside the fragment.
fn literals(store: &mut TermStore, ts: &[TermId]) -> Option<Vec<Lit>> {
    let mut out = Vec::new();
    let mut stack: Vec<TermId> = ts.iter().rev().copied().collect();
    while let Some(t) = stack.pop() {
        let s = simplify(store, t);
        match store.op(s).clone() {
            Op::Bool(true) => {}
            Op::Bool(false) => out.push(Lit::False),
            Op::And => stack.extend(store.args(s).iter().rev().copied()),
            op @ (Op::Le | Op::Lt | Op::Eq) => {
                let args = store.args(s).to_vec();
                if !store.sort(args[0]).is_arith() {
                    return None;
                }
                let k = store.as_num(args[1])?.clone();
                let sum = linearize(store, args[0]);
                let rel = match op {
                    Op::Le => Rel::Le,
                    Op::Lt => Rel::Lt,
                    _ => Rel::Eq,
                };
                out.push(Lit::Cmp(rel, sum, k));
            }
            _ => return None,
        }
    }
    Some(out)
}
