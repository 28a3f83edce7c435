//! Per-instance results and their per-track aggregation (counts and PAR-2).
//!
//! PAR-2 ("penalised average runtime, factor 2") charges each instance its wall-clock time if
//! it was solved (correct `sat`/`unsat` within the limit) and twice the time limit otherwise —
//! wrong answers, unknowns, timeouts, memouts and errors alike. The sum is reported together
//! with the average over the track's instances, so tracks of different sizes compare.

use super::answer::Verdict;
use super::manifest::{Expected, Instance};
use super::runner::RunResult;

/// One side's (Cove's or the reference's) run on one instance, judged.
#[derive(Clone, Debug)]
pub struct SideResult {
    /// Measurements and raw outcome.
    pub run: RunResult,
    /// The outcome judged against the manifest.
    pub verdict: Verdict,
}

/// Both sides' results on one instance.
#[derive(Clone, Debug)]
pub struct InstanceResult {
    /// The manifest entry.
    pub instance: Instance,
    /// Cove's result.
    pub cove: SideResult,
    /// The reference solver's result, when `--vs` was given.
    pub reference: Option<SideResult>,
}

/// The PAR-2 contribution of one run.
pub fn par2_score(verdict: Verdict, secs: f64, timeout_secs: f64) -> f64 {
    if verdict.is_solved() {
        secs
    } else {
        2.0 * timeout_secs
    }
}

/// Aggregate counts for one side on one track.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct SideStats {
    /// Instances run.
    pub total: usize,
    /// Correctly solved within the limit.
    pub solved: usize,
    /// Of those, expected `sat`.
    pub solved_sat: usize,
    /// Of those, expected `unsat`.
    pub solved_unsat: usize,
    /// Wrong answers.
    pub wrong: usize,
    /// Timeouts (killed, `timeout`, or correct but late).
    pub timeout: usize,
    /// `unknown` answers.
    pub unknown: usize,
    /// Out of memory.
    pub memout: usize,
    /// Errors.
    pub error: usize,
    /// PAR-2 sum in seconds.
    pub par2: f64,
}

impl SideStats {
    /// Adds one judged run.
    pub fn add(&mut self, expected: Expected, side: &SideResult, timeout_secs: f64) {
        self.total += 1;
        match side.verdict {
            Verdict::Solved => {
                self.solved += 1;
                match expected {
                    Expected::Sat => self.solved_sat += 1,
                    Expected::Unsat => self.solved_unsat += 1,
                }
            }
            Verdict::Wrong => self.wrong += 1,
            Verdict::Timeout => self.timeout += 1,
            Verdict::Unknown => self.unknown += 1,
            Verdict::MemOut => self.memout += 1,
            Verdict::Error => self.error += 1,
        }
        self.par2 += par2_score(side.verdict, side.run.wall_secs, timeout_secs);
    }

    /// PAR-2 averaged over the instances (0 for an empty track).
    pub fn par2_avg(&self) -> f64 {
        if self.total == 0 {
            0.0
        } else {
            self.par2 / self.total as f64
        }
    }
}

/// The summary of one track (or of all tracks together).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TrackSummary {
    /// Track name (`all` for the total).
    pub track: String,
    /// Cove's counts.
    pub cove: SideStats,
    /// The reference's counts.
    pub reference: Option<SideStats>,
    /// Paths the reference solves and Cove does not.
    pub reference_only: Vec<String>,
    /// Paths where Cove answered wrongly.
    pub cove_wrong: Vec<String>,
    /// Paths where the reference answered wrongly.
    pub reference_wrong: Vec<String>,
}

/// Summarises results per track (in order of first appearance), followed by an `all` entry
/// when there is more than one track.
pub fn summarize(results: &[InstanceResult], timeout_secs: f64) -> Vec<TrackSummary> {
    let mut tracks: Vec<String> = Vec::new();
    for r in results {
        if !tracks.contains(&r.instance.track) {
            tracks.push(r.instance.track.clone());
        }
    }
    let mut out: Vec<TrackSummary> = tracks
        .iter()
        .map(|t| summarize_where(results, timeout_secs, t, |r| &r.instance.track == t))
        .collect();
    if tracks.len() > 1 {
        out.push(summarize_where(results, timeout_secs, "all", |_| true));
    }
    out
}

fn summarize_where(
    results: &[InstanceResult],
    timeout_secs: f64,
    name: &str,
    keep: impl Fn(&InstanceResult) -> bool,
) -> TrackSummary {
    let mut s = TrackSummary {
        track: name.to_string(),
        cove: SideStats::default(),
        reference: None,
        reference_only: Vec::new(),
        cove_wrong: Vec::new(),
        reference_wrong: Vec::new(),
    };
    for r in results.iter().filter(|r| keep(r)) {
        let expected = r.instance.expected;
        s.cove.add(expected, &r.cove, timeout_secs);
        if r.cove.verdict == Verdict::Wrong {
            s.cove_wrong.push(r.instance.path.clone());
        }
        if let Some(reference) = &r.reference {
            s.reference.get_or_insert_with(SideStats::default).add(
                expected,
                reference,
                timeout_secs,
            );
            if reference.verdict == Verdict::Wrong {
                s.reference_wrong.push(r.instance.path.clone());
            }
            if reference.verdict.is_solved() && !r.cove.verdict.is_solved() {
                s.reference_only.push(r.instance.path.clone());
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::{Answer, Outcome};

    fn side(verdict: Verdict, secs: f64) -> SideResult {
        SideResult {
            run: RunResult {
                outcome: Outcome::Answer(Answer::Sat),
                wall_secs: secs,
                cpu_secs: secs,
                peak_bytes: 0,
                exit_code: Some(0),
                signal: None,
                property_answers: Vec::new(),
            },
            verdict,
        }
    }

    fn inst(track: &str, path: &str, expected: Expected) -> Instance {
        Instance {
            track: track.into(),
            path: path.into(),
            expected,
            properties: None,
        }
    }

    #[test]
    fn par2_charges_twice_the_limit_for_every_unsolved_run() {
        assert_eq!(par2_score(Verdict::Solved, 1.5, 10.0), 1.5);
        for v in [
            Verdict::Wrong,
            Verdict::Timeout,
            Verdict::Unknown,
            Verdict::MemOut,
            Verdict::Error,
        ] {
            assert_eq!(par2_score(v, 0.1, 10.0), 20.0, "{v}");
        }
    }

    #[test]
    fn track_summaries() {
        use Expected::*;
        let results = vec![
            InstanceResult {
                instance: inst("A", "a1", Sat),
                cove: side(Verdict::Solved, 1.0),
                reference: Some(side(Verdict::Solved, 2.0)),
            },
            InstanceResult {
                instance: inst("A", "a2", Unsat),
                cove: side(Verdict::Unknown, 0.5),
                reference: Some(side(Verdict::Solved, 3.0)),
            },
            InstanceResult {
                instance: inst("B", "b1", Unsat),
                cove: side(Verdict::Wrong, 0.2),
                reference: Some(side(Verdict::Timeout, 11.0)),
            },
        ];
        let s = summarize(&results, 10.0);
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].track, "A");
        assert_eq!(s[0].cove.solved, 1);
        assert_eq!(s[0].cove.solved_sat, 1);
        assert_eq!(s[0].cove.unknown, 1);
        assert_eq!(s[0].cove.par2, 1.0 + 20.0);
        assert_eq!(s[0].cove.par2_avg(), 10.5);
        let r = s[0].reference.as_ref().unwrap();
        assert_eq!((r.solved, r.solved_unsat, r.par2), (2, 1, 5.0));
        assert_eq!(s[0].reference_only, vec!["a2".to_string()]);
        assert_eq!(s[1].cove.wrong, 1);
        assert_eq!(s[1].cove_wrong, vec!["b1".to_string()]);
        assert_eq!(s[1].reference.as_ref().unwrap().timeout, 1);
        assert!(s[1].reference_wrong.is_empty());
        assert_eq!(s[2].track, "all");
        assert_eq!(s[2].cove.total, 3);
        assert_eq!(s[2].cove.par2, 41.0);
        assert_eq!(s[2].reference.as_ref().unwrap().par2, 25.0);
    }

    #[test]
    fn single_track_has_no_total_row_and_empty_avg_is_zero() {
        let results = vec![InstanceResult {
            instance: inst("A", "a1", Expected::Sat),
            cove: side(Verdict::Error, 0.0),
            reference: None,
        }];
        let s = summarize(&results, 5.0);
        assert_eq!(s.len(), 1);
        assert!(s[0].reference.is_none());
        assert_eq!(s[0].cove.error, 1);
        assert_eq!(SideStats::default().par2_avg(), 0.0);
    }
}
