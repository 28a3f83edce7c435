//! One integer-feasibility step after a successful relaxation check, for the CDCL(T) glue
//! and for the standalone branch and bound.
//!
//! Order: done if every integer problem variable is integral; else the GCD test (a
//! conflict); else, when the cut policy ([`IntConfig`]) says so and a row qualifies, a
//! Gomory cut; else a branch request.
//! The glue turns `Branch` into the lemma `x ≤ ⌊v⌋ ∨ x ≥ ⌊v⌋+1` over fresh atoms and
//! `Cut` into the lemma `deps → lin ≥ bound`.

use super::gcd::gcd_test;
use super::gomory::{Cut, gomory_cut};
use crate::simplex::{BoundTag, DeltaRational, Simplex, TVar};
use cove_logic::Rational;

/// What to do next for integer feasibility.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum IntStep {
    /// Every integer variable has an integral value: the assignment is an integer model.
    Feasible,
    /// Split on `var ≤ floor ∨ var ≥ floor + 1` (`value` is the current fractional value).
    Branch {
        /// Integer problem variable with a fractional value.
        var: TVar,
        /// Its current value.
        value: DeltaRational,
        /// `⌊value⌋`.
        floor: Rational,
    },
    /// Add this cut (valid given its dependency bounds; violated by the current point).
    Cut(Cut),
    /// These bounds have no integer solution (GCD test or a trivially false cut).
    Conflict(Vec<BoundTag>),
}

/// Settings of the integer layer.
///
/// Gomory cuts are tried at every step during the first `eager_cuts` steps (in practice:
/// at the root, before any branching, where cuts are most effective and most reusable),
/// then every `cut_period`-th step, until `max_cuts` cuts have been made.
#[derive(Clone, Debug)]
pub struct IntConfig {
    /// Steps at the start during which every step tries a cut first.
    pub eager_cuts: u64,
    /// Afterwards, try a cut every this many steps (0: never).
    pub cut_period: u64,
    /// Stop producing cuts after this many (they grow the tableau).
    pub max_cuts: u64,
}

impl Default for IntConfig {
    fn default() -> Self {
        IntConfig {
            eager_cuts: 32,
            cut_period: 4,
            max_cuts: 128,
        }
    }
}

/// State of the integer step policy (counters for cut periods, round-robin branching).
#[derive(Clone, Debug, Default)]
pub struct IntChecker {
    /// Settings.
    pub config: IntConfig,
    steps: u64,
    cuts: u64,
    next_branch: usize,
}

impl IntChecker {
    /// A checker with the given settings.
    pub fn new(config: IntConfig) -> IntChecker {
        IntChecker {
            config,
            ..IntChecker::default()
        }
    }

    /// Restarts the cut policy (eager phase and cut budget), e.g. for a new query.
    pub fn reset(&mut self) {
        self.steps = 0;
        self.cuts = 0;
    }

    /// Number of cuts produced so far.
    pub fn cuts(&self) -> u64 {
        self.cuts
    }

    /// Decides the next integer action. Call right after [`Simplex::check`] succeeded.
    pub fn step(&mut self, sx: &Simplex) -> IntStep {
        let n = sx.num_vars();
        let fractional = |v: usize| {
            let x = TVar(v as u32);
            sx.is_int(x) && sx.definition(x).is_none() && !sx.value(x).is_integer()
        };
        // Rotating start: ties in the branching choice go round-robin.
        let start = self.next_branch % n.max(1);
        let Some(var) = (start..n).chain(0..start).find(|&v| fractional(v)) else {
            return IntStep::Feasible;
        };
        if let Some(tags) = gcd_test(sx) {
            return IntStep::Conflict(tags);
        }
        self.steps += 1;
        let period = self.config.cut_period;
        let due = self.steps <= self.config.eager_cuts
            || (period > 0 && self.steps.is_multiple_of(period));
        if due && self.cuts < self.config.max_cuts {
            let mut best: Option<Cut> = None;
            for (basic, _) in sx.rows() {
                if let Some(c) = gomory_cut(sx, basic) {
                    if c.lin.is_empty() {
                        // `0 ≥ bound` with bound ≥ 1: the row alone is integer-infeasible.
                        return IntStep::Conflict(c.deps);
                    }
                    if best.as_ref().is_none_or(|b| c.lin.len() < b.lin.len()) {
                        best = Some(c);
                    }
                }
            }
            if let Some(c) = best {
                self.cuts += 1;
                return IntStep::Cut(c);
            }
        }
        let var = most_fractional(sx, (start..n).chain(0..start).filter(|&v| fractional(v)))
            .unwrap_or(var);
        self.next_branch = var + 1;
        let value = sx.value(TVar(var as u32)).clone();
        IntStep::Branch {
            var: TVar(var as u32),
            floor: value.floor(),
            value,
        }
    }
}

/// The candidate whose fractional part is closest to 1/2 (first in `candidates` order on
/// ties). Branching there moves the relaxation most; on unbounded problems it avoided the
/// long runs that plain round-robin branching showed in the differential tests.
fn most_fractional(sx: &Simplex, candidates: impl Iterator<Item = usize>) -> Option<usize> {
    let mut best: Option<(Rational, usize)> = None;
    for v in candidates {
        let f = sx.value(TVar(v as u32)).real.fract();
        let one_minus = &Rational::ONE - &f;
        let d = if f < one_minus { f } else { one_minus };
        if best.as_ref().is_none_or(|(b, _)| d > *b) {
            best = Some((d, v));
        }
    }
    best.map(|(_, v)| v)
}
