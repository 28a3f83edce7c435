//! Systems over algebraic datatypes: non-recursive datatypes are flattened
//! ([`crate::preprocess::adt`]), the flat system is solved like any other, and the answer is
//! translated back and checked against the *original* system (the checker decides the
//! datatype queries by the flattening whose soundness `preprocess::adt` argues, and
//! derivations by exact evaluation over datatype values).

use super::{Outcome, Phase, SolveConfig, Validation, run};
use crate::engine::Control;
use crate::preprocess::{adt, measure};
use crate::result::{ChcResult, UnknownReason};
use crate::system::ChcSystem;
use cove_logic::TermStore;

pub(crate) fn solve(
    mut store: TermStore,
    sys: &ChcSystem,
    cfg: &SolveConfig,
    ctl: &Control,
) -> Outcome {
    let flat = match adt::flatten_system(&mut store, sys) {
        Ok(f) => f,
        Err(_) if cfg.validate => return recursive(store, sys, cfg, ctl),
        Err(why) => {
            return Outcome::unknown(
                store,
                UnknownReason::Unsupported(format!("datatypes: {why}")),
                Phase::Preprocessing,
            );
        }
    };
    // The answer is checked once, against the original system (below): checking the flat
    // answer as well would double the cost of the check for nothing it adds.
    let flat_cfg = SolveConfig {
        validate: false,
        ..cfg.clone()
    };
    let mut out = super::solve_system(store, &flat.system, &flat_cfg, ctl);
    let back = match &out.answer {
        ChcResult::Sat(inv) => {
            adt::back_invariants(&mut out.store, sys, &flat, inv).map(ChcResult::Sat)
        }
        ChcResult::Unsat(d) => {
            adt::back_derivation(&out.store, sys, &flat, d).map(ChcResult::Unsat)
        }
        ChcResult::Unknown(_) => return out,
    };
    let answer = match back {
        Ok(a) => a,
        Err(why) => {
            if ctl.verbosity > 0 {
                eprintln!("datatypes: the witness does not translate back: {why}");
                if let ChcResult::Sat(inv) = &out.answer {
                    for (p, d) in &inv.defs {
                        eprintln!(
                            "  {}: {}",
                            out.store.func(*p).name,
                            out.store.display(d.body)
                        );
                    }
                }
            }
            out.answer = ChcResult::Unknown(UnknownReason::Incomplete(format!(
                "datatypes: the witness does not translate back: {why}"
            )));
            out.validation = Validation::NotApplicable;
            out.phase = Some(Phase::BackTranslation);
            return out;
        }
    };
    if cfg.validate {
        let (a, v, p) = run::validate(&mut out.store, sys, answer, ctl);
        out.answer = a;
        out.validation = v;
        out.phase = p;
    } else {
        out.answer = answer;
    }
    out
}

/// Systems the flattening refuses (recursive datatypes: lists, trees, Peano numbers): BMC
/// over the original system, whose SMT queries the datatype theory of `cove-smt` decides.
/// Only counterexamples come out (BMC never answers `sat`), and each is checked by exact
/// evaluation over datatype values before it is reported.
fn recursive(store: TermStore, sys: &ChcSystem, cfg: &SolveConfig, ctl: &Control) -> Outcome {
    // Beside BMC, the measure abstraction ([`crate::preprocess::measure`]) asks whether the
    // system over sizes is safe: a cheap question, whose answer (translated back with the
    // sizes as `define-fun-rec` measures) is the only `sat` route for recursive data. The
    // two race on threads; the first checked answer stops the other.
    let mut mstore = store.clone();
    let Ok(ms) = measure::abstract_system(&mut mstore, sys) else {
        return bmc(store, sys, cfg, ctl);
    };
    let bctl = ctl.child();
    // The abstract systems that have invariants over sizes had them within 2 s of CPU on
    // ADT-LIA; the rest would only take CPU from BMC until the deadline, so the measure
    // route gets 40% of the time (its check of a found answer still gets the grace period).
    let mctl = match ctl.remaining() {
        Some(left) => ctl.child_with_budget(left.mul_f64(0.4)),
        None => ctl.child(),
    };
    let (b, m) = std::thread::scope(|scope| {
        let h = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn_scoped(scope, || {
                let o = by_measures(mstore, sys, &ms, cfg, &mctl);
                if !matches!(o.answer, ChcResult::Unknown(_)) {
                    bctl.stop();
                }
                o
            });
        let b = bmc(store, sys, cfg, &bctl);
        if !matches!(b.answer, ChcResult::Unknown(_)) {
            mctl.stop();
        }
        let m = h.ok().and_then(|h| h.join().ok());
        (b, m)
    });
    match m {
        Some(m) if !matches!(m.answer, ChcResult::Unknown(_)) => m,
        _ => b,
    }
}

/// The measure route: the abstract system solved unchecked, its invariants translated back
/// and checked on the original system.
fn by_measures(
    store: TermStore,
    sys: &ChcSystem,
    ms: &measure::MeasureSystem,
    cfg: &SolveConfig,
    ctl: &Control,
) -> Outcome {
    let inner = SolveConfig {
        validate: false,
        ..cfg.clone()
    };
    let mut out = super::solve_system(store, &ms.system, &inner, ctl);
    let ChcResult::Sat(inv) = &out.answer else {
        out.answer = ChcResult::Unknown(match &out.answer {
            ChcResult::Unknown(r) => r.clone(),
            // A counterexample of the over-approximation says nothing.
            _ => UnknownReason::Incomplete("measure abstraction: counterexample".into()),
        });
        out.validation = Validation::NotApplicable;
        return out;
    };
    let back = match measure::back_invariants(&mut out.store, sys, ms, inv) {
        Ok(b) => b,
        Err(why) => {
            out.answer = ChcResult::Unknown(UnknownReason::Incomplete(format!(
                "measure abstraction: {why}"
            )));
            out.validation = Validation::NotApplicable;
            out.phase = Some(Phase::BackTranslation);
            return out;
        }
    };
    if ctl.verbosity > 0 {
        eprintln!("measures: checking the translated invariants");
    }
    let (a, v, p) = run::validate(&mut out.store, sys, ChcResult::Sat(back), ctl);
    if ctl.verbosity > 0 {
        eprintln!("measures: validation {v}");
    }
    out.answer = a;
    out.validation = v;
    out.phase = p;
    out.engine = format!("measures+{}", out.engine);
    out
}

/// BMC over the original system (see [`recursive`]).
fn bmc(mut store: TermStore, sys: &ChcSystem, cfg: &SolveConfig, ctl: &Control) -> Outcome {
    let engine = crate::engines::EngineConfig::parse("bmc").expect("bmc engine");
    let spec = super::EngineSpec::single(engine);
    let mut c = cfg.clone();
    // Preprocessing (simplification, slicing, inlining of single-definition predicates,
    // unused arguments) works on datatype terms as on any other: it shortens the
    // derivations BMC has to unroll (the chains `f -> f.0` of the RustHorn and ringen
    // encodings halve the depth). The counterexample is translated back and checked by
    // evaluation against the original system below, and a panic in a pass is caught by
    // `run_guarded`.
    c.validate = true;
    let r = run::run_guarded(&mut store, sys, &spec, &c, ctl);
    r.into_outcome(store)
}
