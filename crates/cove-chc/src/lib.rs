//! `cove-chc`: constrained Horn clause systems, their front ends, preprocessing, the
//! verification engines and the independent certificate checker.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod btor2;
pub mod cert;
mod cert_flatten;
pub mod cert_measure;
mod cert_quantifiers;
pub mod driver;
pub mod engine;
pub mod engines;
pub mod frontend;
mod houdini;
mod invariant_map;
pub mod preprocess;
pub mod print;
pub mod result;
pub mod session;
pub mod share;
pub mod system;
pub mod ts;
pub mod witness;

pub use engine::{Control, Engine};
pub use result::{ChcResult, Derivation, DerivationStep, Invariants, UnknownReason};
pub use system::{ChcSystem, Clause, Pos, PredApp};
