//! Variables, literals and three-valued truth values in MiniSat's encoding.
//!
//! A [`Var`] is a dense index `0..num_vars`. A [`Lit`] packs a variable and a sign into one
//! `u32` as `2 * var + sign`, where sign `1` means negated. Hence `!lit` is `lit ^ 1`, and
//! [`Lit::index`] is a dense index usable for per-literal tables (watch lists, marks).
//! DIMACS numbering is 1-based: variable `v` is DIMACS `v + 1`, its negation `-(v + 1)`.

use std::fmt;
use std::ops::Not;

/// A propositional variable, a dense index starting at 0.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(transparent)]
pub struct Var(pub u32);

impl Var {
    /// The variable as a `usize` index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The positive literal of this variable.
    #[inline]
    pub fn positive(self) -> Lit {
        Lit::new(self, false)
    }

    /// The negative literal of this variable.
    #[inline]
    pub fn negative(self) -> Lit {
        Lit::new(self, true)
    }
}

/// A literal: a variable or its negation, encoded as `2 * var + negated`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Lit(u32);

impl Lit {
    /// The literal of `v`, negated when `negated` is true.
    ///
    /// # Preconditions
    /// `v.0 < 2^31` (the encoding needs one bit for the sign).
    #[inline]
    pub fn new(v: Var, negated: bool) -> Lit {
        debug_assert!(v.0 < 1 << 31, "variable index too large for a literal");
        Lit((v.0 << 1) | negated as u32)
    }

    /// The variable of this literal.
    #[inline]
    pub fn var(self) -> Var {
        Var(self.0 >> 1)
    }

    /// True when this is the negative literal of its variable.
    #[inline]
    pub fn is_neg(self) -> bool {
        self.0 & 1 == 1
    }

    /// The literal for a nonzero DIMACS integer (`3` is `Var(2)`, `-3` its negation).
    ///
    /// # Preconditions
    /// `i != 0` and `|i| <= 2^31 - 1`; zero is mapped to the positive literal of `Var(0)`
    /// rather than panicking, so callers that parse user input must reject zero first.
    #[inline]
    pub fn from_dimacs(i: i32) -> Lit {
        let v = i.unsigned_abs().saturating_sub(1);
        Lit::new(Var(v), i < 0)
    }

    /// The DIMACS integer of this literal (1-based, negative when negated).
    #[inline]
    pub fn to_dimacs(self) -> i32 {
        let v = self.var().0 as i32 + 1;
        if self.is_neg() { -v } else { v }
    }

    /// Dense index `2 * var + negated`, for per-literal tables.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The literal whose [`Lit::index`] is `i`.
    #[inline]
    pub fn from_index(i: usize) -> Lit {
        Lit(i as u32)
    }

    /// The raw `u32` code (same as `index`), used by the clause arena.
    #[inline]
    pub(crate) fn code(self) -> u32 {
        self.0
    }

    /// Inverse of [`Lit::code`].
    #[inline]
    pub(crate) fn from_code(c: u32) -> Lit {
        Lit(c)
    }
}

impl Not for Lit {
    type Output = Lit;
    #[inline]
    fn not(self) -> Lit {
        Lit(self.0 ^ 1)
    }
}

impl fmt::Debug for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_dimacs())
    }
}

/// A three-valued truth value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum LBool {
    /// Assigned true.
    True,
    /// Assigned false.
    False,
    /// Not assigned.
    #[default]
    Undef,
}

impl LBool {
    /// `True` for `true`, `False` for `false`.
    #[inline]
    pub fn from_bool(b: bool) -> LBool {
        if b { LBool::True } else { LBool::False }
    }

    /// Negation; `Undef` stays `Undef`.
    #[inline]
    pub fn negate(self) -> LBool {
        match self {
            LBool::True => LBool::False,
            LBool::False => LBool::True,
            LBool::Undef => LBool::Undef,
        }
    }

    /// `Some(b)` when assigned.
    #[inline]
    pub fn to_bool(self) -> Option<bool> {
        match self {
            LBool::True => Some(true),
            LBool::False => Some(false),
            LBool::Undef => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_roundtrips() {
        for v in 0..50u32 {
            for neg in [false, true] {
                let l = Lit::new(Var(v), neg);
                assert_eq!(l.var(), Var(v));
                assert_eq!(l.is_neg(), neg);
                assert_eq!(!!l, l);
                assert_ne!(!l, l);
                assert_eq!((!l).var(), Var(v));
                assert_eq!(Lit::from_dimacs(l.to_dimacs()), l);
                assert_eq!(Lit::from_index(l.index()), l);
                assert_eq!(l.index(), 2 * v as usize + neg as usize);
            }
        }
    }

    #[test]
    fn dimacs_numbering_is_one_based() {
        assert_eq!(Lit::from_dimacs(1), Var(0).positive());
        assert_eq!(Lit::from_dimacs(-1), Var(0).negative());
        assert_eq!(Lit::from_dimacs(7).to_dimacs(), 7);
        assert_eq!(Lit::from_dimacs(i32::MAX).to_dimacs(), i32::MAX);
        assert_eq!(format!("{:?}", Lit::from_dimacs(-4)), "-4");
    }

    #[test]
    fn lbool_ops() {
        assert_eq!(LBool::True.negate(), LBool::False);
        assert_eq!(LBool::Undef.negate(), LBool::Undef);
        assert_eq!(LBool::from_bool(false), LBool::False);
        assert_eq!(LBool::True.to_bool(), Some(true));
        assert_eq!(LBool::default(), LBool::Undef);
    }
}
