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

            /// The engine called `name`, with default options (or with the options a spec
            /// gives: [`EngineConfig::parse_spec`]).
            pub fn parse(name: &str) -> Option<EngineConfig> {
                EngineConfig::parse_spec(name).ok()
            }

            /// An engine and its options in the words of [`cove_control::engine_options`]
            /// (`spacer`, `spacer:bottom-up,no-mbp`, `kind:balance,max-k=20`): the same words
            /// the portfolio's schedule is written in and the command line's flags stand
            /// for. `Err` says what is wrong.
            pub fn parse_spec(spec: &str) -> Result<EngineConfig, String> {
                let (name, words) = cove_control::engine_options::split_spec(spec);
                $(if name == <$config as BuildEngine>::NAME {
                    let mut c = <$config>::default();
                    for w in &words {
                        c.set_option(w)?;
                    }
                    return Ok(EngineConfig::$variant(c));
                })*
                Err(format!(
                    "unknown engine '{name}' (available: {})",
                    EngineConfig::NAMES.join(", ")
                ))
            }

            /// Sets one option of the engine (see [`BuildEngine::set_option`]).
            pub fn set_option(
                &mut self,
                w: &cove_control::engine_options::OptionWord,
            ) -> Result<(), String> {
                match self {
                    $(EngineConfig::$variant(c) => c.set_option(w),)*
                }
            }

            /// The option words of the engine's registry entry, by engine name.
            pub fn options_of(name: &str) -> Option<&'static str> {
                $(if name == <$config as BuildEngine>::NAME {
                    return Some(<$config as BuildEngine>::OPTIONS);
                })*
                None
            }

            /// The engine and its options as [`EngineConfig::parse_spec`] reads them back:
            /// the name, then the options that differ from the defaults.
            pub fn spec(&self) -> String {
                let (name, words) = match self {
                    $(EngineConfig::$variant(c) => (<$config as BuildEngine>::NAME, c.option_words()),)*
                };
                if words.is_empty() {
                    name.to_string()
                } else {
                    format!("{name}:{}", words.join(","))
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_set_options_and_print_back() {
        let e = EngineConfig::parse_spec("spacer:bottom-up,no-mbp,max-level=9").unwrap();
        let EngineConfig::Spacer(c) = &e else {
            panic!("{e:?}")
        };
        assert!(c.bottom_up && !c.use_mbp && c.max_level == Some(9));
        assert_eq!(e.spec(), "spacer:bottom-up,no-mbp,max-level=9");
        assert_eq!(
            EngineConfig::parse_spec(&e.spec()).unwrap().spec(),
            e.spec()
        );
        assert_eq!(EngineConfig::parse_spec("spacer").unwrap().spec(), "spacer");
        let abs = EngineConfig::parse_spec("spacer-abs:variant=cegar").unwrap();
        assert_eq!(abs.spec(), "spacer-abs:variant=cegar");
        let kind = EngineConfig::parse_spec("kind:balance,max-k=3").unwrap();
        assert_eq!(kind.spec(), "kind:balance,max-k=3");
        // Errors name the engine and its options.
        let err = EngineConfig::parse_spec("bmc:may-only").unwrap_err();
        assert!(err.contains("'bmc' has no option 'may-only'"), "{err}");
        let err = EngineConfig::parse_spec("spacer:frobnicate").unwrap_err();
        assert!(err.contains("may-only, bottom-up"), "{err}");
        assert!(EngineConfig::parse_spec("spacer:max-level=x").is_err());
        assert!(EngineConfig::parse_spec("spacer-abs:variant=magic").is_err());
        assert!(EngineConfig::parse_spec("magic").is_err());
        // Every engine parses under its name and prints back to it.
        for n in EngineConfig::NAMES {
            assert_eq!(EngineConfig::parse_spec(n).unwrap().spec(), *n);
            assert!(EngineConfig::options_of(n).is_some());
        }
    }
}
