//! `cove solve FILE.aig|FILE.aag`: hardware model checking, HWMCC witness output. Parses
//! the arguments, calls [`cove_aig::driver`] (where the policy lives: engines, portfolio,
//! certificate checks and files), prints; the exit code follows the typed validation.
//!
//! Kept apart from `solve.rs` so that the CHC path and this one evolve independently; the
//! only hook is the dispatch at the top of `solve::solve`.

use crate::limits::LimitArgs;
use crate::solve_args::{Format, SolveArgs};
use crate::{EXIT_BAD_INPUT, EXIT_CERT_FAILED, EXIT_OK, EXIT_USAGE, ExitCodeOf, read_input};
use clap::Args;
use cove_aig::driver::{EngineChoice, SolveConfig};
use cove_aig::{Control, SafeProof, Verdict};
use std::path::{Path, PathBuf};

/// Arguments of `cove hwmcc`: the hardware model checking competition's call convention.
#[derive(Args, Debug)]
pub struct HwmccArgs {
    /// The model: AIGER 1.9 (binary `.aig` or ASCII `.aag`).
    pub model: PathBuf,
    /// Where the evidence goes. Alone (the HWMCC'24 convention): the witness when a property
    /// fails, the certificate (a witness circuit, checkable with Certifaiger) when all hold.
    /// With CERT_UNSAT: the witness only.
    pub cert_sat: Option<PathBuf>,
    /// The certificate of the properties that hold (binary AIGER if the path ends in `.aig`,
    /// ASCII otherwise).
    pub cert_unsat: Option<PathBuf>,
    /// Engine: `portfolio` (the default) or one engine by name.
    #[arg(long, default_value = "portfolio")]
    pub engine: String,
    /// Portfolio threads (0 = one per available core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Progress messages on stderr.
    #[arg(short, long, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

/// What a hardware run asks for, from either command.
struct Request<'a> {
    file: &'a Path,
    engine: &'a str,
    threads: usize,
    merge_inputs: bool,
    lcorr: bool,
    certificate: Option<PathBuf>,
    witness: Option<PathBuf>,
    limits: &'a LimitArgs,
    verbose: u8,
    stats: bool,
    format: Format,
}

/// The hardware engine named `name` (the CHC default `spacer` means the default here too:
/// the portfolio, with `threads`); an unknown name is a usage error. Shared by the AIGER and
/// BTOR2 paths.
pub(crate) fn engine_config(name: &str, threads: usize) -> Result<EngineChoice, ExitCodeOf> {
    let known = if name == "spacer" { "portfolio" } else { name };
    let Some(mut engine) = EngineChoice::parse(known) else {
        eprintln!(
            "error: unknown hardware engine '{name}' (available: {})",
            EngineChoice::names().join(", ")
        );
        return Err(ExitCodeOf(EXIT_USAGE));
    };
    if let EngineChoice::Portfolio(p) = &mut engine {
        p.threads = threads;
    }
    Ok(engine)
}

/// The driver configuration `req` asks for (an unknown engine name is a usage error).
fn config(req: &Request) -> Result<SolveConfig, ExitCodeOf> {
    let engine = engine_config(req.engine, req.threads)?;
    Ok(SolveConfig {
        engine,
        reduce: cove_aig::reduce::Options {
            merge_inputs: req.merge_inputs,
            lcorr: req.lcorr,
        },
        certificate: req.certificate.clone(),
        model_name: req
            .file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        witness: req.witness.clone(),
    })
}

/// Runs `cove solve` on an AIGER file: prints the HWMCC witness (`1`/`0`/`2` …).
pub fn solve(args: &SolveArgs) -> Result<u8, ExitCodeOf> {
    run(&Request {
        file: &args.file,
        engine: &args.engine,
        threads: args.threads,
        merge_inputs: !args.no_merge_inputs,
        lcorr: args.latch_corr,
        certificate: args.certificate.clone(),
        witness: None,
        limits: &args.limits,
        verbose: args.verbose,
        stats: args.stats,
        format: args.format,
    })
}

/// Runs `cove hwmcc MODEL [CERT_SAT [CERT_UNSAT]]`: prints the HWMCC witnesses like `cove
/// solve` and writes the witness or certificate to the given paths.
pub fn hwmcc(args: &HwmccArgs) -> Result<u8, ExitCodeOf> {
    let (witness, certificate) = match (&args.cert_sat, &args.cert_unsat) {
        (Some(one), None) => (Some(one.clone()), Some(one.clone())),
        (sat, unsat) => (sat.clone(), unsat.clone()),
    };
    run(&Request {
        file: &args.model,
        engine: &args.engine,
        threads: args.threads,
        merge_inputs: true,
        lcorr: cove_aig::driver::DRIVER_OPTIONS.lcorr,
        certificate,
        witness,
        limits: &args.limits,
        verbose: args.verbose,
        stats: false,
        format: Format::Text,
    })
}

fn run(req: &Request) -> Result<u8, ExitCodeOf> {
    let cfg = config(req)?;
    let src = read_input(req.file)?;
    let aig = cove_aig::parse_aiger(&src).map_err(|e| {
        let kind = if e.unsupported {
            "unsupported"
        } else {
            "error"
        };
        eprintln!(
            "{}:{}:{}: {kind}: {}",
            req.file.display(),
            e.line,
            e.byte,
            e.msg
        );
        ExitCodeOf(EXIT_BAD_INPUT)
    })?;
    // One answer owed: if a phase overruns the limit, the watchdog prints `2` for it.
    crate::limits::HWMCC_OUTPUT.store(true, std::sync::atomic::Ordering::Relaxed);
    *crate::limits::OWED
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = 1;
    let ctl: Control = req.limits.control(req.verbose as u32);
    let out = cove_aig::driver::solve(&aig, &cfg, &ctl);
    let verdict = &out.verdict;
    let nb = aig.bad.len();
    let witness = if out.properties.len() > 1 || !aig.justice.is_empty() {
        cove_aig::hwmcc_output::format_properties_of(&out.properties, nb)
    } else {
        cove_aig::hwmcc_output::format_verdict(verdict)
    };
    match req.format {
        Format::Text => crate::limits::write_answer(&witness),
        Format::Json => {
            let props: Vec<_> = out
                .properties
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let name = cove_aig::hwmcc_output::property_name(i, nb);
                    serde_json::json!({"property": name, "verdict": word(v)})
                })
                .collect();
            crate::limits::write_answer(&format!(
                "{}\n",
                serde_json::json!({
                    "verdict": word(verdict),
                    "witness": witness,
                    "properties": props,
                    "time": out.time.as_secs_f64(),
                })
            ))
        }
    }
    let failed = out.validation.is_failed();
    if let Verdict::Unknown(r) = verdict
        && (req.verbose > 0 || failed)
    {
        eprintln!("reason: {r}");
    }
    if req.stats {
        eprintln!("engine: {}", cfg.engine.name());
        eprintln!("answered-by: {}", out.engine);
        eprintln!("verdict: {}", word(verdict));
        eprintln!("validation: {}", out.validation);
        eprintln!("time-total: {:.3}", out.time.as_secs_f64());
        match verdict {
            Verdict::Safe(SafeProof::Invariant(inv)) => {
                eprintln!("invariant-clauses: {}", inv.len())
            }
            Verdict::Safe(SafeProof::KInduction { k, aux }) => {
                eprintln!("k-induction-depth: {k}");
                eprintln!("aux-invariant-clauses: {}", aux.len());
            }
            _ => {}
        }
    }
    Ok(if failed { EXIT_CERT_FAILED } else { EXIT_OK })
}

fn word(v: &Verdict) -> &'static str {
    match v {
        Verdict::Unsafe(_) => "unsafe",
        Verdict::Safe(_) => "safe",
        Verdict::Unknown(_) => "unknown",
    }
}
