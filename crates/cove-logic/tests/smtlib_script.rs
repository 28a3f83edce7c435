//! The SMT-LIB2 reader in script mode: commands, declarations and scopes, term elaboration
//! (chains, Int/Real mixing, `let`, macros, capture), and errors with their positions.

use cove_logic::print::term_to_string;
use cove_logic::smtlib::{Command, Declared, ErrorKind, ParseError, Script, parse_script};
use cove_logic::{Op, Sort, TermId, TermStore};

fn parse(src: &str) -> (Script, TermStore) {
    let mut store = TermStore::new();
    let script = parse_script(src.as_bytes(), &mut store).unwrap_or_else(|e| panic!("{e}"));
    (script, store)
}

fn parse_err(src: &str) -> ParseError {
    let mut store = TermStore::new();
    parse_script(src.as_bytes(), &mut store).expect_err("should fail")
}

/// The asserted terms, printed.
fn asserts(src: &str) -> Vec<String> {
    let (script, store) = parse(src);
    script
        .commands
        .iter()
        .filter_map(|(c, _)| match c {
            Command::Assert { term, .. } => Some(term_to_string(&store, *term)),
            _ => None,
        })
        .collect()
}

fn assert_one(decls: &str, term: &str) -> String {
    let v = asserts(&format!("{decls}\n(assert {term})"));
    assert_eq!(v.len(), 1);
    v[0].clone()
}

const XY: &str =
    "(declare-const x Int) (declare-const y Int) (declare-const r Real) (declare-const p Bool)";

#[test]
fn commands_and_positions() {
    let src = "(set-logic QF_LIA)\n(set-info :status sat)\n(set-option :produce-models true)\n(declare-const x Int)\n\
               (declare-fun b () Bool)\n(define-fun two () Int 2)\n(assert (! (> x two) :named big))\n(push 1)\n(assert b)\n(pop)\n\
               (check-sat)\n(check-sat-assuming (big (not b)))\n(get-value (x (+ x 1)))\n(get-model)\n(get-unsat-core)\n(echo \"a\"\"b\")\n(reset)\n(exit)\n(garbage";
    let (script, store) = parse(src);
    let cmds: Vec<&Command> = script.commands.iter().map(|(c, _)| c).collect();
    assert_eq!(cmds.len(), 18);
    assert_eq!(cmds[0], &Command::SetLogic("QF_LIA".into()));
    assert_eq!(
        cmds[1],
        &Command::SetInfo {
            keyword: "status".into(),
            value: Some("sat".into())
        }
    );
    assert!(
        matches!(cmds[4], Command::DeclareFun { decl: Declared::Const(v), .. } if store.var_sort(*v) == Sort::Bool)
    );
    match cmds[6] {
        Command::Assert { term, name } => {
            assert_eq!(name.as_deref(), Some("big"));
            assert_eq!(term_to_string(&store, *term), "(> x 2)");
        }
        c => panic!("{c:?}"),
    }
    assert_eq!(cmds[9], &Command::Pop(1));
    match cmds[11] {
        Command::CheckSatAssuming(ts) => assert_eq!(ts.len(), 2),
        c => panic!("{c:?}"),
    }
    match cmds[12] {
        Command::GetValue(ts) => assert_eq!(
            ts.iter().map(|(_, s)| &**s).collect::<Vec<_>>(),
            ["x", "(+ x 1)"]
        ),
        c => panic!("{c:?}"),
    }
    assert_eq!(cmds[15], &Command::Echo("a\"b".into()));
    assert_eq!(cmds[17], &Command::Exit);
    // Positions are those of the opening parentheses.
    assert_eq!(script.commands[6].1.line, 7);
    assert_eq!(script.commands[6].1.col, 1);
}

#[test]
fn chains_and_nary_forms() {
    assert_eq!(assert_one(XY, "(= x y 3)"), "(and (= x y) (= y 3))");
    assert_eq!(assert_one(XY, "(< x y 3)"), "(and (< x y) (< y 3))");
    assert_eq!(assert_one(XY, "(=> p p p)"), "(=> p (=> p p))");
    assert_eq!(
        assert_one(XY, "(= (- x y 1) (- x))"),
        "(= (- (- x y) 1) (- x))"
    );
    assert_eq!(assert_one(XY, "(xor p p p)"), "(xor (xor p p) p)");
    assert_eq!(assert_one(XY, "(distinct x y 1)"), "(distinct x y 1)");
    assert_eq!(assert_one(XY, "(and p)"), "p");
    assert_eq!(assert_one(XY, "(or)"), "false");
    assert_eq!(
        assert_one(XY, "(= (div x 2 3) (mod y 4))"),
        "(= (div (div x 2) 3) (mod y 4))"
    );
    assert_eq!(assert_one(XY, "((_ divisible 3) x)"), "(= (mod x 3) 0)");
}

#[test]
fn numerals_fold_like_their_printed_forms() {
    assert_eq!(assert_one(XY, "(= x (- 5))"), "(= x (- 5))");
    assert_eq!(assert_one(XY, "(= r (/ 7 2))"), "(= r (/ 7 2))");
    assert_eq!(assert_one(XY, "(= r (/ (- 7) 2))"), "(= r (/ (- 7) 2))");
    assert_eq!(assert_one(XY, "(= r 2.50)"), "(= r (/ 5 2))");
    assert_eq!(assert_one(XY, "(= r (- 3.0))"), "(= r (- 3.0))");
    assert_eq!(assert_one(XY, "(= r (/ 1 0))"), "(= r (/ 1.0 0.0))");
    let (script, store) = parse("(assert (= 123456789012345678901234567890 (+ 1 1)))");
    let Command::Assert { term, .. } = &script.commands[0].0 else {
        panic!()
    };
    assert!(store.as_num(store.args(*term)[0]).is_some());
}

#[test]
fn int_real_mixing_promotes_ints() {
    assert_eq!(assert_one(XY, "(< x r)"), "(< (to_real x) r)");
    assert_eq!(
        assert_one(XY, "(= r (+ x 1 r))"),
        "(= r (+ (to_real x) 1.0 r))"
    );
    assert_eq!(assert_one(XY, "(> (/ x 2) r)"), "(> (/ (to_real x) 2.0) r)");
    assert_eq!(
        assert_one(XY, "(= (ite p x r) r)"),
        "(= (ite p (to_real x) r) r)"
    );
    assert_eq!(assert_one(XY, "(is_int x)"), "(is_int (to_real x))");
    assert_eq!(
        assert_one("(set-logic HORN) (declare-fun f (Real) Bool)", "(f 3)"),
        "(f 3.0)"
    );
    // No promotion Real -> Int.
    assert_eq!(
        parse_err(&format!("{XY} (assert (= (div r 2) x))")).kind,
        ErrorKind::Sort
    );
    assert_eq!(
        parse_err(&format!("{XY} (assert (= x p))")).kind,
        ErrorKind::Sort
    );
}

#[test]
fn let_is_parallel_and_capture_free() {
    // Parallel: the inner x refers to the outer binding.
    assert_eq!(assert_one(XY, "(let ((x y) (y x)) (< x y))"), "(< y x)");
    assert_eq!(
        assert_one(XY, "(let ((a (+ x 1))) (let ((a (* a 2))) (> a 0)))"),
        "(> (* (+ x 1) 2) 0)"
    );
    // The binder would capture the free x of the let image: it is renamed.
    let out = assert_one(XY, "(let ((z x)) (exists ((x Int)) (> x z)))");
    assert!(out.starts_with("(exists ((x!"), "{out}");
    assert!(out.ends_with(" x))"), "{out}");
    // A binder that cannot capture keeps its name.
    assert_eq!(
        assert_one(XY, "(let ((z 1)) (exists ((x Int)) (> x z)))"),
        "(exists ((x Int)) (> x 1))"
    );
}

#[test]
fn define_fun_expands_without_capture() {
    let d = "(declare-const x Int) (define-fun f ((y Int)) Bool (exists ((x Int)) (> x y)))";
    let out = assert_one(d, "(f x)");
    assert!(out.starts_with("(exists ((x!"), "{out}");
    assert!(out.ends_with(" x))"), "{out}");
    assert_eq!(
        assert_one(
            "(define-fun g ((a Int) (b Real)) Real (+ a b)) (declare-const x Int)",
            "(> (g x 2) 0)"
        ),
        "(> (+ (to_real x) 2.0) 0.0)"
    );
    assert_eq!(assert_one("(define-fun c () Bool true)", "c"), "true");
    let e = parse_err("(define-fun g ((a Int)) Int a)\n(assert (= (g 1 2) 0))");
    assert_eq!((e.line, e.col, e.kind), (2, 12, ErrorKind::Arity));
    let e = parse_err("(define-fun g ((a Int)) Int a)\n(assert (= (g true) 0))");
    assert_eq!((e.line, e.col, e.kind), (2, 12, ErrorKind::Sort));
}

#[test]
fn quantifiers_shadow_by_name() {
    let out = assert_one(
        XY,
        "(and (> x 0) (forall ((x Int)) (exists ((x Int)) (> x 1))))",
    );
    assert_eq!(
        out,
        "(and (> x 0) (forall ((x Int)) (exists ((x Int)) (> x 1))))"
    );
}

#[test]
fn scopes_forget_declarations() {
    let e = parse_err("(push)\n(declare-const z Int)\n(pop)\n(assert (> z 0))");
    assert_eq!((e.line, e.col, e.kind), (4, 12, ErrorKind::UnknownSymbol));
    // After the pop, z may be declared again, even with another sort.
    let out = asserts(
        "(push 2)\n(declare-const z Int)\n(pop 2)\n(declare-const z Real)\n(assert (> z 0.5))",
    );
    assert_eq!(out, ["(> z (/ 1 2))"]);
    let e = parse_err(
        "(declare-const y Int)\n(push 1)\n(declare-const z Int)\n(reset-assertions)\n(assert (> y 0))\n(assert (> z 0))",
    );
    assert_eq!((e.line, e.col, e.kind), (6, 12, ErrorKind::UnknownSymbol));
    let e = parse_err("(declare-const z Int)\n(reset)\n(assert (> z 0))");
    assert_eq!((e.line, e.col, e.kind), (3, 12, ErrorKind::UnknownSymbol));
}

#[test]
fn logics() {
    for l in [
        "QF_LIA",
        "QF_LRA",
        "QF_LIRA",
        "LIA",
        "LRA",
        "ALL",
        "HORN",
        "QF_NIA",
        "QF_BV",
        "QF_ABV",
        "QF_DT",
        "QF_DTLIA",
        "QF_UFDTLIA",
    ] {
        parse(&format!("(set-logic {l})"));
    }
    for (l, kind) in [
        ("QF_AUFLIA", ErrorKind::UnsupportedTheory),
        ("QF_S", ErrorKind::UnsupportedTheory),
        ("QF_FP", ErrorKind::UnsupportedTheory),
        ("QF_FPDT", ErrorKind::UnsupportedTheory),
        ("QF_UF", ErrorKind::UnsupportedTheory),
        ("WEIRD", ErrorKind::UnsupportedLogic),
    ] {
        let e = parse_err(&format!("(set-logic {l})"));
        assert_eq!((e.line, e.col, e.kind), (1, 12, kind), "{l}");
    }
}

#[test]
fn declarations_by_dialect() {
    // Outside HORN, n-ary functions are uninterpreted functions: unsupported.
    let e = parse_err("(declare-fun f (Int) Bool)");
    assert_eq!(
        (e.line, e.col, e.kind),
        (1, 1, ErrorKind::UnsupportedTheory)
    );
    // Under HORN, Bool-valued ones are predicates.
    let (script, _) =
        parse("(set-logic HORN)\n(declare-fun f (Int) Bool)\n(declare-fun g () Bool)");
    assert!(matches!(
        script.commands[1].0,
        Command::DeclareFun {
            decl: Declared::Pred(_),
            ..
        }
    ));
    assert!(matches!(
        script.commands[2].0,
        Command::DeclareFun {
            decl: Declared::Pred(_),
            ..
        }
    ));
}

#[test]
fn nonlinear_terms_are_parsed() {
    let (script, store) = parse("(declare-const x Int)(assert (> (* x x) 2))");
    let Command::Assert { term, .. } = &script.commands[1].0 else {
        panic!()
    };
    assert_eq!(store.op(store.args(*term)[0]), &Op::Mul);
}

#[test]
fn deep_nesting_does_not_overflow() {
    let n = 50_000;
    let src = format!(
        "(declare-const x Int)(assert {}(> x 0){})",
        "(not ".repeat(n),
        ")".repeat(n)
    );
    let (script, _) = parse(&src);
    assert_eq!(script.commands.len(), 2);
    let src = format!(
        "(declare-const x Int)(assert (> {}x{} 0))",
        "(+ 1 ".repeat(n),
        ")".repeat(n)
    );
    let (script, store) = parse(&src);
    let Command::Assert { term, .. } = &script.commands[1].0 else {
        panic!()
    };
    let printed = term_to_string(&store, *term);
    let mut store2 = TermStore::new();
    let again = parse_script(
        format!("(declare-const x Int)(assert {printed})").as_bytes(),
        &mut store2,
    )
    .unwrap();
    assert_eq!(again.commands.len(), 2);
    let lets = format!(
        "(declare-const x Int)(assert {}(> x 0){})",
        "(let ((y 1)) ".repeat(n),
        ")".repeat(n)
    );
    parse(&lets);
    let quants = format!(
        "(assert {}(> x 0){})",
        "(forall ((x Int)) ".repeat(n),
        ")".repeat(n)
    );
    parse(&quants);
}

fn term_of(script: &Script, i: usize) -> TermId {
    match &script.commands[i].0 {
        Command::Assert { term, .. } => *term,
        c => panic!("{c:?}"),
    }
}

#[test]
fn named_terms_are_usable_symbols() {
    let (script, _) =
        parse("(declare-const x Int)(assert (! (> x 0) :named pos :weight 3))(assert (not pos))");
    assert_eq!(script.commands.len(), 3);
    let (script, store) = parse("(declare-const x Int)(assert (! (> x 0) :named pos))(assert pos)");
    assert_eq!(term_of(&script, 1), term_of(&script, 2));
    assert_eq!(store.sort(term_of(&script, 2)), Sort::Bool);
    let e = parse_err("(define-fun f ((a Int)) Bool (! (> a 0) :named n))");
    assert_eq!((e.line, e.col, e.kind), (1, 48, ErrorKind::InvalidCommand));
    let e = parse_err("(assert (forall ((x Int)) (! (> x 0) :named n)))");
    assert_eq!((e.line, e.col, e.kind), (1, 45, ErrorKind::InvalidCommand));
}
