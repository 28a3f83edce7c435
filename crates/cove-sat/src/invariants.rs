//! Consistency checks of the solver state, for tests and `debug_assert!`.
//!
//! Checked: assignment/trail agreement, level bookkeeping, reason clauses, the watch
//! invariant (every live clause is watched exactly by its first two literals, and at a
//! propagation fixpoint no clause has both watches false), and the decision heap.

use crate::lit::{LBool, Lit, Var};
use crate::solver::Solver;

impl Solver {
    /// Verifies the internal invariants; returns a description of the first violation.
    pub fn check_invariants(&self) -> Result<(), String> {
        let n = self.num_vars();
        if self.vals.len() != 2 * n || self.reason.len() != n || self.watches.lists.len() != 2 * n {
            return Err("per-variable tables have inconsistent sizes".into());
        }
        // Assignment vs trail.
        let mut on_trail = vec![false; n];
        let mut lim_i = 0;
        for (pos, &l) in self.trail.iter().enumerate() {
            let v = l.var().index();
            if on_trail[v] {
                return Err(format!("variable {v} twice on the trail"));
            }
            on_trail[v] = true;
            if self.lit_value(l) != LBool::True || self.lit_value(!l) != LBool::False {
                return Err(format!("trail literal {l:?} is not true"));
            }
            while lim_i < self.trail_lim.len() && self.trail_lim[lim_i] <= pos {
                lim_i += 1;
            }
            if self.level[v] as usize != lim_i {
                return Err(format!("level of {l:?} is {} not {lim_i}", self.level[v]));
            }
            let r = self.reason[v];
            if !r.is_none() {
                if self.db.is_deleted(r) || self.db.lit(r, 0) != l {
                    return Err(format!("reason of {l:?} does not start with it"));
                }
                for k in 1..self.db.len(r) {
                    let q = self.db.lit(r, k);
                    let qv = q.var().index();
                    if self.lit_value(q) != LBool::False || !on_trail[qv] {
                        return Err(format!("reason of {l:?} has non-false/later literal {q:?}"));
                    }
                }
            }
        }
        for (v, &on) in on_trail.iter().enumerate() {
            let a = self.vals[2 * v];
            if a != self.vals[2 * v + 1].negate() {
                return Err(format!("literal values of variable {v} disagree"));
            }
            if (a != LBool::Undef) != on {
                return Err(format!(
                    "variable {v} assigned but not on the trail (or vice versa)"
                ));
            }
            // Non-decision variables leave the heap when popped and come back with
            // `set_decision_var(v, true)`.
            if a == LBool::Undef
                && self.order.decision[v]
                && !self.order.heap.contains(Var(v as u32).0)
                && !self.guards.skipped.iter().any(|&(s, _)| s.index() == v)
            {
                return Err(format!("unassigned variable {v} missing from the heap"));
            }
        }
        if self.qhead > self.trail.len() || self.theory_head > self.trail.len() {
            return Err("queue heads beyond the trail".into());
        }
        if !self.order.heap.is_valid(&self.order.activity) {
            return Err("decision heap order violated".into());
        }
        // Watches: collect (clause, watched literal, binary flag) triples, sorted for lookup.
        let mut all: Vec<(u32, Lit, bool)> = Vec::new();
        for (i, list) in self.watches.lists.iter().enumerate() {
            let watched = !Lit::from_index(i);
            for w in list {
                if self.db.is_deleted(w.cref()) {
                    return Err(format!("watcher of deleted clause {:?}", w.cref()));
                }
                all.push((w.cref().0, watched, w.is_binary()));
            }
        }
        all.sort_unstable();
        let watchers = all.len();
        let fixpoint = self.ok && self.qhead == self.trail.len();
        for list in [&self.db.originals, &self.db.learnts] {
            for &c in list {
                let len = self.db.len(c);
                if len < 2 {
                    return Err(format!("clause {c:?} shorter than two literals"));
                }
                let (c0, c1) = (self.db.lit(c, 0), self.db.lit(c, 1));
                let mut want = [(c.0, c0, len == 2), (c.0, c1, len == 2)];
                want.sort_unstable();
                let lo = all.partition_point(|x| x.0 < c.0);
                let hi = all.partition_point(|x| x.0 <= c.0);
                if all[lo..hi] != want {
                    return Err(format!(
                        "clause {c:?} not watched exactly by its first two literals"
                    ));
                }
                // After a level-0 conflict (`ok == false`) a falsified clause legitimately
                // remains.
                if fixpoint
                    && self.lit_value(c0) == LBool::False
                    && self.lit_value(c1) == LBool::False
                {
                    return Err(format!("clause {c:?} has both watches false at a fixpoint"));
                }
            }
        }
        if watchers != 2 * self.db.num_clauses() {
            return Err("stray watchers".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(x: i32) -> Lit {
        Lit::from_dimacs(x)
    }

    fn solver() -> Solver {
        let mut s = Solver::new();
        s.add_clause(&[l(1), l(2), l(3)]);
        s.add_clause(&[l(-1), l(2)]);
        s
    }

    #[test]
    fn detects_missing_watcher() {
        let mut s = solver();
        assert_eq!(s.check_invariants(), Ok(()));
        let w = s
            .watches
            .lists
            .iter()
            .position(|ws| !ws.is_empty())
            .unwrap();
        s.watches.lists[w].pop();
        assert!(s.check_invariants().is_err());
    }

    #[test]
    fn detects_inconsistent_assignment() {
        let mut s = solver();
        s.vals[l(3).index()] = LBool::True;
        assert!(s.check_invariants().is_err());
    }

    #[test]
    fn detects_unpropagated_conflict() {
        let mut s = solver();
        s.new_decision_level();
        s.enqueue(l(1), crate::clause::ClauseRef::NONE);
        s.new_decision_level();
        s.enqueue(l(-2), crate::clause::ClauseRef::NONE);
        // Watches of (-1 2) are both false; pretend propagation is done.
        s.qhead = s.trail.len();
        assert!(s.check_invariants().is_err());
    }
}
