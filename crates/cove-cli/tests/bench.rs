//! End-to-end tests of `cove bench` with shell stand-ins for both solvers.
//!
//! Each "instance" is a tiny shell script; the Cove side is overridden with the hidden
//! `--cove-cmd 'sh {}'`, so the instance decides what the fake solver does (answer, sleep
//! past the limit, fail). The reference is `echo sat`, which is right on `sat` instances and
//! wrong on `unsat` ones. Only `/bin/sh` and coreutils are needed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let p = std::env::temp_dir().join(format!("cove-bench-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes `files` (path, script) and a manifest of `lines` into `dir`.
fn setup(dir: &Path, files: &[(&str, &str)], manifest: &str) -> PathBuf {
    for (path, script) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, script).unwrap();
    }
    let m = dir.join("manifest.tsv");
    std::fs::write(&m, manifest).unwrap();
    m
}

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cove"))
        .arg("bench")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn compares_both_sides_and_writes_all_outputs() {
    let tmp = TempDir::new("full");
    let files = [
        ("t1/a.smt2", "echo sat\n"),
        ("t1/b.smt2", "echo unknown\n"),
        ("t2/c.smt2", "sleep 10; echo sat\n"),
        ("t2/d.smt2", "echo unsat\n"),
        ("t2/e.smt2", "echo 'parse error' >&2; exit 2\n"),
    ];
    let manifest = "# track\tpath\texpected\n\
                    LIA\tt1/a.smt2\tsat\n\
                    LIA\tt1/b.smt2\tunsat\n\
                    LIA-Lin\tt2/c.smt2\tsat\n\
                    LIA-Lin\tt2/d.smt2\tunsat\n\
                    LIA-Lin\tt2/e.smt2\tsat\n";
    let m = setup(&tmp.0, &files, manifest);
    let out = tmp.0.join("out");
    let o = bench(&[
        m.to_str().unwrap(),
        "--timeout",
        "2",
        "--grace",
        "0.2",
        "--jobs",
        "2",
        "--memory-mb",
        "512",
        "--cove-cmd",
        "sh {}",
        "--vs",
        "echo sat",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        o.status.code(),
        Some(0),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );

    // Table: Cove solves a and d; echo solves a, c, e and is wrong on b and d.
    assert!(stdout.contains("== LIA (2 instances"), "{stdout}");
    assert!(stdout.contains("== all (5 instances"), "{stdout}");
    assert!(
        stdout.contains("echo WRONG on 1 instance(s):\n  t1/b.smt2"),
        "{stdout}"
    );
    assert!(
        stdout.contains("solved by echo but not by cove (2):\n  t2/c.smt2\n  t2/e.smt2"),
        "{stdout}"
    );

    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[0][..4], ["track", "path", "expected", "cove_answer"]);
    let row = |p: &str| rows.iter().find(|r| r[1] == p).unwrap().clone();
    // columns: 3 cove_answer, 4 cove_verdict, 9 ref_answer, 10 ref_verdict
    assert_eq!(
        (row("t1/a.smt2")[3], row("t1/a.smt2")[4]),
        ("sat", "solved")
    );
    assert_eq!(
        (row("t1/b.smt2")[3], row("t1/b.smt2")[4]),
        ("unknown", "unknown")
    );
    assert_eq!(
        (row("t2/c.smt2")[3], row("t2/c.smt2")[4]),
        ("timeout", "timeout")
    );
    assert_eq!(
        (row("t2/e.smt2")[3], row("t2/e.smt2")[4]),
        ("error", "error")
    );
    assert!(row("t2/e.smt2")[8].contains("bad input"));
    assert_eq!(
        (row("t1/b.smt2")[9], row("t1/b.smt2")[10]),
        ("sat", "wrong")
    );
    assert_eq!(
        (row("t2/c.smt2")[9], row("t2/c.smt2")[10]),
        ("sat", "solved")
    );
    let c_time: f64 = row("t2/c.smt2")[5].parse().unwrap();
    assert!(
        (2.2..6.0).contains(&c_time),
        "killed after timeout+grace, took {c_time}"
    );

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let summary = json["summary"].as_array().unwrap();
    assert_eq!(summary.len(), 3);
    let all = &summary[2];
    assert_eq!(all["track"], "all");
    assert_eq!(all["cove"]["solved"], 2);
    assert_eq!(all["cove"]["timeout"], 1);
    assert_eq!(all["cove"]["error"], 1);
    assert_eq!(all["ref"]["wrong"], 2);
    // PAR-2: 3 unsolved cove runs cost 2 * 2 s each, plus the two solve times.
    let par2 = all["cove"]["par2"].as_f64().unwrap();
    assert!((12.0..16.0).contains(&par2), "{par2}");
    assert_eq!(json["instances"].as_array().unwrap().len(), 5);
    assert_eq!(json["config"]["memory_mb"], 512);

    for svg in ["cactus.svg", "cactus-LIA.svg", "cactus-LIA-Lin.svg"] {
        let text = std::fs::read_to_string(out.join(svg)).unwrap();
        assert!(text.starts_with("<svg") && text.contains("cove ("), "{svg}");
    }
    assert!(out.join("summary.txt").is_file());
    let scatter = std::fs::read_to_string(out.join("scatter.svg")).unwrap();
    assert!(scatter.contains("cove vs echo") && scatter.contains("<circle"));
}

/// The answer columns (track, path, expected, cove answer/verdict, ref answer/verdict).
fn answer_columns(csv: &str) -> Vec<String> {
    csv.lines()
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            [f[0], f[1], f[2], f[3], f[4], f[9], f[10]].join(",")
        })
        .collect()
}

#[test]
fn shards_merge_into_the_unsharded_report() {
    let tmp = TempDir::new("shards");
    let files: Vec<(String, String)> = (0..7)
        .map(|i| {
            let answer = ["sat", "unsat", "unknown"][i % 3];
            (format!("f{i}.smt2"), format!("echo {answer}\n"))
        })
        .collect();
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, s)| (p.as_str(), s.as_str()))
        .collect();
    let manifest: String = (0..7)
        .map(|i| format!("{}\tf{i}.smt2\tsat\n", ["A", "B"][i % 2]))
        .collect();
    let m = setup(&tmp.0, &refs, &manifest);
    let run = |extra: &[&str], out: &str| {
        let out = tmp.0.join(out);
        let mut a = vec![
            m.to_str().unwrap().to_string(),
            "--cove-cmd".into(),
            "sh {}".into(),
            "--vs".into(),
            "echo sat".into(),
            "--out".into(),
            out.to_str().unwrap().to_string(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        (bench(&a), out)
    };
    let (whole, whole_out) = run(&[], "whole");
    // Cove is wrong on the `unsat` instances: the exit code says so, sharded or not.
    assert_eq!(whole.status.code(), Some(1));
    let mut shard_dirs = Vec::new();
    for i in [2, 0, 1] {
        let (o, out) = run(&["--shard", &format!("{i}/3")], &format!("s{i}"));
        let stdout = String::from_utf8_lossy(&o.stdout);
        assert!(
            stdout.contains(&format!("shard {i}/3 of a split of 7")),
            "{stdout}"
        );
        let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
        assert_eq!(csv.lines().count() - 1, [3, 2, 2][i]);
        shard_dirs.push(out);
    }
    let merged = tmp.0.join("merged");
    let mut a = vec!["--merge".to_string()];
    a.extend(shard_dirs.iter().map(|d| d.display().to_string()));
    a.extend(["--out".into(), merged.display().to_string()]);
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let o = bench(&a);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("merged from 3 result files"), "{stdout}");
    let read = |d: &Path| std::fs::read_to_string(d.join("results.csv")).unwrap();
    assert_eq!(
        answer_columns(&read(&merged)),
        answer_columns(&read(&whole_out))
    );
    for f in ["cactus.svg", "cactus-A.svg", "scatter.svg", "summary.txt"] {
        assert!(merged.join(f).is_file(), "{f}");
    }

    // A missing shard is an error, not a smaller report.
    let o = bench(&[
        "--merge",
        shard_dirs[0].to_str().unwrap(),
        shard_dirs[1].to_str().unwrap(),
        "--out",
        tmp.0.join("partial").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing shard(s): 1/3"));
}

#[test]
fn wrong_cove_answer_fails_the_run() {
    let tmp = TempDir::new("wrong");
    let m = setup(
        &tmp.0,
        &[("x.smt2", "echo sat\n"), ("y.smt2", "echo unsat\n")],
        "T\tx.smt2\tunsat\nT\ty.smt2\tunsat\n",
    );
    let out = tmp.0.join("out");
    let o = bench(&[
        m.to_str().unwrap(),
        "--timeout",
        "5",
        "--cove-cmd",
        "sh {}",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("cove WRONG on 1 instance(s):\n  x.smt2"),
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("WRONG: cove answered sat on x.smt2"));
}

#[test]
fn filter_limit_and_manifest_errors() {
    let tmp = TempDir::new("filter");
    let m = setup(
        &tmp.0,
        &[
            ("a1", "echo sat\n"),
            ("a2", "echo sat\n"),
            ("b1", "echo sat\n"),
        ],
        "T\ta1\tsat\nT\tb1\tsat\nT\ta2\tsat\n",
    );
    let out = tmp.0.join("out");
    let o = bench(&[
        m.to_str().unwrap(),
        "--cove-cmd",
        "sh {}",
        "--filter",
        "a",
        "--limit",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 2);
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("T,a1,sat,sat,solved,")
    );

    let bad = tmp.0.join("bad.tsv");
    std::fs::write(&bad, "T\ta1\tsat\nT\ta2\tmaybe\n").unwrap();
    let o = bench(&[bad.to_str().unwrap(), "--cove-cmd", "sh {}"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("manifest line 2"));

    let o = bench(&[m.to_str().unwrap(), "--vs", "no-such-solver-xyz {}"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no-such-solver-xyz"));
}

#[test]
fn aiger_manifest_runs_cove_with_hwmcc_answers_and_catches_wrong_ones() {
    // The real cove binary on the repository's small AIGER designs (hardware convention:
    // `sat` = a bad state is reachable); the reference is a stand-in printing ABC's output.
    let tmp = TempDir::new("aiger");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cove-aig/tests/data");
    let abc = tmp.0.join("abc.sh");
    std::fs::write(
        &abc,
        "echo \"ABC command line: \\\"read_aiger $1; fold; pdr\\\".\"\n\
         case $1 in *_unsafe*) echo 'Output 0 of miter \"m\" was asserted in frame 3.';;\n\
         *) echo 'Property proved.  Time = 0.01 sec';; esac\n",
    )
    .unwrap();
    let good = "AIGER\tmod6_safe.aig\tunsat\nAIGER\tcounter4_unsafe.aig\tsat\n\
                AIGER\tconstraint_safe.aag\tunsat\nAIGER\ttoggle_unsafe.aag\tsat\n";
    let run = |manifest: &str, name: &str| {
        let m = tmp.0.join(name);
        std::fs::write(&m, manifest).unwrap();
        let out = tmp.0.join(format!("{name}-out"));
        bench(&[
            m.to_str().unwrap(),
            "--root",
            data.to_str().unwrap(),
            "--timeout",
            "20",
            "--jobs",
            "2",
            "--vs",
            &format!("sh {} {{}}", abc.display()),
            "--no-progress",
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let o = run(good, "good.tsv");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("WRONG"), "{stdout}");
    let csv = std::fs::read_to_string(tmp.0.join("good.tsv-out/results.csv")).unwrap();
    assert_eq!(csv.matches(",solved,").count(), 8, "{csv}");
    // A manifest that expects the opposite verdict makes cove's answer wrong: exit 1.
    let o = run("AIGER\tmod6_safe.aig\tsat\n", "flipped.tsv");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("cove WRONG on 1 instance(s)"), "{stdout}");
}
