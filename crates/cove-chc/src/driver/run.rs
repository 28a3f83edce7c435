//! One engine on one system: preprocess, solve, translate back, validate.

use super::schedule::EngineSpec;
use super::{Outcome, Phase, SolveConfig, Validation};
use crate::cert;
use crate::engine::{Control, Stats};
use crate::preprocess::{BackTranslate, PreprocessConfig, preprocess};
use crate::result::{ChcResult, UnknownReason};
use crate::share::LemmaPool;
use crate::system::ChcSystem;
use cove_logic::TermStore;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

/// The result of one engine run, its witness stated over the system it was given.
pub(crate) struct Run {
    pub answer: ChcResult,
    pub engine: String,
    pub validation: Validation,
    pub phase: Option<Phase>,
    pub stats: Stats,
    /// The engine's [`crate::engine::Engine::resume`] words, when it ran on the system it
    /// was given (not the input after a failed back-translation).
    pub resume: Option<String>,
}

impl Run {
    /// True for an answer that may be reported (checked, or checking turned off).
    pub fn is_answer(&self) -> bool {
        !matches!(self.answer, ChcResult::Unknown(_))
    }

    pub fn into_outcome(self, store: TermStore) -> Outcome {
        Outcome {
            answer: self.answer,
            store,
            engine: self.engine,
            validation: self.validation,
            constants: vec![],
            phase: self.phase,
            stats: self.stats,
            time: Duration::ZERO,
        }
    }
}

/// [`run`], with a panic in an engine turned into `unknown` (and a bug report on stderr)
/// instead of taking the process, or the portfolio, down.
pub(crate) fn run_guarded(
    store: &mut TermStore,
    sys: &ChcSystem,
    spec: &EngineSpec,
    cfg: &SolveConfig,
    ctl: &Control,
) -> Run {
    run_guarded_sharing(store, sys, spec, cfg, ctl, None)
}

/// [`run_guarded`] with the engine offering what it learns to `pool`.
pub(crate) fn run_guarded_sharing(
    store: &mut TermStore,
    sys: &ChcSystem,
    spec: &EngineSpec,
    cfg: &SolveConfig,
    ctl: &Control,
    pool: Option<&LemmaPool>,
) -> Run {
    match catch_unwind(AssertUnwindSafe(|| run(store, sys, spec, cfg, ctl, pool))) {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".into());
            eprintln!(
                "cove: internal error in engine {}: {msg} (please report this input)",
                spec.label
            );
            Run {
                answer: ChcResult::Unknown(UnknownReason::Incomplete(format!(
                    "internal error in {}",
                    spec.label
                ))),
                engine: spec.label.clone(),
                validation: Validation::NotApplicable,
                phase: Some(Phase::Solving),
                stats: vec![],
                resume: None,
            }
        }
    }
}

/// Preprocessing options under `ctl`: at most a quarter of the time that is left; the
/// inductive bounds as `bounds` says (see [`EngineSpec::bounds`]).
pub(crate) fn preprocess_config(ctl: &Control, bounds: bool) -> PreprocessConfig {
    let mut opts = PreprocessConfig {
        bounds,
        ..PreprocessConfig::default()
    };
    if let Some(left) = ctl.remaining() {
        opts.time_budget = opts.time_budget.min(left / 4);
    }
    opts
}

/// Runs `spec` on `sys` under `ctl`; the witness is translated back to `sys` and checked.
fn run(
    store: &mut TermStore,
    sys: &ChcSystem,
    spec: &EngineSpec,
    cfg: &SolveConfig,
    ctl: &Control,
    pool: Option<&LemmaPool>,
) -> Run {
    let create = || {
        let mut e = spec.create();
        if let Some(p) = pool {
            e.share(p);
        }
        e
    };
    let mut engine = create();
    let mut phase = Phase::Solving;
    // The engine that ran last solved the input instead (below): its resume words are not
    // for the system this entry is given.
    let mut on_input = false;
    let answer = if cfg.preprocess {
        let (small, pipe) = preprocess(store, sys, &preprocess_config(ctl, spec.bounds), ctl);
        if let Some(why) = ctl.should_stop() {
            phase = Phase::Preprocessing;
            ChcResult::Unknown(why)
        } else {
            let back = match engine.solve(store, &small, ctl) {
                ChcResult::Sat(inv) => pipe.invariants(store, inv, ctl).map(ChcResult::Sat),
                ChcResult::Unsat(d) => pipe.derivation(store, d, ctl).map(ChcResult::Unsat),
                u @ ChcResult::Unknown(_) => Ok(u),
            };
            match back {
                Ok(r) => r,
                // The quantifier elimination of an inlined predicate's invariant can exceed
                // its budget: then the input system itself is solved with the time left.
                Err(_) if ctl.should_stop().is_none() => {
                    engine = create();
                    on_input = true;
                    engine.solve(store, sys, ctl)
                }
                Err(e) => {
                    phase = Phase::BackTranslation;
                    ChcResult::Unknown(match ctl.should_stop() {
                        Some(why) => why,
                        None => UnknownReason::Incomplete(format!("preprocessing: {e}")),
                    })
                }
            }
        }
    } else {
        engine.solve(store, sys, ctl)
    };
    let stats = engine.stats();
    let resume = if on_input { None } else { engine.resume() };
    let (answer, validation, vphase) = if cfg.validate {
        validate(store, sys, answer, ctl)
    } else {
        let v = if matches!(answer, ChcResult::Unknown(_)) {
            Validation::NotApplicable
        } else {
            Validation::Skipped
        };
        (answer, v, None)
    };
    let phase = match &answer {
        ChcResult::Unknown(_) => Some(vphase.unwrap_or(phase)),
        _ => None,
    };
    Run {
        answer,
        engine: spec.label.clone(),
        validation,
        phase,
        stats,
        resume,
    }
}

/// The grace period the certificate check gets beyond the deadline: an answer found just
/// before the deadline is still worth checking, and the limit holds within a second.
///
/// It ends at a fixed point, the deadline plus the grace, however late the check starts:
/// an engine that noticed the deadline late, or a back-translation that ran past it, must
/// not push the check's end towards the CLI's watchdog (deadline + 0.6 s, which ends the
/// process as "a phase did not stop in time"). A check that starts after that point stops
/// at its first poll, and the answer is `unknown`.
const VALIDATION_GRACE: Duration = Duration::from_millis(250);

/// Checks the certificate of `answer` against `sys`; an answer whose certificate is refuted
/// or cannot be confirmed within the limits becomes `unknown`.
pub(crate) fn validate(
    store: &mut TermStore,
    sys: &ChcSystem,
    answer: ChcResult,
    ctl: &Control,
) -> (ChcResult, Validation, Option<Phase>) {
    let vctl = Control {
        deadline: ctl.deadline.map(|d| d + VALIDATION_GRACE),
        ..ctl.clone()
    };
    let verdict = match &answer {
        ChcResult::Sat(inv) => cert::check_invariants(store, sys, inv, &vctl),
        ChcResult::Unsat(d) => cert::check_derivation(store, sys, d),
        ChcResult::Unknown(_) => return (answer, Validation::NotApplicable, None),
    };
    match verdict {
        Ok(()) => (answer, Validation::Valid, None),
        Err(e) if !e.is_invalid() => {
            // Undecided without a stop: the checker cannot decide this certificate (an
            // unspecified value, a theory it is incomplete for), which is no timeout.
            let why = vctl.should_stop().unwrap_or_else(|| {
                UnknownReason::Incomplete(format!("certificate undecided: {e}"))
            });
            (
                ChcResult::Unknown(why),
                Validation::Undecided(e.to_string()),
                Some(Phase::Validation),
            )
        }
        Err(e) => {
            eprintln!(
                "cove: internal error: the {} certificate failed validation: {e} (please report this input)",
                answer.verdict()
            );
            (
                ChcResult::Unknown(UnknownReason::Incomplete(
                    "certificate failed validation".into(),
                )),
                Validation::Failed(e.to_string()),
                Some(Phase::Validation),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::Invariants;
    use std::time::Instant;

    /// `n` pigeons in `n - 1` holes: the invariant `P := ¬distinct(x…)` is valid for the
    /// fact clause, but proving it is the pigeonhole principle, a long CDCL search.
    fn pigeons(store: &mut TermStore, n: usize) -> (ChcSystem, Invariants) {
        let xs: Vec<String> = (0..n).map(|i| format!("x{i}")).collect();
        let decl = xs.iter().map(|x| format!("({x} Int)")).collect::<String>();
        let bounds: String = xs
            .iter()
            .map(|x| format!("(<= 0 {x}) (<= {x} {})", n - 2))
            .collect();
        let args = xs.join(" ");
        let ints = vec!["Int"; n].join(" ");
        let src = format!(
            "(set-logic HORN) (declare-fun P ({ints}) Bool)
             (assert (forall ({decl}) (=> (and {bounds}) (P {args}))))
             (assert (forall ({decl}) (=> (and (P {args}) (distinct {args})) false)))"
        );
        let sys = crate::frontend::parse_chc(src.as_bytes(), store).expect("parses");
        let p = sys.preds[0];
        let vs: Vec<_> = (0..n)
            .map(|i| store.var(&format!("v{i}"), Sort::Int))
            .collect();
        let ts: Vec<_> = vs.iter().map(|&v| store.mk_var(v)).collect();
        let mut ne = vec![];
        for i in 0..n {
            for j in i + 1..n {
                let e = store.mk_eq(ts[i], ts[j]);
                ne.push(store.mk_not(e));
            }
        }
        let distinct = store.mk_and(&ne);
        let body = store.mk_not(distinct);
        let mut inv = Invariants::default();
        inv.define(p, vs, body);
        (sys, inv)
    }

    use cove_logic::Sort;

    #[test]
    fn check_stops_on_its_work_budget() {
        // Bounded by work units (one per conflict of the SAT search), not by the clock.
        let mut store = TermStore::new();
        let (sys, inv) = pigeons(&mut store, 4);
        let ctl = Control::default().with_work_budget(100_000);
        cert::check_invariants(&mut store, &sys, &inv, &ctl).expect("3 holes: valid");
        let mut store = TermStore::new();
        let (sys, inv) = pigeons(&mut store, 9);
        let ctl = Control::default().with_work_budget(200);
        let e = cert::check_invariants(&mut store, &sys, &inv, &ctl).unwrap_err();
        assert!(
            !e.is_invalid(),
            "out of budget is undecided, not refuted: {e}"
        );
        let used = 200 - ctl.work.as_ref().map_or(0, |w| w.remaining());
        assert_eq!(used, 200, "the budget was spent, not skipped");
    }

    #[test]
    fn late_validation_ends_at_the_deadline_plus_grace() {
        // The run's deadline passed more than the grace ago (an engine noticed it late): the
        // check gets no fresh grace period, the answer is `unknown`, in validation.
        let mut store = TermStore::new();
        let (sys, inv) = pigeons(&mut store, 9);
        let past = Instant::now()
            .checked_sub(Duration::from_secs(5))
            .expect("clock far enough from its origin");
        let ctl = Control {
            deadline: Some(past),
            ..Control::default()
        };
        let (answer, validation, phase) = validate(&mut store, &sys, ChcResult::Sat(inv), &ctl);
        assert!(
            matches!(answer, ChcResult::Unknown(UnknownReason::Timeout)),
            "{answer:?}"
        );
        assert!(matches!(validation, Validation::Undecided(_)));
        assert_eq!(phase, Some(Phase::Validation));
    }
}
