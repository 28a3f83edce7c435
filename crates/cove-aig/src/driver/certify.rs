//! Certification of an engine's answer on the *original* circuit: the reduced circuit's trace
//! or proof is mapped back through the reduction and checked independently ([`trace_check`]
//! replays a counterexample, [`proof_check`] re-checks an invariant or a k-induction proof
//! with fresh solvers). An answer that fails its check becomes `unknown`.
//!
//! [`trace_check`]: crate::trace_check
//! [`proof_check`]: crate::proof_check

use super::Validation;
use crate::reduce::Reduced;
use crate::result::{EngineResult, Proof};
use crate::{ALit, Aig, CheckError, Init, SafeProof, Trace, Verdict};
use cove_control::{Control, UnknownReason};

/// The verdict on `orig` for the engine's result `res` on `red`, with what the check said.
pub(super) fn certify(
    orig: &Aig,
    red: &Reduced,
    res: EngineResult,
    ctl: &Control,
) -> (Verdict, Validation) {
    let aux: Vec<Vec<ALit>> = red.aux_clauses(|i| orig.latches[i].var);
    match res {
        // An engine that gave up after the limits were reached stopped for them.
        EngineResult::Unknown(UnknownReason::Incomplete(_)) if ctl.should_stop().is_some() => (
            Verdict::Unknown(ctl.should_stop().unwrap_or(UnknownReason::Timeout)),
            Validation::NotApplicable,
        ),
        EngineResult::Unknown(r) => (Verdict::Unknown(r), Validation::NotApplicable),
        EngineResult::Unsafe(raw) => {
            let mut t = Trace {
                init: orig.latches.iter().map(|l| l.init == Init::One).collect(),
                inputs: vec![vec![false; orig.inputs.len()]; raw.inputs.len()],
                bad_index: 0,
            };
            for (i, &o) in red.latch_orig.iter().enumerate() {
                t.init[o] = raw.init[i];
            }
            for (step, vals) in raw.inputs.iter().enumerate() {
                for (i, &o) in red.input_orig.iter().enumerate() {
                    t.inputs[step][o] = vals[i];
                }
                // Merged inputs take their constant (an input dropped by the cone of
                // influence is irrelevant and stays 0).
                for &(o, c) in &red.const_inputs {
                    t.inputs[step][o] = c;
                }
            }
            match crate::trace_check::check_trace(orig, &mut t) {
                Ok(()) => (Verdict::Unsafe(t), Validation::Valid),
                Err(e) => failed(format!("counterexample failed simulation: {e}")),
            }
        }
        EngineResult::Safe(Proof::Invariant(clauses)) => {
            let mut idx = vec![usize::MAX; red.aig.max_var as usize + 1];
            for (i, l) in red.aig.latches.iter().enumerate() {
                idx[l.var as usize] = red.latch_orig[i];
            }
            let mut inv: Vec<Vec<ALit>> = Vec::with_capacity(clauses.len() + aux.len());
            for c in &clauses {
                let mut oc = Vec::with_capacity(c.len());
                for &l in c {
                    match idx.get((l >> 1) as usize) {
                        Some(&o) if o != usize::MAX => oc.push(2 * orig.latches[o].var + (l & 1)),
                        _ => {
                            return failed(format!(
                                "invariant failed its check: literal {l} is not a latch"
                            ));
                        }
                    }
                }
                inv.push(oc);
            }
            inv.extend(aux);
            match crate::proof_check::check_invariant(orig, &inv, true, ctl) {
                Ok(()) => (Verdict::Safe(SafeProof::Invariant(inv)), Validation::Valid),
                Err(e) => refuted_or_stopped("invariant failed its check", e, ctl),
            }
        }
        EngineResult::Safe(Proof::KInduction(k)) => {
            match crate::proof_check::check_kinduction(orig, k, &aux, ctl) {
                Ok(()) => (
                    Verdict::Safe(SafeProof::KInduction { k, aux }),
                    Validation::Valid,
                ),
                Err(e) => refuted_or_stopped("k-induction proof failed its check", e, ctl),
            }
        }
    }
}

/// A refuted certificate: the answer is withdrawn (a bug in an engine or the reduction).
pub(super) fn failed(msg: String) -> (Verdict, Validation) {
    (
        Verdict::Unknown(UnknownReason::Incomplete(msg.clone())),
        Validation::Failed(msg),
    )
}

/// A check that refuted the certificate ([`failed`]) or ran out of limits: a check cut short
/// is no evidence against the answer, which is then unknown for the limit's reason. A check
/// that refuted the certificate after the run's limits were reached counts as cut short too
/// (as it always has: a query stopped mid-way may leave a partial model).
pub(super) fn refuted_or_stopped(
    what: &str,
    e: CheckError,
    ctl: &Control,
) -> (Verdict, Validation) {
    let msg = format!("{what}: {e}");
    match (e, ctl.should_stop()) {
        (_, Some(r)) => (Verdict::Unknown(r), Validation::Undecided(msg)),
        (CheckError::Stopped(_), None) => (
            Verdict::Unknown(UnknownReason::ResourceOut(msg.clone())),
            Validation::Undecided(msg),
        ),
        (CheckError::Refuted(_), None) => failed(msg),
    }
}
