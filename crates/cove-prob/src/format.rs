//! The textual LPTS format (`.lpts` files): reading and writing.
//!
//! The thesis gives no file format for LPTSes; this is Cove's. It is line based: every
//! non-blank line is one statement, `#` starts a comment that runs to the end of the line.
//!
//! ```text
//! # a coin that may be tossed fairly or biased, then stops
//! init s0                         # the start state (required, exactly once)
//! actions toss stop               # optional: extra alphabet entries (actions without transitions)
//! states s0 heads tails done      # optional: declares states (fixes their numbering)
//! s0 -toss-> 1/2 : heads + 1/2 : tails
//! s0 -toss-> 0.9 : heads + 0.1 : tails
//! heads -stop-> done              # a Dirac transition: probability 1
//! tails -stop-> 1 : done
//! ```
//!
//! * **Names.** A state or action name is a run of letters, digits and the characters
//!   `_ . ' [ ] = < > @ $ | ( ) ,`, or any text in double quotes (`"x=1, y=2"`); a name may
//!   not start with `-` unless quoted. Action names inside `-a->` may not contain `-`
//!   unless quoted (`-"a-b"->`). States are created on first mention, in order of mention,
//!   after those listed by `states` lines.
//! * **Probabilities** are exact: an integer `1`, a fraction `1/3`, or a decimal `0.25`.
//!   Every probability must be positive, a state may occur only once per distribution, and
//!   the probabilities of one transition must sum to exactly 1. Nothing is normalized;
//!   a violation is an error with the line and column of the offending transition.
//! * **Transitions** have set semantics: a line repeating an existing transition adds
//!   nothing. Several different transitions on one action from one state (non-determinism)
//!   are allowed.
//!
//! Errors are reported as `line:column: message`, both 1-based, columns counted in
//! characters. [`write_lpts`] prints an LPTS in this format so that [`parse_lpts`] reads
//! it back with the same state and action numbering.

use crate::lpts::{Dist, Lpts, StateId};
use cove_logic::Rational;
use std::collections::HashMap;
use std::fmt::Write as _;

/// A syntax or consistency error in an LPTS file, with a 1-based position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{col}: {message}")]
pub struct ParseError {
    /// Line, 1-based.
    pub line: usize,
    /// Column in characters, 1-based.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

struct Cursor<'a> {
    chars: Vec<char>,
    pos: usize,
    line: usize,
    _src: &'a str,
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || "_.'[]=<>@$|(),".contains(c)
}

impl<'a> Cursor<'a> {
    fn new(line_text: &'a str, line: usize) -> Self {
        let text = match line_text.find('#') {
            // `#` inside quotes is kept: find the first `#` outside quotes.
            Some(_) => strip_comment(line_text),
            None => line_text,
        };
        Cursor {
            chars: text.chars().collect(),
            pos: 0,
            line,
            _src: line_text,
        }
    }

    fn err<T>(&self, col0: usize, msg: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            line: self.line,
            col: col0 + 1,
            message: msg.into(),
        })
    }

    fn skip_ws(&mut self) {
        while self.pos < self.chars.len() && self.chars[self.pos].is_whitespace() {
            self.pos += 1;
        }
    }

    fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.chars.len()
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.chars.get(self.pos).copied()
    }

    fn eat(&mut self, s: &str) -> bool {
        self.skip_ws();
        let cs: Vec<char> = s.chars().collect();
        if self.chars[self.pos..].starts_with(&cs) {
            self.pos += cs.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, s: &str) -> Result<(), ParseError> {
        if self.eat(s) {
            Ok(())
        } else {
            self.err(self.pos, format!("expected `{s}`"))
        }
    }

    /// A name; `extra_stop` lists characters that end an unquoted name here.
    fn name(&mut self, what: &str, stop_dash: bool) -> Result<(String, usize), ParseError> {
        self.skip_ws();
        let start = self.pos;
        if self.chars.get(self.pos) == Some(&'"') {
            let mut s = String::new();
            self.pos += 1;
            loop {
                match self.chars.get(self.pos) {
                    None => return self.err(start, "unterminated quoted name"),
                    Some('"') => {
                        self.pos += 1;
                        break;
                    }
                    Some(&c) => {
                        s.push(c);
                        self.pos += 1;
                    }
                }
            }
            if s.is_empty() {
                return self.err(start, "empty quoted name");
            }
            return Ok((s, start));
        }
        while let Some(&c) = self.chars.get(self.pos) {
            if is_name_char(c) || (!stop_dash && c == '-' && self.pos > start) {
                self.pos += 1;
            } else {
                break;
            }
        }
        if self.pos == start {
            return self.err(start, format!("expected {what}"));
        }
        Ok((self.chars[start..self.pos].iter().collect(), start))
    }

    /// A raw token up to whitespace or one of `:+` (used where a probability may appear).
    fn word(&mut self) -> (String, usize) {
        self.skip_ws();
        let start = self.pos;
        if self.chars.get(self.pos) == Some(&'"') {
            return (String::new(), start);
        }
        while let Some(&c) = self.chars.get(self.pos) {
            if c.is_whitespace() || c == ':' || c == '+' {
                break;
            }
            self.pos += 1;
        }
        (self.chars[start..self.pos].iter().collect(), start)
    }
}

fn strip_comment(line: &str) -> &str {
    let mut in_quote = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => in_quote = !in_quote,
            '#' if !in_quote => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Parses an exact probability: `1`, `1/3`, `0.25`.
pub fn parse_probability(s: &str) -> Option<Rational> {
    if let Some((n, d)) = s.split_once('/') {
        let n = Rational::parse_decimal(n)?;
        let d = Rational::parse_decimal(d)?;
        if !n.is_integer() || !d.is_integer() || d.is_zero() {
            return None;
        }
        Some(n / d)
    } else {
        Rational::parse_decimal(s)
    }
}

struct Builder {
    lpts: Lpts,
    index: HashMap<String, StateId>,
    fresh: bool,
}

impl Builder {
    fn state(&mut self, name: &str) -> StateId {
        if let Some(&s) = self.index.get(name) {
            return s;
        }
        let s = if self.fresh {
            // The placeholder initial state of `Lpts::new` takes the first name.
            self.fresh = false;
            0
        } else {
            self.lpts.add_state(name)
        };
        if s == 0 {
            self.lpts = rename_first(std::mem::replace(&mut self.lpts, Lpts::new("")), name);
        }
        self.index.insert(name.to_string(), s);
        s
    }
}

fn rename_first(l: Lpts, name: &str) -> Lpts {
    // Only called before any transition exists, so rebuilding is trivial.
    let mut n = Lpts::new(name);
    for a in l.actions() {
        n.add_action(a);
    }
    for s in 1..l.num_states() {
        n.add_state(l.state_name(s));
    }
    n
}

/// Parses the textual LPTS format described in the module documentation.
pub fn parse_lpts(text: &str) -> Result<Lpts, ParseError> {
    let mut b = Builder {
        lpts: Lpts::new(""),
        index: HashMap::new(),
        fresh: true,
    };
    let mut init: Option<(String, usize, usize)> = None;
    let mut last_line = 1;
    for (ln0, raw) in text.lines().enumerate() {
        let ln = ln0 + 1;
        last_line = ln;
        let mut c = Cursor::new(raw, ln);
        if c.at_end() {
            continue;
        }
        let (first, col) = c.name("a statement", true)?;
        match first.as_str() {
            "init" if c.peek().is_some_and(|ch| ch != '-') => {
                let (n, ncol) = c.name("a state name", true)?;
                if init.is_some() {
                    return c.err(col, "second `init` line");
                }
                b.state(&n);
                init = Some((n, ln, ncol));
            }
            "actions" if c.peek().is_some_and(|ch| ch != '-') => {
                while !c.at_end() {
                    let (a, _) = c.name("an action name", true)?;
                    b.lpts.add_action(&a);
                }
            }
            "states" if c.peek().is_some_and(|ch| ch != '-') => {
                while !c.at_end() {
                    let (s, _) = c.name("a state name", true)?;
                    b.state(&s);
                }
            }
            _ => transition_line(&mut c, &mut b, &first, col)?,
        }
        if !c.at_end() {
            return c.err(c.pos, "unexpected text at end of line");
        }
    }
    let Some((name, ln, col)) = init else {
        return Err(ParseError {
            line: last_line,
            col: 1,
            message: "missing `init` line".into(),
        });
    };
    let s = b.index[&name];
    let _ = (ln, col);
    b.lpts.set_initial(s);
    Ok(b.lpts)
}

fn transition_line(
    c: &mut Cursor<'_>,
    b: &mut Builder,
    src: &str,
    src_col: usize,
) -> Result<(), ParseError> {
    if !c.eat("-") {
        return c.err(
            c.pos,
            format!("expected `-action->` after `{src}` (or a keyword: init, actions, states)"),
        );
    }
    let (action, _) = c.name("an action name", true)?;
    c.expect("->")?;
    let s = b.state(src);
    let a = b.lpts.add_action(&action);
    let mut entries: Vec<(StateId, Rational, usize)> = Vec::new();
    loop {
        let (w, wcol) = c.word();
        if c.peek() == Some(':') {
            c.pos += 1;
            let Some(p) = parse_probability(&w) else {
                return c.err(
                    wcol,
                    format!("`{w}` is not a probability (use 1, 1/3 or 0.25)"),
                );
            };
            if !p.is_positive() {
                return c.err(wcol, format!("probability {p} is not positive"));
            }
            if p > Rational::ONE {
                return c.err(wcol, format!("probability {p} exceeds 1"));
            }
            let (t, tcol) = c.name("a state name", true)?;
            let tid = b.state(&t);
            if entries.iter().any(|e| e.0 == tid) {
                return c.err(
                    tcol,
                    format!("state `{t}` occurs twice in one distribution"),
                );
            }
            entries.push((tid, p, wcol));
        } else if entries.is_empty() {
            // Dirac target: re-read as a name (handles quoted names).
            c.pos = wcol;
            let (t, _) = c.name("a target state", true)?;
            let tid = b.state(&t);
            entries.push((tid, Rational::ONE, wcol));
            break;
        } else {
            return c.err(wcol, "expected `probability : state`");
        }
        if !c.eat("+") {
            break;
        }
    }
    let sum = entries.iter().fold(Rational::ZERO, |acc, e| acc + &e.1);
    if !sum.is_one() {
        return c.err(
            src_col,
            format!("probabilities of this transition sum to {sum}, not 1"),
        );
    }
    let dist = Dist::new(entries.into_iter().map(|(s, p, _)| (s, p)).collect()).map_err(|e| {
        ParseError {
            line: c.line,
            col: src_col + 1,
            message: e.to_string(),
        }
    })?;
    b.lpts.add_transition(s, a, dist);
    Ok(())
}

/// Quotes a name when it is not a plain name of the format.
pub fn quote_name(s: &str) -> String {
    if !s.is_empty() && s.chars().all(is_name_char) && !["init", "actions", "states"].contains(&s) {
        s.to_string()
    } else {
        format!("\"{}\"", s.replace('"', "'"))
    }
}

/// Prints an LPTS in the textual format (state and action numbering preserved).
pub fn write_lpts(l: &Lpts) -> String {
    // Names must be unique to round-trip; disambiguate duplicates with `#id`-free suffixes.
    let names = unique_names(l);
    let mut out = String::new();
    let _ = writeln!(out, "init {}", quote_name(&names[l.initial()]));
    if !l.actions().is_empty() {
        let acts: Vec<String> = l.actions().iter().map(|a| quote_name(a)).collect();
        let _ = writeln!(out, "actions {}", acts.join(" "));
    }
    let sts: Vec<String> = names.iter().map(|n| quote_name(n)).collect();
    let _ = writeln!(out, "states {}", sts.join(" "));
    for t in l.transitions() {
        let _ = write!(
            out,
            "{} -{}-> ",
            quote_name(&names[t.src]),
            quote_name(l.action_name(t.action))
        );
        let parts: Vec<String> = t
            .dist
            .entries()
            .iter()
            .map(|(s, p)| format!("{p} : {}", quote_name(&names[*s])))
            .collect();
        let _ = writeln!(out, "{}", parts.join(" + "));
    }
    out
}

/// State names made unique by appending `_N` where needed.
pub fn unique_names(l: &Lpts) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::with_capacity(l.num_states());
    for s in 0..l.num_states() {
        let base = if l.state_name(s).is_empty() {
            format!("s{s}")
        } else {
            l.state_name(s).to_string()
        };
        let mut name = base.clone();
        let mut k = seen.get(&base).copied().unwrap_or(0);
        while seen.contains_key(&name) {
            k += 1;
            name = format!("{base}_{k}");
        }
        seen.insert(base, k);
        seen.entry(name.clone()).or_insert(0);
        out.push(name);
    }
    out
}
