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
//! demand from the cone of the bad literal, like [`crate::engines::bmc`].

use crate::Aig;
use crate::engines::ic3::{Ic3, Stall};
use crate::reduce::reduce;
use crate::result::{EngineResult, Proof, RawTrace, sat};
use crate::unroll::{Unroll, Val};
use cove_control::{Control, UnknownReason};
use cove_sat::{Limits, Lit};
use std::time::Duration;

/// Localization's options ([`crate::EngineConfig::Loc`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocConfig {
    /// IC3 on the whole circuit first, localization once it stalls, then IC3 resumed (the
    /// portfolio's `ic3-loc` entry, see [`ic3_then_loc`]); off by default (localization
    /// alone, [`loc`]).
    pub ic3_first: bool,
}

impl LocConfig {
    /// Runs localization with these options.
    pub fn run(&self, aig: &Aig, ctl: &Control) -> EngineResult {
        if self.ic3_first {
            ic3_then_loc(aig, ctl)
        } else {
            loc(aig, ctl)
        }
    }
}

/// Runs localization abstraction until an answer or a stop.
pub fn loc(aig: &Aig, ctl: &Control) -> EngineResult {
    match run(aig, ctl, 1.0) {
        Ok(r) => r,
        Err(r) => EngineResult::Unknown(r),
    }
}

/// Share of the remaining time IC3 gets before localization starts in [`ic3_then_loc`]
/// unless its frontier stalls earlier.
const IC3_SHARE: f64 = 0.75;

/// When IC3's frontier counts as stalled in [`ic3_then_loc`]: its frame has been open for
/// three times as long as IC3 took to open it, and for at least 2 s.
///
/// Measured with IC3 alone at 20 s (docs/decisions.md#hardware-localization-on-stall): on the
/// `zipcpu-zipmmu` designs IC3 opens its last frame within 0.2 s and never leaves it, while on
/// the designs it proves in 5–12 s the longest frame took at most 2.3 times the time before it
/// (`cal128`: frame 4 opened at 4.4 s, 3.1 s after frame 3).
const STALL: Stall = Stall {
    factor: 3.0,
    min: Duration::from_secs(2),
};

/// Share of the remaining time localization gets once IC3 stalled; IC3 then resumes.
const LOC_SHARE_AFTER_STALL: f64 = 0.75;

/// The portfolio's first engine: IC3 on the whole circuit, then localization, then IC3
/// resumed where it stopped.
///
/// IC3 answers most designs and localization only pays on large ones whose property needs
/// little of the state, so IC3 runs first, with `IC3_SHARE` (75%) of the remaining time (60 s
/// without a deadline): every design IC3 solves in that time without stalling is solved
/// exactly as by IC3 alone (docs/decisions.md#hardware-ic3-then-localization: localization
/// first cost designs IC3 solves in 8–15 s). When IC3's frontier stalls (`STALL`) localization
/// starts at once, with `LOC_SHARE_AFTER_STALL` of the remaining time; otherwise it gets the
/// rest. It gives up once
/// the abstraction keeps half the latches (beyond that the abstract IC3 runs are nearly as
/// hard as the concrete one), and IC3 then continues with its frames, lemmas and obligations
/// kept (`Ic3::resume`), so localization's time is all a failed attempt costs and, without
/// a deadline, the engine stays complete.
pub fn ic3_then_loc(aig: &Aig, ctl: &Control) -> EngineResult {
    let first = share(ctl, IC3_SHARE);
    staged(aig, ctl, first, STALL)
}

/// `part` of the remaining time (of 80 s without a deadline).
fn share(ctl: &Control, part: f64) -> Duration {
    ctl.remaining()
        .unwrap_or(Duration::from_secs(80))
        .mul_f64(part)
}

/// [`ic3_then_loc`] with IC3's first budget and stall rule given.
fn staged(aig: &Aig, ctl: &Control, first: Duration, stall: Stall) -> EngineResult {
    let mut ic3 = Ic3::new(aig, ctl);
    let loc_budget = match ic3.resume_until_stall(&ctl.child_with_budget(first), stall) {
        None => {
            if ctl.verbosity > 0 {
                eprintln!("loc: IC3 stalled at frame {}; localization", ic3.depth());
            }
            share(ctl, LOC_SHARE_AFTER_STALL)
        }
        Some(r) if !matches!(r, EngineResult::Unknown(_)) => return r,
        Some(r) => {
            if ctl.should_stop().is_some() {
                return r;
            }
            share(ctl, 1.0)
        }
    };
    match Loc::new(aig, 0.5).resume(&ctl.child_with_budget(loc_budget)) {
        Ok(r) => return r,
        Err(r) => {
            if ctl.verbosity > 0 {
                eprintln!("loc: stopped ({r:?}); IC3 resumed");
            }
        }
    }
    if let Some(r) = ctl.should_stop() {
        return EngineResult::Unknown(r);
    }
    // IC3 goes on with its frames and lemmas: localization's time is all it cost.
    ic3.resume(ctl)
}

/// Depths without refinement after which the BMC phase hands the abstraction to IC3 (the
/// `n` of the paper's Fig. 8).
const STABLE_DEPTHS: usize = 4;

/// The CEGAR loop; gives up (`Incomplete`) once more than `max_share` of the latches are
/// visible and the abstraction is not the whole circuit.
fn run(aig: &Aig, ctl: &Control, max_share: f64) -> Result<EngineResult, UnknownReason> {
    Loc::new(aig, max_share).resume(ctl)
}

/// The state of localization between runs: the visible latches, the concrete unrolling and
/// how far the abstraction is known to have no counterexample. A run stopped by its control
/// keeps all of it (refinements happen only after a completed check), so a schedule can give
/// localization several slices of time; only an abstract IC3 run in progress is lost.
pub(crate) struct Loc<'a> {
    aig: &'a Aig,
    max_share: f64,
    visible: Vec<bool>,
    conc: Concrete<'a>,
    /// The abstraction has no counterexample shorter than `k` (kept as it grows).
    k: usize,
    /// Depths checked in a row without a refinement.
    unchanged: usize,
}

impl<'a> Loc<'a> {
    pub(crate) fn new(aig: &'a Aig, max_share: f64) -> Loc<'a> {
        Loc {
            aig,
            max_share,
            visible: support_latches(aig),
            conc: Concrete::new(aig),
            k: 0,
            unchanged: 0,
        }
    }

    /// Why the abstraction is too big to go on with, if it is.
    fn too_big(&self) -> Option<UnknownReason> {
        let n = self.visible.len();
        let n_vis = self.visible.iter().filter(|&&v| v).count();
        (n_vis < n && n_vis as f64 > self.max_share * n as f64).then(|| {
            UnknownReason::Incomplete(format!("abstraction grew to {n_vis} of {n} latches"))
        })
    }

    /// Runs the CEGAR loop under `ctl` from where the last run stopped.
    ///
    /// Each round has two phases. The BMC phase (Fig. 8 of the paper) runs BMC on the
    /// abstraction for increasing depths, refining on every spurious counterexample, until the
    /// abstraction has stayed unchanged for [`STABLE_DEPTHS`] depths: refinements are cheap
    /// there, while each one found by IC3 costs a whole IC3 run. Then IC3 proves the
    /// abstraction or returns an abstract counterexample, which is checked and refined the
    /// same way.
    pub(crate) fn resume(&mut self, ctl: &Control) -> Result<EngineResult, UnknownReason> {
        let aig = self.aig;
        let n = aig.latches.len();
        let limits = Limits::of(ctl);
        loop {
            while self.unchanged < STABLE_DEPTHS {
                if let Some(r) = ctl.should_stop().or_else(|| self.too_big()) {
                    return Err(r);
                }
                if !self
                    .conc
                    .abstract_cex(self.k, &self.visible, &limits, ctl)?
                {
                    self.unchanged += 1;
                    self.k += 1;
                    continue;
                }
                self.unchanged = 0;
                match self.conc.check(self.k, &self.visible, &limits, ctl)? {
                    Check::Real(t) => return Ok(EngineResult::Unsafe(t)),
                    Check::Spurious(core) => refine(&mut self.visible, core, self.k, "BMC", ctl),
                }
            }
            if let Some(r) = ctl.should_stop().or_else(|| self.too_big()) {
                return Err(r);
            }
            let abs = abstraction(aig, &self.visible);
            let red = reduce(&abs, ctl)?;
            if ctl.verbosity > 0 {
                eprintln!(
                    "loc: {} of {n} latches visible; abstract circuit {} latches, {} ands",
                    self.visible.iter().filter(|&&v| v).count(),
                    red.aig.latches.len(),
                    red.aig.ands.len()
                );
            }
            match crate::engines::ic3::ic3(&red.aig, ctl) {
                EngineResult::Unknown(r) => return Err(r),
                EngineResult::Safe(Proof::Invariant(clauses)) => {
                    return concrete_invariant(&abs, &red, &clauses).map(EngineResult::Safe);
                }
                EngineResult::Safe(Proof::KInduction(_)) => {
                    return Err(UnknownReason::Incomplete(
                        "IC3 returned a k-induction proof".into(),
                    ));
                }
                EngineResult::Unsafe(t) => {
                    let depth = t.inputs.len().saturating_sub(1);
                    match self.conc.check(depth, &self.visible, &limits, ctl)? {
                        Check::Real(t) => return Ok(EngineResult::Unsafe(t)),
                        Check::Spurious(core) => {
                            refine(&mut self.visible, core, depth, "IC3", ctl);
                            self.unchanged = 0;
                        }
                    }
                }
            }
        }
    }
}

/// An invariant of the reduced abstract circuit `red` (of `abs`) as clauses over the concrete
/// latch variables, with the abstraction's constant latches as unit clauses.
fn concrete_invariant(
    abs: &Aig,
    red: &crate::reduce::Reduced,
    clauses: &[Vec<u32>],
) -> Result<Proof, UnknownReason> {
    // Reduced abstract latch → abstract latch → concrete latch variable.
    let mut var_of = vec![u32::MAX; red.aig.max_var as usize + 1];
    for (i, l) in red.aig.latches.iter().enumerate() {
        var_of[l.var as usize] = abs.latches[red.latch_orig[i]].var;
    }
    let mut inv = Vec::with_capacity(clauses.len() + red.const_latches.len());
    for c in clauses {
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
    inv.extend(red.aux_clauses(|i| abs.latches[i].var));
    Ok(Proof::Invariant(inv))
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

/// The concrete unrolling with one activation literal per latch.
struct Concrete<'a> {
    u: Unroll<'a>,
    /// The bad literal of each encoded frame.
    bads: Vec<Val>,
    /// `sel[k]`: a literal that implies a bad state within `k` steps, once created.
    sel: Vec<Option<Lit>>,
}

impl<'a> Concrete<'a> {
    fn new(aig: &'a Aig) -> Concrete<'a> {
        Concrete {
            u: Unroll::with_activation(aig),
            bads: Vec::new(),
            sel: Vec::new(),
        }
    }

    /// Adds frame `k` (the next one): its constraints as facts, its bad literal.
    fn add_frame(&mut self) {
        let aig = self.u.aig;
        let u = &mut self.u;
        let k = u.vals.len();
        u.add_frame();
        for &c in &aig.constraints {
            match u.value(k, c) {
                Val::Const(true) => {}
                Val::Const(false) => {
                    u.s.add_clause(&[]);
                }
                Val::Lit(l) => {
                    u.s.add_clause(&[l]);
                }
            }
        }
        let b = u.value(k, aig.bad[0]);
        self.bads.push(b);
    }

    /// Encodes frames up to `depth` and returns a literal that implies a bad state within
    /// `depth` steps.
    fn selector(&mut self, depth: usize, ctl: &Control) -> Result<Lit, UnknownReason> {
        while self.u.vals.len() <= depth {
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
        let d = self.u.fresh_lit();
        if !hit {
            let mut c = vec![!d];
            c.extend(any);
            self.u.s.add_clause(&c);
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
                (0..self.u.act.len())
                    .filter(|&i| visible[i])
                    .map(|i| self.u.act[i]),
            )
            .collect();
        sat(&mut self.u.s, &assume, limits, ctl)
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
        let n = self.u.act.len();
        let mut order: Vec<usize> = (0..n).filter(|&i| visible[i]).collect();
        order.extend((0..n).filter(|&i| !visible[i]));
        let mut assume: Vec<Lit> = std::iter::once(d)
            .chain(order.iter().map(|&i| self.u.act[i]))
            .collect();
        if sat(&mut self.u.s, &assume, limits, ctl)? {
            return Ok(Check::Real(self.u.trace(depth)));
        }
        // Shrink the core by re-solving on it while it shrinks (a few rounds at most).
        let mut core: Vec<Lit> = self.u.s.failed_assumptions().to_vec();
        for _ in 0..3 {
            let before = core.len();
            assume = std::iter::once(d)
                .chain(core.iter().copied().filter(|&l| l != d))
                .collect();
            if sat(&mut self.u.s, &assume, limits, ctl)? {
                break; // cannot happen: a subset of an unsatisfiable core
            }
            core = self.u.s.failed_assumptions().to_vec();
            if core.len() >= before {
                break;
            }
        }
        let mut pos = vec![usize::MAX; self.s_vars()];
        for (i, a) in self.u.act.iter().enumerate() {
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
        self.u
            .act
            .iter()
            .map(|a| a.var().index() + 1)
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EngineConfig;
    use crate::driver::check;

    const LOC: EngineConfig = EngineConfig::Loc(LocConfig { ic3_first: false });
    use crate::{And, Init, Latch, Verdict};

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
        assert!(matches!(check(&aig, &LOC.into(), &ctl), Verdict::Safe(_)));
    }

    #[test]
    fn finds_a_real_deep_counterexample() {
        let aig = noisy_shift(6, 10);
        let ctl = Control::default();
        match check(&aig, &LOC.into(), &ctl) {
            Verdict::Unsafe(t) => assert_eq!(t.inputs.len(), 7),
            v => panic!("expected unsafe, got {v:?}"),
        }
        let bad =
            crate::parse_aiger(include_str!("../../tests/data/counter4_unsafe.aag").as_bytes())
                .expect("valid aag");
        assert!(matches!(check(&bad, &LOC.into(), &ctl), Verdict::Unsafe(_)));
        for f in ["mod6_safe.aag", "reset1_safe.aag", "stuck_safe.aag"] {
            let path = format!("{}/tests/data/{f}", env!("CARGO_MANIFEST_DIR"));
            let aig = crate::parse_aiger(&std::fs::read(path).unwrap()).unwrap();
            assert!(
                matches!(check(&aig, &LOC.into(), &ctl), Verdict::Safe(_)),
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
        // IC3 first with no time: localization, which gives up, then IC3 again.
        match staged(&aig, &ctl, Duration::ZERO, STALL) {
            EngineResult::Unsafe(t) => assert_eq!(t.inputs.len(), 7),
            r => panic!("expected a counterexample, got {r:?}"),
        }
        match ic3_then_loc(&aig, &ctl) {
            EngineResult::Unsafe(t) => assert_eq!(t.inputs.len(), 7),
            r => panic!("expected a counterexample, got {r:?}"),
        }
    }

    #[test]
    fn localization_proves_after_ic3_runs_out_of_time() {
        // Two of 22 latches matter: with no time for the first IC3 run, localization proves it.
        let aig = noisy_safe(20);
        match staged(&aig, &Control::default(), Duration::ZERO, STALL) {
            EngineResult::Safe(Proof::Invariant(inv)) => assert!(!inv.is_empty()),
            r => panic!("expected a proof, got {r:?}"),
        }
    }

    /// Stalls after every obligation: IC3 hands over to localization at once.
    const ALWAYS: Stall = Stall {
        factor: 0.0,
        min: Duration::ZERO,
    };

    #[test]
    fn stalled_ic3_hands_over_and_resumes_after_localization_gives_up() {
        let ctl = Control::default();
        let long = Duration::from_secs(60);
        // Localization proves the 2-of-22-latch property.
        let aig = noisy_safe(20);
        match staged(&aig, &ctl, long, ALWAYS) {
            EngineResult::Safe(Proof::Invariant(inv)) => {
                crate::proof_check::check_invariant(&aig, &inv, true, &ctl)
                    .expect("invariant checks")
            }
            r => panic!("expected a proof, got {r:?}"),
        }
        // Localization gives up on the shift register (6 of 8 latches needed); the stalled
        // IC3 run resumes and finds the trace.
        let aig = noisy_shift(6, 2);
        match staged(&aig, &ctl, long, ALWAYS) {
            EngineResult::Unsafe(t) => assert_eq!(t.inputs.len(), 7),
            r => panic!("expected a counterexample, got {r:?}"),
        }
    }

    #[test]
    fn localization_resumed_after_a_stop_keeps_its_refinements() {
        // Stopped before any work, then resumed: same answer as one run, and the
        // refinement found before a stop is kept.
        let aig = noisy_safe(20);
        let ctl = Control::default();
        let mut l = Loc::new(&aig, 0.5);
        let stopped = ctl.child();
        stopped.stop();
        assert!(matches!(
            l.resume(&stopped),
            Err(UnknownReason::Interrupted)
        ));
        assert!(matches!(
            l.resume(&ctl),
            Ok(EngineResult::Safe(Proof::Invariant(_)))
        ));
        assert!(l.visible[1], "the refinement added b");
        assert_eq!(l.visible.iter().filter(|&&v| v).count(), 2);
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
