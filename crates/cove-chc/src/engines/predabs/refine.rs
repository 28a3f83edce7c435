//! Predicate refinement (CEGAR) for [`super`]: when the `terms` language gives too many
//! predicates (the abstract states exceed [`super::MAX_STATES`]) or too few (the fixpoint
//! meets a query), start from no predicate at all and add only those that refute the
//! abstract counterexamples found, as in Eldarica's and Ultimate's predicate abstraction.
//!
//! A round computes the abstract fixpoint over the current predicates ([`super::fixpoint`],
//! which records how every state was found), and asks each query clause whether some
//! tuple of reached states satisfies it. If none does and the fixpoint is complete, the
//! states are the invariant. Otherwise the states' origins unfold into an abstract
//! counterexample: a derivation tree over the clauses, each node a clause instance whose
//! premises are the nodes deriving its body occurrences. The tree's clauses are renamed
//! apart and joined by their argument equations; if the conjunction is satisfiable its
//! model is a concrete derivation (returned for the caller to check), otherwise *tree
//! interpolants* are computed bottom-up ([`interpolants`]): for a node, an interpolant of
//! its own clause (with the interpolants already found for its children) against the rest
//! of the tree, over the node's head arguments only. The children's interpolants and the
//! clause imply the node's, and the query contradicts the root's children's, so once the
//! atoms of every interpolant are predicates of the node's symbol, no abstract state of
//! any derivation of this shape can satisfy the query: the counterexample is gone for good.
//! Those atoms (closed under the argument permutations of thread-modular encodings) are
//! added, and the fixpoint recomputed from scratch (each round's domain is another one).
//!
//! The rounds, the tree size and the predicates per symbol are bounded; the solvers poll
//! the [`Control`]. Soundness rests on the checks of the caller, never on the predicates.

use super::{FixpointStats, MAX_PREDICATES, Reached, States, fixpoint};
use crate::engine::Control;
use crate::engines::clause_terms::{comparisons, permutations};
use crate::result::{Derivation, UnknownReason};
use crate::system::ChcSystem;
use cove_logic::{FuncId, Model, TermId, TermStore, Value, VarId, free_vars, substitute};
use cove_smt::{ItpOutcome, SmtResult, SmtSolver, interpolate_formulas};
use rustc_hash::{FxHashMap, FxHashSet};

/// At most this many refinement rounds (each recomputes the fixpoint).
const MAX_ROUNDS: usize = 60;
/// At most this many abstract states in a refined fixpoint: more than the language's
/// [`super::MAX_STATES`], since the refined predicates are all needed (`07_rand`'s last
/// round reaches a few thousand over 39 predicates); the time limits bound it too.
const MAX_STATES: usize = 16_000;
/// At most this many nodes in an abstract counterexample's tree (one interpolation each).
const MAX_NODES: usize = 400;

/// The outcome of [`run`].
pub(super) enum Outcome {
    /// The predicates, and the reached states that exclude every query and are closed
    /// under the clauses.
    Proved(FxHashMap<FuncId, Vec<TermId>>, States),
    /// A derivation of `false` with concrete values (not yet checked).
    Counterexample(Derivation),
}

impl Outcome {
    /// `sat` or `unsat`, for the log.
    pub(super) fn verdict(&self) -> &'static str {
        match self {
            Outcome::Proved(..) => "sat",
            Outcome::Counterexample(_) => "unsat",
        }
    }
}

/// Counters of [`run`].
#[derive(Default)]
pub(super) struct RefineStats {
    /// Fixpoints computed.
    pub rounds: usize,
    /// Predicates at the end, over all symbols.
    pub predicates: usize,
}

/// The refinement loop (see the module doc).
pub(super) fn run(
    store: &mut TermStore,
    sys: &ChcSystem,
    params: &FxHashMap<FuncId, Vec<VarId>>,
    ctl: &Control,
    stats: &mut RefineStats,
) -> Result<Outcome, UnknownReason> {
    let mut preds: FxHashMap<FuncId, Vec<TermId>> =
        sys.preds.iter().map(|&p| (p, Vec::new())).collect();
    let perms = permutations(store, sys);
    for _ in 0..MAX_ROUNDS {
        if let Some(r) = ctl.should_stop() {
            return Err(r);
        }
        stats.rounds += 1;
        let mut fstats = FixpointStats::default();
        let t0 = std::time::Instant::now();
        let reached = fixpoint(store, sys, params, &preds, ctl, MAX_STATES, &mut fstats)?;
        let t_fix = t0.elapsed();
        let t0 = std::time::Instant::now();
        let Some((query, body)) = query_states(store, sys, params, &preds, &reached, ctl)? else {
            if reached.capped {
                return Err(UnknownReason::ResourceOut(
                    "predabs: too many abstract states after refinement".into(),
                ));
            }
            if ctl.verbosity > 0 {
                eprintln!(
                    "predabs: refinement round {}: {} states, fixpoint {t_fix:.2?}, closed",
                    stats.rounds,
                    reached.states.values().map(Vec::len).sum::<usize>()
                );
            }
            return Ok(Outcome::Proved(preds, reached.states));
        };
        let tree = unfold(sys, &reached, query, &body)?;
        let itps = match check_tree(store, sys, params, &tree, ctl)? {
            Check::Real(d) => return Ok(Outcome::Counterexample(d)),
            Check::Spurious(itps) => itps,
        };
        let mut added = 0usize;
        for (p, itp) in itps {
            if ctl.verbosity > 1 {
                eprintln!("predabs: interpolant {}", store.display(itp));
            }
            let mut atoms = Vec::new();
            comparisons(store, itp, &mut atoms);
            for a in atoms {
                added += add_predicate(store, &mut preds, params, &perms, p, a);
            }
        }
        stats.predicates = preds.values().map(Vec::len).sum();
        if ctl.verbosity > 0 {
            eprintln!(
                "predabs: refinement round {}: {} states, fixpoint {:.2?}, refinement {:.2?}, {} nodes, {} new predicates, {} in all",
                stats.rounds,
                reached.states.values().map(Vec::len).sum::<usize>(),
                t_fix,
                t0.elapsed(),
                tree.len(),
                added,
                stats.predicates
            );
        }
        if added == 0 {
            // Every atom is a predicate already, yet the fixpoint derived the
            // counterexample: nothing to learn (the caps cut a predicate list).
            return Err(UnknownReason::Incomplete(
                "predabs: refinement found no new predicate".into(),
            ));
        }
    }
    Err(UnknownReason::Incomplete(
        "predabs: too many refinement rounds".into(),
    ))
}

/// Adds the atom `a` over `p`'s parameters (one orientation of an equation, as the
/// `terms` language has them) and its images under `p`'s argument permutations to `p`'s
/// predicates; how many were new.
fn add_predicate(
    store: &mut TermStore,
    preds: &mut FxHashMap<FuncId, Vec<TermId>>,
    params: &FxHashMap<FuncId, Vec<VarId>>,
    perms: &[(FuncId, Vec<usize>)],
    p: FuncId,
    a: TermId,
) -> usize {
    let mut added = 0;
    let mut work = vec![orient(store, a)];
    let ps = &params[&p];
    while let Some(t) = work.pop() {
        let list = preds.entry(p).or_default();
        if store.as_bool(t).is_some() || list.contains(&t) || list.len() >= MAX_PREDICATES {
            continue;
        }
        list.push(t);
        added += 1;
        for (q, perm) in perms {
            if *q != p {
                continue;
            }
            let m: FxHashMap<VarId, TermId> = perm
                .iter()
                .enumerate()
                .map(|(i, &j)| (ps[i], store.mk_var(ps[j])))
                .collect();
            let u = substitute(store, t, &m);
            work.push(orient(store, u));
        }
    }
    added
}

/// An atom read positively and simplified, in one orientation ([`crate::engines::clause_terms::orient`]).
fn orient(store: &mut TermStore, a: TermId) -> TermId {
    let t = cove_logic::simplify::simplify(store, a);
    crate::engines::clause_terms::orient(store, t)
}

/// A query clause and, per body occurrence, a reached state of its symbol under which the
/// query's constraint is satisfiable: the end of an abstract counterexample. `None` when
/// the reached states exclude every query.
fn query_states(
    store: &mut TermStore,
    sys: &ChcSystem,
    params: &FxHashMap<FuncId, Vec<VarId>>,
    preds: &FxHashMap<FuncId, Vec<TermId>>,
    reached: &Reached,
    ctl: &Control,
) -> Result<Option<(usize, Vec<usize>)>, UnknownReason> {
    'clauses: for (ci, c) in sys.clauses.iter().enumerate() {
        if c.head.is_some() {
            continue;
        }
        let mut s = SmtSolver::new();
        s.set_limits(cove_smt::Limits::of(ctl));
        s.assert(store, c.constraint);
        let mut occ_vars = Vec::with_capacity(c.body.len());
        for b in &c.body {
            let states = match reached.states.get(&b.pred) {
                Some(l) if !l.is_empty() => l,
                _ => continue 'clauses,
            };
            let ps = &preds[&b.pred];
            let vars: Vec<TermId> = ps
                .iter()
                .map(|_| {
                    let v = store.fresh_var("pa_q", cove_logic::Sort::Bool);
                    store.mk_var(v)
                })
                .collect();
            super::bind_vars(store, &mut s, &params[&b.pred], ps, &vars, &b.args);
            let list: Vec<&[bool]> = states.iter().map(Vec::as_slice).collect();
            let d = super::decision_diagram(store, &vars, &list);
            s.assert(store, d);
            occ_vars.push(vars);
        }
        match s.check(store) {
            SmtResult::Unsat => {}
            SmtResult::Sat => {
                let mut body = Vec::with_capacity(c.body.len());
                for (b, vars) in c.body.iter().zip(&occ_vars) {
                    let mut st = Vec::with_capacity(vars.len());
                    for &v in vars {
                        match s.value(store, v) {
                            Some(Value::Bool(x)) => st.push(x),
                            _ => return Err(super::no_value()),
                        }
                    }
                    let k = reached.states[&b.pred]
                        .iter()
                        .position(|x| *x == st)
                        .ok_or_else(super::no_value)?;
                    body.push(k);
                }
                return Ok(Some((ci, body)));
            }
            SmtResult::Unknown(r) => {
                return Err(ctl
                    .should_stop()
                    .unwrap_or_else(|| UnknownReason::Incomplete(format!("predabs: SMT {r:?}"))));
            }
        }
    }
    Ok(None)
}

/// A node of an abstract counterexample: a clause instance, its parent (`None` at the
/// root, the query) and the nodes deriving its body occurrences, in order.
struct Node {
    clause: usize,
    parent: Option<usize>,
    children: Vec<usize>,
}

/// The tree of the abstract counterexample ending at `query` with body states `body`,
/// unfolded from the states' origins (a state used twice is unfolded twice: its two uses
/// may need different concrete values). Every child has a larger index than its parent.
fn unfold(
    sys: &ChcSystem,
    reached: &Reached,
    query: usize,
    body: &[usize],
) -> Result<Vec<Node>, UnknownReason> {
    let too_big = || UnknownReason::ResourceOut("predabs: counterexample too large".into());
    let mut nodes = vec![Node {
        clause: query,
        parent: None,
        children: Vec::new(),
    }];
    let mut work: Vec<(usize, Vec<usize>)> = vec![(0, body.to_vec())];
    while let Some((n, states)) = work.pop() {
        let c = &sys.clauses[nodes[n].clause];
        for (b, &s) in c.body.iter().zip(&states) {
            let Some((ci, prem)) = reached.origins.get(&b.pred).and_then(|o| o.get(s)) else {
                return Err(super::no_value());
            };
            if nodes.len() >= MAX_NODES {
                return Err(too_big());
            }
            let k = nodes.len();
            nodes.push(Node {
                clause: *ci,
                parent: Some(n),
                children: Vec::new(),
            });
            nodes[n].children.push(k);
            work.push((k, prem.clone()));
        }
    }
    Ok(nodes)
}

/// Result of [`check_tree`].
enum Check {
    /// A concrete derivation.
    Real(Derivation),
    /// Infeasible; per non-root node, its symbol and its interpolant over the symbol's
    /// parameters.
    Spurious(Vec<(FuncId, TermId)>),
}

/// Checks the tree concretely: the clauses renamed apart per node, each non-root node's
/// head arguments equal to fresh variables `x̄ₙ`, and the parent's body arguments equal to
/// them. Node `n`'s *part* is its renamed constraint with those equations.
fn check_tree(
    store: &mut TermStore,
    sys: &ChcSystem,
    params: &FxHashMap<FuncId, Vec<VarId>>,
    tree: &[Node],
    ctl: &Control,
) -> Result<Check, UnknownReason> {
    let mut copies: Vec<FxHashMap<VarId, TermId>> = Vec::with_capacity(tree.len());
    let mut heads: Vec<Vec<TermId>> = Vec::with_capacity(tree.len());
    for (n, node) in tree.iter().enumerate() {
        let c = &sys.clauses[node.clause];
        let map: FxHashMap<VarId, TermId> = c
            .vars
            .iter()
            .map(|&v| {
                let f = store.fresh_var(&format!("pa{n}"), store.var_sort(v));
                (v, store.mk_var(f))
            })
            .collect();
        let xs: Vec<TermId> = match &c.head {
            Some(h) => params[&h.pred]
                .iter()
                .map(|&p| {
                    let f = store.fresh_var(&format!("pax{n}"), store.var_sort(p));
                    store.mk_var(f)
                })
                .collect(),
            None => Vec::new(),
        };
        copies.push(map);
        heads.push(xs);
    }
    let mut parts: Vec<TermId> = Vec::with_capacity(tree.len());
    for (n, node) in tree.iter().enumerate() {
        let c = &sys.clauses[node.clause];
        let mut conj = vec![substitute(store, c.constraint, &copies[n])];
        if let Some(h) = &c.head {
            for (&a, &x) in h.args.iter().zip(&heads[n]) {
                let a = substitute(store, a, &copies[n]);
                conj.push(store.mk_eq(x, a));
            }
        }
        for (b, &k) in c.body.iter().zip(&node.children) {
            for (&a, &x) in b.args.iter().zip(&heads[k]) {
                let a = substitute(store, a, &copies[n]);
                conj.push(store.mk_eq(a, x));
            }
        }
        parts.push(store.mk_and(&conj));
    }
    let mut s = SmtSolver::new();
    s.set_limits(cove_smt::Limits::of(ctl));
    for &p in &parts {
        s.assert(store, p);
    }
    match s.check(store) {
        SmtResult::Unsat => {}
        SmtResult::Sat => {
            let m = s.model(store);
            return Ok(Check::Real(concrete(store, sys, tree, &copies, &m)));
        }
        SmtResult::Unknown(r) => {
            return Err(ctl
                .should_stop()
                .unwrap_or_else(|| UnknownReason::Incomplete(format!("predabs: SMT {r:?}"))));
        }
    }
    interpolants(store, sys, params, tree, &parts, &heads, ctl).map(Check::Spurious)
}

/// Tree interpolants of the unsatisfiable conjunction of `parts`, bottom-up (children have
/// larger indices, so descending order visits every node after its subtree): node `n`'s
/// interpolant `Iₙ(x̄ₙ)` separates `Aₙ = partₙ ∧ ⋀ I_children` from the rest of the current
/// formula, in which the subtrees already done stand as their roots' interpolants (the
/// nodes `m > n` whose parent is before `n`). Replacing `Aₙ` by `Iₙ` keeps the formula
/// unsatisfiable, so every step has an interpolant, and `⋀ I_children ∧ partₙ ⇒ Iₙ`.
fn interpolants(
    store: &mut TermStore,
    sys: &ChcSystem,
    params: &FxHashMap<FuncId, Vec<VarId>>,
    tree: &[Node],
    parts: &[TermId],
    heads: &[Vec<TermId>],
    ctl: &Control,
) -> Result<Vec<(FuncId, TermId)>, UnknownReason> {
    let mut itp: Vec<Option<TermId>> = vec![None; tree.len()];
    let mut out = Vec::new();
    for n in (1..tree.len()).rev() {
        if let Some(r) = ctl.should_stop() {
            return Err(r);
        }
        let mut a = vec![parts[n]];
        for &k in &tree[n].children {
            a.extend(itp[k]);
        }
        let mut b: Vec<TermId> = parts[..n].to_vec();
        for m in n + 1..tree.len() {
            if tree[m].parent.is_some_and(|q| q < n) {
                b.extend(itp[m]);
            }
        }
        let fa = store.mk_and(&a);
        let fb = store.mk_and(&b);
        let i = match interpolate_formulas(store, fa, fb, ctl) {
            ItpOutcome::Interpolant(i) => i,
            ItpOutcome::Sat(_) => {
                return Err(UnknownReason::Incomplete(
                    "predabs: a tree interpolation step is satisfiable".into(),
                ));
            }
            ItpOutcome::Unknown(r) => return Err(r),
        };
        let xs: FxHashSet<VarId> = heads[n].iter().filter_map(|&x| store.as_var(x)).collect();
        if free_vars(store, i).iter().any(|v| !xs.contains(v)) {
            return Err(UnknownReason::Incomplete(
                "predabs: an interpolant over other variables".into(),
            ));
        }
        itp[n] = Some(i);
        let Some(h) = &sys.clauses[tree[n].clause].head else {
            continue;
        };
        let xv: Vec<VarId> = heads[n].iter().filter_map(|&x| store.as_var(x)).collect();
        let pv: Vec<TermId> = params[&h.pred].iter().map(|&p| store.mk_var(p)).collect();
        let m: FxHashMap<VarId, TermId> = xv.into_iter().zip(pv).collect();
        let over_params = substitute(store, i, &m);
        out.push((h.pred, over_params));
    }
    Ok(out)
}

/// The derivation of `sys` read off the model of the tree's conjunction: one step per
/// node, premises its children (root 0).
fn concrete(
    store: &TermStore,
    sys: &ChcSystem,
    tree: &[Node],
    copies: &[FxHashMap<VarId, TermId>],
    m: &Model,
) -> Derivation {
    Derivation::read_off(
        store,
        sys,
        tree.iter().map(|n| (n.clause, n.children.clone())),
        0,
        copies,
        m,
    )
}
