//! `cove-control`: how a run is controlled, shared by every Cove crate.
//!
//! One [`Control`] travels through every phase of a run — parsing, preprocessing, engines,
//! back-translation, certificate checking — and each phase polls [`Control::should_stop`] in
//! its loops. It carries the three reasons to stop early: a wall-clock deadline, a memory limit
//! and an interruption flag (set by Ctrl-C, by a portfolio whose other engine won, or by a
//! library user). When a phase stops, it says why with one [`UnknownReason`], the single
//! vocabulary for "no answer" across the SAT core, the SMT core and the CHC engines.
//!
//! The crate sits at the root of the dependency graph so that `cove-logic` (parsing) and
//! `cove-sat` (search) can poll the same limits as the engines above them.
//!
//! Memory is measured by [`memory::usage`]: exactly, when the binary installs
//! [`memory::CountingAlloc`] as its global allocator (the `cove` CLI does), and otherwise from the
//! resident set size the operating system reports.

#![warn(missing_docs)]

pub mod clock;
pub mod engine_options;
pub mod memory;
pub mod stack;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Why a run (or one phase of it) gave no definite answer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnknownReason {
    /// The wall-clock deadline passed.
    Timeout,
    /// Stopped from outside (Ctrl-C, another portfolio engine won, a library caller).
    Interrupted,
    /// The memory limit was reached.
    Memory,
    /// A budget of the procedure itself (conflicts, iterations, sizes) was exhausted.
    ResourceOut(String),
    /// The input uses something this procedure cannot handle (named).
    Unsupported(String),
    /// The procedure is incomplete for this input (e.g. BMC found no counterexample up to a
    /// bound) or gave up for a reason of its own (named).
    Incomplete(String),
}

impl fmt::Display for UnknownReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnknownReason::Timeout => write!(f, "timeout"),
            UnknownReason::Interrupted => write!(f, "interrupted"),
            UnknownReason::Memory => write!(f, "memory limit"),
            UnknownReason::ResourceOut(s) => write!(f, "resource limit: {s}"),
            UnknownReason::Unsupported(s) => write!(f, "unsupported: {s}"),
            UnknownReason::Incomplete(s) => write!(f, "incomplete: {s}"),
        }
    }
}

/// An interruption flag that also reports the flags of the controls it was derived from, so
/// interrupting a run interrupts every sub-run (portfolio engine, certificate check) under it,
/// while a sub-run can be stopped alone.
#[derive(Clone, Debug, Default)]
pub struct Interrupt(Arc<InterruptNode>);

#[derive(Debug, Default)]
struct InterruptNode {
    flag: AtomicBool,
    parent: Option<Interrupt>,
}

impl Interrupt {
    /// A fresh flag, not set, with no parent.
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// Sets the flag (from any thread).
    pub fn set(&self) {
        self.0.flag.store(true, Ordering::Relaxed);
    }

    /// True when this flag or an ancestor's flag is set.
    pub fn is_set(&self) -> bool {
        let mut node = &self.0;
        loop {
            if node.flag.load(Ordering::Relaxed) {
                return true;
            }
            match &node.parent {
                Some(p) => node = &p.0,
                None => return false,
            }
        }
    }

    /// A new flag that is also considered set when `self` is.
    pub fn child(&self) -> Interrupt {
        Interrupt(Arc::new(InterruptNode {
            flag: AtomicBool::new(false),
            parent: Some(self.clone()),
        }))
    }
}

/// The limits and the stop flag of a run, polled by every phase.
///
/// Cloning shares the interruption flag; [`Control::child`] derives a control that can be
/// interrupted on its own and inherits the parent's interruption and limits.
#[derive(Clone, Debug, Default)]
pub struct Control {
    /// Wall-clock deadline.
    pub deadline: Option<Instant>,
    /// Memory limit in bytes (process-wide, as measured by [`memory::usage`]).
    pub memory_limit: Option<u64>,
    /// Interruption flag.
    pub interrupt: Interrupt,
    /// 0 = quiet; higher values print progress to stderr.
    pub verbosity: u32,
    /// A budget of work units shared by every clone and child of this control (`None` = no
    /// budget). See [`WorkBudget`].
    pub work: Option<WorkBudget>,
    /// A second pool drawn from alongside `work`: the effort of one sub-run
    /// ([`Control::with_work_cap`]), whatever the run's own limits.
    pub work_cap: Option<WorkBudget>,
}

/// A machine-independent bound on a run: a pool of work units that the solvers draw from
/// (the SAT core charges one unit per conflict, per final theory check and per 1024
/// decisions), and that stops the run with [`UnknownReason::ResourceOut`] when empty.
///
/// Why: a wall-clock deadline makes a test that must *decide* something fail on a loaded
/// machine, and makes a failure impossible to reproduce. A work budget gives the same answer
/// on every machine for a sequential run, however busy the machine is; tests use it (with a
/// generous deadline only as a guard against hangs) instead of short timeouts.
#[derive(Clone, Debug)]
pub struct WorkBudget(Arc<AtomicU64>);

impl WorkBudget {
    /// A pool of `units`.
    pub fn new(units: u64) -> WorkBudget {
        WorkBudget(Arc::new(AtomicU64::new(units)))
    }

    /// Units left.
    pub fn remaining(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    /// Draws `units` (saturating at zero).
    pub fn charge(&self, units: u64) {
        let _ = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |r| {
                Some(r.saturating_sub(units))
            });
    }
}

impl Control {
    /// No limits, not interrupted, quiet.
    pub fn new() -> Control {
        Control::default()
    }

    /// This control with a deadline `timeout` from now (keeping an earlier deadline).
    pub fn with_timeout(mut self, timeout: Duration) -> Control {
        let d = Instant::now().checked_add(timeout);
        self.deadline = match (self.deadline, d) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self
    }

    /// This control with a budget of `units` work units (see [`WorkBudget`]), shared by its
    /// clones and children.
    pub fn with_work_budget(mut self, units: u64) -> Control {
        self.work = Some(WorkBudget::new(units));
        self
    }

    /// This control with a budget of `units` work units unless it already has a budget (which
    /// then governs: a caller's budget is never replaced by a larger one). For a pass that
    /// should stop after the same amount of work on every machine, however loaded.
    pub fn with_work_limit(self, units: u64) -> Control {
        if self.work.is_some() {
            self
        } else {
            self.with_work_budget(units)
        }
    }

    /// Charges `units` of work to the budget, if there is one.
    #[inline]
    pub fn charge(&self, units: u64) {
        if let Some(w) = &self.work {
            w.charge(units);
        }
        if let Some(w) = &self.work_cap {
            w.charge(units);
        }
    }

    /// This control with its work also drawn from a pool of its own of `units` (shared by
    /// its clones and children), which stops it when empty. For a speculative sub-run (an
    /// abstraction that either has a small proof or none): its effort is bounded the same
    /// way under a deadline, under a work budget and with no limit at all.
    pub fn with_work_cap(mut self, units: u64) -> Control {
        self.work_cap = Some(WorkBudget::new(units));
        self
    }

    /// This control with a memory limit in bytes.
    pub fn with_memory_limit(mut self, bytes: u64) -> Control {
        self.memory_limit = Some(bytes);
        self
    }

    /// A control with the same limits whose interruption flag is a child of this one's: setting
    /// it stops only the sub-run, setting this one stops both.
    pub fn child(&self) -> Control {
        Control {
            interrupt: self.interrupt.child(),
            ..self.clone()
        }
    }

    /// A child control whose deadline is at most `budget` from now.
    pub fn child_with_budget(&self, budget: Duration) -> Control {
        self.child().with_timeout(budget)
    }

    /// Why the run must stop now, if it must. Cheap enough to call in inner loops: one atomic
    /// load per interruption level, one clock read, and (with a memory limit) one atomic load
    /// or an occasional read of the resident set size.
    pub fn should_stop(&self) -> Option<UnknownReason> {
        if self.interrupt.is_set() {
            return Some(UnknownReason::Interrupted);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(UnknownReason::Timeout);
        }
        if self.memory_limit.is_some_and(|m| memory::usage() >= m) {
            return Some(UnknownReason::Memory);
        }
        if self.work.as_ref().is_some_and(|w| w.remaining() == 0) {
            return Some(UnknownReason::ResourceOut("work budget".into()));
        }
        if self.work_cap.as_ref().is_some_and(|w| w.remaining() == 0) {
            return Some(UnknownReason::ResourceOut("work cap".into()));
        }
        None
    }

    /// Time left before the deadline (`None` = no deadline).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Drops `x` off the caller's path when the run is stopping: freeing a large solver
    /// (millions of clauses, watches and tableau rows) takes a tenth of a second and more,
    /// which a run at its deadline does not have. A detached thread frees it instead (and
    /// when the process ends first, the operating system does); otherwise `x` is dropped
    /// here, as usual.
    pub fn dispose<T: Send + 'static>(&self, x: T) {
        if self.should_stop().is_some() {
            let spawned = std::thread::Builder::new()
                .name("cove-dispose".into())
                .spawn(move || drop(x));
            // Without a thread (resource exhaustion) the value was dropped in `spawn`'s
            // error path already.
            let _ = spawned;
        }
    }

    /// Stops the run (and every child run).
    pub fn stop(&self) {
        self.interrupt.set();
    }
}

/// Parses a time limit in seconds as a user writes it: a finite non-negative decimal number
/// (`0` = no limit), or `inf`/`none` for no limit. Returns `Ok(None)` for no limit.
///
/// Limits too large to represent as a deadline mean no limit as well (a deadline past the
/// clock's range can never be reached).
pub fn parse_seconds(s: &str) -> Result<Option<Duration>, String> {
    let t = s.trim();
    if matches!(t.to_ascii_lowercase().as_str(), "inf" | "infinity" | "none") {
        return Ok(None);
    }
    let v: f64 = t
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!(
            "'{s}' is not a finite non-negative number of seconds (use 'inf' for no limit)"
        ));
    }
    if v == 0.0 {
        return Ok(None);
    }
    Ok(Duration::try_from_secs_f64(v)
        .ok()
        .filter(|d| Instant::now().checked_add(*d).is_some()))
}

/// Parses a memory limit in MiB (a positive integer, or `0`/`none` for no limit) into bytes.
pub fn parse_megabytes(s: &str) -> Result<Option<u64>, String> {
    let t = s.trim();
    if matches!(t.to_ascii_lowercase().as_str(), "none" | "inf") {
        return Ok(None);
    }
    let v: u64 = t
        .parse()
        .map_err(|_| format!("'{s}' is not a whole number of megabytes"))?;
    if v == 0 {
        return Ok(None);
    }
    Ok(Some(v.saturating_mul(1 << 20)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_budgets_are_shared_by_children_and_stop_when_empty() {
        let root = Control::new().with_work_budget(3);
        let child = root.child();
        assert_eq!(root.should_stop(), None);
        child.charge(2);
        assert_eq!(root.work.as_ref().unwrap().remaining(), 1);
        root.charge(5);
        assert_eq!(
            child.should_stop(),
            Some(UnknownReason::ResourceOut("work budget".into()))
        );
        // Without a budget, charging is a no-op.
        Control::new().charge(10);
        assert_eq!(Control::new().should_stop(), None);
    }

    #[test]
    fn a_work_cap_stops_its_sub_run_and_charges_the_run_too() {
        let root = Control::new().with_work_budget(100);
        let sub = root.child().with_work_cap(3);
        sub.charge(3);
        assert_eq!(root.work.as_ref().unwrap().remaining(), 97);
        assert_eq!(
            sub.should_stop(),
            Some(UnknownReason::ResourceOut("work cap".into()))
        );
        assert_eq!(root.should_stop(), None);
        // Without a run budget, the cap alone bounds the sub-run.
        let free = Control::new().with_work_cap(1);
        free.charge(1);
        assert!(free.should_stop().is_some());
    }

    #[test]
    fn child_interrupts_follow_parents() {
        let root = Control::new();
        let a = root.child();
        let b = root.child();
        a.stop();
        assert_eq!(a.should_stop(), Some(UnknownReason::Interrupted));
        assert_eq!(b.should_stop(), None);
        assert_eq!(root.should_stop(), None);
        root.stop();
        assert_eq!(b.should_stop(), Some(UnknownReason::Interrupted));
    }

    #[test]
    fn deadlines_only_shrink() {
        let c = Control::new().with_timeout(Duration::from_secs(100));
        let d = c.clone().with_timeout(Duration::from_secs(1000));
        assert_eq!(c.deadline, d.deadline);
        let e = Control::new().with_timeout(Duration::ZERO);
        assert_eq!(e.should_stop(), Some(UnknownReason::Timeout));
    }

    #[test]
    fn seconds_are_parsed_strictly() {
        assert_eq!(parse_seconds("0"), Ok(None));
        assert_eq!(parse_seconds("inf"), Ok(None));
        assert_eq!(parse_seconds("2.5"), Ok(Some(Duration::from_millis(2500))));
        assert_eq!(parse_seconds("1e30"), Ok(None));
        assert_eq!(parse_seconds("9.3e18"), Ok(None));
        assert!(parse_seconds("nan").is_err());
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("abc").is_err());
        assert_eq!(parse_megabytes("10"), Ok(Some(10 << 20)));
        assert!(parse_megabytes("-3").is_err());
    }

    #[test]
    fn memory_limit_stops() {
        let c = Control::new().with_memory_limit(1);
        assert_eq!(c.should_stop(), Some(UnknownReason::Memory));
    }
}
