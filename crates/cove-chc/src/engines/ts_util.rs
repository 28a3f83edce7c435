//! Small helpers shared by the transition-system engines (IMC, TPA, LAWI): SMT checks,
//! bounded search for a concrete trace, renaming between step copies, projection. Their
//! common [`crate::engine::Engine`] plumbing is [`super::ts_engine`].

use crate::engine::Control;
use crate::result::UnknownReason;
use crate::ts::{Trace, TransitionSystem, TsAnswer};
use cove_logic::{Model, TermId, TermStore, Value, VarId, simplify, substitute};
use cove_smt::{Limits, SmtResult, SmtSolver};
use rustc_hash::FxHashMap;

/// A solver under `ctl`'s limits.
pub(crate) fn solver(ctl: &Control) -> SmtSolver {
    let mut s = SmtSolver::new();
    s.set_limits(Limits::of(ctl));
    s
}

/// Satisfiability of the conjunction of `parts`: a model, `None` when unsatisfiable.
pub(crate) fn sat(
    store: &mut TermStore,
    parts: &[TermId],
    ctl: &Control,
) -> Result<Option<Model>, UnknownReason> {
    let mut s = solver(ctl);
    let f = store.mk_and(parts);
    s.assert(store, f);
    match s.check(store) {
        SmtResult::Sat => Ok(Some(s.model(store))),
        SmtResult::Unsat => Ok(None),
        SmtResult::Unknown(r) => Err(ctl.should_stop().unwrap_or(r)),
    }
}

/// The answers that need no search: `init` meets `bad` (a 0-step trace), or `bad` is
/// unsatisfiable (`true` is an invariant). Engines whose relations assume neither (TPA and
/// split-TPA) settle these first.
pub(crate) fn trivial_answer(
    store: &mut TermStore,
    ts: &TransitionSystem,
    ctl: &Control,
) -> Result<Option<TsAnswer>, UnknownReason> {
    if let Some(tr) = bmc_trace(store, ts, 0, ctl)? {
        return Ok(Some(TsAnswer::Unsafe(tr)));
    }
    if sat(store, &[ts.bad], ctl)?.is_none() {
        return Ok(Some(TsAnswer::Safe(store.mk_bool(true))));
    }
    Ok(None)
}

/// The shortest counterexample trace of at most `max` steps (incremental BMC).
pub(crate) fn bmc_trace(
    store: &mut TermStore,
    ts: &TransitionSystem,
    max: usize,
    ctl: &Control,
) -> Result<Option<Trace>, UnknownReason> {
    let mut un = ts.unroller();
    let mut s = solver(ctl);
    let i = un.init(store, 0);
    s.assert(store, i);
    for k in 0..=max {
        if let Some(r) = ctl.should_stop() {
            return Err(r);
        }
        if k > 0 {
            let t = un.trans(store, k - 1);
            s.assert(store, t);
        }
        let b = un.bad(store, k);
        match s.check_assuming(store, &[b]) {
            SmtResult::Sat => {
                let m = s.model(store);
                return Ok(Some(un.trace(store, &m, k)));
            }
            SmtResult::Unsat => {}
            SmtResult::Unknown(r) => return Err(ctl.should_stop().unwrap_or(r)),
        }
    }
    Ok(None)
}

/// `t` with `from[i]` replaced by `to[i]`.
pub(crate) fn rename(store: &mut TermStore, t: TermId, from: &[VarId], to: &[VarId]) -> TermId {
    let map: FxHashMap<VarId, TermId> = from
        .iter()
        .zip(to)
        .map(|(&f, &v)| (f, store.mk_var(v)))
        .collect();
    let r = substitute(store, t, &map);
    simplify(store, r)
}

/// `xs = ys` component-wise.
pub(crate) fn state_eq(store: &mut TermStore, xs: &[VarId], ys: &[VarId]) -> TermId {
    let eqs: Vec<TermId> = xs
        .iter()
        .zip(ys)
        .map(|(&x, &y)| {
            let (x, y) = (store.mk_var(x), store.mk_var(y));
            store.mk_eq(x, y)
        })
        .collect();
    store.mk_and(&eqs)
}

/// The values of `vars` in `m` (defaults for variables the model does not mention).
pub(crate) fn state_of(store: &TermStore, m: &Model, vars: &[VarId]) -> Vec<Value> {
    vars.iter()
        .map(|&v| {
            m.get(v)
                .cloned()
                .unwrap_or_else(|| Value::default_of(store.var_sort(v)))
        })
        .collect()
}

/// The formula `vars = values`.
pub(crate) fn state_is(store: &mut TermStore, vars: &[VarId], values: &[Value]) -> TermId {
    let eqs: Vec<TermId> = vars
        .iter()
        .zip(values)
        .map(|(&v, val)| {
            let sort = store.var_sort(v);
            let x = store.mk_var(v);
            let c = val.to_term(store, sort);
            store.mk_eq(x, c)
        })
        .collect();
    store.mk_and(&eqs)
}

/// Exact `∃ vars · phi` by model enumeration over MBP ([`cove_smt::mbp::qe_under`]) under
/// `ctl`, with at most `limit` disjuncts; `Err` when it cannot be computed.
pub(crate) fn eliminate(
    store: &mut TermStore,
    phi: TermId,
    vars: &[VarId],
    limit: usize,
    ctl: &Control,
) -> Result<TermId, UnknownReason> {
    cove_smt::mbp::qe_under(store, phi, vars, limit, ctl).map_err(|e| {
        ctl.should_stop()
            .unwrap_or_else(|| UnknownReason::Incomplete(format!("projection: {e}")))
    })
}
