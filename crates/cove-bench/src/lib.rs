//! The benchmark harness behind `cove bench`, kept in its own crate so that a library user of
//! `cove` compiles none of its dependencies (plotting, progress bars, process control).
//!
//! It runs a benchmark manifest through Cove and, optionally, a reference solver,
//! under the same time and memory limits, and compares both against the known answers.
//!
//! Every instance is solved in a fresh child process (see [`runner`] for how limits and peak
//! memory are enforced and measured): Cove is started as `CURRENT_EXE solve --timeout T
//! [--engine E] [COVE_ARGS] FILE`, the reference as the `--vs` template with `{}` replaced by
//! the file. Answers are judged by [`answer::judge`] (only a contradicting `sat`/`unsat` is
//! wrong), aggregated per track by [`stats`], printed as a side-by-side table and written to
//! `--out` as `results.csv`, `results.json`, `summary.txt` and cactus plots (`cactus.svg` for
//! all tracks, `cactus-TRACK.svg` per track).
//!
//! The exit code is 1 when any Cove answer is wrong, 0 otherwise; a wrong reference answer
//! is highlighted but does not fail the run (the manifest may be what is wrong).
//!
//! At cluster scale, `--shard I/N` runs one deterministic part of the selection ([`shard`])
//! and `--merge` combines the parts' `results.json` files into one report ([`merge`]); with
//! a reference solver the report adds a scatter plot of per-instance times.

/// Exit code when Cove failed on every instance (the manifest or the flags are likely wrong):
/// the same code as `cove`'s "bad input".
pub const EXIT_ALL_ERRORED: i32 = 2;

pub mod answer;
pub mod command;
pub mod manifest;
pub mod merge;
pub mod output;
pub mod plot;
pub mod pool;
pub mod report;
pub mod runner;
pub mod shard;
pub mod stats;

use anyhow::Context as _;
use clap::Args;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use command::{CommandTemplate, MemLimiter, find_program};
use manifest::{Instance, parse_manifest};
use runner::Limits;
use stats::summarize;

/// Arguments of `cove bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Manifest: one `track<TAB>path<TAB>expected` line per instance (expected: sat or unsat,
    /// or per-property HWMCC answers like `b0=1 j0=0`; blank lines and `#` comments are
    /// ignored).
    #[arg(required_unless_present = "merge")]
    pub manifest: Option<PathBuf>,
    /// Directory the manifest's relative paths start from [default: the manifest's directory].
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Time limit per instance and solver, in seconds (wall clock).
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Extra seconds after the time limit before a solver is killed.
    #[arg(long, value_name = "SECS", default_value_t = 1.0)]
    pub grace: f64,
    /// Address-space limit per solver process, in MiB (0 = unlimited).
    #[arg(long, value_name = "MB", default_value_t = 4096)]
    pub memory_mb: u64,
    /// Number of solver processes run in parallel.
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    /// Reference solver command, run under the same limits, e.g. 'z3 {}'; `{}` stands for the
    /// instance path. Split with shell quoting rules and run without a shell.
    #[arg(long, value_name = "COMMAND")]
    pub vs: Option<String>,
    /// Output directory for results.csv, results.json, summary.txt and cactus*.svg.
    #[arg(long, value_name = "DIR", default_value = "bench-out")]
    pub out: PathBuf,
    /// Only run instances whose track or path contains this substring.
    #[arg(long, value_name = "SUBSTRING")]
    pub filter: Option<String>,
    /// Run at most N instances (the first N after filtering).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Engine for `cove solve --engine NAME`.
    #[arg(long, value_name = "NAME")]
    pub engine: Option<String>,
    /// Extra arguments for `cove solve` (one string, shell-quoted).
    #[arg(long, value_name = "ARGS", allow_hyphen_values = true)]
    pub cove_args: Option<String>,
    /// Replaces the whole Cove command by this template (`{}` = path); for testing the harness.
    #[arg(long, value_name = "COMMAND", hide = true, conflicts_with_all = ["engine", "cove_args"])]
    pub cove_cmd: Option<String>,
    /// Do not draw a progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Run only shard I of N (0 <= I < N) of the selected instances: instance k goes to
    /// shard k mod N. Combine the shards' results with --merge.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<shard::Shard>,
    /// Instead of running anything, combine result files (results.json, or directories
    /// holding one) of earlier runs, e.g. all shards of a split, into one report in --out.
    #[arg(long, value_name = "RESULTS", num_args = 1.., conflicts_with_all = ["manifest", "shard"])]
    pub merge: Vec<PathBuf>,
}

/// Formats seconds for a command line: integral values without a fraction.
fn secs_arg(secs: f64) -> String {
    if secs.fract() == 0.0 && secs < 1e15 {
        format!("{}", secs as u64)
    } else {
        format!("{secs}")
    }
}

fn cove_template(args: &BenchArgs) -> anyhow::Result<CommandTemplate> {
    if let Some(t) = &args.cove_cmd {
        return CommandTemplate::parse(t);
    }
    let exe = std::env::current_exe().context("cannot locate the cove executable")?;
    let mut argv = vec![
        exe.display().to_string(),
        "solve".to_string(),
        "--timeout".to_string(),
        secs_arg(args.timeout),
    ];
    if let Some(e) = &args.engine {
        argv.extend(["--engine".to_string(), e.clone()]);
    }
    let extra = match &args.cove_args {
        Some(extra) => {
            shell_words::split(extra).map_err(|e| anyhow::anyhow!("bad --cove-args: {e}"))?
        }
        None => vec![],
    };
    if !extra.iter().any(|a| a == "--threads") {
        // Parallel jobs share the cores: each portfolio gets its share, not all of them.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        argv.extend([
            "--threads".to_string(),
            (cores / args.jobs).max(1).to_string(),
        ]);
    }
    argv.extend(extra);
    argv.push("{}".to_string());
    Ok(CommandTemplate::from_argv(argv))
}

fn check_program(t: &CommandTemplate, what: &str) -> anyhow::Result<()> {
    let prog = &t.argv()[0];
    if find_program(prog).is_none() {
        anyhow::bail!("{what} `{prog}` not found (not an executable file, nor on PATH)");
    }
    Ok(())
}

fn select(instances: Vec<Instance>, args: &BenchArgs) -> Vec<Instance> {
    let filtered = instances.into_iter().filter(|i| match &args.filter {
        Some(f) => i.path.contains(f.as_str()) || i.track.contains(f.as_str()),
        None => true,
    });
    filtered.take(args.limit.unwrap_or(usize::MAX)).collect()
}

fn resolve(root: &Path, path: &str) -> String {
    root.join(path).display().to_string()
}

/// Runs the harness; returns the process exit code.
pub fn run(args: &BenchArgs) -> anyhow::Result<i32> {
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        anyhow::bail!("--timeout must be a positive number of seconds");
    }
    if !(args.grace >= 0.0 && args.grace.is_finite()) {
        anyhow::bail!("--grace must be a non-negative number of seconds");
    }
    if args.jobs == 0 {
        anyhow::bail!("--jobs must be at least 1");
    }
    if !args.merge.is_empty() {
        return run_merge(args);
    }
    let manifest = args.manifest.as_ref().context("no manifest given")?;
    let text = std::fs::read_to_string(manifest)
        .with_context(|| format!("cannot read manifest {}", manifest.display()))?;
    let all = parse_manifest(&text).with_context(|| manifest.display().to_string())?;
    let root = match &args.root {
        Some(r) => r.clone(),
        None => match manifest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        },
    };
    let instances = select(all, args);
    if instances.is_empty() {
        anyhow::bail!("no instances selected");
    }
    let selected = instances.len();
    let instances = match &args.shard {
        Some(s) => s.take(instances),
        None => instances,
    };
    let missing: Vec<&Instance> = instances
        .iter()
        .filter(|i| !root.join(&i.path).is_file())
        .collect();
    if !missing.is_empty() && missing.len() == instances.len() {
        anyhow::bail!(
            "none of the {} instance files exist under {} (wrong --root?), e.g. {}",
            instances.len(),
            root.display(),
            resolve(&root, &missing[0].path)
        );
    }
    for m in missing.iter().take(5) {
        eprintln!("warning: missing instance file {}", resolve(&root, &m.path));
    }

    let cove_t = cove_template(args)?;
    check_program(&cove_t, "cove command")?;
    let ref_t = args.vs.as_deref().map(CommandTemplate::parse).transpose()?;
    for (t, what) in [(Some(&cove_t), "--cove-cmd"), (ref_t.as_ref(), "--vs")] {
        if let Some(t) = t.filter(|t| !t.has_placeholder()) {
            eprintln!(
                "warning: {what} command `{}` has no `{{}}`: it is not given the instance",
                t.argv().join(" ")
            );
        }
    }
    if let Some(t) = &ref_t {
        check_program(t, "reference solver")?;
    }
    let ref_name = ref_t.as_ref().map(|t| {
        Path::new(&t.argv()[0])
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| t.argv()[0].clone())
    });
    let limits = Limits {
        timeout: Duration::from_secs_f64(args.timeout),
        grace: Duration::from_secs_f64(args.grace),
        memory_mb: args.memory_mb,
        limiter: MemLimiter::detect(args.memory_mb),
    };
    let config = report::RunConfig {
        manifest: manifest.display().to_string(),
        root: root.display().to_string(),
        timeout_secs: args.timeout,
        grace_secs: args.grace,
        memory_mb: args.memory_mb,
        memory_limiter: match &limits.limiter {
            MemLimiter::None => "none".to_string(),
            MemLimiter::Prlimit(p) => format!("{} --as", p.display()),
            MemLimiter::ShellUlimit => "sh ulimit -v".to_string(),
        },
        jobs: args.jobs,
        cove_cmd: cove_t.argv().to_vec(),
        ref_cmd: ref_t.as_ref().map(|t| t.argv().to_vec()),
        ref_name: ref_name.clone(),
        shard: args.shard.map(|shard| shard::ShardInfo { shard, selected }),
        merged_from: Vec::new(),
    };

    let results = pool::execute(
        args,
        &root,
        &instances,
        &cove_t,
        ref_t.as_ref(),
        &limits,
        ref_name.as_deref(),
    );
    report_and_write(args, &config, &results)
}

/// `--merge`: combines earlier result files into one report.
fn run_merge(args: &BenchArgs) -> anyhow::Result<i32> {
    let parts = args
        .merge
        .iter()
        .map(|p| merge::read_part(p))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let (config, results) = merge::combine(parts)?;
    report_and_write(args, &config, &results)
}

/// Prints the summary, writes the result files, and returns the exit code.
fn report_and_write(
    args: &BenchArgs,
    config: &report::RunConfig,
    results: &[stats::InstanceResult],
) -> anyhow::Result<i32> {
    let timeout = config.timeout_secs;
    let ref_name = config.ref_name.clone();
    let summaries = summarize(results, timeout);
    let color = std::io::stdout().is_terminal();
    print!(
        "{}",
        report::render_summary(&summaries, config, color, Some(25))
    );
    output::write_outputs(
        &args.out,
        config,
        &summaries,
        results,
        timeout,
        ref_name.as_deref(),
    )?;
    eprintln!("results written to {}/", args.out.display());
    if report::all_cove_errored(results) {
        eprintln!("error: cove failed on every instance (see results.csv for the messages)");
        return Ok(EXIT_ALL_ERRORED);
    }
    Ok(if report::any_cove_wrong(results) {
        1
    } else {
        0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secs_formatting() {
        assert_eq!(secs_arg(5.0), "5");
        assert_eq!(secs_arg(0.5), "0.5");
    }
}
