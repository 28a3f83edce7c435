//! Values of atoms and linear sums during a projection.
//!
//! The model assigns the variables of the input formula; the fresh quotient/remainder
//! variables introduced for `div`/`mod` get their values here, from the model's value of the
//! term they replace, so the model extended this way still satisfies every constraint.

use super::MbpError;
use cove_logic::{LinearSum, Model, Op, Rational, TermId, TermStore, VarId};
use rustc_hash::FxHashMap;

pub(super) struct Valuation<'m> {
    model: &'m Model,
    extra: FxHashMap<VarId, Rational>,
    memo: FxHashMap<TermId, Rational>,
}

impl<'m> Valuation<'m> {
    pub(super) fn new(model: &'m Model) -> Valuation<'m> {
        Valuation {
            model,
            extra: FxHashMap::default(),
            memo: FxHashMap::default(),
        }
    }

    /// Gives the fresh variable `v` the value `value`.
    pub(super) fn set(&mut self, v: VarId, value: Rational) {
        self.extra.insert(v, value);
    }

    /// Records the value of a term built during the projection (it may contain fresh
    /// variables, which the model cannot evaluate).
    pub(super) fn define(&mut self, t: TermId, value: Rational) {
        self.memo.insert(t, value);
    }

    /// The value of an arithmetic atom: a fresh variable, a term recorded with
    /// [`Valuation::define`], or a term of the input formula.
    pub(super) fn atom(&mut self, store: &TermStore, t: TermId) -> Result<Rational, MbpError> {
        if let Some(v) = self.memo.get(&t) {
            return Ok(v.clone());
        }
        let value = match store.op(t) {
            Op::Var(v) if self.extra.contains_key(v) => self.extra[v].clone(),
            _ => match self.model.eval(store, t)?.as_num() {
                Some(n) => n.clone(),
                None => return Err(MbpError::NotAModel),
            },
        };
        self.memo.insert(t, value.clone());
        Ok(value)
    }

    /// The value of a linear sum.
    pub(super) fn sum(&mut self, store: &TermStore, s: &LinearSum) -> Result<Rational, MbpError> {
        let mut acc = s.constant.clone();
        for (a, c) in &s.terms {
            acc += &(c * &self.atom(store, *a)?);
        }
        Ok(acc)
    }
}
