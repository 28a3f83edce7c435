//! Predecessor lifting by ternary simulation (Eén, Mishchenko, Brayton 2011; ABC's
//! `Pdr_ManTernarySim`).
//!
//! A SAT model gives a full predecessor state `s` and inputs `i` with `T(s, i) ⊨ target`.
//! Lifting widens `s` to a cube: latches whose value does not matter for the target are
//! dropped. Here each latch of the target's cone is set to X in turn and the X is propagated
//! forward (event-driven, through the cone only); if some target literal becomes X the latch
//! is needed and restored, otherwise it stays X. Ternary simulation is sound (an AND with an
//! X fanin is X unless another fanin is 0), so every state of the resulting cube, with the
//! same inputs, makes every target literal true.
//!
//! Unlike SAT-based lifting (an unsat core of `s ∧ i ∧ T ∧ ¬target`), the outcome depends
//! only on the order the latches are tried in, and the caller controls it: latches that
//! occur in few lemmas go first (ABC tries the flops of no lemma first), so the obligation
//! cubes are phrased in the latches the lemmas already use, which is what the lemmas found
//! when blocking them can generalise over. It also costs no SAT call.

use crate::fanout::Fanouts;
use crate::{ALit, Aig};

const F: u8 = 0;
const T: u8 = 1;
const X: u8 = 2;

/// Ternary simulator over one AIG (the structure is built once; each lift reuses buffers).
pub(super) struct TernarySim {
    /// Per variable: its defining gate and its fanout gates.
    fan: Fanouts,
    /// Per variable: its latch index, `u32::MAX` if none.
    latch_of: Vec<u32>,
    /// Current ternary value per variable.
    val: Vec<u8>,
    /// `cone[v] == stamp`: variable `v` is in the current target cone.
    cone: Vec<u32>,
    /// `target[v] == stamp`: variable `v` is a target literal's variable.
    target: Vec<u32>,
    stamp: u32,
    /// Scratch: cone gates in topological order, cone latches, DFS stack, undo log, worklist.
    gates: Vec<u32>,
    latches: Vec<u32>,
    stack: Vec<(u32, bool)>,
    undo: Vec<(u32, u8)>,
    work: Vec<u32>,
}

impl TernarySim {
    pub fn new(aig: &Aig) -> TernarySim {
        let n = aig.max_var as usize + 1;
        let mut latch_of = vec![u32::MAX; n];
        for (i, l) in aig.latches.iter().enumerate() {
            latch_of[l.var as usize] = i as u32;
        }
        TernarySim {
            fan: Fanouts::new(aig),
            latch_of,
            val: vec![F; n],
            cone: vec![0; n],
            target: vec![0; n],
            stamp: 0,
            gates: Vec::new(),
            latches: Vec::new(),
            stack: Vec::new(),
            undo: Vec::new(),
            work: Vec::new(),
        }
    }

    #[inline]
    fn lit(&self, l: ALit) -> u8 {
        match self.val[(l >> 1) as usize] {
            X => X,
            b => b ^ (l & 1) as u8,
        }
    }

    #[inline]
    fn eval(&self, aig: &Aig, v: u32) -> u8 {
        let g = aig.ands[self.fan.and_of(v as usize) as usize];
        match (self.lit(g.rhs0), self.lit(g.rhs1)) {
            (F, _) | (_, F) => F,
            (T, T) => T,
            _ => X,
        }
    }

    /// Collects the cone of `targets` (gates in topological order, latches).
    fn collect_cone(&mut self, aig: &Aig, targets: &[ALit]) {
        self.gates.clear();
        self.latches.clear();
        for &t in targets {
            let v = t >> 1;
            self.target[v as usize] = self.stamp;
            if self.cone[v as usize] == self.stamp {
                continue;
            }
            self.stack.push((v, false));
            while let Some((v, expanded)) = self.stack.pop() {
                if expanded {
                    self.gates.push(v);
                    continue;
                }
                if self.cone[v as usize] == self.stamp {
                    continue;
                }
                self.cone[v as usize] = self.stamp;
                let a = self.fan.and_of(v as usize);
                if a == Fanouts::NONE {
                    if self.latch_of[v as usize] != u32::MAX {
                        self.latches.push(v);
                    }
                    continue;
                }
                // Post-order: the gate is emitted after its fanins.
                self.stack.push((v, true));
                let g = aig.ands[a as usize];
                for r in [g.rhs1, g.rhs0] {
                    if self.cone[(r >> 1) as usize] != self.stamp {
                        self.stack.push((r >> 1, false));
                    }
                }
            }
        }
    }

    /// Sets latch variable `v` to X and propagates; on a target turning X, undoes everything
    /// and returns false.
    fn try_x(&mut self, aig: &Aig, v: u32) -> bool {
        self.undo.clear();
        self.work.clear();
        self.undo.push((v, self.val[v as usize]));
        self.val[v as usize] = X;
        if self.target[v as usize] == self.stamp {
            self.rollback();
            return false;
        }
        self.work.push(v);
        while let Some(u) = self.work.pop() {
            for k in self.fan.range(u as usize) {
                let g = self.fan.nth(k);
                if self.cone[g as usize] != self.stamp || self.val[g as usize] == X {
                    continue;
                }
                if self.eval(aig, g) != X {
                    continue;
                }
                self.undo.push((g, self.val[g as usize]));
                self.val[g as usize] = X;
                if self.target[g as usize] == self.stamp {
                    self.rollback();
                    return false;
                }
                self.work.push(g);
            }
        }
        true
    }

    fn rollback(&mut self) {
        for &(v, b) in self.undo.iter().rev() {
            self.val[v as usize] = b;
        }
    }

    /// The cube (sorted cube literals `2 * latch + negated`) of latches of the targets' cone
    /// that ternary simulation cannot drop: with `inputs`, every state of it makes every
    /// literal of `targets` true. Latches are tried in the order of `rank` (lowest first,
    /// ties by index). `None` if `state` and `inputs` do not make the targets true.
    pub fn lift(
        &mut self,
        aig: &Aig,
        state: &[bool],
        inputs: &[bool],
        targets: &[ALit],
        rank: &[f64],
    ) -> Option<Vec<u32>> {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.cone.fill(0);
            self.target.fill(0);
            self.stamp = 1;
        }
        self.collect_cone(aig, targets);
        // Binary simulation of the cone.
        self.val[0] = F;
        for &v in &self.latches {
            self.val[v as usize] = state[self.latch_of[v as usize] as usize] as u8;
        }
        for (&v, &b) in aig.inputs.iter().zip(inputs) {
            if self.cone[v as usize] == self.stamp {
                self.val[v as usize] = b as u8;
            }
        }
        for i in 0..self.gates.len() {
            let g = self.gates[i];
            self.val[g as usize] = self.eval(aig, g);
        }
        if targets.iter().any(|&t| self.lit(t) != T) {
            return None;
        }
        let mut order = std::mem::take(&mut self.latches);
        order.sort_by(|&a, &b| {
            let (i, j) = (self.latch_of[a as usize], self.latch_of[b as usize]);
            rank[i as usize]
                .total_cmp(&rank[j as usize])
                .then(i.cmp(&j))
        });
        let mut cube = Vec::new();
        for &v in &order {
            if !self.try_x(aig, v) {
                let i = self.latch_of[v as usize];
                cube.push(2 * i + (self.val[v as usize] == F) as u32);
            }
        }
        self.latches = order;
        cube.sort_unstable();
        Some(cube)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_aiger;

    /// Every state of `cube` (all completions of the other latches) with `inputs` makes each
    /// target true, by binary simulation.
    fn cube_forces(aig: &Aig, cube: &[u32], inputs: &[bool], targets: &[ALit]) -> bool {
        let n = aig.latches.len();
        let free: Vec<usize> = (0..n)
            .filter(|i| !cube.iter().any(|&c| (c >> 1) as usize == *i))
            .collect();
        for m in 0..(1u32 << free.len()) {
            let mut st = vec![false; n];
            for &c in cube {
                st[(c >> 1) as usize] = c & 1 == 0;
            }
            for (k, &i) in free.iter().enumerate() {
                st[i] = m >> k & 1 == 1;
            }
            let vals = aig.eval_step(&st, inputs);
            if targets.iter().any(|&t| !crate::lit_val(&vals, t)) {
                return false;
            }
        }
        true
    }

    #[test]
    fn lifted_cube_forces_the_targets() {
        // Latches x0..x3 (vars 2..5), input i (var 1). g6 = x0 ∧ x1, g7 = ¬g6 ∧ i (var 7),
        // g8 = x2 ∧ ¬x3. Targets: ¬g6 (x0' = ¬(x0 ∧ x1)) and g8.
        let src = "aag 8 1 4 0 3\n2\n4 12\n6 4\n8 6\n10 8\n12 4 6\n14 13 2\n16 8 11\n";
        let a = parse_aiger(src.as_bytes()).expect("valid aag");
        let mut ts = TernarySim::new(&a);
        let targets = [13, 16];
        // x0 = 0, x1 = 1, x2 = 1, x3 = 0: x1 can go (x0 = 0 decides g6), x0 cannot.
        let st = [false, true, true, false];
        let rank = [0.0; 4];
        let cube = ts.lift(&a, &st, &[true], &targets, &rank).unwrap();
        assert_eq!(cube, vec![1, 4, 7]); // ¬x0 ∧ x2 ∧ ¬x3
        assert!(cube_forces(&a, &cube, &[true], &targets));
        // x0 ranked last: x1 is tried first and dropped, x0 is still needed.
        let cube = ts
            .lift(&a, &st, &[true], &targets, &[1.0, 0.0, 0.0, 0.0])
            .unwrap();
        assert_eq!(cube, vec![1, 4, 7]);
        // Both x0 = 0 and x1 = 0: the first one tried goes, the other stays.
        let st = [false, false, true, false];
        let c1 = ts.lift(&a, &st, &[true], &targets, &rank).unwrap();
        assert_eq!(c1, vec![3, 4, 7]); // x0 dropped first, x1 = 0 kept
        let c2 = ts
            .lift(&a, &st, &[true], &targets, &[1.0, 0.0, 0.0, 0.0])
            .unwrap();
        assert_eq!(c2, vec![1, 4, 7]); // x1 tried first
        // States that do not make the targets true.
        assert!(
            ts.lift(&a, &[true, true, true, false], &[true], &targets, &rank)
                .is_none()
        );
    }

    #[test]
    fn random_circuits_lift_soundly() {
        // Random sequential circuits: every lifted cube forces its targets.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = |m: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(m)) as u32
        };
        for _ in 0..200 {
            let (ni, nl, na) = (2u32, 5u32, 12u32);
            let mut s = format!("aag {} {ni} {nl} 0 {na}\n", ni + nl + na);
            for i in 1..=ni {
                s += &format!("{}\n", 2 * i);
            }
            let maxv = ni + nl + na;
            let mut nexts = Vec::new();
            for l in 0..nl {
                let nx = 2 * (1 + rnd(maxv)) + rnd(2);
                nexts.push(nx);
                s += &format!("{} {nx}\n", 2 * (ni + 1 + l));
            }
            for g in 0..na {
                let v = ni + nl + 1 + g;
                let a = 2 * (1 + rnd(v - 1)) + rnd(2);
                let b = 2 * (1 + rnd(v - 1)) + rnd(2);
                s += &format!("{} {a} {b}\n", 2 * v);
            }
            let a = parse_aiger(s.as_bytes()).expect("valid aag");
            let mut ts = TernarySim::new(&a);
            let st: Vec<bool> = (0..nl).map(|_| rnd(2) == 1).collect();
            let inp: Vec<bool> = (0..ni).map(|_| rnd(2) == 1).collect();
            // Targets: the next-state literals of three latches, in the polarity the state
            // gives them.
            let vals = a.eval_step(&st, &inp);
            let targets: Vec<ALit> = a.latches[..3]
                .iter()
                .map(|l| l.next ^ (!crate::lit_val(&vals, l.next)) as u32)
                .collect();
            let rank: Vec<f64> = (0..nl).map(|_| f64::from(rnd(3))).collect();
            let cube = ts
                .lift(&a, &st, &inp, &targets, &rank)
                .expect("targets hold");
            assert!(cube_forces(&a, &cube, &inp, &targets), "{s}\n{cube:?}");
            for &c in &cube {
                assert_eq!(
                    st[(c >> 1) as usize],
                    c & 1 == 0,
                    "the cube contains the state"
                );
            }
        }
    }
}
