//! `cove prob …`: parse arguments, call `cove_prob::driver` (and the benchmark module), print.
//!
//! Exit codes as for every `cove` command: 0 an answer was printed (`holds`, `fails` with a
//! checked counterexample, or `unknown (reason)` when `--timeout`, `--memory-mb`, a state or
//! tree limit or Ctrl-C ended the run), 1 usage or I/O error, 2 bad input (with
//! `file:line:column`), 3 a counterexample failed its independent check, 4 internal error.
//!
//! `--format json` prints one JSON object instead of the text answer: `verdict` (`holds`,
//! `fails`, `unknown`), `reason` for `unknown`, statistics, and for `fails` the checked
//! counterexample (`cex`: its size, what it was checked against, the tree in the `.lpts`
//! format and the execution mapping).

use crate::limits::{LimitArgs, Megabytes, Seconds, parse_mb, parse_secs};
use crate::{EXIT_BAD_INPUT, EXIT_CERT_FAILED, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, ExitCodeOf};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use cove_control::{Control, UnknownReason};
use cove_prob::agar::Refinement;
use cove_prob::bench::{self, Family, Method, Plan};
use cove_prob::cex::max_transitions_per_action;
use cove_prob::dot::to_dot_with;
use cove_prob::driver::{self, Answer, Error, Outcome, Refutation, VerifyConfig};
use cove_prob::format::{unique_names, write_lpts};
use cove_prob::learn::{FindConsistent, LearnProfile, Positives};
use cove_prob::lpts::Lpts;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The exit code of a library error (its message is printed here).
fn fail(e: Error) -> ExitCodeOf {
    eprintln!("{e}");
    ExitCodeOf(match e {
        Error::Io(_) | Error::Config(_) => EXIT_USAGE,
        Error::BadInput(_) => EXIT_BAD_INPUT,
        Error::CexCheck(_) => EXIT_CERT_FAILED,
        _ => EXIT_INTERNAL,
    })
}

/// A value parser for a library enum, from its names (`ALL` and `name`), listing them in
/// `--help`.
fn choice<T>(names: impl IntoIterator<Item = &'static str>) -> impl TypedValueParser<Value = T>
where
    T: std::str::FromStr + Clone + Send + Sync + 'static,
    T::Err: std::fmt::Debug,
{
    PossibleValuesParser::new(names).map(|s| s.parse::<T>().expect("a listed name"))
}

fn methods() -> impl TypedValueParser<Value = Method> {
    choice(Method::ALL.map(Method::name))
}

fn finds() -> impl TypedValueParser<Value = FindConsistent> {
    choice(FindConsistent::ALL.map(FindConsistent::name))
}

fn refinements() -> impl TypedValueParser<Value = Refinement> {
    choice(Refinement::ALL.map(Refinement::name))
}

fn positives() -> impl TypedValueParser<Value = Positives> {
    choice(Positives::ALL.map(Positives::name))
}

/// The words printed after `unknown`.
fn reason_text(r: &UnknownReason) -> String {
    match r {
        UnknownReason::Timeout => "time limit reached".into(),
        UnknownReason::Memory => "memory limit reached".into(),
        UnknownReason::ResourceOut(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Output format of `simulate` and `verify`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The verdict on the first line, then the counterexample and `#` statistics lines.
    #[default]
    Text,
    /// One JSON object: `verdict`, `reason` (for `unknown`), statistics, `cex` (for `fails`).
    Json,
}

/// Loads a model; `Err` inside with the reason when the limits stopped building it.
fn load(
    path: &Path,
    constants: &[(String, String)],
    whole: bool,
    ctl: &Control,
) -> Result<Result<Lpts, UnknownReason>, ExitCodeOf> {
    driver::load_model(path, constants, whole, ctl).map_err(fail)
}

/// Sets the number of answers owed to one, so the watchdog and the allocator's emergency
/// exit print `unknown` should the run not stop by itself.
fn owe_one() {
    *crate::limits::OWED
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = 1;
}

fn peak_mb() -> Option<f64> {
    bench::peak_kib().map(|k| k as f64 / 1024.0)
}

/// `cove prob simulate IMPL SPEC [--dot FILE]`.
#[derive(clap::Args, Debug, Clone)]
pub struct SimulateArgs {
    /// The implementation (`.lpts`, `.drn`, `.tra`, or a PRISM model).
    pub implementation: PathBuf,
    /// The specification (`.lpts`, `.drn`, `.tra`, or a PRISM model).
    pub spec: PathBuf,
    /// Write the counterexample tree (if any) as Graphviz DOT to this file.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
    /// Set a PRISM constant, e.g. `--const N=3` (repeatable; applies to both models).
    #[arg(long = "const", value_name = "NAME=VALUE")]
    pub constants: Vec<String>,
    /// Give up (`unknown`) when a counterexample tree would exceed this many nodes.
    #[arg(long, default_value_t = 1_000_000)]
    pub max_tree_nodes: usize,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// `text`, or `json` for one JSON object.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Decides `IMPL ⪯ SPEC`; prints `holds`, `fails` and a checked tree counterexample, or
/// `unknown (reason)`.
pub fn simulate(args: &SimulateArgs) -> Result<u8, ExitCodeOf> {
    let start = Instant::now();
    let constants = driver::parse_constants(&args.constants).map_err(fail)?;
    owe_one();
    let ctl = args.limits.control(0);
    let json = args.format == Format::Json;
    crate::limits::JSON_OUTPUT.store(json, std::sync::atomic::Ordering::Relaxed);
    let mut obj = serde_json::json!({});
    let out = match load(&args.implementation, &constants, true, &ctl)? {
        Ok(imp) => match load(&args.spec, &constants, true, &ctl)? {
            Ok(spec) => {
                obj["implementation_states"] = imp.num_states().into();
                obj["spec_states"] = spec.num_states().into();
                driver::simulate(&imp, &spec, args.max_tree_nodes, &ctl).map_err(fail)?
            }
            Err(r) => stopped(r),
        },
        Err(r) => stopped(r),
    };
    let mut text = String::new();
    match &out.answer {
        Answer::Holds => {
            obj["verdict"] = "holds".into();
            text.push_str("holds\n");
        }
        Answer::Fails(r) => {
            obj["verdict"] = "fails".into();
            obj["cex"] = cex_json(r);
            text.push_str("fails\n");
            print_cex(&mut text, r);
            if let Some(p) = &args.dot {
                write_dot(p, r)?;
            }
        }
        Answer::Unknown(r) => {
            obj["verdict"] = "unknown".into();
            obj["reason"] = reason_text(r).into();
            let _ = writeln!(text, "unknown ({})", reason_text(r));
        }
    }
    if json {
        obj["time"] = start.elapsed().as_secs_f64().into();
        text = format!("{obj}\n");
    }
    crate::limits::write_answer(&text);
    Ok(EXIT_OK)
}

/// The outcome of a run the limits stopped while its models were built.
fn stopped(r: UnknownReason) -> Outcome {
    Outcome {
        answer: Answer::Unknown(r),
        stats: Default::default(),
        learn: None,
    }
}

/// The counterexample as JSON: size, what it was checked against, the tree (`.lpts`
/// text) and the execution mapping (tree state name to system state name).
fn cex_json(r: &Refutation) -> serde_json::Value {
    let t = &r.cex.tree;
    let mapping: serde_json::Map<String, serde_json::Value> = unique_names(t)
        .into_iter()
        .enumerate()
        .map(|(s, n)| (n, r.system.state_name(r.cex.mapping[s]).into()))
        .collect();
    serde_json::json!({
        "states": t.num_states(),
        "transitions": t.num_transitions(),
        "reactive": max_transitions_per_action(t) <= 1,
        "checked": r.checked,
        "tree": write_lpts(t),
        "mapping": mapping,
    })
}

fn print_cex(out: &mut String, r: &Refutation) {
    let t = &r.cex.tree;
    let _ = writeln!(
        out,
        "# counterexample: tree with {} states and {} transitions, reactive: {}, checked: {}, \
         not simulated by the specification (reference simulation)",
        t.num_states(),
        t.num_transitions(),
        if max_transitions_per_action(t) <= 1 {
            "yes"
        } else {
            "no"
        },
        r.checked
    );
    for (s, name) in unique_names(t).iter().enumerate() {
        let _ = writeln!(
            out,
            "# {} -> {}",
            name,
            r.system.state_name(r.cex.mapping[s])
        );
    }
    out.push_str(&write_lpts(t));
}

fn write_dot(path: &Path, r: &Refutation) -> Result<(), ExitCodeOf> {
    let dot = to_dot_with(&r.cex.tree, "counterexample", &|s| {
        Some(r.system.state_name(r.cex.mapping[s]).to_string())
    });
    std::fs::write(path, dot).map_err(|e| fail(Error::Io(format!("{}: {e}", path.display()))))
}

/// `cove prob verify --component A.prism --component B.prism --spec P.lpts [--method …]`.
#[derive(clap::Args, Debug, Clone)]
pub struct VerifyArgs {
    /// A component (`.lpts`, `.drn`, `.tra` or PRISM); repeat for each, in composition order.
    #[arg(long = "component", required = true, value_name = "FILE")]
    pub components: Vec<PathBuf>,
    /// The specification (`.lpts`, `.drn`, `.tra` or PRISM).
    #[arg(long, value_name = "FILE")]
    pub spec: PathBuf,
    /// mono: compose and check; agar: rule ASYM, assumption for the composition of all but
    /// the first component refined from counterexamples; agar-n: rule ASYM-N, one
    /// assumption per component; learn: rule ASYM with a learned assumption.
    #[arg(long, value_parser = methods(), default_value = "mono")]
    pub method: Method,
    /// Set a PRISM constant, e.g. `--const N=3` (repeatable).
    #[arg(long = "const", value_name = "NAME=VALUE")]
    pub constants: Vec<String>,
    /// Write the counterexample tree (if any) as Graphviz DOT to this file.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
    /// Give up (`unknown`) when a composed LPTS exceeds this many states.
    #[arg(long, default_value_t = 2_000_000)]
    pub max_states: usize,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Print progress lines (prefixed `#`; text format only).
    #[arg(long, short)]
    pub verbose: bool,
    /// `text`, or `json` for one JSON object.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// FINDCONSISTENT for `--method learn`: `mapped` (least ordinary partition that keeps
    /// copies of one state of the learned component together, SAT), `partition` (least
    /// ordinary partition of the positive samples, SAT; Sec. 5.2.1) or `stochastic` (least
    /// stochastic partition, SMT over the groups' weights; Sec. 5.2.2, a semi-algorithm).
    #[arg(long, value_parser = finds(), default_value = "mapped")]
    pub find_consistent: FindConsistent,
    /// AGAR/AGAR-N refinement: `full` (Fig. 6.2: split the node's and its children's
    /// classes) or `coarse` (the children's first, the node's only if that splits nothing).
    #[arg(long, value_parser = refinements(), default_value = "full")]
    pub refine: Refinement,
    /// `--method learn`: positive samples with every move the conjecture lacks at each node
    /// until the first negative sample (`rich`), or always the ordinary counterexample
    /// (`plain`).
    #[arg(long, value_parser = positives(), default_value = "rich")]
    pub positives: Positives,
}

/// Checks `C1 ∥ … ∥ Cn ⪯ SPEC`; prints the verdict, a checked counterexample if it fails,
/// and statistics (time, peak memory, largest composed LPTS, largest assumption, iterations).
pub fn verify(args: &VerifyArgs) -> Result<u8, ExitCodeOf> {
    let start = Instant::now();
    let constants = driver::parse_constants(&args.constants).map_err(fail)?;
    let text_mode = args.format == Format::Text;
    crate::limits::JSON_OUTPUT.store(!text_mode, std::sync::atomic::Ordering::Relaxed);
    owe_one();
    let ctl = args.limits.control(0);
    let progress = |line: String| {
        if args.verbose && text_mode {
            println!("{line}");
        }
    };
    let mut models = Vec::new();
    let mut spec = None;
    for p in &args.components {
        match load(p, &constants, false, &ctl)? {
            Ok(l) => {
                progress(format!(
                    "# loaded {}: {} states, {} transitions",
                    p.display(),
                    l.num_states(),
                    l.num_transitions()
                ));
                models.push(l);
            }
            Err(r) => {
                spec = Some(Err(r));
                break;
            }
        }
    }
    let spec = match spec {
        Some(stopped) => stopped,
        None => load(&args.spec, &constants, false, &ctl)?,
    };
    let out = match spec {
        Ok(spec) => {
            progress(format!(
                "# spec {}: {} states; method {}",
                args.spec.display(),
                spec.num_states(),
                args.method.name()
            ));
            let cfg = VerifyConfig {
                method: args.method,
                max_states: args.max_states,
                find_consistent: args.find_consistent,
                refine: args.refine,
                positives: args.positives,
                trace: args.verbose,
                ..VerifyConfig::default()
            };
            driver::verify(&models, &spec, &cfg, &ctl).map_err(fail)?
        }
        Err(r) => stopped(r),
    };
    let total = start.elapsed().as_secs_f64();
    let method = args.method.name();
    let mut text = String::new();
    let mut obj = serde_json::json!({ "method": method });
    match &out.answer {
        Answer::Holds => {
            obj["verdict"] = "holds".into();
            text.push_str("holds\n");
        }
        Answer::Fails(r) => {
            obj["verdict"] = "fails".into();
            obj["cex"] = cex_json(r);
            text.push_str("fails\n");
            print_cex(&mut text, r);
            if let Some(p) = &args.dot {
                write_dot(p, r)?;
            }
        }
        Answer::Unknown(r) => {
            obj["verdict"] = "unknown".into();
            obj["reason"] = reason_text(r).into();
            let mem = peak_mb().map_or("-".into(), |m| format!("{m:.1} MB"));
            let _ = writeln!(text, "unknown ({})", reason_text(r));
            let _ = writeln!(
                text,
                "# stats: method {method}, total {total:.3} s, peak memory {mem}"
            );
        }
    }
    let stats = &out.stats;
    if matches!(out.answer, Answer::Holds | Answer::Fails(_)) {
        obj["time"] = stats.time.as_secs_f64().into();
        obj["largest_composed"] = stats.largest_composed.into();
        obj["largest_assumption"] = stats.largest_assumption.into();
        obj["iterations"] = stats.iterations.into();
        let mem = peak_mb().map_or("-".into(), |m| format!("{m:.1} MB"));
        let _ = writeln!(
            text,
            "# stats: method {method}, time {:.3} s (total {total:.3} s), peak memory {mem}, \
             largest composed LPTS {} states, largest assumption {} states, iterations {}",
            stats.time.as_secs_f64(),
            stats.largest_composed,
            stats.largest_assumption,
            stats.iterations
        );
    }
    obj["total_time"] = total.into();
    obj["peak_memory_mb"] = peak_mb().into();
    if let Some(p) = &out.learn {
        obj["learn"] = learn_json(p, args.find_consistent);
        let _ = writeln!(
            text,
            "# learn ({}): {} iterations, last conjecture {} states, {p}",
            args.find_consistent.name(),
            p.iterations,
            p.last_conjecture,
        );
    }
    if !text_mode {
        text = format!("{obj}\n");
    }
    crate::limits::write_answer(&text);
    Ok(EXIT_OK)
}

fn learn_json(p: &LearnProfile, find: FindConsistent) -> serde_json::Value {
    serde_json::json!({
        "find_consistent": find.name(),
        "iterations": p.iterations,
        "positives": p.positives,
        "negatives": p.negatives,
        "union_states": p.union_states,
        "last_conjecture": p.last_conjecture,
        "solver_calls": p.solver_calls,
        "blocked": p.blocked,
        "find_time": p.find_time.as_secs_f64(),
        "premise1_time": p.premise1_time.as_secs_f64(),
        "premise2_time": p.premise2_time.as_secs_f64(),
    })
}

/// `cove prob bench`.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Small sizes only (n = 1, 2), for a quick smoke run.
    #[arg(long)]
    pub quick: bool,
    /// Largest parameter n per family (overrides the default sizes).
    #[arg(long, value_name = "N")]
    pub max_n: Option<usize>,
    /// Methods to run (default: all).
    #[arg(long, value_parser = methods(), value_delimiter = ',')]
    pub methods: Vec<Method>,
    /// Run learning only up to this n (it is exponential).
    #[arg(long, default_value_t = 2)]
    pub learn_max_n: usize,
    /// Wall-clock limit per learning run, in seconds (0 or `inf` = none).
    #[arg(long, value_name = "SECS", value_parser = parse_secs, default_value = "20")]
    pub learn_time: Seconds,
    /// Write the benchmark models (PRISM components, spec as .lpts) into this directory
    /// instead of running them.
    #[arg(long, value_name = "DIR")]
    pub write_models: Option<PathBuf>,
    /// Only these families (`cs1`, `csn`, `mer`, `sn`; default: all).
    #[arg(long, value_delimiter = ',', value_name = "NAME")]
    pub families: Vec<String>,
    /// Wall-clock limit per mono/agar/agar-n run, in seconds (0 or `inf` = none), as `cove
    /// bench --timeout` is per instance: a run that reaches it shows `out: time limit` in its
    /// row and the table goes on.
    #[arg(long, value_name = "SECS", value_parser = parse_secs, default_value = "60")]
    pub timeout: Seconds,
    /// Memory limit in MiB for every run (0 = none): a run that reaches it shows
    /// `out: memory limit` in its row.
    #[arg(long, value_name = "MIB", value_parser = parse_mb, default_value = "0")]
    pub memory_mb: Megabytes,
    /// FINDCONSISTENT of the learner (`mapped`, `partition` or `stochastic`).
    #[arg(long, value_parser = finds(), default_value = "mapped")]
    pub find_consistent: FindConsistent,
    /// AGAR/AGAR-N refinement (`full` or `coarse`).
    #[arg(long, value_parser = refinements(), default_value = "full")]
    pub refine: Refinement,
}

/// A per-run limit as a duration (`None`, no limit, as the longest one).
fn per_run(s: Seconds) -> Duration {
    s.0.unwrap_or(Duration::MAX)
}

/// Prints the Table 6.1/6.2-shaped table, one row per instance and method, with progress.
pub fn bench(args: &BenchArgs) -> Result<u8, ExitCodeOf> {
    use std::io::Write as _;
    let mut plan = Plan::default();
    if args.quick {
        plan.families = Family::ALL.iter().map(|&f| (f, vec![1, 2])).collect();
    }
    if let Some(n) = args.max_n {
        plan.families = Family::ALL
            .iter()
            .map(|&f| (f, (1..=n).collect()))
            .collect();
    }
    if !args.methods.is_empty() {
        plan.methods = args.methods.clone();
    }
    for f in &args.families {
        if !Family::ALL.iter().any(|x| x.name().eq_ignore_ascii_case(f)) {
            return Err(fail(Error::Config(format!(
                "unknown family `{f}` (cs1, csn, mer, sn)"
            ))));
        }
    }
    if !args.families.is_empty() {
        plan.families.retain(|(fam, _)| {
            args.families
                .iter()
                .any(|f| fam.name().eq_ignore_ascii_case(f))
        });
    }
    plan.learn_max_n = args.learn_max_n;
    plan.limits.learn_time = per_run(args.learn_time);
    plan.limits.run_time = per_run(args.timeout);
    plan.limits.find = args.find_consistent;
    plan.limits.refine = args.refine;
    let mut out = std::io::stdout().lock();
    if let Some(dir) = &args.write_models {
        for (base, holds) in bench::write_models(dir, &plan).map_err(fail)? {
            let expected = if holds { "holds" } else { "fails" };
            let _ = writeln!(out, "{base}: expected {expected}");
        }
        return Ok(EXIT_OK);
    }
    // Memory limit and Ctrl-C for every run; the deadlines are per run.
    plan.limits.control = LimitArgs {
        timeout: Seconds(None),
        memory_mb: args.memory_mb,
    }
    .control(0);
    let _ = write!(out, "{}", bench::header());
    let rows = bench::run_plan(&plan, &mut |r| {
        let _ = write!(out, "{}", bench::format_row(r));
        let _ = out.flush();
    })
    .map_err(|e| fail(Error::Internal(format!("benchmark model: {e}"))))?;
    let table = bench::format_table(&rows);
    let summary = table.split_once("\nFastest").map_or("", |x| x.1);
    let _ = write!(out, "\nFastest{summary}");
    if rows.iter().any(|r| !r.result.ok) {
        return Err(fail(Error::CexCheck(
            "some verdict or counterexample was wrong (see WRONG/BADCEX rows)".into(),
        )));
    }
    Ok(EXIT_OK)
}

/// Output formats of `cove prob export`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    /// Cove's textual LPTS format.
    Lpts,
    /// Storm's DRN format (an MDP with choice labels, exact values).
    Drn,
    /// Graphviz DOT.
    Dot,
}

/// `cove prob export MODEL --to drn|lpts|dot [-o FILE]`.
#[derive(clap::Args, Debug, Clone)]
pub struct ExportArgs {
    /// The model (`.lpts`, `.drn`, `.tra`, or a PRISM model).
    pub model: PathBuf,
    /// Output format (default: from the output file's extension, else `lpts`).
    #[arg(long, value_enum)]
    pub to: Option<ExportFormat>,
    /// Output file (default: standard output).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Set a PRISM constant, e.g. `--const N=3` (repeatable).
    #[arg(long = "const", value_name = "NAME=VALUE")]
    pub constants: Vec<String>,
    /// Build a PRISM model as a component to be composed: deadlock states keep no move
    /// (by default they get PRISM's self-loop, as for a whole model).
    #[arg(long)]
    pub component: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// Builds a model and writes it in another format (e.g. DRN, to cross-check with Storm).
pub fn export(args: &ExportArgs) -> Result<u8, ExitCodeOf> {
    use std::io::Write as _;
    let constants = driver::parse_constants(&args.constants).map_err(fail)?;
    let ctl = args.limits.control(0);
    let l = match load(&args.model, &constants, !args.component, &ctl)? {
        Ok(l) => l,
        Err(r) => {
            eprintln!(
                "cove: {}: no model written ({})",
                args.model.display(),
                reason_text(&r)
            );
            println!("unknown");
            return Ok(EXIT_OK);
        }
    };
    let fmt = args.to.unwrap_or_else(|| {
        match args
            .output
            .as_ref()
            .and_then(|p| p.extension())
            .and_then(|e| e.to_str())
        {
            Some("drn") => ExportFormat::Drn,
            Some("dot" | "gv") => ExportFormat::Dot,
            _ => ExportFormat::Lpts,
        }
    });
    let text = match fmt {
        ExportFormat::Lpts => write_lpts(&l),
        ExportFormat::Drn => cove_prob::drn::write_drn(&l),
        ExportFormat::Dot => cove_prob::dot::to_dot(&l, "model"),
    };
    match &args.output {
        Some(p) => {
            std::fs::write(p, text).map_err(|e| fail(Error::Io(format!("{}: {e}", p.display()))))?
        }
        None => std::io::stdout()
            .lock()
            .write_all(text.as_bytes())
            .map_err(|e| fail(Error::Io(format!("write error: {e}"))))?,
    }
    Ok(EXIT_OK)
}
