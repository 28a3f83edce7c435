//! One integer-feasibility step after a successful relaxation check, for the CDCL(T) glue
//! and for the standalone branch and bound.
//!
//! Order: done if every integer problem variable is integral; else the GCD test (a
//! conflict); else, every `cut_period`-th step, a Gomory cut; else a branch request.
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
#[derive(Clone, Debug)]
pub struct IntConfig {
    /// Try a Gomory cut every this many non-trivial steps (0: never).
    pub cut_period: u64,
    /// Stop producing cuts after this many (they grow the tableau).
    pub max_cuts: u64,
}

impl Default for IntConfig {
    fn default() -> Self {
        IntConfig {
            cut_period: 4,
            max_cuts: 256,
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
        // Round-robin start so that no variable is starved of branches.
        let start = self.next_branch % n.max(1);
        let Some(var) = (start..n).chain(0..start).find(|&v| fractional(v)) else {
            return IntStep::Feasible;
        };
        if let Some(tags) = gcd_test(sx) {
            return IntStep::Conflict(tags);
        }
        self.steps += 1;
        let period = self.config.cut_period;
        if period > 0 && self.steps.is_multiple_of(period) && self.cuts < self.config.max_cuts {
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
        self.next_branch = var + 1;
        let value = sx.value(TVar(var as u32)).clone();
        IntStep::Branch {
            var: TVar(var as u32),
            floor: value.floor(),
            value,
        }
    }
}
