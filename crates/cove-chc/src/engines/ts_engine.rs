//! The plumbing every transition-system engine shares (k-induction, PD-KIND, IMC, LAWI, TPA,
//! split-TPA): an engine implements [`TsEngine`] — a search on a [`TransitionSystem`] — and
//! gets its [`Engine`] implementation from here: the view of the clause system (or
//! `unknown` at once when there is none, e.g. for nonlinear clauses), the search, the
//! optional self-check of a safe invariant, and the translation of the answer back to the
//! clause system through the independent checker ([`TransitionSystem::answer`]).

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

    /// True when a safe invariant is first re-checked on the transition system, so that an
    /// engine bug gives `unknown` with a clear reason. The independent check on the clauses
    /// ([`TransitionSystem::answer`]) follows in any case, so an engine may skip this one
    /// (k-induction and PD-KIND, whose invariants come from
    /// [`TransitionSystem::k_to_1_inductive`], do).
    fn self_check(&self) -> bool {
        true
    }

    /// Statistics of the last run.
    fn stats(&self) -> Stats {
        Vec::new()
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
        if self.self_check() {
            finish(store, sys, &ts, ans, ctl)
        } else {
            ts.answer(store, sys, ans, ctl)
        }
    }

    fn stats(&self) -> Stats {
        TsEngine::stats(self)
    }
}

/// The engine's answer for `sys`: a safe invariant is first re-checked on the transition
/// system (an engine bug then gives `unknown`, not a wrong answer), then translated back and
/// validated by the independent checker ([`TransitionSystem::answer`]).
fn finish(
    store: &mut TermStore,
    sys: &ChcSystem,
    ts: &TransitionSystem,
    ans: TsAnswer,
    ctl: &Control,
) -> ChcResult {
    if let TsAnswer::Safe(inv) = ans {
        match ts.is_safe_inductive(store, inv, ctl) {
            Ok(true) => {}
            Ok(false) => {
                return ChcResult::Unknown(UnknownReason::Incomplete(
                    "the invariant failed the self-check".into(),
                ));
            }
            Err(e) => return ChcResult::Unknown(e.reason()),
        }
    }
    ts.answer(store, sys, ans, ctl)
}
