//! What an engine returns on the reduced circuit before certification ([`EngineResult`]),
//! and the SAT calls every engine makes. The crate's lowest floor for engines: they depend
//! on it, and it on none of them.

use crate::ALit;
use cove_control::{Control, UnknownReason};
use cove_sat::{Limits, SolveResult, Solver};

/// Result of an engine on a (reduced) circuit.
#[derive(Clone, Debug)]
pub enum EngineResult {
    /// Proved safe.
    Safe(Proof),
    /// A counterexample of the circuit the engine ran on.
    Unsafe(RawTrace),
    /// No answer.
    Unknown(UnknownReason),
}

/// Evidence of safety.
#[derive(Clone, Debug)]
pub enum Proof {
    /// An inductive invariant: clauses (AIGER literals over latch variables).
    Invariant(Vec<Vec<ALit>>),
    /// The property is `k`-inductive (under the constraints) and no bad state is reachable in
    /// fewer than `k` steps.
    KInduction(usize),
}

/// Initial latch values and inputs per step, in the engine's circuit's order.
#[derive(Clone, Debug, Default)]
pub struct RawTrace {
    /// Initial latch values.
    pub init: Vec<bool>,
    /// Input values per step.
    pub inputs: Vec<Vec<bool>>,
}

/// A solve call that maps `Unknown` to the reason the control gives (or a budget reason).
pub(crate) fn sat(
    s: &mut Solver,
    assumptions: &[cove_sat::Lit],
    limits: &Limits,
    ctl: &Control,
) -> Result<bool, UnknownReason> {
    match s.solve_limited(assumptions, &mut cove_sat::NoTheory, limits) {
        SolveResult::Sat => Ok(true),
        SolveResult::Unsat => Ok(false),
        SolveResult::Unknown => Err(ctl
            .should_stop()
            .unwrap_or_else(|| UnknownReason::ResourceOut("SAT budget".into()))),
    }
}

/// Values of `lits` in the last model.
pub(crate) fn values(s: &Solver, lits: &[cove_sat::Lit]) -> Vec<bool> {
    lits.iter()
        .map(|&l| s.value(l) == cove_sat::LBool::True)
        .collect()
}
