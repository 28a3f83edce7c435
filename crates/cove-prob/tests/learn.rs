//! Assumption learning: FINDCONSISTENT against brute force, and ASYM learning against the
//! monolithic check.

use cove_prob::agar::Verdict;
use cove_prob::cex::{SimAnswer, check_execution_mapping, check_simulation, verify_tree};
use cove_prob::learn::{find_consistent, learn_asym};
use cove_prob::{Lpts, compose, simulates};

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
