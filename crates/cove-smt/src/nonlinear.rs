//! Nonlinear products by incremental linearization (Cimatti, Griggio, Irfan, Roveri,
//! Sebastiani, TOCL 2018), in its simplest complete-for-models form.
//!
//! A product of two or more non-constant factors is abstracted by a fresh variable `w`
//! (see `encode.rs`); that alone is an over-approximation whose models mostly give `w` a
//! value that is not the product of its factors' values. On each candidate (after the
//! array and datatype checks) every product the candidate gets wrong yields valid linear
//! lemmas, and the search runs again:
//! * value lemmas: `(∧_{i≠j} f_i = a_i) → w = c·Π_{i≠j} a_i · f_j` for each factor `f_j`,
//!   where `a_i` are the candidate's values (with one factor left free the product is
//!   linear);
//! * tangent planes, for two factors `x·y` at the candidate point `(a, b)`:
//!   `(x ≥ a ∧ y ≥ b) ∨ (x ≤ a ∧ y ≤ b) → xy ≥ a·y + b·x − a·b` and the opposite quadrants
//!   with `≤`, both from the sign of `(x − a)(y − b)`;
//! * congruence, for two products whose factors the candidate makes pairwise equal but
//!   whose values it makes different: `(∧_i f_i = g_i) → c'·w = c·w'`. Two calls of one
//!   function with the same arguments (solc's `x * y == mul(x, y)`) give two copies of one
//!   product; the value lemmas alone would have to enumerate every value of the factors
//!   before the copies agree, the congruence lemma says it once.
//!
//! Every lemma holds for the real product, so `unsat` stays sound. A candidate whose
//! products are all right is a model of the products, and `sat` is still confirmed by
//! evaluating the assertions as written (products remain marked unsupported). Bounded
//! ranges, as the Solidity compiler emits for its integer types, make the value lemmas
//! converge on a real model when one exists; the number of rounds per check is capped
//! ([`MAX_ROUNDS`]), after which the candidate is returned and its check decides.

use crate::solver::SmtSolver;
use cove_logic::{Rational, TermId, TermStore, Value};
use cove_sat::Lit;

/// Refinement rounds per check.
pub(crate) const MAX_ROUNDS: u32 = 400;

impl SmtSolver {
    /// Registers the product term `t` (abstracted): its factors are encoded so that the
    /// candidate gives them values.
    pub(crate) fn nl_register(&mut self, store: &mut TermStore, t: TermId) {
        let args: Vec<TermId> = store.args(t).to_vec();
        for a in args {
            if store.as_num(a).is_none() {
                let _ = self.arith_lin(store, a);
            }
        }
        self.enc.products.push(t);
    }

    /// Lemmas for the products the current candidate gets wrong (empty: all right).
    pub(crate) fn nl_lemmas(&mut self, store: &mut TermStore) -> Vec<TermId> {
        let mut out = Vec::new();
        let products = self.enc.products.clone();
        // Products seen so far by their factors' values (sorted): the product, its
        // coefficient and value, its factors sorted by value.
        type Seen = (TermId, Rational, Rational, Vec<(Rational, TermId)>);
        let mut seen: std::collections::HashMap<Vec<Rational>, Seen> = Default::default();
        for t in products {
            let (c, fs) = split_product(store, t);
            let Some(vals) = self.num_values(store, &fs) else {
                continue;
            };
            let Some(w) = self.num_values(store, &[t]).and_then(|mut v| v.pop()) else {
                continue;
            };
            let sort = store.sort(t);
            let mut sorted: Vec<(Rational, TermId)> =
                vals.iter().cloned().zip(fs.iter().copied()).collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            let key: Vec<Rational> = sorted.iter().map(|p| p.0.clone()).collect();
            match seen.get(&key) {
                Some((t0, c0, w0, fs0)) => {
                    // c0·Π = w0 and c·Π = w agree iff c·w0 = c0·w.
                    if &c * w0 != c0 * &w {
                        let conds: Vec<TermId> = fs0
                            .iter()
                            .zip(&sorted)
                            .filter(|(a, b)| a.1 != b.1)
                            .map(|(a, b)| store.mk_eq(a.1, b.1))
                            .collect();
                        let t0 = *t0;
                        let ct = store.mk_num(c.clone(), sort);
                        let c0t = store.mk_num(c0.clone(), sort);
                        let lhs = store.mk_mul(&[ct, t0]);
                        let rhs = store.mk_mul(&[c0t, t]);
                        let concl = store.mk_eq(lhs, rhs);
                        let cond = store.mk_and(&conds);
                        out.push(store.mk_implies(cond, concl));
                    }
                }
                None => {
                    seen.insert(key, (t, c.clone(), w.clone(), sorted));
                }
            }
            let prod = vals.iter().fold(c.clone(), |acc, v| &acc * v);
            if prod == w {
                continue;
            }
            for j in 0..fs.len() {
                out.push(value_lemma(store, t, &c, &fs, &vals, j));
            }
            if fs.len() == 2 && !c.is_zero() {
                let (x, y) = (fs[0], fs[1]);
                let (a, b) = (&vals[0], &vals[1]);
                // c·(a·y + b·x − a·b): the tangent plane of c·x·y at (a, b).
                let ca = store.mk_num(&c * a, sort);
                let cb = store.mk_num(&c * b, sort);
                let cab = store.mk_num(-(&(&c * a) * b), sort);
                let ay = store.mk_mul(&[ca, y]);
                let bx = store.mk_mul(&[cb, x]);
                let plane = store.mk_add(&[ay, bx, cab]);
                let at = store.mk_num(a.clone(), store.sort(x));
                let bt = store.mk_num(b.clone(), store.sort(y));
                let x_ge = store.mk_ge(x, at);
                let x_le = store.mk_le(x, at);
                let y_ge = store.mk_ge(y, bt);
                let y_le = store.mk_le(y, bt);
                let same1 = store.mk_and(&[x_ge, y_ge]);
                let same2 = store.mk_and(&[x_le, y_le]);
                let same = store.mk_or(&[same1, same2]);
                let opp1 = store.mk_and(&[x_ge, y_le]);
                let opp2 = store.mk_and(&[x_le, y_ge]);
                let opp = store.mk_or(&[opp1, opp2]);
                // (x − a)(y − b) ≥ 0 on `same`: x·y ≥ plane/c, so c·x·y ≥ plane when c > 0.
                let (above, below) = if c.is_positive() {
                    (store.mk_ge(t, plane), store.mk_le(t, plane))
                } else {
                    (store.mk_le(t, plane), store.mk_ge(t, plane))
                };
                out.push(store.mk_implies(same, above));
                out.push(store.mk_implies(opp, below));
            }
        }
        out
    }

    /// Model patching: assumption literals `f = a` that fix, at the current candidate, all
    /// but one factor of every product (the factor with the largest value stays free), after
    /// asserting for each product the value lemma that makes it exact, and linear in its
    /// free factor, under those assumptions. A search under them that succeeds has every
    /// product right; one that fails says nothing and the assumptions are dropped.
    ///
    /// # Why
    /// The value lemmas pin a product only at the factor values of one candidate, and the
    /// search moves on to other values. On solc's overflow checks (`a·b > 2^256 − 1` with
    /// `a, b ≤ 2^256 − 1`) each round tried a new `b` and 400 rounds found no model, while
    /// fixing `b` at its candidate value leaves a linear bound on `a` that a single search
    /// satisfies.
    pub(crate) fn nl_patch(&mut self, store: &mut TermStore) -> Vec<Lit> {
        let products = self.enc.products.clone();
        // Fixed factors with their candidate values (one term, one value: the candidate's).
        let mut fixed: Vec<(TermId, Rational)> = Vec::new();
        let mut lemmas = Vec::new();
        for t in products {
            let (c, fs) = split_product(store, t);
            if fs.len() < 2 {
                continue;
            }
            let Some(vals) = self.num_values(store, &fs) else {
                return Vec::new();
            };
            let is_fixed = |fixed: &[(TermId, Rational)], f: TermId| fixed.iter().any(|p| p.0 == f);
            // The free factor: the unfixed one with the largest magnitude, else the last.
            let free = (0..fs.len())
                .filter(|&i| !is_fixed(&fixed, fs[i]))
                .max_by_key(|&i| vals[i].abs())
                .unwrap_or(fs.len() - 1);
            for i in 0..fs.len() {
                if i != free && !is_fixed(&fixed, fs[i]) {
                    fixed.push((fs[i], vals[i].clone()));
                }
            }
            lemmas.push(value_lemma(store, t, &c, &fs, &vals, free));
        }
        self.nl_assert_lemmas(store, lemmas);
        fixed
            .into_iter()
            .map(|(f, v)| {
                let vt = store.mk_num(v, store.sort(f));
                let eq = store.mk_eq(f, vt);
                let saved = self.enc.scope.take();
                let l = self.lit_of(store, eq);
                self.enc.scope = saved;
                l
            })
            .collect()
    }

    /// The candidate's numeric values of `ts`, if it gives each one.
    fn num_values(&self, store: &TermStore, ts: &[TermId]) -> Option<Vec<Rational>> {
        ts.iter()
            .map(|&u| match self.cand_value(store, u) {
                Some(Value::Num(x)) => Some(x),
                _ => None,
            })
            .collect()
    }

    /// Asserts lemmas permanently (they are valid, whatever the assertions).
    pub(crate) fn nl_assert_lemmas(&mut self, store: &mut TermStore, lemmas: Vec<TermId>) {
        for f in lemmas {
            // Not simplified: the simplifier may use the hypothesis `f_i = a_i` to rewrite
            // the conclusion into `true`, which would lose the lemma.
            self.assert_fact(store, f);
        }
    }
}

/// The numeral coefficient of the product `t` and its other factors.
fn split_product(store: &TermStore, t: TermId) -> (Rational, Vec<TermId>) {
    let mut c = Rational::ONE;
    let mut fs = Vec::new();
    for &a in store.args(t) {
        match store.as_num(a) {
            Some(k) => c = &c * k,
            None => fs.push(a),
        }
    }
    (c, fs)
}

/// The value lemma of the product `t = c·Π fs` for its factor `fs[j]`: with every other
/// factor at its value in `vals`, the product is linear in `fs[j]`,
/// `(∧_{i≠j} f_i = v_i) → t = (c·Π_{i≠j} v_i)·f_j`.
fn value_lemma(
    store: &mut TermStore,
    t: TermId,
    c: &Rational,
    fs: &[TermId],
    vals: &[Rational],
    j: usize,
) -> TermId {
    let mut k = c.clone();
    let mut conds = Vec::with_capacity(fs.len() - 1);
    for (i, &f) in fs.iter().enumerate() {
        if i != j {
            k = &k * &vals[i];
            let vi = store.mk_num(vals[i].clone(), store.sort(f));
            conds.push(store.mk_eq(f, vi));
        }
    }
    let kt = store.mk_num(k, store.sort(t));
    let rhs = store.mk_mul(&[kt, fs[j]]);
    let concl = store.mk_eq(t, rhs);
    let cond = store.mk_and(&conds);
    store.mk_implies(cond, concl)
}
