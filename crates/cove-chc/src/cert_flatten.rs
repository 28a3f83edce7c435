//! The certificate checker's own reading of datatype queries: a flattening of records,
//! enumerations and sums (and arrays of them) into the theories the SMT core decides,
//! written for the checker alone.
//!
//! Why its own: engines solve systems flattened by `preprocess::adt`. A checker that decided
//! its queries with that same pass would accept whatever the pass gets wrong — the bug of
//! issue 62 (equality compared the fields of constructors other than the value's own, and
//! engines derived counterexamples that do not exist) could have passed the check meant to
//! catch it. This module shares no code with the preprocessing, and it needs only one
//! direction (an unsatisfiable flat query proves the original unsatisfiable), which keeps
//! it small enough to read in one sitting.
//!
//! # The canonical tuple
//! A value of a non-recursive datatype with constructors `C0 … Cn-1` is the tuple: its
//! constructor's index (the *tag*, only when `n > 1`), then for every constructor in
//! declaration order the tuples of its fields — the value's own fields for its constructor,
//! the default of each component's sort (0, false, constant arrays of those) for the others.
//! An array whose element sort has `k` components is `k` arrays, each curried over the
//! components of the index sort. Index sorts with a tag are refused: their flat index tuples
//! include tuples that stand for no value, where `store` cannot be mirrored.
//!
//! # Soundness (what the checker relies on)
//! For every model `M` of a query `φ`, the flat query `⟦φ⟧` has the model that maps every
//! flat component variable to the matching component of the canonical tuple of its
//! original's value, and every fresh variable standing for a selector applied to a value of
//! another constructor to the value `M` gives that application. Every translated operator
//! maps canonical tuples to the canonical tuple of its result; both forms of equality used
//! below are true of canonical tuples exactly when the values are equal; every side
//! condition (tags in range) holds of canonical tuples. So `⟦φ⟧` unsatisfiable implies `φ`
//! unsatisfiable: the clause whose negation `φ` is, is valid.
//!
//! # Exactness (when a flat model is a counterexample)
//! Equality of datatype values is translated *semantically*: the tags agree and the fields
//! of that constructor agree, the others' fields ignored. That is exact for every flat
//! tuple whose tags are in range, canonical or not, so a flat model is (read back through
//! the tags and the own fields) a model of `φ`. Three things break that, and mark the query
//! *inexact* (a flat model then decides nothing): equality of arrays whose elements carry
//! tags (compared componentwise: sound, but entries no read looks at may differ in fields
//! that mean nothing); a selector applied to another constructor (a fresh value per
//! application, which need not be one function); and tag ranges under a quantifier, which
//! are left out.

use cove_logic::dt::{self, DtOp};
use cove_logic::{Op, Sort, TermId, TermStore, Value, VarId, free_vars};
use rustc_hash::{FxHashMap, FxHashSet};

/// A flattened checker query.
pub(crate) struct FlatQuery {
    /// The flat query: it has a model whenever the original has one.
    pub query: TermId,
    /// Whether every model of `query` stands for a model of the original (module docs).
    pub exact: bool,
}

/// Whether `t` mentions a datatype: in the sort of a subterm or of a bound variable
/// (iterative over the term DAG).
pub(crate) fn mentions_dt(store: &TermStore, t: TermId) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        if dt::mentions_dt(store.sort(t)) {
            return true;
        }
        if let Op::Forall(vs) | Op::Exists(vs) = store.op(t)
            && vs.iter().any(|&v| dt::mentions_dt(store.var_sort(v)))
        {
            return true;
        }
        stack.extend_from_slice(store.args(t));
    }
    false
}

/// Flattens the Bool query `t` (module docs): `⟦t⟧` with the tag-range side conditions.
/// An error names what this reading does not cover (recursive datatypes, arrays indexed
/// by a sort with a tag, quantifiers other than extensional array equalities, functions
/// over datatypes); the caller then decides the query otherwise or leaves it undecided.
pub(crate) fn flatten(store: &mut TermStore, t: TermId) -> Result<FlatQuery, String> {
    let mut f = Flattener::default();
    let r = f.term(store, t)?;
    let mut parts = std::mem::take(&mut f.side);
    parts.push(r[0]);
    Ok(FlatQuery {
        query: store.mk_and(&parts),
        exact: f.exact,
    })
}

/// One flat component of a sort.
#[derive(Clone, Copy, Debug)]
struct Comp {
    sort: Sort,
    /// The number of constructors when the component is a tag of the value (not one inside
    /// an array), else 0.
    tag: usize,
}

struct Flattener {
    /// Flat components of the terms translated so far.
    memo: FxHashMap<TermId, Vec<TermId>>,
    /// Flat component terms of the original variables.
    vars: FxHashMap<VarId, Vec<TermId>>,
    layouts: FxHashMap<Sort, Vec<Comp>>,
    /// Tag-range side conditions.
    side: Vec<TermId>,
    /// Variables bound by a quantifier of the query.
    bound: FxHashSet<VarId>,
    exact: bool,
}

impl Default for Flattener {
    fn default() -> Self {
        Flattener {
            memo: FxHashMap::default(),
            vars: FxHashMap::default(),
            layouts: FxHashMap::default(),
            side: vec![],
            bound: FxHashSet::default(),
            exact: true,
        }
    }
}

impl Flattener {
    /// The components of `sort` (module docs), memoized. Recursive over the nesting of the
    /// sort's declaration (bounded by the parser's limits), never over a term.
    fn layout(&mut self, sort: Sort) -> Result<Vec<Comp>, String> {
        if let Some(l) = self.layouts.get(&sort) {
            return Ok(l.clone());
        }
        let out = if !dt::mentions_dt(sort) {
            vec![Comp { sort, tag: 0 }]
        } else if let Some((i, e)) = sort.array_parts() {
            if self.has_tag(i)? {
                return Err(format!(
                    "an array indexed by a datatype with several constructors ({sort})"
                ));
            }
            let idx: Vec<Sort> = self.layout(i)?.iter().map(|c| c.sort).collect();
            self.layout(e)?
                .into_iter()
                .map(|c| Comp {
                    sort: idx.iter().rev().fold(c.sort, |s, &ix| Sort::array(ix, s)),
                    tag: 0,
                })
                .collect()
        } else {
            if dt::is_recursive(sort) {
                return Err(format!("a recursive datatype ({})", dt::name(sort)));
            }
            let d = dt::def(sort).ok_or_else(|| format!("an undefined datatype ({sort})"))?;
            let n = d.ctors.len();
            let mut out = vec![];
            if n > 1 {
                out.push(Comp {
                    sort: Sort::Int,
                    tag: n,
                });
            }
            for c in &d.ctors {
                for f in &c.fields {
                    out.extend(self.layout(f.1)?);
                }
            }
            out
        };
        self.layouts.insert(sort, out.clone());
        Ok(out)
    }

    /// Whether a value of `sort` has a tag anywhere in its components (inside arrays too).
    fn has_tag(&mut self, sort: Sort) -> Result<bool, String> {
        if !dt::mentions_dt(sort) {
            return Ok(false);
        }
        if let Some((i, e)) = sort.array_parts() {
            return Ok(self.has_tag(i)? || self.has_tag(e)?);
        }
        if dt::is_recursive(sort) {
            return Err(format!("a recursive datatype ({})", dt::name(sort)));
        }
        let d = dt::def(sort).ok_or_else(|| format!("an undefined datatype ({sort})"))?;
        if d.ctors.len() > 1 {
            return Ok(true);
        }
        for f in &d.ctors[0].fields {
            if self.has_tag(f.1)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The range of the components of field `field` of constructor `ctor` in the layout of
    /// datatype `d`.
    fn field_range(
        &mut self,
        d: Sort,
        ctor: u32,
        field: u32,
    ) -> Result<std::ops::Range<usize>, String> {
        let def = dt::def(d).ok_or_else(|| format!("an undefined datatype ({d})"))?;
        let mut at = usize::from(def.ctors.len() > 1);
        for (ci, c) in def.ctors.iter().enumerate() {
            for (fi, f) in c.fields.iter().enumerate() {
                let k = self.layout(f.1)?.len();
                if ci as u32 == ctor && fi as u32 == field {
                    return Ok(at..at + k);
                }
                at += k;
            }
        }
        Err("a selector of no field".into())
    }

    /// Asserts that the tags among `comps` (of a value of `sort`) are in range; under a
    /// quantifier (the components mention a bound variable) they are left out, which only
    /// weakens the flat query, and it becomes inexact.
    fn ranges(
        &mut self,
        store: &mut TermStore,
        sort: Sort,
        comps: &[TermId],
    ) -> Result<(), String> {
        let lay = self.layout(sort)?;
        if lay.iter().all(|c| c.tag == 0) {
            return Ok(());
        }
        if !self.bound.is_empty()
            && comps
                .iter()
                .any(|&c| free_vars(store, c).iter().any(|v| self.bound.contains(v)))
        {
            self.exact = false;
            return Ok(());
        }
        for (c, &t) in lay.iter().zip(comps) {
            if c.tag > 0 {
                let zero = store.mk_int(0);
                let hi = store.mk_int(c.tag as i64 - 1);
                self.side.push(store.mk_le(zero, t));
                self.side.push(store.mk_le(t, hi));
            }
        }
        Ok(())
    }

    /// Fresh component variables for a value of `sort` (tags in range).
    fn fresh(
        &mut self,
        store: &mut TermStore,
        name: &str,
        sort: Sort,
    ) -> Result<Vec<TermId>, String> {
        let lay = self.layout(sort)?;
        let out: Vec<TermId> = lay
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let v = store.fresh_var(&format!("{name}~{k}"), c.sort);
                store.mk_var(v)
            })
            .collect();
        self.ranges(store, sort, &out)?;
        Ok(out)
    }

    /// The values of `sort` with components `x` and `y` are equal: semantically for
    /// datatypes (the tags agree and so do the fields of that constructor), componentwise
    /// for arrays (inexact when their elements carry tags). Recursive over the sort's
    /// nesting only.
    fn eq(
        &mut self,
        store: &mut TermStore,
        sort: Sort,
        x: &[TermId],
        y: &[TermId],
    ) -> Result<TermId, String> {
        if !dt::mentions_dt(sort) {
            return Ok(store.mk_eq(x[0], y[0]));
        }
        if let Some((_, e)) = sort.array_parts() {
            if self.has_tag(e)? {
                self.exact = false;
            }
            let parts: Vec<TermId> = x.iter().zip(y).map(|(&p, &q)| store.mk_eq(p, q)).collect();
            return Ok(store.mk_and(&parts));
        }
        let d = dt::def(sort).ok_or_else(|| format!("an undefined datatype ({sort})"))?;
        let n = d.ctors.len();
        let mut parts = vec![];
        if n > 1 {
            parts.push(store.mk_eq(x[0], y[0]));
        }
        // A side built by a constructor has a known tag: only its fields can differ.
        let known = [x[0], y[0]]
            .into_iter()
            .find(|&t| n > 1 && matches!(store.op(t), Op::Num(_)));
        let mut at = usize::from(n > 1);
        for (ci, c) in d.ctors.iter().enumerate() {
            let ct = store.mk_int(ci as i64);
            let skip = known.is_some_and(|k| k != ct);
            for f in &c.fields {
                let k = self.layout(f.1)?.len();
                if !skip {
                    let e = self.eq(store, f.1, &x[at..at + k], &y[at..at + k])?;
                    parts.push(if n > 1 && known.is_none() {
                        let is = store.mk_eq(x[0], ct);
                        store.mk_implies(is, e)
                    } else {
                        e
                    });
                }
                at += k;
            }
        }
        Ok(store.mk_and(&parts))
    }

    /// The flat components of `root` (post-order with an explicit stack).
    fn term(&mut self, store: &mut TermStore, root: TermId) -> Result<Vec<TermId>, String> {
        let mut stack = vec![(root, false)];
        while let Some((t, done)) = stack.pop() {
            if self.memo.contains_key(&t) {
                continue;
            }
            if !done {
                match store.op(t) {
                    Op::Forall(vs) | Op::Exists(vs)
                        if vs.iter().any(|&v| dt::mentions_dt(store.var_sort(v))) =>
                    {
                        return Err("a quantifier over datatypes".into());
                    }
                    Op::Exists(_) if mentions_dt(store, t) => {
                        return Err("an existential quantifier over datatype terms".into());
                    }
                    Op::Forall(vs) => self.bound.extend(vs.iter().copied()),
                    _ => {}
                }
                stack.push((t, true));
                for &a in store.args(t) {
                    if !self.memo.contains_key(&a) {
                        stack.push((a, false));
                    }
                }
                continue;
            }
            let r = self.node(store, t)?;
            self.memo.insert(t, r);
        }
        Ok(self.memo[&root].clone())
    }

    fn node(&mut self, store: &mut TermStore, t: TermId) -> Result<Vec<TermId>, String> {
        let op = store.op(t).clone();
        let args: Vec<TermId> = store.args(t).to_vec();
        let sort = store.sort(t);
        let a = |s: &Self, i: usize| s.memo[&args[i]].clone();
        Ok(match op {
            Op::Var(v) if dt::mentions_dt(sort) => {
                if let Some(cs) = self.vars.get(&v) {
                    cs.clone()
                } else {
                    let name = store.var_name(v).to_string();
                    let cs = self.fresh(store, &name, sort)?;
                    self.vars.insert(v, cs.clone());
                    cs
                }
            }
            Op::Dt(DtOp::Ctor(c)) => {
                let d = dt::def(sort).ok_or_else(|| format!("an undefined datatype ({sort})"))?;
                let mut out = vec![];
                if d.ctors.len() > 1 {
                    out.push(store.mk_int(c as i64));
                }
                for (ci, ctor) in d.ctors.iter().enumerate() {
                    for (fi, f) in ctor.fields.iter().enumerate() {
                        if ci as u32 == c {
                            out.extend(a(self, fi));
                        } else {
                            for comp in self.layout(f.1)? {
                                out.push(Value::default_of(comp.sort).to_term(store, comp.sort));
                            }
                        }
                    }
                }
                out
            }
            Op::Dt(DtOp::Sel { dt: d, ctor, field }) => {
                let x = a(self, 0);
                let r = self.field_range(d, ctor, field)?;
                let mine = x[r].to_vec();
                let def = dt::def(d).ok_or_else(|| format!("an undefined datatype ({d})"))?;
                if def.ctors.len() == 1 {
                    mine
                } else {
                    // SMT-LIB leaves the selector's value on another constructor unspecified:
                    // a fresh value (per application; see the module docs on exactness).
                    if !self.bound.is_empty()
                        && free_vars(store, args[0])
                            .iter()
                            .any(|v| self.bound.contains(v))
                    {
                        return Err("a selector of a sum type under a quantifier".into());
                    }
                    self.exact = false;
                    let fsort = def.ctors[ctor as usize].fields[field as usize].1;
                    let w = self.fresh(store, "sel", fsort)?;
                    let c = store.mk_int(ctor as i64);
                    let is = store.mk_eq(x[0], c);
                    mine.into_iter()
                        .zip(w)
                        .map(|(m, w)| store.mk_ite(is, m, w))
                        .collect()
                }
            }
            Op::Dt(DtOp::Test { dt: d, ctor }) => {
                let def = dt::def(d).ok_or_else(|| format!("an undefined datatype ({d})"))?;
                if def.ctors.len() == 1 {
                    vec![store.mk_true()]
                } else {
                    let x = a(self, 0);
                    let c = store.mk_int(ctor as i64);
                    vec![store.mk_eq(x[0], c)]
                }
            }
            Op::Eq | Op::Distinct if dt::mentions_dt(store.sort(args[0])) => {
                let asort = store.sort(args[0]);
                let cs: Vec<Vec<TermId>> = (0..args.len()).map(|i| a(self, i)).collect();
                let mut parts = vec![];
                if op == Op::Eq {
                    for w in cs.windows(2) {
                        parts.push(self.eq(store, asort, &w[0], &w[1])?);
                    }
                } else {
                    for i in 0..cs.len() {
                        for j in i + 1..cs.len() {
                            let e = self.eq(store, asort, &cs[i], &cs[j])?;
                            parts.push(store.mk_not(e));
                        }
                    }
                }
                vec![store.mk_and(&parts)]
            }
            Op::Ite if dt::mentions_dt(sort) => {
                let c = a(self, 0)[0];
                let (x, y) = (a(self, 1), a(self, 2));
                x.into_iter()
                    .zip(y)
                    .map(|(p, q)| store.mk_ite(c, p, q))
                    .collect()
            }
            Op::Select if dt::mentions_dt(store.sort(args[0])) => {
                let (arr, idx) = (a(self, 0), a(self, 1));
                let out: Vec<TermId> = arr
                    .into_iter()
                    .map(|c| idx.iter().fold(c, |c, &i| store.mk_select(c, i)))
                    .collect();
                self.ranges(store, sort, &out)?;
                out
            }
            Op::Store if dt::mentions_dt(sort) => {
                let (arr, idx, val) = (a(self, 0), a(self, 1), a(self, 2));
                arr.into_iter()
                    .zip(val)
                    .map(|(c, v)| curried_store(store, c, &idx, v))
                    .collect()
            }
            Op::ConstArray if dt::mentions_dt(sort) => {
                let (i, _) = sort.array_parts().expect("array sort");
                let k = self.layout(i)?.len();
                let val = a(self, 0);
                let lay = self.layout(sort)?;
                val.into_iter()
                    .zip(lay)
                    .map(|(v, c)| curried_const(store, c.sort, k, v))
                    .collect()
            }
            Op::Forall(vs) => {
                let body = a(self, 0)[0];
                vec![
                    extensional(store, &vs, body)
                        .ok_or("a quantifier that is not an extensional array equality")?,
                ]
            }
            _ => {
                if dt::mentions_dt(sort) || args.iter().any(|&x| dt::mentions_dt(store.sort(x))) {
                    return Err(format!("an operator over datatypes ({op:?})"));
                }
                let flat: Vec<TermId> = (0..args.len()).map(|i| a(self, i)[0]).collect();
                if flat == args {
                    vec![t]
                } else {
                    vec![store.mk_raw(op, &flat, sort)]
                }
            }
        })
    }
}

/// `(store a i1 (store (select a i1) i2 … v))`: a store into an array curried over the
/// index components `idx` (none: the array is its only element).
fn curried_store(store: &mut TermStore, a: TermId, idx: &[TermId], v: TermId) -> TermId {
    // Innermost first: the arrays read on the way down, then the stores on the way up.
    let mut arrays = vec![a];
    for &i in &idx[..idx.len().saturating_sub(1)] {
        let last = *arrays.last().expect("non-empty");
        arrays.push(store.mk_select(last, i));
    }
    let mut val = v;
    for (k, &i) in idx.iter().enumerate().rev() {
        val = store.mk_store(arrays[k], i, val);
    }
    val
}

/// The constant array of sort `sort`, curried `k` levels deep, with `v` everywhere.
fn curried_const(store: &mut TermStore, sort: Sort, k: usize, v: TermId) -> TermId {
    let mut sorts = vec![sort];
    for _ in 1..k {
        let inner = sorts
            .last()
            .and_then(|s| s.elem_sort())
            .expect("curried array sort");
        sorts.push(inner);
    }
    let mut val = v;
    for s in sorts[..k].iter().rev() {
        val = store.mk_const_array(*s, val);
    }
    val
}

/// `(forall (vs) body)` over a flat body, as a quantifier-free formula when the body is a
/// conjunction of equalities each of which, read as a function of the bound variables, is
/// an equality of two arrays: `∀i. P[i] = Q[i]` is `P = Q` (extensionality), for `P[i]`
/// given as a read `(select P i)`, an `ite` on a condition free of `i`, a term free of `i`
/// (a constant array) or `(ite (= i j) x R[i])` (a store). Conjuncts free of `vs` stay as
/// they are (the sorts are inhabited). `None` for any other body: the query is then not
/// decided. Variables are abstracted innermost (last) first, matching curried arrays.
fn extensional(store: &mut TermStore, vs: &[VarId], body: TermId) -> Option<TermId> {
    let mut conj = vec![];
    let mut stack = vec![body];
    while let Some(t) = stack.pop() {
        match store.op(t) {
            Op::And => stack.extend_from_slice(store.args(t)),
            _ => conj.push(t),
        }
    }
    let mut out = vec![];
    for c in conj {
        let fv = free_vars(store, c);
        if !vs.iter().any(|v| fv.contains(v)) {
            out.push(c);
            continue;
        }
        if !matches!(store.op(c), Op::Eq) || store.args(c).len() != 2 {
            return None;
        }
        let (mut l, mut r) = (store.args(c)[0], store.args(c)[1]);
        for &v in vs.iter().rev() {
            l = abstract_var(store, l, v)?;
            r = abstract_var(store, r, v)?;
        }
        out.push(store.mk_eq(l, r));
    }
    Some(store.mk_and(&out))
}

/// An array `A` with `(select A v) = t` for every value of `v` (see [`extensional`]):
/// iterative over the spine of `ite`s, each condition and value checked free of `v`.
fn abstract_var(store: &mut TermStore, t: TermId, v: VarId) -> Option<TermId> {
    let isort = store.var_sort(v);
    let free_of = |store: &TermStore, t: TermId| !free_vars(store, t).contains(&v);
    let is_v = |store: &TermStore, t: TermId| matches!(store.op(t), Op::Var(w) if *w == v);
    // The spine: (condition, then-array) pairs for `ite`s with a condition free of `v`
    // are kept as a tree; `(ite (= v j) x rest)` becomes a store over `rest`.
    enum Frame {
        Ite(TermId, TermId),
        IteElse(TermId, TermId),
        Store(TermId, TermId),
    }
    let mut frames: Vec<Frame> = vec![];
    let mut cur = t;
    loop {
        // Descend until a leaf.
        let leaf = if free_of(store, cur) {
            let s = Sort::array(isort, store.sort(cur));
            store.mk_const_array(s, cur)
        } else {
            let args = store.args(cur).to_vec();
            match store.op(cur) {
                Op::Select if is_v(store, args[1]) && free_of(store, args[0]) => args[0],
                Op::Ite if free_of(store, args[0]) => {
                    frames.push(Frame::Ite(args[0], args[2]));
                    cur = args[1];
                    continue;
                }
                Op::Ite if matches!(store.op(args[0]), Op::Eq) && free_of(store, args[1]) => {
                    let (p, q) = (store.args(args[0])[0], store.args(args[0])[1]);
                    let j = if is_v(store, p) && free_of(store, q) {
                        q
                    } else if is_v(store, q) && free_of(store, p) {
                        p
                    } else {
                        return None;
                    };
                    frames.push(Frame::Store(j, args[1]));
                    cur = args[2];
                    continue;
                }
                _ => return None,
            }
        };
        // Ascend, combining, until a pending else-branch or the root.
        let mut val = leaf;
        loop {
            match frames.pop() {
                None => return Some(val),
                Some(Frame::Store(j, x)) => val = store.mk_store(val, j, x),
                Some(Frame::Ite(c, els)) => {
                    frames.push(Frame::IteElse(c, val));
                    cur = els;
                    break;
                }
                Some(Frame::IteElse(c, then)) => val = store.mk_ite(c, then, val),
            }
        }
    }
}
