//! A PRISM-language subset front end: parse a model, explore its reachable state space and
//! build an [`Lpts`](crate::lpts::Lpts).
//!
//! # The language
//! ```text
//! mdp                                   // or dtmc (default: mdp, as in PRISM)
//! const int N = 3;                      // int, double (exact rational) or bool constants;
//! const double p = 0.1;                 //   `const int K;` must be given from outside
//! formula busy = s = 1 | s = 2;         // formulas are expanded where used
//! label "done" = s = 3;                 // accepted and ignored
//! global g : [0..N];                    // global variables (any module may assign them)
//! module server
//!   s : [0..3] init 0;                  // bounded integers (bounds and init: constant exprs)
//!   b : bool init false;                // Booleans (default init: lower bound / false)
//!   n : int init 0;                     // unbounded integers (exploration stops at the limit)
//!   [req] s = 0 -> 1 - p : (s' = 1) + p : (s' = 3);
//!   [grant] busy & !b -> (s' = 2) & (b' = true);
//!   [] s = 3 -> true;                   // unlabelled: action `tau`
//! endmodule
//! module server2 = server [s = t, b = c, req = req2] endmodule   // renaming
//! init s = 0 & t = 0 endinit            // a set of initial states (instead of `init` values)
//! rewards "r" [req] true : 1; endrewards // read and ignored
//! system server || (server2 / {grant}) {req2 <- req} endsystem
//! ```
//! Expressions: `+ - * /`, comparisons, `! & | => <=>`, `c ? a : b`, numerals (`3`, `0.25`,
//! `.5`, `1e-3`), `true`/`false`, and `min max floor ceil round mod pow log` (also as
//! `func(f, …)`). `ctmc`, `ma`, `pta`, `pomdp`, `smg` models are refused.
//!
//! # Semantics (PRISM's)
//! The state is the valuation of all variables. Modules run in parallel: a labelled
//! action `a` is taken jointly by every module whose alphabet (the labels of its commands)
//! contains `a`, each of them choosing one enabled `a`-command, with the product of their
//! update distributions; if one of them has no enabled `a`-command, `a` is blocked. An
//! unlabelled command moves its module alone and is labelled `tau` in the LPTS (so `tau`
//! behaves like any other action under [`crate::compose()`]: label commands in components
//! that are composed). A module may only assign its own variables and the globals; two
//! synchronizing commands may not both write one variable. `system … endsystem` gives the
//! process term: `A || B` synchronizes on the shared actions, `A ||| B` on none,
//! `A |[a,b]| B` on `a` and `b` only (an action of the set that one side lacks is blocked,
//! as in CSP), `A / {a}` hides `a` (it becomes `tau`), `A {a <- b}` renames `a` to `b`.
//! See `explore` for DTMC uniform choice, deadlock self-loops, PRISM's 10⁻⁵ tolerance on
//! probability sums and several initial states.
//!
//! Checked against Storm on the 50 PRISM files bundled with stormpy 2.0
//! (`scripts/prob/storm-compare.py`): every model both tools build has the same number of
//! states, and every DTMC the same number of matrix entries.
//!
//! # Errors
//! Every error has the `line:column` of the construct at fault: syntax errors, undefined
//! identifiers, type errors, an update probability that is negative or a command whose
//! probabilities do not sum to 1 (within 10⁻⁵) in some reachable state, and an assignment
//! whose value leaves the variable's range. Nothing is clamped.

mod build;
mod eval;
mod explore;
mod syntax;

pub use build::{BuildOptions, build_lpts, build_lpts_from_ast, build_module_lpts};
pub use syntax::{ModelAst, ModelType, Pos, parse_model};

/// An error in a PRISM model, at a source position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct PrismError {
    /// Line, 1-based (0 when the error has no position, e.g. a state limit).
    pub line: usize,
    /// Column, 1-based.
    pub col: usize,
    /// What is wrong.
    pub message: String,
    /// Set when the build did not fail but was stopped by [`BuildOptions::control`] (time,
    /// memory, interruption): the reason, read when the stop happened.
    pub stop: Option<cove_control::UnknownReason>,
}

impl PrismError {
    pub(crate) fn at(p: Pos, message: impl Into<String>) -> PrismError {
        PrismError {
            line: p.line,
            col: p.col,
            message: message.into(),
            stop: None,
        }
    }
}
