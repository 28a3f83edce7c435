//! Solving a file, whatever its language: the one call behind `cove solve`, the C API's
//! `cove_solve_file` and Python's `cove.solve_file`.
//!
//! [`solve_file`] decides the input's language ([`InputFormat`]), reads the file, runs the
//! Horn-clause driver ([`cove_chc::driver::solve`], once per question of the file) or the
//! hardware driver ([`cove_aig::driver::solve`] for AIGER, [`cove_aig::btor2_blast::check`]
//! for BTOR2), and hands every answer over in the format's own convention: CHC-COMP's
//! `sat`/`unsat`/`unknown` (sat = safe), HWMCC's witness (`1` = a bad state is reachable),
//! BTOR2's witness. Every definite answer has passed its independent certificate check.
//!
//! **Exactly one answer per question, within the limit.** Every phase polls the limits of
//! the [`Control`]; should one not (a bug), the caller still gets an `unknown` for every
//! question not yet answered, [`ANSWER_SLACK`] after the deadline, marked
//! [`FileAnswer::overran`]. That is why the work runs on a thread of its own: the caller's
//! thread keeps the clock. A phase that overran is left to finish on its thread (its result
//! is dropped); a process that exits, as the command line does, ends it.

use crate::InputFormat;
use cove_aig::btor2_blast::Btor2Verdict;
use cove_aig::{SafeProof, Verdict};
use cove_chc::ChcResult;
use cove_chc::frontend::{ErrorKind, Query, parse_queries};
use cove_chc::witness::{print_derivation, print_invariants, value_text};
use cove_chc::{ChcSystem, UnknownReason};
use cove_control::Control;
use cove_logic::TermStore;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long after the deadline [`solve_file`] answers for a phase that did not stop.
pub const ANSWER_SLACK: Duration = Duration::from_millis(600);

/// How to solve a file. Each language has its own driver configuration, or the reason this
/// run does not solve that language (an engine of the other kind was asked for, or an option
/// that only the other kind has): the format is known only once the file is looked at.
#[derive(Clone, Debug)]
pub struct FileConfig {
    /// The input's language; `None` decides it from the file ([`InputFormat::of_file`]).
    pub format: Option<InputFormat>,
    /// How Horn clauses are solved, or why this run does not solve them.
    pub chc: Result<cove_chc::driver::SolveConfig, String>,
    /// How circuits (AIGER, BTOR2) are solved, or why this run does not solve them.
    pub hardware: Result<cove_aig::driver::SolveConfig, String>,
    /// Horn clauses: give the invariants of a `sat` answer (and the constants' values) as
    /// SMT-LIB2 `define-fun` commands in [`FileAnswer::witness`] and the answer's text.
    pub model: bool,
    /// Horn clauses: give the counterexample of an `unsat` answer as a derivation.
    pub counterexample: bool,
}

impl Default for FileConfig {
    /// Both portfolios, default options, no witnesses of Horn-clause answers.
    fn default() -> FileConfig {
        FileConfig {
            format: None,
            chc: Ok(Default::default()),
            hardware: Ok(Default::default()),
            model: false,
            counterexample: false,
        }
    }
}

impl FileConfig {
    /// Engine `name` (with options after a colon, `spacer:bottom-up`, `ic3:no-predict`, in
    /// the words of [`cove_control::engine_options`]): `portfolio` (both portfolios) or an
    /// engine of either registry ([`cove_chc::driver::EngineChoice::parse`],
    /// [`cove_aig::driver::EngineChoice::parse`]); a file of the other kind is then refused.
    /// `Err` for a name neither knows, listing the names.
    pub fn with_engine(name: &str, threads: usize) -> Result<FileConfig, String> {
        let chc_spec = cove_chc::driver::EngineChoice::parse_spec(name);
        let hw_spec = cove_aig::driver::EngineChoice::parse_spec(name);
        let (chc, mut hw) = (
            chc_spec.as_ref().ok().cloned(),
            hw_spec.as_ref().ok().cloned(),
        );
        if let (Err(c), Err(h)) = (&chc_spec, &hw_spec) {
            // A name one registry knows, with a wrong option: that registry's message.
            let base = cove_control::engine_options::split_spec(name).0;
            return Err(if cove_chc::driver::EngineChoice::parse(base).is_some() {
                c.clone()
            } else if cove_aig::driver::EngineChoice::parse(base).is_some() {
                h.clone()
            } else {
                format!(
                    "unknown engine '{name}' (Horn clauses: {}; circuits: {})",
                    cove_chc::driver::EngineChoice::names().join(", "),
                    cove_aig::driver::EngineChoice::names().join(", ")
                )
            });
        }
        if let Some(cove_aig::driver::EngineChoice::Portfolio(p)) = &mut hw
            && threads != 0
        {
            p.threads = threads;
        }
        Ok(FileConfig {
            chc: chc
                .map(|engine| cove_chc::driver::SolveConfig {
                    engine,
                    threads,
                    ..Default::default()
                })
                .ok_or_else(|| format!("engine '{name}' solves circuits, not Horn clauses")),
            hardware: hw
                .map(|engine| cove_aig::driver::SolveConfig {
                    engine,
                    ..Default::default()
                })
                .ok_or_else(|| format!("engine '{name}' solves Horn clauses, not circuits")),
            ..FileConfig::default()
        })
    }
}

/// Whether the property holds, whatever the language's words for it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Safety {
    /// Nothing bad can happen (CHC `sat`, HWMCC `0`, BTOR2 `unsat`), with a checked proof.
    Safe,
    /// Something bad can happen (CHC `unsat`, HWMCC `1`, BTOR2 `sat`), with a checked
    /// counterexample.
    Unsafe,
    /// No answer (a limit, an interruption, or no engine could decide).
    Unknown,
}

/// The typed result an answer was read from, for callers that want more than text.
pub enum Detail {
    /// A question of a Horn-clause file, or a BTOR2 model whose memories are decided as
    /// Horn clauses over arrays ([`cove_chc::btor2`]).
    Chc(Box<cove_chc::driver::Outcome>),
    /// An AIGER circuit (all its properties).
    Aiger(Box<cove_aig::driver::Outcome>),
    /// A BTOR2 model.
    Btor2(Box<Btor2Verdict>),
    /// None: the answer was given for a phase that did not stop in time, or the limit was
    /// reached while reading.
    None,
}

impl std::fmt::Debug for Detail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Detail::Chc(_) => "Chc(..)",
            Detail::Aiger(_) => "Aiger(..)",
            Detail::Btor2(_) => "Btor2(..)",
            Detail::None => "None",
        })
    }
}

/// One answer of [`solve_file`].
#[derive(Debug)]
pub struct FileAnswer {
    /// The input's language.
    pub format: InputFormat,
    /// Whether the property holds.
    pub safety: Safety,
    /// The verdict in the language's words: `sat`/`unsat`/`unknown` for Horn clauses,
    /// `safe`/`unsafe`/`unknown` for circuits.
    pub verdict: &'static str,
    /// The answer as the language's tools print it: the verdict line (with the witness
    /// asked for) for Horn clauses, the HWMCC witness for AIGER (`1`/`0`/`2`, one block per
    /// property when there are several), the BTOR2 witness for BTOR2.
    pub text: String,
    /// The witness alone: the invariants or the derivation asked for (Horn clauses), the
    /// HWMCC or BTOR2 witness (circuits).
    pub witness: Option<String>,
    /// Why the answer is `unknown` (with the phase it stopped in, when known).
    pub reason: Option<String>,
    /// The engine that answered (`none` when none ran).
    pub engine: String,
    /// The certificate check, as text (`valid`, `none`, `failed: …`, `undecided: …`).
    pub validation: String,
    /// The certificate was refuted: the answer was withdrawn as `unknown` (a bug in Cove).
    pub certificate_failed: bool,
    /// Wall-clock time of the answer.
    pub time: Duration,
    /// Engine statistics (name, value).
    pub stats: Vec<(String, String)>,
    /// AIGER: each property's name (`b0`, `j0`, …) and answer, in file order.
    pub properties: Vec<(String, Safety)>,
    /// The answer was given by the guarantee of one answer per question: a phase did not
    /// stop within [`ANSWER_SLACK`] of the deadline (please report the input).
    pub overran: bool,
    /// The typed result.
    pub detail: Detail,
}

/// Why a file was not solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileError {
    /// The file cannot be read (the message names it).
    Io(String),
    /// The file is not a legal input, or asks for what Cove does not support:
    /// `FILE:LINE:COL: error: …` (or `unsupported: …`).
    Input(String),
    /// The configuration does not solve this file's language (see [`FileConfig`]).
    Config(String),
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileError::Io(m) | FileError::Input(m) | FileError::Config(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for FileError {}

impl InputFormat {
    /// The text of an `unknown` answer in the language's convention.
    pub fn unknown_text(self) -> &'static str {
        match self {
            InputFormat::Chc => "unknown\n",
            InputFormat::Aiger => "2\nb0\n.\n",
            InputFormat::Btor2 => "unknown\nb0\n.\n",
        }
    }

    /// The verdict word of `safety` in the language (see [`FileAnswer::verdict`]).
    pub fn verdict_word(self, safety: Safety) -> &'static str {
        match (self, safety) {
            (_, Safety::Unknown) => "unknown",
            (InputFormat::Chc, Safety::Safe) => "sat",
            (InputFormat::Chc, Safety::Unsafe) => "unsat",
            (_, Safety::Safe) => "safe",
            (_, Safety::Unsafe) => "unsafe",
        }
    }
}

impl FileAnswer {
    /// An `unknown` answer with no engine run.
    fn unknown(format: InputFormat, reason: String, detail: Detail) -> FileAnswer {
        FileAnswer {
            format,
            safety: Safety::Unknown,
            verdict: "unknown",
            text: format.unknown_text().to_string(),
            witness: None,
            reason: Some(reason),
            engine: "none".into(),
            validation: "none".into(),
            certificate_failed: false,
            time: Duration::ZERO,
            stats: vec![],
            properties: vec![],
            overran: false,
            detail,
        }
    }
}

/// What the worker thread tells the caller's thread.
enum Message {
    /// The input's language, once decided.
    Format(InputFormat),
    /// The number of answers the file asks for (sent once it is read).
    Owe(usize),
    /// One answer, in order.
    Answer(Box<FileAnswer>),
    /// The file was not solved.
    Refused(FileError),
}

/// Solves the file at `path` (`-`: standard input, read as Horn clauses unless
/// `config.format` says otherwise) under the limits of `ctl`, calling `on_answer` once per
/// question of the file, in order, on the caller's thread; returns the number of answers.
/// With a deadline in `ctl`, the last call comes at most [`ANSWER_SLACK`] after it (see the
/// module's documentation). `Err` when the file cannot be read, is not a legal input, or is
/// of a language `config` does not solve; no answer is given then.
pub fn solve_file(
    path: &Path,
    config: &FileConfig,
    ctl: &Control,
    mut on_answer: impl FnMut(FileAnswer),
) -> Result<usize, FileError> {
    // The name's guess until the worker has looked (opening the file may block: a pipe).
    let mut format = config
        .format
        .unwrap_or_else(|| InputFormat::sniff(path, b""));
    let (tx, rx) = mpsc::channel();
    let work = {
        let (path, config, ctl) = (path.to_path_buf(), config.clone(), ctl.clone());
        move || {
            let format = config.format.unwrap_or_else(|| InputFormat::of_file(&path));
            let _ = tx.send(Message::Format(format));
            run(&path, format, &config, &ctl, &tx)
        }
    };
    let mut size = cove_control::stack::LARGE_STACK;
    let handle = loop {
        let builder = std::thread::Builder::new()
            .name("cove-file".into())
            .stack_size(size);
        // `spawn` consumes the closure only when the thread starts; on failure it is lost,
        // so the closure is cloned per attempt (it holds owned copies only).
        match builder.spawn(work.clone()) {
            Ok(h) => break h,
            Err(_) if size > 16 << 20 => size /= 4,
            Err(e) => return Err(FileError::Io(format!("cannot start a thread: {e}"))),
        }
    };
    let deadline = ctl.deadline.map(|d| d + ANSWER_SLACK);
    let (mut owed, mut given) = (1usize, 0usize);
    loop {
        let msg = match deadline {
            Some(d) => rx.recv_timeout(d.saturating_duration_since(Instant::now())),
            None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        };
        match msg {
            Ok(Message::Format(f)) => format = f,
            Ok(Message::Owe(n)) => owed = n,
            Ok(Message::Answer(a)) => {
                on_answer(*a);
                given += 1;
            }
            Ok(Message::Refused(e)) => return Err(e),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                for _ in given..owed {
                    let mut a = FileAnswer::unknown(
                        format,
                        "time limit reached; a phase did not stop in time".into(),
                        Detail::None,
                    );
                    a.overran = true;
                    on_answer(a);
                }
                return Ok(owed.max(given));
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                // The worker ended without owing more: a panic is the caller's.
                if let Err(p) = handle.join() {
                    std::panic::resume_unwind(p);
                }
                return Ok(given);
            }
        }
        if given >= owed {
            return Ok(given);
        }
    }
}

/// The worker: reads, solves, sends. Send errors mean the caller stopped listening (it
/// answered for an overrun); the rest of the work is then pointless but harmless.
fn run(
    path: &Path,
    format: InputFormat,
    config: &FileConfig,
    ctl: &Control,
    tx: &mpsc::Sender<Message>,
) {
    let refuse = |e: FileError| {
        let _ = tx.send(Message::Refused(e));
    };
    let src = match read(path) {
        Ok(s) => s,
        Err(e) => return refuse(e),
    };
    match format {
        InputFormat::Chc => match &config.chc {
            Ok(cfg) => solve_chc(path, &src, cfg, config, ctl, tx),
            Err(m) => refuse(FileError::Config(m.clone())),
        },
        InputFormat::Aiger | InputFormat::Btor2 => match &config.hardware {
            Ok(cfg) => {
                let mut cfg = cfg.clone();
                if cfg.model_name.is_empty() {
                    cfg.model_name = path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                }
                let answer = if format == InputFormat::Aiger {
                    solve_aiger(path, &src, &cfg, ctl)
                } else {
                    solve_btor2(path, &src, &cfg, config.chc.as_ref().ok(), ctl)
                };
                match answer {
                    Ok(a) => {
                        let _ = tx.send(Message::Owe(1));
                        let _ = tx.send(Message::Answer(Box::new(a)));
                    }
                    Err(e) => refuse(e),
                }
            }
            Err(m) => refuse(FileError::Config(m.clone())),
        },
    }
}

/// A circuit reader's refusal: `FILE:LINE:COL: error: …` (or `unsupported: …`).
fn input_error(path: &Path, line: usize, col: usize, unsupported: bool, msg: &str) -> FileError {
    let kind = if unsupported { "unsupported" } else { "error" };
    FileError::Input(format!("{}:{line}:{col}: {kind}: {msg}", path.display()))
}

/// The bytes of the file at `path` (`-`: standard input), or [`FileError::Io`] naming it.
pub fn read(path: &Path) -> Result<Vec<u8>, FileError> {
    use std::io::Read;
    let mut buf = Vec::new();
    let r = if path.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut buf).map(|_| ())
    } else {
        std::fs::File::open(path)
            .and_then(|mut f| f.read_to_end(&mut buf))
            .map(|_| ())
    };
    r.map_err(|e| FileError::Io(format!("cannot read {}: {e}", path.display())))?;
    Ok(buf)
}

fn solve_chc(
    path: &Path,
    src: &[u8],
    cfg: &cove_chc::driver::SolveConfig,
    config: &FileConfig,
    ctl: &Control,
    tx: &mpsc::Sender<Message>,
) {
    use cove_chc::driver::{self, Outcome, Phase};
    let mut store = TermStore::new();
    let queries = match parse_queries(src, &mut store, ctl) {
        Ok(q) => q,
        Err(e) if e.kind == ErrorKind::Limit => {
            // The limit was reached while reading: an honest answer, not an input error.
            let reason = ctl.should_stop().unwrap_or(UnknownReason::Timeout);
            let mut out = Outcome::unknown(store, reason, Phase::Parsing);
            out.engine = "none".into();
            let _ = tx.send(Message::Owe(1));
            let _ = tx.send(Message::Answer(Box::new(chc_answer(None, out, config))));
            return;
        }
        Err(e) => {
            let _ = tx.send(Message::Refused(FileError::Input(format!(
                "{}:{e}",
                path.display()
            ))));
            return;
        }
    };
    let _ = tx.send(Message::Owe(queries.len()));
    for q in &queries {
        let out = driver::solve(&store, q, cfg, ctl);
        if tx
            .send(Message::Answer(Box::new(chc_answer(Some(q), out, config))))
            .is_err()
        {
            return;
        }
    }
}

/// A Horn-clause answer, with the witnesses `config` asks for.
fn chc_answer(
    q: Option<&Query>,
    out: cove_chc::driver::Outcome,
    config: &FileConfig,
) -> FileAnswer {
    let st = &out.store;
    let witness = match (&out.answer, q) {
        (ChcResult::Sat(inv), _) if config.model => {
            let mut s = String::new();
            for (k, v) in &out.constants {
                let _ = writeln!(
                    s,
                    "(define-fun {} () {} {})",
                    cove_logic::print::symbol(st.var_name(*k)),
                    st.var_sort(*k),
                    value_text(v, st.var_sort(*k))
                );
            }
            s.push_str(&print_invariants(st, inv));
            Some(s)
        }
        (ChcResult::Unsat(d), Some(q)) if config.counterexample => {
            Some(print_derivation(st, &ground_system(&out, q), d))
        }
        _ => None,
    };
    let reason = match (&out.answer, out.phase) {
        (ChcResult::Unknown(r), Some(p)) => Some(format!("{r} (in {p})")),
        (ChcResult::Unknown(r), None) => Some(r.to_string()),
        _ => None,
    };
    let safety = match out.answer {
        ChcResult::Sat(_) => Safety::Safe,
        ChcResult::Unsat(_) => Safety::Unsafe,
        ChcResult::Unknown(_) => Safety::Unknown,
    };
    let mut text = format!("{}\n", out.answer.verdict());
    if let Some(w) = &witness {
        text.push_str(w);
    }
    FileAnswer {
        format: InputFormat::Chc,
        safety,
        verdict: InputFormat::Chc.verdict_word(safety),
        text,
        witness,
        reason,
        engine: out.engine.clone(),
        validation: out.validation.to_string(),
        certificate_failed: matches!(out.validation, cove_chc::driver::Validation::Failed(_)),
        time: out.time,
        stats: out.stats.clone(),
        properties: vec![],
        overran: false,
        detail: Detail::Chc(Box::new(out)),
    }
}

/// The system a counterexample is printed against: the question's clauses, with the
/// constants' values substituted when it has constants.
fn ground_system(out: &cove_chc::driver::Outcome, q: &Query) -> ChcSystem {
    let mut sys = q.system.clone();
    if out.constants.is_empty() {
        return sys;
    }
    let ks: Vec<_> = out.constants.iter().map(|(k, _)| *k).collect();
    for c in &mut sys.clauses {
        c.vars.retain(|v| !ks.contains(v));
    }
    sys
}

fn safety_of(v: &Verdict) -> Safety {
    match v {
        Verdict::Safe(_) => Safety::Safe,
        Verdict::Unsafe(_) => Safety::Unsafe,
        Verdict::Unknown(_) => Safety::Unknown,
    }
}

/// The statistics of a hardware proof.
fn proof_stats(p: &SafeProof) -> Vec<(String, String)> {
    match p {
        SafeProof::Invariant(inv) => vec![("invariant-clauses".into(), inv.len().to_string())],
        SafeProof::KInduction { k, aux } => vec![
            ("k-induction-depth".into(), k.to_string()),
            ("aux-invariant-clauses".into(), aux.len().to_string()),
        ],
    }
}

fn solve_aiger(
    path: &Path,
    src: &[u8],
    cfg: &cove_aig::driver::SolveConfig,
    ctl: &Control,
) -> Result<FileAnswer, FileError> {
    let aig = cove_aig::parse_aiger(src)
        .map_err(|e| input_error(path, e.line, e.byte, e.unsupported, &e.msg))?;
    let out = cove_aig::driver::solve(&aig, cfg, ctl);
    let nb = aig.bad.len();
    let text = if out.properties.len() > 1 || !aig.justice.is_empty() {
        cove_aig::hwmcc_output::format_properties_of(&out.properties, nb)
    } else {
        cove_aig::hwmcc_output::format_verdict(&out.verdict)
    };
    let safety = safety_of(&out.verdict);
    let stats = match &out.verdict {
        Verdict::Safe(p) => proof_stats(p),
        _ => vec![],
    };
    Ok(FileAnswer {
        format: InputFormat::Aiger,
        safety,
        verdict: InputFormat::Aiger.verdict_word(safety),
        witness: Some(text.clone()),
        text,
        reason: match &out.verdict {
            Verdict::Unknown(r) => Some(r.to_string()),
            _ => None,
        },
        engine: out.engine.to_string(),
        validation: out.validation.to_string(),
        certificate_failed: out.validation.is_failed(),
        time: out.time,
        stats,
        properties: out
            .properties
            .iter()
            .enumerate()
            .map(|(i, v)| (cove_aig::hwmcc_output::property_name(i, nb), safety_of(v)))
            .collect(),
        overran: false,
        detail: Detail::Aiger(Box::new(out)),
    })
}

/// A BTOR2 model: bit-blasted onto the hardware engines when its memories are small enough
/// ([`cove_aig::btor2::ArraySort::blastable`]), else decided as Horn clauses over bit-vectors
/// and arrays ([`cove_chc::btor2`]) with `chc` (when this run solves Horn clauses at all).
fn solve_btor2(
    path: &Path,
    src: &[u8],
    cfg: &cove_aig::driver::SolveConfig,
    chc: Option<&cove_chc::driver::SolveConfig>,
    ctl: &Control,
) -> Result<FileAnswer, FileError> {
    let start = Instant::now();
    if cfg.certificate.is_some() {
        return Err(FileError::Config(
            "a certificate file is written for AIGER input only".into(),
        ));
    }
    let model = cove_aig::btor2::parse_btor2(src)
        .map_err(|e| input_error(path, e.line, e.col, e.unsupported, &e.msg))?;
    if let (Some(_), Some(chc)) = (model.unblastable_array(), chc) {
        return Ok(solve_btor2_over_arrays(&model, chc, ctl, start));
    }
    let (verdict, _, validation) = cove_aig::btor2_blast::check(&model, cfg, ctl);
    let (safety, text, reason, stats) = match &verdict {
        Btor2Verdict::Unsafe(_, text) => (Safety::Unsafe, text.clone(), None, vec![]),
        Btor2Verdict::Safe(p) => (Safety::Safe, "unsat\nb0\n.\n".into(), None, proof_stats(p)),
        Btor2Verdict::Unknown(r) => (
            Safety::Unknown,
            InputFormat::Btor2.unknown_text().into(),
            Some(r.to_string()),
            vec![],
        ),
    };
    Ok(FileAnswer {
        engine: cfg.engine.name().to_string(),
        validation: validation.to_string(),
        certificate_failed: validation.is_failed(),
        stats,
        ..btor2_answer(
            safety,
            text,
            reason,
            Detail::Btor2(Box::new(verdict)),
            start,
        )
    })
}

/// A BTOR2 model as Horn clauses over bit-vectors and arrays: the invariant is checked by
/// the CHC certificate checker, a counterexample is turned into a BTOR2 witness, printed, read
/// back and replayed on the model by the word-level simulator (a replay failure withdraws the
/// answer: a bug).
fn solve_btor2_over_arrays(
    model: &cove_aig::btor2::Model,
    cfg: &cove_chc::driver::SolveConfig,
    ctl: &Control,
    start: Instant,
) -> FileAnswer {
    use cove_aig::btor2_sim::{check_witness, format_witness, parse_witness};
    let mut store = TermStore::new();
    let unknown_text = InputFormat::Btor2.unknown_text();
    let (out, enc) = match cove_chc::btor2::encode(model, &mut store) {
        Ok(enc) => {
            let q = Query {
                system: enc.system.clone(),
                constants: vec![],
                pos: None,
            };
            (cove_chc::driver::solve(&store, &q, cfg, ctl), enc)
        }
        Err(e) => {
            let reason = UnknownReason::Unsupported(e);
            let out =
                cove_chc::driver::Outcome::unknown(store, reason, cove_chc::driver::Phase::Parsing);
            return chc_btor2_answer(out, Safety::Unknown, unknown_text.into(), None, start);
        }
    };
    match &out.answer {
        ChcResult::Sat(_) => {
            chc_btor2_answer(out, Safety::Safe, "unsat\nb0\n.\n".into(), None, start)
        }
        ChcResult::Unknown(r) => {
            let r = r.to_string();
            chc_btor2_answer(out, Safety::Unknown, unknown_text.into(), Some(r), start)
        }
        ChcResult::Unsat(d) => {
            let replayed = cove_chc::btor2::witness(model, &enc, d).and_then(|w| {
                let text = format_witness(model, &w);
                let back = parse_witness(&text)?;
                check_witness(model, &back)?;
                Ok(text)
            });
            match replayed {
                Ok(text) => chc_btor2_answer(out, Safety::Unsafe, text, None, start),
                Err(e) => {
                    let msg = format!("counterexample failed word-level simulation: {e}");
                    let mut a =
                        chc_btor2_answer(out, Safety::Unknown, unknown_text.into(), None, start);
                    a.reason = Some(format!("incomplete: {msg}"));
                    a.validation = format!("failed: {msg}");
                    a.certificate_failed = true;
                    a
                }
            }
        }
    }
}

/// The answer for a BTOR2 model decided as Horn clauses.
fn chc_btor2_answer(
    out: cove_chc::driver::Outcome,
    safety: Safety,
    text: String,
    reason: Option<String>,
    start: Instant,
) -> FileAnswer {
    FileAnswer {
        engine: out.engine.clone(),
        validation: out.validation.to_string(),
        certificate_failed: matches!(out.validation, cove_chc::driver::Validation::Failed(_)),
        ..btor2_answer(safety, text, reason, Detail::Chc(Box::new(out)), start)
    }
}

/// A BTOR2 answer in the format's words; each route fills in its engine, validation and
/// statistics.
fn btor2_answer(
    safety: Safety,
    text: String,
    reason: Option<String>,
    detail: Detail,
    start: Instant,
) -> FileAnswer {
    FileAnswer {
        format: InputFormat::Btor2,
        safety,
        verdict: InputFormat::Btor2.verdict_word(safety),
        witness: Some(text.clone()),
        text,
        reason,
        engine: String::new(),
        validation: "none".into(),
        certificate_failed: false,
        time: start.elapsed(),
        stats: vec![],
        properties: vec![],
        overran: false,
        detail,
    }
}

/// Reads a file as [`solve_file`] does, for callers that want every answer at once.
pub fn solve_file_all(
    path: &Path,
    config: &FileConfig,
    ctl: &Control,
) -> Result<Vec<FileAnswer>, FileError> {
    let mut answers = vec![];
    solve_file(path, config, ctl, |a| answers.push(a))?;
    Ok(answers)
}
