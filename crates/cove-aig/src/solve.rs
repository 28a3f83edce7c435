//! The driver: reduce, run one engine, certify on the original circuit.

use crate::engine::{EngineResult, Proof};
use crate::reduce::{Options, Reduced, reduce_with};
use crate::{ALit, Aig, Init, SafeProof, Trace, Verdict};
use cove_control::{Control, UnknownReason};

/// Which engine to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// IC3/PDR (complete).
    Ic3,
    /// Bounded model checking (counterexamples only).
    Bmc,
    /// k-induction.
    Kind,
    /// Localization abstraction refined by BMC, IC3 on the abstractions ([`crate::loc`]).
    Loc,
    /// IC3 then localization ([`crate::loc::ic3_then_loc`]) and BMC interleaved with
    /// k-induction's step case, plus a second IC3 setting with three or more cores, one
    /// thread each; the first definite answer wins.
    Portfolio,
}

impl EngineKind {
    /// Engine names accepted by [`EngineKind::parse`].
    pub const NAMES: [&'static str; 5] = ["ic3", "bmc", "kind", "loc", "portfolio"];

    /// Parses an engine name (`pdr` is accepted for `ic3`).
    pub fn parse(s: &str) -> Option<EngineKind> {
        match s {
            "ic3" | "pdr" => Some(EngineKind::Ic3),
            "bmc" => Some(EngineKind::Bmc),
            "kind" | "k-induction" => Some(EngineKind::Kind),
            "loc" | "localization" => Some(EngineKind::Loc),
            "portfolio" | "all" => Some(EngineKind::Portfolio),
            _ => None,
        }
    }
}

/// Model-checks `orig` with `engine`. Every definite answer has been certified on `orig`:
/// a trace by simulation, an invariant or k-induction proof by fresh SAT checks; an answer
/// that fails its check becomes `Unknown`. The portfolio uses one thread per available core
/// (at most three); [`check_threads`] takes the caller's thread budget instead.
pub fn check(orig: &Aig, engine: EngineKind, ctl: &Control) -> Verdict {
    check_threads(orig, engine, 0, ctl)
}

/// [`check`] with a thread budget for the portfolio: `threads` engine threads (0 = one per
/// available core). A budget of one runs IC3 alone in the calling thread (IC3 is complete
/// and finds most counterexamples cove finds), two runs IC3 and BMC with k-induction's step
/// case, three or more adds the second IC3 (see the private `portfolio` function). Single engines ignore it.
pub fn check_threads(orig: &Aig, engine: EngineKind, threads: usize, ctl: &Control) -> Verdict {
    check_opts(orig, engine, threads, &DRIVER_OPTIONS, ctl)
}

/// The driver's reductions: inputs are merged to constants ([`crate::merge`]; measured in
/// docs/decisions.md#hardware-input-merging: 844 of 22,893 inputs on the HWMCC'19 sample,
/// `usb_phy_1` 4× faster, nothing lost). [`Options::default`] (used inside engines, e.g. on
/// localization's abstractions) merges nothing.
pub const DRIVER_OPTIONS: Options = Options { merge_inputs: true };

/// [`check_threads`] with explicit reductions (`opts`).
pub fn check_opts(
    orig: &Aig,
    engine: EngineKind,
    threads: usize,
    opts: &Options,
    ctl: &Control,
) -> Verdict {
    let red = match reduce_with(orig, opts, ctl) {
        Ok(r) => r,
        Err(r) => return Verdict::Unknown(r),
    };
    if ctl.verbosity > 0 {
        eprintln!(
            "reduced: {} inputs, {} latches, {} ands, {} constraints (from {}/{}/{}); {} constant latches",
            red.aig.inputs.len(),
            red.aig.latches.len(),
            red.aig.ands.len(),
            red.aig.constraints.len(),
            orig.inputs.len(),
            orig.latches.len(),
            orig.ands.len(),
            red.const_latches.len()
        );
        let unate = crate::sur::unate_inputs(&red.aig);
        eprintln!(
            "sequentially unate inputs: {} of {}",
            unate.iter().filter(|u| u.is_some()).count(),
            unate.len()
        );
        // Without the option the pass runs for the statistic only, on the reduced circuit.
        let stat;
        let m = match &red.merged {
            Some(m) => m,
            None => {
                let cfg = crate::merge::Config::default();
                let mctl = crate::merge::pass_control(&cfg, ctl);
                stat = crate::merge::merge_inputs(&red.aig, &cfg, &mctl);
                &stat
            }
        };
        eprintln!(
            "merged inputs: {} of {} ({:.2} s; {} rounds, {} regions, {} checks, {} SAT calls, {} over budget; before: {} latches, {} ands){}",
            m.merged,
            m.inputs,
            m.time.as_secs_f64(),
            m.rounds,
            m.regions,
            m.checks,
            m.sat_calls,
            m.exhausted,
            m.latches,
            m.ands,
            if red.merged.is_some() {
                ""
            } else {
                " [statistic only]"
            }
        );
    }
    let res = match engine {
        EngineKind::Ic3 => crate::ic3::ic3(&red.aig, ctl),
        EngineKind::Bmc => crate::bmc::bmc(&red.aig, ctl, None),
        EngineKind::Kind => crate::kind::kind(&red.aig, ctl),
        EngineKind::Loc => crate::loc::loc(&red.aig, ctl),
        EngineKind::Portfolio => portfolio(&red.aig, ctl, threads),
    };
    certify(orig, &red, res, ctl)
}

/// Runs up to three engines side by side — IC3 with localization abstraction once IC3
/// stalls or for the last part of the time ([`crate::loc::ic3_then_loc`]), BMC interleaved with k-induction's step
/// case ([`crate::kind::kind_bmc`]), and IC3 without lemma prediction — and the first
/// definite answer stops the others.
///
/// Localization shares the first thread with IC3 rather than taking a thread of its own: on
/// two cores a third thread slows every engine (below), and IC3 is what localization runs on
/// each abstraction anyway.
///
/// BMC and k-induction share a thread because k-induction's base case is BMC; the thread
/// this frees runs a second IC3, whose different search finds proofs and counterexamples the
/// first misses within the time limit (IC3 answers most designs). The second IC3 runs only
/// with at least three cores: on two, three threads leave each engine two thirds of a core,
/// and the designs that need one engine's full time lose
/// (docs/decisions.md#hardware-portfolio-threads: on the 20-design subset with two threads the same
/// 17 solved, PAR-2 165 s instead of 190 s, `exit.5` 8.1 s instead of 19.7 s).
///
/// `threads` is the caller's budget (0 = the machine's cores). With 0 on a one-core machine
/// the portfolio still runs two threads (as before: BMC finds the deep counterexamples IC3
/// may not); an explicit budget of one runs IC3 alone.
fn portfolio(aig: &Aig, ctl: &Control, threads: usize) -> EngineResult {
    let threads = if threads == 0 {
        std::thread::available_parallelism()
            .map_or(1, usize::from)
            .max(2)
    } else {
        threads
    };
    if threads == 1 {
        return crate::ic3::ic3(aig, ctl);
    }
    portfolio_with(aig, ctl, threads.min(3))
}

/// The portfolio with `threads` (2 or 3) engines; see [`portfolio`].
fn portfolio_with(aig: &Aig, ctl: &Control, threads: usize) -> EngineResult {
    let (tx, rx) = std::sync::mpsc::channel();
    let children: Vec<Control> = (0..threads.clamp(2, 3)).map(|_| ctl.child()).collect();
    std::thread::scope(|scope| {
        for (i, c) in children.iter().enumerate() {
            let tx = tx.clone();
            scope.spawn(move || {
                let r = match i {
                    0 => crate::loc::ic3_then_loc(aig, c),
                    1 => crate::kind::kind_bmc(aig, c),
                    _ => crate::ic3::ic3_variant(aig, c, true),
                };
                let _ = tx.send(r);
            });
        }
        drop(tx);
        let mut last =
            EngineResult::Unknown(UnknownReason::Incomplete("no engine answered".into()));
        for r in rx.iter() {
            if !matches!(r, EngineResult::Unknown(_)) {
                for c in &children {
                    c.stop();
                }
                return r;
            }
            if matches!(last, EngineResult::Unknown(UnknownReason::Incomplete(_))) {
                last = r;
            }
        }
        last
    })
}

fn certify(orig: &Aig, red: &Reduced, res: EngineResult, ctl: &Control) -> Verdict {
    match certify_unstopped(orig, red, res, ctl) {
        // A check cut short by the limits is no evidence against the answer: it is unknown
        // for the limit's reason, not a certificate failure.
        Verdict::Unknown(UnknownReason::Incomplete(_)) if ctl.should_stop().is_some() => {
            Verdict::Unknown(ctl.should_stop().unwrap_or(UnknownReason::Timeout))
        }
        v => v,
    }
}

fn certify_unstopped(orig: &Aig, red: &Reduced, res: EngineResult, ctl: &Control) -> Verdict {
    let aux: Vec<Vec<ALit>> = red
        .const_latches
        .iter()
        .map(|&(i, v)| vec![2 * orig.latches[i].var + (!v) as u32])
        .collect();
    match res {
        EngineResult::Unknown(r) => Verdict::Unknown(r),
        EngineResult::Unsafe(raw) => {
            let mut t = Trace {
                init: orig.latches.iter().map(|l| l.init == Init::One).collect(),
                inputs: vec![vec![false; orig.inputs.len()]; raw.inputs.len()],
                bad_index: 0,
            };
            for (i, &o) in red.latch_orig.iter().enumerate() {
                t.init[o] = raw.init[i];
            }
            for (step, vals) in raw.inputs.iter().enumerate() {
                for (i, &o) in red.input_orig.iter().enumerate() {
                    t.inputs[step][o] = vals[i];
                }
                // Merged inputs take their constant (an input dropped by the cone of
                // influence is irrelevant and stays 0).
                for &(o, c) in &red.const_inputs {
                    t.inputs[step][o] = c;
                }
            }
            match crate::sim::check_trace(orig, &mut t) {
                Ok(()) => Verdict::Unsafe(t),
                Err(e) => Verdict::Unknown(UnknownReason::Incomplete(format!(
                    "counterexample failed simulation: {e}"
                ))),
            }
        }
        EngineResult::Safe(Proof::Invariant(clauses)) => {
            let mut idx = vec![usize::MAX; red.aig.max_var as usize + 1];
            for (i, l) in red.aig.latches.iter().enumerate() {
                idx[l.var as usize] = red.latch_orig[i];
            }
            let mut inv: Vec<Vec<ALit>> = Vec::with_capacity(clauses.len() + aux.len());
            for c in &clauses {
                let mut oc = Vec::with_capacity(c.len());
                for &l in c {
                    match idx.get((l >> 1) as usize) {
                        Some(&o) if o != usize::MAX => oc.push(2 * orig.latches[o].var + (l & 1)),
                        _ => {
                            return Verdict::Unknown(UnknownReason::Incomplete(format!(
                                "invariant literal {l} is not a latch"
                            )));
                        }
                    }
                }
                inv.push(oc);
            }
            inv.extend(aux);
            match crate::cert::check_invariant(orig, &inv, true, ctl) {
                Ok(()) => Verdict::Safe(SafeProof::Invariant(inv)),
                Err(e) => Verdict::Unknown(UnknownReason::Incomplete(format!(
                    "invariant failed its check: {e}"
                ))),
            }
        }
        EngineResult::Safe(Proof::KInduction(k)) => {
            match crate::cert::check_kinduction(orig, k, &aux, ctl) {
                Ok(()) => Verdict::Safe(SafeProof::KInduction { k, aux }),
                Err(e) => Verdict::Unknown(UnknownReason::Incomplete(format!(
                    "k-induction proof failed its check: {e}"
                ))),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portfolio_with_two_and_three_threads_answers() {
        let ctl = Control::default();
        let safe = crate::parse_aiger(include_str!("../tests/data/mod6_safe.aag").as_bytes())
            .expect("valid aag");
        let bad = crate::parse_aiger(include_str!("../tests/data/mod6_unsafe.aag").as_bytes())
            .expect("valid aag");
        for threads in [2, 3] {
            assert!(matches!(
                portfolio_with(&safe, &ctl, threads),
                EngineResult::Safe(_)
            ));
            assert!(matches!(
                portfolio_with(&bad, &ctl, threads),
                EngineResult::Unsafe(_)
            ));
        }
        assert!(matches!(
            check(&safe, EngineKind::Portfolio, &ctl),
            Verdict::Safe(_)
        ));
        assert!(matches!(
            check(&bad, EngineKind::Portfolio, &ctl),
            Verdict::Unsafe(_)
        ));
    }

    #[test]
    fn portfolio_honours_any_thread_budget() {
        let ctl = Control::default();
        let safe = crate::parse_aiger(include_str!("../tests/data/mod6_safe.aag").as_bytes())
            .expect("valid aag");
        let bad = crate::parse_aiger(include_str!("../tests/data/mod6_unsafe.aag").as_bytes())
            .expect("valid aag");
        for threads in [0, 1, 2, 3, 8] {
            assert!(matches!(
                check_threads(&safe, EngineKind::Portfolio, threads, &ctl),
                Verdict::Safe(_)
            ));
            assert!(matches!(
                check_threads(&bad, EngineKind::Portfolio, threads, &ctl),
                Verdict::Unsafe(_)
            ));
        }
    }
}
