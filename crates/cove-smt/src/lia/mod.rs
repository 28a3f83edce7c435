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
//! ```
//! use cove_logic::Rational;
//! use cove_smt::lia::{LiaResult, LiaSolver};
//! use cove_smt::simplex::{BoundTag, Rel};
//!
//! // x = 2a ∧ x = 2b + 1 over unbounded integers: refuted by the GCD test.
//! let mut s = LiaSolver::default();
//! let (x, a, b) = (s.add_var(true), s.add_var(true), s.add_var(true));
//! let q = Rational::int;
//! let r1 = s.add_row(&[(x, q(1)), (a, q(-2))]).unwrap();
//! let r2 = s.add_row(&[(x, q(1)), (b, q(-2))]).unwrap();
//! s.assert_rel(&r1, Rel::Eq, &q(0), BoundTag(10));
//! s.assert_rel(&r2, Rel::Eq, &q(1), BoundTag(11));
//! assert_eq!(s.solve(), LiaResult::Unsat(vec![BoundTag(10), BoundTag(11)]));
//! ```
//!
//! Integer variables get integer-rounded bounds in the simplex itself, so every
//! nonbasic integer variable has an integral value and strict bounds never reach them.

mod bnb;
mod gcd;
mod gomory;
mod step;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_stress;

pub use bnb::{LiaConfig, LiaResult, LiaSolver, LiaStats, LiaUnknown};
pub use gcd::gcd_test;
pub use gomory::{Cut, gomory_cut};
pub use step::{IntChecker, IntConfig, IntStep};
