//! Incremental vs from-scratch solving of a script with many questions, side by side in
//! one run: each file is replayed on a [`Session`] (facts and lemmas reused between
//! questions), and each of its questions is also solved from scratch by the driver (what
//! `cove solve` does with such a file). Prints one line per question and the totals; exits
//! with status 1 if the two modes ever give opposite definite answers.
//!
//! ```sh
//! cargo run --release -p cove --example incremental -- \
//!     [--engine NAME] [--timeout SECS] [--rounds N] examples/incremental/*.smt2
//! ```
//!
//! `--timeout` is per question (default 30 s); `--rounds` repeats both modes and keeps each
//! question's fastest time (default 1).

use cove::chc::session::{Session, SolveRequest};
use cove::{Control, TermStore, parse_queries};
use std::time::{Duration, Instant};

fn main() {
    let mut opts = SolveRequest {
        engine: "spacer".into(),
        timeout: Some(Duration::from_secs(30)),
        ..SolveRequest::default()
    };
    let mut rounds = 1usize;
    let mut files = vec![];
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--engine" => opts.engine = args.next().expect("--engine NAME"),
            "--timeout" => {
                let s: f64 = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .expect("--timeout SECS");
                opts.timeout = Some(Duration::from_secs_f64(s));
            }
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .expect("--rounds N")
            }
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        files = vec![
            "examples/incremental/token-assertions.smt2".into(),
            "examples/incremental/loop-growing.smt2".into(),
        ];
    }
    let config = opts.config().unwrap_or_else(|e| panic!("{e}"));
    let (mut total_inc, mut total_scratch) = (Duration::ZERO, Duration::ZERO);
    let mut disagreements = 0;
    println!(
        "engine {}, timeout {:?} per question, {rounds} round(s)",
        opts.engine,
        opts.timeout.unwrap()
    );
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut best_inc: Vec<(Duration, String, String)> = vec![];
        let mut best_scratch: Vec<(Duration, String)> = vec![];
        for _ in 0..rounds {
            // Incremental: one session for the whole script.
            let mut session = Session::new();
            let inc = session
                .replay(&text, |s| {
                    let ctl = opts.control(Default::default());
                    let t = Instant::now();
                    let out = s.solve(&config, &ctl);
                    let how = s.last_reuse().answered_by.unwrap_or("engine").to_string();
                    (t.elapsed(), out.answer.verdict().to_string(), how)
                })
                .unwrap_or_else(|e| panic!("{path}: {e}"));
            // From scratch: every question on its own.
            let mut store = TermStore::new();
            let queries = parse_queries(text.as_bytes(), &mut store, &Control::default())
                .unwrap_or_else(|e| panic!("{path}:{e}"));
            let scratch: Vec<(Duration, String)> = queries
                .iter()
                .map(|q| {
                    let ctl = opts.control(Default::default());
                    let t = Instant::now();
                    let out = cove::solve(&store, q, &config, &ctl);
                    (t.elapsed(), out.answer.verdict().to_string())
                })
                .collect();
            assert_eq!(inc.len(), scratch.len(), "{path}: question count");
            if best_inc.is_empty() {
                best_inc = inc;
                best_scratch = scratch;
            } else {
                for (b, n) in best_inc.iter_mut().zip(inc) {
                    b.0 = b.0.min(n.0);
                }
                for (b, n) in best_scratch.iter_mut().zip(scratch) {
                    b.0 = b.0.min(n.0);
                }
            }
        }
        println!("{path}");
        println!("  #  incremental               from scratch");
        let (mut ti, mut ts) = (Duration::ZERO, Duration::ZERO);
        // Time on the questions both modes answer (the totals also count time-outs).
        let (mut bi, mut bs, mut both) = (Duration::ZERO, Duration::ZERO, 0);
        for (i, ((di, ai, how), (ds, a_s))) in best_inc.iter().zip(&best_scratch).enumerate() {
            let clash = ai != a_s && ai != "unknown" && a_s != "unknown";
            if clash {
                disagreements += 1;
            }
            println!(
                "  {:>2} {:<7} {:>8.3}s {:<7} {:<7} {:>8.3}s{}",
                i + 1,
                ai,
                di.as_secs_f64(),
                how,
                a_s,
                ds.as_secs_f64(),
                if clash { "  DISAGREE" } else { "" }
            );
            ti += *di;
            ts += *ds;
            if ai != "unknown" && a_s != "unknown" {
                bi += *di;
                bs += *ds;
                both += 1;
            }
        }
        let count = |v: &mut dyn Iterator<Item = &String>| v.filter(|a| *a != "unknown").count();
        println!(
            "  total: incremental {:.3}s ({} answered), from scratch {:.3}s ({} answered), speed-up {:.2}x",
            ti.as_secs_f64(),
            count(&mut best_inc.iter().map(|x| &x.1)),
            ts.as_secs_f64(),
            count(&mut best_scratch.iter().map(|x| &x.1)),
            ts.as_secs_f64() / ti.as_secs_f64().max(1e-9)
        );
        println!(
            "  on the {both} both answer: incremental {:.3}s, from scratch {:.3}s, speed-up {:.2}x",
            bi.as_secs_f64(),
            bs.as_secs_f64(),
            bs.as_secs_f64() / bi.as_secs_f64().max(1e-9)
        );
        total_inc += ti;
        total_scratch += ts;
    }
    println!(
        "all files: incremental {:.3}s, from scratch {:.3}s, speed-up {:.2}x",
        total_inc.as_secs_f64(),
        total_scratch.as_secs_f64(),
        total_scratch.as_secs_f64() / total_inc.as_secs_f64().max(1e-9)
    );
    if disagreements > 0 {
        eprintln!("{disagreements} disagreement(s)");
        std::process::exit(1);
    }
}
