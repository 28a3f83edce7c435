//! `cove-smt`: satisfiability modulo theories for Cove.
//!
//! The arithmetic theory core lives in [`simplex`] (general simplex over exact
//! delta-rationals after Dutertre and de Moura, CAV 2006: bounds, incremental
//! backtracking, Farkas explanations, bound propagation, interpolants) and [`lia`]
//! (integer feasibility on top of it: GCD test, Gomory cuts, branch and bound).
//!
//! [`SmtSolver`] is the incremental CDCL(T) solver the engines use: `cove-sat` decides the
//! Boolean structure (Tseitin encoding in `encode`), the simplex decides the arithmetic
//! (the glue in `theory`), with push/pop, assumptions, unsat cores and checked models.
//! [`interpolate`] gives Farkas interpolants of conjunctions (sound over the integers: no
//! branch-and-bound or cut reasoning enters them), [`interpolate_formulas`] interpolants of
//! arbitrary formulas, [`check_interpolant`] re-checks any candidate, and [`run_script`] the SMT-LIB2 script mode,
//! which first eliminates variables defined by equalities ([`solve_eqs()`], with z3-style
//! context solving under `and`/`or`).
//! (Random formulas for the tests and the z3 differential run live in `tests/common`.)
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod bv;
pub mod lia;
pub mod mbp;
pub mod simplex;

mod array_scope;
mod arrays;
mod atom_index;
mod dt;
mod encode;
mod interp;
mod interp_formula;
mod nonlinear;
pub mod script;
pub mod solve_eqs;
pub mod solver;
mod theory;

pub use cove_sat::Limits;
pub use interp::{InterpError, check_interpolant, interpolate};
pub use interp_formula::{ItpOutcome, interpolate_formulas};
pub use script::{ScriptError, ScriptOptions, run_script, run_script_opts, run_script_with};
pub use solve_eqs::{Reduced, SolveEqsLimits, resolve_definitions, solve_eqs};
pub use solver::{SmtResult, SmtSolver, SmtStats, UnknownReason, is_sat, is_valid};
