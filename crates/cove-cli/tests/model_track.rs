//! CHC-COMP model-track output: `cove solve --model` prints `sat` and then exactly one
//! `define-fun` per predicate declared in the *input* file (also for predicates that
//! preprocessing removed), in SMT-LIB2 that other solvers read: quoted symbols kept quoted,
//! negative numbers as `(- n)`, Real constants as decimals. The competition's own check
//! (z3/cvc5 on the negated clauses) is scripts/chc/validate-models.py; here Cove's independent
//! checker re-reads the printed model.

use std::path::{Path, PathBuf};
use std::process::Command;

fn cove(args: &[&str]) -> (String, String, Option<i32>) {
    let o = Command::new(env!("CARGO_BIN_EXE_cove"))
        .args(args)
        .output()
        .expect("cove runs");
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code(),
    )
}

/// The names in `(declare-fun NAME (…) Bool)` lines of a test input.
fn declared_predicates(src: &str) -> Vec<String> {
    src.lines()
        .filter_map(|l| l.trim().strip_prefix("(declare-fun "))
        .filter(|rest| rest.trim_end().ends_with("Bool)"))
        .map(|rest| {
            if let Some(q) = rest.strip_prefix('|') {
                format!("|{}|", &q[..q.find('|').unwrap()])
            } else {
                rest.split_whitespace().next().unwrap().to_string()
            }
        })
        .collect()
}

/// Solves `file` with `--model` and checks the output's shape and, with `recheck`, its
/// validity (`cove check` does not take inputs with declared constants).
fn check_model_output(file: &Path, src: &str, recheck: bool) -> String {
    let path = file.to_str().unwrap();
    let (out, err, code) = cove(&["solve", "--model", "--timeout", "60", path]);
    assert_eq!(code, Some(0), "{err}");
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("sat"), "{out}");
    let mut defined: Vec<String> = Vec::new();
    for l in lines {
        let rest = l
            .strip_prefix("(define-fun ")
            .unwrap_or_else(|| panic!("not a define-fun line: {l}"));
        let name = if let Some(quoted) = rest.strip_prefix('|') {
            format!("|{}|", &quoted[..quoted.find('|').unwrap()])
        } else {
            rest.split_whitespace().next().unwrap().to_string()
        };
        defined.push(name);
    }
    let mut want = declared_predicates(src);
    // Declared constants are defined too, before the predicates.
    let consts: Vec<String> = src
        .lines()
        .filter_map(|l| l.trim().strip_prefix("(declare-const "))
        .map(|r| r.split_whitespace().next().unwrap().to_string())
        .collect();
    want.extend(consts);
    want.sort();
    defined.sort();
    assert_eq!(defined, want, "{out}");
    if !recheck {
        return out;
    }
    // Cove's independent checker accepts the printed model as a certificate.
    let dir = std::env::temp_dir().join(format!("cove-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let w = dir.join(format!(
        "{}.model",
        file.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&w, &out).unwrap();
    let (check, err, code) = cove(&["check", path, "--witness", w.to_str().unwrap()]);
    assert_eq!((check.trim(), code), ("valid", Some(0)), "{out}\n{err}");
    let _ = std::fs::remove_file(&w);
    out
}

#[test]
fn bundled_examples_print_one_define_fun_per_input_predicate() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    for name in ["counter.smt2", "mccarthy91.smt2", "recursive-mtd.smt2"] {
        let file = root.join(name);
        let src = std::fs::read_to_string(&file).unwrap();
        check_model_output(&file, &src, true);
    }
}

#[test]
fn removed_predicates_quoted_names_reals_and_constants_are_printed_readably() {
    let src = "(set-logic HORN)
(declare-fun |inv x| (Real Real) Bool)
(declare-fun unused (Int) Bool)
(declare-fun flag () Bool)
(declare-fun low (Int) Bool)
(assert (forall ((x Real) (y Real)) (=> (and (= x 0.5) (= y 0)) (|inv x| x y))))
(assert (forall ((x Real) (y Real) (x2 Real) (y2 Real))
  (=> (and (|inv x| x y) (< x 10) (= x2 (+ x 1)) (= y2 (+ y (/ 1 3)))) (|inv x| x2 y2))))
(assert (forall ((x Real) (y Real)) (=> (and (|inv x| x y) (< y 0)) false)))
(assert (forall ((n Int)) (=> (and (unused n) (> n 0)) (unused (+ n 1)))))
(assert (=> flag false))
(assert (forall ((x Int)) (=> (= x (- 5)) (low x))))
(assert (forall ((x Int)) (=> (and (low x) (> x (- 3))) false)))
(check-sat)
";
    let dir = std::env::temp_dir().join(format!("cove-model-src-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mixed.smt2");
    std::fs::write(&file, src).unwrap();
    let out = check_model_output(&file, src, true);
    // SMT-LIB2 numerals: no bare negative literals.
    assert!(!out.contains(" -"), "{out}");
    assert!(
        out.contains("(define-fun |inv x| ((x0 Real) (x1 Real)) Bool"),
        "{out}"
    );

    // A declared constant's value is printed as an SMT-LIB2 numeral too.
    let src = "(set-logic HORN)
(declare-const c Int)
(declare-fun low (Int) Bool)
(assert (forall ((x Int)) (=> (= x c) (low x))))
(assert (forall ((x Int)) (=> (and (low x) (> x (- 3))) false)))
(check-sat)
";
    let file = dir.join("constant.smt2");
    std::fs::write(&file, src).unwrap();
    let out = check_model_output(&file, src, false);
    assert!(out.contains("(define-fun c () Int (- "), "{out}");
    assert!(!out.contains(" -"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
