//! The *conjecture* rule of global guidance (see the module docs of [`super`]): a query
//! whose lemma joined a cluster varying in the constant of one literal is also tried
//! without that literal.

use super::super::Run;
use super::super::query::Pob;
use super::{au_lit, hash_of};
use cove_logic::{TermId, TermStore};

impl Run<'_> {
    /// Conjecture: `pob` was blocked by `lemma`, whose cluster varies only in the constant
    /// of the literal with skeleton hash `lit`. Queries the pob (or else the lemma)
    /// without that literal at level `level`, once per cube.
    pub(in crate::engines::spacer) fn conjecture(
        &mut self,
        store: &TermStore,
        pob: &Pob,
        lemma: &[TermId],
        lit: u64,
        level: usize,
    ) {
        let drop = |cube: &[TermId]| -> Vec<TermId> {
            cube.iter()
                .copied()
                .filter(|&l| hash_of(&au_lit(store, l).0) != lit)
                .collect()
        };
        let mut cube = drop(&pob.cube);
        if cube.len() == pob.cube.len() {
            cube = drop(lemma);
            if cube.len() == lemma.len() {
                return;
            }
        }
        if cube.is_empty() {
            return;
        }
        cube.sort();
        if !self.conjectured.insert((pob.pred, cube.clone())) {
            return;
        }
        self.spend_gas(store, pob.pred, lemma);
        self.bump("gg-conjectures");
        self.push_pob(Pob {
            pred: pob.pred,
            cube,
            level: level.min(pob.level),
            depth: pob.depth,
        });
    }
}
