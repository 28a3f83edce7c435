//! The clause arena: all clauses live in one `Vec<u32>`, addressed by [`ClauseRef`].
//!
//! Layout of a clause at offset `r`: `arena[r]` is the length `n`, `arena[r + 1]` holds the
//! flags and the LBD (`learnt`, `deleted`, `used` bits, LBD in the upper bits), `arena[r + 2]`
//! is the activity as `f32` bits, and `arena[r + 3 .. r + 3 + n]` are the literal codes.
//!
//! Invariants:
//! - every live clause has at least two literals (units are assigned at level 0 instead);
//! - the first two literals are the watched ones (see `watch`), and for a clause that is the
//!   reason of an assignment, literal 0 is the implied literal;
//! - a deleted clause is unreachable once [`ClauseDb::compact`] has run: the caller rebuilds
//!   watches and relocates reasons with the returned forwarding map.

use crate::lit::Lit;

/// Number of header words before the literals.
pub(crate) const HEADER: usize = 3;

const LEARNT: u32 = 1;
const DELETED: u32 = 2;
const USED: u32 = 4;
const LBD_SHIFT: u32 = 3;

/// Offset of a clause in the arena.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub(crate) struct ClauseRef(pub(crate) u32);

impl ClauseRef {
    /// Sentinel for "no clause" (decisions, level-0 facts, unassigned variables).
    pub(crate) const NONE: ClauseRef = ClauseRef(u32::MAX);

    #[inline]
    pub(crate) fn is_none(self) -> bool {
        self.0 == u32::MAX
    }
}

/// Arena plus the lists of live problem (permanent) and learnt clauses.
#[derive(Default, Debug)]
pub(crate) struct ClauseDb {
    /// Raw storage; see the module docs for the layout.
    pub(crate) arena: Vec<u32>,
    /// Words occupied by deleted clauses.
    wasted: usize,
    /// Permanent clauses: the input formula and theory lemmas.
    pub(crate) originals: Vec<ClauseRef>,
    /// Learnt (deletable) clauses, including stored theory explanations.
    pub(crate) learnts: Vec<ClauseRef>,
}

impl ClauseDb {
    /// Stores `lits` (at least two) and registers it as learnt or permanent.
    pub(crate) fn alloc(&mut self, lits: &[Lit], learnt: bool, lbd: u32) -> ClauseRef {
        debug_assert!(lits.len() >= 2);
        let r = ClauseRef(self.arena.len() as u32);
        self.arena.push(lits.len() as u32);
        let flags = if learnt { LEARNT } else { 0 } | (lbd.min(1 << 28) << LBD_SHIFT);
        self.arena.push(flags);
        self.arena.push(0f32.to_bits());
        self.arena.extend(lits.iter().map(|l| l.code()));
        if learnt {
            self.learnts.push(r);
        } else {
            self.originals.push(r);
        }
        r
    }

    /// Number of literals.
    #[inline]
    pub(crate) fn len(&self, c: ClauseRef) -> usize {
        self.arena[c.0 as usize] as usize
    }

    /// Literal `i` of `c`.
    #[inline]
    pub(crate) fn lit(&self, c: ClauseRef, i: usize) -> Lit {
        Lit::from_code(self.arena[c.0 as usize + HEADER + i])
    }

    /// The literals of `c` (copied out; for tests).
    #[cfg(test)]
    pub(crate) fn lits(&self, c: ClauseRef) -> Vec<Lit> {
        let s = c.0 as usize + HEADER;
        self.arena[s..s + self.len(c)]
            .iter()
            .map(|&x| Lit::from_code(x))
            .collect()
    }

    /// Mutable raw literal codes of `c`.
    #[cfg(test)]
    #[inline]
    pub(crate) fn codes_mut(&mut self, c: ClauseRef) -> &mut [u32] {
        let s = c.0 as usize + HEADER;
        let n = self.len(c);
        &mut self.arena[s..s + n]
    }

    #[inline]
    fn flags(&self, c: ClauseRef) -> u32 {
        self.arena[c.0 as usize + 1]
    }

    #[inline]
    fn set_flags(&mut self, c: ClauseRef, f: u32) {
        self.arena[c.0 as usize + 1] = f;
    }

    /// Whether `c` is a learnt (deletable) clause.
    #[inline]
    pub(crate) fn is_learnt(&self, c: ClauseRef) -> bool {
        self.flags(c) & LEARNT != 0
    }

    /// Whether `c` has been deleted (awaiting compaction).
    #[inline]
    pub(crate) fn is_deleted(&self, c: ClauseRef) -> bool {
        self.flags(c) & DELETED != 0
    }

    /// Literal block distance stored with `c`.
    #[inline]
    pub(crate) fn lbd(&self, c: ClauseRef) -> u32 {
        self.flags(c) >> LBD_SHIFT
    }

    /// Updates the stored LBD.
    #[inline]
    pub(crate) fn set_lbd(&mut self, c: ClauseRef, lbd: u32) {
        let f = self.flags(c) & ((1 << LBD_SHIFT) - 1);
        self.set_flags(c, f | (lbd.min(1 << 28) << LBD_SHIFT));
    }

    /// Whether `c` took part in conflict analysis since the last `reduce_db`.
    #[inline]
    pub(crate) fn is_used(&self, c: ClauseRef) -> bool {
        self.flags(c) & USED != 0
    }

    /// Sets or clears the `used` mark.
    #[inline]
    pub(crate) fn set_used(&mut self, c: ClauseRef, used: bool) {
        let f = self.flags(c);
        self.set_flags(c, if used { f | USED } else { f & !USED });
    }

    /// Clause activity (learnt clauses only are bumped).
    #[inline]
    pub(crate) fn activity(&self, c: ClauseRef) -> f32 {
        f32::from_bits(self.arena[c.0 as usize + 2])
    }

    /// Sets the clause activity.
    #[inline]
    pub(crate) fn set_activity(&mut self, c: ClauseRef, a: f32) {
        self.arena[c.0 as usize + 2] = a.to_bits();
    }

    /// Marks `c` deleted. It stays in the clause lists until [`ClauseDb::compact`].
    pub(crate) fn delete(&mut self, c: ClauseRef) {
        if !self.is_deleted(c) {
            let f = self.flags(c);
            self.set_flags(c, f | DELETED);
            self.wasted += HEADER + self.len(c);
        }
    }

    /// Fraction of the arena occupied by deleted clauses.
    #[cfg(test)]
    pub(crate) fn wasted_ratio(&self) -> f64 {
        if self.arena.is_empty() {
            0.0
        } else {
            self.wasted as f64 / self.arena.len() as f64
        }
    }

    /// Size of the arena in words (live and deleted clauses with headers).
    pub(crate) fn arena_len(&self) -> usize {
        self.arena.len()
    }

    /// Total number of live clauses.
    pub(crate) fn num_clauses(&self) -> usize {
        self.originals.len() + self.learnts.len()
    }

    /// Drops deleted clauses and moves the live ones to a fresh arena.
    ///
    /// # Postconditions
    /// Returns the relocation function as a closure-free table: `forward(old)` gives the new
    /// reference of a live clause, or `None` for a deleted one. All old references held
    /// elsewhere (watches, reasons) must be translated through it.
    pub(crate) fn compact(&mut self) -> Forwarding {
        let old = std::mem::take(&mut self.arena);
        let mut new_arena = Vec::with_capacity(old.len() - self.wasted);
        let mut fwd = Forwarding { map: Vec::new() };
        let mut move_list = |list: &mut Vec<ClauseRef>, fwd: &mut Forwarding| {
            list.retain(|c| old[c.0 as usize + 1] & DELETED == 0);
            for c in list.iter_mut() {
                let s = c.0 as usize;
                let n = old[s] as usize;
                let nr = ClauseRef(new_arena.len() as u32);
                new_arena.extend_from_slice(&old[s..s + HEADER + n]);
                fwd.map.push((*c, nr));
                *c = nr;
            }
        };
        move_list(&mut self.originals, &mut fwd);
        move_list(&mut self.learnts, &mut fwd);
        fwd.map.sort_unstable();
        self.arena = new_arena;
        self.wasted = 0;
        fwd
    }
}

/// Old-to-new clause references produced by [`ClauseDb::compact`].
pub(crate) struct Forwarding {
    map: Vec<(ClauseRef, ClauseRef)>,
}

impl Forwarding {
    /// The new reference of `old`, or `None` when it was deleted.
    pub(crate) fn forward(&self, old: ClauseRef) -> Option<ClauseRef> {
        self.map
            .binary_search_by_key(&old, |&(o, _)| o)
            .ok()
            .map(|i| self.map[i].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(xs: &[i32]) -> Vec<Lit> {
        xs.iter().map(|&x| Lit::from_dimacs(x)).collect()
    }

    #[test]
    fn alloc_and_read_back() {
        let mut db = ClauseDb::default();
        let a = db.alloc(&lits(&[1, -2, 3]), false, 0);
        let b = db.alloc(&lits(&[-1, 4]), true, 2);
        assert_eq!(db.lits(a), lits(&[1, -2, 3]));
        assert_eq!(db.lits(b), lits(&[-1, 4]));
        assert!(!db.is_learnt(a));
        assert!(db.is_learnt(b));
        assert_eq!(db.lbd(b), 2);
        db.set_lbd(b, 7);
        db.set_used(b, true);
        assert_eq!(db.lbd(b), 7);
        assert!(db.is_used(b) && db.is_learnt(b));
        db.set_activity(b, 2.5);
        assert_eq!(db.activity(b), 2.5);
        db.codes_mut(a).swap(0, 2);
        assert_eq!(db.lit(a, 0), Lit::from_dimacs(3));
        assert_eq!(db.num_clauses(), 2);
    }

    #[test]
    fn compaction_forwards_live_clauses() {
        let mut db = ClauseDb::default();
        let a = db.alloc(&lits(&[1, 2]), false, 0);
        let b = db.alloc(&lits(&[3, 4, 5]), true, 3);
        let c = db.alloc(&lits(&[-1, -5]), true, 2);
        db.delete(b);
        assert!(db.wasted_ratio() > 0.0);
        let fwd = db.compact();
        assert_eq!(fwd.forward(b), None);
        let a2 = fwd.forward(a).unwrap();
        let c2 = fwd.forward(c).unwrap();
        assert_eq!(db.lits(a2), lits(&[1, 2]));
        assert_eq!(db.lits(c2), lits(&[-1, -5]));
        assert_eq!(db.lbd(c2), 2);
        assert_eq!(db.learnts, vec![c2]);
        assert_eq!(db.wasted_ratio(), 0.0);
    }
}
