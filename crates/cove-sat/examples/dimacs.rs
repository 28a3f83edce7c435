//! Solves one DIMACS file and prints the competition output (exit code 10/20/0), like the
//! `cove sat FILE.cnf` command: `cargo run --release -p cove-sat --example dimacs -- FILE
//! [CPU_SECONDS]`.
//!
//! The optional limit is on CPU time (as MiniSat's `-cpu-lim`), enforced by a watchdog thread
//! that reads `/proc/self/stat` and raises the solver's interrupt flag; where `/proc` is not
//! available it falls back to a wall-clock deadline.

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// CPU time (user + system) of this process, assuming the usual 100 clock ticks per second.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    let Some(path) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: dimacs FILE.cnf [CPU_SECONDS]");
        std::process::exit(1);
    };
    let start = Instant::now();
    let mut limits = cove_sat::Limits::default();
    if let Some(secs) = std::env::args().nth(2).and_then(|s| s.parse::<f64>().ok()) {
        if cpu_seconds().is_some() {
            let flag = limits.control.interrupt.clone();
            std::thread::spawn(move || {
                while cpu_seconds().is_some_and(|t| t < secs) {
                    std::thread::sleep(Duration::from_millis(50));
                }
                flag.set();
            });
        } else {
            limits.control.deadline = Some(start + Duration::from_secs_f64(secs));
        }
    }
    let mut out = std::io::stdout().lock();
    match cove_sat::dimacs::run_dimacs_file(&path, &mut out, &limits) {
        Ok(code) => {
            eprintln!("c time {:.3}s", start.elapsed().as_secs_f64());
            std::process::exit(code)
        }
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            std::process::exit(1);
        }
    }
}
