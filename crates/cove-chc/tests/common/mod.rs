//! Helpers shared by several integration tests of `cove-chc`: the list of regression-corpus
//! files and the representation invariants every accepted `ChcSystem` must satisfy (so the
//! fuzzer and the exact front-end tests check the same thing).
// Each test binary compiles this module and uses only part of it.
#![allow(dead_code)]

use cove_chc::ChcSystem;
use cove_logic::subst::free_vars_in_order as free_vars;
use cove_logic::{Op, TermStore};
use std::path::{Path, PathBuf};

/// The `.smt2` files of the workspace's `tests/corpus/`, sorted by path.
pub fn corpus_files() -> Vec<PathBuf> {
    smt2_files("corpus")
}

/// The `.smt2` files of the workspace's `tests/DIR/`, sorted by path.
pub fn smt2_files(dir: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests")
        .join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "smt2"))
        .collect();
    files.sort();
    files
}

/// Asserts the representation invariants of `ChcSystem`: no predicate application inside a
/// constraint, every atom's predicate declared, every free variable of a clause listed in
/// its `vars`.
pub fn check_representation(sys: &ChcSystem, store: &TermStore) {
    for c in &sys.clauses {
        let mut stack = vec![c.constraint];
        while let Some(t) = stack.pop() {
            assert!(
                !matches!(store.op(t), Op::App(_)),
                "predicate in a constraint"
            );
            stack.extend_from_slice(store.args(t));
        }
        let mut terms = vec![c.constraint];
        for a in c.body.iter().chain(&c.head) {
            assert!(sys.preds.contains(&a.pred));
            terms.extend(&a.args);
        }
        for v in free_vars(store, &terms) {
            assert!(
                c.vars.contains(&v),
                "free variable {} not listed",
                store.var_name(v)
            );
        }
    }
}

/// The limits of an engine run in a test that must decide something: `units` of work (SAT
/// conflicts, decisions and theory checks: [`cove_chc::Control::with_work_budget`]), so the
/// outcome is the same on a loaded machine as on an idle one, and a wall-clock guard far beyond
/// what the budget takes, only against a run that stops charging work.
pub fn work_control(units: u64) -> cove_chc::Control {
    cove_chc::Control::new()
        .with_work_budget(units)
        .with_timeout(std::time::Duration::from_secs(600))
}

/// With `COVE_TEST_WORK` set in the environment, prints how many of its `units` a run under
/// `ctl` used and its verdict: how the budgets of these tests were chosen (a few times the
/// largest use among the runs that must decide).
pub fn report_work(ctl: &cove_chc::Control, units: u64, what: &str, verdict: &str) {
    if std::env::var_os("COVE_TEST_WORK").is_some() {
        let left = ctl.work.as_ref().map_or(units, |w| w.remaining());
        eprintln!("work: {what}: {verdict} after {} units", units - left);
    }
}
