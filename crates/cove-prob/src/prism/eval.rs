//! Compiled expressions: variables resolved to state-vector slots, constants folded.
//!
//! Evaluation is exact (rationals). The only inexact operation is `log`, which PRISM
//! computes in floating point: an exact integer result (`log(8, 2)`) is returned exactly,
//! anything else is the nearest `f64` written as a decimal.

use super::PrismError;
use super::build::VarInfo;
use super::syntax::{BinOp, Expr, Pos};
use cove_logic::Rational;
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Value {
    Num(Rational),
    Bool(bool),
}

#[derive(Clone, Debug)]
pub(super) enum CExpr {
    Const(Value),
    Var(usize, bool), // slot, is_bool
    Neg(Box<CExpr>, Pos),
    Not(Box<CExpr>, Pos),
    Bin(BinOp, Box<CExpr>, Box<CExpr>, Pos),
    Ite(Box<CExpr>, Box<CExpr>, Box<CExpr>, Pos),
    Call(String, Vec<CExpr>, Pos),
}

pub(super) fn num(v: Value, p: Pos) -> Result<Rational, PrismError> {
    match v {
        Value::Num(r) => Ok(r),
        Value::Bool(_) => Err(PrismError::at(p, "expected a number, found a Boolean")),
    }
}

pub(super) fn boolean(v: Value, p: Pos) -> Result<bool, PrismError> {
    match v {
        Value::Bool(b) => Ok(b),
        Value::Num(_) => Err(PrismError::at(p, "expected a Boolean, found a number")),
    }
}

impl CExpr {
    pub(super) fn eval(&self, st: &[i64]) -> Result<Value, PrismError> {
        Ok(match self {
            CExpr::Const(v) => v.clone(),
            CExpr::Var(i, true) => Value::Bool(st[*i] != 0),
            CExpr::Var(i, false) => Value::Num(Rational::int(st[*i])),
            CExpr::Neg(e, p) => Value::Num(-num(e.eval(st)?, *p)?),
            CExpr::Not(e, p) => Value::Bool(!boolean(e.eval(st)?, *p)?),
            CExpr::Ite(c, a, b, p) => {
                if boolean(c.eval(st)?, *p)? {
                    a.eval(st)?
                } else {
                    b.eval(st)?
                }
            }
            CExpr::Bin(op, a, b, p) => {
                let p = *p;
                match op {
                    BinOp::And => Value::Bool(boolean(a.eval(st)?, p)? && boolean(b.eval(st)?, p)?),
                    BinOp::Or => Value::Bool(boolean(a.eval(st)?, p)? || boolean(b.eval(st)?, p)?),
                    BinOp::Implies => {
                        Value::Bool(!boolean(a.eval(st)?, p)? || boolean(b.eval(st)?, p)?)
                    }
                    BinOp::Iff => Value::Bool(boolean(a.eval(st)?, p)? == boolean(b.eval(st)?, p)?),
                    BinOp::Eq | BinOp::Ne => {
                        let (x, y) = (a.eval(st)?, b.eval(st)?);
                        if std::mem::discriminant(&x) != std::mem::discriminant(&y) {
                            return Err(PrismError::at(p, "comparing a number with a Boolean"));
                        }
                        Value::Bool((x == y) == (*op == BinOp::Eq))
                    }
                    _ => {
                        let (x, y) = (num(a.eval(st)?, p)?, num(b.eval(st)?, p)?);
                        match op {
                            BinOp::Add => Value::Num(x + y),
                            BinOp::Sub => Value::Num(x - y),
                            BinOp::Mul => Value::Num(x * y),
                            BinOp::Div => {
                                if y.is_zero() {
                                    return Err(PrismError::at(p, "division by zero"));
                                }
                                Value::Num(x / y)
                            }
                            BinOp::Lt => Value::Bool(x < y),
                            BinOp::Le => Value::Bool(x <= y),
                            BinOp::Gt => Value::Bool(x > y),
                            BinOp::Ge => Value::Bool(x >= y),
                            _ => unreachable!("logical operators handled above"),
                        }
                    }
                }
            }
            CExpr::Call(f, args, p) => {
                let vals: Vec<Rational> = args
                    .iter()
                    .map(|a| num(a.eval(st)?, *p))
                    .collect::<Result<_, _>>()?;
                let arity = |n: usize| {
                    if vals.len() == n {
                        Ok(())
                    } else {
                        Err(PrismError::at(*p, format!("`{f}` takes {n} argument(s)")))
                    }
                };
                match f.as_str() {
                    "min" | "max" if vals.is_empty() => {
                        return Err(PrismError::at(*p, "no arguments"));
                    }
                    "min" => Value::Num(vals.into_iter().min().unwrap()),
                    "max" => Value::Num(vals.into_iter().max().unwrap()),
                    "round" => {
                        arity(1)?;
                        Value::Num((vals[0].clone() + Rational::new(1, 2)).floor())
                    }
                    "log" => {
                        arity(2)?;
                        Value::Num(log(&vals[0], &vals[1]).ok_or_else(|| {
                            PrismError::at(
                                *p,
                                "`log` needs a positive argument and a positive base other than 1",
                            )
                        })?)
                    }
                    "floor" => {
                        arity(1)?;
                        Value::Num(vals[0].floor())
                    }
                    "ceil" => {
                        arity(1)?;
                        Value::Num(vals[0].ceil())
                    }
                    "mod" => {
                        arity(2)?;
                        if !vals[0].is_integer() || !vals[1].is_integer() || vals[1].is_zero() {
                            return Err(PrismError::at(
                                *p,
                                "`mod` needs integers and a non-zero divisor",
                            ));
                        }
                        Value::Num(vals[0].int_mod(&vals[1]))
                    }
                    "pow" => {
                        arity(2)?;
                        let e = vals[1].to_i64().filter(|e| (0..=64).contains(e));
                        let Some(e) = e else {
                            return Err(PrismError::at(*p, "`pow` needs an exponent in 0..64"));
                        };
                        let mut r = Rational::ONE;
                        for _ in 0..e {
                            r *= &vals[0];
                        }
                        Value::Num(r)
                    }
                    _ => return Err(PrismError::at(*p, format!("unknown function `{f}`"))),
                }
            }
        })
    }
}

pub(super) struct Scope<'a> {
    pub(super) consts: &'a HashMap<String, Value>,
    pub(super) vars: &'a HashMap<String, usize>,
    pub(super) var_info: &'a [VarInfo],
}

pub(super) fn compile(e: &Expr, sc: &Scope<'_>) -> Result<CExpr, PrismError> {
    let c = |x: &Expr| compile(x, sc).map(Box::new);
    Ok(match e {
        Expr::Num(v, _) => CExpr::Const(Value::Num(v.clone())),
        Expr::Bool(b, _) => CExpr::Const(Value::Bool(*b)),
        Expr::Ident(n, p) => {
            if let Some(&i) = sc.vars.get(n) {
                CExpr::Var(i, sc.var_info[i].is_bool)
            } else if let Some(v) = sc.consts.get(n) {
                CExpr::Const(v.clone())
            } else {
                return Err(PrismError::at(*p, format!("undefined identifier `{n}`")));
            }
        }
        Expr::Neg(a, p) => CExpr::Neg(c(a)?, *p),
        Expr::Not(a, p) => CExpr::Not(c(a)?, *p),
        Expr::Bin(o, a, b, p) => CExpr::Bin(*o, c(a)?, c(b)?, *p),
        Expr::Ite(x, a, b, p) => CExpr::Ite(c(x)?, c(a)?, c(b)?, *p),
        Expr::Call(f, args, p) => CExpr::Call(
            f.clone(),
            args.iter()
                .map(|a| compile(a, sc))
                .collect::<Result<_, _>>()?,
            *p,
        ),
    })
}

pub(super) fn const_eval(e: &Expr, consts: &HashMap<String, Value>) -> Result<Value, PrismError> {
    let vars = HashMap::new();
    compile(
        e,
        &Scope {
            consts,
            vars: &vars,
            var_info: &[],
        },
    )?
    .eval(&[])
}

pub(super) fn const_int(e: &Expr, consts: &HashMap<String, Value>) -> Result<i64, PrismError> {
    let v = num(const_eval(e, consts)?, e.pos())?;
    v.to_i64()
        .filter(|_| v.is_integer())
        .ok_or_else(|| PrismError::at(e.pos(), format!("expected an integer, found {v}")))
}

/// `log_b(x)`: exact when `x` is an integer power of `b`, else via `f64`.
fn log(x: &Rational, b: &Rational) -> Option<Rational> {
    if !x.is_positive() || !b.is_positive() || b.is_one() {
        return None;
    }
    // Exact integer powers (positive or negative exponents up to 64).
    let mut pw = Rational::ONE;
    for k in 0..=64i64 {
        if pw == *x {
            return Some(Rational::int(k));
        }
        if pw.recip() == *x {
            return Some(Rational::int(-k));
        }
        pw *= b;
    }
    let f = x.to_f64().ln() / b.to_f64().ln();
    rat_from_f64(f)
}

/// The exact decimal value of a finite `f64`, rounded to 17 significant decimals.
pub(super) fn rat_from_f64(f: f64) -> Option<Rational> {
    if !f.is_finite() {
        return None;
    }
    let text = format!("{:.17}", f.abs());
    let r = Rational::parse_decimal(&text)?;
    Some(if f < 0.0 { -r } else { r })
}
