//! Inductive generalization: MIC (Bradley) with counterexamples to generalization (Hassan,
//! Bradley, Somenzi, FMCAD 2013), in the shape of IC3ref's `mic`/`ctgDown`.
//!
//! Dropping a literal from a blocked cube is accepted when the smaller cube is still
//! inductive relative to the frame. When it is not, the predecessor found (the CTG) is itself
//! blocked one level lower if possible — strengthening the frame so the drop may succeed on
//! the next try — and otherwise the cube is joined with the CTG. Recursion is bounded by
//! [`MAX_DEPTH`], not by the input.

use super::{Cons, Cube, Ic3};
use cove_control::UnknownReason;

/// Nesting of CTG handling.
const MAX_DEPTH: usize = 1;
/// CTGs handled per literal-drop attempt.
const MAX_CTGS: usize = 3;
/// Consecutive failed drops before MIC gives up.
const MAX_FAILS: usize = 3;

impl Ic3<'_> {
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
        let mut fails = 0;
        for lit in order {
            if cube.len() <= 1 {
                break;
            }
            let Ok(pos) = cube.binary_search(&lit) else {
                continue;
            };
            let mut cand = cube.clone();
            cand.remove(pos);
            if self.ctg_down(&mut cand, level, depth)? {
                cube = cand;
                fails = 0;
            } else {
                fails += 1;
                if fails >= MAX_FAILS {
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
    ) -> Result<bool, UnknownReason> {
        let mut ctgs = 0;
        loop {
            if let Some(r) = self.ctl.should_stop() {
                return Err(r);
            }
            if cube.is_empty() || self.meets_init(cube) {
                return Ok(false);
            }
            let state = match self.consecution(level, cube)? {
                Cons::Blocked(core) => {
                    *cube = core;
                    return Ok(true);
                }
                Cons::Pred(state, _) => state,
            };
            if depth > MAX_DEPTH {
                return Ok(false);
            }
            let ctg = super::full_cube(&state);
            if ctgs < MAX_CTGS
                && level > 0
                && !self.meets_init(&ctg)
                && let Cons::Blocked(core) = self.consecution(level - 1, &ctg)?
            {
                ctgs += 1;
                let mut g = core;
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
                let g = self.mic(g, j - 1, depth + 1)?;
                self.add_lemma(g, j);
                continue;
            }
            // Join: keep the literals the CTG agrees with.
            ctgs = 0;
            cube.retain(|&c| state[(c >> 1) as usize] == (c & 1 == 0));
        }
    }
}
