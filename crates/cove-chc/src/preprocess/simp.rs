//! Pass 1: simplification, removal of clauses with unsatisfiable constraints, and constant /
//! equality propagation.
//!
//! Every constraint and argument is simplified ([`cove_logic::simplify()`]). A top-level
//! conjunct `x = t` with `x ∉ t` (for `Int`: `x` with coefficient ±1 and an integral rest)
//! eliminates `x`: the clause `∀x,ȳ. x = t ∧ φ → H` is equivalent to `∀ȳ. φ[t/x] → H[t/x]`.
//! Among several candidates the variable that occurs in no predicate argument is preferred,
//! so arguments stay variables (which the argument-removal pass needs). A clause whose
//! constraint is unsatisfiable (folded to `false`, or shown by the SMT solver within a small
//! conflict budget) is valid under every interpretation and is dropped.
//!
//! # Back-translation
//! The predicates are unchanged and every output clause is equivalent to its input clause, so
//! invariants carry over as they are. A derivation step keeps its head and premises; the
//! eliminated variables get the values of their defining terms (which mention only remaining
//! variables), and variables that vanished from the clause get default values.

use super::util::{assignment, defining_equality, eval, has_quantifier, model_of, occurring_vars};
use super::{BackError, BackTranslate};
use crate::engine::Control;
use crate::result::{Derivation, Invariants};
use crate::system::{ChcSystem, Clause, PredApp};
use cove_logic::{Simplifier, TermId, TermStore, Value, VarId, free_vars, substitute};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::{FxHashMap, FxHashSet};

/// The back-translator of the simplification pass.
pub struct Simplify {
    /// Per output clause: the index of its input clause.
    origin: Vec<usize>,
    /// Per output clause: eliminated variables with their defining terms.
    defs: Vec<Vec<(VarId, TermId)>>,
    /// Per input clause: its variables.
    input_vars: Vec<Vec<VarId>>,
}

/// Runs the pass. Satisfiability checks of constraints use at most `conflicts` conflicts
/// each and stop when `ctl` says so (an undecided clause is kept).
pub fn run(
    store: &mut TermStore,
    sys: &ChcSystem,
    conflicts: u64,
    ctl: &Control,
) -> (ChcSystem, Simplify) {
    let mut simp = Simplifier::new();
    let mut out = ChcSystem {
        preds: sys.preds.clone(),
        clauses: Vec::new(),
    };
    let mut bt = Simplify {
        origin: Vec::new(),
        defs: Vec::new(),
        input_vars: Vec::new(),
    };
    for (i, c) in sys.clauses.iter().enumerate() {
        bt.input_vars.push(c.vars.clone());
        let (nc, defs) = simplify_clause(store, &mut simp, c);
        if store.as_bool(nc.constraint) == Some(false) {
            continue;
        }
        if store.as_bool(nc.constraint) != Some(true) && ctl.should_stop().is_none() {
            let mut solver = SmtSolver::new();
            solver.set_limits(cove_smt::Limits {
                conflicts: Some(conflicts),
                control: ctl.clone(),
            });
            solver.assert(store, nc.constraint);
            if solver.check(store) == SmtResult::Unsat {
                continue;
            }
        }
        out.clauses.push(nc);
        bt.origin.push(i);
        bt.defs.push(defs);
    }
    (out, bt)
}

fn arg_vars(store: &TermStore, apps: &[&PredApp]) -> FxHashSet<VarId> {
    let mut s = FxHashSet::default();
    for a in apps {
        for &t in &a.args {
            s.extend(free_vars(store, t));
        }
    }
    s
}

/// Simplifies one clause and eliminates variables defined by equalities; returns the new
/// clause and the definitions (over the remaining variables) of the eliminated ones.
pub(super) fn simplify_clause(
    store: &mut TermStore,
    simp: &mut Simplifier,
    c: &Clause,
) -> (Clause, Vec<(VarId, TermId)>) {
    let mut constraint = simp.run(store, c.constraint);
    let simp_app = |store: &mut TermStore,
                    simp: &mut Simplifier,
                    a: &PredApp,
                    map: &FxHashMap<VarId, TermId>| PredApp {
        pred: a.pred,
        args: a
            .args
            .iter()
            .map(|&t| {
                let t = substitute(store, t, map);
                simp.run(store, t)
            })
            .collect(),
    };
    let none = FxHashMap::default();
    let mut body: Vec<PredApp> = c
        .body
        .iter()
        .map(|a| simp_app(store, simp, a, &none))
        .collect();
    let mut head: Option<PredApp> = c.head.as_ref().map(|a| simp_app(store, simp, a, &none));
    let clause_vars: FxHashSet<VarId> = c.vars.iter().copied().collect();
    let mut defs: Vec<(VarId, TermId)> = Vec::new();
    for _round in 0..8 {
        // Substituting under a binder could capture variables: leave quantified
        // constraints alone.
        if store.as_bool(constraint) == Some(false) || has_quantifier(store, constraint) {
            break;
        }
        let body_vars = arg_vars(store, &body.iter().collect::<Vec<_>>());
        let head_vars = arg_vars(store, &head.iter().collect::<Vec<_>>());
        let cost = |v: VarId| {
            if body_vars.contains(&v) {
                2
            } else if head_vars.contains(&v) {
                1
            } else {
                0
            }
        };
        let mut map: FxHashMap<VarId, TermId> = FxHashMap::default();
        // Per variable, the defined variables whose images may mention it: a new definition
        // is substituted into those images only (into every image, it made the pass
        // quadratic: 4 s on a Solidity constructor with thousands of component copies).
        let mut users: FxHashMap<VarId, Vec<VarId>> = FxHashMap::default();
        for e in store.conjuncts(constraint) {
            let e = substitute(store, e, &map);
            let e = simp.run(store, e);
            let allowed = |v: VarId| clause_vars.contains(&v) && !map.contains_key(&v);
            if let Some((x, t)) = defining_equality(store, e, &allowed, &cost) {
                let one: FxHashMap<VarId, TermId> = [(x, t)].into_iter().collect();
                let t_vars = free_vars(store, t);
                let mut ks = users.remove(&x).unwrap_or_default();
                ks.sort_unstable();
                ks.dedup();
                for k in ks {
                    let val = map[&k];
                    let s = substitute(store, val, &one);
                    if s != val {
                        map.insert(k, simp.run(store, s));
                        for &v in &t_vars {
                            users.entry(v).or_default().push(k);
                        }
                    }
                }
                for &v in &t_vars {
                    users.entry(v).or_default().push(x);
                }
                map.insert(x, t);
            }
        }
        if map.is_empty() {
            break;
        }
        let s = substitute(store, constraint, &map);
        constraint = simp.run(store, s);
        body = body
            .iter()
            .map(|a| simp_app(store, simp, a, &map))
            .collect();
        head = head.as_ref().map(|a| simp_app(store, simp, a, &map));
        for (_, t) in defs.iter_mut() {
            let s = substitute(store, *t, &map);
            *t = simp.run(store, s);
        }
        let mut new: Vec<(VarId, TermId)> = map.into_iter().collect();
        new.sort();
        defs.extend(new);
    }
    let mut nc = Clause {
        vars: c.vars.clone(),
        body,
        constraint,
        head,
        origin: c.origin,
    };
    nc.vars = occurring_vars(store, &nc);
    (nc, defs)
}

impl BackTranslate for Simplify {
    fn invariants(
        &self,
        _store: &mut TermStore,
        inv: Invariants,
        _ctl: &Control,
    ) -> Result<Invariants, BackError> {
        Ok(inv)
    }

    fn derivation(
        &self,
        store: &mut TermStore,
        mut d: Derivation,
        _ctl: &Control,
    ) -> Result<Derivation, BackError> {
        for step in &mut d.steps {
            let k = step.clause;
            let (Some(&orig), Some(defs)) = (self.origin.get(k), self.defs.get(k)) else {
                return Err(BackError::BadWitness(format!(
                    "step over missing clause {k}"
                )));
            };
            let mut m = model_of(step);
            let eliminated: FxHashSet<VarId> = defs.iter().map(|(v, _)| *v).collect();
            for &v in &self.input_vars[orig] {
                if m.get(v).is_none() && !eliminated.contains(&v) {
                    m.set(v, Value::default_of(store.var_sort(v)));
                }
            }
            // Definitions mention only remaining variables, so their order does not matter.
            let vals: Vec<(VarId, Value)> = defs
                .iter()
                .map(|(v, t)| Ok((*v, eval(store, &m, *t)?)))
                .collect::<Result<_, BackError>>()?;
            for (v, x) in vals {
                m.set(v, x);
            }
            step.assignment = assignment(store, &m, &self.input_vars[orig]);
            step.clause = orig;
        }
        Ok(d)
    }
}
