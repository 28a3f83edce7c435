//! Assumption learning for rule ASYM (thesis Ch. 5): FINDCONSISTENT by state-space
//! partitioning, solved with the `cove-sat` CDCL solver, and the ASYM teacher.
//!
//! # FINDCONSISTENT (Sec. 5.2.1)
//! The positive samples (trees simulated by the target) are put side by side; a
//! conjecture is a quotient of this union by a partition in which all sample roots share
//! class 0 (Definition 13), so every positive sample is simulated by it (Lemma 20). It is
//! *consistent* when it simulates no negative sample. Partitions with `k = 1, 2, …` classes
//! are searched with SAT:
//!
//! * Boolean `x[s][i]` ⇔ `[s] = i`; exactly one class per state; roots in class 0; the
//!   `p`-th non-root state may only use classes `0..=p` (symmetry breaking).
//! * Consistency is not encoded up front (Fig. 5.5 would need linear arithmetic over the
//!   weights). Instead each SAT model is checked explicitly: if a negative sample `N` is
//!   simulated by the quotient, the simulation only uses a few quotient transitions, each
//!   of which exists because of the classes of one sample transition's source and support
//!   states. Every partition that puts those states in the same classes again has those
//!   transitions with the same lifted distributions, hence still simulates `N` (more
//!   transitions never hurt), so the clause `⋁ ¬x[s][class(s)]` over those states is a
//!   sound blocking clause. This is lazy clause generation; it explores exactly the
//!   partitions the eager encoding would accept.
//! * A consistent partition exists iff no negative sample is simulated by `L_𝒫` (roots
//!   merged, nothing else), which is checked first.
//!
//! The result is a least-size consistent *ordinary* partition, not a least LPTS (that
//! needs stochastic partitions, Sec. 5.2.2, a semi-algorithm not implemented here).
//!
//! # Teacher (Sec. 5.4)
//! Premise 1 `L1 ∥ A ⪯ P` failing gives a counterexample `C`; its projection `N = C↓A`
//! is a negative sample unless `N ⪯ L2`, in which case `C` is a real counterexample (the
//! argument of Lemma 28). Premise 2 `L2 ⪯ A` failing gives a positive sample.

use crate::agar::{Stats, Verdict, project};
use crate::cex::{SimAnswer, build_counterexample, check_simulation};
use crate::compose::{TooLarge, compose_limited};
use crate::lpts::{Lpts, StateId, TransId};
use crate::sim::{ActionIndex, Simulation};
use cove_sat::{LBool, Lit, SolveResult, Solver, Var};
use std::collections::HashSet;
use std::time::Instant;

/// Errors of the learner.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LearnError {
    /// Some negative sample is simulated by every candidate: the samples contradict.
    #[error("no consistent LPTS exists for these samples")]
    Inconsistent,
    /// The SAT solver gave up.
    #[error("SAT solver returned unknown")]
    SatUnknown,
    /// The learning loop hit its iteration limit (an honest "unknown").
    #[error("no answer within {0} learning iterations")]
    IterationLimit(usize),
    /// The time limit was reached (an honest "unknown").
    #[error("no answer within the time limit")]
    TimeLimit,
    /// A composition exceeded the state limit.
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    /// Counterexample construction failed.
    #[error(transparent)]
    Cex(#[from] crate::cex::CexError),
}

/// The positive samples side by side; state 0 is the first root.
struct Union {
    lpts: Lpts,
    roots: Vec<StateId>,
}

fn union(pos: &[Lpts], alphabet: &[String]) -> Union {
    let mut l = Lpts::new("u0");
    for a in alphabet {
        l.add_action(a);
    }
    let mut roots = Vec::new();
    for (k, p) in pos.iter().enumerate() {
        let base = if k == 0 {
            0
        } else {
            l.add_state(format!("u{}", l.num_states()))
        };
        // map p's states: its initial to `base`, the others to fresh states
        let mut id = vec![usize::MAX; p.num_states()];
        id[p.initial()] = base;
        for (s, slot) in id.iter_mut().enumerate() {
            if s != p.initial() {
                *slot = l.add_state(format!("u{}", l.num_states()));
            }
        }
        for t in p.transitions() {
            let a = l.add_action(p.action_name(t.action));
            l.add_transition(id[t.src], a, t.dist.map(|s| id[s]));
        }
        roots.push(base);
    }
    if roots.is_empty() {
        roots.push(0);
    }
    Union { lpts: l, roots }
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

/// The union states whose classes make `q` simulate `n` (see the module docs), or `None`
/// if `q` does not simulate `n`.
fn simulation_support(n: &Lpts, q: &Lpts, u: &Lpts, origin: &[TransId]) -> Option<Vec<StateId>> {
    let sim = Simulation::compute(n, q);
    if !sim.related(n.initial(), q.initial()) {
        return None;
    }
    let idx = ActionIndex::new(n, q);
    let mut used: HashSet<StateId> = HashSet::new();
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
            used.insert(ut.src);
            used.extend(ut.dist.support());
            for (y, h, _) in w {
                work.push((y, h));
            }
        }
    }
    let mut v: Vec<StateId> = used.into_iter().collect();
    v.sort_unstable();
    Some(v)
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
    PartitionSearch::new(pos, alphabet).next(neg, deadline)
}

/// Incremental FINDCONSISTENT for a fixed set of positive samples and a growing set of
/// negative ones. Blocking clauses stay valid when negatives are added (they exclude
/// partitions that simulate an old negative, which stays negative) and when `k` grows
/// (they name concrete class assignments), so the search resumes where it stopped: the
/// least consistent size can only grow.
pub struct PartitionSearch {
    un: Union,
    is_root: Vec<bool>,
    /// Number of classes of `L_𝒫`; an upper bound on the search.
    max_k: usize,
    lp: Lpts,
    lp_origin: Vec<TransId>,
    k: usize,
    solver: Solver,
    x: Vec<Vec<Var>>,
    blocking: Vec<Vec<(StateId, usize)>>,
}

impl PartitionSearch {
    /// A search over partitions of the given positive samples.
    pub fn new(pos: &[Lpts], alphabet: &[String]) -> PartitionSearch {
        let un = union(pos, alphabet);
        let m = un.lpts.num_states();
        let is_root: Vec<bool> = (0..m).map(|s| un.roots.contains(&s)).collect();
        let mut lp_class = vec![0usize; m];
        let mut next = 1;
        for s in 0..m {
            if !is_root[s] {
                lp_class[s] = next;
                next += 1;
            }
        }
        let (lp, lp_origin) = quotient_with_origin(&un.lpts, &lp_class, next);
        let mut search = PartitionSearch {
            un,
            is_root,
            max_k: next,
            lp,
            lp_origin,
            k: 0,
            solver: Solver::new(),
            x: Vec::new(),
            blocking: Vec::new(),
        };
        search.start(1);
        search
    }

    fn start(&mut self, k: usize) {
        self.k = k;
        self.solver = Solver::new();
        let m = self.un.lpts.num_states();
        let solver = &mut self.solver;
        self.x = (0..m)
            .map(|_| (0..k).map(|_| solver.new_var()).collect())
            .collect();
        let mut p = 0;
        for s in 0..m {
            let allowed = if self.is_root[s] {
                1
            } else {
                p += 1;
                (p + 1).min(k)
            };
            for &v in &self.x[s][allowed..k] {
                self.solver.add_clause(&[Lit::new(v, true)]);
            }
            let alo: Vec<Lit> = (0..allowed)
                .map(|i| Lit::new(self.x[s][i], false))
                .collect();
            self.solver.add_clause(&alo);
            for i in 0..allowed {
                for j in i + 1..allowed {
                    self.solver
                        .add_clause(&[Lit::new(self.x[s][i], true), Lit::new(self.x[s][j], true)]);
                }
            }
        }
        for b in &self.blocking {
            let clause: Vec<Lit> = b
                .iter()
                .filter(|&&(_, c)| c < k)
                .map(|&(s, c)| Lit::new(self.x[s][c], true))
                .collect();
            if clause.len() == b.len() {
                self.solver.add_clause(&clause);
            }
        }
    }

    /// The next least-size consistent conjecture for the negatives `neg` (which must
    /// include all negatives passed before), and the number of SAT calls made.
    pub fn next(
        &mut self,
        neg: &[Lpts],
        deadline: Option<Instant>,
    ) -> Result<(Lpts, usize), LearnError> {
        let u = &self.un.lpts;
        if neg
            .iter()
            .any(|n| simulation_support(n, &self.lp, u, &self.lp_origin).is_some())
        {
            return Err(LearnError::Inconsistent);
        }
        let m = self.un.lpts.num_states();
        let mut sat_calls = 0;
        loop {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(LearnError::TimeLimit);
            }
            sat_calls += 1;
            // One SAT call can be long: it follows the deadline too.
            let limits = match deadline {
                Some(d) => cove_sat::Limits::of(
                    &cove_control::Control::new()
                        .with_timeout(d.saturating_duration_since(Instant::now())),
                ),
                None => cove_sat::Limits::default(),
            };
            match self
                .solver
                .solve_limited(&[], &mut cove_sat::NoTheory, &limits)
            {
                SolveResult::Unknown if deadline.is_some_and(|d| Instant::now() >= d) => {
                    return Err(LearnError::TimeLimit);
                }
                SolveResult::Unknown => return Err(LearnError::SatUnknown),
                SolveResult::Unsat => {
                    if self.k >= self.max_k {
                        // L_𝒫 itself is consistent (checked above): unreachable.
                        return Err(LearnError::Inconsistent);
                    }
                    self.start(self.k + 1);
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
            let u = &self.un.lpts;
            let (q, origin) = quotient_with_origin(u, &class, k);
            match neg
                .iter()
                .find_map(|n| simulation_support(n, &q, u, &origin))
            {
                None => return Ok((q.restrict_to_reachable(), sat_calls)),
                Some(states) => {
                    let b: Vec<(StateId, usize)> = states.iter().map(|&s| (s, class[s])).collect();
                    let clause: Vec<Lit> = b
                        .iter()
                        .map(|&(s, c)| Lit::new(self.x[s][c], true))
                        .collect();
                    self.blocking.push(b);
                    self.solver.add_clause(&clause);
                }
            }
        }
    }
}

/// ASYM with a learned assumption for `L2`: `L1 ∥ L2 ⪯ P`. Gives up after
/// `max_iterations` conjectures or at `deadline`. Set `COVE_LEARN_TRACE` in the
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
    let start = Instant::now();
    let mut stats = Stats::default();
    let mut pos: Vec<Lpts> = Vec::new();
    let mut neg: Vec<Lpts> = Vec::new();
    let alphabet: Vec<String> = l2.actions().to_vec();
    let mut search = PartitionSearch::new(&pos, &alphabet);
    for _ in 0..max_iterations {
        stats.iterations += 1;
        let (a, calls) = search.next(&neg, deadline)?;
        if std::env::var_os("COVE_LEARN_TRACE").is_some() {
            eprintln!(
                "learn: iter {} pos {} neg {} sat calls {calls} conjecture {}",
                stats.iterations,
                pos.len(),
                neg.len(),
                a.num_states()
            );
        }
        stats.largest_assumption = stats.largest_assumption.max(a.num_states());
        // Premise 1: L1 ∥ A ⪯ P.
        let prod = compose_limited(l1, &a, limit)?;
        stats.largest_composed = stats.largest_composed.max(prod.lpts.num_states());
        let sim = Simulation::compute(&prod.lpts, spec);
        if !sim.related(prod.lpts.initial(), spec.initial()) {
            let cex = build_counterexample(
                &prod.lpts,
                spec,
                &sim,
                prod.lpts.initial(),
                spec.initial(),
                tree_limit,
            )?;
            let n = project(&cex, &prod, &a);
            if crate::sim::simulates(&n.tree, l2) {
                stats.time = start.elapsed();
                return Ok((Verdict::fails(cex, prod.lpts), stats));
            }
            neg.push(n.tree);
            continue;
        }
        // Premise 2: L2 ⪯ A.
        match check_simulation(l2, &a, tree_limit)? {
            SimAnswer::Holds => {
                stats.time = start.elapsed();
                return Ok((Verdict::Holds, stats));
            }
            SimAnswer::Fails(c) => {
                pos.push(c.tree);
                search = PartitionSearch::new(&pos, &alphabet);
            }
        }
    }
    Err(LearnError::IterationLimit(max_iterations))
}
