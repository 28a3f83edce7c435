//! Arrays in the logic layer: sorts (nested, Bool-valued), parsing and printing of
//! `select`/`store`/constant arrays, and evaluation with array values.

use cove_logic::print::{term_to_string, value_text};
use cove_logic::smtlib::{Command, parse_script};
use cove_logic::{ArrayValue, Model, Rational, Sort, TermStore, Value};

fn asserts(src: &str, store: &mut TermStore) -> Vec<cove_logic::TermId> {
    let script = parse_script(src.as_bytes(), store).unwrap_or_else(|e| panic!("{e}"));
    script
        .commands
        .iter()
        .filter_map(|(c, _)| match c {
            Command::Assert { term, .. } => Some(*term),
            _ => None,
        })
        .collect()
}

#[test]
fn array_sorts_are_interned_and_print() {
    let a = Sort::array(Sort::Int, Sort::Int);
    assert_eq!(a, Sort::array(Sort::Int, Sort::Int));
    let n = Sort::array(Sort::Int, a);
    assert_ne!(a, n);
    assert_eq!(n.to_string(), "(Array Int (Array Int Int))");
    assert_eq!(n.array_parts(), Some((Sort::Int, a)));
    assert_eq!(
        Sort::array(Sort::Int, Sort::Bool).elem_sort(),
        Some(Sort::Bool)
    );
}

#[test]
fn parses_prints_and_evaluates() {
    let mut s = TermStore::new();
    let src = "(declare-const a (Array Int Int)) (declare-const m (Array Int (Array Int Int)))
        (declare-const b (Array Int Bool)) (declare-const i Int)
        (assert (= (select (store a i 5) i) 5))
        (assert (= (select (select m 1) 2) (select ((as const (Array Int Int)) 7) i)))
        (assert (select (store b 3 true) i))
        (assert (= a (store ((as const (Array Int Int)) 0) 1 2)))";
    let ts = asserts(src, &mut s);
    assert_eq!(ts.len(), 4);
    // The reader keeps terms as written; the simplifier folds reads of stores and constants.
    assert_eq!(term_to_string(&s, ts[0]), "(= (select (store a i 5) i) 5)");
    let simp = cove_logic::simplify(&mut s, ts[0]);
    assert_eq!(term_to_string(&s, simp), "true");
    let simp = cove_logic::simplify(&mut s, ts[1]);
    assert_eq!(term_to_string(&s, simp), "(= (select (select m 1) 2) 7)");
    assert_eq!(
        term_to_string(&s, ts[3]),
        "(= a (store ((as const (Array Int Int)) 0) 1 2))"
    );
    let ai = Sort::array(Sort::Int, Sort::Int);
    let int = |n: i64| Value::Num(Rational::int(n));
    let mut model = Model::new();
    let av = ArrayValue::constant(int(0)).write(int(1), int(2));
    model.set(s.var("a", ai), Value::Array(Box::new(av.clone())));
    model.set(s.var("i", Sort::Int), int(3));
    model.set(
        s.var("b", Sort::array(Sort::Int, Sort::Bool)),
        Value::default_of(Sort::array(Sort::Int, Sort::Bool)),
    );
    let inner = ArrayValue::constant(int(0)).write(int(2), int(7));
    let outer =
        ArrayValue::constant(Value::default_of(ai)).write(int(1), Value::Array(Box::new(inner)));
    model.set(
        s.var("m", Sort::array(Sort::Int, ai)),
        Value::Array(Box::new(outer)),
    );
    for &t in &ts {
        assert!(model.eval_bool(&s, t).unwrap(), "{}", term_to_string(&s, t));
    }
    // Writing the default back gives the constant array again (canonical values).
    assert_eq!(av.write(int(1), int(0)), ArrayValue::constant(int(0)));
    assert_eq!(
        value_text(&Value::Array(Box::new(av.clone())), ai),
        "(store ((as const (Array Int Int)) 0) 1 2)"
    );
    let back = Value::Array(Box::new(av)).to_term(&mut s, ai);
    assert_eq!(
        term_to_string(&s, back),
        "(store ((as const (Array Int Int)) 0) 1 2)"
    );
}

#[test]
fn sort_errors_are_reported() {
    let mut s = TermStore::new();
    let bad = "(declare-const a (Array Int Int)) (assert (= (select a true) 0))";
    assert!(parse_script(bad.as_bytes(), &mut s).is_err());
    let bad = "(declare-const a (Array Int Int)) (assert (= (store a 1 true) a))";
    assert!(parse_script(bad.as_bytes(), &mut s).is_err());
}
