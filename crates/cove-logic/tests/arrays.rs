//! Arrays in the logic layer: sorts (nested, Bool-valued), parsing and printing of
//! `select`/`store`/constant arrays, and evaluation with array values.

use cove_logic::print::{term_to_string, value_text};
use cove_logic::smtlib::parse_script;
use cove_logic::{ArrayValue, Model, Rational, Sort, TermId, TermStore, Value, VarId};

fn asserts(src: &str, store: &mut TermStore) -> Vec<cove_logic::TermId> {
    parse_script(src.as_bytes(), store)
        .unwrap_or_else(|e| panic!("{e}"))
        .assertions()
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

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// A random `(Array Int (Array Int Int))` term over `m`, with writes, `ite`s and constants.
fn nested_array(
    s: &mut TermStore,
    r: &mut Rng,
    m: cove_logic::TermId,
    idx: &[cove_logic::TermId],
    depth: u32,
) -> cove_logic::TermId {
    let ai = Sort::array(Sort::Int, Sort::Int);
    let mut a = m;
    for _ in 0..depth {
        let i = idx[r.below(idx.len() as u64) as usize];
        let j = idx[r.below(idx.len() as u64) as usize];
        let v = idx[r.below(idx.len() as u64) as usize];
        a = match r.below(4) {
            0 => {
                let inner = s.mk_select(a, i);
                let w = s.mk_store(inner, j, v);
                s.mk_store(a, i, w)
            }
            1 => {
                let k = s.mk_const_array(ai, v);
                s.mk_store(a, i, k)
            }
            2 => {
                let c = s.mk_le(i, j);
                let row = s.mk_select(a, v);
                let other = s.mk_store(m, j, row);
                s.mk_ite(c, a, other)
            }
            _ => {
                let inner = s.mk_select(m, j);
                s.mk_store(a, i, inner)
            }
        };
    }
    a
}

/// A store with `m : Int → (Int → Int)` and three index variables `i0..i2`: the variables,
/// and the index terms (the variables, then `0` and `1`) that random nested arrays use.
fn nested_setup() -> (TermStore, VarId, Vec<VarId>, Vec<TermId>) {
    let mut s = TermStore::new();
    let ai = Sort::array(Sort::Int, Sort::Int);
    let mv = s.var("m", Sort::array(Sort::Int, ai));
    let vars: Vec<_> = (0..3).map(|k| s.var(&format!("i{k}"), Sort::Int)).collect();
    let mut idx: Vec<_> = vars.iter().map(|&v| s.mk_var(v)).collect();
    idx.push(s.mk_int(0));
    idx.push(s.mk_int(1));
    (s, mv, vars, idx)
}

/// `t` and `e` evaluate alike under 8 random models of `m` and the index variables.
fn same_under_random_models(
    s: &TermStore,
    r: &mut Rng,
    mv: VarId,
    vars: &[VarId],
    t: TermId,
    e: TermId,
    round: usize,
) {
    for _ in 0..8 {
        let int = |n: u64| Value::Num(Rational::int(n as i64));
        let mut model = Model::new();
        for &v in vars {
            model.set(v, int(r.below(3)));
        }
        let mut outer = ArrayValue::constant(Value::Array(Box::new(ArrayValue::constant(int(
            r.below(3)
        )))));
        for k in 0..3 {
            let row = ArrayValue::constant(int(r.below(3))).write(int(r.below(3)), int(5));
            outer = outer.write(int(k), Value::Array(Box::new(row)));
        }
        model.set(mv, Value::Array(Box::new(outer)));
        assert_eq!(
            model.eval(s, t).unwrap(),
            model.eval(s, e).unwrap(),
            "round {round}: {} vs {}",
            term_to_string(s, t),
            term_to_string(s, e)
        );
    }
}

#[test]
fn read_over_write_expansion_keeps_values_and_leaves_no_read_of_a_write() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..200 {
        let (mut s, mv, vars, idx) = nested_setup();
        let m = s.mk_var(mv);
        let depth = 1 + r.below(6) as u32;
        let a = nested_array(&mut s, &mut r, m, &idx, depth);
        let (p, q) = (idx[r.below(5) as usize], idx[r.below(5) as usize]);
        let row = s.mk_select(a, p);
        let read = s.mk_select(row, q);
        let t = s.mk_eq(read, idx[r.below(5) as usize]);
        let e = cove_logic::array_reads::expand_reads(&mut s, t, 1_000_000).expect("in budget");
        // No read of a write, an `ite` or a constant is left.
        let mut stack = vec![e];
        while let Some(u) = stack.pop() {
            if matches!(s.op(u), cove_logic::Op::Select) {
                let arr = s.args(u)[0];
                assert!(
                    !matches!(
                        s.op(arr),
                        cove_logic::Op::Store | cove_logic::Op::Ite | cove_logic::Op::ConstArray
                    ),
                    "round {round}: {}",
                    term_to_string(&s, u)
                );
            }
            stack.extend_from_slice(s.args(u));
        }
        // Same value under random models.
        same_under_random_models(&s, &mut r, mv, &vars, t, e, round);
    }
}

#[test]
fn expansion_folds_repeated_writes_and_tests() {
    let mut s = TermStore::new();
    let ai = Sort::array(Sort::Int, Sort::Int);
    let a = s.var("a", ai);
    let a = s.mk_var(a);
    let i = s.var("i", Sort::Int);
    let i = s.mk_var(i);
    let (one, two) = (s.mk_int(1), s.mk_int(2));
    let w1 = s.mk_store(a, i, one);
    let w2 = s.mk_store(w1, i, two);
    let b = s.var("b", ai);
    let b = s.mk_var(b);
    let same = s.mk_eq(w2, b);
    let e = cove_logic::array_reads::expand_reads(&mut s, same, 1000).unwrap();
    assert_eq!(term_to_string(&s, e), "(= (store a i 2) b)");
    let c = s.mk_le(i, one);
    let inner = s.mk_ite(c, one, i);
    let outer = s.mk_ite(c, two, inner);
    let e = cove_logic::array_reads::expand_reads(&mut s, outer, 1000).unwrap();
    assert_eq!(term_to_string(&s, e), "(ite (<= i 1) 2 i)");
}

#[test]
fn write_folding_drops_hidden_writes_at_constant_indices_only() {
    let mut s = TermStore::new();
    let ai = Sort::array(Sort::Int, Sort::Int);
    let a = s.var("a", ai);
    let a = s.mk_var(a);
    let i = s.var("i", Sort::Int);
    let i = s.mk_var(i);
    let (zero, one, two) = (s.mk_int(0), s.mk_int(1), s.mk_int(2));
    let w1 = s.mk_store(a, zero, one);
    let w2 = s.mk_store(w1, zero, two);
    let b = s.var("b", ai);
    let b = s.mk_var(b);
    let same = s.mk_eq(w2, b);
    let f = cove_logic::array_reads::fold_writes(&mut s, same);
    assert_eq!(term_to_string(&s, f), "(= (store a 0 2) b)");
    // At a symbolic index the chain stays as written.
    let v1 = s.mk_store(a, i, one);
    let v2 = s.mk_store(v1, i, two);
    let same = s.mk_eq(v2, b);
    let f = cove_logic::array_reads::fold_writes(&mut s, same);
    assert_eq!(f, same);
    // Random nested writes keep their value.
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    for round in 0..200 {
        let (mut s, mv, vars, idx) = nested_setup();
        let m = s.mk_var(mv);
        let depth = 1 + r.below(6) as u32;
        let x = nested_array(&mut s, &mut r, m, &idx, depth);
        let y = nested_array(&mut s, &mut r, m, &idx, depth);
        let t = s.mk_eq(x, y);
        let f = cove_logic::array_reads::fold_writes(&mut s, t);
        same_under_random_models(&s, &mut r, mv, &vars, t, f, round);
    }
}
