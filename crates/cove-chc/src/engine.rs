//! The engine interface.
//!
//! Every engine is one module behind the small [`Engine`] trait, with a config struct that
//! implements [`BuildEngine`] (its name and how to make the engine) and is one variant of the
//! registry [`crate::engines::EngineConfig`]. An engine that cannot handle an input answers
//! `Unknown(Unsupported(..))`; it never panics to say so.

use crate::result::ChcResult;
use crate::share::LemmaPool;
use crate::system::ChcSystem;
use cove_logic::TermStore;
use std::fmt::Debug;

/// The limits and stop flag every phase polls (shared by all Cove crates).
pub use cove_control::Control;

/// Statistics an engine reports (name, value), printed by `--stats`.
pub type Stats = Vec<(String, String)>;

/// A CHC solving engine.
pub trait Engine {
    /// Short name as used by `--engine`.
    fn name(&self) -> &'static str;

    /// Decides `sys`. Terms created along the way go into `store`.
    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult;

    /// Connects the engine to a portfolio's lemma pool (see [`crate::share`]): it may offer
    /// what it learns there, and, if [`Engine::takes_offers`], take the other engines'
    /// offers. Engines that do neither ignore it.
    fn share(&mut self, _pool: &LemmaPool) {}

    /// True if the engine takes the pool's offers itself (as candidates it filters); the
    /// portfolio then does not strengthen the system it gives the engine.
    fn takes_offers(&self) -> bool {
        false
    }

    /// Statistics of the last run.
    fn stats(&self) -> Stats {
        Vec::new()
    }
}

/// An engine's options, and how to make the engine from them. Each engine's config struct
/// implements it in the engine's own file; the struct is then one variant of
/// [`crate::engines::EngineConfig`], which is all the CLI, the portfolio's schedule and the
/// library need to know of the engine.
pub trait BuildEngine: Clone + Debug + Default {
    /// The name `--engine` (and [`crate::engines::EngineConfig::parse`]) takes.
    const NAME: &'static str;

    /// A fresh engine with these options.
    fn create(&self) -> Box<dyn Engine>;
}
