//! Running a check as a whole: building the models, choosing and running a method under
//! limits, and checking every counterexample independently before it is reported — the policy
//! behind `cove prob simulate|verify`, as library functions.
//!
//! Limits and cancellation come in a [`Control`] (as for a CHC run, `cove_chc::driver`): a
//! deadline, a memory limit and an interruption flag another thread can set
//! ([`Control::stop`]). Every phase polls it — building PRISM models, composing, simulation
//! checks, refinement and learning iterations, the learner's SAT/SMT calls — and a run it
//! stops ends with [`Answer::Unknown`] and the reason, never with an error.
//!
//! A refutation is reported only after its independent checks: the tree is a tree whose
//! execution mapping goes into the system it was found on, the specification does not
//! simulate it (naive reference simulation), and for AGAR and learning, whose trees map into
//! the abstraction `L1 ∥ A`, the concrete composition simulates it when it can be built. A
//! check that fails is [`Error::CexCheck`] — a bug, never a verdict.
//!
//! ```
//! use cove_control::Control;
//! use cove_prob::driver::{Answer, simulate};
//! use cove_prob::parse_lpts;
//! let imp = parse_lpts("init p\np -a-> 2/3 : s + 1/3 : t\ns -b-> s\n").unwrap();
//! let spec = parse_lpts("init q\nq -a-> 1/2 : u + 1/2 : v\nu -b-> u\n").unwrap();
//! let out = simulate(&imp, &spec, 1000, &Control::new()).unwrap();
//! assert!(matches!(out.answer, Answer::Fails(_)));
//! ```

use crate::agar::{
    AgarError, Budget, Refinement, Stats, Verdict, agar_n_with, agar_with, compose_all, mono,
};
use crate::bench::Method;
use crate::cex::{Counterexample, SimAnswer, check_execution_mapping, check_simulation_stoppable};
use crate::format::parse_lpts;
use crate::learn::{FindConsistent, LearnError, LearnOptions, LearnProfile, Positives};
use crate::lpts::Lpts;
use crate::prism::{BuildOptions, PrismError, build_lpts};
use crate::sim::{Simulation, naive_simulation};
use cove_control::{Control, UnknownReason};
use std::path::Path;
use std::time::Instant;

/// Why a check could not be run or its result not be trusted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file could not be read or written (the message names it).
    #[error("{0}")]
    Io(String),
    /// The configuration does not fit the input (e.g. AGAR with one component, a malformed
    /// constant definition).
    #[error("{0}")]
    Config(String),
    /// The input is malformed; the message starts with `file:line:column`.
    #[error("{0}")]
    BadInput(String),
    /// A counterexample did not pass its independent check (a bug; report it).
    #[error("counterexample check failed: {0}")]
    CexCheck(String),
    /// An internal inconsistency.
    #[error("{0}")]
    Internal(String),
}

/// The answer of a check.
#[derive(Clone, Debug)]
pub enum Answer {
    /// The system conforms to the specification.
    Holds,
    /// It does not; the counterexample passed its independent checks.
    Fails(Box<Refutation>),
    /// No answer: a limit was reached or the run was interrupted (see [`UnknownReason`]:
    /// `Timeout`, `Memory`, `Interrupted`, or `ResourceOut` for a state, tree or iteration
    /// limit of the method).
    Unknown(UnknownReason),
}

/// A checked counterexample.
#[derive(Clone, Debug)]
pub struct Refutation {
    /// The tree counterexample.
    pub cex: Counterexample,
    /// The LPTS its execution mapping goes into (the implementation, the composition, or the
    /// abstraction `L1 ∥ A` of AGAR and learning).
    pub system: Lpts,
    /// What it was checked against, in words (printed with it).
    pub checked: String,
}

/// The result of [`simulate`] or [`verify`].
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The answer.
    pub answer: Answer,
    /// Measurements of the method's run (all zero when it stopped without an answer).
    pub stats: Stats,
    /// For [`Method::Learn`]: where the learner spent its work (also when it gave up).
    pub learn: Option<LearnProfile>,
}

impl Outcome {
    fn unknown(reason: UnknownReason, learn: Option<LearnProfile>) -> Outcome {
        Outcome {
            answer: Answer::Unknown(reason),
            stats: Stats::default(),
            learn,
        }
    }
}

/// The reason for a limit that stopped a method.
fn stop_reason(e: &AgarError) -> Option<UnknownReason> {
    match e {
        AgarError::TimeLimit => Some(UnknownReason::Timeout),
        AgarError::MemoryLimit => Some(UnknownReason::Memory),
        AgarError::Interrupted => Some(UnknownReason::Interrupted),
        AgarError::TooLarge(t) => Some(UnknownReason::ResourceOut(t.to_string())),
        AgarError::Cex(crate::cex::CexError::TooLarge(_)) => {
            Some(UnknownReason::ResourceOut(e.to_string()))
        }
        _ => None,
    }
}

/// Splits PRISM-style constant definitions (`NAME=VALUE`, several per item separated by
/// commas, as in PRISM's `-const`) into pairs.
pub fn parse_constants(items: &[String]) -> Result<Vec<(String, String)>, Error> {
    let mut out = Vec::new();
    for c in items.iter().flat_map(|c| c.split(',')) {
        let Some((n, v)) = c.split_once('=') else {
            return Err(Error::Config(format!(
                "--const expects NAME=VALUE, got `{c}`"
            )));
        };
        out.push((n.trim().to_string(), v.trim().to_string()));
    }
    Ok(out)
}

/// Reads an LPTS. Files ending in `.lpts` are read in the textual LPTS format
/// ([`crate::format`]), `.drn` as Storm's DRN and `.tra` (with a `.lab` beside it, if any) as
/// PRISM's explicit format ([`crate::drn`]); every other file is built as a model in the PRISM
/// subset ([`crate::prism`]) with `constants`. `whole`: the PRISM model is a whole system
/// (deadlock states get PRISM's self-loop) rather than a component to be composed.
///
/// `Err(reason)` inside `Ok` when `ctl` stopped the build of a PRISM model.
pub fn load_model(
    path: &Path,
    constants: &[(String, String)],
    whole: bool,
    ctl: &Control,
) -> Result<Result<Lpts, UnknownReason>, Error> {
    let text =
        std::fs::read_to_string(path).map_err(|e| Error::Io(format!("{}: {e}", path.display())))?;
    let bad = |e: crate::format::ParseError| Error::BadInput(format!("{}:{e}", path.display()));
    match path.extension().and_then(|e| e.to_str()) {
        Some("lpts") => return parse_lpts(&text).map(Ok).map_err(bad),
        Some("drn") => return crate::drn::parse_drn(&text).map(Ok).map_err(bad),
        Some("tra") => {
            let lab = std::fs::read_to_string(path.with_extension("lab")).ok();
            return crate::drn::parse_tra(&text, lab.as_deref())
                .map(Ok)
                .map_err(bad);
        }
        _ => {}
    }
    let opts = BuildOptions {
        deadlock_self_loops: whole,
        ignore_unknown_constants: true,
        constants: constants.to_vec(),
        control: ctl.clone(),
        ..BuildOptions::default()
    };
    match build_lpts(&text, &opts) {
        Ok(l) => Ok(Ok(l)),
        Err(PrismError { stop: Some(r), .. }) => Ok(Err(r)),
        Err(e) => Err(Error::BadInput(format!("{}:{e}", path.display()))),
    }
}

/// The independent checks of a counterexample found on `system` against `spec`.
fn check_cex(cex: &Counterexample, system: &Lpts, spec: &Lpts) -> Result<(), Error> {
    check_execution_mapping(cex, system).map_err(Error::CexCheck)?;
    if naive_simulation(&cex.tree, spec).contains(cex.tree.initial(), spec.initial()) {
        return Err(Error::CexCheck(
            "the specification simulates the counterexample".into(),
        ));
    }
    Ok(())
}

/// Decides `imp ⪯ spec` by strong simulation under `ctl`; a counterexample tree has at most
/// `max_tree_nodes` nodes.
pub fn simulate(
    imp: &Lpts,
    spec: &Lpts,
    max_tree_nodes: usize,
    ctl: &Control,
) -> Result<Outcome, Error> {
    let start = Instant::now();
    let stop = || ctl.should_stop().is_some();
    let ans = match check_simulation_stoppable(imp, spec, max_tree_nodes, &stop) {
        Ok(Some(a)) => a,
        Ok(None) => {
            let r = ctl.should_stop().unwrap_or(UnknownReason::Interrupted);
            return Ok(Outcome::unknown(r, None));
        }
        Err(e @ crate::cex::CexError::TooLarge(_)) => {
            return Ok(Outcome::unknown(
                UnknownReason::ResourceOut(e.to_string()),
                None,
            ));
        }
        Err(e) => return Err(Error::Internal(e.to_string())),
    };
    let answer = match ans {
        SimAnswer::Holds => Answer::Holds,
        SimAnswer::Fails(cex) => {
            check_cex(&cex, imp, spec)?;
            Answer::Fails(Box::new(Refutation {
                cex,
                system: imp.clone(),
                checked: "simulated by the implementation (execution mapping)".into(),
            }))
        }
    };
    Ok(Outcome {
        answer,
        stats: Stats {
            time: start.elapsed(),
            iterations: 1,
            ..Stats::default()
        },
        learn: None,
    })
}

/// How [`verify`] checks a composition.
#[derive(Clone, Debug)]
pub struct VerifyConfig {
    /// `Mono`: compose and check; `Agar`: rule ASYM, the assumption for the composition of
    /// all but the first component refined from counterexamples; `AgarN`: rule ASYM-N, one
    /// assumption per component; `Learn`: rule ASYM with a learned assumption.
    pub method: Method,
    /// Maximum states of any composed LPTS (a larger one gives `unknown`).
    pub max_states: usize,
    /// Maximum nodes of a counterexample tree.
    pub max_tree_nodes: usize,
    /// FINDCONSISTENT of the learner.
    pub find_consistent: FindConsistent,
    /// AGAR's and AGAR-N's refinement.
    pub refine: Refinement,
    /// The learner's positive samples.
    pub positives: Positives,
    /// The learner gives up (`unknown`) after this many conjectures.
    pub max_learn_iterations: usize,
    /// One progress line per learning iteration on standard error.
    pub trace: bool,
}

impl Default for VerifyConfig {
    fn default() -> Self {
        VerifyConfig {
            method: Method::Mono,
            max_states: 2_000_000,
            max_tree_nodes: 1_000_000,
            find_consistent: FindConsistent::default(),
            refine: Refinement::default(),
            positives: Positives::default(),
            max_learn_iterations: 100_000,
            trace: false,
        }
    }
}

/// Checks `C1 ∥ … ∥ Cn ⪯ spec` with the configured method under `ctl`.
pub fn verify(
    comps: &[Lpts],
    spec: &Lpts,
    cfg: &VerifyConfig,
    ctl: &Control,
) -> Result<Outcome, Error> {
    let budget = Budget {
        max_states: cfg.max_states,
        max_tree_nodes: cfg.max_tree_nodes,
        control: ctl.clone(),
    };
    let mut prof = LearnProfile::default();
    let learn = cfg.method == Method::Learn;
    let res: Result<(Verdict, Stats), AgarError> = match cfg.method {
        Method::Mono => mono(comps, spec, &budget),
        Method::AgarN => agar_n_with(comps, spec, &budget, cfg.refine),
        Method::Agar | Method::Learn => {
            if comps.len() < 2 {
                return Err(Error::Config(format!(
                    "--method {} needs at least two components",
                    cfg.method.name()
                )));
            }
            let mut s = Stats::default();
            let rest = match compose_all(&comps[1..], &budget, &mut s) {
                Ok(r) => r,
                Err(e) => return agar_failure(e, learn.then(|| prof.clone())),
            };
            let run = if learn {
                let opts = LearnOptions {
                    find: cfg.find_consistent,
                    budget: budget.clone(),
                    max_iterations: cfg.max_learn_iterations,
                    trace: cfg.trace,
                    positives: cfg.positives,
                    ..LearnOptions::default()
                };
                match crate::learn::learn_asym_with(&comps[0], &rest, spec, &opts, &mut prof) {
                    Ok(x) => Ok(x),
                    Err(e) => return learn_failure(e, prof),
                }
            } else {
                agar_with(&comps[0], &rest, spec, &budget, cfg.refine)
            };
            run.map(|(v, mut st)| {
                st.largest_composed = st.largest_composed.max(s.largest_composed);
                (v, st)
            })
        }
    };
    let (verdict, stats) = match res {
        Ok(x) => x,
        Err(e) => return agar_failure(e, learn.then(|| prof.clone())),
    };
    let answer = match verdict {
        Verdict::Holds => Answer::Holds,
        Verdict::Fails(f) => {
            check_cex(&f.cex, &f.system, spec)?;
            let checked = if cfg.method == Method::Mono {
                "simulated by the composition (execution mapping)".to_string()
            } else {
                recheck_concrete(&f.cex, comps, &budget)?
            };
            let f = *f;
            Answer::Fails(Box::new(Refutation {
                cex: f.cex,
                system: f.system,
                checked,
            }))
        }
    };
    Ok(Outcome {
        answer,
        stats,
        learn: learn.then_some(prof),
    })
}

/// AGAR's and learning's trees map into `L1 ∥ A` (an abstraction): re-check them on the
/// concrete composition when it can be built within the limits.
fn recheck_concrete(
    cex: &Counterexample,
    comps: &[Lpts],
    budget: &Budget,
) -> Result<String, Error> {
    let stop = || budget.control.should_stop().is_some();
    let full = match compose_all(comps, budget, &mut Stats::default()) {
        Ok(full) => full,
        Err(AgarError::TooLarge(_)) => {
            return Ok(
                "simulated by the abstraction L1 || A (execution mapping below); the \
                       concrete composition is too large to re-check"
                    .into(),
            );
        }
        Err(_) => {
            return Ok(
                "simulated by the abstraction L1 || A (execution mapping below); the \
                       limits ended the re-check on the concrete composition"
                    .into(),
            );
        }
    };
    match Simulation::compute_limited(&cex.tree, &full, &stop) {
        Some(sim) if sim.related(cex.tree.initial(), full.initial()) => Ok(format!(
            "simulated by the concrete composition ({} states; the mapping below is into the \
             abstraction L1 || A)",
            full.num_states()
        )),
        Some(_) => Err(Error::CexCheck(
            "the concrete composition does not simulate the counterexample".into(),
        )),
        None => Ok(
            "simulated by the abstraction L1 || A (execution mapping below); the limits ended \
             the re-check on the concrete composition"
                .into(),
        ),
    }
}

fn agar_failure(e: AgarError, learn: Option<LearnProfile>) -> Result<Outcome, Error> {
    match stop_reason(&e) {
        Some(r) => Ok(Outcome::unknown(r, learn)),
        None => Err(Error::Internal(e.to_string())),
    }
}

fn learn_failure(e: LearnError, prof: LearnProfile) -> Result<Outcome, Error> {
    let reason = match e {
        LearnError::TimeLimit => UnknownReason::Timeout,
        LearnError::MemoryLimit => UnknownReason::Memory,
        LearnError::Interrupted => UnknownReason::Interrupted,
        LearnError::IterationLimit(_) | LearnError::TooLarge(_) => {
            UnknownReason::ResourceOut(e.to_string())
        }
        LearnError::Cex(c) => return agar_failure(AgarError::Cex(c), Some(prof)),
        other => return Err(Error::Internal(other.to_string())),
    };
    Ok(Outcome::unknown(reason, Some(prof)))
}
