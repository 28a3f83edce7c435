//! Inductive generalization: MIC (Bradley) with optional counterexamples to generalization
//! (Hassan, Bradley, Somenzi, FMCAD 2013), in the shape of IC3ref's `mic`/`ctgDown`.
//!
//! Dropping a literal from a blocked cube is accepted when the smaller cube is still
//! inductive relative to the frame (the query's core then shrinks the cube further).
//! Literals are tried in order of increasing activity (how often their latch occurs in
//! lemmas), as ABC's `pdr` does. With CTGs enabled, when a drop fails the predecessor found
//! (the CTG) is itself blocked one level lower if possible — strengthening the frame so the
//! drop may succeed on the next try — and otherwise (with `join`) the cube is joined with the
//! CTG. Recursion is bounded by [`GenParams::max_depth`], not by the input.
//!
//! With `dynamic` (rIC3's `--ic3-dynamic`; off by default: docs/decisions.md#ic3-dynamic-and-ctp)
//! CTGs are chosen per obligation: a cube blocked for an obligation whose successors the
//! search keeps returning to gets CTGs (blocked with a small recursive query budget,
//! `ctg_limit`) and joins; every other cube gets ABC's plain MIC. Without it the fields are
//! used as given.
//!
//! With `down` (off by default: docs/decisions.md#ic3-down-and-kept-obligations) a failed drop
//! without CTG handling is not given up at once: the candidate is shrunk to the literals the
//! predecessor agrees with and retried (Bradley's `down`, as rIC3's MIC does when it runs
//! without CTGs), unless that drops a literal whose own drop already failed.
//!
//! With `lifted_ctg` (off by default: docs/decisions.md#ic3-lifted-ctg) the predecessor a
//! failed drop finds is lifted to a cube first, as rIC3's `get_pred` does: that cube is the
//! CTG blocked one level lower, and `down` or a join keeps only the literals it has (the full
//! state agrees with far more, so the candidate shrinks less).
//!
//! The fixed defaults are ABC's: every literal is tried once, no CTG, no join. On the quick subset
//! of 2026-11-24 (docs/decisions.md#ic3-generalization-abc-defaults) IC3ref's setting (3 CTGs,
//! joins, and MIC giving up after 3 consecutive failed drops) took more frames and 1.5–5x the time
//! on most safe designs (e.g. 125 frames instead of 20 on `analog_estimation_convergence`).

use super::{Cons, Cube, Ic3};
use cove_control::UnknownReason;

/// Limits of inductive generalization.
#[derive(Clone, Copy, Debug)]
pub(super) struct GenParams {
    /// Nesting of CTG handling.
    pub max_depth: usize,
    /// CTGs handled per literal-drop attempt (0: none).
    pub max_ctgs: usize,
    /// Consecutive failed drops before MIC gives up.
    pub max_fails: usize,
    /// Join the cube with a CTG that could not be blocked.
    pub join: bool,
    /// Try predicted lemmas before MIC (see [`Ic3::predict`]).
    pub predict: bool,
    /// Try the parent lemma's literals last in MIC (see [`Ic3::parent_lemma`]).
    pub parent: bool,
    /// Queries spent blocking one CTG, its predecessors blocked first when needed (1: the
    /// CTG alone, one query).
    pub ctg_limit: usize,
    /// Choose the CTG settings per obligation by its activity ([`Ic3::dynamic_params`]).
    pub dynamic: bool,
    /// Counterexamples to propagation blocked per failed push (0: none).
    pub ctp: usize,
    /// When a drop fails and no CTG is blocked, shrink the candidate to the literals the
    /// predecessor agrees with and retry (Bradley's `down`, as rIC3's MIC does), unless
    /// that drops a literal whose own drop already failed.
    pub down: bool,
    /// Keep an obligation blocked at the frontier and queue it again when the next frame
    /// opens (rIC3 keeps every obligation until it is blocked beyond the frontier): the
    /// states known to reach a bad state are excluded from the new frame first, before a
    /// new bad state is searched for.
    pub keep_obligations: bool,
    /// CTGs, `down` and joins use the predecessor lifted to a cube (rIC3's `get_pred`)
    /// instead of the full predecessor state.
    pub lifted_ctg: bool,
}

/// Candidates tried per predicted generalization.
const MAX_PREDICTIONS: usize = 4;

impl Default for GenParams {
    fn default() -> GenParams {
        GenParams {
            max_depth: 1,
            max_ctgs: 0,
            max_fails: usize::MAX,
            join: false,
            predict: true,
            parent: true,
            ctg_limit: 1,
            dynamic: false,
            ctp: 0,
            down: false,
            keep_obligations: false,
            lifted_ctg: false,
        }
    }
}

impl Ic3<'_> {
    /// Lemma prediction (Su, Yang, Ci, DAC 2024; rIC3): a lemma `¬d` of `F_level` that
    /// failed to reach `F_{level+1}` was stopped by a state `t` of `F_level` with a successor
    /// `s` in `d`. When `cube` (blocked relative to `F_level`) lies inside `d`, a literal `l`
    /// of `cube` that `s` violates gives the candidate `d ∧ l`: it excludes `s`, so it may be
    /// inductive where `d` was not — one query instead of MIC's one per literal. Returns the
    /// first candidate that is (its core), or `None`.
    pub(super) fn predict(
        &mut self,
        cube: &Cube,
        level: usize,
    ) -> Result<Option<Cube>, UnknownReason> {
        if !self.params.predict || level == 0 {
            return Ok(None);
        }
        let mut cands: Vec<Cube> = Vec::new();
        let sig = super::signature(cube);
        for d in &self.frames[level] {
            let Some(s) = &d.ctp else { continue };
            if !d.subsumes(cube, sig) {
                continue;
            }
            for &l in cube {
                if d.cube.binary_search(&l).is_ok() || s.satisfies(l) {
                    continue;
                }
                let mut c = d.cube.clone();
                let pos = c.binary_search(&l).unwrap_or_else(|p| p);
                c.insert(pos, l);
                if !self.meets_init(&c) && !cands.contains(&c) {
                    cands.push(c);
                }
            }
            if cands.len() >= MAX_PREDICTIONS {
                break;
            }
        }
        for c in cands.into_iter().take(MAX_PREDICTIONS) {
            self.stats.predict_q += 1;
            if let Cons::Blocked(core) = self.consecution(level, &c)? {
                self.stats.predicted += 1;
                return Ok(Some(core));
            }
        }
        Ok(None)
    }

    /// Dynamic generalization (rIC3's `--ic3-dynamic`): the generalization settings for a
    /// cube blocked for obligation `id`, by the highest activity of its next three
    /// successors toward the bad states. Obligations the search keeps coming back to get
    /// counterexamples to generalization (more and deeper as the activity grows, with joins),
    /// the others plain MIC: CTGs cost queries that pay off only where the plain lemmas
    /// failed to keep the search away.
    pub(super) fn dynamic_params(&self, id: usize) -> GenParams {
        let mut p = self.params;
        let mut act = None::<f64>;
        let mut cur = self.obligations[id].parent;
        for _ in 0..3 {
            let Some(n) = cur else { break };
            act = Some(act.map_or(self.obligations[n].act, |a| a.max(self.obligations[n].act)));
            cur = self.obligations[n].parent;
        }
        let act = act.unwrap_or(0.0);
        const CTG: f64 = 10.0;
        const EXTRA: f64 = 40.0;
        (p.max_ctgs, p.ctg_limit, p.join) = if act >= EXTRA {
            (
                5,
                ((act - EXTRA).powf(0.3) * 2.0 + 5.0).round() as usize,
                true,
            )
        } else if act >= CTG {
            ((act - CTG) as usize / 10 + 2, 1, true)
        } else {
            (0, 1, false)
        };
        p.max_depth = 1;
        p
    }

    /// Tries to block `cube` relative to `F_level` (lemma at `level + 1` or higher), first
    /// blocking its predecessors one level lower when it is not, spending at most `budget`
    /// queries over the whole recursion (which is therefore at most `budget` deep).
    fn block_ctg(
        &mut self,
        level: usize,
        cube: Cube,
        budget: &mut usize,
        depth: usize,
    ) -> Result<bool, UnknownReason> {
        if *budget == 0 || self.meets_init(&cube) {
            return Ok(false);
        }
        *budget -= 1;
        loop {
            match self.consecution(level, &cube)? {
                Cons::Blocked(core) => {
                    let (g, j) = self.push_forward(core, level + 1)?;
                    let g = self.mic(g, j - 1, depth + 1)?;
                    self.add_lemma(g, j);
                    return Ok(true);
                }
                Cons::Pred(st, _) => {
                    if *budget == 0 || level == 0 {
                        return Ok(false);
                    }
                    if !self.block_ctg(level - 1, super::full_cube(&st), budget, depth)? {
                        return Ok(false);
                    }
                }
            }
        }
    }

    /// Shrinks `cube` (blocked relative to `F_level`) to a smaller blocked cube.
    pub(super) fn mic(
        &mut self,
        mut cube: Cube,
        level: usize,
        depth: usize,
    ) -> Result<Cube, UnknownReason> {
        let mut order = cube.clone();
        order.sort_by(|a, b| {
            self.activity[(*a >> 1) as usize].total_cmp(&self.activity[(*b >> 1) as usize])
        });
        if depth == 1
            && let Some(parent) = &self.parent
        {
            // The parent lemma's literals last: MIC drops the others first, and tends to a
            // lemma close to the one that blocked this obligation one level lower.
            order.sort_by_key(|l| parent.binary_search(l).is_ok());
        }
        let mut fails = 0;
        // Literals whose drop failed: a `down` join must keep them.
        let mut keep: Vec<u32> = Vec::new();
        for lit in order {
            if cube.len() <= 1 {
                break;
            }
            let Ok(pos) = cube.binary_search(&lit) else {
                continue;
            };
            let mut cand = cube.clone();
            cand.remove(pos);
            if self.ctg_down(&mut cand, level, depth, &keep)? {
                cube = cand;
                fails = 0;
            } else {
                keep.push(lit);
                fails += 1;
                if fails >= self.params.max_fails {
                    break;
                }
            }
        }
        Ok(cube)
    }

    /// Tries to make `cube` inductive relative to `F_level` by blocking CTGs or joining;
    /// on success `cube` is the (possibly smaller) inductive cube.
    fn ctg_down(
        &mut self,
        cube: &mut Cube,
        level: usize,
        depth: usize,
        keep: &[u32],
    ) -> Result<bool, UnknownReason> {
        let mut ctgs = 0;
        loop {
            if let Some(r) = self.ctl.should_stop() {
                return Err(r);
            }
            if cube.is_empty() || self.meets_init(cube) {
                return Ok(false);
            }
            let (state, lifted) = match self.consecution(level, cube)? {
                Cons::Blocked(core) => {
                    *cube = core;
                    return Ok(true);
                }
                Cons::Pred(state, inputs) => {
                    let lifted = if self.params.lifted_ctg {
                        Some(self.lift(&state, &inputs, Some(cube))?)
                    } else {
                        None
                    };
                    (state, lifted)
                }
            };
            if depth > self.params.max_depth {
                return Ok(false);
            }
            if ctgs < self.params.max_ctgs && level > 0 {
                let mut budget = self.params.ctg_limit.max(1);
                let ctg = match &lifted {
                    Some(c) => c.clone(),
                    None => super::full_cube(&state),
                };
                if self.block_ctg(level - 1, ctg, &mut budget, depth)? {
                    ctgs += 1;
                    continue;
                }
            }
            // With a lifted predecessor, a literal is kept only when the lifted cube has
            // it (rIC3 joins with the lifted CTG): the full state agrees with many more.
            let agrees = |c: u32| match &lifted {
                Some(l) => l.contains(&c),
                None => state[(c >> 1) as usize] == (c & 1 == 0),
            };
            if self.params.down && !self.params.join {
                // Down: the predecessor violates some literal of the candidate (it lies
                // outside it); the candidate without those literals contains it, so the
                // next query must find another predecessor. Each round drops a literal.
                if !keep
                    .iter()
                    .all(|&c| agrees(c) || cube.binary_search(&c).is_err())
                {
                    return Ok(false);
                }
                cube.retain(|&c| agrees(c));
                self.stats.downs += 1;
                continue;
            }
            if !self.params.join {
                return Ok(false);
            }
            // Join: keep the literals the CTG agrees with.
            ctgs = 0;
            if lifted.is_some()
                && !keep
                    .iter()
                    .all(|&c| agrees(c) || cube.binary_search(&c).is_err())
            {
                return Ok(false);
            }
            cube.retain(|&c| agrees(c));
        }
    }
}
