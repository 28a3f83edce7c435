//! Word-level hardware as Horn clauses: a BTOR2 model ([`cove_aig::btor2::Model`]) becomes a
//! linear CHC system over bit-vectors and arrays, and a counterexample of that system becomes
//! a BTOR2 witness.
//!
//! # Why
//! The bit-blaster decides memories exactly, a register per cell, which stops at
//! [`cove_aig::btor2::MAX_ARRAY_BITS`] bits. A memory of 2^32 cells is one array variable
//! here, and the CHC engines reason about it with the theory of arrays: Spacer and BMC with
//! read-over-write, and the cell abstraction ([`crate::engines::cells`]) for the invariants
//! that speak of every cell (`∀a. mem[a]` is even). This is the word-level route of the HWMCC
//! array track's winners (Pono, AVR): the transition relation over arrays, handed to a solver
//! that owns the theory.
//!
//! # The system
//! One predicate `Inv` over the states (bit-vectors and arrays, in declaration order), with
//! `s` the state variables, `s'` their successors and `i` the inputs of a step:
//! - `init(s) → Inv(s)`, where `init(s)` equates every initialised state with its `init`
//!   value (over `s`: an `init` may read other states' initial values); uninitialised states
//!   are free;
//! - `Inv(s) ∧ C(s, i) ∧ ⋀ s'ⱼ = nextⱼ(s, i) → Inv(s')` over the states with `next` (the others
//!   are free in `s'`), `C` the conjunction of the constraints;
//! - `Inv(s) ∧ C(s, i) ∧ ⋁ bad(s, i) → false`.
//!
//! A derivation of `false` is a path init, step, …, step, query: frame `k`'s states are the
//! `k`-th derived fact, its inputs the values the next clause instance gives `i`
//! ([`witness`]). Constraints are required in every frame, the bad state in the last one, as
//! in the BTOR2 witness semantics; the witness is replayed on the model by the word-level
//! simulator, independently of this encoding, before it is printed. An invariant of the
//! system is checked by the certificate checker like every CHC answer.
//!
//! A node is translated once (the nodes are topologically ordered, so a single pass without
//! recursion); one-bit values are `(_ BitVec 1)` terms, turned into Booleans where a
//! condition is needed (an `ite` over a comparison is taken apart, so conditions stay the
//! comparisons themselves).

use crate::result::Derivation;
use crate::system::{ChcSystem, Clause, PredApp};
use cove_aig::btor2::{Arg, BinOp, Model, Op, UnOp};
use cove_aig::btor2_sim::{Bv, Frame, Mem, Witness, check_witness};
use cove_logic::bv::BvOp;
use cove_logic::{BvValue, FuncId, Sort, TermId, TermStore, Value, VarId};

/// A BTOR2 model's Horn clauses and what maps its answers back.
#[derive(Clone, Debug)]
pub struct Encoding {
    /// The system: clause 0 the initial states, clause 1 the step, clause 2 the query.
    pub system: ChcSystem,
    /// The predicate over the states.
    pub inv: FuncId,
    /// The variable of each state, in declaration order.
    pub states: Vec<VarId>,
    /// The variable of each input.
    pub inputs: Vec<VarId>,
    /// The term of every node of the model over the state and input variables: what the
    /// clauses are made of (the differential tests compare it with the simulator).
    pub nodes: Vec<TermId>,
}

/// Index of the step clause in [`Encoding::system`].
const STEP: usize = 1;

/// The sort of node `n`'s values.
fn sort_of(m: &Model, n: usize) -> Sort {
    let node = &m.nodes[n];
    match node.array {
        Some(a) => Sort::array(Sort::BitVec(a.index), Sort::BitVec(a.elem)),
        None => Sort::BitVec(node.width),
    }
}

/// A one-bit vector as a Boolean (the comparison itself when `t` is `ite(c, 1, 0)`).
fn to_bool(st: &mut TermStore, t: TermId) -> TermId {
    let (one, zero) = (st.mk_bv_u64(1, 1), st.mk_bv_u64(1, 0));
    if matches!(st.op(t), cove_logic::Op::Ite) {
        let a = st.args(t);
        if a[1] == one && a[2] == zero {
            return a[0];
        }
    }
    st.mk_eq(t, one)
}

/// Builds the terms of a model's nodes over given variables of its states and inputs.
struct Terms<'a> {
    m: &'a Model,
    st: &'a mut TermStore,
    /// `term[n]`: node `n`'s value (not negated).
    term: Vec<TermId>,
}

impl Terms<'_> {
    fn bv(&mut self, op: BvOp, args: &[TermId], w: u32) -> TermId {
        self.st.mk_bv_sorted(op, args, Sort::BitVec(w))
    }

    fn lit(&mut self, w: u32, n: u64) -> TermId {
        self.st.mk_bv_u64(w, n)
    }

    /// `b` as a one-bit vector.
    fn of_bool(&mut self, b: TermId) -> TermId {
        let (one, zero) = (self.lit(1, 1), self.lit(1, 0));
        self.st.mk_ite(b, one, zero)
    }

    fn cond(&mut self, t: TermId) -> TermId {
        to_bool(self.st, t)
    }

    fn arg(&mut self, a: Arg) -> TermId {
        let t = self.term[a.node];
        if a.neg {
            let w = self.m.nodes[a.node].width;
            self.bv(BvOp::Not, &[t], w)
        } else {
            t
        }
    }

    fn width(&self, a: Arg) -> u32 {
        self.m.nodes[a.node].width
    }

    fn sub(&mut self, a: TermId, b: TermId, w: u32) -> TermId {
        let nb = self.bv(BvOp::Neg, &[b], w);
        self.bv(BvOp::Add, &[a, nb], w)
    }

    /// The sign bit of a `w`-bit term, as a Boolean.
    fn sign(&mut self, t: TermId, w: u32) -> TermId {
        let b = self.st.mk_extract(w - 1, w - 1, t);
        self.cond(b)
    }

    fn bin(&mut self, op: BinOp, a: TermId, b: TermId, w: u32) -> TermId {
        use BinOp::*;
        let cmp = |s: &mut Self, op: BvOp, x: TermId, y: TermId| {
            let c = s.st.mk_bv_sorted(op, &[x, y], Sort::Bool);
            s.of_bool(c)
        };
        match op {
            Add => self.bv(BvOp::Add, &[a, b], w),
            Sub => self.sub(a, b, w),
            Mul => self.bv(BvOp::Mul, &[a, b], w),
            Udiv => self.bv(BvOp::Udiv, &[a, b], w),
            Urem => self.bv(BvOp::Urem, &[a, b], w),
            Sdiv => self.bv(BvOp::Sdiv, &[a, b], w),
            Srem => self.bv(BvOp::Srem, &[a, b], w),
            Smod => self.bv(BvOp::Smod, &[a, b], w),
            And => self.bv(BvOp::And, &[a, b], w),
            Or => self.bv(BvOp::Or, &[a, b], w),
            Xor => self.bv(BvOp::Xor, &[a, b], w),
            Nand | Nor | Xnor => {
                let inner = match op {
                    Nand => BvOp::And,
                    Nor => BvOp::Or,
                    _ => BvOp::Xor,
                };
                let t = self.bv(inner, &[a, b], w);
                self.bv(BvOp::Not, &[t], w)
            }
            Implies => {
                let na = self.bv(BvOp::Not, &[a], w);
                self.bv(BvOp::Or, &[na, b], w)
            }
            Iff => {
                let t = self.bv(BvOp::Xor, &[a, b], w);
                self.bv(BvOp::Not, &[t], w)
            }
            Sll => self.bv(BvOp::Shl, &[a, b], w),
            Srl => self.bv(BvOp::Lshr, &[a, b], w),
            Sra => self.bv(BvOp::Ashr, &[a, b], w),
            Rol | Ror => {
                // By `b mod w`; a shift by `w` gives 0, so amount 0 is right too.
                let ww = self.lit(w, w as u64);
                let k = self.bv(BvOp::Urem, &[b, ww], w);
                let rest = self.sub(ww, k, w);
                let (first, second) = if op == Rol {
                    (BvOp::Shl, BvOp::Lshr)
                } else {
                    (BvOp::Lshr, BvOp::Shl)
                };
                let x = self.bv(first, &[a, k], w);
                let y = self.bv(second, &[a, rest], w);
                self.bv(BvOp::Or, &[x, y], w)
            }
            Eq | Neq => {
                let e = self.st.mk_eq(a, b);
                let e = if op == Eq { e } else { self.st.mk_not(e) };
                self.of_bool(e)
            }
            Ult => cmp(self, BvOp::Ult, a, b),
            Ulte => cmp(self, BvOp::Ule, a, b),
            Ugt => cmp(self, BvOp::Ult, b, a),
            Ugte => cmp(self, BvOp::Ule, b, a),
            Slt => cmp(self, BvOp::Slt, a, b),
            Slte => cmp(self, BvOp::Sle, a, b),
            Sgt => cmp(self, BvOp::Slt, b, a),
            Sgte => cmp(self, BvOp::Sle, b, a),
            Concat => self.st.mk_concat(a, b),
            Uaddo => {
                // The carry out of the sum one bit wider.
                let (xa, xb) = (
                    self.bv(BvOp::ZeroExtend(1), &[a], w + 1),
                    self.bv(BvOp::ZeroExtend(1), &[b], w + 1),
                );
                let s = self.bv(BvOp::Add, &[xa, xb], w + 1);
                self.st.mk_extract(w, w, s)
            }
            Saddo | Ssubo => {
                // Operands of equal signs (opposite for the difference) and a result of
                // the other sign.
                let r = if op == Saddo {
                    self.bv(BvOp::Add, &[a, b], w)
                } else {
                    self.sub(a, b, w)
                };
                let (sa, sb, sr) = (self.sign(a, w), self.sign(b, w), self.sign(r, w));
                let same = self.st.mk_eq(sa, sb);
                let operands = if op == Saddo {
                    same
                } else {
                    self.st.mk_not(same)
                };
                let flipped = self.st.mk_eq(sa, sr);
                let flipped = self.st.mk_not(flipped);
                let o = self.st.mk_and(&[operands, flipped]);
                self.of_bool(o)
            }
            Usubo => cmp(self, BvOp::Ult, a, b),
            Umulo | Smulo => {
                // The double-width product differs from the extension of its low half.
                let ext = if op == Umulo {
                    BvOp::ZeroExtend(w)
                } else {
                    BvOp::SignExtend(w)
                };
                let (xa, xb) = (
                    self.bv(ext.clone(), &[a], 2 * w),
                    self.bv(ext.clone(), &[b], 2 * w),
                );
                let p = self.bv(BvOp::Mul, &[xa, xb], 2 * w);
                let low = self.st.mk_extract(w - 1, 0, p);
                let back = self.bv(ext, &[low], 2 * w);
                let e = self.st.mk_eq(p, back);
                let ne = self.st.mk_not(e);
                self.of_bool(ne)
            }
            Sdivo => {
                // The most negative value divided by -1.
                let min = self.st.mk_bv_lit(BvValue::from_bits(
                    &(0..w).map(|i| i == w - 1).collect::<Vec<_>>(),
                ));
                let ones = self.st.mk_bv_lit(BvValue::ones(w));
                let (e1, e2) = (self.st.mk_eq(a, min), self.st.mk_eq(b, ones));
                let both = self.st.mk_and(&[e1, e2]);
                self.of_bool(both)
            }
        }
    }

    /// The term of node `n` from its arguments' terms.
    fn node(&mut self, n: usize, vars: &[Option<TermId>]) -> TermId {
        let w = self.m.nodes[n].width;
        match &self.m.nodes[n].op {
            Op::Input(_) | Op::State(_) => vars[n].expect("a variable for every state and input"),
            Op::Const(bits) => self.st.mk_bv_lit(BvValue::from_bits(bits)),
            Op::Un(op, a) => {
                let aw = self.width(*a);
                let t = self.arg(*a);
                match op {
                    UnOp::Not => self.bv(BvOp::Not, &[t], w),
                    UnOp::Inc => {
                        let one = self.lit(w, 1);
                        self.bv(BvOp::Add, &[t, one], w)
                    }
                    UnOp::Dec => {
                        let ones = self.st.mk_bv_lit(BvValue::ones(w));
                        self.bv(BvOp::Add, &[t, ones], w)
                    }
                    UnOp::Neg => self.bv(BvOp::Neg, &[t], w),
                    UnOp::Redand | UnOp::Redor => {
                        let c = if *op == UnOp::Redand {
                            self.st.mk_bv_lit(BvValue::ones(aw))
                        } else {
                            self.lit(aw, 0)
                        };
                        let e = self.st.mk_eq(t, c);
                        let e = if *op == UnOp::Redand {
                            e
                        } else {
                            self.st.mk_not(e)
                        };
                        self.of_bool(e)
                    }
                    UnOp::Redxor => {
                        let mut acc = self.st.mk_extract(0, 0, t);
                        for i in 1..aw {
                            let b = self.st.mk_extract(i, i, t);
                            acc = self.bv(BvOp::Xor, &[acc, b], 1);
                        }
                        acc
                    }
                }
            }
            Op::Bin(op, a, b) => {
                let aw = self.width(*a);
                let (x, y) = (self.arg(*a), self.arg(*b));
                self.bin(*op, x, y, aw)
            }
            Op::Ite(c, a, b) => {
                let c = self.arg(*c);
                let c = self.cond(c);
                let (x, y) = (self.arg(*a), self.arg(*b));
                self.st.mk_ite(c, x, y)
            }
            Op::Slice(a, u, l) => {
                let t = self.arg(*a);
                self.st.mk_extract(*u, *l, t)
            }
            Op::Uext(a, k) | Op::Sext(a, k) => {
                let t = self.arg(*a);
                if *k == 0 {
                    return t;
                }
                let op = if matches!(self.m.nodes[n].op, Op::Uext(..)) {
                    BvOp::ZeroExtend(*k)
                } else {
                    BvOp::SignExtend(*k)
                };
                self.bv(op, &[t], w)
            }
            Op::Read(a, i) => {
                let (x, y) = (self.arg(*a), self.arg(*i));
                self.st.mk_select(x, y)
            }
            Op::Write(a, i, v) => {
                let (x, y, z) = (self.arg(*a), self.arg(*i), self.arg(*v));
                self.st.mk_store(x, y, z)
            }
            Op::ConstArray(v) => {
                let t = self.arg(*v);
                let sort = sort_of(self.m, n);
                self.st.mk_const_array(sort, t)
            }
        }
    }

    /// Every node's term, in order.
    fn build<'a>(m: &'a Model, st: &'a mut TermStore, vars: &[Option<TermId>]) -> Terms<'a> {
        let mut t = Terms {
            m,
            st,
            term: Vec::with_capacity(m.nodes.len()),
        };
        for n in 0..m.nodes.len() {
            let x = t.node(n, vars);
            t.term.push(x);
        }
        t
    }

    /// The one-bit argument `a` as a Boolean.
    fn holds(&mut self, a: Arg) -> TermId {
        let t = self.arg(a);
        self.cond(t)
    }
}

/// The Horn clauses of `m` (see the module doc), with their terms in `store`.
pub fn encode(m: &Model, store: &mut TermStore) -> Result<Encoding, String> {
    let arg_sorts: Vec<Sort> = m.states.iter().map(|s| sort_of(m, s.node)).collect();
    let inv = store
        .declare_func("btor2_inv", &arg_sorts, Sort::Bool)
        .map_err(|e| e.to_string())?;
    // One fresh variable per node, named `{prefix}{position}_`.
    let mut fresh = |prefix: char, nodes: &[usize]| -> Vec<VarId> {
        nodes
            .iter()
            .enumerate()
            .map(|(i, &n)| store.fresh_var(&format!("{prefix}{i}_"), sort_of(m, n)))
            .collect()
    };
    let state_nodes: Vec<usize> = m.states.iter().map(|s| s.node).collect();
    let input_nodes: Vec<usize> = m.inputs.iter().map(|x| x.node).collect();
    let states = fresh('s', &state_nodes);
    let nexts = fresh('t', &state_nodes);
    let inputs = fresh('i', &input_nodes);
    let mut vars = vec![None; m.nodes.len()];
    for (s, &v) in m.states.iter().zip(&states) {
        vars[s.node] = Some(store.mk_var(v));
    }
    for (x, &v) in m.inputs.iter().zip(&inputs) {
        vars[x.node] = Some(store.mk_var(v));
    }
    let state_terms: Vec<TermId> = states.iter().map(|&v| store.mk_var(v)).collect();
    let next_terms: Vec<TermId> = nexts.iter().map(|&v| store.mk_var(v)).collect();
    let mut t = Terms::build(m, store, &vars);
    // Initial states.
    let mut init = vec![];
    for (i, s) in m.states.iter().enumerate() {
        if let Some(a) = s.init {
            let v = t.arg(a);
            init.push(t.st.mk_eq(state_terms[i], v));
        }
    }
    let init = t.st.mk_and(&init);
    let constraints: Vec<TermId> = m.constraints.iter().map(|&c| t.holds(c)).collect();
    // A step.
    let mut step = constraints.clone();
    for (i, s) in m.states.iter().enumerate() {
        if let Some(a) = s.next {
            let v = t.arg(a);
            step.push(t.st.mk_eq(next_terms[i], v));
        }
    }
    let step = t.st.mk_and(&step);
    // The query.
    let bads: Vec<TermId> = m.bads.iter().map(|&b| t.holds(b)).collect();
    let bad = t.st.mk_or(&bads);
    let mut query = constraints;
    query.push(bad);
    let query = t.st.mk_and(&query);
    let app = |args: &[TermId]| PredApp {
        pred: inv,
        args: args.to_vec(),
    };
    let both: Vec<VarId> = states.iter().chain(&inputs).copied().collect();
    let all: Vec<VarId> = both.iter().chain(&nexts).copied().collect();
    let system = ChcSystem {
        preds: vec![inv],
        clauses: vec![
            Clause {
                vars: states.clone(),
                body: vec![],
                constraint: init,
                head: Some(app(&state_terms)),
                origin: None,
            },
            Clause {
                vars: all,
                body: vec![app(&state_terms)],
                constraint: step,
                head: Some(app(&next_terms)),
                origin: None,
            },
            Clause {
                vars: both,
                body: vec![app(&state_terms)],
                constraint: query,
                head: None,
                origin: None,
            },
        ],
    };
    Ok(Encoding {
        system,
        inv,
        states,
        inputs,
        nodes: t.term,
    })
}

fn bv_of(v: &Value, w: u32) -> Result<Bv, String> {
    match v {
        Value::Bv(b) if b.width() == w => Ok(Bv::from_fn(w, |i| b.bit(i))),
        _ => Err(format!("expected a {w}-bit value, found {v:?}")),
    }
}

/// A state's value as the simulator's.
fn frame_value(m: &Model, si: usize, v: &Value, f: &mut Frame) -> Result<(), String> {
    let node = &m.nodes[m.states[si].node];
    match (node.array, v) {
        (Some(sort), Value::Array(a)) => {
            let mut mem = Mem::constant(sort, bv_of(&a.default, sort.elem)?);
            for (i, x) in &a.entries {
                mem.write(bv_of(i, sort.index)?, bv_of(x, sort.elem)?);
            }
            f.push_mem(si, &mem);
        }
        (None, v) => f.states.push((si, bv_of(v, node.width)?)),
        (Some(_), v) => return Err(format!("expected a memory, found {v:?}")),
    }
    Ok(())
}

/// The BTOR2 witness of a derivation of `false` from [`Encoding::system`], checked by the
/// word-level simulator: the first bad property the replay reaches is the one named.
pub fn witness(m: &Model, enc: &Encoding, d: &Derivation) -> Result<Witness, String> {
    // The path from the query back to the initial state.
    let mut path = vec![];
    let mut at = d.root;
    loop {
        let s = d.steps.get(at).ok_or("a premise outside the derivation")?;
        path.push(s);
        match s.premises.as_slice() {
            [] => break,
            [p] => at = *p,
            _ => return Err("a nonlinear step".into()),
        }
        if path.len() > d.steps.len() {
            return Err("a cyclic derivation".into());
        }
    }
    path.reverse();
    // path[0] derives the initial state, path[k] the state of frame k, the last is the query.
    if path.first().is_some_and(|s| s.clause != 0) || path.last().is_some_and(|s| s.clause != 2) {
        return Err("the derivation is not init, steps, query".into());
    }
    if path[1..path.len() - 1].iter().any(|s| s.clause != STEP) {
        return Err("the derivation is not init, steps, query".into());
    }
    let mut frames = vec![];
    for k in 0..path.len() - 1 {
        let (fact, next) = (path[k], path[k + 1]);
        let (_, vals) = fact.head.as_ref().ok_or("a fact without a head")?;
        if vals.len() != m.states.len() {
            return Err("a fact of the wrong arity".into());
        }
        let mut f = Frame::default();
        for (si, s) in m.states.iter().enumerate() {
            let free = if k == 0 {
                s.init.is_none()
            } else {
                s.next.is_none()
            };
            if free {
                frame_value(m, si, &vals[si], &mut f)?;
            }
        }
        // The inputs of frame k are the next clause instance's; an input the solver left
        // open is 0.
        for (ii, x) in m.inputs.iter().enumerate() {
            let w = m.nodes[x.node].width;
            let v = next
                .assignment
                .iter()
                .find(|(v, _)| *v == enc.inputs[ii])
                .map(|(_, v)| bv_of(v, w))
                .transpose()?
                .unwrap_or_else(|| Bv::zero(w));
            f.inputs.push((ii, v));
        }
        frames.push(f);
    }
    let mut last = String::new();
    for bad in 0..m.bads.len() {
        let w = Witness {
            bad,
            frames: frames.clone(),
        };
        match check_witness(m, &w) {
            Ok(()) => return Ok(w),
            Err(e) => last = e,
        }
    }
    Err(format!("the counterexample does not replay: {last}"))
}
