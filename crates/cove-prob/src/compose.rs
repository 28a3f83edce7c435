//! Parallel composition `L1 ∥ L2` (thesis Definition 12).
//!
//! Shared actions (in both alphabets) synchronize and move with the product distribution
//! `μ1 ⊗ μ2`; an action in only one alphabet moves that component alone, the other one
//! staying put (`μ1 ⊗ δ_{s2}` or `δ_{s1} ⊗ μ2`). Only the part reachable from
//! `(s1⁰, s2⁰)` is built: it is simulation equivalent to the full product from the start
//! state. Every state and transition of the result remembers where it came from
//! ([`Product::pairs`], [`Product::origin`]); AGAR's `PROJECT` relies on this.

use crate::lpts::{Dist, Lpts, StateId, TransId};
use std::collections::HashMap;

/// The reachable product of two LPTSes with its bookkeeping.
#[derive(Clone, Debug)]
pub struct Product {
    /// The composed LPTS; alphabet `α1 ∪ α2`.
    pub lpts: Lpts,
    /// `pairs[s] = (s1, s2)`: the component states of product state `s`.
    pub pairs: Vec<(StateId, StateId)>,
    /// `origin[t] = (t1, t2)`: the component transitions that product transition `t` is
    /// built from; `None` for a component that does not move.
    pub origin: Vec<(Option<TransId>, Option<TransId>)>,
}

/// The composition was abandoned because it grew past the state limit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("parallel composition exceeds {limit} states")]
pub struct TooLarge {
    /// The limit that was hit.
    pub limit: usize,
}

/// `L1 ∥ L2`, reachable part, without a size limit.
pub fn compose(l1: &Lpts, l2: &Lpts) -> Product {
    compose_limited(l1, l2, usize::MAX).expect("no limit")
}

/// `L1 ∥ L2`, reachable part; fails once more than `limit` states would be built.
pub fn compose_limited(l1: &Lpts, l2: &Lpts, limit: usize) -> Result<Product, TooLarge> {
    Ok(compose_polled(l1, l2, limit, &|| false)?.expect("never stopped"))
}

/// [`compose_limited`], polling `stop` every 4096 product states; `Ok(None)` when it
/// returned true (a time or memory limit, or an interruption: products reach millions of
/// states, so a limit must hold while one is built).
pub fn compose_polled(
    l1: &Lpts,
    l2: &Lpts,
    limit: usize,
    stop: &dyn Fn() -> bool,
) -> Result<Option<Product>, TooLarge> {
    let name = |s1: StateId, s2: StateId| format!("{}|{}", l1.state_name(s1), l2.state_name(s2));
    let (i1, i2) = (l1.initial(), l2.initial());
    let mut lpts = Lpts::new(name(i1, i2));
    for a in l1.actions().iter().chain(l2.actions()) {
        lpts.add_action(a);
    }
    // Action maps: l1 action -> (product action, l2 action if shared), and vice versa.
    let a1: Vec<(usize, Option<usize>)> = l1
        .actions()
        .iter()
        .map(|a| (lpts.action_id(a).unwrap(), l2.action_id(a)))
        .collect();
    let a2: Vec<(usize, Option<usize>)> = l2
        .actions()
        .iter()
        .map(|a| (lpts.action_id(a).unwrap(), l1.action_id(a)))
        .collect();
    let mut index: HashMap<(StateId, StateId), StateId> = HashMap::new();
    index.insert((i1, i2), 0);
    let mut pairs = vec![(i1, i2)];
    let mut origin = Vec::new();
    let mut next = 0;
    while next < pairs.len() {
        let (s1, s2) = pairs[next];
        let src = next;
        next += 1;
        if next.is_multiple_of(4096) && stop() {
            return Ok(None);
        }
        let mut moves: Vec<(usize, Option<TransId>, Option<TransId>)> = Vec::new();
        for &t1 in l1.outgoing(s1) {
            let (pa, shared) = a1[l1.transition(t1).action];
            match shared {
                None => moves.push((pa, Some(t1), None)),
                Some(b) => {
                    for &t2 in l2.outgoing(s2) {
                        if l2.transition(t2).action == b {
                            moves.push((pa, Some(t1), Some(t2)));
                        }
                    }
                }
            }
        }
        for &t2 in l2.outgoing(s2) {
            let (pa, shared) = a2[l2.transition(t2).action];
            if shared.is_none() {
                moves.push((pa, None, Some(t2)));
            }
        }
        for (pa, t1, t2) in moves {
            let d1 = t1.map_or_else(|| Dist::dirac(s1), |t| l1.transition(t).dist.clone());
            let d2 = t2.map_or_else(|| Dist::dirac(s2), |t| l2.transition(t).dist.clone());
            for u in d1.support() {
                for v in d2.support() {
                    if let std::collections::hash_map::Entry::Vacant(e) = index.entry((u, v)) {
                        if pairs.len() >= limit {
                            return Err(TooLarge { limit });
                        }
                        e.insert(lpts.add_state(name(u, v)));
                        pairs.push((u, v));
                    }
                }
            }
            let dist = d1.product(&d2, |u, v| index[&(u, v)]);
            let before = lpts.num_transitions();
            let t = lpts.add_transition(src, pa, dist);
            if t == before {
                origin.push((t1, t2));
            }
        }
    }
    Ok(Some(Product {
        lpts,
        pairs,
        origin,
    }))
}
