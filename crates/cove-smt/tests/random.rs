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

/// Theory propagation settings under test: the default (row propagation on), row
/// propagation explicitly on without chaining, and with chaining through atom-less
/// variables.
#[derive(Clone, Copy)]
enum Prop {
    Default,
    Rows,
    Chain,
}

fn solver(prop: Prop) -> SmtSolver {
    let mut s = SmtSolver::new();
    match prop {
        Prop::Default => {}
        Prop::Rows => {
            s.set_row_propagation(true);
            s.set_bound_chaining(0);
        }
        Prop::Chain => {
            s.set_row_propagation(true);
            s.set_bound_chaining(4);
        }
    }
    s
}

#[test]
fn small_lia_against_brute_force() {
    small_lia_family(1, Prop::Default);
}

#[test]
fn small_lia_against_brute_force_row_propagation() {
    small_lia_family(2, Prop::Rows);
    small_lia_family(3, Prop::Chain);
}

fn small_lia_family(seed: u64, prop: Prop) {
    let mut rng = common::rng(seed);
    let (mut sat, mut unsat) = (0, 0);
    for i in 0..300 {
        let mut store = TermStore::new();
        let mut cfg = GenConfig::random(&mut rng, true);
        cfg.vars = cfg.vars.min(3);
        cfg.bools = cfg.bools.min(2);
        cfg.box_bound = Some(4);
        let g = generate(&mut store, &mut rng, &cfg);
        let mut s = solver(prop);
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

fn check_family(int: bool, seed: u64, n: usize, prop: Prop) {
    let mut rng = common::rng(seed);
    let (mut sat, mut unsat, mut unknown) = (0, 0, 0);
    let mut derived = 0;
    for i in 0..n {
        let mut store = TermStore::new();
        let mut cfg = GenConfig::random(&mut rng, int);
        cfg.coef = cfg.coef.min(10);
        let g = generate(&mut store, &mut rng, &cfg);
        let conj = store.conjuncts(g.formula);
        let mut s = solver(prop);
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
                // (Row propagation off: a different search from the default.)
                let mut s2 = SmtSolver::new();
                s2.set_row_propagation(false);
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
        derived += s.stats().derived_bounds;
    }
    if matches!(prop, Prop::Chain) {
        assert!(derived > 0, "chaining never derived a bound");
    }
    assert!(unknown <= n / 100, "{unknown} unknown answers");
    assert!(sat > n / 10 && unsat > n / 10, "sat {sat} unsat {unsat}");
}

#[test]
fn random_lra_models_and_cores() {
    check_family(false, 7, 300, Prop::Default);
}

#[test]
fn random_lra_models_and_cores_row_propagation() {
    check_family(false, 17, 150, Prop::Rows);
    check_family(false, 27, 150, Prop::Chain);
}

#[test]
fn random_lia_models_and_cores_row_propagation() {
    check_family(true, 21, 150, Prop::Rows);
    check_family(true, 31, 150, Prop::Chain);
}

#[test]
fn random_lia_models_and_cores() {
    check_family(true, 11, 300, Prop::Default);
}
