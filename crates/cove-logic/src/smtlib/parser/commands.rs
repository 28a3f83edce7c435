//! The commands of the reader, one method each (`Parser::command` dispatches on the name).

use super::super::command::{Command, Declared};
use super::super::error::{ErrorKind, ParseError, Pos, err};
use super::super::sexp::{Atom, NodeId};
use super::{Global, MAX_SCOPES, Parser, Undo, check_logic};
use crate::Sort;

impl<'a> Parser<'a, '_> {
    pub(super) fn cmd_set_logic(
        &mut self,
        top: NodeId,
        n: usize,
        _name: &'a str,
        pos: Pos,
    ) -> Result<Command, ParseError> {
        self.shape(top, n == 2, "(set-logic SYMBOL)")?;
        let node = self.kid(top, 1);
        let l = self.symbol_at(node, "a logic name")?;
        if self.logic.is_some() {
            return err(pos, ErrorKind::InvalidCommand, "the logic is already set");
        }
        if let Err((kind, msg)) = check_logic(l) {
            return err(self.arena.pos(node), kind, msg);
        }
        self.logic = Some(l.into());
        Ok(Command::SetLogic(l.into()))
    }

    pub(super) fn cmd_info(
        &mut self,
        top: NodeId,
        n: usize,
        name: &'a str,
        _pos: Pos,
    ) -> Result<Command, ParseError> {
        self.shape(top, n == 2 || n == 3, &format!("({name} :KEYWORD VALUE)"))?;
        let keyword = self.keyword_at(self.kid(top, 1))?.into();
        let value = (n == 3).then(|| self.text(self.kid(top, 2)).into());
        Ok(if name == "set-info" {
            Command::SetInfo { keyword, value }
        } else {
            Command::SetOption { keyword, value }
        })
    }

    pub(super) fn cmd_get_info(
        &mut self,
        top: NodeId,
        n: usize,
        name: &'a str,
        _pos: Pos,
    ) -> Result<Command, ParseError> {
        self.shape(top, n == 2, &format!("({name} :KEYWORD)"))?;
        let k: Box<str> = self.keyword_at(self.kid(top, 1))?.into();
        Ok(if name == "get-info" {
            Command::GetInfo(k)
        } else {
            Command::GetOption(k)
        })
    }

    pub(super) fn cmd_declare_fun(
        &mut self,
        top: NodeId,
        n: usize,
        _name: &'a str,
        pos: Pos,
    ) -> Result<Command, ParseError> {
        self.shape(top, n == 4, "(declare-fun NAME (SORT*) SORT)")?;
        let name_node = self.kid(top, 1);
        let f = self.symbol_at(name_node, "a function name")?;
        self.check_fresh_name(name_node, f)?;
        let args = self.sort_list(self.kid(top, 2))?;
        let ret = self.sort(self.kid(top, 3))?;
        let decl = if ret == Sort::Bool && self.horn() {
            Declared::Pred(self.declare_pred(name_node, f, &args))
        } else if args.is_empty() {
            let v = self.user_var(f, ret);
            let t = self.store.mk_var(v);
            self.bind_global(f, Global::Const(t));
            Declared::Const(v)
        } else {
            return err(
                pos,
                ErrorKind::UnsupportedTheory,
                format!(
                    "uninterpreted function '{f}' is not supported (only Bool-valued predicates of HORN problems may take arguments)"
                ),
            );
        };
        Ok(Command::DeclareFun {
            name: f.into(),
            decl,
        })
    }

    pub(super) fn cmd_declare_const(
        &mut self,
        top: NodeId,
        n: usize,
        name: &'a str,
        _pos: Pos,
    ) -> Result<Command, ParseError> {
        self.shape(top, n == 3, &format!("({name} NAME SORT)"))?;
        let name_node = self.kid(top, 1);
        let c = self.symbol_at(name_node, "a constant name")?;
        self.check_fresh_name(name_node, c)?;
        let sort = self.sort(self.kid(top, 2))?;
        let v = self.user_var(c, sort);
        let t = self.store.mk_var(v);
        self.bind_global(c, Global::Const(t));
        Ok(if name == "declare-const" {
            Command::DeclareConst(v)
        } else {
            Command::DeclareVar(v)
        })
    }

    pub(super) fn cmd_declare_rel(
        &mut self,
        top: NodeId,
        n: usize,
        _name: &'a str,
        _pos: Pos,
    ) -> Result<Command, ParseError> {
        self.shape(top, n >= 3, "(declare-rel NAME (SORT*))")?;
        let name_node = self.kid(top, 1);
        let r = self.symbol_at(name_node, "a relation name")?;
        self.check_fresh_name(name_node, r)?;
        let args = self.sort_list(self.kid(top, 2))?;
        Ok(Command::DeclareRel(self.declare_pred(name_node, r, &args)))
    }

    pub(super) fn cmd_define_sort(
        &mut self,
        top: NodeId,
        n: usize,
        _name: &'a str,
        _pos: Pos,
    ) -> Result<Command, ParseError> {
        self.shape(top, n == 4, "(define-sort NAME () SORT)")?;
        let name_node = self.kid(top, 1);
        let s = self.symbol_at(name_node, "a sort name")?;
        if self.len(self.kid(top, 2)) != Some(0) {
            return err(
                self.arena.pos(self.kid(top, 2)),
                ErrorKind::UnsupportedTheory,
                "parametric sorts are not supported",
            );
        }
        if self.sorts.contains_key(s) || matches!(s, "Bool" | "Int" | "Real") {
            return err(
                self.arena.pos(name_node),
                ErrorKind::Redeclared,
                format!("sort '{s}' is already declared"),
            );
        }
        let sort = self.sort(self.kid(top, 3))?;
        self.sorts.insert(s.into(), sort);
        self.undo.push(Undo::Sort(s.into()));
        Ok(Command::DefineSort {
            name: s.into(),
            sort,
        })
    }

    pub(super) fn cmd_assert_or_rule(
        &mut self,
        top: NodeId,
        n: usize,
        name: &'a str,
        _pos: Pos,
    ) -> Result<Command, ParseError> {
        let ok = if name == "assert" {
            n == 2
        } else {
            n == 2 || n == 3
        };
        self.shape(
            top,
            ok,
            if name == "assert" {
                "(assert TERM)"
            } else {
                "(rule TERM [NAME])"
            },
        )?;
        let t = self.kid(top, 1);
        let term = self.bool_term(t)?;
        if name == "assert" {
            Ok(Command::Assert {
                term,
                name: self.top_name(t),
            })
        } else {
            let name = if n == 3 {
                Some(self.symbol_at(self.kid(top, 2), "a rule name")?.into())
            } else {
                self.top_name(t)
            };
            Ok(Command::Rule { term, name })
        }
    }

    pub(super) fn cmd_query(
        &mut self,
        top: NodeId,
        n: usize,
        _name: &'a str,
        _pos: Pos,
    ) -> Result<Command, ParseError> {
        self.shape(top, n >= 2, "(query TERM)")?;
        let q = self.kid(top, 1);
        if let Some(Global::Func(f)) = self
            .arena
            .symbol(q)
            .filter(|s| !self.locals.contains_key(s))
            .and_then(|s| self.globals.get(s))
            .copied()
        {
            let sorts = self.store.func(f).args.clone();
            if !sorts.is_empty() {
                let mut args = Vec::with_capacity(sorts.len());
                for (i, &s) in sorts.iter().enumerate() {
                    let v = self.fresh_var(&format!("q{i}"), s);
                    args.push(self.store.mk_var(v));
                }
                return Ok(Command::Query(self.store.mk_app(f, &args)));
            }
        }
        Ok(Command::Query(self.bool_term(q)?))
    }

    pub(super) fn cmd_check_sat(
        &mut self,
        top: NodeId,
        n: usize,
        _name: &'a str,
        _pos: Pos,
    ) -> Result<Command, ParseError> {
        self.shape(top, n == 1, "(check-sat)")?;
        Ok(Command::CheckSat)
    }

    pub(super) fn cmd_terms(
        &mut self,
        top: NodeId,
        n: usize,
        name: &'a str,
        _pos: Pos,
    ) -> Result<Command, ParseError> {
        self.shape(
            top,
            n == 2 && self.len(self.kid(top, 1)).is_some(),
            &format!("({name} (TERM*))"),
        )?;
        let list = self.kid(top, 1);
        let k = self.len(list).unwrap_or(0);
        let mut out = Vec::with_capacity(k);
        for i in 0..k {
            let node = self.kid(list, i);
            let t = if name == "get-value" {
                self.elab(node)?
            } else {
                self.bool_term(node)?
            };
            out.push((t, self.text(node).into()));
        }
        Ok(if name == "get-value" {
            Command::GetValue(out)
        } else {
            Command::CheckSatAssuming(out.into_iter().map(|(t, _)| t).collect())
        })
    }

    pub(super) fn cmd_nullary(
        &mut self,
        top: NodeId,
        n: usize,
        name: &'a str,
        _pos: Pos,
    ) -> Result<Command, ParseError> {
        self.shape(top, n == 1, &format!("({name})"))?;
        Ok(match name {
            "get-model" => Command::GetModel,
            "get-unsat-core" => Command::GetUnsatCore,
            "get-unsat-assumptions" => Command::GetUnsatAssumptions,
            "get-assertions" => Command::GetAssertions,
            "get-assignment" => Command::GetAssignment,
            "get-proof" => Command::GetProof,
            "reset" => {
                self.reset();
                Command::Reset
            }
            "reset-assertions" => {
                // All scopes are popped; declarations of the bottom level stay.
                if let Some(&mark) = self.scopes.first() {
                    self.undo_to(mark);
                }
                self.scopes.clear();
                Command::ResetAssertions
            }
            _ => Command::Exit,
        })
    }

    pub(super) fn cmd_scope(
        &mut self,
        top: NodeId,
        n: usize,
        name: &'a str,
        pos: Pos,
    ) -> Result<Command, ParseError> {
        self.shape(top, n <= 2, &format!("({name} [NUMERAL])"))?;
        let k = if n == 2 {
            let node = self.kid(top, 1);
            match self.arena.atom(node) {
                Some(Atom::Numeral(s)) => match s.parse::<u32>() {
                    Ok(k) => k,
                    Err(_) => {
                        return err(
                            self.arena.pos(node),
                            ErrorKind::Limit,
                            format!("{name} level {s} is too large"),
                        );
                    }
                },
                _ => {
                    return err(
                        self.arena.pos(node),
                        ErrorKind::Syntax,
                        format!("expected a numeral, found {}", self.arena.describe(node)),
                    );
                }
            }
        } else {
            1
        };
        if name == "push" {
            if self.scopes.len() + k as usize > MAX_SCOPES {
                return err(
                    pos,
                    ErrorKind::Limit,
                    format!("more than {MAX_SCOPES} open scopes"),
                );
            }
            for _ in 0..k {
                self.scopes.push(self.undo.len());
            }
            Ok(Command::Push(k))
        } else {
            if k as usize > self.scopes.len() {
                return err(
                    pos,
                    ErrorKind::InvalidCommand,
                    format!("cannot pop {k} scopes, only {} are open", self.scopes.len()),
                );
            }
            if k > 0 {
                let mark = self.scopes[self.scopes.len() - k as usize];
                self.scopes.truncate(self.scopes.len() - k as usize);
                self.undo_to(mark);
            }
            Ok(Command::Pop(k))
        }
    }

    pub(super) fn cmd_echo(
        &mut self,
        top: NodeId,
        n: usize,
        _name: &'a str,
        _pos: Pos,
    ) -> Result<Command, ParseError> {
        self.shape(top, n == 2, "(echo STRING)")?;
        match self.arena.atom(self.kid(top, 1)) {
            Some(Atom::Str(s)) => Ok(Command::Echo(s.as_str().into())),
            _ => err(
                self.arena.pos(self.kid(top, 1)),
                ErrorKind::Syntax,
                "expected a string literal",
            ),
        }
    }
}
