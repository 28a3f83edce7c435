//! Word-level simulation of BTOR2 models and the BTOR2 witness format.
//!
//! This is the certificate check of every `sat` (unsafe) BTOR2 answer: the printed witness is
//! read back and replayed on the [`Model`] with word-level arithmetic ([`Bv`]), independently
//! of the bit-blaster and the AIG. Values up to 64 bits are computed with Rust's native
//! 128-bit integer arithmetic (the SMT-LIB division-by-zero cases spelled out), wider ones with
//! multi-limb arithmetic.

use crate::btor2::{Arg, ArraySort, BinOp, Model, Op, UnOp};
use std::collections::BTreeMap;
use std::fmt::Write;

/// A bit-vector value of a fixed width (bits at and above the width are zero).
/// (The order is the limbs', least significant first: numeric up to 64 bits; it keeps
/// memories' cells sorted.)
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bv {
    w: u32,
    limbs: Vec<u64>,
}

fn nl(w: u32) -> usize {
    (w as usize).div_ceil(64)
}

fn mask64(w: u32) -> u64 {
    if w >= 64 { u64::MAX } else { (1u64 << w) - 1 }
}

impl Bv {
    /// Zero of width `w`.
    pub fn zero(w: u32) -> Bv {
        Bv {
            w,
            limbs: vec![0; nl(w)],
        }
    }

    /// The value with bits `bits` (least significant first).
    pub fn from_bits(bits: &[bool]) -> Bv {
        Bv::from_fn(bits.len() as u32, |i| bits[i as usize])
    }

    /// The value whose bit `i` is `f(i)`.
    pub fn from_fn(w: u32, f: impl Fn(u32) -> bool) -> Bv {
        let mut b = Bv::zero(w);
        for i in 0..w {
            if f(i) {
                b.limbs[i as usize / 64] |= 1 << (i % 64);
            }
        }
        b
    }

    /// `v` truncated to width `w`.
    pub fn from_u64(w: u32, v: u64) -> Bv {
        let mut b = Bv::zero(w);
        if w > 0 {
            b.limbs[0] = v & mask64(w);
        }
        b
    }

    /// Width.
    pub fn width(&self) -> u32 {
        self.w
    }

    /// Bit `i`.
    pub fn bit(&self, i: u32) -> bool {
        self.limbs[i as usize / 64] >> (i % 64) & 1 == 1
    }

    /// The bits, least significant first.
    pub fn bits(&self) -> Vec<bool> {
        (0..self.w).map(|i| self.bit(i)).collect()
    }

    /// The value if it fits in 64 bits.
    pub fn to_u64(&self) -> Option<u64> {
        if self.limbs.iter().skip(1).any(|&l| l != 0) {
            return None;
        }
        Some(self.limbs.first().copied().unwrap_or(0))
    }

    /// Binary digits, most significant first (the witness format).
    pub fn to_binary(&self) -> String {
        (0..self.w)
            .rev()
            .map(|i| if self.bit(i) { '1' } else { '0' })
            .collect()
    }

    /// Reads binary digits (most significant first).
    pub fn from_binary(s: &str) -> Option<Bv> {
        if s.is_empty() || !s.bytes().all(|b| b == b'0' || b == b'1') {
            return None;
        }
        let b = s.as_bytes();
        let w = b.len() as u32;
        Some(Bv::from_fn(w, |i| b[(w - 1 - i) as usize] == b'1'))
    }

    fn norm(mut self) -> Bv {
        if let Some(last) = self.limbs.last_mut() {
            let r = self.w % 64;
            if r != 0 {
                *last &= (1u64 << r) - 1;
            }
        }
        self
    }

    fn native(&self) -> bool {
        self.w <= 64
    }

    fn v(&self) -> u64 {
        self.limbs[0]
    }

    /// Signed value (width ≤ 64).
    fn sv(&self) -> i128 {
        let v = self.v() as i128;
        if self.msb() { v - (1i128 << self.w) } else { v }
    }

    fn from_i128(w: u32, v: i128) -> Bv {
        Bv::from_u64(w, v as u64)
    }

    fn msb(&self) -> bool {
        self.bit(self.w - 1)
    }

    /// Whether every bit is 0.
    pub fn is_zero(&self) -> bool {
        self.limbs.iter().all(|&l| l == 0)
    }

    fn ones(w: u32) -> Bv {
        Bv {
            w,
            limbs: vec![u64::MAX; nl(w)],
        }
        .norm()
    }

    fn map2(&self, o: &Bv, f: impl Fn(u64, u64) -> u64) -> Bv {
        Bv {
            w: self.w,
            limbs: self
                .limbs
                .iter()
                .zip(&o.limbs)
                .map(|(&a, &b)| f(a, b))
                .collect(),
        }
        .norm()
    }

    /// Bit-wise not.
    pub fn not(&self) -> Bv {
        Bv {
            w: self.w,
            limbs: self.limbs.iter().map(|&a| !a).collect(),
        }
        .norm()
    }

    /// Sum modulo 2^w.
    pub fn add(&self, o: &Bv) -> Bv {
        if self.native() {
            return Bv::from_u64(self.w, self.v().wrapping_add(o.v()));
        }
        let mut carry = 0u128;
        let limbs = self
            .limbs
            .iter()
            .zip(&o.limbs)
            .map(|(&a, &b)| {
                let s = a as u128 + b as u128 + carry;
                carry = s >> 64;
                s as u64
            })
            .collect();
        Bv { w: self.w, limbs }.norm()
    }

    /// Two's complement negation.
    pub fn neg(&self) -> Bv {
        self.not().add(&Bv::from_u64(self.w, 1))
    }

    /// Difference modulo 2^w.
    pub fn sub(&self, o: &Bv) -> Bv {
        if self.native() {
            return Bv::from_u64(self.w, self.v().wrapping_sub(o.v()));
        }
        self.add(&o.neg())
    }

    /// Product modulo 2^w.
    pub fn mul(&self, o: &Bv) -> Bv {
        if self.native() {
            return Bv::from_u64(self.w, (self.v() as u128 * o.v() as u128) as u64);
        }
        let n = self.limbs.len();
        let mut r = vec![0u64; n];
        for i in 0..n {
            let mut carry = 0u128;
            for j in 0..n - i {
                let t = r[i + j] as u128 + self.limbs[i] as u128 * o.limbs[j] as u128 + carry;
                r[i + j] = t as u64;
                carry = t >> 64;
            }
        }
        Bv {
            w: self.w,
            limbs: r,
        }
        .norm()
    }

    /// Unsigned quotient and remainder; division by zero gives all ones and the dividend.
    pub fn udivrem(&self, o: &Bv) -> (Bv, Bv) {
        if o.is_zero() {
            return (Bv::ones(self.w), self.clone());
        }
        if self.native() {
            return (
                Bv::from_u64(self.w, self.v() / o.v()),
                Bv::from_u64(self.w, self.v() % o.v()),
            );
        }
        // Long division, one bit at a time.
        let mut q = Bv::zero(self.w);
        let mut r = Bv::zero(self.w);
        for i in (0..self.w).rev() {
            // r = 2r + bit i; r < o ≤ 2^w - 1 before the shift, so 2r + 1 may need w + 1 bits.
            let top = r.msb();
            r = r.shl_k(1);
            if self.bit(i) {
                r.limbs[0] |= 1;
            }
            if top || !r.ult(o) {
                r = r.sub(o);
                q.limbs[i as usize / 64] |= 1 << (i % 64);
            }
        }
        (q, r)
    }

    /// Unsigned less-than.
    pub fn ult(&self, o: &Bv) -> bool {
        for (a, b) in self.limbs.iter().rev().zip(o.limbs.iter().rev()) {
            if a != b {
                return a < b;
            }
        }
        false
    }

    /// Signed less-than.
    pub fn slt(&self, o: &Bv) -> bool {
        if self.native() {
            return self.sv() < o.sv();
        }
        match (self.msb(), o.msb()) {
            (true, false) => true,
            (false, true) => false,
            _ => self.ult(o),
        }
    }

    fn shl_k(&self, k: u32) -> Bv {
        Bv::from_fn(self.w, |i| i >= k && self.bit(i - k))
    }

    /// Shift amount `o` as a number below the width, `None` if at least the width.
    fn amount(&self, o: &Bv) -> Option<u32> {
        o.to_u64().filter(|&k| k < self.w as u64).map(|k| k as u32)
    }

    /// Logical shift left.
    pub fn sll(&self, o: &Bv) -> Bv {
        match self.amount(o) {
            Some(k) if self.native() => Bv::from_u64(self.w, self.v() << k),
            Some(k) => self.shl_k(k),
            None => Bv::zero(self.w),
        }
    }

    /// Logical shift right.
    pub fn srl(&self, o: &Bv) -> Bv {
        match self.amount(o) {
            Some(k) if self.native() => Bv::from_u64(self.w, self.v() >> k),
            Some(k) => Bv::from_fn(self.w, |i| i + k < self.w && self.bit(i + k)),
            None => Bv::zero(self.w),
        }
    }

    /// Arithmetic shift right.
    pub fn sra(&self, o: &Bv) -> Bv {
        match self.amount(o) {
            Some(k) if self.native() => Bv::from_i128(self.w, self.sv() >> k),
            Some(k) => Bv::from_fn(self.w, |i| {
                if i + k < self.w {
                    self.bit(i + k)
                } else {
                    self.msb()
                }
            }),
            None if self.msb() => Bv::ones(self.w),
            None => Bv::zero(self.w),
        }
    }

    /// Rotation left by `o` modulo the width (`right`: rotation right).
    pub fn rotate(&self, o: &Bv, right: bool) -> Bv {
        let k = o.udivrem(&Bv::from_u64(self.w, self.w as u64)).1;
        let k = k.to_u64().unwrap_or(0) as u32 % self.w;
        let w = self.w;
        if right {
            Bv::from_fn(w, |i| self.bit((i + k) % w))
        } else {
            Bv::from_fn(w, |i| self.bit((i + w - k) % w))
        }
    }

    /// `self` (high part) followed by `lo`.
    pub fn concat(&self, lo: &Bv) -> Bv {
        Bv::from_fn(self.w + lo.w, |i| {
            if i < lo.w {
                lo.bit(i)
            } else {
                self.bit(i - lo.w)
            }
        })
    }

    /// Bits `u..=l`.
    pub fn slice(&self, u: u32, l: u32) -> Bv {
        Bv::from_fn(u - l + 1, |i| self.bit(i + l))
    }

    /// Zero (`signed`: sign) extension by `n` bits.
    pub fn ext(&self, n: u32, signed: bool) -> Bv {
        let fill = signed && self.msb();
        Bv::from_fn(self.w + n, |i| if i < self.w { self.bit(i) } else { fill })
    }

    fn b(x: bool) -> Bv {
        Bv::from_u64(1, x as u64)
    }

    fn abs(&self) -> Bv {
        if self.msb() { self.neg() } else { self.clone() }
    }

    fn sdiv(&self, o: &Bv) -> Bv {
        if self.native() {
            let (a, b) = (self.sv(), o.sv());
            return match b {
                0 if a < 0 => Bv::from_u64(self.w, 1),
                0 => Bv::ones(self.w),
                _ => Bv::from_i128(self.w, a / b),
            };
        }
        let q = self.abs().udivrem(&o.abs()).0;
        if self.msb() != o.msb() { q.neg() } else { q }
    }

    fn srem(&self, o: &Bv) -> Bv {
        if self.native() {
            let (a, b) = (self.sv(), o.sv());
            return if b == 0 {
                self.clone()
            } else {
                Bv::from_i128(self.w, a % b)
            };
        }
        let r = self.abs().udivrem(&o.abs()).1;
        if self.msb() { r.neg() } else { r }
    }

    fn smod(&self, o: &Bv) -> Bv {
        if self.native() {
            let (a, b) = (self.sv(), o.sv());
            if b == 0 {
                return self.clone();
            }
            let r = a % b;
            let r = if r != 0 && (r < 0) != (b < 0) {
                r + b
            } else {
                r
            };
            return Bv::from_i128(self.w, r);
        }
        let u = self.abs().udivrem(&o.abs()).1;
        if u.is_zero() {
            return u;
        }
        match (self.msb(), o.msb()) {
            (false, false) => u,
            (true, false) => u.neg().add(o),
            (false, true) => u.add(o),
            (true, true) => u.neg(),
        }
    }

    /// Whether a signed result of width `w + extra` (sign-extended operands) does not fit in
    /// `w` bits.
    fn signed_overflow(r: &Bv, w: u32) -> bool {
        let top = r.bit(w - 1);
        (w..r.w).any(|i| r.bit(i) != top)
    }

    fn overflow(&self, op: BinOp, o: &Bv) -> bool {
        let w = self.w;
        if self.native() {
            let (ua, ub) = (self.v() as i128, o.v() as i128);
            let (sa, sb) = (self.sv(), o.sv());
            let (smin, smax) = (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1);
            let out = |x: i128| x < smin || x > smax;
            return match op {
                BinOp::Uaddo => ua + ub >= 1i128 << w,
                BinOp::Saddo => out(sa + sb),
                BinOp::Usubo => ua < ub,
                BinOp::Ssubo => out(sa - sb),
                BinOp::Umulo => (self.v() as u128) * (o.v() as u128) >= 1u128 << w,
                BinOp::Smulo => out(sa * sb),
                BinOp::Sdivo => sa == smin && sb == -1,
                _ => unreachable!("not an overflow predicate"),
            };
        }
        match op {
            BinOp::Uaddo => self.ext(1, false).add(&o.ext(1, false)).bit(w),
            BinOp::Saddo => Bv::signed_overflow(&self.ext(1, true).add(&o.ext(1, true)), w),
            BinOp::Usubo => self.ult(o),
            BinOp::Ssubo => Bv::signed_overflow(&self.ext(1, true).sub(&o.ext(1, true)), w),
            BinOp::Umulo => {
                let r = self.ext(w, false).mul(&o.ext(w, false));
                (w..2 * w).any(|i| r.bit(i))
            }
            BinOp::Smulo => Bv::signed_overflow(&self.ext(w, true).mul(&o.ext(w, true)), w),
            BinOp::Sdivo => {
                let min = Bv::from_fn(w, |i| i == w - 1);
                *self == min && *o == Bv::ones(w)
            }
            _ => unreachable!("not an overflow predicate"),
        }
    }

    /// Applies a unary operator.
    pub fn un(&self, op: UnOp) -> Bv {
        let w = self.w;
        match op {
            UnOp::Not => self.not(),
            UnOp::Inc => self.add(&Bv::from_u64(w, 1)),
            UnOp::Dec => self.sub(&Bv::from_u64(w, 1)),
            UnOp::Neg => self.neg(),
            UnOp::Redand => Bv::b(*self == Bv::ones(w)),
            UnOp::Redor => Bv::b(!self.is_zero()),
            UnOp::Redxor => Bv::b(self.limbs.iter().map(|l| l.count_ones()).sum::<u32>() % 2 == 1),
        }
    }

    /// Applies a binary operator.
    pub fn bin(&self, op: BinOp, o: &Bv) -> Bv {
        use BinOp::*;
        match op {
            Add => self.add(o),
            Sub => self.sub(o),
            Mul => self.mul(o),
            Udiv => self.udivrem(o).0,
            Urem => self.udivrem(o).1,
            Sdiv => self.sdiv(o),
            Srem => self.srem(o),
            Smod => self.smod(o),
            And => self.map2(o, |a, b| a & b),
            Or => self.map2(o, |a, b| a | b),
            Xor => self.map2(o, |a, b| a ^ b),
            Nand => self.map2(o, |a, b| !(a & b)),
            Nor => self.map2(o, |a, b| !(a | b)),
            Xnor | Iff => self.map2(o, |a, b| !(a ^ b)),
            Implies => self.map2(o, |a, b| !a | b),
            Sll => self.sll(o),
            Srl => self.srl(o),
            Sra => self.sra(o),
            Rol => self.rotate(o, false),
            Ror => self.rotate(o, true),
            Eq => Bv::b(self == o),
            Neq => Bv::b(self != o),
            Ult => Bv::b(self.ult(o)),
            Ulte => Bv::b(!o.ult(self)),
            Ugt => Bv::b(o.ult(self)),
            Ugte => Bv::b(!self.ult(o)),
            Slt => Bv::b(self.slt(o)),
            Slte => Bv::b(!o.slt(self)),
            Sgt => Bv::b(o.slt(self)),
            Sgte => Bv::b(!self.slt(o)),
            Concat => self.concat(o),
            Uaddo | Saddo | Umulo | Smulo | Usubo | Ssubo | Sdivo => Bv::b(self.overflow(op, o)),
        }
    }
}

/// A memory's value: a default and the cells that differ from it (sorted by index). Memories
/// are sparse so that any address space can be simulated: a witness gives the cells that
/// matter, and a run of `k` steps writes at most `k` cells per write node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mem {
    /// The sort.
    pub sort: ArraySort,
    /// The value of every cell not in `cells`.
    pub default: Bv,
    /// The cells whose value is not `default`, by index.
    pub cells: BTreeMap<Bv, Bv>,
}

impl Mem {
    /// The memory whose every cell holds `v`.
    pub fn constant(sort: ArraySort, v: Bv) -> Mem {
        Mem {
            sort,
            default: v,
            cells: BTreeMap::new(),
        }
    }

    /// The cell at `i`.
    pub fn read(&self, i: &Bv) -> Bv {
        self.cells.get(i).unwrap_or(&self.default).clone()
    }

    /// Sets the cell at `i` to `v`.
    pub fn write(&mut self, i: Bv, v: Bv) {
        if v == self.default {
            self.cells.remove(&i);
        } else {
            self.cells.insert(i, v);
        }
    }

    /// Extensional equality: the same value in every cell. The default decides the cells
    /// neither memory lists, unless they list every cell between them.
    pub fn same(&self, o: &Mem) -> bool {
        let keys: std::collections::BTreeSet<&Bv> =
            self.cells.keys().chain(o.cells.keys()).collect();
        keys.iter().all(|k| self.read(k) == o.read(k))
            && ((keys.len() as u128) >= self.sort.cells() || self.default == o.default)
    }
}

impl Mem {
    /// The memory whose cells are the consecutive `sort.elem`-bit slices of `word` (the
    /// bit-blaster's layout of a blastable memory, cell 0 in the lowest bits).
    pub fn from_word(sort: ArraySort, word: &Bv) -> Mem {
        let mut mem = Mem::constant(sort, Bv::zero(sort.elem));
        let ew = sort.elem;
        for c in 0..(word.width() / ew.max(1)) {
            mem.write(
                Bv::from_u64(sort.index, c as u64),
                word.slice((c + 1) * ew - 1, c * ew),
            );
        }
        mem
    }
}

/// The value of a node: a bit-vector or a memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    /// A bit-vector.
    Bv(Bv),
    /// A memory.
    Mem(Mem),
}

impl Val {
    /// The bit-vector, if this is one.
    pub fn bv(&self) -> Option<&Bv> {
        match self {
            Val::Bv(b) => Some(b),
            Val::Mem(_) => None,
        }
    }
}

fn get_val(vals: &[Option<Val>], a: Arg) -> Result<&Val, String> {
    vals[a.node]
        .as_ref()
        .ok_or_else(|| format!("node {} has no value", a.node))
}

fn get(vals: &[Option<Val>], a: Arg) -> Result<Bv, String> {
    match get_val(vals, a)? {
        Val::Bv(v) if a.neg => Ok(v.not()),
        Val::Bv(v) => Ok(v.clone()),
        Val::Mem(_) => Err(format!("node {} is a memory, not a bit-vector", a.node)),
    }
}

fn get_mem(vals: &[Option<Val>], a: Arg) -> Result<&Mem, String> {
    match get_val(vals, a)? {
        Val::Mem(m) => Ok(m),
        Val::Bv(_) => Err(format!("node {} is a bit-vector, not a memory", a.node)),
    }
}

/// The value of node `n` from its arguments' values in `vals` (inputs and states must be set).
fn eval_node(m: &Model, n: usize, vals: &[Option<Val>]) -> Result<Val, String> {
    let bv = match &m.nodes[n].op {
        Op::Input(_) | Op::State(_) => {
            return vals[n]
                .clone()
                .ok_or_else(|| format!("variable {} has no value", m.nodes[n].id));
        }
        Op::Const(bits) => Bv::from_bits(bits),
        Op::Un(op, a) => get(vals, *a)?.un(*op),
        Op::Bin(op @ (BinOp::Eq | BinOp::Neq), a, b) if m.nodes[a.node].array.is_some() => {
            let same = get_mem(vals, *a)?.same(get_mem(vals, *b)?);
            Bv::b(same == (*op == BinOp::Eq))
        }
        Op::Bin(op, a, b) => get(vals, *a)?.bin(*op, &get(vals, *b)?),
        Op::Ite(c, a, b) => {
            let pick = if get(vals, *c)?.bit(0) { *a } else { *b };
            if m.nodes[n].array.is_some() {
                return Ok(get_val(vals, pick)?.clone());
            }
            get(vals, pick)?
        }
        Op::Slice(a, u, l) => get(vals, *a)?.slice(*u, *l),
        Op::Uext(a, k) => get(vals, *a)?.ext(*k, false),
        Op::Sext(a, k) => get(vals, *a)?.ext(*k, true),
        Op::Read(a, i) => get_mem(vals, *a)?.read(&get(vals, *i)?),
        Op::Write(a, i, v) => {
            let mut mem = get_mem(vals, *a)?.clone();
            mem.write(get(vals, *i)?, get(vals, *v)?);
            return Ok(Val::Mem(mem));
        }
        Op::ConstArray(v) => {
            let sort = m.nodes[n]
                .array
                .ok_or("a constant array of bit-vector sort")?;
            return Ok(Val::Mem(Mem::constant(sort, get(vals, *v)?)));
        }
    };
    Ok(Val::Bv(bv))
}

/// Evaluates every node (in order) given the values of the inputs and states in `vals`.
pub fn eval_all(m: &Model, vals: &mut [Option<Val>]) -> Result<(), String> {
    for n in 0..m.nodes.len() {
        if !matches!(m.nodes[n].op, Op::Input(_) | Op::State(_)) {
            vals[n] = Some(eval_node(m, n, vals)?);
        }
    }
    Ok(())
}

/// Evaluates the cone of `root` (states and inputs must be set in it).
fn eval_cone(m: &Model, root: usize, vals: &mut [Option<Val>]) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![root];
    let mut cone = Vec::new();
    while let Some(n) = stack.pop() {
        if !seen.insert(n) {
            continue;
        }
        cone.push(n);
        stack.extend(m.nodes[n].op.args().iter().map(|a| a.node));
    }
    cone.sort_unstable();
    for n in cone {
        if !matches!(m.nodes[n].op, Op::Input(_) | Op::State(_)) {
            vals[n] = Some(eval_node(m, n, vals)?);
        }
    }
    Ok(())
}

/// One frame of a witness: assignments of states (`#k`) and inputs (`@k`) by position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    /// `(state index, value)` of bit-vector states.
    pub states: Vec<(usize, Bv)>,
    /// Cells of array states (`i [index] value` lines): `(state index, index, value)`.
    pub cells: Vec<(usize, Bv, Bv)>,
    /// Defaults of array states (`i [*] value` lines): the value of every cell the frame
    /// does not list. An array state the frame gives cells of but no default is zero
    /// elsewhere.
    pub defaults: Vec<(usize, Bv)>,
    /// `(input index, value)`.
    pub inputs: Vec<(usize, Bv)>,
}

impl Frame {
    /// Adds the cells of memory `mem`, the value of array state `i`: its default when it is
    /// not zero, then the cells that differ from it.
    pub fn push_mem(&mut self, i: usize, mem: &Mem) {
        if !mem.default.is_zero() {
            self.defaults.push((i, mem.default.clone()));
        }
        for (idx, v) in &mem.cells {
            self.cells.push((i, idx.clone(), v.clone()));
        }
    }
}

/// A BTOR2 witness: the bad property reached and the frames `0..=k`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Witness {
    /// Index of the bad property (`b<i>`).
    pub bad: usize,
    /// Frames.
    pub frames: Vec<Frame>,
}

/// Prints `w` in the BTOR2 witness format (`sat`, `b<i>`, `#k`/`@k` frames, `.`); values are
/// binary, followed by the symbol (`name#k` / `name@k`) when the variable has one. Memories
/// are given by cells, `i [index] value`, after their default `i [*] value` when it is not
/// zero.
pub fn format_witness(m: &Model, w: &Witness) -> String {
    let mut s = format!("sat\nb{}\n", w.bad);
    for (k, f) in w.frames.iter().enumerate() {
        if k == 0 || !f.states.is_empty() || !f.cells.is_empty() || !f.defaults.is_empty() {
            let _ = writeln!(s, "#{k}");
        }
        let name = |i: usize| m.states.get(i).and_then(|x| x.name.as_ref());
        let line = |s: &mut String, i: usize, idx: Option<&str>, v: &Bv| {
            let _ = write!(s, "{i} ");
            if let Some(idx) = idx {
                let _ = write!(s, "[{idx}] ");
            }
            s.push_str(&v.to_binary());
            if let Some(n) = name(i) {
                let _ = write!(s, " {n}#{k}");
            }
            s.push('\n');
        };
        for (i, v) in &f.states {
            line(&mut s, *i, None, v);
        }
        for (i, v) in &f.defaults {
            line(&mut s, *i, Some("*"), v);
        }
        for (i, idx, v) in &f.cells {
            line(&mut s, *i, Some(&idx.to_binary()), v);
        }
        let _ = writeln!(s, "@{k}");
        for (i, v) in &f.inputs {
            let _ = write!(s, "{i} {}", v.to_binary());
            if let Some(n) = m.inputs.get(*i).and_then(|x| x.name.as_ref()) {
                let _ = write!(s, " {n}@{k}");
            }
            s.push('\n');
        }
    }
    s.push_str(".\n");
    s
}

/// Reads a witness in the BTOR2 witness format (one property; comments `;` ignored).
pub fn parse_witness(text: &str) -> Result<Witness, String> {
    let mut lines = text
        .lines()
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .enumerate()
        .filter(|(_, l)| !l.is_empty());
    match lines.next() {
        Some((_, "sat")) => {}
        _ => return Err("a witness starts with 'sat'".into()),
    }
    let bad = match lines.next() {
        Some((_, l)) if l.starts_with('b') => l[1..]
            .split_whitespace()
            .next()
            .and_then(|x| x.parse::<usize>().ok())
            .ok_or("bad 'b' line")?,
        _ => return Err("missing 'b<i>' line".into()),
    };
    let mut w = Witness {
        bad,
        frames: Vec::new(),
    };
    // Which part assignments go to: (frame, is_state).
    let mut cur: Option<(usize, bool)> = None;
    for (no, l) in lines {
        let err = |msg: &str| format!("witness line {}: {msg}", no + 1);
        if l == "." {
            return Ok(w);
        }
        if let Some(rest) = l.strip_prefix('#').or_else(|| l.strip_prefix('@')) {
            let k: usize = rest.parse().map_err(|_| err("bad frame number"))?;
            let state = l.starts_with('#');
            if k == w.frames.len() {
                w.frames.push(Frame::default());
            } else if k + 1 != w.frames.len() {
                return Err(err("frames out of order"));
            }
            cur = Some((k, state));
            continue;
        }
        let Some((k, state)) = cur else {
            return Err(err("assignment outside a frame"));
        };
        let mut t = l.split_whitespace();
        let pos: usize = t
            .next()
            .and_then(|x| x.parse().ok())
            .ok_or_else(|| err("bad position"))?;
        let mut v = t.next().ok_or_else(|| err("missing value"))?;
        let f = &mut w.frames[k];
        if let Some(idx) = v.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
            // An array cell `i [index] value`, or its default `i [*] value`.
            v = t.next().ok_or_else(|| err("missing cell value"))?;
            let v = Bv::from_binary(v).ok_or_else(|| err("bad binary value"))?;
            if !state {
                return Err(err("array cells are given for states only"));
            }
            if idx == "*" {
                f.defaults.push((pos, v));
            } else {
                let idx = Bv::from_binary(idx).ok_or_else(|| err("bad binary index"))?;
                f.cells.push((pos, idx, v));
            }
            continue;
        }
        let v = Bv::from_binary(v).ok_or_else(|| err("bad binary value"))?;
        if state {
            f.states.push((pos, v));
        } else {
            f.inputs.push((pos, v));
        }
    }
    Err("the witness does not end with '.'".into())
}

/// Replays `w` on `m`: the initial state (uninitialised states from frame 0, the others from
/// their `init`), then per frame the inputs (and the values of states without `next`); every
/// constraint must hold in every frame, and the bad property `w.bad` in the last one.
pub fn check_witness(m: &Model, w: &Witness) -> Result<(), String> {
    if w.bad >= m.bads.len() {
        return Err(format!("b{} names no bad property", w.bad));
    }
    if w.frames.is_empty() {
        return Err("the witness has no frames".into());
    }
    let n = m.nodes.len();
    let assign = |vals: &mut Vec<Option<Val>>,
                  list: &[(usize, Bv)],
                  nodes: &dyn Fn(usize) -> Option<usize>,
                  what: &str|
     -> Result<(), String> {
        for (i, v) in list {
            let node = nodes(*i).ok_or_else(|| format!("{what} {i} does not exist"))?;
            if m.nodes[node].array.is_some() {
                return Err(format!("{what} {i} is an array: give its cells"));
            }
            if v.width() != m.nodes[node].width {
                return Err(format!(
                    "{what} {i} has width {}, the value {}",
                    m.nodes[node].width,
                    v.width()
                ));
            }
            vals[node] = Some(Val::Bv(v.clone()));
        }
        Ok(())
    };
    let state_node = |i: usize| m.states.get(i).map(|s| s.node);
    let input_node = |i: usize| m.inputs.get(i).map(|s| s.node);
    let konst = m.constant_nodes();
    // Array states given by the frame: their defaults (zero when not given), then cells.
    let assign_mems = |vals: &mut Vec<Option<Val>>, f: &Frame| -> Result<(), String> {
        let sort_of = |i: usize| -> Result<(usize, ArraySort), String> {
            let node = state_node(i).ok_or_else(|| format!("state {i} does not exist"))?;
            let sort = m.nodes[node]
                .array
                .ok_or_else(|| format!("state {i} is not an array"))?;
            Ok((node, sort))
        };
        let mut given: BTreeMap<usize, Mem> = BTreeMap::new();
        for (i, v) in &f.defaults {
            let (_, sort) = sort_of(*i)?;
            if v.width() != sort.elem {
                return Err(format!(
                    "default of state {i}: width does not match its sort"
                ));
            }
            if given.insert(*i, Mem::constant(sort, v.clone())).is_some() {
                return Err(format!("state {i} has two defaults"));
            }
        }
        for (i, idx, v) in &f.cells {
            let (_, sort) = sort_of(*i)?;
            if idx.width() != sort.index || v.width() != sort.elem {
                return Err(format!("cell of state {i}: widths do not match its sort"));
            }
            given
                .entry(*i)
                .or_insert_with(|| Mem::constant(sort, Bv::zero(sort.elem)))
                .write(idx.clone(), v.clone());
        }
        for (i, mem) in given {
            vals[sort_of(i)?.0] = Some(Val::Mem(mem));
        }
        Ok(())
    };
    // An array state the witness gives no value for is zero in every cell (a witness
    // lists the nonzero cells of a memory).
    let zero_arrays = |vals: &mut Vec<Option<Val>>, first: bool| {
        for s in &m.states {
            let free = if first {
                s.init.is_none()
            } else {
                s.next.is_none()
            };
            if let Some(sort) = m.nodes[s.node].array
                && free
                && vals[s.node].is_none()
            {
                vals[s.node] = Some(Val::Mem(Mem::constant(sort, Bv::zero(sort.elem))));
            }
        }
    };
    let value = |vals: &[Option<Val>], a: Arg| -> Result<Val, String> {
        if a.neg {
            Ok(Val::Bv(get(vals, a)?))
        } else {
            Ok(get_val(vals, a)?.clone())
        }
    };
    let mut vals: Vec<Option<Val>> = vec![None; n];
    // Initial state.
    assign(&mut vals, &w.frames[0].states, &state_node, "state")?;
    assign_mems(&mut vals, &w.frames[0])?;
    zero_arrays(&mut vals, true);
    for s in &m.states {
        if let Some(v) = s.init
            && konst[v.node]
        {
            eval_cone(m, v.node, &mut vals)?;
            vals[s.node] = Some(value(&vals, v)?);
        }
    }
    for &si in &m.init_order {
        let s = &m.states[si];
        let v = s.init.ok_or("init order names a state without init")?;
        eval_cone(m, v.node, &mut vals)?;
        vals[s.node] = Some(value(&vals, v)?);
    }
    let last = w.frames.len() - 1;
    for (k, f) in w.frames.iter().enumerate() {
        if k > 0 {
            // A value the frame gives for a state with `next` must be the one computed.
            let mut given: Vec<usize> = (f.states.iter().map(|x| x.0))
                .chain(f.cells.iter().map(|x| x.0))
                .chain(f.defaults.iter().map(|x| x.0))
                .filter(|&i| m.states.get(i).is_some_and(|s| s.next.is_some()))
                .collect();
            given.sort_unstable();
            given.dedup();
            let computed: Vec<(usize, Option<Val>)> = given
                .iter()
                .map(|&i| (i, vals[m.states[i].node].clone()))
                .collect();
            assign(&mut vals, &f.states, &state_node, "state")?;
            assign_mems(&mut vals, f)?;
            zero_arrays(&mut vals, false);
            for (i, before) in computed {
                let s = &m.states[i];
                let agree = match (&before, &vals[s.node]) {
                    (Some(Val::Mem(a)), Some(Val::Mem(b))) => a.same(b),
                    (a, b) => a == b,
                };
                if !agree {
                    return Err(format!(
                        "frame {k}: state {} has a next-state function, the witness gives \
                         another value",
                        m.nodes[s.node].id
                    ));
                }
            }
        }
        // Every input and state has a value in this frame.
        for s in &m.states {
            if vals[s.node].is_none() {
                return Err(format!(
                    "frame {k}: state {} has no value",
                    m.nodes[s.node].id
                ));
            }
        }
        assign(&mut vals, &f.inputs, &input_node, "input")?;
        for i in &m.inputs {
            if vals[i.node].is_none() {
                return Err(format!(
                    "frame {k}: input {} has no value",
                    m.nodes[i.node].id
                ));
            }
        }
        eval_all(m, &mut vals)?;
        for (ci, &c) in m.constraints.iter().enumerate() {
            if !get(&vals, c)?.bit(0) {
                return Err(format!("frame {k}: constraint {ci} is violated"));
            }
        }
        if k == last {
            return if get(&vals, m.bads[w.bad])?.bit(0) {
                Ok(())
            } else {
                Err(format!(
                    "bad property {} does not hold in the last frame",
                    w.bad
                ))
            };
        }
        let mut next: Vec<Option<Val>> = vec![None; n];
        for s in &m.states {
            if let Some(v) = s.next {
                next[s.node] = Some(value(&vals, v)?);
            }
        }
        vals = next;
    }
    Err("no frames".into())
}
