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
        // Over bit-vectors one propagation check can be a hard SAT problem (adder
        // identities: reve `001d-horn` spent 14 s of 15 in six of them and never got to the
        // depth of its counterexample); such checks get a conflict budget, and a lemma whose
        // check runs out of it simply stays at its level (pushing is an optimisation).
        // Over arithmetic they stay unbounded: a level can only be found inductive when
        // every one of its lemmas was checked.
        for k in 0..=self.bound {
            let mut level_empty = true;
            for p in 0..self.preds.len() {
                let bv = self.preds[p]
                    .params
                    .iter()
                    .any(|&v| store.var_sort(v).is_bv());
                for i in 0..self.preds[p].lemmas.len() {
                    if self.preds[p].lemmas[i].level != k {
                        continue;
                    }
                    let mut asm = self.preds[p].lemmas[i].cube.clone();
                    asm.extend(self.level_assumptions(store, p, k + 1));
                    let blocked_above = if bv {
                        let r = self.check_budgeted(
                            store,
                            p,
                            &asm,
                            Why::Propagate,
                            "propagate-over-budget",
                        )?;
                        r == Some(false)
                    } else {
                        !self.check(store, p, &asm, Why::Propagate)?
                    };
                    if !blocked_above {
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
