//! The array theory in script mode: small QF_ALIA scripts with answers confirmed by z3
//! (read-over-write, extensionality, constant arrays, nested and Bool-valued arrays), and
//! models that satisfy the assertions.

use cove_smt::run_script;

fn run(path: &str) -> String {
    let src = std::fs::read(format!(
        "{}/tests/data/arrays/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("test file");
    let mut out = Vec::new();
    let code = run_script(&src, &mut out).expect("io");
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&out));
    String::from_utf8(out).expect("utf8")
}

#[test]
fn read_over_write_and_extensionality() {
    assert_eq!(run("row_unsat.smt2").trim(), "unsat");
    assert_eq!(run("ext_unsat.smt2").trim(), "unsat");
    assert_eq!(run("nested_bool_unsat.smt2").trim(), "unsat");
    // Extensionality over a finite index sort: listing every index is the whole array.
    assert_eq!(run("finite_index_ext_unsat.smt2").trim(), "unsat");
}

/// Arrays indexed by arrays (Solidity's `bytes`-keyed mappings): index arrays are valued
/// before the arrays they index, so reads at them are checked like any other read.
#[test]
fn arrays_indexed_by_arrays() {
    assert_eq!(run("array_index_unsat.smt2").trim(), "unsat\nunsat");
    let out = run("array_index_sat.smt2");
    assert!(out.starts_with("sat"), "{out}");
    assert!(
        out.contains("(define-fun m () (Array (Array Int Int) Int)"),
        "{out}"
    );
}

#[test]
fn satisfiable_scripts_have_array_models() {
    let out = run("row_sat.smt2");
    assert!(out.starts_with("sat"), "{out}");
    let out = run("const_sat.smt2");
    assert!(out.starts_with("sat"), "{out}");
    assert!(
        out.contains("(b (store ((as const (Array Int Int)) 0) 3 7))"),
        "{out}"
    );
}

/// A read carried through a long chain of copies `a0 = a1 = … = an` (as in the queries of
/// a CHC engine over an unrolling, where a state array is passed through every clause)
/// and through writes at other indices is decided in a few array rounds, not one per link.
#[test]
fn reads_cross_chains_of_equalities_in_few_rounds() {
    use cove_logic::{Sort, TermStore};
    use cove_smt::{SmtResult, SmtSolver};
    let n = 60;
    let mut store = TermStore::new();
    let arr = Sort::array(Sort::Int, Sort::Int);
    let arrays: Vec<_> = (0..=n)
        .map(|k| {
            let v = store.var(&format!("a{k}"), arr);
            store.mk_var(v)
        })
        .collect();
    let iv = store.var("i", Sort::Int);
    let i = store.mk_var(iv);
    let mut s = SmtSolver::new();
    for k in 0..n {
        // Every third link is a write at an index other than i, the others plain copies.
        let next = if k % 3 == 2 {
            let j = store.mk_int(1000 + k as i64);
            let ne = store.mk_eq(i, j);
            let ne = store.mk_not(ne);
            s.assert(&mut store, ne);
            let w = store.mk_int(k as i64);
            store.mk_store(arrays[k], j, w)
        } else {
            arrays[k]
        };
        let eq = store.mk_eq(arrays[k + 1], next);
        s.assert(&mut store, eq);
    }
    let first = store.mk_select(arrays[0], i);
    let five = store.mk_int(5);
    let e = store.mk_eq(first, five);
    s.assert(&mut store, e);
    s.push();
    let last = store.mk_select(arrays[n], i);
    let e = store.mk_eq(last, five);
    let ne = store.mk_not(e);
    s.assert(&mut store, ne);
    assert_eq!(s.check(&mut store), SmtResult::Unsat);
    let rounds = s.stats().array_rounds;
    assert!(rounds <= 6, "{rounds} array rounds for a chain of {n}");
    s.pop(1);
    let six = store.mk_int(6);
    let e = store.mk_eq(last, six);
    let ne = store.mk_not(e);
    s.assert(&mut store, ne);
    assert_eq!(s.check(&mut store), SmtResult::Sat);
}
