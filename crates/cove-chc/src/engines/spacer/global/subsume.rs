//! Global generalization over lemma clusters: the *subsume* rule of Krishnan, Chen, Shoham
//! and Gurfinkel, "Global Guidance for Local Generalization in Model Checking" (CAV 2019).
//!
//! Local generalization sees one query at a time. On counting loops it keeps learning
//! lemmas that differ only in their constants, `¬(x ≤ k ∧ y - z ≤ -k-2)` for k = 7, 8, 9, …,
//! one per level. Such a cluster is one parametric cube `c(k)` whose constants are affine
//! in a parameter `k`. Its projection `∃k. c(k)` (Fourier–Motzkin on `k`) is one cube that
//! contains every member (`x + y - z ≤ -2` above), so its negation, when it is blocked,
//! subsumes the whole cluster and the values not seen yet. When the unbounded projection
//! is not blocked, the convex closure over the seen range of `k` is tried. Candidates are
//! re-checked like any other lemma: this only changes which valid lemma is learned.

use super::super::{PIdx, Run};
use crate::result::UnknownReason;
use cove_logic::linear::LinearSum;
use cove_logic::simplify::{canonical_cmp, difference_cmp};
use cove_logic::{Op, Rational, Sort, TermId, TermStore};
use rustc_hash::{FxHashMap, FxHasher};
use std::hash::{Hash, Hasher};

/// Most recent cluster candidates looked at per new lemma.
const MAX_CANDIDATES: usize = 64;
/// Members (the new lemma included) needed before a cluster is generalized.
const MIN_CLUSTER: usize = 3;

/// A cube literal without its constant: `sum op k` with `k` taken out, or a literal that
/// has no constant to vary.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Pattern {
    Lit(TermId),
    /// `Σ c·a  op  k` with op in `Le`, `Lt`, `Eq`, normalized so the first coefficient is
    /// 1 (`Eq`) or ±1 (inequalities).
    Cmp {
        op: Op,
        sum: Vec<(TermId, Rational)>,
    },
}

/// The shape of a lemma's cube: its literals' patterns, sorted canonically, and their
/// constants. Two cubes are in one cluster when their patterns coincide.
#[derive(Clone, Debug)]
pub(in crate::engines::spacer) struct CubeShape {
    pats: Vec<Pattern>,
    consts: Vec<Rational>,
    lits: Vec<TermId>,
}

/// `d op 0` of a literal with op in `Le`, `Lt`, `Eq`, if it is a linear comparison with
/// at least one atom (negations folded in).
pub(in crate::engines::spacer) fn linear_lit(
    store: &TermStore,
    lit: TermId,
) -> Option<(Op, LinearSum)> {
    let (neg, a) = match store.op(lit) {
        Op::Not => (true, store.args(lit)[0]),
        _ => (false, lit),
    };
    let args = store.args(a);
    if args.len() != 2 || !store.sort(args[0]).is_arith() {
        return None;
    }
    let op = store.op(a).clone();
    if !matches!(op, Op::Le | Op::Lt | Op::Ge | Op::Gt | Op::Eq) {
        return None;
    }
    let (op, mut d) = difference_cmp(store, op, args[0], args[1]);
    // d op 0; a negation flips it: ¬(d ≤ 0) is -d < 0, ¬(d < 0) is -d ≤ 0.
    let op = match (neg, op) {
        (false, op) => op,
        (true, Op::Le) => {
            d.scale(&Rational::MINUS_ONE);
            Op::Lt
        }
        (true, Op::Lt) => {
            d.scale(&Rational::MINUS_ONE);
            Op::Le
        }
        (true, _) => return None,
    };
    if d.terms.is_empty() {
        return None;
    }
    Some((op, d))
}

/// `Σ c·a op k` of a literal, if it is a linear comparison (negations folded in).
fn comparison(store: &TermStore, lit: TermId) -> Option<(Op, LinearSum, Rational)> {
    let (op, mut d) = linear_lit(store, lit)?;
    let c0 = d.terms[0].1.clone();
    let scale = if op == Op::Eq {
        c0.recip()
    } else {
        c0.abs().recip()
    };
    d.scale(&scale);
    let k = -std::mem::take(&mut d.constant);
    Some((op, d, k))
}

fn pattern_hash(p: &Pattern) -> u64 {
    let mut h = FxHasher::default();
    p.hash(&mut h);
    h.finish()
}

/// The shape of `cube`, or `None` when two literals share a pattern (no canonical order).
pub(in crate::engines::spacer) fn shape_of(
    store: &TermStore,
    cube: &[TermId],
) -> Option<CubeShape> {
    let mut items: Vec<(u64, Pattern, Rational, TermId)> = cube
        .iter()
        .map(|&l| {
            let (p, k) = match comparison(store, l) {
                Some((op, d, k)) => (Pattern::Cmp { op, sum: d.terms }, k),
                None => (Pattern::Lit(l), Rational::ZERO),
            };
            (pattern_hash(&p), p, k, l)
        })
        .collect();
    items.sort_by_key(|x| x.0);
    for w in items.windows(2) {
        if w[0].0 == w[1].0 {
            return None;
        }
    }
    Some(CubeShape {
        pats: items.iter().map(|x| x.1.clone()).collect(),
        consts: items.iter().map(|x| x.2.clone()).collect(),
        lits: items.iter().map(|x| x.3).collect(),
    })
}

/// A cluster: the positions whose constants vary, `const[d] = α_d + β_d·k` there (with
/// `k = const[D[0]]`), and the range of `k` over the members.
struct Cluster {
    varying: Vec<usize>,
    alpha: Vec<Rational>,
    beta: Vec<Rational>,
    k_min: Rational,
    k_max: Rational,
    /// Number of members, the new cube included.
    size: usize,
}

/// The cluster of `new` among `others` (same patterns), fitted through `new` and one other
/// member; `None` when no fit has `MIN_CLUSTER` members.
fn find_cluster(new: &CubeShape, others: &[&CubeShape]) -> Option<Cluster> {
    for m in others.iter().take(8) {
        let varying: Vec<usize> = (0..new.consts.len())
            .filter(|&i| new.consts[i] != m.consts[i])
            .collect();
        let Some(&d0) = varying.first() else { continue };
        let dt = &new.consts[d0] - &m.consts[d0];
        let beta: Vec<Rational> = varying
            .iter()
            .map(|&d| &(&new.consts[d] - &m.consts[d]) / &dt)
            .collect();
        let alpha: Vec<Rational> = varying
            .iter()
            .zip(&beta)
            .map(|(&d, b)| &new.consts[d] - &(b * &new.consts[d0]))
            .collect();
        let fits = |x: &CubeShape| {
            (0..new.consts.len()).all(|i| match varying.iter().position(|&d| d == i) {
                None => x.consts[i] == new.consts[i],
                Some(j) => x.consts[i] == &alpha[j] + &(&beta[j] * &x.consts[d0]),
            })
        };
        let members: Vec<&CubeShape> = others.iter().copied().filter(|x| fits(x)).collect();
        if members.len() + 1 < MIN_CLUSTER {
            continue;
        }
        let mut k_min = new.consts[d0].clone();
        let mut k_max = k_min.clone();
        for x in &members {
            let k = &x.consts[d0];
            if *k < k_min {
                k_min = k.clone();
            }
            if *k > k_max {
                k_max = k.clone();
            }
        }
        return Some(Cluster {
            varying,
            alpha,
            beta,
            k_min,
            k_max,
            size: members.len() + 1,
        });
    }
    None
}

/// A constraint `g - β·k  op  0` on the parameter `k`.
struct ParamCons {
    g: LinearSum,
    op: Op,
    beta: Rational,
}

/// The varying literals of `new` as constraints on the cluster parameter: `s op α + β·k`
/// is `s - α - β·k op 0`. `None` if one of them is not a comparison.
fn param_constraints(new: &CubeShape, cl: &Cluster) -> Option<Vec<ParamCons>> {
    cl.varying
        .iter()
        .enumerate()
        .map(|(j, &d)| match &new.pats[d] {
            Pattern::Cmp { op, sum } => Some(ParamCons {
                g: LinearSum {
                    terms: sum.clone(),
                    constant: -cl.alpha[j].clone(),
                },
                op: op.clone(),
                beta: cl.beta[j].clone(),
            }),
            Pattern::Lit(_) => None,
        })
        .collect()
}

/// `∃k. ∧ cons` by Fourier–Motzkin (an equality on `k` is substituted), as canonical
/// literals; `None` when the projection is empty.
fn eliminate(store: &mut TermStore, cons: &[ParamCons]) -> Option<Vec<TermId>> {
    let mut out: Vec<(LinearSum, Op)> = Vec::new();
    if let Some(e) = cons.iter().find(|c| c.op == Op::Eq && !c.beta.is_zero()) {
        // k = g_e / β_e.
        for c in cons {
            if std::ptr::eq(c, e) {
                continue;
            }
            let mut r = c.g.clone();
            r.add_scaled(&e.g, &-(&c.beta / &e.beta));
            out.push((r, c.op.clone()));
        }
    } else {
        let (lower, upper): (Vec<&ParamCons>, Vec<&ParamCons>) = cons
            .iter()
            .filter(|c| !c.beta.is_zero())
            .partition(|c| c.beta.is_positive());
        for c in cons.iter().filter(|c| c.beta.is_zero()) {
            out.push((c.g.clone(), c.op.clone()));
        }
        // Lower: k ≥ g_l/β_l (β_l > 0); upper: k ≤ g_u/β_u (β_u < 0).
        for l in &lower {
            for u in &upper {
                let mut r = l.g.clone();
                r.scale(&l.beta.recip());
                r.add_scaled(&u.g, &-u.beta.recip());
                let op = if l.op == Op::Lt || u.op == Op::Lt {
                    Op::Lt
                } else {
                    Op::Le
                };
                out.push((r, op));
            }
        }
    }
    let mut lits = Vec::new();
    for (r, op) in out {
        let int = r.terms.iter().all(|(a, _)| store.sort(*a) == Sort::Int);
        let sort = if int { Sort::Int } else { Sort::Real };
        let t = canonical_cmp(store, op, r, sort);
        match store.as_bool(t) {
            Some(true) => {}
            Some(false) => return None,
            None => {
                if !lits.contains(&t) {
                    lits.push(t);
                }
            }
        }
    }
    Some(lits)
}

impl Run<'_> {
    /// The subsume rule (module docs): a cube blocked at `b` whose lemma joins a cluster
    /// of `p`'s lemmas is replaced by the cluster's projection (or convex closure) when
    /// that is blocked at `b` too. Returns the cube to learn.
    pub(in crate::engines::spacer) fn subsume(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        cube: Vec<TermId>,
        b: usize,
    ) -> Result<Vec<TermId>, UnknownReason> {
        let Some(new) = shape_of(store, &cube) else {
            return Ok(cube);
        };
        if !new.pats.iter().any(|p| matches!(p, Pattern::Cmp { .. })) {
            return Ok(cube);
        }
        let others: Vec<&CubeShape> = self.preds[p]
            .lemmas
            .iter()
            .rev()
            .filter_map(|l| l.shape.as_ref())
            .filter(|s| s.pats == new.pats && s.consts != new.consts)
            .take(MAX_CANDIDATES)
            .collect();
        if others.len() + 1 < MIN_CLUSTER {
            return Ok(cube);
        }
        let Some(cl) = find_cluster(&new, &others) else {
            return Ok(cube);
        };
        // A cluster whose projections were not blocked at this level is retried only once
        // it has doubled: the checks of a failed attempt are the whole cost of this rule.
        let key = ClusterKey {
            pred: p,
            pats_hash: {
                let mut h = FxHasher::default();
                new.pats.hash(&mut h);
                h.finish()
            },
            varying: cl.varying.clone(),
            alpha: cl.alpha.clone(),
            beta: cl.beta.clone(),
            level: b,
        };
        if let Some(&n) = self.global_failed.get(&key)
            && cl.size < 2 * n
        {
            return Ok(cube);
        }
        self.bump("global-attempts");
        // Fixed literals stay; each varying one is `s op α + β·k`, i.e. `s - α - β·k op 0`.
        let fixed: Vec<TermId> = (0..new.lits.len())
            .filter(|i| !cl.varying.contains(i))
            .map(|i| new.lits[i])
            .collect();
        let Some(mut cons) = param_constraints(&new, &cl) else {
            return Ok(cube);
        };
        let unbounded = eliminate(store, &cons);
        // Convex closure: k_min ≤ k ≤ k_max, i.e. k_min - k ≤ 0 and -k_max + k ≤ 0.
        cons.push(ParamCons {
            g: LinearSum::constant(cl.k_min.clone()),
            op: Op::Le,
            beta: Rational::ONE,
        });
        cons.push(ParamCons {
            g: LinearSum::constant(-cl.k_max.clone()),
            op: Op::Le,
            beta: Rational::MINUS_ONE,
        });
        let closure = eliminate(store, &cons);
        for (cand, stat) in [(unbounded, "global-lemmas"), (closure, "global-closures")] {
            let Some(lits) = cand else { continue };
            let mut hull = fixed.clone();
            hull.extend(lits);
            if hull.is_empty() || hull == cube {
                continue;
            }
            if self.blocked(store, p, &hull, b)? {
                self.bump(stat);
                return Ok(hull);
            }
        }
        self.global_failed.insert(key, cl.size);
        Ok(cube)
    }
}

/// A cluster at a level: its predicate, patterns, varying positions and affine fit.
#[derive(PartialEq, Eq, Hash)]
pub(in crate::engines::spacer) struct ClusterKey {
    pred: PIdx,
    pats_hash: u64,
    varying: Vec<usize>,
    alpha: Vec<Rational>,
    beta: Vec<Rational>,
    level: usize,
}

/// Failed cluster generalizations, with the cluster's size at the failure.
pub(in crate::engines::spacer) type FailedSet = FxHashMap<ClusterKey, usize>;

#[cfg(test)]
mod tests {
    use super::super::super::test_util::{le, vars};
    use super::*;

    #[test]
    fn counting_cluster_projects_to_one_half_space() {
        let mut st = TermStore::new();
        let v = vars(&mut st, &["x", "y", "z"]);
        let (x, y, z) = (v[0], v[1], v[2]);
        // ¬(x ≤ k ∧ y - z ≤ -k-2) for k = 7, 8, 9.
        let cubes: Vec<Vec<TermId>> = (7..10)
            .map(|k| {
                vec![
                    le(&mut st, &[(x, 1)], k),
                    le(&mut st, &[(y, 1), (z, -1)], -k - 2),
                ]
            })
            .collect();
        let shapes: Vec<CubeShape> = cubes.iter().map(|c| shape_of(&st, c).unwrap()).collect();
        let others: Vec<&CubeShape> = shapes[..2].iter().collect();
        let cl = find_cluster(&shapes[2], &others).expect("cluster");
        assert_eq!(cl.varying.len(), 2);
        assert_eq!(cl.k_min, Rational::from(7));
        assert_eq!(cl.k_max, Rational::from(9));
        let new = &shapes[2];
        let cons = param_constraints(new, &cl).expect("varying literals are comparisons");
        let lits = eliminate(&mut st, &cons).expect("non-empty");
        // ∃k. x ≤ k ∧ y - z ≤ -k-2  ≡  x + y - z ≤ -2.
        assert_eq!(lits, vec![le(&mut st, &[(x, 1), (y, 1), (z, -1)], -2)]);
    }

    #[test]
    fn unrelated_constants_make_no_cluster() {
        let mut st = TermStore::new();
        let v = vars(&mut st, &["x", "y"]);
        let (x, y) = (v[0], v[1]);
        // (1, 1), (2, 5), (3, 4): no affine relation through the new cube and a second one
        // holds for a third.
        let cubes: Vec<Vec<TermId>> = [(1, 1), (2, 5), (3, 4)]
            .iter()
            .map(|&(a, b)| vec![le(&mut st, &[(x, 1)], a), le(&mut st, &[(y, 1)], b)])
            .collect();
        let shapes: Vec<CubeShape> = cubes.iter().map(|c| shape_of(&st, c).unwrap()).collect();
        let others: Vec<&CubeShape> = shapes[..2].iter().collect();
        assert!(find_cluster(&shapes[2], &others).is_none());
    }

    #[test]
    fn equal_patterns_in_one_cube_have_no_shape() {
        let mut st = TermStore::new();
        let x = vars(&mut st, &["x"])[0];
        let c = vec![le(&mut st, &[(x, 1)], 3), le(&mut st, &[(x, 1)], 5)];
        assert!(shape_of(&st, &c).is_none());
    }
}
