//! Model-based projection (MBP) and quantifier elimination built on it.
//!
//! Thesis Sec. 2.5 (spec §1.5): for `η(ȳ) = ∃x̄·φ(x̄, ȳ)` and a model `M ⊨ φ`, an MBP returns a
//! quantifier-free `ψ(ȳ)` with
//! 1. `M ⊨ ψ`,
//! 2. `ψ ⇒ ∃x̄·φ`,
//! 3. finitely many distinct results over all models (finite image),
//!
//! so that `∃x̄·φ` is the (finite) disjunction of the projections of its models — which is how
//! [`qe`] computes exact elimination.
//!
//! # How it works
//! * **Booleans** (BoolProj): the model's value is substituted into `φ`. When only Boolean
//!   variables are eliminated the result of [`mbp`] is exactly `φ[M(x̄)]`, as in the thesis;
//!   [`mbp_cube`] always returns a cube (via the implicant), which engines that keep
//!   summaries as cubes prefer.
//! * **Arithmetic**: `φ` is first reduced to its [`implicant`] under `M`, the cube of
//!   literals of `φ` that `M` satisfies and that imply `φ` (`ite`, `abs`, disequalities and
//!   negated comparisons are resolved by the model). Cubes drawn from a fixed formula are
//!   finitely many, so the finite image survives the reduction. Each literal becomes a linear
//!   constraint `Σ cᵢ·aᵢ + k ⋈ 0` with `⋈ ∈ {≤, <, =, d|}`; `div`/`mod` by a non-zero numeral
//!   over eliminated variables are replaced by fresh quotient/remainder variables (valued from
//!   the model) that are eliminated too. Variables are then eliminated one at a time:
//!   - **LRA** (Loos–Weispfenning): an equality `x = e` substitutes `e`; otherwise, if `x` is
//!     bounded on both sides, the greatest lower bound under `M` is substituted (virtually,
//!     `ℓ + ε`, when it is strict); a one-sided `x` drops its bounds (the `±∞` substitution).
//!   - **LIA** (Cooper, after Bjørner–Janota): an equality `c·x + t = 0` with `|c| > 1`
//!     becomes the divisibility `|c| | t` and substitutes `c·x = −t` into the others (scaled);
//!     otherwise `x` gets the model's greatest lower bound `⌈t/|a|⌉` (a `div` term) plus the
//!     residue `(M(x) − M(⌈t/|a|⌉)) mod D` (`D` the lcm of the divisibility moduli). When
//!     that bound mentions a variable still to be eliminated, the classic scaled form is
//!     used: `y = L·x` (`L` the lcm of the coefficients) gets `ℓ + ((M(y) − M(ℓ)) mod D)`
//!     with `L | ℓ + …`. One-sided variables keep only their divisibility constraints.
//!     Divisibility is printed as `(= (mod s d) r)`. See `eliminate/int.rs`.
//!
//!   Every choice (which literal, which bound, which residue) is taken from finitely many
//!   candidates determined by the cube, and ties go to the first candidate in the cube's
//!   (deterministic) order, hence the finite image.
//! * **Bit-vectors** (see `bv.rs`): after the implicant, a variable with a literal `x = t`
//!   (`x` not in `t`) is replaced by `t`, any other by its model value — exact where a
//!   definition exists, the model's point otherwise (finitely many values: finite image).
//! * **Variables that cannot be eliminated** — those occurring under an uninterpreted
//!   function, in a nonlinear term, in `div`/`mod` by a non-numeral, under `to_int`/`is_int`,
//!   or (for `Int` variables) in a constraint with `Real` atoms — are not guessed at: they are
//!   left in the result and listed in [`MbpResult::kept`]. Then `ψ ⇒ ∃x̄·φ` holds for every
//!   value of the kept variables (so also `∃kept·ψ ⇒ ∃x̄·φ`), and the caller decides what to
//!   do with them (substituting their model values is sound but loses the finite image).

mod ackermann;
mod bv;
mod constraint;
mod dt;
mod eliminate;
mod implicant;
mod qe;
mod valuation;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_random;

pub use implicant::implicant;
pub use qe::{QE_DEFAULT_LIMIT, QeError, qe, qe_under, qe_with};

use cove_logic::{EvalError, Model, Sort, TermId, TermStore, Value, VarId, simplify, substitute};
use rustc_hash::FxHashMap;

/// The result of a projection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MbpResult {
    /// The projection `ψ`: quantifier-free, true in the model, implies `∃vars·φ` (reading the
    /// `kept` variables existentially).
    pub formula: TermId,
    /// Variables asked to be eliminated that still occur in `formula` because they appear in
    /// positions MBP cannot handle (see the module docs). Empty in the pure LRA/LIA case.
    pub kept: Vec<VarId>,
}

/// Why a projection could not be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MbpError {
    /// The precondition `M ⊨ φ` does not hold.
    #[error("the model does not satisfy the formula")]
    NotAModel,
    /// `φ` could not be evaluated in the model (unassigned variable, division by zero, ...).
    #[error("cannot evaluate the formula in the model: {0}")]
    Eval(#[from] EvalError),
    /// `φ` contains a quantifier.
    #[error("model-based projection needs a quantifier-free formula")]
    Quantifier,
    /// The projection gave up (a resource bound or a construct it does not handle).
    #[error("model-based projection gave up: {0}")]
    GaveUp(&'static str),
}

/// Model-based projection of `vars` out of `phi` under `model`.
///
/// Precondition: `model ⊨ phi` (checked: [`MbpError::NotAModel`] otherwise) and `phi` is
/// quantifier-free. The result satisfies the three MBP properties of the module docs; its
/// free variables are those of `phi` minus `vars`, plus [`MbpResult::kept`].
pub fn mbp(
    store: &mut TermStore,
    model: &Model,
    phi: TermId,
    vars: &[VarId],
) -> Result<MbpResult, MbpError> {
    project(store, model, phi, vars, false)
}

/// Like [`mbp`], but the result is always a conjunction of literals: Boolean variables are
/// also projected through the [`implicant`] instead of substituted into the whole formula.
/// The result is stronger than [`mbp`]'s when only Booleans are eliminated, and is what
/// engines that keep summaries as cubes want.
pub fn mbp_cube(
    store: &mut TermStore,
    model: &Model,
    phi: TermId,
    vars: &[VarId],
) -> Result<MbpResult, MbpError> {
    project(store, model, phi, vars, true)
}

fn project(
    store: &mut TermStore,
    model: &Model,
    phi: TermId,
    vars: &[VarId],
    cube: bool,
) -> Result<MbpResult, MbpError> {
    if !model.eval(store, phi)?.as_bool().unwrap_or(false) {
        return Err(MbpError::NotAModel);
    }
    let present = cove_logic::free_vars(store, phi);
    let vars: Vec<VarId> = dedup(
        vars.iter()
            .copied()
            .filter(|v| present.binary_search(v).is_ok()),
    );

    // BoolProj: substitute the model's Boolean values.
    let mut map = FxHashMap::default();
    for &v in &vars {
        if store.var_sort(v) == Sort::Bool {
            let b = model_value(store, model, v)?.as_bool().unwrap_or(false);
            map.insert(v, store.mk_bool(b));
        }
    }
    let phi = substitute(store, phi, &map);
    let arith: Vec<VarId> = vars
        .into_iter()
        .filter(|v| store.var_sort(*v) != Sort::Bool)
        .collect();
    if arith.is_empty() && !cube {
        let formula = simplify(store, phi);
        return Ok(MbpResult {
            formula,
            kept: Vec::new(),
        });
    }

    let mut lits = implicant(store, model, phi)?;
    // Datatype variables first (`dt.rs`): their expansion can introduce arithmetic and
    // bit-vector field variables, eliminated below with the others (over the model extended
    // with their values).
    let datatypes: Vec<VarId> = arith
        .iter()
        .copied()
        .filter(|v| matches!(store.var_sort(*v), Sort::Dt(_)))
        .collect();
    let mut arith: Vec<VarId> = arith
        .into_iter()
        .filter(|v| !matches!(store.var_sort(*v), Sort::Dt(_)))
        .collect();
    let extended;
    let mut fresh = Vec::new();
    let model = if !datatypes.is_empty() || dt::mentions_dt(store, &lits) {
        let r = dt::project(store, model, lits, &datatypes)?;
        lits = r.lits;
        fresh = r.fresh;
        arith.extend(fresh.iter().copied());
        extended = r.model;
        &extended
    } else {
        model
    };
    let words: Vec<VarId> = arith
        .iter()
        .copied()
        .filter(|v| store.var_sort(*v).is_bv())
        .collect();
    let arith: Vec<VarId> = arith
        .into_iter()
        .filter(|v| !store.var_sort(*v).is_bv())
        .collect();
    if !words.is_empty() {
        lits = bv::project(store, model, &lits, &words)?;
    }
    let mut formula = eliminate::project_cube(store, model, &lits, &arith)?;
    if !fresh.is_empty() {
        // Fresh field variables the arithmetic could not eliminate get their model values.
        let remaining = cove_logic::free_vars(store, formula);
        let mut map = FxHashMap::default();
        for &y in fresh.iter().filter(|y| remaining.binary_search(y).is_ok()) {
            let v = model_value(store, model, y)?;
            let t = v.to_term(store, store.var_sort(y));
            map.insert(y, t);
        }
        if !map.is_empty() {
            formula = substitute(store, formula, &map);
        }
    }
    let formula = simplify(store, formula);
    // Conjuncts in id order, so equal cubes are equal terms whatever the literal order.
    let mut conjuncts = store.conjuncts(formula);
    conjuncts.sort();
    let formula = store.mk_and(&conjuncts);
    let remaining = cove_logic::free_vars(store, formula);
    let kept = arith
        .into_iter()
        .chain(datatypes)
        .filter(|v| remaining.binary_search(v).is_ok() && !fresh.contains(v))
        .collect();
    Ok(MbpResult { formula, kept })
}
/// The value of `v` in `model`, honouring [`Model::complete`].
fn model_value(store: &TermStore, model: &Model, v: VarId) -> Result<Value, EvalError> {
    match model.get(v) {
        Some(x) => Ok(x.clone()),
        None if model.complete => Ok(Value::default_of(store.var_sort(v))),
        None => Err(EvalError::Unassigned(store.var_name(v).to_string())),
    }
}

fn dedup(it: impl Iterator<Item = VarId>) -> Vec<VarId> {
    let mut out: Vec<VarId> = Vec::new();
    for v in it {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}
