//! The bit-vector surface syntax: every SMT-LIB `FixedSizeBitVectors` function symbol (and
//! z3's `bv2int`/`int2bv`), and how the ones outside the term core of [`crate::bv`] expand by
//! their SMT-LIB definitions.

use super::error::ErrorKind;
use crate::bv::{BvOp, BvValue};
use crate::{Sort, TermId, TermStore};

/// A bit-vector function symbol as written (indices included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BvFn {
    /// A symbol of the term core, built as is.
    Core(CoreFn),
    Nand,
    Nor,
    Xnor,
    Sub,
    Ugt,
    Uge,
    Sgt,
    Sge,
    Comp,
    Extract(u32, u32),
    ZeroExtend(u32),
    SignExtend(u32),
    Repeat(u32),
    RotateLeft(u32),
    RotateRight(u32),
    /// `(_ nat2bv w)` / `(_ int2bv w)`.
    OfInt(u32),
}

/// The non-indexed core operators (left-associative when variadic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CoreFn {
    Concat,
    Not,
    And,
    Or,
    Xor,
    Neg,
    Add,
    Mul,
    Udiv,
    Urem,
    Sdiv,
    Srem,
    Smod,
    Shl,
    Lshr,
    Ashr,
    Ult,
    Ule,
    Slt,
    Sle,
    ToNat,
}

impl CoreFn {
    fn op(self) -> BvOp {
        match self {
            CoreFn::Concat => BvOp::Concat,
            CoreFn::Not => BvOp::Not,
            CoreFn::And => BvOp::And,
            CoreFn::Or => BvOp::Or,
            CoreFn::Xor => BvOp::Xor,
            CoreFn::Neg => BvOp::Neg,
            CoreFn::Add => BvOp::Add,
            CoreFn::Mul => BvOp::Mul,
            CoreFn::Udiv => BvOp::Udiv,
            CoreFn::Urem => BvOp::Urem,
            CoreFn::Sdiv => BvOp::Sdiv,
            CoreFn::Srem => BvOp::Srem,
            CoreFn::Smod => BvOp::Smod,
            CoreFn::Shl => BvOp::Shl,
            CoreFn::Lshr => BvOp::Lshr,
            CoreFn::Ashr => BvOp::Ashr,
            CoreFn::Ult => BvOp::Ult,
            CoreFn::Ule => BvOp::Ule,
            CoreFn::Slt => BvOp::Slt,
            CoreFn::Sle => BvOp::Sle,
            CoreFn::ToNat => BvOp::ToNat,
        }
    }
}

/// The non-indexed bit-vector function named `s`.
pub(crate) fn from_name(s: &str) -> Option<BvFn> {
    use CoreFn as C;
    let core = |c| Some(BvFn::Core(c));
    match s {
        "concat" => core(C::Concat),
        "bvnot" => core(C::Not),
        "bvand" => core(C::And),
        "bvor" => core(C::Or),
        "bvxor" => core(C::Xor),
        "bvneg" => core(C::Neg),
        "bvadd" => core(C::Add),
        "bvmul" => core(C::Mul),
        "bvudiv" => core(C::Udiv),
        "bvurem" => core(C::Urem),
        "bvsdiv" => core(C::Sdiv),
        "bvsrem" => core(C::Srem),
        "bvsmod" => core(C::Smod),
        "bvshl" => core(C::Shl),
        "bvlshr" => core(C::Lshr),
        "bvashr" => core(C::Ashr),
        "bvult" => core(C::Ult),
        "bvule" => core(C::Ule),
        "bvslt" => core(C::Slt),
        "bvsle" => core(C::Sle),
        "bv2nat" | "bv2int" => core(C::ToNat),
        "bvnand" => Some(BvFn::Nand),
        "bvnor" => Some(BvFn::Nor),
        "bvxnor" => Some(BvFn::Xnor),
        "bvsub" => Some(BvFn::Sub),
        "bvugt" => Some(BvFn::Ugt),
        "bvuge" => Some(BvFn::Uge),
        "bvsgt" => Some(BvFn::Sgt),
        "bvsge" => Some(BvFn::Sge),
        "bvcomp" => Some(BvFn::Comp),
        _ => None,
    }
}

/// The indexed bit-vector function `(_ name indices…)`, or why the indices are wrong
/// (`Ok(None)`: not a bit-vector function).
pub(crate) fn from_indexed(name: &str, idx: &[Option<u32>]) -> Result<Option<BvFn>, String> {
    let want = match name {
        "extract" => 2,
        "zero_extend" | "sign_extend" | "repeat" | "rotate_left" | "rotate_right" | "nat2bv"
        | "int2bv" => 1,
        _ => return Ok(None),
    };
    if idx.len() != want || idx.iter().any(|i| i.is_none()) {
        return Err(format!(
            "'{name}' takes {want} numeral index{}",
            if want == 1 { "" } else { "es" }
        ));
    }
    let i = |k: usize| idx[k].expect("checked");
    Ok(Some(match name {
        "extract" => BvFn::Extract(i(0), i(1)),
        "zero_extend" => BvFn::ZeroExtend(i(0)),
        "sign_extend" => BvFn::SignExtend(i(0)),
        "repeat" => {
            if i(0) == 0 {
                return Err("'repeat' needs an index of at least 1".into());
            }
            BvFn::Repeat(i(0))
        }
        "rotate_left" => BvFn::RotateLeft(i(0)),
        "rotate_right" => BvFn::RotateRight(i(0)),
        _ => {
            if i(0) == 0 {
                return Err(format!("'{name}' needs a width of at least 1"));
            }
            BvFn::OfInt(i(0))
        }
    }))
}

type BuildResult = Result<TermId, (ErrorKind, String)>;

fn mk(store: &mut TermStore, op: BvOp, args: &[TermId]) -> BuildResult {
    store
        .mk_bv(op, args, None)
        .map_err(|e| (ErrorKind::Sort, e.0))
}

fn left_assoc(store: &mut TermStore, op: BvOp, args: &[TermId]) -> BuildResult {
    let mut acc = args[0];
    for &a in &args[1..] {
        acc = mk(store, op.clone(), &[acc, a])?;
    }
    Ok(acc)
}

fn width_of(store: &TermStore, t: TermId, name: &str) -> Result<u32, (ErrorKind, String)> {
    store.sort(t).bv_width().ok_or_else(|| {
        (
            ErrorKind::Sort,
            format!(
                "'{name}' expects bit-vector arguments, got {}",
                store.sort(t)
            ),
        )
    })
}

/// Builds `f(args)`.
pub(crate) fn apply(store: &mut TermStore, f: BvFn, args: Vec<TermId>, name: &str) -> BuildResult {
    let n = args.len();
    let arity = |k: usize| -> Result<(), (ErrorKind, String)> {
        if n == k {
            Ok(())
        } else {
            Err((
                ErrorKind::Arity,
                format!(
                    "'{name}' expects {k} argument{}, got {n}",
                    if k == 1 { "" } else { "s" }
                ),
            ))
        }
    };
    let at_least_two = || -> Result<(), (ErrorKind, String)> {
        if n >= 2 {
            Ok(())
        } else {
            Err((
                ErrorKind::Arity,
                format!("'{name}' expects at least 2 arguments, got {n}"),
            ))
        }
    };
    match f {
        BvFn::Core(c) => match c {
            CoreFn::Concat | CoreFn::And | CoreFn::Or | CoreFn::Xor | CoreFn::Add | CoreFn::Mul => {
                at_least_two()?;
                left_assoc(store, c.op(), &args)
            }
            CoreFn::Not | CoreFn::Neg | CoreFn::ToNat => {
                arity(1)?;
                mk(store, c.op(), &args)
            }
            _ => {
                arity(2)?;
                mk(store, c.op(), &args)
            }
        },
        BvFn::Nand | BvFn::Nor | BvFn::Xnor => {
            arity(2)?;
            let inner = match f {
                BvFn::Nand => BvOp::And,
                BvFn::Nor => BvOp::Or,
                _ => BvOp::Xor,
            };
            let t = mk(store, inner, &args)?;
            mk(store, BvOp::Not, &[t])
        }
        BvFn::Sub => {
            at_least_two()?;
            let mut acc = args[0];
            for &a in &args[1..] {
                // Sorts are checked by bvadd; bvneg of a non-bit-vector fails first.
                let neg = mk(store, BvOp::Neg, &[a])?;
                acc = mk(store, BvOp::Add, &[acc, neg])?;
            }
            Ok(acc)
        }
        BvFn::Ugt | BvFn::Uge | BvFn::Sgt | BvFn::Sge => {
            arity(2)?;
            let op = match f {
                BvFn::Ugt => BvOp::Ult,
                BvFn::Uge => BvOp::Ule,
                BvFn::Sgt => BvOp::Slt,
                _ => BvOp::Sle,
            };
            mk(store, op, &[args[1], args[0]])
        }
        BvFn::Comp => {
            arity(2)?;
            let (a, b) = (args[0], args[1]);
            let (wa, wb) = (width_of(store, a, name)?, width_of(store, b, name)?);
            if wa != wb {
                return Err((
                    ErrorKind::Sort,
                    format!(
                        "'bvcomp' expects two bit-vectors of one width, got widths {wa} and {wb}"
                    ),
                ));
            }
            let eq = store.mk_eq(a, b);
            let one = store.mk_bv_lit(BvValue::from_u64(1, 1));
            let zero = store.mk_bv_lit(BvValue::zero(1));
            Ok(store.mk_ite(eq, one, zero))
        }
        BvFn::Extract(h, l) => {
            arity(1)?;
            mk(store, BvOp::Extract(h, l), &args)
        }
        BvFn::ZeroExtend(k) => {
            arity(1)?;
            mk(store, BvOp::ZeroExtend(k), &args)
        }
        BvFn::SignExtend(k) => {
            arity(1)?;
            mk(store, BvOp::SignExtend(k), &args)
        }
        BvFn::Repeat(k) => {
            arity(1)?;
            let a = args[0];
            let w = width_of(store, a, name)?;
            if w as u64 * k as u64 > crate::bv::MAX_WIDTH as u64 {
                return Err((
                    ErrorKind::Sort,
                    format!(
                        "'(_ repeat {k})' would build a bit-vector wider than {}",
                        crate::bv::MAX_WIDTH
                    ),
                ));
            }
            let mut acc = a;
            for _ in 1..k {
                acc = store.mk_concat(acc, a);
            }
            Ok(acc)
        }
        BvFn::RotateLeft(k) | BvFn::RotateRight(k) => {
            arity(1)?;
            let a = args[0];
            let w = width_of(store, a, name)?;
            let k = k % w;
            // rotate_right k = rotate_left (w - k).
            let left = if matches!(f, BvFn::RotateLeft(_)) {
                k
            } else {
                (w - k) % w
            };
            if left == 0 {
                return Ok(a);
            }
            let hi = store.mk_extract(w - 1 - left, 0, a);
            let lo = store.mk_extract(w - 1, w - left, a);
            Ok(store.mk_concat(hi, lo))
        }
        BvFn::OfInt(w) => {
            arity(1)?;
            if store.sort(args[0]) != Sort::Int {
                return Err((
                    ErrorKind::Sort,
                    format!(
                        "'{name}' expects an Int argument, got {}",
                        store.sort(args[0])
                    ),
                ));
            }
            store
                .mk_bv(BvOp::OfInt, &args, Some(w))
                .map_err(|e| (ErrorKind::Sort, e.0))
        }
    }
}

/// The literal `(_ bvN w)` (`digits`: the decimal `N`).
pub(crate) fn decimal_literal(
    store: &mut TermStore,
    digits: &str,
    width: u32,
) -> Result<TermId, String> {
    if width == 0 || width > crate::bv::MAX_WIDTH {
        return Err(format!(
            "bit-vector width {width} is out of range (1 to {})",
            crate::bv::MAX_WIDTH
        ));
    }
    let n = num_bigint::BigUint::parse_bytes(digits.as_bytes(), 10)
        .ok_or_else(|| format!("malformed literal bv{digits}"))?;
    Ok(store.mk_bv_lit(BvValue::new(width, n)))
}

/// The bit-vector literal atom `#b…`/`#x…`.
pub(crate) fn radix_literal(
    store: &mut TermStore,
    digits: &str,
    radix: u32,
) -> Result<TermId, String> {
    match crate::bv::parse_literal(digits, radix) {
        Some(v) => Ok(store.mk_bv_lit(v)),
        None => Err(format!(
            "bit-vector literal too wide (at most {} bits)",
            crate::bv::MAX_WIDTH
        )),
    }
}
