//! Independent simulation of counterexamples on the original circuit.
//!
//! This is the certificate of every `unsafe` answer: the trace is replayed gate by gate from
//! its initial state, the invariant constraints must hold at every step up to the one where a
//! bad property fires. It shares no code with the engines beyond the [`Aig`] type.

use crate::{Aig, Init, Trace, lit_val};

/// Replays `t` on `aig`. On success the trace is truncated to the first step at which a bad
/// property holds (with all constraints holding up to and including it) and `bad_index` is
/// set; otherwise returns why the trace is not a counterexample.
pub fn check_trace(aig: &Aig, t: &mut Trace) -> Result<(), String> {
    replay(aig, t, None)
}

/// [`check_trace`] for bad property `property` alone: the trace is truncated to the first
/// step at which that property holds (with all constraints holding up to and including it),
/// and `bad_index` is set to `property`.
pub fn check_trace_of(aig: &Aig, t: &mut Trace, property: usize) -> Result<(), String> {
    if property >= aig.bad.len() {
        return Err(format!("the circuit has no bad property {property}"));
    }
    replay(aig, t, Some(property))
}

/// Replays `t`, stopping at the first step where any bad property (`None`) or the given one
/// holds.
fn replay(aig: &Aig, t: &mut Trace, only: Option<usize>) -> Result<(), String> {
    if t.init.len() != aig.latches.len() {
        return Err(format!(
            "trace has {} initial latch values, the circuit {} latches",
            t.init.len(),
            aig.latches.len()
        ));
    }
    let mut vals = vec![false; aig.max_var as usize + 1];
    for (i, l) in aig.latches.iter().enumerate() {
        let ok = match l.init {
            Init::Zero => !t.init[i],
            Init::One => t.init[i],
            Init::Free => true,
        };
        if !ok {
            return Err(format!("initial value of latch {i} contradicts its reset"));
        }
        vals[l.var as usize] = t.init[i];
    }
    for (step, inputs) in t.inputs.iter().enumerate() {
        if inputs.len() != aig.inputs.len() {
            return Err(format!("step {step}: wrong number of input values"));
        }
        for (i, &v) in aig.inputs.iter().enumerate() {
            vals[v as usize] = inputs[i];
        }
        aig.eval_ands(&mut vals);
        if let Some(c) = aig.constraints.iter().position(|&c| !lit_val(&vals, c)) {
            return Err(format!("step {step}: constraint {c} is violated"));
        }
        let hit = match only {
            None => aig.bad.iter().position(|&b| lit_val(&vals, b)),
            Some(i) => lit_val(&vals, aig.bad[i]).then_some(i),
        };
        if let Some(b) = hit {
            t.inputs.truncate(step + 1);
            t.bad_index = b;
            return Ok(());
        }
        let next: Vec<bool> = aig.latches.iter().map(|l| lit_val(&vals, l.next)).collect();
        for (i, l) in aig.latches.iter().enumerate() {
            vals[l.var as usize] = next[i];
        }
    }
    Err(match only {
        None => "no bad property holds on the trace".into(),
        Some(i) => format!("bad property {i} does not hold on the trace"),
    })
}
