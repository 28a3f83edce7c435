//! The CDCL(T) search loop: propagate (Boolean, then theory) to a fixpoint, learn from
//! conflicts, restart, reduce, and decide (assumptions first, then VSIDS).
//!
//! # Postconditions of [`Solver::solve_limited`]
//! - `Sat`: `model` is a complete assignment satisfying every clause and accepted by the
//!   theory's `final_check`;
//! - `Unsat`: either `ok == false` (the clauses are unsatisfiable, `failed` is empty) or
//!   `failed` is a subset of the assumptions that is unsatisfiable with the clauses;
//! - `Unknown`: a limit was hit (or the theory made no progress in `final_check`).
//!
//! In all cases the solver is back at level 0 and the theory has been popped to its base level.

use cove_control::Control;

use crate::analyze::Conflict;
use crate::clause::ClauseRef;
use crate::lit::{LBool, Lit};
use crate::solver::Solver;
use crate::theory::{NoTheory, Theory};

/// Outcome of a solve call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolveResult {
    /// A model was found (see [`Solver::value`] and [`Solver::model`]).
    Sat,
    /// No model exists (under the assumptions, see [`Solver::failed_assumptions`]).
    Unsat,
    /// A resource limit was reached or the search was interrupted.
    Unknown,
}

/// How many propagated literals the search lets pass between two polls of the limits when
/// it makes decisions without conflicts (about a millisecond of propagation).
const PROPAGATIONS_PER_POLL: u64 = 1 << 16;

/// Limits for one solve call: the run's [`Control`] (deadline, memory, interruption), polled
/// during the search, and a conflict budget of this call. The default has no limits.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum number of conflicts in this call.
    pub conflicts: Option<u64>,
    /// The run's control.
    pub control: Control,
}

impl Limits {
    /// Limits that only follow `control`.
    pub fn of(control: &Control) -> Limits {
        Limits {
            conflicts: None,
            control: control.clone(),
        }
    }

    fn stopped(&self) -> bool {
        self.control.should_stop().is_some()
    }
}

impl Solver {
    /// Solves under `assumptions` without theory or limits.
    pub fn solve(&mut self, assumptions: &[Lit]) -> SolveResult {
        self.solve_limited(assumptions, &mut NoTheory, &Limits::default())
    }

    /// Solves under `assumptions` with a theory and resource limits.
    pub fn solve_limited<T: Theory>(
        &mut self,
        assumptions: &[Lit],
        theory: &mut T,
        limits: &Limits,
    ) -> SolveResult {
        self.model.clear();
        self.failed.clear();
        self.stats.solves += 1;
        // Every call draws one unit, so engines that make many cheap calls exhaust a work
        // budget too (cove_control::WorkBudget).
        limits.control.charge(1);
        if !self.ok {
            return SolveResult::Unsat;
        }
        if let Some(m) = assumptions.iter().map(|l| l.var().index() + 1).max() {
            self.ensure_vars(m);
        }
        // Like MiniSat, size the learnt clause bound for the current problem at every call.
        self.max_learnts = (self.db.originals.len() as f64 * self.config.learnts_factor)
            .max(self.config.min_learnts);
        self.adjust_interval = 100.0;
        self.adjust_countdown = 100;
        let res = self.search(assumptions, theory, limits);
        if res == SolveResult::Sat {
            debug_assert_eq!(self.check_invariants(), Ok(()));
            self.model = (0..self.num_vars()).map(|v| self.vals[2 * v]).collect();
        }
        self.cancel(theory, 0);
        res
    }

    /// Backtracks to `level`, telling the theory how many levels were undone.
    pub(crate) fn cancel<T: Theory>(&mut self, theory: &mut T, level: usize) {
        let d = self.decision_level();
        if d > level {
            theory.pop(d - level);
            self.backtrack_to(level);
        }
    }

    /// Opens a decision level and tells the theory.
    fn open_level<T: Theory>(&mut self, theory: &mut T) {
        self.new_decision_level();
        theory.push();
    }

    fn search<T: Theory>(
        &mut self,
        assumptions: &[Lit],
        theory: &mut T,
        limits: &Limits,
    ) -> SolveResult {
        let start = self.stats.conflicts;
        let mut pending: Option<Conflict> = None;
        let mut decisions_since_check = 0u32;
        // Propagation is polled too: on a large formula a few hundred decisions without a
        // conflict can each propagate most of it, and the deadline must hold between them.
        let mut props_at_check = self.stats.propagations;
        loop {
            let confl = match pending.take() {
                Some(c) => Some(c),
                None => self.propagate_all(theory),
            };
            if self.theory_gave_up {
                self.theory_gave_up = false;
                return SolveResult::Unknown;
            }
            if let Some(c) = confl {
                self.stats.conflicts += 1;
                if !self.learn(theory, c) {
                    self.ok = false;
                    return SolveResult::Unsat;
                }
                if self.limit_hit(limits, start) {
                    return SolveResult::Unknown;
                }
                continue;
            }
            if self.restarts.should_restart() {
                self.restarts.restarted();
                self.stats.restarts += 1;
                self.cancel(theory, 0);
            }
            if self.decision_level() == 0
                && self.trail.len() > self.simp_trail_len
                && (!self.config.lazy_simplify
                    || self.stats.propagations >= self.simp_props + self.db.arena_len() as u64)
            {
                self.remove_satisfied();
            }
            if self.db.learnts.len() as f64 - self.trail.len() as f64
                >= self.max_learnts + self.protected_learnts as f64
            {
                self.reduce_db();
                debug_assert_eq!(self.check_invariants(), Ok(()));
            }
            decisions_since_check += 1;
            if decisions_since_check >= 1024
                || self.stats.propagations - props_at_check >= PROPAGATIONS_PER_POLL
            {
                decisions_since_check = 0;
                props_at_check = self.stats.propagations;
                limits.control.charge(1);
                if limits.stopped() {
                    return SolveResult::Unknown;
                }
            }
            // Assumptions first, one decision level each (MiniSat).
            let mut next = None;
            while self.decision_level() < assumptions.len() {
                let p = assumptions[self.decision_level()];
                match self.lit_value(p) {
                    LBool::True => self.open_level(theory),
                    LBool::False => {
                        self.analyze_final(p);
                        return SolveResult::Unsat;
                    }
                    LBool::Undef => {
                        next = Some(p);
                        break;
                    }
                }
            }
            let next = match next {
                Some(p) => p,
                None => match self.pick_branch_lit() {
                    Some(p) => match theory.decision_phase(p.var()) {
                        Some(positive) => Lit::new(p.var(), !positive),
                        None => p,
                    },
                    None => {
                        // Complete assignment, seen fully by the theory.
                        self.stats.final_checks += 1;
                        limits.control.charge(1);
                        if limits.stopped() {
                            return SolveResult::Unknown;
                        }
                        let mut out = std::mem::take(&mut self.theory_out);
                        out.reset(self.num_vars());
                        theory.final_check(&mut out);
                        if out.gave_up {
                            self.theory_out = out;
                            return SolveResult::Unknown;
                        }
                        if out.is_empty() {
                            self.theory_out = out;
                            return SolveResult::Sat;
                        }
                        let before = (self.trail.len(), self.decision_level(), self.num_vars());
                        pending = self.process_theory_out(theory, out);
                        let after = (self.trail.len(), self.decision_level(), self.num_vars());
                        if pending.is_none() && before == after {
                            // The theory rejected the assignment without saying why.
                            return SolveResult::Unknown;
                        }
                        continue;
                    }
                },
            };
            self.stats.decisions += 1;
            self.open_level(theory);
            self.enqueue(next, ClauseRef::NONE);
        }
    }

    /// Unit propagation followed by theory propagation, until neither has anything new.
    fn propagate_all<T: Theory>(&mut self, theory: &mut T) -> Option<Conflict> {
        loop {
            if let Some(cr) = self.propagate() {
                return Some(Conflict::Clause(cr));
            }
            if self.theory_head >= self.trail.len() {
                return None;
            }
            let mut out = std::mem::take(&mut self.theory_out);
            out.reset(self.num_vars());
            let from = self.theory_head;
            self.theory_head = self.trail.len();
            theory.propagate(&self.trail[from..], &mut out);
            if out.gave_up {
                self.theory_out = out;
                self.theory_gave_up = true;
                return None;
            }
            if out.is_empty() {
                self.theory_out = out;
                return None;
            }
            if let Some(c) = self.process_theory_out(theory, out) {
                return Some(c);
            }
        }
    }

    /// Analyzes a conflict, backjumps and asserts the learnt clause.
    /// Returns `false` when the conflict is at level 0 (the clause set is unsatisfiable).
    fn learn<T: Theory>(&mut self, theory: &mut T, confl: Conflict) -> bool {
        // Make sure the conflict has a literal at the current level.
        let max_level = match confl {
            Conflict::Clause(c) => (0..self.db.len(c))
                .map(|k| self.level[self.db.lit(c, k).var().index()])
                .max(),
            Conflict::Lits => self
                .scratch
                .conflict_lits
                .iter()
                .map(|l| self.level[l.var().index()])
                .max(),
        }
        .unwrap_or(0) as usize;
        if max_level == 0 {
            return false;
        }
        self.cancel(theory, max_level);
        let (bt, lbd) = self.analyze(confl);
        self.cancel(theory, bt);
        let learnt = std::mem::take(&mut self.scratch.learnt);
        if learnt.len() == 1 {
            self.stats.learnt_units += 1;
            self.enqueue(learnt[0], ClauseRef::NONE);
        } else {
            let cr = self.db.alloc(&learnt, true, lbd);
            self.watches.attach(cr, learnt[0], learnt[1], learnt.len());
            self.db.set_activity(cr, self.cla_inc);
            self.enqueue(learnt[0], cr);
        }
        self.scratch.learnt = learnt;
        self.order.decay();
        self.cla_inc /= self.config.clause_decay as f32;
        self.restarts.on_conflict(lbd);
        self.adjust_countdown -= 1;
        if self.adjust_countdown == 0 {
            self.adjust_interval *= 1.5;
            self.adjust_countdown = self.adjust_interval as u64;
            self.max_learnts *= self.config.learnts_inc;
        }
        true
    }

    fn limit_hit(&self, limits: &Limits, start: u64) -> bool {
        limits.control.charge(1);
        if limits
            .conflicts
            .is_some_and(|n| self.stats.conflicts - start >= n)
        {
            return true;
        }
        if limits.control.interrupt.is_set() {
            return true;
        }
        self.stats.conflicts.is_multiple_of(16) && limits.stopped()
    }
}
