//! Cooper-style projection of an `Int` variable (thesis Sec. 2.5.3, after Bjørner–Janota).
//!
//! * An equality `c·x + t = 0` (smallest `|c|`) is exact: `|c| | t`, and every other
//!   constraint is scaled by `|c|` with `c·x` replaced by `−t`.
//! * With bounds on both sides, `x` gets the greatest lower bound in the model,
//!   `⌈t/|a|⌉ = (t + |a| − 1) div |a|`, plus the residue `(M(x) − M(⌈t/|a|⌉)) mod D` that
//!   keeps the divisibility constraints (`D` the lcm of their moduli). The `div` term keeps
//!   results small: halving chains give nested `div`s instead of moduli `2ⁿ`. When the bound
//!   still mentions a variable to be eliminated, the classic scaled form is used instead
//!   (`y = L·x`, `L` the lcm of the coefficients, with the divisibility `L | ℓ + residue`), so
//!   no variable still to be eliminated ends up under a `div`.
//! * With bounds on one side only, `x` goes to `∓∞` along its residue class: only the
//!   divisibility constraints remain, with `x := M(x) mod D`.
//!
//! The model satisfies each result: it picks the greatest lower bound and `x`'s own residue.

use super::{Bound, Projection};
use crate::mbp::MbpError;
use crate::mbp::constraint::{Constraint, Rel};
use cove_logic::{LinearSum, Op, Rational, Sort, TermId, TermStore, VarId, mk_linear};

impl Projection<'_> {
    /// Cooper-style projection of an `Int` variable.
    pub(super) fn eliminate_int(
        &mut self,
        store: &mut TermStore,
        x: VarId,
    ) -> Result<(), MbpError> {
        let xt = store.mk_var(x);
        if self.cons.iter().any(|c| !c.int && !c.coeff(xt).is_zero()) {
            return Ok(()); // mixed Int/Real constraint: x is kept.
        }
        let with = self.take(xt);
        let eq = (0..with.len())
            .filter(|&i| with[i].rel == Rel::Eq)
            .min_by_key(|&i| with[i].coeff(xt).abs());
        if let Some(i) = eq {
            return self.eliminate_int_eq(store, xt, &with, i);
        }
        // x ≡ M(x) (mod D) keeps every divisibility constraint true.
        let mut d = Rational::ONE;
        for c in &with {
            if let Rel::Div(m) = &c.rel {
                d = d.lcm(m);
            }
        }
        let mx = self.val.atom(store, xt)?;
        let mut lowers = Vec::new();
        let mut has_upper = false;
        for (index, c) in with.iter().enumerate() {
            let a = c.coeff(xt);
            if c.rel != Rel::Le {
                continue;
            }
            if a.is_positive() {
                has_upper = true;
            } else {
                // −|a|·x + t ≤ 0: x ≥ ⌈t / |a|⌉.
                let e = c.without(xt);
                let value = (&self.val.sum(store, &e)? / &a.abs()).ceil();
                lowers.push((
                    Bound {
                        e,
                        value,
                        strict: false,
                        index,
                    },
                    a.abs(),
                ));
            }
        }
        if lowers.is_empty() || !has_upper {
            // x → ∓∞ along its residue class: only the divisibility constraints remain.
            let e = LinearSum::constant(mx.int_mod(&d));
            for c in with.iter().filter(|c| matches!(c.rel, Rel::Div(_))) {
                let (s, rel) = Self::substituted(c, xt, &e);
                self.add(store, s, rel)?;
            }
            return Ok(());
        }
        // The greatest lower bound ⌈t/|a|⌉ in the model, moved up to x's residue class:
        // x := ⌈t/|a|⌉ + ((M(x) − M(⌈t/|a|⌉)) mod D), with ⌈t/|a|⌉ = (t + |a| − 1) div |a|.
        let best = (0..lowers.len())
            .max_by(|&i, &j| lowers[i].0.value.cmp(&lowers[j].0.value).then(j.cmp(&i)))
            .unwrap_or(0);
        let (lb, a) = &lowers[best];
        if !a.is_one()
            && lb
                .e
                .terms
                .iter()
                .any(|(t, _)| self.mentions_pending(store, *t))
        {
            return self.eliminate_int_scaled(store, xt, &with);
        }
        let k = (&mx - &lb.value).int_mod(&d);
        let mut e = if a.is_one() {
            lb.e.clone()
        } else {
            let mut arg = lb.e.clone();
            arg.constant += &(a - &Rational::ONE);
            let arg = mk_linear(store, &arg, Sort::Int);
            let at = store.mk_num(a.clone(), Sort::Int);
            let ceil = store.mk_raw(Op::IntDiv, &[arg, at], Sort::Int);
            self.val.define(ceil, lb.value.clone());
            LinearSum::atom(ceil)
        };
        e.constant += &k;
        let skip = lb.index;
        for (j, c) in with.iter().enumerate() {
            if j != skip {
                let (s, rel) = Self::substituted(c, xt, &e);
                self.add(store, s, rel)?;
            }
        }
        Ok(())
    }

    /// Cooper with the coefficients of `x` scaled to their lcm `L`: `y = L·x` gets the
    /// greatest lower bound `ℓ` plus the residue `(M(y) − M(ℓ)) mod D`, and `L | ℓ + residue`.
    /// Used when the ceiling form would put a variable still to be eliminated under `div`.
    fn eliminate_int_scaled(
        &mut self,
        store: &mut TermStore,
        xt: TermId,
        with: &[Constraint],
    ) -> Result<(), MbpError> {
        // Scale every coefficient of x to ±L and read y = L·x.
        let mut l = Rational::ONE;
        for c in with {
            l = l.lcm(&c.coeff(xt));
        }
        let mut scaled = Vec::with_capacity(with.len());
        let mut d = l.clone();
        for c in with {
            let a = c.coeff(xt);
            let f = &l / &a.abs();
            let mut t = c.without(xt);
            t.scale(&f);
            let rel = match &c.rel {
                Rel::Div(m) => {
                    let m = m * &f;
                    d = d.lcm(&m);
                    Rel::Div(m)
                }
                r => r.clone(),
            };
            scaled.push((a.is_positive(), t, rel));
        }
        let my = &l * &self.val.atom(store, xt)?;
        let mut lowers = Vec::new();
        let has_upper = scaled.iter().any(|(pos, _, rel)| *pos && *rel == Rel::Le);
        for (index, (pos, t, rel)) in scaled.iter().enumerate() {
            if !*pos && *rel == Rel::Le {
                // −y + t ≤ 0: t ≤ y.
                let value = self.val.sum(store, t)?;
                lowers.push(Bound {
                    e: t.clone(),
                    value,
                    strict: false,
                    index,
                });
            }
        }
        // y := e, where e is the residue of y (one-sided case) or ℓ0 + residue.
        let (e, skip) = if lowers.is_empty() || !has_upper {
            (LinearSum::constant(my.int_mod(&d)), None)
        } else {
            let best = (0..lowers.len())
                .max_by(|&i, &j| lowers[i].value.cmp(&lowers[j].value).then(j.cmp(&i)))
                .unwrap_or(0);
            let mut e = lowers[best].e.clone();
            e.constant += &(&my - &lowers[best].value).int_mod(&d);
            if !l.is_one() {
                self.add(store, e.clone(), Rel::Div(l.clone()))?;
            }
            (e, Some(lowers[best].index))
        };
        let one_sided = skip.is_none();
        for (index, (pos, t, rel)) in scaled.into_iter().enumerate() {
            if Some(index) == skip || (one_sided && !matches!(rel, Rel::Div(_))) {
                continue;
            }
            let mut s = t;
            s.add_scaled(
                &e,
                if pos {
                    &Rational::ONE
                } else {
                    &Rational::MINUS_ONE
                },
            );
            self.add(store, s, rel)?;
        }
        Ok(())
    }

    /// `c·x + t = 0` with minimal `|c|`: `|c| | t`, and `c·x = −t` in the others scaled by `|c|`.
    fn eliminate_int_eq(
        &mut self,
        store: &TermStore,
        xt: TermId,
        with: &[Constraint],
        i: usize,
    ) -> Result<(), MbpError> {
        let c = with[i].coeff(xt);
        let t = with[i].without(xt);
        let abs_c = c.abs();
        if !abs_c.is_one() {
            self.add(store, t.clone(), Rel::Div(abs_c.clone()))?;
        }
        let sign_c = if c.is_negative() {
            Rational::MINUS_ONE
        } else {
            Rational::ONE
        };
        for (j, other) in with.iter().enumerate() {
            if j == i {
                continue;
            }
            // |c|·(a·x + s) = a·sign(c)·(c·x) + |c|·s = −a·sign(c)·t + |c|·s.
            let a = other.coeff(xt);
            let mut s = other.without(xt);
            s.scale(&abs_c);
            s.add_scaled(&t, &-(&a * &sign_c));
            let rel = match &other.rel {
                Rel::Div(m) => Rel::Div(m * &abs_c),
                r => r.clone(),
            };
            self.add(store, s, rel)?;
        }
        Ok(())
    }
}
