//! Mutation fuzzing of the SMT-LIB2 reader: random and mutated inputs must give a result or
//! a located error, never a panic. The default run is short; set `COVE_FUZZ_SECS` for a
//! longer campaign (`COVE_FUZZ_SECS=300 cargo test --release -p cove-logic --test fuzz_reader
//! -- --nocapture`).

use cove_logic::TermStore;
use cove_logic::print::term_to_string;
use cove_logic::smtlib::{Command, Dialect, Parser};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

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
            0 if len > 0 => {
                let i = rng.below(len);
                v[i] = rng.next() as u8;
            }
            1 => {
                let i = rng.below(len + 1);
                let t = TOKENS[rng.below(TOKENS.len())].as_bytes();
                v.splice(i..i, t.iter().copied());
            }
            2 if len > 0 => {
                let i = rng.below(len);
                let j = (i + 1 + rng.below(32)).min(len);
                v.drain(i..j);
            }
            3 if len > 0 => {
                let i = rng.below(len);
                let j = (i + 1 + rng.below(64)).min(len);
                let chunk = v[i..j].to_vec();
                let k = rng.below(len + 1);
                v.splice(k..k, chunk);
            }
            4 => {
                let other = &seeds[rng.below(seeds.len())];
                if !other.is_empty() {
                    let i = rng.below(other.len());
                    let j = (i + 1 + rng.below(200)).min(other.len());
                    let k = rng.below(len + 1);
                    v.splice(k..k, other[i..j].iter().copied());
                }
            }
            5 if len > 0 => v.truncate(rng.below(len)),
            6 => {
                let n = rng.below(16);
                let i = rng.below(len + 1);
                v.splice(i..i, (0..n).map(|_| rng.next() as u8));
            }
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
    let mut rng = Rng(seed);
    let start = Instant::now();
    let mut n = 0u64;
    let mut current = seeds[0].clone();
    while start.elapsed().as_secs_f64() < secs {
        let input = if rng.below(20) == 0 {
            (0..rng.below(200)).map(|_| rng.next() as u8).collect()
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
    let secs = std::env::var("COVE_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3.0);
    let (n, t) = fuzz(secs, 0x1234_5678_9ABC_DEF1);
    println!("fuzzed the reader with {n} inputs in {t:?}, no panic");
}
