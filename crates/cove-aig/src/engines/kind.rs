//! k-induction (Sheeran, Singh, Stålmarck; incremental as in Eén and Sörensson): the
//! on-demand BMC unrolling of [`crate::engines::bmc`] for the base case and a second solver, without
//! the initial states, for the step case. Iteration `k` checks that no bad state is reachable in `k` steps and that `k + 1`
//! consecutive good steps (constraints holding) cannot be followed by a bad one.
//! Without simple-path constraints the method is incomplete but sound.

use crate::Aig;
use crate::cnf::{Frame, add_constraints, any_bad, encode_frame, false_lit, next_state};
use crate::engines::bmc::{Bmc, Jump, Step as BmcStep};
use crate::result::{EngineResult, Proof};
use cove_control::{Control, UnknownReason};
use cove_sat::{Limits, NoTheory, SolveResult, Solver};
use std::time::Instant;

/// k-induction's options ([`crate::EngineConfig::Kind`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KindConfig {
    /// Balance the step case against the base case (the portfolio's `kind-bmc` entry, see
    /// [`kind_bmc`]); off by default (plain k-induction, [`kind`]).
    pub balanced: bool,
}

impl KindConfig {
    /// Runs k-induction with these options.
    pub fn run(&self, aig: &Aig, ctl: &Control) -> EngineResult {
        if self.balanced {
            kind_bmc(aig, ctl)
        } else {
            kind(aig, ctl)
        }
    }
}

/// Runs k-induction until an answer or a stop.
pub fn kind(aig: &Aig, ctl: &Control) -> EngineResult {
    match run(aig, ctl, false) {
        Ok(r) => r,
        Err(r) => EngineResult::Unknown(r),
    }
}

/// Conflicts allowed to the first step-case query of [`kind_bmc`]; doubled after each
/// query that runs out.
const STEP_CONFLICTS: u64 = 10_000;

/// Conflicts allowed to a base-case (BMC) query of [`kind_bmc`] before the thread turns to
/// the other work (the query resumes after, with twice the budget).
const BASE_CONFLICTS: u64 = 10_000;

/// BMC with k-induction's step case in the same thread (the portfolio's second engine): the
/// step queries get at most as much time as the base case (BMC) has had, and a conflict
/// budget, so a hard step case never stalls the search for deep counterexamples. One thread
/// instead of two (k-induction's base case was a second BMC) frees one for a second IC3.
/// Deep probes (`bmc::Jump`) get as much time as the base and step cases together (half the
/// thread: on the HWMCC'19 sample the step case proves few designs, 3 of 46 safe ones at 5 s,
/// while a deep counterexample needs probes of a few thousand conflicts each, and
/// `telephony.6`'s needs frame 19 or beyond), and base-case queries yield the thread after
/// `BASE_CONFLICTS` conflicts (doubled each time): a design whose depths just short of the
/// first failure are hard to refute still gets its queries far past it.
pub fn kind_bmc(aig: &Aig, ctl: &Control) -> EngineResult {
    match run(aig, ctl, true) {
        Ok(r) => r,
        Err(r) => EngineResult::Unknown(r),
    }
}

/// The step case's unrolling.
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

    fn extend(&mut self, aig: &Aig) {
        let f = match self.frames.last() {
            None => encode_frame(&mut self.s, aig, self.fls, None),
            Some(p) => {
                let ls = next_state(aig, p);
                encode_frame(&mut self.s, aig, self.fls, Some(&ls))
            }
        };
        add_constraints(&mut self.s, aig, &f);
        let b = any_bad(&mut self.s, aig, &f);
        self.bads.push(b);
        self.frames.push(f);
    }
}

fn run(aig: &Aig, ctl: &Control, balanced: bool) -> Result<EngineResult, UnknownReason> {
    let mut base = Bmc::new(aig, ctl);
    let mut jump = Jump::new(aig, ctl);
    let mut step = Unroll::new();
    step.extend(aig);
    let (mut base_t, mut step_t, mut jump_t) = (0.0f64, 0.0f64, 0.0f64);
    let mut budget = STEP_CONFLICTS;
    let mut base_budget = BASE_CONFLICTS;
    loop {
        if let Some(r) = ctl.should_stop() {
            return Err(r);
        }
        let t0 = Instant::now();
        let advanced = match base.step_limited(balanced.then_some(base_budget))? {
            BmcStep::Found(t) => return Ok(EngineResult::Unsafe(t)),
            BmcStep::Next => true,
            BmcStep::OutOfBudget => {
                base_budget = base_budget.saturating_mul(2);
                false
            }
        };
        base_t += t0.elapsed().as_secs_f64();
        // The deep probes get as much time as the base and step cases together.
        while balanced && jump_t <= base_t + step_t && !jump.done {
            if let Some(r) = ctl.should_stop() {
                return Err(r);
            }
            let t0 = Instant::now();
            if let Some(t) = jump.probe(base.depth())? {
                return Ok(EngineResult::Unsafe(t));
            }
            jump_t += t0.elapsed().as_secs_f64();
        }
        if !advanced {
            continue;
        }
        // No counterexample of length ≤ k.
        let k = base.depth() - 1;
        if balanced && step_t > base_t {
            continue;
        }
        let t0 = Instant::now();
        // Step: frames 0..=k good, frame k+1 bad.
        while step.frames.len() < k + 2 {
            let good = step.bads[step.frames.len() - 1];
            step.s.add_clause(&[!good]);
            step.extend(aig);
        }
        let bad = step.bads[k + 1];
        let limits = Limits {
            conflicts: balanced.then_some(budget),
            control: ctl.clone(),
        };
        let r = step.s.solve_limited(&[bad], &mut NoTheory, &limits);
        step_t += t0.elapsed().as_secs_f64();
        match r {
            SolveResult::Unsat => return Ok(EngineResult::Safe(Proof::KInduction(k))),
            SolveResult::Sat => {}
            SolveResult::Unknown => {
                if let Some(r) = ctl.should_stop() {
                    return Err(r);
                }
                if !balanced {
                    return Err(UnknownReason::ResourceOut("SAT budget".into()));
                }
                budget *= 2;
            }
        }
        if ctl.verbosity > 0 {
            eprintln!("kind: depth {k} not inductive (base {base_t:.2} s, step {step_t:.2} s)");
        }
    }
}
