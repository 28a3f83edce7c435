//! Bookkeeping of a run: SMT checks counted and timed by purpose, statistics counters and the
//! query/lemma/fact trace (`--stats`, `-vv`, [`super::SpacerConfig::trace`]).

use super::{PIdx, Run, TraceEvent};
use crate::result::UnknownReason;
use cove_logic::{TermId, TermStore, VarId};
use cove_smt::SmtResult;
use rustc_hash::FxHashMap;

/// Conflicts (and branch-and-bound splits) an optional check may spend: one that only
/// improves what is learned, with a safe answer when it is not settled (see
/// [`Run::check_budgeted`]). The budget the bit-vector propagation checks had measured
/// (reve `001d-horn`); on `s_split_30`, 2,000 let Spacer check 2,091 times in 40 s
/// instead of 564 at 10,000, whose unsettled checks took 2.5 to 14 s each.
pub(super) const OPTIONAL_CONFLICTS: u64 = 2_000;

/// What an SMT check is for (statistics: count and time per purpose).
#[derive(Clone, Copy)]
pub(super) enum Why {
    Must,
    May,
    Query,
    Farkas,
    Drop,
    Push,
    Propagate,
}

impl Why {
    pub(super) fn keys(self) -> (&'static str, &'static str) {
        match self {
            Why::Must => ("checks-must", "us-must"),
            Why::May => ("checks-may", "us-may"),
            Why::Query => ("checks-query", "us-query"),
            Why::Farkas => ("checks-farkas", "us-farkas"),
            Why::Drop => ("checks-drop", "us-drop"),
            Why::Push => ("checks-push", "us-push"),
            Why::Propagate => ("checks-propagate", "us-propagate"),
        }
    }
}

impl Run<'_> {
    pub(super) fn tracing(&self) -> bool {
        self.cfg.trace || self.ctl.verbosity > 1
    }

    pub(super) fn record(&mut self, ev: TraceEvent) {
        if self.ctl.verbosity > 1 {
            eprintln!("{ev:?}");
        }
        if self.cfg.trace {
            self.trace.push(ev);
        }
    }

    pub(super) fn pred_name(&self, store: &TermStore, p: PIdx) -> String {
        self.preds[p]
            .func
            .map_or_else(|| "false".to_string(), |f| store.func(f).name.to_string())
    }

    /// Prints a formula over `p`'s parameters with the parameters named `a0`, `a1`, ...
    pub(super) fn render(&self, store: &TermStore, p: PIdx, t: TermId) -> String {
        let names: FxHashMap<VarId, String> = self.preds[p]
            .params
            .iter()
            .enumerate()
            .map(|(i, v)| (*v, format!("a{i}")))
            .collect();
        let mut out = String::new();
        cove_logic::print::write_term_renamed(&mut out, store, t, &names);
        out
    }

    pub(super) fn bump(&mut self, key: &'static str) {
        *self.stats.entry(key).or_default() += 1;
    }

    pub(super) fn check(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        assumptions: &[TermId],
        why: Why,
    ) -> Result<bool, UnknownReason> {
        self.bump("smt-checks");
        let start = std::time::Instant::now();
        let r = self.preds[p].solver.check_assuming(store, assumptions);
        let (count, micros) = why.keys();
        self.bump(count);
        *self.stats.entry(micros).or_default() += start.elapsed().as_micros() as u64;
        match r {
            SmtResult::Sat => Ok(true),
            SmtResult::Unsat => Ok(false),
            SmtResult::Unknown(r) => Err(self
                .ctl
                .should_stop()
                .unwrap_or(UnknownReason::Incomplete(format!("SMT: {r:?}")))),
        }
    }

    /// [`Run::check`] for a query whose answer only improves what is learned (dropping a
    /// literal, an interpolant, pushing a lemma): at most [`OPTIONAL_CONFLICTS`] conflicts
    /// (and as many branch-and-bound splits), and `Ok(None)` when they run out, counted
    /// under `over`. Such a query has a safe default (keep the literal, leave
    /// the lemma where it is), and one that branch and bound cannot settle would otherwise
    /// hold Spacer in one check for the rest of the run, its search atoms and lemmas
    /// growing all the while (measured on `s_split_30`: a literal-dropping check still
    /// open after 40 s with 68,000 branches, which z3 decides in 0.1 s).
    pub(super) fn check_budgeted(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        assumptions: &[TermId],
        why: Why,
        over: &'static str,
    ) -> Result<Option<bool>, UnknownReason> {
        self.preds[p].solver.set_limits(cove_smt::Limits {
            conflicts: Some(OPTIONAL_CONFLICTS),
            control: self.ctl.clone(),
        });
        let r = self.check(store, p, assumptions, why);
        self.preds[p]
            .solver
            .set_limits(cove_smt::Limits::of(self.ctl));
        match r {
            Ok(sat) => Ok(Some(sat)),
            Err(e) if self.ctl.should_stop().is_some() => Err(e),
            Err(_) => {
                self.bump(over);
                Ok(None)
            }
        }
    }
}
