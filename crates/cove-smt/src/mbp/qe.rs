//! Exact quantifier elimination by model enumeration over MBP.
//!
//! `∃x̄·φ ≡ ⋁_{M ⊨ φ} Proj(M)` and the image of `Proj` is finite, so the loop
//! "find `M ⊨ φ ∧ ¬(ψ₁ ∨ … ∨ ψₙ)`, add `ψₙ₊₁ = Proj(M)`" ends, with `⋁ ψᵢ ≡ ∃x̄·φ` once the
//! query is unsatisfiable: every `ψᵢ` implies `∃x̄·φ` (MBP property 2) and every model of `φ`
//! satisfies some `ψᵢ`. Each round makes progress because `M ⊨ ψₙ₊₁` (property 1) while `M`
//! falsifies the earlier `ψᵢ`.

use super::{mbp, MbpError};
use cove_logic::{simplify, Model, TermId, TermStore, VarId};

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

/// Quantifier elimination of `vars` from `phi` with the satisfiability oracle `find_model`,
/// which returns a model of its argument, `None` when it is unsatisfiable, or an error
/// ([`QeError::Unknown`]) when it cannot decide. At most `limit` disjuncts are produced.
/// The result is equivalent to `∃vars·phi` and its free variables are those of `phi` minus
/// `vars`.
pub fn qe_with<F>(store: &mut TermStore, phi: TermId, vars: &[VarId], limit: usize, mut find_model: F) -> Result<TermId, QeError>
where
    F: FnMut(&mut TermStore, TermId) -> Result<Option<Model>, QeError>,
{
    let mut disjuncts: Vec<TermId> = Vec::new();
    loop {
        let covered = store.mk_or(&disjuncts);
        let not_covered = store.mk_not(covered);
        let query = store.mk_and(&[phi, not_covered]);
        let Some(model) = find_model(store, query)? else {
            let result = store.mk_or(&disjuncts);
            return Ok(simplify(store, result));
        };
        if disjuncts.len() == limit {
            return Err(QeError::TooManyDisjuncts(limit));
        }
        let r = mbp(store, &model, phi, vars)?;
        if !r.kept.is_empty() {
            let names = r.kept.iter().map(|&v| store.var_name(v).to_string()).collect();
            return Err(QeError::NotEliminable(names));
        }
        disjuncts.push(r.formula);
    }
}
