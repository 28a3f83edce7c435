//! One incremental solver holding a copy of the transition relation: the frame solvers of
//! IC3 (with their lemmas) and the lifting solver.
//!
//! Temporary clauses (the negated cube of a relative-induction query, the negated target of
//! a lifting query) carry an activation literal; after the query the literal is fixed to
//! false, which turns the clause into a satisfied one that the SAT core removes at level 0.
//! The dead activation variables stay, so a solver is rebuilt once it has too many.

use super::Cube;
use super::gates::{Gate, Shapes};
use crate::cnf::false_lit;
use crate::{ALit, Aig};
use cove_sat::{Config, Lit, Solver};

/// A solver with the transition relation `T(s, i, s')` (primed latches as fresh variables).
///
/// The relation is encoded lazily, cone by cone: a query loads only the gates in the
/// combinational cone of the next-state functions it mentions (and of the constraints and,
/// when asked, the bad property), as ABC's PDR does. Gates that no clause refers to are pure
/// definitions, so leaving them out changes no answer over the loaded variables, while large
/// designs stop paying for their whole circuit in every query.
pub(super) struct TSolver {
    pub s: Solver,
    /// Current-state literal per latch.
    pub state: Vec<Lit>,
    /// Input literals.
    pub inputs: Vec<Lit>,
    /// The constraint literals (current state and inputs).
    pub constraints: Vec<Lit>,
    /// SAT literal per AIG variable, once encoded (nodes folded into a larger gate never are).
    map: Vec<Option<Lit>>,
    /// How each and gate is encoded.
    shapes: Shapes,
    /// Next-state literal per latch, once encoded.
    next: Vec<Option<Lit>>,
    bad: Option<Lit>,
    /// Latch index of each primed variable (by SAT variable index), `u32::MAX` elsewhere.
    next_latch: Vec<u32>,
    /// Latch index of each current-state variable.
    state_latch: Vec<u32>,
    /// Activation literals released so far.
    pub dead: usize,
    /// Per SAT variable below `leaves_end`: whether it is a latch or input not yet made a
    /// decision variable.
    dormant: Vec<bool>,
}

impl TSolver {
    /// A fresh solver; with `hard_constraints` the constraints hold in every model.
    pub fn new(aig: &Aig, hard_constraints: bool) -> TSolver {
        // One unit per query disables its temporary clause: clean up lazily.
        let mut config = Config::default();
        config.lazy_simplify = true;
        let mut s = Solver::with_config(config);
        let fls = false_lit(&mut s);
        let mut map = vec![None; aig.max_var as usize + 1];
        map[0] = Some(fls);
        let state: Vec<Lit> = aig
            .latches
            .iter()
            .map(|l| {
                let x = Lit::new(s.new_var(), false);
                map[l.var as usize] = Some(x);
                x
            })
            .collect();
        let inputs: Vec<Lit> = aig
            .inputs
            .iter()
            .map(|&v| {
                let x = Lit::new(s.new_var(), false);
                map[v as usize] = Some(x);
                x
            })
            .collect();
        // Latches and inputs start as non-decision variables and become decision variables
        // once a clause mentions them: a model need not assign the rest of a large design.
        let dormant = vec![true; s.num_vars()];
        for v in 1..s.num_vars() {
            s.set_decision_var(cove_sat::Var(v as u32), false);
        }
        let mut state_latch = vec![u32::MAX; s.num_vars()];
        for (i, p) in state.iter().enumerate() {
            state_latch[p.var().index()] = i as u32;
        }
        let mut t = TSolver {
            s,
            state,
            inputs,
            constraints: Vec::new(),
            map,
            shapes: Shapes::new(aig),
            next: vec![None; aig.latches.len()],
            bad: None,
            next_latch: Vec::new(),
            state_latch,
            dead: 0,
            dormant,
        };
        t.constraints = aig.constraints.iter().map(|&c| t.encode(aig, c)).collect();
        if hard_constraints {
            for c in t.constraints.clone() {
                t.s.add_clause(&[c]);
            }
        }
        t
    }

    /// The SAT literal of AIG literal `l`, encoding its cone first (explicit stack), one
    /// [`Gate`] shape per encoded node.
    fn encode(&mut self, aig: &Aig, l: ALit) -> Lit {
        let mut stack = vec![l >> 1];
        while let Some(&v) = stack.last() {
            if self.map[v as usize].is_some() {
                stack.pop();
                continue;
            }
            let gate = self.shapes.gate(aig, v);
            let leaves = gate.leaves();
            let before = stack.len();
            stack.extend(
                leaves
                    .iter()
                    .map(|&x| x >> 1)
                    .filter(|&u| self.map[u as usize].is_none()),
            );
            if stack.len() > before {
                continue;
            }
            stack.pop();
            let ls: Vec<Lit> = leaves.iter().map(|&x| self.aig_lit(x)).collect();
            for &x in &ls {
                self.wake(x);
            }
            let g = Lit::new(self.s.new_var(), false);
            // Branch on inputs and latches only: the gates follow by propagation.
            self.s.set_decision_var(g.var(), false);
            match gate {
                Gate::And(_) => {
                    let mut big = Vec::with_capacity(ls.len() + 1);
                    big.push(g);
                    for &x in &ls {
                        self.s.add_clause(&[!g, x]);
                        big.push(!x);
                    }
                    self.s.add_clause(&big);
                    self.map[v as usize] = Some(g);
                }
                Gate::NegIte(..) => {
                    // g ↔ ite(s, a, b); the node is ¬g.
                    let (s, a, b) = (ls[0], ls[1], ls[2]);
                    self.s.add_clause(&[!s, !a, g]);
                    self.s.add_clause(&[!s, a, !g]);
                    self.s.add_clause(&[s, !b, g]);
                    self.s.add_clause(&[s, b, !g]);
                    // Redundant, but let `a = b` decide `g` without `s`.
                    self.s.add_clause(&[!a, !b, g]);
                    self.s.add_clause(&[a, b, !g]);
                    self.map[v as usize] = Some(!g);
                }
            }
        }
        let x = self.aig_lit(l);
        self.wake(x);
        x
    }

    /// Makes `l`'s variable a decision variable if it is a dormant latch or input.
    #[inline]
    fn wake(&mut self, l: Lit) {
        let v = l.var().index();
        if v < self.dormant.len() && self.dormant[v] {
            self.dormant[v] = false;
            self.s.set_decision_var(l.var(), true);
        }
    }

    /// Whether a clause mentions `l`'s variable (latches and inputs start dormant).
    #[inline]
    pub fn is_live(&self, l: Lit) -> bool {
        !self.dormant.get(l.var().index()).copied().unwrap_or(false)
    }

    fn aig_lit(&self, l: ALit) -> Lit {
        let x = self.map[(l >> 1) as usize].expect("encoded");
        if l & 1 == 1 { !x } else { x }
    }

    /// Encodes the next-state functions of the latches of `cube`.
    pub fn ensure_next(&mut self, aig: &Aig, cube: &Cube) {
        for &c in cube {
            let i = (c >> 1) as usize;
            if self.next[i].is_none() {
                let n = self.encode(aig, aig.latches[i].next);
                let p = Lit::new(self.s.new_var(), false);
                self.s.add_clause(&[!p, n]);
                self.s.add_clause(&[p, !n]);
                self.s.set_decision_var(p.var(), false);
                if self.next_latch.len() <= p.var().index() {
                    self.next_latch.resize(p.var().index() + 1, u32::MAX);
                }
                self.next_latch[p.var().index()] = i as u32;
                self.next[i] = Some(p);
            }
        }
    }

    /// The bad literal (current state and inputs), encoded on first use.
    pub fn bad(&mut self, aig: &Aig) -> Lit {
        match self.bad {
            Some(b) => b,
            None => {
                let b = self.encode(aig, aig.bad[0]);
                self.bad = Some(b);
                b
            }
        }
    }

    /// Adds a unit clause over a latch or input.
    pub fn add_unit(&mut self, l: Lit) {
        self.wake(l);
        self.s.add_clause(&[l]);
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
        let x = self.next[(c >> 1) as usize].expect("next state encoded");
        if c & 1 == 1 { !x } else { x }
    }

    /// The cube literal of a next-state SAT literal (`None` for other literals).
    pub fn cube_lit_of_next(&self, l: Lit) -> Option<u32> {
        match self.next_latch.get(l.var().index()) {
            Some(&i) if i != u32::MAX => Some(2 * i + l.is_neg() as u32),
            _ => None,
        }
    }

    /// The cube literals (sorted, distinct) of the next-state assumptions in the last
    /// query's unsat core.
    pub fn next_core(&self) -> Vec<u32> {
        let mut core: Vec<u32> = self
            .s
            .failed_assumptions()
            .iter()
            .filter_map(|&l| self.cube_lit_of_next(l))
            .collect();
        core.sort_unstable();
        core.dedup();
        core
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
        for &l in &cl {
            self.wake(l);
        }
        self.s.add_clause(&cl);
    }

    /// Adds `act → ∨ lits` with a fresh activation literal `act`, returned.
    pub fn temp_clause(&mut self, lits: &[Lit]) -> Lit {
        let act = Lit::new(self.s.new_var(), false);
        let mut cl = Vec::with_capacity(lits.len() + 1);
        cl.push(!act);
        cl.extend_from_slice(lits);
        for &l in lits {
            self.wake(l);
        }
        self.s.add_clause(&cl);
        act
    }

    /// Disables a temporary clause for good.
    pub fn release(&mut self, act: Lit) {
        self.s.add_clause(&[!act]);
        self.dead += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_aiger;

    /// A random combinational AIG (as `aag` text) over `n_in` inputs with about `n_and`
    /// gates: each gate picks two earlier literals, and now and then three gates form a
    /// multiplexer `¬(s ∧ a) ∧ ¬(¬s ∧ b)`; the last three gates are the outputs, so most
    /// inner gates have one fanout (chains) and some have more (shared nodes).
    fn random_aag(seed: u64, n_in: u32, n_and: u32) -> String {
        let mut x = seed.wrapping_mul(6364136223846793005) ^ 0x9e37_79b9_7f4a_7c15;
        let mut next = |m: u32| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) % u64::from(m)) as u32
        };
        let mut ands: Vec<(u32, u32, u32)> = Vec::new();
        while (ands.len() as u32) < n_and {
            let v = n_in + 1 + ands.len() as u32;
            let mux = next(3) == 0;
            let mut pick = || 2 * (1 + next(v - 1)) + next(2);
            if mux {
                let (s, a, b) = (pick(), pick(), pick());
                let s = s & !1;
                ands.push((2 * v, s, a));
                ands.push((2 * v + 2, s ^ 1, b));
                ands.push((2 * v + 4, 2 * v + 1, 2 * v + 3));
            } else {
                let (a, b) = (pick(), pick());
                ands.push((2 * v, a, b));
            }
        }
        let n = ands.len() as u32;
        let mut s = format!("aag {} {n_in} 0 3 {n}\n", n_in + n);
        for i in 1..=n_in {
            s += &format!("{}\n", 2 * i);
        }
        for g in n - 3..n {
            s += &format!("{}\n", 2 * (n_in + 1 + g) + (g % 2));
        }
        for (v, a, b) in ands {
            s += &format!("{v} {a} {b}\n");
        }
        s
    }

    fn eval(aig: &Aig, inputs: &[bool], l: ALit) -> bool {
        let mut val = vec![false; aig.max_var as usize + 1];
        for (i, &v) in aig.inputs.iter().enumerate() {
            val[v as usize] = inputs[i];
        }
        for a in &aig.ands {
            let f = |l: ALit| val[(l >> 1) as usize] ^ (l & 1 == 1);
            val[a.var as usize] = f(a.rhs0) && f(a.rhs1);
        }
        val[(l >> 1) as usize] ^ (l & 1 == 1)
    }

    #[test]
    fn compact_encoding_agrees_with_simulation() {
        // Hand-made multiplexers and chains first, then random circuits.
        let mux = "aag 9 4 0 2 5\n2\n4\n6\n8\n15\n18\n10 2 4\n12 3 6\n14 11 13\n16 4 6\n18 16 8\n";
        let aig = parse_aiger(mux.as_bytes()).expect("valid aag");
        let mut t = TSolver::new(&aig, false);
        for &o in &aig.outputs {
            t.encode(&aig, o);
        }
        // The false literal, 4 inputs, one variable per multiplexer and per 3-input AND (not
        // one per and gate: 5).
        assert_eq!(t.s.num_vars(), 1 + 4 + 2);
        let mut srcs = vec![mux.to_string()];
        srcs.extend((0..60).map(|seed| random_aag(seed, 4, 14)));
        for src in srcs {
            let aig = parse_aiger(src.as_bytes()).expect("valid aag");
            for (oi, &out) in aig.outputs.iter().enumerate() {
                let mut t = TSolver::new(&aig, false);
                let o = t.encode(&aig, out);
                for m in 0..(1u32 << aig.inputs.len()) {
                    let inp: Vec<bool> = (0..aig.inputs.len()).map(|i| m >> i & 1 == 1).collect();
                    let assumps: Vec<Lit> = t
                        .inputs
                        .iter()
                        .zip(&inp)
                        .map(|(&l, &b)| if b { l } else { !l })
                        .collect();
                    assert_eq!(t.s.solve(&assumps), cove_sat::SolveResult::Sat);
                    let want = eval(&aig, &inp, out);
                    let got = t.s.value(o) == cove_sat::LBool::True;
                    assert_eq!(got, want, "output {oi} of\n{src}\ninputs {inp:?}");
                }
            }
        }
    }
}
