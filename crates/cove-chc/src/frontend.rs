//! The CHC front end: SMT-LIB2 `HORN` files and Z3's fixedpoint format to a [`ChcSystem`].
//!
//! Both formats go through the streaming reader of [`cove_logic::smtlib`] (dialect
//! [`Dialect::Chc`]: every Bool-valued `declare-fun` is a predicate). Each `assert`/`rule`
//! becomes zero or more clauses by the exact translation in `clausify`; `(query q)` becomes
//! the clauses of `q -> false`. `push`/`pop`/`reset` act on the clause set, so the system is
//! the set of assertions in force at the end of the input (reading stops at `exit`).
//!
//! Free constants (`declare-const`, 0-ary non-Bool `declare-fun`, `declare-var`) are
//! universally quantified per clause. This is exact for CHC satisfiability: the predicates
//! are chosen first, and `∀c. (C1 ∧ C2)` is `(∀c. C1) ∧ (∀c. C2)`.

mod clausify;

use crate::system::ChcSystem;
use cove_logic::TermStore;
use cove_logic::smtlib::{Command, Declared, Dialect, Parser};

pub use cove_logic::smtlib::{ErrorKind, ParseError};

/// Parses a CHC problem (SMT-LIB2 `HORN` or Z3 fixedpoint format) into a clause system,
/// adding its terms and predicates to `store`. Errors carry `line:col` and a kind; non-Horn
/// clauses are [`ErrorKind::NonHorn`].
pub fn parse_chc(src: &[u8], store: &mut TermStore) -> Result<ChcSystem, ParseError> {
    let mut p = Parser::new(src, store, Dialect::Chc)?;
    let mut sys = ChcSystem::default();
    let mut cl = clausify::Clausifier::default();
    // (clauses, predicates) at each open `push`.
    let mut marks: Vec<(usize, usize)> = vec![];
    while let Some((cmd, pos)) = p.next_command()? {
        let origin = pos;
        match cmd {
            Command::DeclareFun {
                decl: Declared::Pred(f),
                ..
            }
            | Command::DeclareRel(f) => sys.preds.push(f),
            Command::Assert { term, .. } | Command::Rule { term, .. } => {
                cl.clausify(&mut p, term, true, pos, origin, &mut sys.clauses)?
            }
            Command::Query(q) => cl.clausify(&mut p, q, false, pos, origin, &mut sys.clauses)?,
            Command::Push(k) => {
                for _ in 0..k {
                    marks.push((sys.clauses.len(), sys.preds.len()));
                }
            }
            Command::Pop(k) if k > 0 => {
                // The parser has checked that `k` scopes are open.
                let (c, f) = marks[marks.len() - k as usize];
                marks.truncate(marks.len() - k as usize);
                sys.clauses.truncate(c);
                sys.preds.truncate(f);
            }
            Command::Reset => {
                sys = ChcSystem::default();
                marks.clear();
            }
            Command::ResetAssertions => {
                sys.clauses.clear();
                if let Some(&(_, f)) = marks.first() {
                    sys.preds.truncate(f);
                }
                marks.clear();
            }
            _ => {}
        }
    }
    Ok(sys)
}
