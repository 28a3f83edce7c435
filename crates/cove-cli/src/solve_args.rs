//! The arguments of `cove solve` and the driver configuration they ask for: one place that
//! turns flags into engine options (a [`cove::FileConfig`]), below the commands that use
//! them (`solve.rs`, `hwmcc.rs`).

use crate::ExitCodeOf;
use crate::limits::LimitArgs;
use clap::{Args, ValueEnum};
use cove_chc::driver::{EngineChoice, SolveConfig};
use cove_chc::engines::EngineConfig;
use cove_chc::engines::spacer_abs::Variant;
use cove_control::engine_options::OptionWord;
use std::path::PathBuf;

/// Output format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `sat`/`unsat`/`unknown` on the first line, then the requested witnesses.
    Text,
    /// One JSON object per question.
    Json,
}

/// Arguments of `cove solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The CHC file (SMT-LIB2 HORN or Z3 fixedpoint format), or `-` for standard input.
    pub file: PathBuf,
    /// Engine: `portfolio` (several engines in parallel, chosen by the system's shape; the
    /// default) or one engine by name, with options after a colon in the words the
    /// portfolio's schedule uses (`spacer:bottom-up,no-mbp`, `ic3:no-predict`,
    /// `kind:balance,max-k=20`; an option is `word`, `no-word` or `word=value`).
    #[arg(long, default_value = "portfolio")]
    pub engine: String,
    /// Portfolio threads (0 = one per available core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Print the invariants of a `sat` answer as SMT-LIB2 define-fun commands.
    #[arg(long)]
    pub model: bool,
    /// Print the counterexample of an `unsat` answer as a derivation tree.
    #[arg(long)]
    pub cex: bool,
    /// Print statistics (to stderr in text mode).
    #[arg(long)]
    pub stats: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Skip the independent certificate check of the answer (on by default).
    #[arg(long)]
    pub no_validate: bool,
    /// Portfolio: engines share lemmas — Spacer offers its top-frame lemmas, spacer-abs takes
    /// them as invariant candidates, and an engine that starts on a freed thread solves the
    /// system strengthened with their inductive part (off by default: measured neutral).
    #[arg(long)]
    pub share: bool,
    /// Spacer: use only may-summaries (GPDR-like ablation).
    #[arg(long)]
    pub may_only: bool,
    /// Spacer: choose the last uncovered body atom first (bottom-up query order).
    #[arg(long)]
    pub bottom_up: bool,
    /// Spacer: plain model substitution instead of model-based projection.
    #[arg(long)]
    pub no_mbp: bool,
    /// Solve the input as given, without preprocessing (simplification, reachability
    /// slicing, inlining, argument removal).
    #[arg(long)]
    pub no_preprocess: bool,
    /// Spacer: do not weaken blocked cubes (literal dropping only).
    #[arg(long)]
    pub no_weaken: bool,
    /// Spacer: do not replace blocked cubes by negated Farkas interpolants.
    #[arg(long)]
    pub no_farkas: bool,
    /// Spacer: no global guidance (none of the subsume, concretize, conjecture rules).
    #[arg(long)]
    pub no_global: bool,
    /// Spacer: no subsume rule (lemma clusters replaced by their projection).
    #[arg(long)]
    pub no_subsume: bool,
    /// Spacer: the concretize rule of global guidance (clusters varying in coefficients).
    #[arg(long)]
    pub gg_concretize: bool,
    /// Spacer: the conjecture rule of global guidance (clusters varying in one constant).
    #[arg(long)]
    pub gg_conjecture: bool,
    /// spacer-abs: the abstraction loop's variant (thesis Ch. 3): `pba` (proof-based abstraction
    /// after every safe bound, CEGAR on spurious counterexamples; the default), `concretize`
    /// (a spurious counterexample makes the abstraction concrete again) or `cegar` (start from
    /// the empty abstraction and only refine).
    #[arg(long, value_name = "VARIANT",
          value_parser = clap::builder::PossibleValuesParser::new(Variant::NAMES))]
    pub abs_variant: Option<String>,
    /// AIGER input: write the certificate of a safe answer to FILE, a witness circuit in the
    /// format of the HWMCC'24 certified track (checkable with Certifaiger); binary AIGER if
    /// FILE ends in `.aig`, ASCII otherwise. Nothing is written for other answers.
    #[arg(long, value_name = "FILE")]
    pub certificate: Option<PathBuf>,
    /// AIGER input: do not merge inputs to constants before the engines run (by default,
    /// inputs whose constant keeps the range of a cut are merged, FMCAD'19 Alg. 2; see
    /// docs/decisions.md#hardware-input-merging).
    #[arg(long)]
    pub no_merge_inputs: bool,
    /// AIGER input: merge latches proved equal, negated or constant in every reachable state
    /// (latch correspondence, by induction) before the engines run (off by default: measured
    /// neutral on the HWMCC'19 sample; see docs/decisions.md#hardware-latch-correspondence).
    #[arg(long)]
    pub latch_corr: bool,
    /// Progress messages on stderr.
    #[arg(short, long, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

impl SolveArgs {
    /// The configuration of the whole run: how Horn clauses are solved and how circuits are,
    /// each with the reason this run cannot solve that kind when its flags are for the
    /// other (the facade decides the input's language). A name no registry knows is a usage
    /// error at once.
    pub fn file_config(&self) -> Result<cove::FileConfig, ExitCodeOf> {
        if let Err(m) = cove::FileConfig::with_engine(&self.engine, self.threads)
            && hardware_engine(&self.engine, self.threads).is_err()
        {
            return Err(crate::usage_error(m));
        }
        Ok(cove::FileConfig {
            format: None,
            chc: self.chc_config(),
            hardware: self.hardware_config(),
            model: self.model,
            counterexample: self.cex,
        })
    }

    /// The Horn-clause driver's configuration: the engine spec of `--engine`
    /// (`spacer`, `spacer:bottom-up,no-mbp`), then the options the flags set, in the same
    /// words (`--may-only` is the option `may-only` of Spacer, `--abs-variant cegar` the
    /// option `variant=cegar` of spacer-abs). A flag for an option the run's engine does not
    /// have is an error, not silence: under the portfolio every entry keeps its own options.
    fn chc_config(&self) -> Result<SolveConfig, String> {
        let mut engine = EngineChoice::parse_spec(&self.engine)?;
        let name = engine.name();
        for (flag, word) in self.engine_option_flags() {
            let w = OptionWord::parse(&word);
            let set = match &mut engine {
                EngineChoice::One(e) => e.set_option(&w).is_ok(),
                EngineChoice::Portfolio => false,
            };
            if !set {
                let owners: Vec<&str> = EngineConfig::NAMES
                    .iter()
                    .copied()
                    .filter(|n| EngineConfig::parse_spec(&format!("{n}:{word}")).is_ok())
                    .collect();
                return Err(format!(
                    "{flag} applies to --engine {} (this run uses '{name}')",
                    owners.join(" or --engine ")
                ));
            }
        }
        if let Some(flag) = self.hardware_flags_given().first() {
            return Err(format!("{flag} applies to AIGER and BTOR2 input"));
        }
        if self.certificate.is_some() {
            return Err(
                "--certificate applies to AIGER input (use --model for CHC invariants)".into(),
            );
        }
        Ok(SolveConfig {
            engine,
            threads: self.threads,
            preprocess: !self.no_preprocess,
            validate: !self.no_validate,
            share: self.share,
        })
    }

    /// The engine-option flags given, each with its option word.
    fn engine_option_flags(&self) -> Vec<(&'static str, String)> {
        let mut v: Vec<(&'static str, String)> = self
            .spacer_flags_given()
            .into_iter()
            .map(|f| (f, f.trim_start_matches("--").to_string()))
            .collect();
        if let Some(variant) = &self.abs_variant {
            v.push(("--abs-variant", format!("variant={variant}")));
        }
        v
    }

    /// The hardware driver's configuration (AIGER and BTOR2).
    fn hardware_config(&self) -> Result<cove_aig::driver::SolveConfig, String> {
        let flag = self
            .spacer_flags_given()
            .first()
            .copied()
            .or(self.abs_variant.is_some().then_some("--abs-variant"));
        if let Some(flag) = flag {
            return Err(format!(
                "{flag} applies to CHC input (Spacer), not to circuits"
            ));
        }
        Ok(cove_aig::driver::SolveConfig {
            engine: hardware_engine(&self.engine, self.threads)?,
            reduce: cove_aig::reduce::Options {
                merge_inputs: !self.no_merge_inputs,
                lcorr: self.latch_corr,
            },
            certificate: self.certificate.clone(),
            ..Default::default()
        })
    }

    /// The Spacer flags given on the command line, as written.
    pub fn spacer_flags_given(&self) -> Vec<&'static str> {
        [
            (self.may_only, "--may-only"),
            (self.bottom_up, "--bottom-up"),
            (self.no_mbp, "--no-mbp"),
            (self.no_weaken, "--no-weaken"),
            (self.no_farkas, "--no-farkas"),
            (self.no_global, "--no-global"),
            (self.no_subsume, "--no-subsume"),
            (self.gg_concretize, "--gg-concretize"),
            (self.gg_conjecture, "--gg-conjecture"),
        ]
        .into_iter()
        .filter_map(|(on, f)| on.then_some(f))
        .collect()
    }

    /// The hardware-only flags given on the command line, as written.
    pub fn hardware_flags_given(&self) -> Vec<&'static str> {
        [
            (self.no_merge_inputs, "--no-merge-inputs"),
            (self.latch_corr, "--latch-corr"),
        ]
        .into_iter()
        .filter_map(|(on, f)| on.then_some(f))
        .collect()
    }
}

/// The hardware engine named `name` (the CHC default `spacer` means the default here too:
/// the portfolio, with `threads`).
pub fn hardware_engine(
    name: &str,
    threads: usize,
) -> Result<cove_aig::driver::EngineChoice, String> {
    use cove_aig::driver::EngineChoice;
    let known = if name == "spacer" { "portfolio" } else { name };
    let mut engine = EngineChoice::parse_spec(known)?;
    if let EngineChoice::Portfolio(p) = &mut engine
        && threads != 0
    {
        p.threads = threads;
    }
    Ok(engine)
}
