//! The portfolio: the entries of [`super::schedule`] side by side, each under a panic guard.
//!
//! Every entry runs on a child of the caller's [`Control`]; the first definite answer stops
//! the others. A panicking engine is caught ([`guarded`]) and becomes that engine's
//! `unknown` (with a bug-report line on stderr): the other entries go on, and a run never
//! ends in a crash because of one engine.

use crate::result::EngineResult;
use crate::{Aig, EngineConfig};
use cove_control::{Control, UnknownReason};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The portfolio's options ([`super::EngineChoice::Portfolio`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortfolioConfig {
    /// Engine threads (0, the default, = one per available core; see
    /// [`super::schedule::entries`]).
    pub threads: usize,
}

impl PortfolioConfig {
    /// Runs the schedule's entries for this thread budget; the answer with the name of the
    /// entry that gave it.
    pub(crate) fn run(&self, aig: &Aig, ctl: &Control) -> (EngineResult, &'static str) {
        run_entries(
            aig,
            &super::schedule::entries(self.threads),
            ctl,
            &|e, a, c| (e.run(a, c), e.name()),
        )
    }
}

/// An engine runner (the real one is [`EngineConfig::run`]; tests substitute one).
pub(super) type Runner<'r> =
    dyn Fn(&EngineConfig, &Aig, &Control) -> (EngineResult, &'static str) + Sync + 'r;

/// Runs `entries` with `run`: a single entry in the calling thread, several side by side.
/// The first definite answer wins; otherwise the first unknown whose reason is not
/// `Incomplete` (a limit says more than an engine that gave up).
pub(super) fn run_entries(
    aig: &Aig,
    entries: &[EngineConfig],
    ctl: &Control,
    run: &Runner<'_>,
) -> (EngineResult, &'static str) {
    if let [only] = entries {
        return guarded(only.name(), || run(only, aig, ctl));
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let children: Vec<Control> = entries.iter().map(|_| ctl.child()).collect();
    std::thread::scope(|scope| {
        for (e, c) in entries.iter().zip(&children) {
            let tx = tx.clone();
            scope.spawn(move || {
                let _ = tx.send(guarded(e.name(), || run(e, aig, c)));
            });
        }
        drop(tx);
        let mut last = (
            EngineResult::Unknown(UnknownReason::Incomplete("no engine answered".into())),
            "portfolio",
        );
        for r in rx.iter() {
            if !matches!(r.0, EngineResult::Unknown(_)) {
                for c in &children {
                    c.stop();
                }
                return r;
            }
            if matches!(last.0, EngineResult::Unknown(UnknownReason::Incomplete(_))) {
                last = r;
            }
        }
        last
    })
}

/// `run()` (the engine or choice `name` on a circuit), with a panic turned into its
/// `unknown` and a bug-report line on stderr.
pub(super) fn guarded(
    name: &'static str,
    run: impl FnOnce() -> (EngineResult, &'static str),
) -> (EngineResult, &'static str) {
    match catch_unwind(AssertUnwindSafe(run)) {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "panic".into());
            eprintln!("cove: internal error in engine {name}: {msg} (please report this input)");
            (
                EngineResult::Unknown(UnknownReason::Incomplete(format!(
                    "internal error in {name}"
                ))),
                name,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::schedule;

    fn design(src: &str) -> Aig {
        crate::parse_aiger(src.as_bytes()).expect("valid aag")
    }

    /// A runner whose `ic3-loc` entry panics (the test-only hook): the others run normally.
    fn panicking_ic3_loc(e: &EngineConfig, a: &Aig, c: &Control) -> (EngineResult, &'static str) {
        if e.name() == "ic3-loc" {
            panic!("injected failure");
        }
        (e.run(a, c), e.name())
    }

    #[test]
    fn portfolio_with_two_and_three_threads_answers() {
        let ctl = Control::default();
        let safe = design(include_str!("../../tests/data/mod6_safe.aag"));
        let bad = design(include_str!("../../tests/data/mod6_unsafe.aag"));
        for threads in [2, 3] {
            let p = PortfolioConfig { threads };
            assert!(matches!(p.run(&safe, &ctl).0, EngineResult::Safe(_)));
            assert!(matches!(p.run(&bad, &ctl).0, EngineResult::Unsafe(_)));
        }
    }

    #[test]
    fn a_panicking_entry_is_that_entrys_unknown_and_the_others_answer() {
        let ctl = Control::default();
        let bad = design(include_str!("../../tests/data/mod6_unsafe.aag"));
        // Alone, the panic becomes unknown with the engine named.
        let e = &schedule::entries(2)[0];
        let (r, name) = guarded(e.name(), || panicking_ic3_loc(e, &bad, &ctl));
        assert_eq!(name, "ic3-loc");
        assert!(
            matches!(&r, EngineResult::Unknown(UnknownReason::Incomplete(m)) if m == "internal error in ic3-loc"),
            "{r:?}"
        );
        // In the portfolio, the other entries still answer.
        for threads in [2, 3] {
            let (r, name) =
                run_entries(&bad, &schedule::entries(threads), &ctl, &panicking_ic3_loc);
            assert!(matches!(r, EngineResult::Unsafe(_)), "{r:?}");
            assert_ne!(name, "ic3-loc");
        }
        // Every entry panicking: unknown, no crash.
        let all = |_: &EngineConfig, _: &Aig, _: &Control| -> (EngineResult, &'static str) {
            panic!("every engine fails")
        };
        let (r, _) = run_entries(&bad, &schedule::entries(3), &ctl, &all);
        assert!(matches!(r, EngineResult::Unknown(_)), "{r:?}");
    }
}
