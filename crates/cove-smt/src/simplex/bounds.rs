//! Asserting bounds and backtracking over them.
//!
//! An assertion only ever tightens a bound; the previous bound goes on the trail when a
//! backtracking level is open, and [`Simplex::pop`] restores it. Integer variables get
//! their bounds rounded to integers on assertion (sound for integers, and what makes
//! branch and bound and Gomory cuts work); the rounded value is what conflicts report.

use super::{
    Bound, BoundKind, BoundTag, Conflict, DeltaRational, FarkasTerm, NO_ROW, Rel, RowRef, Simplex,
    TVar, TrailEntry,
};
use cove_logic::Rational;

impl Simplex {
    /// Asserts `v ≤ bound`. Fails at once, with a two-bound certificate, if the lower
    /// bound of `v` exceeds it.
    pub fn assert_upper(
        &mut self,
        v: TVar,
        bound: DeltaRational,
        tag: BoundTag,
    ) -> Result<(), Conflict> {
        self.assert_bound(v, BoundKind::Upper, bound, tag)
    }

    /// Asserts `v ≥ bound`; see [`Simplex::assert_upper`].
    pub fn assert_lower(
        &mut self,
        v: TVar,
        bound: DeltaRational,
        tag: BoundTag,
    ) -> Result<(), Conflict> {
        self.assert_bound(v, BoundKind::Lower, bound, tag)
    }

    /// Asserts `v ≤ bound` (`Upper`) or `v ≥ bound` (`Lower`).
    pub fn assert_bound(
        &mut self,
        v: TVar,
        kind: BoundKind,
        bound: DeltaRational,
        tag: BoundTag,
    ) -> Result<(), Conflict> {
        let i = v.idx();
        let bound = if self.is_int[i] {
            DeltaRational::from_rational(match kind {
                BoundKind::Upper => bound.floor(),
                BoundKind::Lower => bound.ceil(),
            })
        } else {
            bound
        };
        let (same, other) = match kind {
            BoundKind::Upper => (&self.upper[i], &self.lower[i]),
            BoundKind::Lower => (&self.lower[i], &self.upper[i]),
        };
        let weaker = match (same, kind) {
            (Some(b), BoundKind::Upper) => bound >= b.value,
            (Some(b), BoundKind::Lower) => bound <= b.value,
            (None, _) => false,
        };
        if weaker {
            return Ok(());
        }
        if let Some(o) = other {
            let clash = match kind {
                BoundKind::Upper => bound < o.value,
                BoundKind::Lower => bound > o.value,
            };
            if clash {
                self.stats.conflicts += 1;
                let other_kind = match kind {
                    BoundKind::Upper => BoundKind::Lower,
                    BoundKind::Lower => BoundKind::Upper,
                };
                return Err(Conflict {
                    terms: vec![
                        FarkasTerm {
                            tag,
                            coef: Rational::ONE,
                            var: v,
                            kind,
                            bound,
                        },
                        FarkasTerm {
                            tag: o.tag,
                            coef: Rational::ONE,
                            var: v,
                            kind: other_kind,
                            bound: o.value.clone(),
                        },
                    ],
                });
            }
        }
        let new = Some(Bound { value: bound, tag });
        let old = match kind {
            BoundKind::Upper => std::mem::replace(&mut self.upper[i], new),
            BoundKind::Lower => std::mem::replace(&mut self.lower[i], new),
        };
        if !self.levels.is_empty() {
            self.trail.push(TrailEntry { var: v, kind, old });
        }
        if self.propagation {
            let r = self.basic_row[i];
            if r != NO_ROW {
                self.mark_dirty(r as usize);
            } else {
                for k in 0..self.cols[i].len() {
                    let r = self.cols[i][k].row as usize;
                    self.mark_dirty(r);
                }
            }
        }
        if self.basic_row[i] == NO_ROW {
            let target = match kind {
                BoundKind::Upper if self.above_upper(v) => {
                    self.upper[i].as_ref().map(|b| b.value.clone())
                }
                BoundKind::Lower if self.below_lower(v) => {
                    self.lower[i].as_ref().map(|b| b.value.clone())
                }
                _ => None,
            };
            if let Some(t) = target {
                self.update(v, t);
            }
        } else {
            self.note_basic(v);
        }
        Ok(())
    }

    /// Asserts the atom `Σ aᵢ·xᵢ ⋈ rhs` for the form whose slack is `row` (from
    /// [`Simplex::add_row`]), applying the row's factor. `Eq` asserts both bounds under
    /// the same tag.
    pub fn assert_rel(
        &mut self,
        row: &RowRef,
        rel: Rel,
        rhs: &Rational,
        tag: BoundTag,
    ) -> Result<(), Conflict> {
        let val = &row.factor * rhs;
        let flip = row.factor.is_negative();
        let (kind, strict) = match rel {
            Rel::Le => (BoundKind::Upper, false),
            Rel::Lt => (BoundKind::Upper, true),
            Rel::Ge => (BoundKind::Lower, false),
            Rel::Gt => (BoundKind::Lower, true),
            Rel::Eq => {
                self.assert_bound(
                    row.var,
                    BoundKind::Upper,
                    DeltaRational::from_rational(val.clone()),
                    tag,
                )?;
                return self.assert_bound(
                    row.var,
                    BoundKind::Lower,
                    DeltaRational::from_rational(val),
                    tag,
                );
            }
        };
        let kind = match (kind, flip) {
            (k, false) => k,
            (BoundKind::Upper, true) => BoundKind::Lower,
            (BoundKind::Lower, true) => BoundKind::Upper,
        };
        let bound = match (kind, strict) {
            (_, false) => DeltaRational::from_rational(val),
            (BoundKind::Upper, true) => DeltaRational::below(val),
            (BoundKind::Lower, true) => DeltaRational::above(val),
        };
        self.assert_bound(row.var, kind, bound, tag)
    }

    /// Opens a backtracking level.
    pub fn push(&mut self) {
        self.levels.push(self.trail.len());
    }

    /// Closes `n` levels, restoring the bounds of that time. The assignment is kept (it
    /// still satisfies the now looser bounds of nonbasic variables).
    pub fn pop(&mut self, n: usize) {
        let n = n.min(self.levels.len());
        if n == 0 {
            return;
        }
        let target = self.levels[self.levels.len() - n];
        self.levels.truncate(self.levels.len() - n);
        while self.trail.len() > target {
            let e = self.trail.pop().expect("trail entry");
            match e.kind {
                BoundKind::Upper => self.upper[e.var.idx()] = e.old,
                BoundKind::Lower => self.lower[e.var.idx()] = e.old,
            }
        }
    }

    /// Number of open backtracking levels.
    pub fn level(&self) -> usize {
        self.levels.len()
    }
}
