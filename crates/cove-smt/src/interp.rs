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
//!
//! # Integer soundness
//! A Farkas combination of an LIA refutation that used branch-and-bound splits or cuts is
//! *not* an interpolant: the split `x ≤ k ∨ x ≥ k+1` and a cut are facts over the integers
//! that mix both sides. This module never uses them: [`interpolate`] runs the plain simplex
//! (no branching, no cuts, no GCD test) and only answers when that relaxation is already
//! infeasible. The one integer step it takes is the rounding of each asserted bound on an
//! integral form (`2x + 2y ≤ 3` becomes `x + y ≤ 1`), which is implied by that single
//! literal over the integers; so the A-part of the certificate is still implied by A alone,
//! the B-part by B alone, and their sum is the contradiction. When only integer reasoning
//! refutes the pair (`x = 2a` against `x = 2b + 1`) the answer is `None`; callers that need
//! an answer there project A's cube onto the shared variables instead (see
//! [`crate::interpolate_formulas`]). [`check_interpolant`] re-checks any candidate with the
//! full solver, and debug builds validate every answer of [`interpolate`] with it.

use crate::simplex::{BoundTag, Conflict, Rel, Simplex, TVar, farkas_interpolant};
use crate::{Limits, SmtResult, SmtSolver};
use cove_control::Control;
use cove_logic::{
    LinearSum, Op, Rational, Sort, TermId, TermStore, VarId, free_vars, linearize, mk_linear,
    simplify,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// An interpolant of the conjunctions `a` and `b` (with `a ∧ b` unsatisfiable): a linear
/// literal `I` with `a ⇒ I`, `I ∧ b` unsatisfiable, over the variables shared by `a` and
/// `b`. `None` when no Farkas certificate exists or a literal is outside the fragment.
pub fn interpolate(store: &mut TermStore, a: &[TermId], b: &[TermId]) -> Option<TermId> {
    let i = farkas(store, a, b)?;
    #[cfg(debug_assertions)]
    if let Err(InterpError::Invalid(why)) = check_interpolant(store, a, b, i, &Control::new()) {
        panic!("Farkas interpolation produced a wrong interpolant: {why}");
    }
    Some(i)
}

/// Why a candidate interpolant was not accepted by [`check_interpolant`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterpError {
    /// The candidate is wrong (which property fails).
    Invalid(String),
    /// The solver could not decide a property (limits or incompleteness).
    Undecided(String),
}

/// Checks that `i` is an interpolant of the conjunctions `a` and `b`: `a ⇒ i`, `i ∧ b`
/// unsatisfiable, and every free variable of `i` occurs in both `a` and `b`. Uses fresh
/// solvers under `ctl`; independent of how `i` was computed.
pub fn check_interpolant(
    store: &mut TermStore,
    a: &[TermId],
    b: &[TermId],
    i: TermId,
    ctl: &Control,
) -> Result<(), InterpError> {
    let fa = store.mk_and(a);
    let fb = store.mk_and(b);
    let va: FxHashSet<VarId> = free_vars(store, fa).into_iter().collect();
    let vb: FxHashSet<VarId> = free_vars(store, fb).into_iter().collect();
    for v in free_vars(store, i) {
        if !va.contains(&v) || !vb.contains(&v) {
            return Err(InterpError::Invalid(format!(
                "'{}' is not shared by A and B",
                store.var_name(v)
            )));
        }
    }
    let ni = store.mk_not(i);
    for (what, parts) in [
        ("A does not imply I", [fa, ni]),
        ("I ∧ B is satisfiable", [i, fb]),
    ] {
        let mut s = SmtSolver::new();
        s.set_limits(Limits::of(ctl));
        let t = store.mk_and(&parts);
        s.assert(store, t);
        match s.check(store) {
            SmtResult::Unsat => {}
            SmtResult::Sat => return Err(InterpError::Invalid(what.into())),
            SmtResult::Unknown(why) => {
                return Err(InterpError::Undecided(format!("{what}? {why}")));
            }
        }
    }
    Ok(())
}

fn farkas(store: &mut TermStore, a: &[TermId], b: &[TermId]) -> Option<TermId> {
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
