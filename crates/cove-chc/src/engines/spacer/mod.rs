//! RecMC / Spacer: compositional SMT-based model checking (thesis Chapter 2).
//!
//! Every predicate plays the role of a procedure. For each predicate Spacer keeps
//! - **may-summaries** (lemmas): over-approximations, each valid up to a *level* (bound on
//!   derivation depth); `O^b(P)` is the conjunction of P's lemmas at levels `>= b`;
//! - **must-summaries** (reach facts): under-approximations, each a set of really derivable
//!   facts, with the clause and premise facts that justify it.
//!
//! Reachability queries (proof obligations) `<P, φ, b>` are processed smallest level first.
//! For a query the engine tries, in order: an existing must-summary (reachable), the MUST
//! rule (all body atoms under must-summaries), the MAY rule (blocked under the
//! may-summaries of level `b-1`: a generalized lemma), and otherwise the QUERY rule (a child
//! query for one body atom not covered by must-summaries, computed by model-based
//! projection). Iterative deepening on the bound `n`, then IC3-style propagation over all
//! levels (thesis errata 1): when a level becomes empty the lemmas above it are inductive
//! invariants.
//!
//! # Invariants
//! - A lemma at level `l` of `P` holds for every fact of `P` derivable with depth `<= l`.
//! - Every reach fact of `P` contains only derivable facts, and each of its points can be
//!   re-derived from its justification (clause + premise facts); the counterexample is built
//!   that way, with concrete values, and checked independently by `cert`.

mod cex;
mod generalize;
mod global;
mod project;
mod project_arrays;

use crate::engine::{Control, Engine, Stats};
use crate::result::{ChcResult, Invariants, UnknownReason};
use crate::system::ChcSystem;
use cove_logic::{FuncId, Model, Sort, TermId, TermStore, Value, VarId, substitute};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Options of the Spacer engine, including the thesis's ablations.
#[derive(Clone, Debug)]
pub struct SpacerConfig {
    /// Use only may-summaries (GPDR-like), no must-summaries (thesis Fig. 2.13(b)).
    pub may_only: bool,
    /// Query order: pick the last uncovered body atom (bottom-up / eager) instead of the first
    /// (top-down / lazy). Thesis Sec. 2.6.
    pub bottom_up: bool,
    /// Model-based projection (default) or plain model substitution.
    pub use_mbp: bool,
    /// Inductive generalization of blocked lemmas (drop literals, relative induction).
    pub inductive_generalization: bool,
    /// Weaken blocked cubes (equalities to half-spaces, relaxed bounds) after dropping literals.
    pub weaken: bool,
    /// Replace blocked cubes by the negation of Farkas interpolants before dropping literals
    /// (relational lemmas such as `x - y <= 0` instead of one lemma per value).
    pub farkas: bool,
    /// Replace a lemma that joins a cluster of lemmas differing only in their constants by
    /// the cluster's projection on its parameter (global generalization, `global.rs`).
    pub global: bool,
    /// Give up (unknown) beyond this bound.
    pub max_level: Option<usize>,
    /// Record the queries, lemmas and facts in order (see [`Spacer::trace`]).
    pub trace: bool,
}

/// One step of a run, with formulas printed over the predicate's parameters `a0, a1, …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceEvent {
    /// A reachability query `<pred, cube, level>` is processed.
    Query {
        /// Predicate (`false` for the query pseudo-predicate).
        pred: String,
        /// Level (bound).
        level: usize,
        /// The queried states.
        cube: String,
    },
    /// A may-summary (lemma) was learned at `level` (MAY rule).
    Lemma {
        /// Predicate.
        pred: String,
        /// Level where the query was blocked.
        level: usize,
        /// The lemma.
        lemma: String,
    },
    /// A must-summary (reach fact) was learned (MUST rule).
    Fact {
        /// Predicate.
        pred: String,
        /// The fact.
        fact: String,
    },
}

impl Default for SpacerConfig {
    fn default() -> Self {
        SpacerConfig {
            may_only: false,
            bottom_up: false,
            use_mbp: true,
            inductive_generalization: true,
            weaken: true,
            farkas: true,
            global: true,
            max_level: None,
            trace: false,
        }
    }
}

/// What an SMT check is for (statistics: count and time per purpose).
#[derive(Clone, Copy)]
enum Why {
    Must,
    May,
    Query,
    Farkas,
    Drop,
    Push,
    Propagate,
}

impl Why {
    fn keys(self) -> (&'static str, &'static str) {
        match self {
            Why::Must => ("checks-must", "us-must"),
            Why::May => ("checks-may", "us-may"),
            Why::Query => ("checks-query", "us-query"),
            Why::Farkas => ("checks-farkas", "us-farkas"),
            Why::Drop => ("checks-drop", "us-drop"),
            Why::Push => ("checks-push", "us-push"),
            Why::Propagate => ("checks-propagate", "us-propagate"),
        }
    }
}

/// Index of a predicate; the last one is the query pseudo-predicate `⊥`.
type PIdx = usize;

const INF: usize = usize::MAX;

struct Lemma {
    /// The lemma is `¬(∧ cube)`.
    cube: Vec<TermId>,
    level: usize,
    /// The cube's shape, for clustering (global generalization).
    shape: Option<global::CubeShape>,
}

struct Fact {
    pred: PIdx,
    rule: usize,
    premises: Vec<usize>,
    /// Tag in the predicate's reach solver.
    reach_tag: TermId,
}

struct Pred {
    func: Option<FuncId>,
    params: Vec<VarId>,
    rules: Vec<usize>,
    /// Body positions (rule, index) where this predicate occurs.
    uses: Vec<(usize, usize)>,
    lemmas: Vec<Lemma>,
    facts: Vec<usize>,
    /// Solver over this predicate's rules, with callee summaries on body copies.
    solver: SmtSolver,
    /// Solver over this predicate's parameters holding its reach facts.
    reach: SmtSolver,
    reach_first: TermId,
    reach_rest: TermId,
    lvl: Vec<TermId>,
    init_only: TermId,
}

struct Rule {
    clause: usize,
    head: PIdx,
    /// Body atoms: predicate and the copy of its parameters used in this rule.
    body: Vec<(PIdx, Vec<VarId>)>,
    /// Constraint ∧ body args = copies ∧ head args = head params.
    enc: TermId,
    sel: TermId,
    /// Per body atom: assuming it restricts the atom to the must-summaries (facts).
    must: Vec<TermId>,
    /// `¬must[j]`: body atom `j` under its may-summaries (part of every level assumption).
    not_must: Vec<TermId>,
    must_rest: Vec<TermId>,
    /// Per body atom: (fact, fact formula on the copies).
    fact_copies: Vec<Vec<(usize, TermId)>>,
}

#[derive(PartialEq, Eq, PartialOrd, Ord, Clone)]
struct PobKey {
    level: usize,
    depth: usize,
    seq: u64,
}

#[derive(Clone)]
struct Pob {
    pred: PIdx,
    cube: Vec<TermId>,
    level: usize,
    depth: usize,
}

enum Outcome {
    Done,
    Cex(usize),
}

/// The Spacer engine.
pub struct Spacer {
    config: SpacerConfig,
    stats: FxHashMap<&'static str, u64>,
    trace: Vec<TraceEvent>,
}

impl Spacer {
    /// A Spacer engine with the given options.
    pub fn new(config: SpacerConfig) -> Spacer {
        Spacer {
            config,
            stats: FxHashMap::default(),
            trace: Vec::new(),
        }
    }
}

impl Spacer {
    /// The events of the last run (empty unless [`SpacerConfig::trace`] is set).
    pub fn trace(&self) -> &[TraceEvent] {
        &self.trace
    }
}

impl Default for Spacer {
    fn default() -> Self {
        Spacer::new(SpacerConfig::default())
    }
}

struct Run<'a> {
    cfg: &'a SpacerConfig,
    ctl: &'a Control,
    sys: &'a ChcSystem,
    preds: Vec<Pred>,
    rules: Vec<Rule>,
    facts: Vec<Fact>,
    queue: BinaryHeap<Reverse<(PobKey, usize)>>,
    pobs: Vec<Pob>,
    open: FxHashSet<(PIdx, Vec<TermId>, usize)>,
    seq: u64,
    bound: usize,
    stats: &'a mut FxHashMap<&'static str, u64>,
    trace: Vec<TraceEvent>,
    global_failed: global::FailedSet,
}

fn rename(store: &mut TermStore, t: TermId, from: &[VarId], to: &[VarId]) -> TermId {
    let map: FxHashMap<VarId, TermId> = from
        .iter()
        .zip(to)
        .map(|(f, t)| (*f, store.mk_var(*t)))
        .collect();
    substitute(store, t, &map)
}

fn fresh_bool(store: &mut TermStore, name: &str) -> TermId {
    let v = store.fresh_var(name, Sort::Bool);
    store.mk_var(v)
}

impl<'a> Run<'a> {
    fn new(
        store: &mut TermStore,
        sys: &'a ChcSystem,
        cfg: &'a SpacerConfig,
        ctl: &'a Control,
        stats: &'a mut FxHashMap<&'static str, u64>,
    ) -> Run<'a> {
        let mut index = FxHashMap::default();
        let mut preds = Vec::new();
        let mk_pred = |store: &mut TermStore, func: Option<FuncId>, name: &str, sorts: &[Sort]| {
            let params = sorts
                .iter()
                .enumerate()
                .map(|(i, s)| store.fresh_var(&format!("{name}_{i}"), *s))
                .collect();
            let mut solver = SmtSolver::new();
            solver.set_limits(cove_smt::Limits::of(ctl));
            let mut reach = SmtSolver::new();
            reach.set_limits(cove_smt::Limits::of(ctl));
            let first = fresh_bool(store, &format!("reach_{name}"));
            Pred {
                func,
                params,
                rules: Vec::new(),
                uses: Vec::new(),
                lemmas: Vec::new(),
                facts: Vec::new(),
                solver,
                reach,
                reach_first: first,
                reach_rest: first,
                lvl: Vec::new(),
                init_only: fresh_bool(store, &format!("init_{name}")),
            }
        };
        for &p in &sys.preds {
            let decl = store.func(p).clone();
            index.insert(p, preds.len());
            preds.push(mk_pred(store, Some(p), &decl.name, &decl.args));
        }
        let bot = preds.len();
        preds.push(mk_pred(store, None, "false", &[]));

        let mut rules = Vec::new();
        for (ci, c) in sys.clauses.iter().enumerate() {
            let head = c.head.as_ref().map_or(bot, |h| index[&h.pred]);
            let ri = rules.len();
            let mut parts = vec![c.constraint];
            let mut body = Vec::new();
            for (j, app) in c.body.iter().enumerate() {
                let q = index[&app.pred];
                let sorts = store.func(app.pred).args.clone();
                let copies: Vec<VarId> = sorts
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        store.fresh_var(&format!("{}@{ri}.{j}.{i}", store.func(app.pred).name), *s)
                    })
                    .collect();
                for (a, x) in app.args.iter().zip(&copies) {
                    let x = store.mk_var(*x);
                    parts.push(store.mk_eq(*a, x));
                }
                preds[q].uses.push((ri, j));
                body.push((q, copies));
            }
            if let Some(h) = &c.head {
                for (a, x) in h.args.iter().zip(preds[head].params.clone()) {
                    let x = store.mk_var(x);
                    parts.push(store.mk_eq(*a, x));
                }
            }
            let enc = store.mk_and(&parts);
            let sel = fresh_bool(store, &format!("rule{ri}"));
            preds[head].solver.assert_guarded(store, &[sel], enc);
            let mut must_rest = Vec::new();
            let mut must = Vec::new();
            let mut not_must = Vec::new();
            for _ in &body {
                let r0 = fresh_bool(store, "mrest");
                let mm = fresh_bool(store, "must");
                let lhs = store.mk_and(&[sel, mm]);
                let imp = store.mk_implies(lhs, r0);
                preds[head].solver.assert(store, imp);
                must_rest.push(r0);
                must.push(mm);
                not_must.push(store.mk_not(mm));
            }
            if !body.is_empty() {
                let io = preds[head].init_only;
                let nsel = store.mk_not(sel);
                let imp = store.mk_implies(io, nsel);
                preds[head].solver.assert(store, imp);
            }
            preds[head].rules.push(ri);
            let nb = body.len();
            rules.push(Rule {
                clause: ci,
                head,
                body,
                enc,
                sel,
                must,
                not_must,
                must_rest,
                fact_copies: vec![Vec::new(); nb],
            });
        }
        for p in &mut preds {
            let sels: Vec<TermId> = p.rules.iter().map(|&r| rules[r].sel).collect();
            let any = store.mk_or(&sels);
            p.solver.assert(store, any);
        }
        Run {
            cfg,
            ctl,
            sys,
            preds,
            rules,
            facts: Vec::new(),
            queue: BinaryHeap::new(),
            pobs: Vec::new(),
            open: FxHashSet::default(),
            seq: 0,
            bound: 0,
            stats,
            trace: Vec::new(),
            global_failed: global::FailedSet::default(),
        }
    }

    fn tracing(&self) -> bool {
        self.cfg.trace || self.ctl.verbosity > 1
    }

    fn record(&mut self, ev: TraceEvent) {
        if self.ctl.verbosity > 1 {
            eprintln!("{ev:?}");
        }
        if self.cfg.trace {
            self.trace.push(ev);
        }
    }

    fn pred_name(&self, store: &TermStore, p: PIdx) -> String {
        self.preds[p]
            .func
            .map_or_else(|| "false".to_string(), |f| store.func(f).name.to_string())
    }

    /// Prints a formula over `p`'s parameters with the parameters named `a0`, `a1`, ...
    fn render(&self, store: &TermStore, p: PIdx, t: TermId) -> String {
        let names: FxHashMap<VarId, String> = self.preds[p]
            .params
            .iter()
            .enumerate()
            .map(|(i, v)| (*v, format!("a{i}")))
            .collect();
        let mut out = String::new();
        cove_logic::print::write_term_renamed(&mut out, store, t, &names);
        out
    }

    fn bump(&mut self, key: &'static str) {
        *self.stats.entry(key).or_default() += 1;
    }

    fn lvl(&mut self, store: &mut TermStore, p: PIdx, l: usize) -> TermId {
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
    fn level_assumptions(&mut self, store: &mut TermStore, p: PIdx, b: usize) -> Vec<TermId> {
        let mut asm = self.level_literals(store, p, b);
        if b > 0 {
            for &r in &self.preds[p].rules {
                asm.extend_from_slice(&self.rules[r].not_must);
            }
        }
        asm
    }

    /// The level part of [`Self::level_assumptions`] alone.
    fn level_literals(&mut self, store: &mut TermStore, p: PIdx, b: usize) -> Vec<TermId> {
        if b == 0 {
            return vec![self.preds[p].init_only];
        }
        let top = self.bound + 2;
        (b - 1..=top).map(|l| self.lvl(store, p, l)).collect()
    }

    fn check(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        assumptions: &[TermId],
        why: Why,
    ) -> Result<bool, UnknownReason> {
        self.bump("smt-checks");
        let start = std::time::Instant::now();
        let r = self.preds[p].solver.check_assuming(store, assumptions);
        let (count, micros) = why.keys();
        self.bump(count);
        *self.stats.entry(micros).or_default() += start.elapsed().as_micros() as u64;
        match r {
            SmtResult::Sat => Ok(true),
            SmtResult::Unsat => Ok(false),
            SmtResult::Unknown(r) => Err(self
                .ctl
                .should_stop()
                .unwrap_or(UnknownReason::Incomplete(format!("SMT: {r:?}")))),
        }
    }

    /// Asserts lemma `i` of `q` at `level` into the solvers that use `q`.
    fn install_lemma(&mut self, store: &mut TermStore, q: PIdx, i: usize, level: usize) {
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

    fn add_lemma(&mut self, store: &mut TermStore, p: PIdx, cube: Vec<TermId>, level: usize) {
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
        self.preds[p].lemmas.push(Lemma { cube, level, shape });
        let i = self.preds[p].lemmas.len() - 1;
        self.install_lemma(store, p, i, level);
    }

    fn add_fact(
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

    fn push_pob(&mut self, pob: Pob) {
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
    fn bounded_safety(&mut self, store: &mut TermStore) -> Result<Option<usize>, UnknownReason> {
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

    fn process(&mut self, store: &mut TermStore, pob: Pob) -> Result<Outcome, UnknownReason> {
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
                        return Ok(closed(f));
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
        // 2. MUST: all body atoms under must-summaries.
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
                    return Ok(closed(f));
                }
            }
        }
        // 3. MAY: blocked under O^{b-1}?
        let b = pob.level;
        let mut asm = pob.cube.clone();
        asm.extend(self.level_assumptions(store, p, b));
        if !self.check(store, p, &asm, Why::May)? {
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
            let cube = if self.cfg.global {
                self.subsume(store, p, cube, b)?
            } else {
                cube
            };
            // Eager pushing: a lemma that also holds at higher levels blocks the re-queued
            // query there at once instead of being re-derived.
            let mut level = b;
            while level < self.bound {
                let mut asm = cube.clone();
                asm.extend(self.level_assumptions(store, p, level + 1));
                if self.check(store, p, &asm, Why::Push)? {
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
            return Ok(Outcome::Done);
        }
        // 4. QUERY: the thesis's "maximal j" split (Lemma 5). Walk the body atoms from the
        // last (bottom-up: from the first) replacing over- by under-approximations until the
        // query becomes unreachable; the atom where that happens is queried, using the model
        // in which the atoms already replaced are covered by must-summaries.
        let mut m = self.preds[p].solver.model(store);
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
            return Ok(closed(f));
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
        Ok(Outcome::Done)
    }

    /// Assumptions restricting body atom `j` of rule `r` to its must-summaries.
    fn must_assumptions(&self, store: &mut TermStore, r: usize, j: usize) -> [TermId; 2] {
        let rest = self.rules[r].must_rest[j];
        [self.rules[r].must[j], store.mk_not(rest)]
    }

    /// `O^{level}(q)`: conjunction of q's lemmas at levels >= level.
    fn over_approx(&self, store: &mut TermStore, q: PIdx, level: usize) -> TermId {
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

    fn fired_rule(&self, store: &TermStore, p: PIdx, m: &Model) -> Option<usize> {
        self.preds[p]
            .rules
            .iter()
            .copied()
            .find(|&r| m.eval(store, self.rules[r].sel).ok() == Some(Value::Bool(true)))
    }

    fn covering_fact(&self, store: &TermStore, r: usize, j: usize, m: &Model) -> Option<usize> {
        self.rules[r].fact_copies[j]
            .iter()
            .find(|(_, t)| m.eval(store, *t).ok() == Some(Value::Bool(true)))
            .map(|(f, _)| *f)
    }

    /// After a satisfiable MUST check: the fired rule and the facts covering its body.
    fn fact_from_model(
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
    fn make_fact(
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

    /// Pushes lemmas level by level; returns the level `k` whose emptiness proves that
    /// `O^{k+1}` is inductive, if any.
    fn propagate(&mut self, store: &mut TermStore) -> Result<Option<usize>, UnknownReason> {
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

    fn invariants(&self, store: &mut TermStore, k: usize) -> Invariants {
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
}

impl Engine for Spacer {
    fn name(&self) -> &'static str {
        "spacer"
    }

    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult {
        if let Some(why) = crate::system::unsupported_feature(sys, store) {
            return ChcResult::Unknown(UnknownReason::Unsupported(why));
        }
        self.stats.clear();
        let cfg = self.config.clone();
        let mut run = Run::new(store, sys, &cfg, ctl, &mut self.stats);
        let result = loop {
            if let Some(max) = cfg.max_level
                && run.bound > max
            {
                break ChcResult::Unknown(UnknownReason::Incomplete(format!(
                    "bound {max} reached"
                )));
            }
            if ctl.verbosity > 0 {
                eprintln!("spacer: bound {}", run.bound);
            }
            match run.bounded_safety(store) {
                Err(r) => break ChcResult::Unknown(r),
                Ok(Some(f)) => {
                    break match run.counterexample(store, f) {
                        Some(d) => ChcResult::Unsat(d),
                        None => ChcResult::Unknown(UnknownReason::Incomplete(
                            "could not concretize the counterexample".into(),
                        )),
                    };
                }
                Ok(None) => {}
            }
            match run.propagate(store) {
                Err(r) => break ChcResult::Unknown(r),
                Ok(Some(k)) => break ChcResult::Sat(run.invariants(store, k)),
                Ok(None) => {}
            }
            run.bound += 1;
            *run.stats.entry("bound").or_default() = run.bound as u64;
        };
        for p in &run.preds {
            for st in [p.solver.stats(), p.reach.stats()] {
                for (k, v) in [
                    ("smt-decisions", st.decisions),
                    ("smt-conflicts", st.conflicts),
                    ("smt-atoms", st.atoms),
                    ("smt-pivots", st.pivots),
                    ("smt-ms", st.time.as_millis() as u64),
                ] {
                    *run.stats.entry(k).or_default() += v;
                }
            }
        }
        let trace = std::mem::take(&mut run.trace);
        drop(run);
        self.trace = trace;
        result
    }

    fn stats(&self) -> Stats {
        let mut v: Vec<(String, String)> = self
            .stats
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        v.sort();
        v
    }
}
