//! An independent checker for witness circuits ([`crate::witness_circuit`]): the five checks of
//! Certifaiger (quantifier-free version), each a fresh SAT query that must be unsatisfiable.
//!
//! The witness `W` simulates the model `M` through its first inputs and latches, position by
//! position (Certifaiger's default mapping when the symbol table names none); `K` are those
//! shared inputs and latches, `R`, `F`, `C`, `P` reset, transition, constraints and property
//! (`P = ¬bad`; for the model the disjunction of all bad properties, which is at least as
//! strict as Certifaiger's first one; for the witness its first bad property):
//! 1. reset: `R{K} ∧ C ⇒ R'{K} ∧ C'`
//! 2. transition: `F{K} ∧ C₀ ∧ C₁ ∧ C'₀ ⇒ F'{K} ∧ C'₁`
//! 3. property: `C ∧ C' ∧ ¬P ⇒ ¬P'`
//! 4. base: `R' ∧ C' ⇒ P'`
//! 5. step: `P'₀ ∧ F' ∧ C'₀ ∧ C'₁ ⇒ P'₁`
//!
//! The witness's extra latches must be reset to constants or left free (AIGER's only
//! options), so its reset is stratified and every model reset extends to a witness reset.

use crate::cnf::{Frame, add_constraints, any_bad, encode_frame, encode_frame_with, false_lit};
use crate::{Aig, CheckError, Init};
use cove_control::Control;
use cove_sat::{Limits, Lit, SolveResult, Solver};

fn unsat(s: &mut Solver, limits: &Limits, what: &str) -> Result<(), CheckError> {
    match s.solve_limited(&[], &mut cove_sat::NoTheory, limits) {
        SolveResult::Unsat => Ok(()),
        SolveResult::Sat => Err(CheckError::Refuted(format!("{what} check fails"))),
        SolveResult::Unknown => Err(CheckError::Stopped(format!("{what} check stopped"))),
    }
}

/// The reset literals of the first `n` latches of `a` in frame `f` (free latches: none).
fn reset_lits(a: &Aig, f: &Frame, n: usize) -> Vec<Lit> {
    a.latches[..n]
        .iter()
        .filter_map(|l| match l.init {
            Init::Zero => Some(!f.lit(2 * l.var)),
            Init::One => Some(f.lit(2 * l.var)),
            Init::Free => None,
        })
        .collect()
}

fn latch_lits(a: &Aig, f: &Frame) -> Vec<Lit> {
    a.latches.iter().map(|l| f.lit(2 * l.var)).collect()
}

fn input_lits(a: &Aig, f: &Frame) -> Vec<Lit> {
    a.inputs.iter().map(|&v| f.lit(2 * v)).collect()
}

/// A fresh literal `e ↔ (x ≡ y)`.
fn equiv(s: &mut Solver, x: Lit, y: Lit) -> Lit {
    let e = Lit::new(s.new_var(), false);
    s.add_clause(&[!e, !x, y]);
    s.add_clause(&[!e, x, !y]);
    s.add_clause(&[e, x, y]);
    s.add_clause(&[e, !x, !y]);
    e
}

/// Adds `¬(t₁ ∧ … ∧ tₙ)`; `false` when there is nothing to negate (the conjunction is true).
fn add_negated_conjunction(s: &mut Solver, terms: &[Lit]) -> bool {
    if terms.is_empty() {
        return false;
    }
    let cl: Vec<Lit> = terms.iter().map(|&t| !t).collect();
    s.add_clause(&cl);
    true
}

/// Checks that `witness` is a valid witness circuit for `model` (all five checks).
pub fn check_witness(model: &Aig, witness: &Aig, ctl: &Control) -> Result<(), CheckError> {
    let limits = Limits::of(ctl);
    let (ni, nl) = (model.inputs.len(), model.latches.len());
    if witness.inputs.len() < ni || witness.latches.len() < nl {
        return Err(CheckError::Refuted(format!(
            "the witness has {} inputs and {} latches; the model needs {ni} and {nl}",
            witness.inputs.len(),
            witness.latches.len()
        )));
    }
    let Some(&wbad) = witness.bad.first() else {
        return Err(CheckError::Refuted("the witness has no property".into()));
    };
    let stop = |what: &str| match ctl.should_stop() {
        Some(r) => Err(CheckError::Stopped(format!("{what} check: {r}"))),
        None => Ok(()),
    };
    // Model frame and witness frame over the shared inputs and latches.
    let pair = |s: &mut Solver, fls: Lit| {
        let m = encode_frame(s, model, fls, None);
        let w = encode_frame_with(
            s,
            witness,
            fls,
            &input_lits(model, &m),
            Some(&latch_lits(model, &m)),
        );
        (m, w)
    };
    // 1. Reset.
    stop("reset")?;
    let mut s = Solver::new();
    let fls = false_lit(&mut s);
    let (m, w) = pair(&mut s, fls);
    for r in reset_lits(model, &m, nl) {
        s.add_clause(&[r]);
    }
    add_constraints(&mut s, model, &m);
    let mut concl = reset_lits(witness, &w, nl);
    concl.extend(witness.constraints.iter().map(|&c| w.lit(c)));
    if add_negated_conjunction(&mut s, &concl) {
        unsat(&mut s, &limits, "reset")?;
    }
    // 2. Transition.
    stop("transition")?;
    let mut s = Solver::new();
    let fls = false_lit(&mut s);
    let (m0, w0) = pair(&mut s, fls);
    let (m1, w1) = pair(&mut s, fls);
    for l in &model.latches {
        let (x, y) = (m1.lit(2 * l.var), m0.lit(l.next));
        s.add_clause(&[!x, y]);
        s.add_clause(&[x, !y]);
    }
    add_constraints(&mut s, model, &m0);
    add_constraints(&mut s, model, &m1);
    add_constraints(&mut s, witness, &w0);
    let mut concl: Vec<Lit> = Vec::new();
    for l in &witness.latches[..nl] {
        let e = equiv(&mut s, w1.lit(2 * l.var), w0.lit(l.next));
        concl.push(e);
    }
    concl.extend(witness.constraints.iter().map(|&c| w1.lit(c)));
    if add_negated_conjunction(&mut s, &concl) {
        unsat(&mut s, &limits, "transition")?;
    }
    // 3. Property.
    stop("property")?;
    let mut s = Solver::new();
    let fls = false_lit(&mut s);
    let (m, w) = pair(&mut s, fls);
    add_constraints(&mut s, model, &m);
    add_constraints(&mut s, witness, &w);
    let b = any_bad(&mut s, model, &m);
    s.add_clause(&[b]);
    s.add_clause(&[!w.lit(wbad)]);
    unsat(&mut s, &limits, "property")?;
    // 4. Base.
    stop("base")?;
    let mut s = Solver::new();
    let fls = false_lit(&mut s);
    let w = encode_frame(&mut s, witness, fls, None);
    for r in reset_lits(witness, &w, witness.latches.len()) {
        s.add_clause(&[r]);
    }
    add_constraints(&mut s, witness, &w);
    s.add_clause(&[w.lit(wbad)]);
    unsat(&mut s, &limits, "base")?;
    // 5. Step.
    stop("step")?;
    let mut s = Solver::new();
    let fls = false_lit(&mut s);
    let w0 = encode_frame(&mut s, witness, fls, None);
    let next = crate::cnf::next_state(witness, &w0);
    let w1 = encode_frame(&mut s, witness, fls, Some(&next));
    add_constraints(&mut s, witness, &w0);
    add_constraints(&mut s, witness, &w1);
    s.add_clause(&[!w0.lit(wbad)]);
    s.add_clause(&[w1.lit(wbad)]);
    unsat(&mut s, &limits, "step")?;
    Ok(())
}
