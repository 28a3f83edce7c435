//! The CHC front end: SMT-LIB2 `HORN` files and Z3's fixedpoint format to [`Query`]s.
//!
//! Both formats go through the streaming reader of [`cove_logic::smtlib`] (dialect
//! [`Dialect::Chc`]: every Bool-valued `declare-fun` is a predicate). Each `assert`/`rule`
//! becomes zero or more clauses by the exact translation in `clausify`. `push`/`pop`/`reset`
//! act on the clause set.
//!
//! # One answer per question
//! A file may ask several questions: every `(check-sat)` asks about the assertions in force at
//! that point, and every fixedpoint `(query q)` asks whether `q` is derivable from the rules
//! read so far (queries do not accumulate, as in z3). [`parse_queries`] returns one [`Query`]
//! per question, in order; a file with no question at all is read as asking about the
//! assertions in force at its end.
//!
//! # Constants
//! A declared constant (`declare-const`, or a 0-ary non-Bool `declare-fun`) is one value shared
//! by every clause and chosen *existentially* together with the predicates (SMT-LIB meaning).
//! The clauses mention it as a variable, and [`Query::constants`] lists it: treating it as a
//! per-clause universally quantified variable would be wrong (the driver decides such queries
//! exactly, see `driver::constants`). Z3's `declare-var` is different: a variable of each rule.

pub(crate) mod clausify;

use crate::engine::Control;
use crate::system::{ChcSystem, Pos};
use cove_logic::smtlib::{Command, Declared, Dialect, Parser};
use cove_logic::{TermStore, VarId};
use rustc_hash::FxHashSet;

pub use cove_logic::smtlib::{ErrorKind, ParseError};

/// One question of a CHC file.
#[derive(Clone, Debug)]
pub struct Query {
    /// The clauses the question is about.
    pub system: ChcSystem,
    /// The declared constants the clauses mention (shared by all clauses, existential).
    pub constants: Vec<VarId>,
    /// Where the question was asked (`check-sat` or `query`); `None` for the implicit
    /// question at the end of a file without one.
    pub pos: Option<Pos>,
}

/// Parses a CHC problem (SMT-LIB2 `HORN` or Z3 fixedpoint format) into its questions, adding
/// terms and predicates to `store`. Errors carry `line:col` and a kind; non-Horn clauses are
/// [`ErrorKind::NonHorn`]; a `set-logic` other than `HORN` (or `ALL`) is refused with a pointer
/// to `cove smt`. `ctl` is polled between commands (a stop gives [`ErrorKind::Limit`]).
pub fn parse_queries(
    src: &[u8],
    store: &mut TermStore,
    ctl: &Control,
) -> Result<Vec<Query>, ParseError> {
    let mut p = Parser::new(src, store, Dialect::Chc)?;
    let mut sys = ChcSystem::default();
    let mut consts: Vec<VarId> = vec![];
    let mut cl = clausify::Clausifier::default();
    let mut queries = vec![];
    // (clauses, predicates, constants) at each open `push`.
    let mut marks: Vec<(usize, usize, usize)> = vec![];
    let mut last = Pos::default();
    while let Some((cmd, pos)) = p.next_command()? {
        last = pos;
        if let Some(why) = ctl.should_stop() {
            return Err(ParseError::new(
                pos,
                ErrorKind::Limit,
                format!("reading stopped: {why}"),
            ));
        }
        let origin = pos;
        match cmd {
            Command::SetLogic(l) if !matches!(&*l, "HORN" | "ALL") => {
                return Err(ParseError::new(
                    pos,
                    ErrorKind::UnsupportedLogic,
                    format!(
                        "logic {l} is not HORN: `cove solve` decides constrained Horn clauses; \
                         run SMT-LIB scripts with `cove smt`"
                    ),
                ));
            }
            Command::DeclareFun {
                decl: Declared::Pred(f),
                ..
            }
            | Command::DeclareRel(f) => sys.preds.push(f),
            Command::DeclareFun {
                decl: Declared::Const(v),
                ..
            }
            | Command::DeclareConst(v) => consts.push(v),
            Command::Assert { term, .. } | Command::Rule { term, .. } => {
                cl.clausify(&mut p, term, true, pos, origin, &mut sys.clauses)?
            }
            Command::Query(q) => {
                let mut s = sys.clone();
                cl.clausify(&mut p, q, false, pos, origin, &mut s.clauses)?;
                queries.push(question(s, &consts, Some(pos)));
            }
            Command::CheckSat => queries.push(question(sys.clone(), &consts, Some(pos))),
            Command::CheckSatAssuming(_) => {
                return Err(ParseError::new(
                    pos,
                    ErrorKind::InvalidCommand,
                    "check-sat-assuming is not supported in CHC files",
                ));
            }
            Command::Push(k) => {
                for _ in 0..k {
                    marks.push((sys.clauses.len(), sys.preds.len(), consts.len()));
                }
            }
            Command::Pop(k) if k > 0 => {
                // The parser has checked that `k` scopes are open.
                let (c, f, k0) = marks[marks.len() - k as usize];
                marks.truncate(marks.len() - k as usize);
                sys.clauses.truncate(c);
                sys.preds.truncate(f);
                consts.truncate(k0);
            }
            Command::Reset => {
                sys = ChcSystem::default();
                consts.clear();
                marks.clear();
            }
            Command::ResetAssertions => {
                sys.clauses.clear();
                if let Some(&(_, f, k0)) = marks.first() {
                    sys.preds.truncate(f);
                    consts.truncate(k0);
                }
                marks.clear();
            }
            _ => {}
        }
    }
    if queries.is_empty() {
        let _ = last;
        queries.push(question(sys, &consts, None));
    }
    Ok(queries)
}

/// The question about `sys`, with the declared constants its clauses mention.
fn question(sys: ChcSystem, consts: &[VarId], pos: Option<Pos>) -> Query {
    let used: FxHashSet<VarId> = sys
        .clauses
        .iter()
        .flat_map(|c| c.vars.iter().copied())
        .collect();
    let constants = consts
        .iter()
        .copied()
        .filter(|v| used.contains(v))
        .collect();
    Query {
        system: sys,
        constants,
        pos,
    }
}

/// Parses a CHC file that asks exactly one question and declares no constant its clauses use
/// — the common case, and the shape engines take directly. Files with several questions or
/// with constants are refused here (with the position of the second question or of a clause
/// using a constant); [`parse_queries`] and the driver handle them exactly.
pub fn parse_chc(src: &[u8], store: &mut TermStore) -> Result<ChcSystem, ParseError> {
    let mut qs = parse_queries(src, store, &Control::default())?;
    if qs.len() > 1 {
        let pos = qs[1].pos.unwrap_or_default();
        return Err(ParseError::new(
            pos,
            ErrorKind::InvalidCommand,
            "a second question (check-sat or query): use frontend::parse_queries to answer each",
        ));
    }
    let q = qs.pop().expect("at least one question");
    if let Some(&k) = q.constants.first() {
        let pos = q
            .system
            .clauses
            .iter()
            .find(|c| c.vars.contains(&k))
            .and_then(|c| c.origin)
            .unwrap_or_default();
        return Err(ParseError::new(
            pos,
            ErrorKind::InvalidCommand,
            format!(
                "the clause uses the declared constant '{}': use frontend::parse_queries and the driver, which decide constants exactly",
                store.var_name(k)
            ),
        ));
    }
    Ok(q.system)
}
