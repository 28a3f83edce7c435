//! Malformed CHC inputs: each gives the expected error kind at the exact `line:col`, and the
//! message is displayed as `LINE:COL: message`.

use cove_chc::frontend::{ErrorKind, parse_chc};
use cove_logic::TermStore;

/// Two lines of valid preamble: errors in the cases below are on line 3 unless noted.
const H: &str = "(set-logic HORN)\n(declare-fun P (Int) Bool)\n";

struct Case {
    name: &'static str,
    src: Vec<u8>,
    kind: ErrorKind,
    line: u32,
    col: u32,
}

fn case(name: &'static str, body: &str, kind: ErrorKind, line: u32, col: u32) -> Case {
    Case {
        name,
        src: format!("{H}{body}").into_bytes(),
        kind,
        line,
        col,
    }
}

fn cases() -> Vec<Case> {
    use ErrorKind::*;
    let mut v = vec![
        // Structure.
        case(
            "unbalanced: missing ')'",
            "(assert (P 1)",
            UnexpectedEof,
            3,
            14,
        ),
        case("unbalanced: extra ')'", "(assert (P 1)))", Syntax, 3, 15),
        case(
            "truncated file",
            "(assert (forall ((x Int))\n  (=> (P x)",
            UnexpectedEof,
            4,
            12,
        ),
        case("truncated string", "(echo \"abc", UnexpectedEof, 3, 11),
        case(
            "truncated quoted symbol",
            "(assert |abc",
            UnexpectedEof,
            3,
            13,
        ),
        case("bad character", "(assert {P 1})", Syntax, 3, 9),
        case("malformed numeral", "(assert (P 12abc))", Syntax, 3, 12),
        case("malformed decimal", "(assert (P 1.))", Syntax, 3, 12),
        case("empty command", "()", Syntax, 3, 1),
        case("command is not a list", "assert", Syntax, 3, 1),
        case("unknown command", "(assret (P 1))", UnknownCommand, 3, 2),
        case("keyword as term", "(assert :foo)", Syntax, 3, 9),
        case("empty list as term", "(assert ())", Syntax, 3, 9),
        case("malformed let", "(assert (let (x 1) (P x)))", Syntax, 3, 15),
        case(
            "quantifier without variables",
            "(assert (forall () (P 1)))",
            Syntax,
            3,
            9,
        ),
        case(
            "duplicate bound variable",
            "(assert (forall ((x Int) (x Int)) (P x)))",
            Redeclared,
            3,
            26,
        ),
        // Symbols and declarations.
        case(
            "unknown predicate",
            "(assert (forall ((x Int)) (Q x)))",
            UnknownSymbol,
            3,
            28,
        ),
        case(
            "unknown variable",
            "(assert (forall ((x Int)) (P y)))",
            UnknownSymbol,
            3,
            30,
        ),
        case(
            "unknown sort",
            "(declare-fun Q (Foo) Bool)",
            UnknownSymbol,
            3,
            17,
        ),
        case(
            "redeclared predicate",
            "(declare-fun P (Int) Bool)",
            Redeclared,
            3,
            14,
        ),
        case(
            "declared builtin",
            "(declare-fun and (Int) Bool)",
            Redeclared,
            3,
            14,
        ),
        // Sorts and arities.
        case(
            "sort mismatch in predicate argument",
            "(assert (P true))",
            Sort,
            3,
            9,
        ),
        case(
            "Real argument for an Int parameter",
            "(assert (P 1.5))",
            Sort,
            3,
            9,
        ),
        case(
            "sort mismatch in arithmetic",
            "(assert (forall ((x Int)) (P (+ x true))))",
            Sort,
            3,
            30,
        ),
        case(
            "sort mismatch in equality",
            "(assert (forall ((x Int)) (=> (= x true) (P x))))",
            Sort,
            3,
            31,
        ),
        case(
            "div on reals",
            "(assert (forall ((r Real)) (=> (> (div r 2.0) 0.0) (P 0))))",
            Sort,
            3,
            35,
        ),
        case("non-Bool assertion", "(assert (+ 1 2))", Sort, 3, 9),
        case(
            "wrong arity of a predicate",
            "(assert (P 1 2))",
            Arity,
            3,
            9,
        ),
        case(
            "wrong arity of not",
            "(assert (forall ((x Int)) (=> (not (P x) (P x)) (P x))))",
            Arity,
            3,
            31,
        ),
        case("predicate without arguments", "(assert P)", Arity, 3, 9),
        case(
            "define-fun body of the wrong sort",
            "(define-fun f ((x Int)) Bool (+ x 1))",
            Sort,
            3,
            30,
        ),
        // Non-Horn.
        case(
            "two positive predicates",
            "(assert (forall ((x Int)) (=> (P x) (or (P (+ x 1)) (P (- x 1))))))",
            NonHorn,
            3,
            53,
        ),
        case(
            "negated body predicate",
            "(assert (forall ((x Int)) (=> (not (P x)) (P (+ x 1)))))",
            NonHorn,
            3,
            43,
        ),
        case(
            "predicate under '='",
            "(assert (forall ((x Int)) (= (P x) (> x 0))))",
            NonHorn,
            3,
            30,
        ),
        case(
            "predicate in an ite condition",
            "(assert (forall ((x Int)) (=> (ite (P x) (> x 0) (< x 0)) (P x))))",
            NonHorn,
            3,
            36,
        ),
        case(
            "existential head",
            "(assert (forall ((x Int)) (=> (> x 0) (exists ((y Int)) (P y)))))",
            NonHorn,
            3,
            39,
        ),
        case(
            "universal body",
            "(assert (=> (forall ((y Int)) (P y)) (P 0)))",
            NonHorn,
            3,
            13,
        ),
        // Unsupported logics and theories.
        case(
            "floating-point sort",
            "(declare-fun Q (Float32) Bool)",
            UnsupportedTheory,
            3,
            17,
        ),
        case(
            "bit-vector literal for an Int argument",
            "(assert (P #x0F))",
            Sort,
            3,
            9,
        ),
        case(
            "parametric datatype",
            "(declare-datatypes ((L 1)) ((par (T) ((nil) (cons (hd T) (tl (L T)))))))",
            UnsupportedTheory,
            3,
            24,
        ),
        case(
            "datatype without finite values",
            "(declare-datatypes ((L 0)) (((cons (hd Int) (tl L)))))",
            Sort,
            3,
            22,
        ),
        case(
            "datatype: constructor declared twice",
            "(declare-datatypes ((A 0) (B 0)) (((c)) ((c))))",
            Redeclared,
            3,
            43,
        ),
        case(
            "datatype: unknown field sort",
            "(declare-datatype A ((c (f Foo))))",
            UnknownSymbol,
            3,
            28,
        ),
        case(
            "datatype: tester of a non-constructor",
            "(declare-datatype A ((c (f Int))))\n(assert (forall ((x A)) ((_ is P) x)))",
            UnknownSymbol,
            4,
            32,
        ),
        case(
            "datatype: selector on the wrong sort",
            "(declare-datatype A ((c (f Int))))\n(assert (forall ((x Int)) (P (f x))))",
            Sort,
            4,
            30,
        ),
        case(
            "codatatypes",
            "(declare-codatatypes ((S 0)) (((s (hd Int) (tl S)))))",
            UnsupportedTheory,
            3,
            1,
        ),
        case(
            "uninterpreted sort",
            "(declare-sort U 0)",
            UnsupportedTheory,
            3,
            1,
        ),
        case(
            "strings",
            "(assert (P (str.len \"ab\")))",
            UnsupportedTheory,
            3,
            13,
        ),
        case(
            "select of a non-array",
            "(assert (forall ((x Int)) (P (select x 1))))",
            Sort,
            3,
            30,
        ),
        case(
            "uninterpreted function",
            "(declare-fun f (Int) Int)",
            UnsupportedTheory,
            3,
            1,
        ),
        // Commands.
        case("pop below the bottom", "(pop 1)", InvalidCommand, 3, 1),
        case("second set-logic", "(set-logic HORN)", InvalidCommand, 3, 1),
    ];
    v.push(Case {
        name: "unsupported logic",
        src: b"(set-logic QF_XYZ)".to_vec(),
        kind: ErrorKind::UnsupportedLogic,
        line: 1,
        col: 12,
    });
    // Encoding and line structure.
    let mut bad = format!("{H}(assert (P 1))\n(assert (P ").into_bytes();
    bad.extend_from_slice(&[0xC3, 0x28, b')', b')']);
    v.push(Case {
        name: "non-UTF-8 byte",
        src: bad,
        kind: ErrorKind::NonUtf8,
        line: 4,
        col: 12,
    });
    v.push(Case {
        name: "CRLF line endings",
        src: b"(set-logic HORN)\r\n(declare-fun P (Int) Bool)\r\n(assert (P x))\r\n".to_vec(),
        kind: ErrorKind::UnknownSymbol,
        line: 3,
        col: 12,
    });
    v.push(Case {
        name: "columns count characters",
        src: "; \u{e9}\u{e9}\u{e9}\n(assert (|\u{e9}| 1))"
            .as_bytes()
            .to_vec(),
        kind: ErrorKind::UnknownSymbol,
        line: 2,
        col: 10,
    });
    v.push(Case {
        name: "fixedpoint: undeclared rule variable",
        src: b"(declare-rel R (Int))\n(rule (=> (R x) (R 0)))".to_vec(),
        kind: ErrorKind::UnknownSymbol,
        line: 2,
        col: 14,
    });
    v.push(Case {
        name: "fixedpoint: non-Horn query",
        src: b"(declare-rel R (Int))\n(declare-var x Int)\n(query (not (R x)))".to_vec(),
        kind: ErrorKind::NonHorn,
        line: 3,
        col: 13,
    });
    v.push(Case { name: "predicate as a predicate argument", src: b"(set-logic HORN)\n(declare-fun P (Int) Bool)\n(declare-fun B (Bool) Bool)\n(assert (forall ((x Int)) (B (P x))))".to_vec(), kind: ErrorKind::NonHorn, line: 4, col: 30 });
    v
}

#[test]
fn malformed_inputs_are_located() {
    let cases = cases();
    assert!(cases.len() >= 30);
    let mut failures = vec![];
    for c in &cases {
        let mut store = TermStore::new();
        match parse_chc(&c.src, &mut store) {
            Ok(_) => failures.push(format!("{}: parsed without error", c.name)),
            Err(e) => {
                if (e.kind, e.line, e.col) != (c.kind, c.line, c.col) {
                    failures.push(format!(
                        "{}: expected {:?} at {}:{}, got {:?} at {e}",
                        c.name, c.kind, c.line, c.col, e.kind
                    ));
                }
                assert_eq!(
                    e.to_string(),
                    format!("{}:{}: {}", e.line, e.col, e.message)
                );
                assert!(!e.message.is_empty());
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
