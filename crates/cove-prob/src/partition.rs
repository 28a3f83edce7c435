//! Partitions of a state space and quotients `L/Π` (thesis Definition 13, Sec. 6.2).
//!
//! The quotient has one state per class; `([s], a, lift(μ))` is a transition for every
//! `s −a→ μ` of `L`, where `lift(μ)([t]) = μ([t])`. The identity map `s ↦ [s]` is then a
//! strong simulation, so `L ⪯ L/Π` holds by construction for every partition — which is
//! why AGAR never needs to check premise 2 of rule ASYM. The quotient keeps `L`'s alphabet
//! (so `α_A ⊆ α_2` holds) and its action numbering.
//!
//! # Invariant
//! Class ids are dense, `0..num_classes()`, and every class is non-empty. Splitting keeps
//! existing ids and appends new ones, so a refined partition is strictly finer exactly
//! when the number of classes grew.

use crate::lpts::{Lpts, StateId};

/// A partition of `0..n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    class_of: Vec<usize>,
    num_classes: usize,
}

impl Partition {
    /// The coarsest partition: one class (requires `n > 0`).
    pub fn coarsest(n: usize) -> Partition {
        Partition {
            class_of: vec![0; n],
            num_classes: usize::from(n > 0),
        }
    }

    /// The discrete partition: one class per state.
    pub fn discrete(n: usize) -> Partition {
        Partition {
            class_of: (0..n).collect(),
            num_classes: n,
        }
    }

    /// From an explicit class assignment (ids are renumbered densely, in order of first use).
    pub fn from_classes(classes: &[usize]) -> Partition {
        let mut map = std::collections::HashMap::new();
        let class_of = classes
            .iter()
            .map(|c| {
                let k = map.len();
                *map.entry(*c).or_insert(k)
            })
            .collect();
        Partition {
            class_of,
            num_classes: map.len(),
        }
    }

    /// `[s]_Π`.
    pub fn class_of(&self, s: StateId) -> usize {
        self.class_of[s]
    }

    /// Number of classes.
    pub fn num_classes(&self) -> usize {
        self.num_classes
    }

    /// The members of class `c`.
    pub fn members(&self, c: usize) -> Vec<StateId> {
        (0..self.class_of.len())
            .filter(|&s| self.class_of[s] == c)
            .collect()
    }

    /// Refines by a set: every class meeting both `set` and its complement is split, the
    /// part outside `set` getting a new id. Returns whether anything was split.
    pub fn split_by(&mut self, set: &[StateId]) -> bool {
        let mut inside = vec![false; self.class_of.len()];
        for &s in set {
            inside[s] = true;
        }
        let mut has_in = vec![false; self.num_classes];
        let mut has_out = vec![false; self.num_classes];
        for (s, &c) in self.class_of.iter().enumerate() {
            if inside[s] {
                has_in[c] = true;
            } else {
                has_out[c] = true;
            }
        }
        let mut new_id = vec![usize::MAX; self.num_classes];
        let mut changed = false;
        for c in 0..self.num_classes {
            if has_in[c] && has_out[c] {
                new_id[c] = self.num_classes;
                self.num_classes += 1;
                changed = true;
            }
        }
        for (s, c) in self.class_of.iter_mut().enumerate() {
            if !inside[s] && new_id[*c] != usize::MAX {
                *c = new_id[*c];
            }
        }
        changed
    }
}

/// The quotient `L/Π`; state `c` of the result is class `c`.
pub fn quotient(l: &Lpts, p: &Partition) -> Lpts {
    let k = p.num_classes();
    let mut names = vec![String::new(); k];
    let mut sizes = vec![0usize; k];
    for s in 0..l.num_states() {
        let c = p.class_of(s);
        if sizes[c] == 0 {
            names[c] = l.state_name(s).to_string();
        }
        sizes[c] += 1;
    }
    let label = |c: usize| {
        if sizes[c] == 1 {
            format!("[{}]", names[c])
        } else {
            format!("[{} +{}]", names[c], sizes[c] - 1)
        }
    };
    let mut q = Lpts::new(label(0));
    for c in 1..k {
        q.add_state(label(c));
    }
    for a in l.actions() {
        q.add_action(a);
    }
    for t in l.transitions() {
        q.add_transition(p.class_of(t.src), t.action, t.dist.map(|s| p.class_of(s)));
    }
    q.set_initial(p.class_of(l.initial()));
    q
}
