//! k-induction on the transition-system view ([`crate::ts`]), forward and backward.
//!
//! Three incremental SMT solvers share one unrolling (as in Golem's `kind`):
//! - **base** (BMC): `init(0) ∧ ¬bad(0..n-1) ∧ T(0..n-1) ∧ bad(n)` — satisfiable means a
//!   counterexample of length `n`, translated back into a derivation (the `¬bad` of the
//!   shorter prefixes is implied: those checks came back unsatisfiable);
//! - **forward step**: `¬bad(0..n) ∧ T(0..n) ∧ bad(n+1)` — unsatisfiable (with base checked up to
//!   `n`) means `¬bad` is `(n+1)`-inductive;
//! - **backward step**: `init(0) ∧ T(0..n) ∧ ¬init(1..n+1)` — unsatisfiable means `¬init` is
//!   `(n+1)`-inductive for the reversed system.
//!
//! The induction checks are *balanced* against the base case ([`KindConfig::balance`],
//! docs/decisions.md#kind-balanced-induction): a direction's check at bound `n` runs only while
//! that direction has spent no more time than the base case (or than a floor below which checks
//! are cheap next to a certificate), or when its bound has doubled since its last check, and
//! always at `max_k`. Skipping a check only delays a proof (`¬bad` that is `k`-inductive is
//! `k'`-inductive for every `k' ≥ k`, and the same holds backward), while the base case gets
//! deeper on systems whose induction keeps failing; the doubling keeps the proven `k`, and so
//! the cost of the certificate, within twice the smallest one.
//!
//! A `sat` answer needs a 1-inductive invariant the independent checker accepts: the
//! k-inductive invariant is strengthened by [`TransitionSystem::k_to_1_inductive`] (for the
//! backward case on the reversed system, then negated); the driver's checker validates it on
//! the input system like every answer. If the strengthening fails the engine answers
//! `unknown`, never `sat`.

use super::ts_engine::TsEngine;
use crate::engine::{BuildEngine, Control, Engine, Stats};
use crate::result::UnknownReason;
use crate::ts::{TransitionSystem, TsAnswer};
use cove_logic::{TermId, TermStore};
use cove_smt::{SmtResult, SmtSolver};
use std::time::{Duration, Instant};

/// Options of the k-induction engine.
#[derive(Clone, Debug)]
pub struct KindConfig {
    /// Stop (answering unknown) after this bound; `None` = until the time limit.
    pub max_k: Option<usize>,
    /// Also try backward induction (`¬init` k-inductive for the reversed system).
    pub backward: bool,
    /// Try the induction steps, forward and (with `backward`) backward (off: BMC on the
    /// transition system only, as [`super::linear_bmc`] uses it, where induction could
    /// prove nothing useful).
    pub induction: bool,
    /// Balance each induction direction against the base case (module docs); off (the
    /// default, docs/decisions.md#kind-balanced-induction): both induction checks at every
    /// bound.
    pub balance: bool,
}

impl Default for KindConfig {
    fn default() -> Self {
        KindConfig {
            max_k: None,
            backward: true,
            induction: true,
            // Off: measured −3 on LRA-Lin (docs/decisions.md#kind-balanced-induction).
            balance: false,
        }
    }
}

impl BuildEngine for KindConfig {
    const NAME: &'static str = "kind";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(KInduction::new(self.clone()))
    }
}

/// The k-induction engine.
#[derive(Default)]
pub struct KInduction {
    config: KindConfig,
    k_reached: usize,
    proof: Option<String>,
    /// Induction checks skipped by the balance (forward, backward).
    skipped: [usize; 2],
}

impl KInduction {
    /// A k-induction engine with the given options.
    pub fn new(config: KindConfig) -> KInduction {
        KInduction {
            config,
            ..Default::default()
        }
    }
}

/// `Err` carries the reason of the `unknown` answer when a check does not come back
/// `sat`/`unsat`. With `-vv` prints the time of the check (`what` at bound `n`): where the
/// time goes per bound decides which checks pay (docs/decisions.md#kind-base-assumes-the-property).
fn check(
    s: &mut SmtSolver,
    store: &mut TermStore,
    assume: &[TermId],
    ctl: &Control,
    what: &str,
    n: usize,
    spent: &mut Duration,
) -> Result<bool, UnknownReason> {
    let t0 = Instant::now();
    let r = s.check_assuming(store, assume);
    let dt = t0.elapsed();
    *spent += dt;
    if ctl.verbosity > 1 {
        eprintln!("kind: {what} {n} {dt:?}");
    }
    match r {
        SmtResult::Sat => Ok(true),
        SmtResult::Unsat => Ok(false),
        SmtResult::Unknown(r) => Err(ctl
            .should_stop()
            .unwrap_or(UnknownReason::Incomplete(format!("SMT solver: {r}")))),
    }
}

/// Induction checks that have cost less than this in all are never skipped: the certificate of
/// a proof (`k_to_1_inductive`) costs seconds and grows with `k`, so skipping cheap checks
/// only makes the proof dearer (`cav12/s3_clnt_2.cil`: checks of 0.4 s in all, certificates
/// of 11 s at k = 9 and 22–32 s at k = 11–12 when balanced without this floor).
const CHEAP_INDUCTION: Duration = Duration::from_millis(500);

/// The time one induction direction has had, and when it last checked: whether its check at
/// the next bound is due (module docs, docs/decisions.md#kind-balanced-induction).
#[derive(Clone, Copy, Debug, Default)]
struct Balance {
    /// Time spent in this direction's checks.
    spent: Duration,
    /// The `k` of the last check (`0`: none yet).
    last_k: usize,
}

impl Balance {
    /// Is the check for `k` (the bound `n = k - 1`) due, with `base` spent by the base case
    /// so far? Always for the first check and at the last bound (`last`); then while this
    /// direction has spent no more than the base case or than [`CHEAP_INDUCTION`], or once `k`
    /// has doubled since the last check (a proof at the smallest `k*` then comes at most at
    /// `2·k*`).
    fn due(&self, k: usize, base: Duration, last: bool) -> bool {
        last || self.last_k == 0 || self.spent <= base.max(CHEAP_INDUCTION) || k >= 2 * self.last_k
    }
}

fn solver(ctl: &Control) -> SmtSolver {
    let mut s = SmtSolver::new();
    s.set_limits(cove_smt::Limits::of(ctl));
    s
}

impl TsEngine for KInduction {
    fn name(&self) -> &'static str {
        KindConfig::NAME
    }

    fn run(
        &mut self,
        store: &mut TermStore,
        ts: &TransitionSystem,
        ctl: &Control,
    ) -> Result<TsAnswer, UnknownReason> {
        self.proof = None;
        self.skipped = [0, 0];
        let mut un = ts.unroller();
        let (mut base, mut fwd, mut bwd) = (solver(ctl), solver(ctl), solver(ctl));
        let i0 = un.init(store, 0);
        base.assert(store, i0);
        bwd.assert(store, i0);
        let mut base_spent = Duration::ZERO;
        let (mut fwd_bal, mut bwd_bal) = (Balance::default(), Balance::default());
        for n in 0.. {
            if let Some(r) = ctl.should_stop() {
                return Err(r);
            }
            if self.config.max_k.is_some_and(|m| n > m) {
                return Err(UnknownReason::Incomplete(format!(
                    "no counterexample and no induction up to k = {}",
                    n - 1
                )));
            }
            self.k_reached = n;
            if ctl.verbosity > 0 {
                eprintln!("kind: k = {n}");
            }
            // Base: a counterexample with n steps?
            let bad_n = un.bad(store, n);
            let base_sat = check(&mut base, store, &[bad_n], ctl, "base", n, &mut base_spent)?;
            if base_sat {
                let m = base.model(store);
                return Ok(TsAnswer::Unsafe(un.trace(store, &m, n)));
            }
            // No counterexample of length n: every later one of minimal length keeps
            // ¬bad(n), so the base solver may assume it (it prunes the deeper BMC checks,
            // which were most of the time on deep counterexamples:
            // docs/decisions.md#kind-base-assumes-the-property).
            let not_bad = store.mk_not(bad_n);
            base.assert(store, not_bad);
            let t_n = un.trans(store, n);
            base.assert(store, t_n);
            if !self.config.induction {
                continue;
            }
            // The step solvers get the bound's clauses whether or not they check now: a
            // later check covers this bound's path too.
            let last = self.config.max_k == Some(n);
            let due = |b: &Balance| !self.config.balance || b.due(n + 1, base_spent, last);
            // Forward step: is ¬bad (n+1)-inductive?
            fwd.assert(store, not_bad);
            fwd.assert(store, t_n);
            if due(&fwd_bal) {
                fwd_bal.last_k = n + 1;
                let bad_next = un.bad(store, n + 1);
                let fwd_sat = check(
                    &mut fwd,
                    store,
                    &[bad_next],
                    ctl,
                    "fwd",
                    n,
                    &mut fwd_bal.spent,
                )?;
                if !fwd_sat {
                    self.proof = Some(format!("forward, k = {}", n + 1));
                    let p = store.mk_not(ts.bad);
                    return certify(store, ts, p, n + 1, false, ctl);
                }
            } else {
                self.skipped[0] += 1;
            }
            // Backward step: is ¬init (n+1)-inductive for the reversed system?
            if self.config.backward {
                bwd.assert(store, t_n);
                let init_next = un.init(store, n + 1);
                let not_init = store.mk_not(init_next);
                bwd.assert(store, not_init);
                if due(&bwd_bal) {
                    bwd_bal.last_k = n + 1;
                    let bwd_sat = check(&mut bwd, store, &[], ctl, "bwd", n, &mut bwd_bal.spent)?;
                    if !bwd_sat {
                        self.proof = Some(format!("backward, k = {}", n + 1));
                        let p = store.mk_not(ts.init);
                        return certify(store, ts, p, n + 1, true, ctl);
                    }
                } else {
                    self.skipped[1] += 1;
                }
            }
        }
        unreachable!()
    }

    fn stats(&self) -> Stats {
        let mut s = vec![("kind-k".into(), self.k_reached.to_string())];
        if let Some(p) = &self.proof {
            s.push(("kind-proof".into(), p.clone()));
        }
        if self.skipped != [0, 0] {
            s.push((
                "kind-skipped".into(),
                format!("fwd {} bwd {}", self.skipped[0], self.skipped[1]),
            ));
        }
        s
    }
}

/// The safe answer for a `k`-inductive invariant `p` (of the reversed system if
/// `backward`): its 1-inductive strengthening.
fn certify(
    store: &mut TermStore,
    ts: &TransitionSystem,
    p: TermId,
    k: usize,
    backward: bool,
    ctl: &Control,
) -> Result<TsAnswer, UnknownReason> {
    let inv = if backward {
        let rev = ts.reversed(store);
        rev.k_to_1_inductive(store, p, k, ctl)
            .map(|j| store.mk_not(j))
    } else {
        ts.k_to_1_inductive(store, p, k, ctl)
    };
    match inv {
        Ok(inv) => Ok(TsAnswer::Safe(inv)),
        Err(e) => Err(match ctl.should_stop() {
            Some(r) => r,
            None => UnknownReason::Incomplete(format!(
                "{k}-inductive invariant found, but no 1-inductive certificate: {e}"
            )),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::Balance;
    use std::time::Duration;

    fn ms(t: u64) -> Duration {
        Duration::from_millis(t)
    }

    #[test]
    fn induction_checks_wait_for_the_base_case_or_a_doubled_bound() {
        let b = Balance::default();
        // The first check is always made, however little the base case has had.
        assert!(b.due(1, Duration::ZERO, false));
        let b = Balance {
            spent: ms(2000),
            last_k: 2,
        };
        // Cheap so far: due whatever the base case has had.
        let cheap = Balance {
            spent: ms(100),
            last_k: 2,
        };
        assert!(cheap.due(3, ms(10), false));
        // More time than the base case: skipped until k doubles ...
        assert!(!b.due(3, ms(10), false));
        assert!(b.due(4, ms(10), false));
        // ... or the base case catches up ...
        assert!(b.due(3, ms(2000), false));
        // ... and always at the last bound.
        assert!(b.due(3, ms(10), true));
    }
}
