//! Localization abstraction with counterexample-guided, BMC-driven refinement (the "LOC"
//! engine of the IBM portfolio in Dureja et al., FMCAD 2019, §2.1 of the paper digest).
//!
//! Many properties of large designs depend on a small part of the state. The abstraction
//! keeps a set of *visible* latches and turns every other latch into a free input (a cut
//! point), which over-approximates the reachable states projected on the visible latches.
//! The abstract circuit, reduced to its cone of influence, is proved with IC3:
//!
//! * an abstract invariant is an invariant of the concrete circuit (the concrete transition
//!   relation only restricts the cut points), so it is returned as it is — its clauses are over
//!   visible latches, which are latches of the concrete circuit — and the driver's
//!   independent certificate check applies unchanged;
//! * an abstract counterexample of length `k` is checked by BMC on the concrete circuit up to
//!   depth `k`. Each latch's update (reset value in frame 0, next-state function after) is
//!   guarded by an activation literal; with all of them assumed the query is concrete. A
//!   model is a real counterexample (the driver re-simulates it on the original circuit). On
//!   unsatisfiability the failed assumptions name latches whose behaviour refutes every
//!   abstract counterexample up to depth `k`; the invisible ones among them become visible and
//!   IC3 runs again. Each refinement adds at least one latch, so the loop ends.
//!
//! The concrete unrolling is kept across refinements (one incremental solver) and encoded on
//! demand from the cone of the bad literal, like [`crate::bmc`].

use crate::engine::{EngineResult, Proof, RawTrace, sat};
use crate::reduce::reduce;
use crate::{ALit, Aig, Init};
use cove_control::{Control, UnknownReason};
use cove_sat::{LBool, Limits, Lit, Solver};
use std::time::Duration;

/// Runs localization abstraction until an answer or a stop.
pub fn loc(aig: &Aig, ctl: &Control) -> EngineResult {
    match run(aig, ctl, 1.0) {
        Ok(r) => r,
        Err(r) => EngineResult::Unknown(r),
    }
}

/// The portfolio's first engine: localization while it pays, then IC3 on the whole circuit.
///
/// Localization gets at most half of the remaining time (10 s without a deadline) and gives
/// up once the abstraction keeps half the latches: beyond that the abstract IC3 runs are
/// nearly as hard as the concrete one, and restarting IC3 after each refinement only loses
/// time. Plain IC3 then gets what is left.
pub fn loc_then_ic3(aig: &Aig, ctl: &Control) -> EngineResult {
    let budget = ctl
        .remaining()
        .map_or(Duration::from_secs(10), |r| r.mul_f64(0.5));
    let sub = ctl.child_with_budget(budget);
    match run(aig, &sub, 0.5) {
        Ok(r) => return r,
        Err(r) => {
            if ctl.verbosity > 0 {
                eprintln!("loc: gave up ({r:?}); IC3 on the whole circuit");
            }
        }
    }
    if let Some(r) = ctl.should_stop() {
        return EngineResult::Unknown(r);
    }
    crate::ic3::ic3(aig, ctl)
}

/// Depths without refinement after which the BMC phase hands the abstraction to IC3 (the
/// `n` of the paper's Fig. 8).
const STABLE_DEPTHS: usize = 4;

/// The CEGAR loop; gives up (`Incomplete`) once more than `max_share` of the latches are
/// visible and the abstraction is not the whole circuit.
///
/// Each round has two phases. The BMC phase (Fig. 8 of the paper) runs BMC on the abstraction
/// for increasing depths, refining on every spurious counterexample, until the abstraction
/// has stayed unchanged for [`STABLE_DEPTHS`] depths: refinements are cheap there, while
/// each one found by IC3 costs a whole IC3 run. Then IC3 proves the abstraction or returns
/// an abstract counterexample, which is checked and refined the same way.
fn run(aig: &Aig, ctl: &Control, max_share: f64) -> Result<EngineResult, UnknownReason> {
    let n = aig.latches.len();
    let mut visible = support_latches(aig);
    let mut conc = Concrete::new(aig);
    let limits = Limits::of(ctl);
    // The abstraction has no counterexample shorter than `k` (kept as it grows).
    let mut k = 0;
    let mut unchanged = 0;
    loop {
        let too_big = |visible: &[bool]| {
            let n_vis = visible.iter().filter(|&&v| v).count();
            (n_vis < n && n_vis as f64 > max_share * n as f64).then(|| {
                UnknownReason::Incomplete(format!("abstraction grew to {n_vis} of {n} latches"))
            })
        };
        while unchanged < STABLE_DEPTHS {
            if let Some(r) = ctl.should_stop().or_else(|| too_big(&visible)) {
                return Err(r);
            }
            if !conc.abstract_cex(k, &visible, &limits, ctl)? {
                unchanged += 1;
                k += 1;
                continue;
            }
            unchanged = 0;
            match conc.check(k, &visible, &limits, ctl)? {
                Check::Real(t) => return Ok(EngineResult::Unsafe(t)),
                Check::Spurious(core) => refine(&mut visible, core, k, "BMC", ctl),
            }
        }
        if let Some(r) = ctl.should_stop().or_else(|| too_big(&visible)) {
            return Err(r);
        }
        let abs = abstraction(aig, &visible);
        let red = reduce(&abs, ctl)?;
        if ctl.verbosity > 0 {
            eprintln!(
                "loc: {} of {n} latches visible; abstract circuit {} latches, {} ands",
                visible.iter().filter(|&&v| v).count(),
                red.aig.latches.len(),
                red.aig.ands.len()
            );
        }
        match crate::ic3::ic3(&red.aig, ctl) {
            EngineResult::Unknown(r) => return Err(r),
            EngineResult::Safe(Proof::Invariant(clauses)) => {
                // Reduced abstract latch → abstract latch → concrete latch variable.
                let mut var_of = vec![u32::MAX; red.aig.max_var as usize + 1];
                for (i, l) in red.aig.latches.iter().enumerate() {
                    var_of[l.var as usize] = abs.latches[red.latch_orig[i]].var;
                }
                let mut inv = Vec::with_capacity(clauses.len() + red.const_latches.len());
                for c in &clauses {
                    let mut oc = Vec::with_capacity(c.len());
                    for &l in c {
                        match var_of.get((l >> 1) as usize) {
                            Some(&v) if v != u32::MAX => oc.push(2 * v + (l & 1)),
                            _ => {
                                return Err(UnknownReason::Incomplete(format!(
                                    "abstract invariant literal {l} is not a latch"
                                )));
                            }
                        }
                    }
                    inv.push(oc);
                }
                inv.extend(
                    red.const_latches
                        .iter()
                        .map(|&(i, v)| vec![2 * abs.latches[i].var + (!v) as u32]),
                );
                return Ok(EngineResult::Safe(Proof::Invariant(inv)));
            }
            EngineResult::Safe(Proof::KInduction(_)) => {
                return Err(UnknownReason::Incomplete(
                    "IC3 returned a k-induction proof".into(),
                ));
            }
            EngineResult::Unsafe(t) => {
                let depth = t.inputs.len().saturating_sub(1);
                match conc.check(depth, &visible, &limits, ctl)? {
                    Check::Real(t) => return Ok(EngineResult::Unsafe(t)),
                    Check::Spurious(core) => {
                        refine(&mut visible, core, depth, "IC3", ctl);
                        unchanged = 0;
                    }
                }
            }
        }
    }
}

/// Makes the latches of a refutation core visible.
fn refine(visible: &mut [bool], core: Vec<usize>, depth: usize, by: &str, ctl: &Control) {
    let added = core.iter().filter(|&&i| !visible[i]).count();
    if ctl.verbosity > 0 {
        eprintln!("loc: spurious {by} counterexample of depth {depth}; +{added}");
    }
    if added == 0 {
        // Cannot happen (the abstraction has a counterexample the core excludes), but the
        // whole circuit is always a sound fallback.
        visible.iter_mut().for_each(|v| *v = true);
    }
    for i in core {
        visible[i] = true;
    }
}

/// Latches in the combinational support of the bad literal and the constraints: the
/// initial abstraction.
fn support_latches(aig: &Aig) -> Vec<bool> {
    let m = aig.max_var as usize;
    let mut and_of = vec![usize::MAX; m + 1];
    for (i, a) in aig.ands.iter().enumerate() {
        and_of[a.var as usize] = i;
    }
    let mut latch_of = vec![usize::MAX; m + 1];
    for (i, l) in aig.latches.iter().enumerate() {
        latch_of[l.var as usize] = i;
    }
    let mut vis = vec![false; aig.latches.len()];
    let mut seen = vec![false; m + 1];
    let mut stack: Vec<usize> = aig
        .bad
        .iter()
        .chain(&aig.constraints)
        .map(|&l| (l >> 1) as usize)
        .collect();
    while let Some(v) = stack.pop() {
        if std::mem::replace(&mut seen[v], true) {
            continue;
        }
        if and_of[v] != usize::MAX {
            let a = aig.ands[and_of[v]];
            stack.push((a.rhs0 >> 1) as usize);
            stack.push((a.rhs1 >> 1) as usize);
        } else if latch_of[v] != usize::MAX {
            vis[latch_of[v]] = true;
        }
    }
    vis
}

/// The abstract circuit: invisible latches become inputs (same variables, so the and gates,
/// bad literal and constraints are unchanged and still topologically ordered).
fn abstraction(aig: &Aig, visible: &[bool]) -> Aig {
    let mut abs = aig.clone();
    abs.latches.clear();
    abs.outputs.clear();
    for (i, l) in aig.latches.iter().enumerate() {
        if visible[i] {
            abs.latches.push(*l);
        } else {
            abs.inputs.push(l.var);
        }
    }
    abs
}

/// Outcome of a concrete check.
enum Check {
    /// A counterexample of the concrete circuit.
    Real(RawTrace),
    /// No concrete counterexample up to the depth; the latches (indices) whose updates the
    /// refutation used.
    Spurious(Vec<usize>),
}

/// A literal's value in one frame: a constant or a solver literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    Const(bool),
    Lit(Lit),
}

impl Val {
    fn neg_if(self, neg: bool) -> Val {
        match self {
            Val::Const(b) => Val::Const(b ^ neg),
            Val::Lit(l) => Val::Lit(if neg { !l } else { l }),
        }
    }
}

#[derive(Clone, Copy)]
enum Def {
    Const,
    Input,
    Latch(usize),
    And(ALit, ALit),
}

/// The concrete unrolling with one activation literal per latch.
struct Concrete<'a> {
    aig: &'a Aig,
    defs: Vec<Def>,
    s: Solver,
    /// `act[i]`: latch `i` follows its reset value and next-state function.
    act: Vec<Lit>,
    vals: Vec<Vec<Option<Val>>>,
    /// The bad literal of each encoded frame.
    bads: Vec<Val>,
    /// `sel[k]`: a literal that implies a bad state within `k` steps, once created.
    sel: Vec<Option<Lit>>,
}

impl<'a> Concrete<'a> {
    fn new(aig: &'a Aig) -> Concrete<'a> {
        let mut defs = vec![Def::Const; aig.max_var as usize + 1];
        for &v in &aig.inputs {
            defs[v as usize] = Def::Input;
        }
        for (i, l) in aig.latches.iter().enumerate() {
            defs[l.var as usize] = Def::Latch(i);
        }
        for g in &aig.ands {
            defs[g.var as usize] = Def::And(g.rhs0, g.rhs1);
        }
        let mut s = Solver::new();
        let act = (0..aig.latches.len())
            .map(|_| Lit::new(s.new_var(), false))
            .collect();
        Concrete {
            aig,
            defs,
            s,
            act,
            vals: Vec::new(),
            bads: Vec::new(),
            sel: Vec::new(),
        }
    }

    fn fresh(&mut self) -> Lit {
        Lit::new(self.s.new_var(), false)
    }

    /// Adds frame `k` (the next one): its constraints as facts, its bad literal.
    fn add_frame(&mut self) {
        let k = self.vals.len();
        self.vals.push(vec![None; self.aig.max_var as usize + 1]);
        for ci in 0..self.aig.constraints.len() {
            match self.value(k, self.aig.constraints[ci]) {
                Val::Const(true) => {}
                Val::Const(false) => {
                    self.s.add_clause(&[]);
                }
                Val::Lit(l) => {
                    self.s.add_clause(&[l]);
                }
            }
        }
        let b = self.value(k, self.aig.bad[0]);
        self.bads.push(b);
    }

    /// `x ↔ v` under activation `a`.
    fn tie(&mut self, a: Lit, x: Lit, v: Val) {
        match v {
            Val::Const(b) => {
                self.s.add_clause(&[!a, if b { x } else { !x }]);
            }
            Val::Lit(y) => {
                self.s.add_clause(&[!a, !x, y]);
                self.s.add_clause(&[!a, x, !y]);
            }
        }
    }

    /// The value of `lit` in frame `k`, encoding its cone (explicit stack).
    fn value(&mut self, k: usize, lit: ALit) -> Val {
        let mut stack: Vec<(usize, u32)> = vec![(k, lit >> 1)];
        while let Some(&(f, v)) = stack.last() {
            if self.vals[f][v as usize].is_some() {
                stack.pop();
                continue;
            }
            let val = match self.defs[v as usize] {
                Def::Const => Some(Val::Const(false)),
                Def::Input => Some(Val::Lit(self.fresh())),
                Def::Latch(i) => {
                    let l = self.aig.latches[i];
                    if f == 0 {
                        let x = self.fresh();
                        match l.init {
                            Init::Zero => self.tie(self.act[i], x, Val::Const(false)),
                            Init::One => self.tie(self.act[i], x, Val::Const(true)),
                            Init::Free => {}
                        }
                        Some(Val::Lit(x))
                    } else {
                        match self.vals[f - 1][(l.next >> 1) as usize] {
                            Some(y) => {
                                let x = self.fresh();
                                self.tie(self.act[i], x, y.neg_if(l.next & 1 == 1));
                                Some(Val::Lit(x))
                            }
                            None => {
                                stack.push((f - 1, l.next >> 1));
                                None
                            }
                        }
                    }
                }
                Def::And(a, b) => {
                    let va = self.vals[f][(a >> 1) as usize];
                    let vb = self.vals[f][(b >> 1) as usize];
                    match (va, vb) {
                        (Some(x), Some(y)) => {
                            Some(self.and(x.neg_if(a & 1 == 1), y.neg_if(b & 1 == 1)))
                        }
                        _ => {
                            let zero = |v: Option<Val>, l: ALit| {
                                v.map(|x| x.neg_if(l & 1 == 1)) == Some(Val::Const(false))
                            };
                            if zero(va, a) || zero(vb, b) {
                                Some(Val::Const(false))
                            } else {
                                if va.is_none() {
                                    stack.push((f, a >> 1));
                                }
                                if vb.is_none() {
                                    stack.push((f, b >> 1));
                                }
                                None
                            }
                        }
                    }
                }
            };
            if let Some(x) = val {
                self.vals[f][v as usize] = Some(x);
                stack.pop();
            }
        }
        self.vals[k][(lit >> 1) as usize]
            .expect("encoded")
            .neg_if(lit & 1 == 1)
    }

    fn and(&mut self, x: Val, y: Val) -> Val {
        match (x, y) {
            (Val::Const(false), _) | (_, Val::Const(false)) => Val::Const(false),
            (Val::Const(true), z) | (z, Val::Const(true)) => z,
            (Val::Lit(a), Val::Lit(b)) if a == b => Val::Lit(a),
            (Val::Lit(a), Val::Lit(b)) if a == !b => Val::Const(false),
            (Val::Lit(a), Val::Lit(b)) => {
                let g = self.fresh();
                self.s.add_clause(&[!g, a]);
                self.s.add_clause(&[!g, b]);
                self.s.add_clause(&[g, !a, !b]);
                Val::Lit(g)
            }
        }
    }

    fn model_value(&self, k: usize, v: u32) -> bool {
        match self.vals[k][v as usize] {
            Some(Val::Const(b)) => b,
            Some(Val::Lit(l)) => self.s.value(l) == LBool::True,
            None => false,
        }
    }

    /// Encodes frames up to `depth` and returns a literal that implies a bad state within
    /// `depth` steps.
    fn selector(&mut self, depth: usize, ctl: &Control) -> Result<Lit, UnknownReason> {
        while self.vals.len() <= depth {
            if let Some(r) = ctl.should_stop() {
                return Err(r);
            }
            self.add_frame();
        }
        if self.sel.len() <= depth {
            self.sel.resize(depth + 1, None);
        }
        if let Some(d) = self.sel[depth] {
            return Ok(d);
        }
        let mut any = Vec::new();
        let mut hit = false;
        for b in &self.bads[..=depth] {
            match *b {
                Val::Const(true) => hit = true,
                Val::Const(false) => {}
                Val::Lit(l) => any.push(l),
            }
        }
        let d = self.fresh();
        if !hit {
            let mut c = vec![!d];
            c.extend(any);
            self.s.add_clause(&c);
        }
        self.sel[depth] = Some(d);
        Ok(d)
    }

    /// Does the abstraction with `visible` latches (the others free in every frame) reach a
    /// bad state within `depth` steps?
    fn abstract_cex(
        &mut self,
        depth: usize,
        visible: &[bool],
        limits: &Limits,
        ctl: &Control,
    ) -> Result<bool, UnknownReason> {
        let d = self.selector(depth, ctl)?;
        let assume: Vec<Lit> = std::iter::once(d)
            .chain(
                (0..self.act.len())
                    .filter(|&i| visible[i])
                    .map(|i| self.act[i]),
            )
            .collect();
        sat(&mut self.s, &assume, limits, ctl)
    }

    /// Is some bad state reachable within `depth` steps, every latch concrete? On no, the
    /// latches of a (shrunk) unsatisfiable core; the visible ones come first in the
    /// assumptions so that the core prefers them.
    fn check(
        &mut self,
        depth: usize,
        visible: &[bool],
        limits: &Limits,
        ctl: &Control,
    ) -> Result<Check, UnknownReason> {
        let d = self.selector(depth, ctl)?;
        let n = self.act.len();
        let mut order: Vec<usize> = (0..n).filter(|&i| visible[i]).collect();
        order.extend((0..n).filter(|&i| !visible[i]));
        let mut assume: Vec<Lit> = std::iter::once(d)
            .chain(order.iter().map(|&i| self.act[i]))
            .collect();
        if sat(&mut self.s, &assume, limits, ctl)? {
            let aig = self.aig;
            let init = aig
                .latches
                .iter()
                .map(|l| match self.vals[0][l.var as usize] {
                    Some(_) => self.model_value(0, l.var),
                    None => l.init == Init::One,
                })
                .collect();
            let inputs = (0..=depth)
                .map(|f| aig.inputs.iter().map(|&v| self.model_value(f, v)).collect())
                .collect();
            return Ok(Check::Real(RawTrace { init, inputs }));
        }
        // Shrink the core by re-solving on it while it shrinks (a few rounds at most).
        let mut core: Vec<Lit> = self.s.failed_assumptions().to_vec();
        for _ in 0..3 {
            let before = core.len();
            assume = std::iter::once(d)
                .chain(core.iter().copied().filter(|&l| l != d))
                .collect();
            if sat(&mut self.s, &assume, limits, ctl)? {
                break; // cannot happen: a subset of an unsatisfiable core
            }
            core = self.s.failed_assumptions().to_vec();
            if core.len() >= before {
                break;
            }
        }
        let mut pos = vec![usize::MAX; self.s_vars()];
        for (i, a) in self.act.iter().enumerate() {
            pos[a.var().index()] = i;
        }
        let latches = core
            .iter()
            .filter_map(|l| pos.get(l.var().index()).copied())
            .filter(|&i| i != usize::MAX)
            .collect();
        Ok(Check::Spurious(latches))
    }

    /// An upper bound on the variable indices of the activation literals.
    fn s_vars(&self) -> usize {
        self.act
            .iter()
            .map(|a| a.var().index() + 1)
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{EngineKind, check};
    use crate::{And, Latch, Verdict};

    /// Noise latches: `n` toggles `t' = t xor i` of input variable `i`, unrelated to the
    /// property, from variable `v` on; returns the next free variable.
    fn add_noise(aig: &mut Aig, i: u32, mut v: u32, n: u32) -> u32 {
        for _ in 0..n {
            let t = v;
            let (x, y, z) = (v + 1, v + 2, v + 3);
            aig.ands.push(And {
                var: x,
                rhs0: 2 * t,
                rhs1: 2 * i + 1,
            });
            aig.ands.push(And {
                var: y,
                rhs0: 2 * t + 1,
                rhs1: 2 * i,
            });
            aig.ands.push(And {
                var: z,
                rhs0: 2 * x + 1,
                rhs1: 2 * y + 1,
            });
            aig.latches.push(Latch {
                var: t,
                next: 2 * z + 1,
                init: Init::Zero,
            });
            v += 4;
        }
        v
    }

    /// `a' = a ∨ b`, `b' = b`, both reset to 0, bad = `a`, plus `n` noise latches. Safe, and
    /// only `a` and `b` matter; the abstraction `{a}` has a spurious counterexample of depth 1.
    fn noisy_safe(n: u32) -> Aig {
        let mut aig = Aig::default();
        let i = 1;
        aig.inputs.push(i);
        let (a, b, g) = (2, 3, 4); // g = ¬a ∧ ¬b
        aig.ands.push(And {
            var: g,
            rhs0: 2 * a + 1,
            rhs1: 2 * b + 1,
        });
        aig.latches.push(Latch {
            var: a,
            next: 2 * g + 1,
            init: Init::Zero,
        });
        aig.latches.push(Latch {
            var: b,
            next: 2 * b,
            init: Init::Zero,
        });
        aig.max_var = add_noise(&mut aig, i, 5, n) - 1;
        aig.bad.push(2 * a);
        aig
    }

    /// A shift register `s_1' = i, s_{j+1}' = s_j` of length `d`, bad = `s_d`, plus noise:
    /// unsafe at depth `d`; each refinement uncovers one more stage.
    fn noisy_shift(d: u32, n: u32) -> Aig {
        let mut aig = Aig::default();
        let i = 1;
        aig.inputs.push(i);
        for j in 0..d {
            let prev = if j == 0 { 2 * i } else { 2 * (1 + j) };
            aig.latches.push(Latch {
                var: 2 + j,
                next: prev,
                init: Init::Zero,
            });
        }
        aig.max_var = add_noise(&mut aig, i, 2 + d, n) - 1;
        aig.bad.push(2 * (1 + d));
        aig
    }

    #[test]
    fn support_is_the_initial_abstraction() {
        let aig = noisy_safe(5);
        let vis = support_latches(&aig);
        assert_eq!(vis.iter().filter(|&&v| v).count(), 1);
        assert!(vis[0]);
    }

    #[test]
    fn proves_with_a_small_abstraction_after_refinement() {
        // Abstraction {a}: with b free, a = 1 at depth 1 — spurious; refinement adds b, then
        // IC3 proves the property over {a, b}.
        let aig = noisy_safe(20);
        let ctl = Control::default();
        match run(&aig, &ctl, 0.5) {
            Ok(EngineResult::Safe(Proof::Invariant(inv))) => {
                let noise: Vec<u32> = aig.latches[2..].iter().map(|l| l.var).collect();
                assert!(inv.iter().flatten().all(|l| !noise.contains(&(l >> 1))));
            }
            r => panic!("expected an invariant, got {r:?}"),
        }
        assert!(matches!(
            check(&aig, EngineKind::Loc, &ctl),
            Verdict::Safe(_)
        ));
    }

    #[test]
    fn finds_a_real_deep_counterexample() {
        let aig = noisy_shift(6, 10);
        let ctl = Control::default();
        match check(&aig, EngineKind::Loc, &ctl) {
            Verdict::Unsafe(t) => assert_eq!(t.inputs.len(), 7),
            v => panic!("expected unsafe, got {v:?}"),
        }
        let bad = crate::parse_aiger(include_str!("../tests/data/counter4_unsafe.aag").as_bytes())
            .expect("valid aag");
        assert!(matches!(
            check(&bad, EngineKind::Loc, &ctl),
            Verdict::Unsafe(_)
        ));
        for f in ["mod6_safe.aag", "reset1_safe.aag", "stuck_safe.aag"] {
            let path = format!("{}/tests/data/{f}", env!("CARGO_MANIFEST_DIR"));
            let aig = crate::parse_aiger(&std::fs::read(path).unwrap()).unwrap();
            assert!(
                matches!(check(&aig, EngineKind::Loc, &ctl), Verdict::Safe(_)),
                "{f}"
            );
        }
    }

    #[test]
    fn gives_up_on_a_large_abstraction_and_ic3_answers() {
        // Six of eight latches are needed: localization stops at half, IC3 finds the trace.
        let aig = noisy_shift(6, 2);
        let ctl = Control::default();
        assert!(matches!(
            run(&aig, &ctl, 0.5),
            Err(UnknownReason::Incomplete(_))
        ));
        match loc_then_ic3(&aig, &ctl) {
            EngineResult::Unsafe(t) => assert_eq!(t.inputs.len(), 7),
            r => panic!("expected a counterexample, got {r:?}"),
        }
    }

    #[test]
    fn spurious_counterexample_is_refined_by_the_core() {
        let aig = noisy_safe(3);
        let vis = support_latches(&aig);
        let mut conc = Concrete::new(&aig);
        let ctl = Control::default();
        // With `b` free the abstract trace has depth 1.
        match conc.check(1, &vis, &Limits::of(&ctl), &ctl) {
            Ok(Check::Spurious(core)) => {
                assert!(core.contains(&1), "core {core:?} names b");
                assert!(core.iter().all(|&i| i < 2), "no noise latch in {core:?}");
            }
            _ => panic!("expected a spurious counterexample"),
        }
    }
}
