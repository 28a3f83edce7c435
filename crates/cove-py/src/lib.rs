//! Python bindings for Cove: the `cove` module.
//!
//! The bindings are a thin layer over [`cove_chc::driver::solve`], so a Python caller gets
//! exactly what `cove solve` does — preprocessing, the engine or portfolio, limits, and the
//! independent certificate check (an answer whose certificate fails is never returned).
//!
//! Systems cross the boundary as SMT-LIB2 `HORN` text: [`System`] either wraps a parsed file
//! or accumulates declarations and clauses given as SMT-LIB2 formulas, and every addition is
//! parsed at once so errors point at the offending call. Answers come back as plain Python
//! data: invariants as `define-fun` text and as nested lists (`["<=", "x0", 10]`), the
//! counterexample as derivation steps with concrete values (`int`, `fractions.Fraction`,
//! `bool`).
//!
//! Solving releases the GIL and runs on a helper thread while the calling thread checks for
//! signals every 50 ms, so Ctrl-C stops a long solve (through the run's [`Control`]
//! interrupt) and raises `KeyboardInterrupt`.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod convert;

use convert::{term_to_py, value_to_py};
use cove_chc::driver::{EngineChoice, Outcome, SolveConfig, solve};
use cove_chc::frontend::{Query, parse_queries};
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

/// A CHC system, as SMT-LIB2 `HORN` text.
///
/// `System.parse(text)` wraps a file; `System()` starts an empty one that `declare` and
/// `add_clause` extend. Either way the text is parsed on every change, so an error is
/// raised by the call that caused it.
#[pyclass(module = "cove")]
#[derive(Clone, Default)]
pub struct System {
    /// Commands before `(check-sat)`.
    commands: Vec<String>,
    /// Whether the text came from `parse` (then it is kept verbatim).
    parsed: Option<String>,
}

impl System {
    fn text(&self) -> String {
        if let Some(t) = &self.parsed {
            return t.clone();
        }
        let mut s = String::from("(set-logic HORN)\n");
        for c in &self.commands {
            s.push_str(c);
            s.push('\n');
        }
        s.push_str("(check-sat)\n");
        s
    }

    /// Parses the current text; `Err` is a `cove.ParseError`.
    fn check(&self) -> PyResult<(TermStore, Vec<Query>)> {
        let mut store = TermStore::new();
        let q = parse(self.text().as_bytes(), &mut store)?;
        Ok((store, q))
    }

    fn push_checked(&mut self, command: String) -> PyResult<()> {
        if self.parsed.is_some() {
            return Err(PyValueError::new_err(
                "a parsed system is kept verbatim; build systems with System() to extend them",
            ));
        }
        self.commands.push(command);
        if let Err(e) = self.check() {
            self.commands.pop();
            return Err(e);
        }
        Ok(())
    }
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
    /// An empty system (`(set-logic HORN)`), to be filled with `declare` and `add_clause`.
    #[new]
    fn new() -> Self {
        System::default()
    }

    /// Wraps CHC text (SMT-LIB2 `HORN` as in CHC-COMP, or Z3's fixedpoint format).
    /// Raises `cove.ParseError` if Cove cannot read it.
    #[staticmethod]
    fn parse(text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = text_arg(text)?;
        let s = System {
            commands: vec![],
            parsed: Some(text),
        };
        s.check()?;
        Ok(s)
    }

    /// Reads a CHC file (see `parse`).
    #[staticmethod]
    fn from_file(path: std::path::PathBuf) -> PyResult<Self> {
        let bytes = std::fs::read(&path).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!("{}: {e}", path.display()))
        })?;
        let text = String::from_utf8(bytes)
            .map_err(|_| ParseError::new_err(format!("{}: not UTF-8 text", path.display())))?;
        let s = System {
            commands: vec![],
            parsed: Some(text),
        };
        s.check().map_err(|e| {
            Python::with_gil(|py| {
                ParseError::new_err(format!("{}:{}", path.display(), e.value(py)))
            })
        })?;
        Ok(s)
    }

    /// Declares a predicate `name` with argument sorts (`"Int"`, `"Real"`, `"Bool"`).
    /// Returns `name`, for use in clauses.
    fn declare(&mut self, name: &str, sorts: Vec<String>) -> PyResult<String> {
        let cmd = format!("(declare-fun {} ({}) Bool)", symbol(name), sorts.join(" "));
        self.push_checked(cmd)?;
        Ok(name.to_string())
    }

    /// Adds the clause `formula` (SMT-LIB2, e.g. `"(=> (and (inv x) (< x 10)) (inv (+ x
    /// 1)))"`), universally quantified over `vars` (`{"x": "Int"}` or `[("x", "Int")]`).
    #[pyo3(signature = (formula, vars = None))]
    fn add_clause(&mut self, formula: &str, vars: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let vars = vars_arg(vars)?;
        let cmd = if vars.is_empty() {
            format!("(assert {formula})")
        } else {
            let decls: Vec<String> = vars
                .iter()
                .map(|(n, s)| format!("({} {s})", symbol(n)))
                .collect();
            format!("(assert (forall ({}) {formula}))", decls.join(" "))
        };
        self.push_checked(cmd)
    }

    /// The predicates: a list of `(name, [sorts])`.
    #[getter]
    fn predicates(&self) -> PyResult<Vec<(String, Vec<String>)>> {
        let (store, queries) = self.check()?;
        let Some(q) = queries.last() else {
            return Ok(vec![]);
        };
        Ok(q.system
            .preds
            .iter()
            .map(|&p| {
                let d = store.func(p);
                (
                    d.name.to_string(),
                    d.args.iter().map(|s| s.to_string()).collect(),
                )
            })
            .collect())
    }

    /// The number of clauses.
    fn __len__(&self) -> PyResult<usize> {
        let (_, queries) = self.check()?;
        Ok(queries.last().map_or(0, |q| q.system.clauses.len()))
    }

    /// The system as SMT-LIB2 text (what `cove solve` would read).
    fn to_smtlib(&self) -> String {
        self.text()
    }

    /// Solves the system; see `cove.solve`.
    #[pyo3(signature = (*, engine = "portfolio", timeout = None, threads = 0, preprocess = true, validate = true))]
    fn solve(
        &self,
        py: Python<'_>,
        engine: &str,
        timeout: Option<f64>,
        threads: usize,
        preprocess: bool,
        validate: bool,
    ) -> PyResult<Result> {
        let cfg = config(engine, threads, preprocess, validate)?;
        solve_one(py, self.text().into_bytes(), cfg, timeout)
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!("<cove.System: {} clauses>", self.__len__()?))
    }
}

/// Text from `str` or `bytes`.
fn text_arg(v: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = v.downcast::<PyString>() {
        return s.extract::<String>();
    }
    if let Ok(b) = v.downcast::<PyBytes>() {
        return String::from_utf8(b.as_bytes().to_vec())
            .map_err(|_| ParseError::new_err("input is not UTF-8 text"));
    }
    if let Ok(s) = v.extract::<PyRef<'_, System>>() {
        return Ok(s.text());
    }
    Err(pyo3::exceptions::PyTypeError::new_err(
        "expected a cove.System, str or bytes",
    ))
}

fn config(engine: &str, threads: usize, preprocess: bool, validate: bool) -> PyResult<SolveConfig> {
    let Some(choice) = EngineChoice::parse(engine) else {
        return Err(PyValueError::new_err(format!(
            "unknown engine '{engine}' (available: {})",
            EngineChoice::names().join(", ")
        )));
    };
    Ok(SolveConfig {
        engine: choice,
        threads,
        preprocess,
        validate,
        ..SolveConfig::default()
    })
}

/// Runs the driver on every question of `src` with the GIL released, polling for signals.
fn solve_all_queries(
    py: Python<'_>,
    src: Vec<u8>,
    cfg: SolveConfig,
    timeout: Option<f64>,
) -> PyResult<Vec<Result>> {
    let mut ctl = Control::default();
    if let Some(t) = timeout {
        if !(t > 0.0 && t.is_finite()) {
            return Err(PyValueError::new_err(
                "timeout must be a positive number of seconds",
            ));
        }
        ctl = ctl.with_timeout(Duration::from_secs_f64(t));
    }
    let mut store = TermStore::new();
    let queries = parse(&src, &mut store)?;
    let stop = ctl.clone();
    let outcomes = py.allow_threads(|| {
        std::thread::scope(|s| {
            let worker = s.spawn(|| {
                queries
                    .iter()
                    .map(|q| (solve(&store, q, &cfg, &ctl), q.system.clone()))
                    .collect::<Vec<_>>()
            });
            while !worker.is_finished() {
                std::thread::sleep(Duration::from_millis(50));
                if let Err(e) = Python::with_gil(|py| py.check_signals()) {
                    // Ctrl-C (or another signal handler raising): stop the run, wait for
                    // the solver to notice, and raise the handler's exception.
                    stop.stop();
                    let _ = worker.join();
                    return Err(Some(e));
                }
            }
            worker.join().map_err(|_| None)
        })
    });
    let outcomes = match outcomes {
        Ok(o) => o,
        Err(Some(signal)) => return Err(signal),
        Err(None) => return Err(PyRuntimeError::new_err("internal error in the solver")),
    };
    outcomes
        .into_iter()
        .map(|(out, sys)| Result::new(py, out, &sys))
        .collect()
}

fn solve_one(
    py: Python<'_>,
    src: Vec<u8>,
    cfg: SolveConfig,
    timeout: Option<f64>,
) -> PyResult<Result> {
    let mut all = solve_all_queries(py, src, cfg, timeout)?;
    match all.len() {
        1 => Ok(all.remove(0)),
        0 => Err(PyValueError::new_err("the input asks no question")),
        n => Err(PyValueError::new_err(format!(
            "the input asks {n} questions (check-sat/query); use cove.solve_all"
        ))),
    }
}

/// Solves a CHC system (`cove.System`, or SMT-LIB2/Z3-fixedpoint text as `str` or `bytes`)
/// with one question.
///
/// `engine`: `"portfolio"` (default), `"spacer"`, `"bmc"`, … (`cove.ENGINES`);
/// `timeout`: seconds (default none); `threads`: portfolio threads (0 = all cores);
/// `preprocess`, `validate`: as `cove solve` (`--no-preprocess`, `--no-validate`).
/// Returns a `cove.Result`. Raises `cove.ParseError` for input Cove cannot read.
#[pyfunction(name = "solve")]
#[pyo3(signature = (system, *, engine = "portfolio", timeout = None, threads = 0, preprocess = true, validate = true))]
fn py_solve(
    py: Python<'_>,
    system: &Bound<'_, PyAny>,
    engine: &str,
    timeout: Option<f64>,
    threads: usize,
    preprocess: bool,
    validate: bool,
) -> PyResult<Result> {
    let cfg = config(engine, threads, preprocess, validate)?;
    solve_one(py, text_arg(system)?.into_bytes(), cfg, timeout)
}

/// Like `solve`, for inputs with several questions (`push`/`pop`, several `check-sat`):
/// one `cove.Result` per question, in order; the timeout applies to all together.
#[pyfunction]
#[pyo3(signature = (system, *, engine = "portfolio", timeout = None, threads = 0, preprocess = true, validate = true))]
fn solve_all(
    py: Python<'_>,
    system: &Bound<'_, PyAny>,
    engine: &str,
    timeout: Option<f64>,
    threads: usize,
    preprocess: bool,
    validate: bool,
) -> PyResult<Vec<Result>> {
    let cfg = config(engine, threads, preprocess, validate)?;
    solve_all_queries(py, text_arg(system)?.into_bytes(), cfg, timeout)
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
    m.add("ParseError", m.py().get_type::<ParseError>())?;
    m.add("ENGINES", PyList::new(m.py(), EngineChoice::names())?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
