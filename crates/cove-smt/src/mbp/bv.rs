//! Projection of bit-vector variables from a cube of literals (the implicant), word level:
//! a literal `x = t` with `x` not free in `t` defines `x` (substituting `t` is exact), and a
//! variable without a definition gets its model value (a sound under-approximation that
//! keeps the model; a bit-vector has finitely many values, so the image stays finite).

use super::{MbpError, model_value};
use cove_logic::{Model, Op, TermId, TermStore, VarId, free_vars, simplify, substitute};
use rustc_hash::FxHashMap;

/// `lits` with `vars` (bit-vector variables) eliminated; the model satisfies the result.
pub(super) fn project(
    store: &mut TermStore,
    model: &Model,
    lits: &[TermId],
    vars: &[VarId],
) -> Result<Vec<TermId>, MbpError> {
    let mut lits = lits.to_vec();
    for &x in vars {
        let def = lits.iter().find_map(|&l| {
            if store.op(l) != &Op::Eq {
                return None;
            }
            let (a, b) = (store.args(l)[0], store.args(l)[1]);
            [(a, b), (b, a)].into_iter().find_map(|(u, t)| {
                (store.as_var(u) == Some(x) && !free_vars(store, t).contains(&x)).then_some(t)
            })
        });
        let image = match def {
            Some(t) => t,
            None => {
                let v = model_value(store, model, x)?;
                v.to_term(store, store.var_sort(x))
            }
        };
        let map: FxHashMap<VarId, TermId> = [(x, image)].into_iter().collect();
        let mut next = Vec::with_capacity(lits.len());
        for &l in &lits {
            let s = substitute(store, l, &map);
            let s = simplify(store, s);
            match store.as_bool(s) {
                Some(true) => {}
                Some(false) => return Err(MbpError::NotAModel),
                None => {
                    if !next.contains(&s) {
                        next.push(s);
                    }
                }
            }
        }
        lits = next;
    }
    Ok(lits)
}
