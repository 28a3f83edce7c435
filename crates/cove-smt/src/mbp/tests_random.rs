//! Randomized property tests of MBP (seeded, so failures reproduce).
//!
//! Random formulas over arithmetic variables `v0..v3` (Int or Real) and Booleans `p, q`, with
//! Boolean structure, `ite`, disequalities and (Int) `mod`/`div` by numerals. `v0` (and
//! sometimes `v1`, `p`) are eliminated. A test-side evaluator makes brute force cheap.
//! Checked, for models found on a grid:
//! 1. the model satisfies the projection;
//! 2. the projection implies the existential, at every grid point of the other variables:
//!    for Int by searching witnesses in a box larger than any minimal witness can be, for
//!    Real exactly, by trying one point of every cell of the arrangement of the formula's
//!    linear forms (a sign-invariant cell decides every atom);
//! 3. finite image: over models drawn from a huge box the projections stay few and their
//!    numerals small (no model value leaks into a projection).

use super::*;
use cove_logic::{Op, Rational};
use std::collections::BTreeSet;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    fn chance(&mut self, k: u64) -> bool {
        self.below(k) == 0
    }
}

#[derive(Clone, Debug)]
enum E {
    Var(usize),
    Num(Rational),
    Add(Vec<E>),
    Scale(Rational, Box<E>),
    Mod(Box<E>, i64),
    Div(Box<E>, i64),
    Ite(Box<F>, Box<E>, Box<E>),
}

#[derive(Clone, Debug)]
enum F {
    Cmp(Op, E, E),
    Ne(E, E),
    And(Vec<F>),
    Or(Vec<F>),
    Not(Box<F>),
    /// Boolean variable: 0 is p, 1 is q.
    B(usize),
}

const NV: usize = 4;
/// Random models tried per formula for the finite-image check.
const HUGE_SAMPLES: usize = 60;

struct Gen {
    rng: Rng,
    int: bool,
}

impl Gen {
    fn coeff(&mut self) -> Rational {
        let c = self.rng.range(1, 3) * if self.rng.chance(2) { -1 } else { 1 };
        if !self.int && self.rng.chance(4) {
            Rational::new(c, 2)
        } else {
            Rational::int(c)
        }
    }

    fn lin(&mut self, depth: u32) -> E {
        let mut parts = Vec::new();
        for _ in 0..self.rng.range(1, 2) {
            let v = E::Var(self.rng.below(NV as u64) as usize);
            parts.push(E::Scale(self.coeff(), Box::new(v)));
        }
        parts.push(E::Num(Rational::int(self.rng.range(-4, 4))));
        let e = E::Add(parts);
        if depth == 0 {
            return e;
        }
        match self.rng.below(10) {
            0 if self.int => E::Add(vec![
                E::Mod(Box::new(e), self.rng.range(2, 3)),
                E::Var(self.rng.below(2) as usize),
            ]),
            1 if self.int => E::Add(vec![
                E::Div(Box::new(e), self.rng.range(2, 3)),
                E::Var(self.rng.below(2) as usize),
            ]),
            2 => E::Ite(Box::new(self.atom(0)), Box::new(e), Box::new(self.lin(0))),
            _ => e,
        }
    }

    fn atom(&mut self, depth: u32) -> F {
        if self.rng.chance(10) {
            return F::B(self.rng.below(2) as usize);
        }
        let (a, b) = (self.lin(depth), self.lin(0));
        match self.rng.below(6) {
            0 => F::Cmp(Op::Le, a, b),
            1 => F::Cmp(Op::Lt, a, b),
            2 => F::Cmp(Op::Ge, a, b),
            3 => F::Cmp(Op::Gt, a, b),
            4 => F::Cmp(Op::Eq, a, b),
            _ => F::Ne(a, b),
        }
    }

    fn formula(&mut self, depth: u32) -> F {
        if depth == 0 || self.rng.chance(4) {
            return self.atom(1);
        }
        let n = self.rng.range(2, 3);
        let kids = (0..n).map(|_| self.formula(depth - 1)).collect();
        match self.rng.below(5) {
            0 | 1 => F::Or(kids),
            2 => F::Not(Box::new(F::And(kids))),
            _ => F::And(kids),
        }
    }
}

fn ev(e: &E, v: &[Rational], b: &[bool]) -> Rational {
    match e {
        E::Var(i) => v[*i].clone(),
        E::Num(n) => n.clone(),
        E::Add(es) => es.iter().fold(Rational::ZERO, |acc, e| acc + ev(e, v, b)),
        E::Scale(c, e) => c * &ev(e, v, b),
        E::Mod(e, k) => ev(e, v, b).int_mod(&Rational::int(*k)),
        E::Div(e, k) => ev(e, v, b).int_div(&Rational::int(*k)),
        E::Ite(c, x, y) => {
            if holds(c, v, b) {
                ev(x, v, b)
            } else {
                ev(y, v, b)
            }
        }
    }
}

fn holds(f: &F, v: &[Rational], b: &[bool]) -> bool {
    match f {
        F::Cmp(op, x, y) => {
            let (x, y) = (ev(x, v, b), ev(y, v, b));
            match op {
                Op::Le => x <= y,
                Op::Lt => x < y,
                Op::Ge => x >= y,
                Op::Gt => x > y,
                _ => x == y,
            }
        }
        F::Ne(x, y) => ev(x, v, b) != ev(y, v, b),
        F::And(fs) => fs.iter().all(|f| holds(f, v, b)),
        F::Or(fs) => fs.iter().any(|f| holds(f, v, b)),
        F::Not(f) => !holds(f, v, b),
        F::B(i) => b[*i],
    }
}

struct Vars {
    arith: Vec<VarId>,
    bools: Vec<VarId>,
}

fn term_e(s: &mut TermStore, e: &E, vars: &Vars, sort: Sort) -> TermId {
    match e {
        E::Var(i) => s.mk_var(vars.arith[*i]),
        E::Num(n) => s.mk_num(n.clone(), sort),
        E::Add(es) => {
            let ts: Vec<TermId> = es.iter().map(|e| term_e(s, e, vars, sort)).collect();
            s.mk_add(&ts)
        }
        E::Scale(c, e) => {
            let t = term_e(s, e, vars, sort);
            let k = s.mk_num(c.clone(), sort);
            s.mk_mul(&[k, t])
        }
        E::Mod(x, k) | E::Div(x, k) => {
            let t = term_e(s, x, vars, sort);
            let k = s.mk_int(*k);
            let op = if matches!(e, E::Mod(..)) {
                Op::Mod
            } else {
                Op::IntDiv
            };
            s.mk(op, &[t, k]).unwrap()
        }
        E::Ite(c, x, y) => {
            let (c, x, y) = (
                term_f(s, c, vars, sort),
                term_e(s, x, vars, sort),
                term_e(s, y, vars, sort),
            );
            s.mk_ite(c, x, y)
        }
    }
}

fn term_f(s: &mut TermStore, f: &F, vars: &Vars, sort: Sort) -> TermId {
    match f {
        F::Cmp(op, x, y) => {
            let (x, y) = (term_e(s, x, vars, sort), term_e(s, y, vars, sort));
            if *op == Op::Eq {
                s.mk_eq(x, y)
            } else {
                s.mk_cmp(op.clone(), x, y)
            }
        }
        F::Ne(x, y) => {
            let (x, y) = (term_e(s, x, vars, sort), term_e(s, y, vars, sort));
            s.mk(Op::Distinct, &[x, y]).unwrap()
        }
        F::And(fs) | F::Or(fs) => {
            let ts: Vec<TermId> = fs.iter().map(|f| term_f(s, f, vars, sort)).collect();
            if matches!(f, F::And(_)) {
                s.mk_and(&ts)
            } else {
                s.mk_or(&ts)
            }
        }
        F::Not(f) => {
            let t = term_f(s, f, vars, sort);
            s.mk_not(t)
        }
        F::B(i) => s.mk_var(vars.bools[*i]),
    }
}

/// A linear form: coefficients of `v0..v3` and a constant.
type Form = (Vec<Rational>, Rational);

fn forms_e(e: &E, conds: &mut Vec<Form>) -> Vec<Form> {
    match e {
        E::Var(i) => {
            let mut c = vec![Rational::ZERO; NV];
            c[*i] = Rational::ONE;
            vec![(c, Rational::ZERO)]
        }
        E::Num(n) => vec![(vec![Rational::ZERO; NV], n.clone())],
        E::Add(es) => {
            let mut acc = vec![(vec![Rational::ZERO; NV], Rational::ZERO)];
            for e in es {
                let fs = forms_e(e, conds);
                acc = acc
                    .iter()
                    .flat_map(|a| fs.iter().map(move |f| add_form(a, f, &Rational::ONE)))
                    .collect();
            }
            acc
        }
        E::Scale(k, e) => forms_e(e, conds)
            .into_iter()
            .map(|(c, d)| (c.iter().map(|x| x * k).collect(), d * k))
            .collect(),
        E::Ite(c, x, y) => {
            atom_forms(c, conds);
            let mut out = forms_e(x, conds);
            out.extend(forms_e(y, conds));
            out
        }
        E::Mod(..) | E::Div(..) => unreachable!("Int only"),
    }
}

fn add_form(a: &Form, b: &Form, k: &Rational) -> Form {
    (
        a.0.iter().zip(&b.0).map(|(x, y)| x + &(y * k)).collect(),
        &a.1 + &(&b.1 * k),
    )
}

/// The linear forms whose signs decide every atom of `f`.
fn atom_forms(f: &F, out: &mut Vec<Form>) {
    match f {
        F::Cmp(_, x, y) | F::Ne(x, y) => {
            let (fx, fy) = (forms_e(x, out), forms_e(y, out));
            for a in &fx {
                for b in &fy {
                    out.push(add_form(a, b, &Rational::MINUS_ONE));
                }
            }
        }
        F::And(fs) | F::Or(fs) => fs.iter().for_each(|f| atom_forms(f, out)),
        F::Not(f) => atom_forms(f, out),
        F::B(_) => {}
    }
}

/// One point in every cell (point, open interval) cut by `roots`.
fn cells(mut roots: Vec<Rational>) -> Vec<Rational> {
    roots.sort();
    roots.dedup();
    let Some(first) = roots.first().cloned() else {
        return vec![Rational::ZERO];
    };
    let last = roots.last().cloned().unwrap();
    let mut out = vec![first - Rational::ONE, last + Rational::ONE];
    for w in roots.windows(2) {
        out.push((&w[0] + &w[1]) / Rational::int(2));
    }
    out.extend(roots);
    out
}

/// What is existentially quantified, for the brute-force check.
struct Exists<'a> {
    phi: &'a F,
    int: bool,
    /// Linear forms of `phi` (Real only).
    forms: Vec<Form>,
    n_elim: usize,
    elim_p: bool,
    /// Int witnesses are searched in `[-r, r]`.
    r: i64,
}

/// Does some value of the eliminated variables (the first `n_elim`, and `p` when
/// `elim_p`) extend `point` to a model of `phi`?
fn exists_witness(ex: &Exists<'_>, point: &[Rational], q: bool) -> bool {
    let Exists {
        phi,
        int,
        ref forms,
        n_elim,
        elim_p,
        r,
    } = *ex;
    let mut v = point.to_vec();
    let ps: &[bool] = if elim_p {
        &[false, true]
    } else if point_p(point) {
        &[true]
    } else {
        &[false]
    };
    let check = |v: &[Rational]| ps.iter().any(|&p| holds(phi, v, &[p, q]));
    if int {
        let r1 = if n_elim == 2 { r } else { 0 };
        // Small witnesses first: 0, 1, -1, 2, -2, ...
        let order = |r: i64| (0..=2 * r).map(|i| if i % 2 == 0 { -(i / 2) } else { i / 2 + 1 });
        for a in order(r) {
            for b in order(r1) {
                v[0] = Rational::int(a);
                if n_elim == 2 {
                    v[1] = Rational::int(b);
                }
                if check(&v) {
                    return true;
                }
            }
        }
        return false;
    }
    // Reduce each form to a0·v0 + a1·v1 + c at this point.
    let reduced: Vec<(Rational, Rational, Rational)> = forms
        .iter()
        .map(|(co, k)| {
            let mut c = k.clone();
            for i in n_elim..NV {
                c += &(&co[i] * &point[i]);
            }
            let a1 = if n_elim == 2 {
                co[1].clone()
            } else {
                Rational::ZERO
            };
            (co[0].clone(), a1, c)
        })
        .collect();
    let mut x0_roots = Vec::new();
    for (i, (a0, a1, c)) in reduced.iter().enumerate() {
        if a1.is_zero() && !a0.is_zero() {
            x0_roots.push(-c / a0);
        }
        for (b0, b1, d) in &reduced[i + 1..] {
            let det = a0 * b1 - a1 * b0;
            if !a1.is_zero() && !b1.is_zero() && !det.is_zero() {
                x0_roots.push((a1 * d - b1 * c) / det);
            }
        }
    }
    for x0 in cells(x0_roots) {
        v[0] = x0.clone();
        let x1s = if n_elim == 2 {
            cells(
                reduced
                    .iter()
                    .filter(|(_, a1, _)| !a1.is_zero())
                    .map(|(a0, a1, c)| -(a0 * &x0 + c) / a1)
                    .collect(),
            )
        } else {
            vec![v[1].clone()]
        };
        for x1 in x1s {
            v[1] = x1;
            if check(&v) {
                return true;
            }
        }
    }
    false
}

/// `p`'s value when it is not eliminated is smuggled in the point's spare slot.
fn point_p(point: &[Rational]) -> bool {
    point.len() > NV && point[NV].is_one()
}

fn set_point(m: &mut Model, vars: &Vars, v: &[Rational], b: &[bool]) {
    for (i, &x) in vars.arith.iter().enumerate() {
        m.set(x, Value::Num(v[i].clone()));
    }
    for (i, &x) in vars.bools.iter().enumerate() {
        m.set(x, Value::Bool(b[i]));
    }
}

fn is_literal(s: &TermStore, t: TermId) -> bool {
    let atom = if *s.op(t) == Op::Not { s.args(t)[0] } else { t };
    !matches!(
        s.op(atom),
        Op::And | Op::Or | Op::Not | Op::Implies | Op::Ite | Op::Bool(_)
    )
}

fn numerals(s: &TermStore, t: TermId, out: &mut Vec<Rational>) {
    if let Op::Num(n) = s.op(t) {
        out.push(n.clone());
    }
    for &a in s.args(t) {
        numerals(s, a, out);
    }
}

/// Statistics of a run, for the assertions and for tuning.
#[derive(Default, Debug)]
struct Stats {
    formulas: usize,
    models: usize,
    max_image: usize,
    huge_models: usize,
    max_huge_image: usize,
}

fn run(seed: u64, int: bool, rounds: usize) -> Stats {
    let mut g = Gen {
        rng: Rng(seed),
        int,
    };
    let mut stats = Stats::default();
    let grid: Vec<Rational> = if int {
        (-3..=3).map(Rational::int).collect()
    } else {
        (-4..=4).map(|k| Rational::new(k, 2)).collect()
    };
    let sort = if int { Sort::Int } else { Sort::Real };
    for _ in 0..rounds {
        let phi_f = g.formula(2);
        let n_elim = g.rng.range(1, 2) as usize;
        let elim_p = g.rng.chance(2);
        let mut s = TermStore::new();
        let vars = Vars {
            arith: (0..NV).map(|i| s.var(&format!("v{i}"), sort)).collect(),
            bools: vec![s.var("p", Sort::Bool), s.var("q", Sort::Bool)],
        };
        let phi = term_f(&mut s, &phi_f, &vars, sort);
        let mut elim: Vec<VarId> = vars.arith[..n_elim].to_vec();
        if elim_p {
            elim.push(vars.bools[0]);
        }
        // Models on the grid.
        let mut sat = Vec::new();
        let n = grid.len();
        for idx in 0..n.pow(NV as u32) * 4 {
            let mut k = idx;
            let v: Vec<Rational> = (0..NV)
                .map(|_| {
                    let x = grid[k % n].clone();
                    k /= n;
                    x
                })
                .collect();
            let b = [k % 2 == 1, k / 2 == 1];
            if holds(&phi_f, &v, &b) {
                sat.push((v, b));
            }
        }
        if sat.is_empty() {
            continue;
        }
        stats.formulas += 1;
        let step = (sat.len() / 12).max(1);
        let mut image = BTreeSet::new();
        for (v, b) in sat.iter().step_by(step) {
            let mut m = Model::new();
            set_point(&mut m, &vars, v, b);
            for cube in [false, true] {
                let r = if cube {
                    mbp_cube(&mut s, &m, phi, &elim)
                } else {
                    mbp(&mut s, &m, phi, &elim)
                };
                let r = r.unwrap_or_else(|e| panic!("{e} on {phi_f:?}"));
                assert!(r.kept.is_empty(), "kept {:?} in {phi_f:?}", r.kept);
                assert!(
                    m.eval_bool(&s, r.formula).unwrap(),
                    "model violates projection of {phi_f:?}"
                );
                let fv = cove_logic::free_vars(&s, r.formula);
                assert!(
                    fv.iter().all(|x| !elim.contains(x)),
                    "eliminated variable left in projection"
                );
                if cube {
                    assert!(s.conjuncts(r.formula).iter().all(|&l| is_literal(&s, l)));
                }
                image.insert(r.formula);
            }
            stats.models += 1;
        }
        stats.max_image = stats.max_image.max(image.len());
        // Projection implies the existential, on the grid of the other variables.
        let mut forms = Vec::new();
        if !int {
            atom_forms(&phi_f, &mut forms);
        }
        let ex = Exists {
            phi: &phi_f,
            int,
            forms,
            n_elim,
            elim_p,
            r: 40,
        };
        for &psi in &image {
            for idx in 0..n.pow((NV - n_elim) as u32) * 4 {
                let mut k = idx;
                let mut v = vec![Rational::ZERO; NV + 1];
                for slot in v.iter_mut().take(NV).skip(n_elim) {
                    *slot = grid[k % n].clone();
                    k /= n;
                }
                let b = [k % 2 == 1, k / 2 == 1];
                v[NV] = if b[0] { Rational::ONE } else { Rational::ZERO };
                let mut m = Model::new();
                set_point(&mut m, &vars, &v[..NV], &b);
                if m.eval_bool(&s, psi).unwrap() {
                    assert!(
                        exists_witness(&ex, &v, b[1]),
                        "projection {:?} holds at {v:?} {b:?} but no witness for {phi_f:?}",
                        s.get(psi)
                    );
                }
            }
        }
        // Finite image: models from a huge box give few projections with small numerals.
        let mut huge = BTreeSet::new();
        for _ in 0..HUGE_SAMPLES {
            let v: Vec<Rational> = (0..NV)
                .map(|_| Rational::int(g.rng.range(-1_000_000, 1_000_000)))
                .collect();
            let b = [g.rng.chance(2), g.rng.chance(2)];
            if !holds(&phi_f, &v, &b) {
                continue;
            }
            let mut m = Model::new();
            set_point(&mut m, &vars, &v, &b);
            let r = mbp(&mut s, &m, phi, &elim).unwrap();
            assert!(m.eval_bool(&s, r.formula).unwrap());
            let mut nums = Vec::new();
            numerals(&s, r.formula, &mut nums);
            assert!(
                nums.iter().all(|x| x.abs() <= Rational::int(10_000)),
                "model value leaked: {:?}",
                s.get(r.formula)
            );
            huge.insert(r.formula);
            stats.huge_models += 1;
        }
        stats.max_huge_image = stats.max_huge_image.max(huge.len());
    }
    stats
}

#[test]
fn random_lia_projections() {
    for seed in 1..=3u64 {
        let st = run(seed * 0x9E37_79B9, true, 25);
        assert!(st.formulas > 15 && st.huge_models > 200, "{st:?}");
        assert!(st.max_huge_image <= 40, "{st:?}");
    }
}

#[test]
fn random_lra_projections() {
    for seed in 1..=3u64 {
        let st = run(seed * 0x2545_F491, false, 12);
        assert!(st.formulas > 6 && st.huge_models > 100, "{st:?}");
        assert!(st.max_huge_image <= 40, "{st:?}");
    }
}

/// A longer run over many seeds: `cargo test --release -p cove-smt mbp_stress -- --ignored --nocapture`.
#[test]
#[ignore]
fn mbp_stress() {
    for seed in 100..160u64 {
        for int in [true, false] {
            let st = run(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1, int, 40);
            eprintln!("seed {seed} int {int}: {st:?}");
        }
    }
}

/// Exact QE through the SMT solver agrees with brute force on the grid of the other
/// variables: `qe(φ)(ȳ) ⟺ ∃x̄·φ(x̄, ȳ)`.
fn run_qe(seed: u64, int: bool, rounds: usize) -> usize {
    let mut g = Gen {
        rng: Rng(seed),
        int,
    };
    let grid: Vec<Rational> = if int {
        (-2..=2).map(Rational::int).collect()
    } else {
        (-4..=4).map(|k| Rational::new(k, 2)).collect()
    };
    let sort = if int { Sort::Int } else { Sort::Real };
    let n = grid.len();
    let mut checked = 0;
    for _ in 0..rounds {
        let phi_f = g.formula(2);
        let n_elim = g.rng.range(1, 2) as usize;
        let elim_p = g.rng.chance(2);
        let mut s = TermStore::new();
        let vars = Vars {
            arith: (0..NV).map(|i| s.var(&format!("v{i}"), sort)).collect(),
            bools: vec![s.var("p", Sort::Bool), s.var("q", Sort::Bool)],
        };
        let phi = term_f(&mut s, &phi_f, &vars, sort);
        let mut elim: Vec<VarId> = vars.arith[..n_elim].to_vec();
        if elim_p {
            elim.push(vars.bools[0]);
        }
        let result = qe(&mut s, phi, &elim).unwrap_or_else(|e| panic!("{e} on {phi_f:?}"));
        let fv = cove_logic::free_vars(&s, result);
        assert!(fv.iter().all(|x| !elim.contains(x)));
        let mut forms = Vec::new();
        if !int {
            atom_forms(&phi_f, &mut forms);
        }
        let ex = Exists {
            phi: &phi_f,
            int,
            forms,
            n_elim,
            elim_p,
            r: 30,
        };
        for idx in 0..n.pow((NV - n_elim) as u32) * 4 {
            let mut k = idx;
            let mut v = vec![Rational::ZERO; NV + 1];
            for slot in v.iter_mut().take(NV).skip(n_elim) {
                *slot = grid[k % n].clone();
                k /= n;
            }
            let b = [k % 2 == 1, k / 2 == 1];
            v[NV] = if b[0] { Rational::ONE } else { Rational::ZERO };
            let mut m = Model::new();
            set_point(&mut m, &vars, &v[..NV], &b);
            let got = m.eval_bool(&s, result).unwrap();
            let want = exists_witness(&ex, &v, b[1]);
            assert_eq!(
                got,
                want,
                "qe {:?} at {v:?} {b:?} for {phi_f:?}",
                s.get(result)
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn random_qe_lia() {
    assert_eq!(run_qe(0xC0FFEE, true, 12), 12);
}

#[test]
fn random_qe_lra() {
    assert_eq!(run_qe(0xBEEF, false, 12), 12);
}

/// Time per projection on the random formulas:
/// `cargo test --release -p cove-smt mbp_timing -- --ignored --nocapture`.
#[test]
#[ignore]
fn mbp_timing() {
    for int in [true, false] {
        let mut g = Gen {
            rng: Rng(0x5EED),
            int,
        };
        let sort = if int { Sort::Int } else { Sort::Real };
        let (mut calls, mut total) = (0u32, std::time::Duration::ZERO);
        for _ in 0..300 {
            let phi_f = g.formula(3);
            let mut s = TermStore::new();
            let vars = Vars {
                arith: (0..NV).map(|i| s.var(&format!("v{i}"), sort)).collect(),
                bools: vec![s.var("p", Sort::Bool), s.var("q", Sort::Bool)],
            };
            let phi = term_f(&mut s, &phi_f, &vars, sort);
            let elim = vec![vars.arith[0], vars.arith[1], vars.bools[0]];
            for _ in 0..200 {
                let v: Vec<Rational> = (0..NV)
                    .map(|_| Rational::int(g.rng.range(-20, 20)))
                    .collect();
                let b = [g.rng.chance(2), g.rng.chance(2)];
                if !holds(&phi_f, &v, &b) {
                    continue;
                }
                let mut m = Model::new();
                set_point(&mut m, &vars, &v, &b);
                let start = std::time::Instant::now();
                let r = mbp(&mut s, &m, phi, &elim).unwrap();
                total += start.elapsed();
                calls += 1;
                std::hint::black_box(r);
            }
        }
        eprintln!(
            "int={int}: {calls} projections, {:.1} µs each",
            total.as_secs_f64() * 1e6 / calls as f64
        );
    }
}
