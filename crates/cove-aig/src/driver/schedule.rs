//! Which engines the hardware portfolio runs: data, one [`EngineConfig`] per entry.
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
use crate::engines::ic3::Ic3Config;
use crate::engines::kind::KindConfig;
use crate::engines::localization::LocConfig;

/// The portfolio's engine when it has one thread.
pub const ALONE: EngineConfig = EngineConfig::Ic3(Ic3Config {
    predict: true,
    lifted_ctg: false,
});

/// The portfolio's entries in priority order; with `n ≥ 2` threads the first `n` run.
pub const PARALLEL: [EngineConfig; 3] = [
    EngineConfig::Loc(LocConfig { ic3_first: true }),
    EngineConfig::Kind(KindConfig { balanced: true }),
    EngineConfig::Ic3(Ic3Config {
        predict: false,
        lifted_ctg: false,
    }),
];

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
        vec![ALONE]
    } else {
        PARALLEL[..threads.min(PARALLEL.len())].to_vec()
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
        // Every entry is a named engine of the registry, runnable alone.
        for e in PARALLEL.iter().chain([&ALONE]) {
            assert_eq!(EngineConfig::parse(e.name()).as_ref(), Some(e));
        }
    }
}
