//! The independent certificate checker.
//!
//! Trust in Cove's answers rests here, not in the engines: this module shares no code with
//! them beyond the logic layer and the SMT core, runs no preprocessing and uses a fresh SMT
//! solver per query.
//!
//! - A `sat` certificate (invariants) is valid iff for every clause
//!   `body ∧ constraint ∧ ¬head` is unsatisfiable once every predicate is replaced by its
//!   definition.
//! - An `unsat` certificate (derivation) is valid iff it is an acyclic tree/DAG of clause
//!   instances, each of which holds under its stated variable values (checked by exact
//!   evaluation, no solver needed), whose premises match the clause body, and whose root is an
//!   instance of a query clause.

use crate::cert_quantifiers::{instantiate, mentions_quantifier, skolemize};
use crate::engine::Control;
use crate::result::{Derivation, Invariants};
use crate::system::ChcSystem;
use cove_logic::{Model, Sort, TermId, TermStore, Value, expand_funcs, free_vars};
use cove_smt::{SmtResult, SmtSolver};
use std::fmt;

/// Steps of the read-over-write expansion of one checked query before it is given up.
const READ_BUDGET: usize = 1_000_000;

/// Why a certificate was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CertError {
    /// The certificate is wrong (with the reason, e.g. a counterexample to a clause).
    Invalid(String),
    /// The checker could not decide (time or resource limit): neither accepted nor refuted.
    Undecided(String),
}

impl CertError {
    /// Whether the certificate was shown to be wrong (not merely left undecided).
    pub fn is_invalid(&self) -> bool {
        matches!(self, CertError::Invalid(_))
    }
}

impl fmt::Display for CertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CertError::Invalid(s) | CertError::Undecided(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for CertError {}

fn clause_name(sys: &ChcSystem, i: usize) -> String {
    match sys.clauses[i].origin {
        Some(p) => format!("clause {i} (line {})", p.line),
        None => format!("clause {i}"),
    }
}

/// Checks that `inv` makes every clause of `sys` valid.
pub fn check_invariants(
    store: &mut TermStore,
    sys: &ChcSystem,
    inv: &Invariants,
    ctl: &Control,
) -> Result<(), CertError> {
    // Measures (`define-fun-rec`) the definitions may apply: checked first (shape and lower
    // bounds), then every clause that mentions one is decided by `cert_measure::reduce`.
    let measures = if inv.measures.is_empty() {
        Default::default()
    } else {
        crate::cert_measure::check_measures(store, &inv.measures, &sys.preds, ctl)?
    };
    for &p in &sys.preds {
        let Some(def) = inv.defs.get(&p) else {
            return Err(CertError::Invalid(format!(
                "no definition for predicate '{}'",
                store.func(p).name
            )));
        };
        let decl = store.func(p).clone();
        if def.params.len() != decl.args.len() {
            return Err(CertError::Invalid(format!(
                "definition of '{}' has the wrong number of parameters",
                decl.name
            )));
        }
        for (v, s) in def.params.iter().zip(decl.args.iter()) {
            if store.var_sort(*v) != *s {
                return Err(CertError::Invalid(format!(
                    "parameter '{}' of '{}' has the wrong sort",
                    store.var_name(*v),
                    decl.name
                )));
            }
        }
        if store.sort(def.body) != Sort::Bool {
            return Err(CertError::Invalid(format!(
                "definition of '{}' is not Boolean",
                decl.name
            )));
        }
        if let Some(v) = free_vars(store, def.body)
            .into_iter()
            .find(|v| !def.params.contains(v))
        {
            return Err(CertError::Invalid(format!(
                "definition of '{}' mentions '{}', which is not a parameter",
                decl.name,
                store.var_name(v)
            )));
        }
        if crate::cert_measure::mentions_other_app(store, def.body, &measures) {
            return Err(CertError::Invalid(format!(
                "definition of '{}' mentions a predicate",
                decl.name
            )));
        }
    }
    for (i, c) in sys.clauses.iter().enumerate() {
        let mut parts = Vec::with_capacity(c.body.len() + 2);
        for app in &c.body {
            let a = store.mk_app(app.pred, &app.args);
            parts.push(expand_funcs(store, a, &inv.defs));
        }
        parts.push(c.constraint);
        let head = match &c.head {
            Some(app) => {
                let h = store.mk_app(app.pred, &app.args);
                expand_funcs(store, h, &inv.defs)
            }
            None => store.mk_false(),
        };
        parts.push(store.mk_not(head));
        let query = store.mk_and(&parts);
        // A universal invariant in the head (an existential in the body) is a witness to
        // find, not a fact to use: one fresh constant per bound variable decides it, where
        // the flattening below would turn `¬∀i j. A[i][j] = F(i, j)` into a disequality of
        // curried arrays, whose extensionality witnesses the SMT core searches for level by
        // level (Solidity's constructors of nested arrays: over 28 s for one clause).
        let mut query = skolemize(store, query);
        if !measures.is_empty() {
            let parts = crate::cert_measure::reduce(store, query, &measures).map_err(|e| {
                CertError::Undecided(format!(
                    "cannot decide {} with measures: {e}",
                    clause_name(sys, i)
                ))
            })?;
            check_parts(store, sys, i, &parts, false, ctl)?;
            continue;
        }
        // (A quantifier of a translated-back invariant whose body lost every datatype
        // term to simplification, `(forall ((i Int)) true)`, goes the same way.)
        let over_dt =
            crate::cert_flatten::mentions_dt(store, query) || mentions_quantifier(store, query);
        let mut flat = over_dt;
        // Whether a model of the (flattened) query is a counterexample to the clause.
        let mut complete = true;
        if over_dt {
            // Datatypes: decided on the query flattened by the checker's own reading
            // (`cert_flatten`, which shares nothing with the preprocessing whose answers are
            // checked here), whose unsatisfiability implies the original's. A
            // quantifier-free query it does not cover (recursive datatypes: lists, trees,
            // Peano numbers) goes to the SMT core's datatype theory as it is (`cove_smt::dt`:
            // its `unsat` holds in every datatype model); one with a quantifier is undecided.
            match crate::cert_flatten::flatten(store, query) {
                Ok(q) => {
                    query = q.query;
                    complete = q.exact;
                }
                // Quantified invariants (`∀k. 0 ≤ k < len ⇒ a[k] = 42`) that are no
                // extensional equality: their uses become instances at the query's index
                // set (`cert_quantifiers`), a weakening, so a model of the result is no
                // counterexample.
                Err(e) if mentions_quantifier(store, query) => {
                    let inst =
                        instantiate(store, query).map(|q| crate::cert_flatten::flatten(store, q));
                    match inst {
                        Some(Ok(q)) => {
                            query = q.query;
                            complete = false;
                        }
                        _ => {
                            return Err(CertError::Undecided(format!(
                                "cannot decide {} over datatypes: {e}",
                                clause_name(sys, i)
                            )));
                        }
                    }
                }
                Err(_) => flat = false,
            }
        }
        // Flattened datatype queries are full of component copies (`a_i = b_i` for every
        // field of a record that is passed on): variables defined by equalities are
        // eliminated first (`cove_smt::solve_eqs`; the query implies the reduced one, so an
        // unsatisfiable reduced query proves the clause; a model of it only serves the
        // error message). Solidity's nested mappings took over 20 s without it, 0.1 s with.
        let parts = if flat {
            cove_smt::solve_eqs(
                store,
                &[query],
                &Default::default(),
                &cove_smt::SolveEqsLimits::default(),
            )
            .assertions
        } else {
            vec![query]
        };
        // Reads of writes become case splits on the indices (equivalent; see
        // `cove_logic::array_reads`): the SMT core's lazy read-over-write rounds each pay a
        // full search, and a flattened constructor of nested arrays took 30 of them.
        let parts: Vec<TermId> = parts
            .into_iter()
            .map(|p| cove_logic::array_reads::expand_reads(store, p, READ_BUDGET).unwrap_or(p))
            .collect();
        check_parts(store, sys, i, &parts, complete, ctl)?;
    }
    Ok(())
}

/// Decides that the conjunction `parts` (the negated clause `i`) is unsatisfiable. With
/// `complete` off (the measure reduction, which keeps only some facts about the measures) a
/// model is no counterexample: the clause is then undecided, not refuted.
fn check_parts(
    store: &mut TermStore,
    sys: &ChcSystem,
    i: usize,
    parts: &[TermId],
    complete: bool,
    ctl: &Control,
) -> Result<(), CertError> {
    let c = &sys.clauses[i];
    let t0 = std::time::Instant::now();
    let mut solver = SmtSolver::new();
    solver.set_limits(cove_smt::Limits::of(ctl));
    for &a in parts {
        solver.assert(store, a);
    }
    let res = solver.check(store);
    if ctl.verbosity > 1 {
        let st = solver.stats();
        eprintln!(
            "cert: {}: {:?} in {:.3} s ({} conflicts, {} decisions, {} array lemmas in {} rounds)",
            clause_name(sys, i),
            res,
            t0.elapsed().as_secs_f64(),
            st.conflicts,
            st.decisions,
            st.array_lemmas,
            st.array_rounds
        );
    }
    let verdict = match res {
        SmtResult::Unsat => Ok(()),
        SmtResult::Sat if !complete => Err(CertError::Undecided(format!(
            "{} is not proven under the invariants (a model of the measure-reduced or inexactly flattened query need not be a counterexample)",
            clause_name(sys, i)
        ))),
        SmtResult::Sat => {
            let m = solver.model(store);
            let mut vals: Vec<String> = c
                .vars
                .iter()
                .filter_map(|v| m.get(*v).map(|x| format!("{}={}", store.var_name(*v), x)))
                .collect();
            vals.sort();
            Err(CertError::Invalid(format!(
                "{} is not valid under the invariants; counterexample: {}",
                clause_name(sys, i),
                vals.join(" ")
            )))
        }
        SmtResult::Unknown(r) => Err(CertError::Undecided(format!(
            "could not decide validity of {}: {r:?}",
            clause_name(sys, i)
        ))),
    };
    ctl.dispose(solver);
    verdict
}

/// Checks that `d` derives `false` from the clauses of `sys`.
pub fn check_derivation(
    store: &TermStore,
    sys: &ChcSystem,
    d: &Derivation,
) -> Result<(), CertError> {
    let n = d.steps.len();
    if d.root >= n {
        return Err(CertError::Invalid("derivation has no root step".into()));
    }
    // Acyclicity: every premise must be derivable before its use (DFS with colors).
    let mut state = vec![0u8; n];
    let mut stack = vec![(d.root, false)];
    while let Some((s, done)) = stack.pop() {
        if done {
            state[s] = 2;
            continue;
        }
        match state[s] {
            2 => continue,
            1 => {
                return Err(CertError::Invalid(format!(
                    "derivation is cyclic at step {s}"
                )));
            }
            _ => {}
        }
        state[s] = 1;
        stack.push((s, true));
        for &p in &d.steps[s].premises {
            if p >= n {
                return Err(CertError::Invalid(format!(
                    "step {s} refers to missing step {p}"
                )));
            }
            if state[p] == 1 {
                return Err(CertError::Invalid(format!(
                    "derivation is cyclic at step {p}"
                )));
            }
            if state[p] == 0 {
                stack.push((p, false));
            }
        }
    }
    if d.steps[d.root].head.is_some() {
        return Err(CertError::Invalid(
            "the root step does not derive false".into(),
        ));
    }
    for (si, step) in d.steps.iter().enumerate() {
        if state[si] != 2 {
            continue; // unreachable steps are ignored
        }
        let Some(c) = sys.clauses.get(step.clause) else {
            return Err(CertError::Invalid(format!(
                "step {si} uses clause {} which does not exist",
                step.clause
            )));
        };
        let what = format!("step {si} ({})", clause_name(sys, step.clause));
        let mut m = Model::new();
        for (v, val) in &step.assignment {
            if !value_fits(store.var_sort(*v), val) {
                return Err(CertError::Invalid(format!(
                    "{what}: value {val} does not fit the sort of '{}'",
                    store.var_name(*v)
                )));
            }
            m.set(*v, val.clone());
        }
        for v in &c.vars {
            if m.get(*v).is_none() {
                return Err(CertError::Invalid(format!(
                    "{what}: no value for variable '{}'",
                    store.var_name(*v)
                )));
            }
        }
        // Kleene evaluation: a value that depends on what SMT-LIB leaves unspecified (a
        // selector of another constructor, division by zero) proves nothing either way, so
        // the step is undecided rather than wrong (docs/decisions.md, "Algebraic
        // datatypes": a derivation counts only if it holds under every interpretation).
        let eval = |t| match m.eval_kleene(store, t) {
            Ok(Some(v)) => Ok(v),
            Ok(None) => Err(CertError::Undecided(format!(
                "{what}: the derivation depends on a value SMT-LIB leaves unspecified (a \
                 selector applied to another constructor, or a division by zero)"
            ))),
            Err(e) => Err(CertError::Invalid(format!("{what}: {e}"))),
        };
        // Whether the argument terms evaluate to exactly the derived values.
        let values_are = |args: &[TermId], vals: &[Value]| -> Result<bool, CertError> {
            for (a, want) in args.iter().zip(vals) {
                if &eval(*a)? != want {
                    return Ok(false);
                }
            }
            Ok(true)
        };
        if eval(c.constraint)? != Value::Bool(true) {
            return Err(CertError::Invalid(format!(
                "{what}: the constraint does not hold"
            )));
        }
        if step.premises.len() != c.body.len() {
            return Err(CertError::Invalid(format!(
                "{what}: {} premises for {} body atoms",
                step.premises.len(),
                c.body.len()
            )));
        }
        for (k, (app, &p)) in c.body.iter().zip(&step.premises).enumerate() {
            let Some((pred, vals)) = &d.steps[p].head else {
                return Err(CertError::Invalid(format!(
                    "{what}: premise {k} derives false"
                )));
            };
            if *pred != app.pred || vals.len() != app.args.len() {
                return Err(CertError::Invalid(format!(
                    "{what}: premise {k} derives another predicate"
                )));
            }
            if !values_are(&app.args, vals)? {
                return Err(CertError::Invalid(format!(
                    "{what}: body atom {k} does not match its premise"
                )));
            }
        }
        match (&c.head, &step.head) {
            (None, None) => {}
            (Some(app), Some((pred, vals)))
                if *pred == app.pred && vals.len() == app.args.len() =>
            {
                if !values_are(&app.args, vals)? {
                    return Err(CertError::Invalid(format!(
                        "{what}: the head values are not the clause's"
                    )));
                }
            }
            _ => {
                return Err(CertError::Invalid(format!(
                    "{what}: the head does not match the clause head"
                )));
            }
        }
    }
    Ok(())
}

fn value_fits(sort: Sort, v: &Value) -> bool {
    match (sort, v) {
        (Sort::Bool, Value::Bool(_)) => true,
        (Sort::Int, Value::Num(n)) => n.is_integer(),
        (Sort::Real, Value::Num(_)) => true,
        (Sort::BitVec(w), Value::Bv(b)) => b.width() == w,
        (Sort::Array(_), Value::Array(a)) => {
            let (is, es) = sort.array_parts().expect("array sort");
            value_fits(es, &a.default)
                && a.entries
                    .iter()
                    .all(|(k, x)| value_fits(is, k) && value_fits(es, x))
        }
        (Sort::Dt(_), Value::Dt(d)) => {
            d.sort == sort
                && cove_logic::dt::def(sort).is_some_and(|def| {
                    def.ctors.get(d.ctor as usize).is_some_and(|c| {
                        c.fields.len() == d.fields.len()
                            && c.fields
                                .iter()
                                .zip(&d.fields)
                                .all(|(f, x)| value_fits(f.1, x))
                    })
                })
        }
        _ => false,
    }
}
