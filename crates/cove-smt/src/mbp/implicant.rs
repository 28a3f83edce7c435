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
//! `is_int` atoms (possibly negated), arithmetic comparisons `=, <, ≤, >, ≥` free of `ite`,
//! and datatype atoms (testers, Boolean fields, (dis)equalities of datatype terms).
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
    /// go to the model. An explicit stack, not recursion: formulas can be arbitrarily deep.
    fn truth(&mut self, store: &TermStore, t: TermId) -> Result<bool, MbpError> {
        // (node, index of the next argument to look at)
        let mut stack: Vec<(TermId, usize)> = vec![(t, 0)];
        while let Some(&(u, i)) = stack.last() {
            if self.values.contains_key(&u) {
                stack.pop();
                continue;
            }
            let args = store.args(u);
            let known = |me: &Self, a: TermId| me.values.get(&a).map(|v| v.as_bool() == Some(true));
            // `Ok(b)`: the node's value; `Err(a)`: argument `a` must be evaluated first.
            let step: Result<bool, TermId> = match store.op(u) {
                Op::Bool(b) => Ok(*b),
                Op::Not => known(self, args[0]).map(|v| !v).ok_or(args[0]),
                Op::And | Op::Or => {
                    let unit = store.op(u) == &Op::And;
                    let mut j = i;
                    let mut r = Ok(unit);
                    while j < args.len() {
                        match known(self, args[j]) {
                            Some(v) if v != unit => {
                                r = Ok(!unit);
                                break;
                            }
                            Some(_) => j += 1,
                            None => {
                                r = Err(args[j]);
                                break;
                            }
                        }
                    }
                    stack.last_mut().expect("non-empty").1 = j;
                    r
                }
                Op::Implies => match known(self, args[0]) {
                    None => Err(args[0]),
                    Some(false) => Ok(true),
                    Some(true) => known(self, args[1]).ok_or(args[1]),
                },
                Op::Ite => match known(self, args[0]) {
                    None => Err(args[0]),
                    Some(c) => {
                        let b = if c { args[1] } else { args[2] };
                        known(self, b).ok_or(b)
                    }
                },
                Op::Xor | Op::Eq | Op::Distinct if store.sort(args[0]) == Sort::Bool => {
                    match args.iter().find(|&&a| known(self, a).is_none()) {
                        Some(&a) => Err(a),
                        None => {
                            let vals: Vec<bool> =
                                args.iter().map(|&a| known(self, a) == Some(true)).collect();
                            Ok(match store.op(u) {
                                Op::Xor => vals[0] != vals[1],
                                Op::Eq => vals[0] == vals[1],
                                // Pairwise distinct Booleans: at most two, and they differ.
                                _ => vals.len() == 2 && vals[0] != vals[1],
                            })
                        }
                    }
                }
                _ => {
                    // An atom: the model decides (and `value` memoizes it).
                    self.value(store, u)?;
                    stack.pop();
                    continue;
                }
            };
            match step {
                Ok(b) => {
                    self.values.insert(u, Value::Bool(b));
                    stack.pop();
                }
                Err(a) => stack.push((a, 0)),
            }
        }
        Ok(self
            .values
            .get(&t)
            .and_then(Value::as_bool)
            .unwrap_or(false))
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
    ///
    /// A work list replaces the mutual recursion of "collect the implicant of a Boolean
    /// term" and "resolve the `ite`s of an arithmetic term" (whose conditions join the
    /// cube): tasks are pushed in reverse, so they run in the depth-first order a recursive
    /// version would use and the cube's literals come out in the same order.
    fn collect(&mut self, store: &mut TermStore, t: TermId, pol: bool) -> Result<(), MbpError> {
        let mut work = vec![Task::Collect(t, pol)];
        while let Some(task) = work.pop() {
            match task {
                Task::Collect(t, pol) => self.collect_step(store, t, pol, &mut work)?,
                Task::Resolve(t) => self.resolve_step(store, t, &mut work)?,
                Task::Rebuild(t, app) => {
                    let r = self.rebuilt(store, t, app);
                    self.resolved.insert(t, r);
                }
                Task::Alias(t, branch) => {
                    let r = self.resolved[&branch];
                    self.resolved.insert(t, r);
                }
                Task::Abs(t) => {
                    let arg = store.args(t)[0];
                    let a = self.resolved[&arg];
                    let sort = store.sort(a);
                    let zero = store.mk_num(cove_logic::Rational::ZERO, sort);
                    let nonneg = !self
                        .value(store, arg)?
                        .as_num()
                        .is_some_and(|v| v.is_negative());
                    let r = if nonneg {
                        let lit = store.mk_ge(a, zero);
                        self.push(store, lit);
                        a
                    } else {
                        let lit = store.mk_lt(a, zero);
                        self.push(store, lit);
                        store.mk_neg(a)
                    };
                    self.resolved.insert(t, r);
                }
                Task::Atom(t, pol) => {
                    let t = self.rebuilt(store, t, true);
                    let lit = if pol { t } else { store.mk_not(t) };
                    self.push(store, lit);
                }
                Task::Cmp(t, pol) => {
                    let args = store.args(t);
                    let (a, b) = (self.resolved[&args[0]], self.resolved[&args[1]]);
                    let op = store.op(t).clone();
                    let op = if pol { op } else { negate_cmp(&op) };
                    let lit = store.mk_cmp(op, a, b);
                    self.push(store, lit);
                }
                Task::IsInt(t, pol) => {
                    let a = self.resolved[&store.args(t)[0]];
                    let atom = store.mk_raw(Op::IsInt, &[a], Sort::Bool);
                    let lit = if pol { atom } else { store.mk_not(atom) };
                    self.push(store, lit);
                }
                Task::ArithEq(t, pol) => {
                    let args: Vec<TermId> = store.args(t).to_vec();
                    let distinct = store.op(t) == &Op::Distinct;
                    self.arith_eq(store, distinct, &args, pol)?;
                }
            }
        }
        Ok(())
    }

    /// One `Collect` task: literals for `t` now, or the tasks they need pushed on `work`.
    fn collect_step(
        &mut self,
        store: &mut TermStore,
        t: TermId,
        pol: bool,
        work: &mut Vec<Task>,
    ) -> Result<(), MbpError> {
        if !self.done.insert(t) {
            return Ok(());
        }
        let args: Vec<TermId> = store.args(t).to_vec();
        match store.op(t).clone() {
            Op::Bool(_) => {}
            Op::Var(_) => {
                let lit = if pol { t } else { store.mk_not(t) };
                self.push(store, lit);
            }
            Op::App(_) | Op::Select => {
                work.push(Task::Atom(t, pol));
                self.push_resolves(store, t, true, work);
            }
            Op::Not => work.push(Task::Collect(args[0], !pol)),
            Op::And | Op::Or => {
                let all = (store.op(t) == &Op::And) == pol;
                if all {
                    work.extend(args.iter().rev().map(|&a| Task::Collect(a, pol)));
                } else {
                    // One argument with value `pol` decides.
                    let mut found = None;
                    for a in args {
                        if self.truth(store, a)? == pol {
                            found = Some(a);
                            break;
                        }
                    }
                    work.push(Task::Collect(found.ok_or(MbpError::NotAModel)?, pol));
                }
            }
            Op::Implies => {
                let (a, b) = (args[0], args[1]);
                if pol {
                    if !self.truth(store, a)? {
                        work.push(Task::Collect(a, false));
                    } else {
                        work.push(Task::Collect(b, true));
                    }
                } else {
                    work.push(Task::Collect(b, false));
                    work.push(Task::Collect(a, true));
                }
            }
            Op::Ite if store.sort(t) == Sort::Bool => {
                let c = self.truth(store, args[0])?;
                work.push(Task::Collect(if c { args[1] } else { args[2] }, pol));
                work.push(Task::Collect(args[0], c));
            }
            Op::Xor | Op::Eq | Op::Distinct if store.sort(args[0]) == Sort::Bool => {
                let mut tasks = Vec::with_capacity(args.len());
                for a in args {
                    tasks.push(Task::Collect(a, self.truth(store, a)?));
                }
                work.extend(tasks.into_iter().rev());
            }
            Op::Eq | Op::Distinct | Op::Bv(_) if crate::bv::Blaster::is_bv_atom(store, t) => {
                // Bit-vector atoms are literals here (projected word-level, see `mbp::bv`).
                let lit = if pol { t } else { store.mk_not(t) };
                self.push(store, lit);
            }
            Op::Eq | Op::Distinct if matches!(store.sort(args[0]), Sort::Dt(_)) => {
                // Datatype (dis)equalities are atoms here (projected by `mbp::dt`):
                // `distinct` becomes the pairwise disequalities, or the one equal pair the
                // model has when it is false.
                if store.op(t) == &Op::Eq {
                    let lit = if pol { t } else { store.mk_not(t) };
                    self.push(store, lit);
                } else {
                    let mut vals = Vec::with_capacity(args.len());
                    for &a in &args {
                        vals.push(self.value(store, a)?);
                    }
                    let mut equal = None;
                    for i in 0..args.len() {
                        for j in i + 1..args.len() {
                            let e = store.mk_eq(args[i], args[j]);
                            if pol {
                                let lit = store.mk_not(e);
                                self.push(store, lit);
                            } else if equal.is_none() && vals[i] == vals[j] {
                                equal = Some(e);
                            }
                        }
                    }
                    if !pol {
                        let e = equal.ok_or(MbpError::NotAModel)?;
                        self.push(store, e);
                    }
                }
            }
            Op::Dt(_) => {
                // Testers and Boolean fields are atoms.
                work.push(Task::Atom(t, pol));
                self.push_resolves(store, t, true, work);
            }
            Op::Eq if store.sort(args[0]).is_array() => {
                // Array equalities are atoms here (projected by the array MBP).
                let lit = if pol { t } else { store.mk_not(t) };
                self.push(store, lit);
            }
            Op::Eq | Op::Distinct => {
                work.push(Task::ArithEq(t, pol));
                work.extend(args.iter().rev().map(|&a| Task::Resolve(a)));
            }
            Op::Le | Op::Lt | Op::Ge | Op::Gt => {
                work.push(Task::Cmp(t, pol));
                work.push(Task::Resolve(args[1]));
                work.push(Task::Resolve(args[0]));
            }
            Op::IsInt => {
                work.push(Task::IsInt(t, pol));
                work.push(Task::Resolve(args[0]));
            }
            Op::Forall(_) | Op::Exists(_) => return Err(MbpError::Quantifier),
            _ => unreachable!("non-Boolean operator at a Boolean position"),
        }
        Ok(())
    }

    /// Arithmetic `=` (binary) or `distinct` (n-ary) with value `pol`; its arguments are
    /// already resolved.
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
            terms.push(self.resolved[&a]);
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

    /// One `Resolve` task: `t` with `ite` and `abs` resolved by the model (arithmetic terms
    /// and below), recorded in `resolved` directly or by the tasks pushed on `work`.
    fn resolve_step(
        &mut self,
        store: &mut TermStore,
        t: TermId,
        work: &mut Vec<Task>,
    ) -> Result<(), MbpError> {
        if self.resolved.contains_key(&t) {
            return Ok(());
        }
        let args = store.args(t);
        if args.is_empty() {
            self.resolved.insert(t, t);
            return Ok(());
        }
        match store.op(t) {
            Op::Ite => {
                let (c, a, b) = (args[0], args[1], args[2]);
                let v = self.truth(store, c)?;
                let branch = if v { a } else { b };
                work.push(Task::Alias(t, branch));
                work.push(Task::Resolve(branch));
                work.push(Task::Collect(c, v));
            }
            Op::Abs => {
                let a = args[0];
                work.push(Task::Abs(t));
                work.push(Task::Resolve(a));
            }
            Op::App(_) => {
                work.push(Task::Rebuild(t, true));
                self.push_resolves(store, t, true, work);
            }
            _ => {
                work.push(Task::Rebuild(t, false));
                self.push_resolves(store, t, false, work);
            }
        }
        Ok(())
    }

    /// Which arguments of `t` are resolved: arithmetic and array ones of an application
    /// (`app`), every non-Boolean one of an arithmetic operator.
    fn resolvable(store: &TermStore, a: TermId, app: bool) -> bool {
        let s = store.sort(a);
        if app {
            s.is_arith() || s.is_array()
        } else {
            s != Sort::Bool
        }
    }

    fn push_resolves(&self, store: &TermStore, t: TermId, app: bool, work: &mut Vec<Task>) {
        let args = store.args(t);
        work.extend(
            args.iter()
                .rev()
                .filter(|&&a| Self::resolvable(store, a, app))
                .map(|&a| Task::Resolve(a)),
        );
    }

    /// `t` over its resolved arguments (every resolvable argument is resolved by now).
    fn rebuilt(&self, store: &mut TermStore, t: TermId, app: bool) -> TermId {
        let args: Vec<TermId> = store.args(t).to_vec();
        let new: Vec<TermId> = args
            .iter()
            .map(|&a| {
                if Self::resolvable(store, a, app) {
                    self.resolved[&a]
                } else {
                    a
                }
            })
            .collect();
        if new == args {
            t
        } else {
            store.mk_raw(store.op(t).clone(), &new, store.sort(t))
        }
    }
}

/// A step of [`Implicant::collect`]'s work list.
enum Task {
    /// Collect the implicant of a Bool term with the given model value.
    Collect(TermId, bool),
    /// Resolve an arithmetic (or array) term.
    Resolve(TermId),
    /// Record the term over its resolved arguments (`true`: application-style arguments).
    Rebuild(TermId, bool),
    /// Record the first term as resolved to the resolution of the second (an `ite` branch).
    Alias(TermId, TermId),
    /// Record an `abs` term as its argument or its negation, with the sign literal.
    Abs(TermId),
    /// Push a Boolean variable, application or `select` with resolved arguments.
    Atom(TermId, bool),
    /// Push a comparison over resolved arguments.
    Cmp(TermId, bool),
    /// Push an `is_int` atom over its resolved argument.
    IsInt(TermId, bool),
    /// Push the literals of an arithmetic `=`/`distinct` over resolved arguments.
    ArithEq(TermId, bool),
}

fn negate_cmp(op: &Op) -> Op {
    match op {
        Op::Le => Op::Gt,
        Op::Lt => Op::Ge,
        Op::Ge => Op::Lt,
        _ => Op::Le,
    }
}
