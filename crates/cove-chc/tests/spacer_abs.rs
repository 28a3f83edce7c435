//! Spacer with abstraction refinement (`engines::spacer_abs`): the thesis's Ch. 3 examples in our
//! own encoding, CEGAR and PBA at work, the corpus (linear and nonlinear) with every
//! certificate checked, and the three variants never answering wrongly.

use cove_chc::cert::{check_derivation, check_invariants};
use cove_chc::engines::spacer_abs::{SpacerAbs, SpacerAbsConfig, Variant};
use cove_chc::frontend::parse_chc;
use cove_chc::{ChcResult, Control, Engine};
use cove_logic::TermStore;
use std::path::Path;
use std::time::{Duration, Instant};

mod common;

fn solve(engine: &mut SpacerAbs, file: &Path, work: u64) -> (&'static str, &'static str) {
    let src = std::fs::read(file).unwrap();
    let text = String::from_utf8_lossy(&src);
    let want = if text.contains("; expect: sat") {
        "sat"
    } else {
        "unsat"
    };
    let mut store = TermStore::new();
    let sys = parse_chc(&src, &mut store).unwrap();
    let ctl = common::work_control(work);
    let result = engine.solve(&mut store, &sys, &ctl);
    common::report_work(&ctl, work, &file.display().to_string(), result.verdict());
    let limits = Control {
        deadline: Some(Instant::now() + Duration::from_secs(300)),
        ..Default::default()
    };
    match &result {
        ChcResult::Sat(inv) => check_invariants(&mut store, &sys, inv, &limits)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display())),
        ChcResult::Unsat(d) => {
            check_derivation(&store, &sys, d).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
        }
        ChcResult::Unknown(_) => {}
    }
    (result.verdict(), want)
}

fn stat(engine: &SpacerAbs, key: &str) -> usize {
    engine
        .stats()
        .iter()
        .find(|(k, _)| k == key)
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or_else(|| panic!("no statistic {key}"))
}

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

#[test]
fn fig33_is_proved_after_two_refinements_without_the_dead_branch_update() {
    let mut e = SpacerAbs::default();
    let (got, _) = solve(&mut e, &data("abs-fig33.smt2"), 20_000);
    assert_eq!(got, "sat");
    assert!(stat(&e, "abs-refinements") >= 2, "{:?}", e.stats());
    // PBA drops the update of the third branch (`y1 = -y`): the invariants found by
    // EXTRACTINVS (z = 10w among them) make that branch dead, so no proof step needs it.
    let flip = e
        .abstraction()
        .iter()
        .find(|(_, leaf, _)| leaf == "(= y1 (- 0 y))")
        .unwrap_or_else(|| panic!("{:?}", e.abstraction()));
    assert!(!flip.2, "{:?}", e.abstraction());
    // The abstraction is strictly coarser than the input.
    assert!(e.abstraction().iter().filter(|l| !l.2).count() >= 3);
}

#[test]
fn gcnr_of_the_corpus_is_proved() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
    let mut e = SpacerAbs::default();
    let (got, _) = solve(&mut e, &root.join("thesis-gcnr-safe.smt2"), 20_000);
    assert_eq!(got, "sat");
}

#[test]
fn cegar_refines_until_the_real_counterexample_shows() {
    let mut e = SpacerAbs::new(SpacerAbsConfig {
        variant: Variant::CegarOnly,
        ..Default::default()
    });
    let (got, want) = solve(&mut e, &data("abs-twostage-unsafe.smt2"), 20_000);
    assert_eq!(got, want);
    assert!(stat(&e, "abs-refinements") >= 2, "{:?}", e.stats());
}

#[test]
fn corpus_answers_are_right_for_every_variant() {
    let variants = [
        Variant::PbaCegar,
        Variant::ConcretizeOnSpurious,
        Variant::CegarOnly,
    ];
    let mut files = common::corpus_files();
    files.push(data("abs-fig33.smt2"));
    files.push(data("abs-twostage-unsafe.smt2"));
    for file in files {
        // Deep counterexamples need many bounds; one restart per bound is slow there.
        let deep = ["deep", "fib-unsafe"]
            .iter()
            .any(|k| file.to_string_lossy().contains(k));
        // The swing example needs the bounds preprocessing adds (`preprocess::bounds`).
        let hard = deep || file.to_string_lossy().contains("swing");
        for v in variants {
            let mut e = SpacerAbs::new(SpacerAbsConfig {
                variant: v,
                ..Default::default()
            });
            let (got, want) = solve(&mut e, &file, if deep { 4_000 } else { 10_000 });
            assert!(
                got == want || (got == "unknown" && hard),
                "{} with {v:?}: {got}",
                file.display()
            );
        }
    }
}

#[test]
fn reuse_carries_the_bounded_proof_to_the_next_bound() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
    for (file, v) in [
        (root.join("thesis-gcnr-safe.smt2"), Variant::PbaCegar),
        (data("abs-fig33.smt2"), Variant::PbaCegar),
        (data("abs-twostage-unsafe.smt2"), Variant::CegarOnly),
    ] {
        let mut e = SpacerAbs::new(SpacerAbsConfig {
            variant: v,
            reuse: true,
            ..Default::default()
        });
        let (got, want) = solve(&mut e, &file, 20_000);
        assert_eq!(got, want, "{}", file.display());
        if stat(&e, "abs-bound") > 1 {
            assert!(stat(&e, "abs-reused-lemmas") > 0, "{:?}", e.stats());
        }
    }
}
