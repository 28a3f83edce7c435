//! Bounded model checking: one incremental solver, the bad property assumed in the newest
//! frame. Finds shortest counterexamples; never proves safety.
//!
//! The unrolling (`unroll.rs`, shared with localization) is built on demand from the
//! literals a query needs: the bad property and the constraints of each frame.

use crate::Aig;
use crate::result::{EngineResult, RawTrace, sat};
use crate::unroll::{Unroll, Val};
use cove_control::{Control, UnknownReason};
use cove_sat::{Limits, Lit, SolveResult};

/// BMC's options ([`crate::EngineConfig::Bmc`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BmcConfig {
    /// Stop after this many steps with `unknown` (unbounded when `None`, the default).
    pub max_bound: Option<usize>,
}

impl BmcConfig {
    /// Runs BMC with these options.
    pub fn run(&self, aig: &Aig, ctl: &Control) -> EngineResult {
        bmc(aig, ctl, self.max_bound)
    }
}

/// Runs BMC up to `max_bound` steps (unbounded when `None`).
pub fn bmc(aig: &Aig, ctl: &Control, max_bound: Option<usize>) -> EngineResult {
    match run(aig, ctl, max_bound) {
        Ok(r) => r,
        Err(r) => EngineResult::Unknown(r),
    }
}

fn run(aig: &Aig, ctl: &Control, max_bound: Option<usize>) -> Result<EngineResult, UnknownReason> {
    // A property that is the constant false (as reduction leaves a bad literal whose cone
    // is constant) has no counterexample of any length. Every step would then be free and
    // the unrolling would grow by millions of frames a second until the deadline, whose
    // freeing alone outlasted the run's limit; BMC, which never proves, says so at once.
    if aig.bad.iter().all(|&b| b == 0) {
        return Err(UnknownReason::Incomplete(
            "no state is bad (the property is the constant false); BMC does not prove".into(),
        ));
    }
    let mut b = Bmc::new(aig, ctl);
    loop {
        if let Some(r) = ctl.should_stop() {
            return Err(r);
        }
        if max_bound.is_some_and(|m| b.depth() > m) {
            return Err(UnknownReason::Incomplete(format!(
                "no counterexample up to bound {}",
                b.depth() - 1
            )));
        }
        if let Some(t) = b.step()? {
            return Ok(EngineResult::Unsafe(t));
        }
        if b.exhausted {
            return Err(UnknownReason::Incomplete(format!(
                "the constraints exclude every trace of length {}",
                b.depth() - 1
            )));
        }
    }
}

/// BMC one depth at a time, for engines that interleave it with other work (k-induction's
/// base case).
pub(crate) struct Bmc<'a> {
    u: Unroll<'a>,
    limits: Limits,
    ctl: &'a Control,
    k: usize,
    /// The constraints exclude every trace of length `≥ k` (so none is a counterexample).
    pub(crate) exhausted: bool,
    /// The bad value of depth `k` whose query ran out of conflicts.
    pending: Option<Val>,
}

impl<'a> Bmc<'a> {
    pub(crate) fn new(aig: &'a Aig, ctl: &'a Control) -> Bmc<'a> {
        Bmc {
            u: Unroll::new(aig),
            limits: Limits::of(ctl),
            ctl,
            k: 0,
            exhausted: false,
            pending: None,
        }
    }

    /// The depth the next [`Bmc::step`] checks (every shorter trace has been excluded).
    pub(crate) fn depth(&self) -> usize {
        self.k
    }

    /// Looks for a counterexample of exactly `depth()` steps; on none, moves to the next
    /// depth. Once the constraints are found to exclude every trace of some length
    /// (`exhausted`), steps are free.
    pub(crate) fn step(&mut self) -> Result<Option<RawTrace>, UnknownReason> {
        match self.step_limited(None)? {
            Step::Found(t) => Ok(Some(t)),
            Step::Next | Step::OutOfBudget => Ok(None),
        }
    }

    /// [`Bmc::step`] with at most `conflicts` conflicts for the query: when they run out,
    /// the depth stays (the next call asks again, with the clauses learnt so far).
    pub(crate) fn step_limited(&mut self, conflicts: Option<u64>) -> Result<Step, UnknownReason> {
        if self.exhausted {
            self.k += 1;
            return Ok(Step::Next);
        }
        let (aig, k) = (self.u.aig, self.k);
        let u = &mut self.u;
        if u.vals.len() == k {
            self.pending = None;
            u.add_frame();
        }
        if let Some(b) = self.pending {
            // This depth's query ran out of conflicts before: ask again.
            return self.ask(b, conflicts);
        }
        // Constraints of this frame: facts for this and every deeper query.
        for &c in &aig.constraints {
            match u.value(k, c) {
                Val::Const(true) => {}
                Val::Const(false) => {
                    self.exhausted = true;
                    self.k += 1;
                    return Ok(Step::Next);
                }
                Val::Lit(l) => {
                    u.s.add_clause(&[l]);
                }
            }
        }
        let b = any_bad(u, k);
        self.pending = Some(b);
        self.ask(b, conflicts)
    }

    /// Asks whether bad value `b` of frame `k` is reachable.
    fn ask(&mut self, b: Val, conflicts: Option<u64>) -> Result<Step, UnknownReason> {
        let (k, ctl) = (self.k, self.ctl);
        let u = &mut self.u;
        let limits = Limits {
            conflicts,
            control: self.limits.control.clone(),
        };
        let found = match b {
            Val::Const(false) => Some(false),
            Val::Const(true) => solve(&mut u.s, &[], &limits, ctl)?,
            Val::Lit(b) => {
                let found = solve(&mut u.s, &[b], &limits, ctl)?;
                if found == Some(false) {
                    // No bad state at this depth: keep that as a fact for the deeper queries.
                    u.s.add_clause(&[!b]);
                }
                found
            }
        };
        match found {
            None => Ok(Step::OutOfBudget),
            Some(true) => Ok(Step::Found(u.trace(k))),
            Some(false) => {
                if ctl.verbosity > 0 {
                    let st = u.s.stats();
                    eprintln!(
                        "bmc: no counterexample of length {k} ({} conflicts, {} propagations in all)",
                        st.conflicts, st.propagations
                    );
                }
                self.pending = None;
                self.k += 1;
                Ok(Step::Next)
            }
        }
    }
}

/// What one [`Bmc::step_limited`] did.
pub(crate) enum Step {
    /// A counterexample of `depth()` steps.
    Found(RawTrace),
    /// None of that length: the depth moved on.
    Next,
    /// The query ran out of conflicts; the depth stays.
    OutOfBudget,
}

/// `sat` with a conflict budget: `None` when the budget ran out (a stop is an error).
fn solve(
    s: &mut cove_sat::Solver,
    assumptions: &[Lit],
    limits: &Limits,
    ctl: &Control,
) -> Result<Option<bool>, UnknownReason> {
    if limits.conflicts.is_none() {
        return sat(s, assumptions, limits, ctl).map(Some);
    }
    match s.solve_limited(assumptions, &mut cove_sat::NoTheory, limits) {
        SolveResult::Sat => Ok(Some(true)),
        SolveResult::Unsat => Ok(Some(false)),
        SolveResult::Unknown => match ctl.should_stop() {
            Some(r) => Err(r),
            None => Ok(None),
        },
    }
}

/// Whether some bad property holds in frame `k`: a constant or one literal (a fresh
/// literal for their disjunction when there are several).
fn any_bad(u: &mut Unroll<'_>, k: usize) -> Val {
    let bads: Vec<Val> = u.aig.bad.iter().map(|&b| u.value(k, b)).collect();
    let mut bad_lits = Vec::new();
    for b in bads {
        match b {
            Val::Const(true) => return Val::Const(true),
            Val::Const(false) => {}
            Val::Lit(l) => bad_lits.push(l),
        }
    }
    match bad_lits.len() {
        0 => Val::Const(false),
        1 => Val::Lit(bad_lits[0]),
        _ => {
            let b = Lit::new(u.s.new_var(), false);
            let mut big = vec![!b];
            for &l in &bad_lits {
                u.s.add_clause(&[b, !l]);
                big.push(l);
            }
            u.s.add_clause(&big);
            Val::Lit(b)
        }
    }
}

/// Frames between two [`Jump`] targets.
const JUMP_STEP: usize = 10;

/// Conflicts for each [`Jump`] query in its first round (doubled every round).
const JUMP_CONFLICTS: u64 = 2_000;

/// Frames beyond plain BMC's depth that a [`Jump`] round goes at most.
const JUMP_ROUND: usize = 160;

/// Frames beyond plain BMC's depth that the first [`Jump`] round goes (doubled every round up
/// to `JUMP_ROUND`).
const JUMP_FIRST_ROUND: usize = 20;

/// Encoded gates (frames times the circuit's and gates) past which a [`Jump`] round ends
/// and the next starts again from the shallowest target not yet refuted.
const JUMP_MAX_GATES: usize = 4_000_000;

/// BMC that jumps ahead (the deep-counterexample probe of [`crate::engines::kind::kind_bmc`]): each
/// query asks for a bad state in one frame `JUMP_STEP` frames beyond the last, under a
/// conflict budget, in its own unrolling. Designs whose counterexamples start deep — memories
/// and FIFOs that must fill first, `mann/data-integrity/unsafe/arbitrated_top_*` — have
/// queries for depths just short of the first failure that are hard to refute, while a
/// query well past it is satisfiable and easy (ABC's `bmc3 -S 20` on `arbitrated_top_n2`:
/// frame 20 in 0.4 s, where refuting frames 12–15 alone takes 20 s). The first round goes
/// `JUMP_FIRST_ROUND` frames beyond plain BMC's depth, each next one twice as far (up to
/// `JUMP_ROUND`, and no deeper than `JUMP_MAX_GATES` allows) and with twice the conflicts,
/// starting again at the shallowest target not refuted. Rounds grow in reach rather than all
/// going `JUMP_ROUND` frames because a probe costs a few thousand conflicts, i.e. seconds, on
/// designs of a few thousand gates (`telephony.6`, first failure at frame 19: frames 20–30
/// take 2,000–10,000 conflicts each): sixteen probes at the first budget used to fill the time
/// before a second, larger try near the front. A found trace is a counterexample of its target's
/// length (checked like every trace); a refuted target only becomes a fact of this
/// unrolling, and this unrolling never proves anything.
pub(crate) struct Jump<'a> {
    u: Unroll<'a>,
    ctl: &'a Control,
    /// The next target frame.
    next: usize,
    /// Targets refuted (their frame holds no bad state).
    refuted: Vec<usize>,
    budget: u64,
    /// Frames beyond plain BMC's depth that this round goes.
    reach: usize,
    /// The constraints exclude every trace reaching the last frame built: no more queries.
    pub(crate) done: bool,
}

impl<'a> Jump<'a> {
    pub(crate) fn new(aig: &'a Aig, ctl: &'a Control) -> Jump<'a> {
        // Luby restarts, as ABC's `bmc3` and a stable-mode CDCL search: a probe asks a query
        // that is meant to be satisfiable, and the default glucose restarts, which favour
        // refutations, throw its partial assignments away every few dozen conflicts
        // (`circular_pointer_top_w8_d32`: its counterexample at 1.5–2.0 s instead of
        // 9.6 s or none within 10 s; docs/decisions.md#hardware-bmc-jump).
        let mut config = cove_sat::Config::default();
        config.restarts = cove_sat::RestartPolicy::Luby;
        Jump {
            u: Unroll::with_config(aig, config),
            ctl,
            next: 0,
            refuted: Vec::new(),
            budget: JUMP_CONFLICTS,
            reach: JUMP_FIRST_ROUND,
            done: false,
        }
    }

    /// One query, at the next target beyond `min_depth` (the depth plain BMC has
    /// excluded). `Some` trace when its target's frame has a bad state.
    pub(crate) fn probe(&mut self, min_depth: usize) -> Result<Option<RawTrace>, UnknownReason> {
        if self.done {
            return Ok(None);
        }
        let ands = self.u.aig.ands.len().max(1);
        let mut target = self.next.max(min_depth + JUMP_STEP);
        while self.refuted.contains(&target) {
            target += JUMP_STEP;
        }
        if target > min_depth + JUMP_STEP
            && (target > min_depth + self.reach
                || (target + 1).saturating_mul(ands) > JUMP_MAX_GATES)
        {
            // End of the round: start again near the front with more conflicts, and go
            // twice as far.
            self.budget = self.budget.saturating_mul(2);
            self.reach = (2 * self.reach).min(JUMP_ROUND);
            target = min_depth + JUMP_STEP;
            while self.refuted.contains(&target) {
                target += JUMP_STEP;
            }
        }
        self.next = target + JUMP_STEP;
        while self.u.vals.len() <= target {
            let f = self.u.vals.len();
            self.u.add_frame();
            for &c in &self.u.aig.constraints {
                match self.u.value(f, c) {
                    Val::Const(true) => {}
                    Val::Const(false) => {
                        self.done = true;
                        return Ok(None);
                    }
                    Val::Lit(l) => {
                        self.u.s.add_clause(&[l]);
                    }
                }
            }
        }
        let b = any_bad(&mut self.u, target);
        let limits = Limits {
            conflicts: Some(self.budget),
            control: self.ctl.clone(),
        };
        let found = match b {
            Val::Const(false) => Some(false),
            Val::Const(true) => solve(&mut self.u.s, &[], &limits, self.ctl)?,
            Val::Lit(l) => {
                let r = solve(&mut self.u.s, &[l], &limits, self.ctl)?;
                if r == Some(false) {
                    self.u.s.add_clause(&[!l]);
                }
                r
            }
        };
        if self.ctl.verbosity > 0 {
            eprintln!(
                "bmc-jump: frame {target}: {found:?} ({} conflicts)",
                self.budget
            );
        }
        match found {
            Some(true) => Ok(Some(self.u.trace(target))),
            Some(false) => {
                self.refuted.push(target);
                Ok(None)
            }
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Trace, trace_check};

    /// A `bits`-bit counter that counts up while its one input is 1; the output (an old-style
    /// bad state) is the counter equal to `target`, first reachable after `target` steps and
    /// then at every later step (the counter may wait).
    fn counter(bits: u32, target: u32) -> Aig {
        let mut ands: Vec<(u32, u32, u32)> = Vec::new();
        let mut next_var = bits + 2;
        let mut and = |a: u32, b: u32, ands: &mut Vec<(u32, u32, u32)>| {
            let g = 2 * next_var;
            next_var += 1;
            ands.push((g, a, b));
            g
        };
        let mut carry = 2; // the input
        let mut nexts = Vec::new();
        for i in 0..bits {
            let b = 2 * (2 + i);
            let x = and(b, carry ^ 1, &mut ands);
            let y = and(b ^ 1, carry, &mut ands);
            nexts.push(and(x ^ 1, y ^ 1, &mut ands) ^ 1);
            carry = and(b, carry, &mut ands);
        }
        let mut bad = 1;
        for i in 0..bits {
            let b = 2 * (2 + i);
            bad = and(bad, if target >> i & 1 == 1 { b } else { b ^ 1 }, &mut ands);
        }
        let mut src = format!("aag {} 1 {bits} 1 {}\n2\n", next_var - 1, ands.len());
        for (i, n) in nexts.iter().enumerate() {
            src += &format!("{} {n}\n", 2 * (2 + i));
        }
        src += &format!("{bad}\n");
        for (g, a, b) in ands {
            src += &format!("{g} {a} {b}\n");
        }
        crate::parse_aiger(src.as_bytes()).expect("valid aag")
    }

    #[test]
    fn jump_finds_a_counterexample_at_its_first_target_past_the_first_failure() {
        let aig = counter(5, 23);
        let ctl = Control::default();
        let mut j = Jump::new(&aig, &ctl);
        let mut found = None;
        for _ in 0..4 {
            if let Some(t) = j.probe(0).expect("no stop") {
                found = Some(t);
                break;
            }
        }
        // Targets 10 and 20 are refuted, 30 is the first past the failure at 23.
        let t = found.expect("a counterexample within four probes");
        assert_eq!(t.inputs.len(), 31);
        assert_eq!(j.refuted, [10, 20]);
        let mut t = Trace {
            init: t.init,
            inputs: t.inputs,
            bad_index: 0,
        };
        trace_check::check_trace(&aig, &mut t).expect("a real counterexample");
        assert!(t.inputs.len() >= 24, "the counter needs 23 steps");
    }

    #[test]
    fn each_jump_round_goes_twice_as_far_as_the_one_before() {
        // Failure first at 95: round 0 probes 10 and 20, round 1 up to 40, round 2 up to
        // 80, round 3 reaches 100.
        let aig = counter(7, 95);
        let ctl = Control::default();
        let mut j = Jump::new(&aig, &ctl);
        let mut probes = 0;
        let t = loop {
            probes += 1;
            assert!(probes <= 10, "no counterexample within ten probes");
            if let Some(t) = j.probe(0).expect("no stop") {
                break t;
            }
        };
        assert_eq!(t.inputs.len(), 101);
        assert_eq!(j.refuted, [10, 20, 30, 40, 50, 60, 70, 80, 90]);
        assert_eq!(j.budget, 8 * JUMP_CONFLICTS);
        assert_eq!(j.reach, JUMP_ROUND);
    }

    #[test]
    fn jump_skips_refuted_targets_and_starts_past_plain_bmc() {
        let aig = counter(6, 63);
        let ctl = Control::default();
        let mut j = Jump::new(&aig, &ctl);
        assert!(j.probe(0).expect("no stop").is_none());
        assert!(j.probe(0).expect("no stop").is_none());
        assert_eq!(j.refuted, [10, 20]);
        // Plain BMC has excluded up to 35: the next target is 45, then 55, then 65 fails.
        assert!(j.probe(35).expect("no stop").is_none());
        assert!(j.probe(35).expect("no stop").is_none());
        let t = j
            .probe(35)
            .expect("no stop")
            .expect("frame 65 has a bad state");
        assert_eq!(t.inputs.len(), 66);
        assert_eq!(j.refuted, [10, 20, 45, 55]);
    }

    #[test]
    fn a_constant_false_property_ends_bmc_at_once() {
        // Without a limit, BMC on this circuit would unroll forever (every step is free).
        let aig = crate::parse_aiger(b"aag 1 0 1 0 0 1\n2 3\n0\n").unwrap();
        match bmc(&aig, &Control::default(), None) {
            EngineResult::Unknown(UnknownReason::Incomplete(why)) => {
                assert!(why.contains("constant false"), "{why}")
            }
            r => panic!("{r:?}"),
        }
    }

    #[test]
    fn step_limited_keeps_the_depth_when_the_budget_runs_out() {
        let aig = counter(4, 9);
        let ctl = Control::default();
        let mut b = Bmc::new(&aig, &ctl);
        let mut steps = 0;
        let t = loop {
            steps += 1;
            assert!(steps < 1000, "no counterexample found");
            match b.step_limited(Some(1)).expect("no stop") {
                Step::Found(t) => break t,
                Step::Next | Step::OutOfBudget => {}
            }
        };
        // Shortest counterexample: nine counting steps, found at depth 9 exactly.
        assert_eq!(b.depth(), 9);
        assert_eq!(t.inputs.len(), 10);
    }
}
