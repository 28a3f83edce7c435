//! Quantifiers in the certificate checker: existential ones become witnesses
//! ([`skolemize`], exact), universal ones finite conjunctions of instances ([`instantiate`],
//! a weakening).
//!
//! An invariant like `∀k. 0 ≤ k < len ⇒ a[k] = 42` (an array of which every cell below the
//! length holds 42) is a fact the checked clause may *use* (in its body: universal) or must
//! *establish* (in its head: existential once negated, so skolemized to a fresh cell, an
//! exact step). What remains are the uses, which the SMT core cannot decide as they
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

/// What [`by_polarity`] does with a quantifier it meets.
enum Rewrite {
    /// Leave it as it is.
    Keep,
    /// Put this term in its place, as it is.
    With(TermId),
    /// Put this term in its place, rewritten in the same polarity.
    Into(TermId),
}

/// `t` with each quantifier in a Boolean position of known polarity (under `and`, `or`,
/// `not`, `=>`; positions inside `=`, `xor`, `ite` conditions and non-Boolean terms have
/// both and are left alone) rewritten as `on_quantifier(store, quantifier, positive)` says.
/// Iterative over the Boolean structure, memoized per (term, polarity): one formula met
/// twice in one polarity is rewritten once.
fn by_polarity(
    store: &mut TermStore,
    t: TermId,
    mut on_quantifier: impl FnMut(&mut TermStore, TermId, bool) -> Rewrite,
) -> TermId {
    let mut memo: FxHashMap<(TermId, bool), TermId> = FxHashMap::default();
    // The term a quantifier was rewritten into, rewritten in turn before it is used.
    let mut into: FxHashMap<(TermId, bool), TermId> = FxHashMap::default();
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
            Op::Forall(_) | Op::Exists(_) if done => {
                let r = memo[&(into[&(u, pos)], pos)];
                memo.insert((u, pos), r);
            }
            Op::Forall(_) | Op::Exists(_) => match on_quantifier(store, u, pos) {
                Rewrite::Keep => {
                    memo.insert((u, pos), u);
                }
                Rewrite::With(r) => {
                    memo.insert((u, pos), r);
                }
                Rewrite::Into(r) => {
                    into.insert((u, pos), r);
                    stack.push((u, pos, true));
                    stack.push((r, pos, false));
                }
            },
            _ => {
                memo.insert((u, pos), u);
            }
        }
    }
    memo[&(t, true)]
}

/// `t` with every quantifier in a position where it is existential (a `forall` under an odd
/// number of negations, an `exists` under an even number) replaced by its body over fresh
/// variables. Satisfiable exactly when `t` is: a model of `t` extends by the witnesses, and a
/// model of the result is one of `t`. One formula met twice in one polarity gets one witness,
/// which is all either occurrence needs.
pub(crate) fn skolemize(store: &mut TermStore, t: TermId) -> TermId {
    by_polarity(store, t, |store, q, pos| {
        let (vs, universal) = match store.op(q) {
            Op::Forall(vs) => (vs.clone(), true),
            Op::Exists(vs) => (vs.clone(), false),
            _ => unreachable!("a quantifier"),
        };
        if universal == pos {
            return Rewrite::Keep;
        }
        let map: FxHashMap<VarId, TermId> = vs
            .iter()
            .map(|&v| {
                let (name, sort) = (store.var_name(v).to_string(), store.var_sort(v));
                let k = store.fresh_var(&format!("{name}!witness"), sort);
                (v, store.mk_var(k))
            })
            .collect();
        let body = store.args(q)[0];
        // The instance stands in for the quantifier, its own quantifiers decided in turn.
        Rewrite::Into(cove_logic::substitute(store, body, &map))
    })
}

/// Whether `t` has a quantifier anywhere (iteratively over the DAG).
pub(crate) fn mentions_quantifier(store: &TermStore, t: TermId) -> bool {
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

/// `t` with its quantifiers replaced by instances at its index set, after skolemizing it;
/// `None` when a quantifier is left under a connective without polarity (`=`, `ite`, …) or
/// after [`ROUNDS`] rounds. The result is implied by `t`.
pub(crate) fn instantiate(store: &mut TermStore, t: TermId) -> Option<TermId> {
    let mut t = t;
    for round in 0..ROUNDS {
        // An existential met under an instantiated universal (`∀j ∃k`, the negated head
        // `∃j ∀k` of a summary) gets its witness, which joins the index set; while such
        // nesting remains, the universals stay beside their instances, so the next round
        // instantiates them at the new witnesses as well.
        t = skolemize(store, t);
        if !mentions_quantifier(store, t) {
            return Some(t);
        }
        let index = index_set(store, t);
        let keep = round + 1 < ROUNDS && has_nested_quantifier(store, t);
        t = replace(store, t, &index, keep);
    }
    t = skolemize(store, t);
    (!mentions_quantifier(store, t)).then_some(t)
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
fn replace(
    store: &mut TermStore,
    t: TermId,
    index: &FxHashMap<Sort, Vec<TermId>>,
    keep: bool,
) -> TermId {
    by_polarity(store, t, |store, q, pos| {
        let (vs, universal) = match store.op(q) {
            Op::Forall(vs) => (vs.clone(), true),
            Op::Exists(vs) => (vs.clone(), false),
            _ => unreachable!("a quantifier"),
        };
        if universal != pos {
            return Rewrite::Keep;
        }
        let body = store.args(q)[0];
        let mut insts = instances(store, &vs, body, index);
        if keep {
            insts.push(q);
        }
        // `∀` (positive) is weakened to a conjunction of instances; `∃` under a negation is
        // strengthened to a disjunction, which the negation weakens.
        Rewrite::With(if pos {
            store.mk_and(&insts)
        } else {
            store.mk_or(&insts)
        })
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use cove_logic::{Op, free_vars};

    #[test]
    fn existential_quantifiers_become_witnesses_and_universal_ones_stay() {
        let mut st = TermStore::new();
        let arr = Sort::array(Sort::Int, Sort::Int);
        let (a, b, i) = (st.var("a", arr), st.var("b", arr), st.var("i", Sort::Int));
        let (at, bt, it) = (st.mk_var(a), st.mk_var(b), st.mk_var(i));
        let (ai, bi) = (st.mk_select(at, it), st.mk_select(bt, it));
        let eq = st.mk_eq(ai, bi);
        let all = st.mk_quant(true, &[i], eq);
        // Body `∀i. a[i] = b[i]` (a use) and head `¬∀i. a[i] = b[i]` (a witness to find).
        let head = st.mk_not(all);
        let q = st.mk_and(&[all, head]);
        let s = skolemize(&mut st, q);
        let args = st.args(s).to_vec();
        assert_eq!(args[0], all, "a universal fact is kept");
        let Op::Not = st.op(args[1]) else {
            panic!("the negation stays")
        };
        let inst = st.args(args[1])[0];
        assert!(
            matches!(st.op(inst), Op::Eq),
            "the negated forall is instantiated"
        );
        let fv = free_vars(&st, inst);
        assert!(
            !fv.contains(&i) && fv.len() == 3,
            "one fresh witness: {fv:?}"
        );
        // Under `=>` the premise flips: `(∀i. P) ⇒ ∃i. P` is `(∃i. ¬P) ∨ ∃i. P`, both
        // existential.
        let ex = st.mk_quant(false, &[i], eq);
        let imp = st.mk_implies(all, ex);
        let s = skolemize(&mut st, imp);
        let mut stack = vec![s];
        let mut foralls = 0;
        while let Some(t) = stack.pop() {
            assert!(!matches!(st.op(t), Op::Exists(_)), "an existential is left");
            foralls += matches!(st.op(t), Op::Forall(_)) as usize;
            stack.extend_from_slice(st.args(t));
        }
        assert_eq!(foralls, 0, "the premise's universal is a witness too");
    }
}
