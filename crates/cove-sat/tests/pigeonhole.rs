//! Pigeonhole formulas PHP(n+1, n) are unsatisfiable; PHP(n, n) is satisfiable.

mod common;

use common::{pigeonhole, satisfies};
use cove_sat::{SolveResult, Solver};

#[test]
fn php_is_unsat() {
    for n in 2..=7 {
        let (vars, clauses) = pigeonhole(n);
        let mut s = Solver::new();
        for c in &clauses {
            s.add_clause(c);
        }
        assert_eq!(s.num_vars(), vars);
        assert_eq!(s.solve(&[]), SolveResult::Unsat, "PHP({}, {n})", n + 1);
        assert!(s.failed_assumptions().is_empty());
        // Once unsat, always unsat.
        assert_eq!(s.solve(&[]), SolveResult::Unsat);
    }
}

#[test]
fn php_with_one_pigeon_removed_is_sat() {
    for n in 2..=8 {
        let (_, clauses) = pigeonhole(n);
        // Assume away pigeon n (all its hole variables false): the rest fits.
        let mut s = Solver::new();
        for c in &clauses {
            s.add_clause(c);
        }
        let assumptions: Vec<_> = (0..n)
            .map(|h| cove_sat::Lit::new(cove_sat::Var((n * n + h) as u32), true))
            .collect();
        assert_eq!(
            s.solve(&assumptions),
            SolveResult::Unsat,
            "pigeon {n} needs a hole"
        );
        let reduced: Vec<_> = clauses
            .iter()
            .filter(|c| !c.iter().all(|l| l.var().index() >= n * n))
            .cloned()
            .collect();
        let mut s = Solver::new();
        for c in &reduced {
            s.add_clause(c);
        }
        assert_eq!(s.solve(&assumptions), SolveResult::Sat);
        assert!(satisfies(&s.model(), &reduced));
    }
}

#[test]
fn a_work_budget_stops_a_hard_search_the_same_way_every_time() {
    // PHP(10, 9) takes many thousands of conflicts; a budget of 500 units stops it, and the
    // number of conflicts at the stop does not depend on the machine's speed.
    let (_, clauses) = pigeonhole(9);
    let mut stopped_at = Vec::new();
    for _ in 0..2 {
        let mut s = Solver::new();
        for c in &clauses {
            s.add_clause(c);
        }
        let ctl = cove_control::Control::new().with_work_budget(500);
        let limits = cove_sat::Limits::of(&ctl);
        let r = s.solve_limited(&[], &mut cove_sat::NoTheory, &limits);
        assert_eq!(r, SolveResult::Unknown);
        assert!(ctl.should_stop().is_some());
        stopped_at.push(s.stats().conflicts);
    }
    assert_eq!(stopped_at[0], stopped_at[1]);
    assert!(stopped_at[0] < 600, "{stopped_at:?}");
}
