//! AIGER 1.9 reader (binary `aig` and ASCII `aag`).
//!
//! The reader never panics and never recurses: malformed input is reported with its line
//! (1-based) and byte offset, and the ASCII format's and gates, which may appear in any
//! order, are sorted topologically with an explicit stack. Justice and fairness
//! (liveness) properties are refused with a clear message; a file without bad-state
//! properties is read the old way, its outputs being the bad states.

use crate::{ALit, Aig, And, Init, Latch};
use std::fmt;

/// A malformed or unsupported AIGER file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line of the problem (in the binary and-gate section: the line it starts on).
    pub line: usize,
    /// Byte offset of the problem.
    pub byte: usize,
    /// What is wrong.
    pub msg: String,
    /// The file is well formed but uses a feature Cove does not support (liveness).
    pub unsupported: bool,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.byte, self.msg)
    }
}

impl std::error::Error for ParseError {}

/// Largest variable index accepted (keeps allocation bounded on hostile headers).
const MAX_VARS: u64 = 1 << 28;

struct Reader<'a> {
    src: &'a [u8],
    pos: usize,
    line: usize,
    /// Where the item being read starts (errors point there).
    mark: (usize, usize),
}

type R<T> = Result<T, ParseError>;

impl Reader<'_> {
    fn err<T>(&self, msg: impl Into<String>) -> R<T> {
        Err(ParseError {
            line: self.mark.0,
            byte: self.mark.1,
            msg: msg.into(),
            unsupported: false,
        })
    }

    /// An error at the current position.
    fn err_here<T>(&mut self, msg: impl Into<String>) -> R<T> {
        self.mark = (self.line, self.pos);
        self.err(msg)
    }

    /// Reads one line of unsigned decimal numbers separated by blanks; between `min` and
    /// `max` of them. `what` names the line in errors.
    fn numbers(&mut self, min: usize, max: usize, what: &str) -> R<Vec<u64>> {
        self.mark = (self.line, self.pos);
        if self.pos >= self.src.len() {
            return self.err(format!("unexpected end of file, expected {what}"));
        }
        let mut out = Vec::new();
        loop {
            while self.pos < self.src.len() && matches!(self.src[self.pos], b' ' | b'\t' | b'\r') {
                self.pos += 1;
            }
            if self.pos >= self.src.len() || self.src[self.pos] == b'\n' {
                break;
            }
            let start = self.pos;
            let mut v: u64 = 0;
            while self.pos < self.src.len() && self.src[self.pos].is_ascii_digit() {
                v = v * 10 + (self.src[self.pos] - b'0') as u64;
                if v > u32::MAX as u64 {
                    return self.err_here(format!("number too large in {what}"));
                }
                self.pos += 1;
            }
            if self.pos == start {
                return self.err_here(format!("expected a number in {what}"));
            }
            out.push(v);
        }
        if out.len() < min || out.len() > max {
            return self.err(format!(
                "{what}: expected {} number(s), found {}",
                if min == max {
                    min.to_string()
                } else {
                    format!("{min} to {max}")
                },
                out.len()
            ));
        }
        self.newline();
        Ok(out)
    }

    fn newline(&mut self) {
        if self.pos < self.src.len() && self.src[self.pos] == b'\n' {
            self.pos += 1;
            self.line += 1;
        }
    }

    /// A variable-length unsigned integer of the binary format (7 bits per byte).
    fn varint(&mut self) -> R<u64> {
        self.mark = (self.line, self.pos);
        let mut v: u64 = 0;
        let mut shift = 0;
        loop {
            let Some(&b) = self.src.get(self.pos) else {
                return self.err("unexpected end of file in binary and-gate section");
            };
            self.pos += 1;
            if b == b'\n' {
                self.line += 1;
            }
            if shift > 28 {
                return self.err("binary delta too large");
            }
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
            shift += 7;
        }
    }
}

/// Parses an AIGER file (binary or ASCII, told apart by the header).
pub fn parse_aiger(src: &[u8]) -> Result<Aig, ParseError> {
    let mut r = Reader {
        src,
        pos: 0,
        line: 1,
        mark: (1, 0),
    };
    let binary = if src.starts_with(b"aig ") {
        true
    } else if src.starts_with(b"aag ") {
        false
    } else {
        return r.err("expected header 'aag M I L O A' or 'aig M I L O A'");
    };
    r.pos = 4;
    let h = r.numbers(5, 9, "header")?;
    let get = |i: usize| h.get(i).copied().unwrap_or(0);
    let (m, ni, nl, no, na) = (get(0), get(1), get(2), get(3), get(4));
    let (nb, nc, nj, nf) = (get(5), get(6), get(7), get(8));
    if m > MAX_VARS {
        return Err(ParseError {
            line: 1,
            byte: 4,
            msg: format!("maximum variable index {m} exceeds the supported {MAX_VARS}"),
            unsupported: true,
        });
    }
    let hline = |msg: String| ParseError {
        line: 1,
        byte: 4,
        msg,
        unsupported: false,
    };
    if ni + nl + na > m {
        return Err(hline(format!("header: M = {m} is less than I + L + A")));
    }
    if binary && ni + nl + na != m {
        return Err(hline(format!(
            "binary header: M = {m} must equal I + L + A"
        )));
    }
    // Every counted item takes at least one byte (binary inputs take none).
    let rest = (src.len() - r.pos) as u64;
    if nl + no + nb + nc + nj + nf > rest || (!binary && ni + na > rest) || (binary && na > rest) {
        return Err(hline("header counts exceed the file size".into()));
    }
    let max_lit = 2 * m + 1;
    let mut b = Builder {
        m: m as u32,
        def: vec![Def::None; m as usize + 1],
        aig: Aig {
            max_var: m as u32,
            ..Aig::default()
        },
    };
    // Inputs.
    for k in 0..ni {
        if binary {
            let v = (k + 1) as u32;
            b.define(v, Def::Input, &r)?;
            b.aig.inputs.push(v);
        } else {
            let n = r.numbers(1, 1, "input line")?;
            let v = b.defined_lit(n[0], max_lit, "input", &r)?;
            b.define(v, Def::Input, &r)?;
            b.aig.inputs.push(v);
        }
    }
    // Latches.
    for k in 0..nl {
        let (var, rest) = if binary {
            let n = r.numbers(1, 2, "latch line")?;
            ((ni + k + 1) as u32, n)
        } else {
            let n = r.numbers(2, 3, "latch line")?;
            let v = b.defined_lit(n[0], max_lit, "latch", &r)?;
            (v, n[1..].to_vec())
        };
        b.define(var, Def::Latch, &r)?;
        let next = lit(rest[0], max_lit, &r)?;
        let init = match rest.get(1).copied() {
            None | Some(0) => Init::Zero,
            Some(1) => Init::One,
            Some(x) if x == 2 * var as u64 => Init::Free,
            Some(x) => return r.err(format!("latch reset {x} is not 0, 1 or the latch itself")),
        };
        b.aig.latches.push(Latch { var, next, init });
    }
    for _ in 0..no {
        let n = r.numbers(1, 1, "output line")?;
        b.aig.outputs.push(lit(n[0], max_lit, &r)?);
    }
    for _ in 0..nb {
        let n = r.numbers(1, 1, "bad-state line")?;
        b.aig.bad.push(lit(n[0], max_lit, &r)?);
    }
    for _ in 0..nc {
        let n = r.numbers(1, 1, "constraint line")?;
        b.aig.constraints.push(lit(n[0], max_lit, &r)?);
    }
    // Justice properties: one line per property with its literal count, then the literals
    // of every property in order; then the fairness constraints. Counts come from the file,
    // so nothing is allocated ahead of the literals actually read.
    let mut sizes = Vec::new();
    for _ in 0..nj {
        sizes.push(r.numbers(1, 1, "justice size line")?[0]);
    }
    for size in sizes {
        if size > rest {
            return r.err(format!(
                "justice property of {size} literals exceeds the file size"
            ));
        }
        let mut lits = Vec::new();
        for _ in 0..size {
            let n = r.numbers(1, 1, "justice literal line")?;
            lits.push(lit(n[0], max_lit, &r)?);
        }
        b.aig.justice.push(lits);
    }
    for _ in 0..nf {
        let n = r.numbers(1, 1, "fairness line")?;
        b.aig.fairness.push(lit(n[0], max_lit, &r)?);
    }
    // And gates.
    let mut ands = Vec::with_capacity(na as usize);
    for k in 0..na {
        if binary {
            let lhs = 2 * (ni + nl + k + 1);
            let d0 = r.varint()?;
            let d1 = r.varint()?;
            if d0 == 0 || d0 > lhs {
                return r.err(format!("binary and gate {lhs}: invalid first delta {d0}"));
            }
            let rhs0 = lhs - d0;
            if d1 > rhs0 {
                return r.err(format!("binary and gate {lhs}: invalid second delta {d1}"));
            }
            let var = (lhs / 2) as u32;
            b.define(var, Def::And, &r)?;
            ands.push(And {
                var,
                rhs0: rhs0 as ALit,
                rhs1: (rhs0 - d1) as ALit,
            });
        } else {
            let n = r.numbers(3, 3, "and-gate line")?;
            let var = b.defined_lit(n[0], max_lit, "and gate", &r)?;
            b.define(var, Def::And, &r)?;
            ands.push(And {
                var,
                rhs0: lit(n[1], max_lit, &r)?,
                rhs1: lit(n[2], max_lit, &r)?,
            });
        }
    }
    // Symbol table and comments follow; they carry no semantics and are not checked.
    b.finish(ands, binary, &r)
}

fn lit(x: u64, max_lit: u64, r: &Reader) -> R<ALit> {
    if x > max_lit {
        return r.err(format!("literal {x} exceeds 2M+1 = {max_lit}"));
    }
    Ok(x as ALit)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Def {
    None,
    Input,
    Latch,
    And,
}

struct Builder {
    m: u32,
    def: Vec<Def>,
    aig: Aig,
}

impl Builder {
    /// A literal that defines something: even, not constant, in range; returns its variable.
    fn defined_lit(&self, x: u64, max_lit: u64, what: &str, r: &Reader) -> R<u32> {
        let l = lit(x, max_lit, r)?;
        if l & 1 == 1 || l < 2 {
            return r.err(format!("{what} literal {l} must be even and positive"));
        }
        Ok(l >> 1)
    }

    fn define(&mut self, v: u32, d: Def, r: &Reader) -> R<()> {
        if v == 0 || v > self.m {
            return r.err(format!("variable {v} out of range"));
        }
        if self.def[v as usize] != Def::None {
            return r.err(format!("variable {v} (literal {}) defined twice", 2 * v));
        }
        self.def[v as usize] = d;
        Ok(())
    }

    fn check_used(&self, l: ALit, what: &str, r: &Reader) -> R<()> {
        let v = (l >> 1) as usize;
        if v != 0 && self.def[v] == Def::None {
            return r.err(format!("{what} uses undefined literal {l}"));
        }
        Ok(())
    }

    fn finish(mut self, ands: Vec<And>, binary: bool, r: &Reader) -> R<Aig> {
        for a in &ands {
            self.check_used(a.rhs0, "and gate", r)?;
            self.check_used(a.rhs1, "and gate", r)?;
        }
        let used: Vec<(ALit, &str)> = (self.aig.latches.iter().map(|l| (l.next, "latch")))
            .chain(self.aig.outputs.iter().map(|&l| (l, "output")))
            .chain(self.aig.bad.iter().map(|&l| (l, "bad-state property")))
            .chain(self.aig.constraints.iter().map(|&l| (l, "constraint")))
            .chain(
                self.aig
                    .justice
                    .iter()
                    .flatten()
                    .map(|&l| (l, "justice property")),
            )
            .chain(
                self.aig
                    .fairness
                    .iter()
                    .map(|&l| (l, "fairness constraint")),
            )
            .collect();
        for (l, what) in used {
            self.check_used(l, what, r)?;
        }
        self.aig.ands = if binary {
            ands
        } else {
            topo_sort(ands, self.m, r)?
        };
        // Old-style files (no bad or justice section) state their properties as outputs.
        if self.aig.bad.is_empty() && self.aig.justice.is_empty() {
            self.aig.bad = self.aig.outputs.clone();
        }
        Ok(self.aig)
    }
}

/// Orders and gates so that fanins come first (iterative DFS; a cycle is an error).
fn topo_sort(ands: Vec<And>, m: u32, r: &Reader) -> R<Vec<And>> {
    const NONE: u32 = u32::MAX;
    let mut index = vec![NONE; m as usize + 1];
    for (i, a) in ands.iter().enumerate() {
        index[a.var as usize] = i as u32;
    }
    // 0 = unvisited, 1 = on the stack, 2 = done.
    let mut state = vec![0u8; ands.len()];
    let mut out = Vec::with_capacity(ands.len());
    let mut stack: Vec<(u32, u8)> = Vec::new();
    for root in 0..ands.len() {
        if state[root] != 0 {
            continue;
        }
        stack.push((root as u32, 0));
        state[root] = 1;
        while let Some(top) = stack.last_mut() {
            let i = top.0 as usize;
            if top.1 == 2 {
                stack.pop();
                state[i] = 2;
                out.push(ands[i]);
                continue;
            }
            let fanin = if top.1 == 0 {
                ands[i].rhs0
            } else {
                ands[i].rhs1
            };
            top.1 += 1;
            let j = index[(fanin >> 1) as usize];
            if j == NONE {
                continue;
            }
            match state[j as usize] {
                0 => {
                    state[j as usize] = 1;
                    stack.push((j, 0));
                }
                1 => {
                    return r.err(format!(
                        "combinational cycle through and gate {}",
                        2 * ands[j as usize].var
                    ));
                }
                _ => {}
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_and_binary_toggle() {
        // A latch that toggles; bad when it is 1.
        let a = parse_aiger(b"aag 2 0 1 0 1 1\n2 5\n2\n4 3 3\n").unwrap();
        assert_eq!(a.latches.len(), 1);
        assert_eq!(a.bad, vec![2]);
        let b = parse_aiger(b"aig 2 0 1 0 1 1\n4\n2\n\x01\x00").unwrap();
        assert_eq!(
            b.ands[0],
            And {
                var: 2,
                rhs0: 3,
                rhs1: 3
            }
        );
    }

    #[test]
    fn errors_have_positions() {
        let e = parse_aiger(b"aag 2 1 0 0 1\n2\n4 2 7\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(
            e.msg.contains("undefined") || e.msg.contains("exceeds"),
            "{e}"
        );
        // A justice count with no justice lines behind it.
        let e = parse_aiger(b"aag 1 0 0 0 0 0 0 1\n").unwrap_err();
        assert!(!e.unsupported);
        assert!(parse_aiger(b"aag 3 0 0 0 2 1\n2\n2 4 1\n4 2 1\n").is_err());
        assert!(parse_aiger(b"aig 4000000000 0 0 0 0\n").is_err());
    }
}
