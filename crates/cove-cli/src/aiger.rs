//! `cove solve FILE.aig|FILE.aag`: hardware model checking, HWMCC witness output. Parses
//! the arguments, calls [`cove_aig::driver`] (where the policy lives: engines, portfolio,
//! certificate checks and files), prints; the exit code follows the typed validation.
//!
//! Kept apart from `solve.rs` so that the CHC path and this one evolve independently; the
//! only hook is the dispatch at the top of `solve::solve`.

use crate::solve::{Format, SolveArgs};
use crate::{EXIT_BAD_INPUT, EXIT_CERT_FAILED, EXIT_OK, EXIT_USAGE, ExitCodeOf, read_input};
use cove_aig::driver::SolveConfig;
use cove_aig::{Control, EngineConfig, SafeProof, Verdict};
use std::path::Path;

/// Whether `path` is an AIGER file: by extension, or by its header.
pub fn is_aiger(path: &Path) -> bool {
    if matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("aig" | "aag")
    ) {
        return true;
    }
    if path.as_os_str() == "-" {
        return false;
    }
    let mut head = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut head))
        .is_ok()
        && (&head == b"aig " || &head == b"aag ")
}

/// The driver configuration `args` ask for (an unknown engine name is a usage error).
fn config(args: &SolveArgs) -> Result<SolveConfig, ExitCodeOf> {
    // The CHC default engine name means "the default" here too: the portfolio.
    let name = if args.engine == "spacer" {
        "portfolio"
    } else {
        args.engine.as_str()
    };
    let Some(mut engine) = EngineConfig::parse(name) else {
        eprintln!(
            "error: unknown AIGER engine '{}' (available: {})",
            args.engine,
            EngineConfig::NAMES.join(", ")
        );
        return Err(ExitCodeOf(EXIT_USAGE));
    };
    if let EngineConfig::Portfolio(p) = &mut engine {
        p.threads = args.threads;
    }
    Ok(SolveConfig {
        engine,
        reduce: cove_aig::reduce::Options {
            merge_inputs: !args.no_merge_inputs,
        },
        certificate: args.certificate.clone(),
        model_name: args
            .file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    })
}

/// Runs `cove solve` on an AIGER file: prints the HWMCC witness (`1`/`0`/`2` …).
pub fn solve(args: &SolveArgs) -> Result<u8, ExitCodeOf> {
    let cfg = config(args)?;
    let src = read_input(&args.file)?;
    let aig = cove_aig::parse_aiger(&src).map_err(|e| {
        let kind = if e.unsupported {
            "unsupported"
        } else {
            "error"
        };
        eprintln!(
            "{}:{}:{}: {kind}: {}",
            args.file.display(),
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
    let ctl: Control = args.limits.control(args.verbose as u32);
    let out = cove_aig::driver::solve(&aig, &cfg, &ctl);
    let verdict = &out.verdict;
    let word = match verdict {
        Verdict::Unsafe(_) => "unsafe",
        Verdict::Safe(_) => "safe",
        Verdict::Unknown(_) => "unknown",
    };
    let witness = cove_aig::hwmcc_output::format_verdict(verdict);
    match args.format {
        Format::Text => crate::limits::write_answer(&witness),
        Format::Json => crate::limits::write_answer(&format!(
            "{}\n",
            serde_json::json!({
                "verdict": word,
                "witness": witness,
                "time": out.time.as_secs_f64(),
            })
        )),
    }
    let failed = out.validation.is_failed();
    if let Verdict::Unknown(r) = verdict
        && (args.verbose > 0 || failed)
    {
        eprintln!("reason: {r}");
    }
    if args.stats {
        eprintln!("engine: {}", cfg.engine.name());
        eprintln!("answered-by: {}", out.engine);
        eprintln!("verdict: {word}");
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
