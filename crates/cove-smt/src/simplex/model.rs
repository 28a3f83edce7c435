//! Concrete rational models from a Q_δ assignment.
//!
//! After a successful check every variable satisfies `l ≤ β ≤ u` in Q_δ. For a bound
//! `(c₁,k₁) ≤ (c₂,k₂)` with `c₁ < c₂` and `k₁ > k₂` the inequality survives substituting a
//! rational `δ` as long as `δ ≤ (c₂−c₁)/(k₁−k₂)`; the minimum of these (and 1) works for all
//! bounds at once, and rows stay satisfied because they are linear in both components.

use super::{DeltaRational, Simplex, TVar};
use cove_logic::Rational;

impl Simplex {
    /// A positive rational `δ` for which the current assignment satisfies all bounds
    /// (call after a successful [`Simplex::check`]).
    pub fn concrete_delta(&self) -> Rational {
        let mut delta = Rational::ONE;
        let mut tighten = |lo: &DeltaRational, hi: &DeltaRational| {
            if lo.real < hi.real && lo.delta > hi.delta {
                let d = (&hi.real - &lo.real) / (&lo.delta - &hi.delta);
                if d < delta {
                    delta = d;
                }
            }
        };
        for v in 0..self.num_vars() {
            let b = &self.beta[v];
            if let Some(l) = &self.lower[v] {
                tighten(&l.value, b);
            }
            if let Some(u) = &self.upper[v] {
                tighten(b, &u.value);
            }
        }
        delta
    }

    /// Rational values of all variables (indexed by [`TVar::idx`]) satisfying every bound
    /// and every slack definition (call after a successful [`Simplex::check`]).
    pub fn concrete_model(&self) -> Vec<Rational> {
        let d = self.concrete_delta();
        self.beta.iter().map(|b| b.at(&d)).collect()
    }

    /// Rational value of one variable under [`Simplex::concrete_delta`] `d`.
    pub fn concrete_value(&self, v: TVar, d: &Rational) -> Rational {
        self.beta[v.idx()].at(d)
    }
}
