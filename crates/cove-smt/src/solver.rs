//! The incremental SMT solver for QF_LRA / QF_LIA that the engines use.
//!
//! Assertions are simplified (`cove_logic::simplify`), Tseitin-encoded into the SAT solver
//! (the private `encode` module) and decided by CDCL(T) with the simplex theory (the private `theory` module).
//!
//! # Push/pop
//! Each `push` opens a frame with a fresh activation literal `a`; an assertion in the frame
//! is the clause `¬a ∨ root`. `check` assumes every open frame's `a`. `pop` adds the unit
//! `¬a`, which satisfies (and so retracts) all the frame's clauses; learnt clauses that
//! depended on the frame mention `¬a` and become satisfied as well. Encodings of subterms
//! are definitional and are kept, so re-asserting a term after `pop` costs nothing.
//!
//! # Trust
//! Every `Sat` answer comes with a model that is checked (in debug builds; always when
//! over-approximated terms were involved) by exact evaluation of every active assertion
//! and assumption. Terms outside linear arithmetic are over-approximated by fresh
//! variables: `Unsat` stays sound, and `Sat` is only reported if the model evaluates the
//! original terms to true, else the answer is `Unknown(Unsupported(..))`.

use crate::simplex::TVar;
use crate::theory::ArithTheory;
use cove_logic::{
    Model, Op, Rational, Simplifier, Sort, TermId, TermStore, Value, VarId, free_vars,
};
use cove_sat::{GuardId, LBool, Limits, Lit, SolveResult, Solver};
use rustc_hash::{FxHashMap, FxHashSet};
use std::time::{Duration, Instant};

/// Why an answer is `unknown` (one vocabulary for every Cove crate).
pub use cove_control::UnknownReason;

/// Answer of a satisfiability check.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SmtResult {
    /// Satisfiable; a model is available.
    Sat,
    /// Unsatisfiable; after `check_assuming` an unsat core is available.
    Unsat,
    /// No answer.
    Unknown(UnknownReason),
}

/// Counters over the lifetime of a solver.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct SmtStats {
    /// Calls to `check`/`check_assuming`.
    pub checks: u64,
    /// `Sat` answers.
    pub sat: u64,
    /// `Unsat` answers.
    pub unsat: u64,
    /// `Unknown` answers.
    pub unknown: u64,
    /// SAT conflicts (Boolean and theory).
    pub conflicts: u64,
    /// SAT decisions.
    pub decisions: u64,
    /// Conflicts found by the arithmetic theory.
    pub theory_conflicts: u64,
    /// Atoms propagated by the arithmetic theory.
    pub theory_propagations: u64,
    /// Branch-and-bound splits.
    pub branches: u64,
    /// Gomory cuts added as lemmas.
    pub cuts: u64,
    /// Integer models found by the cube test (rounding).
    pub cubes: u64,
    /// Simplex pivots.
    pub pivots: u64,
    /// Theory atoms created.
    pub atoms: u64,
    /// Implied bounds asserted on variables without atoms (bound chaining).
    pub derived_bounds: u64,
    /// Array axiom instances added (see the `arrays` module).
    pub array_lemmas: u64,
    /// Array checks of candidates that added instances (each one costs another search).
    pub array_rounds: u64,
    /// Datatype congruence/extensionality instances added (see the `dt` module).
    pub dt_lemmas: u64,
    /// Linearization lemmas of nonlinear products added (see the `nonlinear` module).
    pub nl_lemmas: u64,
    /// Wall time spent in checks.
    pub time: Duration,
    /// Times the solver was rebuilt from its assertions (see `SmtSolver::rebuild`).
    pub rebuilds: u64,
}

/// Memo tables of the encoding (all keyed by simplified terms).
#[derive(Default)]
pub(crate) struct EncState {
    pub lits: FxHashMap<TermId, Lit>,
    pub tvars: FxHashMap<TermId, TVar>,
    pub to_int: FxHashMap<TermId, TVar>,
    pub div_mod: FxHashMap<(TermId, Rational), (TVar, TVar)>,
    /// Nonlinear product terms, abstracted and refined (see `nonlinear.rs`).
    pub products: Vec<TermId>,
    /// Whether a simplified term contains something over-approximated, and what.
    pub unsupported: FxHashMap<TermId, Option<String>>,
    /// The guard of the assertion being encoded (see [`SmtSolver::assert_guarded`]).
    pub scope: Option<GuardId>,
    /// Per guard: literals of the subterms encoded under it (private Tseitin variables).
    pub scoped: FxHashMap<(GuardId, TermId), Lit>,
    /// Guard literals -> registered guard.
    pub guard_ids: FxHashMap<Vec<Lit>, GuardId>,
    /// Registered guard -> its literals (the scope of what is encoded under it).
    pub guard_lits: FxHashMap<GuardId, Vec<Lit>>,
    /// Nesting depth of array term registration (see `array_scope::note_use`).
    pub registering: u32,
    /// Simplified assumption -> its selector literal (see `prepare_assumption`).
    pub assumed: FxHashMap<TermId, Lit>,
    /// Inside the depth-safe pre-pass of `lit_of` (see `encode.rs`): nested encodings find
    /// their subterms encoded already and must not start another pre-pass.
    pub in_prepass: bool,
}

/// One assertion: the original term, its simplified form, and what (if anything) in it
/// had to be over-approximated.
#[derive(Clone)]
struct Assertion {
    orig: TermId,
    unsupported: Option<String>,
    /// For `assert_guarded`: the guards and the body, to replay it as made (see
    /// [`SmtSolver::rebuild`]); `None` for plain assertions and assumptions.
    guarded: Option<(Vec<TermId>, TermId)>,
}

struct Frame {
    act: Option<Lit>,
    assertions: Vec<Assertion>,
    /// Variables first asserted in this frame (the model reports exactly the variables of
    /// the active assertions; collecting them once per assertion instead of once per `Sat`
    /// matters for engines that check thousands of times against large assertion sets).
    vars: Vec<VarId>,
}

/// Incremental CDCL(T) solver for linear arithmetic with full Boolean structure.
pub struct SmtSolver {
    pub(crate) sat: Solver,
    pub(crate) th: ArithTheory,
    pub(crate) enc: EncState,
    pub(crate) true_lit: Lit,
    pub(crate) arr: crate::arrays::ArrayState,
    pub(crate) bv: crate::bv::smt::BvState,
    pub(crate) dt: crate::dt::DtState,
    pub(crate) simp: Simplifier,
    pub(crate) limits: Limits,
    frames: Vec<Frame>,
    /// Union of the frames' `vars`.
    asserted_vars: FxHashSet<VarId>,
    assumptions: Vec<(Assertion, Lit)>,
    core: Vec<TermId>,
    model: Option<Model>,
    stats: SmtStats,
    /// Theory atoms made by the search (branch-and-bound splits, cuts, boxes) since the
    /// solver was last (re)built, as opposed to atoms of the assertions.
    search_atoms: usize,
}

impl Default for SmtSolver {
    fn default() -> Self {
        Self::new()
    }
}

impl SmtSolver {
    /// An empty solver (no limits).
    pub fn new() -> SmtSolver {
        // Theory conflicts cost a simplex check each to rediscover, so keep more learnt
        // clauses than the pure-SAT default (300): on CHC unrollings this solved more
        // formulas and halved the time of some (e.g. s_multipl_13 at depth 10). Not too
        // many, though: a floor of 20 000 meant that the long checks of k-induction and its
        // certificate on the LRA-Lin protocol models (50-80k clauses, 50k conflicts) never
        // reduced the learnt database, and SAT propagation took 44 % of their time; 5 000
        // cut those checks by a fifth to a quarter (docs/decisions.md#smt-learnt-floor).
        let mut cfg = cove_sat::Config::default();
        cfg.min_learnts = 5_000.0;
        let mut sat = Solver::with_config(cfg);
        let t = Lit::new(sat.new_var(), false);
        sat.add_clause(&[t]);
        SmtSolver {
            sat,
            th: ArithTheory::new(),
            enc: EncState::default(),
            true_lit: t,
            arr: Default::default(),
            bv: Default::default(),
            dt: Default::default(),
            simp: Simplifier::new(),
            limits: Limits::default(),
            asserted_vars: FxHashSet::default(),
            frames: vec![Frame {
                act: None,
                assertions: Vec::new(),
                vars: Vec::new(),
            }],
            assumptions: Vec::new(),
            core: Vec::new(),
            model: None,
            stats: SmtStats::default(),
            search_atoms: 0,
        }
    }

    /// Whether the theory atoms made by earlier searches outweigh those of the assertions.
    /// Branch-and-bound splits, cuts and boxes stay in the solver as permanent lemmas over
    /// fresh atoms, and every later check decides them and carries their rows: on Spacer's
    /// solvers for integer division chains they grew from 1.2k to 50k atoms over ~150
    /// checks, and checks that a fresh solver answers in 10 ms took 3–18 s.
    fn bloated(&self) -> bool {
        let atoms = self.th.atoms.len();
        // Measured: thresholds 1024 and 1 (rebuild once search atoms exceed both 1024 and
        // the assertions' atoms) on the division-chain solvers above: 2.3x the checks in
        // the same time, 17x fewer atoms; neutral on 58 LIA/LIA-Lin files.
        const MIN_SEARCH_ATOMS: usize = 1024;
        self.search_atoms > MIN_SEARCH_ATOMS
            && self.search_atoms > atoms.saturating_sub(self.search_atoms)
    }

    /// Replaces the solver by a fresh one holding the same open frames and assertions (and
    /// settings, limits and counters), without the learnt clauses, search atoms and
    /// retracted assertions of earlier checks. Answers do not change: only what is
    /// asserted decides them; the lost lemmas were all consequences of the theory.
    fn rebuild(&mut self, store: &mut TermStore) {
        let frames = std::mem::take(&mut self.frames);
        let mut fresh = SmtSolver::new();
        fresh.th.set_row_propagation(self.th.row_propagation());
        fresh.th.set_chain_rounds(self.th.chain_rounds());
        fresh.limits = self.limits.clone();
        for (i, f) in frames.into_iter().enumerate() {
            if i > 0 {
                fresh.push();
            }
            for a in f.assertions {
                match a.guarded {
                    Some((guards, body)) => fresh.assert_guarded(store, &guards, body),
                    None => fresh.assert(store, a.orig),
                }
            }
        }
        fresh.stats = std::mem::take(&mut self.stats);
        fresh.th.stats = std::mem::take(&mut self.th.stats);
        fresh.stats.rebuilds += 1;
        *self = fresh;
    }

    /// Limits for every following check (deadline, conflicts, interrupt flag).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Turns theory propagation through tableau rows (implied bounds) on or off.
    pub fn set_row_propagation(&mut self, on: bool) {
        self.th.set_row_propagation(on);
    }

    /// Rounds of chaining of implied bounds through variables without atoms per theory
    /// propagation (0: off). Only effective with row propagation on.
    pub fn set_bound_chaining(&mut self, rounds: u32) {
        self.th.set_chain_rounds(rounds);
    }

    /// Number of open `push` frames.
    pub fn num_frames(&self) -> usize {
        self.frames.len() - 1
    }

    /// Asserts the Bool term `t` in the current frame.
    pub fn assert(&mut self, store: &mut TermStore, t: TermId) {
        debug_assert_eq!(store.sort(t), Sort::Bool);
        let (a, l) = self.prepare(store, t);
        self.record(store, a, vec![l]);
    }

    /// Adds `clause` (plus the frame's activation literal) and records assertion `a` in the
    /// current frame, with its variables for the model.
    fn record(&mut self, store: &TermStore, a: Assertion, mut clause: Vec<Lit>) {
        if let Some(act) = self.frames.last().expect("base frame").act {
            clause.push(!act);
        }
        self.sat.add_clause(&clause);
        let frame = self.frames.last_mut().expect("base frame");
        for v in free_vars(store, a.orig) {
            if self.asserted_vars.insert(v) {
                frame.vars.push(v);
            }
        }
        frame.assertions.push(a);
    }

    /// The literal of the simplified term `s`, encoded under guard `g` (see
    /// [`SmtSolver::assert_guarded`]).
    fn lit_under(&mut self, store: &mut TermStore, s: TermId, g: GuardId) -> Lit {
        self.enc.scope = Some(g);
        let l = self.lit_of(store, s);
        self.enc.scope = None;
        l
    }

    /// Asserts `(∧ guards) → body` in the current frame, where each guard is a Bool
    /// variable or its negation. While a guard is false the search does not decide the
    /// variables private to `body` and its atoms never reach the simplex: a solver holding
    /// many guarded alternatives (the rules of a CHC predicate) pays only for the ones in
    /// use. Guards that are not literals fall back to a plain [`SmtSolver::assert`].
    pub fn assert_guarded(&mut self, store: &mut TermStore, guards: &[TermId], body: TermId) {
        let conj = store.mk_and(guards);
        let orig = store.mk_implies(conj, body);
        let is_lit = |t: TermId| {
            let t = match store.op(t) {
                Op::Not => store.args(t)[0],
                _ => t,
            };
            matches!(store.op(t), Op::Var(_)) && store.sort(t) == Sort::Bool
        };
        if guards.is_empty() || !guards.iter().all(|&g| is_lit(g)) {
            return self.assert(store, orig);
        }
        let mut glits: Vec<Lit> = guards.iter().map(|&g| self.lit_of(store, g)).collect();
        glits.sort_unstable();
        glits.dedup();
        let id = self.guard_for(&glits);
        let s = self.simp.run(store, body);
        self.dt_register_original(store, body);
        let (s, dt_why) = self.dt_rewrite(store, s);
        let unsupported = dt_why.or_else(|| self.unsupported(store, s));
        let l = self.lit_under(store, s, id);
        let mut clause: Vec<Lit> = glits.iter().map(|&g| !g).collect();
        clause.push(l);
        let guarded = Some((guards.to_vec(), body));
        self.record(
            store,
            Assertion {
                orig,
                unsupported,
                guarded,
            },
            clause,
        );
    }

    /// The active assertions (guarded ones as implications) and `assumptions` as an
    /// SMT-LIB2 script ([`cove_logic::print::script`]): what a check under these assumptions
    /// decides, for another solver to decide it too. Why: an engine's hard check is best
    /// understood next to z3's answer on it (one of Spacer's checks that branch and bound
    /// did not settle in a minute, z3 decides in 0.1 s: `tests/data/drifting_lia.smt2`).
    pub fn to_smtlib(&self, store: &TermStore, assumptions: &[TermId]) -> String {
        let terms: Vec<TermId> = self
            .frames
            .iter()
            .flat_map(|f| f.assertions.iter().map(|a| a.orig))
            .chain(assumptions.iter().copied())
            .collect();
        cove_logic::print::script(store, &terms)
    }

    /// Opens a frame.
    pub fn push(&mut self) {
        let act = self.fresh_lit();
        self.frames.push(Frame {
            act: Some(act),
            assertions: Vec::new(),
            vars: Vec::new(),
        });
    }

    /// Closes `n` frames (at most all open ones), retracting their assertions.
    pub fn pop(&mut self, n: usize) {
        for _ in 0..n.min(self.num_frames()) {
            let f = self.frames.pop().expect("open frame");
            for v in &f.vars {
                self.asserted_vars.remove(v);
            }
            if let Some(act) = f.act {
                self.sat.add_clause(&[!act]);
            }
        }
    }

    /// Checks the active assertions.
    pub fn check(&mut self, store: &mut TermStore) -> SmtResult {
        self.check_assuming(store, &[])
    }

    /// Checks the active assertions together with the Bool terms `assumptions`.
    pub fn check_assuming(&mut self, store: &mut TermStore, assumptions: &[TermId]) -> SmtResult {
        let start = Instant::now();
        if self.bloated() {
            self.rebuild(store);
        }
        self.model = None;
        self.core.clear();
        self.assumptions.clear();
        for &t in assumptions {
            debug_assert_eq!(store.sort(t), Sort::Bool);
            let (a, l) = self.prepare_assumption(store, t);
            self.assumptions.push((a, l));
        }
        let mut lits: Vec<Lit> = self.frames.iter().filter_map(|f| f.act).collect();
        lits.extend(self.assumptions.iter().map(|(_, l)| *l));
        // Datatype facts left pending by an encoding that stopped at a limit: a candidate
        // found without them could be no datatype model at all.
        let flushed = self.dt.pending.is_empty() || self.flush_dt_facts(store);
        self.th.model = None;
        self.th.new_check();
        // A check's conflict limit bounds its splits as well (the theory's counterpart of
        // conflicts; see `ArithTheory::set_branch_limit`).
        self.th.set_branch_limit(self.limits.conflicts);
        let (c0, d0, p0) = {
            let s = self.sat.stats();
            (s.conflicts, s.decisions, self.th.sx.stats().pivots)
        };
        let res = if flushed {
            self.solve_with_arrays(store, &lits)
        } else {
            SolveResult::Unknown
        };
        let res = match res {
            SolveResult::Sat => self.on_sat(store),
            SolveResult::Unsat => {
                let failed: FxHashSet<Lit> =
                    self.sat.failed_assumptions().iter().copied().collect();
                self.core = self
                    .assumptions
                    .iter()
                    .filter(|(_, l)| failed.contains(l))
                    .map(|(a, _)| a.orig)
                    .collect();
                SmtResult::Unsat
            }
            SolveResult::Unknown => SmtResult::Unknown(self.unknown_reason()),
        };
        let s = self.sat.stats();
        let st = &mut self.stats;
        st.checks += 1;
        st.conflicts += s.conflicts - c0;
        st.decisions += s.decisions - d0;
        st.pivots += self.th.sx.stats().pivots - p0;
        st.theory_conflicts = self.th.stats.conflicts;
        st.theory_propagations = self.th.stats.propagations;
        st.branches = self.th.stats.branches;
        st.cuts = self.th.stats.cuts;
        st.cubes = self.th.stats.cubes;
        st.atoms = self.th.atoms.len() as u64;
        st.derived_bounds = self.th.stats.derived;
        match res {
            SmtResult::Sat => st.sat += 1,
            SmtResult::Unsat => st.unsat += 1,
            SmtResult::Unknown(_) => st.unknown += 1,
        }
        st.time += start.elapsed();
        res
    }

    /// After `Unsat` from `check_assuming`: assumptions that are unsatisfiable together with
    /// the assertions (a subset of the last assumptions; empty if the assertions alone are).
    pub fn unsat_core(&self) -> Vec<TermId> {
        self.core.clone()
    }

    /// After `Sat`: values (exact, integral for Int) of every variable of the active
    /// assertions and the last assumptions; other variables evaluate to defaults.
    pub fn model(&self, _store: &TermStore) -> Model {
        self.model.clone().unwrap_or_default()
    }

    /// After `Sat`: the value of any term without quantifiers or uninterpreted functions.
    pub fn value(&self, store: &TermStore, t: TermId) -> Option<Value> {
        self.model.as_ref()?.eval(store, t).ok()
    }

    /// Counters.
    pub fn stats(&self) -> &SmtStats {
        &self.stats
    }

    /// Simplifies and encodes `t`; returns its assertion record and literal.
    fn prepare(&mut self, store: &mut TermStore, t: TermId) -> (Assertion, Lit) {
        let s = self.simp.run(store, t);
        self.dt_register_original(store, t);
        let (s, dt_why) = self.dt_rewrite(store, s);
        let unsupported = dt_why.or_else(|| self.unsupported(store, s));
        let l = self.lit_of(store, s);
        (
            Assertion {
                orig: t,
                unsupported,
                guarded: None,
            },
            l,
        )
    }

    /// Like [`Self::prepare`] for an assumption. A compound assumption gets a selector `a`
    /// with `a → t`, and `t` is encoded under the guard `a`: its literals are decided only in
    /// checks that assume it, not in every later check of this solver. A Bool variable or
    /// its negation is used directly (it usually guards assertions itself).
    fn prepare_assumption(&mut self, store: &mut TermStore, t: TermId) -> (Assertion, Lit) {
        let s = self.simp.run(store, t);
        self.dt_register_original(store, t);
        let (s, dt_why) = self.dt_rewrite(store, s);
        let unsupported = dt_why.or_else(|| self.unsupported(store, s));
        let plain = match store.op(s) {
            Op::Not => store.args(s)[0],
            _ => s,
        };
        let a = if matches!(store.op(plain), Op::Var(_) | Op::Bool(_)) {
            self.lit_of(store, s)
        } else if let Some(&a) = self.enc.assumed.get(&s) {
            a
        } else {
            let a = Lit::new(self.sat.new_var(), false);
            let g = self.guard_for(&[a]);
            self.sat.guard_new_var(a.var(), g);
            let l = self.lit_under(store, s, g);
            self.sat.add_clause(&[!a, l]);
            self.enc.assumed.insert(s, a);
            a
        };
        (
            Assertion {
                orig: t,
                unsupported,
                guarded: None,
            },
            a,
        )
    }

    /// Solves under `lits`. With integer variables, branch and bound can diverge on
    /// unbounded problems; after a conflict budget the search is repeated inside growing
    /// boxes `-B <= x <= B` given as extra assumptions. Only the variables branched on so
    /// far are boxed (the others cannot drift through branching, and boxing every integer
    /// variable of a large unrolling added thousands of atoms and assumption levels per
    /// round). Branching on boxed variables is finite; `Sat` in a box is a real model, and
    /// `Unsat` is only final when no box literal is among the failed assumptions. The last
    /// round has no box.
    fn solve_lits(&mut self, lits: &[Lit]) -> SolveResult {
        self.th.set_poll(Some(self.limits.control.clone()));
        if self.th.int_vars.is_empty() {
            return self.sat.solve_limited(lits, &mut self.th, &self.limits);
        }
        let user = self.limits.clone();
        let start = self.sat.stats().conflicts;
        let spent = |s: &Solver| s.stats().conflicts - start;
        let mut budget: u64 = 2000;
        let mut bound: i64 = 32;
        loop {
            let remaining = user.conflicts.map(|c| c.saturating_sub(spent(&self.sat)));
            if remaining == Some(0) {
                return SolveResult::Unknown;
            }
            let last = bound > (1 << 40);
            let mut limits = user.clone();
            if !last {
                limits.conflicts = Some(remaining.map_or(budget, |r| r.min(budget)));
            }
            let mut all = lits.to_vec();
            let mut boxed: FxHashSet<Lit> = FxHashSet::default();
            if !last && bound > 32 {
                // Only variables branched on can make branch and bound drift; boxing the
                // others would only add atoms and assumption levels.
                for v in self.th.branched.clone() {
                    let k = Rational::int(bound);
                    let up = self.le_atom(&[(v, Rational::ONE)], &-k.clone(), false);
                    let lo = !self.le_atom(&[(v, Rational::ONE)], &k, true);
                    for l in [up, lo] {
                        if boxed.insert(l) {
                            all.push(l);
                        }
                    }
                }
            }
            let r = self.sat.solve_limited(&all, &mut self.th, &limits);
            match r {
                SolveResult::Sat => return r,
                SolveResult::Unsat => {
                    if !self
                        .sat
                        .failed_assumptions()
                        .iter()
                        .any(|l| boxed.contains(l))
                    {
                        return r;
                    }
                }
                SolveResult::Unknown => {
                    let user_stop = user.control.should_stop().is_some()
                        || user.conflicts.is_some_and(|c| spent(&self.sat) >= c)
                        || self.th.branch_limit_hit();
                    if user_stop || last {
                        return r;
                    }
                    budget *= 2;
                }
            }
            bound = if bound == 32 {
                64
            } else {
                bound.saturating_mul(16)
            };
        }
    }

    /// Solves under `lits`, adding violated array axiom instances until the candidate is
    /// array-consistent (see [`crate::arrays`]).
    ///
    /// A conflict limit holds for the whole check, across the rounds: each round's search
    /// gets what the earlier rounds left (a clause check of the preprocessing with a
    /// 200-conflict budget ran 39 array rounds and 792 conflicts, 2 s, on a Solidity
    /// constructor before).
    fn solve_with_arrays(&mut self, store: &mut TermStore, lits: &[Lit]) -> SolveResult {
        let user = self.limits.conflicts;
        let r = self.solve_rounds(store, lits, user);
        self.limits.conflicts = user;
        r
    }

    fn solve_rounds(
        &mut self,
        store: &mut TermStore,
        lits: &[Lit],
        conflicts: Option<u64>,
    ) -> SolveResult {
        let mut nl_rounds = 0u32;
        // Assumptions that fix all but one factor of every product (see
        // `nonlinear::nl_patch`), tried after refinement rounds 1, 2, 4, 8, ...
        let mut patch: Vec<Lit> = Vec::new();
        let mut next_patch = 1u32;
        let start = self.sat.stats().conflicts;
        loop {
            while let Some((l, scope)) = self.arr.pending.pop() {
                self.add_array_lemma(store, l, scope);
            }
            if let Some(c) = conflicts {
                let spent = self.sat.stats().conflicts - start;
                if spent >= c {
                    return SolveResult::Unknown;
                }
                self.limits.conflicts = Some(c - spent);
            }
            // Atoms made here are the integer search's (array instances are encoded above
            // and are not counted: a rebuild would only have to find them again).
            let atoms0 = self.th.atoms.len();
            let r = if patch.is_empty() {
                self.solve_lits(lits)
            } else {
                let all: Vec<Lit> = lits.iter().chain(&patch).copied().collect();
                self.solve_lits(&all)
            };
            self.search_atoms += self.th.atoms.len() - atoms0;
            if r == SolveResult::Unsat && !patch.is_empty() {
                // The fixed factors admit no model; only the search without them decides.
                patch.clear();
                continue;
            }
            let products = !self.enc.products.is_empty();
            if r != SolveResult::Sat || !(self.arr.active() || self.dt.active() || products) {
                return r;
            }
            let lemmas = if self.arr.active() {
                self.array_lemmas(store)
            } else {
                Vec::new()
            };
            if lemmas.is_empty() && self.arr.pending.is_empty() {
                let dl = if self.dt.active() {
                    self.dt_lemmas(store)
                } else {
                    Vec::new()
                };
                if dl.is_empty() {
                    if !products || nl_rounds >= crate::nonlinear::MAX_ROUNDS {
                        return r;
                    }
                    let nl = self.nl_lemmas(store);
                    if nl.is_empty() {
                        return r;
                    }
                    nl_rounds += 1;
                    self.stats.nl_lemmas += nl.len() as u64;
                    self.nl_assert_lemmas(store, nl);
                    if !patch.is_empty() {
                        patch.clear();
                    } else if nl_rounds == next_patch {
                        next_patch = next_patch.saturating_mul(2);
                        patch = self.nl_patch(store);
                    }
                    if self.limits.control.should_stop().is_some() {
                        return SolveResult::Unknown;
                    }
                    continue;
                }
                self.dt.lemma_count += dl.len() as u64;
                self.stats.dt_lemmas += dl.len() as u64;
                self.dt.pending.extend(dl);
                if !self.flush_dt_facts(store) || self.limits.control.should_stop().is_some() {
                    return SolveResult::Unknown;
                }
                continue;
            }
            self.stats.array_lemmas += lemmas.len() as u64;
            self.stats.array_rounds += 1;
            self.arr.pending.extend(lemmas);
            if self.limits.control.should_stop().is_some() {
                return SolveResult::Unknown;
            }
        }
    }

    fn unknown_reason(&self) -> UnknownReason {
        if let Some(why) = self.limits.control.should_stop() {
            why
        } else if self.limits.conflicts.is_some() {
            UnknownReason::ResourceOut("conflict limit".into())
        } else {
            UnknownReason::Incomplete("the search gave up".into())
        }
    }

    fn active(&self) -> impl Iterator<Item = &Assertion> {
        self.frames
            .iter()
            .flat_map(|f| f.assertions.iter())
            .chain(self.assumptions.iter().map(|(a, _)| a))
    }

    fn on_sat(&mut self, store: &mut TermStore) -> SmtResult {
        let model = self.build_model(store);
        let unsupported = self
            .active()
            .find_map(|a| a.unsupported.clone())
            .or_else(|| {
                self.bv_abstracted()
                    .then(|| "bit-blasting stopped at a limit".to_string())
            });
        let verify = unsupported.is_some()
            || cfg!(debug_assertions)
            || self.arr.active()
            || self.dt.active();
        if verify {
            for a in self.active() {
                let ok = matches!(model.eval(store, a.orig), Ok(Value::Bool(true)));
                if !ok {
                    if let Some(why) = &a.unsupported {
                        return SmtResult::Unknown(UnknownReason::Unsupported(why.clone()));
                    }
                    if unsupported.is_none() && self.arr.active() {
                        return SmtResult::Unknown(UnknownReason::Incomplete(
                            "array model check failed".into(),
                        ));
                    }
                    if unsupported.is_none() && self.dt.active() {
                        let why = self
                            .dt
                            .model_failure
                            .clone()
                            .unwrap_or_else(|| "datatype model check failed".into());
                        return SmtResult::Unknown(UnknownReason::Incomplete(why));
                    }
                    if unsupported.is_none() {
                        panic!("cove-smt: model does not satisfy an assertion (internal error)");
                    }
                    return SmtResult::Unknown(UnknownReason::Unsupported(
                        unsupported.unwrap_or_default(),
                    ));
                }
            }
        }
        self.model = Some(model);
        SmtResult::Sat
    }

    fn build_model(&self, store: &mut TermStore) -> Model {
        let mut vars: Vec<VarId> = self
            .frames
            .iter()
            .flat_map(|f| f.vars.iter().copied())
            .collect();
        let mut seen = FxHashSet::default();
        let roots: Vec<TermId> = self.assumptions.iter().map(|(a, _)| a.orig).collect();
        for t in roots {
            for v in free_vars(store, t) {
                if !self.asserted_vars.contains(&v) && seen.insert(v) {
                    vars.push(v);
                }
            }
        }
        let values = self.th.model.as_deref();
        let mut m = Model::new();
        m.complete = true;
        for (op, arg, v) in &self.dt.wrong_sel {
            m.set_wrong_selector(*op, arg.clone(), v.clone());
        }
        for v in vars {
            let sort = store.var_sort(v);
            let t = store.mk_var(v);
            let val = match sort {
                Sort::Array(_) => self
                    .arr
                    .values
                    .get(&t)
                    .cloned()
                    .unwrap_or_else(|| Value::default_of(sort)),
                Sort::BitVec(_) => self
                    .bv_var_value(t)
                    .unwrap_or_else(|| Value::default_of(sort)),
                Sort::Dt(_) => self
                    .dt
                    .values
                    .get(&t)
                    .cloned()
                    .unwrap_or_else(|| Value::default_of(sort)),
                Sort::Bool => {
                    let b = self
                        .enc
                        .lits
                        .get(&t)
                        .is_some_and(|&l| self.sat.value(l) == LBool::True);
                    Value::Bool(b)
                }
                _ => {
                    let x = match (self.enc.tvars.get(&t), values) {
                        (Some(tv), Some(vals)) => vals[tv.idx()].clone(),
                        _ => Rational::ZERO,
                    };
                    debug_assert!(
                        sort == Sort::Real || x.is_integer(),
                        "integer variable with a fractional value"
                    );
                    Value::Num(x)
                }
            };
            m.set(v, val);
        }
        m
    }

    /// Whether the simplified term `t` contains something the encoding over-approximates.
    /// Post-order over the DAG with an explicit stack (terms can be very deep).
    fn unsupported(&mut self, store: &TermStore, t: TermId) -> Option<String> {
        if let Some(r) = self.enc.unsupported.get(&t) {
            return r.clone();
        }
        let mut stack = vec![(t, false)];
        while let Some((u, expanded)) = stack.pop() {
            if self.enc.unsupported.contains_key(&u) {
                continue;
            }
            let args = store.args(u);
            let own = match store.op(u) {
                Op::App(f) => Some(format!("uninterpreted function '{}'", store.func(*f).name)),
                Op::Forall(_) | Op::Exists(_) => Some("quantifiers".to_string()),
                Op::Mul if args.iter().filter(|&&a| store.as_num(a).is_none()).count() >= 2 => {
                    Some("nonlinear arithmetic".to_string())
                }
                Op::Div | Op::IntDiv | Op::Mod => match store.as_num(args[1]) {
                    Some(k) if !k.is_zero() => None,
                    Some(_) => Some("division by zero".to_string()),
                    None => Some("nonlinear arithmetic".to_string()),
                },
                _ => None,
            };
            if own.is_some() {
                self.enc.unsupported.insert(u, own);
            } else if expanded {
                let r = args
                    .iter()
                    .find_map(|a| self.enc.unsupported.get(a).cloned().flatten());
                self.enc.unsupported.insert(u, r);
            } else {
                stack.push((u, true));
                for &a in args.iter().rev() {
                    if !self.enc.unsupported.contains_key(&a) {
                        stack.push((a, false));
                    }
                }
            }
        }
        self.enc.unsupported[&t].clone()
    }
}

/// Satisfiability of one Bool term with a fresh solver.
pub fn is_sat(store: &mut TermStore, t: TermId) -> SmtResult {
    let mut s = SmtSolver::new();
    s.assert(store, t);
    s.check(store)
}

/// Validity of one Bool term, answered as the satisfiability of its negation: `Unsat`
/// means `t` is valid, `Sat` that it has a counter-model.
pub fn is_valid(store: &mut TermStore, t: TermId) -> SmtResult {
    let n = store.mk_not(t);
    is_sat(store, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rebuilt solver keeps the open frames, guarded assertions and settings: the same
    /// answers and cores before and after, and `pop` still retracts the right frame.
    #[test]
    fn rebuild_keeps_frames_guards_and_answers() {
        let mut st = TermStore::new();
        let (x, y, g) = (
            st.var("x", Sort::Int),
            st.var("y", Sort::Int),
            st.var("g", Sort::Bool),
        );
        let (x, y, g) = (st.mk_var(x), st.mk_var(y), st.mk_var(g));
        let (zero, three, five, seven) = (st.mk_int(0), st.mk_int(3), st.mk_int(5), st.mk_int(7));
        let mut s = SmtSolver::new();
        s.set_row_propagation(false);
        let x_nonneg = st.mk_ge(x, zero);
        s.assert(&mut st, x_nonneg);
        s.push();
        let sum = st.mk_add(&[x, y]);
        let sum7 = st.mk_eq(sum, seven);
        s.assert_guarded(&mut st, &[g], sum7);
        s.push();
        let y5 = st.mk_ge(y, five);
        s.assert(&mut st, y5);
        let x3 = st.mk_ge(x, three);
        for round in 0..2 {
            assert_eq!(
                s.check_assuming(&mut st, &[g, x3]),
                SmtResult::Unsat,
                "{round}"
            );
            let core: FxHashSet<TermId> = s.unsat_core().into_iter().collect();
            assert_eq!(core, [g, x3].into_iter().collect(), "{round}");
            assert_eq!(s.check_assuming(&mut st, &[g]), SmtResult::Sat, "{round}");
            assert_eq!(s.value(&st, sum), Some(Value::Num(Rational::int(7))));
            s.rebuild(&mut st);
        }
        assert_eq!(s.stats().rebuilds, 2);
        assert!(!s.th.row_propagation());
        assert_eq!(s.num_frames(), 2);
        s.pop(1);
        assert_eq!(s.check_assuming(&mut st, &[g, x3]), SmtResult::Sat);
        s.pop(1);
        let neg = st.mk_int(-1);
        let x_neg = st.mk_le(x, neg);
        assert_eq!(s.check_assuming(&mut st, &[x_neg]), SmtResult::Unsat);
    }

    /// Search atoms beyond the threshold make the next check start from a rebuilt solver.
    #[test]
    fn bloat_triggers_a_rebuild_before_the_check() {
        let mut st = TermStore::new();
        let x = st.var("x", Sort::Int);
        let x = st.mk_var(x);
        let one = st.mk_int(1);
        let ge = st.mk_ge(x, one);
        let mut s = SmtSolver::new();
        s.assert(&mut st, ge);
        assert_eq!(s.check(&mut st), SmtResult::Sat);
        assert_eq!(s.stats().rebuilds, 0);
        s.search_atoms = s.th.atoms.len() + 10_000;
        assert_eq!(s.check(&mut st), SmtResult::Sat);
        assert_eq!(s.stats().rebuilds, 1);
        assert_eq!(s.search_atoms, 0);
    }
}
