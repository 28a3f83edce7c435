//! Every benchmark of `shared/bench/chc.tsv` and every example of `shared/examples/` parses
//! into a clause system, and printing the system reads back to the same clauses.

use cove_chc::ChcSystem;
use cove_chc::frontend::parse_chc;
use cove_chc::print::system_to_smtlib;
use cove_logic::TermStore;
use std::path::{Path, PathBuf};

/// The `shared/` directory beside the repository (found by walking up from this crate), or
/// `$COVE_SHARED_DIR`.
fn shared_dir() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("COVE_SHARED_DIR") {
        return Some(PathBuf::from(d));
    }
    let mut dir = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
    loop {
        let cand = dir.join("shared");
        if cand.join("bench/chc.tsv").is_file() {
            return Some(cand);
        }
        if !dir.pop() {
            return None;
        }
    }
}

fn corpus() -> Option<Vec<PathBuf>> {
    let Some(shared) = shared_dir() else {
        println!("note: shared/ not found next to the repository; skipping the corpus test");
        return None;
    };
    let manifest = std::fs::read_to_string(shared.join("bench/chc.tsv")).expect("read chc.tsv");
    let mut files: Vec<PathBuf> = manifest
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            shared
                .join("bench")
                .join(l.split('\t').nth(1).expect("path column"))
        })
        .collect();
    let mut examples: Vec<PathBuf> = std::fs::read_dir(shared.join("examples"))
        .expect("read examples")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "smt2"))
        .collect();
    examples.sort();
    files.extend(examples);
    Some(files)
}

fn parse_file(path: &Path) -> (ChcSystem, TermStore) {
    let src = std::fs::read(path).expect("read benchmark");
    let mut store = TermStore::new();
    match parse_chc(&src, &mut store) {
        Ok(sys) => (sys, store),
        Err(e) => panic!("{}:{e}", path.display()),
    }
}

#[test]
fn every_benchmark_and_example_parses() {
    let Some(files) = corpus() else { return };
    assert!(files.len() >= 350, "manifest lists {} files", files.len());
    let start = std::time::Instant::now();
    let (mut clauses, mut bytes) = (0, 0);
    for path in &files {
        let (sys, _) = parse_file(path);
        assert!(!sys.clauses.is_empty(), "{}: no clauses", path.display());
        assert!(
            sys.clauses.iter().any(|c| c.is_query()),
            "{}: no query",
            path.display()
        );
        clauses += sys.clauses.len();
        bytes += std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    }
    println!(
        "parsed {} files ({bytes} bytes, {clauses} clauses) in {:?}",
        files.len(),
        start.elapsed()
    );
}

#[test]
fn benchmarks_round_trip_through_the_printer() {
    let Some(files) = corpus() else { return };
    for path in &files {
        let (sys, store) = parse_file(path);
        let text = system_to_smtlib(&sys, &store);
        let mut store2 = TermStore::new();
        let sys2 = parse_chc(text.as_bytes(), &mut store2)
            .unwrap_or_else(|e| panic!("{}: reprint does not parse: {e}\n{text}", path.display()));
        assert_eq!(sys.preds.len(), sys2.preds.len(), "{}", path.display());
        assert_eq!(sys.clauses.len(), sys2.clauses.len(), "{}", path.display());
        for (a, b) in sys.clauses.iter().zip(&sys2.clauses) {
            assert_eq!(a.body.len(), b.body.len(), "{}", path.display());
            assert_eq!(a.vars.len(), b.vars.len(), "{}", path.display());
            assert_eq!(
                a.head.as_ref().map(|h| &*store.func(h.pred).name),
                b.head.as_ref().map(|h| &*store2.func(h.pred).name)
            );
        }
        // Printing is a fixpoint after one round.
        assert_eq!(text, system_to_smtlib(&sys2, &store2), "{}", path.display());
    }
}
