//! The `cove prob` entry points, run on files in a temporary directory.

use cove_prob::agar::Refinement;
use cove_prob::bench::Method;
use cove_prob::cli::{
    BenchArgs, ExportArgs, ExportFormat, Format, SimulateArgs, VerifyArgs, bench, export, simulate,
    verify,
};
use cove_prob::learn::{FindConsistent, Positives};
use std::path::PathBuf;

fn tmp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cove-prob-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn sim_args(i: PathBuf, s: PathBuf, dot: Option<PathBuf>) -> SimulateArgs {
    SimulateArgs {
        implementation: i,
        spec: s,
        dot,
        constants: vec![],
        max_tree_nodes: 1000,
        format: Format::Text,
    }
}

#[test]
fn simulate_holds_and_fails_with_dot() {
    let imp = tmp("imp.lpts", "init p\np -a-> 2/3 : s + 1/3 : t\ns -b-> s\n");
    let good = tmp(
        "good.lpts",
        "init q\nq -a-> 1/2 : u + 1/2 : v\nu -b-> u\nv -b-> v\n",
    );
    let bad = tmp("bad.lpts", "init q\nq -a-> 1/2 : u + 1/2 : v\nu -b-> u\n");
    let mut out = Vec::new();
    assert_eq!(
        simulate(&sim_args(imp.clone(), good, None), &mut out).unwrap(),
        0
    );
    assert_eq!(String::from_utf8(out).unwrap().trim(), "holds");
    let dot = imp.with_file_name("cex.dot");
    let mut out = Vec::new();
    assert_eq!(
        simulate(&sim_args(imp, bad, Some(dot.clone())), &mut out).unwrap(),
        0
    );
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("fails\n"), "{text}");
    assert!(text.contains("init "), "{text}");
    assert!(std::fs::read_to_string(dot).unwrap().starts_with("digraph"));
}

#[test]
fn parse_errors_are_bad_input_with_position() {
    let imp = tmp("broken.lpts", "init p\np -a-> 1/2 : s + 1/3 : t\n");
    let e = simulate(&sim_args(imp.clone(), imp, None), &mut Vec::new()).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("broken.lpts:2:1:"), "{e}");
    let m = tmp(
        "broken.prism",
        "module m\n x : [0..1];\n [a] x=0 -> (x'=y);\nendmodule\n",
    );
    let e = simulate(&sim_args(m.clone(), m, None), &mut Vec::new()).unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("broken.prism:3:17:"), "{e}");
}

#[test]
fn verify_all_methods_on_prism_components() {
    let inst = cove_prob::bench::Family::Cs1.instance(2, true);
    let a = tmp("cs_l1.prism", &inst.l1);
    let b = tmp("cs_l2.prism", &inst.l2);
    let spec = cove_prob::prism::build_lpts(&inst.spec, &Default::default()).unwrap();
    let p = tmp("cs_spec.lpts", &cove_prob::write_lpts(&spec));
    for m in [Method::Mono, Method::Agar, Method::AgarN, Method::Learn] {
        let args = VerifyArgs {
            components: vec![a.clone(), b.clone()],
            spec: p.clone(),
            method: m,
            constants: vec![],
            dot: None,
            max_states: 100_000,
            time_limit: 60,
            memory_mb: None,
            verbose: true,
            format: Format::Text,
            find_consistent: FindConsistent::Partition,
            refine: Refinement::Full,
            positives: Positives::Rich,
        };
        let mut out = Vec::new();
        assert_eq!(verify(&args, &mut out).unwrap(), 0);
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("\nfails\n"), "{}: {text}", m.name());
        assert!(text.contains("# stats: method"), "{text}");
        // A memory limit below the process's size gives a clean unknown.
        let args = VerifyArgs {
            memory_mb: Some(1),
            ..args
        };
        let mut out = Vec::new();
        assert_eq!(verify(&args, &mut out).unwrap(), 0);
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("unknown (memory limit reached)"),
            "{}: {text}",
            m.name()
        );
    }
}

#[test]
fn bench_quick_runs_and_writes_models() {
    let dir = std::env::temp_dir().join(format!("cove-prob-models-{}", std::process::id()));
    let args = BenchArgs {
        quick: true,
        max_n: None,
        methods: vec![Method::Mono, Method::Agar, Method::AgarN],
        learn_max_n: 0,
        learn_time: 1,
        write_models: None,
        families: vec!["cs1".into(), "mer".into()],
        time_limit: 60,
        find_consistent: FindConsistent::Partition,
        refine: Refinement::Full,
    };
    let mut out = Vec::new();
    assert_eq!(bench(&args, &mut out).unwrap(), 0);
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("| MER(2)") && text.contains("Fastest"),
        "{text}"
    );
    let args = BenchArgs {
        write_models: Some(dir.clone()),
        families: vec![],
        ..args
    };
    assert_eq!(bench(&args, &mut Vec::new()).unwrap(), 0);
    assert!(
        dir.join("SN_2-bug.spec.lpts").exists() || dir.join("SN_2_-bug.spec.lpts").exists(),
        "{:?}",
        std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect::<Vec<_>>()
    );
}

#[test]
fn json_output_of_simulate_and_verify() {
    let imp = tmp("jimp.lpts", "init p\np -a-> 2/3 : s + 1/3 : t\ns -b-> s\n");
    let bad = tmp("jbad.lpts", "init q\nq -a-> 1/2 : u + 1/2 : v\nu -b-> u\n");
    let args = SimulateArgs {
        format: Format::Json,
        ..sim_args(imp.clone(), bad, None)
    };
    let mut out = Vec::new();
    assert_eq!(simulate(&args, &mut out).unwrap(), 0);
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
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
    let args = VerifyArgs {
        components: vec![a, b],
        spec,
        method: Method::Agar,
        constants: vec![],
        dot: None,
        max_states: 100_000,
        time_limit: 60,
        memory_mb: None,
        verbose: true,
        format: Format::Json,
        find_consistent: FindConsistent::Partition,
        refine: Refinement::Full,
        positives: Positives::Rich,
    };
    let mut out = Vec::new();
    assert_eq!(verify(&args, &mut out).unwrap(), 0);
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["verdict"], "holds", "{v}");
    assert_eq!(v["method"], "agar");
    assert!(v["iterations"].as_u64().unwrap() >= 1, "{v}");
    let args = VerifyArgs {
        memory_mb: Some(1),
        ..args
    };
    let mut out = Vec::new();
    assert_eq!(verify(&args, &mut out).unwrap(), 0);
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(v["verdict"], "unknown", "{v}");
}

#[test]
fn export_to_drn_and_read_back() {
    let m = tmp(
        "coin.prism",
        "mdp\nmodule m\n s : [0..2] init 0;\n [toss] s=0 -> 1/3 : (s'=1) + 2/3 : (s'=2);\n [] s=1 -> (s'=0);\nendmodule\n",
    );
    let drn = m.with_file_name("coin.drn");
    let args = ExportArgs {
        model: m.clone(),
        to: None,
        output: Some(drn.clone()),
        constants: vec![],
        component: false,
    };
    assert_eq!(export(&args, &mut Vec::new()).unwrap(), 0);
    let text = std::fs::read_to_string(&drn).unwrap();
    assert!(
        text.contains("@type: MDP") && text.contains("1/3"),
        "{text}"
    );
    // the DRN file is read back as the same model: simulation both ways
    let mut out = Vec::new();
    simulate(&sim_args(drn.clone(), m.clone(), None), &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap().trim(), "holds");
    let mut out = Vec::new();
    simulate(&sim_args(m.clone(), drn, None), &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap().trim(), "holds");
    let args = ExportArgs {
        to: Some(ExportFormat::Lpts),
        output: None,
        ..args
    };
    let mut out = Vec::new();
    export(&args, &mut out).unwrap();
    let l = cove_prob::parse_lpts(&String::from_utf8(out).unwrap()).unwrap();
    assert_eq!(l.num_states(), 3);
}
