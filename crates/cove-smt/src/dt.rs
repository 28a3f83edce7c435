//! The theory of algebraic datatypes (SMT-LIB 2.6 `declare-datatypes`, recursive and
//! mutually recursive), reduced to linear integer arithmetic plus lazily instantiated
//! congruence, then checked on a constructed model.
//!
//! # The reduction
//! Every datatype-sorted term `t` of an assertion gets three integer symbols: an identity
//! `v(t)` (equal identities mean equal values), a constructor tag `tag(t)` (`0 ≤ tag < n`,
//! `((_ is C) t)` becomes `tag(t) = C`) and a size `size(t) ≥ 1`. Selector applications of
//! a non-datatype sort become fresh variables of their sort; those of a datatype sort are
//! datatype terms themselves. Equalities (and `distinct`) between datatype terms become
//! equalities of identities. Every datatype term *of the formula* ("full" term) gets the
//! selector terms of all its constructors' fields; those are "shallow" (they get symbols but
//! no selectors of their own, so the term set stays finite). Eagerly asserted, per term:
//! * a constructor application `C(a1..an)`: `tag = C`, `sel_{C,i}(t) = a_i`,
//!   `size = 1 + Σ size(a_i)` over the datatype fields (distinctness and injectivity follow);
//! * a full term: `tag = C → size = 1 + Σ size(sel_{C,i}(t))` for every constructor `C`;
//!   sizes make every cycle `t = C(.. t ..)` (the occurs check) arithmetically impossible;
//! * `v(ite(c, a, b)) = ite(c, v(a), v(b))`.
//!
//! Lazily, on each candidate model of the arithmetic search (as the array theory does),
//! violated instances of two axiom schemes are added as permanent clauses:
//! * congruence: `v(t) = v(u) → f(t) = f(u)` for `f` = tag, size and every selector
//!   (selectors are total functions: applied to another constructor's value they have
//!   SMT-LIB's unspecified but fixed value, which congruence is all that constrains);
//! * extensionality: `tag(t) = C ∧ tag(u) = C ∧ ∧_i sel_{C,i}(t) = sel_{C,i}(u) → v(t) = v(u)`.
//!
//! Every added fact holds in every datatype model once `v` is read as an injective
//! numbering of values, `tag` as the constructor and `size` as the number of constructor
//! nodes, so `unsat` of the reduction is `unsat` of the input. A candidate without
//! violated instances is turned into datatype values (classes of equal identity, fields
//! from the selector terms, fresh distinct values for classes of shallow terms only,
//! wrong-constructor selectors fixed from their terms) and `sat` is only reported when
//! that model evaluates every assertion to true (otherwise `unknown`).

use crate::solver::SmtSolver;
use cove_logic::dt::{self as ldt, DtOp};
use cove_logic::{DtValue, Op, Rational, Sort, TermId, TermStore, Value};
use rustc_hash::{FxHashMap, FxHashSet};

/// One datatype term of the reduction.
struct DtTerm {
    term: TermId,
    sort: Sort,
    v: TermId,
    tag: TermId,
    size: TermId,
    /// Per constructor, per field: the selector term (set once the term is full).
    sels: Option<Vec<Vec<TermId>>>,
}

/// Per term (when full): per constructor, per field, the selector's representative and its
/// candidate value.
type SelValues = Option<Vec<Vec<(TermId, Option<Value>)>>>;

/// Datatype bookkeeping of the solver.
#[derive(Default)]
pub(crate) struct DtState {
    idx: FxHashMap<TermId, usize>,
    terms: Vec<DtTerm>,
    /// Original term -> rewritten term (no datatype sort left).
    memo: FxHashMap<TermId, TermId>,
    /// Terms that could not be rewritten (arrays over datatypes, quantifiers over them).
    opaque: FxHashMap<TermId, String>,
    /// Selector term of a non-datatype sort -> its variable.
    selvar: FxHashMap<TermId, TermId>,
    /// Facts of the reduction waiting to be asserted.
    pub pending: Vec<TermId>,
    lemmas: FxHashSet<TermId>,
    /// Values of datatype terms (classes) of the last consistent candidate.
    pub values: FxHashMap<TermId, Value>,
    /// Wrong-constructor selector values of the last consistent candidate.
    pub wrong_sel: Vec<(DtOp, Value, Value)>,
    /// Why the last model construction failed, if it did.
    pub model_failure: Option<String>,
    /// Lemmas added so far.
    pub lemma_count: u64,
    /// Per constructor application (term index): its size as a constant plus the sizes of
    /// the non-constructor terms below it, with multiplicities (see [`SIZE_FORM_LEAVES`]).
    size_form: FxHashMap<usize, SizeForm>,
}

/// `size(t) = constant + Σ k · size(leaf)` over the datatype terms below a nest of
/// constructor applications that are not constructor applications themselves.
#[derive(Clone)]
struct SizeForm {
    constant: i64,
    leaves: Vec<(usize, i64)>,
}

/// Leaves a size form may have before a constructor application's size is stated over its
/// children's sizes instead. Stating the size of `C(.. C(.. t ..) ..)` over the leaves
/// keeps the rows of a deep constructor term independent: chained rows `size_i = 1 +
/// size_{i+1}` over a 10,000-deep ground list made the simplex fill in quadratically
/// (minutes), while `size_i = k_i` is a bound and `size_i = k_i + size(l)` one short row.
const SIZE_FORM_LEAVES: usize = 4;

impl DtState {
    /// Whether any datatype term was met.
    pub fn active(&self) -> bool {
        !self.terms.is_empty()
    }
}

/// Terms or facts processed between two polls of the limits while encoding: one step
/// registers a term (a few symbols and facts), a poll reads the clock.
const POLL_EVERY: u32 = 256;

/// Why an assertion was weakened: the encoding stopped at a limit.
const STOPPED: &str = "encoding stopped at a limit";

fn is_dt(s: Sort) -> bool {
    matches!(s, Sort::Dt(_))
}

/// Whether `s` is an array sort over datatypes (outside the reduction).
fn dt_inside_array(s: Sort) -> bool {
    s.is_array() && ldt::mentions_dt(s)
}

impl SmtSolver {
    /// Rewrites the simplified term `t` into a datatype-free term; the facts of the
    /// reduction are asserted permanently. Returns the rewritten term and, if some part had
    /// to be abstracted, why.
    pub(crate) fn dt_rewrite(
        &mut self,
        store: &mut TermStore,
        t: TermId,
    ) -> (TermId, Option<String>) {
        if !ldt::any_declared() {
            return (t, None);
        }
        let mut why: Option<String> = None;
        let mut stack = vec![(t, false)];
        let mut steps = 0u32;
        while let Some((u, expanded)) = stack.pop() {
            if self.dt.memo.contains_key(&u) {
                continue;
            }
            steps += 1;
            if steps.is_multiple_of(POLL_EVERY) && self.limits.control.should_stop().is_some() {
                // Stopped at a limit: the assertion is weakened to `true` and marked, so
                // that `unsat` stays sound and `sat` needs a model check (the search, under
                // the same limit, answers `unknown` first). What is done is kept: the
                // memoized subterms and their facts are valid and a later call resumes.
                return (store.mk_true(), Some(STOPPED.to_string()));
            }
            if !expanded {
                stack.push((u, true));
                if matches!(store.op(u), Op::Forall(_) | Op::Exists(_)) {
                    continue;
                }
                for &a in store.args(u).iter().rev() {
                    if !self.dt.memo.contains_key(&a) {
                        stack.push((a, false));
                    }
                }
                continue;
            }
            let r = self.dt_rewrite_node(store, u, &mut why);
            self.dt.memo.insert(u, r);
        }
        let r = self.dt.memo[&t];
        if let Some(w) = self.dt.opaque.get(&t) {
            why.get_or_insert_with(|| w.clone());
        }
        if !self.flush_dt_facts(store) {
            why.get_or_insert_with(|| STOPPED.to_string());
        }
        (r, why)
    }

    /// Registers the datatype terms of an assertion as written (before simplification), so
    /// that the model gives values to all of them, also to those the simplifier removed
    /// (the model is checked against the original assertion). Only valid facts are added.
    pub(crate) fn dt_register_original(&mut self, store: &mut TermStore, t: TermId) {
        if ldt::any_declared() && !self.dt.memo.contains_key(&t) {
            self.dt_rewrite(store, t);
        }
    }

    /// Asserts the pending facts of the reduction (permanent, unscoped); `false` when it
    /// stopped at a limit with facts left pending (a later call asserts them, and no check
    /// answers `sat` before: see [`SmtSolver::check_assuming`]).
    pub(crate) fn flush_dt_facts(&mut self, store: &mut TermStore) -> bool {
        let mut steps = 0u32;
        while let Some(f) = self.dt.pending.pop() {
            steps += 1;
            if steps.is_multiple_of(POLL_EVERY) && self.limits.control.should_stop().is_some() {
                self.dt.pending.push(f);
                return false;
            }
            let s = self.simp.run(store, f);
            self.assert_fact(store, s);
        }
        true
    }

    fn dt_rewrite_node(
        &mut self,
        store: &mut TermStore,
        u: TermId,
        why: &mut Option<String>,
    ) -> TermId {
        let sort = store.sort(u);
        let op = store.op(u).clone();
        let args: Vec<TermId> = store.args(u).to_vec();
        if matches!(op, Op::Forall(_) | Op::Exists(_)) {
            return u;
        }
        let opaque_arg = args.iter().any(|a| self.dt.opaque.contains_key(a));
        if dt_inside_array(sort) || (opaque_arg && !is_dt(sort)) {
            let w = "arrays over datatypes".to_string();
            why.get_or_insert_with(|| w.clone());
            self.dt.opaque.insert(u, w);
            if dt_inside_array(sort) {
                return u;
            }
            let x = store.fresh_var("dt_abs", sort);
            return store.mk_var(x);
        }
        if is_dt(sort) {
            if opaque_arg {
                why.get_or_insert_with(|| "arrays over datatypes".to_string());
            }
            let i = self.dt_register(store, u, true);
            return self.dt.terms[i].v;
        }
        let new_args: Vec<TermId> = args.iter().map(|a| self.dt.memo[a]).collect();
        match op {
            Op::Dt(DtOp::Test { ctor, .. }) => {
                let i = self.dt_register(store, args[0], true);
                let tag = self.dt.terms[i].tag;
                let k = store.mk_int(ctor as i64);
                store.mk_eq(tag, k)
            }
            Op::Dt(DtOp::Sel { .. }) => {
                self.dt_register(store, args[0], true);
                match self.dt.selvar.get(&u) {
                    Some(&x) => x,
                    None => {
                        // Selectors are made by `dt_make_full`; this is a fallback.
                        let x = store.fresh_var("dt_sel", sort);
                        let x = store.mk_var(x);
                        self.dt.selvar.insert(u, x);
                        x
                    }
                }
            }
            Op::Eq if args.len() == 2 && is_dt(store.sort(args[0])) => {
                let r = store.mk(op, &new_args).unwrap_or(u);
                self.dt_eager_congruence(store, args[0], args[1], r);
                r
            }
            _ if new_args == args => u,
            _ => match store.mk(op, &new_args) {
                Ok(r) => r,
                Err(_) => {
                    let w = "datatype term outside the fragment".to_string();
                    why.get_or_insert_with(|| w.clone());
                    self.dt.opaque.insert(u, w);
                    let x = store.fresh_var("dt_abs", sort);
                    store.mk_var(x)
                }
            },
        }
    }

    /// Congruence instances of an equality atom of the formula, asserted eagerly: `eq →
    /// tag(a) = tag(b)`, `eq → size(a) = size(b)` and `eq → sel(a) = sel(b)` for every
    /// selector both terms have (`eq` is the rewritten atom `v(a) = v(b)`). The lazy
    /// congruence check would add the same instances one candidate at a time; asserting
    /// them with the atom lets the search propagate them (on BMC unrollings, where every
    /// predicate argument is linked to a clause variable by such an equality, the lazy
    /// rounds dominated). Every instance is valid, so `unsat` stays sound.
    fn dt_eager_congruence(&mut self, store: &mut TermStore, a: TermId, b: TermId, eq: TermId) {
        let (Some(&i), Some(&j)) = (self.dt.idx.get(&a), self.dt.idx.get(&b)) else {
            return;
        };
        if i == j {
            return;
        }
        let (ta, tb) = (&self.dt.terms[i], &self.dt.terms[j]);
        let mut pairs = vec![(ta.tag, tb.tag), (ta.size, tb.size)];
        if let (Some(ra), Some(rb)) = (ta.sels.clone(), tb.sels.clone()) {
            for (row_a, row_b) in ra.iter().zip(&rb) {
                for (&x, &y) in row_a.iter().zip(row_b) {
                    pairs.push((self.dt_sel_rep(store, x), self.dt_sel_rep(store, y)));
                }
            }
        }
        let neq = store.mk_not(eq);
        for (x, y) in pairs {
            if x == y {
                continue;
            }
            let e = store.mk_eq(x, y);
            let f = store.mk_or(&[neq, e]);
            if self.dt.lemmas.insert(f) {
                self.dt.pending.push(f);
            }
        }
    }

    fn int_var(store: &mut TermStore, prefix: &str) -> TermId {
        let x = store.fresh_var(prefix, Sort::Int);
        store.mk_var(x)
    }

    /// The representative (rewritten form) of selector term `s`.
    fn dt_sel_rep(&self, store: &TermStore, s: TermId) -> TermId {
        if is_dt(store.sort(s)) {
            self.dt.terms[self.dt.idx[&s]].v
        } else {
            self.dt.selvar[&s]
        }
    }

    /// Registers datatype term `t` (its arguments are rewritten already when it is a
    /// subterm of an assertion); `full` asks for its selector terms.
    fn dt_register(&mut self, store: &mut TermStore, t: TermId, full: bool) -> usize {
        if let Some(&i) = self.dt.idx.get(&t) {
            if full && self.dt.terms[i].sels.is_none() {
                self.dt_make_full(store, i);
            }
            return i;
        }
        let sort = store.sort(t);
        let n = ldt::def(sort).map_or(1, |d| d.ctors.len()) as i64;
        let v = Self::int_var(store, "dt_v");
        let tag = Self::int_var(store, "dt_tag");
        let size = Self::int_var(store, "dt_size");
        let zero = store.mk_int(0);
        let one = store.mk_int(1);
        let top = store.mk_int(n - 1);
        let f1 = store.mk_le(zero, tag);
        let f2 = store.mk_le(tag, top);
        let f3 = store.mk_le(one, size);
        self.dt.pending.extend([f1, f2, f3]);
        let i = self.dt.terms.len();
        self.dt.terms.push(DtTerm {
            term: t,
            sort,
            v,
            tag,
            size,
            sels: None,
        });
        self.dt.idx.insert(t, i);
        let op = store.op(t).clone();
        let full = full || matches!(op, Op::Dt(DtOp::Ctor(_)));
        if full {
            self.dt_make_full(store, i);
        }
        let args: Vec<TermId> = store.args(t).to_vec();
        match op {
            Op::Dt(DtOp::Ctor(c)) => {
                let k = store.mk_int(c as i64);
                let f = store.mk_eq(tag, k);
                self.dt.pending.push(f);
                let sels = self.dt.terms[i].sels.clone().expect("full");
                let mut sum = vec![one];
                let mut form = Some(SizeForm {
                    constant: 1,
                    leaves: Vec::new(),
                });
                for (j, &a) in args.iter().enumerate() {
                    let ra = self.dt_arg_rep(store, a);
                    let rs = self.dt_sel_rep(store, sels[c as usize][j]);
                    let f = store.mk_eq(rs, ra);
                    self.dt.pending.push(f);
                    if is_dt(store.sort(a)) {
                        let ai = self.dt_register(store, a, true);
                        sum.push(self.dt.terms[ai].size);
                        form = form.and_then(|f| self.dt_add_size_form(f, ai));
                    }
                }
                let s = match &form {
                    Some(f) => {
                        let mut parts = vec![store.mk_int(f.constant)];
                        for &(l, k) in &f.leaves {
                            let k = store.mk_int(k);
                            let x = self.dt.terms[l].size;
                            parts.push(store.mk_mul(&[k, x]));
                        }
                        store.mk_add(&parts)
                    }
                    None => store.mk_add(&sum),
                };
                if let Some(f) = form {
                    self.dt.size_form.insert(i, f);
                }
                let f = store.mk_eq(size, s);
                self.dt.pending.push(f);
            }
            Op::Ite => {
                let c = self.dt.memo.get(&args[0]).copied();
                let (Some(c), true) = (c, args[1..].iter().all(|a| self.dt.idx.contains_key(a)))
                else {
                    return i;
                };
                let va = self.dt.terms[self.dt.idx[&args[1]]].v;
                let vb = self.dt.terms[self.dt.idx[&args[2]]].v;
                let ite = store.mk_ite(c, va, vb);
                let f = store.mk_eq(v, ite);
                self.dt.pending.push(f);
            }
            _ => {}
        }
        i
    }

    /// `form` plus the size of term `a` (its own form when it is a constructor
    /// application with one, else `a` as a leaf); `None` past [`SIZE_FORM_LEAVES`] leaves
    /// or on overflow.
    fn dt_add_size_form(&self, mut form: SizeForm, a: usize) -> Option<SizeForm> {
        let own;
        let add: &[(usize, i64)] = match self.dt.size_form.get(&a) {
            Some(f) => {
                form.constant = form.constant.checked_add(f.constant)?;
                &f.leaves
            }
            None => {
                own = [(a, 1)];
                &own
            }
        };
        for &(l, k) in add {
            match form.leaves.iter_mut().find(|e| e.0 == l) {
                Some(e) => e.1 = e.1.checked_add(k)?,
                None => form.leaves.push((l, k)),
            }
        }
        (form.leaves.len() <= SIZE_FORM_LEAVES).then_some(form)
    }

    /// The rewritten form of argument `a` of a constructor application.
    fn dt_arg_rep(&mut self, store: &mut TermStore, a: TermId) -> TermId {
        if is_dt(store.sort(a)) {
            let i = self.dt_register(store, a, true);
            return self.dt.terms[i].v;
        }
        match self.dt.memo.get(&a) {
            Some(&r) => r,
            None => a,
        }
    }

    /// Gives term `i` its selector terms and size facts.
    fn dt_make_full(&mut self, store: &mut TermStore, i: usize) {
        let (t, sort, tag, size) = {
            let d = &self.dt.terms[i];
            (d.term, d.sort, d.tag, d.size)
        };
        let Some(def) = ldt::def(sort) else {
            self.dt.terms[i].sels = Some(vec![]);
            return;
        };
        let mut sels = Vec::with_capacity(def.ctors.len());
        for (c, ctor) in def.ctors.iter().enumerate() {
            let mut row = Vec::with_capacity(ctor.fields.len());
            for (j, f) in ctor.fields.iter().enumerate() {
                let op = Op::Dt(DtOp::Sel {
                    dt: sort,
                    ctor: c as u32,
                    field: j as u32,
                });
                let st = store.mk(op, &[t]).expect("well-sorted selector");
                if is_dt(f.1) {
                    self.dt_register(store, st, false);
                } else if let std::collections::hash_map::Entry::Vacant(e) =
                    self.dt.selvar.entry(st)
                {
                    let x = store.fresh_var("dt_sel", f.1);
                    e.insert(store.mk_var(x));
                }
                row.push(st);
            }
            sels.push(row);
        }
        self.dt.terms[i].sels = Some(sels.clone());
        for (c, row) in sels.iter().enumerate() {
            let mut sum = vec![store.mk_int(1)];
            for &st in row {
                if is_dt(store.sort(st)) {
                    sum.push(self.dt.terms[self.dt.idx[&st]].size);
                }
            }
            let k = store.mk_int(c as i64);
            let is_c = store.mk_eq(tag, k);
            let s = store.mk_add(&sum);
            let eq = store.mk_eq(size, s);
            let f = store.mk_implies(is_c, eq);
            self.dt.pending.push(f);
        }
    }

    /// The candidate value of an integer/other symbol of the reduction.
    fn dt_val(&self, store: &TermStore, t: TermId) -> Option<Value> {
        if let Some(b) = store.as_bool(t) {
            return Some(Value::Bool(b));
        }
        if let Some(n) = store.as_num(t) {
            return Some(Value::Num(n.clone()));
        }
        self.cand_value(store, t)
    }

    /// One round of the lazy check on the current candidate: violated congruence and
    /// extensionality instances (empty when the candidate is consistent; then the
    /// datatype values are stored for the model).
    pub(crate) fn dt_lemmas(&mut self, store: &mut TermStore) -> Vec<TermId> {
        let n = self.dt.terms.len();
        let mut vval: Vec<Option<Value>> = Vec::with_capacity(n);
        let mut tval: Vec<Option<Value>> = Vec::with_capacity(n);
        let mut sval: Vec<Option<Value>> = Vec::with_capacity(n);
        for d in &self.dt.terms {
            vval.push(self.dt_val(store, d.v));
            tval.push(self.dt_val(store, d.tag));
            sval.push(self.dt_val(store, d.size));
        }
        // Selector representatives and their values, per full term.
        let mut selv: Vec<SelValues> = Vec::with_capacity(n);
        for d in &self.dt.terms {
            selv.push(d.sels.as_ref().map(|rows| {
                rows.iter()
                    .map(|row| {
                        row.iter()
                            .map(|&s| {
                                let r = self.dt_sel_rep(store, s);
                                (r, self.dt_val(store, r))
                            })
                            .collect()
                    })
                    .collect()
            }));
        }
        let mut out: Vec<TermId> = Vec::new();
        // Congruence.
        // Each term is compared with the first term of its class (tag, size) and, when it
        // has selector terms, with the first such term of its class: comparing selectors
        // only with the very first member missed every pair of full terms of a class whose
        // first member is shallow (the model then took fields from one of them).
        let mut first: FxHashMap<(Sort, Value), usize> = FxHashMap::default();
        let mut first_full: FxHashMap<(Sort, Value), usize> = FxHashMap::default();
        for i in 0..n {
            let Some(vv) = vval[i].clone() else { continue };
            let key = (self.dt.terms[i].sort, vv);
            if selv[i].is_some() {
                match first_full.get(&key) {
                    None => {
                        first_full.insert(key.clone(), i);
                    }
                    Some(&j) => {
                        let (a, b) = (&self.dt.terms[i], &self.dt.terms[j]);
                        let veq = store.mk_eq(a.v, b.v);
                        let nveq = store.mk_not(veq);
                        let (ri, rj) = (
                            selv[i].as_ref().expect("full"),
                            selv[j].as_ref().expect("full"),
                        );
                        let mut pairs = Vec::new();
                        for (row_i, row_j) in ri.iter().zip(rj) {
                            for (x, y) in row_i.iter().zip(row_j) {
                                if (x.1 != y.1 || x.1.is_none()) && x.0 != y.0 {
                                    pairs.push((x.0, y.0));
                                }
                            }
                        }
                        for (x, y) in pairs {
                            let e = store.mk_eq(x, y);
                            out.push(store.mk_or(&[nveq, e]));
                        }
                    }
                }
            }
            let Some(&j) = first.get(&key) else {
                first.insert(key, i);
                continue;
            };
            let (a, b) = (&self.dt.terms[i], &self.dt.terms[j]);
            let veq = store.mk_eq(a.v, b.v);
            let nveq = store.mk_not(veq);
            let mut pairs: Vec<(TermId, TermId)> = Vec::new();
            if tval[i] != tval[j] {
                pairs.push((a.tag, b.tag));
            }
            if sval[i] != sval[j] {
                pairs.push((a.size, b.size));
            }
            for (x, y) in pairs {
                if x == y {
                    continue;
                }
                let e = store.mk_eq(x, y);
                out.push(store.mk_or(&[nveq, e]));
            }
        }
        // Extensionality.
        let mut ext: FxHashMap<(Sort, Value, Vec<Option<Value>>), usize> = FxHashMap::default();
        for i in 0..n {
            let Some(Value::Num(c)) = tval[i].clone() else {
                continue;
            };
            let Some(c) = c.to_i64().filter(|&c| c >= 0) else {
                continue;
            };
            let sort = self.dt.terms[i].sort;
            let nfields = ldt::def(sort)
                .and_then(|d| d.ctors.get(c as usize))
                .map_or(0, |k| k.fields.len());
            let fields: Vec<Option<Value>> = if nfields == 0 {
                vec![]
            } else {
                match &selv[i] {
                    Some(rows) => rows[c as usize].iter().map(|x| x.1.clone()).collect(),
                    None => continue,
                }
            };
            if fields.iter().any(|f| f.is_none()) {
                continue;
            }
            let key = (sort, Value::Num(Rational::int(c)), fields);
            let Some(&j) = ext.get(&key) else {
                ext.insert(key, i);
                continue;
            };
            if vval[i].is_some() && vval[i] == vval[j] {
                continue;
            }
            let (a, b) = (&self.dt.terms[i], &self.dt.terms[j]);
            let k = store.mk_int(c);
            let ta = store.mk_eq(a.tag, k);
            let tb = store.mk_eq(b.tag, k);
            let mut lits = vec![store.mk_not(ta), store.mk_not(tb)];
            if nfields > 0 {
                let ri = selv[i].as_ref().expect("full")[c as usize].clone();
                let rj = selv[j].as_ref().expect("full")[c as usize].clone();
                for (x, y) in ri.iter().zip(&rj) {
                    if x.0 != y.0 {
                        let e = store.mk_eq(x.0, y.0);
                        lits.push(store.mk_not(e));
                    }
                }
            }
            lits.push(store.mk_eq(a.v, b.v));
            out.push(store.mk_or(&lits));
        }
        out.retain(|&l| self.dt.lemmas.insert(l));
        if out.is_empty() {
            // Fresh values of classes without selector terms are drawn from a range that may
            // hit a value the candidate fixes (a Peano chain): then from a farther one.
            // Last, the fields the candidate leaves unvalued get distinct salted values
            // instead of their sort's default: two classes built on one constructor whose
            // only difference is such a field would otherwise get one value.
            for (offset, salt_missing) in [(0, false), (200, false), (3000, false), (5000, true)] {
                self.dt_build_values(store, &vval, &tval, &selv, offset, salt_missing);
                if self.dt.model_failure.is_none() {
                    break;
                }
            }
        }
        out
    }

    /// Builds datatype values for the classes of a consistent candidate.
    fn dt_build_values(
        &mut self,
        store: &TermStore,
        vval: &[Option<Value>],
        tval: &[Option<Value>],
        selv: &[SelValues],
        offset: u64,
        salt_missing: bool,
    ) {
        let mut missing_salt: u64 = offset + 100_000;
        self.dt.values.clear();
        self.dt.wrong_sel.clear();
        self.dt.model_failure = None;
        let n = self.dt.terms.len();
        // Classes.
        let mut class_of: Vec<usize> = vec![0; n];
        let mut classes: Vec<Vec<usize>> = Vec::new();
        let mut by_key: FxHashMap<(Sort, Value), usize> = FxHashMap::default();
        for i in 0..n {
            let c = match &vval[i] {
                Some(v) => *by_key
                    .entry((self.dt.terms[i].sort, v.clone()))
                    .or_insert_with(|| {
                        classes.push(vec![]);
                        classes.len() - 1
                    }),
                None => {
                    classes.push(vec![]);
                    classes.len() - 1
                }
            };
            class_of[i] = c;
            classes[c].push(i);
        }
        enum Field {
            Val(Value),
            Class(usize),
        }
        // Per class: constructor and fields (None for classes of shallow terms only).
        let mut shape: Vec<(Sort, u32, Option<Vec<Field>>)> = Vec::with_capacity(classes.len());
        // Whether the class's constructor is fixed by the candidate.
        let mut tag_known: Vec<bool> = Vec::with_capacity(classes.len());
        for members in &classes {
            let i0 = members[0];
            let sort = self.dt.terms[i0].sort;
            let nctors = ldt::def(sort).map_or(1, |d| d.ctors.len());
            let known = members.iter().find_map(|&i| match &tval[i] {
                Some(Value::Num(c)) => c.to_i64().filter(|&c| c >= 0 && (c as usize) < nctors),
                _ => None,
            });
            // A class whose constructor the candidate leaves open gets a fresh value built on
            // a constructor with fields (so that two such classes differ: a nullary
            // constructor would give them all one value).
            let Some(tag) = known else {
                let open = ldt::def(sort)
                    .and_then(|d| {
                        let with = |f: &dyn Fn(Sort) -> bool| {
                            d.ctors.iter().position(|c| c.fields.iter().any(|x| f(x.1)))
                        };
                        with(&|s: Sort| s.is_arith()).or_else(|| with(&|s: Sort| s == sort))
                    })
                    .unwrap_or(0) as u32;
                shape.push((sort, open, None));
                tag_known.push(false);
                continue;
            };
            let tag = tag as u32;
            let full = members.iter().find(|&&i| selv[i].is_some());
            let fields = full.map(|&i| {
                let row = &selv[i].as_ref().expect("full")[tag as usize];
                let sels = self.dt.terms[i].sels.as_ref().expect("full");
                row.iter()
                    .zip(&sels[tag as usize])
                    .map(|(x, &s)| {
                        if is_dt(store.sort(s)) {
                            Field::Class(class_of[self.dt.idx[&s]])
                        } else {
                            Field::Val(x.1.clone().unwrap_or_else(|| {
                                if salt_missing {
                                    missing_salt += 1;
                                    salted(store.sort(s), missing_salt)
                                } else {
                                    Value::default_of(store.sort(s))
                                }
                            }))
                        }
                    })
                    .collect()
            });
            shape.push((sort, tag, fields));
            tag_known.push(true);
        }
        // Values bottom-up (iterative; a cycle fails the construction).
        let nc = classes.len();
        // Spacing of the salts: a built class adds at most `height` constructors above the
        // free classes it is built on (the longest path of built classes), so free values
        // whose chains differ by more than that cannot equal a built value.
        let height = {
            let mut h: Vec<Option<u64>> = vec![None; nc];
            let mut onstack = vec![false; nc];
            for root in 0..nc {
                let mut stack = vec![root];
                while let Some(&c) = stack.last() {
                    if h[c].is_some() {
                        stack.pop();
                        continue;
                    }
                    let kids: Vec<usize> = match &shape[c].2 {
                        None => vec![],
                        Some(fs) => fs
                            .iter()
                            .filter_map(|f| match f {
                                Field::Class(k) => Some(*k),
                                Field::Val(_) => None,
                            })
                            .collect(),
                    };
                    let missing: Vec<usize> =
                        kids.iter().copied().filter(|&k| h[k].is_none()).collect();
                    if missing.is_empty() {
                        h[c] = Some(
                            kids.iter()
                                .map(|&k| h[k].unwrap_or(0) + 1)
                                .max()
                                .unwrap_or(0),
                        );
                        stack.pop();
                    } else if onstack[c] {
                        // A cycle: the construction below reports it.
                        h[c] = Some(0);
                        stack.pop();
                    } else {
                        onstack[c] = true;
                        stack.extend(missing);
                    }
                }
            }
            h.into_iter().flatten().max().unwrap_or(0)
        };
        let spacing = height.min(nc as u64) + 2;
        let mut val: Vec<Option<Value>> = vec![None; nc];
        let mut state = vec![0u8; nc];
        let mut salt: u64 = offset;
        let mut used: FxHashSet<Value> = FxHashSet::default();
        for root in 0..nc {
            if val[root].is_some() {
                continue;
            }
            let mut stack = vec![root];
            while let Some(&c) = stack.last() {
                if val[c].is_some() {
                    stack.pop();
                    continue;
                }
                let (sort, tag, fields) = &shape[c];
                match fields {
                    None => {
                        // Salts `height + 2` apart: a free value is a chain as long as its
                        // salt (Peano numbers, lists), and a class built on top of another adds
                        // at most `height` constructors, so consecutive salts one apart made a
                        // free class equal to a built one (`succ(chain(s + 1))` =
                        // `chain(s + 2)`). (Spacing by the number of classes made the chains
                        // reach the length cap on large unrollings, where they all collided.)
                        salt += spacing;
                        let mut v = free_value(*sort, *tag, salt);
                        if used.contains(&v) {
                            // A finite part of the sort (nullary constructors, enumerations):
                            // another value of the class's constructor (of any constructor
                            // when the candidate leaves it open) that no class has yet.
                            let tags: Vec<u32> = if tag_known[c] {
                                vec![*tag]
                            } else {
                                let n = ldt::def(*sort).map_or(1, |d| d.ctors.len()) as u32;
                                (0..n).collect()
                            };
                            if let Some(alt) = tags
                                .into_iter()
                                .flat_map(|k| small_values(*sort, k, salt))
                                .find(|a| !used.contains(a))
                            {
                                v = alt;
                            }
                        }
                        used.insert(v.clone());
                        val[c] = Some(v);
                        stack.pop();
                    }
                    Some(fs) => {
                        let missing: Vec<usize> = fs
                            .iter()
                            .filter_map(|f| match f {
                                Field::Class(k) if val[*k].is_none() => Some(*k),
                                _ => None,
                            })
                            .collect();
                        if missing.is_empty() {
                            let vals = fs
                                .iter()
                                .map(|f| match f {
                                    Field::Val(v) => v.clone(),
                                    Field::Class(k) => val[*k].clone().expect("built"),
                                })
                                .collect();
                            let v = Value::Dt(std::sync::Arc::new(DtValue {
                                sort: *sort,
                                ctor: *tag,
                                fields: vals,
                            }));
                            used.insert(v.clone());
                            val[c] = Some(v);
                            stack.pop();
                        } else {
                            if state[c] == 1 {
                                self.dt.model_failure = Some("cyclic datatype values".into());
                                return;
                            }
                            state[c] = 1;
                            stack.extend(missing);
                        }
                    }
                }
            }
        }
        // Classes whose identities the candidate tells apart must get distinct values. A class
        // without an identity value (a term no arithmetic fact mentions) may share its value:
        // nothing in the candidate distinguishes it, and the model is checked against every
        // assertion as written before it is used, so a wrong guess is caught there.
        let mut seen: FxHashSet<&Value> = FxHashSet::default();
        let valued = |c: usize| classes[c].iter().any(|&i| vval[i].is_some());
        for (c, v) in val.iter().enumerate() {
            let Some(v) = v else { continue };
            if valued(c) && !seen.insert(v) {
                self.dt.model_failure = Some("two datatype classes got one value".into());
                return;
            }
        }
        for (i, d) in self.dt.terms.iter().enumerate() {
            let v = val[class_of[i]].clone().expect("built");
            if let Some(rows) = &selv[i] {
                let tag = shape[class_of[i]].1;
                let sels = d.sels.as_ref().expect("full");
                for (c, row) in rows.iter().enumerate() {
                    if c as u32 == tag {
                        continue;
                    }
                    for (j, (x, &s)) in row.iter().zip(&sels[c]).enumerate() {
                        let fv = if is_dt(store.sort(s)) {
                            val[class_of[self.dt.idx[&s]]].clone().expect("built")
                        } else {
                            x.1.clone()
                                .unwrap_or_else(|| Value::default_of(store.sort(s)))
                        };
                        let op = DtOp::Sel {
                            dt: d.sort,
                            ctor: c as u32,
                            field: j as u32,
                        };
                        self.dt.wrong_sel.push((op, v.clone(), fv));
                    }
                }
            }
            self.dt.values.insert(d.term, v);
        }
    }
}

/// A value of `sort` with constructor `tag` that no other call with another `salt` returns
/// (when the constructor has a field of an infinite sort).
fn free_value(sort: Sort, tag: u32, salt: u64) -> Value {
    let Some(def) = ldt::def(sort) else {
        return Value::default_of(sort);
    };
    let fields = def.ctors[tag as usize]
        .fields
        .iter()
        .map(|f| salted(f.1, salt))
        .collect();
    Value::Dt(std::sync::Arc::new(DtValue {
        sort,
        ctor: tag,
        fields,
    }))
}

/// Up to 64 values of `sort` with constructor `tag`: arithmetic fields salted, datatype
/// fields ranging over their sort's nullary constructors, Boolean fields over both values
/// (the alternatives for a free class whose first value another class has).
fn small_values(sort: Sort, tag: u32, salt: u64) -> Vec<Value> {
    let Some(def) = ldt::def(sort) else {
        return vec![];
    };
    let Some(ctor) = def.ctors.get(tag as usize) else {
        return vec![];
    };
    let mut out: Vec<Vec<Value>> = vec![vec![]];
    for f in &ctor.fields {
        let choices: Vec<Value> = match f.1 {
            Sort::Bool => vec![Value::Bool(false), Value::Bool(true)],
            Sort::Dt(_) => {
                let nullary: Vec<Value> = ldt::def(f.1)
                    .map(|d| {
                        (0..d.ctors.len() as u32)
                            .filter(|&k| d.ctors[k as usize].fields.is_empty())
                            .map(|k| {
                                Value::Dt(std::sync::Arc::new(DtValue {
                                    sort: f.1,
                                    ctor: k,
                                    fields: vec![],
                                }))
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                if nullary.is_empty() {
                    vec![salted(f.1, salt)]
                } else {
                    nullary
                }
            }
            s => vec![salted(s, salt)],
        };
        let mut next = Vec::new();
        for prefix in &out {
            for ch in &choices {
                if next.len() >= 64 {
                    break;
                }
                let mut p = prefix.clone();
                p.push(ch.clone());
                next.push(p);
            }
        }
        out = next;
    }
    out.into_iter()
        .map(|fields| {
            Value::Dt(std::sync::Arc::new(DtValue {
                sort,
                ctor: tag,
                fields,
            }))
        })
        .collect()
}

/// A value of `sort` that depends on `salt` when the sort is infinite.
fn salted(sort: Sort, salt: u64) -> Value {
    match sort {
        Sort::Int | Sort::Real => Value::Num(Rational::int(1_000_000_007 + salt as i64)),
        Sort::Dt(_) => {
            let Some(def) = ldt::def(sort) else {
                return Value::default_of(sort);
            };
            // A constructor with an arithmetic field carries the salt directly (its datatype
            // fields get the sort's base value: the value stays two levels deep instead of a
            // chain as long as the salt).
            // Constructor `c` with its arithmetic fields salted, the others at their defaults.
            let salted_ctor = |c: usize| {
                let fields = def.ctors[c]
                    .fields
                    .iter()
                    .map(|f| {
                        if f.1.is_arith() {
                            salted(f.1, salt)
                        } else {
                            Value::default_of(f.1)
                        }
                    })
                    .collect();
                Value::Dt(std::sync::Arc::new(DtValue {
                    sort,
                    ctor: c as u32,
                    fields,
                }))
            };
            if let Some(c) = def.ctors.iter().position(|c| {
                c.fields.iter().any(|f| f.1.is_arith()) && c.fields.iter().all(|f| !is_dt(f.1))
            }) {
                return salted_ctor(c);
            }
            if let Some(c) = def
                .ctors
                .iter()
                .position(|c| c.fields.iter().any(|f| f.1.is_arith()))
            {
                return salted_ctor(c);
            }
            // Otherwise a chain through a directly recursive constructor, as long as the salt.
            let base = Value::default_of(sort);
            let rec = def
                .ctors
                .iter()
                .position(|c| c.fields.iter().any(|f| f.1 == sort));
            let Some(r) = rec else { return base };
            let mut v = base;
            for _ in 0..(salt.min(8192) + 2) {
                let fields = def.ctors[r]
                    .fields
                    .iter()
                    .map(|f| {
                        if f.1 == sort {
                            Value::Bool(false)
                        } else {
                            Value::default_of(f.1)
                        }
                    })
                    .collect::<Vec<_>>();
                let mut fields = fields;
                let k = def.ctors[r]
                    .fields
                    .iter()
                    .position(|f| f.1 == sort)
                    .expect("recursive field");
                fields[k] = v;
                v = Value::Dt(std::sync::Arc::new(DtValue {
                    sort,
                    ctor: r as u32,
                    fields,
                }));
            }
            v
        }
        _ => Value::default_of(sort),
    }
}
