//! The engines, one module each, all behind [`crate::engine::Engine`].

pub mod abs;
pub mod bmc;
pub mod spacer;

use crate::engine::Engine;

/// The engines `--engine` can name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// RecMC / Spacer (default).
    Spacer,
    /// Bounded model checking.
    Bmc,
    /// Spacer with abstraction refinement (thesis Ch. 3).
    SpacerAbs,
}

impl EngineKind {
    /// Every engine name, for `--help` and error messages.
    pub const NAMES: &'static [&'static str] = &["spacer", "bmc", "spacer-abs"];

    /// Parses an engine name.
    pub fn parse(name: &str) -> Option<EngineKind> {
        match name {
            "spacer" => Some(EngineKind::Spacer),
            "bmc" => Some(EngineKind::Bmc),
            "spacer-abs" => Some(EngineKind::SpacerAbs),
            _ => None,
        }
    }

    /// A fresh engine of this kind with default options.
    pub fn create(self) -> Box<dyn Engine> {
        match self {
            EngineKind::Spacer => Box::new(spacer::Spacer::default()),
            EngineKind::Bmc => Box::new(bmc::Bmc::default()),
            EngineKind::SpacerAbs => Box::new(abs::SpacerAbs::default()),
        }
    }
}
