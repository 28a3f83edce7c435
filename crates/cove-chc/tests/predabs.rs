//! The `predabs` engine's predicate refinement: systems whose `terms`-language predicates
//! cannot prove them (the abstract fixpoint meets the query) are proved with predicates
//! from interpolants of the spurious counterexamples, and unsafe ones get a concrete
//! derivation. Every answer's certificate is checked by the independent checker; the runs
//! are bounded by work units.

use cove_chc::ChcResult;
use cove_chc::cert::{check_derivation, check_invariants};
use cove_chc::engines::EngineConfig;
use cove_chc::engines::predabs::PredAbsConfig;
use cove_chc::frontend::parse_chc;
use cove_logic::TermStore;

mod common;

/// Solves `src` with `predabs`, validates the certificate, returns the result.
fn solve(src: &str, work: u64) -> ChcResult {
    let mut store = TermStore::new();
    let sys = parse_chc(src.as_bytes(), &mut store).expect("parses");
    let kind = EngineConfig::PredAbs(PredAbsConfig::default());
    let mut e = kind.create();
    let c = common::work_control(work);
    let r = e.solve(&mut store, &sys, &c);
    common::report_work(&c, work, "predabs", r.verdict());
    match &r {
        ChcResult::Sat(inv) => {
            check_invariants(&mut store, &sys, inv, &common::work_control(u64::MAX)).unwrap()
        }
        ChcResult::Unsat(d) => check_derivation(&store, &sys, d).unwrap(),
        ChcResult::Unknown(_) => {}
    }
    r
}

/// `Inv(pc, x)`: from `pc = 0, x = 0` two steps each add one to `x`; the query asks for
/// `x ≠ 2` (or, unsafe, `x = 2`) at `pc = 2`. The clauses' atoms are the locations and
/// `x = 2`: over them, `x ≠ 2` at 0 lets `x + 1 = 2` at 1 and then `x ≠ 2` at 2, so the
/// language's fixpoint meets the query. The invariant needs `x = 0` at 0 and `x = 1` at
/// 1 (or bounds), which only the interpolants of the counterexample give.
fn two_steps(bad: &str) -> String {
    format!(
        "(set-logic HORN)(declare-fun Inv (Int Int) Bool)
        (assert (forall ((p Int) (x Int)) (=> (and (= p 0) (= x 0)) (Inv p x))))
        (assert (forall ((p Int) (x Int) (q Int) (y Int))
          (=> (and (Inv p x) (= p 0) (= q 1) (= y (+ x 1))) (Inv q y))))
        (assert (forall ((p Int) (x Int) (q Int) (y Int))
          (=> (and (Inv p x) (= p 1) (= q 2) (= y (+ x 1))) (Inv q y))))
        (assert (forall ((p Int) (x Int)) (=> (and (Inv p x) (= p 2) {bad}) false)))"
    )
}

#[test]
fn refinement_proves_what_the_language_cannot() {
    let r = solve(&two_steps("(not (= x 2))"), 20_000_000);
    assert!(matches!(r, ChcResult::Sat(_)), "{}", r.verdict());
}

#[test]
fn refinement_finds_a_real_counterexample() {
    let r = solve(&two_steps("(= x 2)"), 20_000_000);
    assert!(matches!(r, ChcResult::Unsat(_)), "{}", r.verdict());
}

/// Two threads of test-and-set (as in the engine's unit tests), here without the check of
/// the lock: a thread enters whatever it read, both reach 2, and the refinement must turn
/// the abstract counterexample through the slot swap and the nonlinear clause into a
/// concrete derivation.
const TAS_UNCHECKED: &str = "(set-logic HORN)(declare-fun Inv (Int Int Int Int Int) Bool)
    (assert (forall ((a Int) (b Int)) (Inv 0 0 a 0 b)))
    (assert (forall ((k Int) (l Int) (q Int) (r Int))
      (=> (Inv k 0 l q r) (Inv 1 1 k q r))))
    (assert (forall ((k Int) (l Int) (q Int) (r Int))
      (=> (Inv k 1 l q r) (Inv k 2 l q r))))
    (assert (forall ((k Int) (l Int) (q Int) (r Int))
      (=> (Inv k 2 l q r) (Inv 0 0 l q r))))
    (assert (forall ((k Int) (p Int) (l Int) (q Int) (r Int))
      (=> (Inv k p l q r) (Inv k q r p l))))
    (assert (forall ((k Int) (p Int) (l Int) (q Int) (r Int))
      (=> (and (Inv k p l q r) (Inv k q r p l)) (Inv k p l q r))))
    (assert (forall ((k Int) (l Int) (r Int)) (=> (Inv k 2 l 2 r) false)))";

#[test]
fn refinement_finds_a_thread_modular_counterexample() {
    let r = solve(TAS_UNCHECKED, 20_000_000);
    assert!(matches!(r, ChcResult::Unsat(_)), "{}", r.verdict());
}
