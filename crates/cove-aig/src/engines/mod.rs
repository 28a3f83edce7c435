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
    /// name settings of the first four that the portfolio's schedule uses: `ic3-loc` is
    /// `loc:ic3-first`, `kind-bmc` is `kind:balanced`, `ic3-plain` is `ic3:no-predict`,
    /// `ic3-ctg` is `ic3:ctg`.
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

    /// Every option word, by engine, for `--help` and error messages
    /// ([`cove_control::engine_options`]).
    pub const OPTIONS: [(&'static str, &'static str); 4] = [
        ("ic3", "predict (on), ctg (off)"),
        ("bmc", "none"),
        ("kind", "balanced (off)"),
        ("loc", "ic3-first (off)"),
    ];

    /// The engine named `s` with its default options (see [`EngineConfig::NAMES`]), or
    /// `None`; [`EngineConfig::parse_spec`] also reads options.
    pub fn parse(s: &str) -> Option<EngineConfig> {
        EngineConfig::parse_spec(s).ok()
    }

    /// An engine and its options in the words of [`cove_control::engine_options`]:
    /// `ic3`, `ic3:no-predict`, `kind:balanced`, `loc:ic3-first`, or a name of
    /// [`EngineConfig::NAMES`] followed by more words. The same words the portfolio's
    /// schedule is written in ([`crate::driver::schedule`]). `Err` names what is wrong.
    pub fn parse_spec(spec: &str) -> Result<EngineConfig, String> {
        let (name, words) = cove_control::engine_options::split_spec(spec);
        let mut e = match name {
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
            _ => {
                return Err(format!(
                    "unknown hardware engine '{name}' (available: {})",
                    EngineConfig::NAMES.join(", ")
                ));
            }
        };
        for w in &words {
            e.set_option(w)?;
        }
        Ok(e)
    }

    /// Sets one option (see [`EngineConfig::OPTIONS`]).
    pub fn set_option(
        &mut self,
        w: &cove_control::engine_options::OptionWord,
    ) -> Result<(), String> {
        let slot = match (&mut *self, w.key) {
            (EngineConfig::Ic3(c), "predict") => &mut c.predict,
            (EngineConfig::Ic3(c), "ctg") => &mut c.lifted_ctg,
            (EngineConfig::Kind(c), "balanced") => &mut c.balanced,
            (EngineConfig::Loc(c), "ic3-first") => &mut c.ic3_first,
            (e, key) => {
                let base = e.base_name();
                let known = EngineConfig::OPTIONS
                    .iter()
                    .find(|(n, _)| *n == base)
                    .map_or("none", |(_, o)| o);
                return Err(format!(
                    "hardware engine '{base}' has no option '{key}' (its options: {known})"
                ));
            }
        };
        *slot = w.switch()?;
        Ok(())
    }

    /// The engine's name without options: `ic3`, `bmc`, `kind` or `loc`.
    pub fn base_name(&self) -> &'static str {
        match self {
            EngineConfig::Ic3(_) => "ic3",
            EngineConfig::Bmc(_) => "bmc",
            EngineConfig::Kind(_) => "kind",
            EngineConfig::Loc(_) => "loc",
        }
    }

    /// The engine and its options in the words [`EngineConfig::parse_spec`] reads back: the
    /// base name, then every option that differs from its default.
    pub fn spec(&self) -> String {
        use cove_control::engine_options::switch_word;
        let d = Ic3Config::default();
        let words: Vec<String> = match self {
            EngineConfig::Ic3(c) => [
                (c.predict != d.predict).then(|| switch_word("predict", c.predict)),
                (c.lifted_ctg != d.lifted_ctg).then(|| switch_word("ctg", c.lifted_ctg)),
            ]
            .into_iter()
            .flatten()
            .collect(),
            EngineConfig::Bmc(_) => vec![],
            EngineConfig::Kind(c) => c
                .balanced
                .then(|| "balanced".to_string())
                .into_iter()
                .collect(),
            EngineConfig::Loc(c) => c
                .ic3_first
                .then(|| "ic3-first".to_string())
                .into_iter()
                .collect(),
        };
        if words.is_empty() {
            self.base_name().to_string()
        } else {
            format!("{}:{}", self.base_name(), words.join(","))
        }
    }

    /// The name of this engine and setting, as answers are labelled (one of
    /// [`EngineConfig::NAMES`]; a setting without a name of its own is labelled by its
    /// nearest: use [`EngineConfig::spec`] for the exact options).
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
