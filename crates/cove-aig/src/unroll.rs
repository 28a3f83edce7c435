//! The on-demand unrolling shared by BMC ([`crate::bmc`]) and localization's concrete checks
//! ([`crate::loc`]).
//!
//! The unrolling is built frame by frame from the literals a query needs: a gate of frame `k`
//! is encoded only when it lies in their cone, a latch of frame `k > 0` is its next-state
//! function in frame `k - 1`, and constants propagate through the unrolling (reset values of
//! frame 0, constant fanins). Deep counterexamples of designs with large resettable state
//! need far fewer clauses than a full copy of the circuit per frame; inputs outside every
//! cone are never created (their value in a trace is arbitrary, 0).
//!
//! With activation literals ([`Unroll::with_activation`]) every latch value is a fresh
//! variable tied to its reset value (frame 0) or next-state function (later frames) only
//! while the latch's activation literal is assumed: assuming all of them gives the concrete
//! unrolling, assuming a subset gives the abstraction in which the other latches are free in
//! every frame, and a failed-assumption core names the latches a refutation needed.

use crate::engine::RawTrace;
use crate::{ALit, Aig, Init};
use cove_sat::{LBool, Lit, Solver};

/// The value of a literal in one frame: a constant or a solver literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Val {
    Const(bool),
    Lit(Lit),
}

impl Val {
    pub(crate) fn neg_if(self, neg: bool) -> Val {
        match self {
            Val::Const(b) => Val::Const(b ^ neg),
            Val::Lit(l) => Val::Lit(if neg { !l } else { l }),
        }
    }
}

/// What defines each variable.
#[derive(Clone, Copy)]
enum Def {
    Const,
    Input,
    Latch(usize),
    And(ALit, ALit),
}

/// The on-demand unrolling of one circuit into one incremental solver.
pub(crate) struct Unroll<'a> {
    pub(crate) aig: &'a Aig,
    defs: Vec<Def>,
    pub(crate) s: Solver,
    /// `vals[k][v]`: the value of variable `v` in frame `k`, once encoded.
    pub(crate) vals: Vec<Vec<Option<Val>>>,
    /// `act[i]`: latch `i` follows its reset value and next-state function (empty: every
    /// latch always does, with no variable of its own).
    pub(crate) act: Vec<Lit>,
}

impl<'a> Unroll<'a> {
    /// The plain unrolling: latches are their next-state functions.
    pub(crate) fn new(aig: &'a Aig) -> Unroll<'a> {
        let mut defs = vec![Def::Const; aig.max_var as usize + 1];
        for &v in &aig.inputs {
            defs[v as usize] = Def::Input;
        }
        for (i, l) in aig.latches.iter().enumerate() {
            defs[l.var as usize] = Def::Latch(i);
        }
        for g in &aig.ands {
            defs[g.var as usize] = Def::And(g.rhs0, g.rhs1);
        }
        Unroll {
            aig,
            defs,
            s: Solver::new(),
            vals: Vec::new(),
            act: Vec::new(),
        }
    }

    /// The unrolling with one activation literal per latch (see the module documentation).
    pub(crate) fn with_activation(aig: &'a Aig) -> Unroll<'a> {
        let mut u = Unroll::new(aig);
        u.act = (0..aig.latches.len()).map(|_| u.fresh_lit()).collect();
        u
    }

    /// Opens the next frame (nothing is encoded until asked for).
    pub(crate) fn add_frame(&mut self) {
        self.vals.push(vec![None; self.aig.max_var as usize + 1]);
    }

    pub(crate) fn fresh_lit(&mut self) -> Lit {
        Lit::new(self.s.new_var(), false)
    }

    /// Latch `i`'s value `v` as the unrolling sees it: `v` itself, or under activation a
    /// fresh variable equal to `v` while `act[i]` holds.
    fn gated(&mut self, i: usize, v: Val) -> Val {
        if self.act.is_empty() {
            return v;
        }
        let a = self.act[i];
        let x = self.fresh_lit();
        match v {
            Val::Const(b) => {
                self.s.add_clause(&[!a, if b { x } else { !x }]);
            }
            Val::Lit(y) => {
                self.s.add_clause(&[!a, !x, y]);
                self.s.add_clause(&[!a, x, !y]);
            }
        }
        Val::Lit(x)
    }

    /// The value of `lit` in frame `k`, encoding its cone (explicit stack: the unrolling can
    /// be deep and the circuit too).
    pub(crate) fn value(&mut self, k: usize, lit: ALit) -> Val {
        let mut stack: Vec<(usize, u32)> = vec![(k, lit >> 1)];
        while let Some(&(f, v)) = stack.last() {
            if self.vals[f][v as usize].is_some() {
                stack.pop();
                continue;
            }
            let val = match self.defs[v as usize] {
                Def::Const => Some(Val::Const(false)),
                Def::Input => Some(Val::Lit(self.fresh_lit())),
                Def::Latch(i) => {
                    let l = self.aig.latches[i];
                    if f == 0 {
                        Some(match l.init {
                            Init::Zero => self.gated(i, Val::Const(false)),
                            Init::One => self.gated(i, Val::Const(true)),
                            // Free in frame 0 whether active or not: no tie needed.
                            Init::Free => Val::Lit(self.fresh_lit()),
                        })
                    } else {
                        match self.vals[f - 1][(l.next >> 1) as usize] {
                            Some(x) => Some(self.gated(i, x.neg_if(l.next & 1 == 1))),
                            None => {
                                stack.push((f - 1, l.next >> 1));
                                None
                            }
                        }
                    }
                }
                Def::And(a, b) => {
                    let va = self.vals[f][(a >> 1) as usize];
                    let vb = self.vals[f][(b >> 1) as usize];
                    match (va, vb) {
                        (Some(x), Some(y)) => {
                            Some(self.and(x.neg_if(a & 1 == 1), y.neg_if(b & 1 == 1)))
                        }
                        _ => {
                            // A constant-false fanin decides the gate without the other.
                            let zero = |v: Option<Val>, l: ALit| {
                                v.map(|x| x.neg_if(l & 1 == 1)) == Some(Val::Const(false))
                            };
                            if zero(va, a) || zero(vb, b) {
                                Some(Val::Const(false))
                            } else {
                                if va.is_none() {
                                    stack.push((f, a >> 1));
                                }
                                if vb.is_none() {
                                    stack.push((f, b >> 1));
                                }
                                None
                            }
                        }
                    }
                }
            };
            if let Some(x) = val {
                self.vals[f][v as usize] = Some(x);
                stack.pop();
            }
        }
        self.vals[k][(lit >> 1) as usize]
            .expect("encoded")
            .neg_if(lit & 1 == 1)
    }

    fn and(&mut self, x: Val, y: Val) -> Val {
        match (x, y) {
            (Val::Const(false), _) | (_, Val::Const(false)) => Val::Const(false),
            (Val::Const(true), z) | (z, Val::Const(true)) => z,
            (Val::Lit(a), Val::Lit(b)) if a == b => Val::Lit(a),
            (Val::Lit(a), Val::Lit(b)) if a == !b => Val::Const(false),
            (Val::Lit(a), Val::Lit(b)) => {
                let g = self.fresh_lit();
                self.s.add_clause(&[!g, a]);
                self.s.add_clause(&[!g, b]);
                self.s.add_clause(&[g, !a, !b]);
                Val::Lit(g)
            }
        }
    }

    /// Value of an encoded variable in the last model (unencoded or constant-free: 0).
    fn model_value(&self, k: usize, v: u32) -> bool {
        match self.vals[k][v as usize] {
            Some(Val::Const(b)) => b,
            Some(Val::Lit(l)) => self.s.value(l) == LBool::True,
            None => false,
        }
    }

    /// The trace of frames `0..=k` in the last model. Latches outside every cone start at
    /// their reset value (free ones at 0).
    pub(crate) fn trace(&self, k: usize) -> RawTrace {
        let aig = self.aig;
        let init = aig
            .latches
            .iter()
            .map(|l| match self.vals[0][l.var as usize] {
                Some(_) => self.model_value(0, l.var),
                None => l.init == Init::One,
            })
            .collect();
        let inputs = (0..=k)
            .map(|f| aig.inputs.iter().map(|&v| self.model_value(f, v)).collect())
            .collect();
        RawTrace { init, inputs }
    }
}
