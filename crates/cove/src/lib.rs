//! # Cove as a library
//!
//! Cove decides constrained Horn clause (CHC) systems: `sat` with inductive invariants that
//! prove safety, or `unsat` with a counterexample derivation — each checked by an
//! independent checker before it is returned. This crate is the facade: it re-exports the
//! workspace crates under short names and the handful of items a caller needs, so
//! `cove = "…"` is the only dependency to add.
//!
//! | module | contents |
//! |---|---|
//! | [`chc`] | clause systems, front ends, preprocessing, engines, the certificate checker, the [`driver`] |
//! | [`logic`] | terms ([`TermStore`]), sorts, rationals, models, SMT-LIB2 reading and printing |
//! | [`smt`], [`sat`] | the SMT (LRA/LIA) and SAT cores |
//! | [`aig`] | hardware model checking of AIGER circuits (IC3/PDR, BMC, k-induction, localization) |
//! | [`prob`] | probabilistic systems: simulation, counterexamples, AGAR |
//! | [`control`] | limits and interruption ([`Control`]) |
//!
//! The entry point is [`solve`] (= [`chc::driver::solve`]): it does what `cove solve`
//! does — preprocessing with back-translation, one engine or the portfolio, the limits of a
//! [`Control`], and the certificate check. Read a file with [`chc::frontend::parse_queries`]
//! or build a [`ChcSystem`] in code:
//!
//! ```
//! use cove::{ChcResult, ChcSystem, Clause, Control, PredApp, Query, Sort, SolveConfig, TermStore};
//! use std::time::Duration;
//!
//! // inv(x) <- x = 0;  inv(x + 1) <- inv(x) ∧ x < 10;  false <- inv(x) ∧ x > 10
//! let mut st = TermStore::new();
//! let inv = st.declare_func("inv", &[Sort::Int], Sort::Bool).unwrap();
//! let x = st.var("x", Sort::Int);
//! let tx = st.mk_var(x);
//! let (zero, one, ten) = (st.mk_int(0), st.mk_int(1), st.mk_int(10));
//! let app = |args| Some(PredApp { pred: inv, args });
//! let init = st.mk_eq(tx, zero);
//! let next = st.mk_add(&[tx, one]);
//! let guard = st.mk_lt(tx, ten);
//! let bad = st.mk_gt(tx, ten);
//! let clause = |body: Vec<PredApp>, constraint, head| Clause {
//!     vars: vec![x], body, constraint, head, origin: None,
//! };
//! let body = vec![PredApp { pred: inv, args: vec![tx] }];
//! let system = ChcSystem {
//!     preds: vec![inv],
//!     clauses: vec![
//!         clause(vec![], init, app(vec![tx])),
//!         clause(body.clone(), guard, app(vec![next])),
//!         clause(body, bad, None),
//!     ],
//! };
//!
//! let ctl = Control::default().with_timeout(Duration::from_secs(30));
//! let config = SolveConfig { engine: cove::EngineChoice::parse("spacer").unwrap(), ..Default::default() };
//! let query = Query { system, constants: vec![], pos: None };
//! let out = cove::solve(&st, &query, &config, &ctl);
//! let ChcResult::Sat(invariants) = &out.answer else { panic!("expected sat") };
//! assert!(out.validation.is_valid());
//! let model = cove::chc::witness::print_invariants(&out.store, invariants);
//! assert!(model.starts_with("(define-fun inv ((x0 Int)) Bool"));
//! ```
//!
//! An `unsat` answer carries a [`Derivation`]: clause instances with concrete values, from
//! the facts up to `false`, checked before it is returned.
//!
//! ```
//! use cove::{ChcResult, Control, SolveConfig, TermStore, Value, parse_queries};
//!
//! let src = b"(set-logic HORN)
//!   (declare-fun inv (Int) Bool)
//!   (assert (forall ((x Int)) (=> (= x 0) (inv x))))
//!   (assert (forall ((x Int)) (=> (and (inv x) (< x 10)) (inv (+ x 2)))))
//!   (assert (forall ((x Int)) (=> (and (inv x) (= x 6)) false)))";
//! let (mut st, ctl) = (TermStore::new(), Control::default());
//! let query = parse_queries(src, &mut st, &ctl).unwrap().remove(0);
//! let out = cove::solve(&st, &query, &SolveConfig::default(), &ctl);
//! let ChcResult::Unsat(d) = &out.answer else { panic!("expected unsat") };
//! // The root derives false from inv(6); its premise chain counts 6, 4, 2, 0.
//! let mut values = vec![];
//! let mut step = &d.steps[d.root];
//! while let Some(&p) = step.premises.first() {
//!     step = &d.steps[p];
//!     let (_, args) = step.head.as_ref().unwrap();
//!     values.push(args[0].clone());
//! }
//! let six_to_zero: Vec<Value> = [6, 4, 2, 0].map(|n| Value::Num(n.into())).to_vec();
//! assert_eq!(values, six_to_zero);
//! ```
//!
//! To ask many questions about one system — add clauses and queries after a solve,
//! `push`/`pop` clause sets, solve again — use a [`Session`]: it reuses the facts of checked
//! counterexamples and the checked invariant lemmas of earlier answers where they stay sound
//! (the rule is in [`chc::session`]), and checks every answer against the clauses in force.
//! The C API (`cove-capi`) and the Python bindings wrap the same type.
//!
//! Runnable programs are in `crates/cove/examples/` (`cargo run --release --example
//! build_and_solve`, `counterexample`, `solve_file`, and `incremental`, which compares a
//! session with solving each question from scratch).
#![warn(missing_docs)]
#![forbid(unsafe_code)]

/// Hardware model checking of AIGER circuits: IC3/PDR, BMC, k-induction, localization,
/// witnesses and certificates.
pub use cove_aig as aig;
/// Constrained Horn clauses: systems, front ends, preprocessing, engines, certificates, and
/// the solving [`driver`].
pub use cove_chc as chc;
/// Limits and interruption shared by every crate.
pub use cove_control as control;
/// Terms, sorts, exact rationals, models, simplification, SMT-LIB2.
pub use cove_logic as logic;
/// Probabilistic systems: strong simulation, counterexamples, AGAR.
pub use cove_prob as prob;
/// The CDCL SAT solver.
pub use cove_sat as sat;
/// The CDCL(T) SMT solver for linear arithmetic.
pub use cove_smt as smt;

pub mod input;
pub use input::InputFormat;
pub mod solve_file;
pub use solve_file::{FileAnswer, FileConfig, FileError, Safety, solve_file};

/// The solving driver: configuration, outcome, and [`solve`].
pub use cove_chc::driver;
pub use cove_chc::driver::{EngineChoice, EngineConfig, Outcome, SolveConfig, Validation, solve};
pub use cove_chc::frontend::{Query, parse_queries};
pub use cove_chc::session::{Session, SolveRequest};
pub use cove_chc::{ChcResult, ChcSystem, Clause, Derivation, Invariants, PredApp};
pub use cove_control::{Control, UnknownReason};
pub use cove_logic::{Model, Rational, Sort, TermStore, Value};
