//! `cove-logic`: the ground every Cove crate stands on.
//!
//! Exact rationals ([`Rational`]), a hash-consed term DAG over the sorts Bool, Int and Real
//! ([`TermStore`]), and reading and printing of SMT-LIB2.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod rational;

pub use rational::Rational;
