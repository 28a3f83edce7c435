//! Random QF_LIA / QF_LRA formulas with Boolean structure, for the integration tests and
//! the differential run against z3 (`examples/difftest.rs` includes this file by path), plus
//! an SMT-LIB2 printer and a brute-force decider.
//!
//! The generator is deterministic in its seed. With [`GenConfig::box_bound`] set, every
//! integer variable is constrained to `[-B, B]`, so [`brute_force`] decides the formula
//! exactly by enumeration — an oracle independent of the solver.

// Each test binary (and the example) compiles this module and uses only part of it.
#![allow(dead_code)]

use cove_logic::{Model, Op, Rational, Sort, TermId, TermStore, Value, VarId};
use std::fmt::Write;

pub use cove_testkit::Rng;

/// The generator for `seed`, scrambled the way this suite has always seeded it (the
/// golden-ratio multiply of [`Rng::new`] plus a fixed xor), so every seed keeps its cases.
pub fn rng(seed: u64) -> Rng {
    Rng::from_state(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03 | 1)
}

/// Shape of the generated formulas.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Integer (QF_LIA) or real (QF_LRA) arithmetic.
    pub int: bool,
    /// Number of arithmetic variables.
    pub vars: usize,
    /// Number of Boolean variables.
    pub bools: usize,
    /// Number of top-level conjuncts.
    pub conjuncts: usize,
    /// Depth of Boolean structure under each conjunct.
    pub depth: u32,
    /// Maximal number of variables in one linear term.
    pub terms: usize,
    /// Coefficients are drawn from `[-coef, coef]`.
    pub coef: i64,
    /// Constants are drawn from `[-konst, konst]`.
    pub konst: i64,
    /// Allow `ite` arithmetic terms, and for integers `mod`/`div`/`abs` by constants.
    pub extras: bool,
    /// Conjoin `-B <= x <= B` for every arithmetic variable (makes brute force exact).
    pub box_bound: Option<i64>,
}

impl GenConfig {
    /// A random configuration of moderate size from `rng`.
    pub fn random(rng: &mut Rng, int: bool) -> GenConfig {
        GenConfig {
            int,
            vars: rng.range(1, 6) as usize,
            bools: rng.range(0, 3) as usize,
            conjuncts: rng.range(1, 6) as usize,
            depth: rng.range(0, 3) as u32,
            terms: rng.range(1, 4) as usize,
            coef: [1, 3, 10, 100][rng.below(4)],
            konst: [2, 10, 100, 1000][rng.below(4)],
            extras: rng.chance(1, 2),
            box_bound: None,
        }
    }
}

/// A generated formula and its free variables.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The formula.
    pub formula: TermId,
    /// Arithmetic variables.
    pub vars: Vec<VarId>,
    /// Boolean variables.
    pub bools: Vec<VarId>,
}

struct Gen<'a> {
    store: &'a mut TermStore,
    rng: &'a mut Rng,
    cfg: &'a GenConfig,
    vars: Vec<TermId>,
    bools: Vec<TermId>,
    sort: Sort,
}

/// Generates a random formula; variables are named `x0..`, `b0..` (shared across calls on
/// the same store).
pub fn generate(store: &mut TermStore, rng: &mut Rng, cfg: &GenConfig) -> Generated {
    let sort = if cfg.int { Sort::Int } else { Sort::Real };
    let vids: Vec<VarId> = (0..cfg.vars)
        .map(|i| store.var(&format!("x{i}"), sort))
        .collect();
    let bids: Vec<VarId> = (0..cfg.bools)
        .map(|i| store.var(&format!("b{i}"), Sort::Bool))
        .collect();
    let vars = vids.iter().map(|&v| store.mk_var(v)).collect();
    let bools = bids.iter().map(|&v| store.mk_var(v)).collect();
    let mut g = Gen {
        store,
        rng,
        cfg,
        vars,
        bools,
        sort,
    };
    let mut conj = Vec::new();
    for _ in 0..cfg.conjuncts {
        conj.push(g.formula(cfg.depth));
    }
    if let Some(b) = cfg.box_bound {
        for i in 0..g.vars.len() {
            let x = g.vars[i];
            let lo = g.num(-b);
            let hi = g.num(b);
            conj.push(g.store.mk_le(lo, x));
            conj.push(g.store.mk_le(x, hi));
        }
    }
    let formula = g.store.mk_raw(Op::And, &conj, Sort::Bool);
    let formula = if conj.len() == 1 { conj[0] } else { formula };
    Generated {
        formula,
        vars: vids,
        bools: bids,
    }
}

impl Gen<'_> {
    fn num(&mut self, k: i64) -> TermId {
        self.store.mk_num(Rational::int(k), self.sort)
    }

    fn formula(&mut self, depth: u32) -> TermId {
        if depth == 0 || self.rng.chance(1, 4) {
            return self.atom();
        }
        let d = depth - 1;
        match self.rng.below(8) {
            0 | 1 => {
                let n = self.rng.range(2, 3);
                let args: Vec<TermId> = (0..n).map(|_| self.formula(d)).collect();
                self.store.mk_raw(Op::And, &args, Sort::Bool)
            }
            2 | 3 => {
                let n = self.rng.range(2, 3);
                let args: Vec<TermId> = (0..n).map(|_| self.formula(d)).collect();
                self.store.mk_raw(Op::Or, &args, Sort::Bool)
            }
            4 => {
                let a = self.formula(d);
                self.store.mk_raw(Op::Not, &[a], Sort::Bool)
            }
            5 => {
                let a = self.formula(d);
                let b = self.formula(d);
                let op = [Op::Implies, Op::Xor, Op::Eq][self.rng.below(3)].clone();
                self.store.mk_raw(op, &[a, b], Sort::Bool)
            }
            6 => {
                let c = self.formula(d);
                let a = self.formula(d);
                let b = self.formula(d);
                self.store.mk_raw(Op::Ite, &[c, a, b], Sort::Bool)
            }
            _ => self.atom(),
        }
    }

    fn atom(&mut self) -> TermId {
        if !self.bools.is_empty() && self.rng.chance(1, 5) {
            return self.bools[self.rng.below(self.bools.len())];
        }
        let a = self.arith(1);
        let k = self.rng.range(-self.cfg.konst, self.cfg.konst);
        let b = if self.rng.chance(1, 4) {
            self.arith(1)
        } else {
            self.num(k)
        };
        let op = [Op::Le, Op::Lt, Op::Ge, Op::Gt, Op::Eq, Op::Distinct][self.rng.below(6)].clone();
        self.store.mk_raw(op, &[a, b], Sort::Bool)
    }

    fn linear(&mut self) -> TermId {
        let n = self.rng.range(1, self.cfg.terms as i64) as usize;
        let mut parts = Vec::new();
        for _ in 0..n {
            let x = self.vars[self.rng.below(self.vars.len())];
            let mut c = self.rng.range(-self.cfg.coef, self.cfg.coef);
            if c == 0 {
                c = 1;
            }
            if c == 1 {
                parts.push(x);
            } else {
                let k = self.num(c);
                parts.push(self.store.mk_raw(Op::Mul, &[k, x], self.sort));
            }
        }
        if parts.len() == 1 {
            parts[0]
        } else {
            self.store.mk_raw(Op::Add, &parts, self.sort)
        }
    }

    fn arith(&mut self, depth: u32) -> TermId {
        if !self.cfg.extras || depth == 0 || self.rng.chance(2, 3) {
            return self.linear();
        }
        let sort = self.sort;
        match self.rng.below(if self.cfg.int { 4 } else { 2 }) {
            0 | 1 => {
                let c = self.formula(0);
                let a = self.arith(depth - 1);
                let b = self.arith(depth - 1);
                let ite = self.store.mk_raw(Op::Ite, &[c, a, b], sort);
                let l = self.linear();
                self.store.mk_raw(Op::Add, &[ite, l], sort)
            }
            2 => {
                let a = self.linear();
                let k = self.rng.range(2, 5);
                let k = if self.rng.chance(1, 4) { -k } else { k };
                let kt = self.num(k);
                let op = if self.rng.chance(1, 2) {
                    Op::Mod
                } else {
                    Op::IntDiv
                };
                self.store.mk_raw(op, &[a, kt], sort)
            }
            _ => {
                let a = self.linear();
                self.store.mk_raw(Op::Abs, &[a], sort)
            }
        }
    }
}

/// SMT-LIB2 text of a numeral of sort `sort`.
pub fn num_to_smtlib(k: &Rational, sort: Sort) -> String {
    let mag = k.abs();
    let body = if sort == Sort::Int {
        format!("{mag}")
    } else if mag.is_integer() {
        format!("{mag}.0")
    } else {
        format!("(/ {}.0 {}.0)", mag.numer(), mag.denom())
    };
    if k.is_negative() {
        format!("(- {body})")
    } else {
        body
    }
}

/// SMT-LIB2 text of a value.
pub fn value_to_smtlib(v: &Value, sort: Sort) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Num(k) => num_to_smtlib(k, sort),
        Value::Array(_) | Value::Bv(_) | Value::Dt(_) => cove_logic::print::value_text(v, sort),
    }
}

/// SMT-LIB2 text of a quantifier-free term without uninterpreted functions.
pub fn term_to_smtlib(store: &TermStore, t: TermId) -> String {
    let mut out = String::new();
    write_term(store, t, &mut out);
    out
}

fn write_term(store: &TermStore, t: TermId, out: &mut String) {
    let name = match store.op(t) {
        Op::Bool(b) => {
            let _ = write!(out, "{b}");
            return;
        }
        Op::Num(k) => {
            out.push_str(&num_to_smtlib(k, store.sort(t)));
            return;
        }
        Op::Var(v) => {
            out.push_str(&quote(store.var_name(*v)));
            return;
        }
        Op::App(f) => quote(&store.func(*f).name),
        Op::Dt(d) => cove_logic::dt::op_name(*d, store.sort(t)),
        Op::Not => "not".into(),
        Op::And => "and".into(),
        Op::Or => "or".into(),
        Op::Implies => "=>".into(),
        Op::Xor => "xor".into(),
        Op::Eq => "=".into(),
        Op::Distinct => "distinct".into(),
        Op::Ite => "ite".into(),
        Op::Add => "+".into(),
        Op::Sub | Op::Neg => "-".into(),
        Op::Mul => "*".into(),
        Op::Div => "/".into(),
        Op::IntDiv => "div".into(),
        Op::Mod => "mod".into(),
        Op::Abs => "abs".into(),
        Op::ToReal => "to_real".into(),
        Op::ToInt => "to_int".into(),
        Op::IsInt => "is_int".into(),
        Op::Le => "<=".into(),
        Op::Lt => "<".into(),
        Op::Ge => ">=".into(),
        Op::Gt => ">".into(),
        Op::Select => "select".into(),
        Op::Store => "store".into(),
        Op::ConstArray => format!("(as const {})", store.sort(t)),
        Op::Forall(_) | Op::Exists(_) => "forall-unsupported".into(),
        Op::Bv(cove_logic::BvOp::Lit(v)) => {
            let _ = write!(out, "{v}");
            return;
        }
        Op::Bv(b) => b.head(store.sort(t).bv_width().unwrap_or(0)),
    };
    let args = store.args(t);
    if args.is_empty() {
        out.push_str(match store.op(t) {
            Op::And => "true",
            Op::Or => "false",
            _ => &name,
        });
        return;
    }
    // Mixed Int/Real arguments: SMT-LIB needs explicit conversions.
    let real_ctx = store.get(t).sort == Sort::Real
        || (matches!(
            store.op(t),
            Op::Le | Op::Lt | Op::Ge | Op::Gt | Op::Eq | Op::Distinct
        ) && args.iter().any(|&a| store.sort(a) == Sort::Real));
    out.push('(');
    out.push_str(&name);
    for &a in args.iter() {
        out.push(' ');
        if real_ctx && store.sort(a) == Sort::Int && !matches!(store.op(t), Op::ToReal | Op::Ite) {
            out.push_str("(to_real ");
            write_term(store, a, out);
            out.push(')');
        } else {
            write_term(store, a, out);
        }
    }
    out.push(')');
}

/// Quotes a symbol when it is not a simple SMT-LIB2 symbol.
pub fn quote(name: &str) -> String {
    let simple = !name.is_empty()
        && !name.chars().next().is_some_and(|c| c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c));
    if simple {
        name.to_string()
    } else {
        format!("|{name}|")
    }
}

/// SMT-LIB2 declarations of the variables of `g`.
pub fn declarations(store: &TermStore, g: &Generated) -> String {
    let mut s = String::new();
    for &v in g.vars.iter().chain(&g.bools) {
        let _ = writeln!(
            s,
            "(declare-fun {} () {})",
            quote(store.var_name(v)),
            store.var_sort(v)
        );
    }
    s
}

/// Decides a formula whose arithmetic variables are integers in `[-b, b]` (the formula
/// must imply that box) by enumeration; returns a model if one exists. Exponential: only
/// for a handful of variables.
pub fn brute_force(
    store: &TermStore,
    t: TermId,
    vars: &[VarId],
    bools: &[VarId],
    b: i64,
) -> Option<Model> {
    let n = vars.len();
    let width = (2 * b + 1) as u64;
    let total = width
        .checked_pow(n as u32)?
        .checked_mul(1u64 << bools.len())?;
    let mut m = Model::new();
    for code in 0..total {
        let mut c = code;
        for &v in vars {
            m.set(v, Value::Num(Rational::int((c % width) as i64 - b)));
            c /= width;
        }
        for &v in bools {
            m.set(v, Value::Bool(c & 1 == 1));
            c >>= 1;
        }
        if let Ok(Value::Bool(true)) = m.eval(store, t) {
            return Some(m);
        }
    }
    None
}
