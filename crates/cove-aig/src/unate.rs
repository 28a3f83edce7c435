//! Sequentially-unate inputs (Gajavelly et al., FMCAD 2019, Alg. 3): an input that reaches
//! the bad literal and the constraints only through an even number of inversions (or only
//! through an odd number), in every time frame, can be fixed to the constant that favours
//! reaching a bad state (1 or 0) without losing or adding counterexamples.
//!
//! The bad literal and every constraint are marked positive (a counterexample wants both
//! true); a mark crosses an and gate unchanged, an inverted edge flipped, and a latch into its
//! next-state function unchanged (reset values are constants in AIGER). Each variable is
//! marked at most once per polarity, so the pass is linear. Setting a positive-only input to 1
//! can only make the bad literal and the constraints true more often (monotone), so every
//! counterexample survives with that value, and every trace of the fixed circuit is one of the
//! original. Trace reconstruction is the constant itself.

use crate::{ALit, Aig};

/// For each input (file order): `Some(v)` if it is sequentially unate and can be fixed to
/// `v`, `None` if it occurs in both polarities or in no cone at all.
pub fn unate_inputs(aig: &Aig) -> Vec<Option<bool>> {
    let m = aig.max_var as usize;
    let mut and_of = vec![usize::MAX; m + 1];
    for (i, a) in aig.ands.iter().enumerate() {
        and_of[a.var as usize] = i;
    }
    let mut next_of = vec![None; m + 1];
    for l in &aig.latches {
        next_of[l.var as usize] = Some(l.next);
    }
    // mark[v] bit 0: reached positive, bit 1: reached negative.
    let mut mark = vec![0u8; m + 1];
    let mut stack: Vec<ALit> = aig.bad.iter().chain(&aig.constraints).copied().collect();
    while let Some(l) = stack.pop() {
        let v = (l >> 1) as usize;
        let bit = 1u8 << (l & 1);
        if mark[v] & bit != 0 {
            continue;
        }
        mark[v] |= bit;
        let neg = l & 1;
        if and_of[v] != usize::MAX {
            let a = aig.ands[and_of[v]];
            stack.push(a.rhs0 ^ neg);
            stack.push(a.rhs1 ^ neg);
        } else if let Some(n) = next_of[v] {
            stack.push(n ^ neg);
        }
    }
    aig.inputs
        .iter()
        .map(|&v| match mark[v as usize] {
            1 => Some(true),
            2 => Some(false),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{And, Init, Latch};

    #[test]
    fn polarity_follows_inversions_through_latches() {
        // Inputs 1, 2, 3; latch 4' = ¬(1 ∧ ¬2); bad = ¬4 ∧ 3 ∧ ¬... : input 1 and 2 reach bad
        // through the latch with one and two inversions, input 3 directly, and also inverted
        // through gate 6 = ¬3 ∧ 4 used in a constraint.
        let mut aig = Aig {
            max_var: 7,
            inputs: vec![1, 2, 3],
            ..Aig::default()
        };
        aig.ands.push(And {
            var: 5,
            rhs0: 2,
            rhs1: 5,
        }); // 5 = 1 ∧ ¬2
        aig.latches.push(Latch {
            var: 4,
            next: 11,
            init: Init::Zero,
        }); // 4' = ¬5
        aig.ands.push(And {
            var: 6,
            rhs0: 9,
            rhs1: 6,
        }); // 6 = ¬4 ∧ 3
        aig.ands.push(And {
            var: 7,
            rhs0: 7,
            rhs1: 8,
        }); // 7 = ¬3 ∧ 4
        aig.bad.push(12);
        // bad = ¬4 ∧ 3: ¬4 = 5 (positive in 1, negative in 2), 3 positive.
        assert_eq!(
            unate_inputs(&aig),
            vec![Some(true), Some(false), Some(true)]
        );
        // A constraint ¬7 = ¬(¬3 ∧ 4) marks 3 positive and 4 negative: 3 stays unate.
        aig.constraints.push(15);
        assert_eq!(
            unate_inputs(&aig),
            vec![Some(true), Some(false), Some(true)]
        );
        // A constraint 7 marks 3 negative too: no longer unate.
        aig.constraints[0] = 14;
        assert_eq!(unate_inputs(&aig)[2], None);
    }
}
