//! The invariant map 𝓘 (thesis Fig. 3.7): per predicate a set of formulas over fixed
//! parameters, each known to hold for every derivable fact of the *input* system.

use crate::result::Invariants;
use crate::share::SharedLemma;
use crate::system::ChcSystem;
use cove_logic::{FuncId, TermId, TermStore, VarId, substitute};
use rustc_hash::FxHashMap;

/// Per predicate: parameters and a conjunction of formulas over them.
#[derive(Clone)]
pub(crate) struct InvMap {
    pub params: FxHashMap<FuncId, Vec<VarId>>,
    pub sets: FxHashMap<FuncId, Vec<TermId>>,
}

impl InvMap {
    /// The empty map (`true` for every predicate), with fresh parameters.
    pub(crate) fn new(store: &mut TermStore, sys: &ChcSystem) -> InvMap {
        let mut params = FxHashMap::default();
        for &p in &sys.preds {
            let decl = store.func(p).clone();
            let ps = decl
                .args
                .iter()
                .enumerate()
                .map(|(i, s)| store.fresh_var(&format!("{}_{i}", decl.name), *s))
                .collect();
            params.insert(p, ps);
        }
        InvMap {
            params,
            sets: FxHashMap::default(),
        }
    }

    /// The formulas of `p` (empty = `true`).
    pub(crate) fn of(&self, p: FuncId) -> &[TermId] {
        self.sets.get(&p).map_or(&[], |v| v.as_slice())
    }

    /// Total number of formulas.
    pub(crate) fn size(&self) -> usize {
        self.sets.values().map(Vec::len).sum()
    }

    /// `formula` (over `p`'s parameters) instantiated on `args`.
    pub(crate) fn at(
        &self,
        store: &mut TermStore,
        p: FuncId,
        formula: TermId,
        args: &[TermId],
    ) -> TermId {
        let map: FxHashMap<VarId, TermId> = self.params[&p]
            .iter()
            .copied()
            .zip(args.iter().copied())
            .collect();
        substitute(store, formula, &map)
    }

    /// The conjunction of `p`'s formulas on `args`.
    pub(crate) fn apply(&self, store: &mut TermStore, p: FuncId, args: &[TermId]) -> TermId {
        let set = self.of(p).to_vec();
        let conj = store.mk_and(&set);
        self.at(store, p, conj, args)
    }

    /// `formula` over `from` renamed to `p`'s parameters.
    pub(crate) fn import(
        &self,
        store: &mut TermStore,
        p: FuncId,
        from: &[VarId],
        formula: TermId,
    ) -> TermId {
        let map: FxHashMap<VarId, TermId> = from
            .iter()
            .copied()
            .zip(
                self.params[&p]
                    .iter()
                    .map(|v| store.mk_var(*v))
                    .collect::<Vec<_>>(),
            )
            .collect();
        substitute(store, formula, &map)
    }

    /// Adds the offered lemmas of predicates this map has (each once) as formulas; returns
    /// how many were new. They are candidates: the caller filters them (Houdini).
    pub(crate) fn add_shared(&mut self, store: &mut TermStore, offers: &[SharedLemma]) -> usize {
        let mut added = 0;
        for c in offers {
            let Some(ps) = self.params.get(&c.pred) else {
                continue;
            };
            let Some(f) = c.formula.attach(store, ps) else {
                continue;
            };
            if store.as_bool(f) == Some(true) {
                continue;
            }
            let set = self.sets.entry(c.pred).or_default();
            if !set.contains(&f) {
                set.push(f);
                added += 1;
            }
        }
        added
    }

    /// `sys` with this map conjoined to every body atom's clause constraint. When the map is
    /// inductive for `sys`, the result has the same derivable facts (see
    /// `crate::preprocess::bounds` and `crate::driver`'s strengthening with shared lemmas).
    pub(crate) fn strengthen(&self, store: &mut TermStore, sys: &ChcSystem) -> ChcSystem {
        let mut out = sys.clone();
        for c in &mut out.clauses {
            if c.body.is_empty() {
                continue;
            }
            let mut conj: Vec<TermId> = vec![c.constraint];
            for b in &c.body {
                if !self.of(b.pred).is_empty() {
                    conj.push(self.apply(store, b.pred, &b.args));
                }
            }
            c.constraint = store.mk_and(&conj);
        }
        out
    }

    /// Conjoins this map to `inv`'s definitions: invariants of a system [`Self::strengthen`]ed
    /// with an inductive map become invariants of the system itself. `Err(p)` when `inv` has
    /// no definition for a predicate `p` the map constrains.
    pub(crate) fn conjoin(
        &self,
        store: &mut TermStore,
        inv: &mut Invariants,
    ) -> Result<(), FuncId> {
        for (&p, set) in &self.sets {
            if set.is_empty() {
                continue;
            }
            let Some(def) = inv.defs.get_mut(&p) else {
                return Err(p);
            };
            let args: Vec<TermId> = def.params.iter().map(|v| store.mk_var(*v)).collect();
            let j = self.apply(store, p, &args);
            def.body = store.mk_and(&[def.body, j]);
        }
        Ok(())
    }

    /// As a witness.
    pub(crate) fn invariants(&self, store: &mut TermStore) -> Invariants {
        let mut inv = Invariants::default();
        for (&p, ps) in &self.params {
            let set = self.of(p).to_vec();
            let body = store.mk_and(&set);
            let body = cove_logic::simplify(store, body);
            inv.define(p, ps.clone(), body);
        }
        inv
    }
}
