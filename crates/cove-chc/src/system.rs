//! Constrained Horn clause systems.
//!
//! A clause is `body_1 ∧ … ∧ body_n ∧ constraint → head`, with every variable universally
//! quantified, where each `body_i` and the head are predicate applications and the head may be
//! `false` (a *query*). Both front ends (SMT-LIB2 `HORN` and Z3's fixedpoint format) produce
//! this one representation; engines, preprocessing and the certificate checker consume it.
//!
//! # Invariants
//! - `constraint` contains no predicate application (Horn form: predicates only in `body`/`head`).
//! - Every free variable of the clause (of its constraint and of its predicate arguments) is
//!   listed in `vars`.

use cove_logic::{FuncId, TermId, TermStore, VarId};

/// A source location (1-based line and column), shared with the SMT-LIB2 reader.
pub use cove_logic::smtlib::Pos;

/// `pred(args)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PredApp {
    /// The predicate.
    pub pred: FuncId,
    /// Its arguments (arbitrary terms of the declared sorts).
    pub args: Vec<TermId>,
}

/// One Horn clause `body ∧ constraint → head`.
#[derive(Clone, Debug)]
pub struct Clause {
    /// The universally quantified variables.
    pub vars: Vec<VarId>,
    /// Predicate applications of the body (0 = a fact, 1 = linear, more = nonlinear).
    pub body: Vec<PredApp>,
    /// Interpreted constraint (Bool term, predicate free).
    pub constraint: TermId,
    /// The head, or `None` for `false` (a query).
    pub head: Option<PredApp>,
    /// Where the clause came from in the input, if it came from a file.
    pub origin: Option<Pos>,
}

impl Clause {
    /// True for a query (head `false`).
    pub fn is_query(&self) -> bool {
        self.head.is_none()
    }

    /// True for a fact (no body predicates).
    pub fn is_fact(&self) -> bool {
        self.body.is_empty()
    }
}

/// A set of Horn clauses over declared predicates. The system is *satisfiable* (safe) iff
/// there is an interpretation of the predicates making every clause valid.
#[derive(Clone, Debug, Default)]
pub struct ChcSystem {
    /// The predicates (uninterpreted Bool-valued functions of the term store).
    pub preds: Vec<FuncId>,
    /// The clauses.
    pub clauses: Vec<Clause>,
}

impl ChcSystem {
    /// True when every clause has at most one body predicate.
    pub fn is_linear(&self) -> bool {
        self.clauses.iter().all(|c| c.body.len() <= 1)
    }

    /// Renders the system as an SMT-LIB2 `HORN` script (used by tests, `--dump` and the
    /// unrolling benchmarks).
    pub fn to_smtlib(&self, store: &TermStore) -> String {
        crate::print::system_to_smtlib(self, store)
    }
}

/// Why an engine cannot take this system as it is, if it cannot: a quantifier left inside a
/// constraint (the front ends keep quantifiers that contain no predicate) is outside the
/// quantifier-free fragment the engines and the SMT core decide.
pub fn unsupported_feature(sys: &ChcSystem, store: &TermStore) -> Option<String> {
    let mut seen = rustc_hash::FxHashSet::default();
    for c in &sys.clauses {
        let mut stack = vec![c.constraint];
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            if matches!(
                store.op(t),
                cove_logic::Op::Forall(_) | cove_logic::Op::Exists(_)
            ) {
                return Some("quantifier inside a clause constraint".into());
            }
            stack.extend_from_slice(store.args(t));
        }
    }
    None
}
