//! Solves one DIMACS file and prints the competition output (exit code 10/20/0), like the
//! `cove sat FILE.cnf` command: `cargo run --release -p cove-sat --example dimacs -- FILE
//! [TIMEOUT_SECS]`.

use std::path::PathBuf;

fn main() {
    let Some(path) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: dimacs FILE.cnf");
        std::process::exit(1);
    };
    let start = std::time::Instant::now();
    let limits = cove_sat::Limits {
        deadline: std::env::args()
            .nth(2)
            .and_then(|s| s.parse::<u64>().ok())
            .map(|secs| start + std::time::Duration::from_secs(secs)),
        ..Default::default()
    };
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
