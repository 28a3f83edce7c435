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

/// A small deterministic generator (xorshift), so the test needs no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

/// One atom over `x`, `y` (integers in [-4, 4]) and `b` (3 bits): its SMT-LIB text and its
/// meaning, evaluated directly.
type Atom = (String, Box<dyn Fn(i64, i64, i64) -> bool>);

fn atom(r: &mut Rng) -> Atom {
    match r.int(0, 2) {
        0 | 1 => {
            let (c1, c2, c3, c4, k) = (
                r.int(-2, 2),
                r.int(-2, 2),
                r.int(-2, 2),
                r.int(-1, 1),
                r.int(-8, 8),
            );
            let square = r.int(0, 1) == 1;
            let op = ["<=", "=", ">="][r.int(0, 2) as usize];
            let prod = if square { "(* x x)" } else { "(* x y)" };
            let text = format!(
                "({op} (+ (* {} x) (* {} y) (* {} {prod}) (* {} (bv2nat b))) {})",
                lit(c1),
                lit(c2),
                lit(c3),
                lit(c4),
                lit(k)
            );
            let f = move |x: i64, y: i64, b: i64| {
                let p = if square { x * x } else { x * y };
                let v = c1 * x + c2 * y + c3 * p + c4 * b;
                match op {
                    "<=" => v <= k,
                    "=" => v == k,
                    _ => v >= k,
                }
            };
            (text, Box::new(f))
        }
        _ => {
            let k = r.int(-9, 9);
            let text = format!("(= ((_ nat2bv 3) (+ x {})) b)", lit(k));
            (text, Box::new(move |x, _, b| (x + k).rem_euclid(8) == b))
        }
    }
}

/// An integer literal in SMT-LIB syntax.
fn lit(n: i64) -> String {
    if n < 0 {
        format!("(- {})", -n)
    } else {
        n.to_string()
    }
}

/// Random formulas mixing products, squares, `bv2nat` and `nat2bv` over small ranges: the
/// answer is known by enumerating all 648 points, and the core must never contradict it
/// (products refined, conversions exact). Most must be decided.
#[test]
fn random_bounded_formulas_agree_with_enumeration() {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut decided, mut sat, total) = (0, 0, 200);
    for case in 0..total {
        let a: Vec<Atom> = (0..4).map(|_| atom(&mut r)).collect();
        let truth = (-4..=4).any(|x| {
            (-4..=4).any(|y| {
                (0..8).any(|b| {
                    (a[0].1(x, y, b) || a[1].1(x, y, b)) && a[2].1(x, y, b) && a[3].1(x, y, b)
                })
            })
        });
        let src = format!(
            "(set-logic ALL)\n(declare-const x Int) (declare-const y Int) (declare-const b (_ BitVec 3))\n\
             (assert (and (<= (- 4) x 4) (<= (- 4) y 4)))\n\
             (assert (or {} {}))\n(assert {})\n(assert {})\n(check-sat)\n",
            a[0].0, a[1].0, a[2].0, a[3].0
        );
        let out = run(&src);
        match out.trim() {
            "sat" => {
                assert!(truth, "case {case}: sat, but no point satisfies\n{src}");
                sat += 1;
            }
            "unsat" => assert!(!truth, "case {case}: unsat, but a point satisfies\n{src}"),
            _ => continue,
        }
        decided += 1;
    }
    assert!(
        decided >= total * 9 / 10,
        "only {decided} of {total} decided"
    );
    assert!(
        sat > 20 && decided - sat > 20,
        "{sat} sat of {decided}: the mix is lopsided"
    );
}

/// Quantifier elimination of a sentence part: `∃x y·` (bit-vector conversions of `x`, `y`
/// and a product) `∧ z ≥ 1` is `z ≥ 1`. MBP cannot project `x` and `y` out of `nat2bv` or a
/// product, but those conjuncts share no variable with `z`: they form a sentence, true
/// because the formula has a model. Unsatisfiable, the same shape eliminates to `false`.
#[test]
fn quantifier_elimination_decides_closed_parts() {
    use cove_logic::smtlib::{Command, parse_script};
    use cove_logic::{Model, TermStore, Value};
    let src = "(declare-const x Int) (declare-const y Int) (declare-const z Int)
        (assert (and (<= (- 32768) x 32767) (<= (- 32768) y 32767)
          (= (bv2nat (bvor ((_ int2bv 16) x) ((_ int2bv 16) (- y)))) (+ (* x y) 3))
          (>= z 1)))
        (assert (and (<= 0 x 3) (<= 0 y 3) (= (* x y) 7) (>= z 1)))";
    let mut store = TermStore::new();
    let script = parse_script(src.as_bytes(), &mut store).unwrap();
    let phis = script.assertions();
    let declared: Vec<_> = script
        .commands
        .iter()
        .filter_map(|(c, _)| match c {
            Command::DeclareConst(v) => Some(*v),
            _ => None,
        })
        .collect();
    let (vars, z) = (declared[..2].to_vec(), declared[2]);
    let open = cove_smt::mbp::qe(&mut store, phis[0], &vars).expect("eliminated");
    for (zv, want) in [(0, false), (1, true), (5, true)] {
        let mut m = Model::new();
        m.set(z, Value::Num(cove_logic::Rational::int(zv)));
        assert_eq!(m.eval(&store, open), Ok(Value::Bool(want)), "z = {zv}");
    }
    let none = cove_smt::mbp::qe(&mut store, phis[1], &vars).expect("eliminated");
    assert_eq!(store.as_bool(none), Some(false));
}

/// The GCD test over rows of wide bit encodings: `bv2nat` of a 200-bit word is even when its
/// low bit is clear, so it is never `2^199 + 1`; and a word plus itself is never odd.
/// Bounded by conflicts through the script's default limits, these end at once.
#[test]
fn wide_conversions_meet_parity_at_once() {
    let out = run(
        "(set-logic ALL) (declare-const v (_ BitVec 200)) (declare-const n Int)
        (assert (= ((_ extract 0 0) v) #b0))
        (assert (= (bv2nat v) (+ n n 1)))
        (check-sat)",
    );
    assert_eq!(out.trim(), "unsat");
    let out = run("(set-logic ALL) (declare-const x Int) (declare-const y Int)
        (assert (<= (- 32768) x 32767))
        (assert (= (bv2nat (ite (>= x 0) ((_ int2bv 16) x) (bvneg ((_ int2bv 16) (- x))))) y))
        (assert (= x (- 5)))
        (check-sat) (get-value (y))");
    assert!(out.starts_with("sat") && out.contains("(y 65531)"), "{out}");
}

#[test]
fn copies_of_one_product_agree() {
    // Two calls of solc's `mul(x, y)` on the same int16 arguments: two products whose
    // factors are equal only through the constraints. Before congruence lemmas the value
    // lemmas ran out of rounds (`unknown`); z3: unsat.
    let out = run("(set-logic QF_NIA)
        (declare-const x1 Int) (declare-const y1 Int)
        (declare-const x2 Int) (declare-const y2 Int)
        (assert (and (<= (- 32768) x1 32767) (<= (- 32768) y1 32767)
                     (<= x1 x2) (<= x2 x1) (<= y2 y1) (<= y1 y2)))
        (assert (distinct (* 3 x1 y1) (* 3 y2 x2)))
        (check-sat)");
    assert_eq!(out.trim(), "unsat");
    // Different coefficients: 3·x·y = 2·x·y only when the product is 0 (z3: sat).
    let out = run("(set-logic QF_NIA)
        (declare-const x1 Int) (declare-const y1 Int)
        (declare-const x2 Int) (declare-const y2 Int)
        (assert (and (<= 1 x1 32767) (<= (- 32768) y1 32767)
                     (<= x1 x2) (<= x2 x1) (<= y2 y1) (<= y1 y2)))
        (assert (= (* 3 x1 y1) (* 2 y2 x2)))
        (check-sat) (get-value (y1))");
    assert!(out.starts_with("sat") && out.contains("(y1 0)"), "{out}");
}

#[test]
fn overflowing_products_get_models_by_fixing_a_factor() {
    // solc's checked `a * b` on uint256, reached under a clause guard as in Spacer's
    // queries: is `a·b ≥ 2^256` possible? Each refinement round pinned the product at one
    // candidate's factors and the search moved on to others: 400 rounds, no model,
    // `unknown` (z3: sat). Fixing `b` at its candidate value leaves a linear bound on `a`.
    let max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
    let out = run(&format!(
        "(set-logic QF_NIA)
        (declare-const a Int) (declare-const b Int) (declare-const e Int) (declare-const r Bool)
        (assert (or (not r) (and (<= 0 a) (<= a {max}) (<= 0 b) (<= b {max})
          (<= (* (- 1) (* a b)) (- (- {max}) 1)) (= e 7))))
        (assert (<= e 15))
        (check-sat-assuming (r))
        (get-value (a b))"
    ));
    assert!(out.starts_with("sat"), "{out}");
}
