//! Python bindings for Cove: the `cove` module.
//!
//! The bindings are a thin layer over Cove's embedding layer, [`Session`] (the C API wraps
//! the same type), and over [`cove_chc::driver::solve`] for text: a Python caller gets
//! exactly what `cove solve` does — preprocessing, the engine or portfolio, limits, and the
//! independent certificate check (an answer whose certificate fails is never returned).
//!
//! [`System`] is a session: it wraps a parsed file or accumulates declarations and clauses
//! given as SMT-LIB2 formulas (each addition is parsed at once, so errors point at the
//! offending call), has `push`/`pop` scopes, and solves incrementally: facts and lemmas of
//! earlier answers are reused as the session's documentation explains. Answers come back as
//! plain Python data: invariants as `define-fun` text and as nested lists (`["<=", "x0",
//! 10]`), the counterexample as derivation steps with concrete values (`int`,
//! `fractions.Fraction`, `bool`).
//!
//! `cove.solve_file` solves a file of any language Cove reads (Horn clauses, AIGER, BTOR2)
//! through the facade's [`cove::solve_file()`], as `cove solve FILE` does.
//!
//! Solving releases the GIL and runs on a helper thread while the calling thread checks for
//! signals every 50 ms, so Ctrl-C stops a long solve (through the run's [`Control`]
//! interrupt) and raises `KeyboardInterrupt`.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod convert;

use convert::{term_to_py, value_to_py};
use cove_chc::driver::{Outcome, SolveConfig, solve};
use cove_chc::frontend::{Query, parse_queries};
use cove_chc::session::{Session, SessionError, SolveRequest};
use cove_chc::witness::{print_derivation, print_invariants};
use cove_chc::{ChcResult, Control};
use cove_logic::TermStore;
use cove_logic::print::symbol;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use rustc_hash::FxHashMap;
use std::time::Duration;

pyo3::create_exception!(
    cove,
    ParseError,
    PyValueError,
    "The input is not a CHC system Cove reads (syntax, sorts, non-Horn clause, unsupported theory)."
);

/// Parses `src` into its questions, mapping errors to `cove.ParseError`.
fn parse(src: &[u8], store: &mut TermStore) -> PyResult<Vec<Query>> {
    parse_queries(src, store, &Control::default()).map_err(|e| ParseError::new_err(e.to_string()))
}

/// A session error as a Python exception: `cove.ParseError` for text Cove cannot read,
/// `ValueError` otherwise.
fn session_err(e: SessionError) -> PyErr {
    match e {
        SessionError::Parse(p) => ParseError::new_err(p.to_string()),
        SessionError::Invalid(m) => PyValueError::new_err(m),
    }
}

/// A CHC system being built and solved, incrementally.
///
/// `System.parse(text)` reads a file's system; `System()` starts an empty one that
/// `declare`, `add_clause` and `add` extend. `push()`/`pop()` open and close scopes of
/// clauses; `solve()` may be called after any change and reuses what earlier solves proved
/// (`incremental = False` turns that off). Every change is parsed at once, so an error is
/// raised by the call that caused it, and nothing of a failed call is kept.
#[pyclass(module = "cove")]
#[derive(Clone, Default)]
pub struct System {
    session: Session,
}

/// Reads the `vars` argument of `add_clause`: a dict `{name: sort}` or a list of pairs.
fn vars_arg(vars: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<(String, String)>> {
    let Some(v) = vars else { return Ok(vec![]) };
    if let Ok(d) = v.downcast::<PyDict>() {
        return d
            .iter()
            .map(|(k, s)| Ok((k.extract()?, s.extract()?)))
            .collect();
    }
    v.try_iter()?
        .map(|item| item?.extract::<(String, String)>())
        .collect()
}

#[pymethods]
impl System {
    /// An empty system, to be filled with `declare`, `add_clause` and `add`.
    #[new]
    fn new() -> Self {
        System::default()
    }

    /// Reads CHC text (SMT-LIB2 `HORN` as in CHC-COMP, or Z3's fixedpoint format) with at
    /// most one question. Raises `cove.ParseError` if Cove cannot read it, `ValueError` for
    /// text with several questions or declared constants (solve such text with
    /// `cove.solve`/`cove.solve_all`).
    #[staticmethod]
    fn parse(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = text_arg(text)?;
        Ok(System {
            session: Session::from_smtlib(&text).map_err(session_err)?,
        })
    }

    /// Reads a CHC file (see `parse`).
    #[staticmethod]
    fn from_file(path: std::path::PathBuf) -> PyResult<Self> {
        let bytes = std::fs::read(&path).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!("{}: {e}", path.display()))
        })?;
        let text = String::from_utf8(bytes)
            .map_err(|_| ParseError::new_err(format!("{}: not UTF-8 text", path.display())))?;
        let session = Session::from_smtlib(&text).map_err(|e| match e {
            SessionError::Parse(p) => ParseError::new_err(format!("{}:{p}", path.display())),
            SessionError::Invalid(m) => PyValueError::new_err(format!("{}: {m}", path.display())),
        })?;
        Ok(System { session })
    }

    /// Declares a predicate `name` with argument sorts (`"Int"`, `"Real"`, `"Bool"`,
    /// `"(Array Int Int)"`). Returns `name`, for use in clauses. Declarations are not scoped.
    fn declare(&mut self, name: &str, sorts: Vec<String>) -> PyResult<String> {
        let sorts: Vec<&str> = sorts.iter().map(String::as_str).collect();
        self.session.declare(name, &sorts).map_err(session_err)?;
        Ok(name.to_string())
    }

    /// Adds the clause `formula` (SMT-LIB2, e.g. `"(=> (and (inv x) (< x 10)) (inv (+ x
    /// 1)))"`), universally quantified over `vars` (`{"x": "Int"}` or `[("x", "Int")]`).
    /// Returns the number of clauses added.
    #[pyo3(signature = (formula, vars = None))]
    fn add_clause(&mut self, formula: &str, vars: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
        let vars = vars_arg(vars)?;
        let vars: Vec<(&str, &str)> = vars.iter().map(|(n, s)| (n.as_str(), s.as_str())).collect();
        self.session
            .add_clause_text(formula, &vars)
            .map_err(session_err)
    }

    /// Adds SMT-LIB2 commands (`declare-fun`, `assert`, Z3's `rule`/`query`, …; not
    /// `push`/`pop`/`check-sat`: use the methods). Returns the number of clauses added.
    fn add(&mut self, text: &str) -> PyResult<usize> {
        self.session.add_smtlib(text).map_err(session_err)
    }

    /// Opens a scope: `pop()` removes the clauses added after it.
    fn push(&mut self) {
        self.session.push();
    }

    /// Closes the `n` innermost scopes, removing their clauses.
    #[pyo3(signature = (n = 1))]
    fn pop(&mut self, n: usize) -> PyResult<()> {
        self.session.pop(n).map_err(session_err)
    }

    /// The number of open scopes.
    #[getter]
    fn scopes(&self) -> usize {
        self.session.scopes()
    }

    /// Whether `solve` reuses what earlier solves proved (default `True`).
    #[getter]
    fn get_incremental(&self) -> bool {
        self.session.incremental()
    }

    #[setter]
    fn set_incremental(&mut self, on: bool) {
        self.session.set_incremental(on);
    }

    /// What the last `solve` reused: `{"lemmas": n, "lemmas_inductive": n, "houdini": bool,
    /// "facts": n, "answered_by": "lemmas" | "facts" | None}`.
    #[getter]
    fn last_reuse<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let r = self.session.last_reuse();
        let d = PyDict::new(py);
        d.set_item("lemmas", r.lemmas_offered)?;
        d.set_item("lemmas_inductive", r.lemmas_inductive)?;
        d.set_item("houdini", r.houdini)?;
        d.set_item("facts", r.facts_alive)?;
        d.set_item("answered_by", r.answered_by)?;
        Ok(d)
    }

    /// The predicates: a list of `(name, [sorts])`.
    #[getter]
    fn predicates(&self) -> Vec<(String, Vec<String>)> {
        let store = self.session.store();
        self.session
            .predicates()
            .iter()
            .map(|&p| {
                let d = store.func(p);
                (
                    d.name.to_string(),
                    d.args.iter().map(|s| s.to_string()).collect(),
                )
            })
            .collect()
    }

    /// The number of clauses in force.
    fn __len__(&self) -> usize {
        self.session.len()
    }

    /// The system as SMT-LIB2 text (what `cove solve` would read).
    fn to_smtlib(&self) -> String {
        self.session.to_smtlib()
    }

    /// Solves the clauses in force, reusing what earlier solves of this system proved; see
    /// `cove.solve` for the options.
    #[pyo3(signature = (*, engine = "portfolio", timeout = None, threads = 0, preprocess = true, validate = true, memory_mb = None))]
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &mut self,
        py: Python<'_>,
        engine: &str,
        timeout: Option<f64>,
        threads: usize,
        preprocess: bool,
        validate: bool,
        memory_mb: Option<u64>,
    ) -> PyResult<Result> {
        let opts = options(engine, timeout, threads, preprocess, validate, memory_mb)?;
        let cfg = opts.config().map_err(PyValueError::new_err)?;
        let ctl = opts.control(Default::default());
        let session = &mut self.session;
        let (out, sys) = run_interruptibly(py, &ctl, || {
            let out = session.solve(&cfg, &ctl);
            (out, session.system())
        })?;
        Result::new(py, out, &sys)
    }

    fn __repr__(&self) -> String {
        format!("<cove.System: {} clauses>", self.session.len())
    }
}

/// Text from `str` or `bytes` (or a `cove.System`'s SMT-LIB2 text).
fn text_arg(v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = v.downcast::<PyString>() {
        return s.extract::<String>();
    }
    if let Ok(b) = v.downcast::<PyBytes>() {
        return String::from_utf8(b.as_bytes().to_vec())
            .map_err(|_| ParseError::new_err("input is not UTF-8 text"));
    }
    if let Ok(s) = v.extract::<PyRef<'_, System>>() {
        return Ok(s.session.to_smtlib());
    }
    Err(pyo3::exceptions::PyTypeError::new_err(
        "expected a cove.System, str or bytes",
    ))
}

/// The solve options of the keyword arguments (engine names are checked by the caller).
fn options(
    engine: &str,
    timeout: Option<f64>,
    threads: usize,
    preprocess: bool,
    validate: bool,
    memory_mb: Option<u64>,
) -> PyResult<SolveRequest> {
    let timeout = match timeout {
        None => None,
        Some(t) if t > 0.0 && t.is_finite() => Some(
            Duration::try_from_secs_f64(t)
                .map_err(|_| PyValueError::new_err("timeout is out of range"))?,
        ),
        Some(_) => {
            return Err(PyValueError::new_err(
                "timeout must be a positive number of seconds",
            ));
        }
    };
    if memory_mb == Some(0) {
        return Err(PyValueError::new_err(
            "memory_mb must be a positive number of MiB",
        ));
    }
    Ok(SolveRequest {
        engine: engine.to_string(),
        threads,
        timeout,
        memory_mb,
        preprocess,
        validate,
    })
}

/// Runs `work` on a helper thread with the GIL released, checking for signals every 50 ms:
/// a signal handler's exception (Ctrl-C's `KeyboardInterrupt`) stops the run through
/// `ctl`, waits for it, and is raised.
fn run_interruptibly<T: Send>(
    py: Python<'_>,
    ctl: &Control,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let stop = ctl.clone();
    let outcome = py.allow_threads(|| {
        std::thread::scope(|s| {
            let worker = s.spawn(work);
            while !worker.is_finished() {
                std::thread::sleep(Duration::from_millis(50));
                if let Err(e) = Python::with_gil(|py| py.check_signals()) {
                    stop.stop();
                    let _ = worker.join();
                    return Err(Some(e));
                }
            }
            worker.join().map_err(|_| None)
        })
    });
    match outcome {
        Ok(o) => Ok(o),
        Err(Some(signal)) => Err(signal),
        Err(None) => Err(PyRuntimeError::new_err("internal error in the solver")),
    }
}

/// Runs the driver on every question of `src` with the GIL released, polling for signals.
fn solve_all_queries(py: Python<'_>, src: Vec<u8>, opts: SolveRequest) -> PyResult<Vec<Result>> {
    let cfg: SolveConfig = opts.config().map_err(PyValueError::new_err)?;
    let ctl = opts.control(Default::default());
    let mut store = TermStore::new();
    let queries = parse(&src, &mut store)?;
    let outcomes = run_interruptibly(py, &ctl, || {
        queries
            .iter()
            .map(|q| (solve(&store, q, &cfg, &ctl), q.system.clone()))
            .collect::<Vec<_>>()
    })?;
    outcomes
        .into_iter()
        .map(|(out, sys)| Result::new(py, out, &sys))
        .collect()
}

fn solve_one(py: Python<'_>, src: Vec<u8>, opts: SolveRequest) -> PyResult<Result> {
    let mut all = solve_all_queries(py, src, opts)?;
    match all.len() {
        1 => Ok(all.remove(0)),
        0 => Err(PyValueError::new_err("the input asks no question")),
        n => Err(PyValueError::new_err(format!(
            "the input asks {n} questions (check-sat/query); use cove.solve_all"
        ))),
    }
}

/// Solves a CHC system (`cove.System`, or SMT-LIB2/Z3-fixedpoint text as `str` or `bytes`)
/// with one question, from scratch (`System.solve` solves incrementally).
///
/// `engine`: `"portfolio"` (default), `"spacer"`, `"bmc"`, … (`cove.ENGINES`);
/// `timeout`: seconds (default none); `memory_mb`: memory limit in MiB (default none);
/// `threads`: portfolio threads (0 = all cores); `preprocess`, `validate`: as `cove solve`
/// (`--no-preprocess`, `--no-validate`). Returns a `cove.Result`. Raises `cove.ParseError`
/// for input Cove cannot read.
#[pyfunction(name = "solve")]
#[pyo3(signature = (system, *, engine = "portfolio", timeout = None, threads = 0, preprocess = true, validate = true, memory_mb = None))]
#[allow(clippy::too_many_arguments)]
fn py_solve(
    py: Python<'_>,
    system: &Bound<'_, PyAny>,
    engine: &str,
    timeout: Option<f64>,
    threads: usize,
    preprocess: bool,
    validate: bool,
    memory_mb: Option<u64>,
) -> PyResult<Result> {
    let opts = options(engine, timeout, threads, preprocess, validate, memory_mb)?;
    solve_one(py, text_arg(system)?.into_bytes(), opts)
}

/// Like `solve`, for inputs with several questions (`push`/`pop`, several `check-sat`):
/// one `cove.Result` per question, in order; the limits apply to all together.
#[pyfunction]
#[pyo3(signature = (system, *, engine = "portfolio", timeout = None, threads = 0, preprocess = true, validate = true, memory_mb = None))]
#[allow(clippy::too_many_arguments)]
fn solve_all(
    py: Python<'_>,
    system: &Bound<'_, PyAny>,
    engine: &str,
    timeout: Option<f64>,
    threads: usize,
    preprocess: bool,
    validate: bool,
    memory_mb: Option<u64>,
) -> PyResult<Vec<Result>> {
    let opts = options(engine, timeout, threads, preprocess, validate, memory_mb)?;
    solve_all_queries(py, text_arg(system)?.into_bytes(), opts)
}

/// One answer of `cove.solve_file`, in the input language's convention.
#[pyclass(module = "cove", frozen, get_all)]
pub struct FileAnswer {
    /// The file's language: `"chc"`, `"aiger"` or `"btor2"`.
    format: String,
    /// `"safe"`, `"unsafe"` or `"unknown"`, whatever the language.
    safety: String,
    /// The verdict in the language's words: `sat`/`unsat`/`unknown` for Horn clauses (sat =
    /// safe), `safe`/`unsafe`/`unknown` for circuits.
    verdict: String,
    /// The answer as `cove solve` prints it (the HWMCC or BTOR2 witness for circuits).
    text: String,
    /// The witness alone (invariants or derivation when asked for; the circuit witness), or
    /// `None`.
    witness: Option<String>,
    /// Why the answer is `unknown`, else `None`.
    reason: Option<String>,
    /// The engine that answered.
    engine: String,
    /// The certificate check (`valid`, `none`, `undecided: …`).
    validation: String,
    /// AIGER: `(property, safety)` per property (`b0`, `j0`, …), in file order.
    properties: Vec<(String, String)>,
    /// Seconds.
    time: f64,
}

#[pymethods]
impl FileAnswer {
    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "FileAnswer(format={:?}, verdict={:?}, engine={:?})",
            self.format, self.verdict, self.engine
        )
    }
}

fn safety_word(s: cove::Safety) -> String {
    match s {
        cove::Safety::Safe => "safe",
        cove::Safety::Unsafe => "unsafe",
        cove::Safety::Unknown => "unknown",
    }
    .into()
}

/// Solves the file at `path` as `cove solve FILE` does, whatever its language: Horn clauses
/// (SMT-LIB2 `HORN`, z3's fixedpoint format), AIGER (`.aig`/`.aag` or an AIGER header) or
/// BTOR2 (`.btor2`/`.btor`). Returns one `cove.FileAnswer` per question of the file; every
/// definite answer has passed its certificate check. `engine`: `"portfolio"` or a name of
/// `cove.ENGINES` (Horn clauses) or `cove.HARDWARE_ENGINES` (circuits); `model`,
/// `counterexample`: the invariants or derivation of Horn-clause answers in the answer's
/// text (`--model`, `--cex`). Raises `cove.ParseError` for a file that is not a legal
/// input, `OSError` for one that cannot be read, `ValueError` for an engine that does not
/// solve the file's language.
#[pyfunction]
#[pyo3(signature = (path, *, engine = "portfolio", timeout = None, threads = 0, preprocess = true, validate = true, memory_mb = None, model = false, counterexample = false))]
#[allow(clippy::too_many_arguments)]
fn solve_file(
    py: Python<'_>,
    path: std::path::PathBuf,
    engine: &str,
    timeout: Option<f64>,
    threads: usize,
    preprocess: bool,
    validate: bool,
    memory_mb: Option<u64>,
    model: bool,
    counterexample: bool,
) -> PyResult<Vec<FileAnswer>> {
    let opts = options(engine, timeout, threads, preprocess, validate, memory_mb)?;
    let mut config =
        cove::FileConfig::with_engine(engine, threads).map_err(PyValueError::new_err)?;
    if let Ok(c) = &mut config.chc {
        c.preprocess = preprocess;
        c.validate = validate;
    }
    config.model = model;
    config.counterexample = counterexample;
    let ctl = opts.control(Default::default());
    let solved = run_interruptibly(py, &ctl, || {
        let mut answers = vec![];
        cove::solve_file(&path, &config, &ctl, |a| {
            answers.push(FileAnswer {
                format: a.format.name().into(),
                safety: safety_word(a.safety),
                verdict: a.verdict.into(),
                properties: a
                    .properties
                    .iter()
                    .map(|(n, s)| (n.clone(), safety_word(*s)))
                    .collect(),
                time: a.time.as_secs_f64(),
                text: a.text,
                witness: a.witness,
                reason: a.reason,
                engine: a.engine,
                validation: a.validation,
            })
        })
        .map(|_| answers)
    })?;
    solved.map_err(|e| match e {
        cove::FileError::Input(m) => ParseError::new_err(m),
        cove::FileError::Io(m) => pyo3::exceptions::PyOSError::new_err(m),
        cove::FileError::Config(m) => PyValueError::new_err(m),
    })
}

/// The invariant of one predicate in a `sat` answer.
#[pyclass(module = "cove", frozen, get_all)]
pub struct Invariant {
    /// The predicate's name.
    name: String,
    /// Parameters as `(name, sort)`; the body refers to them by these names (`x0`, `x1`, …).
    params: Vec<(String, String)>,
    /// The body as SMT-LIB2 text.
    body: String,
    /// The body as nested lists: `[op, arg, …]`, variables as names, numbers as `int` or
    /// `fractions.Fraction`, truth values as `bool`.
    term: PyObject,
    /// The whole `(define-fun …)` command.
    define_fun: String,
}

#[pymethods]
impl Invariant {
    fn __str__(&self) -> String {
        self.define_fun.clone()
    }

    fn __repr__(&self) -> String {
        format!("<cove.Invariant {}>", self.define_fun)
    }
}

/// One step of a counterexample: the clause instance deriving `predicate(args)`.
#[pyclass(module = "cove", frozen, get_all)]
pub struct Step {
    /// The derived predicate, or `None` for `false` (the root).
    predicate: Option<String>,
    /// The derived atom's argument values.
    args: Vec<PyObject>,
    /// The index of the clause (input order, 0-based).
    clause: usize,
    /// Values of the clause's variables.
    assignment: PyObject,
    /// Indices (into `Counterexample.steps`) of the steps deriving the body atoms, in order.
    premises: Vec<usize>,
}

#[pymethods]
impl Step {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| a.bind(py).str().map(|s| s.to_string()))
            .collect::<PyResult<_>>()?;
        Ok(format!(
            "<cove.Step {}({}) by clause {}>",
            self.predicate.as_deref().unwrap_or("false"),
            args.join(", "),
            self.clause
        ))
    }
}

/// The counterexample of an `unsat` answer: a derivation of `false`.
#[pyclass(module = "cove", frozen, get_all)]
pub struct Counterexample {
    /// The steps; `steps[root]` derives `false`.
    steps: Vec<Py<Step>>,
    /// Index of the root step.
    root: usize,
    /// The derivation tree as `cove solve --cex` prints it.
    text: String,
}

#[pymethods]
impl Counterexample {
    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __len__(&self) -> usize {
        self.steps.len()
    }

    fn __repr__(&self) -> String {
        format!("<cove.Counterexample: {} steps>", self.steps.len())
    }
}

/// The outcome of `cove.solve`.
#[pyclass(module = "cove", frozen, get_all)]
pub struct Result {
    /// `"sat"` (safe: invariants exist), `"unsat"` (a counterexample exists) or `"unknown"`.
    answer: String,
    /// For `unknown`: why (timeout, incomplete engine, unsupported input, …).
    reason: Option<String>,
    /// The engine that answered.
    engine: String,
    /// The independent certificate check: `valid`, `skipped`, `none`, …
    validation: String,
    /// For `sat`: the invariants by predicate name.
    invariants: Option<Py<PyDict>>,
    /// For `sat`: the CHC-COMP model, one `define-fun` per predicate (preceded by the
    /// values of declared constants, if the input has any).
    model: Option<String>,
    /// Values of the input's declared constants that the answer is for (usually empty).
    constants: Py<PyDict>,
    /// For `unsat`: the counterexample.
    counterexample: Option<Py<Counterexample>>,
    /// Engine statistics (name → value as text).
    stats: Py<PyDict>,
    /// Wall-clock seconds.
    time: f64,
}

impl Result {
    fn new(py: Python<'_>, out: Outcome, sys: &cove_chc::ChcSystem) -> PyResult<Result> {
        let store = &out.store;
        let mut invariants = None;
        let mut model = None;
        let mut counterexample = None;
        let mut reason = None;
        match &out.answer {
            ChcResult::Sat(inv) => {
                let dict = PyDict::new(py);
                for (f, def) in inv.sorted(store) {
                    let names: FxHashMap<_, String> = def
                        .params
                        .iter()
                        .enumerate()
                        .map(|(i, v)| (*v, format!("x{i}")))
                        .collect();
                    let params: Vec<(String, String)> = def
                        .params
                        .iter()
                        .map(|v| (names[v].clone(), store.var_sort(*v).to_string()))
                        .collect();
                    let mut body = String::new();
                    cove_logic::print::write_term_renamed(&mut body, store, def.body, &names);
                    let name = store.func(f).name.to_string();
                    let decls: Vec<String> =
                        params.iter().map(|(n, s)| format!("({n} {s})")).collect();
                    let define_fun = format!(
                        "(define-fun {} ({}) Bool {body})",
                        symbol(&name),
                        decls.join(" ")
                    );
                    let term = term_to_py(py, store, def.body, &names)?;
                    let inv = Invariant {
                        name: name.clone(),
                        params,
                        body,
                        term,
                        define_fun,
                    };
                    dict.set_item(name, Py::new(py, inv)?)?;
                }
                invariants = Some(dict.unbind());
                let mut text = String::new();
                for (k, v) in &out.constants {
                    text.push_str(&format!(
                        "(define-fun {} () {} {})\n",
                        symbol(store.var_name(*k)),
                        store.var_sort(*k),
                        cove_chc::witness::value_text(v, store.var_sort(*k))
                    ));
                }
                text.push_str(&print_invariants(store, inv));
                model = Some(text);
            }
            ChcResult::Unsat(d) => {
                let mut steps = Vec::with_capacity(d.steps.len());
                for st in &d.steps {
                    let (predicate, args) = match &st.head {
                        None => (None, vec![]),
                        Some((p, vals)) => {
                            let decl = store.func(*p);
                            let args = vals
                                .iter()
                                .zip(decl.args.iter())
                                .map(|(v, s)| value_to_py(py, v, *s))
                                .collect::<PyResult<Vec<_>>>()?;
                            (Some(decl.name.to_string()), args)
                        }
                    };
                    let assignment = PyDict::new(py);
                    for (v, val) in &st.assignment {
                        assignment.set_item(
                            store.var_name(*v),
                            value_to_py(py, val, store.var_sort(*v))?,
                        )?;
                    }
                    steps.push(Py::new(
                        py,
                        Step {
                            predicate,
                            args,
                            clause: st.clause,
                            assignment: assignment.into_any().unbind(),
                            premises: st.premises.clone(),
                        },
                    )?);
                }
                let cex = Counterexample {
                    steps,
                    root: d.root,
                    text: print_derivation(store, sys, d),
                };
                counterexample = Some(Py::new(py, cex)?);
            }
            ChcResult::Unknown(r) => reason = Some(r.to_string()),
        }
        let constants = PyDict::new(py);
        for (k, v) in &out.constants {
            constants.set_item(store.var_name(*k), value_to_py(py, v, store.var_sort(*k))?)?;
        }
        let stats = PyDict::new(py);
        for (k, v) in &out.stats {
            stats.set_item(k, v)?;
        }
        Ok(Result {
            answer: out.answer.verdict().to_string(),
            reason,
            engine: out.engine.clone(),
            validation: out.validation.to_string(),
            invariants,
            model,
            counterexample,
            constants: constants.unbind(),
            stats: stats.unbind(),
            time: out.time.as_secs_f64(),
        })
    }
}

#[pymethods]
impl Result {
    fn __repr__(&self) -> String {
        match &self.reason {
            Some(r) => format!("<cove.Result unknown ({r})>"),
            None => format!("<cove.Result {} by {}>", self.answer, self.engine),
        }
    }
}

/// Cove: a verification engine for constrained Horn clauses.
#[pymodule]
#[pyo3(name = "cove")]
fn cove_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<System>()?;
    m.add_class::<Result>()?;
    m.add_class::<Invariant>()?;
    m.add_class::<Counterexample>()?;
    m.add_class::<Step>()?;
    m.add_function(wrap_pyfunction!(py_solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_all, m)?)?;
    m.add_function(wrap_pyfunction!(solve_file, m)?)?;
    m.add_class::<FileAnswer>()?;
    m.add("ParseError", m.py().get_type::<ParseError>())?;
    m.add(
        "ENGINES",
        PyList::new(m.py(), SolveRequest::engine_names())?,
    )?;
    m.add(
        "HARDWARE_ENGINES",
        PyList::new(m.py(), cove::aig::driver::EngineChoice::names())?,
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
