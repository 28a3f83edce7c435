//! Measures the effect of preprocessing on Spacer.
//!
//! `preprocess_bench [MANIFEST|FILE.smt2] [N] [SECS] [SKIP]`: for `N` (default 60) entries,
//! after the first `SKIP` (default 0), of a benchmark manifest (`track<TAB>path<TAB>expected`, paths relative to the manifest's
//! directory), or for one file, runs Spacer with and without preprocessing at `SECS` seconds
//! (default 5) each, validates every answer against the original system with the independent
//! checker, and prints sizes before/after preprocessing and the solved counts.

use cove_chc::cert::{check_derivation, check_invariants};
use cove_chc::engines::spacer::Spacer;
use cove_chc::frontend::parse_chc;
use cove_chc::preprocess::{BackTranslate, PreprocessConfig, SystemSize, preprocess};
use cove_chc::{ChcResult, ChcSystem, Control, Engine};
use cove_logic::TermStore;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Runs one configuration; returns (verdict, valid, seconds).
fn run(
    src: &[u8],
    pre: bool,
    secs: u64,
) -> (&'static str, bool, f64, Option<(SystemSize, SystemSize)>) {
    let mut store = TermStore::new();
    let Ok(sys) = parse_chc(src, &mut store) else {
        return ("parse-error", true, 0.0, None);
    };
    let start = Instant::now();
    let ctl = Control {
        deadline: Some(start + Duration::from_secs(secs)),
        ..Default::default()
    };
    let (r, sizes) = if pre {
        let (small, pipe) = preprocess(&mut store, &sys, &PreprocessConfig::default(), &ctl);
        let sizes = (SystemSize::of(&store, &sys), SystemSize::of(&store, &small));
        if std::env::var_os("PREP_DUMP").is_some() {
            eprintln!("{}", small.to_smtlib(&store));
        }
        let r = Spacer::default().solve(&mut store, &small, &ctl);
        let back = pipe.result(&mut store, r, &ctl);
        if let ChcResult::Unknown(why) = &back {
            eprintln!("  with preprocessing: unknown ({why})");
        }
        (back, Some(sizes))
    } else {
        (Spacer::default().solve(&mut store, &sys, &ctl), None)
    };
    let t = start.elapsed().as_secs_f64();
    (r.verdict(), validate(&mut store, &sys, &r), t, sizes)
}

fn validate(store: &mut TermStore, sys: &ChcSystem, r: &ChcResult) -> bool {
    let limits = cove_control::Control {
        deadline: Some(Instant::now() + Duration::from_secs(60)),
        ..Default::default()
    };
    match r {
        ChcResult::Sat(inv) => check_invariants(store, sys, inv, &limits)
            .map_err(|e| eprintln!("  INVALID: {e}"))
            .is_ok(),
        ChcResult::Unsat(d) => check_derivation(store, sys, d)
            .map_err(|e| eprintln!("  INVALID: {e}"))
            .is_ok(),
        ChcResult::Unknown(_) => true,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let target = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| "/work/shared/bench/chc.tsv".into());
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(60);
    let secs: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    let skip: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(0);
    let entries: Vec<(PathBuf, String)> = if target.ends_with(".smt2") {
        vec![(PathBuf::from(&target), String::new())]
    } else {
        let text = std::fs::read_to_string(&target).expect("manifest");
        let dir = Path::new(&target).parent().unwrap().to_path_buf();
        text.lines()
            .skip(skip)
            .take(n)
            .map(|l| {
                let c: Vec<&str> = l.split('\t').collect();
                (dir.join(c[1]), c.get(2).unwrap_or(&"").to_string())
            })
            .collect()
    };
    let (mut solved, mut invalid, mut wrong) = ([0usize; 2], [0usize; 2], [0usize; 2]);
    let (mut before, mut after) = ([0usize; 3], [0usize; 3]);
    for (path, want) in &entries {
        let src = std::fs::read(path).expect("instance");
        let mut line = format!("{}", path.file_name().unwrap().to_string_lossy());
        for (k, pre) in [false, true].into_iter().enumerate() {
            let (v, ok, t, sizes) = run(&src, pre, secs);
            if v == "sat" || v == "unsat" {
                solved[k] += 1;
                if !want.is_empty() && v != want {
                    wrong[k] += 1;
                }
            }
            if !ok {
                invalid[k] += 1;
            }
            line += &format!(
                "\t{}{v}{} {t:.2}s",
                if pre { "pre:" } else { "" },
                if ok { "" } else { "!INVALID" }
            );
            if let Some((b, a)) = sizes {
                for (acc, s) in [(&mut before, b), (&mut after, a)] {
                    acc[0] += s.clauses;
                    acc[1] += s.preds;
                    acc[2] += s.args;
                }
                line += &format!(
                    "\t[{}c {}p {}a -> {}c {}p {}a]",
                    b.clauses, b.preds, b.args, a.clauses, a.preds, a.args
                );
            }
        }
        println!("{line}");
    }
    println!("instances: {}  limit: {secs}s", entries.len());
    println!("size (clauses/preds/args): before {before:?} after {after:?}");
    println!(
        "without preprocessing: solved {} invalid {} wrong {}",
        solved[0], invalid[0], wrong[0]
    );
    println!(
        "with preprocessing:    solved {} invalid {} wrong {}",
        solved[1], invalid[1], wrong[1]
    );
}
