//! AGAR / AGAR-N against the monolithic check on random systems; every counterexample is
//! checked independently against the full composition.

use cove_prob::agar::{Budget, Refinement, Verdict, agar, agar_n, agar_n_with, agar_with, mono};
use cove_prob::cex::{check_execution_mapping, verify_tree};
use cove_prob::partition::{Partition, quotient};
use cove_prob::{Lpts, compose, simulates};

mod common;
use common::{Rng, comp};

fn check(comps: &[Lpts], spec: &Lpts, seed: u64, iters: &mut usize) -> bool {
    let mut full = comps[0].clone();
    for c in &comps[1..] {
        full = compose(&full, c).lpts;
    }
    let expected = simulates(&full, spec);
    let rest = if comps.len() == 2 {
        comps[1].clone()
    } else {
        let mut r = comps[1].clone();
        for c in &comps[2..] {
            r = compose(&r, c).lpts;
        }
        r
    };
    let b = Budget::default();
    let runs = [
        ("mono", mono(comps, spec, &b).unwrap()),
        ("agar-n", agar_n(comps, spec, &b).unwrap()),
        ("agar", agar(&comps[0], &rest, spec, &b).unwrap()),
        (
            "agar-n coarse",
            agar_n_with(comps, spec, &b, Refinement::Coarse).unwrap(),
        ),
        (
            "agar coarse",
            agar_with(&comps[0], &rest, spec, &b, Refinement::Coarse).unwrap(),
        ),
    ];
    for (name, (v, stats)) in runs {
        match v {
            Verdict::Holds => assert!(expected, "seed {seed}: {name} says holds, mono disagrees"),
            Verdict::Fails(f) => {
                let (cex, system) = (f.cex, f.system);
                assert!(!expected, "seed {seed}: {name} says fails, but it holds");
                check_execution_mapping(&cex, &system)
                    .unwrap_or_else(|e| panic!("seed {seed} {name}: {e}"));
                verify_tree(&cex.tree, &full, spec)
                    .unwrap_or_else(|e| panic!("seed {seed} {name}: {e}"));
            }
        }
        assert!(stats.iterations >= 1);
        if name != "mono" {
            *iters = (*iters).max(stats.iterations);
        }
    }
    expected
}

#[test]
fn agar_agrees_with_monolithic_on_random_pairs() {
    let (mut holds, mut fails, mut iters) = (0, 0, 0);
    for seed in 0..150u64 {
        let mut rng = Rng::new(seed * 31 + 5);
        let l1 = comp(&mut rng, "x", &["a", "b"]);
        let l2 = comp(&mut rng, "y", &["b", "c"]);
        let full = compose(&l1, &l2).lpts;
        let spec = if seed % 2 == 0 {
            // a random quotient of the system: holds by construction
            let classes: Vec<usize> = (0..full.num_states()).map(|_| rng.below(3)).collect();
            quotient(&full, &Partition::from_classes(&classes))
        } else {
            comp(&mut rng, "p", &["a", "b", "c"])
        };
        if check(&[l1, l2], &spec, seed, &mut iters) {
            holds += 1
        } else {
            fails += 1
        }
    }
    assert!(holds > 40 && fails > 20, "holds {holds} fails {fails}");
    assert!(iters >= 3, "refinement never exercised: {iters}");
}

#[test]
fn agar_n_agrees_with_monolithic_on_random_triples() {
    let (mut holds, mut fails, mut iters) = (0, 0, 0);
    for seed in 0..100u64 {
        let mut rng = Rng::new(seed * 17 + 3);
        let l1 = comp(&mut rng, "x", &["a", "b"]);
        let l2 = comp(&mut rng, "y", &["b", "c"]);
        let l3 = comp(&mut rng, "z", &["c", "a"]);
        let full = compose(&compose(&l1, &l2).lpts, &l3).lpts;
        let spec = if seed % 2 == 0 {
            let classes: Vec<usize> = (0..full.num_states()).map(|_| rng.below(2)).collect();
            quotient(&full, &Partition::from_classes(&classes))
        } else {
            comp(&mut rng, "p", &["a", "b", "c"])
        };
        if check(&[l1, l2, l3], &spec, seed, &mut iters) {
            holds += 1
        } else {
            fails += 1
        }
    }
    assert!(holds > 30 && fails > 10, "holds {holds} fails {fails}");
    assert!(iters >= 3, "refinement never exercised: {iters}");
}
