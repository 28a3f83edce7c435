//! Independent checks of safety proofs on the original circuit, each with fresh solvers.
//!
//! An inductive invariant `Inv` (clauses over latch variables) is accepted when
//! 1. `I ⇒ Inv` (initiation),
//! 2. `Inv ∧ C ∧ T ⇒ Inv'` (consecution; `C` the invariant constraints of the current step),
//! 3. `Inv ∧ C ⇒ ¬bad` (safety).
//!
//! On every trace whose steps satisfy the constraints, every state then satisfies `Inv` and no
//! bad property holds. A k-induction proof is re-checked as a base case (no bad state within
//! `k` steps) and a step case (`k + 1` good steps cannot be followed by a bad one), both under
//! an auxiliary invariant (constant latches) that is itself checked as above without (3).

use crate::cnf::{add_constraints, add_init, any_bad, encode_frame, false_lit, next_state};
use crate::{ALit, Aig, CheckError};
use cove_control::Control;
use cove_sat::{Limits, Lit, SolveResult, Solver};

fn unsat(s: &mut Solver, a: &[Lit], limits: &Limits, what: &str) -> Result<(), CheckError> {
    match s.solve_limited(a, &mut cove_sat::NoTheory, limits) {
        SolveResult::Unsat => Ok(()),
        SolveResult::Sat => Err(CheckError::Refuted(format!("{what} fails"))),
        SolveResult::Unknown => Err(CheckError::Stopped(format!("{what}: check stopped"))),
    }
}

/// Per latch variable, the index of its latch (`usize::MAX` for non-latches).
fn latch_index(aig: &Aig) -> Vec<usize> {
    let mut ix = vec![usize::MAX; aig.max_var as usize + 1];
    for (i, l) in aig.latches.iter().enumerate() {
        ix[l.var as usize] = i;
    }
    ix
}

/// Checks that `inv` is an inductive invariant of `aig` (with `safety`: one that excludes
/// the bad states).
pub fn check_invariant(
    aig: &Aig,
    inv: &[Vec<ALit>],
    safety: bool,
    ctl: &Control,
) -> Result<(), CheckError> {
    let limits = Limits::of(ctl);
    let ix = latch_index(aig);
    for c in inv {
        for &l in c {
            if (l >> 1) as usize >= ix.len() || ix[(l >> 1) as usize] == usize::MAX {
                return Err(CheckError::Refuted(format!(
                    "invariant literal {l} is not a latch"
                )));
            }
        }
    }
    // Initiation.
    let mut s = Solver::new();
    let fls = false_lit(&mut s);
    let f = encode_frame(&mut s, aig, fls, None);
    add_init(&mut s, aig, &f);
    for c in inv {
        let neg: Vec<Lit> = c.iter().map(|&l| !f.lit(l)).collect();
        unsat(&mut s, &neg, &limits, "initiation")?;
    }
    // Consecution and safety.
    let mut s = Solver::new();
    let fls = false_lit(&mut s);
    let f = encode_frame(&mut s, aig, fls, None);
    add_constraints(&mut s, aig, &f);
    for c in inv {
        let cl: Vec<Lit> = c.iter().map(|&l| f.lit(l)).collect();
        s.add_clause(&cl);
    }
    let next = next_state(aig, &f);
    let primed = |l: ALit| {
        let x = next[ix[(l >> 1) as usize]];
        if l & 1 == 1 { !x } else { x }
    };
    for c in inv {
        if let Some(r) = ctl.should_stop() {
            return Err(CheckError::Stopped(format!("consecution: {r}")));
        }
        let neg: Vec<Lit> = c.iter().map(|&l| !primed(l)).collect();
        unsat(&mut s, &neg, &limits, "consecution")?;
    }
    if safety {
        let b = any_bad(&mut s, aig, &f);
        unsat(&mut s, &[b], &limits, "safety")?;
    }
    Ok(())
}

/// Checks a k-induction proof of depth `k` under the auxiliary invariant `aux`.
pub fn check_kinduction(
    aig: &Aig,
    k: usize,
    aux: &[Vec<ALit>],
    ctl: &Control,
) -> Result<(), CheckError> {
    check_invariant(aig, aux, false, ctl)?;
    let limits = Limits::of(ctl);
    for base in [true, false] {
        let mut s = Solver::new();
        let fls = false_lit(&mut s);
        let mut prev: Option<crate::cnf::Frame> = None;
        let frames = if base { k + 1 } else { k + 2 };
        for j in 0..frames {
            if let Some(r) = ctl.should_stop() {
                return Err(CheckError::Stopped(format!("k-induction check: {r}")));
            }
            let f = match &prev {
                None => encode_frame(&mut s, aig, fls, None),
                Some(p) => {
                    let ls = next_state(aig, p);
                    encode_frame(&mut s, aig, fls, Some(&ls))
                }
            };
            if base && j == 0 {
                add_init(&mut s, aig, &f);
            }
            add_constraints(&mut s, aig, &f);
            for c in aux {
                let cl: Vec<Lit> = c.iter().map(|&l| f.lit(l)).collect();
                s.add_clause(&cl);
            }
            let b = any_bad(&mut s, aig, &f);
            if base {
                unsat(&mut s, &[b], &limits, "k-induction base case")?;
                s.add_clause(&[!b]);
            } else if j + 1 < frames {
                s.add_clause(&[!b]);
            } else {
                unsat(&mut s, &[b], &limits, "k-induction step case")?;
            }
            prev = Some(f);
        }
    }
    Ok(())
}
