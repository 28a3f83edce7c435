//! Read-over-write expansion: every read of a written array becomes a case split on the
//! written indices, down to reads of arrays that are not writes.
//!
//! `(select (store a j v) i)` is `(ite (= j i) v (select a i))`, a read of an `ite` of
//! arrays is the `ite` of the reads, and a read of a constant array is its value. After the
//! rewrite, arrays are read only where they are variables (or other opaque terms) and
//! written only where they are compared whole. Why: a decision procedure that instantiates
//! the read-over-write axiom lazily, candidate by candidate, pays a full search per round;
//! on the certificate check of a Solidity constructor (nested arrays written through chains
//! of `store`s, read back at witness indices three levels deep) that was 30 rounds and
//! 800,000 decisions, where the expanded query has no write left to reason about.
//!
//! On the way, a write under a write at the same index is dropped and an `ite` branch that
//! repeats its parent's test takes the side already chosen. The result is equivalent to the
//! input (each step is a valid equation of the theory of arrays). Its size is bounded by the number of (array, index) pairs read, which a budget
//! caps: past it the expansion is given up.

use crate::term::{Op, TermId, TermStore};
use rustc_hash::FxHashMap;

enum Task {
    /// Rewrite a term (`true`: its arguments are done).
    Term(TermId, bool),
    /// Read an already rewritten array at an already rewritten index.
    Read(TermId, TermId, bool),
}

/// `t` with every read of a write, of an `ite` of arrays or of a constant array expanded
/// (module docs); `None` when `t` has a quantifier or the expansion would build more than
/// `budget` new terms. Iterative: deep store chains cannot overflow the stack.
pub fn expand_reads(store: &mut TermStore, t: TermId, budget: usize) -> Option<TermId> {
    let mut memo: FxHashMap<TermId, TermId> = FxHashMap::default();
    let mut reads: FxHashMap<(TermId, TermId), TermId> = FxHashMap::default();
    let mut built = 0usize;
    let mut stack = vec![Task::Term(t, false)];
    while let Some(task) = stack.pop() {
        built += 1;
        if built > budget {
            return None;
        }
        match task {
            Task::Term(t, false) => {
                if memo.contains_key(&t) {
                    continue;
                }
                match store.op(t) {
                    Op::Forall(_) | Op::Exists(_) => return None,
                    _ if store.args(t).is_empty() => {
                        memo.insert(t, t);
                    }
                    _ => {
                        stack.push(Task::Term(t, true));
                        for &a in store.args(t) {
                            if !memo.contains_key(&a) {
                                stack.push(Task::Term(a, false));
                            }
                        }
                    }
                }
            }
            Task::Term(t, true) => {
                if memo.contains_key(&t) {
                    continue;
                }
                let args: Vec<TermId> = store.args(t).iter().map(|a| memo[a]).collect();
                let op = store.op(t).clone();
                if matches!(op, Op::Select) {
                    match reads.get(&(args[0], args[1])) {
                        Some(&r) => {
                            memo.insert(t, r);
                        }
                        None => {
                            stack.push(Task::Term(t, true));
                            stack.push(Task::Read(args[0], args[1], false));
                        }
                    }
                    continue;
                }
                let r = match op {
                    Op::Store => write(store, args[0], args[1], args[2]),
                    Op::Ite => ite(store, args[0], args[1], args[2]),
                    _ if args.as_slice() == store.args(t) => t,
                    _ => {
                        let sort = store.sort(t);
                        crate::subst::rebuild(store, &op, &args, sort)
                    }
                };
                memo.insert(t, r);
            }
            Task::Read(a, i, done) => {
                if reads.contains_key(&(a, i)) {
                    continue;
                }
                let args = store.args(a).to_vec();
                // The arrays whose reads at `i` this one is made of.
                let parts: &[TermId] = match store.op(a) {
                    Op::Store if args[1] == i => &[],
                    Op::Store => &args[..1],
                    Op::Ite => &args[1..],
                    _ => &[],
                };
                if !done && parts.iter().any(|&p| !reads.contains_key(&(p, i))) {
                    stack.push(Task::Read(a, i, true));
                    for &p in parts {
                        stack.push(Task::Read(p, i, false));
                    }
                    continue;
                }
                let r = match store.op(a) {
                    Op::ConstArray => args[0],
                    Op::Store if args[1] == i => args[2],
                    Op::Store => {
                        let below = reads[&(args[0], i)];
                        if store.is_value_const(args[1]) && store.is_value_const(i) {
                            below
                        } else {
                            let hit = store.mk_eq(args[1], i);
                            ite(store, hit, args[2], below)
                        }
                    }
                    Op::Ite => {
                        let (x, y) = (reads[&(args[1], i)], reads[&(args[2], i)]);
                        ite(store, args[0], x, y)
                    }
                    _ => store.mk_select(a, i),
                };
                reads.insert((a, i), r);
            }
        }
    }
    Some(memo[&t])
}

/// `(store a i v)` without the writes at `i` under it, which it hides.
fn write(store: &mut TermStore, a: TermId, i: TermId, v: TermId) -> TermId {
    let mut a = a;
    while matches!(store.op(a), Op::Store) && store.args(a)[1] == i {
        a = store.args(a)[0];
    }
    store.mk_store(a, i, v)
}

/// `(ite c a b)` where a branch that tests `c` again takes the side `c` already chose
/// (solc's constructors, translated back, nest one index test a dozen times).
fn ite(store: &mut TermStore, c: TermId, a: TermId, b: TermId) -> TermId {
    let (mut a, mut b) = (a, b);
    while matches!(store.op(a), Op::Ite) && store.args(a)[0] == c {
        a = store.args(a)[1];
    }
    while matches!(store.op(b), Op::Ite) && store.args(b)[0] == c {
        b = store.args(b)[2];
    }
    store.mk_ite(c, a, b)
}

/// `t` with every write under a write at the same constant index dropped
/// (`(store (store a 0 x) 0 y)` is `(store a 0 y)`). Quantified subterms are kept as they
/// are. The result is equivalent to `t` and never larger. Iterative over the DAG.
///
/// # Why
/// solc's constructors write a nested array through one copy per statement, and inlining
/// the blocks of a constructor into one clause leaves chains such as
/// `(store (store (store m 0 a1) 0 a2) 0 a3)` with the whole history of `m[0]` in them;
/// every query of an engine over that clause then reasons about writes that no read sees
/// (Spacer ran to the limit on `nested_arrays_mappings_3`, 84 writes in one fact). Writes
/// at symbolic indices are left alone: on TriCera's heap encodings the fold moved Spacer off
/// the path to a counterexample (`tree-2` of ADT-LIA-Arrays, lost), and solc's positions
/// inside a value are numerals.
pub fn fold_writes(store: &mut TermStore, t: TermId) -> TermId {
    let mut memo: FxHashMap<TermId, TermId> = FxHashMap::default();
    let mut stack = vec![(t, false)];
    while let Some((u, done)) = stack.pop() {
        if memo.contains_key(&u) {
            continue;
        }
        let op = store.op(u).clone();
        if store.args(u).is_empty() || matches!(op, Op::Forall(_) | Op::Exists(_)) {
            memo.insert(u, u);
            continue;
        }
        if !done {
            stack.push((u, true));
            for &a in store.args(u) {
                if !memo.contains_key(&a) {
                    stack.push((a, false));
                }
            }
            continue;
        }
        let args: Vec<TermId> = store.args(u).iter().map(|a| memo[a]).collect();
        let r = match op {
            Op::Store if store.is_value_const(args[1]) => write(store, args[0], args[1], args[2]),
            _ if args.as_slice() == store.args(u) => u,
            _ => {
                let sort = store.sort(u);
                crate::subst::rebuild(store, &op, &args, sort)
            }
        };
        memo.insert(u, r);
    }
    memo[&t]
}
