//! The worker pool: runs every (instance, solver) task on `--jobs` threads.
//!
//! Tasks are interleaved (Cove then reference for each instance) and handed out through an
//! atomic counter, so both solvers progress together and a partial run is balanced. Each
//! result lands in its instance's slot; the output order is always the manifest order,
//! whatever the scheduling. Wrong answers are reported as soon as they happen.

use super::BenchArgs;
use super::answer::{Verdict, judge_instance};
use super::command::CommandTemplate;
use super::manifest::Instance;
use super::runner::{ExitPolicy, Limits, run_limited};
use super::stats::{InstanceResult, SideResult};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal as _;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Which solver a task runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Cove,
    Reference,
}

/// Runs every (instance, side) task on `args.jobs` worker threads.
pub fn execute(
    args: &BenchArgs,
    root: &Path,
    instances: &[Instance],
    cove_t: &CommandTemplate,
    ref_t: Option<&CommandTemplate>,
    limits: &Limits,
    ref_name: Option<&str>,
) -> Vec<InstanceResult> {
    let mut tasks: Vec<(usize, Side)> = Vec::new();
    for i in 0..instances.len() {
        tasks.push((i, Side::Cove));
        if ref_t.is_some() {
            tasks.push((i, Side::Reference));
        }
    }
    let bar = if args.no_progress || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(tasks.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "[{elapsed_precise}] {wide_bar} {pos}/{len} (eta {eta}) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let next = AtomicUsize::new(0);
    let solved = [AtomicUsize::new(0), AtomicUsize::new(0)];
    let wrong = [AtomicUsize::new(0), AtomicUsize::new(0)];
    let slots: Vec<Mutex<[Option<SideResult>; 2]>> =
        instances.iter().map(|_| Mutex::new([None, None])).collect();
    let ref_label = ref_name.unwrap_or("reference");

    std::thread::scope(|scope| {
        for _ in 0..args.jobs.min(tasks.len()) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&(i, side)) = tasks.get(k) else {
                        break;
                    };
                    let inst = &instances[i];
                    let path = super::resolve(root, &inst.path);
                    let (template, policy, s) = match side {
                        Side::Cove => (cove_t, ExitPolicy::Cove, 0),
                        Side::Reference => {
                            (ref_t.expect("reference task"), ExitPolicy::Reference, 1)
                        }
                    };
                    let run = run_limited(&template.instantiate(&path), limits, policy);
                    let verdict = judge_instance(
                        &run.outcome,
                        &run.property_answers,
                        inst,
                        run.wall_secs,
                        args.timeout,
                    );
                    let name = if s == 0 { "cove" } else { ref_label };
                    if verdict == Verdict::Solved {
                        solved[s].fetch_add(1, Ordering::Relaxed);
                    }
                    if verdict == Verdict::Wrong {
                        wrong[s].fetch_add(1, Ordering::Relaxed);
                        bar.suspend(|| {
                            eprintln!(
                                "WRONG: {name} answered {} on {} (expected {})",
                                run.outcome.word(),
                                inst.path,
                                inst.properties.as_deref().map_or_else(
                                    || inst.expected.to_string(),
                                    crate::manifest::format_properties
                                )
                            )
                        });
                    }
                    let mut msg = format!(
                        "cove {} solved/{} wrong",
                        solved[0].load(Ordering::Relaxed),
                        wrong[0].load(Ordering::Relaxed)
                    );
                    if ref_t.is_some() {
                        msg.push_str(&format!(
                            " | {ref_label} {} solved/{} wrong",
                            solved[1].load(Ordering::Relaxed),
                            wrong[1].load(Ordering::Relaxed)
                        ));
                    }
                    bar.set_message(msg);
                    bar.inc(1);
                    slots[i].lock().unwrap_or_else(|p| p.into_inner())[s] =
                        Some(SideResult { run, verdict });
                }
            });
        }
    });
    bar.finish_and_clear();

    instances
        .iter()
        .zip(slots)
        .map(|(inst, slot)| {
            let [cove, reference] = slot.into_inner().unwrap_or_else(|p| p.into_inner());
            InstanceResult {
                instance: inst.clone(),
                cove: cove.expect("every cove task ran"),
                reference,
            }
        })
        .collect()
}
