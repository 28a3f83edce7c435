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
//! The induction checks can be *balanced* against the base case ([`KindConfig::balance`],
//! docs/decisions.md#kind-deferred-induction): each direction keeps its own bound, and its
//! check at the next bound runs only while that direction has spent at most
//! `INDUCTION_RATIO` times the base case's time (or less than a floor below which checks are
//! cheap next to a certificate); otherwise the base case goes one bound deeper first. A check
//! is *deferred*, never skipped: every direction checks every `k` in order, so a proof comes at
//! the same smallest `k` as without the balance (and its certificate costs the same), only
//! later, while a counterexample deeper than the induction checks can afford comes sooner. The
//! step solvers are not tied to the base solver's bound: a direction at bound `m` has the
//! clauses of `0..=m`, which is all its check at `m` needs, and the base case has refuted every
//! counterexample up to its own bound `n ≥ m`, which is all a proof at `k = m + 1` needs.
//!
//! A `sat` answer needs a 1-inductive invariant the independent checker accepts: the
//! k-inductive invariant is strengthened by [`TransitionSystem::k_to_1_inductive`] (for the
//! backward case on the reversed system, then negated); the driver's checker validates it on
//! the input system like every answer. If the strengthening fails the engine answers
//! `unknown`, never `sat`.

use super::ts_engine::TsEngine;
use crate::engine::{BuildEngine, Control, Engine, OptionTable, Stats, no_option};
use crate::result::UnknownReason;
use crate::ts::{TransitionSystem, TsAnswer};
use cove_control::engine_options::OptionWord;
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
    /// Balance each induction direction against the base case by deferring its checks
    /// (module docs, docs/decisions.md#kind-deferred-induction); off (the default): both
    /// induction checks at every bound, right after the base case's.
    pub balance: bool,
    /// Skip the checks below this bound: an earlier run on the same system made them
    /// (base case unsatisfiable, no induction step proved), and the portfolio resumes from
    /// it ([`crate::engine::Engine::resume`]). The unrolling is still built from 0. A wrong
    /// value cannot make a wrong answer: a counterexample is a concrete trace, and a proof
    /// is a 1-inductive invariant that the driver checks.
    pub from: Option<usize>,
}

impl Default for KindConfig {
    fn default() -> Self {
        KindConfig {
            max_k: None,
            backward: true,
            induction: true,
            // Off by default; the portfolio turns it on for LRA transition systems
            // (docs/decisions.md#kind-deferred-induction).
            balance: false,
            from: None,
        }
    }
}

/// k-induction's option words (`--engine kind:balance`).
const KIND_OPTIONS: OptionTable<KindConfig> = OptionTable {
    switches: &[
        ("backward", |c| &mut c.backward),
        ("induction", |c| &mut c.induction),
        ("balance", |c| &mut c.balance),
    ],
    numbers: &[("max-k", |c| &mut c.max_k), ("from", |c| &mut c.from)],
};

impl BuildEngine for KindConfig {
    const NAME: &'static str = "kind";
    const OPTIONS: &'static str = "backward, induction, balance, max-k=N, from=N";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(KInduction::new(self.clone()))
    }

    fn set_option(&mut self, w: &OptionWord) -> Result<(), String> {
        match KIND_OPTIONS.set(self, w)? {
            true => Ok(()),
            false => Err(no_option(Self::NAME, w.key, Self::OPTIONS)),
        }
    }

    fn option_words(&self) -> Vec<String> {
        KIND_OPTIONS.differences(self)
    }
}

/// The k-induction engine.
#[derive(Default)]
pub struct KInduction {
    config: KindConfig,
    k_reached: usize,
    proof: Option<String>,
    /// Base-case bounds at which the balance deferred an induction check (forward,
    /// backward).
    deferred: [usize; 2],
    /// Every check below this bound was made (or skipped by [`KindConfig::from`]), in
    /// every direction: where a resumed run may start.
    done: usize,
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

/// Induction checks that have cost less than this in all are never deferred: they are cheap
/// next to the base case's deep checks, and deferring them only delays cheap proofs.
const CHEAP_INDUCTION: Duration = Duration::from_millis(500);

/// A balanced induction direction may spend this many times the base case's time: its checks
/// run while it has spent no more, else the base case goes deeper first. At 2 the base case
/// gets at least a fifth of the engine's time with both directions failing (on
/// `cav12/pipeline-bug` it had 9 % unbalanced), while a proof comes after at most half again
/// the time its checks need (docs/decisions.md#kind-deferred-induction).
const INDUCTION_RATIO: u32 = 2;

/// One induction direction under the balance: its time so far and the bound of its next
/// check (module docs, docs/decisions.md#kind-deferred-induction).
#[derive(Clone, Copy, Debug, Default)]
struct Balance {
    /// Time spent in this direction's checks.
    spent: Duration,
    /// The bound `m` of this direction's next check (`k = m + 1`); its solver has the clauses
    /// of the bounds `0..m`.
    next: usize,
}

impl Balance {
    /// Is this direction's next check due, with `base` spent by the base case so far? While
    /// it has spent at most [`INDUCTION_RATIO`] times the base case's time or less than
    /// [`CHEAP_INDUCTION`].
    fn due(&self, base: Duration) -> bool {
        self.spent <= (base * INDUCTION_RATIO).max(CHEAP_INDUCTION)
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
        self.deferred = [0, 0];
        let from = self.config.from.unwrap_or(0);
        self.done = 0;
        let mut un = ts.unroller();
        let (mut base, mut fwd, mut bwd) = (solver(ctl), solver(ctl), solver(ctl));
        let i0 = un.init(store, 0);
        base.assert(store, i0);
        bwd.assert(store, i0);
        let mut base_spent = Duration::ZERO;
        // Per direction (forward, backward).
        let mut bal = [Balance::default(); 2];
        let directions = if self.config.backward { 2 } else { 1 };
        for n in 0.. {
            if let Some(r) = ctl.should_stop() {
                return Err(r);
            }
            // Every check below `n` in every direction is made, and every one below `from`
            // was, by the run resumed from (a turn that stops while it rebuilds the
            // unrolling must not hand on less than it was given).
            self.done = bal
                .iter()
                .take(directions)
                .filter(|_| self.config.induction)
                .map(|b| b.next)
                .fold(n, usize::min)
                .max(from);
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
            let base_sat =
                n >= from && check(&mut base, store, &[bad_n], ctl, "base", n, &mut base_spent)?;
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
            // Each direction checks its bounds in order up to the base case's `n`: all of them
            // without the balance (one per base bound), while due with it, and all that are
            // left at `max_k`.
            let last = self.config.max_k == Some(n);
            let balance = self.config.balance;
            let due = |b: &Balance, base: Duration| !balance || last || b.due(base);
            for (dir, b) in bal.iter_mut().enumerate().take(directions) {
                loop {
                    if b.next > n {
                        break;
                    }
                    if !due(b, base_spent) {
                        self.deferred[dir] += 1;
                        break;
                    }
                    let m = b.next;
                    let t_m = un.trans(store, m);
                    let proved = if dir == 0 {
                        // Forward step: is ¬bad (m+1)-inductive?
                        let bad_m = un.bad(store, m);
                        let not_bad_m = store.mk_not(bad_m);
                        fwd.assert(store, not_bad_m);
                        fwd.assert(store, t_m);
                        let bad_next = un.bad(store, m + 1);
                        let spent = &mut b.spent;
                        m >= from && !check(&mut fwd, store, &[bad_next], ctl, "fwd", m, spent)?
                    } else {
                        // Backward step: is ¬init (m+1)-inductive for the reversed system?
                        bwd.assert(store, t_m);
                        let init_next = un.init(store, m + 1);
                        let not_init = store.mk_not(init_next);
                        bwd.assert(store, not_init);
                        let spent = &mut b.spent;
                        m >= from && !check(&mut bwd, store, &[], ctl, "bwd", m, spent)?
                    };
                    b.next = m + 1;
                    if proved {
                        let (how, p) = if dir == 0 {
                            ("forward", store.mk_not(ts.bad))
                        } else {
                            ("backward", store.mk_not(ts.init))
                        };
                        self.proof = Some(format!("{how}, k = {}", m + 1));
                        return certify(store, ts, p, m + 1, dir == 1, ctl);
                    }
                }
            }
        }
        unreachable!()
    }

    fn resume(&self) -> Option<String> {
        (self.done > 0).then(|| format!("from={}", self.done))
    }

    fn stats(&self) -> Stats {
        let mut s = vec![("kind-k".into(), self.k_reached.to_string())];
        if let Some(p) = &self.proof {
            s.push(("kind-proof".into(), p.clone()));
        }
        if self.deferred != [0, 0] {
            s.push((
                "kind-deferred".into(),
                format!("fwd {} bwd {}", self.deferred[0], self.deferred[1]),
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
    fn induction_checks_wait_for_the_base_case() {
        // Cheap so far: due whatever the base case has had.
        let cheap = Balance {
            spent: ms(100),
            next: 2,
        };
        assert!(cheap.due(Duration::ZERO));
        let dear = Balance {
            spent: ms(2000),
            next: 2,
        };
        // More than twice the base case's time: deferred ...
        assert!(!dear.due(ms(999)));
        // ... until the base case has had half as much.
        assert!(dear.due(ms(1000)));
    }
}
