//! Integrating clauses that arrive from a theory in the middle of the search.
//!
//! Theory output (lemmas, propagation reasons, conflicts) is a set of valid clauses that may be
//! in any state with respect to the current partial assignment: satisfied, open, unit at some
//! level `L`, or falsified with highest level `L`. [`Solver::process_theory_out`] repeatedly
//! backtracks to the lowest level at which one of them is unit or falsified, so that after it
//! returns:
//! - every falsified clause has been reported as the conflict to analyze, at its own level;
//! - every clause that is unit at the current level has its literal enqueued with the clause as
//!   reason (literal 0 is the implied literal, literal 1 the highest-level false literal);
//! - every lemma is stored permanently and watched by its two "best" literals (non-false first,
//!   then false ones by decreasing level), which keeps the watch invariant under backtracking.
//!
//! Propagation reasons are stored as deletable learnt clauses; conflicts are analyzed from a
//! buffer and not stored (the learnt clause subsumes their use).

use crate::analyze::Conflict;
use crate::clause::ClauseRef;
use crate::lit::{LBool, Lit};
use crate::solver::Solver;
use crate::theory::{Theory, TheoryOut};

/// State of a clause under the current partial assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// Some literal is true (and, for a unit clause, at level 0).
    Satisfied,
    /// At least two literals are unassigned (or true-above-level-0 for long clauses).
    Open,
    /// Exactly one non-false literal, which is unassigned; the level is the highest level among
    /// the false literals. A single-literal clause is unit at level 0 unless fixed at level 0.
    Unit(usize),
    /// All literals false; the level is the highest among them.
    Falsified(usize),
}

struct Item {
    lits: Vec<Lit>,
    permanent: bool,
    stored: bool,
}

impl Solver {
    fn status(&self, lits: &[Lit]) -> Status {
        if lits.len() == 1 {
            let l = lits[0];
            let lv = self.level[l.var().index()] as usize;
            return match self.lit_value(l) {
                LBool::True if lv == 0 => Status::Satisfied,
                LBool::False if lv == 0 => Status::Falsified(0),
                _ => Status::Unit(0),
            };
        }
        let mut non_false = 0;
        let mut max_false = 0;
        for &l in lits {
            match self.lit_value(l) {
                LBool::True => return Status::Satisfied,
                LBool::Undef => non_false += 1,
                LBool::False => max_false = max_false.max(self.level[l.var().index()] as usize),
            }
        }
        match non_false {
            0 => Status::Falsified(max_false),
            1 => Status::Unit(max_false),
            _ => Status::Open,
        }
    }

    /// Sorts, removes duplicates and level-0-false literals; `None` if tautological or
    /// satisfied at level 0.
    fn normalize(&self, mut lits: Vec<Lit>) -> Option<Vec<Lit>> {
        lits.sort_unstable();
        lits.dedup();
        for w in lits.windows(2) {
            if w[0] == !w[1] {
                return None;
            }
        }
        let fixed = |l: Lit| self.level[l.var().index()] == 0;
        if lits
            .iter()
            .any(|&l| self.lit_value(l) == LBool::True && fixed(l))
        {
            return None;
        }
        lits.retain(|&l| !(self.lit_value(l) == LBool::False && fixed(l)));
        Some(lits)
    }

    /// Orders `lits` for watching: true, then unassigned, then false by decreasing level.
    fn order_for_watching(&self, lits: &mut [Lit]) {
        lits.sort_by_key(|&l| match self.lit_value(l) {
            LBool::True => (0, 0),
            LBool::Undef => (1, 0),
            LBool::False => (2, u32::MAX - self.level[l.var().index()]),
        });
    }

    /// Stores a clause of at least two literals (ordered for watching) and watches it.
    fn store(&mut self, lits: &mut [Lit], permanent: bool) -> ClauseRef {
        self.order_for_watching(lits);
        let lbd = if permanent { 0 } else { self.compute_lbd(lits) };
        let cr = self.db.alloc(lits, !permanent, lbd);
        self.watches.attach(cr, lits[0], lits[1], lits.len());
        cr
    }

    /// Integrates a theory's output; returns a conflict to analyze (its highest level is the
    /// current level; a level-0 conflict means unsatisfiable).
    pub(crate) fn process_theory_out<T: Theory>(
        &mut self,
        theory: &mut T,
        mut out: TheoryOut,
    ) -> Option<Conflict> {
        let mut max_var = out.next_var as usize;
        for c in out
            .lemmas
            .iter()
            .chain(&out.propagations)
            .chain(&out.conflicts)
        {
            for l in c {
                max_var = max_var.max(l.var().index() + 1);
            }
        }
        self.ensure_vars(max_var);
        self.stats.theory_lemmas += out.lemmas.len() as u64;
        self.stats.theory_propagations += out.propagations.len() as u64;
        self.stats.theory_conflicts += out.conflicts.len() as u64;

        let mut items = Vec::new();
        let lists = [
            (std::mem::take(&mut out.lemmas), true),
            (std::mem::take(&mut out.propagations), false),
            (std::mem::take(&mut out.conflicts), false),
        ];
        self.theory_out = out;
        for (list, permanent) in lists {
            for c in list {
                let Some(lits) = self.normalize(c) else {
                    continue;
                };
                if lits.is_empty() {
                    self.cancel(theory, 0);
                    self.scratch.conflict_lits.clear();
                    return Some(Conflict::Lits);
                }
                items.push(Item {
                    lits,
                    permanent,
                    stored: false,
                });
            }
        }

        // Backtrack to the lowest level where some item is unit or falsified.
        loop {
            let cur = self.decision_level();
            let lowest = items
                .iter()
                .filter_map(|it| match self.status(&it.lits) {
                    Status::Unit(l) | Status::Falsified(l) if l < cur => Some(l),
                    _ => None,
                })
                .min();
            match lowest {
                Some(l) => self.cancel(theory, l),
                None => break,
            }
        }

        let mut result = None;
        // Conflicts take priority over propagations at the current level.
        if let Some(i) = items
            .iter()
            .position(|it| matches!(self.status(&it.lits), Status::Falsified(_)))
        {
            result = Some(self.conflict_from_item(&mut items[i]));
        } else {
            for it in items.iter_mut() {
                match self.status(&it.lits) {
                    Status::Falsified(_) => {
                        // Made false by an earlier enqueue in this loop.
                        result = Some(self.conflict_from_item(it));
                        break;
                    }
                    Status::Unit(_) => {
                        if it.lits.len() == 1 {
                            debug_assert_eq!(self.decision_level(), 0);
                            self.enqueue(it.lits[0], ClauseRef::NONE);
                        } else {
                            let cr = self.store(&mut it.lits, it.permanent);
                            it.stored = true;
                            self.enqueue(it.lits[0], cr);
                        }
                    }
                    Status::Satisfied | Status::Open => {}
                }
            }
        }
        for it in items.iter_mut() {
            if it.permanent && !it.stored && it.lits.len() >= 2 {
                self.store(&mut it.lits, true);
            }
        }
        result
    }

    fn conflict_from_item(&mut self, it: &mut Item) -> Conflict {
        if it.permanent && it.lits.len() >= 2 {
            it.stored = true;
            Conflict::Clause(self.store(&mut it.lits, true))
        } else {
            self.scratch.conflict_lits.clear();
            self.scratch.conflict_lits.extend_from_slice(&it.lits);
            Conflict::Lits
        }
    }
}
