//! Boolean constraint propagation over the two-watched-literal scheme (see `watch`).
//!
//! # Postconditions of [`Solver::propagate`]
//! Either a conflict clause (all literals false) is returned and `qhead == trail.len()`, or
//! every literal of the trail has been propagated: no clause is unit-but-unassigned through
//! its watches and no clause has both watched literals false.

use crate::clause::{ClauseRef, HEADER};
use crate::lit::{LBool, Lit};
use crate::solver::Solver;
use crate::watch::Watcher;

impl Solver {
    /// Propagates all enqueued literals; returns a falsified clause on conflict.
    pub(crate) fn propagate(&mut self) -> Option<ClauseRef> {
        let mut confl = None;
        while self.qhead < self.trail.len() {
            let p = self.trail[self.qhead];
            self.qhead += 1;
            self.stats.propagations += 1;
            // Above level 0 with a domain: implications outside it are skipped.
            let restrict = self.domain_on && !self.trail_lim.is_empty();
            let false_lit = !p;
            let fl = false_lit.code();
            let mut ws = std::mem::take(&mut self.watches.lists[p.index()]);
            let n = ws.len();
            self.stats.watcher_visits += n as u64;
            let (mut i, mut j) = (0, 0);
            'watchers: while i < n {
                let w = ws[i];
                i += 1;
                let bv = self.vals[w.blocker.index()];
                if bv == LBool::True {
                    ws[j] = w;
                    j += 1;
                    continue;
                }
                if w.is_binary() {
                    ws[j] = w;
                    j += 1;
                    let cr = w.cref();
                    if bv == LBool::False {
                        confl = Some(cr);
                        self.qhead = self.trail.len();
                        while i < n {
                            ws[j] = ws[i];
                            j += 1;
                            i += 1;
                        }
                    } else if restrict && !self.in_domain[w.blocker.var().index()] {
                        // Out of the domain: left unassigned.
                    } else {
                        // Reasons start with the implied literal.
                        let start = cr.0 as usize + HEADER;
                        self.db.arena[start] = w.blocker.code();
                        self.db.arena[start + 1] = fl;
                        self.enqueue(w.blocker, cr);
                    }
                    continue;
                }
                let cr = w.cref();
                self.stats.clause_visits += 1;
                let start = cr.0 as usize + HEADER;
                let len = self.db.arena[cr.0 as usize] as usize;
                let c = &mut self.db.arena[start..start + len];
                // Make sure the false literal is c[1].
                if c[0] == fl {
                    c[0] = c[1];
                    c[1] = fl;
                }
                let first = Lit::from_code(c[0]);
                let nw = Watcher::new(cr, first, false);
                if first != w.blocker && self.vals[first.index()] == LBool::True {
                    ws[j] = nw;
                    j += 1;
                    continue;
                }
                // Look for a new literal to watch.
                for k in 2..len {
                    let lk = Lit::from_code(c[k]);
                    if self.vals[lk.index()] != LBool::False {
                        c[1] = c[k];
                        c[k] = fl;
                        self.watches.lists[(!lk).index()].push(nw);
                        continue 'watchers;
                    }
                }
                // Clause is unit or conflicting under the current assignment.
                ws[j] = nw;
                j += 1;
                if self.vals[first.index()] == LBool::False {
                    confl = Some(cr);
                    self.qhead = self.trail.len();
                    while i < n {
                        ws[j] = ws[i];
                        j += 1;
                        i += 1;
                    }
                } else if !restrict || self.in_domain[first.var().index()] {
                    self.enqueue(first, cr);
                }
            }
            ws.truncate(j);
            self.watches.lists[p.index()] = ws;
            if confl.is_some() {
                break;
            }
        }
        confl
    }
}

#[cfg(test)]
mod tests {
    use crate::clause::ClauseRef;
    use crate::lit::{LBool, Lit};
    use crate::solver::Solver;

    fn l(x: i32) -> Lit {
        Lit::from_dimacs(x)
    }

    #[test]
    fn chain_propagates_and_records_reasons() {
        let mut s = Solver::new();
        s.add_clause(&[l(-1), l(2)]);
        s.add_clause(&[l(-2), l(-3), l(4)]);
        s.add_clause(&[l(-1), l(3)]);
        s.new_decision_level();
        s.enqueue(l(1), ClauseRef::NONE);
        assert!(s.propagate().is_none());
        for x in [1, 2, 3, 4] {
            assert_eq!(s.lit_value(l(x)), LBool::True, "literal {x}");
        }
        let r = s.reason[l(4).var().index()];
        assert_eq!(s.db.lit(r, 0), l(4));
        s.check_invariants().unwrap();
    }

    #[test]
    fn conflict_is_reported() {
        let mut s = Solver::new();
        s.add_clause(&[l(-1), l(2)]);
        s.add_clause(&[l(-1), l(-2)]);
        s.new_decision_level();
        s.enqueue(l(1), ClauseRef::NONE);
        let c = s.propagate().expect("conflict");
        assert!(s.db.lits(c).iter().all(|&x| s.lit_value(x) == LBool::False));
        assert_eq!(s.qhead, s.trail.len());
    }

    #[test]
    fn propagation_domain_leaves_outside_variables_unassigned() {
        use crate::SolveResult;
        // g <-> x & y, g outside the domain and not a decision variable.
        let mut s = Solver::new();
        let (x, y, g) = (l(1), l(2), l(3));
        s.add_clause(&[!g, x]);
        s.add_clause(&[!g, y]);
        s.add_clause(&[g, !x, !y]);
        s.set_decision_var(g.var(), false);
        s.set_in_domain(g.var(), false);
        s.restrict_propagation(true);
        assert_eq!(s.solve(&[x, y]), SolveResult::Sat);
        assert_eq!(s.value(g), LBool::Undef);
        // In the domain again: propagated.
        s.set_in_domain(g.var(), true);
        assert_eq!(s.solve(&[x, y]), SolveResult::Sat);
        assert_eq!(s.value(g), LBool::True);
        // A level-0 fact about an outside variable still counts: unsat stays exact.
        s.set_in_domain(g.var(), false);
        s.add_clause(&[!g]);
        assert_eq!(s.solve(&[x, y]), SolveResult::Unsat);
        assert_eq!(s.solve(&[x]), SolveResult::Sat);
    }
}
