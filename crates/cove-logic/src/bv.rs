//! The SMT-LIB `FixedSizeBitVectors` theory: values, operators, their meaning, and the
//! word-level normalisation every constructor applies.
//!
//! # Representation
//! A bit-vector sort is [`Sort::BitVec`]`(w)` with `w ≥ 1`. Every bit-vector operator is one
//! variant of [`BvOp`] under the single [`Op::Bv`] operator, so the rest of the term language
//! (and every crate matching on [`Op`]) sees one new case, not forty. Values are
//! [`BvValue`]s: a width and a big unsigned integer below `2^w`, so any width the
//! representation admits is exact (there is no 64-bit ceiling anywhere in this module).
//!
//! # A small core, the rest by definition
//! Only a core of operators is kept in terms; the parser expands the others by their SMT-LIB
//! definitions (`bvnand` → `bvnot ∘ bvand`, `bvsub` → `bvadd` of `bvneg`, `bvugt` → `bvult`
//! with swapped arguments, `bvcomp`, rotations and `repeat` → `ite`/`concat`/`extract`). Every
//! consumer — evaluation, simplification, bit-blasting, printing — then handles fewer cases,
//! and expanded terms print as equivalent SMT-LIB. The signed division family stays in the
//! core because its definitions would duplicate large subterms.
//!
//! # Division by zero
//! SMT-LIB (since 2.6) fixes the results: `bvudiv s 0 = 1…1`, `bvurem s 0 = s`, and the signed
//! variants follow from their definitions in terms of the unsigned ones. Evaluation therefore
//! never fails on a bit-vector operator.
//!
//! # Integers
//! `bv2nat` (z3 also spells it `bv2int`) reads a bit-vector as a natural number;
//! `(_ nat2bv w)` and z3's `(_ int2bv w)` take an integer modulo `2^w` (z3's meaning, for
//! negative integers too).

use crate::model::Value;
use crate::term::{Op, Sort, SortError, TermId, TermStore};
use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::{One, Zero};
use std::fmt;

/// The widest bit-vector sort accepted (2^24 bits): wider sorts are refused with a clear
/// message instead of exhausting memory when they are bit-blasted.
pub const MAX_WIDTH: u32 = 1 << 24;

/// A bit-vector value: `bits < 2^width`.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct BvValue {
    width: u32,
    bits: BigUint,
}

fn modulus(width: u32) -> BigUint {
    BigUint::one() << width as usize
}

impl BvValue {
    /// `bits mod 2^width`.
    pub fn new(width: u32, bits: BigUint) -> BvValue {
        debug_assert!(width >= 1);
        let bits = if bits.bits() > width as u64 {
            bits % modulus(width)
        } else {
            bits
        };
        BvValue { width, bits }
    }

    /// `n mod 2^width` (two's complement for negative `n`).
    pub fn from_int(width: u32, n: &BigInt) -> BvValue {
        let m = BigInt::from(modulus(width));
        let r = n.mod_floor(&m);
        BvValue::new(width, r.to_biguint().expect("non-negative remainder"))
    }

    /// `n mod 2^width`.
    pub fn from_u64(width: u32, n: u64) -> BvValue {
        BvValue::new(width, BigUint::from(n))
    }

    /// The all-zero value.
    pub fn zero(width: u32) -> BvValue {
        BvValue::new(width, BigUint::zero())
    }

    /// The all-one value.
    pub fn ones(width: u32) -> BvValue {
        BvValue::new(width, modulus(width) - 1u32)
    }

    /// The value from its bits, least significant first.
    pub fn from_bits(bits: &[bool]) -> BvValue {
        let mut n = BigUint::zero();
        for (i, &b) in bits.iter().enumerate() {
            if b {
                n.set_bit(i as u64, true);
            }
        }
        BvValue::new(bits.len() as u32, n)
    }

    /// The width.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The value as an unsigned integer.
    pub fn to_biguint(&self) -> &BigUint {
        &self.bits
    }

    /// The value as a natural number.
    pub fn to_nat(&self) -> BigInt {
        BigInt::from(self.bits.clone())
    }

    /// The value read in two's complement.
    pub fn to_signed(&self) -> BigInt {
        if self.msb() {
            BigInt::from(self.bits.clone()) - BigInt::from(modulus(self.width))
        } else {
            BigInt::from(self.bits.clone())
        }
    }

    /// The value if it fits in a `u64`.
    pub fn to_u64(&self) -> Option<u64> {
        u64::try_from(&self.bits).ok()
    }

    /// Bit `i` (0 is the least significant).
    pub fn bit(&self, i: u32) -> bool {
        self.bits.bit(i as u64)
    }

    /// The most significant (sign) bit.
    pub fn msb(&self) -> bool {
        self.bit(self.width - 1)
    }

    /// True for the all-zero value.
    pub fn is_zero(&self) -> bool {
        self.bits.is_zero()
    }

    /// True for the all-one value.
    pub fn is_ones(&self) -> bool {
        self.bits.count_ones() == self.width as u64
    }

    fn same(&self, bits: BigUint) -> BvValue {
        BvValue::new(self.width, bits)
    }

    /// `bvnot`.
    pub fn not(&self) -> BvValue {
        self.same(modulus(self.width) - 1u32 - &self.bits)
    }

    /// `bvneg`.
    pub fn neg(&self) -> BvValue {
        if self.is_zero() {
            return self.clone();
        }
        self.same(modulus(self.width) - &self.bits)
    }

    /// `bvand`.
    pub fn and(&self, o: &BvValue) -> BvValue {
        self.same(&self.bits & &o.bits)
    }

    /// `bvor`.
    pub fn or(&self, o: &BvValue) -> BvValue {
        self.same(&self.bits | &o.bits)
    }

    /// `bvxor`.
    pub fn xor(&self, o: &BvValue) -> BvValue {
        self.same(&self.bits ^ &o.bits)
    }

    /// `bvadd`.
    pub fn add(&self, o: &BvValue) -> BvValue {
        self.same(&self.bits + &o.bits)
    }

    /// `bvsub`.
    pub fn sub(&self, o: &BvValue) -> BvValue {
        self.add(&o.neg())
    }

    /// `bvmul`.
    pub fn mul(&self, o: &BvValue) -> BvValue {
        self.same(&self.bits * &o.bits)
    }

    /// `bvudiv` (`s / 0 = 1…1`).
    pub fn udiv(&self, o: &BvValue) -> BvValue {
        if o.is_zero() {
            return BvValue::ones(self.width);
        }
        self.same(&self.bits / &o.bits)
    }

    /// `bvurem` (`s % 0 = s`).
    pub fn urem(&self, o: &BvValue) -> BvValue {
        if o.is_zero() {
            return self.clone();
        }
        self.same(&self.bits % &o.bits)
    }

    /// `bvsdiv`, by its SMT-LIB definition.
    pub fn sdiv(&self, o: &BvValue) -> BvValue {
        match (self.msb(), o.msb()) {
            (false, false) => self.udiv(o),
            (true, false) => self.neg().udiv(o).neg(),
            (false, true) => self.udiv(&o.neg()).neg(),
            (true, true) => self.neg().udiv(&o.neg()),
        }
    }

    /// `bvsrem`, by its SMT-LIB definition.
    pub fn srem(&self, o: &BvValue) -> BvValue {
        match (self.msb(), o.msb()) {
            (false, false) => self.urem(o),
            (true, false) => self.neg().urem(o).neg(),
            (false, true) => self.urem(&o.neg()),
            (true, true) => self.neg().urem(&o.neg()).neg(),
        }
    }

    /// `bvsmod`, by its SMT-LIB definition.
    pub fn smod(&self, o: &BvValue) -> BvValue {
        let abs_s = if self.msb() { self.neg() } else { self.clone() };
        let abs_t = if o.msb() { o.neg() } else { o.clone() };
        let u = abs_s.urem(&abs_t);
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

    fn shift_amount(&self, o: &BvValue) -> Option<usize> {
        o.to_u64()
            .filter(|&k| k < self.width as u64)
            .map(|k| k as usize)
    }

    /// `bvshl`.
    pub fn shl(&self, o: &BvValue) -> BvValue {
        match self.shift_amount(o) {
            Some(k) => self.same(&self.bits << k),
            None => BvValue::zero(self.width),
        }
    }

    /// `bvlshr`.
    pub fn lshr(&self, o: &BvValue) -> BvValue {
        match self.shift_amount(o) {
            Some(k) => self.same(&self.bits >> k),
            None => BvValue::zero(self.width),
        }
    }

    /// `bvashr`.
    pub fn ashr(&self, o: &BvValue) -> BvValue {
        let k = self.shift_amount(o).unwrap_or(self.width as usize);
        let shifted = self.to_signed() >> k;
        BvValue::from_int(self.width, &shifted)
    }

    /// `concat self o` (`self` is the high part).
    pub fn concat(&self, o: &BvValue) -> BvValue {
        BvValue::new(
            self.width + o.width,
            (&self.bits << o.width as usize) | &o.bits,
        )
    }

    /// `(_ extract hi lo)`.
    pub fn extract(&self, hi: u32, lo: u32) -> BvValue {
        BvValue::new(hi - lo + 1, &self.bits >> lo as usize)
    }

    /// `(_ zero_extend k)`.
    pub fn zero_extend(&self, k: u32) -> BvValue {
        BvValue::new(self.width + k, self.bits.clone())
    }

    /// `(_ sign_extend k)`.
    pub fn sign_extend(&self, k: u32) -> BvValue {
        BvValue::from_int(self.width + k, &self.to_signed())
    }

    /// `bvult`.
    pub fn ult(&self, o: &BvValue) -> bool {
        self.bits < o.bits
    }

    /// `bvule`.
    pub fn ule(&self, o: &BvValue) -> bool {
        self.bits <= o.bits
    }

    /// `bvslt`.
    pub fn slt(&self, o: &BvValue) -> bool {
        self.to_signed() < o.to_signed()
    }

    /// `bvsle`.
    pub fn sle(&self, o: &BvValue) -> bool {
        self.to_signed() <= o.to_signed()
    }
}

impl fmt::Display for BvValue {
    /// SMT-LIB: `#x…` when the width is a multiple of 4, else `#b…`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.width.is_multiple_of(4) {
            let digits = self.bits.to_str_radix(16);
            let pad = (self.width / 4) as usize - digits.len();
            write!(f, "#x{}{}", "0".repeat(pad), digits)
        } else {
            let digits = self.bits.to_str_radix(2);
            let pad = self.width as usize - digits.len();
            write!(f, "#b{}{}", "0".repeat(pad), digits)
        }
    }
}

/// A bit-vector operator (the payload of [`Op::Bv`]). Indices are part of the operator.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum BvOp {
    /// A literal; the term's sort gives the width.
    Lit(BvValue),
    /// `concat` (binary, the first argument is the high part).
    Concat,
    /// `(_ extract hi lo)`.
    Extract(u32, u32),
    /// `bvnot`.
    Not,
    /// `bvand` (binary).
    And,
    /// `bvor` (binary).
    Or,
    /// `bvxor` (binary).
    Xor,
    /// `bvneg`.
    Neg,
    /// `bvadd` (binary).
    Add,
    /// `bvmul` (binary).
    Mul,
    /// `bvudiv`.
    Udiv,
    /// `bvurem`.
    Urem,
    /// `bvsdiv`.
    Sdiv,
    /// `bvsrem`.
    Srem,
    /// `bvsmod`.
    Smod,
    /// `bvshl`.
    Shl,
    /// `bvlshr`.
    Lshr,
    /// `bvashr`.
    Ashr,
    /// `(_ zero_extend k)`.
    ZeroExtend(u32),
    /// `(_ sign_extend k)`.
    SignExtend(u32),
    /// `bvult` (Bool).
    Ult,
    /// `bvule` (Bool).
    Ule,
    /// `bvslt` (Bool).
    Slt,
    /// `bvsle` (Bool).
    Sle,
    /// `bv2nat`: the natural number a bit-vector denotes (Int).
    ToNat,
    /// `(_ nat2bv w)` / `(_ int2bv w)`: an integer modulo `2^w`; the sort gives `w`.
    OfInt,
}

impl BvOp {
    /// The SMT-LIB name (without indices).
    pub fn name(&self) -> &'static str {
        match self {
            BvOp::Lit(_) => "bv",
            BvOp::Concat => "concat",
            BvOp::Extract(..) => "extract",
            BvOp::Not => "bvnot",
            BvOp::And => "bvand",
            BvOp::Or => "bvor",
            BvOp::Xor => "bvxor",
            BvOp::Neg => "bvneg",
            BvOp::Add => "bvadd",
            BvOp::Mul => "bvmul",
            BvOp::Udiv => "bvudiv",
            BvOp::Urem => "bvurem",
            BvOp::Sdiv => "bvsdiv",
            BvOp::Srem => "bvsrem",
            BvOp::Smod => "bvsmod",
            BvOp::Shl => "bvshl",
            BvOp::Lshr => "bvlshr",
            BvOp::Ashr => "bvashr",
            BvOp::ZeroExtend(_) => "zero_extend",
            BvOp::SignExtend(_) => "sign_extend",
            BvOp::Ult => "bvult",
            BvOp::Ule => "bvule",
            BvOp::Slt => "bvslt",
            BvOp::Sle => "bvsle",
            BvOp::ToNat => "bv2nat",
            BvOp::OfInt => "nat2bv",
        }
    }

    /// The operator's head as SMT-LIB prints it, e.g. `bvadd` or `(_ extract 7 0)`;
    /// `width` is the result width (needed by `nat2bv`).
    pub fn head(&self, width: u32) -> String {
        match self {
            BvOp::Extract(h, l) => format!("(_ extract {h} {l})"),
            BvOp::ZeroExtend(k) => format!("(_ zero_extend {k})"),
            BvOp::SignExtend(k) => format!("(_ sign_extend {k})"),
            BvOp::OfInt => format!("(_ nat2bv {width})"),
            _ => self.name().to_string(),
        }
    }

    /// True for the comparison operators (Bool result).
    pub fn is_predicate(&self) -> bool {
        matches!(self, BvOp::Ult | BvOp::Ule | BvOp::Slt | BvOp::Sle)
    }
}

impl Sort {
    /// True for bit-vector sorts.
    pub fn is_bv(self) -> bool {
        matches!(self, Sort::BitVec(_))
    }

    /// The width of a bit-vector sort.
    pub fn bv_width(self) -> Option<u32> {
        match self {
            Sort::BitVec(w) => Some(w),
            _ => None,
        }
    }
}

/// The result sort of `op` on arguments of sorts `sorts`, or why they do not fit.
/// `width` is the declared result width of `nat2bv`.
pub fn result_sort(op: &BvOp, sorts: &[Sort], width: Option<u32>) -> Result<Sort, SortError> {
    let err = |m: String| Err(SortError(m));
    let name = op.name();
    let arity = match op {
        BvOp::Lit(_) => 0,
        BvOp::Concat
        | BvOp::And
        | BvOp::Or
        | BvOp::Xor
        | BvOp::Add
        | BvOp::Mul
        | BvOp::Udiv
        | BvOp::Urem
        | BvOp::Sdiv
        | BvOp::Srem
        | BvOp::Smod
        | BvOp::Shl
        | BvOp::Lshr
        | BvOp::Ashr
        | BvOp::Ult
        | BvOp::Ule
        | BvOp::Slt
        | BvOp::Sle => 2,
        _ => 1,
    };
    if sorts.len() != arity {
        return err(format!(
            "'{name}' expects {arity} arguments, got {}",
            sorts.len()
        ));
    }
    let widths: Vec<u32> = match op {
        BvOp::OfInt => vec![],
        _ => match sorts
            .iter()
            .map(|s| s.bv_width())
            .collect::<Option<Vec<u32>>>()
        {
            Some(w) => w,
            None => {
                let got: Vec<String> = sorts.iter().map(|s| s.to_string()).collect();
                return err(format!(
                    "'{name}' expects bit-vector arguments, got ({})",
                    got.join(" ")
                ));
            }
        },
    };
    let checked = |w: u64| -> Result<Sort, SortError> {
        if w == 0 || w > MAX_WIDTH as u64 {
            return err(format!(
                "'{name}' would build a bit-vector of width {w} (supported: 1 to {MAX_WIDTH})"
            ));
        }
        Ok(Sort::BitVec(w as u32))
    };
    match op {
        BvOp::Lit(v) => checked(v.width() as u64),
        BvOp::Concat => checked(widths[0] as u64 + widths[1] as u64),
        BvOp::Extract(h, l) => {
            if h < l || *h >= widths[0] {
                return err(format!(
                    "'(_ extract {h} {l})' needs {l} <= {h} < {}",
                    widths[0]
                ));
            }
            checked((h - l + 1) as u64)
        }
        BvOp::Not | BvOp::Neg => Ok(sorts[0]),
        BvOp::ZeroExtend(k) | BvOp::SignExtend(k) => checked(widths[0] as u64 + *k as u64),
        BvOp::ToNat => Ok(Sort::Int),
        BvOp::OfInt => {
            if sorts[0] != Sort::Int {
                return err(format!(
                    "'{name}' expects an Int argument, got {}",
                    sorts[0]
                ));
            }
            checked(width.unwrap_or(0) as u64)
        }
        _ => {
            if widths[0] != widths[1] {
                return err(format!(
                    "'{name}' expects two bit-vectors of one width, got ({} {})",
                    sorts[0], sorts[1]
                ));
            }
            if op.is_predicate() {
                Ok(Sort::Bool)
            } else {
                Ok(sorts[0])
            }
        }
    }
}

/// The value of `op` applied to `vals`; `sort` is the result sort.
pub fn eval(op: &BvOp, vals: &[Value], sort: Sort) -> Value {
    let bv = |i: usize| match &vals[i] {
        Value::Bv(v) => v,
        _ => unreachable!("well-sorted bit-vector term"),
    };
    let b = Value::Bool;
    let v = |x: BvValue| Value::Bv(x);
    match op {
        BvOp::Lit(x) => v(x.clone()),
        BvOp::Concat => v(bv(0).concat(bv(1))),
        BvOp::Extract(h, l) => v(bv(0).extract(*h, *l)),
        BvOp::Not => v(bv(0).not()),
        BvOp::And => v(bv(0).and(bv(1))),
        BvOp::Or => v(bv(0).or(bv(1))),
        BvOp::Xor => v(bv(0).xor(bv(1))),
        BvOp::Neg => v(bv(0).neg()),
        BvOp::Add => v(bv(0).add(bv(1))),
        BvOp::Mul => v(bv(0).mul(bv(1))),
        BvOp::Udiv => v(bv(0).udiv(bv(1))),
        BvOp::Urem => v(bv(0).urem(bv(1))),
        BvOp::Sdiv => v(bv(0).sdiv(bv(1))),
        BvOp::Srem => v(bv(0).srem(bv(1))),
        BvOp::Smod => v(bv(0).smod(bv(1))),
        BvOp::Shl => v(bv(0).shl(bv(1))),
        BvOp::Lshr => v(bv(0).lshr(bv(1))),
        BvOp::Ashr => v(bv(0).ashr(bv(1))),
        BvOp::ZeroExtend(k) => v(bv(0).zero_extend(*k)),
        BvOp::SignExtend(k) => v(bv(0).sign_extend(*k)),
        BvOp::Ult => b(bv(0).ult(bv(1))),
        BvOp::Ule => b(bv(0).ule(bv(1))),
        BvOp::Slt => b(bv(0).slt(bv(1))),
        BvOp::Sle => b(bv(0).sle(bv(1))),
        BvOp::ToNat => Value::Num(crate::Rational::from_bigint(bv(0).to_nat())),
        BvOp::OfInt => {
            let n = vals[0].as_num().expect("Int argument").numer();
            v(BvValue::from_int(
                sort.bv_width().expect("bit-vector sort"),
                &n,
            ))
        }
    }
}

impl TermStore {
    /// The bit-vector literal `v`.
    pub fn mk_bv_lit(&mut self, v: BvValue) -> TermId {
        let sort = Sort::BitVec(v.width());
        self.mk_raw(Op::Bv(BvOp::Lit(v)), &[], sort)
    }

    /// The literal `n mod 2^width`.
    pub fn mk_bv_u64(&mut self, width: u32, n: u64) -> TermId {
        self.mk_bv_lit(BvValue::from_u64(width, n))
    }

    /// If `t` is a bit-vector literal, its value.
    pub fn as_bv(&self, t: TermId) -> Option<&BvValue> {
        match self.op(t) {
            Op::Bv(BvOp::Lit(v)) => Some(v),
            _ => None,
        }
    }

    /// Checked, normalising constructor of `op(args)` (`width`: the result width of
    /// `nat2bv`, ignored otherwise). Folds constants and applies the word-level rules of
    /// `normalize`; the result is equivalent to `op(args)`.
    pub fn mk_bv(
        &mut self,
        op: BvOp,
        args: &[TermId],
        width: Option<u32>,
    ) -> Result<TermId, SortError> {
        let sorts: Vec<Sort> = args.iter().map(|&a| self.sort(a)).collect();
        let sort = result_sort(&op, &sorts, width)?;
        Ok(self.mk_bv_sorted(op, args, sort))
    }

    /// [`TermStore::mk_bv`] for well-sorted arguments (`sort`: the result sort).
    pub fn mk_bv_sorted(&mut self, op: BvOp, args: &[TermId], sort: Sort) -> TermId {
        debug_assert_eq!(
            result_sort(
                &op,
                &args.iter().map(|&a| self.sort(a)).collect::<Vec<_>>(),
                sort.bv_width()
            ),
            Ok(sort)
        );
        if !matches!(op, BvOp::Lit(_))
            && let Some(t) = normalize(self, &op, args, sort)
        {
            return t;
        }
        self.mk_raw(Op::Bv(op), args, sort)
    }

    /// `(_ extract hi lo)` of a well-sorted `t`.
    pub fn mk_extract(&mut self, hi: u32, lo: u32, t: TermId) -> TermId {
        self.mk_bv_sorted(BvOp::Extract(hi, lo), &[t], Sort::BitVec(hi - lo + 1))
    }

    /// `(concat hi lo)`.
    pub fn mk_concat(&mut self, hi: TermId, lo: TermId) -> TermId {
        let w = self.sort(hi).bv_width().expect("bv") + self.sort(lo).bv_width().expect("bv");
        self.mk_bv_sorted(BvOp::Concat, &[hi, lo], Sort::BitVec(w))
    }
}

/// Word-level rewriting applied by every constructor: constant folding, neutral and
/// absorbing elements, `extract`/`concat` simplification. Returns `None` when no rule
/// applies (the caller builds the term as is).
fn normalize(store: &mut TermStore, op: &BvOp, args: &[TermId], sort: Sort) -> Option<TermId> {
    // Constant folding.
    let consts: Option<Vec<Value>> = args
        .iter()
        .map(|&a| match store.op(a) {
            Op::Bv(BvOp::Lit(v)) => Some(Value::Bv(v.clone())),
            Op::Num(n) if *op == BvOp::OfInt => Some(Value::Num(n.clone())),
            _ => None,
        })
        .collect();
    if let Some(vals) = consts {
        return Some(match eval(op, &vals, sort) {
            Value::Bv(v) => store.mk_bv_lit(v),
            Value::Bool(b) => store.mk_bool(b),
            Value::Num(n) => store.mk_num(n, Sort::Int),
            Value::Array(_) | Value::Dt(_) => unreachable!("bit-vector operators return no arrays"),
        });
    }
    let lit = |i: usize| store.as_bv(args[i]).cloned();
    let w = sort.bv_width().unwrap_or(0);
    match op {
        BvOp::Extract(h, l) => {
            let (h, l) = (*h, *l);
            let a = args[0];
            let aw = store.sort(a).bv_width().expect("bv");
            if l == 0 && h + 1 == aw {
                return Some(a);
            }
            match store.op(a).clone() {
                Op::Bv(BvOp::Extract(_, l2)) => {
                    let inner = store.args(a)[0];
                    return Some(store.mk_extract(h + l2, l + l2, inner));
                }
                Op::Bv(BvOp::Concat) => {
                    let (hi, lo) = (store.args(a)[0], store.args(a)[1]);
                    let lw = store.sort(lo).bv_width().expect("bv");
                    if h < lw {
                        return Some(store.mk_extract(h, l, lo));
                    }
                    if l >= lw {
                        return Some(store.mk_extract(h - lw, l - lw, hi));
                    }
                    let top = store.mk_extract(h - lw, 0, hi);
                    let bot = store.mk_extract(lw - 1, l, lo);
                    return Some(store.mk_concat(top, bot));
                }
                Op::Bv(BvOp::ZeroExtend(_)) => {
                    let inner = store.args(a)[0];
                    let iw = store.sort(inner).bv_width().expect("bv");
                    if h < iw {
                        return Some(store.mk_extract(h, l, inner));
                    }
                    if l >= iw {
                        return Some(store.mk_bv_lit(BvValue::zero(h - l + 1)));
                    }
                }
                Op::Bv(BvOp::SignExtend(_)) => {
                    let inner = store.args(a)[0];
                    let iw = store.sort(inner).bv_width().expect("bv");
                    if h < iw {
                        return Some(store.mk_extract(h, l, inner));
                    }
                }
                Op::Bv(BvOp::Not) => {
                    // Bitwise: extract commutes with it.
                    let inner = store.args(a)[0];
                    let e = store.mk_extract(h, l, inner);
                    return Some(store.mk_bv_sorted(BvOp::Not, &[e], sort));
                }
                Op::Bv(o @ (BvOp::And | BvOp::Or | BvOp::Xor)) => {
                    let (x, y) = (store.args(a)[0], store.args(a)[1]);
                    let ex = store.mk_extract(h, l, x);
                    let ey = store.mk_extract(h, l, y);
                    return Some(store.mk_bv_sorted(o, &[ex, ey], sort));
                }
                Op::Ite => {
                    let (c, x, y) = (store.args(a)[0], store.args(a)[1], store.args(a)[2]);
                    if store.as_bv(x).is_some() || store.as_bv(y).is_some() {
                        let ex = store.mk_extract(h, l, x);
                        let ey = store.mk_extract(h, l, y);
                        return Some(store.mk_ite(c, ex, ey));
                    }
                }
                _ => {}
            }
            None
        }
        BvOp::Concat => {
            let (a, b) = (args[0], args[1]);
            // Adjacent extracts of one term merge.
            if let (Op::Bv(BvOp::Extract(h1, l1)), Op::Bv(BvOp::Extract(h2, l2))) =
                (store.op(a).clone(), store.op(b).clone())
            {
                let (x, y) = (store.args(a)[0], store.args(b)[0]);
                if x == y && l1 == h2 + 1 {
                    return Some(store.mk_extract(h1, l2, x));
                }
            }
            // Right-associate so that literal neighbours meet: (concat (concat x c1) c2).
            if let Op::Bv(BvOp::Concat) = store.op(a).clone() {
                let (x, y) = (store.args(a)[0], store.args(a)[1]);
                if store.as_bv(y).is_some() && store.as_bv(b).is_some() {
                    let yb = store.mk_concat(y, b);
                    return Some(store.mk_concat(x, yb));
                }
            }
            None
        }
        BvOp::ZeroExtend(0) | BvOp::SignExtend(0) => Some(args[0]),
        BvOp::Not => match store.op(args[0]) {
            Op::Bv(BvOp::Not) => Some(store.args(args[0])[0]),
            _ => None,
        },
        BvOp::Neg => match store.op(args[0]) {
            Op::Bv(BvOp::Neg) => Some(store.args(args[0])[0]),
            _ => None,
        },
        BvOp::And | BvOp::Or | BvOp::Xor | BvOp::Add | BvOp::Mul => {
            let (a, b) = (args[0], args[1]);
            // Literals second, for the rules below and for sharing.
            if lit(0).is_some() && lit(1).is_none() {
                return Some(store.mk_bv_sorted(op.clone(), &[b, a], sort));
            }
            if let Some(c) = lit(1) {
                if c.is_zero() {
                    match op {
                        BvOp::And | BvOp::Mul => return Some(b),
                        _ => return Some(a),
                    }
                }
                match op {
                    BvOp::And if c.is_ones() => return Some(a),
                    BvOp::Or if c.is_ones() => return Some(b),
                    BvOp::Xor if c.is_ones() => {
                        return Some(store.mk_bv_sorted(BvOp::Not, &[a], sort));
                    }
                    BvOp::Mul if c == BvValue::from_u64(w, 1) => return Some(a),
                    // x · -1 = -x (the negation blasts to one incrementer).
                    BvOp::Mul if c.is_ones() => {
                        return Some(store.mk_bv_sorted(BvOp::Neg, &[a], sort));
                    }
                    BvOp::Add => {
                        // (x + c1) + c2 = x + (c1 + c2).
                        if let Op::Bv(BvOp::Add) = store.op(a)
                            && let Some(c1) = store.as_bv(store.args(a)[1]).cloned()
                        {
                            let x = store.args(a)[0];
                            let s = store.mk_bv_lit(c1.add(&c));
                            return Some(store.mk_bv_sorted(BvOp::Add, &[x, s], sort));
                        }
                    }
                    _ => {}
                }
            }
            if a == b {
                match op {
                    BvOp::And | BvOp::Or => return Some(a),
                    BvOp::Xor => return Some(store.mk_bv_lit(BvValue::zero(w))),
                    _ => {}
                }
            }
            // Commutative: order non-literal arguments by id for sharing.
            if lit(1).is_none() && a > b {
                return Some(store.mk_raw(Op::Bv(op.clone()), &[b, a], sort));
            }
            None
        }
        BvOp::Shl | BvOp::Lshr | BvOp::Ashr => {
            let c = lit(1)?;
            if c.is_zero() {
                return Some(args[0]);
            }
            // Shifts by a constant become extract/concat.
            let k = c.to_u64().filter(|&k| k < w as u64);
            let x = args[0];
            Some(match (op, k) {
                (BvOp::Ashr, None) => {
                    let s = store.mk_extract(w - 1, w - 1, x);
                    store.mk_bv_sorted(BvOp::SignExtend(w - 1), &[s], sort)
                }
                (_, None) => store.mk_bv_lit(BvValue::zero(w)),
                (BvOp::Shl, Some(k)) => {
                    let k = k as u32;
                    let hi = store.mk_extract(w - 1 - k, 0, x);
                    let z = store.mk_bv_lit(BvValue::zero(k));
                    store.mk_concat(hi, z)
                }
                (BvOp::Lshr, Some(k)) => {
                    let k = k as u32;
                    let lo = store.mk_extract(w - 1, k, x);
                    store.mk_bv_sorted(BvOp::ZeroExtend(k), &[lo], sort)
                }
                (_, Some(k)) => {
                    let k = k as u32;
                    let lo = store.mk_extract(w - 1, k, x);
                    store.mk_bv_sorted(BvOp::SignExtend(k), &[lo], sort)
                }
            })
        }
        BvOp::Ult | BvOp::Ule | BvOp::Slt | BvOp::Sle => {
            let (a, b) = (args[0], args[1]);
            if a == b {
                return Some(store.mk_bool(matches!(op, BvOp::Ule | BvOp::Sle)));
            }
            let aw = store.sort(a).bv_width().expect("bv");
            match (op, lit(0), lit(1)) {
                (BvOp::Ult, _, Some(c)) if c.is_zero() => Some(store.mk_false()),
                (BvOp::Ule, Some(c), _) if c.is_zero() => Some(store.mk_true()),
                (BvOp::Ule, _, Some(c)) if c.is_ones() => Some(store.mk_true()),
                (BvOp::Ult, Some(c), _) if c.is_ones() => Some(store.mk_false()),
                (BvOp::Sle, _, Some(c)) if c == signed_max(aw) => Some(store.mk_true()),
                (BvOp::Sle, Some(c), _) if c == signed_min(aw) => Some(store.mk_true()),
                (BvOp::Slt, _, Some(c)) if c == signed_min(aw) => Some(store.mk_false()),
                (BvOp::Slt, Some(c), _) if c == signed_max(aw) => Some(store.mk_false()),
                _ => None,
            }
        }
        BvOp::ToNat => {
            // bv2nat (nat2bv t) stays; nat2bv (bv2nat x) of the same width is x.
            None
        }
        BvOp::OfInt => match store.op(args[0]) {
            Op::Bv(BvOp::ToNat) if store.sort(store.args(args[0])[0]) == sort => {
                Some(store.args(args[0])[0])
            }
            Op::Add | Op::Sub | Op::Neg | Op::Mul => of_int_linear(store, args[0], sort),
            _ => None,
        },
        _ => None,
    }
}

/// `nat2bv` of an integer linear sum, distributed over it: `nat2bv` is a ring homomorphism
/// onto the integers modulo `2^w`, so `nat2bv(Σ c_i·t_i + k) = Σ c_i·nat2bv(t_i) + k` in
/// bit-vector arithmetic.
///
/// # Why
/// solc reads a signed integer `x` as `ite(x ≥ 0, nat2bv(x), bvneg(nat2bv(−x)))`: two
/// leaves whose bits are unrelated for the SAT solver, tied only by integer rows with
/// coefficients up to `2^w`, so every wrong guess of the bits is refuted one assignment at a
/// time (seconds on 16 bits). Distributed, `nat2bv(−x)` is `bvneg(nat2bv(x))`, the `ite`
/// folds, and the bits of `x` exist once. `None` when `t` is not such a sum (a real
/// coefficient, or a single atom with coefficient 1: nothing to distribute).
fn of_int_linear(store: &mut TermStore, t: TermId, sort: Sort) -> Option<TermId> {
    if store.sort(t) != Sort::Int {
        return None;
    }
    let lin = crate::linear::linearize(store, t);
    let integral = lin.constant.is_integer()
        && lin
            .terms
            .iter()
            .all(|(a, c)| c.is_integer() && store.sort(*a) == Sort::Int);
    let trivial = lin.terms.len() == 1 && lin.terms[0].1.is_one() && lin.constant.is_zero();
    if !integral || trivial || lin.terms.is_empty() {
        return None;
    }
    let mut sum: Option<TermId> = None;
    let mut add = |store: &mut TermStore, x: TermId| {
        sum = Some(match sum {
            None => x,
            Some(s) => store.mk_bv_sorted(BvOp::Add, &[s, x], sort),
        });
    };
    for (a, c) in &lin.terms {
        let x = store.mk_bv_sorted(BvOp::OfInt, &[*a], sort);
        let term = if c.is_one() {
            x
        } else if *c == crate::Rational::MINUS_ONE {
            store.mk_bv_sorted(BvOp::Neg, &[x], sort)
        } else {
            let n = store.mk_num(c.clone(), Sort::Int);
            let k = store.mk_bv_sorted(BvOp::OfInt, &[n], sort);
            store.mk_bv_sorted(BvOp::Mul, &[k, x], sort)
        };
        add(store, term);
    }
    if !lin.constant.is_zero() {
        let n = store.mk_num(lin.constant.clone(), Sort::Int);
        let k = store.mk_bv_sorted(BvOp::OfInt, &[n], sort);
        add(store, k);
    }
    sum
}

/// The largest signed value of width `w` (`0 1…1`).
pub fn signed_max(w: u32) -> BvValue {
    BvValue::new(w, (BigUint::one() << (w - 1) as usize) - 1u32)
}

/// The smallest signed value of width `w` (`1 0…0`).
pub fn signed_min(w: u32) -> BvValue {
    BvValue::new(w, BigUint::one() << (w - 1) as usize)
}

/// Parses the digits of a `#b…` (radix 2) or `#x…` (radix 16) literal.
pub fn parse_literal(digits: &str, radix: u32) -> Option<BvValue> {
    if digits.is_empty() {
        return None;
    }
    let per = if radix == 2 { 1 } else { 4 };
    let width = u32::try_from(digits.len()).ok()?.checked_mul(per)?;
    if width > MAX_WIDTH {
        return None;
    }
    let n = BigUint::parse_bytes(digits.as_bytes(), radix)?;
    Some(BvValue::new(width, n))
}

/// `BigInt` sign helper for callers that build integer terms from values.
pub fn nat_of(v: &BvValue) -> BigInt {
    BigInt::from_biguint(Sign::Plus, v.bits.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(w: u32, n: u64) -> BvValue {
        BvValue::from_u64(w, n)
    }

    #[test]
    fn division_by_zero_follows_smtlib() {
        let x = v(8, 0x85);
        let z = v(8, 0);
        assert!(x.udiv(&z).is_ones());
        assert_eq!(x.urem(&z), x);
        // bvsdiv of a negative by 0 is 1; of a non-negative by 0 is -1.
        assert_eq!(x.sdiv(&z), v(8, 1));
        assert!(v(8, 5).sdiv(&z).is_ones());
        assert_eq!(x.srem(&z), x);
        assert_eq!(x.smod(&z), x);
    }

    #[test]
    fn signed_operations_match_two_complement() {
        for a in 0..16u64 {
            for b in 0..16u64 {
                let (x, y) = (v(4, a), v(4, b));
                let (sa, sb) = (x.to_signed(), y.to_signed());
                if b != 0 {
                    let q = &sa / &sb; // truncating
                    assert_eq!(x.sdiv(&y), BvValue::from_int(4, &q), "{a} sdiv {b}");
                    let r = &sa % &sb;
                    assert_eq!(x.srem(&y), BvValue::from_int(4, &r), "{a} srem {b}");
                    let m = sa.mod_floor(&sb);
                    assert_eq!(x.smod(&y), BvValue::from_int(4, &m), "{a} smod {b}");
                }
                assert_eq!(x.slt(&y), sa < sb);
                assert_eq!(
                    x.ashr(&y),
                    BvValue::from_int(4, &(&sa >> b.min(4) as usize))
                );
            }
        }
    }

    #[test]
    fn literals_print_the_smtlib_way() {
        assert_eq!(v(8, 10).to_string(), "#x0a");
        assert_eq!(v(3, 5).to_string(), "#b101");
        assert_eq!(v(1, 0).to_string(), "#b0");
        assert_eq!(parse_literal("00ff", 16), Some(v(16, 255)));
        assert_eq!(parse_literal("0101", 2), Some(v(4, 5)));
        let wide = parse_literal(&"f".repeat(40), 16).unwrap();
        assert_eq!(wide.width(), 160);
        assert!(wide.is_ones());
        assert_eq!(wide.add(&BvValue::from_u64(160, 1)), BvValue::zero(160));
    }

    #[test]
    fn extract_and_concat_simplify() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::BitVec(32));
        let x = s.mk_var(x);
        let hi = s.mk_extract(31, 16, x);
        let lo = s.mk_extract(15, 0, x);
        assert_eq!(s.mk_concat(hi, lo), x);
        let e = s.mk_extract(7, 0, lo);
        assert_eq!(e, s.mk_extract(7, 0, x));
        let c = s.mk_concat(hi, lo);
        assert_eq!(s.mk_extract(31, 0, c), x);
        let one = s.mk_bv_u64(32, 1);
        let two = s.mk_bv_u64(32, 2);
        let three = s.mk_bv_u64(32, 3);
        let sum = s.mk_bv(BvOp::Add, &[one, two], None).unwrap();
        assert_eq!(sum, three);
        let p1 = s.mk_bv(BvOp::Add, &[x, one], None).unwrap();
        let p2 = s.mk_bv(BvOp::Add, &[p1, two], None).unwrap();
        let p3 = s.mk_bv(BvOp::Add, &[three, x], None).unwrap();
        assert_eq!(p2, p3);
        assert!(s.mk_bv(BvOp::Add, &[x, hi], None).is_err());
    }
}
