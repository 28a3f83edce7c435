//! RecMC / Spacer: compositional SMT-based model checking (thesis Chapter 2).
//!
//! Every predicate plays the role of a procedure. For each predicate Spacer keeps
//! - **may-summaries** (lemmas): over-approximations, each valid up to a *level* (bound on
//!   derivation depth); `O^b(P)` is the conjunction of P's lemmas at levels `>= b`;
//! - **must-summaries** (reach facts): under-approximations, each a set of really derivable
//!   facts, with the clause and premise facts that justify it.
//!
//! Reachability queries (proof obligations) `<P, φ, b>` are processed smallest level first.
//! For a query the engine tries, in order: an existing must-summary (reachable), the MUST
//! rule (all body atoms under must-summaries), the MAY rule (blocked under the
//! may-summaries of level `b-1`: a generalized lemma), and otherwise the QUERY rule (a child
//! query for one body atom not covered by must-summaries, computed by model-based
//! projection). Iterative deepening on the bound `n`, then IC3-style propagation over all
//! levels (thesis errata 1): when a level becomes empty the lemmas above it are inductive
//! invariants.
//!
//! # Invariants
//! - A lemma at level `l` of `P` holds for every fact of `P` derivable with depth `<= l`.
//! - Every reach fact of `P` contains only derivable facts, and each of its points can be
//!   re-derived from its justification (clause + premise facts); the counterexample is built
//!   that way, with concrete values, and checked independently by `cert`.

mod cex;
mod divisibility;
mod frames;
mod generalize;
mod global;
mod project;
mod project_arrays;
mod propagate;
mod query;
mod run;
mod stats;
#[cfg(test)]
mod test_util;

use crate::engine::{BuildEngine, Control, Engine, OptionTable, Stats, no_option};
use crate::result::{ChcResult, UnknownReason};
use crate::share::LemmaPool;
use crate::system::ChcSystem;
use cove_control::engine_options::OptionWord;
use cove_logic::{FuncId, TermId, TermStore, VarId};
pub(crate) use run::Placeholders;
use run::Run;
use run::{PIdx, rename};
use rustc_hash::FxHashMap;
use stats::Why;

/// Options of the Spacer engine, including the thesis's ablations.
#[derive(Clone, Debug)]
pub struct SpacerConfig {
    /// Use only may-summaries (GPDR-like), no must-summaries (thesis Fig. 2.13(b)).
    pub may_only: bool,
    /// Query order: pick the last uncovered body atom (bottom-up / eager) instead of the first
    /// (top-down / lazy). Thesis Sec. 2.6.
    pub bottom_up: bool,
    /// Model-based projection (default) or plain model substitution.
    pub use_mbp: bool,
    /// Inductive generalization of blocked lemmas (drop literals, relative induction).
    pub inductive_generalization: bool,
    /// Weaken blocked cubes (equalities to half-spaces, relaxed bounds) after dropping literals.
    pub weaken: bool,
    /// Weaken bit-vector equalities `t = k` of blocked cubes to word-level intervals
    /// (`t ≤s k'`, `t ≥u k'`, ...; `generalize.rs`). Off by default: measured neutral on the
    /// 59 BV files of `chc-bv-adt.tsv` (same files solved, small slow-downs on easy ones).
    pub bv_intervals: bool,
    /// Replace the literals of a blocked cube over two bit-vector variables by one relation
    /// between them that they imply (`x ≠ y`, `x <s y`, ...; `generalize.rs`), so that a
    /// family of lemmas differing in one constant becomes one relational lemma.
    pub bv_relations: bool,
    /// Replace blocked cubes by the negation of Farkas interpolants before dropping literals
    /// (relational lemmas such as `x - y <= 0` instead of one lemma per value).
    pub farkas: bool,
    /// Global guidance over clusters of lemmas that differ in their numbers (Vediramana
    /// Krishnan et al., CAV 2020; `global/`). Off turns off the three rules
    /// below.
    pub global: bool,
    /// With `global`: the subsume rule, a lemma in a cluster whose constants vary is
    /// replaced by the cluster's projection or convex closure when that is blocked.
    pub subsume: bool,
    /// With `global`: the concretize rule, a query whose lemma joined a cluster with varying
    /// coefficients is also tried split around a model into a concrete sub-query.
    pub concretize: bool,
    /// With `global`: the conjecture rule, a query whose lemma joined a cluster varying in
    /// the constant of one literal is also tried without that literal.
    pub conjecture: bool,
    /// Give up (unknown) beyond this bound.
    pub max_level: Option<usize>,
    /// Record the queries, lemmas and facts in order (see [`Spacer::trace`]).
    pub trace: bool,
}

/// One step of a run, with formulas printed over the predicate's parameters `a0, a1, …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceEvent {
    /// A reachability query `<pred, cube, level>` is processed.
    Query {
        /// Predicate (`false` for the query pseudo-predicate).
        pred: String,
        /// Level (bound).
        level: usize,
        /// The queried states.
        cube: String,
    },
    /// A may-summary (lemma) was learned at `level` (MAY rule).
    Lemma {
        /// Predicate.
        pred: String,
        /// Level where the query was blocked.
        level: usize,
        /// The lemma.
        lemma: String,
    },
    /// A must-summary (reach fact) was learned (MUST rule).
    Fact {
        /// Predicate.
        pred: String,
        /// The fact.
        fact: String,
    },
}

/// Spacer's option words (`--engine spacer:WORD,…`; the command line's flags of the same
/// names, `--may-only`, `--no-mbp`, …, set the same options).
pub const SPACER_OPTIONS: OptionTable<SpacerConfig> = OptionTable {
    switches: &[
        ("may-only", |c| &mut c.may_only),
        ("bottom-up", |c| &mut c.bottom_up),
        ("mbp", |c| &mut c.use_mbp),
        ("weaken", |c| &mut c.weaken),
        ("farkas", |c| &mut c.farkas),
        ("global", |c| &mut c.global),
        ("subsume", |c| &mut c.subsume),
        ("gg-concretize", |c| &mut c.concretize),
        ("gg-conjecture", |c| &mut c.conjecture),
        ("bv-intervals", |c| &mut c.bv_intervals),
        ("bv-relations", |c| &mut c.bv_relations),
    ],
    numbers: &[("max-level", |c| &mut c.max_level)],
};

impl BuildEngine for SpacerConfig {
    const NAME: &'static str = "spacer";
    const OPTIONS: &'static str = "may-only, bottom-up, mbp, weaken, farkas, global, subsume, \
                                   gg-concretize, gg-conjecture, bv-intervals, bv-relations, \
                                   max-level=N";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(Spacer::new(self.clone()))
    }

    fn set_option(&mut self, w: &OptionWord) -> Result<(), String> {
        match SPACER_OPTIONS.set(self, w)? {
            true => Ok(()),
            false => Err(no_option(Self::NAME, w.key, Self::OPTIONS)),
        }
    }

    fn option_words(&self) -> Vec<String> {
        SPACER_OPTIONS.differences(self)
    }
}

impl Default for SpacerConfig {
    fn default() -> Self {
        SpacerConfig {
            may_only: false,
            bottom_up: false,
            use_mbp: true,
            inductive_generalization: true,
            weaken: true,
            bv_intervals: false,
            bv_relations: true,
            farkas: true,
            global: true,
            subsume: true,
            concretize: false,
            conjecture: false,
            max_level: None,
            trace: false,
        }
    }
}

/// The Spacer engine.
pub struct Spacer {
    config: SpacerConfig,
    /// Where the top frame's lemmas are offered after every bound (portfolio runs).
    pool: Option<LemmaPool>,
    stats: FxHashMap<&'static str, u64>,
    trace: Vec<TraceEvent>,
    /// The variables of the encoding, the same in every run on one store.
    vars: Placeholders,
}

impl Spacer {
    /// A Spacer engine with the given options.
    pub fn new(config: SpacerConfig) -> Spacer {
        Spacer {
            config,
            pool: None,
            stats: FxHashMap::default(),
            trace: Vec::new(),
            vars: Placeholders::default(),
        }
    }

    /// Runs on the store of `vars` with the encoding variables of earlier runs (see
    /// [`Placeholders`]); [`Spacer::take_placeholders`] hands them on to the next engine.
    pub(crate) fn with_placeholders(mut self, vars: Placeholders) -> Spacer {
        self.vars = vars;
        self
    }

    /// The encoding variables of this engine's runs, for the next engine on the same store.
    pub(crate) fn take_placeholders(&mut self) -> Placeholders {
        std::mem::take(&mut self.vars)
    }
}

impl Spacer {
    /// The events of the last run (empty unless [`SpacerConfig::trace`] is set).
    pub fn trace(&self) -> &[TraceEvent] {
        &self.trace
    }
}

impl Default for Spacer {
    fn default() -> Self {
        Spacer::new(SpacerConfig::default())
    }
}

/// Outcome of [`Spacer::solve_bounded`].
pub enum Bounded {
    /// An answer (or unknown) before the bound was exceeded.
    Done(ChcResult),
    /// No counterexample up to the bound: the frames, one per predicate.
    Safe(Vec<Frame>),
}

/// The lemmas of one predicate after a bounded run: `(lemma, level)` over `params`; a lemma
/// at level `l` holds for every fact derivable with depth `<= l` ([`usize::MAX`]: always).
pub struct Frame {
    /// The predicate.
    pub pred: FuncId,
    /// Its parameters as used in the lemmas.
    pub params: Vec<VarId>,
    /// Lemmas with their levels.
    pub lemmas: Vec<(TermId, usize)>,
}

impl Spacer {
    /// Runs Spacer with bounds `0, 1, …` up to `max_level` (unbounded if `None`). An answer
    /// found on the way is [`Bounded::Done`]; when every bound up to `max_level` is safe
    /// without an inductive invariant, the frames are returned ([`Bounded::Safe`]): the
    /// bounded proof that abstraction refinement (`engines::spacer_abs`) generalizes from.
    pub fn solve_bounded(
        &mut self,
        store: &mut TermStore,
        sys: &ChcSystem,
        ctl: &Control,
        max_level: Option<usize>,
    ) -> Bounded {
        self.solve_bounded_from(store, sys, ctl, max_level, &[], 0)
    }

    /// As [`Spacer::solve_bounded`], but the run starts at bound `start` with the lemmas of
    /// `seed` (over the frames' own parameters) already in its frames. The caller
    /// guarantees that every seed lemma at level `l` holds for every fact of `sys`
    /// derivable with depth `<= l` (`usize::MAX`: always), as the frames of an earlier
    /// bounded run on a system with the same or more behaviours do once re-checked
    /// (abstraction refinement's NEXTUNDER, `engines::spacer_abs`). Bounds below `start` are not
    /// searched again: their queries were refuted by the run that produced the seed.
    pub fn solve_bounded_from(
        &mut self,
        store: &mut TermStore,
        sys: &ChcSystem,
        ctl: &Control,
        max_level: Option<usize>,
        seed: &[Frame],
        start: usize,
    ) -> Bounded {
        if let Some(why) = crate::system::unsupported_feature(sys, store) {
            return Bounded::Done(ChcResult::Unknown(UnknownReason::Unsupported(why)));
        }
        self.stats.clear();
        let cfg = self.config.clone();
        let mut run = Run::new(store, sys, &cfg, ctl, &mut self.stats, &mut self.vars);
        run.seed(store, seed);
        run.bound = start;
        let result = loop {
            if let Some(max) = max_level
                && run.bound > max
            {
                break Bounded::Safe(run.frames(store));
            }
            if ctl.verbosity > 0 {
                eprintln!("spacer: bound {}", run.bound);
            }
            match run.bounded_safety(store) {
                Err(r) => break Bounded::Done(ChcResult::Unknown(r)),
                Ok(Some(f)) => {
                    break Bounded::Done(match run.counterexample(store, f) {
                        Some(d) => ChcResult::Unsat(d),
                        None => ChcResult::Unknown(UnknownReason::Incomplete(
                            "could not concretize the counterexample".into(),
                        )),
                    });
                }
                Ok(None) => {}
            }
            match run.propagate(store) {
                Err(r) => break Bounded::Done(ChcResult::Unknown(r)),
                Ok(Some(k)) => break Bounded::Done(ChcResult::Sat(run.invariants(store, k))),
                Ok(None) => {
                    if let Some(pool) = &self.pool {
                        run.offer(store, pool);
                    }
                }
            }
            run.bound += 1;
            *run.stats.entry("bound").or_default() = run.bound as u64;
        };
        for p in &run.preds {
            for st in [p.solver.stats(), p.reach.stats()] {
                for (k, v) in [
                    ("smt-decisions", st.decisions),
                    ("smt-conflicts", st.conflicts),
                    ("smt-atoms", st.atoms),
                    ("smt-pivots", st.pivots),
                    ("smt-branches", st.branches),
                    ("smt-cuts", st.cuts),
                    ("smt-ms", st.time.as_millis() as u64),
                    ("smt-array-rounds", st.array_rounds),
                    ("smt-array-lemmas", st.array_lemmas),
                ] {
                    *run.stats.entry(k).or_default() += v;
                }
            }
        }
        let trace = std::mem::take(&mut run.trace);
        // The predicates' solvers can be large (a blasted wide multiplier: a second to free):
        // at a limit they are freed off this thread.
        ctl.dispose(std::mem::take(&mut run.preds));
        drop(run);
        self.trace = trace;
        result
    }
}

impl Engine for Spacer {
    fn name(&self) -> &'static str {
        SpacerConfig::NAME
    }

    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult {
        let max = self.config.max_level;
        match self.solve_bounded(store, sys, ctl, max) {
            Bounded::Done(r) => r,
            Bounded::Safe(_) => ChcResult::Unknown(UnknownReason::Incomplete(format!(
                "bound {} reached",
                max.unwrap_or_default()
            ))),
        }
    }

    fn share(&mut self, pool: &LemmaPool) {
        self.pool = Some(pool.clone());
    }

    fn stats(&self) -> Stats {
        let mut v: Vec<(String, String)> = self
            .stats
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        v.sort();
        v
    }
}
