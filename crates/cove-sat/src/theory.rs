//! CDCL(T) hooks: the [`Theory`] trait and the [`TheoryOut`] buffer a theory writes into.
//!
//! Protocol (what the solver guarantees to a theory):
//! - `push()` is called whenever the solver opens a decision level and `pop(n)` when it undoes
//!   `n` levels (restarts and the end of a solve included). Level-0 facts are never popped.
//! - After unit propagation reaches a fixpoint, `propagate(new_lits, out)` receives every literal
//!   appended to the trail since the previous call (after a backtrack, that is the suffix
//!   above the backtrack point that is new). Unknown literals must be ignored.
//! - `final_check(out)` is called on a complete Boolean assignment all of whose literals the
//!   theory has already received. Emitting nothing there means the assignment is accepted and
//!   the solver answers `Sat`.
//!
//! A theory that cannot finish a callback within the run's limits calls
//! [`TheoryOut::give_up`]: the solver then answers `Unknown` (never `Sat`) without reading
//! anything else from that callback.
//!
//! Everything a theory emits is a clause that must be valid in the theory (a consequence of
//! the theory axioms and the clauses); the solver relies on nothing else for soundness.
//! Conflicts and propagation reasons may be dropped once no longer needed; lemmas are kept
//! forever. Clauses that turn out not to be in the claimed state (e.g. a "conflict" with a
//! non-false literal) are still treated correctly as ordinary clauses.
//!
//! A lazy theory that only checks complete assignments:
//!
//! ```
//! use cove_sat::{Limits, Lit, SolveResult, Solver, Theory, TheoryOut};
//!
//! /// "Not both `a` and `b`", explained only when violated by a complete assignment.
//! struct NotBoth { a: Lit, b: Lit, seen: Vec<Lit>, marks: Vec<usize> }
//! impl Theory for NotBoth {
//!     fn push(&mut self) { self.marks.push(self.seen.len()); }
//!     fn pop(&mut self, n: usize) {
//!         let m = self.marks[self.marks.len() - n];
//!         self.marks.truncate(self.marks.len() - n);
//!         self.seen.truncate(m);
//!     }
//!     fn propagate(&mut self, new_lits: &[Lit], _out: &mut TheoryOut) {
//!         self.seen.extend(new_lits.iter().filter(|&&l| l == self.a || l == self.b));
//!     }
//!     fn final_check(&mut self, out: &mut TheoryOut) {
//!         if self.seen.contains(&self.a) && self.seen.contains(&self.b) {
//!             out.conflict(vec![!self.a, !self.b]);
//!         }
//!     }
//! }
//!
//! let mut s = Solver::new();
//! let (a, b) = (Lit::new(s.new_var(), false), Lit::new(s.new_var(), false));
//! s.add_clause(&[a, b]);
//! s.set_phase(b.var(), true); // try b = true first, which the theory rejects
//! let mut th = NotBoth { a, b, seen: Vec::new(), marks: Vec::new() };
//! assert_eq!(s.solve_limited(&[a], &mut th, &Limits::default()), SolveResult::Sat);
//! assert_eq!(s.value(b), cove_sat::LBool::False);
//! assert_eq!(s.stats().theory_conflicts, 1);
//! assert_eq!(s.solve_limited(&[a, b], &mut th, &Limits::default()), SolveResult::Unsat);
//! ```

use crate::lit::{Lit, Var};

/// A theory plugged into the CDCL search. See the module docs for the call protocol.
pub trait Theory {
    /// A decision level was opened.
    fn push(&mut self);
    /// `n` decision levels were undone.
    fn pop(&mut self, n: usize);
    /// New trail literals since the last call; report consequences into `out`.
    fn propagate(&mut self, new_lits: &[Lit], out: &mut TheoryOut);
    /// The Boolean assignment is complete; report conflicts or lemmas, or nothing to accept.
    fn final_check(&mut self, out: &mut TheoryOut);
    /// The polarity the theory prefers when the search decides `v` (`Some(true)`: the
    /// positive literal), or `None` to use the saved phase. A theory typically answers for
    /// its atoms with the value the atom has in its current model, so that decisions agree
    /// with the theory state instead of contradicting it.
    fn decision_phase(&self, _v: Var) -> Option<bool> {
        None
    }
}

/// The empty theory: plain SAT.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTheory;

impl Theory for NoTheory {
    #[inline]
    fn push(&mut self) {}
    #[inline]
    fn pop(&mut self, _n: usize) {}
    #[inline]
    fn propagate(&mut self, _new_lits: &[Lit], _out: &mut TheoryOut) {}
    #[inline]
    fn final_check(&mut self, _out: &mut TheoryOut) {}
}

/// What a theory callback reports back to the solver.
#[derive(Debug, Default)]
pub struct TheoryOut {
    pub(crate) conflicts: Vec<Vec<Lit>>,
    pub(crate) propagations: Vec<Vec<Lit>>,
    pub(crate) lemmas: Vec<Vec<Lit>>,
    pub(crate) next_var: u32,
    pub(crate) gave_up: bool,
}

impl TheoryOut {
    /// Prepares the buffer for a callback on a solver with `num_vars` variables.
    pub(crate) fn reset(&mut self, num_vars: usize) {
        self.conflicts.clear();
        self.propagations.clear();
        self.lemmas.clear();
        self.next_var = num_vars as u32;
        self.gave_up = false;
    }

    /// Whether nothing was reported.
    pub fn is_empty(&self) -> bool {
        self.conflicts.is_empty() && self.propagations.is_empty() && self.lemmas.is_empty()
    }

    /// Reports a theory conflict: a valid clause whose literals are all false now.
    pub fn conflict(&mut self, clause: Vec<Lit>) {
        self.conflicts.push(clause);
    }

    /// Reports that `lit` is implied; `reason` is a valid clause with `lit` first and all other
    /// literals false now. (If `reason` does not start with `lit`, `lit` is put first.)
    pub fn propagate(&mut self, lit: Lit, mut reason: Vec<Lit>) {
        match reason.iter().position(|&l| l == lit) {
            Some(0) => {}
            Some(i) => reason.swap(0, i),
            None => reason.insert(0, lit),
        }
        self.propagations.push(reason);
    }

    /// Adds a permanent clause (may be non-conflicting and may use fresh variables).
    pub fn lemma(&mut self, clause: Vec<Lit>) {
        self.lemmas.push(clause);
    }

    /// The theory could not finish this callback (a limit was hit): the solve ends with
    /// `Unknown`. Whatever else was reported in the callback is dropped.
    pub fn give_up(&mut self) {
        self.gave_up = true;
    }

    /// A fresh variable usable in lemmas; the solver creates it after the callback returns.
    pub fn new_var(&mut self) -> Var {
        let v = Var(self.next_var);
        self.next_var += 1;
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn propagate_puts_literal_first_and_new_vars_are_fresh() {
        let mut out = TheoryOut::default();
        out.reset(5);
        assert!(out.is_empty());
        let a = Lit::from_dimacs(1);
        let b = Lit::from_dimacs(-2);
        out.propagate(a, vec![b, a]);
        out.propagate(b, vec![!a]);
        assert_eq!(out.propagations[0], vec![a, b]);
        assert_eq!(out.propagations[1], vec![b, !a]);
        assert_eq!(out.new_var(), Var(5));
        assert_eq!(out.new_var(), Var(6));
        assert!(!out.is_empty());
        out.reset(7);
        assert!(out.is_empty());
        assert_eq!(out.new_var(), Var(7));
    }

    /// A theory that prefers the positive literal of even variables.
    struct EvenTrue;

    impl Theory for EvenTrue {
        fn push(&mut self) {}
        fn pop(&mut self, _n: usize) {}
        fn propagate(&mut self, _new_lits: &[Lit], _out: &mut TheoryOut) {}
        fn final_check(&mut self, _out: &mut TheoryOut) {}
        fn decision_phase(&self, v: Var) -> Option<bool> {
            v.index().is_multiple_of(2).then_some(true)
        }
    }

    #[test]
    fn decisions_follow_the_theory_phase() {
        use crate::{Limits, SolveResult, Solver};
        let mut s = Solver::new();
        let vs: Vec<Var> = (0..6).map(|_| s.new_var()).collect();
        // One clause so the problem is not trivially empty; every variable stays free.
        s.add_clause(&[vs[0].positive(), vs[1].positive()]);
        let r = s.solve_limited(&[], &mut EvenTrue, &Limits::default());
        assert_eq!(r, SolveResult::Sat);
        let m = s.model();
        for v in &vs {
            // Even variables follow the theory; odd ones keep the default negative phase
            // (variable 1 may be forced by nothing, since variable 0 is true).
            assert_eq!(m[v.index()], v.index() % 2 == 0, "variable {}", v.index());
        }
    }
}
