//! Large inputs must be handled in (near) linear time: a chain of 20,000 predicates
//! (`P0(x) <- x = 0`, `P{i+1}(x) <- P{i}(x)`, a query on the last) is answered in a couple of
//! seconds. Before the preprocessing was made incremental (reachability by worklists,
//! inlining with maintained use counts, no whole-system copy per inlined predicate) a
//! 1,000-predicate chain took 96 s and 20,000 did not finish.

use std::process::Command;
use std::time::{Duration, Instant};

fn chain(n: usize, unsat: bool) -> String {
    let mut s = String::from("(set-logic HORN)\n");
    for i in 0..=n {
        s.push_str(&format!("(declare-fun P{i} (Int) Bool)\n"));
    }
    s.push_str("(assert (forall ((x Int)) (=> (= x 0) (P0 x))))\n");
    for i in 0..n {
        s.push_str(&format!(
            "(assert (forall ((x Int)) (=> (P{i} x) (P{} x))))\n",
            i + 1
        ));
    }
    let q = if unsat { "(> x (- 1))" } else { "(< x 0)" };
    s.push_str(&format!(
        "(assert (forall ((x Int)) (=> (and (P{n} x) {q}) false)))\n(check-sat)\n"
    ));
    s
}

fn run(name: &str, text: &str) -> (String, Duration) {
    run_with(name, text, &[]).0
}

fn run_with(name: &str, text: &str, extra: &[&str]) -> ((String, Duration), Option<i32>) {
    let p = std::env::temp_dir().join(format!("cove-scale-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_cove"))
        .args(["solve", p.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    let el = t.elapsed();
    let _ = std::fs::remove_file(&p);
    (
        (String::from_utf8_lossy(&out.stdout).into_owned(), el),
        out.status.code(),
    )
}

#[test]
fn memory_and_time_limits_give_unknown_not_a_crash() {
    // 20 MiB cannot hold the chain's terms: the allocator's emergency exit or the engines'
    // polling must end it with `unknown` and exit 0.
    let ((out, _), code) = run_with("mem", &chain(20_000, false), &["--memory-mb", "20"]);
    assert_eq!(out, "unknown\n");
    assert_eq!(code, Some(0));
    // A deadline that falls inside reading (1 ms: reading the 20k chain takes longer) holds.
    let ((out, t), code) = run_with("time", &chain(20_000, false), &["--timeout", "0.001"]);
    assert_eq!((out.as_str(), code), ("unknown\n", Some(0)));
    assert!(t < Duration::from_secs(5), "{t:?}");
}

#[test]
fn long_chain_sat() {
    let (out, t) = run("sat", &chain(20_000, false));
    assert!(out.starts_with("sat\n"), "{out}");
    // About 2.5 s on a loaded two-core machine; quadratic behaviour takes minutes.
    assert!(t < Duration::from_secs(30), "{t:?}");
}

#[test]
fn long_chain_unsat() {
    let (out, t) = run("unsat", &chain(20_000, true));
    assert!(out.starts_with("unsat\n"), "{out}");
    assert!(t < Duration::from_secs(30), "{t:?}");
}
