//! The engine interface.
//!
//! Every engine is one module behind the small [`Engine`] trait. An engine that cannot handle
//! an input answers `Unknown(Unsupported(..))`; it never panics to say so.

use crate::result::{ChcResult, UnknownReason};
use crate::system::ChcSystem;
use cove_logic::TermStore;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Resource limits and the stop flag shared by an engine and its caller.
#[derive(Clone, Debug, Default)]
pub struct Control {
    /// Wall-clock deadline.
    pub deadline: Option<Instant>,
    /// Set from outside to stop the engine.
    pub interrupt: Arc<AtomicBool>,
    /// 0 = quiet; higher values print progress to stderr.
    pub verbosity: u32,
}

impl Control {
    /// Why the engine must stop now, if it must.
    pub fn should_stop(&self) -> Option<UnknownReason> {
        if self.interrupt.load(Ordering::Relaxed) {
            return Some(UnknownReason::Interrupted);
        }
        match self.deadline {
            Some(d) if Instant::now() >= d => Some(UnknownReason::Timeout),
            _ => None,
        }
    }

    /// Limits for the SMT solver calls made under this control.
    pub fn smt_limits(&self) -> cove_sat::Limits {
        cove_sat::Limits {
            conflicts: None,
            deadline: self.deadline,
            interrupt: Some(self.interrupt.clone()),
        }
    }
}

/// Statistics an engine reports (name, value), printed by `--stats`.
pub type Stats = Vec<(String, String)>;

/// A CHC solving engine.
pub trait Engine {
    /// Short name as used by `--engine`.
    fn name(&self) -> &'static str;

    /// Decides `sys`. Terms created along the way go into `store`.
    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult;

    /// Statistics of the last run.
    fn stats(&self) -> Stats {
        Vec::new()
    }
}
