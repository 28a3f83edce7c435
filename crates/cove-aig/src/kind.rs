//! k-induction (Sheeran, Singh, Stålmarck; incremental as in Eén and Sörensson): a BMC
//! solver for the base case and a second solver, without the initial states, for the step
//! case. Iteration `k` checks that no bad state is reachable in `k` steps and that `k + 1`
//! consecutive good steps (constraints holding) cannot be followed by a bad one.
//! Without simple-path constraints the method is incomplete but sound.

use crate::Aig;
use crate::cnf::{Frame, add_constraints, add_init, any_bad, encode_frame, false_lit, next_state};
use crate::engine::{EngineResult, Proof, sat};
use cove_control::{Control, UnknownReason};
use cove_sat::{Limits, Solver};

/// Runs k-induction until an answer or a stop.
pub fn kind(aig: &Aig, ctl: &Control) -> EngineResult {
    match run(aig, ctl) {
        Ok(r) => r,
        Err(r) => EngineResult::Unknown(r),
    }
}

/// One unrolling (base or step case).
struct Unroll {
    s: Solver,
    fls: cove_sat::Lit,
    frames: Vec<Frame>,
    bads: Vec<cove_sat::Lit>,
}

impl Unroll {
    fn new() -> Unroll {
        let mut s = Solver::new();
        let fls = false_lit(&mut s);
        Unroll {
            s,
            fls,
            frames: Vec::new(),
            bads: Vec::new(),
        }
    }

    fn extend(&mut self, aig: &Aig, init: bool) {
        let f = match self.frames.last() {
            None => encode_frame(&mut self.s, aig, self.fls, None),
            Some(p) => {
                let ls = next_state(aig, p);
                encode_frame(&mut self.s, aig, self.fls, Some(&ls))
            }
        };
        if init && self.frames.is_empty() {
            add_init(&mut self.s, aig, &f);
        }
        add_constraints(&mut self.s, aig, &f);
        let b = any_bad(&mut self.s, aig, &f);
        self.bads.push(b);
        self.frames.push(f);
    }
}

fn run(aig: &Aig, ctl: &Control) -> Result<EngineResult, UnknownReason> {
    let limits = Limits::of(ctl);
    let mut base = Unroll::new();
    let mut step = Unroll::new();
    step.extend(aig, false);
    for k in 0.. {
        if let Some(r) = ctl.should_stop() {
            return Err(r);
        }
        base.extend(aig, true);
        let b = base.bads[k];
        if sat(&mut base.s, &[b], &limits, ctl)? {
            let t = crate::bmc::extract(&base.s, aig, &base.frames);
            return Ok(EngineResult::Unsafe(t));
        }
        base.s.add_clause(&[!b]);
        // Step: frames 0..=k good, frame k+1 bad.
        let good = step.bads[k];
        step.s.add_clause(&[!good]);
        step.extend(aig, false);
        let bad = step.bads[k + 1];
        if !sat(&mut step.s, &[bad], &limits, ctl)? {
            return Ok(EngineResult::Safe(Proof::KInduction(k)));
        }
        if ctl.verbosity > 0 {
            eprintln!("kind: depth {k} not inductive");
        }
    }
    unreachable!()
}
