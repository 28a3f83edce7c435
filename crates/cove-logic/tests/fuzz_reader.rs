//! Mutation fuzzing of the SMT-LIB2 reader: random and mutated inputs must give a result or
//! a located error, never a panic. The default run is short; set `COVE_FUZZ_SECS` for a
//! longer campaign (`COVE_FUZZ_SECS=300 cargo test --release -p cove-logic --test fuzz_reader
//! -- --nocapture`).

use cove_logic::TermStore;
use cove_logic::print::term_to_string;
use cove_logic::smtlib::{Command, Dialect, Parser};
use cove_testkit::Rng;
use cove_testkit::fuzz::{
    delete_run, duplicate_run, fuzz_secs, insert_from_seed, insert_random_bytes, insert_token,
    overwrite_byte, random_bytes,
};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

const SEEDS: &[&str] = &[
    "(set-logic HORN)\n(declare-fun P (Int Real) Bool)\n(assert (forall ((x Int) (y Real)) (=> (and (P x y) (> x 0)) (P (+ x 1) (/ y 2.5)))))\n(assert (forall ((x Int) (y Real)) (=> (P x y) false)))\n(check-sat)\n(exit)\n",
    "(set-logic QF_LIRA)\n(declare-const x Int)(declare-const r Real)(define-fun f ((a Int) (b Real)) Bool (< (to_real a) b))\n(assert (! (f x r) :named n1))\n(assert (let ((z (- x)) (w (* 2 r))) (ite (= z 3) (distinct z x 4) (xor (f z w) (is_int r)))))\n(push 1)(assert (= (div x 2) (mod x 3) (abs (to_int r))))(pop 1)\n(check-sat-assuming (n1))(get-value (x r))(echo \"hi\"\"x\")\n",
    "(declare-rel R (Int Int))\n(declare-rel Err ())\n(declare-var a Int)\n(declare-var b Int)\n(rule (R 0 0) r0)\n(rule (=> (and (R a b) (< a 10)) (R (+ a 1) (+ b 2))))\n(rule (=> (and (R a b) (> b 20)) Err))\n(query Err :print-certificate true)\n(query R)\n",
    "; comment\n(set-info :source |multi\nline|)(set-option :x 1.5)(declare-fun |weird name| () Int)(assert (exists ((q Int)) (forall ((z Int)) (or (<= |weird name| q z 7) (>= (- 5) z)))))",
    "(declare-const b (_ BitVec 8))(assert (= #x0F #b1010))(declare-datatypes ((L 0)) (((nil))))(assert (select a 1))(assert \"str\")(assert ((_ extract 3 0) b))",
];

const TOKENS: &[&str] = &[
    "(",
    ")",
    "((",
    "))",
    "|",
    "\"",
    ";",
    "#x",
    ":named",
    " ",
    "\n",
    "\r\n",
    "\t",
    "0",
    "1.5",
    "-",
    "(- 1)",
    "x",
    "let",
    "forall",
    "exists",
    "!",
    "_",
    "as",
    "Int",
    "Real",
    "Bool",
    "Array",
    "and",
    "=>",
    "ite",
    "=",
    "<=",
    "(let ((x 1)) ",
    "(forall ((x Int)) ",
    "\u{e9}",
    "\u{ff}",
    "99999999999999999999",
];

fn mutate(rng: &mut Rng, input: &[u8], seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(6) {
        let len = v.len();
        match rng.below(8) {
            0 if len > 0 => overwrite_byte(rng, &mut v),
            1 => insert_token(rng, &mut v, TOKENS),
            2 if len > 0 => delete_run(rng, &mut v, 32),
            3 if len > 0 => duplicate_run(rng, &mut v, 64),
            4 => insert_from_seed(rng, &mut v, seeds, 200),
            5 if len > 0 => v.truncate(rng.below(len)),
            6 => insert_random_bytes(rng, &mut v, 16),
            _ => {
                if let Some(i) = (0..len).find(|&i| v[i] == b'(') {
                    v.insert(i, b'(');
                }
            }
        }
    }
    v
}

/// Parses `src` in `dialect`; checks error positions are inside the input and that every
/// asserted term prints.
fn check(src: &[u8], dialect: Dialect) {
    let mut store = TermStore::new();
    let lines = src.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    let Ok(mut p) = Parser::new(src, &mut store, dialect).map_err(|e| assert!(e.line <= lines))
    else {
        return;
    };
    loop {
        match p.next_command() {
            Ok(None) => break,
            Ok(Some((Command::Assert { term, .. }, _))) => {
                let _ = term_to_string(p.store_ref(), term);
            }
            Ok(Some(_)) => {}
            Err(e) => {
                assert!(
                    e.line >= 1 && e.line <= lines && e.col >= 1,
                    "position {}:{} outside the input",
                    e.line,
                    e.col
                );
                assert!(!e.message.is_empty());
                break;
            }
        }
    }
}

pub fn fuzz(secs: f64, seed: u64) -> (u64, Duration) {
    let seeds: Vec<Vec<u8>> = SEEDS.iter().map(|s| s.as_bytes().to_vec()).collect();
    let mut rng = Rng::from_state(seed);
    let start = Instant::now();
    let mut n = 0u64;
    let mut current = seeds[0].clone();
    while start.elapsed().as_secs_f64() < secs {
        let input = if rng.below(20) == 0 {
            random_bytes(&mut rng, 200)
        } else {
            if rng.below(8) == 0 {
                current = seeds[rng.below(seeds.len())].clone();
            }
            let m = mutate(&mut rng, &current, &seeds);
            if m.len() < 20_000 && rng.below(3) == 0 {
                current = m.clone();
            }
            m
        };
        for dialect in [Dialect::Smt, Dialect::Chc] {
            if catch_unwind(AssertUnwindSafe(|| check(&input, dialect))).is_err() {
                panic!(
                    "the reader panicked on input {:?}",
                    String::from_utf8_lossy(&input)
                );
            }
        }
        n += 1;
    }
    (n, start.elapsed())
}

#[test]
fn reader_never_panics() {
    let (n, t) = fuzz(fuzz_secs(3.0), 0x1234_5678_9ABC_DEF1);
    println!("fuzzed the reader with {n} inputs in {t:?}, no panic");
}
