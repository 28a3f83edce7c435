//! Guarded variables: decisions only where they can matter.
//!
//! A client that asserts `g → body` can declare the variables of `body` *guarded* by
//! `g`. Such a variable is decided only while one of its guards is on (all its literals
//! true); otherwise it stays unassigned and a theory never sees its atom. This is the
//! cheap core of relevancy (Z3's `smt_relevancy`) for the shape of CHC queries, where one
//! predicate's solver holds every rule and each check uses one of them, and where the
//! literals of earlier checks' assumptions would otherwise be decided in every later check.
//!
//! Invariant: an unassigned variable is in the decision heap or in `skipped`, tagged with
//! the decision level at which it was skipped; backtracking below that level, or the heap
//! running empty while its guard has come on, puts it back. At `Sat` every unassigned
//! variable is irrelevant. Whether that is *sound* is the client's contract: it must not
//! need values of variables none of whose guards is on.

use crate::lit::{LBool, Lit, Var};
use crate::solver::Solver;

/// Guard conditions and the variables waiting for theirs to change.
#[derive(Debug, Clone, Default)]
pub(crate) struct Guards {
    /// Guard id -> literals; the guard is *on* when all of them are true.
    lits: Vec<Vec<Lit>>,
    /// Per variable: the guards of its uses; empty = unguarded (always relevant).
    pub(crate) of_var: Vec<Vec<u32>>,
    /// Skipped variables with the decision level at which they were skipped.
    pub(crate) skipped: Vec<(Var, u32)>,
}

/// Identifier of a guard registered with [`Solver::add_guard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GuardId(u32);

impl Solver {
    /// Registers a guard: the conjunction of `lits`.
    pub fn add_guard(&mut self, lits: &[Lit]) -> GuardId {
        self.guards.lits.push(lits.to_vec());
        GuardId(self.guards.lits.len() as u32 - 1)
    }

    /// Whether `v` is guarded (decided only while one of its guards is on).
    pub fn is_guarded(&self, v: Var) -> bool {
        !self.guards.of_var[v.index()].is_empty()
    }

    /// Makes a new variable `v` guarded by `g` alone.
    pub fn guard_new_var(&mut self, v: Var, g: GuardId) {
        self.guards.of_var[v.index()] = vec![g.0];
    }

    /// Records a use of `v` under `g` (a guarded variable is relevant when any of its
    /// guards is on); no effect on an unguarded variable.
    pub fn add_var_guard(&mut self, v: Var, g: GuardId) {
        let gs = &mut self.guards.of_var[v.index()];
        if !gs.is_empty() && !gs.contains(&g.0) {
            gs.push(g.0);
        }
    }

    /// Records an unguarded use of `v`: it is decided from now on.
    pub fn unguard_var(&mut self, v: Var) {
        if self.guards.of_var[v.index()].is_empty() {
            return;
        }
        self.guards.of_var[v.index()].clear();
        if self.vals[v.positive().index()] == LBool::Undef {
            self.order.reinsert(v);
        }
    }

    /// Whether `v` must be decided under the current assignment: unguarded, or one of
    /// its guards is on.
    #[inline]
    pub(crate) fn relevant(&self, v: Var) -> bool {
        let gs = &self.guards.of_var[v.index()];
        gs.is_empty()
            || gs.iter().any(|&g| {
                self.guards.lits[g as usize]
                    .iter()
                    .all(|&l| self.vals[l.index()] == LBool::True)
            })
    }

    /// After backtracking to `level`: variables skipped above it are candidates again.
    pub(crate) fn restore_skipped(&mut self, level: usize) {
        while let Some(&(v, l)) = self.guards.skipped.last() {
            if (l as usize) <= level {
                break;
            }
            self.guards.skipped.pop();
            if self.vals[v.positive().index()] == LBool::Undef {
                self.order.reinsert(v);
            }
        }
    }

    /// When the heap is empty: skipped variables whose guard has come on since go back
    /// to the heap. Returns whether any did.
    pub(crate) fn revive_skipped(&mut self) -> bool {
        let mut skipped = std::mem::take(&mut self.guards.skipped);
        let mut any = false;
        skipped.retain(|&(v, _)| {
            if self.vals[v.positive().index()] != LBool::Undef {
                return false;
            }
            if self.relevant(v) {
                self.order.reinsert(v);
                any = true;
                return false;
            }
            true
        });
        self.guards.skipped = skipped;
        any
    }
}

#[cfg(test)]
mod tests {
    use crate::{LBool, Lit, SolveResult, Solver};

    #[test]
    fn guarded_variables_are_not_decided_while_the_guard_is_false() {
        let mut s = Solver::new();
        let g = s.new_var();
        let xs: Vec<_> = (0..5).map(|_| s.new_var()).collect();
        let id = s.add_guard(&[Lit::new(g, false)]);
        for &x in &xs {
            s.guard_new_var(x, id);
            // g → x ∨ ¬x (a clause mentioning x under the guard).
            s.add_clause(&[Lit::new(g, true), Lit::new(x, false), Lit::new(x, true)]);
        }
        assert_eq!(s.solve(&[Lit::new(g, true)]), SolveResult::Sat);
        assert!(
            xs.iter()
                .all(|&x| s.value(Lit::new(x, false)) == LBool::Undef)
        );
        // Guard on: everything is decided again.
        assert_eq!(s.solve(&[Lit::new(g, false)]), SolveResult::Sat);
        assert!(
            xs.iter()
                .all(|&x| s.value(Lit::new(x, false)) != LBool::Undef)
        );
        // An unguarded use: decided even with g false.
        s.unguard_var(xs[0]);
        assert_eq!(s.solve(&[Lit::new(g, true)]), SolveResult::Sat);
        assert_ne!(s.value(Lit::new(xs[0], false)), LBool::Undef);
        assert_eq!(s.value(Lit::new(xs[1], false)), LBool::Undef);
    }
}
