//! Writing an [`Aig`] in the ASCII AIGER format (tests, debugging, reduced-circuit dumps).

use crate::{Aig, Init};
use std::fmt::Write;

/// The circuit as `aag` text (AIGER 1.9 header with bad and constraint counts).
pub fn to_aag(a: &Aig) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "aag {} {} {} {} {} {} {}",
        a.max_var,
        a.inputs.len(),
        a.latches.len(),
        a.outputs.len(),
        a.ands.len(),
        a.bad.len(),
        a.constraints.len()
    );
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
    for g in &a.ands {
        let _ = writeln!(s, "{} {} {}", 2 * g.var, g.rhs0, g.rhs1);
    }
    s
}
