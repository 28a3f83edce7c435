//! The SMT encoding of strong simulation (ENCODESIM/ENCODEDISTREL) against the worklist
//! algorithm and the naive reference, on Fig. 4.4 and random small systems.

use cove_prob::flow::{DistRel, dist_related, is_hall_violator};
use cove_prob::sim::{Simulation, naive_simulation};
use cove_prob::smt_sim::{
    SmtSimError, SmtSimLimits, smt_dist_related, smt_simulates, smt_simulation, smt_simulation_with,
};
use cove_prob::{parse_lpts, write_lpts};

mod common;
use common::{Rng, dist, r, random_lpts, random_pair, shape};

/// Fig. 4.4 as a distribution pair: the weight function is unique.
#[test]
fn fig_4_4_distribution_relation() {
    let mu = dist(&[(0, 1, 2), (1, 1, 2)]);
    let nu = dist(&[(0, 1, 3), (1, 1, 3), (2, 1, 3)]);
    let rel = |s: usize, t: usize| matches!((s, t), (0, 0) | (0, 1) | (1, 1) | (1, 2));
    let DistRel::Related(mut w) = smt_dist_related(&mu, &nu, &rel).unwrap() else {
        panic!("Fig. 4.4 distributions are related")
    };
    w.sort_by_key(|e| (e.0, e.1));
    assert_eq!(
        w,
        vec![
            (0, 0, r(1, 3)),
            (0, 1, r(1, 6)),
            (1, 1, r(1, 6)),
            (1, 2, r(1, 3))
        ]
    );
    // Negative variants: a Hall violator from the ¬rel side.
    for rel in [
        &(|s: usize, t: usize| matches!((s, t), (0, 0) | (1, 2))) as &dyn Fn(usize, usize) -> bool,
        &|s: usize, t: usize| matches!((s, t), (0, 0) | (0, 1) | (1, 1)),
        &|_s: usize, t: usize| t == 0,
    ] {
        match smt_dist_related(&mu, &nu, rel).unwrap() {
            DistRel::Violator(x) => {
                assert!(is_hall_violator(&mu, &nu, rel, &x));
                assert!(!dist_related(&mu, &nu, rel).is_related());
            }
            other => panic!("{other:?}"),
        }
    }
}

/// Fig. 4.4 embedded in two LPTSes: actions `b`/`c` force exactly the relation of the figure
/// on the successors.
#[test]
fn fig_4_4_lpts() {
    let l1 = parse_lpts("init p\np -a-> 1/2 : s1 + 1/2 : s2\ns1 -b-> s1\ns2 -c-> s2\n").unwrap();
    let spec = "init q\nq -a-> 1/3 : t1 + 1/3 : t2 + 1/3 : t3\n\
                t1 -b-> t1\nt2 -b-> t2\nt3 -c-> t3\n";
    let l2 = parse_lpts(&format!("{spec}t2 -c-> t2\n")).unwrap();
    let rel = smt_simulation(&l1, &l2).unwrap();
    let mut pairs = Vec::new();
    for s in 0..l1.num_states() {
        for t in 0..l2.num_states() {
            if rel.contains(s, t) {
                pairs.push((l1.state_name(s), l2.state_name(t)));
            }
        }
    }
    assert_eq!(
        pairs,
        vec![
            ("p", "q"),
            ("s1", "t1"),
            ("s1", "t2"),
            ("s2", "t2"),
            ("s2", "t3")
        ]
    );
    assert_eq!(rel, Simulation::compute(&l1, &l2).relation);
    assert!(smt_simulates(&l1, &l2, &SmtSimLimits::default()).unwrap());
    // Without t2 −c→, s2 only matches t3 (mass 1/3 < 1/2): the start pair fails.
    let l2b = parse_lpts(spec).unwrap();
    let rel = smt_simulation(&l1, &l2b).unwrap();
    assert!(!rel.contains(0, 0));
    assert_eq!(rel, naive_simulation(&l1, &l2b));
    assert!(!smt_simulates(&l1, &l2b, &SmtSimLimits::default()).unwrap());
}

#[test]
fn size_guard() {
    let mut rng = Rng::new(7);
    let l = random_lpts(&mut rng, &shape(30), "s");
    let err = smt_simulation(&l, &l).unwrap_err();
    assert!(
        matches!(err, SmtSimError::TooLarge { what: "pairs", .. }),
        "{err}"
    );
    let tight = SmtSimLimits {
        max_weights: 3,
        ..SmtSimLimits::default()
    };
    let small = random_lpts(&mut rng, &shape(4), "s");
    if small.num_transitions() > 1 {
        let err = smt_simulation_with(&small, &small, &tight).unwrap_err();
        assert!(matches!(err, SmtSimError::TooLarge { .. }), "{err}");
    }
}

/// Number of random pairs in [`random_pairs_smt_agrees_with_fast_and_naive`].
const RANDOM_PAIRS: u64 = 300;

#[test]
fn random_pairs_smt_agrees_with_fast_and_naive() {
    let (mut holds, mut fails, mut partial, mut checks) = (0, 0, 0, 0);
    for seed in 0..RANDOM_PAIRS {
        let mut rng = Rng::new(1000 + seed);
        let (l1, l2) = random_pair(&mut rng, seed % 2 == 0);
        let fast = Simulation::compute(&l1, &l2).relation;
        let naive = naive_simulation(&l1, &l2);
        let smt = smt_simulation_with(&l1, &l2, &SmtSimLimits::default()).unwrap_or_else(|e| {
            panic!("seed {seed}: {e}\n{}\n{}", write_lpts(&l1), write_lpts(&l2))
        });
        let ctx = || format!("seed {seed}\n{}\n{}", write_lpts(&l1), write_lpts(&l2));
        assert_eq!(smt.relation, fast, "{}", ctx());
        assert_eq!(smt.relation, naive, "{}", ctx());
        assert!(smt.checks <= l1.num_states() * l2.num_states());
        checks += smt.checks;
        let init = fast.contains(l1.initial(), l2.initial());
        assert_eq!(
            smt_simulates(&l1, &l2, &SmtSimLimits::default()).unwrap(),
            init,
            "{}",
            ctx()
        );
        if init {
            holds += 1;
        } else {
            fails += 1;
        }
        if !fast.is_empty() && fast.len() < l1.num_states() * l2.num_states() {
            partial += 1;
        }
    }
    println!(
        "{RANDOM_PAIRS} pairs: {holds} hold, {fails} fail, {partial} partial relations, {checks} SMT checks"
    );
    // The sample is not degenerate: both verdicts, and mostly non-trivial relations.
    assert!(holds > 40 && fails > 40, "holds {holds}, fails {fails}");
    assert!(partial > RANDOM_PAIRS as usize / 2, "partial {partial}");
}
