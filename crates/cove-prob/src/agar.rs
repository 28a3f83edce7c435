//! Rule ASYM with automatically refined assumptions: AGAR and AGAR-N (thesis Ch. 6).
//!
//! * The assumption for a component `L` is always a quotient `A = L/Π`
//!   ([`crate::partition`]), so premise `L ⪯ A` holds by construction and only premise 1
//!   (`L1 ∥ A ⪯ P`) is checked.
//! * A counterexample `C` to premise 1 is projected onto `A` ([`project`]) and analysed by
//!   [`analyze_and_refine`] (Fig. 6.2, COMPUTESIMTREE restricted to `R ⊆ {(c, s) | M(c) =
//!   [s]}`). If `L` cannot simulate the projection, the partition is split (strictly finer,
//!   Lemma 27) and the loop repeats; otherwise `C` is a real counterexample (Lemma 28).
//! * AGAR-N (Fig. 6.6) nests this: the abstraction at level `k` is a quotient of
//!   `L_k ∥ A_k`, where `A_k` is the abstraction handed down from level `k+1`; a real
//!   counterexample at level `k` is unrolled into `L_k ∥ A_k` ([`obtain_cex_with_mapping`])
//!   and projected onto `A_k` for the level above.
//!
//! Deviations from the printed figures, both in the direction of termination:
//! the second refinement case of Fig. 6.2 is applied to the root of the counterexample
//! only (the start state of `L` must simulate the root; for inner nodes the condition is
//! not needed for soundness and need not make progress), and a refinement that does not
//! split any class is reported as an error instead of looping. The n = 1 branch of
//! AGAR-N returns the projection (errata 10).

use crate::cex::{
    Counterexample, Node, SimAnswer, build_counterexample, check_simulation_stoppable,
    child_transition, to_lpts,
};
use crate::compose::{Product, TooLarge, compose_polled};
use crate::lpts::{Lpts, StateId};
use crate::partition::{Partition, quotient};
use crate::sim::{ActionIndex, Relation, Simulation};
use cove_control::{Control, UnknownReason};
use std::time::{Duration, Instant};

/// Errors (resource limits and internal inconsistencies) of the compositional algorithms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AgarError {
    /// A composition grew past the state limit.
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    /// Counterexample construction failed.
    #[error(transparent)]
    Cex(#[from] crate::cex::CexError),
    /// A refinement did not split any class (would loop forever).
    #[error("refinement made no progress (internal error)")]
    NoProgress,
    /// The deadline passed (an honest "unknown").
    #[error("time limit reached")]
    TimeLimit,
    /// The memory limit was reached (an honest "unknown").
    #[error("memory limit reached")]
    MemoryLimit,
    /// The run was stopped from outside ([`Control::stop`], Ctrl-C).
    #[error("interrupted")]
    Interrupted,
    /// No components were given.
    #[error("no components")]
    NoComponents,
}

/// Resource limits of one run.
///
/// The time limit, the memory limit and cancellation come in one [`Control`], the same value
/// that limits a CHC run (`cove_control`): a deadline, a memory limit in bytes (measured by
/// [`cove_control::memory::usage`]: exact under the `cove` binary's counting allocator, the
/// resident set size otherwise) and an interruption flag that another thread may set
/// ([`Control::stop`]). Every phase polls it: composition, simulation checks, refinement and
/// learning iterations, and the SAT/SMT calls of the learner.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Maximum states of any composed LPTS.
    pub max_states: usize,
    /// Maximum nodes of a counterexample tree.
    pub max_tree_nodes: usize,
    /// Deadline, memory limit and interruption; reaching one ends the run with
    /// [`AgarError::TimeLimit`], [`AgarError::MemoryLimit`] or [`AgarError::Interrupted`].
    pub control: Control,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_states: 2_000_000,
            max_tree_nodes: 1_000_000,
            control: Control::new(),
        }
    }
}

impl AgarError {
    /// The error for a stop that [`Control::should_stop`] reported.
    pub fn stopped(reason: UnknownReason) -> AgarError {
        match reason {
            UnknownReason::Timeout => AgarError::TimeLimit,
            UnknownReason::Memory => AgarError::MemoryLimit,
            _ => AgarError::Interrupted,
        }
    }
}

impl Budget {
    /// `Err` once the deadline or the memory limit is passed, or the run was interrupted.
    pub fn check(&self) -> Result<(), AgarError> {
        match self.control.should_stop() {
            None => Ok(()),
            Some(r) => Err(AgarError::stopped(r)),
        }
    }

    /// `L1 ∥ L2` under this budget's state limit, polling the control while it grows.
    pub fn compose(&self, l1: &Lpts, l2: &Lpts) -> Result<Product, AgarError> {
        let stop = || self.control.should_stop().is_some();
        match compose_polled(l1, l2, self.max_states, &stop)? {
            Some(p) => Ok(p),
            None => Err(self.check().err().unwrap_or(AgarError::Interrupted)),
        }
    }

    /// A strong-simulation check under this budget.
    pub fn simulation(&self, l1: &Lpts, l2: &Lpts) -> Result<Simulation, AgarError> {
        let failed = std::cell::Cell::new(None);
        let stop = || match self.check() {
            Ok(()) => false,
            Err(e) => {
                failed.set(Some(e));
                true
            }
        };
        Simulation::compute_limited(l1, l2, &stop)
            .ok_or_else(|| failed.take().unwrap_or(AgarError::TimeLimit))
    }
}

/// Measurements of one run.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Wall-clock time.
    pub time: Duration,
    /// Largest composed LPTS built (states).
    pub largest_composed: usize,
    /// Largest assumption (states).
    pub largest_assumption: usize,
    /// Number of premise-1 checks / refinement iterations.
    pub iterations: usize,
}

/// The verdict of a conformance check.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// The system conforms to the specification.
    Holds,
    /// It does not.
    Fails(Box<Failure>),
}

impl Verdict {
    /// `Fails` with counterexample `cex`, whose execution mapping goes into `system`.
    pub fn fails(cex: Counterexample, system: Lpts) -> Verdict {
        Verdict::Fails(Box::new(Failure { cex, system }))
    }
}

/// A refutation: a tree counterexample whose execution mapping goes into `system`.
#[derive(Clone, Debug)]
pub struct Failure {
    /// The counterexample.
    pub cex: Counterexample,
    /// The LPTS the counterexample's mapping refers to: the LPTS of the last premise-1
    /// check (`L1 ∥ A`), or the full system for the monolithic check.
    pub system: Lpts,
}

/// Result of [`analyze_and_refine`].
#[derive(Debug)]
pub enum Analysis {
    /// The counterexample is spurious; the partition has been refined.
    Spurious,
    /// The counterexample is real: `relation ⊆ S_C × S_L` is a strong simulation relating
    /// the root of `C` to the start state of `L`.
    Real(Relation),
}

/// How [`analyze_and_refine`] splits when a tree node `x` loses every partner in `L`.
///
/// A node loses its partners for one of two reasons: its children's classes are too
/// coarse (a concrete state of `M(x)` has the transition, but its successors fall into
/// parts of the children's classes that do not simulate the children), or the class
/// `M(x)` merges states that each have only part of `x`'s transitions. Fig. 6.2 splits
/// for both at once; [`Refinement::Coarse`] splits the children's classes only and the
/// node's class only when that splits nothing, so it never splits less than needed for
/// progress: when the children split nothing it falls back to Fig. 6.2's split (Lemma 27).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Refinement {
    /// Fig. 6.2: split the node's class and every child's class.
    #[default]
    Full,
    /// Split the children's classes; the node's class only if that splits nothing.
    Coarse,
}

impl Refinement {
    /// Both strategies.
    pub const ALL: [Refinement; 2] = [Refinement::Full, Refinement::Coarse];

    /// Name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Refinement::Full => "full",
            Refinement::Coarse => "coarse",
        }
    }
}

impl std::str::FromStr for Refinement {
    type Err = String;

    /// Parses a name as printed by [`Refinement::name`].
    fn from_str(s: &str) -> Result<Refinement, String> {
        Refinement::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Refinement::ALL.iter().map(|m| m.name()).collect();
                format!("unknown refinement `{s}` (one of {})", names.join(", "))
            })
    }
}

/// ANALYZEANDREFINE (Fig. 6.2). `cex.mapping` maps the tree into `A = L/Π`.
pub fn analyze_and_refine(
    cex: &Counterexample,
    l: &Lpts,
    part: &mut Partition,
) -> Result<Analysis, AgarError> {
    analyze_and_refine_with(cex, l, part, Refinement::Full)
}

/// [`analyze_and_refine`] with the given splitting strategy.
pub fn analyze_and_refine_with(
    cex: &Counterexample,
    l: &Lpts,
    part: &mut Partition,
    refine: Refinement,
) -> Result<Analysis, AgarError> {
    let c = &cex.tree;
    let (nc, nl) = (c.num_states(), l.num_states());
    let mut r = Relation::new(nc, nl, false);
    for x in 0..nc {
        for s in 0..nl {
            if part.class_of(s) == cex.mapping[x] {
                r.set(x, s, true);
            }
        }
    }
    let mut r_old = r.clone();
    let idx = ActionIndex::new(c, l);
    let order = c.reachable();
    for &x in order.iter().rev() {
        for &t in c.outgoing(x) {
            let tr = c.transition(t);
            for s in r.image(x) {
                let sim = idx
                    .first_match(l, s, tr.action, &tr.dist, &|a, b| r.contains(a, b))
                    .is_some();
                if !sim {
                    r.set(x, s, false);
                }
            }
            if r.image(x).is_empty() {
                let mut changed = false;
                if refine == Refinement::Coarse {
                    for y in tr.dist.support() {
                        changed |= part.split_by(&r_old.image(y));
                    }
                }
                if !changed {
                    for y in std::iter::once(x).chain(tr.dist.support()) {
                        changed |= part.split_by(&r_old.image(y));
                    }
                }
                return if changed {
                    Ok(Analysis::Spurious)
                } else {
                    Err(AgarError::NoProgress)
                };
            }
            if x == c.initial() && !r.contains(x, l.initial()) {
                let gone: Vec<StateId> = r_old
                    .image(x)
                    .into_iter()
                    .filter(|&s| !r.contains(x, s))
                    .collect();
                return if part.split_by(&gone) {
                    Ok(Analysis::Spurious)
                } else {
                    Err(AgarError::NoProgress)
                };
            }
            r_old = r.clone();
        }
    }
    Ok(Analysis::Real(r))
}

/// PROJECT: the tree `C↓A` for a counterexample whose mapping goes into `prod = X ∥ A`,
/// with its execution mapping into `a`. Moves of `X` alone are stutter steps for `A` and
/// are absorbed into the node above; copies of one `A`-transition at one node are merged.
pub fn project(cex: &Counterexample, prod: &Product, a: &Lpts) -> Counterexample {
    let c = &cex.tree;
    let root_a = prod.pairs[cex.mapping[c.initial()]].1;
    let mut nodes = vec![Node::new(root_a)];
    let mut pnode = vec![usize::MAX; c.num_states()];
    pnode[c.initial()] = 0;
    for x in c.reachable() {
        let px = pnode[x];
        for &t in c.outgoing(x) {
            let tr = c.transition(t);
            let pt = cex.trans_mapping[t];
            match prod.origin[pt].1 {
                None => {
                    for y in tr.dist.support() {
                        pnode[y] = px;
                    }
                }
                Some(ta) => {
                    let pos = child_transition(&mut nodes, px, a, ta);
                    let da = &a.transition(ta).dist;
                    for y in tr.dist.support() {
                        let sa = prod.pairs[cex.mapping[y]].1;
                        pnode[y] =
                            nodes[px].trans[pos].1[da.position(sa).expect("product support")];
                    }
                }
            }
        }
    }
    to_lpts(a, &nodes)
}

/// OBTAINCEXWITHMAPPING: given a strong simulation `r` from tree `C` into `L` relating the
/// roots, unroll `L` into a tree `T_L` with `C ⪯ T_L ⪯ L` and an execution mapping into `L`.
pub fn obtain_cex_with_mapping(c: &Lpts, l: &Lpts, r: &Relation) -> Counterexample {
    let idx = ActionIndex::new(c, l);
    let mut nodes = vec![Node::new(l.initial())];
    let mut work = vec![(c.initial(), 0usize)];
    while let Some((x, node)) = work.pop() {
        let s = nodes[node].l1;
        for &t in c.outgoing(x) {
            let tr = c.transition(t);
            let (u, w) = idx
                .first_match(l, s, tr.action, &tr.dist, &|a, b| r.contains(a, b))
                .expect("r is a strong simulation");
            let pos = child_transition(&mut nodes, node, l, u);
            let dl = &l.transition(u).dist;
            for (y, sl, _) in w {
                let kid = nodes[node].trans[pos].1[dl.position(sl).expect("weight within support")];
                work.push((y, kid));
            }
        }
    }
    to_lpts(l, &nodes)
}

/// Monolithic check of `L1 ∥ … ∥ Ln ⪯ P`.
pub fn mono(comps: &[Lpts], spec: &Lpts, budget: &Budget) -> Result<(Verdict, Stats), AgarError> {
    let start = Instant::now();
    let mut stats = Stats::default();
    let sys = compose_all(comps, budget, &mut stats)?;
    stats.iterations = 1;
    // On the bisimulation quotient, with the counterexample lifted back (`crate::bisim`).
    let stop = || budget.check().is_err();
    let v = match check_simulation_stoppable(&sys, spec, budget.max_tree_nodes, &stop)? {
        Some(SimAnswer::Holds) => Verdict::Holds,
        Some(SimAnswer::Fails(cex)) => Verdict::fails(cex, sys),
        None => return Err(budget.check().err().unwrap_or(AgarError::TimeLimit)),
    };
    stats.time = start.elapsed();
    Ok((v, stats))
}

/// The composition of all components, left to right.
pub fn compose_all(comps: &[Lpts], budget: &Budget, stats: &mut Stats) -> Result<Lpts, AgarError> {
    let (first, rest) = comps.split_first().ok_or(AgarError::NoComponents)?;
    let mut sys = first.clone();
    for c in rest {
        sys = budget.compose(&sys, c)?.lpts;
        stats.largest_composed = stats.largest_composed.max(sys.num_states());
    }
    stats.largest_composed = stats.largest_composed.max(sys.num_states());
    Ok(sys)
}

/// AGAR (Fig. 6.3) for `L1 ∥ L2 ⪯ P`, learning an assumption for `L2`.
pub fn agar(
    l1: &Lpts,
    l2: &Lpts,
    spec: &Lpts,
    budget: &Budget,
) -> Result<(Verdict, Stats), AgarError> {
    agar_with(l1, l2, spec, budget, Refinement::Full)
}

/// [`agar`] with the given refinement strategy.
pub fn agar_with(
    l1: &Lpts,
    l2: &Lpts,
    spec: &Lpts,
    budget: &Budget,
    refine: Refinement,
) -> Result<(Verdict, Stats), AgarError> {
    let start = Instant::now();
    let mut stats = Stats::default();
    let mut part = Partition::coarsest(l2.num_states());
    loop {
        budget.check()?;
        let a = quotient(l2, &part);
        stats.largest_assumption = stats.largest_assumption.max(a.num_states());
        let prod = budget.compose(l1, &a)?;
        stats.largest_composed = stats.largest_composed.max(prod.lpts.num_states());
        stats.iterations += 1;
        let sim = budget.simulation(&prod.lpts, spec)?;
        if sim.related(prod.lpts.initial(), spec.initial()) {
            stats.time = start.elapsed();
            return Ok((Verdict::Holds, stats));
        }
        let cex = build_counterexample(
            &prod.lpts,
            spec,
            &sim,
            prod.lpts.initial(),
            spec.initial(),
            budget.max_tree_nodes,
        )?;
        let down = project(&cex, &prod, &a);
        match analyze_and_refine_with(&down, l2, &mut part, refine)? {
            Analysis::Spurious => continue,
            Analysis::Real(_) => {
                stats.time = start.elapsed();
                return Ok((Verdict::fails(cex, prod.lpts), stats));
            }
        }
    }
}

enum Level {
    Holds,
    /// Projection onto the assumption handed in, and the level-1 counterexample.
    Fails(Box<(Counterexample, Counterexample, Lpts)>),
}

/// AGAR-N (Fig. 6.6) for `L1 ∥ … ∥ Ln ⪯ P` with rule ASYM-N.
pub fn agar_n(comps: &[Lpts], spec: &Lpts, budget: &Budget) -> Result<(Verdict, Stats), AgarError> {
    agar_n_with(comps, spec, budget, Refinement::Full)
}

/// [`agar_n`] with the given refinement strategy.
pub fn agar_n_with(
    comps: &[Lpts],
    spec: &Lpts,
    budget: &Budget,
    refine: Refinement,
) -> Result<(Verdict, Stats), AgarError> {
    let start = Instant::now();
    let mut stats = Stats::default();
    if comps.is_empty() {
        return Err(AgarError::NoComponents);
    }
    if comps.len() == 1 {
        return mono(comps, spec, budget);
    }
    let v = match level(
        comps,
        comps.len() - 1,
        None,
        spec,
        budget,
        refine,
        &mut stats,
    )? {
        Level::Holds => Verdict::Holds,
        Level::Fails(b) => Verdict::fails(b.1, b.2),
    };
    stats.time = start.elapsed();
    Ok((v, stats))
}

fn level(
    comps: &[Lpts],
    k: usize,
    a_in: Option<&Lpts>,
    spec: &Lpts,
    budget: &Budget,
    refine: Refinement,
    stats: &mut Stats,
) -> Result<Level, AgarError> {
    // L = L_k ∥ A_k (or L_k alone at the top).
    let prod: Option<Product> = match a_in {
        Some(a) => Some(budget.compose(&comps[k], a)?),
        None => None,
    };
    let l: &Lpts = prod.as_ref().map_or(&comps[k], |p| &p.lpts);
    stats.largest_composed = stats.largest_composed.max(l.num_states());
    if k == 0 {
        stats.iterations += 1;
        let sim = budget.simulation(l, spec)?;
        if sim.related(l.initial(), spec.initial()) {
            return Ok(Level::Holds);
        }
        let cex = build_counterexample(
            l,
            spec,
            &sim,
            l.initial(),
            spec.initial(),
            budget.max_tree_nodes,
        )?;
        let p = prod.as_ref().expect("level 0 always has an assumption");
        let down = project(&cex, p, a_in.expect("assumption"));
        return Ok(Level::Fails(Box::new((down, cex, l.clone()))));
    }
    let mut part = Partition::coarsest(l.num_states());
    loop {
        budget.check()?;
        let a = quotient(l, &part);
        stats.largest_assumption = stats.largest_assumption.max(a.num_states());
        match level(comps, k - 1, Some(&a), spec, budget, refine, stats)? {
            Level::Holds => return Ok(Level::Holds),
            Level::Fails(b) => match analyze_and_refine_with(&b.0, l, &mut part, refine)? {
                Analysis::Spurious => continue,
                Analysis::Real(r) => {
                    let t = obtain_cex_with_mapping(&b.0.tree, l, &r);
                    let down = match (&prod, a_in) {
                        (Some(p), Some(ai)) => project(&t, p, ai),
                        _ => t,
                    };
                    return Ok(Level::Fails(Box::new((down, b.1, b.2))));
                }
            },
        }
    }
}
