//! The command interpreter: declarations, scopes (`push`/`pop`), logics and the commands of
//! SMT-LIB2 and Z3's fixedpoint format. Term elaboration lives in `elab.rs`.
//!
//! # Invariants
//! - Exactly one global binding per visible name; `push` records an undo mark and `pop`
//!   removes the names declared since.
//! - Variables the parser invents (macro parameters, renamed binders) are recorded in
//!   `fresh`, and a user symbol that happens to spell one of them gets a fresh variable
//!   instead, so user names can never alias invented ones.

use super::builtins::{is_builtin_name, is_reserved_word, unsupported_sort};
use super::command::{Command, Script};
use super::error::{ErrorKind, ParseError, Pos, err};
use super::sexp::{Arena, NodeId, Reader};
use crate::{FuncId, Sort, TermId, TermStore, VarId};
use rustc_hash::{FxHashMap, FxHashSet};

/// Most `push` scopes open at once.
const MAX_SCOPES: usize = 1 << 20;

mod commands;
mod datatypes;

/// How declarations are read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// SMT scripts: a Bool-valued `declare-fun` is a predicate only under `(set-logic HORN)`;
    /// otherwise 0-ary declarations are constants and n-ary ones (uninterpreted functions)
    /// are unsupported.
    Smt,
    /// CHC files (SMT-LIB `HORN` or Z3 fixedpoint): every Bool-valued `declare-fun` is a
    /// predicate, whatever the logic.
    Chc,
}

/// A global symbol.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Global {
    Func(FuncId),
    /// A constant, a `declare-var` variable or a `:named` term.
    Const(TermId),
    Macro(u32),
    /// Constructor `c` of a datatype.
    Ctor(Sort, u32),
    /// Selector of field `f` of constructor `c` of a datatype.
    Sel(Sort, u32, u32),
    /// Z3's tester `is-C` of constructor `c` of a datatype.
    Test(Sort, u32),
}

/// A `define-fun`, expanded at each use.
pub(crate) struct Macro {
    pub(crate) name: Box<str>,
    pub(crate) params: Vec<VarId>,
    pub(crate) body: TermId,
}

enum Undo {
    Global(Box<str>),
    Sort(Box<str>),
}

/// A streaming SMT-LIB2 reader: one elaborated command per [`Parser::next_command`].
///
/// After an error the parser is finished: further calls return `Ok(None)`.
pub struct Parser<'a, 's> {
    pub(crate) reader: Reader<'a>,
    pub(crate) arena: Arena<'a>,
    pub(crate) store: &'s mut TermStore,
    dialect: Dialect,
    logic: Option<Box<str>>,
    pub(crate) globals: FxHashMap<Box<str>, Global>,
    sorts: FxHashMap<Box<str>, Sort>,
    undo: Vec<Undo>,
    scopes: Vec<usize>,
    pub(crate) macros: Vec<Macro>,
    /// Let-, quantifier- and parameter-bound symbols (innermost last).
    pub(crate) locals: FxHashMap<&'a str, Vec<TermId>>,
    pub(crate) local_log: Vec<&'a str>,
    /// Images of the active `let` bindings (for the capture check of binders).
    pub(crate) let_terms: Vec<TermId>,
    /// Variables bound by the active quantifiers and `define-fun` parameters.
    pub(crate) bound_vars: Vec<VarId>,
    pub(crate) fresh: FxHashSet<VarId>,
    pub(crate) term_pos: FxHashMap<TermId, Pos>,
    done: bool,
}

/// Parses a whole script in the [`Dialect::Smt`] dialect.
pub fn parse_script(src: &[u8], store: &mut TermStore) -> Result<Script, ParseError> {
    let mut p = Parser::new(src, store, Dialect::Smt)?;
    let mut script = Script::default();
    while let Some(c) = p.next_command()? {
        script.commands.push(c);
    }
    Ok(script)
}

impl<'a, 's> Parser<'a, 's> {
    /// A parser over `src`, adding terms to `store`. Fails only on invalid UTF-8.
    pub fn new(
        src: &'a [u8],
        store: &'s mut TermStore,
        dialect: Dialect,
    ) -> Result<Parser<'a, 's>, ParseError> {
        Ok(Parser {
            reader: Reader::new(src)?,
            arena: Arena::default(),
            store,
            dialect,
            logic: None,
            globals: FxHashMap::default(),
            sorts: FxHashMap::default(),
            undo: vec![],
            scopes: vec![],
            macros: vec![],
            locals: FxHashMap::default(),
            local_log: vec![],
            let_terms: vec![],
            bound_vars: vec![],
            fresh: FxHashSet::default(),
            term_pos: FxHashMap::default(),
            done: false,
        })
    }

    /// The term store.
    pub fn store(&mut self) -> &mut TermStore {
        self.store
    }

    /// The term store, read-only.
    pub fn store_ref(&self) -> &TermStore {
        self.store
    }

    /// Where `t` first occurs in the most recent command, if it was written there.
    pub fn pos_of(&self, t: TermId) -> Option<Pos> {
        self.term_pos.get(&t).copied()
    }

    /// The logic set by `set-logic`, if any.
    pub fn logic(&self) -> Option<&str> {
        self.logic.as_deref()
    }

    /// A variable that no user symbol can alias (see the module invariants).
    pub fn fresh_var(&mut self, prefix: &str, sort: Sort) -> VarId {
        let v = self.store.fresh_var(prefix, sort);
        self.fresh.insert(v);
        v
    }

    /// Capture-avoiding substitution (see [`crate::subst::substitute`]) whose renamed binders
    /// are recorded like [`Parser::fresh_var`]'s.
    pub fn substitute(&mut self, t: TermId, map: &FxHashMap<VarId, TermId>) -> TermId {
        let fresh = &mut self.fresh;
        crate::subst::substitute_with(self.store, t, map, &mut |s, v| {
            let (name, sort) = (s.var_name(v).to_string(), s.var_sort(v));
            let w = s.fresh_var(&name, sort);
            fresh.insert(w);
            w
        })
    }

    /// The variable a user symbol `name` of `sort` denotes when introduced by a declaration.
    pub(crate) fn user_var(&mut self, name: &str, sort: Sort) -> VarId {
        let v = self.store.var(name, sort);
        if self.fresh.contains(&v) {
            self.fresh_var(name, sort)
        } else {
            v
        }
    }

    /// Reads and elaborates the next command; `Ok(None)` at end of input or after `exit`.
    pub fn next_command(&mut self) -> Result<Option<(Command, Pos)>, ParseError> {
        if self.done {
            return Ok(None);
        }
        self.arena.clear();
        self.term_pos.clear();
        let r = match self.reader.read(&mut self.arena) {
            Ok(None) => Ok(None),
            Ok(Some(top)) => self.command(top).map(|c| Some((c, self.arena.pos(top)))),
            Err(e) => Err(e),
        };
        if !matches!(r, Ok(Some((ref c, _))) if *c != Command::Exit) {
            self.done = true;
            self.locals.clear();
            self.local_log.clear();
            self.let_terms.clear();
            self.bound_vars.clear();
        }
        r
    }

    fn horn(&self) -> bool {
        self.dialect == Dialect::Chc || self.logic.as_deref() == Some("HORN")
    }

    pub(crate) fn kid(&self, node: NodeId, i: usize) -> NodeId {
        self.arena.list(node).expect("list")[i]
    }

    pub(crate) fn len(&self, node: NodeId) -> Option<usize> {
        self.arena.list(node).map(|k| k.len())
    }

    fn text(&self, node: NodeId) -> &'a str {
        let n = self.arena.node(node);
        &self.reader.src()[n.start..n.end]
    }

    fn symbol_at(&self, node: NodeId, what: &str) -> Result<&'a str, ParseError> {
        match self.arena.symbol(node) {
            Some(s) => Ok(s),
            None => err(
                self.arena.pos(node),
                ErrorKind::Syntax,
                format!("expected {what}, found {}", self.arena.describe(node)),
            ),
        }
    }

    fn keyword_at(&self, node: NodeId) -> Result<&'a str, ParseError> {
        match self.arena.atom(node) {
            Some(super::sexp::Atom::Keyword(k)) => Ok(k),
            _ => err(
                self.arena.pos(node),
                ErrorKind::Syntax,
                format!("expected a keyword, found {}", self.arena.describe(node)),
            ),
        }
    }

    fn shape(&self, node: NodeId, ok: bool, usage: &str) -> Result<(), ParseError> {
        if ok {
            Ok(())
        } else {
            err(
                self.arena.pos(node),
                ErrorKind::Syntax,
                format!("malformed command, expected {usage}"),
            )
        }
    }

    /// Parses a sort.
    pub(crate) fn sort(&self, node: NodeId) -> Result<Sort, ParseError> {
        let pos = self.arena.pos(node);
        if let Some(name) = self.arena.symbol(node) {
            return match name {
                "Bool" => Ok(Sort::Bool),
                "Int" => Ok(Sort::Int),
                "Real" => Ok(Sort::Real),
                _ => match (self.sorts.get(name), unsupported_sort(name)) {
                    (Some(&s), _) => Ok(s),
                    (None, Some(th)) => err(
                        pos,
                        ErrorKind::UnsupportedTheory,
                        format!("sort '{name}' is not supported (theory of {th})"),
                    ),
                    (None, None) => err(
                        pos,
                        ErrorKind::UnknownSymbol,
                        format!("unknown sort '{name}'"),
                    ),
                },
            };
        }
        let Some(kids) = self.arena.list(node) else {
            return err(
                pos,
                ErrorKind::Syntax,
                format!("expected a sort, found {}", self.arena.describe(node)),
            );
        };
        let head = kids.first().and_then(|&k| self.arena.symbol(k));
        let sub = kids.get(1).and_then(|&k| self.arena.symbol(k));
        match (head, sub) {
            (Some("Array"), _) if kids.len() == 3 => {
                let i = self.sort(kids[1])?;
                let e = self.sort(kids[2])?;
                Ok(Sort::array(i, e))
            }
            (Some("_"), Some("BitVec")) => {
                let w = match kids.get(2).and_then(|&k| self.arena.atom(k)) {
                    Some(super::sexp::Atom::Numeral(s)) if kids.len() == 3 => s.parse::<u32>().ok(),
                    _ => None,
                };
                match w {
                    Some(w) if (1..=crate::bv::MAX_WIDTH).contains(&w) => Ok(Sort::BitVec(w)),
                    _ => err(
                        pos,
                        ErrorKind::Sort,
                        format!(
                            "expected (_ BitVec N) with 1 <= N <= {}",
                            crate::bv::MAX_WIDTH
                        ),
                    ),
                }
            }
            (Some("_"), Some("FloatingPoint")) => err(
                pos,
                ErrorKind::UnsupportedTheory,
                "floating-point sorts are not supported",
            ),
            (Some(h), _) if unsupported_sort(h).is_some() => err(
                pos,
                ErrorKind::UnsupportedTheory,
                format!(
                    "sort '{h}' is not supported (theory of {})",
                    unsupported_sort(h).unwrap_or("?")
                ),
            ),
            _ => err(
                pos,
                ErrorKind::UnknownSymbol,
                format!("unknown sort '{}'", self.text(node)),
            ),
        }
    }

    fn sort_list(&self, node: NodeId) -> Result<Vec<Sort>, ParseError> {
        let Some(kids) = self.arena.list(node) else {
            return err(
                self.arena.pos(node),
                ErrorKind::Syntax,
                format!(
                    "expected a list of sorts, found {}",
                    self.arena.describe(node)
                ),
            );
        };
        kids.iter().map(|&k| self.sort(k)).collect()
    }

    /// Checks that `name` may be declared as a new global symbol.
    fn check_fresh_name(&self, node: NodeId, name: &str) -> Result<(), ParseError> {
        let pos = self.arena.pos(node);
        let reserved = is_reserved_word(name) && self.arena.plain_symbol(node).is_some();
        if is_builtin_name(name) || reserved {
            return err(
                pos,
                ErrorKind::Redeclared,
                format!("cannot declare the built-in symbol '{name}'"),
            );
        }
        if self.globals.contains_key(name) {
            return err(
                pos,
                ErrorKind::Redeclared,
                format!("symbol '{name}' is already declared"),
            );
        }
        Ok(())
    }

    pub(crate) fn bind_global(&mut self, name: &str, g: Global) {
        self.globals.insert(name.into(), g);
        self.undo.push(Undo::Global(name.into()));
    }

    fn declare_pred(&mut self, node: NodeId, name: &str, args: &[Sort]) -> FuncId {
        let f = match self.store.declare_func(name, args, Sort::Bool) {
            Ok(f) => f,
            // The name is taken in the store by a declaration that is no longer visible
            // (popped or reset): a new symbol with a derived name.
            Err(_) => {
                let mut i = 1u64;
                loop {
                    let alt = format!("{name}!{i}");
                    if self.store.func_by_name(&alt).is_none() {
                        break self
                            .store
                            .declare_func(&alt, args, Sort::Bool)
                            .expect("unused name");
                    }
                    i += 1;
                }
            }
        };
        let _ = node;
        self.bind_global(name, Global::Func(f));
        f
    }

    fn command(&mut self, top: NodeId) -> Result<Command, ParseError> {
        let pos = self.arena.pos(top);
        let Some(n) = self.len(top) else {
            return err(
                pos,
                ErrorKind::Syntax,
                format!(
                    "expected a command '(name ...)', found {}",
                    self.arena.describe(top)
                ),
            );
        };
        if n == 0 {
            return err(
                pos,
                ErrorKind::Syntax,
                "expected a command '(name ...)', found '()'",
            );
        }
        let head = self.kid(top, 0);
        let Some(name) = self.arena.plain_symbol(head) else {
            return err(
                self.arena.pos(head),
                ErrorKind::Syntax,
                format!(
                    "expected a command name, found {}",
                    self.arena.describe(head)
                ),
            );
        };
        match name {
            "set-logic" => self.cmd_set_logic(top, n, name, pos),
            "set-info" | "set-option" => self.cmd_info(top, n, name, pos),
            "get-info" | "get-option" => self.cmd_get_info(top, n, name, pos),
            "declare-fun" => self.cmd_declare_fun(top, n, name, pos),
            "declare-const" | "declare-var" => self.cmd_declare_const(top, n, name, pos),
            "declare-rel" => self.cmd_declare_rel(top, n, name, pos),
            "define-fun" => self.define_fun(top),
            "define-sort" => self.cmd_define_sort(top, n, name, pos),
            "assert" | "rule" => self.cmd_assert_or_rule(top, n, name, pos),
            "query" => self.cmd_query(top, n, name, pos),
            "check-sat" => self.cmd_check_sat(top, n, name, pos),
            "check-sat-assuming" | "get-value" => self.cmd_terms(top, n, name, pos),
            "get-model"
            | "get-unsat-core"
            | "get-unsat-assumptions"
            | "get-assertions"
            | "get-assignment"
            | "get-proof"
            | "reset"
            | "reset-assertions"
            | "exit" => self.cmd_nullary(top, n, name, pos),
            "push" | "pop" => self.cmd_scope(top, n, name, pos),
            "echo" => self.cmd_echo(top, n, name, pos),
            "declare-sort" => err(
                pos,
                ErrorKind::UnsupportedTheory,
                "uninterpreted sorts (declare-sort) are not supported",
            ),
            "declare-datatype" | "declare-datatypes" => {
                self.cmd_declare_datatypes(top, n, name, pos)
            }
            "declare-codatatypes" => err(
                pos,
                ErrorKind::UnsupportedTheory,
                "codatatypes are not supported",
            ),
            "define-fun-rec" | "define-funs-rec" => err(
                pos,
                ErrorKind::UnsupportedTheory,
                "recursive function definitions are not supported",
            ),
            _ => err(
                self.arena.pos(head),
                ErrorKind::UnknownCommand,
                format!("unknown command '{name}'"),
            ),
        }
    }

    fn define_fun(&mut self, top: NodeId) -> Result<Command, ParseError> {
        let n = self.len(top).unwrap_or(0);
        self.shape(top, n == 5, "(define-fun NAME ((NAME SORT)*) SORT TERM)")?;
        let name_node = self.kid(top, 1);
        let f = self.symbol_at(name_node, "a function name")?;
        self.check_fresh_name(name_node, f)?;
        let plist = self.kid(top, 2);
        let Some(k) = self.len(plist) else {
            return err(
                self.arena.pos(plist),
                ErrorKind::Syntax,
                "expected a parameter list ((NAME SORT)*)",
            );
        };
        let mut names: Vec<&'a str> = Vec::with_capacity(k);
        let mut params = Vec::with_capacity(k);
        for i in 0..k {
            let p = self.kid(plist, i);
            let (pname, sort) = self.sorted_var(p)?;
            if names.contains(&pname) {
                return err(
                    self.arena.pos(p),
                    ErrorKind::Redeclared,
                    format!("duplicate parameter '{pname}'"),
                );
            }
            names.push(pname);
            params.push(self.fresh_var(pname, sort));
        }
        let ret = self.sort(self.kid(top, 3))?;
        for (i, &pname) in names.iter().enumerate() {
            let t = self.store.mk_var(params[i]);
            self.push_local(pname, t);
        }
        let body_node = self.kid(top, 4);
        self.bound_vars.extend(&params);
        let body = self.elab(body_node);
        self.bound_vars.clear();
        self.pop_locals(names.len());
        let mut body = body?;
        if ret == Sort::Real && self.store.sort(body) == Sort::Int {
            body = super::builtins::to_real(self.store, body);
        }
        if self.store.sort(body) != ret {
            return err(
                self.arena.pos(body_node),
                ErrorKind::Sort,
                format!(
                    "the body of '{f}' has sort {}, but {ret} was declared",
                    self.store.sort(body)
                ),
            );
        }
        self.macros.push(Macro {
            name: f.into(),
            params: params.clone(),
            body,
        });
        let id = (self.macros.len() - 1) as u32;
        self.bind_global(f, Global::Macro(id));
        Ok(Command::DefineFun {
            name: f.into(),
            params,
            ret,
            body,
        })
    }

    /// `(NAME SORT)`.
    pub(crate) fn sorted_var(&self, node: NodeId) -> Result<(&'a str, Sort), ParseError> {
        if self.len(node) != Some(2) {
            return err(
                self.arena.pos(node),
                ErrorKind::Syntax,
                format!("expected (NAME SORT), found {}", self.text(node)),
            );
        }
        let name = self.symbol_at(self.kid(node, 0), "a variable name")?;
        Ok((name, self.sort(self.kid(node, 1))?))
    }

    pub(crate) fn push_local(&mut self, name: &'a str, t: TermId) {
        self.locals.entry(name).or_default().push(t);
        self.local_log.push(name);
    }

    pub(crate) fn pop_locals(&mut self, k: usize) {
        for _ in 0..k {
            if let Some(name) = self.local_log.pop()
                && let Some(v) = self.locals.get_mut(name)
            {
                v.pop();
                if v.is_empty() {
                    self.locals.remove(name);
                }
            }
        }
    }

    fn bool_term(&mut self, node: NodeId) -> Result<TermId, ParseError> {
        let t = self.elab(node)?;
        if self.store.sort(t) != Sort::Bool {
            return err(
                self.arena.pos(node),
                ErrorKind::Sort,
                format!(
                    "expected a Bool term, found a term of sort {}",
                    self.store.sort(t)
                ),
            );
        }
        Ok(t)
    }

    /// The `:named` name of `node` if it is `(! t ... :named n ...)`.
    fn top_name(&self, node: NodeId) -> Option<Box<str>> {
        let kids = self.arena.list(node)?;
        if kids.first().and_then(|&k| self.arena.plain_symbol(k)) != Some("!") {
            return None;
        }
        let i = kids.iter().position(|&k| {
            matches!(
                self.arena.atom(k),
                Some(super::sexp::Atom::Keyword("named"))
            )
        })?;
        kids.get(i + 1)
            .and_then(|&k| self.arena.symbol(k))
            .map(Into::into)
    }

    fn undo_to(&mut self, mark: usize) {
        while self.undo.len() > mark {
            match self.undo.pop() {
                Some(Undo::Global(n)) => {
                    self.globals.remove(&n);
                }
                Some(Undo::Sort(n)) => {
                    self.sorts.remove(&n);
                }
                None => break,
            }
        }
    }

    fn reset(&mut self) {
        self.undo_to(0);
        self.scopes.clear();
        self.logic = None;
    }
}

/// Checks a logic name: `Ok(())` if supported, else the kind and message of the error.
fn check_logic(name: &str) -> Result<(), (ErrorKind, String)> {
    let core = name.strip_prefix("QF_").unwrap_or(name);
    if matches!(name, "HORN" | "ALL")
        || matches!(
            core,
            "LIA"
                | "LRA"
                | "LIRA"
                | "NIA"
                | "NRA"
                | "NIRA"
                | "IDL"
                | "RDL"
                | "AX"
                | "ALIA"
                | "ALRA"
                | "ALIRA"
                | "ANIA"
                | "BV"
                | "ABV"
                | "DT"
                | "DTLIA"
                | "DTLRA"
                | "DTLIRA"
                | "UFDT"
                | "UFDTLIA"
                | "UFDTLRA"
                | "UFDTLIRA"
        )
    {
        return Ok(());
    }
    let theory = if core.contains("BV") {
        Some("bit-vectors")
    } else if core.contains("FP") {
        Some("floating point")
    } else if core.contains("DT") {
        Some("datatypes")
    } else if core.starts_with('A') {
        Some("arrays")
    } else if core.starts_with('S') {
        Some("strings")
    } else if core.contains("UF") {
        Some("uninterpreted functions")
    } else {
        None
    };
    match theory {
        Some(th) => Err((
            ErrorKind::UnsupportedTheory,
            format!("logic '{name}' needs the theory of {th}, which is not supported"),
        )),
        None => Err((
            ErrorKind::UnsupportedLogic,
            format!(
                "unsupported logic '{name}' (supported: HORN, ALL, and [QF_]LIA/LRA/LIRA/NIA/NRA/NIRA/IDL/RDL/AX/ALIA/ALRA/ALIRA/ANIA/BV/ABV/DT/DTLIA/DTLRA/DTLIRA/UFDT/UFDTLIA/UFDTLRA/UFDTLIRA)"
            ),
        )),
    }
}
