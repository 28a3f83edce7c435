//! Fuzzing of the whole solving path (stable Rust, no cargo-fuzz): reader, preprocessing,
//! engines, back-translation and certificate checker.
//!
//! - `random_systems_are_answered_consistently`: random small linear CHC systems (as SMT-LIB
//!   text, so the reader is exercised too) are solved with Spacer behind the preprocessing
//!   and with BMC on the raw system. Every `sat`/`unsat` must carry a certificate the checker
//!   accepts, and the two engines must never contradict each other.
//! - `mutated_corpus_never_panics`: byte-level and token-level mutations of the regression
//!   corpus and the bundled examples; whatever parses is solved under a short limit; no
//!   panic, and every answer is certified.
//!
//! Both run for `COVE_FUZZ_SECS` seconds (a few by default; set it for a long campaign).
//! `COVE_FUZZ_SEED` picks the seed.

use cove_chc::cert::{check_derivation, check_invariants};
use cove_chc::engines::bmc::{Bmc, BmcConfig};
use cove_chc::engines::spacer::Spacer;
use cove_chc::frontend::parse_chc;
use cove_chc::preprocess::{PreprocessConfig, solve_preprocessed};
use cove_chc::{ChcResult, ChcSystem, Control, Engine};
use cove_logic::TermStore;
use cove_testkit::Rng;
use cove_testkit::fuzz::{delete_run, duplicate_run, fuzz_secs, insert_token, overwrite_byte};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::time::{Duration, Instant};

mod common;

fn seed() -> u64 {
    std::env::var("COVE_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed)
}

/// A random linear term over `vs`: `k + Σ c·v` for a random subset.
fn term(rng: &mut Rng, vs: &[String]) -> String {
    let mut parts = Vec::new();
    for v in vs {
        if rng.flip() {
            let c = [-2i64, -1, 1, 1, 2][rng.below(5)];
            parts.push(match c {
                1 => v.clone(),
                c if c > 0 => format!("(* {c} {v})"),
                c => format!("(* (- {}) {v})", -c),
            });
        }
    }
    let k = rng.range(-3, 3);
    if k != 0 || parts.is_empty() {
        parts.push(if k >= 0 {
            k.to_string()
        } else {
            format!("(- {})", -k)
        });
    }
    if parts.len() == 1 {
        parts.pop().unwrap()
    } else {
        format!("(+ {})", parts.join(" "))
    }
}

fn atom(rng: &mut Rng, vs: &[String]) -> String {
    let op = ["<=", "<", ">=", ">", "=", "<=", ">="][rng.below(7)];
    let a = format!("({op} {} {})", term(rng, vs), term(rng, vs));
    if rng.chance(1, 10) {
        format!("(not {a})")
    } else {
        a
    }
}

/// A random system of 1-3 predicates (arity 1-2) and 2-6 clauses, at least one fact and
/// one query.
pub fn random_system(rng: &mut Rng) -> String {
    let npreds = 1 + rng.below(3);
    let preds: Vec<(String, usize)> = (0..npreds)
        .map(|i| (format!("P{i}"), 1 + rng.below(2)))
        .collect();
    let mut s = String::from("(set-logic HORN)\n");
    for (p, ar) in &preds {
        s.push_str(&format!(
            "(declare-fun {p} ({}) Bool)\n",
            vec!["Int"; *ar].join(" ")
        ));
    }
    let n = 2 + rng.below(5);
    for k in 0..n {
        let kind = match k {
            0 => 0,
            1 => 3,
            _ => [0, 1, 1, 1, 2, 3][rng.below(6)],
        };
        let vs: Vec<String> = (0..1 + rng.below(4)).map(|i| format!("x{i}")).collect();
        let mut prem = Vec::new();
        for _ in 0..[0, 1, 2, 1][kind] {
            let (p, ar) = &preds[rng.below(npreds)];
            let args: Vec<String> = (0..*ar).map(|_| vs[rng.below(vs.len())].clone()).collect();
            prem.push(format!("({p} {})", args.join(" ")));
        }
        let lo = if prem.is_empty() { 1 } else { 0 };
        for _ in 0..lo + rng.below(4 - lo) {
            prem.push(atom(rng, &vs));
        }
        let head = if kind == 3 {
            "false".to_string()
        } else {
            let (p, ar) = &preds[rng.below(npreds)];
            let args: Vec<String> = (0..*ar)
                .map(|_| {
                    if rng.chance(7, 10) {
                        vs[rng.below(vs.len())].clone()
                    } else {
                        term(rng, &vs)
                    }
                })
                .collect();
            format!("({p} {})", args.join(" "))
        };
        let lhs = match prem.len() {
            0 => "true".to_string(),
            1 => prem.pop().unwrap(),
            _ => format!("(and {})", prem.join(" ")),
        };
        let decl: Vec<String> = vs.iter().map(|v| format!("({v} Int)")).collect();
        s.push_str(&format!(
            "(assert (forall ({}) (=> {lhs} {head})))\n",
            decl.join(" ")
        ));
    }
    s.push_str("(check-sat)\n");
    s
}

/// `Some(true)` for a certified sat, `Some(false)` for a certified unsat; panics on a
/// certificate the checker rejects.
fn certified(
    store: &mut TermStore,
    sys: &ChcSystem,
    r: &ChcResult,
    what: &str,
    src: &str,
) -> Option<bool> {
    let ctl = Control::new().with_timeout(Duration::from_secs(10));
    match r {
        ChcResult::Sat(inv) => match check_invariants(store, sys, inv, &ctl) {
            Ok(()) => Some(true),
            Err(e) if e.is_invalid() => panic!("{what}: invalid invariants ({e}) for\n{src}"),
            Err(_) => None,
        },
        ChcResult::Unsat(d) => match check_derivation(store, sys, d) {
            Ok(()) => Some(false),
            Err(e) => panic!("{what}: invalid derivation ({e}) for\n{src}"),
        },
        ChcResult::Unknown(_) => None,
    }
}

/// The limits of one engine run on `work` units of work ([`Control::with_work_budget`]: SAT
/// conflicts, decisions and calls), so whether a system is answered does not depend on how
/// loaded the machine is; the wall-clock cap only guards against a run that stops charging.
fn budget(work: u64) -> Control {
    Control::new()
        .with_work_budget(work)
        .with_timeout(Duration::from_secs(60))
}

/// Solves `src` with Spacer (preprocessed) and BMC (raw), each on `work` units of work;
/// checks certificates and agreement. Returns the agreed answer, if any.
fn solve_both(src: &str, work: u64) -> Option<bool> {
    let mut store = TermStore::new();
    let sys = parse_chc(src.as_bytes(), &mut store).ok()?;
    let ctl = budget(work);
    let opts = PreprocessConfig::default();
    let r1 = solve_preprocessed(&mut store, &sys, &opts, &mut Spacer::default(), &ctl);
    let a1 = certified(&mut store, &sys, &r1, "spacer", src);
    let ctl = budget(work);
    let r2 = Bmc::new(BmcConfig {
        max_depth: Some(12),
    })
    .solve(&mut store, &sys, &ctl);
    let a2 = certified(&mut store, &sys, &r2, "bmc", src);
    if let (Some(x), Some(y)) = (a1, a2) {
        assert_eq!(x, y, "spacer and bmc disagree on\n{src}");
    }
    a1.or(a2)
}

/// Work per engine run on a random system: enough that most are answered (measured: see the
/// test's output line), small enough that a run takes well under a second.
const ANSWER_WORK: u64 = 2_000_000;
/// Work per engine run on a mutated file: the point is not to crash, not to answer.
const MUTANT_WORK: u64 = 20_000;

#[test]
fn random_systems_are_answered_consistently() {
    let mut rng = Rng::new(seed());
    let start = Instant::now();
    let secs = fuzz_secs(4.0);
    let (mut n, mut answered) = (0, 0);
    while start.elapsed().as_secs_f64() < secs {
        let src = random_system(&mut rng);
        answered += usize::from(solve_both(&src, ANSWER_WORK).is_some());
        n += 1;
    }
    eprintln!("random systems: {n} tried, {answered} answered");
    assert!(n > 0 && answered * 2 >= n, "{answered} of {n} answered");
}

const TOKENS: &[&str] = &[
    "(",
    ")",
    " x",
    " 0",
    " -1",
    " (- 1)",
    " 99999999999999999999",
    " (+ x 1)",
    " true",
    " false",
    " (and",
    " (or",
    " (not",
    " (=>",
    " (ite",
    " (let ((y 1))",
    " (forall ((z Int))",
    " (exists ((z Int))",
    " Int",
    " Real",
    " Bool",
    " (P x)",
    " (declare-fun Q (Int) Bool)",
    " (check-sat)",
    " (assert",
    " :named",
    " |a b|",
    " 1.5",
    " (/ 1 3)",
    " (div x 0)",
    " (mod x 2)",
    " (* x x)",
    " (to_real x)",
    " (distinct x 1)",
];

#[test]
fn mutated_corpus_never_panics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut seeds: Vec<Vec<u8>> = common::corpus_files()
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .filter(|b| b.len() < 4000)
        .collect();
    for e in std::fs::read_dir(root.join("examples")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "smt2") {
            seeds.push(std::fs::read(&p).unwrap());
        }
    }
    assert!(!seeds.is_empty());
    let mut rng = Rng::new(seed() ^ 0xfeed);
    let start = Instant::now();
    let secs = fuzz_secs(4.0);
    let (mut n, mut parsed) = (0, 0);
    while start.elapsed().as_secs_f64() < secs {
        let mut v = seeds[rng.below(seeds.len())].clone();
        for _ in 0..1 + rng.below(4) {
            match rng.below(5) {
                0 if !v.is_empty() => overwrite_byte(&mut rng, &mut v),
                1 => delete_run(&mut rng, &mut v, 8),
                2 => duplicate_run(&mut rng, &mut v, 40),
                _ => insert_token(&mut rng, &mut v, TOKENS),
            }
        }
        let src = String::from_utf8_lossy(&v).into_owned();
        let ok = catch_unwind(AssertUnwindSafe(|| {
            let mut store = TermStore::new();
            if parse_chc(src.as_bytes(), &mut store).is_ok() {
                solve_both(&src, MUTANT_WORK);
                true
            } else {
                false
            }
        }));
        match ok {
            Ok(p) => parsed += usize::from(p),
            Err(_) => panic!("panic on input:\n{src}"),
        }
        n += 1;
    }
    eprintln!("mutations: {n} tried, {parsed} parsed");
}

#[test]
fn fuzz_regressions() {
    // Inputs found by the fuzzers above, kept as regressions (see RELIABILITY.md).
    for src in REGRESSIONS {
        solve_both(src, ANSWER_WORK);
    }
}

const REGRESSIONS: &[&str] = &[];
