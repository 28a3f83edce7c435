//! Clause database maintenance: `reduce_db` (tiered by LBD), removal of clauses satisfied at
//! level 0, and garbage collection of the arena.
//!
//! Tiers (Audemard & Simon, "Predicting learnt clauses quality", IJCAI 2009; Oh, SAT 2015):
//! - core: LBD `<= core_lbd` (2, "glue" clauses) are kept forever;
//! - tier 2: LBD `<= tier2_lbd` are kept as long as they were used in some conflict analysis
//!   since the previous reduction;
//! - local: everything else; the less active half is deleted at each reduction.
//!
//! A reduction is triggered when the learnt clauses beyond the protected ones exceed a bound
//! that starts at a third of the problem clauses and grows by 10% at geometrically spaced
//! conflict counts (MiniSat's schedule), which keeps propagation fast on small hard problems.
//!
//! A clause that is the reason of a current assignment ("locked") is never deleted.
//! After deletion the arena is compacted, reasons are relocated and watch lists are rebuilt from
//! the first two literals of every clause, which preserves the watch invariant.

use crate::clause::ClauseRef;
use crate::lit::LBool;
use crate::solver::Solver;

impl Solver {
    /// Whether `c` is the reason of its first literal's current assignment.
    fn locked(&self, c: ClauseRef) -> bool {
        let l0 = self.db.lit(c, 0);
        self.vals[l0.index()] == LBool::True && self.reason[l0.var().index()] == c
    }

    /// Deletes about half of the local-tier learnt clauses (lowest activity first).
    pub(crate) fn reduce_db(&mut self) {
        self.stats.reductions += 1;
        let mut cands = Vec::new();
        for i in 0..self.db.learnts.len() {
            let c = self.db.learnts[i];
            if self.locked(c) {
                continue;
            }
            let lbd = self.db.lbd(c);
            if lbd <= self.config.core_lbd {
                continue;
            }
            let used = self.db.is_used(c);
            self.db.set_used(c, false);
            if lbd <= self.config.tier2_lbd && used {
                continue;
            }
            cands.push(c);
        }
        cands.sort_by(|&a, &b| {
            self.db
                .activity(a)
                .total_cmp(&self.db.activity(b))
                .then(self.db.lbd(b).cmp(&self.db.lbd(a)))
        });
        let n = cands.len() / 2;
        for &c in &cands[..n] {
            self.db.delete(c);
        }
        self.protected_learnts = self.db.learnts.len() - cands.len();
        self.stats.deleted_clauses += n as u64;
        self.collect_garbage();
    }

    /// At level 0: deletes every clause satisfied by a level-0 fact.
    pub(crate) fn remove_satisfied(&mut self) {
        debug_assert_eq!(self.decision_level(), 0);
        let lists = [self.db.originals.clone(), self.db.learnts.clone()];
        for list in lists {
            for c in list {
                let sat =
                    (0..self.db.len(c)).any(|k| self.lit_value(self.db.lit(c, k)) == LBool::True);
                if sat {
                    self.db.delete(c);
                }
            }
        }
        // Level-0 facts need no reasons: conflict analysis never looks at level 0.
        for &l in &self.trail {
            self.reason[l.var().index()] = ClauseRef::NONE;
        }
        self.simp_trail_len = self.trail.len();
        self.simp_props = self.stats.propagations;
        self.collect_garbage();
    }

    /// Compacts the arena, relocates reasons and rebuilds the watch lists.
    pub(crate) fn collect_garbage(&mut self) {
        let fwd = self.db.compact();
        for i in 0..self.trail.len() {
            let v = self.trail[i].var().index();
            let r = self.reason[v];
            if !r.is_none() {
                let nr = fwd.forward(r);
                debug_assert!(
                    nr.is_some() || self.level[v] == 0,
                    "deleted a locked clause"
                );
                self.reason[v] = nr.unwrap_or(ClauseRef::NONE);
            }
        }
        self.watches.clear();
        for list in [&self.db.originals, &self.db.learnts] {
            for &c in list {
                self.watches
                    .attach(c, self.db.lit(c, 0), self.db.lit(c, 1), self.db.len(c));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lit::Lit;
    use crate::solver::Solver;

    fn l(x: i32) -> Lit {
        Lit::from_dimacs(x)
    }

    #[test]
    fn remove_satisfied_keeps_the_rest_watched() {
        let mut s = Solver::new();
        s.add_clause(&[l(1), l(2), l(3)]);
        s.add_clause(&[l(-1), l(2), l(4)]);
        s.add_clause(&[l(5), l(6)]);
        s.add_clause(&[l(1)]);
        s.remove_satisfied();
        assert_eq!(s.num_clauses(), 2);
        s.check_invariants().unwrap();
        assert_eq!(s.solve(&[l(-2), l(-5)]), crate::SolveResult::Sat);
        assert_eq!(s.value(l(4)), crate::LBool::True);
        assert_eq!(s.value(l(6)), crate::LBool::True);
    }

    #[test]
    fn reduce_db_keeps_glue_and_locked_clauses() {
        let mut s = Solver::new();
        for _ in 0..6 {
            s.new_var();
        }
        let glue = s.db.alloc(&[l(1), l(2), l(3)], true, 2);
        let local1 = s.db.alloc(&[l(-1), l(4), l(5)], true, 9);
        let local2 = s.db.alloc(&[l(-2), l(-4), l(6)], true, 9);
        s.db.set_activity(local1, 5.0);
        for c in [glue, local1, local2] {
            s.watches.attach(c, s.db.lit(c, 0), s.db.lit(c, 1), 3);
        }
        s.reduce_db();
        assert_eq!(s.db.learnts.len(), 2);
        let kept: Vec<Vec<Lit>> = s.db.learnts.iter().map(|&c| s.db.lits(c)).collect();
        assert!(kept.contains(&vec![l(1), l(2), l(3)]));
        assert!(kept.contains(&vec![l(-1), l(4), l(5)]));
        s.check_invariants().unwrap();
    }
}
