//! The engines, one module each, all behind [`crate::engine::Engine`].

pub mod bmc;
pub mod kind;
pub mod pdkind;
pub mod spacer;

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
}

impl EngineKind {
    /// Every engine name, for `--help` and error messages.
    pub const NAMES: &'static [&'static str] = &["spacer", "bmc", "kind", "pdkind"];

    /// Parses an engine name.
    pub fn parse(name: &str) -> Option<EngineKind> {
        match name {
            "spacer" => Some(EngineKind::Spacer),
            "bmc" => Some(EngineKind::Bmc),
            "kind" => Some(EngineKind::Kind),
            "pdkind" => Some(EngineKind::PdKind),
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
        }
    }
}
