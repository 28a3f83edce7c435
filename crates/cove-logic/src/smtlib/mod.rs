//! Reading SMT-LIB2 (and Z3's fixedpoint extensions) into terms of a [`TermStore`](crate::TermStore).
//!
//! [`Parser`] streams elaborated [`Command`]s one at a time (the CHC front end consumes it
//! this way so errors come out in file order); [`parse_script`] collects a whole [`Script`].
//! Input is bytes: invalid UTF-8 is an error located at its first bad byte.
//!
//! Supported: the Core, Ints, Reals, Reals_Ints, ArraysEx and FixedSizeBitVectors theories
//! (with z3's `bv2nat`/`bv2int`/`nat2bv`/`int2bv`), quantifiers,
//! `let`, `define-fun` (macro-expanded at each use), `:named` terms, `push`/`pop`, and Z3's
//! `declare-rel`/`declare-var`/`rule`/`query`. Strings, floating point,
//! datatypes, uninterpreted sorts and functions are reported as
//! [`ErrorKind::UnsupportedTheory`] with their location, never silently mis-read.
//!
//! The reader never panics and never recurses on the input's nesting depth; every failure is
//! a [`ParseError`] with a `line:col`.

mod builtins;
mod bv;
mod command;
mod elab;
mod error;
mod parser;
mod sexp;

pub use builtins::apply_by_name;
pub use command::{Command, Declared, Script};
pub use error::{ErrorKind, ParseError, Pos};
pub use parser::{Dialect, Parser, parse_script};
