//! The HWMCC/AIGER witness format (AIGER 1.9, "AIGER 1.9 and beyond", §Witnesses).
//!
//! `1`, `b<i>`, the initial latch values, one input vector per step and `.` for a reachable
//! bad state; `0`, `b<i>`, `.` for a proof; `2`, `b<i>`, `.` for no answer. A file with several
//! properties gets one such witness per property ([`format_properties`]), one after the other.
//! Justice properties are named `j<i>`; a failing one's witness is a lasso: the state after
//! the last input vector is one the trace passed through before
//! ([`crate::trace_check::check_lasso`]).

use crate::{Trace, Verdict};
use std::fmt::Write;

fn bits(v: &[bool]) -> String {
    v.iter().map(|&b| if b { '1' } else { '0' }).collect()
}

/// The witness text for `v`, newline-terminated.
pub fn format_verdict(v: &Verdict) -> String {
    match v {
        Verdict::Unsafe(t) => format_trace(t),
        Verdict::Safe(_) => "0\nb0\n.\n".into(),
        Verdict::Unknown(_) => "2\nb0\n.\n".into(),
    }
}

/// The witnesses of several properties (`verdicts[i]` is property `b<i>`'s): unsafe ones
/// first, then unknown ones, then safe ones, each group in property order. The first line is
/// thus the verdict on all properties together (`1` if one fails, `0` if all hold), which is
/// what readers of single-property output (and `cove bench`) look at.
pub fn format_properties(verdicts: &[Verdict]) -> String {
    format_properties_of(verdicts, verdicts.len())
}

/// The name of property `i` of a circuit with `num_bad` bad properties: `b<i>` for a bad
/// property, `j<i - num_bad>` for a justice property (they follow the bad ones).
pub fn property_name(i: usize, num_bad: usize) -> String {
    if i < num_bad {
        format!("b{i}")
    } else {
        format!("j{}", i - num_bad)
    }
}

/// [`format_properties`] for a circuit with `num_bad` bad properties, whose justice
/// properties' verdicts follow (`verdicts[num_bad + j]` is `j<j>`'s).
pub fn format_properties_of(verdicts: &[Verdict], num_bad: usize) -> String {
    let mut s = String::new();
    for status in ['1', '2', '0'] {
        for (i, v) in verdicts.iter().enumerate() {
            match (status, v) {
                ('1', Verdict::Unsafe(t)) => s.push_str(&format_trace_of(t, num_bad)),
                ('2', Verdict::Unknown(_)) => {
                    let _ = write!(s, "2\n{}\n.\n", property_name(i, num_bad));
                }
                ('0', Verdict::Safe(_)) => {
                    let _ = write!(s, "0\n{}\n.\n", property_name(i, num_bad));
                }
                _ => {}
            }
        }
    }
    s
}

/// One witness read back by [`parse_witnesses`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// `0` (holds), `1` (fails) or `2` (unknown).
    pub status: u8,
    /// The properties it is about (its second line): `b<i>` is `i`, `j<i>` is the number of
    /// bad properties + `i` ([`parse_witnesses_of`]).
    pub properties: Vec<usize>,
    /// For status `1`: the initial state and input vectors (`bad_index` is the first
    /// property).
    pub trace: Option<Trace>,
}

/// Reads every witness of `text` (as printed by [`format_properties`] or [`format_verdict`];
/// `c` comment lines are skipped, `x` reads as 0). `None` when the text is malformed.
pub fn parse_witnesses(text: &str) -> Option<Vec<Witness>> {
    parse_witnesses_of(text, None)
}

/// [`parse_witnesses`] for a circuit with `num_bad` bad properties followed by justice
/// properties (`Some`): `j<i>` names property `num_bad + i`. With `None`, only `b<i>` is read.
pub fn parse_witnesses_of(text: &str, num_bad: Option<usize>) -> Option<Vec<Witness>> {
    // Empty lines are meaningful (no latches, or no inputs), so lines are taken in order.
    let mut lines = text
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
            return Some(out);
        };
        let status = match status {
            "0" => 0,
            "1" => 1,
            "2" => 2,
            _ => return None,
        };
        let properties = lines
            .next()?
            .split_whitespace()
            .map(
                |p| match (p.strip_prefix('b'), p.strip_prefix('j'), num_bad) {
                    (Some(b), _, _) => b.parse().ok(),
                    (_, Some(j), Some(nb)) => j.parse::<usize>().ok()?.checked_add(nb),
                    _ => None,
                },
            )
            .collect::<Option<Vec<usize>>>()?;
        if properties.is_empty() {
            return None;
        }
        let mut trace = None;
        if status == 1 {
            let init = bit_line(lines.next()?)?;
            let mut inputs = Vec::new();
            loop {
                let l = lines.next()?;
                if l == "." {
                    break;
                }
                inputs.push(bit_line(l)?);
            }
            trace = Some(Trace {
                init,
                inputs,
                bad_index: properties[0],
            });
        } else if lines.next()? != "." {
            return None;
        }
        out.push(Witness {
            status,
            properties,
            trace,
        });
    }
}

fn bit_line(l: &str) -> Option<Vec<bool>> {
    l.chars()
        .map(|c| match c {
            '0' | 'x' => Some(false),
            '1' => Some(true),
            _ => None,
        })
        .collect()
}

/// The witness of a counterexample.
pub fn format_trace(t: &Trace) -> String {
    format_trace_of(t, usize::MAX)
}

/// The witness of a counterexample of a circuit with `num_bad` bad properties (a
/// `bad_index` from `num_bad` on is a justice property's lasso).
pub fn format_trace_of(t: &Trace, num_bad: usize) -> String {
    let mut s = String::new();
    let name = property_name(t.bad_index, num_bad);
    let _ = writeln!(s, "1\n{name}\n{}", bits(&t.init));
    for i in &t.inputs {
        let _ = writeln!(s, "{}", bits(i));
    }
    s.push_str(".\n");
    s
}

/// Reads a witness printed by [`format_trace`] back (for tests and `cove check`-style tools):
/// the initial state and the input vectors. `None` when the text is not a `1` witness.
pub fn parse_trace(text: &str) -> Option<Trace> {
    // Empty lines are meaningful (no latches, or no inputs), so lines are taken in order.
    let mut lines = text.lines().map(str::trim);
    if lines.next()? != "1" {
        return None;
    }
    let b = lines.next()?;
    let bad_index = b.strip_prefix('b')?.parse().ok()?;
    let parse = |l: &str| -> Option<Vec<bool>> {
        l.chars()
            .map(|c| match c {
                '0' | 'x' => Some(false),
                '1' => Some(true),
                _ => None,
            })
            .collect()
    };
    let init = parse(lines.next()?)?;
    let mut inputs = Vec::new();
    for l in lines {
        if l == "." {
            return Some(Trace {
                init,
                inputs,
                bad_index,
            });
        }
        inputs.push(parse(l)?);
    }
    None
}
