//! Helpers shared by the passes: clause variables, solving equalities for a variable,
//! evaluation of clause instances and topological order of derivations.

use super::BackError;
use crate::result::{Derivation, DerivationStep};
use crate::system::Clause;
use cove_logic::{
    FuncId, Model, Op, Rational, Sort, TermId, TermStore, Value, VarId, free_vars, linearize,
    mk_linear,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// The variables occurring in `c` (constraint and arguments): those of `c.vars` in their
/// order, then any others sorted by id.
pub fn occurring_vars(store: &TermStore, c: &Clause) -> Vec<VarId> {
    let mut set: FxHashSet<VarId> = free_vars(store, c.constraint).into_iter().collect();
    for app in c.body.iter().chain(c.head.iter()) {
        for &a in &app.args {
            set.extend(free_vars(store, a));
        }
    }
    let mut out: Vec<VarId> = c.vars.iter().copied().filter(|v| set.remove(v)).collect();
    let mut rest: Vec<VarId> = set.into_iter().collect();
    rest.sort();
    out.extend(rest);
    out
}

/// Number of distinct subterms of `t`.
pub fn dag_size(store: &TermStore, t: TermId) -> usize {
    let mut seen = FxHashSet::default();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if seen.insert(u) {
            stack.extend_from_slice(store.args(u));
        }
    }
    seen.len()
}

/// True when `t` contains a quantifier.
pub fn has_quantifier(store: &TermStore, t: TermId) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        if matches!(store.op(u), Op::Forall(_) | Op::Exists(_)) {
            return true;
        }
        stack.extend_from_slice(store.args(u));
    }
    false
}

/// True when `t` can be evaluated under every assignment of its variables (no quantifier,
/// no uninterpreted function, divisions only by non-zero numerals).
pub fn total(store: &TermStore, t: TermId) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        match store.op(u) {
            // A selector applied to another constructor's value has no value the evaluator
            // of derivations can compute: not total for back-translation.
            Op::Forall(_)
            | Op::Exists(_)
            | Op::App(_)
            | Op::Dt(cove_logic::dt::DtOp::Sel { .. }) => return false,
            Op::Div | Op::IntDiv | Op::Mod
                if store.as_num(store.args(u)[1]).is_none_or(|k| k.is_zero()) =>
            {
                return false;
            }
            _ => {}
        }
        stack.extend_from_slice(store.args(u));
    }
    true
}

/// The conjuncts `t = w` of `parts` with `w` an array write `store(…)` (either side): their
/// positions, `t` and `w`.
fn array_writes<'a>(
    store: &'a TermStore,
    parts: &'a [TermId],
) -> impl Iterator<Item = (usize, TermId, TermId)> + 'a {
    parts.iter().enumerate().flat_map(move |(at, &c)| {
        let eq = store.op(c) == &Op::Eq && store.sort(store.args(c)[0]).is_array();
        let sides = if eq {
            let (l, r) = (store.args(c)[0], store.args(c)[1]);
            vec![(l, r), (r, l)]
        } else {
            vec![]
        };
        sides
            .into_iter()
            .filter(|&(_, w)| store.op(w) == &Op::Store)
            .map(move |(t, w)| (at, t, w))
    })
}

/// A conjunct `t = store(s, i, v)` (either side) whose `s` is a chain of writes over an array
/// variable `b` with `allowed(b)`, `b` occurring neither in `t` nor in `i`.
pub struct StoreEq {
    /// Position of the conjunct.
    pub at: usize,
    /// The other side, `t`.
    pub t: TermId,
    /// The written array `s`, the index `i` and the value `v` of the outermost write.
    pub s: TermId,
    pub i: TermId,
    pub v: TermId,
}

/// Finds a [`StoreEq`] among `parts`.
///
/// # Why
/// `t = store(s, i, v)` holds iff `t[i] = v` and `∃y. s = store(t, i, y)` ([`peel_store`]):
/// one write comes off `b` per step, until `b = store(…(t)…)` defines `b` and substitution
/// eliminates it exactly. This is how array variables leave projections and inlined
/// definitions (z3's array MBP has the same rule); without it `b` stays (or gets a model value).
pub fn store_equality(
    store: &TermStore,
    parts: &[TermId],
    allowed: &dyn Fn(VarId) -> bool,
) -> Option<StoreEq> {
    for (at, t, w) in array_writes(store, parts) {
        let mut base = w;
        while store.op(base) == &Op::Store {
            base = store.args(base)[0];
        }
        let Some(b) = store.as_var(base).filter(|&b| allowed(b)) else {
            continue;
        };
        let (s, i, v) = (store.args(w)[0], store.args(w)[1], store.args(w)[2]);
        if free_vars(store, t).contains(&b) || free_vars(store, i).contains(&b) {
            continue;
        }
        return Some(StoreEq { at, t, s, i, v });
    }
    None
}

/// `parts` with the conjunct of `eq` replaced by `t[i] = v` and `s = store(t, i, y)`, for a
/// fresh `y` of the element sort chosen by the caller (an equivalence with `∃y`).
pub fn peel_store(store: &mut TermStore, parts: &[TermId], eq: &StoreEq, y: VarId) -> Vec<TermId> {
    let yt = store.mk_var(y);
    let ti = store.mk_select(eq.t, eq.i);
    let read = store.mk_eq(ti, eq.v);
    let t2 = store.mk_store(eq.t, eq.i, yt);
    let def = store.mk_eq(eq.s, t2);
    let mut out = parts.to_vec();
    out.remove(eq.at);
    out.push(read);
    out.push(def);
    out
}

/// The read `t[i] = v` implied by a conjunct `t = store(s, i, v)` (either side) whose value
/// `v` mentions a variable with `allowed`, if that read is not among `parts` yet.
///
/// # Why
/// Solidity's transfer of funds writes `balances[this] + funds` into the balances, with
/// `funds` bound only there: the read makes `funds = t[this] − balances[this]` a linear
/// definition, so substitution removes it where quantifier elimination (which does not
/// look under array writes) would give up.
pub fn store_read(
    store: &mut TermStore,
    parts: &[TermId],
    allowed: &dyn Fn(VarId) -> bool,
) -> Option<TermId> {
    let writes: Vec<_> = array_writes(store, parts).collect();
    for (_, t, w) in writes {
        let (i, v) = (store.args(w)[1], store.args(w)[2]);
        if !free_vars(store, v).iter().any(|&x| allowed(x)) {
            continue;
        }
        let ti = store.mk_select(t, i);
        let read = store.mk_eq(ti, v);
        if !parts.contains(&read) {
            return Some(read);
        }
    }
    None
}

/// If the conjunct `e` is an equality that defines a variable, returns `(x, t)` with `e ≡ x = t`,
/// `x ∉ t`, `t` total and of `x`'s sort (for `Int`, only when `x` has coefficient ±1 and the
/// rest is integral, so `t` is an integer under every integer assignment). Among several
/// candidate variables the one with the lowest `cost` is chosen; `allowed` filters candidates.
/// A candidate with a non-zero cost (one that occurs in predicate arguments) is only accepted
/// with a *simple* definition, a variable or a constant, so arguments stay simple terms.
pub fn defining_equality(
    store: &mut TermStore,
    e: TermId,
    allowed: &dyn Fn(VarId) -> bool,
    cost: &dyn Fn(VarId) -> u32,
) -> Option<(VarId, TermId)> {
    match store.op(e).clone() {
        Op::Var(b) if allowed(b) => Some((b, store.mk_true())),
        Op::Not => {
            let b = store.as_var(store.args(e)[0])?;
            if allowed(b) {
                Some((b, store.mk_false()))
            } else {
                None
            }
        }
        Op::Eq => {
            let (a, b) = (store.args(e)[0], store.args(e)[1]);
            let dt = matches!(store.sort(a), Sort::Dt(_));
            if store.sort(a) == Sort::Bool || dt {
                // Booleans and datatype values: `x = t` with `x` not in `t` (a datatype
                // equality is no linear equation; constructor terms may be substituted
                // anywhere, they are what BMC and the datatype theory handle best).
                let mut best: Option<(u32, VarId, TermId)> = None;
                for (x, t) in [(a, b), (b, a)] {
                    if let Some(v) = store.as_var(x)
                        && allowed(v)
                        && !free_vars(store, t).contains(&v)
                        && total(store, t)
                    {
                        let c = cost(v);
                        let simple = dt || store.as_var(t).is_some() || store.as_bool(t).is_some();
                        if (c == 0 || simple) && best.as_ref().is_none_or(|(bc, _, _)| c < *bc) {
                            best = Some((c, v, t));
                        }
                    }
                }
                return best.map(|(_, v, t)| (v, t));
            }
            let mut lin = linearize(store, a);
            lin.add_scaled(&linearize(store, b), &Rational::MINUS_ONE);
            let all_int_atoms = lin.terms.iter().all(|(t, _)| store.sort(*t) == Sort::Int);
            let integral = all_int_atoms
                && lin.constant.is_integer()
                && lin.terms.iter().all(|(_, c)| c.is_integer());
            let mut cands: Vec<(u32, VarId, usize)> = Vec::new();
            for (i, (atom, c)) in lin.terms.iter().enumerate() {
                let Some(x) = store.as_var(*atom) else {
                    continue;
                };
                if !allowed(x) {
                    continue;
                }
                if store.var_sort(x) == Sort::Int && !(integral && (c.is_one() || (-c).is_one())) {
                    continue;
                }
                let others_ok = lin.terms.iter().enumerate().all(|(j, (t, _))| {
                    j == i || (!free_vars(store, *t).contains(&x) && total(store, *t))
                });
                if others_ok {
                    cands.push((cost(x), x, i));
                }
            }
            cands.sort_by_key(|c| c.0);
            for (k, x, i) in cands {
                // c·x + rest = 0  ->  x = -rest / c
                let c = lin.terms[i].1.clone();
                let mut rest = lin.clone();
                rest.terms.remove(i);
                rest.scale(&(-c.recip()));
                let simple = rest.terms.is_empty()
                    || (rest.terms.len() == 1
                        && rest.constant.is_zero()
                        && rest.terms[0].1.is_one()
                        && store.as_var(rest.terms[0].0).is_some());
                if k > 0 && !simple {
                    continue;
                }
                let sort = store.var_sort(x);
                return Some((x, mk_linear(store, &rest, sort)));
            }
            None
        }
        _ => None,
    }
}

/// The model of a step's assignment.
pub fn model_of(step: &DerivationStep) -> Model {
    let mut m = Model::new();
    for (v, x) in &step.assignment {
        m.set(*v, x.clone());
    }
    m
}

/// Evaluates `t` under `m`, as a back-translation error on failure.
pub fn eval(store: &TermStore, m: &Model, t: TermId) -> Result<Value, BackError> {
    m.eval(store, t)
        .map_err(|e| BackError::BadWitness(e.to_string()))
}

/// The assignment of `vars` read from `m` (missing variables get their sort's default: they
/// occur nowhere in the clause instance that matters).
pub fn assignment(store: &TermStore, m: &Model, vars: &[VarId]) -> Vec<(VarId, Value)> {
    vars.iter()
        .map(|&v| {
            (
                v,
                m.get(v)
                    .cloned()
                    .unwrap_or_else(|| Value::default_of(store.var_sort(v))),
            )
        })
        .collect()
}

/// Steps of `d` with premises before their users (every step, reachable or not).
pub fn topo_order(d: &Derivation) -> Result<Vec<usize>, BackError> {
    let n = d.steps.len();
    let mut state = vec![0u8; n];
    let mut order = Vec::with_capacity(n);
    for s0 in 0..n {
        if state[s0] != 0 {
            continue;
        }
        let mut stack = vec![(s0, false)];
        while let Some((s, done)) = stack.pop() {
            if done {
                state[s] = 2;
                order.push(s);
                continue;
            }
            if state[s] != 0 {
                continue;
            }
            state[s] = 1;
            stack.push((s, true));
            for &p in &d.steps[s].premises {
                if p >= n {
                    return Err(BackError::BadWitness(format!(
                        "step {s} refers to missing step {p}"
                    )));
                }
                match state[p] {
                    0 => stack.push((p, false)),
                    1 => {
                        return Err(BackError::BadWitness(format!(
                            "derivation is cyclic at step {p}"
                        )));
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(order)
}

/// Declares a fresh predicate named after `base` with argument sorts `sorts`.
pub fn fresh_pred(store: &mut TermStore, base: &str, sorts: &[Sort]) -> FuncId {
    let mut k = 0u32;
    loop {
        k += 1;
        let name = format!("{base}!{k}");
        if store.func_by_name(&name).is_none() {
            return store
                .declare_func(&name, sorts, Sort::Bool)
                .expect("fresh name");
        }
    }
}

/// Fresh parameters for `pred`.
pub fn fresh_params(store: &mut TermStore, pred: FuncId) -> Vec<VarId> {
    let decl = store.func(pred).clone();
    decl.args
        .iter()
        .enumerate()
        .map(|(i, s)| store.fresh_var(&format!("{}_{i}", decl.name), *s))
        .collect()
}

/// Renames every variable of `c` to a fresh one; returns the renamed clause and the map.
pub fn rename_clause(
    store: &mut TermStore,
    c: &Clause,
    tag: &str,
) -> (Clause, FxHashMap<VarId, VarId>) {
    let mut map = FxHashMap::default();
    let mut tmap = FxHashMap::default();
    for &v in &c.vars {
        let base = format!("{}{tag}", store.var_name(v));
        let sort = store.var_sort(v);
        let nv = store.fresh_var(&base, sort);
        map.insert(v, nv);
        tmap.insert(v, store.mk_var(nv));
    }
    let sub = |store: &mut TermStore, t| cove_logic::substitute(store, t, &tmap);
    let constraint = sub(store, c.constraint);
    let app = |store: &mut TermStore, a: &crate::system::PredApp| crate::system::PredApp {
        pred: a.pred,
        args: a
            .args
            .iter()
            .map(|&t| cove_logic::substitute(store, t, &tmap))
            .collect(),
    };
    let body = c.body.iter().map(|a| app(store, a)).collect();
    let head = c.head.as_ref().map(|a| app(store, a));
    let vars = c.vars.iter().map(|v| map[v]).collect();
    (
        Clause {
            vars,
            body,
            constraint,
            head,
            origin: c.origin,
        },
        map,
    )
}
