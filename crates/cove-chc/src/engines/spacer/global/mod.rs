//! Global guidance (Vediramana Krishnan, Chen, Shoham and Gurfinkel, "Global Guidance for
//! Local Generalization in Model Checking", CAV 2020): which of the three rules applies to
//! a new lemma (here), and the rules themselves: *subsume* (`subsume.rs`), *concretize*
//! (`concretize.rs`) and *conjecture* (`conjecture.rs`).
//!
//! Lemmas are clustered by anti-unification: two cubes are in one cluster when they have
//! the same literals up to their numbers, i.e. every literal `Σ c·v op k` has the same
//! operator, variables and coefficient signs, and only the coefficients `c` and the
//! constants `k` may differ. The positions that differ inside a cluster are its pattern
//! variables. The published guards decide the rule from the pattern:
//! - a pattern variable is a *coefficient* (the pattern is non-linear, `k·x`): lemmas
//!   such as `¬(a0 + k·a1 > 68)` for k = 1, 2, 3, … will not converge by projection.
//!   **Concretize**: the query that produced the lemma, when it is next found not blocked,
//!   is also tried in a smaller, concrete form: every literal mixing a variable `x` of a
//!   non-linear term with others is split, around the model, into `x ≤ M(x)` (or `≥`,
//!   by the sign of its coefficient) and the rest `r ≤ M(r)`. Lemmas for that query vary
//!   in constants only, which subsume and conjecture can generalize.
//! - exactly one literal has pattern variables, and only its constant varies (the family
//!   `¬(ψ ∧ t ≤ k)`). **Conjecture**: the query without that literal, `ψ`, is queried at
//!   the cluster's lowest level; blocking it gives one lemma for the whole family.
//! - otherwise (constants vary in several literals). **Subsume**: the cluster's
//!   projection or convex closure replaces the lemma (`subsume.rs`).
//!
//! Every rule only adds queries or replaces a lemma by another blocked cube, so none of
//! them can make an answer wrong: a query for a predicate other than `⊥` never makes a
//! counterexample on its own, and a lemma is learned only after its cube was blocked.
//! Each cluster has a gas budget (how many times concretize and conjecture may use it),
//! as in the paper, so a cluster the rules cannot help stops costing time.

mod concretize;
mod conjecture;
mod subsume;

pub(super) use subsume::{CubeShape, FailedSet, shape_of};

use super::{PIdx, Run};
use cove_logic::{Op, Rational, TermId, TermStore};
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// Most recent lemmas of the predicate compared with a new one.
const MAX_CANDIDATES: usize = 64;
/// Members (the new lemma included) before a cluster guides anything.
const MIN_CLUSTER: usize = 3;
/// Uses of one cluster by concretize and conjecture.
const CLUSTER_GAS: u32 = 10;

/// A literal without its numbers.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Skel {
    Lit(TermId),
    /// `Σ c·v op k`: the operator, the variables (atoms) and the signs of their
    /// coefficients.
    Cmp {
        op: Op,
        vars: Vec<TermId>,
        signs: Vec<bool>,
    },
}

/// A cube up to its numbers: its literals' skeletons (sorted) and, per literal, the
/// coefficients followed by the constant.
#[derive(Clone, Debug)]
pub(super) struct AuShape {
    skel: Vec<Skel>,
    nums: Vec<Vec<Rational>>,
    hash: u64,
}

/// `Σ c·v op k` of a linear literal, coefficients integral with gcd 1 (an equality also
/// has a positive first coefficient), as (skeleton, numbers).
fn au_lit(store: &TermStore, lit: TermId) -> (Skel, Vec<Rational>) {
    let Some((op, mut d)) = subsume::linear_lit(store, lit) else {
        return (Skel::Lit(lit), Vec::new());
    };
    let mut den = Rational::ONE;
    for (_, c) in &d.terms {
        den = den.lcm(&Rational::from_bigint(c.denom()));
    }
    d.scale(&den);
    let mut g = Rational::ZERO;
    for (_, c) in &d.terms {
        g = g.gcd(c);
    }
    if op == Op::Eq && d.terms[0].1.is_negative() {
        g = -g;
    }
    if !g.is_zero() && !g.is_one() {
        d.scale(&g.recip());
    }
    let mut nums: Vec<Rational> = d.terms.iter().map(|(_, c)| c.clone()).collect();
    nums.push(-d.constant.clone());
    let skel = Skel::Cmp {
        op,
        vars: d.terms.iter().map(|(v, _)| *v).collect(),
        signs: d.terms.iter().map(|(_, c)| c.is_positive()).collect(),
    };
    (skel, nums)
}

fn hash_of<T: Hash>(x: &T) -> u64 {
    let mut h = FxHasher::default();
    x.hash(&mut h);
    h.finish()
}

/// The anti-unification shape of `cube`; `None` when two literals have one skeleton (no
/// canonical matching of literals between cubes).
pub(super) fn au_shape(store: &TermStore, cube: &[TermId]) -> Option<AuShape> {
    let mut items: Vec<(u64, Skel, Vec<Rational>)> = cube
        .iter()
        .map(|&l| {
            let (s, n) = au_lit(store, l);
            (hash_of(&s), s, n)
        })
        .collect();
    items.sort_by_key(|x| x.0);
    if items.windows(2).any(|w| w[0].0 == w[1].0) {
        return None;
    }
    let skel: Vec<Skel> = items.iter().map(|x| x.1.clone()).collect();
    Some(AuShape {
        hash: hash_of(&skel),
        skel,
        nums: items.into_iter().map(|x| x.2).collect(),
    })
}

/// The rule the published guards choose for a lemma's cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Rule {
    /// Coefficients vary: the variables whose coefficient varies.
    Concretize(Vec<TermId>),
    /// Only the constant of one literal varies: that literal's skeleton.
    Conjecture(u64),
    /// Constants of several literals vary.
    Subsume,
}

/// The cluster of `new` among `others` and its rule, with the cluster's lowest lemma level.
fn classify(new: &AuShape, others: &[(&AuShape, usize)]) -> Option<(Rule, usize)> {
    let members: Vec<(&AuShape, usize)> = others
        .iter()
        .copied()
        .filter(|(s, _)| s.hash == new.hash && s.skel == new.skel && s.nums != new.nums)
        .take(MAX_CANDIDATES)
        .collect();
    if members.len() + 1 < MIN_CLUSTER {
        return None;
    }
    let min_level = members.iter().map(|m| m.1).min().unwrap_or(0);
    let mut coeff_vars = Vec::new();
    let mut varying = Vec::new();
    for (i, s) in new.skel.iter().enumerate() {
        let n = new.nums[i].len();
        for j in 0..n {
            if members.iter().any(|(m, _)| m.nums[i][j] != new.nums[i][j]) {
                if let Skel::Cmp { vars, .. } = s
                    && j + 1 < n
                {
                    coeff_vars.push(vars[j]);
                }
                if !varying.contains(&i) {
                    varying.push(i);
                }
            }
        }
    }
    let rule = if !coeff_vars.is_empty() {
        coeff_vars.sort();
        coeff_vars.dedup();
        Rule::Concretize(coeff_vars)
    } else if varying.len() == 1 {
        Rule::Conjecture(hash_of(&new.skel[varying[0]]))
    } else {
        Rule::Subsume
    };
    Some((rule, min_level))
}

impl Run<'_> {
    /// The rule for the cluster of a new lemma `cube` of `p` (if it is in a cluster with
    /// gas left), and the cluster's lowest level.
    pub(super) fn guidance(
        &mut self,
        store: &TermStore,
        p: PIdx,
        cube: &[TermId],
    ) -> Option<(Rule, usize)> {
        let new = au_shape(store, cube)?;
        let others: Vec<(&AuShape, usize)> = self.preds[p]
            .lemmas
            .iter()
            .rev()
            .filter_map(|l| l.au.as_ref().map(|s| (s, l.level)))
            .take(4 * MAX_CANDIDATES)
            .collect();
        let (rule, lvl) = classify(&new, &others)?;
        if matches!(rule, Rule::Subsume) {
            return Some((rule, lvl));
        }
        let gas = self.gg_gas.entry((p, new.hash)).or_insert(CLUSTER_GAS);
        if *gas == 0 {
            self.bump("gg-out-of-gas");
            return None;
        }
        Some((rule, lvl))
    }

    /// Spends one unit of the gas of `cube`'s cluster.
    fn spend_gas(&mut self, store: &TermStore, p: PIdx, cube: &[TermId]) {
        if let Some(s) = au_shape(store, cube)
            && let Some(g) = self.gg_gas.get_mut(&(p, s.hash))
        {
            *g = g.saturating_sub(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{le, vars};
    use super::concretize::concretize_cube;
    use super::*;
    use cove_logic::{Model, Value};

    fn shapes(st: &TermStore, cubes: &[Vec<TermId>]) -> Vec<AuShape> {
        cubes.iter().map(|c| au_shape(st, c).unwrap()).collect()
    }

    #[test]
    fn varying_coefficients_choose_concretize() {
        let mut st = TermStore::new();
        let v = vars(&mut st, &["x", "y"]);
        // x + k·y ≤ 68 for k = 1, 2, 3.
        let cubes: Vec<Vec<TermId>> = (1..4)
            .map(|k| vec![le(&mut st, &[(v[0], 1), (v[1], k)], 68)])
            .collect();
        let s = shapes(&st, &cubes);
        let others: Vec<(&AuShape, usize)> = s[..2].iter().map(|x| (x, 1)).collect();
        let (rule, lvl) = classify(&s[2], &others).expect("cluster");
        assert_eq!(rule, Rule::Concretize(vec![v[1]]));
        assert_eq!(lvl, 1);
    }

    #[test]
    fn one_varying_constant_chooses_conjecture_and_two_subsume() {
        let mut st = TermStore::new();
        let v = vars(&mut st, &["x", "y"]);
        let one: Vec<Vec<TermId>> = (1..4)
            .map(|k| vec![le(&mut st, &[(v[0], 1)], k), le(&mut st, &[(v[1], 1)], 0)])
            .collect();
        let s = shapes(&st, &one);
        let others: Vec<(&AuShape, usize)> = s[..2].iter().map(|x| (x, 0)).collect();
        assert!(matches!(
            classify(&s[2], &others),
            Some((Rule::Conjecture(_), 0))
        ));
        let two: Vec<Vec<TermId>> = (1..4)
            .map(|k| vec![le(&mut st, &[(v[0], 1)], k), le(&mut st, &[(v[1], 1)], -k)])
            .collect();
        let s = shapes(&st, &two);
        let others: Vec<(&AuShape, usize)> = s[..2].iter().map(|x| (x, 0)).collect();
        assert_eq!(classify(&s[2], &others).map(|x| x.0), Some(Rule::Subsume));
    }

    #[test]
    fn concretized_cube_is_inside_the_literal() {
        let mut st = TermStore::new();
        let v = vars(&mut st, &["x", "y", "z"]);
        // x + 3y - z ≤ 10 at x = 1, y = 2, z = 0 (value 7): y ≤ 2 ∧ x - z ≤ 1.
        let lit = le(&mut st, &[(v[0], 1), (v[1], 3), (v[2], -1)], 10);
        let mut m = Model::default();
        for (t, x) in v.iter().zip([1, 2, 0]) {
            let var = st.as_var(*t).unwrap();
            m.set(var, Value::Num(Rational::from(x)));
        }
        let got = concretize_cube(&mut st, &m, &[lit], &[v[1]]).expect("split");
        let mut want = vec![
            le(&mut st, &[(v[1], 1)], 2),
            le(&mut st, &[(v[0], 1), (v[2], -1)], 1),
        ];
        want.sort();
        assert_eq!(got, want);
    }
}
