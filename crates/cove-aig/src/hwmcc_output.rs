//! The HWMCC/AIGER witness format.
//!
//! `1`, `b<i>`, the initial latch values, one input vector per step and `.` for a reachable
//! bad state; `0`, `b0`, `.` for a proof; `2`, `b0`, `.` for no answer.

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

/// The witness of a counterexample.
pub fn format_trace(t: &Trace) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "1\nb{}\n{}", t.bad_index, bits(&t.init));
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
