//! Global guidance (`SpacerConfig::{subsume, concretize, conjecture}`): on a small system
//! made for each rule, the rule fires (Spacer's statistics) and the answer is the expected
//! one with a certificate the independent checker accepts.

use cove_chc::cert::{check_derivation, check_invariants};
use cove_chc::engines::spacer::{Spacer, SpacerConfig};
use cove_chc::frontend::parse_chc;
use cove_chc::{ChcResult, Control, Engine};
use cove_logic::TermStore;

mod common;

/// Solves `tests/data/NAME` with `cfg`; returns the checked verdict and the statistic `stat`.
fn solve(name: &str, cfg: SpacerConfig, stat: &str) -> (&'static str, u64) {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read(&path).unwrap();
    let mut store = TermStore::new();
    let sys = parse_chc(&src, &mut store).unwrap();
    // The largest of these systems takes ≈ 11,200 units.
    let ctl = common::work_control(60_000);
    let mut spacer = Spacer::new(cfg);
    let result = spacer.solve(&mut store, &sys, &ctl);
    common::report_work(&ctl, 60_000, name, result.verdict());
    match &result {
        ChcResult::Sat(inv) => check_invariants(&mut store, &sys, inv, &Control::default())
            .unwrap_or_else(|e| panic!("{name}: invalid invariants: {e}")),
        ChcResult::Unsat(d) => check_derivation(&store, &sys, d)
            .unwrap_or_else(|e| panic!("{name}: invalid derivation: {e}")),
        ChcResult::Unknown(r) => panic!("{name}: unknown ({r:?})"),
    }
    let n = spacer
        .stats()
        .into_iter()
        .find(|(k, _)| k == stat)
        .map_or(0, |(_, v)| v.parse().unwrap());
    (result.verdict(), n)
}

#[test]
fn subsume_projects_a_counting_cluster() {
    let (v, n) = solve("gg-subsume.smt2", SpacerConfig::default(), "global-lemmas");
    assert_eq!(v, "sat");
    assert!(n > 0, "subsume did not fire");
    let off = SpacerConfig {
        subsume: false,
        ..Default::default()
    };
    assert_eq!(solve("gg-subsume.smt2", off, "global-lemmas"), ("sat", 0));
}

#[test]
fn concretize_splits_queries_of_a_coefficient_cluster() {
    let on = SpacerConfig {
        concretize: true,
        ..Default::default()
    };
    for (file, want) in [
        ("gg-concretize.smt2", "sat"),
        ("gg-concretize-unsafe.smt2", "unsat"),
    ] {
        let (v, n) = solve(file, on.clone(), "gg-concretize");
        assert_eq!(v, want, "{file}");
        assert!(n > 0, "{file}: concretize did not fire");
        assert_eq!(
            solve(file, SpacerConfig::default(), "gg-concretize"),
            (want, 0)
        );
    }
}

#[test]
fn conjecture_drops_the_varying_literal() {
    let on = SpacerConfig {
        conjecture: true,
        ..Default::default()
    };
    let (v, n) = solve("gg-conjecture.smt2", on.clone(), "gg-conjectures");
    assert_eq!(v, "sat");
    assert!(n > 0, "conjecture did not fire");
    // The conjectured lemma closes the second phase early: fewer bounds than without.
    let (_, with) = solve("gg-conjecture.smt2", on, "bound");
    let (_, without) = solve("gg-conjecture.smt2", SpacerConfig::default(), "bound");
    assert!(with < without, "bound {with} with, {without} without");
}
