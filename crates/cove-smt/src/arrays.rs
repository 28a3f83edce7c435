//! The theory of arrays (select, store, constant arrays, extensionality), decided lazily
//! on top of the arithmetic CDCL(T) loop.
//!
//! # Why lazy and model-based
//! An eager reduction (every array term read at every index of the formula, plus
//! congruence between all index pairs) is quadratic in the index set and made the queries
//! of a CHC engine, which are many and small but share large array terms, far slower than
//! the arithmetic. Instead, as in z3's array solver, the search treats `select` terms as
//! uninterpreted values (a simplex variable or a SAT literal) and array equalities as free
//! atoms; each `Sat` candidate is then checked against the array axioms:
//!
//! 1. Values of the array terms are computed from the candidate, innermost sorts first:
//!    opaque arrays (variables, array-valued reads) take the values read from them, and a
//!    default shared by everything the candidate makes equal (a union-find over `store`,
//!    the chosen `ite` branch and true equalities; a constant array fixes it); `store`,
//!    `ite` and constant arrays take the value their meaning gives.
//! 2. Every read and every true/false equality is compared with these values; each
//!    mismatch adds one instance of an axiom that the candidate violates:
//!    read-over-write (`i = j ∨ a[j:=v][i] = a[i]`, `i ≠ j ∨ a[j:=v][i] = v`), constant
//!    arrays, `ite`, congruence of reads (`i ≠ i' ∨ a[i] = a[i']`) and equality
//!    (`a ≠ b ∨ a[i] = b[i]`). Before that comparison, reads are carried along every edge
//!    the candidate makes equal at an index (true equalities, writes at other indices,
//!    chosen `ite` branches) in one closure per round, so that a read crosses a long chain
//!    of copies in one search instead of one search per link. A false equality whose arrays
//!    get equal values gets (once) a fresh index `k` with `a[k] = b[k] → a = b`
//!    (extensionality); while the equality is true its witness reads are ignored.
//!
//! Lemmas are valid in the theory of arrays, so they are added as permanent clauses
//! (they survive `pop` like the definitional clauses of the encoding) and `Unsat` stays
//! sound. Each is guarded by the scope of the terms it was derived from, and the check
//! only looks at terms whose scope is on (see [`crate::array_scope`]). Instances range over finitely many terms (subterms of the formula's arrays read
//! at its indices), so the loop terminates. `Sat` is reported only when the model, with
//! the computed array values for the array variables, evaluates every active assertion to
//! true; otherwise the answer is `unknown`.

use crate::array_scope::{LemmaScope, Scope};
use crate::solver::SmtSolver;
use cove_logic::{ArrayValue, Op, Sort, TermId, TermStore, Value, linearize};
use cove_sat::LBool;
use rustc_hash::{FxHashMap, FxHashSet};

/// Array bookkeeping of the encoding.
#[derive(Default)]
pub(crate) struct ArrayState {
    /// Encoded reads, in encoding order.
    pub selects: Vec<TermId>,
    /// The set of `selects`.
    pub select_set: FxHashSet<TermId>,
    /// Encoded equalities between arrays, in encoding order.
    pub eqs: Vec<TermId>,
    /// Every array term met below a read or an equality.
    pub arrays: FxHashSet<TermId>,
    /// Lemmas already added (terms) with the scope they were added under, so that no
    /// instance is added twice (see [`crate::array_scope`]).
    pub lemmas: FxHashMap<TermId, Scope>,
    /// Per array term: the guard literals of its uses (see [`crate::array_scope`]).
    pub scope: FxHashMap<TermId, Scope>,
    /// Array values of the last consistent candidate (for the model).
    pub values: FxHashMap<TermId, Value>,
    /// Lemmas waiting to be added before the next search.
    pub pending: Vec<(TermId, LemmaScope)>,
    /// Per array equality: its extensionality witness reads `(a[k], b[k])`, created the
    /// first time a candidate makes the equality false while the arrays' values agree.
    pub witness: FxHashMap<TermId, (TermId, TermId)>,
    /// Witness read -> its equality (such a read only matters while the equality is false).
    pub witness_reads: FxHashMap<TermId, TermId>,
}

impl ArrayState {
    /// Whether the encoding has met any array reasoning.
    pub fn active(&self) -> bool {
        !self.selects.is_empty() || !self.eqs.is_empty()
    }
}

/// What one round of the array check ([`SmtSolver::array_lemmas`]) knows about the
/// candidate, built up step by step.
#[derive(Default)]
struct ArrayRound {
    /// Union-find over "same default" (see [`SmtSolver::default_classes`]).
    parent: FxHashMap<TermId, TermId>,
    /// Reads grouped by array: (index term, index value, read term).
    reads: FxHashMap<TermId, Vec<(TermId, Value, TermId)>>,
    /// Reads at array indices, waiting until the index arrays have values.
    deferred: FxHashMap<TermId, Vec<(TermId, TermId)>>,
    /// Candidate values of reads, computed values of arrays.
    vals: FxHashMap<TermId, Value>,
    /// The default value of each class, by its root.
    class_default: FxHashMap<TermId, Value>,
    /// Violated axiom instances found so far.
    out: Vec<TermId>,
}

/// The root of `x`'s class in the union-find `p` (with path compression).
fn find(p: &mut FxHashMap<TermId, TermId>, x: TermId) -> TermId {
    let mut r = x;
    while let Some(&q) = p.get(&r) {
        if q == r {
            break;
        }
        r = q;
    }
    let mut y = x;
    while y != r {
        let n = p[&y];
        p.insert(y, r);
        y = n;
    }
    r
}

/// Unites the classes of `a` and `b` in the union-find `p`.
fn union(p: &mut FxHashMap<TermId, TermId>, a: TermId, b: TermId) {
    let (ra, rb) = (find(p, a), find(p, b));
    if ra != rb {
        p.insert(ra, rb);
    }
}

/// The sort nesting depth: arrays are valued after their elements and after their indices
/// (an array indexed by arrays, as Solidity's `bytes`-keyed mappings are, is read at the
/// values of its index arrays).
fn depth(s: Sort) -> u32 {
    match s.array_parts() {
        Some((i, e)) => 1 + depth(i).max(depth(e)),
        None => 0,
    }
}

impl SmtSolver {
    /// Registers the array term `a` and everything below it: indices, stored values,
    /// `ite` conditions and constants get encoded now, so that every candidate model
    /// gives them values.
    pub(crate) fn register_array(&mut self, store: &mut TermStore, a: TermId) {
        let mut stack = vec![a];
        while let Some(t) = stack.pop() {
            if !self.arr.arrays.insert(t) {
                continue;
            }
            let args = store.args(t).to_vec();
            match store.op(t) {
                Op::Store => {
                    self.register_value(store, args[1]);
                    self.register_value(store, args[2]);
                    stack.push(args[0]);
                }
                Op::ConstArray => self.register_value(store, args[0]),
                Op::Ite => {
                    self.lit_of(store, args[0]);
                    stack.push(args[1]);
                    stack.push(args[2]);
                }
                Op::Select => {
                    self.register_value(store, args[1]);
                    stack.push(args[0]);
                    if self.arr.select_set.insert(t) {
                        self.arr.selects.push(t);
                        self.queue_read_lemmas(store, t);
                    }
                }
                _ => {}
            }
        }
    }

    /// Registers the read `sel` (of any element sort) with its array and index.
    pub(crate) fn register_read(&mut self, store: &mut TermStore, sel: TermId) {
        if store.sort(sel).is_array() {
            return self.register_array(store, sel);
        }
        let (a, i) = (store.args(sel)[0], store.args(sel)[1]);
        if !self.arr.select_set.insert(sel) {
            return;
        }
        self.arr.selects.push(sel);
        self.register_value(store, i);
        self.register_array(store, a);
        self.queue_read_lemmas(store, sel);
    }

    /// Reads of writes, constants and `ite` are expanded eagerly (one lemma pair per read,
    /// linear in the depth of the store chain): leaving them to the model check cost one
    /// search per link of a chain on unrollings.
    fn queue_read_lemmas(&mut self, store: &mut TermStore, sel: TermId) {
        let (a, i) = (store.args(sel)[0], store.args(sel)[1]);
        let es = store.sort(sel);
        let args = store.args(a).to_vec();
        match store.op(a) {
            Op::Store => {
                let (b, j, w) = (args[0], args[1], args[2]);
                let eq_ij = store.mk_eq(i, j);
                let hit = mk_val_eq(store, sel, w);
                let ne = store.mk_not(eq_ij);
                let l1 = store.mk_or(&[ne, hit]);
                let rb = store.mk_raw(Op::Select, &[b, i], es);
                let miss = mk_val_eq(store, sel, rb);
                let l2 = store.mk_or(&[eq_ij, miss]);
                self.arr.pending.push((l1, LemmaScope::Of(sel)));
                self.arr.pending.push((l2, LemmaScope::Of(sel)));
            }
            Op::ConstArray => {
                let l = mk_val_eq(store, sel, args[0]);
                self.arr.pending.push((l, LemmaScope::Of(sel)));
            }
            Op::Ite => {
                let c = args[0];
                for (br, then) in [(args[1], true), (args[2], false)] {
                    let r = store.mk_raw(Op::Select, &[br, i], es);
                    let e = mk_val_eq(store, sel, r);
                    let g = if then { store.mk_not(c) } else { c };
                    let l = store.mk_or(&[g, e]);
                    self.arr.pending.push((l, LemmaScope::Of(sel)));
                }
            }
            _ => {}
        }
    }

    /// Registers the equality `e` between arrays; its witness lemmas are queued.
    pub(crate) fn register_eq(&mut self, store: &mut TermStore, e: TermId) {
        let (a, b) = (store.args(e)[0], store.args(e)[1]);
        self.arr.eqs.push(e);
        self.register_array(store, a);
        self.register_array(store, b);
    }

    /// A read that some lemma other than its witness lemma mentions is an ordinary read
    /// from then on (the witness index can be any value that another lemma reaches, and
    /// a read whose value a lemma constrains must be part of the array's value).
    fn claim(&mut self, sel: TermId) {
        self.arr.witness_reads.remove(&sel);
    }

    /// Whether the read `sel` is an extensionality witness whose equality the candidate
    /// does not make false: its value is then irrelevant (the witness lemma is satisfied by
    /// the equality) and must not be carried to other arrays.
    fn idle_witness(&self, store: &TermStore, sel: TermId) -> bool {
        match self.arr.witness_reads.get(&sel) {
            Some(&e) => self.cand_value(store, e) != Some(Value::Bool(false)),
            None => false,
        }
    }

    /// Encodes a non-array value term (or registers an array one).
    fn register_value(&mut self, store: &mut TermStore, t: TermId) {
        match store.sort(t) {
            Sort::Bool => {
                self.lit_of(store, t);
            }
            Sort::Array(_) => self.register_array(store, t),
            Sort::BitVec(_) => {
                self.bv_word(store, t);
            }
            _ => {
                self.arith_lin(store, t);
            }
        }
    }

    /// The candidate's value of a registered non-array term.
    pub(crate) fn cand_value(&self, store: &TermStore, t: TermId) -> Option<Value> {
        match store.sort(t) {
            Sort::Bool => {
                if let Some(b) = store.as_bool(t) {
                    return Some(Value::Bool(b));
                }
                let l = *self.enc.lits.get(&t)?;
                match self.sat.value(l) {
                    LBool::True => Some(Value::Bool(true)),
                    LBool::False => Some(Value::Bool(false)),
                    LBool::Undef => None,
                }
            }
            // The array check stores the values of a consistent candidate's arrays before
            // the datatype check asks for the fields of its values (an array field read at
            // an index: `(select (data (msg tx)) 3)`, which a default would contradict).
            Sort::Array(_) => self.arr.values.get(&t).cloned(),
            Sort::BitVec(_) => self.bv_cand_value(t),
            _ => {
                let vals = self.th.model.as_deref()?;
                // Reads and variables are theory variables themselves: skip `linearize`
                // (it allocates, and the array check asks for every read's value per round).
                if let Some(v) = self.enc.tvars.get(&t) {
                    return Some(Value::Num(vals.get(v.idx())?.clone()));
                }
                let sum = linearize(store, t);
                let mut x = sum.constant.clone();
                for (a, k) in &sum.terms {
                    let v = self.enc.tvars.get(a)?;
                    x += &(&vals.get(v.idx())?.clone() * k);
                }
                Some(Value::Num(x))
            }
        }
    }

    /// One round of the array check on the current candidate: returns the violated axiom
    /// instances (Bool terms) to add; empty when the candidate is array-consistent (then
    /// the array values are stored for the model).
    ///
    /// The steps: group the arrays into classes that share a default
    /// ([`Self::default_classes`]), collect the candidate's reads ([`Self::collect_reads`]),
    /// compute every array's value bottom-up, finding read-over-read conflicts on opaque
    /// arrays ([`Self::array_values`]), carry reads along equalities, writes and branches
    /// ([`Self::closure_lemmas`]), then compare reads ([`Self::read_lemmas`]) and equalities
    /// ([`Self::equality_lemmas`]) against the computed values.
    pub(crate) fn array_lemmas(&mut self, store: &mut TermStore) -> Vec<(TermId, LemmaScope)> {
        let mut arrays: Vec<TermId> = self.arr.arrays.iter().copied().collect();
        arrays.sort_by_key(|&a| (depth(store.sort(a)), a));
        let mut round = ArrayRound::default();
        self.default_classes(store, &arrays, &mut round);
        self.collect_reads(store, &arrays, &mut round);
        self.array_values(store, &arrays, &mut round);
        // Reads carried along the candidate's equalities, writes and chosen branches.
        let closure = self.closure_lemmas(store, &mut round.parent, &round.class_default);
        round.out.extend(closure);
        self.read_lemmas(store, &mut round);
        self.equality_lemmas(store, &mut round);
        let ArrayRound { mut out, vals, .. } = round;
        out.retain(|&l| store.as_bool(l) != Some(true));
        out.sort();
        out.dedup();
        let out: Vec<(TermId, LemmaScope)> = out
            .into_iter()
            .filter_map(|l| {
                let scope = self.lemma_scope(store, l);
                self.lemma_needed(l, &scope)
                    .then_some((l, LemmaScope::Fixed(scope)))
            })
            .collect();
        if out.is_empty() {
            self.arr.values = vals;
        }
        out
    }

    /// Unites arrays that share a default value in the candidate: a write with the array it
    /// writes to, an `ite` with its chosen branch, the two sides of a true equality.
    fn default_classes(&self, store: &TermStore, arrays: &[TermId], round: &mut ArrayRound) {
        let parent = &mut round.parent;
        for &a in arrays {
            parent.entry(a).or_insert(a);
            let args = store.args(a);
            match store.op(a) {
                Op::Store => union(parent, a, args[0]),
                Op::Ite => {
                    if let Some(Value::Bool(c)) = self.cand_value(store, args[0]) {
                        union(parent, a, if c { args[1] } else { args[2] });
                    }
                }
                _ => {}
            }
        }
        for &e in &self.arr.eqs {
            if !self.relevant(e) {
                continue;
            }
            if let Some(Value::Bool(true)) = self.cand_value(store, e) {
                let (a, b) = (store.args(e)[0], store.args(e)[1]);
                parent.entry(a).or_insert(a);
                parent.entry(b).or_insert(b);
                union(parent, a, b);
            }
        }
    }

    /// The candidate's relevant reads, grouped by array (reads at array indices deferred
    /// until the index arrays have values), their values, and the defaults that constant
    /// arrays fix for their classes.
    fn collect_reads(&self, store: &TermStore, arrays: &[TermId], round: &mut ArrayRound) {
        for &sel in &self.arr.selects {
            let (a, i) = (store.args(sel)[0], store.args(sel)[1]);
            if self.idle_witness(store, sel) || !self.relevant(sel) {
                continue;
            }
            let iv = if store.sort(i).is_array() {
                None
            } else {
                let Some(iv) = self.cand_value(store, i) else {
                    continue;
                };
                Some(iv)
            };
            if !store.sort(sel).is_array() {
                let Some(v) = self.cand_value(store, sel) else {
                    continue;
                };
                round.vals.insert(sel, v);
            }
            match iv {
                Some(iv) => round.reads.entry(a).or_default().push((i, iv, sel)),
                None => round.deferred.entry(a).or_default().push((i, sel)),
            }
        }
        // Constant arrays fix the default of their class.
        for &a in arrays {
            if store.op(a) == &Op::ConstArray
                && !store.sort(a).elem_sort().expect("array").is_array()
                && let Some(v) = self.cand_value(store, store.args(a)[0])
            {
                let root = find(&mut round.parent, a);
                round.class_default.entry(root).or_insert(v);
            }
        }
    }

    /// Every array's value, bottom-up (`arrays` is in `depth` order): constant arrays and
    /// writes from their parts, an `ite` from its chosen branch, an opaque array from the
    /// values read from it over its class default. Two reads of an opaque array at equal
    /// index values with different values violate congruence: `i ≠ i2 ∨ a[i] = a[i2]`.
    fn array_values(&self, store: &mut TermStore, arrays: &[TermId], round: &mut ArrayRound) {
        for &a in arrays {
            let sort = store.sort(a);
            let es = sort.elem_sort().expect("array");
            let args = store.args(a).to_vec();
            let root = find(&mut round.parent, a);
            for &(i, sel) in round.deferred.get(&a).map_or(&[][..], |v| v.as_slice()) {
                if let Some(iv) = round.vals.get(&i).cloned() {
                    round.reads.entry(a).or_default().push((i, iv, sel));
                }
            }
            let vals = &round.vals;
            let value: Option<ArrayValue> = match store.op(a) {
                Op::ConstArray => self.elem_value(store, vals, args[0]).map(|v| {
                    round.class_default.entry(root).or_insert(v.clone());
                    let mut x = ArrayValue::constant(v);
                    x.normalize();
                    x
                }),
                Op::Store => {
                    let base = vals.get(&args[0]).and_then(|v| v.as_array()).cloned();
                    let j = self.index_value(store, vals, args[1]);
                    let v = self.elem_value(store, vals, args[2]);
                    match (base, j, v) {
                        (Some(b), Some(j), Some(v)) => Some(b.write(j, v)),
                        _ => None,
                    }
                }
                Op::Ite => match self.cand_value(store, args[0]) {
                    Some(Value::Bool(c)) => vals
                        .get(&args[if c { 1 } else { 2 }])
                        .and_then(|v| v.as_array())
                        .cloned(),
                    _ => None,
                },
                _ => {
                    // Opaque: the values read from it over the class default.
                    let d = round
                        .class_default
                        .entry(root)
                        .or_insert_with(|| Value::default_of(es))
                        .clone();
                    let mut x = ArrayValue::constant(d);
                    let mut seen: FxHashMap<Value, (TermId, TermId, Value)> = FxHashMap::default();
                    for (i, iv, sel) in round.reads.get(&a).cloned().unwrap_or_default() {
                        let Some(v) = self.elem_value(store, &round.vals, sel) else {
                            continue;
                        };
                        match seen.get(&iv) {
                            Some((i2, sel2, v2)) => {
                                if *v2 != v {
                                    // Congruence: i = i2 → a[i] = a[i2].
                                    let ne = store.mk_eq(i, *i2);
                                    let ne = store.mk_not(ne);
                                    let eq = mk_val_eq(store, sel, *sel2);
                                    round.out.push(store.mk_or(&[ne, eq]));
                                }
                            }
                            None => {
                                seen.insert(iv.clone(), (i, sel, v.clone()));
                                x = x.write(iv, v);
                            }
                        }
                    }
                    Some(x)
                }
            };
            if let Some(v) = value {
                round.vals.insert(a, Value::Array(Box::new(v)));
            }
            // Array-valued reads of a nested array are values too.
        }
    }

    /// Reads of writes, constant arrays and `ite`s whose candidate value differs from the
    /// computed value of the array at the index: the violated read-over-write, constant or
    /// branch axiom instance.
    fn read_lemmas(&mut self, store: &mut TermStore, round: &mut ArrayRound) {
        let vals = &round.vals;
        let out = &mut round.out;
        for &sel in &self.arr.selects.clone() {
            let (a, i) = (store.args(sel)[0], store.args(sel)[1]);
            if !matches!(store.op(a), Op::Store | Op::ConstArray | Op::Ite)
                || self.idle_witness(store, sel)
                || !self.relevant(sel)
            {
                continue;
            }
            let (Some(iv), Some(v)) = (self.index_value(store, vals, i), vals.get(&sel).cloned())
            else {
                continue;
            };
            let Some(av) = vals.get(&a).and_then(|x| x.as_array()) else {
                continue;
            };
            if *av.read(&iv) == v {
                continue;
            }
            let args = store.args(a).to_vec();
            match store.op(a) {
                Op::Store => {
                    let (b, j, w) = (args[0], args[1], args[2]);
                    let jv = self.index_value(store, vals, j);
                    let eq_ij = store.mk_eq(i, j);
                    if jv.as_ref() == Some(&iv) {
                        let ne = store.mk_not(eq_ij);
                        let e = mk_val_eq(store, sel, w);
                        out.push(store.mk_or(&[ne, e]));
                    } else {
                        let rb = store.mk_select(b, i);
                        let rb = if store.op(rb) == &Op::Select {
                            rb
                        } else {
                            store.mk_raw(Op::Select, &[b, i], store.sort(sel))
                        };
                        self.claim(rb);
                        let e = mk_val_eq(store, sel, rb);
                        out.push(store.mk_or(&[eq_ij, e]));
                    }
                }
                Op::ConstArray => out.push(mk_val_eq(store, sel, args[0])),
                Op::Ite => {
                    let c = args[0];
                    for (br, guard) in [(args[1], true), (args[2], false)] {
                        let r = store.mk_raw(Op::Select, &[br, i], store.sort(sel));
                        self.claim(r);
                        let e = mk_val_eq(store, sel, r);
                        let g = if guard { store.mk_not(c) } else { c };
                        out.push(store.mk_or(&[g, e]));
                    }
                }
                _ => {}
            }
        }
    }

    /// Array equalities whose candidate truth value disagrees with the computed values: a
    /// true one between different values gets `¬e ∨ a[t] = b[t]` at (up to 32) indices where
    /// they differ; a false one gets its extensionality witness (once per equality).
    fn equality_lemmas(&mut self, store: &mut TermStore, round: &mut ArrayRound) {
        let vals = &round.vals;
        let out = &mut round.out;
        for &e in &self.arr.eqs.clone() {
            if !self.relevant(e) {
                continue;
            }
            let Some(Value::Bool(holds)) = self.cand_value(store, e) else {
                continue;
            };
            let (a, b) = (store.args(e)[0], store.args(e)[1]);
            let (Some(va), Some(vb)) = (
                vals.get(&a).and_then(|x| x.as_array()),
                vals.get(&b).and_then(|x| x.as_array()),
            ) else {
                if !holds && !self.arr.witness.contains_key(&e) {
                    out.push(self.array_eq_witness(store, e));
                }
                continue;
            };
            if va.same(vb) == holds {
                continue;
            }
            if holds {
                // Find an index where they differ, and an index term with that value.
                let mut keys: Vec<Value> = va
                    .entries
                    .iter()
                    .chain(vb.entries.iter())
                    .map(|(k, _)| k.clone())
                    .collect();
                // A Boolean index has two values, and a normalized value keeps the more
                // frequent one as its default: `{true↦42, false↦2}` is stored as default 42
                // with one entry, so the difference may sit at an index no entry names.
                let bool_index = store.sort(a).index_sort() == Some(Sort::Bool);
                if bool_index && va.default != vb.default {
                    keys.extend([Value::Bool(false), Value::Bool(true)]);
                }
                let mut diff: Vec<Value> = Vec::new();
                for k in keys {
                    if !va.read(&k).same(vb.read(&k)) && !diff.contains(&k) {
                        diff.push(k);
                    }
                }
                for k in diff.into_iter().take(32) {
                    let t = match (self.index_term_with_value(store, vals, &k), &k) {
                        (Some(t), _) => Some(t),
                        (None, Value::Bool(b)) => Some(store.mk_bool(*b)),
                        (None, _) => None,
                    };
                    if let Some(t) = t {
                        let ra = store.mk_raw(Op::Select, &[a, t], va_sort_elem(store, a));
                        let rb = store.mk_raw(Op::Select, &[b, t], va_sort_elem(store, a));
                        self.claim(ra);
                        self.claim(rb);
                        let eq = mk_val_eq(store, ra, rb);
                        let ne = store.mk_not(e);
                        out.push(store.mk_or(&[ne, eq]));
                    }
                }
            }
            // A false equality with equal values: extensionality, `e ∨ a[k] ≠ b[k]` for a
            // fresh index `k` (once per equality; the reads then tell the arrays apart).
            if !holds && !self.arr.witness.contains_key(&e) {
                out.push(self.array_eq_witness(store, e));
            }
        }
    }

    /// Reads propagated in one round along the edges that the candidate makes equal at an
    /// index: a true array equality `a = b` (every index), a write `s = b[j:=w]` (every index
    /// whose value differs from `j`'s) and the chosen branch of an `ite`. Each step adds the
    /// axiom instance that ties the read of one end to the read of the other
    /// (`a ≠ b ∨ a[i] = b[i]`, `i = j ∨ s[i] = b[i]`, `¬c ∨ t[i] = x[i]`).
    ///
    /// # Why
    /// Comparing computed values finds a mismatch only between neighbours: a read of `a1`
    /// crossing a chain `a1 = a2 = … = an` of equalities (the copies of a state array through
    /// the clauses of an unrolling or a Spacer query) reached one more array per search, and
    /// each search on a large query costs tens of milliseconds. The closure crosses the whole
    /// chain at once. Reads whose value is the class default need no instance (every array
    /// of the class reads the default there unless a read says otherwise), and reads with
    /// array indices or array values are left to the value comparison.
    fn closure_lemmas(
        &mut self,
        store: &mut TermStore,
        parent: &mut FxHashMap<TermId, TermId>,
        class_default: &FxHashMap<TermId, Value>,
    ) -> Vec<TermId> {
        /// Upper bound on the instances added per round (the loop runs again anyway).
        const MAX: usize = 20_000;
        #[derive(Clone, Copy)]
        enum Edge {
            Eq(TermId),
            Store(TermId),
            Ite(TermId, bool),
        }
        let mut adj: FxHashMap<TermId, Vec<(TermId, Edge)>> = FxHashMap::default();
        for &e in &self.arr.eqs {
            if !self.relevant(e) {
                continue;
            }
            if let Some(Value::Bool(true)) = self.cand_value(store, e) {
                let (a, b) = (store.args(e)[0], store.args(e)[1]);
                adj.entry(a).or_default().push((b, Edge::Eq(e)));
                adj.entry(b).or_default().push((a, Edge::Eq(e)));
            }
        }
        let mut arrays: Vec<TermId> = self.arr.arrays.iter().copied().collect();
        arrays.sort();
        for &a in &arrays {
            // An irrelevant write or `ite` links no relevant reads (its subterms are at
            // least as relevant as it is, not the other way round).
            if !self.relevant(a) {
                continue;
            }
            let args = store.args(a).to_vec();
            match store.op(a) {
                Op::Store => {
                    adj.entry(a).or_default().push((args[0], Edge::Store(a)));
                    adj.entry(args[0]).or_default().push((a, Edge::Store(a)));
                }
                Op::Ite => {
                    if let Some(Value::Bool(c)) = self.cand_value(store, args[0]) {
                        let br = if c { args[1] } else { args[2] };
                        adj.entry(a).or_default().push((br, Edge::Ite(a, c)));
                        adj.entry(br).or_default().push((a, Edge::Ite(a, c)));
                    }
                }
                _ => {}
            }
        }
        if adj.is_empty() {
            return Vec::new();
        }
        let scalar = |store: &TermStore, t: TermId| {
            store
                .sort(t)
                .array_parts()
                .is_some_and(|(is, es)| !is.is_array() && !es.is_array())
        };
        // Known reads: (array, index value) -> element value.
        let mut known: FxHashMap<(TermId, Value), Value> = FxHashMap::default();
        let mut queue: Vec<(TermId, Value, TermId, Value)> = Vec::new();
        for &sel in &self.arr.selects {
            let (a, i) = (store.args(sel)[0], store.args(sel)[1]);
            if !scalar(store, a) || self.idle_witness(store, sel) || !self.relevant(sel) {
                continue;
            }
            let (Some(iv), Some(v)) = (self.cand_value(store, i), self.cand_value(store, sel))
            else {
                continue;
            };
            known.entry((a, iv.clone())).or_insert_with(|| v.clone());
            queue.push((a, iv, i, v));
        }
        let mut out = Vec::new();
        let mut head = 0;
        while head < queue.len() && out.len() < MAX {
            let (x, iv, i, v) = queue[head].clone();
            head += 1;
            let r = find(parent, x);
            if class_default.get(&r) == Some(&v) {
                continue;
            }
            let Some(edges) = adj.get(&x).cloned() else {
                continue;
            };
            let es = store.sort(x).elem_sort().expect("array");
            for (y, edge) in edges {
                let guard = match edge {
                    Edge::Eq(e) => store.mk_not(e),
                    Edge::Store(s) => {
                        let j = store.args(s)[1];
                        if self.cand_value(store, j).as_ref() != Some(&iv) {
                            store.mk_eq(i, j)
                        } else {
                            continue;
                        }
                    }
                    Edge::Ite(t, c) => {
                        let cond = store.args(t)[0];
                        if c { store.mk_not(cond) } else { cond }
                    }
                };
                let fresh = match known.get(&(y, iv.clone())) {
                    Some(w) if *w == v => continue,
                    Some(_) => false,
                    None => true,
                };
                let rx = store.mk_raw(Op::Select, &[x, i], es);
                let ry = store.mk_raw(Op::Select, &[y, i], es);
                self.claim(rx);
                self.claim(ry);
                let eq = mk_val_eq(store, rx, ry);
                out.push(store.mk_or(&[guard, eq]));
                if fresh {
                    known.insert((y, iv.clone()), v.clone());
                    queue.push((y, iv.clone(), i, v.clone()));
                }
            }
        }
        out
    }

    /// The element value of `t` (a non-array term's candidate value, or an array's
    /// computed value).
    fn elem_value(
        &self,
        store: &TermStore,
        vals: &FxHashMap<TermId, Value>,
        t: TermId,
    ) -> Option<Value> {
        if store.sort(t).is_array() {
            vals.get(&t).cloned()
        } else if let Some(v) = vals.get(&t) {
            Some(v.clone())
        } else {
            self.cand_value(store, t)
        }
    }

    /// The value of an index term: its candidate value, or for an array index its computed
    /// value (in `vals`).
    fn index_value(
        &self,
        store: &TermStore,
        vals: &FxHashMap<TermId, Value>,
        i: TermId,
    ) -> Option<Value> {
        if store.sort(i).is_array() {
            vals.get(&i).cloned()
        } else {
            self.cand_value(store, i)
        }
    }

    /// A registered index term whose value is `v`.
    fn index_term_with_value(
        &self,
        store: &TermStore,
        vals: &FxHashMap<TermId, Value>,
        v: &Value,
    ) -> Option<TermId> {
        for &s in &self.arr.selects {
            if !self.relevant(s) {
                continue;
            }
            let i = store.args(s)[1];
            if self.index_value(store, vals, i).as_ref() == Some(v) {
                return Some(i);
            }
        }
        for &a in &self.arr.arrays {
            if store.op(a) == &Op::Store {
                let j = store.args(a)[1];
                if self.index_value(store, vals, j).as_ref() == Some(v) {
                    return Some(j);
                }
            }
        }
        None
    }

    /// The extensionality lemma of the equality `e` between arrays: a fresh witness index
    /// `k` with `a[k] = b[k] → e`. The other direction is an instance of the congruence
    /// lemmas (`a ≠ b ∨ a[i] = b[i]`) that the value comparison adds when needed; leaving it
    /// out keeps witness reads of true equalities out of the search (see
    /// `idle_witness`): on Spacer's queries most equalities are copies of state arrays and
    /// true, and their witnesses at one shared index value tied every array together.
    pub(crate) fn array_eq_witness(&mut self, store: &mut TermStore, e: TermId) -> TermId {
        let (a, b) = (store.args(e)[0], store.args(e)[1]);
        let sort = store.sort(a);
        let (is, es) = sort.array_parts().expect("array equality");
        let k = store.fresh_var("arr_ext", is);
        let k = store.mk_var(k);
        let ra = store.mk_raw(Op::Select, &[a, k], es);
        let rb = store.mk_raw(Op::Select, &[b, k], es);
        self.arr.witness.insert(e, (ra, rb));
        self.arr.witness_reads.insert(ra, e);
        self.arr.witness_reads.insert(rb, e);
        let eq = mk_val_eq(store, ra, rb);
        store.mk_implies(eq, e)
    }
}

fn va_sort_elem(store: &TermStore, a: TermId) -> Sort {
    store.sort(a).elem_sort().expect("array")
}

/// `a = b` for two element terms (Bool equality as `iff`).
fn mk_val_eq(store: &mut TermStore, a: TermId, b: TermId) -> TermId {
    if store.sort(a) == Sort::Bool {
        let na = store.mk_not(a);
        let nb = store.mk_not(b);
        let ab = store.mk_and(&[a, b]);
        let nab = store.mk_and(&[na, nb]);
        return store.mk_or(&[ab, nab]);
    }
    store.mk_eq(a, b)
}
