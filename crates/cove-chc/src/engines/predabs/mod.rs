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
//! The fixpoint is chaotic iteration over the clauses: for each non-query clause, one
//! solver, kept for the whole run, holds the clause with a Boolean variable per
//! (occurrence, predicate), each body occurrence restricted to its symbol's known states and
//! the head excluded from its own; every model is a new state of the head's symbol (blocked,
//! and the solver asked again). New body states enter the solvers as reduced ordered
//! decision diagrams over the predicates (`decision_diagram` below), far smaller than the
//! disjunction of the states, and only those that agree with the location values the
//! clause's constraint fixes (`fixed_values`: a clause guarded by `pc = 3` reads no state
//! at another location). When
//! a pass over the clauses finds no new state, each symbol's diagram is an inductive
//! invariant. If it excludes the queries it is the answer (checked like every answer by the
//! driver's independent checker); otherwise the engine answers unknown. The abstraction only ever
//! over-approximates the derivable facts, and the fixpoint is checked, so the predicates
//! affect which safe systems are proved, never soundness.

mod refine;

use crate::engine::{BuildEngine, Control, Engine, Stats};
use crate::engines::clause_terms::{excludes_queries, positive_atoms};
use crate::invariant_map::InvMap;
use crate::preprocess::BackTranslate;
use crate::result::{ChcResult, UnknownReason};
use crate::system::ChcSystem;
use cove_logic::{FuncId, Op, Sort, TermId, TermStore, Value, VarId, substitute};
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

/// Per predicate symbol and state, the clause that found it and the states of its body
/// occurrences ([`Domain::origins`]).
type Origins = FxHashMap<FuncId, Vec<(usize, Vec<usize>)>>;

/// What [`fixpoint`] reached: the states, how each was found, and whether the
/// [`MAX_STATES`] cap stopped it (then the states are not closed under the clauses, but
/// every one of them is still abstractly derivable).
struct Reached {
    states: States,
    origins: Origins,
    capped: bool,
}

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
        // The system strengthened with its inductive bounds (`pc ≥ -1`, `count ≥ 0`): the
        // abstract post of a clause is computed from its constraint, and the bounds there
        // exclude the abstract states whose concretizations are only the unreachable
        // values no predicate names (`06_ticket` is proved with them, and meets the query
        // without). The portfolio gives this entry the plain system, so that no other
        // nonlinear entry waits for the bounds.
        let (strong, bounds) = crate::preprocess::bounds::run(store, sys, ctl);
        let input = sys;
        let sys = &strong;
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
        let mut fstats = FixpointStats::default();
        let result = fixpoint(
            store,
            sys,
            &map.params,
            &preds,
            ctl,
            MAX_STATES,
            &mut fstats,
        );
        self.push_fixpoint_stats(&fstats, ctl);
        let reached = match result {
            Ok(r) => r,
            Err(r) => return ChcResult::Unknown(r),
        };
        let total: usize = reached.states.values().map(Vec::len).sum();
        self.stats
            .push(("predabs-states".into(), total.to_string()));
        if ctl.verbosity > 0 {
            eprintln!(
                "predabs: {n_preds} predicates, {total} abstract states{} ({:.2?})",
                if reached.capped { " (capped)" } else { "" },
                start.elapsed()
            );
        }
        if !reached.capped {
            match answer(store, sys, &mut map, &preds, &reached.states, ctl) {
                Ok(true) => {
                    let inv = map.invariants(store);
                    return bounds.result(store, ChcResult::Sat(inv), ctl);
                }
                Ok(false) => {}
                Err(r) => return ChcResult::Unknown(r),
            }
        }
        // The language's predicates are too many (the cap) or too few (the query is met):
        // refine from none (`refine`).
        let mut rstats = refine::RefineStats::default();
        let outcome = refine::run(store, sys, &map.params, ctl, &mut rstats);
        self.stats
            .push(("predabs-refinements".into(), rstats.rounds.to_string()));
        self.stats.push((
            "predabs-refined-predicates".into(),
            rstats.predicates.to_string(),
        ));
        if ctl.verbosity > 0 {
            eprintln!(
                "predabs: refinement: {} rounds, {} predicates, {:?} ({:.2?})",
                rstats.rounds,
                rstats.predicates,
                outcome.as_ref().map(|o| o.verdict()),
                start.elapsed()
            );
        }
        match outcome {
            Ok(refine::Outcome::Proved(preds, states)) => {
                match answer(store, sys, &mut map, &preds, &states, ctl) {
                    Ok(true) => {
                        let inv = map.invariants(store);
                        bounds.result(store, ChcResult::Sat(inv), ctl)
                    }
                    Ok(false) => ChcResult::Unknown(UnknownReason::Incomplete(
                        "predabs: the refined fixpoint meets a query".into(),
                    )),
                    Err(r) => ChcResult::Unknown(r),
                }
            }
            Ok(refine::Outcome::Counterexample(d)) => {
                // A derivation of the strengthened system, whose clauses are the input's
                // with stronger constraints: a derivation of the input too. Checked here
                // against the input, and by the driver again.
                match crate::cert::check_derivation(store, input, &d) {
                    Ok(()) => bounds.result(store, ChcResult::Unsat(d), ctl),
                    Err(e) => ChcResult::Unknown(UnknownReason::Incomplete(format!(
                        "predabs: counterexample rejected: {e:?}"
                    ))),
                }
            }
            Err(r) => ChcResult::Unknown(r),
        }
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

impl PredAbs {
    fn push_fixpoint_stats(&mut self, fstats: &FixpointStats, ctl: &Control) {
        self.stats
            .push(("predabs-visits".into(), fstats.visits.to_string()));
        self.stats
            .push(("predabs-checks".into(), fstats.checks.to_string()));
        if ctl.verbosity > 0 {
            eprintln!(
                "predabs: body {:.2?}, head {:.2?}, checks {:.2?}",
                fstats.body_time, fstats.head_time, fstats.check_time
            );
        }
    }
}

/// Sets `map` to the decision diagrams of `states` and says whether they exclude every
/// query (then `map` is an inductive invariant excluding them: the states are closed under
/// the clauses).
fn answer(
    store: &mut TermStore,
    sys: &ChcSystem,
    map: &mut InvMap,
    preds: &FxHashMap<FuncId, Vec<TermId>>,
    states: &States,
    ctl: &Control,
) -> Result<bool, UnknownReason> {
    for &p in &sys.preds {
        let list: Vec<&[bool]> = states
            .get(&p)
            .map(|s| s.iter().map(Vec::as_slice).collect())
            .unwrap_or_default();
        let vars = preds.get(&p).map(Vec::as_slice).unwrap_or_default();
        let set = decision_diagram(store, vars, &list);
        map.sets.insert(p, vec![set]);
    }
    let excluded = excludes_queries(store, sys, map, ctl);
    if ctl.verbosity > 0 {
        eprintln!("predabs: queries checked");
    }
    excluded
}

/// Asserts in `solver` that the Boolean variables `vars` equal `p`'s predicates on `args`.
fn bind_vars(
    store: &mut TermStore,
    solver: &mut SmtSolver,
    params: &[VarId],
    preds: &[TermId],
    vars: &[TermId],
    args: &[TermId],
) {
    let m: FxHashMap<VarId, TermId> = params.iter().copied().zip(args.iter().copied()).collect();
    for (&a, &b) in preds.iter().zip(vars) {
        let at = substitute(store, a, &m);
        let eq = store.mk_eq(b, at);
        solver.assert(store, eq);
    }
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

/// The truth values of `p`'s predicates on `args` that `constraint` fixes through its
/// top-level equations of a variable and a number (`pc = 3`; `None` where open). A clause
/// guarded by one thread's location can only read states at that location and make states
/// at its target: its solver is given only the body states and blocked head states that
/// agree with these values, and is not visited again until such a state is new. Sound
/// because the values are implied by the constraint (substitution and simplification), so
/// the states left out could not take part in a derivation through the clause.
fn fixed_values(
    store: &mut TermStore,
    constraint: TermId,
    params: &[VarId],
    preds: &[TermId],
    args: &[TermId],
) -> Vec<Option<bool>> {
    let mut consts: FxHashMap<VarId, TermId> = FxHashMap::default();
    for t in store.conjuncts(constraint) {
        if !matches!(store.op(t), Op::Eq) || store.args(t).len() != 2 {
            continue;
        }
        let (a, b) = (store.args(t)[0], store.args(t)[1]);
        for (x, k) in [(a, b), (b, a)] {
            if let (Some(v), Some(_)) = (store.as_var(x), store.as_num(k)) {
                consts.entry(v).or_insert(k);
            }
        }
    }
    let m: FxHashMap<VarId, TermId> = params.iter().copied().zip(args.iter().copied()).collect();
    preds
        .iter()
        .map(|&a| {
            let at = substitute(store, a, &m);
            let at = substitute(store, at, &consts);
            let at = cove_logic::simplify::simplify(store, at);
            store.as_bool(at)
        })
        .collect()
}

/// Whether `state` agrees with the `fixed` values.
fn agrees(state: &[bool], fixed: &[Option<bool>]) -> bool {
    state
        .iter()
        .zip(fixed)
        .all(|(&v, f)| f.is_none_or(|f| f == v))
}

/// One clause's solver, kept for the whole fixpoint: the clause, a Boolean variable per
/// (occurrence, predicate), each body occurrence restricted to the states of its symbol
/// known at the last visit, and every known state of the head symbol blocked (only those
/// that agree with the values the constraint fixes, [`fixed_values`]).
///
/// The body states arrive in *generations* (those new since the clause's last visit). Body
/// occurrence `i` holds the chain `tailᵢ⁰ → g¹ ∨ tailᵢ¹`, `tailᵢ¹ → g² ∨ tailᵢ²`, … with
/// `gʲ → Dʲ(occurrence)` (the decision diagram of generation `j`), and the checks assume the
/// first tail and deny the last one, so the occurrence ranges over the union of the
/// generations without ever retracting an assertion: the solver keeps its learnt clauses
/// and theory lemmas across visits (measured on `06_ticket`: 4.0 s CPU with a fresh solver
/// per visit, 1.8 s incremental). A visit further requires (under an activation literal
/// never assumed again) that some occurrence lie in its newest generation: semi-naive
/// evaluation, since the head states of tuples of older states were all found at earlier
/// visits.
struct ClauseSolver {
    solver: SmtSolver,
    /// Per body occurrence: its fixed values, the first and the open tail of its chain, and
    /// how many states of its symbol it has been given.
    body: Vec<Occurrence>,
    /// How many batches of the head symbol are blocked ([`Domain::batches`]).
    head_seen: usize,
    /// The head's values fixed by the constraint ([`fixed_values`]).
    head_fixed: Vec<Option<bool>>,
}

/// A body occurrence of [`ClauseSolver`].
struct Occurrence {
    fixed: Vec<Option<bool>>,
    first: TermId,
    tail: TermId,
    seen: usize,
}

/// A fresh Boolean variable as a term.
fn fresh_bool(store: &mut TermStore, prefix: &str) -> TermId {
    let v = store.fresh_var(prefix, Sort::Bool);
    store.mk_var(v)
}

/// The abstract states of the symbols, with what the clause solvers share: the states come
/// in batches (one per clause visit that found any, so a solver skips the batch it found
/// itself), and each solver names the predicates of its head and of its `i`-th body
/// occurrence of a symbol by the same Boolean variables (*slot* 0 and `i + 1`; the solvers
/// are independent, so sharing the names is sound). The clause blocking a head state is
/// then one term, built once for every solver of the symbol.
struct Domain {
    states: States,
    /// Per symbol, the end of each batch in its state list, and the clause that found it.
    batches: FxHashMap<FuncId, Vec<(usize, usize)>>,
    /// Per symbol and slot, the predicate variables.
    slots: FxHashMap<(FuncId, usize), Vec<TermId>>,
    /// Per symbol, the clause excluding each state at the head.
    blocks: FxHashMap<FuncId, Vec<TermId>>,
    /// Per symbol, the position of each state in its list.
    index: FxHashMap<FuncId, FxHashMap<Vec<bool>, usize>>,
    /// Per symbol and state, how it was found: the clause and the state of each body
    /// occurrence (read off the model that gave it). Earlier states only, so following
    /// the premises always ends at facts: the abstract counterexamples of
    /// [`refine`] are read off these.
    origins: Origins,
}

impl Domain {
    fn slot(&mut self, store: &mut TermStore, p: FuncId, slot: usize, n: usize) -> Vec<TermId> {
        self.slots
            .entry((p, slot))
            .or_insert_with(|| (0..n).map(|_| fresh_bool(store, "pa")).collect())
            .clone()
    }

    fn n_batches(&self, p: FuncId) -> usize {
        self.batches.get(&p).map_or(0, Vec::len)
    }

    /// The clause excluding `p`'s state `k` at the head (slot 0), built once for every
    /// solver.
    fn block(&mut self, store: &mut TermStore, p: FuncId, k: usize) -> TermId {
        let list = self.blocks.entry(p).or_default();
        while list.len() <= k {
            let i = list.len();
            let cb = cube(store, &self.slots[&(p, 0)], &self.states[&p][i]);
            list.push(store.mk_not(cb));
        }
        list[k]
    }
}

/// The reachable abstract states of every predicate symbol (see the module doc).
fn fixpoint(
    store: &mut TermStore,
    sys: &ChcSystem,
    params: &FxHashMap<FuncId, Vec<VarId>>,
    preds: &FxHashMap<FuncId, Vec<TermId>>,
    ctl: &Control,
    max_states: usize,
    stats: &mut FixpointStats,
) -> Result<Reached, UnknownReason> {
    let mut dom = Domain {
        states: FxHashMap::default(),
        batches: FxHashMap::default(),
        slots: FxHashMap::default(),
        blocks: FxHashMap::default(),
        index: FxHashMap::default(),
        origins: FxHashMap::default(),
    };
    let mut total = 0usize;
    let mut solvers: Vec<Option<ClauseSolver>> = sys.clauses.iter().map(|_| None).collect();
    loop {
        let mut changed = false;
        for (ci, c) in sys.clauses.iter().enumerate() {
            let Some(h) = &c.head else { continue };
            if c.body.iter().any(|b| dom.n_batches(b.pred) == 0) {
                continue;
            }
            if let Some(r) = ctl.should_stop() {
                return Err(r);
            }
            let t0 = std::time::Instant::now();
            let head_vars = dom.slot(store, h.pred, 0, preds[&h.pred].len());
            // A fact (no body) is visited once, when its solver is made.
            let first_visit = solvers[ci].is_none();
            if first_visit {
                let mut solver = SmtSolver::new();
                solver.set_limits(cove_smt::Limits::of(ctl));
                // Everything goes into a frame that stays open: an assertion in the base
                // frame is a unit clause, and every new unit makes the SAT solver sweep its
                // whole clause database at the next check (18% of the time on
                // `31_simple_loop5_vs`, the solvers getting a blocked state at a time).
                solver.push();
                solver.assert(store, c.constraint);
                let mut body = Vec::new();
                for (i, b) in c.body.iter().enumerate() {
                    let n = preds[&b.pred].len();
                    let vars = dom.slot(store, b.pred, i + 1, n);
                    bind_vars(
                        store,
                        &mut solver,
                        &params[&b.pred],
                        &preds[&b.pred],
                        &vars,
                        &b.args,
                    );
                    let first = fresh_bool(store, "pa_tail");
                    let fixed = fixed_values(
                        store,
                        c.constraint,
                        &params[&b.pred],
                        &preds[&b.pred],
                        &b.args,
                    );
                    body.push(Occurrence {
                        fixed,
                        first,
                        tail: first,
                        seen: 0,
                    });
                }
                bind_vars(
                    store,
                    &mut solver,
                    &params[&h.pred],
                    &preds[&h.pred],
                    &head_vars,
                    &h.args,
                );
                let head_fixed = fixed_values(
                    store,
                    c.constraint,
                    &params[&h.pred],
                    &preds[&h.pred],
                    &h.args,
                );
                solvers[ci] = Some(ClauseSolver {
                    solver,
                    body,
                    head_seen: 0,
                    head_fixed,
                });
            }
            let Some(cs) = solvers[ci].as_mut() else {
                continue;
            };
            // The states of every body occurrence's symbol new since the last visit, as
            // one generation.
            let mut newest = Vec::new();
            for (i, (occ, b)) in cs.body.iter_mut().zip(&c.body).enumerate() {
                let n = dom.states[&b.pred].len();
                if occ.seen == n {
                    continue;
                }
                let list: Vec<&[bool]> = dom.states[&b.pred][occ.seen..n]
                    .iter()
                    .map(Vec::as_slice)
                    .filter(|st| agrees(st, &occ.fixed))
                    .collect();
                occ.seen = n;
                if list.is_empty() {
                    continue;
                }
                let d = decision_diagram(store, &dom.slots[&(b.pred, i + 1)], &list);
                let g = fresh_bool(store, "pa_gen");
                let next = fresh_bool(store, "pa_tail");
                let ntail = store.mk_not(occ.tail);
                let link = store.mk_or(&[ntail, g, next]);
                cs.solver.assert(store, link);
                let member = store.mk_implies(g, d);
                cs.solver.assert(store, member);
                occ.tail = next;
                newest.push(g);
            }
            if newest.is_empty() && !(first_visit && c.body.is_empty()) {
                continue;
            }
            stats.visits += 1;
            stats.body_time += t0.elapsed();
            let t0 = std::time::Instant::now();
            // Block the head states that other clauses found since the last visit (this
            // clause's own are blocked as it finds them), a clause per state: the SAT
            // solver propagates those better than a negated decision diagram (measured:
            // the checks took twice as long with one diagram per batch).
            let n = dom.n_batches(h.pred);
            for j in cs.head_seen..n {
                let (hi, owner) = dom.batches[&h.pred][j];
                if owner == ci {
                    continue;
                }
                let lo = if j == 0 {
                    0
                } else {
                    dom.batches[&h.pred][j - 1].0
                };
                for k in lo..hi {
                    if !agrees(&dom.states[&h.pred][k], &cs.head_fixed) {
                        continue;
                    }
                    let block = dom.block(store, h.pred, k);
                    cs.solver.assert(store, block);
                }
            }
            cs.head_seen = n;
            stats.head_time += t0.elapsed();
            let t0 = std::time::Instant::now();
            let act = fresh_bool(store, "pa_act");
            let some_new = if c.body.is_empty() {
                store.mk_true()
            } else {
                store.mk_or(&newest)
            };
            let guarded = store.mk_implies(act, some_new);
            cs.solver.assert(store, guarded);
            let mut assume = vec![act];
            for occ in &cs.body {
                assume.push(occ.first);
                let nt = store.mk_not(occ.tail);
                assume.push(nt);
            }
            let mut found = 0usize;
            loop {
                if let Some(r) = ctl.should_stop() {
                    return Err(r);
                }
                stats.checks += 1;
                match cs.solver.check_assuming(store, &assume) {
                    SmtResult::Unsat => break,
                    SmtResult::Sat => {
                        let mut state = Vec::with_capacity(head_vars.len());
                        for &b in &head_vars {
                            match cs.solver.value(store, b) {
                                Some(Value::Bool(v)) => state.push(v),
                                _ => return Err(no_value()),
                            }
                        }
                        let mut premises = Vec::with_capacity(c.body.len());
                        for (i, b) in c.body.iter().enumerate() {
                            let mut st = Vec::with_capacity(preds[&b.pred].len());
                            for &v in &dom.slots[&(b.pred, i + 1)] {
                                match cs.solver.value(store, v) {
                                    Some(Value::Bool(v)) => st.push(v),
                                    _ => return Err(no_value()),
                                }
                            }
                            match dom.index.get(&b.pred).and_then(|m| m.get(&st)) {
                                Some(&k) => premises.push(k),
                                None => return Err(no_value()),
                            }
                        }
                        let list = dom.states.entry(h.pred).or_default();
                        let k = list.len();
                        dom.index
                            .entry(h.pred)
                            .or_default()
                            .insert(state.clone(), k);
                        list.push(state);
                        dom.origins.entry(h.pred).or_default().push((ci, premises));
                        let block = dom.block(store, h.pred, k);
                        cs.solver.assert(store, block);
                        found += 1;
                        total += 1;
                        changed = true;
                        if ctl.verbosity > 1 && total.is_multiple_of(100) {
                            eprintln!("predabs: {total} states");
                        }
                        if total > max_states {
                            return Ok(Reached {
                                states: dom.states,
                                origins: dom.origins,
                                capped: true,
                            });
                        }
                    }
                    SmtResult::Unknown(_) => {
                        return Err(ctl.should_stop().unwrap_or_else(|| {
                            UnknownReason::Incomplete("predabs: SMT unknown".into())
                        }));
                    }
                }
            }
            stats.check_time += t0.elapsed();
            if found > 0 {
                let end = dom.states[&h.pred].len();
                dom.batches.entry(h.pred).or_default().push((end, ci));
                // This clause's own batch is blocked already.
                if cs.head_seen + 1 == dom.n_batches(h.pred) {
                    cs.head_seen += 1;
                }
            }
            // The activation literal is simply never assumed again (a unit `¬act` would
            // make the SAT solver sweep its clause database for satisfied clauses).
        }
        if !changed {
            // A whole pass over the clauses found no state outside the sets: they are
            // closed under every clause.
            return Ok(Reached {
                states: dom.states,
                origins: dom.origins,
                capped: false,
            });
        }
    }
}

/// The solver gave no truth value for a predicate variable (or the body's values are no
/// known state, which the chains exclude).
fn no_value() -> UnknownReason {
    UnknownReason::Incomplete("predabs: no value for a predicate".into())
}

/// Counters of [`fixpoint`].
#[derive(Default)]
struct FixpointStats {
    /// Clause visits with a new generation of body states.
    visits: usize,
    /// Solver checks (one per new state and one per visit).
    checks: usize,
    /// Time asserting the body generations, blocking head states, and in the checks.
    body_time: std::time::Duration,
    head_time: std::time::Duration,
    check_time: std::time::Duration,
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

    /// [`tas`] with the locations given by equations of the constraint (`(= p 1)`), as
    /// ultimate writes them, which [`fixed_values`] reads; the clause visits must still
    /// reach every state (with `check` false the query is reached).
    fn tas_equations(check: bool) -> String {
        let enter = if check { "(= l 0)" } else { "true" };
        format!(
            "(set-logic HORN)(declare-fun Inv (Int Int Int Int Int) Bool)
            (assert (forall ((a Int) (b Int) (p Int) (q Int))
              (=> (and (= p 0) (= q 0)) (Inv 0 p a q b))))
            (assert (forall ((k Int) (l Int) (q Int) (r Int) (p Int) (p2 Int))
              (=> (and (Inv k p l q r) (= p 0) (= p2 1)) (Inv 1 p2 k q r))))
            (assert (forall ((k Int) (l Int) (q Int) (r Int) (p Int) (p2 Int))
              (=> (and (Inv k p l q r) (= p 1) {enter} (= p2 2)) (Inv k p2 l q r))))
            (assert (forall ((k Int) (l Int) (q Int) (r Int) (p Int) (p2 Int))
              (=> (and (Inv k p l q r) (= 1 p) (not {enter}) (= 0 p2)) (Inv k p2 l q r))))
            (assert (forall ((k Int) (l Int) (q Int) (r Int) (p Int) (k2 Int) (p2 Int))
              (=> (and (Inv k p l q r) (= p 2) (= p2 0) (= k2 0)) (Inv k2 p2 l q r))))
            (assert (forall ((k Int) (p Int) (l Int) (q Int) (r Int))
              (=> (Inv k p l q r) (Inv k q r p l))))
            (assert (forall ((k Int) (l Int) (r Int) (p Int) (q Int))
              (=> (and (Inv k p l q r) (= p 2) (= q 2)) false)))"
        )
    }

    #[test]
    fn proves_a_test_and_set_whose_locations_are_equations() {
        assert!(matches!(solve(&tas_equations(true)), ChcResult::Sat(_)));
        assert!(!matches!(solve(&tas_equations(false)), ChcResult::Sat(_)));
    }

    #[test]
    fn fixed_values_read_the_location_equations() {
        let mut store = TermStore::new();
        let src = tas_equations(true);
        let sys = crate::frontend::parse_chc(src.as_bytes(), &mut store).expect("parses");
        let map = InvMap::new(&mut store, &sys);
        let p = sys.preds[0];
        let params = &map.params[&p];
        // `Inv`'s second argument at 1 and at 2.
        let x = store.mk_var(params[1]);
        let one = store.mk_int(1);
        let two = store.mk_int(2);
        let at1 = store.mk_eq(x, one);
        let at2 = store.mk_eq(x, two);
        let preds = [at1, at2];
        let mut seen = 0;
        for c in &sys.clauses {
            let Some(h) = &c.head else { continue };
            let fixed = fixed_values(&mut store, c.constraint, params, &preds, &h.args);
            if fixed == [Some(false), Some(true)] {
                seen += 1;
            }
        }
        // The one clause entering location 2.
        assert_eq!(seen, 1);
        assert!(agrees(&[false, true], &[None, Some(true)]));
        assert!(!agrees(&[true, false], &[None, Some(true)]));
    }

    #[test]
    fn never_proves_a_test_and_set_that_ignores_the_lock() {
        assert!(!matches!(solve(&tas(false)), ChcResult::Sat(_)));
    }
}
