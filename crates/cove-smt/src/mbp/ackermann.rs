//! Exact elimination of array variables that are only read, by Ackermann's reduction.
//!
//! MBP cannot eliminate an array variable that occurs under `select` (arrays are not
//! arithmetic), so [`super::qe`] used to give up on formulas like
//! `∃A. 0 ≤ A[5] ≤ 255 ∧ A[19] ≠ 170` — which is what inlining a predicate leaves behind when
//! the inlined clause has array locals (Solidity's `block_*` predicates, whose memory arrays
//! are rewritten by every statement). When every occurrence of `A` is the array of a read
//! `A[iⱼ]` whose index does not mention another array being eliminated,
//!
//! `∃A. φ[A[i₁], …, A[iₖ]]  ≡  ∃v₁…vₖ. φ[v₁, …, vₖ] ∧ ⋀_{j<l} (iⱼ = iₗ → vⱼ = vₗ)`
//!
//! (⇐: an array mapping each `iⱼ` to `vⱼ` exists exactly when equal indices get equal
//! values; ⇒: take `vⱼ = A[iⱼ]`). The fresh `vⱼ` (of the element sort) are then eliminated
//! like any other variable — an element that is itself an array goes through the same step
//! again. Pairs of distinct literal indices need no constraint. An array that occurs
//! anywhere else (equalities, `store`, an index, an uninterpreted function) is left alone,
//! and the caller's MBP reports it as not eliminable, as before.

use cove_logic::{Op, TermId, TermStore, VarId, free_vars, subst::replace_subterms};
use rustc_hash::{FxHashMap, FxHashSet};

/// At most this many consistency constraints per call (quadratic in the reads per array).
const MAX_PAIRS: usize = 4096;
/// Arrays of arrays are peeled at most this deep.
const MAX_ROUNDS: usize = 8;

/// `(φ', vars')` with `∃vars·φ ≡ ∃vars'·φ'`, where every array variable of `vars` that is only
/// read has been replaced by one fresh variable per distinct read (see the module docs).
/// Returns the input unchanged when there is nothing to do or a limit is reached.
pub(crate) fn eliminate_read_only_arrays(
    store: &mut TermStore,
    phi: TermId,
    vars: &[VarId],
) -> (TermId, Vec<VarId>) {
    let (mut phi, mut vars) = (phi, vars.to_vec());
    for _ in 0..MAX_ROUNDS {
        match one_round(store, phi, &vars) {
            Some((p, v)) => (phi, vars) = (p, v),
            None => break,
        }
    }
    (phi, vars)
}

/// One replacement step over the array variables of `vars`, or `None` when none qualifies.
fn one_round(store: &mut TermStore, phi: TermId, vars: &[VarId]) -> Option<(TermId, Vec<VarId>)> {
    let arrays: FxHashSet<VarId> = vars
        .iter()
        .copied()
        .filter(|&v| store.var_sort(v).is_array())
        .collect();
    if arrays.is_empty() {
        return None;
    }
    // Every subterm once; arrays used other than as the array of a read are disqualified.
    let mut bad: FxHashSet<VarId> = FxHashSet::default();
    let mut reads: FxHashMap<VarId, Vec<TermId>> = FxHashMap::default();
    let mut seen: FxHashSet<TermId> = FxHashSet::default();
    let mut stack = vec![phi];
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        let op = store.op(u).clone();
        if matches!(op, Op::Forall(_) | Op::Exists(_)) {
            return None;
        }
        let args = store.args(u).to_vec();
        for (k, &a) in args.iter().enumerate() {
            let Some(x) = store.as_var(a).filter(|x| arrays.contains(x)) else {
                continue;
            };
            if op == Op::Select && k == 0 {
                let index_vars = free_vars(store, args[1]);
                if index_vars.iter().any(|v| arrays.contains(v)) {
                    bad.insert(x);
                } else {
                    let rs = reads.entry(x).or_default();
                    if !rs.contains(&u) {
                        rs.push(u);
                    }
                }
            } else {
                bad.insert(x);
            }
        }
        stack.extend(args);
    }
    // A read-only array that occurs as the whole formula's variable elsewhere is impossible
    // (a Boolean formula is not an array), so `reads` minus `bad` are the qualifying ones.
    let mut chosen: Vec<VarId> = reads.keys().copied().filter(|x| !bad.contains(x)).collect();
    if chosen.is_empty() {
        return None;
    }
    chosen.sort_unstable();
    let pairs: usize = chosen
        .iter()
        .map(|x| reads[x].len() * reads[x].len().saturating_sub(1) / 2)
        .sum();
    if pairs > MAX_PAIRS {
        return None;
    }
    let mut map: FxHashMap<TermId, TermId> = FxHashMap::default();
    let mut fresh: Vec<VarId> = Vec::new();
    let mut consistency: Vec<TermId> = Vec::new();
    for &x in &chosen {
        let rs = reads[&x].clone();
        let mut vals: Vec<(TermId, TermId)> = Vec::with_capacity(rs.len());
        for &r in &rs {
            let v = store.fresh_var("read", store.sort(r));
            fresh.push(v);
            let vt = store.mk_var(v);
            map.insert(r, vt);
            vals.push((store.args(r)[1], vt));
        }
        for j in 0..vals.len() {
            for l in j + 1..vals.len() {
                let ((ij, vj), (il, vl)) = (vals[j], vals[l]);
                if store.is_value_const(ij) && store.is_value_const(il) {
                    continue; // distinct literals (equal ones are one hash-consed read)
                }
                let same_index = store.mk_eq(ij, il);
                let same_value = store.mk_eq(vj, vl);
                consistency.push(store.mk_implies(same_index, same_value));
            }
        }
    }
    let body = replace_subterms(store, phi, &map);
    consistency.push(body);
    let phi2 = store.mk_and(&consistency);
    let chosen: FxHashSet<VarId> = chosen.into_iter().collect();
    let mut vars2: Vec<VarId> = vars
        .iter()
        .copied()
        .filter(|v| !chosen.contains(v))
        .collect();
    vars2.extend(fresh);
    Some((phi2, vars2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mbp::qe;
    use crate::{SmtResult, is_valid};
    use cove_logic::{Rational, Sort};

    fn int(store: &mut TermStore, k: i64) -> TermId {
        store.mk_num(Rational::from(k), Sort::Int)
    }

    /// `∃A. 0 ≤ A[5] ≤ 255 ∧ A[i] ≠ A[5] ∧ x = A[i] + 1`: the reads at `5` and at the kept
    /// `i` must agree when `i = 5`, so the projection is `1 ≤ x ≤ 256 ∨ i ≠ 5` (more exactly:
    /// `i ≠ 5 ∨ false`, the disequality cannot hold when the reads coincide).
    #[test]
    fn eliminates_a_read_only_array_exactly() {
        let mut s = TermStore::new();
        let arr = Sort::array(Sort::Int, Sort::Int);
        let a = s.var("A", arr);
        let (i, x) = (s.var("i", Sort::Int), s.var("x", Sort::Int));
        let (at, it, xt) = (s.mk_var(a), s.mk_var(i), s.mk_var(x));
        let (k0, k5, k255, k1) = (
            int(&mut s, 0),
            int(&mut s, 5),
            int(&mut s, 255),
            int(&mut s, 1),
        );
        let r5 = s.mk_select(at, k5);
        let ri = s.mk_select(at, it);
        let lo = s.mk_le(k0, r5);
        let hi = s.mk_le(r5, k255);
        let same = s.mk_eq(ri, r5);
        let ne = s.mk_not(same);
        let plus = s.mk_add(&[ri, k1]);
        let def = s.mk_eq(xt, plus);
        let phi = s.mk_and(&[lo, hi, ne, def]);
        let q = qe(&mut s, phi, &[a]).expect("read-only arrays are eliminated");
        assert!(!free_vars(&s, q).contains(&a));
        // Expected: i ≠ 5 (x is then unconstrained: A[i] is free).
        let i_is_5 = s.mk_eq(it, k5);
        let expected = s.mk_not(i_is_5);
        let iff = s.mk_eq(q, expected);
        assert_eq!(is_valid(&mut s, iff), SmtResult::Unsat, "{}", s.display(q));
    }

    /// An array stored into stays: it is not read-only, so QE reports it as before.
    #[test]
    fn leaves_arrays_that_are_written() {
        let mut s = TermStore::new();
        let arr = Sort::array(Sort::Int, Sort::Int);
        let a = s.var("A", arr);
        let b = s.var("B", arr);
        let (at, bt) = (s.mk_var(a), s.mk_var(b));
        let (k1, k2) = (int(&mut s, 1), int(&mut s, 2));
        let st = s.mk_store(at, k1, k2);
        let phi = s.mk_eq(bt, st);
        let (phi2, vars2) = eliminate_read_only_arrays(&mut s, phi, &[a]);
        assert_eq!((phi2, vars2), (phi, vec![a]));
    }
}
