//! Helpers shared by the integration tests of `cove-prob`: seeded random LPTS generators
//! (over `cove-testkit`'s generator, deterministic in the seed, so a failing case is
//! reproduced from the seed the test prints), small constructors for distributions, and
//! components with a renamed alphabet for the compositional checks.
// Each test binary compiles this module and uses only part of it.
#![allow(dead_code)]

use cove_logic::Rational;
use cove_prob::{Dist, Lpts};

pub use cove_testkit::Rng;

/// The rational `n/d`.
pub fn r(n: i64, d: i64) -> Rational {
    Rational::new(n, d)
}

/// The distribution with entries `(state, n, d)` meaning probability `n/d`.
pub fn dist(e: &[(usize, i64, i64)]) -> Dist {
    Dist::new(e.iter().map(|&(s, n, d)| (s, r(n, d))).collect()).unwrap()
}

/// The shape of the random pairs: two actions, up to two transitions per state, support up
/// to three.
pub fn shape(states: usize) -> Shape {
    Shape {
        states,
        actions: 2,
        max_out: 2,
        max_support: 3,
    }
}

/// Three states over `actions` actions, at most two transitions per state and support two:
/// the shape of the components in the compositional tests.
pub fn small_shape(actions: usize) -> Shape {
    Shape {
        states: 3,
        actions,
        max_out: 2,
        max_support: 2,
    }
}

/// A random pair `(l1, l2)` for the simulation tests: `l2` random with 2 to 5 states; `l1`
/// a sub-system of `l2` (so simulated by construction) if `sub`, else an independent random
/// system.
pub fn random_pair(rng: &mut Rng, sub: bool) -> (Lpts, Lpts) {
    let n2 = 2 + rng.below(4);
    let l2 = random_lpts(rng, &shape(n2), "t");
    let l1 = if sub {
        let copies = 1 + rng.below(2);
        random_sub_lpts(rng, &l2, copies)
    } else {
        let n1 = 2 + rng.below(4);
        random_lpts(rng, &shape(n1), "s")
    };
    (l1, l2)
}

/// `base` with its actions `a, b, …` renamed to `actions`, in order.
pub fn rename(base: &Lpts, actions: &[&str]) -> Lpts {
    let mut l = Lpts::new(base.state_name(0));
    for s in 1..base.num_states() {
        l.add_state(base.state_name(s));
    }
    for a in actions {
        l.add_action(a);
    }
    for t in base.transitions() {
        l.add_transition(t.src, t.action, t.dist.clone());
    }
    l
}

/// A random three-state component over `actions`, states named with `prefix`.
pub fn comp(rng: &mut Rng, prefix: &str, actions: &[&str]) -> Lpts {
    let base = random_lpts(rng, &small_shape(actions.len()), prefix);
    rename(&base, actions)
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
