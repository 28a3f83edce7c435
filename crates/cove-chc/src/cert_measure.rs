//! The certificate checker's support for measures: invariants that apply structurally
//! recursive Int-valued functions over datatypes (`define-fun-rec`), such as the size of a
//! list ([`crate::result::Measure`]).
//!
//! A measure is accepted only in the shape `(ite ((_ is C0) x) e0 (ite … e_{n-1}))`, one case
//! per constructor of its datatype in order, where `x` occurs in `eᵢ` only under selectors
//! of `Cᵢ` and every measure application in `eᵢ` is to such a selector term: the recursion
//! is structural, so the function is total and its defining equations hold. A claimed lower
//! bound is proven by structural induction (every case is at least the bound when every
//! recursive call is), one SMT query per case.
//!
//! A clause query `q` mentioning measures is decided as `q'` ∧ facts, where `q'` replaces each
//! measure application `m(t)` by a fresh Int `v(m,t)` and the facts, all valid for the real
//! functions, are: for every datatype subterm `t` of `q` of a measure's domain, the defining
//! equation one level deep (`m(C(a…)) = e[x := C(a…)]` for a constructor term, `(_ is Cᵢ) t →
//! v(m,t) = eᵢ[x := t]` otherwise, recursive calls again fresh Ints), the lower bounds, and
//! congruence `t = u → v(m,t) = v(m,u)` for every pair. The facts hold in every model of `q`
//! extended by the real measure values, so `q'` ∧ facts unsatisfiable proves `q`
//! unsatisfiable. The datatype theory of `cove-smt` decides the rest.

use crate::cert::CertError;
use crate::engine::Control;
use crate::result::Measure;
use cove_logic::dt::DtOp;
use cove_logic::{FuncId, Op, Sort, TermId, TermStore, VarId};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::{FxHashMap, FxHashSet};

/// At most this many datatype terms per measure in one query (congruence is quadratic).
const MAX_TERMS: usize = 120;

/// A checked measure: its cases, one per constructor.
#[derive(Clone, Debug)]
pub struct Checked {
    func: FuncId,
    param: VarId,
    sort: Sort,
    cases: Vec<TermId>,
    lower: Option<i64>,
}

/// Checked measures by function symbol.
pub type Measures = FxHashMap<FuncId, Checked>;

fn is_param(store: &TermStore, t: TermId, x: VarId) -> bool {
    matches!(store.op(t), Op::Var(v) if *v == x)
}

/// Checks the shape of every measure and its lower bound.
pub fn check_measures(
    store: &mut TermStore,
    ms: &[Measure],
    preds: &[FuncId],
    ctl: &Control,
) -> Result<Measures, CertError> {
    let mut out = Measures::default();
    for m in ms {
        if preds.contains(&m.func) || out.contains_key(&m.func) {
            return Err(CertError::Invalid(format!(
                "measure '{}' is a predicate or defined twice",
                store.func(m.func).name
            )));
        }
        let decl = store.func(m.func).clone();
        let sort = store.var_sort(m.param);
        if decl.args.len() != 1 || decl.args[0] != sort || decl.ret != Sort::Int {
            return Err(CertError::Invalid(format!(
                "measure '{}' has the wrong signature",
                decl.name
            )));
        }
        if cove_logic::free_vars(store, m.body)
            .iter()
            .any(|&v| v != m.param)
        {
            return Err(CertError::Invalid(format!(
                "measure '{}' mentions a variable other than its parameter",
                decl.name
            )));
        }
        let def = cove_logic::dt::def(sort).ok_or_else(|| {
            CertError::Invalid(format!("measure '{}' is not over a datatype", decl.name))
        })?;
        let n = def.ctors.len();
        let mut cases = vec![];
        let mut t = m.body;
        for c in 0..n - 1 {
            let ok = matches!(store.op(t), Op::Ite) && {
                let cond = store.args(t)[0];
                matches!(store.op(cond), Op::Dt(DtOp::Test { ctor, .. }) if *ctor == c as u32)
                    && is_param(store, store.args(cond)[0], m.param)
            };
            if !ok {
                return Err(CertError::Invalid(format!(
                    "measure '{}' is not one case per constructor",
                    decl.name
                )));
            }
            cases.push(store.args(t)[1]);
            t = store.args(t)[2];
        }
        cases.push(t);
        out.insert(
            m.func,
            Checked {
                func: m.func,
                param: m.param,
                sort,
                cases,
                lower: m.lower,
            },
        );
    }
    // Structural recursion: in case i, x only under selectors of Ci; applications only of
    // measures, to such selectors.
    for m in out.values() {
        for (i, &e) in m.cases.iter().enumerate() {
            let mut seen = FxHashSet::default();
            let mut stack = vec![e];
            while let Some(t) = stack.pop() {
                if !seen.insert(t) {
                    continue;
                }
                let sel_of_x = |t: TermId| {
                    matches!(store.op(t), Op::Dt(DtOp::Sel { ctor, .. }) if *ctor == i as u32)
                        && is_param(store, store.args(t)[0], m.param)
                };
                match store.op(t) {
                    Op::App(f) => {
                        if !out.contains_key(f) || !sel_of_x(store.args(t)[0]) {
                            return Err(CertError::Invalid(format!(
                                "measure '{}' is not structurally recursive",
                                store.func(m.func).name
                            )));
                        }
                    }
                    _ if sel_of_x(t) => {}
                    Op::Var(v) if *v == m.param => {
                        return Err(CertError::Invalid(format!(
                            "measure '{}' uses its argument outside a selector",
                            store.func(m.func).name
                        )));
                    }
                    Op::Forall(_) | Op::Exists(_) => {
                        return Err(CertError::Invalid("quantifier in a measure".into()));
                    }
                    _ => stack.extend_from_slice(store.args(t)),
                }
            }
        }
    }
    // Lower bounds by structural induction.
    let funcs: Vec<FuncId> = out.keys().copied().collect();
    for f in funcs {
        let m = out[&f].clone();
        let Some(lo) = m.lower else { continue };
        for &e in &m.cases {
            let mut ack = Ack::new(&out);
            let e2 = ack.replace(store, e).map_err(CertError::Invalid)?;
            let mut parts = ack.bounds(store);
            let l = store.mk_int(lo);
            parts.push(store.mk_lt(e2, l));
            let mut solver = SmtSolver::new();
            solver.set_limits(cove_smt::Limits::of(ctl));
            for &p in &parts {
                solver.assert(store, p);
            }
            match solver.check(store) {
                SmtResult::Unsat => {}
                SmtResult::Sat => {
                    return Err(CertError::Invalid(format!(
                        "lower bound of measure '{}' not proven",
                        store.func(f).name
                    )));
                }
                // A limit (or the portfolio stopping this check): neither proven nor refuted.
                _ => {
                    return Err(CertError::Undecided(format!(
                        "lower bound of measure '{}' undecided",
                        store.func(f).name
                    )));
                }
            }
        }
    }
    Ok(out)
}

/// Measure applications replaced by fresh Ints.
struct Ack<'a> {
    ms: &'a Measures,
    apps: FxHashMap<(FuncId, TermId), TermId>,
}

impl<'a> Ack<'a> {
    fn new(ms: &'a Measures) -> Ack<'a> {
        Ack {
            ms,
            apps: FxHashMap::default(),
        }
    }

    fn var(&mut self, store: &mut TermStore, f: FuncId, t: TermId) -> TermId {
        if let Some(&v) = self.apps.get(&(f, t)) {
            return v;
        }
        let v = store.fresh_var("measure", Sort::Int);
        let vt = store.mk_var(v);
        self.apps.insert((f, t), vt);
        vt
    }

    /// `t` with every measure application replaced (the applications are collected by an
    /// explicit walk, then replaced at once by [`cove_logic::subst::replace_subterms`]).
    fn replace(&mut self, store: &mut TermStore, root: TermId) -> Result<TermId, String> {
        let mut map: FxHashMap<TermId, TermId> = FxHashMap::default();
        let mut seen = FxHashSet::default();
        let mut stack = vec![root];
        while let Some(t) = stack.pop() {
            if !seen.insert(t) {
                continue;
            }
            if let Op::App(f) = store.op(t)
                && self.ms.contains_key(f)
            {
                let f = *f;
                let a = store.args(t)[0];
                if cove_logic::subst::has_app(store, a) {
                    return Err("nested measure application".into());
                }
                let v = self.var(store, f, a);
                map.insert(t, v);
                continue;
            }
            stack.extend_from_slice(store.args(t));
        }
        Ok(cove_logic::subst::replace_subterms(store, root, &map))
    }

    fn bounds(&self, store: &mut TermStore) -> Vec<TermId> {
        let mut out = vec![];
        let mut keys: Vec<_> = self.apps.iter().map(|(k, v)| (*k, *v)).collect();
        keys.sort();
        for ((f, _), v) in keys {
            if let Some(lo) = self.ms[&f].lower {
                let l = store.mk_int(lo);
                out.push(store.mk_ge(v, l));
            }
        }
        out
    }

    /// Case `i` of measure `m` at `t`, its recursive calls replaced.
    fn case_at(
        &mut self,
        store: &mut TermStore,
        m: &Checked,
        i: usize,
        t: TermId,
    ) -> Result<TermId, String> {
        let map: FxHashMap<VarId, TermId> = [(m.param, t)].into_iter().collect();
        let e = cove_logic::subst::substitute(store, m.cases[i], &map);
        self.replace(store, e)
    }
}

/// Whether `t` applies a function that is not a measure.
pub fn mentions_other_app(store: &TermStore, t: TermId, ms: &Measures) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        if let Op::App(f) = store.op(u)
            && !ms.contains_key(f)
        {
            return true;
        }
        stack.extend_from_slice(store.args(u));
    }
    false
}

/// The assertions deciding `query` (see the module documentation): `query` with measure
/// applications replaced, and the valid facts about them.
pub fn reduce(store: &mut TermStore, query: TermId, ms: &Measures) -> Result<Vec<TermId>, String> {
    let mut ack = Ack::new(ms);
    let q = ack.replace(store, query)?;
    // The datatype subterms of the query (and of the measure arguments), per sort.
    let mut terms: Vec<TermId> = vec![];
    let mut seen = FxHashSet::default();
    let mut stack = vec![query];
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        if matches!(store.sort(t), Sort::Dt(_)) {
            terms.push(t);
        }
        stack.extend_from_slice(store.args(t));
    }
    terms.sort();
    let mut funcs: Vec<&Checked> = ms.values().collect();
    funcs.sort_by_key(|m| m.func);
    let mut facts = vec![];
    for m in &funcs {
        let mine: Vec<TermId> = terms
            .iter()
            .copied()
            .filter(|&t| store.sort(t) == m.sort)
            .collect();
        if mine.len() > MAX_TERMS {
            return Err("too many datatype terms for the measure check".into());
        }
        for &t in &mine {
            let v = ack.var(store, m.func, t);
            if let Op::Dt(DtOp::Ctor(c)) = store.op(t) {
                let c = *c as usize;
                let e = ack.case_at(store, m, c, t)?;
                facts.push(store.mk_eq(v, e));
            } else {
                for i in 0..m.cases.len() {
                    let e = ack.case_at(store, m, i, t)?;
                    let is = store.mk_test(t, i as u32);
                    let eq = store.mk_eq(v, e);
                    facts.push(store.mk_implies(is, eq));
                }
            }
        }
    }
    // Congruence over every measured term (those of the query and the selector terms the
    // unfolding created).
    let mut by_func: FxHashMap<FuncId, Vec<(TermId, TermId)>> = FxHashMap::default();
    let mut apps: Vec<_> = ack.apps.iter().map(|(k, v)| (*k, *v)).collect();
    apps.sort();
    for ((f, t), v) in apps {
        by_func.entry(f).or_default().push((t, v));
    }
    let mut fs: Vec<_> = by_func.into_iter().collect();
    fs.sort_by_key(|x| x.0);
    for (_, list) in fs {
        if list.len() > 2 * MAX_TERMS {
            return Err("too many datatype terms for the measure check".into());
        }
        for i in 0..list.len() {
            for j in i + 1..list.len() {
                let e = store.mk_eq(list[i].0, list[j].0);
                let ve = store.mk_eq(list[i].1, list[j].1);
                facts.push(store.mk_implies(e, ve));
            }
        }
    }
    facts.extend(ack.bounds(store));
    let mut out = vec![q];
    out.extend(facts);
    Ok(out)
}
