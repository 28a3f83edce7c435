//! Search statistics (monotone counters over the solver's lifetime).

/// Counters describing the work done by a [`crate::Solver`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stats {
    /// Calls to `solve`/`solve_limited`.
    pub solves: u64,
    /// Conflicts (Boolean and theory).
    pub conflicts: u64,
    /// Decisions, including assumption decisions.
    pub decisions: u64,
    /// Literals dequeued by unit propagation.
    pub propagations: u64,
    /// Watchers inspected by propagation.
    pub watcher_visits: u64,
    /// Clauses dereferenced by propagation (blocker not true).
    pub clause_visits: u64,
    /// Restarts.
    pub restarts: u64,
    /// Literals in learnt clauses after minimization.
    pub learnt_literals: u64,
    /// Literals removed by clause minimization.
    pub minimized_literals: u64,
    /// Learnt clauses that were units.
    pub learnt_units: u64,
    /// Calls to `reduce_db`.
    pub reductions: u64,
    /// Learnt clauses deleted by `reduce_db`.
    pub deleted_clauses: u64,
    /// Conflicts reported by the theory (including falsified lemmas and reasons).
    pub theory_conflicts: u64,
    /// Literals propagated by the theory.
    pub theory_propagations: u64,
    /// Lemmas added by the theory.
    pub theory_lemmas: u64,
    /// Calls to `Theory::final_check`.
    pub final_checks: u64,
}
