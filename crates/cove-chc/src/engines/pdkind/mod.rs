//! PD-KIND: property-directed k-induction (Jovanović and Dutertre, FMCAD 2016), on the
//! transition-system view ([`crate::ts`]).
//!
//! An *induction frame* is a set of pairs `(lemma, cex)`: every lemma holds in all states
//! reachable within `n` steps, and from every `cex` state a bad state is reachable (in a
//! known number of steps). Starting from `{(¬bad, bad)}`, each round *pushes* the frame with
//! `k = n + 1`: a lemma that is k-inductive relative to the frame is kept; otherwise either
//! the lemma's counterexample is reachable from the frame in `k` steps — then its
//! predecessors are checked for reachability from `init` (a real counterexample, or a new
//! pair blocking them) — or the induction failure is analysed: unreachable failures
//! strengthen the lemma with the reachability oracle's explanation, reachable ones weaken it
//! to `¬cex`. When every pair of the frame was pushed, the conjunction of the lemmas is a
//! k-inductive invariant; [`TransitionSystem::k_to_1_inductive`] turns it into the
//! 1-inductive certificate the checker wants. Reachability questions go to `reach`.
//!
//! A counterexample is found as a number of steps; the concrete trace is then read off a
//! bounded unrolling of exactly that length (the states come from one SMT model).

mod reach;

use super::ts_engine::TsEngine;
use crate::engine::{BuildEngine, Control, Engine, Stats};
use crate::result::UnknownReason;
use crate::ts::{TransitionSystem, TsAnswer, TsError};
use cove_logic::{TermId, TermStore, VarId};
use cove_smt::{SmtResult, SmtSolver};
use reach::{Oracle, Reach, project};
use std::collections::VecDeque;

/// Largest `n` (steps the frame is valid for) before giving up: the reachability oracle's
/// recursion depth is bounded by `n`.
const MAX_N: usize = 10_000;

/// The PD-KIND engine.
#[derive(Default)]
pub struct PdKind {
    rounds: usize,
    n: usize,
}

/// One pair of the induction frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Elem {
    lemma: TermId,
    cex: TermId,
    /// Steps from a `cex` state to a bad state.
    steps: usize,
}

struct Pushed {
    frame: Vec<Elem>,
    next: Vec<Elem>,
    np: usize,
    /// Length of a counterexample, if one was found.
    invalid: Option<usize>,
}

fn insert(v: &mut Vec<Elem>, e: Elem) {
    if !v.iter().any(|x| x.lemma == e.lemma && x.cex == e.cex) {
        v.push(e);
    }
}

fn same(a: &[Elem], b: &[Elem]) -> bool {
    let key = |v: &[Elem]| {
        let mut k: Vec<(TermId, TermId)> = v.iter().map(|e| (e.lemma, e.cex)).collect();
        k.sort();
        k.dedup();
        k
    };
    key(a) == key(b)
}

fn solver(ctl: &Control) -> SmtSolver {
    let mut s = SmtSolver::new();
    s.set_limits(cove_smt::Limits::of(ctl));
    s
}

struct Run<'a> {
    ts: &'a TransitionSystem,
    ctl: &'a Control,
    oracle: Oracle<'a>,
}

impl Run<'_> {
    fn stopped(&self, r: cove_control::UnknownReason) -> TsError {
        TsError::Stopped(self.ctl.should_stop().unwrap_or(r))
    }

    /// One push of `frame` with `k` (the frame is valid within `n` steps).
    fn push(
        &mut self,
        store: &mut TermStore,
        frame: &[Elem],
        n: usize,
        k: usize,
    ) -> Result<Pushed, TsError> {
        let ts = self.ts;
        let mut q: VecDeque<Elem> = frame.iter().copied().collect();
        let mut iframe: Vec<Elem> = frame.to_vec();
        let mut next: Vec<Elem> = Vec::new();
        let mut np = n + k;
        let mut un = ts.unroller();
        let mut kt = solver(self.ctl);
        for i in 0..k {
            let t = un.trans(store, i);
            kt.assert(store, t);
        }
        let start: Vec<VarId> = un.state(store, 0).to_vec();
        // Projection onto step 0: everything else is local.
        let kt_vars = {
            let mut parts = Vec::new();
            for i in 0..k {
                parts.push(un.trans(store, i));
            }
            store.mk_and(&parts)
        };
        let mut locals: Vec<VarId> = cove_logic::free_vars(store, kt_vars)
            .into_iter()
            .filter(|v| !start.contains(v))
            .collect();
        locals.extend_from_slice(un.state(store, k));
        let back: rustc_hash::FxHashMap<VarId, TermId> = start
            .iter()
            .zip(&ts.vars)
            .map(|(&s, &v)| (s, store.mk_var(v)))
            .collect();
        while let Some(ob) = q.pop_front() {
            if let Some(r) = self.ctl.should_stop() {
                return Err(TsError::Stopped(r));
            }
            let lemmas: Vec<TermId> = iframe.iter().map(|e| e.lemma).collect();
            let fabs = store.mk_and(&lemmas);
            kt.push();
            for i in 0..k {
                let f = un.at(store, fabs, i);
                kt.assert(store, f);
            }
            kt.push();
            let l_k = un.at(store, ob.lemma, k);
            let not_l_k = store.mk_not(l_k);
            kt.assert(store, not_l_k);
            match kt.check(store) {
                SmtResult::Unsat => {
                    kt.pop(2);
                    insert(&mut next, ob);
                    continue;
                }
                SmtResult::Unknown(r) => return Err(self.stopped(r)),
                SmtResult::Sat => {}
            }
            let m_cti = kt.model(store);
            kt.pop(1);
            kt.push();
            let cex_k = un.at(store, ob.cex, k);
            kt.assert(store, cex_k);
            let r2 = kt.check(store);
            let m_cex = (r2 == SmtResult::Sat).then(|| kt.model(store));
            kt.pop(2);
            if let SmtResult::Unknown(r) = r2 {
                return Err(self.stopped(r));
            }
            if let Some(m) = m_cex {
                // The counterexample is reachable from the frame in k steps: from where?
                let f = store.mk_and(&[kt_vars, cex_k]);
                let g = project(store, m, f, &locals)?;
                let g = cove_logic::substitute(store, g, &back);
                match self.oracle.within(store, n, g)? {
                    Reach::Reachable(s) => {
                        return Ok(Pushed {
                            frame: iframe,
                            next,
                            np,
                            invalid: Some(s + k + ob.steps),
                        });
                    }
                    Reach::Unreachable(e) => {
                        let el = Elem {
                            lemma: e,
                            cex: g,
                            steps: ob.steps + k,
                        };
                        insert(&mut iframe, el);
                        q.push_back(el);
                        q.push_back(ob);
                        continue;
                    }
                }
            }
            // Analyse the induction failure.
            let f = store.mk_and(&[kt_vars, not_l_k]);
            let g = project(store, m_cti, f, &locals)?;
            let g = cove_logic::substitute(store, g, &back);
            match self.oracle.within(store, n, g)? {
                Reach::Reachable(s) => {
                    // The lemma fails within s + k steps: weaken it to ¬cex.
                    let not_lemma = store.mk_not(ob.lemma);
                    if let Some(r) = self
                        .oracle
                        .first_reachable(store, n + 1, s + k, not_lemma)?
                    {
                        np = np.min(r);
                    } else {
                        np = np.min(s + k);
                    }
                    let el = Elem {
                        lemma: store.mk_not(ob.cex),
                        cex: ob.cex,
                        steps: ob.steps,
                    };
                    insert(&mut iframe, el);
                    insert(&mut next, el);
                }
                Reach::Unreachable(e) => {
                    let lemma = store.mk_and(&[ob.lemma, e]);
                    let el = Elem {
                        lemma,
                        cex: ob.cex,
                        steps: ob.steps,
                    };
                    iframe.retain(|x| *x != ob);
                    insert(&mut iframe, el);
                    q.push_back(el);
                }
            }
        }
        Ok(Pushed {
            frame: iframe,
            next,
            np,
            invalid: None,
        })
    }
}

/// The states of a counterexample of exactly `len` steps (or fewer), by BMC.
fn trace_of(
    store: &mut TermStore,
    ts: &TransitionSystem,
    len: usize,
    ctl: &Control,
) -> Result<Option<crate::ts::Trace>, TsError> {
    let mut un = ts.unroller();
    let mut s = solver(ctl);
    let i = un.init(store, 0);
    s.assert(store, i);
    for d in 0..=len {
        let b = un.bad(store, d);
        match s.check_assuming(store, &[b]) {
            SmtResult::Sat => {
                let m = s.model(store);
                return Ok(Some(un.trace(store, &m, d)));
            }
            SmtResult::Unsat => {}
            SmtResult::Unknown(r) => return Err(TsError::Stopped(ctl.should_stop().unwrap_or(r))),
        }
        let t = un.trans(store, d);
        s.assert(store, t);
    }
    Ok(None)
}

impl PdKind {
    fn search(
        &mut self,
        store: &mut TermStore,
        ts: &TransitionSystem,
        ctl: &Control,
    ) -> Result<TsAnswer, TsError> {
        // Bad initial states: a counterexample of length 0.
        if let Some(t) = trace_of(store, ts, 0, ctl)? {
            return Ok(TsAnswer::Unsafe(t));
        }
        let p = store.mk_not(ts.bad);
        let mut frame = vec![Elem {
            lemma: p,
            cex: ts.bad,
            steps: 0,
        }];
        let mut n = 0;
        let mut run = Run {
            ts,
            ctl,
            oracle: Oracle::new(store, ts, ctl),
        };
        loop {
            if let Some(r) = ctl.should_stop() {
                return Err(TsError::Stopped(r));
            }
            if n > MAX_N {
                // The reachability oracle recurses once per step of `n`.
                return Ok(TsAnswer::Unknown(UnknownReason::ResourceOut(format!(
                    "pdkind: frame valid for more than {MAX_N} steps"
                ))));
            }
            let k = n + 1;
            self.rounds += 1;
            self.n = n;
            if ctl.verbosity > 0 {
                eprintln!("pdkind: n = {n}, frame of {}", frame.len());
            }
            let r = run.push(store, &frame, n, k)?;
            if let Some(len) = r.invalid {
                return match trace_of(store, ts, len, ctl)? {
                    Some(t) => Ok(TsAnswer::Unsafe(t)),
                    None => Ok(TsAnswer::Unknown(UnknownReason::Incomplete(format!(
                        "pdkind: no counterexample of length {len} found by BMC"
                    )))),
                };
            }
            if same(&r.frame, &r.next) {
                let lemmas: Vec<TermId> = r.next.iter().map(|e| e.lemma).collect();
                let inv = store.mk_and(&lemmas);
                let inv = ts.k_to_1_inductive(store, inv, k, ctl)?;
                return Ok(TsAnswer::Safe(inv));
            }
            n = r.np;
            frame = r.next;
        }
    }
}

/// Options of the PD-KIND engine (none yet).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdKindConfig {}

impl BuildEngine for PdKindConfig {
    const NAME: &'static str = "pdkind";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(PdKind::default())
    }
}

impl TsEngine for PdKind {
    fn name(&self) -> &'static str {
        PdKindConfig::NAME
    }

    fn run(
        &mut self,
        store: &mut TermStore,
        ts: &TransitionSystem,
        ctl: &Control,
    ) -> Result<TsAnswer, UnknownReason> {
        self.rounds = 0;
        self.search(store, ts, ctl)
            .map_err(|e| ctl.should_stop().unwrap_or_else(|| e.reason()))
    }

    fn stats(&self) -> Stats {
        vec![
            ("pdkind-rounds".into(), self.rounds.to_string()),
            ("pdkind-n".into(), self.n.to_string()),
        ]
    }
}
