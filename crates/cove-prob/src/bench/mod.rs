//! Benchmarks in the shape of thesis Tables 6.1/6.2: for each family and size, the time,
//! peak memory, largest composed LPTS, largest assumption and iteration count of the
//! monolithic check, AGAR (ASYM), AGAR-N (ASYM-N) and learning.
//!
//! Peak memory is the process's resident high-water mark (`VmHWM`), reset before each
//! run through `/proc/self/clear_refs`; where that is unavailable the column shows `-`.
//! Every verdict is compared with the expected one, and every counterexample is checked
//! independently ([`crate::cex::verify_counterexample`] against the LPTS its execution
//! mapping refers to); a disagreement is reported in the table as `WRONG`/`BADCEX`.

pub mod models;

use crate::agar::{
    AgarError, Budget, Refinement, Stats, Verdict, agar_n_with, agar_with, compose_all, mono,
};
use crate::cex::verify_counterexample;
use crate::learn::{FindConsistent, LearnOptions, LearnProfile, learn_asym_with};
use crate::lpts::Lpts;
use crate::prism::{BuildOptions, PrismError, build_lpts, build_module_lpts};
use cove_control::Control;
pub use models::{Family, Instance};
use std::fmt::Write as _;
use std::time::Duration;

/// The verification methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Compose everything, check once.
    Mono,
    /// Rule ASYM with AGAR (abstraction refinement of the assumption for the last component).
    Agar,
    /// Rule ASYM-N with AGAR-N (every module a component).
    AgarN,
    /// Rule ASYM with a learned assumption (Ch. 5).
    Learn,
}

impl Method {
    /// All methods in table order.
    pub const ALL: [Method; 4] = [Method::Mono, Method::Agar, Method::AgarN, Method::Learn];

    /// Name used in tables and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Method::Mono => "mono",
            Method::Agar => "agar",
            Method::AgarN => "agar-n",
            Method::Learn => "learn",
        }
    }
}

impl std::str::FromStr for Method {
    type Err = String;

    /// Parses a name as printed by [`Method::name`].
    fn from_str(s: &str) -> Result<Method, String> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
                format!("unknown method `{s}` (one of {})", names.join(", "))
            })
    }
}

/// The loaded LPTSes of an instance.
pub struct Loaded {
    /// Component 1 (all its modules composed).
    pub l1: Lpts,
    /// Component 2 (all its modules composed).
    pub l2: Lpts,
    /// Every module as its own component, component 1's first.
    pub modules: Vec<Lpts>,
    /// The specification.
    pub spec: Lpts,
}

/// Builds the LPTSes of an instance.
/// Components and spec are composed/compared as they are: deadlock states keep no move.
pub fn load(inst: &Instance, opts: &BuildOptions) -> Result<Loaded, PrismError> {
    let opts = &BuildOptions {
        deadlock_self_loops: false,
        ..opts.clone()
    };
    let mut modules: Vec<Lpts> = build_module_lpts(&inst.l1, opts)?
        .into_iter()
        .map(|m| m.1)
        .collect();
    modules.extend(build_module_lpts(&inst.l2, opts)?.into_iter().map(|m| m.1));
    Ok(Loaded {
        l1: build_lpts(&inst.l1, opts)?,
        l2: build_lpts(&inst.l2, opts)?,
        modules,
        spec: build_lpts(&inst.spec, opts)?,
    })
}

/// Limits for one run.
#[derive(Clone, Debug)]
pub struct Limits {
    /// What every run shares: the memory limit and the interruption flag (stopping it stops
    /// the run in progress, and every later run ends at once as `out: interrupted`). Each
    /// run adds its own deadline ([`Limits::run_time`], [`Limits::learn_time`]).
    pub control: Control,
    /// Maximum states of any composed LPTS.
    pub states: usize,
    /// Maximum nodes of a counterexample tree.
    pub tree_nodes: usize,
    /// Maximum learning iterations.
    pub learn_iterations: usize,
    /// Wall-clock limit for one learning run.
    pub learn_time: Duration,
    /// Wall-clock limit for one mono/agar/agar-n run (checked between iterations).
    pub run_time: Duration,
    /// FINDCONSISTENT of the learner.
    pub find: FindConsistent,
    /// AGAR's and AGAR-N's refinement.
    pub refine: Refinement,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            control: Control::new(),
            states: 2_000_000,
            tree_nodes: 1_000_000,
            learn_iterations: 500,
            learn_time: Duration::from_secs(20),
            run_time: Duration::from_secs(60),
            find: FindConsistent::default(),
            refine: Refinement::default(),
        }
    }
}

/// Outcome of one run.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// `holds`, `fails`, or the reason for giving up (`out: …`).
    pub verdict: String,
    /// Whether the verdict matches the expectation and the counterexample checked out.
    pub ok: bool,
    /// Statistics.
    pub stats: Stats,
    /// Peak resident memory in KiB, if measurable.
    pub peak_kib: Option<u64>,
}

fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// The resident-memory high-water mark in KiB (Linux), if available.
pub fn peak_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs one method on loaded components (`expect` = expected verdict, if known).
pub fn run(method: Method, ld: &Loaded, expect: Option<bool>, lim: &Limits) -> RunResult {
    let resettable = reset_peak();
    let started = std::time::Instant::now();
    let budget = Budget {
        max_states: lim.states,
        max_tree_nodes: lim.tree_nodes,
        control: lim.control.child().with_timeout(lim.run_time),
    };
    let res: Result<(Verdict, Stats), String> = match method {
        Method::Mono => mono(&[ld.l1.clone(), ld.l2.clone()], &ld.spec, &budget).map_err(err_text),
        Method::Agar => agar_with(&ld.l1, &ld.l2, &ld.spec, &budget, lim.refine).map_err(err_text),
        Method::AgarN => agar_n_with(&ld.modules, &ld.spec, &budget, lim.refine).map_err(err_text),
        Method::Learn => {
            let opts = LearnOptions {
                find: lim.find,
                budget: Budget {
                    control: lim.control.child().with_timeout(lim.learn_time),
                    ..budget.clone()
                },
                max_iterations: lim.learn_iterations,
                trace: std::env::var_os("COVE_LEARN_TRACE").is_some(),
                ..LearnOptions::default()
            };
            learn_asym_with(
                &ld.l1,
                &ld.l2,
                &ld.spec,
                &opts,
                &mut LearnProfile::default(),
            )
            .map_err(|e| format!("out: {e}"))
        }
    };
    let peak = if resettable { peak_kib() } else { None };
    match res {
        Ok((v, stats)) => {
            let (verdict, holds, cex_ok) = match &v {
                Verdict::Holds => ("holds".to_string(), true, true),
                Verdict::Fails(f) => {
                    let ok = verify_counterexample(&f.cex, &f.system, &ld.spec).is_ok();
                    (
                        format!("fails (cex {} states)", f.cex.tree.num_states()),
                        false,
                        ok,
                    )
                }
            };
            let ok = cex_ok && expect.is_none_or(|e| e == holds);
            let verdict = if !cex_ok {
                format!("BADCEX {verdict}")
            } else if !ok {
                format!("WRONG {verdict}")
            } else {
                verdict
            };
            RunResult {
                verdict,
                ok,
                stats,
                peak_kib: peak,
            }
        }
        Err(e) => {
            let stats = Stats {
                time: started.elapsed(),
                ..Stats::default()
            };
            RunResult {
                verdict: e,
                ok: true,
                stats,
                peak_kib: peak,
            }
        }
    }
}

fn err_text(e: AgarError) -> String {
    match e {
        AgarError::TooLarge(t) => format!("out: >{} states", t.limit),
        AgarError::TimeLimit => "out: time limit".to_string(),
        AgarError::MemoryLimit => "out: memory limit".to_string(),
        AgarError::Interrupted => "out: interrupted".to_string(),
        other => format!("error: {other}"),
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// `(family, sizes)`.
    pub families: Vec<(Family, Vec<usize>)>,
    /// Methods to run.
    pub methods: Vec<Method>,
    /// Also run the buggy variant of each instance (smallest size only).
    pub buggy: bool,
    /// Learning is only run up to this size (it is exponential).
    pub learn_max_n: usize,
    /// Limits.
    pub limits: Limits,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            families: vec![
                // The thesis's parameters (Tables 6.1/6.2).
                (Family::Cs1, vec![5, 6, 7]),
                (Family::Csn, vec![2, 3, 4]),
                (Family::Mer, vec![3, 4, 5]),
                (Family::Sn, vec![1, 2, 3]),
            ],
            methods: Method::ALL.to_vec(),
            buggy: true,
            learn_max_n: 2,
            limits: Limits::default(),
        }
    }
}

/// One row of the table.
#[derive(Clone, Debug)]
pub struct Row {
    /// Instance name.
    pub instance: String,
    /// Method.
    pub method: Method,
    /// `|L1|`, `|L2|`, `|L|` (full system, if built by mono), `|P|`.
    pub sizes: (usize, usize, Option<usize>, usize),
    /// The run.
    pub result: RunResult,
}

/// Runs a plan, calling `progress` after each row.
pub fn run_plan(plan: &Plan, progress: &mut dyn FnMut(&Row)) -> Result<Vec<Row>, PrismError> {
    let mut rows = Vec::new();
    for (fam, sizes) in &plan.families {
        let mut instances: Vec<(usize, Instance)> =
            sizes.iter().map(|&n| (n, fam.instance(n, false))).collect();
        if plan.buggy
            && let Some(&n) = sizes.first()
        {
            // with one client/user/sensor some bugs cannot show: use at least 2
            let n = n.max(2);
            instances.push((n, fam.instance(n, true)));
        }
        for (n, inst) in instances {
            let ld = load(&inst, &BuildOptions::default())?;
            let mut full = None;
            for &m in &plan.methods {
                if m == Method::Learn && n > plan.learn_max_n {
                    continue;
                }
                let result = run(m, &ld, Some(inst.expect_holds), &plan.limits);
                if m == Method::Mono && !result.verdict.starts_with("out") {
                    full = Some(result.stats.largest_composed);
                }
                let row = Row {
                    instance: inst.name.clone(),
                    method: m,
                    sizes: (
                        ld.l1.num_states(),
                        ld.l2.num_states(),
                        full,
                        ld.spec.num_states(),
                    ),
                    result,
                };
                progress(&row);
                rows.push(row);
            }
        }
    }
    Ok(rows)
}

fn secs(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

/// The header line of [`format_row`].
pub fn header() -> String {
    format!(
        "| {:<12} | {:<6} | {:>9} | {:>8} | {:>5} | {:>5} | {:>7} | {:>4} | {:>6} | {:>6} | {:>5} | {}\n|{}|\n",
        "instance",
        "method",
        "time (s)",
        "mem (MB)",
        "|L1|",
        "|L2|",
        "|L|",
        "|P|",
        "|L_M|",
        "|A_M|",
        "iters",
        "verdict",
        "-".repeat(110)
    )
}

/// One table line.
pub fn format_row(r: &Row) -> String {
    let s = &r.result.stats;
    let mem = r
        .result
        .peak_kib
        .map_or("-".to_string(), |k| format!("{:.1}", k as f64 / 1024.0));
    let full = r.sizes.2.map_or("-".to_string(), |x| x.to_string());
    let am = if s.largest_assumption == 0 {
        "-".to_string()
    } else {
        s.largest_assumption.to_string()
    };
    format!(
        "| {:<12} | {:<6} | {:>9} | {:>8} | {:>5} | {:>5} | {:>7} | {:>4} | {:>6} | {:>6} | {:>5} | {}\n",
        r.instance,
        r.method.name(),
        secs(s.time),
        mem,
        r.sizes.0,
        r.sizes.1,
        full,
        r.sizes.3,
        s.largest_composed,
        am,
        s.iterations,
        r.result.verdict
    )
}

/// The whole table as text, with a per-family summary of which method was fastest.
pub fn format_table(rows: &[Row]) -> String {
    let mut out = header();
    for r in rows {
        out.push_str(&format_row(r));
    }
    out.push_str("\nFastest method per instance (correct verdicts only):\n");
    let mut names: Vec<&str> = rows.iter().map(|r| r.instance.as_str()).collect();
    names.dedup();
    for n in names {
        let best = rows
            .iter()
            .filter(|r| r.instance == n && r.result.ok && !r.result.verdict.starts_with("out"))
            .min_by_key(|r| r.result.stats.time);
        if let Some(b) = best {
            let _ = writeln!(
                out,
                "  {n}: {} ({} s)",
                b.method.name(),
                secs(b.result.stats.time)
            );
        }
    }
    out
}

/// Composes all components (exposed for the CLI's statistics).
pub fn full_system(comps: &[Lpts], limit: usize) -> Result<Lpts, AgarError> {
    let budget = Budget {
        max_states: limit,
        ..Budget::default()
    };
    compose_all(comps, &budget, &mut Stats::default())
}

/// Writes every instance of `plan` into `dir` as PRISM components (`NAME.l1.prism`,
/// `NAME.l2.prism`) and a specification (`NAME.spec.lpts`), for other tools (Storm) or
/// `cove prob verify`; returns each instance's file stem and whether it should hold.
pub fn write_models(
    dir: &std::path::Path,
    plan: &Plan,
) -> Result<Vec<(String, bool)>, crate::driver::Error> {
    use crate::driver::Error;
    let err = |e: std::io::Error| Error::Io(format!("{}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(err)?;
    let mut written = Vec::new();
    for (fam, sizes) in &plan.families {
        for &n in sizes {
            for buggy in [false, true] {
                let inst = fam.instance(n, buggy);
                let base = inst
                    .name
                    .replace(['(', ')'], "_")
                    .trim_end_matches('_')
                    .replace("_-", "-");
                let opts = BuildOptions {
                    deadlock_self_loops: false,
                    ..BuildOptions::default()
                };
                let spec = build_lpts(&inst.spec, &opts)
                    .map_err(|e| Error::Internal(format!("{}: {e}", inst.name)))?;
                std::fs::write(dir.join(format!("{base}.l1.prism")), &inst.l1).map_err(err)?;
                std::fs::write(dir.join(format!("{base}.l2.prism")), &inst.l2).map_err(err)?;
                std::fs::write(
                    dir.join(format!("{base}.spec.lpts")),
                    crate::format::write_lpts(&spec),
                )
                .map_err(err)?;
                written.push((base, inst.expect_holds));
            }
        }
    }
    Ok(written)
}
