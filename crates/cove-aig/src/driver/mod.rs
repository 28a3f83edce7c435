//! The hardware driver: the one place where Cove's hardware policy lives.
//!
//! A library user calling [`solve`] gets exactly what `cove solve FILE.aig` does: the
//! reductions ([`crate::reduce`]), one engine or the portfolio ([`schedule`], every engine
//! under a panic guard), the limits of one [`Control`] in every phase, the independent check
//! of the answer on the original circuit (`certify.rs`), and — when asked — the certificate
//! file of a safe answer, written and re-checked as written (`certificate_file.rs`). An answer
//! whose check fails is never returned as an answer: it becomes `unknown`, and
//! [`Outcome::validation`] says why ([`Validation::Failed`] is a bug in Cove, what the command
//! line's exit code 3 reports).

mod certificate_file;
mod certify;
mod liveness;
mod portfolio;
pub mod properties;
pub mod schedule;

use crate::reduce::{Options, Reduced, reduce_with};
use crate::result::EngineResult;
use crate::{Aig, EngineConfig, SafeProof, Verdict};
use cove_control::{Control, UnknownReason};
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub use portfolio::PortfolioConfig;

/// What a run uses: the portfolio (the default), or one engine of the registry alone. The
/// portfolio is a choice beside the engines, not one of them: its entries are engines
/// ([`schedule`]), and it answers with the name of the entry that answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// The schedule's entries side by side; the first definite answer wins.
    Portfolio(PortfolioConfig),
    /// One engine with its options.
    One(EngineConfig),
}

impl Default for EngineChoice {
    fn default() -> EngineChoice {
        EngineChoice::Portfolio(PortfolioConfig::default())
    }
}

impl From<EngineConfig> for EngineChoice {
    fn from(e: EngineConfig) -> EngineChoice {
        EngineChoice::One(e)
    }
}

impl EngineChoice {
    /// `portfolio` (or its alias `all`) or an engine name of [`EngineConfig::NAMES`], with
    /// default options: the one parse of engine names, for the command line, the C API and
    /// Python alike.
    pub fn parse(name: &str) -> Option<EngineChoice> {
        EngineChoice::parse_spec(name).ok()
    }

    /// Like [`EngineChoice::parse`], with the engine's options in the words of
    /// [`cove_control::engine_options`] (`ic3:no-predict`; `portfolio:threads=2`); `Err`
    /// says what is wrong.
    pub fn parse_spec(spec: &str) -> Result<EngineChoice, String> {
        let (name, words) = cove_control::engine_options::split_spec(spec);
        match name {
            "portfolio" | "all" => {
                let mut p = PortfolioConfig::default();
                for w in &words {
                    match w.key {
                        "threads" => p.threads = w.number()?,
                        k => {
                            return Err(format!(
                                "the hardware portfolio has no option '{k}' (its options: threads=N)"
                            ));
                        }
                    }
                }
                Ok(EngineChoice::Portfolio(p))
            }
            _ => EngineConfig::parse_spec(spec).map(EngineChoice::One),
        }
    }

    /// Every accepted name, for `--help` and error messages.
    pub fn names() -> Vec<&'static str> {
        let mut v = vec!["portfolio"];
        v.extend_from_slice(&EngineConfig::NAMES);
        v
    }

    /// `portfolio` or the engine's name.
    pub fn name(&self) -> &'static str {
        match self {
            EngineChoice::Portfolio(_) => "portfolio",
            EngineChoice::One(e) => e.name(),
        }
    }

    /// Runs the choice on `aig` (reduced, one bad property), uncertified; the answer with the
    /// name of the engine that gave it.
    fn run_labelled(&self, aig: &Aig, ctl: &Control) -> (EngineResult, &'static str) {
        match self {
            EngineChoice::Portfolio(p) => p.run(aig, ctl),
            EngineChoice::One(e) => (e.run(aig, ctl), e.name()),
        }
    }
}

/// The driver's reductions: inputs are merged to constants ([`crate::input_merge`]; measured in
/// docs/decisions.md#hardware-input-merging: 844 of 22,893 inputs on the HWMCC'19 sample,
/// `usb_phy_1` 4× faster, nothing lost). [`Options::default`] (used inside engines, e.g. on
/// localization's abstractions) merges nothing. Latch correspondence ([`crate::lcorr`]) is
/// off: on the HWMCC'19 sample it measured neutral (32 vs 33 solved at load ≈ 18, the one
/// difference a design solved in 19.4 s; docs/decisions.md#hardware-latch-correspondence).
pub const DRIVER_OPTIONS: Options = Options {
    merge_inputs: true,
    lcorr: false,
};

/// How to solve: typed, shared by the command line and the library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveConfig {
    /// The portfolio (the default) or one engine with its options.
    pub engine: EngineChoice,
    /// The reductions before the engines run ([`DRIVER_OPTIONS`] by default).
    pub reduce: Options,
    /// Write the certificate of a safe answer to this file: a witness circuit in the format of
    /// the HWMCC'24 certified track (checkable with Certifaiger), binary AIGER if the path
    /// ends in `.aig`, ASCII otherwise. The file is checked as written; an answer whose file
    /// does not check is withdrawn. Nothing is written for other answers, nor for circuits
    /// with justice properties (the format certifies safety only).
    pub certificate: Option<PathBuf>,
    /// The model's name for the certificate's comment (usually its file name).
    pub model_name: String,
    /// Write the witnesses to this file when a property fails (the HWMCC witness format, as
    /// printed; read back and every trace replayed). May be the certificate's path: one file
    /// then holds the witness when a property fails and the certificate otherwise.
    pub witness: Option<PathBuf>,
}

impl Default for SolveConfig {
    fn default() -> SolveConfig {
        SolveConfig {
            engine: EngineChoice::default(),
            reduce: DRIVER_OPTIONS,
            certificate: None,
            model_name: String::new(),
            witness: None,
        }
    }
}

/// What the independent check said about the answer's certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Validation {
    /// No answer to check (`unknown`).
    NotApplicable,
    /// The certificate checked (the trace replays, the proof holds, and the certificate file,
    /// when one was asked for, passed the five witness-circuit checks as written).
    Valid,
    /// The check refuted the certificate, or its file could not be written: the answer was
    /// withdrawn (a refutation is a bug in Cove).
    Failed(String),
    /// The check ran out of limits: the answer was withdrawn (not a bug).
    Undecided(String),
}

impl Validation {
    /// True when the certificate was checked and accepted.
    pub fn is_valid(&self) -> bool {
        *self == Validation::Valid
    }

    /// True when the certificate was refuted (or could not be written).
    pub fn is_failed(&self) -> bool {
        matches!(self, Validation::Failed(_))
    }
}

impl fmt::Display for Validation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Validation::NotApplicable => write!(f, "none"),
            Validation::Valid => write!(f, "valid"),
            Validation::Failed(e) => write!(f, "failed: {e}"),
            Validation::Undecided(e) => write!(f, "undecided: {e}"),
        }
    }
}

/// The result of [`solve`].
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The answer on all properties together (unsafe when one fails, with its trace; safe
    /// when all hold); a definite one has been checked on the input circuit.
    pub verdict: Verdict,
    /// One answer per bad property, in file order, then one per justice property (a
    /// counterexample's `bad_index` is its index here; a justice property's is a lasso,
    /// [`crate::trace_check::check_lasso`]). A proof of bad properties is for the circuit
    /// restricted to the properties proved together ([`properties`]); a justice property's is
    /// for one of its safety circuits ([`crate::liveness`]). Empty for a circuit without
    /// properties.
    pub properties: Vec<Verdict>,
    /// The check of the answer's certificate.
    pub validation: Validation,
    /// The engine that answered (a portfolio entry's name), or the last one that ran.
    pub engine: &'static str,
    /// Wall-clock time of [`solve`].
    pub time: Duration,
}

/// Model-checks `aig` as `cfg` says, under the limits of `ctl`. Every definite answer has
/// been certified on `aig`: a trace by simulation, an invariant or k-induction proof by fresh
/// SAT checks (and the files asked for by the checks of `certificate_file.rs`); an answer that
/// fails its check becomes `unknown`. Several bad properties get one verdict each
/// ([`properties`]).
pub fn solve(aig: &Aig, cfg: &SolveConfig, ctl: &Control) -> Outcome {
    let start = Instant::now();
    let properties::Solved {
        mut overall,
        properties: mut verdicts,
        mut validation,
        engine,
        proved,
    } = if aig.justice.is_empty() {
        properties::solve_all(aig, cfg, ctl)
    } else {
        liveness::solve_all(aig, cfg, ctl)
    };
    let fails = verdicts.iter().any(|v| matches!(v, Verdict::Unsafe(_)))
        || matches!(overall, Verdict::Unsafe(_));
    // One path for both files (the single-path competition convention): the witness when a
    // property fails, the certificate otherwise.
    let certificate = cfg
        .certificate
        .as_ref()
        .filter(|c| !(fails && cfg.witness.as_ref() == Some(*c)));
    if let (Some(path), Some((model, proof))) = (certificate, &proved) {
        let (_, val) = certificate_file(path, model, &cfg.model_name, proof, ctl);
        if !val.is_valid() {
            // The proof's answers are withdrawn.
            let why = match &val {
                Validation::Failed(m) | Validation::Undecided(m) => m.clone(),
                _ => String::new(),
            };
            withdraw(
                &mut verdicts,
                &mut overall,
                |v| matches!(v, Verdict::Safe(_)),
                &why,
                ctl,
            );
        }
        validation = properties::merge(validation, val);
    }
    if let (Some(path), true) = (&cfg.witness, fails) {
        let text = if verdicts.len() > 1 || !aig.justice.is_empty() {
            crate::hwmcc_output::format_properties_of(&verdicts, aig.bad.len())
        } else {
            crate::hwmcc_output::format_verdict(&overall)
        };
        if let Err(e) = certificate_file::write_checked_witness(path, aig, &text) {
            let why = format!("witness failed: {e}");
            withdraw(
                &mut verdicts,
                &mut overall,
                |v| matches!(v, Verdict::Unsafe(_)),
                &why,
                ctl,
            );
            validation = properties::merge(validation, Validation::Failed(why));
        }
    }
    Outcome {
        verdict: overall,
        properties: verdicts,
        validation,
        engine,
        time: start.elapsed(),
    }
}

/// Turns the verdicts `which` selects into `unknown` (for the limit's reason once the limits
/// are reached, for `why` otherwise) and recomputes the overall verdict.
fn withdraw(
    verdicts: &mut [Verdict],
    overall: &mut Verdict,
    which: impl Fn(&Verdict) -> bool,
    why: &str,
    ctl: &Control,
) {
    let unknown = || {
        Verdict::Unknown(
            ctl.should_stop()
                .unwrap_or_else(|| UnknownReason::Incomplete(why.to_string())),
        )
    };
    for v in verdicts.iter_mut() {
        if which(v) {
            *v = unknown();
        }
    }
    *overall = if verdicts.is_empty() {
        if which(overall) {
            unknown()
        } else {
            overall.clone()
        }
    } else {
        properties::overall(verdicts)
    };
}

/// One question to the engines: reduce `aig`, run the engine under the panic guard, certify
/// the answer on `aig`.
fn run_once(aig: &Aig, cfg: &SolveConfig, ctl: &Control) -> (Verdict, Validation, &'static str) {
    let red = match reduce_with(aig, &cfg.reduce, ctl) {
        Ok(r) => r,
        Err(r) => {
            return (
                Verdict::Unknown(r),
                Validation::NotApplicable,
                cfg.engine.name(),
            );
        }
    };
    if ctl.verbosity > 0 {
        report_reduction(aig, &red, ctl);
    }
    let (res, engine) =
        portfolio::guarded(cfg.engine.name(), || cfg.engine.run_labelled(&red.aig, ctl));
    let (verdict, validation) = certify::certify(aig, &red, res, ctl);
    (verdict, validation, engine)
}

/// [`solve`] with the default reductions and no certificate file: the checked verdict.
pub fn check(aig: &Aig, engine: &EngineChoice, ctl: &Control) -> Verdict {
    let cfg = SolveConfig {
        engine: engine.clone(),
        ..SolveConfig::default()
    };
    solve(aig, &cfg, ctl).verdict
}

/// The verdict and validation once the certificate file of `proof` is written and checked.
fn certificate_file(
    path: &std::path::Path,
    aig: &Aig,
    model_name: &str,
    proof: &SafeProof,
    ctl: &Control,
) -> (Verdict, Validation) {
    use certificate_file::FileError;
    match certificate_file::write_checked(path, aig, model_name, proof, ctl) {
        Ok(()) => (Verdict::Safe(proof.clone()), Validation::Valid),
        Err(FileError::Io(e)) => match ctl.should_stop() {
            Some(r) => (Verdict::Unknown(r), Validation::Undecided(e)),
            None => certify::failed(format!("certificate failed: {e}")),
        },
        Err(FileError::Check(e)) => certify::refuted_or_stopped("certificate failed", e, ctl),
    }
}

/// The reduction's statistics on stderr (with `-v`).
fn report_reduction(orig: &Aig, red: &Reduced, ctl: &Control) {
    eprintln!(
        "reduced: {} inputs, {} latches, {} ands, {} constraints (from {}/{}/{}); {} constant latches",
        red.aig.inputs.len(),
        red.aig.latches.len(),
        red.aig.ands.len(),
        red.aig.constraints.len(),
        orig.inputs.len(),
        orig.latches.len(),
        orig.ands.len(),
        red.const_latches.len()
    );
    if let Some((k, q, r, t)) = red.lcorr {
        eprintln!("latch correspondence: {k} latches merged ({q} queries, {r} rounds, {t:.2} s)");
    }
    let unate = crate::unate::unate_inputs(&red.aig);
    eprintln!(
        "sequentially unate inputs: {} of {}",
        unate.iter().filter(|u| u.is_some()).count(),
        unate.len()
    );
    // Without the option the pass runs for the statistic only, on the reduced circuit.
    let stat;
    let m = match &red.merged {
        Some(m) => m,
        None => {
            let cfg = crate::input_merge::Config::default();
            let mctl = crate::input_merge::pass_control(&cfg, ctl);
            stat = crate::input_merge::merge_inputs(&red.aig, &cfg, &mctl);
            &stat
        }
    };
    eprintln!(
        "merged inputs: {} of {} ({:.2} s; {} rounds, {} regions, {} checks, {} SAT calls, {} over budget; before: {} latches, {} ands){}",
        m.merged,
        m.inputs,
        m.time.as_secs_f64(),
        m.rounds,
        m.regions,
        m.checks,
        m.sat_calls,
        m.exhausted,
        m.latches,
        m.ands,
        if red.merged.is_some() {
            ""
        } else {
            " [statistic only]"
        }
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::ic3::Ic3Config;

    fn design(src: &str) -> Aig {
        crate::parse_aiger(src.as_bytes()).expect("valid aag")
    }

    #[test]
    fn portfolio_honours_any_thread_budget() {
        let ctl = Control::default();
        let safe = design(include_str!("../../tests/data/mod6_safe.aag"));
        let bad = design(include_str!("../../tests/data/mod6_unsafe.aag"));
        for threads in [0, 1, 2, 3, 8] {
            let e = EngineChoice::Portfolio(PortfolioConfig { threads });
            let out = solve(
                &safe,
                &SolveConfig {
                    engine: e.clone(),
                    ..SolveConfig::default()
                },
                &ctl,
            );
            assert!(matches!(out.verdict, Verdict::Safe(_)));
            assert_eq!(out.validation, Validation::Valid);
            assert!(matches!(check(&bad, &e, &ctl), Verdict::Unsafe(_)));
        }
    }

    #[test]
    fn certificate_files_are_checked_as_written() {
        let ctl = Control::default();
        let safe = design(include_str!("../../tests/data/mod6_safe.aag"));
        let dir = std::env::temp_dir().join(format!("cove-aig-driver-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("w.aag");
        let cfg = SolveConfig {
            engine: EngineConfig::Ic3(Ic3Config::default()).into(),
            certificate: Some(path.clone()),
            model_name: "mod6_safe.aag".into(),
            ..SolveConfig::default()
        };
        let out = solve(&safe, &cfg, &ctl);
        assert!(matches!(out.verdict, Verdict::Safe(_)));
        assert_eq!(out.validation, Validation::Valid);
        let w = crate::parse_aiger(&std::fs::read(&path).expect("written")).expect("parses");
        assert!(crate::witness_circuit_check::check_witness(&safe, &w, &ctl).is_ok());
        // A file that cannot be written withdraws the answer, typed as a failure.
        let cfg = SolveConfig {
            certificate: Some(dir.join("no-such-dir").join("w.aag")),
            ..cfg
        };
        let out = solve(&safe, &cfg, &ctl);
        assert!(matches!(out.verdict, Verdict::Unknown(_)));
        assert!(out.validation.is_failed(), "{:?}", out.validation);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_refuted_proof_is_a_failed_validation() {
        // An invariant literal that is not a latch of the original circuit: refuted, whatever
        // the wording (the command line's exit code follows the type, not the message).
        let safe = design(include_str!("../../tests/data/mod6_safe.aag"));
        let red = crate::reduce::reduce(&safe, &Control::default()).expect("reduces");
        let res = crate::result::EngineResult::Safe(crate::result::Proof::Invariant(vec![vec![
            2 * (red.aig.max_var + 5),
        ]]));
        let (v, val) = certify::certify(&safe, &red, res, &Control::default());
        assert!(matches!(v, Verdict::Unknown(_)));
        assert!(val.is_failed(), "{val:?}");
    }
}
