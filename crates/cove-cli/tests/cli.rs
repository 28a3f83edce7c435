//! End-to-end tests of `cove solve` and `cove check` through the binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cove(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cove"))
        .args(args)
        .output()
        .expect("cove runs")
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shared_examples() -> Option<PathBuf> {
    let p = repo().join("../shared/examples");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("note: ../shared/examples is absent; shared-example tests skipped");
        None
    }
}

fn witness(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/witnesses")
        .join(name)
        .display()
        .to_string()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn check_accepts_hand_written_certificates_and_rejects_subtly_wrong_ones() {
    let Some(ex) = shared_examples() else { return };
    let cases = [
        ("recursive-mtd-safe.smt2", "mtd-safe.good", true),
        ("recursive-mtd-safe.smt2", "mtd-safe.bad", false),
        ("recursive-mtd-safe.smt2", "mtd-safe.bad2", false),
        ("gpdr-divergence-safe.smt2", "gpdr.good", true),
        ("gpdr-divergence-safe.smt2", "gpdr.bad", false),
        ("loop-gcnr-safe.smt2", "gcnr.good", true),
        ("loop-gcnr-safe.smt2", "gcnr.bad", false),
        ("recursive-mtd-unsafe.smt2", "mtd-unsafe.good", true),
        ("recursive-mtd-unsafe.smt2", "mtd-unsafe.bad", false),
    ];
    for (file, w, valid) in cases {
        let out = cove(&[
            "check",
            &ex.join(file).display().to_string(),
            "--witness",
            &witness(w),
        ]);
        let code = out.status.code();
        if valid {
            assert_eq!(
                code,
                Some(0),
                "{file} / {w}: {}{}",
                stdout(&out),
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(stdout(&out).trim(), "valid");
        } else {
            assert_eq!(
                code,
                Some(3),
                "{file} / {w} should be rejected: {}",
                stdout(&out)
            );
            assert_eq!(stdout(&out).trim(), "invalid");
        }
    }
}

/// `solve` answers, then `check` validates what `solve` printed (the witness round trip
/// through files, exactly as a user would do it).
fn solve_and_check(file: &Path, expect: &str) {
    let f = file.display().to_string();
    let out = cove(&["solve", "--timeout", "30", "--model", "--cex", &f]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{f}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert_eq!(text.lines().next(), Some(expect), "{f}: {text}");
    let dir = std::env::temp_dir().join(format!("cove-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let w = dir.join(format!(
        "{}.witness",
        file.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&w, &text).unwrap();
    let chk = cove(&["check", &f, "--witness", &w.display().to_string()]);
    assert_eq!(
        chk.status.code(),
        Some(0),
        "{f}: check said {}{}",
        stdout(&chk),
        String::from_utf8_lossy(&chk.stderr)
    );
}

#[test]
fn solve_answers_the_shared_examples_with_checkable_witnesses() {
    let Some(ex) = shared_examples() else { return };
    for (file, expect) in [
        ("recursive-mtd-safe.smt2", "sat"),
        ("recursive-mtd-unsafe.smt2", "unsat"),
        ("gpdr-divergence-safe.smt2", "sat"),
    ] {
        solve_and_check(&ex.join(file), expect);
    }
}

#[test]
fn solve_answers_the_bundled_examples() {
    for (file, expect) in [
        ("counter.smt2", "sat"),
        ("recursive-mtd.smt2", "sat"),
        ("mccarthy91.smt2", "sat"),
    ] {
        solve_and_check(&repo().join("examples").join(file), expect);
    }
    for (file, expect) in [
        ("counter-unsafe.smt2", "unsat"),
        ("fixedpoint-unsafe.smt2", "unsat"),
    ] {
        solve_and_check(&repo().join("tests/corpus").join(file), expect);
    }
}

#[test]
fn json_output_and_stdin() {
    let f = repo().join("tests/corpus/counter-unsafe.smt2");
    let out = Command::new(env!("CARGO_BIN_EXE_cove"))
        .args(["solve", "--format", "json", "--cex", "--stats", "-"])
        .stdin(std::fs::File::open(&f).unwrap())
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["verdict"], "unsat");
    assert_eq!(v["validation"], "valid");
    assert!(v["cex"].as_str().unwrap().starts_with("(derivation"));
}

#[test]
fn bad_input_exits_with_2_and_a_location() {
    let dir = std::env::temp_dir().join(format!("cove-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("bad.smt2");
    std::fs::write(&f, "(set-logic HORN)\n(declare-fun p (Int) Bool)\n(assert (forall ((x Int)) (=> (p x y) false)))\n").unwrap();
    let out = cove(&["solve", &f.display().to_string()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.smt2:3:"), "{err}");
    let out = cove(&[
        "solve",
        "--engine",
        "nope",
        &repo().join("examples/counter.smt2").display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn timeouts_give_unknown() {
    // gcnr is hard for interpolation/PDR-style engines; a tiny budget must end in `unknown`.
    let f = repo().join("tests/corpus/thesis-gcnr-safe.smt2");
    let out = cove(&[
        "solve",
        "--engine",
        "spacer",
        "--timeout",
        "0.2",
        &f.display().to_string(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out).trim(), "unknown");
}

/// The malformed-input contract at the CLI: exit code 2 and `FILE:LINE:COL:` on stderr,
/// never a panic, for every kind of bad input.
#[test]
fn malformed_inputs_exit_2_with_file_line_and_column() {
    const H: &str = "(set-logic HORN)\n(declare-fun P (Int) Bool)\n";
    let bodies: Vec<(&str, Vec<u8>)> = vec![
        ("missing paren", b"(assert (P 1)".to_vec()),
        ("extra paren", b"(assert (P 1)))".to_vec()),
        (
            "truncated",
            b"(assert (forall ((x Int))\n  (=> (P x)".to_vec(),
        ),
        ("truncated string", b"(echo \"abc".to_vec()),
        ("bad character", b"(assert {P 1})".to_vec()),
        ("bad numeral", b"(assert (P 12abc))".to_vec()),
        ("empty command", b"()".to_vec()),
        ("unknown command", b"(assret (P 1))".to_vec()),
        (
            "unknown symbol",
            b"(assert (forall ((x Int)) (=> (P y) false)))".to_vec(),
        ),
        (
            "unknown predicate",
            b"(assert (forall ((x Int)) (=> (Q x) false)))".to_vec(),
        ),
        (
            "wrong arity",
            b"(assert (forall ((x Int)) (=> (P x x) false)))".to_vec(),
        ),
        (
            "sort mismatch",
            b"(assert (forall ((x Bool)) (=> (P x) false)))".to_vec(),
        ),
        (
            "bool arithmetic",
            b"(assert (forall ((x Int) (b Bool)) (=> (and (P x) (> b 1)) false)))".to_vec(),
        ),
        ("non-bool assert", b"(assert 5)".to_vec()),
        (
            "predicate in ite condition",
            b"(assert (forall ((x Int)) (=> (ite (P x) (> x 0) (< x 0)) false)))".to_vec(),
        ),
        (
            "disjunctive head",
            b"(assert (forall ((x Int)) (=> (> x 0) (or (P x) (P (+ x 1))))))".to_vec(),
        ),
        (
            "negated body predicate",
            b"(assert (forall ((x Int)) (=> (not (P x)) (P (+ x 1)))))".to_vec(),
        ),
        (
            "predicate under equality",
            b"(assert (forall ((x Int)) (=> (= (P x) (P 1)) false)))".to_vec(),
        ),
        (
            "floating-point sort",
            b"(declare-fun B (Float32) Bool)".to_vec(),
        ),
        (
            "bitvector literal",
            b"(assert (forall ((x Int)) (=> (P #x0F) false)))".to_vec(),
        ),
        (
            "parametric datatype",
            b"(declare-datatypes ((L 1)) ((par (T) ((nil) (cons (hd T) (tl (L T)))))))".to_vec(),
        ),
        ("uninterpreted sort", b"(declare-sort U 0)".to_vec()),
        ("string sort", b"(declare-fun S (String) Bool)".to_vec()),
        (
            "redeclared predicate",
            b"(declare-fun P (Real) Bool)".to_vec(),
        ),
        ("malformed let", b"(assert (let (x 1) (P x)))".to_vec()),
        (
            "duplicate binder",
            b"(assert (forall ((x Int) (x Int)) (P x)))".to_vec(),
        ),
        ("keyword as term", b"(assert :foo)".to_vec()),
        ("non-utf8", b"(assert (P \xff))".to_vec()),
        (
            "bad define-fun",
            b"(define-fun f ((x Int)) Int (and x))".to_vec(),
        ),
        (
            "real in int position",
            b"(assert (forall ((x Real)) (=> (P x) false)))".to_vec(),
        ),
    ];
    assert!(bodies.len() >= 30);
    let dir = std::env::temp_dir().join(format!("cove-cli-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (name, body)) in bodies.iter().enumerate() {
        let f = dir.join(format!("bad{i}.smt2"));
        let mut src = H.as_bytes().to_vec();
        src.extend_from_slice(body);
        std::fs::write(&f, &src).unwrap();
        let out = cove(&["solve", &f.display().to_string()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{name}: exit {:?}, stderr {err}",
            out.status.code()
        );
        let prefix = format!("{}:", f.display());
        let rest = err
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{name}: {err}"));
        let mut parts = rest.splitn(3, ':');
        let line: u32 = parts
            .next()
            .unwrap()
            .parse()
            .unwrap_or_else(|_| panic!("{name}: no line in {err}"));
        let col: u32 = parts
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}: no column in {err}"));
        assert!(line >= 3 && col >= 1, "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
    }
}

#[test]
fn aiger_certificates_are_written_checked_and_only_for_safe_answers() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../cove-aig/tests/data");
    let dir = std::env::temp_dir().join(format!("cove-cert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (model, engine, ext) in [
        ("mod6_safe.aig", "ic3", "aig"),
        ("shift_constrained_safe.aag", "kind", "aag"),
        ("lockstep_safe.aag", "portfolio", "aig"),
    ] {
        let model = data.join(model);
        let cert = dir.join(format!("w.{ext}"));
        let out = cove(&[
            "solve",
            "--engine",
            engine,
            "--certificate",
            &cert.display().to_string(),
            &model.display().to_string(),
        ]);
        assert_eq!(stdout(&out), "0\nb0\n.\n", "{model:?} {engine}");
        let bytes = std::fs::read(&cert).unwrap();
        assert!(bytes.starts_with(if ext == "aig" { b"aig " } else { b"aag " }));
        // An independent re-check of the file as written: the five witness-circuit checks.
        let m = cove_aig::parse_aiger(&std::fs::read(&model).unwrap()).unwrap();
        let w = cove_aig::parse_aiger(&bytes).unwrap();
        cove_aig::witness_circuit_check::check_witness(&m, &w, &cove_aig::Control::default())
            .unwrap();
        std::fs::remove_file(&cert).unwrap();
    }
    // An unsafe design gets its trace on stdout and no certificate file.
    let cert = dir.join("none.aag");
    let out = cove(&[
        "solve",
        "--certificate",
        &cert.display().to_string(),
        &data.join("counter4_unsafe.aig").display().to_string(),
    ]);
    assert!(stdout(&out).starts_with("1\nb0\n"));
    assert!(!cert.exists());
    // CHC input refuses the option.
    let out = cove(&[
        "solve",
        "--certificate",
        &cert.display().to_string(),
        &repo()
            .join("examples/recursive-mtd.smt2")
            .display()
            .to_string(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--abs-variant` reaches the abstraction engine: on the thesis's `gcnr` plain CEGAR never
/// holds the concrete system (its largest abstraction is below 100 %), PBA starts from it.
#[test]
fn abs_variant_selects_the_abstraction_loop() {
    let f = repo().join("tests/corpus/thesis-gcnr-safe.smt2");
    let f = f.display().to_string();
    let max_pct = |variant: &str| {
        let out = cove(&[
            "solve",
            "--engine",
            "spacer-abs",
            "--abs-variant",
            variant,
            "--stats",
            "--timeout",
            "60",
            &f,
        ]);
        assert_eq!(stdout(&out).trim(), "sat", "{variant}");
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        let line = err
            .lines()
            .find(|l| l.starts_with("abs-max-pct:"))
            .unwrap_or_else(|| panic!("{variant}: no abs-max-pct in {err}"));
        line["abs-max-pct:".len()..].trim().parse::<u32>().unwrap()
    };
    assert_eq!(max_pct("pba"), 100);
    assert!(max_pct("cegar") < 100);
    let out = cove(&["solve", "--abs-variant", "hardware", &f]);
    assert_eq!(out.status.code(), Some(1), "a bad variant is a usage error");
}

#[test]
fn unrollings_of_datatype_systems_declare_their_datatypes() {
    // Before, `cove unroll` printed `QF_LIA` and no datatype declaration: the script it
    // wrote for a system over datatypes (every solc query) could not be read back.
    let dir = std::env::temp_dir().join(format!("cove-cli-unroll-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let chc = dir.join("trees.smt2");
    std::fs::write(
        &chc,
        "(set-logic HORN)
         (declare-datatypes ((T 0) (F 0) (R 0)) (((leaf (val Int)) (node (kids F)))
           ((fnil) (fcons (hd T) (tl F))) ((r (m (Array R Int)) (t T)))))
         (declare-fun P (T Int) Bool)
         (assert (forall ((x Int)) (=> (>= x 0) (P (leaf x) x))))
         (assert (forall ((t T) (x Int)) (=> (P t x) (P (node (fcons t fnil)) (+ x 1)))))
         (assert (forall ((t T) (x Int)) (=> (and (P t x) (< x 0)) false)))
         (check-sat)",
    )
    .unwrap();
    let o = cove(&["unroll", "--depth", "3", chc.to_str().unwrap()]);
    let script = stdout(&o);
    assert!(script.contains("(set-logic ALL)"), "{script}");
    assert!(
        script.contains("(declare-datatypes ((T 0) (F 0))"),
        "the mutually recursive pair is one group: {script}"
    );
    let unrolled = dir.join("unrolled.smt2");
    std::fs::write(&unrolled, &script).unwrap();
    let o = cove(&["smt", unrolled.to_str().unwrap()]);
    assert_eq!(
        stdout(&o).trim(),
        "unsat",
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engine_options_for_an_engine_the_run_does_not_use_are_refused() {
    // Before, Spacer's flags were dropped in silence under the portfolio (whose Spacer
    // entries keep their own options), and so were `--abs-variant` off spacer-abs and the
    // circuit flags on Horn clauses.
    let f = repo().join("tests/corpus/thesis-gcnr-safe.smt2");
    let f = f.display().to_string();
    let aag = repo().join("crates/cove-aig/tests/data/constraint_safe.aag");
    let aag = aag.display().to_string();
    for (args, why) in [
        (
            vec!["solve", "--may-only", &f],
            "--may-only applies to --engine spacer",
        ),
        (
            vec!["solve", "--engine", "bmc", "--no-global", &f],
            "this run uses 'bmc'",
        ),
        (
            vec!["solve", "--abs-variant", "cegar", &f],
            "--abs-variant applies to --engine spacer-abs",
        ),
        (
            vec!["solve", "--latch-corr", &f],
            "applies to AIGER and BTOR2",
        ),
        (vec!["solve", "--bottom-up", &aag], "applies to CHC input"),
    ] {
        let out = cove(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
    // Given to the engine they are for, they run.
    let small = repo().join("examples/recursive-mtd.smt2");
    let small = small.display().to_string();
    let out = cove(&[
        "solve",
        "--engine",
        "spacer",
        "--no-global",
        "--timeout",
        "60",
        &small,
    ]);
    assert_eq!(stdout(&out).trim(), "sat");
    let out = cove(&["solve", "--latch-corr", "--timeout", "60", &aag]);
    assert_eq!(out.status.code(), Some(0));
}
