//! Loos–Weispfenning projection of a `Real` variable (thesis Sec. 2.5.2).
//!
//! An equality `x = e` substitutes `e`. Otherwise, with bounds on both sides, the greatest
//! lower bound `ℓ` in the model is substituted: exactly when it is non-strict (`x := ℓ` meets
//! every bound the model meets), virtually as `ℓ + ε` when it is strict (other lower bounds
//! become `ℓ' ≤ ℓ`, upper bounds `ℓ < u`). Ties prefer the strict bound, which implies the
//! others. A variable bounded on one side only loses its bounds (the `±∞` substitution).

use super::{Bound, Projection};
use crate::mbp::MbpError;
use crate::mbp::constraint::Rel;
use cove_logic::{Rational, TermStore, VarId};

impl Projection<'_> {
    /// Loos–Weispfenning for a `Real` variable.
    pub(super) fn eliminate_real(
        &mut self,
        store: &mut TermStore,
        x: VarId,
    ) -> Result<(), MbpError> {
        let xt = store.mk_var(x);
        let with = self.take(xt);
        if let Some(i) = with.iter().position(|c| c.rel == Rel::Eq) {
            // c·x + t = 0: x := −t/c.
            let mut e = with[i].without(xt);
            e.scale(&(-with[i].coeff(xt)).recip());
            for (j, c) in with.iter().enumerate() {
                if j != i {
                    let (s, rel) = Self::substituted(c, xt, &e);
                    self.add(store, s, rel)?;
                }
            }
            return Ok(());
        }
        let (mut lowers, mut uppers) = (Vec::new(), Vec::new());
        for (index, c) in with.iter().enumerate() {
            // c·x + t ⋈ 0 bounds x by e = −t/c, from below when c < 0.
            let a = c.coeff(xt);
            let mut e = c.without(xt);
            e.scale(&(-&a).recip());
            let value = self.val.sum(store, &e)?;
            let b = Bound {
                e,
                value,
                strict: c.rel == Rel::Lt,
                index,
            };
            if a.is_negative() {
                lowers.push(b)
            } else {
                uppers.push(b)
            }
        }
        if lowers.is_empty() || uppers.is_empty() {
            return Ok(()); // x → ∓∞ satisfies every bound.
        }
        // The greatest lower bound in the model; on ties the strict one (it implies the rest).
        let best = (0..lowers.len())
            .max_by(|&i, &j| {
                (&lowers[i].value, lowers[i].strict)
                    .cmp(&(&lowers[j].value, lowers[j].strict))
                    .then(j.cmp(&i))
            })
            .unwrap_or(0);
        let l0 = &lowers[best];
        if !l0.strict {
            // x := ℓ0 exactly.
            for (j, c) in with.iter().enumerate() {
                if j != l0.index {
                    let (s, rel) = Self::substituted(c, xt, &l0.e);
                    self.add(store, s, rel)?;
                }
            }
            return Ok(());
        }
        // x := ℓ0 + ε: other lower bounds ℓ ≤ ℓ0, upper bounds ℓ0 < u.
        let e0 = l0.e.clone();
        for (i, l) in lowers.iter().enumerate() {
            if i != best {
                let mut s = l.e.clone();
                s.add_scaled(&e0, &Rational::MINUS_ONE);
                self.add(store, s, Rel::Le)?;
            }
        }
        for u in &uppers {
            let mut s = e0.clone();
            s.add_scaled(&u.e, &Rational::MINUS_ONE);
            self.add(store, s, Rel::Lt)?;
        }
        Ok(())
    }
}
