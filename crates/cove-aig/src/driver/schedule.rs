//! Which engines the hardware portfolio runs: data, one engine spec per entry, written in
//! the words `--engine` takes (`loc:ic3-first` runs alone as `cove solve --engine
//! loc:ic3-first`; [`EngineConfig::parse_spec`]).
//!
//! With one thread the portfolio runs [`ALONE`] in the calling thread; with `n ≥ 2` threads
//! the first `n` entries of [`PARALLEL`] start side by side, one thread each, and the first
//! definite answer stops the others. An entry that gives up does not hand its thread on (no
//! entry is left waiting: there are at most as many entries as the portfolio uses threads).
//!
//! Why these entries, in this order:
//! - `ic3-loc`: IC3 answers most designs; localization shares its thread rather than taking
//!   one (on two cores a third thread slows every engine, and IC3 is what localization runs on
//!   each abstraction anyway; [`crate::engines::localization::ic3_then_loc`]).
//! - `kind-bmc`: BMC and k-induction share a thread because k-induction's base case is BMC;
//!   BMC finds the deep counterexamples IC3 may not ([`crate::engines::kind::kind_bmc`]).
//! - `ic3-plain`: a second IC3 without lemma prediction, whose different search finds proofs
//!   and counterexamples the first misses within the time limit. It runs only with at least
//!   three threads: on two cores, three threads leave each engine two thirds of a core and the
//!   designs that need one engine's full time lose
//!   (docs/decisions.md#hardware-portfolio-threads: on the 20-design subset with two threads the
//!   same 17 solved, PAR-2 165 s instead of 190 s, `exit.5` 8.1 s instead of 19.7 s).
//! - alone, IC3 (with prediction): it is complete and finds most counterexamples cove finds.

use crate::EngineConfig;

/// The portfolio's engine when it has one thread, in the words `--engine` takes
/// ([`EngineConfig::parse_spec`]).
pub const ALONE: &str = "ic3";

/// The portfolio's entries in priority order, in the words `--engine` takes; with `n ≥ 2`
/// threads the first `n` run.
pub const PARALLEL: [&str; 3] = ["loc:ic3-first", "kind:balanced", "ic3:no-predict"];

/// An entry of the schedule as an engine (the entries are checked by a unit test).
fn entry(spec: &str) -> EngineConfig {
    EngineConfig::parse_spec(spec).unwrap_or_else(|e| panic!("schedule entry '{spec}': {e}"))
}

/// The entries that run with a budget of `threads` threads (0 = one per available core, and
/// at least two: on a one-core machine BMC still runs beside IC3, as it finds the deep
/// counterexamples IC3 may not; an explicit budget of one runs [`ALONE`]).
pub fn entries(threads: usize) -> Vec<EngineConfig> {
    let threads = if threads == 0 {
        std::thread::available_parallelism()
            .map_or(1, usize::from)
            .max(2)
    } else {
        threads
    };
    if threads == 1 {
        vec![entry(ALONE)]
    } else {
        PARALLEL[..threads.min(PARALLEL.len())]
            .iter()
            .map(|s| entry(s))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_follow_the_thread_budget() {
        let names = |t| entries(t).iter().map(|e| e.name()).collect::<Vec<_>>();
        assert_eq!(names(1), ["ic3"]);
        assert_eq!(names(2), ["ic3-loc", "kind-bmc"]);
        assert_eq!(names(3), ["ic3-loc", "kind-bmc", "ic3-plain"]);
        assert_eq!(names(8), names(3));
        assert!(entries(0).len() >= 2);
        // Every entry is an engine of the registry, runnable alone under its name, and
        // printed back in the words it is written in.
        for s in PARALLEL.iter().chain([&ALONE]) {
            let e = entry(s);
            assert_eq!(EngineConfig::parse(e.name()).as_ref(), Some(&e));
            assert_eq!(e.spec(), *s);
        }
        assert_eq!(entry("ic3-ctg").spec(), "ic3:ctg");
        assert_eq!(entry("ic3:ctg,no-predict").spec(), "ic3:no-predict,ctg");
        assert!(
            EngineConfig::parse_spec("bmc:ctg")
                .unwrap_err()
                .contains("no option 'ctg'")
        );
        assert!(EngineConfig::parse_spec("ic3:predict=7").is_err());
    }
}
