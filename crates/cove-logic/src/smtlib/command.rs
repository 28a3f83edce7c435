//! The commands of an SMT-LIB2 script (plus Z3's fixedpoint extensions), after elaboration:
//! terms are ids in the caller's [`TermStore`](crate::TermStore).

use super::error::Pos;
use crate::{FuncId, Sort, TermId, VarId};

/// What a `declare-fun` introduced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Declared {
    /// A predicate (a Bool-valued function symbol in a `HORN` script or CHC file).
    Pred(FuncId),
    /// A constant: a free variable of the assertions.
    Const(VarId),
}

/// One elaborated command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `(set-logic L)`; the name has been checked to be supported.
    SetLogic(Box<str>),
    /// `(set-info :k v)`; `value` is the source text of the attribute value.
    SetInfo {
        /// Keyword without the colon.
        keyword: Box<str>,
        /// Source text of the value, if any.
        value: Option<Box<str>>,
    },
    /// `(set-option :k v)`.
    SetOption {
        /// Keyword without the colon.
        keyword: Box<str>,
        /// Source text of the value, if any.
        value: Option<Box<str>>,
    },
    /// `(get-info :k)`.
    GetInfo(Box<str>),
    /// `(get-option :k)`.
    GetOption(Box<str>),
    /// `(declare-fun f (S*) S)`.
    DeclareFun {
        /// The symbol.
        name: Box<str>,
        /// What it became.
        decl: Declared,
    },
    /// `(declare-const x S)`.
    DeclareConst(VarId),
    /// `(define-fun f ((x S)*) S body)`; uses of `f` are macro-expanded by the parser.
    DefineFun {
        /// The symbol.
        name: Box<str>,
        /// Parameters (fresh variables private to this definition).
        params: Vec<VarId>,
        /// Result sort.
        ret: Sort,
        /// Body over `params`.
        body: TermId,
    },
    /// `(define-sort S () T)`: an alias of a supported sort.
    DefineSort {
        /// The alias.
        name: Box<str>,
        /// What it stands for.
        sort: Sort,
    },
    /// `(declare-datatypes ...)` or `(declare-datatype ...)`: the declared sorts (see
    /// [`crate::dt`]).
    DeclareDatatypes(Vec<Sort>),
    /// `(assert t)`; `name` is set for `(assert (! t :named n))`.
    Assert {
        /// The Bool term.
        term: TermId,
        /// Its name, if the asserted term was annotated with `:named`.
        name: Option<Box<str>>,
    },
    /// `(check-sat)`.
    CheckSat,
    /// `(check-sat-assuming (l*))`.
    CheckSatAssuming(Vec<TermId>),
    /// `(get-model)`.
    GetModel,
    /// `(get-value (t*))`: each term with its source text.
    GetValue(Vec<(TermId, Box<str>)>),
    /// `(get-unsat-core)`.
    GetUnsatCore,
    /// `(get-unsat-assumptions)`.
    GetUnsatAssumptions,
    /// `(get-assertions)`.
    GetAssertions,
    /// `(get-assignment)`.
    GetAssignment,
    /// `(get-proof)`.
    GetProof,
    /// `(push n)`.
    Push(u32),
    /// `(pop n)`; the parser has checked that `n` scopes are open.
    Pop(u32),
    /// `(reset)`: forget everything.
    Reset,
    /// `(reset-assertions)`: all scopes are popped (their declarations forgotten) and the
    /// assertions removed.
    ResetAssertions,
    /// `(echo "s")`.
    Echo(Box<str>),
    /// `(exit)`; the parser stops reading after it.
    Exit,
    /// Z3 fixedpoint `(declare-rel P (S*))`.
    DeclareRel(FuncId),
    /// Z3 fixedpoint `(declare-var x S)`: a variable of the rules.
    DeclareVar(VarId),
    /// Z3 fixedpoint `(rule t [name])`.
    Rule {
        /// The rule (free variables are universally quantified).
        term: TermId,
        /// Optional rule name.
        name: Option<Box<str>>,
    },
    /// Z3 fixedpoint `(query q)`: is some instance of `q` derivable? `(query P)` for a
    /// relation `P` of arity n becomes `P` applied to n fresh variables.
    Query(TermId),
}

/// A whole elaborated script: each command with the position of its opening parenthesis.
#[derive(Clone, Debug, Default)]
pub struct Script {
    /// The commands in input order (reading stops after `exit`).
    pub commands: Vec<(Command, Pos)>,
}

impl Script {
    /// The terms of the `assert` commands, in input order.
    pub fn assertions(&self) -> Vec<TermId> {
        self.commands
            .iter()
            .filter_map(|(c, _)| match c {
                Command::Assert { term, .. } => Some(*term),
                _ => None,
            })
            .collect()
    }
}
