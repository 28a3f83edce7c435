//! Farkas combinations and interpolants from conflicts.
//!
//! A term `(coef, var ⋈ bound)` stands for `coef·(var − bound) ≤ 0` (upper) or
//! `coef·(bound − var) ≤ 0` (lower). Expanding slack variables into their definitions
//! over problem variables, the sum over a conflict cancels every variable and leaves a
//! constant contradiction. Summing only the terms of the A-part gives `Σ a·x ≤ c` (strict
//! when an infinitesimal survives): A implies it, and its variables are shared by A and B
//! because A-local variables cancel inside A and never occur in B. Together with the
//! B-part it sums to the contradiction, so it is a (Farkas, McMillan-style) interpolant.

use super::{BoundKind, BoundTag, Conflict, DeltaRational, FarkasTerm, Simplex, TVar};
use cove_logic::Rational;

/// The weighted sum of `terms` in `≤` form over problem variables: `(Σ a·x, c)` meaning
/// `Σ a·x ≤ c` (`c` in Q_δ; a negative infinitesimal part means strict).
pub fn linear_combination(
    sx: &Simplex,
    terms: &[FarkasTerm],
) -> (Vec<(TVar, Rational)>, DeltaRational) {
    let mut acc: Vec<Rational> = Vec::new();
    let mut touched: Vec<TVar> = Vec::new();
    let mut bound = DeltaRational::ZERO;
    let mut add = |v: TVar, c: Rational| {
        if acc.len() <= v.idx() {
            acc.resize(v.idx() + 1, Rational::ZERO);
        }
        if acc[v.idx()].is_zero() {
            touched.push(v);
        }
        acc[v.idx()] += &c;
    };
    for t in terms {
        let sign = match t.kind {
            BoundKind::Upper => t.coef.clone(),
            BoundKind::Lower => -&t.coef,
        };
        bound.add_scaled(&sign, &t.bound);
        match sx.definition(t.var) {
            Some(def) => {
                for (x, a) in def {
                    add(*x, &sign * a);
                }
            }
            None => add(t.var, sign),
        }
    }
    touched.sort_unstable();
    touched.dedup();
    let lin = touched
        .into_iter()
        .filter(|v| !acc[v.idx()].is_zero())
        .map(|v| (v, acc[v.idx()].clone()))
        .collect();
    (lin, bound)
}

/// A linear-arithmetic interpolant `Σ a·x ≤ bound` (or `<` when `strict`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Interpolant {
    /// Linear form over problem variables (shared by A and B).
    pub lin: Vec<(TVar, Rational)>,
    /// Right-hand side.
    pub bound: Rational,
    /// Strict inequality.
    pub strict: bool,
}

/// The Farkas interpolant of `conflict` for the partition whose A-part is the terms with
/// `in_a(tag)`. With an empty A-part the result is `0 ≤ 0` (true); with an empty B-part
/// it is a false constant inequality.
pub fn farkas_interpolant(
    sx: &Simplex,
    conflict: &Conflict,
    in_a: impl Fn(BoundTag) -> bool,
) -> Interpolant {
    let a_terms: Vec<FarkasTerm> = conflict
        .terms
        .iter()
        .filter(|t| in_a(t.tag))
        .cloned()
        .collect();
    let (lin, bound) = linear_combination(sx, &a_terms);
    Interpolant {
        lin,
        strict: bound.delta.is_negative(),
        bound: bound.real,
    }
}
