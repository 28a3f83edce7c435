//! Two watched literals with blocker literals.
//!
//! Every clause `c` (at least two literals) is watched by its first two literals. The watcher
//! for `c[i]` (i < 2) lives in the list of `!c[i]`, i.e. the list indexed by the literal whose
//! *assignment to true* falsifies the watch: when `p` becomes true, `watches[p]` holds exactly
//! the clauses that may have become unit or conflicting.
//!
//! A watcher carries a *blocker*, some other literal of the clause; if the blocker is true the
//! clause is satisfied and need not be visited (MiniSat 2.2). Watchers of binary clauses are
//! flagged: their blocker is the other literal, so propagation never has to read the clause.
//!
//! Invariant after propagation reached a fixpoint without conflict: no clause has both watched
//! literals false. (The stronger MiniSat invariant, "a false watch implies the other watch is
//! true at a level not above it", can be weakened by out-of-order theory propagations; that only
//! costs missed propagations, never soundness, because conflicts are still detected when the
//! last watch becomes false.)

use crate::clause::ClauseRef;
use crate::lit::Lit;

const BINARY: u32 = 1 << 31;

/// One entry of a watch list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Watcher {
    /// The watched clause's reference, with bit 31 set for binary clauses.
    tagged: u32,
    /// A literal of the clause; if true, the clause is satisfied.
    pub(crate) blocker: Lit,
}

impl Watcher {
    /// A watcher for `cref` with the given blocker.
    #[inline]
    pub(crate) fn new(cref: ClauseRef, blocker: Lit, binary: bool) -> Watcher {
        debug_assert!(cref.0 < BINARY);
        Watcher {
            tagged: cref.0 | if binary { BINARY } else { 0 },
            blocker,
        }
    }

    /// The watched clause.
    #[inline]
    pub(crate) fn cref(self) -> ClauseRef {
        ClauseRef(self.tagged & !BINARY)
    }

    /// Whether the clause has exactly two literals (then `blocker` is the other one).
    #[inline]
    pub(crate) fn is_binary(self) -> bool {
        self.tagged & BINARY != 0
    }
}

/// Watch lists indexed by [`Lit::index`].
#[derive(Default, Debug)]
pub(crate) struct Watches {
    pub(crate) lists: Vec<Vec<Watcher>>,
}

impl Watches {
    /// Makes room for the two literals of a new variable.
    pub(crate) fn grow_to(&mut self, num_vars: usize) {
        self.lists.resize_with(2 * num_vars, Vec::new);
    }

    /// Watches `c` on `c0` and `c1`, its first two literals; `len` is its length.
    #[inline]
    pub(crate) fn attach(&mut self, cref: ClauseRef, c0: Lit, c1: Lit, len: usize) {
        let binary = len == 2;
        self.lists[(!c0).index()].push(Watcher::new(cref, c1, binary));
        self.lists[(!c1).index()].push(Watcher::new(cref, c0, binary));
    }

    /// Removes every watcher.
    pub(crate) fn clear(&mut self) {
        for l in &mut self.lists {
            l.clear();
        }
    }

    /// Whether the list of `!watched` contains a watcher for `cref`.
    #[cfg(test)]
    pub(crate) fn is_watched_by(&self, cref: ClauseRef, watched: Lit) -> bool {
        self.lists[(!watched).index()]
            .iter()
            .any(|w| w.cref() == cref)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lit::Var;

    #[test]
    fn attach_puts_watchers_under_negations() {
        let mut w = Watches::default();
        w.grow_to(3);
        let a = Var(0).positive();
        let b = Var(2).negative();
        let c = ClauseRef(0);
        w.attach(c, a, b, 2);
        assert!(w.lists[(!a).index()][0].is_binary());
        assert!(w.is_watched_by(c, a));
        assert!(w.is_watched_by(c, b));
        assert!(!w.is_watched_by(c, !a));
        assert_eq!(w.lists[(!a).index()][0].blocker, b);
        w.clear();
        assert!(!w.is_watched_by(c, a));
    }
}
