//! Printing a clause system as an SMT-LIB2 `HORN` script that [`crate::frontend::parse_chc`]
//! reads back to the same clauses.
//!
//! Clause variables are printed under their own names unless two variables of one clause
//! share a name (possible across sorts) or a variable is named like a predicate; those get
//! a derived unused name, so the printed clause always means the represented one.

use crate::system::{ChcSystem, Clause, PredApp};
use cove_logic::print::{declare_fun, symbol, write_term_renamed};
use cove_logic::{TermStore, VarId};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write;

/// The system as a `(set-logic HORN)` script: declarations, one `assert` per clause,
/// `(check-sat)` and `(exit)`.
pub fn system_to_smtlib(sys: &ChcSystem, store: &TermStore) -> String {
    let mut out = String::from("(set-logic HORN)\n");
    for &f in &sys.preds {
        out.push_str(&declare_fun(store, f));
        out.push('\n');
    }
    for c in &sys.clauses {
        out.push_str("(assert ");
        write_clause(&mut out, c, store);
        out.push_str(")\n");
    }
    out.push_str("(check-sat)\n(exit)\n");
    out
}

/// One clause as a closed formula `(forall (..) (=> (and body constraint) head))`.
pub fn clause_to_smtlib(c: &Clause, store: &TermStore) -> String {
    let mut out = String::new();
    write_clause(&mut out, c, store);
    out
}

/// Names for the clause variables that are unique within the clause and distinct from
/// every function symbol of the store.
fn clause_names(c: &Clause, store: &TermStore) -> FxHashMap<VarId, String> {
    let mut taken: FxHashSet<String> = FxHashSet::default();
    let mut names = FxHashMap::default();
    for &v in &c.vars {
        let base = store.var_name(v);
        let mut name = base.to_string();
        let mut i = 0u64;
        while taken.contains(&name) || store.func_by_name(&name).is_some() {
            i += 1;
            name = format!("{base}!{i}");
        }
        if name != base {
            names.insert(v, name.clone());
        }
        taken.insert(name);
    }
    // Every name, kept or derived, is checked against all earlier ones, so a later variable
    // whose own name equals an earlier derived name is renamed in turn.
    names
}

fn write_app(out: &mut String, app: &PredApp, store: &TermStore, names: &FxHashMap<VarId, String>) {
    let name = symbol(&store.func(app.pred).name);
    if app.args.is_empty() {
        out.push_str(&name);
        return;
    }
    out.push('(');
    out.push_str(&name);
    for &a in &app.args {
        out.push(' ');
        write_term_renamed(out, store, a, names);
    }
    out.push(')');
}

fn write_clause(out: &mut String, c: &Clause, store: &TermStore) {
    let names = clause_names(c, store);
    if !c.vars.is_empty() {
        out.push_str("(forall (");
        for (i, &v) in c.vars.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            let n = names.get(&v).map_or(store.var_name(v), |s| s.as_str());
            let _ = write!(out, "({} {})", symbol(n), store.var_sort(v));
        }
        out.push_str(") ");
    }
    let has_constraint = store.as_bool(c.constraint) != Some(true);
    let parts = c.body.len() + usize::from(has_constraint);
    if parts > 0 {
        out.push_str("(=> ");
        if parts > 1 {
            out.push_str("(and ");
        }
        for (i, app) in c.body.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            write_app(out, app, store, &names);
        }
        if has_constraint {
            if !c.body.is_empty() {
                out.push(' ');
            }
            write_term_renamed(out, store, c.constraint, &names);
        }
        if parts > 1 {
            out.push(')');
        }
        out.push(' ');
    }
    match &c.head {
        Some(h) => write_app(out, h, store, &names),
        None => out.push_str("false"),
    }
    if parts > 0 {
        out.push(')');
    }
    if !c.vars.is_empty() {
        out.push(')');
    }
}
