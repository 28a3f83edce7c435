//! The GCD test on tableau rows.
//!
//! A row `Σ c_v·x_v = 0` over integer variables, scaled to integer coefficients, splits
//! into fixed variables (`l = u`, contributing the constant `k = Σ c_v·value`) and free
//! ones whose coefficients have gcd `g`. If `g ∤ k` no integer point satisfies the row:
//! the fixed variables' bounds alone are integer-infeasible. Equalities become fixed
//! slacks, and pivoting mixes rows, so this catches parity-style infeasibility that
//! branch and bound would chase forever on unbounded problems.

use crate::simplex::{BoundTag, Simplex, TVar};
use cove_logic::Rational;

/// The bound tags of a row that fails the GCD test, if any row does.
pub fn gcd_test(sx: &Simplex) -> Option<Vec<BoundTag>> {
    'rows: for (basic, entries) in sx.rows() {
        if !sx.is_int(basic) || entries.iter().any(|(v, _)| !sx.is_int(*v)) {
            continue;
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
        let all = std::iter::once((basic, Rational::MINUS_ONE)).chain(entries.iter().cloned());
        for (v, a) in all {
            let c = &a * &den;
            match fixed_value(sx, v) {
                Some(val) => {
                    k += &(&c * val);
                    fixed.push(v);
                }
                None => {
                    g = g.gcd(&c);
                    if g.is_one() {
                        continue 'rows;
                    }
                }
            }
        }
        if fixed.is_empty() || g.is_zero() || k.int_mod(&g).is_zero() {
            continue;
        }
        let mut tags = Vec::with_capacity(2 * fixed.len());
        for v in fixed {
            tags.push(sx.lower_bound(v).expect("fixed").1);
            tags.push(sx.upper_bound(v).expect("fixed").1);
        }
        tags.sort_unstable();
        tags.dedup();
        return Some(tags);
    }
    None
}

/// The value of a variable whose bounds coincide (integer for integer variables).
fn fixed_value(sx: &Simplex, v: TVar) -> Option<&Rational> {
    let (l, _) = sx.lower_bound(v)?;
    let (u, _) = sx.upper_bound(v)?;
    (l == u && l.delta.is_zero()).then_some(&l.real)
}
