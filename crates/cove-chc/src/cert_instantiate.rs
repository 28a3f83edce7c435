//! Quantified invariants in the certificate checker: the universal quantifiers left after
//! skolemization become finite conjunctions of instances.
//!
//! An invariant like `∀k. 0 ≤ k < len ⇒ a[k] = 42` (an array of which every cell below the
//! length holds 42) is a fact the checked clause may *use* (in its body: universal) or must
//! *establish* (in its head: existential once negated, so skolemized to a fresh cell before
//! this module runs). What remains are the uses, which the SMT core cannot decide as they
//! are. Each is replaced by its instances at the query's *index set*: the indices the query
//! reads or writes arrays at, outside any quantifier (the skolem cells among them). This is
//! the decision procedure of Bradley, Manna and Sipma's array property fragment (VMCAI 2006)
//! for invariants in that fragment, and a sound weakening for any other: an instance is
//! implied by its quantifier, so the instantiated query is implied by the original one, and
//! its unsatisfiability proves the clause. A model of it need not refute the clause: the
//! checker then calls the clause undecided, never invalid.

use cove_logic::{Op, Sort, TermId, TermStore, VarId};
use rustc_hash::{FxHashMap, FxHashSet};

/// Rounds of instantiation: a quantifier nested in another's body is met in the next round.
const ROUNDS: usize = 3;

/// At most this many instances of one quantifier (tuples of index terms); more are dropped,
/// which keeps the check sound (fewer facts) at the price of completeness.
const MAX_INSTANCES: usize = 256;

/// `t` (skolemized: every quantifier left is universal in its polarity) with its
/// quantifiers replaced by instances at its index set; `None` when `t` has a quantifier
/// under a connective without polarity (`=`, `ite`, …) or left after [`ROUNDS`] rounds.
/// The result is implied by `t`.
pub(crate) fn instantiate(store: &mut TermStore, t: TermId) -> Option<TermId> {
    let mut t = t;
    for round in 0..ROUNDS {
        // An existential met under an instantiated universal (`∀j ∃k`, the negated head
        // `∃j ∀k` of a summary) gets its witness, which joins the index set; while such
        // nesting remains, the universals stay beside their instances, so the next round
        // instantiates them at the new witnesses as well.
        t = crate::cert::skolemize(store, t);
        if !has_quantifier(store, t) {
            return Some(t);
        }
        let index = index_set(store, t);
        let keep = round + 1 < ROUNDS && has_nested_quantifier(store, t);
        t = replace(store, t, &index, keep).0;
    }
    t = crate::cert::skolemize(store, t);
    (!has_quantifier(store, t)).then_some(t)
}

/// Whether a quantifier of `t` has another inside its body.
fn has_nested_quantifier(store: &TermStore, t: TermId) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack = vec![(t, false)];
    while let Some((u, inside)) = stack.pop() {
        if !seen.insert((u, inside)) {
            continue;
        }
        let q = matches!(store.op(u), Op::Forall(_) | Op::Exists(_));
        if q && inside {
            return true;
        }
        for &a in store.args(u) {
            stack.push((a, inside || q));
        }
    }
    false
}

/// The ground index terms of the array reads and writes of `t` (inside quantifiers too, when
/// they mention no bound variable), per index sort, in a deterministic order.
fn index_set(store: &TermStore, t: TermId) -> FxHashMap<Sort, Vec<TermId>> {
    let free: FxHashSet<VarId> = cove_logic::free_vars(store, t).into_iter().collect();
    let mut out: FxHashMap<Sort, Vec<TermId>> = FxHashMap::default();
    let mut seen = FxHashSet::default();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        if let Op::Select | Op::Store = store.op(u) {
            let i = store.args(u)[1];
            if cove_logic::free_vars(store, i)
                .iter()
                .all(|v| free.contains(v))
            {
                out.entry(store.sort(i)).or_default().push(i);
            }
        }
        stack.extend_from_slice(store.args(u));
    }
    for v in out.values_mut() {
        v.sort_unstable();
        v.dedup();
    }
    out
}

/// One round: every quantifier in a position where it is universal (a `forall` under an
/// even number of negations, an `exists` under an odd one) replaced by its instances at
/// `index` (a fresh constant for a sort without index terms); quantifiers inside their
/// bodies wait for the next round. With `keep`, each quantifier stays beside its instances.
/// Returns the result and whether a quantifier is left.
fn replace(
    store: &mut TermStore,
    t: TermId,
    index: &FxHashMap<Sort, Vec<TermId>>,
    keep: bool,
) -> (TermId, bool) {
    let mut memo: FxHashMap<(TermId, bool), TermId> = FxHashMap::default();
    let mut left = false;
    // (term, positive, children done)
    let mut stack = vec![(t, true, false)];
    while let Some((u, pos, done)) = stack.pop() {
        if memo.contains_key(&(u, pos)) {
            continue;
        }
        let op = store.op(u).clone();
        let args = store.args(u).to_vec();
        let arg_pol = |i: usize| -> bool {
            match op {
                Op::Not => !pos,
                Op::Implies if i + 1 < args.len() => !pos,
                _ => pos,
            }
        };
        match &op {
            Op::And | Op::Or | Op::Not | Op::Implies => {
                if !done {
                    stack.push((u, pos, true));
                    for (i, &a) in args.iter().enumerate() {
                        stack.push((a, arg_pol(i), false));
                    }
                    continue;
                }
                let new: Vec<TermId> = args
                    .iter()
                    .enumerate()
                    .map(|(i, &a)| memo[&(a, arg_pol(i))])
                    .collect();
                let r = if new == args {
                    u
                } else {
                    cove_logic::subst::rebuild(store, &op, &new, Sort::Bool)
                };
                memo.insert((u, pos), r);
            }
            Op::Forall(vs) | Op::Exists(vs) if matches!(op, Op::Forall(_)) == pos => {
                let mut insts = instances(store, vs, args[0], index);
                left |= keep || insts.iter().any(|&i| has_quantifier(store, i));
                if keep {
                    insts.push(u);
                }
                // `∀` (positive) is weakened to a conjunction of instances; `∃` under a
                // negation is strengthened to a disjunction, which the negation weakens.
                let r = if pos {
                    store.mk_and(&insts)
                } else {
                    store.mk_or(&insts)
                };
                memo.insert((u, pos), r);
            }
            _ => {
                left |= has_quantifier(store, u);
                memo.insert((u, pos), u);
            }
        }
    }
    (memo[&(t, true)], left)
}

/// The instances of `body` over the bound variables `vs` at tuples of index terms of their
/// sorts (at most [`MAX_INSTANCES`]).
fn instances(
    store: &mut TermStore,
    vs: &[VarId],
    body: TermId,
    index: &FxHashMap<Sort, Vec<TermId>>,
) -> Vec<TermId> {
    let mut tuples: Vec<Vec<TermId>> = vec![Vec::new()];
    for &v in vs {
        let sort = store.var_sort(v);
        let terms: Vec<TermId> = match index.get(&sort) {
            Some(ts) if !ts.is_empty() => ts.clone(),
            _ => {
                let c = store.fresh_var("inst", sort);
                vec![store.mk_var(c)]
            }
        };
        let mut next = Vec::with_capacity(tuples.len() * terms.len());
        'fill: for tup in &tuples {
            for &x in &terms {
                if next.len() == MAX_INSTANCES {
                    break 'fill;
                }
                let mut t = tup.clone();
                t.push(x);
                next.push(t);
            }
        }
        tuples = next;
    }
    tuples
        .into_iter()
        .map(|tup| {
            let map: FxHashMap<VarId, TermId> = vs.iter().copied().zip(tup).collect();
            cove_logic::substitute(store, body, &map)
        })
        .collect()
}

/// Whether `t` has a quantifier anywhere.
pub(crate) fn has_quantifier(store: &TermStore, t: TermId) -> bool {
    let mut seen = FxHashSet::default();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        if matches!(store.op(u), Op::Forall(_) | Op::Exists(_)) {
            return true;
        }
        stack.extend_from_slice(store.args(u));
    }
    false
}
