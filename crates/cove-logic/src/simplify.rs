//! Simplification to a canonical form.
//!
//! The simplifier folds constants, flattens `and`/`or`, removes `=>`, `xor` (for Booleans)
//! and `distinct`, writes arithmetic terms as canonical [`LinearSum`]s and comparisons as one
//! of `(<= s k)`, `(< s k)` (Real only) or `(= s k)` where `s` is a constant-free canonical
//! sum. Integer comparisons are tightened (`s < k` becomes `s <= k-1`, coefficients are
//! divided by their gcd and the bound rounded down), so syntactically different but
//! equivalent atoms tend to become the same term — which is what makes lemma sets small and
//! hash-consing effective for the engines.
//!
//! # Postcondition
//! `simplify(t)` is equivalent to `t` (same value under every model of its free variables).

use crate::Rational;
use crate::linear::{LinearSum, linearize, mk_linear};
use crate::term::{Op, Sort, TermId, TermStore};
use rustc_hash::FxHashMap;

/// Returns a simplified term equivalent to `t`.
pub fn simplify(store: &mut TermStore, t: TermId) -> TermId {
    Simplifier {
        memo: FxHashMap::default(),
    }
    .run(store, t)
}

/// A simplifier that keeps its cache across calls (terms are immutable, so cached results
/// stay valid for the lifetime of the store).
#[derive(Default)]
pub struct Simplifier {
    memo: FxHashMap<TermId, TermId>,
}

impl Simplifier {
    /// A fresh simplifier.
    pub fn new() -> Simplifier {
        Simplifier::default()
    }

    /// A datatype equality of simplified terms: constructor applications on both sides are
    /// decomposed (`C(a) = C(b)` is `a = b` fieldwise, different constructors `false`),
    /// iteratively, so the input's nesting depth costs no recursion.
    fn dt_eq(&mut self, store: &mut TermStore, a: TermId, b: TermId) -> TermId {
        let ctor = |store: &TermStore, t: TermId| match store.op(t) {
            Op::Dt(crate::dt::DtOp::Ctor(c)) => Some(*c),
            _ => None,
        };
        let mut conj = Vec::new();
        let mut work = vec![(a, b)];
        while let Some((x, y)) = work.pop() {
            if x == y {
                continue;
            }
            let sort = store.sort(x);
            if let Sort::Dt(_) = sort {
                match (ctor(store, x), ctor(store, y)) {
                    (Some(c), Some(d)) if c != d => return store.mk_false(),
                    (Some(_), Some(_)) => {
                        let (xs, ys) = (store.args(x).to_vec(), store.args(y).to_vec());
                        work.extend(xs.into_iter().zip(ys));
                    }
                    _ => conj.push(store.mk_eq(x, y)),
                }
            } else if sort == Sort::Bool {
                conj.push(bool_eq(store, x, y));
            } else if sort.is_arith() {
                conj.push(arith_cmp(store, Op::Eq, x, y));
            } else {
                conj.push(store.mk_eq(x, y));
            }
        }
        if conj.iter().any(|&c| store.as_bool(c) == Some(false)) {
            return store.mk_false();
        }
        store.mk_and(&conj)
    }

    /// Simplifies `t`.
    ///
    /// Depth-safe: the terms `simp` will ask for (see `Simplifier::deps`) are simplified
    /// first, in post-order with an explicit stack, so the recursive calls inside `simp` only
    /// ever hit the memo.
    pub fn run(&mut self, store: &mut TermStore, t: TermId) -> TermId {
        if let Some(&r) = self.memo.get(&t) {
            return r;
        }
        let mut stack = vec![(t, false)];
        while let Some((u, expanded)) = stack.pop() {
            if self.memo.contains_key(&u) {
                continue;
            }
            if expanded {
                let r = self.simp(store, u);
                self.memo.insert(u, r);
                self.memo.insert(r, r);
            } else {
                stack.push((u, true));
                for d in self.deps(store, u) {
                    if !self.memo.contains_key(&d) {
                        stack.push((d, false));
                    }
                }
            }
        }
        self.memo[&t]
    }

    /// The terms `simp(t)` simplifies through `run`: the arguments of a Boolean term, the
    /// arguments of the atoms of an arithmetic term's linear form.
    fn deps(&self, store: &TermStore, t: TermId) -> Vec<TermId> {
        if store.sort(t).is_arith() {
            let lin = linearize(store, t);
            let mut out = Vec::new();
            for (a, _) in &lin.terms {
                out.extend_from_slice(store.args(*a));
            }
            out
        } else {
            store.args(t).to_vec()
        }
    }

    fn simp(&mut self, store: &mut TermStore, t: TermId) -> TermId {
        let term = store.get(t).clone();
        let sort = term.sort;
        if sort.is_arith() {
            return self.simp_arith(store, t);
        }
        match &term.op {
            Op::Bool(_) | Op::Var(_) => t,
            Op::Forall(_) | Op::Exists(_) => {
                let body = self.run(store, term.args[0]);
                store.mk_raw(term.op.clone(), &[body], Sort::Bool)
            }
            Op::App(f) => {
                let args: Vec<TermId> = term.args.iter().map(|&a| self.run(store, a)).collect();
                store.mk_app(*f, &args)
            }
            Op::Not => {
                let a = self.run(store, term.args[0]);
                negate(store, a)
            }
            Op::And | Op::Or => {
                let args: Vec<TermId> = term.args.iter().map(|&a| self.run(store, a)).collect();
                let r = if term.op == Op::And {
                    store.mk_and(&args)
                } else {
                    store.mk_or(&args)
                };
                fold_complements(store, r)
            }
            Op::Implies => {
                let a = self.run(store, term.args[0]);
                let b = self.run(store, term.args[1]);
                let na = negate(store, a);
                let r = store.mk_or(&[na, b]);
                fold_complements(store, r)
            }
            Op::Xor => {
                let a = self.run(store, term.args[0]);
                let b = self.run(store, term.args[1]);
                let e = bool_eq(store, a, b);
                negate(store, e)
            }
            Op::Eq => {
                let a = self.run(store, term.args[0]);
                let b = self.run(store, term.args[1]);
                if store.sort(a) == Sort::Bool {
                    bool_eq(store, a, b)
                } else if let Sort::Dt(_) = store.sort(a) {
                    self.dt_eq(store, a, b)
                } else if store.sort(a).is_array() || store.sort(a).is_bv() {
                    store.mk_eq(a, b)
                } else {
                    arith_cmp(store, Op::Eq, a, b)
                }
            }
            Op::Distinct => {
                let args: Vec<TermId> = term.args.iter().map(|&a| self.run(store, a)).collect();
                let mut conj = Vec::new();
                for i in 0..args.len() {
                    for j in i + 1..args.len() {
                        let e = if store.sort(args[i]) == Sort::Bool {
                            bool_eq(store, args[i], args[j])
                        } else if store.sort(args[i]).is_array()
                            || store.sort(args[i]).is_bv()
                            || matches!(store.sort(args[i]), Sort::Dt(_))
                        {
                            store.mk_eq(args[i], args[j])
                        } else {
                            arith_cmp(store, Op::Eq, args[i], args[j])
                        };
                        conj.push(negate(store, e));
                    }
                }
                store.mk_and(&conj)
            }
            Op::Ite => {
                let c = self.run(store, term.args[0]);
                let a = self.run(store, term.args[1]);
                let b = self.run(store, term.args[2]);
                match (store.as_bool(a), store.as_bool(b)) {
                    (Some(true), Some(false)) => c,
                    (Some(false), Some(true)) => negate(store, c),
                    _ => store.mk_ite(c, a, b),
                }
            }
            Op::Select | Op::Store | Op::ConstArray => {
                let args: Vec<TermId> = term.args.iter().map(|&a| self.run(store, a)).collect();
                match term.op {
                    Op::Select => store.mk_select(args[0], args[1]),
                    Op::Store => store.mk_store(args[0], args[1], args[2]),
                    _ => store.mk_const_array(sort, args[0]),
                }
            }
            Op::Le | Op::Lt | Op::Ge | Op::Gt => {
                let a = self.run(store, term.args[0]);
                let b = self.run(store, term.args[1]);
                arith_cmp(store, term.op.clone(), a, b)
            }
            Op::IsInt => {
                let a = self.run(store, term.args[0]);
                match store.as_num(a) {
                    Some(v) => {
                        let b = v.is_integer();
                        store.mk_bool(b)
                    }
                    None => store.mk_raw(Op::IsInt, &[a], Sort::Bool),
                }
            }
            Op::Bv(op) => {
                let args: Vec<TermId> = term.args.iter().map(|&a| self.run(store, a)).collect();
                store.mk_bv_sorted(op.clone(), &args, sort)
            }
            Op::Dt(op) => {
                let args: Vec<TermId> = term.args.iter().map(|&a| self.run(store, a)).collect();
                dt_fold(store, *op, &args, sort)
            }
            _ => unreachable!("arithmetic operator with Bool sort"),
        }
    }

    /// Arithmetic term: canonical linear sum over simplified atoms.
    fn simp_arith(&mut self, store: &mut TermStore, t: TermId) -> TermId {
        let sort = store.sort(t);
        let lin = linearize(store, t);
        let mut out = LinearSum::constant(lin.constant.clone());
        for (atom, c) in &lin.terms {
            let new_atom = self.simp_atom(store, *atom);
            let sub = if new_atom == *atom {
                LinearSum::atom(*atom)
            } else {
                linearize(store, new_atom)
            };
            out.add_scaled(&sub, c);
        }
        mk_linear(store, &out, sort)
    }

    /// An arithmetic atom (not linear structure): simplify below it and fold constants.
    fn simp_atom(&mut self, store: &mut TermStore, t: TermId) -> TermId {
        let term = store.get(t).clone();
        if term.args.is_empty() {
            return t;
        }
        let args: Vec<TermId> = term.args.iter().map(|&a| self.run(store, a)).collect();
        let nums: Option<Vec<Rational>> = args.iter().map(|&a| store.as_num(a).cloned()).collect();
        match (&term.op, nums) {
            (Op::Ite, _) => store.mk_ite(args[0], args[1], args[2]),
            (Op::Select, _) => store.mk_select(args[0], args[1]),
            (Op::Bv(op), _) => store.mk_bv_sorted(op.clone(), &args, term.sort),
            (Op::Dt(op), _) => dt_fold(store, *op, &args, term.sort),
            (Op::IntDiv, Some(n)) if !n[1].is_zero() => {
                store.mk_num(n[0].int_div(&n[1]), Sort::Int)
            }
            (Op::Mod, Some(n)) if !n[1].is_zero() => store.mk_num(n[0].int_mod(&n[1]), Sort::Int),
            (Op::Div, Some(n)) if !n[1].is_zero() => store.mk_num(&n[0] / &n[1], Sort::Real),
            (Op::Abs, Some(n)) => store.mk_num(n[0].abs(), term.sort),
            (Op::ToInt, Some(n)) => store.mk_num(n[0].floor(), Sort::Int),
            (Op::Mul, Some(n)) => {
                let p = n.iter().fold(Rational::ONE, |acc, x| acc * x);
                store.mk_num(p, term.sort)
            }
            _ if args[..] == term.args[..] => t,
            _ => store.mk_raw(term.op.clone(), &args, term.sort),
        }
    }
}

/// A datatype operator over simplified arguments, with testers and selectors of
/// constructor applications folded.
fn dt_fold(store: &mut TermStore, op: crate::dt::DtOp, args: &[TermId], sort: Sort) -> TermId {
    use crate::dt::DtOp;
    let inner = args.first().and_then(|&a| match store.op(a) {
        Op::Dt(DtOp::Ctor(c)) => Some(*c),
        _ => None,
    });
    match (op, inner) {
        (DtOp::Test { ctor, .. }, Some(c)) => store.mk_bool(c == ctor),
        (DtOp::Sel { ctor, field, .. }, Some(c)) if c == ctor => {
            store.args(args[0])[field as usize]
        }
        _ => store.mk_raw(Op::Dt(op), args, sort),
    }
}

/// `(= a b)` for Booleans with constant folding.
fn bool_eq(store: &mut TermStore, a: TermId, b: TermId) -> TermId {
    match (store.as_bool(a), store.as_bool(b)) {
        (Some(x), _) => {
            if x {
                b
            } else {
                store.mk_not(b)
            }
        }
        (_, Some(y)) => {
            if y {
                a
            } else {
                store.mk_not(a)
            }
        }
        _ => store.mk_eq(a, b),
    }
}

/// Replaces a conjunction containing `x` and `not x` by false (dually for disjunctions).
fn fold_complements(store: &mut TermStore, t: TermId) -> TermId {
    let is_and = match store.op(t) {
        Op::And => true,
        Op::Or => false,
        _ => return t,
    };
    let args = store.args(t);
    let set: rustc_hash::FxHashSet<TermId> = args.iter().copied().collect();
    let clash = args
        .iter()
        .any(|&a| matches!(store.op(a), Op::Not) && set.contains(&store.args(a)[0]));
    if clash { store.mk_bool(!is_and) } else { t }
}

/// Negation that pushes into canonical comparisons, so `not` appears only above atoms that
/// cannot absorb it (equalities, Boolean variables, applications).
pub fn negate(store: &mut TermStore, t: TermId) -> TermId {
    let term = store.get(t).clone();
    match term.op {
        Op::Le | Op::Lt if store.as_num(term.args[1]).is_some() => {
            // not (s <= k)  ==  -s < -k ;  not (s < k)  ==  -s <= -k
            let s = linearize(store, term.args[0]);
            let k = store.as_num(term.args[1]).unwrap().clone();
            let mut lin = s;
            lin.scale(&Rational::MINUS_ONE);
            lin.constant = k;
            // lin now reads  -s + k ; compare it with 0 using the flipped strictness.
            let op = if term.op == Op::Le { Op::Lt } else { Op::Le };
            let sort = store.sort(term.args[0]);
            canonical_cmp(store, op, lin, sort)
        }
        _ => store.mk_not(t),
    }
}

/// `a op b` for arithmetic `a`, `b` (already simplified) in canonical form.
fn arith_cmp(store: &mut TermStore, op: Op, a: TermId, b: TermId) -> TermId {
    let sort = if store.sort(a) == Sort::Real || store.sort(b) == Sort::Real {
        Sort::Real
    } else {
        Sort::Int
    };
    let (op, d) = difference_cmp(store, op, a, b);
    canonical_cmp(store, op, d, sort)
}

/// `a op b` (op in `Le Lt Ge Gt Eq`) as `d op' 0` with `d = ±(a - b)` and op' in
/// `Le Lt Eq`: `>=`, `>` become `<=`, `<` by negating `d`.
pub fn difference_cmp(store: &TermStore, op: Op, a: TermId, b: TermId) -> (Op, LinearSum) {
    let mut d = linearize(store, a);
    d.add_scaled(&linearize(store, b), &Rational::MINUS_ONE);
    let op = match op {
        Op::Ge => {
            d.scale(&Rational::MINUS_ONE);
            Op::Le
        }
        Op::Gt => {
            d.scale(&Rational::MINUS_ONE);
            Op::Lt
        }
        o => o,
    };
    (op, d)
}

/// Builds `d op 0` (op in Le, Lt, Eq) canonically as `s op' k`: integer forms get
/// coprime integer coefficients and a rounded bound, others a leading coefficient ±1;
/// a constant `d` gives `true`/`false`.
pub fn canonical_cmp(store: &mut TermStore, op: Op, mut d: LinearSum, sort: Sort) -> TermId {
    if d.is_constant() {
        let c = &d.constant;
        let v = match op {
            Op::Le => !c.is_positive(),
            Op::Lt => c.is_negative(),
            _ => c.is_zero(),
        };
        return store.mk_bool(v);
    }
    let integral = sort == Sort::Int && d.terms.iter().all(|(a, _)| store.sort(*a) == Sort::Int);
    // Move the constant to the right: s op k with k = -constant.
    let mut k = -std::mem::take(&mut d.constant);
    let mut op = op;
    if integral {
        // Scale to integer coefficients with gcd 1.
        let mut den = Rational::ONE;
        for (_, c) in &d.terms {
            den = den.lcm(&Rational::from_bigint(c.denom()));
        }
        d.scale(&den);
        k *= &den;
        let mut g = Rational::ZERO;
        for (_, c) in &d.terms {
            g = g.gcd(c);
        }
        if op == Op::Eq && d.terms[0].1.is_negative() {
            g = -g;
        }
        d.scale(&g.recip());
        k = &k / &g;
        match op {
            Op::Eq => {
                if !k.is_integer() {
                    return store.mk_false();
                }
            }
            Op::Lt => {
                // s < k  ==  s <= ceil(k) - 1
                k = k.ceil() - Rational::ONE;
                op = Op::Le;
            }
            _ => k = k.floor(),
        }
    } else {
        let lead = d.terms[0].1.abs();
        let lead = if op == Op::Eq && d.terms[0].1.is_negative() {
            -lead
        } else {
            lead
        };
        d.scale(&lead.recip());
        k = &k / &lead;
    }
    let s = mk_linear(store, &d, sort);
    let kt = store.mk_num(k, sort);
    store.mk_raw(op, &[s, kt], Sort::Bool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Model, Value};

    fn int_vars(s: &mut TermStore, names: &[&str]) -> Vec<TermId> {
        names
            .iter()
            .map(|n| {
                let v = s.var(n, Sort::Int);
                s.mk_var(v)
            })
            .collect()
    }

    #[test]
    fn equivalent_comparisons_become_identical() {
        let mut s = TermStore::new();
        let v = int_vars(&mut s, &["x", "y"]);
        let (x, y) = (v[0], v[1]);
        let two = s.mk_int(2);
        let four = s.mk_int(4);
        let five = s.mk_int(5);
        // 2x + 2y < 5   ==   x + y <= 2   ==  not (x + y >= 3)
        let tx = s.mk_mul(&[two, x]);
        let ty = s.mk_mul(&[two, y]);
        let sum2 = s.mk_add(&[tx, ty]);
        let a = s.mk_lt(sum2, five);
        let sum = s.mk_add(&[x, y]);
        let b = s.mk_le(sum, two);
        let three = s.mk_int(3);
        let c0 = s.mk_ge(sum, three);
        let c = s.mk_not(c0);
        let (a, b, c) = (
            simplify(&mut s, a),
            simplify(&mut s, b),
            simplify(&mut s, c),
        );
        assert_eq!(a, b);
        assert_eq!(b, c);
        // 2x = 5 has no integer solution.
        let e = s.mk_eq(tx, five);
        assert_eq!(simplify(&mut s, e), s.mk_false());
        let e2 = s.mk_eq(tx, four);
        let x2 = s.mk_eq(x, two);
        assert_eq!(simplify(&mut s, e2), simplify(&mut s, x2));
    }

    #[test]
    fn simplification_preserves_values() {
        // Exhaustive check on a small box for a handful of shapes.
        let mut s = TermStore::new();
        let v = int_vars(&mut s, &["x", "y"]);
        let (x, y) = (v[0], v[1]);
        let three = s.mk_int(3);
        let m3 = s.mk_int(-3);
        let x3 = s.mk_mul(&[three, x]);
        let d = s.mk_sub(x3, y);
        let terms = vec![
            s.mk_lt(d, m3),
            s.mk_ge(d, three),
            s.mk_gt(y, x3),
            s.mk_eq(d, three),
            s.mk(Op::Distinct, &[x, y, three]).unwrap(),
            s.mk(Op::Mod, &[x3, three]).map(|m| s.mk_eq(m, y)).unwrap(),
        ];
        for t in terms {
            let st = simplify(&mut s, t);
            for xv in -5..=5 {
                for yv in -5..=5 {
                    let mut m = Model::new();
                    m.set(s.as_var(x).unwrap(), Value::Num(Rational::int(xv)));
                    m.set(s.as_var(y).unwrap(), Value::Num(Rational::int(yv)));
                    assert_eq!(m.eval(&s, t), m.eval(&s, st), "x={xv} y={yv}");
                }
            }
        }
    }
}
