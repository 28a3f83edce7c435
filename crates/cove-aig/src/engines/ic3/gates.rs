//! Gate shapes for a compact CNF of the transition relation.
//!
//! Tseitin on single and gates gives every AIG node a variable and three clauses. Most of the
//! HWMCC designs are datapaths: wide conjunctions (chains of and gates whose inner nodes
//! have one fanout) and multiplexers (`¬(s ∧ a) ∧ ¬(¬s ∧ b)`, with both inner gates used
//! once). Encoding such a group as one gate — an n-ary AND with `n + 1` clauses, or an
//! if-then-else with six — leaves out the inner variables, so a frame solver propagates
//! through fewer clauses per query. That is the part of ABC's mapped CNF (`pdr`) that needs
//! no technology mapping. A node is folded into its parent only when nothing else refers to
//! it (one reference in the whole circuit, counting next-state functions, constraints and
//! the bad property), so it never needs a variable of its own.

use crate::{ALit, Aig};

/// Most leaves of one n-ary AND (a bound on clause length, not needed for correctness).
const MAX_LEAVES: usize = 32;

/// How one AIG node is encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Gate {
    /// The node is the conjunction of these literals.
    And(Vec<ALit>),
    /// The node is `¬ite(s, a, b)` for `Ite(s, a, b)`: `¬(s ∧ a) ∧ ¬(¬s ∧ b)`.
    NegIte(ALit, ALit, ALit),
}

impl Gate {
    /// The literals the gate's clauses mention.
    pub fn leaves(&self) -> Vec<ALit> {
        match self {
            Gate::And(ls) => ls.clone(),
            Gate::NegIte(s, a, b) => vec![*s, *a, *b],
        }
    }
}

/// Per-node facts about an AIG needed to pick gate shapes.
pub(crate) struct Shapes {
    /// Per AIG variable: index of its and gate (`u32::MAX` if none).
    and_of: Vec<u32>,
    /// Per AIG variable: whether exactly one reference exists to it.
    single: Vec<bool>,
}

impl Shapes {
    pub fn new(aig: &Aig) -> Shapes {
        let n = aig.max_var as usize + 1;
        let mut and_of = vec![u32::MAX; n];
        for (i, a) in aig.ands.iter().enumerate() {
            and_of[a.var as usize] = i as u32;
        }
        let mut refs = vec![0u8; n];
        let mut count = |l: ALit| {
            let r = &mut refs[(l >> 1) as usize];
            *r = r.saturating_add(1);
        };
        for a in &aig.ands {
            count(a.rhs0);
            count(a.rhs1);
        }
        for l in &aig.latches {
            count(l.next);
        }
        aig.constraints
            .iter()
            .chain(&aig.bad)
            .for_each(|&l| count(l));
        aig.outputs.iter().for_each(|&l| count(l));
        Shapes {
            and_of,
            single: refs.iter().map(|&r| r == 1).collect(),
        }
    }

    /// The and gate defining AIG variable `v`, if any.
    pub fn and_of(&self, aig: &Aig, v: u32) -> Option<crate::And> {
        let i = *self.and_of.get(v as usize)?;
        (i != u32::MAX).then(|| aig.ands[i as usize])
    }

    fn is_and(&self, v: u32) -> bool {
        self.and_of[v as usize] != u32::MAX
    }

    /// An and gate used by nothing else than its one parent.
    fn foldable(&self, v: u32) -> bool {
        self.is_and(v) && self.single[v as usize]
    }

    /// The shape of and gate `v`.
    pub fn gate(&self, aig: &Aig, v: u32) -> Gate {
        let g = aig.ands[self.and_of[v as usize] as usize];
        let (x, y) = (g.rhs0, g.rhs1);
        if x & 1 == 1
            && y & 1 == 1
            && x >> 1 != y >> 1
            && self.foldable(x >> 1)
            && self.foldable(y >> 1)
        {
            let gx = aig.ands[self.and_of[(x >> 1) as usize] as usize];
            let gy = aig.ands[self.and_of[(y >> 1) as usize] as usize];
            for (s, a) in [(gx.rhs0, gx.rhs1), (gx.rhs1, gx.rhs0)] {
                for (t, b) in [(gy.rhs0, gy.rhs1), (gy.rhs1, gy.rhs0)] {
                    if s == t ^ 1 {
                        return Gate::NegIte(s, a, b);
                    }
                }
            }
        }
        let mut leaves = Vec::new();
        let mut stack = vec![y, x];
        while let Some(l) = stack.pop() {
            if l & 1 == 0 && self.foldable(l >> 1) && leaves.len() + stack.len() + 2 <= MAX_LEAVES {
                let h = aig.ands[self.and_of[(l >> 1) as usize] as usize];
                stack.push(h.rhs1);
                stack.push(h.rhs0);
            } else {
                leaves.push(l);
            }
        }
        Gate::And(leaves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_aiger;

    #[test]
    fn shapes_of_a_mux_and_a_chain() {
        // Inputs s=2, a=4, b=6, c=8. g5 = s∧a, g6 = ¬s∧b, g7 = ¬g5∧¬g6 (¬mux),
        // g8 = a∧b, g9 = g8∧c (chain); outputs ¬g7 and g9.
        let src = "aag 9 4 0 2 5\n2\n4\n6\n8\n15\n18\n10 2 4\n12 3 6\n14 11 13\n16 4 6\n18 16 8\n";
        let a = parse_aiger(src.as_bytes()).expect("valid aag");
        let sh = Shapes::new(&a);
        assert_eq!(sh.gate(&a, 7), Gate::NegIte(2, 4, 6));
        assert_eq!(sh.gate(&a, 9), Gate::And(vec![4, 6, 8]));
        // g5 alone: its fanins are inputs.
        assert_eq!(sh.gate(&a, 5), Gate::And(vec![2, 4]));
    }

    #[test]
    fn shared_nodes_are_not_folded() {
        // g4 = x∧y used twice (by g5 and g6): g5 = g4∧z keeps g4 as a leaf.
        let src = "aag 6 3 0 2 3\n2\n4\n6\n10\n12\n8 2 4\n10 8 6\n12 8 7\n";
        let a = parse_aiger(src.as_bytes()).expect("valid aag");
        let sh = Shapes::new(&a);
        assert_eq!(sh.gate(&a, 5), Gate::And(vec![8, 6]));
    }
}
