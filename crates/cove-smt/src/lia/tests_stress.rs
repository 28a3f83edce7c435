//! Stress tests, probes and regression cases for the integer layer: a timing probe and a
//! z3 differential test (both `#[ignore]`), and hard unbounded cases found by the
//! differential runs, which must be decided within the default budgets.

use super::tests::{c, check_model, encode, q};
use super::*;
use crate::simplex::testutil::{Cons, Rng, lin_of, random_cons};
use crate::simplex::{BoundTag, Rel, Simplex, TVar};

/// Hard satisfiable unbounded cases (from differential runs) are solved with the defaults.
#[test]
fn hard_unbounded_cases_are_decided() {
    for (n, cons) in [hard_case(), hard_case2(), hard_case3()] {
        let ints = vec![true; n];
        let (res, vars) = super::tests::solve_lia(&ints, &cons);
        match res {
            LiaResult::Sat(m) => check_model(&ints, &cons, &vars, &m),
            r => panic!("expected sat, got {r:?}"),
        }
    }
}

/// Timing probe on larger random problems (run with `--ignored --nocapture`).
#[test]
#[ignore]
fn perf_probe() {
    use std::time::Instant;
    let mut rng = Rng::new(5150);
    // Sparse, small coefficients (the CHC shape), incremental DPLL(T)-like use.
    for (nvars, ncons, rounds) in [(50usize, 100usize, 50), (200, 400, 10), (1000, 2000, 2)] {
        let t = Instant::now();
        let (mut sat, mut pivots, mut checks) = (0, 0, 0);
        for _ in 0..rounds {
            let mut sx = Simplex::new();
            let vars: Vec<TVar> = (0..nvars).map(|_| sx.add_var(false)).collect();
            let cons: Vec<Cons> = (0..ncons)
                .map(|_| random_cons(&mut rng, nvars, 3, 2, 30, 1))
                .collect();
            let rows: Vec<_> = cons
                .iter()
                .map(|c| sx.add_row(&lin_of(c, &vars)).unwrap())
                .collect();
            for (i, c) in cons.iter().enumerate() {
                sx.push();
                let ok = sx
                    .assert_rel(&rows[i], c.rel, &q(c.rhs), BoundTag(i as u32))
                    .is_ok()
                    && sx.check().is_ok();
                checks += 1;
                if !ok {
                    sx.pop(1);
                } else {
                    sat += 1;
                }
                let _ = sx.implied_bounds();
            }
            pivots += sx.stats().pivots;
        }
        println!(
            "sparse LRA {nvars}x{ncons}: {rounds} rounds, {checks} checks, {sat} kept, {pivots} pivots, {:?}",
            t.elapsed()
        );
    }
    for (nvars, ncons, rounds) in [(20usize, 40usize, 200), (40, 80, 10)] {
        let t = Instant::now();
        let (mut sat, mut pivots) = (0, 0);
        for _ in 0..rounds {
            let cons: Vec<Cons> = (0..ncons)
                .map(|_| random_cons(&mut rng, nvars, 5, 9, 40, 0))
                .collect();
            let mut sx = Simplex::new();
            let vars: Vec<TVar> = (0..nvars).map(|_| sx.add_var(false)).collect();
            let mut ok = true;
            for (i, c) in cons.iter().enumerate() {
                let rr = sx.add_row(&lin_of(c, &vars)).unwrap();
                ok &= sx
                    .assert_rel(&rr, c.rel, &q(c.rhs), BoundTag(i as u32))
                    .is_ok();
                if ok && i % 4 == 3 {
                    ok &= sx.check().is_ok();
                }
            }
            if ok && sx.check().is_ok() {
                sat += 1;
            }
            pivots += sx.stats().pivots;
        }
        println!(
            "LRA {nvars}x{ncons}: {rounds} rounds, {sat} sat, {pivots} pivots, {:?}",
            t.elapsed()
        );
    }
    // Planted integer solutions: equalities and inequalities that hold at a random point,
    // unbounded otherwise (the CHC shape: x' = x + 2*k, ...). Sat must be found.
    for (nvars, ncons, rounds) in [(8usize, 8usize, 200), (20, 20, 50), (60, 60, 10)] {
        let t = Instant::now();
        let (mut sat, mut unk, mut nodes, mut cuts) = (0, 0, 0, 0);
        for _ in 0..rounds {
            let point: Vec<i64> = (0..nvars).map(|_| rng.range(-20, 20)).collect();
            let ints = vec![true; nvars];
            let cons: Vec<Cons> = (0..ncons)
                .map(|i| {
                    let mut c = random_cons(&mut rng, nvars, 3, 3, 1, 0);
                    let val: i64 = c.lin.iter().map(|(v, a)| a * point[*v]).sum();
                    c.rel = if i % 2 == 0 { Rel::Eq } else { Rel::Le };
                    c.rhs = val + if c.rel == Rel::Eq { 0 } else { rng.range(0, 2) };
                    c
                })
                .collect();
            let mut s = LiaSolver::default();
            let vars: Vec<TVar> = ints.iter().map(|&i| s.add_var(i)).collect();
            for (i, c) in cons.iter().enumerate() {
                let rr = s.add_row(&lin_of(c, &vars)).unwrap();
                s.assert_rel(&rr, c.rel, &q(c.rhs), BoundTag(i as u32));
            }
            match s.solve() {
                LiaResult::Sat(m) => {
                    sat += 1;
                    check_model(&ints, &cons, &vars, &m);
                }
                LiaResult::Unsat(_) => panic!("planted solution refuted"),
                LiaResult::Unknown(_) => unk += 1,
            }
            nodes += s.stats().nodes;
            cuts += s.stats().cuts;
        }
        println!(
            "planted LIA {nvars}x{ncons}: {rounds} rounds sat {sat} unknown {unk} nodes {nodes} cuts {cuts} {:?}",
            t.elapsed()
        );
    }
    for (nvars, neqs, rounds) in [(8usize, 5usize, 200), (16, 10, 50), (30, 20, 10)] {
        let t = Instant::now();
        let (mut sat, mut unsat, mut unk, mut nodes, mut cuts) = (0, 0, 0, 0, 0);
        for _ in 0..rounds {
            let ints = vec![true; nvars];
            let mut cons: Vec<Cons> = (0..neqs)
                .map(|_| {
                    let mut c = random_cons(&mut rng, nvars, 4, 3, 10, 0);
                    c.rel = Rel::Eq;
                    c
                })
                .collect();
            for i in 0..nvars {
                if rng.chance(1, 2) {
                    cons.push(Cons {
                        lin: vec![(i, 1)],
                        rel: Rel::Ge,
                        rhs: 0,
                    });
                }
                if rng.chance(1, 3) {
                    cons.push(Cons {
                        lin: vec![(i, 1)],
                        rel: Rel::Le,
                        rhs: 20,
                    });
                }
            }
            let mut s = LiaSolver::default();
            let vars: Vec<TVar> = ints.iter().map(|&i| s.add_var(i)).collect();
            for (i, c) in cons.iter().enumerate() {
                let rr = s.add_row(&lin_of(c, &vars)).unwrap();
                s.assert_rel(&rr, c.rel, &q(c.rhs), BoundTag(i as u32));
            }
            match s.solve() {
                LiaResult::Sat(m) => {
                    sat += 1;
                    check_model(&ints, &cons, &vars, &m);
                }
                LiaResult::Unsat(_) => unsat += 1,
                LiaResult::Unknown(_) => unk += 1,
            }
            nodes += s.stats().nodes;
            cuts += s.stats().cuts;
        }
        println!(
            "LIA {nvars} vars {neqs} eqs: {rounds} rounds sat {sat} unsat {unsat} unknown {unk} nodes {nodes} cuts {cuts} {:?}",
            t.elapsed()
        );
    }
}

/// Differential test against z3 on unbounded random LIA/LRA conjunctions (run with
/// `--ignored --nocapture`; skipped when no `z3` binary is found via `$Z3` or `PATH`).
#[test]
#[ignore]
fn differential_against_z3() {
    use std::io::Write;
    let z3 = std::env::var("Z3").unwrap_or_else(|_| "z3".to_string());
    if std::process::Command::new(&z3)
        .arg("-version")
        .output()
        .is_err()
    {
        println!("z3 not found; skipped");
        return;
    }
    let env = |k: &str, d: u64| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let mut rng = Rng::new(env("SEED", 31337));
    let max_vars = env("MAXV", 10) as i64;
    let all_int = env("ALLINT", 0) == 1;
    let (mut agree, mut unknown) = (0, 0);
    let mut script = String::new();
    let mut ours = Vec::new();
    let mut problems = Vec::new();
    for round in 0..800 {
        let big = round % 2 == 1;
        let nvars = rng.range(2, if big { max_vars } else { 6 }) as usize;
        let ints: Vec<bool> = (0..nvars)
            .map(|_| all_int || round % 3 != 0 || rng.chance(1, 2))
            .collect();
        let ncons = rng.range(2, if big { max_vars + 4 } else { 8 });
        let (coef, eqw) = if env("CHC", 0) == 1 { (2, 6) } else { (6, 3) };
        let cons: Vec<Cons> = (0..ncons)
            .map(|_| random_cons(&mut rng, nvars, 4, coef, 12, eqw))
            .collect();
        let t = std::time::Instant::now();
        let res = encode(&ints, &cons);
        if t.elapsed().as_millis() > 500 {
            println!(
                "slow ({:?}, {}): {:?}",
                t.elapsed(),
                matches!(res, LiaResult::Sat(_)),
                (&ints, &cons)
            );
        }
        script.push_str("(push 1)\n");
        for (i, &is_int) in ints.iter().enumerate() {
            script.push_str(&format!(
                "(declare-const x{i} {})\n",
                if is_int { "Int" } else { "Real" }
            ));
        }
        for c in &cons {
            let terms: Vec<String> = c
                .lin
                .iter()
                .map(|(v, a)| format!("(* {} x{v})", lit(*a, ints[*v])))
                .collect();
            let op = match c.rel {
                Rel::Le => "<=",
                Rel::Lt => "<",
                Rel::Ge => ">=",
                Rel::Gt => ">",
                Rel::Eq => "=",
            };
            let all_int = c.lin.iter().all(|(v, _)| ints[*v]);
            script.push_str(&format!(
                "(assert ({op} (+ 0 {}) {}))\n",
                terms.join(" "),
                lit(c.rhs, all_int)
            ));
        }
        script.push_str("(check-sat)\n(pop 1)\n");
        ours.push(res);
        problems.push((ints, cons));
    }
    let mut child = std::process::Command::new(&z3)
        .args(["-in", "-smt2"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn z3");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let answers: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.trim().to_string())
        .collect();
    assert_eq!(answers.len(), ours.len(), "z3 output: {answers:?}");
    for (i, (z, o)) in answers.iter().zip(&ours).enumerate() {
        match (z.as_str(), o) {
            ("sat", LiaResult::Sat(_)) | ("unsat", LiaResult::Unsat(_)) => agree += 1,
            (_, LiaResult::Unknown(r)) => {
                unknown += 1;
                println!("unknown ({r:?}) where z3 says {z}: {:?}", problems[i]);
                if let Ok(path) = std::env::var("DUMP") {
                    std::fs::write(path, format!("{:?}", problems[i])).unwrap();
                }
            }
            _ => panic!("round {i}: z3 says {z}, we say {o:?}"),
        }
    }
    println!("z3 differential: {agree} agree, {unknown} unknown (ours)");
}

fn lit(n: i64, int: bool) -> String {
    let s = if int {
        format!("{}", n.abs())
    } else {
        format!("{}.0", n.abs())
    };
    if n < 0 { format!("(- {s})") } else { s }
}

fn hard_case() -> (usize, Vec<Cons>) {
    (
        25,
        vec![
            c(&[(4, 5)], Rel::Gt, -8),
            c(&[(10, -5), (14, -3), (4, 2), (0, 1)], Rel::Lt, -6),
            c(&[(21, 3), (8, -6), (0, -1)], Rel::Eq, 2),
            c(&[(4, -5)], Rel::Le, 11),
            c(&[(12, -4), (20, 6), (5, -1)], Rel::Eq, -9),
            c(&[(21, -1), (20, -1), (23, -2)], Rel::Eq, 7),
            c(&[(1, 6)], Rel::Gt, 8),
            c(&[(7, -1), (24, 4), (3, 3)], Rel::Eq, 4),
            c(&[(14, 2), (3, 6)], Rel::Lt, 12),
            c(&[(18, 6), (20, -1)], Rel::Ge, -8),
            c(&[(15, -4), (9, -6), (5, -3), (1, 1)], Rel::Eq, 6),
            c(&[(0, 2), (2, -1), (15, -2)], Rel::Eq, 8),
            c(&[(21, -1), (7, 6), (23, 1), (9, 3)], Rel::Gt, 10),
            c(&[(3, -1), (1, -6)], Rel::Le, -4),
            c(&[(12, -3)], Rel::Le, -10),
            c(&[(1, 3), (11, -1)], Rel::Eq, -5),
            c(&[(18, 3), (11, 6), (4, 3), (1, -6)], Rel::Eq, 0),
            c(&[(15, -5)], Rel::Ge, 11),
            c(&[(11, 2), (24, -5), (13, 5)], Rel::Gt, -12),
            c(&[(17, -1), (10, 4), (13, -5)], Rel::Eq, 6),
            c(&[(24, 6)], Rel::Le, -8),
            c(&[(6, 3), (24, 2), (3, -4)], Rel::Eq, 11),
            c(&[(23, -4), (13, -5)], Rel::Ge, -6),
            c(&[(0, -4)], Rel::Gt, 7),
            c(&[(21, -2), (4, -6), (7, 4), (9, 5)], Rel::Eq, 1),
            c(&[(6, 3), (15, -5), (7, -6)], Rel::Eq, 9),
            c(&[(16, 2)], Rel::Le, 7),
            c(&[(16, -6), (22, 5), (8, 6), (1, -1)], Rel::Gt, -10),
            c(&[(23, 5), (3, -1), (19, 2)], Rel::Eq, -6),
            c(&[(3, -4), (0, -6), (6, -2), (2, 4)], Rel::Eq, -8),
            c(&[(21, 2), (2, 5), (4, -4), (6, -1)], Rel::Eq, -7),
            c(&[(12, -4), (4, 2)], Rel::Eq, 12),
            c(&[(18, 2), (13, -5), (8, 6)], Rel::Gt, 10),
            c(&[(16, 5)], Rel::Le, -10),
        ],
    )
}

/// Probe of configurations on a hard satisfiable unbounded case (run with `--ignored`).
#[test]
#[ignore]
fn hard_case_probe() {
    for (n, cons) in [hard_case(), hard_case2(), hard_case3()] {
        for (eager, period, max_cuts) in [
            (32u64, 8u64, 128u64),
            (32, 4, 128),
            (64, 8, 256),
            (32, 16, 64),
        ] {
            let t = std::time::Instant::now();
            let cfg = LiaConfig {
                max_nodes: 5000,
                max_depth: 200,
                int: IntConfig {
                    eager_cuts: eager,
                    cut_period: period,
                    max_cuts,
                },
            };
            let mut s = LiaSolver::new(cfg);
            let vars: Vec<TVar> = (0..n).map(|_| s.add_var(true)).collect();
            for (i, cn) in cons.iter().enumerate() {
                let rr = s.add_row(&lin_of(cn, &vars)).unwrap();
                s.assert_rel(&rr, cn.rel, &q(cn.rhs), BoundTag(i as u32));
            }
            let r = s.solve();
            let r = match r {
                LiaResult::Sat(_) => "sat".to_string(),
                o => format!("{o:?}"),
            };
            println!(
                "eager {eager} period {period} max_cuts {max_cuts}: {r} {:?} {:?} pivots {}",
                s.stats(),
                t.elapsed(),
                s.simplex().stats().pivots
            );
        }
    }
}
fn hard_case2() -> (usize, Vec<Cons>) {
    (
        13,
        vec![
            c(&[(4, -2), (11, -4), (9, -1)], Rel::Eq, -1),
            c(&[(0, -1), (1, -5)], Rel::Gt, 8),
            c(&[(3, -5)], Rel::Gt, 12),
            c(&[(4, 4), (3, -5), (6, 5), (2, 3)], Rel::Eq, 0),
            c(&[(9, 2), (12, -5), (11, 2), (7, 1)], Rel::Eq, 2),
            c(&[(2, 5), (5, -5), (6, 1)], Rel::Le, -5),
            c(&[(12, 4), (2, -1), (8, 5), (4, 1)], Rel::Eq, -6),
            c(&[(12, 3), (5, 5), (11, 3), (3, -4)], Rel::Gt, -6),
            c(&[(3, 1), (9, 3), (7, 3)], Rel::Eq, 11),
            c(&[(2, -4), (11, 1), (8, -6)], Rel::Eq, 11),
            c(&[(3, 1), (5, -4)], Rel::Ge, -10),
            c(&[(1, -5), (0, -1), (5, 1), (10, 5)], Rel::Ge, -3),
            c(&[(5, -5)], Rel::Ge, -4),
            c(&[(3, 2), (1, 5), (2, -3)], Rel::Lt, 11),
            c(&[(7, 5)], Rel::Le, -10),
            c(&[(10, -3), (11, -6)], Rel::Lt, -12),
        ],
    )
}

fn hard_case3() -> (usize, Vec<Cons>) {
    (
        20,
        vec![
            c(&[(7, 2), (2, 5), (9, -1), (17, 1)], Rel::Lt, 4),
            c(&[(7, -5)], Rel::Gt, 2),
            c(&[(5, -5), (17, -6), (3, -1)], Rel::Eq, 9),
            c(&[(14, 6), (7, -5), (15, 3), (6, 3)], Rel::Eq, -11),
            c(&[(15, 3)], Rel::Gt, 8),
            c(&[(4, 6), (6, -5), (11, -4)], Rel::Gt, 6),
            c(&[(9, -1), (19, 1), (5, -2), (1, 6)], Rel::Eq, -2),
            c(&[(3, -5), (8, -2), (0, -5), (19, 4)], Rel::Lt, -9),
            c(&[(18, -2), (2, 3), (15, -6), (8, -5)], Rel::Ge, 8),
            c(&[(6, -6), (14, -3)], Rel::Ge, 6),
            c(&[(6, -6), (2, -2), (3, 2)], Rel::Eq, 4),
            c(&[(9, 1), (19, 6), (3, -5)], Rel::Eq, -3),
            c(&[(4, -5), (13, 6), (8, -6), (5, 6)], Rel::Le, -11),
            c(&[(9, 2), (13, -6), (4, -4)], Rel::Lt, 0),
            c(&[(19, 2)], Rel::Ge, -11),
            c(&[(13, 2), (1, 3), (12, 1), (2, -4)], Rel::Gt, -11),
            c(&[(7, -1), (14, 1), (9, -4)], Rel::Ge, -1),
            c(&[(2, -3)], Rel::Gt, -3),
            c(&[(0, 3), (1, -3), (14, 6), (5, -6)], Rel::Ge, 5),
            c(&[(10, 2), (7, -4)], Rel::Lt, -3),
            c(&[(7, -5), (16, -3), (19, 2), (6, 6)], Rel::Eq, -9),
            c(&[(9, 2), (2, 3), (0, -6), (17, 1)], Rel::Eq, -2),
            c(&[(4, -6)], Rel::Le, -8),
        ],
    )
}
