//! The implicant of a formula in a model.
//!
//! `implicant(M, φ)` is a cube `ℓ₁ ∧ … ∧ ℓₙ` with `M ⊨ ℓᵢ` and `ℓ₁ ∧ … ∧ ℓₙ ⇒ φ`. It follows
//! the Boolean structure of `φ`, keeping every conjunct of a true conjunction and the first
//! true disjunct of a true disjunction, and resolves the choices the model makes below
//! literals:
//! * an arithmetic `ite` is replaced by the branch the model takes, and the (implicant of the)
//!   condition joins the cube; `abs t` becomes `t` or `-t` with the sign literal;
//! * disequalities and negated comparisons become strict comparisons in the direction the
//!   model satisfies (`¬(a = b)` is `a < b` or `a > b`; `¬(a ≤ b)` is `a > b`).
//!
//! Literals are therefore Boolean variables, uninterpreted applications (possibly negated),
//! `is_int` atoms (possibly negated) and arithmetic comparisons `=, <, ≤, >, ≥` free of `ite`.
//! Every literal is built from subterms of `φ`, so a fixed `φ` has finitely many implicants.

use super::MbpError;
use cove_logic::{Model, Op, Sort, TermId, TermStore, Value};
use rustc_hash::{FxHashMap, FxHashSet};

/// The model-satisfied literal cube of `phi` (see the module docs). Precondition:
/// `model ⊨ phi` and `phi` is quantifier-free; violations are reported as errors.
pub fn implicant(
    store: &mut TermStore,
    model: &Model,
    phi: TermId,
) -> Result<Vec<TermId>, MbpError> {
    let mut imp = Implicant {
        model,
        values: FxHashMap::default(),
        resolved: FxHashMap::default(),
        lits: Vec::new(),
        seen: FxHashSet::default(),
        done: FxHashSet::default(),
    };
    if !imp.truth(store, phi)? {
        return Err(MbpError::NotAModel);
    }
    imp.collect(store, phi, true)?;
    Ok(imp.lits)
}

struct Implicant<'m> {
    model: &'m Model,
    values: FxHashMap<TermId, Value>,
    /// Arithmetic terms with `ite`/`abs` resolved.
    resolved: FxHashMap<TermId, TermId>,
    lits: Vec<TermId>,
    seen: FxHashSet<TermId>,
    /// Bool terms whose implicant was already collected (with their model value).
    done: FxHashSet<TermId>,
}

impl Implicant<'_> {
    /// The model's value of an arithmetic term (or of a Boolean atom), memoized.
    fn value(&mut self, store: &TermStore, t: TermId) -> Result<Value, MbpError> {
        if let Some(v) = self.values.get(&t) {
            return Ok(v.clone());
        }
        let v = match self.model.eval(store, t) {
            Ok(v) => v,
            Err(cove_logic::EvalError::Quantifier) => return Err(MbpError::Quantifier),
            Err(e) => return Err(e.into()),
        };
        self.values.insert(t, v.clone());
        Ok(v)
    }

    /// The model's truth value of a Bool term. Boolean connectives are evaluated here with
    /// every node memoized (short-circuiting in the order `Model::eval` does, so the same
    /// terms are evaluated), which keeps the implicant linear in the size of the DAG; atoms
    /// go to the model.
    fn truth(&mut self, store: &TermStore, t: TermId) -> Result<bool, MbpError> {
        if let Some(v) = self.values.get(&t) {
            return Ok(v.as_bool().unwrap_or(false));
        }
        let args = store.args(t);
        let b = match store.op(t) {
            Op::Bool(b) => *b,
            Op::Not => !self.truth(store, args[0])?,
            Op::And | Op::Or => {
                let unit = store.op(t) == &Op::And;
                let mut r = unit;
                for &a in args {
                    if self.truth(store, a)? != unit {
                        r = !unit;
                        break;
                    }
                }
                r
            }
            Op::Implies => !self.truth(store, args[0])? || self.truth(store, args[1])?,
            Op::Ite => {
                let c = self.truth(store, args[0])?;
                self.truth(store, if c { args[1] } else { args[2] })?
            }
            Op::Xor | Op::Eq | Op::Distinct if store.sort(args[0]) == Sort::Bool => {
                let mut vals = Vec::with_capacity(args.len());
                for &a in args {
                    vals.push(self.truth(store, a)?);
                }
                match store.op(t) {
                    Op::Xor => vals[0] != vals[1],
                    Op::Eq => vals[0] == vals[1],
                    // Pairwise distinct Booleans: at most two, and they differ.
                    _ => vals.len() == 2 && vals[0] != vals[1],
                }
            }
            _ => return Ok(self.value(store, t)?.as_bool().unwrap_or(false)),
        };
        self.values.insert(t, Value::Bool(b));
        Ok(b)
    }

    fn push(&mut self, store: &TermStore, lit: TermId) {
        if store.as_bool(lit) == Some(true) {
            return;
        }
        if self.seen.insert(lit) {
            self.lits.push(lit);
        }
    }

    /// Collects literals implying `t` (when `pol`) or `¬t` (when `!pol`); `M(t) = pol`.
    fn collect(&mut self, store: &mut TermStore, t: TermId, pol: bool) -> Result<(), MbpError> {
        if !self.done.insert(t) {
            return Ok(());
        }
        let args: Vec<TermId> = store.args(t).to_vec();
        match store.op(t).clone() {
            Op::Bool(_) => {}
            Op::Var(_) | Op::App(_) | Op::Select => {
                let t = if matches!(store.op(t), Op::App(_) | Op::Select) {
                    self.resolve_args(store, t)?
                } else {
                    t
                };
                let lit = if pol { t } else { store.mk_not(t) };
                self.push(store, lit);
            }
            Op::Not => self.collect(store, args[0], !pol)?,
            Op::And | Op::Or => {
                let all = (store.op(t) == &Op::And) == pol;
                if all {
                    for a in args {
                        self.collect(store, a, pol)?;
                    }
                } else {
                    // One argument with value `pol` decides.
                    for a in args {
                        if self.truth(store, a)? == pol {
                            return self.collect(store, a, pol);
                        }
                    }
                    return Err(MbpError::NotAModel);
                }
            }
            Op::Implies => {
                let (a, b) = (args[0], args[1]);
                if pol {
                    if !self.truth(store, a)? {
                        self.collect(store, a, false)?;
                    } else {
                        self.collect(store, b, true)?;
                    }
                } else {
                    self.collect(store, a, true)?;
                    self.collect(store, b, false)?;
                }
            }
            Op::Ite if store.sort(t) == Sort::Bool => {
                let c = self.truth(store, args[0])?;
                self.collect(store, args[0], c)?;
                self.collect(store, if c { args[1] } else { args[2] }, pol)?;
            }
            Op::Xor | Op::Eq | Op::Distinct if store.sort(args[0]) == Sort::Bool => {
                for a in args {
                    let v = self.truth(store, a)?;
                    self.collect(store, a, v)?;
                }
            }
            Op::Eq if store.sort(args[0]).is_array() => {
                // Array equalities are atoms here (projected by the array MBP).
                let lit = if pol { t } else { store.mk_not(t) };
                self.push(store, lit);
            }
            op @ (Op::Eq | Op::Distinct) => self.arith_eq(store, op == Op::Distinct, &args, pol)?,
            op @ (Op::Le | Op::Lt | Op::Ge | Op::Gt) => {
                let a = self.resolve(store, args[0])?;
                let b = self.resolve(store, args[1])?;
                let op = if pol { op } else { negate_cmp(&op) };
                let lit = store.mk_cmp(op, a, b);
                self.push(store, lit);
            }
            Op::IsInt => {
                let a = self.resolve(store, args[0])?;
                let atom = store.mk_raw(Op::IsInt, &[a], Sort::Bool);
                let lit = if pol { atom } else { store.mk_not(atom) };
                self.push(store, lit);
            }
            Op::Forall(_) | Op::Exists(_) => return Err(MbpError::Quantifier),
            _ => unreachable!("non-Boolean operator at a Boolean position"),
        }
        Ok(())
    }

    /// Arithmetic `=` (binary) or `distinct` (n-ary) with value `pol`.
    fn arith_eq(
        &mut self,
        store: &mut TermStore,
        distinct: bool,
        args: &[TermId],
        pol: bool,
    ) -> Result<(), MbpError> {
        let mut terms = Vec::with_capacity(args.len());
        let mut vals = Vec::with_capacity(args.len());
        for &a in args {
            terms.push(self.resolve(store, a)?);
            vals.push(
                self.value(store, a)?
                    .as_num()
                    .cloned()
                    .ok_or(MbpError::NotAModel)?,
            );
        }
        for i in 0..args.len() {
            for j in i + 1..args.len() {
                let equal = vals[i] == vals[j];
                // `=` true and `distinct` false need one equal pair; the others every pair
                // ordered as the model orders it.
                let lit = if distinct == pol {
                    if equal {
                        return Err(MbpError::NotAModel);
                    }
                    let op = if vals[i] < vals[j] { Op::Lt } else { Op::Gt };
                    store.mk_cmp(op, terms[i], terms[j])
                } else if equal {
                    let lit = store.mk_eq(terms[i], terms[j]);
                    self.push(store, lit);
                    return Ok(());
                } else {
                    continue;
                };
                self.push(store, lit);
            }
        }
        if distinct != pol {
            return Err(MbpError::NotAModel);
        }
        Ok(())
    }

    /// `t` with `ite` and `abs` resolved by the model (arithmetic terms and below).
    fn resolve(&mut self, store: &mut TermStore, t: TermId) -> Result<TermId, MbpError> {
        if let Some(&r) = self.resolved.get(&t) {
            return Ok(r);
        }
        let args: Vec<TermId> = store.args(t).to_vec();
        let r = match store.op(t).clone() {
            _ if args.is_empty() => t,
            Op::Ite => {
                let c = self.truth(store, args[0])?;
                self.collect(store, args[0], c)?;
                self.resolve(store, if c { args[1] } else { args[2] })?
            }
            Op::Abs => {
                let a = self.resolve(store, args[0])?;
                let sort = store.sort(a);
                let zero = store.mk_num(cove_logic::Rational::ZERO, sort);
                let nonneg = !self
                    .value(store, args[0])?
                    .as_num()
                    .is_some_and(|v| v.is_negative());
                if nonneg {
                    let lit = store.mk_ge(a, zero);
                    self.push(store, lit);
                    a
                } else {
                    let lit = store.mk_lt(a, zero);
                    self.push(store, lit);
                    store.mk_neg(a)
                }
            }
            Op::App(_) => self.resolve_args(store, t)?,
            op => {
                let mut new = Vec::with_capacity(args.len());
                for &a in &args {
                    new.push(if store.sort(a) == Sort::Bool {
                        a
                    } else {
                        self.resolve(store, a)?
                    });
                }
                if new == args {
                    t
                } else {
                    store.mk_raw(op, &new, store.sort(t))
                }
            }
        };
        self.resolved.insert(t, r);
        Ok(r)
    }

    /// An application with its arithmetic arguments resolved.
    fn resolve_args(&mut self, store: &mut TermStore, t: TermId) -> Result<TermId, MbpError> {
        let args: Vec<TermId> = store.args(t).to_vec();
        let mut new = Vec::with_capacity(args.len());
        for &a in &args {
            new.push(if store.sort(a).is_arith() || store.sort(a).is_array() {
                self.resolve(store, a)?
            } else {
                a
            });
        }
        Ok(if new == args {
            t
        } else {
            store.mk_raw(store.op(t).clone(), &new, store.sort(t))
        })
    }
}

fn negate_cmp(op: &Op) -> Op {
    match op {
        Op::Le => Op::Gt,
        Op::Lt => Op::Ge,
        Op::Ge => Op::Lt,
        _ => Op::Le,
    }
}
