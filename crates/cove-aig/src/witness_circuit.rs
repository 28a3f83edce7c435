//! Safety certificates as *witness circuits* in the format of the HWMCC'24 certified track
//! (Certifaiger: Yu, Froleyks, Biere, Kaufmann et al., CAV'21, FMCAD'22).
//!
//! A witness circuit `W` for a model `M` keeps `M`'s inputs and latches first (same order,
//! renumbered consecutively so the file can also be written in binary), the same transition
//! and reset of those latches and the same invariant constraints, and replaces the property
//! by a stronger one `P'` that is *inductive* in `W`. A checker (Certifaiger, or
//! [`crate::witness_circuit_check`]) then verifies five SAT queries: reset, transition and property
//! (`W` simulates `M` and `¬P' ⇐ ¬P`), base (`R' ∧ C' ⇒ P'`) and step
//! (`P'₀ ∧ F' ∧ C'₀ ∧ C'₁ ⇒ P'₁`).
//!
//! Both kinds of [`SafeProof`] use one construction with a window of `D` past states kept in
//! extra latches:
//! - an inductive invariant `Inv` is the case `D = 0`: `P' = Inv ∧ ¬bad`;
//! - a `k`-induction proof with auxiliary invariant `A` (the stratified construction of
//!   FMCAD'22 without uniqueness constraints) takes `D = k`: history latches hold the last
//!   `D` states *and inputs* together with validity bits `v¹ … v^D` (shift registers reset to
//!   0), and `P'` states that the current state is good and satisfies `A`, every valid
//!   history entry was a good constrained state satisfying `A` whose successor is the next
//!   entry, the valid entries form a prefix, and the oldest valid entry (when the window is
//!   not full) is a reset state. A full window is `k + 1` good steps, so the step case of
//!   k-induction makes the next state good; a window that is not full starts in a reset
//!   state, so the base case does.
//!
//! The history stores inputs because bad, constraint and next-state functions may depend on
//! them; quantifying them instead would need Certifaiger's QBF mode.

use crate::strash::Strash;
use crate::{ALit, Aig, FALSE, Init, Latch, SafeProof, TRUE};

/// One copy of the model's combinational logic inside the witness.
struct Copy {
    /// Model variable → witness literal.
    map: Vec<ALit>,
}

impl Copy {
    /// Copies `m`'s and gates with inputs and latches already set in `map`.
    fn new(m: &Aig, b: &mut Strash, mut map: Vec<ALit>) -> Copy {
        for g in &m.ands {
            let x = map[(g.rhs0 >> 1) as usize] ^ (g.rhs0 & 1);
            let y = map[(g.rhs1 >> 1) as usize] ^ (g.rhs1 & 1);
            map[g.var as usize] = b.and(x, y);
        }
        Copy { map }
    }

    fn lit(&self, l: ALit) -> ALit {
        self.map[(l >> 1) as usize] ^ (l & 1)
    }

    fn latch(&self, m: &Aig, j: usize) -> ALit {
        self.lit(2 * m.latches[j].var)
    }

    fn bad(&self, m: &Aig, b: &mut Strash) -> ALit {
        b.or_all(m.bad.iter().map(|&x| self.lit(x)))
    }

    fn constrained(&self, m: &Aig, b: &mut Strash) -> ALit {
        b.and_all(m.constraints.iter().map(|&x| self.lit(x)))
    }

    fn clauses(&self, cls: &[Vec<ALit>], b: &mut Strash) -> ALit {
        let lits: Vec<ALit> = cls
            .iter()
            .map(|c| b.or_all(c.iter().map(|&l| self.lit(l))))
            .collect();
        b.and_all(lits)
    }

    fn reset(&self, m: &Aig, b: &mut Strash) -> ALit {
        let lits: Vec<ALit> = (0..m.latches.len())
            .filter_map(|j| match m.latches[j].init {
                Init::Zero => Some(self.latch(m, j) ^ 1),
                Init::One => Some(self.latch(m, j)),
                Init::Free => None,
            })
            .collect();
        b.and_all(lits)
    }
}

/// The witness circuit certifying `proof` for `model` (see the module documentation).
/// Inputs and latches are numbered consecutively (inputs, the model's latches, history
/// latches), then the and gates, so the result can be written in either AIGER format.
pub fn witness_circuit(model: &Aig, proof: &SafeProof) -> Aig {
    let (depth, clauses) = match proof {
        SafeProof::Invariant(inv) => (0, inv.as_slice()),
        SafeProof::KInduction { k, aux } => (*k, aux.as_slice()),
    };
    let (ni, nl) = (model.inputs.len() as u32, model.latches.len() as u32);
    let entry = nl + ni + 1; // history latches per past step: state, inputs, validity
    let n_latches = nl + depth as u32 * entry;
    let mut b = Strash::new(1 + ni + n_latches);
    let nvars = model.max_var as usize + 1;
    // Copy 0: the current step, over the witness's inputs and first latches.
    let mut map = vec![FALSE; nvars];
    for (i, &v) in model.inputs.iter().enumerate() {
        map[v as usize] = 2 * (1 + i as u32);
    }
    for (j, l) in model.latches.iter().enumerate() {
        map[l.var as usize] = 2 * (1 + ni + j as u32);
    }
    let mut copies = vec![Copy::new(model, &mut b, map)];
    // History entry i (1 ≤ i ≤ depth): its state, input and validity latches.
    let hist_base = |i: usize| 1 + ni + nl + (i as u32 - 1) * entry;
    let valid = |i: usize| 2 * (hist_base(i) + nl + ni);
    for i in 1..=depth {
        let mut map = vec![FALSE; nvars];
        for (j, l) in model.latches.iter().enumerate() {
            map[l.var as usize] = 2 * (hist_base(i) + j as u32);
        }
        for (k, &v) in model.inputs.iter().enumerate() {
            map[v as usize] = 2 * (hist_base(i) + nl + k as u32);
        }
        copies.push(Copy::new(model, &mut b, map));
    }
    // The property P'.
    let c0 = &copies[0];
    let bad0 = c0.bad(model, &mut b);
    let inv0 = c0.clauses(clauses, &mut b);
    let mut good = vec![bad0 ^ 1, inv0];
    if depth >= 1 {
        let r0 = c0.reset(model, &mut b);
        good.push(b.or(valid(1), r0));
    }
    for i in 1..=depth {
        let c = &copies[i];
        let mut e = vec![
            c.bad(model, &mut b) ^ 1,
            c.constrained(model, &mut b),
            c.clauses(clauses, &mut b),
        ];
        for (j, l) in model.latches.iter().enumerate() {
            let succ = copies[i - 1].latch(model, j);
            e.push(b.eq(succ, c.lit(l.next)));
        }
        let e = b.and_all(e);
        good.push(b.or(valid(i) ^ 1, e));
        if i >= 2 {
            good.push(b.or(valid(i) ^ 1, valid(i - 1)));
        }
        if i < depth {
            let r = c.reset(model, &mut b);
            let oldest = b.or_all([valid(i) ^ 1, valid(i + 1), r]);
            good.push(oldest);
        }
    }
    let good = b.and_all(good);
    // Latches: the model's, then the history shift registers.
    let mut latches = Vec::with_capacity(n_latches as usize);
    for (j, l) in model.latches.iter().enumerate() {
        latches.push(Latch {
            var: 1 + ni + j as u32,
            next: c0.lit(l.next),
            init: l.init,
        });
    }
    for i in 1..=depth {
        let prev = |j: u32| {
            if i == 1 {
                2 * (1 + ni + j)
            } else {
                2 * (hist_base(i - 1) + j)
            }
        };
        for j in 0..nl {
            latches.push(Latch {
                var: hist_base(i) + j,
                next: prev(j),
                init: Init::Zero,
            });
        }
        for k in 0..ni {
            latches.push(Latch {
                var: hist_base(i) + nl + k,
                next: if i == 1 {
                    2 * (1 + k)
                } else {
                    2 * (hist_base(i - 1) + nl + k)
                },
                init: Init::Zero,
            });
        }
        latches.push(Latch {
            var: hist_base(i) + nl + ni,
            next: if i == 1 { TRUE } else { valid(i - 1) },
            init: Init::Zero,
        });
    }
    let constraints = model.constraints.iter().map(|&c| c0.lit(c)).collect();
    Aig {
        max_var: b.next_var - 1,
        inputs: (1..=ni).collect(),
        latches,
        outputs: Vec::new(),
        bad: vec![good ^ 1],
        constraints,
        ands: b.ands,
        ..Aig::default()
    }
}

/// The certificate file's bytes: `w` in binary AIGER (`binary`) or ASCII, followed by a
/// comment naming what it certifies.
pub fn write_witness(w: &Aig, binary: bool, model_name: &str) -> Vec<u8> {
    let bin = if binary {
        crate::write::to_aig(w)
    } else {
        None
    };
    let mut out = bin.unwrap_or_else(|| crate::write::to_aag(w).into_bytes());
    out.extend_from_slice(
        format!(
            "c\nWITNESS b0 {model_name}\ncertificate (witness circuit) written by cove; \
             inputs and latches simulate the model's, in order\n"
        )
        .as_bytes(),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invariant_witness_is_consecutive_and_strengthens_the_property() {
        // One latch toggling between 0 and 1; bad = latch ∧ ¬latch is never true.
        let m = crate::parse_aiger(b"aag 3 1 1 0 1 1\n2\n4 5\n6\n6 4 5\n").unwrap();
        let w = witness_circuit(&m, &SafeProof::Invariant(vec![]));
        assert_eq!(w.inputs, vec![1]);
        assert_eq!(w.latches[0].var, 2);
        assert!(w.ands.iter().all(|g| g.var > 2));
        let k = witness_circuit(&m, &SafeProof::KInduction { k: 2, aux: vec![] });
        // Two history entries of (1 latch, 1 input, 1 validity bit).
        assert_eq!(k.latches.len(), 1 + 2 * 3);
        assert!(k.ands.iter().all(|g| g.var as usize > 1 + k.latches.len()));
    }
}
