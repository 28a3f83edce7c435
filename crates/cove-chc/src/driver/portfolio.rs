//! The parallel portfolio: several engines on threads, the first checked answer wins.
//!
//! Threads, not processes: every entry gets its own clone of the term store (term ids of the
//! input stay valid in every clone, so the winner's witness needs no translation), engines
//! share nothing mutable, and the losers are stopped through their [`Control`] — every engine
//! polls it. A panicking engine is caught (see `run::run_guarded`) and only loses its thread.
//! The memory limit is process-wide: when it is reached every engine stops with `unknown`.
//!
//! Preprocessing runs once, before the race: every engine solves the same smaller system,
//! and only the winner's witness is translated back and checked against the input (measured
//! on a 60,000-clause chain: preprocessing per thread cost 13.2 s and 750 MB, once 8.8 s).
//! The inductive bounds ([`crate::preprocess::bounds`]) are found once too; the entries that
//! take them ([`EngineSpec::bounds`]) solve the strengthened system, and their witnesses are
//! translated back to the preprocessed one on their own thread.

use super::run::{Run, preprocess_config, run_guarded, run_guarded_sharing, validate};
use super::schedule::{EngineSpec, Shape, for_shape};
use super::strengthen::run_strengthened;
use super::{Outcome, Phase, SolveConfig, Validation};
use crate::engine::Control;
use crate::engines::spacer::SpacerConfig;
use crate::preprocess::bounds::{self, Bounds};
use crate::preprocess::{BackTranslate, preprocess};
use crate::result::{ChcResult, UnknownReason};
use crate::share::LemmaPool;
use crate::system::ChcSystem;
use cove_control::clock::thread_cpu_time;
use cove_logic::TermStore;
use std::sync::mpsc;
use std::time::Duration;

pub(crate) fn run(
    mut store: TermStore,
    sys: &ChcSystem,
    cfg: &SolveConfig,
    ctl: &Control,
) -> Outcome {
    if cfg.thread_count() == 1 {
        let specs = for_shape(Shape::of(sys, &store));
        let r = run_guarded(&mut store, sys, &specs[0], cfg, ctl);
        return r.into_outcome(store);
    }
    if !cfg.preprocess {
        let specs = for_shape(Shape::of(sys, &store));
        return race(store, sys, None, &specs, cfg, ctl);
    }
    let (small, pipe) = preprocess(&mut store, sys, &preprocess_config(ctl, false), ctl);
    if let Some(why) = ctl.should_stop() {
        return Outcome::unknown(store, why, Phase::Preprocessing);
    }
    // The schedule follows the preprocessed shape (inlining can make a system linear).
    let specs = for_shape(Shape::of(&small, &store));
    // The bounds' terms go to a store of their own, so the entries without bounds start from
    // exactly the store they would have without this step (Spacer's choices follow term ids).
    let strong = if specs.iter().any(|s| s.bounds) {
        let mut bstore = store.clone();
        let (s, b) = bounds::run(&mut bstore, &small, ctl);
        (b.size() > 0).then_some(Strong {
            sys: s,
            back: b,
            store: bstore,
        })
    } else {
        None
    };
    let inner = SolveConfig {
        preprocess: false,
        ..cfg.clone()
    };
    let mut out = race(store, &small, strong.as_ref(), &specs, &inner, ctl);
    let back = match std::mem::replace(&mut out.answer, ChcResult::Unknown(UnknownReason::Timeout))
    {
        ChcResult::Sat(inv) => pipe
            .invariants(&mut out.store, inv, ctl)
            .map(ChcResult::Sat),
        ChcResult::Unsat(d) => pipe
            .derivation(&mut out.store, d, ctl)
            .map(ChcResult::Unsat),
        u => {
            out.answer = u;
            return out;
        }
    };
    match back {
        Ok(r) if cfg.validate => {
            let (answer, validation, phase) = validate(&mut out.store, sys, r, ctl);
            out.answer = answer;
            out.validation = validation;
            out.phase = phase;
            out
        }
        Ok(r) => {
            out.answer = r;
            out
        }
        // The quantifier elimination of an inlined predicate's invariant can exceed its
        // budget: then the input system itself is solved with the time that is left.
        Err(e) if ctl.should_stop().is_none() => {
            if ctl.verbosity > 0 {
                eprintln!(
                    "portfolio: the witness does not translate back ({e}): Spacer on the input system"
                );
            }
            let mut st = out.store;
            let spec = EngineSpec::single(SpacerConfig::default());
            let plain = SolveConfig {
                preprocess: false,
                ..cfg.clone()
            };
            run_guarded(&mut st, sys, &spec, &plain, ctl).into_outcome(st)
        }
        Err(e) => {
            let why = ctl
                .should_stop()
                .unwrap_or(UnknownReason::Incomplete(format!("preprocessing: {e}")));
            Outcome::unknown(out.store, why, Phase::BackTranslation)
        }
    }
}

/// `sys` strengthened with its inductive bounds, the back-translator, and the store that
/// holds both (an extension of the race's store: every id of it means the same there).
pub(crate) struct Strong {
    sys: ChcSystem,
    back: Bounds,
    store: TermStore,
}

/// Runs `specs` on `sys` on up to `cfg.thread_count()` threads; the first answer wins. The
/// entries that take bounds solve `strong` (`sys` strengthened) when it is given; every
/// witness in the outcome is stated over `sys`.
pub(crate) fn race(
    store: TermStore,
    sys: &ChcSystem,
    strong: Option<&Strong>,
    specs: &[EngineSpec],
    cfg: &SolveConfig,
    ctl: &Control,
) -> Outcome {
    let threads = cfg.thread_count().min(specs.len()).max(1);
    // The losers are stopped through this child; the caller's control is left alone.
    let group = ctl.child();
    let (tx, rx) = mpsc::channel::<(Run, TermStore, Option<Duration>)>();
    let mut winner: Option<(Run, TermStore)> = None;
    let mut last_unknown: Option<(Run, TermStore)> = None;
    let mut reasons: Vec<String> = vec![];
    let pool = LemmaPool::default();
    std::thread::scope(|scope| {
        let mut next = 0;
        let mut running = 0;
        let spawn = |idx: usize, running: &mut usize| {
            let spec = specs[idx].clone();
            let strong = strong.filter(|_| spec.bounds);
            let mut st = strong.map_or(&store, |s| &s.store).clone();
            let tx = tx.clone();
            let mut c = group.child();
            if let (Some(share), Some(left)) = (spec.share, ctl.remaining()) {
                c = c.with_timeout(left.mul_f64(share));
            }
            if ctl.verbosity > 0 {
                eprintln!("portfolio: starting {}", spec.label);
            }
            *running += 1;
            // The first wave offers what it learns; an entry that starts later (on a thread
            // another entry gave up) starts from the inductive part of those offers.
            let pool = pool.for_sender(&spec.label);
            let late = idx >= threads;
            std::thread::Builder::new()
                .name(spec.label.clone())
                .stack_size(256 << 20)
                .spawn_scoped(scope, move || {
                    let t0 = thread_cpu_time();
                    let target = strong.map_or(sys, |s| &s.sys);
                    let mut r = match (cfg.share, late) {
                        (false, _) => run_guarded(&mut st, target, &spec, cfg, &c),
                        (true, false) => {
                            run_guarded_sharing(&mut st, target, &spec, cfg, &c, Some(&pool))
                        }
                        (true, true) if spec.create().takes_offers() => {
                            run_guarded_sharing(&mut st, target, &spec, cfg, &c, Some(&pool))
                        }
                        (true, true) => {
                            run_strengthened(&mut st, target, &pool.candidates(), &spec, cfg, &c)
                        }
                    };
                    if let Some(s) = strong {
                        let answer = std::mem::replace(
                            &mut r.answer,
                            ChcResult::Unknown(UnknownReason::Timeout),
                        );
                        r.answer = s.back.result(&mut st, answer, &c);
                    }
                    let cpu = thread_cpu_time()
                        .zip(t0)
                        .map(|(t1, t0)| t1.saturating_sub(t0));
                    let _ = tx.send((r, st, cpu));
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
            let Ok((r, st, cpu)) = rx.recv() else { break };
            running -= 1;
            if ctl.verbosity > 0 {
                let cpu = cpu.map_or(String::new(), |d| {
                    format!(" ({:.2} s cpu)", d.as_secs_f64())
                });
                eprintln!(
                    "portfolio: {} finished: {}{cpu}",
                    r.engine,
                    r.answer.verdict()
                );
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
