//! General simplex for DPLL(T) after Dutertre and de Moura (CAV 2006).
//!
//! # Model
//! Problem variables and *slack* variables `s = Σ aᵢ·xᵢ` (one per distinct linear form,
//! see [`Simplex::add_row`]) live in one tableau `A·x = 0` that never changes except by
//! pivoting. Atoms become *bounds* `l ≤ x ≤ u` over delta-rationals ([`DeltaRational`]),
//! so strict bounds need no special treatment.
//!
//! # Invariants
//! * Every row reads `basic = Σ a·nonbasic`; `cols[v]` lists exactly the rows in which the
//!   nonbasic `v` occurs with a non-zero coefficient, each with the entry's position in the
//!   row, and each row entry records its position in the column list, so both sides are
//!   found and removed in O(1).
//! * The assignment `beta` satisfies every row, and every *nonbasic* variable lies within
//!   its bounds. Only basic variables may violate bounds; each violating basic variable is
//!   in the `violated` heap (lazily: the heap may also hold stale entries).
//! * Bounds change only through asserts (tighten) and [`Simplex::pop`] (restore from the
//!   trail). Popping only loosens bounds, so the assignment stays valid and is kept, as the
//!   paper recommends: no pivoting on backtrack.
//!
//! # Usage
//! ```
//! use cove_logic::Rational;
//! use cove_smt::simplex::{BoundTag, Rel, Simplex, farkas_interpolant};
//!
//! let mut sx = Simplex::new();
//! let (x, y) = (sx.add_var(false), sx.add_var(false));
//! let q = Rational::int;
//! // Atoms: x + y ≤ 1 (tag 0), x ≥ 1 (tag 1), y > 0 (tag 2).
//! let s = sx.add_row(&[(x, q(1)), (y, q(1))]).unwrap();
//! let xr = sx.add_row(&[(x, q(1))]).unwrap(); // a single variable: no slack
//! let yr = sx.add_row(&[(y, q(1))]).unwrap();
//! sx.push();
//! sx.assert_rel(&s, Rel::Le, &q(1), BoundTag(0)).unwrap();
//! sx.assert_rel(&xr, Rel::Ge, &q(1), BoundTag(1)).unwrap();
//! sx.assert_rel(&yr, Rel::Gt, &q(0), BoundTag(2)).unwrap();
//! let conflict = sx.check().unwrap_err();
//! assert!(conflict.verify(&sx));
//! // Interpolant for A = {tag 0, tag 1}, B = {tag 2}: y ≤ 0.
//! let itp = farkas_interpolant(&sx, &conflict, |t| t.0 <= 1);
//! assert_eq!((itp.lin, itp.bound, itp.strict), (vec![(y, q(1))], q(0), false));
//! sx.pop(1);
//! assert!(sx.check().is_ok());
//! ```
//!
//! # Explanations
//! Every conflict is a Farkas certificate ([`Conflict`]): positive multipliers on tagged
//! bound constraints whose sum, after expanding slacks into their definitions, reads
//! `0 ≤ c` with `c < 0` in Q_δ. [`farkas_interpolant`] turns a partitioned certificate into
//! a linear-arithmetic interpolant.

mod bounds;
mod check;
mod delta;
mod farkas;
mod fast;
mod model;
mod propagate;
mod tableau;
#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) mod testutil;

pub use delta::DeltaRational;
pub use farkas::{Interpolant, farkas_interpolant, linear_combination};
pub use propagate::{ImpliedBound, RowBound};
pub use tableau::RowRef;

use cove_logic::Rational;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A simplex variable (problem variable or slack).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct TVar(pub u32);

impl TVar {
    /// Index into per-variable arrays.
    pub fn idx(self) -> usize {
        self.0 as usize
    }
}

/// Opaque explanation tag of an asserted bound (the glue uses SAT literal indices).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct BoundTag(pub u32);

/// Which side a bound constrains.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BoundKind {
    /// `x ≤ b`.
    Upper,
    /// `x ≥ b`.
    Lower,
}

/// Relation of an atom `Σ aᵢ·xᵢ ⋈ c` (see [`Simplex::assert_rel`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Rel {
    /// `≤`
    Le,
    /// `<`
    Lt,
    /// `≥`
    Ge,
    /// `>`
    Gt,
    /// `=`
    Eq,
}

/// One multiplied constraint of a Farkas certificate or bound explanation.
///
/// The constraint is `var ≤ bound` for [`BoundKind::Upper`] and `-var ≤ -bound` for
/// [`BoundKind::Lower`]; `coef > 0` multiplies that `≤` form.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FarkasTerm {
    /// Tag of the asserted bound.
    pub tag: BoundTag,
    /// Positive multiplier.
    pub coef: Rational,
    /// Constrained variable.
    pub var: TVar,
    /// Side.
    pub kind: BoundKind,
    /// The bound value as used (integer variables have integer-rounded bounds).
    pub bound: DeltaRational,
}

/// An infeasible set of bounds with its Farkas certificate.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Conflict {
    /// The multiplied constraints; their sum is `0 ≤ c` with `c < 0`.
    pub terms: Vec<FarkasTerm>,
}

impl Conflict {
    /// The tags of the conflict, sorted and deduplicated.
    pub fn tags(&self) -> Vec<BoundTag> {
        let mut t: Vec<BoundTag> = self.terms.iter().map(|t| t.tag).collect();
        t.sort_unstable();
        t.dedup();
        t
    }

    /// Re-checks the certificate: the weighted sum of the constraints (slacks expanded into
    /// their definitions) must cancel every variable and leave a negative constant.
    pub fn verify(&self, sx: &Simplex) -> bool {
        if self.terms.iter().any(|t| !t.coef.is_positive()) {
            return false;
        }
        let (lin, bound) = linear_combination(sx, &self.terms);
        lin.is_empty() && bound.signum() < 0
    }
}

/// Counters for tuning and reports.
#[derive(Clone, Default, Debug)]
pub struct Stats {
    /// Pivots performed.
    pub pivots: u64,
    /// Calls to [`Simplex::check`].
    pub checks: u64,
    /// Conflicts found (in asserts and checks).
    pub conflicts: u64,
}

#[derive(Clone, Debug)]
struct Bound {
    value: DeltaRational,
    tag: BoundTag,
}

#[derive(Clone, Debug)]
struct Row {
    basic: TVar,
    /// `basic = Σ coef · var` over nonbasic variables.
    entries: Vec<(TVar, Rational)>,
    /// `col_idx[i]`: position of this row's entry `i` in `cols[entries[i].0]`.
    col_idx: Vec<u32>,
}

/// An occurrence of a nonbasic variable: row and position of the entry in that row.
#[derive(Clone, Copy, Debug)]
struct ColEntry {
    row: u32,
    idx: u32,
}

struct TrailEntry {
    var: TVar,
    kind: BoundKind,
    old: Option<Bound>,
}

const NO_ROW: u32 = u32::MAX;

/// The simplex solver state. See the module documentation for the invariants.
pub struct Simplex {
    is_int: Vec<bool>,
    beta: Vec<DeltaRational>,
    lower: Vec<Option<Bound>>,
    upper: Vec<Option<Bound>>,
    basic_row: Vec<u32>,
    rows: Vec<Row>,
    cols: Vec<Vec<ColEntry>>,
    /// Definition of each slack over problem variables (normalized form).
    defs: Vec<Option<Vec<(TVar, Rational)>>>,
    row_cache: FxHashMap<Vec<(TVar, Rational)>, TVar>,
    trail: Vec<TrailEntry>,
    levels: Vec<usize>,
    violated: BinaryHeap<Reverse<u32>>,
    in_heap: Vec<bool>,
    /// Scratch: position of a variable in the row being edited, or `u32::MAX`.
    pos: Vec<u32>,
    propagation: bool,
    prop_row_limit: usize,
    dirty_rows: Vec<u32>,
    row_dirty: Vec<bool>,
    /// Pivots allowed per check with the sparsity heuristic before falling back to Bland.
    bland_after: u64,
    /// Pivots of limited checks that ran out of budget since the last finished check.
    unfinished_pivots: u64,
    /// Polled every few pivots by [`Simplex::check`]: a single check on a large tableau
    /// (e.g. the size rows of a 10,000-deep datatype term) can pivot for minutes.
    poll: Option<cove_control::Control>,
    /// Whether the last check stopped at `poll` instead of finishing.
    stopped: bool,
    stats: Stats,
}

impl Default for Simplex {
    fn default() -> Self {
        Self::new()
    }
}

impl Simplex {
    /// An empty solver.
    pub fn new() -> Simplex {
        Simplex {
            is_int: Vec::new(),
            beta: Vec::new(),
            lower: Vec::new(),
            upper: Vec::new(),
            basic_row: Vec::new(),
            rows: Vec::new(),
            cols: Vec::new(),
            defs: Vec::new(),
            row_cache: FxHashMap::default(),
            trail: Vec::new(),
            levels: Vec::new(),
            violated: BinaryHeap::new(),
            in_heap: Vec::new(),
            pos: Vec::new(),
            propagation: true,
            prop_row_limit: 64,
            dirty_rows: Vec::new(),
            row_dirty: Vec::new(),
            bland_after: 1000,
            unfinished_pivots: 0,
            poll: None,
            stopped: false,
            stats: Stats::default(),
        }
    }

    /// Limits that [`Simplex::check`] polls (deadline, interrupt, memory): when one is hit
    /// the check returns early with the state consistent but not feasible, and
    /// [`Simplex::stopped`] tells the caller not to read it as feasible.
    pub fn set_poll(&mut self, control: Option<cove_control::Control>) {
        self.poll = control;
    }

    /// Whether a limit of [`Simplex::set_poll`] says to stop now (for the theory's loops
    /// outside [`Simplex::check`], which polls by itself).
    pub fn poll_stop(&self) -> bool {
        self.poll
            .as_ref()
            .is_some_and(|c| c.should_stop().is_some())
    }

    /// Whether the last [`Simplex::check`] (or [`Simplex::check_limited`]) stopped at a
    /// limit of [`Simplex::set_poll`]: its `Ok` then means nothing.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Number of variables (problem and slack).
    pub fn num_vars(&self) -> usize {
        self.is_int.len()
    }

    /// Whether `v` was declared integer (slacks are integer when their form is).
    pub fn is_int(&self, v: TVar) -> bool {
        self.is_int[v.idx()]
    }

    /// The definition `v = Σ a·x` over problem variables if `v` is a slack.
    pub fn definition(&self, v: TVar) -> Option<&[(TVar, Rational)]> {
        self.defs[v.idx()].as_deref()
    }

    /// Current value of `v` in Q_δ (meaningful after a successful [`Simplex::check`]).
    pub fn value(&self, v: TVar) -> &DeltaRational {
        &self.beta[v.idx()]
    }

    /// Current lower bound of `v` with its tag.
    pub fn lower_bound(&self, v: TVar) -> Option<(&DeltaRational, BoundTag)> {
        self.lower[v.idx()].as_ref().map(|b| (&b.value, b.tag))
    }

    /// Current upper bound of `v` with its tag.
    pub fn upper_bound(&self, v: TVar) -> Option<(&DeltaRational, BoundTag)> {
        self.upper[v.idx()].as_ref().map(|b| (&b.value, b.tag))
    }

    /// Whether `v` is currently basic.
    pub fn is_basic(&self, v: TVar) -> bool {
        self.basic_row[v.idx()] != NO_ROW
    }

    /// Whether dirty-row tracking for [`Simplex::implied_bounds`] is on.
    pub fn propagation(&self) -> bool {
        self.propagation
    }

    /// Turns dirty-row tracking for [`Simplex::implied_bounds`] on or off (on by default).
    pub fn set_propagation(&mut self, on: bool) {
        self.propagation = on;
        if !on {
            for r in self.dirty_rows.drain(..) {
                self.row_dirty[r as usize] = false;
            }
        }
    }

    /// Rows longer than this are skipped by bound propagation (default 64).
    pub fn set_propagation_row_limit(&mut self, limit: usize) {
        self.prop_row_limit = limit;
    }

    /// Pivots per [`Simplex::check`] chosen by the sparsity heuristic before switching to
    /// Bland's rule, which guarantees termination (default 1000).
    pub fn set_bland_threshold(&mut self, pivots: u64) {
        self.bland_after = pivots;
    }

    /// Counters.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    fn bound(&self, v: TVar, kind: BoundKind) -> &Option<Bound> {
        match kind {
            BoundKind::Upper => &self.upper[v.idx()],
            BoundKind::Lower => &self.lower[v.idx()],
        }
    }

    fn below_lower(&self, v: TVar) -> bool {
        matches!(&self.lower[v.idx()], Some(l) if self.beta[v.idx()] < l.value)
    }

    fn above_upper(&self, v: TVar) -> bool {
        matches!(&self.upper[v.idx()], Some(u) if self.beta[v.idx()] > u.value)
    }

    /// Queues `v` if it is basic and out of bounds.
    fn note_basic(&mut self, v: TVar) {
        if !self.in_heap[v.idx()]
            && self.basic_row[v.idx()] != NO_ROW
            && (self.below_lower(v) || self.above_upper(v))
        {
            self.in_heap[v.idx()] = true;
            self.violated.push(Reverse(v.0));
        }
    }
}
