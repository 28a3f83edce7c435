//! Random formulas: every `sat` model is evaluated against the input, every `unsat` is
//! re-checked (brute force over a box for small LIA; otherwise the unsat core of the
//! conjuncts is re-solved as unsat by a fresh solver after a different preprocessing).

use cove_logic::{Op, Sort, TermId, TermStore, Value};
use cove_smt::{SmtResult, SmtSolver};

mod common;
use common::{GenConfig, brute_force, generate};

/// Asserts that the model of `s` (which answered sat) makes `formula` true.
fn assert_model_satisfies(store: &TermStore, s: &SmtSolver, formula: TermId, case: usize) {
    let m = s.model(store);
    assert!(
        matches!(m.eval(store, formula), Ok(Value::Bool(true))),
        "case {case}: model does not satisfy"
    );
}

#[test]
fn small_lia_against_brute_force() {
    let mut rng = common::rng(1);
    let (mut sat, mut unsat) = (0, 0);
    for i in 0..300 {
        let mut store = TermStore::new();
        let mut cfg = GenConfig::random(&mut rng, true);
        cfg.vars = cfg.vars.min(3);
        cfg.bools = cfg.bools.min(2);
        cfg.box_bound = Some(4);
        let g = generate(&mut store, &mut rng, &cfg);
        let mut s = SmtSolver::new();
        s.assert(&mut store, g.formula);
        let r = s.check(&mut store);
        let bf = brute_force(&store, g.formula, &g.vars, &g.bools, 4);
        match r {
            SmtResult::Sat => {
                assert_model_satisfies(&store, &s, g.formula, i);
                sat += 1;
            }
            SmtResult::Unsat => {
                assert!(
                    bf.is_none(),
                    "case {i}: unsat but brute force found a model"
                );
                unsat += 1;
            }
            SmtResult::Unknown(r) => panic!("case {i}: unknown {r:?}"),
        }
        if bf.is_some() {
            assert_eq!(r, SmtResult::Sat, "case {i}");
        }
    }
    assert!(sat > 30 && unsat > 30, "sat {sat} unsat {unsat}");
}

fn check_family(int: bool, seed: u64, n: usize) {
    let mut rng = common::rng(seed);
    let (mut sat, mut unsat, mut unknown) = (0, 0, 0);
    for i in 0..n {
        let mut store = TermStore::new();
        let mut cfg = GenConfig::random(&mut rng, int);
        cfg.coef = cfg.coef.min(10);
        let g = generate(&mut store, &mut rng, &cfg);
        let conj = store.conjuncts(g.formula);
        let mut s = SmtSolver::new();
        s.set_limits(cove_sat::Limits {
            conflicts: Some(20_000),
            ..Default::default()
        });
        // Conjuncts as assumptions, to get a core.
        let r = s.check_assuming(&mut store, &conj);
        match r {
            SmtResult::Sat => {
                assert_model_satisfies(&store, &s, g.formula, i);
                sat += 1;
            }
            SmtResult::Unsat => {
                let core = s.unsat_core();
                assert!(core.iter().all(|c| conj.contains(c)));
                // Re-solve the core as plain assertions with a fresh solver, each conjunct
                // wrapped in a double negation pushed through an `ite` (different encoding).
                let mut s2 = SmtSolver::new();
                for &c in &core {
                    let t = store.mk_true();
                    let f = store.mk_false();
                    let w = store.mk_raw(Op::Ite, &[c, t, f], Sort::Bool);
                    s2.assert(&mut store, w);
                }
                assert_eq!(
                    s2.check(&mut store),
                    SmtResult::Unsat,
                    "case {i}: core is not unsat"
                );
                unsat += 1;
            }
            SmtResult::Unknown(_) => unknown += 1,
        }
    }
    assert!(unknown <= n / 100, "{unknown} unknown answers");
    assert!(sat > n / 10 && unsat > n / 10, "sat {sat} unsat {unsat}");
}

#[test]
fn random_lra_models_and_cores() {
    check_family(false, 7, 300);
}

#[test]
fn random_lia_models_and_cores() {
    check_family(true, 11, 300);
}
