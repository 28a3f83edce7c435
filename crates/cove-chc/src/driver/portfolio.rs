//! The parallel portfolio: several engines on threads, the first checked answer wins.
//!
//! Threads, not processes: every entry gets its own clone of the term store (term ids of the
//! input stay valid in every clone, so the winner's witness needs no translation), engines
//! share nothing mutable, and the losers are stopped through their [`Control`] — every engine
//! polls it. A panicking engine is caught (see `run::run_guarded`) and only loses its thread.
//! The memory limit is process-wide: when it is reached every engine stops with `unknown`.

use super::run::{Run, run_guarded};
use super::schedule::{Shape, for_shape};
use super::{Outcome, Phase, SolveConfig, Validation};
use crate::engine::Control;
use crate::result::{ChcResult, UnknownReason};
use crate::system::ChcSystem;
use cove_logic::TermStore;
use std::sync::mpsc;

pub(crate) fn run(store: TermStore, sys: &ChcSystem, cfg: &SolveConfig, ctl: &Control) -> Outcome {
    let specs = for_shape(Shape::of(sys, &store));
    let threads = cfg.thread_count().min(specs.len()).max(1);
    if threads == 1 {
        let mut store = store;
        let r = run_guarded(&mut store, sys, &specs[0], cfg, ctl);
        return r.into_outcome(store);
    }
    // The losers are stopped through this child; the caller's control is left alone.
    let group = ctl.child();
    let (tx, rx) = mpsc::channel::<(Run, TermStore)>();
    let mut winner: Option<(Run, TermStore)> = None;
    let mut last_unknown: Option<(Run, TermStore)> = None;
    let mut reasons: Vec<String> = vec![];
    std::thread::scope(|scope| {
        let mut next = 0;
        let mut running = 0;
        let spawn = |idx: usize, running: &mut usize| {
            let spec = specs[idx].clone();
            let mut st = store.clone();
            let tx = tx.clone();
            let mut c = group.child();
            if let (Some(share), Some(left)) = (spec.share, ctl.remaining()) {
                c = c.with_timeout(left.mul_f64(share));
            }
            if ctl.verbosity > 0 {
                eprintln!("portfolio: starting {}", spec.label);
            }
            *running += 1;
            std::thread::Builder::new()
                .name(spec.label.clone())
                .stack_size(256 << 20)
                .spawn_scoped(scope, move || {
                    let r = run_guarded(&mut st, sys, &spec, cfg, &c);
                    let _ = tx.send((r, st));
                })
                .is_ok()
        };
        while next < threads {
            if !spawn(next, &mut running) {
                running -= 1;
            }
            next += 1;
        }
        while running > 0 {
            let Ok((r, st)) = rx.recv() else { break };
            running -= 1;
            if ctl.verbosity > 0 {
                eprintln!("portfolio: {} finished: {}", r.engine, r.answer.verdict());
            }
            if winner.is_none() && r.is_answer() {
                group.stop();
                winner = Some((r, st));
                continue;
            }
            if let ChcResult::Unknown(why) = &r.answer {
                reasons.push(format!("{}: {why}", r.engine));
            }
            last_unknown = Some((r, st));
            if winner.is_none() && group.should_stop().is_none() && next < specs.len() {
                if spawn(next, &mut running) {
                    next += 1;
                } else {
                    running -= 1;
                    next += 1;
                }
            }
        }
    });
    if let Some((r, st)) = winner {
        return r.into_outcome(st);
    }
    // No answer: say why — the caller's limit if it was reached, else every engine's reason.
    let reason = match ctl.should_stop() {
        Some(why) => why,
        None => UnknownReason::Incomplete(format!("portfolio: {}", reasons.join("; "))),
    };
    let (phase, stats, validation, store) = match last_unknown {
        Some((r, st)) => (r.phase.unwrap_or(Phase::Solving), r.stats, r.validation, st),
        None => (Phase::Solving, vec![], Validation::NotApplicable, store),
    };
    let mut out = Outcome::unknown(store, reason, phase);
    out.engine = "portfolio".into();
    out.stats = stats;
    if matches!(validation, Validation::Failed(_)) {
        out.validation = validation;
    }
    out
}
