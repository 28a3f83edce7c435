//! Latch correspondence (register correspondence, van Eijk's signal correspondence restricted
//! to latches): latches that are equal — or one the negation of the other, or constant — in
//! every reachable state, proved by induction together, so that all but one of each class can
//! be replaced by its representative.
//!
//! # The reduction
//! Only latches with a determined reset value take part. Each latch is *normalised* by its
//! reset value (`n_i = x_i ⊕ init_i`, so every normalised latch is 0 in the reset state); a
//! class is a set of latches whose normalised values are claimed equal, and the *constant*
//! class claims them 0. Every claim holds in the reset state by construction. Candidate
//! classes come from random simulation from the reset state (lanes that break a constraint
//! stop counting); then, until nothing changes, one SAT query per member asks whether the
//! claims on the current state, the constraints of the current state and the transition
//! allow a member's next value to differ from its representative's (or from 0). A model
//! splits every class by its next values; a query over its conflict budget takes the member
//! out. When a whole round finds no model, the claims `E` satisfy `E ∧ C ∧ T ⇒ E'` and hold
//! initially, so they hold in every reachable state of every trace whose steps satisfy the
//! constraints.
//!
//! # Why the answers stay sound
//! The reduced circuit reads each merged latch as its representative (or constant): on states
//! satisfying `E` it steps exactly like the original. A counterexample of the reduced circuit
//! is replayed on the original (its merged latches have determined reset values); a proof of the
//! reduced circuit is one of the original together with `E` as clauses
//! ([`crate::reduce::Reduced::aux_clauses`]), which the driver checks independently on the
//! original circuit (initiation, consecution, safety).

use crate::cnf::{add_constraints, encode_frame, false_lit, next_state};
use crate::{ALit, Aig};
use cove_control::Control;
use cove_sat::{LBool, Limits, Lit, SolveResult, Solver};

/// What a latch was found equal to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corr {
    /// Constant (its reset value) in every reachable state.
    Const(bool),
    /// Equal to latch `j < i` (never itself merged), negated when `.1`.
    Latch(usize, bool),
}

/// The result of the pass: per latch of the analysed circuit, what it is merged into.
#[derive(Clone, Debug, Default)]
pub struct Found {
    /// `corr[i]`: latch `i` is replaced (`None`: kept).
    pub corr: Vec<Option<Corr>>,
    /// SAT queries made.
    pub queries: usize,
    /// Refinement rounds.
    pub rounds: usize,
}

impl Found {
    /// Latches merged.
    pub fn count(&self) -> usize {
        self.corr.iter().filter(|c| c.is_some()).count()
    }
}

/// Conflict budget of one query (a member whose query exceeds it is taken out).
const QUERY_CONFLICTS: u64 = 2_000;
/// Gate evaluations of the simulation (64 lanes each).
const SIM_WORK: usize = 20_000_000;

/// The class label of a member: its representative (`usize::MAX`: the constant class).
const CONST: usize = usize::MAX;

/// Finds the latch correspondence of `aig` under the limits of `ctl` (stopped early: nothing
/// is merged).
pub fn latch_correspondence(aig: &Aig, ctl: &Control) -> Found {
    let n = aig.latches.len();
    let mut found = Found {
        corr: vec![None; n],
        ..Found::default()
    };
    let init: Vec<Option<bool>> = aig.latches.iter().map(|l| l.init.value()).collect();
    if init.iter().all(|i| i.is_none()) {
        return found;
    }
    let Some(sig) = simulate(aig, &init, ctl) else {
        return found;
    };
    // Initial classes: equal signatures; a zero signature is the constant class.
    // `repr[i]`: the class label of latch `i` (None: not a candidate / alone).
    let mut repr: Vec<Option<usize>> = vec![None; n];
    {
        let mut order: Vec<usize> = (0..n).filter(|&i| init[i].is_some()).collect();
        order.sort_by_key(|&i| (sig[i], i));
        let mut k = 0;
        while k < order.len() {
            let mut e = k;
            while e < order.len() && sig[order[e]] == sig[order[k]] {
                e += 1;
            }
            let zero = sig[order[k]] == 0;
            if zero || e - k > 1 {
                let label = if zero { CONST } else { order[k] };
                for &i in &order[k..e] {
                    if i != label {
                        repr[i] = Some(label);
                    }
                }
            }
            k = e;
        }
    }
    // Refinement by induction.
    let mut s = Solver::new();
    let fls = false_lit(&mut s);
    let f = encode_frame(&mut s, aig, fls, None);
    add_constraints(&mut s, aig, &f);
    let next = next_state(aig, &f);
    let norm = |l: Lit, i: usize| if init[i] == Some(true) { !l } else { l };
    let cur: Vec<Lit> = (0..n)
        .map(|i| norm(f.lit(2 * aig.latches[i].var), i))
        .collect();
    let nxt: Vec<Lit> = (0..n).map(|i| norm(next[i], i)).collect();
    let mut limits = Limits::of(ctl);
    limits.conflicts = Some(QUERY_CONFLICTS);
    loop {
        if ctl.should_stop().is_some() {
            return found;
        }
        found.rounds += 1;
        let act = Lit::new(s.new_var(), false);
        for i in 0..n {
            match repr[i] {
                None => {}
                Some(CONST) => {
                    s.add_clause(&[!act, !cur[i]]);
                }
                Some(r) => {
                    s.add_clause(&[!act, !cur[i], cur[r]]);
                    s.add_clause(&[!act, cur[i], !cur[r]]);
                }
            }
        }
        let mut changed = false;
        for i in 0..n {
            let Some(r) = repr[i] else { continue };
            let d = if r == CONST {
                nxt[i]
            } else {
                let d = Lit::new(s.new_var(), false);
                s.add_clause(&[!d, nxt[i], nxt[r]]);
                s.add_clause(&[!d, !nxt[i], !nxt[r]]);
                d
            };
            found.queries += 1;
            match s.solve_limited(&[act, d], &mut cove_sat::NoTheory, &limits) {
                SolveResult::Unsat => {}
                SolveResult::Sat => {
                    let val: Vec<bool> = nxt.iter().map(|&x| s.value(x) == LBool::True).collect();
                    split(&mut repr, |i| val[i]);
                    changed = true;
                }
                SolveResult::Unknown => {
                    if ctl.should_stop().is_some() {
                        return found;
                    }
                    // Take `i` out; a class it represented gets a new representative.
                    take_out(&mut repr, i);
                    changed = true;
                }
            }
            if r != CONST {
                s.add_clause(&[!d]);
            }
        }
        s.add_clause(&[!act]);
        if !changed {
            break;
        }
    }
    for i in 0..n {
        found.corr[i] = match repr[i] {
            None => None,
            Some(CONST) => Some(Corr::Const(init[i] == Some(true))),
            Some(r) => Some(Corr::Latch(r, init[i] != init[r])),
        };
    }
    found
}

/// Splits every class by `val` (normalised next values of one model): members whose value
/// differs from their representative's (from 0 for the constant class) form classes of their
/// own, labelled by their smallest member.
fn split(repr: &mut [Option<usize>], val: impl Fn(usize) -> bool) {
    let n = repr.len();
    // New label of the members leaving each class.
    let mut moved: Vec<Option<usize>> = vec![None; n];
    let mut moved_const: Option<usize> = None;
    // The values of the representatives, before any member moves.
    let value: Vec<bool> = (0..n).map(&val).collect();
    for (i, slot_i) in repr.iter_mut().enumerate() {
        let Some(r) = *slot_i else { continue };
        let rv = r != CONST && value[r];
        if value[i] == rv {
            continue;
        }
        let slot = if r == CONST {
            &mut moved_const
        } else {
            &mut moved[r]
        };
        match *slot {
            None => {
                *slot = Some(i);
                *slot_i = None;
            }
            Some(l) => *slot_i = Some(l),
        }
    }
}

/// Takes latch `i` out of its class (and, if it is a representative, elects the smallest
/// remaining member).
fn take_out(repr: &mut [Option<usize>], i: usize) {
    repr[i] = None;
    let mut new: Option<usize> = None;
    for (m, slot) in repr.iter_mut().enumerate() {
        if *slot == Some(i) {
            match new {
                None => {
                    new = Some(m);
                    *slot = None;
                }
                Some(l) => *slot = Some(l),
            }
        }
    }
}

/// A 64-bit signature of every latch's normalised values over random runs from the reset
/// state (0 for a latch that never leaves its reset value), or `None` when stopped. Lanes
/// whose inputs break a constraint stop counting from the next state on.
fn simulate(aig: &Aig, init: &[Option<bool>], ctl: &Control) -> Option<Vec<u64>> {
    let n = aig.latches.len();
    let steps = (SIM_WORK / (aig.ands.len() + n + 1)).clamp(4, 64);
    let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next_rand = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut vals = vec![0u64; aig.max_var as usize + 1];
    let word = |vals: &[u64], l: ALit| {
        let w = vals[(l >> 1) as usize];
        if l & 1 == 1 { !w } else { w }
    };
    let mut sig = vec![0u64; n];
    let mut state: Vec<u64> = init
        .iter()
        .map(|i| if *i == Some(true) { !0 } else { 0 })
        .collect();
    // Free latches: random in the reset state (they are no candidates).
    for (i, x) in init.iter().enumerate() {
        if x.is_none() {
            state[i] = next_rand();
        }
    }
    let mut alive = !0u64;
    for _ in 0..steps {
        if ctl.should_stop().is_some() {
            return None;
        }
        for (i, l) in aig.latches.iter().enumerate() {
            vals[l.var as usize] = state[i];
        }
        for &v in &aig.inputs {
            vals[v as usize] = next_rand();
        }
        for a in &aig.ands {
            vals[a.var as usize] = word(&vals, a.rhs0) & word(&vals, a.rhs1);
        }
        for i in 0..n {
            let w = state[i] ^ if init[i] == Some(true) { !0 } else { 0 };
            let w = w & alive;
            // Order-sensitive mixing of the words (equal sequences, equal signatures;
            // an all-zero sequence stays 0).
            sig[i] =
                (sig[i].rotate_left(5) ^ w).wrapping_mul(0x1000_0000_01B3 | 1) ^ w.rotate_left(29);
        }
        for &c in &aig.constraints {
            alive &= word(&vals, c);
        }
        for (i, l) in aig.latches.iter().enumerate() {
            state[i] = word(&vals, l.next);
        }
    }
    Some(sig)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn design(src: &str) -> Aig {
        crate::parse_aiger(src.as_bytes()).expect("valid aag")
    }

    #[test]
    fn duplicated_and_negated_registers_are_merged() {
        // Latch 0 toggles; latches 1 and 2 are copies of it, latch 3 its negation (reset 1),
        // latch 4 is `x0 ∧ ¬x1`, hence 0 (provable only together with `x1 = x0`).
        let aig = design("aag 8 1 5 1 2\n2\n4 5\n6 5\n8 5\n10 4 1\n12 14\n16\n14 4 7\n16 4 12\n");
        let f = latch_correspondence(&aig, &Control::default());
        assert_eq!(f.corr[0], None, "{f:?}");
        assert_eq!(f.corr[1], Some(Corr::Latch(0, false)), "{f:?}");
        assert_eq!(f.corr[2], Some(Corr::Latch(0, false)), "{f:?}");
        assert_eq!(f.corr[3], Some(Corr::Latch(0, true)), "{f:?}");
        assert_eq!(f.corr[4], Some(Corr::Const(false)), "{f:?}");
    }
}
