//! Interpolants of arbitrary quantifier-free formulas (Boolean structure, LRA and LIA), by
//! enumerating implicants and combining conjunctive interpolants.
//!
//! The SMT core produces no resolution proofs, so the interpolant of `A` and `B` is built
//! from models instead (the scheme Spacer uses for its lemmas, generalized):
//!
//! * **Outer loop** (covering A): while `A ∧ ¬I` has a model `M`, take the implicant cube `a`
//!   of `A` under `M` and shrink it to an unsat core of `a ∧ B` (if `a ∧ B` is satisfiable,
//!   so is `A ∧ B`, and the model is returned). Then `I := I ∨ J_a` for a conjunction `J_a`
//!   with `a ⇒ J_a` and `J_a ∧ B` unsatisfiable.
//! * **Inner loop** (excluding B): while `B ∧ J_a` has a model `N`, take B's implicant cube
//!   `b` under `N`; `a ∧ b` is unsatisfiable, so a literal interpolant `h` exists: a shared
//!   Boolean literal on which they clash, or the Farkas interpolant of their arithmetic parts
//!   ([`crate::interpolate`]). `J_a := J_a ∧ h`.
//! * **Integer fallback**: when the Farkas step has no answer (the cubes are refuted only
//!   over the integers, or use `mod`/`div`), `h` is `¬∃ locals · b`, the negated exact
//!   projection of B's cube onto the variables it shares with A ([`crate::mbp::qe_with`]):
//!   `a` implies it because `a ∧ b` is unsatisfiable and `a` does not mention B's locals.
//!   This is the weakest interpolant of `a` and `b` (for parity it is `x mod 2 ≠ 1`), and its
//!   correctness never depends on branch-and-bound reasoning.
//!
//! Disjuncts subsumed by a later one are dropped. Each disjunct is implied by A and contradicts B and every literal of it is over shared
//! variables, so the result is an interpolant. Both loops make progress (the new model
//! violates the last result) and cubes come from finitely many literals, so they end; the
//! budgets only guard against blow-up. Debug builds re-check every result.

use crate::mbp::implicant;
use crate::{Limits, SmtResult, SmtSolver, interpolate};
use cove_control::{Control, UnknownReason};
use cove_logic::{Model, Op, TermId, TermStore, VarId, free_vars, simplify};
use rustc_hash::FxHashSet;

/// Outcome of [`interpolate_formulas`].
#[derive(Clone, Debug)]
pub enum ItpOutcome {
    /// An interpolant of A and B.
    Interpolant(TermId),
    /// `A ∧ B` is satisfiable: a model of both.
    Sat(Model),
    /// No answer (stopped, solver gave up, or a budget ran out).
    Unknown(UnknownReason),
}

/// Budgets of [`interpolate_formulas`].
const MAX_DISJUNCTS: usize = 64;
const MAX_ROUNDS: usize = 256;
const MAX_CONJUNCTS: usize = 64;
const QE_LIMIT: usize = 16;

/// An interpolant of the quantifier-free formulas `a` and `b` (or a common model when
/// `a ∧ b` is satisfiable). See the module documentation.
pub fn interpolate_formulas(
    store: &mut TermStore,
    a: TermId,
    b: TermId,
    ctl: &Control,
) -> ItpOutcome {
    let va: FxHashSet<VarId> = free_vars(store, a).into_iter().collect();
    let mut sa = SmtSolver::new();
    sa.set_limits(Limits::of(ctl));
    sa.assert(store, a);
    let mut sb = SmtSolver::new();
    sb.set_limits(Limits::of(ctl));
    sb.assert(store, b);
    let mut disjuncts: Vec<TermId> = Vec::new();
    let mut rounds = 0;
    loop {
        if let Some(r) = ctl.should_stop() {
            return ItpOutcome::Unknown(r);
        }
        let m = match sa.check(store) {
            SmtResult::Unsat => break,
            SmtResult::Sat => sa.model(store),
            SmtResult::Unknown(r) => return ItpOutcome::Unknown(r),
        };
        rounds += 1;
        if disjuncts.len() == MAX_DISJUNCTS || rounds > MAX_ROUNDS {
            return ItpOutcome::Unknown(budget("disjuncts"));
        }
        let Ok(cube) = implicant(store, &m, a) else {
            return ItpOutcome::Unknown(UnknownReason::Incomplete("no implicant".into()));
        };
        let core = match sb.check_assuming(store, &cube) {
            SmtResult::Sat => return ItpOutcome::Sat(sb.model(store)),
            SmtResult::Unsat => sb.unsat_core(),
            SmtResult::Unknown(r) => return ItpOutcome::Unknown(r),
        };
        let j = match cube_interpolant(store, &core, b, &va, &mut sb, ctl) {
            Ok(j) => j,
            Err(r) => return ItpOutcome::Unknown(r),
        };
        let nj = store.mk_not(j);
        sa.assert(store, nj);
        // Drop disjuncts the new one subsumes (`¬j` already excludes them from `sa`):
        // the cubes of one relation often give a chain `x' - x ≤ 0`, `≤ 1`, `≤ 2`, and
        // keeping only the weakest stops compositions from multiplying disjuncts.
        let mut kept = Vec::with_capacity(disjuncts.len() + 1);
        for d in disjuncts {
            let f = store.mk_and(&[d, nj]);
            let mut s = SmtSolver::new();
            s.set_limits(Limits::of(ctl));
            s.assert(store, f);
            if s.check(store) != SmtResult::Unsat {
                kept.push(d);
            }
        }
        kept.push(j);
        disjuncts = kept;
    }
    let i = store.mk_or(&disjuncts);
    let i = simplify(store, i);
    #[cfg(debug_assertions)]
    if let Err(crate::InterpError::Invalid(why)) =
        crate::check_interpolant(store, &[a], &[b], i, &Control::new())
    {
        panic!("interpolate_formulas produced a wrong interpolant: {why}");
    }
    ItpOutcome::Interpolant(i)
}

fn budget(what: &str) -> UnknownReason {
    UnknownReason::ResourceOut(format!("interpolation: too many {what}"))
}

/// A conjunction `J` with `cube ⇒ J`, `J ∧ b` unsatisfiable, over variables shared by A
/// (whose variables are `va`) and `b` (`sb` holds `b` asserted).
fn cube_interpolant(
    store: &mut TermStore,
    cube: &[TermId],
    b: TermId,
    va: &FxHashSet<VarId>,
    sb: &mut SmtSolver,
    ctl: &Control,
) -> Result<TermId, UnknownReason> {
    let mut conj: Vec<TermId> = Vec::new();
    loop {
        if let Some(r) = ctl.should_stop() {
            return Err(r);
        }
        let n = match sb.check_assuming(store, &conj) {
            SmtResult::Unsat => break,
            SmtResult::Sat => sb.model(store),
            SmtResult::Unknown(r) => return Err(r),
        };
        if conj.len() == MAX_CONJUNCTS {
            return Err(budget("conjuncts"));
        }
        let Ok(bc) = implicant(store, &n, b) else {
            return Err(UnknownReason::Incomplete("no implicant".into()));
        };
        let h = match literal_interpolant(store, cube, &bc) {
            Some(h) if store.as_bool(h) != Some(true) => h,
            _ => {
                let p = project(store, &bc, va, ctl)?;
                let np = store.mk_not(p);
                simplify(store, np)
            }
        };
        conj.push(h);
    }
    let j = store.mk_and(&conj);
    Ok(simplify(store, j))
}

/// An interpolant of two cubes: a Boolean literal they clash on, or a Farkas interpolant
/// of their arithmetic parts.
fn literal_interpolant(store: &mut TermStore, a: &[TermId], b: &[TermId]) -> Option<TermId> {
    for &l in a {
        if is_bool_lit(store, l) {
            let nl = store.mk_not(l);
            let nl = simplify(store, nl);
            if b.contains(&nl) {
                return Some(l);
            }
        }
    }
    let aa: Vec<TermId> = a
        .iter()
        .copied()
        .filter(|&l| !is_bool_lit(store, l))
        .collect();
    let ba: Vec<TermId> = b
        .iter()
        .copied()
        .filter(|&l| !is_bool_lit(store, l))
        .collect();
    interpolate(store, &aa, &ba)
}

fn is_bool_lit(store: &TermStore, l: TermId) -> bool {
    let l = match store.op(l) {
        Op::Not => store.args(l)[0],
        _ => l,
    };
    matches!(store.op(l), Op::Var(_))
}

/// `∃ (vars(cube) ∖ keep) · cube`, exactly.
fn project(
    store: &mut TermStore,
    cube: &[TermId],
    keep: &FxHashSet<VarId>,
    ctl: &Control,
) -> Result<TermId, UnknownReason> {
    let phi = store.mk_and(cube);
    let locals: Vec<VarId> = free_vars(store, phi)
        .into_iter()
        .filter(|v| !keep.contains(v))
        .collect();
    if locals.is_empty() {
        return Ok(phi);
    }
    let r = crate::mbp::qe_under(store, phi, &locals, QE_LIMIT, ctl);
    r.map_err(|e| UnknownReason::Incomplete(format!("interpolation by projection: {e}")))
}
