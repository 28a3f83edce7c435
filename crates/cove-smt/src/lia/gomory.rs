//! Gomory mixed-integer cuts from the final tableau.
//!
//! Take a row `x_i = Σ a_j·x_j` whose basic integer variable has a fractional value and
//! whose nonbasic variables all sit exactly on a bound (no infinitesimal parts). Writing
//! `y_j = x_j − l_j` or `y_j = u_j − x_j` (both `≥ 0`) gives `x_i = β_i + Σ α_j·y_j`, i.e.
//! `x_i − Σ α_j·y_j = β_i` with `f₀ = frac(β_i) > 0`. The standard GMI cut for that row is
//! `Σ κ_j·y_j ≥ 1` with, for `ā_j = −α_j` and `f_j = frac(ā_j)`,
//! * integer `x_j`: `κ_j = f_j/f₀` if `f_j ≤ f₀`, else `(1−f_j)/(1−f₀)`;
//! * real `x_j`: `κ_j = ā_j/f₀` if `ā_j > 0`, else `−ā_j/(1−f₀)`.
//!
//! It holds at every mixed-integer point satisfying the bounds used, and the current
//! point (`y = 0`) violates it. The cut depends on the bounds with `κ_j ≠ 0` (terms with
//! `κ_j = 0` are integer multiples of integers and need no sign).

use crate::simplex::{BoundKind, BoundTag, Simplex, TVar};
use cove_logic::Rational;

/// A derived constraint `Σ lin ≥ bound`, valid over the integers given the bounds `deps`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Cut {
    /// Linear form (over simplex variables, possibly slacks).
    pub lin: Vec<(TVar, Rational)>,
    /// Right-hand side.
    pub bound: Rational,
    /// Tags of the bounds the cut depends on.
    pub deps: Vec<BoundTag>,
}

/// The GMI cut of the row where `xi` is basic, if the row qualifies.
pub fn gomory_cut(sx: &Simplex, xi: TVar) -> Option<Cut> {
    let row = sx.row_of(xi)?;
    let beta = sx.value(xi);
    if !sx.is_int(xi) || !beta.delta.is_zero() || beta.real.is_integer() {
        return None;
    }
    let f0 = beta.real.fract();
    let one_minus_f0 = &Rational::ONE - &f0;
    let mut lin = Vec::with_capacity(row.len());
    let mut bound = Rational::ONE;
    let mut deps = Vec::with_capacity(row.len());
    for (xj, a) in row {
        let val = sx.value(*xj);
        if !val.delta.is_zero() {
            return None;
        }
        let lo = sx.lower_bound(*xj).filter(|(v, _)| *v == val);
        let up = sx.upper_bound(*xj).filter(|(v, _)| *v == val);
        let (kind, (bv, tag)) = match (lo, up) {
            (Some(l), _) => (BoundKind::Lower, l),
            (None, Some(u)) => (BoundKind::Upper, u),
            (None, None) => return None,
        };
        // α_j: coefficient of y_j in x_i = β_i + Σ α_j·y_j; ā_j = −α_j.
        let abar = match kind {
            BoundKind::Lower => -a,
            BoundKind::Upper => a.clone(),
        };
        let kappa = if sx.is_int(*xj) {
            let fj = abar.fract();
            if fj <= f0 {
                &fj / &f0
            } else {
                (&Rational::ONE - &fj) / &one_minus_f0
            }
        } else if abar.is_positive() {
            &abar / &f0
        } else {
            -&abar / &one_minus_f0
        };
        kappa.as_small()?;
        if kappa.is_zero() {
            // Integer x_j with integral ā_j: ā_j·y_j is an integer whatever the sign of
            // y_j, so the cut does not need this bound.
            continue;
        }
        deps.push(tag);
        // κ·y_j = κ·x_j − κ·l_j  or  κ·u_j − κ·x_j.
        let shift = &kappa * &bv.real;
        match kind {
            BoundKind::Lower => {
                bound += &shift;
                lin.push((*xj, kappa));
            }
            BoundKind::Upper => {
                bound -= &shift;
                lin.push((*xj, -kappa));
            }
        }
    }
    bound.as_small()?;
    if !small_enough(&lin, &bound) {
        return None;
    }
    deps.sort_unstable();
    deps.dedup();
    Some(Cut { lin, bound, deps })
}

/// Largest coefficient allowed in a cut scaled to integers. Cuts with huge coefficients
/// are valid but slow every later pivot down (rational growth) and rarely pay off.
const MAX_CUT_COEF: i64 = 1 << 12;

/// Whether the cut, scaled to integer coefficients, stays within [`MAX_CUT_COEF`].
fn small_enough(lin: &[(TVar, Rational)], bound: &Rational) -> bool {
    let limit = Rational::int(MAX_CUT_COEF);
    let mut den = Rational::ONE;
    for (_, a) in lin {
        den = den.lcm(&Rational::from_bigint(a.denom()));
        if den > limit {
            return false;
        }
    }
    lin.iter().all(|(_, a)| (a * &den).abs() <= limit)
        && (bound * &den).abs() <= limit * Rational::int(64)
}
