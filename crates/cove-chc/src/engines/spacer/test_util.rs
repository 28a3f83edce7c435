//! Helpers shared by the unit tests of the lemma-cluster modules (`global`, `guide`).

use cove_logic::linear::{LinearSum, mk_linear};
use cove_logic::{Rational, Sort, TermId, TermStore};

/// `Σ c·v ≤ k`, simplified as the engine's cubes are.
pub(super) fn le(st: &mut TermStore, sum: &[(TermId, i64)], k: i64) -> TermId {
    let mut terms: Vec<(TermId, Rational)> =
        sum.iter().map(|&(v, c)| (v, Rational::from(c))).collect();
    terms.sort_by_key(|x| x.0);
    let lhs = mk_linear(
        st,
        &LinearSum {
            terms,
            constant: Rational::ZERO,
        },
        Sort::Int,
    );
    let rhs = st.mk_num(Rational::from(k), Sort::Int);
    let t = st.mk_le(lhs, rhs);
    cove_logic::simplify(st, t)
}

/// Integer variables with these names, as terms.
pub(super) fn vars(st: &mut TermStore, names: &[&str]) -> Vec<TermId> {
    names
        .iter()
        .map(|n| {
            let v = st.var(n, Sort::Int);
            st.mk_var(v)
        })
        .collect()
}
