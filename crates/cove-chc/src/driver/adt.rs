//! Systems over algebraic datatypes: non-recursive datatypes are flattened
//! ([`crate::preprocess::adt`]), the flat system is solved like any other, and the answer is
//! translated back and checked against the *original* system (the checker decides the
//! datatype queries by the flattening whose soundness `preprocess::adt` argues, and
//! derivations by exact evaluation over datatype values).

use super::{Outcome, Phase, SolveConfig, Validation, run};
use crate::engine::Control;
use crate::preprocess::adt;
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
fn recursive(mut store: TermStore, sys: &ChcSystem, cfg: &SolveConfig, ctl: &Control) -> Outcome {
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
