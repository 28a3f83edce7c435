//! Bit-vectors: one bit-blaster for every consumer.
//!
//! # Design
//! Word-level terms (already normalised by `cove-logic`'s constructors and simplifier:
//! constant folding, `extract`/`concat` rules, shifts by constants as wiring) are blasted by
//! [`Blaster`] into one and-inverter graph with structural hashing ([`Gates`]). That graph is
//! the single bit-level form of the theory:
//! - the SMT core ([`crate::SmtSolver`]) Tseitin-encodes the cone of each bit-vector atom into
//!   its SAT solver on demand (`smt.rs`), so assumptions, cores, push/pop and models work as
//!   for arithmetic, and Boolean leaves below an atom are the core's own literals;
//! - the CHC translation to hardware (`cove-chc`) blasts a transition relation with the same
//!   blaster and renumbers the graph into a `cove-aig` circuit (literals are AIGER-style);
//! - a word-level hardware front end (BTOR2) does the same.
//!
//! Why here: the blaster needs terms (`cove-logic`) and the SMT core needs the blaster, so it
//! lives in `cove-smt`. `cove-aig` stays independent of terms (it depends on `cove-control`
//! and `cove-sat` only); `cove-chc`, which already depends on `cove-smt`, is the crate that
//! may depend on `cove-aig` to hand blasted systems to the hardware engines. Dependencies
//! stay one-way: `cove-logic` → `cove-smt` (blaster) → `cove-chc` → (`cove-aig`).

mod blast;
mod gates;
pub(crate) mod smt;

pub use blast::{Blaster, MAX_GATES};
pub use gates::{G_FALSE, G_TRUE, GLit, Gates, Node, lit_value, var_of};
