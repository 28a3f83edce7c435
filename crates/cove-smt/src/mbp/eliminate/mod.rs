//! Projection of a model-satisfied cube: LRA (Loos–Weispfenning) and LIA (Cooper) variable
//! elimination on linear constraints.
//!
//! # Invariant
//! The model (extended with the values of fresh variables) satisfies every constraint in
//! `cons` at every step, and `∃(eliminated)·cons` is implied by the current `cons`: each step
//! replaces the constraints on `x` by constraints that the model satisfies and that imply
//! `∃x` of them (an exact substitution or a virtual one). Debug builds re-check the first
//! half on every new constraint.

mod int;
mod real;

use super::MbpError;
use super::constraint::{Constraint, Norm, Rel};
use super::valuation::Valuation;
use cove_logic::{
    LinearSum, Model, Op, Rational, Sort, TermId, TermStore, VarId, free_vars, linearize,
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
    fn pick(&self, store: &TermStore, todo: &[VarId]) -> usize {
        // One pass over the equalities (not one per candidate): many variables and many
        // constraints are common in CHC rules with long argument lists.
        let mut eq_coeff: FxHashMap<VarId, u8> = FxHashMap::default();
        for c in self.cons.iter().filter(|c| c.rel == Rel::Eq) {
            for (a, k) in &c.sum.terms {
                let Some(v) = store.as_var(*a) else { continue };
                let unit = if k.abs().is_one() { 2 } else { 1 };
                let e = eq_coeff.entry(v).or_insert(0);
                *e = (*e).max(unit);
            }
        }
        let mut best = (0, 0);
        for (i, &x) in todo.iter().enumerate() {
            let score = match eq_coeff.get(&x) {
                Some(_) if store.var_sort(x) == Sort::Real => 2,
                Some(&s) => s,
                None => 0,
            };
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
}
