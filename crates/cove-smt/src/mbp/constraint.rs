//! Linear constraints `Σ cᵢ·aᵢ + k ⋈ 0` with `⋈ ∈ {≤, <, =, d|}`.
//!
//! # Invariant
//! A constraint is `int` when all its atoms are `Int`-sorted; it is then kept with integer,
//! gcd-reduced coefficients, `<` is tightened to `≤`, and divisibility is only used on `int`
//! constraints. Normalization is an equivalence for every assignment of the atoms (for `int`
//! constraints: every integer assignment), so a model that satisfies a constraint still
//! satisfies it after [`Constraint::normalize`].

use cove_logic::{LinearSum, Op, Rational, Sort, TermId, TermStore, mk_linear};

/// The relation of a constraint to zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Rel {
    /// `sum ≤ 0`.
    Le,
    /// `sum < 0` (only on non-`int` constraints after normalization).
    Lt,
    /// `sum = 0`.
    Eq,
    /// `d | sum`, `d ≥ 2` after normalization.
    Div(Rational),
}

/// `sum ⋈ 0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Constraint {
    pub sum: LinearSum,
    pub rel: Rel,
    pub int: bool,
}

/// What normalization found out about a constraint.
pub(super) enum Norm {
    /// Holds for every assignment; drop it.
    True,
    /// Holds for no assignment.
    False,
    /// Still a constraint.
    Keep(Constraint),
}

impl Constraint {
    pub(super) fn new(store: &TermStore, sum: LinearSum, rel: Rel) -> Constraint {
        let int = sum.terms.iter().all(|(a, _)| store.sort(*a) == Sort::Int);
        Constraint { sum, rel, int }
    }

    /// Canonical form (see the module docs).
    pub(super) fn normalize(mut self) -> Norm {
        if self.int {
            self.normalize_int();
        }
        let c = &self.sum.constant;
        if self.sum.is_constant() {
            let holds = match &self.rel {
                Rel::Le => !c.is_positive(),
                Rel::Lt => c.is_negative(),
                Rel::Eq => c.is_zero(),
                Rel::Div(d) => (c / d).is_integer(),
            };
            return if holds { Norm::True } else { Norm::False };
        }
        match &self.rel {
            Rel::Div(d) if d.is_one() => Norm::True,
            Rel::Eq if self.int && !c.is_integer() => Norm::False,
            _ => Norm::Keep(self),
        }
    }

    fn normalize_int(&mut self) {
        // Integer coefficients with gcd 1 (for divisibility: gcd with the modulus too).
        let mut den = Rational::ONE;
        for (_, c) in &self.sum.terms {
            den = den.lcm(&Rational::from_bigint(c.denom()));
        }
        den = den.lcm(&Rational::from_bigint(self.sum.constant.denom()));
        if !den.is_one() {
            self.sum.scale(&den);
            if let Rel::Div(d) = &mut self.rel {
                *d = &*d * &den;
            }
        }
        if let Rel::Div(d) = &mut self.rel {
            // Coefficients and constant only matter modulo d.
            let d = d.abs();
            for (_, c) in &mut self.sum.terms {
                *c = c.int_mod(&d);
            }
            self.sum.terms.retain(|(_, c)| !c.is_zero());
            self.sum.constant = self.sum.constant.int_mod(&d);
            let mut g = d.clone();
            for (_, c) in &self.sum.terms {
                g = g.gcd(c);
            }
            g = g.gcd(&self.sum.constant);
            self.sum.scale(&g.recip());
            self.rel = Rel::Div(&d / &g);
            return;
        }
        let mut g = Rational::ZERO;
        for (_, c) in &self.sum.terms {
            g = g.gcd(c);
        }
        if g.is_zero() || g.is_one() {
            if self.rel == Rel::Lt {
                self.sum.constant += &Rational::ONE;
                self.rel = Rel::Le;
            }
            return;
        }
        // Σ g·cᵢ'·aᵢ + k ⋈ 0  ⟺  Σ cᵢ'·aᵢ + k/g ⋈ 0, then round the constant.
        self.sum.scale(&g.recip());
        let k = self.sum.constant.clone();
        match self.rel {
            // s + k ≤ 0 ⟺ s ≤ ⌊−k⌋ ⟺ s + ⌈k⌉ ≤ 0.
            Rel::Le => self.sum.constant = k.ceil(),
            // s + k < 0 ⟺ s < −k ⟺ s ≤ ⌈−k⌉ − 1 ⟺ s + ⌊k⌋ + 1 ≤ 0.
            Rel::Lt => {
                self.sum.constant = k.floor() + Rational::ONE;
                self.rel = Rel::Le;
            }
            _ => {}
        }
    }

    /// The coefficient of atom `x`.
    pub(super) fn coeff(&self, x: TermId) -> Rational {
        self.sum.coeff(x)
    }

    /// `sum` with the atom `x` removed.
    pub(super) fn without(&self, x: TermId) -> LinearSum {
        let mut s = self.sum.clone();
        s.terms.retain(|(a, _)| *a != x);
        s
    }

    /// The constraint as a term.
    pub(super) fn to_term(&self, store: &mut TermStore) -> TermId {
        let sort = if self.int { Sort::Int } else { Sort::Real };
        match &self.rel {
            Rel::Div(d) => {
                let mut s = self.sum.clone();
                let r = (-&s.constant).int_mod(d);
                s.constant = Rational::ZERO;
                let st = mk_linear(store, &s, Sort::Int);
                let dt = store.mk_num(d.clone(), Sort::Int);
                let m = store.mk_raw(Op::Mod, &[st, dt], Sort::Int);
                let rt = store.mk_num(r, Sort::Int);
                store.mk_eq(m, rt)
            }
            rel => {
                let mut s = self.sum.clone();
                let k = -std::mem::take(&mut s.constant);
                let st = mk_linear(store, &s, sort);
                let kt = store.mk_num(k, sort);
                match rel {
                    Rel::Le => store.mk_le(st, kt),
                    Rel::Lt => store.mk_lt(st, kt),
                    _ => store.mk_eq(st, kt),
                }
            }
        }
    }
}
