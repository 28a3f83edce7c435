//! Which engines the portfolio runs, chosen from the system's shape.
//!
//! The schedule is data: one list of [`EngineSpec`]s per [`Shape`], in priority order. With
//! `n` threads the first `n` entries start; when one gives up without an answer the next
//! one takes its thread. With one thread the first entry runs alone (measured: time-slicing
//! two engines on one core lost more files to the halved budget than it gained) unless it
//! gives up before the limit; then the others follow in turn.
//!
//! The entries that take turns on a thread run in [`Rounds`]: the first round lasts
//! [`FIRST_ROUND`] (or the whole limit when it is shorter) and every slice is a share of the
//! round's time left; when the list is through and the limit is not reached, the entries
//! stopped by their slice run again in a round that ends three times as late ([`ROUND_GROWTH`]). A longer limit then never
//! makes a run worse in its first 20 s: before rounds, every slice was a share of the whole
//! limit, so at `--timeout 60` k-induction started later and proved `reve/025-horn` in 7 s,
//! while at `--timeout 20` its slice (4 s) ended before its proof (6.4 s); and at a
//! competition's 1,800 s limit k-induction alone held the second thread for six minutes
//! before any other entry ran.

use crate::engine::Engine;
use crate::engines::EngineConfig;
use crate::engines::bmc::BmcConfig;
use crate::engines::cells::CellsConfig;
use crate::engines::clause_terms::TermsConfig;
use crate::engines::hardware::HwConfig;
use crate::engines::imc::ImcConfig;
use crate::engines::kind::KindConfig;
use crate::engines::lawi::LawiConfig;
use crate::engines::linear_bmc::LinearBmcConfig;
use crate::engines::pdkind::PdKindConfig;
use crate::engines::predabs::PredAbsConfig;
use crate::engines::run_phases::PhasesConfig;
use crate::engines::spacer_abs::SpacerAbsConfig;
use crate::engines::split_tpa::SplitTpaConfig;
use crate::engines::tpa::TpaConfig;
use crate::system::ChcSystem;
use cove_logic::{Sort, TermStore};
use std::time::Duration;

/// How long the first round of the time-sliced entries lasts ([`Rounds`]): the limit the
/// schedule's shares were measured at, so that a run with a longer limit does, for its first
/// 20 s, what a 20 s run does.
pub const FIRST_ROUND: Duration = Duration::from_secs(20);

/// Each round ends this many times as late as the one before it (20 s, then 60 s, 180 s,
/// ...; a round after which a shorter one would be left goes to the limit): an entry's slice
/// grows threefold from round to round, and the rounds before the last take at most about
/// a third of the run.
pub const ROUND_GROWTH: u32 = 3;

/// The rounds in which the time-sliced entries take turns (see the module documentation).
/// Times are measured from the start of the race.
#[derive(Clone, Debug)]
pub struct Rounds {
    /// The race's time limit (`None`: none; the rounds then go on growing).
    limit: Option<Duration>,
    /// When the current round ends.
    end: Duration,
}

impl Rounds {
    /// The first round, for a race with `limit` left.
    pub fn new(limit: Option<Duration>) -> Rounds {
        Rounds {
            limit,
            end: limit.map_or(FIRST_ROUND, |l| l.min(FIRST_ROUND)),
        }
    }

    /// True in the round that ends at the limit: its entries' slices are shares of the time
    /// left, and an entry without a share runs until the limit.
    pub fn is_last(&self) -> bool {
        self.limit.is_some_and(|l| self.end >= l)
    }

    /// When the current round ends, from the race's start.
    pub fn end(&self) -> Duration {
        self.end
    }

    /// Moves on to the next round that ends after `elapsed`; `false` when the current round
    /// is the last.
    pub fn advance(&mut self, elapsed: Duration) -> bool {
        if self.is_last() {
            return false;
        }
        loop {
            let before = self.end;
            self.end = self.end.saturating_mul(ROUND_GROWTH);
            if let Some(l) = self.limit {
                // A last round no longer than this one would restart the entries only to stop
                // them soon after: this round goes to the limit instead.
                if l.saturating_sub(self.end) <= self.end - before {
                    self.end = l;
                }
                self.end = self.end.min(l);
            }
            if self.end > elapsed || self.is_last() {
                return true;
            }
        }
    }

    /// How long an entry started at `elapsed` may run: `share` of the round's time left,
    /// or, without a share, the rest of the round — `None` (until the race's end) in the last
    /// round and for an entry that `holds` its thread for the whole run (one of the first
    /// wave without a share: Spacer on thread 1).
    pub fn slice(&self, elapsed: Duration, share: Option<f64>, holds: bool) -> Option<Duration> {
        if holds {
            return None;
        }
        let left = self.end.saturating_sub(elapsed);
        match share {
            Some(s) => Some(left.mul_f64(s)),
            None if self.is_last() => None,
            None => Some(left),
        }
    }
}

/// One portfolio entry: an engine with its options.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Name reported when this entry answers: the engine's name, or the spec it is written in
    /// (`spacer:bottom-up`), which `--engine` takes to run the entry alone.
    pub label: String,
    /// The engine and its options.
    pub engine: EngineConfig,
    /// At most this fraction of the round's time left when the entry starts (time-slicing a
    /// thread among several engines, [`Rounds`]); `None` = until the round's end, or the
    /// run's deadline for an entry of the first wave (it holds its thread).
    pub share: Option<f64>,
    /// Solve the system strengthened with its inductive bounds ([`crate::preprocess::bounds`])
    /// when preprocessing is on. On for every engine but Spacer: the bounds let k-induction
    /// and Spacer prove loops whose lemmas need a bound no query mentions, yet Spacer on the
    /// strengthened system lost files it solves in 0.01 s on the plain one (its lemmas follow
    /// the models it sees), so the portfolio keeps one Spacer on each
    /// (docs/decisions.md#portfolio-bounds-per-entry).
    pub bounds: bool,
}

impl EngineSpec {
    /// `engine` alone: labelled with the engine's name, the whole time, with the bounds
    /// unless it is Spacer.
    pub fn single(engine: impl Into<EngineConfig>) -> EngineSpec {
        let engine = engine.into();
        EngineSpec {
            label: engine.create().name().to_string(),
            bounds: !matches!(engine, EngineConfig::Spacer(_)),
            engine,
            share: None,
        }
    }

    /// This entry with (or without) the inductive bounds.
    pub fn with_bounds(mut self, bounds: bool) -> EngineSpec {
        self.bounds = bounds;
        self
    }

    /// This entry limited to `share` of the time left when it starts.
    pub fn with_share(mut self, share: f64) -> EngineSpec {
        self.share = Some(share);
        self
    }

    /// Spacer as `spec` says, in the words `--engine` takes (`spacer:bottom-up` runs alone
    /// as `cove solve --engine spacer:bottom-up`), labelled with them, without bounds.
    fn spacer(spec: &str) -> EngineSpec {
        let engine = EngineConfig::parse_spec(spec)
            .unwrap_or_else(|e| panic!("schedule entry '{spec}': {e}"));
        debug_assert!(matches!(engine, EngineConfig::Spacer(_)));
        EngineSpec {
            label: spec.to_string(),
            engine,
            share: None,
            bounds: false,
        }
    }

    /// A fresh engine for this entry.
    pub fn create(&self) -> Box<dyn Engine> {
        self.engine.create()
    }
}

/// The shapes the schedule distinguishes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Every clause has at most one body atom (transition systems and their chains).
    Linear,
    /// Linear, and every predicate argument is `Real` (or `Bool`): LRA transition systems,
    /// where k-induction is the strongest engine (docs/decisions.md#portfolio-lra-kind-share).
    LinearReal,
    /// Some clause has two or more body atoms (procedure summaries, recursion).
    Nonlinear,
    /// Linear, with a bit-vector predicate argument: the hardware route first.
    LinearBv,
    /// Nonlinear, with a bit-vector predicate argument.
    NonlinearBv,
}

impl Shape {
    /// The shape of `sys`.
    pub fn of(sys: &ChcSystem, store: &TermStore) -> Shape {
        let bv = sys
            .preds
            .iter()
            .any(|&p| store.func(p).args.iter().any(|s| s.is_bv()))
            || sys
                .clauses
                .iter()
                .any(|c| c.vars.iter().any(|&v| store.var_sort(v).is_bv()));
        if bv {
            return if sys.is_linear() {
                Shape::LinearBv
            } else {
                Shape::NonlinearBv
            };
        }
        if sys.is_linear() {
            let sorts = || sys.preds.iter().flat_map(|&p| store.func(p).args.iter());
            let real = sorts().all(|s| matches!(s, Sort::Real | Sort::Bool))
                && sorts().any(|s| *s == Sort::Real);
            if real {
                Shape::LinearReal
            } else {
                Shape::Linear
            }
        } else {
            Shape::Nonlinear
        }
    }
}

/// The cell abstraction, on the second thread after the quick Houdini entries, with a small
/// slice: the invariants that speak of every cell of an array (`∀i < len. a[i] = 42`,
/// Solidity's arrays and mappings) are out of every other engine's reach, and over the
/// cells they are small arithmetic ones, found in about a second when they exist. On a
/// system without arrays the entry ends at once and hands its thread on. (First on the
/// thread, it delayed answers predicate abstraction gives in 0.1 s by its slice: solc's
/// `abi_encode_simple`, 0.2 s to 1.7 s.)
fn cells() -> EngineSpec {
    EngineSpec::single(CellsConfig::default()).with_share(0.15)
}

/// The portfolio's entries for `shape`, in priority order.
pub fn for_shape(shape: Shape) -> Vec<EngineSpec> {
    match shape {
        // Bit-vectors: the engines whose reasoning is exact over them (the others assume
        // arithmetic). Thread 1 blasts linear systems onto IC3; thread 2 runs BMC first
        // with a quarter of the time (bit-level IC3 misses shallow counterexamples through
        // 32-bit arithmetic that the word-level unrolling finds in a second: reve
        // `020-horn`, depth 3), then Spacer over bit-blasted queries with word-level
        // projection and interval lemmas.
        // The cell abstraction goes first on thread 2: memories (BTOR2 models over arrays,
        // `cove_chc::btor2`) whose safety is a statement about every cell. It is bounded by
        // work (a fraction of a second), and on a system without arrays it ends at once;
        // the hardware route declines arrays at once, so with one thread it follows
        // directly.
        Shape::LinearBv => vec![
            EngineSpec::single(HwConfig::default()).with_bounds(false),
            cells().with_bounds(false),
            EngineSpec::single(BmcConfig::default())
                .with_bounds(false)
                .with_share(0.25),
            EngineSpec::spacer("spacer"),
        ],
        Shape::NonlinearBv => vec![
            EngineSpec::spacer("spacer"),
            cells().with_bounds(false),
            EngineSpec::single(BmcConfig::default()).with_bounds(false),
        ],
        Shape::Linear | Shape::LinearReal => {
            // Thread 1: Spacer for the whole run. Thread 2 (and more): the other engines in
            // turn, each with a slice of the time left — k-induction first (strongest on the
            // LRA transition systems, where it gets nine tenths of the thread: every LRA-Lin
            // file the portfolio solved at 20 s was solved by k-induction or Spacer alone, and
            // the k-induction proofs of the largest systems need 12–17 s with their
            // certificates; docs/decisions.md#portfolio-lra-kind-share), then
            // abstraction refinement, the interpolation engines (split-TPA proves multi-phase
            // loops TPA does not), PD-KIND — and BMC with what remains
            // (docs/decisions.md#portfolio-linear-schedule).
            // On integer systems, Houdini over the clauses' own terms goes first with a small
            // slice: it is cheap, and it proves what needs `div`/`mod` terms no other engine's
            // lemmas contain (docs/decisions.md#portfolio-terms-first).
            let kind_share = if shape == Shape::LinearReal { 0.9 } else { 0.2 };
            let mut v = vec![EngineSpec::spacer("spacer")];
            // Then the phase-partitioned Houdini over candidates read off concrete runs
            // (multi-phase loops, whose invariants are disjunctions over the phases; cheap
            // when the runs give nothing).
            if shape == Shape::Linear {
                v.push(EngineSpec::single(TermsConfig::without_locations()).with_share(0.1));
                v.push(EngineSpec::single(PhasesConfig::default()).with_share(0.2));
                v.push(cells());
            }
            v.extend([
                // On LRA systems with its induction checks deferred while they have had twice
                // the base case's time: their deep counterexamples (`cav12/pipeline-bug`:
                // 91 % of the time in failing induction checks) need the base case deeper
                // (docs/decisions.md#kind-deferred-induction).
                EngineSpec::single(KindConfig {
                    balance: shape == Shape::LinearReal,
                    ..KindConfig::default()
                })
                .with_share(kind_share),
                EngineSpec::single(SpacerAbsConfig::default()).with_share(0.25),
                EngineSpec::single(ImcConfig::default()).with_share(0.3),
                EngineSpec::single(TpaConfig::default()).with_share(0.35),
                EngineSpec::single(SplitTpaConfig::default()).with_share(0.35),
                EngineSpec::single(PdKindConfig::default()).with_share(0.5),
                EngineSpec::single(LawiConfig::default()).with_share(0.5),
                EngineSpec::single(BmcConfig::default()),
                EngineSpec::spacer("spacer:bottom-up").with_bounds(true),
            ]);
            v
        }
        Shape::Nonlinear => {
            // Spacer on thread 1; abstraction refinement (complementary on the measured
            // files), BMC on the linear fragment (bugs of thread-modular encodings, cheap:
            // it ends at once when the fragment has no fact or query), BMC for deep
            // counterexamples and a second query order on thread 2; first, briefly, Houdini
            // over the clauses' own terms (docs/decisions.md#portfolio-terms-first).
            // No bounds here: on the nonlinear LIA track they changed no count, and they
            // slowed spacer-abs on a tree counterexample (corpus fib: 1.8 s to over 10 s).
            vec![
                EngineSpec::spacer("spacer"),
                EngineSpec::single(TermsConfig::without_locations())
                    .with_share(0.1)
                    .with_bounds(false),
                // Then Boolean predicate abstraction over the same atoms: the invariants of
                // the thread-modular encodings (ultimate's `LIA-NonLin`, one `Inv` over both
                // threads' locations, a clause that swaps the threads' slots) are clauses of
                // three and more literals over locations and a few data atoms, which no
                // fixed candidate shape covers (docs/decisions.md#predicate-abstraction).
                EngineSpec::single(PredAbsConfig::default())
                    .with_share(0.35)
                    .with_bounds(false),
                cells(),
                // Then the same candidates guarded by the values of program counters: the
                // thread-modular encodings (ultimate's `LIA-NonLin`, one `Inv` over both
                // threads' locations, a clause that swaps the threads' slots) need
                // invariants `pc = k → φ`, clauses Spacer's cubes reach only one location
                // at a time (docs/decisions.md#terms-location-guards).
                EngineSpec {
                    label: "terms-locations".into(),
                    engine: TermsConfig {
                        base: false,
                        locations: true,
                    }
                    .into(),
                    share: Some(0.3),
                    bounds: false,
                },
                EngineSpec::single(SpacerAbsConfig::default())
                    .with_share(0.5)
                    .with_bounds(false),
                EngineSpec::single(LinearBmcConfig::default())
                    .with_share(0.25)
                    .with_bounds(false),
                EngineSpec::single(BmcConfig::default())
                    .with_share(0.3)
                    .with_bounds(false),
                EngineSpec::spacer("spacer:bottom-up"),
            ]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn a_limit_of_at_most_the_first_round_is_one_round_as_before() {
        for limit in [5.0, 20.0] {
            let r = Rounds::new(Some(secs(limit)));
            assert!(r.is_last());
            // Shares of the time left; without a share, until the limit.
            assert_eq!(
                r.slice(secs(1.0), Some(0.5), false),
                Some(secs((limit - 1.0) / 2.0))
            );
            assert_eq!(r.slice(secs(1.0), None, false), None);
            assert_eq!(r.slice(secs(1.0), Some(0.5), true), None);
            assert!(!r.clone().advance(secs(limit)));
        }
    }

    #[test]
    fn a_longer_limit_keeps_the_first_round_and_then_grows_the_slices() {
        let (r20, mut r60) = (Rounds::new(Some(secs(20.0))), Rounds::new(Some(secs(60.0))));
        assert!(!r60.is_last());
        // The first 20 s: every slice that ends inside them is the one of a 20 s run.
        for (at, share) in [(0.0, 0.1), (0.4, 0.2), (4.4, 0.25), (12.0, 0.5)] {
            assert_eq!(
                r60.slice(secs(at), Some(share), false),
                r20.slice(secs(at), Some(share), false)
            );
        }
        // An entry without a share ends with the round (it may run again in the next).
        assert_eq!(r60.slice(secs(19.0), None, false), Some(secs(1.0)));
        // An entry holding its thread runs until the limit in every round.
        assert_eq!(r60.slice(secs(0.0), None, true), None);
        // The second round goes to the limit: k-induction's fifth gets 8 s where it had 4 s.
        assert!(r60.advance(secs(20.0)));
        assert!(r60.is_last());
        assert_eq!(r60.end(), secs(60.0));
        assert_eq!(r60.slice(secs(20.0), Some(0.2), false), Some(secs(8.0)));
        assert_eq!(r60.slice(secs(50.0), None, false), None);
        assert!(!r60.advance(secs(60.0)));
    }

    #[test]
    fn without_a_limit_the_rounds_triple_and_skip_rounds_already_over() {
        let mut r = Rounds::new(None);
        assert_eq!(r.end(), FIRST_ROUND);
        assert!(!r.is_last());
        assert_eq!(r.slice(secs(10.0), Some(0.5), false), Some(secs(5.0)));
        assert_eq!(r.slice(secs(10.0), None, false), Some(secs(10.0)));
        assert!(r.advance(secs(20.0)));
        assert_eq!(r.end(), secs(60.0));
        // An entry that overran its slice far: the next round still ends after it.
        assert!(r.advance(secs(500.0)));
        assert_eq!(r.end(), secs(540.0));
        // A competition's limit: 20, 60, 180, 540, then the rest to 1,800 s (a round from
        // 1,620 s would be shorter than the one before it).
        let mut c = Rounds::new(Some(secs(1800.0)));
        let mut ends = vec![c.end()];
        while c.advance(c.end()) {
            ends.push(c.end());
        }
        let want: Vec<Duration> = [20.0, 60.0, 180.0, 540.0, 1800.0]
            .iter()
            .map(|&s| secs(s))
            .collect();
        assert_eq!(ends, want);
    }

    fn shape(src: &str) -> Shape {
        let mut store = TermStore::new();
        let sys = crate::frontend::parse_chc(src.as_bytes(), &mut store).expect("parses");
        Shape::of(&sys, &store)
    }

    #[test]
    fn real_transition_systems_get_their_own_schedule() {
        let lra = "(set-logic HORN)(declare-fun I (Real Bool) Bool)\
            (assert (forall ((x Real) (b Bool)) (=> (= x 0.0) (I x b))))\
            (assert (forall ((x Real) (b Bool)) (=> (and (I x b) (> x 1.5)) false)))";
        let lia = "(set-logic HORN)(declare-fun I (Int Real) Bool)\
            (assert (forall ((x Int) (y Real)) (=> (= x 0) (I x y))))\
            (assert (forall ((x Int) (y Real)) (=> (and (I x y) (> x 1)) false)))";
        assert_eq!(shape(lra), Shape::LinearReal);
        assert_eq!(shape(lia), Shape::Linear);
        // k-induction leads thread 2 in both, with most of the time left on real systems.
        // (On integer systems after the short Houdini over the clauses' terms.)
        let share = |s: Shape| {
            for_shape(s)
                .into_iter()
                .find(|e| e.engine.name() == "kind")
                .and_then(|e| e.share)
        };
        assert_eq!(for_shape(Shape::LinearReal)[1].engine.name(), "kind");
        assert_eq!(for_shape(Shape::Linear)[1].engine.name(), "terms");
        assert!(share(Shape::LinearReal) > share(Shape::Linear));
    }
}
