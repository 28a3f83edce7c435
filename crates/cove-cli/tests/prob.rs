//! End-to-end tests of `cove prob …` through the binary, on files in a temporary directory.

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn cove(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cove"))
        .args(args)
        .output()
        .expect("cove runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("cove-prob-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn tmp(name: &str, text: &str) -> String {
    let p = dir().join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// The benchmark families' models (`cove prob bench --write-models`), written once per test
/// process into one directory.
fn models(family: &str, n: usize) -> PathBuf {
    let d = dir().join(format!("models-{family}-{n}"));
    if !d
        .join(format!("{}_{n}.l1.prism", family.to_uppercase()))
        .exists()
    {
        let o = cove(&[
            "prob",
            "bench",
            "--write-models",
            d.to_str().unwrap(),
            "--families",
            family,
            "--max-n",
            &n.to_string(),
        ]);
        assert!(o.status.success(), "{o:?}");
    }
    d
}

#[test]
fn simulate_holds_and_fails_with_dot() {
    let imp = tmp("imp.lpts", "init p\np -a-> 2/3 : s + 1/3 : t\ns -b-> s\n");
    let good = tmp(
        "good.lpts",
        "init q\nq -a-> 1/2 : u + 1/2 : v\nu -b-> u\nv -b-> v\n",
    );
    let bad = tmp("bad.lpts", "init q\nq -a-> 1/2 : u + 1/2 : v\nu -b-> u\n");
    let o = cove(&["prob", "simulate", &imp, &good]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o).trim(), "holds");
    let dot = dir().join("cex.dot");
    let o = cove(&[
        "prob",
        "simulate",
        &imp,
        &bad,
        "--dot",
        dot.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    let text = stdout(&o);
    assert!(text.starts_with("fails\n"), "{text}");
    assert!(text.contains("init "), "{text}");
    assert!(std::fs::read_to_string(dot).unwrap().starts_with("digraph"));
}

#[test]
fn parse_errors_are_bad_input_with_position() {
    let imp = tmp("broken.lpts", "init p\np -a-> 1/2 : s + 1/3 : t\n");
    let o = cove(&["prob", "simulate", &imp, &imp]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("broken.lpts:2:1:"), "{err}");
    let m = tmp(
        "broken.prism",
        "module m\n x : [0..1];\n [a] x=0 -> (x'=y);\nendmodule\n",
    );
    let o = cove(&["prob", "simulate", &m, &m]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("broken.prism:3:17:"), "{err}");
    // A usage error (bad constant definition, unknown method) is exit 1.
    let o = cove(&["prob", "simulate", &m, &m, "--const", "N"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let o = cove(&[
        "prob",
        "verify",
        "--component",
        &m,
        "--spec",
        &m,
        "--method",
        "x",
    ]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
}

#[test]
fn verify_all_methods_on_prism_components() {
    let inst = cove_prob::bench::Family::Cs1.instance(2, true);
    let a = tmp("cs_l1.prism", &inst.l1);
    let b = tmp("cs_l2.prism", &inst.l2);
    let spec = cove_prob::prism::build_lpts(&inst.spec, &Default::default()).unwrap();
    let p = tmp("cs_spec.lpts", &cove_prob::write_lpts(&spec));
    for m in ["mono", "agar", "agar-n", "learn"] {
        let args = [
            "prob",
            "verify",
            "--component",
            &a,
            "--component",
            &b,
            "--spec",
            &p,
            "--method",
            m,
            "--find-consistent",
            "partition",
            "-v",
        ];
        let o = cove(&args);
        assert_eq!(o.status.code(), Some(0), "{m}: {o:?}");
        let text = stdout(&o);
        assert!(text.contains("\nfails\n"), "{m}: {text}");
        assert!(text.contains("# stats: method"), "{text}");
    }
}

/// A memory limit below what a run needs gives a clean unknown with exit 0 (the limit counts
/// heap bytes, as for `cove solve`: MER(3)'s composition needs several MiB).
#[test]
fn memory_limits_give_unknown() {
    let d = models("mer", 3);
    let f = |s: &str| d.join(s).display().to_string();
    let (l1, l2, spec) = (
        f("MER_3.l1.prism"),
        f("MER_3.l2.prism"),
        f("MER_3.spec.lpts"),
    );
    for m in ["mono", "agar", "learn"] {
        let args = [
            "prob",
            "verify",
            "--component",
            &l1,
            "--component",
            &l2,
            "--spec",
            &spec,
            "--method",
            m,
            "--memory-mb",
            "1",
        ];
        let o = cove(&args);
        assert_eq!(o.status.code(), Some(0), "{m}: {o:?}");
        let text = stdout(&o);
        assert!(
            text.starts_with("unknown (memory limit reached)\n"),
            "{m}: {text}"
        );
        let o = cove(&[&args[..], &["--format", "json"]].concat());
        assert_eq!(o.status.code(), Some(0), "{m}: {o:?}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["verdict"], "unknown", "{v}");
        assert_eq!(v["reason"], "memory limit reached", "{v}");
    }
}

#[test]
fn bench_quick_runs_and_writes_models() {
    let o = cove(&[
        "prob",
        "bench",
        "--quick",
        "--methods",
        "mono,agar,agar-n",
        "--learn-max-n",
        "0",
        "--families",
        "cs1,mer",
        "--timeout",
        "60",
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = stdout(&o);
    assert!(
        text.contains("| MER(2)") && text.contains("Fastest"),
        "{text}"
    );
    let d = dir().join("all-models");
    let o = cove(&[
        "prob",
        "bench",
        "--quick",
        "--write-models",
        d.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    assert!(d.join("SN_2-bug.spec.lpts").exists(), "{:?}", o);
    let o = cove(&["prob", "bench", "--families", "xyz"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
}

#[test]
fn json_output_of_simulate_and_verify() {
    let imp = tmp("jimp.lpts", "init p\np -a-> 2/3 : s + 1/3 : t\ns -b-> s\n");
    let bad = tmp("jbad.lpts", "init q\nq -a-> 1/2 : u + 1/2 : v\nu -b-> u\n");
    let o = cove(&["prob", "simulate", &imp, &bad, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "fails");
    assert!(v["cex"]["states"].as_u64().unwrap() >= 2, "{v}");
    // the tree in the JSON object is a valid .lpts text whose start state maps to `p`
    let tree = cove_prob::parse_lpts(v["cex"]["tree"].as_str().unwrap()).unwrap();
    assert!(tree.is_tree());
    let root = tree.state_name(tree.initial()).to_string();
    assert_eq!(v["cex"]["mapping"][root.as_str()], "p");

    let inst = cove_prob::bench::Family::Cs1.instance(2, false);
    let a = tmp("jcs_l1.prism", &inst.l1);
    let b = tmp("jcs_l2.prism", &inst.l2);
    let spec = tmp("jcs_spec.prism", &inst.spec);
    let args = [
        "prob",
        "verify",
        "--component",
        &a,
        "--component",
        &b,
        "--spec",
        &spec,
        "--method",
        "agar",
        "--format",
        "json",
    ];
    let o = cove(&args);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "holds", "{v}");
    assert_eq!(v["method"], "agar");
    assert!(v["iterations"].as_u64().unwrap() >= 1, "{v}");
}

#[test]
fn export_to_drn_and_read_back() {
    let m = tmp(
        "coin.prism",
        "mdp\nmodule m\n s : [0..2] init 0;\n [toss] s=0 -> 1/3 : (s'=1) + 2/3 : (s'=2);\n [] s=1 -> (s'=0);\nendmodule\n",
    );
    let drn = dir().join("coin.drn").display().to_string();
    let o = cove(&["prob", "export", &m, "-o", &drn]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = std::fs::read_to_string(&drn).unwrap();
    assert!(
        text.contains("@type: MDP") && text.contains("1/3"),
        "{text}"
    );
    // the DRN file is read back as the same model: simulation both ways
    assert_eq!(
        stdout(&cove(&["prob", "simulate", &drn, &m])).trim(),
        "holds"
    );
    assert_eq!(
        stdout(&cove(&["prob", "simulate", &m, &drn])).trim(),
        "holds"
    );
    let o = cove(&["prob", "export", &m, "--to", "lpts"]);
    let l = cove_prob::parse_lpts(&stdout(&o)).unwrap();
    assert_eq!(l.num_states(), 3);
}

/// Runs `args` and checks that it answers `unknown` with exit 0 no later than `limit` plus a
/// slack (process start, the watchdog's 0.6 s, a loaded machine).
fn assert_unknown_within(args: &[&str], limit: f64) {
    let t = Instant::now();
    let o = cove(args);
    let took = t.elapsed();
    assert_eq!(o.status.code(), Some(0), "{args:?}: {o:?}");
    assert!(
        stdout(&o).starts_with("unknown"),
        "{args:?}: {}",
        stdout(&o)
    );
    assert!(
        took < Duration::from_secs_f64(limit + 10.0),
        "{args:?} took {took:?} with --timeout {limit}"
    );
}

#[test]
fn timeouts_give_unknown_in_time() {
    // MER(5): the monolithic composition has 899,298 states (thesis Table 6.2: 177 s).
    let d = models("mer", 5);
    let f = |s: &str| d.join(s).display().to_string();
    let (l1, l2, spec) = (
        f("MER_5.l1.prism"),
        f("MER_5.l2.prism"),
        f("MER_5.spec.lpts"),
    );
    for method in ["mono", "agar-n"] {
        assert_unknown_within(
            &[
                "prob",
                "verify",
                "--component",
                &l1,
                "--component",
                &l2,
                "--spec",
                &spec,
                "--method",
                method,
                "--timeout",
                "1",
            ],
            1.0,
        );
    }
    // A deadline inside model building holds too.
    assert_unknown_within(
        &[
            "prob",
            "verify",
            "--component",
            &l1,
            "--component",
            &l2,
            "--spec",
            &spec,
            "--timeout",
            "0.001",
        ],
        0.001,
    );
    // Strong simulation of SN(3)'s first component against itself (seconds, 300 MB).
    let d = models("sn", 3);
    let l1 = d.join("SN_3.l1.prism").display().to_string();
    assert_unknown_within(&["prob", "simulate", &l1, &l1, "--timeout", "1"], 1.0);
    let o = cove(&[
        "prob",
        "simulate",
        &l1,
        &l1,
        "--timeout",
        "1",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["verdict"], "unknown", "{v}");
    assert_eq!(v["reason"], "time limit reached", "{v}");
}

#[test]
fn limits_are_documented_in_help() {
    for cmd in ["simulate", "verify", "bench", "export"] {
        let o = cove(&["prob", cmd, "--help"]);
        let h = stdout(&o);
        assert!(
            h.contains("--timeout") && h.contains("--memory-mb"),
            "{cmd}: {h}"
        );
    }
}
