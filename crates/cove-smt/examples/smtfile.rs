//! Runs an SMT-LIB2 script file through `cove_smt::run_script_with` (what `cove smt FILE`
//! does) and prints the solver's counters to stderr.
//!
//! `smtfile FILE.smt2 [rowprop=0|1]`: the optional second argument overrides the default of
//! theory propagation through tableau rows (for A/B measurements); `solveeqs=0` turns the
//! variable elimination of script mode off.
use cove_smt::{ScriptOptions, SmtSolver};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: smtfile FILE.smt2 [rowprop=0|1]");
    let mut solver = SmtSolver::new();
    let mut opts = ScriptOptions::default();
    for a in args {
        match a.as_str() {
            "rowprop=0" => solver.set_row_propagation(false),
            "rowprop=1" => solver.set_row_propagation(true),
            "solveeqs=0" => opts.solve_eqs = false,
            "solveeqs=1" => opts.solve_eqs = true,
            s if s.starts_with("chain=") => {
                solver.set_bound_chaining(s[6..].parse().expect("chain=N"))
            }
            _ => panic!("unknown option {a}"),
        }
    }
    let src = std::fs::read(&path).expect("read file");
    let (code, st) = cove_smt::run_script_opts(solver, &src, &mut std::io::stdout().lock(), &opts)
        .expect("output");
    eprintln!(
        "stats: time {:.3}s conflicts {} decisions {} th_conflicts {} th_props {} pivots {} branches {} cuts {} atoms {} derived {}",
        st.time.as_secs_f64(),
        st.conflicts,
        st.decisions,
        st.theory_conflicts,
        st.theory_propagations,
        st.pivots,
        st.branches,
        st.cuts,
        st.atoms,
        st.derived_bounds
    );
    std::process::exit(code);
}
