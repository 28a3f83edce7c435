//! Test scaffolding shared by the tests, examples and fuzz drivers of every Cove crate.
//!
//! It exists so that one copy of the seeded generator and of the byte-level mutation steps
//! serves every test suite, instead of each test file carrying its own. It has no
//! dependencies, so any crate of the workspace (including `cove-logic` and `cove-sat`, the
//! bottom of the dependency order) can use it as a `[dev-dependency]` without a cycle and
//! without a second copy of its own types. Generators of typed objects (terms, clause
//! systems, LPTS) stay with the crate that owns the types.
//!
//! Everything is deterministic in its seed: a failing case is reproduced by its seed alone.

#![warn(missing_docs)]

pub mod btor2;
pub mod fuzz;
pub mod rng;

pub use rng::Rng;
