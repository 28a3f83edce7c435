//! Assumption learning for rule ASYM (thesis Ch. 5): FINDCONSISTENT by state-space
//! partitioning (SAT, `cove-sat`) or by stochastic partitioning (SMT over linear real
//! arithmetic, `cove-smt`), and the ASYM teacher.
//!
//! # The positive samples
//! Positive samples (trees simulated by the target `L2`) are put side by side in one
//! `Union` that only grows: a new sample appends states, so state ids, and with them
//! every constraint learnt so far, stay valid. All sample roots share group 0.
//!
//! # FINDCONSISTENT by partitioning (Sec. 5.2.1), [`PartitionSearch`]
//! A conjecture is the quotient of the union by a partition with the roots in class 0
//! (Definition 13); it simulates every positive sample (Lemma 20) and is *consistent* when
//! it simulates no negative sample. Partitions with `k = 1, 2, …` classes are searched with
//! one incremental SAT solver:
//!
//! * Boolean `x[s][i]` ⇔ `[s] = i`; at most one class per state (permanent clauses), at
//!   least one among the current `k` (clauses guarded by an activation literal per `k`,
//!   so growing `k` adds a column instead of a new solver); roots in class 0; the `p`-th
//!   non-root state only uses classes `0..=p` (symmetry breaking).
//! * Consistency is not encoded up front (Fig. 5.5 needs linear arithmetic over the
//!   lifted weights). Each SAT model is checked explicitly: if a negative sample `N` is
//!   simulated by the quotient, the simulation's proof visits pairs `(x, g)` of a tree
//!   node and a class, and for each it needs one *group* of union states in one class:
//!   the sources of the union transitions matching `x`'s transitions at `g`, and the
//!   support states in `g` of the matched parent transition that gives `x` its weight on
//!   `g` (and state 0 for the root pair). Every partition that keeps each group together
//!   maps the proof onto its own quotient (a group's class becomes its node's partner;
//!   lifted masses of merged classes add up), so it still simulates `N`. The blocking
//!   clause says "some group is split": `⋁ ¬e[r][u]` over each group's representative
//!   `r` and its other members `u`, with `e[s][t]` ⇐ `x[s][i] ∧ x[t][i]`. It names no
//!   class number, so it blocks all renumberings and all partitions that keep the groups
//!   together at once, and it stays valid when `k` grows, when negatives are added (an
//!   old negative stays negative) and when positives are added (more transitions never
//!   hurt a simulation). The first version blocked `⋁ ¬x[s][class(s)]`, one numbering of
//!   one assignment of the proof's states at a time, and restarted the solver for every
//!   `k` and every positive sample.
//! * A consistent partition exists iff no negative is simulated by `L_𝒫` (roots merged,
//!   nothing else), which is checked first.
//!
//! The result is a least-size consistent *ordinary* partition.
//!
//! # Partitions tied to the target ([`FindConsistent::Mapped`], the default)
//! The teacher's positive samples come with execution mappings into `L2` (Condition 1).
//! Tying the union states that copy the same `L2` state to one class variable makes every
//! conjecture a quotient of the part of `L2` the samples cover: the search space is the
//! partitions of at most `|L2|` items however many samples arrive, instead of partitions
//! of a union that grows with every sample (on SN(1) the untied search was still at 3
//! classes after 50 iterations and a union of 380 states, refuting one candidate at a
//! time). The learner still converges when the property holds: the tied `L_𝒫` is
//! simulated by `L2` (through the mappings), so no negative (which `L2` does not simulate,
//! or the teacher would have reported a real counterexample) is simulated by it, and there
//! are finitely many tied conjectures. Least size is only among tied partitions.
//!
//! # FINDCONSISTENT by stochastic partitioning (Sec. 5.2.2), [`StochasticSearch`]
//! A stochastic partition (Definition 14) gives every non-root state `s`, for each group
//! `g_i` its parent may be in, a distribution `p[s][i][·]` over groups; the quotient
//! (Definition 15) lifts `s −a→ μ` at a group `g_i ∋ s` to `g_j ↦ Σ_s' μ(s')·p[s'][i][j]`.
//! A consistent stochastic partition with `k` groups exists iff a consistent LPTS with `k`
//! states exists (Corollary 4), so this search returns least-size conjectures. The
//! encoding (Fig. 5.7) in `cove-smt`:
//!
//! * reals `p[s][i][j] ≥ 0`; Booleans `m[s][i]` over-approximating "`s ∈ g_i`"
//!   (`p[s][h][i] > 0 ⇒ m[s][i]`); `Σ_j p[s][i][j]` is 1 if `m[parent(s)][i]`, else 0;
//!   roots are in `g_0` only; groups `1..k` are ordered by their least member.
//! * ENCODENOTSIM (Fig. 5.5) for a negative tree `N`, with the group-indexed relation of
//!   the thesis's note: Booleans `R[n][i]`, `¬R[root][0]`, and `¬R[n][i]` ⇒ some transition
//!   `n −a→ μ` such that every union `s −a→ μ_s` with `m[s][i]` fails the Hall condition:
//!   some `X ⊆ Supp μ` with `μ(X) > Σ_j z_j`, `z_j ≥ ν_j` whenever some `c ∈ X` has
//!   `R[c][j]`, where `ν = lift_{g_i}(μ_s)` is linear in the `p`s. Only this direction is
//!   needed: by induction from the leaves `R` contains the greatest simulation, so
//!   `¬R[root][0]` proves `N` is not simulated; and every consistent stochastic partition
//!   satisfies it (take `R` the greatest simulation and the Hall violators of Lemma 11).
//! * Negatives are encoded lazily: a model's quotient is built with exact rationals and
//!   checked against the negatives by the explicit simulation algorithm; only negatives
//!   it simulates are encoded (most negatives are never needed). A quotient is only
//!   returned after it was checked to simulate every positive and no negative.
//!
//! Stochastic learning is a semi-algorithm (Theorem 16): the probabilities are the
//! solver's choice, and a teacher may keep refuting them. So at each size the search first
//! assumes that every weight is 0 or 1 (a context-dependent ordinary partition, whose
//! probabilities are copies of the samples') and only frees the weights when that is
//! unsatisfiable; the size found is still the least. Without this, CSN(2) went through 81
//! negatives at two states in 60 s without an answer; with it, it is proved in 0.6 s.
//!
//! # Teacher (Sec. 5.4)
//! Premise 1 `L1 ∥ A ⪯ P` failing gives a counterexample `C`; its projection `N = C↓A`
//! is a negative sample unless `N ⪯ L2`, in which case `C` is a real counterexample (the
//! argument of Lemma 28). Premise 2 `L2 ⪯ A` failing gives a positive sample; it is
//! checked after a failed premise 1 as well (two samples per conjecture), on `L2`'s
//! bisimulation quotient computed once per run, and with [`Positives::Rich`] the sample
//! carries every move the conjecture lacks until the first negative arrives. All checks
//! run under the [`Budget`] (deadline, memory, state limit), as do the solver calls.

use crate::agar::{AgarError, Budget, Stats, Verdict, project};
use crate::bisim::bisimulation;
use crate::cex::{
    Counterexample, SimAnswer, build_counterexample, build_rich_counterexample, lift_counterexample,
};
use crate::compose::TooLarge;
use crate::lpts::{Dist, Lpts, StateId, TransId};
use crate::partition::{Partition, quotient};
use crate::sim::{ActionIndex, Simulation, simulates};
use cove_logic::{Rational, Sort, TermId, TermStore, Value};
use cove_sat::{LBool, Lit, SolveResult, Solver, Var};
use cove_smt::{SmtResult, SmtSolver};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// Errors of the learner.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LearnError {
    /// Some negative sample is simulated by every candidate: the samples contradict.
    #[error("no consistent LPTS exists for these samples")]
    Inconsistent,
    /// The SAT or SMT solver gave up.
    #[error("SAT solver returned unknown")]
    SatUnknown,
    /// The learning loop hit its iteration limit (an honest "unknown").
    #[error("no answer within {0} learning iterations")]
    IterationLimit(usize),
    /// The time limit was reached (an honest "unknown").
    #[error("no answer within the time limit")]
    TimeLimit,
    /// The memory limit was reached (an honest "unknown").
    #[error("memory limit reached")]
    MemoryLimit,
    /// The run was stopped from outside (`Control::stop`, Ctrl-C).
    #[error("interrupted")]
    Interrupted,
    /// A composition exceeded the state limit.
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    /// Counterexample construction failed.
    #[error(transparent)]
    Cex(#[from] crate::cex::CexError),
    /// A solver model failed the exact re-check (a bug; never accepted).
    #[error("solver model rejected by the exact check: {0}")]
    ModelRejected(String),
}

impl From<AgarError> for LearnError {
    fn from(e: AgarError) -> LearnError {
        match e {
            AgarError::TooLarge(t) => LearnError::TooLarge(t),
            AgarError::Cex(c) => LearnError::Cex(c),
            AgarError::MemoryLimit => LearnError::MemoryLimit,
            AgarError::TimeLimit => LearnError::TimeLimit,
            AgarError::Interrupted => LearnError::Interrupted,
            other => LearnError::ModelRejected(other.to_string()),
        }
    }
}

/// How FINDCONSISTENT searches for a conjecture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FindConsistent {
    /// Least ordinary partition of the positive samples (Sec. 5.2.1): SAT with blocking
    /// clauses; converges for true conformances (Theorem 15).
    Partition,
    /// Least ordinary partition among those that keep together the union states copying
    /// the same state of `L2` (the teacher's execution mappings of the positive samples):
    /// the conjectures are quotients of the part of `L2` the samples cover, so the search
    /// space stops growing with the samples. Not least-size in general. The default: on
    /// SN(1) it answers in 0.1 s where `partition` has no answer after a minute.
    #[default]
    Mapped,
    /// Least stochastic partition (Sec. 5.2.2): SMT over the groups' weights; least-size
    /// conjectures, a semi-algorithm.
    Stochastic,
}

impl FindConsistent {
    /// Every procedure.
    pub const ALL: [FindConsistent; 3] = [
        FindConsistent::Partition,
        FindConsistent::Mapped,
        FindConsistent::Stochastic,
    ];

    /// Name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            FindConsistent::Partition => "partition",
            FindConsistent::Mapped => "mapped",
            FindConsistent::Stochastic => "stochastic",
        }
    }
}

impl std::str::FromStr for FindConsistent {
    type Err = String;

    /// Parses a name as printed by [`FindConsistent::name`].
    fn from_str(s: &str) -> Result<FindConsistent, String> {
        FindConsistent::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = FindConsistent::ALL.iter().map(|m| m.name()).collect();
                format!(
                    "unknown FINDCONSISTENT procedure `{s}` (one of {})",
                    names.join(", ")
                )
            })
    }
}

/// Settings of one learning run.
#[derive(Clone, Debug)]
pub struct LearnOptions {
    /// The FINDCONSISTENT procedure.
    pub find: FindConsistent,
    /// State, tree, time and memory limits (also followed inside the solver calls).
    pub budget: Budget,
    /// Give up after this many conjectures.
    pub max_iterations: usize,
    /// One progress line per iteration on standard error.
    pub trace: bool,
    /// Check premise 2 also when premise 1 failed, so that one conjecture can yield a
    /// negative and a positive sample.
    pub both_premises: bool,
    /// Which positive samples premise 2 yields.
    pub positives: Positives,
}

/// The positive samples the teacher hands out when `L2 ⪯ A` fails.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Positives {
    /// Until the first negative sample, counterexamples with every failing transition at
    /// each node; ordinary ones afterwards. Far fewer conjectures
    /// while the assumption mostly gains moves (MER(5): 6 instead of 51); rich samples for
    /// the whole run made the union grow too fast once negatives had to carve it up (the
    /// buggy MER(3): no answer in 120 s instead of 0.16 s), hence the switch.
    #[default]
    Rich,
    /// Always the ordinary counterexample (Theorem 10's construction).
    Plain,
}

impl Positives {
    /// Both kinds.
    pub const ALL: [Positives; 2] = [Positives::Rich, Positives::Plain];

    /// Name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Positives::Rich => "rich",
            Positives::Plain => "plain",
        }
    }
}

impl std::str::FromStr for Positives {
    type Err = String;

    /// Parses a name as printed by [`Positives::name`].
    fn from_str(s: &str) -> Result<Positives, String> {
        Positives::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Positives::ALL.iter().map(|m| m.name()).collect();
                format!(
                    "unknown kind of positive samples `{s}` (one of {})",
                    names.join(", ")
                )
            })
    }
}

impl Default for LearnOptions {
    fn default() -> Self {
        LearnOptions {
            find: FindConsistent::default(),
            budget: Budget::default(),
            max_iterations: 100_000,
            trace: false,
            both_premises: true,
            positives: Positives::default(),
        }
    }
}

/// Where a learning run spent its work (filled in also when it gives up).
#[derive(Clone, Debug, Default)]
pub struct LearnProfile {
    /// Conjectures made.
    pub iterations: usize,
    /// Positive / negative samples received.
    pub positives: usize,
    /// Negative samples received.
    pub negatives: usize,
    /// States of the union of the positive samples.
    pub union_states: usize,
    /// Size of the last conjecture.
    pub last_conjecture: usize,
    /// Solver calls (SAT or SMT) made by FINDCONSISTENT.
    pub solver_calls: usize,
    /// Blocking clauses added (partition) or negatives encoded (stochastic).
    pub blocked: usize,
    /// Time in FINDCONSISTENT.
    pub find_time: Duration,
    /// Time in premise 1 (composition, simulation, counterexample, projection, the
    /// spuriousness check).
    pub premise1_time: Duration,
    /// Time in premise 2 (`L2 ⪯ A` and its counterexample).
    pub premise2_time: Duration,
}

/// The sample and solver counts with the time per phase (one wording for the `-v` trace
/// and the summary line).
impl std::fmt::Display for LearnProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} positive / {} negative samples, union {} states, {} solver calls, {} blocked; \
             FINDCONSISTENT {:.3} s, premise 1 {:.3} s, premise 2 {:.3} s",
            self.positives,
            self.negatives,
            self.union_states,
            self.solver_calls,
            self.blocked,
            self.find_time.as_secs_f64(),
            self.premise1_time.as_secs_f64(),
            self.premise2_time.as_secs_f64()
        )
    }
}

/// The positive samples side by side; state 0 is the first root. Only grows.
struct Union {
    lpts: Lpts,
    roots: Vec<StateId>,
    is_root: Vec<bool>,
    /// The parent of every non-root state (samples are trees).
    parent: Vec<Option<StateId>>,
    samples: usize,
}

impl Union {
    fn new(alphabet: &[String]) -> Union {
        let mut l = Lpts::new("u0");
        for a in alphabet {
            l.add_action(a);
        }
        Union {
            lpts: l,
            roots: vec![0],
            is_root: vec![true],
            parent: vec![None],
            samples: 0,
        }
    }

    /// Appends a positive tree; returns the union state of each of its states.
    fn add(&mut self, p: &Lpts) -> Vec<StateId> {
        let base = if self.samples == 0 {
            0
        } else {
            let r = self.push_state(None);
            self.roots.push(r);
            self.is_root[r] = true;
            r
        };
        self.samples += 1;
        let mut id = vec![usize::MAX; p.num_states()];
        id[p.initial()] = base;
        for (s, slot) in id.iter_mut().enumerate() {
            if s != p.initial() {
                *slot = self.push_state(None);
            }
        }
        for t in p.transitions() {
            let a = self.lpts.add_action(p.action_name(t.action));
            for s in t.dist.support() {
                self.parent[id[s]] = Some(id[t.src]);
            }
            self.lpts
                .add_transition(id[t.src], a, t.dist.map(|s| id[s]));
        }
        id
    }

    fn push_state(&mut self, parent: Option<StateId>) -> StateId {
        let s = self.lpts.add_state(format!("u{}", self.lpts.num_states()));
        self.is_root.push(false);
        self.parent.push(parent);
        s
    }

    /// The union's states, parents before children.
    fn topological(&self) -> Vec<StateId> {
        let mut order: Vec<StateId> = self.roots.clone();
        let mut i = 0;
        while i < order.len() {
            let s = order[i];
            i += 1;
            for &t in self.lpts.outgoing(s) {
                order.extend(self.lpts.transition(t).dist.support());
            }
        }
        order
    }

    /// `L_𝒫`: the quotient with the roots merged and nothing else, with its classes.
    fn lp(&self) -> (Lpts, Vec<TransId>, Vec<usize>) {
        let m = self.lpts.num_states();
        let mut class = vec![0usize; m];
        let mut next = 1;
        for (s, c) in class.iter_mut().enumerate() {
            if !self.is_root[s] {
                *c = next;
                next += 1;
            }
        }
        let (q, origin) = quotient_with_origin(&self.lpts, &class, next);
        (q, origin, class)
    }
}

/// The quotient of the union by a class assignment, with one origin transition per
/// quotient transition.
fn quotient_with_origin(u: &Lpts, class: &[usize], k: usize) -> (Lpts, Vec<TransId>) {
    let mut q = Lpts::new("g0");
    for i in 1..k {
        q.add_state(format!("g{i}"));
    }
    for a in u.actions() {
        q.add_action(a);
    }
    let mut origin = Vec::new();
    for (t, tr) in u.transitions().iter().enumerate() {
        let before = q.num_transitions();
        let qt = q.add_transition(class[tr.src], tr.action, tr.dist.map(|s| class[s]));
        if qt == before {
            origin.push(t);
        }
    }
    q.set_initial(class[0]);
    (q, origin)
}

/// Why `q = U/class` simulates `n`, as groups of union states that the simulation needs
/// in one class (see the module docs), or `None` if `q` does not simulate `n`.
///
/// For every pair `(x, g)` the proof visits, its group holds the sources of the union
/// transitions that match `x`'s transitions at `g`, and, for every matched parent
/// transition that gives `x` weight on `g`, the support states of that union transition
/// in class `g`; the root pair's group also holds state 0. Any partition that keeps each
/// group in one class maps the proof onto its own quotient (each group's class becomes the
/// partner of its tree node), so it still simulates `n`.
fn simulation_support(
    n: &Lpts,
    q: &Lpts,
    u: &Lpts,
    origin: &[TransId],
    class: &[usize],
) -> Option<Vec<Vec<StateId>>> {
    let sim = Simulation::compute(n, q);
    if !sim.related(n.initial(), q.initial()) {
        return None;
    }
    let idx = ActionIndex::new(n, q);
    let mut groups: HashMap<(StateId, StateId), Vec<StateId>> = HashMap::new();
    groups.insert((n.initial(), q.initial()), vec![0]);
    let mut seen = HashSet::new();
    let mut work = vec![(n.initial(), q.initial())];
    while let Some((x, g)) = work.pop() {
        if !seen.insert((x, g)) {
            continue;
        }
        for &t in n.outgoing(x) {
            let tr = n.transition(t);
            let (qt, w) = idx
                .first_match(q, g, tr.action, &tr.dist, &|a, b| sim.related(a, b))
                .expect("related pairs are matched");
            let ut = u.transition(origin[qt]);
            groups.entry((x, g)).or_default().push(ut.src);
            for (y, h, _) in w {
                let e = groups.entry((y, h)).or_default();
                e.extend(ut.dist.support().filter(|&s| class[s] == h));
                work.push((y, h));
            }
        }
    }
    let mut out: Vec<Vec<StateId>> = groups
        .into_values()
        .map(|mut v| {
            v.sort_unstable();
            v.dedup();
            v
        })
        .filter(|v| v.len() > 1)
        .collect();
    out.sort_unstable();
    Some(out)
}

/// A control with only `deadline` (the learner's entry points that take a deadline).
fn until(deadline: Option<Instant>) -> cove_control::Control {
    cove_control::Control {
        deadline,
        ..cove_control::Control::new()
    }
}

/// SAT/SMT limits that follow the budget's deadline and memory limit inside a call.
fn sat_limits(budget: &Budget) -> cove_sat::Limits {
    cove_sat::Limits::of(&budget.control)
}

/// The limit that stopped a solver call, if one did.
fn limit_hit(budget: &Budget) -> Option<LearnError> {
    budget.check().err().map(Into::into)
}

/// A least-size consistent partition quotient of the positive samples, over `alphabet`.
/// Returns the conjecture and the number of SAT calls made.
pub fn find_consistent(
    pos: &[Lpts],
    neg: &[Lpts],
    alphabet: &[String],
) -> Result<(Lpts, usize), LearnError> {
    find_consistent_until(pos, neg, alphabet, None)
}

/// [`find_consistent`] with a deadline.
pub fn find_consistent_until(
    pos: &[Lpts],
    neg: &[Lpts],
    alphabet: &[String],
    deadline: Option<Instant>,
) -> Result<(Lpts, usize), LearnError> {
    let mut s = PartitionSearch::new(alphabet);
    for p in pos {
        s.add_positive(p);
    }
    let budget = Budget {
        control: until(deadline),
        ..Budget::default()
    };
    let q = s.next(neg, &budget)?;
    Ok((q, s.sat_calls))
}

/// A least-size consistent *stochastic* partition quotient (Sec. 5.2.2) of the positive
/// samples; returns the conjecture and the number of SMT calls made.
pub fn find_consistent_stochastic(
    pos: &[Lpts],
    neg: &[Lpts],
    alphabet: &[String],
    deadline: Option<Instant>,
) -> Result<(Lpts, usize), LearnError> {
    let mut s = StochasticSearch::new(alphabet);
    for p in pos {
        s.add_positive(p);
    }
    let budget = Budget {
        control: until(deadline),
        ..Budget::default()
    };
    let q = s.next(neg, &budget)?;
    Ok((q, s.smt_calls))
}

/// Incremental FINDCONSISTENT by ordinary partitions for growing sets of positive and
/// negative samples (see the module docs): one SAT solver for the whole run.
pub struct PartitionSearch {
    un: Union,
    /// 1-based rank of each non-root state (0 for roots), for symmetry breaking; a state
    /// tied to an earlier one shares its rank. With dense ranks, `rank` is the class
    /// assignment of the finest partition searched (`L_𝒫`, or its tied version).
    rank: Vec<usize>,
    /// The state each state is tied to (itself if none): tied states share their class
    /// variables.
    rep: Vec<StateId>,
    /// With `tie_images`: the first union state copying each state of the target.
    first_of_image: HashMap<StateId, StateId>,
    next_rank: usize,
    k: usize,
    solver: Solver,
    x: Vec<Vec<Var>>,
    /// Activation literal of the current `k`'s at-least-one clauses.
    act: Var,
    eq: HashMap<(StateId, StateId), Var>,
    eq_list: Vec<(StateId, StateId, Var)>,
    /// Negatives known not to be simulated by `L_𝒫` (a prefix; reset by new positives).
    lp_ok: usize,
    /// Order in which negatives are tried (recent blockers first).
    order: Vec<usize>,
    /// SAT calls so far.
    pub sat_calls: usize,
    /// Blocking clauses so far.
    pub blocked: usize,
}

impl PartitionSearch {
    /// A search with no samples yet, over `alphabet`.
    pub fn new(alphabet: &[String]) -> PartitionSearch {
        let mut solver = Solver::new();
        let act = solver.new_var();
        let mut s = PartitionSearch {
            un: Union::new(alphabet),
            rank: Vec::new(),
            rep: Vec::new(),
            first_of_image: HashMap::new(),
            next_rank: 1,
            k: 1,
            solver,
            x: Vec::new(),
            act,
            eq: HashMap::new(),
            eq_list: Vec::new(),
            lp_ok: 0,
            order: Vec::new(),
            sat_calls: 0,
            blocked: 0,
        };
        s.add_state_vars(0, None);
        s
    }

    /// States of the union.
    pub fn union_states(&self) -> usize {
        self.un.lpts.num_states()
    }

    fn add_state_vars(&mut self, s: StateId, image: Option<StateId>) {
        if let Some(m) = image {
            match self.first_of_image.get(&m) {
                Some(&t) if t != s => {
                    // Tied to an earlier copy of the same target state.
                    self.rank.push(self.rank[t]);
                    self.rep.push(self.rep[t]);
                    let vars = self.x[t].clone();
                    self.x.push(vars);
                    return;
                }
                _ => {
                    self.first_of_image.insert(m, s);
                }
            }
        }
        if s < self.x.len() {
            return;
        }
        let r = if self.un.is_root[s] {
            0
        } else {
            self.next_rank += 1;
            self.next_rank - 1
        };
        self.rank.push(r);
        self.rep.push(s);
        let vars: Vec<Var> = (0..self.k).map(|_| self.solver.new_var()).collect();
        for i in 0..self.k {
            for j in i + 1..self.k {
                self.solver
                    .add_clause(&[Lit::new(vars[i], true), Lit::new(vars[j], true)]);
            }
            if i > r || (self.un.is_root[s] && i > 0) {
                self.solver.add_clause(&[Lit::new(vars[i], true)]);
            }
        }
        if self.un.is_root[s] {
            self.solver.add_clause(&[Lit::new(vars[0], false)]);
        }
        let mut alo: Vec<Lit> = vars.iter().map(|&v| Lit::new(v, false)).collect();
        alo.push(Lit::new(self.act, true));
        self.solver.add_clause(&alo);
        self.x.push(vars);
    }

    /// Grows `k` by one class: a new column, a new activation literal.
    fn add_column(&mut self) {
        let j = self.k;
        for s in 0..self.x.len() {
            if self.rep[s] != s {
                let v = self.x[self.rep[s]][j];
                self.x[s].push(v);
                continue;
            }
            let v = self.solver.new_var();
            for i in 0..j {
                self.solver
                    .add_clause(&[Lit::new(self.x[s][i], true), Lit::new(v, true)]);
            }
            if j > self.rank[s] {
                self.solver.add_clause(&[Lit::new(v, true)]);
            }
            self.x[s].push(v);
        }
        for &(s, t, e) in &self.eq_list {
            self.solver.add_clause(&[
                Lit::new(self.x[s][j], true),
                Lit::new(self.x[t][j], true),
                Lit::new(e, false),
            ]);
        }
        self.k += 1;
        self.solver.add_clause(&[Lit::new(self.act, true)]);
        self.act = self.solver.new_var();
        for s in (0..self.x.len()).filter(|&s| self.rep[s] == s) {
            let mut alo: Vec<Lit> = self.x[s].iter().map(|&v| Lit::new(v, false)).collect();
            alo.push(Lit::new(self.act, true));
            self.solver.add_clause(&alo);
        }
    }

    /// `e[s][t]`, implied by `s` and `t` sharing a class; `None` if they are tied.
    fn eq_var(&mut self, s: StateId, t: StateId) -> Option<Var> {
        let (s, t) = (self.rep[s], self.rep[t]);
        if s == t {
            return None;
        }
        let key = (s.min(t), s.max(t));
        if let Some(&e) = self.eq.get(&key) {
            return Some(e);
        }
        let e = self.solver.new_var();
        for i in 0..self.k {
            self.solver.add_clause(&[
                Lit::new(self.x[key.0][i], true),
                Lit::new(self.x[key.1][i], true),
                Lit::new(e, false),
            ]);
        }
        self.eq.insert(key, e);
        self.eq_list.push((key.0, key.1, e));
        Some(e)
    }

    /// Adds a positive sample (a tree).
    pub fn add_positive(&mut self, p: &Lpts) {
        self.add_positive_mapped(p, None);
    }

    /// Adds a positive sample with its execution mapping into the target (`image[s]` for
    /// each state `s` of `p`): with a mapping, union states that copy the same target
    /// state are tied into one class (see [`FindConsistent::Mapped`]).
    pub fn add_positive_mapped(&mut self, p: &Lpts, image: Option<&[StateId]>) {
        let id = self.un.add(p);
        let mut new: Vec<(StateId, Option<StateId>)> = id
            .iter()
            .enumerate()
            .map(|(s, &u)| (u, image.map(|m| m[s])))
            .collect();
        new.sort_unstable();
        for (u, m) in new {
            self.add_state_vars(u, m);
        }
        self.lp_ok = 0;
    }

    /// The next least-size consistent conjecture for the negatives `neg` (which must
    /// include all negatives passed before, in the same order).
    pub fn next(&mut self, neg: &[Lpts], budget: &Budget) -> Result<Lpts, LearnError> {
        if self.lp_ok < neg.len() {
            let class = &self.rank;
            let (lp, origin) = quotient_with_origin(&self.un.lpts, class, self.next_rank);
            let u = &self.un.lpts;
            if neg[self.lp_ok..]
                .iter()
                .any(|n| simulation_support(n, &lp, u, &origin, class).is_some())
            {
                return Err(LearnError::Inconsistent);
            }
            self.lp_ok = neg.len();
        }
        for i in self.order.len()..neg.len() {
            self.order.insert(0, i);
        }
        let m = self.un.lpts.num_states();
        let max_k = self.next_rank;
        loop {
            budget.check()?;
            self.sat_calls += 1;
            let act = Lit::new(self.act, false);
            match self
                .solver
                .solve_limited(&[act], &mut cove_sat::NoTheory, &sat_limits(budget))
            {
                SolveResult::Unknown => {
                    return Err(limit_hit(budget).unwrap_or(LearnError::SatUnknown));
                }
                SolveResult::Unsat => {
                    if self.k >= max_k || !self.solver.is_ok() {
                        // L_𝒫 itself is consistent (checked above): unreachable.
                        return Err(LearnError::Inconsistent);
                    }
                    self.add_column();
                    continue;
                }
                SolveResult::Sat => {}
            }
            let k = self.k;
            let class: Vec<usize> = (0..m)
                .map(|s| {
                    (0..k)
                        .find(|&i| self.solver.value(Lit::new(self.x[s][i], false)) == LBool::True)
                        .expect("exactly one class")
                })
                .collect();
            let (q, origin) = quotient_with_origin(&self.un.lpts, &class, k);
            let mut blocked_by = Vec::new();
            for (pos, &ni) in self.order.iter().enumerate() {
                if let Some(groups) =
                    simulation_support(&neg[ni], &q, &self.un.lpts, &origin, &class)
                {
                    blocked_by.push((pos, groups));
                }
            }
            if blocked_by.is_empty() {
                return Ok(q.restrict_to_reachable());
            }
            for (_, groups) in &blocked_by {
                // Some group of the proof must be split up.
                let mut clause = Vec::new();
                let mut pairs = HashSet::new();
                for g in groups {
                    let r = g
                        .iter()
                        .copied()
                        .find(|&s| self.un.is_root[s])
                        .unwrap_or(g[0]);
                    for &u in g {
                        if u != r
                            && !(self.un.is_root[r] && self.un.is_root[u])
                            && pairs.insert((r.min(u), r.max(u)))
                            && let Some(e) = self.eq_var(r, u)
                        {
                            clause.push(Lit::new(e, true));
                        }
                    }
                }
                if clause.is_empty() {
                    // Only possible if L_𝒫 simulated the negative (checked above).
                    return Err(LearnError::Inconsistent);
                }
                self.solver.add_clause(&clause);
                self.blocked += 1;
            }
            // The negatives that blocked this candidate are tried first next time.
            let first = blocked_by[0].0;
            let ni = self.order.remove(first);
            self.order.insert(0, ni);
        }
    }
}

/// Incremental FINDCONSISTENT by stochastic partitions (see the module docs). The SMT
/// encoding is rebuilt when `k` or the positives change, with the negatives that were
/// needed so far encoded eagerly; other negatives are encoded when a model's quotient
/// simulates them.
pub struct StochasticSearch {
    un: Union,
    pos: Vec<Lpts>,
    k: usize,
    enc: Option<StochEnc>,
    /// Negatives that some model's quotient simulated (encoded in every rebuild).
    active: Vec<usize>,
    lp_ok: usize,
    /// SMT calls so far.
    pub smt_calls: usize,
}

struct StochEnc {
    store: TermStore,
    solver: SmtSolver,
    /// `p[s][i][j]` (empty for roots).
    p: Vec<Vec<Vec<TermId>>>,
    m: Vec<Vec<TermId>>,
    encoded: HashSet<usize>,
    /// Union transitions per action name.
    by_action: HashMap<String, Vec<TransId>>,
    /// Assumed first: every weight is 0 or 1 (a context-dependent ordinary partition).
    ordinary: TermId,
    /// Whether `ordinary` may still be satisfiable (constraints only grow).
    ordinary_ok: bool,
}

impl StochasticSearch {
    /// A search with no samples yet, over `alphabet`.
    pub fn new(alphabet: &[String]) -> StochasticSearch {
        StochasticSearch {
            un: Union::new(alphabet),
            pos: Vec::new(),
            k: 1,
            enc: None,
            active: Vec::new(),
            lp_ok: 0,
            smt_calls: 0,
        }
    }

    /// States of the union.
    pub fn union_states(&self) -> usize {
        self.un.lpts.num_states()
    }

    /// Negatives encoded so far.
    pub fn encoded(&self) -> usize {
        self.active.len()
    }

    /// Adds a positive sample (a tree).
    pub fn add_positive(&mut self, p: &Lpts) {
        let _ = self.un.add(p);
        self.pos.push(p.clone());
        self.enc = None;
        self.lp_ok = 0;
    }

    /// The next least-size consistent conjecture for the negatives `neg` (which must
    /// include all negatives passed before, in the same order).
    pub fn next(&mut self, neg: &[Lpts], budget: &Budget) -> Result<Lpts, LearnError> {
        if self.lp_ok < neg.len() {
            let (lp, origin, class) = self.un.lp();
            let u = &self.un.lpts;
            if neg[self.lp_ok..]
                .iter()
                .any(|n| simulation_support(n, &lp, u, &origin, &class).is_some())
            {
                return Err(LearnError::Inconsistent);
            }
            self.lp_ok = neg.len();
        }
        // Every state of L_𝒫 is a group: k never needs to exceed that.
        let max_k = self.un.lpts.num_states() - self.un.roots.len() + 1;
        loop {
            budget.check()?;
            if self.enc.is_none() {
                let mut e = StochEnc::build(&self.un, self.k);
                for &ni in &self.active {
                    e.encode_negative(&self.un, self.k, ni, &neg[ni]);
                }
                self.enc = Some(e);
            }
            let enc = self.enc.as_mut().expect("built above");
            enc.solver.set_limits(sat_limits(budget));
            // Dirac weights first: among conjectures of the least size, those whose
            // probabilities are copies of the samples' converge like ordinary partitions;
            // free weights are the semi-algorithm's last resort (Theorem 16).
            self.smt_calls += 1;
            let mut res = if enc.ordinary_ok {
                enc.solver.check_assuming(&mut enc.store, &[enc.ordinary])
            } else {
                enc.solver.check(&mut enc.store)
            };
            if enc.ordinary_ok && res == SmtResult::Unsat {
                enc.ordinary_ok = false;
                self.smt_calls += 1;
                res = enc.solver.check(&mut enc.store);
            }
            match res {
                SmtResult::Sat => {}
                SmtResult::Unsat => {
                    if self.k >= max_k {
                        return Err(LearnError::Inconsistent);
                    }
                    self.k += 1;
                    self.enc = None;
                    continue;
                }
                SmtResult::Unknown(_) => {
                    return Err(limit_hit(budget).unwrap_or(LearnError::SatUnknown));
                }
            }
            let q = enc.quotient(&self.un, self.k)?;
            for p in &self.pos {
                if !simulates(p, &q) {
                    return Err(LearnError::ModelRejected(
                        "a positive sample is not simulated by the stochastic quotient".into(),
                    ));
                }
            }
            let mut fresh = Vec::new();
            for (ni, n) in neg.iter().enumerate() {
                if simulates(n, &q) {
                    if enc.encoded.contains(&ni) {
                        return Err(LearnError::ModelRejected(format!(
                            "the quotient simulates the encoded negative {ni}"
                        )));
                    }
                    fresh.push(ni);
                }
            }
            if fresh.is_empty() {
                return Ok(q);
            }
            for ni in fresh {
                enc.encode_negative(&self.un, self.k, ni, &neg[ni]);
                self.active.push(ni);
            }
        }
    }
}

// Index loops: the encoding walks several arrays indexed by (state, group, group) at once.
#[allow(clippy::needless_range_loop)]
impl StochEnc {
    fn bool_var(store: &mut TermStore, prefix: &str) -> TermId {
        let v = store.fresh_var(prefix, Sort::Bool);
        store.mk_var(v)
    }

    fn real_var(store: &mut TermStore, prefix: &str) -> TermId {
        let v = store.fresh_var(prefix, Sort::Real);
        store.mk_var(v)
    }

    /// The structure of a stochastic partition with `k` groups (Definition 14).
    fn build(un: &Union, k: usize) -> StochEnc {
        let mut store = TermStore::new();
        let mut solver = SmtSolver::new();
        let zero = store.mk_num(Rational::ZERO, Sort::Real);
        let one = store.mk_num(Rational::ONE, Sort::Real);
        let n = un.lpts.num_states();
        let ordinary = Self::bool_var(&mut store, "ordinary");
        let m: Vec<Vec<TermId>> = (0..n)
            .map(|s| {
                (0..k)
                    .map(|i| Self::bool_var(&mut store, &format!("m{s}_{i}")))
                    .collect()
            })
            .collect();
        let mut p: Vec<Vec<Vec<TermId>>> = vec![Vec::new(); n];
        for s in 0..n {
            let Some(par) = un.parent[s] else {
                // A root: in g_0 only.
                solver.assert(&mut store, m[s][0]);
                for i in 1..k {
                    let f = store.mk_not(m[s][i]);
                    solver.assert(&mut store, f);
                }
                continue;
            };
            for i in 0..k {
                let row: Vec<TermId> = (0..k)
                    .map(|j| Self::real_var(&mut store, &format!("p{s}_{i}_{j}")))
                    .collect();
                for (j, &v) in row.iter().enumerate() {
                    let nonneg = store.mk_ge(v, zero);
                    solver.assert(&mut store, nonneg);
                    let is0 = store.mk_eq(v, zero);
                    let is1 = store.mk_eq(v, one);
                    let dirac = store.mk_or(&[is0, is1]);
                    let c = store.mk_implies(ordinary, dirac);
                    solver.assert(&mut store, c);
                    // p > 0 ⇒ s ∈ g_j.
                    let pos = store.mk_gt(v, zero);
                    let c = store.mk_implies(pos, m[s][j]);
                    solver.assert(&mut store, c);
                }
                let sum = store.mk_add(&row);
                let is_one = store.mk_eq(sum, one);
                let is_zero = store.mk_eq(sum, zero);
                let c1 = store.mk_implies(m[par][i], is_one);
                solver.assert(&mut store, c1);
                let not_in = store.mk_not(m[par][i]);
                let c0 = store.mk_implies(not_in, is_zero);
                solver.assert(&mut store, c0);
                p[s].push(row);
            }
        }
        // Symmetry: groups 1..k ordered by their least member. f[j] over-approximates
        // "some state up to s is in g_j".
        if k > 2 {
            let mut f_prev: Vec<TermId> = vec![store.mk_false(); k];
            for s in 0..n {
                let mut f_cur = Vec::with_capacity(k);
                for j in 0..k {
                    if j == 0 || j == k - 1 {
                        f_cur.push(store.mk_false());
                        continue;
                    }
                    let f = Self::bool_var(&mut store, &format!("f{s}_{j}"));
                    let up = store.mk_or(&[f_prev[j], m[s][j]]);
                    let c = store.mk_implies(f, up);
                    solver.assert(&mut store, c);
                    f_cur.push(f);
                }
                for j in 2..k {
                    let c = store.mk_implies(m[s][j], f_cur[j - 1]);
                    solver.assert(&mut store, c);
                }
                f_prev = f_cur;
            }
        }
        let mut by_action: HashMap<String, Vec<TransId>> = HashMap::new();
        for (t, tr) in un.lpts.transitions().iter().enumerate() {
            by_action
                .entry(un.lpts.action_name(tr.action).to_string())
                .or_default()
                .push(t);
        }
        StochEnc {
            store,
            solver,
            p,
            m,
            encoded: HashSet::new(),
            by_action,
            ordinary,
            ordinary_ok: true,
        }
    }

    /// ENCODENOTSIM for the negative tree `n` (only the direction needed, see the module
    /// docs).
    fn encode_negative(&mut self, un: &Union, k: usize, ni: usize, n: &Lpts) {
        if !self.encoded.insert(ni) {
            return;
        }
        let store = &mut self.store;
        let zero = store.mk_num(Rational::ZERO, Sort::Real);
        let tt = store.mk_true();
        let r: Vec<Vec<TermId>> = (0..n.num_states())
            .map(|x| {
                (0..k)
                    .map(|i| {
                        if n.outgoing(x).is_empty() {
                            tt
                        } else {
                            Self::bool_var(store, &format!("r{ni}_{x}_{i}"))
                        }
                    })
                    .collect()
            })
            .collect();
        let root_not = store.mk_not(r[n.initial()][0]);
        self.solver.assert(store, root_not);
        // ν_j = lift_{g_i}(μ_u)(g_j), shared by all tree transitions.
        let mut nu: HashMap<(TransId, usize, usize), TermId> = HashMap::new();
        for x in 0..n.num_states() {
            if n.outgoing(x).is_empty() {
                continue;
            }
            for i in 0..k {
                let mut fails = vec![r[x][i]];
                for &t in n.outgoing(x) {
                    let f = Self::bool_var(store, &format!("F{ni}_{t}_{i}"));
                    fails.push(f);
                    let tr = n.transition(t);
                    let cands = self
                        .by_action
                        .get(n.action_name(tr.action))
                        .cloned()
                        .unwrap_or_default();
                    for u in cands {
                        let ut = un.lpts.transition(u);
                        let v = Self::bool_var(store, &format!("V{ni}_{t}_{u}_{i}"));
                        let nf = store.mk_not(f);
                        let nm = store.mk_not(self.m[ut.src][i]);
                        let c = store.mk_or(&[nf, nm, v]);
                        self.solver.assert(store, c);
                        // Hall: X ⊆ Supp μ with μ(X) > Σ_j z_j, z_j ≥ ν_j when X meets R⁻¹(g_j).
                        let mut body = Vec::new();
                        let xs: Vec<(StateId, TermId)> = tr
                            .dist
                            .support()
                            .map(|c| (c, Self::bool_var(store, &format!("X{ni}_{t}_{u}_{i}"))))
                            .collect();
                        let mut zs = Vec::with_capacity(k);
                        for j in 0..k {
                            let z = Self::real_var(store, &format!("z{ni}_{t}_{u}_{i}"));
                            body.push(store.mk_ge(z, zero));
                            let nuj = *nu.entry((u, i, j)).or_insert_with(|| {
                                let terms: Vec<TermId> = ut
                                    .dist
                                    .entries()
                                    .iter()
                                    .map(|(s2, pr)| store.mk_scale(pr, self.p[*s2][i][j]))
                                    .collect();
                                if terms.is_empty() {
                                    zero
                                } else {
                                    store.mk_add(&terms)
                                }
                            });
                            let cover = store.mk_ge(z, nuj);
                            for &(c, xc) in &xs {
                                let nx = store.mk_not(xc);
                                let nr = store.mk_not(r[c][j]);
                                body.push(store.mk_or(&[nx, nr, cover]));
                            }
                            zs.push(z);
                        }
                        let lhs: Vec<TermId> = xs
                            .iter()
                            .map(|&(c, xc)| {
                                let pr = store.mk_num(tr.dist.prob(c), Sort::Real);
                                store.mk_ite(xc, pr, zero)
                            })
                            .collect();
                        let lhs = store.mk_add(&lhs);
                        let rhs = store.mk_add(&zs);
                        body.push(store.mk_gt(lhs, rhs));
                        let body = store.mk_and(&body);
                        self.solver.assert_guarded(store, &[v], body);
                    }
                }
                let c = store.mk_or(&fails);
                self.solver.assert(store, c);
            }
        }
    }

    /// The quotient of the model (Definition 15), with exact rationals and the actual
    /// memberships, computed top-down from the roots.
    fn quotient(&self, un: &Union, k: usize) -> Result<Lpts, LearnError> {
        let n = un.lpts.num_states();
        let val = |t: TermId| -> Result<Rational, LearnError> {
            match self.solver.value(&self.store, t) {
                Some(Value::Num(x)) if !x.is_negative() => Ok(x),
                other => Err(LearnError::ModelRejected(format!(
                    "weight without a non-negative value: {other:?}"
                ))),
            }
        };
        let mut w: Vec<Vec<Vec<Rational>>> = vec![Vec::new(); n];
        for s in 0..n {
            for i in 0..self.p[s].len() {
                let row = self.p[s][i]
                    .iter()
                    .map(|&t| val(t))
                    .collect::<Result<Vec<_>, _>>()?;
                w[s].push(row);
            }
        }
        let mut memb = vec![vec![false; k]; n];
        for s in un.topological() {
            match un.parent[s] {
                None => memb[s][0] = true,
                Some(par) => {
                    for j in 0..k {
                        memb[s][j] = (0..k).any(|i| memb[par][i] && w[s][i][j].is_positive());
                    }
                }
            }
        }
        let mut q = Lpts::new("g0");
        for i in 1..k {
            q.add_state(format!("g{i}"));
        }
        for a in un.lpts.actions() {
            q.add_action(a);
        }
        for tr in un.lpts.transitions() {
            for g in 0..k {
                if !memb[tr.src][g] {
                    continue;
                }
                let mut e = Vec::new();
                for (s2, pr) in tr.dist.entries() {
                    for (j, x) in w[*s2][g].iter().enumerate() {
                        if x.is_positive() {
                            e.push((j, pr * x));
                        }
                    }
                }
                let d = Dist::merged(e).map_err(|e| {
                    LearnError::ModelRejected(format!("a lifted distribution is not one: {e}"))
                })?;
                q.add_transition(g, tr.action, d);
            }
        }
        Ok(q.restrict_to_reachable())
    }
}

/// Either FINDCONSISTENT (one per run: the size difference does not matter).
#[allow(clippy::large_enum_variant)]
enum Search {
    /// Ordinary partitions; `true`: tied by the execution mappings.
    Partition(PartitionSearch, bool),
    Stochastic(StochasticSearch),
}

impl Search {
    fn new(find: FindConsistent, alphabet: &[String]) -> Search {
        match find {
            FindConsistent::Partition => Search::Partition(PartitionSearch::new(alphabet), false),
            FindConsistent::Mapped => Search::Partition(PartitionSearch::new(alphabet), true),
            FindConsistent::Stochastic => Search::Stochastic(StochasticSearch::new(alphabet)),
        }
    }

    fn add_positive(&mut self, p: &Lpts, image: &[StateId]) {
        match self {
            Search::Partition(s, tie) => s.add_positive_mapped(p, tie.then_some(image)),
            Search::Stochastic(s) => s.add_positive(p),
        }
    }

    fn next(&mut self, neg: &[Lpts], budget: &Budget) -> Result<Lpts, LearnError> {
        match self {
            Search::Partition(s, _) => s.next(neg, budget),
            Search::Stochastic(s) => s.next(neg, budget),
        }
    }

    fn record(&self, prof: &mut LearnProfile) {
        match self {
            Search::Partition(s, _) => {
                prof.solver_calls = s.sat_calls;
                prof.blocked = s.blocked;
                prof.union_states = s.union_states();
            }
            Search::Stochastic(s) => {
                prof.solver_calls = s.smt_calls;
                prof.blocked = s.encoded();
                prof.union_states = s.union_states();
            }
        }
    }
}

/// The learned component, reduced once to its bisimulation quotient for the checks of
/// every iteration (`X ⪯ L2 ⟺ X ⪯ L2/~` and `L2 ⪯ A ⟺ L2/~ ⪯ A`); premise-2
/// counterexamples are lifted back to `L2`, so their mappings go into `L2`. Before, each
/// premise-2 check refined `L2`'s bisimulation again (MER(4): 20,736 states, 41 times).
struct Target<'a> {
    l2: &'a Lpts,
    lumped: Option<(Lpts, Partition)>,
}

impl<'a> Target<'a> {
    fn new(l2: &'a Lpts, budget: &Budget) -> Target<'a> {
        let stop = || budget.check().is_err();
        let lumped = bisimulation(l2, &stop)
            .filter(|p| p.num_classes() < l2.num_states())
            .map(|p| (quotient(l2, &p), p));
        Target { l2, lumped }
    }

    fn reduced(&self) -> &Lpts {
        self.lumped.as_ref().map_or(self.l2, |x| &x.0)
    }

    /// `n ⪯ L2`.
    fn simulates(&self, n: &Lpts, budget: &Budget) -> Result<bool, LearnError> {
        let l = self.reduced();
        Ok(budget.simulation(n, l)?.related(n.initial(), l.initial()))
    }

    /// Premise 2, `L2 ⪯ A`, with a counterexample whose mapping goes into `L2`.
    fn premise2(&self, a: &Lpts, budget: &Budget, rich: bool) -> Result<SimAnswer, LearnError> {
        let Some((q, part)) = &self.lumped else {
            // L2 does not lump (tried once in `new`): check it as it is.
            let l2 = self.l2;
            let sim = budget.simulation(l2, a)?;
            if sim.related(l2.initial(), a.initial()) {
                return Ok(SimAnswer::Holds);
            }
            return Ok(SimAnswer::Fails(positive(l2, a, &sim, budget, rich)?));
        };
        let sim = budget.simulation(q, a)?;
        if sim.related(q.initial(), a.initial()) {
            return Ok(SimAnswer::Holds);
        }
        let c = positive(q, a, &sim, budget, rich)?;
        let c = lift_counterexample(&c, q, self.l2, part, budget.max_tree_nodes)?;
        Ok(SimAnswer::Fails(c))
    }
}

/// A positive sample from a failed `l ⪯ a`: the ordinary counterexample, or with `rich`
/// the one with every failing transition at each node ([`build_rich_counterexample`]) when
/// it stays within four times the ordinary one's size (at least 500 nodes). A rich sample
/// shows the learner all moves of `L2` the conjecture lacks at once (MER: a one-state
/// conjecture otherwise gains one user action per premise-2 check).
fn positive(
    l: &Lpts,
    a: &Lpts,
    sim: &Simulation,
    budget: &Budget,
    rich: bool,
) -> Result<Counterexample, LearnError> {
    let c = build_counterexample(l, a, sim, l.initial(), a.initial(), budget.max_tree_nodes)?;
    if !rich {
        return Ok(c);
    }
    let cap = (4 * c.tree.num_states())
        .max(500)
        .min(budget.max_tree_nodes);
    Ok(build_rich_counterexample(l, a, sim, l.initial(), a.initial(), cap).unwrap_or(c))
}

/// ASYM with a learned assumption for `L2`: `L1 ∥ L2 ⪯ P`, with partitioning. Gives up
/// after `max_iterations` conjectures or at `deadline`. Set `COVE_LEARN_TRACE` in the
/// environment for one progress line per iteration on standard error.
pub fn learn_asym(
    l1: &Lpts,
    l2: &Lpts,
    spec: &Lpts,
    limit: usize,
    tree_limit: usize,
    max_iterations: usize,
    deadline: Option<Instant>,
) -> Result<(Verdict, Stats), LearnError> {
    let opts = LearnOptions {
        find: FindConsistent::Partition,
        budget: Budget {
            max_states: limit,
            max_tree_nodes: tree_limit,
            control: until(deadline),
        },
        max_iterations,
        trace: std::env::var_os("COVE_LEARN_TRACE").is_some(),
        ..LearnOptions::default()
    };
    learn_asym_with(l1, l2, spec, &opts, &mut LearnProfile::default())
}

/// ASYM with a learned assumption for `L2` (Sec. 5.4), with the chosen FINDCONSISTENT.
/// `prof` is filled in as the run goes, so it also describes a run that gave up.
pub fn learn_asym_with(
    l1: &Lpts,
    l2: &Lpts,
    spec: &Lpts,
    opts: &LearnOptions,
    prof: &mut LearnProfile,
) -> Result<(Verdict, Stats), LearnError> {
    let start = Instant::now();
    let budget = &opts.budget;
    let mut stats = Stats::default();
    let mut neg: Vec<Lpts> = Vec::new();
    let alphabet: Vec<String> = l2.actions().to_vec();
    let mut search = Search::new(opts.find, &alphabet);
    let target = Target::new(l2, budget);
    for _ in 0..opts.max_iterations {
        budget.check()?;
        stats.iterations += 1;
        prof.iterations = stats.iterations;
        let t = Instant::now();
        let a = search.next(&neg, budget);
        prof.find_time += t.elapsed();
        search.record(prof);
        let a = a?;
        prof.last_conjecture = a.num_states();
        if opts.trace {
            eprintln!(
                "# learn: iteration {}, conjecture {} states, {prof}",
                stats.iterations,
                a.num_states(),
            );
        }
        stats.largest_assumption = stats.largest_assumption.max(a.num_states());
        // Premise 1: L1 ∥ A ⪯ P.
        let neg_before = neg.len();
        let t = Instant::now();
        let prod = budget.compose(l1, &a)?;
        stats.largest_composed = stats.largest_composed.max(prod.lpts.num_states());
        let sim = budget.simulation(&prod.lpts, spec)?;
        if !sim.related(prod.lpts.initial(), spec.initial()) {
            let cex = build_counterexample(
                &prod.lpts,
                spec,
                &sim,
                prod.lpts.initial(),
                spec.initial(),
                budget.max_tree_nodes,
            )?;
            let n = project(&cex, &prod, &a);
            let real = target.simulates(&n.tree, budget)?;
            prof.premise1_time += t.elapsed();
            if real {
                stats.time = start.elapsed();
                return Ok((Verdict::fails(cex, prod.lpts), stats));
            }
            neg.push(n.tree);
            prof.negatives = neg.len();
            if !opts.both_premises {
                continue;
            }
        } else {
            prof.premise1_time += t.elapsed();
        }
        // Premise 2: L2 ⪯ A (also after a negative sample with `both_premises`: one more
        // sample per conjecture, for the price of a check against the small A).
        let t = Instant::now();
        let rich = opts.positives == Positives::Rich && neg.is_empty();
        let ans = target.premise2(&a, budget, rich)?;
        prof.premise2_time += t.elapsed();
        match ans {
            SimAnswer::Holds => {
                if neg_before == neg.len() {
                    stats.time = start.elapsed();
                    return Ok((Verdict::Holds, stats));
                }
            }
            SimAnswer::Fails(c) => {
                search.add_positive(&c.tree, &c.mapping);
                prof.positives += 1;
            }
        }
    }
    Err(LearnError::IterationLimit(opts.max_iterations))
}
