//! Concrete counterexamples from must-summaries.
//!
//! A reach fact of `⊥` is justified by its rule and one premise fact per body atom. The
//! derivation is rebuilt top-down with concrete values: the head's values (from the parent
//! step) together with the premise facts are satisfiable in the rule (the facts are sound
//! under-approximations), and a model gives the values of the body atoms, which become the
//! heads of the premise steps. Steps with the same fact and head values are shared, so
//! derivations of nonlinear systems (e.g. `fib(n)` calling `fib(n-1)` and `fib(n-2)`) stay
//! a DAG of linear size instead of an exponential tree; the work list keeps deep linear
//! derivations off the call stack, and one solver per rule (with push/pop) avoids
//! re-encoding the rule for every step.

use super::Run;
use super::project::value_term;
use crate::result::{Derivation, DerivationStep};
use cove_logic::{FuncId, TermId, TermStore, Value, VarId};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::FxHashMap;

/// A step being built: its fact, its head values, and (once solved) the model values of
/// its body atoms and its assignment.
struct Frame {
    fact: usize,
    head: Option<Vec<Value>>,
    solved: Option<Solved>,
}

struct Solved {
    bodies: Vec<Vec<Value>>,
    assignment: Vec<(VarId, Value)>,
    head: Option<(FuncId, Vec<Value>)>,
    next: usize,
    premises: Vec<usize>,
}

impl Run<'_> {
    /// Builds a concrete derivation from a reach fact of `⊥` (`None` if a step cannot be
    /// re-derived, which would be a bug in the must-summaries or an SMT resource limit).
    pub(super) fn counterexample(&self, store: &mut TermStore, root: usize) -> Option<Derivation> {
        let mut d = Derivation::default();
        let mut solvers: FxHashMap<usize, SmtSolver> = FxHashMap::default();
        let mut memo: FxHashMap<(usize, Option<Vec<Value>>), usize> = FxHashMap::default();
        let mut stack = vec![Frame {
            fact: root,
            head: None,
            solved: None,
        }];
        let mut last = None;
        while let Some(top) = stack.last_mut() {
            if top.solved.is_none() {
                let key = (top.fact, top.head.clone());
                if let Some(&s) = memo.get(&key) {
                    last = Some(s);
                    stack.pop();
                    continue;
                }
                top.solved =
                    Some(self.solve_step(store, &mut solvers, top.fact, top.head.as_deref())?);
            }
            let top = stack.last_mut().expect("non-empty");
            let solved = top.solved.as_mut().expect("solved above");
            // Collect the premise step produced by the child frame that just finished.
            if let Some(s) = last.take() {
                solved.premises.push(s);
                solved.next += 1;
            }
            if solved.next < solved.bodies.len() {
                let j = solved.next;
                let child = Frame {
                    fact: self.facts[top.fact].premises[j],
                    head: Some(solved.bodies[j].clone()),
                    solved: None,
                };
                stack.push(child);
                continue;
            }
            let frame = stack.pop().expect("non-empty");
            let solved = frame.solved.expect("solved above");
            d.steps.push(DerivationStep {
                clause: self.rules[self.facts[frame.fact].rule].clause,
                head: solved.head,
                premises: solved.premises,
                assignment: solved.assignment,
            });
            let s = d.steps.len() - 1;
            memo.insert((frame.fact, frame.head), s);
            last = Some(s);
        }
        d.root = last?;
        Some(d)
    }

    /// Values for one step: the rule instance with the given head values and the premise
    /// facts on the body atoms.
    fn solve_step(
        &self,
        store: &mut TermStore,
        solvers: &mut FxHashMap<usize, SmtSolver>,
        f: usize,
        head: Option<&[Value]>,
    ) -> Option<Solved> {
        let fact = &self.facts[f];
        let rule = &self.rules[fact.rule];
        let clause = &self.sys.clauses[rule.clause];
        // The step's own constraints: the head's values and the premise facts.
        let params = &self.preds[fact.pred].params;
        let mut step: Vec<TermId> = Vec::new();
        if let Some(vals) = head {
            for (x, v) in params.iter().zip(vals) {
                let xt = store.mk_var(*x);
                let vt = value_term(store, v, store.var_sort(*x));
                step.push(store.mk_eq(xt, vt));
            }
        }
        for (j, pf) in fact.premises.iter().enumerate() {
            let &(_, t) = rule.fact_copies[j].iter().find(|(fi, _)| fi == pf)?;
            step.push(t);
        }
        // Array values in the head are solved at the base of a fresh solver: asserted in a
        // pushed frame they are only guarded facts, and on solc's crypto functions (store
        // chains over constant arrays nested four deep) the array check went round until
        // the deadline (9 s) where a fresh solver needs 60 ms.
        let arrays = head.is_some_and(|vs| vs.iter().any(|v| matches!(v, Value::Array(_))));
        let rule_solver = |store: &mut TermStore| {
            let mut s = SmtSolver::new();
            s.set_limits(cove_smt::Limits::of(self.ctl));
            s.assert(store, rule.enc);
            s
        };
        let m = if arrays {
            let mut fresh = rule_solver(store);
            for &t in &step {
                fresh.assert(store, t);
            }
            if fresh.check(store) != SmtResult::Sat {
                return None;
            }
            fresh.model(store)
        } else {
            let solver = solvers
                .entry(fact.rule)
                .or_insert_with(|| rule_solver(store));
            solver.push();
            for &t in &step {
                solver.assert(store, t);
            }
            let sat = solver.check(store) == SmtResult::Sat;
            let m = sat.then(|| solver.model(store));
            solver.pop(1);
            m?
        };
        let val = |v: VarId| {
            m.get(v)
                .cloned()
                .unwrap_or_else(|| Value::default_of(store.var_sort(v)))
        };
        let bodies = rule
            .body
            .iter()
            .map(|(_, copies)| copies.iter().map(|x| val(*x)).collect())
            .collect();
        let assignment = clause.vars.iter().map(|v| (*v, val(*v))).collect();
        let head = self.preds[fact.pred]
            .func
            .map(|p| (p, params.iter().map(|x| val(*x)).collect()));
        Some(Solved {
            bodies,
            assignment,
            head,
            next: 0,
            premises: Vec::new(),
        })
    }
}
