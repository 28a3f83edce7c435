//! Phase-partitioned invariants from concrete runs, filtered by Houdini.
//!
//! Multi-phase loops (aeval's `s_split_*`: a counter runs from a constant and the body's
//! `ite`s change what the other variables do once it passes a threshold) need invariants
//! that are disjunctions over phases: `(a < 5000 ∧ b = 5000) ∨ (a >= 5000 ∧ b = a)`.
//! Spacer's lemmas are cubes, so it enumerates the counter's values; this engine instead
//! *runs* the system and reads the phases off the runs:
//!
//! 1. **Runs.** From a few initial states (models of the facts, kept apart by blocking
//!    clauses) every linear clause is executed concretely: the body's arguments bind the
//!    clause's variables, equations `v = t` of the constraint bind the rest, and the
//!    constraint must then evaluate to true. A clause that leaves a variable free (a havoc)
//!    takes its successor from an SMT model instead (a bounded number of times). Machine
//!    integers with overflow checks; a run stops at an overflow, a repeated state or the
//!    budget.
//! 2. **Phases.** The guards are the comparisons of the clauses' constraints over one body
//!    occurrence's arguments (the `ite` conditions of the loop body, and the query's own
//!    atoms), read over the predicate's parameters; only the ones the runs see both true
//!    and false are kept. A *cell* is one valuation of the kept guards.
//! 3. **Candidates**, per cell `φ` of the states seen: `φ → e` for every equation `e` of the
//!    affine hull of the cell's states (exact rational Gaussian elimination), `φ → x ⋈ v` for
//!    each parameter's least and greatest value; `¬φ` for every cell no run visits; the same
//!    without a guard over all states, with the least and greatest values of the sums and
//!    differences of two parameters too (for at most 6 parameters); and, in a second round only (they make the solver's
//!    work harder), `t mod k = r` for the congruences all states keep (`t` a parameter, or a
//!    sum or difference of two; `k` 2 or a divisor of the clauses' `mod`/`div` terms that
//!    divides every difference of `t`'s values).
//!    And when a predicate's runs reach few states (at most `MAX_EXPLICIT`), the candidate
//!    "the state is one of these": a deterministic loop over a finite domain (counters
//!    modulo a constant, `ite` resets) whose runs closed their cycles has exactly those
//!    states, which is inductive whatever the phases' shape, where no cell's facts are.
//! 4. **Houdini** (`houdini::houdini`) keeps the maximal inductive subset; if it
//!    excludes every query it is the answer's invariant, checked by the driver's
//!    independent checker like every other answer.
//!
//! The runs only *propose* candidates: everything kept is proved inductive, so wrong or
//! truncated runs cost completeness, never soundness.

use crate::engine::{BuildEngine, Control, Engine, Stats};
use crate::engines::clause_terms::comparisons;
use crate::houdini::houdini;
use crate::invariant_map::InvMap;
use crate::result::{ChcResult, UnknownReason};
use crate::system::{ChcSystem, Clause};
use cove_logic::{FuncId, Op, Rational, Sort, TermId, TermStore, Value, VarId, free_vars};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::{FxHashMap, FxHashSet};

/// Predicates with more arguments than this get no candidates.
const MAX_ARITY: usize = 12;
/// At most this many clauses.
const MAX_CLAUSES: usize = 64;
/// At most this many initial states per fact clause.
const MAX_INITS: usize = 6;
/// At most this many states over all runs.
const MAX_STATES: usize = 30_000;
/// At most this many successors taken from SMT models (havocs).
const MAX_SMT_STEPS: usize = 400;
/// At most this many guards per predicate (cells: at most `2^MAX_GUARDS`).
const MAX_GUARDS: usize = 5;
/// Congruence moduli above this are not proposed.
const MAX_MODULUS: i128 = 1 << 20;
/// Hull equations with a larger coefficient are not proposed.
const MAX_COEFF: i128 = 1_000_000;
/// Bounds and right-hand sides larger than this are not proposed (runs whose values grow
/// exponentially give no useful constant).
const MAX_CONST: i128 = 1_000_000_000;
/// At most this many candidates per predicate.
const MAX_CANDIDATES: usize = 600;
/// A predicate whose runs reach at most this many states also gets the candidate "one of
/// these states" (see [`candidates`]).
const MAX_EXPLICIT: usize = 128;

/// Options of the phase-partitioned Houdini (none yet).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PhasesConfig {}

impl BuildEngine for PhasesConfig {
    const NAME: &'static str = "phases";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(Phases::default())
    }
}

/// The engine (`--engine phases`).
#[derive(Default)]
pub struct Phases {
    stats: Stats,
}

impl Engine for Phases {
    fn name(&self) -> &'static str {
        PhasesConfig::NAME
    }

    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult {
        match self.run(store, sys, ctl) {
            Ok(r) => r,
            Err(r) => ChcResult::Unknown(r),
        }
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

fn incomplete(why: &str) -> UnknownReason {
    UnknownReason::Incomplete(format!("phases: {why}"))
}

impl Phases {
    fn run(
        &mut self,
        store: &mut TermStore,
        sys: &ChcSystem,
        ctl: &Control,
    ) -> Result<ChcResult, UnknownReason> {
        if let Some(why) = crate::system::unsupported_feature(sys, store) {
            return Err(UnknownReason::Unsupported(why));
        }
        if !sys.is_linear() || sys.clauses.len() > MAX_CLAUSES {
            return Err(incomplete("not a small linear system"));
        }
        let int_pred = |store: &TermStore, p: FuncId| {
            let args = &store.func(p).args;
            args.len() <= MAX_ARITY && args.iter().all(|s| *s == Sort::Int)
        };
        if !sys.preds.iter().all(|&p| int_pred(store, p)) {
            return Err(incomplete("a predicate with a non-integer argument"));
        }
        self.stats.clear();
        let t0 = std::time::Instant::now();
        let states = simulate(store, sys, ctl)?;
        if ctl.verbosity > 1 {
            eprintln!("phases: runs took {:?}", t0.elapsed());
        }
        let n_states: usize = states.values().map(Vec::len).sum();
        self.stats
            .push(("phases-states".into(), n_states.to_string()));
        if n_states == 0 {
            return Err(incomplete("no reachable state found"));
        }
        let base = InvMap::new(store, sys);
        let guards = guards(store, sys, &base.params);
        // Congruences make every Houdini check harder for the solver, so they come in a
        // second round, only when the first one fails (from the whole language again).
        let mut moduli = vec![2i128];
        for c in &sys.clauses {
            clause_moduli(store, c.constraint, &mut moduli);
        }
        for with_congruences in [false, true] {
            let ms: &[i128] = if with_congruences { &moduli } else { &[] };
            let mut map = base.clone();
            for (&p, sts) in &states {
                let params = map.params[&p].clone();
                let gs = guards.get(&p).map_or(&[][..], Vec::as_slice);
                let set = candidates(store, &params, gs, sts, ms, ctl)?;
                if !set.is_empty() {
                    map.sets.insert(p, set);
                }
            }
            // Predicates no run reaches: maybe unreachable.
            for &p in &sys.preds {
                if !states.contains_key(&p) {
                    let f = store.mk_false();
                    map.sets.insert(p, vec![f]);
                }
            }
            let start = map.size();
            self.stats
                .push(("phases-candidates".into(), start.to_string()));
            if ctl.verbosity > 2 {
                for set in map.sets.values() {
                    for &f in set {
                        eprintln!("phases: candidate {}", store.display(f));
                    }
                }
            }
            let t1 = std::time::Instant::now();
            houdini(store, sys, &mut map, ctl)?;
            if ctl.verbosity > 1 {
                eprintln!("phases: Houdini took {:?}", t1.elapsed());
            }
            self.stats
                .push(("phases-inductive".into(), map.size().to_string()));
            if ctl.verbosity > 0 {
                eprintln!(
                    "phases: {n_states} states, {} of {start} candidates inductive",
                    map.size()
                );
            }
            if crate::engines::clause_terms::excludes_queries(store, sys, &map, ctl)? {
                return Ok(ChcResult::Sat(map.invariants(store)));
            }
        }
        Err(incomplete(
            "the inductive candidates do not exclude the queries",
        ))
    }
}

/// The constant divisors `2 <= k <= MAX_MODULUS` of the `mod` and `div` terms of `t` (into
/// `out`, without repetition).
fn clause_moduli(store: &TermStore, t: TermId, out: &mut Vec<i128>) {
    let mut stack = vec![t];
    let mut seen = FxHashSet::default();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        let args = store.args(t);
        if matches!(store.op(t), Op::Mod | Op::IntDiv)
            && let Some(k) = store.as_num(args[1]).and_then(Rational::to_i64)
            && (2..=MAX_MODULUS).contains(&i128::from(k.abs()))
            && !out.contains(&i128::from(k.abs()))
        {
            out.push(i128::from(k.abs()));
        }
        stack.extend(args.iter().copied());
    }
}

// ---------------------------------------------------------------------------------------
// Concrete evaluation.

/// A concrete value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum V {
    I(i128),
    B(bool),
}

/// Why a term has no value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum NoValue {
    /// A variable without a value.
    Unbound,
    /// Overflow, division by zero, a non-integer constant, an operator not handled.
    Fail,
}

fn euclid_mod(a: i128, b: i128) -> Option<i128> {
    if b == 0 {
        return None;
    }
    Some(a.rem_euclid(b.checked_abs()?))
}

fn euclid_div(a: i128, b: i128) -> Option<i128> {
    let m = euclid_mod(a, b)?;
    a.checked_sub(m)?.checked_div(b)
}

/// The value of `t` under `env` (iterative: no recursion over the term's depth; a value
/// stack, no allocation per node — the runs evaluate millions of nodes).
fn eval(store: &TermStore, t: TermId, env: &FxHashMap<VarId, i128>) -> Result<V, NoValue> {
    let mut todo: Vec<(TermId, bool)> = vec![(t, false)];
    let mut vals: Vec<V> = Vec::with_capacity(16);
    while let Some((u, expanded)) = todo.pop() {
        let args = store.args(u);
        if !expanded && !args.is_empty() {
            todo.push((u, true));
            todo.extend(args.iter().rev().map(|&a| (a, false)));
            continue;
        }
        let base = vals.len() - args.len();
        let v = apply(store.op(u), &vals[base..], env)?;
        // Values stay within i64 so that the constants we print are small.
        if let V::I(i) = v
            && i64::try_from(i).is_err()
        {
            return Err(NoValue::Fail);
        }
        vals.truncate(base);
        vals.push(v);
    }
    vals.pop().ok_or(NoValue::Fail)
}

fn int(v: &V) -> Result<i128, NoValue> {
    match v {
        V::I(i) => Ok(*i),
        V::B(_) => Err(NoValue::Fail),
    }
}

fn boolean(v: &V) -> Result<bool, NoValue> {
    match v {
        V::B(b) => Ok(*b),
        V::I(_) => Err(NoValue::Fail),
    }
}

/// `op` applied to the values `xs` of its arguments.
fn apply(op: &Op, xs: &[V], env: &FxHashMap<VarId, i128>) -> Result<V, NoValue> {
    let cmp = |f: fn(i128, i128) -> bool| -> Result<V, NoValue> {
        let mut ok = true;
        for w in xs.windows(2) {
            ok &= f(int(&w[0])?, int(&w[1])?);
        }
        Ok(V::B(ok))
    };
    let ov = |x: Option<i128>| x.map(V::I).ok_or(NoValue::Fail);
    let first = || xs.first().ok_or(NoValue::Fail);
    Ok(match op {
        Op::Bool(b) => V::B(*b),
        Op::Num(r) => {
            if !r.is_integer() {
                return Err(NoValue::Fail);
            }
            V::I(i128::from(r.to_i64().ok_or(NoValue::Fail)?))
        }
        Op::Var(x) => match env.get(x) {
            Some(&i) => V::I(i),
            None => return Err(NoValue::Unbound),
        },
        Op::Not => V::B(!boolean(first()?)?),
        Op::And => {
            let mut r = true;
            for x in xs {
                r &= boolean(x)?;
            }
            V::B(r)
        }
        Op::Or => {
            let mut r = false;
            for x in xs {
                r |= boolean(x)?;
            }
            V::B(r)
        }
        Op::Implies => {
            let (last, init) = xs.split_last().ok_or(NoValue::Fail)?;
            let mut r = boolean(last)?;
            for x in init {
                r |= !boolean(x)?;
            }
            V::B(r)
        }
        Op::Xor => {
            let mut r = false;
            for x in xs {
                r ^= boolean(x)?;
            }
            V::B(r)
        }
        Op::Eq => V::B(xs.windows(2).all(|w| w[0] == w[1])),
        Op::Distinct => {
            let mut ok = true;
            for i in 0..xs.len() {
                for j in i + 1..xs.len() {
                    ok &= xs[i] != xs[j];
                }
            }
            V::B(ok)
        }
        Op::Ite => match xs {
            [c, a, b] => {
                if boolean(c)? {
                    *a
                } else {
                    *b
                }
            }
            _ => return Err(NoValue::Fail),
        },
        Op::Add => {
            let mut r: i128 = 0;
            for x in xs {
                r = r.checked_add(int(x)?).ok_or(NoValue::Fail)?;
            }
            V::I(r)
        }
        Op::Mul => {
            let mut r: i128 = 1;
            for x in xs {
                r = r.checked_mul(int(x)?).ok_or(NoValue::Fail)?;
            }
            V::I(r)
        }
        Op::Sub => {
            let (f, rest) = xs.split_first().ok_or(NoValue::Fail)?;
            let mut r = int(f)?;
            if rest.is_empty() {
                return ov(r.checked_neg());
            }
            for x in rest {
                r = r.checked_sub(int(x)?).ok_or(NoValue::Fail)?;
            }
            V::I(r)
        }
        Op::Neg => ov(int(first()?)?.checked_neg())?,
        Op::Abs => ov(int(first()?)?.checked_abs())?,
        Op::Mod => match xs {
            [a, b] => ov(euclid_mod(int(a)?, int(b)?))?,
            _ => return Err(NoValue::Fail),
        },
        Op::IntDiv => {
            let (f, rest) = xs.split_first().ok_or(NoValue::Fail)?;
            let mut r = int(f)?;
            for x in rest {
                r = euclid_div(r, int(x)?).ok_or(NoValue::Fail)?;
            }
            V::I(r)
        }
        Op::Le => cmp(|a, b| a <= b)?,
        Op::Lt => cmp(|a, b| a < b)?,
        Op::Ge => cmp(|a, b| a >= b)?,
        Op::Gt => cmp(|a, b| a > b)?,
        _ => return Err(NoValue::Fail),
    })
}

/// The conjuncts of `t` (nested `and`s flattened).
fn conjuncts(store: &TermStore, t: TermId) -> Vec<TermId> {
    let mut out = Vec::new();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if matches!(store.op(u), Op::And) {
            stack.extend(store.args(u).iter().rev().copied());
        } else {
            out.push(u);
        }
    }
    out
}

/// The successor of `state` through the linear clause `c` by evaluation: `Ok(None)` when the
/// clause does not apply, `Err(Unbound)` when a variable stays free (a havoc: ask SMT).
fn step_eval(
    store: &TermStore,
    c: &Clause,
    parts: &mut [TermId],
    state: &[i128],
) -> Result<Option<Vec<i128>>, NoValue> {
    let mut env: FxHashMap<VarId, i128> = FxHashMap::default();
    let mut checks: Vec<(TermId, i128)> = Vec::new();
    if let Some(b) = c.body.first() {
        for (&a, &v) in b.args.iter().zip(state) {
            match store.as_var(a) {
                Some(x) if !env.contains_key(&x) => {
                    env.insert(x, v);
                }
                _ => checks.push((a, v)),
            }
        }
    }
    for &(a, v) in &checks {
        if eval(store, a, &env)? != V::I(v) {
            return Ok(None);
        }
    }
    // Bind `x = t` equations until nothing changes; a false conjunct ends the step early.
    let mut pending: Vec<TermId> = parts.to_vec();
    // The order in which the conjuncts resolved: the next step of the same clause tries
    // them in that order, so that each is evaluated once.
    let mut order: Vec<TermId> = Vec::with_capacity(parts.len());
    loop {
        let mut progress = false;
        let mut rest = Vec::new();
        for &p in &pending {
            match eval(store, p, &env) {
                Ok(V::B(true)) => {
                    progress = true;
                    order.push(p);
                }
                Ok(V::B(false)) => return Ok(None),
                Ok(V::I(_)) => return Err(NoValue::Fail),
                Err(NoValue::Fail) => return Err(NoValue::Fail),
                Err(NoValue::Unbound) => {
                    let bound = solve_for_one(store, p, &mut env);
                    if bound {
                        progress = true;
                        order.push(p);
                    } else {
                        rest.push(p);
                    }
                }
            }
        }
        if rest.is_empty() {
            parts.copy_from_slice(&order);
            break;
        }
        if !progress {
            return Err(NoValue::Unbound);
        }
        pending = rest;
    }
    let Some(h) = &c.head else {
        return Ok(None);
    };
    let mut next = Vec::with_capacity(h.args.len());
    for &a in &h.args {
        match eval(store, a, &env)? {
            V::I(i) => next.push(i),
            V::B(_) => return Err(NoValue::Fail),
        }
    }
    Ok(Some(next))
}

/// Binds the one unbound variable `x` of the integer equation `p` when `p` is affine in `x`
/// with a coefficient that divides the rest (`D − ite(..) = 0`, `A − C = −1`); true if it did.
fn solve_for_one(store: &TermStore, p: TermId, env: &mut FxHashMap<VarId, i128>) -> bool {
    let args = store.args(p);
    if !matches!(store.op(p), Op::Eq) || args.len() != 2 || !store.sort(args[0]).is_arith() {
        return false;
    }
    let unbound: Vec<VarId> = free_vars(store, p)
        .into_iter()
        .filter(|v| !env.contains_key(v))
        .collect();
    let [x] = unbound[..] else { return false };
    let mut at = |v: i128| -> Option<i128> {
        env.insert(x, v);
        let l = eval(store, args[0], env);
        let r = eval(store, args[1], env);
        env.remove(&x);
        match (l, r) {
            (Ok(V::I(a)), Ok(V::I(b))) => a.checked_sub(b),
            _ => None,
        }
    };
    let (Some(e0), Some(e1), Some(e2)) = (at(0), at(1), at(2)) else {
        return false;
    };
    let slope = e1 - e0;
    if slope == 0 || e2 - e1 != slope || e0 % slope != 0 {
        return false;
    }
    let val = -e0 / slope;
    if at(val) != Some(0) {
        return false;
    }
    env.insert(x, val);
    true
}

fn as_i128(v: &Value) -> Option<i128> {
    match v {
        Value::Num(r) if r.is_integer() => r.to_i64().map(i128::from),
        _ => None,
    }
}

/// Up to `max` successors of `state` through `c` from SMT models (the facts' initial states
/// when `c` has no body), kept apart by blocking clauses.
fn step_smt(
    store: &mut TermStore,
    c: &Clause,
    state: &[i128],
    max: usize,
    ctl: &Control,
) -> Vec<Vec<i128>> {
    let Some(h) = &c.head else {
        return Vec::new();
    };
    let mut s = SmtSolver::new();
    s.set_limits(cove_smt::Limits::of(ctl));
    s.assert(store, c.constraint);
    if let Some(b) = c.body.first() {
        for (&a, &v) in b.args.iter().zip(state) {
            let k = store.mk_int(v as i64);
            let eq = store.mk_eq(a, k);
            s.assert(store, eq);
        }
    }
    let mut out = Vec::new();
    while out.len() < max && ctl.should_stop().is_none() {
        if s.check(store) != SmtResult::Sat {
            break;
        }
        let m = s.model(store);
        let vals: Option<Vec<i128>> = h
            .args
            .iter()
            .map(|&a| m.eval(store, a).ok().as_ref().and_then(as_i128))
            .collect();
        let Some(vals) = vals else { break };
        let diff: Vec<TermId> = h
            .args
            .iter()
            .zip(&vals)
            .map(|(&a, &v)| {
                let k = store.mk_int(v as i64);
                let eq = store.mk_eq(a, k);
                store.mk_not(eq)
            })
            .collect();
        let block = store.mk_or(&diff);
        s.assert(store, block);
        out.push(vals);
    }
    out
}

/// The states the runs reach, per predicate (each state once).
fn simulate(
    store: &mut TermStore,
    sys: &ChcSystem,
    ctl: &Control,
) -> Result<FxHashMap<FuncId, Vec<Vec<i128>>>, UnknownReason> {
    let mut seen: FxHashSet<(FuncId, Vec<i128>)> = FxHashSet::default();
    let mut out: FxHashMap<FuncId, Vec<Vec<i128>>> = FxHashMap::default();
    let mut work: Vec<(FuncId, Vec<i128>)> = Vec::new();
    let mut smt_steps = 0usize;
    let mut parts: Vec<Vec<TermId>> = sys
        .clauses
        .iter()
        .map(|c| conjuncts(store, c.constraint))
        .collect();
    // Initial states, interleaved over the fact clauses' models so that each run gets its
    // share of the budget.
    for c in sys.clauses.iter().filter(|c| c.body.is_empty()) {
        let Some(h) = &c.head else { continue };
        for s in step_smt(store, c, &[], MAX_INITS, ctl) {
            if seen.insert((h.pred, s.clone())) {
                work.push((h.pred, s));
            }
        }
    }
    // Depth-first from each initial state in turn (the runs of a deterministic loop are
    // followed to their end); the initial states themselves are recorded first.
    for (p, s) in &work {
        out.entry(*p).or_default().push(s.clone());
    }
    // Each initial state gets an equal share of the states: a run from the first one must
    // not use up the budget the runs from the others need (a free parameter like `D >= 0`
    // decides where the phases start, and the hull of a phase needs several of its values).
    let roots = std::mem::take(&mut work);
    let budget = (MAX_STATES / roots.len().max(1)).max(1);
    for root in roots {
        let mut stack = vec![root];
        let mut count = 0usize;
        while let Some((p, s)) = stack.pop() {
            if let Some(r) = ctl.should_stop() {
                return Err(r);
            }
            ctl.charge(1);
            if count >= budget {
                break;
            }
            for (c, ps) in sys.clauses.iter().zip(parts.iter_mut()) {
                let (Some(b), Some(h)) = (c.body.first(), &c.head) else {
                    continue;
                };
                if b.pred != p {
                    continue;
                }
                let succs = match step_eval(store, c, ps, &s) {
                    Ok(Some(n)) => vec![n],
                    Ok(None) => Vec::new(),
                    Err(NoValue::Unbound) if smt_steps < MAX_SMT_STEPS => {
                        smt_steps += 1;
                        step_smt(store, c, &s, 1, ctl)
                    }
                    Err(_) => Vec::new(),
                };
                for n in succs {
                    if seen.insert((h.pred, n.clone())) {
                        count += 1;
                        out.entry(h.pred).or_default().push(n.clone());
                        stack.push((h.pred, n));
                    }
                }
            }
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Guards and candidates.

/// Per predicate: the comparisons of the clauses over one body occurrence's argument
/// variables, over the predicate's parameters (candidate guards, before the runs filter
/// them).
fn guards(
    store: &mut TermStore,
    sys: &ChcSystem,
    params: &FxHashMap<FuncId, Vec<VarId>>,
) -> FxHashMap<FuncId, Vec<TermId>> {
    let mut out: FxHashMap<FuncId, Vec<TermId>> = FxHashMap::default();
    for c in &sys.clauses {
        let Some(b) = c.body.first() else { continue };
        let mut cmps = Vec::new();
        comparisons(store, c.constraint, &mut cmps);
        let mut m: FxHashMap<VarId, TermId> = FxHashMap::default();
        let mut twice = FxHashSet::default();
        for (a, &p) in b.args.iter().zip(&params[&b.pred]) {
            if let Some(v) = store.as_var(*a) {
                let pt = store.mk_var(p);
                if m.insert(v, pt).is_some() {
                    twice.insert(v);
                }
            }
        }
        for v in twice {
            m.remove(&v);
        }
        let l = out.entry(b.pred).or_default();
        for a in cmps {
            let vs = free_vars(store, a);
            if !vs.is_empty() && vs.iter().all(|v| m.contains_key(v)) {
                let t = cove_logic::substitute(store, a, &m);
                if !l.contains(&t) {
                    l.push(t);
                }
            }
        }
    }
    out
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The affine hull of a set of integer points, kept as integer equations `a·x = c`.
struct Hull {
    n: usize,
    base: Option<Vec<i128>>,
    /// Spanning differences (rational row echelon form).
    rows: Vec<Vec<Rational>>,
    /// The equations: coefficients and right-hand side.
    eqs: Vec<(Vec<i128>, i128)>,
    /// An overflow made the equations unreliable.
    broken: bool,
}

impl Hull {
    fn new(n: usize) -> Hull {
        Hull {
            n,
            base: None,
            rows: Vec::new(),
            eqs: Vec::new(),
            broken: false,
        }
    }

    fn holds(&self, x: &[i128]) -> bool {
        self.eqs.iter().all(|(a, c)| {
            let mut s: i128 = 0;
            for (ai, xi) in a.iter().zip(x) {
                match ai.checked_mul(*xi).and_then(|p| s.checked_add(p)) {
                    Some(v) => s = v,
                    None => return false,
                }
            }
            s == *c
        })
    }

    fn add(&mut self, x: &[i128]) {
        if self.broken {
            return;
        }
        let Some(base) = &self.base else {
            self.base = Some(x.to_vec());
            self.recompute();
            return;
        };
        if self.holds(x) {
            return;
        }
        // Reduce the new difference against the echelon rows.
        let mut d: Vec<Rational> = x
            .iter()
            .zip(base)
            .map(|(a, b)| Rational::from((a - b) as i64))
            .collect();
        for r in &self.rows {
            let Some(piv) = r.iter().position(|q| !q.is_zero()) else {
                continue;
            };
            if !d[piv].is_zero() {
                let f = d[piv].clone() / r[piv].clone();
                for (dj, rj) in d.iter_mut().zip(r) {
                    *dj -= &(f.clone() * rj.clone());
                }
            }
        }
        if d.iter().all(Rational::is_zero) {
            return;
        }
        self.rows.push(d);
        self.recompute();
    }

    /// The equations from the rows: a basis of their null space, scaled to integers.
    fn recompute(&mut self) {
        let n = self.n;
        // Reduced row echelon form of the rows.
        let mut m = self.rows.clone();
        let mut pivots: Vec<usize> = Vec::new();
        let mut r = 0;
        for col in 0..n {
            let Some(k) = (r..m.len()).find(|&k| !m[k][col].is_zero()) else {
                continue;
            };
            m.swap(r, k);
            let p = m[r][col].clone();
            for q in m[r].iter_mut() {
                *q = q.clone() / p.clone();
            }
            let pivot_row = m[r].clone();
            for (k, row) in m.iter_mut().enumerate() {
                if k != r && !row[col].is_zero() {
                    let f = row[col].clone();
                    for (q, pr) in row.iter_mut().zip(&pivot_row) {
                        let t = f.clone() * pr.clone();
                        *q -= &t;
                    }
                }
            }
            pivots.push(col);
            r += 1;
        }
        let Some(base) = &self.base else { return };
        let mut eqs = Vec::new();
        for free in (0..n).filter(|c| !pivots.contains(c)) {
            // x_free = 1, x_pivot(i) = -m[i][free].
            let mut coef = vec![Rational::from(0); n];
            coef[free] = Rational::from(1);
            for (i, &pc) in pivots.iter().enumerate() {
                coef[pc] = -m[i][free].clone();
            }
            let mut l: i128 = 1;
            for q in &coef {
                let d = match Rational::from_bigint(q.denom()).to_i64() {
                    Some(d) => i128::from(d),
                    None => {
                        self.broken = true;
                        return;
                    }
                };
                l = match l.checked_mul(d) {
                    Some(x) => x / gcd(l, d),
                    None => {
                        self.broken = true;
                        return;
                    }
                };
            }
            let mut a = Vec::with_capacity(n);
            for q in &coef {
                let Some(v) = (q.clone() * Rational::from(l as i64)).to_i64() else {
                    self.broken = true;
                    return;
                };
                a.push(v as i128);
            }
            let g = a.iter().fold(0, |g, &x| gcd(g, x));
            if g > 1 {
                a.iter_mut().for_each(|x| *x /= g);
            }
            let mut c: i128 = 0;
            for (ai, bi) in a.iter().zip(base) {
                match ai.checked_mul(*bi).and_then(|p| c.checked_add(p)) {
                    Some(v) => c = v,
                    None => {
                        self.broken = true;
                        return;
                    }
                }
            }
            eqs.push((a, c));
        }
        self.eqs = eqs;
    }
}

/// What one cell's states keep: affine hull, bounds, congruences.
struct CellFacts {
    hull: Hull,
    lo: Vec<i128>,
    hi: Vec<i128>,
    /// Linear forms (coefficient vectors) with their value at the first state, the gcd of
    /// their differences, and their least and greatest values.
    forms: Vec<(Vec<i128>, i128, i128, i128, i128)>,
    count: usize,
}

impl CellFacts {
    fn new(n: usize, forms: &[Vec<i128>]) -> CellFacts {
        CellFacts {
            hull: Hull::new(n),
            lo: vec![i128::MAX; n],
            hi: vec![i128::MIN; n],
            forms: forms
                .iter()
                .map(|f| (f.clone(), 0, 0, i128::MAX, i128::MIN))
                .collect(),
            count: 0,
        }
    }

    fn add(&mut self, x: &[i128]) {
        self.hull.add(x);
        for (i, &v) in x.iter().enumerate() {
            self.lo[i] = self.lo[i].min(v);
            self.hi[i] = self.hi[i].max(v);
        }
        for (f, first, g, lo, hi) in &mut self.forms {
            let v: i128 = f.iter().zip(x).map(|(a, b)| a * b).sum();
            *lo = (*lo).min(v);
            *hi = (*hi).max(v);
            if self.count == 0 {
                *first = v;
            } else {
                *g = gcd(*g, v - *first);
            }
        }
        self.count += 1;
    }
}

/// `Σ a_i·x_i` as a term.
fn linear(store: &mut TermStore, a: &[i128], xs: &[TermId]) -> TermId {
    let mut parts = Vec::new();
    for (&ai, &x) in a.iter().zip(xs) {
        match ai {
            0 => {}
            1 => parts.push(x),
            _ => {
                let k = store.mk_int(ai as i64);
                parts.push(store.mk_mul(&[k, x]));
            }
        }
    }
    match parts.len() {
        0 => store.mk_int(0),
        1 => parts[0],
        _ => store.mk_add(&parts),
    }
}

/// The facts of `cell` as formulas over `xs`.
fn facts(
    store: &mut TermStore,
    cell: &CellFacts,
    xs: &[TermId],
    moduli: &[i128],
    octagon: bool,
) -> Vec<TermId> {
    let mut out = Vec::new();
    if !cell.hull.broken {
        for (a, c) in &cell.hull.eqs {
            if a.iter().any(|x| x.abs() > MAX_COEFF) || c.abs() > MAX_CONST {
                continue;
            }
            let l = linear(store, a, xs);
            let k = store.mk_int(*c as i64);
            out.push(store.mk_eq(l, k));
        }
    }
    for (i, &x) in xs.iter().enumerate() {
        if cell.lo[i] == cell.hi[i] {
            continue; // an equation of the hull
        }
        if cell.lo[i].abs() <= MAX_CONST {
            let lo = store.mk_int(cell.lo[i] as i64);
            out.push(store.mk_ge(x, lo));
        }
        if cell.hi[i].abs() <= MAX_CONST {
            let hi = store.mk_int(cell.hi[i] as i64);
            out.push(store.mk_le(x, hi));
        }
    }
    for (f, first, g, lo, hi) in &cell.forms {
        // Octagonal bounds (sums and differences of two parameters), when asked for.
        if octagon && f.iter().filter(|&&a| a != 0).count() == 2 && lo != hi {
            let l = linear(store, f, xs);
            for (v, upper) in [(*lo, false), (*hi, true)] {
                if v.abs() <= MAX_CONST {
                    let k = store.mk_int(v as i64);
                    out.push(if upper {
                        store.mk_le(l, k)
                    } else {
                        store.mk_ge(l, k)
                    });
                }
            }
        }
        for &k in moduli {
            if *g != 0 && g % k == 0 {
                let l = linear(store, f, xs);
                let kt = store.mk_int(k as i64);
                let m = store.mk_raw(Op::Mod, &[l, kt], Sort::Int);
                let r = store.mk_int(first.rem_euclid(k) as i64);
                out.push(store.mk_eq(m, r));
            }
        }
    }
    out
}

/// The candidates of one predicate (parameters `params`, candidate guards `gs`) from its
/// reached states.
fn candidates(
    store: &mut TermStore,
    params: &[VarId],
    gs: &[TermId],
    states: &[Vec<i128>],
    moduli: &[i128],
    ctl: &Control,
) -> Result<Vec<TermId>, UnknownReason> {
    let n = params.len();
    let xs: Vec<TermId> = params.iter().map(|&p| store.mk_var(p)).collect();
    // Linear forms for congruences: each parameter, and sums and differences of two.
    let mut forms: Vec<Vec<i128>> = Vec::new();
    for i in 0..n {
        let mut f = vec![0; n];
        f[i] = 1;
        forms.push(f);
        if n <= 6 {
            for j in i + 1..n {
                for s in [1, -1] {
                    let mut f = vec![0; n];
                    f[i] = 1;
                    f[j] = s;
                    forms.push(f);
                }
            }
        }
    }
    // Guards the runs see both ways, with their values per state.
    let env_of = |s: &[i128]| -> FxHashMap<VarId, i128> {
        params.iter().copied().zip(s.iter().copied()).collect()
    };
    let mut kept: Vec<TermId> = Vec::new();
    let mut columns: Vec<Vec<bool>> = Vec::new();
    for &g in gs {
        if kept.len() >= MAX_GUARDS {
            break;
        }
        let mut col = Vec::with_capacity(states.len());
        for s in states {
            match eval(store, g, &env_of(s)) {
                Ok(V::B(b)) => col.push(b),
                _ => break,
            }
        }
        if col.len() == states.len() && col.iter().any(|&b| b) && col.iter().any(|&b| !b) {
            // Skip a guard equivalent (on the states) to one already kept.
            if columns
                .iter()
                .any(|c| c == &col || c.iter().zip(&col).all(|(a, b)| a != b))
            {
                continue;
            }
            kept.push(g);
            columns.push(col);
        }
        if let Some(r) = ctl.should_stop() {
            return Err(r);
        }
    }
    let mut all = CellFacts::new(n, &forms);
    let mut cells: FxHashMap<u32, CellFacts> = FxHashMap::default();
    for (k, s) in states.iter().enumerate() {
        all.add(s);
        let key = columns
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, c)| acc | (u32::from(c[k]) << i));
        cells
            .entry(key)
            .or_insert_with(|| CellFacts::new(n, &forms))
            .add(s);
    }
    let mut out = facts(store, &all, &xs, moduli, true);
    let lits: Vec<[TermId; 2]> = kept
        .iter()
        .map(|&g| {
            let ng = store.mk_not(g);
            [ng, g]
        })
        .collect();
    let cell_formula = |store: &mut TermStore, key: u32| {
        let ls: Vec<TermId> = lits
            .iter()
            .enumerate()
            .map(|(i, l)| l[((key >> i) & 1) as usize])
            .collect();
        store.mk_and(&ls)
    };
    if !kept.is_empty() {
        let mut keys: Vec<u32> = cells.keys().copied().collect();
        keys.sort_unstable();
        for key in keys {
            let phi = cell_formula(store, key);
            for f in facts(store, &cells[&key], &xs, &[], false) {
                out.push(store.mk_implies(phi, f));
            }
        }
        for key in 0..(1u32 << kept.len()) {
            if !cells.contains_key(&key) {
                let phi = cell_formula(store, key);
                out.push(store.mk_not(phi));
            }
        }
    }
    let small = |v: &i128| i64::try_from(*v).is_ok();
    if states.len() <= MAX_EXPLICIT && states.iter().all(|st| st.iter().all(small)) {
        let points: Vec<TermId> = states
            .iter()
            .map(|st| {
                let eqs: Vec<TermId> = xs
                    .iter()
                    .zip(st)
                    .map(|(&x, &v)| {
                        let c = store.mk_int(v as i64);
                        store.mk_eq(x, c)
                    })
                    .collect();
                store.mk_and(&eqs)
            })
            .collect();
        // First, so the truncation below never drops it.
        let exact = store.mk_or(&points);
        out.insert(0, exact);
    }
    let mut seen = FxHashSet::default();
    out.retain(|t| seen.insert(*t) && store.as_bool(*t).is_none());
    out.truncate(MAX_CANDIDATES);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(src: &str) -> ChcResult {
        let mut store = TermStore::new();
        let sys = crate::frontend::parse_chc(src.as_bytes(), &mut store).expect("parses");
        let ctl = Control::default().with_work_budget(2_000_000);
        let r = Phases::default().solve(&mut store, &sys, &ctl);
        if let ChcResult::Sat(inv) = &r {
            crate::cert::check_invariants(&mut store, &sys, inv, &ctl).expect("valid invariants");
        }
        r
    }

    /// aeval's `s_split_01` shape: `b` stays at 50 until the counter `a` reaches 50, then
    /// follows it. The invariant is `(a < 50 → b = 50) ∧ (a >= 50 → b = a)`.
    fn split(bad: i64) -> String {
        format!(
            "(set-logic HORN)(declare-fun inv (Int Int) Bool)
            (assert (forall ((a Int) (b Int)) (=> (and (= a 0) (= b 50)) (inv a b))))
            (assert (forall ((a Int) (b Int) (c Int) (d Int))
              (=> (and (inv a b) (= d (ite (>= a 50) (+ 1 b) b)) (= c (+ 1 a))) (inv c d))))
            (assert (forall ((a Int) (b Int)) (=> (and (inv b a) (= b 100) (not (= a {bad}))) false)))"
        )
    }

    #[test]
    fn proves_a_two_phase_counter() {
        assert!(matches!(solve(&split(100)), ChcResult::Sat(_)));
    }

    #[test]
    fn never_proves_an_unsafe_two_phase_counter() {
        assert!(!matches!(solve(&split(99)), ChcResult::Sat(_)));
    }

    /// A counter modulo 20 with two halves (aeval's `s_split_16` shape): `c` counts the
    /// steps in the first half, `d` those in the second; after a whole number of rounds they
    /// agree. Needs the congruence `(b - a) mod 20 = 0` and the per-half equations.
    fn rounds(n: i64) -> String {
        format!(
            "(set-logic HORN)(declare-fun inv (Int Int Int Int) Bool)
            (assert (forall ((a Int) (b Int) (c Int) (d Int))
              (=> (and (= a 0) (= b 0) (= c 0) (= d 0)) (inv a b c d))))
            (assert (forall ((a Int) (b Int) (c Int) (d Int) (e Int) (f Int) (g Int) (h Int))
              (=> (and (inv a b c d) (= f (+ 1 b)) (= g (ite (<= 10 a) c (+ 1 c)))
                       (= h (ite (<= 10 a) (+ 1 d) d)) (= e (mod (+ 1 a) 20)))
                  (inv e f g h))))
            (assert (forall ((a Int) (b Int) (c Int) (d Int))
              (=> (and (inv a b c d) (not (= c d)) (= b {n})) false)))"
        )
    }

    #[test]
    fn proves_rounds_of_a_wrapping_counter() {
        assert!(matches!(solve(&rounds(1000)), ChcResult::Sat(_)));
    }

    #[test]
    fn never_proves_rounds_at_a_half() {
        assert!(!matches!(solve(&rounds(1010)), ChcResult::Sat(_)));
    }

    /// aeval's `s_split_25` shape: `a` counts up and `b` down modulo 10, `c` counts the
    /// steps since they last met (every 5 steps), so `c <= 5` — true of the 10 reachable
    /// states, but not expressible as per-phase equations or bounds over `a = b`.
    fn meeting(bound: i64) -> String {
        format!(
            "(set-logic HORN)(declare-fun inv (Int Int Int) Bool)
            (assert (forall ((a Int) (b Int) (c Int)) (=> (and (= a 0) (= b 10) (= c 0)) (inv a b c))))
            (assert (forall ((a Int) (b Int) (c Int) (d Int) (e Int) (f Int))
              (=> (and (inv a b c) (= e (mod (+ 9 b) 10)) (= f (ite (= a b) 0 (+ 1 c)))
                       (= d (mod (+ 1 a) 10)))
                  (inv d e f))))
            (assert (forall ((a Int) (b Int) (c Int)) (=> (and (inv a b c) (> c {bound})) false)))"
        )
    }

    #[test]
    fn proves_a_finite_cycle_by_its_states() {
        assert!(matches!(solve(&meeting(5)), ChcResult::Sat(_)));
    }

    #[test]
    fn never_proves_a_finite_cycle_that_reaches_the_query() {
        assert!(!matches!(solve(&meeting(4)), ChcResult::Sat(_)));
    }

    #[test]
    fn evaluates_smtlib_div_and_mod() {
        assert_eq!(euclid_mod(-7, 3), Some(2));
        assert_eq!(euclid_div(-7, 3), Some(-3));
        assert_eq!(euclid_mod(7, -3), Some(1));
        assert_eq!(euclid_div(7, -3), Some(-2));
        assert_eq!(euclid_mod(1, 0), None);
    }
}
