//! Strong simulation through the SMT encoding ENCODESIM / ENCODEDISTREL (thesis Figs. 4.9,
//! 4.10), decided by `cove-smt`: an independent cross-check of [`crate::sim`] on small
//! systems.
//!
//! # Encoding
//! * a Boolean `R[s,t]` for every pair of states `(s, t) ∈ S1 × S2`;
//! * for every pair of transitions `s −a→ μ`, `t −a→ ν` (actions matched by name) a
//!   Boolean `rel` with ENCODEDISTREL: rational weights `w[s',t']` on `Supp μ × Supp ν` with
//!   `rel ⇒ Σ_t' w[s',t'] = μ(s')`, `rel ⇒ Σ_s' w[s',t'] = ν(t')`, `w ≥ 0` (errata: missing
//!   in Fig. 4.10), `rel ⇒ (w[s',t'] > 0 ⇒ R[s',t'])`, and the Hall side
//!   `¬rel ⇒ μ(X) > ν(R(X))` for a subset `X ⊆ Supp μ` given by Booleans `x[s']` and its
//!   image by `y[t'] ⇔ ⋁_s' x[s'] ∧ R[s',t']`. So in every model `rel` is exactly `μ ⊑_R ν`
//!   for the relation `R` of the model;
//! * `R[s,t] ⇒ ⋀_{s −a→ μ} ⋁_{t −a→ ν} rel_{μ,ν}`.
//!
//! # Why the per-pair queries give the greatest simulation
//! The `R`-parts of the models are exactly the strong simulations (Definition 9). The
//! coarsest simulation `⪯` is the union of all simulations and is one itself, so
//! `(s, t) ∈ ⪯` iff the encoding is satisfiable with `R[s,t]` assumed true. Every model found
//! along the way is a simulation, so all its pairs are decided at once; every refuted pair is
//! asserted false for the later queries (no simulation contains it).
//!
//! # Trust
//! No `Sat` answer is taken on faith: the relation of each model is re-checked with exact
//! rational arithmetic against the model's weights ([`SmtSimError::ModelRejected`] if that
//! fails). `Unsat` answers are the solver's word; the tests compare them with
//! [`crate::sim::Simulation::compute`] and [`crate::sim::naive_simulation`].
//!
//! The encoding grows with `|S1|·|S2|` Booleans and one weight per pair of support states of
//! every matching transition pair, so it is guarded by [`SmtSimLimits`].

use crate::flow::{DistRel, is_hall_violator};
use crate::lpts::{Dist, Lpts, StateId, TransId};
use crate::sim::Relation;
use cove_logic::{Rational, Sort, TermId, TermStore, Value};
use cove_smt::{SmtResult, SmtSolver};

/// Size guards for the SMT encoding.
#[derive(Clone, Debug)]
pub struct SmtSimLimits {
    /// Maximum `|S1|·|S2|` (Boolean pair variables).
    pub max_pairs: usize,
    /// Maximum number of weight variables over all matching transition pairs.
    pub max_weights: usize,
    /// Conflict budget per SMT check (`None`: unbounded).
    pub conflicts: Option<u64>,
}

impl Default for SmtSimLimits {
    fn default() -> Self {
        SmtSimLimits {
            max_pairs: 400,
            max_weights: 20_000,
            conflicts: Some(1_000_000),
        }
    }
}

/// Why the SMT route gave no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SmtSimError {
    /// The encoding would exceed a size guard.
    #[error("SMT simulation encoding too large: {what} = {size} exceeds the limit {limit}")]
    TooLarge {
        /// Which quantity (`pairs` or `weights`).
        what: &'static str,
        /// Its value for this input.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The solver answered `unknown`.
    #[error("SMT solver answered unknown: {0}")]
    Unknown(String),
    /// A model failed the exact re-check (a solver bug; never silently accepted).
    #[error("SMT model rejected by the exact check: {0}")]
    ModelRejected(String),
}

/// The greatest simulation with the work done to get it.
#[derive(Clone, Debug)]
pub struct SmtSimReport {
    /// `⪯ ⊆ S1 × S2`.
    pub relation: Relation,
    /// SMT checks performed.
    pub checks: usize,
    /// Of which satisfiable (each gave a re-checked simulation).
    pub sat: usize,
}

/// The encoding of one distribution pair (ENCODEDISTREL).
struct DistEnc {
    /// The Boolean `rel` (or a constant).
    rel: TermId,
    /// `(s', t', w[s',t'])`.
    weights: Vec<(StateId, StateId, TermId)>,
    /// `(s', x[s'])`: the Hall set of the `¬rel` side.
    hall: Vec<(StateId, TermId)>,
}

/// Adds ENCODEDISTREL(μ, ν, R, rel) to `solver`; `r(s', t')` is the Bool term `R[s',t']`.
fn encode_dist(
    store: &mut TermStore,
    solver: &mut SmtSolver,
    mu: &Dist,
    nu: &Dist,
    r: &dyn Fn(&mut TermStore, StateId, StateId) -> TermId,
    rel: TermId,
    tag: &str,
) -> DistEnc {
    let zero = store.mk_num(Rational::ZERO, Sort::Real);
    let mut weights = Vec::new();
    let mut cons = Vec::new();
    let mut rows: Vec<Vec<TermId>> = vec![Vec::new(); mu.len()];
    let mut cols: Vec<Vec<TermId>> = vec![Vec::new(); nu.len()];
    for (i, (s, _)) in mu.entries().iter().enumerate() {
        for (j, (t, _)) in nu.entries().iter().enumerate() {
            let v = store.var(&format!("w{tag}_{s}_{t}"), Sort::Real);
            let w = store.mk_var(v);
            weights.push((*s, *t, w));
            rows[i].push(w);
            cols[j].push(w);
            let nonneg = store.mk_ge(w, zero);
            solver.assert(store, nonneg);
            let pos = store.mk_gt(w, zero);
            let rst = r(store, *s, *t);
            cons.push(store.mk_implies(pos, rst));
        }
    }
    for (row, (_, p)) in rows.iter().zip(mu.entries()) {
        let sum = store.mk_add(row);
        let p = store.mk_num(p.clone(), Sort::Real);
        cons.push(store.mk_eq(sum, p));
    }
    for (col, (_, q)) in cols.iter().zip(nu.entries()) {
        let sum = store.mk_add(col);
        let q = store.mk_num(q.clone(), Sort::Real);
        cons.push(store.mk_eq(sum, q));
    }
    let body = store.mk_and(&cons);
    let pos_side = store.mk_implies(rel, body);
    solver.assert(store, pos_side);
    // The Hall side: ¬rel ⇒ μ(X) > ν(R(X)).
    let hall: Vec<(StateId, TermId)> = mu
        .support()
        .map(|s| {
            let v = store.var(&format!("x{tag}_{s}"), Sort::Bool);
            (s, store.mk_var(v))
        })
        .collect();
    let mut lhs = Vec::new();
    for ((_, x), (_, p)) in hall.iter().zip(mu.entries()) {
        let p = store.mk_num(p.clone(), Sort::Real);
        lhs.push(store.mk_ite(*x, p, zero));
    }
    let mut rhs = Vec::new();
    for (t, q) in nu.entries() {
        let v = store.var(&format!("y{tag}_{t}"), Sort::Bool);
        let y = store.mk_var(v);
        let reach: Vec<TermId> = hall
            .iter()
            .map(|&(s, x)| {
                let rst = r(store, s, *t);
                store.mk_and(&[x, rst])
            })
            .collect();
        let reach = store.mk_or(&reach);
        let def = store.mk_eq(y, reach);
        solver.assert(store, def);
        let q = store.mk_num(q.clone(), Sort::Real);
        rhs.push(store.mk_ite(y, q, zero));
    }
    let (l, rr) = (store.mk_add(&lhs), store.mk_add(&rhs));
    let violated = store.mk_gt(l, rr);
    let not_rel = store.mk_not(rel);
    let neg_side = store.mk_implies(not_rel, violated);
    solver.assert(store, neg_side);
    DistEnc { rel, weights, hall }
}

/// Reads a weight function from the model and checks it exactly: non-negative, positive only
/// on `related` pairs, marginals `μ` and `ν`. Returns the positive weights.
fn checked_weights(
    solver: &SmtSolver,
    store: &TermStore,
    enc: &DistEnc,
    mu: &Dist,
    nu: &Dist,
    related: &dyn Fn(StateId, StateId) -> bool,
) -> Result<Vec<(StateId, StateId, Rational)>, String> {
    let mut out = Vec::new();
    for &(s, t, w) in &enc.weights {
        let x = match solver.value(store, w) {
            Some(Value::Num(x)) => x,
            other => return Err(format!("weight ({s},{t}) has no numeric value: {other:?}")),
        };
        if x.is_negative() {
            return Err(format!("weight ({s},{t}) = {x} is negative"));
        }
        if x.is_positive() {
            if !related(s, t) {
                return Err(format!("weight ({s},{t}) = {x} on an unrelated pair"));
            }
            out.push((s, t, x));
        }
    }
    for (s, p) in mu.entries() {
        let row = out
            .iter()
            .filter(|e| e.0 == *s)
            .fold(Rational::ZERO, |a, e| a + &e.2);
        if row != *p {
            return Err(format!("row {s} sums to {row}, not μ({s}) = {p}"));
        }
    }
    for (t, q) in nu.entries() {
        let col = out
            .iter()
            .filter(|e| e.1 == *t)
            .fold(Rational::ZERO, |a, e| a + &e.2);
        if col != *q {
            return Err(format!("column {t} sums to {col}, not ν({t}) = {q}"));
        }
    }
    Ok(out)
}

fn bool_value(solver: &SmtSolver, store: &TermStore, t: TermId) -> Result<bool, SmtSimError> {
    match solver.value(store, t) {
        Some(Value::Bool(b)) => Ok(b),
        other => Err(SmtSimError::ModelRejected(format!(
            "Boolean without a value: {other:?}"
        ))),
    }
}

fn unknown(res: &SmtResult) -> SmtSimError {
    SmtSimError::Unknown(format!("{res:?}"))
}

/// `μ ⊑_R ν` by ENCODEDISTREL alone (Fig. 4.10): the weight function of a model (checked
/// exactly), or a Hall violator read from the `¬rel` side (checked with
/// [`is_hall_violator`]). Mirrors [`crate::flow::dist_related`].
pub fn smt_dist_related(
    mu: &Dist,
    nu: &Dist,
    related: &dyn Fn(StateId, StateId) -> bool,
) -> Result<DistRel, SmtSimError> {
    let mut store = TermStore::new();
    let mut solver = SmtSolver::new();
    let rel = {
        let v = store.var("rel", Sort::Bool);
        store.mk_var(v)
    };
    let r = |st: &mut TermStore, s: StateId, t: StateId| st.mk_bool(related(s, t));
    let enc = encode_dist(&mut store, &mut solver, mu, nu, &r, rel, "");
    match solver.check_assuming(&mut store, &[rel]) {
        SmtResult::Sat => {
            return checked_weights(&solver, &store, &enc, mu, nu, related)
                .map(DistRel::Related)
                .map_err(SmtSimError::ModelRejected);
        }
        SmtResult::Unsat => {}
        res => return Err(unknown(&res)),
    }
    let not_rel = store.mk_not(rel);
    match solver.check_assuming(&mut store, &[not_rel]) {
        SmtResult::Sat => {
            let mut x = Vec::new();
            for &(s, xs) in &enc.hall {
                if bool_value(&solver, &store, xs)? {
                    x.push(s);
                }
            }
            if is_hall_violator(mu, nu, related, &x) {
                Ok(DistRel::Violator(x))
            } else {
                Err(SmtSimError::ModelRejected(format!(
                    "{x:?} is not a Hall violator"
                )))
            }
        }
        SmtResult::Unsat => Err(SmtSimError::ModelRejected(
            "neither side of ENCODEDISTREL is satisfiable".into(),
        )),
        res => Err(unknown(&res)),
    }
}

/// ENCODESIM(L1, L2) loaded into a solver.
struct SimEnc {
    store: TermStore,
    solver: SmtSolver,
    n2: usize,
    /// `R[s,t]` at `s * n2 + t`.
    r: Vec<TermId>,
    /// Per transition pair `(t1, t2)` with matching action names: its encoding.
    pairs: Vec<(TransId, TransId, DistEnc)>,
}

fn encode_sim(l1: &Lpts, l2: &Lpts, limits: &SmtSimLimits) -> Result<SimEnc, SmtSimError> {
    let (n1, n2) = (l1.num_states(), l2.num_states());
    let npairs = n1 * n2;
    if npairs > limits.max_pairs {
        return Err(SmtSimError::TooLarge {
            what: "pairs",
            size: npairs,
            limit: limits.max_pairs,
        });
    }
    let mut tpairs = Vec::new();
    let mut nweights = 0;
    for (t1, tr1) in l1.transitions().iter().enumerate() {
        let name = l1.action_name(tr1.action);
        for (t2, tr2) in l2.transitions().iter().enumerate() {
            if l2.action_name(tr2.action) == name {
                tpairs.push((t1, t2));
                nweights += tr1.dist.len() * tr2.dist.len();
            }
        }
    }
    if nweights > limits.max_weights {
        return Err(SmtSimError::TooLarge {
            what: "weights",
            size: nweights,
            limit: limits.max_weights,
        });
    }
    let mut store = TermStore::new();
    let mut solver = SmtSolver::new();
    solver.set_limits(cove_sat::Limits {
        conflicts: limits.conflicts,
        ..Default::default()
    });
    let r: Vec<TermId> = (0..npairs)
        .map(|k| {
            let v = store.var(&format!("R_{}_{}", k / n2, k % n2), Sort::Bool);
            store.mk_var(v)
        })
        .collect();
    let rf = |_: &mut TermStore, s: StateId, t: StateId| r[s * n2 + t];
    let mut pairs = Vec::with_capacity(tpairs.len());
    for (t1, t2) in tpairs {
        let v = store.var(&format!("rel_{t1}_{t2}"), Sort::Bool);
        let rel = store.mk_var(v);
        let (mu, nu) = (&l1.transition(t1).dist, &l2.transition(t2).dist);
        let tag = format!("_{t1}_{t2}");
        let enc = encode_dist(&mut store, &mut solver, mu, nu, &rf, rel, &tag);
        pairs.push((t1, t2, enc));
    }
    for s in 0..n1 {
        for t in 0..n2 {
            let mut conj = Vec::new();
            for &t1 in l1.outgoing(s) {
                let disj: Vec<TermId> = pairs
                    .iter()
                    .filter(|(p1, p2, _)| *p1 == t1 && l2.transition(*p2).src == t)
                    .map(|(_, _, e)| e.rel)
                    .collect();
                conj.push(store.mk_or(&disj));
            }
            let body = store.mk_and(&conj);
            let c = store.mk_implies(r[s * n2 + t], body);
            solver.assert(&mut store, c);
        }
    }
    Ok(SimEnc {
        store,
        solver,
        n2,
        r,
        pairs,
    })
}

/// After `Sat`: the relation of the model, re-checked to be a strong simulation with the
/// model's own weight functions.
fn checked_model_relation(enc: &SimEnc, l1: &Lpts, l2: &Lpts) -> Result<Relation, SmtSimError> {
    let (solver, store, n2) = (&enc.solver, &enc.store, enc.n2);
    let n1 = l1.num_states();
    let mut rel = Relation::new(n1, n2, false);
    for (k, &r) in enc.r.iter().enumerate() {
        if bool_value(solver, store, r)? {
            rel.set(k / n2, k % n2, true);
        }
    }
    let related = |s: StateId, t: StateId| rel.contains(s, t);
    for s in 0..n1 {
        for t in 0..n2 {
            if !rel.contains(s, t) {
                continue;
            }
            for &t1 in l1.outgoing(s) {
                let mut why = Vec::new();
                let matched = enc
                    .pairs
                    .iter()
                    .filter(|(p1, p2, _)| *p1 == t1 && l2.transition(*p2).src == t)
                    .any(|(_, t2, de)| {
                        let (mu, nu) = (&l1.transition(t1).dist, &l2.transition(*t2).dist);
                        match checked_weights(solver, store, de, mu, nu, &related) {
                            Ok(_) => true,
                            Err(e) => {
                                why.push(e);
                                false
                            }
                        }
                    });
                if !matched {
                    return Err(SmtSimError::ModelRejected(format!(
                        "model relates ({s},{t}) but transition {t1} is unmatched: {why:?}"
                    )));
                }
            }
        }
    }
    Ok(rel)
}

/// The coarsest strong simulation `⪯ ⊆ S1 × S2` via the SMT encoding, default limits.
pub fn smt_simulation(l1: &Lpts, l2: &Lpts) -> Result<Relation, SmtSimError> {
    smt_simulation_with(l1, l2, &SmtSimLimits::default()).map(|r| r.relation)
}

/// The coarsest strong simulation via the SMT encoding: one query per undecided pair.
pub fn smt_simulation_with(
    l1: &Lpts,
    l2: &Lpts,
    limits: &SmtSimLimits,
) -> Result<SmtSimReport, SmtSimError> {
    let mut enc = encode_sim(l1, l2, limits)?;
    let (n1, n2) = (l1.num_states(), l2.num_states());
    let mut decided: Vec<Option<bool>> = vec![None; n1 * n2];
    let mut result = Relation::new(n1, n2, false);
    let (mut checks, mut sat) = (0, 0);
    for k in 0..n1 * n2 {
        if decided[k].is_some() {
            continue;
        }
        checks += 1;
        let rk = enc.r[k];
        match enc.solver.check_assuming(&mut enc.store, &[rk]) {
            SmtResult::Sat => {
                sat += 1;
                let m = checked_model_relation(&enc, l1, l2)?;
                if !m.contains(k / n2, k % n2) {
                    return Err(SmtSimError::ModelRejected(format!(
                        "model ignores the assumption R[{},{}]",
                        k / n2,
                        k % n2
                    )));
                }
                for (j, d) in decided.iter_mut().enumerate() {
                    if m.contains(j / n2, j % n2) {
                        if *d == Some(false) {
                            return Err(SmtSimError::ModelRejected(format!(
                                "model relates the refuted pair ({},{})",
                                j / n2,
                                j % n2
                            )));
                        }
                        *d = Some(true);
                        result.set(j / n2, j % n2, true);
                    }
                }
            }
            SmtResult::Unsat => {
                decided[k] = Some(false);
                let not = enc.store.mk_not(rk);
                enc.solver.assert(&mut enc.store, not);
            }
            res => return Err(unknown(&res)),
        }
    }
    Ok(SmtSimReport {
        relation: result,
        checks,
        sat,
    })
}

/// `L1 ⪯ L2` by Lemma 15: ENCODESIM with `R[s1⁰,s2⁰]` asserted is satisfiable. A `true`
/// answer has passed the exact re-check of the model's simulation.
pub fn smt_simulates(l1: &Lpts, l2: &Lpts, limits: &SmtSimLimits) -> Result<bool, SmtSimError> {
    let mut enc = encode_sim(l1, l2, limits)?;
    let init = enc.r[l1.initial() * enc.n2 + l2.initial()];
    enc.solver.assert(&mut enc.store, init);
    match enc.solver.check(&mut enc.store) {
        SmtResult::Sat => {
            let m = checked_model_relation(&enc, l1, l2)?;
            if m.contains(l1.initial(), l2.initial()) {
                Ok(true)
            } else {
                Err(SmtSimError::ModelRejected(
                    "model does not relate the initial states".into(),
                ))
            }
        }
        SmtResult::Unsat => Ok(false),
        res => Err(unknown(&res)),
    }
}
