//! Algebraic datatypes (SMT-LIB 2.6 `declare-datatypes`).
//!
//! Datatype declarations are interned process-wide, like array sorts, so that [`Sort`] stays a
//! small `Copy` value that prints without a store. Every declaration gets new ids (two files
//! declaring `List` get two distinct sorts); the table only grows, by one entry per declared
//! datatype.
//!
//! Operators ([`DtOp`]): constructor application, selector application and constructor test.
//! A selector applied to a value built by another constructor has SMT-LIB's unspecified (but
//! fixed) value: evaluation ([`crate::Model::eval`]) refuses such a read instead of guessing,
//! and the CHC flattening treats it as an unconstrained value.

use crate::Sort;
use std::sync::{OnceLock, RwLock};

/// One constructor of a datatype.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ctor {
    /// Constructor name.
    pub name: Box<str>,
    /// Selector names and field sorts.
    pub fields: Vec<(Box<str>, Sort)>,
}

/// A datatype: its name and constructors (at least one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DtDef {
    /// Sort name.
    pub name: Box<str>,
    /// Constructors, in declaration order.
    pub ctors: Vec<Ctor>,
}

struct Entry {
    name: Box<str>,
    def: Option<&'static DtDef>,
}

fn table() -> &'static RwLock<Vec<Entry>> {
    static TABLE: OnceLock<RwLock<Vec<Entry>>> = OnceLock::new();
    TABLE.get_or_init(|| RwLock::new(Vec::new()))
}

/// Reserves the sorts of a group of (possibly mutually recursive) datatypes by name; their
/// constructors are given afterwards with [`define`].
pub fn reserve(names: &[&str]) -> Vec<Sort> {
    let mut t = table().write().expect("datatype table");
    names
        .iter()
        .map(|n| {
            t.push(Entry {
                name: (*n).into(),
                def: None,
            });
            Sort::Dt((t.len() - 1) as u32)
        })
        .collect()
}

/// Whether any datatype was declared in this process (a fast path for the passes that
/// only matter with datatypes).
pub fn any_declared() -> bool {
    !table().read().expect("datatype table").is_empty()
}

/// Gives the constructors of a sort returned by [`reserve`] (once).
pub fn define(sort: Sort, ctors: Vec<Ctor>) {
    let Sort::Dt(i) = sort else {
        panic!("define of a non-datatype sort")
    };
    let mut t = table().write().expect("datatype table");
    let e = &mut t[i as usize];
    assert!(e.def.is_none(), "datatype defined twice");
    let def: &'static DtDef = Box::leak(Box::new(DtDef {
        name: e.name.clone(),
        ctors,
    }));
    e.def = Some(def);
}

/// Declares one datatype whose fields do not mention itself (convenience for tests and
/// passes).
pub fn declare(name: &str, ctors: Vec<Ctor>) -> Sort {
    let s = reserve(&[name])[0];
    define(s, ctors);
    s
}

/// The name of a datatype sort.
pub fn name(sort: Sort) -> Box<str> {
    let Sort::Dt(i) = sort else {
        return sort.to_string().into();
    };
    table().read().expect("datatype table")[i as usize]
        .name
        .clone()
}

/// The definition of a datatype sort (`None` for other sorts and for a reserved sort whose
/// constructors are not given yet).
pub fn def(sort: Sort) -> Option<&'static DtDef> {
    let Sort::Dt(i) = sort else { return None };
    table().read().expect("datatype table")[i as usize].def
}

/// A datatype operator.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum DtOp {
    /// Constructor `ctor` of the datatype (the term's sort).
    Ctor(u32),
    /// Selector of field `field` of constructor `ctor` of datatype `dt` (the argument's sort).
    Sel {
        /// The datatype.
        dt: Sort,
        /// The constructor.
        ctor: u32,
        /// The field.
        field: u32,
    },
    /// Test `((_ is C) x)` of constructor `ctor` of datatype `dt`.
    Test {
        /// The datatype.
        dt: Sort,
        /// The constructor.
        ctor: u32,
    },
}

/// The SMT-LIB spelling of `op` applied in a term of sort `sort` (the constructor's own sort).
pub fn op_name(op: DtOp, sort: Sort) -> String {
    match op {
        DtOp::Ctor(c) => def(sort)
            .map(|d| d.ctors[c as usize].name.to_string())
            .unwrap_or_else(|| "?ctor".into()),
        DtOp::Sel { dt, ctor, field } => def(dt)
            .map(|d| d.ctors[ctor as usize].fields[field as usize].0.to_string())
            .unwrap_or_else(|| "?sel".into()),
        DtOp::Test { dt, ctor } => def(dt)
            .map(|d| format!("(_ is {})", d.ctors[ctor as usize].name))
            .unwrap_or_else(|| "?is".into()),
    }
}

/// Whether datatype `sort` can reach itself through constructor fields (also through
/// array sorts and other datatypes). Such datatypes are infinite; the others are tuples
/// and enumerations and can be flattened.
pub fn is_recursive(sort: Sort) -> bool {
    let mut seen: Vec<Sort> = Vec::new();
    let mut stack: Vec<Sort> = field_sorts(sort);
    while let Some(s) = stack.pop() {
        if s == sort {
            return true;
        }
        if seen.contains(&s) {
            continue;
        }
        seen.push(s);
        stack.extend(field_sorts(s));
    }
    false
}

/// The sorts directly inside `s`: the fields of a datatype, the components of an array sort.
pub fn field_sorts(s: Sort) -> Vec<Sort> {
    if let Some((i, e)) = s.array_parts() {
        return vec![i, e];
    }
    match def(s) {
        Some(d) => d
            .ctors
            .iter()
            .flat_map(|c| c.fields.iter().map(|f| f.1))
            .collect(),
        None => vec![],
    }
}

/// The datatypes `s` is or holds inside array sorts (not those inside their fields).
pub fn datatypes_in(s: Sort) -> Vec<Sort> {
    let mut out = Vec::new();
    let mut stack = vec![s];
    while let Some(s) = stack.pop() {
        match s {
            Sort::Dt(_) if !out.contains(&s) => out.push(s),
            Sort::Array(_) => stack.extend(field_sorts(s)),
            _ => {}
        }
    }
    out
}

/// Whether `s` mentions a datatype (itself, or inside an array sort).
pub fn mentions_dt(s: Sort) -> bool {
    let mut stack = vec![s];
    while let Some(s) = stack.pop() {
        match s {
            Sort::Dt(_) => return true,
            Sort::Array(_) => {
                let (i, e) = s.array_parts().expect("array");
                stack.push(i);
                stack.push(e);
            }
            _ => {}
        }
    }
    false
}

/// A constructor of `sort` that builds finite values without going through `sort` again
/// (a base case such as `nil`), if any: the least fixpoint of "all field sorts are
/// inhabited by finite values".
pub fn base_ctor(sort: Sort) -> Option<u32> {
    // Collect the datatypes reachable from `sort`.
    let mut all: Vec<Sort> = vec![];
    let mut stack = vec![sort];
    while let Some(s) = stack.pop() {
        if all.contains(&s) {
            continue;
        }
        if let Some((i, e)) = s.array_parts() {
            stack.push(i);
            stack.push(e);
            continue;
        }
        if let Some(d) = def(s) {
            all.push(s);
            stack.extend(d.ctors.iter().flat_map(|c| c.fields.iter().map(|f| f.1)));
        }
    }
    let mut ok: Vec<Sort> = vec![];
    let inhabited = |s: Sort, ok: &Vec<Sort>| -> bool {
        let mut st = vec![s];
        while let Some(s) = st.pop() {
            match s {
                Sort::Dt(_) if !ok.contains(&s) => return false,
                Sort::Array(_) => st.push(s.elem_sort().expect("array")),
                _ => {}
            }
        }
        true
    };
    // The constructor is the one found when the sort joins `ok` (with only the sorts known
    // to be inhabited *before* it): a later pass would also accept a recursive constructor
    // such as `cons`, whose values built from defaults never end.
    let mut chosen: Option<u32> = None;
    loop {
        let before = ok.len();
        let mut added: Vec<(Sort, u32)> = vec![];
        for &s in &all {
            if ok.contains(&s) {
                continue;
            }
            let d = def(s).expect("defined");
            if let Some(c) = d
                .ctors
                .iter()
                .position(|c| c.fields.iter().all(|f| inhabited(f.1, &ok)))
            {
                added.push((s, c as u32));
            }
        }
        for (s, c) in added {
            if s == sort {
                chosen = Some(c);
            }
            ok.push(s);
        }
        if ok.len() == before {
            break;
        }
    }
    def(sort)?;
    chosen
}

#[cfg(test)]
mod tests {
    use crate::smtlib::{Command, Dialect, ParseError, Parser, Script, parse_script};

    /// Datatypes are read in the CHC dialect only.
    fn parse_chc(src: &[u8], st: &mut TermStore) -> Result<Script, ParseError> {
        let mut p = Parser::new(src, st, Dialect::Chc)?;
        let mut script = Script::default();
        while let Some(c) = p.next_command()? {
            script.commands.push(c);
        }
        Ok(script)
    }
    use crate::{Model, Op, Sort, TermStore, Value};

    #[test]
    fn declarations_terms_and_evaluation() {
        let src =
            "(set-logic HORN)(declare-datatypes ((T 0) (F 0)) (((leaf (val Int)) (node (kids F)))
                                                    ((fnil) (fcons (head T) (tail F)))))
                   (declare-datatype E ((A) (B) (C)))
                   (declare-datatypes () ((P (mkp (p1 E) (p2 Int)))))
                   (declare-const x T)
                   (assert (= (val (leaf 3)) 3))
                   (assert ((_ is node) (node fnil)))
                   (assert (is-B (p1 (mkp B 1))))
                   (assert (= x (node (fcons (leaf 1) fnil))))";
        let mut st = TermStore::new();
        let script = parse_chc(src.as_bytes(), &mut st).expect("parses");
        let sorts: Vec<Sort> = script
            .commands
            .iter()
            .filter_map(|(c, _)| match c {
                Command::DeclareDatatypes(s) => Some(s.clone()),
                _ => None,
            })
            .flatten()
            .collect();
        assert_eq!(sorts.len(), 4);
        assert!(super::is_recursive(sorts[0]) && super::is_recursive(sorts[1]));
        assert!(!super::is_recursive(sorts[2]) && !super::is_recursive(sorts[3]));
        assert_eq!(super::base_ctor(sorts[0]), Some(0));
        let asserts = script.assertions();
        let mut m = Model::new();
        let x = crate::subst::free_vars(&st, asserts[3])[0];
        let leaf1 = Value::Dt(std::sync::Arc::new(crate::DtValue {
            sort: sorts[0],
            ctor: 0,
            fields: vec![Value::Num(crate::Rational::int(1))],
        }));
        let fnil = Value::Dt(std::sync::Arc::new(crate::DtValue {
            sort: sorts[1],
            ctor: 0,
            fields: vec![],
        }));
        let list = Value::Dt(std::sync::Arc::new(crate::DtValue {
            sort: sorts[1],
            ctor: 1,
            fields: vec![leaf1, fnil],
        }));
        m.set(
            x,
            Value::Dt(std::sync::Arc::new(crate::DtValue {
                sort: sorts[0],
                ctor: 1,
                fields: vec![list.clone()],
            })),
        );
        for &a in &asserts {
            assert_eq!(m.eval(&st, a), Ok(Value::Bool(true)), "{}", st.display(a));
        }
        assert_eq!(
            crate::print::value_text(&list, sorts[1]),
            "(fcons (leaf 1) fnil)"
        );
        // A selector of the wrong constructor has no value to evaluate to.
        let xt = st.mk_var(x);
        let bad = st
            .mk(
                Op::Dt(super::DtOp::Sel {
                    dt: sorts[0],
                    ctor: 0,
                    field: 0,
                }),
                &[xt],
            )
            .unwrap();
        assert!(m.eval(&st, bad).is_err());
        // Printing uses the SMT-LIB syntax.
        assert!(
            crate::print::term_to_string(&st, asserts[1]).contains("((_ is node) (node fnil))")
        );
    }

    #[test]
    fn smt_scripts_read_datatypes() {
        let mut st = TermStore::new();
        let s = parse_script(
            b"(set-logic QF_DT)(declare-datatype P ((mk (a Int))))(declare-const p P)(assert (= (a p) 1))",
            &mut st,
        )
        .expect("parses");
        assert_eq!(s.commands.len(), 4);
    }

    #[test]
    fn deep_and_hostile_declarations_are_refused() {
        let mut src = String::from("(set-logic HORN)(declare-datatype D0 ((c0 (f0 Int))))");
        for i in 1..200 {
            src.push_str(&format!(
                "(declare-datatype D{i} ((c{i} (f{i} D{}))))",
                i - 1
            ));
        }
        let mut st = TermStore::new();
        let e = parse_chc(src.as_bytes(), &mut st).unwrap_err();
        assert!(e.to_string().contains("too deeply"), "{e}");
        for bad in [
            "(declare-datatypes ((L 0)) (((cons (tl L)))))",
            "(declare-datatypes ((L 0)) ())",
            "(declare-datatypes ((L 0)) ((())))",
            "(declare-datatype L ((c (s Int))))(declare-datatype M ((c)))",
            "(declare-datatype L ((c (s Int) (s Int))))",
            "(declare-datatypes ((L 2)) (((c))))",
            "(declare-datatype Int ((c)))",
        ] {
            let mut st = TermStore::new();
            let bad = format!("(set-logic HORN){bad}");
            assert!(parse_chc(bad.as_bytes(), &mut st).is_err(), "{bad}");
        }
    }
}
