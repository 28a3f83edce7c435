//! Differential testing against z3 on random QF_LIA / QF_LRA formulas.
//!
//! `cargo run --release -p cove-smt --example difftest -- N SEED [BATCH] [TIMEOUT_S] [large]`
//!
//! Formulas come from the tests' generator, `tests/common/mod.rs` (sizes, coefficient ranges and Boolean depth
//! vary per formula). Each batch is written as one SMT-LIB2 file of
//! `(push)(declare..)(assert ..)(check-sat)(pop)` blocks and run through one z3 process;
//! our answers come from the `SmtSolver` API with every model evaluated against the
//! formula. Disagreements (sat vs unsat) are written to `difftest-fail-SEED-I.smt2` in the
//! current directory and counted; unknowns (either side) are counted separately.

use cove_logic::{TermStore, Value};
#[path = "../tests/common/mod.rs"]
mod common;

use common::{GenConfig, declarations, generate, term_to_smtlib};
use cove_smt::{SmtResult, SmtSolver};
use std::io::Write;
use std::process::Command;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let batch: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(500);
    let timeout: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(10);
    let large = args.get(5).is_some_and(|s| s == "large");
    let mut rng = common::rng(seed);
    let (
        mut done,
        mut sat,
        mut unsat,
        mut ours_unknown,
        mut z3_unknown,
        mut disagree,
        mut bad_models,
    ) = (0usize, 0usize, 0usize, 0usize, 0usize, 0usize, 0usize);
    let (mut our_time, mut z3_time) = (Duration::ZERO, Duration::ZERO);
    while done < n {
        let m = batch.min(n - done);
        let mut script = String::from("(set-option :print-success false)\n(set-logic ALL)\n");
        let mut texts = Vec::with_capacity(m);
        let mut ours = Vec::with_capacity(m);
        for _ in 0..m {
            let mut store = TermStore::new();
            let int = rng.chance(1, 2);
            let mut cfg = GenConfig::random(&mut rng, int);
            if large && rng.chance(1, 3) {
                // Larger instances now and then.
                cfg.conjuncts *= 3;
                cfg.vars += 4;
            }
            let g = generate(&mut store, &mut rng, &cfg);
            let text = format!(
                "{}(assert {})\n",
                declarations(&store, &g),
                term_to_smtlib(&store, g.formula)
            );
            script.push_str("(push 1)\n");
            script.push_str(&text);
            script.push_str("(check-sat)\n(pop 1)\n");
            let mut s = SmtSolver::new();
            s.set_limits(cove_sat::Limits {
                control: cove_control::Control {
                    deadline: Some(Instant::now() + Duration::from_secs(timeout)),
                    ..Default::default()
                },
                ..Default::default()
            });
            let t0 = Instant::now();
            s.assert(&mut store, g.formula);
            let r = s.check(&mut store);
            our_time += t0.elapsed();
            if r == SmtResult::Sat {
                let model = s.model(&store);
                if model.eval(&store, g.formula) != Ok(Value::Bool(true)) {
                    bad_models += 1;
                    eprintln!("bad model for formula {}", done + texts.len());
                }
            }
            texts.push(text);
            ours.push(r);
        }
        let path =
            std::env::temp_dir().join(format!("difftest-{seed}-{}.smt2", std::process::id()));
        std::fs::write(&path, &script).expect("write batch");
        let t0 = Instant::now();
        let out = Command::new("z3")
            .arg("-T:600")
            .arg(format!("-t:{}", timeout * 1000))
            .arg(&path)
            .output()
            .expect("run z3");
        z3_time += t0.elapsed();
        let _ = std::fs::remove_file(&path);
        let answers: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.trim().to_string())
            .filter(|l| {
                matches!(l.as_str(), "sat" | "unsat" | "unknown" | "timeout")
                    || l.starts_with("(error")
            })
            .collect();
        if answers.len() != m {
            eprintln!(
                "z3 gave {} answers for {m} queries; stderr: {}",
                answers.len(),
                String::from_utf8_lossy(&out.stderr)
            );
            for a in answers.iter().filter(|a| a.starts_with("(error")).take(3) {
                eprintln!("  {a}");
            }
        }
        for (i, r) in ours.iter().enumerate() {
            let z = answers.get(i).map(String::as_str).unwrap_or("missing");
            let ours_s = match r {
                SmtResult::Sat => "sat",
                SmtResult::Unsat => "unsat",
                SmtResult::Unknown(_) => "unknown",
            };
            match (ours_s, z) {
                ("sat", "sat") => sat += 1,
                ("unsat", "unsat") => unsat += 1,
                ("unknown", _) => ours_unknown += 1,
                (_, "sat" | "unsat") => {
                    disagree += 1;
                    let f = format!("difftest-fail-{seed}-{}.smt2", done + i);
                    let mut file = std::fs::File::create(&f).expect("create");
                    let _ = writeln!(file, "; cove: {ours_s}  z3: {z}\n{}(check-sat)", texts[i]);
                    eprintln!("DISAGREEMENT #{}: cove {ours_s}, z3 {z} -> {f}", done + i);
                }
                _ => z3_unknown += 1,
            }
        }
        done += m;
        eprintln!(
            "{done}/{n}: agree sat {sat} unsat {unsat}; cove unknown {ours_unknown}; z3 unknown {z3_unknown}; disagreements {disagree}; bad models {bad_models}; time cove {:.1}s z3 {:.1}s",
            our_time.as_secs_f64(),
            z3_time.as_secs_f64()
        );
    }
    println!(
        "formulas {n} seed {seed}: agree {} (sat {sat}, unsat {unsat}), cove unknown {ours_unknown}, z3 unknown {z3_unknown}, disagreements {disagree}, bad models {bad_models}, time cove {:.1}s z3 {:.1}s",
        sat + unsat,
        our_time.as_secs_f64(),
        z3_time.as_secs_f64()
    );
    if disagree > 0 || bad_models > 0 {
        std::process::exit(1);
    }
}
