//! Bit-vectors in the term language: every operator's meaning against recorded z3 values
//! (widths 1 to 64 and wider, `scripts/smt/gen-bv-ground.py`), constant folding agreeing with
//! evaluation, printing that reads back to the same term, and clear refusals.

use cove_logic::print::term_to_string;
use cove_logic::smtlib::{ErrorKind, parse_script};
use cove_logic::{BvOp, BvValue, Model, Sort, TermId, TermStore, Value, simplify};
use cove_testkit::Rng;

fn asserts(src: &str, store: &mut TermStore) -> Vec<TermId> {
    parse_script(src.as_bytes(), store)
        .expect("parses")
        .assertions()
}

#[test]
fn every_operator_matches_recorded_z3_values() {
    let src = include_str!("data/bv_ground.smt2");
    let mut store = TermStore::new();
    let ts = asserts(src, &mut store);
    assert!(ts.len() > 2000, "{} identities", ts.len());
    let model = Model::new();
    for (i, &t) in ts.iter().enumerate() {
        // The constructors fold constants: both sides are the same literal...
        assert_eq!(
            store.args(t)[0],
            store.args(t)[1],
            "identity {} folded to {}",
            i + 1,
            term_to_string(&store, t)
        );
        // ...and so is its evaluation.
        assert_eq!(model.eval(&store, t), Ok(Value::Bool(true)));
    }
}

/// Random terms over variables: evaluation under a model agrees with substituting the
/// model's values and folding.
#[test]
fn evaluation_agrees_with_folding() {
    let mut checked = 0;
    let mut rng = Rng::new(7);
    for round in 0..300 {
        let w = 1 + rng.below(64) as u32;
        let mut s = TermStore::new();
        let vars: Vec<TermId> = (0..3)
            .map(|i| {
                let v = s.var(&format!("x{i}"), Sort::BitVec(w));
                s.mk_var(v)
            })
            .collect();
        let mut model = Model::new();
        let mut vals = Vec::new();
        for &x in &vars {
            let v = BvValue::from_u64(w, rng.next_u64());
            vals.push(v.clone());
            model.set(s.as_var(x).unwrap(), Value::Bv(v));
        }
        let ops = [
            BvOp::And,
            BvOp::Or,
            BvOp::Xor,
            BvOp::Add,
            BvOp::Mul,
            BvOp::Udiv,
            BvOp::Urem,
            BvOp::Sdiv,
            BvOp::Srem,
            BvOp::Smod,
            BvOp::Shl,
            BvOp::Lshr,
            BvOp::Ashr,
        ];
        let mut t = vars[0];
        for k in 0..4 {
            let op = ops[rng.below(ops.len())].clone();
            t = s.mk_bv(op, &[t, vars[(k + 1) % 3]], None).unwrap();
        }
        let got = model.eval(&s, t).unwrap();
        let lits: Vec<TermId> = vals.iter().map(|v| s.mk_bv_lit(v.clone())).collect();
        let map: rustc_hash::FxHashMap<_, _> = vars
            .iter()
            .zip(&lits)
            .map(|(&x, &l)| (s.as_var(x).unwrap(), l))
            .collect();
        let inst = cove_logic::substitute(&mut s, t, &map);
        let folded = simplify(&mut s, inst);
        assert_eq!(
            s.as_bv(folded).map(|v| Value::Bv(v.clone())),
            Some(got),
            "round {round}: {}",
            term_to_string(&s, t)
        );
        checked += 1;
    }
    assert_eq!(checked, 300);
}

#[test]
fn printed_terms_read_back_to_the_same_term() {
    let mut rng = Rng::new(11);
    for _ in 0..200 {
        let mut s = TermStore::new();
        let w = 1 + rng.below(70) as u32;
        let x = s.var("x", Sort::BitVec(w));
        let y = s.var("y", Sort::BitVec(w));
        let (x, y) = (s.mk_var(x), s.mk_var(y));
        let mut t = x;
        for _ in 0..5 {
            t = match rng.below(8) {
                0 => s.mk_bv(BvOp::Add, &[t, y], None).unwrap(),
                1 => s.mk_bv(BvOp::Not, &[t], None).unwrap(),
                2 => {
                    let c = s.mk_bv_lit(BvValue::from_u64(w, rng.next_u64()));
                    s.mk_bv(BvOp::Mul, &[t, c], None).unwrap()
                }
                3 => {
                    let h = rng.below(w as usize) as u32;
                    let e = s.mk_extract(h, 0, t);
                    s.mk_bv(BvOp::ZeroExtend(w - 1 - h), &[e], None).unwrap()
                }
                4 => s.mk_bv(BvOp::Sdiv, &[t, y], None).unwrap(),
                5 => {
                    let n = s.mk_bv(BvOp::ToNat, &[t], None).unwrap();
                    s.mk_bv(BvOp::OfInt, &[n], Some(w)).unwrap()
                }
                6 => {
                    let c = s.mk_bv(BvOp::Ult, &[t, y], None).unwrap();
                    s.mk_ite(c, t, y)
                }
                _ => s.mk_bv(BvOp::Lshr, &[y, t], None).unwrap(),
            };
        }
        let goal = s.mk_bv(BvOp::Sle, &[t, x], None).unwrap();
        let text = format!(
            "(declare-fun x () (_ BitVec {w}))(declare-fun y () (_ BitVec {w}))(assert {})",
            term_to_string(&s, goal)
        );
        let back = asserts(&text, &mut s);
        assert_eq!(back, vec![goal], "{text}");
    }
}

#[test]
fn simplifier_keeps_bit_vector_terms_equivalent() {
    let src = "(declare-fun x () (_ BitVec 8))(declare-fun y () (_ BitVec 8))
        (assert (distinct ((_ extract 7 4) (concat x y)) ((_ extract 3 0) (bvxor y #xff))))
        (assert (= (bvsub x y) (bvadd x (bvneg y) #x00)))
        (assert (bvuge ((_ rotate_left 3) x) ((_ rotate_right 5) x)))";
    let mut s = TermStore::new();
    let ts = asserts(src, &mut s);
    // Rotations by complementary amounts are the same term; so are the two sides of 2.
    assert_eq!(s.args(ts[1])[0], s.args(ts[1])[1]);
    assert_eq!(s.as_bool(ts[2]), Some(true));
    let t1 = simplify(&mut s, ts[1]);
    assert_eq!(s.as_bool(t1), Some(true));
    let t0 = simplify(&mut s, ts[0]);
    let mut rng = Rng::new(3);
    for _ in 0..200 {
        let mut m = Model::new();
        for name in ["x", "y"] {
            let v = s.var(name, Sort::BitVec(8));
            m.set(v, Value::Bv(BvValue::from_u64(8, rng.next_u64())));
        }
        assert_eq!(m.eval(&s, ts[0]), m.eval(&s, t0));
    }
}

#[test]
fn ill_formed_bit_vector_input_is_refused_with_a_position() {
    let cases = [
        ("(declare-fun x () (_ BitVec 0))", ErrorKind::Sort),
        (
            "(declare-fun x () (_ BitVec 8))(assert (= x #b101))",
            ErrorKind::Sort,
        ),
        (
            "(declare-fun x () (_ BitVec 8))(assert (= ((_ extract 8 0) x) x))",
            ErrorKind::Sort,
        ),
        (
            "(declare-fun x () (_ BitVec 8))(assert (bvult x))",
            ErrorKind::Arity,
        ),
        ("(assert (= #b12 #b11))", ErrorKind::Syntax),
        ("(assert (= #x #x0))", ErrorKind::Syntax),
        (
            "(declare-fun x () (_ BitVec 8))(assert (= ((_ repeat 0) x) x))",
            ErrorKind::Syntax,
        ),
        (
            "(declare-fun x () (_ BitVec 8))(assert (= ((_ extract 3) x) x))",
            ErrorKind::Syntax,
        ),
        ("(declare-fun x () (_ BitVec 99999999))", ErrorKind::Sort),
        ("(assert (= ((_ nat2bv 4) #x1) #x1))", ErrorKind::Sort),
    ];
    for (src, kind) in cases {
        let mut s = TermStore::new();
        let e = parse_script(src.as_bytes(), &mut s).expect_err(src);
        assert_eq!(e.kind, kind, "{src}: {e}");
        assert!(e.line >= 1);
    }
}

#[test]
fn values_print_the_smtlib_way() {
    let mut s = TermStore::new();
    let v = Value::Bv(BvValue::from_u64(12, 0xabc));
    assert_eq!(v.to_string(), "#xabc");
    assert_eq!(
        cove_logic::print::value_text(&Value::Bv(BvValue::from_u64(3, 6)), Sort::BitVec(3)),
        "#b110"
    );
    let t = v.to_term(&mut s, Sort::BitVec(12));
    assert_eq!(term_to_string(&s, t), "#xabc");
    assert_eq!(Value::default_of(Sort::BitVec(5)).to_string(), "#b00000");
}

/// `nat2bv` distributes over integer linear sums (a ring homomorphism onto `Z/2^w`): the
/// constructor's rewrite keeps the meaning for negative values, large coefficients and
/// constants, and turns solc's `nat2bv(−x)` into `bvneg(nat2bv(x))`.
#[test]
fn nat2bv_of_a_linear_sum_keeps_its_meaning() {
    let mut s = TermStore::new();
    let x = s.var("x", Sort::Int);
    let xt = s.mk_var(x);
    let minus_x = s.mk_neg(xt);
    let of_minus_x = s.mk_bv(BvOp::OfInt, &[minus_x], Some(16)).unwrap();
    let of_x = s.mk_bv(BvOp::OfInt, &[xt], Some(16)).unwrap();
    let neg_of_x = s.mk_bv(BvOp::Neg, &[of_x], None).unwrap();
    assert_eq!(of_minus_x, neg_of_x);

    let mut rng = Rng::new(11);
    for round in 0..400 {
        let mut s = TermStore::new();
        let w = 1 + rng.below(80) as u32;
        let vars: Vec<TermId> = (0..3)
            .map(|i| {
                let v = s.var(&format!("x{i}"), Sort::Int);
                s.mk_var(v)
            })
            .collect();
        let num = |s: &mut TermStore, rng: &mut Rng| {
            let n = rng.below(1 << 20) as i64 - (1 << 19);
            let big = cove_logic::Rational::int(n) * cove_logic::Rational::int(1 << 40);
            let v = if rng.below(3) == 0 {
                big
            } else {
                cove_logic::Rational::int(n)
            };
            s.mk_num(v, Sort::Int)
        };
        let mut parts = Vec::new();
        for &x in &vars {
            let c = num(&mut s, &mut rng);
            let p = match rng.below(3) {
                0 => s.mk_mul(&[c, x]),
                1 => s.mk_neg(x),
                _ => x,
            };
            parts.push(p);
        }
        parts.push(num(&mut s, &mut rng));
        let sum = if rng.below(2) == 0 {
            s.mk_add(&parts)
        } else {
            let head = s.mk_add(&parts[..2]);
            let tail = s.mk_add(&parts[2..]);
            s.mk_sub(head, tail)
        };
        let t = s.mk_bv(BvOp::OfInt, &[sum], Some(w)).unwrap();
        let mut model = Model::new();
        for &x in &vars {
            let v = cove_logic::Rational::int(rng.below(1 << 30) as i64 - (1 << 29));
            model.set(s.as_var(x).unwrap(), Value::Num(v));
        }
        // The reference: the sum's integer value, taken modulo 2^w by constant folding.
        let Ok(Value::Num(n)) = model.eval(&s, sum) else {
            panic!("an integer sum")
        };
        let n = s.mk_num(n, Sort::Int);
        let want = s.mk_bv(BvOp::OfInt, &[n], Some(w)).unwrap();
        let want = s.as_bv(want).cloned().expect("folded");
        assert_eq!(
            model.eval(&s, t),
            Ok(Value::Bv(want)),
            "round {round}: {}",
            term_to_string(&s, t)
        );
    }
}
