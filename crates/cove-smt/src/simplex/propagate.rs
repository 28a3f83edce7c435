//! Cheap per-row bound propagation ("bound refinement" in Dutertre–de Moura).
//!
//! A row `Σ c_v·x_v = 0` (the basic variable has coefficient −1) bounds each of its
//! variables by the others: `c_w·x_w = −Σ_{v≠w} c_v·x_v`. If every other variable has the
//! needed bound, `x_w` gets an implied bound. Counting the missing bounds once per row
//! makes this linear in the row length: with none missing every variable gets a bound,
//! with one missing only that variable.
//!
//! Only rows touched since the last call (by a bound assertion or a pivot) are scanned,
//! and only bounds on variables the caller asks for (`want`) are computed: the SMT glue
//! wants variables that still have unassigned atoms, so rows without such variables cost
//! one pass over their entries. Explanations are lazy: a [`RowBound`] names its row and
//! side, and [`Simplex::explain_row_bound`] rebuilds the Farkas multipliers
//! `|c_v / c_w|` from the bounds, which is valid as long as no bound changed and no pivot
//! happened since the bound was computed (the glue explains immediately).

use super::{Bound, BoundKind, BoundTag, DeltaRational, FarkasTerm, Simplex, TVar};
use cove_logic::Rational;

/// A bound implied by the current bounds through one tableau row, with its explanation.
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

/// A bound implied through one tableau row; explained on demand by
/// [`Simplex::explain_row_bound`] (only while the bounds and the tableau are unchanged).
#[derive(Clone, Debug)]
pub struct RowBound {
    /// The bounded variable.
    pub var: TVar,
    /// Side of the bound.
    pub kind: BoundKind,
    /// The bound (`var ≤ bound` or `var ≥ bound`).
    pub bound: DeltaRational,
    row: u32,
    use_max: bool,
}

/// The bound side of `x_v` (coefficient `c`) that bounds the row sum from above
/// (`use_max`) or below.
fn kind_for(c: &Rational, use_max: bool) -> BoundKind {
    if c.is_positive() == use_max {
        BoundKind::Upper
    } else {
        BoundKind::Lower
    }
}

impl Simplex {
    /// Bounds implied by rows touched since the last call that are strictly tighter than
    /// the current bounds, with explanations. The bounds are only reported, not asserted.
    pub fn implied_bounds(&mut self) -> Vec<ImpliedBound> {
        let mut rbs = Vec::new();
        self.row_bounds(|_| true, &mut rbs);
        rbs.into_iter()
            .map(|rb| ImpliedBound {
                reason: self.explain_row_bound(&rb),
                var: rb.var,
                kind: rb.kind,
                bound: rb.bound,
            })
            .collect()
    }

    /// Appends to `out` the bounds on variables `v` with `want(v)` implied by rows touched
    /// since the last call and strictly tighter than the current bounds. Clears the set
    /// of touched rows.
    pub fn row_bounds(&mut self, want: impl Fn(TVar) -> bool, out: &mut Vec<RowBound>) {
        let dirty = std::mem::take(&mut self.dirty_rows);
        for &r in &dirty {
            self.row_dirty[r as usize] = false;
            let row = &self.rows[r as usize];
            if row.entries.len() + 1 > self.prop_row_limit {
                continue;
            }
            if !want(row.basic) && !row.entries.iter().any(|(v, _)| want(*v)) {
                continue;
            }
            self.propagate_row(r, true, &want, out);
            self.propagate_row(r, false, &want, out);
        }
        let mut dirty = dirty;
        dirty.clear();
        self.dirty_rows = dirty;
    }

    /// Entry `i` of row `r` with the basic variable first (coefficient −1).
    fn row_entry<'a>(&'a self, r: u32, i: usize, m1: &'a Rational) -> (TVar, &'a Rational) {
        let row = &self.rows[r as usize];
        if i == 0 {
            (row.basic, m1)
        } else {
            let (v, c) = &row.entries[i - 1];
            (*v, c)
        }
    }

    /// `use_max`: bound `Σ_{v≠w} c_v·x_v` from above (uppers for `c_v > 0`, lowers
    /// otherwise), which bounds `c_w·x_w` from below; else the mirror image.
    fn propagate_row(
        &self,
        r: u32,
        use_max: bool,
        want: &impl Fn(TVar) -> bool,
        out: &mut Vec<RowBound>,
    ) {
        let m1 = Rational::MINUS_ONE;
        let n = self.rows[r as usize].entries.len() + 1;
        let mut missing: Option<usize> = None;
        let mut sum = DeltaRational::ZERO;
        for i in 0..n {
            let (v, c) = self.row_entry(r, i, &m1);
            match self.bound(v, kind_for(c, use_max)) {
                Some(b) => sum.add_scaled(c, &b.value),
                None if missing.is_none() => {
                    if !want(v) {
                        return;
                    }
                    missing = Some(i)
                }
                None => return,
            }
        }
        let (lo, hi) = match missing {
            Some(i) => (i, i + 1),
            None => (0, n),
        };
        for w in lo..hi {
            let (xw, cw) = self.row_entry(r, w, &m1);
            if !want(xw) {
                continue;
            }
            // c_w·x_w ≥ −rest (use_max) or ≤ −rest, rest = sum without w's term.
            let mut rest = sum.clone();
            if missing.is_none() {
                let b = self.bound(xw, kind_for(cw, use_max));
                let b = &b.as_ref().expect("bound present").value;
                rest.add_scaled(&-cw, b);
            }
            let value = rest.scale(&(-cw).recip());
            let kind = if use_max == cw.is_positive() {
                BoundKind::Lower
            } else {
                BoundKind::Upper
            };
            if !self.improves(xw, kind, &value) {
                continue;
            }
            out.push(RowBound {
                var: xw,
                kind,
                bound: value,
                row: r,
                use_max,
            });
        }
    }

    /// The position of `rb.var` in its row (basic first).
    fn row_position(&self, rb: &RowBound) -> usize {
        let row = &self.rows[rb.row as usize];
        if row.basic == rb.var {
            return 0;
        }
        1 + row
            .entries
            .iter()
            .position(|(v, _)| *v == rb.var)
            .expect("bounded variable is in its row")
    }

    /// The Farkas explanation of `rb`: the weighted sum of these bounds, with the row
    /// identity, is `rb`. Only valid while bounds and tableau are as when `rb` was found.
    pub fn explain_row_bound(&self, rb: &RowBound) -> Vec<FarkasTerm> {
        let m1 = Rational::MINUS_ONE;
        let w = self.row_position(rb);
        let n = self.rows[rb.row as usize].entries.len() + 1;
        let inv = self.row_entry(rb.row, w, &m1).1.recip().abs();
        (0..n)
            .filter(|&i| i != w)
            .map(|i| {
                let (v, c) = self.row_entry(rb.row, i, &m1);
                let k = kind_for(c, rb.use_max);
                let b: &Bound = self.bound(v, k).as_ref().expect("bound present");
                FarkasTerm {
                    tag: b.tag,
                    coef: c.abs() * &inv,
                    var: v,
                    kind: k,
                    bound: b.value.clone(),
                }
            })
            .collect()
    }

    /// The tags of [`Simplex::explain_row_bound`], appended to `out` (unsorted, possibly
    /// repeated), without building the multipliers.
    pub fn row_bound_tags(&self, rb: &RowBound, out: &mut Vec<BoundTag>) {
        let m1 = Rational::MINUS_ONE;
        let w = self.row_position(rb);
        let n = self.rows[rb.row as usize].entries.len() + 1;
        for i in (0..n).filter(|&i| i != w) {
            let (v, c) = self.row_entry(rb.row, i, &m1);
            let b = self.bound(v, kind_for(c, rb.use_max));
            out.push(b.as_ref().expect("bound present").tag);
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
