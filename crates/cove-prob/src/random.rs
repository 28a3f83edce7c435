//! Seeded random LPTS generators for property tests and benchmarks.
//!
//! Deterministic for a given seed (a xorshift generator; no dependency), so every failing
//! case can be reproduced from the seed printed by the test.

use crate::lpts::{Dist, Lpts};
use cove_logic::Rational;

/// A small deterministic pseudo-random generator (xorshift64*).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value; zero is remapped).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `num/den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }
}

/// Shape parameters for [`random_lpts`].
#[derive(Clone, Debug)]
pub struct Shape {
    /// Number of states.
    pub states: usize,
    /// Actions to choose from (`a`, `b`, …).
    pub actions: usize,
    /// Maximum number of transitions per state.
    pub max_out: usize,
    /// Maximum support size of a distribution.
    pub max_support: usize,
}

/// A random distribution over `0..n` with support at most `max_support`.
pub fn random_dist(rng: &mut Rng, n: usize, max_support: usize) -> Dist {
    let k = 1 + rng.below(max_support.min(n));
    let mut entries: Vec<(usize, i64)> = Vec::new();
    while entries.len() < k {
        let s = rng.below(n);
        if !entries.iter().any(|e| e.0 == s) {
            entries.push((s, 1 + rng.below(3) as i64));
        }
    }
    let total: i64 = entries.iter().map(|e| e.1).sum();
    Dist::new(
        entries
            .into_iter()
            .map(|(s, w)| (s, Rational::new(w, total)))
            .collect(),
    )
    .expect("weights normalized by construction")
}

/// A random LPTS with the given shape; state names `p0, p1, …` with prefix `prefix`.
pub fn random_lpts(rng: &mut Rng, shape: &Shape, prefix: &str) -> Lpts {
    let mut l = Lpts::new(format!("{prefix}0"));
    for i in 1..shape.states {
        l.add_state(format!("{prefix}{i}"));
    }
    let names: Vec<String> = (0..shape.actions)
        .map(|i| ((b'a' + i as u8) as char).to_string())
        .collect();
    for a in &names {
        l.add_action(a);
    }
    for s in 0..shape.states {
        let k = rng.below(shape.max_out + 1);
        for _ in 0..k {
            let a = rng.below(shape.actions);
            let d = random_dist(rng, shape.states, shape.max_support);
            l.add_transition(s, a, d);
        }
    }
    l
}

/// A random LPTS that `spec` simulates by construction: an unfolding-free "sub-system"
/// obtained by keeping a random subset of `spec`'s transitions, possibly with extra copies
/// of states (each copy behaves like a subset of its original).
pub fn random_sub_lpts(rng: &mut Rng, spec: &Lpts, copies: usize) -> Lpts {
    let n = spec.num_states();
    let total = n * copies;
    let init = spec.initial();
    // Tree state id(c, x) is copy c of spec state x; copy 0 of the start state gets id 0.
    let id = |c: usize, x: usize| c * n + (x + n - init) % n;
    let orig = |i: usize| (i % n + init) % n;
    let mut l = Lpts::new(format!("q0_{}", spec.state_name(init)));
    for i in 1..total {
        l.add_state(format!("q{i}_{}", spec.state_name(orig(i))));
    }
    for a in spec.actions() {
        l.add_action(a);
    }
    for i in 0..total {
        for &t in spec.outgoing(orig(i)) {
            if rng.chance(2, 3) {
                let tr = spec.transition(t);
                let entries: Vec<(usize, Rational)> = tr
                    .dist
                    .entries()
                    .iter()
                    .map(|(x, p)| (id(rng.below(copies), *x), p.clone()))
                    .collect();
                let d = Dist::new(entries).expect("copies of one distribution");
                let a = l
                    .action_id(spec.action_name(tr.action))
                    .expect("same alphabet");
                l.add_transition(i, a, d);
            }
        }
    }
    l
}
