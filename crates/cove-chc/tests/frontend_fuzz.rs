//! Mutation fuzzing of the CHC front end over small benchmark files and hand-written seeds:
//! no panic; every accepted system satisfies the representation invariants and prints to a
//! script that reads back to the same printed system. `COVE_FUZZ_SECS` sets the duration.

use cove_chc::frontend::parse_chc;
use cove_chc::print::system_to_smtlib;
use cove_logic::TermStore;
use cove_testkit::Rng;
use cove_testkit::fuzz::{
    balanced_span, delete_run, duplicate_run, fuzz_secs, insert_from_seed, insert_token,
    overwrite_byte,
};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::Instant;

mod common;

const SEEDS: &[&str] = &[
    "(set-logic HORN)\n(declare-fun P (Int) Bool)\n(declare-fun Q (Int Real) Bool)\n(assert (forall ((x Int) (y Real)) (=> (and (P x) (exists ((z Int)) (Q z y)) (or (> x 0) (< y 1.5))) (Q (+ x 1) (* 2 y)))))\n(assert (forall ((x Int)) (=> (ite (> x 0) (P x) (Q x 0.0)) (P (- x)))))\n(assert (forall ((x Int)) (not (and (P x) (< x (- 3))))))\n(check-sat)\n",
    "(declare-rel R (Int Int))\n(declare-rel Err ())\n(declare-var a Int)\n(declare-var b Int)\n(rule (R 0 0))\n(rule (=> (and (R a b) (< a 10)) (R (+ a 1) (+ b 2))) s)\n(rule (=> (and (R a b) (> b 20)) Err))\n(query Err)\n(query R)\n",
    "(set-logic HORN)(declare-fun I (Int Int) Bool)(define-fun init ((x Int) (y Int)) Bool (and (= x 0) (= y 0)))\n(assert (forall ((x Int) (y Int)) (=> (init x y) (I x y))))\n(assert (forall ((x Int) (y Int) (x1 Int)) (let ((d (+ x y))) (=> (and (I x y) (= x1 d)) (I x1 (+ y 1))))))\n(push 1)(assert (forall ((x Int) (y Int)) (=> (and (I x y) (> y x)) false)))(pop 1)\n",
];

const TOKENS: &[&str] = &[
    "(",
    ")",
    "(not ",
    "(and ",
    "(or ",
    "(=> ",
    "(exists ((e Int)) ",
    "(forall ((x Int)) ",
    "(ite ",
    "(= ",
    "true",
    "false",
    "(P x)",
    "(P 1)",
    " x",
    " 0",
    " 1.5",
    "(- 1)",
    "|",
    "\"",
    ";",
    "\n",
    "#b",
    "Int",
    "Real",
    "Bool",
    "(let ((x 1)) ",
    "(! ",
    " :named n",
];

fn mutate(rng: &mut Rng, input: &[u8], seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(3) {
        let len = v.len();
        if rng.below(2) == 0 {
            // Structure-preserving: replace a balanced subterm by one from any seed.
            let other = if rng.below(4) == 0 {
                &seeds[rng.below(seeds.len())]
            } else {
                &v.clone()
            };
            if let (Some((i, j)), Some((k, l))) =
                (balanced_span(rng, &v), balanced_span(rng, other))
                && l - k < 2000
            {
                v.splice(i..j, other[k..l].iter().copied());
            }
            continue;
        }
        match rng.below(6) {
            0 if len > 0 => overwrite_byte(rng, &mut v),
            1 | 2 => insert_token(rng, &mut v, TOKENS),
            3 if len > 0 => delete_run(rng, &mut v, 24),
            4 => insert_from_seed(rng, &mut v, seeds, 120),
            _ if len > 0 => duplicate_run(rng, &mut v, 64),
            _ => {}
        }
    }
    v
}

/// Checks one input; true if it was accepted.
fn check(src: &[u8]) -> bool {
    let mut store = TermStore::new();
    let r = parse_chc(src, &mut store);
    if let Ok(sys) = &r {
        common::check_representation(sys, &store);
        let text = system_to_smtlib(sys, &store);
        let mut store2 = TermStore::new();
        let sys2 = parse_chc(text.as_bytes(), &mut store2)
            .unwrap_or_else(|e| panic!("reprint does not parse: {e}\n{text}"));
        assert_eq!(sys.clauses.len(), sys2.clauses.len());
        assert_eq!(text, system_to_smtlib(&sys2, &store2));
    }
    r.is_ok()
}

fn shared_seeds() -> Vec<Vec<u8>> {
    let mut dir = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
    let shared: Option<PathBuf> = loop {
        if dir.join("shared/bench/chc.tsv").is_file() {
            break Some(dir.join("shared"));
        }
        if !dir.pop() {
            break std::env::var("COVE_SHARED_DIR").ok().map(PathBuf::from);
        }
    };
    let Some(shared) = shared else { return vec![] };
    let Ok(manifest) = std::fs::read_to_string(shared.join("bench/chc.tsv")) else {
        return vec![];
    };
    manifest
        .lines()
        .filter_map(|l| l.split('\t').nth(1))
        .filter_map(|p| std::fs::read(shared.join("bench").join(p)).ok())
        .filter(|b| b.len() < 4000)
        .collect()
}

#[test]
fn front_end_never_panics() {
    let secs = fuzz_secs(3.0);
    let mut seeds: Vec<Vec<u8>> = SEEDS.iter().map(|s| s.as_bytes().to_vec()).collect();
    seeds.extend(shared_seeds());
    let mut rng = Rng::from_state(0xC0FF_EE12_3456_789B);
    let start = Instant::now();
    let (mut n, mut accepted) = (0u64, 0u64);
    while start.elapsed().as_secs_f64() < secs {
        let base = &seeds[rng.below(seeds.len())];
        let input = mutate(&mut rng, base, &seeds);
        match catch_unwind(AssertUnwindSafe(|| check(&input))) {
            Ok(ok) => accepted += u64::from(ok),
            Err(_) => panic!("failure on input {:?}", String::from_utf8_lossy(&input)),
        }
        n += 1;
    }
    println!(
        "fuzzed the CHC front end with {n} inputs ({accepted} accepted) from {} seeds in {:?}, no panic",
        seeds.len(),
        start.elapsed()
    );
}
