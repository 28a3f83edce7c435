//! Several bad-state properties (and several outputs of old-style files): one verdict and one
//! witness per property, each checked, against answers known by construction.

use cove_aig::driver::EngineChoice;
use cove_aig::driver::{SolveConfig, Validation, solve};
use cove_aig::engines::bmc::BmcConfig;
use cove_aig::hwmcc_output::{format_properties, parse_witnesses};
use cove_aig::trace_check::check_trace_of;
use cove_aig::witness_circuit_check::check_witness;
use cove_aig::{Aig, Control, EngineConfig, Verdict, parse_aiger};
use std::path::PathBuf;
use std::time::Duration;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn load(name: &str) -> Aig {
    parse_aiger(&std::fs::read(data(name)).expect("data file")).expect("parses")
}

/// Per property: `None` holds, `Some(n)` fails with a shortest counterexample of `n` steps
/// (input vectors).
const KNOWN: &[(&str, &[Option<usize>])] = &[
    ("multi_mixed_unsafe.aag", &[None, Some(4), None]),
    ("multi_safe.aag", &[None, None]),
    ("multi_deep_unsafe.aag", &[Some(4), Some(2), None]),
    ("oldstyle_multi_unsafe.aag", &[None, Some(2)]),
    ("twobad_unsafe.aag", &[None, Some(2)]),
];

#[test]
fn every_property_gets_its_known_answer_with_a_checked_witness() {
    for &(name, known) in KNOWN {
        let aig = load(name);
        assert_eq!(aig.bad.len(), known.len(), "{name}");
        for engine in ["ic3", "kind", "portfolio", "loc"] {
            let cfg = SolveConfig {
                engine: EngineChoice::parse(engine).expect("engine"),
                ..SolveConfig::default()
            };
            let ctl = Control::default().with_timeout(Duration::from_secs(20));
            let out = solve(&aig, &cfg, &ctl);
            assert_eq!(out.properties.len(), known.len(), "{name} {engine}");
            assert_eq!(out.validation, Validation::Valid, "{name} {engine}");
            for (i, (v, k)) in out.properties.iter().zip(known).enumerate() {
                match (v, k) {
                    (Verdict::Unsafe(t), Some(n)) => {
                        assert_eq!(t.bad_index, i, "{name} {engine} b{i}");
                        // BMC-like engines find shortest traces; IC3's may be longer.
                        assert!(t.inputs.len() >= *n, "{name} {engine} b{i}");
                        let mut t = t.clone();
                        check_trace_of(&aig, &mut t, i).expect("replays");
                    }
                    (Verdict::Safe(_), None) => {}
                    _ => panic!("{name} {engine} b{i}: expected {k:?}, got {v:?}"),
                }
            }
            // The overall verdict is the conjunction's.
            let fails = known.iter().any(Option::is_some);
            assert_eq!(matches!(out.verdict, Verdict::Unsafe(_)), fails, "{name}");
            assert_eq!(matches!(out.verdict, Verdict::Safe(_)), !fails, "{name}");
            // The printed form: one witness per property, failing ones first, each replays.
            let text = format_properties(&out.properties);
            assert!(
                text.starts_with(if fails { "1\n" } else { "0\n" }),
                "{text}"
            );
            let ws = parse_witnesses(&text).expect("witnesses parse");
            assert_eq!(ws.len(), known.len(), "{text}");
            let mut seen: Vec<usize> = ws.iter().map(|w| w.properties[0]).collect();
            seen.sort();
            assert_eq!(seen, (0..known.len()).collect::<Vec<_>>());
            for w in &ws {
                let p = w.properties[0];
                assert_eq!(w.status, if known[p].is_some() { 1 } else { 0 }, "{text}");
                if let Some(t) = &w.trace {
                    let mut t = t.clone();
                    check_trace_of(&aig, &mut t, p).expect("printed witness replays");
                }
            }
        }
    }
}

#[test]
fn bmc_finds_each_failing_property_at_its_depth() {
    let aig = load("multi_deep_unsafe.aag");
    let cfg = SolveConfig {
        engine: EngineConfig::Bmc(BmcConfig {
            max_bound: Some(12),
        })
        .into(),
        ..SolveConfig::default()
    };
    // BMC cannot prove b2: it ends unknown at its bound, the two others are found first.
    let out = solve(&aig, &cfg, &Control::default());
    match (&out.properties[0], &out.properties[1]) {
        (Verdict::Unsafe(a), Verdict::Unsafe(b)) => {
            assert_eq!((a.inputs.len(), b.inputs.len()), (4, 2));
        }
        v => panic!("{v:?}"),
    }
    assert!(matches!(out.properties[2], Verdict::Unknown(_)));
    assert!(matches!(out.verdict, Verdict::Unsafe(_)));
}

#[test]
fn witness_and_certificate_files_for_several_properties() {
    let dir = std::env::temp_dir().join(format!("cove-aig-props-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let aig = load("multi_mixed_unsafe.aag");
    let (wit, cert) = (dir.join("w.txt"), dir.join("c.aag"));
    let cfg = SolveConfig {
        engine: EngineChoice::parse("ic3").expect("engine"),
        witness: Some(wit.clone()),
        certificate: Some(cert.clone()),
        model_name: "multi_mixed_unsafe.aag".into(),
        ..SolveConfig::default()
    };
    let out = solve(&aig, &cfg, &Control::default());
    assert_eq!(out.validation, Validation::Valid);
    // The witness file: every property's witness, the failing one replays.
    let ws =
        parse_witnesses(&std::fs::read_to_string(&wit).expect("witness written")).expect("parses");
    assert_eq!(ws.len(), 3);
    assert_eq!((ws[0].status, ws[0].properties[0]), (1, 1));
    // The certificate: for the model restricted to the properties that hold (b0, b2).
    let w = parse_aiger(&std::fs::read(&cert).expect("certificate written")).expect("parses");
    let held = Aig {
        bad: vec![aig.bad[0], aig.bad[2]],
        ..aig.clone()
    };
    check_witness(&held, &w, &Control::default()).expect("certificate checks");
    // One path for both (the single-path convention): the witness wins when a property fails.
    let one = dir.join("one.txt");
    let cfg = SolveConfig {
        witness: Some(one.clone()),
        certificate: Some(one.clone()),
        ..cfg
    };
    solve(&aig, &cfg, &Control::default());
    assert!(
        std::fs::read_to_string(&one)
            .expect("written")
            .starts_with("1\nb1\n")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
