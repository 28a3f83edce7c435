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
use super::schedule::{EngineSpec, Rounds, Shape, for_shape};
use super::strengthen::run_strengthened;
use super::{Outcome, Phase, SolveConfig, Validation};
use crate::engine::Control;
use crate::engines::spacer::SpacerConfig;
use crate::preprocess::bounds::{self, Bounds};
use crate::preprocess::{BackTranslate, Pipeline, preprocess};
use crate::result::{ChcResult, UnknownReason};
use crate::share::LemmaPool;
use crate::system::ChcSystem;
use cove_control::clock::thread_cpu_time;
use cove_logic::TermStore;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{OnceLock, mpsc};
use std::time::{Duration, Instant};

pub(crate) fn run(
    mut store: TermStore,
    sys: &ChcSystem,
    cfg: &SolveConfig,
    ctl: &Control,
) -> Outcome {
    // With one thread the first entry has it to itself; should it give up before the limit
    // (the hardware route declines arrays at once), the others follow in turn, as on a
    // thread of the race.
    let mut skip = 0;
    if cfg.thread_count() == 1 {
        let specs = for_shape(Shape::of(sys, &store));
        let r = run_guarded(&mut store, sys, &specs[0], cfg, ctl);
        if !matches!(r.answer, ChcResult::Unknown(_))
            || specs.len() == 1
            || ctl.should_stop().is_some()
        {
            return r.into_outcome(store);
        }
        if ctl.verbosity > 0 {
            eprintln!(
                "portfolio: {} gave up, the next entries follow",
                specs[0].label
            );
        }
        skip = 1;
    }
    if !cfg.preprocess {
        let specs = for_shape(Shape::of(sys, &store));
        return race(
            store,
            sys,
            false,
            None,
            &specs[skip.min(specs.len() - 1)..],
            cfg,
            ctl,
        )
        .outcome;
    }
    let (small, pipe) = preprocess(&mut store, sys, &preprocess_config(ctl, false), ctl);
    if let Some(why) = ctl.should_stop() {
        return Outcome::unknown(store, why, Phase::Preprocessing);
    }
    // The schedule follows the preprocessed shape (inlining can make a system linear).
    let specs = for_shape(Shape::of(&small, &store));
    let specs = &specs[skip.min(specs.len() - 1)..];
    let inner = SolveConfig {
        preprocess: false,
        ..cfg.clone()
    };
    let input = Input { sys, pipe: &pipe };
    race(store, &small, true, Some(&input), specs, &inner, ctl).outcome
}

/// The input system and the preprocessing that made the system the engines race on: each
/// engine's witness is translated back and checked against the input on the engine's own
/// thread, so only an answer whose certificate holds for the input wins the race, and it
/// is checked once.
pub(crate) struct Input<'a> {
    sys: &'a ChcSystem,
    pipe: &'a Pipeline,
}

/// What [`race`] ends with.
pub(crate) struct RaceEnd {
    pub outcome: Outcome,
}

/// `sys` strengthened with its inductive bounds, the back-translator, and the store that
/// holds both (an extension of the race's store: every id of it means the same there).
pub(crate) struct Strong {
    sys: ChcSystem,
    back: Bounds,
    store: TermStore,
}

/// The inductive bounds of the race's system, found by the first entry that takes them, on
/// its own thread: the entries that do not take them (Spacer on thread 1) start at once
/// instead of waiting for the pass (up to a second and more on the wide LRA systems of
/// the `azadmanesh-kieckhafer` family), and an entry that starts later finds them ready.
/// The bounds' terms go to a store of their own, so the entries without bounds start from
/// exactly the store they would have without this step (Spacer's choices follow term ids).
struct LazyStrong<'a> {
    store: &'a TermStore,
    sys: &'a ChcSystem,
    /// The race's control: the pass is not cut short by the first taker's slice.
    ctl: &'a Control,
    cell: OnceLock<Option<Strong>>,
}

impl LazyStrong<'_> {
    fn get(&self) -> Option<&Strong> {
        self.cell
            .get_or_init(|| {
                let mut bstore = self.store.clone();
                let (s, b) = bounds::run(&mut bstore, self.sys, self.ctl);
                (b.size() > 0).then_some(Strong {
                    sys: s,
                    back: b,
                    store: bstore,
                })
            })
            .as_ref()
    }
}

/// `spec` with the resume words of its last turn (`Engine::resume`) among its options, so
/// that its next turn continues instead of starting over; `spec` itself when there are none
/// or the engine refuses them.
fn resumed(spec: &EngineSpec, words: Option<&str>, verbose: bool) -> EngineSpec {
    let Some(words) = words else {
        return spec.clone();
    };
    let mut out = spec.clone();
    let spec_text = format!(":{words}");
    let (_, parsed) = cove_control::engine_options::split_spec(&spec_text);
    for w in &parsed {
        if out.engine.set_option(w).is_err() {
            return spec.clone();
        }
    }
    if verbose {
        eprintln!("portfolio: {} resumes ({words})", spec.label);
    }
    out
}

/// Runs `specs` on `sys` on up to `cfg.thread_count()` threads; the first answer whose
/// certificate checks wins. With `bounds`, the entries that take bounds solve `sys`
/// strengthened with its inductive bounds ([`LazyStrong`]). Each entry's witness is translated back on its own
/// thread — to `sys`, and on to `input` when it is given — and checked there (with
/// `cfg.validate`) against the system it is then stated over, with the time left of the
/// whole race rather than of the entry's slice: an answer found is worth checking
/// (docs/decisions.md#validation-once). The first entry whose witness does not translate
/// back solves `input` itself on its thread (Spacer, no preprocessing).
pub(crate) fn race(
    store: TermStore,
    sys: &ChcSystem,
    bounds: bool,
    input: Option<&Input>,
    specs: &[EngineSpec],
    cfg: &SolveConfig,
    ctl: &Control,
) -> RaceEnd {
    let threads = cfg.thread_count().min(specs.len()).max(1);
    // The losers are stopped through this child; the caller's control is left alone.
    let group = ctl.child();
    let (tx, rx) = mpsc::channel::<(usize, Run, TermStore, Option<Duration>)>();
    // The time-sliced entries take turns in rounds (schedule::Rounds), timed from here.
    let start = Instant::now();
    let mut rounds = Rounds::new(ctl.remaining());
    let validate_answers = cfg.validate;
    let mut winner: Option<(Run, TermStore)> = None;
    let mut last_unknown: Option<(Run, TermStore)> = None;
    let mut reasons: Vec<String> = vec![];
    // Taken by the first entry whose witness does not translate back (below).
    let fallback = AtomicBool::new(false);
    let pool = LemmaPool::default();
    let lazy = LazyStrong {
        store: &store,
        sys,
        ctl: &group,
        cell: OnceLock::new(),
    };
    // The engines themselves do not check: the check follows the back-translation below.
    let verbose = ctl.verbosity > 0;
    let engine_cfg = &SolveConfig {
        validate: false,
        ..cfg.clone()
    };
    std::thread::scope(|scope| {
        let mut next = 0;
        let mut running = 0;
        // Starts entry `idx` for at most `slice`; `late` when it takes a thread another
        // entry left.
        let spawn = |spec: EngineSpec,
                     idx: usize,
                     slice: Option<Duration>,
                     late: bool,
                     running: &mut usize| {
            let lazy = (bounds && spec.bounds).then_some(&lazy);
            let store = &store;
            let fallback = &fallback;
            let tx = tx.clone();
            let mut c = group.child();
            // The back-translation and the check get the race's time, not the slice's.
            let whole = group.child();
            if let Some(slice) = slice {
                c = c.with_timeout(slice);
            }
            if ctl.verbosity > 0 {
                match slice {
                    Some(d) => eprintln!(
                        "portfolio: starting {} for {:.1} s",
                        spec.label,
                        d.as_secs_f64()
                    ),
                    None => eprintln!("portfolio: starting {}", spec.label),
                }
            }
            *running += 1;
            // The first wave offers what it learns; an entry that starts later (on a thread
            // another entry gave up) starts from the inductive part of those offers.
            let pool = pool.for_sender(&spec.label);
            std::thread::Builder::new()
                .name(spec.label.clone())
                .stack_size(256 << 20)
                .spawn_scoped(scope, move || {
                    let t0 = thread_cpu_time();
                    let strong = lazy.and_then(|l| l.get());
                    let mut st = strong.map_or(store, |s| &s.store).clone();
                    let target = strong.map_or(sys, |s| &s.sys);
                    let cfg = engine_cfg;
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
                    let cpu = thread_cpu_time()
                        .zip(t0)
                        .map(|(t1, t0)| t1.saturating_sub(t0));
                    let c = whole;
                    if let Some(s) = strong {
                        let answer = std::mem::replace(
                            &mut r.answer,
                            ChcResult::Unknown(UnknownReason::Timeout),
                        );
                        r.answer = s.back.result(&mut st, answer, &c);
                    }
                    let mut lost = false;
                    if let Some(inp) = input {
                        let answer = std::mem::replace(
                            &mut r.answer,
                            ChcResult::Unknown(UnknownReason::Timeout),
                        );
                        let back = match answer {
                            ChcResult::Sat(inv) => {
                                inp.pipe.invariants(&mut st, inv, &c).map(ChcResult::Sat)
                            }
                            ChcResult::Unsat(d) => {
                                inp.pipe.derivation(&mut st, d, &c).map(ChcResult::Unsat)
                            }
                            u => Ok(u),
                        };
                        r.answer = back.unwrap_or_else(|e| {
                            lost = c.should_stop().is_none();
                            r.phase = Some(Phase::BackTranslation);
                            ChcResult::Unknown(c.should_stop().unwrap_or(
                                UnknownReason::Incomplete(format!("preprocessing: {e}")),
                            ))
                        });
                        // An answer was found but its witness did not translate back (the
                        // quantifier elimination of an inlined predicate's invariant can
                        // exceed its budget): the system is likely easy, so this thread
                        // solves the input itself at once, with the race's time, rather
                        // than leave the race to entries that may never end (BMC on a
                        // safe system). One entry does this; a second would repeat it.
                        if lost && !fallback.swap(true, Ordering::SeqCst) {
                            if verbose {
                                eprintln!(
                                    "portfolio: {}'s witness did not translate back ({}): Spacer on the input system",
                                    spec.label,
                                    match &r.answer {
                                        ChcResult::Unknown(why) => why.to_string(),
                                        a => a.verdict().to_string(),
                                    }
                                );
                            }
                            let plain = SolveConfig {
                                preprocess: false,
                                ..cfg.clone()
                            };
                            let input_spec = EngineSpec::single(SpacerConfig::default());
                            r = run_guarded(&mut st, inp.sys, &input_spec, &plain, &c);
                            r.engine = format!("spacer on the input (after {})", spec.label);
                        }
                    }
                    if validate_answers && r.is_answer() {
                        let checked = input.map_or(sys, |i| i.sys);
                        let answer = std::mem::replace(
                            &mut r.answer,
                            ChcResult::Unknown(UnknownReason::Timeout),
                        );
                        let (answer, validation, phase) = validate(&mut st, checked, answer, &c);
                        r.answer = answer;
                        r.validation = validation;
                        r.phase = phase;
                    }
                    let _ = tx.send((idx, r, st, cpu));
                })
                .is_ok()
        };
        // An entry of the first wave without a share holds its thread for the whole run.
        let holds = |idx: usize| idx < threads && specs[idx].share.is_none();
        while next < threads {
            let slice = rounds.slice(start.elapsed(), specs[next].share, holds(next));
            if !spawn(specs[next].clone(), next, slice, false, &mut running) {
                running -= 1;
            }
            next += 1;
        }
        // The entries waiting for a thread in this round, and those to run again in the next.
        let mut queue: VecDeque<usize> = (next..specs.len()).collect();
        let mut again: Vec<usize> = Vec::new();
        // Per entry: where its next turn starts (`Engine::resume`), from its last turn.
        let mut resumes: Vec<Option<String>> = vec![None; specs.len()];
        while running > 0 {
            let Ok((idx, r, st, cpu)) = rx.recv() else {
                break;
            };
            running -= 1;
            // The entry's memory is freed by now; give it back to the system.
            cove_control::memory::release_free();
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
            // Stopped by its slice (not given up): it runs again in the next round.
            if !holds(idx) && matches!(r.answer, ChcResult::Unknown(UnknownReason::Timeout)) {
                again.push(idx);
                resumes[idx] = r.resume.clone();
            }
            last_unknown = Some((r, st));
            if winner.is_some() || group.should_stop().is_some() {
                continue;
            }
            if queue.is_empty() && !again.is_empty() && rounds.advance(start.elapsed()) {
                again.sort_unstable();
                queue.extend(again.drain(..));
                if ctl.verbosity > 0 {
                    eprintln!(
                        "portfolio: next round, until {:.1} s",
                        rounds.end().as_secs_f64()
                    );
                }
            }
            if let Some(i) = queue.pop_front() {
                let slice = rounds.slice(start.elapsed(), specs[i].share, false);
                let spec = resumed(&specs[i], resumes[i].as_deref(), verbose);
                if !spawn(spec, i, slice, true, &mut running) {
                    running -= 1;
                }
            }
        }
    });
    if let Some((r, st)) = winner {
        return RaceEnd {
            outcome: r.into_outcome(st),
        };
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
    RaceEnd { outcome: out }
}
