//! Invariants over the clauses' own terms: syntax-guided candidates filtered by Houdini.
//!
//! Model-based projection and Farkas generalization (Spacer, spacer-abs) build lemmas from
//! the linear atoms of the cubes they meet; the quotient of a `div` or `mod` becomes a fresh
//! variable that is projected away, so a lemma can never mention `(div (div x 10) 10)` even
//! when the invariant needs exactly that term. Two programs that count the digits of the same
//! number in different strides (llreve's `loop__digits10_inl`) are related only through such
//! terms: `x = y div 10` and "the counters agree while the second loop runs". z3 finds these
//! because its lemmas reuse the clauses' terms; this engine does the same, FreqHorn / ICE
//! style, with the language fixed in advance:
//!
//! - **atoms**, per predicate: every comparison in a clause constraint whose variables are
//!   all arguments of one predicate occurrence (body or head), read over the predicate's
//!   parameters, in both polarities; `x_i = t` for a head argument `t` that is a term over the
//!   clause's argument variables (how facts define one argument through another:
//!   `P(y div 10, y)`); and, from the values the facts determine, `x_i ⋈ v_i` and
//!   `x_i − x_j ⋈ v_i − v_j` for `⋈ ∈ {=, <=, >=}` (counters that start together);
//! - **guards**: the atoms of the query clauses, both polarities (they split the state space
//!   where the property is decided: "loop 2 finished", "loop 1 finished");
//! - **candidates**: every atom, and `g → a` for every guard `g` and atom `a`.
//!
//! Houdini (`engines::abs::invs::houdini`, shared with spacer-abs and the bounds pass)
//! keeps the maximal inductive subset. If it excludes every query, it is the answer's
//! invariant (checked like every other answer by the driver's independent checker);
//! otherwise the engine answers unknown. Candidates come from syntax only and Houdini keeps only inductive ones, so the
//! language affects which safe systems are proved, never soundness.

use crate::engine::{Control, Engine, Stats};
use crate::engines::abs::invmap::InvMap;
use crate::engines::abs::invs::houdini;
use crate::preprocess::bounds::initial_values;
use crate::result::{ChcResult, UnknownReason};
use crate::system::{ChcSystem, PredApp};
use cove_logic::{FuncId, Op, Sort, TermId, TermStore, Value, VarId, free_vars, substitute};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::{FxHashMap, FxHashSet};

/// Predicates with more arguments than this get no candidates.
const MAX_ARITY: usize = 16;
/// At most this many atoms per predicate (before the guards multiply them).
const MAX_ATOMS: usize = 160;
/// At most this many guards per predicate.
const MAX_GUARDS: usize = 12;
/// At most this many fact clauses are asked for initial values.
const MAX_FACTS: usize = 16;
/// At most this many clauses: Houdini checks every clause per round.
const MAX_CLAUSES: usize = 200;

/// The engine (`--engine terms`).
#[derive(Default)]
pub struct TermHoudini {
    stats: Stats,
}

impl Engine for TermHoudini {
    fn name(&self) -> &'static str {
        "terms"
    }

    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult {
        if let Some(why) = crate::system::unsupported_feature(sys, store) {
            return ChcResult::Unknown(UnknownReason::Unsupported(why));
        }
        if sys.clauses.len() > MAX_CLAUSES {
            return ChcResult::Unknown(UnknownReason::Incomplete("terms: too many clauses".into()));
        }
        let mut map = InvMap::new(store, sys);
        candidates(store, sys, &mut map, ctl);
        let start = map.size();
        self.stats = vec![("terms-candidates".into(), start.to_string())];
        if start == 0 {
            return ChcResult::Unknown(UnknownReason::Incomplete("terms: no candidates".into()));
        }
        if ctl.verbosity > 2 {
            eprintln!("{}", sys.to_smtlib(store));
            for set in map.sets.values() {
                for &f in set {
                    eprintln!("terms: candidate {}", store.display(f));
                }
            }
        }
        if let Err(r) = houdini(store, sys, &mut map, ctl) {
            return ChcResult::Unknown(r);
        }
        self.stats
            .push(("terms-inductive".into(), map.size().to_string()));
        if ctl.verbosity > 0 {
            eprintln!("terms: {} of {start} candidates inductive", map.size());
        }
        match excludes_queries(store, sys, &map, ctl) {
            Ok(true) => ChcResult::Sat(map.invariants(store)),
            Ok(false) => ChcResult::Unknown(UnknownReason::Incomplete(
                "terms: the inductive candidates do not exclude the queries".into(),
            )),
            Err(r) => ChcResult::Unknown(r),
        }
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

/// True if no query clause is satisfiable under `map`.
fn excludes_queries(
    store: &mut TermStore,
    sys: &ChcSystem,
    map: &InvMap,
    ctl: &Control,
) -> Result<bool, UnknownReason> {
    for c in sys.clauses.iter().filter(|c| c.head.is_none()) {
        let mut s = SmtSolver::new();
        s.set_limits(cove_smt::Limits::of(ctl));
        s.assert(store, c.constraint);
        for b in &c.body {
            let t = map.apply(store, b.pred, &b.args);
            s.assert(store, t);
        }
        match s.check(store) {
            SmtResult::Unsat => {}
            SmtResult::Sat => return Ok(false),
            r => {
                return Err(ctl
                    .should_stop()
                    .unwrap_or_else(|| UnknownReason::Incomplete(format!("terms: SMT {r:?}"))));
            }
        }
    }
    Ok(true)
}

/// The comparisons (arithmetic `<=, <, >=, >, =, distinct`) in the Boolean structure of `t`.
fn comparisons(store: &TermStore, t: TermId, out: &mut Vec<TermId>) {
    let mut stack = vec![t];
    let mut seen = FxHashSet::default();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        let args = store.args(t);
        match store.op(t) {
            Op::Le | Op::Lt | Op::Ge | Op::Gt => out.push(t),
            Op::Eq | Op::Distinct if store.sort(args[0]).is_arith() => out.push(t),
            Op::Not | Op::And | Op::Or | Op::Implies | Op::Xor | Op::Eq | Op::Ite => {
                // Reversed, so that the atoms come out in the order they are written.
                stack.extend(args.iter().rev().copied())
            }
            _ => {}
        }
    }
}

/// The predicate's parameters for the argument variables of `app` (an argument that is not a
/// variable, or a variable given twice, is skipped).
fn arg_map(store: &mut TermStore, app: &PredApp, params: &[VarId]) -> FxHashMap<VarId, TermId> {
    let mut m = FxHashMap::default();
    let mut twice = FxHashSet::default();
    for (a, &p) in app.args.iter().zip(params) {
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
    m
}

/// `t` over `app`'s parameters, if every variable of `t` is an argument variable of `app`
/// and `t` has at least one.
fn over_params(store: &mut TermStore, t: TermId, m: &FxHashMap<VarId, TermId>) -> Option<TermId> {
    let vs = free_vars(store, t);
    (!vs.is_empty() && vs.iter().all(|v| m.contains_key(v))).then(|| substitute(store, t, m))
}

/// Per predicate: its atoms and guards (see the module doc).
#[derive(Default)]
struct Lang {
    atoms: Vec<TermId>,
    guards: Vec<TermId>,
}

fn push_both(store: &mut TermStore, out: &mut Vec<TermId>, t: TermId) {
    let n = store.mk_not(t);
    out.extend([t, n]);
}

/// Fills `map` with the candidates of every predicate of arity at most [`MAX_ARITY`].
fn candidates(store: &mut TermStore, sys: &ChcSystem, map: &mut InvMap, ctl: &Control) {
    let mut lang: FxHashMap<FuncId, Lang> = FxHashMap::default();
    for c in &sys.clauses {
        let mut occs: Vec<&PredApp> = c.body.iter().collect();
        occs.extend(c.head.as_ref());
        let mut cmps = Vec::new();
        comparisons(store, c.constraint, &mut cmps);
        for app in occs {
            let params = map.params[&app.pred].clone();
            if params.len() > MAX_ARITY {
                continue;
            }
            let m = arg_map(store, app, &params);
            let l = lang.entry(app.pred).or_default();
            for &a in &cmps {
                if let Some(t) = over_params(store, a, &m) {
                    if c.head.is_none() {
                        push_both(store, &mut l.guards, t);
                    } else {
                        push_both(store, &mut l.atoms, t);
                    }
                }
            }
            // An argument given as a term (or a constant) over the occurrence's argument
            // variables: `P(y div 10, y)` says `x_0 = x_1 div 10`, a query `P(x, 0)` that
            // the property is decided where `x_1 = 0`.
            for (a, &p) in app.args.iter().zip(&params) {
                if store.as_var(*a).is_some() || !store.sort(*a).is_arith() {
                    continue;
                }
                let vs = free_vars(store, *a);
                if vs.iter().all(|v| m.contains_key(v)) {
                    let t = substitute(store, *a, &m);
                    let x = store.mk_var(p);
                    let eq = store.mk_eq(x, t);
                    if c.head.is_none() {
                        push_both(store, &mut l.guards, eq);
                    } else {
                        push_both(store, &mut l.atoms, eq);
                    }
                }
            }
        }
    }
    // Bounds and differences at the values the facts determine.
    let init = initial_values(store, sys, MAX_FACTS, ctl);
    for (&p, states) in &init {
        let params = map.params[&p].clone();
        if params.len() > MAX_ARITY {
            continue;
        }
        let l = lang.entry(p).or_default();
        for s in states {
            let vals: Vec<(TermId, cove_logic::Rational)> = params
                .iter()
                .zip(s)
                .filter_map(|(&x, v)| match v {
                    Some(Value::Num(r)) if store.var_sort(x) == Sort::Int => {
                        Some((store.mk_var(x), r.clone()))
                    }
                    _ => None,
                })
                .collect();
            for (i, (x, vx)) in vals.iter().enumerate() {
                let k = store.mk_num(vx.clone(), Sort::Int);
                let le = store.mk_le(*x, k);
                let ge = store.mk_ge(*x, k);
                l.atoms.extend([le, ge]);
                for (y, vy) in &vals[i + 1..] {
                    let d = store.mk_sub(*x, *y);
                    let mut dv = vx.clone();
                    dv -= vy;
                    let k = store.mk_num(dv, Sort::Int);
                    let eq = store.mk_eq(d, k);
                    let le = store.mk_le(d, k);
                    let ge = store.mk_ge(d, k);
                    l.atoms.extend([eq, le, ge]);
                }
            }
        }
    }
    for (p, mut l) in lang {
        dedup(&mut l.atoms);
        dedup(&mut l.guards);
        l.atoms.truncate(MAX_ATOMS);
        l.guards.truncate(MAX_GUARDS);
        let mut set = l.atoms.clone();
        for &g in &l.guards {
            for &a in &l.atoms {
                if a != g {
                    set.push(store.mk_implies(g, a));
                }
            }
        }
        dedup(&mut set);
        set.retain(|&f| store.as_bool(f).is_none());
        if !set.is_empty() {
            map.sets.insert(p, set);
        }
    }
}

/// Removes repeated entries, keeping the first occurrence.
fn dedup(v: &mut Vec<TermId>) {
    let mut seen = FxHashSet::default();
    v.retain(|t| seen.insert(*t));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn solve(src: &str) -> ChcResult {
        let mut store = TermStore::new();
        let sys = crate::frontend::parse_chc(src.as_bytes(), &mut store).expect("parses");
        let ctl = Control {
            deadline: Some(Instant::now() + Duration::from_secs(20)),
            ..Default::default()
        };
        let r = TermHoudini::default().solve(&mut store, &sys, &ctl);
        if let ChcResult::Sat(inv) = &r {
            crate::cert::check_invariants(&mut store, &sys, inv, &ctl).expect("valid invariants");
        }
        r
    }

    /// `x` follows `y div 10` from the fact `P(y div 10, y)`: the invariant `x = y div 10`
    /// exists only as a term of the clauses.
    const SHIFT: &str = "(set-logic HORN)(declare-fun P (Int Int) Bool)
        (assert (forall ((y Int)) (=> (>= y 0) (P (div y 10) y))))
        (assert (forall ((x Int) (y Int))
          (=> (and (P x y) (>= y 10)) (P (div x 10) (div y 10)))))";

    #[test]
    fn proves_a_relation_stated_by_a_fact_s_div_term() {
        let src = format!(
            "{SHIFT}(assert (forall ((x Int) (y Int)) (=> (and (P x y) (< y 10) (> x 0)) false)))"
        );
        assert!(matches!(solve(&src), ChcResult::Sat(_)));
    }

    #[test]
    fn never_proves_an_unsafe_system() {
        // (x, y) = (1, 10) is reachable.
        let src =
            format!("{SHIFT}(assert (forall ((x Int) (y Int)) (=> (and (P x y) (>= x 1)) false)))");
        assert!(!matches!(solve(&src), ChcResult::Sat(_)));
    }

    /// Two phases: while `f` is set, `x` and `y` shrink together; then `f` drops. The proof
    /// needs the guarded `f = 0 → y <= 9` (a query atom guarding a clause atom) and the
    /// unguarded `x = y div 10`.
    const PHASES: &str = "(set-logic HORN)(declare-fun Q (Int Int Int) Bool)
        (assert (forall ((y Int)) (Q (div y 10) y 1)))
        (assert (forall ((x Int) (y Int) (f Int))
          (=> (and (Q x y f) (not (= f 0)) (>= y 10)) (Q (div x 10) (div y 10) f))))
        (assert (forall ((x Int) (y Int) (f Int))
          (=> (and (Q x y f) (not (= f 0)) (<= y 9)) (Q x y 0))))";

    #[test]
    fn proves_with_a_guard_from_the_query() {
        let src = format!(
            "{PHASES}(assert (forall ((x Int) (y Int)) (=> (and (Q x y 0) (> x 0)) false)))"
        );
        assert!(matches!(solve(&src), ChcResult::Sat(_)));
    }

    #[test]
    fn guarded_candidates_do_not_prove_a_reachable_state() {
        // y = 5, f = 0, x = 0 is reachable.
        let src = format!(
            "{PHASES}(assert (forall ((x Int) (y Int)) (=> (and (Q x y 0) (>= y 5)) false)))"
        );
        assert!(!matches!(solve(&src), ChcResult::Sat(_)));
    }
}
