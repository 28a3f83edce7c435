//! Models and evaluation.
//!
//! A [`Model`] assigns values to variables and may interpret function symbols by a
//! definition `f(params) = body` (this is how CHC invariants are represented). Evaluation is
//! exact and follows SMT-LIB semantics; where SMT-LIB leaves a value unspecified (division by
//! zero), evaluation reports an error instead of guessing, so certificate checks built on it
//! can only fail safe.

use crate::Rational;
use crate::term::{FuncId, Op, Sort, TermId, TermStore, VarId};
use rustc_hash::FxHashMap;
use std::fmt;

/// A value of sort Bool, Int, Real or an array sort.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Value {
    /// A Boolean.
    Bool(bool),
    /// A number (integral for Int).
    Num(Rational),
    /// An array: a default plus finitely many exceptions.
    Array(Box<ArrayValue>),
}

/// An array value: `default` everywhere except at the `entries`.
///
/// Kept canonical (entries sorted by index, none equal to the default, and a Bool-indexed
/// array never lists both indices) so that equal arrays are equal values and `==` on
/// [`Value`] is extensional equality.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ArrayValue {
    /// The value at every index not in `entries`.
    pub default: Value,
    /// `(index, value)` exceptions, sorted by index.
    pub entries: Vec<(Value, Value)>,
}

impl ArrayValue {
    /// The constant array.
    pub fn constant(default: Value) -> ArrayValue {
        ArrayValue {
            default,
            entries: Vec::new(),
        }
    }

    /// The element at `i`.
    pub fn read(&self, i: &Value) -> &Value {
        match self.entries.binary_search_by(|(k, _)| k.cmp(i)) {
            Ok(p) => &self.entries[p].1,
            Err(_) => &self.default,
        }
    }

    /// `self` with `i` mapped to `v`.
    pub fn write(&self, i: Value, v: Value) -> ArrayValue {
        let mut a = self.clone();
        match a.entries.binary_search_by(|(k, _)| k.cmp(&i)) {
            Ok(p) => a.entries[p].1 = v,
            Err(p) => a.entries.insert(p, (i, v)),
        }
        a.normalize();
        a
    }

    /// Restores the canonical form.
    pub fn normalize(&mut self) {
        let bools = [Value::Bool(false), Value::Bool(true)];
        if self.entries.len() == 2 && self.entries[0].0 == bools[0] && self.entries[1].0 == bools[1]
        {
            self.default = self.entries.pop().expect("two entries").1;
        }
        let d = self.default.clone();
        self.entries.retain(|(_, v)| *v != d);
    }
}

impl Value {
    /// The Boolean inside, if any.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number inside, if any.
    pub fn as_num(&self) -> Option<&Rational> {
        match self {
            Value::Num(n) => Some(n),
            _ => None,
        }
    }

    /// The array inside, if any.
    pub fn as_array(&self) -> Option<&ArrayValue> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The default value of a sort (false / 0 / the constant array of the element's
    /// default), used to complete partial models.
    pub fn default_of(sort: Sort) -> Value {
        match sort {
            Sort::Bool => Value::Bool(false),
            Sort::Array(_) => Value::Array(Box::new(ArrayValue::constant(Value::default_of(
                sort.elem_sort().expect("array sort"),
            )))),
            _ => Value::Num(Rational::ZERO),
        }
    }

    /// The value as a term of sort `sort` (arrays as `store` chains over a constant array).
    pub fn to_term(&self, store: &mut TermStore, sort: Sort) -> TermId {
        match self {
            Value::Bool(b) => store.mk_bool(*b),
            Value::Num(n) => store.mk_num(n.clone(), sort),
            Value::Array(a) => {
                let (is, es) = sort.array_parts().expect("array sort");
                let d = a.default.to_term(store, es);
                let mut t = store.mk_const_array(sort, d);
                for (k, v) in &a.entries {
                    let k = k.to_term(store, is);
                    let v = v.to_term(store, es);
                    t = store.mk_store(t, k, v);
                }
                t
            }
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Num(n) => write!(f, "{n}"),
            Value::Array(a) => {
                for _ in &a.entries {
                    f.write_str("(store ")?;
                }
                write!(f, "(const {})", a.default)?;
                for (k, v) in &a.entries {
                    write!(f, " {k} {v})")?;
                }
                Ok(())
            }
        }
    }
}

/// A function interpretation `f(params) = body`.
#[derive(Clone, Debug)]
pub struct FuncInterp {
    /// Formal parameters, one per argument.
    pub params: Vec<VarId>,
    /// The body over the parameters.
    pub body: TermId,
}

/// An assignment to variables plus optional interpretations of function symbols.
#[derive(Clone, Debug, Default)]
pub struct Model {
    vars: FxHashMap<VarId, Value>,
    funcs: FxHashMap<FuncId, FuncInterp>,
    /// When true, unassigned variables evaluate to the default of their sort instead of an
    /// error (a model of a formula is still a model after completing it this way).
    pub complete: bool,
}

/// Why a term could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EvalError {
    /// A variable has no value in the model.
    #[error("variable '{0}' has no value")]
    Unassigned(String),
    /// A function symbol has no interpretation.
    #[error("function '{0}' has no interpretation")]
    Uninterpreted(String),
    /// Division (or `div`/`mod`) by zero: SMT-LIB leaves the value unspecified.
    #[error("division by zero")]
    DivisionByZero,
    /// Quantifiers are not evaluated.
    #[error("cannot evaluate a quantified term")]
    Quantifier,
}

impl Model {
    /// An empty model.
    pub fn new() -> Model {
        Model::default()
    }

    /// Sets the value of `v`.
    pub fn set(&mut self, v: VarId, value: Value) {
        self.vars.insert(v, value);
    }

    /// The value of `v`, if assigned.
    pub fn get(&self, v: VarId) -> Option<&Value> {
        self.vars.get(&v)
    }

    /// Interprets `f` as `f(params) = body`.
    pub fn set_func(&mut self, f: FuncId, interp: FuncInterp) {
        self.funcs.insert(f, interp);
    }

    /// The interpretation of `f`, if any.
    pub fn func(&self, f: FuncId) -> Option<&FuncInterp> {
        self.funcs.get(&f)
    }

    /// Assigned variables.
    pub fn vars(&self) -> impl Iterator<Item = (VarId, &Value)> {
        self.vars.iter().map(|(v, x)| (*v, x))
    }

    /// Evaluates `t` (see [`eval`]).
    pub fn eval(&self, store: &TermStore, t: TermId) -> Result<Value, EvalError> {
        eval(store, t, self)
    }

    /// Evaluates a Bool term to a Boolean.
    pub fn eval_bool(&self, store: &TermStore, t: TermId) -> Result<bool, EvalError> {
        Ok(eval(store, t, self)?.as_bool().expect("Bool term"))
    }
}

/// Evaluates `t` under `model`. Function applications use the model's interpretations.
pub fn eval(store: &TermStore, t: TermId, model: &Model) -> Result<Value, EvalError> {
    let mut ev = Evaluator {
        store,
        model,
        memo: FxHashMap::default(),
    };
    ev.eval(t, None)
}

struct Evaluator<'a> {
    store: &'a TermStore,
    model: &'a Model,
    memo: FxHashMap<TermId, Value>,
}

type Env<'e> = Option<&'e FxHashMap<VarId, Value>>;

impl Evaluator<'_> {
    /// Evaluates `t`; `env` binds parameters while inside a function body (memo is only
    /// used outside bodies, where the environment is the model itself).
    fn eval(&mut self, t: TermId, env: Env<'_>) -> Result<Value, EvalError> {
        if env.is_none()
            && let Some(v) = self.memo.get(&t)
        {
            return Ok(v.clone());
        }
        let v = self.eval_node(t, env)?;
        if env.is_none() {
            self.memo.insert(t, v.clone());
        }
        Ok(v)
    }

    fn num(&mut self, t: TermId, env: Env<'_>) -> Result<Rational, EvalError> {
        match self.eval(t, env)? {
            Value::Num(n) => Ok(n),
            _ => unreachable!("well-sorted term"),
        }
    }

    fn array(&mut self, t: TermId, env: Env<'_>) -> Result<ArrayValue, EvalError> {
        match self.eval(t, env)? {
            Value::Array(a) => Ok(*a),
            _ => unreachable!("well-sorted term"),
        }
    }

    fn boolean(&mut self, t: TermId, env: Env<'_>) -> Result<bool, EvalError> {
        match self.eval(t, env)? {
            Value::Bool(b) => Ok(b),
            _ => unreachable!("well-sorted term"),
        }
    }

    fn eval_node(&mut self, t: TermId, env: Env<'_>) -> Result<Value, EvalError> {
        let store = self.store;
        let term = store.get(t);
        let args = &term.args;
        Ok(match &term.op {
            Op::Bool(b) => Value::Bool(*b),
            Op::Num(n) => Value::Num(n.clone()),
            Op::Var(v) => {
                if let Some(x) = env.and_then(|e| e.get(v)) {
                    return Ok(x.clone());
                }
                match self.model.vars.get(v) {
                    Some(x) => x.clone(),
                    None if self.model.complete => Value::default_of(store.var_sort(*v)),
                    None => return Err(EvalError::Unassigned(store.var_name(*v).to_string())),
                }
            }
            Op::App(f) => {
                let Some(interp) = self.model.funcs.get(f) else {
                    return Err(EvalError::Uninterpreted(store.func(*f).name.to_string()));
                };
                let mut inner = FxHashMap::default();
                for (p, &a) in interp.params.iter().zip(args.iter()) {
                    inner.insert(*p, self.eval(a, env)?);
                }
                let body = interp.body;
                self.eval(body, Some(&inner))?
            }
            Op::Not => Value::Bool(!self.boolean(args[0], env)?),
            Op::And => {
                for &a in args.iter() {
                    if !self.boolean(a, env)? {
                        return Ok(Value::Bool(false));
                    }
                }
                Value::Bool(true)
            }
            Op::Or => {
                for &a in args.iter() {
                    if self.boolean(a, env)? {
                        return Ok(Value::Bool(true));
                    }
                }
                Value::Bool(false)
            }
            Op::Implies => Value::Bool(!self.boolean(args[0], env)? || self.boolean(args[1], env)?),
            Op::Xor => Value::Bool(self.boolean(args[0], env)? != self.boolean(args[1], env)?),
            Op::Eq => {
                let a = self.eval(args[0], env)?;
                let b = self.eval(args[1], env)?;
                Value::Bool(a == b)
            }
            Op::Distinct => {
                let mut vals = Vec::with_capacity(args.len());
                for &a in args.iter() {
                    vals.push(self.eval(a, env)?);
                }
                let all_distinct =
                    (0..vals.len()).all(|i| (i + 1..vals.len()).all(|j| vals[i] != vals[j]));
                Value::Bool(all_distinct)
            }
            Op::Ite => {
                if self.boolean(args[0], env)? {
                    self.eval(args[1], env)?
                } else {
                    self.eval(args[2], env)?
                }
            }
            Op::Add => {
                let mut s = Rational::ZERO;
                for &a in args.iter() {
                    s += &self.num(a, env)?;
                }
                Value::Num(s)
            }
            Op::Sub => Value::Num(self.num(args[0], env)? - self.num(args[1], env)?),
            Op::Neg => Value::Num(-self.num(args[0], env)?),
            Op::Mul => {
                let mut p = Rational::ONE;
                for &a in args.iter() {
                    p *= &self.num(a, env)?;
                }
                Value::Num(p)
            }
            Op::Div | Op::IntDiv | Op::Mod => {
                let a = self.num(args[0], env)?;
                let b = self.num(args[1], env)?;
                if b.is_zero() {
                    return Err(EvalError::DivisionByZero);
                }
                Value::Num(match term.op {
                    Op::Div => a / b,
                    Op::IntDiv => a.int_div(&b),
                    _ => a.int_mod(&b),
                })
            }
            Op::Abs => Value::Num(self.num(args[0], env)?.abs()),
            Op::ToReal => Value::Num(self.num(args[0], env)?),
            Op::ToInt => Value::Num(self.num(args[0], env)?.floor()),
            Op::IsInt => Value::Bool(self.num(args[0], env)?.is_integer()),
            Op::Le | Op::Lt | Op::Ge | Op::Gt => {
                let a = self.num(args[0], env)?;
                let b = self.num(args[1], env)?;
                Value::Bool(match term.op {
                    Op::Le => a <= b,
                    Op::Lt => a < b,
                    Op::Ge => a >= b,
                    _ => a > b,
                })
            }
            Op::Select => {
                let a = self.array(args[0], env)?;
                let i = self.eval(args[1], env)?;
                a.read(&i).clone()
            }
            Op::Store => {
                let a = self.array(args[0], env)?;
                let i = self.eval(args[1], env)?;
                let v = self.eval(args[2], env)?;
                Value::Array(Box::new(a.write(i, v)))
            }
            Op::ConstArray => {
                let mut a = ArrayValue::constant(self.eval(args[0], env)?);
                a.normalize();
                Value::Array(Box::new(a))
            }
            Op::Forall(_) | Op::Exists(_) => return Err(EvalError::Quantifier),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluates_arithmetic_and_functions() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::Int);
        let xt = s.mk_var(x);
        let seven = s.mk_int(-7);
        let two = s.mk_int(2);
        let m = s.mk(Op::Mod, &[seven, two]).unwrap();
        let d = s.mk(Op::IntDiv, &[seven, two]).unwrap();
        let sum = s.mk_add(&[m, d, xt]);
        let mut model = Model::new();
        model.set(x, Value::Num(Rational::int(10)));
        assert_eq!(
            model.eval(&s, sum).unwrap(),
            Value::Num(Rational::int(1 - 4 + 10))
        );

        // P(a) := a >= 3, evaluated at x and at x - 8.
        let p = s.declare_func("P", &[Sort::Int], Sort::Bool).unwrap();
        let a = s.var("a", Sort::Int);
        let at = s.mk_var(a);
        let three = s.mk_int(3);
        let body = s.mk_ge(at, three);
        model.set_func(
            p,
            FuncInterp {
                params: vec![a],
                body,
            },
        );
        let px = s.mk_app(p, &[xt]);
        assert!(model.eval_bool(&s, px).unwrap());
        let eight = s.mk_int(8);
        let xm8 = s.mk_sub(xt, eight);
        let pxm8 = s.mk_app(p, &[xm8]);
        assert!(!model.eval_bool(&s, pxm8).unwrap());
    }

    #[test]
    fn unspecified_values_are_errors() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::Int);
        let xt = s.mk_var(x);
        let zero = s.mk_int(0);
        let d = s.mk(Op::IntDiv, &[xt, zero]).unwrap();
        let mut model = Model::new();
        assert!(matches!(model.eval(&s, xt), Err(EvalError::Unassigned(_))));
        model.complete = true;
        assert_eq!(model.eval(&s, d), Err(EvalError::DivisionByZero));
    }
}
