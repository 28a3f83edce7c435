//! The limit flags every subcommand shares (`--timeout`, `--memory-mb`), and the process-wide
//! parts of enforcing them: Ctrl-C and the allocator's emergency exit.

use clap::Args;
use cove_control::{Control, memory};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Answers the current command still owes on stdout. Printing an answer and the watchdog's
/// last-resort `unknown` both hold this lock, so they never interleave or repeat.
pub static OWED: Mutex<usize> = Mutex::new(0);

/// The last-resort answer in the input language's convention (`unknown`; for circuits the
/// HWMCC or BTOR2 witness of no answer), set once the language is known.
static UNKNOWN_TEXT: Mutex<&'static str> = Mutex::new("unknown\n");

/// Sets the last-resort answer's text ([`cove::InputFormat::unknown_text`]).
pub fn set_unknown_text(text: &'static str) {
    *UNKNOWN_TEXT.lock().unwrap_or_else(|e| e.into_inner()) = text;
}

/// Set by a command printing `--format json`: the last-resort answer is a JSON object
/// (`verdict` `unknown` and the `reason`), so a consumer always reads one JSON object.
pub static JSON_OUTPUT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The text of a last-resort `unknown` answer (`memory`: the memory limit, else time).
fn unknown_text(memory: bool) -> &'static [u8] {
    if JSON_OUTPUT.load(std::sync::atomic::Ordering::Relaxed) {
        if memory {
            b"{\"verdict\":\"unknown\",\"reason\":\"memory limit reached\"}\n"
        } else {
            b"{\"verdict\":\"unknown\",\"reason\":\"time limit reached\"}\n"
        }
    } else {
        // `try_lock`: this runs in the allocator's emergency exit, which must not wait.
        UNKNOWN_TEXT
            .try_lock()
            .map_or(b"unknown\n", |t| t.as_bytes())
    }
}

/// How long after the deadline the watchdog answers for a phase that did not stop.
const WATCHDOG_SLACK: Duration = cove::solve_file::ANSWER_SLACK;

/// A time limit as the user wrote it (`0`, `inf` and `none` mean no limit).
#[derive(Copy, Clone, Debug, Default)]
pub struct Seconds(pub Option<Duration>);

pub(crate) fn parse_secs(s: &str) -> Result<Seconds, String> {
    cove_control::parse_seconds(s).map(Seconds)
}

/// A memory limit in MiB (`0` and `none` mean no limit), in bytes.
#[derive(Copy, Clone, Debug, Default)]
pub struct Megabytes(pub Option<u64>);

pub(crate) fn parse_mb(s: &str) -> Result<Megabytes, String> {
    cove_control::parse_megabytes(s).map(Megabytes)
}

/// `--timeout` and `--memory-mb`.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Wall-clock limit in seconds (a finite non-negative number; 0 or `inf` = none). Every
    /// phase (reading, preprocessing, solving, checking) stops at it with `unknown`.
    #[arg(long, value_name = "SECS", value_parser = parse_secs, default_value = "0")]
    pub timeout: Seconds,
    /// Memory limit in MiB (0 = none). Reaching it ends with `unknown` (reason: memory).
    #[arg(long, value_name = "MIB", value_parser = parse_mb, default_value = "0")]
    pub memory_mb: Megabytes,
}

impl LimitArgs {
    /// The control for a run under these limits; installs the memory limits, Ctrl-C and the
    /// watchdog that answers `unknown` for the answers still owed ([`OWED`]) when a phase
    /// overruns the deadline.
    pub fn control(&self, verbosity: u32) -> Control {
        let ctl = self.control_without_watchdog(verbosity);
        if let Some(d) = ctl.deadline {
            start_watchdog(d + WATCHDOG_SLACK);
        }
        ctl
    }

    /// [`LimitArgs::control`] without the process watchdog, for commands whose library call
    /// keeps the clock itself ([`cove::solve_file()`]).
    pub fn control_without_watchdog(&self, verbosity: u32) -> Control {
        let mut ctl = Control {
            verbosity,
            ..Control::default()
        };
        if let Some(t) = self.timeout.0 {
            ctl = ctl.with_timeout(t);
        }
        if let Some(bytes) = self.memory_mb.0 {
            ctl = ctl.with_memory_limit(bytes);
            // Engines poll the soft limit; a single allocation that jumps far past it hits the
            // hard limit, where the allocator ends the run with `unknown` instead of aborting.
            memory::set_hard_limit(bytes.saturating_add(bytes / 4).saturating_add(64 << 20));
        }
        install_interrupt(&ctl);
        ctl
    }
}

/// Every phase polls the deadline; should one not (a bug), the user still gets `unknown`
/// for each answer owed within the limit plus one second, never a run past its limit.
fn start_watchdog(at: Instant) {
    let _ = std::thread::Builder::new()
        .name("watchdog".into())
        .spawn(move || {
            loop {
                let now = Instant::now();
                if now >= at {
                    break;
                }
                std::thread::sleep(at - now);
            }
            let owed = OWED.lock().unwrap_or_else(|e| e.into_inner());
            for _ in 0..*owed {
                memory::raw_write(1, unknown_text(false));
            }
            memory::raw_write(2, b"cove: time limit reached; a phase did not stop in time (please report this input)\n");
            memory::raw_exit(crate::EXIT_OK as i32)
        });
}

/// Writes one answer (under [`OWED`]'s lock) and counts it as paid.
pub fn write_answer(text: &str) {
    use std::io::Write as _;
    let mut owed = OWED.lock().unwrap_or_else(|e| e.into_inner());
    let mut so = std::io::stdout().lock();
    let _ = so.write_all(text.as_bytes());
    let _ = so.flush();
    *owed = owed.saturating_sub(1);
}

/// Ctrl-C stops the run through `ctl` (the answer becomes `unknown`); a second Ctrl-C ends
/// the process at once.
fn install_interrupt(ctl: &Control) {
    let flag = ctl.interrupt.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.is_set() {
            memory::raw_write(2, b"cove: interrupted twice, exiting\n");
            memory::raw_exit(130);
        }
        flag.set();
    });
}

/// The allocator's last resort when memory runs out (hard limit or refused by the system):
/// the answer is `unknown`, written without allocating, and the process ends with code 0
/// (an answer was printed). Nothing else has been written to stdout at that point: the
/// commands print their answer in one write at the end.
pub fn out_of_memory(_requested: usize) -> ! {
    memory::raw_write(1, unknown_text(true));
    memory::raw_write(2, b"cove: out of memory: answer unknown (reason: memory)\n");
    memory::raw_exit(crate::EXIT_OK as i32)
}
