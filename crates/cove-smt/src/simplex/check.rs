//! The `Check` procedure of Dutertre–de Moura (Fig. 3): repair violated basic variables by
//! pivoting, or derive a Farkas certificate from a row that cannot be repaired.
//!
//! The leaving variable is always the smallest violated basic variable. The entering
//! variable is first chosen for sparsity (fewest column occurrences, so the pivot touches
//! few rows); after `bland_after` pivots in one call the choice switches to the smallest
//! index, i.e. Bland's rule, which guarantees termination.

use super::{BoundKind, Conflict, FarkasTerm, NO_ROW, Simplex, TVar};
use std::cmp::Reverse;

/// Pivots between two polls of the limits: a poll reads the clock (tens of nanoseconds), a
/// pivot that substitutes a dense row into thousands of others costs milliseconds.
const POLL_EVERY: u64 = 2;

/// Rows beyond which a tableau counts as large for [`POLL_EVERY`]; smaller ones poll every
/// [`POLL_EVERY_SMALL`] pivots.
const LARGE_TABLEAU: usize = 2048;

/// Pivots between two polls on a small tableau.
const POLL_EVERY_SMALL: u64 = 64;

impl Simplex {
    /// Restores feasibility of all bounds, or returns a minimal Farkas certificate. With a
    /// poll set ([`Simplex::set_poll`]) it may also stop early: then `Ok` is returned and
    /// [`Simplex::stopped`] is true.
    pub fn check(&mut self) -> Result<(), Conflict> {
        self.check_limited(u64::MAX).map(|_| ())
    }

    /// Like [`Simplex::check`] but gives up after `max_pivots` pivots, returning
    /// `Ok(false)`; the state stays consistent and a later call resumes the search.
    pub fn check_limited(&mut self, max_pivots: u64) -> Result<bool, Conflict> {
        self.stats.checks += 1;
        self.stopped = false;
        let mut pivots = 0u64;
        // Pivots on a small tableau are cheap, and a clock read per pivot would show.
        let every = if self.rows.len() > LARGE_TABLEAU {
            POLL_EVERY
        } else {
            POLL_EVERY_SMALL
        };
        while let Some(xi) = self.pop_violated() {
            let stop = pivots % every == every - 1
                && self
                    .poll
                    .as_ref()
                    .is_some_and(|c| c.should_stop().is_some());
            if stop {
                self.stopped = true;
            }
            if pivots >= max_pivots || stop {
                // Keep the pivot count so that Bland's rule still takes over eventually.
                self.unfinished_pivots += pivots;
                self.in_heap[xi.idx()] = true;
                self.violated.push(Reverse(xi.0));
                return Ok(false);
            }
            let r = self.basic_row[xi.idx()] as usize;
            let increase = self.below_lower(xi);
            let bland = pivots + self.unfinished_pivots >= self.bland_after;
            let Some(xj) = self.select_entering(r, increase, bland) else {
                self.in_heap[xi.idx()] = true;
                self.violated.push(Reverse(xi.0));
                self.stats.conflicts += 1;
                self.unfinished_pivots = 0;
                return Err(self.row_conflict(r, increase));
            };
            let target = if increase {
                &self.lower[xi.idx()]
            } else {
                &self.upper[xi.idx()]
            };
            let target = target.as_ref().expect("violated bound").value.clone();
            self.pivot_and_update(r, xi, xj, &target);
            pivots += 1;
        }
        self.unfinished_pivots = 0;
        Ok(true)
    }

    fn pop_violated(&mut self) -> Option<TVar> {
        while let Some(Reverse(v)) = self.violated.pop() {
            let x = TVar(v);
            self.in_heap[x.idx()] = false;
            if self.basic_row[x.idx()] != NO_ROW && (self.below_lower(x) || self.above_upper(x)) {
                return Some(x);
            }
        }
        None
    }

    /// A nonbasic variable of row `r` that can move the basic variable in the needed
    /// direction without leaving its own bounds.
    fn select_entering(&self, r: usize, increase: bool, bland: bool) -> Option<TVar> {
        let mut best: Option<(usize, TVar)> = None;
        for (xj, a) in &self.rows[r].entries {
            // The basic variable rises with xj iff a > 0.
            let up = a.is_positive() == increase;
            let ok = if up {
                !matches!(&self.upper[xj.idx()], Some(u) if self.beta[xj.idx()] >= u.value)
            } else {
                !matches!(&self.lower[xj.idx()], Some(l) if self.beta[xj.idx()] <= l.value)
            };
            if !ok {
                continue;
            }
            let key = if bland { 0 } else { self.cols[xj.idx()].len() };
            match best {
                Some((k, v)) if (k, v) <= (key, *xj) => {}
                _ => best = Some((key, *xj)),
            }
        }
        best.map(|(_, v)| v)
    }

    /// Certificate from row `r` whose basic variable is stuck below its lower bound
    /// (`increase`) or above its upper bound.
    fn row_conflict(&self, r: usize, increase: bool) -> Conflict {
        let row = &self.rows[r];
        let xi = row.basic;
        let mut terms = Vec::with_capacity(row.entries.len() + 1);
        let (own, pos_kind, neg_kind) = if increase {
            (BoundKind::Lower, BoundKind::Upper, BoundKind::Lower)
        } else {
            (BoundKind::Upper, BoundKind::Lower, BoundKind::Upper)
        };
        let b = self.bound(xi, own).as_ref().expect("violated bound");
        terms.push(FarkasTerm {
            tag: b.tag,
            coef: cove_logic::Rational::ONE,
            var: xi,
            kind: own,
            bound: b.value.clone(),
        });
        for (xj, a) in &row.entries {
            let kind = if a.is_positive() { pos_kind } else { neg_kind };
            let b = self.bound(*xj, kind).as_ref().expect("blocking bound");
            terms.push(FarkasTerm {
                tag: b.tag,
                coef: a.abs(),
                var: *xj,
                kind,
                bound: b.value.clone(),
            });
        }
        Conflict { terms }
    }
}
