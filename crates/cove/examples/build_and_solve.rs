//! Builds a CHC system in code, solves it through the driver, and reads the invariant.
//!
//! The system is a two-variable loop: `x` and `y` start at 0 and 1, each step adds 1 to `x`
//! and 2 to `y`, and the property is `y = 2x + 1` (a state with `y != 2x + 1` is the error).
//! No bound on the loop, so no unrolling proves it: the answer needs a relational invariant.
//!
//! ```sh
//! cargo run --release --example build_and_solve
//! ```

use cove::{
    ChcResult, ChcSystem, Clause, Control, Model, PredApp, Query, Rational, SolveConfig, Sort,
    TermStore, Value,
};
use std::time::Duration;

fn main() {
    let mut st = TermStore::new();
    let inv = st
        .declare_func("inv", &[Sort::Int, Sort::Int], Sort::Bool)
        .expect("fresh name");
    let (x, y) = (st.var("x", Sort::Int), st.var("y", Sort::Int));
    let (tx, ty) = (st.mk_var(x), st.mk_var(y));
    let (zero, one, two) = (st.mk_int(0), st.mk_int(1), st.mk_int(2));
    let at = |args: Vec<_>| PredApp { pred: inv, args };

    // inv(x, y) <- x = 0 ∧ y = 1
    let x0 = st.mk_eq(tx, zero);
    let y1 = st.mk_eq(ty, one);
    let init = st.mk_and(&[x0, y1]);
    // inv(x + 1, y + 2) <- inv(x, y)
    let (x_next, y_next) = (st.mk_add(&[tx, one]), st.mk_add(&[ty, two]));
    let t = st.mk_true();
    // false <- inv(x, y) ∧ y != 2x + 1
    let two_x = st.mk_mul(&[two, tx]);
    let rhs = st.mk_add(&[two_x, one]);
    let holds = st.mk_eq(ty, rhs);
    let broken = st.mk_not(holds);

    let clause = |body: Vec<PredApp>, constraint, head| Clause {
        vars: vec![x, y],
        body,
        constraint,
        head,
        origin: None,
    };
    let system = ChcSystem {
        preds: vec![inv],
        clauses: vec![
            clause(vec![], init, Some(at(vec![tx, ty]))),
            clause(vec![at(vec![tx, ty])], t, Some(at(vec![x_next, y_next]))),
            clause(vec![at(vec![tx, ty])], broken, None),
        ],
    };
    println!("{}", system.to_smtlib(&st));

    // The default configuration runs the portfolio with preprocessing and validation.
    let ctl = Control::default().with_timeout(Duration::from_secs(30));
    let query = Query {
        system,
        constants: vec![],
        pos: None,
    };
    let out = cove::solve(&st, &query, &SolveConfig::default(), &ctl);
    println!(
        "answer: {} (engine {}, certificate {}, {:.3} s)",
        out.answer.verdict(),
        out.engine,
        out.validation,
        out.time.as_secs_f64()
    );
    let ChcResult::Sat(invariants) = &out.answer else {
        eprintln!("expected sat, got {}", out.answer.verdict());
        std::process::exit(1);
    };
    // The invariant, as the CHC-COMP model (terms live in `out.store`).
    print!(
        "{}",
        cove::chc::witness::print_invariants(&out.store, invariants)
    );

    // Evaluate it: it holds on a reachable state and fails on the bad one.
    let def = &invariants.defs[&inv];
    for (a, b) in [(3, 7), (3, 8)] {
        let mut m = Model::default();
        m.set(def.params[0], Value::Num(Rational::from(a)));
        m.set(def.params[1], Value::Num(Rational::from(b)));
        let holds = m
            .eval_bool(&out.store, def.body)
            .expect("a closed invariant");
        println!("inv({a}, {b}) = {holds}");
        assert_eq!(holds, b == 2 * a + 1);
    }
}
