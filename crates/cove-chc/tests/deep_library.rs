//! Terms nested 200,000 deep through the library, on the test harness's thread (2 MiB stack
//! by default): the CLI runs on a large-stack thread as a second line of defence, so these
//! tests are what shows that reader, clausifier, preprocessing, simplifier, linearizer, SMT
//! encoding, engines, evaluation, printer, witness reader and certificate checker are
//! iterative.

use cove_chc::cert::{check_derivation, check_invariants};
use cove_chc::engines::spacer::Spacer;
use cove_chc::frontend::parse_chc;
use cove_chc::preprocess::{PreprocessConfig, solve_preprocessed};
use cove_chc::witness::{parse_derivation, parse_invariants, print_derivation, print_invariants};
use cove_chc::{ChcResult, Control};
use cove_logic::TermStore;
use cove_logic::print::term_to_string;

const DEPTH: usize = 200_000;

fn nest(open: &str, inner: &str, n: usize) -> String {
    let mut s = String::with_capacity(n * (open.len() + 1) + inner.len());
    for _ in 0..n {
        s.push_str(open);
    }
    s.push_str(inner);
    for _ in 0..n {
        s.push(')');
    }
    s
}

fn horn(step: &str, query: &str, init: &str) -> String {
    format!(
        "(set-logic HORN)\n(declare-fun p (Int) Bool)\n\
         (assert (forall ((x Int)) (=> (= x {init}) (p x))))\n\
         (assert (forall ((x Int) (y Int)) (=> (and (p x) {step}) (p y))))\n\
         (assert (forall ((x Int)) (=> (and (p x) (< x 0) {query}) false)))\n(check-sat)\n"
    )
}

/// Parses, solves (preprocessing + Spacer) and checks the certificate; returns sat?
fn solve(src: &str) -> bool {
    let mut store = TermStore::new();
    let sys = parse_chc(src.as_bytes(), &mut store).expect("parses");
    let ctl = Control::new();
    let r = solve_preprocessed(
        &mut store,
        &sys,
        &PreprocessConfig::default(),
        &mut Spacer::default(),
        &ctl,
    );
    match r {
        ChcResult::Sat(inv) => {
            check_invariants(&mut store, &sys, &inv, &ctl).expect("valid invariants");
            true
        }
        ChcResult::Unsat(d) => {
            check_derivation(&store, &sys, &d).expect("valid derivation");
            let text = print_derivation(&store, &sys, &d);
            let back = parse_derivation(text.as_bytes(), &store, &sys).expect("reads back");
            check_derivation(&store, &sys, &back).expect("valid after reading back");
            false
        }
        ChcResult::Unknown(r) => panic!("unknown: {r:?}"),
    }
}

#[test]
fn deep_sums_lets_conjunctions() {
    let sum = nest("(+ 1 ", "x", DEPTH);
    assert!(solve(&horn(&format!("(= y {sum})"), "true", "0")));
    let lets = nest("(let ((z (+ z 1))) ", "(= y z)", DEPTH);
    assert!(solve(&horn(&format!("(let ((z x)) {lets})"), "true", "0")));
    let conj = nest("(and (>= x 0) ", "(>= x 0)", DEPTH);
    assert!(solve(&horn(&format!("{conj} (= y (+ x 1))"), "true", "0")));
    let neg = nest("(+ (- 1) ", "x", DEPTH);
    assert!(!solve(&horn(&format!("(= y {neg})"), "true", "5")));
}

#[test]
fn deep_ite_and_or() {
    let ite = nest("(ite (> x 5) (>= x 1) ", "(>= x 0)", DEPTH);
    assert!(solve(&horn("(= y (+ x 1))", &ite, "0")));
    let or = nest("(or (< x (- 7)) ", "(< x (- 3))", DEPTH);
    assert!(solve(&horn("(= y (+ x 1))", &or, "0")));
}

#[test]
fn deep_terms_print_and_read_back() {
    let mut store = TermStore::new();
    let sum = nest("(+ 1 ", "x0", DEPTH);
    let src = horn("(= y (+ x 1))", "true", "0");
    let sys = parse_chc(src.as_bytes(), &mut store).unwrap();
    let def = format!("(define-fun p ((x0 Int)) Bool (>= {sum} {DEPTH}))\n");
    let inv = parse_invariants(def.as_bytes(), &mut store, &sys).expect("reads");
    let ctl = Control::new();
    check_invariants(&mut store, &sys, &inv, &ctl).expect("valid");
    let body = inv.defs.values().next().unwrap().body;
    let printed = term_to_string(&store, body);
    assert!(printed.len() > 2 * DEPTH, "{}", printed.len());
    // The printed certificate (parameters renamed to x0, …) reads back and checks.
    let text = print_invariants(&store, &inv);
    let inv2 = parse_invariants(text.as_bytes(), &mut store, &sys).expect("reads back");
    check_invariants(&mut store, &sys, &inv2, &ctl).expect("valid after reading back");
}

#[test]
fn deep_smt_script() {
    let sum = nest("(+ 1 ", "x", DEPTH);
    let ite = nest("(ite (> x 3) (> x 0) ", "(< x 9)", DEPTH);
    let src = format!(
        "(set-logic QF_LIA)\n(declare-fun x () Int)\n(declare-fun y () Int)\n\
         (assert (= y {sum}))\n(assert {ite})\n(check-sat)\n(get-value (y))\n\
         (assert (< y x))\n(check-sat)\n"
    );
    let mut out = Vec::new();
    cove_smt::script::run_script(src.as_bytes(), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert!(out.starts_with("sat\n"), "{out}");
    assert!(out.ends_with("unsat\n"), "{out}");
}
