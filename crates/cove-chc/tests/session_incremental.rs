//! Incremental solving against solving from scratch, on a sequence of 30 systems: a
//! contract's assertions checked one by one over fixed transition clauses (push, add the
//! query, solve, pop), then a growing clause set (a new transition clause at each step,
//! every assertion re-checked). Every answer of the session must be definite, checked, and
//! the same as the driver's on the same system solved alone; reuse must actually happen.
//!
//! The systems are small enough that Spacer decides each in well under a second from scratch
//! (its work is bounded by the systems, not by the clock); the 60 s limit is only a guard.

use cove_chc::Control;
use cove_chc::driver::{self, SolveConfig};
use cove_chc::frontend::parse_queries;
use cove_chc::session::{Session, SolveRequest};
use cove_logic::TermStore;
use std::time::Duration;

const STATE: &str = "(s Int) (a Int) (b Int) (n Int)";
const ALL: &str = "(s Int) (a Int) (b Int) (n Int) (s2 Int) (a2 Int) (b2 Int) (n2 Int) (k Int)";

/// (assertion's violation, expected answer)
const ASSERTIONS: &[(&str, &str)] = &[
    ("(not (= (+ a b) s))", "sat"),
    ("(< a 0)", "sat"),
    ("(< b 0)", "sat"),
    ("(< s 0)", "sat"),
    ("(> a s)", "sat"),
    ("(> b s)", "sat"),
    ("(< n 0)", "sat"),
    ("(< s 100)", "sat"),
    ("(= b 50)", "unsat"),
    ("(>= n 3)", "unsat"),
    ("(> s 120)", "sat"),
    ("(= a 0)", "unsat"),
    ("(< (+ a b) 0)", "sat"),
    ("(and (= b 7) (= n 1))", "unsat"),
    ("(= (+ a b 1) s)", "sat"),
    ("(and (= n 0) (> b 0))", "sat"),
    ("(> (+ a b) s)", "sat"),
    ("(and (= a 30) (= b 70))", "unsat"),
    ("(< s b)", "sat"),
    ("(and (= n 0) (not (= s 100)))", "sat"),
];

fn rule(tx: &str) -> String {
    format!("(assert (forall ({ALL}) (=> (and (state s a b n) {tx}) (state s2 a2 b2 n2))))\n")
}

/// The assertions re-checked while the clause set grows (indices into [`ASSERTIONS`]).
const RECHECKED: [usize; 5] = [0, 1, 2, 7, 10];

/// The script: 20 assertions one by one, then 2 transition clauses added one at a time
/// with 5 assertions re-checked after each (30 questions).
fn script() -> String {
    let mut out = String::from(
        "(set-logic HORN)\n(declare-fun state (Int Int Int Int) Bool)\n\
         (assert (forall ((s Int) (a Int) (b Int) (n Int))\n\
         (=> (and (= s 100) (= a 100) (= b 0) (= n 0)) (state s a b n))))\n",
    );
    // transfer a -> b, transfer b -> a
    out += &rule("(< 0 k) (<= k a) (= a2 (- a k)) (= b2 (+ b k)) (= s2 s) (= n2 (+ n 1))");
    out += &rule("(< 0 k) (<= k b) (= b2 (- b k)) (= a2 (+ a k)) (= s2 s) (= n2 (+ n 1))");
    let check = |out: &mut String, bad: &str| {
        *out += &format!(
            "(push 1)\n(assert (forall ({STATE}) (=> (and (state s a b n) {bad}) false)))\n\
             (check-sat)\n(pop 1)\n"
        );
    };
    for (bad, _) in ASSERTIONS {
        check(&mut out, bad);
    }
    // mint (at most 10), then burn from b
    let growing = [
        "(< 0 k) (<= k 10) (= a2 (+ a k)) (= s2 (+ s k)) (= b2 b) (= n2 (+ n 1))",
        "(< 0 k) (<= k b) (= b2 (- b k)) (= s2 (- s k)) (= a2 a) (= n2 (+ n 1))",
    ];
    for tx in growing {
        out += &rule(tx);
        for i in RECHECKED {
            check(&mut out, ASSERTIONS[i].0);
        }
    }
    out
}

/// Expected answers: the 20 as listed; after adding mint, the supply can pass 120; after
/// adding burn too, it can also drop below 100 (conservation and signs still hold).
fn expected() -> Vec<&'static str> {
    let mut v: Vec<&str> = ASSERTIONS.iter().map(|(_, a)| *a).collect();
    v.extend(["sat", "sat", "sat", "sat", "unsat"]);
    v.extend(["sat", "sat", "sat", "unsat", "unsat"]);
    v
}

fn config() -> SolveConfig {
    SolveRequest {
        engine: "spacer".into(),
        ..SolveRequest::default()
    }
    .config()
    .unwrap()
}

fn ctl() -> Control {
    Control::default().with_timeout(Duration::from_secs(60))
}

#[test]
fn incremental_answers_match_solving_from_scratch() {
    let text = script();
    let cfg = config();
    let mut session = Session::new();
    let incremental = session
        .replay(&text, |s| {
            let out = s.solve(&cfg, &ctl());
            assert!(
                out.validation.is_valid(),
                "{}: {}",
                out.answer.verdict(),
                out.validation
            );
            (out.answer.verdict(), s.last_reuse().clone())
        })
        .unwrap();
    let mut store = TermStore::new();
    let queries = parse_queries(text.as_bytes(), &mut store, &Control::default()).unwrap();
    let scratch: Vec<&str> = queries
        .iter()
        .map(|q| driver::solve(&store, q, &cfg, &ctl()).answer.verdict())
        .collect();
    assert_eq!(incremental.len(), 30);
    let answers: Vec<&str> = incremental.iter().map(|(a, _)| *a).collect();
    assert_eq!(answers, scratch);
    assert_eq!(answers, expected());
    // Reuse happened: some answers came from lemmas alone, some from recorded facts, and
    // the lemmas were re-checked (Houdini) after each added transition clause.
    let by = |w: &str| {
        incremental
            .iter()
            .filter(|(_, r)| r.answered_by == Some(w))
            .count()
    };
    assert!(by("lemmas") >= 5, "{incremental:?}");
    assert!(by("facts") >= 1, "{incremental:?}");
    let houdini = incremental.iter().filter(|(_, r)| r.houdini).count();
    assert!(houdini >= 2, "{incremental:?}");
}

#[test]
fn incremental_and_fresh_sessions_agree_when_reuse_is_off() {
    // The same script with reuse off answers every question with the engine alone.
    let text = script();
    let cfg = config();
    let mut session = Session::new();
    session.set_incremental(false);
    let answers = session
        .replay(&text, |s| {
            let out = s.solve(&cfg, &ctl());
            assert_eq!(s.last_reuse().answered_by, None);
            out.answer.verdict()
        })
        .unwrap();
    assert_eq!(answers, expected());
}
