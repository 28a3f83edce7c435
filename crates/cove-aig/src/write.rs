//! Writing an [`Aig`] in the ASCII AIGER format (tests, debugging, reduced-circuit dumps) and,
//! for circuits laid out for it (certificates), the binary format.

use crate::{Aig, Init};
use std::fmt::Write;

/// The circuit as `aag` text (AIGER 1.9 header with bad, constraint, justice and fairness counts).
pub fn to_aag(a: &Aig) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "aag {}", header(a));
    for v in &a.inputs {
        let _ = writeln!(s, "{}", 2 * v);
    }
    for l in &a.latches {
        let _ = match l.init {
            Init::Zero => writeln!(s, "{} {}", 2 * l.var, l.next),
            Init::One => writeln!(s, "{} {} 1", 2 * l.var, l.next),
            Init::Free => writeln!(s, "{} {} {}", 2 * l.var, l.next, 2 * l.var),
        };
    }
    for x in a.outputs.iter().chain(&a.bad).chain(&a.constraints) {
        let _ = writeln!(s, "{x}");
    }
    for j in &a.justice {
        let _ = writeln!(s, "{}", j.len());
    }
    for x in a.justice.iter().flatten().chain(&a.fairness) {
        let _ = writeln!(s, "{x}");
    }
    for g in &a.ands {
        let _ = writeln!(s, "{} {} {}", 2 * g.var, g.rhs0, g.rhs1);
    }
    s
}

/// The header's counts `M I L O A B C`, and `J F` when there are liveness properties (older
/// readers stop at seven fields).
fn header(a: &Aig) -> String {
    let mut h = format!(
        "{} {} {} {} {} {} {}",
        a.max_var,
        a.inputs.len(),
        a.latches.len(),
        a.outputs.len(),
        a.ands.len(),
        a.bad.len(),
        a.constraints.len()
    );
    if !a.justice.is_empty() || !a.fairness.is_empty() {
        h.push_str(&format!(" {} {}", a.justice.len(), a.fairness.len()));
    }
    h
}

/// Whether `a` is laid out as the binary format requires: inputs `1..=I`, latches
/// `I+1..=I+L`, and gates `I+L+1..=M` in order, each with `lhs > rhs0 >= rhs1`.
pub fn binary_layout(a: &Aig) -> bool {
    let ni = a.inputs.len() as u32;
    let nl = a.latches.len() as u32;
    a.max_var as usize == a.inputs.len() + a.latches.len() + a.ands.len()
        && a.inputs.iter().enumerate().all(|(i, &v)| v == 1 + i as u32)
        && a.latches
            .iter()
            .enumerate()
            .all(|(j, l)| l.var == 1 + ni + j as u32)
        && a.ands
            .iter()
            .enumerate()
            .all(|(k, g)| g.var == 1 + ni + nl + k as u32 && 2 * g.var > g.rhs0.max(g.rhs1))
}

/// The circuit in the binary `aig` format, or `None` when it is not in the layout the
/// binary format requires (see [`binary_layout`]).
pub fn to_aig(a: &Aig) -> Option<Vec<u8>> {
    if !binary_layout(a) {
        return None;
    }
    let mut s = format!("aig {}\n", header(a));
    for l in &a.latches {
        let _ = match l.init {
            Init::Zero => writeln!(s, "{}", l.next),
            Init::One => writeln!(s, "{} 1", l.next),
            Init::Free => writeln!(s, "{} {}", l.next, 2 * l.var),
        };
    }
    for x in a.outputs.iter().chain(&a.bad).chain(&a.constraints) {
        let _ = writeln!(s, "{x}");
    }
    for j in &a.justice {
        let _ = writeln!(s, "{}", j.len());
    }
    for x in a.justice.iter().flatten().chain(&a.fairness) {
        let _ = writeln!(s, "{x}");
    }
    let mut out = s.into_bytes();
    let mut push = |mut x: u32| {
        while x >= 0x80 {
            out.push((x & 0x7f) as u8 | 0x80);
            x >>= 7;
        }
        out.push(x as u8);
    };
    for g in &a.ands {
        let (r0, r1) = (g.rhs0.max(g.rhs1), g.rhs0.min(g.rhs1));
        push(2 * g.var - r0);
        push(r0 - r1);
    }
    Some(out)
}
