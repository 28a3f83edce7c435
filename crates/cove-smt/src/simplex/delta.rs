//! Delta-rationals `c + kδ`, the value domain of the simplex (Q_δ in Dutertre–de Moura).
//!
//! `δ` is a symbolic positive infinitesimal: values compare lexicographically on
//! `(real, delta)`, so a strict bound `x < c` becomes the non-strict `x <= c - δ`. After a
//! successful check a concrete small rational can be substituted for `δ`
//! (see [`super::Simplex::concrete_model`]).

use cove_logic::Rational;
use std::cmp::Ordering;
use std::fmt;

/// A value `real + delta·δ` for a positive infinitesimal `δ`.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct DeltaRational {
    /// Standard part.
    pub real: Rational,
    /// Coefficient of the infinitesimal `δ`.
    pub delta: Rational,
}

impl DeltaRational {
    /// The value 0.
    pub const ZERO: DeltaRational = DeltaRational {
        real: Rational::ZERO,
        delta: Rational::ZERO,
    };

    /// `real + delta·δ`.
    pub fn new(real: Rational, delta: Rational) -> DeltaRational {
        DeltaRational { real, delta }
    }

    /// The plain rational `r` (no infinitesimal part).
    pub fn from_rational(r: Rational) -> DeltaRational {
        DeltaRational {
            real: r,
            delta: Rational::ZERO,
        }
    }

    /// `r - δ`: the non-strict form of the upper bound `x < r`.
    pub fn below(r: Rational) -> DeltaRational {
        DeltaRational {
            real: r,
            delta: Rational::MINUS_ONE,
        }
    }

    /// `r + δ`: the non-strict form of the lower bound `x > r`.
    pub fn above(r: Rational) -> DeltaRational {
        DeltaRational {
            real: r,
            delta: Rational::ONE,
        }
    }

    /// True when the value is exactly zero.
    pub fn is_zero(&self) -> bool {
        self.real.is_zero() && self.delta.is_zero()
    }

    /// True when the infinitesimal part is zero and the standard part an integer.
    pub fn is_integer(&self) -> bool {
        self.delta.is_zero() && self.real.is_integer()
    }

    /// Sign of the value in Q_δ (-1, 0 or 1).
    pub fn signum(&self) -> i32 {
        match self.real.signum() {
            0 => self.delta.signum(),
            s => s,
        }
    }

    /// Largest integer `n` with `n <= self` in Q_δ.
    pub fn floor(&self) -> Rational {
        if self.real.is_integer() && self.delta.is_negative() {
            &self.real - &Rational::ONE
        } else {
            self.real.floor()
        }
    }

    /// Smallest integer `n` with `n >= self` in Q_δ.
    pub fn ceil(&self) -> Rational {
        if self.real.is_integer() && self.delta.is_positive() {
            &self.real + &Rational::ONE
        } else {
            self.real.ceil()
        }
    }

    /// `self += c · other`, in place (the hot operation of the simplex update loop).
    pub fn add_scaled(&mut self, c: &Rational, other: &DeltaRational) {
        if c.is_zero() {
            return;
        }
        if !other.real.is_zero() {
            super::fast::add_mul(&mut self.real, c, &other.real);
        }
        if !other.delta.is_zero() {
            super::fast::add_mul(&mut self.delta, c, &other.delta);
        }
    }

    /// `self + other`.
    pub fn add(&self, other: &DeltaRational) -> DeltaRational {
        DeltaRational {
            real: &self.real + &other.real,
            delta: &self.delta + &other.delta,
        }
    }

    /// `self - other`.
    pub fn sub(&self, other: &DeltaRational) -> DeltaRational {
        DeltaRational {
            real: &self.real - &other.real,
            delta: &self.delta - &other.delta,
        }
    }

    /// `c · self`.
    pub fn scale(&self, c: &Rational) -> DeltaRational {
        DeltaRational {
            real: c * &self.real,
            delta: c * &self.delta,
        }
    }

    /// `-self`.
    pub fn neg(&self) -> DeltaRational {
        DeltaRational {
            real: -&self.real,
            delta: -&self.delta,
        }
    }

    /// The concrete rational `real + delta · d`.
    pub fn at(&self, d: &Rational) -> Rational {
        &self.real + &(&self.delta * d)
    }
}

impl From<Rational> for DeltaRational {
    fn from(r: Rational) -> Self {
        DeltaRational::from_rational(r)
    }
}

impl From<i64> for DeltaRational {
    fn from(n: i64) -> Self {
        DeltaRational::from_rational(Rational::int(n))
    }
}

impl Ord for DeltaRational {
    fn cmp(&self, o: &Self) -> Ordering {
        self.real
            .cmp(&o.real)
            .then_with(|| self.delta.cmp(&o.delta))
    }
}

impl PartialOrd for DeltaRational {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Display for DeltaRational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.delta.signum() {
            0 => write!(f, "{}", self.real),
            s if s > 0 => write!(f, "{}+{}δ", self.real, self.delta),
            _ => write!(f, "{}-{}δ", self.real, -&self.delta),
        }
    }
}

impl fmt::Debug for DeltaRational {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(r: i64, k: i64) -> DeltaRational {
        DeltaRational::new(Rational::int(r), Rational::int(k))
    }

    #[test]
    fn order_is_lexicographic() {
        assert!(d(1, -1) < d(1, 0));
        assert!(d(1, 100) < d(2, -100));
        assert_eq!(d(0, -1).signum(), -1);
    }

    #[test]
    fn floor_and_ceil_in_q_delta() {
        assert_eq!(d(3, -1).floor(), Rational::int(2));
        assert_eq!(d(3, 1).floor(), Rational::int(3));
        assert_eq!(d(3, 1).ceil(), Rational::int(4));
        let h = DeltaRational::new(Rational::new(7, 2), Rational::int(-1));
        assert_eq!(h.floor(), Rational::int(3));
        assert_eq!(h.ceil(), Rational::int(4));
    }
}
