//! Building the transition system from clauses (see the module docs of [`super`]).

use super::{LocKind, Location, TransitionSystem, TsError, loc_term};
use crate::engine::Control;
use crate::system::{ChcSystem, Clause};
use cove_logic::{FuncId, Sort, TermId, TermStore, VarId, simplify, substitute};
use rustc_hash::FxHashMap;

/// Most disjuncts a quantifier elimination for `init`/`bad` may produce by default.
pub(super) const QE_LIMIT: usize = 64;

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
    limit: usize,
    ctl: &Control,
) -> Result<TermId, TsError> {
    let phi = simplify(store, phi);
    let fv = cove_logic::free_vars(store, phi);
    let vars: Vec<VarId> = vars.iter().copied().filter(|v| fv.contains(v)).collect();
    if vars.is_empty() {
        return Ok(phi);
    }
    if limit == 0 {
        // Never eliminate (the caller keeps local variables as per-step inputs).
        return Err(TsError::Unsupported("no quantifier elimination".into()));
    }
    let r = cove_smt::mbp::qe_under(store, phi, &vars, limit, ctl);
    r.map_err(|e| match ctl.should_stop() {
        Some(s) => TsError::Stopped(s),
        None => TsError::Unsupported(format!("quantifier elimination: {e}")),
    })
}

/// The slot variables of every predicate (shared per sort when there are several).
fn slots(store: &mut TermStore, sys: &ChcSystem) -> (Vec<Vec<VarId>>, Vec<VarId>) {
    let single = sys.preds.len() == 1;
    let mut pool: FxHashMap<Sort, Vec<VarId>> = FxHashMap::default();
    let mut vars = Vec::new();
    let mut out = Vec::new();
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
        out.push(slots);
    }
    (out, vars)
}

fn next_copy(store: &mut TermStore, v: VarId) -> VarId {
    let name = format!("{}'", store.var_name(v));
    store.fresh_var(&name, store.var_sort(v))
}

/// A clause, rewritten over the state variables, before the locations are numbered.
enum Piece {
    /// Initial states at a predicate (`None`: at the error location).
    Init(Option<usize>, TermId),
    /// Bad states at a predicate.
    Bad(usize, TermId),
    /// A transition between locations (`None`: start as source, error as target) with
    /// local variables.
    Step(Option<usize>, Option<usize>, Mapped),
}

pub(super) fn build(
    store: &mut TermStore,
    sys: &ChcSystem,
    qe_limit: usize,
    ctl: &Control,
) -> Result<TransitionSystem, TsError> {
    if !sys.is_linear() {
        return Err(TsError::NonLinear);
    }
    if let Some(why) = crate::system::unsupported_feature(sys, store) {
        return Err(TsError::Unsupported(why));
    }
    let index: FxHashMap<FuncId, usize> =
        sys.preds.iter().enumerate().map(|(i, &p)| (p, i)).collect();
    let (slot_of, slot_vars) = slots(store, sys);
    let mut next_of: FxHashMap<VarId, VarId> = FxHashMap::default();
    for &v in &slot_vars {
        let n = next_copy(store, v);
        next_of.insert(v, n);
    }
    // Pass 1: every clause over the slots; facts and queries without their locals if the
    // elimination succeeds, else as transitions from start / into error.
    let mut pieces = Vec::new();
    for c in &sys.clauses {
        if let Some(r) = ctl.should_stop() {
            return Err(TsError::Stopped(r));
        }
        let src = c.body.first().map(|a| index[&a.pred]);
        let dst = c.head.as_ref().map(|h| index[&h.pred]);
        let dst_next: Option<Vec<VarId>> =
            dst.map(|d| slot_of[d].iter().map(|v| next_of[v]).collect());
        let piece = match (src, dst) {
            (Some(s), Some(d)) => {
                let m = map_clause(store, c, Some(&slot_of[s]), dst_next.as_deref());
                Piece::Step(Some(s), Some(d), m)
            }
            (None, _) => {
                let m = map_clause(store, c, None, dst.map(|d| &slot_of[d][..]));
                match eliminate(store, m.constraint, &m.rest, qe_limit, ctl) {
                    Ok(phi) => Piece::Init(dst, phi),
                    Err(TsError::Unsupported(_)) => {
                        let m = map_clause(store, c, None, dst_next.as_deref());
                        Piece::Step(None, dst, m)
                    }
                    Err(e) => return Err(e),
                }
            }
            (Some(s), None) => {
                let m = map_clause(store, c, Some(&slot_of[s]), None);
                match eliminate(store, m.constraint, &m.rest, qe_limit, ctl) {
                    Ok(phi) => Piece::Bad(s, phi),
                    Err(TsError::Unsupported(_)) => Piece::Step(Some(s), None, m),
                    Err(e) => return Err(e),
                }
            }
        };
        pieces.push(piece);
    }
    // Locations: the predicates, then start and error if some piece needs them.
    let needs_start = pieces.iter().any(|p| matches!(p, Piece::Step(None, _, _)));
    let needs_error = pieces
        .iter()
        .any(|p| matches!(p, Piece::Init(None, _) | Piece::Step(_, None, _)));
    let mut locs: Vec<Location> = sys
        .preds
        .iter()
        .zip(&slot_of)
        .map(|(&p, s)| Location {
            kind: LocKind::Pred(p),
            slots: s.clone(),
        })
        .collect();
    let start = needs_start.then(|| {
        locs.push(Location {
            kind: LocKind::Start,
            slots: Vec::new(),
        });
        locs.len() - 1
    });
    let error = needs_error.then(|| {
        locs.push(Location {
            kind: LocKind::Error,
            slots: Vec::new(),
        });
        locs.len() - 1
    });
    let mut vars = Vec::new();
    let loc = (locs.len() > 1).then(|| {
        let v = store.fresh_var("loc", Sort::Int);
        let n = next_copy(store, v);
        next_of.insert(v, n);
        vars.push(v);
        v
    });
    vars.extend(slot_vars);
    let next: Vec<VarId> = vars.iter().map(|v| next_of[v]).collect();
    let at = |store: &mut TermStore, i: usize, primed: bool| -> TermId {
        match loc {
            Some(l) => {
                let v = if primed { next_of[&l] } else { l };
                let v = store.mk_var(v);
                let n = loc_term(store, i);
                store.mk_eq(v, n)
            }
            None => store.mk_true(),
        }
    };
    let (mut init, mut trans, mut bad) = (Vec::new(), Vec::new(), Vec::new());
    if let Some(s) = start {
        init.push(at(store, s, false));
    }
    if let Some(e) = error {
        bad.push(at(store, e, false));
    }
    // Local variables of `trans`, pooled per sort: disjuncts are independent, so clause `c`'s
    // `j`-th local of sort `s` can share a variable with every other clause's.
    let mut aux_pool: FxHashMap<Sort, Vec<VarId>> = FxHashMap::default();
    let mut aux = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Init(d, phi) => {
                let l = at(store, d.or(error).expect("error location"), false);
                init.push(store.mk_and(&[l, phi]));
            }
            Piece::Bad(s, phi) => {
                let l = at(store, s, false);
                bad.push(store.mk_and(&[l, phi]));
            }
            Piece::Step(s, d, m) => {
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
                let s = s.or(start).expect("start location");
                let d = d.or(error).expect("error location");
                let (l, l2) = (at(store, s, false), at(store, d, true));
                trans.push(store.mk_and(&[l, l2, phi]));
            }
        }
    }
    let init = store.mk_or(&init);
    let trans = store.mk_or(&trans);
    let bad = store.mk_or(&bad);
    Ok(TransitionSystem {
        vars,
        next,
        aux,
        init: simplify(store, init),
        trans: simplify(store, trans),
        bad: simplify(store, bad),
        loc,
        locs,
    })
}
