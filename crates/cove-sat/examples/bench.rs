//! Benchmark: generates CNF instances, solves them with cove-sat (the `dimacs` example binary)
//! and, when it is installed, with `minisat`, and prints CPU times (user + system, measured by
//! `/usr/bin/time`) side by side. Results of the two solvers are asserted to agree.
//!
//! Usage: `cargo run --release -p cove-sat --example bench -- [--quick] [--timeout SECS]
//! [--minisat PATH] [--dir DIR] [--filter SUBSTR]`. Instances are written to DIR (default: a
//! fresh directory under the system temp dir) so they can be re-run by hand.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use cove_sat::dimacs::Cnf;
use cove_sat::{Lit, SolveResult, Var};

/// The generators the integration tests use (random k-SAT, pigeonhole), shared by path.
#[path = "../tests/common/mod.rs"]
mod common;

use common::Rng;

/// A CNF under construction, with Tseitin gate helpers.
#[derive(Default)]
struct Builder {
    vars: u32,
    clauses: Vec<Vec<Lit>>,
}

impl Builder {
    fn var(&mut self) -> Lit {
        self.vars += 1;
        Lit::new(Var(self.vars - 1), false)
    }
    fn add(&mut self, c: &[Lit]) {
        self.clauses.push(c.to_vec());
    }
    fn and(&mut self, a: Lit, b: Lit) -> Lit {
        let o = self.var();
        self.add(&[!o, a]);
        self.add(&[!o, b]);
        self.add(&[o, !a, !b]);
        o
    }
    fn or(&mut self, a: Lit, b: Lit) -> Lit {
        !self.and(!a, !b)
    }
    fn xor(&mut self, a: Lit, b: Lit) -> Lit {
        let o = self.var();
        self.add(&[!o, a, b]);
        self.add(&[!o, !a, !b]);
        self.add(&[o, !a, b]);
        self.add(&[o, a, !b]);
        o
    }
    fn full_add(&mut self, a: Lit, b: Lit, c: Lit) -> (Lit, Lit) {
        let t = self.xor(a, b);
        let s = self.xor(t, c);
        let c1 = self.and(a, b);
        let c2 = self.and(t, c);
        (s, self.or(c1, c2))
    }
    fn adder(&mut self, a: &[Lit], b: &[Lit]) -> Vec<Lit> {
        let mut carry = self.var();
        self.add(&[!carry]);
        let mut out = Vec::new();
        for i in 0..a.len() {
            let (s, c) = self.full_add(a[i], b[i], carry);
            out.push(s);
            carry = c;
        }
        out
    }
    /// Shift-and-add multiplier, truncated to `a.len()` bits.
    fn multiplier(&mut self, a: &[Lit], b: &[Lit]) -> Vec<Lit> {
        let n = a.len();
        let zero = self.var();
        self.add(&[!zero]);
        let mut acc = vec![zero; n];
        for (i, &bi) in b.iter().enumerate() {
            let mut row = vec![zero; n];
            for j in 0..n - i {
                row[i + j] = self.and(a[j], bi);
            }
            acc = self.adder(&acc, &row);
        }
        acc
    }
    /// Asserts that the two bit vectors differ somewhere.
    fn miter(&mut self, x: &[Lit], y: &[Lit]) {
        let diffs: Vec<Lit> = x.iter().zip(y).map(|(&a, &b)| self.xor(a, b)).collect();
        self.add(&diffs);
    }
    fn cnf(self) -> Cnf {
        Cnf {
            num_vars: self.vars as usize,
            clauses: self.clauses,
        }
    }
}

fn random_3sat(n: usize, ratio: f64, seed: u64) -> Cnf {
    let mut rng = Rng::new(seed);
    let m = (n as f64 * ratio).round() as usize;
    Cnf {
        num_vars: n,
        clauses: common::random_ksat(&mut rng, n, m, 3),
    }
}

fn pigeonhole(n: usize) -> Cnf {
    let (num_vars, clauses) = common::pigeonhole(n);
    Cnf { num_vars, clauses }
}

fn adder_miter(bits: usize) -> Cnf {
    let mut b = Builder::default();
    let x: Vec<Lit> = (0..bits).map(|_| b.var()).collect();
    let y: Vec<Lit> = (0..bits).map(|_| b.var()).collect();
    let s1 = b.adder(&x, &y);
    let s2 = b.adder(&y, &x);
    b.miter(&s1, &s2);
    b.cnf()
}

fn mult_miter(bits: usize) -> Cnf {
    let mut b = Builder::default();
    let x: Vec<Lit> = (0..bits).map(|_| b.var()).collect();
    let y: Vec<Lit> = (0..bits).map(|_| b.var()).collect();
    let p1 = b.multiplier(&x, &y);
    let p2 = b.multiplier(&y, &x);
    b.miter(&p1, &p2);
    b.cnf()
}

/// k-coloring of a random graph with `n` nodes and `m` edges.
fn coloring(n: usize, m: usize, k: usize, seed: u64) -> Cnf {
    let mut rng = Rng::new(seed);
    let col = |v: usize, c: usize| Var((v * k + c) as u32);
    let mut clauses: Vec<Vec<Lit>> = Vec::new();
    for v in 0..n {
        clauses.push((0..k).map(|c| Lit::new(col(v, c), false)).collect());
        for c in 0..k {
            for d in c + 1..k {
                clauses.push(vec![Lit::new(col(v, c), true), Lit::new(col(v, d), true)]);
            }
        }
    }
    for _ in 0..m {
        let a = rng.below_u64(n as u64) as usize;
        let b = rng.below_u64(n as u64) as usize;
        if a != b {
            for c in 0..k {
                clauses.push(vec![Lit::new(col(a, c), true), Lit::new(col(b, c), true)]);
            }
        }
    }
    Cnf {
        num_vars: n * k,
        clauses,
    }
}

fn to_dimacs(cnf: &Cnf) -> String {
    let mut s = format!("p cnf {} {}\n", cnf.num_vars, cnf.clauses.len());
    for c in &cnf.clauses {
        for l in c {
            let _ = write!(s, "{} ", l.to_dimacs());
        }
        s.push_str("0\n");
    }
    s
}

fn suite(quick: bool) -> Vec<(String, Cnf)> {
    let mut v = Vec::new();
    let sizes: &[(usize, u64)] = if quick {
        &[(200, 2), (250, 1)]
    } else {
        &[(200, 3), (250, 3), (300, 3), (350, 2), (400, 2)]
    };
    for &(n, seeds) in sizes {
        for seed in 1..=seeds {
            v.push((
                format!("rand3-{n}-s{seed}"),
                random_3sat(n, 4.26, seed * 1000 + n as u64),
            ));
        }
    }
    let php: &[usize] = if quick { &[8] } else { &[8, 9, 10] };
    for &n in php {
        v.push((format!("php-{}-{n}", n + 1), pigeonhole(n)));
    }
    v.push(("adder-miter-64".into(), adder_miter(64)));
    let mults: &[usize] = if quick { &[6] } else { &[6, 7, 8] };
    for &n in mults {
        v.push((format!("mult-miter-{n}"), mult_miter(n)));
    }
    let colors: &[(usize, u64)] = if quick {
        &[(150, 1)]
    } else {
        &[(150, 1), (200, 2), (250, 3)]
    };
    for &(n, seed) in colors {
        // 4-coloring near the threshold (average degree about 8.4).
        v.push((
            format!("color4-{n}-s{seed}"),
            coloring(n, n * 42 / 10, 4, seed),
        ));
    }
    v
}

/// Runs `cmd` under `/usr/bin/time` and returns its exit code and CPU time (user + system),
/// which is robust against other load on the machine, unlike wall time.
fn timed(cmd: &mut Command) -> Option<(Option<i32>, Duration)> {
    let out = cmd.output().ok()?;
    let err = String::from_utf8_lossy(&out.stderr);
    let last = err.lines().rev().find(|l| l.starts_with("cpu "))?;
    let mut it = last
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse::<f64>().unwrap_or(0.0));
    let secs = it.next()? + it.next()?;
    Some((out.status.code(), Duration::from_secs_f64(secs)))
}

fn time_cmd(bin: &Path) -> Command {
    let mut c = Command::new("/usr/bin/time");
    c.arg("-f").arg("cpu %U %S").arg(bin);
    c
}

fn result_of(code: Option<i32>) -> SolveResult {
    match code {
        Some(10) => SolveResult::Sat,
        Some(20) => SolveResult::Unsat,
        _ => SolveResult::Unknown,
    }
}

/// cove-sat through the `dimacs` example binary (which checks its model before printing).
fn run_cove(dimacs_bin: &Path, path: &Path, timeout: Duration) -> Option<(SolveResult, Duration)> {
    let mut c = time_cmd(dimacs_bin);
    c.arg(path).arg(timeout.as_secs().to_string());
    let (code, t) = timed(&mut c)?;
    Some((result_of(code), t))
}

fn run_minisat(bin: &str, path: &Path, timeout: Duration) -> Option<(SolveResult, Duration)> {
    let mut c = time_cmd(Path::new(bin));
    c.arg(format!("-cpu-lim={}", timeout.as_secs().max(1)))
        .arg("-verb=0")
        .arg(path);
    let (code, t) = timed(&mut c)?;
    Some((result_of(code), t))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1).cloned())
    };
    let quick = args.iter().any(|a| a == "--quick");
    let dimacs_bin = std::env::current_exe()
        .expect("own path")
        .with_file_name("dimacs");
    let timeout = Duration::from_secs(opt("--timeout").and_then(|s| s.parse().ok()).unwrap_or(60));
    let minisat = opt("--minisat").unwrap_or_else(|| "minisat".into());
    let filter = opt("--filter");
    let dir = opt("--dir").map(PathBuf::from).unwrap_or_else(|| {
        std::env::temp_dir().join(format!("cove-sat-bench-{}", std::process::id()))
    });
    std::fs::create_dir_all(&dir).expect("create instance directory");
    println!("instances in {}", dir.display());
    println!(
        "{:<18} {:>7} {:>8} {:>8} {:>10} {:>10} {:>7}",
        "instance", "vars", "clauses", "result", "cove cpu", "minisat", "ratio"
    );
    let (mut tc, mut tm) = (0.0, 0.0);
    for (name, cnf) in suite(quick) {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let path = dir.join(format!("{name}.cnf"));
        std::fs::write(&path, to_dimacs(&cnf)).expect("write instance");
        let Some((rc, dc)) = run_cove(&dimacs_bin, &path, timeout) else {
            eprintln!("cannot run {} under /usr/bin/time", dimacs_bin.display());
            std::process::exit(1);
        };
        let ms = run_minisat(&minisat, &path, timeout);
        if let Some((rm, _)) = ms {
            let decided = |r| r != SolveResult::Unknown;
            if decided(rc) && decided(rm) {
                assert_eq!(rc, rm, "cove-sat and minisat disagree on {name}");
            }
        }
        let (ms_s, ratio) = match ms {
            Some((_, dm)) => {
                tc += dc.as_secs_f64();
                tm += dm.as_secs_f64();
                (
                    format!("{:.3}", dm.as_secs_f64()),
                    format!("{:.2}", dc.as_secs_f64() / dm.as_secs_f64().max(1e-3)),
                )
            }
            None => ("-".into(), "-".into()),
        };
        println!(
            "{:<18} {:>7} {:>8} {:>8} {:>10.3} {:>10} {:>7}",
            name,
            cnf.num_vars,
            cnf.clauses.len(),
            format!("{rc:?}"),
            dc.as_secs_f64(),
            ms_s,
            ratio
        );
    }
    if tm > 0.0 {
        println!(
            "total: cove {tc:.2}s, minisat {tm:.2}s, ratio {:.2}",
            tc / tm
        );
    }
}
