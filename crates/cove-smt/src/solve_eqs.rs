//! Variable elimination by solved equalities (`solve-eqs`), with context solving.
//!
//! The assertions are read as a *skeleton* of `and`/`or` nodes (both positive, so the
//! formula is monotone in every skeleton node) whose leaves are all other terms. For every
//! variable `x` we compute the deepest skeleton node `L` below which all of its occurrences
//! lie. When `L` is a conjunction that has a leaf `x = t` (or the literal `x` / `(not x)`,
//! or a linear equality solvable for `x`) with `x` not in `t`, then `x := t` is substituted
//! (and the leaf dropped). This is sound in the following sense, which is all script mode
//! needs:
//!
//! * original ⇒ reduced: `L ≡ (x = t) ∧ rest` implies `rest[x:=t]`, and the formula is
//!   monotone in `L`;
//! * a model of the reduced assertions extended by `x := eval(t)` satisfies the original:
//!   under that value `L` and `L[x:=t]` agree, and `x` occurs nowhere else.
//!
//! When `L` is the top-level conjunction this is classic solve-eqs; below it (e.g. the
//! per-clause copies `(or (not sel) (and (= A@1 B@0) …))` of bounded unrollings) it is
//! z3's context solving. Because a local definition is *not* entailed globally, later
//! constraints mentioning an eliminated variable are not allowed: callers pass such
//! variables in `frozen`. Integer variables are only solved with coefficient ±1 and
//! integral right-hand sides, so values stay integral.
//!
//! Eliminations happen in rounds; within a round the chosen definitions are independent (no
//! defined variable occurs in any chosen right-hand side), so one memoized substitution
//! per round applies them all. Definitions are returned in elimination order: a right-hand
//! side mentions only variables eliminated in later rounds or not at all, so
//! [`resolve_definitions`] evaluates them in reverse order.

use cove_logic::subst::rebuild;
use cove_logic::{LinearSum, Op, Rational, Sort, TermId, TermStore, VarId, linearize, mk_linear};
use rustc_hash::{FxHashMap, FxHashSet};

/// Budgets that keep the elimination cheap and the terms small.
#[derive(Clone, Debug)]
pub struct SolveEqsLimits {
    /// Maximal number of elimination rounds.
    pub max_rounds: usize,
    /// A definition with `n` atoms for a variable occurring in `k` leaves is skipped when
    /// `n > 4`, `k > 2` and `n·k` exceeds this.
    pub max_growth: usize,
    /// Maximal number of skeleton nodes and leaves visited per round (the rest of a
    /// formula is treated as one leaf, which is conservative).
    pub max_nodes: usize,
}

impl Default for SolveEqsLimits {
    fn default() -> SolveEqsLimits {
        SolveEqsLimits {
            max_rounds: 32,
            max_growth: 64,
            max_nodes: 2_000_000,
        }
    }
}

/// The result of [`solve_eqs`].
#[derive(Clone, Debug, Default)]
pub struct Reduced {
    /// The reduced assertions (flattened conjuncts, `true` dropped).
    pub assertions: Vec<TermId>,
    /// `(x, t)` in elimination order; `t` mentions only variables that are not eliminated
    /// or eliminated later in this list.
    pub definitions: Vec<(VarId, TermId)>,
}

/// Eliminates variables defined by equalities in `assertions` (see the module docs).
/// Variables in `frozen` are never eliminated. Assertions with quantifiers disable the
/// elimination (the input is returned flattened).
pub fn solve_eqs(
    store: &mut TermStore,
    assertions: &[TermId],
    frozen: &FxHashSet<VarId>,
    limits: &SolveEqsLimits,
) -> Reduced {
    let mut cur = flatten(store, assertions);
    let mut definitions = Vec::new();
    for _ in 0..limits.max_rounds {
        if cur.len() == 1 && store.as_bool(cur[0]) == Some(false) {
            break;
        }
        let Some(skel) = Skeleton::build(store, &cur, limits.max_nodes) else {
            break;
        };
        let round = choose(store, &skel, frozen, limits);
        if round.defs.is_empty() {
            break;
        }
        let mut memo = round.seed;
        let next: Vec<TermId> = cur
            .iter()
            .map(|&a| subst_memo(store, a, &mut memo))
            .collect();
        cur = flatten(store, &next);
        definitions.extend(round.defs);
    }
    Reduced {
        assertions: cur,
        definitions,
    }
}

/// The definitions as one simultaneous map to terms over the variables that are not
/// eliminated: for a model `m` of the reduced assertions, `x ↦ eval(m, map[x])` extends it
/// to a model of the original ones.
pub fn resolve_definitions(
    store: &mut TermStore,
    definitions: &[(VarId, TermId)],
) -> FxHashMap<VarId, TermId> {
    let mut map: FxHashMap<VarId, TermId> = FxHashMap::default();
    for &(x, t) in definitions.iter().rev() {
        let r = cove_logic::substitute(store, t, &map);
        map.insert(x, r);
    }
    map
}

/// Top-level conjuncts, `true` dropped, a single `false` if any conjunct is `false`.
fn flatten(store: &mut TermStore, ts: &[TermId]) -> Vec<TermId> {
    let mut out = Vec::new();
    let mut seen = FxHashSet::default();
    let mut stack: Vec<TermId> = ts.iter().rev().copied().collect();
    while let Some(t) = stack.pop() {
        match store.op(t) {
            Op::And => stack.extend(store.args(t).iter().rev()),
            Op::Bool(true) => {}
            Op::Bool(false) => return vec![store.mk_false()],
            _ => {
                if seen.insert(t) {
                    out.push(t)
                }
            }
        }
    }
    out
}

struct Node {
    parent: usize,
    depth: u32,
    conj: bool,
}

/// The `and`/`or` skeleton of the assertions as a tree (node 0 is the top-level
/// conjunction; nested nodes of the same kind are merged), with every variable's lowest
/// common ancestor node and occurrence count. A shared `and`/`or` term is unfolded at its
/// first occurrence only and is a leaf elsewhere, so its variables also occur at those other
/// places: the lowest common ancestor moves up, which only ever forbids eliminations.
struct Skeleton {
    nodes: Vec<Node>,
    leaves: Vec<(usize, TermId)>,
    lca: FxHashMap<VarId, usize>,
    occ: FxHashMap<VarId, usize>,
}

impl Skeleton {
    fn build(store: &TermStore, roots: &[TermId], budget: usize) -> Option<Skeleton> {
        let mut sk = Skeleton {
            nodes: vec![Node {
                parent: 0,
                depth: 0,
                conj: true,
            }],
            leaves: Vec::new(),
            lca: FxHashMap::default(),
            occ: FxHashMap::default(),
        };
        let mut stack: Vec<(TermId, usize)> = roots.iter().map(|&r| (r, 0)).collect();
        // A shared `and`/`or` is unfolded once; its other occurrences are leaves.
        let mut unfolded: FxHashSet<TermId> = FxHashSet::default();
        while let Some((t, n)) = stack.pop() {
            let open = sk.nodes.len() + sk.leaves.len() <= budget && unfolded.insert(t);
            let conj = match store.op(t) {
                Op::And if open => true,
                Op::Or if open => false,
                _ => {
                    sk.leaves.push((n, t));
                    continue;
                }
            };
            let target = if sk.nodes[n].conj == conj {
                n
            } else {
                let depth = sk.nodes[n].depth + 1;
                sk.nodes.push(Node {
                    parent: n,
                    depth,
                    conj,
                });
                sk.nodes.len() - 1
            };
            stack.extend(store.args(t).iter().map(|&a| (a, target)));
        }
        let mut cache: FxHashMap<TermId, Vec<VarId>> = FxHashMap::default();
        let mut work = 0;
        for i in 0..sk.leaves.len() {
            let (n, t) = sk.leaves[i];
            if let std::collections::hash_map::Entry::Vacant(e) = cache.entry(t) {
                let vs = leaf_vars(store, t)?;
                work += vs.len() + 1;
                e.insert(vs);
            }
            if work > budget {
                return None;
            }
            for &v in &cache[&t] {
                *sk.occ.entry(v).or_insert(0) += 1;
                let l = match sk.lca.get(&v) {
                    Some(&l) => sk.meet(l, n),
                    None => n,
                };
                sk.lca.insert(v, l);
            }
        }
        Some(sk)
    }

    fn meet(&self, mut a: usize, mut b: usize) -> usize {
        while a != b {
            let (da, db) = (self.nodes[a].depth, self.nodes[b].depth);
            if da >= db {
                a = self.nodes[a].parent;
            }
            if db >= da {
                b = self.nodes[b].parent;
            }
        }
        a
    }
}

/// The variables of a leaf; `None` when it contains a quantifier.
fn leaf_vars(store: &TermStore, t: TermId) -> Option<Vec<VarId>> {
    let mut seen = FxHashSet::default();
    let mut out = Vec::new();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        match store.op(u) {
            Op::Var(v) => out.push(*v),
            Op::Forall(_) | Op::Exists(_) => return None,
            _ => stack.extend_from_slice(store.args(u)),
        }
    }
    Some(out)
}

struct Round {
    defs: Vec<(VarId, TermId)>,
    /// Substitution seed: variable terms to their definitions, defining leaves to `true`.
    seed: FxHashMap<TermId, TermId>,
}

/// Picks an independent set of definitions for one round.
fn choose(
    store: &mut TermStore,
    sk: &Skeleton,
    frozen: &FxHashSet<VarId>,
    limits: &SolveEqsLimits,
) -> Round {
    let mut round = Round {
        defs: Vec::new(),
        seed: FxHashMap::default(),
    };
    let mut defined: FxHashSet<VarId> = FxHashSet::default();
    let mut used: FxHashSet<VarId> = FxHashSet::default();
    for &(n, leaf) in &sk.leaves {
        if !sk.nodes[n].conj {
            continue;
        }
        let ok = |x: VarId| {
            sk.lca.get(&x) == Some(&n)
                && !frozen.contains(&x)
                && !defined.contains(&x)
                && !used.contains(&x)
        };
        let Some((x, t, atoms)) = candidate(store, leaf, &ok, &sk.occ) else {
            continue;
        };
        let occ = sk.occ.get(&x).copied().unwrap_or(0);
        if atoms > 4 && occ > 2 && atoms * occ > limits.max_growth {
            continue;
        }
        let tv = leaf_vars(store, t).unwrap_or_default();
        if tv.iter().any(|v| defined.contains(v) || *v == x) {
            continue;
        }
        defined.insert(x);
        used.extend(tv);
        let xt = store.mk_var(x);
        round.seed.insert(xt, t);
        let tru = store.mk_true();
        round.seed.insert(leaf, tru);
        round.defs.push((x, t));
    }
    round
}

/// A definition `(x, t, size of t)` read off the conjunct `leaf`, for a variable accepted
/// by `ok` (fewest occurrences first).
fn candidate(
    store: &mut TermStore,
    leaf: TermId,
    ok: &dyn Fn(VarId) -> bool,
    occ: &FxHashMap<VarId, usize>,
) -> Option<(VarId, TermId, usize)> {
    match store.op(leaf).clone() {
        Op::Var(x) if ok(x) => Some((x, store.mk_true(), 1)),
        Op::Not => {
            let x = store.as_var(store.args(leaf)[0])?;
            ok(x).then(|| (x, store.mk_false(), 1))
        }
        Op::Eq if store.args(leaf).len() == 2 => {
            let (a, b) = (store.args(leaf)[0], store.args(leaf)[1]);
            let sort = store.sort(a);
            if sort != store.sort(b) {
                return None;
            }
            // Booleans and bit-vectors: only `x = t` defines `x` (no arithmetic solving).
            if sort == Sort::Bool || sort.is_bv() {
                for (l, r) in [(a, b), (b, a)] {
                    if let Some(x) = store.as_var(l)
                        && ok(x)
                        && !leaf_vars(store, r)?.contains(&x)
                    {
                        return Some((x, r, 1));
                    }
                }
                return None;
            }
            solve_linear(store, a, b, sort, ok, occ)
        }
        _ => None,
    }
}

/// Solves `a = b` (sort Int or Real) for one of its variables.
fn solve_linear(
    store: &mut TermStore,
    a: TermId,
    b: TermId,
    sort: Sort,
    ok: &dyn Fn(VarId) -> bool,
    occ: &FxHashMap<VarId, usize>,
) -> Option<(VarId, TermId, usize)> {
    let mut lin = linearize(store, a);
    lin.add_scaled(&linearize(store, b), &-Rational::ONE);
    let int = sort == Sort::Int;
    if int && (!lin.constant.is_integer() || lin.terms.iter().any(|(_, c)| !c.is_integer())) {
        return None;
    }
    // Variables that also occur inside non-variable atoms cannot be solved for.
    let mut inside: FxHashSet<VarId> = FxHashSet::default();
    for (atom, _) in &lin.terms {
        if store.as_var(*atom).is_none() {
            inside.extend(leaf_vars(store, *atom)?);
        }
    }
    let mut best: Option<(usize, usize)> = None;
    for (i, (atom, c)) in lin.terms.iter().enumerate() {
        let Some(x) = store.as_var(*atom) else {
            continue;
        };
        if store.var_sort(x) != sort || inside.contains(&x) || !ok(x) {
            continue;
        }
        if int && !(c.is_one() || (-c).is_one()) {
            continue;
        }
        let k = occ.get(&x).copied().unwrap_or(0);
        if best.is_none_or(|(_, bk)| k < bk) {
            best = Some((i, k));
        }
    }
    let (i, _) = best?;
    let (atom, c) = lin.terms[i].clone();
    let x = store.as_var(atom)?;
    // c·x + rest = 0  ⇒  x = -rest / c
    let mut rest = LinearSum {
        terms: lin
            .terms
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, p)| p.clone())
            .collect(),
        constant: lin.constant.clone(),
    };
    rest.scale(&-c.recip());
    let n = rest.terms.len();
    Some((x, mk_linear(store, &rest, sort), n))
}

/// Substitution of terms by terms (seeded into `memo`), rebuilding with light folding.
/// Post-order with an explicit stack: terms can be nested arbitrarily deep.
fn subst_memo(store: &mut TermStore, t: TermId, memo: &mut FxHashMap<TermId, TermId>) -> TermId {
    let mut stack = vec![(t, false)];
    while let Some((u, expanded)) = stack.pop() {
        if memo.contains_key(&u) {
            continue;
        }
        let term = store.get(u).clone();
        if term.args.is_empty() {
            memo.insert(u, u);
        } else if expanded {
            let args: Vec<TermId> = term.args.iter().map(|a| memo[a]).collect();
            let r = if args[..] == term.args[..] {
                u
            } else {
                rebuild(store, &term.op, &args, term.sort)
            };
            memo.insert(u, r);
        } else {
            stack.push((u, true));
            for &a in term.args.iter().rev() {
                if !memo.contains_key(&a) {
                    stack.push((a, false));
                }
            }
        }
    }
    memo[&t]
}

#[cfg(test)]
mod tests {
    use super::*;
    use cove_logic::{Model, Value};

    #[test]
    fn chain_and_context_are_eliminated() {
        let mut s = TermStore::new();
        let v: Vec<VarId> = (0..4).map(|i| s.var(&format!("x{i}"), Sort::Int)).collect();
        let x: Vec<TermId> = v.iter().map(|&v| s.mk_var(v)).collect();
        let one = s.mk_int(1);
        let mut asserts = Vec::new();
        for i in 1..3 {
            let p = s.mk_add(&[x[i - 1], one]);
            asserts.push(s.mk_eq(x[i], p));
        }
        // (or (not b) (and (= x3 (+ x2 1)) (>= x3 5)))
        let bv = s.var("b", Sort::Bool);
        let b = s.mk_var(bv);
        let p = s.mk_add(&[x[2], one]);
        let e = s.mk_eq(x[3], p);
        let five = s.mk_int(5);
        let g = s.mk_ge(x[3], five);
        let c = s.mk_and(&[e, g]);
        let nb = s.mk_not(b);
        asserts.push(s.mk_or(&[nb, c]));
        asserts.push(b);
        let r = solve_eqs(
            &mut s,
            &asserts,
            &FxHashSet::default(),
            &SolveEqsLimits::default(),
        );
        assert_eq!(r.definitions.len(), 4, "{:?}", r.definitions);
        let defs = resolve_definitions(&mut s, &r.definitions);
        // Any model of the reduced assertions extends to one of the originals.
        let mut m = Model::new();
        let free: Vec<VarId> = v
            .iter()
            .copied()
            .filter(|x| !defs.contains_key(x))
            .collect();
        assert_eq!(free.len(), 1);
        m.set(free[0], Value::Num(Rational::int(100)));
        for a in &r.assertions {
            assert!(m.eval_bool(&s, *a).unwrap());
        }
        for (x, t) in &defs {
            let val = m.eval(&s, *t).unwrap();
            m.set(*x, val);
        }
        for a in &asserts {
            assert!(m.eval_bool(&s, *a).unwrap());
        }
    }

    #[test]
    fn frozen_and_shared_variables_stay() {
        let mut s = TermStore::new();
        let xv = s.var("x", Sort::Int);
        let yv = s.var("y", Sort::Int);
        let bv = s.var("b", Sort::Bool);
        let (x, y, b) = (s.mk_var(xv), s.mk_var(yv), s.mk_var(bv));
        let e = s.mk_eq(x, y);
        let zero = s.mk_int(0);
        let g = s.mk_ge(x, zero);
        // (or b (= x y)) ∧ (>= x 0): x occurs in two disjunct contexts, not solvable.
        let a1 = s.mk_or(&[b, e]);
        let r = solve_eqs(
            &mut s,
            &[a1, g],
            &FxHashSet::default(),
            &SolveEqsLimits::default(),
        );
        assert!(r.definitions.is_empty());
        let mut frozen = FxHashSet::default();
        frozen.insert(xv);
        frozen.insert(yv);
        let r = solve_eqs(&mut s, &[e, g], &frozen, &SolveEqsLimits::default());
        assert!(r.definitions.is_empty());
    }
}
