//! The engines, one module each, all behind [`crate::engine::Engine`], and their registry
//! [`EngineConfig`].

pub mod bmc;
pub mod cells;
pub mod clause_terms;
pub mod hardware;
pub mod imc;
pub mod kind;
pub mod lawi;
pub mod linear_bmc;
pub mod pdkind;
pub mod predabs;
pub mod run_phases;
pub mod spacer;
pub mod spacer_abs;
pub mod split_tpa;
pub mod tpa;
mod tpa_core;
pub mod ts_engine;
mod ts_util;

use crate::engine::{BuildEngine, Engine};

/// Declares the registry: the enum [`EngineConfig`] with one variant per engine, each holding
/// that engine's config struct, and everything derived from the list (names, parsing,
/// creation, `From` for every config struct).
macro_rules! registry {
    ($($(#[$doc:meta])* $variant:ident($config:ty),)*) => {
        /// An engine and its options: one variant per engine, holding that engine's config
        /// struct. The CLI, the portfolio's schedule and the library ([`crate::driver`]) all
        /// describe an engine with this one value; adding an engine is one module with a
        /// config struct implementing [`BuildEngine`], and one line here.
        #[derive(Clone, Debug)]
        pub enum EngineConfig {
            $($(#[$doc])* $variant($config),)*
        }

        impl EngineConfig {
            /// Every engine name, in registry order (for `--help` and error messages).
            pub const NAMES: &'static [&'static str] =
                &[$(<$config as BuildEngine>::NAME,)*];

            /// The engine's name (as `--engine` takes it).
            pub fn name(&self) -> &'static str {
                match self {
                    $(EngineConfig::$variant(_) => <$config as BuildEngine>::NAME,)*
                }
            }

            /// The engine called `name`, with default options.
            pub fn parse(name: &str) -> Option<EngineConfig> {
                $(if name == <$config as BuildEngine>::NAME {
                    return Some(EngineConfig::$variant(<$config>::default()));
                })*
                None
            }

            /// A fresh engine with these options.
            pub fn create(&self) -> Box<dyn Engine> {
                match self {
                    $(EngineConfig::$variant(c) => c.create(),)*
                }
            }
        }

        $(impl From<$config> for EngineConfig {
            fn from(c: $config) -> EngineConfig {
                EngineConfig::$variant(c)
            }
        })*
    };
}

registry! {
    /// RecMC / Spacer (the default single engine).
    Spacer(spacer::SpacerConfig),
    /// Bounded model checking.
    Bmc(bmc::BmcConfig),
    /// k-induction on the transition-system view (linear systems).
    Kind(kind::KindConfig),
    /// Property-directed k-induction on the transition-system view (linear systems).
    PdKind(pdkind::PdKindConfig),
    /// Interpolation-based model checking (transition systems).
    Imc(imc::ImcConfig),
    /// Transition power abstraction (transition systems).
    Tpa(tpa::TpaConfig),
    /// Split transition power abstraction (transition systems).
    SplitTpa(split_tpa::SplitTpaConfig),
    /// Lazy abstraction with interpolants (Impact; transition systems).
    Lawi(lawi::LawiConfig),
    /// Spacer with abstraction refinement (thesis Ch. 3).
    SpacerAbs(spacer_abs::SpacerAbsConfig),
    /// BMC on the linear fragment of a nonlinear system (counterexamples only).
    LinearBmc(linear_bmc::LinearBmcConfig),
    /// Houdini over candidates built from the clauses' own terms.
    Terms(clause_terms::TermsConfig),
    /// Houdini over phase-partitioned candidates read off concrete runs.
    Phases(run_phases::PhasesConfig),
    /// Boolean predicate abstraction over the clauses' own atoms.
    PredAbs(predabs::PredAbsConfig),
    /// Bit-vector systems blasted onto the hardware engines' IC3 ([`hardware`]).
    Hw(hardware::HwConfig),
    /// Spacer over the cell abstraction of arrays: quantified invariants ([`cells`]).
    Cells(cells::CellsConfig),
}

impl Default for EngineConfig {
    /// Spacer with its default options.
    fn default() -> EngineConfig {
        EngineConfig::Spacer(spacer::SpacerConfig::default())
    }
}
