//! BTOR2: hand-written models with known answers, malformed input, and a differential test of
//! the bit-blaster against the word-level simulator (random expressions, widths 1..64 and a
//! few wider ones).

use cove_aig::btor2::{Model, parse_btor2};
use cove_aig::btor2_blast::Blasted;
use cove_aig::btor2_blast::{Btor2Verdict, blast, check};
use cove_aig::btor2_sim::{Bv, Frame, Val, Witness, check_witness, eval_all, parse_witness};
use cove_aig::driver::EngineChoice;
use cove_aig::driver::SolveConfig;
use cove_aig::{Control, lit_val};
use cove_testkit::Rng;
use cove_testkit::btor2::{BIN_OPS, UN_OPS, random_model, random_word};

fn data(name: &str) -> Model {
    let path = format!("{}/tests/data/btor2/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read(&path).expect("test data");
    parse_btor2(&src).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Model-checks `m` with the engine named `engine` (`threads` for the portfolio); the
/// validation must not have failed.
fn check_with(
    m: &Model,
    engine: &str,
    threads: usize,
    ctl: &Control,
) -> (Btor2Verdict, Option<Blasted>) {
    let mut engine = EngineChoice::parse(engine).expect("engine name");
    if let EngineChoice::Portfolio(p) = &mut engine {
        p.threads = threads;
    }
    let cfg = SolveConfig {
        engine,
        reduce: cove_aig::reduce::Options {
            merge_inputs: true,
            lcorr: false,
        },
        ..SolveConfig::default()
    };
    let (v, bl, validation) = check(m, &cfg, ctl);
    assert!(!validation.is_failed(), "validation failed: {validation}");
    (v, bl)
}

/// (file, expected: Some(bad index, frames) for unsafe, None for safe).
const CASES: &[(&str, Option<(usize, usize)>)] = &[
    ("counter_safe.btor2", None),
    ("counter_unsafe.btor2", Some((0, 11))),
    ("overflow_safe.btor2", None),
    ("overflow_unsafe.btor2", Some((0, 0))),
    ("shift_safe.btor2", None),
    ("shift_unsafe.btor2", Some((0, 5))),
    ("signed_safe.btor2", None),
    ("signed_unsafe.btor2", Some((0, 1))),
    ("init_expr_safe.btor2", None),
    ("init_expr_unsafe.btor2", Some((0, 1))),
    ("nonext_unsafe.btor2", Some((0, 3))),
    ("rotate_safe.btor2", None),
];

#[test]
fn hand_written_models_have_their_known_answers() {
    let ctl = Control::default();
    for &(name, expect) in CASES {
        let m = data(name);
        let engines: &[&str] = if expect.is_some() {
            &["ic3", "bmc", "kind", "portfolio"]
        } else {
            // k-induction alone does not prove the counters (not k-inductive for small k).
            &["ic3", "portfolio"]
        };
        for &e in engines {
            let (v, _) = check_with(&m, e, 2, &ctl);
            match (expect, &v) {
                (None, Btor2Verdict::Safe(_)) => {}
                (Some((bad, frames)), Btor2Verdict::Unsafe(w, text)) => {
                    // The printed witness reads back and replays on the word-level model.
                    let back = parse_witness(text).expect("witness parses");
                    assert_eq!(&back, w);
                    check_witness(&m, &back).expect("witness replays");
                    if bad > 0 || name != "signed_unsafe.btor2" {
                        assert_eq!(w.bad, bad, "{name} {e:?}");
                    }
                    // BMC finds the shortest counterexample; the others at most that depth + any.
                    if e == "bmc" && frames > 0 {
                        assert_eq!(w.frames.len(), frames, "{name} {e:?}");
                    }
                }
                _ => panic!("{name} with {e:?}: expected {expect:?}, got {v:?}"),
            }
        }
    }
}

#[test]
fn wrong_witnesses_are_rejected_by_the_simulator() {
    let m = data("counter_unsafe.btor2");
    let ctl = Control::default();
    let (v, _) = check_with(&m, "bmc", 1, &ctl);
    let Btor2Verdict::Unsafe(w, text) = v else {
        panic!("expected unsafe")
    };
    // One frame fewer: the counter is at 9, not 10.
    let mut short = w.clone();
    short.frames.pop();
    assert!(check_witness(&m, &short).is_err());
    assert!(parse_witness(&text.replace("b0", "b1")).is_ok_and(|w| check_witness(&m, &w).is_err()));
    let m = data("overflow_unsafe.btor2");
    let (v, _) = check_with(&m, "bmc", 1, &ctl);
    let Btor2Verdict::Unsafe(mut w, _) = v else {
        panic!("expected unsafe")
    };
    // An input above 60 violates the constraint.
    w.frames[0].inputs[0].1 = Bv::from_u64(8, 200);
    let err = check_witness(&m, &w).expect_err("constraint");
    assert!(err.contains("constraint"), "{err}");
}

#[test]
fn malformed_models_are_errors_with_positions() {
    let cases: &[(&str, usize, usize, &str, bool)] = &[
        ("1 sort bitvec 0\n", 1, 15, "at least 1", false),
        ("1 sort bitvec 99999999\n", 1, 15, "out of range", false),
        ("1 sort array 2 3\n", 1, 14, "not defined", false),
        (
            "1 sort bitvec 65\n2 sort bitvec 8\n3 sort array 1 2\n",
            3,
            14,
            "wider than 64",
            true,
        ),
        (
            "1 sort bitvec 2\n2 sort array 1 1\n3 input 2\n",
            3,
            9,
            "array inputs",
            true,
        ),
        (
            "1 sort bitvec 2\n2 sort array 1 1\n3 state 2\n4 add 1 3 3\n",
            4,
            9,
            "not arrays",
            false,
        ),
        (
            "1 sort bitvec 2\n2 sort array 1 1\n3 state 2\n4 read 2 3 3\n",
            4,
            8,
            "bit-vector sort",
            false,
        ),
        (
            "1 sort bitvec 2\n2 sort array 1 1\n3 state 2\n4 input 1\n5 read 1 4 4\n",
            5,
            10,
            "expected an array",
            false,
        ),
        (
            "1 sort bitvec 2\n2 sort array 1 1\n3 state 2\n4 input 1\n5 write 2 -3 4 4\n",
            5,
            11,
            "negated",
            false,
        ),
        (
            "1 sort bitvec 2\n2 sort bitvec 1\n3 sort array 1 1\n4 sort array 2 2\n\
             5 state 3\n6 state 4\n7 eq 2 5 6\n",
            7,
            10,
            "sort mismatch",
            false,
        ),
        (
            "1 sort bitvec 2\n2 sort array 1 1\n3 state 2\n4 input 1\n5 bad 3\n",
            5,
            7,
            "found an array",
            false,
        ),
        (
            "1 sort bitvec 4\n2 input 1\n3 add 1 2 4\n",
            3,
            11,
            "not defined",
            false,
        ),
        (
            "1 sort bitvec 4\n2 input 1\n2 input 1\n",
            3,
            1,
            "twice",
            false,
        ),
        (
            "1 sort bitvec 4\n2 sort bitvec 1\n3 input 1\n4 bad 3\n",
            4,
            7,
            "one-bit",
            false,
        ),
        (
            "1 sort bitvec 4\n2 sort bitvec 3\n3 input 1\n4 input 2\n5 add 1 3 4\n",
            5,
            11,
            "widths",
            false,
        ),
        (
            "1 sort bitvec 4\n2 input 1\n3 slice 1 2 4 0\n",
            3,
            13,
            "slice",
            false,
        ),
        ("1 sort bitvec 4\n2 const 1 10x1\n", 2, 11, "binary", false),
        ("1 sort bitvec 4\n2 constd 1 16\n", 2, 12, "fit", false),
        ("1 sort bitvec 4\n2 consth 1 1f\n", 2, 12, "fit", false),
        (
            "1 sort bitvec 1\n2 input 1\n3 justice 1 2\n",
            3,
            3,
            "liveness",
            true,
        ),
        (
            "1 sort bitvec 1\n2 input 1\n3 fair 2\n",
            3,
            3,
            "liveness",
            true,
        ),
        (
            "1 sort bitvec 1\n2 frobnicate 1\n",
            2,
            3,
            "unknown keyword",
            false,
        ),
        (
            "1 sort bitvec 1\n2 input 1\n3 init 1 2 2\n",
            3,
            10,
            "state",
            false,
        ),
        (
            "1 sort bitvec 1\n2 state 1\n3 next 1 2 2\n4 next 1 2 2\n",
            4,
            10,
            "second",
            false,
        ),
        (
            "1 sort bitvec 4\n2 state 1\n3 inc 1 2\n4 init 1 2 3\n",
            4,
            12,
            "cyclically",
            true,
        ),
        (
            "1 sort bitvec 4\n2 state 1\n3 input 1\n4 init 1 2 3\n",
            4,
            12,
            "inputs",
            true,
        ),
        ("0 sort bitvec 4\n", 1, 1, "positive", false),
        ("x sort bitvec 4\n", 1, 1, "integer", false),
        ("1 sort\n", 1, 7, "missing", false),
        (
            "1 sort bitvec 4\n2 input 1\n3 add 1 2\n",
            3,
            10,
            "missing",
            false,
        ),
        (
            "1 sort bitvec 4\n2 input 1 a b\n",
            2,
            13,
            "unexpected",
            false,
        ),
        (
            "1 sort bitvec 4\n2 input 1\n3 implies 1 2 2\n",
            3,
            13,
            "one-bit",
            false,
        ),
        (
            "1 sort bitvec 4\n2 input 1\n3 uext 1 2 1\n",
            3,
            8,
            "width",
            false,
        ),
        (
            "1 sort bitvec 4\n2 input 1\n3 eq 1 2 2\n",
            3,
            6,
            "width 1",
            false,
        ),
    ];
    for &(src, line, col, what, unsupported) in cases {
        match parse_btor2(src.as_bytes()) {
            Ok(_) => panic!("{src:?} should be rejected"),
            Err(e) => {
                assert!(
                    e.line == line
                        && e.col == col
                        && e.msg.contains(what)
                        && e.unsupported == unsupported,
                    "{src:?}: expected {line}:{col} '{what}' (unsupported {unsupported}), got {}:{} '{}' ({})",
                    e.line,
                    e.col,
                    e.msg,
                    e.unsupported
                );
            }
        }
    }
    let e = parse_btor2(b"1 sort bitvec 4\n2 in\xffput 1\n").expect_err("not UTF-8");
    assert_eq!((e.line, e.col), (2, 5), "{e}");
    assert!(e.msg.contains("UTF-8"));
    // Comments, blank lines, symbols and negative constants are fine.
    let ok =
        "; comment\n\n1 sort bitvec 4 ; trailing\n2 constd 1 -8\n3 consth 1 F\n4 input 1 in.x[3]\n";
    let m = parse_btor2(ok.as_bytes()).expect("valid");
    assert_eq!(m.nodes.len(), 3);
}

#[test]
fn mutated_models_never_panic() {
    let mut rng = Rng::from_state(0x9e37_79b9_7f4a_7c15);
    let ctl = Control::default().with_work_budget(20_000);
    for &(name, _) in CASES {
        let path = format!("{}/tests/data/btor2/{name}", env!("CARGO_MANIFEST_DIR"));
        let src = std::fs::read(&path).expect("test data");
        for _ in 0..150 {
            let mut s = src.clone();
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(s.len());
                match rng.below(4) {
                    0 => s[i] = b"0123456789 -\n;abx"[rng.below(17)],
                    1 => {
                        s.remove(i);
                    }
                    2 => s.insert(i, b"9-1 \n"[rng.below(5)]),
                    _ => s.truncate(i),
                }
                if s.is_empty() {
                    break;
                }
            }
            // Mutated widths can reach thousands of bits: only modest circuits are blasted.
            if let Ok(m) = parse_btor2(&s)
                && m.nodes.iter().all(|n| n.width <= 256)
            {
                // Blasting and replaying a random witness must not panic (the verdict of
                // the replay does not matter here).
                let _ = blast(&m, &ctl);
                let w = Witness {
                    bad: 0,
                    frames: (0..3)
                        .map(|_| Frame {
                            states: m
                                .states
                                .iter()
                                .enumerate()
                                .map(|(i, st)| (i, random_value(&mut rng, m.nodes[st.node].width)))
                                .collect(),
                            inputs: m
                                .inputs
                                .iter()
                                .enumerate()
                                .map(|(i, x)| (i, random_value(&mut rng, m.nodes[x.node].width)))
                                .collect(),
                            ..Frame::default()
                        })
                        .collect(),
                };
                let _ = check_witness(&m, &w);
            }
        }
    }
}

fn random_value(rng: &mut Rng, w: u32) -> Bv {
    Bv::from_bits(&random_word(rng, w))
}

/// Compares the word-level simulator with the blasted circuit on `rounds` random models.
fn differential(seed: u64, rounds: usize, max_w: u32) {
    let mut rng = Rng::from_state(seed);
    let mut models = Rng::new(seed);
    let ctl = Control::default();
    for round in 0..rounds {
        let text = random_model(&mut models, max_w);
        let m = parse_btor2(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let bl = blast(&m, &ctl).expect("blast");
        for _ in 0..4 {
            let mut vals = vec![None; m.nodes.len()];
            let mut aig_in = vec![false; bl.aig.inputs.len()];
            for (i, inp) in m.inputs.iter().enumerate() {
                let v = random_value(&mut rng, m.nodes[inp.node].width);
                for (k, &pos) in bl.input_bits[i].iter().enumerate() {
                    aig_in[pos] = v.bit(k as u32);
                }
                vals[inp.node] = Some(Val::Bv(v));
            }
            eval_all(&m, &mut vals).expect("eval");
            let av = bl.aig.eval_step(&[], &aig_in);
            for (o, &a) in m.outputs.iter().enumerate() {
                let mut want = vals[a.node]
                    .as_ref()
                    .and_then(Val::bv)
                    .expect("value")
                    .clone();
                if a.neg {
                    want = want.not();
                }
                let got = Bv::from_fn(want.width(), |i| lit_val(&av, bl.outputs[o][i as usize]));
                if got != want {
                    let line = text
                        .lines()
                        .filter(|l| !l.contains(" sort "))
                        .collect::<Vec<_>>();
                    panic!(
                        "round {round}, output {o} (node {}): simulator {} vs circuit {}\n{}",
                        m.nodes[a.node].id,
                        want.to_binary(),
                        got.to_binary(),
                        line.join("\n")
                    );
                }
            }
        }
    }
}

#[test]
fn bit_blaster_agrees_with_the_word_level_simulator() {
    differential(0x1234_5678_9abc_def1, 150, 64);
}

#[test]
fn bit_blaster_agrees_on_wide_words() {
    // Widths up to 160: the simulator's multi-limb arithmetic against the circuit.
    differential(0x0fed_cba9_8765_4321, 25, 160);
}

#[test]
fn every_operator_on_every_width_up_to_64() {
    // One model per width: every binary and unary operator on two inputs, all outputs.
    let ctl = Control::default();
    let mut rng = Rng::from_state(77);
    for w in 1..=64u32 {
        let mut s = format!("1 sort bitvec {w}\n2 sort bitvec 1\n3 input 1 a\n4 input 1 b\n");
        let mut id = 4;
        for op in BIN_OPS {
            let pred = !matches!(
                *op,
                "add"
                    | "sub"
                    | "mul"
                    | "udiv"
                    | "urem"
                    | "sdiv"
                    | "srem"
                    | "smod"
                    | "and"
                    | "or"
                    | "xor"
                    | "nand"
                    | "nor"
                    | "xnor"
                    | "sll"
                    | "srl"
                    | "sra"
                    | "rol"
                    | "ror"
            );
            s.push_str(&format!(
                "{} {op} {} 3 4\n{} output {}\n",
                id + 1,
                if pred { 2 } else { 1 },
                id + 2,
                id + 1
            ));
            id += 2;
        }
        for op in UN_OPS {
            let red = op.starts_with("red");
            s.push_str(&format!(
                "{} {op} {} 3\n{} output {}\n",
                id + 1,
                if red { 2 } else { 1 },
                id + 2,
                id + 1
            ));
            id += 2;
        }
        let m = parse_btor2(s.as_bytes()).expect("valid");
        let bl = blast(&m, &ctl).expect("blast");
        for _ in 0..40 {
            let (x, y) = (random_value(&mut rng, w), random_value(&mut rng, w));
            let mut vals = vec![None; m.nodes.len()];
            vals[m.inputs[0].node] = Some(Val::Bv(x.clone()));
            vals[m.inputs[1].node] = Some(Val::Bv(y.clone()));
            eval_all(&m, &mut vals).expect("eval");
            let mut aig_in = vec![false; bl.aig.inputs.len()];
            for k in 0..w {
                aig_in[bl.input_bits[0][k as usize]] = x.bit(k);
                aig_in[bl.input_bits[1][k as usize]] = y.bit(k);
            }
            let av = bl.aig.eval_step(&[], &aig_in);
            for (o, a) in m.outputs.iter().enumerate() {
                let want = vals[a.node]
                    .as_ref()
                    .and_then(Val::bv)
                    .expect("value")
                    .clone();
                let got = Bv::from_fn(want.width(), |i| lit_val(&av, bl.outputs[o][i as usize]));
                assert_eq!(
                    got,
                    want,
                    "width {w}, output {o}, a={} b={}",
                    x.to_binary(),
                    y.to_binary()
                );
            }
        }
    }
}

#[test]
fn simulator_follows_smt_lib_on_known_values() {
    let b = |w: u32, v: i64| Bv::from_u64(w, v as u64);
    use cove_aig::btor2::BinOp::*;
    // Division by zero.
    assert_eq!(b(8, 7).bin(Udiv, &b(8, 0)), b(8, 255));
    assert_eq!(b(8, 7).bin(Urem, &b(8, 0)), b(8, 7));
    assert_eq!(b(8, -7).bin(Sdiv, &b(8, 0)), b(8, 1));
    assert_eq!(b(8, 7).bin(Sdiv, &b(8, 0)), b(8, -1));
    assert_eq!(b(8, -7).bin(Srem, &b(8, 0)), b(8, -7));
    assert_eq!(b(8, -7).bin(Smod, &b(8, 0)), b(8, -7));
    // Signs.
    assert_eq!(b(8, -7).bin(Sdiv, &b(8, 2)), b(8, -3));
    assert_eq!(b(8, -7).bin(Srem, &b(8, 2)), b(8, -1));
    assert_eq!(b(8, -7).bin(Smod, &b(8, 2)), b(8, 1));
    assert_eq!(b(8, 7).bin(Smod, &b(8, -2)), b(8, -1));
    assert_eq!(b(8, -128).bin(Sdiv, &b(8, -1)), b(8, -128));
    // Overflow predicates.
    assert_eq!(b(8, -128).bin(Sdivo, &b(8, -1)), b(1, 1));
    assert_eq!(b(8, 200).bin(Uaddo, &b(8, 56)), b(1, 1));
    assert_eq!(b(8, 200).bin(Uaddo, &b(8, 55)), b(1, 0));
    assert_eq!(b(8, 127).bin(Saddo, &b(8, 1)), b(1, 1));
    assert_eq!(b(8, 3).bin(Usubo, &b(8, 4)), b(1, 1));
    assert_eq!(b(8, -128).bin(Ssubo, &b(8, 1)), b(1, 1));
    assert_eq!(b(8, 16).bin(Umulo, &b(8, 16)), b(1, 1));
    assert_eq!(b(8, 15).bin(Umulo, &b(8, 17)), b(1, 0));
    assert_eq!(b(8, -16).bin(Smulo, &b(8, 8)), b(1, 0));
    assert_eq!(b(8, 16).bin(Smulo, &b(8, 8)), b(1, 1));
    assert_eq!(b(1, 1).bin(Smulo, &b(1, 1)), b(1, 1));
    // Shifts and rotations.
    assert_eq!(b(8, 0x81).bin(Sra, &b(8, 9)), b(8, -1));
    assert_eq!(b(8, 0x81).bin(Rol, &b(8, 9)), b(8, 0x03));
    assert_eq!(b(6, 0b000011).bin(Ror, &b(6, 7)), b(6, 0b100001));
    // Wide values go through the multi-limb code.
    let big = Bv::from_fn(100, |i| i == 99);
    assert_eq!(big.bin(Sdiv, &Bv::from_fn(100, |_| true)), big);
    assert_eq!(big.bin(Sdivo, &Bv::from_fn(100, |_| true)), b(1, 1));
}

#[test]
fn families_agree_with_their_independently_built_aiger_versions() {
    // scripts/btor2/gen_families.py writes each design as BTOR2 and as gate-level AIGER.
    let dir = format!("{}/tests/data/btor2/families", env!("CARGO_MANIFEST_DIR"));
    let list = std::fs::read_to_string(format!("{dir}/expected.tsv")).expect("list");
    let ctl = Control::default();
    for line in list.lines() {
        let (name, expected) = line.split_once('\t').expect("name<TAB>expected");
        let m = parse_btor2(&std::fs::read(format!("{dir}/{name}.btor2")).expect("btor2"))
            .expect("valid btor2");
        let aig = cove_aig::parse_aiger(&std::fs::read(format!("{dir}/{name}.aag")).expect("aag"))
            .expect("valid aag");
        let (v, _) = check_with(&m, "ic3", 1, &ctl);
        let w = cove_aig::driver::check(&aig, &EngineChoice::parse("ic3").unwrap(), &ctl);
        let got = match (&v, &w) {
            (Btor2Verdict::Safe(_), cove_aig::Verdict::Safe(_)) => "safe",
            (Btor2Verdict::Unsafe(..), cove_aig::Verdict::Unsafe(_)) => "unsafe",
            _ => panic!("{name}: btor2 {v:?} vs aiger {w:?}"),
        };
        assert_eq!(got, expected, "{name}");
    }
}
