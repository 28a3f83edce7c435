//! CDCL(T) hooks, exercised with a toy "at most k of these variables are true" theory in
//! several styles (eager propagation and conflicts, lazy conflicts in `final_check`, lemmas
//! that introduce a sequential-counter encoding over fresh variables, definitional lemmas with
//! fresh variables at arbitrary levels). Every answer is checked against brute force.

mod common;

use common::{Rng, brute_force, lit_true, random_ksat, satisfies};
use cove_sat::{Limits, Lit, SolveResult, Solver, Theory, TheoryOut, Var};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    /// Propagate `!x` once k are true; conflict when k+1 are true.
    Eager,
    /// Only complain in `final_check`, with a conflict clause.
    LazyConflict,
    /// In `final_check`, add Sinz's sequential counter as lemmas over fresh variables.
    EncodeLemmas,
    /// Eager, plus definitional lemmas `z <-> a & b` over fresh variables during search.
    EagerWithDefs,
}

struct AtMostK {
    xs: Vec<Var>,
    k: usize,
    mode: Mode,
    /// Theory's view of the assignment (from the literals it was sent).
    val: Vec<Option<bool>>,
    /// Variables assigned in the theory's view, in order, and the marks per level.
    assigned: Vec<Var>,
    marks: Vec<usize>,
    encoded: bool,
    defs: usize,
    calls: usize,
}

impl AtMostK {
    fn new(xs: Vec<Var>, k: usize, mode: Mode) -> AtMostK {
        AtMostK {
            xs,
            k,
            mode,
            val: Vec::new(),
            assigned: Vec::new(),
            marks: Vec::new(),
            encoded: false,
            defs: 0,
            calls: 0,
        }
    }

    fn get(&self, v: Var) -> Option<bool> {
        self.val.get(v.index()).copied().flatten()
    }

    fn trues(&self) -> Vec<Var> {
        self.xs
            .iter()
            .copied()
            .filter(|&x| self.get(x) == Some(true))
            .collect()
    }

    fn conflict_clause(&self) -> Option<Vec<Lit>> {
        let t = self.trues();
        (t.len() > self.k).then(|| t[..=self.k].iter().map(|&x| Lit::new(x, true)).collect())
    }

    fn sinz(&self, out: &mut TheoryOut) {
        let (xs, k) = (&self.xs, self.k);
        let n = xs.len();
        let pos = |v: Var| Lit::new(v, false);
        let neg = |v: Var| Lit::new(v, true);
        if k == 0 {
            for &x in xs {
                out.lemma(vec![neg(x)]);
            }
            return;
        }
        if n <= k {
            return;
        }
        let s: Vec<Vec<Var>> = (0..n - 1)
            .map(|_| (0..k).map(|_| out.new_var()).collect())
            .collect();
        out.lemma(vec![neg(xs[0]), pos(s[0][0])]);
        for &s0j in &s[0][1..] {
            out.lemma(vec![neg(s0j)]);
        }
        for i in 1..n - 1 {
            out.lemma(vec![neg(xs[i]), pos(s[i][0])]);
            out.lemma(vec![neg(s[i - 1][0]), pos(s[i][0])]);
            for j in 1..k {
                out.lemma(vec![neg(xs[i]), neg(s[i - 1][j - 1]), pos(s[i][j])]);
                out.lemma(vec![neg(s[i - 1][j]), pos(s[i][j])]);
            }
            out.lemma(vec![neg(xs[i]), neg(s[i - 1][k - 1])]);
        }
        out.lemma(vec![neg(xs[n - 1]), neg(s[n - 2][k - 1])]);
    }
}

impl Theory for AtMostK {
    fn push(&mut self) {
        self.marks.push(self.assigned.len());
    }

    fn pop(&mut self, n: usize) {
        assert!(n <= self.marks.len(), "pop below level 0");
        let m = self.marks[self.marks.len() - n];
        self.marks.truncate(self.marks.len() - n);
        for v in self.assigned.drain(m..) {
            self.val[v.index()] = None;
        }
    }

    fn propagate(&mut self, new_lits: &[Lit], out: &mut TheoryOut) {
        self.calls += 1;
        for &l in new_lits {
            let v = l.var();
            if self.val.len() <= v.index() {
                self.val.resize(v.index() + 1, None);
            }
            assert_eq!(self.val[v.index()], None, "literal {l:?} sent twice");
            self.val[v.index()] = Some(!l.is_neg());
            self.assigned.push(v);
        }
        if !matches!(self.mode, Mode::Eager | Mode::EagerWithDefs) {
            return;
        }
        if let Some(c) = self.conflict_clause() {
            out.conflict(c);
            return;
        }
        let t = self.trues();
        if t.len() == self.k {
            for &x in &self.xs {
                if self.get(x).is_none() {
                    let mut reason = vec![Lit::new(x, true)];
                    reason.extend(t.iter().map(|&y| Lit::new(y, true)));
                    out.propagate(Lit::new(x, true), reason);
                }
            }
        }
        if self.mode == Mode::EagerWithDefs
            && !self.xs.is_empty()
            && self.calls.is_multiple_of(5)
            && self.defs < 12
        {
            self.defs += 1;
            let a = Lit::new(self.xs[self.calls % self.xs.len()], false);
            let b = Lit::new(
                self.xs[(self.calls / 2) % self.xs.len()],
                self.calls.is_multiple_of(3),
            );
            let z = Lit::new(out.new_var(), false);
            out.lemma(vec![!z, a]);
            out.lemma(vec![!z, b]);
            out.lemma(vec![z, !a, !b]);
        }
    }

    fn final_check(&mut self, out: &mut TheoryOut) {
        for &x in &self.xs {
            assert!(
                self.get(x).is_some(),
                "final_check before the theory saw {x:?}"
            );
        }
        if self.conflict_clause().is_none() {
            return;
        }
        if self.mode == Mode::EncodeLemmas && !self.encoded {
            self.encoded = true;
            self.sinz(out);
        } else {
            out.conflict(self.conflict_clause().unwrap_or_default());
        }
    }
}

const MODES: [Mode; 4] = [
    Mode::Eager,
    Mode::LazyConflict,
    Mode::EncodeLemmas,
    Mode::EagerWithDefs,
];

struct Instance {
    n: usize,
    clauses: Vec<Vec<Lit>>,
    xs: Vec<Var>,
    k: usize,
}

impl Instance {
    fn random(rng: &mut Rng) -> Instance {
        let n = 4 + rng.below_u64(11) as usize;
        let m = (n as f64 * (2.0 + rng.below_u64(25) as f64 / 10.0)) as usize;
        let clauses = random_ksat(rng, n, m, 3);
        let xs: Vec<Var> = (0..n as u32)
            .map(Var)
            .filter(|_| rng.below_u64(3) != 0)
            .collect();
        let k = rng.below_u64(xs.len() as u64 / 2 + 1) as usize;
        Instance { n, clauses, xs, k }
    }

    fn holds(&self, m: &[bool]) -> bool {
        self.xs.iter().filter(|x| m[x.index()]).count() <= self.k
    }

    fn solver(&self) -> Solver {
        let mut s = Solver::new();
        for _ in 0..self.n {
            s.new_var();
        }
        for c in &self.clauses {
            s.add_clause(c);
        }
        s
    }
}

#[test]
fn toy_theory_agrees_with_brute_force() {
    let mut rng = Rng::new(common::seed(2024));
    let mut counts = [0usize; 2];
    let mut hooks = [0u64; 4];
    for round in 0..240 * common::scale() {
        let inst = Instance::random(&mut rng);
        let mode = MODES[round % MODES.len()];
        let expected = brute_force(inst.n, &inst.clauses, |m| inst.holds(m));
        let mut s = inst.solver();
        let mut th = AtMostK::new(inst.xs.clone(), inst.k, mode);
        let r = s.solve_limited(&[], &mut th, &Limits::default());
        assert!(th.marks.is_empty(), "theory not popped back to level 0");
        assert_eq!(s.check_invariants(), Ok(()));
        let st = s.stats();
        hooks[0] += st.theory_propagations;
        hooks[1] += st.theory_conflicts;
        hooks[2] += st.theory_lemmas;
        hooks[3] += (s.num_vars() > inst.n) as u64;
        match r {
            SolveResult::Sat => {
                let m = s.model();
                assert!(
                    satisfies(&m, &inst.clauses),
                    "round {round} {mode:?}: clause falsified"
                );
                assert!(
                    inst.holds(&m),
                    "round {round} {mode:?}: cardinality violated"
                );
                counts[0] += 1;
            }
            SolveResult::Unsat => counts[1] += 1,
            SolveResult::Unknown => panic!("round {round} {mode:?}: unknown"),
        }
        assert_eq!(
            r == SolveResult::Sat,
            expected.is_some(),
            "round {round} {mode:?}"
        );
    }
    assert!(counts[0] > 40 && counts[1] > 40, "{counts:?}");
    assert!(
        hooks.iter().all(|&h| h > 10),
        "every hook kind exercised: {hooks:?}"
    );
}

#[test]
fn toy_theory_with_assumptions_and_incremental_solves() {
    let mut rng = Rng::new(common::seed(77));
    for round in 0..80 * common::scale() {
        let inst = Instance::random(&mut rng);
        let mode = MODES[round % MODES.len()];
        let mut s = inst.solver();
        let mut th = AtMostK::new(inst.xs.clone(), inst.k, mode);
        for _ in 0..6 {
            let a: Vec<Lit> = (0..1 + rng.below_u64(4))
                .map(|_| Lit::new(Var(rng.below_u64(inst.n as u64) as u32), rng.flip()))
                .collect();
            let r = s.solve_limited(&a, &mut th, &Limits::default());
            assert!(th.marks.is_empty());
            let expected = brute_force(inst.n, &inst.clauses, |m| {
                inst.holds(m) && a.iter().all(|&x| lit_true(m, x))
            });
            assert_eq!(
                r == SolveResult::Sat,
                expected.is_some(),
                "round {round} {mode:?} {a:?}"
            );
            match r {
                SolveResult::Sat => {
                    let m = s.model();
                    assert!(satisfies(&m, &inst.clauses) && inst.holds(&m));
                    assert!(a.iter().all(|&x| lit_true(&m, x)));
                }
                SolveResult::Unsat => {
                    let core = s.failed_assumptions().to_vec();
                    assert!(core.iter().all(|l| a.contains(l)));
                    let none = brute_force(inst.n, &inst.clauses, |m| {
                        inst.holds(m) && core.iter().all(|&x| lit_true(m, x))
                    });
                    assert!(
                        none.is_none(),
                        "round {round} {mode:?}: core {core:?} satisfiable"
                    );
                    // And a fresh solver with a fresh theory agrees on the core.
                    let mut fresh = inst.solver();
                    let mut th2 = AtMostK::new(inst.xs.clone(), inst.k, mode);
                    let r2 = fresh.solve_limited(&core, &mut th2, &Limits::default());
                    assert_eq!(r2, SolveResult::Unsat);
                }
                SolveResult::Unknown => panic!("unknown"),
            }
        }
    }
}

/// A theory that always rejects without explanation must not make the solver claim Sat.
#[test]
fn silent_rejection_is_unknown() {
    struct Stubborn;
    impl Theory for Stubborn {
        fn push(&mut self) {}
        fn pop(&mut self, _: usize) {}
        fn propagate(&mut self, _: &[Lit], _: &mut TheoryOut) {}
        fn final_check(&mut self, out: &mut TheoryOut) {
            // A tautology carries no information.
            out.lemma(vec![Lit::from_dimacs(1), Lit::from_dimacs(-1)]);
        }
    }
    let mut s = Solver::new();
    s.add_clause(&[Lit::from_dimacs(1), Lit::from_dimacs(2)]);
    assert_eq!(
        s.solve_limited(&[], &mut Stubborn, &Limits::default()),
        SolveResult::Unknown
    );
}
