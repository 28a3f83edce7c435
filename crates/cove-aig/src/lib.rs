//! `cove-aig`: hardware model checking on and-inverter graphs.
//!
//! The pipeline is: [`parse`] an AIGER 1.9 file (binary `.aig` or ASCII `.aag`) into an
//! [`Aig`]; the [`driver`] then [`reduce`]s it (structural hashing, constant propagation,
//! cone of influence), runs one engine ([`engines::ic3`], [`engines::bmc`], [`engines::kind`] or [`engines::localization`]) or the
//! portfolio ([`driver::schedule`]) on the reduced circuit, and certifies the answer on the
//! *original* circuit — a counterexample is re-simulated ([`trace_check`]), an inductive
//! invariant or k-induction proof is re-checked with fresh SAT solvers ([`proof_check`]). An
//! answer whose certificate fails becomes unknown: never a wrong verdict. The answer is
//! printed in the HWMCC witness format ([`hwmcc_output`]). A safe answer's proof can also be
//! written as a witness circuit for third-party checkers ([`witness_circuit`], the HWMCC'24
//! certified track's format), which [`witness_circuit_check`] verifies with the same five
//! checks as Certifaiger.
//!
//! ```
//! use cove_aig::driver::{solve, SolveConfig, Validation};
//! use cove_aig::{Control, Verdict, parse_aiger};
//!
//! // One latch that stays 0; bad when it is 1.
//! let aig = parse_aiger(b"aag 1 0 1 0 0 1\n2 2\n2\n").unwrap();
//! let out = solve(&aig, &SolveConfig::default(), &Control::default());
//! assert!(matches!(out.verdict, Verdict::Safe(_)));
//! assert_eq!(out.validation, Validation::Valid);
//! ```
//!
//! Literals follow AIGER: `2 * var + negated`, variable 0 is the constant false.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod btor2;
pub mod btor2_blast;
pub mod btor2_sim;
pub mod cnf;
pub mod driver;
pub mod engines;
mod fanout;
pub mod hwmcc_output;
pub mod input_merge;
pub mod lcorr;
pub mod liveness;
pub mod parse;
pub mod proof_check;
pub mod reduce;
pub mod result;
mod strash;
pub mod trace_check;
pub mod unate;
mod unroll;
pub mod witness_circuit;
pub mod witness_circuit_check;
pub mod write;

pub use cove_control::{Control, UnknownReason};
pub use engines::EngineConfig;
pub use parse::{ParseError, parse_aiger};

/// An AIGER literal: `2 * var + negated`.
pub type ALit = u32;

/// The constant false literal.
pub const FALSE: ALit = 0;
/// The constant true literal.
pub const TRUE: ALit = 1;

/// Initial value of a latch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Init {
    /// Reset to 0 (the AIGER default).
    Zero,
    /// Reset to 1.
    One,
    /// Uninitialised: any value in the initial state.
    Free,
}

impl Init {
    /// The reset value, `None` for an uninitialised latch.
    pub fn value(self) -> Option<bool> {
        match self {
            Init::Zero => Some(false),
            Init::One => Some(true),
            Init::Free => None,
        }
    }
}

/// A latch: its variable, next-state literal and reset value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Latch {
    /// The latch's variable (its literal is `2 * var`).
    pub var: u32,
    /// Next-state function.
    pub next: ALit,
    /// Initial value.
    pub init: Init,
}

/// An and gate `lhs = rhs0 ∧ rhs1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct And {
    /// Defined variable.
    pub var: u32,
    /// First fanin.
    pub rhs0: ALit,
    /// Second fanin.
    pub rhs1: ALit,
}

/// A sequential and-inverter graph with safety properties.
///
/// Invariants (established by the parser and kept by [`reduce`]): every variable in
/// `1..=max_var` is defined at most once (input, latch or and gate); every literal refers to a
/// defined variable or the constant; `ands` is topologically ordered (fanins before gates).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Aig {
    /// Largest variable index.
    pub max_var: u32,
    /// Input variables, in file order.
    pub inputs: Vec<u32>,
    /// Latches, in file order.
    pub latches: Vec<Latch>,
    /// Outputs (informational once `bad` is set).
    pub outputs: Vec<ALit>,
    /// Bad-state properties: the design is unsafe if one of them can be 1.
    pub bad: Vec<ALit>,
    /// Invariant constraints: traces are only those on which all of them hold at every step.
    pub constraints: Vec<ALit>,
    /// Justice (liveness) properties, each a set of literals: property `j` fails when some
    /// infinite path (constraints holding at every step, every [`Aig::fairness`] literal
    /// true infinitely often) makes every literal of `justice[j]` true infinitely often.
    /// Only the [`driver`] decides them ([`liveness`]); the engines see safety circuits.
    pub justice: Vec<Vec<ALit>>,
    /// Fairness constraints: the infinite paths that count for [`Aig::justice`] are those on
    /// which each of these literals is true infinitely often.
    pub fairness: Vec<ALit>,
    /// And gates, topologically ordered.
    pub ands: Vec<And>,
}

impl Aig {
    /// Evaluates every variable for one step: `vals[v]` for inputs and latches must be set,
    /// the and gates are computed in place.
    pub fn eval_ands(&self, vals: &mut [bool]) {
        for a in &self.ands {
            vals[a.var as usize] = lit_val(vals, a.rhs0) && lit_val(vals, a.rhs1);
        }
    }

    /// The value of every variable in one step from latch values `state` and input values
    /// `inputs` (missing values read as false).
    pub fn eval_step(&self, state: &[bool], inputs: &[bool]) -> Vec<bool> {
        let mut vals = vec![false; self.max_var as usize + 1];
        for (l, &b) in self.latches.iter().zip(state) {
            vals[l.var as usize] = b;
        }
        for (&v, &b) in self.inputs.iter().zip(inputs) {
            vals[v as usize] = b;
        }
        self.eval_ands(&mut vals);
        vals
    }
}

/// Value of literal `l` under variable values `vals` (`vals[0]` must be false).
#[inline]
pub fn lit_val(vals: &[bool], l: ALit) -> bool {
    vals[(l >> 1) as usize] ^ (l & 1 == 1)
}

/// Outcome of a model-checking run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No bad state is reachable, with the checked proof.
    Safe(SafeProof),
    /// A bad state is reachable: the counterexample trace.
    Unsafe(Trace),
    /// No answer.
    Unknown(UnknownReason),
}

/// The proof behind a safe verdict, over the original circuit's latches (AIGER literals);
/// [`witness_circuit`] turns either kind into a witness circuit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SafeProof {
    /// An inductive invariant (clauses) that excludes the bad states.
    Invariant(Vec<Vec<ALit>>),
    /// `k`-induction: no bad state within `k` steps of a reset state, and `k + 1` consecutive
    /// good steps cannot be followed by a bad one; every state also satisfies the auxiliary
    /// invariant `aux` (itself inductive), which the base and step cases assume.
    KInduction {
        /// Depth.
        k: usize,
        /// Auxiliary invariant (clauses).
        aux: Vec<Vec<ALit>>,
    },
}

/// A counterexample of the original circuit: initial latch values (file order) and one input
/// vector (file order) per step; the last step reaches a bad state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Initial value of every latch.
    pub init: Vec<bool>,
    /// Input values per step.
    pub inputs: Vec<Vec<bool>>,
    /// Index of the bad property reached (set by [`trace_check::check_trace`]).
    pub bad_index: usize,
}

/// Why an independent check ([`proof_check`], [`witness_circuit_check`]) did not accept a
/// certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// The certificate is wrong: a query that must be unsatisfiable has a model, or the
    /// certificate does not fit the circuit.
    Refuted(String),
    /// The check ran out of its limits before deciding (no evidence against the certificate).
    Stopped(String),
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CheckError::Refuted(s) | CheckError::Stopped(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for CheckError {}
