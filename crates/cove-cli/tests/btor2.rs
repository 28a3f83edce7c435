//! `cove solve FILE.btor2` end to end: answers, the witness format, refusals with positions
//! and exit codes.

use std::path::Path;
use std::process::{Command, Output};

fn cove(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cove"))
        .args(args)
        .output()
        .expect("cove runs")
}

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../cove-aig/tests/data/btor2")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn btor2_answers_and_witnesses() {
    let o = cove(&["solve", &data("counter_safe.btor2")]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "unsat\nb0\n.\n");
    let o = cove(&["solve", "--engine", "bmc", &data("shift_unsafe.btor2")]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with("sat\nb0\n#0\n@0\n0 10101011 in@0\n@1\n"),
        "{out}"
    );
    assert!(out.ends_with("@4\n0 00000000 in@4\n.\n"), "{out}");
    let o = cove(&["solve", "--engine", "bmc", &data("nonext_unsafe.btor2")]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("#2\n0 0111 s#2\n"), "{out}");
}

#[test]
fn btor2_refusals_carry_positions_and_exit_code_2() {
    let dir = std::env::temp_dir().join(format!("cove-btor2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cases = [
        (
            "1 sort bitvec 65\n2 sort array 1 1\n",
            ":2:14: unsupported: an array index of 65 bits",
        ),
        (
            "1 sort bitvec 2\n2 sort array 1 1\n3 input 2\n",
            ":3:9: unsupported: array inputs",
        ),
        (
            "1 sort bitvec 1\n2 input 1\n3 justice 1 2\n",
            ":3:3: unsupported: 'justice'",
        ),
        (
            "1 sort bitvec 4\n2 input 1\n3 bad 2\n",
            ":3:7: error: 'bad' needs a one-bit",
        ),
    ];
    for (i, (src, want)) in cases.iter().enumerate() {
        let f = dir.join(format!("m{i}.btor2"));
        std::fs::write(&f, src).expect("write");
        let o = cove(&["solve", f.to_str().expect("utf-8 path")]);
        assert_eq!(o.status.code(), Some(2), "{src}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{src}: {err}");
        assert!(o.stdout.is_empty());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
