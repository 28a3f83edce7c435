//! The abstraction space (thesis Sec. 3.5(b)): every clause constraint split into *leaves*,
//! each guarded by its own assumption literal σ, so that an abstraction is a set of enabled
//! leaves and an SMT unsat core names the leaves a proof or a refutation used.
//!
//! A constraint is read as a conjunction of items; an item is a leaf or a disjunction of
//! conjunctions of leaves (the shape of a loop body with branches, as in the thesis's
//! Fig. 3.3 where every branch's assignments are separate constraints). Deeper structure
//! stays inside one leaf. Every leaf occurs *positively*, so replacing a disabled leaf by
//! `true` weakens the constraint: the abstract system over-approximates the input
//! (`τ ⇒ τ̂(Σ̂)`), and `σ → leaf` is the guarded form in which σ occurs only negatively.
//!
//! Head arguments that are not distinct variables become fresh variables with a leaf
//! `v = arg` each, so that updates written into the head (`P(x + 1)`) are abstractable too.

use crate::invariant_map::InvMap;
use crate::system::{ChcSystem, Clause, PredApp};
use cove_logic::{FuncId, Op, Sort, TermId, TermStore, VarId};
use rustc_hash::{FxHashMap, FxHashSet};

/// One item of a constraint skeleton.
pub(super) enum Item {
    /// A leaf (index into [`Space::leaves`]).
    Leaf(usize),
    /// A disjunction of conjunctions of leaves.
    Or(Vec<Vec<usize>>),
}

/// A clause of the input with its constraint split into leaves.
pub(super) struct AbsClause {
    /// The input's variables and the fresh head variables.
    pub vars: Vec<VarId>,
    /// Body atoms, as in the input.
    pub body: Vec<PredApp>,
    /// Head predicate and its arguments (distinct variables).
    pub head: Option<(FuncId, Vec<TermId>)>,
    /// The constraint's skeleton.
    pub items: Vec<Item>,
    /// The leaves of this clause.
    pub leaves: Vec<usize>,
}

/// One abstractable constraint.
pub(super) struct Leaf {
    /// The constraint.
    pub term: TermId,
    /// Its assumption literal σ (a Bool variable).
    pub sigma: TermId,
}

/// Every clause's leaves.
pub(super) struct Space {
    pub clauses: Vec<AbsClause>,
    pub leaves: Vec<Leaf>,
    /// σ literal -> leaf.
    pub by_sigma: FxHashMap<TermId, usize>,
}

/// The conjuncts of `t` (nested `and`s flattened, `true` dropped), without recursion.
fn conjuncts(store: &TermStore, t: TermId) -> Vec<TermId> {
    let mut out = Vec::new();
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        match store.op(t) {
            Op::And => stack.extend(store.args(t).iter().rev()),
            Op::Bool(true) => {}
            _ => out.push(t),
        }
    }
    out
}

fn disjuncts(store: &TermStore, t: TermId) -> Vec<TermId> {
    let mut out = Vec::new();
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        match store.op(t) {
            Op::Or => stack.extend(store.args(t).iter().rev()),
            Op::Bool(false) => {}
            _ => out.push(t),
        }
    }
    out
}

impl Space {
    pub(super) fn new(store: &mut TermStore, sys: &ChcSystem) -> Space {
        let mut space = Space {
            clauses: Vec::new(),
            leaves: Vec::new(),
            by_sigma: FxHashMap::default(),
        };
        for (ci, c) in sys.clauses.iter().enumerate() {
            let ac = space.split(store, ci, c);
            space.clauses.push(ac);
        }
        space
    }

    fn leaf(&mut self, store: &mut TermStore, ci: usize, term: TermId, mine: &mut Vec<usize>) {
        let v = store.fresh_var(&format!("sigma{ci}"), Sort::Bool);
        let sigma = store.mk_var(v);
        self.by_sigma.insert(sigma, self.leaves.len());
        mine.push(self.leaves.len());
        self.leaves.push(Leaf { term, sigma });
    }

    fn split(&mut self, store: &mut TermStore, ci: usize, c: &Clause) -> AbsClause {
        let mut vars = c.vars.clone();
        let mut leaves = Vec::new();
        let mut items = Vec::new();
        for t in conjuncts(store, c.constraint) {
            if matches!(store.op(t), Op::Or) {
                let mut alts = Vec::new();
                for d in disjuncts(store, t) {
                    let mut conj = Vec::new();
                    for l in conjuncts(store, d) {
                        self.leaf(store, ci, l, &mut leaves);
                        conj.push(*leaves.last().expect("just pushed"));
                    }
                    alts.push(conj);
                }
                items.push(Item::Or(alts));
            } else {
                self.leaf(store, ci, t, &mut leaves);
                items.push(Item::Leaf(*leaves.last().expect("just pushed")));
            }
        }
        let head = c.head.as_ref().map(|h| {
            let mut seen = FxHashSet::default();
            let mut args = Vec::new();
            for &a in &h.args {
                if let Some(v) = store.as_var(a)
                    && seen.insert(v)
                {
                    args.push(a);
                    continue;
                }
                let v = store.fresh_var(&format!("head{ci}"), store.sort(a));
                vars.push(v);
                let vt = store.mk_var(v);
                let eq = store.mk_eq(vt, a);
                self.leaf(store, ci, eq, &mut leaves);
                items.push(Item::Leaf(*leaves.last().expect("just pushed")));
                args.push(vt);
            }
            (h.pred, args)
        });
        AbsClause {
            vars,
            body: c.body.clone(),
            head,
            items,
            leaves,
        }
    }

    /// Clause `ci`'s constraint with every leaf `l` replaced by `leaf(l)`.
    pub(super) fn constraint(
        &self,
        store: &mut TermStore,
        ci: usize,
        leaf: &mut dyn FnMut(&mut TermStore, usize) -> TermId,
    ) -> TermId {
        let mut parts = Vec::new();
        for item in &self.clauses[ci].items {
            match item {
                Item::Leaf(l) => parts.push(leaf(store, *l)),
                Item::Or(alts) => {
                    let mut ds = Vec::new();
                    for conj in alts {
                        let cs: Vec<TermId> = conj.iter().map(|&l| leaf(store, l)).collect();
                        ds.push(store.mk_and(&cs));
                    }
                    parts.push(store.mk_or(&ds));
                }
            }
        }
        store.mk_and(&parts)
    }

    /// Clause `ci`'s constraint with each leaf under its σ (`σ → leaf`).
    pub(super) fn guarded(&self, store: &mut TermStore, ci: usize) -> TermId {
        self.constraint(store, ci, &mut |store, l| {
            let n = store.mk_not(self.leaves[l].sigma);
            store.mk_or(&[n, self.leaves[l].term])
        })
    }

    /// The abstract system `P̂(Σ̂)` restricted to the invariants `inv` (thesis `A_𝓘`): every
    /// clause keeps its enabled leaves and assumes `inv` of its body atoms and its head.
    pub(super) fn abstract_system(
        &self,
        store: &mut TermStore,
        sys: &ChcSystem,
        enabled: &[bool],
        inv: &InvMap,
    ) -> ChcSystem {
        let mut out = ChcSystem {
            preds: sys.preds.clone(),
            clauses: Vec::new(),
        };
        for (ci, ac) in self.clauses.iter().enumerate() {
            let t = self.constraint(store, ci, &mut |store, l| {
                if enabled[l] {
                    self.leaves[l].term
                } else {
                    store.mk_true()
                }
            });
            let mut parts = vec![t];
            for b in &ac.body {
                parts.push(inv.apply(store, b.pred, &b.args));
            }
            if let Some((p, args)) = &ac.head {
                parts.push(inv.apply(store, *p, args));
            }
            let constraint = store.mk_and(&parts);
            out.clauses.push(Clause {
                vars: ac.vars.clone(),
                body: ac.body.clone(),
                constraint,
                head: ac.head.as_ref().map(|(p, args)| PredApp {
                    pred: *p,
                    args: args.clone(),
                }),
                origin: sys.clauses[ci].origin,
            });
        }
        out
    }
}
