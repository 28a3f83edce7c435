//! Translating invariants and traces of the transition system back to the clause system.

use super::{LocKind, Trace, TransitionSystem, TsError, loc_term, value_term};
use crate::engine::Control;
use crate::result::{Derivation, DerivationStep, Invariants};
use crate::system::{ChcSystem, Clause};
use cove_logic::{
    FuncId, Model, Sort, TermId, TermStore, Value, VarId, free_vars, simplify, substitute,
};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::FxHashMap;

impl TransitionSystem {
    /// The invariants of the clause system defined by an invariant `inv` of this transition
    /// system (a formula over `vars`).
    ///
    /// Predicate `P` (location `i`) gets `inv[loc := i]` over its slots, with every slot of
    /// another predicate replaced by a default value (0 / false). This is sound for a
    /// 1-inductive `inv`: other slots are unconstrained in `init` and after every step (havoc),
    /// so `inv` holds at location `i` for *every* value of them, in particular the default.
    /// (The result is what the independent checker then validates.)
    pub fn invariants(&self, store: &mut TermStore, inv: TermId) -> Result<Invariants, TsError> {
        if let Some(v) = free_vars(store, inv)
            .into_iter()
            .find(|v| !self.vars.contains(v))
        {
            return Err(TsError::BadWitness(format!(
                "invariant mentions '{}', which is not a state variable",
                store.var_name(v)
            )));
        }
        let mut out = Invariants::default();
        for (i, l) in self.locs.iter().enumerate() {
            let super::LocKind::Pred(p) = l.kind else {
                continue;
            };
            let mut map: FxHashMap<VarId, TermId> = FxHashMap::default();
            for &v in &self.vars {
                if Some(v) == self.loc {
                    map.insert(v, loc_term(store, i));
                } else if !l.slots.contains(&v) {
                    let sort = store.var_sort(v);
                    let d = value_term(store, &Value::default_of(sort), sort);
                    map.insert(v, d);
                }
            }
            let body = substitute(store, inv, &map);
            let body = simplify(store, body);
            out.define(p, l.slots.clone(), body);
        }
        Ok(out)
    }

    /// The derivation of `false` from `sys` (the system this view was built from) that the
    /// counterexample `trace` describes. Each step's clause and the values of its variables
    /// are recovered from the states alone: for consecutive states, a clause between their
    /// locations whose constraint holds for their values (one small SMT query per step).
    pub fn derivation(
        &self,
        store: &mut TermStore,
        sys: &ChcSystem,
        trace: &Trace,
        ctl: &Control,
    ) -> Result<Derivation, TsError> {
        let bad = |s: String| TsError::BadWitness(s);
        if trace.states.is_empty() {
            return Err(bad("empty trace".into()));
        }
        // Location and predicate facts of every state.
        let mut facts: Vec<(usize, Vec<Value>)> = Vec::new();
        for st in &trace.states {
            if st.len() != self.vars.len() {
                return Err(bad("a state has the wrong number of values".into()));
            }
            let li = match self.loc {
                None => 0,
                Some(l) => {
                    let k = self
                        .vars
                        .iter()
                        .position(|&v| v == l)
                        .expect("loc is a var");
                    st[k]
                        .as_num()
                        .and_then(|n| n.to_i64())
                        .and_then(|n| usize::try_from(n).ok())
                        .filter(|&n| n < self.locs.len())
                        .ok_or_else(|| bad("location value out of range".into()))?
                }
            };
            let vals: Vec<Value> = self.locs[li]
                .slots
                .iter()
                .map(|s| st[self.vars.iter().position(|v| v == s).expect("slot")].clone())
                .collect();
            facts.push((li, vals));
        }
        let mut d = Derivation::default();
        // The step deriving the previous state's fact (`None` at the start location).
        let mut prev: Option<usize> = None;
        for (i, (li, vals)) in facts.iter().enumerate() {
            let kind = self.locs[*li].kind;
            let from = if i == 0 { None } else { Some(&facts[i - 1]) };
            let src = match from.map(|(l, _)| self.locs[*l].kind) {
                None | Some(LocKind::Start) => None,
                Some(LocKind::Pred(p)) => Some(p),
                Some(LocKind::Error) => return Err(bad(format!("state {i} follows the error"))),
            };
            if src.is_none() && prev.is_some() {
                return Err(bad(format!("state {i} follows a start state")));
            }
            let body = from.map(|(_, v)| v).filter(|_| src.is_some());
            let (dst, head) = match kind {
                LocKind::Start if i == 0 => continue,
                LocKind::Start => return Err(bad(format!("state {i} is a start state"))),
                LocKind::Pred(p) => (Some(p), Some((p, vals.clone()))),
                LocKind::Error => (None, None),
            };
            let (ci, a) = find(store, sys, src, dst, body, head.as_ref().map(|h| &h.1), ctl)?
                .ok_or_else(|| bad(format!("no clause explains state {i}")))?;
            d.steps.push(step(ci, head, prev.into_iter().collect(), a));
            prev = Some(d.steps.len() - 1);
            if kind == LocKind::Error {
                d.root = d.steps.len() - 1;
                return Ok(d);
            }
        }
        // The last state is bad at a predicate: a query clause applies to it.
        let (ln, vn) = facts.last().expect("nonempty");
        let LocKind::Pred(p) = self.locs[*ln].kind else {
            return Err(bad("the trace ends at the start location".into()));
        };
        let (ci, a) = find(store, sys, Some(p), None, Some(vn), None, ctl)?
            .ok_or_else(|| bad("the last state is not bad".into()))?;
        d.steps.push(step(ci, None, prev.into_iter().collect(), a));
        d.root = d.steps.len() - 1;
        Ok(d)
    }
}

/// Values of a clause's variables.
type Assignment = Vec<(VarId, Value)>;

fn step(
    clause: usize,
    head: Option<(FuncId, Vec<Value>)>,
    premises: Vec<usize>,
    assignment: Vec<(VarId, Value)>,
) -> DerivationStep {
    DerivationStep {
        clause,
        head,
        premises,
        assignment,
    }
}

/// The first clause from `src` to `dst` (None = no body / `false`) that has an instance whose
/// body arguments are `body` and head arguments are `head`, with the values of its variables.
fn find(
    store: &mut TermStore,
    sys: &ChcSystem,
    src: Option<FuncId>,
    dst: Option<FuncId>,
    body: Option<&Vec<Value>>,
    head: Option<&Vec<Value>>,
    ctl: &Control,
) -> Result<Option<(usize, Assignment)>, TsError> {
    for (ci, c) in sys.clauses.iter().enumerate() {
        if c.body.first().map(|a| a.pred) != src || c.head.as_ref().map(|h| h.pred) != dst {
            continue;
        }
        if let Some(r) = ctl.should_stop() {
            return Err(TsError::Stopped(r));
        }
        if let Some(a) = instance(store, c, body, head, ctl)? {
            return Ok(Some((ci, a)));
        }
    }
    Ok(None)
}

/// Values of `c`'s variables under which its constraint holds and its body/head arguments
/// evaluate to the given values, if there are any.
fn instance(
    store: &mut TermStore,
    c: &Clause,
    body: Option<&Vec<Value>>,
    head: Option<&Vec<Value>>,
    ctl: &Control,
) -> Result<Option<Assignment>, TsError> {
    let mut pairs: Vec<(TermId, &Value)> = Vec::new();
    if let Some(b) = body {
        pairs.extend(c.body[0].args.iter().copied().zip(b.iter()));
    }
    if let Some(h) = head {
        pairs.extend(c.head.as_ref().unwrap().args.iter().copied().zip(h.iter()));
    }
    // Fast path: arguments that are variables fix their values; evaluate if that is all.
    let mut m = Model::new();
    for (a, v) in &pairs {
        if let Some(x) = store.as_var(*a)
            && m.get(x).is_none()
        {
            m.set(x, (*v).clone());
        }
    }
    if c.vars.iter().all(|v| m.get(*v).is_some()) {
        let ok = m.eval_bool(store, c.constraint).unwrap_or(false)
            && pairs
                .iter()
                .all(|(a, v)| m.eval(store, *a).ok().as_ref() == Some(*v));
        return Ok(ok.then(|| assignment(store, c, &m)));
    }
    let mut parts = vec![c.constraint];
    for (a, v) in &pairs {
        let sort = store.sort(*a);
        let vt = value_term(store, v, sort);
        parts.push(store.mk_eq(*a, vt));
    }
    let f = store.mk_and(&parts);
    let mut s = SmtSolver::new();
    s.set_limits(cove_smt::Limits::of(ctl));
    s.assert(store, f);
    match s.check(store) {
        SmtResult::Sat => Ok(Some(assignment(store, c, &s.model(store)))),
        SmtResult::Unsat => Ok(None),
        SmtResult::Unknown(r) => Err(TsError::Stopped(ctl.should_stop().unwrap_or(r))),
    }
}

fn assignment(store: &TermStore, c: &Clause, m: &Model) -> Vec<(VarId, Value)> {
    c.vars
        .iter()
        .map(|&v| {
            let sort: Sort = store.var_sort(v);
            (
                v,
                m.get(v).cloned().unwrap_or_else(|| Value::default_of(sort)),
            )
        })
        .collect()
}
