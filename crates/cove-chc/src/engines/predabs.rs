//! Boolean predicate abstraction over the clauses' own atoms: the least fixpoint of the
//! clauses in the lattice of Boolean combinations of a fixed set of predicates.
//!
//! The `terms` engine keeps the inductive subset of candidates of fixed shapes (an atom, an
//! atom guarded by a query atom or a location value). Thread-modular proofs (ultimate's
//! `LIA-NonLin`: one `Inv` over two threads' program counters and locals, three `Inv`
//! atoms per interference clause, a slot swap) need clauses of three literals and more:
//! "thread 1 at 3 holding the lock (`local ≠ 1`) excludes thread 2 from 5..8" is
//! `pc₁ ≠ 3 ∨ l₁ = 1 ∨ pc₂ ≠ 5`, and z3's invariants for these files are conjunctions of
//! such clauses over location equations and a few data atoms. Any shape is covered by
//! computing the strongest invariant expressible over the predicates directly: the set `R`
//! of reachable *abstract states* (full truth assignments to a predicate's predicates),
//! grown until no clause leads from states in `R` to a state outside it (Graf–Saïdi
//! predicate abstraction, the domain of Eldarica and Ultimate's CEGAR loops, here without
//! refinement: the predicates are those of the `terms` language).
//!
//! The fixpoint is chaotic iteration over the clauses: for each non-query clause, a solver
//! holds the clause with a Boolean variable per (occurrence, predicate), each body
//! occurrence restricted to its symbol's known states and the head excluded from its own;
//! every model is a new state of the head's symbol (blocked, and the solver asked again).
//! The state sets enter the solvers as reduced ordered decision diagrams over the
//! predicates (`decision_diagram` below), far smaller than the disjunction of the states. When
//! a pass over the clauses finds no new state, each symbol's diagram is an inductive
//! invariant. If it excludes the queries it is the answer (checked like every answer by the
//! driver's independent checker); otherwise the engine answers unknown. The abstraction only ever
//! over-approximates the derivable facts, and the fixpoint is checked, so the predicates
//! affect which safe systems are proved, never soundness.

use crate::engine::{BuildEngine, Control, Engine, Stats};
use crate::engines::abs::invmap::InvMap;
use crate::engines::terms::{excludes_queries, positive_atoms};
use crate::result::{ChcResult, UnknownReason};
use crate::system::ChcSystem;
use cove_logic::{FuncId, Sort, TermId, TermStore, Value, VarId, substitute};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::FxHashMap;

/// At most this many predicates per predicate symbol (the first ones of the `terms`
/// language: the query atoms come first).
const MAX_PREDICATES: usize = 64;
/// At most this many abstract states in all: the domain is exponential in the predicates,
/// and a state costs a selector in every solver that reads its predicate.
const MAX_STATES: usize = 4000;
/// At most this many clauses (one solver each).
const MAX_CLAUSES: usize = 200;

/// Options of the predicate abstraction (none yet: the predicates are the `terms` atoms).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PredAbsConfig {}

impl BuildEngine for PredAbsConfig {
    const NAME: &'static str = "predabs";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(PredAbs::default())
    }
}

/// The engine (`--engine predabs`).
#[derive(Default)]
pub struct PredAbs {
    stats: Stats,
}

/// The abstract states found so far, per predicate symbol: each a truth value per predicate.
type States = FxHashMap<FuncId, Vec<Vec<bool>>>;

impl Engine for PredAbs {
    fn name(&self) -> &'static str {
        PredAbsConfig::NAME
    }

    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult {
        if let Some(why) = crate::system::unsupported_feature(sys, store) {
            return ChcResult::Unknown(UnknownReason::Unsupported(why));
        }
        if sys.clauses.len() > MAX_CLAUSES {
            return ChcResult::Unknown(UnknownReason::Incomplete(
                "predabs: too many clauses".into(),
            ));
        }
        self.stats.clear();
        let start = std::time::Instant::now();
        let mut map = InvMap::new(store, sys);
        let mut preds = positive_atoms(store, sys, &map.params, ctl);
        for &p in &sys.preds {
            let list = preds.entry(p).or_default();
            list.truncate(MAX_PREDICATES);
        }
        let n_preds: usize = preds.values().map(Vec::len).sum();
        if ctl.verbosity > 1 {
            for (p, list) in &preds {
                for &a in list {
                    eprintln!("predabs: {} {}", store.func(*p).name, store.display(a));
                }
            }
        }
        self.stats
            .push(("predabs-predicates".into(), n_preds.to_string()));
        let states = match fixpoint(store, sys, &map.params, &preds, ctl) {
            Ok(s) => s,
            Err(r) => return ChcResult::Unknown(r),
        };
        let total: usize = states.values().map(Vec::len).sum();
        self.stats
            .push(("predabs-states".into(), total.to_string()));
        if ctl.verbosity > 0 {
            eprintln!(
                "predabs: {n_preds} predicates, {total} abstract states ({:.2?})",
                start.elapsed()
            );
        }
        for &p in &sys.preds {
            let list: Vec<&[bool]> = states
                .get(&p)
                .map(|s| s.iter().map(Vec::as_slice).collect())
                .unwrap_or_default();
            let set = decision_diagram(store, &preds[&p], &list);
            map.sets.insert(p, vec![set]);
        }
        let excluded = excludes_queries(store, sys, &map, ctl);
        if ctl.verbosity > 0 {
            eprintln!("predabs: queries checked ({:.2?})", start.elapsed());
        }
        match excluded {
            Ok(true) => ChcResult::Sat(map.invariants(store)),
            Ok(false) => ChcResult::Unknown(UnknownReason::Incomplete(
                "predabs: the abstract fixpoint meets a query".into(),
            )),
            Err(r) => ChcResult::Unknown(r),
        }
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

/// Fresh Boolean variables equal to `p`'s predicates on `args`, asserted in `solver`.
fn occurrence_vars(
    store: &mut TermStore,
    solver: &mut SmtSolver,
    params: &[VarId],
    preds: &[TermId],
    args: &[TermId],
) -> Vec<TermId> {
    let m: FxHashMap<VarId, TermId> = params.iter().copied().zip(args.iter().copied()).collect();
    preds
        .iter()
        .map(|&a| {
            let b = store.fresh_var("pa", Sort::Bool);
            let b = store.mk_var(b);
            let at = substitute(store, a, &m);
            let eq = store.mk_eq(b, at);
            solver.assert(store, eq);
            b
        })
        .collect()
}

/// The conjunction of `vars` at the truth values `state`.
fn cube(store: &mut TermStore, vars: &[TermId], state: &[bool]) -> TermId {
    let lits: Vec<TermId> = vars
        .iter()
        .zip(state)
        .map(|(&b, &v)| if v { b } else { store.mk_not(b) })
        .collect();
    store.mk_and(&lits)
}

/// The set of `states` as a formula over `vars` (one Bool term per position): the reduced
/// ordered decision diagram, `ite(v₀, D(states with v₀), D(states without v₀))` with equal
/// branches merged and equal subdiagrams shared through the term store's hash-consing.
/// The disjunction of the states' cubes says the same, but for a thousand states over
/// forty predicates it is 40,000 literals, and every solver that reads it (here and the
/// driver's checker) pays for them; the diagram of the states of a thread-modular system
/// shares most of them. The recursion is as deep as `vars` is long (at most
/// [`MAX_PREDICATES`]), never deeper.
fn decision_diagram(store: &mut TermStore, vars: &[TermId], states: &[&[bool]]) -> TermId {
    fn go(store: &mut TermStore, vars: &[TermId], i: usize, states: Vec<&[bool]>) -> TermId {
        if states.is_empty() {
            return store.mk_false();
        }
        if i == vars.len() {
            return store.mk_true();
        }
        let (hi, lo): (Vec<&[bool]>, Vec<&[bool]>) = states.into_iter().partition(|s| s[i]);
        let hi = go(store, vars, i + 1, hi);
        let lo = go(store, vars, i + 1, lo);
        if hi == lo {
            return hi;
        }
        store.mk_ite(vars[i], hi, lo)
    }
    go(store, vars, 0, states.to_vec())
}

/// The reachable abstract states of every predicate symbol (see the module doc).
fn fixpoint(
    store: &mut TermStore,
    sys: &ChcSystem,
    params: &FxHashMap<FuncId, Vec<VarId>>,
    preds: &FxHashMap<FuncId, Vec<TermId>>,
    ctl: &Control,
) -> Result<States, UnknownReason> {
    let mut states: States = FxHashMap::default();
    let mut total = 0usize;
    let no_states: Vec<Vec<bool>> = Vec::new();
    loop {
        let mut changed = false;
        for c in &sys.clauses {
            let Some(h) = &c.head else { continue };
            if c.body
                .iter()
                .any(|b| states.get(&b.pred).is_none_or(Vec::is_empty))
            {
                continue;
            }
            if let Some(r) = ctl.should_stop() {
                return Err(r);
            }
            let mut solver = SmtSolver::new();
            solver.set_limits(cove_smt::Limits::of(ctl));
            solver.assert(store, c.constraint);
            for b in &c.body {
                let vars = occurrence_vars(
                    store,
                    &mut solver,
                    &params[&b.pred],
                    &preds[&b.pred],
                    &b.args,
                );
                let list: Vec<&[bool]> = states[&b.pred].iter().map(Vec::as_slice).collect();
                let d = decision_diagram(store, &vars, &list);
                solver.assert(store, d);
            }
            let hv = occurrence_vars(
                store,
                &mut solver,
                &params[&h.pred],
                &preds[&h.pred],
                &h.args,
            );
            let known: Vec<&[bool]> = states
                .get(&h.pred)
                .unwrap_or(&no_states)
                .iter()
                .map(Vec::as_slice)
                .collect();
            let d = decision_diagram(store, &hv, &known);
            let nd = store.mk_not(d);
            solver.assert(store, nd);
            loop {
                if let Some(r) = ctl.should_stop() {
                    return Err(r);
                }
                match solver.check(store) {
                    SmtResult::Unsat => break,
                    SmtResult::Sat => {
                        let mut state = Vec::with_capacity(hv.len());
                        for &b in &hv {
                            match solver.value(store, b) {
                                Some(Value::Bool(v)) => state.push(v),
                                _ => {
                                    return Err(UnknownReason::Incomplete(
                                        "predabs: no value for a predicate".into(),
                                    ));
                                }
                            }
                        }
                        let cb = cube(store, &hv, &state);
                        let ncb = store.mk_not(cb);
                        solver.assert(store, ncb);
                        states.entry(h.pred).or_default().push(state);
                        total += 1;
                        changed = true;
                        if ctl.verbosity > 1 && total.is_multiple_of(100) {
                            eprintln!("predabs: {total} states");
                        }
                        if total > MAX_STATES {
                            return Err(UnknownReason::ResourceOut(
                                "predabs: too many abstract states".into(),
                            ));
                        }
                    }
                    SmtResult::Unknown(_) => {
                        return Err(ctl.should_stop().unwrap_or_else(|| {
                            UnknownReason::Incomplete("predabs: SMT unknown".into())
                        }));
                    }
                }
            }
        }
        if !changed {
            // A whole pass over the clauses found no state outside the sets: they are
            // closed under every clause.
            return Ok(states);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(src: &str) -> ChcResult {
        let mut store = TermStore::new();
        let sys = crate::frontend::parse_chc(src.as_bytes(), &mut store).expect("parses");
        let ctl = Control::default().with_work_budget(20_000_000);
        let r = PredAbsConfig::default()
            .create()
            .solve(&mut store, &sys, &ctl);
        if let ChcResult::Sat(inv) = &r {
            crate::cert::check_invariants(&mut store, &sys, inv, &ctl).expect("valid invariants");
        }
        r
    }

    /// Two threads of test-and-set: `Inv(lock, pc₁, l₁, pc₂, l₂)`; the thread in slot 1 at
    /// 0 reads the lock into its local and sets it, enters 2 if it read 0 (else back to 0),
    /// releases at 2; a clause swaps the slots, and a (redundant) nonlinear clause joins a
    /// state with its swapped copy. The proof needs `pc₁ = 1 ∧ l₁ = 0 → ¬(pc₂ = 1 ∧ l₂ = 0)`,
    /// four literals, which no `terms` candidate has. With `check` false a thread enters
    /// whatever it read, and both reach 2.
    fn tas(check: bool) -> String {
        let enter = if check { "(= l 0)" } else { "true" };
        format!(
            "(set-logic HORN)(declare-fun Inv (Int Int Int Int Int) Bool)
            (assert (forall ((a Int) (b Int)) (Inv 0 0 a 0 b)))
            (assert (forall ((k Int) (l Int) (q Int) (r Int))
              (=> (Inv k 0 l q r) (Inv 1 1 k q r))))
            (assert (forall ((k Int) (l Int) (q Int) (r Int))
              (=> (and (Inv k 1 l q r) {enter}) (Inv k 2 l q r))))
            (assert (forall ((k Int) (l Int) (q Int) (r Int))
              (=> (and (Inv k 1 l q r) (not {enter})) (Inv k 0 l q r))))
            (assert (forall ((k Int) (l Int) (q Int) (r Int))
              (=> (Inv k 2 l q r) (Inv 0 0 l q r))))
            (assert (forall ((k Int) (p Int) (l Int) (q Int) (r Int))
              (=> (Inv k p l q r) (Inv k q r p l))))
            (assert (forall ((k Int) (p Int) (l Int) (q Int) (r Int))
              (=> (and (Inv k p l q r) (Inv k q r p l)) (Inv k p l q r))))
            (assert (forall ((k Int) (l Int) (r Int)) (=> (Inv k 2 l 2 r) false)))"
        )
    }

    #[test]
    fn proves_a_thread_modular_test_and_set() {
        assert!(matches!(solve(&tas(true)), ChcResult::Sat(_)));
    }

    #[test]
    fn never_proves_a_test_and_set_that_ignores_the_lock() {
        assert!(!matches!(solve(&tas(false)), ChcResult::Sat(_)));
    }
}
