//! `cove hwmcc MODEL [CERT_SAT [CERT_UNSAT]]`: the hardware model checking competition's
//! call convention. The arguments become a [`cove::FileConfig`] for AIGER input, solved and
//! printed as `cove solve` does ([`crate::solve::run_file`]).

use crate::ExitCodeOf;
use crate::limits::LimitArgs;
use crate::solve::{Output, run_file};
use crate::solve_args::{Format, hardware_engine};
use clap::Args;
use std::path::PathBuf;

/// Arguments of `cove hwmcc`: the hardware model checking competition's call convention.
#[derive(Args, Debug)]
pub struct HwmccArgs {
    /// The model: AIGER 1.9 (binary `.aig` or ASCII `.aag`).
    pub model: PathBuf,
    /// Where the evidence goes. Alone (the HWMCC'24 convention): the witness when a property
    /// fails, the certificate (a witness circuit, checkable with Certifaiger) when all hold.
    /// With CERT_UNSAT: the witness only.
    pub cert_sat: Option<PathBuf>,
    /// The certificate of the properties that hold (binary AIGER if the path ends in `.aig`,
    /// ASCII otherwise).
    pub cert_unsat: Option<PathBuf>,
    /// Engine: `portfolio` (the default) or one engine by name.
    #[arg(long, default_value = "portfolio")]
    pub engine: String,
    /// Portfolio threads (0 = one per available core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Progress messages on stderr.
    #[arg(short, long, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

/// Runs `cove hwmcc MODEL [CERT_SAT [CERT_UNSAT]]`: prints the HWMCC witnesses like `cove
/// solve` and writes the witness or certificate to the given paths.
pub fn hwmcc(args: &HwmccArgs) -> Result<u8, ExitCodeOf> {
    let (witness, certificate) = match (&args.cert_sat, &args.cert_unsat) {
        (Some(one), None) => (Some(one.clone()), Some(one.clone())),
        (sat, unsat) => (sat.clone(), unsat.clone()),
    };
    let engine = hardware_engine(&args.engine, args.threads).map_err(crate::usage_error)?;
    let config = cove::FileConfig {
        format: Some(cove::InputFormat::Aiger),
        chc: Err("cove hwmcc reads AIGER circuits".into()),
        hardware: Ok(cove_aig::driver::SolveConfig {
            engine,
            certificate,
            witness,
            ..Default::default()
        }),
        model: false,
        counterexample: false,
    };
    let output = Output {
        format: Format::Text,
        stats: false,
        verbose: args.verbose,
    };
    run_file(&args.model, &config, &args.limits, &output)
}
