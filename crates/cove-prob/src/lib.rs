//! `cove-prob`: compositional verification of probabilistic systems by strong simulation
//! (Komuravelli's thesis, Chapters 4–6).
//!
//! * [`lpts`]: labelled probabilistic transition systems with exact rational distributions.
//! * [`format`]: the textual `.lpts` format (documented there) and its parser/printer.
//! * [`compose`]: parallel composition with product distributions.
//! * [`flow`]: `μ ⊑_R ν` by exact max-flow, Hall violators (corrected CEXDISTREL).
//! * [`sim`]: strong simulation as a worklist greatest fixed point, and a naive reference.
//! * [`cex`]: tree counterexamples with execution mappings and their independent check.
//! * [`dot`]: Graphviz output.
//!
//! Every probability is a [`cove_logic::Rational`]; nothing is ever normalized.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod agar;
pub mod bench;
pub mod cex;
pub mod cli;
pub mod compose;
pub mod dot;
pub mod flow;
pub mod format;
pub mod learn;
pub mod lpts;
pub mod partition;
pub mod prism;
pub mod random;
pub mod sim;

pub use cex::{Counterexample, SimAnswer, check_simulation, verify_counterexample};
pub use compose::{Product, compose};
pub use format::{ParseError, parse_lpts, write_lpts};
pub use lpts::{ActionId, Dist, Lpts, StateId, TransId, Transition};
pub use sim::{Simulation, naive_simulates, simulates};
