//! Spacer with abstraction refinement (thesis Chapter 3, Figs. 3.2 and 3.7): search for an
//! abstraction of the clauses over which bounded proofs generalize.
//!
//! The loop (`--engine spacer-abs`):
//! 1. INITABS: every leaf of every clause constraint enabled (`space.rs`; the
//!    [`Variant::CegarOnly`] variant starts from no leaf instead).
//! 2. SOLVE the under-approximation: Spacer on the abstract system restricted to the
//!    invariant map 𝓘, with derivation depth at most `bound` (Spacer's bounded levels take the
//!    place of the thesis's down-counters: a bounded run is BndSafety up to `bound`).
//!    - An inductive invariant of the abstraction, conjoined with 𝓘, is one of the input.
//!    - A counterexample goes to CEGAR (`cegar.rs`): feasible on the input system = `unsat`
//!      with concrete values; otherwise the core's leaves are enabled and SOLVE repeats.
//!    - Safe up to `bound`: EXTRACTINVS (`crate::houdini`, over the input clauses) grows 𝓘
//!      from the bounded proof's lemmas; if 𝓘 refutes every query it is the answer. Otherwise
//!      PBA (`pba.rs`) re-abstracts to the leaves the bounded proof needs, and NEXTUNDER raises `bound`.
//!      By default the next run starts over from bound 0 on the new abstraction; with
//!      [`SpacerAbsConfig::reuse`] it starts at the new bound from the PBA-checked proof instead
//!      (measured slower on `gcnr`: the old low-level lemmas stand in for the more general
//!      ones a fresh run finds on the coarser abstraction;
//!      `docs/decisions.md#abs-nextunder-restarts`).
//!
//! Beyond the thesis (which restricts Ch. 3 to transition systems), everything is per clause:
//! nonlinear clauses are abstracted leaf by leaf, counterexamples are derivation trees, and
//! Houdini and PBA check one clause with all of its body atoms.
//!
//! Soundness never rests on the abstraction: every `sat` is checked here with
//! [`crate::cert::check_invariants`] against the input system, every `unsat` with
//! [`crate::cert::check_derivation`], before it is returned (and again by the caller).

mod cegar;
mod pba;
mod seeds;
mod space;

use crate::cert;
use crate::engine::{BuildEngine, Control, Engine, OptionTable, Stats, no_option};
use crate::engines::spacer::{Bounded, Frame, Placeholders, Spacer, SpacerConfig};
use crate::invariant_map::InvMap;
use crate::result::{ChcResult, Invariants, UnknownReason};
use crate::share::LemmaPool;
use crate::system::ChcSystem;
use cegar::Feasibility;
use cove_control::engine_options::{OptionValue, OptionWord};
use cove_logic::TermStore;
use pba::ProofFrames;
use space::Space;

/// The thesis's variants of the loop (Table 3.1 and 3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// PBA after every safe bound, CEGAR on spurious counterexamples (the thesis's SPACER,
    /// the default).
    PbaCegar,
    /// As `PbaCegar`, but a spurious counterexample makes the abstraction concrete again
    /// ("PBA in the hardware sense", Table 3.1's `t_p` column).
    ConcretizeOnSpurious,
    /// Plain CEGAR: start from the coarsest abstraction (no leaf) and never re-abstract
    /// (Table 3.2).
    CegarOnly,
}

impl Variant {
    /// Every variant's name, in the order of the enum (for `--help` and error messages).
    pub const NAMES: &'static [&'static str] = &["pba", "concretize", "cegar"];

    /// Parses `pba`, `concretize` or `cegar`.
    pub fn parse(s: &str) -> Option<Variant> {
        match s {
            "pba" => Some(Variant::PbaCegar),
            "concretize" => Some(Variant::ConcretizeOnSpurious),
            "cegar" => Some(Variant::CegarOnly),
            _ => None,
        }
    }

    /// The variant's name (one of [`Variant::NAMES`]).
    pub fn name(self) -> &'static str {
        match self {
            Variant::PbaCegar => "pba",
            Variant::ConcretizeOnSpurious => "concretize",
            Variant::CegarOnly => "cegar",
        }
    }
}

/// Options of the abstraction engine.
#[derive(Clone, Debug)]
pub struct SpacerAbsConfig {
    /// Which variant of the loop.
    pub variant: Variant,
    /// Options of the Spacer runs that SOLVE the under-approximations.
    pub spacer: SpacerConfig,
    /// Give up (unknown) beyond this bound.
    pub max_bound: Option<usize>,
    /// Seed EXTRACTINVS with relations between lock-step counters (`seeds.rs`).
    pub seeds: bool,
    /// NEXTUNDER keeps the bounded proof: the next Spacer run starts at the new bound with
    /// the previous run's lemmas instead of re-deriving every level from bound 0. Valid
    /// because PBA has re-checked every step of that proof on the new abstraction (the
    /// lemmas are reused only when all steps checked) and refinement only adds
    /// constraints.
    pub reuse: bool,
}

impl Default for SpacerAbsConfig {
    fn default() -> Self {
        SpacerAbsConfig {
            variant: Variant::PbaCegar,
            spacer: SpacerConfig::default(),
            max_bound: None,
            seeds: true,
            reuse: false,
        }
    }
}

/// The abstraction loop's option words besides `variant=pba|concretize|cegar`.
const SPACER_ABS_OPTIONS: OptionTable<SpacerAbsConfig> = OptionTable {
    switches: &[("seeds", |c| &mut c.seeds), ("reuse", |c| &mut c.reuse)],
    numbers: &[("max-bound", |c| &mut c.max_bound)],
};

impl BuildEngine for SpacerAbsConfig {
    const NAME: &'static str = "spacer-abs";
    const OPTIONS: &'static str = "variant=pba|concretize|cegar, seeds, reuse, max-bound=N";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(SpacerAbs::new(self.clone()))
    }

    fn set_option(&mut self, w: &OptionWord) -> Result<(), String> {
        if w.key == "variant" {
            let v = match w.value {
                OptionValue::Value(v) => Variant::parse(v),
                _ => None,
            };
            self.variant = v.ok_or_else(|| {
                format!(
                    "option 'variant' of spacer-abs takes one of {}",
                    Variant::NAMES.join(", ")
                )
            })?;
            return Ok(());
        }
        match SPACER_ABS_OPTIONS.set(self, w)? {
            true => Ok(()),
            false => Err(no_option(Self::NAME, w.key, Self::OPTIONS)),
        }
    }

    fn option_words(&self) -> Vec<String> {
        let mut v = vec![];
        if self.variant != SpacerAbsConfig::default().variant {
            v.push(format!("variant={}", self.variant.name()));
        }
        v.extend(SPACER_ABS_OPTIONS.differences(self));
        v
    }
}

/// The abstraction-refinement engine.
#[derive(Default)]
pub struct SpacerAbs {
    config: SpacerAbsConfig,
    /// Other engines' lemmas, taken as EXTRACTINVS candidates (portfolio runs).
    pool: Option<LemmaPool>,
    stats: Vec<(String, String)>,
    abstraction: Vec<(usize, String, bool)>,
}

impl SpacerAbs {
    /// An engine with the given options.
    pub fn new(config: SpacerAbsConfig) -> SpacerAbs {
        SpacerAbs {
            config,
            ..Default::default()
        }
    }

    /// The last run's final abstraction: per leaf its clause, the leaf printed, and whether
    /// it was enabled.
    pub fn abstraction(&self) -> &[(usize, String, bool)] {
        &self.abstraction
    }
}

/// Counters of one run (thesis Table 3.1: B, a_f, a_m; Table 3.2: iterations).
#[derive(Default)]
struct Counters {
    iterations: usize,
    refinements: usize,
    pba_rounds: usize,
    pba_failed: usize,
    max_enabled: usize,
    bound: usize,
    /// Lemmas carried over to a next bound (`SpacerAbsConfig::reuse`).
    reused: usize,
    /// Candidates taken from other engines' offers.
    shared: usize,
}

impl Engine for SpacerAbs {
    fn name(&self) -> &'static str {
        SpacerAbsConfig::NAME
    }

    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult {
        if let Some(why) = crate::system::unsupported_feature(sys, store) {
            return ChcResult::Unknown(UnknownReason::Unsupported(why));
        }
        let space = Space::new(store, sys);
        let n = space.leaves.len();
        let mut enabled = vec![self.config.variant != Variant::CegarOnly; n];
        let mut inv = InvMap::new(store, sys);
        let mut k = Counters::default();
        let result = self.run(store, sys, ctl, &space, &mut enabled, &mut inv, &mut k);
        let count = enabled.iter().filter(|e| **e).count();
        let pct = |x: usize| (x * 100).checked_div(n).unwrap_or(100);
        self.stats = vec![
            ("abs-leaves".into(), n.to_string()),
            ("abs-final-pct".into(), pct(count).to_string()),
            ("abs-max-pct".into(), pct(k.max_enabled).to_string()),
            ("abs-bound".into(), k.bound.to_string()),
            ("abs-iterations".into(), k.iterations.to_string()),
            ("abs-refinements".into(), k.refinements.to_string()),
            ("abs-pba-rounds".into(), k.pba_rounds.to_string()),
            ("abs-pba-unchecked-steps".into(), k.pba_failed.to_string()),
            ("abs-invariants".into(), inv.size().to_string()),
            ("abs-reused-lemmas".into(), k.reused.to_string()),
            ("abs-shared-candidates".into(), k.shared.to_string()),
        ];
        self.abstraction = (0..n)
            .map(|l| {
                let ci = space.clauses.iter().position(|c| c.leaves.contains(&l));
                let mut s = String::new();
                cove_logic::print::write_term(&mut s, store, space.leaves[l].term);
                (ci.unwrap_or(0), s, enabled[l])
            })
            .collect();
        result
    }

    fn share(&mut self, pool: &LemmaPool) {
        self.pool = Some(pool.clone());
    }

    fn takes_offers(&self) -> bool {
        true
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

impl SpacerAbs {
    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        store: &mut TermStore,
        sys: &ChcSystem,
        ctl: &Control,
        space: &Space,
        enabled: &mut Vec<bool>,
        inv: &mut InvMap,
        k: &mut Counters,
    ) -> ChcResult {
        let cfg = &self.config;
        // The last safe bound's proof and the bound to continue from (`SpacerAbsConfig::reuse`).
        let mut seed: Vec<Frame> = Vec::new();
        let mut start = 0;
        let mut vars = Placeholders::default();
        loop {
            if let Some(r) = ctl.should_stop() {
                return ChcResult::Unknown(r);
            }
            if let Some(max) = cfg.max_bound
                && k.bound > max
            {
                return ChcResult::Unknown(UnknownReason::Incomplete(format!(
                    "bound {max} reached"
                )));
            }
            k.iterations += 1;
            let on = enabled.iter().filter(|e| **e).count();
            k.max_enabled = k.max_enabled.max(on);
            if ctl.verbosity > 0 {
                eprintln!(
                    "spacer-abs: bound {}, {on}/{} leaves, {} invariants",
                    k.bound,
                    enabled.len(),
                    inv.size()
                );
            }
            let asys = space.abstract_system(store, sys, enabled, inv);
            let mut spacer = Spacer::new(cfg.spacer.clone()).with_placeholders(vars);
            k.reused += seed.iter().map(|f| f.lemmas.len()).sum::<usize>();
            let bounded = spacer.solve_bounded_from(store, &asys, ctl, Some(k.bound), &seed, start);
            vars = spacer.take_placeholders();
            match bounded {
                Bounded::Done(ChcResult::Sat(ainv)) => {
                    let mut both = inv.clone();
                    for (p, d) in &ainv.defs {
                        let f = both.import(store, *p, &d.params, d.body);
                        both.sets.entry(*p).or_default().push(f);
                    }
                    let w = both.invariants(store);
                    return certified_sat(store, sys, w, ctl);
                }
                Bounded::Done(ChcResult::Unsat(d)) => {
                    match cegar::feasible(store, space, sys, &d, ctl) {
                        Err(r) => return ChcResult::Unknown(r),
                        Ok(Feasibility::Real(d)) => {
                            return match cert::check_derivation(store, sys, &d) {
                                Ok(()) => ChcResult::Unsat(d),
                                Err(e) => ChcResult::Unknown(UnknownReason::Incomplete(format!(
                                    "concrete counterexample did not check: {e}"
                                ))),
                            };
                        }
                        Ok(Feasibility::Spurious(core)) => {
                            k.refinements += 1;
                            let fresh = core.iter().filter(|&&l| !enabled[l]).count();
                            if fresh == 0 || cfg.variant == Variant::ConcretizeOnSpurious {
                                if enabled.iter().all(|e| *e) {
                                    return ChcResult::Unknown(UnknownReason::Incomplete(
                                        "spurious counterexample on the input system".into(),
                                    ));
                                }
                                enabled.iter_mut().for_each(|e| *e = true);
                            } else {
                                for l in core {
                                    enabled[l] = true;
                                }
                            }
                        }
                    }
                }
                Bounded::Done(r) => return r,
                Bounded::Safe(frames) => {
                    // EXTRACTINVS: candidates = 𝓘 and every lemma of the bounded proof.
                    let mut proof = ProofFrames::default();
                    let mut cands = inv.clone();
                    if cfg.seeds && k.pba_rounds == 0 && k.bound == 0 {
                        seeds::seed(store, sys, &mut cands, ctl);
                    }
                    // Other engines' lemmas are candidates like the proof's: Houdini keeps
                    // only what is inductive for the input system.
                    if let Some(pool) = &self.pool {
                        k.shared += cands.add_shared(store, &pool.candidates());
                    }
                    for fr in &frames {
                        for &(f, l) in &fr.lemmas {
                            let f = cands.import(store, fr.pred, &fr.params, f);
                            proof.entry(fr.pred).or_default().push((f, l));
                            let set = cands.sets.entry(fr.pred).or_default();
                            if !set.contains(&f) {
                                set.push(f);
                            }
                        }
                    }
                    if let Err(r) = crate::houdini::houdini(store, sys, &mut cands, ctl) {
                        return ChcResult::Unknown(r);
                    }
                    *inv = cands;
                    match crate::houdini::blocks_queries(store, sys, inv, ctl) {
                        Err(r) => return ChcResult::Unknown(r),
                        Ok(true) => {
                            let w = inv.invariants(store);
                            return certified_sat(store, sys, w, ctl);
                        }
                        Ok(false) => {}
                    }
                    // Without PBA the abstraction only gains constraints (𝓘 grows), so the
                    // proof stays valid; with it, only if PBA re-checked every step.
                    let mut proof_holds = true;
                    if cfg.variant != Variant::CegarOnly {
                        k.pba_rounds += 1;
                        match pba::pba(store, space, &proof, inv, k.bound, ctl) {
                            Err(r) => return ChcResult::Unknown(r),
                            Ok((e, failed)) => {
                                *enabled = e;
                                k.pba_failed += failed;
                                proof_holds = failed == 0;
                            }
                        }
                    }
                    if cfg.reuse && proof_holds {
                        seed = frames;
                        start = k.bound + 1;
                    } else {
                        seed.clear();
                        start = 0;
                    }
                    // NEXTUNDER: all bounds up by one.
                    k.bound += 1;
                }
            }
        }
    }
}

/// `Sat(inv)` if the independent checker accepts `inv` for the input system.
fn certified_sat(
    store: &mut TermStore,
    sys: &ChcSystem,
    inv: Invariants,
    ctl: &Control,
) -> ChcResult {
    match cert::check_invariants(store, sys, &inv, ctl) {
        Ok(()) => ChcResult::Sat(inv),
        Err(e) => ChcResult::Unknown(
            ctl.should_stop()
                .unwrap_or_else(|| UnknownReason::Incomplete(format!("invariant rejected: {e}"))),
        ),
    }
}
