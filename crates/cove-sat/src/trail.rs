//! The assignment trail (MiniSat's `trail`, `trail_lim`, `qhead`).
//!
//! Invariants:
//! - `trail` lists every assigned literal exactly once, in assignment order;
//! - `trail_lim[d]` is the trail length when decision level `d + 1` was opened, so levels along
//!   the trail are non-decreasing and `level[v]` equals the number of `trail_lim` entries `<=`
//!   the trail position of `v`;
//! - `vals` is indexed by literal: `vals[l] == True` iff `l` is on the trail, and
//!   `vals[!l] == False` at the same time;
//! - `reason[v]` is either `NONE` (decision, assumption or level-0 fact) or a clause whose
//!   literal 0 is the trail literal of `v` and whose other literals are false and earlier on the
//!   trail;
//! - `qhead <= trail.len()`: literals before `qhead` have been propagated through the watches,
//!   and `theory_head` marks how far the theory has seen the trail.

use crate::clause::ClauseRef;
use crate::lit::{LBool, Lit};
use crate::solver::Solver;

impl Solver {
    /// Current decision level (0 = no decisions).
    #[inline]
    pub(crate) fn decision_level(&self) -> usize {
        self.trail_lim.len()
    }

    /// Value of `l` under the current partial assignment.
    #[inline]
    pub(crate) fn lit_value(&self, l: Lit) -> LBool {
        self.vals[l.index()]
    }

    /// Assigns `l` true at the current level with the given reason.
    ///
    /// # Preconditions
    /// `l` is unassigned; if `reason` is a clause, its literal 0 is `l` and all others are false.
    #[inline]
    pub(crate) fn enqueue(&mut self, l: Lit, reason: ClauseRef) {
        debug_assert_eq!(self.vals[l.index()], LBool::Undef);
        self.vals[l.index()] = LBool::True;
        self.vals[(!l).index()] = LBool::False;
        let v = l.var().index();
        self.level[v] = self.trail_lim.len() as u32;
        self.reason[v] = reason;
        self.trail.push(l);
    }

    /// Opens a new decision level (the caller notifies the theory).
    #[inline]
    pub(crate) fn new_decision_level(&mut self) {
        self.trail_lim.push(self.trail.len());
    }

    /// Undoes all assignments above `level` (MiniSat's `cancelUntil`), saving phases and
    /// returning the variables to the decision heap. Does not notify the theory.
    pub(crate) fn backtrack_to(&mut self, level: usize) {
        if self.decision_level() <= level {
            return;
        }
        let lim = self.trail_lim[level];
        for i in (lim..self.trail.len()).rev() {
            let l = self.trail[i];
            let v = l.var();
            self.vals[l.index()] = LBool::Undef;
            self.vals[(!l).index()] = LBool::Undef;
            self.reason[v.index()] = ClauseRef::NONE;
            self.order.phase[v.index()] = !l.is_neg();
            self.order.reinsert(v);
        }
        self.trail.truncate(lim);
        self.trail_lim.truncate(level);
        self.qhead = lim;
        self.theory_head = self.theory_head.min(lim);
        self.restore_skipped(level);
    }
}

#[cfg(test)]
mod tests {
    use crate::lit::{LBool, Var};
    use crate::solver::Solver;

    #[test]
    fn backtrack_restores_and_saves_phase() {
        let mut s = Solver::new();
        let a = s.new_var();
        let b = s.new_var();
        s.new_decision_level();
        s.enqueue(a.positive(), crate::clause::ClauseRef::NONE);
        s.new_decision_level();
        s.enqueue(b.negative(), crate::clause::ClauseRef::NONE);
        assert_eq!(s.decision_level(), 2);
        assert_eq!(s.lit_value(b.positive()), LBool::False);
        assert_eq!(s.level[b.index()], 2);
        s.backtrack_to(1);
        assert_eq!(s.lit_value(b.positive()), LBool::Undef);
        assert_eq!(s.lit_value(a.positive()), LBool::True);
        assert!(!s.order.phase[b.index()]);
        s.backtrack_to(0);
        assert!(s.order.phase[a.index()]);
        assert!(s.trail.is_empty() && s.qhead == 0);
        assert!(s.order.heap.contains(Var(0).0));
    }
}
