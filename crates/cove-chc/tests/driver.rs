//! The driver's policy: one answer per question, validated certificates, limits and
//! interruption honoured, the portfolio reporting its winner.

use cove_chc::driver::{EngineChoice, Phase, SolveConfig, Validation, solve};
use cove_chc::engines::clause_terms::TermsConfig;
use cove_chc::engines::spacer::SpacerConfig;
use cove_chc::frontend::parse_queries;
use cove_chc::{ChcResult, Control, UnknownReason};
use cove_logic::TermStore;
use std::time::{Duration, Instant};

const COUNTER: &str = "(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (inv x y))))
(assert (forall ((x Int) (y Int)) (=> (inv x y) (inv (+ x 1) (+ y 1)))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (not (= x y))) false)))
(check-sat)
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (= x 5)) false)))
(check-sat)";

fn run(cfg: &SolveConfig, ctl: &Control) -> Vec<cove_chc::driver::Outcome> {
    let mut store = TermStore::new();
    let qs = parse_queries(COUNTER.as_bytes(), &mut store, &Control::default()).unwrap();
    qs.iter().map(|q| solve(&store, q, cfg, ctl)).collect()
}

#[test]
fn portfolio_and_single_engines_agree_with_checked_certificates() {
    for engine in [
        EngineChoice::Portfolio,
        EngineChoice::One(SpacerConfig::default().into()),
    ] {
        for (threads, share) in [(1, false), (2, false), (3, false), (2, true), (3, true)] {
            let cfg = SolveConfig {
                engine: engine.clone(),
                threads,
                share,
                ..SolveConfig::default()
            };
            let outs = run(
                &cfg,
                &Control::default().with_timeout(Duration::from_secs(30)),
            );
            assert!(
                matches!(outs[0].answer, ChcResult::Sat(_)),
                "{engine:?}/{threads}"
            );
            assert!(
                matches!(outs[1].answer, ChcResult::Unsat(_)),
                "{engine:?}/{threads}"
            );
            for o in &outs {
                assert_eq!(o.validation, Validation::Valid);
                assert!(!o.engine.is_empty());
            }
        }
    }
}

/// Solves the first query of the file at `path` with `cfg` (30 s) and asserts a `sat` answer
/// whose certificate the driver validated against the input system.
fn assert_proved(path: &str, cfg: &SolveConfig) {
    let src = std::fs::read(path).unwrap();
    let mut store = TermStore::new();
    let q = parse_queries(&src, &mut store, &Control::default())
        .unwrap()
        .remove(0);
    let out = solve(
        &store,
        &q,
        cfg,
        &Control::default().with_timeout(Duration::from_secs(30)),
    );
    assert!(
        matches!(out.answer, ChcResult::Sat(_)),
        "{}: {:?}",
        out.engine,
        out.answer
    );
    assert_eq!(out.validation, Validation::Valid);
}

/// The swing loop of the corpus needs a bound no query mentions: the portfolio's engines
/// that take the inductive bounds (`preprocess::bounds`) prove it, and the certificate,
/// with the bounds conjoined, checks against the input system.
#[test]
fn the_portfolio_proves_what_needs_the_inductive_bounds() {
    assert_proved(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/corpus/swing-bounds-safe.smt2"
        ),
        &two_thread_portfolio(),
    );
}

/// The default portfolio on two threads: a race, whatever the machine's core count.
fn two_thread_portfolio() -> SolveConfig {
    SolveConfig {
        threads: 2,
        ..SolveConfig::default()
    }
}

/// Two loops related only through `div` terms of the clauses: the Houdini engine over the
/// clauses' own terms (`engines::clause_terms`) proves it through the whole pipeline
/// (preprocessing, bounds, back-translation), and its certificate checks against the input.
#[test]
fn houdini_over_the_clauses_terms_proves_a_div_relation() {
    let cfg = SolveConfig {
        engine: EngineChoice::One(TermsConfig::default().into()),
        ..SolveConfig::default()
    };
    assert_proved(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/div-phases-safe.smt2"
        ),
        &cfg,
    );
}

#[test]
fn an_interrupted_run_answers_unknown_at_once() {
    let ctl = Control::default();
    ctl.stop();
    // Reading polls the control too.
    let mut store = TermStore::new();
    let e = parse_queries(COUNTER.as_bytes(), &mut store, &ctl).unwrap_err();
    assert_eq!(e.kind, cove_chc::frontend::ErrorKind::Limit);
    let start = Instant::now();
    let outs = run(&SolveConfig::default(), &ctl);
    assert!(start.elapsed() < Duration::from_secs(2));
    for o in outs {
        assert!(matches!(
            o.answer,
            ChcResult::Unknown(UnknownReason::Interrupted)
        ));
        assert!(o.phase.is_some());
    }
}

#[test]
fn unchecked_answers_say_so() {
    let cfg = SolveConfig {
        validate: false,
        engine: EngineChoice::One(SpacerConfig::default().into()),
        ..SolveConfig::default()
    };
    let outs = run(&cfg, &Control::default());
    assert_eq!(outs[0].validation, Validation::Skipped);
    assert_eq!(outs[0].phase, None);
    let _ = Phase::Validation;
}

/// A Solidity SMTChecker system (CHC-COMP `solidity/no_adts`, `msg_value_1.sol`) whose
/// preprocessed form is proved at once, but whose invariant does not translate back: the
/// inlined predicate's invariant keeps an array variable under `select`, which quantifier
/// elimination cannot remove. The portfolio entry that hit this solves the input system
/// itself on its thread; before, the race waited for BMC, which never ends on a safe
/// system, and answered `unknown` at the limit.
#[test]
fn a_witness_that_does_not_translate_back_falls_back_to_the_input_at_once() {
    assert_proved(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/solidity-msg-value-inlined-arrays.smt2"
        ),
        &two_thread_portfolio(),
    );
}
