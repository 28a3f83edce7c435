//! IC3/PDR (Bradley 2011; Eén, Mishchenko, Brayton 2011) on cove-sat.
//!
//! Frames are delta-encoded: `frames[i]` holds the cubes blocked in `F_1 … F_i` but not in
//! `F_{i+1}`; solver `i` holds the transition relation, the constraints and the lemmas of
//! levels `≥ i` (solver 0 holds the initial states instead). Proof obligations carry a cube
//! lifted from a SAT model (SAT-based lifting in a separate solver: the predecessor's literals
//! that, with the same inputs, force the successor cube and the constraints), the inputs that
//! lead to the parent obligation, and the parent — so a counterexample is the chain of input
//! vectors from a state of an obligation that meets the initial states. Blocked cubes are
//! generalized by `generalize` (MIC with counterexamples to generalization). The loop stops at the
//! first level whose delta is empty after propagation: the lemmas above it are an inductive
//! invariant, which the caller checks independently.

mod generalize;
mod tsolver;

use crate::engine::{EngineResult, Proof, RawTrace, sat, values};
use crate::{ALit, Aig, Init};
use cove_control::{Control, UnknownReason};
use cove_sat::{Limits, Lit};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use tsolver::TSolver;

/// A cube over latches: sorted cube literals `2 * latch + (value == false)`.
pub(crate) type Cube = Vec<u32>;

/// Rebuild a solver after this many released activation literals.
const REBUILD_DEAD: usize = 3000;

/// A proof obligation: a set of states that reaches a bad state.
struct Obligation {
    cube: Cube,
    /// Inputs that lead from every state of `cube` to the parent's cube (or to a bad state).
    inputs: Vec<bool>,
    parent: Option<usize>,
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
    ctl: &'a Control,
    limits: Limits,
    init: Vec<Option<bool>>,
    frames: Vec<Vec<Cube>>,
    solvers: Vec<TSolver>,
    lifter: TSolver,
    activity: Vec<f64>,
    obligations: Vec<Obligation>,
    queue: BinaryHeap<Reverse<(usize, usize, usize)>>,
    queries: u64,
}

/// Runs IC3 on `aig` (one bad property, as produced by [`crate::reduce`]).
pub fn ic3(aig: &Aig, ctl: &Control) -> EngineResult {
    let mut e = Ic3::new(aig, ctl);
    match e.run() {
        Ok(r) => r,
        Err(r) => EngineResult::Unknown(r),
    }
}

impl<'a> Ic3<'a> {
    fn new(aig: &'a Aig, ctl: &'a Control) -> Ic3<'a> {
        let init = aig
            .latches
            .iter()
            .map(|l| match l.init {
                Init::Zero => Some(false),
                Init::One => Some(true),
                Init::Free => None,
            })
            .collect();
        Ic3 {
            aig,
            ctl,
            limits: Limits::of(ctl),
            init,
            frames: vec![Vec::new()],
            solvers: Vec::new(),
            lifter: TSolver::new(aig, false),
            activity: vec![0.0; aig.latches.len()],
            obligations: Vec::new(),
            queue: BinaryHeap::new(),
            queries: 0,
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
                    t.s.add_clause(&[if *b { l } else { !l }]);
                }
            }
        } else {
            for f in &self.frames[level..] {
                for c in f {
                    t.add_lemma(c);
                }
            }
        }
        t
    }

    fn run(&mut self) -> Result<EngineResult, UnknownReason> {
        self.solvers.push(self.new_solver(0));
        // A bad initial state?
        if let Some(t) = self.bad_state(0)? {
            return Ok(EngineResult::Unsafe(t));
        }
        self.frames.push(Vec::new());
        self.solvers.push(self.new_solver(1));
        loop {
            if let Some(r) = self.ctl.should_stop() {
                return Err(r);
            }
            // Blocking phase at the frontier.
            loop {
                let k = self.k();
                match self.bad_state(k)? {
                    Some(t) => return Ok(EngineResult::Unsafe(t)),
                    None if self.queue.is_empty() => break,
                    None => {}
                }
                if let Some(t) = self.block()? {
                    return Ok(EngineResult::Unsafe(t));
                }
            }
            // Propagation phase.
            self.frames.push(Vec::new());
            let k = self.k();
            self.solvers.push(self.new_solver(k));
            if self.ctl.verbosity > 0 {
                let sizes: Vec<usize> = self.frames[1..].iter().map(Vec::len).collect();
                eprintln!("ic3: frame {k}, lemmas {sizes:?}, {} queries", self.queries);
            }
            if let Some(inv) = self.propagate()? {
                return Ok(EngineResult::Safe(Proof::Invariant(inv)));
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
        self.queries += 1;
        if !sat(&mut self.solvers[level].s, &[bad], &self.limits, self.ctl)? {
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
        let depth = parent.map_or(0, |p| self.depth(p) + 1);
        let meets_init = self.meets_init(&cube);
        self.obligations.push(Obligation {
            cube,
            inputs,
            parent,
        });
        if meets_init {
            return Some(self.trace(id));
        }
        // Within a level the deepest obligation first: chains grow toward long
        // counterexamples (beem/adding.5: found in 8 s instead of unknown at 20 s; neutral on
        // the safe designs of the sample).
        self.queue.push(Reverse((level, usize::MAX - depth, id)));
        None
    }

    fn depth(&self, mut id: usize) -> usize {
        let mut d = 0;
        while let Some(p) = self.obligations[id].parent {
            d += 1;
            id = p;
        }
        d
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

    /// Processes the obligation queue until it is empty or a counterexample is found.
    fn block(&mut self) -> Result<Option<RawTrace>, UnknownReason> {
        while let Some(Reverse((level, key, id))) = self.queue.pop() {
            if let Some(r) = self.ctl.should_stop() {
                return Err(r);
            }
            let cube = self.obligations[id].cube.clone();
            match self.consecution(level - 1, &cube)? {
                Cons::Pred(st, inp) => {
                    let p = self.lift(&st, &inp, Some(&cube))?;
                    if let Some(t) = self.add_obligation(p, inp, Some(id), level - 1) {
                        return Ok(Some(t));
                    }
                    self.queue.push(Reverse((level, key, id)));
                }
                Cons::Blocked(core) => {
                    let mut g = self.mic(core, level - 1, 1)?;
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
                    self.add_lemma(g, j);
                    if j < self.k() {
                        self.queue.push(Reverse((j + 1, key, id)));
                    }
                }
            }
        }
        Ok(None)
    }

    /// Relative induction: is `F_level ∧ ¬cube ∧ T ∧ cube'` unsatisfiable?
    fn consecution(&mut self, level: usize, cube: &Cube) -> Result<Cons, UnknownReason> {
        self.maybe_rebuild(level);
        self.queries += 1;
        let t = &mut self.solvers[level];
        t.ensure_next(self.aig, cube);
        let neg: Vec<Lit> = cube.iter().map(|&c| !t.lit(c)).collect();
        let act = t.temp_clause(&neg);
        let mut assumps = Vec::with_capacity(cube.len() + 1);
        assumps.push(act);
        assumps.extend(cube.iter().map(|&c| t.plit(c)));
        let r = sat(&mut t.s, &assumps, &self.limits, self.ctl);
        let out = match r {
            Ok(true) => Cons::Pred(values(&t.s, &t.state), values(&t.s, &t.inputs)),
            Ok(false) => {
                let mut core: Cube =
                    t.s.failed_assumptions()
                        .iter()
                        .filter_map(|&l| t.cube_lit_of_next(l))
                        .collect();
                core.sort_unstable();
                core.dedup();
                if self.meets_init(&core) {
                    // Put back a literal of the cube that excludes the initial states.
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
                Cons::Blocked(core)
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

    /// A cube of states containing `state` from which `inputs` lead into `target` (a bad
    /// state when `None`) with the constraints holding.
    fn lift(
        &mut self,
        state: &[bool],
        inputs: &[bool],
        target: Option<&Cube>,
    ) -> Result<Cube, UnknownReason> {
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
        let mut assumps = vec![act];
        assumps.extend(
            t.inputs
                .iter()
                .zip(inputs)
                .map(|(&l, &b)| if b { l } else { !l }),
        );
        assumps.extend(
            t.state
                .iter()
                .zip(state)
                .map(|(&l, &b)| if b { l } else { !l }),
        );
        self.queries += 1;
        let r = sat(&mut t.s, &assumps, &self.limits, self.ctl);
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

    /// Adds lemma `¬cube` to `F_1 … F_level`, dropping lemmas it subsumes.
    fn add_lemma(&mut self, cube: Cube, level: usize) {
        for c in &cube {
            self.activity[(c >> 1) as usize] += 1.0;
        }
        for f in &mut self.frames[1..=level] {
            f.retain(|d| !subsumes(&cube, d));
        }
        for t in &mut self.solvers[1..=level] {
            t.add_lemma(&cube);
        }
        self.frames[level].push(cube);
    }

    fn maybe_rebuild(&mut self, level: usize) {
        if self.solvers[level].dead > REBUILD_DEAD {
            self.solvers[level] = self.new_solver(level);
        }
    }

    /// Pushes lemmas forward; returns an inductive invariant when a delta frame empties.
    fn propagate(&mut self) -> Result<Option<Vec<Vec<ALit>>>, UnknownReason> {
        let k = self.k();
        for i in 1..k {
            let cubes = std::mem::take(&mut self.frames[i]);
            for c in cubes {
                if let Some(r) = self.ctl.should_stop() {
                    return Err(r);
                }
                // Subsumed meanwhile by a lemma pushed from this level?
                if self.frames[i + 1].iter().any(|d| subsumes(d, &c)) {
                    continue;
                }
                match self.consecution(i, &c)? {
                    Cons::Blocked(core) => self.add_lemma(core, i + 1),
                    Cons::Pred(..) => self.frames[i].push(c),
                }
            }
            if self.frames[i].is_empty() {
                return Ok(Some(self.invariant(i + 1)));
            }
        }
        Ok(None)
    }

    /// The lemmas of levels `≥ level` as clauses over latch variables.
    fn invariant(&self, level: usize) -> Vec<Vec<ALit>> {
        self.frames[level..]
            .iter()
            .flatten()
            .map(|c| {
                c.iter()
                    .map(|&l| 2 * self.aig.latches[(l >> 1) as usize].var + (1 - (l & 1)))
                    .collect()
            })
            .collect()
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
