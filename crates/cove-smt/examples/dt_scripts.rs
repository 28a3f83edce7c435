//! Writes random datatype scripts (the generator of `tests/dtgen`) for the differential run
//! against z3 (`scripts/smt/differential-dt.py`).
//!
//! `cargo run --release -p cove-smt --example dt_scripts -- N SEED DIR`: writes
//! `DIR/dt-SEED-I.smt2` for I in 0..N (even I: planted, satisfiable by construction).

#[path = "../tests/dtgen/mod.rs"]
mod dtgen;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let dir = args.get(3).cloned().unwrap_or_else(|| ".".into());
    std::fs::create_dir_all(&dir).expect("output directory");
    let mut rng = cove_testkit::Rng::new(seed);
    for i in 0..n {
        let s = dtgen::generate(&mut rng, i % 2 == 0);
        let path = format!("{dir}/dt-{seed}-{i}.smt2");
        std::fs::write(&path, s.to_smtlib()).expect("write");
    }
}
