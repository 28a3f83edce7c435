//! Model-based projection with arrays.
//!
//! A simplified form of the array MBP of Komuravelli, Bjørner, Gurfinkel and McMillan
//! ("Compositional verification of procedural programs using horn clauses over integers
//! and arrays", FMCAD 2015) and of z3's: the result is a cube that holds in the model and
//! implies `∃ elim · φ`, so it can serve as a must-summary or a query.
//!
//! 1. `φ` is replaced by an implicant (a cube of its literals true in the model).
//! 2. Array variables to eliminate are eliminated exactly where the cube defines them:
//!    `b = t`, and `t = store(s, i, v)` over an eliminated `b` (peeled into `t[i] = v` and
//!    `s = store(t, i, y)` until it is a definition of `b`).
//! 3. Reads are pushed through `store`, constant arrays and `ite` as the model decides:
//!    `(select (store a j v) i)` becomes `v` with the literal `i = j`, or `(select a i)`
//!    with `i < j` / `i > j` (the model's order); ground literals (true in the model) go.
//! 4. Reads of eliminated arrays become fresh variables, one per model value of the index
//!    (Ackermann's reduction around the model).
//! 5. Array variables still to eliminate, and integer variables to eliminate that occur
//!    inside array terms (indices, stored values), are replaced by their model values (array
//!    values are `store` chains over a constant array); reads are pushed again.
//! 6. The remaining variables (outside arrays) are eliminated by the arithmetic MBP, with
//!    each remaining read and array equality abstracted by a fresh variable carrying its
//!    model value (they mention only kept variables by then).
//!
//! Each step keeps the model and under-approximates the existential (substituting values
//! is the weakest such step), so the result is sound for must-summaries. It is less
//! general than full array MBP when arrays are eliminated (a value, not a relation), which
//! can cost convergence but never soundness.

use super::project::substitute_values;
use crate::preprocess::util::{peel_store, store_equality};
use cove_logic::{Model, Op, TermId, TermStore, Value, VarId, free_vars, simplify};
use rustc_hash::{FxHashMap, FxHashSet};

/// The projection (see the module docs), or `None` when a step fails (the caller falls
/// back to plain model substitution).
pub(super) fn project(
    store: &mut TermStore,
    model: &Model,
    phi: TermId,
    keep: &[VarId],
    elim: &[VarId],
    use_mbp: bool,
) -> Option<TermId> {
    let lits = cove_smt::mbp::implicant(store, model, phi).ok()?;
    let mut cube = store.mk_and(&lits);
    let mut m2 = model.clone();
    // 2. Exact elimination through defining equalities `x = t`, and through equalities
    //    `t = store(s, i, v)` whose `s` is built on an eliminated array (`peel_step`).
    let mut elim: Vec<VarId> = elim.to_vec();
    let mut peels = 0;
    loop {
        if let Some((x, def)) = find_definition(store, cube, &elim) {
            let mut map = FxHashMap::default();
            map.insert(x, def);
            cube = cove_logic::substitute(store, cube, &map);
            elim.retain(|&v| v != x);
            continue;
        }
        if peels < MAX_PEELS
            && let Some(c) = peel_step(store, &mut m2, cube, &mut elim)
        {
            peels += 1;
            cube = c;
            continue;
        }
        break;
    }
    // 3. Reads through writes, by the model.
    let mut extra = Vec::new();
    let f = push_reads(store, &m2, cube, &mut extra)?;
    let f = {
        let mut parts = store.conjuncts(f);
        parts.extend(extra);
        store.mk_and(&parts)
    };
    // 4. Reads of eliminated arrays become fresh values, related as the model relates
    //    their indices (Ackermann's reduction around the model).
    let (f, fresh) = eliminate_reads(store, &mut m2, f, &elim)?;
    elim.extend(fresh);
    // 5. What is left inside arrays gets its value.
    let inside = vars_inside_arrays(store, f);
    let subst: Vec<VarId> = elim
        .iter()
        .copied()
        .filter(|v| store.var_sort(*v).is_array() || inside.contains(v))
        .collect();
    let f = substitute_values(store, &m2, f, &subst);
    let mut extra = Vec::new();
    let f = push_reads(store, &m2, f, &mut extra)?;
    let mut parts = store.conjuncts(f);
    parts.extend(extra);
    let mut out = Vec::new();
    for p in parts {
        let p = simplify(store, p);
        if free_vars(store, p).is_empty() {
            // True in the model (it is a model of the cube).
            if m2.eval_bool(store, p).ok()? {
                continue;
            }
            return None;
        }
        out.push(p);
    }
    let f = store.mk_and(&out);
    let rest: Vec<VarId> = free_vars(store, f)
        .into_iter()
        .filter(|v| !keep.contains(v))
        .collect();
    if rest.is_empty() {
        return Some(f);
    }
    // 6. Arithmetic MBP with reads and array equalities abstracted.
    let mut back: FxHashMap<VarId, TermId> = FxHashMap::default();
    let abs = abstract_arrays(store, &mut m2, f, &mut back)?;
    let g = if use_mbp {
        match cove_smt::mbp::mbp_cube(store, &m2, abs, &rest) {
            Ok(r) if r.kept.is_empty() => r.formula,
            Ok(r) => substitute_values(store, &m2, r.formula, &r.kept),
            Err(_) => substitute_values(store, &m2, abs, &rest),
        }
    } else {
        substitute_values(store, &m2, abs, &rest)
    };
    let map: FxHashMap<VarId, TermId> = back;
    let g = cove_logic::substitute(store, g, &map);
    let g = simplify(store, g);
    if !model.eval_bool(store, g).ok()? {
        return None;
    }
    Some(g)
}

/// A conjunct `x = t` of `cube` with `x` to be eliminated and not occurring in `t`.
fn find_definition(store: &TermStore, cube: TermId, elim: &[VarId]) -> Option<(VarId, TermId)> {
    for c in store.conjuncts(cube) {
        if store.op(c) != &Op::Eq {
            continue;
        }
        let (a, b) = (store.args(c)[0], store.args(c)[1]);
        for (x, t) in [(a, b), (b, a)] {
            if let Some(v) = store.as_var(x)
                && elim.contains(&v)
                && !free_vars(store, t).contains(&v)
                && store.sort(x) == store.sort(t)
            {
                return Some((v, t));
            }
        }
    }
    None
}

/// Upper bound on the peeling steps of one projection (each removes one write over an
/// eliminated array, so the bound is only reached on very long store chains).
const MAX_PEELS: usize = 64;

/// One step of [`store_equality`]/[`peel_store`] on `cube` over the eliminated arrays: the
/// fresh element `y` is eliminated too and gets the value `M(s[i])`, so the model stays a
/// model. Without it a query over a kept array `t` (a Solidity balance map written at the
/// sender) pinned `t` to the model's value of `s` — including the arbitrary entries the SMT
/// model invents — so every blocked query was one array value and Spacer enumerated them.
fn peel_step(
    store: &mut TermStore,
    model: &mut Model,
    cube: TermId,
    elim: &mut Vec<VarId>,
) -> Option<TermId> {
    let parts = store.conjuncts(cube);
    let eq = store_equality(store, &parts, &|b| elim.contains(&b))?;
    let si = store.mk_raw(Op::Select, &[eq.s, eq.i], store.sort(eq.v));
    let val = model.eval(store, si).ok()?;
    let y = store.fresh_var("arr_elem", store.sort(eq.v));
    model.set(y, val);
    elim.push(y);
    let out = peel_store(store, &parts, &eq, y);
    Some(store.mk_and(&out))
}

/// Replaces the reads `(select a i)` of eliminated array variables `a` by fresh variables,
/// one per model value of the index, adding `i = i'` for reads in one class and the model's
/// order between classes; returns the new formula and the fresh variables (to eliminate).
fn eliminate_reads(
    store: &mut TermStore,
    model: &mut Model,
    f: TermId,
    elim: &[VarId],
) -> Option<(TermId, Vec<VarId>)> {
    let mut reads: Vec<TermId> = Vec::new();
    let mut stack = vec![f];
    let mut seen = FxHashSet::default();
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        if store.op(u) == &Op::Select
            && store
                .as_var(store.args(u)[0])
                .is_some_and(|a| elim.contains(&a))
            && !store.sort(u).is_array()
        {
            reads.push(u);
        }
        stack.extend(store.args(u).iter().copied());
    }
    reads.sort_unstable();
    let mut map: FxHashMap<TermId, TermId> = FxHashMap::default();
    let mut fresh = Vec::new();
    let mut extra = Vec::new();
    // Per array: index value -> (representative index, fresh variable).
    let mut classes: FxHashMap<(TermId, Value), (TermId, TermId)> = FxHashMap::default();
    let mut reps: FxHashMap<TermId, Vec<(Value, TermId)>> = FxHashMap::default();
    for r in reads {
        let (a, i) = (store.args(r)[0], store.args(r)[1]);
        let iv = model.eval(store, i).ok()?;
        let val = model.eval(store, r).ok()?;
        let key = (a, iv.clone());
        if let Some(&(rep, v)) = classes.get(&key) {
            extra.push(store.mk_eq(i, rep));
            map.insert(r, v);
            continue;
        }
        let x = store.fresh_var("arr_val", store.sort(r));
        model.set(x, val);
        fresh.push(x);
        let xt = store.mk_var(x);
        for (ov, oi) in reps.get(&a).cloned().unwrap_or_default() {
            let lit = match (&iv, &ov) {
                (Value::Num(p), Value::Num(q)) if p < q => store.mk_lt(i, oi),
                (Value::Num(_), Value::Num(_)) => store.mk_gt(i, oi),
                _ => {
                    let e = store.mk_eq(i, oi);
                    store.mk_not(e)
                }
            };
            extra.push(lit);
        }
        reps.entry(a).or_default().push((iv, i));
        classes.insert(key, (i, xt));
        map.insert(r, xt);
    }
    let g = cove_logic::subst::replace_subterms(store, f, &map);
    let mut parts = store.conjuncts(g);
    parts.extend(extra);
    Some((store.mk_and(&parts), fresh))
}

/// Variables occurring below a read, a write or an array equality.
fn vars_inside_arrays(store: &TermStore, t: TermId) -> FxHashSet<VarId> {
    let mut out = FxHashSet::default();
    let mut stack = vec![(t, false)];
    let mut seen = FxHashSet::default();
    while let Some((u, inside)) = stack.pop() {
        if !seen.insert((u, inside)) {
            continue;
        }
        let here = inside
            || store.sort(u).is_array()
            || matches!(store.op(u), Op::Select)
            || (matches!(store.op(u), Op::Eq) && store.sort(store.args(u)[0]).is_array());
        if let Op::Var(v) = store.op(u)
            && here
        {
            out.insert(*v);
        }
        for &a in store.args(u) {
            stack.push((a, here));
        }
    }
    out
}

/// Rebuilds `t` bottom-up with every read of a `store`/constant/`ite` array resolved by
/// the model; the literals that justify each choice go to `extra`.
fn push_reads(
    store: &mut TermStore,
    model: &Model,
    t: TermId,
    extra: &mut Vec<TermId>,
) -> Option<TermId> {
    // Subterms in increasing id order are a topological order.
    let mut all = Vec::new();
    let mut stack = vec![t];
    let mut seen = FxHashSet::default();
    while let Some(u) = stack.pop() {
        if seen.insert(u) {
            all.push(u);
            stack.extend(store.args(u).iter().copied());
        }
    }
    all.sort_unstable();
    let mut new: FxHashMap<TermId, TermId> = FxHashMap::default();
    for u in all {
        let args: Vec<TermId> = store.args(u).iter().map(|a| new[a]).collect();
        let op = store.op(u).clone();
        let sort = store.sort(u);
        let r = if args.is_empty() {
            u
        } else if op == Op::Select {
            read(store, model, args[0], args[1], extra)?
        } else if matches!(op, Op::Forall(_) | Op::Exists(_)) {
            return None;
        } else {
            cove_logic::subst::rebuild(store, &op, &args, sort)
        };
        new.insert(u, r);
    }
    Some(new[&t])
}

/// `(select a i)` pushed through writes, constants and `ite` by the model.
fn read(
    store: &mut TermStore,
    model: &Model,
    mut a: TermId,
    i: TermId,
    extra: &mut Vec<TermId>,
) -> Option<TermId> {
    loop {
        let args = store.args(a).to_vec();
        match store.op(a) {
            Op::ConstArray => return Some(args[0]),
            Op::Store => {
                let j = args[1];
                let iv = model.eval(store, i).ok()?;
                let jv = model.eval(store, j).ok()?;
                if iv == jv {
                    let e = store.mk_eq(i, j);
                    extra.push(e);
                    return Some(args[2]);
                }
                let lit = match (&iv, &jv) {
                    (Value::Num(x), Value::Num(y)) if x < y => store.mk_lt(i, j),
                    (Value::Num(_), Value::Num(_)) => store.mk_gt(i, j),
                    _ => {
                        let e = store.mk_eq(i, j);
                        store.mk_not(e)
                    }
                };
                extra.push(lit);
                a = args[0];
            }
            Op::Ite => {
                let c = model.eval_bool(store, args[0]).ok()?;
                extra.push(if c { args[0] } else { store.mk_not(args[0]) });
                a = if c { args[1] } else { args[2] };
            }
            _ => return Some(store.mk_select(a, i)),
        }
    }
}

/// Replaces every read and every array equality in `t` by a fresh variable holding its
/// model value (recorded in `model` and in `back` for the way back).
fn abstract_arrays(
    store: &mut TermStore,
    model: &mut Model,
    t: TermId,
    back: &mut FxHashMap<VarId, TermId>,
) -> Option<TermId> {
    let mut map: FxHashMap<TermId, TermId> = FxHashMap::default();
    let mut stack = vec![t];
    let mut seen = FxHashSet::default();
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        let is_atom = matches!(store.op(u), Op::Select)
            || (matches!(store.op(u), Op::Eq) && store.sort(store.args(u)[0]).is_array());
        if is_atom {
            let sort = store.sort(u);
            if sort.is_array() {
                return None;
            }
            let val = model.eval(store, u).ok()?;
            let v = store.fresh_var("arr_read", sort);
            model.set(v, val);
            let vt = store.mk_var(v);
            back.insert(v, u);
            map.insert(u, vt);
        } else {
            stack.extend(store.args(u).iter().copied());
        }
    }
    Some(cove_logic::subst::replace_subterms(store, t, &map))
}
