//! Reading and writing witnesses, so that `cove check` can validate answers produced by
//! Cove or by other solvers.
//!
//! - Invariants are SMT-LIB2 `(define-fun P ((x S) …) Bool body)` commands, one per
//!   predicate, optionally wrapped in `(model …)` or `( … )` as Z3 prints them, optionally
//!   preceded by the `sat` line.
//! - A counterexample is a derivation tree, printed nested:
//!   ```text
//!   (derivation
//!     (false (clause 4) (vars (x 3))
//!       (inv 3 (clause 1) (vars (x 2) (y 3))
//!         (inv 2 (clause 0) (vars (x 2))))))
//!   ```
//!   A node names the derived atom (`false` or a predicate with concrete argument values),
//!   the index of the clause instance that derives it, the values of that clause's
//!   variables, and one child node per body atom, in body order.

use crate::result::{Derivation, DerivationStep, Invariants};
use crate::system::ChcSystem;
use cove_logic::print::{symbol, write_term_renamed};
use cove_logic::smtlib::{Command, Dialect, Parser};
use cove_logic::{ArrayValue, FuncId, Rational, Sort, TermStore, Value, VarId};
use std::fmt::Write;

/// Prints invariants as `define-fun` commands, sorted by predicate name.
pub fn print_invariants(store: &TermStore, inv: &Invariants) -> String {
    let mut out = String::new();
    // Measures first (the definitions apply them), as one `define-funs-rec` when several
    // call each other, else one `define-fun-rec` each.
    let rec = |m: &crate::result::Measure| {
        let names: rustc_hash::FxHashMap<VarId, String> =
            [(m.param, "x".to_string())].into_iter().collect();
        let mut body = String::new();
        write_term_renamed(&mut body, store, m.body, &names);
        let decl = store.func(m.func);
        (
            format!(
                "({} (({} {})) Int)",
                symbol(&decl.name),
                "x",
                store.var_sort(m.param)
            ),
            body,
        )
    };
    if inv.measures.len() == 1 {
        let (head, body) = rec(&inv.measures[0]);
        let head = &head[1..head.len() - 1];
        let _ = writeln!(out, "(define-fun-rec {head} {body})");
    } else if inv.measures.len() > 1 {
        let (heads, bodies): (Vec<String>, Vec<String>) = inv.measures.iter().map(rec).unzip();
        let _ = writeln!(
            out,
            "(define-funs-rec ({}) ({}))",
            heads.join(" "),
            bodies.join(" ")
        );
    }
    for (f, def) in inv.sorted(store) {
        let decl = store.func(f);
        // Parameters are printed as x0, x1, … (the engines' internal names carry `!N`
        // suffixes); a body mentions nothing else in a valid certificate.
        let names: rustc_hash::FxHashMap<VarId, String> = def
            .params
            .iter()
            .enumerate()
            .map(|(i, v)| (*v, format!("x{i}")))
            .collect();
        let params: Vec<String> = def
            .params
            .iter()
            .map(|v| format!("({} {})", names[v], store.var_sort(*v)))
            .collect();
        let mut body = String::new();
        write_term_renamed(&mut body, store, def.body, &names);
        let _ = writeln!(
            out,
            "(define-fun {} ({}) Bool {})",
            symbol(&decl.name),
            params.join(" "),
            body
        );
    }
    out
}

/// A value as an SMT-LIB2 constant of `sort` (`(- 3)`, `2.0`, `(/ 1 2)`, `true`, arrays).
pub fn value_text(v: &Value, sort: Sort) -> String {
    cove_logic::print::value_text(v, sort)
}

/// Prints a derivation as a nested tree (shared steps are printed at each use).
/// Iterative: derivations of long counterexamples are as deep as the counterexample.
pub fn print_derivation(store: &TermStore, sys: &ChcSystem, d: &Derivation) -> String {
    let _ = sys; // clause indices refer to the system's order
    let mut out = String::from("(derivation\n");
    enum Item {
        Node(usize, usize),
        Close(usize),
    }
    let mut stack = vec![Item::Node(d.root, 1)];
    while let Some(item) = stack.pop() {
        match item {
            Item::Close(depth) => {
                out.push(')');
                if depth == 1 {
                    out.push('\n');
                }
            }
            Item::Node(s, depth) => {
                print_node_head(store, d, s, depth, &mut out);
                stack.push(Item::Close(depth));
                for &p in d.steps[s].premises.iter().rev() {
                    stack.push(Item::Node(p, depth + 1));
                }
            }
        }
    }
    out.push_str(")\n");
    out
}

/// One node's opening line (a newline before it when it is a child).
fn print_node_head(store: &TermStore, d: &Derivation, s: usize, depth: usize, out: &mut String) {
    if depth > 1 {
        out.push('\n');
    }
    let step = &d.steps[s];
    let indent = "  ".repeat(depth);
    let head = match &step.head {
        None => "false".to_string(),
        Some((p, vals)) => {
            let decl = store.func(*p);
            let mut h = symbol(&decl.name).into_owned();
            for (v, s) in vals.iter().zip(decl.args.iter()) {
                h.push(' ');
                h.push_str(&value_text(v, *s));
            }
            h
        }
    };
    let vars: Vec<String> = step
        .assignment
        .iter()
        .map(|(v, val)| {
            format!(
                "({} {})",
                symbol(store.var_name(*v)),
                value_text(val, store.var_sort(*v))
            )
        })
        .collect();
    let _ = write!(
        out,
        "{indent}({head} (clause {}) (vars {})",
        step.clause,
        vars.join(" ")
    );
}

/// Reads invariants (see the module docs) for the predicates of `sys`.
pub fn parse_invariants(
    src: &[u8],
    store: &mut TermStore,
    sys: &ChcSystem,
) -> Result<Invariants, String> {
    parse_model(src, store, sys, &[]).map(|(inv, _)| inv)
}

/// Reads the `sat` answer of a question with declared constants: invariants for the
/// predicates of `sys` and one value per constant of `constants`, given as
/// `(define-fun k () Int 3)` (as `cove solve --model` prints them), in the order of
/// `constants`. Every constant needs a value.
pub fn parse_model(
    src: &[u8],
    store: &mut TermStore,
    sys: &ChcSystem,
    constants: &[VarId],
) -> Result<(Invariants, Vec<Value>), String> {
    let text = std::str::from_utf8(src).map_err(|e| format!("witness is not UTF-8: {e}"))?;
    let body = strip_wrapper(text);
    let mut inv = Invariants::default();
    let mut values: Vec<Option<Value>> = vec![None; constants.len()];
    let mut parser =
        Parser::new(body.as_bytes(), store, Dialect::Smt).map_err(|e| e.to_string())?;
    // The definitions speak of the system's datatypes (parameter sorts, constructors,
    // selectors), which the witness does not declare again.
    let dt_sorts: Vec<Sort> = sys
        .preds
        .iter()
        .flat_map(|&p| parser.store_ref().func(p).args.clone())
        .chain(constants.iter().map(|&k| parser.store_ref().var_sort(k)))
        .filter(|&s| cove_logic::dt::mentions_dt(s))
        .collect();
    parser.import_datatypes(&dt_sorts);
    while let Some((cmd, pos)) = parser.next_command().map_err(|e| e.to_string())? {
        if let Command::DefineFun {
            name,
            params,
            ret,
            body,
        } = cmd
        {
            let store = parser.store_ref();
            let constant = constants
                .iter()
                .position(|&k| store.var_name(k) == &*name && store.var_sort(k) == ret);
            if let (Some(i), true) = (constant, params.is_empty()) {
                let v = cove_logic::Model::new().eval(store, body).map_err(|e| {
                    format!(
                        "{}:{}: the value of constant '{name}' is not a literal: {e}",
                        pos.line, pos.col
                    )
                })?;
                values[i] = Some(v);
                continue;
            }
            if ret != Sort::Bool {
                return Err(format!(
                    "{}:{}: definition of '{name}' is not Boolean",
                    pos.line, pos.col
                ));
            }
            let store = parser.store_ref();
            let Some(f) = store.func_by_name(&name).filter(|f| sys.preds.contains(f)) else {
                return Err(format!(
                    "{}:{}: '{name}' is not a predicate of the system",
                    pos.line, pos.col
                ));
            };
            let sorts = &store.func(f).args;
            let fits = params.len() == sorts.len()
                && params
                    .iter()
                    .zip(sorts.iter())
                    .all(|(p, s)| store.var_sort(*p) == *s);
            if !fits {
                return Err(format!(
                    "{}:{}: the definition of '{name}' has {} parameter(s); the predicate takes {} ({})",
                    pos.line,
                    pos.col,
                    params.len(),
                    sorts.len(),
                    sorts
                        .iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            }
            inv.define(f, params, body);
        }
    }
    let store = parser.store_ref();
    let values = values
        .into_iter()
        .zip(constants)
        .map(|(v, &k)| {
            v.ok_or_else(|| format!("no value for the constant '{}'", store.var_name(k)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((inv, values))
}

/// Drops a leading `sat` line and a `(model …)` / `( … )` wrapper around the definitions.
fn strip_wrapper(text: &str) -> String {
    // What is dropped is blanked out, not cut, so line:col positions in error messages are
    // those of the witness file.
    let blank =
        |s: &str| -> String { s.chars().map(|c| if c == '\n' { c } else { ' ' }).collect() };
    let mut out = String::with_capacity(text.len());
    let mut t = text;
    loop {
        let trimmed = t.trim_start();
        out.push_str(&t[..t.len() - trimmed.len()]);
        t = trimmed;
        if let Some(rest) = t.strip_prefix("sat") {
            out.push_str("   ");
            t = rest;
        } else if t.starts_with(';') {
            let end = t.find('\n').unwrap_or(t.len());
            out.push_str(&blank(&t[..end]));
            t = &t[end..];
        } else {
            break;
        }
    }
    let Some(after_paren) = t.strip_prefix('(') else {
        out.push_str(t);
        return out;
    };
    let r = after_paren.trim_start();
    let gap = &after_paren[..after_paren.len() - r.len()];
    if !(r.starts_with("model") || r.starts_with('(')) {
        out.push_str(t);
        return out;
    }
    let (head, r) = match r.strip_prefix("model") {
        Some(rest) => ("model", rest),
        None => ("", r),
    };
    let body = r.trim_end();
    match body.strip_suffix(')') {
        Some(x) => {
            out.push(' ');
            out.push_str(&blank(gap));
            out.push_str(&" ".repeat(head.len()));
            out.push_str(x);
        }
        None => out.push_str(t),
    }
    out
}

/// A minimal S-expression, for derivation witnesses.
#[derive(Debug)]
enum Sx {
    Atom(String),
    List(Vec<Sx>),
}

/// Dropping is iterative: a derivation is as deep as its counterexample is long.
impl Drop for Sx {
    fn drop(&mut self) {
        let Sx::List(l) = self else { return };
        let mut stack = std::mem::take(l);
        while let Some(mut x) = stack.pop() {
            if let Sx::List(l) = &mut x {
                stack.append(l);
            }
        }
    }
}

fn read_sexp(src: &str) -> Result<Sx, String> {
    let mut stack: Vec<Vec<Sx>> = vec![Vec::new()];
    let mut chars = src.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        match c {
            ';' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '(' => stack.push(Vec::new()),
            ')' => {
                let l = stack.pop().ok_or("unbalanced ')'")?;
                stack.last_mut().ok_or("unbalanced ')'")?.push(Sx::List(l));
            }
            c if c.is_whitespace() => {}
            '|' => {
                let mut s = String::new();
                for (_, c) in chars.by_ref() {
                    if c == '|' {
                        break;
                    }
                    s.push(c);
                }
                stack.last_mut().unwrap().push(Sx::Atom(s));
            }
            c => {
                let mut s = String::from(c);
                while let Some(&(_, c)) = chars.peek() {
                    if c.is_whitespace() || c == '(' || c == ')' {
                        break;
                    }
                    s.push(c);
                    chars.next();
                }
                stack.last_mut().unwrap().push(Sx::Atom(s));
            }
        }
        if stack.is_empty() {
            return Err("unbalanced ')'".into());
        }
    }
    if stack.len() != 1 {
        return Err("unbalanced '(' (truncated witness?)".into());
    }
    let mut top = stack.pop().unwrap();
    top.retain(|x| !matches!(x, Sx::Atom(a) if a == "unsat"));
    match top.len() {
        1 => Ok(top.pop().unwrap()),
        _ => Err("expected one (derivation …) form".into()),
    }
}

/// A value: a numeral, `(- v)`, `(/ a b)` (Z3's form of rationals), `true`, `false`, or an
/// array `(store … ((as const S) v) … i v)`. Negations and store chains are unwrapped in
/// loops, so no nesting can overflow the stack (only array sorts nest values recursively).
fn parse_value(sx: &Sx) -> Result<Value, String> {
    let (neg, inner) = strip_negations(sx);
    if !neg {
        match inner {
            Sx::Atom(a) if a == "true" => return Ok(Value::Bool(true)),
            Sx::Atom(a) if a == "false" => return Ok(Value::Bool(false)),
            Sx::List(l) if is_array_value(l) => return parse_array(inner),
            _ => {}
        }
    }
    let v = match inner {
        Sx::Atom(_) => numeral_value(inner)?,
        Sx::List(l) => match l.as_slice() {
            [Sx::Atom(op), a, b] if op == "/" => {
                let (a, b) = (numeral_value(a)?, numeral_value(b)?);
                if b.is_zero() {
                    return Err("bad fraction".into());
                }
                a / b
            }
            _ => return Err("bad value".into()),
        },
    };
    Ok(Value::Num(if neg { -v } else { v }))
}

/// A value of `sort`: what [`parse_value`] reads and, for sorts with datatypes, values as
/// `cove solve --cex` and z3 print them: constructor terms (`C`, `|C|`, `(as C S)`,
/// `(C v1 … vn)`, `((as C S) v1 … vn)`) chosen by the sort (so a nullary constructor named
/// like its sort reads as the constructor), inside arrays too (`(store … ((as const S) v) …)`
/// or `(const v)`). Iterative over the value's nesting (an explicit stack): a constructor
/// term 10,000 deep reads without recursion.
fn parse_value_of(sx: &Sx, sort: Sort) -> Result<Value, String> {
    use cove_logic::dt;
    if !dt::mentions_dt(sort) {
        return parse_value(sx);
    }
    enum Task<'s> {
        Visit(&'s Sx, Sort),
        /// Build a value of constructor `.1` of `.0` from the last `.2` values.
        Ctor(Sort, u32, usize),
        /// Build an array from the last `1 + 2 * .0` values: the default, then the writes
        /// innermost first (index, element).
        Array(usize),
    }
    let mut tasks = vec![Task::Visit(sx, sort)];
    let mut vals: Vec<Value> = vec![];
    while let Some(t) = tasks.pop() {
        match t {
            Task::Visit(sx, sort) if !dt::mentions_dt(sort) => vals.push(parse_value(sx)?),
            Task::Visit(sx, sort) => {
                if let Some((is, es)) = sort.array_parts() {
                    let (writes, default) = store_chain(sx)?;
                    tasks.push(Task::Array(writes.len()));
                    // Popped in the reverse order: the default first, then the innermost write.
                    for (i, v) in &writes {
                        tasks.push(Task::Visit(v, es));
                        tasks.push(Task::Visit(i, is));
                    }
                    tasks.push(Task::Visit(default, es));
                    continue;
                }
                let d = dt::def(sort).ok_or("a value of an undefined datatype")?;
                let (name, args): (&str, &[Sx]) = match sx {
                    Sx::Atom(a) => (a, &[]),
                    Sx::List(l) => match l.as_slice() {
                        [Sx::Atom(a), Sx::Atom(c), _] if a == "as" => (c, &[]),
                        [Sx::List(h), rest @ ..] if matches!(h.as_slice(), [Sx::Atom(a), Sx::Atom(_), _] if a == "as") =>
                        {
                            let [_, Sx::Atom(c), _] = h.as_slice() else {
                                unreachable!("matched above")
                            };
                            (c, rest)
                        }
                        [Sx::Atom(c), rest @ ..] => (c, rest),
                        _ => return Err(format!("bad value of sort {}", dt::name(sort))),
                    },
                };
                let ci = d
                    .ctors
                    .iter()
                    .position(|c| &*c.name == name && c.fields.len() == args.len())
                    .ok_or_else(|| {
                        format!(
                            "bad value '{name}' of sort {}: no constructor of that name with {} fields",
                            dt::name(sort),
                            args.len()
                        )
                    })?;
                tasks.push(Task::Ctor(sort, ci as u32, args.len()));
                for (a, f) in args.iter().zip(&d.ctors[ci].fields).rev() {
                    tasks.push(Task::Visit(a, f.1));
                }
            }
            Task::Ctor(sort, ctor, n) => {
                let fields = vals.split_off(vals.len() - n);
                vals.push(Value::Dt(std::sync::Arc::new(cove_logic::DtValue {
                    sort,
                    ctor,
                    fields,
                })));
            }
            Task::Array(n) => {
                let mut xs = vals.split_off(vals.len() - (1 + 2 * n)).into_iter();
                let mut arr = ArrayValue::constant(xs.next().expect("the default"));
                while let (Some(i), Some(v)) = (xs.next(), xs.next()) {
                    arr = arr.write(i, v);
                }
                arr.normalize();
                vals.push(Value::Array(Box::new(arr)));
            }
        }
    }
    vals.pop().ok_or_else(|| "empty value".into())
}

/// `(store a i v)`, `((as const S) v)` or `(const v)`.
fn is_array_value(l: &[Sx]) -> bool {
    match l {
        [Sx::Atom(op), _, _, _] => op == "store",
        [Sx::List(h), _] => {
            matches!(h.as_slice(), [Sx::Atom(a), Sx::Atom(c), _] if a == "as" && c == "const")
        }
        [Sx::Atom(c), _] => c == "const",
        _ => false,
    }
}

/// The writes (index, element) of a store chain, outermost first, and the constant's element.
type StoreChain<'s> = (Vec<(&'s Sx, &'s Sx)>, &'s Sx);

/// The writes of a chain of stores over a constant array, outermost first, and the constant
/// array's element: `(store … ((as const S) v) … i v)`, also with `(const v)` (the form
/// `Value` displays). Iterative over the chain's length.
fn store_chain(sx: &Sx) -> Result<StoreChain<'_>, String> {
    let mut writes = vec![];
    let mut cur = sx;
    while let Sx::List(l) = cur
        && let [Sx::Atom(op), a, i, v] = l.as_slice()
        && op == "store"
    {
        writes.push((i, v));
        cur = a;
    }
    match cur {
        Sx::List(l) => match l.as_slice() {
            [Sx::List(h), v] if matches!(h.as_slice(), [Sx::Atom(a), Sx::Atom(c), _] if a == "as" && c == "const") => {
                Ok((writes, v))
            }
            [Sx::Atom(c), v] if c == "const" => Ok((writes, v)),
            _ => Err("bad array value".into()),
        },
        _ => Err("bad array value".into()),
    }
}

/// An array value: a chain of stores over a constant array, read without recursing on the
/// chain's length.
fn parse_array(sx: &Sx) -> Result<Value, String> {
    let (writes, default) = store_chain(sx)?;
    let mut arr = ArrayValue::constant(parse_value(default)?);
    for (i, v) in writes.into_iter().rev() {
        arr = arr.write(parse_value(i)?, parse_value(v)?);
    }
    arr.normalize();
    Ok(Value::Array(Box::new(arr)))
}

/// Unwraps `(- (- … x))`: whether the count is odd, and `x`.
fn strip_negations(mut sx: &Sx) -> (bool, &Sx) {
    let mut neg = false;
    while let Sx::List(l) = sx
        && let [Sx::Atom(op), x] = l.as_slice()
        && op == "-"
    {
        neg = !neg;
        sx = x;
    }
    (neg, sx)
}

/// A numeral, possibly negated.
fn numeral_value(sx: &Sx) -> Result<Rational, String> {
    match strip_negations(sx) {
        (neg, Sx::Atom(a)) => {
            let v = Rational::parse_decimal(a).ok_or_else(|| format!("bad value '{a}'"))?;
            Ok(if neg { -v } else { v })
        }
        _ => Err("bad value".into()),
    }
}

/// Reads a derivation (see the module docs) for `sys`.
pub fn parse_derivation(
    src: &[u8],
    store: &TermStore,
    sys: &ChcSystem,
) -> Result<Derivation, String> {
    let text = std::str::from_utf8(src).map_err(|e| format!("witness is not UTF-8: {e}"))?;
    let sx = read_sexp(text)?;
    let Sx::List(items) = &sx else {
        return Err("expected (derivation …)".into());
    };
    match items.as_slice() {
        [Sx::Atom(h), node] if h == "derivation" => {
            let mut d = Derivation::default();
            d.root = parse_node(node, store, sys, &mut d)?;
            Ok(d)
        }
        _ => Err("expected (derivation NODE)".into()),
    }
}

/// Parses the derivation tree below `root` in post-order with an explicit stack (premises
/// get smaller step indices than their users). Returns the root's step index.
fn parse_node(
    root: &Sx,
    store: &TermStore,
    sys: &ChcSystem,
    d: &mut Derivation,
) -> Result<usize, String> {
    let mut stack = vec![parse_node_head(root, store, sys)?];
    loop {
        let (step, children) = stack.last_mut().expect("non-empty stack");
        if step.premises.len() < children.len() {
            let child = children[step.premises.len()];
            stack.push(parse_node_head(child, store, sys)?);
            continue;
        }
        let (step, _) = stack.pop().expect("non-empty stack");
        d.steps.push(step);
        let idx = d.steps.len() - 1;
        match stack.last_mut() {
            Some((parent, _)) => parent.premises.push(idx),
            None => return Ok(idx),
        }
    }
}

/// One node without its children: the step (premises still empty) and the child nodes.
fn parse_node_head<'s>(
    sx: &'s Sx,
    store: &TermStore,
    sys: &ChcSystem,
) -> Result<(DerivationStep, Vec<&'s Sx>), String> {
    let Sx::List(items) = sx else {
        return Err("expected a derivation node".into());
    };
    let Some(Sx::Atom(name)) = items.first() else {
        return Err("derivation node without a head".into());
    };
    let mut head_vals = Vec::new();
    let mut clause = None;
    let mut vars = Vec::new();
    let mut children = Vec::new();
    for it in &items[1..] {
        match it {
            Sx::List(l) if matches!(l.first(), Some(Sx::Atom(a)) if a == "clause") => {
                let [_, Sx::Atom(k)] = l.as_slice() else {
                    return Err("bad (clause K)".into());
                };
                clause = Some(
                    k.parse::<usize>()
                        .map_err(|_| format!("bad clause index '{k}'"))?,
                );
            }
            Sx::List(l) if matches!(l.first(), Some(Sx::Atom(a)) if a == "vars") => {
                for pair in &l[1..] {
                    let Sx::List(p) = pair else {
                        return Err("bad (vars …) entry".into());
                    };
                    let [Sx::Atom(n), v] = p.as_slice() else {
                        return Err("bad (vars …) entry".into());
                    };
                    vars.push((n.clone(), v));
                }
            }
            Sx::List(_) if clause.is_none() => head_vals.push(it),
            Sx::List(_) => children.push(it),
            Sx::Atom(_) => head_vals.push(it),
        }
    }
    let clause = clause.ok_or_else(|| format!("node '{name}' has no (clause K)"))?;
    let c = sys
        .clauses
        .get(clause)
        .ok_or_else(|| format!("clause {clause} does not exist"))?;
    let head = if name == "false" && head_vals.is_empty() {
        None
    } else {
        let f: FuncId = store
            .func_by_name(name)
            .ok_or_else(|| format!("unknown predicate '{name}'"))?;
        // Values are read by the sorts they have (datatype constructors are told apart
        // from other symbols by the sort); a count that does not match is left to the
        // checker, which says which step is wrong.
        let sorts = &store.func(f).args;
        let vals = head_vals
            .iter()
            .enumerate()
            .map(|(i, v)| match sorts.get(i) {
                Some(&s) => parse_value_of(v, s),
                None => parse_value(v),
            })
            .collect::<Result<Vec<Value>, String>>()?;
        Some((f, vals))
    };
    let mut assignment = Vec::new();
    for (n, v) in vars {
        let var = c
            .vars
            .iter()
            .copied()
            .find(|x| store.var_name(*x) == n)
            .ok_or_else(|| format!("clause {clause} has no variable '{n}'"))?;
        assignment.push((var, parse_value_of(v, store.var_sort(var))?));
    }
    let step = DerivationStep {
        clause,
        head,
        premises: Vec::new(),
        assignment,
    };
    Ok((step, children))
}
