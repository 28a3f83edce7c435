//! Terms detached from their store, to move formulas between stores.
//!
//! The portfolio runs every engine on its own clone of one [`TermStore`]: ids of the terms
//! built before the clone mean the same in every clone, ids built after do not. A lemma one
//! engine learned is built after the clone, over variables of that engine (its predicate
//! parameters), so it is moved as a [`Detached`] term: the DAG in topological order with the
//! parameters numbered by position. Attaching it to another store over that store's
//! parameters rebuilds it there (hash-consed, so shared subterms stay shared).
//!
//! Both directions walk the DAG with explicit stacks: lemmas can be deep.

use crate::term::{Op, Sort, TermId, TermStore, VarId};
use rustc_hash::FxHashMap;

/// A quantifier-free, predicate-free formula over positional parameters, independent of any
/// store. Built by [`Detached::detach`], rebuilt by [`Detached::attach`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Detached {
    /// Nodes in topological order (arguments first); `Op::Var(VarId(i))` is parameter `i`;
    /// arguments are indices into this vector. The last node is the root.
    nodes: Vec<(Op, Box<[u32]>, Sort)>,
}

impl Detached {
    /// `t` with the variables `params` replaced by their positions; `None` if `t` has another
    /// variable, a predicate application or a quantifier (such a term does not mean the same
    /// outside the store or the predicate it came from).
    pub fn detach(store: &TermStore, t: TermId, params: &[VarId]) -> Option<Detached> {
        let pos: FxHashMap<VarId, u32> = params
            .iter()
            .enumerate()
            .map(|(i, v)| (*v, i as u32))
            .collect();
        let mut index: FxHashMap<TermId, u32> = FxHashMap::default();
        let mut nodes = Vec::new();
        // (term, arguments already pushed)
        let mut stack = vec![(t, false)];
        while let Some((u, expanded)) = stack.pop() {
            if index.contains_key(&u) {
                continue;
            }
            let term = store.get(u);
            if !expanded {
                match &term.op {
                    Op::App(_) | Op::Forall(_) | Op::Exists(_) => return None,
                    Op::Var(v) if !pos.contains_key(v) => return None,
                    _ => {}
                }
                stack.push((u, true));
                for &a in term.args.iter().rev() {
                    if !index.contains_key(&a) {
                        stack.push((a, false));
                    }
                }
                continue;
            }
            let op = match &term.op {
                Op::Var(v) => Op::Var(VarId(pos[v])),
                op => op.clone(),
            };
            let args = term.args.iter().map(|a| index[a]).collect();
            index.insert(u, nodes.len() as u32);
            nodes.push((op, args, term.sort));
        }
        Some(Detached { nodes })
    }

    /// The formula rebuilt in `store` with parameter `i` replaced by `params[i]`; `None` if
    /// `params` is too short or a parameter's sort differs from the detached one.
    pub fn attach(&self, store: &mut TermStore, params: &[VarId]) -> Option<TermId> {
        let mut ids: Vec<TermId> = Vec::with_capacity(self.nodes.len());
        for (op, args, sort) in &self.nodes {
            let id = match op {
                Op::Var(VarId(i)) => {
                    let v = *params.get(*i as usize)?;
                    if store.var_sort(v) != *sort {
                        return None;
                    }
                    store.mk_var(v)
                }
                op => {
                    let a: Vec<TermId> = args.iter().map(|&k| ids[k as usize]).collect();
                    store.mk_raw(op.clone(), &a, *sort)
                }
            };
            ids.push(id);
        }
        ids.last().copied()
    }

    /// Number of DAG nodes.
    pub fn size(&self) -> usize {
        self.nodes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_between_stores() {
        let mut a = TermStore::new();
        let x = a.var("x", Sort::Int);
        let y = a.var("y", Sort::Int);
        let (tx, ty) = (a.mk_var(x), a.mk_var(y));
        let one = a.mk_int(1);
        let s = a.mk_add(&[tx, one]);
        let le = a.mk_le(s, ty);
        let ge = a.mk_ge(s, ty);
        let f = a.mk_or(&[le, ge]);
        let d = Detached::detach(&a, f, &[x, y]).unwrap();
        assert_eq!(d.size(), 7);

        let mut b = TermStore::new();
        let _noise = b.var("noise", Sort::Real);
        let p = b.var("p", Sort::Int);
        let q = b.var("q", Sort::Int);
        let g = d.attach(&mut b, &[p, q]).unwrap();
        let (tp, tq) = (b.mk_var(p), b.mk_var(q));
        let one = b.mk_int(1);
        let s = b.mk_add(&[tp, one]);
        let le = b.mk_le(s, tq);
        let ge = b.mk_ge(s, tq);
        let expected = b.mk_or(&[le, ge]);
        assert_eq!(g, expected);
        // Wrong sort or too few parameters: refused.
        let r = b.var("r", Sort::Real);
        assert_eq!(d.attach(&mut b, &[r, q]), None);
        assert_eq!(d.attach(&mut b, &[p]), None);
    }

    #[test]
    fn foreign_variables_are_refused() {
        let mut a = TermStore::new();
        let x = a.var("x", Sort::Int);
        let z = a.var("z", Sort::Int);
        let (tx, tz) = (a.mk_var(x), a.mk_var(z));
        let f = a.mk_le(tx, tz);
        assert!(Detached::detach(&a, f, &[x]).is_none());
        let q = a.mk_quant(true, &[z], f);
        assert!(Detached::detach(&a, q, &[x]).is_none());
    }

    #[test]
    fn deep_terms_need_no_recursion() {
        let mut a = TermStore::new();
        let x = a.var("x", Sort::Bool);
        let mut t = a.mk_var(x);
        for _ in 0..200_000 {
            t = a.mk_raw(Op::Not, &[t], Sort::Bool);
        }
        let d = Detached::detach(&a, t, &[x]).unwrap();
        let mut b = TermStore::new();
        let y = b.var("y", Sort::Bool);
        let u = d.attach(&mut b, &[y]).unwrap();
        assert_eq!(b.len(), a.len());
        assert_eq!(b.sort(u), Sort::Bool);
    }
}
