//! Answers and their witnesses.
//!
//! An answer and its witness are one value ([`ChcResult`]): `Sat` cannot exist without
//! invariants, `Unsat` cannot exist without a derivation, and `Unknown` says why.
//! Conventions follow CHC-COMP: `sat` = the system has a model = the program is safe.

use cove_logic::{FuncId, FuncInterp, Model, TermId, TermStore, Value, VarId};
use rustc_hash::FxHashMap;

/// Interpretations of the predicates that make every clause valid (inductive invariants).
#[derive(Clone, Debug, Default)]
pub struct Invariants {
    /// `P(params) := body` for every predicate.
    pub defs: FxHashMap<FuncId, FuncInterp>,
    /// Recursive Int-valued functions over datatypes (measures such as the size of a list)
    /// that the definitions may apply, printed as `define-fun-rec` before them. The checker
    /// accepts only structurally recursive ones ([`crate::cert`]).
    pub measures: Vec<Measure>,
}

/// A measure: `func(param) := body`, one `ite` case per constructor of the parameter's
/// datatype, recursive calls only on selectors of the case's constructor; `lower` is a
/// claimed lower bound of every value (checked by structural induction).
#[derive(Clone, Debug)]
pub struct Measure {
    /// The function symbol (one datatype argument, `Int` result).
    pub func: FuncId,
    /// The parameter.
    pub param: VarId,
    /// The body.
    pub body: TermId,
    /// A lower bound of every value, if claimed.
    pub lower: Option<i64>,
}

impl Invariants {
    /// Defines `pred(params) := body`.
    pub fn define(&mut self, pred: FuncId, params: Vec<VarId>, body: TermId) {
        self.defs.insert(pred, FuncInterp { params, body });
    }

    /// Definitions sorted by predicate name, for deterministic output.
    pub fn sorted<'a>(&'a self, store: &TermStore) -> Vec<(FuncId, &'a FuncInterp)> {
        let mut v: Vec<(FuncId, &FuncInterp)> = self.defs.iter().map(|(f, d)| (*f, d)).collect();
        v.sort_by(|a, b| store.func(a.0).name.cmp(&store.func(b.0).name));
        v
    }
}

/// One node of a derivation tree: an instance of clause `clause` whose body atoms are the
/// heads of the `premises` (in body order) and whose head is `head` (or `false`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DerivationStep {
    /// Index of the clause in the system.
    pub clause: usize,
    /// The derived fact `P(values)`, or `None` for `false` (the root of a counterexample).
    pub head: Option<(FuncId, Vec<Value>)>,
    /// Steps deriving the body atoms, one per body application, in order.
    pub premises: Vec<usize>,
    /// Values of the clause's variables that make this instance hold.
    pub assignment: Vec<(VarId, Value)>,
}

/// A counterexample: a derivation of `false` from the clauses, as a DAG of steps.
/// `steps[root]` derives `false`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Derivation {
    /// The steps; premises refer to indices in this vector.
    pub steps: Vec<DerivationStep>,
    /// Index of the step that derives `false`.
    pub root: usize,
}

impl Derivation {
    /// The derivation of `sys` read off a model `m` of the conjunction of a tree of clause
    /// instances renamed apart: step `i` instantiates clause `shape[i].0` with premises
    /// `shape[i].1`, and `copies[i]` maps the clause's variables to their copies in `m`
    /// (a variable without a copy, or whose value the model leaves open, gets its sort's
    /// default: the derivation checker, not this reading, decides whether the steps hold).
    pub(crate) fn read_off(
        store: &TermStore,
        sys: &crate::system::ChcSystem,
        shape: impl IntoIterator<Item = (usize, Vec<usize>)>,
        root: usize,
        copies: &[FxHashMap<VarId, TermId>],
        m: &Model,
    ) -> Derivation {
        let mut steps = Vec::with_capacity(copies.len());
        for (i, (clause, premises)) in shape.into_iter().enumerate() {
            let c = &sys.clauses[clause];
            let mut local = Model::new();
            let assignment: Vec<(VarId, Value)> = c
                .vars
                .iter()
                .map(|&v| {
                    let val = copies[i]
                        .get(&v)
                        .and_then(|t| m.eval(store, *t).ok())
                        .unwrap_or_else(|| Value::default_of(store.var_sort(v)));
                    local.set(v, val.clone());
                    (v, val)
                })
                .collect();
            let head = c.head.as_ref().map(|h| {
                let vals = h
                    .args
                    .iter()
                    .map(|a| {
                        local
                            .eval(store, *a)
                            .unwrap_or_else(|_| Value::default_of(store.sort(*a)))
                    })
                    .collect();
                (h.pred, vals)
            });
            steps.push(DerivationStep {
                clause,
                head,
                premises,
                assignment,
            });
        }
        Derivation { steps, root }
    }
}

/// Why an engine gave no definite answer (one vocabulary for every Cove crate).
pub use cove_control::UnknownReason;

/// The answer of an engine, with its witness.
#[derive(Clone, Debug)]
pub enum ChcResult {
    /// Safe: the invariants are a model of the system.
    Sat(Invariants),
    /// Unsafe: the derivation reaches `false`.
    Unsat(Derivation),
    /// No answer.
    Unknown(UnknownReason),
}

impl ChcResult {
    /// `sat`, `unsat` or `unknown`.
    pub fn verdict(&self) -> &'static str {
        match self {
            ChcResult::Sat(_) => "sat",
            ChcResult::Unsat(_) => "unsat",
            ChcResult::Unknown(_) => "unknown",
        }
    }
}
