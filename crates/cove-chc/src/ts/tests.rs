use super::*;
use crate::cert::{check_derivation, check_invariants};
use crate::frontend::parse_chc;
use cove_smt::{SmtResult, SmtSolver};

fn parse(src: &str, store: &mut TermStore) -> crate::ChcSystem {
    parse_chc(src.as_bytes(), store).expect("parses")
}

/// Plain BMC over the view, for the tests: the shortest counterexample trace.
fn bmc(store: &mut TermStore, ts: &TransitionSystem, max: usize) -> Option<Trace> {
    let mut un = ts.unroller();
    let mut s = SmtSolver::new();
    let i = un.init(store, 0);
    s.assert(store, i);
    for k in 0..=max {
        if k > 0 {
            let t = un.trans(store, k - 1);
            s.assert(store, t);
        }
        let b = un.bad(store, k);
        if s.check_assuming(store, &[b]) == SmtResult::Sat {
            let m = s.model(store);
            return Some(un.trace(store, &m, k));
        }
    }
    None
}

const COUNTER: &str = "(set-logic HORN) (declare-fun inv (Int Int) Bool)
  (assert (forall ((x Int) (n Int)) (=> (and (= x 0) (>= n 0)) (inv x n))))
  (assert (forall ((x Int) (n Int)) (=> (and (inv x n) (< x n)) (inv (+ x 1) n))))
  (assert (forall ((x Int) (n Int)) (=> (and (inv x n) (> x n)) false)))";

#[test]
fn single_predicate_view_and_invariant() {
    let mut store = TermStore::new();
    let sys = parse(COUNTER, &mut store);
    let ctl = Control::default();
    let ts = TransitionSystem::from_chc(&mut store, &sys, &ctl).unwrap();
    assert!(ts.is_single_predicate());
    assert_eq!(ts.vars.len(), 2);
    assert_eq!(ts.next.len(), 2);
    let (x, n) = (store.mk_var(ts.vars[0]), store.mk_var(ts.vars[1]));
    let inv = store.mk_le(x, n);
    assert!(ts.is_safe_inductive(&mut store, inv, &ctl).unwrap());
    let invs = ts.invariants(&mut store, inv).unwrap();
    check_invariants(&mut store, &sys, &invs, &ctl).unwrap();
    // Not inductive: x <= n + 5 does not exclude bad states.
    let five = store.mk_int(5);
    let n5 = store.mk_add(&[n, five]);
    let weak = store.mk_le(x, n5);
    assert!(!ts.is_safe_inductive(&mut store, weak, &ctl).unwrap());
    // `answer` translates without checking; the driver's check rejects the translation.
    let crate::ChcResult::Sat(weak_invs) = ts.answer(&mut store, &sys, TsAnswer::Safe(weak), &ctl)
    else {
        panic!("a safe answer translates to sat");
    };
    assert!(check_invariants(&mut store, &sys, &weak_invs, &ctl).is_err());
    assert!(matches!(
        ts.answer(&mut store, &sys, TsAnswer::Safe(inv), &ctl),
        crate::ChcResult::Sat(_)
    ));
    assert!(bmc(&mut store, &ts, 6).is_none());
}

#[test]
fn single_predicate_counterexample() {
    let src = "(set-logic HORN) (declare-fun inv (Int Int) Bool)
      (assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 10)) (inv x y))))
      (assert (forall ((x Int) (y Int) (d Int)) (=> (and (inv x y) (>= d 1) (<= d 2)) (inv (+ x d) (- y 1)))))
      (assert (forall ((x Int) (y Int)) (=> (and (inv x y) (= x 7) (< y 8)) false)))";
    let mut store = TermStore::new();
    let sys = parse(src, &mut store);
    let ctl = Control::default();
    let ts = TransitionSystem::from_chc(&mut store, &sys, &ctl).unwrap();
    assert_eq!(ts.aux.len(), 1, "d is a local variable of trans");
    let trace = bmc(&mut store, &ts, 10).expect("unsafe");
    assert_eq!(trace.states.len(), 5); // 0 -> ... -> 7 in 4 steps of 1 or 2
    let d = ts.derivation(&mut store, &sys, &trace, &ctl).unwrap();
    check_derivation(&store, &sys, &d).unwrap();
    assert_eq!(d.steps.len(), 6);
    assert!(matches!(
        ts.answer(&mut store, &sys, TsAnswer::Unsafe(trace), &ctl),
        crate::ChcResult::Unsat(_)
    ));
}

const MULTI: &str = "(set-logic HORN)
  (declare-fun p (Int Bool) Bool) (declare-fun q (Int Int) Bool)
  (assert (forall ((x Int)) (=> (= x 0) (p x true))))
  (assert (forall ((x Int) (b Bool)) (=> (and (p x b) (< x 3)) (p (+ x 1) (not b)))))
  (assert (forall ((x Int) (b Bool) (y Int)) (=> (and (p x b) (>= x 3) (= y (* 2 x))) (q x y))))
  (assert (forall ((x Int) (y Int)) (=> (and (q x y) (> y 0)) (q (- x 1) (- y 2)))))
  (assert (forall ((x Int) (y Int)) (=> (and (q x y) (< y 2) (< x 0)) false)))";

#[test]
fn multi_predicate_view() {
    let mut store = TermStore::new();
    let sys = parse(MULTI, &mut store);
    let ctl = Control::default();
    let ts = TransitionSystem::from_chc(&mut store, &sys, &ctl).unwrap();
    assert!(!ts.is_single_predicate());
    // loc, two Int slots (shared by p and q), one Bool slot.
    assert_eq!(ts.vars.len(), 4);
    // Safe: at q, y = 2x always, so y < 2 means x <= 0... but x >= 0 at q: y = 2x, x >= 0.
    let loc = store.mk_var(ts.location_var().unwrap());
    let q_slots: Vec<TermId> = ts.locs[1].slots.iter().map(|&v| store.mk_var(v)).collect();
    let one = loc_term(&mut store, 1);
    let at_q = store.mk_eq(loc, one);
    let two = store.mk_int(2);
    let twice = store.mk_mul(&[two, q_slots[0]]);
    let y_eq = store.mk_eq(q_slots[1], twice);
    let zero = store.mk_int(0);
    let x_ge = store.mk_ge(q_slots[0], zero);
    let q_inv = store.mk_and(&[y_eq, x_ge]);
    let inv = store.mk_implies(at_q, q_inv);
    let zero_l = loc_term(&mut store, 0);
    let at_p = store.mk_eq(loc, zero_l);
    let p_x = store.mk_var(ts.locs[0].slots[0]);
    let p_ok = store.mk_ge(p_x, zero);
    let p_inv = store.mk_implies(at_p, p_ok);
    let range = {
        let a = store.mk_or(&[at_p, at_q]);
        store.mk_and(&[a, p_inv, inv])
    };
    assert!(ts.is_safe_inductive(&mut store, range, &ctl).unwrap());
    let invs = ts.invariants(&mut store, range).unwrap();
    check_invariants(&mut store, &sys, &invs, &ctl).unwrap();
    assert!(bmc(&mut store, &ts, 12).is_none());
}

#[test]
fn multi_predicate_counterexample_and_bodyless_query() {
    // Unsafe variant: the query at q asks for y < 2 and x >= 0 (reached when y = 0).
    let src = MULTI.replace("(< x 0)", "(>= x 0)");
    let mut store = TermStore::new();
    let sys = parse(&src, &mut store);
    let ctl = Control::default();
    let ts = TransitionSystem::from_chc(&mut store, &sys, &ctl).unwrap();
    let trace = bmc(&mut store, &ts, 20).expect("unsafe");
    let d = ts.derivation(&mut store, &sys, &trace, &ctl).unwrap();
    check_derivation(&store, &sys, &d).unwrap();

    // A query without body predicate gets a location of its own.
    let src = "(set-logic HORN) (declare-fun p (Int) Bool)
      (assert (forall ((x Int)) (=> (= x 0) (p x))))
      (assert (forall ((x Int)) (=> (and (p x) (< x 5)) (p (+ x 1)))))
      (assert (forall ((z Int)) (=> (and (> z 3) (< z 5)) false)))";
    let mut store = TermStore::new();
    let sys = parse(src, &mut store);
    let ts = TransitionSystem::from_chc(&mut store, &sys, &ctl).unwrap();
    assert!(!ts.is_single_predicate());
    let trace = bmc(&mut store, &ts, 3).expect("unsafe");
    assert_eq!(trace.states.len(), 1);
    let d = ts.derivation(&mut store, &sys, &trace, &ctl).unwrap();
    check_derivation(&store, &sys, &d).unwrap();
}

#[test]
fn init_and_bad_locals_are_eliminated() {
    let src = "(set-logic HORN) (declare-fun inv (Int) Bool)
      (assert (forall ((x Int) (k Int)) (=> (and (= x (* 2 k)) (>= k 0)) (inv x))))
      (assert (forall ((x Int)) (=> (inv x) (inv (+ x 2)))))
      (assert (forall ((x Int) (j Int)) (=> (and (inv x) (= x (+ (* 2 j) 1))) false)))";
    let mut store = TermStore::new();
    let sys = parse(src, &mut store);
    let ctl = Control::default();
    let ts = TransitionSystem::from_chc(&mut store, &sys, &ctl).unwrap();
    for t in [ts.init, ts.bad] {
        assert!(free_vars_in(&store, t, &ts.vars));
    }
    assert!(bmc(&mut store, &ts, 5).is_none());
}

fn free_vars_in(store: &TermStore, t: TermId, vars: &[VarId]) -> bool {
    cove_logic::free_vars(store, t)
        .iter()
        .all(|v| vars.contains(v))
}

#[test]
fn nonlinear_systems_are_refused() {
    let src = "(set-logic HORN) (declare-fun p (Int) Bool)
      (assert (forall ((x Int)) (=> (= x 0) (p x))))
      (assert (forall ((x Int) (y Int)) (=> (and (p x) (p y)) (p (+ x y)))))
      (assert (forall ((x Int)) (=> (and (p x) (< x 0)) false)))";
    let mut store = TermStore::new();
    let sys = parse(src, &mut store);
    let r = TransitionSystem::from_chc(&mut store, &sys, &Control::default());
    assert_eq!(r.unwrap_err(), TsError::NonLinear);
}

#[test]
fn facts_and_queries_with_locals_as_transitions() {
    // With no quantifier elimination allowed, the fact and the query (both with locals)
    // become transitions from a start location and into the error location.
    let src = "(set-logic HORN) (declare-fun inv (Int) Bool)
      (assert (forall ((x Int) (k Int)) (=> (and (= x (* 2 k)) (>= k 0) (<= k 3)) (inv x))))
      (assert (forall ((x Int)) (=> (and (inv x) (< x 20)) (inv (+ x 2)))))
      (assert (forall ((x Int) (j Int)) (=> (and (inv x) (= x (+ (* 3 j) 1)) (> j 2)) false)))";
    let mut store = TermStore::new();
    let sys = parse(src, &mut store);
    let ctl = Control::default();
    let ts = TransitionSystem::from_chc_with_qe_limit(&mut store, &sys, 0, &ctl).unwrap();
    assert!(!ts.is_single_predicate());
    assert_eq!(ts.locs.len(), 3);
    let trace = bmc(&mut store, &ts, 10).expect("unsafe: x = 10 = 3*3+1");
    let d = ts.derivation(&mut store, &sys, &trace, &ctl).unwrap();
    check_derivation(&store, &sys, &d).unwrap();
    // Safe variant: x stays even, 3j+1 with j > 2 and even means j odd... use x odd instead.
    let safe = src.replace("(= x (+ (* 3 j) 1)) (> j 2)", "(= x (+ (* 2 j) 1))");
    let mut store = TermStore::new();
    let sys = parse(&safe, &mut store);
    let ts = TransitionSystem::from_chc_with_qe_limit(&mut store, &sys, 0, &ctl).unwrap();
    let loc = store.mk_var(ts.location_var().unwrap());
    let x = store.mk_var(ts.locs[0].slots[0]);
    let two = store.mk_int(2);
    let zero = store.mk_int(0);
    let m = store.mk(cove_logic::Op::Mod, &[x, two]).unwrap();
    let even = store.mk_eq(m, zero);
    let at_err = {
        let e = loc_term(&mut store, 2);
        store.mk_eq(loc, e)
    };
    let at_p = {
        let e = loc_term(&mut store, 0);
        store.mk_eq(loc, e)
    };
    let p_even = store.mk_implies(at_p, even);
    let not_err = store.mk_not(at_err);
    let inv = store.mk_and(&[p_even, not_err]);
    assert!(ts.is_safe_inductive(&mut store, inv, &ctl).unwrap());
    let invs = ts.invariants(&mut store, inv).unwrap();
    check_invariants(&mut store, &sys, &invs, &ctl).unwrap();
}
