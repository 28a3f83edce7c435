//! The arithmetic theory plugged into the CDCL search (`cove_sat::Theory`).
//!
//! Every theory atom is a Boolean variable standing for one bound on one simplex variable:
//! the positive literal asserts `x ≤ b` (or `x ≥ b`), the negative one the complementary
//! bound (`x > b` is `x ≥ b + δ` in Q_δ). The bound's tag is the index of the literal that
//! asserted it, so simplex conflicts and implied-bound explanations translate back to
//! clauses directly.
//!
//! Theory propagation: a newly asserted bound propagates the atoms on the same variable
//! (binary reasons), and after a successful check every tableau row touched since the
//! last check propagates the bounds it implies (`propagate_rows`), only onto variables
//! that still have unassigned atoms and with the reason built only when an atom is
//! actually implied. Optionally (`set_chain_rounds`, off by default: it did not pay on CHC
//! unrollings) strictly tighter implied bounds are asserted in the simplex as *derived*
//! bounds, tagged `DERIVED | i` where `derived[i]` lists their leaf literals; every tag is
//! expanded through `leaf_lits` before it reaches a clause.
//!
//! # Invariants
//! * `trail` holds every atom literal received from (or propagated to) the SAT solver that
//!   is still assigned, in order; `trail_lim` marks decision levels, in lockstep with the
//!   simplex's own levels.
//! * The prefix `trail[..qhead]` has been asserted in the simplex, each entry at a simplex
//!   level not above the entry's current level (entries asserted at a level that was later
//!   popped while the literal survived are re-asserted: `qhead` is moved back on pop).
//! * `derived[derived_lim[k]..]` were asserted at levels above `k`; their literals are
//!   true, and the simplex forgets these bounds on the same pop that truncates them.
//! * `unassigned[v]` counts the atoms on `v` with `val == 0`.
//! * A literal is only ever propagated while its atom is unassigned here, which (by the
//!   solver's protocol: every trail literal is sent before the theory is asked) means it is
//!   unassigned in the SAT solver too.

use crate::atom_index::AtomIndex;
use crate::lia::{IntChecker, IntStep};
use crate::simplex::{BoundKind, BoundTag, Conflict, DeltaRational, RowBound, Simplex, TVar};
use cove_logic::Rational;
use cove_sat::{Lit, Theory, TheoryOut, Var};
use rustc_hash::FxHashMap;

/// How many bounds the theory's propagation loops handle between two polls of the limits.
const POLL_EVERY: usize = 64;

const NONE: u32 = u32::MAX;
/// Tag bit of derived bounds (asserted implied bounds); the rest indexes `derived`.
const DERIVED: u32 = 1 << 31;

/// One theory atom: `var kind bound` when its Boolean variable is true.
#[derive(Clone, Debug)]
pub(crate) struct Atom {
    pub var: TVar,
    pub bvar: Var,
    /// The bound asserted by the positive literal (rounded for integer variables).
    pos: (BoundKind, DeltaRational),
    /// The bound asserted by the negative literal (rounded for integer variables).
    neg: (BoundKind, DeltaRational),
}

impl Atom {
    /// The bound that one of the atom's literals asserts on side `kind` (the two literals
    /// assert opposite sides).
    fn side(&self, kind: BoundKind) -> &DeltaRational {
        if self.pos.0 == kind {
            &self.pos.1
        } else {
            &self.neg.1
        }
    }
}

/// Counters of the theory side.
#[derive(Clone, Debug, Default)]
pub(crate) struct TheoryStats {
    pub conflicts: u64,
    pub propagations: u64,
    pub branches: u64,
    pub cuts: u64,
    pub cubes: u64,
    pub final_checks: u64,
    pub derived: u64,
}

/// The simplex plus the atom bookkeeping that connects it to the SAT solver.
pub(crate) struct ArithTheory {
    pub sx: Simplex,
    pub atoms: Vec<Atom>,
    /// SAT variable index -> atom index (or `NONE`).
    atom_of_var: Vec<u32>,
    /// Simplex variable -> atoms on it, sorted by bound.
    index: AtomIndex,
    /// Scratch of `implied_lits`: implied atoms.
    atom_buf: Vec<u32>,
    /// Canonical upper-bound atoms: (var, bound) -> positive literal.
    upper_key: FxHashMap<(TVar, DeltaRational), Lit>,
    /// Per atom: 0 unassigned, 1 positive literal true, -1 negative literal true.
    val: Vec<i8>,
    /// Per simplex variable: number of its atoms that are unassigned.
    unassigned: Vec<u32>,
    /// Scratch buffers of row propagation.
    rb_buf: Vec<RowBound>,
    lit_buf: Vec<Lit>,
    /// Leaf literals of derived bounds (tag `DERIVED | i`), truncated on pop.
    derived: Vec<Vec<Lit>>,
    /// `derived.len()` at each open level.
    derived_lim: Vec<usize>,
    /// Rounds of derived-bound chaining per propagation (0: no chaining).
    chain_rounds: u32,
    trail: Vec<Lit>,
    /// Simplex level at which `trail[i]` was asserted (meaningful below `qhead`).
    asserted_at: Vec<u32>,
    trail_lim: Vec<usize>,
    qhead: usize,
    /// Integer problem variables (branch-and-bound candidates).
    pub int_vars: Vec<TVar>,
    /// Integer variables branched on so far, in first-branch order (no duplicates).
    pub branched: Vec<TVar>,
    /// Per simplex variable: whether it is in `branched`.
    is_branched: Vec<bool>,
    /// Concrete values of all simplex variables at the last accepted final check.
    pub model: Option<Vec<Rational>>,
    pub stats: TheoryStats,
    int: IntChecker,
    /// Cube tests still allowed (each failure costs one).
    cube_budget: u32,
    /// Branch-and-bound splits allowed per check (`None`: unlimited); see
    /// [`ArithTheory::set_branch_limit`].
    branch_limit: Option<u64>,
    /// Splits made in the current check.
    check_branches: u64,
}

/// Cube tests (rounding a relaxed model) allowed per check.
const CUBE_BUDGET: u32 = 64;

impl ArithTheory {
    pub fn new() -> ArithTheory {
        ArithTheory {
            // Row-based implied bounds are on (restricted to variables with unassigned
            // atoms, explained lazily). On 62 CHC unrollings (20 instances, depths 5, 10,
            // 20; 5 s) they solve 39 instead of 37, and 50 instead of 45 once local
            // variables are eliminated (z3 `solve-eqs`), where they cut conflicts most;
            // Spacer on 41 CHC files: neutral to slightly better.
            sx: Simplex::new(),
            atoms: Vec::new(),
            atom_of_var: Vec::new(),
            index: AtomIndex::default(),
            atom_buf: Vec::new(),
            upper_key: FxHashMap::default(),
            val: Vec::new(),
            unassigned: Vec::new(),
            rb_buf: Vec::new(),
            lit_buf: Vec::new(),
            derived: Vec::new(),
            derived_lim: Vec::new(),
            chain_rounds: 0,
            trail: Vec::new(),
            asserted_at: Vec::new(),
            trail_lim: Vec::new(),
            qhead: 0,
            int_vars: Vec::new(),
            branched: Vec::new(),
            is_branched: Vec::new(),
            model: None,
            stats: TheoryStats::default(),
            int: IntChecker::default(),
            cube_budget: CUBE_BUDGET,
            branch_limit: None,
            check_branches: 0,
        }
    }

    /// Starts a new check: the integer layer's cut and cube budgets are per check. A
    /// budget over the solver's lifetime left the long-lived solvers of the engines
    /// without cuts after their first hundred checks, and branch and bound alone drifts
    /// on the unbounded quotients of `div`/`mod` (the tableau growth that cuts bring is
    /// bounded by `SmtSolver`'s rebuild).
    pub fn new_check(&mut self) {
        self.int.reset();
        self.cube_budget = CUBE_BUDGET;
        self.check_branches = 0;
    }

    /// At most `limit` branch-and-bound splits per check; the next one gives up instead
    /// ([`cove_sat::TheoryOut::give_up`]). A conflict limit alone does not bound a check:
    /// branch and bound can drift through split after split, each satisfiable, without a
    /// conflict, and every split adds two atoms and two clauses that live as long as the
    /// solver's current build.
    pub fn set_branch_limit(&mut self, limit: Option<u64>) {
        self.branch_limit = limit;
    }

    /// Whether the current check gave up at its branch limit.
    pub fn branch_limit_hit(&self) -> bool {
        self.branch_limit.is_some_and(|l| self.check_branches >= l)
    }

    /// Whether theory propagation through tableau rows is on.
    pub fn row_propagation(&self) -> bool {
        self.sx.propagation()
    }

    pub fn set_row_propagation(&mut self, on: bool) {
        self.sx.set_propagation(on);
    }

    /// The limits the simplex polls during a check; when one is hit the theory gives up
    /// ([`cove_sat::TheoryOut::give_up`]) and the solve ends `Unknown`.
    pub fn set_poll(&mut self, control: Option<cove_control::Control>) {
        self.sx.set_poll(control);
    }

    /// Rounds of derived-bound chaining per propagation (0: off).
    pub fn chain_rounds(&self) -> u32 {
        self.chain_rounds
    }

    /// Rounds of derived-bound chaining per propagation (0 turns chaining off).
    pub fn set_chain_rounds(&mut self, rounds: u32) {
        self.chain_rounds = rounds;
    }

    /// A new simplex problem variable.
    pub fn add_var(&mut self, is_int: bool) -> TVar {
        let v = self.sx.add_var(is_int);
        if is_int {
            self.int_vars.push(v);
        }
        v
    }

    fn ensure_var_atoms(&mut self, v: TVar) {
        if self.unassigned.len() <= v.idx() {
            self.unassigned.resize(v.idx() + 1, 0);
        }
    }

    /// Registers atom `var kind bound` for the SAT variable `bvar`.
    pub fn register(&mut self, var: TVar, kind: BoundKind, bound: DeltaRational, bvar: Var) {
        let a = self.atoms.len() as u32;
        if self.atom_of_var.len() <= bvar.index() {
            self.atom_of_var.resize(bvar.index() + 1, NONE);
        }
        self.atom_of_var[bvar.index()] = a;
        self.ensure_var_atoms(var);
        self.unassigned[var.idx()] += 1;
        let (nk, nb) = complement(kind, &bound);
        let pos = (kind, round_bound(&self.sx, var, kind, bound));
        let neg = (nk, round_bound(&self.sx, var, nk, nb));
        self.atoms.push(Atom {
            var,
            bvar,
            pos,
            neg,
        });
        self.val.push(0);
        let atoms = &self.atoms;
        self.index.add(var, a, |a, k| atoms[a as usize].side(k));
    }

    /// The literal of the canonical atom `var kind bound`, if it exists already; otherwise
    /// the canonical (upper) bound under which the caller must create it, and the polarity.
    pub fn lookup(
        &self,
        var: TVar,
        kind: BoundKind,
        bound: DeltaRational,
    ) -> Result<Lit, (DeltaRational, bool)> {
        let (ub, negated) = canonical_upper(&self.sx, var, kind, bound);
        match self.upper_key.get(&(var, ub.clone())) {
            Some(&l) => Ok(if negated { !l } else { l }),
            None => Err((ub, negated)),
        }
    }

    /// Registers a canonical upper atom created after a failed [`ArithTheory::lookup`].
    pub fn register_upper(&mut self, var: TVar, ub: DeltaRational, bvar: Var) {
        self.upper_key
            .insert((var, ub.clone()), Lit::new(bvar, false));
        self.register(var, BoundKind::Upper, ub, bvar);
    }

    /// The literal of the atom `var kind bound`, created (with a variable from `fresh`) if
    /// it does not exist yet.
    pub fn bound_atom(
        &mut self,
        var: TVar,
        kind: BoundKind,
        bound: DeltaRational,
        fresh: &mut dyn FnMut() -> Var,
    ) -> Lit {
        match self.lookup(var, kind, bound) {
            Ok(l) => l,
            Err((ub, negated)) => {
                let bv = fresh();
                self.register_upper(var, ub, bv);
                Lit::new(bv, negated)
            }
        }
    }

    /// The literal of `Σ lin ⋈ rhs` (`upper`: `≤`, else `≥`; `strict` for `<`/`>`), or
    /// `Err(holds)` when the form is identically zero.
    pub fn form_atom(
        &mut self,
        lin: &[(TVar, Rational)],
        upper: bool,
        rhs: &Rational,
        strict: bool,
        fresh: &mut dyn FnMut() -> Var,
    ) -> Result<Lit, bool> {
        let Some(row) = self.sx.add_row(lin) else {
            let s = -rhs.signum();
            // 0 ≤ rhs, 0 < rhs, 0 ≥ rhs, 0 > rhs.
            return Err(match (upper, strict) {
                (true, false) => s <= 0,
                (true, true) => s < 0,
                (false, false) => s >= 0,
                (false, true) => s > 0,
            });
        };
        let val = &row.factor * rhs;
        let up = upper == row.factor.is_positive();
        let (kind, bound) = match (up, strict) {
            (true, false) => (BoundKind::Upper, DeltaRational::from_rational(val)),
            (true, true) => (BoundKind::Upper, DeltaRational::below(val)),
            (false, false) => (BoundKind::Lower, DeltaRational::from_rational(val)),
            (false, true) => (BoundKind::Lower, DeltaRational::above(val)),
        };
        Ok(self.bound_atom(row.var, kind, bound, fresh))
    }

    fn atom_of(&self, l: Lit) -> Option<usize> {
        match self.atom_of_var.get(l.var().index()) {
            Some(&a) if a != NONE => Some(a as usize),
            _ => None,
        }
    }

    /// The bound a literal of atom `a` asserts.
    fn lit_bound(&self, a: usize, positive: bool) -> (BoundKind, DeltaRational) {
        let at = &self.atoms[a];
        if positive {
            at.pos.clone()
        } else {
            at.neg.clone()
        }
    }

    /// Records that `l` (a literal of atom `a`) is true at the current level.
    fn record(&mut self, a: usize, l: Lit) {
        self.val[a] = if l.is_neg() { -1 } else { 1 };
        self.unassigned[self.atoms[a].var.idx()] -= 1;
        self.trail.push(l);
        self.asserted_at.push(0);
    }

    /// Asserts the recorded but not yet asserted literals; stops at the first conflict.
    fn assert_pending(&mut self) -> Result<(), Conflict> {
        let level = self.trail_lim.len() as u32;
        while self.qhead < self.trail.len() {
            let l = self.trail[self.qhead];
            let a = self.atom_of(l).expect("trail holds atoms");
            let (kind, b) = self.lit_bound(a, !l.is_neg());
            let var = self.atoms[a].var;
            self.sx
                .assert_bound(var, kind, b, BoundTag(l.index() as u32))?;
            self.asserted_at[self.qhead] = level;
            self.qhead += 1;
        }
        Ok(())
    }

    /// Literals of unassigned atoms on `var` implied by `var kind value`, appended to `out`
    /// in atom order.
    fn implied_lits(
        &mut self,
        var: TVar,
        kind: BoundKind,
        value: &DeltaRational,
        out: &mut Vec<Lit>,
    ) {
        if self.unassigned.get(var.idx()).is_none_or(|&n| n == 0) {
            return;
        }
        let rounded;
        let value = if self.sx.is_int(var) {
            rounded = round_bound(&self.sx, var, kind, value.clone());
            &rounded
        } else {
            value
        };
        let mut found = std::mem::take(&mut self.atom_buf);
        let (atoms, val) = (&self.atoms, &self.val);
        self.index.implied(
            var,
            kind,
            value,
            |a, k| atoms[a as usize].side(k),
            |a| val[a as usize] == 0,
            &mut found,
        );
        for &a in &found {
            let at = &self.atoms[a as usize];
            // The literal whose bound is on side `kind` is the implied one.
            out.push(Lit::new(at.bvar, at.pos.0 != kind));
        }
        found.clear();
        self.atom_buf = found;
    }

    /// Propagates the literals `lits` (unassigned atoms) with the reason literals `reason`
    /// (true now, implying each of them).
    fn propagate_lits(&mut self, lits: &[Lit], reason: &[Lit], out: &mut TheoryOut) {
        for &lit in lits {
            let a = self.atom_of(lit).expect("atom literal");
            let mut clause = Vec::with_capacity(reason.len() + 1);
            clause.push(lit);
            clause.extend(reason.iter().map(|&r| !r));
            out.propagate(lit, clause);
            self.record(a, lit);
            self.stats.propagations += 1;
        }
    }

    /// Propagates atoms on `var` implied by `var kind value`; `reason` are literals (true
    /// now) that imply the bound.
    fn propagate_bound(
        &mut self,
        var: TVar,
        kind: BoundKind,
        value: &DeltaRational,
        reason: &[Lit],
        out: &mut TheoryOut,
    ) {
        let mut lits = std::mem::take(&mut self.lit_buf);
        self.implied_lits(var, kind, value, &mut lits);
        self.propagate_lits(&lits, reason, out);
        lits.clear();
        self.lit_buf = lits;
    }

    /// Atoms implied through tableau rows touched since the last call. Only variables
    /// with unassigned atoms are considered, and a reason is built only for bounds that
    /// imply at least one atom. With chaining on, strictly tighter bounds on variables
    /// without atoms are asserted as derived bounds (tagged with their leaf literals), so
    /// that bounds travel along chains of equalities; this repeats for a few rounds.
    /// Returns false after reporting a conflict.
    fn propagate_rows(&mut self, out: &mut TheoryOut) -> bool {
        let mut rbs = std::mem::take(&mut self.rb_buf);
        let mut lits = std::mem::take(&mut self.lit_buf);
        let mut tags = Vec::new();
        let mut ok = true;
        for _round in 0..self.chain_rounds.max(1) {
            {
                let unassigned = &self.unassigned;
                let chain = self.chain_rounds > 0;
                self.sx.row_bounds(
                    |v| chain || unassigned.get(v.idx()).is_some_and(|&n| n > 0),
                    &mut rbs,
                );
            }
            let mut derived_any = false;
            for (k, rb) in rbs.iter().enumerate() {
                if k % POLL_EVERY == POLL_EVERY - 1 && self.sx.poll_stop() {
                    out.give_up();
                    ok = false;
                    break;
                }
                lits.clear();
                self.implied_lits(rb.var, rb.kind, &rb.bound, &mut lits);
                if !lits.is_empty() {
                    tags.clear();
                    self.sx.row_bound_tags(rb, &mut tags);
                    let reason = self.leaf_lits(tags.iter().copied());
                    self.propagate_lits(&lits, &reason, out);
                }
                if self.chain_rounds > 0 {
                    // Derived bounds asserted earlier in this batch may have tightened
                    // bounds this one was computed from; its explanation then names the
                    // tighter bounds, which imply it all the more.
                    tags.clear();
                    self.sx.row_bound_tags(rb, &mut tags);
                    let leaves = self.leaf_lits(tags.iter().copied());
                    let tag = BoundTag(DERIVED | self.derived.len() as u32);
                    self.derived.push(leaves);
                    self.stats.derived += 1;
                    derived_any = true;
                    if let Err(c) = self.sx.assert_bound(rb.var, rb.kind, rb.bound.clone(), tag) {
                        self.report(c, out);
                        ok = false;
                        break;
                    }
                }
            }
            rbs.clear();
            if !ok || !derived_any {
                break;
            }
            if let Err(c) = self.sx.check() {
                self.report(c, out);
                ok = false;
                break;
            }
            if self.sx.stopped() {
                out.give_up();
                ok = false;
                break;
            }
        }
        lits.clear();
        self.lit_buf = lits;
        self.rb_buf = rbs;
        ok
    }

    /// The atom literals behind bound tags (derived bounds expanded), sorted, deduplicated.
    fn leaf_lits(&self, tags: impl IntoIterator<Item = BoundTag>) -> Vec<Lit> {
        let mut v = Vec::new();
        for t in tags {
            if t.0 & DERIVED != 0 {
                v.extend_from_slice(&self.derived[(t.0 & !DERIVED) as usize]);
            } else {
                v.push(Lit::from_index(t.0 as usize));
            }
        }
        v.sort_unstable();
        v.dedup();
        v
    }

    fn conflict_clause(&self, c: &Conflict) -> Vec<Lit> {
        self.leaf_lits(c.terms.iter().map(|t| t.tag))
            .into_iter()
            .map(|l| !l)
            .collect()
    }

    fn report(&mut self, c: Conflict, out: &mut TheoryOut) {
        debug_assert!(
            c.verify(&self.sx),
            "simplex conflict certificate must verify"
        );
        self.stats.conflicts += 1;
        out.conflict(self.conflict_clause(&c));
    }

    /// Asserts pending bounds, checks feasibility, and propagates implied atoms.
    fn run(&mut self, out: &mut TheoryOut) -> bool {
        let start = self.qhead;
        if let Err(c) = self.assert_pending() {
            self.report(c, out);
            return false;
        }
        // Atoms implied directly by the newly asserted bounds. The loop polls the limits:
        // with a hundred thousand atoms on a variable one bound's scan is long, and a batch
        // of bounds ran 0.6 s past a deadline (split-TPA on `s_split_30` at 60 s).
        for i in start..self.qhead {
            if (i - start) % POLL_EVERY == POLL_EVERY - 1 && self.sx.poll_stop() {
                out.give_up();
                return false;
            }
            let l = self.trail[i];
            let a = self.atom_of(l).expect("atom");
            let (kind, b) = self.lit_bound(a, !l.is_neg());
            let var = self.atoms[a].var;
            self.propagate_bound(var, kind, &b, &[l], out);
        }
        if let Err(c) = self.sx.check() {
            self.report(c, out);
            return false;
        }
        if self.sx.stopped() {
            out.give_up();
            return false;
        }
        // Atoms implied through tableau rows.
        self.propagate_rows(out)
    }

    /// Plain branching when the integer step produced nothing usable.
    fn final_check_branch_fallback(&mut self, out: &mut TheoryOut) {
        if let Some(var) = self.fractional_var() {
            let floor = self.sx.value(var).floor();
            self.branch(var, floor, out);
        }
    }

    /// The split `var <= floor ∨ var >= floor + 1` over two fresh atoms. The side towards
    /// zero is created second, so that the solver's default (negative) phase on the first
    /// fresh variable selects it: drifting away from the origin is what makes branch and
    /// bound diverge on unbounded problems.
    fn branch(&mut self, var: TVar, floor: Rational, out: &mut TheoryOut) {
        if self.branch_limit_hit() {
            out.give_up();
            return;
        }
        self.check_branches += 1;
        self.stats.branches += 1;
        if self.is_branched.len() <= var.idx() {
            self.is_branched.resize(var.idx() + 1, false);
        }
        if !self.is_branched[var.idx()] {
            self.is_branched[var.idx()] = true;
            self.branched.push(var);
        }
        let up = DeltaRational::from_rational(&floor + &Rational::ONE);
        let down = DeltaRational::from_rational(floor.clone());
        let prefer_down =
            floor.is_positive() || (floor.is_zero() && !self.sx.value(var).real.is_negative());
        let (first, second) = if prefer_down {
            ((BoundKind::Lower, up), (BoundKind::Upper, down))
        } else {
            ((BoundKind::Upper, down), (BoundKind::Lower, up))
        };
        let p = out.new_var();
        let q = out.new_var();
        self.register(var, first.0, first.1, p);
        self.register(var, second.0, second.1, q);
        out.lemma(vec![Lit::new(p, false), Lit::new(q, false)]);
        out.lemma(vec![Lit::new(p, true), Lit::new(q, true)]);
    }

    /// The cube test (Bromberger and Weidenbach): shrink every row bound by half the sum of
    /// the absolute integer coefficients of its definition; if the shrunken problem is
    /// feasible, rounding every integer variable to the nearest integer moves each row by
    /// at most that much, so the rounded point satisfies all the original bounds. Returns
    /// the concrete values of all simplex variables at that point.
    fn try_cube(&mut self) -> Option<Vec<Rational>> {
        let n = self.sx.num_vars();
        let half = Rational::new(1, 2);
        self.sx.push();
        let mut ok = true;
        for v in 0..n {
            let x = TVar(v as u32);
            let Some(def) = self.sx.definition(x) else {
                continue;
            };
            let mut w = Rational::ZERO;
            for (y, a) in def {
                if self.sx.is_int(*y) {
                    w += &a.abs();
                }
            }
            if w.is_zero() {
                continue;
            }
            let w = DeltaRational::from_rational(&w * &half);
            let lo = self.sx.lower_bound(x).map(|(b, t)| (b.add(&w), t));
            let up = self.sx.upper_bound(x).map(|(b, t)| (b.sub(&w), t));
            if let Some((b, t)) = lo {
                ok &= self.sx.assert_lower(x, b, t).is_ok();
            }
            if let Some((b, t)) = up {
                ok &= ok && self.sx.assert_upper(x, b, t).is_ok();
            }
            if !ok {
                break;
            }
        }
        let mut result = None;
        if ok && self.sx.check().is_ok() && !self.sx.stopped() {
            let d = self.sx.concrete_delta();
            let mut vals: Vec<Rational> = (0..n)
                .map(|v| self.sx.concrete_value(TVar(v as u32), &d))
                .collect();
            for (v, val) in vals.iter_mut().enumerate() {
                let x = TVar(v as u32);
                if self.sx.is_int(x) && self.sx.definition(x).is_none() {
                    *val = (&*val + &half).floor();
                }
            }
            for v in 0..n {
                if let Some(def) = self.sx.definition(TVar(v as u32)) {
                    let mut s = Rational::ZERO;
                    for (y, a) in def {
                        s += &(a * &vals[y.idx()]);
                    }
                    vals[v] = s;
                }
            }
            result = Some(vals);
        }
        self.sx.pop(1);
        result
    }

    /// A split of a bounded integer variable: a fractional one if any (smallest domain
    /// first), else, every third branch, a non-fixed one bisected.
    fn bounded_split(&self) -> Option<(TVar, Rational)> {
        let width = |v: TVar| -> Option<Rational> {
            let (l, _) = self.sx.lower_bound(v)?;
            let (u, _) = self.sx.upper_bound(v)?;
            Some(&u.real - &l.real)
        };
        let mut best: Option<(Rational, TVar)> = None;
        for &v in &self.int_vars {
            if self.sx.value(v).is_integer() {
                continue;
            }
            if let Some(w) = width(v)
                && best.as_ref().is_none_or(|(bw, _)| w < *bw)
            {
                best = Some((w, v));
            }
        }
        if let Some((_, v)) = best {
            return Some((v, self.sx.value(v).floor()));
        }
        if self.stats.branches % 3 != 2 {
            return None;
        }
        for &v in &self.int_vars {
            if let Some(w) = width(v)
                && w.is_positive()
                && best.as_ref().is_none_or(|(bw, _)| w < *bw)
            {
                best = Some((w, v));
            }
        }
        let (_, v) = best?;
        let (l, _) = self.sx.lower_bound(v)?;
        let (u, _) = self.sx.upper_bound(v)?;
        // Bisect the domain: l <= k < u, so both sides are non-empty and halve it.
        let k = ((&l.real + &u.real) * Rational::new(1, 2)).floor();
        Some((v, k))
    }

    /// An integer problem variable with a non-integral value, if any.
    fn fractional_var(&self) -> Option<TVar> {
        self.int_vars
            .iter()
            .copied()
            .find(|&v| !self.sx.value(v).is_integer())
    }
}

impl Theory for ArithTheory {
    fn push(&mut self) {
        self.trail_lim.push(self.trail.len());
        self.derived_lim.push(self.derived.len());
        self.sx.push();
    }

    fn pop(&mut self, n: usize) {
        let n = n.min(self.trail_lim.len());
        if n == 0 {
            return;
        }
        let new_level = self.trail_lim.len() - n;
        let keep = self.trail_lim[new_level];
        self.trail_lim.truncate(new_level);
        self.derived.truncate(self.derived_lim[new_level]);
        self.derived_lim.truncate(new_level);
        self.sx.pop(n);
        while self.trail.len() > keep {
            let l = self.trail.pop().expect("trail");
            self.asserted_at.pop();
            let a = self.atom_of(l).expect("atom");
            self.val[a] = 0;
            self.unassigned[self.atoms[a].var.idx()] += 1;
        }
        self.qhead = self.qhead.min(keep);
        // Survivors asserted at a popped simplex level lost their bound: re-assert them.
        while self.qhead > 0 && self.asserted_at[self.qhead - 1] as usize > new_level {
            self.qhead -= 1;
        }
    }

    /// The polarity of the atom that the current simplex assignment satisfies: asserting
    /// it needs no pivot and cannot conflict with the bounds the assignment already meets.
    fn decision_phase(&self, v: Var) -> Option<bool> {
        let a = *self.atom_of_var.get(v.index())?;
        if a == NONE {
            return None;
        }
        let at = &self.atoms[a as usize];
        let x = self.sx.value(at.var);
        let (kind, b) = &at.pos;
        Some(match kind {
            BoundKind::Upper => x <= b,
            BoundKind::Lower => x >= b,
        })
    }

    fn propagate(&mut self, new_lits: &[Lit], out: &mut TheoryOut) {
        for &l in new_lits {
            let Some(a) = self.atom_of(l) else { continue };
            match self.val[a] {
                0 => self.record(a, l),
                v => debug_assert_eq!(v == -1, l.is_neg(), "atom assigned both ways"),
            }
        }
        self.run(out);
    }

    fn final_check(&mut self, out: &mut TheoryOut) {
        self.stats.final_checks += 1;
        if !self.run(out) || !out.is_empty() {
            return;
        }
        if self.fractional_var().is_some() && self.cube_budget > 0 {
            if let Some(vals) = self.try_cube() {
                self.stats.cubes += 1;
                self.model = Some(vals);
                return;
            }
            self.cube_budget -= 1;
            // The failed attempt left the relaxation unchecked: restore feasibility.
            if let Err(c) = self.sx.check() {
                self.report(c, out);
                return;
            }
            if self.sx.stopped() {
                out.give_up();
                return;
            }
        }
        match self.int.step(&self.sx) {
            IntStep::Feasible => {
                debug_assert!(self.fractional_var().is_none());
                self.model = Some(self.sx.concrete_model());
            }
            IntStep::Branch { var, floor, .. } => {
                // x <= floor(v)  or  x >= floor(v) + 1, as two fresh atoms. Bounded
                // variables first: on unbounded ones branch and bound may drift forever
                // (e.g. the quotients of `mod`), while splitting bounded ones terminates and
                // fixes them, which is what the GCD test needs.
                let (var, floor) = match self.bounded_split() {
                    Some(split) => split,
                    None => (var, floor),
                };
                self.branch(var, floor, out);
            }
            IntStep::Cut(cut) => {
                // deps -> lin >= bound
                self.stats.cuts += 1;
                let mut clause: Vec<Lit> = self
                    .leaf_lits(cut.deps.iter().copied())
                    .into_iter()
                    .map(|l| !l)
                    .collect();
                match self.form_atom(&cut.lin, false, &cut.bound, false, &mut || out.new_var()) {
                    Ok(l) => clause.push(l),
                    Err(true) => return self.final_check_branch_fallback(out),
                    Err(false) => {}
                }
                clause.sort_unstable();
                clause.dedup();
                out.lemma(clause);
            }
            IntStep::Conflict(tags) => {
                self.stats.conflicts += 1;
                let mut clause: Vec<Lit> = self
                    .leaf_lits(tags.iter().copied())
                    .into_iter()
                    .map(|l| !l)
                    .collect();
                clause.sort_unstable();
                clause.dedup();
                out.conflict(clause);
            }
        }
    }
}

/// The complementary bound: `not (x <= b)` is `x >= b + δ`, `not (x >= b)` is `x <= b - δ`.
pub(crate) fn complement(kind: BoundKind, b: &DeltaRational) -> (BoundKind, DeltaRational) {
    match kind {
        BoundKind::Upper => (
            BoundKind::Lower,
            DeltaRational::new(b.real.clone(), &b.delta + &Rational::ONE),
        ),
        BoundKind::Lower => (
            BoundKind::Upper,
            DeltaRational::new(b.real.clone(), &b.delta - &Rational::ONE),
        ),
    }
}

/// Bounds on integer variables rounded to integers (as the simplex does on assertion).
fn round_bound(sx: &Simplex, v: TVar, kind: BoundKind, b: DeltaRational) -> DeltaRational {
    if !sx.is_int(v) {
        return b;
    }
    DeltaRational::from_rational(match kind {
        BoundKind::Upper => b.floor(),
        BoundKind::Lower => b.ceil(),
    })
}

/// Canonical form of an atom as an upper bound: `(bound, negated)` with the atom equal to
/// `var <= bound`, negated when `negated`.
fn canonical_upper(
    sx: &Simplex,
    var: TVar,
    kind: BoundKind,
    b: DeltaRational,
) -> (DeltaRational, bool) {
    let b = round_bound(sx, var, kind, b);
    match kind {
        BoundKind::Upper => (b, false),
        BoundKind::Lower => {
            let (_, ub) = complement(BoundKind::Lower, &b);
            (round_bound(sx, var, BoundKind::Upper, ub), true)
        }
    }
}
