//! Transition power abstraction (TPA; Blicha, Fedyukovich, Hyvärinen, Sharygina, TACAS 2022)
//! on the transition-system view.
//!
//! TPA keeps one relation per level: `L[0] = Id ∨ T` (exact: at most one step) and, for
//! `k ≥ 1`, `L[k](x, x')` over-approximating every path of at most `2^k` steps. A query
//! "can `S` reach `D` in at most `2^(n+1)` steps?" (`Power::reach`) checks
//! `S(x₀) ∧ L[n](x₀,x₁) ∧ L[n](x₁,x₂) ∧ D(x₂)`:
//!
//! * unsatisfiable: an interpolant `I(x₀,x₂)` of `L[n] ∘ L[n]` against `S(x₀) ∧ D(x₂)`
//!   over-approximates `2^(n+1)` steps and separates `S` from `D`; it strengthens `L[n+1]`;
//! * satisfiable at `n = 0`: the model is a real path of at most two steps;
//! * satisfiable at `n > 0`: the model's middle state `m` splits the question into
//!   "`S` reaches `m`" and "`m` reaches `D`", each at level `n - 1`. A refuted half
//!   strengthens `L[n]`, which blocks this model, and the query is asked again; two
//!   confirmed halves concatenate into a real path.
//!
//! Levels double the reach with every round, so counterexamples of length `2^n` need only
//! `n` rounds (BMC would need `2^n` unrollings). Safety: when
//! `init(x₀) ∧ L(x₀,x₁) ∧ T(x₁,x₂) ∧ ¬L(x₀,x₂)` is unsatisfiable for `L = L[n+1]`, the
//! states `∃x₀· init(x₀) ∧ L(x₀,x)` contain `init` (`L ⊇ Id`), are closed under `T`, and
//! exclude `bad` (the interpolant that built `L[n+1]` refuted `init → bad`): they are an
//! inductive invariant, computed by exact projection and re-checked before it is reported.
//! The dual check restricted to `bad` gives the complement of the states that reach `bad`.
//! Middle states are generalized by model-based projection of the query onto step 1, so a
//! refuted first half excludes a region, not a point; the second half starts from the
//! concrete state the first half reached.
//!
//! Split-TPA (exact `2^k`-step relations kept apart from the `< 2^k` ones) is
//! [`super::split_tpa`]; the two share their core (`tpa_core`).

use super::tpa_core::{Family, Levels, Power, PowerStats};
use super::ts_engine::TsEngine;
use super::ts_util::trivial_answer;
use crate::engine::{BuildEngine, Control, Engine, Stats};
use crate::result::UnknownReason;
use crate::ts::{Trace, TransitionSystem, TsAnswer};
use cove_logic::TermStore;

/// Options of the TPA engine (none yet).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TpaConfig {}

impl BuildEngine for TpaConfig {
    const NAME: &'static str = "tpa";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(Tpa::default())
    }
}

/// The TPA engine.
#[derive(Default)]
pub struct Tpa {
    stats: PowerStats,
}

impl TsEngine for Tpa {
    fn name(&self) -> &'static str {
        TpaConfig::NAME
    }

    fn run(
        &mut self,
        store: &mut TermStore,
        ts: &TransitionSystem,
        ctl: &Control,
    ) -> Result<TsAnswer, UnknownReason> {
        if let Some(answer) = trivial_answer(store, ts, ctl)? {
            return Ok(answer);
        }
        let mut run = Power::new(store, ts, 3, ctl, &mut self.stats, "TPA");
        let mut levels = Levels::new(store, Family::AtMost);
        for n in 0.. {
            run.stats.level = n;
            levels.grow(store);
            if let Some(states) = run.reach(store, &mut levels, n, ts.init, ts.bad)? {
                return Ok(TsAnswer::Unsafe(Trace { states }));
            }
            // An invariant when `L[n+1]` is closed under one more step from the initial
            // states or towards the bad states.
            if let Some((inv, _)) = run.closed(store, levels.rels[n + 1])? {
                return Ok(TsAnswer::Safe(inv));
            }
        }
        unreachable!("the level loop only ends by returning")
    }

    fn stats(&self) -> Stats {
        self.stats.named(TpaConfig::NAME)
    }
}
