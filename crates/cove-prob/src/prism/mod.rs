//! A PRISM-language subset front end: parse a model, explore its reachable state space and
//! build an [`Lpts`](crate::lpts::Lpts).
//!
//! # The subset
//! ```text
//! mdp                                   // optional model type (mdp or dtmc)
//! const int N = 3;                      // int, double (exact rational) or bool constants;
//! const double p = 0.1;                 //   `const int K;` must be given from outside
//! formula busy = s = 1 | s = 2;         // formulas are expanded where used
//! label "done" = s = 3;                 // accepted and ignored
//! module server
//!   s : [0..3] init 0;                  // bounded integers (bounds and init: constant exprs)
//!   b : bool init false;                // Booleans (default init: lower bound / false)
//!   [req] s = 0 -> 1 - p : (s' = 1) + p : (s' = 3);
//!   [grant] busy & !b -> (s' = 2) & (b' = true);
//!   [] s = 3 -> true;                   // unlabelled: action `tau`
//! endmodule
//! module server2 = server [s = t, b = c, req = req2] endmodule   // renaming
//! ```
//! Expressions: `+ - * /`, comparisons, `! & | => <=>`, `c ? a : b`, `min max floor ceil mod pow`,
//! numerals (`3`, `0.25`), `true`/`false`. Not in the subset: `global` variables,
//! `init…endinit`, `rewards`, `system…endsystem`, continuous-time models.
//!
//! # Semantics (PRISM's)
//! The state is the valuation of all module variables. Modules run in parallel: a labelled
//! action `a` is taken jointly by every module whose alphabet (the labels of its commands)
//! contains `a`, each of them choosing one enabled `a`-command, with the product of their
//! update distributions; if one of them has no enabled `a`-command, `a` is blocked. An
//! unlabelled command moves its module alone and is labelled `tau` in the LPTS (so `tau`
//! behaves like any other action under [`crate::compose()`]: label commands in components
//! that are composed). A module may only assign its own variables.
//!
//! # Errors
//! Every error has the `line:column` of the construct at fault: syntax errors, undefined
//! identifiers, type errors, an update probability that is negative or a command whose
//! probabilities do not sum to exactly 1 in some reachable state, and an assignment whose
//! value leaves the variable's range. Nothing is normalized or clamped.

mod build;
mod syntax;

pub use build::{BuildOptions, build_lpts, build_lpts_from_ast, build_module_lpts};
pub use syntax::{ModelAst, Pos, parse_model};

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
}

impl PrismError {
    pub(crate) fn at(p: Pos, message: impl Into<String>) -> PrismError {
        PrismError {
            line: p.line,
            col: p.col,
            message: message.into(),
        }
    }
}
