//! CHC over algebraic datatypes: records and enumerations are flattened, answers are
//! translated back and checked against the original system; over recursive datatypes,
//! BMC and Spacer run side by side, counterexamples are checked by evaluation and
//! invariants by the SMT core's datatype theory.

use cove_chc::driver::{SolveConfig, Validation, solve};
use cove_chc::frontend::parse_queries;
use cove_chc::preprocess::adt;
use cove_chc::result::{ChcResult, Derivation, DerivationStep, Invariants};
use cove_chc::{Control, cert};
use cove_logic::{DtValue, Sort, TermStore, Value};

fn run(src: &str) -> (ChcResult, Validation) {
    run_with(src, 2_000_000)
}

fn run_with(src: &str, work: u64) -> (ChcResult, Validation) {
    let mut store = TermStore::new();
    let qs = parse_queries(src.as_bytes(), &mut store, &Control::default()).expect("parses");
    let ctl = Control::default().with_work_budget(work);
    let out = solve(&store, &qs[0], &SolveConfig::default(), &ctl);
    (out.answer, out.validation)
}

/// A counter in a record with an enumeration mode (the Solidity / TriCera shape).
const RECORD_SAFE: &str = "(set-logic HORN)
(declare-datatypes ((Mode 0)) (((Idle) (Busy) (Done))))
(declare-datatypes ((St 0)) (((mk (cnt Int) (mode Mode)))))
(declare-fun Inv (St) Bool)
(assert (forall ((s St)) (=> (= s (mk 0 Idle)) (Inv s))))
(assert (forall ((s St) (t St)) (=> (and (Inv s) ((_ is Idle) (mode s)) (= t (mk (+ (cnt s) 1) Busy))) (Inv t))))
(assert (forall ((s St) (t St)) (=> (and (Inv s) (is-Busy (mode s)) (= t (mk (cnt s) Done))) (Inv t))))
(assert (forall ((s St)) (=> (and (Inv s) (> (cnt s) 1)) false)))
(check-sat)
";

#[test]
fn record_with_enum_is_safe_and_certified() {
    let (r, v) = run(RECORD_SAFE);
    assert!(matches!(r, ChcResult::Sat(_)), "{r:?}");
    assert_eq!(v, Validation::Valid);
}

#[test]
fn record_with_enum_counterexample_is_certified() {
    let src = RECORD_SAFE.replace("(> (cnt s) 1)", "(and (= (mode s) Done) (= (cnt s) 1))");
    let (r, v) = run(&src);
    let ChcResult::Unsat(d) = r else {
        panic!("{r:?}")
    };
    assert_eq!(v, Validation::Valid);
    // The derivation talks about datatype values.
    let shown = format!("{:?}", d.steps[d.root].assignment);
    assert!(shown.contains("Dt"), "{shown}");
}

/// TriCera's heap: an array of a sum type, read with testers and selectors.
const HEAP: &str = "(set-logic HORN)
(declare-datatypes ((Obj 0)) (((O_Int (getInt Int)) (O_Addr (getAddr Int)) (defObj))))
(declare-datatypes ((Heap 0)) (((HeapCtor (HeapSize Int) (HeapContents (Array Int Obj))))))
(declare-fun Inv (Heap Int) Bool)
(assert (forall ((h Heap) (p Int))
  (=> (and (= p 1) (= h (HeapCtor 1 (store ((as const (Array Int Obj)) defObj) 1 (O_Int 5))))) (Inv h p))))
(assert (forall ((h Heap) (p Int) (h2 Heap))
  (=> (and (Inv h p) ((_ is O_Int) (select (HeapContents h) p))
           (= h2 (HeapCtor (HeapSize h) (store (HeapContents h) p (O_Int (+ (getInt (select (HeapContents h) p)) 1))))))
      (Inv h2 p))))
(assert (forall ((h Heap) (p Int)) (=> (and (Inv h p) (not ((_ is O_Int) (select (HeapContents h) p)))) false)))
(check-sat)
";

#[test]
fn array_of_sum_type_is_safe_and_certified() {
    let (r, v) = run(HEAP);
    assert!(
        matches!(r, ChcResult::Sat(_) | ChcResult::Unknown(_)),
        "{r:?}"
    );
    if matches!(r, ChcResult::Sat(_)) {
        assert_eq!(v, Validation::Valid);
    }
}

#[test]
fn array_of_sum_type_counterexample_is_certified() {
    let src = HEAP.replace(
        "(not ((_ is O_Int) (select (HeapContents h) p)))",
        "(= (getInt (select (HeapContents h) p)) 7)",
    );
    let (r, v) = run(&src);
    assert!(matches!(r, ChcResult::Unsat(_)), "{r:?}");
    assert_eq!(v, Validation::Valid);
}

/// A list with a negative head is reachable: BMC over the datatype theory finds the
/// derivation, and the checker accepts it by evaluation over constructor terms.
#[test]
fn recursive_datatypes_get_checked_counterexamples() {
    let src = "(set-logic HORN)
(declare-datatypes ((L 0)) (((nil) (cons (hd Int) (tl L)))))
(declare-fun P (L) Bool)
(assert (forall ((l L)) (=> (= l nil) (P l))))
(assert (forall ((l L) (x Int)) (=> (P l) (P (cons x l)))))
(assert (forall ((l L)) (=> (and (P l) ((_ is cons) l) (< (hd l) 0)) false)))
(check-sat)
";
    let (r, v) = run(src);
    assert!(matches!(r, ChcResult::Unsat(_)), "{r:?}");
    assert_eq!(v, Validation::Valid);
    // Only positive heads: safe, and Spacer (with the datatype-aware projection) finds an
    // invariant over a tester and a selector, which the checker accepts.
    let safe = src.replace(
        "(l L) (x Int)) (=> (P l)",
        "(l L) (x Int)) (=> (and (P l) (> x 0))",
    );
    let (r, v) = run(&safe);
    assert!(matches!(r, ChcResult::Sat(_)), "{r:?}");
    assert_eq!(v, Validation::Valid);
}

/// Nonlinear clauses over Peano numbers and trees (the shape of `tree_size`): the invariant
/// `lt(a, b) ⇒ ¬(_ is Z) b` is over a tester; Spacer finds it and the checker decides it with
/// the SMT core's datatype theory (recursive datatypes are not flattened).
#[test]
fn recursive_nonlinear_system_gets_a_certified_invariant() {
    let src = "(set-logic HORN)
(declare-datatypes ((N 0)) (((Z) (S (p N)))))
(declare-datatypes ((T 0)) (((node (d N) (l T) (r T)) (leaf))))
(declare-fun add (N N N) Bool)
(declare-fun lt (N N) Bool)
(declare-fun size (T N) Bool)
(assert (forall ((a N)) (add a Z a)))
(assert (forall ((a N) (b N) (c N)) (=> (add a b c) (add (S a) (S b) c))))
(assert (forall ((b N)) (lt Z (S b))))
(assert (forall ((a N) (b N)) (=> (lt a b) (lt (S a) (S b)))))
(assert (size leaf Z))
(assert (forall ((x N) (l T) (r T) (m N) (n N) (k N))
  (=> (and (size l m) (size r n) (add k m n)) (size (node x l r) k))))
(assert (forall ((t T) (n N)) (=> (and (size t n) (lt n Z)) false)))
(check-sat)
";
    let (r, v) = run(src);
    assert!(matches!(r, ChcResult::Sat(_)), "{r:?}");
    assert_eq!(v, Validation::Valid);
}

/// The checker decides invariants over datatypes: a hand-written correct invariant is
/// accepted, a wrong one refuted.
#[test]
fn checker_decides_datatype_invariants() {
    let mut store = TermStore::new();
    let qs = parse_queries(RECORD_SAFE.as_bytes(), &mut store, &Control::default()).unwrap();
    let sys = &qs[0].system;
    let p = sys.preds[0];
    let st = store.func(p).args[0];
    let s = store.var("s0", st);
    let st_t = store.mk_var(s);
    let d = cove_logic::dt::def(st).unwrap();
    assert_eq!(&*d.ctors[0].name, "mk");
    let cnt = store.mk_sel(st_t, 0, 0);
    let mode = store.mk_sel(st_t, 0, 1);
    let one = store.mk_int(1);
    let zero = store.mk_int(0);
    // cnt <= 1 and (mode = Idle -> cnt = 0) and cnt >= 0
    let le = store.mk_le(cnt, one);
    let ge = store.mk_le(zero, cnt);
    let idle = store.mk_test(mode, 0);
    let c0 = store.mk_eq(cnt, zero);
    let imp = store.mk_implies(idle, c0);
    let good = store.mk_and(&[le, ge, imp]);
    let mut inv = Invariants::default();
    inv.define(p, vec![s], good);
    let ctl = Control::default();
    cert::check_invariants(&mut store, sys, &inv, &ctl).expect("valid invariant");
    // Without the mode conjunct the invariant is not inductive.
    let weak = store.mk_and(&[le, ge]);
    let mut bad = Invariants::default();
    bad.define(p, vec![s], weak);
    let e = cert::check_invariants(&mut store, sys, &bad, &ctl).unwrap_err();
    assert!(e.is_invalid(), "{e}");
}

#[test]
fn layout_of_records_enums_and_arrays() {
    let mut store = TermStore::new();
    let qs = parse_queries(HEAP.as_bytes(), &mut store, &Control::default()).unwrap();
    let heap = store.func(qs[0].system.preds[0]).args[0];
    let lay = adt::layout(heap).unwrap();
    // HeapSize, then the tag array and one array per field of Obj.
    let sorts: Vec<Sort> = lay.iter().map(|c| c.sort).collect();
    let ia = Sort::array(Sort::Int, Sort::Int);
    assert_eq!(sorts, vec![Sort::Int, ia, ia, ia]);
    let flat = adt::flatten_system(&mut store, &qs[0].system, &Control::default()).unwrap();
    assert!(!adt::system_mentions_dt(&store, &flat.system));
}

#[test]
fn datatype_values_print_as_constructor_terms() {
    let mut store = TermStore::new();
    let src = "(set-logic HORN)
(declare-datatype Pair ((pair (fst Int) (snd Bool))))
(declare-fun P (Pair) Bool)
(assert (forall ((x Pair)) (=> (= x (pair (- 3) true)) (P x))))
(check-sat)";
    let qs = parse_queries(src.as_bytes(), &mut store, &Control::default()).unwrap();
    let c = &qs[0].system.clauses[0];
    let printed = cove_logic::print::term_to_string(&store, c.constraint);
    assert!(printed.contains("(pair (- 3) true)"), "{printed}");
    let pair = store.var_sort(c.vars[0]);
    let v = cove_logic::Value::default_of(pair);
    assert_eq!(cove_logic::print::value_text(&v, pair), "(pair 0 false)");
}

/// Peano numbers and lists with the chain predicates of the ringen/RustHorn encodings
/// (`len` defined through `len0`) and a query over two facts of one predicate: the
/// preprocessing (datatype equalities define variables, chains are inlined) and the datatype
/// theory (eager congruence on equality atoms, selector congruence between the full members
/// of a class) give a derivation the checker accepts by evaluation.
#[test]
fn recursive_peano_lists_with_chain_predicates() {
    let src = "(set-logic HORN)
(declare-datatypes ((N 0)) (((S (p N)) (Z))))
(declare-datatypes ((L 0)) (((nil) (cons (hd N) (tl L)))))
(declare-fun len0 (L N) Bool)
(declare-fun len (L N) Bool)
(assert (forall ((l L) (n N)) (=> (and (= l nil) (= n Z)) (len0 l n))))
(assert (forall ((l L) (n N) (m L) (k N) (x N)) (=> (and (len m k) (= l (cons x m)) (= n (S k))) (len0 l n))))
(assert (forall ((l L) (n N)) (=> (len0 l n) (len l n))))
(assert (forall ((a L) (b L) (n N) (m N)) (=> (and (len a n) (len b m) (= n (S (S Z))) (= m (S n)) ((_ is cons) (tl a)) (not (= (hd a) (hd (tl a))))) false)))
(check-sat)
";
    let (r, v) = run(src);
    assert!(matches!(r, ChcResult::Unsat(_)), "{r:?}");
    assert_eq!(v, Validation::Valid);
}

/// An array of records of which a step changes one field only (the Solidity shape of
/// `mapping(k => struct)`): the invariant relates one flattened component array of the two
/// states as a whole, which translates back as a pointwise equality over the index.
const ARRAY_OF_RECORDS: &str = "(set-logic HORN)
(declare-datatypes ((Rec 0)) (((R (arr (Array Int Int)) (len Int)))))
(declare-datatypes ((St 0)) (((mkS (recs (Array Int Rec)) (n Int)))))
(declare-fun P (St St) Bool)
(assert (forall ((s St)) (P s s)))
(assert (forall ((s St) (s0 St) (t St) (k Int))
  (=> (and (P s s0)
           (= t (mkS (store (recs s) k (R (arr (select (recs s) k)) (+ (len (select (recs s) k)) 1))) (+ (n s) 1))))
      (P t s0))))
(assert (forall ((s St) (s0 St) (j Int) (i Int))
  (=> (and (P s s0) (not (= (select (arr (select (recs s) j)) i) (select (arr (select (recs s0) j)) i)))) false)))
(check-sat)
";

#[test]
fn array_of_records_related_as_a_whole_is_safe_and_certified() {
    let (r, v) = run(ARRAY_OF_RECORDS);
    let ChcResult::Sat(inv) = &r else {
        panic!("{r:?}")
    };
    assert_eq!(v, Validation::Valid);
    assert_eq!(inv.defs.len(), 1);
    // The same system with a step that also changes the arrays: a counterexample.
    let src = ARRAY_OF_RECORDS.replace(
        "(R (arr (select (recs s) k))",
        "(R (store (arr (select (recs s) k)) 0 7)",
    );
    let (r, v) = run(&src);
    assert!(matches!(r, ChcResult::Unsat(_)), "{r:?}");
    assert_eq!(v, Validation::Valid);
}

/// The checker decides pointwise equalities of arrays of records (`forall` over the index of
/// an equality of one field): exactly the flat array equality.
#[test]
fn checker_decides_pointwise_array_equalities() {
    let mut store = TermStore::new();
    let qs = parse_queries(ARRAY_OF_RECORDS.as_bytes(), &mut store, &Control::default()).unwrap();
    let sys = &qs[0].system;
    let p = sys.preds[0];
    let st = store.func(p).args[0];
    let s = store.var("s", st);
    let s0 = store.var("s0", st);
    let pointwise = |store: &mut TermStore, field: u32| {
        let i = store.var("i", Sort::Int);
        let it = store.mk_var(i);
        let mut sides = vec![];
        for v in [s, s0] {
            let vt = store.mk_var(v);
            let recs = store.mk_sel(vt, 0, 0);
            let el = store.mk_select(recs, it);
            sides.push(store.mk_sel(el, 0, field));
        }
        let eq = store.mk_eq(sides[0], sides[1]);
        store.mk_quant(true, &[i], eq)
    };
    let good = pointwise(&mut store, 0);
    let mut inv = Invariants::default();
    inv.define(p, vec![s, s0], good);
    let ctl = Control::default();
    cert::check_invariants(&mut store, sys, &inv, &ctl).expect("valid invariant");
    // The lengths change: relating them pointwise is not inductive.
    let bad = pointwise(&mut store, 1);
    let mut inv = Invariants::default();
    inv.define(p, vec![s, s0], bad);
    let e = cert::check_invariants(&mut store, sys, &inv, &ctl).unwrap_err();
    assert!(e.is_invalid(), "{e}");
}

#[test]
fn witness_over_datatypes_is_read_without_declarations() {
    // `cove check --witness` on a datatype system: the witness (as `cove solve --model` and
    // z3 print it) uses the system's sorts, constructors, selectors and testers without
    // declaring them again.
    let mut store = TermStore::new();
    let qs = parse_queries(RECORD_SAFE.as_bytes(), &mut store, &Control::default()).unwrap();
    let sys = &qs[0].system;
    let good = "sat\n(define-fun Inv ((x St)) Bool \
        (and (<= 0 (cnt x)) (<= (cnt x) 1) (=> ((_ is Idle) (mode x)) (= (cnt x) 0))))";
    let inv = cove_chc::witness::parse_invariants(good.as_bytes(), &mut store, sys)
        .expect("the witness reads");
    cert::check_invariants(&mut store, sys, &inv, &Control::default()).expect("valid");
    let bad = "(define-fun Inv ((x St)) Bool (and (<= 0 (cnt x)) (is-Idle (mode x))))";
    let inv = cove_chc::witness::parse_invariants(bad.as_bytes(), &mut store, sys)
        .expect("the witness reads");
    let e = cert::check_invariants(&mut store, sys, &inv, &Control::default()).unwrap_err();
    assert!(e.is_invalid(), "{e}");
}

/// Issue 62's five safe systems, on which engines working on the flattened system derived
/// counterexamples (or invariants) the original system does not have: the flattening
/// compared the fields of every constructor, including the junk fields of constructors
/// other than the value's own (`s = rect(w s, h s)` failed when the `circle` field of `s`
/// was not 0). Each must be `sat` with a checked model, from the portfolio and from every
/// single engine that answers.
const JUNK_FIELD_SYSTEMS: [(&str, &str); 5] = [
    (
        "flat-eta",
        "(set-logic HORN)
(declare-datatypes ((Shape 0)) (((circle (r Int)) (rect (w Int) (h Int)))))
(declare-fun p (Shape) Bool)
(assert (forall ((s Shape)) (p s)))
(assert (forall ((s Shape)) (=> (and (p s) (is-rect s) (not (= s (rect (w s) (h s))))) false)))
(check-sat)",
    ),
    (
        "testers",
        "(set-logic HORN)
(declare-datatypes ((Shape 0)) (((circle (r Int)) (rect (w Int) (h Int)) (empty))))
(declare-fun p (Shape) Bool)
(assert (forall ((s Shape)) (p s)))
(assert (forall ((s Shape)) (=> (and (p s) (or (and ((_ is circle) s) (is-rect s)) (and (not (is-circle s)) (not ((_ is rect) s)) (not (is-empty s))) (and (is-rect s) (not (= s (rect (w s) (h s))))))) false)))
(check-sat)",
    ),
    (
        "flat-eq2",
        "(set-logic HORN)
(declare-datatypes ((Shape 0)) (((circle (r Int)) (rect (w Int) (h Int)))))
(declare-fun p (Shape Shape) Bool)
(assert (forall ((s Shape) (t Shape)) (=> (and (= s (rect 1 2)) (is-rect t) (= (w t) 1) (= (h t) 2)) (p s t))))
(assert (forall ((s Shape) (t Shape)) (=> (and (p s t) (distinct s t)) false)))
(check-sat)",
    ),
    (
        "nullary-distinct",
        "(set-logic HORN)
(declare-datatypes ((Opt 0)) (((none) (some (val Int)))))
(declare-fun q (Opt Int) Bool)
(assert (forall ((o Opt) (k Int)) (=> (distinct none o) (q o k))))
(assert (forall ((o Opt) (k Int)) (=> (and (q o k) (= o none)) false)))
(check-sat)",
    ),
    (
        "eta-premise",
        "(set-logic HORN)
(declare-datatypes ((Box 0)) (((unit (u Int)) (pair (fst Int) (snd Int)) (nothing))))
(declare-fun q (Box Box Bool) Bool)
(assert (forall ((a Box) (b Box) (f Bool)) (=> (and (is-pair b) (distinct b (pair (fst b) (snd b)))) (q a b f))))
(assert (forall ((a Box) (b Box) (f Bool)) (=> (and (q a b f) (and (is-unit a) (is-pair b) (< (snd b) (u a)))) false)))
(check-sat)",
    ),
];

#[test]
fn junk_fields_of_other_constructors_do_not_make_counterexamples() {
    for (name, src) in JUNK_FIELD_SYSTEMS {
        let (r, v) = run(src);
        assert!(matches!(r, ChcResult::Sat(_)), "{name}: {r:?}");
        assert_eq!(v, Validation::Valid, "{name}");
        // No engine may answer `unsat` (a derivation that does not exist) or produce an
        // invariant its check refutes; `unknown` is allowed for a single engine.
        for engine in ["spacer", "bmc", "kind", "spacer-abs", "terms"] {
            let mut store = TermStore::new();
            let qs = parse_queries(src.as_bytes(), &mut store, &Control::default()).unwrap();
            let cfg = SolveConfig {
                engine: cove_chc::driver::EngineChoice::parse(engine).expect(engine),
                ..SolveConfig::default()
            };
            let ctl = Control::default().with_work_budget(2_000_000);
            let out = solve(&store, &qs[0], &cfg, &ctl);
            assert!(
                !matches!(out.answer, ChcResult::Unsat(_)),
                "{name} by {engine}: {:?}",
                out.answer
            );
            assert!(
                !matches!(out.validation, Validation::Failed(_)),
                "{name} by {engine}: {:?}",
                out.validation
            );
        }
    }
}

/// The checker decides datatype queries with a flattening of its own (`cert_flatten`), not
/// with the preprocessing whose answers it checks: a bug there cannot pass the check meant
/// to catch it (issue 62).
#[test]
fn checker_shares_no_code_with_the_datatype_preprocessing() {
    for (name, src) in [
        ("cert.rs", include_str!("../src/cert.rs")),
        ("cert_flatten.rs", include_str!("../src/cert_flatten.rs")),
    ] {
        let code: String = src
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect();
        assert!(
            !code.contains("preprocess"),
            "{name} uses the preprocessing"
        );
    }
}

/// Invariants and derivations that hold only under a wrong flattening are refused, and
/// invariants that hold only because other constructors' fields mean nothing are accepted.
#[test]
fn checker_refuses_what_only_a_wrong_flattening_proves() {
    let mut store = TermStore::new();
    // A selector of another constructor has an unspecified value: `(w s)` of a circle may
    // be positive, so `true` is no invariant here. A flattening that read it as the default
    // 0 would accept it.
    let src = "(set-logic HORN)
(declare-datatypes ((Shape 0)) (((circle (r Int)) (rect (w Int) (h Int)))))
(declare-fun p (Shape) Bool)
(assert (forall ((s Shape)) (p s)))
(assert (forall ((s Shape)) (=> (and (p s) (is-circle s) (> (w s) 0)) false)))
(check-sat)";
    let qs = parse_queries(src.as_bytes(), &mut store, &Control::default()).unwrap();
    let sys = &qs[0].system;
    let p = sys.preds[0];
    let x = store.fresh_var("x", store.func(p).args[0]);
    let t = store.mk_true();
    let mut inv = Invariants::default();
    inv.define(p, vec![x], t);
    assert!(cert::check_invariants(&mut store, sys, &inv, &Control::default()).is_err());

    // `s = rect(w s, h s)` for every rect, whatever a flat `circle` field holds: `true`
    // is an invariant (componentwise equality of flat tuples would leave it undecided).
    let (_, src) = JUNK_FIELD_SYSTEMS[0];
    let qs = parse_queries(src.as_bytes(), &mut store, &Control::default()).unwrap();
    let sys = &qs[0].system;
    let p = sys.preds[0];
    let x = store.fresh_var("x", store.func(p).args[0]);
    let mut inv = Invariants::default();
    inv.define(p, vec![x], t);
    cert::check_invariants(&mut store, sys, &inv, &Control::default()).expect("valid");

    // The counterexample a componentwise flattening finds there (a rect whose flat circle
    // field is not 0) is no derivation of the original system.
    let shape = store.func(p).args[0];
    let rect = Value::Dt(std::sync::Arc::new(DtValue {
        sort: shape,
        ctor: 1,
        fields: vec![Value::Num(1.into()), Value::Num(2.into())],
    }));
    let (fact, query) = if sys.clauses[0].head.is_some() {
        (0, 1)
    } else {
        (1, 0)
    };
    let step = |clause: usize, premises: Vec<usize>, head| DerivationStep {
        clause,
        head,
        premises,
        assignment: sys.clauses[clause]
            .vars
            .iter()
            .map(|&v| (v, rect.clone()))
            .collect(),
    };
    let d = Derivation {
        steps: vec![
            step(fact, vec![], Some((p, vec![rect.clone()]))),
            step(query, vec![0], None),
        ],
        root: 1,
    };
    let e = cert::check_derivation(&store, sys, &d).unwrap_err();
    assert!(e.is_invalid(), "{e}");
}

/// `cove check --witness` reads back the counterexamples `cove solve --cex` prints over
/// datatypes: constructor terms chosen by the sort (a nullary constructor named like its
/// sort, as the Solidity SMTChecker's `abi_type`, is the constructor), records inside
/// records, arrays of records, and values thousands of constructors deep.
#[test]
fn counterexamples_over_datatypes_read_back() {
    let src = "(set-logic HORN)
(declare-datatypes ((abi_type 0) (Box 0)) (((abi_type)) ((box (bv Int) (ty abi_type)))))
(declare-datatypes ((Shape 0)) (((circle (r Int)) (rect (w Int) (h Int)))))
(declare-fun p (Box Shape (Array Int Box)) Bool)
(assert (forall ((b Box) (s Shape) (a (Array Int Box)))
  (=> (and (= b (box 3 abi_type)) (= s (rect 1 2)) (= a (store ((as const (Array Int Box)) b) 1 (box 4 abi_type)))) (p b s a))))
(assert (forall ((b Box) (s Shape) (a (Array Int Box))) (=> (and (p b s a) (= (bv (select a 1)) 4) (is-rect s)) false)))
(check-sat)";
    let mut store = TermStore::new();
    let qs = parse_queries(src.as_bytes(), &mut store, &Control::default()).unwrap();
    let sys = &qs[0].system;
    let out = solve(&store, &qs[0], &SolveConfig::default(), &Control::default());
    let ChcResult::Unsat(d) = &out.answer else {
        panic!("{:?}", out.answer)
    };
    let text = cove_chc::witness::print_derivation(&out.store, sys, d);
    let back = cove_chc::witness::parse_derivation(text.as_bytes(), &out.store, sys)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    cert::check_derivation(&out.store, sys, &back).expect("the derivation read back checks");

    // A Peano value 2,000 deep reads (the reader is iterative; values themselves are still
    // dropped and compared recursively, which issue 63 is about).
    let src = "(set-logic HORN)
(declare-datatypes ((Nat 0)) (((Z) (S (pred Nat)))))
(declare-fun q (Nat) Bool)
(assert (forall ((n Nat)) (=> (= n Z) (q n))))
(assert (forall ((n Nat)) (=> (q n) false)))
(check-sat)";
    let mut store = TermStore::new();
    let qs = parse_queries(src.as_bytes(), &mut store, &Control::default()).unwrap();
    let sys = &qs[0].system;
    let deep = "(S ".repeat(2_000) + "Z" + &")".repeat(2_000);
    let text = format!(
        "(derivation (false (clause 1) (vars (n {deep})) (q {deep} (clause 0) (vars (n {deep})))))"
    );
    let back = cove_chc::witness::parse_derivation(text.as_bytes(), &store, sys).expect("reads");
    // n = Z is false of that value: read, and refused by the checker.
    let e = cert::check_derivation(&store, sys, &back).unwrap_err();
    assert!(e.is_invalid(), "{e}");
}

/// A frame condition over a datatype holding an array of datatypes comes back from the
/// flat engines as one equality per component; the back-translation gives it as the one
/// equality of the original values, with no pointwise `forall` for the checker to decide.
#[test]
fn componentwise_frame_equalities_come_back_whole() {
    let src = "(set-logic HORN)
        (declare-datatypes ((P 0)) (((mkP (pa (Array Int Int)) (pl Int)))))
        (declare-datatypes ((S 0)) (((mkS (sa (Array Int P)) (sl Int)))))
        (declare-fun inv (S S Int) Bool)
        (assert (forall ((s S)) (inv s s 0)))
        (assert (forall ((s S) (t S) (n Int)) (=> (inv s t n) (inv s t (+ n 1)))))
        (assert (forall ((s S) (t S) (n Int)) (=> (and (inv s t n) (not (= s t))) false)))
        (check-sat)";
    let mut store = TermStore::new();
    let q = parse_queries(src.as_bytes(), &mut store, &Control::default())
        .unwrap()
        .remove(0);
    let cfg = SolveConfig {
        threads: 1,
        ..SolveConfig::default()
    };
    let ctl = Control::default()
        .with_work_budget(2_000_000)
        .with_timeout(std::time::Duration::from_secs(300));
    let out = solve(&store, &q, &cfg, &ctl);
    let ChcResult::Sat(inv) = &out.answer else {
        panic!("{}: {:?}", out.engine, out.answer)
    };
    assert_eq!(out.validation, Validation::Valid);
    let st = &out.store;
    for def in inv.defs.values() {
        let text = cove_logic::print::term_to_string(st, def.body);
        assert!(!text.contains("forall"), "{text}");
    }
}
