//! `cove-logic`: the ground every Cove crate stands on.
//!
//! Exact rationals ([`Rational`]), a hash-consed term DAG over the sorts Bool, Int, Real,
//! arrays and bit-vectors ([`TermStore`], [`bv`]), substitution, evaluation under a model, simplification to canonical
//! linear forms, and reading and printing of SMT-LIB2.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod array_reads;
pub mod bv;
pub mod detach;
pub mod dt;
pub mod linear;
pub mod model;
pub mod print;
pub mod rational;
pub mod simplify;
pub mod smtlib;
pub mod subst;
pub mod term;

pub use bv::{BvOp, BvValue};
pub use detach::Detached;
pub use linear::{LinearSum, linearize, mk_linear};
pub use model::{ArrayValue, DtValue, EvalError, FuncInterp, Model, Value};
pub use rational::Rational;
pub use simplify::{Simplifier, simplify};
pub use subst::{expand_funcs, free_vars, free_vars_in_order, substitute};
pub use term::{FuncDecl, FuncId, Op, Sort, SortError, Term, TermId, TermStore, VarDecl, VarId};
