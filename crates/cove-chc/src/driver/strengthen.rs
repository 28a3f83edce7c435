//! Engines that start late in a portfolio run on the system strengthened with what the
//! others learned (lemma sharing, the receiving side; [`crate::share`] is the sending side).
//!
//! The offered lemmas are only candidates. Houdini (the abstraction engine's EXTRACTINVS)
//! keeps their maximal subset `J` that is inductive for the system: every clause, with `J`
//! assumed on its body atoms, implies `J` on its head. Such a `J` holds for every derivable
//! fact, so conjoining `J(args)` to every body atom's clause constraint changes no derivable
//! fact (the least model is the same) and the strengthened system `S'` has the same answer:
//! - a derivation of `S'` is one of `S` step for step (same clauses, same values; the
//!   constraints of `S'` only imply those of `S`);
//! - if `I` solves `S'`, then `I ∧ J` solves `S`: a clause's body under `I ∧ J` satisfies the
//!   strengthened constraint, so its head gets `I`, and `J` by inductiveness.
//!
//! The invariants an engine finds for `S'` can be much simpler than those for `S` (the shared
//! lemmas carry the hard part), and the transition-system engines see a tighter transition
//! relation (the pattern of Kind 2 and JKind, where k-induction consumes the invariants of
//! IC3 and of invariant generators). Both witnesses are checked against the input system
//! by the caller, as every answer is.

use super::run::{Run, run_guarded, validate};
use super::schedule::EngineSpec;
use super::{SolveConfig, Validation};
use crate::engine::Control;
use crate::houdini::houdini;
use crate::invariant_map::InvMap;
use crate::result::{ChcResult, Invariants, UnknownReason};
use crate::share::SharedLemma;
use crate::system::ChcSystem;
use cove_logic::TermStore;

/// `sys` strengthened with the inductive subset of `cands`, and that subset; `None` when no
/// candidate survives (or the limits stop Houdini).
pub(crate) fn strengthen(
    store: &mut TermStore,
    sys: &ChcSystem,
    cands: &[SharedLemma],
    ctl: &Control,
) -> Option<(ChcSystem, InvMap)> {
    let mut map = InvMap::new(store, sys);
    map.add_shared(store, cands);
    if map.size() == 0 {
        return None;
    }
    houdini(store, sys, &mut map, ctl).ok()?;
    if map.size() == 0 {
        return None;
    }
    let out = map.strengthen(store, sys);
    Some((out, map))
}

/// Runs `spec` on `sys` strengthened with the inductive subset of `cands` (plain `sys` when
/// none survives); the witness is stated over `sys` and checked against it.
pub(crate) fn run_strengthened(
    store: &mut TermStore,
    sys: &ChcSystem,
    cands: &[SharedLemma],
    spec: &EngineSpec,
    cfg: &SolveConfig,
    ctl: &Control,
) -> Run {
    let Some((strong, map)) = strengthen(store, sys, cands, ctl) else {
        return run_guarded(store, sys, spec, cfg, ctl);
    };
    if ctl.verbosity > 0 {
        eprintln!(
            "portfolio: {} starts with {} shared invariant lemma(s)",
            spec.label,
            map.size()
        );
    }
    let inner = SolveConfig {
        validate: false,
        ..cfg.clone()
    };
    let mut r = run_guarded(store, &strong, spec, &inner, ctl);
    // The next turn may start from other shared lemmas, so from another system.
    r.resume = None;
    let answer = match std::mem::replace(&mut r.answer, ChcResult::Sat(Invariants::default())) {
        ChcResult::Sat(mut inv) => match map.conjoin(store, &mut inv) {
            Ok(()) => ChcResult::Sat(inv),
            Err(p) => ChcResult::Unknown(UnknownReason::Incomplete(format!(
                "no invariant for '{}' to conjoin the shared lemmas to",
                store.func(p).name
            ))),
        },
        other => other,
    };
    if let ChcResult::Unknown(_) = answer {
        r.answer = answer;
        return r;
    }
    if cfg.validate {
        let (answer, validation, phase) = validate(store, sys, answer, ctl);
        r.answer = answer;
        r.validation = validation;
        r.phase = phase;
    } else {
        r.answer = answer;
        r.validation = Validation::Skipped;
    }
    r.engine = format!("{}+shared", spec.label);
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::kind::KindConfig;
    use crate::frontend::parse_queries;
    use crate::share::LemmaPool;
    use cove_logic::VarId;

    const SRC: &[u8] = b"(set-logic HORN)
      (declare-fun inv (Int Int) Bool)
      (assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (inv x y))))
      (assert (forall ((x Int) (y Int)) (=> (and (inv x y) (< x 10)) (inv (+ x 1) (+ y 2)))))
      (assert (forall ((x Int) (y Int)) (=> (and (inv x y) (> y 20)) false)))
      (check-sat)";

    /// `inv`'s lemmas `x >= 0`, `x <= 10`, `y = 2x` and the non-inductive `x <= 5`, offered
    /// through a pool as an engine would.
    fn offered(store: &mut TermStore, sys: &ChcSystem) -> Vec<SharedLemma> {
        let p = sys.preds[0];
        let xs: Vec<VarId> = ["a", "b"]
            .iter()
            .map(|n| store.var(n, cove_logic::Sort::Int))
            .collect();
        let (x, y) = (store.mk_var(xs[0]), store.mk_var(xs[1]));
        let (zero, ten, five, two) = (
            store.mk_int(0),
            store.mk_int(10),
            store.mk_int(5),
            store.mk_int(2),
        );
        let twice = store.mk_mul(&[two, x]);
        let lemmas = [
            store.mk_ge(x, zero),
            store.mk_le(x, ten),
            store.mk_eq(y, twice),
            store.mk_le(x, five),
        ];
        let pool = LemmaPool::default().for_sender("test");
        pool.offer(
            lemmas
                .iter()
                .map(|&l| SharedLemma::new(store, p, &xs, l).unwrap())
                .collect(),
        );
        pool.candidates()
    }

    #[test]
    fn houdini_keeps_the_inductive_candidates() {
        let mut store = TermStore::new();
        let ctl = Control::default();
        let q = parse_queries(SRC, &mut store, &ctl).unwrap().remove(0);
        let cands = offered(&mut store, &q.system);
        assert_eq!(cands.len(), 4);
        let (strong, map) = strengthen(&mut store, &q.system, &cands, &ctl).unwrap();
        // x <= 5 fails on the loop clause; the other three are inductive together.
        assert_eq!(map.size(), 3);
        assert_eq!(strong.clauses.len(), q.system.clauses.len());
        // Only the non-inductive candidate: nothing survives, no strengthening.
        let last = &cands[3..];
        assert!(strengthen(&mut store, &q.system, last, &ctl).is_none());
    }

    #[test]
    fn a_late_engine_answers_for_the_input_system() {
        let mut store = TermStore::new();
        let ctl = Control::default().with_timeout(std::time::Duration::from_secs(20));
        let q = parse_queries(SRC, &mut store, &ctl).unwrap().remove(0);
        let cands = offered(&mut store, &q.system);
        let spec = EngineSpec::single(KindConfig::default());
        let cfg = SolveConfig {
            preprocess: false,
            ..SolveConfig::default()
        };
        let r = run_strengthened(&mut store, &q.system, &cands, &spec, &cfg, &ctl);
        assert!(
            matches!(r.answer, ChcResult::Sat(_)),
            "{:?}",
            r.answer.verdict()
        );
        assert_eq!(r.validation, Validation::Valid);
        assert_eq!(r.engine, "kind+shared");
    }
}
