//! Regression tests for issue 11's wrong answers and limits: declared constants, several
//! questions in one file, non-HORN logics, limit parsing and exit codes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn cove_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cove"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cove runs");
    // A usage error ends the process before it reads its input: a broken pipe is expected.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn answers(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| matches!(*l, "sat" | "unsat" | "unknown"))
        .map(str::to_string)
        .collect()
}

fn solve(input: &str, extra: &[&str]) -> (Vec<String>, Output) {
    let mut args = vec!["solve", "-"];
    args.extend_from_slice(extra);
    let o = cove_stdin(&args, input);
    (answers(&o), o)
}

/// The example: one `k` shared by all clauses, chosen existentially (k = 0 works).
const SHARED_CONSTANT: &str = "(set-logic HORN)
(declare-const k Int)
(declare-fun p (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (p x))))
(assert (forall ((x Int)) (=> (and (p x) (< x k)) (p (+ x 1)))))
(assert (forall ((x Int)) (=> (and (p x) (> x 5)) false)))
(check-sat)
";

#[test]
fn declared_constants_are_existential_and_shared() {
    for engine in ["spacer", "bmc", "portfolio"] {
        let t = if engine == "bmc" { "1" } else { "20" };
        let (a, o) = solve(
            SHARED_CONSTANT,
            &["--engine", engine, "--model", "--timeout", t],
        );
        if engine == "bmc" {
            // BMC cannot prove safety; it must not claim a counterexample.
            assert_ne!(a, ["unsat"], "{engine}");
            continue;
        }
        assert_eq!(a, ["sat"], "{engine}: {o:?}");
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("(define-fun k () Int"), "{text}");
    }
}

#[test]
fn constants_restricted_by_assertions_get_a_value_in_range() {
    // The only good k is 4; then a contradictory assertion makes the second question unsat.
    let src = "(set-logic HORN)\n(declare-const k Int)\n(declare-fun p (Int) Bool)\n\
        (assert (> k 3))\n(assert (< k 5))\n\
        (assert (forall ((x Int)) (=> (= x k) (p x))))\n\
        (assert (forall ((x Int)) (=> (and (p x) (not (= x 4))) false)))\n(check-sat)\n\
        (assert (> k 4))\n(check-sat)\n";
    let (a, o) = solve(src, &["--model", "--timeout", "20"]);
    assert_eq!(a, ["sat", "unsat"], "{o:?}");
    assert!(String::from_utf8_lossy(&o.stdout).contains("(define-fun k () Int 4)"));
}

#[test]
fn a_counterexample_for_every_constant_value_is_unsat() {
    // p holds for every x, and the query fires when x > k: whatever k is, x = k + 1 is bad.
    let src = "(set-logic HORN)\n(declare-const k Int)\n(declare-fun p (Int) Bool)\n\
        (assert (forall ((x Int)) (p x)))\n\
        (assert (forall ((x Int)) (=> (and (p x) (> x k)) false)))\n(check-sat)\n";
    let (a, o) = solve(src, &["--timeout", "20"]);
    assert_eq!(a, ["unsat"], "{o:?}");
}

#[test]
fn counterexamples_that_need_unboundedly_many_shapes_give_unknown_not_a_guess() {
    // Unsafe for every k, but each counterexample covers only the values below its length:
    // no finite set of derivations proves it for all k, so the honest answer is unknown.
    let src = "(set-logic HORN)\n(declare-const k Int)\n(declare-fun p (Int) Bool)\n\
        (assert (forall ((x Int)) (=> (= x 0) (p x))))\n\
        (assert (forall ((x Int)) (=> (p x) (p (+ x 1)))))\n\
        (assert (forall ((x Int)) (=> (and (p x) (> x k)) false)))\n(check-sat)\n";
    let (a, o) = solve(src, &["--engine", "spacer", "--timeout", "20"]);
    assert_eq!(a, ["unknown"], "{o:?}");
}

#[test]
fn every_check_sat_gets_its_own_answer() {
    let src = "(set-logic HORN)\n(declare-fun p (Int) Bool)\n\
        (assert (forall ((x Int)) (=> (= x 0) (p x))))\n\
        (assert (forall ((x Int)) (=> (and (p x) (< x 10)) (p (+ x 1)))))\n\
        (push 1)\n(assert (forall ((x Int)) (=> (and (p x) (> x 10)) false)))\n(check-sat)\n(pop 1)\n\
        (assert (forall ((x Int)) (=> (and (p x) (= x 7)) false)))\n(check-sat)\n\
        (assert (forall ((x Int)) (=> (and (p x) (> x 3)) false)))\n(check-sat)\n(exit)\n(check-sat)\n";
    let (a, o) = solve(src, &["--timeout", "20"]);
    assert_eq!(a, ["sat", "unsat", "unsat"], "{o:?}");
}

#[test]
fn every_fixedpoint_query_is_its_own_question() {
    let src = "(declare-rel P (Int))\n(declare-var x Int)\n(rule (=> (= x 0) (P x)))\n\
        (rule (=> (and (P x) (< x 3)) (P (+ x 1))))\n(query (and (P x) (> x 5)))\n\
        (query (and (P x) (= x 2)))\n(query (and (P x) (< x 0)))\n";
    let (a, o) = solve(src, &["--timeout", "20"]);
    assert_eq!(a, ["sat", "unsat", "sat"], "{o:?}");
}

#[test]
fn non_horn_logics_are_refused_with_a_pointer_to_cove_smt() {
    let (a, o) = solve(
        "(set-logic QF_LIA)\n(declare-const k Int)\n(assert (> k 3))\n(check-sat)\n",
        &[],
    );
    assert!(a.is_empty());
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("1:1") && err.contains("cove smt"), "{err}");
}

const SAFE: &str = "(set-logic HORN)\n(declare-fun p (Int) Bool)\n\
    (assert (forall ((x Int)) (=> (= x 0) (p x))))\n\
    (assert (forall ((x Int)) (=> (and (p x) (> x 5)) false)))\n(check-sat)\n";

#[test]
fn limit_values_are_parsed_strictly() {
    for ok in ["inf", "1e30", "9.3e18", "0", "none", "2.5"] {
        let (a, o) = solve(SAFE, &["--timeout", ok]);
        assert_eq!(a, ["sat"], "--timeout {ok}: {o:?}");
    }
    for bad in ["nan", "abc", "-1", "1e400x"] {
        let o = cove_stdin(&["solve", "-", &format!("--timeout={bad}")], SAFE);
        assert_eq!(o.status.code(), Some(1), "--timeout {bad}: {o:?}");
    }
    let o = cove_stdin(&["solve", "-", "--memory-mb=lots"], SAFE);
    assert_eq!(o.status.code(), Some(1));
    let (a, _) = solve(SAFE, &["--memory-mb", "2048"]);
    assert_eq!(a, ["sat"]);
}

#[test]
fn usage_errors_exit_1_and_help_exits_0() {
    let o = cove_stdin(&["solve", "--no-such-flag", "-"], SAFE);
    assert_eq!(o.status.code(), Some(1));
    let o = cove_stdin(&["--help"], "");
    assert_eq!(o.status.code(), Some(0));
    let o = cove_stdin(&["solve", "-", "--engine", "nope"], SAFE);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn cove_smt_has_limits_and_locates_errors() {
    let o = cove_stdin(
        &["smt", "-", "--timeout", "10"],
        "(set-logic QF_LIA)\n(declare-const x Int)\n(assert (> x 3))\n(check-sat)\n",
    );
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "sat");
    let o = cove_stdin(&["smt", "-", "--timeout", "nan"], "");
    assert_eq!(o.status.code(), Some(1));
    let o = cove_stdin(&["smt", "-"], "(set-logic QF_LIA)\n(assert (> y 3))\n");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("-:2:"), "{err}");
}

#[test]
fn check_locates_structural_witness_errors() {
    let dir = std::env::temp_dir().join(format!("cove-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sys = dir.join("s.smt2");
    std::fs::write(&sys, SAFE).unwrap();
    for (witness, expect) in [
        (
            "sat\n(define-fun p ((x Int) (y Int)) Bool true)\n",
            "w:2:1: the definition of 'p' has 2",
        ),
        (
            "sat\n(define-fun q ((x Int)) Bool true)\n",
            "w:2:1: 'q' is not a predicate",
        ),
        (
            "(model\n  (define-fun q ((x Int)) Bool true))\n",
            "w:2:3: 'q' is not a predicate",
        ),
    ] {
        let w = dir.join("w");
        std::fs::write(&w, witness).unwrap();
        let o = cove_stdin(
            &[
                "check",
                &sys.display().to_string(),
                "--witness",
                &w.display().to_string(),
            ],
            "",
        );
        assert_eq!(o.status.code(), Some(2), "{witness}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(expect), "{witness}: {err}");
    }
}

#[test]
fn check_takes_one_answer_per_question_and_the_constants_values() {
    let dir = std::env::temp_dir().join(format!("cove-check-q-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |file: &str, witness: &str| {
        let (f, w) = (dir.join("f.smt2"), dir.join("w"));
        std::fs::write(&f, file).unwrap();
        std::fs::write(&w, witness).unwrap();
        let o = cove_stdin(
            &[
                "check",
                &f.display().to_string(),
                "--witness",
                &w.display().to_string(),
            ],
            "",
        );
        let lines: Vec<String> = String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(str::to_string)
            .collect();
        (lines, o.status.code())
    };
    // What `cove solve --model --cex` prints is accepted, answer by answer.
    let (sol, o) = solve(SHARED_CONSTANT, &["--model"]);
    assert_eq!(sol, ["sat"], "{o:?}");
    let printed = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(
        run(SHARED_CONSTANT, &printed),
        (vec!["valid".into()], Some(0))
    );
    // A value of k for which the invariant is wrong: k = 9 lets x reach 9 > 5.
    let wrong = "sat\n(define-fun k () Int 9)\n(define-fun p ((x Int)) Bool (<= x 5))\n";
    assert_eq!(
        run(SHARED_CONSTANT, wrong),
        (vec!["invalid".into()], Some(3))
    );
    let missing = "sat\n(define-fun p ((x Int)) Bool (<= x 5))\n";
    assert_eq!(run(SHARED_CONSTANT, missing).1, Some(2));

    let two = "(set-logic HORN)\n(declare-fun p (Int) Bool)\n\
        (assert (forall ((x Int)) (=> (= x 0) (p x))))\n\
        (push 1)\n(assert (forall ((x Int)) (=> (and (p x) (> x 5)) false)))\n(check-sat)\n(pop 1)\n\
        (assert (forall ((x Int)) (=> (and (p x) (= x 0)) false)))\n(check-sat)\n";
    let (sol, o) = solve(two, &["--model", "--cex"]);
    assert_eq!(sol, ["sat", "unsat"], "{o:?}");
    let printed = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(
        run(two, &printed),
        (vec!["valid".into(), "valid".into()], Some(0))
    );
    let bad = "sat\n(define-fun p ((x Int)) Bool (<= x 6))\nunknown\n";
    assert_eq!(
        run(two, bad),
        (vec!["invalid".into(), "unknown".into()], Some(3))
    );
    assert_eq!(
        run(two, "sat\n(define-fun p ((x Int)) Bool (= x 0))\n").1,
        Some(2)
    );
}
