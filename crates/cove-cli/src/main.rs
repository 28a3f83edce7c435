//! `cove`: the command-line front end of the Cove verification engine.
//!
//! Exit codes (also in `--help`, the README and RELIABILITY.md), the same for every subcommand:
//! - 0: the command ran and printed its answer (`sat`, `unsat` or `unknown` — also when a
//!   time or memory limit or Ctrl-C cut it short), or `--help`/`--version`,
//! - 1: usage error (unknown option, bad limit value) or I/O error (unreadable file),
//! - 2: bad input (parse error, sort error, non-Horn clause, unsupported theory),
//! - 3: a certificate failed validation (`cove check`: the witness is invalid; `cove solve`:
//!   an engine produced a certificate that did not check — the answer was downgraded to
//!   `unknown`),
//! - 4: internal error.
//!
//! `cove sat` follows the SAT competition: 10 = satisfiable, 20 = unsatisfiable, 0 = unknown.

mod eld;
mod hwmcc;
mod limits;
mod prob;
mod solve;
mod solve_args;

use clap::{Parser, Subcommand};
use cove_control::memory::CountingAlloc;

/// Counts live heap bytes, so `--memory-mb` is exact and running out of memory ends with
/// `unknown` instead of an allocator abort (see `cove_control::memory`).
#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;
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

/// Prints `error: MESSAGE` and gives the usage exit code.
pub fn usage_error(message: String) -> ExitCodeOf {
    eprintln!("error: {message}");
    ExitCodeOf(EXIT_USAGE)
}

/// An early exit with a code (the message has been printed already).
#[derive(Debug)]
pub struct ExitCodeOf(pub u8);

const EXIT_HELP: &str = "Exit codes: 0 answer printed (sat/unsat/unknown, also on a limit or Ctrl-C), 1 usage or I/O error, \
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
    Solve(solve_args::SolveArgs),
    /// Validate a witness (invariants or a derivation) against a CHC system.
    Check(solve::CheckArgs),
    /// Run a benchmark manifest (`track<TAB>path<TAB>expected`) side by side with a reference solver.
    Bench(cove_bench::BenchArgs),
    /// Solve a DIMACS CNF file with Cove's SAT core.
    Sat(SatArgs),
    /// Run an SMT-LIB2 script (QF_LIA/QF_LRA) with Cove's SMT core.
    Smt(SmtArgs),
    /// Probabilistic systems: strong simulation, compositional verification (AGAR), benchmarks.
    #[command(subcommand)]
    Prob(ProbCommand),
    /// Hardware model checking with the competition's call convention (HWMCC'24/'25):
    /// `cove hwmcc MODEL [CERT_SAT [CERT_UNSAT]]` prints the HWMCC witnesses and writes the
    /// witness or the certificate to the given paths.
    Hwmcc(hwmcc::HwmccArgs),
    /// Write the bounded unrolling of a CHC system to a given depth as an SMT-LIB2 script
    /// (satisfiable iff a counterexample of at most that depth exists).
    Unroll(UnrollArgs),
    /// Eldarica's command line as the Solidity compiler calls it: `cove eld -hsmt -in
    /// -t:SECONDS [-ssol]` (the binary invoked under the name `eld` does the same; see
    /// docs/solidity.md). `cove eld -h` lists the accepted options.
    #[command(disable_help_flag = true)]
    Eld(EldArgs),
}

/// Arguments of `cove eld`: Eldarica's, passed through as they are.
#[derive(clap::Args, Debug)]
struct EldArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    args: Vec<String>,
}

/// `cove prob …`.
#[derive(Subcommand)]
enum ProbCommand {
    /// Does IMPL conform to SPEC by strong simulation? Prints `holds`, `fails` and a
    /// counterexample tree, or `unknown (reason)` when `--timeout`/`--memory-mb` end the run.
    Simulate(prob::SimulateArgs),
    /// Verify a parallel composition of components against a specification (`holds`,
    /// `fails` with a checked counterexample, or `unknown (reason)` at a limit).
    Verify(prob::VerifyArgs),
    /// Reproduce the thesis's Table 6.1/6.2 shape on the bundled families (`--timeout` and
    /// `--memory-mb` hold per run).
    Bench(prob::BenchArgs),
    /// Build a model and write it as `.lpts`, Storm DRN or DOT (e.g. to cross-check with Storm).
    Export(prob::ExportArgs),
}

fn run_prob(cmd: &ProbCommand) -> Result<u8, ExitCodeOf> {
    match cmd {
        ProbCommand::Simulate(a) => prob::simulate(a),
        ProbCommand::Verify(a) => prob::verify(a),
        ProbCommand::Bench(a) => prob::bench(a),
        ProbCommand::Export(a) => prob::export(a),
    }
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
    let mut out = String::new();
    let _ = writeln!(
        out,
        "; bounded unrolling of {} to depth {}",
        args.file.display(),
        args.depth
    );
    out.push_str(&cove_logic::print::script(&store, &parts));
    out.push_str("(exit)\n");
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
    #[command(flatten)]
    limits: limits::LimitArgs,
}

fn run_smt(args: &SmtArgs) -> Result<u8, ExitCodeOf> {
    let src = read_input(&args.file)?;
    let mut out = std::io::stdout().lock();
    let options = cove_smt::script::ScriptOptions {
        solve_eqs: !args.no_solve_eqs,
    };
    let mut solver = cove_smt::SmtSolver::new();
    solver.set_limits(cove_smt::Limits::of(&args.limits.control(0)));
    let mut out = ErrorEcho {
        out: &mut out,
        file: args.file.display().to_string(),
        line: Vec::new(),
    };
    match cove_smt::script::run_script_opts(solver, &src, &mut out, &options) {
        // The script went on after `(error ..)` responses (SMT-LIB convention); the exit code
        // still says the input was bad.
        Ok((0, _)) => Ok(EXIT_OK),
        Ok(_) => Ok(EXIT_BAD_INPUT),
        Err(e) => {
            // Script errors carry line:col; the file name makes them actionable.
            eprintln!("{}:{e}", args.file.display());
            Err(ExitCodeOf(EXIT_BAD_INPUT))
        }
    }
}

/// Passes the script's responses through and repeats each `(error "L:C: msg")` response on
/// stderr as `FILE:L:C: msg`, so errors name the file like every other subcommand's.
struct ErrorEcho<'a, W: std::io::Write> {
    out: &'a mut W,
    file: String,
    line: Vec<u8>,
}

impl<W: std::io::Write> std::io::Write for ErrorEcho<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            if b == b'\n' {
                if let Some(msg) = self
                    .line
                    .strip_prefix(b"(error \"")
                    .and_then(|m| m.strip_suffix(b"\")"))
                {
                    eprintln!("{}:{}", self.file, String::from_utf8_lossy(msg));
                }
                self.line.clear();
            } else {
                self.line.push(b);
            }
        }
        self.out.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Arguments of `cove sat`.
#[derive(clap::Args, Debug)]
struct SatArgs {
    /// The CNF file.
    file: std::path::PathBuf,
    #[command(flatten)]
    limits: limits::LimitArgs,
}

/// Reads a file, or standard input for `-`.
pub fn read_input(path: &Path) -> Result<Vec<u8>, ExitCodeOf> {
    cove::solve_file::read(path).map_err(|e| usage_error(e.to_string()))
}

fn run_sat(args: &SatArgs) -> Result<u8, ExitCodeOf> {
    let limits = cove_sat::Limits::of(&args.limits.control(0));
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
    cove_control::memory::set_emergency_handler(limits::out_of_memory);
    // Invoked as `eld` (a symlink or copy on PATH, as solc looks for Eldarica).
    let argv: Vec<String> = std::env::args().collect();
    if argv
        .first()
        .and_then(|a| Path::new(a).file_stem())
        .is_some_and(|s| s == "eld")
    {
        let rest = argv[1..].to_vec();
        return cove_control::stack::with_large_stack(move || exit_code(eld::run(&rest)));
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap's own exit code for usage errors is 2, which here means bad input.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { EXIT_USAGE } else { EXIT_OK });
        }
    };
    // `solve` and `hwmcc` work on the facade's thread, which has a large stack of its own
    // (`cove::solve_file`): a second one here would reserve another gigabyte of address
    // space, which a memory limit on address space counts (`prlimit --as`, `cove bench`:
    // with both, portfolios ran out of a 4 GiB limit at 950 MB resident).
    if matches!(cli.command, Command::Solve(_) | Command::Hwmcc(_)) {
        return run(cli);
    }
    // Belt and braces: passes over input terms are iterative, but a deep input must never
    // abort the process if one is not.
    cove_control::stack::with_large_stack(move || run(cli))
}

fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Command::Solve(args) => solve::solve(&args),
        Command::Check(args) => solve::check(&args),
        Command::Sat(args) => run_sat(&args),
        Command::Smt(args) => run_smt(&args),
        Command::Unroll(args) => run_unroll(&args),
        Command::Eld(args) => eld::run(&args.args),
        Command::Hwmcc(args) => hwmcc::hwmcc(&args),
        Command::Prob(cmd) => run_prob(&cmd),
        Command::Bench(args) => cove_bench::run(&args).map(|c| c as u8).map_err(|e| {
            eprintln!("error: {e:#}");
            ExitCodeOf(EXIT_USAGE)
        }),
    };
    exit_code(result)
}

fn exit_code(result: Result<u8, ExitCodeOf>) -> ExitCode {
    match result {
        Ok(code) | Err(ExitCodeOf(code)) => ExitCode::from(code),
    }
}
