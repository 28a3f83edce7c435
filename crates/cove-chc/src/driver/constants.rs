//! Declared constants, decided exactly.
//!
//! A constant `k` of a HORN file is one value shared by all clauses and chosen existentially
//! with the predicates: the system `S(k)` is satisfiable iff `∃k. S[k]` has a model. Cove
//! carries the constants as extra arguments that every clause passes on unchanged (the
//! *lifted* system `S'`, where `k` becomes an ordinary clause variable), restricted to a
//! region `R(k)` of values not yet known to be bad:
//!
//! - `S' ∧ R` safe with invariants `I(x, k)`: every `k₀` in `R` makes `S[k₀]` safe with
//!   `I(x, k₀)`. Cove picks one `k₀`, and the certificate (values and invariants) is checked
//!   against `S[k₀]`.
//! - `S' ∧ R` unsafe: the derivation uses one value `k₀` throughout (the extra arguments force
//!   it). Its constraint, with everything but the constants eliminated exactly (`ψ(k)`), is
//!   the set of values for which the same derivation exists. If `R ∧ ¬ψ` is empty, every
//!   value is bad and the answer is `unsat` (the derivation is checked against `S[k₀]`);
//!   otherwise the search continues in `R ∧ ¬ψ`.
//!
//! When the elimination fails or the regions keep shrinking without end, the answer is
//! `unknown` with the reason: never a guess.

use super::run::validate;
use super::{Outcome, Phase, SolveConfig, Validation, solve_system};
use crate::engine::Control;
use crate::frontend::Query;
use crate::result::{ChcResult, Derivation, Invariants, UnknownReason};
use crate::system::{ChcSystem, Clause, PredApp};
use cove_logic::{FuncId, Sort, TermId, TermStore, Value, VarId, substitute};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::{FxHashMap, FxHashSet};

/// Rounds of region refinement before giving up.
const MAX_ROUNDS: usize = 32;

pub(crate) fn solve(store: &TermStore, q: &Query, cfg: &SolveConfig, ctl: &Control) -> Outcome {
    let mut st = store.clone();
    let consts = &q.constants;
    let (lifted_preds, back_pred) = lift_preds(&mut st, &q.system, consts);
    let mut region = st.mk_true();
    for _ in 0..MAX_ROUNDS {
        if let Some(why) = ctl.should_stop() {
            return Outcome::unknown(st, why, Phase::Solving);
        }
        let lifted = lift(&mut st, &q.system, consts, &lifted_preds, region);
        let out = solve_system(st, &lifted, cfg, ctl);
        st = out.store;
        match out.answer {
            ChcResult::Sat(inv) => {
                let Some(values) = pick_values(&mut st, consts, region) else {
                    return Outcome::unknown(
                        st,
                        UnknownReason::Incomplete("constants: no value in the region".into()),
                        Phase::Solving,
                    );
                };
                let inv = instantiate_invariants(&mut st, &inv, &back_pred, consts, &values);
                let ground = instantiate(&mut st, &q.system, consts, &values);
                return finish(
                    st,
                    &ground,
                    ChcResult::Sat(inv),
                    consts,
                    values,
                    &out.engine,
                    cfg,
                    ctl,
                );
            }
            ChcResult::Unsat(d) => {
                let d = lower_derivation(&d, &back_pred, &q.system, consts);
                let values = derivation_values(&d, consts);
                let Some(values) = values else {
                    return Outcome::unknown(
                        st,
                        UnknownReason::Incomplete("constants: inconsistent counterexample".into()),
                        Phase::Solving,
                    );
                };
                let values: Vec<Value> = values
                    .into_iter()
                    .zip(consts)
                    .map(|(v, &k)| v.unwrap_or_else(|| default_value(st.var_sort(k))))
                    .collect();
                let phi = derivation_formula(&mut st, &q.system, &d, consts);
                let elim: Vec<VarId> = cove_logic::free_vars(&st, phi)
                    .into_iter()
                    .filter(|v| !consts.contains(v))
                    .collect();
                let qe = cove_smt::mbp::qe_under(
                    &mut st,
                    phi,
                    &elim,
                    cove_smt::mbp::QE_DEFAULT_LIMIT,
                    ctl,
                );
                let psi = match qe {
                    Ok(psi) => psi,
                    Err(e) => {
                        let why = ctl.should_stop().unwrap_or_else(|| {
                            UnknownReason::Incomplete(format!(
                                "constants: the counterexample depends on them and projecting it failed: {e}"
                            ))
                        });
                        return Outcome::unknown(st, why, Phase::Solving);
                    }
                };
                let not_psi = st.mk_not(psi);
                region = st.mk_and(&[region, not_psi]);
                let mut s = SmtSolver::new();
                s.set_limits(cove_smt::Limits::of(ctl));
                s.assert(&mut st, region);
                match s.check(&mut st) {
                    SmtResult::Unsat => {
                        let ground = instantiate(&mut st, &q.system, consts, &values);
                        let d = ground_derivation(&d, consts);
                        return finish(
                            st,
                            &ground,
                            ChcResult::Unsat(d),
                            consts,
                            values,
                            &out.engine,
                            cfg,
                            ctl,
                        );
                    }
                    SmtResult::Sat => continue,
                    SmtResult::Unknown(why) => return Outcome::unknown(st, why, Phase::Solving),
                }
            }
            ChcResult::Unknown(why) => {
                let mut o = Outcome::unknown(st, why, out.phase.unwrap_or(Phase::Solving));
                o.engine = out.engine;
                o.validation = out.validation;
                return o;
            }
        }
    }
    Outcome::unknown(
        st,
        UnknownReason::Incomplete(format!(
            "constants: counterexamples for {MAX_ROUNDS} regions of their values; no safe value found"
        )),
        Phase::Solving,
    )
}

/// Checks the final certificate against the system with the constants' values.
#[allow(clippy::too_many_arguments)]
fn finish(
    mut st: TermStore,
    ground: &ChcSystem,
    answer: ChcResult,
    consts: &[VarId],
    values: Vec<Value>,
    engine: &str,
    cfg: &SolveConfig,
    ctl: &Control,
) -> Outcome {
    let (answer, validation, phase) = if cfg.validate {
        validate(&mut st, ground, answer, ctl)
    } else {
        (answer, Validation::Skipped, None)
    };
    Outcome {
        answer,
        store: st,
        engine: engine.to_string(),
        validation,
        constants: consts.iter().copied().zip(values).collect(),
        phase,
        stats: vec![],
        time: std::time::Duration::ZERO,
    }
}

/// One lifted predicate `P'(x, k)` per predicate `P(x)`; and the way back.
fn lift_preds(
    st: &mut TermStore,
    sys: &ChcSystem,
    consts: &[VarId],
) -> (FxHashMap<FuncId, FuncId>, FxHashMap<FuncId, FuncId>) {
    let extra: Vec<Sort> = consts.iter().map(|&k| st.var_sort(k)).collect();
    let mut up = FxHashMap::default();
    let mut down = FxHashMap::default();
    for &p in &sys.preds {
        let d = st.func(p).clone();
        let mut args = d.args.to_vec();
        args.extend_from_slice(&extra);
        let mut n = 0usize;
        let q = loop {
            let name = format!(
                "{}+k{}",
                d.name,
                if n == 0 { String::new() } else { n.to_string() }
            );
            // A name already in use (declare_func returns the existing symbol) is skipped.
            if let Ok(q) = st.declare_func(&name, &args, Sort::Bool)
                && !down.contains_key(&q)
                && !sys.preds.contains(&q)
            {
                break q;
            }
            n += 1;
        };
        up.insert(p, q);
        down.insert(q, p);
    }
    (up, down)
}

/// The lifted system restricted to `region`.
fn lift(
    st: &mut TermStore,
    sys: &ChcSystem,
    consts: &[VarId],
    up: &FxHashMap<FuncId, FuncId>,
    region: TermId,
) -> ChcSystem {
    let kt: Vec<TermId> = consts.iter().map(|&k| st.mk_var(k)).collect();
    let app = |a: &PredApp| {
        let mut args = a.args.clone();
        args.extend_from_slice(&kt);
        PredApp {
            pred: up[&a.pred],
            args,
        }
    };
    let clauses = sys
        .clauses
        .iter()
        .map(|c| {
            let mut vars = c.vars.clone();
            for &k in consts {
                if !vars.contains(&k) {
                    vars.push(k);
                }
            }
            Clause {
                vars,
                body: c.body.iter().map(app).collect(),
                constraint: st.mk_and(&[c.constraint, region]),
                head: c.head.as_ref().map(app),
                origin: c.origin,
            }
        })
        .collect();
    ChcSystem {
        preds: sys.preds.iter().map(|p| up[p]).collect(),
        clauses,
    }
}

/// Values of the constants inside `region` (defaults where the region leaves them free).
fn pick_values(st: &mut TermStore, consts: &[VarId], region: TermId) -> Option<Vec<Value>> {
    let mut s = SmtSolver::new();
    s.assert(st, region);
    if s.check(st) != SmtResult::Sat {
        return None;
    }
    Some(
        consts
            .iter()
            .map(|&k| {
                let t = st.mk_var(k);
                s.value(st, t)
                    .unwrap_or_else(|| default_value(st.var_sort(k)))
            })
            .collect(),
    )
}

fn default_value(sort: Sort) -> Value {
    match sort {
        Sort::Bool => Value::Bool(false),
        Sort::Array(_) => Value::default_of(sort),
        _ => Value::Num(cove_logic::Rational::from(0)),
    }
}

fn value_term(st: &mut TermStore, v: &Value, sort: Sort) -> TermId {
    v.to_term(st, sort)
}

/// `S[k := values]`: the constants replaced by their values and dropped from the variables.
fn instantiate(
    st: &mut TermStore,
    sys: &ChcSystem,
    consts: &[VarId],
    values: &[Value],
) -> ChcSystem {
    let map: FxHashMap<VarId, TermId> = consts
        .iter()
        .zip(values)
        .map(|(&k, v)| (k, value_term(st, v, st.var_sort(k))))
        .collect();
    let kset: FxHashSet<VarId> = consts.iter().copied().collect();
    let mut out = sys.clone();
    for c in &mut out.clauses {
        c.vars.retain(|v| !kset.contains(v));
        c.constraint = substitute(st, c.constraint, &map);
        for a in c.body.iter_mut().chain(c.head.iter_mut()) {
            for t in &mut a.args {
                *t = substitute(st, *t, &map);
            }
        }
    }
    out
}

/// `P(x) := I(x, values)` from the lifted system's invariants.
fn instantiate_invariants(
    st: &mut TermStore,
    inv: &Invariants,
    down: &FxHashMap<FuncId, FuncId>,
    consts: &[VarId],
    values: &[Value],
) -> Invariants {
    let mut out = Invariants::default();
    for (q, def) in &inv.defs {
        let Some(&p) = down.get(q) else { continue };
        let n = def.params.len() - consts.len();
        let map: FxHashMap<VarId, TermId> = def.params[n..]
            .iter()
            .zip(values)
            .map(|(&x, v)| (x, value_term(st, v, st.var_sort(x))))
            .collect();
        let body = substitute(st, def.body, &map);
        out.define(p, def.params[..n].to_vec(), body);
    }
    out
}

/// The lifted derivation as one of the input system (constants still clause variables).
fn lower_derivation(
    d: &Derivation,
    down: &FxHashMap<FuncId, FuncId>,
    sys: &ChcSystem,
    consts: &[VarId],
) -> Derivation {
    let mut out = d.clone();
    for s in &mut out.steps {
        if let Some((p, vals)) = &mut s.head {
            *p = down.get(p).copied().unwrap_or(*p);
            vals.truncate(vals.len().saturating_sub(consts.len()));
        }
        if let Some(c) = sys.clauses.get(s.clause) {
            s.assignment
                .retain(|(v, _)| c.vars.contains(v) || consts.contains(v));
        }
    }
    out
}

/// The constants' values in `d`: one value each, the same in every step.
fn derivation_values(d: &Derivation, consts: &[VarId]) -> Option<Vec<Option<Value>>> {
    let mut vals: Vec<Option<Value>> = vec![None; consts.len()];
    for s in &d.steps {
        for (v, val) in &s.assignment {
            if let Some(i) = consts.iter().position(|k| k == v) {
                match &vals[i] {
                    Some(old) if old != val => return None,
                    _ => vals[i] = Some(val.clone()),
                }
            }
        }
    }
    Some(vals)
}

/// `d` with the constants' values removed from the assignments (they are substituted in the
/// ground system it is checked against).
fn ground_derivation(d: &Derivation, consts: &[VarId]) -> Derivation {
    let mut out = d.clone();
    for s in &mut out.steps {
        s.assignment.retain(|(v, _)| !consts.contains(v));
    }
    out
}

/// The constraint of `d`'s shape: every step's clause with its variables renamed apart (the
/// constants shared), linked to its premises' heads. Its projection on the constants is the
/// set of values for which a derivation of this shape exists.
fn derivation_formula(
    st: &mut TermStore,
    sys: &ChcSystem,
    d: &Derivation,
    consts: &[VarId],
) -> TermId {
    let mut maps: Vec<FxHashMap<VarId, TermId>> = Vec::with_capacity(d.steps.len());
    for s in &d.steps {
        let c = &sys.clauses[s.clause];
        let mut m = FxHashMap::default();
        for &v in &c.vars {
            if !consts.contains(&v) {
                let (name, sort) = (st.var_name(v).to_string(), st.var_sort(v));
                let f = st.fresh_var(&name, sort);
                let ft = st.mk_var(f);
                m.insert(v, ft);
            }
        }
        maps.push(m);
    }
    let mut conj = vec![];
    for (i, s) in d.steps.iter().enumerate() {
        let c = &sys.clauses[s.clause];
        conj.push(substitute(st, c.constraint, &maps[i]));
        for (b, &j) in s.premises.iter().enumerate() {
            let Some(app) = c.body.get(b) else { continue };
            let Some(head) = sys.clauses[d.steps[j].clause].head.as_ref() else {
                continue;
            };
            for (&a, &h) in app.args.iter().zip(&head.args) {
                let a = substitute(st, a, &maps[i]);
                let h = substitute(st, h, &maps[j]);
                conj.push(st.mk_eq(a, h));
            }
        }
    }
    st.mk_and(&conj)
}
