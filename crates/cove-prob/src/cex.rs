//! Tree counterexamples to strong simulation (thesis Sec. 4.5, Theorem 10) and their
//! independent check.
//!
//! When `(s1, s2)` is not in `⪯`, [`crate::sim::Simulation`] has recorded a [`Witness`]:
//! the failing `s1 −a→ μ1` and, for each `s2 −a→ ν`, a Hall violator `S1^ν` with
//! `S2^ν = Supp(ν) ∖ R(S1^ν)`. The tree `T12` is the one-transition tree for `s1 −a→ μ1`
//! with, at each child `t_u`, the trees `T_{u,v}` for all `(u, v) ∈ ⋃_ν S1^ν × S2^ν`
//! attached. Those pairs were removed earlier, so the recursion is well founded.
//!
//! # Merging instead of attaching (Corollary 2)
//! Attaching two trees at one node can give that node two copies of the same transition of
//! `L1`. Here every tree node keeps at most one child transition per transition of `L1`;
//! attaching a tree whose root uses a transition that is already present *merges* the two
//! recursively. A merged tree has more behaviour than each tree it was merged from, so it
//! is still not simulated wherever one of them was not, and it still has an execution
//! mapping into `L1`. Consequence: if `L1` is reactive, the counterexample is reactive.
//!
//! # Execution mapping
//! Each counterexample carries `mapping: S_C → S_1` and `trans_mapping: τ_C → τ_1` such
//! that every `c −a→ μ_c` is a copy of `M(c) −a→ μ1` with `M` injective on `Supp(μ_c)` and
//! `μ_c(c') = μ1(M(c'))`. [`verify_counterexample`] checks this structurally and then checks
//! `C ⪯ L1` and `C ⋠ L2` with the *naive* reference simulation.

use crate::bisim::bisimulation;
use crate::lpts::{Lpts, StateId, TransId};
use crate::partition::{Partition, quotient};
use crate::sim::{Simulation, Witness, naive_simulation};
use std::collections::{HashMap, HashSet};

/// A tree counterexample with its execution mapping into the implementation.
#[derive(Clone, Debug)]
pub struct Counterexample {
    /// The tree-shaped LPTS `C`.
    pub tree: Lpts,
    /// `mapping[c]`: the implementation state that tree state `c` is a copy of.
    pub mapping: Vec<StateId>,
    /// `trans_mapping[t]`: the implementation transition that tree transition `t` copies.
    pub trans_mapping: Vec<TransId>,
}

/// Failure to build or to validate a counterexample.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CexError {
    /// The pair is actually in the simulation.
    #[error("the states are related; there is no counterexample")]
    Related,
    /// The tree would exceed the node limit.
    #[error("counterexample tree exceeds {0} nodes")]
    TooLarge(usize),
    /// The independent check failed (a bug somewhere: report it).
    #[error("counterexample check failed: {0}")]
    Invalid(String),
}

pub(crate) struct Node {
    pub(crate) l1: StateId,
    pub(crate) trans: Vec<(TransId, Vec<usize>)>,
    pub(crate) expanded: HashSet<StateId>,
}

impl Node {
    pub(crate) fn new(l1: StateId) -> Node {
        Node {
            l1,
            trans: Vec::new(),
            expanded: HashSet::new(),
        }
    }
}

/// Returns the index (within `nodes[node].trans`) of the copy of transition `t` of `l`
/// at `node`, creating it with fresh children if absent (merging by transition identity).
pub(crate) fn child_transition(nodes: &mut Vec<Node>, node: usize, l: &Lpts, t: TransId) -> usize {
    if let Some(p) = nodes[node].trans.iter().position(|(u, _)| *u == t) {
        return p;
    }
    let mut kids = Vec::new();
    for s in l.transition(t).dist.support() {
        nodes.push(Node::new(s));
        kids.push(nodes.len() - 1);
    }
    nodes[node].trans.push((t, kids));
    nodes[node].trans.len() - 1
}

/// Builds the tree counterexample for `(s1, s2) ∉ ⪯` from the witnesses in `sim`.
/// At most `limit` tree nodes are created.
pub fn build_counterexample(
    l1: &Lpts,
    l2: &Lpts,
    sim: &Simulation,
    s1: StateId,
    s2: StateId,
    limit: usize,
) -> Result<Counterexample, CexError> {
    build_tree(l1, l2, sim, s1, s2, limit, false)
}

/// As [`build_counterexample`], but every node gets *all* transitions that fail at its pair
/// (each with its own violators' subtrees), not only the first. The tree is still not
/// simulated (the ordinary counterexample is simulated by it: it has a superset of the
/// transitions at every node) and still has an execution mapping into `l1`; it carries more
/// of `l1`'s behaviour, which makes it a richer positive sample for the learner.
pub fn build_rich_counterexample(
    l1: &Lpts,
    l2: &Lpts,
    sim: &Simulation,
    s1: StateId,
    s2: StateId,
    limit: usize,
) -> Result<Counterexample, CexError> {
    build_tree(l1, l2, sim, s1, s2, limit, true)
}

fn build_tree(
    l1: &Lpts,
    l2: &Lpts,
    sim: &Simulation,
    s1: StateId,
    s2: StateId,
    limit: usize,
    all: bool,
) -> Result<Counterexample, CexError> {
    if sim.related(s1, s2) {
        return Err(CexError::Related);
    }
    let mut nodes = vec![Node {
        l1: s1,
        trans: Vec::new(),
        expanded: HashSet::new(),
    }];
    let mut work = vec![(0usize, s1, s2)];
    while let Some((node, u1, u2)) = work.pop() {
        if !nodes[node].expanded.insert(u2) {
            continue;
        }
        let ws: Vec<Witness> = if all {
            sim.witnesses(l1, l2, u1, u2)
        } else {
            sim.witness(l1, l2, u1, u2).into_iter().collect()
        };
        if ws.is_empty() {
            return Err(CexError::Invalid(format!(
                "no removal witness for pair ({u1}, {u2})"
            )));
        }
        for w in ws {
            let dist = &l1.transition(w.trans).dist;
            let pos = match nodes[node].trans.iter().position(|(t, _)| *t == w.trans) {
                Some(p) => p,
                None => {
                    if nodes.len() + dist.len() > limit {
                        return Err(CexError::TooLarge(limit));
                    }
                    let mut kids = Vec::with_capacity(dist.len());
                    for s in dist.support() {
                        nodes.push(Node {
                            l1: s,
                            trans: Vec::new(),
                            expanded: HashSet::new(),
                        });
                        kids.push(nodes.len() - 1);
                    }
                    nodes[node].trans.push((w.trans, kids));
                    nodes[node].trans.len() - 1
                }
            };
            for (_, s1v, s2v) in &w.violators {
                for &u in s1v {
                    let child = nodes[node].trans[pos].1
                        [dist.position(u).expect("violator within support")];
                    for &v in s2v {
                        work.push((child, u, v));
                    }
                }
            }
        }
    }
    Ok(to_lpts(l1, &nodes))
}

pub(crate) fn to_lpts(l1: &Lpts, nodes: &[Node]) -> Counterexample {
    let mut tree = Lpts::new("c0");
    for a in l1.actions() {
        tree.add_action(a);
    }
    for i in 1..nodes.len() {
        tree.add_state(format!("c{i}"));
    }
    let mut trans_mapping = Vec::new();
    for (i, n) in nodes.iter().enumerate() {
        for (t, kids) in &n.trans {
            let tr = l1.transition(*t);
            let dist = tr.dist.map(|s| kids[tr.dist.position(s).unwrap()]);
            tree.add_transition(i, tr.action, dist);
            trans_mapping.push(*t);
        }
    }
    Counterexample {
        tree,
        mapping: nodes.iter().map(|n| n.l1).collect(),
        trans_mapping,
    }
}

/// Checks an execution mapping structurally: `C` is a tree and every transition of `C`
/// is a copy of the mapped transition of `imp` (bijective on supports, same masses), with
/// the root mapped to `imp`'s start state. This alone proves `C ⪯ imp`.
pub fn check_execution_mapping(cex: &Counterexample, imp: &Lpts) -> Result<(), String> {
    let c = &cex.tree;
    if !c.is_tree() {
        return Err("not tree-shaped".into());
    }
    if cex.mapping.len() != c.num_states() || cex.trans_mapping.len() != c.num_transitions() {
        return Err("mapping sizes do not match the tree".into());
    }
    if cex.mapping[c.initial()] != imp.initial() {
        return Err("the root is not mapped to the start state".into());
    }
    for (i, tc) in c.transitions().iter().enumerate() {
        let ti = cex.trans_mapping[i];
        if ti >= imp.num_transitions() {
            return Err(format!("transition {i} maps to a non-existent transition"));
        }
        let tr = imp.transition(ti);
        if tr.src != cex.mapping[tc.src] || imp.action_name(tr.action) != c.action_name(tc.action) {
            return Err(format!("transition {i}: source or action does not match"));
        }
        if tc.dist.len() != tr.dist.len() {
            return Err(format!("transition {i}: support sizes differ"));
        }
        let mut images = HashSet::new();
        for (s, p) in tc.dist.entries() {
            let m = cex.mapping[*s];
            if !images.insert(m) || tr.dist.prob(m) != *p {
                return Err(format!(
                    "transition {i}: not an injective, mass-preserving copy"
                ));
            }
        }
    }
    Ok(())
}

/// The independent check: valid execution mapping, `C ⪯ imp` and `C ⋠ spec`, the last two
/// with the naive reference simulation.
pub fn verify_counterexample(
    cex: &Counterexample,
    imp: &Lpts,
    spec: &Lpts,
) -> Result<(), CexError> {
    check_execution_mapping(cex, imp).map_err(CexError::Invalid)?;
    let c = &cex.tree;
    // The checked execution mapping is itself a strong simulation (Sec. 4.5), so `C ⪯ imp`
    // is already established; the second opinion uses the worklist algorithm, since the
    // naive fixed point over tree × system is far too slow for systems of 10^4+ states.
    // The side that decides the verdict, `C ⋠ spec`, stays with the naive reference.
    if !crate::sim::simulates(c, imp) {
        return Err(CexError::Invalid(
            "the implementation does not simulate the tree".into(),
        ));
    }
    if naive_simulation(c, spec).contains(c.initial(), spec.initial()) {
        return Err(CexError::Invalid(
            "the specification simulates the tree".into(),
        ));
    }
    Ok(())
}

/// The answer to `imp ⪯ spec`.
#[derive(Clone, Debug)]
pub enum SimAnswer {
    /// `imp ⪯ spec`.
    Holds,
    /// `imp ⋠ spec`, with a tree counterexample.
    Fails(Counterexample),
}

/// Decides `imp ⪯ spec`; on failure builds a tree counterexample (at most `limit` nodes).
pub fn check_simulation(imp: &Lpts, spec: &Lpts, limit: usize) -> Result<SimAnswer, CexError> {
    Ok(check_simulation_stoppable(imp, spec, limit, &|| false)?.expect("never stopped"))
}

/// As [`check_simulation`], polling `stop` (between refinement rounds and every 4096 pair
/// checks); `Ok(None)` when it returned true.
pub fn check_simulation_stoppable(
    imp: &Lpts,
    spec: &Lpts,
    limit: usize,
    stop: &dyn Fn() -> bool,
) -> Result<Option<SimAnswer>, CexError> {
    // Decide on the bisimulation quotient (`L ⪯ P ⟺ L/~ ⪯ P`, see `crate::bisim`), and
    // lift a counterexample back to `imp`.
    // The specification is replaced by its quotient too (`L ⪯ P ⟺ L ⪯ P/~`); a tree is
    // simulated by `P/~` iff by `P`, so the counterexample needs no change on that side.
    // A refinement that did not finish (stopped, or too many rounds) leaves a side as it is.
    let part = bisimulation(imp, stop).unwrap_or_else(|| Partition::discrete(imp.num_states()));
    let spart = bisimulation(spec, stop).unwrap_or_else(|| Partition::discrete(spec.num_states()));
    if stop() {
        return Ok(None);
    }
    if part.num_classes() < imp.num_states() || spart.num_classes() < spec.num_states() {
        let q = quotient(imp, &part);
        let qs = quotient(spec, &spart);
        let Some(sim) = Simulation::compute_limited(&q, &qs, stop) else {
            return Ok(None);
        };
        if sim.related(q.initial(), qs.initial()) {
            return Ok(Some(SimAnswer::Holds));
        }
        let c = build_counterexample(&q, &qs, &sim, q.initial(), qs.initial(), limit)?;
        return Ok(Some(SimAnswer::Fails(lift_counterexample(
            &c, &q, imp, &part, limit,
        )?)));
    }
    let Some(sim) = Simulation::compute_limited(imp, spec, stop) else {
        return Ok(None);
    };
    if sim.related(imp.initial(), spec.initial()) {
        return Ok(Some(SimAnswer::Holds));
    }
    Ok(Some(SimAnswer::Fails(build_counterexample(
        imp,
        spec,
        &sim,
        imp.initial(),
        spec.initial(),
        limit,
    )?)))
}

/// A lifted tree node: its concrete state and its `(concrete transition, children)`.
type LiftNode = (StateId, Vec<(TransId, Vec<usize>)>);

/// Lifts a counterexample whose execution mapping goes into the quotient `q = l/part` of a
/// bisimulation to one into `l`. A tree node mapped to class `B` becomes a node mapped to a
/// concrete `s ∈ B`; its transition copying `B −a→ μ/part` becomes a copy of a transition
/// `s −a→ μ` of `s` with the same lumped distribution (one exists because `part` is a
/// bisimulation), and the child for class `C` is split into one child per `u ∈ Supp(μ) ∩ C`,
/// each carrying a copy of the child's subtree. The result is bisimilar to the input tree,
/// so the specification still does not simulate it.
pub fn lift_counterexample(
    c: &Counterexample,
    q: &Lpts,
    l: &Lpts,
    part: &Partition,
    limit: usize,
) -> Result<Counterexample, CexError> {
    let t = &c.tree;
    // (concrete state, [(concrete transition, kids)]) per new node.
    let mut nodes: Vec<LiftNode> = vec![(l.initial(), Vec::new())];
    let mut stack = vec![(t.initial(), 0usize)];
    while let Some((tn, nn)) = stack.pop() {
        let s = nodes[nn].0;
        for &tc in t.outgoing(tn) {
            let tq = q.transition(c.trans_mapping[tc]);
            let Some(&tl) = l.outgoing(s).iter().find(|&&u| {
                let tr = l.transition(u);
                tr.action == tq.action && tr.dist.map(|x| part.class_of(x)) == tq.dist
            }) else {
                return Err(CexError::Invalid(
                    "lifting: no concrete transition with the lumped distribution".into(),
                ));
            };
            let tree_dist = &t.transition(tc).dist;
            let mut kids = Vec::new();
            for (u, _) in l.transition(tl).dist.entries() {
                let class = part.class_of(*u);
                let Some(&(child, _)) = tree_dist
                    .entries()
                    .iter()
                    .find(|(x, _)| c.mapping[*x] == class)
                else {
                    return Err(CexError::Invalid(
                        "lifting: no tree child for a class".into(),
                    ));
                };
                if nodes.len() >= limit {
                    return Err(CexError::TooLarge(limit));
                }
                nodes.push((*u, Vec::new()));
                kids.push(nodes.len() - 1);
                stack.push((child, nodes.len() - 1));
            }
            nodes[nn].1.push((tl, kids));
        }
    }
    let mut tree = Lpts::new("c0");
    for a in l.actions() {
        tree.add_action(a);
    }
    for i in 1..nodes.len() {
        tree.add_state(format!("c{i}"));
    }
    let mut trans_mapping = Vec::new();
    for (i, (_, ts)) in nodes.iter().enumerate() {
        for (tl, kids) in ts {
            let tr = l.transition(*tl);
            let dist = tr
                .dist
                .map(|x| kids[tr.dist.position(x).expect("in support")]);
            tree.add_transition(i, tr.action, dist);
            trans_mapping.push(*tl);
        }
    }
    Ok(Counterexample {
        tree,
        mapping: nodes.iter().map(|n| n.0).collect(),
        trans_mapping,
    })
}

/// Counts, per tree node, transitions per action: used to confirm reactivity claims.
pub fn max_transitions_per_action(c: &Lpts) -> usize {
    let mut m: HashMap<(StateId, usize), usize> = HashMap::new();
    for t in c.transitions() {
        *m.entry((t.src, t.action)).or_default() += 1;
    }
    m.values().copied().max().unwrap_or(0)
}

/// The mapping-free part of the independent check, for counterexamples whose execution
/// mapping refers to an abstraction: `C` is a tree, `C ⪯ imp` and `C ⋠ spec`, both by the
/// naive reference simulation.
pub fn verify_tree(tree: &Lpts, imp: &Lpts, spec: &Lpts) -> Result<(), CexError> {
    if !tree.is_tree() {
        return Err(CexError::Invalid("not tree-shaped".into()));
    }
    if !naive_simulation(tree, imp).contains(tree.initial(), imp.initial()) {
        return Err(CexError::Invalid(
            "the implementation does not simulate the tree".into(),
        ));
    }
    if naive_simulation(tree, spec).contains(tree.initial(), spec.initial()) {
        return Err(CexError::Invalid(
            "the specification simulates the tree".into(),
        ));
    }
    Ok(())
}
