//! Cheap per-row bound propagation ("bound refinement" in Dutertre–de Moura).
//!
//! A row `Σ c_v·x_v = 0` (the basic variable has coefficient −1) bounds each of its
//! variables by the others: `c_w·x_w = −Σ_{v≠w} c_v·x_v`. If every other variable has the
//! needed bound, `x_w` gets an implied bound. Counting the missing bounds once per row
//! makes this linear in the row length: with none missing every variable gets a bound,
//! with one missing only that variable. Each implied bound carries its Farkas explanation
//! (multipliers `|c_v / c_w|`), so the glue can propagate atoms and later explain them.
//!
//! Only rows touched since the last call (by a bound assertion or a pivot) are scanned.

use super::{Bound, BoundKind, DeltaRational, FarkasTerm, Simplex, TVar};
use cove_logic::Rational;

/// A bound implied by the current bounds through one tableau row.
#[derive(Clone, Debug)]
pub struct ImpliedBound {
    /// The bounded variable.
    pub var: TVar,
    /// Side of the bound.
    pub kind: BoundKind,
    /// The bound (`var ≤ bound` or `var ≥ bound`).
    pub bound: DeltaRational,
    /// Explanation: the weighted sum of these constraints (with the row identity) is the
    /// implied bound, written `var ≤ bound` / `-var ≤ -bound`.
    pub reason: Vec<FarkasTerm>,
}

impl Simplex {
    /// Bounds implied by rows touched since the last call that are strictly tighter than
    /// the current bounds. The bounds are only reported, not asserted.
    pub fn implied_bounds(&mut self) -> Vec<ImpliedBound> {
        let mut out = Vec::new();
        let dirty = std::mem::take(&mut self.dirty_rows);
        for &r in &dirty {
            self.row_dirty[r as usize] = false;
            let row = &self.rows[r as usize];
            if row.entries.len() + 1 > self.prop_row_limit {
                continue;
            }
            let mut all: Vec<(TVar, Rational)> = Vec::with_capacity(row.entries.len() + 1);
            all.push((row.basic, Rational::MINUS_ONE));
            all.extend(row.entries.iter().cloned());
            self.propagate_row(&all, true, &mut out);
            self.propagate_row(&all, false, &mut out);
        }
        let mut dirty = dirty;
        dirty.clear();
        self.dirty_rows = dirty;
        out
    }

    /// `use_max`: bound `Σ_{v≠w} c_v·x_v` from above (uppers for `c_v > 0`, lowers
    /// otherwise), which bounds `c_w·x_w` from below; else the mirror image.
    fn propagate_row(&self, all: &[(TVar, Rational)], use_max: bool, out: &mut Vec<ImpliedBound>) {
        let kind_for = |c: &Rational| {
            if c.is_positive() == use_max {
                BoundKind::Upper
            } else {
                BoundKind::Lower
            }
        };
        let mut missing: Option<usize> = None;
        let mut sum = DeltaRational::ZERO;
        for (i, (v, c)) in all.iter().enumerate() {
            match self.bound(*v, kind_for(c)) {
                Some(b) => sum.add_scaled(c, &b.value),
                None if missing.is_none() => missing = Some(i),
                None => return,
            }
        }
        let candidates: Vec<usize> = match missing {
            Some(i) => vec![i],
            None => (0..all.len()).collect(),
        };
        for w in candidates {
            let (xw, cw) = &all[w];
            let mut rest = sum.clone();
            if missing.is_none() {
                let b = self
                    .bound(*xw, kind_for(cw))
                    .as_ref()
                    .expect("bound present");
                rest.add_scaled(&-cw, &b.value);
            }
            // c_w·x_w ≥ −rest (use_max) or ≤ −rest; divide by c_w.
            let value = rest.scale(&(-cw).recip());
            let kind = if use_max == cw.is_positive() {
                BoundKind::Lower
            } else {
                BoundKind::Upper
            };
            if !self.improves(*xw, kind, &value) {
                continue;
            }
            let inv = cw.recip().abs();
            let reason = all
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != w)
                .map(|(_, (v, c))| {
                    let k = kind_for(c);
                    let b: &Bound = self.bound(*v, k).as_ref().expect("bound present");
                    FarkasTerm {
                        tag: b.tag,
                        coef: c.abs() * &inv,
                        var: *v,
                        kind: k,
                        bound: b.value.clone(),
                    }
                })
                .collect();
            out.push(ImpliedBound {
                var: *xw,
                kind,
                bound: value,
                reason,
            });
        }
    }

    fn improves(&self, v: TVar, kind: BoundKind, value: &DeltaRational) -> bool {
        match (self.bound(v, kind), kind) {
            (None, _) => true,
            (Some(b), BoundKind::Upper) => *value < b.value,
            (Some(b), BoundKind::Lower) => *value > b.value,
        }
    }
}
