//! Which and gate defines each variable, and which and gates read it (fanouts), built once
//! per circuit for the passes that walk it forward: ternary simulation (`ic3/tsim.rs`) and
//! input merging (`input_merge.rs`). Fanouts are stored compressed (CSR): one list of gates with a
//! start offset per variable.

use crate::Aig;
use std::ops::Range;

/// Gate definitions and fanouts of one circuit.
pub(crate) struct Fanouts {
    /// Per variable: its and gate (index into `aig.ands`), [`Fanouts::NONE`] if none.
    and_of: Vec<u32>,
    /// `list[start[v]..start[v + 1]]`: the gates reading variable `v`.
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Fanouts {
    /// No gate.
    pub(crate) const NONE: u32 = u32::MAX;

    pub(crate) fn new(aig: &Aig) -> Fanouts {
        let n = aig.max_var as usize + 1;
        let mut and_of = vec![Self::NONE; n];
        let mut start = vec![0u32; n + 1];
        for (i, a) in aig.ands.iter().enumerate() {
            and_of[a.var as usize] = i as u32;
            start[(a.rhs0 >> 1) as usize + 1] += 1;
            start[(a.rhs1 >> 1) as usize + 1] += 1;
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut list = vec![0u32; start[n] as usize];
        for a in &aig.ands {
            for r in [a.rhs0, a.rhs1] {
                let v = (r >> 1) as usize;
                list[fill[v] as usize] = a.var;
                fill[v] += 1;
            }
        }
        Fanouts {
            and_of,
            start,
            list,
        }
    }

    /// The index in `aig.ands` of the gate defining `v`, [`Fanouts::NONE`] if `v` is not a gate.
    #[inline]
    pub(crate) fn and_of(&self, v: usize) -> u32 {
        self.and_of[v]
    }

    /// The gates reading `v`.
    #[inline]
    pub(crate) fn of(&self, v: usize) -> &[u32] {
        &self.list[self.range(v)]
    }

    /// Positions of `v`'s fanouts, for loops that mutate their owner while they walk
    /// (read each with [`Fanouts::nth`]).
    #[inline]
    pub(crate) fn range(&self, v: usize) -> Range<usize> {
        self.start[v] as usize..self.start[v + 1] as usize
    }

    /// The fanout gate at position `k`.
    #[inline]
    pub(crate) fn nth(&self, k: usize) -> u32 {
        self.list[k]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fanouts_and_definitions_of_a_small_circuit() {
        // v3 = v1 ∧ v2, v4 = ¬v3 ∧ v1.
        let a = crate::parse::parse_aiger(b"aag 4 2 0 1 2\n2\n4\n8\n6 2 4\n8 7 2\n").unwrap();
        let f = Fanouts::new(&a);
        assert_eq!(f.of(1), &[3, 4]);
        assert_eq!(f.of(2), &[3]);
        assert_eq!(f.of(3), &[4]);
        assert!(f.of(4).is_empty());
        assert_eq!(f.and_of(3), 0);
        assert_eq!(f.and_of(4), 1);
        assert_eq!(f.and_of(1), Fanouts::NONE);
    }
}
