//! Frames: lemmas (may-summaries) by level and reach facts (must-summaries), and how they are
//! installed into the solvers of the predicates that use them, guarded by level, rule
//! selector and must literals.

use super::TraceEvent;
use super::global;
use super::run::{Fact, INF, Lemma, PIdx, Run, fresh_bool, rename};
use cove_logic::{TermId, TermStore};

impl Run<'_> {
    pub(super) fn lvl(&mut self, store: &mut TermStore, p: PIdx, l: usize) -> TermId {
        while self.preds[p].lvl.len() <= l {
            let n = self.preds[p].lvl.len();
            let lit = fresh_bool(store, &format!("lvl{n}"));
            self.preds[p].lvl.push(lit);
        }
        self.preds[p].lvl[l]
    }

    /// Assumptions selecting `O^{b-1}` for the bodies of `p`'s rules (or facts only at b = 0).
    /// Bounded lemmas are off for atoms under must-summaries, so every atom is also assumed
    /// not to be (`¬must`).
    pub(super) fn level_assumptions(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        b: usize,
    ) -> Vec<TermId> {
        let mut asm = self.level_literals(store, p, b);
        if b > 0 {
            for &r in &self.preds[p].rules {
                asm.extend_from_slice(&self.rules[r].not_must);
            }
        }
        asm
    }

    /// The level part of [`Self::level_assumptions`] alone.
    pub(super) fn level_literals(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        b: usize,
    ) -> Vec<TermId> {
        if b == 0 {
            return vec![self.preds[p].init_only];
        }
        let top = self.bound + 2;
        (b - 1..=top).map(|l| self.lvl(store, p, l)).collect()
    }

    /// Asserts lemma `i` of `q` at `level` into the solvers that use `q`.
    pub(super) fn install_lemma(&mut self, store: &mut TermStore, q: PIdx, i: usize, level: usize) {
        let cube = self.preds[q].lemmas[i].cube.clone();
        let conj = store.mk_and(&cube);
        let lemma = store.mk_not(conj);
        let params = self.preds[q].params.clone();
        for (r, j) in self.preds[q].uses.clone() {
            let h = self.rules[r].head;
            let copies = self.rules[r].body[j].1.clone();
            // Guarded by the rule's selector: an unsatisfiable lemma (e.g. `false` at level 0)
            // must only disable the rules that call `q`, not the whole solver.
            let t = rename(store, lemma, &params, &copies);
            let sel = self.rules[r].sel;
            // A bounded lemma does not constrain an atom restricted to its must-summaries
            // (`must[j]`): facts are reachable states, possibly of a greater depth than the
            // level, and the QUERY rule must see that a child query it created was reached
            // by such a fact (otherwise it re-creates the same child forever).
            // Guarded assertions: the lemma's literals are decided only in checks where
            // the rule and the level are in use.
            if level == INF {
                self.preds[h].solver.assert_guarded(store, &[sel], t);
            } else {
                let l = self.lvl(store, h, level);
                let guard = [l, sel, self.rules[r].not_must[j]];
                self.preds[h].solver.assert_guarded(store, &guard, t);
            }
        }
    }

    pub(super) fn add_lemma(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        cube: Vec<TermId>,
        level: usize,
    ) {
        self.bump("lemmas");
        if let Some(i) = self.preds[p].lemmas.iter().position(|l| l.cube == cube) {
            if self.preds[p].lemmas[i].level < level {
                self.preds[p].lemmas[i].level = level;
                self.install_lemma(store, p, i, level);
            }
            return;
        }
        let shape = if self.cfg.global {
            global::shape_of(store, &cube)
        } else {
            None
        };
        let au = if self.cfg.global {
            global::au_shape(store, &cube)
        } else {
            None
        };
        self.preds[p].lemmas.push(Lemma {
            cube,
            level,
            shape,
            au,
        });
        let i = self.preds[p].lemmas.len() - 1;
        self.install_lemma(store, p, i, level);
    }

    pub(super) fn add_fact(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        cube: Vec<TermId>,
        rule: usize,
        premises: Vec<usize>,
    ) -> usize {
        self.bump("facts");
        let formula = store.mk_and(&cube);
        if self.tracing() {
            let ev = TraceEvent::Fact {
                pred: self.pred_name(store, p),
                fact: self.render(store, p, formula),
            };
            self.record(ev);
        }
        let fi = self.facts.len();
        // Reach solver: tag => formula, chained disjunction of tags.
        let tag = fresh_bool(store, "fact");
        let rest = fresh_bool(store, "frest");
        let imp = store.mk_implies(tag, formula);
        let old = self.preds[p].reach_rest;
        let disj = store.mk_or(&[tag, rest]);
        let chain = store.mk_implies(old, disj);
        self.preds[p].reach.assert(store, imp);
        self.preds[p].reach.assert(store, chain);
        self.preds[p].reach_rest = rest;
        self.preds[p].facts.push(fi);
        let params = self.preds[p].params.clone();
        for (r, j) in self.preds[p].uses.clone() {
            let h = self.rules[r].head;
            let copies = self.rules[r].body[j].1.clone();
            let t = rename(store, formula, &params, &copies);
            let tag2 = fresh_bool(store, "use");
            let rest2 = fresh_bool(store, "mrest");
            let disj = store.mk_or(&[tag2, rest2]);
            let chain = store.mk_implies(self.rules[r].must_rest[j], disj);
            self.preds[h].solver.assert_guarded(store, &[tag2], t);
            self.preds[h].solver.assert(store, chain);
            self.rules[r].must_rest[j] = rest2;
            self.rules[r].fact_copies[j].push((fi, t));
        }
        self.facts.push(Fact {
            pred: p,
            rule,
            premises,
            reach_tag: tag,
        });
        fi
    }

    /// `O^{level}(q)`: conjunction of q's lemmas at levels >= level.
    pub(super) fn over_approx(&self, store: &mut TermStore, q: PIdx, level: usize) -> TermId {
        let lemmas: Vec<TermId> = self.preds[q]
            .lemmas
            .iter()
            .filter(|l| l.level >= level)
            .map(|l| {
                let c = store.mk_and(&l.cube);
                store.mk_not(c)
            })
            .collect();
        store.mk_and(&lemmas)
    }
}
