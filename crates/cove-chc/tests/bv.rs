//! CHC over bit-vectors: the hardware route (`hw`), BMC and the driver on small systems with
//! known answers (single and multi-predicate, facts and queries with local variables, Bool
//! and bit-vector states, wrap-around arithmetic); every answer must carry a certificate the
//! independent checker accepts.

use cove_chc::cert::{check_derivation, check_invariants};
use cove_chc::driver::{SolveConfig, Validation};
use cove_chc::engines::EngineConfig;
use cove_chc::frontend::{parse_chc, parse_queries};
use cove_chc::{ChcResult, Control};
use cove_logic::TermStore;
use std::time::Duration;

fn solve(name: &str, src: &str) -> &'static str {
    let mut store = TermStore::new();
    let sys = parse_chc(src.as_bytes(), &mut store).expect("parses");
    let ctl = Control::default().with_timeout(Duration::from_secs(60));
    let mut engine = EngineConfig::parse(name).expect("engine").create();
    let r = engine.solve(&mut store, &sys, &ctl);
    match &r {
        ChcResult::Sat(inv) => check_invariants(&mut store, &sys, inv, &Control::default())
            .unwrap_or_else(|e| panic!("{name}: bad invariant: {e}")),
        ChcResult::Unsat(d) => check_derivation(&store, &sys, d)
            .unwrap_or_else(|e| panic!("{name}: bad derivation: {e}")),
        ChcResult::Unknown(_) => {}
    }
    r.verdict()
}

/// An 8-bit counter stepping by 2 from 0 never reaches an odd value (needs bit 0 = 0).
const EVEN: &str = "(set-logic HORN) (declare-fun p ((_ BitVec 8)) Bool)
  (assert (forall ((x (_ BitVec 8))) (=> (= x #x00) (p x))))
  (assert (forall ((x (_ BitVec 8))) (=> (p x) (p (bvadd x #x02)))))
  (assert (forall ((x (_ BitVec 8))) (=> (and (p x) (= ((_ extract 0 0) x) #b1)) false)))";

/// The same counter wraps around: `x <u 200` fails after 100 steps.
const WRAP: &str = "(set-logic HORN) (declare-fun p ((_ BitVec 8)) Bool)
  (assert (forall ((x (_ BitVec 8))) (=> (= x #x00) (p x))))
  (assert (forall ((x (_ BitVec 8))) (=> (p x) (p (bvadd x #x02)))))
  (assert (forall ((x (_ BitVec 8))) (=> (and (p x) (bvuge x #xc8)) false)))";

/// Two predicates, a Bool flag, a signed comparison and a fact with a local variable.
const TWO: &str = "(set-logic HORN)
  (declare-fun a ((_ BitVec 16) Bool) Bool)
  (declare-fun b ((_ BitVec 16)) Bool)
  (assert (forall ((x (_ BitVec 16)) (k (_ BitVec 16)))
    (=> (and (bvslt k #x0010) (bvsge k #x0000) (= x (bvmul k #x0002))) (a x false))))
  (assert (forall ((x (_ BitVec 16)) (f Bool))
    (=> (and (a x f) (bvslt x #x0100)) (a (bvadd x #x0002) true))))
  (assert (forall ((x (_ BitVec 16)) (f Bool)) (=> (and (a x f) f) (b x))))
  (assert (forall ((x (_ BitVec 16))) (=> (and (b x) (= (bvurem x #x0002) #x0001)) false)))";

/// As `TWO` but an odd start is possible (`k` may be 7 and `x = k`): unsafe.
const TWO_BAD: &str = "(set-logic HORN)
  (declare-fun a ((_ BitVec 16) Bool) Bool)
  (declare-fun b ((_ BitVec 16)) Bool)
  (assert (forall ((x (_ BitVec 16)) (k (_ BitVec 16)))
    (=> (and (bvslt k #x0010) (bvsge k #x0000) (= x (bvor k #x0001))) (a x false))))
  (assert (forall ((x (_ BitVec 16)) (f Bool))
    (=> (and (a x f) (bvslt x #x0100)) (a (bvadd x #x0002) true))))
  (assert (forall ((x (_ BitVec 16)) (f Bool)) (=> (and (a x f) f) (b x))))
  (assert (forall ((x (_ BitVec 16))) (=> (and (b x) (= (bvurem x #x0002) #x0001)) false)))";

/// A query without a body predicate.
const DIRECT: &str = "(set-logic HORN) (declare-fun p ((_ BitVec 4)) Bool)
  (assert (forall ((x (_ BitVec 4))) (=> (= x #x3) (p x))))
  (assert (forall ((y (_ BitVec 4))) (=> (= (bvmul y y) #x9) false)))";

#[test]
fn hardware_route_answers_with_certificates() {
    assert_eq!(solve("hw", EVEN), "sat");
    assert_eq!(solve("hw", WRAP), "unsat");
    assert_eq!(solve("hw", TWO), "sat");
    assert_eq!(solve("hw", TWO_BAD), "unsat");
    assert_eq!(solve("hw", DIRECT), "unsat");
}

#[test]
fn bmc_finds_bit_vector_counterexamples() {
    assert_eq!(solve("bmc", WRAP), "unsat");
    assert_eq!(solve("bmc", TWO_BAD), "unsat");
}

#[test]
fn the_driver_schedules_bit_vector_systems() {
    for threads in [1, 2] {
        for (src, want) in [
            (EVEN, "sat"),
            (WRAP, "unsat"),
            (TWO, "sat"),
            (TWO_BAD, "unsat"),
        ] {
            let mut store = TermStore::new();
            let qs = parse_queries(src.as_bytes(), &mut store, &Control::default()).unwrap();
            let cfg = SolveConfig {
                threads,
                ..SolveConfig::default()
            };
            let ctl = Control::default().with_timeout(Duration::from_secs(60));
            let out = cove_chc::driver::solve(&store, &qs[0], &cfg, &ctl);
            assert_eq!(out.answer.verdict(), want, "{threads} threads");
            assert_eq!(out.validation, Validation::Valid);
        }
    }
}

/// Two 32-bit counters doubling in lock step (`a' = 2a + 4` while `9 - a ≥ 0`, written with
/// `bvmul #xffffffff` as C front ends emit it); the query compares `2a` with `2b`. The
/// invariant `a = b` is word-level; the multiplications by `-1` used to blast into chains of
/// 31 adders each, on which every bit-blasted query took seconds (reve `007-horn`).
const LOCKSTEP: &str = "(set-logic HORN)
  (declare-fun inv ((_ BitVec 32) (_ BitVec 32)) Bool)
  (assert (forall ((a (_ BitVec 32)) (b (_ BitVec 32)))
    (=> (and (= a #x00000001) (= b #x00000001)) (inv a b))))
  (assert (forall ((a (_ BitVec 32)) (b (_ BitVec 32)) (c (_ BitVec 32)) (d (_ BitVec 32)))
    (=> (and (inv a b)
             (bvsle #x00000000 (bvadd #x00000009 (bvmul #xffffffff a)))
             (= (bvmul #x00000002 a) (bvadd #xfffffffc c))
             (= (bvmul #x00000002 b) (bvadd #xfffffffc d)))
        (inv c d))))
  (assert (forall ((a (_ BitVec 32)) (b (_ BitVec 32)))
    (=> (and (inv a b) (not (= (bvmul #x00000002 a) (bvmul #x00000002 b)))) false)))";

/// As `LOCKSTEP`, but `b` starts at 2: unsafe at once.
const LOCKSTEP_BAD: &str = "(set-logic HORN)
  (declare-fun inv ((_ BitVec 32) (_ BitVec 32)) Bool)
  (assert (forall ((a (_ BitVec 32)) (b (_ BitVec 32)))
    (=> (and (= a #x00000001) (= b #x00000002)) (inv a b))))
  (assert (forall ((a (_ BitVec 32)) (b (_ BitVec 32)) (c (_ BitVec 32)) (d (_ BitVec 32)))
    (=> (and (inv a b)
             (bvsle #x00000000 (bvadd #x00000009 (bvmul #xffffffff a)))
             (= (bvmul #x00000002 a) (bvadd #xfffffffc c))
             (= (bvmul #x00000002 b) (bvadd #xfffffffc d)))
        (inv c d))))
  (assert (forall ((a (_ BitVec 32)) (b (_ BitVec 32)))
    (=> (and (inv a b) (bvsle #x00000010 a) (not (= (bvmul #x00000002 a) (bvmul #x00000002 b)))) false)))";

/// A 32-bit counter from 0 up to 1000 and a query on one exact value beyond the loop's
/// range: the query's cube is an equality, which Spacer weakens to a word-level interval
/// (`x ≥s k`) instead of learning one lemma per value.
const INTERVAL: &str = "(set-logic HORN)
  (declare-fun p ((_ BitVec 32)) Bool)
  (assert (forall ((x (_ BitVec 32))) (=> (= x #x00000000) (p x))))
  (assert (forall ((x (_ BitVec 32)) (y (_ BitVec 32)))
    (=> (and (p x) (bvslt x #x000003e8) (= y (bvadd x #x00000001))) (p y))))
  (assert (forall ((x (_ BitVec 32))) (=> (and (p x) (= x #x00001000)) false)))";

/// `solve` bounded by work units instead of wall-clock time.
fn solve_bounded(name: &str, src: &str, units: u64) -> &'static str {
    let mut store = TermStore::new();
    let sys = parse_chc(src.as_bytes(), &mut store).expect("parses");
    let ctl = Control::default().with_work_budget(units);
    let mut engine = EngineConfig::parse(name).expect("engine").create();
    let r = engine.solve(&mut store, &sys, &ctl);
    match &r {
        ChcResult::Sat(inv) => check_invariants(&mut store, &sys, inv, &Control::default())
            .unwrap_or_else(|e| panic!("{name}: bad invariant: {e}")),
        ChcResult::Unsat(d) => check_derivation(&store, &sys, d)
            .unwrap_or_else(|e| panic!("{name}: bad derivation: {e}")),
        ChcResult::Unknown(_) => {}
    }
    r.verdict()
}

#[test]
fn word_level_arithmetic_stays_cheap_for_spacer_and_the_hardware_route() {
    for engine in ["spacer", "hw"] {
        assert_eq!(
            solve_bounded(engine, LOCKSTEP, 20_000_000),
            "sat",
            "{engine}"
        );
        assert_eq!(
            solve_bounded(engine, LOCKSTEP_BAD, 20_000_000),
            "unsat",
            "{engine}"
        );
    }
    assert_eq!(solve_bounded("bmc", LOCKSTEP_BAD, 20_000_000), "unsat");
}

#[test]
fn spacer_with_bit_vector_intervals_answers_with_certificates() {
    let cfg = cove_chc::engines::spacer::SpacerConfig {
        bv_intervals: true,
        ..Default::default()
    };
    for (src, want) in [
        (INTERVAL, "sat"),
        (LOCKSTEP, "sat"),
        (LOCKSTEP_BAD, "unsat"),
    ] {
        let mut store = TermStore::new();
        let sys = parse_chc(src.as_bytes(), &mut store).expect("parses");
        let ctl = Control::default().with_work_budget(20_000_000);
        let mut engine = EngineConfig::Spacer(cfg.clone()).create();
        let r = engine.solve(&mut store, &sys, &ctl);
        check_answer(&mut store, &sys, &r);
        assert_eq!(r.verdict(), want);
    }
}

/// reve `027b-horn` (CHC-COMP 2025 BV, `tests/data/bv-reve-027b.smt2`): without the relational
/// step Spacer blocks `x₃ ≥s k ∧ x₀ <s k` once per constant `k`; with it the cube becomes
/// `x₃ ≠ x₀` and the run ends `sat` with a certified invariant (without it: `unknown` after
/// 20 s of the CLI's `--engine spacer`).
#[test]
fn spacer_relational_bit_vector_lemmas_prove_reve_027b() {
    use cove_chc::Engine;
    use cove_chc::engines::spacer::{Spacer, SpacerConfig};
    let path = format!(
        "{}/tests/data/bv-reve-027b.smt2",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read(&path).unwrap();
    let run = |cfg: SpacerConfig| -> (&'static str, u64) {
        let mut store = TermStore::new();
        let sys = parse_chc(&src, &mut store).expect("parses");
        let ctl = Control::default().with_work_budget(BUDGET_027B);
        let mut spacer = Spacer::new(cfg);
        let r = spacer.solve(&mut store, &sys, &ctl);
        check_answer(&mut store, &sys, &r);
        let n = spacer
            .stats()
            .into_iter()
            .find(|(k, _)| k == "bv-relation-lemmas")
            .map_or(0, |(_, v)| v.parse().unwrap());
        (r.verdict(), n)
    };
    let (v, n) = run(SpacerConfig::default());
    assert_eq!(v, "sat");
    assert!(n > 0, "the relational step did not fire");
}

/// Work units for [`spacer_relational_bit_vector_lemmas_prove_reve_027b`].
const BUDGET_027B: u64 = 40_000_000;

/// Checks a `sat` answer's invariants or an `unsat` answer's derivation independently.
fn check_answer(store: &mut TermStore, sys: &cove_chc::ChcSystem, r: &ChcResult) {
    match r {
        ChcResult::Sat(inv) => check_invariants(store, sys, inv, &Control::default())
            .unwrap_or_else(|e| panic!("bad invariant: {e}")),
        ChcResult::Unsat(d) => {
            check_derivation(store, sys, d).unwrap_or_else(|e| panic!("bad derivation: {e}"))
        }
        ChcResult::Unknown(_) => {}
    }
}

/// Over a finite index sort an array that lists every index equals a constant array whatever
/// its default. Before array equality was extensional in the evaluator, this derivation of
/// `false` (a model of the SMT core that reasoned as if `(_ BitVec 1)` had a third index) was
/// accepted and the portfolio answered `unsat` on a safe system; before the array theory
/// compared values extensionally, its extensionality witness was never asked for and the
/// answer was `unknown`.
#[test]
fn arrays_over_a_one_bit_index_are_compared_cell_by_cell() {
    use cove_chc::{Derivation, DerivationStep};
    use cove_logic::{ArrayValue, BvValue, Value};
    let src = "(set-logic HORN)
        (declare-fun P ((Array (_ BitVec 1) (_ BitVec 4))) Bool)
        (assert (forall ((a (Array (_ BitVec 1) (_ BitVec 4))))
          (=> (and (= (select a #b0) #x1) (= (select a #b1) #x1)) (P a))))
        (assert (forall ((a (Array (_ BitVec 1) (_ BitVec 4))))
          (=> (and (P a) (not (= a ((as const (Array (_ BitVec 1) (_ BitVec 4))) #x1)))) false)))";
    let mut store = TermStore::new();
    let sys = parse_chc(src.as_bytes(), &mut store).expect("parses");
    let bv = |w, n| Value::Bv(BvValue::from_u64(w, n));
    let both_one = Value::Array(Box::new(ArrayValue {
        default: bv(4, 0),
        entries: vec![(bv(1, 0), bv(4, 1)), (bv(1, 1), bv(4, 1))],
    }));
    let p = sys.preds[0];
    let d = Derivation {
        steps: vec![
            DerivationStep {
                clause: 0,
                head: Some((p, vec![both_one.clone()])),
                premises: vec![],
                assignment: vec![(sys.clauses[0].vars[0], both_one.clone())],
            },
            DerivationStep {
                clause: 1,
                head: None,
                premises: vec![0],
                assignment: vec![(sys.clauses[1].vars[0], both_one)],
            },
        ],
        root: 1,
    };
    assert!(check_derivation(&store, &sys, &d).is_err());
    // The portfolio proves the system safe, with a checked invariant.
    let q = parse_queries(src.as_bytes(), &mut store, &Control::default()).expect("parses");
    let ctl = Control::default()
        .with_work_budget(200_000)
        .with_timeout(Duration::from_secs(60));
    let out = cove_chc::driver::solve(&store, &q[0], &SolveConfig::default(), &ctl);
    assert_eq!(out.answer.verdict(), "sat");
    assert_eq!(out.validation, Validation::Valid);
}
