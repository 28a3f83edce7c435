use super::*;

const RULES: &str = "(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (inv x y))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (< x 10)) (inv (+ x 1) (+ y 2)))))";

fn spacer() -> SolveConfig {
    SolveRequest {
        engine: "spacer".into(),
        ..SolveRequest::default()
    }
    .config()
    .unwrap()
}

fn ctl() -> Control {
    Control::default().with_timeout(Duration::from_secs(60))
}

#[test]
fn text_clauses_push_pop_and_reuse() {
    let mut s = Session::from_smtlib(RULES).unwrap();
    assert_eq!(s.len(), 2);
    s.push();
    s.add_clause_text(
        "(=> (and (inv x y) (> y 20)) false)",
        &[("x", "Int"), ("y", "Int")],
    )
    .unwrap();
    let out = s.solve(&spacer(), &ctl());
    assert_eq!(out.answer.verdict(), "sat");
    assert!(out.validation.is_valid());
    s.pop(1).unwrap();
    assert_eq!(s.len(), 2);
    // A weaker assertion: the lemmas of the first answer refute it without an engine.
    s.push();
    s.add_clause_text(
        "(=> (and (inv x y) (> y 21)) false)",
        &[("x", "Int"), ("y", "Int")],
    )
    .unwrap();
    let out = s.solve(&spacer(), &ctl());
    assert_eq!(out.answer.verdict(), "sat");
    assert!(out.validation.is_valid());
    assert_eq!(s.last_reuse().answered_by, Some("lemmas"));
    assert!(!s.last_reuse().houdini);
    s.pop(1).unwrap();
    // A violated assertion: an engine finds the counterexample ...
    s.push();
    s.add_smtlib("(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (= x 7)) false)))")
        .unwrap();
    let out = s.solve(&spacer(), &ctl());
    assert_eq!(out.answer.verdict(), "unsat");
    assert!(out.validation.is_valid());
    s.pop(1).unwrap();
    // ... whose facts answer the next violated assertion.
    s.push();
    s.add_clause_text(
        "(=> (and (inv x y) (= y 8)) false)",
        &[("x", "Int"), ("y", "Int")],
    )
    .unwrap();
    let out = s.solve(&spacer(), &ctl());
    assert_eq!(out.answer.verdict(), "unsat");
    assert!(out.validation.is_valid());
    assert_eq!(s.last_reuse().answered_by, Some("facts"));
    s.pop(1).unwrap();
    assert!(s.pop(1).is_err());
}

#[test]
fn adding_a_rule_rechecks_lemmas_and_popping_drops_facts() {
    let mut s = Session::from_smtlib(RULES).unwrap();
    s.add_clause_text(
        "(=> (and (inv x y) (> x 10)) false)",
        &[("x", "Int"), ("y", "Int")],
    )
    .unwrap();
    assert_eq!(s.solve(&spacer(), &ctl()).answer.verdict(), "sat");
    // A new rule lets x jump past 10: the lemma x <= 10 is no longer inductive.
    s.push();
    s.add_clause_text(
        "(=> (and (inv x y) (= x 10)) (inv 11 y))",
        &[("x", "Int"), ("y", "Int")],
    )
    .unwrap();
    let out = s.solve(&spacer(), &ctl());
    assert_eq!(out.answer.verdict(), "unsat");
    assert!(out.validation.is_valid());
    assert!(s.last_reuse().houdini);
    assert!(!s.memory.facts.is_empty());
    // Popping the rule drops the facts derived with it, and the old answer comes back.
    s.pop(1).unwrap();
    assert!(
        s.memory
            .facts
            .iter()
            .all(|f| s.clauses.iter().any(|e| e.id == f.clause))
    );
    let out = s.solve(&spacer(), &ctl());
    assert_eq!(out.answer.verdict(), "sat");
    assert!(out.validation.is_valid());
}

#[test]
fn terms_built_by_name() {
    let mut s = Session::new();
    s.declare("inv", &["Int"]).unwrap();
    let x = s.var("x", "Int").unwrap();
    let zero = s.numeral("0", Sort::Int).unwrap();
    let one = s.numeral("1", Sort::Int).unwrap();
    let ten = s.numeral("10", Sort::Int).unwrap();
    let init = s.apply("=", &[x, zero]).unwrap();
    let inv_x = s.apply("inv", &[x]).unwrap();
    let fact = s.apply("=>", &[init, inv_x]).unwrap();
    assert_eq!(s.add_clause_term(fact).unwrap(), 1);
    let lt = s.apply("<", &[x, ten]).unwrap();
    let body = s.apply("and", &[inv_x, lt]).unwrap();
    let next = s.apply("+", &[x, one]).unwrap();
    let inv_next = s.apply("inv", &[next]).unwrap();
    let step = s.apply("=>", &[body, inv_next]).unwrap();
    s.add_clause_term(step).unwrap();
    let gt = s.apply(">", &[x, ten]).unwrap();
    let bad = s.apply("and", &[inv_x, gt]).unwrap();
    let f = s.apply("false", &[]).unwrap();
    let query = s.apply("=>", &[bad, f]).unwrap();
    s.add_clause_term(query).unwrap();
    assert_eq!(s.len(), 3);
    let out = s.solve(&spacer(), &ctl());
    assert_eq!(out.answer.verdict(), "sat");
    // Errors: sorts, arities, unknown names, bad handles, non-Horn.
    assert!(s.apply("+", &[x, inv_x]).is_err());
    assert!(s.apply("not", &[]).is_err());
    assert!(s.apply("foo", &[x]).is_err());
    assert!(s.apply("inv", &[TermId(1 << 30)]).is_err());
    assert!(s.add_clause_term(x).is_err());
    let or = s.apply("or", &[inv_x, inv_next]).unwrap();
    assert!(s.add_clause_term(or).is_err());
    assert!(s.numeral("1/2", Sort::Int).is_err());
    assert!(s.numeral("1/2", Sort::Real).is_ok());
    assert!(s.numeral("x", Sort::Int).is_err());
    assert_eq!(s.len(), 3);
}

#[test]
fn text_errors_are_located_and_atomic() {
    let mut s = Session::new();
    s.declare("inv", &["Int"]).unwrap();
    assert!(s.declare("inv", &["Int"]).is_err());
    assert!(s.declare("p", &["Int) Bool) (declare-fun q (Int"]).is_err());
    let e = s
        .add_clause_text("(=> (= x 0)\n  (inv2 x))", &[("x", "Int")])
        .unwrap_err();
    let SessionError::Parse(e) = e else {
        panic!("{e}")
    };
    assert_eq!((e.line, e.col), (2, 4), "{e}");
    assert!(
        s.add_clause_text("(=> (= x 0) (inv x)", &[("x", "Int")])
            .is_err()
    );
    assert!(s.add_clause_text("true) (assert false", &[]).is_err());
    assert!(
        s.add_smtlib("(assert (forall ((x Int)) (inv x))) (check-sat)")
            .is_err()
    );
    assert!(s.add_smtlib("(declare-const k Int)").is_err());
    assert_eq!(s.len(), 0);
    assert!(Session::from_smtlib("(set-logic HORN)(check-sat)(check-sat)").is_err());
}

#[test]
fn commands_are_split_at_top_level() {
    let src = "; c\n(set-logic HORN)\n(assert (forall ((|a b| Int)) (=> (= |a b| \"(\") p)))\n  (push 1) x (pop)";
    let cmds = split_commands(src);
    let heads: Vec<&str> = cmds.iter().map(|c| c.head).collect();
    assert_eq!(heads, ["set-logic", "assert", "push", "", "pop"]);
    assert_eq!((cmds[1].line, cmds[1].col), (3, 1));
    assert_eq!((cmds[2].line, cmds[2].col), (4, 3));
    assert_eq!(cmds[3].text, "x");
    assert_eq!(cmds[4].text, "(pop)");
}

#[test]
fn replay_answers_each_question_like_the_driver() {
    let script = format!(
        "{RULES}
(define-fun lim () Int 20)
(push 1)
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (> y lim)) false)))
(check-sat)
(pop 1)
(push 1)
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) (= x 3)) false)))
(check-sat)
(pop 1)
(check-sat)"
    );
    let mut s = Session::new();
    let got = s
        .replay(&script, |s| s.solve(&spacer(), &ctl()).answer.verdict())
        .unwrap();
    assert_eq!(got, ["sat", "unsat", "sat"]);
    let mut store = TermStore::new();
    let want: Vec<&str> = crate::frontend::parse_queries(script.as_bytes(), &mut store, &ctl())
        .unwrap()
        .iter()
        .map(|q| driver::solve(&store, q, &spacer(), &ctl()).answer.verdict())
        .collect();
    assert_eq!(got, want);
    // Errors are located in the script.
    let bad = format!("{RULES}\n(push 1)\n(assert (inv 1 true))");
    let Err(SessionError::Parse(e)) = Session::new().replay(&bad, |_| ()) else {
        panic!("expected a sort error")
    };
    assert_eq!(e.line, 6, "{e}");
}
