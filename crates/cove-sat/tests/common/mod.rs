//! Shared helpers for the integration tests (and the `bench` example, which includes this
//! file by path): formula generators over `cove-testkit`'s seeded generator, and an
//! independent brute-force checker.
#![allow(dead_code)]

use cove_sat::{Lit, Var};

pub use cove_testkit::Rng;

/// Uniform random k-SAT with distinct variables per clause.
pub fn random_ksat(rng: &mut Rng, n: usize, m: usize, k: usize) -> Vec<Vec<Lit>> {
    (0..m)
        .map(|_| {
            let mut c: Vec<Lit> = Vec::with_capacity(k);
            while c.len() < k {
                let v = Var(rng.below_u64(n as u64) as u32);
                if c.iter().all(|l| l.var() != v) {
                    c.push(Lit::new(v, rng.flip()));
                }
            }
            c
        })
        .collect()
}

/// Pigeonhole PHP(n+1, n): variable p*n + h means pigeon p sits in hole h. Unsatisfiable.
pub fn pigeonhole(n: usize) -> (usize, Vec<Vec<Lit>>) {
    let var = |p: usize, h: usize| Var((p * n + h) as u32);
    let mut cls = Vec::new();
    for p in 0..=n {
        cls.push((0..n).map(|h| Lit::new(var(p, h), false)).collect());
    }
    for h in 0..n {
        for p in 0..=n {
            for q in p + 1..=n {
                cls.push(vec![Lit::new(var(p, h), true), Lit::new(var(q, h), true)]);
            }
        }
    }
    ((n + 1) * n, cls)
}

pub fn lit_true(model: &[bool], l: Lit) -> bool {
    model[l.var().index()] != l.is_neg()
}

pub fn satisfies(model: &[bool], clauses: &[Vec<Lit>]) -> bool {
    clauses
        .iter()
        .all(|c| c.iter().any(|&l| lit_true(model, l)))
}

/// Enumerates all assignments of `n` (<= 20) variables; returns the first satisfying one for
/// which `extra` also holds.
pub fn brute_force(
    n: usize,
    clauses: &[Vec<Lit>],
    extra: impl Fn(&[bool]) -> bool,
) -> Option<Vec<bool>> {
    assert!(n <= 20);
    let mut model = vec![false; n];
    for bits in 0u32..(1 << n) {
        for (i, m) in model.iter_mut().enumerate() {
            *m = bits >> i & 1 == 1;
        }
        if satisfies(&model, clauses) && extra(&model) {
            return Some(model);
        }
    }
    None
}

/// Multiplier for the number of random rounds, from `COVE_SAT_TEST_SCALE` (default 1), for
/// longer local soak runs: `COVE_SAT_TEST_SCALE=50 cargo test --release -p cove-sat`.
pub fn scale() -> usize {
    std::env::var("COVE_SAT_TEST_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// Base seed, from `COVE_SAT_TEST_SEED` (default 0), mixed into every test's own seed.
pub fn seed(own: u64) -> u64 {
    let base: u64 = std::env::var("COVE_SAT_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    own ^ base.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}
