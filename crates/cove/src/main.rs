//! `cove`: the command-line front end of the Cove verification engine.
//!
//! Exit codes (also in `--help` and the README):
//! - 0: the command ran and printed its answer (`sat`, `unsat` or `unknown`),
//! - 1: usage or I/O error,
//! - 2: bad input (parse error, sort error, non-Horn clause, unsupported theory),
//! - 3: a certificate failed validation (`cove check`: the witness is invalid; `cove solve`:
//!   an engine produced a certificate that did not check — the answer was downgraded to
//!   `unknown`),
//! - 4: internal error.
//!
//! `cove sat` follows the SAT competition: 10 = satisfiable, 20 = unsatisfiable, 0 = unknown.

mod aiger;
mod bench;
mod solve;

use clap::{Parser, Subcommand};
use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

/// Exit code: answer printed.
pub const EXIT_OK: u8 = 0;
/// Exit code: usage or I/O error.
pub const EXIT_USAGE: u8 = 1;
/// Exit code: bad input (parse/sort error, non-Horn, unsupported theory).
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code: a certificate failed validation.
pub const EXIT_CERT_FAILED: u8 = 3;
/// Exit code: internal error.
pub const EXIT_INTERNAL: u8 = 4;

/// An early exit with a code (the message has been printed already).
#[derive(Debug)]
pub struct ExitCodeOf(pub u8);

const EXIT_HELP: &str = "Exit codes: 0 answer printed (sat/unsat/unknown), 1 usage or I/O error, \
2 bad input (parse/sort error, non-Horn clause, unsupported theory), 3 certificate shown \
invalid (a validation that runs out of time gives unknown and 0), 4 internal error. `cove sat`: 10 SAT, 20 UNSAT, 0 unknown.";

#[derive(Parser)]
#[command(name = "cove", version, about = "Cove: compositional verification engine", after_help = EXIT_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Decide a CHC system: prints sat (safe), unsat (counterexample) or unknown.
    Solve(solve::SolveArgs),
    /// Validate a witness (invariants or a derivation) against a CHC system.
    Check(solve::CheckArgs),
    /// Run a benchmark manifest (`track<TAB>path<TAB>expected`) side by side with a reference solver.
    Bench(bench::BenchArgs),
    /// Solve a DIMACS CNF file with Cove's SAT core.
    Sat(SatArgs),
    /// Run an SMT-LIB2 script (QF_LIA/QF_LRA) with Cove's SMT core.
    Smt(SmtArgs),
    /// Probabilistic systems: strong simulation, compositional verification (AGAR), benchmarks.
    #[command(subcommand)]
    Prob(ProbCommand),
    /// Write the bounded unrolling of a CHC system to a given depth as an SMT-LIB2 script
    /// (satisfiable iff a counterexample of at most that depth exists).
    Unroll(UnrollArgs),
}

/// `cove prob …`.
#[derive(Subcommand)]
enum ProbCommand {
    /// Does IMPL conform to SPEC by strong simulation? Prints `holds` or a counterexample tree.
    Simulate(cove_prob::cli::SimulateArgs),
    /// Verify a parallel composition of components against a specification.
    Verify(cove_prob::cli::VerifyArgs),
    /// Reproduce the thesis's Table 6.1/6.2 shape on the bundled families.
    Bench(cove_prob::cli::BenchArgs),
}

fn run_prob(cmd: &ProbCommand) -> Result<u8, ExitCodeOf> {
    let mut out = std::io::stdout().lock();
    let r = match cmd {
        ProbCommand::Simulate(a) => cove_prob::cli::simulate(a, &mut out),
        ProbCommand::Verify(a) => cove_prob::cli::verify(a, &mut out),
        ProbCommand::Bench(a) => cove_prob::cli::bench(a, &mut out),
    };
    r.map_err(|e| {
        eprintln!("{e}");
        ExitCodeOf(e.exit_code())
    })
}

/// Arguments of `cove unroll`.
#[derive(clap::Args, Debug)]
struct UnrollArgs {
    /// The CHC file.
    file: std::path::PathBuf,
    /// Unrolling depth.
    #[arg(long, default_value_t = 10)]
    depth: usize,
}

fn run_unroll(args: &UnrollArgs) -> Result<u8, ExitCodeOf> {
    use std::fmt::Write as _;
    let mut store = cove_logic::TermStore::new();
    let sys = solve::load_system(&args.file, &mut store)?;
    let parts = cove_chc::engines::bmc::unrolling(&mut store, &sys, args.depth);
    let all = store.mk_and(&parts);
    let reals = cove_logic::free_vars(&store, all)
        .iter()
        .any(|v| store.var_sort(*v) == cove_logic::Sort::Real);
    let ints = cove_logic::free_vars(&store, all)
        .iter()
        .any(|v| store.var_sort(*v) == cove_logic::Sort::Int);
    let logic = match (ints, reals) {
        (true, true) => "QF_LIRA",
        (false, true) => "QF_LRA",
        _ => "QF_LIA",
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "; bounded unrolling of {} to depth {}",
        args.file.display(),
        args.depth
    );
    let _ = writeln!(out, "(set-logic {logic})");
    for v in cove_logic::free_vars(&store, all) {
        let _ = writeln!(
            out,
            "(declare-fun {} () {})",
            cove_logic::print::symbol(store.var_name(v)),
            store.var_sort(v)
        );
    }
    for t in parts {
        let _ = writeln!(
            out,
            "(assert {})",
            cove_logic::print::term_to_string(&store, t)
        );
    }
    out.push_str("(check-sat)\n(exit)\n");
    print!("{out}");
    Ok(EXIT_OK)
}

/// Arguments of `cove smt`.
#[derive(clap::Args, Debug)]
struct SmtArgs {
    /// The script, or `-` for standard input.
    file: std::path::PathBuf,
    /// Do not eliminate variables defined by equalities before the first check.
    #[arg(long)]
    no_solve_eqs: bool,
}

fn run_smt(args: &SmtArgs) -> Result<u8, ExitCodeOf> {
    let src = read_input(&args.file)?;
    let mut out = std::io::stdout().lock();
    let options = cove_smt::script::ScriptOptions {
        solve_eqs: !args.no_solve_eqs,
    };
    let solver = cove_smt::SmtSolver::new();
    match cove_smt::script::run_script_opts(solver, &src, &mut out, &options) {
        Ok((code, _)) => Ok(code as u8),
        Err(e) => {
            eprintln!("error: {e}");
            Err(ExitCodeOf(EXIT_USAGE))
        }
    }
}

/// Arguments of `cove sat`.
#[derive(clap::Args, Debug)]
struct SatArgs {
    /// The CNF file.
    file: std::path::PathBuf,
    /// Wall-clock limit in seconds (0 = none).
    #[arg(long, default_value_t = 0.0)]
    timeout: f64,
}

/// Reads a file, or standard input for `-`.
pub fn read_input(path: &Path) -> Result<Vec<u8>, ExitCodeOf> {
    let mut buf = Vec::new();
    let r = if path.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut buf).map(|_| ())
    } else {
        std::fs::File::open(path)
            .and_then(|mut f| f.read_to_end(&mut buf))
            .map(|_| ())
    };
    r.map_err(|e| {
        eprintln!("error: cannot read {}: {e}", path.display());
        ExitCodeOf(EXIT_USAGE)
    })?;
    Ok(buf)
}

fn run_sat(args: &SatArgs) -> Result<u8, ExitCodeOf> {
    let limits = cove_sat::Limits::of(&cove_control::Control {
        deadline: (args.timeout > 0.0)
            .then(|| std::time::Instant::now() + std::time::Duration::from_secs_f64(args.timeout)),
        ..Default::default()
    });
    let mut out = std::io::stdout().lock();
    match cove_sat::dimacs::run_dimacs_file(&args.file, &mut out, &limits) {
        Ok(code) => Ok(code as u8),
        Err(e) => {
            eprintln!("{}:{e}", args.file.display());
            Err(ExitCodeOf(EXIT_BAD_INPUT))
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => solve::solve(&args),
        Command::Check(args) => solve::check(&args),
        Command::Sat(args) => run_sat(&args),
        Command::Smt(args) => run_smt(&args),
        Command::Unroll(args) => run_unroll(&args),
        Command::Prob(cmd) => run_prob(&cmd),
        Command::Bench(args) => bench::run(&args).map(|c| c as u8).map_err(|e| {
            eprintln!("error: {e:#}");
            ExitCodeOf(EXIT_USAGE)
        }),
    };
    match result {
        Ok(code) | Err(ExitCodeOf(code)) => ExitCode::from(code),
    }
}
