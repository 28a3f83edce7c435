//! Bounded model checking: one incremental solver, the bad property assumed in the newest
//! frame. Finds shortest counterexamples; never proves safety.
//!
//! The unrolling (`unroll.rs`, shared with localization) is built on demand from the
//! literals a query needs: the bad property and the constraints of each frame.

use crate::Aig;
use crate::engine::{EngineResult, RawTrace, sat};
use crate::unroll::{Unroll, Val};
use cove_control::{Control, UnknownReason};
use cove_sat::{Limits, Lit};

/// BMC's options ([`crate::EngineConfig::Bmc`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BmcConfig {
    /// Stop after this many steps with `unknown` (unbounded when `None`, the default).
    pub max_bound: Option<usize>,
}

impl BmcConfig {
    /// Runs BMC with these options.
    pub fn run(&self, aig: &Aig, ctl: &Control) -> EngineResult {
        bmc(aig, ctl, self.max_bound)
    }
}

/// Runs BMC up to `max_bound` steps (unbounded when `None`).
pub fn bmc(aig: &Aig, ctl: &Control, max_bound: Option<usize>) -> EngineResult {
    match run(aig, ctl, max_bound) {
        Ok(r) => r,
        Err(r) => EngineResult::Unknown(r),
    }
}

fn run(aig: &Aig, ctl: &Control, max_bound: Option<usize>) -> Result<EngineResult, UnknownReason> {
    let mut b = Bmc::new(aig, ctl);
    loop {
        if let Some(r) = ctl.should_stop() {
            return Err(r);
        }
        if max_bound.is_some_and(|m| b.depth() > m) {
            return Err(UnknownReason::Incomplete(format!(
                "no counterexample up to bound {}",
                b.depth() - 1
            )));
        }
        if let Some(t) = b.step()? {
            return Ok(EngineResult::Unsafe(t));
        }
        if b.exhausted {
            return Err(UnknownReason::Incomplete(format!(
                "the constraints exclude every trace of length {}",
                b.depth() - 1
            )));
        }
    }
}

/// BMC one depth at a time, for engines that interleave it with other work (k-induction's
/// base case).
pub(crate) struct Bmc<'a> {
    u: Unroll<'a>,
    limits: Limits,
    ctl: &'a Control,
    k: usize,
    /// The constraints exclude every trace of length `≥ k` (so none is a counterexample).
    pub(crate) exhausted: bool,
}

impl<'a> Bmc<'a> {
    pub(crate) fn new(aig: &'a Aig, ctl: &'a Control) -> Bmc<'a> {
        Bmc {
            u: Unroll::new(aig),
            limits: Limits::of(ctl),
            ctl,
            k: 0,
            exhausted: false,
        }
    }

    /// The depth the next [`Bmc::step`] checks (every shorter trace has been excluded).
    pub(crate) fn depth(&self) -> usize {
        self.k
    }

    /// Looks for a counterexample of exactly `depth()` steps; on none, moves to the next
    /// depth. Once the constraints are found to exclude every trace of some length
    /// (`exhausted`), steps are free.
    pub(crate) fn step(&mut self) -> Result<Option<RawTrace>, UnknownReason> {
        if self.exhausted {
            self.k += 1;
            return Ok(None);
        }
        let (aig, k, ctl) = (self.u.aig, self.k, self.ctl);
        let u = &mut self.u;
        u.add_frame();
        // Constraints of this frame: facts for this and every deeper query.
        for &c in &aig.constraints {
            match u.value(k, c) {
                Val::Const(true) => {}
                Val::Const(false) => {
                    self.exhausted = true;
                    self.k += 1;
                    return Ok(None);
                }
                Val::Lit(l) => {
                    u.s.add_clause(&[l]);
                }
            }
        }
        let bads: Vec<Val> = aig.bad.iter().map(|&b| u.value(k, b)).collect();
        let mut bad_lits = Vec::new();
        let mut hit = false;
        for b in bads {
            match b {
                Val::Const(true) => hit = true,
                Val::Const(false) => {}
                Val::Lit(l) => bad_lits.push(l),
            }
        }
        let found = if hit {
            sat(&mut u.s, &[], &self.limits, ctl)?
        } else if bad_lits.is_empty() {
            false
        } else {
            let b = if bad_lits.len() == 1 {
                bad_lits[0]
            } else {
                let b = Lit::new(u.s.new_var(), false);
                let mut big = vec![!b];
                for &l in &bad_lits {
                    u.s.add_clause(&[b, !l]);
                    big.push(l);
                }
                u.s.add_clause(&big);
                b
            };
            let found = sat(&mut u.s, &[b], &self.limits, ctl)?;
            if !found {
                // No bad state at this depth: keep that as a fact for the deeper queries.
                u.s.add_clause(&[!b]);
            }
            found
        };
        if found {
            return Ok(Some(u.trace(k)));
        }
        if ctl.verbosity > 0 {
            eprintln!("bmc: no counterexample of length {k}");
        }
        self.k += 1;
        Ok(None)
    }
}
