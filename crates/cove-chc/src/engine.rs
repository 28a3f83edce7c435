//! The engine interface.
//!
//! Every engine is one module behind the small [`Engine`] trait. An engine that cannot handle
//! an input answers `Unknown(Unsupported(..))`; it never panics to say so.

use crate::result::ChcResult;
use crate::share::LemmaPool;
use crate::system::ChcSystem;
use cove_logic::TermStore;

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

    /// Offer what this engine learns to the other engines of a portfolio through `pool`
    /// (see [`crate::share`]). Engines that learn nothing worth sharing ignore it.
    fn share(&mut self, _pool: &LemmaPool) {}

    /// Statistics of the last run.
    fn stats(&self) -> Stats {
        Vec::new()
    }
}
