//! The engines: which there are and their options ([`EngineConfig`], the one registry shared
//! by the command line, the portfolio's schedule and the library).
//!
//! An engine is one file here holding its algorithm and its options struct (with a `run`
//! method returning a [`crate::result::EngineResult`]) plus one variant in the registry.
//! The portfolio is not an engine but a choice beside them
//! ([`crate::driver::EngineChoice`]): it runs the schedule's entries, which are values of
//! this registry.

pub mod bmc;
pub mod ic3;
pub mod kind;
pub mod localization;

use crate::Aig;
use crate::result::EngineResult;
use bmc::BmcConfig;
use cove_control::Control;
use ic3::Ic3Config;
use kind::KindConfig;
use localization::LocConfig;

/// An engine with its options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineConfig {
    /// IC3/PDR (complete).
    Ic3(Ic3Config),
    /// Bounded model checking (counterexamples only).
    Bmc(BmcConfig),
    /// k-induction.
    Kind(KindConfig),
    /// Localization abstraction refined by BMC, IC3 on the abstractions ([`localization`]).
    Loc(LocConfig),
}

impl EngineConfig {
    /// Engine names accepted by [`EngineConfig::parse`] (`pdr`, `k-induction` and
    /// `localization` are accepted as aliases of `ic3`, `kind` and `loc`). The last four
    /// are settings the portfolio's schedule uses, runnable alone.
    pub const NAMES: [&'static str; 8] = [
        "ic3",
        "bmc",
        "kind",
        "loc",
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
        }
    }

    /// Runs the engine on `aig` (a reduced circuit with one bad property), uncertified. A
    /// panic is not caught here: the driver runs engines under its guard.
    pub fn run(&self, aig: &Aig, ctl: &Control) -> EngineResult {
        match self {
            EngineConfig::Ic3(c) => c.run(aig, ctl),
            EngineConfig::Bmc(c) => c.run(aig, ctl),
            EngineConfig::Kind(c) => c.run(aig, ctl),
            EngineConfig::Loc(c) => c.run(aig, ctl),
        }
    }
}
