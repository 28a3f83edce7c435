//! Strong probabilistic bisimulation by signature-based partition refinement, used to
//! shrink a system before a strong-simulation check.
//!
//! Why it is sound: the quotient `L/~` is bisimilar to `L`, bisimilarity implies
//! simulation both ways, and strong simulation is transitive, so `L ⪯ P ⟺ L/~ ⪯ P`.
//! Models written in PRISM are often highly symmetric (crowds, leader election): the
//! quotient can be orders of magnitude smaller, and the pair space of the simulation
//! check shrinks with it.
//!
//! The refinement: start with one class; the signature of a state is the set of its
//! transitions with every distribution lumped onto the current classes, `{(a, μ/Π)}`;
//! states with the same class and signature stay together. Repeat until the number of
//! classes is stable (the coarsest bisimulation, as every step only splits).

use crate::lpts::Lpts;
use crate::partition::Partition;
use cove_logic::Rational;
use std::collections::HashMap;

/// A lumped transition: action and distribution over classes (sorted by class).
type Lumped = (usize, Vec<(u32, Rational)>);

/// Rounds of refinement tried before giving up. Signature refinement may need one round
/// per state (a chain is split one state per round), which would make it quadratic; an
/// unfinished refinement is not a bisimulation, so the caller then checks the system as it
/// is.
pub const MAX_ROUNDS: usize = 64;

/// The coarsest strong (probabilistic) bisimulation of `l`, if signature refinement
/// stabilizes within [`MAX_ROUNDS`] rounds. `stop` is polled once per round; `None` when
/// it returned true or the rounds ran out.
pub fn bisimulation(l: &Lpts, stop: &dyn Fn() -> bool) -> Option<Partition> {
    let n = l.num_states();
    let mut class: Vec<u32> = vec![0; n];
    let mut num = 1usize;
    for _ in 0..MAX_ROUNDS {
        if stop() {
            return None;
        }
        let mut ids: HashMap<(u32, Vec<Lumped>), u32> = HashMap::new();
        let mut next: Vec<u32> = Vec::with_capacity(n);
        for s in 0..n {
            let mut sig: Vec<Lumped> = l
                .outgoing(s)
                .iter()
                .map(|&t| {
                    let tr = l.transition(t);
                    let mut d: Vec<(u32, Rational)> = Vec::with_capacity(tr.dist.len());
                    for (u, p) in tr.dist.entries() {
                        d.push((class[*u], p.clone()));
                    }
                    d.sort_unstable_by_key(|e| e.0);
                    let mut merged: Vec<(u32, Rational)> = Vec::with_capacity(d.len());
                    for (c, p) in d {
                        match merged.last_mut() {
                            Some((c2, q)) if *c2 == c => *q += &p,
                            _ => merged.push((c, p)),
                        }
                    }
                    (tr.action, merged)
                })
                .collect();
            sig.sort_unstable();
            sig.dedup();
            let k = ids.len() as u32;
            next.push(*ids.entry((class[s], sig)).or_insert(k));
        }
        let stable = ids.len() == num;
        num = ids.len();
        class = next;
        if stable {
            let classes: Vec<usize> = class.iter().map(|&c| c as usize).collect();
            return Some(Partition::from_classes(&classes));
        }
    }
    None
}
