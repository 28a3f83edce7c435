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
//! The same enumeration works from the other side: while `B ∧ J` has a model, a projected
//! cube of `B` is refuted by `A`, and `J` shrinks by the negation of its core against `A`.
//! Which side needs fewer cubes depends on the system, by orders of magnitude, so both run
//! in turn, each with a share of the time ([`FIRST_WEIGHT`]), and the first to finish gives
//! `J`. Measured with `--engine kind` on the linear
//! tracks of `chc.tsv`: 45 files reach a certificate; on `cav12/simple_array_inversion-8`
//! (k = 11, four halvings) the `B` side needs 1, 2, 4 and 3 cubes where the `A` side needs
//! 66, 106, 150 and 213 (5.2 s to 0.7 s in all), `B` finishes first on most of the others
//! (`HOLA_11`, `s_mutants_16_m`, `bubblesort`, `s3_clnt_2`), and `A` on the `oral_messages`
//! family (`om1_with_relays_general_5_17`: 168 cubes from `A`, over 160 from `B` unfinished).

use super::{TransitionSystem, TsError};
use crate::engine::Control;
use cove_logic::{Model, TermId, TermStore, Value, VarId, simplify, substitute};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::FxHashMap;

/// Most cubes of one interpolant before giving up.
const MAX_CUBES: usize = 5_000;

/// Time shares of the `A` and `B` sides of the first interpolant (module docs): `A` gets two
/// thirds. When `B` is the better side it usually needs a handful of cubes, so a third of the
/// time costs it little, while the `oral_messages` certificates (the files of the LRA-Lin
/// track that are closest to the limit) come from `A`. Later halvings give four fifths to
/// the side that won the one before (docs/decisions.md#kto1-two-sided).
const FIRST_WEIGHT: [f64; 2] = [2.0, 1.0];

impl TransitionSystem {
    /// A 1-inductive strengthening of the `k`-inductive invariant `inv` (a formula over
    /// `vars`), as described in the module docs. The result is *not* checked here (the
    /// driver checks every answer). Fails when a projection fails,
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
        // Time shares of the two sides of the cube enumeration ([`interpolate`]).
        let mut weight = FIRST_WEIGHT;
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
            let (itp, won) = interpolate(store, a, b, &shared, weight, ctl)?;
            // The side that won this halving is likely to win the next one too.
            weight = if won == 0 { [4.0, 1.0] } else { [1.0, 4.0] };
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

/// One side of the cube enumeration of an interpolant (module docs): `Cover::a_side` grows a
/// disjunction of cubes implied by `A` (each one refuted by `B`), `Cover::b_side` a
/// conjunction of negated cubes implied by `B` (each one refuted by `A`). Each step is one
/// model, one projection and one unsat core; [`interpolate`] runs both and takes the first to
/// finish.
struct Cover {
    /// The side being covered, with the blocked cubes asserted negated.
    own: SmtSolver,
    /// The other side, for unsat cores of the projected cubes.
    other: SmtSolver,
    /// The formula of the covered side (for projection) and its local variables.
    phi: TermId,
    locals: Vec<VarId>,
    /// The blocked cubes (each one's literals).
    cubes: Vec<TermId>,
    /// Is the covered side `B` (the result is then `∧ ¬cube`)?
    negated: bool,
    /// Time in the checks of `own`, the projections and the cores.
    times: [f64; 3],
}

enum Step {
    More,
    Done(TermId),
}

impl Cover {
    fn new(
        store: &mut TermStore,
        own: TermId,
        other: TermId,
        shared: &[VarId],
        negated: bool,
        ctl: &Control,
    ) -> Cover {
        let mut so = SmtSolver::new();
        so.set_limits(cove_smt::Limits::of(ctl));
        so.assert(store, own);
        let mut st = SmtSolver::new();
        st.set_limits(cove_smt::Limits::of(ctl));
        st.assert(store, other);
        let locals = cove_logic::free_vars(store, own)
            .into_iter()
            .filter(|v| !shared.contains(v))
            .collect();
        Cover {
            own: so,
            other: st,
            phi: own,
            locals,
            cubes: Vec::new(),
            negated,
            times: [0.0; 3],
        }
    }

    fn step(&mut self, store: &mut TermStore, ctl: &Control) -> Result<Step, TsError> {
        let stopped = |r| TsError::Stopped(ctl.should_stop().unwrap_or(r));
        if let Some(r) = ctl.should_stop() {
            return Err(TsError::Stopped(r));
        }
        if self.cubes.len() >= MAX_CUBES {
            return Err(TsError::Unsupported(format!(
                "k-to-1: interpolant with more than {MAX_CUBES} cubes"
            )));
        }
        let t0 = std::time::Instant::now();
        match self.own.check(store) {
            SmtResult::Unsat => {
                let r = if self.negated {
                    let neg: Vec<TermId> = self.cubes.iter().map(|&c| store.mk_not(c)).collect();
                    store.mk_and(&neg)
                } else {
                    store.mk_or(&self.cubes)
                };
                return Ok(Step::Done(simplify(store, r)));
            }
            SmtResult::Unknown(r) => return Err(stopped(r)),
            SmtResult::Sat => {}
        }
        self.times[0] += t0.elapsed().as_secs_f64();
        let t0 = std::time::Instant::now();
        let mut m: Model = self.own.model(store);
        for v in cove_logic::free_vars(store, self.phi) {
            if m.get(v).is_none() {
                m.set(v, Value::default_of(store.var_sort(v)));
            }
        }
        let r = cove_smt::mbp::mbp_cube(store, &m, self.phi, &self.locals)
            .map_err(|e| TsError::Unsupported(format!("k-to-1: projection: {e}")))?;
        if !r.kept.is_empty() {
            return Err(TsError::Unsupported(
                "k-to-1: projection kept variables".into(),
            ));
        }
        let lits = store.conjuncts(r.formula);
        self.times[1] += t0.elapsed().as_secs_f64();
        let t0 = std::time::Instant::now();
        let core = match self.other.check_assuming(store, &lits) {
            SmtResult::Unsat => self.other.unsat_core(),
            SmtResult::Sat => {
                return Err(TsError::BadWitness(
                    "k-to-1: the invariant is not k-inductive".into(),
                ));
            }
            SmtResult::Unknown(r) => return Err(stopped(r)),
        };
        self.times[2] += t0.elapsed().as_secs_f64();
        let cube = store.mk_and(&core);
        let not_cube = store.mk_not(cube);
        self.own.assert(store, not_cube);
        self.cubes.push(cube);
        Ok(Step::More)
    }
}

/// An interpolant of `a` and `b` (jointly unsatisfiable) over `shared`, and the side that
/// found it (`0`: `A`, `1`: `B`): the cube enumeration of the module docs, run from both
/// sides in turn (a disjunction of cubes implied by `A`, or a conjunction of negated cubes
/// implied by `B`), each side getting time in proportion to `weight`; the first side to
/// cover its formula gives the answer.
fn interpolate(
    store: &mut TermStore,
    a: TermId,
    b: TermId,
    shared: &[VarId],
    weight: [f64; 2],
    ctl: &Control,
) -> Result<(TermId, usize), TsError> {
    let start = std::time::Instant::now();
    let mut sides = [
        Cover::new(store, a, b, shared, false, ctl),
        Cover::new(store, b, a, shared, true, ctl),
    ];
    let mut spent = [0f64; 2];
    loop {
        // The side that is further below its share goes next.
        let turn = usize::from(spent[1] * weight[0] < spent[0] * weight[1]);
        let side = &mut sides[turn];
        let t0 = std::time::Instant::now();
        let step = side.step(store, ctl)?;
        spent[turn] += t0.elapsed().as_secs_f64();
        if let Step::Done(itp) = step {
            if ctl.verbosity > 0 {
                let t = side.times;
                eprintln!(
                    "k-to-1: interpolant of {} cubes from {} in {:.2}s (checks {:.2}s, projections {:.2}s, cores {:.2}s; the other side had {} cubes)",
                    side.cubes.len(),
                    if side.negated { "B" } else { "A" },
                    start.elapsed().as_secs_f64(),
                    t[0],
                    t[1],
                    t[2],
                    sides[1 - turn].cubes.len(),
                );
            }
            return Ok((itp, turn));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cert::check_invariants;
    use crate::frontend::parse_chc;

    /// A shift register `a → b → c → d` fed with zeros: `d ≠ 1` is 4-inductive (four steps
    /// flush any state) and not 1-inductive (`c = 1` reaches `d = 1`).
    const SHIFT: &str = "(set-logic HORN) (declare-fun r (Int Int Int Int) Bool)
      (assert (forall ((a Int) (b Int) (c Int) (d Int))
        (=> (and (= a 0) (= b 0) (= c 0) (= d 0)) (r a b c d))))
      (assert (forall ((a Int) (b Int) (c Int) (d Int) (e Int))
        (=> (and (r a b c d) (>= e 0)) (r 0 a b c))))
      (assert (forall ((a Int) (b Int) (c Int) (d Int)) (=> (and (r a b c d) (= d 1)) false)))";

    fn setup() -> (TermStore, crate::ChcSystem, TransitionSystem, TermId) {
        let mut store = TermStore::new();
        let sys = parse_chc(SHIFT.as_bytes(), &mut store).expect("parses");
        let ts = TransitionSystem::from_chc(&mut store, &sys, &Control::default()).unwrap();
        let p = store.mk_not(ts.bad);
        (store, sys, ts, p)
    }

    #[test]
    fn a_k_inductive_invariant_becomes_a_checked_1_inductive_one() {
        let (mut store, sys, ts, p) = setup();
        let ctl = Control::default();
        assert!(!ts.is_safe_inductive(&mut store, p, &ctl).unwrap());
        let inv = ts.k_to_1_inductive(&mut store, p, 4, &ctl).unwrap();
        assert!(ts.is_safe_inductive(&mut store, inv, &ctl).unwrap());
        let invs = ts.invariants(&mut store, inv).unwrap();
        check_invariants(&mut store, &sys, &invs, &ctl).unwrap();
    }

    #[test]
    fn either_side_of_the_enumeration_gives_an_interpolant() {
        // k = 4 split 2 + 2, as the first halving does; each side alone (the other one gets
        // no time after its first step) must give a J with A ⇒ J and J ∧ B unsatisfiable.
        for (weight, side) in [([1.0, 0.0], 0), ([0.0, 1.0], 1)] {
            let (mut store, _, ts, p) = setup();
            let ctl = Control::default();
            let mut un = ts.unroller();
            let a = window(&mut store, &mut un, p, 0, 2);
            let w = window(&mut store, &mut un, p, 2, 2);
            let p_4 = un.at(&mut store, p, 4);
            let not_p_4 = store.mk_not(p_4);
            let b = store.mk_and(&[w, not_p_4]);
            let shared = un.state(&mut store, 2).to_vec();
            let (j, won) = interpolate(&mut store, a, b, &shared, weight, &ctl).unwrap();
            assert_eq!(won, side);
            let not_j = store.mk_not(j);
            let a_not_j = store.mk_and(&[a, not_j]);
            let j_b = store.mk_and(&[j, b]);
            for f in [a_not_j, j_b] {
                let mut s = SmtSolver::new();
                s.assert(&mut store, f);
                assert_eq!(s.check(&mut store), SmtResult::Unsat);
            }
            assert!(
                cove_logic::free_vars(&store, j)
                    .iter()
                    .all(|v| shared.contains(v))
            );
        }
    }
}
