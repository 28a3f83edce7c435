//! Preprocessing: every pass, alone and in the pipeline, on small systems and the corpus.
//! Each test solves the preprocessed system with Spacer, translates the witness back and
//! validates it with the independent checker against the ORIGINAL system.

use cove_chc::cert::{check_derivation, check_invariants};
use cove_chc::engines::spacer::Spacer;
use cove_chc::frontend::parse_chc;
use cove_chc::preprocess::{
    self, BackTranslate, Pipeline, PreprocessConfig, SystemSize, args, bounds, inline, reach, simp,
};
use cove_chc::{ChcResult, ChcSystem, Control, Engine};
use cove_logic::TermStore;
use std::path::Path;
use std::time::{Duration, Instant};

mod common;

fn parse(store: &mut TermStore, src: &str) -> ChcSystem {
    parse_chc(src.as_bytes(), store).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

fn far_ctl() -> Control {
    Control {
        deadline: Some(far()),
        ..Default::default()
    }
}

fn far() -> Instant {
    Instant::now() + Duration::from_secs(300)
}

/// Solves `small` (the result of preprocessing `orig`) with Spacer on `work` units,
/// translates the answer back through `pipe` and, unless it is unknown, validates it with the
/// independent checker against `orig`, panicking with `ctx` and the checker's message.
fn solve_through_pipeline(
    store: &mut TermStore,
    orig: &ChcSystem,
    small: &ChcSystem,
    pipe: &Pipeline,
    work: u64,
    ctx: &dyn std::fmt::Display,
) -> ChcResult {
    let ctl = common::work_control(work);
    let r = Spacer::default().solve(store, small, &ctl);
    common::report_work(&ctl, work, "preprocessed", r.verdict());
    let limits = far_ctl();
    let r = pipe.result(store, r, &limits);
    match &r {
        ChcResult::Sat(inv) => {
            check_invariants(store, orig, inv, &limits).unwrap_or_else(|e| panic!("{ctx}: {e}"))
        }
        ChcResult::Unsat(d) => {
            check_derivation(store, orig, d).unwrap_or_else(|e| panic!("{ctx}: {e}"))
        }
        ChcResult::Unknown(_) => {}
    }
    r
}

/// Solves `small` with Spacer, back-translates with `bt` and validates against `orig`.
/// Returns the verdict.
fn solve_back_check(
    store: &mut TermStore,
    orig: &ChcSystem,
    small: &ChcSystem,
    bt: &dyn BackTranslate,
    work: u64,
) -> &'static str {
    let ctl = common::work_control(work);
    let r = Spacer::default().solve(store, small, &ctl);
    common::report_work(&ctl, work, "preprocessed", r.verdict());
    let limits = far_ctl();
    match r {
        ChcResult::Sat(inv) => {
            let back = bt
                .invariants(store, inv, &limits)
                .expect("invariants translate back");
            check_invariants(store, orig, &back, &limits)
                .unwrap_or_else(|e| panic!("invalid invariants: {e}"));
            "sat"
        }
        ChcResult::Unsat(d) => {
            let back = bt
                .derivation(store, d, &limits)
                .expect("derivation translates back");
            check_derivation(store, orig, &back)
                .unwrap_or_else(|e| panic!("invalid derivation: {e}\n{back:?}"));
            "unsat"
        }
        ChcResult::Unknown(r) => panic!("unknown: {r}"),
    }
}

const SIMP_SAFE: &str = "(set-logic HORN)
(declare-fun inv (Int Bool) Bool)
(assert (forall ((x Int) (b Bool)) (=> (and (= x 0) b) (inv x b))))
(assert (forall ((x Int) (y Int) (b Bool) (c Bool))
  (=> (and (inv x b) (< x 10) (= y (+ x 1)) (= c (not b))) (inv y c))))
(assert (forall ((x Int) (b Bool)) (=> (and (inv x b) (> x 5) (< x 3)) false)))
(assert (forall ((x Int) (b Bool)) (=> (and (inv x b) (> x 10)) false)))
";

const SIMP_UNSAFE: &str = "(set-logic HORN)
(declare-fun inv (Int Bool) Bool)
(assert (forall ((x Int) (b Bool)) (=> (and (= x 0) b) (inv x b))))
(assert (forall ((x Int) (y Int) (z Int) (b Bool) (c Bool))
  (=> (and (inv x b) (= z 2) (= y (+ x z)) (= c (not b))) (inv y c))))
(assert (forall ((x Int) (b Bool)) (=> (and (inv x b) (= x 6) (not b)) false)))
";

#[test]
fn simplify_pass_drops_unsat_clauses_and_propagates_equalities() {
    for (src, want) in [(SIMP_SAFE, "sat"), (SIMP_UNSAFE, "unsat")] {
        let mut store = TermStore::new();
        let sys = parse(&mut store, src);
        let (small, bt) = simp::run(&mut store, &sys, 1000, &far_ctl());
        if want == "sat" {
            assert_eq!(
                small.clauses.len(),
                sys.clauses.len() - 1,
                "the unsatisfiable query is dropped"
            );
        }
        let vars_before: usize = sys.clauses.iter().map(|c| c.vars.len()).sum();
        let vars_after: usize = small.clauses.iter().map(|c| c.vars.len()).sum();
        assert!(vars_after < vars_before, "equalities eliminate variables");
        assert_eq!(
            solve_back_check(&mut store, &sys, &small, &bt, 20_000),
            want
        );
    }
}

const REACH: &str = "(set-logic HORN)
(declare-fun inv (Int) Bool)
(declare-fun never (Int) Bool)
(declare-fun aside (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int)) (=> (and (inv x) (< x 10)) (inv (+ x 1)))))
(assert (forall ((x Int)) (=> (never x) (never (+ x 1)))))
(assert (forall ((x Int)) (=> (and (never x) (inv x)) false)))
(assert (forall ((x Int)) (=> (inv x) (aside x))))
(assert (forall ((x Int)) (=> (and (aside x) (> x 0)) (aside (- x 1)))))
(assert (forall ((x Int)) (=> (and (inv x) (> x BOUND)) false)))
";

#[test]
fn reachability_pass_removes_dead_predicates() {
    for (bound, want) in [("10", "sat"), ("7", "unsat")] {
        let mut store = TermStore::new();
        let sys = parse(&mut store, &REACH.replace("BOUND", bound));
        let (small, bt) = reach::run(&mut store, &sys);
        assert_eq!(small.preds.len(), 1, "only inv remains");
        assert_eq!(small.clauses.len(), 3);
        assert_eq!(
            solve_back_check(&mut store, &sys, &small, &bt, 20_000),
            want
        );
    }
}

const INLINE: &str = "(set-logic HORN)
(declare-fun even (Int) Bool)
(declare-fun sum (Int) Bool)
(declare-fun start (Int) Bool)
(declare-fun loop (Int Int) Bool)
(assert (forall ((x Int) (z Int)) (=> (and (= x (* 2 z)) (>= z 0) (<= z 3)) (even x))))
(assert (forall ((x Int) (y Int)) (=> (and (even x) (even y)) (sum (+ x y)))))
(assert (forall ((s Int)) (=> (sum s) (start s))))
(assert (forall ((s Int)) (=> (start s) (loop s 0))))
(assert (forall ((s Int) (i Int)) (=> (and (loop s i) (< i 3)) (loop (+ s 2) (+ i 1)))))
(assert (forall ((s Int) (i Int)) (=> (and (loop s i) QUERY) false)))
";

#[test]
fn inline_pass_inlines_single_definitions() {
    for (q, want) in [("(= (mod s 2) 1)", "sat"), ("(> s 17)", "unsat")] {
        let mut store = TermStore::new();
        let sys = parse(&mut store, &INLINE.replace("QUERY", q));
        let (small, bt) = inline::run(&mut store, &sys, 1000, &far_ctl());
        assert_eq!(
            small.preds.len(),
            1,
            "even, sum and start are inlined: {:?}",
            small.to_smtlib(&store)
        );
        assert_eq!(
            solve_back_check(&mut store, &sys, &small, &bt, 20_000),
            want
        );
    }
}

/// Solidity's transfer of funds: `pay` writes `balances[this] + funds` with `funds` bound
/// only in that write, and a loop keeps paying. Inlined, `pay`'s invariant needs `funds`
/// eliminated from under the array write: the read `b[t] = a[t] + funds` it implies defines
/// `funds` (`preprocess::util::store_read`), where quantifier elimination gives up.
const FUNDS: &str = "(set-logic HORN)
(declare-fun pay (Int (Array Int Int) (Array Int Int)) Bool)
(declare-fun inv (Int (Array Int Int)) Bool)
(assert (forall ((t Int) (a (Array Int Int)) (b (Array Int Int)) (f Int))
  (=> (and (>= f 0) (= b (store a t (+ (select a t) f)))) (pay t a b))))
(assert (forall ((t Int) (a (Array Int Int))) (=> (= (select a t) 0) (inv t a))))
(assert (forall ((t Int) (a (Array Int Int)) (b (Array Int Int)))
  (=> (and (inv t a) (pay t a b)) (inv t b))))
(assert (forall ((t Int) (a (Array Int Int))) (=> (and (inv t a) QUERY) false)))
";

#[test]
fn inlined_array_writes_give_their_bound_values_back() {
    for (q, want) in [
        ("(< (select a t) 0)", "sat"),
        ("(> (select a t) 5)", "unsat"),
    ] {
        let mut store = TermStore::new();
        let sys = parse(&mut store, &FUNDS.replace("QUERY", q));
        let (small, bt) = inline::run(&mut store, &sys, 1000, &far_ctl());
        assert_eq!(small.preds.len(), 1, "pay is inlined");
        assert_eq!(
            solve_back_check(&mut store, &sys, &small, &bt, 200_000),
            want
        );
    }
}

/// `x` walks between -100 and 100 in steps of `y`, and `y` flips sign at the ends: safe,
/// but the invariant `-100 <= x + y <= 100` needs `-1 <= y <= 1`, which no query mentions.
const SWING: &str = "(set-logic HORN)
(declare-fun inv (Int Int) Bool)
(assert (forall ((x Int) (y Int)) (=> (and (= x 0) (= y 1)) (inv x y))))
(assert (forall ((x Int) (y Int) (x1 Int) (y1 Int))
  (=> (and (inv x y) (= x1 (+ x y))
           (= y1 (ite (and (> x1 (- 100)) (< x1 100)) y (- y))))
      (inv x1 y1))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x y) QUERY) false)))
";

#[test]
fn bounds_pass_adds_the_inductive_bounds() {
    for (q, want) in [("(> x 100)", "sat"), ("(= x 4)", "unsat")] {
        let mut store = TermStore::new();
        let sys = parse(&mut store, &SWING.replace("QUERY", q));
        let (strong, bt) = bounds::run(&mut store, &sys, &far_ctl());
        // Candidates from x = 0, y = 1: x <= 0 and x >= 0 fail, y <= 1 and y >= -1 stay,
        // y >= 1, y <= -1, y >= 0 and y <= 0 fail.
        assert_eq!(bt.size(), 2, "{}", strong.to_smtlib(&store));
        assert_eq!(strong.clauses.len(), sys.clauses.len());
        assert_eq!(
            solve_back_check(&mut store, &sys, &strong, &bt, 20_000),
            want
        );
    }
    // Nothing inductive among the candidates: the system is returned unchanged.
    let mut store = TermStore::new();
    let sys = parse(
        &mut store,
        "(set-logic HORN)(declare-fun p (Int) Bool)
         (assert (forall ((x Int)) (=> (= x 3) (p x))))
         (assert (forall ((x Int)) (=> (p x) (p (+ x 1)))))
         (assert (forall ((x Int)) (=> (p x) (p (- x 1)))))
         (assert (forall ((x Int)) (=> (and (p x) (= x 1000)) false)))",
    );
    let (same, bt) = bounds::run(&mut store, &sys, &far_ctl());
    assert_eq!(bt.size(), 0);
    assert_eq!(same.to_smtlib(&store), sys.to_smtlib(&store));
}

const ARGS: &str = "(set-logic HORN)
(declare-fun inv (Int Int Int) Bool)
(declare-fun out (Int Int) Bool)
(assert (forall ((x Int) (y Int) (z Int)) (=> (and (= x 0) (= y 7)) (inv x y z))))
(assert (forall ((x Int) (y Int) (z Int) (x1 Int) (z1 Int))
  (=> (and (inv x y z) (< x 5) (= x1 (+ x 1)) (= z1 (* 3 x1))) (inv x1 y z1))))
(assert (forall ((x Int) (y Int) (z Int)) (=> (inv x y z) (out x z))))
(assert (forall ((x Int) (z Int)) (=> (and (out x z) QUERY) false)))
";

#[test]
fn args_pass_drops_unused_arguments() {
    for (q, want) in [("(> x 5)", "sat"), ("(= x 4)", "unsat")] {
        let mut store = TermStore::new();
        let sys = parse(&mut store, &ARGS.replace("QUERY", q));
        let (small, bt) = args::run(&mut store, &sys);
        let before = SystemSize::of(&store, &sys);
        let after = SystemSize::of(&store, &small);
        assert_eq!(
            (before.args, after.args),
            (5, 2),
            "y, z of inv and z of out are unused"
        );
        assert_eq!(
            solve_back_check(&mut store, &sys, &small, &bt, 20_000),
            want
        );
    }
}

#[test]
fn full_pipeline_on_the_small_systems() {
    let systems = [
        (SIMP_SAFE.to_string(), "sat"),
        (SIMP_UNSAFE.to_string(), "unsat"),
        (REACH.replace("BOUND", "10"), "sat"),
        (REACH.replace("BOUND", "7"), "unsat"),
        (INLINE.replace("QUERY", "(= (mod s 2) 1)"), "sat"),
        (INLINE.replace("QUERY", "(> s 17)"), "unsat"),
        (ARGS.replace("QUERY", "(> x 5)"), "sat"),
        (ARGS.replace("QUERY", "(= x 4)"), "unsat"),
    ];
    for (src, want) in systems {
        let mut store = TermStore::new();
        let sys = parse(&mut store, &src);
        let (small, pipe) =
            preprocess::preprocess(&mut store, &sys, &PreprocessConfig::default(), &far_ctl());
        assert_eq!(
            solve_back_check(&mut store, &sys, &small, &pipe, 20_000),
            want,
            "{src}"
        );
    }
}

#[test]
fn corpus_through_the_pipeline_validates_against_the_original() {
    for file in common::corpus_files() {
        let src = std::fs::read_to_string(&file).unwrap();
        let want = if src.contains("; expect: sat") {
            "sat"
        } else {
            "unsat"
        };
        let mut store = TermStore::new();
        let sys = parse(&mut store, &src);
        let (small, pipe) =
            preprocess::preprocess(&mut store, &sys, &PreprocessConfig::default(), &far_ctl());
        let name = file.display();
        // gcnr needs abstraction, swing the bounds pass (off by default; tested above): they
        // may end unknown, so they get a short budget. The others must be decided; their
        // budget is generous because the test shares the cores with the other test threads
        // (deep-unsafe takes about 1 s alone but overran 4 s under load).
        let hard = ["gcnr", "swing"]
            .iter()
            .any(|k| name.to_string().contains(k));
        let work = if hard { 3_000 } else { 30_000 };
        let r = solve_through_pipeline(&mut store, &sys, &small, &pipe, work, &name);
        if let ChcResult::Unknown(why) = &r {
            assert!(hard, "{name}: unknown ({why})");
            continue;
        }
        assert_eq!(r.verdict(), want, "{name}");
    }
}

/// Over the first 60 entries of the shared benchmark manifest: how much preprocessing shrinks
/// the systems, and that every answer obtained through it validates against the original.
/// Run with `cargo test --release -p cove-chc --test preprocess -- --ignored --nocapture`.
#[test]
#[ignore]
fn bench_manifest_shrinks_and_validates() {
    let manifest = Path::new("/work/shared/bench/chc.tsv");
    let Ok(text) = std::fs::read_to_string(manifest) else {
        return;
    };
    let (mut before, mut after) = (SystemSize::default(), SystemSize::default());
    let mut answered = 0;
    for line in text.lines().take(60) {
        let cols: Vec<&str> = line.split('\t').collect();
        let path = manifest.parent().unwrap().join(cols[1]);
        let Ok(src) = std::fs::read(&path) else {
            continue;
        };
        let mut store = TermStore::new();
        let Ok(sys) = parse_chc(&src, &mut store) else {
            continue;
        };
        let (small, pipe) =
            preprocess::preprocess(&mut store, &sys, &PreprocessConfig::default(), &far_ctl());
        let (b, a) = (SystemSize::of(&store, &sys), SystemSize::of(&store, &small));
        println!(
            "{}\t{:?} -> {:?}",
            cols[1],
            (b.clauses, b.preds, b.args),
            (a.clauses, a.preds, a.args)
        );
        before.clauses += b.clauses;
        before.preds += b.preds;
        before.args += b.args;
        after.clauses += a.clauses;
        after.preds += a.preds;
        after.args += a.args;
        let r = solve_through_pipeline(&mut store, &sys, &small, &pipe, 2, &cols[1]);
        if matches!(r, ChcResult::Unknown(_)) {
            continue;
        }
        answered += 1;
        assert!(
            cols.get(2)
                .is_none_or(|w| *w == r.verdict() || *w == "unknown"),
            "{}: wrong answer",
            cols[1]
        );
    }
    println!("total before {before:?}\ntotal after  {after:?}\nanswered and validated: {answered}");
}

/// A tiny deterministic generator of random linear-integer clause systems that exercise all
/// passes: chains of single definitions (inlining), unused and constant arguments,
/// equalities, nonlinear clauses, dead predicates and unsatisfiable constraints.
struct Gen(u64);

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }

    fn system(&mut self) -> String {
        let n = 2 + self.below(4) as usize;
        let arity: Vec<usize> = (0..n).map(|_| 1 + self.below(3) as usize).collect();
        let mut s = String::from("(set-logic HORN)\n");
        for (i, a) in arity.iter().enumerate() {
            s += &format!("(declare-fun P{i} ({}) Bool)\n", vec!["Int"; *a].join(" "));
        }
        let vars = |p: &str, k: usize| (0..k).map(|j| format!("{p}{j}")).collect::<Vec<_>>();
        let decl = |vs: &[String]| {
            vs.iter()
                .map(|v| format!("({v} Int)"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        // Fact for P0.
        let h = vars("h", arity[0]);
        let mut cs: Vec<String> = h
            .iter()
            .map(|v| format!("(= {v} {})", self.below(3)))
            .collect();
        if self.below(2) == 0 {
            cs.pop(); // leave one head argument unconstrained
        }
        cs.push("true".into());
        s += &format!(
            "(assert (forall ({}) (=> (and {}) (P0 {}))))\n",
            decl(&h),
            cs.join(" "),
            h.join(" ")
        );
        for i in 0..n {
            let defs = if i == 0 {
                self.below(2)
            } else {
                1 + self.below(2)
            };
            for _ in 0..defs {
                let j = if i == 0 {
                    0
                } else {
                    self.below(i as u64 + 1) as usize
                };
                let b = vars("b", arity[j]);
                let mut all = b.clone();
                let mut body = format!("(P{j} {})", b.join(" "));
                let mut cs = vec!["true".to_string()];
                if j < i && self.below(3) == 0 {
                    // a nonlinear clause with a second body atom
                    let k = self.below(i as u64) as usize;
                    let c = vars("c", arity[k]);
                    body += &format!(" (P{k} {})", c.join(" "));
                    all.extend(c.clone());
                    cs.push(format!("(<= {} {})", c[0], 4));
                }
                let h = vars("h", arity[i]);
                all.extend(h.clone());
                for v in &h {
                    let src = &b[self.below(b.len() as u64) as usize];
                    cs.push(match self.below(4) {
                        0 => format!("(= {v} (+ {src} {}))", self.below(3)),
                        1 => format!("(= {v} {})", self.below(4)),
                        2 => format!("(= {v} {src})"),
                        _ => format!("(>= {v} 0)"),
                    });
                }
                if j == i {
                    cs.push(format!("(< {} {})", b[0], 3 + self.below(4)));
                }
                if self.below(6) == 0 {
                    cs.push(format!("(> {0} 5) (< {0} 2)", b[0]));
                }
                s += &format!(
                    "(assert (forall ({}) (=> (and {body} {}) (P{i} {}))))\n",
                    decl(&all),
                    cs.join(" "),
                    h.join(" ")
                );
            }
        }
        let q = self.below(n as u64) as usize;
        let x = vars("x", arity[q]);
        let guard = match self.below(3) {
            0 => format!("(> {} {})", x[0], 2 + self.below(6)),
            1 => format!("(= {} {})", x[0], self.below(6)),
            _ => format!("(< (+ {} {}) 0)", x[0], x[x.len() - 1]),
        };
        s += &format!(
            "(assert (forall ({}) (=> (and (P{q} {}) {guard}) false)))\n",
            decl(&x),
            x.join(" ")
        );
        s
    }
}

#[test]
fn random_systems_agree_and_validate() {
    let mut decided = 0;
    let mut verdicts = std::collections::BTreeMap::new();
    let n: u64 = std::env::var("PREP_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    for seed in 0..n {
        let src = Gen(seed * 7919 + 13).system();
        let mut store = TermStore::new();
        let sys = parse(&mut store, &src);
        let ctl = common::work_control(3_000);
        let plain = Spacer::default().solve(&mut store, &sys, &ctl);
        common::report_work(&ctl, 3_000, &format!("plain seed {seed}"), plain.verdict());
        let (small, pipe) =
            preprocess::preprocess(&mut store, &sys, &PreprocessConfig::default(), &far_ctl());
        let ctx = format!("seed {seed}\n{src}");
        let r = solve_through_pipeline(&mut store, &sys, &small, &pipe, 3_000, &ctx);
        *verdicts.entry((plain.verdict(), r.verdict())).or_insert(0) += 1;
        if plain.verdict() != "unknown" && r.verdict() != "unknown" {
            assert_eq!(plain.verdict(), r.verdict(), "seed {seed}\n{src}");
            decided += 1;
        }
    }
    println!("(plain, preprocessed) verdicts: {verdicts:?}");
    assert!(
        decided * 4 >= n as usize * 3,
        "only {decided} random systems decided: {verdicts:?}"
    );
}
