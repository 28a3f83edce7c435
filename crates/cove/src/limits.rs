//! The limit flags every subcommand shares (`--timeout`, `--memory-mb`), and the process-wide
//! parts of enforcing them: Ctrl-C and the allocator's emergency exit.

use clap::Args;
use cove_control::{Control, memory};
use std::time::Duration;

/// A time limit as the user wrote it (`0`, `inf` and `none` mean no limit).
#[derive(Copy, Clone, Debug, Default)]
pub struct Seconds(pub Option<Duration>);

fn parse_secs(s: &str) -> Result<Seconds, String> {
    cove_control::parse_seconds(s).map(Seconds)
}

/// A memory limit in MiB (`0` and `none` mean no limit), in bytes.
#[derive(Copy, Clone, Debug, Default)]
pub struct Megabytes(pub Option<u64>);

fn parse_mb(s: &str) -> Result<Megabytes, String> {
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
    /// The control for a run under these limits; installs the memory limits and Ctrl-C.
    pub fn control(&self, verbosity: u32) -> Control {
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
    memory::raw_write(1, b"unknown\n");
    memory::raw_write(2, b"cove: out of memory: answer unknown (reason: memory)\n");
    memory::raw_exit(crate::EXIT_OK as i32)
}
