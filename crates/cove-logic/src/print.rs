//! Printing terms, sorts and symbols as SMT-LIB2.
//!
//! Output is always valid SMT-LIB2 that [`crate::smtlib`] reads back to the same term (for
//! terms in the parser's normal form: numerals folded, no Int/Real mixing left implicit).
//! Negative numerals print as `(- 5)`, Real numerals as `5.0` or `(/ 7 2)`, and symbols are
//! quoted `|like this|` when they are not simple symbols.
//!
//! Large DAGs print in size linear in the number of distinct subterms: when printing a term
//! as a tree would blow up, every subterm with several parents is bound once by a `let`.
//! Let names never clash with the term's variables, and `let`s never reach into quantifier
//! bodies (each body is printed as a separate unit with its own `let`s), so a bound variable
//! is never confused with a free variable of the same name. The printer is iterative.

use crate::{FuncId, Op, Rational, Sort, TermId, TermStore, VarId};
use rustc_hash::{FxHashMap, FxHashSet};
use std::borrow::Cow;
use std::fmt;

/// Reserved words of SMT-LIB2, which must be quoted when used as symbols.
const RESERVED: &[&str] = &[
    "let",
    "forall",
    "exists",
    "!",
    "_",
    "as",
    "match",
    "par",
    "NUMERAL",
    "DECIMAL",
    "STRING",
    "BINARY",
    "HEXADECIMAL",
];

/// `name` as an SMT-LIB2 symbol: unchanged if it is a simple symbol, else `|name|`.
pub fn symbol(name: &str) -> Cow<'_, str> {
    let simple = !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"~!@$%^&*_-+=<>.?/".contains(&b))
        && !RESERVED.contains(&name);
    if simple {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(format!("|{name}|"))
    }
}

/// A numeral of `sort`: `5`, `(- 5)`, `5.0`, `(- 5.0)`, `(/ 7 2)`, `(/ (- 7) 2)`.
pub fn numeral(v: &Rational, sort: Sort) -> String {
    let num = v.numer();
    let mag = if v.is_negative() {
        -num.clone()
    } else {
        num.clone()
    };
    if v.is_integer() {
        let body = if sort == Sort::Real {
            format!("{mag}.0")
        } else {
            mag.to_string()
        };
        return if v.is_negative() {
            format!("(- {body})")
        } else {
            body
        };
    }
    let n = if v.is_negative() {
        format!("(- {mag})")
    } else {
        mag.to_string()
    };
    format!("(/ {n} {})", v.denom())
}

/// The SMT-LIB2 name of an operator with arguments (`None` for leaves and quantifiers).
pub fn op_name(op: &Op) -> Option<&'static str> {
    Some(match op {
        Op::Not => "not",
        Op::And => "and",
        Op::Or => "or",
        Op::Implies => "=>",
        Op::Xor => "xor",
        Op::Eq => "=",
        Op::Distinct => "distinct",
        Op::Ite => "ite",
        Op::Add => "+",
        Op::Sub | Op::Neg => "-",
        Op::Mul => "*",
        Op::Div => "/",
        Op::IntDiv => "div",
        Op::Mod => "mod",
        Op::Abs => "abs",
        Op::ToReal => "to_real",
        Op::ToInt => "to_int",
        Op::IsInt => "is_int",
        Op::Le => "<=",
        Op::Lt => "<",
        Op::Ge => ">=",
        Op::Gt => ">",
        Op::Select => "select",
        Op::Store => "store",
        Op::ConstArray | Op::Bv(_) | Op::Dt(_) => return None,
        Op::Bool(_) | Op::Num(_) | Op::Var(_) | Op::App(_) | Op::Forall(_) | Op::Exists(_) => {
            return None;
        }
    })
}

/// `t` as SMT-LIB2.
pub fn term_to_string(store: &TermStore, t: TermId) -> String {
    let mut out = String::new();
    write_term(&mut out, store, t);
    out
}

/// Appends `t` as SMT-LIB2 to `out`.
pub fn write_term(out: &mut String, store: &TermStore, t: TermId) {
    write_term_renamed(out, store, t, &FxHashMap::default());
}

/// Appends `t` to `out`, printing the variables in `names` under the given names instead of
/// their own (used to print clauses whose variables share a name).
pub fn write_term_renamed(
    out: &mut String,
    store: &TermStore,
    t: TermId,
    names: &FxHashMap<VarId, String>,
) {
    Printer::new(store, names, t).run(out, t);
}

/// `(declare-fun f (S*) R)`.
pub fn declare_fun(store: &TermStore, f: FuncId) -> String {
    let d = store.func(f);
    let args: Vec<String> = d.args.iter().map(|s| s.to_string()).collect();
    format!(
        "(declare-fun {} ({}) {})",
        symbol(&d.name),
        args.join(" "),
        d.ret
    )
}

/// An SMT-LIB2 script that asserts `assertions` and checks them: the logic (`QF_LIA`,
/// `QF_LRA` or `QF_LIRA` when only those sorts occur, else `ALL`), the datatypes, functions
/// and variables the terms use, one `assert` per term, `(check-sat)`. Any reader of the
/// standard (z3, cvc5, `cove smt`) decides it as the terms say: what `cove unroll` prints,
/// and what [`SmtSolver`](../../cove_smt/struct.SmtSolver.html) hands over to reproduce a check
/// elsewhere.
pub fn script(store: &TermStore, assertions: &[TermId]) -> String {
    use std::fmt::Write as _;
    // The sorts of every subterm (a datatype or an array may occur only inside terms) and
    // the functions applied, without recursion over the terms' depth.
    let mut sorts: Vec<Sort> = Vec::new();
    let mut funcs: Vec<FuncId> = Vec::new();
    let mut seen: FxHashSet<TermId> = FxHashSet::default();
    let mut stack: Vec<TermId> = assertions.to_vec();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        let s = store.sort(t);
        if !sorts.contains(&s) {
            sorts.push(s);
        }
        if let Op::App(f) = store.op(t)
            && !funcs.contains(f)
        {
            funcs.push(*f);
        }
        stack.extend_from_slice(store.args(t));
    }
    let vars = crate::subst::free_vars_in_order(store, assertions);
    for &v in &vars {
        let s = store.var_sort(v);
        if !sorts.contains(&s) {
            sorts.push(s);
        }
    }
    let other = sorts
        .iter()
        .any(|s| !matches!(s, Sort::Bool | Sort::Int | Sort::Real));
    let logic = match (
        other || !funcs.is_empty(),
        sorts.contains(&Sort::Int),
        sorts.contains(&Sort::Real),
    ) {
        (true, _, _) => "ALL",
        (false, true, true) => "QF_LIRA",
        (false, false, true) => "QF_LRA",
        _ => "QF_LIA",
    };
    let mut out = String::new();
    let _ = writeln!(out, "(set-logic {logic})");
    if let Some(d) = declare_datatypes(&sorts) {
        let _ = writeln!(out, "{d}");
    }
    for f in funcs {
        let _ = writeln!(out, "{}", declare_fun(store, f));
    }
    for v in vars {
        let _ = writeln!(
            out,
            "(declare-fun {} () {})",
            symbol(store.var_name(v)),
            store.var_sort(v)
        );
    }
    for &t in assertions {
        out.push_str("(assert ");
        write_term(&mut out, store, t);
        out.push_str(")\n");
    }
    out.push_str("(check-sat)\n");
    out
}

/// `declare-datatypes` commands declaring every datatype `sorts` mention, and every
/// datatype their fields mention (arrays looked through): one command per group of mutually
/// recursive datatypes, each after the groups it uses (readers such as z3 refuse a group
/// whose member occurs in an array index of another member); `None` when there is none.
pub fn declare_datatypes(sorts: &[crate::Sort]) -> Option<String> {
    use crate::Sort;
    use crate::dt::{datatypes_in, field_sorts};
    // The datatypes a datatype's fields mention directly (arrays looked through).
    let direct = |s: Sort| -> Vec<Sort> {
        let mut out: Vec<Sort> = Vec::new();
        for t in field_sorts(s).into_iter().flat_map(datatypes_in) {
            if !out.contains(&t) {
                out.push(t);
            }
        }
        out
    };
    let mut found: Vec<Sort> = Vec::new();
    let mut stack: Vec<Sort> = sorts.iter().flat_map(|&s| datatypes_in(s)).collect();
    while let Some(s) = stack.pop() {
        if !found.contains(&s) {
            found.push(s);
            stack.extend(direct(s));
        }
    }
    if found.is_empty() {
        return None;
    }
    found.sort();
    // Reachability among the (few) datatypes, by closure.
    let n = found.len();
    let idx = |s: Sort| found.iter().position(|&t| t == s).expect("found");
    let mut reach = vec![vec![false; n]; n];
    for (a, &s) in found.iter().enumerate() {
        for t in direct(s) {
            reach[a][idx(t)] = true;
        }
    }
    for k in 0..n {
        let via = reach[k].clone();
        for row in reach.iter_mut() {
            if row[k] {
                for (x, &y) in row.iter_mut().zip(&via) {
                    *x |= y;
                }
            }
        }
    }
    let mut done = vec![false; n];
    let mut out: Vec<String> = Vec::new();
    while done.iter().any(|d| !d) {
        // A group all of whose other uses are declared already (one exists: the
        // condensation of the reachability graph is acyclic).
        let a = (0..n)
            .find(|&a| !done[a] && (0..n).all(|b| !reach[a][b] || done[b] || reach[b][a] || a == b))
            .expect("an acyclic condensation");
        let group: Vec<usize> = (0..n)
            .filter(|&b| !done[b] && (b == a || (reach[a][b] && reach[b][a])))
            .collect();
        let heads: Vec<String> = group.iter().map(|&g| format!("({} 0)", found[g])).collect();
        let bodies: Vec<String> = group
            .iter()
            .map(|&g| {
                let ctors: Vec<String> = crate::dt::def(found[g])
                    .map(|d| d.ctors.as_slice())
                    .unwrap_or_default()
                    .iter()
                    .map(|c| {
                        let mut t = format!("({}", symbol(&c.name));
                        for (sel, sort) in &c.fields {
                            t += &format!(" ({} {sort})", symbol(sel));
                        }
                        t + ")"
                    })
                    .collect();
                format!("({})", ctors.join(" "))
            })
            .collect();
        out.push(format!(
            "(declare-datatypes ({}) ({}))",
            heads.join(" "),
            bodies.join(" ")
        ));
        for g in group {
            done[g] = true;
        }
    }
    Some(out.join("\n"))
}

/// A term together with its store, printable with `{}`.
pub struct TermDisplay<'a> {
    store: &'a TermStore,
    t: TermId,
}

impl fmt::Display for TermDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&term_to_string(self.store, self.t))
    }
}

impl TermStore {
    /// `t` printable as SMT-LIB2 with `{}`.
    pub fn display(&self, t: TermId) -> TermDisplay<'_> {
        TermDisplay { store: self, t }
    }
}

enum Item {
    Text(Cow<'static, str>),
    /// A term of the current unit (a let name if it is shared).
    Node(TermId),
    /// The definition of a shared term (never its own let name).
    Def(TermId),
    /// A quantifier body: a new unit with its own lets.
    Unit(TermId),
    EndUnit,
}

struct Printer<'a> {
    store: &'a TermStore,
    names: &'a FxHashMap<VarId, String>,
    taken: FxHashSet<String>,
    counter: u64,
    lets: Vec<FxHashMap<TermId, String>>,
}

fn is_leaf(store: &TermStore, t: TermId) -> bool {
    store.args(t).is_empty()
}

impl<'a> Printer<'a> {
    fn new(store: &'a TermStore, names: &'a FxHashMap<VarId, String>, root: TermId) -> Printer<'a> {
        Printer {
            store,
            names,
            taken: FxHashSet::default(),
            counter: 0,
            lets: vec![],
        }
        .with_taken(root)
    }

    /// Records every variable name in the DAG of `root` so let names avoid them.
    fn with_taken(mut self, root: TermId) -> Self {
        let mut seen = FxHashSet::default();
        let mut stack = vec![root];
        let add = |p: &mut Self, v: VarId| {
            let n = p.var_name(v).into_owned();
            p.taken.insert(n);
        };
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            match self.store.op(t) {
                Op::Var(v) => add(&mut self, *v),
                Op::Forall(vs) | Op::Exists(vs) => {
                    for &v in vs.iter() {
                        add(&mut self, v);
                    }
                }
                _ => {}
            }
            stack.extend_from_slice(self.store.args(t));
        }
        self
    }

    fn var_name(&self, v: VarId) -> Cow<'a, str> {
        match self.names.get(&v) {
            Some(n) => Cow::Owned(symbol(n).into_owned()),
            None => symbol(self.store.var_name(v)),
        }
    }

    fn fresh_let_name(&mut self) -> String {
        loop {
            self.counter += 1;
            let n = format!("a!{}", self.counter);
            if !self.taken.contains(&n) && self.store.func_by_name(&n).is_none() {
                return n;
            }
        }
    }

    fn run(mut self, out: &mut String, root: TermId) {
        let mut stack = vec![Item::Unit(root)];
        while let Some(item) = stack.pop() {
            match item {
                Item::Text(s) => out.push_str(&s),
                Item::EndUnit => {
                    self.lets.pop();
                }
                Item::Unit(t) => self.unit(t, &mut stack),
                Item::Node(t) => {
                    if let Some(n) = self.lets.last().and_then(|m| m.get(&t)) {
                        out.push_str(n);
                    } else {
                        self.node(out, t, &mut stack);
                    }
                }
                Item::Def(t) => self.node(out, t, &mut stack),
            }
        }
    }

    /// Prints one node, pushing its arguments.
    fn node(&mut self, out: &mut String, t: TermId, stack: &mut Vec<Item>) {
        let store = self.store;
        let args = store.args(t);
        match store.op(t) {
            Op::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Op::Num(v) => out.push_str(&numeral(v, store.sort(t))),
            Op::Var(v) => out.push_str(&self.var_name(*v)),
            Op::App(f) => {
                let name = symbol(&store.func(*f).name);
                if args.is_empty() {
                    out.push_str(&name);
                } else {
                    out.push('(');
                    out.push_str(&name);
                    self.push_args(args, stack);
                }
            }
            Op::ConstArray => {
                out.push_str(&format!("((as const {})", store.sort(t)));
                self.push_args(args, stack);
            }
            Op::Dt(d) => {
                let name = crate::dt::op_name(*d, store.sort(t));
                let name = match d {
                    crate::dt::DtOp::Test { .. } => name,
                    _ => symbol(&name).into_owned(),
                };
                if args.is_empty() {
                    out.push_str(&name);
                } else {
                    out.push('(');
                    out.push_str(&name);
                    self.push_args(args, stack);
                }
            }
            Op::Bv(crate::bv::BvOp::Lit(v)) => out.push_str(&v.to_string()),
            Op::Bv(b) => {
                out.push('(');
                out.push_str(&b.head(store.sort(t).bv_width().unwrap_or(0)));
                self.push_args(args, stack);
            }
            op @ (Op::Forall(vs) | Op::Exists(vs)) => {
                out.push_str(if matches!(op, Op::Forall(_)) {
                    "(forall ("
                } else {
                    "(exists ("
                });
                for (i, &v) in vs.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    out.push('(');
                    out.push_str(&self.var_name(v));
                    out.push(' ');
                    out.push_str(&store.var_sort(v).to_string());
                    out.push(')');
                }
                out.push_str(") ");
                stack.push(Item::Text(")".into()));
                stack.push(Item::Unit(args[0]));
            }
            op => {
                let name = op_name(op).expect("operator");
                match (op, args.len()) {
                    (Op::And, 0) => out.push_str("true"),
                    (Op::Or, 0) => out.push_str("false"),
                    (Op::Add, 0) => out.push('0'),
                    (Op::Mul, 0) => out.push('1'),
                    (Op::And | Op::Or | Op::Add | Op::Mul, 1) => stack.push(Item::Node(args[0])),
                    _ => {
                        out.push('(');
                        out.push_str(name);
                        self.push_args(args, stack);
                    }
                }
            }
        }
    }

    fn push_args(&self, args: &[TermId], stack: &mut Vec<Item>) {
        stack.push(Item::Text(")".into()));
        for &a in args.iter().rev() {
            stack.push(Item::Node(a));
            stack.push(Item::Text(" ".into()));
        }
    }

    /// Starts a unit: decides which of its subterms are let-bound and emits the lets.
    fn unit(&mut self, root: TermId, stack: &mut Vec<Item>) {
        let store = self.store;
        // The unit's nodes (quantifiers are leaves of the unit) and their parent counts.
        let mut parents: FxHashMap<TermId, u32> = FxHashMap::default();
        // Left-to-right preorder index: orders let bindings independently of term ids, so
        // equal terms in different stores print identically.
        let mut order: FxHashMap<TermId, u32> = FxHashMap::default();
        let mut nodes = vec![];
        let mut todo = vec![root];
        parents.insert(root, 0);
        while let Some(t) = todo.pop() {
            if order.contains_key(&t) {
                continue;
            }
            order.insert(t, nodes.len() as u32);
            nodes.push(t);
            if matches!(store.op(t), Op::Forall(_) | Op::Exists(_)) {
                continue;
            }
            for &a in store.args(t) {
                *parents.entry(a).or_insert(0) += 1;
            }
            todo.extend(
                store
                    .args(t)
                    .iter()
                    .rev()
                    .filter(|a| !order.contains_key(a)),
            );
        }
        nodes.sort_unstable();
        // Tree size of the unit, to decide whether sharing is needed.
        let mut tree: FxHashMap<TermId, u64> = FxHashMap::default();
        for &t in &nodes {
            let s = if matches!(store.op(t), Op::Forall(_) | Op::Exists(_)) {
                1
            } else {
                store
                    .args(t)
                    .iter()
                    .fold(1u64, |acc, a| acc.saturating_add(tree[a]))
            };
            tree.insert(t, s);
        }
        let share_all = tree[&root] > 2 * nodes.len() as u64 + 64;
        let is_shared = |t: TermId| {
            t != root
                && parents[&t] >= 2
                && !is_leaf(store, t)
                && (share_all || matches!(store.op(t), Op::Forall(_) | Op::Exists(_)))
        };
        // Let levels: a shared node's level is one more than the shared nodes below it.
        let mut below: FxHashMap<TermId, u32> = FxHashMap::default();
        let mut levels: Vec<Vec<TermId>> = vec![];
        for &t in &nodes {
            let quant = matches!(store.op(t), Op::Forall(_) | Op::Exists(_));
            let h = if quant {
                0
            } else {
                store.args(t).iter().map(|a| below[a]).max().unwrap_or(0)
            };
            if is_shared(t) {
                let lvl = h + 1;
                if levels.len() < lvl as usize {
                    levels.resize(lvl as usize, vec![]);
                }
                levels[lvl as usize - 1].push(t);
                below.insert(t, lvl);
            } else {
                below.insert(t, h);
            }
        }
        for level in &mut levels {
            level.sort_unstable_by_key(|t| order[t]);
        }
        let mut map = FxHashMap::default();
        for &t in levels.iter().flatten() {
            let name = self.fresh_let_name();
            map.insert(t, name);
        }
        stack.push(Item::EndUnit);
        for _ in &levels {
            stack.push(Item::Text(")".into()));
        }
        stack.push(Item::Node(root));
        for level in levels.iter().rev() {
            stack.push(Item::Text(") ".into()));
            for (i, &t) in level.iter().enumerate().rev() {
                stack.push(Item::Text(
                    if i + 1 < level.len() { ") " } else { ")" }.into(),
                ));
                stack.push(Item::Def(t));
                stack.push(Item::Text(format!("({} ", map[&t]).into()));
            }
            stack.push(Item::Text("(let (".into()));
        }
        self.lets.push(map);
    }
}

/// A value of sort `sort` as SMT-LIB2 (arrays as `store` chains over a constant array).
pub fn value_text(v: &crate::Value, sort: Sort) -> String {
    match v {
        crate::Value::Bool(b) => b.to_string(),
        crate::Value::Num(k) => numeral(k, sort),
        crate::Value::Bv(x) => x.to_string(),
        crate::Value::Dt(d) => {
            let def = crate::dt::def(d.sort).expect("defined datatype");
            let c = &def.ctors[d.ctor as usize];
            if c.fields.is_empty() {
                return symbol(&c.name).into_owned();
            }
            let mut s = format!("({}", symbol(&c.name));
            for (v, f) in d.fields.iter().zip(&c.fields) {
                s.push(' ');
                s.push_str(&value_text(v, f.1));
            }
            s.push(')');
            s
        }
        crate::Value::Array(a) => {
            let (is, es) = sort.array_parts().expect("array sort");
            let mut s = String::new();
            for _ in &a.entries {
                s.push_str("(store ");
            }
            s.push_str(&format!(
                "((as const {sort}) {})",
                value_text(&a.default, es)
            ));
            for (k, x) in &a.entries {
                s.push_str(&format!(" {} {})", value_text(k, is), value_text(x, es)));
            }
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numerals_and_symbols() {
        assert_eq!(numeral(&Rational::int(-5), Sort::Int), "(- 5)");
        assert_eq!(numeral(&Rational::int(5), Sort::Real), "5.0");
        assert_eq!(numeral(&Rational::new(-7, 2), Sort::Real), "(/ (- 7) 2)");
        assert_eq!(symbol("x"), "x");
        assert_eq!(symbol("a b"), "|a b|");
        assert_eq!(symbol("1x"), "|1x|");
        assert_eq!(symbol("let"), "|let|");
        assert_eq!(symbol(""), "||");
    }

    #[test]
    fn shared_dags_print_linearly() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::Int);
        let mut t = s.mk_var(x);
        for _ in 0..60 {
            t = s.mk_add(&[t, t]);
        }
        let out = term_to_string(&s, t);
        assert!(out.len() < 60 * 40, "{}", out.len());
        assert!(
            out.starts_with("(let ((a!1 (+ x x))) (let ((a!2 (+ a!1 a!1)))"),
            "{out}"
        );
    }
}
