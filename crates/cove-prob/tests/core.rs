//! Core tests: distributions, the Fig. 4.4 example, simulation against the naive reference,
//! counterexamples with the independent check, composition laws, the LPTS parser.

use cove_logic::Rational;
use cove_prob::cex::{
    SimAnswer, check_simulation, max_transitions_per_action, verify_counterexample,
};
use cove_prob::flow::{DistRel, dist_related, is_hall_violator};
use cove_prob::sim::{Simulation, naive_simulation};
use cove_prob::{Dist, Lpts, compose, parse_lpts, write_lpts};
use std::collections::{HashMap, HashSet};

mod common;
use common::{Rng, Shape, dist, r, random_lpts, random_pair, random_sub_lpts, shape, small_shape};

/// Fig. 4.4: μ uniform on {s1,s2}, ν uniform on {t1,t2,t3}, R = {(s1,t1),(s1,t2),(s2,t2),(s2,t3)}.
#[test]
fn fig_4_4_max_flow_is_one() {
    let mu = dist(&[(0, 1, 2), (1, 1, 2)]);
    let nu = dist(&[(0, 1, 3), (1, 1, 3), (2, 1, 3)]);
    let rel = |s: usize, t: usize| matches!((s, t), (0, 0) | (0, 1) | (1, 1) | (1, 2));
    match dist_related(&mu, &nu, &rel) {
        DistRel::Related(w) => {
            // A weight function: marginals are μ and ν, positive only on R.
            let mut row: HashMap<usize, Rational> = HashMap::new();
            let mut col: HashMap<usize, Rational> = HashMap::new();
            let mut total = Rational::ZERO;
            for (s, t, x) in &w {
                assert!(rel(*s, *t) && x.is_positive());
                *row.entry(*s).or_default() += x;
                *col.entry(*t).or_default() += x;
                total += x;
            }
            assert_eq!(total, Rational::ONE, "max-flow value 1");
            assert_eq!(row[&0], r(1, 2));
            assert_eq!(row[&1], r(1, 2));
            for t in 0..3 {
                assert_eq!(col[&t], r(1, 3));
            }
        }
        other => panic!("expected related, got {other:?}"),
    }
}

#[test]
fn fig_4_4_negative_variants() {
    let mu = dist(&[(0, 1, 2), (1, 1, 2)]);
    let nu = dist(&[(0, 1, 3), (1, 1, 3), (2, 1, 3)]);
    // R = {(s1,t1),(s2,t3)}: both singletons violate Hall (1/2 > 1/3).
    let rel = |s: usize, t: usize| matches!((s, t), (0, 0) | (1, 2));
    match dist_related(&mu, &nu, &rel) {
        DistRel::Violator(x) => {
            assert!(is_hall_violator(&mu, &nu, &rel, &x));
            assert!(x == vec![0] || x == vec![1], "{x:?}");
        }
        other => panic!("{other:?}"),
    }
    // R without (s2, t3): s2 only reaches t2.
    let rel2 = |s: usize, t: usize| matches!((s, t), (0, 0) | (0, 1) | (1, 1));
    let res = dist_related(&mu, &nu, &rel2);
    let DistRel::Violator(x) = res else {
        panic!("expected violator")
    };
    assert!(is_hall_violator(&mu, &nu, &rel2, &x));
    // Errata 2 example: S1 = {u1,u2}, R = {(u1,t),(u2,t)}, μ = (1/2,1/2), ν(t) = 1/2,
    // rest of ν on an unrelated state. The corrected closure terminates with {u1,u2}.
    let nu3 = dist(&[(0, 1, 2), (1, 1, 2)]);
    let rel3 = |_s: usize, t: usize| t == 0;
    let DistRel::Violator(x) = dist_related(&mu, &nu3, &rel3) else {
        panic!()
    };
    assert!(is_hall_violator(&mu, &nu3, &rel3, &x));
}

#[test]
fn distributions_are_never_normalized() {
    assert!(Dist::new(vec![(0, r(1, 2)), (1, r(1, 3))]).is_err());
    assert!(Dist::new(vec![(0, r(1, 2)), (0, r(1, 2))]).is_err());
    assert!(Dist::new(vec![(0, r(3, 2)), (1, r(-1, 2))]).is_err());
    assert!(Dist::new(vec![(0, r(1, 2)), (1, r(1, 2))]).is_ok());
}

/// Fig. 4.2/4.5 as recovered in the spec: L1 ⪯ L2 with the stated weights.
#[test]
fn fig_4_5_simulation() {
    let l1 = parse_lpts("init p\np -a-> 2/3 : s + 1/3 : t\n").unwrap();
    let l2 = parse_lpts("init q\nq -a-> 1/2 : u + 1/2 : v\nq -a-> q\n").unwrap();
    let sim = Simulation::compute(&l1, &l2);
    assert!(sim.related(0, 0));
    assert_eq!(naive_simulation(&l1, &l2), sim.relation);
}

fn check_cex_pair(l1: &Lpts, l2: &Lpts, seed: u64) -> bool {
    match check_simulation(l1, l2, 1_000_000).unwrap() {
        SimAnswer::Holds => true,
        SimAnswer::Fails(c) => {
            verify_counterexample(&c, l1, l2).unwrap_or_else(|e| {
                panic!("seed {seed}: {e}\n{}\n{}", write_lpts(l1), write_lpts(l2))
            });
            if l1.is_reactive() {
                assert!(
                    c.tree.is_reactive(),
                    "seed {seed}: reactive implementation, non-reactive counterexample"
                );
                assert!(max_transitions_per_action(&c.tree) <= 1);
            }
            false
        }
    }
}

#[test]
fn random_pairs_fast_agrees_with_naive_and_cex_check() {
    let mut holds = 0;
    let mut fails = 0;
    for seed in 0..300u64 {
        let mut rng = Rng::new(seed);
        let (l1, l2) = random_pair(&mut rng, seed % 2 == 0);
        let fast = Simulation::compute(&l1, &l2);
        let naive = naive_simulation(&l1, &l2);
        assert_eq!(fast.relation, naive, "seed {seed}");
        if seed % 2 == 0 {
            assert!(
                fast.related(l1.initial(), l2.initial()),
                "seed {seed}: sub-system must be simulated"
            );
        }
        if check_cex_pair(&l1, &l2, seed) {
            holds += 1;
        } else {
            fails += 1;
        }
    }
    assert!(holds > 50 && fails > 50, "holds {holds}, fails {fails}");
}

#[test]
fn random_reactive_pairs_give_reactive_counterexamples() {
    let mut fails = 0;
    for seed in 1000..1200u64 {
        let mut rng = Rng::new(seed);
        let mk = |rng: &mut Rng, p: &str| {
            let l = random_lpts(
                rng,
                &Shape {
                    states: 4,
                    actions: 3,
                    max_out: 3,
                    max_support: 3,
                },
                p,
            );
            // make reactive: keep the first transition per action
            let mut out = Lpts::new(l.state_name(0));
            for a in l.actions() {
                out.add_action(a);
            }
            for s in 1..l.num_states() {
                out.add_state(l.state_name(s));
            }
            for t in l.transitions() {
                if !out
                    .outgoing(t.src)
                    .iter()
                    .any(|&u| out.transition(u).action == t.action)
                {
                    out.add_transition(t.src, t.action, t.dist.clone());
                }
            }
            out
        };
        let l1 = mk(&mut rng, "s");
        let l2 = mk(&mut rng, "t");
        assert!(l1.is_reactive());
        if !check_cex_pair(&l1, &l2, seed) {
            fails += 1;
        }
    }
    assert!(fails > 20);
}

/// Two products are isomorphic via the swap of components.
fn assert_swap_isomorphic(a: &cove_prob::Product, b: &cove_prob::Product) {
    assert_eq!(a.lpts.num_states(), b.lpts.num_states());
    assert_eq!(a.lpts.num_transitions(), b.lpts.num_transitions());
    let bidx: HashMap<(usize, usize), usize> = b
        .pairs
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| ((y, x), i))
        .collect();
    let iso: Vec<usize> = a.pairs.iter().map(|p| bidx[p]).collect();
    assert_eq!(iso[a.lpts.initial()], b.lpts.initial());
    let norm =
        |p: &cove_prob::Product, f: &dyn Fn(usize) -> usize| -> HashSet<(usize, String, Dist)> {
            p.lpts
                .transitions()
                .iter()
                .map(|t| {
                    (
                        f(t.src),
                        p.lpts.action_name(t.action).to_string(),
                        t.dist.map(f),
                    )
                })
                .collect()
        };
    assert_eq!(norm(a, &|s| iso[s]), norm(b, &|s| s));
}

#[test]
fn composition_commutes_up_to_isomorphism() {
    for seed in 0..100u64 {
        let mut rng = Rng::new(seed + 7);
        let mut a = random_lpts(&mut rng, &small_shape(3), "x");
        let mut b = random_lpts(&mut rng, &small_shape(2), "y");
        // give each a private action too
        let pa = a.add_action("pa");
        a.add_transition(0, pa, Dist::dirac(1));
        let pb = b.add_action("pb");
        b.add_transition(1, pb, Dist::dirac(0));
        let ab = compose(&a, &b);
        let ba = compose(&b, &a);
        assert_swap_isomorphic(&ab, &ba);
        // Lemma 19 sanity: a component simulated by itself stays so in context.
        assert!(cove_prob::simulates(&ab.lpts, &ab.lpts));
    }
}

#[test]
fn composition_of_a_simulated_component_is_simulated() {
    // Lemma 19: L1 ⪯ L2 and α2 ⊆ α1 give L1 ∥ L ⪯ L2 ∥ L.
    for seed in 0..60u64 {
        let mut rng = Rng::new(seed + 99);
        let l2 = random_lpts(&mut rng, &shape(3), "t");
        let l1 = random_sub_lpts(&mut rng, &l2, 2);
        let l = random_lpts(&mut rng, &small_shape(3), "u");
        let left = compose(&l1, &l).lpts;
        let right = compose(&l2, &l).lpts;
        assert!(cove_prob::simulates(&left, &right), "seed {seed}");
    }
}

#[test]
fn lpts_format_round_trips() {
    for seed in 0..50u64 {
        let mut rng = Rng::new(seed);
        let l = random_lpts(&mut rng, &shape(5), "st");
        let text = write_lpts(&l);
        let back = parse_lpts(&text).unwrap();
        assert_eq!(write_lpts(&back), text);
    }
}

fn err_at(text: &str) -> (usize, usize, String) {
    let e = parse_lpts(text).unwrap_err();
    (e.line, e.col, e.message)
}

#[test]
fn lpts_parser_errors_have_positions() {
    let (l, c, m) = err_at("init s\ns -a-> 1/2 : t + 1/3 : u\n");
    assert_eq!((l, c), (2, 1));
    assert!(m.contains("sum to 5/6"), "{m}");
    let (l, c, _) = err_at("init s\n\ns -a-> 1/2 : t + x : u\n");
    assert_eq!((l, c), (3, 18));
    let (l, c, m) = err_at("# no init\ns -a-> t\n");
    assert_eq!((l, c), (2, 1));
    assert!(m.contains("init"));
    let (l, c, _) = err_at("init s\ns a t\n");
    assert_eq!((l, c), (2, 3));
    let (l, c, m) = err_at("init s\ns -a-> 1/2 : t + 1/2 : t\n");
    assert_eq!((l, c), (2, 24));
    assert!(m.contains("twice"));
    let (l, c, m) = err_at("init s\ns -a-> 0 : t + 1 : u\n");
    assert_eq!((l, c), (2, 8));
    assert!(m.contains("not positive"));
    let (l, c, _) = err_at("init s\ninit t\n");
    assert_eq!((l, c), (2, 1));
    let (l, _, m) = err_at("init s\ns -a-> t extra\n");
    assert_eq!(l, 2);
    assert!(m.contains("unexpected"));
}

#[test]
fn lpts_parser_reads_the_documented_example() {
    let l = parse_lpts(
        "# a coin\ninit s0\nactions toss stop\nstates s0 heads tails done\n\
         s0 -toss-> 1/2 : heads + 1/2 : tails\ns0 -toss-> 0.9 : heads + 0.1 : tails\n\
         heads -stop-> done   # Dirac\ntails -stop-> 1 : done\n\"odd name\" -\"x-y\"-> s0\n",
    )
    .unwrap();
    assert_eq!(l.num_states(), 5);
    assert_eq!(l.num_transitions(), 5);
    assert!(!l.is_reactive());
    assert_eq!(l.transition(1).dist.prob(1), r(9, 10));
    assert_eq!(l.state_name(l.initial()), "s0");
    assert_eq!(l.action_name(2), "x-y");
}

#[test]
fn shape_predicates() {
    let tree = parse_lpts("init r\nr -a-> 1/2 : x + 1/2 : y\nx -b-> z\nx -c-> w\n").unwrap();
    assert!(tree.is_tree() && tree.is_reactive() && !tree.is_fully_probabilistic());
    let chain = parse_lpts("init r\nr -a-> x\nx -b-> r\n").unwrap();
    assert!(!chain.is_tree() && chain.is_fully_probabilistic() && chain.is_lts());
}

#[test]
fn quotients_simulate_their_system_and_splits_refine() {
    use cove_prob::partition::{Partition, quotient};
    for seed in 0..100u64 {
        let mut rng = Rng::new(seed + 4242);
        let l = random_lpts(&mut rng, &shape(6), "s");
        let classes: Vec<usize> = (0..l.num_states()).map(|_| rng.below(3)).collect();
        let mut p = Partition::from_classes(&classes);
        let q = quotient(&l, &p);
        assert!(cove_prob::simulates(&l, &q), "seed {seed}: L ⪯ L/Π");
        let before = p.num_classes();
        let set: Vec<usize> = (0..l.num_states()).filter(|_| rng.chance(1, 2)).collect();
        let changed = p.split_by(&set);
        assert_eq!(changed, p.num_classes() > before);
        // every class is inside or outside the set
        for c in 0..p.num_classes() {
            let m = p.members(c);
            assert!(!m.is_empty());
            assert!(m.iter().all(|s| set.contains(s)) || m.iter().all(|s| !set.contains(s)));
        }
    }
    // the discrete quotient is isomorphic to the system
    let mut rng = Rng::new(1);
    let l = random_lpts(&mut rng, &shape(5), "s");
    let q = quotient(&l, &Partition::discrete(l.num_states()));
    assert!(cove_prob::simulates(&q, &l) && cove_prob::simulates(&l, &q));
}

/// Three bisimilar copies of every state (every transition kept, targets spread over the
/// copies): the check runs on the bisimulation quotient and lifts counterexamples back.
#[test]
fn quotient_check_agrees_and_lifted_counterexamples_verify() {
    let mut fails = 0;
    for seed in 0..120u64 {
        let mut rng = Rng::new(5000 + seed);
        let (l1, l2) = random_pair(&mut rng, false);
        let n = l1.num_states();
        let copies = 3;
        let mut big = Lpts::new("c0");
        for i in 1..n * copies {
            big.add_state(format!("c{i}"));
        }
        for a in l1.actions() {
            big.add_action(a);
        }
        // State k*n + x is copy k of l1's state x (x = 0 is l1's start after the swap).
        let m = |x: usize| (x + n - l1.initial()) % n;
        for k in 0..copies {
            for t in l1.transitions() {
                let entries: Vec<(usize, Rational)> = t
                    .dist
                    .entries()
                    .iter()
                    .enumerate()
                    .map(|(j, (x, p))| (((k + j) % copies) * n + m(*x), p.clone()))
                    .collect();
                let d = Dist::new(entries).unwrap();
                big.add_transition(k * n + m(t.src), t.action, d);
            }
        }
        let expect = naive_simulation(&l1, &l2).contains(l1.initial(), l2.initial());
        match check_simulation(&big, &l2, 1_000_000).unwrap() {
            SimAnswer::Holds => assert!(expect, "seed {seed}"),
            SimAnswer::Fails(c) => {
                assert!(!expect, "seed {seed}");
                verify_counterexample(&c, &big, &l2).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                fails += 1;
            }
        }
    }
    assert!(fails > 20, "fails {fails}");
}
