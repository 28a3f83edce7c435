//! Unit tests: the thesis's worked values and one case per elimination rule.

use super::*;
use cove_logic::{FuncInterp, Op, Rational};

fn var(s: &mut TermStore, name: &str, sort: Sort) -> (VarId, TermId) {
    let v = s.var(name, sort);
    (v, s.mk_var(v))
}

fn model(vals: &[(VarId, i64)]) -> Model {
    let mut m = Model::new();
    for &(v, x) in vals {
        m.set(v, Value::Num(Rational::int(x)));
    }
    m
}

/// Checks `a ⇔ b` on every assignment of `vars` in `[-r, r]`.
fn equivalent_on_box(s: &TermStore, a: TermId, b: TermId, vars: &[VarId], r: i64) {
    let n = vars.len() as u32;
    let width = (2 * r + 1) as usize;
    for idx in 0..width.pow(n) {
        let mut m = Model::new();
        let mut k = idx;
        for &v in vars {
            m.set(v, Value::Num(Rational::int((k % width) as i64 - r)));
            k /= width;
        }
        assert_eq!(
            m.eval(s, a),
            m.eval(s, b),
            "differ at {:?}",
            m.vars().collect::<Vec<_>>()
        );
    }
}

#[test]
fn fig_2_7_query_projection() {
    // ∃ℓ1, m. ℓ1 = ℓ0 − 1 ∧ m = ℓ1 − 1 ∧ m0 < 2m + 4, witnessed by e = ⟨3, 3, 2, 1⟩,
    // projects to m0 < 2ℓ0 (the new query ⟨T, t0 < 2t, 0⟩).
    let mut s = TermStore::new();
    let (m0v, m0) = var(&mut s, "m0", Sort::Int);
    let (l0v, l0) = var(&mut s, "l0", Sort::Int);
    let (l1v, l1) = var(&mut s, "l1", Sort::Int);
    let (mv, m) = var(&mut s, "m", Sort::Int);
    let (one, two, four) = (s.mk_int(1), s.mk_int(2), s.mk_int(4));
    let l0m1 = s.mk_sub(l0, one);
    let l1m1 = s.mk_sub(l1, one);
    let e1 = s.mk_eq(l1, l0m1);
    let e2 = s.mk_eq(m, l1m1);
    let twom = s.mk_mul(&[two, m]);
    let rhs = s.mk_add(&[twom, four]);
    let q = s.mk_lt(m0, rhs);
    let phi = s.mk_and(&[e1, e2, q]);
    let e = model(&[(m0v, 3), (l0v, 3), (l1v, 2), (mv, 1)]);
    let r = mbp(&mut s, &e, phi, &[l1v, mv]).unwrap();
    assert!(r.kept.is_empty());
    let two_l0 = s.mk_mul(&[two, l0]);
    let expected = s.mk_lt(m0, two_l0);
    let expected = simplify(&mut s, expected);
    assert_eq!(r.formula, expected, "got {:?}", s.get(r.formula));

    // Iteration 3 of the Fig. 2.4 run: ∃m0, m. m0 ≥ 2ℓ0 ∧ m = ℓ1 − 1 ∧ m0 < 2m + 4 is
    // ℓ1 > ℓ0 − 1 (exact here: one lower bound, unit coefficients).
    let lo = s.mk_ge(m0, two_l0);
    let phi3 = s.mk_and(&[lo, e2, q]);
    let e3 = model(&[(m0v, 6), (l0v, 3), (l1v, 3), (mv, 2)]);
    let r3 = mbp(&mut s, &e3, phi3, &[m0v, mv]).unwrap();
    let expected3 = s.mk_gt(l1, l0m1);
    let expected3 = simplify(&mut s, expected3);
    assert_eq!(r3.formula, expected3);
}

#[test]
fn booleans_are_substituted() {
    // (p ∧ x > 0) ∨ (¬p ∧ x < 0), p := true  ⟶  x > 0 (BoolProj keeps the whole formula).
    let mut s = TermStore::new();
    let (pv, p) = var(&mut s, "p", Sort::Bool);
    let (xv, x) = var(&mut s, "x", Sort::Int);
    let zero = s.mk_int(0);
    let pos = s.mk_gt(x, zero);
    let neg = s.mk_lt(x, zero);
    let np = s.mk_not(p);
    let a = s.mk_and(&[p, pos]);
    let b = s.mk_and(&[np, neg]);
    let phi = s.mk_or(&[a, b]);
    let mut m = model(&[(xv, 1)]);
    m.set(pv, Value::Bool(true));
    let r = mbp(&mut s, &m, phi, &[pv]).unwrap();
    let expected = simplify(&mut s, pos);
    assert_eq!(r.formula, expected);
}

#[test]
fn lra_strict_and_non_strict_bounds() {
    let mut s = TermStore::new();
    let (xv, x) = var(&mut s, "x", Sort::Real);
    let (yv, y) = var(&mut s, "y", Sort::Real);
    let (zv, z) = var(&mut s, "z", Sort::Real);
    let m = model(&[(xv, 1), (yv, 0), (zv, 2)]);
    for (lo_strict, hi_strict) in [(true, true), (true, false), (false, true), (false, false)] {
        let lo = if lo_strict {
            s.mk_lt(y, x)
        } else {
            s.mk_le(y, x)
        };
        let hi = if hi_strict {
            s.mk_lt(x, z)
        } else {
            s.mk_le(x, z)
        };
        let phi = s.mk_and(&[lo, hi]);
        let r = mbp(&mut s, &m, phi, &[xv]).unwrap();
        let expected = if lo_strict || hi_strict {
            s.mk_lt(y, z)
        } else {
            s.mk_le(y, z)
        };
        let expected = simplify(&mut s, expected);
        assert_eq!(r.formula, expected, "{lo_strict} {hi_strict}");
    }
    // Equality: x = y + 1/2 ∧ x < z  ⟶  y + 1/2 < z.
    let half = s.mk_num(Rational::new(1, 2), Sort::Real);
    let yh = s.mk_add(&[y, half]);
    let eq = s.mk_eq(x, yh);
    let hi = s.mk_lt(x, z);
    let phi = s.mk_and(&[eq, hi]);
    let mut m2 = m.clone();
    m2.set(xv, Value::Num(Rational::new(1, 2)));
    let r = mbp(&mut s, &m2, phi, &[xv]).unwrap();
    let expected = s.mk_lt(yh, z);
    let expected = simplify(&mut s, expected);
    assert_eq!(r.formula, expected);
    // Disequality x ≠ y resolved by the model, one-sided bounds dropped.
    let ne = s.mk(Op::Distinct, &[x, y]).unwrap();
    let r = mbp(&mut s, &m, ne, &[xv]).unwrap();
    assert_eq!(r.formula, s.mk_true());
}

#[test]
fn lia_divisibility_from_equality_and_bounds() {
    let mut s = TermStore::new();
    let (xv, x) = var(&mut s, "x", Sort::Int);
    let (yv, y) = var(&mut s, "y", Sort::Int);
    let (zv, z) = var(&mut s, "z", Sort::Int);
    let (two, three) = (s.mk_int(2), s.mk_int(3));
    // ∃x. 3x = y  ⟺  y mod 3 = 0.
    let three_x = s.mk_mul(&[three, x]);
    let phi = s.mk_eq(three_x, y);
    let r = mbp(&mut s, &model(&[(xv, 2), (yv, 6)]), phi, &[xv]).unwrap();
    let m = s.mk(Op::Mod, &[y, three]).unwrap();
    let zero = s.mk_int(0);
    let expected = s.mk_eq(m, zero);
    equivalent_on_box(&s, r.formula, expected, &[yv], 10);

    // ∃x. y ≤ 2x ≤ z: the glb is x = ⌈y/2⌉, which is exact here: 2·((y + 1) div 2) ≤ z.
    let two_x = s.mk_mul(&[two, x]);
    let lo = s.mk_le(y, two_x);
    let hi = s.mk_le(two_x, z);
    let phi = s.mk_and(&[lo, hi]);
    let r = mbp(&mut s, &model(&[(xv, 1), (yv, 1), (zv, 3)]), phi, &[xv]).unwrap();
    let one = s.mk_int(1);
    let y1 = s.mk_add(&[y, one]);
    let ceil = s.mk(Op::IntDiv, &[y1, two]).unwrap();
    let twice = s.mk_mul(&[two, ceil]);
    let expected = s.mk_le(twice, z);
    equivalent_on_box(&s, r.formula, expected, &[yv, zv], 6);
    assert!(r.kept.is_empty());
}

#[test]
fn mod_and_div_are_purified() {
    // ∃x. x mod 3 = 1 ∧ 0 ≤ x ∧ x ≤ y ∧ x div 2 ≥ 1.
    let mut s = TermStore::new();
    let (xv, x) = var(&mut s, "x", Sort::Int);
    let (yv, y) = var(&mut s, "y", Sort::Int);
    let (zero, one, two, three) = (s.mk_int(0), s.mk_int(1), s.mk_int(2), s.mk_int(3));
    let mx = s.mk(Op::Mod, &[x, three]).unwrap();
    let dx = s.mk(Op::IntDiv, &[x, two]).unwrap();
    let c1 = s.mk_eq(mx, one);
    let c2 = s.mk_le(zero, x);
    let c3 = s.mk_le(x, y);
    let c4 = s.mk_ge(dx, one);
    let phi = s.mk_and(&[c1, c2, c3, c4]);
    let m = model(&[(xv, 4), (yv, 5)]);
    let r = mbp(&mut s, &m, phi, &[xv]).unwrap();
    assert!(r.kept.is_empty());
    assert_eq!(cove_logic::free_vars(&s, r.formula), vec![yv]);
    assert!(m.eval_bool(&s, r.formula).unwrap());
    // Smallest witness is x = 4, so ∃x.φ ⟺ y ≥ 4; the projection must imply it.
    for yval in -10..=20 {
        let my = model(&[(yv, yval)]);
        if my.eval_bool(&s, r.formula).unwrap() {
            assert!(yval >= 4, "projection admits y = {yval}");
        }
    }
}

#[test]
fn variables_under_functions_are_kept() {
    let mut s = TermStore::new();
    let (xv, x) = var(&mut s, "x", Sort::Int);
    let (yv, y) = var(&mut s, "y", Sort::Int);
    let (zv, z) = var(&mut s, "z", Sort::Int);
    let f = s.declare_func("f", &[Sort::Int], Sort::Int).unwrap();
    let fx = s.mk_app(f, &[x]);
    let zero = s.mk_int(0);
    let c1 = s.mk_gt(fx, zero);
    let c2 = s.mk_lt(y, x);
    let c3 = s.mk_lt(z, y);
    let phi = s.mk_and(&[c1, c2, c3]);
    let mut m = model(&[(xv, 2), (yv, 1), (zv, 0)]);
    let (av, a) = var(&mut s, "a", Sort::Int);
    m.set_func(
        f,
        FuncInterp {
            params: vec![av],
            body: a,
        },
    );
    let r = mbp(&mut s, &m, phi, &[xv, yv]).unwrap();
    assert_eq!(r.kept, vec![xv]);
    assert!(m.eval_bool(&s, r.formula).unwrap());
    assert!(!cove_logic::free_vars(&s, r.formula).contains(&yv));
}

#[test]
fn implicant_resolves_ite_and_disequality() {
    let mut s = TermStore::new();
    let (xv, x) = var(&mut s, "x", Sort::Int);
    let (yv, y) = var(&mut s, "y", Sort::Int);
    let zero = s.mk_int(0);
    let c = s.mk_gt(x, zero);
    let ite = s.mk_ite(c, x, y);
    let lit = s.mk(Op::Distinct, &[ite, zero]).unwrap();
    let m = model(&[(xv, -1), (yv, 3)]);
    let lits = implicant(&mut s, &m, lit).unwrap();
    // x > 0 is false: ¬(x > 0) as x ≤ 0, and y ≠ 0 as y > 0.
    let a = s.mk_le(x, zero);
    let b = s.mk_gt(y, zero);
    assert_eq!(lits.len(), 2);
    assert!(lits.contains(&a) && lits.contains(&b), "{lits:?}");
    let bad = model(&[(xv, -1), (yv, 0)]);
    assert_eq!(implicant(&mut s, &bad, lit), Err(MbpError::NotAModel));
}

#[test]
fn long_chains_project_in_reasonable_time() {
    // x0 = y, x(i+1) = x(i) + 1 or 2·x(i+1) ≥ x(i) (alternating), x(n) ≤ z: eliminate all x.
    let n = 300;
    let mut s = TermStore::new();
    let (yv, y) = var(&mut s, "y", Sort::Int);
    let (zv, z) = var(&mut s, "z", Sort::Int);
    let (one, two) = (s.mk_int(1), s.mk_int(2));
    let mut m = model(&[(yv, 0)]);
    let xs: Vec<(VarId, TermId)> = (0..=n)
        .map(|i| var(&mut s, &format!("x{i}"), Sort::Int))
        .collect();
    let mut conj = vec![s.mk_eq(xs[0].1, y)];
    let mut val = 0i64;
    m.set(xs[0].0, Value::Num(Rational::int(0)));
    for i in 0..n {
        let (a, b) = (xs[i].1, xs[i + 1].1);
        if i % 2 == 0 {
            let a1 = s.mk_add(&[a, one]);
            conj.push(s.mk_eq(b, a1));
            val += 1;
        } else {
            let b2 = s.mk_mul(&[two, b]);
            conj.push(s.mk_ge(b2, a));
            val = (val + 1).div_euclid(2);
        }
        m.set(xs[i + 1].0, Value::Num(Rational::int(val)));
    }
    conj.push(s.mk_le(xs[n].1, z));
    m.set(zv, Value::Num(Rational::int(val)));
    let phi = s.mk_and(&conj);
    let vars: Vec<VarId> = xs.iter().map(|x| x.0).collect();
    let start = std::time::Instant::now();
    let r = mbp(&mut s, &m, phi, &vars).unwrap();
    let elapsed = start.elapsed();
    assert!(r.kept.is_empty());
    assert_eq!(cove_logic::free_vars(&s, r.formula), vec![yv, zv]);
    assert!(m.eval_bool(&s, r.formula).unwrap());
    assert!(elapsed.as_secs_f64() < 5.0, "{elapsed:?}");
    // Each halving step is one `div` in the DAG: no moduli growing like 2^n.
    let mut nums = Vec::new();
    numerals(&s, r.formula, &mut nums, &mut Default::default());
    assert!(
        nums.iter().all(|k| k.abs() <= Rational::int(1000)),
        "{nums:?}"
    );
}

fn numerals(
    s: &TermStore,
    t: TermId,
    out: &mut Vec<Rational>,
    seen: &mut rustc_hash::FxHashSet<TermId>,
) {
    if !seen.insert(t) {
        return;
    }
    if let Op::Num(n) = s.op(t) {
        out.push(n.clone());
    }
    for &a in s.args(t) {
        numerals(s, a, out, seen);
    }
}

#[test]
fn mixed_int_real() {
    // x Real, y Int: ∃x. to_real(y) ≤ x ∧ x ≤ 5/2  ⟶  y ≤ 2 (an Int constraint).
    let mut s = TermStore::new();
    let (xv, x) = var(&mut s, "x", Sort::Real);
    let (yv, y) = var(&mut s, "y", Sort::Int);
    let yr = s.mk(Op::ToReal, &[y]).unwrap();
    let bound = s.mk_num(Rational::new(5, 2), Sort::Real);
    let lo = s.mk_le(yr, x);
    let hi = s.mk_le(x, bound);
    let phi = s.mk_and(&[lo, hi]);
    let mut m = model(&[(yv, 1)]);
    m.set(xv, Value::Num(Rational::new(3, 2)));
    let r = mbp(&mut s, &m, phi, &[xv]).unwrap();
    let two = s.mk_int(2);
    let expected = s.mk_le(y, two);
    let expected = simplify(&mut s, expected);
    assert_eq!(r.formula, expected);
    // An Int variable in a constraint with a Real atom is kept, not guessed.
    let (zv, z) = var(&mut s, "z", Sort::Real);
    let c = s.mk_le(yr, z);
    let mut m2 = model(&[(yv, 1)]);
    m2.set(zv, Value::Num(Rational::new(3, 2)));
    let r = mbp(&mut s, &m2, c, &[yv]).unwrap();
    assert_eq!(r.kept, vec![yv]);
    assert!(m2.eval_bool(&s, r.formula).unwrap());
}

#[test]
fn cube_projection_of_booleans() {
    // (p ∨ x > 0) ∧ (q ∨ x < 5), p := false, q := true: mbp keeps x > 0; the cube too, and
    // drops the clause that q satisfies.
    let mut s = TermStore::new();
    let (pv, p) = var(&mut s, "p", Sort::Bool);
    let (qv, q) = var(&mut s, "q", Sort::Bool);
    let (xv, x) = var(&mut s, "x", Sort::Int);
    let (zero, five) = (s.mk_int(0), s.mk_int(5));
    let a = s.mk_gt(x, zero);
    let b = s.mk_lt(x, five);
    let c1 = s.mk_or(&[p, a]);
    let c2 = s.mk_or(&[q, b]);
    let phi = s.mk_and(&[c1, c2]);
    let mut m = model(&[(xv, 7)]);
    m.set(pv, Value::Bool(false));
    m.set(qv, Value::Bool(true));
    let r = mbp(&mut s, &m, phi, &[pv, qv]).unwrap();
    let expected = simplify(&mut s, a);
    assert_eq!(r.formula, expected);
    // Only p eliminated: mbp gives x > 0 ∧ (q ∨ x < 5); the cube x > 0 ∧ q.
    let r = mbp(&mut s, &m, phi, &[pv]).unwrap();
    let expected = s.mk_and(&[a, c2]);
    let expected = simplify(&mut s, expected);
    assert_eq!(r.formula, expected);
    let r = mbp_cube(&mut s, &m, phi, &[pv]).unwrap();
    let mut got = s.conjuncts(r.formula);
    got.sort();
    let a = simplify(&mut s, a);
    let mut expected = vec![a, q];
    expected.sort();
    assert_eq!(got, expected);
}

#[test]
fn qe_fig_2_7_and_errors() {
    let mut s = TermStore::new();
    let (_, m0) = var(&mut s, "m0", Sort::Int);
    let (l0v, l0) = var(&mut s, "l0", Sort::Int);
    let (l1v, l1) = var(&mut s, "l1", Sort::Int);
    let (mv, m) = var(&mut s, "m", Sort::Int);
    let (one, two, four) = (s.mk_int(1), s.mk_int(2), s.mk_int(4));
    let l0m1 = s.mk_sub(l0, one);
    let l1m1 = s.mk_sub(l1, one);
    let e1 = s.mk_eq(l1, l0m1);
    let e2 = s.mk_eq(m, l1m1);
    let twom = s.mk_mul(&[two, m]);
    let rhs = s.mk_add(&[twom, four]);
    let q = s.mk_lt(m0, rhs);
    let phi = s.mk_and(&[e1, e2, q]);
    let r = qe(&mut s, phi, &[l1v, mv]).unwrap();
    let two_l0 = s.mk_mul(&[two, l0]);
    let expected = s.mk_lt(m0, two_l0);
    let expected = simplify(&mut s, expected);
    assert_eq!(r, expected);
    // ∃x. 3x = y ∧ 0 ≤ y ≤ 10 needs a disjunct per residue only once: y mod 3 = 0 ∧ bounds.
    let (xv, x) = var(&mut s, "x", Sort::Int);
    let (yv, y) = var(&mut s, "y", Sort::Int);
    let (zero, three, ten) = (s.mk_int(0), s.mk_int(3), s.mk_int(10));
    let three_x = s.mk_mul(&[three, x]);
    let eq = s.mk_eq(three_x, y);
    let lo = s.mk_le(zero, y);
    let hi = s.mk_le(y, ten);
    let phi = s.mk_and(&[eq, lo, hi]);
    let r = qe(&mut s, phi, &[xv]).unwrap();
    let my = s.mk(Op::Mod, &[y, three]).unwrap();
    let div3 = s.mk_eq(my, zero);
    let expected = s.mk_and(&[div3, lo, hi]);
    equivalent_on_box(&s, r, expected, &[yv], 15);
    // A variable under an uninterpreted function cannot be eliminated.
    let f = s.declare_func("f", &[Sort::Int], Sort::Int).unwrap();
    let fx = s.mk_app(f, &[x]);
    let c = s.mk_gt(fx, y);
    assert!(matches!(
        qe(&mut s, c, &[xv]),
        Err(QeError::NotEliminable(_)) | Err(QeError::Unknown(_))
    ));
    let _ = l0v;
}

#[test]
fn implicant_of_a_very_deep_formula_runs_on_a_small_stack() {
    // 100,000 nested `or`/`not` levels over an arithmetic term with 100,000 nested `ite`s:
    // the implicant walks both with explicit stacks, so a 4 MiB thread stack suffices.
    std::thread::Builder::new()
        .stack_size(4 << 20)
        .spawn(|| {
            let mut s = TermStore::new();
            let (xv, x) = var(&mut s, "x", Sort::Int);
            let (yv, y) = var(&mut s, "y", Sort::Int);
            let one = s.mk_int(1);
            let mut t = y;
            for i in 0..100_000 {
                let k = s.mk_int(i % 7);
                let c = s.mk_raw(Op::Gt, &[x, k], Sort::Bool);
                let t1 = s.mk_raw(Op::Add, &[t, one], Sort::Int);
                t = s.mk_raw(Op::Ite, &[c, t1, t], Sort::Int);
            }
            let zero = s.mk_int(0);
            let mut phi = s.mk_raw(Op::Ge, &[t, zero], Sort::Bool);
            let f = s.mk_raw(Op::Bool(false), &[], Sort::Bool);
            for _ in 0..50_000 {
                let n = s.mk_raw(Op::Not, &[phi], Sort::Bool);
                let n2 = s.mk_raw(Op::Not, &[n], Sort::Bool);
                phi = s.mk_raw(Op::Or, &[f, n2], Sort::Bool);
            }
            let m = model(&[(xv, 3), (yv, 0)]);
            let lits = implicant(&mut s, &m, phi).unwrap();
            // x > 0, x > 1, x > 2 hold; x > 3..6 fail; and the resolved sum is ≥ 0.
            assert_eq!(lits.len(), 7 + 1);
            for &l in &lits {
                assert_eq!(m.eval(&s, l).unwrap(), Value::Bool(true));
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

/// `List = nil | cons(head: Int, tail: List)`, declared once per test.
fn int_list() -> Sort {
    use cove_logic::dt::{Ctor, define, reserve};
    let l = reserve(&["MbpList"])[0];
    define(
        l,
        vec![
            Ctor {
                name: "nil".into(),
                fields: vec![],
            },
            Ctor {
                name: "cons".into(),
                fields: vec![("head".into(), Sort::Int), ("tail".into(), l)],
            },
        ],
    );
    l
}

fn list_value(l: Sort, xs: &[i64]) -> Value {
    let mut v = Value::Dt(std::sync::Arc::new(cove_logic::DtValue {
        sort: l,
        ctor: 0,
        fields: vec![],
    }));
    for &x in xs.iter().rev() {
        v = Value::Dt(std::sync::Arc::new(cove_logic::DtValue {
            sort: l,
            ctor: 1,
            fields: vec![Value::Num(Rational::int(x)), v],
        }));
    }
    v
}

#[test]
fn datatype_variable_defined_by_a_constructor_term() {
    // ∃c. a = cons(c, nil) ∧ b ≠ c projects to is-cons(a) ∧ is-nil(tail(a)) ∧ b ≠ head(a):
    // `c` is read off the kept list through its selector, not guessed from the model.
    let l = int_list();
    let mut s = TermStore::new();
    let (av, a) = var(&mut s, "a", l);
    let (bv, b) = var(&mut s, "b", Sort::Int);
    let (cv, c) = var(&mut s, "c", Sort::Int);
    let nil = s.mk_ctor(l, 0, &[]).unwrap();
    let cons = s.mk_ctor(l, 1, &[c, nil]).unwrap();
    let e = s.mk_eq(a, cons);
    let d = s.mk_eq(b, c);
    let nd = s.mk_not(d);
    let phi = s.mk_and(&[e, nd]);
    let mut m = model(&[(bv, 1), (cv, 2)]);
    m.set(av, list_value(l, &[2]));
    let r = mbp_cube(&mut s, &m, phi, &[cv]).unwrap();
    assert!(r.kept.is_empty());
    assert!(!cove_logic::free_vars(&s, r.formula).contains(&cv));
    assert_eq!(m.eval(&s, r.formula).unwrap(), Value::Bool(true));
    // The projection implies ∃c·φ: here it is exactly φ with c = head(a).
    let head = s.mk_sel(a, 1, 0);
    let mut map = FxHashMap::default();
    map.insert(cv, head);
    let phi_head = substitute(&mut s, phi, &map);
    for (xs, bval) in [(vec![2], 1), (vec![2], 2), (vec![], 0), (vec![1, 2], 5)] {
        let mut m2 = model(&[(bv, bval)]);
        m2.set(av, list_value(l, &xs));
        let got = m2.eval(&s, r.formula).unwrap();
        let want = match m2.eval(&s, phi_head) {
            Ok(v) => v,
            Err(_) => Value::Bool(false),
        };
        assert_eq!(got, want, "a = {xs:?}, b = {bval}");
    }
}

#[test]
fn datatype_variable_expanded_by_its_constructor() {
    // ∃x. is-cons(x) ∧ head(x) > 3 ∧ y = tail(x): x expands to cons(h, t) by its model
    // value; h is eliminated by arithmetic, t is defined by y. The result says nothing about
    // the eliminated list and holds in the model.
    let l = int_list();
    let mut s = TermStore::new();
    let (xv, x) = var(&mut s, "x", l);
    let (yv, y) = var(&mut s, "y", l);
    let isc = s.mk_test(x, 1);
    let h = s.mk_sel(x, 1, 0);
    let three = s.mk_int(3);
    let gt = s.mk_gt(h, three);
    let t = s.mk_sel(x, 1, 1);
    let e = s.mk_eq(y, t);
    let phi = s.mk_and(&[isc, gt, e]);
    let mut m = Model::new();
    m.set(xv, list_value(l, &[5, 7]));
    m.set(yv, list_value(l, &[7]));
    let r = mbp_cube(&mut s, &m, phi, &[xv]).unwrap();
    assert!(r.kept.is_empty());
    let fv = cove_logic::free_vars(&s, r.formula);
    assert!(fv.iter().all(|&v| v == yv), "{}", s.display(r.formula));
    assert_eq!(m.eval(&s, r.formula).unwrap(), Value::Bool(true));
}
