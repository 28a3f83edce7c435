//! Conflict analysis: first-UIP learning with recursive minimization, LBD, and the
//! final-conflict analysis that turns a failed assumption into a core.
//!
//! First UIP (Marques-Silva & Sakallah, GRASP 1996; Zhang et al., ICCAD 2001): resolve the
//! conflict clause with reasons of current-level literals, walking the trail backwards, until
//! exactly one current-level literal remains. Minimization (Sörensson & Biere, SAT 2009)
//! removes literals implied by the others, using abstract levels to prune the search.
//!
//! # Preconditions of [`Solver::analyze`]
//! All conflict literals are false and at least one of them is at the current decision level
//! (the caller backtracks to the conflict's highest level first). Every non-decision literal of
//! the current level has a reason clause whose literal 0 is that literal.
//!
//! # Postconditions
//! `scratch.learnt[0]` is the negated UIP, `scratch.learnt[1]` (if any) has the highest level
//! among the rest, which is the returned backjump level; the clause is implied by the clause
//! set (and the theory lemmas), and all `seen` marks are cleared.

use crate::clause::ClauseRef;
use crate::lit::{LBool, Lit};
use crate::solver::Solver;

/// Where the current conflict comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Conflict {
    /// A stored clause whose literals are all false.
    Clause(ClauseRef),
    /// The literals in `scratch.conflict_lits` (a theory conflict that was not stored).
    Lits,
}

/// Reusable buffers for conflict analysis.
#[derive(Default, Debug)]
pub(crate) struct AnalyzeScratch {
    pub(crate) seen: Vec<u8>,
    stack: Vec<Lit>,
    toclear: Vec<Lit>,
    pub(crate) learnt: Vec<Lit>,
    level_stamp: Vec<u64>,
    stamp: u64,
    /// Literals of a `Conflict::Lits` conflict.
    pub(crate) conflict_lits: Vec<Lit>,
}

impl AnalyzeScratch {
    pub(crate) fn grow_to(&mut self, n: usize) {
        self.seen.resize(n, 0);
    }
}

impl Solver {
    /// Derives the first-UIP clause of `confl` into `scratch.learnt`.
    /// Returns `(backjump level, LBD)`.
    pub(crate) fn analyze(&mut self, confl: Conflict) -> (usize, u32) {
        let cur = self.decision_level() as u32;
        self.scratch.learnt.clear();
        self.scratch.learnt.push(Lit::from_index(0));
        let mut path_c = 0u32;
        let mut index = self.trail.len();
        let mut next = match confl {
            Conflict::Clause(c) => Some(c),
            Conflict::Lits => {
                for k in 0..self.scratch.conflict_lits.len() {
                    let q = self.scratch.conflict_lits[k];
                    self.analyze_lit(q, cur, &mut path_c);
                }
                None
            }
        };
        let mut skip_first = false;
        loop {
            if let Some(cr) = next {
                self.touch_clause(cr);
                for k in usize::from(skip_first)..self.db.len(cr) {
                    let q = self.db.lit(cr, k);
                    self.analyze_lit(q, cur, &mut path_c);
                }
            }
            skip_first = true;
            debug_assert!(path_c > 0, "conflict without a current-level literal");
            loop {
                index -= 1;
                if self.scratch.seen[self.trail[index].var().index()] != 0 {
                    break;
                }
            }
            let p = self.trail[index];
            let v = p.var().index();
            self.scratch.seen[v] = 0;
            path_c -= 1;
            if path_c == 0 {
                self.scratch.learnt[0] = !p;
                break;
            }
            debug_assert!(!self.reason[v].is_none());
            next = Some(self.reason[v]);
        }
        self.minimize();
        let learnt = &mut self.scratch.learnt;
        let bt = if learnt.len() == 1 {
            0
        } else {
            let mut max_i = 1;
            for i in 2..learnt.len() {
                if self.level[learnt[i].var().index()] > self.level[learnt[max_i].var().index()] {
                    max_i = i;
                }
            }
            learnt.swap(1, max_i);
            self.level[learnt[1].var().index()] as usize
        };
        let lits = std::mem::take(&mut self.scratch.learnt);
        let lbd = self.compute_lbd(&lits);
        self.scratch.learnt = lits;
        self.stats.learnt_literals += self.scratch.learnt.len() as u64;
        (bt, lbd)
    }

    #[inline]
    fn analyze_lit(&mut self, q: Lit, cur: u32, path_c: &mut u32) {
        let v = q.var().index();
        if self.scratch.seen[v] == 0 && self.level[v] > 0 {
            self.order.bump(q.var());
            self.scratch.seen[v] = 1;
            if self.level[v] >= cur {
                *path_c += 1;
            } else {
                self.scratch.learnt.push(q);
            }
        }
    }

    /// Bumps a learnt clause used in analysis and refreshes its LBD.
    fn touch_clause(&mut self, cr: ClauseRef) {
        if !self.db.is_learnt(cr) {
            return;
        }
        let a = self.db.activity(cr) + self.cla_inc;
        self.db.set_activity(cr, a);
        if a > 1e20 {
            for i in 0..self.db.learnts.len() {
                let c = self.db.learnts[i];
                let x = self.db.activity(c) * 1e-20;
                self.db.set_activity(c, x);
            }
            self.cla_inc *= 1e-20;
        }
        self.db.set_used(cr, true);
        let old = self.db.lbd(cr);
        if old > self.config.core_lbd {
            let new = self.clause_lbd(cr);
            if new < old {
                self.db.set_lbd(cr, new);
            }
        }
    }

    /// LBD of a stored clause under the current levels.
    fn clause_lbd(&mut self, cr: ClauseRef) -> u32 {
        let s = &mut self.scratch;
        s.stamp += 1;
        let mut n = 0;
        for k in 0..self.db.len(cr) {
            let lv = self.level[self.db.lit(cr, k).var().index()] as usize;
            if lv >= s.level_stamp.len() {
                s.level_stamp.resize(lv + 1, 0);
            }
            if s.level_stamp[lv] != s.stamp {
                s.level_stamp[lv] = s.stamp;
                n += 1;
            }
        }
        n
    }

    /// Number of distinct nonzero decision levels among `lits`.
    pub(crate) fn compute_lbd(&mut self, lits: &[Lit]) -> u32 {
        let s = &mut self.scratch;
        s.stamp += 1;
        let mut n = 0;
        for l in lits {
            let lv = self.level[l.var().index()] as usize;
            if lv >= s.level_stamp.len() {
                s.level_stamp.resize(lv + 1, 0);
            }
            if s.level_stamp[lv] != s.stamp {
                s.level_stamp[lv] = s.stamp;
                n += 1;
            }
        }
        n
    }

    fn abstract_level(&self, v: usize) -> u32 {
        1 << (self.level[v] & 31)
    }

    /// Recursive minimization of `scratch.learnt[1..]`; clears all `seen` marks.
    fn minimize(&mut self) {
        let mut toclear = std::mem::take(&mut self.scratch.toclear);
        toclear.clear();
        toclear.extend_from_slice(&self.scratch.learnt);
        let mut abs = 0;
        for l in &self.scratch.learnt[1..] {
            abs |= self.abstract_level(l.var().index());
        }
        let n = self.scratch.learnt.len();
        let mut j = 1;
        for i in 1..n {
            let x = self.scratch.learnt[i];
            if self.reason[x.var().index()].is_none() || !self.lit_redundant(x, abs, &mut toclear) {
                self.scratch.learnt[j] = x;
                j += 1;
            }
        }
        self.stats.minimized_literals += (n - j) as u64;
        self.scratch.learnt.truncate(j);
        for l in &toclear {
            self.scratch.seen[l.var().index()] = 0;
        }
        self.scratch.toclear = toclear;
    }

    /// Whether `p` (false, with a reason) is implied by literals already in the clause.
    fn lit_redundant(&mut self, p: Lit, abs: u32, toclear: &mut Vec<Lit>) -> bool {
        let mut stack = std::mem::take(&mut self.scratch.stack);
        stack.clear();
        stack.push(p);
        let top = toclear.len();
        let mut ok = true;
        'outer: while let Some(q) = stack.pop() {
            let cr = self.reason[q.var().index()];
            for k in 1..self.db.len(cr) {
                let l = self.db.lit(cr, k);
                let v = l.var().index();
                if self.scratch.seen[v] == 0 && self.level[v] > 0 {
                    if !self.reason[v].is_none() && self.abstract_level(v) & abs != 0 {
                        self.scratch.seen[v] = 1;
                        stack.push(l);
                        toclear.push(l);
                    } else {
                        for x in &toclear[top..] {
                            self.scratch.seen[x.var().index()] = 0;
                        }
                        toclear.truncate(top);
                        ok = false;
                        break 'outer;
                    }
                }
            }
        }
        self.scratch.stack = stack;
        ok
    }

    /// Computes `failed` = assumptions responsible for the assumption `p` being false
    /// (MiniSat's `analyzeFinal`), including `p` itself.
    pub(crate) fn analyze_final(&mut self, p: Lit) {
        debug_assert_eq!(self.lit_value(p), LBool::False);
        self.failed.clear();
        self.failed.push(p);
        if self.decision_level() == 0 {
            return;
        }
        self.scratch.seen[p.var().index()] = 1;
        for i in (self.trail_lim[0]..self.trail.len()).rev() {
            let x = self.trail[i];
            let v = x.var().index();
            if self.scratch.seen[v] == 0 {
                continue;
            }
            let r = self.reason[v];
            if r.is_none() {
                debug_assert!(self.level[v] > 0);
                if x != p {
                    self.failed.push(x);
                }
            } else {
                for k in 1..self.db.len(r) {
                    let q = self.db.lit(r, k);
                    if self.level[q.var().index()] > 0 {
                        self.scratch.seen[q.var().index()] = 1;
                    }
                }
            }
            self.scratch.seen[v] = 0;
        }
        self.scratch.seen[p.var().index()] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(x: i32) -> Lit {
        Lit::from_dimacs(x)
    }

    fn decide(s: &mut Solver, x: i32) {
        s.new_decision_level();
        s.enqueue(l(x), ClauseRef::NONE);
    }

    #[test]
    fn first_uip_clause_is_asserting() {
        // x1 -> x3, x2 & x3 -> x4, x4 -> x5, x4 -> -x5 conflict; UIP is x4.
        let mut s = Solver::new();
        s.add_clause(&[l(-1), l(3)]);
        s.add_clause(&[l(-2), l(-3), l(4)]);
        s.add_clause(&[l(-4), l(5)]);
        s.add_clause(&[l(-4), l(-5), l(-6)]);
        s.add_clause(&[l(6), l(-2)]);
        decide(&mut s, 1);
        assert!(s.propagate().is_none());
        decide(&mut s, 2);
        let c = s.propagate().expect("conflict");
        let (bt, lbd) = s.analyze(Conflict::Clause(c));
        let learnt = s.scratch.learnt.clone();
        assert_eq!(learnt[0], l(-2), "UIP literal comes first: {learnt:?}");
        // x3 is at level 1 and implied by x1 ... but x1 has no reason, so -3 stays.
        assert_eq!(learnt.len(), 2);
        assert_eq!(bt, 1);
        assert_eq!(lbd, 2);
        assert!(s.scratch.seen.iter().all(|&x| x == 0));
    }

    #[test]
    fn minimization_removes_implied_literal() {
        // Level 1: decide 1, propagate 2 (1->2). Level 2: decide 3; clauses make conflict
        // needing both -1 and -2; -2 is implied by -1 and gets removed.
        let mut s = Solver::new();
        s.add_clause(&[l(-1), l(2)]);
        s.add_clause(&[l(-3), l(-1), l(-2), l(4)]);
        s.add_clause(&[l(-3), l(-4), l(-1)]);
        decide(&mut s, 1);
        assert!(s.propagate().is_none());
        decide(&mut s, 3);
        let c = s.propagate().expect("conflict");
        let (bt, _) = s.analyze(Conflict::Clause(c));
        let mut learnt = s.scratch.learnt.clone();
        learnt.sort();
        assert_eq!(learnt, vec![l(-1), l(-3)]);
        assert_eq!(bt, 1);
    }

    #[test]
    fn analyze_final_collects_responsible_assumptions() {
        let mut s = Solver::new();
        s.add_clause(&[l(-1), l(-2), l(3)]);
        s.ensure_vars(5);
        decide(&mut s, 1);
        decide(&mut s, 5);
        decide(&mut s, 2);
        assert!(s.propagate().is_none());
        s.analyze_final(l(-3));
        let mut f = s.failed.clone();
        f.sort();
        assert_eq!(f, vec![l(1), l(2), l(-3)]);
    }
}
