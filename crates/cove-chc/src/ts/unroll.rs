//! Step copies of a transition system's variables ("time frames").

use super::{Trace, TransitionSystem};
use cove_logic::{Model, TermId, TermStore, Value, VarId, substitute};
use rustc_hash::FxHashMap;

/// Versioned copies of the state variables, one per step, for unrolling a
/// [`TransitionSystem`]: `state(k)` are the variables after `k` steps, `trans(k)` relates
/// step `k` to step `k + 1` with its own copies of the local variables `aux`.
///
/// The copies are fresh variables (`x@k!n`), distinct from the system's `vars`/`next`, so a
/// formula over `vars` is shifted to any step with [`Unroller::at`]. Terms are cached: asking
/// twice for `trans(k)` gives the same term (the same `aux` copies).
#[derive(Clone, Debug)]
pub struct Unroller {
    vars: Vec<VarId>,
    next: Vec<VarId>,
    aux: Vec<VarId>,
    init: TermId,
    trans: TermId,
    bad: TermId,
    steps: Vec<Vec<VarId>>,
    trans_at: Vec<Option<TermId>>,
}

impl Unroller {
    /// An unroller for `ts` with no step created yet.
    pub fn new(ts: &TransitionSystem) -> Unroller {
        Unroller {
            vars: ts.vars.clone(),
            next: ts.next.clone(),
            aux: ts.aux.clone(),
            init: ts.init,
            trans: ts.trans,
            bad: ts.bad,
            steps: Vec::new(),
            trans_at: Vec::new(),
        }
    }

    /// The state variables of step `k` (created on first use).
    pub fn state(&mut self, store: &mut TermStore, k: usize) -> &[VarId] {
        while self.steps.len() <= k {
            let i = self.steps.len();
            let copy = self
                .vars
                .iter()
                .map(|&v| {
                    let name = format!("{}@{i}", store.var_name(v));
                    store.fresh_var(&name, store.var_sort(v))
                })
                .collect();
            self.steps.push(copy);
        }
        &self.steps[k]
    }

    /// A formula over the system's `vars` (and `next`, if any) shifted to step `k` (and
    /// `k + 1`). Local variables are left alone: use [`Unroller::trans`] for `trans`.
    pub fn at(&mut self, store: &mut TermStore, t: TermId, k: usize) -> TermId {
        self.state(store, k + 1);
        let mut map: FxHashMap<VarId, TermId> = FxHashMap::default();
        for (i, &v) in self.vars.iter().enumerate() {
            map.insert(v, store.mk_var(self.steps[k][i]));
        }
        for (i, &v) in self.next.iter().enumerate() {
            map.insert(v, store.mk_var(self.steps[k + 1][i]));
        }
        substitute(store, t, &map)
    }

    /// `init` at step `k`.
    pub fn init(&mut self, store: &mut TermStore, k: usize) -> TermId {
        let t = self.init;
        self.at(store, t, k)
    }

    /// `bad` at step `k`.
    pub fn bad(&mut self, store: &mut TermStore, k: usize) -> TermId {
        let t = self.bad;
        self.at(store, t, k)
    }

    /// `trans` from step `k` to step `k + 1`, with fresh copies of the local variables.
    pub fn trans(&mut self, store: &mut TermStore, k: usize) -> TermId {
        if let Some(Some(t)) = self.trans_at.get(k) {
            return *t;
        }
        let mut map: FxHashMap<VarId, TermId> = FxHashMap::default();
        for &a in &self.aux {
            let name = format!("{}@{k}", store.var_name(a));
            let c = store.fresh_var(&name, store.var_sort(a));
            map.insert(a, store.mk_var(c));
        }
        let t = substitute(store, self.trans, &map);
        let t = self.at(store, t, k);
        if self.trans_at.len() <= k {
            self.trans_at.resize(k + 1, None);
        }
        self.trans_at[k] = Some(t);
        t
    }

    /// The states `0..=n` read off a model (variables the model does not mention get the
    /// default value of their sort).
    pub fn trace(&mut self, store: &mut TermStore, model: &Model, n: usize) -> Trace {
        self.state(store, n);
        let states = self.steps[..=n]
            .iter()
            .map(|vs| {
                vs.iter()
                    .map(|&v| {
                        model
                            .get(v)
                            .cloned()
                            .unwrap_or_else(|| Value::default_of(store.var_sort(v)))
                    })
                    .collect()
            })
            .collect();
        Trace { states }
    }
}
