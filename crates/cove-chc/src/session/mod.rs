//! A CHC system built and solved step by step: the embedding layer the C API and the Python
//! bindings both wrap.
//!
//! A [`Session`] holds a system under construction — predicate declarations and clauses,
//! given as SMT-LIB2 text ([`Session::add_smtlib`], [`Session::add_clause_text`]) or as terms
//! built in the session's store ([`Session::add_clause_term`]) — with `push`/`pop` of clause
//! sets, and [`Session::solve`] answers for the clauses in force, exactly as
//! [`driver::solve`] does (preprocessing, the engine or portfolio, the limits of a
//! [`Control`], the independent certificate check).
//!
//! # Incremental solving: what stays sound
//! Tools that generate CHCs (the Solidity SMTChecker, SeaHorn) ask many questions about one
//! program: the transition clauses stay, and each assertion is a query clause checked on its
//! own (`push`, add the query, solve, `pop`), or the clause set grows. A session keeps what
//! earlier answers proved and reuses it by one rule:
//!
//! *Adding clauses can only enlarge the least model; removing clauses can only shrink it.*
//!
//! - **Reachability facts** (the steps of a checked counterexample: `P(v)` derived by a clause
//!   instance from earlier facts) stay true as long as every clause they were derived with is
//!   still present, whatever else is added. Before running an engine, the session asks the
//!   SMT solver, for each query clause, whether some combination of live facts satisfies its
//!   body; if so, the facts' derivations plus that query step are a counterexample
//!   (one SMT call per query clause, no unrolling). Facts derived with a popped clause are
//!   dropped: clause identities are never reused.
//! - **Invariants** of earlier `sat` answers are kept as lemmas (their conjuncts, per
//!   predicate). A lemma set that is inductive for a set of rule clauses (every non-query
//!   clause, with the lemmas assumed on its body atoms, implies them on its head) holds for
//!   every derivable fact of any *subset* of those clauses: popping clauses and adding query
//!   clauses keep it valid, so it is reused without a check. Adding a rule clause makes the
//!   lemmas *candidates*: Houdini keeps their maximal subset that is inductive for the new rule
//!   set (the same filter the portfolio's lemma sharing uses, [`crate::share`]). The inductive
//!   lemmas `J` then either refute every query clause already — the answer is `sat` with `J`
//!   as the invariants — or strengthen the system: `J` is conjoined to every body atom's
//!   constraint, which keeps the least model (see `driver::strengthen`), and the engine solves
//!   the strengthened system; its invariants conjoined with `J` are invariants of the system,
//!   and its counterexample is one of the system step for step.
//!
//! Every answer, reused or not, goes through the independent certificate check against the
//! clauses in force *now* (even with [`SolveConfig::validate`] off, a reused answer is
//! checked): a stale fact or lemma can cost time, never soundness. Preprocessing and SMT
//! solver state are not carried between solves: the driver preprocesses each system anew
//! (cheap next to solving), and the engines start fresh on the strengthened system.
//!
//! Declared constants (`declare-const` shared by all clauses) are not supported in a
//! session: [`crate::frontend::parse_queries`] and the driver decide them exactly.

use crate::driver::{self, Outcome, SolveConfig, Validation};
use crate::engine::Control;
use crate::frontend::{Query, clausify::Clausifier};
use crate::houdini::{blocks_queries, houdini};
use crate::invariant_map::InvMap;
use crate::result::{ChcResult, Derivation, DerivationStep, UnknownReason};
use crate::share::SharedLemma;
use crate::system::{ChcSystem, Clause};
use cove_logic::print::symbol;
use cove_logic::smtlib::{Command, Declared, Dialect, ErrorKind, ParseError, Parser, Pos};
use cove_logic::{FuncId, Op, Sort, TermId, TermStore, Value, VarId};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;
use std::time::{Duration, Instant};

/// At most this many reachability facts are kept (oldest first); beyond it new
/// counterexamples are not recorded.
const MAX_FACTS: usize = 20_000;
/// At most this many facts per body atom enter one query clause's match (the SMT query is a
/// disjunction over them).
const MAX_FACTS_PER_ATOM: usize = 2_000;
/// At most this many lemmas are kept; a lemma set that grows past it is cut (keeping the
/// most recent) and re-checked before its next use.
const MAX_LEMMAS: usize = 5_000;

/// Why a session refused a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionError {
    /// SMT-LIB2 text Cove cannot read, located in the text the caller gave.
    Parse(ParseError),
    /// A call that does not fit the session's state or arguments (named).
    Invalid(String),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Parse(e) => write!(f, "{e}"),
            SessionError::Invalid(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for SessionError {}

fn invalid<T>(msg: impl Into<String>) -> Result<T, SessionError> {
    Err(SessionError::Invalid(msg.into()))
}

/// One clause in force, with an identity that is never reused (so facts and lemmas recorded
/// against it can tell whether it is still the same clause).
#[derive(Clone)]
struct Entry {
    id: u64,
    clause: Clause,
}

/// One recorded reachability step: `head` derived by clause `clause` (an identity) from the
/// facts `premises` (indices into [`Memory::facts`]).
#[derive(Clone)]
struct Fact {
    clause: u64,
    head: (FuncId, Vec<Value>),
    premises: Vec<usize>,
    assignment: Vec<(VarId, Value)>,
}

/// What earlier solves proved.
#[derive(Clone, Default)]
struct Memory {
    /// Invariant lemmas (conjuncts of earlier invariants, per predicate).
    lemmas: Vec<SharedLemma>,
    /// The rule clauses (identities) for which `lemmas` as a whole were shown inductive;
    /// `None` = not known inductive for anything (Houdini runs before they are used).
    inductive_for: Option<FxHashSet<u64>>,
    /// Reachability facts of earlier counterexamples.
    facts: Vec<Fact>,
}

/// What the last [`Session::solve`] reused (also reported in [`Outcome::stats`] as
/// `session.*`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reuse {
    /// Lemmas kept from earlier answers.
    pub lemmas_offered: usize,
    /// Lemmas inductive for the current rules (used to answer or to strengthen).
    pub lemmas_inductive: usize,
    /// Whether Houdini had to re-check the lemmas (a rule clause was added).
    pub houdini: bool,
    /// Reachability facts whose clauses are all still present.
    pub facts_alive: usize,
    /// `Some("facts")` or `Some("lemmas")` when the answer came from reuse alone.
    pub answered_by: Option<&'static str>,
}

/// A CHC system built and solved step by step (see the module documentation).
#[derive(Clone)]
pub struct Session {
    store: TermStore,
    preds: Vec<FuncId>,
    clauses: Vec<Entry>,
    /// `clauses.len()` at each open `push`.
    scopes: Vec<usize>,
    next_id: u64,
    /// Commands that give later text its context: the predicate declarations and the
    /// accepted `define-fun`, `define-sort` and `declare-var` commands, verbatim, in order.
    prelude: String,
    /// The number of commands in `prelude`.
    prelude_cmds: usize,
    memory: Memory,
    incremental: bool,
    last: Reuse,
}

impl Default for Session {
    fn default() -> Session {
        Session::new()
    }
}

impl Session {
    /// An empty session with incremental solving on.
    pub fn new() -> Session {
        Session {
            store: TermStore::new(),
            preds: vec![],
            clauses: vec![],
            scopes: vec![],
            next_id: 0,
            prelude: String::new(),
            prelude_cmds: 0,
            memory: Memory::default(),
            incremental: true,
            last: Reuse::default(),
        }
    }

    /// A session holding the system of a CHC file (SMT-LIB2 `HORN` or Z3 fixedpoint format)
    /// that asks at most one question and declares no constant its clauses use.
    pub fn from_smtlib(text: &str) -> Result<Session, SessionError> {
        let mut s = Session::new();
        let mut queries =
            crate::frontend::parse_queries(text.as_bytes(), &mut s.store, &Control::default())
                .map_err(SessionError::Parse)?;
        if queries.len() > 1 {
            return invalid(format!(
                "the text asks {} questions (check-sat/query); a session holds one system: \
                 solve such text with the driver (cove.solve_all in Python)",
                queries.len()
            ));
        }
        let q = queries
            .pop()
            .expect("parse_queries returns at least one question");
        if let Some(&k) = q.constants.first() {
            return invalid(format!(
                "the clauses use the declared constant '{}': sessions do not support declared \
                 constants (solve such text with the driver)",
                s.store.var_name(k)
            ));
        }
        s.preds = q.system.preds;
        for &p in &s.preds {
            s.prelude
                .push_str(&cove_logic::print::declare_fun(&s.store, p));
            s.prelude.push('\n');
            s.prelude_cmds += 1;
        }
        for c in q.system.clauses {
            s.push_clause(c);
        }
        Ok(s)
    }

    /// Turns reuse between solves on (the default) or off (every solve from scratch).
    pub fn set_incremental(&mut self, on: bool) {
        self.incremental = on;
    }

    /// Whether solves reuse what earlier solves proved.
    pub fn incremental(&self) -> bool {
        self.incremental
    }

    /// The term store: predicates, variables and every term of the clauses.
    pub fn store(&self) -> &TermStore {
        &self.store
    }

    /// The term store, to build terms for [`Session::add_clause_term`]. Terms may be added;
    /// nothing in it is ever removed, so ids stay valid.
    pub fn store_mut(&mut self) -> &mut TermStore {
        &mut self.store
    }

    /// The declared predicates, in declaration order.
    pub fn predicates(&self) -> &[FuncId] {
        &self.preds
    }

    /// The number of clauses in force.
    pub fn len(&self) -> usize {
        self.clauses.len()
    }

    /// True when no clause is in force.
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    /// The number of open `push` scopes.
    pub fn scopes(&self) -> usize {
        self.scopes.len()
    }

    /// The clauses in force as a system (clause `i` is the `i`-th clause added and not
    /// popped; derivation steps refer to this order).
    pub fn system(&self) -> ChcSystem {
        ChcSystem {
            preds: self.preds.clone(),
            clauses: self.clauses.iter().map(|e| e.clause.clone()).collect(),
        }
    }

    /// The system as SMT-LIB2 `HORN` text (what `cove solve` reads).
    pub fn to_smtlib(&self) -> String {
        self.system().to_smtlib(&self.store)
    }

    /// What the last solve reused.
    pub fn last_reuse(&self) -> &Reuse {
        &self.last
    }

    fn push_clause(&mut self, clause: Clause) {
        self.clauses.push(Entry {
            id: self.next_id,
            clause,
        });
        self.next_id += 1;
    }

    /// Opens a scope: [`Session::pop`] removes the clauses added after it. Declarations are
    /// not scoped (a predicate without clauses has the empty least model).
    pub fn push(&mut self) {
        self.scopes.push(self.clauses.len());
    }

    /// Closes the `n` innermost scopes, removing their clauses.
    pub fn pop(&mut self, n: usize) -> Result<(), SessionError> {
        if n > self.scopes.len() {
            return invalid(format!("pop({n}) with {} scope(s) open", self.scopes.len()));
        }
        if n == 0 {
            return Ok(());
        }
        let keep = self.scopes[self.scopes.len() - n];
        self.scopes.truncate(self.scopes.len() - n);
        self.clauses.truncate(keep);
        self.forget_dead_facts();
        Ok(())
    }

    /// Declares predicate `name` with argument sorts written in SMT-LIB2 (`"Int"`,
    /// `"(Array Int Int)"`). Declaring an existing predicate again is an error.
    pub fn declare(&mut self, name: &str, sorts: &[&str]) -> Result<FuncId, SessionError> {
        if self
            .preds
            .iter()
            .any(|&p| &*self.store.func(p).name == name)
        {
            return invalid(format!("predicate '{name}' is already declared"));
        }
        for s in sorts {
            one_sexp(s, "a sort")?;
        }
        let cmd = format!("(declare-fun {} ({}) Bool)", symbol(name), sorts.join(" "));
        self.add_smtlib(&cmd)?;
        self.store
            .func_by_name(name)
            .filter(|f| self.preds.contains(f))
            .ok_or_else(|| SessionError::Invalid(format!("'{name}' was not declared")))
    }

    /// The variable `name` of `sort` (SMT-LIB2) as a term, for [`Session::add_clause_term`]:
    /// free variables of a clause are universally quantified.
    pub fn var(&mut self, name: &str, sort: &str) -> Result<TermId, SessionError> {
        one_sexp(sort, "a sort")?;
        let cmd = format!("(declare-const {} {sort})", symbol(name));
        let mut p = Parser::new(cmd.as_bytes(), &mut self.store, Dialect::Chc)
            .map_err(SessionError::Parse)?;
        let mut var = None;
        while let Some((c, _)) = p.next_command().map_err(SessionError::Parse)? {
            if let Command::DeclareConst(v) = c {
                var = Some(v);
            }
        }
        match var {
            Some(v) => Ok(self.store.mk_var(v)),
            None => invalid(format!("cannot make a variable '{name}' of sort {sort}")),
        }
    }

    /// `(name args…)`: a built-in operator of SMT-LIB2 (`+`, `<=`, `and`, `=>`, `ite`,
    /// `select`, …, with the reader's chains and Int/Real promotion; `true`/`false` with no
    /// arguments) or a declared predicate applied to arguments of its sorts.
    pub fn apply(&mut self, name: &str, args: &[TermId]) -> Result<TermId, SessionError> {
        if let Some(&bad) = args.iter().find(|a| a.index() >= self.store.len()) {
            return invalid(format!("term handle {} does not exist", bad.0));
        }
        if let Some(r) = cove_logic::smtlib::apply_by_name(&mut self.store, name, args) {
            return r.map_err(SessionError::Invalid);
        }
        let Some(f) = self
            .store
            .func_by_name(name)
            .filter(|f| self.preds.contains(f))
        else {
            return invalid(format!(
                "'{name}' is neither a built-in operator nor a declared predicate"
            ));
        };
        self.store
            .mk(Op::App(f), args)
            .map_err(|e| SessionError::Invalid(e.0))
    }

    /// A numeral of sort `Int` or `Real` from its text (`"42"`, `"-3"`, `"1/2"`, `"0.25"`).
    pub fn numeral(&mut self, text: &str, sort: Sort) -> Result<TermId, SessionError> {
        let t = text.trim();
        let (neg, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t),
        };
        let dec = cove_logic::Rational::parse_decimal;
        let v = match digits.split_once('/') {
            Some((n, d)) => match (dec(n), dec(d)) {
                (Some(n), Some(d)) if !d.is_zero() => Some(n / d),
                _ => None,
            },
            None => dec(digits),
        };
        let Some(mut v) = v else {
            return invalid(format!("'{text}' is not a numeral"));
        };
        if neg {
            v = -v;
        }
        match sort {
            Sort::Int if !v.is_integer() => invalid(format!("'{text}' is not an integer")),
            Sort::Int | Sort::Real => Ok(self.store.mk_num(v, sort)),
            _ => invalid(format!("a numeral of sort {sort}")),
        }
    }

    /// Adds SMT-LIB2 commands: `declare-fun` (predicates), `declare-rel`, `assert`, `rule`
    /// and `query` (a query clause that stays until popped), plus `set-logic HORN`,
    /// `set-info`, `set-option`, `define-fun`, `define-sort`, `declare-var`. The predicates
    /// declared so far are known. `push`/`pop`/`check-sat` are refused (call the session's
    /// methods). All or nothing: on an error nothing is added. Returns the number of clauses
    /// added.
    pub fn add_smtlib(&mut self, text: &str) -> Result<usize, SessionError> {
        let n = self.add_commands(text, "", "", None)?;
        for cmd in split_commands(text) {
            if matches!(
                cmd.head,
                "declare-fun" | "declare-rel" | "define-fun" | "define-sort" | "declare-var"
            ) {
                self.prelude.push_str(cmd.text);
                self.prelude.push('\n');
                self.prelude_cmds += 1;
            }
        }
        Ok(n)
    }

    /// Replays an SMT-LIB2 CHC script on this session: declarations and assertions are
    /// added, `push`/`pop` open and close scopes, and at every `(check-sat)` (and every
    /// fixedpoint `(query q)`, which asks about `q` alone as in z3) `on_question` is called
    /// with the session — typically to [`Session::solve`] it. Returns what each call returned,
    /// in order; errors are located in `text`.
    pub fn replay<R>(
        &mut self,
        text: &str,
        mut on_question: impl FnMut(&mut Session) -> R,
    ) -> Result<Vec<R>, SessionError> {
        let mut answers = vec![];
        for cmd in split_commands(text) {
            let at = |e: SessionError| match e {
                SessionError::Parse(p) => {
                    let col = if p.line == 1 {
                        cmd.col + p.col - 1
                    } else {
                        p.col
                    };
                    SessionError::Parse(ParseError::new(
                        Pos::new(cmd.line + p.line - 1, col),
                        p.kind,
                        p.message,
                    ))
                }
                SessionError::Invalid(m) => {
                    SessionError::Invalid(format!("{}:{}: {m}", cmd.line, cmd.col))
                }
            };
            match cmd.head {
                "push" | "pop" => {
                    let arg = cmd.text[1..cmd.text.len() - 1].trim()[cmd.head.len()..].trim();
                    let k: usize = if arg.is_empty() {
                        1
                    } else {
                        arg.parse().map_err(|_| {
                            at(SessionError::Invalid(format!(
                                "bad {} level '{arg}'",
                                cmd.head
                            )))
                        })?
                    };
                    if cmd.head == "push" {
                        for _ in 0..k {
                            self.push();
                        }
                    } else {
                        self.pop(k).map_err(at)?;
                    }
                }
                "check-sat" => answers.push(on_question(self)),
                "query" => {
                    self.push();
                    let added = self.add_smtlib(cmd.text).map_err(at);
                    if added.is_ok() {
                        answers.push(on_question(self));
                    }
                    self.pop(1).expect("the scope pushed above");
                    added?;
                }
                "exit" => break,
                "get-model" | "get-info" | "get-proof" | "get-value" | "echo" => {}
                _ => {
                    self.add_smtlib(cmd.text).map_err(at)?;
                }
            }
        }
        Ok(answers)
    }

    /// Adds the clause `formula` (SMT-LIB2, e.g. `(=> (and (inv x) (< x 10)) (inv (+ x 1)))`)
    /// universally quantified over `vars` (`(name, sort)` pairs). Errors are located in
    /// `formula`. Returns the number of clauses added (a conjunction of heads gives several).
    pub fn add_clause_text(
        &mut self,
        formula: &str,
        vars: &[(&str, &str)],
    ) -> Result<usize, SessionError> {
        for (_, s) in vars {
            one_sexp(s, "a sort")?;
        }
        one_sexp(formula, "a formula")?;
        let (open, close) = if vars.is_empty() {
            ("(assert\n".to_string(), "\n)".to_string())
        } else {
            let decls: Vec<String> = vars
                .iter()
                .map(|(n, s)| format!("({} {s})", symbol(n)))
                .collect();
            (
                format!("(assert (forall ({})\n", decls.join(" ")),
                "\n))".to_string(),
            )
        };
        self.add_commands(formula, &open, &close, Some(1))
    }

    /// Adds the clause(s) of a Bool term built in this session's store (free variables are
    /// universally quantified), translated exactly as an asserted formula of a file.
    pub fn add_clause_term(&mut self, t: TermId) -> Result<usize, SessionError> {
        if t.index() >= self.store.len() {
            return invalid(format!("term handle {} does not exist", t.0));
        }
        if self.store.sort(t) != Sort::Bool {
            return invalid(format!(
                "a clause is a Bool term, this one is {}",
                self.store.sort(t)
            ));
        }
        let mut out = vec![];
        {
            let mut p =
                Parser::new(b"", &mut self.store, Dialect::Chc).map_err(SessionError::Parse)?;
            Clausifier::default()
                .clausify(&mut p, t, true, Pos::default(), Pos::default(), &mut out)
                .map_err(|e| SessionError::Invalid(e.message))?;
        }
        if let Some(p) = out.iter().find_map(|c| self.foreign_pred(c)) {
            return invalid(format!(
                "'{}' is not a declared predicate of this session",
                self.store.func(p).name
            ));
        }
        let n = out.len();
        for c in out {
            self.push_clause(c);
        }
        Ok(n)
    }

    /// A predicate of `c` that this session did not declare.
    fn foreign_pred(&self, c: &Clause) -> Option<FuncId> {
        c.body
            .iter()
            .chain(c.head.iter())
            .map(|a| a.pred)
            .find(|p| !self.preds.contains(p))
    }

    /// Reads `open + text + close` after the declarations so far; errors are located in
    /// `text` (`open` ends with a newline). `expect_asserts`: exactly this many assertions.
    fn add_commands(
        &mut self,
        text: &str,
        open: &str,
        close: &str,
        expect_asserts: Option<usize>,
    ) -> Result<usize, SessionError> {
        let offset = (self.prelude.matches('\n').count() + open.matches('\n').count()) as u32;
        let src = format!("{}{open}{text}{close}", self.prelude);
        let known = self.prelude_cmds;
        let mut preds = self.preds.clone();
        let mut clauses: Vec<Clause> = vec![];
        let mut asserts = 0usize;
        let located = |e: ParseError| {
            let pos = if e.line > offset {
                Pos::new(e.line - offset, e.col)
            } else {
                Pos::new(1, 1)
            };
            SessionError::Parse(ParseError::new(pos, e.kind, e.message))
        };
        {
            let mut p =
                Parser::new(src.as_bytes(), &mut self.store, Dialect::Chc).map_err(&located)?;
            let mut cl = Clausifier::default();
            let mut seen = 0usize;
            while let Some((cmd, pos)) = p.next_command().map_err(&located)? {
                seen += 1;
                let refuse = |what: &str| {
                    Err(located(ParseError::new(
                        pos,
                        ErrorKind::InvalidCommand,
                        format!("{what} is not accepted here: use the session's own calls"),
                    )))
                };
                if seen <= known {
                    // The prelude: accepted before.
                    continue;
                }
                match cmd {
                    Command::DeclareFun {
                        decl: Declared::Pred(f),
                        ..
                    }
                    | Command::DeclareRel(f) => preds.push(f),
                    Command::DeclareFun {
                        decl: Declared::Const(_),
                        ..
                    }
                    | Command::DeclareConst(_) => {
                        return Err(located(ParseError::new(
                            pos,
                            ErrorKind::InvalidCommand,
                            "declared constants are not supported in a session \
                             (use variables of the clauses)",
                        )));
                    }
                    Command::SetLogic(l) if !matches!(&*l, "HORN" | "ALL") => {
                        return Err(located(ParseError::new(
                            pos,
                            ErrorKind::UnsupportedLogic,
                            format!("logic {l} is not HORN"),
                        )));
                    }
                    Command::Assert { term, .. } | Command::Rule { term, .. } => {
                        asserts += 1;
                        cl.clausify(&mut p, term, true, pos, pos, &mut clauses)
                            .map_err(&located)?;
                    }
                    Command::Query(q) => {
                        asserts += 1;
                        cl.clausify(&mut p, q, false, pos, pos, &mut clauses)
                            .map_err(&located)?;
                    }
                    Command::Push(_) => return refuse("push"),
                    Command::Pop(_) => return refuse("pop"),
                    Command::CheckSat | Command::CheckSatAssuming(_) => {
                        return refuse("check-sat");
                    }
                    Command::Reset | Command::ResetAssertions => return refuse("reset"),
                    Command::SetLogic(_)
                    | Command::SetInfo { .. }
                    | Command::SetOption { .. }
                    | Command::DefineFun { .. }
                    | Command::DefineSort { .. }
                    | Command::DeclareVar(_)
                    | Command::Echo(_)
                    | Command::Exit => {}
                    _ => return refuse("this command"),
                }
            }
        }
        if let Some(k) = expect_asserts
            && asserts != k
        {
            return invalid(format!(
                "expected one formula, the text holds {asserts} commands' worth"
            ));
        }
        for c in &clauses {
            let local = c
                .body
                .iter()
                .chain(c.head.iter())
                .map(|a| a.pred)
                .find(|p| !preds.contains(p));
            if let Some(p) = local {
                return invalid(format!(
                    "'{}' is not a declared predicate of this session",
                    self.store.func(p).name
                ));
            }
        }
        self.preds = preds;
        let n = clauses.len();
        for c in clauses {
            self.push_clause(c);
        }
        Ok(n)
    }

    /// Solves the system of the clauses in force under `ctl`, reusing what earlier solves
    /// proved when incremental solving is on (see the module documentation). The answer is
    /// checked against the current clauses as [`driver::solve`] checks it.
    pub fn solve(&mut self, cfg: &SolveConfig, ctl: &Control) -> Outcome {
        let start = Instant::now();
        let sys = self.system();
        let ids: Vec<u64> = self.clauses.iter().map(|e| e.id).collect();
        self.last = Reuse::default();
        let mut out = if self.incremental
            && crate::system::unsupported_feature(&sys, &self.store).is_none()
        {
            let out = self.solve_reusing(&sys, &ids, cfg, ctl);
            self.learn(&ids, &out);
            out
        } else {
            let q = Query {
                system: sys,
                constants: vec![],
                pos: None,
            };
            driver::solve(&self.store, &q, cfg, ctl)
        };
        if self.incremental {
            let r = &self.last;
            out.stats.extend([
                ("session.lemmas".to_string(), r.lemmas_offered.to_string()),
                (
                    "session.lemmas-inductive".to_string(),
                    r.lemmas_inductive.to_string(),
                ),
                ("session.facts".to_string(), r.facts_alive.to_string()),
                (
                    "session.answered-by".to_string(),
                    r.answered_by.unwrap_or("engine").to_string(),
                ),
            ]);
        }
        out.time = start.elapsed();
        out
    }

    fn solve_reusing(
        &mut self,
        sys: &ChcSystem,
        ids: &[u64],
        cfg: &SolveConfig,
        ctl: &Control,
    ) -> Outcome {
        let mut store = self.store.clone();
        // 1. A counterexample from recorded facts.
        if let Some(d) = self.derive_from_facts(&mut store, sys, ids, ctl) {
            let (answer, validation, _) =
                driver::validate(&mut store, sys, ChcResult::Unsat(d), ctl);
            if validation.is_valid() {
                self.last.answered_by = Some("facts");
                return reused(answer, store, "facts", validation);
            }
        }
        // 2. The lemmas that are inductive for the current rules.
        let map = self.inductive_lemmas(&mut store, sys, ids, ctl);
        let Some(map) = map else {
            let q = Query {
                system: sys.clone(),
                constants: vec![],
                pos: None,
            };
            return driver::solve(&store, &q, cfg, ctl);
        };
        if let Ok(true) = blocks_queries(&mut store, sys, &map, ctl) {
            let inv = map.invariants(&mut store);
            let (answer, validation, _) =
                driver::validate(&mut store, sys, ChcResult::Sat(inv), ctl);
            if validation.is_valid() {
                self.last.answered_by = Some("lemmas");
                return reused(answer, store, "lemmas", validation);
            }
        }
        // 3. The engine on the system strengthened with the lemmas.
        let strong = map.strengthen(&mut store, sys);
        let inner = SolveConfig {
            validate: false,
            ..cfg.clone()
        };
        let q = Query {
            system: strong,
            constants: vec![],
            pos: None,
        };
        let mut out = driver::solve(&store, &q, &inner, ctl);
        let answer = match std::mem::replace(
            &mut out.answer,
            ChcResult::Unknown(UnknownReason::Interrupted),
        ) {
            ChcResult::Sat(mut inv) => match map.conjoin(&mut out.store, &mut inv) {
                Ok(()) => ChcResult::Sat(inv),
                Err(p) => ChcResult::Unknown(UnknownReason::Incomplete(format!(
                    "no invariant for '{}' to conjoin the lemmas to",
                    out.store.func(p).name
                ))),
            },
            other => other,
        };
        if !out.engine.is_empty() {
            out.engine.push_str("+lemmas");
        }
        if matches!(answer, ChcResult::Unknown(_)) {
            out.answer = answer;
            return out;
        }
        if cfg.validate {
            let (answer, validation, phase) = driver::validate(&mut out.store, sys, answer, ctl);
            out.answer = answer;
            out.validation = validation;
            out.phase = phase;
        } else {
            out.answer = answer;
            out.validation = Validation::Skipped;
        }
        out
    }

    /// The recorded lemmas that are inductive for the rule clauses of `sys` (Houdini when a
    /// rule was added since they were last shown inductive); `None` when none is.
    fn inductive_lemmas(
        &mut self,
        store: &mut TermStore,
        sys: &ChcSystem,
        ids: &[u64],
        ctl: &Control,
    ) -> Option<InvMap> {
        if self.memory.lemmas.is_empty() {
            return None;
        }
        self.last.lemmas_offered = self.memory.lemmas.len();
        let rules = rule_ids(sys, ids);
        let mut map = InvMap::new(store, sys);
        map.add_shared(store, &self.memory.lemmas);
        let known = self
            .memory
            .inductive_for
            .as_ref()
            .is_some_and(|s| rules.is_subset(s));
        if !known {
            self.last.houdini = true;
            // Houdini is bounded by the caller's limits; if they stop it, the lemmas are
            // not used this time (and stay candidates).
            houdini(store, sys, &mut map, ctl).ok()?;
            self.memory.lemmas = detach_map(store, &map);
            self.memory.inductive_for = Some(rules);
        }
        self.last.lemmas_inductive = map.size();
        (map.size() > 0).then_some(map)
    }

    /// Records what a checked answer proved.
    fn learn(&mut self, ids: &[u64], out: &Outcome) {
        match &out.answer {
            ChcResult::Sat(inv) => {
                let checked = out.validation.is_valid();
                // The recorded lemmas are inductive for the current rules when they were
                // checked (or reused as known) in this solve; a checked invariant is
                // inductive too, and so is the conjunction of both.
                let sys_rules: FxHashSet<u64> = rule_ids_of(&self.clauses);
                let lemmas_known = self.memory.lemmas.is_empty()
                    || self
                        .memory
                        .inductive_for
                        .as_ref()
                        .is_some_and(|s| sys_rules.is_subset(s));
                let mut seen: FxHashSet<SharedLemma> = self.memory.lemmas.iter().cloned().collect();
                for (&p, def) in &inv.defs {
                    for c in flat_conjuncts(&out.store, def.body) {
                        if let Some(l) = SharedLemma::new(&out.store, p, &def.params, c)
                            && seen.insert(l.clone())
                        {
                            self.memory.lemmas.push(l);
                        }
                    }
                }
                // A subset of an inductive set need not be inductive: a cut set is checked
                // again (Houdini) before it is used.
                let cut = self.memory.lemmas.len().saturating_sub(MAX_LEMMAS);
                self.memory.lemmas.drain(..cut);
                self.memory.inductive_for =
                    (checked && lemmas_known && cut == 0).then_some(sys_rules);
            }
            ChcResult::Unsat(d) if out.validation.is_valid() => {
                if self.memory.facts.len() + d.steps.len() > MAX_FACTS {
                    return;
                }
                // Steps with a head become facts; premises are renumbered.
                let mut index: FxHashMap<usize, usize> = FxHashMap::default();
                for (i, st) in topological(d).into_iter().map(|i| (i, &d.steps[i])) {
                    let Some(head) = &st.head else { continue };
                    let premises: Option<Vec<usize>> =
                        st.premises.iter().map(|p| index.get(p).copied()).collect();
                    let Some(premises) = premises else { continue };
                    index.insert(i, self.memory.facts.len());
                    self.memory.facts.push(Fact {
                        clause: ids[st.clause],
                        head: head.clone(),
                        premises,
                        assignment: st.assignment.clone(),
                    });
                }
            }
            _ => {}
        }
    }

    /// Which recorded facts are still derivable: their clause and all their premises'
    /// clauses are in force.
    fn alive_facts(&self) -> Vec<bool> {
        let present: FxHashSet<u64> = self.clauses.iter().map(|e| e.id).collect();
        // Premises are recorded before the facts that use them.
        let mut alive = Vec::with_capacity(self.memory.facts.len());
        for f in &self.memory.facts {
            let ok = present.contains(&f.clause) && f.premises.iter().all(|&p| alive[p]);
            alive.push(ok);
        }
        alive
    }

    /// Drops the facts that can never be derivable again (a clause they used was popped;
    /// clause identities are never reused).
    fn forget_dead_facts(&mut self) {
        let alive = self.alive_facts();
        if alive.iter().all(|&a| a) {
            return;
        }
        let mut renum: Vec<Option<usize>> = vec![None; alive.len()];
        let mut kept = Vec::new();
        for (i, f) in std::mem::take(&mut self.memory.facts)
            .into_iter()
            .enumerate()
        {
            if alive[i] {
                renum[i] = Some(kept.len());
                let premises = f
                    .premises
                    .iter()
                    .map(|&p| renum[p].expect("alive"))
                    .collect();
                kept.push(Fact { premises, ..f });
            }
        }
        self.memory.facts = kept;
    }

    /// A counterexample made of recorded facts and one query clause of `sys`, if some query
    /// clause's body is satisfied by live facts (one SMT call per query clause).
    fn derive_from_facts(
        &mut self,
        store: &mut TermStore,
        sys: &ChcSystem,
        ids: &[u64],
        ctl: &Control,
    ) -> Option<Derivation> {
        if self.memory.facts.is_empty() {
            return None;
        }
        let alive = self.alive_facts();
        let mut by_pred: FxHashMap<FuncId, Vec<usize>> = FxHashMap::default();
        for (i, f) in self.memory.facts.iter().enumerate() {
            if alive[i] {
                by_pred.entry(f.head.0).or_default().push(i);
            }
        }
        self.last.facts_alive = alive.iter().filter(|&&a| a).count();
        let position: FxHashMap<u64, usize> =
            ids.iter().enumerate().map(|(i, &id)| (id, i)).collect();
        for (qi, c) in sys.clauses.iter().enumerate() {
            if !c.is_query() || c.body.is_empty() {
                continue;
            }
            if ctl.should_stop().is_some() {
                return None;
            }
            if !c.body.iter().all(|b| by_pred.contains_key(&b.pred)) {
                continue;
            }
            let mut s = SmtSolver::new();
            s.set_limits(cove_smt::Limits::of(ctl));
            s.assert(store, c.constraint);
            // Per body atom: the disjunction over facts of "the arguments are its values".
            let mut choices: Vec<Vec<(usize, TermId)>> = vec![];
            for b in &c.body {
                let sorts: Vec<Sort> = store.func(b.pred).args.to_vec();
                let mut opts = vec![];
                for &fi in by_pred[&b.pred].iter().take(MAX_FACTS_PER_ATOM) {
                    let vals = &self.memory.facts[fi].head.1;
                    let eqs: Vec<TermId> = b
                        .args
                        .iter()
                        .zip(vals)
                        .zip(&sorts)
                        .map(|((&a, v), &srt)| {
                            let vt = v.to_term(store, srt);
                            store.mk_eq(a, vt)
                        })
                        .collect();
                    let conj = store.mk_and(&eqs);
                    opts.push((fi, conj));
                }
                let disj: Vec<TermId> = opts.iter().map(|o| o.1).collect();
                let d = store.mk_or(&disj);
                s.assert(store, d);
                choices.push(opts);
            }
            if s.check(store) != SmtResult::Sat {
                continue;
            }
            let m = s.model(store);
            let mut chosen = vec![];
            for opts in &choices {
                let f = opts
                    .iter()
                    .find(|(_, t)| m.eval(store, *t).ok() == Some(Value::Bool(true)))?;
                chosen.push(f.0);
            }
            let assignment: Vec<(VarId, Value)> = c
                .vars
                .iter()
                .map(|&v| {
                    let val = m
                        .get(v)
                        .cloned()
                        .unwrap_or_else(|| Value::default_of(store.var_sort(v)));
                    (v, val)
                })
                .collect();
            return self.derivation(&chosen, qi, assignment, &position);
        }
        None
    }

    /// The derivation of `false` by query clause `qi` from the facts `chosen` (one per body
    /// atom) with their recorded derivations.
    fn derivation(
        &self,
        chosen: &[usize],
        qi: usize,
        assignment: Vec<(VarId, Value)>,
        position: &FxHashMap<u64, usize>,
    ) -> Option<Derivation> {
        // The facts needed, in recording order (premises first).
        let mut need: FxHashSet<usize> = FxHashSet::default();
        let mut stack: Vec<usize> = chosen.to_vec();
        while let Some(f) = stack.pop() {
            if need.insert(f) {
                stack.extend(self.memory.facts[f].premises.iter().copied());
            }
        }
        let mut order: Vec<usize> = need.into_iter().collect();
        order.sort_unstable();
        let renum: FxHashMap<usize, usize> =
            order.iter().enumerate().map(|(i, &f)| (f, i)).collect();
        let mut steps = Vec::with_capacity(order.len() + 1);
        for &f in &order {
            let fact = &self.memory.facts[f];
            steps.push(DerivationStep {
                clause: *position.get(&fact.clause)?,
                head: Some(fact.head.clone()),
                premises: fact.premises.iter().map(|p| renum[p]).collect(),
                assignment: fact.assignment.clone(),
            });
        }
        steps.push(DerivationStep {
            clause: qi,
            head: None,
            premises: chosen.iter().map(|f| renum[f]).collect(),
            assignment,
        });
        Some(Derivation {
            root: steps.len() - 1,
            steps,
        })
    }
}

/// An outcome answered by reuse alone.
fn reused(answer: ChcResult, store: TermStore, what: &str, validation: Validation) -> Outcome {
    Outcome {
        answer,
        store,
        engine: format!("session:{what}"),
        validation,
        constants: vec![],
        phase: None,
        stats: vec![],
        time: Duration::ZERO,
    }
}

/// The identities of the non-query clauses of `sys`.
fn rule_ids(sys: &ChcSystem, ids: &[u64]) -> FxHashSet<u64> {
    sys.clauses
        .iter()
        .zip(ids)
        .filter(|(c, _)| !c.is_query())
        .map(|(_, &id)| id)
        .collect()
}

fn rule_ids_of(entries: &[Entry]) -> FxHashSet<u64> {
    entries
        .iter()
        .filter(|e| !e.clause.is_query())
        .map(|e| e.id)
        .collect()
}

/// The map's formulas as store-independent lemmas.
fn detach_map(store: &TermStore, map: &InvMap) -> Vec<SharedLemma> {
    let mut out = vec![];
    let mut preds: Vec<&FuncId> = map.sets.keys().collect();
    preds.sort();
    for p in preds {
        let params = &map.params[p];
        for &f in &map.sets[p] {
            if let Some(l) = SharedLemma::new(store, *p, params, f) {
                out.push(l);
            }
        }
    }
    out
}

/// The conjuncts of `t`, nested conjunctions flattened (explicit stack).
fn flat_conjuncts(store: &TermStore, t: TermId) -> Vec<TermId> {
    let mut out = vec![];
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        match store.op(u) {
            Op::And => stack.extend(store.args(u).iter().rev()),
            Op::Bool(true) => {}
            _ => out.push(u),
        }
    }
    out
}

/// The steps of `d` reachable from its root, premises before the steps that use them.
fn topological(d: &Derivation) -> Vec<usize> {
    let mut done = vec![false; d.steps.len()];
    let mut order = vec![];
    let mut stack = vec![(d.root, false)];
    while let Some((s, expanded)) = stack.pop() {
        if s >= d.steps.len() || done[s] {
            continue;
        }
        if expanded {
            done[s] = true;
            order.push(s);
            continue;
        }
        stack.push((s, true));
        for &p in d.steps[s].premises.iter().rev() {
            if p < d.steps.len() && !done[p] {
                stack.push((p, false));
            }
        }
    }
    order
}

/// One top-level command of a script: its text, head symbol and position.
struct CommandText<'a> {
    text: &'a str,
    head: &'a str,
    line: u32,
    col: u32,
}

/// The top-level parenthesized commands of `src` (comments, strings and quoted symbols
/// skipped), each with its head symbol. Text outside parentheses becomes a command of its
/// own with an empty head, and an unbalanced tail runs to the end: the reader then reports
/// the error.
fn split_commands(src: &str) -> Vec<CommandText<'_>> {
    let bytes = src.as_bytes();
    let mut out = vec![];
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let advance = |i: &mut usize, line: &mut u32, col: &mut u32| {
        if bytes[*i] == b'\n' {
            *line += 1;
            *col = 1;
        } else if (bytes[*i] & 0xC0) != 0x80 {
            *col += 1;
        }
        *i += 1;
    };
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            advance(&mut i, &mut line, &mut col);
            continue;
        }
        if c == b';' {
            while i < bytes.len() && bytes[i] != b'\n' {
                advance(&mut i, &mut line, &mut col);
            }
            continue;
        }
        let (start, sl, sc) = (i, line, col);
        let mut depth = 0i64;
        let (mut quote, mut string) = (false, false);
        while i < bytes.len() {
            let b = bytes[i];
            if quote {
                quote = b != b'|';
            } else if string {
                string = b != b'"';
            } else if b == b';' {
                while i < bytes.len() && bytes[i] != b'\n' {
                    advance(&mut i, &mut line, &mut col);
                }
                continue;
            } else if depth == 0 && i > start && (b.is_ascii_whitespace() || b == b'(') {
                // The end of a top-level atom.
                break;
            } else {
                match b {
                    b'|' => quote = true,
                    b'"' => string = true,
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    _ => {}
                }
            }
            advance(&mut i, &mut line, &mut col);
            if depth <= 0 && !quote && !string && b == b')' {
                break;
            }
        }
        let text = &src[start..i];
        let head = text
            .strip_prefix('(')
            .map(|t| {
                let t = t.trim_start();
                let end = t
                    .find(|ch: char| ch.is_whitespace() || ch == '(' || ch == ')')
                    .unwrap_or(t.len());
                &t[..end]
            })
            .unwrap_or("");
        out.push(CommandText {
            text,
            head,
            line: sl,
            col: sc,
        });
    }
    out
}

/// Refuses text that is not one balanced S-expression or atom (so that a sort or formula
/// spliced into a command cannot close it and start another).
fn one_sexp(s: &str, what: &str) -> Result<(), SessionError> {
    let mut depth = 0i64;
    let mut in_quote = false;
    let mut in_string = false;
    let mut closed_top = false;
    let trimmed = s.trim();
    if trimmed.is_empty() {
        return invalid(format!("{what} is empty"));
    }
    for ch in trimmed.chars() {
        if in_quote {
            in_quote = ch != '|';
            continue;
        }
        if in_string {
            in_string = ch != '"';
            continue;
        }
        if closed_top && !ch.is_whitespace() {
            return invalid(format!("'{s}' is not {what} (one S-expression)"));
        }
        match ch {
            '|' => in_quote = true,
            '"' => in_string = true,
            ';' => return invalid(format!("'{s}' is not {what} (comment inside)")),
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return invalid(format!("'{s}' is not {what} (unbalanced ')')"));
                }
                if depth == 0 {
                    closed_top = true;
                }
            }
            c if c.is_whitespace() && depth == 0 && !closed_top => {
                return invalid(format!("'{s}' is not {what} (one S-expression)"));
            }
            _ => {}
        }
    }
    if depth != 0 || in_quote || in_string {
        return Err(SessionError::Parse(ParseError::new(
            Pos::new(1, 1),
            ErrorKind::Syntax,
            format!("'{s}' is not {what}: unbalanced parentheses or quotes"),
        )));
    }
    Ok(())
}

/// A solve request as the bindings make it, by name: the engine (`"portfolio"` or an engine
/// name), threads, limits, and the switches of `cove solve`. [`SolveRequest::config`] turns
/// it into the driver's typed [`SolveConfig`] (and [`SolveRequest::control`] into limits).
#[derive(Clone, Debug)]
pub struct SolveRequest {
    /// `"portfolio"` or an engine name.
    pub engine: String,
    /// Portfolio threads (0 = the available cores).
    pub threads: usize,
    /// Wall-clock limit (`None` = none).
    pub timeout: Option<Duration>,
    /// Memory limit in MiB (`None` = none), process-wide as [`cove_control::memory`] measures.
    pub memory_mb: Option<u64>,
    /// Preprocess (on by default).
    pub preprocess: bool,
    /// Check certificates (on by default).
    pub validate: bool,
}

impl Default for SolveRequest {
    fn default() -> SolveRequest {
        SolveRequest {
            engine: "portfolio".into(),
            threads: 0,
            timeout: None,
            memory_mb: None,
            preprocess: true,
            validate: true,
        }
    }
}

impl SolveRequest {
    /// The driver's configuration; `Err` names an unknown engine and lists the known ones.
    pub fn config(&self) -> Result<SolveConfig, String> {
        let Some(engine) = driver::EngineChoice::parse(&self.engine) else {
            return Err(format!(
                "unknown engine '{}' (available: {})",
                self.engine,
                Self::engine_names().join(", ")
            ));
        };
        Ok(SolveConfig {
            engine,
            threads: self.threads,
            preprocess: self.preprocess,
            validate: self.validate,
            ..SolveConfig::default()
        })
    }

    /// Every engine name [`SolveRequest::engine`] accepts.
    pub fn engine_names() -> Vec<&'static str> {
        driver::EngineChoice::names()
    }

    /// A control with these limits, stopped by `interrupt` (and its ancestors).
    pub fn control(&self, interrupt: cove_control::Interrupt) -> Control {
        let mut ctl = Control {
            interrupt,
            ..Control::default()
        };
        if let Some(t) = self.timeout {
            ctl = ctl.with_timeout(t);
        }
        if let Some(mb) = self.memory_mb {
            ctl = ctl.with_memory_limit(mb.saturating_mul(1 << 20));
        }
        ctl
    }
}

#[cfg(test)]
mod tests;
