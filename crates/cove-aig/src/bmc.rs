//! Bounded model checking: one incremental solver, the bad property assumed in the newest
//! frame. Finds shortest counterexamples; never proves safety.
//!
//! The unrolling is built on demand, frame by frame, from the literals a query needs (the bad
//! property and the constraints of each frame): a gate of frame `k` is encoded only when it
//! lies in their cone, a latch of frame `k > 0` is its next-state function in frame `k - 1`,
//! and constants propagate through the unrolling (reset values of frame 0, constant
//! fanins). Deep counterexamples of designs with large resettable state need far fewer
//! clauses than a full copy of the circuit per frame; inputs outside every cone are never
//! created (their value in the trace is arbitrary, 0).

use crate::engine::{EngineResult, RawTrace, sat};
use crate::{ALit, Aig, Init};
use cove_control::{Control, UnknownReason};
use cove_sat::{LBool, Limits, Lit, Solver};

/// Runs BMC up to `max_bound` steps (unbounded when `None`).
pub fn bmc(aig: &Aig, ctl: &Control, max_bound: Option<usize>) -> EngineResult {
    match run(aig, ctl, max_bound) {
        Ok(r) => r,
        Err(r) => EngineResult::Unknown(r),
    }
}

/// The value of a literal in one frame: a constant or a solver literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    Const(bool),
    Lit(Lit),
}

impl Val {
    fn neg_if(self, neg: bool) -> Val {
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

/// The on-demand unrolling.
struct Unroll<'a> {
    aig: &'a Aig,
    defs: Vec<Def>,
    s: Solver,
    /// `vals[k][v]`: the value of variable `v` in frame `k`, once encoded.
    vals: Vec<Vec<Option<Val>>>,
}

impl<'a> Unroll<'a> {
    fn new(aig: &'a Aig) -> Unroll<'a> {
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
        }
    }

    fn add_frame(&mut self) {
        self.vals.push(vec![None; self.aig.max_var as usize + 1]);
    }

    fn fresh(&mut self) -> Val {
        Val::Lit(Lit::new(self.s.new_var(), false))
    }

    /// The value of `lit` in frame `k`, encoding its cone (explicit stack: the unrolling can
    /// be deep and the circuit too).
    fn value(&mut self, k: usize, lit: ALit) -> Val {
        let mut stack: Vec<(usize, u32)> = vec![(k, lit >> 1)];
        while let Some(&(f, v)) = stack.last() {
            if self.vals[f][v as usize].is_some() {
                stack.pop();
                continue;
            }
            let val = match self.defs[v as usize] {
                Def::Const => Some(Val::Const(false)),
                Def::Input => Some(self.fresh()),
                Def::Latch(i) => {
                    let l = self.aig.latches[i];
                    if f == 0 {
                        Some(match l.init {
                            Init::Zero => Val::Const(false),
                            Init::One => Val::Const(true),
                            Init::Free => self.fresh(),
                        })
                    } else {
                        match self.vals[f - 1][(l.next >> 1) as usize] {
                            Some(x) => Some(x.neg_if(l.next & 1 == 1)),
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
                let g = Lit::new(self.s.new_var(), false);
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
}

fn run(aig: &Aig, ctl: &Control, max_bound: Option<usize>) -> Result<EngineResult, UnknownReason> {
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
}

impl<'a> Bmc<'a> {
    pub(crate) fn new(aig: &'a Aig, ctl: &'a Control) -> Bmc<'a> {
        Bmc {
            u: Unroll::new(aig),
            limits: Limits::of(ctl),
            ctl,
            k: 0,
            exhausted: false,
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
        if self.exhausted {
            self.k += 1;
            return Ok(None);
        }
        let (aig, k, ctl) = (self.u.aig, self.k, self.ctl);
        let u = &mut self.u;
        u.add_frame();
        // Constraints of this frame: facts for this and every deeper query.
        for &c in &aig.constraints {
            match u.value(k, c) {
                Val::Const(true) => {}
                Val::Const(false) => {
                    self.exhausted = true;
                    self.k += 1;
                    return Ok(None);
                }
                Val::Lit(l) => {
                    u.s.add_clause(&[l]);
                }
            }
        }
        let bads: Vec<Val> = aig.bad.iter().map(|&b| u.value(k, b)).collect();
        let mut bad_lits = Vec::new();
        let mut hit = false;
        for b in bads {
            match b {
                Val::Const(true) => hit = true,
                Val::Const(false) => {}
                Val::Lit(l) => bad_lits.push(l),
            }
        }
        let found = if hit {
            sat(&mut u.s, &[], &self.limits, ctl)?
        } else if bad_lits.is_empty() {
            false
        } else {
            let b = if bad_lits.len() == 1 {
                bad_lits[0]
            } else {
                let b = Lit::new(u.s.new_var(), false);
                let mut big = vec![!b];
                for &l in &bad_lits {
                    u.s.add_clause(&[b, !l]);
                    big.push(l);
                }
                u.s.add_clause(&big);
                b
            };
            let found = sat(&mut u.s, &[b], &self.limits, ctl)?;
            if !found {
                // No bad state at this depth: keep that as a fact for the deeper queries.
                u.s.add_clause(&[!b]);
            }
            found
        };
        if found {
            // Latches outside every cone start at their reset value (free ones at 0).
            let init = aig
                .latches
                .iter()
                .map(|l| match u.vals[0][l.var as usize] {
                    Some(_) => u.model_value(0, l.var),
                    None => l.init == Init::One,
                })
                .collect();
            let inputs = (0..=k)
                .map(|f| aig.inputs.iter().map(|&v| u.model_value(f, v)).collect())
                .collect();
            return Ok(Some(RawTrace { init, inputs }));
        }
        if ctl.verbosity > 0 {
            eprintln!("bmc: no counterexample of length {k}");
        }
        self.k += 1;
        Ok(None)
    }
}
