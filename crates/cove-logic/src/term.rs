//! The hash-consed term DAG.
//!
//! All terms live in one explicit [`TermStore`] arena that callers pass by reference (no
//! global state, so engines of a portfolio can each own a store). A term is identified by a
//! dense [`TermId`]; structurally equal terms get the same id, so equality of terms is a
//! `u32` comparison and maps keyed by `TermId` share work across the DAG.
//!
//! # Invariant
//! Every stored term is well sorted: the `mk_*` constructors check sorts (`debug_assert` for
//! the engine-facing ones, a [`SortError`] for [`TermStore::mk`], the checked entry point the
//! parser uses). Arguments of a term always have smaller ids than the term itself, so
//! iterating ids in increasing order is a topological order of the DAG.

use crate::Rational;
use rustc_hash::FxHashMap;
use std::fmt;

/// The sorts Cove reasons about. Datatypes are rejected by the front ends as an unsupported
/// theory.
///
/// Array sorts are interned process-wide (see [`Sort::array`]) so that `Sort` stays a small
/// `Copy` value that prints without a store: sorts are immutable and shared by every store,
/// unlike terms.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Sort {
    /// Booleans.
    Bool,
    /// Mathematical integers.
    Int,
    /// Mathematical reals (rationals suffice for linear arithmetic).
    Real,
    /// `(Array index elem)`: the payload indexes the global array-sort table.
    Array(u32),
    /// `(_ BitVec w)`, `w ≥ 1` (see [`crate::bv`]).
    BitVec(u32),
    /// An algebraic datatype: the payload indexes the global datatype table (see [`crate::dt`]).
    Dt(u32),
}

/// The process-wide table of array sorts: `(index, element)` pairs.
fn array_sorts() -> &'static std::sync::RwLock<Vec<(Sort, Sort)>> {
    static TABLE: std::sync::OnceLock<std::sync::RwLock<Vec<(Sort, Sort)>>> =
        std::sync::OnceLock::new();
    TABLE.get_or_init(|| std::sync::RwLock::new(Vec::new()))
}

impl Sort {
    /// True for `Int` and `Real`.
    pub fn is_arith(self) -> bool {
        matches!(self, Sort::Int | Sort::Real)
    }

    /// True for array sorts.
    pub fn is_array(self) -> bool {
        matches!(self, Sort::Array(_))
    }

    /// The sort `(Array index elem)` (interned: equal components give equal sorts).
    pub fn array(index: Sort, elem: Sort) -> Sort {
        let table = array_sorts();
        if let Some(i) = table
            .read()
            .expect("sort table")
            .iter()
            .position(|&p| p == (index, elem))
        {
            return Sort::Array(i as u32);
        }
        let mut w = table.write().expect("sort table");
        if let Some(i) = w.iter().position(|&p| p == (index, elem)) {
            return Sort::Array(i as u32);
        }
        w.push((index, elem));
        Sort::Array((w.len() - 1) as u32)
    }

    /// `(index, elem)` of an array sort.
    pub fn array_parts(self) -> Option<(Sort, Sort)> {
        match self {
            Sort::Array(i) => Some(array_sorts().read().expect("sort table")[i as usize]),
            _ => None,
        }
    }

    /// The index sort of an array sort.
    pub fn index_sort(self) -> Option<Sort> {
        self.array_parts().map(|p| p.0)
    }

    /// The element sort of an array sort.
    pub fn elem_sort(self) -> Option<Sort> {
        self.array_parts().map(|p| p.1)
    }
}

impl fmt::Display for Sort {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sort::Bool => f.write_str("Bool"),
            Sort::Int => f.write_str("Int"),
            Sort::Real => f.write_str("Real"),
            Sort::Array(_) => {
                let (i, e) = self.array_parts().expect("array sort");
                write!(f, "(Array {i} {e})")
            }
            Sort::BitVec(w) => write!(f, "(_ BitVec {w})"),
            Sort::Dt(_) => f.write_str(&crate::print::symbol(&crate::dt::name(*self))),
        }
    }
}

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        #[repr(transparent)]
        pub struct $name(pub u32);
        impl $name {
            /// The dense index of this id.
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// A term in a [`TermStore`].
    TermId
);
id_type!(
    /// A (first-order) variable: a free constant or a quantified variable.
    VarId
);
id_type!(
    /// An uninterpreted function symbol; in CHC systems these are the predicates.
    FuncId
);

/// The operator at the root of a term.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Op {
    /// Boolean constant.
    Bool(bool),
    /// Numeral; the term's sort says whether it is an `Int` (then it is integral) or a `Real`.
    Num(Rational),
    /// A variable.
    Var(VarId),
    /// Application of an uninterpreted function (predicate) to the arguments.
    App(FuncId),
    /// Negation (1 argument).
    Not,
    /// Conjunction (any number of arguments; `and()` is true).
    And,
    /// Disjunction (any number of arguments; `or()` is false).
    Or,
    /// Implication, right associative as in SMT-LIB, kept binary here.
    Implies,
    /// Exclusive or (binary).
    Xor,
    /// Equality (binary; chains are expanded by the parser). Also Boolean `iff`.
    Eq,
    /// Pairwise distinct (2 or more arguments).
    Distinct,
    /// If-then-else (condition, then, else).
    Ite,
    /// Sum (2 or more arguments).
    Add,
    /// Difference (binary).
    Sub,
    /// Unary minus.
    Neg,
    /// Product (2 or more arguments).
    Mul,
    /// Real division (binary).
    Div,
    /// SMT-LIB integer division `div` (binary).
    IntDiv,
    /// SMT-LIB integer remainder `mod` (binary).
    Mod,
    /// Absolute value.
    Abs,
    /// Int to Real conversion.
    ToReal,
    /// Real to Int (floor).
    ToInt,
    /// Integrality test on a Real.
    IsInt,
    /// `<=` (binary).
    Le,
    /// `<` (binary).
    Lt,
    /// `>=` (binary).
    Ge,
    /// `>` (binary).
    Gt,
    /// Array read `(select a i)` (binary).
    Select,
    /// Array write `(store a i v)` (ternary).
    Store,
    /// Constant array `((as const S) v)`: the term's (array) sort says which.
    ConstArray,
    /// Universal quantifier over the listed variables; the single argument is the body.
    Forall(Box<[VarId]>),
    /// Existential quantifier over the listed variables; the single argument is the body.
    Exists(Box<[VarId]>),
    /// A bit-vector operator or literal (see [`crate::bv`]).
    Bv(crate::bv::BvOp),
    /// A datatype constructor, selector or tester (see [`crate::dt`]).
    Dt(crate::dt::DtOp),
}

/// One node of the DAG.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Term {
    /// Root operator.
    pub op: Op,
    /// Arguments, in order.
    pub args: Box<[TermId]>,
    /// Sort of the term.
    pub sort: Sort,
}

/// A declared variable.
#[derive(Clone, Debug)]
pub struct VarDecl {
    /// SMT-LIB name (unique per sort within a store).
    pub name: Box<str>,
    /// Sort.
    pub sort: Sort,
}

/// A declared function symbol.
#[derive(Clone, Debug)]
pub struct FuncDecl {
    /// SMT-LIB name (unique within a store).
    pub name: Box<str>,
    /// Argument sorts.
    pub args: Box<[Sort]>,
    /// Result sort (`Bool` for predicates).
    pub ret: Sort,
}

/// Arguments of an operator do not have the sorts it needs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SortError(pub String);

/// The arena of terms, variables and function symbols.
#[derive(Clone, Default)]
pub struct TermStore {
    terms: Vec<Term>,
    table: FxHashMap<Term, TermId>,
    vars: Vec<VarDecl>,
    var_table: FxHashMap<(Box<str>, Sort), VarId>,
    funcs: Vec<FuncDecl>,
    func_table: FxHashMap<Box<str>, FuncId>,
    fresh_counter: u64,
}

impl TermStore {
    /// An empty store.
    pub fn new() -> TermStore {
        TermStore::default()
    }

    /// Number of terms created so far.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// True when no term exists yet.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The node of `t`.
    pub fn get(&self, t: TermId) -> &Term {
        &self.terms[t.index()]
    }

    /// The root operator of `t`.
    pub fn op(&self, t: TermId) -> &Op {
        &self.terms[t.index()].op
    }

    /// The arguments of `t`.
    pub fn args(&self, t: TermId) -> &[TermId] {
        &self.terms[t.index()].args
    }

    /// The sort of `t`.
    pub fn sort(&self, t: TermId) -> Sort {
        self.terms[t.index()].sort
    }

    /// The variable declaration behind `v`.
    pub fn var_decl(&self, v: VarId) -> &VarDecl {
        &self.vars[v.index()]
    }

    /// The name of `v`.
    pub fn var_name(&self, v: VarId) -> &str {
        &self.vars[v.index()].name
    }

    /// The sort of `v`.
    pub fn var_sort(&self, v: VarId) -> Sort {
        self.vars[v.index()].sort
    }

    /// Number of variables declared so far.
    pub fn num_vars(&self) -> usize {
        self.vars.len()
    }

    /// The function declaration behind `f`.
    pub fn func(&self, f: FuncId) -> &FuncDecl {
        &self.funcs[f.index()]
    }

    /// All declared function symbols.
    pub fn funcs(&self) -> impl Iterator<Item = (FuncId, &FuncDecl)> {
        self.funcs
            .iter()
            .enumerate()
            .map(|(i, d)| (FuncId(i as u32), d))
    }

    /// The function symbol named `name`, if declared.
    pub fn func_by_name(&self, name: &str) -> Option<FuncId> {
        self.func_table.get(name).copied()
    }

    /// Declares a function symbol. Fails if the name is taken with a different signature;
    /// redeclaring with the same signature returns the existing id.
    pub fn declare_func(
        &mut self,
        name: &str,
        args: &[Sort],
        ret: Sort,
    ) -> Result<FuncId, SortError> {
        if let Some(&f) = self.func_table.get(name) {
            let d = &self.funcs[f.index()];
            if &*d.args == args && d.ret == ret {
                return Ok(f);
            }
            return Err(SortError(format!(
                "function '{name}' is already declared with another signature"
            )));
        }
        let id = FuncId(self.funcs.len() as u32);
        self.funcs.push(FuncDecl {
            name: name.into(),
            args: args.into(),
            ret,
        });
        self.func_table.insert(name.into(), id);
        Ok(id)
    }

    /// The variable named `name` of sort `sort`, created on first use.
    pub fn var(&mut self, name: &str, sort: Sort) -> VarId {
        if let Some(&v) = self.var_table.get(&(name.into(), sort)) {
            return v;
        }
        let id = VarId(self.vars.len() as u32);
        self.vars.push(VarDecl {
            name: name.into(),
            sort,
        });
        self.var_table.insert((name.into(), sort), id);
        id
    }

    /// A variable with a name not used before in this store, built from `prefix`.
    pub fn fresh_var(&mut self, prefix: &str, sort: Sort) -> VarId {
        loop {
            self.fresh_counter += 1;
            let name = format!("{prefix}!{}", self.fresh_counter);
            if !self.var_table.contains_key(&(name.as_str().into(), sort)) {
                return self.var(&name, sort);
            }
        }
    }

    fn intern(&mut self, op: Op, args: Box<[TermId]>, sort: Sort) -> TermId {
        let term = Term { op, args, sort };
        if let Some(&id) = self.table.get(&term) {
            return id;
        }
        let id = TermId(self.terms.len() as u32);
        self.terms.push(term.clone());
        self.table.insert(term, id);
        id
    }

    // ----- engine-facing constructors (sorts checked by debug_assert) -----

    /// `true` or `false`.
    pub fn mk_bool(&mut self, b: bool) -> TermId {
        self.intern(Op::Bool(b), Box::new([]), Sort::Bool)
    }

    /// `true`.
    pub fn mk_true(&mut self) -> TermId {
        self.mk_bool(true)
    }

    /// `false`.
    pub fn mk_false(&mut self) -> TermId {
        self.mk_bool(false)
    }

    /// A numeral of sort `sort` (`Int` numerals must be integral).
    pub fn mk_num(&mut self, value: Rational, sort: Sort) -> TermId {
        debug_assert!(sort.is_arith());
        debug_assert!(sort == Sort::Real || value.is_integer());
        self.intern(Op::Num(value), Box::new([]), sort)
    }

    /// An integer numeral.
    pub fn mk_int(&mut self, n: i64) -> TermId {
        self.mk_num(Rational::int(n), Sort::Int)
    }

    /// The term of variable `v`.
    pub fn mk_var(&mut self, v: VarId) -> TermId {
        let sort = self.var_sort(v);
        self.intern(Op::Var(v), Box::new([]), sort)
    }

    /// `f(args)`.
    pub fn mk_app(&mut self, f: FuncId, args: &[TermId]) -> TermId {
        debug_assert_eq!(self.func(f).args.len(), args.len());
        let ret = self.func(f).ret;
        self.intern(Op::App(f), args.into(), ret)
    }

    /// `(not a)`, folding constants and double negation.
    pub fn mk_not(&mut self, a: TermId) -> TermId {
        debug_assert_eq!(self.sort(a), Sort::Bool);
        match self.op(a) {
            Op::Bool(b) => {
                let b = !*b;
                self.mk_bool(b)
            }
            Op::Not => self.args(a)[0],
            _ => self.intern(Op::Not, Box::new([a]), Sort::Bool),
        }
    }

    /// Flattened conjunction: drops `true` and duplicates, folds to `false` on a `false`
    /// argument, returns the single argument of a unary conjunction.
    pub fn mk_and(&mut self, args: &[TermId]) -> TermId {
        self.mk_junction(Op::And, args)
    }

    /// Flattened disjunction, dual of [`TermStore::mk_and`].
    pub fn mk_or(&mut self, args: &[TermId]) -> TermId {
        self.mk_junction(Op::Or, args)
    }

    fn mk_junction(&mut self, op: Op, args: &[TermId]) -> TermId {
        let unit = op == Op::And;
        let mut out: Vec<TermId> = Vec::with_capacity(args.len());
        let mut stack: Vec<TermId> = args.iter().rev().copied().collect();
        while let Some(a) = stack.pop() {
            debug_assert_eq!(self.sort(a), Sort::Bool);
            match self.op(a) {
                Op::Bool(b) if *b == unit => {}
                Op::Bool(_) => return self.mk_bool(!unit),
                o if *o == op => stack.extend(self.args(a).iter().rev()),
                _ => {
                    if !out.contains(&a) {
                        out.push(a);
                    }
                }
            }
        }
        match out.len() {
            0 => self.mk_bool(unit),
            1 => out[0],
            _ => self.intern(op, out.into(), Sort::Bool),
        }
    }

    /// `(=> a b)`.
    pub fn mk_implies(&mut self, a: TermId, b: TermId) -> TermId {
        let na = self.mk_not(a);
        self.mk_or(&[na, b])
    }

    /// `(= a b)`; trivially true when `a == b`.
    pub fn mk_eq(&mut self, a: TermId, b: TermId) -> TermId {
        debug_assert!(self.sorts_compatible(a, b));
        if a == b {
            return self.mk_true();
        }
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        if let (Op::Num(x), Op::Num(y)) = (self.op(a), self.op(b)) {
            let eq = x == y;
            return self.mk_bool(eq);
        }
        if let (Some(x), Some(y)) = (self.as_bv(a), self.as_bv(b)) {
            let eq = x == y;
            return self.mk_bool(eq);
        }
        self.intern(Op::Eq, Box::new([a, b]), Sort::Bool)
    }

    /// `(ite c a b)`, folding constant conditions and equal branches.
    pub fn mk_ite(&mut self, c: TermId, a: TermId, b: TermId) -> TermId {
        debug_assert_eq!(self.sort(c), Sort::Bool);
        match self.op(c) {
            Op::Bool(true) => return a,
            Op::Bool(false) => return b,
            _ => {}
        }
        if a == b {
            return a;
        }
        let sort = self.sort(a);
        self.intern(Op::Ite, Box::new([c, a, b]), sort)
    }

    fn arith_sort(&self, args: &[TermId]) -> Sort {
        if args.iter().any(|&a| self.sort(a) == Sort::Real) {
            Sort::Real
        } else {
            Sort::Int
        }
    }

    /// Sum of the arguments (no folding; see `simplify` for canonical forms).
    pub fn mk_add(&mut self, args: &[TermId]) -> TermId {
        match args.len() {
            0 => self.mk_int(0),
            1 => args[0],
            _ => {
                let sort = self.arith_sort(args);
                self.intern(Op::Add, args.into(), sort)
            }
        }
    }

    /// `(- a b)`.
    pub fn mk_sub(&mut self, a: TermId, b: TermId) -> TermId {
        let sort = self.arith_sort(&[a, b]);
        self.intern(Op::Sub, Box::new([a, b]), sort)
    }

    /// `(- a)`, folding numerals.
    pub fn mk_neg(&mut self, a: TermId) -> TermId {
        let sort = self.sort(a);
        if let Op::Num(x) = self.op(a) {
            let v = -x;
            return self.mk_num(v, sort);
        }
        self.intern(Op::Neg, Box::new([a]), sort)
    }

    /// Product of the arguments.
    pub fn mk_mul(&mut self, args: &[TermId]) -> TermId {
        match args.len() {
            0 => self.mk_int(1),
            1 => args[0],
            _ => {
                let sort = self.arith_sort(args);
                self.intern(Op::Mul, args.into(), sort)
            }
        }
    }

    /// `c * t` for a numeral `c` of `t`'s sort.
    pub fn mk_scale(&mut self, c: &Rational, t: TermId) -> TermId {
        if c.is_one() {
            return t;
        }
        let sort = self.sort(t);
        let c = self.mk_num(c.clone(), sort);
        self.mk_mul(&[c, t])
    }

    /// `(select a i)`, folding reads of constant arrays, of stores at the same index and
    /// through stores at a distinct constant index.
    pub fn mk_select(&mut self, a: TermId, i: TermId) -> TermId {
        let sort = self.sort(a);
        let elem = sort.elem_sort().expect("select of an array");
        let mut a = a;
        loop {
            match self.op(a) {
                Op::ConstArray => return self.args(a)[0],
                Op::Store if self.args(a)[1] == i => return self.args(a)[2],
                Op::Store if self.is_value_const(i) && self.is_value_const(self.args(a)[1]) => {
                    a = self.args(a)[0];
                }
                _ => break,
            }
        }
        self.intern(Op::Select, Box::new([a, i]), elem)
    }

    /// True for numerals, Boolean and bit-vector literals (distinct such terms denote
    /// distinct values).
    pub fn is_value_const(&self, t: TermId) -> bool {
        matches!(
            self.op(t),
            Op::Num(_) | Op::Bool(_) | Op::Bv(crate::bv::BvOp::Lit(_))
        )
    }

    /// `(store a i v)`.
    pub fn mk_store(&mut self, a: TermId, i: TermId, v: TermId) -> TermId {
        let sort = self.sort(a);
        debug_assert!(sort.is_array());
        self.intern(Op::Store, Box::new([a, i, v]), sort)
    }

    /// `((as const sort) v)`.
    pub fn mk_const_array(&mut self, sort: Sort, v: TermId) -> TermId {
        debug_assert_eq!(sort.elem_sort(), Some(self.sort(v)));
        self.intern(Op::ConstArray, Box::new([v]), sort)
    }

    /// A binary comparison `op` in {Le, Lt, Ge, Gt}.
    pub fn mk_cmp(&mut self, op: Op, a: TermId, b: TermId) -> TermId {
        debug_assert!(matches!(op, Op::Le | Op::Lt | Op::Ge | Op::Gt));
        debug_assert!(self.sort(a).is_arith() && self.sort(b).is_arith());
        self.intern(op, Box::new([a, b]), Sort::Bool)
    }

    /// `(<= a b)`.
    pub fn mk_le(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk_cmp(Op::Le, a, b)
    }

    /// `(< a b)`.
    pub fn mk_lt(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk_cmp(Op::Lt, a, b)
    }

    /// `(>= a b)`.
    pub fn mk_ge(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk_cmp(Op::Ge, a, b)
    }

    /// `(> a b)`.
    pub fn mk_gt(&mut self, a: TermId, b: TermId) -> TermId {
        self.mk_cmp(Op::Gt, a, b)
    }

    /// A quantifier (`Op::Forall` or `Op::Exists`); an empty variable list returns the body.
    pub fn mk_quant(&mut self, forall: bool, vars: &[VarId], body: TermId) -> TermId {
        if vars.is_empty() {
            return body;
        }
        let op = if forall {
            Op::Forall(vars.into())
        } else {
            Op::Exists(vars.into())
        };
        self.intern(op, Box::new([body]), Sort::Bool)
    }

    fn sorts_compatible(&self, a: TermId, b: TermId) -> bool {
        let (sa, sb) = (self.sort(a), self.sort(b));
        sa == sb || (sa.is_arith() && sb.is_arith())
    }

    /// Checked constructor: builds `op(args)` after verifying arities and sorts exactly as
    /// SMT-LIB requires (no implicit Int/Real mixing; the parser inserts `to_real` itself).
    /// Leaf operators (`Bool`, `Num`, `Var`) take no arguments.
    pub fn mk(&mut self, op: Op, args: &[TermId]) -> Result<TermId, SortError> {
        let sorts: Vec<Sort> = args.iter().map(|&a| self.sort(a)).collect();
        let n = args.len();
        let err = |msg: String| Err(SortError(msg));
        let all = |s: Sort| sorts.iter().all(|&x| x == s);
        let same_arith =
            || !sorts.is_empty() && sorts[0].is_arith() && sorts.iter().all(|&x| x == sorts[0]);
        let sort = match &op {
            Op::Bool(_) | Op::Num(_) | Op::Var(_) => {
                if n != 0 {
                    return err("constants take no arguments".into());
                }
                match &op {
                    Op::Bool(_) => Sort::Bool,
                    Op::Num(v) => {
                        if v.is_integer() {
                            Sort::Int
                        } else {
                            Sort::Real
                        }
                    }
                    Op::Var(v) => self.var_sort(*v),
                    _ => unreachable!(),
                }
            }
            Op::App(f) => {
                let d = self.func(*f);
                if d.args.len() != n {
                    return err(format!(
                        "'{}' expects {} arguments, got {n}",
                        d.name,
                        d.args.len()
                    ));
                }
                for (i, (&want, &got)) in d.args.iter().zip(&sorts).enumerate() {
                    if want != got {
                        return err(format!(
                            "argument {} of '{}' should be {want}, got {got}",
                            i + 1,
                            d.name
                        ));
                    }
                }
                d.ret
            }
            Op::Not => {
                if n != 1 || !all(Sort::Bool) {
                    return err("'not' expects one Bool argument".into());
                }
                Sort::Bool
            }
            Op::And | Op::Or => {
                if !all(Sort::Bool) {
                    return err("'and'/'or' expect Bool arguments".into());
                }
                Sort::Bool
            }
            Op::Implies | Op::Xor => {
                if n != 2 || !all(Sort::Bool) {
                    return err("'=>'/'xor' expect two Bool arguments".into());
                }
                Sort::Bool
            }
            Op::Eq | Op::Distinct => {
                if n < 2 || !sorts.iter().all(|&s| s == sorts[0]) {
                    return err(format!(
                        "'=' and 'distinct' expect at least two arguments of one sort, got ({})",
                        join(&sorts)
                    ));
                }
                Sort::Bool
            }
            Op::Ite => {
                if n != 3 || sorts[0] != Sort::Bool || sorts[1] != sorts[2] {
                    return err(
                        "'ite' expects a Bool condition and two branches of one sort".into(),
                    );
                }
                sorts[1]
            }
            Op::Add | Op::Mul => {
                if n < 2 || !same_arith() {
                    return err(format!(
                        "arithmetic expects at least two arguments of one numeric sort, got ({})",
                        join(&sorts)
                    ));
                }
                sorts[0]
            }
            Op::Sub => {
                if n != 2 || !same_arith() {
                    return err("'-' expects two arguments of one numeric sort".into());
                }
                sorts[0]
            }
            Op::Neg | Op::Abs => {
                if n != 1 || !sorts[0].is_arith() {
                    return err("expected one numeric argument".into());
                }
                sorts[0]
            }
            Op::Div => {
                if n != 2 || !all(Sort::Real) {
                    return err("'/' expects two Real arguments".into());
                }
                Sort::Real
            }
            Op::IntDiv | Op::Mod => {
                if n != 2 || !all(Sort::Int) {
                    return err("'div'/'mod' expect two Int arguments".into());
                }
                Sort::Int
            }
            Op::ToReal => {
                if n != 1 || sorts[0] != Sort::Int {
                    return err("'to_real' expects one Int argument".into());
                }
                Sort::Real
            }
            Op::ToInt | Op::IsInt => {
                if n != 1 || sorts[0] != Sort::Real {
                    return err("'to_int'/'is_int' expect one Real argument".into());
                }
                if op == Op::ToInt {
                    Sort::Int
                } else {
                    Sort::Bool
                }
            }
            Op::Le | Op::Lt | Op::Ge | Op::Gt => {
                if n != 2 || !same_arith() {
                    return err(format!(
                        "comparison expects two arguments of one numeric sort, got ({})",
                        join(&sorts)
                    ));
                }
                Sort::Bool
            }
            Op::Select => match sorts.first().and_then(|s| s.array_parts()) {
                Some((i, e)) if n == 2 && sorts[1] == i => e,
                _ => {
                    return err(format!(
                        "'select' expects an array and an index of its index sort, got ({})",
                        join(&sorts)
                    ));
                }
            },
            Op::Store => match sorts.first().and_then(|s| s.array_parts()) {
                Some((i, e)) if n == 3 && sorts[1] == i && sorts[2] == e => sorts[0],
                _ => {
                    return err(format!(
                        "'store' expects an array, an index and an element of its sorts, got ({})",
                        join(&sorts)
                    ));
                }
            },
            Op::ConstArray => {
                return err("constant arrays are built with mk_const_array".into());
            }
            Op::Bv(b) => {
                if *b == crate::bv::BvOp::OfInt {
                    return err("'nat2bv' is built with mk_bv (it needs its width)".into());
                }
                crate::bv::result_sort(b, &sorts, None)?
            }
            Op::Dt(d) => return self.mk_dt(*d, args),
            Op::Forall(_) | Op::Exists(_) => {
                if n != 1 || sorts[0] != Sort::Bool {
                    return err("quantifier body must be Bool".into());
                }
                Sort::Bool
            }
        };
        Ok(self.intern(op, args.into(), sort))
    }

    /// A checked datatype operation: constructor `DtOp::Ctor(c)` needs the datatype sort,
    /// so use [`TermStore::mk_ctor`] for constructors.
    fn mk_dt(&mut self, op: crate::dt::DtOp, args: &[TermId]) -> Result<TermId, SortError> {
        use crate::dt::DtOp;
        match op {
            DtOp::Ctor(_) => Err(SortError("constructors are built with mk_ctor".into())),
            DtOp::Sel { dt, ctor, field } => {
                let d = crate::dt::def(dt).ok_or_else(|| SortError("undefined datatype".into()))?;
                let fs = d
                    .ctors
                    .get(ctor as usize)
                    .and_then(|c| c.fields.get(field as usize))
                    .ok_or_else(|| SortError("no such selector".into()))?;
                if args.len() != 1 || self.sort(args[0]) != dt {
                    return Err(SortError(format!("selector '{}' expects one {dt}", fs.0)));
                }
                Ok(self.intern(Op::Dt(op), args.into(), fs.1))
            }
            DtOp::Test { dt, ctor } => {
                let ok = crate::dt::def(dt).is_some_and(|d| (ctor as usize) < d.ctors.len());
                if !ok || args.len() != 1 || self.sort(args[0]) != dt {
                    return Err(SortError(format!("tester expects one {dt}")));
                }
                Ok(self.intern(Op::Dt(op), args.into(), Sort::Bool))
            }
        }
    }

    /// Constructor `ctor` of datatype `dt` applied to `args` (sorts checked).
    pub fn mk_ctor(&mut self, dt: Sort, ctor: u32, args: &[TermId]) -> Result<TermId, SortError> {
        let d = crate::dt::def(dt).ok_or_else(|| SortError("undefined datatype".into()))?;
        let c = d
            .ctors
            .get(ctor as usize)
            .ok_or_else(|| SortError("no such constructor".into()))?;
        if c.fields.len() != args.len() {
            return Err(SortError(format!(
                "'{}' expects {} arguments, got {}",
                c.name,
                c.fields.len(),
                args.len()
            )));
        }
        for (i, (&a, f)) in args.iter().zip(&c.fields).enumerate() {
            if self.sort(a) != f.1 {
                return Err(SortError(format!(
                    "argument {} of '{}' should be {}, got {}",
                    i + 1,
                    c.name,
                    f.1,
                    self.sort(a)
                )));
            }
        }
        Ok(self.intern(Op::Dt(crate::dt::DtOp::Ctor(ctor)), args.into(), dt))
    }

    /// Selector `field` of constructor `ctor` applied to `a` (of datatype sort).
    pub fn mk_sel(&mut self, a: TermId, ctor: u32, field: u32) -> TermId {
        let dt = self.sort(a);
        // Fold a selector of the matching constructor.
        if let Op::Dt(crate::dt::DtOp::Ctor(c)) = self.op(a)
            && *c == ctor
        {
            return self.args(a)[field as usize];
        }
        self.mk(Op::Dt(crate::dt::DtOp::Sel { dt, ctor, field }), &[a])
            .expect("well-sorted selector")
    }

    /// Tester `((_ is ctor) a)`, folded on constructor terms.
    pub fn mk_test(&mut self, a: TermId, ctor: u32) -> TermId {
        let dt = self.sort(a);
        if let Op::Dt(crate::dt::DtOp::Ctor(c)) = self.op(a) {
            let b = *c == ctor;
            return self.mk_bool(b);
        }
        self.mk(Op::Dt(crate::dt::DtOp::Test { dt, ctor }), &[a])
            .expect("well-sorted tester")
    }

    /// Builds `op(args)` without any folding, for callers that have already checked sorts
    /// (for example when rebuilding a term with new arguments during substitution).
    pub fn mk_raw(&mut self, op: Op, args: &[TermId], sort: Sort) -> TermId {
        self.intern(op, args.into(), sort)
    }

    /// If `t` is a numeral, its value.
    pub fn as_num(&self, t: TermId) -> Option<&Rational> {
        match self.op(t) {
            Op::Num(v) => Some(v),
            _ => None,
        }
    }

    /// If `t` is a Boolean constant, its value.
    pub fn as_bool(&self, t: TermId) -> Option<bool> {
        match self.op(t) {
            Op::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// If `t` is a variable, which one.
    pub fn as_var(&self, t: TermId) -> Option<VarId> {
        match self.op(t) {
            Op::Var(v) => Some(*v),
            _ => None,
        }
    }

    /// The conjuncts of `t` (`t` itself when it is not a conjunction).
    pub fn conjuncts(&self, t: TermId) -> Vec<TermId> {
        match self.op(t) {
            Op::And => self.args(t).to_vec(),
            Op::Bool(true) => vec![],
            _ => vec![t],
        }
    }
}

fn join(sorts: &[Sort]) -> String {
    sorts
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_consing_shares_structure() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::Int);
        let xt = s.mk_var(x);
        let one = s.mk_int(1);
        let a = s.mk_add(&[xt, one]);
        let b = s.mk_add(&[xt, one]);
        assert_eq!(a, b);
        let le1 = s.mk_le(a, one);
        let le2 = s.mk_le(b, one);
        assert_eq!(le1, le2);
    }

    #[test]
    fn junctions_flatten_and_fold() {
        let mut s = TermStore::new();
        let p = s.var("p", Sort::Bool);
        let q = s.var("q", Sort::Bool);
        let (p, q) = (s.mk_var(p), s.mk_var(q));
        let t = s.mk_true();
        let f = s.mk_false();
        let inner = s.mk_and(&[p, q]);
        let outer = s.mk_and(&[inner, t, p]);
        assert_eq!(s.args(outer), &[p, q]);
        assert_eq!(s.mk_or(&[p, t]), t);
        assert_eq!(s.mk_and(&[p, f]), f);
        assert_eq!(s.mk_and(&[]), t);
        let np = s.mk_not(p);
        assert_eq!(s.mk_not(np), p);
    }

    #[test]
    fn checked_constructor_rejects_bad_sorts() {
        let mut s = TermStore::new();
        let x = s.var("x", Sort::Int);
        let y = s.var("y", Sort::Real);
        let (x, y) = (s.mk_var(x), s.mk_var(y));
        assert!(s.mk(Op::Add, &[x, y]).is_err());
        assert!(s.mk(Op::Not, &[x]).is_err());
        let p = s.declare_func("P", &[Sort::Int], Sort::Bool).unwrap();
        assert!(s.mk(Op::App(p), &[y]).is_err());
        assert!(s.mk(Op::App(p), &[x, x]).is_err());
        assert!(s.mk(Op::App(p), &[x]).is_ok());
        assert!(s.declare_func("P", &[Sort::Real], Sort::Bool).is_err());
    }

    #[test]
    fn fresh_vars_are_fresh() {
        let mut s = TermStore::new();
        let a = s.fresh_var("x", Sort::Int);
        let b = s.fresh_var("x", Sort::Int);
        assert_ne!(a, b);
        assert_ne!(s.var_name(a), s.var_name(b));
    }
}
