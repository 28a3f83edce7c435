//! Running one solver process under a wall-clock and a memory limit, measuring its peak memory.
//!
//! Mechanisms, chosen to need no `unsafe` in Cove and to be exact where it matters:
//! - **Memory limit**: `RLIMIT_AS`, applied by an exec-wrapper (see [`super::command`]); the
//!   solver keeps the child's PID, so everything below applies to it directly.
//! - **Wall-clock limit**: the child runs in its own process group. A waiter thread blocks in
//!   `waitid(WEXITED | WNOWAIT)`, which reports the exit *without reaping*, while the caller
//!   waits on a channel until the deadline (timeout + grace); on expiry the whole group gets
//!   `SIGKILL`. Because nothing reaps the child before the final `wait4`, its PID (and so its
//!   process group ID) cannot be recycled while we may still signal it: no kill can hit an
//!   unrelated process. Stragglers in the group are killed before reaping too.
//! - **Peak memory**: `wait4(2)` (through the `wait4` crate) returns the child's own
//!   `ru_maxrss`, the kernel's exact high-water mark for that process (and descendants it
//!   waited for). `getrusage(RUSAGE_CHILDREN)` would mix up parallel workers, and polling
//!   `/proc/PID/status` (`VmHWM`) misses peaks between polls and vanishes at exit.
//! - **Interrupts**: since children live in their own process groups, a terminal's Ctrl-C does
//!   not reach them; a `ctrlc` handler kills every registered group before the harness exits,
//!   so no solver outlives an interrupted run.
//!
//! Standard output and error are drained by reader threads (a solver printing a large model
//! must never block on a full pipe and time out spuriously); only a bounded prefix is kept.

use super::answer::{Outcome, parse_answer, parse_property_answers};
use super::command::MemLimiter;
use nix::errno::Errno;
use nix::sys::signal::{Signal, killpg};
use nix::sys::wait::{Id, WaitPidFlag, waitid};
use nix::unistd::Pid;
use std::io::Read;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};
use wait4::Wait4;

/// How much of a child's stdout/stderr is kept (the rest is read and dropped).
const KEEP_BYTES: usize = 64 * 1024;
/// How long to wait for the output pipes to close after the child was reaped.
const PIPE_DRAIN: Duration = Duration::from_secs(1);

/// Resource limits for one run.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The nominal time limit; the child is killed at `timeout + grace`.
    pub timeout: Duration,
    /// Extra wall-clock time before the kill (lets a solver report its own timeout).
    pub grace: Duration,
    /// Address-space limit in MiB (0 = none).
    pub memory_mb: u64,
    /// Mechanism for the memory limit.
    pub limiter: MemLimiter,
}

/// How a side's exit code is interpreted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitPolicy {
    /// Cove's conventions: an answer counts only with exit code 0; 2 = bad input,
    /// 3 = certificate failure, anything else = error.
    Cove,
    /// Reference solvers: the first line decides, whatever the exit code.
    Reference,
}

/// Everything measured about one run.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// How it ended.
    pub outcome: Outcome,
    /// Wall-clock seconds from spawn to exit (or kill).
    pub wall_secs: f64,
    /// User + system CPU seconds.
    pub cpu_secs: f64,
    /// Peak resident set size in bytes (`ru_maxrss`), 0 if the process never started.
    pub peak_bytes: u64,
    /// Exit code, if it exited normally.
    pub exit_code: Option<i32>,
    /// Terminating signal, if any.
    pub signal: Option<i32>,
    /// Per-property answers read from HWMCC witness output
    /// ([`crate::answer::parse_property_answers`]); empty otherwise or when killed.
    pub property_answers: Vec<(String, u8)>,
}

impl RunResult {
    fn failed_to_start(msg: String) -> Self {
        RunResult {
            outcome: Outcome::Error(msg),
            wall_secs: 0.0,
            cpu_secs: 0.0,
            peak_bytes: 0,
            exit_code: None,
            signal: None,
            property_answers: Vec::new(),
        }
    }

    /// Peak memory in MiB.
    pub fn peak_mb(&self) -> f64 {
        self.peak_bytes as f64 / (1024.0 * 1024.0)
    }
}

/// Process groups of running children, killed by the Ctrl-C handler.
fn running_groups() -> &'static Mutex<Vec<i32>> {
    static GROUPS: OnceLock<Mutex<Vec<i32>>> = OnceLock::new();
    GROUPS.get_or_init(|| {
        // Installed once per process; failure (another handler exists) only loses cleanup.
        let _ = ctrlc::set_handler(|| {
            if let Ok(groups) = running_groups().lock() {
                for &g in groups.iter() {
                    let _ = killpg(Pid::from_raw(g), Signal::SIGKILL);
                }
            }
            eprintln!("\ninterrupted: killed running solvers");
            std::process::exit(130);
        });
        Mutex::new(Vec::new())
    })
}

fn lock_groups() -> std::sync::MutexGuard<'static, Vec<i32>> {
    running_groups()
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A reader thread draining a pipe into a bounded buffer; signals completion on `done`.
fn spawn_reader(
    mut pipe: impl Read + Send + 'static,
    done: mpsc::Sender<()>,
) -> Arc<Mutex<Vec<u8>>> {
    let buf = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&buf);
    thread::spawn(move || {
        let mut chunk = [0u8; 8192];
        while let Ok(n) = pipe.read(&mut chunk) {
            if n == 0 {
                break;
            }
            let mut b = sink.lock().unwrap_or_else(|p| p.into_inner());
            let room = KEEP_BYTES.saturating_sub(b.len());
            b.extend_from_slice(&chunk[..n.min(room)]);
        }
        let _ = done.send(());
    });
    buf
}

fn take(buf: &Arc<Mutex<Vec<u8>>>) -> String {
    let b = buf.lock().unwrap_or_else(|p| p.into_inner());
    String::from_utf8_lossy(&b).into_owned()
}

/// Runs `argv` (already instantiated, not yet wrapped) under `limits`.
pub fn run_limited(argv: &[String], limits: &Limits, policy: ExitPolicy) -> RunResult {
    let argv = limits.limiter.wrap(limits.memory_mb, argv.to_vec());
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);

    let start = Instant::now();
    let mut child = {
        // Spawn and register under the lock so Ctrl-C cannot slip in between.
        let mut groups = lock_groups();
        match cmd.spawn() {
            Ok(c) => {
                groups.push(c.id() as i32);
                c
            }
            Err(e) => {
                return RunResult::failed_to_start(format!("cannot start `{}`: {e}", argv[0]));
            }
        }
    };
    let pid = child.id() as i32;

    let (done_tx, done_rx) = mpsc::channel();
    let out = spawn_reader(child.stdout.take().expect("piped"), done_tx.clone());
    let err = spawn_reader(child.stderr.take().expect("piped"), done_tx);

    let (exit_tx, exit_rx) = mpsc::channel();
    thread::spawn(move || {
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT;
        let r = loop {
            match waitid(Id::Pid(Pid::from_raw(pid)), flags) {
                Err(Errno::EINTR) => continue,
                r => break r.map(|_| ()),
            }
        };
        let _ = exit_tx.send(r);
    });

    let deadline = limits.timeout + limits.grace;
    let (killed, wait_error) = match exit_rx.recv_timeout(deadline) {
        Ok(r) => (false, r.err()),
        Err(RecvTimeoutError::Timeout) => {
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
            let r = exit_rx.recv().unwrap_or(Ok(()));
            (true, r.err())
        }
        Err(RecvTimeoutError::Disconnected) => (false, Some(Errno::ECHILD)),
    };
    let wall_secs = start.elapsed().as_secs_f64();

    // The child is exited but not reaped: its group ID is still ours to signal.
    {
        let mut groups = lock_groups();
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        groups.retain(|&g| g != pid);
    }
    let usage = child.wait4();

    // Pipes close once every process of the group is gone; don't hang on escaped ones.
    let drain_deadline = Instant::now() + PIPE_DRAIN;
    for _ in 0..2 {
        let left = drain_deadline.saturating_duration_since(Instant::now());
        if done_rx.recv_timeout(left).is_err() {
            break;
        }
    }
    let stdout = take(&out);
    let stderr = take(&err);

    let (exit_code, signal, cpu_secs, peak_bytes) = match &usage {
        Ok(u) => (
            u.status.code(),
            u.status.signal(),
            (u.rusage.utime + u.rusage.stime).as_secs_f64(),
            u.rusage.maxrss,
        ),
        Err(_) => (None, None, 0.0, 0),
    };
    let outcome = if killed {
        Outcome::Killed
    } else if let Some(e) = wait_error.or_else(|| usage.as_ref().err().map(|_| Errno::ECHILD)) {
        Outcome::Error(format!("waiting for the child failed: {e}"))
    } else {
        classify(
            &stdout,
            &stderr,
            exit_code,
            signal,
            limits.memory_mb > 0,
            policy,
        )
    };
    let property_answers = if killed {
        Vec::new()
    } else {
        parse_property_answers(&stdout)
    };
    RunResult {
        outcome,
        wall_secs,
        cpu_secs,
        peak_bytes,
        exit_code,
        signal,
        property_answers,
    }
}

/// Decides the outcome of a process that exited on its own.
pub fn classify(
    stdout: &str,
    stderr: &str,
    exit_code: Option<i32>,
    signal: Option<i32>,
    memory_limited: bool,
    policy: ExitPolicy,
) -> Outcome {
    let answer = parse_answer(stdout);
    let accepted = match policy {
        ExitPolicy::Cove => exit_code == Some(0),
        ExitPolicy::Reference => true,
    };
    if let (Some(a), true) = (answer, accepted) {
        return Outcome::Answer(a);
    }
    if memory_limited && looks_like_memout(stdout, stderr) {
        return Outcome::MemOut;
    }
    let first_out = stdout.lines().map(str::trim).find(|l| !l.is_empty());
    let err_head: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(2)
        .collect();
    let mut msg = match (exit_code, signal) {
        (Some(2), _) if policy == ExitPolicy::Cove => "exit 2 (bad input)".to_string(),
        (Some(3), _) if policy == ExitPolicy::Cove => "exit 3 (certificate failure)".to_string(),
        (Some(c), _) => format!("exit {c}"),
        (None, Some(s)) => format!("killed by signal {s}"),
        (None, None) => "no exit status".to_string(),
    };
    match first_out {
        Some(l) if answer.is_some() => msg.push_str(&format!(" after answering `{l}`")),
        Some(l) => msg.push_str(&format!("; first line `{}`", clip(l, 120))),
        None => msg.push_str("; no output"),
    }
    if !err_head.is_empty() {
        msg.push_str(&format!("; stderr: {}", clip(&err_head.join(" | "), 200)));
    }
    Outcome::Error(msg)
}

/// Recognises allocation failure messages (Rust's allocator, C++ `bad_alloc`, z3, Python).
fn looks_like_memout(stdout: &str, stderr: &str) -> bool {
    let hay = format!("{stdout}\n{stderr}").to_ascii_lowercase();
    [
        "memory allocation of",
        "out of memory",
        "bad_alloc",
        "memoryerror",
    ]
    .iter()
    .any(|needle| hay.contains(needle))
}

fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::Answer;
    use crate::command::find_program;

    fn limits(timeout_ms: u64, memory_mb: u64, limiter: MemLimiter) -> Limits {
        Limits {
            timeout: Duration::from_millis(timeout_ms),
            grace: Duration::from_millis(200),
            memory_mb,
            limiter,
        }
    }

    fn sh(script: &str) -> Vec<String> {
        vec!["/bin/sh".into(), "-c".into(), script.into()]
    }

    #[test]
    fn classification() {
        use ExitPolicy::*;
        let c = |out, err, code, pol| classify(out, err, code, None, true, pol);
        assert_eq!(c("sat\n", "", Some(0), Cove), Outcome::Answer(Answer::Sat));
        assert_eq!(
            c("sat\n", "", Some(3), Cove),
            Outcome::Error("exit 3 (certificate failure) after answering `sat`".into())
        );
        assert!(
            matches!(c("", "parse error", Some(2), Cove), Outcome::Error(m) if m.contains("bad input") && m.contains("parse error"))
        );
        assert_eq!(
            c("unsat\n", "", Some(1), Reference),
            Outcome::Answer(Answer::Unsat)
        );
        assert!(
            matches!(c("(error \"x\")\n", "", Some(1), Reference), Outcome::Error(m) if m.contains("(error"))
        );
        assert_eq!(
            c("", "memory allocation of 8 bytes failed", None, Cove),
            Outcome::MemOut
        );
        assert_eq!(
            c("(error \"out of memory\")\n", "", Some(1), Reference),
            Outcome::MemOut
        );
        // Without a memory limit, the same text is an ordinary error.
        assert!(matches!(
            classify("", "out of memory", Some(1), None, false, Cove),
            Outcome::Error(_)
        ));
        assert!(matches!(
            classify("", "", None, Some(11), false, Cove),
            Outcome::Error(m) if m.contains("signal 11")
        ));
    }

    #[test]
    fn answers_and_measures_memory() {
        // dash holds the 30 MB string in its own memory: the peak must show it.
        let script = r#"x=$(head -c 30000000 /dev/zero | tr '\0' a); echo sat"#;
        let r = run_limited(
            &sh(script),
            &limits(30_000, 0, MemLimiter::None),
            ExitPolicy::Cove,
        );
        assert_eq!(r.outcome, Outcome::Answer(Answer::Sat));
        assert_eq!(r.exit_code, Some(0));
        assert!(r.peak_mb() >= 25.0, "peak {} MB", r.peak_mb());
    }

    #[test]
    fn kills_at_deadline_including_grandchildren() {
        // The grandchild `sleep` keeps the stdout pipe open: the group kill must close it.
        let t0 = Instant::now();
        let r = run_limited(
            &sh("sleep 30 & sleep 30; echo sat"),
            &limits(300, 0, MemLimiter::None),
            ExitPolicy::Cove,
        );
        assert_eq!(r.outcome, Outcome::Killed);
        assert!(r.wall_secs >= 0.5 && r.wall_secs < 3.0, "{}", r.wall_secs);
        assert!(t0.elapsed() < Duration::from_secs(3));
        assert_eq!(r.signal, Some(9));
    }

    #[test]
    fn memory_limit_is_applied_by_both_wrappers() {
        let mut limiters = vec![MemLimiter::ShellUlimit];
        if let Some(p) = find_program("prlimit") {
            limiters.push(MemLimiter::Prlimit(p));
        }
        for limiter in limiters {
            // `ulimit -v` prints the limit in KiB, which is not an answer.
            let r = run_limited(
                &sh("ulimit -v"),
                &limits(5000, 300, limiter.clone()),
                ExitPolicy::Reference,
            );
            assert_eq!(
                r.outcome,
                Outcome::Error(format!("exit 0; first line `{}`", 300 * 1024)),
                "{limiter:?}"
            );
        }
    }

    #[test]
    fn missing_program_is_an_error() {
        let r = run_limited(
            &["/definitely/not/here".to_string()],
            &limits(1000, 0, MemLimiter::None),
            ExitPolicy::Cove,
        );
        assert!(matches!(r.outcome, Outcome::Error(m) if m.contains("cannot start")));
    }
}
