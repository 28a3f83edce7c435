//! The plumbing every transition-system engine shares (k-induction, PD-KIND, IMC, LAWI, TPA,
//! split-TPA): an engine implements [`TsEngine`] — a search on a [`TransitionSystem`] — and
//! gets its [`Engine`] implementation from here: the view of the clause system (or
//! `unknown` at once when there is none, e.g. for nonlinear clauses), the search, and the
//! translation of the answer back to the clause system ([`TransitionSystem::answer`]). The
//! answer is not checked here: the driver checks every answer once, against the input
//! system, after the back-translation of preprocessing (`driver::run::validate`).

use crate::engine::{Control, Engine, Stats};
use crate::result::{ChcResult, UnknownReason};
use crate::system::ChcSystem;
use crate::ts::{TransitionSystem, TsAnswer};
use cove_logic::TermStore;

/// An engine that decides a transition system; [`Engine`] comes with it.
pub trait TsEngine {
    /// Short name as used by `--engine`.
    fn name(&self) -> &'static str;

    /// Decides `ts` (built from the clause system being solved). A `Safe` invariant must be
    /// 1-inductive; `Err` is the reason of an `unknown` answer.
    fn run(
        &mut self,
        store: &mut TermStore,
        ts: &TransitionSystem,
        ctl: &Control,
    ) -> Result<TsAnswer, UnknownReason>;

    /// Statistics of the last run.
    fn stats(&self) -> Stats {
        Vec::new()
    }

    /// See [`Engine::resume`].
    fn resume(&self) -> Option<String> {
        None
    }
}

impl<T: TsEngine> Engine for T {
    fn name(&self) -> &'static str {
        TsEngine::name(self)
    }

    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult {
        let ts = match TransitionSystem::from_chc(store, sys, ctl) {
            Ok(ts) => ts,
            Err(e) => return ChcResult::Unknown(e.reason()),
        };
        let ans = self.run(store, &ts, ctl).unwrap_or_else(TsAnswer::Unknown);
        ts.answer(store, sys, ans, ctl)
    }

    fn stats(&self) -> Stats {
        TsEngine::stats(self)
    }

    fn resume(&self) -> Option<String> {
        TsEngine::resume(self)
    }
}
