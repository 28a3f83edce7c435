//! One incremental solver holding a copy of the transition relation: the frame solvers of
//! IC3 (with their lemmas) and the lifting solver.
//!
//! Temporary clauses (the negated cube of a relative-induction query, the negated target of
//! a lifting query) carry an activation literal; after the query the literal is fixed to
//! false, which turns the clause into a satisfied one that the SAT core removes at level 0.
//! The dead activation variables stay, so a solver is rebuilt once it has too many.

use super::Cube;
use crate::Aig;
use crate::cnf::{encode_frame, false_lit};
use cove_sat::{Config, Lit, Solver};

/// A solver with the transition relation `T(s, i, s')` (primed latches as fresh variables).
pub(super) struct TSolver {
    pub s: Solver,
    /// Current-state literal per latch.
    pub state: Vec<Lit>,
    /// Next-state literal per latch.
    pub next: Vec<Lit>,
    /// Input literals.
    pub inputs: Vec<Lit>,
    /// The bad literal (current state and inputs).
    pub bad: Lit,
    /// The constraint literals (current state and inputs).
    pub constraints: Vec<Lit>,
    /// Latch index of each primed variable (by SAT variable index), `u32::MAX` elsewhere.
    next_latch: Vec<u32>,
    /// Latch index of each current-state variable.
    state_latch: Vec<u32>,
    /// Activation literals released so far.
    pub dead: usize,
}

impl TSolver {
    /// A fresh solver; with `hard_constraints` the constraints hold in every model.
    pub fn new(aig: &Aig, hard_constraints: bool) -> TSolver {
        // One unit per query disables its temporary clause: clean up lazily.
        let mut config = Config::default();
        config.lazy_simplify = true;
        let mut s = Solver::with_config(config);
        let fls = false_lit(&mut s);
        let f = encode_frame(&mut s, aig, fls, None);
        let state: Vec<Lit> = aig.latches.iter().map(|l| f.lit(2 * l.var)).collect();
        let mut next = Vec::with_capacity(aig.latches.len());
        for l in &aig.latches {
            let p = Lit::new(s.new_var(), false);
            let n = f.lit(l.next);
            s.add_clause(&[!p, n]);
            s.add_clause(&[p, !n]);
            next.push(p);
            s.set_decision_var(p.var(), false);
        }
        // Branch on inputs and latches only: the gates follow by propagation.
        for a in &aig.ands {
            s.set_decision_var(f.map[a.var as usize].var(), false);
        }
        let constraints: Vec<Lit> = aig.constraints.iter().map(|&c| f.lit(c)).collect();
        if hard_constraints {
            for &c in &constraints {
                s.add_clause(&[c]);
            }
        }
        let mut next_latch = vec![u32::MAX; s.num_vars()];
        for (i, p) in next.iter().enumerate() {
            next_latch[p.var().index()] = i as u32;
        }
        let mut state_latch = vec![u32::MAX; s.num_vars()];
        for (i, p) in state.iter().enumerate() {
            state_latch[p.var().index()] = i as u32;
        }
        TSolver {
            inputs: aig.inputs.iter().map(|&v| f.lit(2 * v)).collect(),
            bad: f.lit(aig.bad[0]),
            constraints,
            state,
            next,
            next_latch,
            state_latch,
            dead: 0,
            s,
        }
    }

    /// The current-state literal of cube literal `c` (`2 * latch + negated`).
    #[inline]
    pub fn lit(&self, c: u32) -> Lit {
        let x = self.state[(c >> 1) as usize];
        if c & 1 == 1 { !x } else { x }
    }

    /// The next-state literal of cube literal `c`.
    #[inline]
    pub fn plit(&self, c: u32) -> Lit {
        let x = self.next[(c >> 1) as usize];
        if c & 1 == 1 { !x } else { x }
    }

    /// The cube literal of a next-state SAT literal (`None` for other literals).
    pub fn cube_lit_of_next(&self, l: Lit) -> Option<u32> {
        match self.next_latch.get(l.var().index()) {
            Some(&i) if i != u32::MAX => Some(2 * i + l.is_neg() as u32),
            _ => None,
        }
    }

    /// The cube literal of a current-state SAT literal.
    pub fn cube_lit_of_state(&self, l: Lit) -> Option<u32> {
        match self.state_latch.get(l.var().index()) {
            Some(&i) if i != u32::MAX => Some(2 * i + l.is_neg() as u32),
            _ => None,
        }
    }

    /// Adds the lemma `¬cube` over current-state variables.
    pub fn add_lemma(&mut self, cube: &Cube) {
        let cl: Vec<Lit> = cube.iter().map(|&c| !self.lit(c)).collect();
        self.s.add_clause(&cl);
    }

    /// Adds `act → ∨ lits` with a fresh activation literal `act`, returned.
    pub fn temp_clause(&mut self, lits: &[Lit]) -> Lit {
        let act = Lit::new(self.s.new_var(), false);
        let mut cl = Vec::with_capacity(lits.len() + 1);
        cl.push(!act);
        cl.extend_from_slice(lits);
        self.s.add_clause(&cl);
        act
    }

    /// Disables a temporary clause for good.
    pub fn release(&mut self, act: Lit) {
        self.s.add_clause(&[!act]);
        self.dead += 1;
    }
}
