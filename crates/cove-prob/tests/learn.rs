//! Assumption learning: FINDCONSISTENT against brute force, and ASYM learning against the
//! monolithic check.

use cove_prob::agar::{Budget, Verdict};
use cove_prob::cex::{SimAnswer, check_execution_mapping, check_simulation, verify_tree};
use cove_prob::learn::{
    FindConsistent, LearnError, LearnOptions, LearnProfile, Positives, find_consistent,
    find_consistent_stochastic, learn_asym, learn_asym_with,
};
use cove_prob::{Dist, Lpts, compose, simulates};

mod common;
use common::{Rng, comp};

#[test]
fn learned_assumptions_agree_with_monolithic() {
    let (mut holds, mut fails) = (0, 0);
    for seed in 0..60u64 {
        let mut rng = Rng::new(seed * 13 + 1);
        let l1 = comp(&mut rng, "x", &["a", "b"]);
        let l2 = comp(&mut rng, "y", &["b", "c"]);
        let full = compose(&l1, &l2).lpts;
        let spec = if seed % 2 == 0 {
            full.clone()
        } else {
            comp(&mut rng, "p", &["a", "b", "c"])
        };
        let expected = simulates(&full, &spec);
        let (v, stats) = learn_asym(&l1, &l2, &spec, 10_000, 10_000, 200, None)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        // The tied search (the default) must agree too, with ordinary and rich positives.
        for positives in [Positives::Plain, Positives::Rich] {
            let mapped = LearnOptions {
                find: FindConsistent::Mapped,
                max_iterations: 200,
                positives,
                ..LearnOptions::default()
            };
            let (vm, _) = learn_asym_with(&l1, &l2, &spec, &mapped, &mut LearnProfile::default())
                .unwrap_or_else(|e| panic!("seed {seed} mapped: {e}"));
            match vm {
                Verdict::Holds => assert!(expected, "seed {seed} mapped"),
                Verdict::Fails(f) => {
                    assert!(!expected, "seed {seed} mapped");
                    check_execution_mapping(&f.cex, &f.system).unwrap();
                    verify_tree(&f.cex.tree, &full, &spec)
                        .unwrap_or_else(|e| panic!("seed {seed} mapped: {e}"));
                }
            }
        }
        match v {
            Verdict::Holds => {
                assert!(expected, "seed {seed}");
                holds += 1;
            }
            Verdict::Fails(f) => {
                assert!(!expected, "seed {seed}");
                check_execution_mapping(&f.cex, &f.system).unwrap();
                verify_tree(&f.cex.tree, &full, &spec)
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                fails += 1;
            }
        }
        assert!(stats.largest_assumption >= 1);
    }
    assert!(holds > 10 && fails > 10, "holds {holds} fails {fails}");
}

/// All set partitions of 0..n with roots (0..r) in one class, by restricted growth strings.
fn partitions(n: usize, r: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur = vec![0; n];
    fn rec(
        i: usize,
        n: usize,
        r: usize,
        maxc: usize,
        cur: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if i == n {
            out.push(cur.clone());
            return;
        }
        if i < r {
            cur[i] = 0;
            rec(i + 1, n, r, maxc, cur, out);
            return;
        }
        for c in 0..=maxc + 1 {
            cur[i] = c;
            rec(i + 1, n, r, maxc.max(c), cur, out);
        }
    }
    rec(0, n, r, 0, &mut cur, &mut out);
    out
}

#[test]
fn find_consistent_is_least_and_consistent() {
    let mut checked = 0;
    for seed in 0..80u64 {
        let mut rng = Rng::new(seed + 500);
        let target = comp(&mut rng, "t", &["a", "b"]);
        let other = comp(&mut rng, "o", &["a", "b"]);
        // One positive sample (a counterexample to other ⪯ … is not needed): use trees from
        // the teacher's own construction: target ⋠ other gives a positive tree.
        let pos: Vec<Lpts> = match check_simulation(&target, &other, 1000).unwrap() {
            SimAnswer::Fails(c) => vec![c.tree],
            SimAnswer::Holds => continue,
        };
        let neg: Vec<Lpts> = match check_simulation(&other, &target, 1000).unwrap() {
            SimAnswer::Fails(c) => vec![c.tree],
            SimAnswer::Holds => vec![],
        };
        let (q, _) = match find_consistent(&pos, &neg, &["a".to_string(), "b".to_string()]) {
            Ok(x) => x,
            Err(e) => panic!("seed {seed}: {e}"),
        };
        for p in &pos {
            assert!(simulates(p, &q), "seed {seed}: positive not simulated");
        }
        for n in &neg {
            assert!(!simulates(n, &q), "seed {seed}: negative simulated");
        }
        // Brute force: the least number of classes of a consistent partition.
        let p0 = &pos[0];
        if p0.num_states() > 7 {
            continue;
        }
        let order = p0.reachable(); // root first
        let mut best = usize::MAX;
        for part in partitions(order.len(), 1) {
            let k = part.iter().max().unwrap() + 1;
            if k >= best {
                continue;
            }
            let mut cls = vec![0; p0.num_states()];
            for (i, &s) in order.iter().enumerate() {
                cls[s] = part[i];
            }
            let quot = cove_prob::partition::quotient(
                p0,
                &cove_prob::partition::Partition::from_classes(&cls),
            );
            if neg.iter().all(|n| !simulates(n, &quot)) {
                best = k;
            }
        }
        assert!(
            q.num_states() <= best,
            "seed {seed}: learned {} > least {best}",
            q.num_states()
        );
        checked += 1;
    }
    assert!(checked > 10, "{checked}");
}

/// A chain `x0 −a0→ x1 −a1→ …` (Dirac steps) over the alphabet `a, b, c`.
fn chain(actions: &[&str]) -> Lpts {
    let mut l = Lpts::new("x0");
    for a in ["a", "b", "c"] {
        l.add_action(a);
    }
    for (i, a) in actions.iter().enumerate() {
        let next = l.add_state(format!("x{}", i + 1));
        let a = l.action_id(a).unwrap();
        l.add_transition(i, a, Dist::dirac(next));
    }
    l
}

fn abc() -> Vec<String> {
    vec!["a".into(), "b".into(), "c".into()]
}

/// The samples of the stochastic-partition example (in the spirit of thesis Figs. 5.2/5.6):
/// the positive chain `r −a→ s −b→ t −c→ u` and three negatives that every ordinary
/// partition with at most two classes simulates (`a·a` kills the classes `{r,s,…}`, `a·c`
/// kills `{…,s,t}` and `{r},{s,t,u}`, `a·b·a` kills `{r,t,…},{s,…}`), while the stochastic
/// partition that splits `s` between `g1 = {r, s}` and `g2 = {s, t, u}` (with `1-λ`, `λ`)
/// simulates none: its quotient `g1 −a→ (1-λ)·g1 + λ·g2`, `g1 −b→ g2`, `g2 −b→ g2`,
/// `g2 −c→ g2` needs both groups to follow the `a`-step.
fn split_example() -> (Vec<Lpts>, Vec<Lpts>) {
    let pos = vec![chain(&["a", "b", "c"])];
    let neg = vec![
        chain(&["a", "a"]),
        chain(&["a", "c"]),
        chain(&["a", "b", "a"]),
    ];
    (pos, neg)
}

#[test]
fn stochastic_partition_is_smaller_than_any_ordinary_one() {
    let (pos, neg) = split_example();
    let (q, _) = find_consistent(&pos, &neg, &abc()).unwrap();
    let (h, calls) = find_consistent_stochastic(&pos, &neg, &abc(), None).unwrap();
    assert_eq!(q.num_states(), 3, "least ordinary partition");
    assert_eq!(h.num_states(), 2, "least stochastic partition: {h:?}");
    assert!(calls >= 2, "k = 1 is refuted first");
    for l in [&q, &h] {
        assert!(pos.iter().all(|p| simulates(p, l)));
        assert!(neg.iter().all(|n| !simulates(n, l)));
    }
    // The 2-state conjecture really splits the a-step between both groups.
    assert!(h.transitions().iter().any(|t| t.dist.len() == 2), "{h:?}");
    // No 2-class ordinary partition is consistent (brute force over all of them).
    let p0 = &pos[0];
    for part in partitions(p0.num_states(), 1) {
        if part.iter().max().unwrap() + 1 > 2 {
            continue;
        }
        let quot = cove_prob::partition::quotient(
            p0,
            &cove_prob::partition::Partition::from_classes(&part),
        );
        assert!(neg.iter().any(|n| simulates(n, &quot)), "{part:?}");
    }
}

#[test]
fn stochastic_find_consistent_is_least_and_consistent() {
    let mut checked = 0;
    for seed in 0..40u64 {
        let mut rng = Rng::new(seed + 500);
        let target = comp(&mut rng, "t", &["a", "b"]);
        let other = comp(&mut rng, "o", &["a", "b"]);
        let pos: Vec<Lpts> = match check_simulation(&target, &other, 1000).unwrap() {
            SimAnswer::Fails(c) => vec![c.tree],
            SimAnswer::Holds => continue,
        };
        let neg: Vec<Lpts> = match check_simulation(&other, &target, 1000).unwrap() {
            SimAnswer::Fails(c) => vec![c.tree],
            SimAnswer::Holds => vec![],
        };
        let ab = ["a".to_string(), "b".to_string()];
        let (q, _) = find_consistent(&pos, &neg, &ab).unwrap();
        let (h, _) = find_consistent_stochastic(&pos, &neg, &ab, None)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(pos.iter().all(|p| simulates(p, &h)), "seed {seed}");
        assert!(neg.iter().all(|n| !simulates(n, &h)), "seed {seed}");
        assert!(
            h.num_states() <= q.num_states(),
            "seed {seed}: stochastic {} > ordinary {}",
            h.num_states(),
            q.num_states()
        );
        checked += 1;
    }
    assert!(checked > 10, "{checked}");
}

#[test]
fn stochastic_learning_agrees_with_monolithic() {
    let (mut answered, mut total) = (0, 0);
    for seed in 0..12u64 {
        let mut rng = Rng::new(seed * 13 + 1);
        let l1 = comp(&mut rng, "x", &["a", "b"]);
        let l2 = comp(&mut rng, "y", &["b", "c"]);
        let full = compose(&l1, &l2).lpts;
        let spec = if seed % 2 == 0 {
            full.clone()
        } else {
            comp(&mut rng, "p", &["a", "b", "c"])
        };
        let expected = simulates(&full, &spec);
        let opts = LearnOptions {
            find: FindConsistent::Stochastic,
            max_iterations: 8,
            ..LearnOptions::default()
        };
        total += 1;
        match learn_asym_with(&l1, &l2, &spec, &opts, &mut LearnProfile::default()) {
            Ok((Verdict::Holds, _)) => {
                assert!(expected, "seed {seed}");
                answered += 1;
            }
            Ok((Verdict::Fails(f), _)) => {
                assert!(!expected, "seed {seed}");
                check_execution_mapping(&f.cex, &f.system).unwrap();
                verify_tree(&f.cex.tree, &full, &spec)
                    .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
                answered += 1;
            }
            // a semi-algorithm may give up honestly; nothing else is acceptable
            Err(LearnError::IterationLimit(_)) => {}
            Err(e) => panic!("seed {seed}: {e}"),
        }
    }
    assert!(answered * 4 >= total * 3, "answered {answered} of {total}");
}

#[test]
fn learner_limits_give_an_honest_unknown() {
    // A pair whose L2 moves at once, so that the first conjecture (one state, no moves)
    // cannot be the answer.
    let (l1, l2) = (14..)
        .map(|seed| {
            let mut rng = Rng::new(seed);
            let l1 = comp(&mut rng, "x", &["a", "b"]);
            (l1, comp(&mut rng, "y", &["b", "c"]))
        })
        .find(|(_, l2)| !l2.outgoing(l2.initial()).is_empty())
        .unwrap();
    let spec = compose(&l1, &l2).lpts;
    for find in [
        FindConsistent::Partition,
        FindConsistent::Mapped,
        FindConsistent::Stochastic,
    ] {
        let past = LearnOptions {
            find,
            budget: Budget {
                control: cove_control::Control {
                    deadline: Some(std::time::Instant::now()),
                    ..Default::default()
                },
                ..Budget::default()
            },
            ..LearnOptions::default()
        };
        let mut prof = LearnProfile::default();
        let r = learn_asym_with(&l1, &l2, &spec, &past, &mut prof);
        assert!(matches!(r, Err(LearnError::TimeLimit)), "{find:?}: {r:?}");
        let mem = LearnOptions {
            find,
            budget: Budget {
                control: cove_control::Control::new().with_memory_limit(1 << 20),
                ..Budget::default()
            },
            ..LearnOptions::default()
        };
        let r = learn_asym_with(&l1, &l2, &spec, &mem, &mut prof);
        assert!(matches!(r, Err(LearnError::MemoryLimit)), "{find:?}: {r:?}");
        let one = LearnOptions {
            find,
            max_iterations: 1,
            ..LearnOptions::default()
        };
        let mut prof = LearnProfile::default();
        match learn_asym_with(&l1, &l2, &spec, &one, &mut prof) {
            Err(LearnError::IterationLimit(1)) => assert_eq!(prof.iterations, 1),
            Ok(_) => panic!("{find:?}: an answer after one conjecture"),
            Err(e) => panic!("{find:?}: {e}"),
        }
        // A state limit below the smallest composition is an error, not a verdict.
        let tiny = LearnOptions {
            find,
            budget: Budget {
                max_states: 0,
                ..Budget::default()
            },
            ..LearnOptions::default()
        };
        let r = learn_asym_with(&l1, &l2, &spec, &tiny, &mut LearnProfile::default());
        assert!(matches!(r, Err(LearnError::TooLarge(_))), "{find:?}: {r:?}");
    }
}

#[test]
fn rich_counterexamples_are_checked_counterexamples() {
    let mut checked = 0;
    for seed in 0..200u64 {
        let mut rng = Rng::new(seed + 9000);
        let (l1, l2) = common::random_pair(&mut rng, false);
        let sim = cove_prob::Simulation::compute(&l1, &l2);
        if sim.related(l1.initial(), l2.initial()) {
            continue;
        }
        let (s1, s2) = (l1.initial(), l2.initial());
        let plain = cove_prob::cex::build_counterexample(&l1, &l2, &sim, s1, s2, 10_000).unwrap();
        let rich =
            cove_prob::cex::build_rich_counterexample(&l1, &l2, &sim, s1, s2, 10_000).unwrap();
        cove_prob::verify_counterexample(&rich, &l1, &l2)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(rich.tree.num_transitions() >= plain.tree.num_transitions());
        // the ordinary counterexample is simulated by the rich one
        assert!(simulates(&plain.tree, &rich.tree), "seed {seed}");
        checked += 1;
    }
    assert!(checked > 50, "{checked}");
}
