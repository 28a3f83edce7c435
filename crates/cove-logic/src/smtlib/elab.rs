//! Term elaboration: S-expressions to sort-checked terms.
//!
//! The walk is an explicit task machine (no recursion) so deeply nested input cannot
//! overflow the stack. Symbols resolve innermost first: `let`/quantifier/parameter bindings,
//! then global declarations, then built-ins.
//!
//! Capture: `let` is elaborated by environment (parallel bindings, evaluated in the outer
//! scope), so a quantifier under a `let` gets a fresh variable when its own would capture
//! (a variable that occurs free in an active binding's image);
//! `define-fun` uses are expanded by capture-avoiding substitution.

use super::builtins::{self, Builtin, unsupported_symbol};
use super::error::{ErrorKind, ParseError, Pos, err};
use super::parser::{Global, Parser};
use super::sexp::{Atom, NodeId};
use crate::subst::free_vars_in_order as free_vars;
use crate::{FuncId, Op, Rational, Sort, TermId, VarId};
use rustc_hash::FxHashMap;

#[derive(Clone, Debug)]
enum Head<'a> {
    Builtin(Builtin, &'a str),
    Func(FuncId),
    Macro(u32),
    /// `(_ divisible n)`.
    Divisible(Rational),
    /// `(as const S)`: the constant array of sort `S`.
    ConstArray(Sort),
    /// A bit-vector function symbol.
    Bv(super::bv::BvFn, &'a str),
    /// A datatype constructor, selector or tester.
    Dt(Global),
}

enum Task<'a> {
    Eval(NodeId),
    /// A term already built (an indexed literal).
    Literal(TermId),
    Apply {
        head: Head<'a>,
        node: NodeId,
        nargs: usize,
    },
    LetBody {
        names: Vec<&'a str>,
        body: NodeId,
    },
    EndLet {
        k: usize,
    },
    Quant {
        forall: bool,
        vars: Vec<VarId>,
        node: NodeId,
    },
    Named {
        node: NodeId,
    },
}

impl<'a> Parser<'a, '_> {
    /// Elaborates the term at `root`.
    pub(crate) fn elab(&mut self, root: NodeId) -> Result<TermId, ParseError> {
        let marks = (
            self.local_log.len(),
            self.let_terms.len(),
            self.bound_vars.len(),
        );
        let r = self.elab_inner(root);
        if r.is_err() {
            let extra = self.local_log.len() - marks.0;
            self.pop_locals(extra);
            self.let_terms.truncate(marks.1);
            self.bound_vars.truncate(marks.2);
        }
        r
    }

    fn elab_inner(&mut self, root: NodeId) -> Result<TermId, ParseError> {
        let mut tasks = vec![Task::Eval(root)];
        let mut vals: Vec<TermId> = Vec::new();
        while let Some(task) = tasks.pop() {
            match task {
                Task::Eval(node) => {
                    if self.arena.list(node).is_none() {
                        let t = self.atom_term(node)?;
                        self.note_pos(t, node);
                        vals.push(t);
                    } else {
                        self.eval_list(node, &mut tasks)?;
                    }
                }
                Task::Literal(t) => vals.push(t),
                Task::Apply { head, node, nargs } => {
                    let args = vals.split_off(vals.len() - nargs);
                    let t = self.apply(head, node, args)?;
                    self.note_pos(t, node);
                    vals.push(t);
                }
                Task::LetBody { names, body } => {
                    let values = vals.split_off(vals.len() - names.len());
                    let k = names.len();
                    for (name, t) in names.into_iter().zip(values) {
                        self.push_local(name, t);
                        self.let_terms.push(t);
                    }
                    tasks.push(Task::EndLet { k });
                    tasks.push(Task::Eval(body));
                }
                Task::EndLet { k } => {
                    self.pop_locals(k);
                    self.let_terms.truncate(self.let_terms.len() - k);
                }
                Task::Quant { forall, vars, node } => {
                    let body = vals.pop().expect("quantifier body");
                    self.pop_locals(vars.len());
                    self.bound_vars.truncate(self.bound_vars.len() - vars.len());
                    let op = if forall {
                        Op::Forall(vars.into())
                    } else {
                        Op::Exists(vars.into())
                    };
                    let t = self
                        .store
                        .mk(op, &[body])
                        .map_err(|e| ParseError::new(self.arena.pos(node), ErrorKind::Sort, e.0))?;
                    self.note_pos(t, node);
                    vals.push(t);
                }
                Task::Named { node } => {
                    let t = *vals.last().expect("named term");
                    self.named(node, t)?;
                }
            }
        }
        Ok(vals.pop().expect("one value"))
    }

    fn note_pos(&mut self, t: TermId, node: NodeId) {
        let pos = self.arena.pos(node);
        self.term_pos.entry(t).or_insert(pos);
    }

    fn atom_term(&mut self, node: NodeId) -> Result<TermId, ParseError> {
        let pos = self.arena.pos(node);
        let atom = self.arena.atom(node).expect("atom").clone();
        match atom {
            Atom::Numeral(s) | Atom::Decimal(s) => {
                let Some(v) = Rational::parse_decimal(s) else {
                    return err(pos, ErrorKind::Syntax, format!("malformed number {s}"));
                };
                let sort = if matches!(atom, Atom::Numeral(_)) {
                    Sort::Int
                } else {
                    Sort::Real
                };
                Ok(self.store.mk_num(v, sort))
            }
            Atom::Str(_) => err(
                pos,
                ErrorKind::UnsupportedTheory,
                "string literals are not supported (theory of strings)",
            ),
            Atom::Bv(digits, radix) => super::bv::radix_literal(self.store, digits, radix)
                .or_else(|m| err(pos, ErrorKind::Sort, m)),
            Atom::Keyword(k) => err(
                pos,
                ErrorKind::Syntax,
                format!("unexpected keyword ':{k}' where a term was expected"),
            ),
            Atom::Sym(s) | Atom::QSym(s) => {
                if let Some(&t) = self.locals.get(s).and_then(|v| v.last()) {
                    return Ok(t);
                }
                match self.globals.get(s).copied() {
                    Some(Global::Const(t)) => return Ok(t),
                    Some(Global::Func(f)) => {
                        let d = self.store.func(f);
                        if !d.args.is_empty() {
                            return err(
                                pos,
                                ErrorKind::Arity,
                                format!("'{s}' expects {} arguments, got 0", d.args.len()),
                            );
                        }
                        return Ok(self.store.mk_app(f, &[]));
                    }
                    Some(Global::Macro(m)) => {
                        let m = &self.macros[m as usize];
                        if !m.params.is_empty() {
                            return err(
                                pos,
                                ErrorKind::Arity,
                                format!("'{s}' expects {} arguments, got 0", m.params.len()),
                            );
                        }
                        return Ok(m.body);
                    }
                    Some(Global::Ctor(sort, c)) => {
                        let want =
                            crate::dt::def(sort).map_or(0, |d| d.ctors[c as usize].fields.len());
                        if want != 0 {
                            return err(
                                pos,
                                ErrorKind::Arity,
                                format!("'{s}' expects {want} arguments, got 0"),
                            );
                        }
                        return self
                            .store
                            .mk_ctor(sort, c, &[])
                            .or_else(|e| err(pos, ErrorKind::Sort, e.0));
                    }
                    Some(Global::Sel(..) | Global::Test(..)) => {
                        return err(
                            pos,
                            ErrorKind::Arity,
                            format!("'{s}' expects 1 argument, got 0"),
                        );
                    }
                    None => {}
                }
                match s {
                    "true" => return Ok(self.store.mk_true()),
                    "false" => return Ok(self.store.mk_false()),
                    _ => {}
                }
                let plain = matches!(atom, Atom::Sym(_));
                if Builtin::from_name(s).is_some() {
                    return err(
                        pos,
                        ErrorKind::Arity,
                        format!("operator '{s}' needs arguments"),
                    );
                }
                if plain
                    && matches!(
                        s,
                        "let" | "forall" | "exists" | "!" | "_" | "as" | "match" | "par"
                    )
                {
                    return err(
                        pos,
                        ErrorKind::Syntax,
                        format!("reserved word '{s}' cannot be used as a term"),
                    );
                }
                unknown_symbol(pos, s, "symbol")
            }
        }
    }

    fn eval_list(&mut self, node: NodeId, tasks: &mut Vec<Task<'a>>) -> Result<(), ParseError> {
        let pos = self.arena.pos(node);
        let n = self.len(node).unwrap_or(0);
        if n == 0 {
            return err(pos, ErrorKind::Syntax, "'()' is not a term");
        }
        let head = self.kid(node, 0);
        let hpos = self.arena.pos(head);
        if let Some(s) = self.arena.plain_symbol(head) {
            match s {
                "let" => return self.eval_let(node, tasks),
                "forall" | "exists" => return self.eval_quant(node, s == "forall", tasks),
                "!" => {
                    if n < 2 {
                        return err(pos, ErrorKind::Syntax, "expected (! TERM ATTRIBUTE*)");
                    }
                    tasks.push(Task::Named { node });
                    tasks.push(Task::Eval(self.kid(node, 1)));
                    return Ok(());
                }
                "_" => {
                    let what = if n > 1 {
                        self.arena.symbol(self.kid(node, 1))
                    } else {
                        None
                    };
                    if let Some(digits) = what.and_then(|w| w.strip_prefix("bv"))
                        && !digits.is_empty()
                        && digits.bytes().all(|b| b.is_ascii_digit())
                    {
                        let w = match (n, self.arena.atom(self.kid(node, n - 1))) {
                            (3, Some(Atom::Numeral(s))) => s.parse::<u32>().ok(),
                            _ => None,
                        };
                        let Some(w) = w else {
                            return err(pos, ErrorKind::Syntax, "expected (_ bvN WIDTH)");
                        };
                        return super::bv::decimal_literal(self.store, digits, w)
                            .or_else(|m| err(pos, ErrorKind::Sort, m))
                            .map(|t| {
                                self.note_pos(t, node);
                                tasks.push(Task::Literal(t));
                            });
                    }
                    return match what.and_then(unsupported_symbol) {
                        Some(th) => err(
                            pos,
                            ErrorKind::UnsupportedTheory,
                            format!(
                                "indexed constant '{}' is not supported (theory of {th})",
                                what.unwrap_or("?")
                            ),
                        ),
                        None => err(pos, ErrorKind::UnknownSymbol, "unknown indexed identifier"),
                    };
                }
                "as" => {
                    return if n > 1 && self.arena.symbol(self.kid(node, 1)) == Some("const") {
                        err(
                            pos,
                            ErrorKind::UnsupportedTheory,
                            "constant arrays are not supported (theory of arrays)",
                        )
                    } else {
                        err(
                            pos,
                            ErrorKind::UnsupportedTheory,
                            "qualified identifiers ('as') are not supported",
                        )
                    };
                }
                "match" => {
                    return err(
                        pos,
                        ErrorKind::UnsupportedTheory,
                        "'match' is not supported (theory of datatypes)",
                    );
                }
                "par" => return err(pos, ErrorKind::Syntax, "'par' is not a term"),
                _ => {}
            }
        }
        let nargs = n - 1;
        let head = if let Some(s) = self.arena.symbol(head) {
            self.resolve_head(s, hpos, pos, nargs)?
        } else if let Some(hk) = self.arena.list(head) {
            let h0 = hk.first().and_then(|&k| self.arena.plain_symbol(k));
            let h1 = hk.get(1).and_then(|&k| self.arena.symbol(k));
            match (h0, h1) {
                (Some("_"), Some("divisible")) => {
                    let d = hk.get(2).and_then(|&k| match self.arena.atom(k) {
                        Some(Atom::Numeral(s)) => Rational::parse_decimal(s),
                        _ => None,
                    });
                    match d {
                        Some(d) if hk.len() == 3 && d.is_positive() => {
                            if nargs != 1 {
                                return err(
                                    pos,
                                    ErrorKind::Arity,
                                    format!("'divisible' expects 1 argument, got {nargs}"),
                                );
                            }
                            Head::Divisible(d)
                        }
                        _ => {
                            return err(
                                hpos,
                                ErrorKind::Syntax,
                                "expected (_ divisible N) with N > 0",
                            );
                        }
                    }
                }
                (Some("_"), Some("is")) => {
                    let c = match hk.get(2).and_then(|&k| self.arena.symbol(k)) {
                        Some(c) if hk.len() == 3 => c,
                        _ => return err(hpos, ErrorKind::Syntax, "expected (_ is CONSTRUCTOR)"),
                    };
                    let Some(Global::Ctor(sort, ci)) = self.globals.get(c).copied() else {
                        return unknown_symbol(self.arena.pos(hk[2]), c, "constructor");
                    };
                    if nargs != 1 {
                        return err(
                            pos,
                            ErrorKind::Arity,
                            format!("'(_ is {c})' expects 1 argument, got {nargs}"),
                        );
                    }
                    Head::Dt(Global::Test(sort, ci))
                }
                (Some("_"), Some(f)) if !matches!(super::bv::from_indexed(f, &[]), Ok(None)) => {
                    let idx: Vec<Option<u32>> = hk[2..]
                        .iter()
                        .map(|&k| match self.arena.atom(k) {
                            Some(Atom::Numeral(s)) => s.parse::<u32>().ok(),
                            _ => None,
                        })
                        .collect();
                    match super::bv::from_indexed(f, &idx) {
                        Ok(Some(b)) => Head::Bv(b, f),
                        Ok(None) => unreachable!("checked by the guard"),
                        Err(m) => return err(hpos, ErrorKind::Syntax, m),
                    }
                }
                (Some("_"), Some(f)) => {
                    let th = unsupported_symbol(f).unwrap_or("bit-vectors or floating point");
                    return err(
                        hpos,
                        ErrorKind::UnsupportedTheory,
                        format!("indexed function '{f}' is not supported (theory of {th})"),
                    );
                }
                (Some("as"), Some("const")) if hk.len() == 3 => {
                    let sort = self.sort(hk[2])?;
                    if !sort.is_array() || nargs != 1 {
                        return err(
                            hpos,
                            ErrorKind::Sort,
                            "expected ((as const (Array I E)) value)",
                        );
                    }
                    Head::ConstArray(sort)
                }
                _ => return err(hpos, ErrorKind::Syntax, "expected a function symbol"),
            }
        } else {
            return err(
                hpos,
                ErrorKind::Syntax,
                format!(
                    "expected a function symbol, found {}",
                    self.arena.describe(head)
                ),
            );
        };
        tasks.push(Task::Apply { head, node, nargs });
        for i in (1..n).rev() {
            tasks.push(Task::Eval(self.kid(node, i)));
        }
        Ok(())
    }

    /// Resolves the function symbol `s` (at `pos`) of an application (at `app`): arity
    /// errors are reported at the application, unknown symbols at the symbol.
    fn resolve_head(
        &self,
        s: &'a str,
        pos: Pos,
        app: Pos,
        nargs: usize,
    ) -> Result<Head<'a>, ParseError> {
        if self.locals.contains_key(s) {
            return err(
                app,
                ErrorKind::Arity,
                format!("'{s}' is a variable, not a function"),
            );
        }
        let arity_err = |want: usize| {
            err(
                app,
                ErrorKind::Arity,
                format!("'{s}' expects {want} arguments, got {nargs}"),
            )
        };
        match self.globals.get(s).copied() {
            Some(Global::Func(f)) => {
                let k = self.store.func(f).args.len();
                return if k == nargs {
                    Ok(Head::Func(f))
                } else {
                    arity_err(k)
                };
            }
            Some(Global::Macro(m)) => {
                let k = self.macros[m as usize].params.len();
                return if k == nargs {
                    Ok(Head::Macro(m))
                } else {
                    arity_err(k)
                };
            }
            Some(Global::Const(_)) => {
                return err(
                    app,
                    ErrorKind::Arity,
                    format!("'{s}' is a constant, not a function"),
                );
            }
            Some(g @ Global::Ctor(sort, c)) => {
                let k = crate::dt::def(sort).map_or(0, |d| d.ctors[c as usize].fields.len());
                return if k == nargs {
                    Ok(Head::Dt(g))
                } else {
                    arity_err(k)
                };
            }
            Some(g @ (Global::Sel(..) | Global::Test(..))) => {
                return if nargs == 1 {
                    Ok(Head::Dt(g))
                } else {
                    arity_err(1)
                };
            }
            None => {}
        }
        if let Some(b) = super::bv::from_name(s) {
            return Ok(Head::Bv(b, s));
        }
        if let Some(b) = Builtin::from_name(s) {
            return match b.arity() {
                Some(k) if k != nargs => arity_err(k),
                None if nargs < b.min_args() => err(
                    app,
                    ErrorKind::Arity,
                    format!(
                        "'{s}' expects at least {} arguments, got {nargs}",
                        b.min_args()
                    ),
                ),
                _ => Ok(Head::Builtin(b, s)),
            };
        }
        if matches!(s, "true" | "false") {
            return err(
                app,
                ErrorKind::Arity,
                format!("'{s}' is a constant, not a function"),
            );
        }
        unknown_symbol(pos, s, "function symbol")
    }

    fn apply(
        &mut self,
        head: Head<'a>,
        node: NodeId,
        mut args: Vec<TermId>,
    ) -> Result<TermId, ParseError> {
        let pos = self.arena.pos(node);
        match head {
            Head::Builtin(b, name) => builtins::apply(self.store, b, args, name)
                .map_err(|(k, m)| ParseError::new(pos, k, m)),
            Head::Bv(b, name) => super::bv::apply(self.store, b, args, name)
                .map_err(|(k, m)| ParseError::new(pos, k, m)),
            Head::Func(f) => {
                let params = self.store.func(f).args.clone();
                for (a, &p) in args.iter_mut().zip(params.iter()) {
                    if p == Sort::Real {
                        *a = builtins::to_real(self.store, *a);
                    }
                }
                self.store
                    .mk(Op::App(f), &args)
                    .map_err(|e| ParseError::new(pos, ErrorKind::Sort, e.0))
            }
            Head::Macro(m) => {
                let mac = &self.macros[m as usize];
                let (params, body) = (mac.params.clone(), mac.body);
                let mut map = FxHashMap::default();
                for (i, (a, &p)) in args.iter_mut().zip(params.iter()).enumerate() {
                    let want = self.store.var_sort(p);
                    if want == Sort::Real {
                        *a = builtins::to_real(self.store, *a);
                    }
                    let got = self.store.sort(*a);
                    if got != want {
                        let name = &self.macros[m as usize].name;
                        return err(
                            pos,
                            ErrorKind::Sort,
                            format!("argument {} of '{name}' should be {want}, got {got}", i + 1),
                        );
                    }
                    map.insert(p, *a);
                }
                Ok(self.substitute(body, &map))
            }
            Head::Dt(g) => {
                let t = match g {
                    Global::Ctor(sort, c) => {
                        let fields = crate::dt::def(sort)
                            .map(|d| d.ctors[c as usize].fields.clone())
                            .unwrap_or_default();
                        for (a, f) in args.iter_mut().zip(&fields) {
                            if f.1 == Sort::Real {
                                *a = builtins::to_real(self.store, *a);
                            }
                        }
                        self.store.mk_ctor(sort, c, &args)
                    }
                    Global::Sel(sort, ctor, field) => self.store.mk(
                        Op::Dt(crate::dt::DtOp::Sel {
                            dt: sort,
                            ctor,
                            field,
                        }),
                        &args,
                    ),
                    Global::Test(sort, ctor) => self
                        .store
                        .mk(Op::Dt(crate::dt::DtOp::Test { dt: sort, ctor }), &args),
                    _ => unreachable!("datatype heads only"),
                };
                t.map_err(|e| ParseError::new(pos, ErrorKind::Sort, e.0))
            }
            Head::ConstArray(sort) => {
                let v = args[0];
                if Some(self.store.sort(v)) != sort.elem_sort() {
                    return err(
                        pos,
                        ErrorKind::Sort,
                        format!("constant of {sort} needs an element of its element sort"),
                    );
                }
                Ok(self.store.mk_const_array(sort, v))
            }
            Head::Divisible(d) => {
                let a = args[0];
                if self.store.sort(a) != Sort::Int {
                    return err(pos, ErrorKind::Sort, "'divisible' expects an Int argument");
                }
                let dn = self.store.mk_num(d, Sort::Int);
                let zero = self.store.mk_int(0);
                let m = self.store.mk_raw(Op::Mod, &[a, dn], Sort::Int);
                self.store
                    .mk(Op::Eq, &[m, zero])
                    .map_err(|e| ParseError::new(pos, ErrorKind::Sort, e.0))
            }
        }
    }

    fn eval_let(&mut self, node: NodeId, tasks: &mut Vec<Task<'a>>) -> Result<(), ParseError> {
        let pos = self.arena.pos(node);
        if self.len(node) != Some(3) || self.len(self.kid(node, 1)).is_none() {
            return err(pos, ErrorKind::Syntax, "expected (let ((NAME TERM)+) TERM)");
        }
        let binds = self.kid(node, 1);
        let k = self.len(binds).unwrap_or(0);
        let mut names: Vec<&'a str> = Vec::with_capacity(k);
        let mut terms = Vec::with_capacity(k);
        for i in 0..k {
            let b = self.kid(binds, i);
            let name = if self.len(b) == Some(2) {
                self.arena.symbol(self.kid(b, 0))
            } else {
                None
            };
            let Some(name) = name else {
                return err(
                    self.arena.pos(b),
                    ErrorKind::Syntax,
                    "expected a binding (NAME TERM)",
                );
            };
            if names.contains(&name) {
                return err(
                    self.arena.pos(b),
                    ErrorKind::Redeclared,
                    format!("duplicate let binding '{name}'"),
                );
            }
            names.push(name);
            terms.push(self.kid(b, 1));
        }
        tasks.push(Task::LetBody {
            names,
            body: self.kid(node, 2),
        });
        for &t in terms.iter().rev() {
            tasks.push(Task::Eval(t));
        }
        Ok(())
    }

    fn eval_quant(
        &mut self,
        node: NodeId,
        forall: bool,
        tasks: &mut Vec<Task<'a>>,
    ) -> Result<(), ParseError> {
        let pos = self.arena.pos(node);
        let q = if forall { "forall" } else { "exists" };
        if self.len(node) != Some(3) || self.len(self.kid(node, 1)).is_none_or(|k| k == 0) {
            return err(
                pos,
                ErrorKind::Syntax,
                format!("expected ({q} ((NAME SORT)+) TERM)"),
            );
        }
        let list = self.kid(node, 1);
        let k = self.len(list).unwrap_or(0);
        let mut decls: Vec<(&'a str, Sort)> = Vec::with_capacity(k);
        for i in 0..k {
            let d = self.kid(list, i);
            let (name, sort) = self.sorted_var(d)?;
            if decls.iter().any(|&(n, _)| n == name) {
                return err(
                    self.arena.pos(d),
                    ErrorKind::Redeclared,
                    format!("duplicate bound variable '{name}'"),
                );
            }
            decls.push((name, sort));
        }
        let mut vars = Vec::with_capacity(k);
        for &(name, sort) in &decls {
            let mut v = self.user_var(name, sort);
            if !self.let_terms.is_empty() && free_vars(self.store, &self.let_terms).contains(&v) {
                v = self.fresh_var(name, sort);
            }
            let t = self.store.mk_var(v);
            self.push_local(name, t);
            self.bound_vars.push(v);
            vars.push(v);
        }
        tasks.push(Task::Quant { forall, vars, node });
        tasks.push(Task::Eval(self.kid(node, 2)));
        Ok(())
    }

    /// Handles the attributes of `(! t attr*)`; `t` is already elaborated.
    fn named(&mut self, node: NodeId, t: TermId) -> Result<(), ParseError> {
        let n = self.len(node).unwrap_or(0);
        let mut i = 2;
        while i < n {
            let a = self.kid(node, i);
            let Some(Atom::Keyword(kw)) = self.arena.atom(a).cloned() else {
                return err(
                    self.arena.pos(a),
                    ErrorKind::Syntax,
                    format!(
                        "expected an attribute keyword, found {}",
                        self.arena.describe(a)
                    ),
                );
            };
            let value = (i + 1 < n
                && !matches!(
                    self.arena.atom(self.kid(node, i + 1)),
                    Some(Atom::Keyword(_))
                ))
            .then(|| self.kid(node, i + 1));
            if kw == "named" {
                let Some(vn) = value else {
                    return err(
                        self.arena.pos(a),
                        ErrorKind::Syntax,
                        "expected a name after ':named'",
                    );
                };
                let Some(name) = self.arena.symbol(vn) else {
                    return err(
                        self.arena.pos(vn),
                        ErrorKind::Syntax,
                        format!("expected a symbol, found {}", self.arena.describe(vn)),
                    );
                };
                let vpos = self.arena.pos(vn);
                if builtins::is_builtin_name(name) || self.globals.contains_key(name) {
                    return err(
                        vpos,
                        ErrorKind::Redeclared,
                        format!("symbol '{name}' is already declared"),
                    );
                }
                if !self.bound_vars.is_empty()
                    && free_vars(self.store, &[t])
                        .iter()
                        .any(|v| self.bound_vars.contains(v))
                {
                    return err(
                        vpos,
                        ErrorKind::InvalidCommand,
                        format!("the term named '{name}' contains bound variables or parameters"),
                    );
                }
                self.bind_global(name, Global::Const(t));
            }
            i += if value.is_some() { 2 } else { 1 };
        }
        Ok(())
    }
}

/// The error for `s`, which is neither builtin nor declared: it names the theory when `s`
/// belongs to an unsupported one (so the user learns why), else "unknown `what` 's'".
fn unknown_symbol<T>(pos: Pos, s: &str, what: &str) -> Result<T, ParseError> {
    if let Some(th) = unsupported_symbol(s) {
        return err(
            pos,
            ErrorKind::UnsupportedTheory,
            format!("'{s}' is not supported (theory of {th})"),
        );
    }
    err(
        pos,
        ErrorKind::UnknownSymbol,
        format!("unknown {what} '{s}'"),
    )
}
