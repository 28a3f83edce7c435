//! `cove-chc`: constrained Horn clause systems, their front ends, preprocessing, the
//! verification engines and the independent certificate checker.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod frontend;
pub mod print;
pub mod system;

pub use system::{ChcSystem, Clause, Pos, PredApp};
