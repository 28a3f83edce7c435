//! Pass 5: strengthening with inductive bounds.
//!
//! Spacer learns lemmas from the queries it is asked, so a bound that no counterexample
//! mentions is never learned, even when every useful lemma depends on it. The classic case is
//! a direction variable: `y` starts at `1` and flips sign at the ends of a range, and the
//! invariant `-100 <= x + y <= 100` is inductive only together with `-1 <= y <= 1`. Without
//! the bound, interpolation produces `x + k·y <= c` for ever larger `k`; with it, Spacer
//! solves such a loop in milliseconds. k-induction and the interpolation engines gain in the
//! same way (Kind 2 and JKind feed cheap invariant generators to k-induction for this reason).
//!
//! So, per predicate and numeric argument `x`, the candidates are `x <= c` and `x >= c` for
//! every `c` in `{0} ∪ {v, -v}` where `v` is a value some fact clause forces on `x` (and
//! `b = v` for a Boolean argument). Houdini keeps their maximal subset that is inductive for
//! the system, and of the surviving bounds of each argument and direction only the tightest
//! stays: that is `J`. The pass has a budget of its own ([`BUDGET`]); when it runs out, the
//! system is left as it is. As in [`crate::driver`]'s strengthening with shared lemmas, conjoining
//! `J(args)` to the constraint of every clause with a body changes no derivable fact, so the
//! output system has the same answer and the same derivations.
//!
//! # Back-translation
//! - Invariants: `Inv(P) := Inv'(P) ∧ J(P)`, which makes every input clause valid: a body
//!   satisfying `Inv' ∧ J` satisfies the strengthened constraint, so the head gets `Inv'`, and
//!   `J` by inductiveness.
//! - Derivations: unchanged (a derivation of the output system is one of the input system,
//!   step for step: same clauses, same values, constraints that only imply the input's).

use super::{BackError, BackTranslate};
use crate::engine::Control;
use crate::houdini::houdini;
use crate::invariant_map::InvMap;
use crate::result::{Derivation, Invariants};
use crate::system::ChcSystem;
use cove_logic::{FuncId, Rational, Sort, TermId, TermStore, Value};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::FxHashMap;

/// At most this many fact clauses are asked for a model.
const MAX_FACTS: usize = 64;
/// At most this many SMT checks find the initial values.
const MAX_CHECKS: usize = 512;
/// The pass's work budget (SAT conflicts and theory checks, [`cove_control::WorkBudget`]):
/// the pass finds the same bounds on every machine, however loaded. With the 1 s wall-clock
/// budget it had before, the wide LRA systems of the `azadmanesh-kieckhafer` family (0.8–1.2 s
/// and 6,000–7,500 units on a quiet machine) got their bounds in one run and none in the
/// next, and with them or without them k-induction proves or does not prove
/// `fault_free_revised_convergence` at k = 1. The most any `chc.tsv` file needs is 7,470
/// (docs/decisions.md#bounds-lazy-work-budget).
pub const WORK: u64 = 30_000;
/// The pass's time budget (within the caller's limits): a guard for systems whose checks are
/// dear, not the limit that decides on the benchmark files.
pub const BUDGET: std::time::Duration = std::time::Duration::from_secs(4);
/// Predicates with more arguments than this get no candidates (Houdini's checks grow with
/// the candidate count, and wide predicates come from large generated systems).
const MAX_ARITY: usize = 64;

/// The back-translator: the inductive bounds `J` per predicate.
pub struct Bounds {
    map: InvMap,
}

impl Bounds {
    /// How many bounds were added to the system (0 = the pass changed nothing).
    pub fn size(&self) -> usize {
        self.map.size()
    }
}

/// Per predicate and fact clause, the value of each argument that the fact determines
/// (`None` where the fact allows several values: a model's choice there is arbitrary, and a
/// bound at an arbitrary value — `y >= 53736240` from `y > 53736239` — is inductive without
/// saying anything useful, while it does change what the engines learn).
pub(crate) fn initial_values(
    store: &mut TermStore,
    sys: &ChcSystem,
    max_facts: usize,
    ctl: &Control,
) -> FxHashMap<FuncId, Vec<Vec<Option<Value>>>> {
    let mut init: FxHashMap<FuncId, Vec<Vec<Option<Value>>>> = FxHashMap::default();
    let mut checks = 0usize;
    for c in sys.clauses.iter().filter(|c| c.is_fact()).take(max_facts) {
        let Some(h) = &c.head else { continue };
        if ctl.should_stop().is_some() || checks >= MAX_CHECKS {
            break;
        }
        let mut s = SmtSolver::new();
        s.set_limits(cove_smt::Limits::of(ctl));
        s.assert(store, c.constraint);
        checks += 1;
        if s.check(store) != SmtResult::Sat {
            continue;
        }
        let m = s.model(store);
        let vals: Vec<Option<Value>> = h.args.iter().map(|a| m.eval(store, *a).ok()).collect();
        let mut fixed = Vec::with_capacity(vals.len());
        for (a, v) in h.args.iter().zip(vals) {
            let Some(v) = v else {
                fixed.push(None);
                continue;
            };
            let vt = match &v {
                Value::Bool(b) => store.mk_bool(*b),
                Value::Num(r) => store.mk_num(r.clone(), store.sort(*a)),
                _ => {
                    fixed.push(None);
                    continue;
                }
            };
            if checks >= MAX_CHECKS {
                fixed.push(None);
                continue;
            }
            let eq = store.mk_eq(*a, vt);
            let ne = store.mk_not(eq);
            checks += 1;
            let determined = s.check_assuming(store, &[ne]) == SmtResult::Unsat;
            fixed.push(determined.then_some(v));
        }
        init.entry(h.pred).or_default().push(fixed);
    }
    init
}

/// What a candidate bounds: the argument's position, upper (`true`) or lower, and the constant.
type Bound = (usize, bool, Rational);

/// The candidate bounds of every predicate with a fact clause.
fn candidates(
    store: &mut TermStore,
    sys: &ChcSystem,
    ctl: &Control,
) -> (InvMap, FxHashMap<TermId, Bound>) {
    let mut what: FxHashMap<TermId, Bound> = FxHashMap::default();
    let mut map = InvMap::new(store, sys);
    let init = initial_values(store, sys, MAX_FACTS, ctl);
    for (&p, states) in &init {
        let params = map.params[&p].clone();
        if params.len() > MAX_ARITY {
            continue;
        }
        let mut set: Vec<TermId> = Vec::new();
        for (i, &x) in params.iter().enumerate() {
            let sort = store.var_sort(x);
            let xt = store.mk_var(x);
            match sort {
                Sort::Int | Sort::Real => {
                    let mut cs: Vec<Rational> = vec![Rational::from(0)];
                    for v in states
                        .iter()
                        .filter_map(|s| s[i].as_ref()?.as_num().cloned())
                    {
                        cs.push(-v.clone());
                        cs.push(v);
                    }
                    cs.sort();
                    cs.dedup();
                    for c in cs {
                        let ct = store.mk_num(c.clone(), sort);
                        let (le, ge) = (store.mk_le(xt, ct), store.mk_ge(xt, ct));
                        what.insert(le, (i, true, c.clone()));
                        what.insert(ge, (i, false, c));
                        set.extend([le, ge]);
                    }
                }
                Sort::Bool => {
                    for s in states {
                        if let Some(Value::Bool(b)) = s[i] {
                            set.push(if b { xt } else { store.mk_not(xt) });
                        }
                    }
                }
                _ => {}
            }
        }
        set.sort();
        set.dedup();
        if !set.is_empty() {
            map.sets.insert(p, set);
        }
    }
    (map, what)
}

/// `set` without the bounds a tighter bound in `set` implies.
fn tightest(set: &[TermId], what: &FxHashMap<TermId, Bound>) -> Vec<TermId> {
    let implied = |f: &TermId| {
        let Some((i, upper, c)) = what.get(f) else {
            return false;
        };
        set.iter().any(|g| match what.get(g) {
            Some((j, u, d)) if j == i && u == upper => {
                if *upper {
                    d < c
                } else {
                    d > c
                }
            }
            _ => false,
        })
    };
    set.iter().copied().filter(|f| !implied(f)).collect()
}

/// Runs the pass: `sys` strengthened with its inductive bounds (unchanged when none survives
/// or the limits stop Houdini).
pub fn run(store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> (ChcSystem, Bounds) {
    let ctl = &ctl.child_with_budget(BUDGET).with_work_limit(WORK);
    let (mut map, what) = candidates(store, sys, ctl);
    if map.size() == 0 || houdini(store, sys, &mut map, ctl).is_err() {
        map.sets.clear();
    }
    for set in map.sets.values_mut() {
        *set = tightest(set, &what);
    }
    map.sets.retain(|_, v| !v.is_empty());
    if map.size() == 0 {
        return (sys.clone(), Bounds { map });
    }
    if ctl.verbosity > 0 {
        let mut shown: Vec<String> = Vec::new();
        for (&p, set) in &map.sets {
            let name = &store.func(p).name;
            shown.extend(set.iter().map(|&f| format!("{name}: {}", store.display(f))));
        }
        shown.sort();
        eprintln!(
            "preprocess: {} inductive bound(s): {}",
            map.size(),
            shown.join(", ")
        );
    }
    let out = map.strengthen(store, sys);
    (out, Bounds { map })
}

impl BackTranslate for Bounds {
    fn invariants(
        &self,
        store: &mut TermStore,
        mut inv: Invariants,
        _ctl: &Control,
    ) -> Result<Invariants, BackError> {
        self.map.conjoin(store, &mut inv).map_err(|p| {
            BackError::BadWitness(format!(
                "no definition for predicate '{}'",
                store.func(p).name
            ))
        })?;
        Ok(inv)
    }

    fn derivation(
        &self,
        _store: &mut TermStore,
        d: Derivation,
        _ctl: &Control,
    ) -> Result<Derivation, BackError> {
        Ok(d)
    }
}
