//! Pass 4: removal of unused predicate arguments.
//!
//! Position `i` of `P` is *unused* when, in every clause with `P(ā)` in the body, `aᵢ` is a
//! variable that occurs nowhere else in the clause's body or constraint, nor in a kept head
//! position (it may occur in head positions that are dropped too). Starting from "every
//! position unused", positions that violate this are kept until a fixpoint is reached. Such an
//! argument is universally quantified and constrains nothing, so the output system replaces
//! `P` by a predicate `P'` over the kept positions, and `P(x̄) := P'(kept x̄)` maps its
//! models to models of the input.
//!
//! # Back-translation
//! - Invariants: `Inv(P)(x̄) := Inv(P')(kept x̄)`; the dropped parameters are fresh.
//! - Derivations: premises first, each step's dropped body variables take the values of the
//!   dropped positions of its premises' heads (each such variable occurs at one body position
//!   only), variables that vanished from the clause get defaults, and the full head values
//!   are re-evaluated from the input clause.

use super::util::{assignment, eval, fresh_pred, model_of, occurring_vars, topo_order};
use super::{BackError, BackTranslate};
use crate::engine::Control;
use crate::result::{Derivation, Invariants};
use crate::system::{ChcSystem, Clause, PredApp};
use cove_logic::FuncInterp;
use cove_logic::{FuncId, TermStore, Value, VarId, free_vars};
use rustc_hash::{FxHashMap, FxHashSet};

/// The back-translator of the argument-removal pass.
pub struct DropArgs {
    /// Reduced predicates: new predicate -> (input predicate, kept positions).
    reduced: FxHashMap<FuncId, (FuncId, Vec<usize>)>,
    /// Dropped flags per position of the input predicates that were reduced.
    dropped: FxHashMap<FuncId, Vec<bool>>,
    /// The input clauses (the output clause `k` comes from input clause `k`).
    input: Vec<Clause>,
}

/// Runs the pass.
pub fn run(store: &mut TermStore, sys: &ChcSystem) -> (ChcSystem, DropArgs) {
    let mut dropped: FxHashMap<FuncId, Vec<bool>> = sys
        .preds
        .iter()
        .map(|&p| (p, vec![true; store.func(p).args.len()]))
        .collect();
    // Predicates used in clauses but not listed in `sys.preds` are left alone.
    for c in &sys.clauses {
        for a in c.body.iter().chain(c.head.iter()) {
            dropped
                .entry(a.pred)
                .or_insert_with(|| vec![false; a.args.len()]);
        }
    }
    let constraint_vars: Vec<FxHashSet<VarId>> = sys
        .clauses
        .iter()
        .map(|c| free_vars(store, c.constraint).into_iter().collect())
        .collect();
    // Per clause and body argument: its free variables.
    let body_arg_vars: Vec<Vec<Vec<Vec<VarId>>>> = sys
        .clauses
        .iter()
        .map(|c| {
            c.body
                .iter()
                .map(|a| a.args.iter().map(|&t| free_vars(store, t)).collect())
                .collect()
        })
        .collect();
    let head_arg_vars: Vec<Vec<Vec<VarId>>> = sys
        .clauses
        .iter()
        .map(|c| {
            c.head.as_ref().map_or(Vec::new(), |h| {
                h.args.iter().map(|&t| free_vars(store, t)).collect()
            })
        })
        .collect();
    loop {
        let mut changed = false;
        for (ci, c) in sys.clauses.iter().enumerate() {
            let mut count: FxHashMap<VarId, usize> = FxHashMap::default();
            for atom in &body_arg_vars[ci] {
                for vs in atom {
                    for v in vs {
                        *count.entry(*v).or_default() += 1;
                    }
                }
            }
            let mut head_kept: FxHashSet<VarId> = FxHashSet::default();
            if let Some(h) = &c.head {
                for (i, vs) in head_arg_vars[ci].iter().enumerate() {
                    if !dropped[&h.pred][i] {
                        head_kept.extend(vs.iter().copied());
                    }
                }
            }
            for a in &c.body {
                for (i, &t) in a.args.iter().enumerate() {
                    if !dropped[&a.pred][i] {
                        continue;
                    }
                    let ok = store.as_var(t).is_some_and(|v| {
                        count[&v] == 1
                            && !constraint_vars[ci].contains(&v)
                            && !head_kept.contains(&v)
                    });
                    if !ok {
                        dropped.get_mut(&a.pred).expect("declared predicate")[i] = false;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut bt = DropArgs {
        reduced: FxHashMap::default(),
        dropped: FxHashMap::default(),
        input: sys.clauses.clone(),
    };
    let mut rename: FxHashMap<FuncId, (FuncId, Vec<usize>)> = FxHashMap::default();
    let mut out = ChcSystem::default();
    for &p in &sys.preds {
        let d = &dropped[&p];
        if !d.iter().any(|&x| x) {
            out.preds.push(p);
            continue;
        }
        let decl = store.func(p).clone();
        let kept: Vec<usize> = (0..d.len()).filter(|&i| !d[i]).collect();
        let sorts: Vec<_> = kept.iter().map(|&i| decl.args[i]).collect();
        let np = fresh_pred(store, &decl.name, &sorts);
        out.preds.push(np);
        rename.insert(p, (np, kept.clone()));
        bt.reduced.insert(np, (p, kept));
        bt.dropped.insert(p, d.clone());
    }
    let map_app = |a: &PredApp| match rename.get(&a.pred) {
        Some((np, kept)) => PredApp {
            pred: *np,
            args: kept.iter().map(|&i| a.args[i]).collect(),
        },
        None => a.clone(),
    };
    for c in &sys.clauses {
        let mut nc = Clause {
            vars: c.vars.clone(),
            body: c.body.iter().map(map_app).collect(),
            constraint: c.constraint,
            head: c.head.as_ref().map(map_app),
            origin: c.origin,
        };
        nc.vars = occurring_vars(store, &nc);
        out.clauses.push(nc);
    }
    (out, bt)
}

impl BackTranslate for DropArgs {
    fn invariants(
        &self,
        store: &mut TermStore,
        mut inv: Invariants,
        _ctl: &Control,
    ) -> Result<Invariants, BackError> {
        for (np, (p, kept)) in &self.reduced {
            let Some(def) = inv.defs.remove(np) else {
                return Err(BackError::BadWitness(format!(
                    "no invariant for '{}'",
                    store.func(*np).name
                )));
            };
            let decl = store.func(*p).clone();
            let mut params: Vec<Option<VarId>> = vec![None; decl.args.len()];
            for (&i, &v) in kept.iter().zip(&def.params) {
                params[i] = Some(v);
            }
            let params: Vec<VarId> = params
                .into_iter()
                .enumerate()
                .map(|(i, v)| {
                    v.unwrap_or_else(|| {
                        store.fresh_var(&format!("{}_{i}", decl.name), decl.args[i])
                    })
                })
                .collect();
            inv.defs.insert(
                *p,
                FuncInterp {
                    params,
                    body: def.body,
                },
            );
        }
        Ok(inv)
    }

    fn derivation(
        &self,
        store: &mut TermStore,
        mut d: Derivation,
        _ctl: &Control,
    ) -> Result<Derivation, BackError> {
        let order = topo_order(&d)?;
        let mut full: Vec<Option<Vec<Value>>> = vec![None; d.steps.len()];
        for s in order {
            let step = &d.steps[s];
            let Some(c) = self.input.get(step.clause) else {
                return Err(BackError::BadWitness(format!(
                    "step over missing clause {}",
                    step.clause
                )));
            };
            let mut m = model_of(step);
            if step.premises.len() != c.body.len() {
                return Err(BackError::BadWitness(format!(
                    "step {s} has the wrong number of premises"
                )));
            }
            for (a, &p) in c.body.iter().zip(&step.premises) {
                let Some(flags) = self.dropped.get(&a.pred) else {
                    continue;
                };
                let Some(vals) = &full[p] else {
                    return Err(BackError::BadWitness(format!(
                        "premise {p} of step {s} derives false"
                    )));
                };
                for (i, &dropped) in flags.iter().enumerate() {
                    if dropped {
                        let v = store
                            .as_var(a.args[i])
                            .expect("dropped arguments are variables");
                        m.set(v, vals[i].clone());
                    }
                }
            }
            let asg = assignment(store, &m, &c.vars);
            let mut full_m = cove_logic::Model::new();
            for (v, x) in &asg {
                full_m.set(*v, x.clone());
            }
            let head = match &c.head {
                Some(h) => {
                    let vals = h
                        .args
                        .iter()
                        .map(|&t| eval(store, &full_m, t))
                        .collect::<Result<Vec<_>, _>>()?;
                    full[s] = Some(vals.clone());
                    Some((h.pred, vals))
                }
                None => None,
            };
            let step = &mut d.steps[s];
            step.head = head;
            step.assignment = asg;
        }
        Ok(d)
    }
}
