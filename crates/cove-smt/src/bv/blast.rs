//! The bit-blaster: word-level terms to literals of a [`Gates`] graph.
//!
//! A bit-vector term becomes a vector of gate literals (least significant bit first), a
//! Boolean term one literal. Terms the blaster does not look into — variables, uninterpreted
//! applications, array reads, arithmetic atoms, `nat2bv` — are *leaves*: they get fresh
//! inputs, and the client says what they mean (the SMT core ties a Boolean leaf to its
//! Tseitin literal; the CHC translation ties a variable's bits to latches or inputs).
//! In *atom mode* (the SMT core's) every Boolean subterm below the root is a leaf, so the
//! core's own Boolean encoding stays the only one.
//!
//! The walk is iterative (explicit stack), the circuits are the textbook ones: ripple-carry
//! addition, shift-and-add multiplication, restoring division (whose behaviour on a zero
//! divisor is exactly SMT-LIB's `1…1` quotient and unchanged remainder), barrel shifters,
//! and the signed operators by their SMT-LIB definitions over the unsigned ones.

use super::gates::{G_FALSE, G_TRUE, GLit, Gates};
use cove_logic::{BvOp, Op, Sort, TermId, TermStore};
use rustc_hash::FxHashMap;

/// Gates a polled circuit blaster ([`Blaster::new`], [`Blaster::set_poll`]) builds before it
/// abstracts the rest (and the circuit is refused). The structural-hashing table doubles as
/// the graph grows, and one doubling cannot be interrupted: at 8 million gates it took over
/// half a second under load, past the limit's grace. Below this size the largest doubling
/// costs a few tens of milliseconds; a circuit this large (a 700-bit multiplier) is beyond
/// what the hardware engines decide anyway. The SMT core's blaster (atom mode) has no cap:
/// its graph grows over many checks, and cutting it would cost answers.
pub const MAX_GATES: usize = 3_500_000;

/// Word-level terms to gates (see the module doc).
#[derive(Clone, Debug, Default)]
pub struct Blaster {
    /// The graph built so far.
    pub gates: Gates,
    /// Blasted Boolean terms.
    bools: FxHashMap<TermId, GLit>,
    /// Blasted bit-vector terms (and the bits of bit-vector leaves).
    words: FxHashMap<TermId, Vec<GLit>>,
    /// Boolean leaves.
    bool_leaves: FxHashMap<TermId, GLit>,
    /// Leaves made since the last [`Blaster::take_new_leaves`].
    new_leaves: Vec<TermId>,
    atom_mode: bool,
    /// Limits polled while blasting (a 2048-bit multiplier is millions of gates).
    poll: Option<cove_control::Control>,
    /// Set when a poll found the run stopping: from then on every bit-vector term not yet
    /// blasted becomes a leaf (fresh inputs), i.e. is abstracted.
    stopped: bool,
    /// Whether any term was abstracted so (sticky: an abstracted term stays in the caches).
    abstracted: bool,
}

impl Blaster {
    /// A blaster that looks into Boolean structure (for circuits).
    pub fn new() -> Blaster {
        Blaster::default()
    }

    /// A blaster in atom mode: Boolean subterms below a root are leaves (for the SMT core).
    pub fn atoms() -> Blaster {
        Blaster {
            atom_mode: true,
            ..Blaster::default()
        }
    }

    /// Limits to poll while blasting. When one is hit (or a circuit passes [`MAX_GATES`]),
    /// the bit-vector terms not blasted yet become leaves ([`Blaster::abstracted`]): fresh
    /// inputs, a weaker formula, so a client may still conclude `unsat` but must check any
    /// model. Without a poll (the default) every term is blasted exactly.
    pub fn set_poll(&mut self, control: Option<cove_control::Control>) {
        self.poll = control;
        self.stopped = false;
    }

    /// Whether some term was abstracted because the limits were hit while blasting.
    pub fn abstracted(&self) -> bool {
        self.abstracted
    }

    /// Polls the limits (if any) and, for circuits, the size cap [`MAX_GATES`]; sticky once
    /// hit.
    fn stop_now(&mut self) -> bool {
        if !self.stopped
            && self.poll.is_some()
            && ((!self.atom_mode && self.gates.num_vars() > MAX_GATES)
                || self
                    .poll
                    .as_ref()
                    .is_some_and(|c| c.should_stop().is_some()))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// The leaves made since the last call, in creation order.
    pub fn take_new_leaves(&mut self) -> Vec<TermId> {
        std::mem::take(&mut self.new_leaves)
    }

    /// The input of a Boolean leaf, if `t` is one.
    pub fn bool_leaf(&self, t: TermId) -> Option<GLit> {
        self.bool_leaves.get(&t).copied()
    }

    /// The bits of a blasted bit-vector term (for a leaf: its inputs).
    pub fn bits(&self, t: TermId) -> Option<&[GLit]> {
        self.words.get(&t).map(|v| v.as_slice())
    }

    /// Whether the blaster treats `t` as a leaf when it is not the root.
    fn is_leaf(&self, store: &TermStore, t: TermId) -> bool {
        let sort = store.sort(t);
        if sort == Sort::Bool {
            if self.atom_mode {
                return true;
            }
            return match store.op(t) {
                Op::Bool(_)
                | Op::Not
                | Op::And
                | Op::Or
                | Op::Implies
                | Op::Xor
                | Op::Ite
                | Op::Bv(_) => false,
                Op::Eq | Op::Distinct => {
                    let s = store.sort(store.args(t)[0]);
                    !(s == Sort::Bool || s.is_bv())
                }
                _ => true,
            };
        }
        match store.op(t) {
            Op::Ite => false,
            Op::Bv(BvOp::OfInt) => true,
            Op::Bv(_) => false,
            _ => true,
        }
    }

    /// Whether the root-level Boolean term `t` can be blasted (an atom of the theory in
    /// atom mode: a bit-vector equality or comparison).
    pub fn is_bv_atom(store: &TermStore, t: TermId) -> bool {
        match store.op(t) {
            Op::Bv(op) => op.is_predicate(),
            Op::Eq | Op::Distinct => store.sort(store.args(t)[0]).is_bv(),
            _ => false,
        }
    }

    /// The Boolean leaves inside the bit-vector arguments of `t` (what the client must
    /// encode before asking for `t` in atom mode). Iterative.
    pub fn leaves_below(store: &TermStore, t: TermId) -> Vec<TermId> {
        let mut out = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack: Vec<TermId> = store.args(t).to_vec();
        while let Some(u) = stack.pop() {
            if !seen.insert(u) {
                continue;
            }
            if store.sort(u) == Sort::Bool {
                out.push(u);
            } else if store.sort(u).is_bv()
                && matches!(store.op(u), Op::Ite | Op::Bv(_))
                && store.op(u) != &Op::Bv(BvOp::OfInt)
            {
                stack.extend_from_slice(store.args(u));
            }
        }
        out
    }

    fn leaf(&mut self, store: &TermStore, t: TermId) {
        match store.sort(t) {
            Sort::Bool => {
                if self.bool_leaves.contains_key(&t) {
                    return;
                }
                let g = self.gates.input();
                self.bool_leaves.insert(t, g);
            }
            Sort::BitVec(w) => {
                if self.words.contains_key(&t) {
                    return;
                }
                let bits = (0..w).map(|_| self.gates.input()).collect();
                self.words.insert(t, bits);
            }
            s => unreachable!("the blaster sees no leaves of sort {s}"),
        }
        self.new_leaves.push(t);
    }

    fn done(&self, store: &TermStore, t: TermId, root: bool) -> bool {
        if store.sort(t) == Sort::Bool {
            if !root && self.is_leaf(store, t) {
                self.bool_leaves.contains_key(&t)
            } else {
                self.bools.contains_key(&t)
            }
        } else {
            self.words.contains_key(&t)
        }
    }

    /// The literal of the Boolean term `t` (blasted as a root: in atom mode `t` should be a
    /// bit-vector atom, see [`Blaster::is_bv_atom`]).
    pub fn bool_lit(&mut self, store: &TermStore, t: TermId) -> GLit {
        debug_assert_eq!(store.sort(t), Sort::Bool);
        self.run(store, t);
        match self.bools.get(&t) {
            Some(&g) => g,
            None => self.bool_leaves[&t],
        }
    }

    /// The bits of the bit-vector term `t`, least significant first.
    pub fn word(&mut self, store: &TermStore, t: TermId) -> Vec<GLit> {
        debug_assert!(store.sort(t).is_bv());
        self.run(store, t);
        self.words[&t].clone()
    }

    fn run(&mut self, store: &TermStore, root: TermId) {
        let mut stack = vec![(root, false)];
        let mut steps = 0u32;
        while let Some((t, expanded)) = stack.pop() {
            // In atom mode a Boolean root is blasted although it is a leaf below a root.
            let is_root = t == root && store.sort(t) == Sort::Bool && self.atom_mode;
            if self.done(store, t, is_root) {
                continue;
            }
            if !is_root && self.is_leaf(store, t) {
                self.leaf(store, t);
                continue;
            }
            steps += 1;
            // Only words are abstracted: a Boolean term over abstracted words is cheap, and
            // an abstracted Boolean root would be its own leaf.
            if store.sort(t).is_bv()
                && (self.stopped || (steps.is_multiple_of(256) && self.stop_now()))
            {
                self.abstracted = true;
                self.leaf(store, t);
                continue;
            }
            if !expanded {
                stack.push((t, true));
                for &a in store.args(t).iter().rev() {
                    if !self.done(store, a, false) {
                        stack.push((a, false));
                    }
                }
                continue;
            }
            if store.sort(t) == Sort::Bool {
                let g = self.blast_bool(store, t);
                self.bools.insert(t, g);
            } else {
                let w = self.blast_word(store, t);
                if self.stopped {
                    // Stopped inside this term's circuit: its bits are incomplete.
                    self.abstracted = true;
                    self.leaf(store, t);
                } else {
                    self.words.insert(t, w);
                }
            }
        }
    }

    /// The literal of an argument (blasted or a leaf).
    fn arg_bool(&self, store: &TermStore, a: TermId) -> GLit {
        if self.is_leaf(store, a) {
            self.bool_leaves[&a]
        } else {
            self.bools[&a]
        }
    }

    fn blast_bool(&mut self, store: &TermStore, t: TermId) -> GLit {
        let args = store.args(t).to_vec();
        let b = |s: &Self, i: usize| s.arg_bool(store, args[i]);
        match store.op(t) {
            Op::Bool(x) => {
                if *x {
                    G_TRUE
                } else {
                    G_FALSE
                }
            }
            Op::Not => b(self, 0) ^ 1,
            Op::And | Op::Or => {
                let is_and = store.op(t) == &Op::And;
                let lits: Vec<GLit> = (0..args.len())
                    .map(|i| b(self, i) ^ u32::from(!is_and))
                    .collect();
                self.gates.and_all(&lits) ^ u32::from(!is_and)
            }
            Op::Implies => {
                let (x, y) = (b(self, 0), b(self, 1));
                self.gates.or(x ^ 1, y)
            }
            Op::Xor => {
                let (x, y) = (b(self, 0), b(self, 1));
                self.gates.xor(x, y)
            }
            Op::Ite => {
                let (c, x, y) = (b(self, 0), b(self, 1), b(self, 2));
                self.gates.mux(c, x, y)
            }
            Op::Eq | Op::Distinct => {
                let n = args.len();
                let mut eqs = Vec::new();
                for i in 0..n {
                    for j in i + 1..n {
                        let e = if store.sort(args[0]) == Sort::Bool {
                            let (x, y) = (b(self, i), b(self, j));
                            self.gates.iff(x, y)
                        } else {
                            let (x, y) =
                                (self.words[&args[i]].clone(), self.words[&args[j]].clone());
                            self.eq_bits(&x, &y)
                        };
                        eqs.push(e);
                    }
                }
                if store.op(t) == &Op::Eq {
                    self.gates.and_all(&eqs)
                } else {
                    let neg: Vec<GLit> = eqs.iter().map(|&e| e ^ 1).collect();
                    self.gates.and_all(&neg)
                }
            }
            Op::Bv(op) => {
                let (x, y) = (self.words[&args[0]].clone(), self.words[&args[1]].clone());
                match op {
                    BvOp::Ult => self.ult(&x, &y),
                    BvOp::Ule => self.ult(&y, &x) ^ 1,
                    BvOp::Slt => self.slt(&x, &y),
                    BvOp::Sle => self.slt(&y, &x) ^ 1,
                    _ => unreachable!("bit-vector operator {op:?} at sort Bool"),
                }
            }
            op => unreachable!("{op:?} is a leaf"),
        }
    }

    fn blast_word(&mut self, store: &TermStore, t: TermId) -> Vec<GLit> {
        let args = store.args(t).to_vec();
        let w = store.sort(t).bv_width().expect("bit-vector term") as usize;
        let word = |s: &Self, i: usize| s.words[&args[i]].clone();
        match store.op(t) {
            Op::Ite => {
                let c = self.arg_bool(store, args[0]);
                let (x, y) = (word(self, 1), word(self, 2));
                x.iter()
                    .zip(&y)
                    .map(|(&a, &b)| self.gates.mux(c, a, b))
                    .collect()
            }
            Op::Bv(op) => {
                let op = op.clone();
                match op {
                    BvOp::Lit(v) => (0..w as u32)
                        .map(|i| if v.bit(i) { G_TRUE } else { G_FALSE })
                        .collect(),
                    BvOp::Concat => {
                        let (hi, lo) = (word(self, 0), word(self, 1));
                        lo.into_iter().chain(hi).collect()
                    }
                    BvOp::Extract(h, l) => word(self, 0)[l as usize..=h as usize].to_vec(),
                    BvOp::ZeroExtend(k) => {
                        let mut x = word(self, 0);
                        x.extend(std::iter::repeat_n(G_FALSE, k as usize));
                        x
                    }
                    BvOp::SignExtend(k) => {
                        let mut x = word(self, 0);
                        let s = *x.last().expect("width >= 1");
                        x.extend(std::iter::repeat_n(s, k as usize));
                        x
                    }
                    BvOp::Not => word(self, 0).iter().map(|&b| b ^ 1).collect(),
                    BvOp::And | BvOp::Or | BvOp::Xor => {
                        let (x, y) = (word(self, 0), word(self, 1));
                        x.iter()
                            .zip(&y)
                            .map(|(&a, &b)| match op {
                                BvOp::And => self.gates.and(a, b),
                                BvOp::Or => self.gates.or(a, b),
                                _ => self.gates.xor(a, b),
                            })
                            .collect()
                    }
                    BvOp::Neg => {
                        let x = word(self, 0);
                        self.neg(&x)
                    }
                    BvOp::Add => {
                        let (x, y) = (word(self, 0), word(self, 1));
                        self.add(&x, &y, G_FALSE).0
                    }
                    BvOp::Mul => {
                        let (x, y) = (word(self, 0), word(self, 1));
                        self.mul(&x, &y)
                    }
                    BvOp::Udiv | BvOp::Urem => {
                        let (x, y) = (word(self, 0), word(self, 1));
                        let (q, r) = self.udivrem(&x, &y);
                        if op == BvOp::Udiv { q } else { r }
                    }
                    BvOp::Sdiv | BvOp::Srem | BvOp::Smod => {
                        let (x, y) = (word(self, 0), word(self, 1));
                        self.signed_div(&op, &x, &y)
                    }
                    BvOp::Shl | BvOp::Lshr | BvOp::Ashr => {
                        let (x, y) = (word(self, 0), word(self, 1));
                        self.shift(&op, &x, &y)
                    }
                    BvOp::Ult | BvOp::Ule | BvOp::Slt | BvOp::Sle | BvOp::ToNat | BvOp::OfInt => {
                        unreachable!("{op:?} is not a bit-vector-valued operator here")
                    }
                }
            }
            op => unreachable!("{op:?} is a leaf"),
        }
    }

    /// `x == y` bitwise.
    pub fn eq_bits(&mut self, x: &[GLit], y: &[GLit]) -> GLit {
        let eqs: Vec<GLit> = x
            .iter()
            .zip(y)
            .map(|(&a, &b)| self.gates.iff(a, b))
            .collect();
        self.gates.and_all(&eqs)
    }

    /// `x + y + cin` and the carry out.
    fn add(&mut self, x: &[GLit], y: &[GLit], cin: GLit) -> (Vec<GLit>, GLit) {
        let g = &mut self.gates;
        let mut c = cin;
        let mut out = Vec::with_capacity(x.len());
        for (&a, &b) in x.iter().zip(y) {
            let axb = g.xor(a, b);
            out.push(g.xor(axb, c));
            let ab = g.and(a, b);
            let cx = g.and(c, axb);
            c = g.or(ab, cx);
        }
        (out, c)
    }

    fn neg(&mut self, x: &[GLit]) -> Vec<GLit> {
        let inv: Vec<GLit> = x.iter().map(|&b| b ^ 1).collect();
        let zero = vec![G_FALSE; x.len()];
        self.add(&inv, &zero, G_TRUE).0
    }

    fn mul(&mut self, x: &[GLit], y: &[GLit]) -> Vec<GLit> {
        let is_const = |v: &[GLit]| v.iter().all(|&b| b == G_FALSE || b == G_TRUE);
        if is_const(y) {
            return self.mul_const(x, y);
        }
        if is_const(x) {
            return self.mul_const(y, x);
        }
        let w = x.len();
        let mut acc = vec![G_FALSE; w];
        for (i, &yb) in y.iter().enumerate() {
            if yb == G_FALSE {
                continue;
            }
            if self.stop_now() {
                break;
            }
            let mut pp = vec![G_FALSE; w];
            for j in i..w {
                pp[j] = self.gates.and(x[j - i], yb);
            }
            // Only the bits from i up change.
            let (hi, _) = self.add(&acc[i..], &pp[i..], G_FALSE);
            acc.splice(i.., hi);
        }
        acc
    }

    /// `x · c` for a constant `c` (bits `G_TRUE`/`G_FALSE`), through the non-adjacent form
    /// of `c` modulo `2^w`: `c = Σ dᵢ·2ⁱ` with digits `dᵢ ∈ {-1, 0, 1}`, no two adjacent
    /// non-zero, so `x · c` is a sum and difference of shifted copies of `x` with at most
    /// `⌈(w+1)/2⌉` adders, used when it has fewer non-zero digits than `c` has set bits.
    /// The plain shift-and-add needs one adder per set bit: `x · -1` became 31 chained
    /// 32-bit adders (which the SAT solver cannot see through) where the recoding gives one
    /// negation.
    fn mul_const(&mut self, x: &[GLit], c: &[GLit]) -> Vec<GLit> {
        let w = x.len();
        let bit = |i: usize| i < w && c[i] == G_TRUE;
        let mut digits: Vec<i8> = Vec::with_capacity(w);
        let mut carry = false;
        for i in 0..w {
            let v = bit(i) as u8 + carry as u8;
            let (d, next_carry) = match v {
                1 if bit(i + 1) => (-1, true),
                1 => (1, false),
                2 => (0, true),
                _ => (0, false),
            };
            digits.push(d);
            carry = next_carry;
        }
        let weight = digits.iter().filter(|&&d| d != 0).count();
        let ones = (0..w).filter(|&i| bit(i)).count();
        if weight >= ones {
            // The plain shift-and-add is no larger (its first addend costs no gate).
            digits = (0..w).map(|i| bit(i) as i8).collect();
        }
        let mut acc = vec![G_FALSE; w];
        for (i, &d) in digits.iter().enumerate() {
            if d == 0 {
                continue;
            }
            if self.stop_now() {
                break;
            }
            // x << i on w bits.
            let mut shifted = vec![G_FALSE; w];
            shifted[i..].copy_from_slice(&x[..w - i]);
            acc = if d > 0 {
                self.add(&acc, &shifted, G_FALSE).0
            } else {
                let inv: Vec<GLit> = shifted.iter().map(|&b| b ^ 1).collect();
                self.add(&acc, &inv, G_TRUE).0
            };
        }
        acc
    }

    /// Restoring division: quotient and remainder, with SMT-LIB's results for `y = 0`.
    fn udivrem(&mut self, x: &[GLit], y: &[GLit]) -> (Vec<GLit>, Vec<GLit>) {
        let w = x.len();
        let mut rem = vec![G_FALSE; w];
        let mut q = vec![G_FALSE; w];
        // y extended by a zero bit, negated for the subtraction.
        let mut ny: Vec<GLit> = y.iter().map(|&b| b ^ 1).collect();
        ny.push(G_TRUE);
        for i in (0..w).rev() {
            if self.stop_now() {
                break;
            }
            // shifted = rem << 1 | x_i, on w + 1 bits.
            let mut shifted = Vec::with_capacity(w + 1);
            shifted.push(x[i]);
            shifted.extend_from_slice(&rem);
            // shifted - y = shifted + !y + 1; no borrow (carry out 1) iff shifted >= y.
            let (diff, carry) = self.add(&shifted, &ny, G_TRUE);
            q[i] = carry;
            rem = (0..w)
                .map(|k| self.gates.mux(carry, diff[k], shifted[k]))
                .collect();
        }
        (q, rem)
    }

    fn mux_word(&mut self, c: GLit, x: &[GLit], y: &[GLit]) -> Vec<GLit> {
        x.iter()
            .zip(y)
            .map(|(&a, &b)| self.gates.mux(c, a, b))
            .collect()
    }

    fn signed_div(&mut self, op: &BvOp, x: &[GLit], y: &[GLit]) -> Vec<GLit> {
        let (sx, sy) = (*x.last().expect("w>=1"), *y.last().expect("w>=1"));
        let nx = self.neg(x);
        let ny = self.neg(y);
        let ax = self.mux_word(sx, &nx, x);
        let ay = self.mux_word(sy, &ny, y);
        let (q, r) = self.udivrem(&ax, &ay);
        match op {
            BvOp::Sdiv => {
                let nq = self.neg(&q);
                let flip = self.gates.xor(sx, sy);
                self.mux_word(flip, &nq, &q)
            }
            BvOp::Srem => {
                let nr = self.neg(&r);
                self.mux_word(sx, &nr, &r)
            }
            _ => {
                // smod: u = r; u = 0 → 0; (0,0) u; (1,0) -u + y; (0,1) u + y; (1,1) -u.
                let nr = self.neg(&r);
                let (neg_plus_y, _) = self.add(&nr, y, G_FALSE);
                let (plus_y, _) = self.add(&r, y, G_FALSE);
                let when_sy0 = self.mux_word(sx, &neg_plus_y, &r);
                let when_sy1 = self.mux_word(sx, &nr, &plus_y);
                let signed = self.mux_word(sy, &when_sy1, &when_sy0);
                let nz: Vec<GLit> = r.to_vec();
                let is_zero = self.gates.or_all(&nz) ^ 1;
                self.mux_word(is_zero, &r, &signed)
            }
        }
    }

    fn shift(&mut self, op: &BvOp, x: &[GLit], y: &[GLit]) -> Vec<GLit> {
        let w = x.len();
        let fill = if *op == BvOp::Ashr {
            *x.last().expect("w>=1")
        } else {
            G_FALSE
        };
        let mut cur = x.to_vec();
        let mut overflow = Vec::new();
        for (k, &bit) in y.iter().enumerate() {
            let amount = 1usize.checked_shl(k as u32).filter(|&a| a < w);
            let Some(a) = amount else {
                overflow.push(bit);
                continue;
            };
            let shifted: Vec<GLit> = (0..w)
                .map(|i| match op {
                    BvOp::Shl => {
                        if i >= a {
                            cur[i - a]
                        } else {
                            G_FALSE
                        }
                    }
                    _ => {
                        if i + a < w {
                            cur[i + a]
                        } else {
                            fill
                        }
                    }
                })
                .collect();
            cur = self.mux_word(bit, &shifted, &cur);
        }
        let over = self.gates.or_all(&overflow);
        let filled = vec![fill; w];
        self.mux_word(over, &filled, &cur)
    }

    /// `x < y` unsigned.
    fn ult(&mut self, x: &[GLit], y: &[GLit]) -> GLit {
        let mut lt = G_FALSE;
        for (&a, &b) in x.iter().zip(y) {
            // From the least significant bit up: a more significant difference decides.
            let bit_lt = self.gates.and(a ^ 1, b);
            let same = self.gates.iff(a, b);
            let keep = self.gates.and(same, lt);
            lt = self.gates.or(bit_lt, keep);
        }
        lt
    }

    /// `x < y` signed: unsigned comparison with the sign bits swapped.
    fn slt(&mut self, x: &[GLit], y: &[GLit]) -> GLit {
        let mut xs = x.to_vec();
        let mut ys = y.to_vec();
        let n = xs.len() - 1;
        xs[n] ^= 1;
        ys[n] ^= 1;
        self.ult(&xs, &ys)
    }
}
