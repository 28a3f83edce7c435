//! IC3-style propagation over all levels (thesis errata 1): when a level becomes empty, the
//! lemmas above it are inductive invariants.

use super::run::Run;
use super::stats::Why;
use crate::result::{Invariants, UnknownReason};
use crate::share::{LemmaPool, SharedLemma};
use cove_logic::{TermId, TermStore};

impl Run<'_> {
    /// Pushes lemmas level by level; returns the level `k` whose emptiness proves that
    /// `O^{k+1}` is inductive, if any.
    pub(super) fn propagate(
        &mut self,
        store: &mut TermStore,
    ) -> Result<Option<usize>, UnknownReason> {
        for k in 0..=self.bound {
            let mut level_empty = true;
            for p in 0..self.preds.len() {
                for i in 0..self.preds[p].lemmas.len() {
                    if self.preds[p].lemmas[i].level != k {
                        continue;
                    }
                    let mut asm = self.preds[p].lemmas[i].cube.clone();
                    asm.extend(self.level_assumptions(store, p, k + 1));
                    if self.check(store, p, &asm, Why::Propagate)? {
                        level_empty = false;
                    } else {
                        self.preds[p].lemmas[i].level = k + 1;
                        self.install_lemma(store, p, i, k + 1);
                        self.bump("pushed");
                    }
                }
            }
            if level_empty {
                return Ok(Some(k));
            }
        }
        Ok(None)
    }

    pub(super) fn invariants(&self, store: &mut TermStore, k: usize) -> Invariants {
        let mut inv = Invariants::default();
        for p in &self.preds {
            let Some(f) = p.func else { continue };
            let lemmas: Vec<TermId> = p
                .lemmas
                .iter()
                .filter(|l| l.level > k)
                .map(|l| {
                    let c = store.mk_and(&l.cube);
                    store.mk_not(c)
                })
                .collect();
            let body = store.mk_and(&lemmas);
            let body = cove_logic::simplify(store, body);
            inv.define(f, p.params.clone(), body);
        }
        inv
    }

    /// Offers the lemmas of the top frame (level `>= bound`, the candidates for an inductive
    /// invariant) to the other engines of a portfolio.
    pub(super) fn offer(&self, store: &mut TermStore, pool: &LemmaPool) {
        let mut out = Vec::new();
        for p in &self.preds {
            let Some(f) = p.func else { continue };
            for l in p.lemmas.iter().filter(|l| l.level >= self.bound.max(1)) {
                let c = store.mk_and(&l.cube);
                let lemma = store.mk_not(c);
                out.extend(SharedLemma::new(store, f, &p.params, lemma));
            }
        }
        pool.offer(out);
    }

    /// Every predicate's lemmas with their levels (for [`super::Spacer::solve_bounded`]).
    pub(super) fn frames(&self, store: &mut TermStore) -> Vec<super::Frame> {
        let mut out = Vec::new();
        for p in &self.preds {
            let Some(f) = p.func else { continue };
            let lemmas = p
                .lemmas
                .iter()
                .map(|l| {
                    let c = store.mk_and(&l.cube);
                    (store.mk_not(c), l.level)
                })
                .collect();
            out.push(super::Frame {
                pred: f,
                params: p.params.clone(),
                lemmas,
            });
        }
        out
    }

    /// Adds the lemmas of `frames` (an earlier run's, see [`super::Spacer::solve_bounded_from`])
    /// to this run's frames, renamed to its parameters.
    pub(super) fn seed(&mut self, store: &mut TermStore, frames: &[super::Frame]) {
        for fr in frames {
            let Some(p) = self.preds.iter().position(|q| q.func == Some(fr.pred)) else {
                continue;
            };
            let params = self.preds[p].params.clone();
            if params.len() != fr.params.len() {
                continue;
            }
            for &(lemma, level) in &fr.lemmas {
                let l = super::run::rename(store, lemma, &fr.params, &params);
                let c = store.mk_not(l);
                let c = cove_logic::simplify(store, c);
                let cube = match store.op(c) {
                    _ if store.as_bool(c) == Some(true) => Vec::new(),
                    cove_logic::Op::And => store.args(c).to_vec(),
                    _ => vec![c],
                };
                self.bump("seeded-lemmas");
                self.add_lemma(store, p, cube, level);
            }
        }
    }
}
