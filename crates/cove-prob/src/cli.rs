//! Entry points for `cove prob …`, as library functions the `cove` binary calls.
//!
//! Each takes a `clap::Args` struct (flatten it into the binary's CLI) and a writer for
//! the answer, and returns the process exit code, following `cove`'s convention:
//! `Ok(0)` when an answer was printed (`holds` or `fails` with a counterexample), and
//! `Err(e)` with [`CliError::exit_code`]: 1 usage or I/O error, 2 bad input (with
//! `file:line:column`), 3 a counterexample failed its independent check, 4 internal error
//! or resource limit.
//!
//! Files ending in `.lpts` are read in the textual LPTS format ([`crate::format`]), `.drn`
//! as Storm's DRN and `.tra` (with a `.lab` beside it, if any) as PRISM's explicit format
//! ([`crate::drn`]); every other file is read as a model in the PRISM subset
//! ([`crate::prism`]).
//!
//! `--format json` prints one JSON object instead of the text answer: `verdict` (`holds`,
//! `fails`, `unknown`), `reason` for `unknown`, statistics, and for `fails` the checked
//! counterexample (`cex`: its size, what it was checked against, the tree in the `.lpts`
//! format and the execution mapping).

use crate::agar::{
    AgarError, Budget, Refinement, Verdict, agar_n_with, agar_with, compose_all, mono,
};
use crate::bench::{self, Family, Method, Plan};
use crate::cex::{
    SimAnswer, check_execution_mapping, check_simulation, max_transitions_per_action,
};
use crate::dot::to_dot_with;
use crate::format::{parse_lpts, unique_names, write_lpts};
use crate::learn::{
    FindConsistent, LearnError, LearnOptions, LearnProfile, Positives, learn_asym_with,
};
use crate::lpts::Lpts;
use crate::prism::{BuildOptions, build_lpts};
use crate::sim::naive_simulation;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A failed command, with the exit code it maps to.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CliError {
    /// Usage or I/O problem (exit 1).
    #[error("{0}")]
    Usage(String),
    /// The input is malformed (exit 2); the message starts with `file:line:column`.
    #[error("{0}")]
    BadInput(String),
    /// A counterexample did not pass the independent check (exit 3).
    #[error("counterexample check failed: {0}")]
    CexCheck(String),
    /// Internal error or resource limit (exit 4).
    #[error("{0}")]
    Internal(String),
}

impl CliError {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 1,
            CliError::BadInput(_) => 2,
            CliError::CexCheck(_) => 3,
            CliError::Internal(_) => 4,
        }
    }
}

/// Output format of `simulate` and `verify`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The verdict on the first line, then the counterexample and `#` statistics lines.
    #[default]
    Text,
    /// One JSON object (see the module documentation).
    Json,
}

fn io(e: std::io::Error) -> CliError {
    CliError::Usage(format!("write error: {e}"))
}

/// Reads an LPTS from a `.lpts` file or a PRISM model. `whole`: the PRISM model is a whole
/// system (deadlock states get PRISM's self-loop) rather than a component to be composed.
/// Constants are `NAME=VALUE`, several may be separated by commas as in PRISM's `-const`.
pub fn load_model(path: &Path, constants: &[String], whole: bool) -> Result<Lpts, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))?;
    let bad = |e: crate::format::ParseError| CliError::BadInput(format!("{}:{e}", path.display()));
    match path.extension().and_then(|e| e.to_str()) {
        Some("lpts") => return parse_lpts(&text).map_err(bad),
        Some("drn") => return crate::drn::parse_drn(&text).map_err(bad),
        Some("tra") => {
            let lab = std::fs::read_to_string(path.with_extension("lab")).ok();
            return crate::drn::parse_tra(&text, lab.as_deref()).map_err(bad);
        }
        _ => {}
    }
    let mut opts = BuildOptions {
        deadlock_self_loops: whole,
        ignore_unknown_constants: true,
        ..BuildOptions::default()
    };
    for c in constants.iter().flat_map(|c| c.split(',')) {
        let Some((n, v)) = c.split_once('=') else {
            return Err(CliError::Usage(format!(
                "--const expects NAME=VALUE, got `{c}`"
            )));
        };
        opts.constants
            .push((n.trim().to_string(), v.trim().to_string()));
    }
    build_lpts(&text, &opts).map_err(|e| CliError::BadInput(format!("{}:{e}", path.display())))
}

/// `cove prob simulate IMPL SPEC [--dot FILE]`.
#[derive(clap::Args, Debug, Clone)]
pub struct SimulateArgs {
    /// The implementation (`.lpts`, or a PRISM model).
    pub implementation: PathBuf,
    /// The specification (`.lpts`, or a PRISM model).
    pub spec: PathBuf,
    /// Write the counterexample tree (if any) as Graphviz DOT to this file.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
    /// Set a PRISM constant, e.g. `--const N=3` (repeatable; applies to both models).
    #[arg(long = "const", value_name = "NAME=VALUE")]
    pub constants: Vec<String>,
    /// Give up when a counterexample tree would exceed this many nodes.
    #[arg(long, default_value_t = 1_000_000)]
    pub max_tree_nodes: usize,
    /// `text`, or `json` for one JSON object.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Decides `IMPL ⪯ SPEC`; prints `holds`, or `fails` and a checked tree counterexample.
pub fn simulate(args: &SimulateArgs, out: &mut impl Write) -> Result<u8, CliError> {
    let start = Instant::now();
    let imp = load_model(&args.implementation, &args.constants, true)?;
    let spec = load_model(&args.spec, &args.constants, true)?;
    let ans = check_simulation(&imp, &spec, args.max_tree_nodes)
        .map_err(|e| CliError::Internal(e.to_string()))?;
    let json = args.format == Format::Json;
    let mut obj = serde_json::json!({
        "implementation_states": imp.num_states(),
        "spec_states": spec.num_states(),
    });
    match ans {
        SimAnswer::Holds => {
            obj["verdict"] = "holds".into();
            if !json {
                writeln!(out, "holds").map_err(io)?;
            }
        }
        SimAnswer::Fails(c) => {
            check_execution_mapping(&c, &imp).map_err(CliError::CexCheck)?;
            if naive_simulation(&c.tree, &spec).contains(c.tree.initial(), spec.initial()) {
                return Err(CliError::CexCheck(
                    "the specification simulates the counterexample".into(),
                ));
            }
            let checked = "simulated by the implementation (execution mapping)";
            obj["verdict"] = "fails".into();
            obj["cex"] = cex_json(&c, &imp, checked);
            if !json {
                writeln!(out, "fails").map_err(io)?;
                print_cex(out, &c, &imp, checked)?;
            }
            if let Some(p) = &args.dot {
                write_dot(p, &c, &imp)?;
            }
        }
    }
    if json {
        obj["time"] = start.elapsed().as_secs_f64().into();
        writeln!(out, "{obj}").map_err(io)?;
    }
    Ok(0)
}

/// The counterexample as JSON: size, what it was checked against, the tree (`.lpts`
/// text) and the execution mapping (tree state name to system state name).
fn cex_json(c: &crate::cex::Counterexample, sys: &Lpts, checked: &str) -> serde_json::Value {
    let t = &c.tree;
    let mapping: serde_json::Map<String, serde_json::Value> = unique_names(t)
        .into_iter()
        .enumerate()
        .map(|(s, n)| (n, sys.state_name(c.mapping[s]).into()))
        .collect();
    serde_json::json!({
        "states": t.num_states(),
        "transitions": t.num_transitions(),
        "reactive": max_transitions_per_action(t) <= 1,
        "checked": checked,
        "tree": write_lpts(t),
        "mapping": mapping,
    })
}

fn print_cex(
    out: &mut impl Write,
    c: &crate::cex::Counterexample,
    sys: &Lpts,
    checked: &str,
) -> Result<(), CliError> {
    let t = &c.tree;
    writeln!(
        out,
        "# counterexample: tree with {} states and {} transitions, reactive: {}, checked: {checked}, \
         not simulated by the specification (reference simulation)",
        t.num_states(),
        t.num_transitions(),
        if max_transitions_per_action(t) <= 1 { "yes" } else { "no" }
    )
    .map_err(io)?;
    let names = unique_names(t);
    for (s, name) in names.iter().enumerate() {
        writeln!(out, "# {} -> {}", name, sys.state_name(c.mapping[s])).map_err(io)?;
    }
    write!(out, "{}", write_lpts(t)).map_err(io)
}

fn write_dot(path: &Path, c: &crate::cex::Counterexample, sys: &Lpts) -> Result<(), CliError> {
    let dot = to_dot_with(&c.tree, "counterexample", &|s| {
        Some(sys.state_name(c.mapping[s]).to_string())
    });
    std::fs::write(path, dot).map_err(|e| CliError::Usage(format!("{}: {e}", path.display())))
}

/// `cove prob verify --component A.prism --component B.prism --spec P.lpts [--method …]`.
#[derive(clap::Args, Debug, Clone)]
pub struct VerifyArgs {
    /// A component (`.lpts` or PRISM); repeat for each, in composition order.
    #[arg(long = "component", required = true, value_name = "FILE")]
    pub components: Vec<PathBuf>,
    /// The specification (`.lpts` or PRISM).
    #[arg(long, value_name = "FILE")]
    pub spec: PathBuf,
    /// mono: compose and check; agar: rule ASYM, assumption for the composition of all but
    /// the first component refined from counterexamples; agar-n: rule ASYM-N, one
    /// assumption per component; learn: rule ASYM with a learned assumption.
    #[arg(long, value_enum, default_value_t = Method::Mono)]
    pub method: Method,
    /// Set a PRISM constant, e.g. `--const N=3` (repeatable).
    #[arg(long = "const", value_name = "NAME=VALUE")]
    pub constants: Vec<String>,
    /// Write the counterexample tree (if any) as Graphviz DOT to this file.
    #[arg(long, value_name = "FILE")]
    pub dot: Option<PathBuf>,
    /// Give up when a composed LPTS exceeds this many states.
    #[arg(long, default_value_t = 2_000_000)]
    pub max_states: usize,
    /// Time limit in seconds (checked between refinement/learning iterations).
    #[arg(long, default_value_t = 3600)]
    pub time_limit: u64,
    /// Give up with `unknown` when the resident memory exceeds this many MiB (polled during
    /// simulation checks and between iterations).
    #[arg(long, value_name = "MB")]
    pub memory_mb: Option<u64>,
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
    #[arg(long, value_enum, default_value_t = FindConsistent::Mapped)]
    pub find_consistent: FindConsistent,
    /// AGAR/AGAR-N refinement: `full` (Fig. 6.2: split the node's and its children's
    /// classes) or `coarse` (the children's first, the node's only if that splits nothing).
    #[arg(long, value_enum, default_value_t = Refinement::Full)]
    pub refine: Refinement,
    /// `--method learn`: positive samples with every move the conjecture lacks at each node
    /// until the first negative sample (`rich`), or always the ordinary counterexample
    /// (`plain`).
    #[arg(long, value_enum, default_value_t = Positives::Rich)]
    pub positives: Positives,
}

/// Checks `C1 ∥ … ∥ Cn ⪯ SPEC`; prints the verdict, a checked counterexample if it fails,
/// and statistics (time, peak memory, largest composed LPTS, largest assumption, iterations).
pub fn verify(args: &VerifyArgs, out: &mut impl Write) -> Result<u8, CliError> {
    let start = Instant::now();
    let mut comps = Vec::new();
    for p in &args.components {
        let l = load_model(p, &args.constants, false)?;
        if args.verbose && args.format == Format::Text {
            writeln!(
                out,
                "# loaded {}: {} states, {} transitions",
                p.display(),
                l.num_states(),
                l.num_transitions()
            )
            .map_err(io)?;
        }
        comps.push(l);
    }
    let spec = load_model(&args.spec, &args.constants, false)?;
    if args.verbose && args.format == Format::Text {
        writeln!(
            out,
            "# spec {}: {} states; method {}",
            args.spec.display(),
            spec.num_states(),
            args.method.name()
        )
        .map_err(io)?;
    }
    let lim = args.max_states;
    let deadline = Some(start + Duration::from_secs(args.time_limit));
    let budget = Budget {
        max_states: lim,
        max_tree_nodes: 1_000_000,
        deadline,
        memory_mb: args.memory_mb,
    };
    let mut prof = LearnProfile::default();
    let res: Result<(Verdict, crate::agar::Stats), AgarError> = match args.method {
        Method::Mono => mono(&comps, &spec, &budget),
        Method::AgarN => agar_n_with(&comps, &spec, &budget, args.refine),
        Method::Agar | Method::Learn => {
            if comps.len() < 2 {
                return Err(CliError::Usage(format!(
                    "--method {} needs at least two components",
                    args.method.name()
                )));
            }
            let mut s = crate::agar::Stats::default();
            compose_all(&comps[1..], lim, &mut s).and_then(|rest| {
                let (v, mut st) = if args.method == Method::Agar {
                    agar_with(&comps[0], &rest, &spec, &budget, args.refine)?
                } else {
                    let opts = LearnOptions {
                        find: args.find_consistent,
                        budget: budget.clone(),
                        max_iterations: 100_000,
                        trace: args.verbose,
                        positives: args.positives,
                        ..LearnOptions::default()
                    };
                    learn_asym_with(&comps[0], &rest, &spec, &opts, &mut prof).map_err(
                        |e| match e {
                            LearnError::TimeLimit | LearnError::IterationLimit(_) => {
                                AgarError::TimeLimit
                            }
                            LearnError::MemoryLimit => AgarError::MemoryLimit,
                            LearnError::TooLarge(t) => AgarError::TooLarge(t),
                            LearnError::Cex(c) => AgarError::Cex(c),
                            other => {
                                AgarError::Cex(crate::cex::CexError::Invalid(other.to_string()))
                            }
                        },
                    )?
                };
                st.largest_composed = st.largest_composed.max(s.largest_composed);
                Ok((v, st))
            })
        }
    };
    let (verdict, stats) = match res {
        Ok(x) => x,
        Err(e @ (AgarError::TimeLimit | AgarError::MemoryLimit | AgarError::TooLarge(_))) => {
            if args.format == Format::Json {
                let mut obj = serde_json::json!({
                    "verdict": "unknown",
                    "reason": e.to_string(),
                    "method": args.method.name(),
                    "total_time": start.elapsed().as_secs_f64(),
                    "peak_memory_mb": bench::peak_kib().map(|k| k as f64 / 1024.0),
                });
                if args.method == Method::Learn {
                    obj["learn"] = learn_json(&prof, args.find_consistent);
                }
                writeln!(out, "{obj}").map_err(io)?;
                return Ok(0);
            }
            let mem =
                bench::peak_kib().map_or("-".into(), |k| format!("{:.1} MB", k as f64 / 1024.0));
            writeln!(out, "unknown ({e})").map_err(io)?;
            writeln!(
                out,
                "# stats: method {}, total {:.3} s, peak memory {mem}",
                args.method.name(),
                start.elapsed().as_secs_f64()
            )
            .map_err(io)?;
            if args.method == Method::Learn {
                print_learn(out, &prof, args.find_consistent)?;
            }
            return Ok(0);
        }
        Err(e) => return Err(CliError::Internal(e.to_string())),
    };
    let json = args.format == Format::Json;
    let mut obj = serde_json::json!({ "method": args.method.name() });
    match &verdict {
        Verdict::Holds => {
            obj["verdict"] = "holds".into();
            if !json {
                writeln!(out, "holds").map_err(io)?;
            }
        }
        Verdict::Fails(f) => {
            check_execution_mapping(&f.cex, &f.system).map_err(CliError::CexCheck)?;
            if naive_simulation(&f.cex.tree, &spec).contains(f.cex.tree.initial(), spec.initial()) {
                return Err(CliError::CexCheck(
                    "the specification simulates the counterexample".into(),
                ));
            }
            // AGAR's and learning's trees map into `L1 ∥ A` (an abstraction): re-check them
            // on the concrete composition when it can be built.
            let checked = if matches!(args.method, Method::Mono) {
                "simulated by the composition (execution mapping)".to_string()
            } else {
                let mut s = crate::agar::Stats::default();
                match compose_all(&comps, lim, &mut s) {
                    Ok(full) => {
                        if !crate::sim::simulates(&f.cex.tree, &full) {
                            return Err(CliError::CexCheck(
                                "the concrete composition does not simulate the counterexample"
                                    .into(),
                            ));
                        }
                        format!(
                            "simulated by the concrete composition ({} states; the mapping below is into the \
                             abstraction L1 || A)",
                            full.num_states()
                        )
                    }
                    Err(_) => "simulated by the abstraction L1 || A (execution mapping below); the concrete \
                               composition is too large to re-check"
                        .to_string(),
                }
            };
            obj["verdict"] = "fails".into();
            obj["cex"] = cex_json(&f.cex, &f.system, &checked);
            if !json {
                writeln!(out, "fails").map_err(io)?;
                print_cex(out, &f.cex, &f.system, &checked)?;
            }
            if let Some(p) = &args.dot {
                write_dot(p, &f.cex, &f.system)?;
            }
        }
    }
    if json {
        obj["time"] = stats.time.as_secs_f64().into();
        obj["total_time"] = start.elapsed().as_secs_f64().into();
        obj["peak_memory_mb"] = bench::peak_kib().map(|k| k as f64 / 1024.0).into();
        obj["largest_composed"] = stats.largest_composed.into();
        obj["largest_assumption"] = stats.largest_assumption.into();
        obj["iterations"] = stats.iterations.into();
        if args.method == Method::Learn {
            obj["learn"] = learn_json(&prof, args.find_consistent);
        }
        writeln!(out, "{obj}").map_err(io)?;
        return Ok(0);
    }
    let mem = bench::peak_kib().map_or("-".into(), |k| format!("{:.1} MB", k as f64 / 1024.0));
    writeln!(
        out,
        "# stats: method {}, time {:.3} s (total {:.3} s), peak memory {mem}, largest composed LPTS {} states, \
         largest assumption {} states, iterations {}",
        args.method.name(),
        stats.time.as_secs_f64(),
        start.elapsed().as_secs_f64(),
        stats.largest_composed,
        stats.largest_assumption,
        stats.iterations
    )
    .map_err(io)?;
    if args.method == Method::Learn {
        print_learn(out, &prof, args.find_consistent)?;
    }
    Ok(0)
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

fn print_learn(
    out: &mut impl Write,
    p: &LearnProfile,
    find: FindConsistent,
) -> Result<(), CliError> {
    writeln!(
        out,
        "# learn ({}): {} iterations, last conjecture {} states, {p}",
        find.name(),
        p.iterations,
        p.last_conjecture,
    )
    .map_err(io)
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
    #[arg(long, value_enum, value_delimiter = ',')]
    pub methods: Vec<Method>,
    /// Run learning only up to this n (it is exponential).
    #[arg(long, default_value_t = 2)]
    pub learn_max_n: usize,
    /// Time limit per learning run, in seconds.
    #[arg(long, default_value_t = 20)]
    pub learn_time: u64,
    /// Write the benchmark models (PRISM components, spec as .lpts) into this directory
    /// instead of running them.
    #[arg(long, value_name = "DIR")]
    pub write_models: Option<PathBuf>,
    /// Only these families (`cs1`, `csn`, `mer`, `sn`; default: all).
    #[arg(long, value_delimiter = ',', value_name = "NAME")]
    pub families: Vec<String>,
    /// Time limit per mono/agar/agar-n run, in seconds.
    #[arg(long, default_value_t = 60)]
    pub time_limit: u64,
    /// FINDCONSISTENT of the learner (`mapped`, `partition` or `stochastic`).
    #[arg(long, value_enum, default_value_t = FindConsistent::Mapped)]
    pub find_consistent: FindConsistent,
    /// AGAR/AGAR-N refinement (`full` or `coarse`).
    #[arg(long, value_enum, default_value_t = Refinement::Full)]
    pub refine: Refinement,
}

/// Prints the Table 6.1/6.2-shaped table, one row per instance and method, with progress.
pub fn bench(args: &BenchArgs, out: &mut impl Write) -> Result<u8, CliError> {
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
    if !args.families.is_empty() {
        for f in &args.families {
            if !Family::ALL.iter().any(|x| x.name().eq_ignore_ascii_case(f)) {
                return Err(CliError::Usage(format!(
                    "unknown family `{f}` (cs1, csn, mer, sn)"
                )));
            }
        }
        plan.families.retain(|(fam, _)| {
            args.families
                .iter()
                .any(|f| fam.name().eq_ignore_ascii_case(f))
        });
    }
    plan.learn_max_n = args.learn_max_n;
    plan.limits.learn_time = Duration::from_secs(args.learn_time);
    plan.limits.run_time = Duration::from_secs(args.time_limit);
    plan.limits.find = args.find_consistent;
    plan.limits.refine = args.refine;
    if let Some(dir) = &args.write_models {
        return write_models(dir, &plan, out);
    }
    write!(out, "{}", bench::header()).map_err(io)?;
    let mut werr = None;
    let rows = bench::run_plan(&plan, &mut |r| {
        if let Err(e) = write!(out, "{}", bench::format_row(r)).and_then(|_| out.flush()) {
            werr = Some(e);
        }
    })
    .map_err(|e| CliError::Internal(format!("benchmark model: {e}")))?;
    if let Some(e) = werr {
        return Err(io(e));
    }
    let table = bench::format_table(&rows);
    let summary = table.split_once("\nFastest").map_or("", |x| x.1);
    write!(out, "\nFastest{summary}").map_err(io)?;
    if rows.iter().any(|r| !r.result.ok) {
        return Err(CliError::CexCheck(
            "some verdict or counterexample was wrong (see WRONG/BADCEX rows)".into(),
        ));
    }
    Ok(0)
}

fn write_models(dir: &Path, plan: &Plan, out: &mut impl Write) -> Result<u8, CliError> {
    let err = |e: std::io::Error| CliError::Usage(format!("{}: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(err)?;
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
                    .map_err(|e| CliError::Internal(format!("{}: {e}", inst.name)))?;
                std::fs::write(dir.join(format!("{base}.l1.prism")), &inst.l1).map_err(err)?;
                std::fs::write(dir.join(format!("{base}.l2.prism")), &inst.l2).map_err(err)?;
                std::fs::write(dir.join(format!("{base}.spec.lpts")), write_lpts(&spec))
                    .map_err(err)?;
                writeln!(
                    out,
                    "{base}: expected {}",
                    if inst.expect_holds { "holds" } else { "fails" }
                )
                .map_err(io)?;
            }
        }
    }
    Ok(0)
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
}

/// Builds a model and writes it in another format (e.g. DRN, to cross-check with Storm).
pub fn export(args: &ExportArgs, out: &mut impl Write) -> Result<u8, CliError> {
    let l = load_model(&args.model, &args.constants, !args.component)?;
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
        ExportFormat::Drn => crate::drn::write_drn(&l),
        ExportFormat::Dot => crate::dot::to_dot(&l, "model"),
    };
    match &args.output {
        Some(p) => {
            std::fs::write(p, text).map_err(|e| CliError::Usage(format!("{}: {e}", p.display())))?
        }
        None => out.write_all(text.as_bytes()).map_err(io)?,
    }
    Ok(0)
}
