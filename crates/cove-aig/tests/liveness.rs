//! Justice properties: random small circuits decided by the driver against an explicit-state
//! search for fair lassos, and hand-written designs with known answers.

use cove_aig::driver::EngineChoice;
use cove_aig::driver::{SolveConfig, Validation, solve};
use cove_aig::hwmcc_output::{format_properties_of, parse_witnesses_of};
use cove_aig::trace_check::check_lasso;
use cove_aig::{ALit, Aig, And, Control, Init, Latch, Verdict, lit_val, parse_aiger};
use cove_testkit::Rng;

/// A random circuit with 1–4 latches, 0–2 inputs, one or two justice properties of 0–2
/// literals, sometimes a fairness constraint, an invariant constraint or a bad property.
fn random_aig(r: &mut Rng) -> Aig {
    let ni = r.below(3) as u32;
    let nl = 1 + r.below(4) as u32;
    let na = 1 + r.below(10) as u32;
    let mut a = Aig {
        max_var: ni + nl + na,
        ..Aig::default()
    };
    a.inputs = (1..=ni).collect();
    let lit = |r: &mut Rng, below: u32| (2 * r.below(below as usize) as u32) | r.flip() as u32;
    for k in 0..na {
        let v = ni + nl + 1 + k;
        a.ands.push(And {
            var: v,
            rhs0: lit(r, v),
            rhs1: lit(r, v),
        });
    }
    let m = a.max_var + 1;
    for k in 0..nl {
        let init = match r.below(4) {
            0 => Init::One,
            1 => Init::Free,
            _ => Init::Zero,
        };
        a.latches.push(Latch {
            var: ni + 1 + k,
            next: lit(r, m),
            init,
        });
    }
    for _ in 0..1 + r.below(2) {
        let n = r.below(3);
        a.justice.push((0..n).map(|_| lit(r, m)).collect());
    }
    if r.chance(1, 3) {
        a.fairness.push(lit(r, m));
    }
    if r.chance(1, 4) {
        a.constraints.push(lit(r, m));
    }
    if r.chance(1, 4) {
        a.bad.push(lit(r, m));
    }
    a
}

/// One step of `a` from latch values `s` (bit `i` = latch `i`) under input values `inp`:
/// the values of all variables.
fn step(a: &Aig, s: usize, inp: usize) -> Vec<bool> {
    let state: Vec<bool> = (0..a.latches.len()).map(|i| s >> i & 1 == 1).collect();
    let inputs: Vec<bool> = (0..a.inputs.len()).map(|i| inp >> i & 1 == 1).collect();
    a.eval_step(&state, &inputs)
}

fn next_state(a: &Aig, vals: &[bool]) -> usize {
    a.latches
        .iter()
        .enumerate()
        .map(|(i, l)| (lit_val(vals, l.next) as usize) << i)
        .sum()
}

/// Explicit-state answer for justice property `j`: is there a reachable cycle of
/// constraint-respecting transitions on which every literal of `j` and every fairness
/// literal holds on some transition? (A transition's literal values are those of its source
/// state under its inputs, as in the AIGER witness semantics.)
#[allow(clippy::needless_range_loop)]
fn fails(a: &Aig, j: usize) -> bool {
    let ns = 1usize << a.latches.len();
    let nin = 1usize << a.inputs.len();
    let lits: Vec<ALit> = a.justice[j].iter().chain(&a.fairness).copied().collect();
    // edges[s] = (input, successor, literal mask).
    let mut edges: Vec<Vec<(usize, u32)>> = vec![Vec::new(); ns];
    for s in 0..ns {
        for i in 0..nin {
            let vals = step(a, s, i);
            if a.constraints.iter().all(|&c| lit_val(&vals, c)) {
                let mask = lits
                    .iter()
                    .enumerate()
                    .map(|(k, &x)| (lit_val(&vals, x) as u32) << k)
                    .sum();
                edges[s].push((next_state(a, &vals), mask));
            }
        }
    }
    // reach[s][t]: t is reachable from s in zero or more steps.
    let mut reach = vec![vec![false; ns]; ns];
    for s in 0..ns {
        let mut stack = vec![s];
        reach[s][s] = true;
        while let Some(x) = stack.pop() {
            for &(y, _) in &edges[x] {
                if !reach[s][y] {
                    reach[s][y] = true;
                    stack.push(y);
                }
            }
        }
    }
    let init_ok = |s: usize| {
        a.latches.iter().enumerate().all(|(i, l)| match l.init {
            Init::Zero => s >> i & 1 == 0,
            Init::One => s >> i & 1 == 1,
            Init::Free => true,
        })
    };
    let reachable: Vec<bool> = (0..ns)
        .map(|t| (0..ns).any(|s| init_ok(s) && reach[s][t]))
        .collect();
    let full = (1u32 << lits.len()) - 1;
    // For each reachable state s, the literals on edges inside its strongly connected
    // component: a fair lasso exists iff some component with an internal edge has them all.
    (0..ns).any(|s| {
        if !reachable[s] {
            return false;
        }
        let mut mask = 0;
        let mut internal = false;
        for x in 0..ns {
            if !(reach[s][x] && reach[x][s]) {
                continue;
            }
            for &(y, m) in &edges[x] {
                if reach[s][y] && reach[y][s] {
                    internal = true;
                    mask |= m;
                }
            }
        }
        internal && mask == full
    })
}

#[test]
fn random_justice_properties_agree_with_explicit_search() {
    let ctl = Control::default().with_work_budget(50_000_000);
    let mut r = Rng::new(20261127);
    let (mut failing, mut holding) = (0, 0);
    for case in 0..150 {
        let a = random_aig(&mut r);
        let out = solve(&a, &SolveConfig::default(), &ctl);
        assert!(
            !out.validation.is_failed(),
            "case {case}: {:?}",
            out.validation
        );
        assert_eq!(out.properties.len(), a.bad.len() + a.justice.len());
        let nb = a.bad.len();
        for j in 0..a.justice.len() {
            let expect = fails(&a, j);
            match &out.properties[nb + j] {
                Verdict::Unsafe(t) => {
                    assert!(expect, "case {case}: j{j} reported failing, holds\n{a:?}");
                    assert_eq!(t.bad_index, nb + j);
                    check_lasso(&a, t, j).expect("the lasso replays");
                    failing += 1;
                }
                Verdict::Safe(_) => {
                    assert!(!expect, "case {case}: j{j} reported holding, fails\n{a:?}");
                    holding += 1;
                }
                Verdict::Unknown(why) => panic!("case {case}: j{j} undecided: {why}\n{a:?}"),
            }
        }
        // The printed witnesses read back and replay.
        let text = format_properties_of(&out.properties, nb);
        let ws = parse_witnesses_of(&text, Some(nb)).expect("witnesses parse");
        assert_eq!(ws.len(), out.properties.len());
        for w in ws.iter().filter(|w| w.status == 1) {
            let p = w.properties[0];
            if p >= nb {
                check_lasso(&a, w.trace.as_ref().expect("trace"), p - nb).expect("replays");
            }
        }
    }
    assert!(
        failing > 20 && holding > 20,
        "{failing} failing, {holding} holding"
    );
}

/// A justice property's literals describe the *failure*: it fails when they can all hold
/// infinitely often on a fair path. Here a grant latch follows the input `req` one step later,
/// and the justice property is "grant infinitely often": it fails (request, then not, and
/// again). With the fairness constraint "the latch `quiet` (1 until the first grant) is 1
/// infinitely often", a fair path never grants, so the property holds.
const ARBITER: &str = "aag 2 1 1 0 0 0 0 1 0\n2\n4 2\n1\n4\n";
const ARBITER_FAIR: &str = "aag 4 1 2 0 1 0 0 1 1\n2\n4 2\n6 8 1\n1\n4\n6\n8 6 5\n";

#[test]
fn grants_with_and_without_fairness() {
    let ctl = Control::default();
    let a = parse_aiger(ARBITER.as_bytes()).expect("parses");
    let out = solve(&a, &SolveConfig::default(), &ctl);
    assert!(
        matches!(out.verdict, Verdict::Unsafe(_)),
        "{:?}",
        out.verdict
    );
    assert_eq!(out.validation, Validation::Valid);
    let text = format_properties_of(&out.properties, 0);
    assert!(text.starts_with("1\nj0\n"), "{text}");
    let fair = parse_aiger(ARBITER_FAIR.as_bytes()).expect("parses");
    for engine in ["portfolio", "ic3"] {
        let cfg = SolveConfig {
            engine: EngineChoice::parse(engine).expect("engine"),
            ..SolveConfig::default()
        };
        let out = solve(&fair, &cfg, &ctl);
        assert!(
            matches!(out.verdict, Verdict::Safe(_)),
            "{engine}: {:?}",
            out.verdict
        );
        assert_eq!(out.validation, Validation::Valid);
        assert_eq!(
            format_properties_of(&out.properties, 0),
            "0\nj0\n.\n",
            "{engine}"
        );
    }
}

/// A lasso that does not close, or misses a literal on its loop, is refused.
#[test]
fn bad_lassos_are_refused() {
    let a = parse_aiger(ARBITER.as_bytes()).expect("parses");
    let t = |inputs: &[bool]| cove_aig::Trace {
        init: vec![false],
        inputs: inputs.iter().map(|&b| vec![b]).collect(),
        bad_index: 0,
    };
    // Never request: the grant latch stays 0, the loop closes at once, but the grant is
    // never seen on it.
    assert!(check_lasso(&a, &t(&[false]), 0).is_err());
    // Request, then stop: states 0, 1, 0 — the loop from step 0 sees the grant at step 1.
    assert_eq!(check_lasso(&a, &t(&[true, false]), 0), Ok(0));
    // Request forever from state 0: states 0, 1, 1 — the loop closes at step 1.
    assert_eq!(check_lasso(&a, &t(&[true, true]), 0), Ok(1));
    // Not closed: states 0, 1 then 1 again only after a third step.
    assert!(check_lasso(&a, &t(&[true]), 0).is_err());
}

/// The per-property manifest `tests/data/properties.tsv` (also run by `.ci/run`'s harness
/// step): several bad-state properties, justice properties, fairness. Every design gets every
/// property's known answer from the default portfolio (and, on the small ones, from IC3 too)
/// within a work budget, with the printed witnesses replaying; on designs small enough for the
/// explicit search, that search confirms the manifest's justice answers first, so the manifest
/// is checked and not only trusted. The 12-client arbiters are left to the harness (seconds
/// each): here they must only never contradict the manifest.
#[test]
fn property_manifest_designs_have_their_known_answers() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let manifest = std::fs::read_to_string(dir.join("properties.tsv")).expect("properties.tsv");
    let ctl = Control::default().with_work_budget(200_000_000);
    let (mut files, mut confirmed) = (0, 0);
    for line in manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 3, "track<TAB>path<TAB>answers: {line}");
        let file = fields[1];
        let a = parse_aiger(&std::fs::read(dir.join(file)).expect("design")).expect("parses");
        let want: Vec<(String, bool)> = fields[2]
            .split_whitespace()
            .map(|p| {
                let (name, v) = p.split_once('=').expect("name=answer");
                (name.to_string(), v == "1")
            })
            .collect();
        assert_eq!(want.len(), a.bad.len() + a.justice.len(), "{file}");
        let small = a.latches.len() + a.inputs.len() <= 16;
        if small {
            for (j, (_, fail)) in want[a.bad.len()..].iter().enumerate() {
                assert_eq!(
                    fails(&a, j),
                    *fail,
                    "{file}: explicit search disagrees on j{j}"
                );
            }
            confirmed += 1;
        }
        let large = a.latches.len() > 30;
        let engines: &[&str] = if small {
            &["portfolio", "ic3"]
        } else {
            &["portfolio"]
        };
        for engine in engines {
            let cfg = SolveConfig {
                engine: EngineChoice::parse(engine).expect("engine"),
                ..SolveConfig::default()
            };
            let out = solve(&a, &cfg, &ctl);
            assert_eq!(out.validation, Validation::Valid, "{file} {engine}");
            let text = format_properties_of(&out.properties, a.bad.len());
            let ws = parse_witnesses_of(&text, Some(a.bad.len())).expect("parses");
            for w in &ws {
                for &p in &w.properties {
                    let name = cove_aig::hwmcc_output::property_name(p, a.bad.len());
                    let (_, fail) = want.iter().find(|(n, _)| *n == name).expect("listed");
                    if w.status != 2 {
                        assert_eq!(w.status == 1, *fail, "{file} {engine} {name}:\n{text}");
                    } else {
                        assert!(large, "{file} {engine}: {name} unanswered:\n{text}");
                    }
                }
            }
            for w in ws.iter().filter(|w| w.status == 1) {
                let p = w.properties[0];
                let t = w.trace.as_ref().expect("trace");
                if p >= a.bad.len() {
                    check_lasso(&a, t, p - a.bad.len()).expect("lasso replays");
                } else {
                    let mut t = t.clone();
                    cove_aig::trace_check::check_trace_of(&a, &mut t, p).expect("replays");
                }
            }
        }
        files += 1;
    }
    assert_eq!(files, 27);
    assert!(
        confirmed >= 12,
        "{confirmed} designs confirmed by the explicit search"
    );
}
