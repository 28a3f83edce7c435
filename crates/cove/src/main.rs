//! `cove`: the command-line front end of the Cove verification engine.
//!
//! Exit codes (documented in `--help` and the README):
//! - 0: the command ran and printed its answer (`sat`, `unsat` or `unknown`; certificate valid),
//! - 1: usage or I/O error,
//! - 2: bad input (parse error, sort error, non-Horn clause, unsupported theory),
//! - 3: a certificate failed validation,
//! - 4: internal error.

mod bench;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Exit code: bad input (parse/sort error, non-Horn, unsupported theory).
pub const EXIT_BAD_INPUT: u8 = 2;

#[derive(Parser)]
#[command(name = "cove", version, about = "Cove: compositional verification engine")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a benchmark manifest (`track<TAB>path<TAB>expected`) side by side with a reference solver.
    Bench(bench::BenchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bench(args) => bench::run(&args),
    };
    match result {
        Ok(code) => ExitCode::from(code as u8),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}
