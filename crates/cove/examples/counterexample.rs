//! Parses an unsafe CHC system, solves it, and walks the counterexample.
//!
//! A counter starts at 0 and steps by 3 while below 20; the error is reaching 12. Cove
//! answers `unsat` with a derivation of `false`: a tree of clause instances with concrete
//! values, checked by the independent checker before it is returned.
//!
//! ```sh
//! cargo run --release --example counterexample
//! ```

use cove::{ChcResult, Control, SolveConfig, TermStore, parse_queries};
use std::time::Duration;

const SYSTEM: &str = "(set-logic HORN)
(declare-fun cnt (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (cnt x))))
(assert (forall ((x Int) (y Int)) (=> (and (cnt x) (< x 20) (= y (+ x 3))) (cnt y))))
(assert (forall ((x Int)) (=> (and (cnt x) (= x 12)) false)))
(check-sat)";

fn main() {
    let mut store = TermStore::new();
    let ctl = Control::default().with_timeout(Duration::from_secs(30));
    let queries = parse_queries(SYSTEM.as_bytes(), &mut store, &ctl).expect("a valid system");
    let query = &queries[0];
    let out = cove::solve(&store, query, &SolveConfig::default(), &ctl);
    println!(
        "answer: {} (certificate {})",
        out.answer.verdict(),
        out.validation
    );
    let ChcResult::Unsat(d) = &out.answer else {
        eprintln!("expected unsat, got {}", out.answer.verdict());
        std::process::exit(1);
    };

    // Walk from the root (the step deriving false) down the first premise of each step:
    // the states of the run that reaches the error, last state first.
    let mut trace = Vec::new();
    let mut step = &d.steps[d.root];
    while let Some(&p) = step.premises.first() {
        step = &d.steps[p];
        let (pred, args) = step.head.as_ref().expect("premises derive predicates");
        let args: Vec<String> = args.iter().map(|v| v.to_string()).collect();
        trace.push(format!(
            "{}({})",
            out.store.func(*pred).name,
            args.join(", ")
        ));
    }
    trace.reverse();
    println!("run: {} -> false", trace.join(" -> "));
    assert_eq!(trace.len(), 5, "cnt(0), cnt(3), cnt(6), cnt(9), cnt(12)");

    // The same derivation as `cove solve --cex` prints it.
    print!(
        "{}",
        cove::chc::witness::print_derivation(&out.store, &query.system, d)
    );
}
