//! Variable elimination (`solve-eqs`): random formulas with planted definitions (top-level
//! and under `(or (not b) (and …))` contexts) must get the same answer with and without
//! elimination, and every model of the reduced formula, extended through the definitions,
//! must satisfy the original formula. Script mode: later commands mentioning candidate
//! variables keep the answers of a run without elimination.

use cove_logic::{Rational, Sort, TermId, TermStore, Value, VarId};
use cove_smt::{
    ScriptOptions, SmtResult, SmtSolver, SolveEqsLimits, resolve_definitions, run_script_opts,
    solve_eqs,
};
use rustc_hash::FxHashSet;

mod common;
use common::{GenConfig, Rng, generate};

/// A random linear equation that can be solved for `vars[i]` (coefficient ±1 for Int).
fn planted_eq(store: &mut TermStore, rng: &mut Rng, vars: &[VarId], int: bool) -> TermId {
    let sort = if int { Sort::Int } else { Sort::Real };
    let i = rng.below(vars.len());
    let xc = if int {
        [-1, 1][rng.below(2)]
    } else {
        [-3, -1, 1, 2][rng.below(4)]
    };
    let mut parts = vec![store.mk_var(vars[i])];
    let c = store.mk_num(Rational::int(xc), sort);
    parts[0] = store.mk_mul(&[c, parts[0]]);
    for (j, &v) in vars.iter().enumerate() {
        if j != i && rng.chance(1, 2) {
            let k = store.mk_num(Rational::int(rng.range(-2, 2)), sort);
            let vt = store.mk_var(v);
            parts.push(store.mk_mul(&[k, vt]));
        }
    }
    let lhs = store.mk_add(&parts);
    let rhs = store.mk_num(Rational::int(rng.range(-5, 5)), sort);
    store.mk_eq(lhs, rhs)
}

fn definite(s: &mut SmtSolver, store: &mut TermStore) -> SmtResult {
    s.set_limits(cove_sat::Limits {
        conflicts: Some(20_000),
        ..Default::default()
    });
    s.check(store)
}

fn family(int: bool, seed: u64, n: usize) {
    let mut rng = common::rng(seed);
    let (mut sat, mut unsat, mut eliminated) = (0, 0, 0);
    for i in 0..n {
        let mut store = TermStore::new();
        let mut cfg = GenConfig::random(&mut rng, int);
        cfg.coef = cfg.coef.min(10);
        let g = generate(&mut store, &mut rng, &cfg);
        let sel = store.var("sel", Sort::Bool);
        let sel = store.mk_var(sel);
        let mut parts = vec![g.formula];
        for _ in 0..rng.range(1, 3) {
            parts.push(planted_eq(&mut store, &mut rng, &g.vars, int));
        }
        // A context: (or (not sel) (and eq eq' other)).
        let mut ctx = vec![planted_eq(&mut store, &mut rng, &g.vars, int)];
        if rng.chance(1, 2) {
            ctx.push(planted_eq(&mut store, &mut rng, &g.vars, int));
        }
        let other = generate(&mut store, &mut rng, &cfg);
        ctx.push(other.formula);
        let conj = store.mk_and(&ctx);
        let ns = store.mk_not(sel);
        parts.push(store.mk_or(&[ns, conj]));
        if rng.chance(1, 2) {
            parts.push(sel);
        }
        if let Some(&b) = g.bools.first() {
            // A Boolean definition.
            let x = store.mk_var(g.vars[0]);
            let k = store.mk_num(Rational::int(rng.range(-3, 3)), store.sort(x));
            let ge = store.mk_ge(x, k);
            let bt = store.mk_var(b);
            parts.push(store.mk_eq(bt, ge));
        }
        let formula = store.mk_and(&parts);

        let mut plain = SmtSolver::new();
        plain.assert(&mut store, formula);
        let r_plain = definite(&mut plain, &mut store);

        let red = solve_eqs(
            &mut store,
            &[formula],
            &FxHashSet::default(),
            &SolveEqsLimits::default(),
        );
        eliminated += red.definitions.len();
        let mut s = SmtSolver::new();
        for &a in &red.assertions {
            s.assert(&mut store, a);
        }
        let r = definite(&mut s, &mut store);
        match (&r, &r_plain) {
            (SmtResult::Unknown(_), _) | (_, SmtResult::Unknown(_)) => continue,
            _ => assert_eq!(r, r_plain, "case {i}: answers differ"),
        }
        if r == SmtResult::Sat {
            let defs = resolve_definitions(&mut store, &red.definitions);
            let mut m = s.model(&store);
            for (&x, &t) in &defs {
                let v = m.eval(&store, t).expect("definition evaluates");
                m.set(x, v);
            }
            assert_eq!(
                m.eval(&store, formula),
                Ok(Value::Bool(true)),
                "case {i}: extended model does not satisfy the original"
            );
            sat += 1;
        } else {
            unsat += 1;
        }
    }
    assert!(sat > 10 && unsat > 10, "sat {sat} unsat {unsat}");
    assert!(eliminated > n, "only {eliminated} eliminations");
}

#[test]
fn random_lia_agrees_and_models_extend() {
    family(true, 11, 300);
}

#[test]
fn random_lra_agrees_and_models_extend() {
    family(false, 12, 300);
}

fn run(src: &str, solve_eqs: bool) -> String {
    let mut out = Vec::new();
    run_script_opts(
        SmtSolver::new(),
        src.as_bytes(),
        &mut out,
        &ScriptOptions { solve_eqs },
    )
    .expect("io");
    String::from_utf8(out).unwrap()
}

/// The integer value printed for `name` by `get-value` (`(name v)`) or `get-model`.
fn int_value(out: &str, name: &str) -> i64 {
    let keys = [format!("({name} "), format!("(define-fun {name} () Int ")];
    let at = keys
        .iter()
        .find_map(|k| out.find(k.as_str()).map(|i| i + k.len()))
        .expect("value printed");
    let rest = &out[at..];
    let (neg, rest) = match rest.strip_prefix("(- ") {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let v: i64 = digits.parse().expect("integer");
    if neg { -v } else { v }
}

#[test]
fn script_later_commands_on_eliminated_variables() {
    let src = r#"
(set-logic QF_LIA)
(declare-const x Int)
(declare-const y Int)
(declare-const z Int)
(declare-const w Int)
(declare-const b Bool)
(assert (= y (+ x 1)))
(assert (or (not b) (and (= z (* 2 y)) (> z 10))))
(assert (= w (- z 3)))
(assert b)
(check-sat)
(get-value (x y z w (+ y z)))
(get-model)
(push 1)
(assert (= x 3))
(check-sat)
(pop 1)
(assert (< w 0))
(check-sat)
"#;
    let with = run(src, true);
    let without = run(src, false);
    let answers = |s: &str| {
        s.lines()
            .filter(|l| matches!(*l, "sat" | "unsat" | "unknown"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(answers(&with), vec!["sat", "unsat", "unsat"], "{with}");
    assert_eq!(answers(&with), answers(&without));
    // The values (of eliminated variables too) satisfy the original assertions.
    let value_line = with.lines().nth(1).expect("get-value");
    let (x, y, z, w) = (
        int_value(value_line, "x"),
        int_value(value_line, "y"),
        int_value(value_line, "z"),
        int_value(value_line, "w"),
    );
    assert_eq!(y, x + 1, "{with}");
    assert_eq!(z, 2 * y, "{with}");
    assert!(z > 10, "{with}");
    assert_eq!(w, z - 3, "{with}");
    for name in ["x", "y", "z", "w", "b"] {
        assert!(with.contains(&format!("(define-fun {name} ")), "{with}");
    }
    let model: String = with.lines().skip(2).take(7).collect::<Vec<_>>().join("\n");
    assert_eq!(int_value(&model, "y"), y);
    assert_eq!(int_value(&model, "w"), w);
}

#[test]
fn script_elimination_does_not_touch_named_or_assumed() {
    let src = r#"
(set-logic QF_LIA)
(declare-const x Int)
(declare-const y Int)
(declare-const p Bool)
(assert (= y (+ x 1)))
(assert (! (= x 5) :named nx))
(assert (or p (= y 0)))
(check-sat-assuming ((not p)))
(get-unsat-core)
(check-sat)
(get-value (x y p))
"#;
    let with = run(src, true);
    let without = run(src, false);
    assert_eq!(with, without);
    assert!(
        with.starts_with("unsat\n(nx)\nsat\n((x 5) (y 6) (p true))"),
        "{with}"
    );
}
