//! Preprocessing of clause systems, with witnesses translated back to the input system.
//!
//! Every pass maps a system `S` to a simpler system `S'` and returns a back-translator
//! ([`BackTranslate`]) that turns a witness of `S'` (invariants or a derivation) into a witness
//! of `S`. Passes compose into a [`Pipeline`] whose back-translation runs the passes' in reverse,
//! so the answer an engine gives for the preprocessed system becomes a certificate that the
//! independent checker ([`crate::cert`]) validates against the *original* system
//! (practice 2 of the design notes; Golem's transformation pipeline).
//!
//! # Invariant
//! A back-translator maps witnesses of its output system to witnesses of its input system:
//! - if `inv` makes every clause of `S'` valid, `invariants(inv)` makes every clause of `S` valid;
//! - if `d` is a derivation of `false` from `S'`, `derivation(d)` is one from `S`.
//!
//! The passes (one module each):
//! 1. [`simp`]: simplify constraints, drop clauses with unsatisfiable constraints, and
//!    eliminate variables defined by equalities (constant and equality propagation);
//! 2. [`reach`]: drop predicates not derivable from facts (interpreted as `false`) and clauses
//!    that cannot reach a query (their head predicates are interpreted as `true`);
//! 3. [`inline`]: inline predicates defined by a single non-recursive clause (the invariant of
//!    an inlined predicate is the strongest postcondition of its clause, made quantifier-free
//!    by exact quantifier elimination);
//! 4. [`args`]: drop predicate arguments no clause body looks at;
//! 5. [`bounds`]: once, after the rounds: conjoin the inductive subset of simple bounds
//!    (from the initial values) to every clause body.

pub mod adt;
pub mod args;
pub mod bounds;
pub mod inline;
pub mod measure;
pub mod reach;
pub mod simp;
pub(crate) mod util;

use crate::engine::{Control, Engine};
use crate::result::{ChcResult, Derivation, Invariants, UnknownReason};
use crate::system::ChcSystem;
use cove_logic::TermStore;
use std::time::Duration;

/// Why a witness could not be translated back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BackError {
    /// The witness does not fit the preprocessed system (a missing definition, a step over a
    /// clause that does not exist, a variable without a value, ...).
    #[error("witness does not fit the preprocessed system: {0}")]
    BadWitness(String),
    /// The invariant of an inlined predicate needs quantifier elimination, which failed.
    #[error("quantifier elimination for the invariant of '{pred}' failed: {why}")]
    Qe {
        /// The inlined predicate.
        pred: String,
        /// What went wrong.
        why: String,
    },
}

/// Maps witnesses of a pass's output system to witnesses of its input system.
pub trait BackTranslate {
    /// Invariants of the output system -> invariants of the input system.
    fn invariants(
        &self,
        store: &mut TermStore,
        inv: Invariants,
        ctl: &Control,
    ) -> Result<Invariants, BackError>;

    /// A derivation of `false` from the output system -> one from the input system.
    fn derivation(
        &self,
        store: &mut TermStore,
        d: Derivation,
        ctl: &Control,
    ) -> Result<Derivation, BackError>;

    /// Translates an engine's answer for the output system into an answer for the input
    /// system. A witness that cannot be translated back becomes `unknown` (never a wrong
    /// certificate).
    fn result(&self, store: &mut TermStore, r: ChcResult, ctl: &Control) -> ChcResult {
        let back = match r {
            ChcResult::Sat(inv) => self.invariants(store, inv, ctl).map(ChcResult::Sat),
            ChcResult::Unsat(d) => self.derivation(store, d, ctl).map(ChcResult::Unsat),
            u @ ChcResult::Unknown(_) => return u,
        };
        back.unwrap_or_else(|e| {
            ChcResult::Unknown(UnknownReason::Incomplete(format!("preprocessing: {e}")))
        })
    }
}

/// Which passes run, and their budgets.
#[derive(Clone, Debug)]
pub struct PreprocessConfig {
    /// Pass 1: simplification, unsatisfiable clause removal, equality propagation.
    pub simplify: bool,
    /// Pass 2: forward/backward reachability on the predicate graph.
    pub reachability: bool,
    /// Pass 3: inlining of predicates with a single non-recursive definition.
    pub inline: bool,
    /// Pass 4: removal of unused predicate arguments.
    pub drop_args: bool,
    /// Pass 5: strengthening with inductive bounds. Off by default: it helps some engines
    /// and hinders others, so the driver turns it on per engine ([`crate::driver::EngineSpec::bounds`]).
    pub bounds: bool,
    /// Inline only definitions whose constraint has at most this many DAG nodes.
    pub max_inline_size: usize,
    /// How many times the pass sequence is repeated (each round can enable the next).
    pub rounds: usize,
    /// Conflict budget of each satisfiability check of a clause constraint (pass 1).
    pub clause_check_conflicts: u64,
    /// Wall-clock budget of the whole preprocessing (passes then stop early), plus
    /// [`PREPROCESS_TIME_PER_CLAUSE`] per input clause: the passes are linear, and cutting a
    /// large system's preprocessing short leaves the engine a much harder system (a
    /// half-inlined chain of predicates).
    pub time_budget: Duration,
}

/// Extra preprocessing budget per input clause (see [`PreprocessConfig::time_budget`]).
pub const PREPROCESS_TIME_PER_CLAUSE: Duration = Duration::from_micros(200);

impl Default for PreprocessConfig {
    fn default() -> Self {
        PreprocessConfig {
            simplify: true,
            reachability: true,
            inline: true,
            drop_args: true,
            bounds: false,
            max_inline_size: 400,
            rounds: 2,
            clause_check_conflicts: 200,
            time_budget: Duration::from_secs(2),
        }
    }
}

impl PreprocessConfig {
    /// No pass at all (the identity pipeline).
    pub fn none() -> PreprocessConfig {
        PreprocessConfig {
            simplify: false,
            reachability: false,
            inline: false,
            drop_args: false,
            ..Default::default()
        }
    }
}

/// Sizes of a system: clauses, predicates and predicate arguments (sum of arities).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SystemSize {
    /// Number of clauses.
    pub clauses: usize,
    /// Number of predicates.
    pub preds: usize,
    /// Sum of the predicates' arities.
    pub args: usize,
}

impl SystemSize {
    /// Measures `sys`.
    pub fn of(store: &TermStore, sys: &ChcSystem) -> SystemSize {
        SystemSize {
            clauses: sys.clauses.len(),
            preds: sys.preds.len(),
            args: sys.preds.iter().map(|&p| store.func(p).args.len()).sum(),
        }
    }
}

/// The composition of the passes that ran, translating witnesses back in reverse order.
#[derive(Default)]
pub struct Pipeline {
    passes: Vec<(&'static str, Box<dyn BackTranslate + Send + Sync>)>,
}

impl Pipeline {
    /// The names of the passes that ran, in order.
    pub fn pass_names(&self) -> Vec<&'static str> {
        self.passes.iter().map(|(n, _)| *n).collect()
    }

    fn push(&mut self, name: &'static str, pass: Box<dyn BackTranslate + Send + Sync>) {
        self.passes.push((name, pass));
    }
}

impl BackTranslate for Pipeline {
    fn invariants(
        &self,
        store: &mut TermStore,
        mut inv: Invariants,
        ctl: &Control,
    ) -> Result<Invariants, BackError> {
        for (_, p) in self.passes.iter().rev() {
            inv = p.invariants(store, inv, ctl)?;
        }
        Ok(inv)
    }

    fn derivation(
        &self,
        store: &mut TermStore,
        mut d: Derivation,
        ctl: &Control,
    ) -> Result<Derivation, BackError> {
        for (_, p) in self.passes.iter().rev() {
            d = p.derivation(store, d, ctl)?;
        }
        Ok(d)
    }
}

/// Runs the enabled passes (`opts.rounds` times: simplify, reachability, inline, simplify,
/// drop arguments, reachability) and returns the preprocessed system with the back-translator
/// to `sys`.
///
/// # Postcondition
/// The result is equisatisfiable with `sys`, and the pipeline maps its witnesses to
/// witnesses of `sys` (see the module docs).
///
/// # Example
/// ```
/// use cove_chc::engines::spacer::Spacer;
/// use cove_chc::preprocess::{preprocess, BackTranslate, PreprocessConfig};
/// use cove_chc::{cert, ChcResult, Control, Engine};
/// let src = "(set-logic HORN) (declare-fun init (Int) Bool) (declare-fun inv (Int Int) Bool)
///   (assert (forall ((x Int)) (=> (= x 0) (init x))))
///   (assert (forall ((x Int) (u Int)) (=> (init x) (inv x u))))
///   (assert (forall ((x Int) (u Int)) (=> (and (inv x u) (< x 5)) (inv (+ x 1) u))))
///   (assert (forall ((x Int) (u Int)) (=> (and (inv x u) (> x 5)) false)))";
/// let mut store = cove_logic::TermStore::new();
/// let sys = cove_chc::frontend::parse_chc(src.as_bytes(), &mut store).unwrap();
/// let ctl = Control::default();
/// let (small, pipe) = preprocess(&mut store, &sys, &PreprocessConfig::default(), &ctl);
/// assert_eq!(small.preds.len(), 1); // `init` is inlined, `u` dropped
/// let r = Spacer::default().solve(&mut store, &small, &ctl);
/// let ChcResult::Sat(inv) = pipe.result(&mut store, r, &ctl) else { panic!() };
/// cert::check_invariants(&mut store, &sys, &inv, &ctl).unwrap();
/// ```
pub fn preprocess(
    store: &mut TermStore,
    sys: &ChcSystem,
    opts: &PreprocessConfig,
    ctl: &Control,
) -> (ChcSystem, Pipeline) {
    let per_clause = PREPROCESS_TIME_PER_CLAUSE.saturating_mul(sys.clauses.len() as u32);
    let ctl = &ctl.child_with_budget(opts.time_budget.saturating_add(per_clause));
    let mut pipe = Pipeline::default();
    let mut cur = sys.clone();
    for _ in 0..opts.rounds.max(1) {
        let before = (
            SystemSize::of(store, &cur),
            cur.clauses.iter().map(|c| c.vars.len()).sum::<usize>(),
        );
        if opts.simplify {
            let (next, bt) = simp::run(store, &cur, opts.clause_check_conflicts, ctl);
            pipe.push("simplify", Box::new(bt));
            cur = next;
        }
        if opts.reachability {
            let (next, bt) = reach::run(store, &cur);
            pipe.push("reachability", Box::new(bt));
            cur = next;
        }
        if opts.inline && ctl.should_stop().is_none() {
            let (next, bt) = inline::run(store, &cur, opts.max_inline_size, ctl);
            pipe.push("inline", Box::new(bt));
            cur = next;
            if opts.simplify {
                let (next, bt) = simp::run(store, &cur, opts.clause_check_conflicts, ctl);
                pipe.push("simplify", Box::new(bt));
                cur = next;
            }
        }
        if opts.drop_args {
            let (next, bt) = args::run(store, &cur);
            pipe.push("drop-args", Box::new(bt));
            cur = next;
            if opts.reachability {
                let (next, bt) = reach::run(store, &cur);
                pipe.push("reachability", Box::new(bt));
                cur = next;
            }
        }
        let after = (
            SystemSize::of(store, &cur),
            cur.clauses.iter().map(|c| c.vars.len()).sum::<usize>(),
        );
        if after == before || ctl.should_stop().is_some() {
            break;
        }
    }
    // Equivalent constraints, so nothing to translate back (see `fold_writes`).
    for c in &mut cur.clauses {
        c.constraint = cove_logic::array_reads::fold_writes(store, c.constraint);
    }
    if opts.bounds && ctl.should_stop().is_none() {
        let (next, bt) = bounds::run(store, &cur, ctl);
        if bt.size() > 0 {
            pipe.push("bounds", Box::new(bt));
            cur = next;
        }
    }
    (cur, pipe)
}

/// Preprocesses `sys`, solves the result with `engine` and translates the answer back to
/// `sys`. A witness that cannot be translated back (the quantifier elimination of an inlined
/// predicate's invariant can exceed its budget) is not lost: `sys` itself is then solved with
/// the time that is left.
pub fn solve_preprocessed(
    store: &mut TermStore,
    sys: &ChcSystem,
    opts: &PreprocessConfig,
    engine: &mut dyn Engine,
    ctl: &Control,
) -> ChcResult {
    let (small, pipe) = preprocess(store, sys, opts, ctl);
    let back = match engine.solve(store, &small, ctl) {
        ChcResult::Sat(inv) => pipe.invariants(store, inv, ctl).map(ChcResult::Sat),
        ChcResult::Unsat(d) => pipe.derivation(store, d, ctl).map(ChcResult::Unsat),
        u @ ChcResult::Unknown(_) => return u,
    };
    match back {
        Ok(r) => r,
        Err(_) if ctl.should_stop().is_none() => engine.solve(store, sys, ctl),
        Err(e) => ChcResult::Unknown(UnknownReason::Incomplete(format!("preprocessing: {e}"))),
    }
}
