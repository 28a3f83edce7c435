//! Strong simulation (Definition 9) as a greatest fixed point with a worklist.
//!
//! [`Simulation::compute`] starts from all pairs whose actions are compatible and removes
//! a pair `(s1, s2)` once some `s1 −a→ μ1` has no `s2 −a→ μ2` with `μ1 ⊑_R μ2`. Removing a
//! pair can only break pairs `(p1, p2)` whose transitions reach `s1` and `s2`, so only those
//! are queued again (the "re-check only pairs whose successors changed" worklist). The
//! result is the coarsest strong simulation `⪯` (Lemma 12).
//!
//! # Witnesses
//! Every removal records *why*: the failing transition of `s1`, and for every candidate
//! `s2 −a→ ν` a Hall violator `S1^ν` together with `S2^ν = Supp(ν) ∖ R(S1^ν)` taken from
//! the relation at the time of removal. All pairs in `S1^ν × S2^ν` were removed earlier,
//! which is what makes the tree construction of Theorem 10 well founded
//! ([`crate::cex`]).
//!
//! [`naive_simulation`] is the literal COMPUTESIM of Fig. 4.8 (restart the scan after
//! every removal) and decides `⊑_R` by enumerating Hall sets ([`hall_related`]); it shares no
//! code with the fast version and
//! serves as the reference in tests and in the independent counterexample check.

use crate::flow::{DistRel, dist_related};
use crate::lpts::{ActionId, Dist, Lpts, StateId, TransId};
use cove_logic::Rational;
use std::collections::VecDeque;

/// A relation `R ⊆ S1 × S2` as a dense bit matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relation {
    n2: usize,
    bits: Vec<u64>,
}

impl Relation {
    /// The empty (`full = false`) or full relation on `n1 × n2`.
    pub fn new(n1: usize, n2: usize, full: bool) -> Relation {
        let words = (n1 * n2).div_ceil(64);
        let mut r = Relation {
            n2,
            bits: vec![if full { u64::MAX } else { 0 }; words],
        };
        if full && !(n1 * n2).is_multiple_of(64) {
            let last = words - 1;
            r.bits[last] = (1u64 << ((n1 * n2) % 64)) - 1;
        }
        r
    }

    /// Whether `(s1, s2) ∈ R`.
    pub fn contains(&self, s1: StateId, s2: StateId) -> bool {
        let k = s1 * self.n2 + s2;
        self.bits[k / 64] >> (k % 64) & 1 == 1
    }

    /// Adds or removes `(s1, s2)`.
    pub fn set(&mut self, s1: StateId, s2: StateId, v: bool) {
        let k = s1 * self.n2 + s2;
        if v {
            self.bits[k / 64] |= 1 << (k % 64);
        } else {
            self.bits[k / 64] &= !(1 << (k % 64));
        }
    }

    /// `R(s1)`, the states related to `s1`.
    pub fn image(&self, s1: StateId) -> Vec<StateId> {
        (0..self.n2).filter(|&s2| self.contains(s1, s2)).collect()
    }

    /// Number of pairs.
    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the relation is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Why a pair `(s1, s2)` is not in the simulation.
#[derive(Clone, Debug)]
pub struct Witness {
    /// The transition `s1 −a→ μ1` of the left LPTS that `s2` cannot match.
    pub trans: TransId,
    /// For every `s2 −a→ ν`: `(ν's transition, S1^ν, S2^ν)` with `S1^ν` a Hall violator
    /// and `S2^ν = Supp(ν) ∖ R(S1^ν)`, both for the relation at removal time. Empty when
    /// `s2` has no `a`-transition (the base case).
    pub violators: Vec<(TransId, Vec<StateId>, Vec<StateId>)>,
}

/// A weight function as `(s1, s2, w(s1, s2))` triples (the witness of [`DistRel::Related`]).
pub(crate) type Weights = Vec<(StateId, StateId, Rational)>;

/// `s2 −a→` transitions grouped per (state, left action) for fast lookup.
pub(crate) struct ActionIndex {
    /// `by[s2][a1]` = transitions of `s2` on the right action named like left action `a1`.
    pub by: Vec<Vec<Vec<TransId>>>,
}

impl ActionIndex {
    pub(crate) fn new(l1: &Lpts, l2: &Lpts) -> ActionIndex {
        let map: Vec<Option<usize>> = l1.actions().iter().map(|a| l2.action_id(a)).collect();
        let mut rev: Vec<Vec<usize>> = vec![Vec::new(); l2.actions().len()];
        for (a1, a2) in map.iter().enumerate() {
            if let Some(a2) = a2 {
                rev[*a2].push(a1);
            }
        }
        let mut by = vec![vec![Vec::new(); l1.actions().len()]; l2.num_states()];
        for (t, tr) in l2.transitions().iter().enumerate() {
            for &a1 in &rev[tr.action] {
                by[tr.src][a1].push(t);
            }
        }
        ActionIndex { by }
    }

    /// An index for the single right state `s2`, stored at position 0.
    pub(crate) fn for_state(l1: &Lpts, l2: &Lpts, s2: StateId) -> ActionIndex {
        let mut row = vec![Vec::new(); l1.actions().len()];
        for &t in l2.outgoing(s2) {
            let name = l2.action_name(l2.transition(t).action);
            if let Some(a1) = l1.action_id(name) {
                row[a1].push(t);
            }
        }
        ActionIndex { by: vec![row] }
    }

    /// The first transition of `l2` out of `s2` on (the counterpart of) left action `a1`
    /// whose distribution is related to `mu` under `related`, with the weight function that
    /// witnesses it; `None` if no such transition matches `mu`.
    pub(crate) fn first_match(
        &self,
        l2: &Lpts,
        s2: StateId,
        a1: ActionId,
        mu: &Dist,
        related: &dyn Fn(StateId, StateId) -> bool,
    ) -> Option<(TransId, Weights)> {
        self.by[s2][a1].iter().find_map(|&u| {
            match dist_related(mu, &l2.transition(u).dist, related) {
                DistRel::Related(w) => Some((u, w)),
                DistRel::Violator(_) => None,
            }
        })
    }
}

/// The coarsest strong simulation between two LPTSes, with removal times from which
/// witnesses are recomputed on demand ([`Simulation::witness`]).
///
/// Memory: one bit per pair for the relation and four bytes per pair for the removal
/// time, plus the worklist of pairs whose successors changed (eight bytes per queued pair).
/// No per-pair witness is stored: a witness is needed only along a counterexample, and the
/// relation at the moment a pair was removed is exactly the pairs not removed before it,
/// which the removal times give back.
pub struct Simulation {
    /// `⪯` restricted to `S1 × S2`.
    pub relation: Relation,
    /// `removed[s1 * n2 + s2]`: 0 while related, else the 1-based order of removal.
    removed: Vec<u32>,
    n2: usize,
    /// Number of pair checks performed (a work measure).
    pub checks: usize,
}

/// Checks one pair against `r`; `Ok(())` if every transition of `s1` is matched.
pub(crate) fn check_pair(
    l1: &Lpts,
    l2: &Lpts,
    idx: &ActionIndex,
    r: &dyn Fn(StateId, StateId) -> bool,
    s1: StateId,
    s2: StateId,
    want_witness: bool,
) -> Result<(), Witness> {
    for &t1 in l1.outgoing(s1) {
        check_transition(l1, l2, idx, r, t1, s2, want_witness)?;
    }
    Ok(())
}

/// Checks one transition `t1` of the left LPTS against the state `s2` (at `s2`'s position
/// in `idx`); `Err` with the witness if no transition of `s2` matches it.
fn check_transition(
    l1: &Lpts,
    l2: &Lpts,
    idx: &ActionIndex,
    r: &dyn Fn(StateId, StateId) -> bool,
    t1: TransId,
    s2: StateId,
    want_witness: bool,
) -> Result<(), Witness> {
    let tr1 = l1.transition(t1);
    let cands = &idx.by[s2][tr1.action];
    let mut violators = Vec::new();
    for &t2 in cands {
        let nu = &l2.transition(t2).dist;
        match dist_related(&tr1.dist, nu, r) {
            DistRel::Related(_) => return Ok(()),
            DistRel::Violator(x) if want_witness => {
                let s2v: Vec<StateId> = nu
                    .support()
                    .filter(|&v| !x.iter().any(|&u| r(u, v)))
                    .collect();
                violators.push((t2, x, s2v));
            }
            DistRel::Violator(_) => {}
        }
    }
    Err(Witness {
        trans: t1,
        violators,
    })
}

impl Simulation {
    /// Computes `⪯ ⊆ S1 × S2` with the worklist algorithm and records removal times.
    pub fn compute(l1: &Lpts, l2: &Lpts) -> Simulation {
        Self::compute_limited(l1, l2, &|| false).expect("never stopped")
    }

    /// As [`Simulation::compute`], polling `stop` every 4096 pair checks; `None` when it
    /// returned true.
    pub fn compute_limited(l1: &Lpts, l2: &Lpts, stop: &dyn Fn() -> bool) -> Option<Simulation> {
        let (n1, n2) = (l1.num_states(), l2.num_states());
        assert!(
            n1 < u32::MAX as usize && n2 < u32::MAX as usize,
            "state ids fit 32 bits"
        );
        let idx = ActionIndex::new(l1, l2);
        let mut r = Relation::new(n1, n2, true);
        let mut removed: Vec<u32> = vec![0; n1 * n2];
        let mut clock: u32 = 0;
        let preds = |l: &Lpts| {
            let mut p: Vec<Vec<u32>> = vec![Vec::new(); l.num_states()];
            for tr in l.transitions() {
                for s in tr.dist.support() {
                    if p[s].last() != Some(&(tr.src as u32)) {
                        p[s].push(tr.src as u32);
                    }
                }
            }
            for v in &mut p {
                v.sort_unstable();
                v.dedup();
            }
            p
        };
        let (pred1, pred2) = (preds(l1), preds(l2));
        // Base case first: a left action that the right state cannot do at all.
        for s1 in 0..n1 {
            for &t1 in l1.outgoing(s1) {
                let a = l1.transition(t1).action;
                for s2 in 0..n2 {
                    if r.contains(s1, s2) && idx.by[s2][a].is_empty() {
                        r.set(s1, s2, false);
                        clock += 1;
                        removed[s1 * n2 + s2] = clock;
                    }
                }
            }
        }
        let mut queued = Relation::new(n1, n2, false);
        let mut queue: VecDeque<(u32, u32)> = VecDeque::new();
        let mut checks = 0usize;
        // One sweep over all pairs, then the worklist of pairs whose successors changed
        // (never a queue of all n1·n2 pairs).
        let mut sweep = (0..n1)
            .filter(|&s1| !l1.outgoing(s1).is_empty()) // a deadlock is simulated by all
            .flat_map(|s1| (0..n2).map(move |s2| (s1, s2)));
        loop {
            let (s1, s2) = if let Some(p) = sweep.next() {
                p
            } else if let Some((a, b)) = queue.pop_front() {
                queued.set(a as usize, b as usize, false);
                (a as usize, b as usize)
            } else {
                break;
            };
            if !r.contains(s1, s2) {
                continue;
            }
            checks += 1;
            if checks.is_multiple_of(4096) && stop() {
                return None;
            }
            let rel = |u: StateId, v: StateId| r.contains(u, v);
            if check_pair(l1, l2, &idx, &rel, s1, s2, false).is_err() {
                r.set(s1, s2, false);
                clock += 1;
                removed[s1 * n2 + s2] = clock;
                for &p1 in &pred1[s1] {
                    for &p2 in &pred2[s2] {
                        let (p1, p2) = (p1 as usize, p2 as usize);
                        if r.contains(p1, p2) && !queued.contains(p1, p2) {
                            queued.set(p1, p2, true);
                            queue.push_back((p1 as u32, p2 as u32));
                        }
                    }
                }
            }
        }
        Some(Simulation {
            relation: r,
            removed,
            n2,
            checks,
        })
    }

    /// Whether `s1 ⪯ s2`.
    pub fn related(&self, s1: StateId, s2: StateId) -> bool {
        self.relation.contains(s1, s2)
    }

    /// Why `(s1, s2)` was removed: re-checks the pair against the relation as it was just
    /// before its removal (the pairs removed later, plus the final relation), which yields
    /// the same failing transition and Hall violators as at removal time. `None` when the
    /// pair is related.
    pub fn witness(&self, l1: &Lpts, l2: &Lpts, s1: StateId, s2: StateId) -> Option<Witness> {
        let t = self.removed[s1 * self.n2 + s2];
        if t == 0 {
            return None;
        }
        let n2 = self.n2;
        let rel = |u: StateId, v: StateId| {
            let x = self.removed[u * n2 + v];
            x == 0 || x >= t
        };
        // Single-state index: only s2's transitions are needed.
        let idx = ActionIndex::for_state(l1, l2, s2);
        match check_pair(l1, l2, &idx, &rel, s1, 0, true) {
            Err(w) => Some(w),
            Ok(()) => unreachable!("a removed pair fails against the relation at its removal"),
        }
    }

    /// Like [`Simulation::witness`], but one witness for *every* transition of `s1` that
    /// fails against the relation just before the pair's removal (at least one). Each
    /// witness's violator pairs were removed earlier, as for [`Simulation::witness`].
    pub fn witnesses(&self, l1: &Lpts, l2: &Lpts, s1: StateId, s2: StateId) -> Vec<Witness> {
        let t = self.removed[s1 * self.n2 + s2];
        if t == 0 {
            return Vec::new();
        }
        let n2 = self.n2;
        let rel = |u: StateId, v: StateId| {
            let x = self.removed[u * n2 + v];
            x == 0 || x >= t
        };
        let idx = ActionIndex::for_state(l1, l2, s2);
        l1.outgoing(s1)
            .iter()
            .filter_map(|&t1| check_transition(l1, l2, &idx, &rel, t1, 0, true).err())
            .collect()
    }
}

/// `L1 ⪯ L2` by the fast algorithm.
pub fn simulates(l1: &Lpts, l2: &Lpts) -> bool {
    Simulation::compute(l1, l2).related(l1.initial(), l2.initial())
}

/// The literal COMPUTESIM of Fig. 4.8: scan all pairs, remove the first failing one,
/// restart. Quadratically slower; the reference implementation for tests and checkers.
pub fn naive_simulation(l1: &Lpts, l2: &Lpts) -> Relation {
    let (n1, n2) = (l1.num_states(), l2.num_states());
    let mut r = Relation::new(n1, n2, true);
    loop {
        let mut converged = true;
        'scan: for s1 in 0..n1 {
            for s2 in 0..n2 {
                if !r.contains(s1, s2) {
                    continue;
                }
                let mut sim = true;
                for &t1 in l1.outgoing(s1) {
                    let tr1 = l1.transition(t1);
                    let name = l1.action_name(tr1.action);
                    sim = l2.outgoing(s2).iter().any(|&t2| {
                        let tr2 = l2.transition(t2);
                        l2.action_name(tr2.action) == name
                            && hall_related(&tr1.dist, &tr2.dist, &|u, v| r.contains(u, v))
                    });
                    if !sim {
                        break;
                    }
                }
                if !sim {
                    r.set(s1, s2, false);
                    converged = false;
                    break 'scan;
                }
            }
        }
        if converged {
            return r;
        }
    }
}

/// `μ ⊑_R ν` by the weighted Hall theorem (Lemma 11): `μ(X) ≤ ν(R(X))` for every
/// `X ⊆ Supp(μ)`. Exponential in the support size, independent of the max-flow code; falls
/// back to max-flow for supports above 16 states.
pub fn hall_related(mu: &Dist, nu: &Dist, related: &dyn Fn(StateId, StateId) -> bool) -> bool {
    let me = mu.entries();
    if me.len() > 16 {
        return dist_related(mu, nu, related).is_related();
    }
    let ne = nu.entries();
    for mask in 1u32..(1 << me.len()) {
        let mut mass_x = Rational::ZERO;
        let mut mass_r = Rational::ZERO;
        for (i, e) in me.iter().enumerate() {
            if mask >> i & 1 == 1 {
                mass_x += &e.1;
            }
        }
        for (t, q) in ne {
            if me
                .iter()
                .enumerate()
                .any(|(i, (s, _))| mask >> i & 1 == 1 && related(*s, *t))
            {
                mass_r += q;
            }
        }
        if mass_x > mass_r {
            return false;
        }
    }
    true
}

/// `L1 ⪯ L2` by the naive reference algorithm.
pub fn naive_simulates(l1: &Lpts, l2: &Lpts) -> bool {
    naive_simulation(l1, l2).contains(l1.initial(), l2.initial())
}
