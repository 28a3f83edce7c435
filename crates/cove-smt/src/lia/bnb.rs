//! A complete (up to budgets) procedure for conjunctions of linear constraints over mixed
//! integer/real variables: branch and cut on top of the simplex.
//!
//! Internally every bound carries an *internal* tag indexing `deps`: a user bound, a
//! branch decision, or a cut whose dependencies were expanded to user and branch tags when
//! it was made. A conflict below the branch `x ≤ k` that does not use that branch's tag
//! refutes the parent on its own (no need to try `x ≥ k+1`); otherwise the parent's
//! explanation is the union of both children's explanations minus the two branch tags.
//! The final explanation therefore names only user tags and is sound: it is built only
//! from simplex Farkas conflicts, GCD-test conflicts and cuts, each valid over the
//! integers given its own tags.

use super::step::{IntChecker, IntConfig, IntStep};
use crate::simplex::{BoundKind, BoundTag, Conflict, DeltaRational, Rel, RowRef, Simplex, TVar};
use cove_logic::Rational;

/// Why the procedure gave up.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LiaUnknown {
    /// More branch-and-bound nodes than `max_nodes`.
    NodeBudget,
    /// A branch deeper than `max_depth` (typical for unbounded problems).
    DepthBudget,
}

/// Outcome of [`LiaSolver::solve`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LiaResult {
    /// A model: one rational per simplex variable (integral for integer variables).
    Sat(Vec<Rational>),
    /// The bounds with these user tags have no (mixed-)integer solution.
    Unsat(Vec<BoundTag>),
    /// Budget exhausted.
    Unknown(LiaUnknown),
}

/// Budgets and cut policy.
#[derive(Clone, Debug)]
pub struct LiaConfig {
    /// Maximum number of branch-and-bound nodes per [`LiaSolver::solve`].
    pub max_nodes: u64,
    /// Maximum branching depth.
    pub max_depth: u32,
    /// Cut policy.
    pub int: IntConfig,
}

impl Default for LiaConfig {
    fn default() -> Self {
        LiaConfig {
            max_nodes: 20_000,
            max_depth: 200,
            int: IntConfig::default(),
        }
    }
}

#[derive(Clone, Debug)]
enum Dep {
    User(BoundTag),
    Branch,
    /// A derived bound; its sorted leaf tags.
    Derived(Vec<u32>),
}

enum Node {
    Sat,
    Unsat(Vec<u32>),
    Unknown(LiaUnknown),
}

/// Counters.
#[derive(Clone, Debug, Default)]
pub struct LiaStats {
    /// Branch-and-bound nodes explored.
    pub nodes: u64,
    /// Cuts added.
    pub cuts: u64,
    /// GCD-test conflicts.
    pub gcd_conflicts: u64,
}

/// Conjunctions of bounds over integer and real variables, incrementally with push/pop.
pub struct LiaSolver {
    sx: Simplex,
    deps: Vec<Dep>,
    /// Leaf internal tags of a conflict found while asserting, per open level.
    unsat: Option<Vec<u32>>,
    /// Per open level: `unsat` and the length of `deps` when it was opened.
    saved: Vec<(Option<Vec<u32>>, usize)>,
    config: LiaConfig,
    checker: IntChecker,
    nodes: u64,
    model: Option<Vec<Rational>>,
    stats: LiaStats,
}

impl Default for LiaSolver {
    fn default() -> Self {
        Self::new(LiaConfig::default())
    }
}

impl LiaSolver {
    /// An empty problem.
    pub fn new(config: LiaConfig) -> LiaSolver {
        let mut sx = Simplex::new();
        sx.set_propagation(false);
        let checker = IntChecker::new(config.int.clone());
        LiaSolver {
            sx,
            deps: Vec::new(),
            unsat: None,
            saved: Vec::new(),
            config,
            checker,
            nodes: 0,
            model: None,
            stats: LiaStats::default(),
        }
    }

    /// The underlying simplex (for slack definitions and inspection).
    pub fn simplex(&self) -> &Simplex {
        &self.sx
    }

    /// Counters.
    pub fn stats(&self) -> &LiaStats {
        &self.stats
    }

    /// Adds a variable.
    pub fn add_var(&mut self, is_int: bool) -> TVar {
        self.sx.add_var(is_int)
    }

    /// The slack of a linear form; see [`Simplex::add_row`].
    pub fn add_row(&mut self, lin: &[(TVar, Rational)]) -> Option<RowRef> {
        self.sx.add_row(lin)
    }

    /// Asserts `v ⋈ bound` with a user tag. Conflicts surface in [`LiaSolver::solve`].
    pub fn assert_bound(&mut self, v: TVar, kind: BoundKind, bound: DeltaRational, tag: BoundTag) {
        if self.unsat.is_some() {
            return;
        }
        let t = self.new_dep(Dep::User(tag));
        if let Err(c) = self.sx.assert_bound(v, kind, bound, t) {
            self.unsat = Some(self.expand_conflict(&c));
        }
    }

    /// Asserts the atom `Σ aᵢ·xᵢ ⋈ rhs` (with `row` from [`LiaSolver::add_row`]).
    pub fn assert_rel(&mut self, row: &RowRef, rel: Rel, rhs: &Rational, tag: BoundTag) {
        if self.unsat.is_some() {
            return;
        }
        let t = self.new_dep(Dep::User(tag));
        if let Err(c) = self.sx.assert_rel(row, rel, rhs, t) {
            self.unsat = Some(self.expand_conflict(&c));
        }
    }

    /// Opens a backtracking level.
    pub fn push(&mut self) {
        self.sx.push();
        self.saved.push((self.unsat.clone(), self.deps.len()));
    }

    /// Closes `n` levels.
    pub fn pop(&mut self, n: usize) {
        let n = n.min(self.saved.len());
        if n == 0 {
            return;
        }
        self.sx.pop(n);
        let keep = self.saved.len() - n;
        let (unsat, deps_len) = self.saved[keep].clone();
        self.unsat = unsat;
        self.deps.truncate(deps_len);
        self.saved.truncate(keep);
    }

    /// Decides the asserted conjunction.
    pub fn solve(&mut self) -> LiaResult {
        if let Some(u) = &self.unsat {
            return LiaResult::Unsat(self.user_tags(u));
        }
        self.nodes = 0;
        self.checker.reset();
        let base = self.sx.level();
        self.sx.push();
        self.model = None;
        let mark = self.deps.len();
        let node = self.search(0);
        self.sx.pop(self.sx.level() - base);
        let result = match node {
            Node::Sat => LiaResult::Sat(self.model.take().expect("model at a satisfying leaf")),
            Node::Unsat(leaves) => LiaResult::Unsat(self.user_tags(&leaves)),
            Node::Unknown(r) => LiaResult::Unknown(r),
        };
        // Branch and cut tags died with the popped levels.
        self.deps.truncate(mark);
        self.stats.cuts += self.checker.cuts();
        result
    }

    fn search(&mut self, depth: u32) -> Node {
        self.nodes += 1;
        self.stats.nodes += 1;
        if self.nodes > self.config.max_nodes {
            return Node::Unknown(LiaUnknown::NodeBudget);
        }
        loop {
            if let Err(c) = self.sx.check() {
                return Node::Unsat(self.expand_conflict(&c));
            }
            match self.checker.step(&self.sx) {
                IntStep::Feasible => {
                    // Read the model now: the levels above are popped on the way out.
                    self.model = Some(self.sx.concrete_model());
                    return Node::Sat;
                }
                IntStep::Conflict(tags) => {
                    self.stats.gcd_conflicts += 1;
                    return Node::Unsat(self.expand(&tags));
                }
                IntStep::Cut(cut) => {
                    let leaves = self.expand(&cut.deps);
                    let t = self.new_dep(Dep::Derived(leaves.clone()));
                    let Some(rr) = self.sx.add_row(&cut.lin) else {
                        return Node::Unsat(leaves);
                    };
                    if let Err(c) = self.sx.assert_rel(&rr, Rel::Ge, &cut.bound, t) {
                        return Node::Unsat(self.expand_conflict(&c));
                    }
                }
                IntStep::Branch { var, floor, .. } => {
                    if depth >= self.config.max_depth {
                        return Node::Unknown(LiaUnknown::DepthBudget);
                    }
                    return self.branch(var, floor, depth);
                }
            }
        }
    }

    fn branch(&mut self, var: TVar, floor: Rational, depth: u32) -> Node {
        let ceil = &floor + &Rational::ONE;
        let mut unknown = None;
        let mut parts: Vec<Vec<u32>> = Vec::new();
        let mut own = Vec::new();
        for (kind, b) in [(BoundKind::Upper, floor), (BoundKind::Lower, ceil)] {
            let t = self.new_dep(Dep::Branch);
            own.push(t.0);
            self.sx.push();
            let node = match self
                .sx
                .assert_bound(var, kind, DeltaRational::from_rational(b), t)
            {
                Err(c) => Node::Unsat(self.expand_conflict(&c)),
                Ok(()) => self.search(depth + 1),
            };
            self.sx.pop(1);
            match node {
                Node::Sat => return Node::Sat,
                Node::Unsat(leaves) if !leaves.contains(&t.0) => return Node::Unsat(leaves),
                Node::Unsat(leaves) => parts.push(leaves),
                Node::Unknown(r) => unknown = Some(r),
            }
            if let Some(LiaUnknown::NodeBudget) = unknown {
                break;
            }
        }
        if let Some(r) = unknown {
            return Node::Unknown(r);
        }
        let mut all: Vec<u32> = parts
            .concat()
            .into_iter()
            .filter(|t| !own.contains(t))
            .collect();
        all.sort_unstable();
        all.dedup();
        Node::Unsat(all)
    }

    fn new_dep(&mut self, d: Dep) -> BoundTag {
        self.deps.push(d);
        BoundTag(self.deps.len() as u32 - 1)
    }

    fn expand_conflict(&self, c: &Conflict) -> Vec<u32> {
        self.expand(&c.tags())
    }

    /// Leaf tags (user and branch) of internal tags.
    fn expand(&self, tags: &[BoundTag]) -> Vec<u32> {
        let mut out = Vec::new();
        for t in tags {
            match &self.deps[t.0 as usize] {
                Dep::User(_) | Dep::Branch => out.push(t.0),
                Dep::Derived(leaves) => out.extend_from_slice(leaves),
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    fn user_tags(&self, leaves: &[u32]) -> Vec<BoundTag> {
        let mut out: Vec<BoundTag> = leaves
            .iter()
            .filter_map(|&t| match &self.deps[t as usize] {
                Dep::User(u) => Some(*u),
                _ => None,
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}
