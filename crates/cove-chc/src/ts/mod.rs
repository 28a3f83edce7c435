//! The transition-system view of a linear CHC system.
//!
//! Engines that think in states and steps (k-induction, PD-KIND, IMC, lazy abstraction,
//! TPA) work on a [`TransitionSystem`] `(vars, init, trans, bad)` instead of on clauses. This
//! module builds one from any *linear* clause system (every clause has at most one body
//! predicate) and translates the engines' answers back into certificates of that system:
//!
//! - an invariant of the transition system (a formula over its state variables) becomes
//!   [`Invariants`](crate::Invariants) of the clause system ([`TransitionSystem::invariants`]);
//! - a counterexample trace (the values of the state variables at every step) becomes a
//!   [`crate::Derivation`] ([`TransitionSystem::derivation`]);
//! - [`TransitionSystem::answer`] does both, so an engine can return its value directly; the
//!   driver then checks it with the independent checker ([`crate::cert`]) on the input system.
//!
//! # Encoding (as Golem does)
//! A system with one predicate `P` and clauses `φ → P(t)` (init), `P(s) ∧ φ → P(t)` (loop) and
//! `P(s) ∧ φ → false` (query) becomes the system over `P`'s arguments. A system with several
//! predicates gets a *location* variable `loc` (Int, predicate number `i` in `sys.preds`
//! order) and the predicates share *slot* variables per sort: the `j`-th argument of sort `s`
//! of every predicate is the same state variable. Each clause `P(s) ∧ φ → Q(t)` is one
//! disjunct `loc = P ∧ loc' = Q ∧ φ ∧ slots(P) = s ∧ slots'(Q) = t` of `trans`; slots not
//! belonging to `Q` are unconstrained after the step (havoc), which keeps the translation of
//! an invariant back to a predicate sound (see [`TransitionSystem::invariants`]). A query
//! without a body predicate (`φ → false`) gets an *error* location of its own that is initial
//! and bad.
//!
//! # Variables
//! - `vars`: the state variables; `next`: their next-state copies (same order and sorts).
//! - `init` and `bad` mention only `vars`: clause variables that are not predicate arguments
//!   are eliminated by exact quantifier elimination when the system is built. When that fails
//!   (too many disjuncts), the fact becomes a transition from an extra *start* location (the
//!   only initial one) and the query a transition into the error location, whose `bad` is
//!   just `loc = error`; traces are then one or two steps longer.
//! - `trans` mentions `vars`, `next` and `aux`: local variables of the clauses, implicitly
//!   existentially quantified *per step*. Unrolling must use fresh copies of `aux` in every
//!   step — [`Unroller`] does this.

mod back;
mod build;
mod kto1;
mod unroll;

pub use unroll::Unroller;

use crate::engine::Control;
use crate::result::UnknownReason;
use cove_logic::{FuncId, Rational, Sort, TermId, TermStore, Value, VarId, substitute};
use rustc_hash::FxHashMap;

/// Why a transition system could not be built, or a witness not translated back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TsError {
    /// A clause has two or more body predicates.
    NonLinear,
    /// The system is outside what the view handles (named).
    Unsupported(String),
    /// The control asked to stop.
    Stopped(UnknownReason),
    /// A witness does not fit the system (a bug in the engine or in this module).
    BadWitness(String),
}

impl TsError {
    /// The `unknown` reason an engine reports for this error.
    pub fn reason(self) -> UnknownReason {
        match self {
            TsError::NonLinear => UnknownReason::Unsupported("nonlinear clauses".into()),
            TsError::Unsupported(s) => UnknownReason::Unsupported(s),
            TsError::Stopped(r) => r,
            TsError::BadWitness(s) => UnknownReason::Incomplete(format!("bad witness: {s}")),
        }
    }
}

impl std::fmt::Display for TsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.clone().reason())
    }
}

/// A counterexample of a transition system: `states[i][j]` is the value of `vars[j]` after
/// `i` steps. `states[0]` satisfies `init`, consecutive states satisfy `trans` (for some
/// values of `aux`), and the last state satisfies `bad`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The states, in order (at least one).
    pub states: Vec<Vec<Value>>,
}

/// An engine's answer on a transition system, before translation back to clauses.
#[derive(Clone, Debug)]
pub enum TsAnswer {
    /// Safe: a formula over `vars` that contains `init`, is closed under `trans` (1-inductive)
    /// and excludes `bad`.
    Safe(TermId),
    /// Unsafe: a trace from `init` to `bad`.
    Unsafe(Trace),
    /// No answer.
    Unknown(UnknownReason),
}

/// What a location stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum LocKind {
    /// A predicate of the clause system.
    Pred(FuncId),
    /// The initial location of facts whose constraint has local variables that could not be
    /// eliminated: the fact becomes a transition out of it.
    Start,
    /// The error location: the target of queries that became transitions, and the (initial)
    /// location of queries without a body predicate.
    Error,
}

/// One location of the system.
#[derive(Clone, Debug)]
struct Location {
    kind: LocKind,
    /// The state variables holding the predicate's arguments, in argument order.
    slots: Vec<VarId>,
}

/// A transition system over typed state variables. See the module docs for the encoding.
#[derive(Clone, Debug)]
pub struct TransitionSystem {
    /// State variables (sorts via `store.var_sort`).
    pub vars: Vec<VarId>,
    /// Next-state copies of `vars`, in the same order.
    pub next: Vec<VarId>,
    /// Local variables of `trans` (existential per step; pairwise distinct from `vars`/`next`).
    pub aux: Vec<VarId>,
    /// Initial states, over `vars` only.
    pub init: TermId,
    /// Transition relation, over `vars`, `next` and `aux`.
    pub trans: TermId,
    /// Bad states, over `vars` only.
    pub bad: TermId,
    /// The location variable (present iff there are several locations).
    loc: Option<VarId>,
    /// Locations, indexed by their number (the value of `loc`).
    locs: Vec<Location>,
}

impl TransitionSystem {
    /// Builds the view of the linear system `sys`.
    ///
    /// Fails with [`TsError::NonLinear`] when a clause has two or more body predicates, with
    /// [`TsError::Unsupported`] for quantified constraints or when the initial or bad states
    /// need a quantifier elimination that fails, and with [`TsError::Stopped`] when `ctl`
    /// stops the construction.
    pub fn from_chc(
        store: &mut TermStore,
        sys: &crate::ChcSystem,
        ctl: &Control,
    ) -> Result<TransitionSystem, TsError> {
        build::build(store, sys, build::QE_LIMIT, ctl)
    }

    /// [`TransitionSystem::from_chc`] with a limit on the disjuncts of the quantifier
    /// elimination for `init` and `bad` (0: never eliminate, always use the start/error
    /// locations for facts and queries with local variables).
    pub fn from_chc_with_qe_limit(
        store: &mut TermStore,
        sys: &crate::ChcSystem,
        qe_limit: usize,
        ctl: &Control,
    ) -> Result<TransitionSystem, TsError> {
        build::build(store, sys, qe_limit, ctl)
    }

    /// True when the system came from a single predicate (no location variable).
    pub fn is_single_predicate(&self) -> bool {
        self.loc.is_none()
    }

    /// The number of locations (the values of the location variable are `0..n`).
    pub fn num_locations(&self) -> usize {
        self.locs.len()
    }

    /// The location variable of a multi-predicate system.
    pub fn location_var(&self) -> Option<VarId> {
        self.loc
    }

    /// Map `vars[i] ↦ next[i]`.
    pub fn to_next_map(&self, store: &mut TermStore) -> FxHashMap<VarId, TermId> {
        self.vars
            .iter()
            .zip(&self.next)
            .map(|(&v, &n)| (v, store.mk_var(n)))
            .collect()
    }

    /// A formula over `vars` rewritten over `next`.
    pub fn to_next(&self, store: &mut TermStore, t: TermId) -> TermId {
        let m = self.to_next_map(store);
        substitute(store, t, &m)
    }

    /// A formula over `next` rewritten over `vars`.
    pub fn to_current(&self, store: &mut TermStore, t: TermId) -> TermId {
        let m: FxHashMap<VarId, TermId> = self
            .next
            .iter()
            .zip(&self.vars)
            .map(|(&n, &v)| (n, store.mk_var(v)))
            .collect();
        substitute(store, t, &m)
    }

    /// The reversed system: `init` and `bad` swapped, `trans` with `vars` and `next`
    /// exchanged. An invariant `J` of the reversed system (containing `bad`, closed under
    /// predecessors, disjoint from `init`) gives the invariant `¬J` of this one. Its witnesses
    /// must not be translated back with the reversed system's methods.
    pub fn reversed(&self, store: &mut TermStore) -> TransitionSystem {
        let mut map = self.to_next_map(store);
        for (&v, &n) in self.vars.iter().zip(&self.next) {
            map.insert(n, store.mk_var(v));
        }
        let trans = substitute(store, self.trans, &map);
        TransitionSystem {
            init: self.bad,
            bad: self.init,
            trans,
            ..self.clone()
        }
    }

    /// A fresh [`Unroller`] for this system (step copies of the variables).
    pub fn unroller(&self) -> Unroller {
        Unroller::new(self)
    }

    /// Checks that `inv` (over `vars`) is a safe 1-inductive invariant of the transition
    /// system: `init ⇒ inv`, `inv ∧ trans ⇒ inv'`, `inv ∧ bad` unsatisfiable. `Ok(false)`
    /// when one of the three fails; an error when the solver cannot decide.
    pub fn is_safe_inductive(
        &self,
        store: &mut TermStore,
        inv: TermId,
        ctl: &Control,
    ) -> Result<bool, TsError> {
        let not_inv = store.mk_not(inv);
        let inv_next = self.to_next(store, inv);
        let not_inv_next = store.mk_not(inv_next);
        let queries = [
            vec![self.init, not_inv],
            vec![inv, self.trans, not_inv_next],
            vec![inv, self.bad],
        ];
        for q in queries {
            if let Some(r) = ctl.should_stop() {
                return Err(TsError::Stopped(r));
            }
            let f = store.mk_and(&q);
            let mut s = cove_smt::SmtSolver::new();
            s.set_limits(cove_smt::Limits::of(ctl));
            s.assert(store, f);
            match s.check(store) {
                cove_smt::SmtResult::Unsat => {}
                cove_smt::SmtResult::Sat => return Ok(false),
                cove_smt::SmtResult::Unknown(r) => {
                    return Err(TsError::Stopped(ctl.should_stop().unwrap_or(r)));
                }
            }
        }
        Ok(true)
    }

    /// Translates an engine's answer on this transition system into an answer for `sys` (the
    /// system it was built from). A witness that does not translate becomes `unknown`. The
    /// answer is not checked here: the driver checks every answer against the input system
    /// (`driver::run::validate`), once, after the back-translation of preprocessing.
    pub fn answer(
        &self,
        store: &mut TermStore,
        sys: &crate::ChcSystem,
        ans: TsAnswer,
        ctl: &Control,
    ) -> crate::ChcResult {
        use crate::ChcResult;
        let fail = |what: &str, e: &dyn std::fmt::Display| {
            ChcResult::Unknown(match ctl.should_stop() {
                Some(r) => r,
                None => UnknownReason::Incomplete(format!("{what}: {e}")),
            })
        };
        match ans {
            TsAnswer::Unknown(r) => ChcResult::Unknown(r),
            TsAnswer::Safe(inv) => match self.invariants(store, inv) {
                Err(e) => fail("invariant translation", &e),
                Ok(invs) => ChcResult::Sat(invs),
            },
            TsAnswer::Unsafe(trace) => match self.derivation(store, sys, &trace, ctl) {
                Err(e) => fail("counterexample translation", &e),
                Ok(d) => ChcResult::Unsat(d),
            },
        }
    }
}

/// The term of a value of sort `sort`.
pub(crate) fn value_term(store: &mut TermStore, v: &Value, sort: Sort) -> TermId {
    v.to_term(store, sort)
}

/// The numeral `i` as a location value.
pub(crate) fn loc_term(store: &mut TermStore, i: usize) -> TermId {
    store.mk_num(Rational::from(i as i64), Sort::Int)
}

#[cfg(test)]
mod tests;
