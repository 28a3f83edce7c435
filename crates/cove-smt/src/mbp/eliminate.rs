//! Projection of a model-satisfied cube: LRA (Loos–Weispfenning) and LIA (Cooper) variable
//! elimination on linear constraints.
//!
//! # Invariant
//! The model (extended with the values of fresh variables) satisfies every constraint in
//! `cons` at every step, and `∃(eliminated)·cons` is implied by the current `cons`: each step
//! replaces the constraints on `x` by constraints that the model satisfies and that imply
//! `∃x` of them (an exact substitution or a virtual one). Debug builds re-check the first
//! half on every new constraint.

use super::MbpError;
use super::constraint::{Constraint, Norm, Rel};
use super::valuation::Valuation;
use cove_logic::{
    LinearSum, Model, Op, Rational, Sort, TermId, TermStore, VarId, free_vars, linearize, mk_linear,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// Projects `vars` (arithmetic) out of the conjunction of `lits` (an implicant in `model`).
pub(super) fn project_cube(
    store: &mut TermStore,
    model: &Model,
    lits: &[TermId],
    vars: &[VarId],
) -> Result<TermId, MbpError> {
    let mut p = Projection {
        val: Valuation::new(model),
        cons: Vec::new(),
        other: Vec::new(),
        elim: vars.to_vec(),
        pending: Vec::new(),
        purified: FxHashMap::default(),
    };
    for &lit in lits {
        p.add_literal(store, lit)?;
    }
    let blocked = p.blocked(store);
    let mut todo: Vec<VarId> = p
        .elim
        .iter()
        .copied()
        .filter(|v| !blocked.contains(v))
        .collect();
    while !todo.is_empty() {
        let i = p.pick(store, &todo);
        let x = todo.remove(i);
        p.pending.clone_from(&todo);
        if store.var_sort(x) == Sort::Real {
            p.eliminate_real(store, x)?;
        } else {
            p.eliminate_int(store, x)?;
        }
    }
    let mut out = p.other.clone();
    for c in &p.cons {
        out.push(c.to_term(store));
    }
    Ok(store.mk_and(&out))
}

struct Projection<'m> {
    val: Valuation<'m>,
    cons: Vec<Constraint>,
    /// Literals that are not linear constraints (Boolean variables, applications, ...).
    other: Vec<TermId>,
    /// Variables to eliminate, including fresh quotient/remainder variables.
    elim: Vec<VarId>,
    /// Variables still to be eliminated (not yet done, not kept).
    pending: Vec<VarId>,
    /// `(dividend, divisor)` to the fresh (quotient, remainder) pair.
    purified: FxHashMap<(TermId, TermId), (VarId, VarId)>,
}

/// A bound `sign·y + rest ⋈ 0` on `y = L·x` (LIA) or a bound of `x` (LRA) read off a constraint.
struct Bound {
    /// The bound's value term: `x ⋈ e` (LRA) or `ℓ ≤ y` / `y ≤ u` (LIA).
    e: LinearSum,
    value: Rational,
    strict: bool,
    index: usize,
}

impl Projection<'_> {
    fn add_literal(&mut self, store: &mut TermStore, lit: TermId) -> Result<(), MbpError> {
        let args = store.args(lit).to_vec();
        let rel = match store.op(lit) {
            Op::Le | Op::Ge => Rel::Le,
            Op::Lt | Op::Gt => Rel::Lt,
            Op::Eq if store.sort(args[0]).is_arith() => Rel::Eq,
            _ => {
                self.other.push(lit);
                return Ok(());
            }
        };
        // a ⋈ b as (a − b) ⋈ 0, or (b − a) ⋈ 0 for ≥ and >.
        let (a, b) = if matches!(store.op(lit), Op::Ge | Op::Gt) {
            (args[1], args[0])
        } else {
            (args[0], args[1])
        };
        let mut sum = self.linear(store, a)?;
        let sb = self.linear(store, b)?;
        sum.add_scaled(&sb, &Rational::MINUS_ONE);
        self.add(store, sum, rel)
    }

    /// Adds `sum ⋈ 0` in normal form.
    fn add(&mut self, store: &TermStore, sum: LinearSum, rel: Rel) -> Result<(), MbpError> {
        match Constraint::new(store, sum, rel).normalize() {
            Norm::True => Ok(()),
            Norm::False => Err(MbpError::NotAModel),
            Norm::Keep(c) => {
                debug_assert!(
                    self.holds(store, &c),
                    "MBP step produced a constraint the model violates: {c:?}"
                );
                if !self.cons.contains(&c) {
                    self.cons.push(c);
                }
                Ok(())
            }
        }
    }

    fn holds(&mut self, store: &TermStore, c: &Constraint) -> bool {
        let Ok(v) = self.val.sum(store, &c.sum) else {
            return false;
        };
        match &c.rel {
            Rel::Le => !v.is_positive(),
            Rel::Lt => v.is_negative(),
            Rel::Eq => v.is_zero(),
            Rel::Div(d) => (&v / d).is_integer(),
        }
    }

    /// The linear sum of `t` with `div`/`mod` by numerals over eliminated variables replaced
    /// by fresh variables.
    fn linear(&mut self, store: &mut TermStore, t: TermId) -> Result<LinearSum, MbpError> {
        let lin = linearize(store, t);
        let mut out = LinearSum::constant(lin.constant.clone());
        for (atom, c) in &lin.terms {
            let atom = self.purify(store, *atom)?;
            out.add_scaled(&LinearSum::atom(atom), c);
        }
        Ok(out)
    }

    fn purify(&mut self, store: &mut TermStore, atom: TermId) -> Result<TermId, MbpError> {
        let is_mod = match store.op(atom) {
            Op::Mod => true,
            Op::IntDiv => false,
            _ => return Ok(atom),
        };
        let (arg, kt) = (store.args(atom)[0], store.args(atom)[1]);
        let Some(k) = store.as_num(kt).filter(|k| !k.is_zero()).cloned() else {
            return Ok(atom);
        };
        if !free_vars(store, arg).iter().any(|v| self.elim.contains(v)) {
            return Ok(atom);
        }
        let (q, r) = match self.purified.get(&(arg, kt)) {
            Some(&qr) => qr,
            None => {
                // arg = k·q + r ∧ 0 ≤ r ≤ |k| − 1, with q, r valued from the model.
                let lin = linearize(store, arg);
                let m = self.val.sum(store, &lin)?;
                let q = store.fresh_var("mbp_q", Sort::Int);
                let r = store.fresh_var("mbp_r", Sort::Int);
                self.val.set(q, m.int_div(&k));
                self.val.set(r, m.int_mod(&k));
                self.purified.insert((arg, kt), (q, r));
                self.elim.extend([q, r]);
                let (qt, rt) = (store.mk_var(q), store.mk_var(r));
                let mut def = self.linear(store, arg)?;
                def.add_scaled(&LinearSum::atom(qt), &-&k);
                def.add_scaled(&LinearSum::atom(rt), &Rational::MINUS_ONE);
                self.add(store, def, Rel::Eq)?;
                let mut lo = LinearSum::atom(rt);
                lo.scale(&Rational::MINUS_ONE);
                self.add(store, lo, Rel::Le)?;
                let mut hi = LinearSum::atom(rt);
                hi.constant = Rational::ONE - k.abs();
                self.add(store, hi, Rel::Le)?;
                (q, r)
            }
        };
        Ok(store.mk_var(if is_mod { r } else { q }))
    }

    /// Eliminated variables that occur somewhere other than as a bare atom of a linear
    /// constraint: under applications, nonlinear terms, `div`/`mod` by non-numerals, ...
    fn blocked(&self, store: &TermStore) -> FxHashSet<VarId> {
        let mut out = FxHashSet::default();
        let mut atoms = FxHashSet::default();
        for c in &self.cons {
            atoms.extend(
                c.sum
                    .terms
                    .iter()
                    .map(|(a, _)| *a)
                    .filter(|&a| store.as_var(a).is_none()),
            );
        }
        atoms.extend(self.other.iter().copied());
        for a in atoms {
            out.extend(
                free_vars(store, a)
                    .into_iter()
                    .filter(|v| self.elim.contains(v)),
            );
        }
        out
    }

    /// The next variable: one with a unit-coefficient equality, else one with any
    /// equality, else the first.
    fn pick(&self, store: &mut TermStore, todo: &[VarId]) -> usize {
        let mut best = (0, 0);
        for (i, &x) in todo.iter().enumerate() {
            let xt = store.mk_var(x);
            let real = store.var_sort(x) == Sort::Real;
            let score = self
                .cons
                .iter()
                .filter(|c| c.rel == Rel::Eq)
                .map(|c| c.coeff(xt))
                .filter(|a| !a.is_zero())
                .map(|a| if real || a.abs().is_one() { 2 } else { 1 })
                .max()
                .unwrap_or(0);
            if score > best.1 {
                best = (i, score);
            }
        }
        best.0
    }

    /// Whether the atom `t` contains a variable still to be eliminated.
    fn mentions_pending(&self, store: &TermStore, t: TermId) -> bool {
        match store.op(t) {
            Op::Var(v) => self.pending.contains(v),
            _ => free_vars(store, t).iter().any(|v| self.pending.contains(v)),
        }
    }

    /// Removes the constraints on `xt`, returning them.
    fn take(&mut self, xt: TermId) -> Vec<Constraint> {
        let (with, without): (Vec<_>, Vec<_>) = std::mem::take(&mut self.cons)
            .into_iter()
            .partition(|c| !c.coeff(xt).is_zero());
        self.cons = without;
        with
    }

    /// `c[x := e]`.
    fn substituted(c: &Constraint, xt: TermId, e: &LinearSum) -> (LinearSum, Rel) {
        let mut s = c.without(xt);
        s.add_scaled(e, &c.coeff(xt));
        (s, c.rel.clone())
    }

    /// Loos–Weispfenning for a `Real` variable.
    fn eliminate_real(&mut self, store: &mut TermStore, x: VarId) -> Result<(), MbpError> {
        let xt = store.mk_var(x);
        let with = self.take(xt);
        if let Some(i) = with.iter().position(|c| c.rel == Rel::Eq) {
            // c·x + t = 0: x := −t/c.
            let mut e = with[i].without(xt);
            e.scale(&(-with[i].coeff(xt)).recip());
            for (j, c) in with.iter().enumerate() {
                if j != i {
                    let (s, rel) = Self::substituted(c, xt, &e);
                    self.add(store, s, rel)?;
                }
            }
            return Ok(());
        }
        let (mut lowers, mut uppers) = (Vec::new(), Vec::new());
        for (index, c) in with.iter().enumerate() {
            // c·x + t ⋈ 0 bounds x by e = −t/c, from below when c < 0.
            let a = c.coeff(xt);
            let mut e = c.without(xt);
            e.scale(&(-&a).recip());
            let value = self.val.sum(store, &e)?;
            let b = Bound {
                e,
                value,
                strict: c.rel == Rel::Lt,
                index,
            };
            if a.is_negative() {
                lowers.push(b)
            } else {
                uppers.push(b)
            }
        }
        if lowers.is_empty() || uppers.is_empty() {
            return Ok(()); // x → ∓∞ satisfies every bound.
        }
        // The greatest lower bound in the model; on ties the strict one (it implies the rest).
        let best = (0..lowers.len())
            .max_by(|&i, &j| {
                (&lowers[i].value, lowers[i].strict)
                    .cmp(&(&lowers[j].value, lowers[j].strict))
                    .then(j.cmp(&i))
            })
            .unwrap_or(0);
        let l0 = &lowers[best];
        if !l0.strict {
            // x := ℓ0 exactly.
            for (j, c) in with.iter().enumerate() {
                if j != l0.index {
                    let (s, rel) = Self::substituted(c, xt, &l0.e);
                    self.add(store, s, rel)?;
                }
            }
            return Ok(());
        }
        // x := ℓ0 + ε: other lower bounds ℓ ≤ ℓ0, upper bounds ℓ0 < u.
        let e0 = l0.e.clone();
        for (i, l) in lowers.iter().enumerate() {
            if i != best {
                let mut s = l.e.clone();
                s.add_scaled(&e0, &Rational::MINUS_ONE);
                self.add(store, s, Rel::Le)?;
            }
        }
        for u in &uppers {
            let mut s = e0.clone();
            s.add_scaled(&u.e, &Rational::MINUS_ONE);
            self.add(store, s, Rel::Lt)?;
        }
        Ok(())
    }

    /// Cooper-style projection of an `Int` variable.
    fn eliminate_int(&mut self, store: &mut TermStore, x: VarId) -> Result<(), MbpError> {
        let xt = store.mk_var(x);
        if self.cons.iter().any(|c| !c.int && !c.coeff(xt).is_zero()) {
            return Ok(()); // mixed Int/Real constraint: x is kept.
        }
        let with = self.take(xt);
        let eq = (0..with.len())
            .filter(|&i| with[i].rel == Rel::Eq)
            .min_by_key(|&i| with[i].coeff(xt).abs());
        if let Some(i) = eq {
            return self.eliminate_int_eq(store, xt, &with, i);
        }
        // x ≡ M(x) (mod D) keeps every divisibility constraint true.
        let mut d = Rational::ONE;
        for c in &with {
            if let Rel::Div(m) = &c.rel {
                d = d.lcm(m);
            }
        }
        let mx = self.val.atom(store, xt)?;
        let mut lowers = Vec::new();
        let mut has_upper = false;
        for (index, c) in with.iter().enumerate() {
            let a = c.coeff(xt);
            if c.rel != Rel::Le {
                continue;
            }
            if a.is_positive() {
                has_upper = true;
            } else {
                // −|a|·x + t ≤ 0: x ≥ ⌈t / |a|⌉.
                let e = c.without(xt);
                let value = (&self.val.sum(store, &e)? / &a.abs()).ceil();
                lowers.push((
                    Bound {
                        e,
                        value,
                        strict: false,
                        index,
                    },
                    a.abs(),
                ));
            }
        }
        if lowers.is_empty() || !has_upper {
            // x → ∓∞ along its residue class: only the divisibility constraints remain.
            let e = LinearSum::constant(mx.int_mod(&d));
            for c in with.iter().filter(|c| matches!(c.rel, Rel::Div(_))) {
                let (s, rel) = Self::substituted(c, xt, &e);
                self.add(store, s, rel)?;
            }
            return Ok(());
        }
        // The greatest lower bound ⌈t/|a|⌉ in the model, moved up to x's residue class:
        // x := ⌈t/|a|⌉ + ((M(x) − M(⌈t/|a|⌉)) mod D), with ⌈t/|a|⌉ = (t + |a| − 1) div |a|.
        let best = (0..lowers.len())
            .max_by(|&i, &j| lowers[i].0.value.cmp(&lowers[j].0.value).then(j.cmp(&i)))
            .unwrap_or(0);
        let (lb, a) = &lowers[best];
        if !a.is_one()
            && lb
                .e
                .terms
                .iter()
                .any(|(t, _)| self.mentions_pending(store, *t))
        {
            return self.eliminate_int_scaled(store, xt, &with);
        }
        let k = (&mx - &lb.value).int_mod(&d);
        let mut e = if a.is_one() {
            lb.e.clone()
        } else {
            let mut arg = lb.e.clone();
            arg.constant += &(a - &Rational::ONE);
            let arg = mk_linear(store, &arg, Sort::Int);
            let at = store.mk_num(a.clone(), Sort::Int);
            let ceil = store.mk_raw(Op::IntDiv, &[arg, at], Sort::Int);
            self.val.define(ceil, lb.value.clone());
            LinearSum::atom(ceil)
        };
        e.constant += &k;
        let skip = lb.index;
        for (j, c) in with.iter().enumerate() {
            if j != skip {
                let (s, rel) = Self::substituted(c, xt, &e);
                self.add(store, s, rel)?;
            }
        }
        Ok(())
    }

    /// Cooper with the coefficients of `x` scaled to their lcm `L`: `y = L·x` gets the
    /// greatest lower bound `ℓ` plus the residue `(M(y) − M(ℓ)) mod D`, and `L | ℓ + residue`.
    /// Used when the ceiling form would put a variable still to be eliminated under `div`.
    fn eliminate_int_scaled(
        &mut self,
        store: &mut TermStore,
        xt: TermId,
        with: &[Constraint],
    ) -> Result<(), MbpError> {
        // Scale every coefficient of x to ±L and read y = L·x.
        let mut l = Rational::ONE;
        for c in with {
            l = l.lcm(&c.coeff(xt));
        }
        let mut scaled = Vec::with_capacity(with.len());
        let mut d = l.clone();
        for c in with {
            let a = c.coeff(xt);
            let f = &l / &a.abs();
            let mut t = c.without(xt);
            t.scale(&f);
            let rel = match &c.rel {
                Rel::Div(m) => {
                    let m = m * &f;
                    d = d.lcm(&m);
                    Rel::Div(m)
                }
                r => r.clone(),
            };
            scaled.push((a.is_positive(), t, rel));
        }
        let my = &l * &self.val.atom(store, xt)?;
        let mut lowers = Vec::new();
        let has_upper = scaled.iter().any(|(pos, _, rel)| *pos && *rel == Rel::Le);
        for (index, (pos, t, rel)) in scaled.iter().enumerate() {
            if !*pos && *rel == Rel::Le {
                // −y + t ≤ 0: t ≤ y.
                let value = self.val.sum(store, t)?;
                lowers.push(Bound {
                    e: t.clone(),
                    value,
                    strict: false,
                    index,
                });
            }
        }
        // y := e, where e is the residue of y (one-sided case) or ℓ0 + residue.
        let (e, skip) = if lowers.is_empty() || !has_upper {
            (LinearSum::constant(my.int_mod(&d)), None)
        } else {
            let best = (0..lowers.len())
                .max_by(|&i, &j| lowers[i].value.cmp(&lowers[j].value).then(j.cmp(&i)))
                .unwrap_or(0);
            let mut e = lowers[best].e.clone();
            e.constant += &(&my - &lowers[best].value).int_mod(&d);
            if !l.is_one() {
                self.add(store, e.clone(), Rel::Div(l.clone()))?;
            }
            (e, Some(lowers[best].index))
        };
        let one_sided = skip.is_none();
        for (index, (pos, t, rel)) in scaled.into_iter().enumerate() {
            if Some(index) == skip || (one_sided && !matches!(rel, Rel::Div(_))) {
                continue;
            }
            let mut s = t;
            s.add_scaled(
                &e,
                if pos {
                    &Rational::ONE
                } else {
                    &Rational::MINUS_ONE
                },
            );
            self.add(store, s, rel)?;
        }
        Ok(())
    }

    /// `c·x + t = 0` with minimal `|c|`: `|c| | t`, and `c·x = −t` in the others scaled by `|c|`.
    fn eliminate_int_eq(
        &mut self,
        store: &TermStore,
        xt: TermId,
        with: &[Constraint],
        i: usize,
    ) -> Result<(), MbpError> {
        let c = with[i].coeff(xt);
        let t = with[i].without(xt);
        let abs_c = c.abs();
        if !abs_c.is_one() {
            self.add(store, t.clone(), Rel::Div(abs_c.clone()))?;
        }
        let sign_c = if c.is_negative() {
            Rational::MINUS_ONE
        } else {
            Rational::ONE
        };
        for (j, other) in with.iter().enumerate() {
            if j == i {
                continue;
            }
            // |c|·(a·x + s) = a·sign(c)·(c·x) + |c|·s = −a·sign(c)·t + |c|·s.
            let a = other.coeff(xt);
            let mut s = other.without(xt);
            s.scale(&abs_c);
            s.add_scaled(&t, &-(&a * &sign_c));
            let rel = match &other.rel {
                Rel::Div(m) => Rel::Div(m * &abs_c),
                r => r.clone(),
            };
            self.add(store, s, rel)?;
        }
        Ok(())
    }
}
