//! Interpolant properties on random conjunctions: A ⇒ I, I ∧ B unsat, I over shared
//! variables — all checked with the solver itself on the original (unsimplified) terms.

use cove_logic::{Op, Rational, Sort, TermId, TermStore, VarId, free_vars};
use cove_smt::{SmtResult, SmtSolver, interpolate, is_sat};

mod common;
use common::Rng;

fn lin(store: &mut TermStore, rng: &mut Rng, vars: &[TermId], sort: Sort) -> TermId {
    let n = rng.range(1, 3) as usize;
    let mut parts = Vec::new();
    for _ in 0..n {
        let x = vars[rng.below(vars.len())];
        let c = store.mk_num(Rational::int(rng.range(-5, 5)), sort);
        parts.push(store.mk_mul(&[c, x]));
    }
    store.mk_add(&parts)
}

fn side(
    store: &mut TermStore,
    rng: &mut Rng,
    vars: &[TermId],
    sort: Sort,
    n: usize,
) -> Vec<TermId> {
    (0..n)
        .map(|_| {
            let l = lin(store, rng, vars, sort);
            let k = store.mk_num(Rational::int(rng.range(-6, 6)), sort);
            match rng.below(4) {
                0 => store.mk_le(l, k),
                1 => store.mk_lt(l, k),
                2 => store.mk_ge(l, k),
                _ => store.mk(Op::Eq, &[l, k]).unwrap(),
            }
        })
        .collect()
}

fn run(sort: Sort, seed: u64) {
    let mut rng = common::rng(seed);
    let mut found = 0;
    for _ in 0..300 {
        let mut store = TermStore::new();
        let names = ["a", "s1", "s2", "b"];
        let v: Vec<TermId> = names
            .iter()
            .map(|n| {
                let x = store.var(n, sort);
                store.mk_var(x)
            })
            .collect();
        // A over a, s1, s2; B over s1, s2, b.
        let na = rng.range(1, 4) as usize;
        let nb = rng.range(1, 4) as usize;
        let a = side(&mut store, &mut rng, &v[..3], sort, na);
        let b = side(&mut store, &mut rng, &v[1..], sort, nb);
        let ca = store.mk_and(&a);
        let cb = store.mk_and(&b);
        let both = store.mk_and(&[ca, cb]);
        let r = is_sat(&mut store, both);
        let itp = interpolate(&mut store, &a, &b);
        if r == SmtResult::Sat {
            assert!(itp.is_none(), "interpolant for a satisfiable pair");
            continue;
        }
        assert_eq!(r, SmtResult::Unsat);
        let Some(i) = itp else {
            assert_eq!(sort, Sort::Int, "LRA interpolation must succeed");
            continue;
        };
        found += 1;
        let ni = store.mk_not(i);
        let a_not_i = store.mk_and(&[ca, ni]);
        assert_eq!(
            is_sat(&mut store, a_not_i),
            SmtResult::Unsat,
            "A does not imply I"
        );
        let i_b = store.mk_and(&[i, cb]);
        assert_eq!(
            is_sat(&mut store, i_b),
            SmtResult::Unsat,
            "I and B are satisfiable"
        );
        let shared: Vec<VarId> = free_vars(&store, i);
        for x in shared {
            let name = store.var_name(x);
            assert!(name == "s1" || name == "s2", "interpolant mentions {name}");
        }
    }
    assert!(found > 20, "only {found} interpolants");
}

#[test]
fn lra_interpolants() {
    run(Sort::Real, 3);
}

#[test]
fn lia_interpolants() {
    run(Sort::Int, 4);
}

#[test]
fn incremental_push_pop_and_assumptions() {
    let mut store = TermStore::new();
    let x = store.var("x", Sort::Int);
    let y = store.var("y", Sort::Int);
    let (x, y) = (store.mk_var(x), store.mk_var(y));
    let zero = store.mk_int(0);
    let ten = store.mk_int(10);
    let mut s = SmtSolver::new();
    let x_ge0 = store.mk_ge(x, zero);
    s.assert(&mut store, x_ge0);
    let sum = store.mk_add(&[x, y]);
    let sum_le = store.mk_le(sum, ten);
    s.assert(&mut store, sum_le);
    assert_eq!(s.check(&mut store), SmtResult::Sat);
    s.push();
    let y_gt = store.mk_gt(y, ten);
    s.assert(&mut store, y_gt);
    assert_eq!(s.check(&mut store), SmtResult::Unsat);
    s.pop(1);
    assert_eq!(s.check(&mut store), SmtResult::Sat);
    let m = s.model(&store);
    assert!(m.eval_bool(&store, sum_le).unwrap());
    // Assumptions and cores.
    let y_ge5 = {
        let k = store.mk_int(5);
        store.mk_ge(y, k)
    };
    let x_ge6 = {
        let k = store.mk_int(6);
        store.mk_ge(x, k)
    };
    let x_le100 = {
        let k = store.mk_int(100);
        store.mk_le(x, k)
    };
    assert_eq!(
        s.check_assuming(&mut store, &[x_le100, y_ge5, x_ge6]),
        SmtResult::Unsat
    );
    let core = s.unsat_core();
    assert!(
        core.contains(&y_ge5) && core.contains(&x_ge6) && !core.contains(&x_le100),
        "{core:?}"
    );
    assert_eq!(s.check_assuming(&mut store, &[y_ge5]), SmtResult::Sat);
    assert_eq!(s.value(&store, y_ge5), Some(cove_logic::Value::Bool(true)));
    // Nested frames retract exactly their own assertions.
    for depth in 0..5 {
        s.push();
        let c = {
            let k = store.mk_int(-depth);
            store.mk_le(y, k)
        };
        s.assert(&mut store, c);
        assert_eq!(s.check(&mut store), SmtResult::Sat);
    }
    let c = {
        let k = store.mk_int(-3);
        store.mk_ge(y, k)
    };
    assert_eq!(s.check_assuming(&mut store, &[c]), SmtResult::Unsat);
    s.pop(2);
    assert_eq!(s.check_assuming(&mut store, &[c]), SmtResult::Sat);
    s.pop(3);
    assert_eq!(s.num_frames(), 0);
    let big = {
        let k = store.mk_int(10);
        store.mk_ge(y, k)
    };
    assert_eq!(s.check_assuming(&mut store, &[big]), SmtResult::Sat);
}

#[test]
fn nonlinear_is_unknown_or_confirmed() {
    let mut store = TermStore::new();
    let x = store.var("x", Sort::Int);
    let y = store.var("y", Sort::Int);
    let (x, y) = (store.mk_var(x), store.mk_var(y));
    let xy = store.mk_mul(&[x, y]);
    let seven = store.mk_int(7);
    let e = store.mk(Op::Eq, &[xy, seven]).unwrap();
    let r = is_sat(&mut store, e);
    assert!(matches!(r, SmtResult::Sat | SmtResult::Unknown(_)), "{r:?}");
    // Linear part unsat: unsat is sound even with the nonlinear term abstracted.
    let one = store.mk_int(1);
    let x1 = store.mk_gt(x, one);
    let x0 = store.mk_lt(x, one);
    let t = store.mk_and(&[e, x1, x0]);
    assert_eq!(is_sat(&mut store, t), SmtResult::Unsat);
}

/// Random formula pairs with Boolean structure (`ite`, `mod`, `div` included for LIA): A
/// over `x0..`, B over the same names with `x0` renamed apart, so both have local variables.
/// Every interpolant must pass the independent checker; unsat pairs must mostly get one,
/// and `Sat` outcomes must really satisfy both sides.
fn run_formulas(int: bool, seed: u64, rounds: usize) {
    use cove_smt::{ItpOutcome, check_interpolant, interpolate_formulas};
    let ctl = cove_control::Control::new();
    let mut rng = common::rng(seed);
    let (mut itps, mut sats, mut unknown) = (0, 0, 0);
    for _ in 0..rounds {
        let mut store = TermStore::new();
        let mut cfg = common::GenConfig::random(&mut rng, int);
        cfg.vars = cfg.vars.clamp(2, 3);
        cfg.coef = cfg.coef.min(10);
        cfg.konst = cfg.konst.min(10);
        cfg.box_bound = if int { Some(4) } else { None };
        let a = common::generate(&mut store, &mut rng, &cfg).formula;
        let gb = common::generate(&mut store, &mut rng, &cfg);
        let sort = if int { Sort::Int } else { Sort::Real };
        let bx = store.var("bx", sort);
        let mut map = rustc_hash::FxHashMap::default();
        map.insert(gb.vars[0], store.mk_var(bx));
        let b = cove_logic::substitute(&mut store, gb.formula, &map);
        match interpolate_formulas(&mut store, a, b, &ctl) {
            ItpOutcome::Interpolant(i) => {
                itps += 1;
                let r = check_interpolant(&mut store, &[a], &[b], i, &ctl);
                assert_eq!(r, Ok(()), "bad interpolant");
            }
            ItpOutcome::Sat(m) => {
                sats += 1;
                assert_eq!(m.eval_bool(&store, a), Ok(true));
                assert_eq!(m.eval_bool(&store, b), Ok(true));
            }
            ItpOutcome::Unknown(_) => unknown += 1,
        }
    }
    eprintln!("{itps} interpolants, {sats} sat, {unknown} unknown");
    assert!(
        itps > rounds / 5,
        "{itps} interpolants, {sats} sat, {unknown} unknown"
    );
    assert!(
        unknown * 20 <= rounds,
        "{itps} interpolants, {sats} sat, {unknown} unknown"
    );
}

#[test]
fn lra_formula_interpolants() {
    run_formulas(false, 11, 300);
}

#[test]
fn lia_formula_interpolants() {
    run_formulas(true, 12, 300);
}

/// Parity: only integer reasoning refutes `x = 2a ∧ B: x = 2b + 1`. Farkas has no
/// certificate (the relaxation is feasible), so the conjunctive interpolator answers
/// `None`, and the formula interpolator falls back to projection (`x mod 2 = 0`).
#[test]
fn integer_only_refutation() {
    use cove_smt::{ItpOutcome, check_interpolant, interpolate_formulas};
    let mut store = TermStore::new();
    let [x, a, b] = ["x", "a", "b"].map(|n| {
        let v = store.var(n, Sort::Int);
        store.mk_var(v)
    });
    let two = store.mk_int(2);
    let one = store.mk_int(1);
    let ta = store.mk_mul(&[two, a]);
    let tb = store.mk_mul(&[two, b]);
    let tb1 = store.mk_add(&[tb, one]);
    let fa = store.mk(Op::Eq, &[x, ta]).unwrap();
    let fb = store.mk(Op::Eq, &[x, tb1]).unwrap();
    assert_eq!(interpolate(&mut store, &[fa], &[fb]), None);
    let ctl = cove_control::Control::new();
    let ItpOutcome::Interpolant(i) = interpolate_formulas(&mut store, fa, fb, &ctl) else {
        panic!("no interpolant");
    };
    assert_eq!(check_interpolant(&mut store, &[fa], &[fb], i, &ctl), Ok(()));
}
