//! Datatype variables in model-based projection, by their constructor path in the model
//! (the approach of z3's `mbp_datatypes`).
//!
//! The input is an implicant (a cube the model satisfies). Datatype variables are eliminated
//! one at a time, each step keeping the invariant of `eliminate/` — the (extended) model
//! satisfies the cube, and the cube implies `∃(eliminated)` of the previous cube:
//! 1. a **definition** `x = t` (`x` not in `t`) substitutes `t` for `x` (exact);
//! 2. a variable of an infinite datatype that only occurs in disequalities `x ≠ tᵢ` (`x` not in
//!    `tᵢ`) is dropped with them: infinitely many values, finitely many excluded (exact);
//! 3. otherwise `x` is **expanded** by its constructor in the model, `x := C(y₁, …, yₙ)` with
//!    fresh field variables valued from the model (exact for `∃x` on the cube restricted to
//!    `x`'s constructor, which the model is in). Testers of `x` fold to `true`/`false`,
//!    selectors of `x` to the fields, equalities of constructor terms split fieldwise, and
//!    the resulting formula is reduced to its implicant again. Datatype fields are queued
//!    for elimination; arithmetic and bit-vector fields are returned for the arithmetic and
//!    word-level projections; Boolean fields get their model values.
//!
//! Every expansion goes down one constructor of a finite model value, so the process ends;
//! a budget bounds it anyway ([`MbpError::GaveUp`] beyond it).
//!
//! Before and after every step, equalities `t = C(a₁, …, aₙ)` of a non-constructor `t` are
//! split into the tester `(_ is C) t` and the field equalities `selᵢ(t) = aᵢ`, and
//! disequalities into the one literal that the model makes true (a different constructor or a different field): the
//! result is a cube of testers, selector chains, datatype (dis)equalities and arithmetic,
//! whose literals lemma generalisation can drop one at a time, and in which the arithmetic
//! fields of kept datatype terms are ordinary atoms (`head(l) = y` lets `y` be eliminated).

use super::{MbpError, implicant};
use cove_logic::dt::{self as ldt};
use cove_logic::{
    Model, Op, Sort, TermId, TermStore, Value, VarId, free_vars, simplify, substitute,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// At most this many expansions per projection.
const EXPANSIONS: usize = 400;

/// The outcome of the datatype step.
pub(super) struct DtProjected {
    /// The cube, free of the eliminated datatype variables.
    pub lits: Vec<TermId>,
    /// The model extended with the values of the fresh field variables.
    pub model: Model,
    /// Fresh non-datatype field variables still to eliminate (arithmetic, bit-vector).
    pub fresh: Vec<VarId>,
}

/// Whether `t` (a literal) mentions a datatype-sorted term or operator.
pub(super) fn mentions_dt(store: &TermStore, lits: &[TermId]) -> bool {
    let mut stack: Vec<TermId> = lits.to_vec();
    let mut seen = FxHashSet::default();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        if matches!(store.sort(t), Sort::Dt(_)) || matches!(store.op(t), Op::Dt(_)) {
            return true;
        }
        stack.extend_from_slice(store.args(t));
    }
    false
}

/// Eliminates the datatype variables `vars` from the cube `lits` (true in `model`).
pub(super) fn project(
    store: &mut TermStore,
    model: &Model,
    lits: Vec<TermId>,
    vars: &[VarId],
) -> Result<DtProjected, MbpError> {
    let mut m = model.clone();
    // Split first: `l = cons(x, nil)` with `l` kept becomes `head(l) = x ∧ …`, a definition
    // of `x` (instead of an expansion of `x` by its value).
    let mut lits = split_equalities(store, &m, &lits)?;
    let mut todo: Vec<VarId> = vars.to_vec();
    let mut fresh = Vec::new();
    let mut budget = EXPANSIONS;
    loop {
        let present: FxHashSet<VarId> = lits.iter().flat_map(|&l| free_vars(store, l)).collect();
        todo.retain(|v| present.contains(v));
        if todo.is_empty() {
            break;
        }
        if let Some((i, x, t)) = find_definition(store, &lits, &todo) {
            lits.remove(i);
            let mut map = FxHashMap::default();
            map.insert(x, t);
            lits = renormalize(store, &m, &lits, &map)?;
            continue;
        }
        if let Some(x) = todo
            .iter()
            .copied()
            .find(|&x| infinite(store.var_sort(x)) && only_diseqs(store, &lits, x))
        {
            lits.retain(|&l| !free_vars(store, l).contains(&x));
            continue;
        }
        if budget == 0 {
            return Err(MbpError::GaveUp("too many datatype expansions"));
        }
        budget -= 1;
        let x = todo.remove(0);
        let sort = store.var_sort(x);
        let xt = store.mk_var(x);
        let Value::Dt(d) = m.eval(store, xt)? else {
            return Err(MbpError::NotAModel);
        };
        let def = ldt::def(sort).ok_or(MbpError::GaveUp("undefined datatype"))?;
        let ctor = def.ctors.get(d.ctor as usize).ok_or(MbpError::NotAModel)?;
        let mut args = Vec::with_capacity(ctor.fields.len());
        for ((_, fs), fv) in ctor.fields.iter().zip(d.fields.iter()) {
            match *fs {
                Sort::Bool => args.push(store.mk_bool(fv.as_bool().unwrap_or(false))),
                s if s.is_array() => {
                    return Err(MbpError::GaveUp("array field of a datatype"));
                }
                s => {
                    let y = store.fresh_var("mbp_dt", s);
                    m.set(y, fv.clone());
                    args.push(store.mk_var(y));
                    if matches!(s, Sort::Dt(_)) {
                        todo.push(y);
                    } else {
                        fresh.push(y);
                    }
                }
            }
        }
        let c = store
            .mk_ctor(sort, d.ctor, &args)
            .map_err(|_| MbpError::GaveUp("ill-sorted constructor"))?;
        let mut map = FxHashMap::default();
        map.insert(x, c);
        lits = renormalize(store, &m, &lits, &map)?;
    }
    Ok(DtProjected {
        lits,
        model: m,
        fresh,
    })
}

/// `lits` with `map` substituted, simplified (constructor terms folded) and reduced to the
/// implicant in `m` again.
fn renormalize(
    store: &mut TermStore,
    m: &Model,
    lits: &[TermId],
    map: &FxHashMap<VarId, TermId>,
) -> Result<Vec<TermId>, MbpError> {
    let f = store.mk_and(lits);
    let f = substitute(store, f, map);
    let f = simplify(store, f);
    let lits = implicant(store, m, f)?;
    split_equalities(store, m, &lits)
}

/// The first literal `x = t` (either side) with `x` in `todo` and not in `t`.
fn find_definition(
    store: &TermStore,
    lits: &[TermId],
    todo: &[VarId],
) -> Option<(usize, VarId, TermId)> {
    for (i, &l) in lits.iter().enumerate() {
        if store.op(l) != &Op::Eq {
            continue;
        }
        let args = store.args(l);
        if args.len() != 2 || !matches!(store.sort(args[0]), Sort::Dt(_)) {
            continue;
        }
        for (a, b) in [(args[0], args[1]), (args[1], args[0])] {
            if let Some(x) = store.as_var(a)
                && todo.contains(&x)
                && !free_vars(store, b).contains(&x)
            {
                return Some((i, x, b));
            }
        }
    }
    None
}

/// Whether every literal mentioning `x` is a disequality `x ≠ t` with `x` not in `t`.
fn only_diseqs(store: &TermStore, lits: &[TermId], x: VarId) -> bool {
    lits.iter().all(|&l| {
        if !free_vars(store, l).contains(&x) {
            return true;
        }
        if store.op(l) != &Op::Not {
            return false;
        }
        let e = store.args(l)[0];
        if store.op(e) != &Op::Eq {
            return false;
        }
        let args = store.args(e);
        [(args[0], args[1]), (args[1], args[0])]
            .iter()
            .any(|&(a, b)| store.as_var(a) == Some(x) && !free_vars(store, b).contains(&x))
    })
}

/// Whether the datatype `sort` has infinitely many values: an arithmetic field or a cycle
/// among the datatypes reachable from it (well-founded recursive datatypes are infinite).
/// `false` when unsure (arrays, bit-vectors, undefined sorts): the caller then expands.
fn infinite(sort: Sort) -> bool {
    // Depth-first search with colours: 1 on the path, 2 done.
    let mut colour: FxHashMap<Sort, u8> = FxHashMap::default();
    let mut stack: Vec<(Sort, usize)> = vec![(sort, 0)];
    colour.insert(sort, 1);
    while let Some(&(s, i)) = stack.last() {
        let Some(def) = ldt::def(s) else {
            return false;
        };
        let fields: Vec<Sort> = def
            .ctors
            .iter()
            .flat_map(|c| c.fields.iter().map(|f| f.1))
            .collect();
        if i >= fields.len() {
            colour.insert(s, 2);
            stack.pop();
            continue;
        }
        stack.last_mut().expect("non-empty").1 += 1;
        let f = fields[i];
        if f.is_arith() {
            return true;
        }
        if matches!(f, Sort::Dt(_)) {
            match colour.get(&f) {
                Some(1) => return true,
                Some(_) => {}
                None => {
                    colour.insert(f, 1);
                    stack.push((f, 0));
                }
            }
        }
    }
    false
}

/// Splits `t = C(a…)` into `(_ is C) t ∧ selᵢ(t) = aᵢ` and `t ≠ C(a…)` into the literal the
/// model makes true (`¬(_ is C) t` or `selᵢ(t) ≠ aᵢ`), down constructor terms.
fn split_equalities(
    store: &mut TermStore,
    m: &Model,
    lits: &[TermId],
) -> Result<Vec<TermId>, MbpError> {
    let ctor_of = |store: &TermStore, t: TermId| match store.op(t) {
        Op::Dt(ldt::DtOp::Ctor(c)) => Some(*c),
        _ => None,
    };
    // (literal, polarity)
    let mut work: Vec<(TermId, bool)> = lits.iter().rev().map(|&l| (l, true)).collect();
    let mut out = Vec::new();
    let mut seen = FxHashSet::default();
    let mut push = |store: &mut TermStore, out: &mut Vec<TermId>, l: TermId| {
        let l = simplify(store, l);
        for c in store.conjuncts(l) {
            if store.as_bool(c) != Some(true) && seen.insert(c) {
                out.push(c);
            }
        }
    };
    while let Some((l, pol)) = work.pop() {
        if store.op(l) == &Op::Not {
            work.push((store.args(l)[0], !pol));
            continue;
        }
        let eq = store.op(l) == &Op::Eq
            && store.args(l).len() == 2
            && matches!(store.sort(store.args(l)[0]), Sort::Dt(_));
        if !eq {
            let lit = if pol { l } else { store.mk_not(l) };
            push(store, &mut out, lit);
            continue;
        }
        let (a, b) = (store.args(l)[0], store.args(l)[1]);
        let split = match (ctor_of(store, a), ctor_of(store, b)) {
            (None, Some(c)) => Some((a, b, c)),
            (Some(c), None) => Some((b, a, c)),
            _ => None,
        };
        let Some((t, k, c)) = split else {
            let lit = if pol { l } else { store.mk_not(l) };
            push(store, &mut out, lit);
            continue;
        };
        let fields: Vec<TermId> = store.args(k).to_vec();
        if pol {
            let test = store.mk_test(t, c);
            push(store, &mut out, test);
            for (j, &f) in fields.iter().enumerate().rev() {
                let s = store.mk_sel(t, c, j as u32);
                let e = store.mk_eq(s, f);
                work.push((e, true));
            }
            continue;
        }
        let Value::Dt(dv) = m.eval(store, t)? else {
            return Err(MbpError::NotAModel);
        };
        if dv.ctor != c {
            let test = store.mk_test(t, c);
            let lit = store.mk_not(test);
            push(store, &mut out, lit);
            continue;
        }
        let mut found = false;
        for (j, &f) in fields.iter().enumerate() {
            if dv.fields[j] != m.eval(store, f)? {
                let s = store.mk_sel(t, c, j as u32);
                let e = store.mk_eq(s, f);
                work.push((e, false));
                found = true;
                break;
            }
        }
        if !found {
            return Err(MbpError::NotAModel);
        }
    }
    Ok(out)
}
