//! Horn queries of the Solidity compiler's SMTChecker (`tests/solidity/`, saved from solc
//! 0.8.37 on its own tests): integer operators encoded through `int2bv`/`bv2nat`, shifts by
//! constants and variables, signed casts, fixed-size byte indexing, function summaries called
//! at constants, checked multiplication of `uint256` that can overflow, a mapping over a
//! Boolean user type, nested arrays written at constant positions by a constructor, and
//! contract state whose safety needs a statement about every cell of an array or mapping
//! (`∀i < arr.length. arr[i] = 42`: the cell abstraction). Each is decided through the
//! whole pipeline (datatype flattening, preprocessing with inlining, Spacer,
//! back-translation) and its certificate is validated against the input by the driver.
//!
//! The runs are bounded by work units (conflicts, decisions, theory checks), not by time, so
//! a loaded machine gives the same answers; the deadline only guards a run that stops charging
//! work.

use cove_chc::driver::{EngineChoice, SolveConfig, Validation, solve};
use cove_chc::engines::spacer::SpacerConfig;
use cove_chc::frontend::parse_queries;
use cove_chc::{ChcResult, Control};
use cove_logic::TermStore;
use std::path::PathBuf;
use std::time::Duration;

mod common;

fn files() -> Vec<PathBuf> {
    let files = common::smt2_files("solidity");
    assert!(files.len() >= 8, "the Solidity queries have shrunk");
    files
}

#[test]
fn solc_operator_queries_are_decided_with_valid_certificates() {
    for file in files() {
        let src = std::fs::read(&file).unwrap();
        let text = String::from_utf8_lossy(&src);
        // Spacer, or the engine a `; engine:` line names (the portfolio's entry that
        // decides the query: the cell abstraction for invariants over every array cell).
        let engine = match text.lines().find_map(|l| l.strip_prefix("; engine: ")) {
            Some(name) => EngineChoice::parse(name.trim())
                .unwrap_or_else(|| panic!("{}: unknown engine {name}", file.display())),
            None => EngineChoice::One(SpacerConfig::default().into()),
        };
        let cfg = SolveConfig {
            engine,
            threads: 1,
            ..SolveConfig::default()
        };
        let want = if text.contains("; expect: sat") {
            "sat"
        } else if text.contains("; expect: unsat") {
            "unsat"
        } else {
            panic!("{}: no '; expect:' line", file.display())
        };
        let mut store = TermStore::new();
        let q = parse_queries(&src, &mut store, &Control::default())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
            .remove(0);
        let ctl = Control::default()
            .with_work_budget(5_000_000)
            .with_timeout(Duration::from_secs(300));
        let out = solve(&store, &q, &cfg, &ctl);
        let got = match &out.answer {
            ChcResult::Sat(_) => "sat",
            ChcResult::Unsat(_) => "unsat",
            ChcResult::Unknown(why) => panic!("{}: unknown ({why:?})", file.display()),
        };
        assert_eq!(got, want, "{}", file.display());
        assert_eq!(out.validation, Validation::Valid, "{}", file.display());
    }
}
