//! Runs the benchmark table: `cargo run --release -p cove-prob --example prob_bench -- [quick]`.
use cove_prob::bench::{Family, Plan, format_row, format_table, header, run_plan};

fn main() {
    let mut plan = Plan::default();
    if std::env::args().any(|a| a == "quick") {
        plan.families = Family::ALL.iter().map(|&f| (f, vec![1, 2])).collect();
    }
    if std::env::args().any(|a| a == "learn") {
        plan.methods = vec![cove_prob::bench::Method::Learn];
    }
    eprint!("{}", header());
    let rows = run_plan(&plan, &mut |r| eprint!("{}", format_row(r))).expect("models build");
    print!("{}", format_table(&rows));
}
