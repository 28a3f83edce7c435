//! Random small circuits: every engine's answer against explicit-state reachability.

use cove_aig::EngineConfig;
use cove_aig::driver::EngineChoice;
use cove_aig::driver::{SolveConfig, check, solve};
use cove_aig::engines::bmc::BmcConfig;
use cove_aig::witness_circuit::{witness_circuit, write_witness};
use cove_aig::witness_circuit_check::check_witness;
use cove_aig::{Aig, And, Control, Init, Latch, SafeProof, Verdict, lit_val, parse_aiger};

/// The engine named `name` with its default options.
fn engine(name: &str) -> EngineChoice {
    EngineChoice::parse(name).expect("an engine name")
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_aig(r: &mut Rng) -> Aig {
    let ni = 1 + r.below(2) as u32;
    random_aig_inputs(r, ni)
}

/// A random circuit with `ni` inputs.
fn random_aig_inputs(r: &mut Rng, ni: u32) -> Aig {
    let nl = 1 + r.below(4) as u32;
    let na = 2 + r.below(12) as u32;
    let mut a = Aig {
        max_var: ni + nl + na,
        ..Aig::default()
    };
    a.inputs = (1..=ni).collect();
    let lit = |r: &mut Rng, below: u32| (2 * r.below(below as u64) as u32) | r.below(2) as u32;
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
    a.bad = (0..1 + r.below(2)).map(|_| lit(r, m)).collect();
    if r.below(3) == 0 {
        a.constraints.push(lit(r, m));
    }
    a
}

/// Explicit-state answer: is a bad state reachable on a trace respecting the constraints?
#[allow(clippy::needless_range_loop)]
fn reachable(a: &Aig) -> bool {
    let nl = a.latches.len();
    let ni = a.inputs.len();
    let mut seen = vec![false; 1 << nl];
    let mut stack = Vec::new();
    for s in 0..(1usize << nl) {
        let ok = a.latches.iter().enumerate().all(|(i, l)| match l.init {
            Init::Zero => s >> i & 1 == 0,
            Init::One => s >> i & 1 == 1,
            Init::Free => true,
        });
        if ok {
            seen[s] = true;
            stack.push(s);
        }
    }
    let mut vals = vec![false; a.max_var as usize + 1];
    while let Some(s) = stack.pop() {
        for inp in 0..(1usize << ni) {
            for (i, l) in a.latches.iter().enumerate() {
                vals[l.var as usize] = s >> i & 1 == 1;
            }
            for (i, &v) in a.inputs.iter().enumerate() {
                vals[v as usize] = inp >> i & 1 == 1;
            }
            a.eval_ands(&mut vals);
            if !a.constraints.iter().all(|&c| lit_val(&vals, c)) {
                continue;
            }
            if a.bad.iter().any(|&b| lit_val(&vals, b)) {
                return true;
            }
            let mut t = 0;
            for (i, l) in a.latches.iter().enumerate() {
                t |= (lit_val(&vals, l.next) as usize) << i;
            }
            if !seen[t] {
                seen[t] = true;
                stack.push(t);
            }
        }
    }
    false
}

#[test]
fn engines_agree_with_explicit_reachability() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let ctl = Control::default();
    let (mut safe, mut unsafe_) = (0, 0);
    let (mut kind_certs, mut deep_kind) = (0, 0);
    let mut multi = 0;
    for round in 0..400 {
        let a = random_aig(&mut r);
        // Round trip through the ASCII writer and the reader.
        let text = cove_aig::write::to_aag(&a);
        let a = parse_aiger(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let expect = reachable(&a);
        if expect {
            unsafe_ += 1
        } else {
            safe += 1
        }
        for e in [engine("ic3"), engine("kind"), engine("portfolio")] {
            match check(
                &a,
                &e,
                &ctl.clone().with_timeout(std::time::Duration::from_secs(5)),
            ) {
                Verdict::Unsafe(_) => assert!(expect, "round {round} {e:?}: false alarm\n{text}"),
                Verdict::Safe(proof) => {
                    assert!(!expect, "round {round} {e:?}: missed bug\n{text}");
                    // Its certificate, written and read back, passes the witness checks.
                    if let SafeProof::KInduction { k, .. } = &proof {
                        kind_certs += 1;
                        deep_kind += (*k > 0) as usize;
                    }
                    let w = witness_circuit(&a, &proof);
                    for binary in [false, true] {
                        let back = parse_aiger(&write_witness(&w, binary, "m")).unwrap();
                        check_witness(&a, &back, &ctl).unwrap_or_else(|err| {
                            panic!("round {round} {e:?} {proof:?}: {err}\n{text}")
                        });
                    }
                }
                Verdict::Unknown(why) => assert!(
                    e == engine("kind"),
                    "round {round}: IC3 gave up ({why})\n{text}"
                ),
            }
        }
        if a.bad.len() > 1 {
            // One verdict per property, each as explicit reachability says.
            multi += 1;
            let cfg = SolveConfig {
                engine: engine("ic3"),
                ..SolveConfig::default()
            };
            let out = solve(&a, &cfg, &ctl);
            assert_eq!(out.properties.len(), a.bad.len());
            for (i, v) in out.properties.iter().enumerate() {
                let one = Aig {
                    bad: vec![a.bad[i]],
                    ..a.clone()
                };
                match v {
                    Verdict::Unsafe(t) => {
                        assert!(reachable(&one), "round {round} b{i}: false alarm\n{text}");
                        assert_eq!(t.bad_index, i);
                    }
                    Verdict::Safe(_) => {
                        assert!(!reachable(&one), "round {round} b{i}: missed bug\n{text}")
                    }
                    Verdict::Unknown(why) => panic!("round {round} b{i}: IC3 gave up ({why})"),
                }
            }
        }
        if expect {
            // No witness circuit can certify an unsafe design: the checker must refuse the
            // plain property and its k-window strengthenings.
            for k in 0..4 {
                let p = SafeProof::KInduction { k, aux: vec![] };
                let w = witness_circuit(&a, &p);
                assert!(
                    check_witness(&a, &w, &ctl).is_err(),
                    "round {round}: bogus certificate k={k} accepted\n{text}"
                );
            }
            // Bounded by the number of states: with several properties, those that hold stay
            // open after the first counterexample and BMC alone never proves them.
            let bmc: EngineChoice = EngineConfig::Bmc(BmcConfig {
                max_bound: Some(1 << a.latches.len()),
            })
            .into();
            let v = check(&a, &bmc, &ctl);
            assert!(
                matches!(v, Verdict::Unsafe(_)),
                "round {round}: BMC\n{text}"
            );
        }
    }
    assert!(safe > 50 && unsafe_ > 50, "{safe} safe, {unsafe_} unsafe");
    assert!(kind_certs > 50, "{kind_certs} k-induction certificates");
    assert!(deep_kind > 0);
    assert!(multi > 50, "{multi} circuits with several properties");
}

/// Merging inputs to constants (`input_merge.rs`) keeps reachability exactly, on circuits with
/// enough inputs for some to be merged; the driver with the merge certifies its answers on
/// the original circuit.
#[test]
fn merged_inputs_keep_reachability() {
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    let ctl = Control::default();
    let opts = cove_aig::reduce::Options {
        merge_inputs: true,
        lcorr: false,
    };
    let (mut merged, mut circuits) = (0, 0);
    for round in 0..600 {
        let ni = 2 + r.below(5) as u32;
        let a = random_aig_inputs(&mut r, ni);
        let expect = reachable(&a);
        let red = cove_aig::reduce::reduce_with(&a, &opts, &ctl).expect("no limits");
        if !red.const_inputs.is_empty() {
            merged += red.const_inputs.len();
            circuits += 1;
        }
        let text = cove_aig::write::to_aag(&a);
        assert_eq!(
            reachable(&red.aig),
            expect,
            "round {round}: merged {:?}\n{text}",
            red.const_inputs
        );
        match check(&a, &engine("ic3"), &ctl) {
            Verdict::Unsafe(_) => assert!(expect, "round {round}: false alarm\n{text}"),
            Verdict::Safe(_) => assert!(!expect, "round {round}: missed bug\n{text}"),
            Verdict::Unknown(why) => panic!("round {round}: {why}\n{text}"),
        }
    }
    assert!(
        circuits > 100,
        "{merged} inputs merged in {circuits} circuits"
    );
}

/// Latch correspondence (`lcorr.rs`) keeps reachability exactly, and a proof of the reduced
/// circuit with the merged latches' equalities is accepted on the original.
#[test]
fn latch_correspondence_keeps_reachability() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let ctl = Control::default();
    let opts = cove_aig::reduce::Options {
        merge_inputs: false,
        lcorr: true,
    };
    let (mut merged, mut circuits) = (0, 0);
    for round in 0..3000 {
        let a = random_aig(&mut r);
        let expect = reachable(&a);
        let red = cove_aig::reduce::reduce_with(&a, &opts, &ctl).expect("no limits");
        if !red.eq_latches.is_empty() {
            merged += red.eq_latches.len();
            circuits += 1;
        }
        let text = cove_aig::write::to_aag(&a);
        assert_eq!(
            reachable(&red.aig),
            expect,
            "round {round}: merged {:?}\n{text}",
            red.eq_latches
        );
        // The equalities and constants are an inductive invariant of the original.
        let aux = red.aux_clauses(|i| a.latches[i].var);
        assert!(
            cove_aig::proof_check::check_invariant(&a, &aux, false, &ctl).is_ok(),
            "round {round}: {aux:?}\n{text}"
        );
        // The driver with the pass: every answer certified on the original, and right.
        if !red.eq_latches.is_empty() {
            for name in ["ic3", "loc", "ic3-loc"] {
                let Some(e) = EngineChoice::parse(name) else {
                    continue;
                };
                let cfg = SolveConfig {
                    engine: e,
                    reduce: opts,
                    ..SolveConfig::default()
                };
                let out = solve(&a, &cfg, &ctl);
                assert!(out.validation.is_valid(), "round {round}: {name}\n{text}");
                match out.verdict {
                    Verdict::Unsafe(_) => assert!(expect, "round {round}: {name}\n{text}"),
                    Verdict::Safe(_) => assert!(!expect, "round {round}: {name}\n{text}"),
                    Verdict::Unknown(why) => panic!("round {round}: {name}: {why}\n{text}"),
                }
            }
        }
    }
    assert!(
        circuits > 20,
        "{merged} latches merged in {circuits} circuits"
    );
}

#[test]
fn kinduction_certificates_pass_exactly_when_the_proof_checks() {
    // The window construction with depth k is accepted iff k-induction (base and step) holds:
    // both directions are exercised on random circuits, including depths the engine would
    // not stop at.
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    let ctl = Control::default();
    let (mut pass, mut fail) = (0, 0);
    for round in 0..150 {
        let a = random_aig(&mut r);
        for k in 0..4 {
            let expect = cove_aig::proof_check::check_kinduction(&a, k, &[], &ctl).is_ok();
            let w = witness_circuit(&a, &SafeProof::KInduction { k, aux: vec![] });
            let got = check_witness(&a, &w, &ctl);
            assert_eq!(
                got.is_ok(),
                expect,
                "round {round} k={k}: {got:?}\n{}",
                cove_aig::write::to_aag(&a)
            );
            if expect { pass += 1 } else { fail += 1 }
        }
    }
    assert!(pass > 50 && fail > 50, "{pass} pass, {fail} fail");
}
