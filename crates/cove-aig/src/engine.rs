//! The engines: which there are and their options ([`EngineConfig`], the one registry shared
//! by the command line, the portfolio's schedule and the library), and what an engine returns
//! on the reduced circuit before certification ([`EngineResult`]).
//!
//! An engine is one file holding its algorithm and its options struct (with a `run` method)
//! plus one variant here.

use crate::bmc::BmcConfig;
use crate::driver::PortfolioConfig;
use crate::ic3::Ic3Config;
use crate::kind::KindConfig;
use crate::loc::LocConfig;
use crate::{ALit, Aig};
use cove_control::{Control, UnknownReason};
use cove_sat::{Limits, SolveResult, Solver};

/// An engine with its options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineConfig {
    /// IC3/PDR (complete).
    Ic3(Ic3Config),
    /// Bounded model checking (counterexamples only).
    Bmc(BmcConfig),
    /// k-induction.
    Kind(KindConfig),
    /// Localization abstraction refined by BMC, IC3 on the abstractions ([`crate::loc`]).
    Loc(LocConfig),
    /// Several engines side by side, the first definite answer wins
    /// ([`crate::driver::schedule`]).
    Portfolio(PortfolioConfig),
}

impl Default for EngineConfig {
    /// The portfolio.
    fn default() -> EngineConfig {
        EngineConfig::Portfolio(PortfolioConfig::default())
    }
}

impl EngineConfig {
    /// Engine names accepted by [`EngineConfig::parse`] (`pdr`, `k-induction`,
    /// `localization` and `all` are accepted as aliases of `ic3`, `kind`, `loc` and
    /// `portfolio`). The last three are the portfolio's entries, runnable alone.
    pub const NAMES: [&'static str; 9] = [
        "ic3",
        "bmc",
        "kind",
        "loc",
        "portfolio",
        "ic3-loc",
        "kind-bmc",
        "ic3-plain",
        "ic3-ctg",
    ];

    /// The engine named `s` with its default options (see [`EngineConfig::NAMES`]).
    pub fn parse(s: &str) -> Option<EngineConfig> {
        Some(match s {
            "ic3" | "pdr" => EngineConfig::Ic3(Ic3Config::default()),
            "ic3-plain" => EngineConfig::Ic3(Ic3Config {
                predict: false,
                lifted_ctg: false,
            }),
            "ic3-ctg" => EngineConfig::Ic3(Ic3Config {
                predict: true,
                lifted_ctg: true,
            }),
            "bmc" => EngineConfig::Bmc(BmcConfig::default()),
            "kind" | "k-induction" => EngineConfig::Kind(KindConfig::default()),
            "kind-bmc" => EngineConfig::Kind(KindConfig { balanced: true }),
            "loc" | "localization" => EngineConfig::Loc(LocConfig::default()),
            "ic3-loc" => EngineConfig::Loc(LocConfig { ic3_first: true }),
            "portfolio" | "all" => EngineConfig::Portfolio(PortfolioConfig::default()),
            _ => return None,
        })
    }

    /// The name of this engine and setting (one of [`EngineConfig::NAMES`]).
    pub fn name(&self) -> &'static str {
        match self {
            EngineConfig::Ic3(c) if c.lifted_ctg => "ic3-ctg",
            EngineConfig::Ic3(c) if c.predict => "ic3",
            EngineConfig::Ic3(_) => "ic3-plain",
            EngineConfig::Bmc(_) => "bmc",
            EngineConfig::Kind(c) if c.balanced => "kind-bmc",
            EngineConfig::Kind(_) => "kind",
            EngineConfig::Loc(c) if c.ic3_first => "ic3-loc",
            EngineConfig::Loc(_) => "loc",
            EngineConfig::Portfolio(_) => "portfolio",
        }
    }

    /// Runs the engine on `aig` (a reduced circuit with one bad property), uncertified. A
    /// panic is not caught here: the driver runs engines under its guard.
    pub fn run(&self, aig: &Aig, ctl: &Control) -> EngineResult {
        self.run_labelled(aig, ctl).0
    }

    /// [`EngineConfig::run`], with the name of the engine that answered (a portfolio entry's).
    pub(crate) fn run_labelled(&self, aig: &Aig, ctl: &Control) -> (EngineResult, &'static str) {
        match self {
            EngineConfig::Ic3(c) => (c.run(aig, ctl), self.name()),
            EngineConfig::Bmc(c) => (c.run(aig, ctl), self.name()),
            EngineConfig::Kind(c) => (c.run(aig, ctl), self.name()),
            EngineConfig::Loc(c) => (c.run(aig, ctl), self.name()),
            EngineConfig::Portfolio(c) => c.run(aig, ctl),
        }
    }
}

/// Result of an engine on a (reduced) circuit.
#[derive(Clone, Debug)]
pub enum EngineResult {
    /// Proved safe.
    Safe(Proof),
    /// A counterexample of the circuit the engine ran on.
    Unsafe(RawTrace),
    /// No answer.
    Unknown(UnknownReason),
}

/// Evidence of safety.
#[derive(Clone, Debug)]
pub enum Proof {
    /// An inductive invariant: clauses (AIGER literals over latch variables).
    Invariant(Vec<Vec<ALit>>),
    /// The property is `k`-inductive (under the constraints) and no bad state is reachable in
    /// fewer than `k` steps.
    KInduction(usize),
}

/// Initial latch values and inputs per step, in the engine's circuit's order.
#[derive(Clone, Debug, Default)]
pub struct RawTrace {
    /// Initial latch values.
    pub init: Vec<bool>,
    /// Input values per step.
    pub inputs: Vec<Vec<bool>>,
}

/// A solve call that maps `Unknown` to the reason the control gives (or a budget reason).
pub(crate) fn sat(
    s: &mut Solver,
    assumptions: &[cove_sat::Lit],
    limits: &Limits,
    ctl: &Control,
) -> Result<bool, UnknownReason> {
    match s.solve_limited(assumptions, &mut cove_sat::NoTheory, limits) {
        SolveResult::Sat => Ok(true),
        SolveResult::Unsat => Ok(false),
        SolveResult::Unknown => Err(ctl
            .should_stop()
            .unwrap_or_else(|| UnknownReason::ResourceOut("SAT budget".into()))),
    }
}

/// Values of `lits` in the last model.
pub(crate) fn values(s: &Solver, lits: &[cove_sat::Lit]) -> Vec<bool> {
    lits.iter()
        .map(|&l| s.value(l) == cove_sat::LBool::True)
        .collect()
}
