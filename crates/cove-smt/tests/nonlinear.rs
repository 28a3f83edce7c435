//! Nonlinear products by incremental linearization (`nonlinear.rs`): models whose products
//! are right, `unsat` over bounded ranges by tangent planes and value lemmas, and the
//! conversions between bit-vectors and integers (`bv2nat`, `nat2bv`) encoded exactly.
//! Answers confirmed by z3.

use cove_smt::run_script;

fn run(src: &str) -> String {
    let mut out = Vec::new();
    let code = run_script(src.as_bytes(), &mut out).expect("io");
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&out));
    String::from_utf8(out).expect("utf8")
}

#[test]
fn products_get_models_whose_products_are_right() {
    let out = run("(set-logic QF_NIA)
        (declare-const x Int) (declare-const y Int)
        (assert (and (<= 0 x 255) (<= 0 y 255) (> x y) (= (* x y) 221)))
        (check-sat) (get-value (x y))");
    assert!(out.starts_with("sat"), "{out}");
    // 221 = 13 * 17: the only factorization with x > y in range is (17, 13) or (221, 1).
    assert!(
        out.contains("(x 17)") && out.contains("(y 13)")
            || out.contains("(x 221)") && out.contains("(y 1)"),
        "{out}"
    );
}

#[test]
fn bounded_products_are_refuted() {
    // Products of 2..3 by 2..3 are 4, 6 and 9: never 7 (z3: unsat).
    let out = run("(set-logic QF_NIA)
        (declare-const x Int) (declare-const y Int)
        (assert (and (<= 2 x 3) (<= 2 y 3) (= (* x y) 7)))
        (check-sat)");
    assert_eq!(out.trim(), "unsat");
    // Solidity's checked multiplication of two uint8 values: a*b > 255 is possible.
    let out = run("(set-logic QF_NIA)
        (declare-const a Int) (declare-const b Int)
        (assert (and (<= 0 a 255) (<= 0 b 255) (> (* a b) 255) (< a 20)))
        (check-sat)");
    assert!(out.starts_with("sat"), "{out}");
}

#[test]
fn bit_vector_integer_conversions_are_exact() {
    // bv2nat is in [0, 2^w); nat2bv is modular, for negative arguments too (z3: unsat).
    let out = run("(set-logic ALL)
        (declare-const x (_ BitVec 8)) (declare-const n Int)
        (assert (or (< (bv2nat x) 0) (> (bv2nat x) 255)
                    (not (= ((_ nat2bv 8) 300) #x2C))
                    (not (= ((_ nat2bv 8) (- 1)) #xFF))
                    (and (= n (bv2nat x)) (not (= ((_ nat2bv 8) n) x)))))
        (check-sat)");
    assert_eq!(out.trim(), "unsat");
    let out = run("(set-logic ALL)
        (declare-const x (_ BitVec 8)) (declare-const n Int)
        (assert (and (= n (+ (bv2nat x) 256)) (= ((_ nat2bv 8) n) #xAB)))
        (check-sat) (get-value (x n))");
    assert!(out.starts_with("sat"), "{out}");
    assert!(
        out.contains("(x #xab)") || out.contains("(x #xAB)"),
        "{out}"
    );
    assert!(out.contains("(n 427)"), "{out}");
}
