//! `cove solve FILE.aig|FILE.aag`: hardware model checking (cove-aig), HWMCC witness output.
//!
//! Kept apart from `solve.rs` so that the CHC path and this one evolve independently; the
//! only hook is the dispatch at the top of `solve::solve`.

use crate::solve::{Format, SolveArgs};
use crate::{EXIT_BAD_INPUT, EXIT_CERT_FAILED, EXIT_OK, EXIT_USAGE, ExitCodeOf, read_input};
use cove_aig::solve::EngineKind;
use cove_aig::{Control, UnknownReason, Verdict};
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
    let ctl: Control = args.limits.control(args.verbose as u32);
    let verdict = cove_aig::solve::check(&aig, engine, &ctl);
    let cert_failed =
        matches!(&verdict, Verdict::Unknown(UnknownReason::Incomplete(s)) if s.contains("failed"));
    let word = match &verdict {
        Verdict::Unsafe(_) => "unsafe",
        Verdict::Safe(_) => "safe",
        Verdict::Unknown(_) => "unknown",
    };
    match args.format {
        Format::Text => print!("{}", cove_aig::witness::format_verdict(&verdict)),
        Format::Json => println!(
            "{}",
            serde_json::json!({
                "verdict": word,
                "witness": cove_aig::witness::format_verdict(&verdict),
                "time": start.elapsed().as_secs_f64(),
            })
        ),
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
        if let Verdict::Safe(Some(inv)) = &verdict {
            eprintln!("invariant-clauses: {}", inv.len());
        }
    }
    Ok(if cert_failed {
        EXIT_CERT_FAILED
    } else {
        EXIT_OK
    })
}
