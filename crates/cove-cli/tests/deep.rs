//! Terms nested 200,000 deep through the binary (whose main thread has the default 8 MiB
//! stack): every pass over a term — reader, elaborator, clausifier, preprocessing,
//! simplifier, linearizer, SMT encoding, evaluation, printer, witness reader, certificate
//! checker — must be iterative. Before the fix each of these aborted with a stack overflow.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const DEPTH: usize = 200_000;

/// Writes `text` to a fresh temporary file named after the test.
fn temp(name: &str, text: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("cove-deep-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

fn cove(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_cove"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("cove runs");
    assert!(
        out.status.code().is_some(),
        "cove was killed by a signal: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

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

/// A counter system whose step clause carries `step` (over `x`, `y`) and whose query is
/// `p(x) ∧ x < 0 ∧ query`.
fn horn(step: &str, query: &str) -> String {
    format!(
        "(set-logic HORN)\n(declare-fun p (Int) Bool)\n\
         (assert (forall ((x Int)) (=> (= x 0) (p x))))\n\
         (assert (forall ((x Int) (y Int)) (=> (and (p x) {step}) (p y))))\n\
         (assert (forall ((x Int)) (=> (and (p x) (< x 0) {query}) false)))\n(check-sat)\n"
    )
}

fn solve_sat(name: &str, text: &str) {
    let f = temp(name, text);
    let out = cove(&["solve", f.to_str().unwrap(), "--model"]);
    let _ = std::fs::remove_file(&f);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout(&out).starts_with("sat\n"), "{}", stdout(&out));
}

#[test]
fn deep_plus_chain_in_a_clause() {
    // y = 1 + (1 + … (1 + x)): y = x + 200000.
    let sum = nest("(+ 1 ", "x", DEPTH);
    solve_sat("plus", &horn(&format!("(= y {sum})"), "true"));
}

#[test]
fn deep_and_nesting_in_a_clause() {
    let conj = nest("(and (>= x 0) ", "(>= x 0)", DEPTH);
    solve_sat("and", &horn(&format!("{conj} (= y (+ x 1))"), "true"));
}

#[test]
fn deep_let_nesting_in_a_clause() {
    // z is rebound 200000 times: y = x + 200000.
    let lets = nest("(let ((z (+ z 1))) ", "(= y z)", DEPTH);
    solve_sat("let", &horn(&format!("(let ((z x)) {lets})"), "true"));
}

#[test]
fn deep_ite_nesting_in_a_query() {
    let ite = nest("(ite (> x 5) (>= x 1) ", "(>= x 0)", DEPTH);
    solve_sat("ite", &horn("(= y (+ x 1))", &ite));
}

#[test]
fn deep_unsat_counterexample_is_found() {
    // The same deep sum, but now the query is reachable: x < 0 after one step from -1.
    let sum = nest("(+ (- 1) ", "x", DEPTH);
    let text = horn(&format!("(= y {sum})"), "true").replace("(= x 0)", "(= x 5)");
    let f = temp("unsat", &text);
    let out = cove(&["solve", f.to_str().unwrap(), "--cex"]);
    let _ = std::fs::remove_file(&f);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("unsat\n"), "{}", stdout(&out));
}

#[test]
fn smt_deep_assertion() {
    let sum = nest("(+ 1 ", "x", DEPTH);
    let text = format!(
        "(set-logic QF_LIA)\n(declare-fun x () Int)\n(declare-fun y () Int)\n\
         (assert (= y {sum}))\n(check-sat)\n(assert (< y x))\n(check-sat)\n"
    );
    let f = temp("smt", &text);
    let out = cove(&["smt", f.to_str().unwrap()]);
    let _ = std::fs::remove_file(&f);
    assert_eq!(stdout(&out), "sat\nunsat\n");
}

#[test]
fn smt_deep_boolean_structure_and_model() {
    let conj = nest("(and (>= x 3) ", "(or (= x 3) (= x 4))", DEPTH);
    let ite = nest("(ite (> x 3) (> x 0) ", "(< x 9)", DEPTH);
    let text = format!(
        "(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert {conj})\n(assert {ite})\n\
         (check-sat)\n(get-value (x))\n"
    );
    let f = temp("smtbool", &text);
    let out = cove(&["smt", f.to_str().unwrap()]);
    let _ = std::fs::remove_file(&f);
    let s = stdout(&out);
    assert!(s.starts_with("sat\n"), "{s}");
    assert!(s.contains("(x 3)") || s.contains("(x 4)"), "{s}");
}

/// `p(0)`, `p(x+1) <- p(x)`, `false <- p(x) ∧ x >= n`: a counterexample of `n+1` steps.
fn counter(n: usize) -> String {
    format!(
        "(set-logic HORN)\n(declare-fun p (Int) Bool)\n\
         (assert (forall ((x Int)) (=> (= x 0) (p x))))\n\
         (assert (forall ((x Int) (y Int)) (=> (and (p x) (= y (+ x 1))) (p y))))\n\
         (assert (forall ((x Int)) (=> (and (p x) (>= x {n})) false)))\n(check-sat)\n"
    )
}

/// A derivation witness of `counter(n)`: the chain of `n + 2` nested nodes.
fn chain_derivation(n: usize) -> String {
    let mut w = String::with_capacity(60 * n);
    w.push_str(&format!("(derivation\n(false (clause 2) (vars (x {n}))\n"));
    for k in (1..=n).rev() {
        w.push_str(&format!("(p {k} (clause 1) (vars (x {}) (y {k}))\n", k - 1));
    }
    w.push_str("(p 0 (clause 0) (vars (x 0)))");
    for _ in 0..=n {
        w.push(')');
    }
    w.push_str(")\n");
    w
}

#[test]
fn check_reads_a_deep_derivation() {
    let sys = temp("dsys", &counter(DEPTH));
    let wf = temp("dwit", &chain_derivation(DEPTH));
    let out = cove(&[
        "check",
        sys.to_str().unwrap(),
        "--witness",
        wf.to_str().unwrap(),
    ]);
    assert_eq!(
        stdout(&out).lines().next(),
        Some("valid"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A wrong value deep inside is found (smaller, the reading is what is deep above).
    let n = 20_000;
    std::fs::write(&sys, counter(n)).unwrap();
    let bad = chain_derivation(n).replace(
        "(p 17 (clause 1) (vars (x 16) (y 17))",
        "(p 17 (clause 1) (vars (x 15) (y 17))",
    );
    std::fs::write(&wf, bad).unwrap();
    let out = cove(&[
        "check",
        sys.to_str().unwrap(),
        "--witness",
        wf.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    let _ = std::fs::remove_file(&sys);
    let _ = std::fs::remove_file(&wf);
}

#[test]
fn check_reads_a_deep_invariant() {
    let sys = temp("isys", &horn("(= y (+ x 1))", "true"));
    // p(x0) := 1 + (1 + … x0) >= 200000, i.e. x0 >= 0.
    let sum = nest("(+ 1 ", "x0", DEPTH);
    let good = format!("(define-fun p ((x0 Int)) Bool (>= {sum} {DEPTH}))\n");
    let wf = temp("iwit", &good);
    let out = cove(&[
        "check",
        sys.to_str().unwrap(),
        "--witness",
        wf.to_str().unwrap(),
    ]);
    assert_eq!(
        stdout(&out).lines().next(),
        Some("valid"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Off by one: x0 >= 1 does not hold initially.
    let bad = format!("(define-fun p ((x0 Int)) Bool (> {sum} {DEPTH}))\n");
    std::fs::write(&wf, bad).unwrap();
    let out = cove(&[
        "check",
        sys.to_str().unwrap(),
        "--witness",
        wf.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    let _ = std::fs::remove_file(&sys);
    let _ = std::fs::remove_file(&wf);
}

#[test]
fn deep_input_on_stdin() {
    let sum = nest("(+ 1 ", "x", DEPTH);
    let text = horn(&format!("(= y {sum})"), "true");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cove"))
        .args(["solve", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(stdout(&out).starts_with("sat\n"));
}

#[test]
fn hundred_thousand_digit_numeral() {
    let big = "9".repeat(100_000);
    let text = horn("(= y (+ x 1))", &format!("(< x (- {big}))"));
    let t = std::time::Instant::now();
    solve_sat("bignum", &text);
    assert!(t.elapsed().as_secs_f64() < 5.0, "{:?}", t.elapsed());
}
