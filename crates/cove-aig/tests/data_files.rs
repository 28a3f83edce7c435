//! The circuits of `tests/data` (answer in the file name; the binary ones were confirmed with
//! ABC `pdr`), every engine, witnesses printed, read back and replayed.

use cove_aig::EngineConfig;
use cove_aig::driver::EngineChoice;
use cove_aig::driver::check;
use cove_aig::hwmcc_output::{format_verdict, parse_trace};
use cove_aig::witness_circuit::{witness_circuit, write_witness};
use cove_aig::witness_circuit_check::check_witness;
use cove_aig::{Control, SafeProof, Verdict, parse_aiger};
use std::path::PathBuf;
use std::time::Duration;

/// The engine named `name` with its default options.
fn engine(name: &str) -> EngineChoice {
    EngineChoice::parse(name).expect("an engine name")
}

fn data_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("aag" | "aig")))
        .collect();
    v.sort();
    v
}

#[test]
fn every_engine_gets_the_known_answer_with_a_checked_witness() {
    let files = data_files();
    assert!(files.len() >= 15);
    for path in files {
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let expect_unsafe = name.ends_with("_unsafe");
        assert!(expect_unsafe || name.ends_with("_safe"), "{name}");
        let aig = parse_aiger(&std::fs::read(&path).unwrap()).unwrap();
        for e in [
            engine("ic3"),
            engine("bmc"),
            engine("kind"),
            engine("loc"),
            engine("portfolio"),
        ] {
            // BMC and k-induction may not terminate on safe designs.
            let secs = if matches!(
                e,
                EngineChoice::One(EngineConfig::Bmc(_) | EngineConfig::Kind(_))
            ) {
                1
            } else {
                10
            };
            let ctl = Control::default().with_timeout(Duration::from_secs(secs));
            let v = check(&aig, &e, &ctl);
            let text = format_verdict(&v);
            match &v {
                Verdict::Unsafe(_) => {
                    assert!(expect_unsafe, "{name} {e:?}: false alarm");
                    // The printed witness replays on a freshly parsed circuit.
                    let mut t = parse_trace(&text).expect("witness parses");
                    let fresh = parse_aiger(&std::fs::read(&path).unwrap()).unwrap();
                    cove_aig::trace_check::check_trace(&fresh, &mut t)
                        .unwrap_or_else(|err| panic!("{name} {e:?}: {err}\n{text}"));
                    assert!(text.starts_with("1\nb") && text.ends_with(".\n"));
                }
                Verdict::Safe(proof) => {
                    assert!(!expect_unsafe, "{name} {e:?}: missed bug");
                    assert_eq!(text, "0\nb0\n.\n");
                    if let SafeProof::Invariant(inv) = proof {
                        cove_aig::proof_check::check_invariant(&aig, inv, true, &ctl).unwrap();
                    }
                    // The certificate, written in both formats and read back, passes the
                    // five witness-circuit checks against a freshly parsed model.
                    let w = witness_circuit(&aig, proof);
                    let fresh = parse_aiger(&std::fs::read(&path).unwrap()).unwrap();
                    for binary in [false, true] {
                        let bytes = write_witness(&w, binary, &name);
                        let back = parse_aiger(&bytes).unwrap();
                        check_witness(&fresh, &back, &ctl)
                            .unwrap_or_else(|err| panic!("{name} {e:?}: {err}"));
                    }
                }
                Verdict::Unknown(r) => {
                    // BMC never proves; k-induction without simple paths may not.
                    let ok = matches!(
                        e,
                        EngineChoice::One(EngineConfig::Bmc(_) | EngineConfig::Kind(_))
                    ) && !expect_unsafe;
                    assert!(ok, "{name} {e:?}: unknown ({r})");
                    assert_eq!(text, "2\nb0\n.\n");
                }
            }
        }
    }
}

#[test]
fn bmc_finds_the_shortest_counterexample() {
    let src = include_bytes!("data/counter4_unsafe.aig");
    let aig = parse_aiger(src).unwrap();
    match check(&aig, &engine("bmc"), &Control::default()) {
        // Reset 0, bad at 15: 16 input vectors, the first 15 enabling the counter.
        Verdict::Unsafe(t) => {
            assert_eq!(t.inputs.len(), 16);
            assert!(t.inputs[..15].iter().all(|i| i[0]));
        }
        v => panic!("{v:?}"),
    }
}

#[test]
fn a_wrong_witness_is_rejected_by_simulation() {
    let aig = parse_aiger(include_bytes!("data/counter4_unsafe.aag")).unwrap();
    let mut t = parse_trace("1\nb0\n0000\n1\n1\n1\n.\n").unwrap();
    assert!(cove_aig::trace_check::check_trace(&aig, &mut t).is_err());
    // Constraint violated on the way: shift register with stage 2 forced low.
    let aig = parse_aiger(include_bytes!("data/shift_constrained_safe.aag")).unwrap();
    let mut t = parse_trace("1\nb0\n00000\n1\n1\n1\n1\n1\n1\n.\n").unwrap();
    let e = cove_aig::trace_check::check_trace(&aig, &mut t).unwrap_err();
    assert!(e.contains("constraint"), "{e}");
}

#[test]
fn a_wrong_invariant_is_rejected() {
    let aig = parse_aiger(include_bytes!("data/mod6_safe.aag")).unwrap();
    let ctl = Control::default();
    // "true" is inductive but does not exclude the bad state.
    assert!(cove_aig::proof_check::check_invariant(&aig, &[], true, &ctl).is_err());
    // "bit 0 is 0" is not inductive (the counter counts).
    let b0 = 2 * aig.latches[0].var + 1;
    assert!(cove_aig::proof_check::check_invariant(&aig, &[vec![b0]], true, &ctl).is_err());
    // Not a latch literal.
    assert!(cove_aig::proof_check::check_invariant(&aig, &[vec![2]], true, &ctl).is_err());
}
