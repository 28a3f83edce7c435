//! The distribution relation `μ ⊑_R ν` by maximum flow with exact rationals (Sec. 4.4),
//! and Hall-violator extraction (corrected CEXDISTREL, errata 2).
//!
//! The network is `a → s` with capacity `μ(s)`, `s → t` with unbounded capacity when
//! `s R t`, and `t → b` with capacity `ν(t)`. `μ ⊑_R ν` iff the maximum flow is 1
//! (Segala–Lynch weight functions are exactly the flows of value 1). Unbounded middle
//! capacities give the same maximum as the thesis's capacity 1, because no single middle
//! edge can carry more than `μ(s) ≤ 1`.
//!
//! When the maximum flow is below 1 some source node is unsaturated, and the alternating
//! closure from it, `S := S ∪ {s' | ∃t ∈ R(S). f(s',t) > 0}`, is a Hall violator:
//! `μ(S) > ν(R(S))` (Lemma 11). The thesis's Fig. 4.12 *replaces* `S` instead of taking the
//! union and can loop forever (errata 2); the union always terminates. Why it is a
//! violator at the fixed point: every `t ∈ R(S)` is saturated (otherwise there would be an
//! augmenting path) and receives flow only from `S`, so `ν(R(S)) = flow out of S < μ(S)`.

use crate::lpts::{Dist, StateId};
use cove_logic::Rational;
use std::collections::VecDeque;

/// The outcome of deciding `μ ⊑_R ν`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DistRel {
    /// Related; the weight function `w` as `(s, t, w(s,t))` triples with positive weights.
    Related(Vec<(StateId, StateId, Rational)>),
    /// Not related; a Hall violator `X ⊆ Supp(μ)` with `μ(X) > ν(R(X))`, sorted.
    Violator(Vec<StateId>),
}

impl DistRel {
    /// Whether the distributions are related.
    pub fn is_related(&self) -> bool {
        matches!(self, DistRel::Related(_))
    }
}

/// Decides `μ ⊑_R ν`, where `related(s, t)` is `s R t`.
pub fn dist_related(mu: &Dist, nu: &Dist, related: &dyn Fn(StateId, StateId) -> bool) -> DistRel {
    let me = mu.entries();
    let ne = nu.entries();
    let (n, m) = (me.len(), ne.len());
    let adj: Vec<Vec<usize>> = me
        .iter()
        .map(|(s, _)| (0..m).filter(|&j| related(*s, ne[j].0)).collect())
        .collect();
    // A source with no related target is a violator on its own.
    if let Some(i) = adj.iter().position(|a| a.is_empty()) {
        return DistRel::Violator(vec![me[i].0]);
    }
    // Dirac target: related iff every source is related to it (checked just above).
    if m == 1 {
        return DistRel::Related(me.iter().map(|(s, p)| (*s, ne[0].0, p.clone())).collect());
    }
    let mut flow: Vec<Vec<Rational>> = vec![vec![Rational::ZERO; m]; n];
    let mut src_left: Vec<Rational> = me.iter().map(|e| e.1.clone()).collect();
    let mut sink_left: Vec<Rational> = ne.iter().map(|e| e.1.clone()).collect();
    // Greedy start, then Edmonds–Karp augmentation on the residual network.
    for i in 0..n {
        for &j in &adj[i] {
            if src_left[i].is_zero() {
                break;
            }
            let d = std::cmp::min(&src_left[i], &sink_left[j]).clone();
            if d.is_positive() {
                flow[i][j] += &d;
                src_left[i] -= &d;
                sink_left[j] -= &d;
            }
        }
    }
    while let Some(path) = augmenting_path(&adj, &flow, &src_left, &sink_left) {
        // path: i0, j0, i1, j1, ..., ik, jk with forward edges (i_l, j_l) and backward
        // edges (i_{l+1}, j_l) carrying flow.
        let mut d = std::cmp::min(&src_left[path[0]], &sink_left[*path.last().unwrap()]).clone();
        for w in path[1..].chunks(2) {
            if w.len() == 2 {
                d = std::cmp::min(&d, &flow[w[1]][w[0]]).clone();
            }
        }
        src_left[path[0]] -= &d;
        sink_left[*path.last().unwrap()] -= &d;
        for (k, w) in path.chunks(2).enumerate() {
            flow[w[0]][w[1]] += &d;
            if let Some(&next_i) = path.get(2 * k + 2) {
                flow[next_i][w[1]] -= &d;
            }
        }
    }
    match src_left.iter().position(|r| r.is_positive()) {
        None => {
            let mut w = Vec::new();
            for i in 0..n {
                for j in 0..m {
                    if flow[i][j].is_positive() {
                        w.push((me[i].0, ne[j].0, flow[i][j].clone()));
                    }
                }
            }
            DistRel::Related(w)
        }
        Some(i0) => DistRel::Violator(hall_violator(mu, nu, &adj, &flow, i0)),
    }
}

/// BFS for an augmenting path in the residual network; returns alternating source and
/// target indices `[i0, j0, i1, j1, …, jk]`.
fn augmenting_path(
    adj: &[Vec<usize>],
    flow: &[Vec<Rational>],
    src_left: &[Rational],
    sink_left: &[Rational],
) -> Option<Vec<usize>> {
    let (n, m) = (adj.len(), sink_left.len());
    let mut prev_i: Vec<Option<usize>> = vec![None; m]; // target j reached from source i
    let mut prev_j: Vec<Option<usize>> = vec![None; n]; // source i reached back from target j
    let mut seen_i = vec![false; n];
    let mut seen_j = vec![false; m];
    let mut queue = VecDeque::new();
    for i in 0..n {
        if src_left[i].is_positive() {
            seen_i[i] = true;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        for &j in &adj[i] {
            if seen_j[j] {
                continue;
            }
            seen_j[j] = true;
            prev_i[j] = Some(i);
            if sink_left[j].is_positive() {
                let mut path = vec![j];
                let mut jj = j;
                loop {
                    let ii = prev_i[jj].unwrap();
                    path.push(ii);
                    match prev_j[ii] {
                        Some(j2) => {
                            path.push(j2);
                            jj = j2;
                        }
                        None => break,
                    }
                }
                path.reverse();
                return Some(path);
            }
            for i2 in 0..n {
                if !seen_i[i2] && flow[i2][j].is_positive() {
                    seen_i[i2] = true;
                    prev_j[i2] = Some(j);
                    queue.push_back(i2);
                }
            }
        }
    }
    None
}

/// Corrected CEXDISTREL: the alternating closure (with union) from unsaturated source `i0`.
fn hall_violator(
    mu: &Dist,
    nu: &Dist,
    adj: &[Vec<usize>],
    flow: &[Vec<Rational>],
    i0: usize,
) -> Vec<StateId> {
    let (me, ne) = (mu.entries(), nu.entries());
    let n = me.len();
    let mut in_s = vec![false; n];
    in_s[i0] = true;
    loop {
        let mut in_r = vec![false; ne.len()];
        for i in (0..n).filter(|&i| in_s[i]) {
            for &j in &adj[i] {
                in_r[j] = true;
            }
        }
        let mass_s = (0..n)
            .filter(|&i| in_s[i])
            .fold(Rational::ZERO, |a, i| a + &me[i].1);
        let mass_r = (0..ne.len())
            .filter(|&j| in_r[j])
            .fold(Rational::ZERO, |a, j| a + &ne[j].1);
        if mass_s > mass_r {
            return (0..n).filter(|&i| in_s[i]).map(|i| me[i].0).collect();
        }
        let mut grew = false;
        for i in 0..n {
            if !in_s[i] && (0..ne.len()).any(|j| in_r[j] && flow[i][j].is_positive()) {
                in_s[i] = true;
                grew = true;
            }
        }
        if !grew {
            // Impossible for a maximum flow (see the module docs); returning the closure
            // lets the independent counterexample checker catch it rather than looping.
            debug_assert!(
                false,
                "alternating closure stopped without a Hall violation"
            );
            return (0..n).filter(|&i| in_s[i]).map(|i| me[i].0).collect();
        }
    }
}

/// `μ(X) > ν(R(X))`: whether `x` is a Hall violator (used by tests and checkers).
pub fn is_hall_violator(
    mu: &Dist,
    nu: &Dist,
    related: &dyn Fn(StateId, StateId) -> bool,
    x: &[StateId],
) -> bool {
    let mass_x = x.iter().fold(Rational::ZERO, |a, &s| a + mu.prob(s));
    let mass_r = nu
        .entries()
        .iter()
        .filter(|(t, _)| x.iter().any(|&s| related(s, *t)))
        .fold(Rational::ZERO, |a, e| a + &e.1);
    mass_x > mass_r
}
