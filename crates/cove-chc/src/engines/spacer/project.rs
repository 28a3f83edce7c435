//! Projection of a model's neighbourhood onto a set of variables.
//!
//! Spacer needs `∃ others · φ` under-approximated around one model, both for new
//! must-summaries (MUST) and for new reachability queries (QUERY). With MBP (the default)
//! the result is the model-based projection of thesis Sec. 2.5; the ablation `--no-mbp`
//! substitutes the model's values instead (the "plain model substitution" of Z3's GPDR).
//! Either way the result holds in the model and implies the existential, so must-summaries
//! stay sound under-approximations.

use cove_logic::{
    Model, Op, Sort, TermId, TermStore, Value, VarId, free_vars, simplify, substitute,
};
use rustc_hash::{FxHashMap, FxHashSet};

/// Projects `phi` onto `keep` under `model` (which must satisfy `phi`) and returns the
/// result as a cube (list of conjuncts; empty = true).
pub fn project(
    store: &mut TermStore,
    model: &Model,
    phi: TermId,
    keep: &[VarId],
    use_mbp: bool,
) -> Vec<TermId> {
    let elim: Vec<VarId> = free_vars(store, phi)
        .into_iter()
        .filter(|v| !keep.contains(v))
        .collect();
    let mut formula = None;
    // With arrays, the array projection; when it fails, the fallback below (model
    // substitution over an implicant, always a cube that holds in the model).
    if has_arrays(store, phi)
        && let Some(f) = super::project_arrays::project(store, model, phi, keep, &elim, use_mbp)
    {
        let f = simplify(store, f);
        return drop_weaker_bounds(store, store.conjuncts(f));
    }
    if use_mbp && let Ok(r) = cove_smt::mbp::mbp_cube(store, model, phi, &elim) {
        // Variables MBP could not eliminate get their model values: still an
        // under-approximation that contains the model.
        let mut f = r.formula;
        if !r.kept.is_empty() {
            f = substitute_values(store, model, f, &r.kept);
        }
        formula = Some(f);
    }
    let f = match formula {
        Some(f) => f,
        None => {
            // Model substitution, restricted to the implicant when one can be computed, so
            // the result is a cube.
            let base = match cove_smt::mbp::implicant(store, model, phi) {
                Ok(lits) => store.mk_and(&lits),
                Err(_) => phi,
            };
            substitute_values(store, model, base, &elim)
        }
    };
    let f = simplify(store, f);
    drop_weaker_bounds(store, store.conjuncts(f))
}

/// Removes bounds implied by a tighter bound on the same linear term (`s <= 3` next to
/// `s <= 1`). Projections conjoin the lemmas they pass through, so without this, cubes grow
/// with every level and equal state sets get different cubes (which defeats the
/// de-duplication of queries).
fn drop_weaker_bounds(store: &TermStore, cube: Vec<TermId>) -> Vec<TermId> {
    let bound = |l: TermId| -> Option<(TermId, bool, cove_logic::Rational)> {
        let strict = match store.op(l) {
            Op::Le => false,
            Op::Lt => true,
            _ => return None,
        };
        let args = store.args(l);
        Some((args[0], strict, store.as_num(args[1])?.clone()))
    };
    let mut best: FxHashMap<(TermId, bool), (cove_logic::Rational, TermId)> = FxHashMap::default();
    for &l in &cube {
        if let Some((s, strict, k)) = bound(l) {
            match best.get(&(s, strict)) {
                Some((k0, _)) if *k0 <= k => {}
                _ => {
                    best.insert((s, strict), (k, l));
                }
            }
        }
    }
    let mut seen = FxHashSet::default();
    cube.into_iter()
        .filter(|&l| match bound(l) {
            Some((s, strict, _)) => best[&(s, strict)].1 == l,
            None => true,
        })
        .filter(|&l| seen.insert(l))
        .collect()
}

/// Whether `t` mentions an array (a read, a write or an array-sorted subterm).
pub(super) fn has_arrays(store: &TermStore, t: TermId) -> bool {
    let mut stack = vec![t];
    let mut seen = FxHashSet::default();
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        if store.sort(u).is_array() || matches!(store.op(u), Op::Select) {
            return true;
        }
        stack.extend(store.args(u).iter().copied());
    }
    false
}

pub(super) fn substitute_values(
    store: &mut TermStore,
    model: &Model,
    t: TermId,
    vars: &[VarId],
) -> TermId {
    let mut map = FxHashMap::default();
    for &v in vars {
        let val = model
            .get(v)
            .cloned()
            .unwrap_or_else(|| Value::default_of(store.var_sort(v)));
        let term = value_term(store, &val, store.var_sort(v));
        map.insert(v, term);
    }
    let r = substitute(store, t, &map);
    simplify(store, r)
}

/// The constant term of a model value of the given sort.
pub(super) fn value_term(store: &mut TermStore, v: &Value, sort: Sort) -> TermId {
    v.to_term(store, sort)
}
