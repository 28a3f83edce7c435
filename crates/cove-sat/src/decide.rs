//! Branching: VSIDS activities in a binary heap, plus phase saving.
//!
//! Variables involved in conflict analysis are bumped by `var_inc`, and `var_inc` grows by
//! `1 / decay` after each conflict, which is an exponential decay of older bumps (Moskewicz et
//! al., "Chaff", DAC 2001; MiniSat's EVSIDS). Activities are rescaled by 1e-100 when they exceed
//! 1e100.
//!
//! Invariant: every unassigned variable is in the heap (assigned variables may linger and are
//! skipped lazily by [`Solver::pick_branch_lit`]). The saved phase of a variable is the value it
//! had when it was last unassigned, or the user's hint from `set_phase`.

use crate::heap::VarHeap;
use crate::lit::{LBool, Lit, Var};
use crate::solver::Solver;

/// VSIDS state and saved phases.
#[derive(Debug, Clone)]
pub(crate) struct VarOrder {
    pub(crate) activity: Vec<f64>,
    pub(crate) heap: VarHeap,
    /// Saved polarity: `true` means the positive literal is tried first.
    pub(crate) phase: Vec<bool>,
    /// Per variable: whether the search may branch on it (see [`Solver::set_decision_var`]).
    pub(crate) decision: Vec<bool>,
    var_inc: f64,
    decay: f64,
}

impl VarOrder {
    /// An empty order with the given decay factor (e.g. 0.95).
    pub(crate) fn new(decay: f64) -> VarOrder {
        VarOrder {
            activity: Vec::new(),
            heap: VarHeap::default(),
            phase: Vec::new(),
            decision: Vec::new(),
            var_inc: 1.0,
            decay,
        }
    }

    /// Registers a new variable (activity 0, negative phase) and makes it decidable.
    pub(crate) fn add_var(&mut self, v: Var) {
        debug_assert_eq!(v.index(), self.activity.len());
        self.activity.push(0.0);
        self.phase.push(false);
        self.decision.push(true);
        self.heap.grow_to(self.activity.len());
        self.heap.insert(v.0, &self.activity);
    }

    /// Puts `v` back into the heap (after it became unassigned).
    #[inline]
    pub(crate) fn reinsert(&mut self, v: Var) {
        if self.decision[v.index()] {
            self.heap.insert(v.0, &self.activity);
        }
    }

    /// Bumps the activity of `v`.
    #[inline]
    pub(crate) fn bump(&mut self, v: Var) {
        let a = &mut self.activity[v.index()];
        *a += self.var_inc;
        if *a > 1e100 {
            for x in &mut self.activity {
                *x *= 1e-100;
            }
            self.var_inc *= 1e-100;
        }
        self.heap.increased(v.0, &self.activity);
    }

    /// Decays all activities (by growing the increment).
    #[inline]
    pub(crate) fn decay(&mut self) {
        self.var_inc /= self.decay;
    }
}

impl Solver {
    /// Whether the search may branch on `v` (default: yes). Like MiniSat's
    /// `setDecisionVar`: a client that excludes variables must make sure unit propagation
    /// assigns them once the decision variables are assigned (e.g. Tseitin variables of a
    /// circuit whose inputs are decision variables); otherwise a `Sat` model leaves them
    /// `Undef`. Branching only on a circuit's inputs and state makes the many small queries
    /// of IC3 much cheaper.
    pub fn set_decision_var(&mut self, v: Var, decision: bool) {
        self.ensure_vars(v.index() + 1);
        self.order.decision[v.index()] = decision;
        if decision && self.vals[v.positive().index()] == LBool::Undef {
            self.order.reinsert(v);
        }
    }

    /// Picks the unassigned variable of highest activity with its saved phase, or `None` when
    /// every relevant variable is assigned (see [`crate::guard`]).
    pub(crate) fn pick_branch_lit(&mut self) -> Option<Lit> {
        loop {
            let Some(v) = self.order.heap.pop(&self.order.activity) else {
                if self.revive_skipped() {
                    continue;
                }
                return None;
            };
            let v = Var(v);
            if self.vals[v.positive().index()] == LBool::Undef && self.order.decision[v.index()] {
                if !self.relevant(v) {
                    let level = self.decision_level() as u32;
                    self.guards.skipped.push((v, level));
                    continue;
                }
                return Some(Lit::new(v, !self.order.phase[v.index()]));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bumped_variable_is_picked_first_with_saved_phase() {
        let mut s = Solver::new();
        let vs: Vec<Var> = (0..5).map(|_| s.new_var()).collect();
        s.order.bump(vs[3]);
        s.order.decay();
        s.order.bump(vs[1]);
        s.set_phase(vs[1], true);
        assert_eq!(s.pick_branch_lit(), Some(vs[1].positive()));
        assert_eq!(s.pick_branch_lit(), Some(vs[3].negative()));
        assert!(s.order.heap.is_valid(&s.order.activity));
    }

    #[test]
    fn non_decision_variables_are_propagated_not_decided() {
        // y = x1 ∧ x2 (Tseitin); branching only on x1, x2 still gives complete models.
        let mut s = Solver::new();
        let x1 = Lit::new(s.new_var(), false);
        let x2 = Lit::new(s.new_var(), false);
        let y = Lit::new(s.new_var(), false);
        s.add_clause(&[!y, x1]);
        s.add_clause(&[!y, x2]);
        s.add_clause(&[y, !x1, !x2]);
        s.set_decision_var(y.var(), false);
        for a in [vec![], vec![y], vec![!y], vec![x1, x2]] {
            assert_eq!(s.solve(&a), crate::SolveResult::Sat);
            assert_ne!(s.value(y), LBool::Undef);
            let expect = s.value(x1) == LBool::True && s.value(x2) == LBool::True;
            assert_eq!(s.value(y) == LBool::True, expect);
        }
        s.set_decision_var(y.var(), true);
        assert_eq!(s.solve(&[y]), crate::SolveResult::Sat);
    }

    #[test]
    fn rescaling_keeps_order() {
        let mut o = VarOrder::new(0.5);
        for i in 0..3 {
            o.add_var(Var(i));
        }
        for _ in 0..400 {
            o.bump(Var(2));
            o.decay();
        }
        for _ in 0..3 {
            o.decay();
        }
        o.bump(Var(0));
        assert!(o.activity.iter().all(|a| a.is_finite()));
        assert!(o.activity[0] > o.activity[2]);
        assert_eq!(o.heap.pop(&o.activity), Some(0));
    }
}
