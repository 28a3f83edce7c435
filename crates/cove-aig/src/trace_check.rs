//! Independent simulation of counterexamples on the original circuit.
//!
//! This is the certificate of every `unsafe` answer: the trace is replayed gate by gate from
//! its initial state, the invariant constraints must hold at every step up to the one where a
//! bad property fires ([`check_trace`]), or, for a justice property, the trace must end where
//! a loop on which the property fails closes ([`check_lasso`]). It shares no code with the
//! engines beyond the [`Aig`] type.

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

/// The variable values of `t`'s first step before its inputs: the initial latch values,
/// which must fit the circuit and the latches' resets.
fn initial_values(aig: &Aig, t: &Trace) -> Result<Vec<bool>, String> {
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
    Ok(vals)
}

/// Replays `t`, stopping at the first step where any bad property (`None`) or the given one
/// holds.
fn replay(aig: &Aig, t: &mut Trace, only: Option<usize>) -> Result<(), String> {
    let mut vals = initial_values(aig, t)?;
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

/// Replays `t` on `aig` as a lasso for justice property `justice` (the AIGER 1.9 witness
/// semantics, as `aigsim` checks them): the constraints hold at every step, and the state
/// after the last step equals the state at some earlier step `s` from which on, within the
/// trace, every literal of the property and every fairness constraint holds at least once.
/// Repeating steps `s..` forever is then an infinite path on which the property fails.
/// Returns the earliest such `s` (the loop's start).
pub fn check_lasso(aig: &Aig, t: &Trace, justice: usize) -> Result<usize, String> {
    let Some(jlits) = aig.justice.get(justice) else {
        return Err(format!("the circuit has no justice property {justice}"));
    };
    if t.inputs.is_empty() {
        return Err("a lasso needs at least one step".into());
    }
    let mut vals = initial_values(aig, t)?;
    let lits: Vec<_> = jlits.iter().chain(&aig.fairness).copied().collect();
    // `last[k]` = the last step at which loop literal `k` held.
    let mut last: Vec<Option<usize>> = vec![None; lits.len()];
    let mut states: Vec<Vec<bool>> = Vec::with_capacity(t.inputs.len());
    for (step, inputs) in t.inputs.iter().enumerate() {
        if inputs.len() != aig.inputs.len() {
            return Err(format!("step {step}: wrong number of input values"));
        }
        states.push(aig.latches.iter().map(|l| vals[l.var as usize]).collect());
        for (i, &v) in aig.inputs.iter().enumerate() {
            vals[v as usize] = inputs[i];
        }
        aig.eval_ands(&mut vals);
        if let Some(c) = aig.constraints.iter().position(|&c| !lit_val(&vals, c)) {
            return Err(format!("step {step}: constraint {c} is violated"));
        }
        for (k, &x) in lits.iter().enumerate() {
            if lit_val(&vals, x) {
                last[k] = Some(step);
            }
        }
        let next: Vec<bool> = aig.latches.iter().map(|l| lit_val(&vals, l.next)).collect();
        for (i, l) in aig.latches.iter().enumerate() {
            vals[l.var as usize] = next[i];
        }
    }
    let end: Vec<bool> = aig.latches.iter().map(|l| vals[l.var as usize]).collect();
    let Some(start) = states.iter().position(|s| *s == end) else {
        return Err("the state after the last step is not an earlier state: no loop".into());
    };
    if let Some(k) = (0..lits.len()).find(|&k| last[k].is_none_or(|s| s < start)) {
        let what = if k < jlits.len() {
            format!("literal {k} of justice property {justice}")
        } else {
            format!("fairness constraint {}", k - jlits.len())
        };
        return Err(format!(
            "{what} does not hold on the loop from step {start}"
        ));
    }
    Ok(start)
}
