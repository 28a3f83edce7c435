//! `cove-prob`: compositional verification of probabilistic systems by strong simulation
//! (Komuravelli's thesis, Chapters 4–6).
//!
//! * [`lpts`]: labelled probabilistic transition systems with exact rational distributions.
//! * [`format`](mod@format): the textual `.lpts` format (documented there) and its parser/printer.
//! * [`compose`](mod@compose): parallel composition with product distributions.
//! * [`flow`]: `μ ⊑_R ν` by exact max-flow, Hall violators (corrected CEXDISTREL).
//! * [`sim`]: strong simulation as a worklist greatest fixed point, and a naive reference.
//! * [`smt_sim`]: the SMT encoding ENCODESIM/ENCODEDISTREL via `cove-smt` (cross-check).
//! * [`cex`]: tree counterexamples with execution mappings and their independent check.
//! * [`dot`]: Graphviz output.
//! * [`drn`]: Storm's DRN format (read/write) and PRISM's explicit `.tra`/`.lab` (read).
//!
//! * [`partition`], [`agar`]: quotients, ANALYZEANDREFINE, AGAR and AGAR-N (Ch. 6).
//! * [`learn`]: assumption learning with a SAT-based least consistent partition (Ch. 5).
//! * [`prism`]: the PRISM-language subset front end.
//! * [`bench`](mod@bench): the CS1/CSN/MER/SN benchmark families and the table of Sec. 6.4.
//! * [`driver`]: a check as a whole — building models, running a method under a
//!   [`cove_control::Control`] (time, memory, cancellation), checking counterexamples; what
//!   `cove prob simulate|verify` run.
//!
//! Every probability is a [`cove_logic::Rational`]; nothing is ever normalized.
//!
//! ```
//! use cove_prob::{parse_lpts, check_simulation, verify_counterexample, SimAnswer};
//! let imp = parse_lpts("init p\np -a-> 2/3 : s + 1/3 : t\ns -b-> s\n").unwrap();
//! let spec = parse_lpts("init q\nq -a-> 1/2 : u + 1/2 : v\nu -b-> u\n").unwrap();
//! match check_simulation(&imp, &spec, 1000).unwrap() {
//!     SimAnswer::Holds => unreachable!(),
//!     SimAnswer::Fails(cex) => {
//!         assert!(cex.tree.is_tree());
//!         verify_counterexample(&cex, &imp, &spec).unwrap();
//!     }
//! }
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod agar;
pub mod bench;
pub mod bisim;
pub mod cex;
pub mod compose;
pub mod dot;
pub mod driver;
pub mod drn;
pub mod flow;
pub mod format;
pub mod learn;
pub mod lpts;
pub mod partition;
pub mod prism;
pub mod sim;
pub mod smt_sim;

pub use cex::{Counterexample, SimAnswer, check_simulation, verify_counterexample};
pub use compose::{Product, compose};
pub use format::{ParseError, parse_lpts, write_lpts};
pub use lpts::{ActionId, Dist, Lpts, StateId, TransId, Transition};
pub use sim::{Simulation, naive_simulates, simulates};
