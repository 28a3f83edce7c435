//! Exact rationals of any size, with a machine-word fast path.
//!
//! Why hand-rolled on top of `num-bigint` instead of `num_rational::BigRational`: the
//! simplex and the model evaluator spend most of their time on tiny numbers (coefficients
//! like 1, -2, 1/3). `BigRational` allocates for every value; here a value is
//! `Small(num, den)` whenever both fit in an `i64`, arithmetic runs in `i128` with
//! overflow checks, and only genuinely large values fall back to `num-bigint`
//! (well kept, pure Rust, no C toolchain needed).
//!
//! # Invariant
//! Every value is normalized: `den > 0`, `gcd(num, den) = 1`, and the `Small` form is used
//! exactly when both parts fit in an `i64`. Equality and hashing rely on this.

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// An exact rational number (integers are rationals with denominator 1).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Rational(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Small(i64, i64),
    Big(Box<(BigInt, BigInt)>),
}

/// gcd on the hot path of every normalization: 1 and small operands are by far the most
/// common, so they skip the 128-bit division loop (binary gcd on `u64` when both fit).
fn gcd_u128(a: u128, b: u128) -> u128 {
    if a == 1 || b == 1 {
        return 1;
    }
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    if let (Ok(x), Ok(y)) = (u64::try_from(a), u64::try_from(b)) {
        return binary_gcd(x, y) as u128;
    }
    let (mut a, mut b) = (a, b);
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// gcd of big integers (non-negative result). `num-bigint`'s gcd is Stein's binary
/// algorithm, which shifts the whole number once per bit: quadratic in *bits*, so a
/// 100,000-digit numeral took many seconds to normalize against the denominator 1. Here the
/// common cases are immediate (an operand 0 or 1) and the rest is Euclid with big division
/// (quadratic in machine words), switching to the word-sized gcd as soon as one operand fits.
fn big_gcd(a: &BigInt, b: &BigInt) -> BigInt {
    let (mut a, mut b) = (a.magnitude().clone(), b.magnitude().clone());
    loop {
        if a < b {
            std::mem::swap(&mut a, &mut b);
        }
        if b.is_zero() {
            return BigInt::from(a);
        }
        if b.is_one() {
            return BigInt::one();
        }
        if let Some(y) = b.to_u64() {
            let x = (&a % &b).to_u64().expect("remainder below a u64");
            return BigInt::from(if x == 0 { y } else { binary_gcd(x, y) });
        }
        a %= &b;
    }
}

fn binary_gcd(mut a: u64, mut b: u64) -> u64 {
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

impl Rational {
    /// Zero.
    pub const ZERO: Rational = Rational(Repr::Small(0, 1));
    /// One.
    pub const ONE: Rational = Rational(Repr::Small(1, 1));
    /// Minus one.
    pub const MINUS_ONE: Rational = Rational(Repr::Small(-1, 1));

    /// The integer `n`.
    pub const fn int(n: i64) -> Rational {
        Rational(Repr::Small(n, 1))
    }

    /// `num / den`, normalized. Panics if `den == 0` (a caller bug, never user input).
    pub fn new(num: i64, den: i64) -> Rational {
        Self::from_i128(num as i128, den as i128)
    }

    fn from_i128(num: i128, den: i128) -> Rational {
        assert!(den != 0, "rational with zero denominator");
        let (mut n, mut d) = if den < 0 { (-num, -den) } else { (num, den) };
        let g = gcd_u128(n.unsigned_abs(), d as u128);
        if g > 1 {
            n /= g as i128;
            d /= g as i128;
        }
        match (i64::try_from(n), i64::try_from(d)) {
            (Ok(n), Ok(d)) => Rational(Repr::Small(n, d)),
            _ => Rational(Repr::Big(Box::new((BigInt::from(n), BigInt::from(d))))),
        }
    }

    /// `num / den` from big integers, normalized. Panics if `den` is zero.
    pub fn from_big(num: BigInt, den: BigInt) -> Rational {
        assert!(!den.is_zero(), "rational with zero denominator");
        let (mut n, mut d) = if den.is_negative() {
            (-num, -den)
        } else {
            (num, den)
        };
        let g = big_gcd(&n, &d);
        if !g.is_one() {
            n /= &g;
            d /= &g;
        }
        Self::small_or_big(n, d)
    }

    fn small_or_big(n: BigInt, d: BigInt) -> Rational {
        match (n.to_i64(), d.to_i64()) {
            (Some(n), Some(d)) => Rational(Repr::Small(n, d)),
            _ => Rational(Repr::Big(Box::new((n, d)))),
        }
    }

    /// The integer `n` of any size.
    pub fn from_bigint(n: BigInt) -> Rational {
        Self::small_or_big(n, BigInt::one())
    }

    /// Parses an SMT-LIB numeral (`123`) or decimal (`1.25`). Returns `None` on bad syntax.
    pub fn parse_decimal(s: &str) -> Option<Rational> {
        let (int_part, frac_part) = match s.split_once('.') {
            Some((i, f)) => (i, f),
            None => (s, ""),
        };
        if int_part.is_empty() || !int_part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if !frac_part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        // Fast path: numerals of machine size (nearly all of them) need no big integers.
        if int_part.len() + frac_part.len() <= 18 {
            let mut n: i64 = 0;
            for b in int_part.bytes().chain(frac_part.bytes()) {
                n = n * 10 + i64::from(b - b'0');
            }
            return Some(Rational::new(n, 10i64.pow(frac_part.len() as u32)));
        }
        let digits = format!("{int_part}{frac_part}");
        let num: BigInt = digits.parse().ok()?;
        let den = num_traits::pow(BigInt::from(10), frac_part.len());
        Some(Rational::from_big(num, den))
    }

    /// Numerator as a big integer (sign carried here).
    pub fn numer(&self) -> BigInt {
        match &self.0 {
            Repr::Small(n, _) => BigInt::from(*n),
            Repr::Big(b) => b.0.clone(),
        }
    }

    /// Denominator as a big integer (always positive).
    pub fn denom(&self) -> BigInt {
        match &self.0 {
            Repr::Small(_, d) => BigInt::from(*d),
            Repr::Big(b) => b.1.clone(),
        }
    }

    /// `(num, den)` if both fit in machine words.
    pub fn as_small(&self) -> Option<(i64, i64)> {
        match self.0 {
            Repr::Small(n, d) => Some((n, d)),
            Repr::Big(_) => None,
        }
    }

    /// The value as an `i64` if it is an integer that fits.
    pub fn to_i64(&self) -> Option<i64> {
        match self.0 {
            Repr::Small(n, 1) => Some(n),
            _ => None,
        }
    }

    /// Approximate value, for heuristics and printing statistics only.
    pub fn to_f64(&self) -> f64 {
        match &self.0 {
            Repr::Small(n, d) => *n as f64 / *d as f64,
            Repr::Big(b) => b.0.to_f64().unwrap_or(f64::NAN) / b.1.to_f64().unwrap_or(f64::NAN),
        }
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        matches!(self.0, Repr::Small(0, _))
    }

    /// True for one.
    pub fn is_one(&self) -> bool {
        matches!(self.0, Repr::Small(1, 1))
    }

    /// True when the denominator is 1.
    pub fn is_integer(&self) -> bool {
        match &self.0 {
            Repr::Small(_, d) => *d == 1,
            Repr::Big(b) => b.1.is_one(),
        }
    }

    /// -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match &self.0 {
            Repr::Small(n, _) => n.signum() as i32,
            Repr::Big(b) => {
                if b.0.is_negative() {
                    -1
                } else if b.0.is_zero() {
                    0
                } else {
                    1
                }
            }
        }
    }

    /// True when strictly negative.
    pub fn is_negative(&self) -> bool {
        self.signum() < 0
    }

    /// True when strictly positive.
    pub fn is_positive(&self) -> bool {
        self.signum() > 0
    }

    /// Absolute value.
    pub fn abs(&self) -> Rational {
        if self.is_negative() {
            -self
        } else {
            self.clone()
        }
    }

    /// `1 / self`. Panics on zero (a caller bug).
    pub fn recip(&self) -> Rational {
        match &self.0 {
            Repr::Small(n, d) => Self::from_i128(*d as i128, *n as i128),
            Repr::Big(b) => Self::from_big(b.1.clone(), b.0.clone()),
        }
    }

    /// Largest integer `<= self`.
    pub fn floor(&self) -> Rational {
        match &self.0 {
            Repr::Small(n, d) => Rational::int(n.div_euclid(*d)),
            Repr::Big(b) => Self::from_bigint(b.0.div_floor(&b.1)),
        }
    }

    /// Smallest integer `>= self`.
    pub fn ceil(&self) -> Rational {
        -(-self).floor()
    }

    /// Fractional part `self - floor(self)`, in `[0, 1)`.
    pub fn fract(&self) -> Rational {
        self - &self.floor()
    }

    /// SMT-LIB integer division (`div`): `floor(a / b)` for `b > 0`, `-floor(a / -b)` for
    /// `b < 0`, so that `a = b * (a div b) + (a mod b)` with `0 <= a mod b < |b|`.
    /// Both operands must be integers and `b != 0`.
    pub fn int_div(&self, b: &Rational) -> Rational {
        let q = self / b;
        if b.is_negative() { q.ceil() } else { q.floor() }
    }

    /// SMT-LIB integer remainder (`mod`): always in `[0, |b|)`.
    pub fn int_mod(&self, b: &Rational) -> Rational {
        self - &(b * &self.int_div(b))
    }

    /// Greatest common divisor of two integers (non-negative).
    pub fn gcd(&self, other: &Rational) -> Rational {
        match (&self.0, &other.0) {
            (Repr::Small(a, 1), Repr::Small(b, 1)) => Self::from_i128(
                gcd_u128(a.unsigned_abs() as u128, b.unsigned_abs() as u128) as i128,
                1,
            ),
            _ => Self::from_bigint(big_gcd(&self.numer(), &other.numer())),
        }
    }

    /// Least common multiple of two integers (non-negative).
    pub fn lcm(&self, other: &Rational) -> Rational {
        if self.is_zero() || other.is_zero() {
            return Rational::ZERO;
        }
        (self * other).abs() / self.gcd(other)
    }

    fn big_parts(&self) -> (BigInt, BigInt) {
        match &self.0 {
            Repr::Small(n, d) => (BigInt::from(*n), BigInt::from(*d)),
            Repr::Big(b) => (b.0.clone(), b.1.clone()),
        }
    }

    fn add_ref(&self, o: &Rational) -> Rational {
        if let (Repr::Small(a, b), Repr::Small(c, d)) = (&self.0, &o.0) {
            let (a, b, c, d) = (*a as i128, *b as i128, *c as i128, *d as i128);
            if b == d {
                return Self::from_i128(a + c, b);
            }
            // |a*d| < 2^126, sum < 2^127: no overflow in i128.
            return Self::from_i128(a * d + c * b, b * d);
        }
        let (a, b) = self.big_parts();
        let (c, d) = o.big_parts();
        Self::from_big(a * &d + c * &b, b * d)
    }

    fn mul_ref(&self, o: &Rational) -> Rational {
        if let (Repr::Small(a, b), Repr::Small(c, d)) = (&self.0, &o.0) {
            let (a, b, c, d) = (*a as i128, *b as i128, *c as i128, *d as i128);
            if b == 1 && d == 1 {
                return Self::from_i128(a * c, 1);
            }
            return Self::from_i128(a * c, b * d);
        }
        let (a, b) = self.big_parts();
        let (c, d) = o.big_parts();
        Self::from_big(a * c, b * d)
    }

    fn neg_ref(&self) -> Rational {
        match &self.0 {
            Repr::Small(n, d) if *n != i64::MIN => Rational(Repr::Small(-n, *d)),
            _ => {
                let (n, d) = self.big_parts();
                Self::small_or_big(-n, d)
            }
        }
    }
}

impl Default for Rational {
    fn default() -> Self {
        Rational::ZERO
    }
}

impl From<i64> for Rational {
    fn from(n: i64) -> Self {
        Rational::int(n)
    }
}

impl From<i32> for Rational {
    fn from(n: i32) -> Self {
        Rational::int(n as i64)
    }
}

impl From<BigInt> for Rational {
    fn from(n: BigInt) -> Self {
        Rational::from_bigint(n)
    }
}

impl Ord for Rational {
    fn cmp(&self, o: &Self) -> Ordering {
        if let (Repr::Small(a, b), Repr::Small(c, d)) = (&self.0, &o.0) {
            return (*a as i128 * *d as i128).cmp(&(*c as i128 * *b as i128));
        }
        let (a, b) = self.big_parts();
        let (c, d) = o.big_parts();
        (a * d).cmp(&(c * b))
    }
}

impl PartialOrd for Rational {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

macro_rules! binop {
    ($tr:ident, $m:ident, $body:expr) => {
        impl $tr<&Rational> for &Rational {
            type Output = Rational;
            fn $m(self, o: &Rational) -> Rational {
                let f: fn(&Rational, &Rational) -> Rational = $body;
                f(self, o)
            }
        }
        impl $tr<Rational> for Rational {
            type Output = Rational;
            fn $m(self, o: Rational) -> Rational {
                (&self).$m(&o)
            }
        }
        impl $tr<&Rational> for Rational {
            type Output = Rational;
            fn $m(self, o: &Rational) -> Rational {
                (&self).$m(o)
            }
        }
        impl $tr<Rational> for &Rational {
            type Output = Rational;
            fn $m(self, o: Rational) -> Rational {
                self.$m(&o)
            }
        }
    };
}

binop!(Add, add, |a, b| a.add_ref(b));
binop!(Sub, sub, |a, b| a.add_ref(&b.neg_ref()));
binop!(Mul, mul, |a, b| a.mul_ref(b));
binop!(Div, div, |a, b| a.mul_ref(&b.recip()));

impl Neg for &Rational {
    type Output = Rational;
    fn neg(self) -> Rational {
        self.neg_ref()
    }
}

impl Neg for Rational {
    type Output = Rational;
    fn neg(self) -> Rational {
        self.neg_ref()
    }
}

impl AddAssign<&Rational> for Rational {
    fn add_assign(&mut self, o: &Rational) {
        *self = self.add_ref(o);
    }
}

impl SubAssign<&Rational> for Rational {
    fn sub_assign(&mut self, o: &Rational) {
        *self = self.add_ref(&o.neg_ref());
    }
}

impl MulAssign<&Rational> for Rational {
    fn mul_assign(&mut self, o: &Rational) {
        *self = self.mul_ref(o);
    }
}

impl fmt::Display for Rational {
    /// Plain mathematical notation: `-3`, `7/2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small(n, 1) => write!(f, "{n}"),
            Repr::Small(n, d) => write!(f, "{n}/{d}"),
            Repr::Big(b) if b.1.is_one() => write!(f, "{}", b.0),
            Repr::Big(b) => write!(f, "{}/{}", b.0, b.1),
        }
    }
}

impl fmt::Debug for Rational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> Rational {
        Rational::new(n, d)
    }

    #[test]
    fn normalizes() {
        assert_eq!(r(2, 4), r(1, 2));
        assert_eq!(r(3, -6), r(-1, 2));
        assert_eq!(r(0, -5), Rational::ZERO);
    }

    #[test]
    fn overflow_falls_back_to_big_and_back() {
        let big = Rational::int(i64::MAX) + Rational::int(i64::MAX);
        assert!(big.as_small().is_none());
        let back = &big - &Rational::int(i64::MAX);
        assert_eq!(back, Rational::int(i64::MAX));
        assert!(back.as_small().is_some());
        let m = -Rational::int(i64::MIN);
        assert_eq!(m.to_string(), "9223372036854775808");
    }

    #[test]
    fn floor_ceil_div_mod() {
        assert_eq!(r(-7, 2).floor(), Rational::int(-4));
        assert_eq!(r(-7, 2).ceil(), Rational::int(-3));
        let (a, b) = (Rational::int(-7), Rational::int(2));
        assert_eq!(a.int_div(&b), Rational::int(-4));
        assert_eq!(a.int_mod(&b), Rational::int(1));
        let b = Rational::int(-2);
        assert_eq!(a.int_div(&b), Rational::int(4));
        assert_eq!(a.int_mod(&b), Rational::int(1));
        assert_eq!(Rational::int(7).int_div(&b), Rational::int(-3));
        assert_eq!(Rational::int(7).int_mod(&b), Rational::int(1));
    }

    #[test]
    fn gcd_paths_agree() {
        for a in 0..60u128 {
            for b in 0..60u128 {
                let (mut x, mut y) = (a, b);
                while y != 0 {
                    let t = x % y;
                    x = y;
                    y = t;
                }
                assert_eq!(gcd_u128(a, b), x, "gcd({a}, {b})");
            }
        }
        assert_eq!(gcd_u128(1 << 100, 3 << 70), 1 << 70);
    }

    #[test]
    fn big_gcd_agrees_with_stein() {
        let mut x = BigInt::from(1u8);
        for k in 1..60u32 {
            x = &x * BigInt::from(1_000_003u64) + BigInt::from(k);
            let y = &x * BigInt::from(k * 6) + BigInt::from(k % 7);
            for (a, b) in [(&x, &y), (&y, &x), (&x, &x)] {
                assert_eq!(big_gcd(a, b), a.gcd(b));
                assert_eq!(big_gcd(&-a, b), a.gcd(b));
            }
            assert_eq!(big_gcd(&x, &BigInt::from(0)), x.clone());
        }
    }

    #[test]
    fn huge_numerals_parse_fast() {
        // 100,000 digits: Stein's gcd against the denominator took tens of seconds.
        let digits = "7".repeat(100_000);
        let t = std::time::Instant::now();
        let v = Rational::parse_decimal(&digits).unwrap();
        let w = Rational::parse_decimal(&format!("{digits}.5")).unwrap();
        assert_eq!(&w - &v, Rational::new(1, 2));
        assert!(t.elapsed().as_secs_f64() < 10.0, "{:?}", t.elapsed()); // 0.1 s in release
        assert_eq!(
            Rational::parse_decimal("123456789012345678"),
            Some(Rational::int(123456789012345678))
        );
        assert_eq!(Rational::parse_decimal("0.125"), Some(Rational::new(1, 8)));
        assert_eq!(
            Rational::parse_decimal("1234567890123456789"),
            Rational::parse_decimal("1234567890123456789.0")
        );
    }

    #[test]
    fn decimal_parsing() {
        assert_eq!(Rational::parse_decimal("1.25"), Some(r(5, 4)));
        assert_eq!(Rational::parse_decimal("007"), Some(Rational::int(7)));
        assert_eq!(Rational::parse_decimal("1.2.3"), None);
        assert_eq!(Rational::parse_decimal("-1"), None);
        assert!(Rational::parse_decimal("123456789012345678901234567890").is_some());
    }

    #[test]
    fn ordering_mixed_sizes() {
        let big = Rational::int(i64::MAX) * Rational::int(4);
        assert!(big > Rational::int(i64::MAX));
        assert!(r(1, 3) < r(1, 2));
        assert!(-&big < Rational::int(i64::MIN));
    }
}
