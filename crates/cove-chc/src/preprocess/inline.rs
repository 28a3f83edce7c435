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
    assignment, dag_size, defining_equality, eval, fresh_params, model_of, rename_clause,
};
use super::{BackError, BackTranslate};
use crate::engine::Control;
use crate::result::{Derivation, DerivationStep, Invariants};
use crate::system::{ChcSystem, Clause};
use cove_logic::{
    FuncId, Op, TermId, TermStore, VarId, expand_funcs, free_vars, simplify, substitute,
};
use cove_smt::mbp::{QeError, qe_with};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::{FxHashMap, FxHashSet};
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

/// One inlining step.
struct Record {
    pred: FuncId,
    def: Clause,
    def_index: usize,
    /// Per output clause: input clause index and slots of its body atoms.
    origin: Vec<(usize, Vec<Slot>)>,
    /// Per input clause: its variables.
    input_vars: Vec<Vec<VarId>>,
}

/// The back-translator of the inlining pass.
pub struct Inline {
    records: Vec<Record>,
}

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
pub fn run(
    store: &mut TermStore,
    sys: &ChcSystem,
    max_size: usize,
    ctl: &Control,
) -> (ChcSystem, Inline) {
    let mut cur = sys.clone();
    let mut records = Vec::new();
    while ctl.should_stop().is_none() {
        let Some((p, d)) = pick(store, &cur, max_size) else {
            break;
        };
        let (next, rec) = inline_one(store, &cur, p, d);
        records.push(rec);
        cur = next;
    }
    (cur, Inline { records })
}

/// A predicate to inline and the index of its definition.
fn pick(store: &TermStore, sys: &ChcSystem, max_size: usize) -> Option<(FuncId, usize)> {
    let mut defs: FxHashMap<FuncId, Vec<usize>> = FxHashMap::default();
    let mut uses: FxHashMap<FuncId, usize> = FxHashMap::default();
    for (i, c) in sys.clauses.iter().enumerate() {
        if let Some(h) = &c.head {
            defs.entry(h.pred).or_default().push(i);
        }
        for a in &c.body {
            *uses.entry(a.pred).or_default() += 1;
        }
    }
    for &p in &sys.preds {
        let Some(ds) = defs.get(&p) else { continue };
        let n_uses = uses.get(&p).copied().unwrap_or(0);
        if ds.len() != 1 || n_uses == 0 {
            continue;
        }
        let d = &sys.clauses[ds[0]];
        if d.body.iter().any(|a| a.pred == p) || (d.body.len() > 1 && n_uses > 1) {
            continue;
        }
        if dag_size(store, d.constraint) * n_uses > max_size || !clause_friendly(store, d) {
            continue;
        }
        // Users must not grow beyond a modest number of body atoms.
        let too_wide = d.body.len() > 1
            && sys.clauses.iter().any(|c| {
                let k = c.body.iter().filter(|a| a.pred == p).count();
                k > 0 && c.body.len() + k * (d.body.len() - 1) > 6
            });
        if too_wide {
            continue;
        }
        return Some((p, ds[0]));
    }
    None
}

fn inline_one(store: &mut TermStore, sys: &ChcSystem, p: FuncId, d: usize) -> (ChcSystem, Record) {
    let def = sys.clauses[d].clone();
    let mut out = ChcSystem {
        preds: sys.preds.iter().copied().filter(|&q| q != p).collect(),
        clauses: Vec::new(),
    };
    let mut origin = Vec::new();
    for (i, c) in sys.clauses.iter().enumerate() {
        if i == d {
            continue;
        }
        let mut slots = Vec::with_capacity(c.body.len());
        if !c.body.iter().any(|a| a.pred == p) {
            slots.extend((0..c.body.len()).map(Slot::Kept));
            out.clauses.push(c.clone());
            origin.push((i, slots));
            continue;
        }
        let mut body = Vec::new();
        let mut parts = vec![c.constraint];
        let mut vars = c.vars.clone();
        for app in &c.body {
            if app.pred != p {
                slots.push(Slot::Kept(body.len()));
                body.push(app.clone());
                continue;
            }
            let (rc, map) = rename_clause(store, &def, "'");
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
        out.clauses.push(Clause {
            vars,
            body,
            constraint,
            head: c.head.clone(),
            origin: c.origin,
        });
        origin.push((i, slots));
    }
    let input_vars = sys.clauses.iter().map(|c| c.vars.clone()).collect();
    (
        out,
        Record {
            pred: p,
            def,
            def_index: d,
            origin,
            input_vars,
        },
    )
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
        // Substitute locals defined by equalities (exact, and much cheaper than QE).
        for _ in 0..16 {
            let mut found = None;
            for e in store.conjuncts(f) {
                let allowed = |v: VarId| !param_set.contains(&v);
                if let Some(def) = defining_equality(store, e, &allowed, &|_| 0) {
                    found = Some(def);
                    break;
                }
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
            let q = qe(store, phi, &locals, ctl).map_err(|e| BackError::Qe {
                pred: name.clone(),
                why: e.to_string(),
            })?;
            outside.push(q);
        }
        let r = store.mk_and(&outside);
        Ok((params, simplify(store, r)))
    }

    fn derivation(
        &self,
        store: &mut TermStore,
        d: Derivation,
        _ctl: &Control,
    ) -> Result<Derivation, BackError> {
        let mut steps = d.steps.clone();
        for (si, step) in d.steps.iter().enumerate() {
            let Some((orig, slots)) = self.origin.get(step.clause) else {
                return Err(BackError::BadWitness(format!(
                    "step over missing clause {}",
                    step.clause
                )));
            };
            let m = model_of(step);
            let mut premises = Vec::with_capacity(slots.len());
            for slot in slots {
                match slot {
                    Slot::Kept(n) => premises.push(premise(step, *n)?),
                    Slot::Inlined { first, rename } => {
                        let mut dm = cove_logic::Model::new();
                        for (&v, &r) in self.def.vars.iter().zip(rename) {
                            let val = m.get(r).cloned().unwrap_or_else(|| {
                                cove_logic::Value::default_of(store.var_sort(r))
                            });
                            dm.set(v, val);
                        }
                        let head = self.def.head.as_ref().expect("a definition has a head");
                        let vals = head
                            .args
                            .iter()
                            .map(|&a| eval(store, &dm, a))
                            .collect::<Result<Vec<_>, _>>()?;
                        let prem = (0..self.def.body.len())
                            .map(|k| premise(step, first + k))
                            .collect::<Result<Vec<_>, _>>()?;
                        premises.push(steps.len());
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
            s.clause = *orig;
            s.premises = premises;
            s.assignment = assignment(store, &m, &self.input_vars[*orig]);
        }
        Ok(Derivation {
            steps,
            root: d.root,
        })
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
    let mut solver = SmtSolver::new();
    solver.set_limits(cove_smt::Limits::of(&ctl.child_with_budget(QE_TIME)));
    solver.assert(store, phi);
    let mut asserted = 0;
    qe_with(store, phi, vars, QE_DISJUNCTS, |store, blocked| {
        for &psi in &blocked[asserted..] {
            let not_psi = store.mk_not(psi);
            solver.assert(store, not_psi);
        }
        asserted = blocked.len();
        match solver.check(store) {
            SmtResult::Sat => Ok(Some(solver.model(store))),
            SmtResult::Unsat => Ok(None),
            SmtResult::Unknown(why) => Err(QeError::Unknown(format!("{why:?}"))),
        }
    })
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
        mut d: Derivation,
        ctl: &Control,
    ) -> Result<Derivation, BackError> {
        for r in self.records.iter().rev() {
            d = r.derivation(store, d, ctl)?;
        }
        Ok(d)
    }
}
