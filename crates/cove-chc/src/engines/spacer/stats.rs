//! Bookkeeping of a run: SMT checks counted and timed by purpose, statistics counters and the
//! query/lemma/fact trace (`--stats`, `-vv`, [`super::SpacerConfig::trace`]).

use super::{PIdx, Run, TraceEvent};
use crate::result::UnknownReason;
use cove_logic::{TermId, TermStore, VarId};
use cove_smt::SmtResult;
use rustc_hash::FxHashMap;

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
}
