//! BTOR2 with arrays (memories): the generated manifest's known answers with checked
//! witnesses and proofs, the witness format's array cells, mutated array models, and a
//! differential test of the bit-blaster's reads and writes against the word-level simulator.

use cove_aig::btor2::parse_btor2;
use cove_aig::btor2_blast::{Btor2Verdict, blast, check};
use cove_aig::btor2_sim::{Bv, Mem, Val, check_witness, eval_all, format_witness, parse_witness};
use cove_aig::driver::SolveConfig;
use cove_aig::{Control, lit_val};
use cove_testkit::Rng;
use cove_testkit::btor2::random_memory_model;

fn dir() -> String {
    format!("{}/tests/data/btor2/memories", env!("CARGO_MANIFEST_DIR"))
}

/// The manifest's lines: (file, expected `sat`/`unsat`).
fn manifest() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(format!("{}/memories.tsv", dir())).expect("manifest");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[1].to_string(), f[2].to_string())
        })
        .collect()
}

#[test]
fn generated_memories_have_their_known_answers() {
    let rows = manifest();
    assert!(rows.len() >= 20, "the manifest lists the generated designs");
    // Bounded by work, not time: every design here is decided in a few thousand units.
    let ctl = Control::default().with_work_budget(2_000_000);
    let mut blasted = 0;
    for (file, expected) in rows {
        let src = std::fs::read(format!("{}/{file}", dir())).expect("design");
        let m = parse_btor2(&src).unwrap_or_else(|e| panic!("{file}: {e}"));
        if m.unblastable_array().is_some() {
            // Decided over the theory of arrays (the facade's route, its own test).
            continue;
        }
        blasted += 1;
        let (v, _, validation) = check(&m, &SolveConfig::default(), &ctl);
        assert!(validation.is_valid(), "{file}: {validation}");
        match (&v, expected.as_str()) {
            (Btor2Verdict::Unsafe(w, text), "sat") => {
                // The printed witness reads back to the same witness and replays.
                let back = parse_witness(text).expect("witness reads back");
                check_witness(&m, &back).unwrap_or_else(|e| panic!("{file}: {e}"));
                assert_eq!(back.bad, w.bad);
            }
            (Btor2Verdict::Safe(_), "unsat") => {}
            _ => panic!("{file}: expected {expected}, got {v:?}"),
        }
    }
    assert!(blasted >= 20, "the small designs are bit-blasted");
}

#[test]
fn witnesses_give_memory_cells_and_wrong_cells_are_rejected() {
    let src = std::fs::read(format!("{}/uninit_4_8.btor2", dir())).expect("design");
    let m = parse_btor2(&src).unwrap();
    let (v, _, _) = check(&m, &SolveConfig::default(), &Control::default());
    let Btor2Verdict::Unsafe(_, text) = v else {
        panic!("unsafe expected")
    };
    // The last cell of the uninitialised memory is all ones, given as `0 [1111] 11111111`.
    assert!(text.contains("0 [1111] 11111111 mem#0"), "{text}");
    let w = parse_witness(&text).unwrap();
    assert_eq!(w.frames[0].cells.len(), 1);
    assert!(check_witness(&m, &w).is_ok());
    // Another cell, or a wrong value: the bad state is not reached.
    let other = text.replace("[1111]", "[0111]");
    assert!(check_witness(&m, &parse_witness(&other).unwrap()).is_err());
    let wrong = text.replace("[1111] 11111111", "[1111] 11111110");
    assert!(check_witness(&m, &parse_witness(&wrong).unwrap()).is_err());
    let bad_width = text.replace("[1111]", "[111]");
    assert!(check_witness(&m, &parse_witness(&bad_width).unwrap()).is_err());
    // Printing the parsed witness gives the same text.
    assert_eq!(format_witness(&m, &w), text);
}

#[test]
fn bit_blasted_reads_and_writes_agree_with_the_simulator() {
    let mut rng = Rng::new(0x5eed_f00d_1234_9876);
    let ctl = Control::default();
    for round in 0..200 {
        let text = random_memory_model(&mut rng, &[1, 2, 3, 4], 1);
        let m = parse_btor2(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let bl = blast(&m, &ctl).expect("blast");
        for _ in 0..4 {
            let mut vals = vec![None; m.nodes.len()];
            let mut aig_in = vec![false; bl.aig.inputs.len()];
            let mut latches = vec![false; bl.aig.latches.len()];
            let random = |rng: &mut Rng, w: u32| {
                Bv::from_bits(&(0..w).map(|_| rng.below_u64(2) == 1).collect::<Vec<_>>())
            };
            for (i, inp) in m.inputs.iter().enumerate() {
                let v = random(&mut rng, m.nodes[inp.node].width);
                for (k, &pos) in bl.input_bits[i].iter().enumerate() {
                    aig_in[pos] = v.bit(k as u32);
                }
                vals[inp.node] = Some(Val::Bv(v));
            }
            for (si, st) in m.states.iter().enumerate() {
                let v = random(&mut rng, m.nodes[st.node].width);
                for (k, &pos) in bl.state_bits[si].iter().enumerate() {
                    latches[pos] = v.bit(k as u32);
                }
                vals[st.node] = Some(match m.nodes[st.node].array {
                    Some(sort) => Val::Mem(Mem::from_word(sort, &v)),
                    None => Val::Bv(v),
                });
            }
            eval_all(&m, &mut vals).expect("eval");
            let av = bl.aig.eval_step(&latches, &aig_in);
            for (o, &a) in m.outputs.iter().enumerate() {
                let want = vals[a.node]
                    .as_ref()
                    .and_then(Val::bv)
                    .expect("value")
                    .clone();
                let got = Bv::from_fn(want.width(), |i| lit_val(&av, bl.outputs[o][i as usize]));
                assert_eq!(got, want, "round {round}, output {o}\n{text}");
            }
        }
    }
}

#[test]
fn mutated_memory_models_never_panic() {
    let mut rng = Rng::new(0x0dd_ba11_cafe_f00d);
    let ctl = Control::default().with_work_budget(20_000);
    for (file, _) in manifest()
        .into_iter()
        .filter(|(f, _)| !f.starts_with("uninit_1"))
    {
        let src = std::fs::read(format!("{}/{file}", dir())).expect("design");
        for _ in 0..40 {
            let mut s = src.clone();
            for _ in 0..1 + rng.below_u64(4) {
                let i = rng.below_u64(s.len() as u64) as usize;
                match rng.below_u64(4) {
                    0 => s[i] = b"0123456789 -\n;abx"[rng.below_u64(17) as usize],
                    1 => {
                        s.remove(i);
                    }
                    2 => s.insert(i, b"9-1 \n"[rng.below_u64(5) as usize]),
                    _ => s.truncate(i),
                }
                if s.is_empty() {
                    break;
                }
            }
            match parse_btor2(&s) {
                Err(e) => assert!(e.line >= 1 && e.col >= 1, "{e}"),
                Ok(m) if m.nodes.iter().all(|n| n.width <= 4096) => {
                    let _ = check(&m, &SolveConfig::default(), &ctl);
                }
                Ok(_) => {}
            }
        }
    }
}

/// A memory of 2^32 cells: read (the bit-blaster declines it), simulated sparsely, and its
/// witnesses given by cells and by a default (`[*]`).
#[test]
fn large_memories_are_simulated_sparsely() {
    // Written at an input address with an input value; bad when cell 0xffffffff holds 5.
    let src = "1 sort bitvec 32\n2 sort bitvec 8\n3 sort array 1 2\n4 sort bitvec 1\n\
               5 state 3 mem\n6 input 1 addr\n7 input 2 data\n8 write 3 5 6 7\n\
               9 next 3 5 8\n10 ones 1\n11 read 2 5 10\n12 constd 2 5\n13 eq 4 11 12\n\
               14 bad 13\n";
    let m = parse_btor2(src.as_bytes()).expect("a 2^32-cell memory is read");
    let ctl = Control::default();
    assert!(m.unblastable_array().is_some());
    assert!(blast(&m, &ctl).is_err(), "too large to blast");
    let (v, _, _) = check(&m, &SolveConfig::default(), &ctl);
    assert!(matches!(v, Btor2Verdict::Unknown(_)), "{v:?}");
    let inputs = "@0\n0 11111111111111111111111111111111 addr@0\n1 00000101 data@0\n";
    // Uninitialised: the cell in frame 0 …
    let at_start =
        format!("sat\nb0\n#0\n0 [11111111111111111111111111111111] 00000101 mem#0\n{inputs}.\n");
    assert!(check_witness(&m, &parse_witness(&at_start).unwrap()).is_ok());
    // … or every cell, by the default …
    let default = format!("sat\nb0\n#0\n0 [*] 00000101 mem#0\n{inputs}.\n");
    assert!(check_witness(&m, &parse_witness(&default).unwrap()).is_ok());
    // … or written at step 0 and read at step 1.
    let zeros = "@1\n0 00000000000000000000000000000000\n1 00000000\n";
    let written = format!("sat\nb0\n#0\n{inputs}{zeros}.\n");
    let w = parse_witness(&written).unwrap();
    assert!(check_witness(&m, &w).is_ok());
    // Another cell written, or another value: not reached.
    let elsewhere = written.replacen(
        "0 11111111111111111111111111111111",
        "0 11111111111111111111111111111110",
        1,
    );
    assert!(check_witness(&m, &parse_witness(&elsewhere).unwrap()).is_err());
    // A state with a next-state function cannot be given another value in a later frame.
    let forced = format!(
        "sat\nb0\n#0\n{}#1\n0 [11111111111111111111111111111111] 00000101 mem#1\n{zeros}.\n",
        zeros.replace("@1", "@0")
    );
    let e = check_witness(&m, &parse_witness(&forced).unwrap()).expect_err("forced state");
    assert!(e.contains("next-state function"), "{e}");
    // Extensionality over the sparse representation: a memory of two cells listing both.
    let sort = cove_aig::btor2::ArraySort { index: 1, elem: 4 };
    let mut a = Mem::constant(sort, Bv::from_u64(4, 3));
    a.write(Bv::from_u64(1, 0), Bv::from_u64(4, 7));
    a.write(Bv::from_u64(1, 1), Bv::from_u64(4, 7));
    assert!(a.same(&Mem::constant(sort, Bv::from_u64(4, 7))));
    assert!(!a.same(&Mem::constant(sort, Bv::from_u64(4, 3))));
}
