//! The reachability oracle of PD-KIND: can a set of states be reached within `k` steps?
//!
//! Frames `R_i` over-approximate the states reachable *within* `i` steps (`R_0 = init`); a
//! lemma learnt at level `j` holds at every level `i ≤ j` (the sets grow with `i`). A query
//! `within(k, φ)` either finds a path (and its exact length) or returns an *explanation*: a
//! formula true in every state reachable within `k` steps that excludes `φ`. Explanations are
//! negated unsat cores of `φ`'s literals (IC3-style), which is what Golem gets from
//! interpolants; `cove-smt` gives cores for any formula.

use crate::engine::Control;
use crate::ts::{TransitionSystem, TsError};
use cove_logic::{Model, Op, Sort, TermId, TermStore, Value, VarId};
use cove_smt::{SmtResult, SmtSolver};

/// The answer of a reachability query.
pub(super) enum Reach {
    /// A path of exactly this many steps reaches the states.
    Reachable(usize),
    /// A formula over `vars` true in every state reachable within the bound, excluding the
    /// states.
    Unreachable(TermId),
}

pub(super) struct Oracle<'a> {
    ts: &'a TransitionSystem,
    ctl: Control,
    init: SmtSolver,
    /// `levels[i]`: `R_i(x) ∧ T(x, x')`.
    levels: Vec<SmtSolver>,
    /// Lemmas with their levels.
    lemmas: Vec<(TermId, usize)>,
    /// Variables eliminated when projecting a predecessor onto `vars`.
    locals: Vec<VarId>,
}

fn solver(ctl: &Control) -> SmtSolver {
    let mut s = SmtSolver::new();
    s.set_limits(cove_smt::Limits::of(ctl));
    s
}

/// The literals of a cube, with arithmetic equalities split into two inequalities so that an
/// unsat core can keep one side (`x = -2` blocked by `x ≥ 0` becomes `x ≤ -2`, whose negation
/// generalizes to every state above).
pub(super) fn literals(store: &mut TermStore, phi: TermId) -> Vec<TermId> {
    let mut out = Vec::new();
    for l in store.conjuncts(phi) {
        if matches!(store.op(l), Op::Eq) && store.sort(store.args(l)[0]) != Sort::Bool {
            let (a, b) = (store.args(l)[0], store.args(l)[1]);
            out.push(store.mk_le(a, b));
            out.push(store.mk_ge(a, b));
        } else {
            out.push(l);
        }
    }
    out
}

/// Checks `phi` in `s`: `Ok(None)` if satisfiable, else the literals of `phi` in an unsat
/// core (all of `phi` when it is not a conjunction).
fn check_core(
    s: &mut SmtSolver,
    store: &mut TermStore,
    phi: TermId,
    ctl: &Control,
) -> Result<Option<Vec<TermId>>, TsError> {
    let lits = literals(store, phi);
    match s.check_assuming(store, &lits) {
        SmtResult::Sat => Ok(None),
        SmtResult::Unsat => Ok(Some(s.unsat_core())),
        SmtResult::Unknown(r) => Err(TsError::Stopped(ctl.should_stop().unwrap_or(r))),
    }
}

/// Model-based projection of `phi` onto the variables not in `locals`, under `m` (completed
/// with default values).
pub(super) fn project(
    store: &mut TermStore,
    mut m: Model,
    phi: TermId,
    locals: &[VarId],
) -> Result<TermId, TsError> {
    for v in cove_logic::free_vars(store, phi) {
        if m.get(v).is_none() {
            m.set(v, Value::default_of(store.var_sort(v)));
        }
    }
    let r = cove_smt::mbp::mbp_cube(store, &m, phi, locals)
        .map_err(|e| TsError::Unsupported(format!("projection: {e}")))?;
    if !r.kept.is_empty() {
        return Err(TsError::Unsupported("projection kept variables".into()));
    }
    Ok(r.formula)
}

impl<'a> Oracle<'a> {
    pub(super) fn new(store: &mut TermStore, ts: &'a TransitionSystem, ctl: &Control) -> Self {
        let mut init = solver(ctl);
        init.assert(store, ts.init);
        let mut locals = ts.next.clone();
        locals.extend_from_slice(&ts.aux);
        Oracle {
            ts,
            ctl: ctl.clone(),
            init,
            levels: Vec::new(),
            lemmas: Vec::new(),
            locals,
        }
    }

    fn level(&mut self, store: &mut TermStore, i: usize) -> &mut SmtSolver {
        while self.levels.len() <= i {
            let l = self.levels.len();
            let mut s = solver(&self.ctl);
            s.assert(store, self.ts.trans);
            if l == 0 {
                s.assert(store, self.ts.init);
            }
            for &(lemma, lv) in &self.lemmas {
                if lv >= l {
                    s.assert(store, lemma);
                }
            }
            self.levels.push(s);
        }
        &mut self.levels[i]
    }

    fn add_lemma(&mut self, store: &mut TermStore, lemma: TermId, level: usize) {
        self.lemmas.push((lemma, level));
        for s in self.levels.iter_mut().take(level + 1).skip(1) {
            s.assert(store, lemma);
        }
    }

    /// Whether states `phi` (over `vars`) are reachable within `k` steps.
    pub(super) fn within(
        &mut self,
        store: &mut TermStore,
        k: usize,
        phi: TermId,
    ) -> Result<Reach, TsError> {
        if let Some(r) = self.ctl.should_stop() {
            return Err(TsError::Stopped(r));
        }
        let ctl = self.ctl.clone();
        let Some(core0) = check_core(&mut self.init, store, phi, &ctl)? else {
            return Ok(Reach::Reachable(0));
        };
        if k == 0 {
            let c = store.mk_and(&core0);
            return Ok(Reach::Unreachable(store.mk_not(c)));
        }
        let phi_next = self.ts.to_next(store, phi);
        loop {
            if let Some(r) = self.ctl.should_stop() {
                return Err(TsError::Stopped(r));
            }
            let s = self.level(store, k - 1);
            match check_core(s, store, phi_next, &ctl)? {
                Some(core1) => {
                    // Back from `next` to `vars` for the explanation.
                    let mut lits = core0.clone();
                    for l in core1 {
                        lits.push(self.ts.to_current(store, l));
                    }
                    let c = store.mk_and(&lits);
                    return Ok(Reach::Unreachable(store.mk_not(c)));
                }
                None => {
                    let m = self.levels[k - 1].model(store);
                    let f = store.mk_and(&[self.ts.trans, phi_next]);
                    let g = project(store, m, f, &self.locals)?;
                    match self.within(store, k - 1, g)? {
                        Reach::Reachable(n) => return Ok(Reach::Reachable(n + 1)),
                        Reach::Unreachable(e) => self.add_lemma(store, e, k - 1),
                    }
                }
            }
        }
    }

    /// The least number of steps in `from..=to` within which `phi` is reachable, if any.
    pub(super) fn first_reachable(
        &mut self,
        store: &mut TermStore,
        from: usize,
        to: usize,
        phi: TermId,
    ) -> Result<Option<usize>, TsError> {
        for i in from..=to {
            if let Reach::Reachable(n) = self.within(store, i, phi)? {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }
}
