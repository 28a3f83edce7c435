//! The *concretize* rule of global guidance (see the module docs of [`super`]): a query
//! whose lemma joined a cluster with varying coefficients is, when next found not blocked,
//! also tried split around its model into a concrete sub-query.

use super::super::Run;
use super::super::query::Pob;
use cove_logic::linear::LinearSum;
use cove_logic::simplify::canonical_cmp;
use cove_logic::{Model, Op, Rational, Sort, TermId, TermStore, Value};

/// Value of a linear sum in a model (`None` if an atom has no numeric value).
fn eval_sum(store: &TermStore, m: &Model, s: &LinearSum) -> Option<Rational> {
    let mut v = s.constant.clone();
    for (a, c) in &s.terms {
        match m.eval(store, *a).ok()? {
            Value::Num(x) => v = &v + &(c * &x),
            _ => return None,
        }
    }
    Some(v)
}

/// `s ≤ M(s)` as a canonical literal.
fn le_value(store: &mut TermStore, m: &Model, mut s: LinearSum) -> Option<TermId> {
    s.constant = Rational::ZERO;
    let v = eval_sum(store, m, &s)?;
    s.constant = -v;
    let int = s.terms.iter().all(|(a, _)| store.sort(*a) == Sort::Int);
    let sort = if int { Sort::Int } else { Sort::Real };
    Some(canonical_cmp(store, Op::Le, s, sort))
}

/// The concretize rule's split of `cube` around `m` (module docs): a sub-cube of `cube`
/// that `m` satisfies. `None` when nothing is split or a value is missing.
pub(in crate::engines::spacer) fn concretize_cube(
    store: &mut TermStore,
    m: &Model,
    cube: &[TermId],
    split: &[TermId],
) -> Option<Vec<TermId>> {
    let mut out: Vec<TermId> = Vec::new();
    let mut changed = false;
    for &lit in cube {
        let lin = super::subsume::linear_lit(store, lit);
        let Some((Op::Le | Op::Lt, d)) = lin else {
            out.push(lit);
            continue;
        };
        if d.terms.len() < 2 || !d.terms.iter().any(|(v, _)| split.contains(v)) {
            out.push(lit);
            continue;
        }
        // Σ c·x + r op 0 with M ⊨ it: c·x ≤ c·M(x) for each split x and r ≤ M(r) imply
        // it (their sum is at most the literal's value in M).
        let mut rest = LinearSum::constant(Rational::ZERO);
        for (v, c) in &d.terms {
            if split.contains(v) {
                let mut one = LinearSum::atom(*v);
                if c.is_negative() {
                    one.scale(&Rational::MINUS_ONE);
                }
                out.push(le_value(store, m, one)?);
            } else {
                rest.terms.push((*v, c.clone()));
            }
        }
        if !rest.terms.is_empty() {
            out.push(le_value(store, m, rest)?);
        }
        changed = true;
    }
    if !changed {
        return None;
    }
    out.retain(|&l| store.as_bool(l) != Some(true));
    out.sort();
    out.dedup();
    Some(out)
}

impl Run<'_> {
    /// Concretize, first half: `pob` produced `lemma` in a non-linear cluster; remember
    /// its split variables until the query is next found not blocked.
    pub(in crate::engines::spacer) fn mark_concretize(
        &mut self,
        store: &TermStore,
        pob: &Pob,
        lemma: &[TermId],
        split: Vec<TermId>,
    ) {
        let key = (pob.pred, pob.cube.clone());
        if self.gg_concretize.contains_key(&key) {
            return;
        }
        self.spend_gas(store, pob.pred, lemma);
        self.bump("gg-concretize-marks");
        self.gg_concretize.insert(key, split);
    }

    /// Concretize, second half: `pob` is not blocked and `m` is a model of it; if it was
    /// marked, its concrete sub-query is added at the same level (once).
    pub(in crate::engines::spacer) fn concretize(
        &mut self,
        store: &mut TermStore,
        pob: &Pob,
        m: &Model,
    ) {
        let Some(split) = self.gg_concretize.remove(&(pob.pred, pob.cube.clone())) else {
            return;
        };
        let Some(cube) = concretize_cube(store, m, &pob.cube, &split) else {
            return;
        };
        if cube.is_empty() || cube == pob.cube {
            return;
        }
        self.bump("gg-concretize");
        self.push_pob(Pob {
            pred: pob.pred,
            cube,
            level: pob.level,
            depth: pob.depth,
        });
    }
}
