//! The atoms on each simplex variable, sorted by bound, so that the atoms a new bound
//! implies are found by binary search instead of by comparing the bound with every atom.
//!
//! Every atom `x ≤ b` (or `x ≥ b`) asserts an upper bound with one literal and a lower bound
//! with the other, so it has one entry in its variable's `upper` list (keyed by the bound of
//! its upper-bound literal) and one in the `lower` list. A new upper bound `x ≤ v` implies
//! exactly the upper-bound literals with key `≥ v`, a suffix of `upper`; a new lower bound
//! `x ≥ v` the lower-bound literals with key `≤ v`, a prefix of `lower`.
//!
//! Why: branch and bound and Spacer's generalization create thousands of atoms on one
//! variable, and the scan that compared the new bound with each of them took a quarter to a
//! half of whole runs (`implied_lits` in profiles of `s_split_30` and a nonlinear Fibonacci
//! system). Inside the implied range only the cheap assignment test is left.
//!
//! Inserting into a sorted list moves its tail (that memmove cost a fifth of a run when
//! every new atom was inserted in place), so new atoms wait in a short unsorted `pending`
//! list, compared one by one, and are merged when it reaches an eighth of the sorted part.
//! Lookups return the implied atoms in creation order, the order of the scan they replace,
//! so the search is the same as before, only cheaper.

use crate::simplex::{BoundKind, DeltaRational, TVar};

/// Pending atoms merged into the sorted lists once they are this many (or an eighth of the
/// sorted ones, whichever is more).
const MIN_PENDING: usize = 16;

/// The atoms on one variable.
#[derive(Clone, Debug, Default)]
struct VarAtoms {
    /// Atom indices by ascending bound of their upper-bound literal.
    upper: Vec<u32>,
    /// Atom indices by ascending bound of their lower-bound literal.
    lower: Vec<u32>,
    /// Atoms not yet in `upper` and `lower`.
    pending: Vec<u32>,
}

/// Per simplex variable: its atoms, sorted by bound. The bounds themselves live with the
/// caller's atoms; `bound(a, kind)` reads the bound that atom `a` asserts on side `kind`.
#[derive(Clone, Debug, Default)]
pub(crate) struct AtomIndex {
    vars: Vec<VarAtoms>,
}

impl AtomIndex {
    /// Adds atom `a` on `var`.
    pub fn add<'a>(
        &mut self,
        var: TVar,
        a: u32,
        bound: impl Fn(u32, BoundKind) -> &'a DeltaRational,
    ) {
        if self.vars.len() <= var.idx() {
            self.vars.resize_with(var.idx() + 1, VarAtoms::default);
        }
        let va = &mut self.vars[var.idx()];
        va.pending.push(a);
        if va.pending.len() >= MIN_PENDING.max(va.upper.len() / 8) {
            // Sorting the pending atoms and appending them leaves two sorted runs, which
            // the standard library's sort merges in linear time.
            for (list, kind) in [
                (&mut va.upper, BoundKind::Upper),
                (&mut va.lower, BoundKind::Lower),
            ] {
                let start = list.len();
                list.extend_from_slice(&va.pending);
                list[start..].sort_by(|&x, &y| bound(x, kind).cmp(bound(y, kind)));
                list.sort_by(|&x, &y| bound(x, kind).cmp(bound(y, kind)));
            }
            va.pending.clear();
        }
    }

    /// Appends to `out` the atoms on `var` whose literal of side `kind` is implied by the
    /// bound `var kind value` and for which `open(a)` holds, in increasing atom order.
    pub fn implied<'a>(
        &self,
        var: TVar,
        kind: BoundKind,
        value: &DeltaRational,
        bound: impl Fn(u32, BoundKind) -> &'a DeltaRational,
        open: impl Fn(u32) -> bool,
        out: &mut Vec<u32>,
    ) {
        let Some(va) = self.vars.get(var.idx()) else {
            return;
        };
        let start = out.len();
        let implies = |a: u32| match kind {
            BoundKind::Upper => value <= bound(a, kind),
            BoundKind::Lower => value >= bound(a, kind),
        };
        let sorted = match kind {
            BoundKind::Upper => {
                let from = va.upper.partition_point(|&a| bound(a, kind) < value);
                &va.upper[from..]
            }
            BoundKind::Lower => {
                let to = va.lower.partition_point(|&a| bound(a, kind) <= value);
                &va.lower[..to]
            }
        };
        out.extend(sorted.iter().copied().filter(|&a| open(a)));
        out.extend(
            va.pending
                .iter()
                .copied()
                .filter(|&a| open(a) && implies(a)),
        );
        out[start..].sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Atoms `x ≤ b` over the integers: upper side `b`, lower side `b + 1`.
    fn bounds(bs: &[i64]) -> Vec<(DeltaRational, DeltaRational)> {
        bs.iter()
            .map(|&b| {
                (
                    DeltaRational::from_rational(b.into()),
                    DeltaRational::from_rational((b + 1).into()),
                )
            })
            .collect()
    }

    /// The index agrees with a scan over all atoms, for every bound, with atoms still
    /// pending and after merges, and returns atoms in creation order.
    #[test]
    fn the_index_finds_what_a_scan_finds() {
        let bs: Vec<i64> = (0..200).map(|i| (i * 37 % 101) - 50).collect();
        let atoms = bounds(&bs);
        let bound = |a: u32, k: BoundKind| match k {
            BoundKind::Upper => &atoms[a as usize].0,
            BoundKind::Lower => &atoms[a as usize].1,
        };
        let var = TVar(0);
        let mut idx = AtomIndex::default();
        for n in 0..atoms.len() {
            idx.add(var, n as u32, bound);
            for v in -55..55 {
                let v = DeltaRational::from_rational(v.into());
                for kind in [BoundKind::Upper, BoundKind::Lower] {
                    let open = |a: u32| !a.is_multiple_of(3);
                    let mut got = Vec::new();
                    idx.implied(var, kind, &v, bound, open, &mut got);
                    let want: Vec<u32> = (0..=n as u32)
                        .filter(|&a| {
                            open(a)
                                && match kind {
                                    BoundKind::Upper => &v <= bound(a, kind),
                                    BoundKind::Lower => &v >= bound(a, kind),
                                }
                        })
                        .collect();
                    assert_eq!(got, want, "{n} atoms, {kind:?} {v:?}");
                }
            }
        }
    }
}
