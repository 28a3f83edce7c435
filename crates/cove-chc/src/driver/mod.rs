//! The solving driver: the one place where Cove's policy lives.
//!
//! A library user calling [`solve`] gets exactly what `cove solve` does: preprocessing with
//! back-translation, one engine or a parallel portfolio, the limits of one [`Control`] in
//! every phase, and the independent certificate check. An answer whose certificate fails the
//! check is never returned as an answer: it becomes `unknown` (with a bug-report line on
//! stderr), because a wrong `sat`/`unsat` is the worst thing a verifier can print.
//!
//! ```
//! use cove_chc::driver::{solve, SolveConfig};
//! use cove_chc::frontend::parse_queries;
//! use cove_chc::{ChcResult, Control};
//! use cove_logic::TermStore;
//!
//! let src = b"(set-logic HORN)
//!   (declare-fun inv (Int) Bool)
//!   (assert (forall ((x Int)) (=> (= x 0) (inv x))))
//!   (assert (forall ((x Int)) (=> (and (inv x) (< x 10)) (inv (+ x 1)))))
//!   (assert (forall ((x Int)) (=> (and (inv x) (> x 10)) false)))
//!   (check-sat)";
//! let mut store = TermStore::new();
//! let ctl = Control::default();
//! let query = parse_queries(src, &mut store, &ctl).unwrap().remove(0);
//! let out = solve(&store, &query, &SolveConfig::default(), &ctl);
//! assert!(matches!(out.answer, ChcResult::Sat(_)));
//! assert!(out.validation.is_valid());
//! ```

mod adt;
mod constants;
mod portfolio;
mod run;
pub mod schedule;
mod strengthen;

use crate::engine::{Control, Stats};
use crate::frontend::Query;
use crate::result::{ChcResult, UnknownReason};
use cove_logic::{TermStore, Value, VarId};
use std::fmt;
use std::time::{Duration, Instant};

pub use crate::engines::EngineConfig;
pub use constants::instantiate as instantiate_constants;
pub(crate) use run::validate;
pub use schedule::EngineSpec;

/// Which engine(s) to run.
#[derive(Clone, Debug)]
pub enum EngineChoice {
    /// Several engines at once, chosen by the system's shape ([`schedule`]); each entry
    /// carries its own options.
    Portfolio,
    /// One engine, with its options.
    One(EngineConfig),
}

impl EngineChoice {
    /// Parses `portfolio` or an engine name of [`EngineConfig::NAMES`] (the engine with its
    /// default options).
    pub fn parse(name: &str) -> Option<EngineChoice> {
        EngineChoice::parse_spec(name).ok()
    }

    /// Like [`EngineChoice::parse`], with the engine's options in the words of
    /// [`cove_control::engine_options`] (`spacer:bottom-up`); `Err` says what is wrong.
    /// The portfolio takes no words: its entries carry their own options.
    pub fn parse_spec(spec: &str) -> Result<EngineChoice, String> {
        let (name, words) = cove_control::engine_options::split_spec(spec);
        if name == "portfolio" {
            return match words.first() {
                None => Ok(EngineChoice::Portfolio),
                Some(w) => Err(format!(
                    "the portfolio has no option '{}' (its entries carry their own options)",
                    w.key
                )),
            };
        }
        EngineConfig::parse_spec(spec).map(EngineChoice::One)
    }

    /// Every accepted name, for `--help` and error messages.
    pub fn names() -> Vec<&'static str> {
        let mut v = vec!["portfolio"];
        v.extend_from_slice(EngineConfig::NAMES);
        v
    }

    /// The name: `portfolio` or the engine's.
    pub fn name(&self) -> &'static str {
        match self {
            EngineChoice::Portfolio => "portfolio",
            EngineChoice::One(e) => e.name(),
        }
    }
}

impl From<EngineConfig> for EngineChoice {
    /// One engine with the options `config`.
    fn from(config: EngineConfig) -> EngineChoice {
        EngineChoice::One(config)
    }
}

/// How to solve: typed, shared by the CLI, the library and the portfolio.
#[derive(Clone, Debug)]
pub struct SolveConfig {
    /// Engine (with its options) or portfolio.
    pub engine: EngineChoice,
    /// Portfolio threads (0 = the available cores).
    pub threads: usize,
    /// Simplify, slice, inline and drop arguments before solving (witnesses are translated
    /// back to the input system).
    pub preprocess: bool,
    /// Check every certificate independently before answering (on by default). Turning it
    /// off is for measuring; an unchecked answer is reported as such in [`Outcome::validation`].
    pub validate: bool,
    /// Portfolio engines share what they learn: Spacer offers its top-frame lemmas, the
    /// abstraction engine takes them as invariant candidates, and any other engine that
    /// starts on a freed thread solves the system strengthened with their inductive subset
    /// (`crate::share`). Off by default: on the 73 hardest files of the public set it
    /// changed no count beyond noise (`docs/decisions.md#portfolio-lemma-sharing-off`).
    pub share: bool,
}

impl Default for SolveConfig {
    fn default() -> SolveConfig {
        SolveConfig {
            engine: EngineChoice::Portfolio,
            threads: 0,
            preprocess: true,
            validate: true,
            share: false,
        }
    }
}

impl SolveConfig {
    /// The number of portfolio threads this configuration runs (at least 1).
    pub fn thread_count(&self) -> usize {
        if self.threads > 0 {
            self.threads
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
    }
}

/// What the independent check said about the answer's certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Validation {
    /// No answer to check (`unknown`).
    NotApplicable,
    /// Checking was turned off.
    Skipped,
    /// The certificate checked.
    Valid,
    /// The check refuted the certificate: the answer was withdrawn (a bug in Cove).
    Failed(String),
    /// The check ran out of limits: the answer was withdrawn (not a bug).
    Undecided(String),
}

impl Validation {
    /// True when the certificate was checked and accepted.
    pub fn is_valid(&self) -> bool {
        *self == Validation::Valid
    }
}

impl fmt::Display for Validation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Validation::NotApplicable => write!(f, "none"),
            Validation::Skipped => write!(f, "skipped"),
            Validation::Valid => write!(f, "valid"),
            Validation::Failed(e) => write!(f, "failed: {e}"),
            Validation::Undecided(e) => write!(f, "undecided: {e}"),
        }
    }
}

/// The phases of a run; an `unknown` says in which one it stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Reading the input.
    Parsing,
    /// Preprocessing.
    Preprocessing,
    /// An engine.
    Solving,
    /// Translating a witness back to the input system.
    BackTranslation,
    /// The independent certificate check.
    Validation,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Parsing => "parsing",
            Phase::Preprocessing => "preprocessing",
            Phase::Solving => "solving",
            Phase::BackTranslation => "back-translation",
            Phase::Validation => "validation",
        })
    }
}

/// The result of [`solve`].
#[derive(Clone)]
pub struct Outcome {
    /// The answer, its witness stated over the *input* system (in [`Outcome::store`]).
    pub answer: ChcResult,
    /// The terms of the witness: the input store extended with what solving created (every
    /// id of the input store means the same here).
    pub store: TermStore,
    /// The engine that answered (or the last one that ran).
    pub engine: String,
    /// The certificate check.
    pub validation: Validation,
    /// Values of the query's declared constants the witness is for (empty without constants).
    pub constants: Vec<(VarId, Value)>,
    /// For `unknown`: the phase it stopped in.
    pub phase: Option<Phase>,
    /// Engine statistics.
    pub stats: Stats,
    /// Wall-clock time of [`solve`].
    pub time: Duration,
}

impl Outcome {
    /// An `unknown` outcome.
    pub fn unknown(store: TermStore, reason: UnknownReason, phase: Phase) -> Outcome {
        Outcome {
            answer: ChcResult::Unknown(reason),
            store,
            engine: String::new(),
            validation: Validation::NotApplicable,
            constants: vec![],
            phase: Some(phase),
            stats: vec![],
            time: Duration::ZERO,
        }
    }
}

/// Decides one question of a CHC file (see [`crate::frontend::parse_queries`]) under the
/// limits of `ctl`. The answer's certificate is checked against `query.system` (with the
/// constants' values) unless `cfg.validate` is off.
pub fn solve(store: &TermStore, query: &Query, cfg: &SolveConfig, ctl: &Control) -> Outcome {
    let start = Instant::now();
    let mut out = if query.constants.is_empty() {
        solve_system(store.clone(), &query.system, cfg, ctl)
    } else {
        constants::solve(store, query, cfg, ctl)
    };
    out.time = start.elapsed();
    out
}

/// Decides a system without declared constants: one engine or the portfolio, each run
/// preprocessing, solving, translating back and validating.
pub(crate) fn solve_system(
    mut store: TermStore,
    sys: &crate::system::ChcSystem,
    cfg: &SolveConfig,
    ctl: &Control,
) -> Outcome {
    if crate::preprocess::adt::system_mentions_dt(&store, sys) {
        return adt::solve(store, sys, cfg, ctl);
    }
    if let Some(why) = crate::system::unsupported_feature(sys, &store) {
        return Outcome::unknown(store, UnknownReason::Unsupported(why), Phase::Solving);
    }
    match &cfg.engine {
        EngineChoice::One(engine) => {
            let spec = EngineSpec::single(engine.clone());
            let r = run::run_guarded(&mut store, sys, &spec, cfg, ctl);
            r.into_outcome(store)
        }
        EngineChoice::Portfolio => portfolio::run(store, sys, cfg, ctl),
    }
}
