//! Several bad-state properties: one verdict per property.
//!
//! The engines decide one property (the disjunction of a circuit's bad literals). With several,
//! the driver asks about the disjunction of the properties still open: a proof proves every one
//! of them (a k-induction proof of the disjunction is one for the circuit restricted to them,
//! which the certificate file is written for); a counterexample is replayed on the input
//! circuit for each open property ([`crate::trace_check::check_trace_of`]), and every property
//! it reaches is falsified, with the trace cut at the first step that property holds. The
//! others stay open and the question is asked again, so each round settles at least one
//! property and there are at most as many rounds as properties. An `unknown` round leaves
//! the open properties unknown.

use super::{Validation, run_once};
use crate::{Aig, SafeProof, Verdict};
use cove_control::{Control, UnknownReason};
use std::borrow::Cow;

/// What [`solve_all`] found.
pub(super) struct Solved<'a> {
    /// The verdict on all properties together (the first falsified property's trace, or the
    /// proof when all hold).
    pub overall: Verdict,
    /// One verdict per property (empty for a circuit without properties).
    pub properties: Vec<Verdict>,
    /// The checks of every round together ([`merge`]).
    pub validation: Validation,
    /// The engine of the last round.
    pub engine: &'static str,
    /// The circuit restricted to the properties proved together, with their proof.
    pub proved: Option<(Cow<'a, Aig>, SafeProof)>,
}

/// Decides every bad property of `aig` (see the module documentation).
pub(super) fn solve_all<'a>(aig: &'a Aig, cfg: &super::SolveConfig, ctl: &Control) -> Solved<'a> {
    if aig.bad.len() <= 1 {
        let (v, validation, engine) = run_once(aig, cfg, ctl);
        let proved = match &v {
            Verdict::Safe(p) => Some((Cow::Borrowed(aig), p.clone())),
            _ => None,
        };
        let properties = if aig.bad.len() == 1 {
            vec![v.clone()]
        } else {
            vec![]
        };
        return Solved {
            overall: v,
            properties,
            validation,
            engine,
            proved,
        };
    }
    let n = aig.bad.len();
    let mut verdicts: Vec<Option<Verdict>> = vec![None; n];
    let mut open: Vec<usize> = (0..n).collect();
    let mut validation = Validation::NotApplicable;
    let mut engine = cfg.engine.name();
    let mut proved = None;
    while !open.is_empty() {
        let sub = Aig {
            bad: open.iter().map(|&i| aig.bad[i]).collect(),
            ..aig.clone()
        };
        if ctl.verbosity > 0 {
            eprintln!("properties: {} open of {n}", open.len());
        }
        let (v, val, e) = run_once(&sub, cfg, ctl);
        engine = e;
        validation = merge(validation, val);
        match v {
            Verdict::Safe(proof) => {
                for &i in &open {
                    verdicts[i] = Some(Verdict::Safe(proof.clone()));
                }
                proved = Some((Cow::Owned(sub), proof));
                break;
            }
            Verdict::Unknown(r) => {
                for &i in &open {
                    verdicts[i] = Some(Verdict::Unknown(r.clone()));
                }
                break;
            }
            Verdict::Unsafe(t) => {
                let mut hit = Vec::new();
                for &i in &open {
                    let mut ti = t.clone();
                    if crate::trace_check::check_trace_of(aig, &mut ti, i).is_ok() {
                        verdicts[i] = Some(Verdict::Unsafe(ti));
                        hit.push(i);
                    }
                }
                if hit.is_empty() {
                    // The trace checked on the restricted circuit reaches one of its
                    // properties; not reaching any on the input circuit is a bug.
                    let msg = "counterexample failed simulation on the input circuit".to_string();
                    validation = merge(validation, Validation::Failed(msg.clone()));
                    for &i in &open {
                        verdicts[i] =
                            Some(Verdict::Unknown(UnknownReason::Incomplete(msg.clone())));
                    }
                    break;
                }
                open.retain(|i| !hit.contains(i));
            }
        }
    }
    let properties: Vec<Verdict> = verdicts
        .into_iter()
        .map(|v| {
            v.unwrap_or_else(|| {
                Verdict::Unknown(UnknownReason::Incomplete("property not decided".into()))
            })
        })
        .collect();
    Solved {
        overall: overall(&properties),
        properties,
        validation,
        engine,
        proved,
    }
}

/// The verdict on all properties together: the first failing property's trace, a proof when
/// every property holds (the proof of the last round, which then covered them all), unknown
/// otherwise.
pub(super) fn overall(properties: &[Verdict]) -> Verdict {
    if let Some(v) = properties.iter().find(|v| matches!(v, Verdict::Unsafe(_))) {
        return v.clone();
    }
    if let Some(v) = properties.iter().find(|v| matches!(v, Verdict::Unknown(_))) {
        return v.clone();
    }
    match properties.last() {
        Some(v) => v.clone(),
        None => Verdict::Unknown(UnknownReason::Incomplete("no property".into())),
    }
}

/// Two rounds' checks together: a failure outweighs an undecided check, which outweighs a
/// valid one.
pub(super) fn merge(a: Validation, b: Validation) -> Validation {
    fn rank(v: &Validation) -> u8 {
        match v {
            Validation::NotApplicable => 0,
            Validation::Valid => 1,
            Validation::Undecided(_) => 2,
            Validation::Failed(_) => 3,
        }
    }
    if rank(&b) > rank(&a) { b } else { a }
}
