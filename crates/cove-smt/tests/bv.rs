//! Bit-vectors in the SMT core: verdicts against recorded z3 answers on random problems of
//! every width from 1 to 64 (`scripts/smt/gen-bv-scripts.py`; no z3 needed here), against
//! exhaustive enumeration on narrow random problems, models checked by evaluation, and
//! assumptions, cores and push/pop over bit-vector atoms.

use cove_logic::smtlib::parse_script;
use cove_logic::{BvOp, BvValue, Model, Sort, TermId, TermStore, Value, VarId};
use cove_smt::{Limits, SmtResult, SmtSolver};
use cove_testkit::Rng;

fn asserts(src: &str, store: &mut TermStore) -> Vec<TermId> {
    parse_script(src.as_bytes(), store)
        .expect("parses")
        .assertions()
}

fn limited() -> SmtSolver {
    let mut s = SmtSolver::new();
    s.set_limits(Limits {
        conflicts: Some(200_000),
        ..Limits::default()
    });
    s
}

fn check_model(st: &TermStore, s: &SmtSolver, ts: &[TermId], what: &str) {
    let m = s.model(st);
    for &t in ts {
        assert_eq!(m.eval(st, t), Ok(Value::Bool(true)), "{what}: model fails");
    }
}

#[test]
fn random_problems_match_recorded_z3_verdicts() {
    let data = include_str!("data/bv_random.smt2");
    let mut solved = 0;
    for chunk in data.split("; problem ").skip(1) {
        let (num, rest) = chunk.split_once('\n').expect("header");
        let (expect, src) = rest.split_once('\n').expect("verdict");
        let expect = expect.trim_start_matches("; expect ").trim();
        let mut st = TermStore::new();
        let ts = asserts(src, &mut st);
        let mut s = limited();
        for &t in &ts {
            s.assert(&mut st, t);
        }
        match s.check(&mut st) {
            SmtResult::Sat => {
                assert_eq!(expect, "sat", "problem {num}: cove says sat");
                check_model(&st, &s, &ts, num);
                solved += 1;
            }
            SmtResult::Unsat => {
                assert_eq!(expect, "unsat", "problem {num}: cove says unsat");
                solved += 1;
            }
            SmtResult::Unknown(r) => panic!("problem {num}: unknown ({r:?})"),
        }
    }
    assert_eq!(solved, 192);
}

/// A random term of width `w` over `vars`, built with the checked constructors.
fn random_term(s: &mut TermStore, rng: &mut Rng, w: u32, vars: &[TermId], depth: u32) -> TermId {
    if depth == 0 || rng.chance(1, 4) {
        return if rng.chance(3, 4) {
            vars[rng.below(vars.len())]
        } else {
            s.mk_bv_lit(BvValue::from_u64(w, rng.next_u64()))
        };
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
    let a = random_term(s, rng, w, vars, depth - 1);
    match rng.below(6) {
        0 => s.mk_bv(BvOp::Not, &[a], None).unwrap(),
        1 => s.mk_bv(BvOp::Neg, &[a], None).unwrap(),
        2 => {
            let c = random_atom(s, rng, w, vars, depth - 1);
            let b = random_term(s, rng, w, vars, depth - 1);
            s.mk_ite(c, a, b)
        }
        3 if w >= 2 => {
            let k = 1 + rng.below(w as usize - 1) as u32;
            let e = s.mk_extract(k - 1, 0, a);
            let op = if rng.flip() {
                BvOp::ZeroExtend(w - k)
            } else {
                BvOp::SignExtend(w - k)
            };
            s.mk_bv(op, &[e], None).unwrap()
        }
        _ => {
            let b = random_term(s, rng, w, vars, depth - 1);
            let op = ops[rng.below(ops.len())].clone();
            s.mk_bv(op, &[a, b], None).unwrap()
        }
    }
}

fn random_atom(s: &mut TermStore, rng: &mut Rng, w: u32, vars: &[TermId], depth: u32) -> TermId {
    let a = random_term(s, rng, w, vars, depth);
    let b = random_term(s, rng, w, vars, depth);
    let op = [BvOp::Ult, BvOp::Ule, BvOp::Slt, BvOp::Sle][rng.below(4)].clone();
    if rng.chance(1, 3) {
        s.mk_eq(a, b)
    } else {
        s.mk_bv(op, &[a, b], None).unwrap()
    }
}

/// Every assignment of the variables (widths up to 4, so at most 2^12 of them).
fn brute_force_sat(s: &TermStore, vars: &[VarId], w: u32, f: TermId) -> bool {
    let n = vars.len() as u32 * w;
    (0..1u64 << n).any(|bits| {
        let mut m = Model::new();
        for (i, &v) in vars.iter().enumerate() {
            let x = (bits >> (i as u32 * w)) & ((1 << w) - 1);
            m.set(v, Value::Bv(BvValue::from_u64(w, x)));
        }
        m.eval_bool(s, f).unwrap()
    })
}

#[test]
fn narrow_random_problems_match_enumeration() {
    let mut rng = Rng::new(32);
    let (mut sat, mut unsat) = (0, 0);
    for round in 0..400 {
        let w = 1 + rng.below(4) as u32;
        let mut st = TermStore::new();
        let vars: Vec<VarId> = (0..3)
            .map(|i| st.var(&format!("x{i}"), Sort::BitVec(w)))
            .collect();
        let vts: Vec<TermId> = vars.iter().map(|&v| st.mk_var(v)).collect();
        let k = 1 + rng.below(3);
        let atoms: Vec<TermId> = (0..k)
            .map(|_| {
                let a = random_atom(&mut st, &mut rng, w, &vts, 3);
                if rng.flip() { st.mk_not(a) } else { a }
            })
            .collect();
        let f = st.mk_and(&atoms);
        let truth = brute_force_sat(&st, &vars, w, f);
        let mut s = limited();
        s.assert(&mut st, f);
        match s.check(&mut st) {
            SmtResult::Sat => {
                assert!(truth, "round {round}: sat but no assignment satisfies it");
                check_model(&st, &s, &[f], "enumeration");
                sat += 1;
            }
            SmtResult::Unsat => {
                assert!(
                    !truth,
                    "round {round}: unsat but an assignment satisfies it"
                );
                unsat += 1;
            }
            SmtResult::Unknown(r) => panic!("round {round}: unknown ({r:?})"),
        }
    }
    assert!(sat > 50 && unsat > 50, "sat {sat}, unsat {unsat}");
}

#[test]
fn assumptions_cores_and_scopes_over_bit_vector_atoms() {
    let mut st = TermStore::new();
    let ts = asserts(
        "(declare-fun x () (_ BitVec 16))(declare-fun y () (_ BitVec 16))
         (assert (bvult x #x0010))
         (assert (= y (bvmul x #x0003)))
         (assert (bvugt y #x0030))
         (assert (bvugt x #x0002))
         (assert (= ((_ extract 3 0) y) #x5))",
        &mut st,
    );
    let mut s = limited();
    s.assert(&mut st, ts[0]);
    s.assert(&mut st, ts[1]);
    // y = 3x < 48 under x < 16, so `y > 48` contradicts; `x > 2` is irrelevant.
    assert_eq!(s.check_assuming(&mut st, &[ts[3], ts[2]]), SmtResult::Unsat);
    let core = s.unsat_core();
    assert!(core.contains(&ts[2]) && !core.contains(&ts[3]), "{core:?}");
    s.push();
    s.assert(&mut st, ts[4]);
    assert_eq!(s.check(&mut st), SmtResult::Sat);
    check_model(&st, &s, &[ts[0], ts[1], ts[4]], "scoped");
    // 3x ≡ 5 (mod 16) with x < 16 means x = 7: y = 21.
    let m = s.model(&st);
    let y = st.var("y", Sort::BitVec(16));
    assert_eq!(m.get(y), Some(&Value::Bv(BvValue::from_u64(16, 21))));
    let x7 = st.mk_bv_u64(16, 7);
    let xv = st.var("x", Sort::BitVec(16));
    let xt = st.mk_var(xv);
    let ne = st.mk_eq(xt, x7);
    let ne = st.mk_not(ne);
    assert_eq!(s.check_assuming(&mut st, &[ne]), SmtResult::Unsat);
    s.pop(1);
    assert_eq!(s.check_assuming(&mut st, &[ne]), SmtResult::Sat);
}

#[test]
fn wide_arithmetic_is_exact() {
    // 64-bit and 128-bit: multiplication inverse and division identities.
    let mut st = TermStore::new();
    let ts = asserts(
        "(declare-fun x () (_ BitVec 64))(declare-fun q () (_ BitVec 128))
         (assert (= (bvmul x #x0000000000000003) #x0000000000000001))
         (assert (= (bvudiv q #x00000000000000000000000000000000) (bvnot #x00000000000000000000000000000000)))
         (assert (= (bvurem q #x00000000000000000000000000000007) #x00000000000000000000000000000005))
         (assert (bvugt q #xf0000000000000000000000000000000))",
        &mut st,
    );
    let mut s = limited();
    for &t in &ts {
        s.assert(&mut st, t);
    }
    assert_eq!(s.check(&mut st), SmtResult::Sat);
    check_model(&st, &s, &ts, "wide");
    let m = s.model(&st);
    let x = st.var("x", Sort::BitVec(64));
    // The inverse of 3 modulo 2^64.
    assert_eq!(
        m.get(x),
        Some(&Value::Bv(BvValue::from_u64(64, 0xaaaa_aaaa_aaaa_aaab)))
    );
}

/// Model-based projection of bit-vector variables: the model satisfies the projection and
/// the projection implies `∃x·φ` (checked by enumeration at widths 1 to 3).
#[test]
fn projection_of_bit_vectors_is_sound_and_keeps_the_model() {
    let mut rng = Rng::new(99);
    let mut defined = 0;
    for round in 0..300 {
        let w = 1 + rng.below(3) as u32;
        let mut st = TermStore::new();
        let vars: Vec<VarId> = (0..3)
            .map(|i| st.var(&format!("x{i}"), Sort::BitVec(w)))
            .collect();
        let vts: Vec<TermId> = vars.iter().map(|&v| st.mk_var(v)).collect();
        let mut atoms: Vec<TermId> = (0..1 + rng.below(3))
            .map(|_| random_atom(&mut st, &mut rng, w, &vts, 2))
            .collect();
        if rng.flip() {
            // A definition of x0 the word-level rule can use.
            let t = random_term(&mut st, &mut rng, w, &vts[1..], 2);
            atoms.push(st.mk_eq(vts[0], t));
        }
        let phi = st.mk_and(&atoms);
        let mut s = limited();
        s.assert(&mut st, phi);
        if s.check(&mut st) != SmtResult::Sat {
            continue;
        }
        let m = s.model(&st);
        let r = cove_smt::mbp::mbp(&mut st, &m, phi, &vars[..1]).expect("projects");
        assert!(r.kept.is_empty(), "round {round}");
        assert_eq!(
            m.eval(&st, r.formula),
            Ok(Value::Bool(true)),
            "round {round}"
        );
        // ψ ⇒ ∃x0·φ: every (x1, x2) satisfying ψ extends to a model of φ.
        for bits in 0..1u64 << (2 * w) {
            let mut m2 = Model::new();
            m2.complete = true;
            m2.set(
                vars[1],
                Value::Bv(BvValue::from_u64(w, bits & ((1 << w) - 1))),
            );
            m2.set(vars[2], Value::Bv(BvValue::from_u64(w, bits >> w)));
            if !m2.eval_bool(&st, r.formula).unwrap() {
                continue;
            }
            let extends = (0..1u64 << w).any(|x| {
                m2.set(vars[0], Value::Bv(BvValue::from_u64(w, x)));
                m2.eval_bool(&st, phi).unwrap()
            });
            assert!(
                extends,
                "round {round}: projection admits a point without witness"
            );
        }
        if !cove_logic::free_vars(&st, r.formula).is_empty() {
            defined += 1;
        }
    }
    assert!(defined > 20, "{defined} projections kept variables");
}

/// Multiplication by a constant (blasted through the constant's non-adjacent form) agrees
/// with evaluation at every width from 1 to 64, on both argument orders and on the corner
/// constants (0, 1, all ones, powers of two, alternating bits): with `x` fixed the product
/// takes exactly the evaluated value (Sat with that value, Unsat with any other).
#[test]
fn multiplication_by_constants_is_exact() {
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for w in 1..=64u32 {
        let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        let mut consts = vec![0, 1, mask, mask - 1, 0x5555_5555_5555_5555 & mask];
        consts.push((1u64 << (w - 1)) & mask);
        consts.push(rng.next_u64() & mask);
        consts.push(rng.next_u64() & mask);
        for c in consts {
            let a = rng.next_u64() & mask;
            let expected = BvValue::from_u64(w, a).mul(&BvValue::from_u64(w, c));
            let mut st = TermStore::new();
            let xv = st.var("x", Sort::BitVec(w));
            let yv = st.var("y", Sort::BitVec(w));
            let (x, y) = (st.mk_var(xv), st.mk_var(yv));
            let (al, cl) = (st.mk_bv_u64(w, a), st.mk_bv_u64(w, c));
            let fix = st.mk_eq(x, al);
            for swap in [false, true] {
                let args = if swap { [cl, x] } else { [x, cl] };
                let prod = st.mk_raw(cove_logic::Op::Bv(BvOp::Mul), &args, Sort::BitVec(w));
                let def = st.mk_eq(y, prod);
                let mut s = limited();
                s.assert(&mut st, fix);
                s.assert(&mut st, def);
                assert_eq!(s.check(&mut st), SmtResult::Sat, "w{w} c{c:#x}");
                let m = s.model(&st);
                assert_eq!(
                    m.get(yv),
                    Some(&Value::Bv(expected.clone())),
                    "w{w} c{c:#x}"
                );
                let el = st.mk_bv_lit(expected.clone());
                let other = st.mk_eq(y, el);
                let other = st.mk_not(other);
                s.assert(&mut st, other);
                assert_eq!(s.check(&mut st), SmtResult::Unsat, "w{w} c{c:#x}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 64 * 8 * 2);
}

/// The word-level projection reads definitions through invertible operations
/// (`c·x0 + t = u` with `c` odd, `bvnot`, `bvneg`, `bvxor`): the projection of `x0` is then
/// exact — equivalent to `∃x0·φ`, checked by enumeration at widths 1 to 4 — where the model
/// value fallback would only under-approximate.
#[test]
fn projection_inverts_linear_bit_vector_definitions() {
    let mut rng = Rng::new(5);
    let mut exact = 0;
    for round in 0..200 {
        let w = 1 + rng.below(4) as u32;
        let mask = (1u64 << w) - 1;
        let mut st = TermStore::new();
        let vars: Vec<VarId> = (0..3)
            .map(|i| st.var(&format!("x{i}"), Sort::BitVec(w)))
            .collect();
        let vts: Vec<TermId> = vars.iter().map(|&v| st.mk_var(v)).collect();
        // s(x0): x0 under a random chain of invertible operations.
        let mut s_term = vts[0];
        for _ in 0..1 + rng.below(3) {
            let other = random_term(&mut st, &mut rng, w, &vts[1..], 1);
            let odd = st.mk_bv_u64(w, (rng.next_u64() | 1) & mask);
            let (op, args) = match rng.below(5) {
                0 => (BvOp::Add, vec![s_term, other]),
                1 => (BvOp::Xor, vec![other, s_term]),
                2 => (BvOp::Not, vec![s_term]),
                3 => (BvOp::Neg, vec![s_term]),
                _ => (BvOp::Mul, vec![odd, s_term]),
            };
            s_term = st.mk_raw(cove_logic::Op::Bv(op), &args, Sort::BitVec(w));
        }
        let rhs = random_term(&mut st, &mut rng, w, &vts[1..], 2);
        let def = st.mk_eq(s_term, rhs);
        // A side condition on x0 and the others (a positive atom, which the implicant keeps).
        let (l, r) = (
            random_term(&mut st, &mut rng, w, &vts, 1),
            random_term(&mut st, &mut rng, w, &vts, 1),
        );
        let side = st.mk_raw(cove_logic::Op::Bv(BvOp::Ule), &[l, r], Sort::Bool);
        let phi = st.mk_and(&[def, side]);
        let mut s = limited();
        s.assert(&mut st, phi);
        if s.check(&mut st) != SmtResult::Sat {
            continue;
        }
        let m = s.model(&st);
        let r = cove_smt::mbp::mbp(&mut st, &m, phi, &vars[..1]).expect("projects");
        assert_eq!(
            m.eval(&st, r.formula),
            Ok(Value::Bool(true)),
            "round {round}"
        );
        // ψ ⇔ ∃x0·φ over every (x1, x2).
        for bits in 0..1u64 << (2 * w) {
            let mut m2 = Model::new();
            m2.complete = true;
            m2.set(vars[1], Value::Bv(BvValue::from_u64(w, bits & mask)));
            m2.set(vars[2], Value::Bv(BvValue::from_u64(w, bits >> w)));
            let psi = m2.eval_bool(&st, r.formula).unwrap();
            let exists = (0..1u64 << w).any(|x| {
                m2.set(vars[0], Value::Bv(BvValue::from_u64(w, x)));
                m2.eval_bool(&st, phi).unwrap()
            });
            assert_eq!(psi, exists, "round {round}: projection not exact");
        }
        exact += 1;
    }
    assert!(exact > 100, "only {exact} satisfiable rounds");
}
