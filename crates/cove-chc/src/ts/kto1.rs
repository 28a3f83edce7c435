//! From a k-inductive invariant to a 1-inductive one ("certifying k-induction").
//!
//! `P` is *k-inductive* when every path `s_0 → … → s_k` with `P(s_0) … P(s_{k-1})` ends in
//! `P(s_k)`, and every state reachable in fewer than `k` steps satisfies `P`. The independent
//! checker accepts only 1-inductive invariants, so `P` is strengthened to
//!
//! ```text
//! I(s) = P(s) ∧ ¬B_1(s) ∧ … ∧ ¬B_{k-1}(s)
//! B_1(s)     = ∃s'·T(s, s') ∧ ¬P(s')
//! B_{j+1}(s) = ∃s'·T(s, s') ∧ P(s') ∧ B_j(s')
//! ```
//!
//! (`B_j`: from `s`, a path through `P`-states reaches `¬P` in exactly `j` steps). `I` is
//! 1-inductive: for `I(s) ∧ T(s, s')`, `P(s')` holds because `¬B_1(s)`; `¬B_j(s')` for `j < k-1`
//! because `¬B_{j+1}(s)`; and `¬B_{k-1}(s')` because a path from `s'` would extend to a
//! `k`-path from `s` through `P`-states ending in `¬P`, which k-inductiveness excludes.
//! `I` contains every reachable state, since `P` is an invariant and so no `B_j` meets them.
//! This is the construction Golem uses, there with one quantifier elimination over all
//! `k - 1` steps.
//!
//! Eliminating the quantifiers exactly blows up on systems with many state variables, so,
//! like Golem, we reach `I` by *interpolation* ("reinforced unfolding", Bjørner, Gurfinkel,
//! McMillan, Rybalchenko: Horn clause solvers for program verification, Sec. 4.2): with
//! `R_0 = true` and `R_m(x_0..x_m) = init(x_m) ∨ (R_{m-1}(x_0..x_{m-1}) ∧ P(x_{m-1}) ∧ T(x_{m-1}, x_m))`
//! ("`x_m` is initial or ends an `m`-step window through `P`"), split `k = i + j`
//! (`i ≥ j ≥ 1`); `A = R_i(x_0..x_i)` and `B = R_j(x_i..x_k) ∧ ¬P(x_k)` are jointly
//! unsatisfiable by k-inductiveness, and for an interpolant `J(x_i)` the invariant `P ∧ J` is
//! `i`-inductive: `J` holds after any `i`-window (it follows from `A`), and `P` after any
//! `j`-window from a `J`-state. Halving `k` until it is 1 gives the certificate.
//!
//! The interpolant is computed by cube enumeration, which needs nothing but a solver: while
//! `A ∧ ¬J` has a model, model-based projection of `A` onto `x_i` gives a cube implied by a
//! part of `A`; the cube contradicts `B` (it implies `∃·A`), so its unsat core against `B` is
//! a weaker cube that still does; `J` grows by that core. MBP's finite image makes this end.

use super::{TransitionSystem, TsError};
use crate::engine::Control;
use cove_logic::{Model, TermId, TermStore, Value, VarId, simplify, substitute};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::FxHashMap;

/// Most cubes of one interpolant before giving up.
const MAX_CUBES: usize = 5_000;

impl TransitionSystem {
    /// A 1-inductive strengthening of the `k`-inductive invariant `inv` (a formula over
    /// `vars`), as described in the module docs. The result is *not* checked here; callers
    /// validate it (e.g. with [`TransitionSystem::answer`]). Fails when a projection fails,
    /// `inv` turns out not to be k-inductive, or the control stops.
    pub fn k_to_1_inductive(
        &self,
        store: &mut TermStore,
        inv: TermId,
        k: usize,
        ctl: &Control,
    ) -> Result<TermId, TsError> {
        let mut inv = inv;
        let mut k = k;
        while k > 1 {
            let j = k / 2;
            let i = k - j;
            let mut un = self.unroller();
            let a = window(store, &mut un, inv, 0, i);
            let w = window(store, &mut un, inv, i, j);
            let p_k = un.at(store, inv, k);
            let not_p_k = store.mk_not(p_k);
            let b = store.mk_and(&[w, not_p_k]);
            let shared = un.state(store, i).to_vec();
            let itp = interpolate(store, a, b, &shared, ctl)?;
            // Back from step i to the state variables.
            let map: FxHashMap<VarId, TermId> = shared
                .iter()
                .zip(&self.vars)
                .map(|(&s, &v)| (s, store.mk_var(v)))
                .collect();
            let itp = substitute(store, itp, &map);
            let conj = store.mk_and(&[inv, itp]);
            inv = simplify(store, conj);
            k = i;
        }
        Ok(inv)
    }
}

/// `R_m(x_o..x_{o+m})` of the module docs.
fn window(
    store: &mut TermStore,
    un: &mut super::Unroller,
    p: TermId,
    o: usize,
    m: usize,
) -> TermId {
    let mut r = store.mk_true();
    for s in 1..=m {
        let init = un.init(store, o + s);
        let p_prev = un.at(store, p, o + s - 1);
        let t = un.trans(store, o + s - 1);
        let step = store.mk_and(&[r, p_prev, t]);
        r = store.mk_or(&[init, step]);
    }
    r
}

/// An interpolant of `a` and `b` (jointly unsatisfiable) over `shared`, as a disjunction of
/// cubes (see the module docs).
fn interpolate(
    store: &mut TermStore,
    a: TermId,
    b: TermId,
    shared: &[VarId],
    ctl: &Control,
) -> Result<TermId, TsError> {
    let stopped = |r| TsError::Stopped(ctl.should_stop().unwrap_or(r));
    let mut sa = SmtSolver::new();
    sa.set_limits(cove_smt::Limits::of(ctl));
    sa.assert(store, a);
    let mut sb = SmtSolver::new();
    sb.set_limits(cove_smt::Limits::of(ctl));
    sb.assert(store, b);
    let locals: Vec<VarId> = cove_logic::free_vars(store, a)
        .into_iter()
        .filter(|v| !shared.contains(v))
        .collect();
    let mut cubes = Vec::new();
    let start = std::time::Instant::now();
    let mut times = [0f64; 3];
    loop {
        let t0 = std::time::Instant::now();
        if let Some(r) = ctl.should_stop() {
            return Err(TsError::Stopped(r));
        }
        if cubes.len() >= MAX_CUBES {
            return Err(TsError::Unsupported(format!(
                "k-to-1: interpolant with more than {MAX_CUBES} cubes"
            )));
        }
        match sa.check(store) {
            SmtResult::Unsat => break,
            SmtResult::Unknown(r) => return Err(stopped(r)),
            SmtResult::Sat => {}
        }
        times[0] += t0.elapsed().as_secs_f64();
        let t0 = std::time::Instant::now();
        let mut m: Model = sa.model(store);
        for v in cove_logic::free_vars(store, a) {
            if m.get(v).is_none() {
                m.set(v, Value::default_of(store.var_sort(v)));
            }
        }
        let r = cove_smt::mbp::mbp_cube(store, &m, a, &locals)
            .map_err(|e| TsError::Unsupported(format!("k-to-1: projection: {e}")))?;
        if !r.kept.is_empty() {
            return Err(TsError::Unsupported(
                "k-to-1: projection kept variables".into(),
            ));
        }
        let lits = store.conjuncts(r.formula);
        times[1] += t0.elapsed().as_secs_f64();
        let t0 = std::time::Instant::now();
        let core = match sb.check_assuming(store, &lits) {
            SmtResult::Unsat => sb.unsat_core(),
            SmtResult::Sat => {
                return Err(TsError::BadWitness(
                    "k-to-1: the invariant is not k-inductive".into(),
                ));
            }
            SmtResult::Unknown(r) => return Err(stopped(r)),
        };
        times[2] += t0.elapsed().as_secs_f64();
        let cube = store.mk_and(&core);
        let not_cube = store.mk_not(cube);
        sa.assert(store, not_cube);
        cubes.push(cube);
        if ctl.verbosity > 1 && cubes.len() % 100 == 0 {
            eprintln!("k-to-1: {} cubes", cubes.len());
        }
    }
    if ctl.verbosity > 0 {
        eprintln!(
            "k-to-1: interpolant of {} cubes in {:.2}s (A {:.2}s, MBP {:.2}s, B {:.2}s)",
            cubes.len(),
            start.elapsed().as_secs_f64(),
            times[0],
            times[1],
            times[2]
        );
    }
    let r = store.mk_or(&cubes);
    Ok(simplify(store, r))
}
