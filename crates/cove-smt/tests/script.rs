//! SMT-LIB2 script mode end to end.

use cove_smt::run_script;

fn run(src: &str) -> (i32, String) {
    let mut out = Vec::new();
    let code = run_script(src.as_bytes(), &mut out).expect("io");
    (code, String::from_utf8(out).unwrap())
}

#[test]
fn answers_models_values_and_cores() {
    let (code, out) = run(r#"
(set-logic QF_LIA)
(declare-fun x () Int)
(declare-const y Int)
(define-fun twice ((a Int)) Int (* 2 a))
(assert (! (>= x 3) :named a1))
(assert (! (<= (+ x y) 1) :named a2))
(assert (>= y 0))
(check-sat)
(get-unsat-core)
(push 1)
(assert (= (twice y) (+ x 1)))
(check-sat)
(pop 1)
(check-sat-assuming ((= x 0)))
(get-model)
(get-value (x (+ x y) (< x y)))
(echo "done")
(exit)
(check-sat)
"#);
    assert_eq!(code, 1, "get-model after unsat is an error: {out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "unsat");
    assert!(
        lines[1] == "(a1 a2)" || lines[1] == "(a2 a1)",
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "unsat");
    // With the named assertions still active, x = 0 contradicts x >= 3.
    assert_eq!(lines[3], "unsat");
    assert!(
        out.contains("(error"),
        "get-model after unsat is an error: {out}"
    );
    assert!(out.trim_end().ends_with("done"));
}

#[test]
fn sat_model_and_values() {
    let (code, out) = run(r#"
(set-logic QF_LRA)
(declare-fun x () Real)
(declare-fun y () Real)
(declare-fun p () Bool)
(assert (and (< x y) (> x 0.5) (=> p (< y 1.0)) p))
(check-sat)
(get-value (x y p))
(get-model)
"#);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("sat\n"), "{out}");
    assert!(out.contains("(define-fun x () Real"), "{out}");
    assert!(out.contains("(p true)"), "{out}");
}

#[test]
fn parse_errors_are_reported_with_positions() {
    let (code, out) = run("(check-sat)\n(assert (> x 1))\n");
    assert_eq!(code, 1);
    assert!(out.starts_with("sat\n(error \"2:"), "{out}");
}
