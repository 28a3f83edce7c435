//! The transition-system engines (k-induction, PD-KIND) on small systems with known answers,
//! and on the regression corpus: every answer must be the expected one and carry a
//! certificate the independent checker accepts.

use cove_chc::cert::{check_derivation, check_invariants};
use cove_chc::engines::EngineConfig;
use cove_chc::frontend::parse_chc;
use cove_chc::preprocess::{PreprocessConfig, solve_preprocessed};
use cove_chc::{ChcResult, Control, UnknownReason};
use cove_logic::TermStore;

mod common;

const ENGINES: &[&str] = &["kind", "pdkind"];

/// Solves `src` with engine `name` (with or without preprocessing) and checks the certificate.
fn solve(name: &str, src: &str, pre: bool, work: u64) -> ChcResult {
    let mut store = TermStore::new();
    let sys = parse_chc(src.as_bytes(), &mut store).expect("parses");
    let ctl = common::work_control(work);
    let mut engine = EngineConfig::parse(name).expect("engine").create();
    let opts = if pre {
        PreprocessConfig::default()
    } else {
        PreprocessConfig::none()
    };
    let r = solve_preprocessed(&mut store, &sys, &opts, engine.as_mut(), &ctl);
    common::report_work(&ctl, work, &format!("{name} pre={pre}"), r.verdict());
    match &r {
        ChcResult::Sat(inv) => check_invariants(&mut store, &sys, inv, &Control::default())
            .unwrap_or_else(|e| panic!("{name}: bad invariant: {e}")),
        ChcResult::Unsat(d) => check_derivation(&store, &sys, d)
            .unwrap_or_else(|e| panic!("{name}: bad derivation: {e}")),
        ChcResult::Unknown(_) => {}
    }
    r
}

fn verdict(name: &str, src: &str) -> &'static str {
    let a = solve(name, src, false, 20_000).verdict();
    let b = solve(name, src, true, 20_000).verdict();
    assert_eq!(a, b, "{name}: preprocessing changes the answer");
    a
}

/// A shift register `a → b → c` fed with 0: `c = 0` is 3-inductive, not 1-inductive.
const SHIFT: &str = "(set-logic HORN) (declare-fun r (Int Int Int) Bool)
  (assert (forall ((a Int) (b Int) (c Int)) (=> (and (= a 0) (= b 0) (= c 0)) (r a b c))))
  (assert (forall ((a Int) (b Int) (c Int)) (=> (r a b c) (r 0 a b))))
  (assert (forall ((a Int) (b Int) (c Int)) (=> (and (r a b c) (not (= c 0))) false)))";

/// Safe only by backward induction: `x ≥ 0` initially, `x` only grows, bad is `x = -1`.
const BACKWARD: &str = "(set-logic HORN) (declare-fun p (Int) Bool)
  (assert (forall ((x Int)) (=> (>= x 0) (p x))))
  (assert (forall ((x Int)) (=> (p x) (p (+ x 1)))))
  (assert (forall ((x Int)) (=> (and (p x) (= x (- 1))) false)))";

/// Unsafe at depth 12, with a real-valued step.
const DEEP: &str = "(set-logic HORN) (declare-fun p (Real Real) Bool)
  (assert (forall ((x Real) (y Real)) (=> (and (= x 0.0) (= y 0.0)) (p x y))))
  (assert (forall ((x Real) (y Real)) (=> (and (p x y) (< x 6.0)) (p (+ x 0.5) (- y 1.0)))))
  (assert (forall ((x Real) (y Real)) (=> (and (p x y) (>= x 6.0) (<= y (- 12.0))) false)))";

/// Two predicates with a loop each.
const TWO_LOOPS: &str = "(set-logic HORN)
  (declare-fun p (Int Int) Bool) (declare-fun q (Int Int) Bool)
  (assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (p x y))))
  (assert (forall ((x Int) (y Int)) (=> (and (p x y) (< x 10)) (p (+ x 1) (+ y 1)))))
  (assert (forall ((x Int) (y Int)) (=> (and (p x y) (>= x 10)) (q x y))))
  (assert (forall ((x Int) (y Int)) (=> (and (q x y) (> x 0)) (q (- x 1) (- y 1)))))
  (assert (forall ((x Int) (y Int)) (=> (and (q x y) (not (= x y))) false)))";

#[test]
fn k_inductive_invariant_is_certified() {
    assert_eq!(verdict("kind", SHIFT), "sat");
}

/// A shift register of five cells fed with 0, beside a counter: `e = 0` is 5-inductive, not
/// 4-inductive, and the counter keeps backward induction from proving it (the initial states
/// have successors that are not initial).
const SHIFT5: &str = "(set-logic HORN) (declare-fun r (Int Int Int Int Int Int) Bool)
  (assert (forall ((a Int) (b Int) (c Int) (d Int) (e Int) (x Int))
    (=> (and (= a 0) (= b 0) (= c 0) (= d 0) (= e 0) (= x 0)) (r a b c d e x))))
  (assert (forall ((a Int) (b Int) (c Int) (d Int) (e Int) (x Int))
    (=> (r a b c d e x) (r 0 a b c d (+ x 1)))))
  (assert (forall ((a Int) (b Int) (c Int) (d Int) (e Int) (x Int))
    (=> (and (r a b c d e x) (not (= e 0))) false)))";

/// The balanced schedule of the induction checks (docs/decisions.md#kind-deferred-induction)
/// may defer checks, but makes every one that is left at `max_k`: with the bound at the
/// smallest `k` that proves the property, the proof comes at exactly that `k`, balanced or not,
/// and the certificate checks.
#[test]
fn balanced_induction_still_checks_the_last_bound() {
    use cove_chc::engine::BuildEngine;
    use cove_chc::engines::kind::KindConfig;
    for balance in [true, false] {
        let mut store = TermStore::new();
        let sys = parse_chc(SHIFT5.as_bytes(), &mut store).expect("parses");
        let ctl = common::work_control(20_000);
        let cfg = KindConfig {
            max_k: Some(4),
            balance,
            ..KindConfig::default()
        };
        let mut engine = cfg.create();
        let r = engine.solve(&mut store, &sys, &ctl);
        common::report_work(
            &ctl,
            20_000,
            &format!("kind balance={balance}"),
            r.verdict(),
        );
        let ChcResult::Sat(inv) = &r else {
            panic!("balance={balance}: {r:?}");
        };
        check_invariants(&mut store, &sys, inv, &Control::default()).expect("certificate");
        let stats = engine.stats();
        let proof = stats.iter().find(|(k, _)| k == "kind-proof");
        assert_eq!(
            proof.map(|(_, v)| v.as_str()),
            Some("forward, k = 5"),
            "balance={balance}: {stats:?}"
        );
    }
}

#[test]
fn backward_induction_is_certified() {
    assert_eq!(verdict("kind", BACKWARD), "sat");
}

#[test]
fn counterexamples_are_derivations() {
    for e in ENGINES {
        assert_eq!(verdict(e, DEEP), "unsat", "{e}");
        let unsafe_two = TWO_LOOPS.replace("(not (= x y))", "(= x 0) (= y 0) (> x (- 1))");
        assert_eq!(verdict(e, &unsafe_two), "unsat", "{e}");
    }
}

/// Unsafe from depth 7 on, with a bad condition over a local variable `z` of the query: the
/// base check of k-induction assumes the negated bad condition of the frames it has
/// already checked (docs/decisions.md#kind-base-assumes-the-property), and must still find
/// the counterexample, at its shortest length, as a derivation the checker accepts.
const BAD_PERSISTS: &str = "(set-logic HORN) (declare-fun p (Real) Bool)
  (assert (forall ((x Real)) (=> (= x 0.0) (p x))))
  (assert (forall ((x Real)) (=> (p x) (p (+ x 1.0)))))
  (assert (forall ((x Real) (z Real)) (=> (and (p x) (< z x) (> z 6.5)) false)))";

#[test]
fn counterexamples_past_checked_depths_are_derivations() {
    for e in ENGINES {
        assert_eq!(verdict(e, BAD_PERSISTS), "unsat", "{e}");
    }
}

#[test]
fn multi_predicate_safe() {
    for e in ENGINES {
        assert_eq!(verdict(e, TWO_LOOPS), "sat", "{e}");
    }
}

#[test]
fn nonlinear_is_unsupported_quickly() {
    let src = "(set-logic HORN) (declare-fun p (Int) Bool)
      (assert (forall ((x Int)) (=> (= x 0) (p x))))
      (assert (forall ((x Int) (y Int)) (=> (and (p x) (p y)) (p (+ x y)))))
      (assert (forall ((x Int)) (=> (and (p x) (< x 0)) false)))";
    for e in ENGINES {
        let r = solve(e, src, false, 20_000);
        assert!(
            matches!(r, ChcResult::Unknown(UnknownReason::Unsupported(_))),
            "{e}: {r:?}"
        );
    }
}

#[test]
fn corpus_answers_are_right() {
    let mut solved = 0;
    for path in common::corpus_files() {
        let src = std::fs::read_to_string(&path).unwrap();
        let want = if src.contains("; expect: sat") {
            "sat"
        } else {
            "unsat"
        };
        for e in ENGINES {
            // Decided corpus files take ≤ 310 units; the rest may end unknown.
            let got = solve(e, &src, true, 2_000).verdict();
            if got != "unknown" {
                assert_eq!(got, want, "{e} on {}", path.display());
                solved += 1;
            }
        }
    }
    assert!(solved >= 8, "only {solved} corpus answers");
}

#[test]
fn pdkind_proves_k_inductive_properties() {
    assert_eq!(verdict("pdkind", SHIFT), "sat");
    assert_eq!(verdict("pdkind", BACKWARD), "sat");
}

/// k-induction with the options of `spec` (`kind:max-k=5`), run on `src` under a work cap:
/// the engine (for its resume words), the store and system, and the answer, whose
/// certificate is checked here.
fn kind_run(spec: &str, src: &str) -> (Box<dyn cove_chc::Engine>, TermStore, ChcResult) {
    let mut store = TermStore::new();
    let sys = parse_chc(src.as_bytes(), &mut store).expect("parses");
    let ctl = common::work_control(20_000);
    let mut engine = EngineConfig::parse(spec).expect("engine").create();
    let r = engine.solve(&mut store, &sys, &ctl);
    match &r {
        ChcResult::Sat(inv) => check_invariants(&mut store, &sys, inv, &Control::default())
            .unwrap_or_else(|e| panic!("{spec}: bad invariant: {e}")),
        ChcResult::Unsat(d) => check_derivation(&store, &sys, d)
            .unwrap_or_else(|e| panic!("{spec}: bad derivation: {e}")),
        ChcResult::Unknown(_) => {}
    }
    (engine, store, r)
}

/// A k-induction run stopped at a bound says where a fresh run may continue
/// (`Engine::resume`, as the portfolio's rounds use it), and the run resumed there reaches
/// the same answer as one from scratch, certified: the counterexample of `DEEP` at its
/// depth 12.
#[test]
fn kind_resumes_where_it_stopped() {
    let (first, _, r) = kind_run("kind:max-k=5", DEEP);
    assert_eq!(r.verdict(), "unknown");
    let words = first.resume().expect("a resume point");
    assert_eq!(words, "from=6", "every check up to bound 5 was made");
    // A turn that stops before it gets past its resume point hands on that point.
    let (short, _, r) = kind_run("kind:from=6,max-k=3", DEEP);
    assert_eq!(r.verdict(), "unknown");
    assert_eq!(short.resume().as_deref(), Some("from=6"));
    match kind_run(&format!("kind:{words}"), DEEP).2 {
        ChcResult::Unsat(d) => assert_eq!(d.steps.len(), 14, "init, 12 steps and the query"),
        other => panic!("resumed run: {}", other.verdict()),
    }
    // Backward induction proves `BACKWARD` at k = 1, within a first run of 5 bounds.
    assert_eq!(kind_run("kind:max-k=5", BACKWARD).2.verdict(), "sat");
    // A resume point past a counterexample (a wrong one: the portfolio only resumes from a
    // run's own) loses that counterexample, since the skipped base checks are taken as
    // refuted, but makes no wrong answer: `BAD_PERSISTS` is unsafe from depth 7 on.
    let late = kind_run("kind:from=10,max-k=12", BAD_PERSISTS).2;
    assert_ne!(late.verdict(), "sat", "late run: sat on an unsafe system");
}
