//! The built-in operators of the Core, Ints, Reals and Reals_Ints theories, and how their
//! SMT-LIB surface forms (chains, n-ary forms, Int/Real mixing) map to terms.
//!
//! Mixing follows Z3: when an operator needs one numeric sort and gets both, Int arguments
//! are promoted (numerals become Real numerals, other terms are wrapped in `to_real`). Any
//! other sort mismatch is an error. `(- c)` and `(/ c d)` of numerals fold to numerals so
//! that printed numerals read back as the same term.

use super::error::ErrorKind;
use crate::{Op, Rational, Sort, TermId, TermStore};

/// A built-in function symbol.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Builtin {
    Not,
    And,
    Or,
    Implies,
    Xor,
    Eq,
    Distinct,
    Ite,
    Add,
    Sub,
    Mul,
    Div,
    IntDiv,
    Mod,
    Abs,
    ToReal,
    ToInt,
    IsInt,
    Le,
    Lt,
    Ge,
    Gt,
    Select,
    Store,
}

impl Builtin {
    pub(crate) fn from_name(s: &str) -> Option<Builtin> {
        use Builtin::*;
        Some(match s {
            "not" => Not,
            "and" => And,
            "or" => Or,
            "=>" => Implies,
            "xor" => Xor,
            "=" => Eq,
            "distinct" => Distinct,
            "ite" => Ite,
            "+" => Add,
            "-" => Sub,
            "*" => Mul,
            "/" => Div,
            "div" => IntDiv,
            "mod" => Mod,
            "abs" => Abs,
            "to_real" => ToReal,
            "to_int" => ToInt,
            "is_int" => IsInt,
            "<=" => Le,
            "<" => Lt,
            ">=" => Ge,
            ">" => Gt,
            "select" => Select,
            "store" => Store,
            _ => return None,
        })
    }

    /// Fixed arity, if the operator has one.
    pub(crate) fn arity(self) -> Option<usize> {
        use Builtin::*;
        match self {
            Not | Abs | ToReal | ToInt | IsInt => Some(1),
            Mod | Select => Some(2),
            Ite | Store => Some(3),
            _ => None,
        }
    }

    /// Minimal number of arguments of the variadic operators.
    pub(crate) fn min_args(self) -> usize {
        use Builtin::*;
        match self {
            And | Or => 0,
            Add | Sub | Mul => 1,
            _ => 2,
        }
    }
}

/// True for the built-in function symbols and constants, which cannot be declared.
pub(crate) fn is_builtin_name(s: &str) -> bool {
    Builtin::from_name(s).is_some()
        || super::bv::from_name(s).is_some()
        || matches!(s, "true" | "false")
}

/// True for the reserved words of SMT-LIB2 (which only a quoted symbol may spell).
pub(crate) fn is_reserved_word(s: &str) -> bool {
    matches!(
        s,
        "let"
            | "forall"
            | "exists"
            | "!"
            | "_"
            | "as"
            | "match"
            | "par"
            | "NUMERAL"
            | "DECIMAL"
            | "STRING"
    )
}

/// If `s` is a sort of an unsupported theory, the theory's name.
pub(crate) fn unsupported_sort(s: &str) -> Option<&'static str> {
    Some(match s {
        "String" | "RegLan" => "strings",
        "Float16" | "Float32" | "Float64" | "Float128" | "FloatingPoint" | "RoundingMode"
        | "FP" => "floating point",
        "Seq" => "sequences",
        "Set" => "sets",
        _ => return None,
    })
}

/// If `s` is a function symbol of an unsupported theory, the theory's name.
pub(crate) fn unsupported_symbol(s: &str) -> Option<&'static str> {
    if matches!(s, "select" | "store" | "const") {
        return Some("arrays");
    }
    if s.starts_with("str.")
        || s.starts_with("re.")
        || matches!(s, "int.to.str" | "str.to.int" | "char")
    {
        return Some("strings");
    }
    if s.starts_with("fp.")
        || s == "fp"
        || matches!(
            s,
            "to_fp"
                | "to_fp_unsigned"
                | "RNE"
                | "RNA"
                | "RTP"
                | "RTN"
                | "RTZ"
                | "roundNearestTiesToEven"
                | "roundTowardZero"
                | "+oo"
                | "-oo"
                | "NaN"
                | "+zero"
                | "-zero"
        )
    {
        return Some("floating point");
    }
    if s.starts_with("seq.") {
        return Some("sequences");
    }
    if s.starts_with("set.") {
        return Some("sets");
    }
    if s.starts_with("is-") || s == "match" {
        return Some("datatypes");
    }
    None
}

type BuildResult = Result<TermId, (ErrorKind, String)>;

fn sort_err(e: crate::SortError) -> (ErrorKind, String) {
    (ErrorKind::Sort, e.0)
}

/// Promotes an Int term to Real (numerals directly, other terms with `to_real`).
pub(crate) fn to_real(store: &mut TermStore, t: TermId) -> TermId {
    if store.sort(t) != Sort::Int {
        return t;
    }
    if let Some(v) = store.as_num(t) {
        let v = v.clone();
        return store.mk_num(v, Sort::Real);
    }
    store.mk_raw(Op::ToReal, &[t], Sort::Real)
}

/// When the arguments mix Int and Real (and nothing else), promotes the Int ones.
fn unify_arith(store: &mut TermStore, args: &mut [TermId]) {
    let has_real = args.iter().any(|&a| store.sort(a) == Sort::Real);
    let has_int = args.iter().any(|&a| store.sort(a) == Sort::Int);
    if has_real && has_int {
        for a in args.iter_mut() {
            *a = to_real(store, *a);
        }
    }
}

fn mk(store: &mut TermStore, op: Op, args: &[TermId]) -> BuildResult {
    store.mk(op, args).map_err(sort_err)
}

fn chain(store: &mut TermStore, op: Op, args: &[TermId]) -> BuildResult {
    let mut parts = Vec::with_capacity(args.len().saturating_sub(1));
    for w in args.windows(2) {
        parts.push(mk(store, op.clone(), w)?);
    }
    if parts.len() == 1 {
        Ok(parts[0])
    } else {
        mk(store, Op::And, &parts)
    }
}

fn left_assoc(store: &mut TermStore, op: Op, args: &[TermId]) -> BuildResult {
    let mut acc = args[0];
    for &a in &args[1..] {
        acc = mk(store, op.clone(), &[acc, a])?;
    }
    Ok(acc)
}

fn expect_arith(store: &TermStore, args: &[TermId], what: &str) -> Result<(), (ErrorKind, String)> {
    match args.iter().find(|&&a| !store.sort(a).is_arith()) {
        Some(&a) => Err((
            ErrorKind::Sort,
            format!("'{what}' expects numeric arguments, got {}", store.sort(a)),
        )),
        None => Ok(()),
    }
}

/// Builds `b(args)`; `args` has already been checked against `arity`/`min_args`.
pub(crate) fn apply(
    store: &mut TermStore,
    b: Builtin,
    mut args: Vec<TermId>,
    name: &str,
) -> BuildResult {
    use Builtin::*;
    match b {
        Not => mk(store, Op::Not, &args),
        Select => mk(store, Op::Select, &args),
        Store => mk(store, Op::Store, &args),
        And | Or => {
            let op = if b == And { Op::And } else { Op::Or };
            match args.len() {
                0 => Ok(store.mk_bool(b == And)),
                1 if store.sort(args[0]) == Sort::Bool => Ok(args[0]),
                _ => mk(store, op, &args),
            }
        }
        Implies => {
            let mut acc = *args.last().expect("min_args");
            for &a in args[..args.len() - 1].iter().rev() {
                acc = mk(store, Op::Implies, &[a, acc])?;
            }
            Ok(acc)
        }
        Xor => left_assoc(store, Op::Xor, &args),
        Eq => {
            unify_arith(store, &mut args);
            chain(store, Op::Eq, &args)
        }
        Distinct => {
            unify_arith(store, &mut args);
            mk(store, Op::Distinct, &args)
        }
        Ite => {
            unify_arith(store, &mut args[1..]);
            mk(store, Op::Ite, &args)
        }
        Add | Mul => {
            expect_arith(store, &args, name)?;
            if args.len() == 1 {
                return Ok(args[0]);
            }
            unify_arith(store, &mut args);
            mk(store, if b == Add { Op::Add } else { Op::Mul }, &args)
        }
        Sub => {
            expect_arith(store, &args, name)?;
            if args.len() == 1 {
                let a = args[0];
                if let Some(v) = store.as_num(a) {
                    let (v, s) = (-v, store.sort(a));
                    return Ok(store.mk_num(v, s));
                }
                return mk(store, Op::Neg, &args);
            }
            unify_arith(store, &mut args);
            left_assoc(store, Op::Sub, &args)
        }
        Div => {
            expect_arith(store, &args, name)?;
            for a in args.iter_mut() {
                *a = to_real(store, *a);
            }
            let mut acc = args[0];
            for &d in &args[1..] {
                acc = match (store.as_num(acc), store.as_num(d)) {
                    (Some(x), Some(y)) if !y.is_zero() => {
                        let q: Rational = x.clone() / y.clone();
                        store.mk_num(q, Sort::Real)
                    }
                    _ => mk(store, Op::Div, &[acc, d])?,
                };
            }
            Ok(acc)
        }
        IntDiv => left_assoc(store, Op::IntDiv, &args),
        Mod => mk(store, Op::Mod, &args),
        Abs => mk(store, Op::Abs, &args),
        ToReal => mk(store, Op::ToReal, &args),
        ToInt | IsInt => {
            expect_arith(store, &args, name)?;
            let a = to_real(store, args[0]);
            mk(store, if b == ToInt { Op::ToInt } else { Op::IsInt }, &[a])
        }
        Le | Lt | Ge | Gt => {
            expect_arith(store, &args, name)?;
            unify_arith(store, &mut args);
            let op = match b {
                Le => Op::Le,
                Lt => Op::Lt,
                Ge => Op::Ge,
                _ => Op::Gt,
            };
            chain(store, op, &args)
        }
    }
}

/// The term the SMT-LIB2 application `(name args…)` of a built-in operator denotes (`true`
/// and `false` with no arguments), with the surface forms of the reader: chains, n-ary
/// forms, Int/Real promotion. `None` when `name` is not a built-in operator; `Err` names an
/// arity or sort error. This is how an API that builds terms by operator name (the C API)
/// gets exactly the meaning the reader gives the same text.
pub fn apply_by_name(
    store: &mut TermStore,
    name: &str,
    args: &[TermId],
) -> Option<Result<TermId, String>> {
    if matches!(name, "true" | "false") {
        return Some(if args.is_empty() {
            Ok(store.mk_bool(name == "true"))
        } else {
            Err(format!("'{name}' takes no arguments"))
        });
    }
    let b = Builtin::from_name(name)?;
    let n = args.len();
    if let Some(k) = b.arity() {
        if n != k {
            return Some(Err(format!("'{name}' expects {k} arguments, got {n}")));
        }
    } else if n < b.min_args() {
        return Some(Err(format!(
            "'{name}' expects at least {} arguments, got {n}",
            b.min_args()
        )));
    }
    Some(apply(store, b, args.to_vec(), name).map_err(|(_, m)| m))
}
