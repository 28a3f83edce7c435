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
    let flat = match adt::flatten_system(&mut store, sys, ctl) {
        Ok(f) => f,
        Err(_) => {
            if let Some(why) = ctl.should_stop() {
                return Outcome::unknown(store, why, Phase::Preprocessing);
            }
            return recursive(store, sys, cfg, ctl);
        }
    };
    let out = flat_route(store, sys, &flat, cfg, ctl);
    // The flat route is complete only for the canonical flat values it reaches; a witness
    // that does not translate back or check (a derivation through an unspecified selector
    // value), or engines that give up, leave the original system to the engines that work
    // on datatypes directly, while time remains.
    if let ChcResult::Unknown(why) = &out.answer
        && ctl.should_stop().is_none()
    {
        if ctl.verbosity > 0 {
            eprintln!("datatypes: the flat system ended unknown ({why}); solving the original");
        }
        return recursive(out.store, sys, cfg, ctl);
    }
    out
}

/// The flat system solved, its answer translated back and checked against `sys`.
fn flat_route(
    store: TermStore,
    sys: &ChcSystem,
    flat: &adt::FlatSystem,
    cfg: &SolveConfig,
    ctl: &Control,
) -> Outcome {
    // The answer is checked once, against the original system (below): checking the flat
    // answer as well would double the cost of the check for nothing it adds.
    let flat_cfg = SolveConfig {
        validate: false,
        ..cfg.clone()
    };
    let mut out = super::solve_system(store, &flat.system, &flat_cfg, ctl);
    let back = match &out.answer {
        ChcResult::Sat(inv) => {
            adt::back_invariants(&mut out.store, sys, flat, inv).map(ChcResult::Sat)
        }
        ChcResult::Unsat(d) => adt::back_derivation(&out.store, sys, flat, d).map(ChcResult::Unsat),
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
/// and Spacer over the original system ([`direct`]) and, in the portfolio, the measure
/// abstraction beside them.
fn recursive(store: TermStore, sys: &ChcSystem, cfg: &SolveConfig, ctl: &Control) -> Outcome {
    if !matches!(cfg.engine, super::EngineChoice::Portfolio) {
        return direct(store, sys, cfg, ctl);
    }
    // Beside BMC and Spacer, the measure abstraction ([`crate::preprocess::measure`]) asks
    // whether the system over sizes is safe: a cheap question, whose answer (translated back
    // with the sizes as `define-fun-rec` measures) proves what needs sizes rather than
    // constructor shapes. The two routes race on threads; the first checked answer stops
    // the other.
    let mut mstore = store.clone();
    let Ok(ms) = measure::abstract_system(&mut mstore, sys) else {
        return direct(store, sys, cfg, ctl);
    };
    let bctl = ctl.child();
    // The abstract systems that have invariants over sizes had them within 2 s of CPU on
    // ADT-LIA; the rest would only take CPU from BMC and Spacer until the deadline, so the measure
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
        let b = direct(store, sys, cfg, &bctl);
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

/// BMC and Spacer over the original system, whose SMT queries the datatype theory of `cove-smt`
/// decides, side by side (the portfolio's race; one after the other on one thread). BMC
/// finds the counterexamples; Spacer, with the datatype-aware model-based projection of
/// `cove_smt::mbp`, finds invariants over testers, selector chains, datatype equalities and
/// arithmetic, and the counterexamples of nonlinear systems whose derivations combine
/// separately derived facts of one predicate. Each answer is translated back and checked
/// against the original system (invariants by the SMT core's datatype theory,
/// counterexamples by evaluation over datatype values) before it is reported.
fn direct(mut store: TermStore, sys: &ChcSystem, cfg: &SolveConfig, ctl: &Control) -> Outcome {
    let c = cfg.clone();
    // Preprocessing (simplification, slicing, inlining of single-definition predicates,
    // unused arguments) works on datatype terms as on any other: it shortens the
    // derivations BMC has to unroll (the chains `f -> f.0` of the RustHorn and ringen
    // encodings halve the depth). The answer is translated back and checked against the
    // original system (unless checking is turned off, for measuring), and a panic in a
    // pass is caught by `run_guarded`.
    let specs: Vec<super::EngineSpec> = match &cfg.engine {
        super::EngineChoice::One(e) => vec![super::EngineSpec::single(e.clone())],
        super::EngineChoice::Portfolio => {
            let bmc = crate::engines::EngineConfig::parse("bmc").expect("bmc engine");
            let spacer = crate::engines::spacer::SpacerConfig::default();
            let mut bmc = super::EngineSpec::single(bmc);
            if c.thread_count() < 2 {
                bmc = bmc.with_share(0.5);
            }
            vec![bmc, super::EngineSpec::single(spacer)]
        }
    };
    if specs.len() == 1 {
        let r = run::run_guarded(&mut store, sys, &specs[0], &c, ctl);
        return r.into_outcome(store);
    }
    super::portfolio::race(store, sys, false, None, &specs, &c, ctl).outcome
}
