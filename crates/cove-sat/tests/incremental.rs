//! Incremental use: clauses added between solves, assumptions, and failed-assumption cores
//! that are re-checked as unsatisfiable by a fresh solver and by brute force.

mod common;

use common::{Rng, brute_force, lit_true, random_ksat, satisfies};
use cove_sat::{Lit, SolveResult, Solver, Var};

fn random_assumptions(rng: &mut Rng, n: usize, k: usize) -> Vec<Lit> {
    (0..k)
        .map(|_| Lit::new(Var(rng.below_u64(n as u64) as u32), rng.flip()))
        .collect()
}

/// Checks one answer under assumptions, independently of the solver that produced it.
fn check_answer(s: &Solver, r: SolveResult, clauses: &[Vec<Lit>], assumptions: &[Lit], n: usize) {
    match r {
        SolveResult::Sat => {
            let m = s.model();
            assert!(satisfies(&m, clauses), "model falsifies a clause");
            assert!(
                assumptions.iter().all(|&a| lit_true(&m, a)),
                "model violates an assumption"
            );
        }
        SolveResult::Unsat => {
            let core = s.failed_assumptions().to_vec();
            assert!(
                core.iter().all(|l| assumptions.contains(l)),
                "core {core:?} not assumed"
            );
            // Re-check the core with a fresh solver ...
            let mut fresh = Solver::new();
            for c in clauses {
                fresh.add_clause(c);
            }
            assert_eq!(
                fresh.solve(&core),
                SolveResult::Unsat,
                "core {core:?} is satisfiable"
            );
            // ... and by brute force when small.
            if n <= 16 {
                let found = brute_force(n, clauses, |m| core.iter().all(|&a| lit_true(m, a)));
                assert!(found.is_none(), "brute force satisfies the core {core:?}");
            }
        }
        SolveResult::Unknown => panic!("unknown without limits"),
    }
}

#[test]
fn assumptions_and_cores_small() {
    let mut rng = Rng::new(common::seed(11));
    for _ in 0..60 * common::scale() {
        let n = 8 + rng.below_u64(8) as usize;
        let clauses = random_ksat(&mut rng, n, (n as f64 * 3.0) as usize, 3);
        let mut s = Solver::new();
        for c in &clauses {
            s.add_clause(c);
        }
        let base = brute_force(n, &clauses, |_| true).is_some();
        for _ in 0..15 {
            let k = 1 + rng.below_u64(6) as usize;
            let a = random_assumptions(&mut rng, n, k);
            let r = s.solve(&a);
            let expected = brute_force(n, &clauses, |m| a.iter().all(|&x| lit_true(m, x)));
            assert_eq!(
                r == SolveResult::Sat,
                expected.is_some(),
                "assumptions {a:?}"
            );
            check_answer(&s, r, &clauses, &a, n);
            if !base {
                assert!(s.failed_assumptions().is_empty() || r == SolveResult::Unsat);
            }
        }
    }
}

#[test]
fn clauses_added_between_solves() {
    let mut rng = Rng::new(common::seed(5));
    for _ in 0..40 * common::scale() {
        let n = 10 + rng.below_u64(6) as usize;
        let mut s = Solver::new();
        let mut clauses: Vec<Vec<Lit>> = Vec::new();
        for step in 0..25 {
            let new = random_ksat(&mut rng, n, 3, 2 + (step % 3));
            for c in &new {
                s.add_clause(c);
            }
            clauses.extend(new);
            let k = rng.below_u64(3) as usize;
            let a = random_assumptions(&mut rng, n, k);
            let r = s.solve(&a);
            let expected = brute_force(n, &clauses, |m| a.iter().all(|&x| lit_true(m, x)));
            assert_eq!(r == SolveResult::Sat, expected.is_some(), "step {step}");
            check_answer(&s, r, &clauses, &a, n);
            assert_eq!(s.check_invariants(), Ok(()));
            if !s.is_ok() {
                assert!(brute_force(n, &clauses, |_| true).is_none());
                break;
            }
        }
    }
}

#[test]
fn assumptions_on_medium_instances_keep_learnt_clauses() {
    let mut rng = Rng::new(common::seed(99));
    let n = 120;
    let clauses = random_ksat(&mut rng, n, (n as f64 * 3.9) as usize, 3);
    let mut s = Solver::new();
    for c in &clauses {
        s.add_clause(c);
    }
    let mut unsat = 0;
    for _ in 0..40 {
        let a = random_assumptions(&mut rng, n, 12);
        let r = s.solve(&a);
        check_answer(&s, r, &clauses, &a, n);
        unsat += usize::from(r == SolveResult::Unsat);
    }
    assert!(unsat > 0);
    assert!(s.stats().solves == 40 && s.stats().conflicts > 0);
}

#[test]
fn contradictory_and_duplicate_assumptions() {
    let mut s = Solver::new();
    let a = s.new_var();
    let b = s.new_var();
    s.add_clause(&[Lit::new(a, false), Lit::new(b, false)]);
    let pa = Lit::new(a, false);
    assert_eq!(s.solve(&[pa, pa, !pa]), SolveResult::Unsat);
    let mut core = s.failed_assumptions().to_vec();
    core.sort();
    assert_eq!(core, vec![pa, !pa]);
    assert_eq!(s.solve(&[pa, pa]), SolveResult::Sat);
    // Assumption on a variable that does not exist yet is created on the fly.
    let c = Lit::new(Var(5), true);
    assert_eq!(s.solve(&[c]), SolveResult::Sat);
    assert_eq!(s.num_vars(), 6);
    // A level-0 fact contradicting an assumption gives a core of just that assumption.
    s.add_clause(&[Lit::new(b, true)]);
    assert_eq!(s.solve(&[c, Lit::new(b, false)]), SolveResult::Unsat);
    assert_eq!(s.failed_assumptions(), &[Lit::new(b, false)]);
}
