//! `cove solve` and `cove check`.

use crate::{EXIT_BAD_INPUT, EXIT_CERT_FAILED, EXIT_OK, ExitCodeOf, read_input};
use clap::{Args, ValueEnum};
use cove_chc::engines::EngineKind;
use cove_chc::witness::{parse_derivation, parse_invariants, print_derivation, print_invariants};
use cove_chc::{ChcResult, ChcSystem, Control, UnknownReason, cert};
use cove_logic::TermStore;
use serde_json::json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Output format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `sat`/`unsat`/`unknown` on the first line, then the requested witnesses.
    Text,
    /// One JSON object.
    Json,
}

/// Arguments of `cove solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The CHC file (SMT-LIB2 HORN or Z3 fixedpoint format), or `-` for standard input.
    pub file: PathBuf,
    /// Engine: spacer (default) or bmc.
    #[arg(long, default_value = "spacer")]
    pub engine: String,
    /// Wall-clock limit in seconds (0 = none). On expiry the answer is `unknown`.
    #[arg(long, default_value_t = 0.0)]
    pub timeout: f64,
    /// Print the invariants of a `sat` answer as SMT-LIB2 define-fun commands.
    #[arg(long)]
    pub model: bool,
    /// Print the counterexample of an `unsat` answer as a derivation tree.
    #[arg(long)]
    pub cex: bool,
    /// Print statistics (to stderr in text mode).
    #[arg(long)]
    pub stats: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Skip the independent certificate check of the answer (on by default).
    #[arg(long)]
    pub no_validate: bool,
    /// Spacer: use only may-summaries (GPDR-like ablation).
    #[arg(long)]
    pub may_only: bool,
    /// Spacer: choose the last uncovered body atom first (bottom-up query order).
    #[arg(long)]
    pub bottom_up: bool,
    /// Spacer: plain model substitution instead of model-based projection.
    #[arg(long)]
    pub no_mbp: bool,
    /// Solve the input as given, without preprocessing (simplification, reachability
    /// slicing, inlining, argument removal).
    #[arg(long)]
    pub no_preprocess: bool,
    /// Spacer: do not weaken blocked cubes (literal dropping only).
    #[arg(long)]
    pub no_weaken: bool,
    /// Spacer: do not replace blocked cubes by negated Farkas interpolants.
    #[arg(long)]
    pub no_farkas: bool,
    /// Spacer: no global generalization (lemma clusters replaced by their projection).
    #[arg(long)]
    pub no_global: bool,
    /// Progress messages on stderr.
    #[arg(short, long, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

/// Arguments of `cove check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The CHC file the witness is for.
    pub file: PathBuf,
    /// The witness: invariants (define-fun commands) or a derivation, as printed by
    /// `cove solve --model` / `--cex` (a leading sat/unsat line is allowed).
    #[arg(long)]
    pub witness: PathBuf,
    /// Time limit for the validity checks, in seconds (0 = none).
    #[arg(long, default_value_t = 0.0)]
    pub timeout: f64,
}

/// Parses a CHC file, printing `FILE:LINE:COL: error: …` on failure.
pub fn load_system(path: &std::path::Path, store: &mut TermStore) -> Result<ChcSystem, ExitCodeOf> {
    let src = read_input(path)?;
    cove_chc::frontend::parse_chc(&src, store).map_err(|e| {
        eprintln!("{}:{e}", path.display());
        ExitCodeOf(EXIT_BAD_INPUT)
    })
}

fn deadline(secs: f64) -> Option<Instant> {
    (secs > 0.0).then(|| Instant::now() + Duration::from_secs_f64(secs))
}

/// Runs `cove solve`.
pub fn solve(args: &SolveArgs) -> Result<u8, ExitCodeOf> {
    if crate::aiger::is_aiger(&args.file) {
        return crate::aiger::solve(args);
    }
    let start = Instant::now();
    let mut store = TermStore::new();
    let sys = load_system(&args.file, &mut store)?;
    let Some(kind) = EngineKind::parse(&args.engine) else {
        eprintln!(
            "error: unknown engine '{}' (available: {})",
            args.engine,
            EngineKind::NAMES.join(", ")
        );
        return Err(ExitCodeOf(crate::EXIT_USAGE));
    };
    let mut engine: Box<dyn cove_chc::Engine> = match kind {
        EngineKind::Spacer => Box::new(cove_chc::engines::spacer::Spacer::new(
            cove_chc::engines::spacer::SpacerConfig {
                may_only: args.may_only,
                bottom_up: args.bottom_up,
                use_mbp: !args.no_mbp,
                weaken: !args.no_weaken,
                farkas: !args.no_farkas,
                global: !args.no_global,
                ..Default::default()
            },
        )),
        other => other.create(),
    };
    let ctl = Control {
        deadline: deadline(args.timeout),
        verbosity: args.verbose as u32,
        ..Default::default()
    };
    // Preprocess, solve the smaller system, and translate the witness back: validation
    // below is always against the original system.
    let mut result = if args.no_preprocess {
        engine.solve(&mut store, &sys, &ctl)
    } else {
        let mut opts = cove_chc::preprocess::PreprocessOptions::default();
        if args.timeout > 0.0 {
            // Preprocessing may use at most a quarter of the time limit.
            opts.time_budget = opts
                .time_budget
                .min(Duration::from_secs_f64(args.timeout / 4.0));
        }
        cove_chc::preprocess::solve_preprocessed(&mut store, &sys, &opts, engine.as_mut(), &ctl)
    };
    let solve_time = start.elapsed();

    // Independent validation: a certificate that does not check is never printed as an answer.
    let mut validation = "skipped".to_string();
    if !args.no_validate {
        let limits = Control {
            deadline: Some(
                ctl.deadline
                    .map_or(Instant::now() + Duration::from_secs(60), |d| {
                        d.max(Instant::now() + Duration::from_secs(2))
                    }),
            ),
            ..Default::default()
        };
        let verdict = match &result {
            ChcResult::Sat(inv) => Some(cert::check_invariants(&mut store, &sys, inv, &limits)),
            ChcResult::Unsat(d) => Some(cert::check_derivation(&store, &sys, d)),
            ChcResult::Unknown(_) => None,
        };
        match verdict {
            Some(Ok(())) => validation = "valid".into(),
            Some(Err(e)) if !e.is_invalid() => {
                // Not refuted, but not confirmed in time either: the honest answer is unknown
                // (this is not a certificate failure).
                eprintln!(
                    "warning: the {} certificate could not be validated: {e}",
                    result.verdict()
                );
                validation = format!("undecided: {e}");
                result = ChcResult::Unknown(UnknownReason::Timeout);
            }
            Some(Err(e)) => {
                eprintln!(
                    "error: the {} certificate failed validation: {e}",
                    result.verdict()
                );
                validation = format!("failed: {e}");
                result = ChcResult::Unknown(UnknownReason::Incomplete(
                    "certificate failed validation".into(),
                ));
            }
            None => {}
        }
    }
    let cert_failed = validation.starts_with("failed");
    let total = start.elapsed();
    let stats = engine.stats();
    match args.format {
        Format::Text => {
            println!("{}", result.verdict());
            match &result {
                ChcResult::Sat(inv) if args.model => print!("{}", print_invariants(&store, inv)),
                ChcResult::Unsat(d) if args.cex => print!("{}", print_derivation(&store, &sys, d)),
                ChcResult::Unknown(r) if args.verbose > 0 => eprintln!("reason: {r}"),
                _ => {}
            }
            if args.stats {
                eprintln!("engine: {}", engine.name());
                eprintln!("time-solve: {:.3}", solve_time.as_secs_f64());
                eprintln!("time-total: {:.3}", total.as_secs_f64());
                eprintln!("validation: {validation}");
                for (k, v) in &stats {
                    eprintln!("{k}: {v}");
                }
            }
        }
        Format::Json => {
            let mut obj = json!({
                "verdict": result.verdict(),
                "engine": engine.name(),
                "time": total.as_secs_f64(),
                "validation": validation,
            });
            match &result {
                ChcResult::Sat(inv) if args.model => {
                    obj["model"] = json!(print_invariants(&store, inv))
                }
                ChcResult::Unsat(d) if args.cex => {
                    obj["cex"] = json!(print_derivation(&store, &sys, d))
                }
                ChcResult::Unknown(r) => obj["reason"] = json!(r.to_string()),
                _ => {}
            }
            if args.stats {
                obj["stats"] = stats
                    .iter()
                    .map(|(k, v)| (k.clone(), json!(v)))
                    .collect::<serde_json::Map<_, _>>()
                    .into();
            }
            println!("{obj}");
        }
    }
    Ok(if cert_failed {
        EXIT_CERT_FAILED
    } else {
        EXIT_OK
    })
}

/// Runs `cove check`.
pub fn check(args: &CheckArgs) -> Result<u8, ExitCodeOf> {
    let mut store = TermStore::new();
    let sys = load_system(&args.file, &mut store)?;
    let witness = read_input(&args.witness)?;
    let text = String::from_utf8_lossy(&witness);
    let first = text.split_whitespace().next().unwrap_or("");
    let is_derivation = first == "unsat" || text.contains("(derivation");
    let outcome = if is_derivation {
        match parse_derivation(&witness, &store, &sys) {
            Ok(d) => cert::check_derivation(&store, &sys, &d),
            Err(e) => {
                eprintln!("{}: error: {e}", args.witness.display());
                return Err(ExitCodeOf(EXIT_BAD_INPUT));
            }
        }
    } else {
        match parse_invariants(&witness, &mut store, &sys) {
            Ok(inv) => {
                let limits = cove_control::Control {
                    deadline: deadline(args.timeout),
                    ..Default::default()
                };
                cert::check_invariants(&mut store, &sys, &inv, &limits)
            }
            Err(e) => {
                eprintln!("{}:{e}", args.witness.display());
                return Err(ExitCodeOf(EXIT_BAD_INPUT));
            }
        }
    };
    match outcome {
        Ok(()) => {
            println!("valid");
            Ok(EXIT_OK)
        }
        Err(e) if !e.is_invalid() => {
            // Neither accepted nor refuted within the limits.
            println!("unknown");
            eprintln!("{e}");
            Ok(EXIT_OK)
        }
        Err(e) => {
            println!("invalid");
            eprintln!("{e}");
            Ok(EXIT_CERT_FAILED)
        }
    }
}
