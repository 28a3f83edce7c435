//! `cove solve FILE.aig|FILE.aag`: hardware model checking (cove-aig), HWMCC witness output.
//!
//! Kept apart from `solve.rs` so that the CHC path and this one evolve independently; the
//! only hook is the dispatch at the top of `solve::solve`.

use crate::solve::{Format, SolveArgs};
use crate::{EXIT_BAD_INPUT, EXIT_CERT_FAILED, EXIT_OK, EXIT_USAGE, ExitCodeOf, read_input};
use cove_aig::solve::EngineKind;
use cove_aig::{Control, SafeProof, UnknownReason, Verdict};
use std::path::Path;
use std::time::Instant;

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

/// Runs `cove solve` on an AIGER file: prints the HWMCC witness (`1`/`0`/`2` …).
pub fn solve(args: &SolveArgs) -> Result<u8, ExitCodeOf> {
    let start = Instant::now();
    // The CHC default engine name means "the default" here too: the portfolio.
    let engine = if args.engine == "spacer" || args.engine == "portfolio" {
        Some(EngineKind::Portfolio)
    } else {
        EngineKind::parse(&args.engine)
    };
    let Some(engine) = engine else {
        eprintln!(
            "error: unknown AIGER engine '{}' (available: {})",
            args.engine,
            EngineKind::NAMES.join(", ")
        );
        return Err(ExitCodeOf(EXIT_USAGE));
    };
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
    let opts = cove_aig::reduce::Options {
        merge_inputs: !args.no_merge_inputs,
    };
    let mut verdict = cove_aig::solve::check_opts(&aig, engine, args.threads, &opts, &ctl);
    if let (Some(path), Verdict::Safe(proof)) = (&args.certificate, &verdict)
        && let Err(e) = write_certificate(path, &args.file, &src, proof, &ctl)
    {
        // No certificate file is left behind for an answer that is not printed.
        let _ = std::fs::remove_file(path);
        verdict = Verdict::Unknown(match ctl.should_stop() {
            Some(r) => r,
            None => UnknownReason::Incomplete(format!("certificate failed: {e}")),
        });
    }
    let cert_failed =
        matches!(&verdict, Verdict::Unknown(UnknownReason::Incomplete(s)) if s.contains("failed"));
    let word = match &verdict {
        Verdict::Unsafe(_) => "unsafe",
        Verdict::Safe(_) => "safe",
        Verdict::Unknown(_) => "unknown",
    };
    match args.format {
        Format::Text => crate::limits::write_answer(&cove_aig::witness::format_verdict(&verdict)),
        Format::Json => crate::limits::write_answer(&format!(
            "{}\n",
            serde_json::json!({
                "verdict": word,
                "witness": cove_aig::witness::format_verdict(&verdict),
                "time": start.elapsed().as_secs_f64(),
            })
        )),
    }
    if let Verdict::Unknown(r) = &verdict
        && (args.verbose > 0 || cert_failed)
    {
        eprintln!("reason: {r}");
    }
    if args.stats {
        eprintln!("engine: {engine:?}");
        eprintln!("verdict: {word}");
        eprintln!("time-total: {:.3}", start.elapsed().as_secs_f64());
        match &verdict {
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
    Ok(if cert_failed {
        EXIT_CERT_FAILED
    } else {
        EXIT_OK
    })
}

/// Writes the witness circuit of `proof` to `path` (binary AIGER for `.aig`, ASCII otherwise),
/// then reads the file back and runs the five witness checks against the model as read from
/// `src`, so a certificate that is printed about has been checked as written.
fn write_certificate(
    path: &Path,
    model_path: &Path,
    src: &[u8],
    proof: &SafeProof,
    ctl: &Control,
) -> Result<(), String> {
    let model = cove_aig::parse_aiger(src).map_err(|e| e.to_string())?;
    let w = cove_aig::certificate::witness_circuit(&model, proof);
    let binary = path.extension().and_then(|e| e.to_str()) == Some("aig");
    let name = model_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bytes = cove_aig::certificate::write_witness(&w, binary, &name);
    std::fs::write(path, &bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let back =
        std::fs::read(path).map_err(|e| format!("cannot read back {}: {e}", path.display()))?;
    let back = cove_aig::parse_aiger(&back).map_err(|e| format!("written file: {e}"))?;
    cove_aig::certcheck::check_witness(&model, &back, ctl)
}
