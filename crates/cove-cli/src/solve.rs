//! `cove solve` and `cove check`: parse arguments, call the library (the facade's
//! [`cove::solve_file()`], the checker), print.

use crate::limits::LimitArgs;
use crate::solve_args::{Format, SolveArgs};
use crate::{EXIT_BAD_INPUT, EXIT_CERT_FAILED, EXIT_OK, ExitCodeOf, read_input};
use clap::Args;
use cove::{FileAnswer, FileError};
use cove_chc::driver;
use cove_chc::frontend::parse_queries;
use cove_chc::witness::{parse_derivation, parse_model};
use cove_chc::{ChcSystem, cert};
use cove_logic::TermStore;
use serde_json::json;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

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

/// How answers are printed.
pub struct Output {
    /// Text (the language's own answer format) or one JSON object per answer.
    pub format: Format,
    /// Statistics (stderr in text mode, a `stats` object in JSON).
    pub stats: bool,
    /// `-v`: the reason of an `unknown` on stderr.
    pub verbose: u8,
}

/// Runs `cove solve`: one answer per question of the file, in order.
pub fn solve(args: &SolveArgs) -> Result<u8, ExitCodeOf> {
    let config = args.file_config()?;
    let output = Output {
        format: args.format,
        stats: args.stats,
        verbose: args.verbose,
    };
    run_file(&args.file, &config, &args.limits, &output)
}

/// Solves `path` through the facade ([`cove::solve_file()`]: one answer per question within
/// the limit) and prints each answer as it comes; the exit code follows the certificate
/// checks.
pub fn run_file(
    path: &Path,
    config: &cove::FileConfig,
    limits: &LimitArgs,
    output: &Output,
) -> Result<u8, ExitCodeOf> {
    let json = output.format == Format::Json;
    crate::limits::JSON_OUTPUT.store(json, std::sync::atomic::Ordering::Relaxed);
    // The last-resort answer on memory exhaustion, in the language's convention as far as
    // the name tells (the facade looks inside the file, which may block: a pipe).
    let guess = config
        .format
        .unwrap_or_else(|| cove::InputFormat::sniff(path, b""));
    crate::limits::set_unknown_text(guess.unknown_text());
    // No process watchdog: the facade keeps the clock and answers for a phase that overruns.
    let ctl = limits.control_without_watchdog(output.verbose as u32);
    let mut code = EXIT_OK;
    // The previous answer is dropped when the next one comes; the last one is left to the
    // operating system. Dropping a run's term stores took over 0.1 s of wall time under
    // load, time the answer does not need.
    let mut last = None;
    let solved = cove::solve_file(path, config, &ctl, |a| {
        if a.certificate_failed {
            code = EXIT_CERT_FAILED;
        }
        print_answer(output, &a);
        if a.overran {
            eprintln!(
                "cove: time limit reached; a phase did not stop in time (please report this input)"
            );
        }
        last = Some(a);
    });
    std::mem::forget(last);
    match solved {
        Ok(_) => Ok(code),
        Err(FileError::Input(m)) => {
            eprintln!("{m}");
            Err(ExitCodeOf(EXIT_BAD_INPUT))
        }
        Err(FileError::Io(m) | FileError::Config(m)) => Err(crate::usage_error(m)),
    }
}

/// Prints one answer (built in memory first and written at once, so an emergency exit on
/// memory exhaustion never leaves half an answer behind).
fn print_answer(output: &Output, a: &FileAnswer) {
    let mut err = String::new();
    let text = match output.format {
        Format::Text => {
            if let Some(r) = &a.reason
                && (output.verbose > 0 || a.certificate_failed)
            {
                let _ = writeln!(err, "reason: {r}");
            }
            if output.stats {
                let _ = writeln!(err, "engine: {}", a.engine);
                let _ = writeln!(err, "verdict: {}", a.verdict);
                let _ = writeln!(err, "time-total: {:.3}", a.time.as_secs_f64());
                if let Some(b) = cove_control::memory::peak_counted_bytes() {
                    // The largest heap, what `--memory-mb` limits; the resident size can
                    // be larger (freed memory the allocator keeps).
                    let _ = writeln!(err, "heap-peak-mb: {:.1}", b as f64 / (1 << 20) as f64);
                }
                let _ = writeln!(err, "validation: {}", a.validation);
                for (k, v) in &a.stats {
                    let _ = writeln!(err, "{k}: {v}");
                }
            }
            a.text.clone()
        }
        Format::Json => {
            let mut obj = json!({
                "verdict": a.verdict,
                "engine": a.engine,
                "time": a.time.as_secs_f64(),
                "validation": a.validation,
            });
            if let Some(w) = &a.witness {
                let key = match (a.format, a.safety) {
                    (cove::InputFormat::Chc, cove::Safety::Safe) => "model",
                    (cove::InputFormat::Chc, _) => "cex",
                    _ => "witness",
                };
                obj[key] = json!(w);
            }
            if a.format == cove::InputFormat::Aiger {
                let props: Vec<_> = a
                    .properties
                    .iter()
                    .map(
                        |(name, s)| json!({"property": name, "verdict": a.format.verdict_word(*s)}),
                    )
                    .collect();
                obj["properties"] = json!(props);
            }
            if let Some(r) = &a.reason {
                obj["reason"] = json!(r);
            }
            if output.stats {
                obj["stats"] = a
                    .stats
                    .iter()
                    .map(|(k, v)| (k.clone(), json!(v)))
                    .collect::<serde_json::Map<_, _>>()
                    .into();
            }
            format!("{obj}\n")
        }
    };
    crate::limits::write_answer(&text);
    if !err.is_empty() {
        eprint!("{err}");
    }
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
