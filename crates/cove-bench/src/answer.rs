//! Reading a solver's answer and judging it against the expected status.
//!
//! A run ends in an [`Outcome`]: a parsed first line ([`Answer`]), a wall-clock kill, a memory
//! exhaustion, or an error. [`judge`] turns it into a [`Verdict`]. The invariants:
//! - only `sat`/`unsat` that disagree with the manifest are [`Verdict::Wrong`] — `unknown`,
//!   `timeout`, crashes and resource exhaustion are unsolved, never wrong;
//! - a wrong answer stays wrong even if it came after the time limit (a late wrong answer is
//!   still a soundness bug), while a correct answer after the limit counts as a timeout, so
//!   the reference solver (which may run without its own timeout) is not favoured.

use super::manifest::{Expected, Instance};
use std::fmt;

/// A solver's answer, from the first non-empty line of its standard output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `sat`
    Sat,
    /// `unsat`
    Unsat,
    /// `unknown`
    Unknown,
    /// `timeout` (z3 with `-T:`)
    Timeout,
}

/// Parses the answer from a solver's standard output: the first non-empty line, trimmed,
/// must be exactly one of `sat`, `unsat`, `unknown`, `timeout`. Anything else is `None`.
///
/// Hardware model checking (AIGER manifests, whose `sat` means "a bad state is reachable"):
/// the HWMCC witness's first line `1` reads as `sat`, `0` as `unsat`, `2` as `unknown`; and
/// ABC's output (it starts with `ABC command line:`) reads as `unsat` when it says
/// `Property proved`, `sat` when an output `was asserted in frame` N, `unknown` otherwise.
pub fn parse_answer(stdout: &str) -> Option<Answer> {
    let first = stdout.lines().map(str::trim).find(|l| !l.is_empty())?;
    match first {
        "sat" | "1" => Some(Answer::Sat),
        "unsat" | "0" => Some(Answer::Unsat),
        "unknown" | "2" => Some(Answer::Unknown),
        "timeout" => Some(Answer::Timeout),
        _ if first.starts_with("ABC command line:") => Some(abc_answer(stdout)),
        _ => None,
    }
}

/// ABC's verdict (`pdr`, `bmc3`, `int`, … after `read_aiger`).
fn abc_answer(stdout: &str) -> Answer {
    let proved = stdout.contains("Property proved");
    let refuted = stdout.contains("was asserted in frame");
    match (proved, refuted) {
        (true, false) => Answer::Unsat,
        (false, true) => Answer::Sat,
        _ => Answer::Unknown,
    }
}

/// Every property's answer in HWMCC witness output: `(name, status)` with status `0`
/// (holds), `1` (fails) or `2` (unknown), in the order printed. A witness names one or more
/// properties on its second line; a failing one's trace runs to the `.` line. Empty when the
/// output is not a sequence of well-formed witnesses (e.g. `sat`, ABC's log), so such output
/// never answers per property. This is the reading of `cove_aig::hwmcc_output`'s witness
/// parser without the traces, written again on purpose: the harness judges the engines and
/// other tools' output, so it does not depend on the engines' crates.
pub fn parse_property_answers(stdout: &str) -> Vec<(String, u8)> {
    let mut lines = stdout
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('c'))
        .peekable();
    let mut out = Vec::new();
    loop {
        while lines.peek().is_some_and(|l| l.is_empty()) {
            lines.next();
        }
        let Some(status) = lines.next() else {
            return out;
        };
        let status = match status {
            "0" => 0,
            "1" => 1,
            "2" => 2,
            _ => return Vec::new(),
        };
        let Some(names) = lines.next() else {
            return Vec::new();
        };
        let names: Vec<&str> = names.split_whitespace().collect();
        let well_named = |n: &&str| {
            n.strip_prefix('b')
                .or_else(|| n.strip_prefix('j'))
                .is_some_and(|i| !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit()))
        };
        if names.is_empty() || !names.iter().all(well_named) {
            return Vec::new();
        }
        // The rest of the witness: the trace of a failing property, or nothing; then `.`.
        loop {
            match lines.next() {
                Some(".") => break,
                Some(_) if status == 1 => {}
                _ => return Vec::new(),
            }
        }
        out.extend(names.into_iter().map(|n| (n.to_string(), status)));
    }
}

/// How a single run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The solver printed an answer (and, where required, exited 0).
    Answer(Answer),
    /// Killed by the harness at the wall-clock deadline.
    Killed,
    /// Ran out of memory under the address-space limit (recognised heuristically).
    MemOut,
    /// Anything else: bad exit code, crash, unparsable output. The string says what.
    Error(String),
}

impl Outcome {
    /// The short word used in CSV/JSON `answer` columns.
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Answer(Answer::Sat) => "sat",
            Outcome::Answer(Answer::Unsat) => "unsat",
            Outcome::Answer(Answer::Unknown) => "unknown",
            Outcome::Answer(Answer::Timeout) | Outcome::Killed => "timeout",
            Outcome::MemOut => "memout",
            Outcome::Error(_) => "error",
        }
    }
}

/// The outcome judged against the expected status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Correct `sat`/`unsat` within the time limit.
    Solved,
    /// `sat`/`unsat` contradicting the manifest.
    Wrong,
    /// Killed, answered `timeout`, or answered correctly but after the limit.
    Timeout,
    /// Answered `unknown`.
    Unknown,
    /// Out of memory.
    MemOut,
    /// Crash, bad exit code or unparsable output.
    Error,
}

impl Verdict {
    /// Whether the instance counts as solved (for PAR-2 and the cactus plot).
    pub fn is_solved(self) -> bool {
        self == Verdict::Solved
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Solved => "solved",
            Verdict::Wrong => "WRONG",
            Verdict::Timeout => "timeout",
            Verdict::Unknown => "unknown",
            Verdict::MemOut => "memout",
            Verdict::Error => "error",
        })
    }
}

/// Judges an outcome that took `secs` seconds of wall-clock time under a limit of
/// `timeout_secs` seconds.
pub fn judge(outcome: &Outcome, expected: Expected, secs: f64, timeout_secs: f64) -> Verdict {
    let definite = match outcome {
        Outcome::Answer(Answer::Sat) => Expected::Sat,
        Outcome::Answer(Answer::Unsat) => Expected::Unsat,
        Outcome::Answer(Answer::Unknown) => return Verdict::Unknown,
        Outcome::Answer(Answer::Timeout) | Outcome::Killed => return Verdict::Timeout,
        Outcome::MemOut => return Verdict::MemOut,
        Outcome::Error(_) => return Verdict::Error,
    };
    if definite != expected {
        Verdict::Wrong
    } else if secs > timeout_secs {
        Verdict::Timeout
    } else {
        Verdict::Solved
    }
}

/// Judges a run on `inst`: [`judge`] on the first line against the overall status and, for a
/// per-property manifest line, every property's answer too (`property_answers` from
/// [`parse_property_answers`]):
/// - any property answered against its known answer is [`Verdict::Wrong`], late or not;
/// - the line is solved only when every listed property got its known answer in time — a
///   run that says only "something fails" has not answered a line with several properties;
/// - a property the run leaves open (status `2`, or not printed) makes it [`Verdict::Unknown`].
pub fn judge_instance(
    outcome: &Outcome,
    property_answers: &[(String, u8)],
    inst: &Instance,
    secs: f64,
    timeout_secs: f64,
) -> Verdict {
    let overall = judge(outcome, inst.expected, secs, timeout_secs);
    let Some(props) = &inst.properties else {
        return overall;
    };
    let contradicted = props.iter().any(|p| {
        property_answers
            .iter()
            .any(|(n, s)| *n == p.name && *s != 2 && (*s == 1) != p.fails)
    });
    if overall == Verdict::Wrong || contradicted {
        return Verdict::Wrong;
    }
    if overall != Verdict::Solved {
        return overall;
    }
    let all_answered = props.iter().all(|p| {
        property_answers
            .iter()
            .any(|(n, s)| *n == p.name && *s == u8::from(p.fails))
    });
    if all_answered || (props.len() == 1 && property_answers.is_empty()) {
        Verdict::Solved
    } else {
        Verdict::Unknown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_first_nonempty_line_only() {
        assert_eq!(parse_answer("sat\n"), Some(Answer::Sat));
        assert_eq!(parse_answer("\n  unsat \r\n(model)\n"), Some(Answer::Unsat));
        assert_eq!(parse_answer("unknown"), Some(Answer::Unknown));
        assert_eq!(parse_answer("timeout\n"), Some(Answer::Timeout));
        assert_eq!(parse_answer(""), None);
        assert_eq!(parse_answer("\n\n"), None);
        assert_eq!(parse_answer("SAT\n"), None);
        assert_eq!(parse_answer("satisfiable\n"), None);
        assert_eq!(parse_answer("(error \"line 1\")\nsat\n"), None);
        assert_eq!(parse_answer("sat unsat\n"), None);
    }

    #[test]
    fn hardware_answers() {
        // HWMCC witnesses: 1 = a bad state is reachable (`sat` in the AIGER manifest).
        assert_eq!(parse_answer("1\nb0\n000\n1\n.\n"), Some(Answer::Sat));
        assert_eq!(parse_answer("0\nb0\n.\n"), Some(Answer::Unsat));
        assert_eq!(parse_answer("2\nb0\n.\n"), Some(Answer::Unknown));
        assert_eq!(parse_answer("3\n"), None);
        let abc = |tail: &str| format!("ABC command line: \"read_aiger f.aig; pdr\".\n\n{tail}");
        assert_eq!(
            parse_answer(&abc("Property proved.  Time =     0.02 sec\n")),
            Some(Answer::Unsat)
        );
        assert_eq!(
            parse_answer(&abc("Output 0 of miter \"f\" was asserted in frame 42.\n")),
            Some(Answer::Sat)
        );
        assert_eq!(
            parse_answer(&abc("Reached timeout (20 seconds).\n")),
            Some(Answer::Unknown)
        );
        assert_eq!(parse_answer("Property proved.\n"), None);
    }

    #[test]
    fn per_property_judging() {
        let inst = crate::manifest::parse_manifest("AIGER\tm.aag\tb0=0 b1=1 j0=0\n")
            .unwrap()
            .remove(0);
        let out = "1\nb1\n0\n1\n.\n0\nb0\n.\n0\nj0\n.\n";
        let answers = parse_property_answers(out);
        assert_eq!(answers.len(), 3);
        let first = Outcome::Answer(parse_answer(out).unwrap());
        assert_eq!(
            judge_instance(&first, &answers, &inst, 1.0, 5.0),
            Verdict::Solved
        );
        // One property left open: unknown, not solved.
        let open = "1\nb1\n0\n1\n.\n2\nb0\n.\n0\nj0\n.\n";
        let answers = parse_property_answers(open);
        assert_eq!(
            judge_instance(&first, &answers, &inst, 1.0, 5.0),
            Verdict::Unknown
        );
        // A property answered wrongly is wrong even when the first line is right.
        let wrong = "1\nb1\n0\n1\n.\n1\nb0\n0\n.\n0\nj0\n.\n";
        let answers = parse_property_answers(wrong);
        assert_eq!(
            judge_instance(&first, &answers, &inst, 1.0, 5.0),
            Verdict::Wrong
        );
        // The first line alone does not answer three properties (ABC-style output).
        assert_eq!(
            judge_instance(&first, &[], &inst, 1.0, 5.0),
            Verdict::Unknown
        );
        // Several names on one witness line; comments skipped; malformed output reads as none.
        assert_eq!(parse_property_answers("c hi\n0\nb0 b2\n.\n").len(), 2);
        assert!(parse_property_answers("0\nb0\n").is_empty());
        assert!(parse_property_answers("0\nx0\n.\n").is_empty());
        assert!(parse_property_answers("sat\n").is_empty());
    }

    #[test]
    fn judging() {
        use Expected::*;
        let a = |x| Outcome::Answer(x);
        assert_eq!(judge(&a(Answer::Sat), Sat, 1.0, 5.0), Verdict::Solved);
        assert_eq!(judge(&a(Answer::Unsat), Unsat, 5.0, 5.0), Verdict::Solved);
        assert_eq!(judge(&a(Answer::Unsat), Sat, 1.0, 5.0), Verdict::Wrong);
        // Late correct answers are timeouts, late wrong answers are still wrong.
        assert_eq!(judge(&a(Answer::Sat), Sat, 5.5, 5.0), Verdict::Timeout);
        assert_eq!(judge(&a(Answer::Sat), Unsat, 5.5, 5.0), Verdict::Wrong);
        // Unknown is unsolved, not wrong.
        assert_eq!(
            judge(&a(Answer::Unknown), Unsat, 0.1, 5.0),
            Verdict::Unknown
        );
        assert_eq!(judge(&a(Answer::Timeout), Sat, 5.0, 5.0), Verdict::Timeout);
        assert_eq!(judge(&Outcome::Killed, Sat, 6.0, 5.0), Verdict::Timeout);
        assert_eq!(judge(&Outcome::MemOut, Sat, 1.0, 5.0), Verdict::MemOut);
        assert_eq!(
            judge(&Outcome::Error("x".into()), Sat, 1.0, 5.0),
            Verdict::Error
        );
    }
}
