//! End-to-end tests of hardware model checking through the binary: several properties per
//! file, and `cove hwmcc`, the competition's call convention.

use cove_aig::hwmcc_output::parse_witnesses;
use cove_aig::trace_check::check_trace_of;
use cove_aig::{Aig, Control, parse_aiger};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cove(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cove"))
        .args(args)
        .output()
        .expect("cove runs")
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cove-aig/tests/data")
        .join(name)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn load(p: &Path) -> Aig {
    parse_aiger(&std::fs::read(p).expect("model")).expect("parses")
}

#[test]
fn several_properties_print_one_checked_witness_each() {
    let model = data("multi_mixed_unsafe.aag");
    let out = cove(&["solve", "--engine", "ic3", &model.display().to_string()]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    // The failing property first (the first line is the verdict on all of them), then the two
    // that hold.
    let ws = parse_witnesses(&text).expect("witnesses parse");
    let summary: Vec<(u8, usize)> = ws.iter().map(|w| (w.status, w.properties[0])).collect();
    assert_eq!(summary, [(1, 1), (0, 0), (0, 2)], "{text}");
    let mut t = ws[0].trace.clone().expect("a trace");
    check_trace_of(&load(&model), &mut t, 1).expect("replays");
    // JSON names each property's verdict.
    let out = cove(&["solve", "--format", "json", &model.display().to_string()]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["verdict"], "unsafe");
    let props: Vec<&str> = v["properties"]
        .as_array()
        .expect("properties")
        .iter()
        .map(|p| p["verdict"].as_str().expect("verdict"))
        .collect();
    assert_eq!(props, ["safe", "unsafe", "safe"]);
}

#[test]
fn hwmcc_writes_the_witness_or_the_certificate_to_the_given_paths() {
    let dir = std::env::temp_dir().join(format!("cove-hwmcc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (sat, unsat) = (dir.join("cex.txt"), dir.join("cert.aig"));
    let arg = |p: &Path| p.display().to_string();
    // A safe design: the certificate goes to CERT_UNSAT, nothing to CERT_SAT.
    let model = data("mod6_safe.aag");
    let out = cove(&["hwmcc", &arg(&model), &arg(&sat), &arg(&unsat)]);
    assert_eq!(
        (out.status.code(), stdout(&out).as_str()),
        (Some(0), "0\nb0\n.\n")
    );
    assert!(!sat.exists());
    let cert = std::fs::read(&unsat).expect("certificate written");
    assert!(cert.starts_with(b"aig "));
    let w = parse_aiger(&cert).expect("parses");
    cove_aig::witness_circuit_check::check_witness(&load(&model), &w, &Control::default())
        .expect("certificate checks");
    std::fs::remove_file(&unsat).expect("remove");
    // An unsafe design: the witness goes to CERT_SAT, exactly as printed.
    let model = data("counter4_unsafe.aig");
    let out = cove(&["hwmcc", &arg(&model), &arg(&sat), &arg(&unsat)]);
    assert_eq!(out.status.code(), Some(0));
    let written = std::fs::read_to_string(&sat).expect("witness written");
    assert_eq!(written, stdout(&out));
    assert!(written.starts_with("1\nb0\n"));
    assert!(!unsat.exists());
    // One path (the HWMCC'24 convention): the witness or the certificate.
    let one = dir.join("one");
    cove(&["hwmcc", &arg(&model), &arg(&one)]);
    assert!(
        std::fs::read_to_string(&one)
            .expect("written")
            .starts_with("1\nb0\n")
    );
    cove(&["hwmcc", &arg(&data("mod6_safe.aag")), &arg(&one)]);
    assert!(std::fs::read(&one).expect("written").starts_with(b"aag "));
    // No path: the answer only.
    let out = cove(&["hwmcc", &arg(&data("mod6_safe.aag"))]);
    assert_eq!(stdout(&out), "0\nb0\n.\n");
    // A certificate that cannot be written withdraws the answer: `2`, exit code 3.
    let bad = dir.join("no-such-dir").join("c.aag");
    let out = cove(&[
        "hwmcc",
        &arg(&data("mod6_safe.aag")),
        &arg(&sat),
        &arg(&bad),
    ]);
    assert_eq!(
        (out.status.code(), stdout(&out).as_str()),
        (Some(3), "2\nb0\n.\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn justice_properties_get_lasso_witnesses() {
    let model = data("liveness/mixed_fails.aag");
    let out = cove(&["solve", &model.display().to_string()]);
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    // b0 holds, j0 holds, j1 fails: the failing one first, with a lasso.
    let ws = cove_aig::hwmcc_output::parse_witnesses_of(&text, Some(1)).expect("parses");
    let summary: Vec<(u8, usize)> = ws.iter().map(|w| (w.status, w.properties[0])).collect();
    assert_eq!(summary, [(1, 2), (0, 0), (0, 1)], "{text}");
    assert!(text.starts_with("1\nj1\n"), "{text}");
    let t = ws[0].trace.clone().expect("a trace");
    cove_aig::trace_check::check_lasso(&load(&model), &t, 1).expect("the lasso replays");
    let out = cove(&["solve", "--format", "json", &model.display().to_string()]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let props: Vec<(&str, &str)> = v["properties"]
        .as_array()
        .expect("properties")
        .iter()
        .map(|p| {
            (
                p["property"].as_str().unwrap(),
                p["verdict"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(props, [("b0", "safe"), ("j0", "safe"), ("j1", "unsafe")]);
}
