//! Random 3-SAT near the satisfiability threshold: every Sat model is checked against all
//! clauses, every Unsat on small instances is re-checked by brute-force enumeration.

mod common;

use common::{Rng, brute_force, random_ksat, satisfies};
use cove_sat::{Config, LBool, Lit, RestartPolicy, SolveResult, Solver};

fn configs() -> Vec<Config> {
    let mut eager = Config::default();
    eager.restarts = RestartPolicy::Luby;
    eager.min_learnts = 10.0;
    eager.learnts_factor = 0.05;
    eager.luby_unit = 8;
    let mut luby = Config::default();
    luby.restarts = RestartPolicy::Luby;
    luby.min_learnts = 50.0;
    vec![Config::default(), eager, luby]
}

fn solve(clauses: &[Vec<Lit>], n: usize, cfg: Config) -> (SolveResult, Vec<bool>) {
    let mut s = Solver::with_config(cfg);
    for _ in 0..n {
        s.new_var();
    }
    for c in clauses {
        s.add_clause(c);
    }
    let r = s.solve(&[]);
    assert_eq!(s.check_invariants(), Ok(()));
    if r == SolveResult::Sat {
        let m = s.model();
        for (v, &b) in m.iter().enumerate().take(n) {
            let l = Lit::new(cove_sat::Var(v as u32), false);
            assert_eq!(s.value(l), LBool::from_bool(b));
        }
    }
    (r, s.model())
}

#[test]
fn small_instances_agree_with_brute_force() {
    let mut rng = Rng::new(common::seed(1));
    let (mut sat, mut unsat) = (0, 0);
    for round in 0..400 * common::scale() {
        let n = 3 + rng.below_u64(14) as usize;
        let m = (n as f64 * (3.5 + rng.below_u64(20) as f64 / 10.0)) as usize;
        let clauses = random_ksat(&mut rng, n, m, 3.min(n));
        let expected = brute_force(n, &clauses, |_| true).is_some();
        let cfg = configs()[round % 3].clone();
        let (r, model) = solve(&clauses, n, cfg);
        match r {
            SolveResult::Sat => {
                assert!(satisfies(&model, &clauses), "round {round}: bad model");
                sat += 1;
            }
            SolveResult::Unsat => {
                assert!(
                    !expected,
                    "round {round}: claimed unsat but brute force found a model"
                );
                unsat += 1;
            }
            SolveResult::Unknown => panic!("unknown without limits"),
        }
        assert_eq!(r == SolveResult::Sat, expected, "round {round}");
    }
    assert!(sat > 50 && unsat > 50, "sat {sat} unsat {unsat}");
}

#[test]
fn mixed_width_clauses_with_units_and_binaries() {
    let mut rng = Rng::new(common::seed(7));
    for round in 0..300 * common::scale() {
        let n = 2 + rng.below_u64(12) as usize;
        let mut clauses = Vec::new();
        for _ in 0..(n * 3) {
            let k = 1 + rng.below_u64(4.min(n as u64)) as usize;
            clauses.extend(random_ksat(&mut rng, n, 1, k));
        }
        let expected = brute_force(n, &clauses, |_| true).is_some();
        let (r, model) = solve(&clauses, n, configs()[round % 3].clone());
        assert_eq!(r == SolveResult::Sat, expected, "round {round}");
        if r == SolveResult::Sat {
            assert!(satisfies(&model, &clauses));
        }
    }
}

#[test]
fn medium_instances_models_check_and_configs_agree() {
    let mut rng = Rng::new(common::seed(42));
    for round in 0..12 * common::scale() {
        let n = 60 + 10 * (round % 5);
        let m = (n as f64 * 4.26) as usize;
        let clauses = random_ksat(&mut rng, n, m, 3);
        let mut answers = Vec::new();
        for cfg in configs() {
            let (r, model) = solve(&clauses, n, cfg);
            if r == SolveResult::Sat {
                assert!(satisfies(&model, &clauses), "round {round}");
            }
            assert_ne!(r, SolveResult::Unknown);
            answers.push(r);
        }
        assert!(
            answers.iter().all(|&a| a == answers[0]),
            "round {round}: {answers:?}"
        );
    }
}

#[test]
fn conflict_limit_gives_unknown_and_solver_stays_usable() {
    let mut rng = Rng::new(3);
    let n = 150;
    let clauses = random_ksat(&mut rng, n, (n as f64 * 4.26) as usize, 3);
    let mut s = Solver::new();
    for c in &clauses {
        s.add_clause(c);
    }
    let limits = cove_sat::Limits {
        conflicts: Some(5),
        ..Default::default()
    };
    let r = s.solve_limited(&[], &mut cove_sat::NoTheory, &limits);
    assert_eq!(r, SolveResult::Unknown);
    let control = cove_control::Control::new();
    control.stop();
    let limits = cove_sat::Limits::of(&control);
    // An already-set interrupt stops at the first check (a conflict or the final check).
    assert_eq!(
        s.solve_limited(&[], &mut cove_sat::NoTheory, &limits),
        SolveResult::Unknown
    );
    let past = cove_sat::Limits::of(&cove_control::Control {
        deadline: Some(std::time::Instant::now()),
        ..Default::default()
    });
    // A deadline in the past stops at the first check (every 16 conflicts or the final check).
    let r = s.solve_limited(&[], &mut cove_sat::NoTheory, &past);
    assert_eq!(r, SolveResult::Unknown);
    let r = s.solve(&[]);
    assert_ne!(r, SolveResult::Unknown);
    if r == SolveResult::Sat {
        assert!(satisfies(&s.model(), &clauses));
    }
}
