//! Measure abstraction of recursive datatypes (lists, trees, Peano numbers): every argument
//! and variable of a recursive datatype sort becomes one `Int`, its *size* (the number of
//! constructors of the datatype's recursive group in the value: `length + 1` for a list,
//! `n + 1` for the Peano number `n`, the number of nodes and leaves of a tree), the route of
//! Eldarica and ChocoCatalia to `sat` answers over recursive data.
//!
//! # Over-approximation (only `sat` answers come out of it)
//! A clause `body ∧ φ → head` becomes `body' ∧ φ' → head'` where every predicate argument
//! `t` of a recursive sort is replaced by `size(t)` and `φ'` is implied by `φ` under the
//! assignment that gives each new variable the size of the value it stands for (the
//! *witness assignment*):
//! - a constructor term has `size(C(a…)) = 1 + Σ size(aₖ)` over the fields of the group;
//! - a selector, tester or other term whose value the sizes do not determine is a fresh
//!   variable (its value in the witness assignment is the real one), with the facts that
//!   the real values satisfy (`size ≥ 1`; `tag = i → size(x) = 1 + Σ size(selᵢₖ(x))` with a
//!   fresh tag variable per tested or selected term, which the tester `(_ is Cᵢ) x` reads);
//! - equalities of recursive values are translated by polarity: under an even number of
//!   negations `a = b` becomes `size(a) = size(b)` (implied), under an odd number `false`
//!   (implies the original), except for Peano sorts, whose size is injective (exact both
//!   ways).
//!
//! Hence if the abstract system has invariants `I'`, then `I(x…) := I'(size(x)…)` are
//! invariants of the original system: for every instance of an original clause whose body
//! holds, the abstract body holds under the witness assignment, so does the abstract head,
//! which is the original head under `I`. The invariants are translated back with the sizes
//! as `define-fun-rec` measures ([`crate::result::Measure`]) and checked on the original
//! system by the certificate checker, which knows nothing of this pass.

use crate::result::{Invariants, Measure};
use crate::system::{ChcSystem, Clause, PredApp};
use cove_logic::dt::{self, DtOp};
use cove_logic::{FuncId, Op, Sort, TermId, TermStore, VarId};
use rustc_hash::{FxHashMap, FxHashSet};

/// Nesting depth of terms this pass follows (deeper inputs are refused, never overflow).
const MAX_DEPTH: usize = 400;

/// The abstract system and what the back-translation needs.
pub struct MeasureSystem {
    /// The system over sizes (non-recursive datatypes are left as they are).
    pub system: ChcSystem,
    /// Original predicate -> abstract predicate.
    pub preds: FxHashMap<FuncId, FuncId>,
    /// The size measure of every abstracted sort.
    pub size: FxHashMap<Sort, FuncId>,
    /// The constructor-index measure of every abstracted sort that is not Peano.
    pub tag: FxHashMap<Sort, FuncId>,
    /// The measures' definitions.
    pub measures: Vec<Measure>,
}

/// A translation failure (the pass does not apply).
pub type MeasureError = String;

/// The datatype sorts reachable from `s` through fields (and array sorts), `s` included.
fn reachable(s: Sort) -> Vec<Sort> {
    let mut out = vec![];
    let mut stack = vec![s];
    while let Some(s) = stack.pop() {
        if out.contains(&s) {
            continue;
        }
        if let Some((i, e)) = s.array_parts() {
            stack.push(i);
            stack.push(e);
            continue;
        }
        if let Some(d) = dt::def(s) {
            out.push(s);
            for c in &d.ctors {
                for f in &c.fields {
                    stack.push(f.1);
                }
            }
        }
    }
    out
}

/// Whether the sort is abstracted by its size: a recursive datatype.
fn abstracted(s: Sort) -> bool {
    matches!(s, Sort::Dt(_)) && dt::is_recursive(s)
}

/// Whether `a` and `b` are in one recursive group (each reaches the other).
fn same_group(a: Sort, b: Sort) -> bool {
    a == b || (reachable(a).contains(&b) && reachable(b).contains(&a))
}

/// The fields of constructor `c` of `d` counted by the size (those of `d`'s group).
fn group_fields(d: Sort, c: usize) -> Vec<usize> {
    let Some(def) = dt::def(d) else { return vec![] };
    def.ctors[c]
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| abstracted(f.1) && same_group(d, f.1))
        .map(|(i, _)| i)
        .collect()
}

/// Peano sorts (one nullary constructor and one with a single field of the sort itself):
/// their size is injective, so equalities and testers translate exactly.
fn is_peano(d: Sort) -> bool {
    let Some(def) = dt::def(d) else { return false };
    def.ctors.len() == 2
        && def.ctors.iter().filter(|c| c.fields.is_empty()).count() == 1
        && def
            .ctors
            .iter()
            .filter(|c| c.fields.len() == 1 && c.fields[0].1 == d)
            .count()
            == 1
}

/// Whether a value of `d` is abstracted by its constructor index as well as its size (the
/// size of a Peano number determines its constructor).
fn has_tag(d: Sort) -> bool {
    abstracted(d) && !is_peano(d)
}

/// Whether a sort may occur in the abstract system: not abstracted, and not containing an
/// abstracted sort (a record of lists, an array of trees are refused).
fn check_sort(s: Sort) -> Result<(), MeasureError> {
    if abstracted(s) {
        return Ok(());
    }
    if reachable(s).into_iter().any(abstracted)
        || s.array_parts().is_some_and(|_| {
            let (i, e) = s.array_parts().expect("array");
            reachable(i).into_iter().chain(reachable(e)).any(abstracted)
        })
    {
        return Err(format!("sort {s} contains a recursive datatype"));
    }
    Ok(())
}

/// A fresh function name built from `base`.
fn fresh_func(
    store: &mut TermStore,
    base: &str,
    args: &[Sort],
    ret: Sort,
) -> Result<FuncId, MeasureError> {
    let mut k = 0u64;
    loop {
        let name = if k == 0 {
            base.to_string()
        } else {
            format!("{base}_{k}")
        };
        if store.func_by_name(&name).is_none() {
            return store.declare_func(&name, args, ret).map_err(|e| e.0);
        }
        k += 1;
    }
}

type MeasureFuncs = (
    FxHashMap<Sort, FuncId>,
    FxHashMap<Sort, FuncId>,
    Vec<Measure>,
);

/// Declares the size measure of every abstracted sort reachable from `sorts`.
fn declare_measures(store: &mut TermStore, sorts: &[Sort]) -> Result<MeasureFuncs, MeasureError> {
    let mut all: Vec<Sort> = vec![];
    for &s in sorts {
        for r in reachable(s) {
            if abstracted(r) && !all.contains(&r) {
                all.push(r);
            }
        }
    }
    let mut size = FxHashMap::default();
    for &d in &all {
        let name = format!("size_{}", dt::name(d));
        let f = fresh_func(store, &name, &[d], Sort::Int)?;
        size.insert(d, f);
    }
    let mut measures = vec![];
    for &d in &all {
        let def = dt::def(d).ok_or("undefined datatype")?;
        let x = store.fresh_var("x", d);
        let xt = store.mk_var(x);
        let mut cases = vec![];
        for c in 0..def.ctors.len() {
            let mut parts = vec![store.mk_int(1)];
            for k in group_fields(d, c) {
                let s = store.mk_sel(xt, c as u32, k as u32);
                let fs = def.ctors[c].fields[k].1;
                // `max(size(s), 1)`, the same function (sizes are at least 1), spelled so
                // that a checker without induction (z3 on the printed model) sees the
                // bound one unfolding deep.
                let a = store.mk_app(size[&fs], &[s]);
                let one = store.mk_int(1);
                let ge = store.mk_ge(a, one);
                parts.push(store.mk_ite(ge, a, one));
            }
            cases.push(if parts.len() == 1 {
                parts[0]
            } else {
                store.mk_add(&parts)
            });
        }
        let n = cases.len();
        let mut body = cases[n - 1];
        for c in (0..n - 1).rev() {
            let is = store.mk_test(xt, c as u32);
            body = store.mk_ite(is, cases[c], body);
        }
        measures.push(Measure {
            func: size[&d],
            param: x,
            body,
            lower: Some(1),
        });
    }
    let mut tag = FxHashMap::default();
    for &d in &all {
        if !has_tag(d) {
            continue;
        }
        let name = format!("tag_{}", dt::name(d));
        let f = fresh_func(store, &name, &[d], Sort::Int)?;
        tag.insert(d, f);
        let n = dt::def(d).ok_or("undefined datatype")?.ctors.len();
        let x = store.fresh_var("x", d);
        let xt = store.mk_var(x);
        let mut body = store.mk_int(n as i64 - 1);
        for c in (0..n - 1).rev() {
            let is = store.mk_test(xt, c as u32);
            let ci = store.mk_int(c as i64);
            body = store.mk_ite(is, ci, body);
        }
        measures.push(Measure {
            func: f,
            param: x,
            body,
            lower: Some(0),
        });
    }
    Ok((size, tag, measures))
}

/// The abstraction of one clause.
struct Abs {
    /// Original variable of an abstracted sort -> its size variable.
    vars: FxHashMap<VarId, VarId>,
    /// Fresh variables (sizes of opaque terms, tags, opaque values).
    fresh: Vec<VarId>,
    /// Facts the witness assignment satisfies.
    side: Vec<TermId>,
    /// Size of an opaque term of an abstracted sort.
    opaque_size: FxHashMap<TermId, TermId>,
    /// Value of an opaque term of another sort.
    opaque: FxHashMap<TermId, TermId>,
    /// Tag of a tested or selected term.
    tags: FxHashMap<TermId, TermId>,
}

/// Whether `t` mentions an abstracted sort anywhere.
fn mentions_abstracted(store: &TermStore, t: TermId) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        if abstracted(store.sort(t)) {
            return true;
        }
        if let Op::Forall(vs) | Op::Exists(vs) = store.op(t)
            && vs.iter().any(|&v| abstracted(store.var_sort(v)))
        {
            return true;
        }
        stack.extend_from_slice(store.args(t));
    }
    false
}

impl Abs {
    fn fresh(&mut self, store: &mut TermStore, name: &str, sort: Sort) -> TermId {
        let v = store.fresh_var(name, sort);
        self.fresh.push(v);
        store.mk_var(v)
    }

    fn at_least_one(&mut self, store: &mut TermStore, t: TermId) {
        let one = store.mk_int(1);
        let f = store.mk_ge(t, one);
        self.side.push(f);
    }

    /// The size of `t` (of an abstracted sort).
    fn size(
        &mut self,
        store: &mut TermStore,
        t: TermId,
        depth: usize,
    ) -> Result<TermId, MeasureError> {
        if depth > MAX_DEPTH {
            return Err("term too deep".into());
        }
        let sort = store.sort(t);
        let args = store.args(t).to_vec();
        match store.op(t).clone() {
            Op::Var(v) => {
                let w = *self.vars.get(&v).ok_or("unknown variable")?;
                Ok(store.mk_var(w))
            }
            Op::Dt(DtOp::Ctor(c)) => {
                let mut parts = vec![store.mk_int(1)];
                for k in group_fields(sort, c as usize) {
                    parts.push(self.size(store, args[k], depth + 1)?);
                }
                Ok(if parts.len() == 1 {
                    parts[0]
                } else {
                    store.mk_add(&parts)
                })
            }
            Op::Ite if !mentions_abstracted(store, args[0]) => {
                let c = self.plain(store, args[0], depth + 1)?;
                let a = self.size(store, args[1], depth + 1)?;
                let b = self.size(store, args[2], depth + 1)?;
                Ok(store.mk_ite(c, a, b))
            }
            op => {
                if let Some(&w) = self.opaque_size.get(&t) {
                    return Ok(w);
                }
                let w = self.fresh(store, "size", Sort::Int);
                self.opaque_size.insert(t, w);
                self.at_least_one(store, w);
                if let Op::Dt(DtOp::Sel { ctor, .. }) = op {
                    self.unfold(store, args[0], ctor, depth + 1)?;
                }
                Ok(w)
            }
        }
    }

    /// The tag of `x` (an abstracted term), with the facts relating it to the size.
    fn tag(
        &mut self,
        store: &mut TermStore,
        x: TermId,
        depth: usize,
    ) -> Result<TermId, MeasureError> {
        if let Some(&g) = self.tags.get(&x) {
            return Ok(g);
        }
        let d = store.sort(x);
        let def = dt::def(d).ok_or("undefined datatype")?;
        let g = self.fresh(store, "tag", Sort::Int);
        self.tags.insert(x, g);
        let zero = store.mk_int(0);
        let hi = store.mk_int(def.ctors.len() as i64 - 1);
        let a = store.mk_le(zero, g);
        let b = store.mk_le(g, hi);
        self.side.push(a);
        self.side.push(b);
        let sx = self.size(store, x, depth + 1)?;
        for c in 0..def.ctors.len() {
            let k = group_fields(d, c).len() as i64;
            let ci = store.mk_int(c as i64);
            let is = store.mk_eq(g, ci);
            let lo = store.mk_int(1 + k);
            let f = if k == 0 {
                store.mk_eq(sx, lo)
            } else {
                store.mk_ge(sx, lo)
            };
            let imp = store.mk_implies(is, f);
            self.side.push(imp);
        }
        Ok(g)
    }

    /// The tag of `t`: the constructor's index for a constructor term.
    fn tag_of(
        &mut self,
        store: &mut TermStore,
        t: TermId,
        depth: usize,
    ) -> Result<TermId, MeasureError> {
        if let Op::Dt(DtOp::Ctor(c)) = store.op(t) {
            let c = *c as i64;
            return Ok(store.mk_int(c));
        }
        self.tag(store, t, depth + 1)
    }

    /// `tag(x) = ctor → size(x) = 1 + Σ size(sel(x))`.
    fn unfold(
        &mut self,
        store: &mut TermStore,
        x: TermId,
        ctor: u32,
        depth: usize,
    ) -> Result<(), MeasureError> {
        if depth > MAX_DEPTH {
            return Err("term too deep".into());
        }
        let g = self.tag(store, x, depth + 1)?;
        let sx = self.size(store, x, depth + 1)?;
        let d = store.sort(x);
        let mut parts = vec![store.mk_int(1)];
        for k in group_fields(d, ctor as usize) {
            let s = store.mk_sel(x, ctor, k as u32);
            // Sizes of selector terms are memoized before their own unfolding, so this
            // terminates after one level.
            let w = if let Some(&w) = self.opaque_size.get(&s) {
                w
            } else {
                let w = self.fresh(store, "size", Sort::Int);
                self.opaque_size.insert(s, w);
                self.at_least_one(store, w);
                w
            };
            parts.push(w);
        }
        let sum = if parts.len() == 1 {
            parts[0]
        } else {
            store.mk_add(&parts)
        };
        let ci = store.mk_int(ctor as i64);
        let is = store.mk_eq(g, ci);
        let eq = store.mk_eq(sx, sum);
        let imp = store.mk_implies(is, eq);
        self.side.push(imp);
        Ok(())
    }

    /// A term of a sort that is not abstracted, translated exactly (opaque parts become
    /// fresh variables of the witness assignment).
    fn plain(
        &mut self,
        store: &mut TermStore,
        t: TermId,
        depth: usize,
    ) -> Result<TermId, MeasureError> {
        if depth > MAX_DEPTH {
            return Err("term too deep".into());
        }
        if !mentions_abstracted(store, t) {
            return Ok(t);
        }
        let sort = store.sort(t);
        let args = store.args(t).to_vec();
        let op = store.op(t).clone();
        match op {
            Op::Dt(DtOp::Test { dt: d, ctor }) if abstracted(d) => {
                let x = args[0];
                if is_peano(d) {
                    let sx = self.size(store, x, depth + 1)?;
                    let one = store.mk_int(1);
                    let base = dt::def(d).ok_or("undefined datatype")?.ctors[ctor as usize]
                        .fields
                        .is_empty();
                    return Ok(if base {
                        store.mk_eq(sx, one)
                    } else {
                        store.mk_gt(sx, one)
                    });
                }
                let g = self.tag_of(store, x, depth + 1)?;
                let ci = store.mk_int(ctor as i64);
                Ok(store.mk_eq(g, ci))
            }
            Op::Eq | Op::Distinct if abstracted(store.sort(args[0])) => {
                let d = store.sort(args[0]);
                if is_peano(d) {
                    let mut ss = vec![];
                    for &a in &args {
                        ss.push(self.size(store, a, depth + 1)?);
                    }
                    return Ok(if op == Op::Eq {
                        store.mk_eq(ss[0], ss[1])
                    } else {
                        store.mk_raw(Op::Distinct, &ss, Sort::Bool)
                    });
                }
                self.opaque_value(store, t, sort)
            }
            Op::Forall(_) | Op::Exists(_) => Err("quantifier over recursive datatypes".into()),
            Op::Dt(DtOp::Sel { dt: d, ctor, .. }) if abstracted(d) => {
                // A field of another sort (an Int head, an enumeration): opaque; the tag is
                // still created so that testers of the same term agree with the sizes.
                self.unfold(store, args[0], ctor, depth + 1)?;
                self.opaque_value(store, t, sort)
            }
            Op::App(_) => Err("predicate inside a constraint".into()),
            _ => {
                if abstracted(sort) {
                    return Err("abstracted term in a plain position".into());
                }
                if args.iter().any(|&a| abstracted(store.sort(a))) {
                    // An operator over recursive values this pass does not know.
                    return self.opaque_value(store, t, sort);
                }
                let mut new = vec![];
                for &a in &args {
                    new.push(self.plain(store, a, depth + 1)?);
                }
                Ok(cove_logic::subst::rebuild(store, &op, &new, sort))
            }
        }
    }

    fn opaque_value(
        &mut self,
        store: &mut TermStore,
        t: TermId,
        sort: Sort,
    ) -> Result<TermId, MeasureError> {
        if let Some(&w) = self.opaque.get(&t) {
            return Ok(w);
        }
        check_sort(sort)?;
        let w = self.fresh(store, "val", sort);
        self.opaque.insert(t, w);
        Ok(w)
    }

    /// A Boolean constraint at polarity `pos` (true: implied by the original under the
    /// witness assignment; false: implies it).
    fn formula(
        &mut self,
        store: &mut TermStore,
        t: TermId,
        pos: bool,
        depth: usize,
    ) -> Result<TermId, MeasureError> {
        if depth > MAX_DEPTH {
            return Err("term too deep".into());
        }
        if !mentions_abstracted(store, t) {
            return Ok(t);
        }
        let args = store.args(t).to_vec();
        match store.op(t).clone() {
            Op::And | Op::Or => {
                let mut new = vec![];
                for &a in &args {
                    new.push(self.formula(store, a, pos, depth + 1)?);
                }
                Ok(if matches!(store.op(t), Op::And) {
                    store.mk_and(&new)
                } else {
                    store.mk_or(&new)
                })
            }
            Op::Not => {
                let a = self.formula(store, args[0], !pos, depth + 1)?;
                Ok(store.mk_not(a))
            }
            Op::Implies => {
                let a = self.formula(store, args[0], !pos, depth + 1)?;
                let b = self.formula(store, args[1], pos, depth + 1)?;
                Ok(store.mk_implies(a, b))
            }
            Op::Ite if store.sort(t) == Sort::Bool => {
                let c = self.formula(store, args[0], pos, depth + 1)?;
                let nc = self.formula(store, args[0], !pos, depth + 1)?;
                let a = self.formula(store, args[1], pos, depth + 1)?;
                let b = self.formula(store, args[2], pos, depth + 1)?;
                let l = store.mk_and(&[c, a]);
                let nnc = store.mk_not(nc);
                let r = store.mk_and(&[nnc, b]);
                Ok(store.mk_or(&[l, r]))
            }
            Op::Eq if args.len() == 2 && abstracted(store.sort(args[0])) => {
                let d = store.sort(args[0]);
                if pos || is_peano(d) {
                    let a = self.size(store, args[0], depth + 1)?;
                    let b = self.size(store, args[1], depth + 1)?;
                    let mut parts = vec![store.mk_eq(a, b)];
                    if has_tag(d) {
                        let ga = self.tag_of(store, args[0], depth + 1)?;
                        let gb = self.tag_of(store, args[1], depth + 1)?;
                        parts.push(store.mk_eq(ga, gb));
                    }
                    Ok(store.mk_and(&parts))
                } else {
                    Ok(store.mk_false())
                }
            }
            Op::Distinct if args.len() == 2 && abstracted(store.sort(args[0])) => {
                let eq = store.mk_eq(args[0], args[1]);
                let e = self.formula(store, eq, !pos, depth + 1)?;
                Ok(store.mk_not(e))
            }
            _ => self.plain(store, t, depth + 1),
        }
    }

    fn arg(&mut self, store: &mut TermStore, t: TermId) -> Result<Vec<TermId>, MeasureError> {
        let d = store.sort(t);
        if abstracted(d) {
            let mut out = vec![self.size(store, t, 0)?];
            if has_tag(d) {
                out.push(self.tag_of(store, t, 0)?);
            }
            Ok(out)
        } else {
            Ok(vec![self.plain(store, t, 0)?])
        }
    }
}

/// Abstracts `sys` by sizes. Fails when the system has no recursive datatype or uses one in
/// a way the pass does not translate (a quantifier over one, an array or a record of one).
pub fn abstract_system(
    store: &mut TermStore,
    sys: &ChcSystem,
) -> Result<MeasureSystem, MeasureError> {
    let mut sorts: Vec<Sort> = vec![];
    for &p in &sys.preds {
        sorts.extend(store.func(p).args.iter().copied());
    }
    for c in &sys.clauses {
        sorts.extend(c.vars.iter().map(|&v| store.var_sort(v)));
    }
    sorts.sort_by_key(|s| format!("{s}"));
    sorts.dedup();
    if !sorts
        .iter()
        .any(|&s| reachable(s).into_iter().any(abstracted))
    {
        return Err("no recursive datatype".into());
    }
    for &s in &sorts {
        check_sort(s)?;
    }
    let (size, tag, measures) = declare_measures(store, &sorts)?;
    let mut preds = FxHashMap::default();
    let mut new_preds = vec![];
    for &p in &sys.preds {
        let d = store.func(p).clone();
        let mut args: Vec<Sort> = vec![];
        for &s in d.args.iter() {
            if abstracted(s) {
                args.push(Sort::Int);
                if has_tag(s) {
                    args.push(Sort::Int);
                }
            } else {
                args.push(s);
            }
        }
        let g = fresh_func(store, &format!("{}#size", d.name), &args, Sort::Bool)?;
        preds.insert(p, g);
        new_preds.push(g);
    }
    let mut clauses = vec![];
    for c in &sys.clauses {
        let mut a = Abs {
            vars: FxHashMap::default(),
            fresh: vec![],
            side: vec![],
            opaque_size: FxHashMap::default(),
            opaque: FxHashMap::default(),
            tags: FxHashMap::default(),
        };
        let mut vars = vec![];
        for &v in &c.vars {
            let s = store.var_sort(v);
            if abstracted(s) {
                let w = store.fresh_var(store.var_name(v).to_string().as_str(), Sort::Int);
                a.vars.insert(v, w);
                vars.push(w);
                let wt = store.mk_var(w);
                a.at_least_one(store, wt);
            } else {
                vars.push(v);
            }
        }
        let app =
            |a: &mut Abs, store: &mut TermStore, x: &PredApp| -> Result<PredApp, MeasureError> {
                let mut args = vec![];
                for &t in &x.args {
                    args.extend(a.arg(store, t)?);
                }
                Ok(PredApp {
                    pred: preds[&x.pred],
                    args,
                })
            };
        let mut body = vec![];
        for b in &c.body {
            body.push(app(&mut a, store, b)?);
        }
        let head = match &c.head {
            Some(h) => Some(app(&mut a, store, h)?),
            None => None,
        };
        let k = a.formula(store, c.constraint, true, 0)?;
        let mut parts = a.side.clone();
        parts.push(k);
        let constraint = store.mk_and(&parts);
        vars.extend(a.fresh.iter().copied());
        clauses.push(Clause {
            vars,
            body,
            constraint,
            head,
            origin: c.origin,
        });
    }
    Ok(MeasureSystem {
        system: ChcSystem {
            preds: new_preds,
            clauses,
        },
        preds,
        size,
        tag,
        measures,
    })
}

/// Translates invariants of the abstract system into invariants of the original one: each
/// size parameter is replaced by the size measure applied to the original parameter.
pub fn back_invariants(
    store: &mut TermStore,
    sys: &ChcSystem,
    ms: &MeasureSystem,
    inv: &Invariants,
) -> Result<Invariants, MeasureError> {
    let mut out = Invariants::default();
    for &p in &sys.preds {
        let g = ms.preds[&p];
        let def = inv.defs.get(&g).ok_or("missing invariant")?;
        let decl = store.func(p).clone();
        let mut params = vec![];
        let mut map = FxHashMap::default();
        let mut k = 0;
        for (i, &s) in decl.args.iter().enumerate() {
            let v = store.fresh_var(&format!("x{i}"), s);
            params.push(v);
            let vt = store.mk_var(v);
            let mut imgs = vec![];
            if abstracted(s) {
                imgs.push(store.mk_app(ms.size[&s], &[vt]));
                if has_tag(s) {
                    imgs.push(store.mk_app(ms.tag[&s], &[vt]));
                }
            } else {
                imgs.push(vt);
            }
            for img in imgs {
                let p = *def.params.get(k).ok_or("arity")?;
                map.insert(p, img);
                k += 1;
            }
        }
        if k != def.params.len() {
            return Err("arity".into());
        }
        let body = cove_logic::subst::substitute(store, def.body, &map);
        out.define(p, params, body);
    }
    out.measures = ms.measures.clone();
    Ok(out)
}
