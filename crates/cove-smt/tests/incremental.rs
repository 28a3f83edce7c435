//! Random push/pop/assert/check-assuming sequences: every answer of the incremental solver
//! must equal the answer of a fresh solver given the currently active assertions, models
//! must satisfy them, and cores must be unsat on their own.

use cove_logic::{TermId, TermStore, Value};
use cove_smt::{SmtResult, SmtSolver};

mod common;
use common::{GenConfig, generate};

#[test]
fn random_incremental_sequences_match_fresh_solvers() {
    let mut rng = common::rng(99);
    for round in 0..40 {
        let mut store = TermStore::new();
        let int = round % 2 == 0;
        let mut s = SmtSolver::new();
        let mut frames: Vec<Vec<TermId>> = vec![Vec::new()];
        for step in 0..30 {
            match rng.below(6) {
                0 => {
                    s.push();
                    frames.push(Vec::new());
                }
                1 if frames.len() > 1 => {
                    let n = 1 + rng.below(frames.len() - 1);
                    s.pop(n);
                    frames.truncate(frames.len() - n);
                }
                2 | 3 => {
                    let mut cfg = GenConfig::random(&mut rng, int);
                    cfg.vars = 3;
                    cfg.conjuncts = 1;
                    cfg.coef = 5;
                    let g = generate(&mut store, &mut rng, &cfg);
                    s.assert(&mut store, g.formula);
                    frames.last_mut().unwrap().push(g.formula);
                }
                _ => {
                    let mut cfg = GenConfig::random(&mut rng, int);
                    cfg.vars = 3;
                    cfg.coef = 5;
                    let assumptions: Vec<TermId> = (0..rng.range(0, 3))
                        .map(|_| generate(&mut store, &mut rng, &cfg).formula)
                        .collect();
                    let r = s.check_assuming(&mut store, &assumptions);
                    let active: Vec<TermId> = frames.iter().flatten().copied().collect();
                    let mut fresh = SmtSolver::new();
                    for &t in active.iter().chain(&assumptions) {
                        fresh.assert(&mut store, t);
                    }
                    let expected = fresh.check(&mut store);
                    assert_eq!(r, expected, "round {round} step {step}");
                    match r {
                        SmtResult::Sat => {
                            let m = s.model(&store);
                            for &t in active.iter().chain(&assumptions) {
                                assert_eq!(
                                    m.eval(&store, t),
                                    Ok(Value::Bool(true)),
                                    "round {round} step {step}"
                                );
                            }
                        }
                        SmtResult::Unsat => {
                            let core = s.unsat_core();
                            let mut c = SmtSolver::new();
                            for &t in active.iter().chain(&core) {
                                c.assert(&mut store, t);
                            }
                            assert_eq!(
                                c.check(&mut store),
                                SmtResult::Unsat,
                                "round {round} step {step}: core"
                            );
                        }
                        SmtResult::Unknown(u) => panic!("unknown {u:?}"),
                    }
                }
            }
        }
    }
}

/// `to_smtlib` writes what a check decides: after random pushes, pops, plain and guarded
/// assertions, the script of the active assertions and the check's assumptions, read back
/// into a fresh store and solver, gets the same answer.
#[test]
fn scripts_of_checks_decide_as_the_checks() {
    use cove_logic::Sort;
    use cove_logic::smtlib::parse_script;
    let mut rng = common::rng(7);
    let mut checked = 0;
    for round in 0..20 {
        let mut store = TermStore::new();
        let int = round % 2 == 0;
        let mut s = SmtSolver::new();
        let guards: Vec<TermId> = (0..2)
            .map(|i| {
                let v = store.var(&format!("g{i}"), Sort::Bool);
                store.mk_var(v)
            })
            .collect();
        for step in 0..12 {
            let mut cfg = GenConfig::random(&mut rng, int);
            cfg.vars = 3;
            cfg.coef = 5;
            match rng.below(5) {
                0 => s.push(),
                1 if s.num_frames() > 0 => s.pop(1),
                2 => {
                    cfg.conjuncts = 1;
                    let g = generate(&mut store, &mut rng, &cfg);
                    s.assert(&mut store, g.formula);
                }
                3 => {
                    cfg.conjuncts = 1;
                    let g = generate(&mut store, &mut rng, &cfg);
                    let guard = guards[rng.below(2)];
                    s.assert_guarded(&mut store, &[guard], g.formula);
                }
                _ => {
                    let mut assumptions: Vec<TermId> = (0..rng.range(0, 2))
                        .map(|_| generate(&mut store, &mut rng, &cfg).formula)
                        .collect();
                    assumptions.push(guards[rng.below(2)]);
                    let r = s.check_assuming(&mut store, &assumptions);
                    let text = s.to_smtlib(&store, &assumptions);
                    let mut fresh_store = TermStore::new();
                    let script = parse_script(text.as_bytes(), &mut fresh_store)
                        .unwrap_or_else(|e| panic!("round {round} step {step}: {e:?}\n{text}"));
                    let mut fresh = SmtSolver::new();
                    for t in script.assertions() {
                        fresh.assert(&mut fresh_store, t);
                    }
                    assert_eq!(
                        fresh.check(&mut fresh_store),
                        r,
                        "round {round} step {step}:\n{text}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked >= 20, "{checked} checks");
}
