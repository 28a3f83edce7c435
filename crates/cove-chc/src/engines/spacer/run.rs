//! The state of one run: per predicate its frames (lemmas by level), reach facts and
//! solvers; per clause its encoding with selector, must and level literals. [`Run::new`]
//! builds the solvers once; everything after only adds guarded assertions.

use super::global;
use super::query::{Pob, PobKey};
use super::{SpacerConfig, TraceEvent};
use crate::engine::Control;
use crate::system::ChcSystem;
use cove_logic::{FuncId, Sort, TermId, TermStore, VarId, substitute};
use cove_smt::SmtSolver;
use rustc_hash::{FxHashMap, FxHashSet};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Index of a predicate; the last one is the query pseudo-predicate `⊥`.
pub(super) type PIdx = usize;

pub(super) const INF: usize = usize::MAX;

pub(super) struct Lemma {
    /// The lemma is `¬(∧ cube)`.
    pub(super) cube: Vec<TermId>,
    pub(super) level: usize,
    /// The cube's shape, for clustering (global generalization).
    pub(super) shape: Option<global::CubeShape>,
    /// The cube up to its numbers, for the guards of global guidance (`global/`).
    pub(super) au: Option<global::AuShape>,
}

pub(super) struct Fact {
    pub(super) pred: PIdx,
    pub(super) rule: usize,
    pub(super) premises: Vec<usize>,
    /// Tag in the predicate's reach solver.
    pub(super) reach_tag: TermId,
}

pub(super) struct Pred {
    pub(super) func: Option<FuncId>,
    pub(super) params: Vec<VarId>,
    pub(super) rules: Vec<usize>,
    /// Body positions (rule, index) where this predicate occurs.
    pub(super) uses: Vec<(usize, usize)>,
    pub(super) lemmas: Vec<Lemma>,
    pub(super) facts: Vec<usize>,
    /// Solver over this predicate's rules, with callee summaries on body copies.
    pub(super) solver: SmtSolver,
    /// Solver over this predicate's parameters holding its reach facts.
    pub(super) reach: SmtSolver,
    pub(super) reach_first: TermId,
    pub(super) reach_rest: TermId,
    pub(super) lvl: Vec<TermId>,
    pub(super) init_only: TermId,
}

pub(super) struct Rule {
    pub(super) clause: usize,
    pub(super) head: PIdx,
    /// Body atoms: predicate and the copy of its parameters used in this rule.
    pub(super) body: Vec<(PIdx, Vec<VarId>)>,
    /// Constraint ∧ body args = copies ∧ head args = head params.
    pub(super) enc: TermId,
    pub(super) sel: TermId,
    /// Per body atom: assuming it restricts the atom to the must-summaries (facts).
    pub(super) must: Vec<TermId>,
    /// `¬must[j]`: body atom `j` under its may-summaries (part of every level assumption).
    pub(super) not_must: Vec<TermId>,
    pub(super) must_rest: Vec<TermId>,
    /// Per body atom: (fact, fact formula on the copies).
    pub(super) fact_copies: Vec<Vec<(usize, TermId)>>,
}

pub(super) struct Run<'a> {
    pub(super) cfg: &'a SpacerConfig,
    pub(super) ctl: &'a Control,
    pub(super) sys: &'a ChcSystem,
    pub(super) preds: Vec<Pred>,
    pub(super) rules: Vec<Rule>,
    pub(super) facts: Vec<Fact>,
    pub(super) queue: BinaryHeap<Reverse<(PobKey, usize)>>,
    pub(super) pobs: Vec<Pob>,
    pub(super) open: FxHashSet<(PIdx, Vec<TermId>, usize)>,
    pub(super) seq: u64,
    pub(super) bound: usize,
    pub(super) stats: &'a mut FxHashMap<&'static str, u64>,
    pub(super) trace: Vec<TraceEvent>,
    pub(super) global_failed: global::FailedSet,
    /// Conjectures made (predicate, cube), each tried once (`global/`).
    pub(super) conjectured: FxHashSet<(PIdx, Vec<TermId>)>,
    /// Queries marked for the concretize rule, with their split variables (`global/`).
    pub(super) gg_concretize: FxHashMap<(PIdx, Vec<TermId>), Vec<TermId>>,
    /// Gas left per lemma cluster (predicate, shape hash) for concretize and conjecture.
    pub(super) gg_gas: FxHashMap<(PIdx, u64), u32>,
}

pub(super) fn rename(store: &mut TermStore, t: TermId, from: &[VarId], to: &[VarId]) -> TermId {
    let map: FxHashMap<VarId, TermId> = from
        .iter()
        .zip(to)
        .map(|(f, t)| (*f, store.mk_var(*t)))
        .collect();
    substitute(store, t, &map)
}

pub(super) fn fresh_bool(store: &mut TermStore, name: &str) -> TermId {
    let v = store.fresh_var(name, Sort::Bool);
    store.mk_var(v)
}

impl<'a> Run<'a> {
    pub(super) fn new(
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
            conjectured: FxHashSet::default(),
            gg_concretize: FxHashMap::default(),
            gg_gas: FxHashMap::default(),
        }
    }
}
