//! The on-demand unrolling shared by BMC ([`crate::engines::bmc`]) and localization's concrete checks
//! ([`crate::engines::localization`]).
//!
//! The unrolling is built frame by frame from the literals a query needs: a gate of frame `k`
//! is encoded only when it lies in their cone, a latch of frame `k > 0` is its next-state
//! function in frame `k - 1`, and constants propagate through the unrolling (reset values of
//! frame 0, constant fanins). Deep counterexamples of designs with large resettable state
//! need far fewer clauses than a full copy of the circuit per frame; inputs outside every
//! cone are never created (their value in a trace is arbitrary, 0).
//!
//! Each and gate is encoded in its compact shape, the one IC3's frame solvers use
//! (`ic3::gates`): a chain of single-use and gates as one n-ary AND (`n + 1` clauses, no
//! variables for the inner nodes) and a multiplexer as one if-then-else, with constants folded
//! through both. Conjunctions are hashed across the whole unrolling, so a gate whose fanin
//! values equal those of a gate encoded before (the same frame, or an earlier one where the
//! state agreed, e.g. latches still at their reset values) reuses its variable. On
//! `telephony.6` (4.3k and gates after reduction) a 21-frame unrolling has 53k variables
//! instead of 83k, and BMC queries there cost about two thirds of the time
//! (docs/decisions.md#hardware-bmc-compact-unrolling).
//!
//! With activation literals ([`Unroll::with_activation`]) every latch value is a fresh
//! variable tied to its reset value (frame 0) or next-state function (later frames) only
//! while the latch's activation literal is assumed: assuming all of them gives the concrete
//! unrolling, assuming a subset gives the abstraction in which the other latches are free in
//! every frame, and a failed-assumption core names the latches a refutation needed.

use crate::engines::ic3::gates::{Gate, Shapes};
use crate::result::RawTrace;
use crate::{ALit, Aig, Init};
use cove_sat::{LBool, Lit, Solver};
use rustc_hash::FxHashMap;

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
#[derive(Clone)]
enum Def {
    Const,
    Input,
    Latch(usize),
    /// An and gate, encoded as its compact shape (`ic3::gates`): an n-ary AND over the
    /// single-use and gates below it, or a multiplexer.
    Gate(Gate),
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
    /// Structural hashing of the encoded conjunctions (sorted fanins): a gate whose fanin
    /// values are those of a gate encoded before, in any frame, gets that gate's literal.
    hash: FxHashMap<Vec<Lit>, Lit>,
}

/// Solver variables above which a dropped unrolling is freed on a background thread.
const FREE_IN_BACKGROUND: usize = 1 << 20;

/// An unrolling that ran to millions of frames (BMC on a circuit whose frames cost no SAT
/// call, e.g. two counters in lock step that structural hashing makes equal) holds tens of
/// millions of small allocations (watch lists, hash keys); freeing them took seconds after
/// the engine had stopped at its deadline, past the run's limit. A large one is freed on a
/// background thread, so the answer is not delayed by it (a process that exits right after
/// never waits for it; an embedding program gets the memory back shortly after).
impl Drop for Unroll<'_> {
    fn drop(&mut self) {
        if self.s.num_vars() < FREE_IN_BACKGROUND {
            return;
        }
        let parts = (
            std::mem::replace(&mut self.s, Solver::new()),
            std::mem::take(&mut self.vals),
            std::mem::take(&mut self.hash),
        );
        // Should the thread not start, the closure (and the parts) are freed here.
        let _ = std::thread::Builder::new()
            .name("free unrolling".into())
            .spawn(move || drop(parts));
    }
}

impl<'a> Unroll<'a> {
    /// The plain unrolling: latches are their next-state functions.
    pub(crate) fn new(aig: &'a Aig) -> Unroll<'a> {
        Unroll::with_config(aig, cove_sat::Config::default())
    }

    /// The plain unrolling, solved by a SAT solver with `config`.
    pub(crate) fn with_config(aig: &'a Aig, config: cove_sat::Config) -> Unroll<'a> {
        let mut defs = vec![Def::Const; aig.max_var as usize + 1];
        for &v in &aig.inputs {
            defs[v as usize] = Def::Input;
        }
        for (i, l) in aig.latches.iter().enumerate() {
            defs[l.var as usize] = Def::Latch(i);
        }
        let shapes = Shapes::new(aig);
        for g in &aig.ands {
            defs[g.var as usize] = Def::Gate(shapes.gate(aig, g.var));
        }
        Unroll {
            aig,
            defs,
            s: Solver::with_config(config),
            vals: Vec::new(),
            act: Vec::new(),
            hash: FxHashMap::default(),
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
            let val = match self.defs[v as usize].clone() {
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
                Def::Gate(g) => {
                    let leaves = g.leaves();
                    let known: Vec<Option<Val>> = leaves
                        .iter()
                        .map(|&l| self.vals[f][(l >> 1) as usize].map(|x| x.neg_if(l & 1 == 1)))
                        .collect();
                    match decided(&g, &known) {
                        Some(x) => Some(x),
                        None if known.iter().all(Option::is_some) => {
                            let vs: Vec<Val> = known.iter().map(|x| x.expect("known")).collect();
                            Some(match g {
                                Gate::And(_) => self.and_n(&vs),
                                Gate::NegIte(..) => self.ite(vs[0], vs[1], vs[2]).neg_if(true),
                            })
                        }
                        None => {
                            // A multiplexer's selector first: a constant one needs only
                            // its chosen input.
                            let only = match (&g, known[0]) {
                                (Gate::NegIte(..), None) => Some(0),
                                (Gate::NegIte(..), Some(Val::Const(c))) => {
                                    Some(if c { 1 } else { 2 })
                                }
                                _ => None,
                            };
                            for (i, (&l, k)) in leaves.iter().zip(&known).enumerate() {
                                if k.is_none() && only.is_none_or(|o| o == i) {
                                    stack.push((f, l >> 1));
                                }
                            }
                            None
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
        self.and_n(&[x, y])
    }

    /// The conjunction of `xs`: constants folded, duplicate literals dropped, a complementary
    /// pair false, otherwise one variable with `n + 1` clauses (shared with an equal
    /// conjunction encoded before).
    fn and_n(&mut self, xs: &[Val]) -> Val {
        let mut lits = Vec::with_capacity(xs.len());
        for &x in xs {
            match x {
                Val::Const(false) => return Val::Const(false),
                Val::Const(true) => {}
                Val::Lit(l) => lits.push(l),
            }
        }
        lits.sort_unstable_by_key(|l| l.index());
        lits.dedup();
        if lits.windows(2).any(|w| w[0] == !w[1]) {
            return Val::Const(false);
        }
        match lits.len() {
            0 => return Val::Const(true),
            1 => return Val::Lit(lits[0]),
            _ => {}
        }
        if let Some(&g) = self.hash.get(&lits) {
            return Val::Lit(g);
        }
        let g = self.fresh_lit();
        let mut big = Vec::with_capacity(lits.len() + 1);
        big.push(g);
        for &l in &lits {
            self.s.add_clause(&[!g, l]);
            big.push(!l);
        }
        self.s.add_clause(&big);
        self.hash.insert(lits, g);
        Val::Lit(g)
    }

    /// `s ? a : b`.
    fn ite(&mut self, s: Val, a: Val, b: Val) -> Val {
        match (s, a, b) {
            (Val::Const(c), _, _) => {
                if c {
                    a
                } else {
                    b
                }
            }
            (Val::Lit(s), Val::Lit(a), Val::Lit(b))
                if a != b && a != !b && a.var() != s.var() && b.var() != s.var() =>
            {
                let x = self.fresh_lit();
                self.s.add_clause(&[!s, !a, x]);
                self.s.add_clause(&[!s, a, !x]);
                self.s.add_clause(&[s, !b, x]);
                self.s.add_clause(&[s, b, !x]);
                self.s.add_clause(&[!a, !b, x]);
                self.s.add_clause(&[a, b, !x]);
                Val::Lit(x)
            }
            _ => {
                let t = self.and(s, a);
                let e = self.and(s.neg_if(true), b);
                self.and(t.neg_if(true), e.neg_if(true)).neg_if(true)
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

/// The value of gate `g` when the known values of its leaves (`known[i]` for leaf `i`, already
/// with the leaf's sign) decide it without the others: an AND with a false leaf, a
/// multiplexer whose selector is known and whose chosen input is known.
fn decided(g: &Gate, known: &[Option<Val>]) -> Option<Val> {
    match g {
        Gate::And(_) => known
            .contains(&Some(Val::Const(false)))
            .then_some(Val::Const(false)),
        Gate::NegIte(..) => match known[0] {
            Some(Val::Const(true)) => known[1].map(|x| x.neg_if(true)),
            Some(Val::Const(false)) => known[2].map(|x| x.neg_if(true)),
            _ => None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn design(src: &str) -> Aig {
        crate::parse_aiger(src.as_bytes()).expect("valid aag")
    }

    #[test]
    fn equal_conjunctions_share_one_variable_across_frames() {
        // Inputs x=2, y=4; latches l1=6, l2=8 (reset 0), both loading x; g5 = l1∧y,
        // g6 = l2∧y, outputs g5 and g6. In frame 1 both latches are x of frame 0.
        let a = design("aag 6 2 2 2 2\n2\n4\n6 2\n8 2\n10\n12\n10 6 4\n12 8 4\n");
        let mut u = Unroll::new(&a);
        u.add_frame();
        u.add_frame();
        assert_eq!(u.value(0, 10), Val::Const(false), "latches start at 0");
        let (g, h) = (u.value(1, 10), u.value(1, 12));
        assert!(matches!(g, Val::Lit(_)));
        assert_eq!(g, h);
    }

    #[test]
    fn a_multiplexer_with_a_known_selector_is_its_chosen_input() {
        // Latch s=2 (reset 1, next 0), inputs a=4, b=6; g4 = s∧a, g5 = ¬s∧b,
        // g6 = ¬g4∧¬g5 = ¬mux(s, a, b); output ¬g6.
        let a = design("aag 6 2 1 1 3\n4\n6\n2 0 1\n13\n8 2 4\n10 3 6\n12 9 11\n");
        let mut u = Unroll::new(&a);
        u.add_frame();
        u.add_frame();
        let vars = u.s.num_vars();
        let (a0, b1) = (u.value(0, 4), u.value(1, 6));
        assert_eq!(u.value(0, 13), a0, "frame 0 selects a");
        assert_eq!(u.value(1, 13), b1, "frame 1 selects b");
        // Only the two inputs were created: no gate needed a variable.
        assert_eq!(u.s.num_vars(), vars + 2);
    }
}
