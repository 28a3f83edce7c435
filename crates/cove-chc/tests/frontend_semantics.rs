//! The clauses the front end produces, asserted exactly (printed with `clause_to_smtlib`),
//! for both the SMT-LIB2 `HORN` format and Z3's fixedpoint format.

use cove_chc::frontend::parse_queries;
use cove_chc::print::{clause_to_smtlib, system_to_smtlib};
use cove_chc::{ChcSystem, Clause, Control, PredApp};
use cove_logic::{Sort, TermStore};

mod common;

fn parse(src: &str) -> (ChcSystem, TermStore) {
    let mut store = TermStore::new();
    // The structural translation: declared constants show up as clause variables here (the
    // driver gives them their existential meaning).
    let sys = parse_queries(src.as_bytes(), &mut store, &Control::default())
        .unwrap_or_else(|e| panic!("{e}\n{src}"))
        .pop()
        .unwrap()
        .system;
    common::check_representation(&sys, &store);
    (sys, store)
}

fn clauses(src: &str) -> Vec<String> {
    let (sys, store) = parse(src);
    sys.clauses
        .iter()
        .map(|c| clause_to_smtlib(c, &store))
        .collect()
}

const PQR: &str = "(set-logic HORN)\n(declare-fun P (Int) Bool)\n(declare-fun Q (Int) Bool)\n(declare-fun R (Int) Bool)\n";

fn horn(asserts: &str) -> Vec<String> {
    clauses(&format!("{PQR}{asserts}"))
}

#[test]
fn implication_forms() {
    let rule = "(forall ((x Int)) (=> (and (P x) (> x 0)) (P (+ x 1))))";
    assert_eq!(horn(&format!("(assert {rule})")), [rule]);
    assert_eq!(
        horn("(assert (forall ((x Int)) (or (not (P x)) (not (> x 0)) (P (+ x 1)))))"),
        [rule]
    );
    assert_eq!(
        horn("(assert (forall ((x Int)) (=> (P x) (=> (> x 0) (P (+ x 1))))))"),
        [rule]
    );
    assert_eq!(horn("(assert (P 0))"), ["(P 0)"]);
    let query = "(forall ((x Int)) (=> (and (P x) (< x 0)) false))";
    assert_eq!(horn(&format!("(assert {query})")), [query]);
    assert_eq!(
        horn("(assert (forall ((x Int)) (not (and (P x) (< x 0)))))"),
        [query]
    );
    assert_eq!(
        horn("(assert (forall ((x Int)) (=> (P x) (>= x 0))))"),
        ["(forall ((x Int)) (=> (and (P x) (not (>= x 0))) false))"]
    );
}

#[test]
fn conjunctions_and_disjunctions_split_exactly() {
    assert_eq!(
        horn("(assert (and (P 0) (forall ((x Int)) (=> (P x) (P (+ x 1))))))"),
        ["(P 0)", "(forall ((x Int)) (=> (P x) (P (+ x 1))))"]
    );
    assert_eq!(
        horn("(assert (forall ((x Int)) (=> (P x) (and (Q x) (> x 0)))))"),
        [
            "(forall ((x Int)) (=> (P x) (Q x)))",
            "(forall ((x Int)) (=> (and (P x) (not (> x 0))) false))"
        ]
    );
    assert_eq!(
        horn("(assert (forall ((x Int)) (=> (or (P x) (and (Q x) (> x 2))) (R x))))"),
        [
            "(forall ((x Int)) (=> (P x) (R x)))",
            "(forall ((x Int)) (=> (and (Q x) (> x 2)) (R x)))"
        ]
    );
    // A predicate-free disjunction stays in the constraint.
    assert_eq!(
        horn("(assert (forall ((x Int)) (=> (and (P x) (or (> x 0) (< x (- 5)))) (Q x))))"),
        ["(forall ((x Int)) (=> (and (P x) (or (> x 0) (< x (- 5)))) (Q x)))"]
    );
    assert_eq!(
        horn("(assert (forall ((x Int)) (=> (ite (> x 0) (P x) (Q x)) (R x))))"),
        [
            "(forall ((x Int)) (=> (and (P x) (> x 0)) (R x)))",
            "(forall ((x Int)) (=> (and (Q x) (not (> x 0))) (R x)))"
        ]
    );
    assert_eq!(
        horn("(assert (forall ((x Int)) (=> (P x) (ite (> x 0) (Q x) (R x)))))"),
        [
            "(forall ((x Int)) (=> (and (P x) (> x 0)) (Q x)))",
            "(forall ((x Int)) (=> (and (P x) (not (> x 0))) (R x)))"
        ]
    );
}

#[test]
fn quantifiers_become_clause_variables() {
    assert_eq!(
        horn("(assert (forall ((x Int)) (=> (exists ((y Int)) (and (P y) (= x (+ y 1)))) (Q x))))"),
        ["(forall ((x Int) (y Int)) (=> (and (P y) (= x (+ y 1))) (Q x)))"]
    );
    // The inner x is another variable: it is renamed apart.
    assert_eq!(
        horn("(assert (forall ((x Int)) (=> (and (P x) (exists ((x Int)) (Q x))) (R x))))"),
        ["(forall ((x Int) (x!1 Int)) (=> (and (P x) (Q x!1)) (R x)))"]
    );
    // Unused binders are dropped; free constants are universally quantified.
    assert_eq!(
        horn("(declare-const c Int)\n(assert (forall ((x Int) (z Int)) (=> (P x) (P (+ x c)))))"),
        ["(forall ((x Int) (c Int)) (=> (P x) (P (+ x c))))"]
    );
    // A predicate-free quantifier stays in the constraint.
    assert_eq!(
        horn(
            "(assert (forall ((x Int)) (=> (and (P x) (forall ((y Int)) (<= y (* 2 y)))) (Q x))))"
        ),
        ["(forall ((x Int)) (=> (and (P x) (forall ((y Int)) (<= y (* 2 y)))) (Q x)))"]
    );
}

#[test]
fn trivial_assertions() {
    assert_eq!(horn("(assert true)"), Vec::<String>::new());
    assert_eq!(horn("(assert false)"), ["false"]);
    assert_eq!(
        horn("(assert (forall ((x Int)) (=> (and (P x) false) (Q x))))"),
        Vec::<String>::new()
    );
    assert_eq!(
        horn("(assert (forall ((x Int)) (=> (P x) true)))"),
        Vec::<String>::new()
    );
}

#[test]
fn lets_macros_and_odd_signatures() {
    assert_eq!(
        horn("(assert (forall ((x Int)) (let ((y (+ x 1))) (=> (P x) (P y)))))"),
        ["(forall ((x Int)) (=> (P x) (P (+ x 1))))"]
    );
    assert_eq!(
        horn(
            "(define-fun inv ((a Int)) Bool (and (P a) (>= a 0)))\n(assert (forall ((x Int)) (=> (inv x) (Q x))))"
        ),
        ["(forall ((x Int)) (=> (and (P x) (>= x 0)) (Q x)))"]
    );
    assert_eq!(
        clauses(
            "(set-logic HORN)(declare-fun E () Bool)(declare-fun B (Bool Real) Bool)\n(assert (forall ((b Bool) (r Real)) (=> (and (B b r) (> r 1)) (B (not b) (* 2.5 r)))))\n(assert (=> (B true 3) E))\n(assert (=> E false))"
        ),
        [
            "(forall ((b Bool) (r Real)) (=> (and (B b r) (> r 1.0)) (B (not b) (* (/ 5 2) r))))",
            "(=> (B true 3.0) E)",
            "(=> E false)"
        ]
    );
}

#[test]
fn scopes_remove_clauses() {
    let (sys, _) = parse(&format!(
        "{PQR}(assert (P 0))\n(push 1)\n(declare-fun S (Int) Bool)\n(assert (S 1))\n(pop 1)\n(assert (Q 0))"
    ));
    assert_eq!(sys.clauses.len(), 2);
    assert_eq!(sys.preds.len(), 3);
    let (sys, _) = parse(&format!(
        "{PQR}(assert (P 0))\n(push 2)\n(declare-fun S (Int) Bool)\n(assert (S 1))\n(reset-assertions)\n(assert (Q 0))"
    ));
    assert_eq!(sys.clauses.len(), 1);
    assert_eq!(sys.preds.len(), 3);
    let (sys, _) = parse(&format!(
        "{PQR}(assert (P 0))\n(reset)\n(set-logic HORN)\n(declare-fun P (Int) Bool)\n(assert (P 1))"
    ));
    assert_eq!(sys.clauses.len(), 1);
    assert_eq!(sys.preds.len(), 1);
}

#[test]
fn origins_point_at_the_assertions() {
    let (sys, _) = parse(&format!(
        "{PQR}(assert (P 0))\n  (assert (and (Q 0) (R 0)))"
    ));
    let origins: Vec<(u32, u32)> = sys
        .clauses
        .iter()
        .map(|c| c.origin.map(|p| (p.line, p.col)).unwrap())
        .collect();
    assert_eq!(origins, [(5, 1), (6, 3), (6, 3)]);
}

#[test]
fn fixedpoint_format() {
    let src = "(declare-rel R (Int Int))\n(declare-rel Err ())\n(declare-var a Int)\n(declare-var b Int)\n\
               (rule (R 0 0))\n(rule (=> (and (R a b) (< a 10)) (R (+ a 1) (+ b 2))) step)\n(rule (=> (and (R a b) (> b 20)) Err))\n\
               (query Err)\n(query (and (R a b) (> a b)) :print-certificate true)\n";
    // Each query is its own question about the rules read so far (as in z3).
    let mut store = TermStore::new();
    let qs = parse_queries(src.as_bytes(), &mut store, &Control::default()).unwrap();
    let texts: Vec<Vec<String>> = qs
        .iter()
        .map(|q| {
            q.system
                .clauses
                .iter()
                .map(|c| clause_to_smtlib(c, &store))
                .collect()
        })
        .collect();
    let rules = [
        "(R 0 0)",
        "(forall ((a Int) (b Int)) (=> (and (R a b) (< a 10)) (R (+ a 1) (+ b 2))))",
        "(forall ((a Int) (b Int)) (=> (and (R a b) (> b 20)) Err))",
    ];
    let with = |q: &str| {
        rules
            .iter()
            .map(|s| s.to_string())
            .chain([q.to_string()])
            .collect::<Vec<_>>()
    };
    assert_eq!(
        texts,
        [
            with("(=> Err false)"),
            with("(forall ((a Int) (b Int)) (=> (and (R a b) (> a b)) false))"),
        ]
    );
    // A query naming a relation asks for any tuple of it.
    let (sys, store) = parse("(declare-rel R (Int Real))\n(rule (R 1 2.0))\n(query R)");
    let q = &sys.clauses[1];
    assert!(q.is_query() && q.body.len() == 1 && q.vars.len() == 2);
    assert_eq!(
        q.body[0]
            .args
            .iter()
            .map(|&a| store.as_var(a))
            .collect::<Vec<_>>(),
        q.vars.iter().map(|&v| Some(v)).collect::<Vec<_>>()
    );
    // Rules may use explicit quantifiers too.
    assert_eq!(
        clauses("(declare-rel R (Int))\n(rule (forall ((x Int)) (=> (R x) (R (- x 1)))))"),
        ["(forall ((x Int)) (=> (R x) (R (- x 1))))"]
    );
}

#[test]
fn printed_systems_read_back_identically() {
    let src = format!(
        "{PQR}(declare-const c Int)\n(assert (forall ((x Int)) (=> (and (P x) (exists ((x Int)) (Q x)) (> c x)) (R (+ x c)))))\n(assert (forall ((y Int)) (=> (or (P y) (R y)) (Q (- y)))))\n(assert (forall ((y Int)) (not (Q y))))"
    );
    let (sys, store) = parse(&src);
    let text = system_to_smtlib(&sys, &store);
    let (sys2, store2) = parse(&text);
    assert_eq!(text, system_to_smtlib(&sys2, &store2));
    assert_eq!(sys.clauses.len(), 4);
}

#[test]
fn clause_variables_with_one_name_print_apart() {
    // x:Int and x:Real in one clause (a free constant and a binder of another sort).
    let (sys, store) = parse(
        "(set-logic HORN)(declare-fun P (Int Real) Bool)(declare-const x Int)\n(define-fun g ((y Real)) Bool (P x y))\n(assert (forall ((x Real)) (g x)))",
    );
    let text = clause_to_smtlib(&sys.clauses[0], &store);
    assert_eq!(text, "(forall ((x Real) (x!1 Int)) (P x!1 x))");
    let (sys2, store2) = parse(&system_to_smtlib(&sys, &store));
    assert_eq!(clause_to_smtlib(&sys2.clauses[0], &store2), text);
    // A variable named like a predicate is renamed when printed.
    let mut store = TermStore::new();
    let p = store.declare_func("P", &[Sort::Int], Sort::Bool).unwrap();
    let v = store.var("P", Sort::Int);
    let vt = store.mk_var(v);
    let constraint = store.mk_true();
    let c = Clause {
        vars: vec![v],
        body: vec![],
        constraint,
        head: Some(PredApp {
            pred: p,
            args: vec![vt],
        }),
        origin: None,
    };
    assert_eq!(clause_to_smtlib(&c, &store), "(forall ((P!1 Int)) (P P!1))");
    let sys = ChcSystem {
        preds: vec![p],
        clauses: vec![c],
    };
    let (sys2, _) = parse(&system_to_smtlib(&sys, &store));
    assert_eq!(sys2.clauses.len(), 1);
}
