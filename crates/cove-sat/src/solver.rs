//! The [`Solver`] value: its state, configuration and the incremental public API.
//!
//! Between calls to `solve*` the solver is at decision level 0 with all level-0 consequences
//! propagated (unless `ok` is false, meaning the clause set is unsatisfiable on its own).
//! Clauses can be added and variables created at any time between solves; learnt clauses,
//! activities and phases are kept across solves.

use crate::analyze::AnalyzeScratch;
use crate::clause::{ClauseDb, ClauseRef};
use crate::decide::VarOrder;
use crate::guard::Guards;
use crate::lit::{LBool, Lit, Var};
use crate::restart::{RestartPolicy, Restarts};
use crate::stats::Stats;
use crate::theory::TheoryOut;
use crate::watch::Watches;

/// Tunable parameters. [`Config::default`] is the recommended setting.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// Restart schedule.
    pub restarts: RestartPolicy,
    /// Conflicts per Luby unit.
    pub luby_unit: u64,
    /// VSIDS decay factor for variable activities.
    pub var_decay: f64,
    /// Decay factor for learnt clause activities.
    pub clause_decay: f64,
    /// Initial bound on the learnt clause database, as a fraction of the problem clauses
    /// (MiniSat's `learntsize_factor`). `reduce_db` runs when the deletable learnt clauses
    /// exceed the bound.
    pub learnts_factor: f64,
    /// Lower limit of the initial learnt clause bound.
    pub min_learnts: f64,
    /// Growth factor of the bound, applied at geometrically spaced conflict counts
    /// (100, 150, 225, ... conflicts apart).
    pub learnts_inc: f64,
    /// Learnt clauses with LBD at most this are kept forever ("core" tier).
    pub core_lbd: u32,
    /// Learnt clauses with LBD at most this are kept while they keep being used ("tier 2").
    pub tier2_lbd: u32,
    /// Remove clauses satisfied at level 0 only once the propagations since the last removal
    /// exceed the clause arena's size (MiniSat's `simplify` schedule), instead of whenever a
    /// new level-0 fact appears. Pays off for clients that add a unit per query, such as
    /// temporary clauses disabled through activation literals (IC3).
    pub lazy_simplify: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            restarts: RestartPolicy::Glucose,
            luby_unit: 100,
            var_decay: 0.95,
            clause_decay: 0.999,
            learnts_factor: 1.0 / 3.0,
            min_learnts: 300.0,
            learnts_inc: 1.1,
            core_lbd: 2,
            tier2_lbd: 6,
            lazy_simplify: false,
        }
    }
}

/// A CDCL SAT solver with assumptions and CDCL(T) theory hooks.
///
/// ```
/// use cove_sat::{Lit, SolveResult, Solver, LBool};
/// let mut s = Solver::new();
/// let a = s.new_var();
/// let b = s.new_var();
/// s.add_clause(&[Lit::new(a, false), Lit::new(b, false)]);
/// s.add_clause(&[Lit::new(a, true)]);
/// assert_eq!(s.solve(&[]), SolveResult::Sat);
/// assert_eq!(s.value(Lit::new(b, false)), LBool::True);
/// assert_eq!(s.solve(&[Lit::new(b, true)]), SolveResult::Unsat);
/// assert_eq!(s.failed_assumptions(), &[Lit::new(b, true)]);
/// ```
#[derive(Debug)]
pub struct Solver {
    pub(crate) config: Config,
    pub(crate) db: ClauseDb,
    pub(crate) watches: Watches,
    /// Value per literal index.
    pub(crate) vals: Vec<LBool>,
    /// Decision level per variable (meaningful while assigned).
    pub(crate) level: Vec<u32>,
    /// Reason clause per variable (meaningful while assigned).
    pub(crate) reason: Vec<ClauseRef>,
    pub(crate) trail: Vec<Lit>,
    pub(crate) trail_lim: Vec<usize>,
    pub(crate) qhead: usize,
    /// Trail prefix already handed to the theory.
    pub(crate) theory_head: usize,
    pub(crate) order: VarOrder,
    pub(crate) restarts: Restarts,
    pub(crate) scratch: AnalyzeScratch,
    /// False once the clause set is unsatisfiable at level 0.
    pub(crate) ok: bool,
    pub(crate) model: Vec<LBool>,
    pub(crate) failed: Vec<Lit>,
    pub(crate) stats: Stats,
    pub(crate) cla_inc: f32,
    /// Current bound on deletable learnt clauses (set at the start of every solve).
    pub(crate) max_learnts: f64,
    /// Conflicts until the next growth of `max_learnts`, and the current spacing.
    pub(crate) adjust_countdown: u64,
    pub(crate) adjust_interval: f64,
    /// Learnt clauses protected (core, used tier 2, locked) at the last reduction.
    pub(crate) protected_learnts: usize,
    /// Trail length at level 0 when satisfied clauses were last removed.
    pub(crate) simp_trail_len: usize,
    /// Propagation count when satisfied clauses were last removed.
    pub(crate) simp_props: u64,
    /// Reused buffer for theory callbacks.
    pub(crate) theory_out: TheoryOut,
    /// The theory gave up in the last propagation round ([`TheoryOut::give_up`]).
    pub(crate) theory_gave_up: bool,
    /// Guarded variables (see [`crate::guard`]).
    pub(crate) guards: Guards,
    /// Propagation domain (see [`Solver::set_in_domain`]): per variable, whether unit
    /// propagation above level 0 may assign it; consulted only while `domain_on`.
    pub(crate) in_domain: Vec<bool>,
    pub(crate) domain_on: bool,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

impl Solver {
    /// An empty solver with the default configuration.
    pub fn new() -> Solver {
        Solver::with_config(Config::default())
    }

    /// An empty solver with the given configuration.
    pub fn with_config(config: Config) -> Solver {
        Solver {
            db: ClauseDb::default(),
            watches: Watches::default(),
            vals: Vec::new(),
            level: Vec::new(),
            reason: Vec::new(),
            trail: Vec::new(),
            trail_lim: Vec::new(),
            qhead: 0,
            theory_head: 0,
            order: VarOrder::new(config.var_decay),
            restarts: Restarts::new(config.restarts, config.luby_unit),
            scratch: AnalyzeScratch::default(),
            ok: true,
            model: Vec::new(),
            failed: Vec::new(),
            stats: Stats::default(),
            cla_inc: 1.0,
            max_learnts: 0.0,
            adjust_countdown: 100,
            adjust_interval: 100.0,
            protected_learnts: 0,
            simp_trail_len: 0,
            simp_props: 0,
            theory_out: TheoryOut::default(),
            theory_gave_up: false,
            guards: Guards::default(),
            in_domain: Vec::new(),
            domain_on: false,
            config,
        }
    }

    /// Creates a fresh variable.
    pub fn new_var(&mut self) -> Var {
        let v = Var(self.level.len() as u32);
        self.vals.push(LBool::Undef);
        self.vals.push(LBool::Undef);
        self.level.push(0);
        self.reason.push(ClauseRef::NONE);
        self.order.add_var(v);
        self.guards.of_var.push(Vec::new());
        self.in_domain.push(true);
        self.scratch.grow_to(self.level.len());
        self.watches.grow_to(self.level.len());
        v
    }

    /// Creates variables until `n` exist.
    pub(crate) fn ensure_vars(&mut self, n: usize) {
        while self.num_vars() < n {
            self.new_var();
        }
    }

    /// Puts `v` in or out of the propagation domain (every variable starts in it). While the
    /// domain is on ([`Solver::restrict_propagation`]), unit propagation above decision
    /// level 0 never assigns a variable outside it: a clause that would imply such a
    /// variable is left alone, as if satisfied. Answers then concern the clauses whose
    /// variables are all in the domain (or fixed at level 0): `Unsat` stays exact for the
    /// whole formula (a subset, plus implied learnt clauses, is already unsatisfiable);
    /// `Sat` means a model of those clauses, which the client must know to extend (e.g.
    /// IC3: the clauses left out define gates outside the cone of the query, computed
    /// forward from any values of their inputs). Out-of-domain variables must not be
    /// decision variables or assumptions. Change the domain only between `solve` calls.
    pub fn set_in_domain(&mut self, v: Var, yes: bool) {
        self.ensure_vars(v.index() + 1);
        self.in_domain[v.index()] = yes;
    }

    /// Turns the propagation domain of [`Solver::set_in_domain`] on or off.
    pub fn restrict_propagation(&mut self, on: bool) {
        self.domain_on = on;
    }

    /// Number of variables.
    pub fn num_vars(&self) -> usize {
        self.level.len()
    }

    /// Number of live clauses of at least two literals (problem, lemmas and learnt).
    pub fn num_clauses(&self) -> usize {
        self.db.num_clauses()
    }

    /// Adds a permanent clause. Variables that do not exist yet are created.
    ///
    /// Returns `false` when the clause set became unsatisfiable at level 0 (then every later
    /// `solve` answers `Unsat`). Must be called between solves (the solver is at level 0).
    pub fn add_clause(&mut self, lits: &[Lit]) -> bool {
        if !self.ok {
            return false;
        }
        debug_assert_eq!(self.decision_level(), 0);
        if let Some(m) = lits.iter().map(|l| l.var().index() + 1).max() {
            self.ensure_vars(m);
        }
        let mut c: Vec<Lit> = lits.to_vec();
        c.sort_unstable();
        c.dedup();
        let mut j = 0;
        for i in 0..c.len() {
            let l = c[i];
            if self.lit_value(l) == LBool::True || (i + 1 < c.len() && c[i + 1] == !l) {
                return true; // satisfied at level 0 or tautology
            }
            if self.lit_value(l) != LBool::False {
                c[j] = l;
                j += 1;
            }
        }
        c.truncate(j);
        match c.len() {
            0 => self.ok = false,
            1 => {
                self.enqueue(c[0], ClauseRef::NONE);
                self.ok = self.propagate().is_none();
            }
            _ => {
                let cr = self.db.alloc(&c, false, 0);
                self.watches.attach(cr, c[0], c[1], c.len());
            }
        }
        self.ok
    }

    /// Sets the preferred polarity of `v` for the next decision on it (overwritten by phase
    /// saving once `v` has been assigned and unassigned).
    pub fn set_phase(&mut self, v: Var, value: bool) {
        self.ensure_vars(v.index() + 1);
        self.order.phase[v.index()] = value;
    }

    /// Value of `lit` in the model of the last `Sat` answer; `Undef` when there is no model or
    /// the variable did not exist then.
    pub fn value(&self, lit: Lit) -> LBool {
        match self.model.get(lit.var().index()) {
            Some(&v) if lit.is_neg() => v.negate(),
            Some(&v) => v,
            None => LBool::Undef,
        }
    }

    /// Value of `lit` if it is fixed at level 0 (holds in every model), else `Undef`.
    pub fn fixed_value(&self, lit: Lit) -> LBool {
        match self.vals.get(lit.index()) {
            Some(&v) if self.level[lit.var().index()] == 0 => v,
            _ => LBool::Undef,
        }
    }

    /// The model of the last `Sat` answer, one Boolean per variable (empty otherwise).
    pub fn model(&self) -> Vec<bool> {
        self.model.iter().map(|&v| v == LBool::True).collect()
    }

    /// After `Unsat` under assumptions: a subset of the assumptions that is unsatisfiable with
    /// the clauses. Empty when the clauses alone are unsatisfiable.
    pub fn failed_assumptions(&self) -> &[Lit] {
        &self.failed
    }

    /// Whether the clause set is still possibly satisfiable (no level-0 conflict found yet).
    pub fn is_ok(&self) -> bool {
        self.ok
    }

    /// Search statistics.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// Makes the next theory callback receive the whole level-0 trail again. Use this when a
    /// different theory object than in the previous solve is passed to `solve_limited`.
    pub fn resend_level0_to_theory(&mut self) {
        self.theory_head = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(x: i32) -> Lit {
        Lit::from_dimacs(x)
    }

    #[test]
    fn add_clause_simplifies_at_level0() {
        let mut s = Solver::new();
        assert!(s.add_clause(&[l(1), l(-1)])); // tautology dropped
        assert_eq!(s.num_clauses(), 0);
        assert_eq!(s.num_vars(), 1);
        assert!(s.add_clause(&[l(2)]));
        assert_eq!(s.fixed_value(l(2)), LBool::True);
        assert!(s.add_clause(&[l(-2), l(3), l(3)])); // becomes unit 3
        assert_eq!(s.fixed_value(l(3)), LBool::True);
        assert!(s.add_clause(&[l(2), l(4), l(5)])); // satisfied
        assert_eq!(s.num_clauses(), 0);
        assert!(s.add_clause(&[l(4), l(5)]));
        assert_eq!(s.num_clauses(), 1);
        assert!(!s.add_clause(&[l(-3)]));
        assert!(!s.is_ok());
        assert!(!s.add_clause(&[l(6)]));
    }

    #[test]
    fn lazy_simplify_answers_like_eager_with_activation_literals() {
        // Many temporary clauses, each disabled by a unit on its activation literal.
        for lazy in [false, true] {
            let mut s = Solver::with_config(Config {
                lazy_simplify: lazy,
                ..Config::default()
            });
            s.add_clause(&[l(1), l(2)]);
            for i in 0..200 {
                let act = l(10 + i);
                s.add_clause(&[!act, l(-1)]);
                s.add_clause(&[!act, l(-2)]);
                assert_eq!(s.solve(&[act]), crate::SolveResult::Unsat);
                assert_eq!(s.failed_assumptions(), &[act]);
                s.add_clause(&[!act]);
                assert_eq!(s.solve(&[l(-1)]), crate::SolveResult::Sat);
            }
            if lazy {
                assert!(
                    s.num_clauses() > 2,
                    "lazy mode keeps satisfied clauses for a while"
                );
            }
        }
    }

    #[test]
    fn empty_clause_is_unsat() {
        let mut s = Solver::new();
        assert!(!s.add_clause(&[]));
    }
}
