//! Exact quantifier elimination by model enumeration over MBP.
//!
//! `∃x̄·φ ≡ ⋁_{M ⊨ φ} Proj(M)` and the image of `Proj` is finite, so the loop
//! "find `M ⊨ φ ∧ ¬(ψ₁ ∨ … ∨ ψₙ)`, add `ψₙ₊₁ = Proj(M)`" ends, with `⋁ ψᵢ ≡ ∃x̄·φ` once the
//! query is unsatisfiable: every `ψᵢ` implies `∃x̄·φ` (MBP property 2) and every model of `φ`
//! satisfies some `ψᵢ`. Each round makes progress because `M ⊨ ψₙ₊₁` (property 1) while `M`
//! falsifies the earlier `ψᵢ`.

use super::{MbpError, mbp};
use crate::{Limits, SmtResult, SmtSolver};
use cove_control::Control;
use cove_logic::{Model, TermId, TermStore, VarId, free_vars, simplify};
use rustc_hash::{FxHashMap, FxHashSet};

/// Why quantifier elimination failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QeError {
    /// A projection failed.
    #[error(transparent)]
    Mbp(#[from] MbpError),
    /// Some variables occur where MBP cannot eliminate them (uninterpreted functions,
    /// nonlinear terms, ...); exact elimination is not possible with this procedure.
    #[error("cannot eliminate {0:?}: they occur under uninterpreted functions or nonlinear terms")]
    NotEliminable(Vec<String>),
    /// The satisfiability oracle gave up.
    #[error("satisfiability check gave up: {0}")]
    Unknown(String),
    /// More disjuncts than the caller's limit.
    #[error("quantifier elimination needs more than {0} disjuncts")]
    TooManyDisjuncts(usize),
}

/// Disjunct limit of [`qe`].
pub const QE_DEFAULT_LIMIT: usize = 10_000;

/// Exact quantifier elimination: a quantifier-free formula equivalent to `∃vars·phi`, over
/// the free variables of `phi` minus `vars`, computed with Cove's SMT solver (one
/// incremental solver; each round blocks the last projection). Array variables that are only
/// read are first replaced by their reads (exact, by Ackermann's reduction). Fails when some variable
/// cannot be eliminated by MBP ([`QeError::NotEliminable`]), when the solver answers
/// `unknown`, or after [`QE_DEFAULT_LIMIT`] disjuncts. Unlimited in time: callers inside a
/// run use [`qe_under`].
pub fn qe(store: &mut TermStore, phi: TermId, vars: &[VarId]) -> Result<TermId, QeError> {
    qe_under(store, phi, vars, QE_DEFAULT_LIMIT, &Control::new())
}

/// [`qe`] with at most `limit` disjuncts, its satisfiability checks under `ctl` (deadline,
/// memory, interruption): when `ctl` stops the run the result is [`QeError::Unknown`].
pub fn qe_under(
    store: &mut TermStore,
    phi: TermId,
    vars: &[VarId],
    limit: usize,
    ctl: &Control,
) -> Result<TermId, QeError> {
    let (phi, vars) = super::ackermann::eliminate_read_only_arrays(store, phi, vars);
    let vars = vars.as_slice();
    let mut solver = SmtSolver::new();
    solver.set_limits(Limits::of(ctl));
    solver.assert(store, phi);
    let mut asserted = 0;
    qe_with(store, phi, vars, limit, |store, blocked| {
        for &psi in &blocked[asserted..] {
            let not_psi = store.mk_not(psi);
            solver.assert(store, not_psi);
        }
        asserted = blocked.len();
        match solver.check(store) {
            SmtResult::Sat => Ok(Some(solver.model(store))),
            SmtResult::Unsat => Ok(None),
            SmtResult::Unknown(why) => Err(QeError::Unknown(why.to_string())),
        }
    })
}

/// Quantifier elimination of `vars` from `phi` with a satisfiability oracle:
/// `next_model(store, blocked)` must return a model of `phi ∧ ¬b₁ ∧ … ∧ ¬bₙ` for the
/// projections `blocked` found so far, `None` when there is none, or an error
/// ([`QeError::Unknown`]) when it cannot decide. At most `limit` disjuncts are produced.
/// The result is equivalent to `∃vars·phi`; its free variables are those of `phi` minus
/// `vars`.
pub fn qe_with<F>(
    store: &mut TermStore,
    phi: TermId,
    vars: &[VarId],
    limit: usize,
    mut next_model: F,
) -> Result<TermId, QeError>
where
    F: FnMut(&mut TermStore, &[TermId]) -> Result<Option<Model>, QeError>,
{
    let phi = open_part(store, phi, vars);
    let mut disjuncts: Vec<TermId> = Vec::new();
    loop {
        let Some(model) = next_model(store, &disjuncts)? else {
            let result = store.mk_or(&disjuncts);
            return Ok(simplify(store, result));
        };
        if disjuncts.len() == limit {
            return Err(QeError::TooManyDisjuncts(limit));
        }
        let r = mbp(store, &model, phi, vars)?;
        if !r.kept.is_empty() {
            let names = r
                .kept
                .iter()
                .map(|&v| store.var_name(v).to_string())
                .collect();
            return Err(QeError::NotEliminable(names));
        }
        if disjuncts.contains(&r.formula) {
            // The oracle's model satisfies a blocked projection: it is not a model of the query.
            return Err(QeError::Unknown(
                "the oracle returned a model of a blocked projection".into(),
            ));
        }
        disjuncts.push(r.formula);
    }
}

/// The conjuncts of `phi` outside its *closed* components: groups of conjuncts linked by
/// shared `vars` that mention no other variable.
///
/// # Why
/// A closed component `C` shares no variable with the rest, so `∃vars·φ ≡ (∃vars·C) ∧
/// ∃vars·rest`, and `∃vars·C` is a sentence: true as soon as `φ` has a model, which is the
/// first thing the enumeration asks. MBP need not (and often cannot: bit-vector conversions,
/// nonlinear terms) project it. A Solidity function's summary binds its arguments this way:
/// the invariant of an inlined `testBitwise(x, y)` is `∃x y·` (the results are in range).
/// If `φ` is unsatisfiable the enumeration returns `false` before any projection.
fn open_part(store: &mut TermStore, phi: TermId, vars: &[VarId]) -> TermId {
    let parts = store.conjuncts(phi);
    let elim: FxHashSet<VarId> = vars.iter().copied().collect();
    // Union-find over conjuncts, joined through shared eliminated variables.
    let mut parent: Vec<usize> = (0..parts.len()).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut owner: FxHashMap<VarId, usize> = FxHashMap::default();
    let mut open = vec![false; parts.len()];
    for (i, &p) in parts.iter().enumerate() {
        for v in free_vars(store, p) {
            if !elim.contains(&v) {
                open[i] = true;
                continue;
            }
            match owner.get(&v) {
                Some(&j) => {
                    let (a, b) = (find(&mut parent, i), find(&mut parent, j));
                    parent[a] = b;
                }
                None => {
                    owner.insert(v, i);
                }
            }
        }
    }
    let mut open_root = vec![false; parts.len()];
    for (i, _) in open.iter().enumerate().filter(|(_, o)| **o) {
        let r = find(&mut parent, i);
        open_root[r] = true;
    }
    let kept: Vec<TermId> = (0..parts.len())
        .filter(|&i| open_root[find(&mut parent, i)])
        .map(|i| parts[i])
        .collect();
    if kept.len() == parts.len() {
        return phi;
    }
    store.mk_and(&kept)
}
