//! A conflict limit bounds a check, also when branch and bound drifts without conflicts.
//!
//! The data file is a check that Spacer's generalization made on a CHC benchmark; z3 finds
//! it satisfiable at once, while branch and bound here splits on ever larger values. Before
//! the limit covered splits, such a check ran for the rest of the run with two new atoms and
//! two clauses per split (tens of thousands a second).

use cove_logic::smtlib::parse_script;
use cove_logic::{TermId, TermStore, Value};
use cove_smt::{Limits, SmtResult, SmtSolver};

fn asserts(src: &str, store: &mut TermStore) -> Vec<TermId> {
    parse_script(src.as_bytes(), store)
        .expect("parses")
        .assertions()
}

#[test]
fn a_conflict_limit_also_bounds_branch_and_bound() {
    const LIMIT: u64 = 500;
    let mut st = TermStore::new();
    let ts = asserts(include_str!("data/drifting_lia.smt2"), &mut st);
    let mut s = SmtSolver::new();
    for &t in &ts {
        s.assert(&mut st, t);
    }
    s.set_limits(Limits {
        conflicts: Some(LIMIT),
        ..Limits::default()
    });
    for round in 0..3 {
        let (b0, c0) = (s.stats().branches, s.stats().conflicts);
        let r = s.check(&mut st);
        let (b1, c1) = (s.stats().branches, s.stats().conflicts);
        assert!(b1 - b0 <= LIMIT, "round {round}: {} splits", b1 - b0);
        assert!(c1 - c0 <= LIMIT + 1);
        match r {
            SmtResult::Sat => {
                let m = s.model(&st);
                for &t in &ts {
                    assert_eq!(m.eval(&st, t), Ok(Value::Bool(true)));
                }
            }
            SmtResult::Unsat => panic!("round {round}: unsat, but z3 finds a model"),
            SmtResult::Unknown(_) => {}
        }
    }
}
