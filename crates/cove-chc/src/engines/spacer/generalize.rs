//! Generalization of blocked queries into lemmas.
//!
//! A query cube `c` blocked at level `b` gives the lemma `¬c`. The smaller (weaker) the cube,
//! the stronger the lemma and the fewer lemmas a proof needs. Four steps, each re-checked
//! with the SMT solver so that only which *valid* lemma is learned changes:
//! 0. **Divisibility**: a `div`/`mod` literal restated through an equality of the cube
//!    (`divisibility.rs`) is tried alone first.
//! 1. **Farkas**: replace the cube by the negation of an interpolant between the rule
//!    instances at level `b-1` and the cube. Interpolants combine the cube's literals
//!    linearly, which is what turns "one lemma per value" on counting loops into one
//!    relational half-space (Spacer's IUC/Farkas lemmas).
//! 2. **Dropping**: drop literals while the cube stays blocked (unsat cores shrink it
//!    faster), with relative induction on the predicate's own recursive calls.
//! 3. **Weakening**: equalities become half-spaces, bounds are relaxed.

use super::{PIdx, Run, Why, rename};
use crate::result::UnknownReason;
use cove_logic::{Sort, TermId, TermStore};
use rustc_hash::{FxHashMap, FxHashSet};

impl Run<'_> {
    /// Generalizes a cube blocked at level `b` (steps 1-3 of the module docs); the result
    /// is still blocked at `b`, with relative induction for the predicate's own calls.
    pub(super) fn generalize(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        mut cube: Vec<TermId>,
        b: usize,
    ) -> Result<Vec<TermId>, UnknownReason> {
        // A divisibility fact restated over another variable may block on its own
        // (`divisibility.rs`): then it is the strongest lemma this cube can give.
        for lit in super::divisibility::rewrites(store, &cube) {
            if self.blocked(store, p, &[lit], b)? {
                self.bump("divisibility-lemmas");
                return Ok(vec![lit]);
            }
        }
        if self.cfg.farkas
            && let Some(k) = self.farkas_cube(store, p, &cube, b)?
        {
            self.bump("farkas-lemmas");
            cube = k;
        }
        let mut i = 0;
        while i < cube.len() && cube.len() > 1 {
            if self.ctl.should_stop().is_some() {
                break;
            }
            let cand: Vec<TermId> = cube
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != i)
                .map(|(_, l)| *l)
                .collect();
            if self.blocked(store, p, &cand, b)? {
                let core: FxHashSet<TermId> =
                    self.preds[p].solver.unsat_core().into_iter().collect();
                let reduced: Vec<TermId> =
                    cand.iter().copied().filter(|l| core.contains(l)).collect();
                // The core is a subset of `cand`, so the relative-induction argument (which
                // assumed the weaker `¬cand` on recursive calls) still covers it.
                cube = if reduced.is_empty() { cand } else { reduced };
                continue;
            }
            i += 1;
        }
        if self.cfg.bv_relations
            && cube.len() > 1
            && let Some(c) = self.relate_bv(store, p, &cube, b)?
        {
            self.bump("bv-relation-lemmas");
            cube = c;
        }
        if self.cfg.weaken {
            self.weaken(store, p, cube, b)
        } else {
            Ok(cube)
        }
    }

    /// Is `cand` still blocked at level `b` (with relative induction)? After `true` the
    /// solver's unsat core is a subset of `cand` plus assumption literals. A check that
    /// [`OPTIONAL_CONFLICTS`](super::stats::OPTIONAL_CONFLICTS) conflicts do not settle counts as not blocked: the caller keeps
    /// the stronger cube it already has.
    pub(super) fn blocked(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        cand: &[TermId],
        b: usize,
    ) -> Result<bool, UnknownReason> {
        let mut asm = cand.to_vec();
        asm.extend(self.level_assumptions(store, p, b));
        if let Some(ri) = self.relative_induction(store, p, cand) {
            asm.push(ri);
        }
        let r = self.check_budgeted(store, p, &asm, Why::Drop, "drop-over-budget")?;
        Ok(r == Some(false))
    }

    /// Weakens the literals of a blocked cube while it stays blocked: an equality `s = k`
    /// becomes a half-space `s <= k` or `s >= k`, and a bound `s <= k` is relaxed to a larger
    /// `k` (doubling steps, a few checks per literal). A weaker cube is a stronger lemma; the
    /// half-spaces are what lets counting loops converge to `x <= n` instead of one lemma per
    /// value. Every candidate is re-checked, so this only changes which valid lemma is learned.
    fn weaken(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        mut cube: Vec<TermId>,
        b: usize,
    ) -> Result<Vec<TermId>, UnknownReason> {
        const BOUND_STEPS: usize = 6;
        for i in 0..cube.len() {
            if self.ctl.should_stop().is_some() {
                break;
            }
            let lit = cube[i];
            let (op, args) = (store.op(lit).clone(), store.args(lit).to_vec());
            if args.len() == 2
                && op == cove_logic::Op::Eq
                && store.sort(args[0]).is_bv()
                && self.cfg.bv_intervals
            {
                if let Some(c) = self.weaken_bv(store, p, &cube, i, b)? {
                    cube = c;
                }
                continue;
            }
            if args.len() != 2 || !store.sort(args[0]).is_arith() {
                continue;
            }
            let Some(k) = store.as_num(args[1]).cloned() else {
                continue;
            };
            let sort = store.sort(args[0]);
            match op {
                cove_logic::Op::Eq => {
                    for upper in [true, false] {
                        let kt = store.mk_num(k.clone(), sort);
                        let half = if upper {
                            store.mk_le(args[0], kt)
                        } else {
                            store.mk_ge(args[0], kt)
                        };
                        let half = cove_logic::simplify(store, half);
                        let mut cand = cube.clone();
                        cand[i] = half;
                        if self.blocked(store, p, &cand, b)? {
                            cube = cand;
                            break;
                        }
                    }
                }
                cove_logic::Op::Le if sort == Sort::Int => {
                    let mut step = cove_logic::Rational::ONE;
                    for _ in 0..BOUND_STEPS {
                        let kt = store.mk_num(&k + &step, sort);
                        let cand_lit = store.mk_le(args[0], kt);
                        let mut cand = cube.clone();
                        cand[i] = cand_lit;
                        if !self.blocked(store, p, &cand, b)? {
                            break;
                        }
                        cube = cand;
                        step = &step + &step;
                    }
                }
                _ => {}
            }
        }
        Ok(cube)
    }

    /// Word-level weakening of a bit-vector equality `t = k` (`k` a literal) in a blocked
    /// cube: the equality becomes the first blocked of the half-intervals `t ≤s k`, `t ≥s k`,
    /// `t ≤u k`, `t ≥u k` (each implied by `t = k`), whose bound is then relaxed towards the
    /// end of its range — first the extreme itself, then doubling steps and a short bisection. Interval
    /// lemmas are what lets a bit-vector counting loop converge to `x ≤s n` instead of one
    /// lemma per value (a bit cube per state). Every candidate is re-checked.
    fn weaken_bv(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        cube: &[TermId],
        i: usize,
        b: usize,
    ) -> Result<Option<Vec<TermId>>, UnknownReason> {
        use cove_logic::{BvOp, BvValue};
        const DOUBLING_STEPS: usize = 8;
        const BISECT_STEPS: usize = 3;
        let args = store.args(cube[i]).to_vec();
        let (t, k) = match (store.as_bv(args[0]), store.as_bv(args[1])) {
            (None, Some(k)) => (args[0], k.clone()),
            (Some(k), None) => (args[1], k.clone()),
            _ => return Ok(None),
        };
        let w = k.width();
        // Bounds as i128: widths up to 64 (wider words keep their equalities).
        let Some(bits) = k.to_u64().filter(|_| (2..=64).contains(&w)) else {
            return Ok(None);
        };
        let half: i128 = 1i128 << (w - 1);
        let full: i128 = 1i128 << w;
        // (signed, upper): the literal `t ≤ k'` (upper) or `t ≥ k'`, over integers in the
        // range of the reading, from `k` towards the extreme `end`.
        let dirs = [(true, true), (true, false), (false, true), (false, false)];
        for (signed, upper) in dirs {
            let nat = bits as i128;
            let kv = if signed && nat >= half {
                nat - full
            } else {
                nat
            };
            let (lo, hi) = if signed {
                (-half, half - 1)
            } else {
                (0, full - 1)
            };
            // The bound that makes the literal trivially true is not worth a check
            // (dropping the literal was tried already); stop one short of it.
            let end = if upper { hi - 1 } else { lo + 1 };
            let mk = |store: &mut TermStore, bound: i128| -> TermId {
                let c = store.mk_bv_lit(BvValue::from_u64(w, bound.rem_euclid(full) as u64));
                let op = if signed { BvOp::Sle } else { BvOp::Ule };
                let (a, b) = if upper { (t, c) } else { (c, t) };
                store.mk_bv_sorted(op, &[a, b], Sort::Bool)
            };
            let with = |store: &mut TermStore, bound: i128| -> Vec<TermId> {
                let mut c = cube.to_vec();
                c[i] = mk(store, bound);
                c
            };
            let cand = with(store, kv);
            if !self.blocked(store, p, &cand, b)? {
                continue;
            }
            let mut best = (kv, cand);
            let beyond = if upper { kv >= end } else { kv <= end };
            if beyond {
                return Ok(Some(best.1));
            }
            let cand = with(store, end);
            if self.blocked(store, p, &cand, b)? {
                return Ok(Some(cand));
            }
            // Doubling steps from `k` towards `end` while blocked, then a bisection between
            // the last blocked bound and the first unblocked one.
            let dir: i128 = if upper { 1 } else { -1 };
            let mut bad = end;
            let mut step: i128 = 1;
            for _ in 0..DOUBLING_STEPS {
                if self.ctl.should_stop().is_some() {
                    return Ok(Some(best.1));
                }
                let next = best.0 + dir * step;
                if (upper && next >= end) || (!upper && next <= end) {
                    break;
                }
                let cand = with(store, next);
                if self.blocked(store, p, &cand, b)? {
                    best = (next, cand);
                    step *= 2;
                } else {
                    bad = next;
                    break;
                }
            }
            for _ in 0..if bad == end { 0 } else { BISECT_STEPS } {
                if self.ctl.should_stop().is_some() {
                    break;
                }
                let mid = (best.0 + bad).div_euclid(2);
                if mid == best.0 || mid == bad {
                    break;
                }
                let cand = with(store, mid);
                if self.blocked(store, p, &cand, b)? {
                    best = (mid, cand);
                } else {
                    bad = mid;
                }
            }
            return Ok(Some(best.1));
        }
        Ok(None)
    }

    /// Word-level relational generalization of a blocked bit-vector cube: the literals over
    /// two variables `x`, `y` of the same width (and no other) are replaced by one relation
    /// `R(x, y)` — `x ≠ y`, `x >s y`, `y >s x`, `x >u y`, `y >u x`, tried in that order (the
    /// strongest lemma first) — that they imply. The cube `x ≥s k ∧ y <s k`, which a counting
    /// loop otherwise blocks once per constant `k` (reve `027b-horn`), becomes `x ≠ y`, and
    /// the lemma `x = y` covers every `k` at once. The implication is checked (so the new cube
    /// still contains the blocked states) and so is blockedness: only which valid lemma is
    /// learned changes.
    fn relate_bv(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        cube: &[TermId],
        b: usize,
    ) -> Result<Option<Vec<TermId>>, UnknownReason> {
        use cove_logic::BvOp;
        const MAX_PAIRS: usize = 6;
        let params: FxHashSet<cove_logic::VarId> = self.preds[p]
            .params
            .iter()
            .copied()
            .filter(|&v| store.var_sort(v).is_bv())
            .collect();
        if params.len() < 2 {
            return Ok(None);
        }
        // The bit-vector parameters of each literal.
        let vars: Vec<Vec<cove_logic::VarId>> = cube
            .iter()
            .map(|&l| {
                cove_logic::free_vars(store, l)
                    .into_iter()
                    .filter(|v| params.contains(v))
                    .collect()
            })
            .collect();
        let mut pairs: Vec<(cove_logic::VarId, cove_logic::VarId)> = Vec::new();
        for i in 0..cube.len() {
            for j in 0..cube.len() {
                if i == j || vars[i].len() != 1 || vars[j].len() != 1 {
                    continue;
                }
                let (x, y) = (vars[i][0], vars[j][0]);
                if x < y
                    && store.var_sort(x) == store.var_sort(y)
                    && !pairs.contains(&(x, y))
                    && pairs.len() < MAX_PAIRS
                {
                    pairs.push((x, y));
                }
            }
        }
        for (x, y) in pairs {
            if self.ctl.should_stop().is_some() {
                return Ok(None);
            }
            let inside = |vs: &Vec<cove_logic::VarId>| {
                !vs.is_empty() && vs.iter().all(|&v| v == x || v == y)
            };
            let sub: Vec<TermId> = (0..cube.len())
                .filter(|&i| inside(&vars[i]))
                .map(|i| cube[i])
                .collect();
            let rest: Vec<TermId> = (0..cube.len())
                .filter(|&i| !inside(&vars[i]))
                .map(|i| cube[i])
                .collect();
            if sub.len() < 2 {
                continue;
            }
            let sub_and = store.mk_and(&sub);
            let (tx, ty) = (store.mk_var(x), store.mk_var(y));
            let eq = store.mk_eq(tx, ty);
            let mut rels = vec![store.mk_not(eq)];
            for op in [BvOp::Slt, BvOp::Ult] {
                rels.push(store.mk_bv_sorted(op.clone(), &[ty, tx], Sort::Bool));
                rels.push(store.mk_bv_sorted(op, &[tx, ty], Sort::Bool));
            }
            for r in rels {
                let imp = store.mk_implies(sub_and, r);
                if cove_smt::is_valid(store, imp) != cove_smt::SmtResult::Unsat {
                    continue;
                }
                let mut cand = rest.clone();
                cand.push(r);
                if self.blocked(store, p, &cand, b)? {
                    return Ok(Some(cand));
                }
            }
        }
        Ok(None)
    }

    /// `¬cand` on every recursive body atom of `p` (guarded by its rule selector).
    fn relative_induction(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        cand: &[TermId],
    ) -> Option<TermId> {
        if cand.is_empty() {
            return None;
        }
        let conj = store.mk_and(cand);
        let neg = store.mk_not(conj);
        let params = self.preds[p].params.clone();
        let mut parts = Vec::new();
        for &r in &self.preds[p].rules {
            for (q, copies) in &self.rules[r].body {
                if *q == p {
                    let t = rename(store, neg, &params, copies);
                    parts.push(store.mk_implies(self.rules[r].sel, t));
                }
            }
        }
        if parts.is_empty() {
            None
        } else {
            Some(store.mk_and(&parts))
        }
    }

    /// Step 1: a cube `¬I` where `I = h₁ ∨ … ∨ hₙ` interpolates between the rule instances
    /// of `p` at level `b-1` (A) and the blocked `cube` (B): `A ⇒ I` and `I ∧ B` is
    /// unsatisfiable. Each `hᵢ` is a Farkas interpolant of one implicant of A (one way the
    /// rules reach `p`) with B; implicants are enumerated from models of `A ∧ ¬I` until
    /// none is left. Hence `cube ⇒ ¬I` (the new lemma still blocks the query) and the lemma
    /// `I` holds at level `b`. `None` when a step leaves linear arithmetic (Booleans, `mod`,
    /// integer reasoning without a Farkas certificate) or needs too many disjuncts.
    fn farkas_cube(
        &mut self,
        store: &mut TermStore,
        p: PIdx,
        cube: &[TermId],
        b: usize,
    ) -> Result<Option<Vec<TermId>>, UnknownReason> {
        const MAX_DISJUNCTS: usize = 4;
        let arith: Vec<TermId> = cube
            .iter()
            .copied()
            .filter(|&l| is_arith_literal(store, l))
            .collect();
        if arith.len() < 2 {
            // One literal: the interpolant is that literal (possibly tightened); the
            // enumeration would cost SMT checks for nothing.
            return Ok(None);
        }
        self.bump("farkas-attempts");
        let level = self.level_assumptions(store, p, b);
        // Rule r's instance at level b-1 (A's disjunct for r), built once per rule.
        let mut rule_part: FxHashMap<usize, TermId> = FxHashMap::default();
        let mut negated: Vec<TermId> = Vec::new();
        loop {
            let mut asm = negated.clone();
            asm.extend_from_slice(&level);
            // Unsettled within the budget: no interpolant, the cube is generalized by
            // dropping literals alone.
            match self.check_budgeted(store, p, &asm, Why::Farkas, "farkas-over-budget")? {
                None => return Ok(None),
                Some(false) => break,
                Some(true) => {}
            }
            if negated.len() == MAX_DISJUNCTS {
                return Ok(None);
            }
            let m = self.preds[p].solver.model(store);
            let Some(r) = self.fired_rule(store, p, &m) else {
                return Ok(None);
            };
            let a = match rule_part.get(&r) {
                Some(&a) => a,
                None => {
                    let mut parts = vec![self.rules[r].enc];
                    for k in 0..self.rules[r].body.len() {
                        let (q, copies) = self.rules[r].body[k].clone();
                        let o = self.over_approx(store, q, b.saturating_sub(1));
                        let params = self.preds[q].params.clone();
                        parts.push(rename(store, o, &params, &copies));
                    }
                    let a = store.mk_and(&parts);
                    rule_part.insert(r, a);
                    a
                }
            };
            let Ok(implicant) = cove_smt::mbp::implicant(store, &m, a) else {
                return Ok(None);
            };
            let implicant: Vec<TermId> = implicant
                .into_iter()
                .filter(|&l| is_arith_literal(store, l))
                .collect();
            let Some(h) = cove_smt::interpolate(store, &implicant, &arith) else {
                return Ok(None);
            };
            let not_h = store.mk_not(h);
            let not_h = cove_logic::simplify(store, not_h);
            if store.as_bool(not_h) == Some(true) || negated.contains(&not_h) {
                // `h` is false (A's implicant alone is contradictory) or no progress.
                return Ok(None);
            }
            negated.push(not_h);
        }
        if negated.is_empty() || negated == cube {
            return Ok(None);
        }
        self.bump(match negated.len() {
            1 => "farkas-1",
            2 => "farkas-2",
            3 => "farkas-3",
            _ => "farkas-4+",
        });
        Ok(Some(negated))
    }
}

/// A comparison between arithmetic terms (what Farkas interpolation understands).
fn is_arith_literal(store: &TermStore, l: TermId) -> bool {
    use cove_logic::Op;
    let (l, negated) = match store.op(l) {
        Op::Not => (store.args(l)[0], true),
        _ => (l, false),
    };
    let cmp = match store.op(l) {
        Op::Le | Op::Lt | Op::Ge | Op::Gt => true,
        Op::Eq => !negated,
        _ => false,
    };
    cmp && store.sort(store.args(l)[0]).is_arith()
}
