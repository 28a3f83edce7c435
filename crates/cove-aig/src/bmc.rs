//! Bounded model checking: one incremental solver, the transition relation unrolled one
//! frame per bound, the bad property assumed in the newest frame. Finds shortest
//! counterexamples; never proves safety.

use crate::Aig;
use crate::cnf::{Frame, add_constraints, add_init, encode_frame, false_lit, next_state};
use crate::engine::{EngineResult, RawTrace, sat, values};
use cove_control::{Control, UnknownReason};
use cove_sat::{Limits, Solver};

/// Runs BMC up to `max_bound` steps (unbounded when `None`).
pub fn bmc(aig: &Aig, ctl: &Control, max_bound: Option<usize>) -> EngineResult {
    match run(aig, ctl, max_bound) {
        Ok(r) => r,
        Err(r) => EngineResult::Unknown(r),
    }
}

fn run(aig: &Aig, ctl: &Control, max_bound: Option<usize>) -> Result<EngineResult, UnknownReason> {
    let limits = Limits::of(ctl);
    let mut s = Solver::new();
    let fls = false_lit(&mut s);
    let mut frames: Vec<Frame> = Vec::new();
    let mut k = 0;
    loop {
        if let Some(r) = ctl.should_stop() {
            return Err(r);
        }
        if max_bound.is_some_and(|m| k > m) {
            return Err(UnknownReason::Incomplete(format!(
                "no counterexample up to bound {}",
                k - 1
            )));
        }
        let f = match frames.last() {
            None => {
                let f = encode_frame(&mut s, aig, fls, None);
                add_init(&mut s, aig, &f);
                f
            }
            Some(p) => {
                let ls = next_state(aig, p);
                encode_frame(&mut s, aig, fls, Some(&ls))
            }
        };
        add_constraints(&mut s, aig, &f);
        let bad = crate::cnf::any_bad(&mut s, aig, &f);
        frames.push(f);
        if sat(&mut s, &[bad], &limits, ctl)? {
            return Ok(EngineResult::Unsafe(extract(&s, aig, &frames)));
        }
        // No bad state at this depth: keep that as a fact for the deeper queries.
        s.add_clause(&[!bad]);
        if ctl.verbosity > 0 {
            eprintln!("bmc: no counterexample of length {k}");
        }
        k += 1;
    }
}

/// The trace in the solver's model over `frames`.
pub(crate) fn extract(s: &Solver, aig: &Aig, frames: &[Frame]) -> RawTrace {
    let latch_lits: Vec<_> = aig
        .latches
        .iter()
        .map(|l| frames[0].lit(2 * l.var))
        .collect();
    RawTrace {
        init: values(s, &latch_lits),
        inputs: frames
            .iter()
            .map(|f| {
                let ls: Vec<_> = aig.inputs.iter().map(|&v| f.lit(2 * v)).collect();
                values(s, &ls)
            })
            .collect(),
    }
}
