//! `cove solve` and `cove check`: parse arguments, call the library's driver, print.

use crate::limits::LimitArgs;
use crate::solve_args::{Format, SolveArgs};
use crate::{EXIT_BAD_INPUT, EXIT_CERT_FAILED, EXIT_OK, EXIT_USAGE, ExitCodeOf, read_input};
use clap::Args;
use cove_chc::driver::{self, Outcome, Validation};
use cove_chc::frontend::{ErrorKind, Query, parse_queries};
use cove_chc::witness::{parse_derivation, parse_model, print_derivation, print_invariants};
use cove_chc::{ChcResult, ChcSystem, UnknownReason, cert};
use cove_logic::TermStore;
use serde_json::json;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Arguments of `cove check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The CHC file the witness is for.
    pub file: PathBuf,
    /// The witness: invariants (define-fun commands) or a derivation, as printed by
    /// `cove solve --model` / `--cex` (a leading sat/unsat line is allowed).
    #[arg(long)]
    pub witness: PathBuf,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// `-vv`: the time and search effort of each clause's validity check on stderr.
    #[arg(short, long, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

/// Parses a CHC file with one question and no constants (`cove check`, `cove unroll`),
/// printing `FILE:LINE:COL: error: …` on failure.
pub fn load_system(path: &std::path::Path, store: &mut TermStore) -> Result<ChcSystem, ExitCodeOf> {
    let src = read_input(path)?;
    cove_chc::frontend::parse_chc(&src, store).map_err(|e| {
        eprintln!("{}:{e}", path.display());
        ExitCodeOf(EXIT_BAD_INPUT)
    })
}

/// Runs `cove solve`: one answer per question of the file, in order.
pub fn solve(args: &SolveArgs) -> Result<u8, ExitCodeOf> {
    crate::limits::JSON_OUTPUT.store(
        args.format == Format::Json,
        std::sync::atomic::Ordering::Relaxed,
    );
    // The facade decides the input's language (`cove::InputFormat`).
    let format = cove::InputFormat::of_file(&args.file);
    if format.is_hardware() {
        let chc_flags = args.spacer_flags_given();
        let flag = chc_flags
            .first()
            .copied()
            .or(args.abs_variant.is_some().then_some("--abs-variant"));
        if let Some(flag) = flag {
            eprintln!("error: {flag} applies to CHC input (Spacer), not to circuits");
            return Err(ExitCodeOf(EXIT_USAGE));
        }
    }
    match format {
        cove::InputFormat::Btor2 => return crate::btor2::solve(args),
        cove::InputFormat::Aiger => return crate::aiger::solve(args),
        cove::InputFormat::Chc => {}
    }
    if args.certificate.is_some() {
        eprintln!("error: --certificate applies to AIGER input (use --model for CHC invariants)");
        return Err(ExitCodeOf(EXIT_USAGE));
    }
    let cfg = args.config()?;
    *crate::limits::OWED
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = 1;
    let ctl = args.limits.control(args.verbose as u32);
    let src = read_input(&args.file)?;
    let mut store = TermStore::new();
    let queries = match parse_queries(&src, &mut store, &ctl) {
        Ok(q) => q,
        Err(e) if e.kind == ErrorKind::Limit => {
            // The limit was reached while reading: an honest answer, not an input error.
            let reason = ctl.should_stop().unwrap_or(UnknownReason::Timeout);
            let mut out = Outcome::unknown(store, reason, driver::Phase::Parsing);
            out.engine = "none".into();
            print_outcome(args, None, &out);
            return Ok(EXIT_OK);
        }
        Err(e) => {
            eprintln!("{}:{e}", args.file.display());
            return Err(ExitCodeOf(EXIT_BAD_INPUT));
        }
    };
    *crate::limits::OWED
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = queries.len();
    let mut code = EXIT_OK;
    for (i, q) in queries.iter().enumerate() {
        let out = driver::solve(&store, q, &cfg, &ctl);
        if matches!(out.validation, Validation::Failed(_)) {
            code = EXIT_CERT_FAILED;
        }
        print_outcome(args, Some(q), &out);
        if i + 1 == queries.len() {
            // Every answer is out: the run's term stores are not torn down piece by piece
            // but left to the operating system. Dropping them took over 0.1 s of wall time
            // under load, enough to run past the watchdog's slack after a check that used
            // its whole grace period (and then "a phase did not stop in time" was printed
            // for an answer that was already given).
            std::mem::forget(out);
        }
    }
    std::mem::forget(store);
    std::mem::forget(queries);
    Ok(code)
}

/// Prints one answer (built in memory first and written at once, so an emergency exit on
/// memory exhaustion never leaves half an answer behind).
fn print_outcome(args: &SolveArgs, q: Option<&Query>, out: &Outcome) {
    let st = &out.store;
    let witness = match (&out.answer, q) {
        (ChcResult::Sat(inv), _) if args.model => {
            let mut s = String::new();
            for (k, v) in &out.constants {
                let _ = writeln!(
                    s,
                    "(define-fun {} () {} {})",
                    cove_logic::print::symbol(st.var_name(*k)),
                    st.var_sort(*k),
                    cove_chc::witness::value_text(v, st.var_sort(*k))
                );
            }
            s.push_str(&print_invariants(st, inv));
            Some(s)
        }
        (ChcResult::Unsat(d), Some(q)) if args.cex => {
            Some(print_derivation(st, &ground_system(out, q), d))
        }
        _ => None,
    };
    let reason = match (&out.answer, out.phase) {
        (ChcResult::Unknown(r), Some(p)) => Some(format!("{r} (in {p})")),
        (ChcResult::Unknown(r), None) => Some(r.to_string()),
        _ => None,
    };
    let mut text = String::new();
    let mut err = String::new();
    match args.format {
        Format::Text => {
            let _ = writeln!(text, "{}", out.answer.verdict());
            if let Some(w) = &witness {
                text.push_str(w);
            }
            if let Some(r) = &reason
                && args.verbose > 0
            {
                let _ = writeln!(err, "reason: {r}");
            }
            if args.stats {
                let _ = writeln!(err, "engine: {}", out.engine);
                let _ = writeln!(err, "time-total: {:.3}", out.time.as_secs_f64());
                let _ = writeln!(err, "validation: {}", out.validation);
                for (k, v) in &out.stats {
                    let _ = writeln!(err, "{k}: {v}");
                }
            }
        }
        Format::Json => {
            let mut obj = json!({
                "verdict": out.answer.verdict(),
                "engine": out.engine,
                "time": out.time.as_secs_f64(),
                "validation": out.validation.to_string(),
            });
            if let Some(w) = witness {
                let key = if matches!(out.answer, ChcResult::Sat(_)) {
                    "model"
                } else {
                    "cex"
                };
                obj[key] = json!(w);
            }
            if let Some(r) = reason {
                obj["reason"] = json!(r);
            }
            if args.stats {
                obj["stats"] = out
                    .stats
                    .iter()
                    .map(|(k, v)| (k.clone(), json!(v)))
                    .collect::<serde_json::Map<_, _>>()
                    .into();
            }
            let _ = writeln!(text, "{obj}");
        }
    }
    crate::limits::write_answer(&text);
    if !err.is_empty() {
        eprint!("{err}");
    }
}

/// The system a counterexample is printed against: the question's clauses, with the
/// constants' values substituted when it has constants.
fn ground_system(out: &Outcome, q: &Query) -> ChcSystem {
    if out.constants.is_empty() {
        return q.system.clone();
    }
    let mut sys = q.system.clone();
    let ks: Vec<_> = out.constants.iter().map(|(k, _)| *k).collect();
    for c in &mut sys.clauses {
        c.vars.retain(|v| !ks.contains(v));
    }
    sys
}

/// Runs `cove check`: one verdict line per question of the file (`valid`, `invalid` or
/// `unknown`), checking the witness's answers in order.
pub fn check(args: &CheckArgs) -> Result<u8, ExitCodeOf> {
    let ctl = args.limits.control(args.verbose as u32);
    let src = read_input(&args.file)?;
    let mut store = TermStore::new();
    let queries = parse_queries(&src, &mut store, &ctl).map_err(|e| {
        eprintln!("{}:{e}", args.file.display());
        ExitCodeOf(EXIT_BAD_INPUT)
    })?;
    let witness = read_input(&args.witness)?;
    let text = String::from_utf8_lossy(&witness);
    let answers = split_answers(&text);
    if answers.len() != queries.len() {
        eprintln!(
            "{}: error: the witness has {} answer(s), the file asks {} question(s)",
            args.witness.display(),
            answers.len(),
            queries.len()
        );
        return Err(ExitCodeOf(EXIT_BAD_INPUT));
    }
    let bad_witness = |e: String| {
        eprintln!("{}:{e}", args.witness.display());
        ExitCodeOf(EXIT_BAD_INPUT)
    };
    let mut code = EXIT_OK;
    for (q, (verdict, chunk)) in queries.iter().zip(&answers) {
        let checked = match verdict {
            Verdict::Unknown => Err(None),
            Verdict::Unsat if !q.constants.is_empty() => Err(None),
            Verdict::Unsat => {
                let d = parse_derivation(chunk.as_bytes(), &store, &q.system)
                    .map_err(|e| bad_witness(format!(" error: {e}")))?;
                cert::check_derivation(&store, &q.system, &d).map_err(Some)
            }
            Verdict::Sat => {
                let (inv, values) =
                    parse_model(chunk.as_bytes(), &mut store, &q.system, &q.constants)
                        .map_err(bad_witness)?;
                let ground =
                    driver::instantiate_constants(&mut store, &q.system, &q.constants, &values);
                cert::check_invariants(&mut store, &ground, &inv, &ctl).map_err(Some)
            }
        };
        match checked {
            Ok(()) => println!("valid"),
            Err(Some(e)) if e.is_invalid() => {
                println!("invalid");
                eprintln!("{e}");
                code = EXIT_CERT_FAILED;
            }
            Err(e) => {
                // Neither accepted nor refuted: limits, or nothing the witness can show.
                println!("unknown");
                match (e, verdict) {
                    (Some(e), _) => eprintln!("{e}"),
                    (None, Verdict::Unknown) => {
                        eprintln!("nothing to check: the answer is unknown")
                    }
                    (None, _) => eprintln!(
                        "a derivation shows a counterexample for one value of the declared \
                         constants; that every value has one is not part of the witness"
                    ),
                }
            }
        }
    }
    Ok(code)
}

/// The verdict line an answer starts with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Verdict {
    Sat,
    Unsat,
    Unknown,
}

/// Splits a witness into its answers: each starts at a line that is just `sat`, `unsat` or
/// `unknown` and runs to the next one. Every answer keeps the whole text's line and column
/// positions (the other answers are blanked out, newlines kept), so errors point into the
/// file. A witness without verdict lines is one answer: a derivation if it has one, else
/// invariants.
fn split_answers(text: &str) -> Vec<(Verdict, String)> {
    let verdict = |line: &str| match line.trim() {
        "sat" => Some(Verdict::Sat),
        "unsat" => Some(Verdict::Unsat),
        "unknown" => Some(Verdict::Unknown),
        _ => None,
    };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let starts: Vec<(usize, Verdict)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| verdict(l).map(|v| (i, v)))
        .collect();
    if starts.is_empty() {
        let v = if text.contains("(derivation") {
            Verdict::Unsat
        } else {
            Verdict::Sat
        };
        return vec![(v, text.to_string())];
    }
    let blank =
        |l: &str| -> String { l.chars().map(|c| if c == '\n' { c } else { ' ' }).collect() };
    starts
        .iter()
        .enumerate()
        .map(|(n, &(from, v))| {
            let to = starts.get(n + 1).map_or(lines.len(), |s| s.0);
            let chunk = lines
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    if i > from && i < to {
                        l.to_string()
                    } else {
                        blank(l)
                    }
                })
                .collect();
            (v, chunk)
        })
        .collect()
}
