//! Bit-blasting BTOR2 models into and-inverter graphs, and the BTOR2 driver.
//!
//! Every bit-vector node becomes a vector of AIG literals (least significant bit first):
//! ripple-carry adders, shift-and-add multipliers, restoring dividers (whose behaviour on a
//! zero divisor is SMT-LIB's: quotient all ones, remainder the dividend), logarithmic barrel
//! shifters. One latch per state bit; a state without `next` takes a fresh input vector each
//! step; a state whose `init` is not a constant gets a free initial value, constrained in the
//! first step (an extra latch marks "not the first step") to equal its `init` expression.
//!
//! [`check`] runs the AIG engines ([`crate::driver::solve`]) on the blasted circuit: a
//! safe answer carries the invariant checked on that circuit; a counterexample is translated
//! to a BTOR2 [`Witness`], printed, read back and replayed by the word-level simulator
//! ([`crate::btor2_sim`]) — an answer whose check fails is unknown.

use crate::btor2::{Arg, BinOp, Model, Op, UnOp};
use crate::btor2_sim::{Bv, Frame, Mem, Witness, check_witness, format_witness, parse_witness};
use crate::driver::Validation;
use crate::{ALit, Aig, And, FALSE, Init, Latch, SafeProof, TRUE, Verdict};
use cove_control::{Control, UnknownReason};
use rustc_hash::FxHashMap;

/// A model bit-blasted into an AIG, with the maps back to words.
#[derive(Clone, Debug)]
pub struct Blasted {
    /// The circuit: one bad literal per BTOR2 `bad` (same order), one constraint per
    /// `constraint` (plus the non-constant initial values), outputs per BTOR2 `output`
    /// (all bits, least significant first, outputs in order).
    pub aig: Aig,
    /// Per BTOR2 input: the indices (in `aig.inputs`) of its bits.
    pub input_bits: Vec<Vec<usize>>,
    /// Per BTOR2 state: the indices (in `aig.latches`) of its bits.
    pub state_bits: Vec<Vec<usize>>,
    /// Per BTOR2 state without `next`: the indices (in `aig.inputs`) of its next value.
    pub free_next_bits: Vec<Option<Vec<usize>>>,
    /// Per BTOR2 output: its literals.
    pub outputs: Vec<Vec<ALit>>,
}

struct Builder {
    ands: Vec<And>,
    next_var: u32,
    hash: FxHashMap<(ALit, ALit), ALit>,
}

type Bits = Vec<ALit>;

impl Builder {
    fn and(&mut self, a: ALit, b: ALit) -> ALit {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        if a == FALSE || a == b ^ 1 {
            return FALSE;
        }
        if a == TRUE || a == b {
            return b;
        }
        if let Some(&l) = self.hash.get(&(a, b)) {
            return l;
        }
        let var = self.next_var;
        self.next_var += 1;
        self.ands.push(And {
            var,
            rhs0: b,
            rhs1: a,
        });
        self.hash.insert((a, b), 2 * var);
        2 * var
    }
    fn or(&mut self, a: ALit, b: ALit) -> ALit {
        self.and(a ^ 1, b ^ 1) ^ 1
    }
    fn xor(&mut self, a: ALit, b: ALit) -> ALit {
        let x = self.and(a, b ^ 1);
        let y = self.and(a ^ 1, b);
        self.or(x, y)
    }
    fn mux(&mut self, c: ALit, t: ALit, e: ALit) -> ALit {
        if t == e {
            return t;
        }
        let x = self.and(c, t);
        let y = self.and(c ^ 1, e);
        self.or(x, y)
    }
    fn mux_v(&mut self, c: ALit, t: &[ALit], e: &[ALit]) -> Bits {
        t.iter().zip(e).map(|(&x, &y)| self.mux(c, x, y)).collect()
    }
    fn or_all(&mut self, v: &[ALit]) -> ALit {
        v.iter().fold(FALSE, |acc, &x| self.or(acc, x))
    }
    fn and_all(&mut self, v: &[ALit]) -> ALit {
        v.iter().fold(TRUE, |acc, &x| self.and(acc, x))
    }
    /// Sum and carry out of `a + b + cin`.
    fn add(&mut self, a: &[ALit], b: &[ALit], cin: ALit) -> (Bits, ALit) {
        let mut c = cin;
        let mut s = Vec::with_capacity(a.len());
        for (&x, &y) in a.iter().zip(b) {
            let t = self.xor(x, y);
            s.push(self.xor(t, c));
            let g = self.and(x, y);
            let p = self.and(t, c);
            c = self.or(g, p);
        }
        (s, c)
    }
    fn neg(&mut self, a: &[ALit]) -> Bits {
        let na: Bits = a.iter().map(|&x| x ^ 1).collect();
        let zero = vec![FALSE; a.len()];
        self.add(&na, &zero, TRUE).0
    }
    /// `a - b` and whether no borrow occurred (`a ≥ b` unsigned).
    fn sub(&mut self, a: &[ALit], b: &[ALit]) -> (Bits, ALit) {
        let nb: Bits = b.iter().map(|&x| x ^ 1).collect();
        self.add(a, &nb, TRUE)
    }
    fn ult(&mut self, a: &[ALit], b: &[ALit]) -> ALit {
        self.sub(a, b).1 ^ 1
    }
    fn slt(&mut self, a: &[ALit], b: &[ALit]) -> ALit {
        let mut a = a.to_vec();
        let mut b = b.to_vec();
        let n = a.len() - 1;
        a[n] ^= 1;
        b[n] ^= 1;
        self.ult(&a, &b)
    }
    fn eq(&mut self, a: &[ALit], b: &[ALit]) -> ALit {
        let x: Bits = a.iter().zip(b).map(|(&x, &y)| self.xor(x, y) ^ 1).collect();
        self.and_all(&x)
    }
    /// Product modulo 2^w.
    fn mul(&mut self, a: &[ALit], b: &[ALit]) -> Bits {
        let w = a.len();
        let mut acc = vec![FALSE; w];
        for i in 0..w {
            if b[i] == FALSE {
                continue;
            }
            let pp: Bits = (0..w - i).map(|j| self.and(a[j], b[i])).collect();
            let (s, _) = self.add(&acc[i..], &pp, FALSE);
            acc[i..].copy_from_slice(&s);
        }
        acc
    }
    /// Restoring division: quotient and remainder (all ones and `a` when `b = 0`).
    fn udivrem(&mut self, a: &[ALit], b: &[ALit]) -> (Bits, Bits) {
        let w = a.len();
        let mut q = vec![FALSE; w];
        let mut r = vec![FALSE; w];
        let mut bx = b.to_vec();
        bx.push(FALSE);
        for i in (0..w).rev() {
            // rr = 2r + a[i], w + 1 bits.
            let mut rr = Vec::with_capacity(w + 1);
            rr.push(a[i]);
            rr.extend_from_slice(&r);
            let (d, ge) = self.sub(&rr, &bx);
            q[i] = ge;
            r = self.mux_v(ge, &d[..w], &rr[..w]);
        }
        (q, r)
    }
    fn abs(&mut self, a: &[ALit]) -> Bits {
        let n = self.neg(a);
        self.mux_v(a[a.len() - 1], &n, a)
    }
    fn sdiv(&mut self, a: &[ALit], b: &[ALit]) -> Bits {
        let (sa, sb) = (a[a.len() - 1], b[b.len() - 1]);
        let (x, y) = (self.abs(a), self.abs(b));
        let q = self.udivrem(&x, &y).0;
        let nq = self.neg(&q);
        let differ = self.xor(sa, sb);
        self.mux_v(differ, &nq, &q)
    }
    fn srem(&mut self, a: &[ALit], b: &[ALit]) -> Bits {
        let sa = a[a.len() - 1];
        let (x, y) = (self.abs(a), self.abs(b));
        let r = self.udivrem(&x, &y).1;
        let nr = self.neg(&r);
        self.mux_v(sa, &nr, &r)
    }
    fn smod(&mut self, a: &[ALit], b: &[ALit]) -> Bits {
        let (sa, sb) = (a[a.len() - 1], b[b.len() - 1]);
        let (x, y) = (self.abs(a), self.abs(b));
        let u = self.udivrem(&x, &y).1;
        let nu = self.neg(&u);
        let nu_b = self.add(&nu, b, FALSE).0;
        let u_b = self.add(&u, b, FALSE).0;
        // By the signs: ++ u, -+ (-u)+b, +- u+b, -- (-u).
        let pos_b = self.mux_v(sa, &nu_b, &u);
        let neg_b = self.mux_v(sa, &nu, &u_b);
        let r = self.mux_v(sb, &neg_b, &pos_b);
        let z = self.or_all(&u) ^ 1;
        self.mux_v(z, &u, &r)
    }
    /// Barrel shifter: `f(cur, k)` shifts by the constant `k`; amounts ≥ w give `fill`.
    fn shift(
        &mut self,
        a: &[ALit],
        s: &[ALit],
        fill: ALit,
        f: impl Fn(&[ALit], usize, ALit) -> Bits,
    ) -> Bits {
        let w = a.len();
        let mut cur = a.to_vec();
        let mut over = Vec::new();
        for (i, &si) in s.iter().enumerate() {
            if i < 64 && (1usize << i) < w {
                let sh = f(&cur, 1 << i, fill);
                cur = self.mux_v(si, &sh, &cur);
            } else {
                over.push(si);
            }
        }
        let o = self.or_all(&over);
        let fv = vec![fill; w];
        self.mux_v(o, &fv, &cur)
    }
    fn rotate(&mut self, a: &[ALit], s: &[ALit], right: bool) -> Bits {
        let w = a.len();
        // The amount modulo w (fits in w bits: w < 2^w).
        let k = if w.is_power_of_two() {
            let mut k = s.to_vec();
            for x in k.iter_mut().skip(w.trailing_zeros() as usize) {
                *x = FALSE;
            }
            k
        } else {
            let wc: Bits = (0..w)
                .map(|i| {
                    if i < 64 && (w >> i) & 1 == 1 {
                        TRUE
                    } else {
                        FALSE
                    }
                })
                .collect();
            self.udivrem(s, &wc).1
        };
        let mut cur = a.to_vec();
        for (i, &ki) in k.iter().enumerate() {
            if i >= 64 || (1usize << i) >= w {
                break; // k < w: higher bits are zero
            }
            let d = 1usize << i;
            let rot: Bits = (0..w)
                .map(|j| {
                    if right {
                        cur[(j + d) % w]
                    } else {
                        cur[(j + w - d) % w]
                    }
                })
                .collect();
            cur = self.mux_v(ki, &rot, &cur);
        }
        cur
    }
    fn overflow(&mut self, op: BinOp, a: &[ALit], b: &[ALit]) -> ALit {
        let w = a.len();
        let (sa, sb) = (a[w - 1], b[w - 1]);
        match op {
            BinOp::Uaddo => self.add(a, b, FALSE).1,
            BinOp::Saddo => {
                let s = self.add(a, b, FALSE).0;
                let same = self.xor(sa, sb) ^ 1;
                let flip = self.xor(s[w - 1], sa);
                self.and(same, flip)
            }
            BinOp::Usubo => self.ult(a, b),
            BinOp::Ssubo => {
                let d = self.sub(a, b).0;
                let differ = self.xor(sa, sb);
                let flip = self.xor(d[w - 1], sa);
                self.and(differ, flip)
            }
            BinOp::Umulo => {
                let mut x = a.to_vec();
                x.resize(2 * w, FALSE);
                let mut y = b.to_vec();
                y.resize(2 * w, FALSE);
                let p = self.mul(&x, &y);
                self.or_all(&p[w..])
            }
            BinOp::Smulo => {
                let mut x = a.to_vec();
                x.resize(2 * w, sa);
                let mut y = b.to_vec();
                y.resize(2 * w, sb);
                let p = self.mul(&x, &y);
                let top = p[w - 1];
                let d: Bits = p[w..].iter().map(|&q| self.xor(q, top)).collect();
                self.or_all(&d)
            }
            BinOp::Sdivo => {
                let min: Bits = (0..w)
                    .map(|i| if i == w - 1 { TRUE } else { FALSE })
                    .collect();
                let is_min = self.eq(a, &min);
                let is_m1 = self.and_all(b);
                self.and(is_min, is_m1)
            }
            _ => FALSE,
        }
    }
    fn bin(&mut self, op: BinOp, a: &[ALit], b: &[ALit]) -> Bits {
        use BinOp::*;
        let w = a.len();
        let bitwise = |s: &mut Builder, f: &dyn Fn(&mut Builder, ALit, ALit) -> ALit| -> Bits {
            a.iter().zip(b).map(|(&x, &y)| f(s, x, y)).collect()
        };
        match op {
            Add => self.add(a, b, FALSE).0,
            Sub => self.sub(a, b).0,
            Mul => self.mul(a, b),
            Udiv => self.udivrem(a, b).0,
            Urem => self.udivrem(a, b).1,
            Sdiv => self.sdiv(a, b),
            Srem => self.srem(a, b),
            Smod => self.smod(a, b),
            And => bitwise(self, &|s, x, y| s.and(x, y)),
            Or => bitwise(self, &|s, x, y| s.or(x, y)),
            Xor => bitwise(self, &|s, x, y| s.xor(x, y)),
            Nand => bitwise(self, &|s, x, y| s.and(x, y) ^ 1),
            Nor => bitwise(self, &|s, x, y| s.or(x, y) ^ 1),
            Xnor | Iff => bitwise(self, &|s, x, y| s.xor(x, y) ^ 1),
            Implies => bitwise(self, &|s, x, y| s.or(x ^ 1, y)),
            Sll => self.shift(a, b, FALSE, |c, k, f| {
                (0..c.len())
                    .map(|j| if j >= k { c[j - k] } else { f })
                    .collect()
            }),
            Srl => self.shift(a, b, FALSE, |c, k, f| {
                (0..c.len())
                    .map(|j| if j + k < c.len() { c[j + k] } else { f })
                    .collect()
            }),
            Sra => self.shift(a, b, a[w - 1], |c, k, f| {
                (0..c.len())
                    .map(|j| if j + k < c.len() { c[j + k] } else { f })
                    .collect()
            }),
            Rol => self.rotate(a, b, false),
            Ror => self.rotate(a, b, true),
            Eq => vec![self.eq(a, b)],
            Neq => vec![self.eq(a, b) ^ 1],
            Ult => vec![self.ult(a, b)],
            Ulte => vec![self.ult(b, a) ^ 1],
            Ugt => vec![self.ult(b, a)],
            Ugte => vec![self.ult(a, b) ^ 1],
            Slt => vec![self.slt(a, b)],
            Slte => vec![self.slt(b, a) ^ 1],
            Sgt => vec![self.slt(b, a)],
            Sgte => vec![self.slt(a, b) ^ 1],
            Concat => b.iter().chain(a).copied().collect(),
            Uaddo | Saddo | Umulo | Smulo | Usubo | Ssubo | Sdivo => {
                vec![self.overflow(op, a, b)]
            }
        }
    }
    /// The cell of `arr` (cells of `ew` bits) at index `idx`: a multiplexer tree over the
    /// index bits, least significant first.
    fn read(&mut self, arr: &[ALit], idx: &[ALit], ew: usize) -> Bits {
        let mut cells: Vec<Bits> = arr.chunks(ew).map(|c| c.to_vec()).collect();
        for &bit in idx {
            cells = cells
                .chunks(2)
                .map(|p| self.mux_v(bit, &p[1], &p[0]))
                .collect();
        }
        cells.swap_remove(0)
    }

    /// `arr` with the cell at `idx` replaced by `v`: each cell selects `v` when the index's
    /// decoded line for it is on.
    fn write(&mut self, arr: &[ALit], idx: &[ALit], v: &[ALit]) -> Bits {
        let mut lines = vec![TRUE];
        for &bit in idx {
            let n = lines.len();
            for k in 0..n {
                let on = self.and(lines[k], bit);
                lines[k] = self.and(lines[k], bit ^ 1);
                lines.push(on);
            }
        }
        let mut out = Vec::with_capacity(arr.len());
        for (k, cell) in arr.chunks(v.len()).enumerate() {
            out.extend(self.mux_v(lines[k], v, cell));
        }
        out
    }

    fn un(&mut self, op: UnOp, a: &[ALit]) -> Bits {
        let w = a.len();
        let one: Bits = (0..w).map(|i| if i == 0 { TRUE } else { FALSE }).collect();
        match op {
            UnOp::Not => a.iter().map(|&x| x ^ 1).collect(),
            UnOp::Inc => self.add(a, &one, FALSE).0,
            UnOp::Dec => self.sub(a, &one).0,
            UnOp::Neg => self.neg(a),
            UnOp::Redand => vec![self.and_all(a)],
            UnOp::Redor => vec![self.or_all(a)],
            UnOp::Redxor => vec![a.iter().fold(FALSE, |acc, &x| self.xor(acc, x))],
        }
    }
}

/// Largest circuit the blaster builds (hostile widths: a 65536-bit multiplier would need
/// billions of gates); larger models end with unknown.
pub const MAX_ANDS: u64 = 20_000_000;

/// An upper estimate of the and gates node `n` adds.
fn cost_estimate(m: &Model, n: &crate::btor2::Node) -> u64 {
    let w = match &n.op {
        Op::Bin(_, a, _) => m.nodes[a.node].width as u64,
        _ => n.width as u64,
    };
    match &n.op {
        Op::Bin(
            BinOp::Mul
            | BinOp::Udiv
            | BinOp::Urem
            | BinOp::Sdiv
            | BinOp::Srem
            | BinOp::Smod
            | BinOp::Umulo
            | BinOp::Smulo
            | BinOp::Rol
            | BinOp::Ror,
            _,
            _,
        ) => 20 * w * w + 64,
        // A read muxes every cell; a write decodes the index and muxes every cell.
        Op::Read(a, _) | Op::Write(a, _, _) => 4 * m.nodes[a.node].width as u64 + 64,
        _ => 10 * w * (65 - w.leading_zeros() as u64) + 64,
    }
}

/// Bit-blasts `m`. Stops (with the reason) when `ctl` says so.
pub fn blast(m: &Model, ctl: &Control) -> Result<Blasted, UnknownReason> {
    if let Some(n) = m.unblastable_array() {
        let s = n.array.expect("an array node");
        return Err(UnknownReason::Unsupported(format!(
            "the memory of node {} (2^{} cells of {} bits) is larger than {} bits, the \
             bit-blaster's limit",
            n.id,
            s.index,
            s.elem,
            crate::btor2::MAX_ARRAY_BITS
        )));
    }
    let mut aig = Aig::default();
    let mut var = 1u32;
    let mut input_bits = Vec::new();
    for i in &m.inputs {
        let w = m.nodes[i.node].width;
        let mut v = Vec::with_capacity(w as usize);
        for _ in 0..w {
            v.push(aig.inputs.len());
            aig.inputs.push(var);
            var += 1;
        }
        input_bits.push(v);
    }
    let mut free_next_bits = Vec::new();
    for s in &m.states {
        if s.next.is_some() {
            free_next_bits.push(None);
            continue;
        }
        let w = m.nodes[s.node].width;
        let mut v = Vec::with_capacity(w as usize);
        for _ in 0..w {
            v.push(aig.inputs.len());
            aig.inputs.push(var);
            var += 1;
        }
        free_next_bits.push(Some(v));
    }
    let mut state_bits = Vec::new();
    for s in &m.states {
        let w = m.nodes[s.node].width;
        let mut v = Vec::with_capacity(w as usize);
        for _ in 0..w {
            v.push(aig.latches.len());
            aig.latches.push(Latch {
                var,
                next: FALSE,
                init: Init::Free,
            });
            var += 1;
        }
        state_bits.push(v);
    }
    // "Not the first step", when some initial value is not a constant.
    let not_first = if m.init_order.is_empty() {
        None
    } else {
        let l = aig.latches.len();
        aig.latches.push(Latch {
            var,
            next: TRUE,
            init: Init::Zero,
        });
        var += 1;
        Some(l)
    };
    let mut b = Builder {
        ands: Vec::new(),
        next_var: var,
        hash: FxHashMap::default(),
    };
    let mut bits: Vec<Bits> = Vec::with_capacity(m.nodes.len());
    let get = |bits: &Vec<Bits>, a: Arg| -> Bits {
        let v = &bits[a.node];
        if a.neg {
            v.iter().map(|&x| x ^ 1).collect()
        } else {
            v.clone()
        }
    };
    for (n, node) in m.nodes.iter().enumerate() {
        let est = cost_estimate(m, node);
        if b.ands.len() as u64 + est > MAX_ANDS {
            return Err(UnknownReason::Incomplete(format!(
                "the bit-blasted circuit would exceed {MAX_ANDS} and gates (node {})",
                node.id
            )));
        }
        if (n % 256 == 0 || est > 100_000)
            && let Some(r) = ctl.should_stop()
        {
            return Err(r);
        }
        let v: Bits = match &node.op {
            Op::Input(i) => input_bits[*i].iter().map(|&k| 2 * aig.inputs[k]).collect(),
            Op::State(i) => state_bits[*i]
                .iter()
                .map(|&k| 2 * aig.latches[k].var)
                .collect(),
            Op::Const(c) => c.iter().map(|&x| if x { TRUE } else { FALSE }).collect(),
            Op::Un(op, a) => {
                let x = get(&bits, *a);
                b.un(*op, &x)
            }
            Op::Bin(op, x, y) => {
                let (x, y) = (get(&bits, *x), get(&bits, *y));
                b.bin(*op, &x, &y)
            }
            Op::Ite(c, x, y) => {
                let (c, x, y) = (get(&bits, *c)[0], get(&bits, *x), get(&bits, *y));
                b.mux_v(c, &x, &y)
            }
            Op::Slice(a, u, l) => bits[a.node][*l as usize..=*u as usize]
                .iter()
                .map(|&x| x ^ a.neg as u32)
                .collect(),
            Op::Read(a, i) => {
                let (arr, idx) = (get(&bits, *a), get(&bits, *i));
                b.read(&arr, &idx, node.width as usize)
            }
            Op::Write(a, i, v) => {
                let (arr, idx, v) = (get(&bits, *a), get(&bits, *i), get(&bits, *v));
                b.write(&arr, &idx, &v)
            }
            Op::ConstArray(v) => {
                let v = get(&bits, *v);
                (0..node.width as usize).map(|k| v[k % v.len()]).collect()
            }
            Op::Uext(a, k) | Op::Sext(a, k) => {
                let mut x = get(&bits, *a);
                let fill = if matches!(node.op, Op::Sext(..)) {
                    x[x.len() - 1]
                } else {
                    FALSE
                };
                x.resize(x.len() + *k as usize, fill);
                x
            }
        };
        bits.push(v);
    }
    let konst = m.constant_nodes();
    for (si, s) in m.states.iter().enumerate() {
        let next: Bits = match (s.next, &free_next_bits[si]) {
            (Some(a), _) => get(&bits, a),
            (None, Some(f)) => f.iter().map(|&k| 2 * aig.inputs[k]).collect(),
            (None, None) => unreachable!("a state without next has free next bits"),
        };
        for (k, &l) in state_bits[si].iter().enumerate() {
            aig.latches[l].next = next[k];
        }
        if let Some(v) = s.init {
            let iv = get(&bits, v);
            if konst[v.node] {
                // Constant cones fold to constant literals in the builder.
                if iv.iter().any(|&x| x > TRUE) {
                    return Err(UnknownReason::Incomplete(
                        "a constant initial value did not fold to constants".into(),
                    ));
                }
                for (k, &l) in state_bits[si].iter().enumerate() {
                    aig.latches[l].init = if iv[k] == TRUE { Init::One } else { Init::Zero };
                }
            } else if let Some(nf) = not_first {
                let cur: Bits = state_bits[si]
                    .iter()
                    .map(|&l| 2 * aig.latches[l].var)
                    .collect();
                let e = b.eq(&cur, &iv);
                let c = b.or(2 * aig.latches[nf].var, e);
                aig.constraints.push(c);
            }
        }
    }
    for &c in &m.constraints {
        aig.constraints.push(get(&bits, c)[0]);
    }
    for &a in &m.bads {
        aig.bad.push(get(&bits, a)[0]);
    }
    let mut outputs = Vec::new();
    for &a in &m.outputs {
        let v = get(&bits, a);
        aig.outputs.extend_from_slice(&v);
        outputs.push(v);
    }
    aig.max_var = b.next_var - 1;
    aig.ands = b.ands;
    Ok(Blasted {
        aig,
        input_bits,
        state_bits,
        free_next_bits,
        outputs,
    })
}

/// The answer for a BTOR2 model.
#[derive(Clone, Debug)]
pub enum Btor2Verdict {
    /// Safe, with the proof checked on the bit-blasted circuit.
    Safe(SafeProof),
    /// Unsafe: the witness (checked by word-level simulation) and its text.
    Unsafe(Witness, String),
    /// No answer.
    Unknown(UnknownReason),
}

/// Translates an AIG counterexample of `bl` into a BTOR2 witness.
pub fn witness_of_trace(m: &Model, bl: &Blasted, t: &crate::Trace) -> Witness {
    let word = |idx: &[usize], src: &[bool]| -> Bv {
        Bv::from_fn(idx.len() as u32, |i| src[idx[i as usize]])
    };
    let mut frames = Vec::with_capacity(t.inputs.len());
    for (k, inp) in t.inputs.iter().enumerate() {
        let mut f = Frame::default();
        for (si, s) in m.states.iter().enumerate() {
            let value = if k == 0 {
                s.init.is_none().then(|| word(&bl.state_bits[si], &t.init))
            } else {
                bl.free_next_bits[si]
                    .as_ref()
                    .map(|nb| word(nb, &t.inputs[k - 1]))
            };
            let Some(v) = value else { continue };
            match m.nodes[s.node].array {
                // A memory: its nonzero cells (the others are zero).
                Some(sort) => f.push_mem(si, &Mem::from_word(sort, &v)),
                None => f.states.push((si, v)),
            }
        }
        for (ii, ib) in bl.input_bits.iter().enumerate() {
            f.inputs.push((ii, word(ib, inp)));
        }
        frames.push(f);
    }
    Witness {
        bad: t.bad_index,
        frames,
    }
}

/// Bit-blasts `m` and model-checks it as `cfg` says (see [`crate::driver::solve`]), with
/// the validation of the answer. A counterexample is printed as a BTOR2 witness, read back
/// and replayed on `m` by the word-level simulator (a replay failure withdraws the answer
/// with [`Validation::Failed`]: a bug); a proof has been checked on the blasted circuit by
/// the driver.
pub fn check(
    m: &Model,
    cfg: &crate::driver::SolveConfig,
    ctl: &Control,
) -> (Btor2Verdict, Option<Blasted>, Validation) {
    let bl = match blast(m, ctl) {
        Ok(b) => b,
        Err(r) => return (Btor2Verdict::Unknown(r), None, Validation::NotApplicable),
    };
    if ctl.verbosity > 0 {
        eprintln!(
            "bit-blasted: {} inputs, {} latches, {} ands, {} bad, {} constraints",
            bl.aig.inputs.len(),
            bl.aig.latches.len(),
            bl.aig.ands.len(),
            bl.aig.bad.len(),
            bl.aig.constraints.len()
        );
    }
    let out = crate::driver::solve(&bl.aig, cfg, ctl);
    let mut validation = out.validation;
    let v = match out.verdict {
        Verdict::Safe(p) => Btor2Verdict::Safe(p),
        Verdict::Unknown(r) => Btor2Verdict::Unknown(r),
        Verdict::Unsafe(t) => {
            let w = witness_of_trace(m, &bl, &t);
            let text = format_witness(m, &w);
            match parse_witness(&text).and_then(|back| check_witness(m, &back).map(|()| back)) {
                Ok(back) => Btor2Verdict::Unsafe(back, text),
                Err(e) => {
                    let msg = format!("counterexample failed word-level simulation: {e}");
                    validation = Validation::Failed(msg.clone());
                    Btor2Verdict::Unknown(UnknownReason::Incomplete(msg))
                }
            }
        }
    };
    (v, Some(bl), validation)
}
