//! `cove-sat`: a CDCL SAT solver with incremental solving, assumptions and CDCL(T) hooks.
//!
//! The vocabulary follows MiniSat (Eén & Sörensson, SAT 2003) and the module split follows
//! varisat: [`lit`] (variables and literals), `clause` (arena), `watch` (two watched literals
//! with blockers), `propagate`, `analyze` (first UIP, minimization, final conflict), `decide`
//! (VSIDS heap, phase saving), `restart` (Luby or glucose EMA), `reduce` (LBD tiers),
//! `search` (the CDCL(T) loop), `lemma` (clauses from theories at any level), [`theory`]
//! (the hooks) and [`dimacs`] (input/output in the competition format).
//!
//! ```
//! use cove_sat::{Lit, SolveResult, Solver};
//! let mut s = Solver::new();
//! let x = Lit::new(s.new_var(), false);
//! let y = Lit::new(s.new_var(), false);
//! s.add_clause(&[x, y]);
//! s.add_clause(&[!x, y]);
//! assert_eq!(s.solve(&[!y]), SolveResult::Unsat);
//! assert_eq!(s.solve(&[]), SolveResult::Sat);
//! ```

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod analyze;
mod clause;
mod decide;
pub mod dimacs;
mod guard;
mod heap;
mod invariants;
mod lemma;
pub mod lit;
mod propagate;
mod reduce;
mod restart;
mod search;
mod solver;
mod stats;
pub mod theory;
mod trail;
mod watch;

pub use guard::GuardId;
pub use lit::{LBool, Lit, Var};
pub use restart::{RestartPolicy, luby};
pub use search::{Limits, SolveResult};
pub use solver::{Config, Solver};
pub use stats::Stats;
pub use theory::{NoTheory, Theory, TheoryOut};
