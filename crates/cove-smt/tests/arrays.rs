//! The array theory in script mode: small QF_ALIA scripts with answers confirmed by z3
//! (read-over-write, extensionality, constant arrays, nested and Bool-valued arrays), and
//! models that satisfy the assertions.

use cove_smt::run_script;

fn run(path: &str) -> String {
    let src = std::fs::read(format!(
        "{}/tests/data/arrays/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("test file");
    let mut out = Vec::new();
    let code = run_script(&src, &mut out).expect("io");
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&out));
    String::from_utf8(out).expect("utf8")
}

#[test]
fn read_over_write_and_extensionality() {
    assert_eq!(run("row_unsat.smt2").trim(), "unsat");
    assert_eq!(run("ext_unsat.smt2").trim(), "unsat");
    assert_eq!(run("nested_bool_unsat.smt2").trim(), "unsat");
}

#[test]
fn satisfiable_scripts_have_array_models() {
    let out = run("row_sat.smt2");
    assert!(out.starts_with("sat"), "{out}");
    let out = run("const_sat.smt2");
    assert!(out.starts_with("sat"), "{out}");
    assert!(
        out.contains("(b (store ((as const (Array Int Int)) 0) 3 7))"),
        "{out}"
    );
}
