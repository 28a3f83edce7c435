//! Parse errors with source positions.
//!
//! Every error carries the 1-based line and column (counted in Unicode characters) of the
//! place it is about, a machine-readable [`ErrorKind`] and a human message. `Display` prints
//! `LINE:COL: message`; the CLI prefixes the file name.

use std::fmt;

/// A source location (1-based line and column; columns count characters, not bytes).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    /// Line, starting at 1.
    pub line: u32,
    /// Column, starting at 1.
    pub col: u32,
}

impl Pos {
    /// The position `line:col`.
    pub fn new(line: u32, col: u32) -> Pos {
        Pos { line, col }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// What went wrong, for callers (and tests) that dispatch on the kind of error.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Malformed lexical or S-expression structure, or a command with the wrong shape.
    Syntax,
    /// The input ended inside a list, string or quoted symbol.
    UnexpectedEof,
    /// The input is not valid UTF-8.
    NonUtf8,
    /// A symbol (or sort) that is neither declared nor built in.
    UnknownSymbol,
    /// A command name that is not part of SMT-LIB2 or Z3's fixedpoint format.
    UnknownCommand,
    /// Arguments of the wrong sort.
    Sort,
    /// The wrong number of arguments.
    Arity,
    /// A symbol declared twice in one scope, or a built-in symbol redeclared.
    Redeclared,
    /// A construct of a theory Cove does not support (arrays, bit-vectors, strings,
    /// floating point, datatypes, uninterpreted sorts and functions).
    UnsupportedTheory,
    /// A `set-logic` naming a logic Cove does not know.
    UnsupportedLogic,
    /// A well-formed command that is not allowed here (`pop` below the bottom, a second
    /// `set-logic`, a `:named` term with free variables, ...).
    InvalidCommand,
    /// A clause that is not Horn.
    NonHorn,
    /// An input whose translation would exceed a resource limit.
    Limit,
}

/// An error in SMT-LIB2 input, located at `line:col`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct ParseError {
    /// Line, starting at 1.
    pub line: u32,
    /// Column, starting at 1.
    pub col: u32,
    /// What kind of error this is.
    pub kind: ErrorKind,
    /// Human-readable explanation (what was found, what was expected).
    pub message: String,
}

impl ParseError {
    /// An error of `kind` at `pos`.
    pub fn new(pos: Pos, kind: ErrorKind, message: impl Into<String>) -> ParseError {
        ParseError {
            line: pos.line,
            col: pos.col,
            kind,
            message: message.into(),
        }
    }

    /// The position of the error.
    pub fn pos(&self) -> Pos {
        Pos::new(self.line, self.col)
    }
}

/// Shorthand used throughout the reader.
pub(crate) fn err<T>(
    pos: Pos,
    kind: ErrorKind,
    message: impl Into<String>,
) -> Result<T, ParseError> {
    Err(ParseError::new(pos, kind, message))
}
