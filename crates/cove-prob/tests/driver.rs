//! `cove_prob::driver`: the checks as a library user runs them, with limits and cancellation
//! through `cove_control::Control`.

use cove_control::{Control, UnknownReason};
use cove_prob::bench::{Family, Method};
use cove_prob::driver::{Answer, VerifyConfig, load_model, simulate, verify};
use cove_prob::learn::FindConsistent;
use cove_prob::prism::{BuildOptions, build_lpts};
use cove_prob::{Lpts, parse_lpts};
use std::time::{Duration, Instant};

/// The two components and the specification of a benchmark instance, as components.
fn instance(f: Family, n: usize, buggy: bool) -> (Vec<Lpts>, Lpts) {
    let inst = f.instance(n, buggy);
    let opts = BuildOptions {
        deadlock_self_loops: false,
        ..BuildOptions::default()
    };
    let comps = vec![
        build_lpts(&inst.l1, &opts).unwrap(),
        build_lpts(&inst.l2, &opts).unwrap(),
    ];
    (comps, build_lpts(&inst.spec, &opts).unwrap())
}

#[test]
fn every_method_answers_and_checks_its_counterexample() {
    for buggy in [false, true] {
        let (comps, spec) = instance(Family::Cs1, 2, buggy);
        for method in Method::ALL {
            let cfg = VerifyConfig {
                method,
                find_consistent: FindConsistent::Partition,
                ..VerifyConfig::default()
            };
            let out = verify(&comps, &spec, &cfg, &Control::new()).unwrap();
            match out.answer {
                Answer::Holds => assert!(!buggy, "{method:?}"),
                Answer::Fails(r) => {
                    assert!(buggy, "{method:?}");
                    assert!(r.cex.tree.is_tree());
                    assert!(!r.checked.is_empty());
                }
                Answer::Unknown(r) => panic!("{method:?}: unknown ({r})"),
            }
            assert_eq!(out.learn.is_some(), method == Method::Learn);
        }
    }
}

#[test]
fn limits_give_unknown_with_their_reason() {
    let (comps, spec) = instance(Family::Cs1, 2, true);
    for method in Method::ALL {
        let cfg = VerifyConfig {
            method,
            ..VerifyConfig::default()
        };
        let mem = Control::new().with_memory_limit(1 << 20);
        let out = verify(&comps, &spec, &cfg, &mem).unwrap();
        assert!(
            matches!(out.answer, Answer::Unknown(UnknownReason::Memory)),
            "{method:?}: {:?}",
            out.answer
        );
        let past = Control::new().with_timeout(Duration::ZERO);
        let out = verify(&comps, &spec, &cfg, &past).unwrap();
        assert!(
            matches!(out.answer, Answer::Unknown(UnknownReason::Timeout)),
            "{method:?}: {:?}",
            out.answer
        );
        // A state limit is a limit too, not an error.
        let tiny = VerifyConfig {
            max_states: 1,
            ..cfg
        };
        let out = verify(&comps, &spec, &tiny, &Control::new()).unwrap();
        assert!(
            matches!(out.answer, Answer::Unknown(UnknownReason::ResourceOut(_))),
            "{method:?}: {:?}",
            out.answer
        );
    }
    let imp = parse_lpts("init p\np -a-> 2/3 : s + 1/3 : t\ns -b-> s\n").unwrap();
    let ctl = Control::new();
    ctl.stop();
    let out = simulate(&imp, &imp, 1000, &ctl).unwrap();
    assert!(matches!(
        out.answer,
        Answer::Unknown(UnknownReason::Interrupted)
    ));
}

#[test]
fn another_thread_cancels_a_long_run() {
    // MER(5)'s monolithic check composes 899,298 states (thesis Table 6.2: 177 s), and
    // simulating SN(3)'s first component against itself takes seconds: both are
    // far from done when the other thread stops them.
    let (comps, spec) = instance(Family::Mer, 5, false);
    let ctl = Control::new();
    let stopper = ctl.clone();
    let t = Instant::now();
    let h = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        stopper.stop();
    });
    let out = verify(&comps, &spec, &VerifyConfig::default(), &ctl).unwrap();
    h.join().unwrap();
    assert!(
        matches!(out.answer, Answer::Unknown(UnknownReason::Interrupted)),
        "{:?}",
        out.answer
    );
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());

    let inst = Family::Sn.instance(3, false);
    let dir = std::env::temp_dir().join(format!("cove-prob-driver-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sn3.prism");
    std::fs::write(&path, &inst.l1).unwrap();
    // Building stops at a stopped control (the model has far more than 1024 states).
    let stopped = Control::new();
    stopped.stop();
    assert_eq!(
        load_model(&path, &[], true, &stopped).unwrap().unwrap_err(),
        UnknownReason::Interrupted
    );
    let l = load_model(&path, &[], true, &Control::new())
        .unwrap()
        .unwrap();
    let ctl = Control::new();
    let stopper = ctl.clone();
    let h = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        stopper.stop();
    });
    let out = simulate(&l, &l, 1_000_000, &ctl).unwrap();
    h.join().unwrap();
    assert!(
        matches!(out.answer, Answer::Unknown(UnknownReason::Interrupted)),
        "{:?}",
        out.answer
    );
}
