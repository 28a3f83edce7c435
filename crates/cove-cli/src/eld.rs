//! Eldarica's command line, as the Solidity compiler calls it: `cove eld ARGS`, or the
//! `cove` binary invoked under the name `eld` (a symlink or a copy on `PATH`).
//!
//! solc's SMTChecker (`--model-checker-engine chc --model-checker-solvers eld`) runs
//! `eld -hsmt -in -t:SECONDS [-ssol]` with the Horn query on standard input (releases
//! before 0.8.26: `eld -t:SECONDS [-ssol] QUERY_FILE`), reads standard output, takes the
//! first line as `sat` (safe), `unsat` (a violation) or `unknown`, and with `-ssol`
//! (`--model-checker-invariants`) parses the `define-fun`s that follow as the invariants.
//! This mode maps those flags onto `cove solve` (`-t:N` → `--timeout N`, `-ssol` →
//! `--model`, `-in` → standard input), so the answer is Cove's usual checked answer, and
//! refuses every other Eldarica option by name: a flag that would change Eldarica's
//! meaning (an engine, a counterexample format) must not be dropped in silence.

use crate::solve_args::SolveArgs;
use crate::{EXIT_OK, EXIT_USAGE, ExitCodeOf};
use clap::Parser;

/// Usage of the mode (`eld -h`).
const USAGE: &str = "\
Cove in Eldarica's calling convention (as the Solidity compiler uses it):
  eld [-hsmt] (-in | FILE) [-t:SECONDS] [-ssol]
    -hsmt         the input is SMT-LIB2 Horn clauses (the only input format here)
    -in           read the query from standard input
    -t:SECONDS    time limit (the answer is `unknown` at the limit)
    -ssol         after `sat`, print the invariants as SMT-LIB2 define-fun commands
Prints sat (safe), unsat (a counterexample exists) or unknown on the first line.
Other Eldarica options are refused.";

/// What the arguments ask for.
#[derive(Debug, PartialEq, Eq)]
pub struct EldCall {
    /// The query file, or `None` for standard input.
    pub file: Option<String>,
    /// `-t:N`, in seconds.
    pub timeout: Option<String>,
    /// `-ssol`.
    pub invariants: bool,
}

/// Parses Eldarica's arguments (without the program name); `Err` carries the message.
/// `Ok(None)`: help was asked for.
pub fn parse(args: &[String]) -> Result<Option<EldCall>, String> {
    let mut stdin = false;
    let mut call = EldCall {
        file: None,
        timeout: None,
        invariants: false,
    };
    for a in args {
        match a.as_str() {
            "-hsmt" => {}
            "-in" => stdin = true,
            "-ssol" => call.invariants = true,
            "-h" | "-help" | "--help" => return Ok(None),
            t if t.starts_with("-t:") => {
                let n = &t[3..];
                if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(format!(
                        "bad time limit '{t}' (expected -t:SECONDS, a whole number)"
                    ));
                }
                call.timeout = Some(n.to_string());
            }
            o if o.starts_with('-') && o.len() > 1 => {
                return Err(format!(
                    "unsupported Eldarica option '{o}' (accepted: -hsmt, -in, -t:SECONDS, -ssol)"
                ));
            }
            f => {
                if call.file.is_some() {
                    return Err(format!("more than one input file ('{f}')"));
                }
                call.file = Some(f.to_string());
            }
        }
    }
    match (stdin, &call.file) {
        (true, Some(f)) => Err(format!("both -in and an input file ('{f}') given")),
        (false, None) => Err("no input: give -in (standard input) or a file".into()),
        _ => Ok(Some(call)),
    }
}

/// The `cove solve` arguments an Eldarica call maps to.
pub fn solve_args(call: &EldCall) -> SolveArgs {
    let mut argv: Vec<String> = vec!["cove".into(), "solve".into()];
    if let Some(t) = &call.timeout {
        argv.push("--timeout".into());
        argv.push(t.clone());
    }
    if call.invariants {
        argv.push("--model".into());
    }
    argv.push("--".into());
    argv.push(call.file.clone().unwrap_or_else(|| "-".into()));
    match crate::Cli::try_parse_from(&argv) {
        Ok(crate::Cli {
            command: crate::Command::Solve(a),
        }) => a,
        _ => unreachable!("the mapped arguments are valid `cove solve` arguments"),
    }
}

/// Runs Cove in Eldarica's calling convention.
pub fn run(args: &[String]) -> Result<u8, ExitCodeOf> {
    match parse(args) {
        Ok(Some(call)) => crate::solve::solve(&solve_args(&call)),
        Ok(None) => {
            println!("{USAGE}");
            Ok(EXIT_OK)
        }
        Err(e) => {
            eprintln!("eld: error: {e}\n\n{USAGE}");
            Err(ExitCodeOf(EXIT_USAGE))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn solc_calls_are_understood() {
        let c = parse(&args("-hsmt -in -t:10 -ssol")).unwrap().unwrap();
        assert_eq!(c.file, None);
        assert_eq!(c.timeout.as_deref(), Some("10"));
        assert!(c.invariants);
        // Releases before 0.8.26: a query file, no -hsmt/-in.
        let c = parse(&args("-t:1 /tmp/query_ab.smt2")).unwrap().unwrap();
        assert_eq!(c.file.as_deref(), Some("/tmp/query_ab.smt2"));
        assert!(!c.invariants);
        let s = solve_args(&c);
        assert!(s.model == c.invariants && s.file.to_str() == Some("/tmp/query_ab.smt2"));
    }

    #[test]
    fn other_options_are_refused_by_name() {
        for (a, why) in [
            ("-in -abstract", "'-abstract'"),
            ("-in -t:ten", "'-t:ten'"),
            ("-in q.smt2", "both -in"),
            ("-hsmt", "no input"),
            ("a.smt2 b.smt2", "more than one"),
        ] {
            let e = parse(&args(a)).unwrap_err();
            assert!(e.contains(why), "{a}: {e}");
        }
        assert_eq!(parse(&args("-h")).unwrap(), None);
    }
}
