//! The engines, one module each, all behind [`crate::engine::Engine`].

pub mod abs;
pub mod bmc;
pub mod hw;
pub mod imc;
pub mod kind;
pub mod lawi;
pub mod linear_bmc;
pub mod pdkind;
pub mod spacer;
pub mod split_tpa;
pub mod terms;
pub mod tpa;
mod tpa_fix;
mod ts_util;

use crate::engine::Engine;

/// The engines `--engine` can name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// RecMC / Spacer (default).
    Spacer,
    /// Bounded model checking.
    Bmc,
    /// k-induction on the transition-system view (linear systems).
    Kind,
    /// Property-directed k-induction on the transition-system view (linear systems).
    PdKind,
    /// Interpolation-based model checking (transition systems).
    Imc,
    /// Transition power abstraction (transition systems).
    Tpa,
    /// Split transition power abstraction (transition systems).
    SplitTpa,
    /// Lazy abstraction with interpolants (Impact; transition systems).
    Lawi,
    /// Spacer with abstraction refinement (thesis Ch. 3).
    SpacerAbs,
    /// BMC on the linear fragment of a nonlinear system (counterexamples only).
    LinearBmc,
    /// Houdini over candidates built from the clauses' own terms.
    Terms,
    /// Bit-vector systems blasted onto the hardware engines' IC3 ([`hw`]).
    Hw,
}

impl EngineKind {
    /// Every engine name, for `--help` and error messages.
    pub const NAMES: &'static [&'static str] = &[
        "spacer",
        "bmc",
        "kind",
        "pdkind",
        "imc",
        "tpa",
        "split-tpa",
        "lawi",
        "spacer-abs",
        "linear-bmc",
        "terms",
        "hw",
    ];

    /// Parses an engine name.
    pub fn parse(name: &str) -> Option<EngineKind> {
        match name {
            "spacer" => Some(EngineKind::Spacer),
            "bmc" => Some(EngineKind::Bmc),
            "kind" => Some(EngineKind::Kind),
            "pdkind" => Some(EngineKind::PdKind),
            "imc" => Some(EngineKind::Imc),
            "tpa" => Some(EngineKind::Tpa),
            "split-tpa" => Some(EngineKind::SplitTpa),
            "lawi" => Some(EngineKind::Lawi),
            "spacer-abs" => Some(EngineKind::SpacerAbs),
            "linear-bmc" => Some(EngineKind::LinearBmc),
            "terms" => Some(EngineKind::Terms),
            "hw" => Some(EngineKind::Hw),
            _ => None,
        }
    }

    /// A fresh engine of this kind with default options.
    pub fn create(self) -> Box<dyn Engine> {
        match self {
            EngineKind::Spacer => Box::new(spacer::Spacer::default()),
            EngineKind::Bmc => Box::new(bmc::Bmc::default()),
            EngineKind::Kind => Box::new(kind::KInduction::default()),
            EngineKind::PdKind => Box::new(pdkind::PdKind::default()),
            EngineKind::Imc => Box::new(imc::Imc::default()),
            EngineKind::Tpa => Box::new(tpa::Tpa::default()),
            EngineKind::SplitTpa => Box::new(split_tpa::SplitTpa::default()),
            EngineKind::Lawi => Box::new(lawi::Lawi::default()),
            EngineKind::SpacerAbs => Box::new(abs::SpacerAbs::default()),
            EngineKind::LinearBmc => Box::new(linear_bmc::LinearBmc::default()),
            EngineKind::Terms => Box::new(terms::TermHoudini::default()),
            EngineKind::Hw => Box::new(hw::Hardware::default()),
        }
    }
}
