//! Exact translation of an asserted formula into Horn clauses.
//!
//! An assertion is read as a universally closed disjunction of signed literals and expanded
//! until every literal is atomic: `or`, `=>`, `not`, `and` under negation, `forall` (and
//! `exists` under negation: an existential body is universal for the clause) are unfolded;
//! a conjunction containing predicates in a positive position (or a disjunction in the body,
//! or an `ite` over predicates) splits the clause into several, by distributivity. Every step
//! is an equivalence, so the clauses are equivalent to the assertion. Lifted binders are
//! renamed apart when they clash with a variable already in use.
//!
//! The result is Horn iff every clause has at most one positive predicate literal and every
//! predicate occurs directly as a literal (not under `=`, `xor`, an `ite` condition,
//! arithmetic, or as an argument); anything else is a [`ErrorKind::NonHorn`] error.

use crate::system::{Clause, PredApp};
use cove_logic::smtlib::{ErrorKind, ParseError, Parser, Pos};
use cove_logic::subst::free_vars_in_order as free_vars;
use cove_logic::{Op, TermId, TermStore, VarId};
use rustc_hash::{FxHashMap, FxHashSet};

/// Most clauses one assertion may expand into.
const MAX_CLAUSES: usize = 100_000;

/// A literal: the term and its sign in the clause's disjunction.
type Lit = (TermId, bool);

#[derive(Clone, Default)]
struct Pending {
    todo: Vec<Lit>,
    atoms: Vec<Lit>,
}

/// Caches "contains a predicate application" across assertions (terms are hash-consed).
#[derive(Default)]
pub(crate) struct Clausifier {
    /// 0 = unknown, 1 = predicate free, 2 = contains a predicate.
    has_pred: Vec<u8>,
}

impl Clausifier {
    fn has_pred(&mut self, store: &TermStore, t: TermId) -> bool {
        if self.has_pred.len() < store.len() {
            self.has_pred.resize(store.len(), 0);
        }
        let mut stack = vec![(t, false)];
        while let Some((n, expanded)) = stack.pop() {
            if self.has_pred[n.index()] != 0 {
                continue;
            }
            if matches!(store.op(n), Op::App(_)) {
                self.has_pred[n.index()] = 2;
            } else if !expanded {
                stack.push((n, true));
                stack.extend(store.args(n).iter().map(|&a| (a, false)));
            } else {
                let any = store.args(n).iter().any(|a| self.has_pred[a.index()] == 2);
                self.has_pred[n.index()] = if any { 2 } else { 1 };
            }
        }
        self.has_pred[t.index()] == 2
    }

    /// Translates `t` (asserted if `positive`, else the body of a query `t -> false`) into
    /// clauses appended to `out`.
    pub(crate) fn clausify(
        &mut self,
        p: &mut Parser<'_, '_>,
        t: TermId,
        positive: bool,
        cmd: Pos,
        origin: Pos,
        out: &mut Vec<Clause>,
    ) -> Result<(), ParseError> {
        let mut used: FxHashSet<VarId> = free_vars(p.store_ref(), &[t]).into_iter().collect();
        let mut lifted: Vec<VarId> = vec![];
        let mut work = vec![Pending {
            todo: vec![(t, positive)],
            atoms: vec![],
        }];
        let mut produced = 0usize;
        while let Some(mut pend) = work.pop() {
            let mut satisfied = false;
            while let Some((t, pos)) = pend.todo.pop() {
                let store = p.store_ref();
                let op = store.op(t).clone();
                let args = store.args(t).to_vec();
                match (op, pos) {
                    (Op::Bool(b), _) => {
                        if b == pos {
                            satisfied = true;
                            break;
                        }
                    }
                    (Op::Not, _) => pend.todo.push((args[0], !pos)),
                    (Op::Or, true) | (Op::And, false) => {
                        pend.todo.extend(args.iter().rev().map(|&a| (a, pos)))
                    }
                    (Op::Implies, true) => pend.todo.extend([(args[1], true), (args[0], false)]),
                    (Op::Forall(vs), true) | (Op::Exists(vs), false) => {
                        let body = self.lift(p, &vs, args[0], &mut used, &mut lifted);
                        pend.todo.push((body, pos));
                    }
                    (Op::And, true) | (Op::Or, false) if self.has_pred(p.store_ref(), t) => {
                        for &a in args.iter().rev() {
                            let mut b = pend.clone();
                            b.todo.push((a, pos));
                            work.push(b);
                        }
                        satisfied = true;
                        break;
                    }
                    (Op::Implies, false) if self.has_pred(p.store_ref(), t) => {
                        for lit in [(args[1], false), (args[0], true)] {
                            let mut b = pend.clone();
                            b.todo.push(lit);
                            work.push(b);
                        }
                        satisfied = true;
                        break;
                    }
                    (Op::Ite, _)
                        if store.sort(t) == cove_logic::Sort::Bool
                            && self.has_pred(p.store_ref(), t) =>
                    {
                        if self.has_pred(p.store_ref(), args[0]) {
                            return Err(self.inside_error(p, args[0], t, cmd));
                        }
                        // (ite c a b) = (c ∧ a) ∨ (¬c ∧ b), and its negation alike.
                        for lits in [
                            [(args[0], true), (args[2], pos)],
                            [(args[0], false), (args[1], pos)],
                        ] {
                            let mut b = pend.clone();
                            b.todo.extend(lits);
                            work.push(b);
                        }
                        satisfied = true;
                        break;
                    }
                    (Op::App(_), _) => {
                        if let Some(&a) = args.iter().find(|&&a| self.has_pred(p.store_ref(), a)) {
                            return Err(self.inside_error(p, a, t, cmd));
                        }
                        pend.atoms.push((t, pos));
                    }
                    _ => {
                        if self.has_pred(p.store_ref(), t) {
                            let at = p.pos_of(t).unwrap_or(cmd);
                            let q = matches!(p.store_ref().op(t), Op::Forall(_) | Op::Exists(_));
                            if q {
                                let what = if pos {
                                    "an existential quantifier in a clause head"
                                } else {
                                    "a universal quantifier in a clause body"
                                };
                                return Err(ParseError::new(
                                    at,
                                    ErrorKind::NonHorn,
                                    format!("not Horn: a predicate occurs under {what}"),
                                ));
                            }
                            return Err(self.inside_error(p, t, t, cmd));
                        }
                        pend.atoms.push((t, pos));
                    }
                }
                if work.len() > MAX_CLAUSES {
                    return Err(ParseError::new(
                        cmd,
                        ErrorKind::Limit,
                        format!("the assertion expands into more than {MAX_CLAUSES} clauses"),
                    ));
                }
            }
            if satisfied {
                continue;
            }
            produced += 1;
            if produced > MAX_CLAUSES {
                return Err(ParseError::new(
                    cmd,
                    ErrorKind::Limit,
                    format!("the assertion expands into more than {MAX_CLAUSES} clauses"),
                ));
            }
            let clause = self.finish(p, pend, &lifted, cmd, origin)?;
            if !positive && let Some(h) = &clause.head {
                // `q -> false` is only the query "is q derivable" when q is a positive
                // combination of predicates.
                let t = p.store().mk_app(h.pred, &h.args);
                let name = p.store_ref().func(h.pred).name.to_string();
                let at = p.pos_of(t).unwrap_or(cmd);
                return Err(ParseError::new(
                    at,
                    ErrorKind::NonHorn,
                    format!("not Horn: predicate '{name}' occurs negated in a query"),
                ));
            }
            out.push(clause);
        }
        Ok(())
    }

    /// Makes the binders `vs` of `body` clause variables, renaming those already in use.
    fn lift(
        &mut self,
        p: &mut Parser<'_, '_>,
        vs: &[VarId],
        body: TermId,
        used: &mut FxHashSet<VarId>,
        lifted: &mut Vec<VarId>,
    ) -> TermId {
        let mut map = FxHashMap::default();
        for &v in vs {
            if used.insert(v) {
                lifted.push(v);
            } else {
                let (name, sort) = (
                    p.store_ref().var_name(v).to_string(),
                    p.store_ref().var_sort(v),
                );
                let w = p.fresh_var(&name, sort);
                used.insert(w);
                lifted.push(w);
                let wt = p.store().mk_var(w);
                map.insert(v, wt);
            }
        }
        p.substitute(body, &map)
    }

    /// The NonHorn error for a predicate inside `t` (an operand of `parent`).
    fn inside_error(
        &mut self,
        p: &Parser<'_, '_>,
        t: TermId,
        parent: TermId,
        cmd: Pos,
    ) -> ParseError {
        let store = p.store_ref();
        // The first predicate application inside `t`.
        let mut stack = vec![t];
        let mut seen = FxHashSet::default();
        let mut app = t;
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            if matches!(store.op(n), Op::App(_)) {
                app = n;
                break;
            }
            stack.extend(store.args(n).iter().rev());
        }
        let name = match store.op(app) {
            Op::App(f) => store.func(*f).name.to_string(),
            _ => "?".into(),
        };
        let at = p.pos_of(app).or(p.pos_of(parent)).unwrap_or(cmd);
        ParseError::new(
            at,
            ErrorKind::NonHorn,
            format!(
                "not Horn: predicate '{name}' occurs inside '{}' (predicates may only be conjuncts of a clause body or its head)",
                op_symbol(store, parent)
            ),
        )
    }

    fn finish(
        &mut self,
        p: &mut Parser<'_, '_>,
        pend: Pending,
        lifted: &[VarId],
        cmd: Pos,
        origin: Pos,
    ) -> Result<Clause, ParseError> {
        let mut head: Option<PredApp> = None;
        let mut body = vec![];
        let mut conj = vec![];
        for (t, pos) in pend.atoms {
            let store = p.store_ref();
            match store.op(t) {
                Op::App(f) => {
                    let app = PredApp {
                        pred: *f,
                        args: store.args(t).to_vec(),
                    };
                    if !pos {
                        body.push(app);
                    } else if let Some(h) = &head {
                        let first = store.func(h.pred).name.to_string();
                        let at = p.pos_of(t).unwrap_or(cmd);
                        return Err(ParseError::new(
                            at,
                            ErrorKind::NonHorn,
                            format!(
                                "not Horn: the clause has two positive predicates, '{first}' and '{}'",
                                store.func(*f).name
                            ),
                        ));
                    } else {
                        head = Some(app);
                    }
                }
                _ => {
                    let c = if pos { p.store().mk_not(t) } else { t };
                    conj.push(c);
                }
            }
        }
        let constraint = p.store().mk_and(&conj);
        let store = p.store_ref();
        let mut terms: Vec<TermId> = head
            .iter()
            .chain(body.iter())
            .flat_map(|a| a.args.iter().copied())
            .collect();
        terms.push(constraint);
        let fv = free_vars(store, &terms);
        let fv_set: FxHashSet<VarId> = fv.iter().copied().collect();
        let lifted_set: FxHashSet<VarId> = lifted.iter().copied().collect();
        let mut vars: Vec<VarId> = lifted
            .iter()
            .copied()
            .filter(|v| fv_set.contains(v))
            .collect();
        vars.extend(fv.into_iter().filter(|v| !lifted_set.contains(v)));
        Ok(Clause {
            vars,
            body,
            constraint,
            head,
            origin: Some(origin),
        })
    }
}

/// The SMT-LIB symbol of the operator at the root of `t`, for messages.
fn op_symbol(store: &TermStore, t: TermId) -> String {
    match store.op(t) {
        Op::App(f) => store.func(*f).name.to_string(),
        Op::Forall(_) => "forall".into(),
        Op::Exists(_) => "exists".into(),
        Op::Bool(_) | Op::Num(_) | Op::Var(_) => "a constant".into(),
        op => cove_logic::print::op_name(op).unwrap_or("?").to_string(),
    }
}
