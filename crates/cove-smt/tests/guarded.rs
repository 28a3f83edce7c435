//! Guarded assertions (`assert_guarded`) and guarded assumptions against plain
//! implications: the same answers on random formulas, and every `sat` model satisfies
//! every assertion and assumption. The guarded solver leaves the variables of bodies whose
//! guards are off undecided, so this is what keeps that relevancy sound.

use cove_logic::{Sort, TermId, TermStore, Value};
use cove_smt::{SmtResult, SmtSolver};
use std::time::{Duration, Instant};

mod common;
use common::{GenConfig, generate};

fn holds(store: &TermStore, s: &SmtSolver, t: TermId) -> bool {
    matches!(s.model(store).eval(store, t), Ok(Value::Bool(true)))
}

#[test]
fn guarded_bodies_agree_with_implications() {
    for (seed, int) in [(11, true), (12, false), (13, true)] {
        guarded_family(seed, int);
    }
}

fn guarded_family(seed: u64, int: bool) {
    let mut rng = common::rng(seed);
    let (mut sat, mut unsat) = (0, 0);
    for case in 0..30 {
        let mut store = TermStore::new();
        let mut cfg = GenConfig::random(&mut rng, int);
        cfg.coef = cfg.coef.min(10);
        let k = 2 + rng.below(4);
        let guards: Vec<TermId> = (0..k)
            .map(|i| {
                let v = store.var(&format!("g{i}"), Sort::Bool);
                store.mk_var(v)
            })
            .collect();
        let bodies: Vec<TermId> = (0..k)
            .map(|_| generate(&mut store, &mut rng, &cfg).formula)
            .collect();
        let mut guarded = SmtSolver::new();
        let mut plain = SmtSolver::new();
        let mut assertions = Vec::new();
        for (i, &b) in bodies.iter().enumerate() {
            // Two-literal guards on odd bodies: g_i ∧ ¬g_{i-1}.
            let gs: Vec<TermId> = if i % 2 == 1 {
                vec![guards[i], store.mk_not(guards[i - 1])]
            } else {
                vec![guards[i]]
            };
            guarded.assert_guarded(&mut store, &gs, b);
            let g = store.mk_and(&gs);
            let imp = store.mk_implies(g, b);
            plain.assert(&mut store, imp);
            assertions.push(imp);
        }
        // Several checks on the same solvers: guards on, off, or left open, plus a compound
        // assumption now and then (assumption selectors are reused across checks).
        for round in 0..4 {
            let mut asm: Vec<TermId> = Vec::new();
            for &g in &guards {
                match rng.below(3) {
                    0 => asm.push(g),
                    1 => asm.push(store.mk_not(g)),
                    _ => {}
                }
            }
            if rng.chance(1, 2) {
                asm.push(generate(&mut store, &mut rng, &cfg).formula);
            }
            // A few random integer problems make branch and bound slow for both solvers;
            // a deadline keeps the test short (unknown answers are not compared).
            for s in [&mut guarded, &mut plain] {
                s.set_limits(cove_sat::Limits {
                    conflicts: Some(5_000),
                    control: cove_control::Control {
                        deadline: Some(Instant::now() + Duration::from_millis(500)),
                        ..Default::default()
                    },
                });
            }
            let rg = guarded.check_assuming(&mut store, &asm);
            let rp = plain.check_assuming(&mut store, &asm);
            let tag = format!("seed {seed} case {case} round {round}");
            match (&rg, &rp) {
                (SmtResult::Sat, SmtResult::Unsat) | (SmtResult::Unsat, SmtResult::Sat) => {
                    panic!("{tag}: guarded {rg:?} vs plain {rp:?}")
                }
                _ => {}
            }
            if rg == SmtResult::Sat {
                sat += 1;
                for &t in assertions.iter().chain(&asm) {
                    assert!(
                        holds(&store, &guarded, t),
                        "{tag}: model violates a formula"
                    );
                }
            }
            if rg == SmtResult::Unsat {
                unsat += 1;
                let core = guarded.unsat_core();
                assert!(core.iter().all(|c| asm.contains(c)), "{tag}: core");
            }
        }
    }
    assert!(
        sat > 10 && unsat > 3,
        "seed {seed}: sat {sat} unsat {unsat}"
    );
}
