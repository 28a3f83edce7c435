//! IC3/PDR (Bradley 2011; Eén, Mishchenko, Brayton 2011) on cove-sat.
//!
//! Frames are delta-encoded: `frames[i]` holds the cubes blocked in `F_1 … F_i` but not in
//! `F_{i+1}`; solver `i` holds the transition relation, the constraints and the lemmas of
//! levels `≥ i` (solver 0 holds the initial states instead). Proof obligations carry a cube
//! lifted from a SAT model (by ternary simulation, `tsim.rs`, as ABC does; SAT-based lifting
//! in a separate solver is the fallback: the predecessor's literals that, with the same
//! inputs, force the successor cube and the constraints), the inputs that
//! lead to the parent obligation, and the parent — so a counterexample is the chain of input
//! vectors from a state of an obligation that meets the initial states. Blocked cubes are
//! generalized by `generalize` (MIC; counterexamples to generalization optional). The loop
//! stops at the first level whose delta is empty after propagation: the lemmas above it are
//! an inductive invariant, which the caller checks independently.
//!
//! Propagation asks one SAT query per lemma `¬c` of level `i`: `F_i ∧ T ∧ c'` with `c'` as
//! assumptions and no temporary clause (`F_i` already implies `¬c`); the core becomes the
//! pushed lemma. When a push fails, the predecessor state is kept with the lemma; the next
//! propagation skips the query while no lemma added since at a level `≥ i` excludes that
//! state (the query would find it again). Optionally (`GenParams::ctp`, off by default:
//! docs/decisions.md#ic3-dynamic-and-ctp) the predecessor, a counterexample to propagation, is
//! first blocked in `F_i` when it is inductive relative to `F_{i-1}` and the push retried
//! (rIC3's `--ic3-ctp`). Latches and inputs become decision variables of a
//! frame solver only once a clause mentions them, so models of queries about a small cone
//! do not assign the whole design.
//!
//! The obligation queue takes the lowest level first and, within a level, the newest
//! obligation (ABC's order). An obligation whose cube a lemma found meanwhile already
//! excludes from its frame is moved up without a query (ABC's containment check). Before
//! MIC, a blocked cube tries the lemmas predicted from failed pushes
//! (`generalize.rs`); the transition relation is encoded with n-ary ANDs and
//! multiplexers (`gates.rs`).
//!
//! Optionally (`GenParams::keep_obligations`, off by default:
//! docs/decisions.md#ic3-down-and-kept-obligations) an obligation blocked at the frontier is
//! kept and queued again when the next frame opens, as rIC3 keeps its obligations.
//!
//! A run stopped by its control can be resumed (`Ic3::resume`): the loops put back the
//! obligation or the lemmas they hold when they stop, so frames, lemmas and queued
//! obligations are all kept. A schedule uses this to lend IC3's time to another engine
//! (localization, `localization.rs`) when IC3's frontier stalls (`Stall`) and to take it back.

pub(crate) mod gates;
mod generalize;
mod tsim;
mod tsolver;

use crate::result::{EngineResult, Proof, RawTrace, sat, values};
use crate::{ALit, Aig};
use cove_control::{Control, UnknownReason};
use cove_sat::{Limits, Lit};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::{Duration, Instant};
use tsim::TernarySim;
use tsolver::TSolver;

/// A cube over latches: sorted cube literals `2 * latch + (value == false)`.
pub(crate) type Cube = Vec<u32>;

/// Rebuild a solver after this many released activation literals.
const REBUILD_DEAD: usize = 3000;

/// At most this many SAT rounds shrink a lifted predecessor ([`Ic3::shrink_sat`]).
const SHRINK_ROUNDS: usize = 4;

/// A lemma `¬cube` of a delta frame.
struct Lemma {
    cube: Cube,
    /// [`signature`] of `cube`: most subsumption tests fail on it without a merge.
    sig: u64,
    /// When pushing the lemma last failed: the length of `log` then and the predecessor
    /// state found (a state of `F_level` with a successor in `cube`). While no lemma added
    /// since at a level `≥ level` excludes that state, the push would fail again.
    failed: Option<(usize, BitState)>,
    /// The successor (in `cube`) of that predecessor, for lemma prediction.
    ctp: Option<BitState>,
}

/// A latch valuation, 64 latches a word.
struct BitState(Vec<u64>);

impl BitState {
    fn new(state: &[bool]) -> BitState {
        let mut w = vec![0u64; state.len().div_ceil(64)];
        for (i, &b) in state.iter().enumerate() {
            if b {
                w[i / 64] |= 1 << (i % 64);
            }
        }
        BitState(w)
    }

    /// Whether the state lies in `cube`.
    fn in_cube(&self, cube: &Cube) -> bool {
        cube.iter().all(|&c| self.satisfies(c))
    }

    /// Whether the state satisfies cube literal `c`.
    fn satisfies(&self, c: u32) -> bool {
        let i = (c >> 1) as usize;
        ((self.0[i / 64] >> (i % 64)) & 1 == 1) == (c & 1 == 0)
    }
}

/// How a predecessor state is widened to an obligation cube.
///
/// Ternary simulation beat SAT lifting alone: on a 20-design subset
/// (docs/decisions.md#ic3-ternary-lifting) it proves `zipcpu-pfcache-p16` in 2.3 s where SAT
/// lifting needs over 10 s (IC3 alone), and is neutral elsewhere, and is the default. SAT
/// lifting alone stays as the fallback and for tests; shrinking the ternary cube by SAT cores
/// afterwards (`TernarySat`) removes almost nothing (docs/decisions.md#ic3-assumption-order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lift {
    /// Unsat core of a SAT query (`lift_sat`).
    #[cfg_attr(not(test), allow(dead_code))]
    Sat,
    /// Ternary simulation ([`tsim`]), latches of few lemmas dropped first.
    Ternary,
    /// Ternary simulation, then the cube shrunk by SAT cores over its own latches
    /// ([`Ic3::shrink_sat`]).
    #[cfg_attr(not(test), allow(dead_code))]
    TernarySat,
}

/// A full latch valuation and input vector (a predecessor found by a SAT query).
type StateInputs = (Vec<bool>, Vec<bool>);

/// A proof obligation: a set of states that reaches a bad state.
struct Obligation {
    cube: Cube,
    /// Inputs that lead from every state of `cube` to the parent's cube (or to a bad state).
    inputs: Vec<bool>,
    parent: Option<usize>,
    /// How often the obligation was worked on, decayed by 0.6 per level it moved up
    /// (dynamic generalization, [`Ic3::dynamic_params`]).
    act: f64,
}

/// Result of a relative-induction query.
enum Cons {
    /// `F ∧ ¬c ∧ T ⇒ ¬core'` with `core ⊆ c` not meeting the initial states.
    Blocked(Cube),
    /// A predecessor in `F ∧ ¬c` (full state and inputs).
    Pred(Vec<bool>, Vec<bool>),
}

/// The IC3 engine state.
pub(crate) struct Ic3<'a> {
    aig: &'a Aig,
    /// The current run's control; [`Ic3::resume`] replaces it (with `limits`).
    ctl: Control,
    limits: Limits,
    init: Vec<Option<bool>>,
    frames: Vec<Vec<Lemma>>,
    /// Every lemma added so far, in order, with its level when added.
    log: Vec<(usize, Cube)>,
    solvers: Vec<TSolver>,
    lifter: TSolver,
    tsim: TernarySim,
    lift_mode: Lift,
    activity: Vec<f64>,
    obligations: Vec<Obligation>,
    queue: BinaryHeap<Reverse<(usize, usize, usize)>>,
    queries: u64,
    stats: Ic3Stats,
    params: generalize::GenParams,
    /// The parent lemma of the cube MIC is shrinking (see [`Ic3::parent_lemma`]).
    parent: Option<Cube>,
    /// Obligations queued so far (the newest of a level is taken first).
    ticks: usize,
    /// A frame was opened and its propagation has not finished (it was stopped): a resumed
    /// run propagates before blocking again.
    propagating: bool,
    /// Running time of the finished runs (a resumed run adds to it).
    active: Duration,
    /// When the current run started.
    run_start: Instant,
    /// Running time at which the frontier frame was opened.
    frontier_opened: Duration,
    /// When to stop on a stall, if ever ([`Ic3::resume_until_stall`]).
    stall: Option<Stall>,
    /// Obligations blocked at the frontier, queued again once the next frame opens
    /// (`GenParams::keep_obligations`).
    deferred: Vec<usize>,
}

/// A stall of the frontier: the frontier frame has been open for more than `factor` times
/// the running time it took to open it, and for at least `min`. IC3's frames usually take
/// longer and longer; one that takes much longer than all before it together suggests the
/// run is stuck on that frame, which is when a schedule gives another engine its turn.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stall {
    pub(crate) factor: f64,
    pub(crate) min: Duration,
}

/// Work counters by phase (printed with `-v`).
#[derive(Default, Debug)]
struct Ic3Stats {
    /// Relative-induction queries of the blocking phase (including generalization).
    block_q: u64,
    block_t: f64,
    /// Queries of the propagation phase.
    prop_q: u64,
    prop_t: f64,
    /// SAT lifting queries.
    lift_q: u64,
    /// Ternary-simulation lifts.
    tsim_q: u64,
    lift_t: f64,
    /// Latches of ternary-lifted cubes, and how many SAT shrinking removed.
    tsim_lits: u64,
    shrunk: u64,
    /// Lemmas skipped in propagation without a SAT call.
    prop_skipped: u64,
    /// Solver rebuilds.
    rebuilds: u64,
    /// Obligations popped from the queue.
    obligations: u64,
    /// Cubes generalized by MIC at the top level, their literals before and after.
    mic_calls: u64,
    mic_in: u64,
    mic_out: u64,
    /// Queries made inside MIC (top level, including CTG handling).
    mic_q: u64,
    /// Obligations found already blocked by a lemma (no query).
    contained: u64,
    /// Predicted lemmas tried, and those that held (MIC skipped).
    predict_q: u64,
    predicted: u64,
    /// Candidates shrunk to a predecessor by MIC's `down` (`GenParams::down`).
    downs: u64,
    /// Obligations kept past the frontier for the next frame (`GenParams::keep_obligations`).
    kept: u64,
    /// Counterexamples to propagation tried, and those blocked.
    ctp_q: u64,
    ctp_blocked: u64,
    /// Relative-induction and pushing queries, and the unit propagations they made (over
    /// the whole run: the solvers' own counters restart when a solver is rebuilt). The
    /// ratio is the cost measure an adaptive domain switch would use
    /// (docs/decisions.md#ic3-domain-restriction).
    frame_q: u64,
    frame_props: u64,
}

/// IC3's options ([`crate::EngineConfig::Ic3`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ic3Config {
    /// Try the lemmas predicted from failed pushes before MIC (on by default; the
    /// portfolio's second IC3, `ic3-plain`, runs without: see [`ic3_variant`]).
    pub predict: bool,
    /// Generalize with rIC3's lifted CTGs (`--ic3-ctg`: three CTGs a drop, each the
    /// predecessor lifted to a cube, joins with that cube); off by default and not in the
    /// portfolio (docs/decisions.md#ic3-lifted-ctg). The engine `ic3-ctg`.
    pub lifted_ctg: bool,
}

impl Default for Ic3Config {
    fn default() -> Ic3Config {
        Ic3Config {
            predict: true,
            lifted_ctg: false,
        }
    }
}

impl Ic3Config {
    /// Runs IC3 with these options.
    pub fn run(&self, aig: &Aig, ctl: &Control) -> EngineResult {
        let mut e = Ic3::new(aig, ctl);
        e.params.predict = self.predict;
        if self.lifted_ctg {
            e.params.max_ctgs = 3;
            e.params.join = true;
            e.params.lifted_ctg = true;
        }
        match e.run() {
            Ok(r) => r,
            Err(r) => EngineResult::Unknown(r),
        }
    }
}

/// Runs IC3 on `aig` (one bad property, as produced by [`crate::reduce`]).
pub fn ic3(aig: &Aig, ctl: &Control) -> EngineResult {
    ic3_variant(aig, ctl, false)
}

/// Runs IC3 with lemma prediction off when `plain` (the portfolio's second IC3 thread): the
/// runs of one design vary a lot with small changes of the search, and the two settings
/// each solve designs the other misses within 20 s (docs/decisions.md#hardware-portfolio-threads:
/// `zipcpu-pfcache-p16` needs prediction, `zipcpu-pfcache-p05` is faster without).
pub fn ic3_variant(aig: &Aig, ctl: &Control, plain: bool) -> EngineResult {
    let mut e = Ic3::new(aig, ctl);
    e.params.predict = !plain;
    match e.run() {
        Ok(r) => r,
        Err(r) => EngineResult::Unknown(r),
    }
}

impl<'a> Ic3<'a> {
    /// Continues the run under `ctl` where the last one stopped. A run stopped by its
    /// control leaves every frame, lemma and queued obligation in place (the blocking and
    /// propagation loops put back what they hold when they stop), so a schedule can give
    /// IC3 several slices of time without losing its work. Once the run answered, resuming
    /// it again is not meaningful.
    pub(crate) fn resume(&mut self, ctl: &Control) -> EngineResult {
        self.ctl = ctl.clone();
        self.limits = Limits::of(ctl);
        self.run_start = Instant::now();
        let r = self.run();
        self.active += self.run_start.elapsed();
        match r {
            Ok(r) => r,
            Err(r) => EngineResult::Unknown(r),
        }
    }

    /// [`Ic3::resume`] that also stops once the frontier stalls as `stall` says: `None`
    /// then (the run can be resumed). Only the blocking phase stops for a stall, after an
    /// obligation, so no SAT query is cut short and every run handles at least one
    /// obligation.
    pub(crate) fn resume_until_stall(
        &mut self,
        ctl: &Control,
        stall: Stall,
    ) -> Option<EngineResult> {
        self.stall = Some(stall);
        let r = self.resume(ctl);
        let stalled =
            matches!(r, EngineResult::Unknown(_)) && ctl.should_stop().is_none() && self.stalled();
        self.stall = None;
        (!stalled).then_some(r)
    }

    /// The frontier level (the number of frames opened so far).
    pub(crate) fn depth(&self) -> usize {
        self.k()
    }

    /// Running time over every run so far.
    fn running(&self) -> Duration {
        self.active + self.run_start.elapsed()
    }

    /// Whether the frontier has stalled by the current [`Stall`] rule (never without one).
    fn stalled(&self) -> bool {
        self.stall.is_some_and(|st| {
            let open = self.running().saturating_sub(self.frontier_opened);
            open >= st.min && open.as_secs_f64() > st.factor * self.frontier_opened.as_secs_f64()
        })
    }

    /// Why the run must stop now: its control, or a stall.
    fn should_stop(&self) -> Option<UnknownReason> {
        self.ctl.should_stop().or_else(|| {
            self.stalled()
                .then(|| UnknownReason::Incomplete(format!("IC3 stalled at frame {}", self.k())))
        })
    }

    pub(crate) fn new(aig: &'a Aig, ctl: &Control) -> Ic3<'a> {
        let init = aig.latches.iter().map(|l| l.init.value()).collect();
        Ic3 {
            aig,
            ctl: ctl.clone(),
            limits: Limits::of(ctl),
            init,
            frames: vec![Vec::new()],
            log: Vec::new(),
            solvers: Vec::new(),
            lifter: TSolver::new(aig, false),
            tsim: TernarySim::new(aig),
            lift_mode: Lift::Ternary,
            activity: vec![0.0; aig.latches.len()],
            obligations: Vec::new(),
            queue: BinaryHeap::new(),
            queries: 0,
            stats: Ic3Stats::default(),
            params: generalize::GenParams::default(),
            parent: None,
            ticks: 0,
            propagating: false,
            active: Duration::ZERO,
            run_start: Instant::now(),
            frontier_opened: Duration::ZERO,
            stall: None,
            deferred: Vec::new(),
        }
    }

    fn k(&self) -> usize {
        self.frames.len() - 1
    }

    fn new_solver(&self, level: usize) -> TSolver {
        let mut t = TSolver::new(self.aig, true);
        if level == 0 {
            for (i, v) in self.init.iter().enumerate() {
                if let Some(b) = v {
                    let l = t.state[i];
                    t.add_unit(if *b { l } else { !l });
                }
            }
        } else {
            for f in &self.frames[level..] {
                for c in f {
                    t.add_lemma(&c.cube);
                }
            }
        }
        t
    }

    fn run(&mut self) -> Result<EngineResult, UnknownReason> {
        let r = self.run_inner();
        if self.ctl.verbosity > 0 {
            let (mut conf, mut props, mut dec, mut wv, mut cv) = (0, 0, 0, 0, 0);
            for t in self.solvers.iter().chain(std::iter::once(&self.lifter)) {
                let st = t.s.stats();
                conf += st.conflicts;
                props += st.propagations;
                dec += st.decisions;
                wv += st.watcher_visits;
                cv += st.clause_visits;
            }
            eprintln!(
                "ic3: {} queries, {} propagations per frame query; {:?}; sat (live solvers): {conf} conflicts, {dec} decisions, {props} propagations, {wv} watcher visits, {cv} clause visits",
                self.queries,
                self.stats.frame_props / self.stats.frame_q.max(1),
                self.stats
            );
            let sizes: Vec<(usize, usize)> = self
                .solvers
                .iter()
                .map(|t| (t.s.num_vars(), t.s.num_clauses()))
                .collect();
            eprintln!("ic3: solver (vars, clauses): {sizes:?}");
        }
        r
    }

    fn run_inner(&mut self) -> Result<EngineResult, UnknownReason> {
        // Frame 1 is opened once the initial states are known not to be bad (a resumed run
        // whose first slice stopped in that check repeats it).
        if self.frames.len() == 1 {
            if self.solvers.is_empty() {
                self.solvers.push(self.new_solver(0));
            }
            // A bad initial state?
            if let Some(t) = self.bad_state(0)? {
                return Ok(EngineResult::Unsafe(t));
            }
            self.frames.push(Vec::new());
            self.solvers.push(self.new_solver(1));
        }
        loop {
            if let Some(r) = self.ctl.should_stop() {
                return Err(r);
            }
            // Blocking phase at the frontier (skipped by a resumed run that stopped while
            // propagating: the frontier frame is open already).
            while !self.propagating {
                let k = self.k();
                match self.bad_state(k)? {
                    Some(t) => return Ok(EngineResult::Unsafe(t)),
                    None if self.queue.is_empty() => break,
                    None => {}
                }
                let (t0, q0) = (std::time::Instant::now(), self.queries);
                let r = self.block()?;
                self.stats.block_t += t0.elapsed().as_secs_f64();
                self.stats.block_q += self.queries - q0;
                if let Some(t) = r {
                    return Ok(EngineResult::Unsafe(t));
                }
            }
            // Propagation phase.
            if !self.propagating {
                self.frames.push(Vec::new());
                let k = self.k();
                self.solvers.push(self.new_solver(k));
                self.propagating = true;
                self.frontier_opened = self.running();
            }
            let k = self.k();
            if self.ctl.verbosity > 0 {
                let sizes: Vec<usize> = self.frames[1..].iter().map(Vec::len).collect();

                eprintln!("ic3: frame {k}, lemmas {sizes:?}, {} queries", self.queries);
            }
            let (t0, q0) = (std::time::Instant::now(), self.queries);
            let r = self.propagate();
            self.stats.prop_t += t0.elapsed().as_secs_f64();
            self.stats.prop_q += self.queries - q0;
            if let Some(inv) = r? {
                return Ok(EngineResult::Safe(Proof::Invariant(inv)));
            }
            self.propagating = false;
            let k = self.k();
            for id in std::mem::take(&mut self.deferred) {
                self.move_up(id, k - 1, k);
            }
        }
    }

    /// Looks for a bad state in `F_level`. At level 0 a hit is a counterexample (returned);
    /// elsewhere it becomes a proof obligation (queued, `None` returned).
    fn bad_state(&mut self, level: usize) -> Result<Option<RawTrace>, UnknownReason> {
        if !self.queue.is_empty() {
            return Ok(None);
        }
        let bad = self.solvers[level].bad(self.aig);
        self.solvers[level].focus(&Vec::new(), true);
        self.queries += 1;
        if !sat(&mut self.solvers[level].s, &[bad], &self.limits, &self.ctl)? {
            return Ok(None);
        }
        let t = &self.solvers[level];
        let (st, inp) = (values(&t.s, &t.state), values(&t.s, &t.inputs));
        let cube = self.lift(&st, &inp, None)?;
        Ok(self.add_obligation(cube, inp, None, level))
    }

    /// Queues an obligation at `level`; returns the counterexample when its cube meets the
    /// initial states.
    fn add_obligation(
        &mut self,
        cube: Cube,
        inputs: Vec<bool>,
        parent: Option<usize>,
        level: usize,
    ) -> Option<RawTrace> {
        let id = self.obligations.len();
        let meets_init = self.meets_init(&cube);
        self.obligations.push(Obligation {
            cube,
            inputs,
            parent,
            act: 0.0,
        });
        if meets_init {
            return Some(self.trace(id));
        }
        // Within a level the newest obligation first (ABC's order): a predecessor is
        // chased before its siblings, and an obligation pushed to a higher level is retried
        // there before older ones, so chains grow toward long counterexamples
        // (docs/decisions.md#ic3-newest-obligation-first):
        // `frogs.2` (16 steps) in 0.6 s instead of unknown at 20 s with the earlier
        // deepest-first order; `rether.4` 7.0 → 3.3 s; neutral on the safe designs.
        let key = self.tick();
        self.queue.push(Reverse((level, key, id)));
        None
    }

    /// A queue key for an obligation (re)queued now: within a level, the newest comes first.
    fn tick(&mut self) -> usize {
        self.ticks += 1;
        usize::MAX - self.ticks
    }

    /// The counterexample starting in an initial state of obligation `id`'s cube.
    fn trace(&self, id: usize) -> RawTrace {
        let cube = &self.obligations[id].cube;
        let mut init: Vec<bool> = self.init.iter().map(|v| v.unwrap_or(false)).collect();
        for &c in cube {
            init[(c >> 1) as usize] = c & 1 == 0;
        }
        let mut inputs = Vec::new();
        let mut cur = Some(id);
        while let Some(i) = cur {
            inputs.push(self.obligations[i].inputs.clone());
            cur = self.obligations[i].parent;
        }
        RawTrace { init, inputs }
    }

    /// Whether some initial state lies in `cube`.
    fn meets_init(&self, cube: &Cube) -> bool {
        cube.iter()
            .all(|&c| self.init[(c >> 1) as usize].is_none_or(|b| b == (c & 1 == 0)))
    }

    /// Lifts cube `g`, relatively inductive to `F_{level - 1}`, to the highest frame up to
    /// the frontier where it stays relatively inductive, shrinking it to each blocking core
    /// on the way; returns the cube and the frame it blocks.
    fn push_forward(&mut self, mut g: Cube, level: usize) -> Result<(Cube, usize), UnknownReason> {
        let mut j = level;
        while j < self.k() {
            match self.consecution(j, &g)? {
                Cons::Blocked(c) => {
                    g = c;
                    j += 1;
                }
                Cons::Pred(..) => break,
            }
        }
        Ok((g, j))
    }

    /// Processes the obligation queue until it is empty or a counterexample is found.
    fn block(&mut self) -> Result<Option<RawTrace>, UnknownReason> {
        while let Some(Reverse((level, key, id))) = self.queue.pop() {
            // A stopped run keeps the obligation queued: every error below happens before
            // the obligation is queued again, so it is never queued twice.
            let r = self.block_one(level, id);
            if r.is_err() {
                self.queue.push(Reverse((level, key, id)));
            }
            if let Some(t) = r? {
                return Ok(Some(t));
            }
            // Checked after an obligation, never before: every run makes progress.
            if let Some(r) = self.should_stop() {
                return Err(r);
            }
        }
        Ok(None)
    }

    /// Works on obligation `id` at `level` (just popped): queues a predecessor, or blocks
    /// it with a lemma and queues it one level up; returns the counterexample when a
    /// predecessor meets the initial states.
    fn block_one(&mut self, level: usize, id: usize) -> Result<Option<RawTrace>, UnknownReason> {
        if let Some(r) = self.ctl.should_stop() {
            return Err(r);
        }
        self.stats.obligations += 1;
        let cube = self.obligations[id].cube.clone();
        // Already excluded from `F_level` by a lemma found meanwhile (ABC's containment
        // check): a predecessor search would chase states the frame no longer has.
        if let Some(j) = self.blocked_at(level, &cube) {
            self.stats.contained += 1;
            if j < self.k() {
                self.move_up(id, level, j + 1);
            } else if self.params.keep_obligations {
                self.deferred.push(id);
                self.stats.kept += 1;
            }
            return Ok(None);
        }
        self.obligations[id].act += 1.0;
        match self.consecution(level - 1, &cube)? {
            Cons::Pred(st, inp) => {
                let p = self.lift(&st, &inp, Some(&cube))?;
                if let Some(t) = self.add_obligation(p, inp, Some(id), level - 1) {
                    return Ok(Some(t));
                }
                let key = self.tick();
                self.queue.push(Reverse((level, key, id)));
            }
            Cons::Blocked(core) => {
                let q0 = self.queries;
                self.stats.mic_calls += 1;
                self.stats.mic_in += core.len() as u64;
                let g = match self.predict(&core, level - 1)? {
                    Some(g) => g,
                    None => {
                        self.parent = self.parent_lemma(&cube, level - 1);
                        let saved = self.params;
                        if self.params.dynamic {
                            self.params = self.dynamic_params(id);
                        }
                        let g = self.mic(core, level - 1, 1);
                        self.params = saved;
                        self.parent = None;
                        g?
                    }
                };
                self.stats.mic_out += g.len() as u64;
                self.stats.mic_q += self.queries - q0;
                let (g, j) = self.push_forward(g, level)?;
                self.add_lemma(g, j);
                if j < self.k() {
                    self.move_up(id, level, j + 1);
                } else if self.params.keep_obligations {
                    self.deferred.push(id);
                    self.stats.kept += 1;
                }
            }
        }
        Ok(None)
    }

    /// Queues obligation `id`, worked on at `from`, again at level `to`; its activity decays
    /// by 0.6 per level (rIC3's `push_to`): an obligation the search keeps returning to at
    /// one level is active, one that moves up freely is not.
    fn move_up(&mut self, id: usize, from: usize, to: usize) {
        let o = &mut self.obligations[id];
        for _ in from..to {
            o.act *= 0.6;
        }
        let key = self.tick();
        self.queue.push(Reverse((to, key, id)));
    }

    /// The parent lemma of an obligation `cube` blocked relative to `F_level` (rIC3's
    /// `--ic3-parent-lemma`): a lemma of level exactly `level` that excludes `cube`, i.e. the
    /// lemma that blocked the obligation one level lower before it was moved up.
    fn parent_lemma(&self, cube: &Cube, level: usize) -> Option<Cube> {
        if !self.params.parent || level == 0 {
            return None;
        }
        let sig = signature(cube);
        self.frames[level]
            .iter()
            .find(|d| d.subsumes(cube, sig))
            .map(|d| d.cube.clone())
    }

    /// The highest level `j ≥ level` whose frame `F_j` excludes `cube` syntactically (a
    /// lemma of level `≥ j` subsumes it), if any.
    fn blocked_at(&self, level: usize, cube: &Cube) -> Option<usize> {
        let sig = signature(cube);
        (level..self.frames.len())
            .rev()
            .find(|&j| self.frames[j].iter().any(|d| d.subsumes(cube, sig)))
    }

    /// Relative induction: is `F_level ∧ ¬cube ∧ T ∧ cube'` unsatisfiable?
    fn consecution(&mut self, level: usize, cube: &Cube) -> Result<Cons, UnknownReason> {
        self.maybe_rebuild(level);
        self.queries += 1;
        let t = &mut self.solvers[level];
        t.ensure_next(self.aig, cube);
        t.focus(cube, false);
        let neg: Vec<Lit> = cube.iter().map(|&c| !t.lit(c)).collect();
        let act = t.temp_clause(&neg);
        let mut assumps = Vec::with_capacity(cube.len() + 1);
        assumps.push(act);
        assumps.extend(by_activity(cube, &self.activity).map(|c| t.plit(c)));
        let p0 = t.s.stats().propagations;
        let r = sat(&mut t.s, &assumps, &self.limits, &self.ctl);
        self.stats.frame_q += 1;
        self.stats.frame_props += t.s.stats().propagations - p0;
        let out = match r {
            Ok(true) => Cons::Pred(values(&t.s, &t.state), values(&t.s, &t.inputs)),
            Ok(false) => {
                let core = t.next_core();
                Cons::Blocked(self.exclude_init(core, cube))
            }
            Err(e) => {
                let t = &mut self.solvers[level];
                t.release(act);
                return Err(e);
            }
        };
        self.solvers[level].release(act);
        Ok(out)
    }

    /// Pushing query for a lemma `¬cube` of `F_level`: is `F_level ∧ T ∧ cube'`
    /// unsatisfiable? If so, returns the part of `cube` the answer depends on (a cube not
    /// meeting the initial states), so the pushed lemma may be stronger; otherwise the
    /// predecessor state found. `F_level` already implies
    /// `¬cube`, so unlike [`Ic3::consecution`] no temporary clause is needed.
    fn push_query(
        &mut self,
        level: usize,
        cube: &Cube,
    ) -> Result<Result<Cube, StateInputs>, UnknownReason> {
        self.queries += 1;
        let t = &mut self.solvers[level];
        t.ensure_next(self.aig, cube);
        t.focus(cube, false);
        let assumps: Vec<Lit> = by_activity(cube, &self.activity)
            .map(|c| t.plit(c))
            .collect();
        let p0 = t.s.stats().propagations;
        let r = sat(&mut t.s, &assumps, &self.limits, &self.ctl);
        self.stats.frame_q += 1;
        self.stats.frame_props += t.s.stats().propagations - p0;
        if r? {
            return Ok(Err((values(&t.s, &t.state), values(&t.s, &t.inputs))));
        }
        let core = t.next_core();
        Ok(Ok(self.exclude_init(core, cube)))
    }

    /// The latch values after one step from `state` with `inputs` (by simulation).
    fn successor(&self, state: &[bool], inputs: &[bool]) -> Vec<bool> {
        let a = self.aig;
        let vals = a.eval_step(state, inputs);
        a.latches
            .iter()
            .map(|l| crate::lit_val(&vals, l.next))
            .collect()
    }

    /// `core ⊆ cube` (sorted), with a literal of `cube` put back if needed so that it
    /// excludes the initial states (`cube` itself must).
    fn exclude_init(&self, mut core: Cube, cube: &Cube) -> Cube {
        if self.meets_init(&core) {
            if let Some(&c) = cube
                .iter()
                .find(|&&c| self.init[(c >> 1) as usize] == Some(c & 1 == 1))
            {
                core.push(c);
                core.sort_unstable();
            } else {
                core = cube.clone();
            }
        }
        core
    }

    /// A cube of states containing `state` from which `inputs` lead into `target` (a bad
    /// state when `None`) with the constraints holding.
    fn lift(
        &mut self,
        state: &[bool],
        inputs: &[bool],
        target: Option<&Cube>,
    ) -> Result<Cube, UnknownReason> {
        let t0 = std::time::Instant::now();
        let r = match self.lift_mode {
            Lift::Sat => self.lift_sat(state, inputs, target),
            Lift::Ternary | Lift::TernarySat => {
                let mut goal: Vec<ALit> = self.aig.constraints.clone();
                match target {
                    Some(c) => goal.extend(
                        c.iter()
                            .map(|&l| self.aig.latches[(l >> 1) as usize].next ^ (l & 1)),
                    ),
                    None => goal.push(self.aig.bad[0]),
                }
                self.stats.tsim_q += 1;
                match self
                    .tsim
                    .lift(self.aig, state, inputs, &goal, &self.activity)
                {
                    Some(cube) if self.lift_mode == Lift::TernarySat && cube.len() > 1 => {
                        self.shrink_sat(cube, inputs, target)
                    }
                    Some(cube) => Ok(cube),
                    // The model's values do not reach the target by simulation (cannot
                    // happen for a model of the frame solver): lift by SAT instead.
                    None => self.lift_sat(state, inputs, target),
                }
            }
        };
        self.stats.lift_t += t0.elapsed().as_secs_f64();
        r
    }

    /// SAT-based lifting: the latches of an unsat core of `state ∧ inputs ∧ T ∧ ¬target`.
    fn lift_sat(
        &mut self,
        state: &[bool],
        inputs: &[bool],
        target: Option<&Cube>,
    ) -> Result<Cube, UnknownReason> {
        self.stats.lift_q += 1;
        let (act, mut assumps) = self.lift_query(inputs, target);
        let t = &mut self.lifter;
        assumps.extend(
            t.state
                .iter()
                .zip(state)
                .filter(|(l, _)| t.is_live(**l))
                .map(|(&l, &b)| if b { l } else { !l }),
        );
        self.queries += 1;
        let r = sat(&mut t.s, &assumps, &self.limits, &self.ctl);
        let cube = match r {
            Ok(false) => {
                let mut c: Cube =
                    t.s.failed_assumptions()
                        .iter()
                        .filter_map(|&l| t.cube_lit_of_state(l))
                        .collect();
                c.sort_unstable();
                c
            }
            // Cannot happen for a deterministic circuit; fall back to the full state.
            Ok(true) => full_cube(state),
            Err(e) => {
                t.release(act);
                return Err(e);
            }
        };
        t.release(act);
        Ok(cube)
    }

    /// The lifter's query for a predecessor of `target` (the bad states when `None`) under
    /// `inputs`: an activation literal for "the constraints fail or the successor leaves
    /// `target`" (the caller releases it), and the assumptions so far — that literal and the
    /// inputs. A state's latches assumed next make the query unsatisfiable, and its core is
    /// the lifted cube ([`Ic3::lift_sat`], [`Ic3::shrink_sat`]).
    fn lift_query(&mut self, inputs: &[bool], target: Option<&Cube>) -> (Lit, Vec<Lit>) {
        if self.lifter.dead > REBUILD_DEAD {
            self.lifter = TSolver::new(self.aig, false);
        }
        let t = &mut self.lifter;
        match target {
            Some(c) => t.ensure_next(self.aig, c),
            None => {
                t.bad(self.aig);
            }
        }
        let mut goal: Vec<Lit> = t.constraints.iter().map(|&c| !c).collect();
        match target {
            Some(c) => goal.extend(c.iter().map(|&l| !t.plit(l))),
            None => goal.push(!t.bad(self.aig)),
        }
        let act = t.temp_clause(&goal);
        // Only variables some clause mentions: the others cannot matter (nor be in the
        // core), and each assumption costs a decision level (939 inputs on
        // `vis_arrays_field5`, most outside the target's cone).
        let mut assumps = vec![act];
        assumps.extend(
            t.inputs
                .iter()
                .zip(inputs)
                .filter(|(l, _)| t.is_live(**l))
                .map(|(&l, &b)| if b { l } else { !l }),
        );
        (act, assumps)
    }

    /// Shrinks `cube`, a lifted predecessor of `target` under `inputs`, to the latches of
    /// unsat cores of `cube ∧ inputs ∧ T ∧ ¬target` (rIC3's `get_pred` strengthening):
    /// the cube's latches are assumed most active first, so a core keeps the latches that
    /// lemmas already use, then in the reverse order, again while a round shrinks it (at
    /// most [`SHRINK_ROUNDS`]). Ternary simulation alone could keep a latch whose X reaches
    /// the target through some path even when the other latches already force it; measured,
    /// it almost never does: on six `wolf` designs the cores removed 0 to 0.2% of the
    /// ternary cubes' latches (0 of 136,390 on `zipcpu-busdelay-p24`), so this is off.
    fn shrink_sat(
        &mut self,
        mut cube: Cube,
        inputs: &[bool],
        target: Option<&Cube>,
    ) -> Result<Cube, UnknownReason> {
        let (act, base) = self.lift_query(inputs, target);
        let t = &mut self.lifter;
        let act_of = |c: &u32| self.activity[(c >> 1) as usize];
        let mut order = cube.clone();
        order.sort_by(|a, b| act_of(b).total_cmp(&act_of(a)).then(a.cmp(b)));
        for round in 0..SHRINK_ROUNDS {
            if round % 2 == 1 {
                order.reverse();
            }
            let mut assumps = base.clone();
            assumps.extend(order.iter().map(|&c| t.lit(c)));
            self.queries += 1;
            self.stats.lift_q += 1;
            match sat(&mut t.s, &assumps, &self.limits, &self.ctl) {
                Ok(false) => {
                    let failed = t.s.failed_assumptions();
                    let before = order.len();
                    // Keep `order`'s order: the next round reverses it.
                    order.retain(|&c| failed.contains(&t.lit(c)));
                    if order.len() == before {
                        break;
                    }
                }
                // The lifted cube leads into the target (ternary simulation says so); a
                // model here would mean an inconsistent circuit: keep the cube as it is.
                Ok(true) => break,
                Err(e) => {
                    t.release(act);
                    return Err(e);
                }
            }
        }
        t.release(act);
        self.stats.tsim_lits += cube.len() as u64;
        self.stats.shrunk += (cube.len() - order.len()) as u64;
        if order.len() < cube.len() {
            cube = order;
            cube.sort_unstable();
        }
        Ok(cube)
    }

    /// Adds lemma `¬cube` to `F_1 … F_level`, dropping lemmas it subsumes.
    fn add_lemma(&mut self, cube: Cube, level: usize) {
        for c in &cube {
            self.activity[(c >> 1) as usize] += 1.0;
        }
        let sig = signature(&cube);
        for f in &mut self.frames[1..=level] {
            f.retain(|d| sig & !d.sig != 0 || !subsumes(&cube, &d.cube));
        }
        for t in &mut self.solvers[1..=level] {
            t.add_lemma(&cube);
        }
        self.log.push((level, cube.clone()));
        self.frames[level].push(Lemma {
            cube,
            sig,
            failed: None,
            ctp: None,
        });
    }

    fn maybe_rebuild(&mut self, level: usize) {
        if self.solvers[level].dead > REBUILD_DEAD {
            self.stats.rebuilds += 1;
            self.solvers[level] = self.new_solver(level);
        }
    }

    /// Pushes lemmas forward; returns an inductive invariant when a delta frame empties.
    fn propagate(&mut self) -> Result<Option<Vec<Vec<ALit>>>, UnknownReason> {
        let k = self.k();
        for i in 1..k {
            let mut lemmas = std::mem::take(&mut self.frames[i]).into_iter();
            while let Some(mut c) = lemmas.next() {
                // A stopped run puts back the lemmas it holds: a frame missing some would
                // look inductive to a resumed run.
                if let Some(r) = self.ctl.should_stop() {
                    self.frames[i].push(c);
                    self.frames[i].extend(lemmas);
                    return Err(r);
                }
                // Subsumed meanwhile by a lemma pushed from this level?
                if self.frames[i + 1]
                    .iter()
                    .any(|d| d.subsumes(&c.cube, c.sig))
                {
                    continue;
                }
                // The predecessor that stopped it last time is still in `F_i`: it would
                // fail again.
                if let Some((from, st)) = &mut c.failed {
                    let excluded = self.log[*from..]
                        .iter()
                        .any(|(l, d)| *l >= i && st.in_cube(d));
                    if !excluded {
                        *from = self.log.len();
                        self.stats.prop_skipped += 1;
                        self.frames[i].push(c);
                        continue;
                    }
                }
                let mut res = self.push_query(i, &c.cube);
                // Counterexamples to propagation (rIC3's `--ic3-ctp`): the state of `F_i`
                // that stops the push is blocked in `F_i` when it can be, and the push tried
                // again.
                let mut ctps = 0;
                while self.params.ctp > ctps
                    && let Ok(Err((st, _))) = &res
                {
                    ctps += 1;
                    match self.block_ctp(i, st) {
                        Ok(true) => res = self.push_query(i, &c.cube),
                        Ok(false) => break,
                        Err(r) => res = Err(r),
                    }
                }
                match res {
                    Err(r) => {
                        self.frames[i].push(c);
                        self.frames[i].extend(lemmas);
                        return Err(r);
                    }
                    Ok(Ok(core)) => self.add_lemma(core, i + 1),
                    Ok(Err((st, inp))) => {
                        if self.params.predict {
                            c.ctp = Some(BitState::new(&self.successor(&st, &inp)));
                        }
                        c.failed = Some((self.log.len(), BitState::new(&st)));
                        self.frames[i].push(c);
                    }
                }
            }
            if self.frames[i].is_empty() {
                return Ok(Some(self.invariant(i + 1)));
            }
        }
        Ok(None)
    }

    /// Blocks predecessor state `st` (a state of `F_level` found by a failed push) in
    /// `F_level` if it is inductive relative to `F_{level-1}`: the generalized lemma is
    /// added at `level`. Returns whether it was.
    fn block_ctp(&mut self, level: usize, st: &[bool]) -> Result<bool, UnknownReason> {
        let cube = full_cube(st);
        if self.meets_init(&cube) {
            return Ok(false);
        }
        self.stats.ctp_q += 1;
        match self.consecution(level - 1, &cube)? {
            Cons::Pred(..) => Ok(false),
            Cons::Blocked(core) => {
                let g = self.mic(core, level - 1, 1)?;
                self.stats.ctp_blocked += 1;
                self.add_lemma(g, level);
                Ok(true)
            }
        }
    }

    /// The lemmas of levels `≥ level` as clauses over latch variables.
    fn invariant(&self, level: usize) -> Vec<Vec<ALit>> {
        self.frames[level..]
            .iter()
            .flatten()
            .map(|c| {
                c.cube
                    .iter()
                    .map(|&l| 2 * self.aig.latches[(l >> 1) as usize].var + (1 - (l & 1)))
                    .collect()
            })
            .collect()
    }
}

/// The literals of `cube`, most active latch first: the order a query assumes them in. A
/// SAT core holds the assumptions the conflict needed in the order they were set, so
/// active latches first makes cores (and the lemmas MIC starts from) share the latches the
/// lemmas already use (rIC3 orders its assumptions so).
fn by_activity<'c>(cube: &'c Cube, activity: &[f64]) -> impl Iterator<Item = u32> + 'c {
    let mut order = cube.clone();
    order.sort_by(|a, b| {
        activity[(b >> 1) as usize]
            .total_cmp(&activity[(a >> 1) as usize])
            .then(a.cmp(b))
    });
    order.into_iter()
}

/// A 64-bit summary of a cube's literals (one hashed bit each): a cube subsumes another
/// only if its signature's bits are among the other's. Frames of a thousand lemmas made the
/// subsumption scans (containment, pushing, adding a lemma) an eighth of IC3's time on
/// `zipcpu-busdelay-p24`; the signature rejects most pairs with one `and`.
fn signature(cube: &Cube) -> u64 {
    cube.iter()
        .fold(0, |s, &c| s | 1 << (c.wrapping_mul(0x9e37_79b1) >> 26))
}

impl Lemma {
    /// Whether this lemma's cube subsumes `cube`, whose [`signature`] is `sig`.
    #[inline]
    fn subsumes(&self, cube: &Cube, sig: u64) -> bool {
        self.sig & !sig == 0 && subsumes(&self.cube, cube)
    }
}

/// Whether cube `a` subsumes cube `b` (its literals are a subset of `b`'s; both sorted).
fn subsumes(a: &Cube, b: &Cube) -> bool {
    if a.len() > b.len() {
        return false;
    }
    let mut j = 0;
    for &x in a {
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j == b.len() || b[j] != x {
            return false;
        }
        j += 1;
    }
    true
}

fn full_cube(state: &[bool]) -> Cube {
    state
        .iter()
        .enumerate()
        .map(|(i, &b)| 2 * i as u32 + (!b) as u32)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Init, parse_aiger};

    fn aig(src: &str) -> Aig {
        parse_aiger(src.as_bytes()).expect("valid aag")
    }

    /// An engine on `a` with frames `F_0..F_n` open and empty (as a run leaves them before
    /// its lemmas), for tests of single queries.
    fn with_frames<'a>(a: &'a Aig, ctl: &Control, n: usize) -> Ic3<'a> {
        let mut e = Ic3::new(a, ctl);
        e.solvers.push(e.new_solver(0));
        for l in 1..=n {
            e.frames.push(Vec::new());
            e.solvers.push(e.new_solver(l));
        }
        e
    }

    /// A shift register `x0' = 1, x_{i+1}' = x_i` from all zeros; bad: `x3 ∧ ¬x0`
    /// (unreachable: the ones enter at `x0` and never leave).
    const SHIFT: &str = "aag 5 0 4 0 1 1\n2 1\n4 2\n6 4\n8 6\n10\n10 8 3\n";

    fn run(a: &Aig) -> (EngineResult, Ic3Stats) {
        run_with(a, generalize::GenParams::default())
    }

    fn run_with(a: &Aig, params: generalize::GenParams) -> (EngineResult, Ic3Stats) {
        let ctl = Control::default();
        let mut e = Ic3::new(a, &ctl);
        e.params = params;
        let r = e.run().unwrap_or_else(EngineResult::Unknown);
        (r, e.stats)
    }

    #[test]
    fn bit_state_membership() {
        let st = BitState::new(&[true, false, true]);
        assert!(st.in_cube(&vec![0, 3])); // x0 ∧ ¬x1
        assert!(st.in_cube(&vec![0, 3, 4]));
        assert!(!st.in_cube(&vec![1])); // ¬x0
        assert!(!st.in_cube(&vec![2])); // x1
        let wide: Vec<bool> = (0..130).map(|i| i % 3 == 0).collect();
        let st = BitState::new(&wide);
        assert!(st.in_cube(&vec![2 * 129, 2 * 128 + 1, 2 * 64 + 1]));
        assert!(!st.in_cube(&vec![2 * 66 + 1]));
    }

    #[test]
    fn subsumption_of_sorted_cubes() {
        assert!(subsumes(&vec![1, 4], &vec![1, 3, 4]));
        assert!(!subsumes(&vec![1, 5], &vec![1, 3, 4]));
        assert!(subsumes(&vec![], &vec![2]));
        assert!(!subsumes(&vec![2, 3], &vec![2]));
    }

    #[test]
    fn signature_filter_agrees_with_subsumption() {
        // Every pair of subsets of 0..10 (as cubes): the filtered test is the exact one.
        let cubes: Vec<Cube> = (0..1u32 << 10)
            .map(|m| (0..10).filter(|i| m >> i & 1 == 1).map(|i| 7 * i).collect())
            .collect();
        for a in cubes.iter().step_by(7) {
            let d = Lemma {
                cube: a.clone(),
                sig: signature(a),
                failed: None,
                ctp: None,
            };
            for b in &cubes {
                assert_eq!(d.subsumes(b, signature(b)), subsumes(a, b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn shift_register_invariant_certifies() {
        let a = aig(SHIFT);
        let (r, stats) = run(&a);
        let EngineResult::Safe(Proof::Invariant(inv)) = r else {
            panic!("expected an invariant, got {r:?}");
        };
        crate::proof_check::check_invariant(&a, &inv, true, &Control::default())
            .expect("invariant checks");
        assert!(stats.prop_q > 0);
        assert!(stats.frame_q >= stats.prop_q && stats.frame_props > 0);
    }

    #[test]
    fn counter_mod6_is_safe_and_unsafe_variant_has_a_trace() {
        let safe = aig(include_str!("../../../tests/data/mod6_safe.aag"));
        let (r, _) = run(&safe);
        let EngineResult::Safe(Proof::Invariant(inv)) = r else {
            panic!("expected an invariant, got {r:?}");
        };
        crate::proof_check::check_invariant(&safe, &inv, true, &Control::default())
            .expect("invariant checks");
        let bad = aig(include_str!("../../../tests/data/mod6_unsafe.aag"));
        assert!(matches!(run(&bad).0, EngineResult::Unsafe(_)));
    }

    #[test]
    fn ctg_and_join_settings_still_prove_and_refute() {
        let params = generalize::GenParams {
            max_depth: 1,
            max_ctgs: 3,
            max_fails: 3,
            join: true,
            predict: false,
            parent: false,
            ..generalize::GenParams::default()
        };
        for src in [SHIFT, include_str!("../../../tests/data/mod6_safe.aag")] {
            let a = aig(src);
            let EngineResult::Safe(Proof::Invariant(inv)) = run_with(&a, params).0 else {
                panic!("expected an invariant");
            };
            crate::proof_check::check_invariant(&a, &inv, true, &Control::default())
                .expect("invariant checks");
        }
        let bad = aig(include_str!("../../../tests/data/mod6_unsafe.aag"));
        assert!(matches!(run_with(&bad, params).0, EngineResult::Unsafe(_)));
    }

    #[test]
    fn every_lifting_mode_proves_and_refutes() {
        let ctl = Control::default();
        for mode in [Lift::Sat, Lift::Ternary, Lift::TernarySat] {
            for src in [SHIFT, include_str!("../../../tests/data/mod6_safe.aag")] {
                let a = aig(src);
                let mut e = Ic3::new(&a, &ctl);
                e.lift_mode = mode;
                let r = e.run().unwrap_or_else(EngineResult::Unknown);
                let EngineResult::Safe(Proof::Invariant(inv)) = r else {
                    panic!("{mode:?}: expected an invariant, got {r:?}");
                };
                crate::proof_check::check_invariant(&a, &inv, true, &ctl)
                    .expect("invariant checks");
                assert_eq!(e.stats.tsim_q > 0, mode != Lift::Sat);
            }
            let bad = aig(include_str!("../../../tests/data/mod6_unsafe.aag"));
            let mut e = Ic3::new(&bad, &ctl);
            e.lift_mode = mode;
            let EngineResult::Unsafe(raw) = e.run().unwrap_or_else(EngineResult::Unknown) else {
                panic!("{mode:?}: expected a counterexample");
            };
            let mut t = crate::Trace {
                init: raw.init,
                inputs: raw.inputs,
                bad_index: 0,
            };
            crate::trace_check::check_trace(&bad, &mut t).expect("the trace simulates");
        }
    }

    /// A 4-bit counter that wraps from 11 to 0 (reset 0); bad: the value 13, unreachable.
    /// IC3 needs several frames and many obligations.
    fn mod12() -> Aig {
        // Latches x0..x3 (vars 1..4). inc = x + 1; wrap when x = 11 (x0 ∧ x1 ∧ ¬x2 ∧ x3).
        let mut a = Aig::default();
        let x = [1u32, 2, 3, 4];
        let mut v = 5;
        let mut and = |a: &mut Aig, l: u32, r: u32| {
            a.ands.push(crate::And {
                var: v,
                rhs0: l,
                rhs1: r,
            });
            v += 1;
            2 * (v - 1)
        };
        let xor = |a: &mut Aig, and: &mut dyn FnMut(&mut Aig, u32, u32) -> u32, l: u32, r: u32| {
            let p = and(a, l, r ^ 1);
            let q = and(a, l ^ 1, r);
            and(a, p ^ 1, q ^ 1) ^ 1
        };
        let w01 = and(&mut a, 2 * x[0], 2 * x[1]);
        let w3 = and(&mut a, 2 * x[2] + 1, 2 * x[3]);
        let wrap = and(&mut a, w01, w3);
        // Sum bits: s0 = ¬x0, s1 = x1 ⊕ x0, s2 = x2 ⊕ (x0 ∧ x1), s3 = x3 ⊕ (x0 ∧ x1 ∧ x2).
        let c1 = 2 * x[0];
        let s1 = xor(&mut a, &mut and, 2 * x[1], c1);
        let c2 = w01;
        let s2 = xor(&mut a, &mut and, 2 * x[2], c2);
        let c3 = and(&mut a, c2, 2 * x[2]);
        let s3 = xor(&mut a, &mut and, 2 * x[3], c3);
        let nexts: Vec<u32> = [2 * x[0] + 1, s1, s2, s3]
            .into_iter()
            .map(|s| and(&mut a, s, wrap ^ 1))
            .collect();
        for (i, n) in nexts.into_iter().enumerate() {
            a.latches.push(crate::Latch {
                var: x[i],
                next: n,
                init: Init::Zero,
            });
        }
        // 13 = x0 ∧ ¬x1 ∧ x2 ∧ x3.
        let b0 = and(&mut a, 2 * x[0], 2 * x[1] + 1);
        let b1 = and(&mut a, 2 * x[2], 2 * x[3]);
        let bad = and(&mut a, b0, b1);
        a.bad.push(bad);
        a.max_var = v - 1;
        a
    }

    #[test]
    fn resumed_runs_stalled_after_every_obligation_reach_the_same_answers() {
        // A zero stall rule stops the run after every obligation; resuming until an answer
        // must give a certified invariant (no lemma lost) or a simulating trace.
        let ctl = Control::default();
        let always = Stall {
            factor: 0.0,
            min: Duration::ZERO,
        };
        let safe = [
            aig(SHIFT),
            aig(include_str!("../../../tests/data/mod6_safe.aag")),
            mod12(),
        ];
        for a in &safe {
            let mut e = Ic3::new(a, &ctl);
            let mut stops = 0;
            let r = loop {
                match e.resume_until_stall(&ctl, always) {
                    None => stops += 1,
                    Some(r) => break r,
                }
                assert!(stops < 10_000, "no progress");
            };
            let EngineResult::Safe(Proof::Invariant(inv)) = r else {
                panic!("expected an invariant, got {r:?}");
            };
            crate::proof_check::check_invariant(a, &inv, true, &ctl).expect("invariant checks");
            assert!(stops > 0);
            assert!(!e.stalled(), "no stall rule outside resume_until_stall");
        }
        assert!(matches!(run(&mod12()).0, EngineResult::Safe(_)));
        let bad = aig(include_str!("../../../tests/data/mod6_unsafe.aag"));
        let mut e = Ic3::new(&bad, &ctl);
        let raw = loop {
            match e.resume_until_stall(&ctl, always) {
                None => {}
                Some(EngineResult::Unsafe(raw)) => break raw,
                r => panic!("expected a counterexample, got {r:?}"),
            }
        };
        let mut t = crate::Trace {
            init: raw.init,
            inputs: raw.inputs,
            bad_index: 0,
        };
        crate::trace_check::check_trace(&bad, &mut t).expect("the trace simulates");
    }

    /// Every setting of CTGs, CTPs, dynamic generalization, `down` and kept obligations proves the safe designs with
    /// a certified invariant and refutes the unsafe one, within a work budget.
    #[test]
    fn generalization_and_obligation_settings_prove_and_refute() {
        let base = generalize::GenParams::default();
        let settings = [
            base,
            generalize::GenParams {
                max_ctgs: 5,
                ctg_limit: 8,
                join: true,
                ..base
            },
            generalize::GenParams { ctp: 3, ..base },
            generalize::GenParams {
                max_ctgs: 3,
                join: true,
                lifted_ctg: true,
                ..base
            },
            generalize::GenParams {
                dynamic: true,
                ctp: 3,
                ..base
            },
            generalize::GenParams {
                down: true,
                keep_obligations: true,
                ..base
            },
        ];
        for params in settings {
            let mut kept = 0;
            for a in [
                aig(SHIFT),
                aig(include_str!("../../../tests/data/mod6_safe.aag")),
                mod12(),
            ] {
                let ctl = Control::default().with_work_budget(2_000_000);
                let mut e = Ic3::new(&a, &ctl);
                e.params = params;
                let r = e.run().unwrap_or_else(EngineResult::Unknown);
                let EngineResult::Safe(Proof::Invariant(inv)) = r else {
                    panic!("{params:?}: expected an invariant, got {r:?}");
                };
                crate::proof_check::check_invariant(&a, &inv, true, &Control::default())
                    .expect("invariant checks");
                assert!(params.ctp > 0 || e.stats.ctp_q == 0);
                assert!(params.down || e.stats.downs == 0);
                kept += e.stats.kept;
            }
            // Obligations are kept where that is on, and only there.
            assert_eq!(params.keep_obligations, kept > 0, "{params:?}: {kept} kept");
            let bad = aig(include_str!("../../../tests/data/mod6_unsafe.aag"));
            let ctl = Control::default().with_work_budget(2_000_000);
            let mut e = Ic3::new(&bad, &ctl);
            e.params = params;
            let EngineResult::Unsafe(raw) = e.run().unwrap_or_else(EngineResult::Unknown) else {
                panic!("{params:?}: expected a counterexample");
            };
            let mut t = crate::Trace {
                init: raw.init,
                inputs: raw.inputs,
                bad_index: 0,
            };
            crate::trace_check::check_trace(&bad, &mut t).expect("the trace simulates");
        }
    }

    /// A random circuit (xorshift seed `seed`): 1–2 inputs, 3–6 latches, 6–25 gates, one
    /// bad state literal and sometimes a constraint.
    fn random_circuit(seed: u64) -> Aig {
        let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut below = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let (ni, nl, na) = (
            1 + below(2) as u32,
            3 + below(4) as u32,
            6 + below(20) as u32,
        );
        let mut a = Aig {
            max_var: ni + nl + na,
            ..Aig::default()
        };
        a.inputs = (1..=ni).collect();
        let mut lit = |vars: u32| (2 * below(vars as u64) as u32) | below(2) as u32;
        for k in 0..na {
            let v = ni + nl + 1 + k;
            let (rhs0, rhs1) = (lit(v), lit(v));
            a.ands.push(crate::And { var: v, rhs0, rhs1 });
        }
        let m = a.max_var + 1;
        for k in 0..nl {
            let next = lit(m);
            let init = if lit(4) < 2 { Init::Zero } else { Init::One };
            a.latches.push(crate::Latch {
                var: ni + 1 + k,
                next,
                init,
            });
        }
        a.bad = vec![lit(m)];
        if lit(3) == 0 {
            a.constraints.push(lit(m));
        }
        a
    }

    /// MIC's `down` and kept obligations, and lifted CTGs (with joins, and with `down`) on
    /// random circuits: every answer is certified (invariant checked, trace simulated) and
    /// agrees with the default setting's, and the new paths run (bounded by a work budget,
    /// not by time).
    #[test]
    fn down_and_kept_obligations_agree_on_random_circuits() {
        let on = generalize::GenParams {
            down: true,
            keep_obligations: true,
            ..generalize::GenParams::default()
        };
        let (mut downs, mut kept, mut decided) = (0, 0, 0);
        for seed in 1..=400 {
            let a = random_circuit(seed);
            let mut verdicts = Vec::new();
            let lifted_ctg = generalize::GenParams {
                max_ctgs: 3,
                join: true,
                lifted_ctg: true,
                ..generalize::GenParams::default()
            };
            let lifted_down = generalize::GenParams {
                down: true,
                lifted_ctg: true,
                ..generalize::GenParams::default()
            };
            for params in [
                generalize::GenParams::default(),
                on,
                lifted_ctg,
                lifted_down,
            ] {
                let ctl = Control::default().with_work_budget(2_000_000);
                let mut e = Ic3::new(&a, &ctl);
                e.params = params;
                let r = e.run().unwrap_or_else(EngineResult::Unknown);
                match r {
                    EngineResult::Safe(Proof::Invariant(inv)) => {
                        crate::proof_check::check_invariant(&a, &inv, true, &Control::default())
                            .expect("invariant checks");
                        verdicts.push(Some(true));
                    }
                    EngineResult::Unsafe(raw) => {
                        let mut t = crate::Trace {
                            init: raw.init,
                            inputs: raw.inputs,
                            bad_index: 0,
                        };
                        crate::trace_check::check_trace(&a, &mut t).expect("the trace simulates");
                        verdicts.push(Some(false));
                    }
                    r => panic!("seed {seed}: expected an answer, got {r:?}"),
                }
                if params.down && !params.lifted_ctg {
                    downs += e.stats.downs;
                    kept += e.stats.kept;
                }
            }
            assert!(
                verdicts.iter().all(|v| *v == verdicts[0]),
                "seed {seed}: {verdicts:?}"
            );
            decided += 1;
        }
        assert_eq!(decided, 400);
        assert!(downs > 0 && kept > 0, "{downs} downs, {kept} kept");
    }

    /// Dynamic generalization: no CTG for an obligation whose successors are inactive, a few
    /// from activity 10, a recursive budget from 40; the successors' activity counts, up to
    /// three of them, and moving an obligation up decays its activity by 0.6 a level.
    #[test]
    fn dynamic_settings_follow_the_successors_activity() {
        let a = aig(SHIFT);
        let ctl = Control::default();
        let mut e = with_frames(&a, &ctl, 4);
        let ob = |parent, act| Obligation {
            cube: vec![0],
            inputs: Vec::new(),
            parent,
            act,
        };
        // 0 <- 1 <- 2 <- 3 <- 4 <- 5 (5 is the newest, 0 next to the bad states).
        e.obligations.push(ob(None, 50.0));
        e.obligations.push(ob(Some(0), 0.0));
        e.obligations.push(ob(Some(1), 12.0));
        e.obligations.push(ob(Some(2), 0.0));
        e.obligations.push(ob(Some(3), 0.0));
        e.obligations.push(ob(Some(4), 0.0));
        let p = e.dynamic_params(0);
        assert_eq!((p.max_ctgs, p.join), (0, false), "no successor");
        let p = e.dynamic_params(1);
        assert_eq!(
            (p.max_ctgs, p.ctg_limit, p.join),
            (5, 9, true),
            "activity 50"
        );
        let p = e.dynamic_params(3);
        assert_eq!(
            (p.max_ctgs, p.ctg_limit),
            (5, 9),
            "50 is three successors up"
        );
        let p = e.dynamic_params(4);
        assert_eq!(
            (p.max_ctgs, p.ctg_limit, p.join),
            (2, 1, true),
            "activity 12"
        );
        e.obligations[2].act = 0.0;
        assert_eq!(e.dynamic_params(4).max_ctgs, 0, "50 is four successors up");
        assert_eq!(e.dynamic_params(5).max_ctgs, 0);
        e.obligations[0].act = 10.0;
        e.move_up(0, 1, 3);
        assert!((e.obligations[0].act - 3.6).abs() < 1e-9);
        assert_eq!(e.queue.len(), 1);
    }

    #[test]
    fn stall_rule_compares_the_open_frame_with_the_time_before_it() {
        let a = aig(SHIFT);
        let ctl = Control::default();
        let mut e = Ic3::new(&a, &ctl);
        let s = |secs| Duration::from_secs(secs);
        e.active = s(10);
        e.frontier_opened = s(1);
        assert!(!e.stalled(), "no rule, no stall");
        e.stall = Some(Stall {
            factor: 3.0,
            min: s(2),
        });
        assert!(e.stalled(), "open 9 s > 3 × 1 s");
        e.frontier_opened = s(5);
        assert!(!e.stalled(), "open 5 s < 3 × 5 s");
        e.active = s(2);
        e.frontier_opened = s(0);
        assert!(e.stalled(), "open 2 s ≥ min");
        e.active = s(1);
        assert!(!e.stalled(), "open 1 s < min");
    }

    #[test]
    fn stopped_propagation_keeps_every_lemma() {
        // x0' = 1, x1' = x1, both reset to 0; bad: x1. Two lemmas in F_1; a stopped
        // propagation must leave both in place (a frame that lost them would look
        // inductive), and the resumed run still proves the property.
        let a = aig("aag 2 0 2 0 0 1\n2 1\n4 4\n4\n");
        let ctl = Control::default();
        let mut e = with_frames(&a, &ctl, 2);
        e.add_lemma(vec![2], 1); // ¬x1
        e.add_lemma(vec![0, 2], 1); // ¬(x0 ∧ x1)
        let stopped = ctl.child();
        stopped.stop();
        e.ctl = stopped;
        assert!(e.propagate().is_err());
        assert_eq!(e.frames[1].len(), 2);
        e.propagating = true;
        match e.resume(&ctl) {
            EngineResult::Safe(Proof::Invariant(inv)) => {
                crate::proof_check::check_invariant(&a, &inv, true, &ctl).expect("invariant checks")
            }
            r => panic!("expected an invariant, got {r:?}"),
        }
    }

    #[test]
    fn push_query_returns_core_or_predecessor() {
        // x0' = 1 from 0; x1' = x1 from 0 (stuck). In F_1 = {¬x1} (lemma), pushing ¬x1
        // succeeds with core [x1]; pushing ¬x0 from F_1 without a lemma fails: every state
        // leads to x0.
        let a = aig("aag 2 0 2 0 0 1\n2 1\n4 4\n2\n");
        let ctl = Control::default();
        let mut e = with_frames(&a, &ctl, 1);
        e.add_lemma(vec![2], 1); // ¬x1
        match e.push_query(1, &vec![2]).unwrap() {
            Ok(core) => assert_eq!(core, vec![2]),
            Err(_) => panic!("¬x1 is inductive"),
        }
        match e.push_query(1, &vec![0]).unwrap() {
            Ok(core) => panic!("x0 is reachable, got core {core:?}"),
            Err((st, _)) => assert!(!st[1], "the predecessor lies in F_1"),
        }
    }

    #[test]
    fn obligations_already_blocked_are_found_by_subsumption() {
        let a = aig("aag 2 0 2 0 0 1\n2 1\n4 4\n2\n");
        let ctl = Control::default();
        let mut e = with_frames(&a, &ctl, 3);
        e.add_lemma(vec![2], 2); // ¬x1 in F_1, F_2
        assert_eq!(e.blocked_at(1, &vec![1, 2]), Some(2));
        assert_eq!(e.blocked_at(3, &vec![1, 2]), None);
        assert_eq!(e.blocked_at(1, &vec![1]), None);
    }

    #[test]
    fn predicted_lemma_adds_a_literal_the_blocking_successor_violates() {
        // x0' = 1 from 0; x1' = x1 from 0. F_1 = ¬x0 ∧ ¬x1; the lemma ¬x0 could not be pushed
        // (every state leads to x0), stopped by a predecessor whose successor is x0 ∧ ¬x1.
        let a = aig("aag 2 0 2 0 0 1\n2 1\n4 4\n2\n");
        let ctl = Control::default();
        let mut e = with_frames(&a, &ctl, 2);
        e.add_lemma(vec![0], 1); // ¬x0
        e.add_lemma(vec![2], 1); // ¬x1
        e.frames[1][0].ctp = Some(BitState::new(&[true, false]));
        // Blocking x0 ∧ x1 relative to F_1: predicted ¬(x0 ∧ x1), relatively inductive; its
        // core keeps x1 (x0 holds in every successor, so it cannot be what blocks).
        let g = e.predict(&vec![0, 2], 1).unwrap();
        assert_eq!(g, Some(vec![2]));
        assert_eq!((e.stats.predict_q, e.stats.predicted), (1, 1));
        // A successor that satisfies x1 gives no candidate.
        e.frames[1][0].ctp = Some(BitState::new(&[true, true]));
        assert_eq!(e.predict(&vec![0, 2], 1).unwrap(), None);
        // Off: no query.
        e.params.predict = false;
        e.frames[1][0].ctp = Some(BitState::new(&[true, false]));
        assert_eq!(e.predict(&vec![0, 2], 1).unwrap(), None);
        assert_eq!(e.stats.predict_q, 1);
    }

    #[test]
    fn untouched_latches_are_not_decided() {
        // Latch 0: x0' = input; latch 1: x1' = x1, in no clause of a query about x0.
        let a = aig("aag 3 1 2 0 0 1\n2\n4 2\n6 6\n4\n");
        let mut t = TSolver::with_domain(&a, true, true);
        t.ensure_next(&a, &vec![0]);
        t.focus(&vec![0], false);
        let p = t.plit(0);
        assert!(t.s.solve(&[p]) == cove_sat::SolveResult::Sat);
        assert_eq!(t.s.value(t.inputs[0]), cove_sat::LBool::True);
        assert_eq!(t.s.value(t.state[1]), cove_sat::LBool::Undef);
        // Once a lemma mentions x1, models assign it.
        t.add_lemma(&vec![2]);
        assert!(t.s.solve(&[p]) == cove_sat::SolveResult::Sat);
        assert_eq!(t.s.value(t.state[1]), cove_sat::LBool::False);
    }
}
