//! Differential test of the datatype routes (issue 62): seeded random CHC systems over
//! records, enumerations, sums with fields and lists, each solved by the portfolio and by
//! single engines, each answer compared with the system's exact meaning.
//!
//! Exact, because every generated clause bounds its variables to a finite domain (integers
//! in `0..=1`, lists of length at most one, and so the fields of every datatype value) by
//! conjuncts of its constraint, so the least fixpoint of the clauses computed over that
//! domain alone is the least fixpoint of the system: `false` is derivable there iff the
//! system is unsafe. Selectors are only applied where a tester guards them, so no clause
//! depends on SMT-LIB's unspecified values (a system whose evaluation still meets one is
//! skipped and counted; none is expected).
//!
//! Each system is solved on the original route (the driver, certificates checked) and, where
//! the preprocessing flattens it, as the flat system alone: the driver would withdraw a wrong
//! flat answer after its check and solve the original instead, which hides the mistake.
//!
//! `COVE_DIFF_DUMP=DIR` writes the systems with their exact answers for
//! `scripts/chc/differential-adt-z3.py`, which compares z3 with them (optional; no test
//! depends on z3).
//!
//! Every run is bounded by a work budget (with a wall-clock backstop that can only turn an
//! answer into `unknown`, always accepted). The CI test runs a few hundred systems;
//! `cargo test --release -p cove-chc --test adt_differential -- --ignored` a few thousand.

use cove_chc::Control;
use cove_chc::driver::{EngineChoice, SolveConfig, Validation, solve};
use cove_chc::frontend::{Query, parse_queries};
use cove_chc::preprocess::adt;
use cove_chc::result::ChcResult;
use cove_chc::system::ChcSystem;
use cove_logic::dt;
use cove_logic::{DtValue, Model, Sort, TermStore, Value};
use rustc_hash::{FxHashMap, FxHashSet};

const DECLS: &str = "(set-logic HORN)
(declare-datatypes ((Mode 0)) (((Idle) (Busy) (Done))))
(declare-datatypes ((Shape 0)) (((circle (r Int)) (rect (w Int) (h Int)) (empty))))
(declare-datatypes ((St 0)) (((mk (cnt Int) (mode Mode)))))
(declare-datatypes ((Lst 0)) (((nil) (cons (hd Int) (tl Lst)))))
";

const SORTS: [&str; 5] = ["Int", "Mode", "Shape", "St", "Lst"];

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// The conjunct that keeps variable `x` of sort `s` inside the finite domain.
fn bound(x: &str, s: &str) -> String {
    let int = |t: String| format!("(<= 0 {t}) (<= {t} 1)");
    match s {
        "Int" => format!("(and {})", int(x.to_string())),
        "Mode" => "true".into(),
        "Shape" => format!(
            "(and (=> (is-circle {x}) (and {})) (=> (is-rect {x}) (and {} {})))",
            int(format!("(r {x})")),
            int(format!("(w {x})")),
            int(format!("(h {x})"))
        ),
        "St" => format!("(and {})", int(format!("(cnt {x})"))),
        "Lst" => format!(
            "(=> (is-cons {x}) (and {} (is-nil (tl {x}))))",
            int(format!("(hd {x})"))
        ),
        _ => unreachable!(),
    }
}

/// An integer term over the clause's variables `vars` (name, sort); selectors guarded.
fn int_term(rng: &mut Rng, vars: &[(String, &str)]) -> String {
    let of = |s: &str| -> Vec<&String> {
        vars.iter()
            .filter(|(_, t)| *t == s)
            .map(|(n, _)| n)
            .collect()
    };
    match rng.below(6) {
        0 => format!("{}", rng.below(2)),
        1 if !of("Int").is_empty() => rng.pick(&of("Int")).to_string(),
        2 if !of("Shape").is_empty() => {
            let xs = of("Shape");
            let x = rng.pick(&xs);
            match rng.below(3) {
                0 => format!("(ite (is-circle {x}) (r {x}) 0)"),
                1 => format!("(ite ((_ is rect) {x}) (w {x}) 1)"),
                _ => format!("(ite (is-rect {x}) (h {x}) 2)"),
            }
        }
        3 if !of("St").is_empty() => format!("(cnt {})", rng.pick(&of("St"))),
        4 if !of("Lst").is_empty() => {
            let xs = of("Lst");
            let x = rng.pick(&xs);
            format!("(ite (is-cons {x}) (hd {x}) 0)")
        }
        _ => format!("{}", rng.below(2)),
    }
}

/// A term of sort `s` (a variable of that sort or a constructor term).
fn term_of(rng: &mut Rng, vars: &[(String, &str)], s: &str) -> String {
    let same: Vec<&String> = vars
        .iter()
        .filter(|(_, t)| *t == s)
        .map(|(n, _)| n)
        .collect();
    if !same.is_empty() && rng.below(2) == 0 {
        return rng.pick(&same).to_string();
    }
    match s {
        "Int" => int_term(rng, vars),
        "Mode" => rng.pick(&["Idle", "Busy", "Done"]).to_string(),
        "Shape" => match rng.below(3) {
            0 => format!("(circle {})", int_term(rng, vars)),
            1 => format!("(rect {} {})", int_term(rng, vars), int_term(rng, vars)),
            _ => "empty".into(),
        },
        "St" => {
            let m = term_of(rng, vars, "Mode");
            format!("(mk {} {m})", int_term(rng, vars))
        }
        "Lst" => match rng.below(2) {
            0 => "nil".into(),
            _ => format!("(cons {} nil)", int_term(rng, vars)),
        },
        _ => unreachable!(),
    }
}

/// An atom over the clause's variables.
fn atom(rng: &mut Rng, vars: &[(String, &str)]) -> String {
    let (x, s) = rng.pick(vars).clone();
    let a = match (s, rng.below(5)) {
        ("Shape", 0) => format!("(=> (is-rect {x}) (= {x} (rect (w {x}) (h {x}))))"),
        ("Shape", 1) => format!("(and (is-rect {x}) (not (= {x} (rect (w {x}) (h {x})))))"),
        ("Shape" | "Mode" | "Lst", 2) => {
            let ctors: &[&str] = match s {
                "Shape" => &["circle", "rect", "empty"],
                "Mode" => &["Idle", "Busy", "Done"],
                _ => &["nil", "cons"],
            };
            format!("((_ is {}) {x})", rng.pick(ctors))
        }
        ("St", 0) => format!("(= (mode {x}) {})", term_of(rng, vars, "Mode")),
        ("Int", _) | (_, 4) => {
            let (a, b) = (int_term(rng, vars), int_term(rng, vars));
            match rng.below(3) {
                0 => format!("(<= {a} {b})"),
                1 => format!("(= {a} (+ {b} 1))"),
                _ => format!("(= {a} {b})"),
            }
        }
        _ => {
            let y = term_of(rng, vars, s);
            if rng.below(2) == 0 {
                format!("(= {x} {y})")
            } else {
                format!("(distinct {x} {y})")
            }
        }
    };
    if rng.below(4) == 0 {
        format!("(not {a})")
    } else {
        a
    }
}

/// A random system: two or three predicates, facts, rules with one or two body atoms, one
/// or two queries.
fn system(rng: &mut Rng) -> String {
    let npreds = 2 + rng.below(2);
    let preds: Vec<Vec<&str>> = (0..npreds)
        .map(|_| (0..1 + rng.below(2)).map(|_| *rng.pick(&SORTS)).collect())
        .collect();
    let mut out = DECLS.to_string();
    for (i, p) in preds.iter().enumerate() {
        out += &format!("(declare-fun P{i} ({}) Bool)\n", p.join(" "));
    }
    let nclauses = 3 + rng.below(4);
    for k in 0..nclauses {
        // Kind: fact, rule, query (at least one of each at fixed places).
        let kind = match k {
            0 => 0,
            1 => 2,
            _ => rng.below(3),
        };
        let mut vars: Vec<(String, &str)> = vec![];
        let app = |vars: &mut Vec<(String, &str)>, p: usize| -> String {
            let mut args = vec![];
            for s in &preds[p] {
                let v = format!("v{}", vars.len());
                vars.push((v.clone(), s));
                args.push(v);
            }
            format!("(P{p} {})", args.join(" "))
        };
        let body: Vec<String> = match kind {
            0 => vec![],
            _ => (0..1 + usize::from(rng.below(3) == 0))
                .map(|_| {
                    let p = rng.below(npreds);
                    app(&mut vars, p)
                })
                .collect(),
        };
        let head = if kind == 2 {
            "false".to_string()
        } else {
            // Head arguments: a body variable of the same sort where there is one (half
            // the time), else a fresh variable.
            let p = rng.below(npreds);
            let mut args = vec![];
            for s in &preds[p] {
                let same: Vec<String> = vars
                    .iter()
                    .filter(|(_, t)| t == s)
                    .map(|(n, _)| n.clone())
                    .collect();
                if !same.is_empty() && rng.below(2) == 0 {
                    args.push(rng.pick(&same).clone());
                } else {
                    let v = format!("v{}", vars.len());
                    vars.push((v.clone(), s));
                    args.push(v);
                }
            }
            format!("(P{p} {})", args.join(" "))
        };
        if rng.below(3) == 0 {
            let s = *rng.pick(&SORTS);
            vars.push((format!("v{}", vars.len()), s));
        }
        let mut conj: Vec<String> = vars.iter().map(|(x, s)| bound(x, s)).collect();
        for _ in 0..1 + rng.below(3) {
            conj.push(atom(rng, &vars));
        }
        conj.extend(body);
        let decl: Vec<String> = vars.iter().map(|(x, s)| format!("({x} {s})")).collect();
        out += &format!(
            "(assert (forall ({}) (=> (and {}) {head})))\n",
            decl.join(" "),
            conj.join(" ")
        );
    }
    out + "(check-sat)\n"
}

/// Every value of `sort` in the bounded domain (integers `0..=1`, recursive fields only
/// their constructor without fields).
fn domain(sort: Sort) -> Vec<Value> {
    match sort {
        Sort::Int => (0..=1).map(|k| Value::Num(k.into())).collect(),
        Sort::Bool => vec![Value::Bool(false), Value::Bool(true)],
        Sort::Dt(_) => {
            let d = dt::def(sort).expect("declared");
            let mut out = vec![];
            for (ci, c) in d.ctors.iter().enumerate() {
                let mut tuples: Vec<Vec<Value>> = vec![vec![]];
                for f in &c.fields {
                    let vals = if f.1 == sort {
                        let base = d.ctors.iter().position(|c| c.fields.is_empty()).unwrap();
                        vec![Value::Dt(std::sync::Arc::new(DtValue {
                            sort,
                            ctor: base as u32,
                            fields: vec![],
                        }))]
                    } else {
                        domain(f.1)
                    };
                    tuples = tuples
                        .into_iter()
                        .flat_map(|t| {
                            vals.iter().map(move |v| {
                                let mut t = t.clone();
                                t.push(v.clone());
                                t
                            })
                        })
                        .collect();
                }
                out.extend(tuples.into_iter().map(|fields| {
                    Value::Dt(std::sync::Arc::new(DtValue {
                        sort,
                        ctor: ci as u32,
                        fields,
                    }))
                }));
            }
            out
        }
        _ => unreachable!("{sort}"),
    }
}

/// Clause instances enumerated per clause and round at most (beyond: the system is skipped).
const MAX_INSTANCES: usize = 20_000;

/// Why a system's exact answer is not computed.
#[derive(Debug)]
enum Skip {
    /// An evaluation met an unspecified value.
    Unspecified,
    /// Too many clause instances to enumerate.
    Large,
}

/// The exact answer: `Ok(true)` safe, `Ok(false)` unsafe.
fn exact_answer(store: &TermStore, sys: &ChcSystem) -> Result<bool, Skip> {
    let mut facts: FxHashMap<cove_logic::FuncId, FxHashSet<Vec<Value>>> = FxHashMap::default();
    loop {
        let mut changed = false;
        for c in &sys.clauses {
            // Assignments: body atoms from facts (arguments are the clause's variables),
            // the other variables over the domain.
            let mut size: usize = 1;
            for app in &c.body {
                size = size.saturating_mul(facts.get(&app.pred).map_or(0, |f| f.len()));
            }
            for &v in &c.vars {
                let bound_by_body = c.body.iter().any(|a| {
                    a.args
                        .iter()
                        .any(|&t| matches!(store.op(t), cove_logic::Op::Var(x) if *x == v))
                });
                if !bound_by_body {
                    size = size.saturating_mul(domain(store.var_sort(v)).len());
                }
            }
            if size > MAX_INSTANCES {
                return Err(Skip::Large);
            }
            let mut partial: Vec<Model> = vec![Model::new()];
            for app in &c.body {
                let mut next = vec![];
                for m in &partial {
                    for f in facts.get(&app.pred).into_iter().flatten() {
                        let mut m2 = m.clone();
                        let mut ok = true;
                        for (&a, v) in app.args.iter().zip(f) {
                            let cove_logic::Op::Var(x) = *store.op(a) else {
                                panic!("generated atoms have variable arguments")
                            };
                            match m2.get(x) {
                                Some(w) if w != v => ok = false,
                                Some(_) => {}
                                None => m2.set(x, v.clone()),
                            }
                        }
                        if ok {
                            next.push(m2);
                        }
                    }
                }
                partial = next;
            }
            for &v in &c.vars {
                let dom = domain(store.var_sort(v));
                partial = partial
                    .into_iter()
                    .flat_map(|m| {
                        if m.get(v).is_some() {
                            return vec![m];
                        }
                        dom.iter()
                            .map(|x| {
                                let mut m2 = m.clone();
                                m2.set(v, x.clone());
                                m2
                            })
                            .collect()
                    })
                    .collect();
            }
            for m in partial {
                match m.eval_kleene(store, c.constraint).expect("evaluates") {
                    None => return Err(Skip::Unspecified),
                    Some(Value::Bool(true)) => {}
                    Some(_) => continue,
                }
                let Some(h) = &c.head else {
                    return Ok(false);
                };
                let vals: Vec<Value> = h
                    .args
                    .iter()
                    .map(|&a| m.eval(store, a).expect("head argument"))
                    .collect();
                changed |= facts.entry(h.pred).or_default().insert(vals);
            }
        }
        if !changed {
            return Ok(true);
        }
    }
}

/// Runs `n` systems from `seed`, each by every engine in `engines`; panics on a wrong
/// answer or a refuted certificate. Returns (safe, unsafe, skipped, answered).
fn run(seed: u64, n: usize, engines: &[&str]) -> (usize, usize, usize, usize) {
    let mut rng = Rng(seed);
    let (mut safe, mut unsafe_, mut skipped, mut answered, mut large) = (0, 0, 0, 0, 0);
    let verbose = std::env::var_os("COVE_DIFF_VERBOSE").is_some();
    // `COVE_DIFF_DUMP=DIR`: each system written to DIR with its exact answer, for
    // `scripts/chc/differential-adt-z3.py` (z3 on the same systems; never needed here).
    let dump = std::env::var_os("COVE_DIFF_DUMP").map(std::path::PathBuf::from);
    if let Some(d) = &dump {
        std::fs::create_dir_all(d).expect("COVE_DIFF_DUMP is a writable folder");
    }
    // `COVE_DIFF_ONLY=k`: only system `k` of the sequence (to look at one while debugging).
    let only: Option<usize> = std::env::var("COVE_DIFF_ONLY")
        .ok()
        .and_then(|s| s.parse().ok());
    let work: u64 = std::env::var("COVE_DIFF_WORK")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(WORK);
    for k in 0..n {
        let src = system(&mut rng);
        if only.is_some_and(|o| o != k) {
            continue;
        }
        if verbose {
            eprintln!("system {k}:\n{src}");
        }
        let mut store = TermStore::new();
        let qs = parse_queries(src.as_bytes(), &mut store, &Control::default())
            .unwrap_or_else(|e| panic!("system {k} does not parse: {e}\n{src}"));
        let t0 = std::time::Instant::now();
        let expect_safe = match exact_answer(&store, &qs[0].system) {
            Ok(b) => b,
            Err(Skip::Large) => {
                large += 1;
                continue;
            }
            Err(Skip::Unspecified) => {
                skipped += 1;
                continue;
            }
        };
        if verbose {
            eprintln!(
                "system {k}: exact answer {expect_safe} in {:?}",
                t0.elapsed()
            );
        }
        if expect_safe {
            safe += 1;
        } else {
            unsafe_ += 1;
        }
        if let Some(dir) = &dump {
            let answer = if expect_safe { "sat" } else { "unsat" };
            std::fs::write(
                dir.join(format!("{seed:x}-{k}.smt2")),
                format!("; expected: {answer}\n{src}"),
            )
            .expect("COVE_DIFF_DUMP is a writable folder");
        }
        // The flat system of the preprocessing (records, enumerations, sums) must mean
        // what the original means: the driver would withdraw a wrong flat answer after its
        // check and solve the original instead, which hides the mistake (issue 62).
        let mut fstore = store.clone();
        let flat = adt::flatten_system(&mut fstore, &qs[0].system, &Control::default())
            .ok()
            .map(|f| Query {
                system: f.system,
                constants: vec![],
                pos: None,
            });
        let routes = [
            Some(("original", &store, &qs[0])),
            flat.as_ref().map(|q| ("flat", &fstore, q)),
        ];
        for (route, st, q) in routes.into_iter().flatten() {
            for engine in engines {
                let cfg = SolveConfig {
                    engine: EngineChoice::parse(engine).expect(engine),
                    threads: 2,
                    ..SolveConfig::default()
                };
                // The work budget bounds the run; the wall-clock backstop only turns a run
                // whose units are slow (BMC's deep unrollings over lists: seconds per
                // thousand conflicts) into `unknown`, which is always accepted here.
                let ctl = Control::default()
                    .with_work_budget(work)
                    .with_timeout(std::time::Duration::from_secs(BACKSTOP_SECS));
                let t0 = std::time::Instant::now();
                let out = solve(st, q, &cfg, &ctl);
                if verbose {
                    eprintln!(
                        "  {route} {engine}: {} in {:?}",
                        answer_name(&out.answer),
                        t0.elapsed()
                    );
                }
                let wrong = match &out.answer {
                    ChcResult::Sat(_) => !expect_safe,
                    ChcResult::Unsat(_) => expect_safe,
                    ChcResult::Unknown(_) => false,
                };
                assert!(
                    !wrong && !matches!(out.validation, Validation::Failed(_)),
                    "system {k} (seed {seed}), {route} system, by {engine}: expected {}, got {} ({:?})\n{src}",
                    if expect_safe { "sat" } else { "unsat" },
                    answer_name(&out.answer),
                    out.validation
                );
                if !matches!(out.answer, ChcResult::Unknown(_)) {
                    answered += 1;
                    assert_eq!(
                        out.validation,
                        Validation::Valid,
                        "system {k}, {route} system, by {engine}\n{src}"
                    );
                }
            }
        }
    }
    assert!(
        only.is_some() || large * 10 < n,
        "{large} of {n} systems too large to enumerate"
    );
    (safe, unsafe_, skipped, answered)
}

/// Work units per engine run (SAT conflicts, calls and decisions; `cove_control`).
const WORK: u64 = 300_000;

/// Seconds after which a run is stopped whatever its budget (see `run`).
const BACKSTOP_SECS: u64 = 3;

const ENGINES: [&str; 4] = ["portfolio", "spacer", "bmc", "kind"];

#[test]
fn adt_differential() {
    let (safe, unsafe_, skipped, answered) = run(0x5eed_0062, n_systems(200), &ENGINES);
    eprintln!("{safe} safe, {unsafe_} unsafe, {skipped} skipped, {answered} answers");
    // The generator makes both kinds, and the engines answer most of them.
    assert!(safe > 20 && unsafe_ > 20, "{safe} safe, {unsafe_} unsafe");
    assert_eq!(
        skipped, 0,
        "systems whose meaning depends on unspecified values"
    );
    assert!(
        answered * 2 > (safe + unsafe_) * ENGINES.len() * 2,
        "{answered} answers of {}",
        (safe + unsafe_) * ENGINES.len() * 2
    );
}

#[test]
#[ignore = "a few thousand systems; run once after a change to the datatype routes"]
fn adt_differential_many() {
    let (safe, unsafe_, skipped, answered) = run(0xfeed_0062, 3000, &ENGINES);
    eprintln!("{safe} safe, {unsafe_} unsafe, {skipped} skipped, {answered} answers");
}

fn answer_name(a: &ChcResult) -> &'static str {
    match a {
        ChcResult::Sat(_) => "sat",
        ChcResult::Unsat(_) => "unsat",
        ChcResult::Unknown(_) => "unknown",
    }
}

/// `COVE_DIFF_SYSTEMS` overrides the number of systems (for a quick look while debugging).
fn n_systems(default: usize) -> usize {
    std::env::var("COVE_DIFF_SYSTEMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}
