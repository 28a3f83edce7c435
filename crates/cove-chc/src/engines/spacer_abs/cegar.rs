//! ISFEASIBLE and CEGAR (thesis Fig. 3.7 line 13, Sec. 3.5(f)): a counterexample of the
//! abstract system is a derivation tree (a DAG of clause instances); its *shape* is unrolled
//! over the input clauses, each copy with its leaves under the clause's σ literals (shared by
//! all copies of a clause, as the thesis's Σ are per constraint). Satisfiable under every σ:
//! the model gives a concrete derivation. Unsatisfiable: the core names the leaves the
//! refutation needs, and refinement enables them.
//!
//! Works for nonlinear systems unchanged: a step has one premise per body atom.

use super::space::Space;
use crate::engine::Control;
use crate::result::{Derivation, UnknownReason};
use crate::system::ChcSystem;
use cove_logic::{Model, TermId, TermStore, VarId, substitute};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::{FxHashMap, FxHashSet};

/// Result of [`feasible`].
pub(super) enum Feasibility {
    /// A derivation of the input system with concrete values.
    Real(Derivation),
    /// Infeasible; the leaves of the unsat core.
    Spurious(Vec<usize>),
}

/// Checks the shape of `d` (a derivation of the abstract system) on the input system.
pub(super) fn feasible(
    store: &mut TermStore,
    space: &Space,
    sys: &ChcSystem,
    d: &Derivation,
    ctl: &Control,
) -> Result<Feasibility, UnknownReason> {
    let bad = |why: &str| UnknownReason::Incomplete(format!("abstract counterexample: {why}"));
    let mut s = SmtSolver::new();
    s.set_limits(cove_smt::Limits::of(ctl));
    let mut copies: Vec<FxHashMap<VarId, TermId>> = Vec::new();
    let mut guarded: FxHashMap<usize, TermId> = FxHashMap::default();
    let mut used = FxHashSet::default();
    for (si, step) in d.steps.iter().enumerate() {
        let ci = step.clause;
        if ci >= space.clauses.len() {
            return Err(bad("clause out of range"));
        }
        let ac = &space.clauses[ci];
        let map: FxHashMap<VarId, TermId> = ac
            .vars
            .iter()
            .map(|&v| {
                let c = store.fresh_var(&format!("s{si}"), store.var_sort(v));
                (v, store.mk_var(c))
            })
            .collect();
        let g = match guarded.get(&ci) {
            Some(&g) => g,
            None => {
                let g = space.guarded(store, ci);
                guarded.insert(ci, g);
                g
            }
        };
        let t = substitute(store, g, &map);
        s.assert(store, t);
        used.insert(ci);
        copies.push(map);
    }
    for (si, step) in d.steps.iter().enumerate() {
        let ac = &space.clauses[step.clause];
        if step.premises.len() != ac.body.len() {
            return Err(bad("premises do not match the body"));
        }
        for (b, &p) in ac.body.iter().zip(&step.premises) {
            let Some(pstep) = d.steps.get(p) else {
                return Err(bad("premise out of range"));
            };
            let Some((hp, hargs)) = &space.clauses[pstep.clause].head else {
                return Err(bad("premise is a query"));
            };
            if *hp != b.pred || hargs.len() != b.args.len() {
                return Err(bad("premise derives another predicate"));
            }
            for (a, h) in b.args.iter().zip(hargs) {
                let a = substitute(store, *a, &copies[si]);
                let h = substitute(store, *h, &copies[p]);
                let eq = store.mk_eq(a, h);
                s.assert(store, eq);
            }
        }
    }
    let mut sigmas: Vec<TermId> = Vec::new();
    let mut used: Vec<usize> = used.into_iter().collect();
    used.sort_unstable();
    for ci in used {
        sigmas.extend(
            space.clauses[ci]
                .leaves
                .iter()
                .map(|&l| space.leaves[l].sigma),
        );
    }
    match s.check_assuming(store, &sigmas) {
        SmtResult::Unsat => {
            let core = s
                .unsat_core()
                .into_iter()
                .filter_map(|l| space.by_sigma.get(&l).copied())
                .collect();
            Ok(Feasibility::Spurious(core))
        }
        SmtResult::Sat => {
            let m = s.model(store);
            Ok(Feasibility::Real(concrete(store, sys, d, &copies, &m)))
        }
        SmtResult::Unknown(r) => Err(ctl
            .should_stop()
            .unwrap_or_else(|| UnknownReason::Incomplete(format!("SMT: {r:?}")))),
    }
}

/// The derivation of the input system read off the unrolling's model.
fn concrete(
    store: &TermStore,
    sys: &ChcSystem,
    d: &Derivation,
    copies: &[FxHashMap<VarId, TermId>],
    m: &Model,
) -> Derivation {
    Derivation::read_off(
        store,
        sys,
        d.steps.iter().map(|s| (s.clause, s.premises.clone())),
        d.root,
        copies,
        m,
    )
}
