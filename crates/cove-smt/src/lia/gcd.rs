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
use num_bigint::BigInt;
use num_integer::Integer;

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
///
/// The integer combinations of the free coefficients `a_i = p_i/q_i` (in lowest terms) are
/// the multiples of `g = gcd(p_i) / lcm(q_i)`, so the row is infeasible iff the fixed part
/// `k` is not a multiple of `g`. This form needs no scaling of the whole row: the test runs
/// at every integer step over every row, and rows over wide bit-vector encodings carry up to
/// hundreds of entries with coefficients (or denominators) up to `2^256`, nearly all of them
/// fixed bits, so only the few free entries and the fixed entries with non-zero values cost
/// big-number arithmetic.
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
    // `k = kn / kd`, summed without normalizing (the denominators are mostly powers of two
    // that divide each other, so the sum rarely grows).
    let mut kn = BigInt::ZERO;
    let mut kd = BigInt::from(1);
    let mut free: Vec<&Rational> = Vec::new();
    let mut fixed: Vec<(TVar, &Rational)> = Vec::new();
    for (v, a) in all() {
        match fixed_value(sx, v) {
            Some(val) => {
                if !val.is_zero() {
                    let (tn, td) = if val.is_one() {
                        (a.numer(), a.denom())
                    } else {
                        let t = a * val;
                        (t.numer(), t.denom())
                    };
                    if kd.is_multiple_of(&td) {
                        kn += tn * (&kd / &td);
                    } else if td.is_multiple_of(&kd) {
                        kn = kn * (&td / &kd) + tn;
                        kd = td;
                    } else {
                        kn = kn * &td + tn * &kd;
                        kd *= td;
                    }
                }
                fixed.push((v, a));
            }
            None => free.push(a),
        }
    }
    if free.is_empty() || kn == BigInt::ZERO {
        return None;
    }
    let unit = |a: &Rational| a.is_one() || *a == Rational::MINUS_ONE;
    if free.iter().any(|a| unit(a)) && kn.is_multiple_of(&kd) {
        // `g` divides 1, and 1 divides the integer `k`.
        return None;
    }
    let mut num = BigInt::ZERO;
    let mut den = BigInt::from(1);
    for a in free {
        num = num.gcd(&a.numer());
        if !a.is_integer() {
            den = den.lcm(&a.denom());
        }
    }
    // `k / g` is an integer iff `kd·num` divides `kn·den`.
    if (kn * &den).is_multiple_of(&(kd * &num)) {
        return None;
    }
    // The explanation leaves out the fixed integer variables whose coefficient is a multiple
    // of `g`: freed, such a variable leaves `g` as it is and moves `k` by a multiple of `g`,
    // so the row stays infeasible. Over a wide word's bits this is the difference between
    // blocking one assignment of all of them and naming the one bit that decides parity.
    let g = Rational::from_big(num, den);
    let mut tags = Vec::with_capacity(2 * fixed.len());
    for (v, a) in fixed {
        if sx.is_int(v) && (a / &g).is_integer() {
            continue;
        }
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
