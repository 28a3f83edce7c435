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

/// What a variable of Spacer's encoding stands for (see [`Placeholders`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Role {
    /// Parameter `i` of predicate `p` (the run's index; the last is the query's `false`).
    Param {
        p: usize,
        i: usize,
    },
    /// Predicate `p`'s selector of its first reachability fact.
    Reach {
        p: usize,
    },
    /// Predicate `p`'s literal "initial rules only".
    InitOnly {
        p: usize,
    },
    /// Argument `i` of body atom `j` of rule `r`.
    Copy {
        r: usize,
        j: usize,
        i: usize,
    },
    /// Rule `r`'s selector.
    Select {
        r: usize,
    },
    /// Rule `r`'s literals for body atom `j`: "a must fact" and "the other body atoms".
    Must {
        r: usize,
        j: usize,
    },
    MustRest {
        r: usize,
        j: usize,
    },
}

/// The variables that a run's encoding is written over (predicate parameters, body-atom
/// copies, rule selectors), kept from one run to the next on the same store.
///
/// Why: an engine that runs Spacer again and again on variants of one system (abstraction
/// refinement, `engines::spacer_abs`) got fresh variables in every run, so every rule's
/// encoding and its simplified form were new terms each time, and the term store, which is
/// never collected, grew by the whole system per run (on nay-horn `IF_fg_max15`: 147 MB of
/// 217 MB of heap after 8 s of thirty rounds, per heaptrack). With the same variables the
/// parts that did not change are the same terms. Runs never share a solver, so sharing
/// the variables between them changes no answer.
#[derive(Default)]
pub(crate) struct Placeholders {
    vars: FxHashMap<(Role, Sort), VarId>,
}

impl Placeholders {
    fn var(&mut self, store: &mut TermStore, role: Role, sort: Sort, name: &str) -> VarId {
        *self
            .vars
            .entry((role, sort))
            .or_insert_with(|| store.fresh_var(name, sort))
    }

    fn bool(&mut self, store: &mut TermStore, role: Role, name: &str) -> TermId {
        let v = self.var(store, role, Sort::Bool, name);
        store.mk_var(v)
    }
}

impl<'a> Run<'a> {
    pub(super) fn new(
        store: &mut TermStore,
        sys: &'a ChcSystem,
        cfg: &'a SpacerConfig,
        ctl: &'a Control,
        stats: &'a mut FxHashMap<&'static str, u64>,
        vars: &mut Placeholders,
    ) -> Run<'a> {
        let mut index = FxHashMap::default();
        let mut preds = Vec::new();
        let mut mk_pred =
            |store: &mut TermStore, p: usize, func: Option<FuncId>, name: &str, sorts: &[Sort]| {
                let params = sorts
                    .iter()
                    .enumerate()
                    .map(|(i, s)| vars.var(store, Role::Param { p, i }, *s, &format!("{name}_{i}")))
                    .collect();
                let mut solver = SmtSolver::new();
                solver.set_limits(cove_smt::Limits::of(ctl));
                let mut reach = SmtSolver::new();
                reach.set_limits(cove_smt::Limits::of(ctl));
                let first = vars.bool(store, Role::Reach { p }, &format!("reach_{name}"));
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
                    init_only: vars.bool(store, Role::InitOnly { p }, &format!("init_{name}")),
                }
            };
        for &p in &sys.preds {
            let decl = store.func(p).clone();
            index.insert(p, preds.len());
            preds.push(mk_pred(store, preds.len(), Some(p), &decl.name, &decl.args));
        }
        let bot = preds.len();
        preds.push(mk_pred(store, bot, None, "false", &[]));

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
                        let name = format!("{}@{ri}.{j}.{i}", store.func(app.pred).name);
                        vars.var(store, Role::Copy { r: ri, j, i }, *s, &name)
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
            let sel = vars.bool(store, Role::Select { r: ri }, &format!("rule{ri}"));
            preds[head].solver.assert_guarded(store, &[sel], enc);
            let mut must_rest = Vec::new();
            let mut must = Vec::new();
            let mut not_must = Vec::new();
            for j in 0..body.len() {
                let r0 = vars.bool(store, Role::MustRest { r: ri, j }, "mrest");
                let mm = vars.bool(store, Role::Must { r: ri, j }, "must");
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

#[cfg(test)]
mod tests {
    use super::super::{Bounded, Spacer, SpacerConfig};
    use crate::engine::Control;
    use crate::frontend::parse_chc;
    use crate::result::ChcResult;
    use cove_logic::TermStore;

    const COUNTER: &str = "(set-logic HORN)
        (declare-fun inv (Int Int) Bool)
        (assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 0)) (inv x y))))
        (assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
            (=> (and (inv x y) (= x1 (+ x 1)) (= y1 (+ y 2))) (inv x1 y1))))
        (assert (forall ((x Int) (y Int)) (=> (and (inv x y) (> x y)) false)))";

    /// Runs on one store with the placeholders of the run before write their encoding
    /// over the same variables: the second run adds far fewer terms than the first, and
    /// answers the same.
    #[test]
    fn later_runs_reuse_the_encoding_variables() {
        let mut store = TermStore::new();
        let sys = parse_chc(COUNTER.as_bytes(), &mut store).expect("parses");
        let ctl = Control::default();
        let mut vars = super::Placeholders::default();
        let mut added = Vec::new();
        for _ in 0..3 {
            let (terms0, vars0) = (store.len(), store.num_vars());
            let mut spacer = Spacer::new(SpacerConfig::default()).with_placeholders(vars);
            let r = spacer.solve_bounded(&mut store, &sys, &ctl, None);
            vars = spacer.take_placeholders();
            assert!(matches!(r, Bounded::Done(ChcResult::Sat(_))));
            added.push((store.len() - terms0, store.num_vars() - vars0));
        }
        let (first_terms, first_vars) = added[0];
        for &(terms, vars) in &added[1..] {
            assert!(vars < first_vars, "{added:?}");
            assert!(terms < first_terms, "{added:?}");
        }
        assert_eq!(added[1], added[2], "the third run is the second again");
    }
}
