//! Counterexamples of a nonlinear system from its *linear fragment*: BMC on the
//! transition-system view of the clauses with at most one body atom.
//!
//! Dropping clauses under-approximates the derivable facts, so a derivation of `false` from
//! the fragment is a derivation from the whole system (its clause indices are mapped back);
//! a safe fragment says nothing, and this engine never answers `sat`.
//!
//! Why: thread-modular encodings (Ultimate's `Inv` with one argument block per thread, a
//! swap rule and *interference* rules with three `Inv` atoms) usually have their bugs in the
//! product of the explicit thread slots, which the linear rules alone describe. The layered
//! tree unrolling of [`super::bmc`] carries a fact slot per body occurrence and every clause
//! instance per slot, so its layers are three times larger there and it reached depth 18 in
//! 20 s on `05_tas_simplified` (a 20-step bug), while BMC on the fragment's transition system
//! finds the bug in about 2 s (docs/decisions.md#linear-bmc). The transition-system view also
//! folds every rule into one step relation, where the layered encoding keeps one selector
//! per clause, slot and layer.

use crate::engine::{BuildEngine, Control, Engine, Stats};
use crate::engines::kind::{KInduction, KindConfig};
use crate::result::{ChcResult, UnknownReason};
use crate::system::ChcSystem;
use cove_logic::TermStore;

/// Options of the linear-fragment BMC (none yet).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinearBmcConfig {}

impl BuildEngine for LinearBmcConfig {
    const NAME: &'static str = "linear-bmc";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(LinearBmc::default())
    }
}

/// BMC on the linear fragment of a nonlinear system.
#[derive(Default)]
pub struct LinearBmc {
    inner_stats: Stats,
}

/// The clauses of `sys` with at most one body atom, and for each the index it has in `sys`.
/// `None` when the fragment cannot derive `false` syntactically (no fact or no query left),
/// or when `sys` is linear already (then the other engines see the same system).
pub fn linear_fragment(sys: &ChcSystem) -> Option<(ChcSystem, Vec<usize>)> {
    if sys.is_linear() {
        return None;
    }
    let keep: Vec<usize> = (0..sys.clauses.len())
        .filter(|&i| sys.clauses[i].body.len() <= 1)
        .collect();
    let frag = ChcSystem {
        preds: sys.preds.clone(),
        clauses: keep.iter().map(|&i| sys.clauses[i].clone()).collect(),
    };
    let has = |f: fn(&crate::system::Clause) -> bool| frag.clauses.iter().any(f);
    (has(|c| c.is_fact()) && has(|c| c.is_query())).then_some((frag, keep))
}

impl Engine for LinearBmc {
    fn name(&self) -> &'static str {
        LinearBmcConfig::NAME
    }

    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult {
        let Some((frag, index)) = linear_fragment(sys) else {
            return ChcResult::Unknown(UnknownReason::Incomplete(
                "no nonlinear clause to drop, or no fact or query in the linear fragment".into(),
            ));
        };
        // Without a step clause every derivation of the fragment has depth 0: deeper bounds
        // would only unroll an empty step relation until the deadline.
        let steps = frag
            .clauses
            .iter()
            .any(|c| c.body.len() == 1 && c.head.is_some());
        // k-induction's base case alone: induction on the fragment proves nothing here.
        let mut bmc = KInduction::new(KindConfig {
            max_k: if steps { None } else { Some(0) },
            backward: false,
            induction: false,
            balance: false,
            from: None,
        });
        let r = bmc.solve(store, &frag, ctl);
        self.inner_stats = bmc.stats();
        match r {
            ChcResult::Unsat(mut d) => {
                for s in &mut d.steps {
                    s.clause = index[s.clause];
                }
                ChcResult::Unsat(d)
            }
            ChcResult::Sat(_) => ChcResult::Unknown(UnknownReason::Incomplete(
                "the linear fragment is safe".into(),
            )),
            u => u,
        }
    }

    fn stats(&self) -> Stats {
        self.inner_stats.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cert;

    /// A bug that needs only the linear clauses of a system with a nonlinear one: found,
    /// stated over the whole system's clause indices, and accepted by the checker.
    #[test]
    fn finds_a_bug_of_the_linear_fragment() {
        let src = "(set-logic HORN)(declare-fun P (Int Int) Bool)\
            (assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (P x y))))\
            (assert (forall ((x Int) (y Int) (u Int) (v Int)) \
               (=> (and (P x y) (P u v) (> x u)) (P (+ x u) y))))\
            (assert (forall ((x Int) (y Int)) (=> (and (P x y) (< x 12)) (P (+ x 1) (+ y 2)))))\
            (assert (forall ((x Int) (y Int)) (=> (and (P x y) (= y 14)) false)))";
        let mut store = TermStore::new();
        let sys = crate::frontend::parse_chc(src.as_bytes(), &mut store).expect("parses");
        let r = LinearBmc::default().solve(&mut store, &sys, &Control::default());
        let ChcResult::Unsat(d) = r else {
            panic!("expected unsat, got {}", r.verdict())
        };
        // The nonlinear clause (index 1) is never used; the step clause (index 2) is.
        assert!(d.steps.iter().all(|s| s.clause != 1));
        assert!(d.steps.iter().any(|s| s.clause == 2));
        assert!(cert::check_derivation(&store, &sys, &d).is_ok());
    }

    /// A bug that needs the nonlinear clause: the fragment is safe, so `unknown`, never `sat`.
    #[test]
    fn a_safe_fragment_is_unknown() {
        let src = "(set-logic HORN)(declare-fun P (Int) Bool)\
            (assert (forall ((x Int)) (=> (= x 1) (P x))))\
            (assert (forall ((x Int) (y Int)) (=> (and (P x) (P y)) (P (+ x y)))))\
            (assert (forall ((x Int)) (=> (and (P x) (= x 2)) false)))";
        let mut store = TermStore::new();
        let sys = crate::frontend::parse_chc(src.as_bytes(), &mut store).expect("parses");
        // The fragment's BMC never ends by itself: it runs into the deadline.
        let ctl = Control {
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_millis(500)),
            ..Default::default()
        };
        let r = LinearBmc::default().solve(&mut store, &sys, &ctl);
        assert!(matches!(r, ChcResult::Unknown(_)), "got {}", r.verdict());
        // A linear system is left to the linear engines.
        let lin = "(set-logic HORN)(declare-fun P (Int) Bool)\
            (assert (forall ((x Int)) (=> (= x 1) (P x))))\
            (assert (forall ((x Int)) (=> (and (P x) (= x 1)) false)))";
        let sys = crate::frontend::parse_chc(lin.as_bytes(), &mut store).expect("parses");
        assert!(linear_fragment(&sys).is_none());
    }
}
