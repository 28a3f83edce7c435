//! Integer feasibility on top of the simplex.
//!
//! * [`gcd_test`]: divisibility conflicts on tableau rows with fixed variables.
//! * [`gomory_cut`]: Gomory mixed-integer cuts from the final tableau, with the tags of
//!   the bounds they depend on.
//! * [`IntChecker`]: one integer step after a successful relaxation check — feasible,
//!   conflict, cut or branch request — for the CDCL(T) glue, which turns requests into
//!   lemmas over fresh atoms.
//! * [`LiaSolver`]: a standalone branch-and-cut procedure for conjunctions (tests,
//!   callers without SAT), complete up to node and depth budgets, answering
//!   `Unknown` honestly when they run out.
//!
//! Integer variables get integer-rounded bounds in the simplex itself, so every
//! nonbasic integer variable has an integral value and strict bounds never reach them.

mod bnb;
mod gcd;
mod gomory;
mod step;
#[cfg(test)]
mod tests;

pub use bnb::{LiaConfig, LiaResult, LiaSolver, LiaStats, LiaUnknown};
pub use gcd::gcd_test;
pub use gomory::{Cut, gomory_cut};
pub use step::{IntChecker, IntConfig, IntStep};
