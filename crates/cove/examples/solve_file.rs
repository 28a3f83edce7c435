//! Solves a CHC file with a time limit and prints the answer and its witness, like a
//! minimal `cove solve --model --cex`.
//!
//! ```sh
//! cargo run --release --example solve_file -- examples/mccarthy91.smt2 10
//! ```

use cove::chc::witness::{print_derivation, print_invariants};
use cove::{ChcResult, Control, EngineChoice, SolveConfig, TermStore, parse_queries};
use std::time::Duration;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "examples/counter.smt2".into());
    let secs: f64 = args.next().map_or(10.0, |s| s.parse().expect("seconds"));
    let src = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));

    let ctl = Control::default().with_timeout(Duration::from_secs_f64(secs));
    let mut store = TermStore::new();
    let queries = match parse_queries(&src, &mut store, &ctl) {
        Ok(q) => q,
        Err(e) => {
            eprintln!("{path}:{e}");
            std::process::exit(2);
        }
    };
    // One engine instead of the portfolio: any name of `EngineChoice::names()`.
    let config = SolveConfig {
        engine: EngineChoice::parse("spacer").expect("a known engine"),
        ..SolveConfig::default()
    };
    for q in &queries {
        let out = cove::solve(&store, q, &config, &ctl);
        println!("{}", out.answer.verdict());
        match &out.answer {
            ChcResult::Sat(inv) => print!("{}", print_invariants(&out.store, inv)),
            ChcResult::Unsat(d) => print!("{}", print_derivation(&out.store, &q.system, d)),
            ChcResult::Unknown(reason) => eprintln!("reason: {reason}"),
        }
        for (name, value) in &out.stats {
            eprintln!("{name}: {value}");
        }
    }
}
