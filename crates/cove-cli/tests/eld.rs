//! The Solidity compiler's calling convention for Eldarica, replayed on its own Horn queries
//! (`tests/solidity/`, saved from solc 0.8.37's SMTChecker): the binary invoked as `eld`
//! with `-hsmt -in -t:N -ssol` and the query on standard input answers on the first line,
//! prints invariants in the shape solc parses, and those invariants pass Cove's own
//! certificate check against the query (`cove check`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn cove() -> &'static str {
    env!("CARGO_BIN_EXE_cove")
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("cove-eld-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `cove` under the name `eld`, as solc finds it on `PATH`: a link of its own per call (tests
/// run in parallel, and one that replaced a shared link left another's spawn without it).
fn eld_binary() -> PathBuf {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = scratch(&format!("bin{n}"));
    let eld = dir.join("eld");
    let _ = std::fs::remove_file(&eld);
    std::os::unix::fs::symlink(cove(), &eld).unwrap();
    eld
}

fn run_with_stdin(cmd: &mut Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// The solc queries small enough to replay here, with their expected answers.
fn queries() -> Vec<(PathBuf, &'static str)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/solidity");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        if text.len() > 100_000 {
            continue;
        }
        let want = if text.starts_with("; expect: sat") {
            "sat"
        } else if text.starts_with("; expect: unsat") {
            "unsat"
        } else {
            panic!("{}: no expect line", p.display())
        };
        out.push((p, want));
    }
    out.sort();
    assert!(out.len() >= 6, "the replayed queries have shrunk");
    out
}

/// The top-level s-expressions of `text` (strings and quoted symbols respected).
fn sexps(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut bar) = (0usize, 0usize, false);
    for (i, c) in text.char_indices() {
        match c {
            '|' => bar = !bar,
            '(' if !bar => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            ')' if !bar => {
                depth -= 1;
                if depth == 0 {
                    out.push(text[start..=i].to_string());
                }
            }
            _ => {}
        }
    }
    assert_eq!(depth, 0, "unbalanced output: {text}");
    out
}

#[test]
fn solc_queries_answered_in_eldaricas_convention_with_checked_invariants() {
    let eld = eld_binary();
    let work = scratch("inv");
    let mut sat = 0;
    for (q, want) in queries() {
        let src = std::fs::read(&q).unwrap();
        let out = run_with_stdin(
            Command::new(&eld).args(["-hsmt", "-in", "-t:120", "-ssol"]),
            &src,
        );
        assert_eq!(out.status.code(), Some(0), "{}", q.display());
        let text = String::from_utf8(out.stdout).unwrap();
        let first = text.lines().next().unwrap_or_default();
        assert_eq!(first, want, "{}: {text}", q.display());
        if want != "sat" {
            assert_eq!(text.trim(), "unsat", "{}", q.display());
            continue;
        }
        sat += 1;
        // solc's parser (CHCSmtLib2Interface::invariantsFromSolverResponse) wants, after
        // `sat`, only `(define-fun NAME (ARGS) Bool BODY)` commands, and reads numerals and
        // bit-vector constants only as digits, `#x…` or `#b…`.
        let body = &text[first.len()..];
        let defs = sexps(body);
        assert!(!defs.is_empty(), "{}: no invariants", q.display());
        for d in &defs {
            assert!(d.starts_with("(define-fun "), "{}: {d}", q.display());
            assert!(!d.contains("(_ bv"), "{}: {d}", q.display());
        }
        // Round trip: the printed invariants are a certificate of the query for Cove's own
        // checker.
        let w = work.join(q.file_name().unwrap());
        std::fs::write(&w, &text).unwrap();
        let chk = Command::new(cove())
            .arg("check")
            .arg(&q)
            .arg("--witness")
            .arg(&w)
            .output()
            .unwrap();
        let verdict = String::from_utf8_lossy(&chk.stdout);
        assert_eq!(
            verdict.trim(),
            "valid",
            "{}: {}",
            q.display(),
            String::from_utf8_lossy(&chk.stderr)
        );
    }
    assert!(sat >= 4);
}

#[test]
fn older_solc_passes_a_query_file_and_the_subcommand_behaves_the_same() {
    let (q, want) = queries().remove(0);
    let out = Command::new(eld_binary())
        .arg("-t:120")
        .arg(&q)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), want);
    let src = std::fs::read(&q).unwrap();
    let out = run_with_stdin(
        Command::new(cove()).args(["eld", "-hsmt", "-in", "-t:120"]),
        &src,
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), want);
}

#[test]
fn eldarica_options_solc_never_passes_are_refused() {
    let out = Command::new(eld_binary())
        .args(["-hsmt", "-in", "-cex"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unsupported Eldarica option '-cex'"), "{err}");
    let out = Command::new(cove()).args(["eld", "-h"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("-ssol"));
}
