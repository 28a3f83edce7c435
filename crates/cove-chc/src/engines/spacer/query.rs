//! Reachability queries (proof obligations) and BndSafety at one bound: the queue ordered by
//! level, and the rules applied to a query (reachable, MUST, MAY with generalization, QUERY
//! with model-based projection).

use super::TraceEvent;
use super::global::Rule;
use super::project;
use super::run::{PIdx, Run, rename};
use super::stats::Why;
use crate::result::UnknownReason;
use cove_logic::{Model, TermId, TermStore, Value};
use cove_smt::SmtResult;
use rustc_hash::FxHashSet;
use std::cmp::Reverse;

#[derive(PartialEq, Eq, PartialOrd, Ord, Clone)]
pub(super) struct PobKey {
    pub(super) level: usize,
    pub(super) depth: usize,
    pub(super) seq: u64,
}

#[derive(Clone)]
pub(super) struct Pob {
    pub(super) pred: PIdx,
    pub(super) cube: Vec<TermId>,
    pub(super) level: usize,
    pub(super) depth: usize,
}

pub(super) enum Outcome {
    Done,
    Cex(usize),
}

impl Run<'_> {
    pub(super) fn push_pob(&mut self, pob: Pob) {
        let key = (pob.pred, pob.cube.clone(), pob.level);
        if !self.open.insert(key) {
            return;
        }
        self.seq += 1;
        let k = PobKey {
            level: pob.level,
            depth: pob.depth,
            seq: self.seq,
        };
        self.pobs.push(pob);
        self.queue.push(Reverse((k, self.pobs.len() - 1)));
    }

    /// Runs BndSafety at the current bound. `Ok(Some(fact))` = counterexample.
    pub(super) fn bounded_safety(
        &mut self,
        store: &mut TermStore,
    ) -> Result<Option<usize>, UnknownReason> {
        let bot = self.preds.len() - 1;
        self.open.clear();
        self.push_pob(Pob {
            pred: bot,
            cube: Vec::new(),
            level: self.bound,
            depth: 0,
        });
        while let Some(Reverse((_, pi))) = self.queue.pop() {
            if let Some(r) = self.ctl.should_stop() {
                return Err(r);
            }
            let pob = self.pobs[pi].clone();
            self.open.remove(&(pob.pred, pob.cube.clone(), pob.level));
            self.bump("pobs");
            if self.tracing() {
                let cube = store.mk_and(&pob.cube);
                let ev = TraceEvent::Query {
                    pred: self.pred_name(store, pob.pred),
                    level: pob.level,
                    cube: self.render(store, pob.pred, cube),
                };
                self.record(ev);
            }
            if let Outcome::Cex(f) = self.process(store, pob)? {
                return Ok(Some(f));
            }
        }
        Ok(None)
    }

    /// Processes one query `<p, cube, b>` in the thesis's order: (1) a known fact reaches
    /// it, (2) MUST: the rules fire with every body atom under must-summaries, (3) MAY: it is
    /// blocked under the level-`b - 1` over-approximations (a lemma is learned), (4) QUERY:
    /// a child query for one body atom.
    pub(super) fn process(
        &mut self,
        store: &mut TermStore,
        pob: Pob,
    ) -> Result<Outcome, UnknownReason> {
        let p = pob.pred;
        let bot = self.preds.len() - 1;
        let closed = |f: usize| {
            if p == bot {
                Outcome::Cex(f)
            } else {
                Outcome::Done
            }
        };
        // 1. Already reachable?
        if let Some(f) = self.reached_by_fact(store, &pob)? {
            return Ok(closed(f));
        }
        // 2. MUST: all body atoms under must-summaries.
        if let Some(f) = self.must_fact(store, &pob)? {
            return Ok(closed(f));
        }
        // 3. MAY: blocked under O^{b-1}?
        let b = pob.level;
        let mut asm = pob.cube.clone();
        asm.extend(self.level_assumptions(store, p, b));
        if !self.check(store, p, &asm, Why::May)? {
            self.block(store, pob)?;
            return Ok(Outcome::Done);
        }
        // 4. QUERY.
        Ok(self.query_child(store, pob)?.map_or(Outcome::Done, closed))
    }

    /// Step 1 of [`Run::process`]: a fact of the predicate that lies in the query's cube.
    fn reached_by_fact(
        &mut self,
        store: &mut TermStore,
        pob: &Pob,
    ) -> Result<Option<usize>, UnknownReason> {
        let p = pob.pred;
        if !self.preds[p].facts.is_empty() {
            let mut asm = pob.cube.clone();
            asm.push(self.preds[p].reach_first);
            asm.push(store.mk_not(self.preds[p].reach_rest));
            self.bump("smt-checks");
            match self.preds[p].reach.check_assuming(store, &asm) {
                SmtResult::Sat => {
                    let m = self.preds[p].reach.model(store);
                    let f = self.preds[p].facts.iter().copied().find(|&f| {
                        let tag = self.facts[f].reach_tag;
                        m.eval(store, tag).ok() == Some(Value::Bool(true))
                    });
                    if let Some(f) = f {
                        return Ok(Some(f));
                    }
                }
                SmtResult::Unsat => {}
                SmtResult::Unknown(r) => {
                    return Err(self
                        .ctl
                        .should_stop()
                        .unwrap_or(UnknownReason::Incomplete(format!("SMT: {r:?}"))));
                }
            }
        }
        Ok(None)
    }

    /// Step 2 of [`Run::process`] (MUST): a new fact in the query's cube, derived by a rule
    /// whose body atoms are all under must-summaries (not with `may_only`).
    fn must_fact(
        &mut self,
        store: &mut TermStore,
        pob: &Pob,
    ) -> Result<Option<usize>, UnknownReason> {
        let p = pob.pred;
        if !self.cfg.may_only {
            let mut asm = pob.cube.clone();
            for &r in &self.preds[p].rules.clone() {
                for j in 0..self.rules[r].body.len() {
                    asm.extend(self.must_assumptions(store, r, j));
                }
            }
            if self.check(store, p, &asm, Why::Must)? {
                let m = self.preds[p].solver.model(store);
                if let Some(f) = self.fact_from_model(store, p, &m, &pob.cube) {
                    return Ok(Some(f));
                }
            }
        }
        Ok(None)
    }

    /// Step 3 of [`Run::process`] (MAY), after the query was found blocked at its level
    /// (the solver's unsat core is the last check's): learns the lemma — the core's
    /// literals, generalized, then global guidance ([`super::global`]) — pushes it as high
    /// as it holds, and re-queues the query one level up.
    fn block(&mut self, store: &mut TermStore, pob: Pob) -> Result<(), UnknownReason> {
        let p = pob.pred;
        let bot = self.preds.len() - 1;
        let b = pob.level;
        let core: FxHashSet<TermId> = self.preds[p].solver.unsat_core().into_iter().collect();
        let cube: Vec<TermId> = pob
            .cube
            .iter()
            .copied()
            .filter(|l| core.contains(l))
            .collect();
        let cube = if self.cfg.inductive_generalization {
            self.generalize(store, p, cube, b)?
        } else {
            cube
        };
        // Global guidance (`global/`): the published guards pick one rule per cluster.
        let rule = if self.cfg.global && p != bot {
            self.guidance(store, p, &cube)
        } else {
            None
        };
        let subsume = self.cfg.global
            && self.cfg.subsume
            && match &rule {
                Some((Rule::Concretize(_), _)) => !self.cfg.concretize,
                Some((Rule::Conjecture(_), _)) => !self.cfg.conjecture,
                _ => true,
            };
        let cube = if subsume {
            self.subsume(store, p, cube, b)?
        } else {
            cube
        };
        match rule {
            Some((Rule::Concretize(split), _)) if self.cfg.concretize => {
                self.mark_concretize(store, &pob, &cube, split);
            }
            Some((Rule::Conjecture(lit), lvl)) if self.cfg.conjecture => {
                self.conjecture(store, &pob, &cube, lit, lvl);
            }
            _ => {}
        }
        // Eager pushing: a lemma that also holds at higher levels blocks the re-queued
        // query there at once instead of being re-derived.
        let mut level = b;
        while level < self.bound {
            let mut asm = cube.clone();
            asm.extend(self.level_assumptions(store, p, level + 1));
            // Unsettled within the budget: the lemma stays where it is proved.
            if self.check_budgeted(store, p, &asm, Why::Push, "push-over-budget")? != Some(false) {
                break;
            }
            level += 1;
        }
        if self.tracing() {
            let c = store.mk_and(&cube);
            let lemma = store.mk_not(c);
            let lemma = cove_logic::simplify(store, lemma);
            let ev = TraceEvent::Lemma {
                pred: self.pred_name(store, p),
                level: b,
                lemma: self.render(store, p, lemma),
            };
            self.record(ev);
        }
        self.add_lemma(store, p, cube, level);
        if b < self.bound {
            self.push_pob(Pob {
                level: b + 1,
                ..pob
            });
        }
        Ok(())
    }

    /// Step 4 of [`Run::process`] (QUERY), after the query was found not blocked: the child
    /// query for one body atom of the rule that fired (the query is re-queued behind it),
    /// or, when every body atom is covered by a must-summary in the model, the new fact.
    fn query_child(
        &mut self,
        store: &mut TermStore,
        pob: Pob,
    ) -> Result<Option<usize>, UnknownReason> {
        let p = pob.pred;
        let b = pob.level;
        // 4. QUERY: the thesis's "maximal j" split (Lemma 5). Walk the body atoms from the
        // last (bottom-up: from the first) replacing over- by under-approximations until the
        // query becomes unreachable; the atom where that happens is queried, using the model
        // in which the atoms already replaced are covered by must-summaries.
        let mut m = self.preds[p].solver.model(store);
        if self.cfg.global && self.cfg.concretize {
            self.concretize(store, &pob, &m);
        }
        let Some(r) = self.fired_rule(store, p, &m) else {
            return Err(UnknownReason::Incomplete(
                "no rule fired in the model".into(),
            ));
        };
        let n = self.rules[r].body.len();
        let order: Vec<usize> = if self.cfg.bottom_up {
            (0..n).collect()
        } else {
            (0..n).rev().collect()
        };
        let mut under: Vec<usize> = Vec::new();
        let mut child = None;
        for &j in &order {
            let mut asm = pob.cube.clone();
            asm.push(self.rules[r].sel);
            asm.extend(self.level_literals(store, p, b));
            for k in 0..n {
                if k == j || under.contains(&k) {
                    asm.extend(self.must_assumptions(store, r, k));
                } else {
                    asm.push(self.rules[r].not_must[k]);
                }
            }
            if self.check(store, p, &asm, Why::Query)? {
                m = self.preds[p].solver.model(store);
                under.push(j);
            } else {
                child = Some(j);
                break;
            }
        }
        let covered: Vec<Option<usize>> = (0..n)
            .map(|k| self.covering_fact(store, r, k, &m))
            .collect();
        let Some(j) = child else {
            // Every atom is covered by a must-summary in the model: MUST.
            let Some(premises) = covered.into_iter().collect::<Option<Vec<usize>>>() else {
                return Err(UnknownReason::Incomplete(
                    "uncovered atom under must assumptions".into(),
                ));
            };
            let f = self.make_fact(store, r, &m, &premises);
            return Ok(Some(f));
        };
        let mut parts = vec![self.rules[r].enc];
        parts.extend(pob.cube.iter().copied());
        for (k, cov) in covered.iter().enumerate() {
            if k == j {
                continue;
            }
            match cov {
                Some(f) if under.contains(&k) => {
                    let t = self.rules[r].fact_copies[k]
                        .iter()
                        .find(|(fi, _)| fi == f)
                        .unwrap()
                        .1;
                    parts.push(t);
                }
                _ => {
                    let q = self.rules[r].body[k].0;
                    let copies = self.rules[r].body[k].1.clone();
                    let o = self.over_approx(store, q, b - 1);
                    let params = self.preds[q].params.clone();
                    parts.push(rename(store, o, &params, &copies));
                }
            }
        }
        let phi = store.mk_and(&parts);
        let (q, copies) = self.rules[r].body[j].clone();
        let cube = project::project(store, &m, phi, &copies, self.cfg.use_mbp);
        let params = self.preds[q].params.clone();
        let cube: Vec<TermId> = cube
            .into_iter()
            .map(|l| rename(store, l, &copies, &params))
            .collect();
        self.push_pob(Pob {
            pred: q,
            cube,
            level: b - 1,
            depth: pob.depth + 1,
        });
        self.push_pob(pob);
        Ok(None)
    }

    /// Assumptions restricting body atom `j` of rule `r` to its must-summaries.
    pub(super) fn must_assumptions(
        &self,
        store: &mut TermStore,
        r: usize,
        j: usize,
    ) -> [TermId; 2] {
        let rest = self.rules[r].must_rest[j];
        [self.rules[r].must[j], store.mk_not(rest)]
    }

    pub(super) fn fired_rule(&self, store: &TermStore, p: PIdx, m: &Model) -> Option<usize> {
        self.preds[p]
            .rules
            .iter()
            .copied()
            .find(|&r| m.eval(store, self.rules[r].sel).ok() == Some(Value::Bool(true)))
    }

    pub(super) fn covering_fact(
        &self,
        store: &TermStore,
        r: usize,
        j: usize,
        m: &Model,
    ) -> Option<usize> {
        self.rules[r].fact_copies[j]
            .iter()
            .find(|(_, t)| m.eval(store, *t).ok() == Some(Value::Bool(true)))
            .map(|(f, _)| *f)
    }

    /// After a satisfiable MUST check: the fired rule and the facts covering its body.
    pub(super) fn fact_from_model(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        m: &Model,
        _cube: &[TermId],
    ) -> Option<usize> {
        let r = self.fired_rule(store, p, m)?;
        let mut premises = Vec::new();
        for j in 0..self.rules[r].body.len() {
            premises.push(self.covering_fact(store, r, j, m)?);
        }
        Some(self.make_fact(store, r, m, &premises))
    }

    /// A new must-summary for the head of `r`: the projection of the rule instance with its
    /// body atoms restricted to `premises`, around model `m`.
    pub(super) fn make_fact(
        &mut self,
        store: &mut TermStore,
        r: usize,
        m: &Model,
        premises: &[usize],
    ) -> usize {
        let mut parts = vec![self.rules[r].enc];
        for (j, f) in premises.iter().enumerate() {
            let t = self.rules[r].fact_copies[j]
                .iter()
                .find(|(fi, _)| fi == f)
                .unwrap()
                .1;
            parts.push(t);
        }
        let phi = store.mk_and(&parts);
        let h = self.rules[r].head;
        let params = self.preds[h].params.clone();
        let cube = project::project(store, m, phi, &params, self.cfg.use_mbp);
        self.add_fact(store, h, cube, r, premises.to_vec())
    }
}
