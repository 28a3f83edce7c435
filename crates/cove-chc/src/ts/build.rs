//! Building the transition system from clauses (see the module docs of [`super`]).

use super::{Location, TransitionSystem, TsError, loc_term};
use crate::engine::Control;
use crate::system::{ChcSystem, Clause};
use cove_logic::{FuncId, Sort, TermId, TermStore, VarId, simplify, substitute};
use cove_smt::mbp::qe_with;
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::FxHashMap;

/// Most disjuncts a quantifier elimination for `init`/`bad` may produce.
const QE_LIMIT: usize = 64;

/// A clause rewritten over state variables: `constraint` mentions the slots it was given and
/// the clause variables in `rest` (those that are not plain predicate arguments).
struct Mapped {
    constraint: TermId,
    rest: Vec<VarId>,
}

/// Rewrites clause `c` so that its body arguments live in `body` and its head arguments in
/// `head`. An argument that is a clause variable seen for the first time is *renamed* to its
/// slot (no equality, no extra variable); any other argument becomes `slot = arg`.
fn map_clause(
    store: &mut TermStore,
    c: &Clause,
    body: Option<&[VarId]>,
    head: Option<&[VarId]>,
) -> Mapped {
    let mut map: FxHashMap<VarId, TermId> = FxHashMap::default();
    let mut parts = vec![c.constraint];
    let pairs: Vec<(VarId, TermId)> = body
        .into_iter()
        .flat_map(|s| s.iter().copied().zip(c.body[0].args.iter().copied()))
        .chain(
            head.into_iter()
                .flat_map(|s| s.iter().copied().zip(c.head.as_ref().unwrap().args.clone())),
        )
        .collect();
    for (slot, arg) in pairs {
        match store.as_var(arg) {
            Some(v) if !map.contains_key(&v) && c.vars.contains(&v) => {
                let t = store.mk_var(slot);
                map.insert(v, t);
            }
            _ => {
                let s = store.mk_var(slot);
                parts.push(store.mk_eq(s, arg));
            }
        }
    }
    let rest: Vec<VarId> = c
        .vars
        .iter()
        .copied()
        .filter(|v| !map.contains_key(v))
        .collect();
    let conj = store.mk_and(&parts);
    let constraint = substitute(store, conj, &map);
    Mapped { constraint, rest }
}

/// `∃vars·phi` without quantifiers, by MBP-based elimination under `ctl`.
pub(crate) fn eliminate(
    store: &mut TermStore,
    phi: TermId,
    vars: &[VarId],
    ctl: &Control,
) -> Result<TermId, TsError> {
    let phi = simplify(store, phi);
    let fv = cove_logic::free_vars(store, phi);
    let vars: Vec<VarId> = vars.iter().copied().filter(|v| fv.contains(v)).collect();
    if vars.is_empty() {
        return Ok(phi);
    }
    let mut solver = SmtSolver::new();
    solver.set_limits(cove_smt::Limits::of(ctl));
    solver.assert(store, phi);
    let mut asserted = 0;
    let r = qe_with(store, phi, &vars, QE_LIMIT, |store, blocked| {
        for &psi in &blocked[asserted..] {
            let n = store.mk_not(psi);
            solver.assert(store, n);
        }
        asserted = blocked.len();
        match solver.check(store) {
            SmtResult::Sat => Ok(Some(solver.model(store))),
            SmtResult::Unsat => Ok(None),
            SmtResult::Unknown(why) => Err(cove_smt::mbp::QeError::Unknown(format!("{why}"))),
        }
    });
    r.map_err(|e| match ctl.should_stop() {
        Some(s) => TsError::Stopped(s),
        None => TsError::Unsupported(format!("quantifier elimination: {e}")),
    })
}

/// Allocates the state variables: the location (if needed) and the slots.
struct Layout {
    loc: Option<VarId>,
    locs: Vec<Location>,
    vars: Vec<VarId>,
    index: FxHashMap<FuncId, usize>,
}

fn layout(store: &mut TermStore, sys: &ChcSystem) -> Layout {
    let has_err = sys.clauses.iter().any(|c| c.is_query() && c.is_fact());
    let n_locs = sys.preds.len() + has_err as usize;
    let mut vars = Vec::new();
    let loc = (n_locs > 1).then(|| {
        let v = store.fresh_var("loc", Sort::Int);
        vars.push(v);
        v
    });
    let single = sys.preds.len() == 1;
    let mut pool: FxHashMap<Sort, Vec<VarId>> = FxHashMap::default();
    let mut locs = Vec::new();
    let mut index = FxHashMap::default();
    for &p in &sys.preds {
        let name = store.func(p).name.to_string();
        let sorts = store.func(p).args.clone();
        let mut used: FxHashMap<Sort, usize> = FxHashMap::default();
        let mut slots = Vec::new();
        for (j, &s) in sorts.iter().enumerate() {
            let k = used.entry(s).or_default();
            let pool_s = pool.entry(s).or_default();
            if *k == pool_s.len() {
                let prefix = if single {
                    format!("{name}_{j}")
                } else {
                    format!("s_{}{}", s, pool_s.len())
                };
                let v = store.fresh_var(&prefix, s);
                pool_s.push(v);
                vars.push(v);
            }
            slots.push(pool_s[*k]);
            *k += 1;
        }
        index.insert(p, locs.len());
        locs.push(Location {
            pred: Some(p),
            slots,
        });
    }
    if has_err {
        locs.push(Location {
            pred: None,
            slots: Vec::new(),
        });
    }
    Layout {
        loc,
        locs,
        vars,
        index,
    }
}

pub(super) fn build(
    store: &mut TermStore,
    sys: &ChcSystem,
    ctl: &Control,
) -> Result<TransitionSystem, TsError> {
    if !sys.is_linear() {
        return Err(TsError::NonLinear);
    }
    if let Some(why) = crate::system::unsupported_feature(sys, store) {
        return Err(TsError::Unsupported(why));
    }
    let lay = layout(store, sys);
    let next: Vec<VarId> = lay
        .vars
        .iter()
        .map(|&v| {
            let name = format!("{}'", store.var_name(v));
            store.fresh_var(&name, store.var_sort(v))
        })
        .collect();
    let next_of: FxHashMap<VarId, VarId> =
        lay.vars.iter().copied().zip(next.iter().copied()).collect();
    let at = |store: &mut TermStore, i: usize, primed: bool| -> TermId {
        match lay.loc {
            Some(l) => {
                let v = if primed { next_of[&l] } else { l };
                let v = store.mk_var(v);
                let n = loc_term(store, i);
                store.mk_eq(v, n)
            }
            None => store.mk_true(),
        }
    };
    let err_loc = lay.locs.len().saturating_sub(1);
    let (mut init, mut trans, mut bad) = (Vec::new(), Vec::new(), Vec::new());
    // Local variables of `trans`, pooled per sort: disjuncts are independent, so clause `c`'s
    // `j`-th local of sort `s` can share a variable with every other clause's.
    let mut aux_pool: FxHashMap<Sort, Vec<VarId>> = FxHashMap::default();
    let mut aux = Vec::new();
    for c in &sys.clauses {
        if let Some(r) = ctl.should_stop() {
            return Err(TsError::Stopped(r));
        }
        let src = c.body.first().map(|a| lay.index[&a.pred]);
        let dst = c.head.as_ref().map(|h| lay.index[&h.pred]);
        match (src, dst) {
            (None, Some(d)) => {
                let m = map_clause(store, c, None, Some(&lay.locs[d].slots));
                let phi = eliminate(store, m.constraint, &m.rest, ctl)?;
                let l = at(store, d, false);
                init.push(store.mk_and(&[l, phi]));
            }
            (None, None) => {
                let m = map_clause(store, c, None, None);
                let phi = eliminate(store, m.constraint, &m.rest, ctl)?;
                let l = at(store, err_loc, false);
                init.push(store.mk_and(&[l, phi]));
                bad.push(l);
            }
            (Some(s), None) => {
                let m = map_clause(store, c, Some(&lay.locs[s].slots), None);
                let phi = eliminate(store, m.constraint, &m.rest, ctl)?;
                let l = at(store, s, false);
                bad.push(store.mk_and(&[l, phi]));
            }
            (Some(s), Some(d)) => {
                let dst_next: Vec<VarId> = lay.locs[d].slots.iter().map(|v| next_of[v]).collect();
                let m = map_clause(store, c, Some(&lay.locs[s].slots), Some(&dst_next));
                let mut used: FxHashMap<Sort, usize> = FxHashMap::default();
                let mut ren = FxHashMap::default();
                for v in m.rest {
                    let sort = store.var_sort(v);
                    let k = used.entry(sort).or_default();
                    let pool = aux_pool.entry(sort).or_default();
                    if *k == pool.len() {
                        let a = store.fresh_var(&format!("aux_{sort}{k}"), sort);
                        pool.push(a);
                        aux.push(a);
                    }
                    ren.insert(v, store.mk_var(pool[*k]));
                    *k += 1;
                }
                let phi = substitute(store, m.constraint, &ren);
                let (l, l2) = (at(store, s, false), at(store, d, true));
                trans.push(store.mk_and(&[l, l2, phi]));
            }
        }
    }
    let init = store.mk_or(&init);
    let trans = store.mk_or(&trans);
    let bad = store.mk_or(&bad);
    Ok(TransitionSystem {
        vars: lay.vars,
        next,
        aux,
        init: simplify(store, init),
        trans: simplify(store, trans),
        bad: simplify(store, bad),
        loc: lay.loc,
        locs: lay.locs,
    })
}
