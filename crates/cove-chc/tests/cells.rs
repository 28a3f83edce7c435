//! Quantified invariants over arrays: the cell abstraction (`spacer-cells`) proves systems
//! whose safety needs a statement about every cell, and the certificate checker decides
//! such invariants by instantiating them at each clause's indices. A wrong quantified
//! invariant is never accepted, and the abstraction never claims a counterexample. The runs
//! are bounded by work units.

use cove_chc::cert::{CertError, check_invariants};
use cove_chc::engines::EngineConfig;
use cove_chc::engines::cells::CellsConfig;
use cove_chc::frontend::parse_chc;
use cove_chc::witness::parse_invariants;
use cove_chc::{ChcResult, ChcSystem};
use cove_logic::TermStore;

mod common;

/// Solves `src` with the cell abstraction and checks a `sat` answer's certificate.
fn solve(src: &str, work: u64) -> ChcResult {
    let mut store = TermStore::new();
    let sys = parse_chc(src.as_bytes(), &mut store).expect("parses");
    let mut e = EngineConfig::Cells(CellsConfig::default()).create();
    let c = common::work_control(work);
    let r = e.solve(&mut store, &sys, &c);
    common::report_work(&c, work, "spacer-cells", r.verdict());
    if let ChcResult::Sat(inv) = &r {
        let quantified = inv
            .defs
            .values()
            .any(|d| store.display(d.body).to_string().contains("forall"));
        assert!(quantified, "a quantified invariant");
        check_invariants(&mut store, &sys, inv, &common::work_control(u64::MAX))
            .expect("the certificate holds");
    }
    r
}

/// An array pushed onto (`a[n] := v; n := n + 1`) from empty, with `v` chosen by `push`;
/// the query reads a cell below the length and asks for `bad`.
fn pushes(push: &str, bad: &str) -> String {
    format!(
        "(set-logic HORN)(declare-fun Inv ((Array Int Int) Int) Bool)
        (assert (forall ((a (Array Int Int)) (n Int))
          (=> (and (= n 0) (= a ((as const (Array Int Int)) 0))) (Inv a n))))
        (assert (forall ((a (Array Int Int)) (n Int) (v Int))
          (=> (and (Inv a n) {push}) (Inv (store a n v) (+ n 1)))))
        (assert (forall ((a (Array Int Int)) (n Int) (i Int))
          (=> (and (Inv a n) (<= 0 i) (< i n) {bad}) false)))"
    )
}

#[test]
fn every_cell_below_the_length_is_proved() {
    // Needs `∀k. 0 ≤ k < n ⇒ a[k] = 42`: no quantifier-free invariant over `a` says it.
    let r = solve(&pushes("(= v 42)", "(not (= (select a i) 42))"), 20_000_000);
    assert!(matches!(r, ChcResult::Sat(_)), "{}", r.verdict());
}

#[test]
fn a_mapping_written_at_its_own_key_is_proved() {
    // `m[x] := x` for any `x`, from all zeros: every cell holds its key or 0 (Solidity's
    // `m[t] = S(t, 0)`).
    let src = "(set-logic HORN)(declare-fun Inv ((Array Int Int)) Bool)
        (assert (forall ((m (Array Int Int))) (=> (= m ((as const (Array Int Int)) 0)) (Inv m))))
        (assert (forall ((m (Array Int Int)) (x Int)) (=> (Inv m) (Inv (store m x x)))))
        (assert (forall ((m (Array Int Int)) (t Int))
          (=> (and (Inv m) (not (= (select m t) t)) (not (= (select m t) 0))) false)))";
    let r = solve(src, 20_000_000);
    assert!(matches!(r, ChcResult::Sat(_)), "{}", r.verdict());
}

#[test]
fn the_abstraction_never_claims_a_counterexample() {
    // Unsafe: 41 is pushed too. The abstraction's counterexample may mix cells, so the
    // engine ends unknown (BMC and Spacer find the real one in the portfolio).
    let r = solve(
        &pushes("(or (= v 42) (= v 41))", "(not (= (select a i) 42))"),
        20_000_000,
    );
    assert!(matches!(r, ChcResult::Unknown(_)), "{}", r.verdict());
}

fn check(src: &str, inv: &str) -> Result<(), CertError> {
    let mut store = TermStore::new();
    let sys: ChcSystem = parse_chc(src.as_bytes(), &mut store).expect("parses");
    let inv = parse_invariants(inv.as_bytes(), &mut store, &sys).expect("invariant parses");
    check_invariants(&mut store, &sys, &inv, &common::work_control(u64::MAX))
}

#[test]
fn the_checker_decides_quantified_invariants_by_instantiation() {
    let src = pushes("(= v 42)", "(not (= (select a i) 42))");
    let good = "(define-fun Inv ((a (Array Int Int)) (n Int)) Bool
        (and (>= n 0) (forall ((k Int)) (=> (and (<= 0 k) (< k n)) (= (select a k) 42)))))";
    assert_eq!(check(&src, good), Ok(()));
    // Without the lower bound on `k`: false at the initial state (cell -1 is 0). The
    // head's quantifier becomes a witness cell, exactly, so the checker refutes it.
    let no_lower = "(define-fun Inv ((a (Array Int Int)) (n Int)) Bool
        (and (>= n 0) (forall ((k Int)) (=> (< k n) (= (select a k) 42)))))";
    // Every cell 42: false of the initial all-zero array.
    let every = "(define-fun Inv ((a (Array Int Int)) (n Int)) Bool
        (forall ((k Int)) (= (select a k) 42)))";
    for bad in [no_lower, every] {
        assert!(
            matches!(check(&src, bad), Err(CertError::Invalid(_))),
            "{bad}"
        );
    }
    // Too weak to prove the query: nothing about the cells. The query uses the quantifier,
    // whose instances are a weakening: a model of them need not refute the clause, so it
    // is undecided (never valid, never reported as a wrong certificate of Cove's).
    let weak = "(define-fun Inv ((a (Array Int Int)) (n Int)) Bool
        (forall ((k Int)) (or (>= n 0) (= (select a k) 7))))";
    assert!(
        matches!(check(&src, weak), Err(CertError::Undecided(_))),
        "{weak}"
    );
}
