//! Flattening of non-recursive algebraic datatypes (records and enumerations) into their
//! components, with the back-translation of witnesses.
//!
//! # Representation
//! A value of a non-recursive datatype `D` with constructors `C0..Cn-1` is represented by
//! *components* ([`layout`]): an Int *tag* (only when `n > 1`) followed by the components of
//! every field of every constructor. An array whose index or element sort mentions a
//! datatype becomes one curried array per element component,
//! `(Array I E)` ↦ `(Array i1 (Array i2 … e_j))` for the components `i1…ik` of `I`.
//!
//! The *canonical* representation of a value has its tag in range and the default value of
//! its sort in every field of the other constructors; a flat tuple whose tag is in range
//! stands for the value its tag and that constructor's fields say, whatever the other
//! fields hold (they are *junk*, `value_of` ignores them). The translation [`Flattener`]
//! of a term maps constructors to canonical tuples, selectors to the matching field (a
//! selector of another constructor — SMT-LIB's unspecified value — to a fresh variable),
//! testers to tag comparisons, and gives every source of values (variables, wrong-selector
//! values, array reads) tag-range side conditions.
//!
//! Equality is where junk matters: componentwise equality implies the values' equality but
//! not the converse (`s = rect(w s, h s)` fails componentwise when the `circle` field of `s`
//! is not 0). It is used where it is exact (records and enumerations, arrays of them) and
//! at positive occurrences in a flat system; elsewhere an equality is *semantic* — the tags
//! agree and so do the fields of that constructor — exact for every tuple
//! (`Flattener::eq_at`). Arrays whose elements have tags can hold junk in entries no read
//! looks at; a semantic disequality of them needs a witness index (an existential, so only
//! a negative occurrence of their equality is translated in a system, and an occurrence
//! under both polarities is refused). Arrays *indexed* by a type with a tag are not
//! flattened at all: their flat entries at junk indices would be unconstrained entries no
//! original array has ([`layout`] is `None`).
//!
//! # Soundness
//! *Checker direction* ([`flatten_formula`], used by [`crate::cert`]): for every model `M`
//! of a formula `φ` over datatypes, `flat(φ)` has the model that gives each flat variable
//! the canonical representation of its original's value in `M` (and each wrong-selector
//! variable the value `M` gives that selector application): every translated operator maps
//! canonical arguments to canonical results, both forms of equality are exact on canonical
//! tuples, and the side conditions hold. Hence `flat(φ)` unsatisfiable implies `φ`
//! unsatisfiable, the direction the validity check of an invariant needs. A model of
//! `flat(φ)` is a model of `φ` (through `value_of`) when the translation is *exact*: no
//! componentwise equality of junk-capable arrays and no wrong-constructor selector (whose
//! fresh values need not be one function).
//!
//! *System direction* ([`flatten_system`]): every instance of an original clause has a flat
//! instance (the canonical one), so flat invariants translate back; and every flat instance
//! is, through `value_of`, an instance of the original clause when no wrong-constructor
//! selector is involved, since every equality at a negative occurrence is semantic. A flat
//! derivation through wrong selectors uses a fresh value per clause instance, which the
//! checker accepts only if the derivation holds whatever the selector's values are.
//!
//! Recursive datatypes (lists, trees) are infinite and not flattened ([`flatten_system`]
//! refuses them).

use crate::result::{Derivation, Invariants};
use crate::system::{ChcSystem, Clause, PredApp};
use cove_logic::dt::{self, DtOp};
use cove_logic::{ArrayValue, DtValue, FuncId, Op, Sort, TermId, TermStore, Value, VarId};
use rustc_hash::{FxHashMap, FxHashSet};

/// One step of a component path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The constructor tag.
    Tag,
    /// Field `f` of constructor `c`.
    Field(u32, u32),
    /// The element of an array (the component is a curried array over the index components).
    Elem,
}

/// One component of a sort: its flat sort and its path in the original value.
#[derive(Clone, Debug)]
pub struct Comp {
    /// The flat sort.
    pub sort: Sort,
    /// The path.
    pub path: Vec<Step>,
}

/// Whether the term mentions a datatype sort anywhere (iteratively over the DAG).
pub fn term_mentions_dt(store: &TermStore, t: TermId) -> bool {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        if dt::mentions_dt(store.sort(t)) || matches!(store.op(t), Op::Dt(_)) {
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

/// Whether the system mentions datatypes.
pub fn system_mentions_dt(store: &TermStore, sys: &ChcSystem) -> bool {
    sys.preds
        .iter()
        .any(|&p| store.func(p).args.iter().any(|&s| dt::mentions_dt(s)))
        || sys.clauses.iter().any(|c| {
            c.vars.iter().any(|&v| dt::mentions_dt(store.var_sort(v)))
                || term_mentions_dt(store, c.constraint)
        })
}

/// Why a sort has no [`layout`].
const NOT_FLAT: &str =
    "a datatype that is not flattened (recursive, or an array indexed by a sum type)";

/// The components of `sort` (recursive over the sort's nesting, bounded by the parser's
/// depth limit on declarations). `None` for a recursive datatype and for an array whose
/// index has a constructor tag (a sum type or an enumeration, also nested in a record).
pub fn layout(sort: Sort) -> Option<Vec<Comp>> {
    if !dt::mentions_dt(sort) {
        return Some(vec![Comp { sort, path: vec![] }]);
    }
    if let Some((i, e)) = sort.array_parts() {
        let idx_lay = layout(i)?;
        // An index with a tag has flat index tuples that stand for no value (a tag out of
        // range, or a field of another constructor that is not the default): the flat array
        // has entries there that no original array has, and neither componentwise equality
        // nor `store` can be made exact on them (module docs). Such arrays stay unflattened.
        if idx_lay.iter().any(|c| c.path.contains(&Step::Tag)) {
            return None;
        }
        let idx: Vec<Sort> = idx_lay.into_iter().map(|c| c.sort).collect();
        let mut out = vec![];
        for c in layout(e)? {
            let mut s = c.sort;
            for &k in idx.iter().rev() {
                s = Sort::array(k, s);
            }
            let mut path = vec![Step::Elem];
            path.extend(c.path);
            out.push(Comp { sort: s, path });
        }
        return Some(out);
    }
    if dt::is_recursive(sort) {
        return None;
    }
    let d = dt::def(sort)?;
    let mut out = vec![];
    if d.ctors.len() > 1 {
        out.push(Comp {
            sort: Sort::Int,
            path: vec![Step::Tag],
        });
    }
    for (ci, c) in d.ctors.iter().enumerate() {
        for (fi, f) in c.fields.iter().enumerate() {
            for sub in layout(f.1)? {
                let mut path = vec![Step::Field(ci as u32, fi as u32)];
                path.extend(sub.path);
                out.push(Comp {
                    sort: sub.sort,
                    path,
                });
            }
        }
    }
    Some(out)
}

/// The number of index components of an array sort that mentions datatypes.
fn index_comps(sort: Sort) -> Option<Vec<Sort>> {
    let (i, _) = sort.array_parts()?;
    Some(layout(i)?.into_iter().map(|c| c.sort).collect())
}

/// Translates terms over datatypes into terms over their components.
pub struct Flattener {
    memo: FxHashMap<TermId, Vec<TermId>>,
    /// Original variable -> its component variables.
    pub vars: FxHashMap<VarId, Vec<VarId>>,
    /// Fresh variables created (component variables, wrong-selector values and the witness
    /// indices of array disequalities).
    pub fresh: Vec<VarId>,
    /// Side conditions (tag ranges, see `Flattener::ranges`) that canonical
    /// representations satisfy.
    pub side: Vec<TermId>,
    /// Original predicate -> flat predicate.
    pub preds: FxHashMap<FuncId, FuncId>,
    /// Variables bound by a quantifier of the translated term (their values vary inside the
    /// quantifier, so a wrong-constructor selector applied to a term mentioning them is
    /// unconstrained per value of them: a fresh array read at them).
    bound: Vec<VarId>,
    /// System mode ([`flatten_system`]): every flat solution must translate back, so
    /// equalities are translated by the polarity of their occurrence (`polarity`,
    /// [`Flattener::eq_at`]). Off for checker queries ([`flatten_formula`]), which need the
    /// canonical embedding of every original model, and exactness where it is cheap.
    system: bool,
    /// The polarities (bit 1 positive, bit 2 negative) of the translated formula's
    /// subterms ([`polarities`]); a term not listed counts as both.
    polarity: FxHashMap<TermId, u8>,
    /// Whether every model of the flat formula stands for a model of the original (no
    /// componentwise equality of junk-capable values, no wrong-constructor selector): a
    /// checker counterexample is then a real one.
    pub exact: bool,
}

/// A translation failure.
pub type FlatError = String;

impl Default for Flattener {
    fn default() -> Self {
        Flattener::new()
    }
}

impl Flattener {
    /// A flattener with no variables mapped yet.
    pub fn new() -> Flattener {
        Flattener {
            memo: FxHashMap::default(),
            vars: FxHashMap::default(),
            fresh: vec![],
            side: vec![],
            preds: FxHashMap::default(),
            bound: vec![],
            system: false,
            polarity: FxHashMap::default(),
            exact: true,
        }
    }

    /// The component variables of `v` (created on first use).
    pub fn var_comps(&mut self, store: &mut TermStore, v: VarId) -> Result<Vec<VarId>, FlatError> {
        if let Some(c) = self.vars.get(&v) {
            return Ok(c.clone());
        }
        let sort = store.var_sort(v);
        let comps = if dt::mentions_dt(sort) {
            let name = store.var_name(v).to_string();
            let out = self.fresh_comps(store, &name, sort)?;
            // (Only the tags' terms are made here: the order in which terms are created
            // orients equalities, which engines are sensitive to.)
            let mut tags = vec![];
            tag_positions(sort, 0, &mut tags)?;
            for (i, n) in tags {
                let t = store.mk_var(out[i]);
                let mut conds = vec![];
                tag_range(store, t, n, &mut conds);
                self.side.extend(conds);
            }
            out
        } else {
            vec![v]
        };
        self.vars.insert(v, comps.clone());
        Ok(comps)
    }

    /// Fresh component variables for a value of `sort` (without side conditions).
    fn fresh_comps(
        &mut self,
        store: &mut TermStore,
        name: &str,
        sort: Sort,
    ) -> Result<Vec<VarId>, FlatError> {
        let lay = layout(sort).ok_or(NOT_FLAT)?;
        let mut out = vec![];
        for c in &lay {
            let nv = store.fresh_var(name, c.sort);
            self.fresh.push(nv);
            out.push(nv);
        }
        Ok(out)
    }

    /// Adds the tag-range side conditions of a value of `sort` with components `comps`
    /// (its tag and the tags of its datatype fields, recursively, not inside arrays): every
    /// *source* of a flat datatype value — a variable, a wrong-constructor selector, an
    /// array read — gets them, so a tester reads a real constructor. Under a quantifier
    /// (the components mention bound variables) they are left out: leaving out a conjunct
    /// only weakens a checker query, and in a flat system only costs exactness of
    /// witnesses, which the checker catches.
    fn ranges(
        &mut self,
        store: &mut TermStore,
        sort: Sort,
        comps: &[TermId],
    ) -> Result<(), FlatError> {
        let mut tags = vec![];
        tag_positions(sort, 0, &mut tags)?;
        if tags.is_empty() {
            return Ok(());
        }
        let mut conds = vec![];
        for (i, n) in tags {
            tag_range(store, comps[i], n, &mut conds);
        }
        if !self.bound.is_empty() {
            let fv = cove_logic::subst::free_vars_in_order(store, comps);
            if fv.iter().any(|v| self.bound.contains(v)) {
                self.exact = false;
                return Ok(());
            }
        }
        self.side.extend(conds);
        Ok(())
    }

    /// A flat formula equivalent to "the values with components `x` and `y` (of `sort`)
    /// differ" for every flat value, canonical or not: the tags differ, or they agree and a
    /// field *of that constructor* differs (the other constructors' fields mean nothing),
    /// recursively. For an array whose elements can hold junk ([`junk_capable`]) the
    /// elements at a fresh witness index differ — an existential, so the caller uses the
    /// formula at positive occurrences only.
    fn sem_neq(
        &mut self,
        store: &mut TermStore,
        sort: Sort,
        x: &[TermId],
        y: &[TermId],
    ) -> Result<TermId, FlatError> {
        if cw_exact(sort) {
            let e = componentwise_eq(store, x, y);
            return Ok(store.mk_not(e));
        }
        if let Some((i, e)) = sort.array_parts() {
            let k = self.fresh_comps(store, "k", i)?;
            let kt: Vec<TermId> = k.iter().map(|&v| store.mk_var(v)).collect();
            let read = |store: &mut TermStore, a: &[TermId]| -> Vec<TermId> {
                a.iter()
                    .map(|&c| kt.iter().fold(c, |c, &j| store.mk_select(c, j)))
                    .collect()
            };
            let (xr, yr) = (read(store, x), read(store, y));
            self.ranges(store, e, &xr)?;
            self.ranges(store, e, &yr)?;
            return self.sem_neq(store, e, &xr, &yr);
        }
        let d = dt::def(sort).ok_or("undefined datatype")?;
        let n = d.ctors.len();
        let mut parts = vec![];
        if n > 1 {
            let e = store.mk_eq(x[0], y[0]);
            parts.push(store.mk_not(e));
        }
        // One side's constructor known (a constructor term, `defObj`): when the tags agree
        // they are that one, and only its fields can differ.
        let known = [x[0], y[0]]
            .into_iter()
            .find(|&t| n > 1 && matches!(store.op(t), Op::Num(_)));
        let mut at = usize::from(n > 1);
        for (ci, c) in d.ctors.iter().enumerate() {
            let ct = store.mk_int(ci as i64);
            let skip = known.is_some_and(|k| k != ct);
            for f in &c.fields {
                let k = layout(f.1).ok_or(NOT_FLAT)?.len();
                if skip {
                    at += k;
                    continue;
                }
                let sub = self.sem_neq(store, f.1, &x[at..at + k], &y[at..at + k])?;
                parts.push(if n > 1 {
                    let is = store.mk_eq(x[0], ct);
                    store.mk_and(&[is, sub])
                } else {
                    sub
                });
                at += k;
            }
        }
        Ok(store.mk_or(&parts))
    }

    /// The flat translation of an equality between values of `sort` with components `x`,
    /// `y`, occurring with polarity `pol` (bit 1 positive, bit 2 negative).
    ///
    /// Componentwise equality implies the values' equality but is implied by it only where
    /// no constructor has fields that another one ignores ([`cw_exact`]): `s = rect(w s, h
    /// s)` is false componentwise when the (meaningless) `circle` field of `s` is not 0, and
    /// engines then derive counterexamples that do not exist. So componentwise equality is
    /// used where it is exact and at positive occurrences (where only "flat true ⇒ true"
    /// matters for a flat model to stand for an original one, it holds in the canonical
    /// embedding, and it keeps the copies that solve-eqs eliminates: the checker's heap
    /// queries got 2.5× slower without); elsewhere the negation of
    /// [`Flattener::sem_neq`], exact both ways. For values that can hold junk, that
    /// negation has a universal witness, translatable only at a negative occurrence; under
    /// both polarities the checker ([`flatten_formula`]) falls back to the componentwise
    /// form, sound for its direction, and marks the query inexact.
    fn eq_at(
        &mut self,
        store: &mut TermStore,
        sort: Sort,
        x: &[TermId],
        y: &[TermId],
        pol: u8,
    ) -> Result<TermId, FlatError> {
        if cw_exact(sort) || pol == 1 {
            return Ok(componentwise_eq(store, x, y));
        }
        if junk_capable(sort) && pol != 2 {
            if !self.system {
                self.exact = false;
                return Ok(componentwise_eq(store, x, y));
            }
            return Err("an equality of arrays of sum types under both polarities".into());
        }
        let n = self.sem_neq(store, sort, x, y)?;
        Ok(store.mk_not(n))
    }

    /// The flat components of `t` (post-order with an explicit stack).
    pub fn term(&mut self, store: &mut TermStore, root: TermId) -> Result<Vec<TermId>, FlatError> {
        let mut stack = vec![(root, false)];
        while let Some((t, done)) = stack.pop() {
            if self.memo.contains_key(&t) {
                continue;
            }
            if !done {
                if let Op::Forall(vs) | Op::Exists(vs) = store.op(t)
                    && term_mentions_dt(store, t)
                {
                    // Only universal quantifiers over non-datatype variables whose body
                    // is an extensional array equality are translated (`extensional`).
                    if matches!(store.op(t), Op::Exists(_))
                        || vs.iter().any(|&v| dt::mentions_dt(store.var_sort(v)))
                    {
                        return Err("quantifier over datatypes".into());
                    }
                    self.bound.extend(vs.iter().copied());
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

    fn one(&self, t: TermId) -> TermId {
        let c = &self.memo[&t];
        debug_assert_eq!(c.len(), 1);
        c[0]
    }

    fn node(&mut self, store: &mut TermStore, t: TermId) -> Result<Vec<TermId>, FlatError> {
        let op = store.op(t).clone();
        let args: Vec<TermId> = store.args(t).to_vec();
        let sort = store.sort(t);
        let a = |s: &Self, i: usize| s.memo[&args[i]].clone();
        Ok(match op {
            Op::Var(v) => {
                let cs = self.var_comps(store, v)?;
                cs.into_iter().map(|v| store.mk_var(v)).collect()
            }
            Op::Dt(DtOp::Ctor(c)) => {
                let d = dt::def(sort).ok_or("undefined datatype")?;
                let mut out = vec![];
                if d.ctors.len() > 1 {
                    out.push(store.mk_int(c as i64));
                }
                for (ci, ctor) in d.ctors.iter().enumerate() {
                    for (fi, f) in ctor.fields.iter().enumerate() {
                        if ci as u32 == c {
                            out.extend(a(self, fi));
                        } else {
                            for comp in layout(f.1).ok_or(NOT_FLAT)? {
                                out.push(Value::default_of(comp.sort).to_term(store, comp.sort));
                            }
                        }
                    }
                }
                out
            }
            Op::Dt(DtOp::Sel {
                dt: d_sort,
                ctor,
                field,
            }) => {
                let x = a(self, 0);
                let (range, n) = field_range(d_sort, ctor, field)?;
                let mine: Vec<TermId> = x[range].to_vec();
                if n == 1 {
                    mine
                } else {
                    let c = store.mk_int(ctor as i64);
                    let is = store.mk_eq(x[0], c);
                    let lay = layout(sort).ok_or(NOT_FLAT)?;
                    let mut out = vec![];
                    let mut wrong = vec![];
                    // Bound variables the selector's argument depends on: the unspecified
                    // value is then one per value of them (a fresh array read at them).
                    let dep: Vec<VarId> = if self.bound.is_empty() {
                        vec![]
                    } else {
                        let fv = cove_logic::subst::free_vars(store, t);
                        self.bound
                            .iter()
                            .copied()
                            .filter(|v| fv.contains(v))
                            .collect()
                    };
                    for comp in &lay {
                        let mut s = comp.sort;
                        for &b in dep.iter().rev() {
                            s = Sort::array(store.var_sort(b), s);
                        }
                        let w = store.fresh_var("sel", s);
                        self.fresh.push(w);
                        wrong.push(w);
                    }
                    // The checker's flat model may give the unspecified value one value
                    // here and another elsewhere: a counterexample is then not a real one.
                    self.exact = false;
                    if self.system && !dep.is_empty() {
                        return Err("a selector of another constructor under a quantifier".into());
                    }
                    let mut ws = vec![];
                    for w in wrong {
                        let mut w = store.mk_var(w);
                        for &b in &dep {
                            let bt = store.mk_var(b);
                            w = store.mk_select(w, bt);
                        }
                        ws.push(w);
                    }
                    // Tags in range like every other source of values.
                    self.ranges(store, sort, &ws)?;
                    for (m, w) in mine.into_iter().zip(ws) {
                        out.push(store.mk_ite(is, m, w));
                    }
                    out
                }
            }
            Op::Dt(DtOp::Test { dt: d_sort, ctor }) => {
                let d = dt::def(d_sort).ok_or("undefined datatype")?;
                if d.ctors.len() == 1 {
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
                let pol = self.polarity.get(&t).copied().unwrap_or(3);
                let mut parts = vec![];
                if op == Op::Eq {
                    for w in cs.windows(2) {
                        parts.push(self.eq_at(store, asort, &w[0], &w[1], pol)?);
                    }
                } else {
                    // `distinct` is the conjunction of the pairs' disequalities: a positive
                    // occurrence is a negative one of each equality and the reverse.
                    let flip = ((pol & 1) << 1) | ((pol & 2) >> 1);
                    for i in 0..cs.len() {
                        for j in i + 1..cs.len() {
                            let e = self.eq_at(store, asort, &cs[i], &cs[j], flip)?;
                            parts.push(store.mk_not(e));
                        }
                    }
                }
                vec![store.mk_and(&parts)]
            }
            Op::Ite if dt::mentions_dt(sort) => {
                let c = self.one(args[0]);
                let (x, y) = (a(self, 1), a(self, 2));
                x.into_iter()
                    .zip(y)
                    .map(|(p, q)| store.mk_ite(c, p, q))
                    .collect()
            }
            Op::Select if dt::mentions_dt(store.sort(args[0])) => {
                let arr = a(self, 0);
                let idx = a(self, 1);
                let mut out = vec![];
                for mut x in arr {
                    for &i in &idx {
                        x = store.mk_select(x, i);
                    }
                    out.push(x);
                }
                // A flat array may hold out-of-range tags where no read looks; what a read
                // returns has its tags in range.
                self.ranges(store, sort, &out)?;
                out
            }
            Op::Store if dt::mentions_dt(sort) => {
                let arr = a(self, 0);
                let idx = a(self, 1);
                let val = a(self, 2);
                arr.into_iter()
                    .zip(val)
                    .map(|(x, v)| curried_store(store, x, &idx, v))
                    .collect()
            }
            Op::ConstArray if dt::mentions_dt(sort) => {
                let val = a(self, 0);
                let idx = index_comps(sort).ok_or(NOT_FLAT)?;
                let lay = layout(sort).ok_or(NOT_FLAT)?;
                val.into_iter()
                    .zip(lay)
                    .map(|(v, comp)| curried_const(store, comp.sort, idx.len(), v))
                    .collect()
            }
            Op::App(f) => {
                let Some(&g) = self.preds.get(&f) else {
                    return Err(format!(
                        "predicate '{}' has no flat version",
                        store.func(f).name
                    ));
                };
                let flat: Vec<TermId> = (0..args.len()).flat_map(|i| a(self, i)).collect();
                vec![store.mk_app(g, &flat)]
            }
            Op::Forall(vs) => {
                // Over datatypes: universal, over non-datatype variables (checked on the way
                // down). Substituting an invariant can leave a body without the bound
                // variables (`(forall ((i Int)) true)`), which `extensional` also removes.
                let body = self.one(args[0]);
                match extensional(store, &vs, body) {
                    Some(e) => vec![e],
                    None if term_mentions_dt(store, t) => {
                        return Err("quantifier over datatypes".into());
                    }
                    None => vec![t],
                }
            }
            Op::Exists(_) => {
                // No datatypes inside (checked on the way down): unchanged.
                vec![t]
            }
            _ => {
                if dt::mentions_dt(sort) {
                    return Err(format!("unexpected datatype term {op:?}"));
                }
                let flat: Vec<TermId> = (0..args.len()).map(|i| self.one(args[i])).collect();
                if flat == args {
                    vec![t]
                } else {
                    vec![store.mk_raw(op, &flat, sort)]
                }
            }
        })
    }
}

/// The tags of [`Flattener::ranges`] in the components of a value of `sort`: (component
/// index, number of constructors), for the value and its datatype fields, recursively, not
/// inside arrays (recursive over the sort's nesting, bounded by the parser's depth limit on
/// declarations).
fn tag_positions(sort: Sort, at: usize, out: &mut Vec<(usize, usize)>) -> Result<(), FlatError> {
    if !dt::mentions_dt(sort) || sort.is_array() {
        return Ok(());
    }
    let d = dt::def(sort).ok_or("undefined datatype")?;
    let n = d.ctors.len();
    if n > 1 {
        out.push((at, n));
    }
    let mut at = at + usize::from(n > 1);
    for c in &d.ctors {
        for f in &c.fields {
            tag_positions(f.1, at, out)?;
            at += layout(f.1).ok_or(NOT_FLAT)?.len();
        }
    }
    Ok(())
}

/// `0 <= t <= n - 1`.
fn tag_range(store: &mut TermStore, t: TermId, n: usize, out: &mut Vec<TermId>) {
    let zero = store.mk_int(0);
    let hi = store.mk_int(n as i64 - 1);
    out.push(store.mk_le(zero, t));
    out.push(store.mk_le(t, hi));
}

/// Whether componentwise equality of flat values of `sort` is exactly the equality of the
/// values they stand for (for values with tags in range): no sum type with fields (whose
/// other constructors' fields would take part), no array of values with tags (whose
/// unread entries may hold anything).
fn cw_exact(sort: Sort) -> bool {
    if !dt::mentions_dt(sort) {
        return true;
    }
    if let Some((_, e)) = sort.array_parts() {
        return !junk_capable(sort) && cw_exact(e);
    }
    let Some(d) = dt::def(sort) else {
        return false;
    };
    let sum_with_fields = d.ctors.len() > 1 && d.ctors.iter().any(|c| !c.fields.is_empty());
    !sum_with_fields
        && d.ctors
            .iter()
            .all(|c| c.fields.iter().all(|f| cw_exact(f.1)))
}

/// Whether a flat value of `sort` can hold *junk*: an array whose elements have a tag
/// (a sum type or an enumeration, also nested), whose flat entries are not constrained to
/// be canonical everywhere, so two flat arrays for one original array can differ.
fn junk_capable(sort: Sort) -> bool {
    layout(sort).is_some_and(|lay| {
        lay.iter().any(|c| {
            c.path
                .iter()
                .position(|s| *s == Step::Elem)
                .is_some_and(|e| c.path[e..].contains(&Step::Tag))
        })
    })
}

/// `x1 = y1 ∧ … ∧ xk = yk`.
fn componentwise_eq(store: &mut TermStore, x: &[TermId], y: &[TermId]) -> TermId {
    let e: Vec<TermId> = x.iter().zip(y).map(|(&p, &q)| store.mk_eq(p, q)).collect();
    store.mk_and(&e)
}

/// The polarities (bit 1 positive, bit 2 negative) of the subterms of the Bool formula
/// `root` (iterative): `and`/`or`/quantifier bodies keep it, `not` and the premises of `=>`
/// flip it, and every other position (a condition, an argument of a Bool equality, a
/// term inside a non-Bool term) counts as both.
fn polarities(store: &TermStore, root: TermId) -> FxHashMap<TermId, u8> {
    let mut pol: FxHashMap<TermId, u8> = FxHashMap::default();
    let mut stack = vec![(root, 1u8)];
    while let Some((t, p)) = stack.pop() {
        let seen = pol.entry(t).or_insert(0);
        if *seen & p == p {
            continue;
        }
        *seen |= p;
        let flip = ((p & 1) << 1) | ((p & 2) >> 1);
        let args = store.args(t);
        match store.op(t) {
            Op::And | Op::Or | Op::Forall(_) | Op::Exists(_) => {
                stack.extend(args.iter().map(|&a| (a, p)));
            }
            Op::Not => stack.extend(args.iter().map(|&a| (a, flip))),
            Op::Implies => {
                let n = args.len();
                for (i, &a) in args.iter().enumerate() {
                    stack.push((a, if i + 1 == n { p } else { flip }));
                }
            }
            Op::Ite if store.sort(t) == Sort::Bool => {
                stack.push((args[0], 3));
                stack.push((args[1], p));
                stack.push((args[2], p));
            }
            _ => stack.extend(args.iter().map(|&a| (a, 3))),
        }
    }
    pol
}

/// `(forall (vs) body)` as an equality of flat arrays, when `body` is the pointwise equality
/// of two arrays at the bound variables: `(forall ((i I)) (= p q))` is `(= P Q)` for the
/// arrays `P`, `Q` with `P[i] = p`, `Q[i] = q` for every `i` (extensionality; exact). Several
/// bound variables are peeled innermost first (curried arrays).
fn extensional(store: &mut TermStore, vs: &[VarId], body: TermId) -> Option<TermId> {
    let mut body = body;
    for &v in vs.iter().rev() {
        // A body without the variable (`true` after substituting an invariant): itself.
        if !cove_logic::subst::free_vars(store, body).contains(&v) {
            continue;
        }
        if !matches!(store.op(body), Op::Eq) || store.args(body).len() != 2 {
            return None;
        }
        let (p, q) = (store.args(body)[0], store.args(body)[1]);
        if store.sort(p) != store.sort(q) {
            return None;
        }
        let isort = store.var_sort(v);
        let pa = abstract_index(store, p, v, isort)?;
        let qa = abstract_index(store, q, v, isort)?;
        body = store.mk_eq(pa, qa);
    }
    Some(body)
}

/// An array term `A` (free of `v`) with `A[v] = t` for every value of `v`: reads at `v` of
/// arrays free of `v`, terms free of `v` (constant arrays), `ite`s over conditions free of
/// `v` and `(ite (= v j) x rest)` (a `store`). `None` for anything else.
fn abstract_index(store: &mut TermStore, t: TermId, v: VarId, isort: Sort) -> Option<TermId> {
    let mentions =
        |store: &TermStore, t: TermId| cove_logic::subst::free_vars(store, t).contains(&v);
    if !mentions(store, t) {
        let s = Sort::array(isort, store.sort(t));
        return Some(store.mk_const_array(s, t));
    }
    let args = store.args(t).to_vec();
    match store.op(t) {
        Op::Select if matches!(store.op(args[1]), Op::Var(w) if *w == v) => {
            (!mentions(store, args[0])).then_some(args[0])
        }
        Op::Ite => {
            let c = args[0];
            if !mentions(store, c) {
                let a = abstract_index(store, args[1], v, isort)?;
                let b = abstract_index(store, args[2], v, isort)?;
                return Some(store.mk_ite(c, a, b));
            }
            // (ite (= v j) x rest) with j and x free of v: (store rest j x).
            if !matches!(store.op(c), Op::Eq) || mentions(store, args[1]) {
                return None;
            }
            let (l, r) = (store.args(c)[0], store.args(c)[1]);
            let is_v = |t: TermId| matches!(store.op(t), Op::Var(w) if *w == v);
            let j = if is_v(l) && !mentions(store, r) {
                r
            } else if is_v(r) && !mentions(store, l) {
                l
            } else {
                return None;
            };
            let rest = abstract_index(store, args[2], v, isort)?;
            Some(store.mk_store(rest, j, args[1]))
        }
        _ => None,
    }
}

/// The components of field `field` of constructor `ctor` inside the components of `d`, and
/// the number of constructors.
fn field_range(
    d: Sort,
    ctor: u32,
    field: u32,
) -> Result<(std::ops::Range<usize>, usize), FlatError> {
    let def = dt::def(d).ok_or("undefined datatype")?;
    let mut at = usize::from(def.ctors.len() > 1);
    for (ci, c) in def.ctors.iter().enumerate() {
        for (fi, f) in c.fields.iter().enumerate() {
            let k = layout(f.1).ok_or(NOT_FLAT)?.len();
            if ci as u32 == ctor && fi as u32 == field {
                return Ok((at..at + k, def.ctors.len()));
            }
            at += k;
        }
    }
    Err("no such field".into())
}

fn curried_store(store: &mut TermStore, a: TermId, idx: &[TermId], v: TermId) -> TermId {
    match idx {
        [] => v,
        [i] => store.mk_store(a, *i, v),
        [i, rest @ ..] => {
            let inner = store.mk_select(a, *i);
            let inner = curried_store(store, inner, rest, v);
            store.mk_store(a, *i, inner)
        }
    }
}

fn curried_const(store: &mut TermStore, sort: Sort, k: usize, v: TermId) -> TermId {
    if k == 0 {
        return v;
    }
    let elem = sort.elem_sort().expect("curried array");
    let inner = curried_const(store, elem, k - 1, v);
    store.mk_const_array(sort, inner)
}

/// Flattens a Bool formula for a satisfiability check: `flat(t) ∧ side conditions`, over
/// the component variables. Unsatisfiable output implies unsatisfiable input (module docs).
///
/// The second value says whether the translation is *exact*: every model of the output is
/// the canonical representation of a model of the input (no equality over values that can
/// hold junk, no selector of another constructor), so a satisfiable output means a
/// satisfiable input. When it is not, a satisfiable output decides nothing.
pub fn flatten_formula(store: &mut TermStore, t: TermId) -> Result<(TermId, bool), FlatError> {
    let mut f = Flattener::new();
    f.polarity = polarities(store, t);
    let r = f.term(store, t)?;
    let mut parts = f.side.clone();
    parts.push(r[0]);
    Ok((store.mk_and(&parts), f.exact))
}

/// The flat system and what is needed to translate witnesses back.
pub struct FlatSystem {
    /// The flattened system.
    pub system: ChcSystem,
    /// Original predicate -> flat predicate.
    pub preds: FxHashMap<FuncId, FuncId>,
    /// Per clause: original clause variable -> its component variables.
    pub clause_vars: Vec<FxHashMap<VarId, Vec<VarId>>>,
}

/// Flattens every datatype of `sys`; `Err` for recursive datatypes or unsupported uses, and
/// when `ctl` says to stop (polled once per clause: the pass is linear in the system, but a
/// system of many large clauses must not hold a run past its deadline).
pub fn flatten_system(
    store: &mut TermStore,
    sys: &ChcSystem,
    ctl: &cove_control::Control,
) -> Result<FlatSystem, FlatError> {
    let mut preds = FxHashMap::default();
    let mut new_preds = vec![];
    for &p in &sys.preds {
        let d = store.func(p).clone();
        let mut sorts = vec![];
        for &s in d.args.iter() {
            let lay = layout(s).ok_or_else(|| format!("{NOT_FLAT}: {s}"))?;
            sorts.extend(lay.into_iter().map(|c| c.sort));
        }
        let mut k = 0u64;
        let g = loop {
            let name = if k == 0 {
                format!("{}#flat", d.name)
            } else {
                format!("{}#flat{k}", d.name)
            };
            if store.func_by_name(&name).is_none() {
                break store
                    .declare_func(&name, &sorts, Sort::Bool)
                    .map_err(|e| e.0)?;
            }
            k += 1;
        };
        preds.insert(p, g);
        new_preds.push(g);
    }
    let mut clauses = vec![];
    let mut clause_vars = vec![];
    for c in &sys.clauses {
        if let Some(why) = ctl.should_stop() {
            return Err(format!("stopped: {why}"));
        }
        let mut f = Flattener::new();
        f.preds = preds.clone();
        f.system = true;
        f.polarity = polarities(store, c.constraint);
        // Predicate arguments are neither: every term inside them counts as both.
        let mut stack: Vec<TermId> = c
            .body
            .iter()
            .chain(&c.head)
            .flat_map(|a| a.args.clone())
            .collect();
        while let Some(t) = stack.pop() {
            if f.polarity.insert(t, 3) != Some(3) {
                stack.extend_from_slice(store.args(t));
            }
        }
        for &v in &c.vars {
            f.var_comps(store, v)?;
        }
        let app =
            |f: &mut Flattener, store: &mut TermStore, a: &PredApp| -> Result<PredApp, FlatError> {
                let mut args = vec![];
                for &t in &a.args {
                    args.extend(f.term(store, t)?);
                }
                Ok(PredApp {
                    pred: f.preds[&a.pred],
                    args,
                })
            };
        let mut body = vec![];
        for b in &c.body {
            body.push(app(&mut f, store, b)?);
        }
        let head = match &c.head {
            Some(h) => Some(app(&mut f, store, h)?),
            None => None,
        };
        let k = f.term(store, c.constraint)?[0];
        let mut parts = f.side.clone();
        parts.push(k);
        let constraint = store.mk_and(&parts);
        let mut vars: Vec<VarId> = vec![];
        for &v in &c.vars {
            vars.extend(f.vars[&v].iter().copied());
        }
        for &v in &f.fresh {
            if !vars.contains(&v) {
                vars.push(v);
            }
        }
        clauses.push(Clause {
            vars,
            body,
            constraint,
            head,
            origin: c.origin,
        });
        clause_vars.push(c.vars.iter().map(|&v| (v, f.vars[&v].clone())).collect());
    }
    Ok(FlatSystem {
        system: ChcSystem {
            preds: new_preds,
            clauses,
        },
        preds,
        clause_vars,
    })
}

// ----- back-translation -----

/// Term of sort `sort` projecting component `path` (without `Elem`) of original term `u`.
fn project(store: &mut TermStore, mut u: TermId, path: &[Step]) -> Result<TermId, FlatError> {
    for (k, st) in path.iter().enumerate() {
        let sort = store.sort(u);
        let d = dt::def(sort).ok_or("projection of a non-datatype")?;
        match *st {
            Step::Tag => {
                if k + 1 != path.len() {
                    return Err("tag inside a path".into());
                }
                let n = d.ctors.len();
                let mut t = store.mk_int(n as i64 - 1);
                for c in (0..n - 1).rev() {
                    let is = store.mk_test(u, c as u32);
                    let ci = store.mk_int(c as i64);
                    t = store.mk_ite(is, ci, t);
                }
                return Ok(t);
            }
            Step::Field(c, f) => {
                let s = store.mk_sel(u, c, f);
                u = if d.ctors.len() == 1 {
                    s
                } else {
                    let fs = d.ctors[c as usize].fields[f as usize].1;
                    let def = Value::default_of(fs).to_term(store, fs);
                    let is = store.mk_test(u, c);
                    store.mk_ite(is, s, def)
                };
            }
            Step::Elem => return Err("array element inside a projection".into()),
        }
    }
    Ok(u)
}

/// Rebuilds an original term of sort `sort` from its flat components (canonical reading:
/// the tag clamped into range).
fn rebuild(store: &mut TermStore, sort: Sort, comps: &[TermId]) -> Result<TermId, FlatError> {
    if !dt::mentions_dt(sort) {
        return Ok(comps[0]);
    }
    if sort.is_array() {
        return Err("array of datatypes as an index".into());
    }
    let d = dt::def(sort).ok_or("undefined datatype")?;
    let n = d.ctors.len();
    let mut at = usize::from(n > 1);
    let mut built = vec![];
    for c in d.ctors.iter() {
        let mut args = vec![];
        for f in &c.fields {
            let k = layout(f.1).ok_or(NOT_FLAT)?.len();
            args.push(rebuild(store, f.1, &comps[at..at + k])?);
            at += k;
        }
        built.push(args);
    }
    let mut t = store
        .mk_ctor(sort, n as u32 - 1, &built[n - 1])
        .map_err(|e| e.0)?;
    for c in (0..n - 1).rev() {
        let ci = store.mk_int(c as i64);
        let cond = if c == 0 {
            store.mk_le(comps[0], ci)
        } else {
            store.mk_eq(comps[0], ci)
        };
        let x = store.mk_ctor(sort, c as u32, &built[c]).map_err(|e| e.0)?;
        t = store.mk_ite(cond, x, t);
    }
    Ok(t)
}

/// Translates invariants of the flat system into invariants of the original one.
pub fn back_invariants(
    store: &mut TermStore,
    sys: &ChcSystem,
    flat: &FlatSystem,
    inv: &Invariants,
) -> Result<Invariants, FlatError> {
    let mut out = Invariants::default();
    for &p in &sys.preds {
        let g = flat.preds[&p];
        let Some(def) = inv.defs.get(&g) else {
            return Err("missing invariant".into());
        };
        let decl = store.func(p).clone();
        let mut params = vec![];
        // flat parameter -> (original parameter, component)
        let mut owner: FxHashMap<VarId, (VarId, Comp)> = FxHashMap::default();
        // flat parameter -> (original parameter, component index, number of components)
        let mut place: FxHashMap<VarId, (VarId, usize, usize)> = FxHashMap::default();
        let mut k = 0;
        for (i, &s) in decl.args.iter().enumerate() {
            let v = store.fresh_var(&format!("x{i}"), s);
            params.push(v);
            let comps = layout(s).ok_or(NOT_FLAT)?;
            let n = comps.len();
            for (c, comp) in comps.into_iter().enumerate() {
                owner.insert(def.params[k], (v, comp));
                place.insert(def.params[k], (v, c, n));
                k += 1;
            }
        }
        let (rest, whole) = whole_equalities(store, def.body, &place);
        let mut parts = vec![back_term(store, rest, &owner)?];
        parts.extend(whole);
        let body = store.mk_and(&parts);
        out.define(p, params, body);
    }
    Ok(out)
}

/// Splits off the top-level equalities of a flat invariant that equate *every* component of
/// two original parameters of the same sort, componentwise: they are the equality of the two
/// original values (flattening is a bijection between values and their components; arrays
/// of datatypes by extensionality). Returns the rest and those original equalities.
///
/// # Why
/// The Solidity compiler's frame conditions (`state' = state`, nested arrays of tuples
/// unchanged) come out of the flat engines as one equality per component; translated one
/// by one, each component of an array of tuples becomes a pointwise `forall`, and the
/// certificate checker cannot decide clauses over such quantifiers in time (a proof found
/// in 0.09 s printed as `unknown`). The same facts as one equality of original terms are
/// ground.
fn whole_equalities(
    store: &mut TermStore,
    body: TermId,
    place: &FxHashMap<VarId, (VarId, usize, usize)>,
) -> (TermId, Vec<TermId>) {
    let parts = store.conjuncts(body);
    /// The componentwise equalities of two original parameters: the components seen, how
    /// many there are, the conjuncts' positions.
    struct Group {
        seen: FxHashSet<usize>,
        n: usize,
        at: Vec<usize>,
    }
    let mut groups: FxHashMap<(VarId, VarId), Group> = FxHashMap::default();
    // Integer equalities may come as `x − y ≤ 0 ∧ y − x ≤ 0`: both halves make one.
    let mut halves: FxHashMap<(VarId, VarId), usize> = FxHashMap::default();
    let mut eqs: Vec<(VarId, VarId, Vec<usize>)> = Vec::new();
    for (at, &e) in parts.iter().enumerate() {
        if store.args(e).len() != 2 {
            continue;
        }
        match store.op(e) {
            Op::Eq => {
                if let Some((x, y)) = var_equality(store, e) {
                    eqs.push((x, y, vec![at]));
                }
            }
            Op::Le => {
                if let Some((x, y)) = var_equality(store, e) {
                    match halves.remove(&(y, x)) {
                        Some(other) => eqs.push((x, y, vec![other, at])),
                        None => {
                            halves.insert((x, y), at);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    for (va, vb, at) in eqs {
        let (Some(&(oa, ca, na)), Some(&(ob, cb, nb))) = (place.get(&va), place.get(&vb)) else {
            continue;
        };
        if ca != cb || na != nb || oa == ob || store.var_sort(oa) != store.var_sort(ob) {
            continue;
        }
        let key = if oa < ob { (oa, ob) } else { (ob, oa) };
        let g = groups.entry(key).or_insert_with(|| Group {
            seen: FxHashSet::default(),
            n: na,
            at: Vec::new(),
        });
        g.seen.insert(ca);
        g.at.extend(at);
    }
    let mut drop: FxHashSet<usize> = FxHashSet::default();
    let mut whole = Vec::new();
    let mut keys: Vec<_> = groups.keys().copied().collect();
    keys.sort_unstable();
    for key in keys {
        let g = &groups[&key];
        if g.seen.len() == g.n && g.n > 1 {
            drop.extend(g.at.iter().copied());
            let (a, b) = (store.mk_var(key.0), store.mk_var(key.1));
            whole.push(store.mk_eq(a, b));
        }
    }
    if whole.is_empty() {
        return (body, whole);
    }
    let rest: Vec<TermId> = (0..parts.len())
        .filter(|i| !drop.contains(i))
        .map(|i| parts[i])
        .collect();
    (store.mk_and(&rest), whole)
}

/// `(x, y)` when the equality `e` says `x = y` for two variables, also in the linear forms
/// the simplifier gives integer equalities (`x − y = 0`); for `e` an inequality `x − y ≤ 0`
/// (either side holding the difference), `(x, y)` with `x ≤ y`.
fn var_equality(store: &TermStore, e: TermId) -> Option<(VarId, VarId)> {
    let (a, b) = (store.args(e)[0], store.args(e)[1]);
    if let (Some(x), Some(y)) = (store.as_var(a), store.as_var(b)) {
        return Some((x, y));
    }
    if !matches!(store.sort(a), Sort::Int | Sort::Real) {
        return None;
    }
    let mut lin = cove_logic::linearize(store, a);
    lin.add_scaled(
        &cove_logic::linearize(store, b),
        &cove_logic::Rational::MINUS_ONE,
    );
    if !lin.constant.is_zero() || lin.terms.len() != 2 {
        return None;
    }
    let (x, cx) = (&lin.terms[0].0, &lin.terms[0].1);
    let (y, cy) = (&lin.terms[1].0, &lin.terms[1].1);
    if !(cx + cy).is_zero() || !(cx.is_one() || cy.is_one()) {
        return None;
    }
    // Oriented `x − y` (for `x − y ≤ 0`: `x ≤ y`).
    let (x, y) = if cx.is_one() { (x, y) } else { (y, x) };
    Some((store.as_var(*x)?, store.as_var(*y)?))
}

/// A flat term during back-translation: an original term, or a flat array that has no
/// original counterpart yet (a component of a flattened array of datatypes, possibly under
/// `store`/`ite`), read pointwise ([`lazy_apply`]) until its elements are original terms.
#[derive(Clone)]
enum R {
    T(TermId),
    /// Original array term, the element path, indices so far.
    Arr(TermId, Vec<Step>, Vec<TermId>),
    /// `(store a j v)` of a lazy array.
    Store(Box<R>, TermId, Box<R>),
    /// `(ite c a b)` of lazy arrays.
    Ite(TermId, Box<R>, Box<R>),
}

/// The flat index sort of a lazy array, when it has exactly one index component.
fn lazy_index_sort(store: &TermStore, r: &R) -> Option<Sort> {
    match r {
        R::T(t) => store.sort(*t).index_sort(),
        R::Arr(arr, _, idx) => {
            let isort = store.sort(*arr).index_sort()?;
            (idx.is_empty() && !dt::mentions_dt(isort)).then_some(isort)
        }
        R::Store(a, _, _) => lazy_index_sort(store, a),
        R::Ite(_, a, b) => lazy_index_sort(store, a).or_else(|| lazy_index_sort(store, b)),
    }
}

fn lazy_ite(store: &mut TermStore, c: TermId, a: R, b: R) -> R {
    match (a, b) {
        (R::T(x), R::T(y)) => R::T(store.mk_ite(c, x, y)),
        (a, b) => R::Ite(c, Box::new(a), Box::new(b)),
    }
}

/// The element of lazy array `r` at flat index `i` (a `select` of the flat array).
fn lazy_apply(store: &mut TermStore, r: &R, i: TermId) -> Result<R, FlatError> {
    Ok(match r {
        R::T(t) => R::T(store.mk_select(*t, i)),
        R::Arr(arr, rest, idx) => {
            let mut idx = idx.clone();
            idx.push(i);
            let isort = store
                .sort(*arr)
                .index_sort()
                .ok_or("select of a non-array")?;
            let want = layout(isort).ok_or(NOT_FLAT)?.len();
            if idx.len() == want {
                let i = rebuild(store, isort, &idx)?;
                let el = store.mk_select(*arr, i);
                match rest.iter().position(|s| *s == Step::Elem) {
                    None => R::T(project(store, el, rest)?),
                    Some(e) => {
                        let a2 = project(store, el, &rest[..e])?;
                        R::Arr(a2, rest[e + 1..].to_vec(), vec![])
                    }
                }
            } else {
                R::Arr(*arr, rest.clone(), idx)
            }
        }
        R::Store(a, j, v) => {
            let x = lazy_apply(store, a, i)?;
            let c = store.mk_eq(i, *j);
            lazy_ite(store, c, (**v).clone(), x)
        }
        R::Ite(c, a, b) => {
            let x = lazy_apply(store, a, i)?;
            let y = lazy_apply(store, b, i)?;
            lazy_ite(store, *c, x, y)
        }
    })
}

/// Equality of two flat terms: `(= a b)` for original terms; for lazy arrays the pointwise
/// equality `(forall ((i I)) (= a[i] b[i]))` (extensionality; `flatten_formula` turns it
/// back into the flat array equality, see [`extensional`]).
fn lazy_eq(store: &mut TermStore, a: &R, b: &R) -> Result<TermId, FlatError> {
    if let (R::T(x), R::T(y)) = (a, b) {
        return Ok(store.mk_eq(*x, *y));
    }
    let isort = lazy_index_sort(store, a)
        .or_else(|| lazy_index_sort(store, b))
        .ok_or("a flattened array of datatypes with a datatype index used as a whole")?;
    let i = store.fresh_var("i", isort);
    let it = store.mk_var(i);
    let x = lazy_apply(store, a, it)?;
    let y = lazy_apply(store, b, it)?;
    let body = lazy_eq(store, &x, &y)?;
    Ok(store.mk_quant(true, &[i], body))
}

/// Rewrites a flat invariant body over original parameters (explicit post-order).
fn back_term(
    store: &mut TermStore,
    root: TermId,
    owner: &FxHashMap<VarId, (VarId, Comp)>,
) -> Result<TermId, FlatError> {
    let mut memo: FxHashMap<TermId, R> = FxHashMap::default();
    let mut stack = vec![(root, false)];
    while let Some((t, done)) = stack.pop() {
        if memo.contains_key(&t) {
            continue;
        }
        if !done {
            stack.push((t, true));
            for &a in store.args(t) {
                stack.push((a, false));
            }
            continue;
        }
        let op = store.op(t).clone();
        let args = store.args(t).to_vec();
        let lazy = args.iter().any(|a| !matches!(memo[a], R::T(_)));
        let r = match op {
            Op::Var(v) => match owner.get(&v) {
                None => R::T(t),
                Some((orig, comp)) => {
                    let u = store.mk_var(*orig);
                    match comp.path.iter().position(|s| *s == Step::Elem) {
                        None => R::T(project(store, u, &comp.path)?),
                        Some(e) => {
                            let arr = project(store, u, &comp.path[..e])?;
                            R::Arr(arr, comp.path[e + 1..].to_vec(), vec![])
                        }
                    }
                }
            },
            Op::Select if lazy => {
                let R::T(i) = memo[&args[1]].clone() else {
                    return Err("array-valued index".into());
                };
                lazy_apply(store, &memo[&args[0]].clone(), i)?
            }
            Op::Store if lazy => {
                let R::T(j) = memo[&args[1]].clone() else {
                    return Err("array-valued index".into());
                };
                R::Store(
                    Box::new(memo[&args[0]].clone()),
                    j,
                    Box::new(memo[&args[2]].clone()),
                )
            }
            Op::Ite if lazy => {
                let R::T(c) = memo[&args[0]].clone() else {
                    return Err("array-valued condition".into());
                };
                let (a, b) = (memo[&args[1]].clone(), memo[&args[2]].clone());
                lazy_ite(store, c, a, b)
            }
            Op::Eq if lazy && args.len() == 2 => {
                let (a, b) = (memo[&args[0]].clone(), memo[&args[1]].clone());
                R::T(lazy_eq(store, &a, &b)?)
            }
            Op::Distinct if lazy && args.len() == 2 => {
                let (a, b) = (memo[&args[0]].clone(), memo[&args[1]].clone());
                let e = lazy_eq(store, &a, &b)?;
                R::T(store.mk_not(e))
            }
            _ => {
                let ts = terms(&memo, &args)?;
                if ts == args {
                    R::T(t)
                } else {
                    R::T(store.mk_raw(op, &ts, store.sort(t)))
                }
            }
        };
        memo.insert(t, r);
    }
    fn terms(memo: &FxHashMap<TermId, R>, args: &[TermId]) -> Result<Vec<TermId>, FlatError> {
        args.iter()
            .map(|a| match &memo[a] {
                R::T(t) => Ok(*t),
                _ => Err("a flattened array of datatypes used as a whole".to_string()),
            })
            .collect()
    }
    match &memo[&root] {
        R::T(t) => Ok(*t),
        _ => Err("array-valued invariant".into()),
    }
}

/// The original value of sort `sort` from the values of its components.
fn value_of(sort: Sort, comps: &[Value]) -> Result<Value, FlatError> {
    if !dt::mentions_dt(sort) {
        return Ok(comps[0].clone());
    }
    if let Some((i, e)) = sort.array_parts() {
        let ki = layout(i).ok_or(NOT_FLAT)?.len();
        let ke = layout(e).ok_or(NOT_FLAT)?.len();
        if ki == 0 {
            return Ok(Value::Array(Box::new(ArrayValue::constant(value_of(
                e, comps,
            )?))));
        }
        // Enumerate the curried levels: every index tuple listed at some level is an entry;
        // an inner level whose default differs from the overall default would stand for
        // infinitely many exceptions and is refused.
        let levels: Vec<&Value> = comps.iter().take(ke).collect();
        let bottom = |v: &Value| -> Result<Value, FlatError> {
            let mut v = v.clone();
            for _ in 0..ki {
                v = v.as_array().ok_or("curried component")?.default.clone();
            }
            Ok(v)
        };
        let defaults: Vec<Value> = levels.iter().map(|v| bottom(v)).collect::<Result<_, _>>()?;
        // Tuples of index values mentioned anywhere.
        let mut tuples: Vec<Vec<Value>> = vec![vec![]];
        for _ in 0..ki {
            let mut next: Vec<Vec<Value>> = vec![];
            for tup in &tuples {
                for lv in &levels {
                    let mut v: &Value = lv;
                    for k in tup {
                        v = v.as_array().ok_or("curried component")?.read(k);
                    }
                    let a = v.as_array().ok_or("curried component")?;
                    for (k, _) in &a.entries {
                        let mut t2 = tup.clone();
                        t2.push(k.clone());
                        if !next.contains(&t2) {
                            next.push(t2);
                        }
                    }
                }
            }
            if next.len() > 10_000 {
                return Err("array value too large".into());
            }
            tuples = next;
            if tuples.is_empty() {
                break;
            }
        }
        // Every level's inner defaults must agree with the bottom defaults (else the value
        // has infinitely many exceptions).
        for (lv, d) in levels.iter().zip(&defaults) {
            let mut stack: Vec<(&Value, usize)> = vec![(lv, 0)];
            while let Some((v, depth)) = stack.pop() {
                if depth == ki {
                    continue;
                }
                let a = v.as_array().ok_or("curried component")?;
                if depth + 1 < ki {
                    stack.push((&a.default, depth + 1));
                    for (_, x) in &a.entries {
                        stack.push((x, depth + 1));
                    }
                } else if depth > 0 && &a.default != d {
                    return Err("array value with infinitely many exceptions".into());
                }
            }
        }
        let mut arr = ArrayValue::constant(value_of(e, &defaults)?);
        for tup in tuples.into_iter().filter(|t| t.len() == ki) {
            let mut vals = vec![];
            for lv in &levels {
                let mut v: &Value = lv;
                for k in &tup {
                    v = v.as_array().ok_or("curried component")?.read(k);
                }
                vals.push(v.clone());
            }
            let key = value_of(i, &tup)?;
            arr = arr.write(key, value_of(e, &vals)?);
        }
        arr.normalize();
        return Ok(Value::Array(Box::new(arr)));
    }
    let d = dt::def(sort).ok_or("undefined datatype")?;
    let n = d.ctors.len();
    let tag = if n > 1 {
        let t = comps[0].as_num().ok_or("tag is not a number")?;
        let t = t.floor();
        let lo = cove_logic::Rational::ZERO;
        let hi = cove_logic::Rational::int(n as i64 - 1);
        if t < lo {
            0
        } else if t > hi {
            n - 1
        } else {
            t.to_string().parse::<usize>().map_err(|_| "tag")?
        }
    } else {
        0
    };
    let mut at = usize::from(n > 1);
    let mut fields = vec![];
    for (ci, c) in d.ctors.iter().enumerate() {
        for f in &c.fields {
            let k = layout(f.1).ok_or(NOT_FLAT)?.len();
            if ci == tag {
                fields.push(value_of(f.1, &comps[at..at + k])?);
            }
            at += k;
        }
    }
    Ok(Value::Dt(std::sync::Arc::new(DtValue {
        sort,
        ctor: tag as u32,
        fields,
    })))
}

/// Translates a derivation of the flat system into one of the original system: variable
/// values are rebuilt from their components, derived facts re-evaluated on the original
/// clauses.
pub fn back_derivation(
    store: &TermStore,
    sys: &ChcSystem,
    flat: &FlatSystem,
    d: &Derivation,
) -> Result<Derivation, FlatError> {
    let mut out = d.clone();
    for step in out.steps.iter_mut() {
        let c = sys.clauses.get(step.clause).ok_or("no such clause")?;
        let vals: FxHashMap<VarId, Value> = step.assignment.iter().cloned().collect();
        let mut m = cove_logic::Model::new();
        m.complete = true;
        let mut assignment = vec![];
        for &v in &c.vars {
            let comps = &flat.clause_vars[step.clause][&v];
            let cv: Vec<Value> = comps
                .iter()
                .map(|w| {
                    vals.get(w)
                        .cloned()
                        .unwrap_or_else(|| Value::default_of(store.var_sort(*w)))
                })
                .collect();
            let x = value_of(store.var_sort(v), &cv)?;
            m.set(v, x.clone());
            assignment.push((v, x));
        }
        step.assignment = assignment;
        step.head = match &c.head {
            None => None,
            Some(h) => {
                let mut vs = vec![];
                for &a in &h.args {
                    vs.push(m.eval(store, a).map_err(|e| e.to_string())?);
                }
                Some((h.pred, vs))
            }
        };
    }
    Ok(out)
}
