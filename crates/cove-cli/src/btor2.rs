//! `cove solve FILE.btor2`: word-level hardware model checking (BTOR2), bit-blasted onto the
//! AIG engines of cove-aig; BTOR2 witness output.
//!
//! Output: a reachable bad state prints the BTOR2 witness (`sat`, `b<i>`, `#k`/`@k` frames
//! with binary values, `.`), checked by word-level simulation before it is printed; a proof
//! prints `unsat`, `b0`, `.` (its invariant checked on the bit-blasted circuit); no answer
//! prints `unknown`, `b0`, `.`. Exit codes are those of the AIGER path.

use crate::solve_args::{Format, SolveArgs};
use crate::{EXIT_BAD_INPUT, EXIT_CERT_FAILED, EXIT_OK, EXIT_USAGE, ExitCodeOf, read_input};
use cove_aig::btor2_blast::Btor2Verdict;
use cove_aig::driver::SolveConfig;
use cove_aig::{Control, SafeProof};
use std::time::Instant;

/// Runs `cove solve` on a BTOR2 file.
pub fn solve(args: &SolveArgs) -> Result<u8, ExitCodeOf> {
    let start = Instant::now();
    let engine = crate::aiger::engine_config(&args.engine, args.threads)?;
    if args.certificate.is_some() {
        eprintln!("error: --certificate applies to AIGER input");
        return Err(ExitCodeOf(EXIT_USAGE));
    }
    let src = read_input(&args.file)?;
    let model = cove_aig::btor2::parse_btor2(&src).map_err(|e| {
        let kind = if e.unsupported {
            "unsupported"
        } else {
            "error"
        };
        eprintln!(
            "{}:{}:{}: {kind}: {}",
            args.file.display(),
            e.line,
            e.col,
            e.msg
        );
        ExitCodeOf(EXIT_BAD_INPUT)
    })?;
    crate::limits::BTOR2_OUTPUT.store(true, std::sync::atomic::Ordering::Relaxed);
    *crate::limits::OWED
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = 1;
    let ctl: Control = args.limits.control(args.verbose as u32);
    let cfg = SolveConfig {
        engine,
        reduce: cove_aig::reduce::Options {
            merge_inputs: !args.no_merge_inputs,
            lcorr: args.latch_corr,
        },
        ..SolveConfig::default()
    };
    let (verdict, _, validation) = cove_aig::btor2_blast::check(&model, &cfg, &ctl);
    let cert_failed = validation.is_failed();
    let (word, text) = match &verdict {
        Btor2Verdict::Unsafe(_, text) => ("unsafe", text.clone()),
        Btor2Verdict::Safe(_) => ("safe", "unsat\nb0\n.\n".to_string()),
        Btor2Verdict::Unknown(_) => ("unknown", "unknown\nb0\n.\n".to_string()),
    };
    match args.format {
        Format::Text => crate::limits::write_answer(&text),
        Format::Json => crate::limits::write_answer(&format!(
            "{}\n",
            serde_json::json!({
                "verdict": word,
                "witness": text,
                "time": start.elapsed().as_secs_f64(),
            })
        )),
    }
    if let Btor2Verdict::Unknown(r) = &verdict
        && (args.verbose > 0 || cert_failed)
    {
        eprintln!("reason: {r}");
    }
    if args.stats {
        eprintln!("engine: {}", cfg.engine.name());
        eprintln!("verdict: {word}");
        eprintln!("time-total: {:.3}", start.elapsed().as_secs_f64());
        match &verdict {
            Btor2Verdict::Safe(SafeProof::Invariant(inv)) => {
                eprintln!("invariant-clauses: {}", inv.len())
            }
            Btor2Verdict::Safe(SafeProof::KInduction { k, aux }) => {
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
