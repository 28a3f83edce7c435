//! Test support shared by the simplex and LIA tests: a seeded PRNG, random constraints
//! over problem variables, and an independent Farkas-certificate checker that works from
//! the test's own record of the constraints, not from the solver's slack definitions.

use super::{BoundKind, BoundTag, DeltaRational, FarkasTerm, Rel, RowRef, Simplex, TVar};
use cove_logic::Rational;

/// xorshift64* — deterministic, dependency-free.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }
}

/// `Σ a·x ⋈ rhs` over problem-variable indices.
#[derive(Clone, Debug)]
pub struct Cons {
    pub lin: Vec<(usize, i64)>,
    pub rel: Rel,
    pub rhs: i64,
}

impl Cons {
    /// Evaluates under a rational model.
    pub fn holds(&self, vals: &[Rational]) -> bool {
        let mut s = Rational::ZERO;
        for (v, a) in &self.lin {
            s += &(Rational::int(*a) * &vals[*v]);
        }
        let r = Rational::int(self.rhs);
        match self.rel {
            Rel::Le => s <= r,
            Rel::Lt => s < r,
            Rel::Ge => s >= r,
            Rel::Gt => s > r,
            Rel::Eq => s == r,
        }
    }
}

/// A random constraint with 1..=max_len distinct variables and small coefficients.
pub fn random_cons(
    rng: &mut Rng,
    nvars: usize,
    max_len: usize,
    coef: i64,
    rhs: i64,
    eq_weight: u64,
) -> Cons {
    let len = rng.range(1, max_len.min(nvars) as i64) as usize;
    let mut lin: Vec<(usize, i64)> = Vec::new();
    while lin.len() < len {
        let v = rng.range(0, nvars as i64 - 1) as usize;
        if lin.iter().any(|(w, _)| *w == v) {
            continue;
        }
        let mut a = 0;
        while a == 0 {
            a = rng.range(-coef, coef);
        }
        lin.push((v, a));
    }
    let rel = match rng.next() % (4 + eq_weight) {
        0 => Rel::Le,
        1 => Rel::Lt,
        2 => Rel::Ge,
        3 => Rel::Gt,
        _ => Rel::Eq,
    };
    Cons {
        lin,
        rel,
        rhs: rng.range(-rhs, rhs),
    }
}

/// The linear form of a constraint as simplex terms.
pub fn lin_of(c: &Cons, vars: &[TVar]) -> Vec<(TVar, Rational)> {
    c.lin
        .iter()
        .map(|(v, a)| (vars[*v], Rational::int(*a)))
        .collect()
}

/// Adds the row of `c` and asserts it with `tag`; returns the row used.
pub fn assert_cons(
    sx: &mut Simplex,
    vars: &[TVar],
    c: &Cons,
    tag: u32,
) -> (RowRef, Result<(), super::Conflict>) {
    let rr = sx.add_row(&lin_of(c, vars)).expect("non-zero form");
    let res = sx.assert_rel(&rr, c.rel, &Rational::int(c.rhs), BoundTag(tag));
    (rr, res)
}

/// Independent check of a Farkas certificate. `record[tag]` is the constraint and the row
/// it was asserted through. Each term must be implied by its constraint (same slack, bound
/// no tighter than the constraint gives, rounded for integer slacks when `int_round`), and
/// the weighted sum of the constraints — expanded from the *test's* linear forms — must
/// cancel all variables and leave a negative constant.
pub fn check_farkas(
    terms: &[FarkasTerm],
    record: &[(Cons, RowRef)],
    int_rows: &[bool],
    nvars: usize,
) -> Result<(), String> {
    let mut acc = vec![Rational::ZERO; nvars];
    let mut total = DeltaRational::ZERO;
    for t in terms {
        if !t.coef.is_positive() {
            return Err(format!("non-positive coefficient {t:?}"));
        }
        let (c, rr) = &record[t.tag.0 as usize];
        if rr.var != t.var {
            return Err(format!("term {t:?} not on the constraint's slack {rr:?}"));
        }
        // What the constraint says about factor·lin (as delta-rational bounds).
        let val = &rr.factor * &Rational::int(c.rhs);
        let rel = match (c.rel, rr.factor.is_negative()) {
            (r, false) | (r @ Rel::Eq, true) => r,
            (Rel::Le, true) => Rel::Ge,
            (Rel::Lt, true) => Rel::Gt,
            (Rel::Ge, true) => Rel::Le,
            (Rel::Gt, true) => Rel::Lt,
        };
        let exact = || Some(DeltaRational::from_rational(val.clone()));
        let (up, lo) = match rel {
            Rel::Le => (exact(), None),
            Rel::Lt => (Some(DeltaRational::below(val.clone())), None),
            Rel::Ge => (None, exact()),
            Rel::Gt => (None, Some(DeltaRational::above(val.clone()))),
            Rel::Eq => (exact(), exact()),
        };
        let round = int_rows[t.tag.0 as usize];
        let implied = match t.kind {
            BoundKind::Upper => up.map(|b| {
                if round {
                    DeltaRational::from_rational(b.floor())
                } else {
                    b
                }
            }),
            BoundKind::Lower => lo.map(|b| {
                if round {
                    DeltaRational::from_rational(b.ceil())
                } else {
                    b
                }
            }),
        };
        let ok = match (t.kind, implied) {
            (BoundKind::Upper, Some(b)) => b <= t.bound,
            (BoundKind::Lower, Some(b)) => b >= t.bound,
            _ => false,
        };
        if !ok {
            return Err(format!("term {t:?} not implied by {c:?}"));
        }
        let sign = match t.kind {
            BoundKind::Upper => t.coef.clone(),
            BoundKind::Lower => -&t.coef,
        };
        let scale = &sign * &rr.factor;
        for (v, a) in &c.lin {
            acc[*v] += &(&scale * &Rational::int(*a));
        }
        total.add_scaled(&sign, &t.bound);
    }
    if acc.iter().any(|a| !a.is_zero()) {
        return Err(format!("variables do not cancel: {acc:?}"));
    }
    if total.signum() >= 0 {
        return Err(format!("constant {total} is not negative"));
    }
    Ok(())
}

/// Solves a conjunction from scratch; `Ok(model)` or `Err(conflict tags)`.
pub fn solve_lra(nvars: usize, cons: &[Cons]) -> Result<Vec<Rational>, Vec<u32>> {
    let mut sx = Simplex::new();
    let vars: Vec<TVar> = (0..nvars).map(|_| sx.add_var(false)).collect();
    for (i, c) in cons.iter().enumerate() {
        if let (_, Err(conf)) = assert_cons(&mut sx, &vars, c, i as u32) {
            return Err(conf.tags().iter().map(|t| t.0).collect());
        }
    }
    match sx.check() {
        Ok(()) => {
            let m = sx.concrete_model();
            Ok(vars.iter().map(|v| m[v.idx()].clone()).collect())
        }
        Err(conf) => Err(conf.tags().iter().map(|t| t.0).collect()),
    }
}
