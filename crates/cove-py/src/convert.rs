//! Terms and values as Python data.
//!
//! A term becomes nested lists `[op, arg, …]` with SMT-LIB operator names, so Python code
//! can walk an invariant without a parser. The conversion uses an explicit stack: invariant
//! bodies can be deep, and Rust recursion over input depth is not allowed in Cove.

use cove_logic::print::op_name;
use cove_logic::{Op, Rational, Sort, TermId, TermStore, Value, VarId};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use rustc_hash::FxHashMap;

/// A number: `int` when integral, else `fractions.Fraction`.
fn rational_to_py(py: Python<'_>, r: &Rational) -> PyResult<PyObject> {
    let int = py.import("builtins")?.getattr("int")?;
    if r.is_integer() {
        return Ok(int.call1((r.numer().to_string(),))?.unbind());
    }
    let fraction = py.import("fractions")?.getattr("Fraction")?;
    let n = int.call1((r.numer().to_string(),))?;
    let d = int.call1((r.denom().to_string(),))?;
    Ok(fraction.call1((n, d))?.unbind())
}

/// A value of a counterexample (an array, bit-vector or datatype value as its SMT-LIB2 text).
pub fn value_to_py(py: Python<'_>, v: &Value, sort: Sort) -> PyResult<PyObject> {
    match v {
        Value::Bool(b) => Ok(b.into_pyobject(py)?.to_owned().into_any().unbind()),
        Value::Num(n) => rational_to_py(py, n),
        Value::Array(_) | Value::Bv(_) | Value::Dt(_) => {
            Ok(PyString::new(py, &cove_logic::print::value_text(v, sort))
                .into_any()
                .unbind())
        }
    }
}

/// The leaf or operator name of a term node.
fn head(
    py: Python<'_>,
    store: &TermStore,
    op: &Op,
    sort: Sort,
    names: &FxHashMap<VarId, String>,
) -> PyResult<PyObject> {
    Ok(match op {
        Op::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Op::Num(n) => rational_to_py(py, n)?,
        Op::Var(v) => {
            let name = names.get(v).map_or(store.var_name(*v), |s| s.as_str());
            PyString::new(py, name).into_any().unbind()
        }
        Op::App(f) => PyString::new(py, &store.func(*f).name).into_any().unbind(),
        Op::Forall(_) => PyString::new(py, "forall").into_any().unbind(),
        Op::Exists(_) => PyString::new(py, "exists").into_any().unbind(),
        Op::Bv(cove_logic::BvOp::Lit(x)) => PyString::new(py, &x.to_string()).into_any().unbind(),
        Op::Bv(b) => PyString::new(py, b.name()).into_any().unbind(),
        Op::Dt(d) => PyString::new(py, &cove_logic::dt::op_name(*d, sort))
            .into_any()
            .unbind(),
        other => PyString::new(py, op_name(other).unwrap_or("?"))
            .into_any()
            .unbind(),
    })
}

/// The term as Python data: leaves (numbers, truth values, variable names) as themselves,
/// applications as `[op, args…]` (nullary applications as `[name]`), quantifiers as
/// `["forall", [[name, sort], …], body]`. Variables in `names` are printed under those names.
pub fn term_to_py(
    py: Python<'_>,
    store: &TermStore,
    root: TermId,
    names: &FxHashMap<VarId, String>,
) -> PyResult<PyObject> {
    // Post-order: a frame is pushed unexpanded, then expanded (children pushed), then built
    // from the results its children left on `done`.
    let mut todo: Vec<(TermId, bool)> = vec![(root, false)];
    let mut done: Vec<PyObject> = Vec::new();
    while let Some((t, expanded)) = todo.pop() {
        let term = store.get(t);
        let leaf = term.args.is_empty() && !matches!(term.op, Op::App(_));
        if leaf {
            done.push(head(py, store, &term.op, term.sort, names)?);
            continue;
        }
        if !expanded {
            todo.push((t, true));
            for &a in term.args.iter().rev() {
                todo.push((a, false));
            }
            continue;
        }
        let args = done.split_off(done.len() - term.args.len());
        let list = PyList::empty(py);
        list.append(head(py, store, &term.op, term.sort, names)?)?;
        if let Op::Forall(vs) | Op::Exists(vs) = &term.op {
            let bound = PyList::empty(py);
            for v in vs.iter() {
                let name = names.get(v).map_or(store.var_name(*v), |s| s.as_str());
                bound.append((name, store.var_sort(*v).to_string()))?;
            }
            list.append(bound)?;
        }
        for a in args {
            list.append(a)?;
        }
        done.push(list.into_any().unbind());
    }
    Ok(done.pop().expect("the root leaves one result"))
}
