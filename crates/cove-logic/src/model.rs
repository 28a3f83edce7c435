//! Models and evaluation.
//!
//! A [`Model`] assigns values to variables and may interpret function symbols by a
//! definition `f(params) = body` (this is how CHC invariants are represented). Evaluation is
//! exact and follows SMT-LIB semantics; where SMT-LIB leaves a value unspecified (division by
//! zero), evaluation reports an error instead of guessing, so certificate checks built on it
//! can only fail safe.

use crate::Rational;
use crate::term::{FuncId, Op, Sort, TermId, TermStore, VarId};
use rustc_hash::{FxHashMap, FxHashSet};
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
    /// A bit-vector.
    Bv(crate::bv::BvValue),
    /// A datatype value: constructor index and field values.
    Dt(std::sync::Arc<DtValue>),
}

/// A datatype value `(C v1 ... vn)`.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct DtValue {
    /// The datatype sort.
    pub sort: Sort,
    /// The constructor's index.
    pub ctor: u32,
    /// The field values.
    pub fields: Vec<Value>,
}

/// Values are shared (`Value::Dt` holds an `Arc`), so a value built from its fields costs
/// no copy of them: evaluating a 10,000-deep constructor term bottom-up copied every
/// suffix (quadratic). The drop is iterative: a long list must not overflow the stack.
impl Drop for DtValue {
    fn drop(&mut self) {
        let mut stack: Vec<Value> = std::mem::take(&mut self.fields);
        while let Some(v) = stack.pop() {
            if let Value::Dt(mut d) = v
                && let Some(inner) = std::sync::Arc::get_mut(&mut d)
            {
                stack.append(&mut inner.fields);
            }
        }
    }
}

/// Compares the pairs of `stack` extensionally (an explicit stack: datatype values may be
/// deep); `None` when that would compare [`ambiguous`] indices by their representation.
fn same_all<'a>(mut stack: Vec<(&'a Value, &'a Value)>) -> Option<bool> {
    while let Some((a, b)) = stack.pop() {
        match (a, b) {
            (Value::Array(x), Value::Array(y)) if !push_arrays(&mut stack, x, y) => return None,
            (Value::Array(_), Value::Array(_)) => {}
            (Value::Dt(x), Value::Dt(y)) if holds_array(x.sort) => {
                if x.ctor != y.ctor || x.fields.len() != y.fields.len() {
                    return Some(false);
                }
                stack.extend(x.fields.iter().zip(&y.fields));
            }
            _ if a != b => return Some(false),
            _ => {}
        }
    }
    Some(true)
}

/// Extensional equality of `a` and `b` ([`Value::same`]), or `None` where it would rest on
/// the representation of [`ambiguous`] indices.
fn same_exact(a: &Value, b: &Value) -> Option<bool> {
    match (a, b) {
        (Value::Array(_), Value::Array(_)) | (Value::Dt(_), Value::Dt(_)) => same_all(vec![(a, b)]),
        _ => Some(a == b),
    }
}

/// Pushes the cells of `x` and `y` at every index either lists, and their defaults unless
/// those indices are all the index sort has; `false` (nothing pushed) when an index is
/// [`ambiguous`].
fn push_arrays<'a>(
    stack: &mut Vec<(&'a Value, &'a Value)>,
    x: &'a ArrayValue,
    y: &'a ArrayValue,
) -> bool {
    if keys_ambiguous(x) || keys_ambiguous(y) {
        return false;
    }
    let mut listed: Vec<&Value> = x.entries.iter().chain(&y.entries).map(|(i, _)| i).collect();
    listed.sort_unstable();
    listed.dedup();
    let all = listed
        .first()
        .and_then(|i| values_of_sort_of(i))
        .is_some_and(|n| listed.len() as u128 >= n);
    for i in listed {
        stack.push((x.read(i), y.read(i)));
    }
    if !all {
        stack.push((&x.default, &y.default));
    }
    true
}

/// The number of values of the sort of `v`, when finite and below 2^100; `None` for
/// infinite sorts and for the sorts it cannot tell from a value (arrays).
fn values_of_sort_of(v: &Value) -> Option<u128> {
    match v {
        Value::Bool(_) => Some(2),
        Value::Bv(b) => (b.width() < 100).then(|| 1u128 << b.width()),
        Value::Dt(d) => values_of_sort(d.sort),
        Value::Num(_) | Value::Array(_) => None,
    }
}

/// The number of values of `sort` when finite and below 2^100 (non-recursive datatypes
/// nested at most 16 deep, over Booleans and bit-vectors).
fn values_of_sort(sort: Sort) -> Option<u128> {
    const CAP: u128 = 1 << 100;
    fn go(sort: Sort, depth: u32) -> Option<u128> {
        match sort {
            Sort::Bool => Some(2),
            Sort::BitVec(w) => (w < 100).then(|| 1u128 << w),
            Sort::Dt(_) if depth < 16 && !crate::dt::is_recursive(sort) => {
                let def = crate::dt::def(sort)?;
                let mut total = 0u128;
                for c in &def.ctors {
                    let mut n = 1u128;
                    for f in &c.fields {
                        n = n.checked_mul(go(f.1, depth + 1)?).filter(|&n| n < CAP)?;
                    }
                    total = total.checked_add(n).filter(|&t| t < CAP)?;
                }
                Some(total)
            }
            _ => None,
        }
    }
    go(sort, 0)
}

/// Whether `v` holds an array over a finite index sort that lists cells: such an array has
/// several representations (see [`EvalError::ArrayIndexedByArrays`]). An explicit stack, as
/// values may be deep.
fn ambiguous(v: &Value) -> bool {
    any_array(v, |a| {
        a.entries
            .first()
            .is_some_and(|(i, _)| values_of_sort_of(i).is_some())
    })
}

/// Whether a cell of `a` has an [`ambiguous`] index (at once `false` when the indices are
/// scalars: they all have one sort).
fn keys_ambiguous(a: &ArrayValue) -> bool {
    let holds = |i: &Value| match i {
        Value::Array(_) => true,
        Value::Dt(d) => holds_array(d.sort),
        _ => false,
    };
    a.entries.first().is_some_and(|(i, _)| holds(i)) && a.entries.iter().any(|(i, _)| ambiguous(i))
}

/// Whether some array inside `v` (`v` itself, its cells, indices and defaults, the fields of
/// datatype values) satisfies `p`.
fn any_array(v: &Value, p: fn(&ArrayValue) -> bool) -> bool {
    if !matches!(v, Value::Array(_) | Value::Dt(_)) {
        return false;
    }
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(a) => {
                if p(a) {
                    return true;
                }
                for (i, x) in &a.entries {
                    stack.push(i);
                    stack.push(x);
                }
                stack.push(&a.default);
            }
            Value::Dt(d) if holds_array(d.sort) => stack.extend(&d.fields),
            _ => {}
        }
    }
    false
}

/// Whether values of datatype `sort` can hold arrays (then `==` on them is not `=`).
fn holds_array(sort: Sort) -> bool {
    let mut seen: Vec<Sort> = vec![];
    let mut stack = vec![sort];
    while let Some(s) = stack.pop() {
        if s.is_array() {
            return true;
        }
        if !seen.contains(&s) {
            seen.push(s);
            stack.extend(crate::dt::field_sorts(s));
        }
    }
    false
}

/// An array value: `default` everywhere except at the `entries`.
///
/// Kept canonical (entries sorted by index, none equal to the default, and a Bool-indexed
/// array never lists both indices) so that, over Booleans and infinite index sorts, equal
/// arrays are equal values. Over bit-vector indices an array may list every index, so `=`
/// is [`Value::same`] (extensional), not `==` (the same representation).
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

    /// Extensional equality: the same value at every index ([`Value::same`]).
    pub fn same(&self, o: &ArrayValue) -> bool {
        let mut stack = vec![];
        if !push_arrays(&mut stack, self, o) {
            return self == o;
        }
        same_all(stack).unwrap_or(self == o)
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
    /// Extensional equality, the meaning of `=`. Unlike `==` (the same representation), it
    /// compares arrays cell by cell, also inside datatype values: an array that lists every
    /// index of a finite index sort equals a constant array whatever its default (over
    /// `(_ BitVec 1)`, `{0 ↦ 1, 1 ↦ 1; default 0}` is the constant array 1). The size of an
    /// index sort is read off the listed indices: Booleans, bit-vectors and non-recursive
    /// datatypes are finite, other sorts count as infinite. Indices that hold arrays are
    /// compared by representation, which can be wrong (two representations of one array):
    /// the evaluator refuses such comparisons ([`EvalError::ArrayIndexedByArrays`]).
    pub fn same(&self, o: &Value) -> bool {
        same_exact(self, o).unwrap_or(self == o)
    }

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

    /// The bit-vector inside, if any.
    pub fn as_bv(&self) -> Option<&crate::bv::BvValue> {
        match self {
            Value::Bv(v) => Some(v),
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
            Sort::BitVec(w) => Value::Bv(crate::bv::BvValue::zero(w)),
            Sort::Dt(_) => {
                let d = crate::dt::def(sort).expect("defined datatype");
                let c = crate::dt::base_ctor(sort).unwrap_or(0);
                Value::Dt(std::sync::Arc::new(DtValue {
                    sort,
                    ctor: c,
                    fields: d.ctors[c as usize]
                        .fields
                        .iter()
                        .map(|f| Value::default_of(f.1))
                        .collect(),
                }))
            }
            _ => Value::Num(Rational::ZERO),
        }
    }

    /// The value as a term of sort `sort` (arrays as `store` chains over a constant array).
    pub fn to_term(&self, store: &mut TermStore, sort: Sort) -> TermId {
        match self {
            Value::Bool(b) => store.mk_bool(*b),
            Value::Num(n) => store.mk_num(n.clone(), sort),
            Value::Bv(v) => store.mk_bv_lit(v.clone()),
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
            Value::Dt(d) => {
                let def = crate::dt::def(d.sort).expect("defined datatype");
                let fs = &def.ctors[d.ctor as usize].fields;
                let args: Vec<TermId> = d
                    .fields
                    .iter()
                    .zip(fs)
                    .map(|(v, f)| v.to_term(store, f.1))
                    .collect();
                store
                    .mk_ctor(d.sort, d.ctor, &args)
                    .expect("well-sorted value")
            }
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Num(n) => write!(f, "{n}"),
            Value::Bv(v) => write!(f, "{v}"),
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
            Value::Dt(d) => {
                let name = crate::dt::def(d.sort)
                    .map(|def| crate::print::symbol(&def.ctors[d.ctor as usize].name).into_owned())
                    .unwrap_or_else(|| "?".into());
                if d.fields.is_empty() {
                    return f.write_str(&name);
                }
                write!(f, "({name}")?;
                for v in &d.fields {
                    write!(f, " {v}")?;
                }
                f.write_str(")")
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
    /// Values of selectors applied to values of another constructor (SMT-LIB leaves them
    /// unspecified but fixed; a model of the datatype theory chooses them). Without an entry
    /// such a read is an evaluation error.
    wrong_sel: FxHashMap<(crate::dt::DtOp, Value), Value>,
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
    /// A selector applied to a value of another constructor: SMT-LIB leaves the value
    /// unspecified.
    #[error("selector '{0}' applied to a value of another constructor")]
    WrongSelector(String),
    /// An array read, written or compared at an index that is itself an array over a finite
    /// index sort listing cells (`{true ↦ true; default false}` and `{false ↦ false; default
    /// true}` are one array over Booleans): cells are keyed by the representation of their
    /// index, and such an index has several, so the result could be wrong; refused instead.
    /// (Over an infinite index sort, `(Array Int Int)` as Solidity's `bytes` keys, an array
    /// has one representation and is evaluated.)
    #[error("arrays indexed by arrays over finite index sorts are not evaluated")]
    ArrayIndexedByArrays,
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

    /// Fixes the value of selector `sel` (a [`crate::dt::DtOp::Sel`]) on `arg`, a value
    /// built by another constructor.
    pub fn set_wrong_selector(&mut self, sel: crate::dt::DtOp, arg: Value, value: Value) {
        self.wrong_sel.insert((sel, arg), value);
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

    /// Evaluates `t` in Kleene's three-valued reading (see [`eval_kleene`]).
    pub fn eval_kleene(&self, store: &TermStore, t: TermId) -> Result<Option<Value>, EvalError> {
        eval_kleene(store, t, self)
    }

    /// Evaluates a Bool term to a Boolean.
    pub fn eval_bool(&self, store: &TermStore, t: TermId) -> Result<bool, EvalError> {
        Ok(eval(store, t, self)?.as_bool().expect("Bool term"))
    }
}

/// Evaluates `t` under `model`. Function applications use the model's interpretations.
///
/// Iterative (an explicit stack of frames), so any nesting depth is fine. `and`, `or`, `=>`
/// and `ite` evaluate lazily: an argument that does not matter is never evaluated (and so
/// cannot raise an error).
pub fn eval(store: &TermStore, t: TermId, model: &Model) -> Result<Value, EvalError> {
    let mut ev = Evaluator::new(store, model, false);
    Ok(ev
        .run(t)?
        .expect("only Kleene evaluation leaves values unspecified"))
}

/// Evaluates `t` under `model` in Kleene's three-valued reading of the values SMT-LIB leaves
/// unspecified (a selector applied to a value of another constructor that `model` does not
/// fix, division by zero): `Ok(None)` when the value of `t` depends on them, `Ok(Some(v))`
/// when `t` has the value `v` *whatever* they are.
///
/// Why: a counterexample that holds only for some values of a wrong-constructor selector is
/// not a counterexample of the system as SMT-LIB defines it (a fixed but unknown value), nor
/// a refutation of one; the certificate checker accepts a step only when its constraint is
/// true under every choice. The reading is sound, not complete: `and`, `or` and `=>` decide
/// from a decisive argument, `ite` with an unspecified condition from equal branches, and
/// every other operator is unspecified as soon as an argument is (`(= (s x) (s x))` is
/// unspecified although it holds for every choice).
pub fn eval_kleene(
    store: &TermStore,
    t: TermId,
    model: &Model,
) -> Result<Option<Value>, EvalError> {
    Evaluator::new(store, model, true).run(t)
}

struct Evaluator<'a> {
    store: &'a TermStore,
    model: &'a Model,
    /// Values of terms outside function bodies (where the environment is the model itself).
    memo: FxHashMap<TermId, Value>,
    /// Parameter bindings of the function bodies being evaluated, innermost last.
    envs: Vec<FxHashMap<VarId, Value>>,
    /// Kleene evaluation ([`eval_kleene`]): unspecified values are results, not errors.
    kleene: bool,
    /// Terms outside function bodies whose value is unspecified (Kleene evaluation).
    unspec: FxHashSet<TermId>,
}

/// One term being evaluated: the values of the arguments asked for so far.
struct Frame {
    t: TermId,
    /// Index into `envs` of the bindings in force (`None`: the model alone).
    env: Option<usize>,
    vals: Vec<Value>,
    /// Whether this frame pushed an environment (a function application in its body).
    pushed_env: bool,
    /// The arguments whose value is unspecified (Kleene evaluation; a placeholder stands in
    /// `vals`): only `and`, `or`, the premise of `=>` and the condition of `ite` get here.
    unspec: Vec<usize>,
}

/// What a frame needs next.
enum Step {
    Need(TermId, Option<usize>),
    /// The value (`None`: unspecified, Kleene evaluation only).
    Done(Option<Value>),
}

impl<'a> Evaluator<'a> {
    fn new(store: &'a TermStore, model: &'a Model, kleene: bool) -> Self {
        Evaluator {
            store,
            model,
            memo: FxHashMap::default(),
            envs: Vec::new(),
            kleene,
            unspec: FxHashSet::default(),
        }
    }

    fn run(&mut self, root: TermId) -> Result<Option<Value>, EvalError> {
        let mut frames: Vec<Frame> = Vec::new();
        let mut ret: Option<Option<Value>> = None;
        // Start by asking for `root` in the model's environment.
        let mut ask: Option<(TermId, Option<usize>)> = Some((root, None));
        loop {
            if let Some((t, env)) = ask.take() {
                if env.is_none()
                    && let Some(v) = self.memo.get(&t)
                {
                    ret = Some(Some(v.clone()));
                } else if env.is_none() && self.unspec.contains(&t) {
                    ret = Some(None);
                } else {
                    frames.push(Frame {
                        t,
                        env,
                        vals: Vec::new(),
                        pushed_env: false,
                        unspec: Vec::new(),
                    });
                }
            }
            let Some(frame) = frames.last_mut() else {
                return Ok(ret.expect("the root was evaluated"));
            };
            let mut step = None;
            match ret.take() {
                Some(Some(v)) => frame.vals.push(v),
                Some(None) => {
                    // An unspecified argument: a placeholder where the operator can still
                    // decide without it, else the frame is unspecified too.
                    let n = frame.vals.len();
                    let op = &self.store.get(frame.t).op;
                    let placeholder = match op {
                        Op::And => Some(true),
                        Op::Or => Some(false),
                        Op::Implies | Op::Ite if n == 0 => Some(true),
                        _ => None,
                    };
                    match placeholder {
                        Some(b) => {
                            frame.vals.push(Value::Bool(b));
                            frame.unspec.push(n);
                        }
                        None => step = Some(Step::Done(None)),
                    }
                }
                None => {}
            }
            let step = match step {
                Some(s) => s,
                None => match self.step(frame) {
                    Err(EvalError::WrongSelector(_) | EvalError::DivisionByZero) if self.kleene => {
                        Step::Done(None)
                    }
                    r => r?,
                },
            };
            match step {
                Step::Need(t, env) => ask = Some((t, env)),
                Step::Done(v) => {
                    let frame = frames.pop().expect("current frame");
                    if frame.pushed_env {
                        self.envs.pop();
                    }
                    if frame.env.is_none() {
                        match &v {
                            Some(v) => {
                                self.memo.insert(frame.t, v.clone());
                            }
                            None => {
                                self.unspec.insert(frame.t);
                            }
                        }
                    }
                    ret = Some(v);
                }
            }
        }
    }

    /// Advances `frame` given the argument values it has received.
    fn step(&mut self, frame: &mut Frame) -> Result<Step, EvalError> {
        let store = self.store;
        let term = store.get(frame.t);
        let args = &term.args;
        let env = frame.env;
        let vals = &frame.vals;
        let n = vals.len();
        let need = |i: usize| Ok(Step::Need(args[i], env));
        let b = |i: usize| vals[i].as_bool().expect("well-sorted term");
        let num = |i: usize| match &vals[i] {
            Value::Num(x) => x,
            _ => unreachable!("well-sorted term"),
        };
        let done = |v: Value| Ok(Step::Done(Some(v)));
        let unspec = |i: usize| frame.unspec.contains(&i);
        match &term.op {
            Op::Forall(_) | Op::Exists(_) => Err(EvalError::Quantifier),
            Op::Bool(x) => done(Value::Bool(*x)),
            Op::Num(x) => done(Value::Num(x.clone())),
            Op::Var(v) => {
                if let Some(x) = env.and_then(|e| self.envs[e].get(v)) {
                    return done(x.clone());
                }
                match self.model.vars.get(v) {
                    Some(x) => done(x.clone()),
                    None if self.model.complete => done(Value::default_of(store.var_sort(*v))),
                    None => Err(EvalError::Unassigned(store.var_name(*v).to_string())),
                }
            }
            Op::App(f) => {
                let Some(interp) = self.model.funcs.get(f) else {
                    return Err(EvalError::Uninterpreted(store.func(*f).name.to_string()));
                };
                if n < args.len() {
                    need(n)
                } else if n == args.len() {
                    let inner: FxHashMap<VarId, Value> = interp
                        .params
                        .iter()
                        .copied()
                        .zip(vals.iter().cloned())
                        .collect();
                    self.envs.push(inner);
                    frame.pushed_env = true;
                    Ok(Step::Need(interp.body, Some(self.envs.len() - 1)))
                } else {
                    done(vals[n - 1].clone())
                }
            }
            Op::And | Op::Or => {
                // (A placeholder is the neutral element: never decisive.)
                let short = term.op == Op::Or;
                if n > 0 && b(n - 1) == short {
                    done(Value::Bool(short))
                } else if n == args.len() && !frame.unspec.is_empty() {
                    Ok(Step::Done(None))
                } else if n == args.len() {
                    done(Value::Bool(!short))
                } else {
                    need(n)
                }
            }
            Op::Implies => match n {
                0 => need(0),
                1 if !b(0) && !unspec(0) => done(Value::Bool(true)),
                1 => need(1),
                _ if b(1) => done(Value::Bool(true)),
                _ if unspec(0) => Ok(Step::Done(None)),
                _ => done(Value::Bool(false)),
            },
            Op::Ite if unspec(0) => match n {
                // Unspecified condition: the value if both branches agree.
                1 => need(1),
                2 => need(2),
                _ if vals[1] == vals[2] => done(vals[1].clone()),
                _ => Ok(Step::Done(None)),
            },
            Op::Ite => match n {
                0 => need(0),
                1 => need(if b(0) { 1 } else { 2 }),
                _ => done(vals[1].clone()),
            },
            _ if n < args.len() => need(n),
            Op::Not => done(Value::Bool(!b(0))),
            Op::Xor => done(Value::Bool(b(0) != b(1))),
            Op::Eq => match same_exact(&vals[0], &vals[1]) {
                Some(eq) => done(Value::Bool(eq)),
                None => Err(EvalError::ArrayIndexedByArrays),
            },
            Op::Distinct => {
                for i in 0..n {
                    for j in i + 1..n {
                        match same_exact(&vals[i], &vals[j]) {
                            Some(false) => {}
                            Some(true) => return done(Value::Bool(false)),
                            None => return Err(EvalError::ArrayIndexedByArrays),
                        }
                    }
                }
                done(Value::Bool(true))
            }
            Op::Add => {
                let mut s = Rational::ZERO;
                for i in 0..n {
                    s += num(i);
                }
                done(Value::Num(s))
            }
            Op::Sub => done(Value::Num(num(0) - num(1))),
            Op::Neg => done(Value::Num(-num(0))),
            Op::Mul => {
                let mut p = Rational::ONE;
                for i in 0..n {
                    p *= num(i);
                }
                done(Value::Num(p))
            }
            Op::Div | Op::IntDiv | Op::Mod => {
                let (a, b) = (num(0), num(1));
                if b.is_zero() {
                    return Err(EvalError::DivisionByZero);
                }
                done(Value::Num(match term.op {
                    Op::Div => a / b,
                    Op::IntDiv => a.int_div(b),
                    _ => a.int_mod(b),
                }))
            }
            Op::Abs => done(Value::Num(num(0).abs())),
            Op::ToReal => done(Value::Num(num(0).clone())),
            Op::ToInt => done(Value::Num(num(0).floor())),
            Op::IsInt => done(Value::Bool(num(0).is_integer())),
            Op::Le | Op::Lt | Op::Ge | Op::Gt => {
                let (a, b) = (num(0), num(1));
                done(Value::Bool(match term.op {
                    Op::Le => a <= b,
                    Op::Lt => a < b,
                    Op::Ge => a >= b,
                    _ => a > b,
                }))
            }
            Op::Select | Op::Store
                if ambiguous(&vals[1])
                    || matches!(&vals[0], Value::Array(a) if keys_ambiguous(a)) =>
            {
                Err(EvalError::ArrayIndexedByArrays)
            }
            Op::Select => match &vals[0] {
                Value::Array(a) => done(a.read(&vals[1]).clone()),
                _ => unreachable!("well-sorted term"),
            },
            Op::Store => match &vals[0] {
                Value::Array(a) => done(Value::Array(Box::new(
                    a.write(vals[1].clone(), vals[2].clone()),
                ))),
                _ => unreachable!("well-sorted term"),
            },
            Op::ConstArray => {
                let mut a = ArrayValue::constant(vals[0].clone());
                a.normalize();
                done(Value::Array(Box::new(a)))
            }
            Op::Bv(op) => done(crate::bv::eval(op, vals, term.sort)),
            Op::Dt(crate::dt::DtOp::Ctor(c)) => done(Value::Dt(std::sync::Arc::new(DtValue {
                sort: term.sort,
                ctor: *c,
                fields: vals.clone(),
            }))),
            Op::Dt(crate::dt::DtOp::Test { ctor, .. }) => match &vals[0] {
                Value::Dt(d) => done(Value::Bool(d.ctor == *ctor)),
                _ => unreachable!("well-sorted term"),
            },
            Op::Dt(op @ crate::dt::DtOp::Sel { ctor, field, .. }) => match &vals[0] {
                Value::Dt(d) if d.ctor == *ctor => done(d.fields[*field as usize].clone()),
                Value::Dt(_) if self.model.wrong_sel.contains_key(&(*op, vals[0].clone())) => {
                    done(self.model.wrong_sel[&(*op, vals[0].clone())].clone())
                }
                Value::Dt(_) => Err(EvalError::WrongSelector(crate::dt::op_name(
                    *op,
                    store.sort(args[0]),
                ))),
                _ => unreachable!("well-sorted term"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn array_equality_is_extensional_over_finite_index_sorts() {
        let bv = |w, n| Value::Bv(crate::bv::BvValue::from_u64(w, n));
        // Over (_ BitVec 1): both cells 1 is the constant array 1, whatever the default.
        let full = ArrayValue {
            default: bv(4, 0),
            entries: vec![(bv(1, 0), bv(4, 1)), (bv(1, 1), bv(4, 1))],
        };
        let one = ArrayValue::constant(bv(4, 1));
        assert!(full.same(&one) && one.same(&full));
        assert_ne!(full, one, "different representations");
        // One cell unlisted: the defaults decide.
        let half = ArrayValue {
            default: bv(4, 0),
            entries: vec![(bv(1, 0), bv(4, 1))],
        };
        assert!(!half.same(&one));
        // Over a wider index sort listing two cells is not all of them.
        let wide = ArrayValue {
            default: bv(4, 0),
            entries: vec![(bv(8, 0), bv(4, 1)), (bv(8, 1), bv(4, 1))],
        };
        assert!(!wide.same(&ArrayValue::constant(bv(4, 1))));
        // `=` and `distinct` in the evaluator mean extensional equality.
        let mut s = TermStore::new();
        let sort = Sort::array(Sort::BitVec(1), Sort::BitVec(4));
        let (a, b) = (s.var("a", sort), s.var("b", sort));
        let (at, bt) = (s.mk_var(a), s.mk_var(b));
        let eq = s.mk_eq(at, bt);
        let ne = s.mk(Op::Distinct, &[at, bt]).unwrap();
        let mut m = Model::new();
        m.set(a, Value::Array(Box::new(full)));
        m.set(b, Value::Array(Box::new(one)));
        assert_eq!(m.eval(&s, eq).unwrap(), Value::Bool(true));
        assert_eq!(m.eval(&s, ne).unwrap(), Value::Bool(false));
        // Indices of an enumeration: its three values listed are all of them; and arrays
        // inside datatype values are compared the same way.
        let color = crate::dt::declare(
            "SameTestColor",
            ["r", "g", "b"]
                .iter()
                .map(|n| crate::dt::Ctor {
                    name: (*n).into(),
                    fields: vec![],
                })
                .collect(),
        );
        let c = |k| {
            Value::Dt(std::sync::Arc::new(DtValue {
                sort: color,
                ctor: k,
                fields: vec![],
            }))
        };
        let by_color = |default, listed: u32| ArrayValue {
            default: bv(4, default),
            entries: (0..listed).map(|k| (c(k), bv(4, 1))).collect(),
        };
        assert!(by_color(0, 3).same(&ArrayValue::constant(bv(4, 1))));
        assert!(!by_color(0, 2).same(&ArrayValue::constant(bv(4, 1))));
        let boxed = crate::dt::declare(
            "SameTestBox",
            vec![crate::dt::Ctor {
                name: "mk-same-box".into(),
                fields: vec![("content".into(), Sort::array(color, Sort::BitVec(4)))],
            }],
        );
        let in_box = |a: ArrayValue| {
            Value::Dt(std::sync::Arc::new(DtValue {
                sort: boxed,
                ctor: 0,
                fields: vec![Value::Array(Box::new(a))],
            }))
        };
        let (x, y) = (
            in_box(by_color(0, 3)),
            in_box(ArrayValue::constant(bv(4, 1))),
        );
        assert!(x.same(&y) && x != y);
        assert!(!in_box(by_color(0, 2)).same(&y));
    }

    #[test]
    fn arrays_indexed_by_arrays_are_refused_not_misread() {
        // Over Booleans `{true ↦ true; default false}` and `{false ↦ false; default true}`
        // are one array (the identity): as indices they would be two cells.
        let b = Value::Bool;
        let k1 = ArrayValue {
            default: b(false),
            entries: vec![(b(true), b(true))],
        };
        let k2 = ArrayValue {
            default: b(true),
            entries: vec![(b(false), b(false))],
        };
        assert!(k1.same(&k2) && k1 != k2);
        let mut s = TermStore::new();
        let key = Sort::array(Sort::Bool, Sort::Bool);
        let sort = Sort::array(key, Sort::Int);
        let (a, c, x, y) = (
            s.var("a", sort),
            s.var("c", sort),
            s.var("x", key),
            s.var("y", key),
        );
        let (at, ct, xt, yt) = (s.mk_var(a), s.mk_var(c), s.mk_var(x), s.mk_var(y));
        let five = s.mk_int(5);
        let stored = s.mk_store(at, xt, five);
        let read = s.mk_select(stored, yt);
        let eq = s.mk_eq(stored, ct);
        let keys_eq = s.mk_eq(xt, yt);
        let mut m = Model::new();
        m.set(
            a,
            Value::Array(Box::new(ArrayValue::constant(Value::Num(Rational::int(0))))),
        );
        m.set(x, Value::Array(Box::new(k1.clone())));
        m.set(y, Value::Array(Box::new(k2)));
        let mut cv = ArrayValue::constant(Value::Num(Rational::int(0)));
        cv.entries
            .push((Value::Array(Box::new(k1)), Value::Num(Rational::int(5))));
        m.set(c, Value::Array(Box::new(cv)));
        // (select (store a x 5) y) is 5, which a lookup by representation misses.
        assert_eq!(m.eval(&s, read), Err(EvalError::ArrayIndexedByArrays));
        assert_eq!(m.eval(&s, eq), Err(EvalError::ArrayIndexedByArrays));
        // The index arrays themselves compare as before.
        assert_eq!(m.eval(&s, keys_eq).unwrap(), Value::Bool(true));
    }

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
