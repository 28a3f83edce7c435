//! `declare-datatypes` / `declare-datatype` (SMT-LIB 2.6, plus the 2.5 form
//! `(declare-datatypes () ((N ctor*)*))` that older Z3 scripts use).
//!
//! Parametric datatypes (`par`) are refused; constructors, selectors and the Z3 testers
//! `is-C` become global symbols; `(_ is C)` is resolved by the term elaborator.

use super::super::command::Command;
use super::super::error::{ErrorKind, ParseError, Pos, err};
use super::super::sexp::NodeId;
use super::{Global, Parser, Undo};
use crate::Sort;
use crate::dt::Ctor;

/// Deepest nesting of datatype and array sorts accepted (evaluation and printing of
/// values recurse over sort nesting, which input must not control without bound).
pub(crate) const MAX_SORT_DEPTH: usize = 64;

/// Nesting depth of sort `s` (datatypes reachable through fields count once each).
pub(crate) fn sort_depth(s: Sort) -> usize {
    // Longest path in the (finite) graph of sorts, cycles cut: a DFS with an explicit stack.
    let mut best = 0usize;
    let mut stack: Vec<(Sort, usize, Vec<Sort>)> = vec![(s, 1, vec![])];
    let mut visits = 0usize;
    while let Some((s, d, path)) = stack.pop() {
        visits += 1;
        if visits > 100_000 {
            return usize::MAX;
        }
        best = best.max(d);
        if path.contains(&s) {
            continue;
        }
        let mut p = path.clone();
        p.push(s);
        if let Some((i, e)) = s.array_parts() {
            stack.push((i, d + 1, p.clone()));
            stack.push((e, d + 1, p));
        } else if let Some(def) = crate::dt::def(s) {
            let mut kids: Vec<Sort> = def
                .ctors
                .iter()
                .flat_map(|c| c.fields.iter().map(|f| f.1))
                .collect();
            kids.sort();
            kids.dedup();
            for k in kids {
                stack.push((k, d + 1, p.clone()));
            }
        }
    }
    best
}

impl<'a> Parser<'a, '_> {
    /// Makes the datatypes of `sorts` (and every datatype reachable from them through
    /// fields and array sorts) known by name, with their constructors, selectors and z3-style
    /// testers, as if their declarations had been read. A witness for a system over datatypes
    /// (`cove check --witness`) speaks of the system's sorts, which its own text does not
    /// declare: a redeclaration would make new, distinct sorts. Names already bound are left
    /// as they are.
    pub fn import_datatypes(&mut self, sorts: &[Sort]) {
        let mut stack: Vec<Sort> = sorts.to_vec();
        let mut seen: Vec<Sort> = vec![];
        while let Some(s) = stack.pop() {
            if let Some((i, e)) = s.array_parts() {
                stack.push(i);
                stack.push(e);
                continue;
            }
            let Some(d) = crate::dt::def(s) else { continue };
            if seen.contains(&s) {
                continue;
            }
            seen.push(s);
            if !self.sorts.contains_key(&*d.name) {
                self.sorts.insert(d.name.clone(), s);
                self.undo.push(Undo::Sort(d.name.clone()));
            }
            for (ci, c) in d.ctors.iter().enumerate() {
                let mut symbols = vec![(c.name.to_string(), Global::Ctor(s, ci as u32))];
                symbols.push((format!("is-{}", c.name), Global::Test(s, ci as u32)));
                for (fi, (sel, fsort)) in c.fields.iter().enumerate() {
                    symbols.push((sel.to_string(), Global::Sel(s, ci as u32, fi as u32)));
                    stack.push(*fsort);
                }
                for (name, g) in symbols {
                    if !self.globals.contains_key(name.as_str()) {
                        self.bind_global(&name, g);
                    }
                }
            }
        }
    }

    pub(super) fn cmd_declare_datatypes(
        &mut self,
        top: NodeId,
        n: usize,
        name: &'a str,
        pos: Pos,
    ) -> Result<Command, ParseError> {
        // (name-node, constructor-list node) per datatype.
        let mut decls: Vec<(NodeId, NodeId)> = vec![];
        if name == "declare-datatype" {
            self.shape(top, n == 3, "(declare-datatype NAME (CONSTRUCTOR+))")?;
            decls.push((self.kid(top, 1), self.kid(top, 2)));
        } else {
            self.shape(
                top,
                n == 3
                    && self.len(self.kid(top, 1)).is_some()
                    && self.len(self.kid(top, 2)).is_some(),
                "(declare-datatypes ((NAME 0)+) ((CONSTRUCTOR+)+))",
            )?;
            let heads = self.arena.list(self.kid(top, 1)).expect("list").to_vec();
            let bodies = self.arena.list(self.kid(top, 2)).expect("list").to_vec();
            if heads.is_empty() {
                // SMT-LIB 2.5: ((NAME CONSTRUCTOR+)+)
                for b in bodies {
                    let ok = self.len(b).is_some_and(|k| k >= 2);
                    self.shape(b, ok, "(NAME CONSTRUCTOR+)")?;
                    decls.push((self.kid(b, 0), b));
                }
            } else {
                if heads.len() != bodies.len() {
                    return err(
                        pos,
                        ErrorKind::Syntax,
                        format!(
                            "{} datatype names but {} constructor lists",
                            heads.len(),
                            bodies.len()
                        ),
                    );
                }
                for (&h, &b) in heads.iter().zip(&bodies) {
                    self.shape(h, self.len(h) == Some(2), "(NAME ARITY)")?;
                    let ar = self.kid(h, 1);
                    if self.text(ar) != "0" {
                        return err(
                            self.arena.pos(ar),
                            ErrorKind::UnsupportedTheory,
                            "parametric datatypes are not supported",
                        );
                    }
                    decls.push((self.kid(h, 0), b));
                }
            }
        }
        if decls.is_empty() {
            return err(pos, ErrorKind::Syntax, "no datatype declared");
        }
        // Names first, so that the constructors can mention every sort of the group.
        let mut names: Vec<&'a str> = vec![];
        for &(nn, _) in &decls {
            let s = self.symbol_at(nn, "a datatype name")?;
            if self.sorts.contains_key(s)
                || matches!(s, "Bool" | "Int" | "Real" | "Array")
                || names.contains(&s)
            {
                return err(
                    self.arena.pos(nn),
                    ErrorKind::Redeclared,
                    format!("sort '{s}' is already declared"),
                );
            }
            names.push(s);
        }
        let sorts = crate::dt::reserve(&names);
        for (&s, &sort) in names.iter().zip(&sorts) {
            self.sorts.insert(s.into(), sort);
            self.undo.push(Undo::Sort(s.into()));
        }
        // Constructors.
        let mut symbols: Vec<(&'a str, NodeId, Global)> = vec![];
        for (k, &(_, body)) in decls.iter().enumerate() {
            let mut items = self
                .arena
                .list(body)
                .map(|l| l.to_vec())
                .unwrap_or_default();
            if name == "declare-datatypes" && self.len(self.kid(top, 1)) == Some(0) {
                items.remove(0); // the 2.5 form's name
            }
            if let Some(&first) = items.first()
                && self.arena.plain_symbol(first) == Some("par")
            {
                return err(
                    self.arena.pos(first),
                    ErrorKind::UnsupportedTheory,
                    "parametric datatypes are not supported",
                );
            }
            if items.is_empty() {
                return err(
                    self.arena.pos(body),
                    ErrorKind::Syntax,
                    format!("datatype '{}' has no constructor", names[k]),
                );
            }
            let mut ctors: Vec<Ctor> = vec![];
            for (ci, &c) in items.iter().enumerate() {
                // `(C (sel S)*)`, or a bare symbol `C` for a nullary constructor.
                let (cname_node, fields): (NodeId, Vec<NodeId>) = match self.arena.list(c) {
                    Some(l) if !l.is_empty() => (l[0], l[1..].to_vec()),
                    Some(_) => {
                        return err(self.arena.pos(c), ErrorKind::Syntax, "empty constructor");
                    }
                    None => (c, vec![]),
                };
                let cname = self.symbol_at(cname_node, "a constructor name")?;
                symbols.push((cname, cname_node, Global::Ctor(sorts[k], ci as u32)));
                let mut fs: Vec<(Box<str>, Sort)> = vec![];
                for (fi, &f) in fields.iter().enumerate() {
                    self.shape(f, self.len(f) == Some(2), "(SELECTOR SORT)")?;
                    let sn = self.kid(f, 0);
                    let sel = self.symbol_at(sn, "a selector name")?;
                    let fsort = self.sort(self.kid(f, 1))?;
                    symbols.push((sel, sn, Global::Sel(sorts[k], ci as u32, fi as u32)));
                    fs.push((sel.into(), fsort));
                }
                ctors.push(Ctor {
                    name: cname.into(),
                    fields: fs,
                });
            }
            crate::dt::define(sorts[k], ctors);
        }
        for (k, &s) in sorts.iter().enumerate() {
            if crate::dt::base_ctor(s).is_none() {
                return err(
                    self.arena.pos(decls[k].0),
                    ErrorKind::Sort,
                    format!(
                        "datatype '{}' has no finite values (not well founded)",
                        names[k]
                    ),
                );
            }
            if sort_depth(s) > MAX_SORT_DEPTH {
                return err(
                    self.arena.pos(decls[k].0),
                    ErrorKind::Sort,
                    format!("datatype '{}' nests sorts too deeply", names[k]),
                );
            }
        }
        // Symbols: all distinct and fresh.
        for (i, &(s, node, _)) in symbols.iter().enumerate() {
            if symbols[..i].iter().any(|x| x.0 == s) {
                return err(
                    self.arena.pos(node),
                    ErrorKind::Redeclared,
                    format!("symbol '{s}' is declared twice"),
                );
            }
            self.check_fresh_name(node, s)?;
        }
        for (s, _, g) in symbols {
            self.bind_global(s, g);
            if let Global::Ctor(sort, c) = g {
                let tester = format!("is-{s}");
                if !self.globals.contains_key(tester.as_str()) {
                    self.bind_global(&tester, Global::Test(sort, c));
                }
            }
        }
        Ok(Command::DeclareDatatypes(sorts))
    }
}
