//! Integer fast paths for the hot rational operations of the pivot and update loops.
//!
//! `Rational` normalizes every result with a 128-bit gcd. Tableaux of CHC queries are
//! mostly integer-valued (coefficients ±1, small constants), and for integers no gcd is
//! needed: `Rational::int` builds the value directly. These helpers take that path when
//! all operands are machine integers and the result fits, and fall back to the general
//! operations otherwise, so results are identical either way.

use cove_logic::Rational;

/// `acc += c · a`.
#[inline]
pub(crate) fn add_mul(acc: &mut Rational, c: &Rational, a: &Rational) {
    if let (Some(x), Some(y), Some(z)) = (acc.to_i64(), c.to_i64(), a.to_i64()) {
        let r = x as i128 + y as i128 * z as i128;
        if let Ok(r) = i64::try_from(r) {
            *acc = Rational::int(r);
            return;
        }
    }
    *acc += &(c * a);
}

/// `c · a`.
#[inline]
pub(crate) fn mul(c: &Rational, a: &Rational) -> Rational {
    if let (Some(y), Some(z)) = (c.to_i64(), a.to_i64())
        && let Ok(r) = i64::try_from(y as i128 * z as i128)
    {
        return Rational::int(r);
    }
    c * a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_with_general_ops() {
        let vals = [
            Rational::int(0),
            Rational::int(3),
            Rational::int(-7),
            Rational::new(1, 2),
            Rational::int(i64::MAX),
            Rational::int(i64::MIN),
        ];
        for a in &vals {
            for b in &vals {
                assert_eq!(mul(a, b), a * b);
                for c in &vals {
                    let mut acc = c.clone();
                    add_mul(&mut acc, a, b);
                    assert_eq!(acc, c + &(a * b));
                }
            }
        }
    }
}
