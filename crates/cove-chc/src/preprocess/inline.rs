//! Pass 3: inlining of predicates defined by a single non-recursive clause.
//!
//! If `P` has exactly one defining clause `D: B₁ ∧ … ∧ Bₖ ∧ φ → P(h̄)` and `P ∉ {Bᵢ}`, every
//! body occurrence `P(ā)` is replaced by a fresh copy of `D`'s body and constraint plus
//! `ā = h̄'`; then `D` and `P` disappear. The least model of the output interprets `P` as the
//! strongest postcondition of `D`, so the two systems are equisatisfiable.
//!
//! Candidates are limited: the definition must be small, linear-arithmetic only (so the
//! back-translation's quantifier elimination is exact), and a definition with several body
//! atoms is inlined only at a single use (no growth of nonlinear clauses).
//!
//! # Back-translation
//! Inlinings are undone one at a time, last first.
//! - Invariants: `P(x̄) := ∃ vars(D). φ ∧ ⋀ Inv(Bᵢ) ∧ x̄ = h̄`, the strongest postcondition of
//!   `D` under the invariants of its body, made quantifier-free: variables defined by
//!   equalities are substituted, conjuncts without local variables are moved out, and the rest
//!   is eliminated exactly by MBP-based QE ([`cove_smt::mbp::qe_with`]). Then `D` holds by
//!   construction and every clause that used `P` holds because its inlined version did.
//! - Derivations: a step over an inlined clause splits into the step over the original clause
//!   and one new step over `D` per inlined occurrence, whose assignment is read from the
//!   renamed copy of `D`'s variables (kept per occurrence), so no solving is needed.

use super::util::{
    assignment, dag_size, defining_equality, eval, fresh_params, model_of, peel_store,
    rename_clause, store_equality, store_read,
};
use super::{BackError, BackTranslate};
use crate::engine::Control;
use crate::result::{Derivation, DerivationStep, Invariants};
use crate::system::{ChcSystem, Clause};
use cove_logic::{
    FuncId, Op, Simplifier, TermId, TermStore, VarId, expand_funcs, free_vars, simplify, substitute,
};
use cove_smt::mbp::QeError;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::VecDeque;
use std::time::Duration;

/// Where a body atom of an input clause went in the output clause.
#[derive(Clone, Debug)]
enum Slot {
    /// Still a body atom, at this index.
    Kept(usize),
    /// Inlined: the definition's body atoms start at `first`; `rename[i]` is the copy of the
    /// definition's variable `i`.
    Inlined { first: usize, rename: Vec<VarId> },
}

/// One inlining step. Clause indices are *stable*: the pass's input numbering, kept for the
/// whole pass (inlined definitions leave holes), so a step touches only the clauses it
/// changes and nothing is copied per step.
struct Record {
    pred: FuncId,
    def: Clause,
    def_index: usize,
    /// The clauses that used `pred`, as changed by this step.
    changed: Vec<Changed>,
    /// Every clause that used `pred` was `pred(x̄) → false` over distinct variables with no
    /// constraint: then `pred` is empty in every model, and `false` is its invariant when the
    /// exact one cannot be computed (see [`Record::invariant`]).
    only_refuted: bool,
}

/// A user clause rewritten by one inlining step.
struct Changed {
    /// Its stable index.
    clause: usize,
    /// Where its former body atoms went.
    slots: Vec<Slot>,
    /// Variables eliminated by the simplification after the inlining, with their definitions
    /// over the remaining variables.
    defs: Vec<(VarId, TermId)>,
    /// Its variables before the step.
    old_vars: Vec<VarId>,
}

/// The back-translator of the inlining pass.
pub struct Inline {
    records: Vec<Record>,
    /// Per output clause: its stable index.
    kept: Vec<usize>,
}

/// How much more a fact may grow the system than another definition (see `candidate`).
const FACT_SIZE_FACTOR: usize = 40;

/// Budget for the quantifier elimination of one invariant.
const QE_TIME: Duration = Duration::from_secs(5);
const QE_DISJUNCTS: usize = 1000;

/// True when quantifier elimination can eliminate every variable of `t`: linear arithmetic
/// (divisions only by numerals) and Booleans.
fn qe_friendly(store: &TermStore, t: TermId) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        let args = store.args(u);
        let ok = match store.op(u) {
            Op::Mul => args.iter().filter(|&&a| store.as_num(a).is_none()).count() <= 1,
            Op::Div | Op::IntDiv | Op::Mod => store.as_num(args[1]).is_some_and(|k| !k.is_zero()),
            Op::ToInt | Op::IsInt | Op::ToReal | Op::Forall(_) | Op::Exists(_) | Op::App(_) => {
                false
            }
            _ => true,
        };
        if !ok {
            return false;
        }
        stack.extend_from_slice(args);
    }
    true
}

fn clause_friendly(store: &TermStore, c: &Clause) -> bool {
    qe_friendly(store, c.constraint)
        && c.body
            .iter()
            .chain(c.head.iter())
            .all(|a| a.args.iter().all(|&t| qe_friendly(store, t)))
}

/// Runs the pass: inlines candidates one at a time until none is left or `ctl` says stop.
///
/// Definitions, users and use counts are maintained incrementally and a predicate is
/// reconsidered only when a clause around it changes, so a chain of `n` predicates is
/// inlined in `O(n)` steps of constant size. Each rewritten clause is simplified at once
/// (equalities with the definition's renamed variables are eliminated), so definitions do
/// not grow along a chain.
pub fn run(
    store: &mut TermStore,
    sys: &ChcSystem,
    max_size: usize,
    ctl: &Control,
) -> (ChcSystem, Inline) {
    let mut st = State {
        clauses: sys.clauses.iter().cloned().map(Some).collect(),
        defs: FxHashMap::default(),
        users: FxHashMap::default(),
        n_uses: FxHashMap::default(),
    };
    for (i, c) in sys.clauses.iter().enumerate() {
        if let Some(h) = &c.head {
            st.defs.entry(h.pred).or_default().push(i);
        }
        for a in &c.body {
            st.users.entry(a.pred).or_default().push(i);
            *st.n_uses.entry(a.pred).or_default() += 1;
        }
    }
    let mut queue: VecDeque<FuncId> = sys.preds.iter().copied().collect();
    let mut queued: FxHashSet<FuncId> = sys.preds.iter().copied().collect();
    let mut removed: FxHashSet<FuncId> = FxHashSet::default();
    let mut simp = Simplifier::new();
    let mut records = Vec::new();
    while let Some(p) = queue.pop_front() {
        queued.remove(&p);
        if ctl.should_stop().is_some() {
            break;
        }
        let Some(d) = st.candidate(store, p, max_size) else {
            continue;
        };
        let def = st.clauses[d].take().expect("a live definition");
        st.defs.remove(&p);
        let mut touched: Vec<FuncId> = Vec::new();
        for a in &def.body {
            *st.n_uses.get_mut(&a.pred).expect("counted") -= 1;
            touched.push(a.pred);
        }
        let mut users = st.users.remove(&p).unwrap_or_default();
        users.sort_unstable();
        users.dedup();
        let mut changed = Vec::new();
        let mut only_refuted = true;
        for u in users {
            if !st.clauses[u]
                .as_ref()
                .is_some_and(|c| c.body.iter().any(|a| a.pred == p))
            {
                continue;
            }
            let c = st.clauses[u].take().expect("checked above");
            only_refuted &= plain_refutation(store, &c);
            for a in &c.body {
                *st.n_uses.get_mut(&a.pred).expect("counted") -= 1;
            }
            let (nc, slots) = inline_into(store, &c, &def, p);
            let (nc, defs) = super::simp::simplify_clause(store, &mut simp, &nc);
            for a in &nc.body {
                *st.n_uses.entry(a.pred).or_default() += 1;
                st.users.entry(a.pred).or_default().push(u);
                touched.push(a.pred);
            }
            touched.extend(nc.head.as_ref().map(|h| h.pred));
            changed.push(Changed {
                clause: u,
                slots,
                defs,
                old_vars: c.vars,
            });
            st.clauses[u] = Some(nc);
        }
        records.push(Record {
            pred: p,
            def,
            def_index: d,
            changed,
            only_refuted,
        });
        removed.insert(p);
        for q in touched {
            if !removed.contains(&q) && queued.insert(q) {
                queue.push_back(q);
            }
        }
    }
    let mut out = ChcSystem {
        preds: sys
            .preds
            .iter()
            .copied()
            .filter(|q| !removed.contains(q))
            .collect(),
        clauses: Vec::new(),
    };
    let mut kept = Vec::new();
    for (i, c) in st.clauses.into_iter().enumerate() {
        if let Some(c) = c {
            out.clauses.push(c);
            kept.push(i);
        }
    }
    (out, Inline { records, kept })
}

/// The system during the pass, by stable clause index.
struct State {
    clauses: Vec<Option<Clause>>,
    /// Head predicate -> its defining clauses.
    defs: FxHashMap<FuncId, Vec<usize>>,
    /// Body predicate -> clauses that may use it (stale entries and repeats are possible).
    users: FxHashMap<FuncId, Vec<usize>>,
    /// Body predicate -> number of body occurrences.
    n_uses: FxHashMap<FuncId, usize>,
}

impl State {
    /// The definition of `p` if `p` is to be inlined.
    fn candidate(&self, store: &TermStore, p: FuncId, max_size: usize) -> Option<usize> {
        let ds = self.defs.get(&p)?;
        let n_uses = self.n_uses.get(&p).copied().unwrap_or(0);
        if ds.len() != 1 || n_uses == 0 {
            return None;
        }
        let d = self.clauses[ds[0]].as_ref()?;
        if d.body.iter().any(|a| a.pred == p) || (d.body.len() > 1 && n_uses > 1) {
            return None;
        }
        // A fact (no body atoms) adds no atoms to its users and is inlined at many more uses:
        // a solc function summary called at constants folds to a constant at each call.
        let cap = if d.body.is_empty() {
            max_size.saturating_mul(FACT_SIZE_FACTOR)
        } else {
            max_size
        };
        if dag_size(store, d.constraint) * n_uses > cap || !clause_friendly(store, d) {
            return None;
        }
        // Users must not grow beyond a modest number of body atoms.
        if d.body.len() > 1 {
            for &u in self.users.get(&p).map_or(&[][..], |v| v.as_slice()) {
                let Some(c) = &self.clauses[u] else { continue };
                let k = c.body.iter().filter(|a| a.pred == p).count();
                if k > 0 && c.body.len() + k * (d.body.len() - 1) > 6 {
                    return None;
                }
            }
        }
        Some(ds[0])
    }
}

/// `c` with every body occurrence of `p` replaced by a renamed copy of `def`.
fn inline_into(store: &mut TermStore, c: &Clause, def: &Clause, p: FuncId) -> (Clause, Vec<Slot>) {
    let mut slots = Vec::with_capacity(c.body.len());
    let mut body = Vec::new();
    let mut parts = vec![c.constraint];
    let mut vars = c.vars.clone();
    for app in &c.body {
        if app.pred != p {
            slots.push(Slot::Kept(body.len()));
            body.push(app.clone());
            continue;
        }
        let (rc, map) = rename_clause(store, def, "'");
        slots.push(Slot::Inlined {
            first: body.len(),
            rename: def.vars.iter().map(|v| map[v]).collect(),
        });
        body.extend(rc.body.iter().cloned());
        parts.push(rc.constraint);
        let head = rc.head.as_ref().expect("a definition has a head");
        for (&a, &h) in app.args.iter().zip(&head.args) {
            parts.push(store.mk_eq(a, h));
        }
        vars.extend(rc.vars.iter().copied());
    }
    let constraint = store.mk_and(&parts);
    let out = Clause {
        vars,
        body,
        constraint,
        head: c.head.clone(),
        origin: c.origin,
    };
    (out, slots)
}

/// Whether `c` is `P(x̄) → false` with distinct variables `x̄` and a true constraint: it says
/// that `P` is empty.
fn plain_refutation(store: &TermStore, c: &Clause) -> bool {
    let [app] = c.body.as_slice() else {
        return false;
    };
    let mut seen = FxHashSet::default();
    c.head.is_none()
        && store.as_bool(c.constraint) == Some(true)
        && app
            .args
            .iter()
            .all(|&a| store.as_var(a).is_some_and(|v| seen.insert(v)))
}

impl Record {
    /// `P(params) := ∃ vars(D). φ ∧ ⋀ Inv(Bᵢ)(āᵢ) ∧ params = h̄`, quantifier-free.
    fn invariant(
        &self,
        store: &mut TermStore,
        inv: &Invariants,
        ctl: &Control,
    ) -> Result<(Vec<VarId>, TermId), BackError> {
        let name = store.func(self.pred).name.to_string();
        let params = fresh_params(store, self.pred);
        let head = self.def.head.as_ref().expect("a definition has a head");
        let mut map: FxHashMap<VarId, TermId> = FxHashMap::default();
        let mut parts = vec![self.def.constraint];
        for app in &self.def.body {
            if !inv.defs.contains_key(&app.pred) {
                return Err(BackError::BadWitness(format!(
                    "no invariant for '{}'",
                    store.func(app.pred).name
                )));
            }
            let a = store.mk_app(app.pred, &app.args);
            parts.push(expand_funcs(store, a, &inv.defs));
        }
        let mut eqs = Vec::new();
        for (&h, &x) in head.args.iter().zip(&params) {
            let xt = store.mk_var(x);
            match store.as_var(h) {
                Some(v) if !map.contains_key(&v) => {
                    map.insert(v, xt);
                }
                _ => eqs.push((xt, h)),
            }
        }
        let mut conj = Vec::new();
        for (xt, h) in eqs {
            let h = substitute(store, h, &map);
            conj.push(store.mk_eq(xt, h));
        }
        let body = store.mk_and(&parts);
        conj.push(substitute(store, body, &map));
        let f = store.mk_and(&conj);
        let mut f = simplify(store, f);
        let param_set: FxHashSet<VarId> = params.iter().copied().collect();
        // Substitute locals defined by equalities (exact, and much cheaper than QE); a local
        // array written into a parameter (`p = store(b, i, v)`) is peeled until it is defined.
        for _ in 0..32 {
            let mut found = None;
            let parts = store.conjuncts(f);
            let allowed = |v: VarId| !param_set.contains(&v);
            for &e in &parts {
                if let Some(def) = defining_equality(store, e, &allowed, &|_| 0) {
                    found = Some(def);
                    break;
                }
            }
            if found.is_none()
                && let Some(eq) = store_equality(store, &parts, &allowed)
            {
                let y = store.fresh_var("peel", store.sort(eq.v));
                let out = peel_store(store, &parts, &eq, y);
                f = store.mk_and(&out);
                continue;
            }
            if found.is_none()
                && let Some(read) = store_read(store, &parts, &allowed)
            {
                let mut out = parts.clone();
                out.push(read);
                f = store.mk_and(&out);
                continue;
            }
            let Some((x, t)) = found else { break };
            let one: FxHashMap<VarId, TermId> = [(x, t)].into_iter().collect();
            let g = substitute(store, f, &one);
            f = simplify(store, g);
        }
        // Conjuncts without locals stay outside the quantifier.
        let (mut outside, mut inside) = (Vec::new(), Vec::new());
        for e in store.conjuncts(f) {
            if free_vars(store, e).iter().all(|v| param_set.contains(v)) {
                outside.push(e);
            } else {
                inside.push(e);
            }
        }
        if !inside.is_empty() {
            let phi = store.mk_and(&inside);
            let locals: Vec<VarId> = free_vars(store, phi)
                .into_iter()
                .filter(|v| !param_set.contains(v))
                .collect();
            let q = match qe(store, phi, &locals, ctl) {
                Ok(q) => q,
                // A predicate whose only uses said it is empty: its exact invariant is
                // `false` whenever the invariants it is computed from are right (they make
                // `def ⇒ false` valid), and the certificate check confirms that. This is
                // how an error predicate gets its invariant when the others are quantified
                // (the elimination of `∃ locals` under a `∀` is beyond MBP).
                Err(_) if self.only_refuted && ctl.should_stop().is_none() => store.mk_false(),
                Err(e) => {
                    return Err(BackError::Qe {
                        pred: name.clone(),
                        why: e.to_string(),
                    });
                }
            };
            outside.push(q);
        }
        let r = store.mk_and(&outside);
        Ok((params, simplify(store, r)))
    }

    /// Rewrites step `si` (over the changed clause `ch`, as it is after this record) into a
    /// step over the clause before the record, adding one step over the definition per
    /// inlined occurrence (registered in `by_clause`).
    fn undo_step(
        &self,
        store: &TermStore,
        steps: &mut Vec<DerivationStep>,
        si: usize,
        ch: &Changed,
        by_clause: &mut FxHashMap<usize, Vec<usize>>,
    ) -> Result<(), BackError> {
        let step = steps[si].clone();
        let mut m = model_of(&step);
        m.complete = true;
        let vals: Vec<(VarId, cove_logic::Value)> = ch
            .defs
            .iter()
            .map(|(v, t)| Ok((*v, eval(store, &m, *t)?)))
            .collect::<Result<_, BackError>>()?;
        for (v, x) in vals {
            m.set(v, x);
        }
        let mut premises = Vec::with_capacity(ch.slots.len());
        for slot in &ch.slots {
            match slot {
                Slot::Kept(n) => premises.push(premise(&step, *n)?),
                Slot::Inlined { first, rename } => {
                    let mut dm = cove_logic::Model::new();
                    for (&v, &r) in self.def.vars.iter().zip(rename) {
                        let val = m
                            .get(r)
                            .cloned()
                            .unwrap_or_else(|| cove_logic::Value::default_of(store.var_sort(r)));
                        dm.set(v, val);
                    }
                    let head = self.def.head.as_ref().expect("a definition has a head");
                    let vals = head
                        .args
                        .iter()
                        .map(|&a| eval(store, &dm, a))
                        .collect::<Result<Vec<_>, _>>()?;
                    let prem = (0..self.def.body.len())
                        .map(|k| premise(&step, first + k))
                        .collect::<Result<Vec<_>, _>>()?;
                    premises.push(steps.len());
                    by_clause
                        .entry(self.def_index)
                        .or_default()
                        .push(steps.len());
                    steps.push(DerivationStep {
                        clause: self.def_index,
                        head: Some((self.pred, vals)),
                        premises: prem,
                        assignment: assignment(store, &dm, &self.def.vars),
                    });
                }
            }
        }
        let s = &mut steps[si];
        s.premises = premises;
        s.assignment = assignment(store, &m, &ch.old_vars);
        Ok(())
    }
}

fn premise(step: &DerivationStep, n: usize) -> Result<usize, BackError> {
    step.premises.get(n).copied().ok_or_else(|| {
        BackError::BadWitness(format!(
            "step over clause {} lacks premise {n}",
            step.clause
        ))
    })
}

/// Exact elimination of `vars` from `phi` within the QE budget.
fn qe(
    store: &mut TermStore,
    phi: TermId,
    vars: &[VarId],
    ctl: &Control,
) -> Result<TermId, QeError> {
    cove_smt::mbp::qe_under(
        store,
        phi,
        vars,
        QE_DISJUNCTS,
        &ctl.child_with_budget(QE_TIME),
    )
}

impl BackTranslate for Inline {
    fn invariants(
        &self,
        store: &mut TermStore,
        mut inv: Invariants,
        ctl: &Control,
    ) -> Result<Invariants, BackError> {
        for r in self.records.iter().rev() {
            let (params, body) = r.invariant(store, &inv, ctl)?;
            inv.define(r.pred, params, body);
        }
        Ok(inv)
    }

    fn derivation(
        &self,
        store: &mut TermStore,
        d: Derivation,
        _ctl: &Control,
    ) -> Result<Derivation, BackError> {
        let mut steps = d.steps;
        let mut by_clause: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
        for (si, step) in steps.iter_mut().enumerate() {
            step.clause = *self.kept.get(step.clause).ok_or_else(|| {
                BackError::BadWitness(format!("step over missing clause {}", step.clause))
            })?;
            by_clause.entry(step.clause).or_default().push(si);
        }
        for r in self.records.iter().rev() {
            for ch in &r.changed {
                let Some(list) = by_clause.get(&ch.clause).cloned() else {
                    continue;
                };
                for si in list {
                    r.undo_step(store, &mut steps, si, ch, &mut by_clause)?;
                }
            }
        }
        Ok(Derivation {
            steps,
            root: d.root,
        })
    }
}
