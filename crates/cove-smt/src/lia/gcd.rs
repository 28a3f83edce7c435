//! The GCD test on tableau rows.
//!
//! A row `Σ c_v·x_v = 0`, scaled to integer coefficients, splits into fixed variables
//! (`l = u`, contributing the rational constant `k = Σ c_v·value`; they may be real) and
//! free ones, which must all be integer, with coefficient gcd `g`. The free part is a
//! multiple of `g`, so unless `k/g` is an integer no point satisfies the row: the fixed
//! variables' bounds alone are infeasible over the integers. Equalities become fixed
//! slacks, and pivoting mixes rows, so this catches parity-style infeasibility that
//! branch and bound would chase forever on unbounded problems.

use crate::simplex::{BoundTag, Simplex, TVar};
use cove_logic::Rational;

/// The bound tags of a row that fails the GCD test, if any row does. Both the current
/// tableau rows and the original slack definitions are tried (pivoting can hide a
/// definition's divisibility behind a free real variable).
pub fn gcd_test(sx: &Simplex) -> Option<Vec<BoundTag>> {
    let defs =
        (0..sx.num_vars() as u32).filter_map(|v| sx.definition(TVar(v)).map(|d| (TVar(v), d)));
    sx.rows()
        .chain(defs)
        .find_map(|(basic, entries)| row_test(sx, basic, entries))
}

/// The GCD test on `basic = Σ entries`.
fn row_test(sx: &Simplex, basic: TVar, entries: &[(TVar, Rational)]) -> Option<Vec<BoundTag>> {
    let all = || {
        std::iter::once((basic, &Rational::MINUS_ONE)).chain(entries.iter().map(|(v, a)| (*v, a)))
    };
    let mut any_fixed = false;
    for (v, _) in all() {
        let fixed = fixed_value(sx, v).is_some();
        if !fixed && !sx.is_int(v) {
            return None;
        }
        any_fixed |= fixed;
    }
    if !any_fixed {
        return None;
    }
    let mut den = Rational::ONE;
    for (_, a) in entries {
        if !a.is_integer() {
            den = den.lcm(&Rational::from_bigint(a.denom()));
        }
    }
    let mut g = Rational::ZERO;
    let mut k = Rational::ZERO;
    let mut fixed: Vec<TVar> = Vec::new();
    for (v, a) in all() {
        let c = a * &den;
        match fixed_value(sx, v) {
            Some(val) => {
                k += &(&c * val);
                fixed.push(v);
            }
            None => g = g.gcd(&c),
        }
    }
    if g.is_zero() || (&k / &g).is_integer() {
        return None;
    }
    let mut tags = Vec::with_capacity(2 * fixed.len());
    for v in fixed {
        tags.push(sx.lower_bound(v).expect("fixed").1);
        tags.push(sx.upper_bound(v).expect("fixed").1);
    }
    tags.sort_unstable();
    tags.dedup();
    Some(tags)
}

/// The value of a variable whose bounds coincide.
fn fixed_value(sx: &Simplex, v: TVar) -> Option<&Rational> {
    let (l, _) = sx.lower_bound(v)?;
    let (u, _) = sx.upper_bound(v)?;
    (l == u && l.delta.is_zero()).then_some(&l.real)
}
