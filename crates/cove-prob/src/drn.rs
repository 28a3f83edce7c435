//! Explicit model files of other tools: Storm's DRN format (read and write) and PRISM's
//! explicit `.tra` (+ `.lab`) files (read), so that a model can be cross-checked with Storm
//! or PRISM state by state.
//!
//! An LPTS is an action-labelled MDP, so it is written as a DRN `MDP` whose choices carry
//! the action names (`action NAME`), with exact fractions as values (`1/3`; Storm reads
//! them exactly with its rational value type and as the nearest double otherwise). States
//! without a transition are written with no choice, marked `deadlock`; state names go
//! into Storm's valuation comment `//[...]`.
//!
//! Reading follows PRISM and Storm where an LPTS has no counterpart:
//! * a `DTMC` or `MDP` is accepted; `CTMC`, `MA`, `POMDP` and parametric models are refused
//!   with a message; rewards and labels other than `init` are read and ignored;
//! * an unlabelled choice (`__NOLABEL__`, or a bare choice index as Storm writes it when
//!   the model has no choice labels) gets the action `tau`, the name the PRISM front end
//!   gives unlabelled commands;
//! * values are exact (`0.25`, `1/3`, `1e-3`); a distribution whose sum is within PRISM's
//!   tolerance (10⁻⁵) of 1 is divided by its sum, as PRISM and Storm accept it (three
//!   times `0.3333333333`); a larger deviation is an error;
//! * `deadlock` states keep no move (they are components to be composed; `simulate`
//!   adds PRISM's self-loop for whole models the same way it does for PRISM input).
//!
//! Errors carry `line:column`.

use crate::format::ParseError;
use crate::lpts::{Dist, Lpts, StateId};
use cove_logic::Rational;
use std::fmt::Write as _;

fn err<T>(line: usize, col: usize, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        line,
        col,
        message: message.into(),
    })
}

/// Parses a number as exact rational: `3`, `0.25`, `1/3`, `1e-3`, `2.5E+2`.
pub fn parse_value(s: &str) -> Option<Rational> {
    if let Some(p) = crate::format::parse_probability(s) {
        return Some(p);
    }
    let (mant, exp) = s.split_once(['e', 'E'])?;
    let m = Rational::parse_decimal(mant)?;
    let e: i32 = exp.strip_prefix('+').unwrap_or(exp).parse().ok()?;
    if e.unsigned_abs() > 40 {
        return None;
    }
    let mut scale = Rational::ONE;
    for _ in 0..e.unsigned_abs() {
        scale = scale * Rational::from(10);
    }
    Some(if e >= 0 { m * scale } else { m / scale })
}

/// A distribution from raw masses: exact sum 1, or within PRISM's tolerance (then divided
/// by the sum). `None` with the sum when it is off by more.
fn distribution(entries: Vec<(StateId, Rational)>) -> Result<Dist, String> {
    let mut sum = Rational::ZERO;
    for (_, p) in &entries {
        sum += p;
    }
    let tol = Rational::new(1, 100_000);
    if !sum.is_one() && (sum.clone() - Rational::ONE).abs() > tol {
        return Err(format!("probabilities sum to {sum}, not 1"));
    }
    let entries = entries
        .into_iter()
        .map(|(s, p)| (s, p / sum.clone()))
        .collect::<Vec<_>>();
    Dist::merged(entries).map_err(|e| e.to_string())
}

/// A choice being read: action, raw masses, line of its `action` keyword.
type RawChoice = (String, Vec<(StateId, Rational)>, usize);

/// An LPTS under construction from numbered states: states `0..n`, names set later.
struct Numbered {
    n: usize,
    names: Vec<String>,
    initial: Option<StateId>,
    trans: Vec<(StateId, String, Dist)>,
}

impl Numbered {
    fn finish(self) -> Lpts {
        let initial = self.initial.unwrap_or(0);
        // Lpts numbers its start state 0: swap the initial state with 0.
        let id = |s: StateId| {
            if s == initial {
                0
            } else if s == 0 {
                initial
            } else {
                s
            }
        };
        let mut l = Lpts::new(self.names[initial].clone());
        for s in 1..self.n {
            let orig = if s == initial { 0 } else { s };
            l.add_state(self.names[orig].clone());
        }
        for (s, a, d) in self.trans {
            let a = l.add_action(&a);
            l.add_transition(id(s), a, d.map(id));
        }
        l
    }
}

/// Reads a model in Storm's DRN format (see the module documentation).
pub fn parse_drn(text: &str) -> Result<Lpts, ParseError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    let mut n_states: Option<usize> = None;
    let mut model_line = None;
    while i < lines.len() {
        let t = lines[i].trim();
        let ln = i + 1;
        i += 1;
        if let Some(ty) = t.strip_prefix("@type:") {
            match ty.trim() {
                "DTMC" | "MDP" => {}
                other => {
                    return err(
                        ln,
                        1,
                        format!(
                            "model type {other} is not supported (an LPTS is a DTMC or an MDP)"
                        ),
                    );
                }
            }
        } else if t == "@parameters" {
            if i < lines.len() && !lines[i].trim().is_empty() && !lines[i].trim().starts_with('@') {
                return err(i + 1, 1, "parametric models are not supported");
            }
        } else if t == "@nr_states" {
            let v = lines.get(i).map(|s| s.trim()).unwrap_or("");
            n_states =
                Some(v.parse().or_else(|_| {
                    err(i + 1, 1, format!("expected a number of states, got `{v}`"))
                })?);
            i += 1;
        } else if t == "@model" {
            model_line = Some(i);
            break;
        }
    }
    let Some(start) = model_line else {
        return err(lines.len().max(1), 1, "no `@model` section");
    };
    let Some(n) = n_states.filter(|&n| n > 0) else {
        return err(start, 1, "no positive `@nr_states` before `@model`");
    };
    let mut m = Numbered {
        n,
        names: (0..n).map(|s| format!("s{s}")).collect(),
        initial: None,
        trans: Vec::new(),
    };
    let mut cur_state: Option<StateId> = None;
    let mut cur_action: Option<RawChoice> = None;
    let flush = |m: &mut Numbered,
                 st: Option<StateId>,
                 act: &mut Option<RawChoice>|
     -> Result<(), ParseError> {
        if let (Some(s), Some((a, entries, ln))) = (st, act.take()) {
            let d = distribution(entries).or_else(|e| err(ln, 1, e))?;
            m.trans.push((s, a, d));
        }
        Ok(())
    };
    for (k, raw) in lines.iter().enumerate().skip(start) {
        let ln = k + 1;
        let col = raw.len() - raw.trim_start().len() + 1;
        let t = raw.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(val) = t.strip_prefix("//") {
            // Storm's valuation comment right after a state line names the state.
            if let (Some(s), None) = (cur_state, &cur_action)
                && val.starts_with('[')
            {
                m.names[s] = val.trim().to_string();
            }
            continue;
        }
        let mut words = t.split_whitespace();
        match words.next() {
            Some("state") => {
                flush(&mut m, cur_state, &mut cur_action)?;
                let id = words.next().unwrap_or("");
                let s: usize = id
                    .parse()
                    .ok()
                    .filter(|&s| s < n)
                    .map_or_else(|| err(ln, col + 6, format!("bad state number `{id}`")), Ok)?;
                for w in words {
                    if w == "init" {
                        if m.initial.is_some_and(|i| i != s) {
                            return err(ln, col, "a second initial state (an LPTS has one)");
                        }
                        m.initial = Some(s);
                    } else if w.starts_with('{') {
                        return err(ln, col, "observations (POMDP) are not supported");
                    }
                }
                cur_state = Some(s);
            }
            Some("action") => {
                flush(&mut m, cur_state, &mut cur_action)?;
                if cur_state.is_none() {
                    return err(ln, col, "`action` before any `state`");
                }
                let name = words.next().unwrap_or("");
                let name = if name.is_empty()
                    || name == "__NOLABEL__"
                    || name.chars().all(|c| c.is_ascii_digit())
                {
                    "tau".to_string()
                } else {
                    name.to_string()
                };
                cur_action = Some((name, Vec::new(), ln));
            }
            Some(_) => {
                let Some((_, entries, _)) = cur_action.as_mut() else {
                    return err(ln, col, format!("unexpected `{t}`"));
                };
                let Some((to, p)) = t.split_once(':') else {
                    return err(ln, col, "expected `STATE : PROBABILITY`");
                };
                let to: usize = to.trim().parse().ok().filter(|&s| s < n).map_or_else(
                    || err(ln, col, format!("bad target state `{}`", to.trim())),
                    Ok,
                )?;
                let p = parse_value(p.trim())
                    .filter(|p| !p.is_negative())
                    .map_or_else(
                        || err(ln, col, format!("bad probability `{}`", p.trim())),
                        Ok,
                    )?;
                if p.is_positive() {
                    entries.push((to, p));
                }
            }
            None => {}
        }
    }
    flush(&mut m, cur_state, &mut cur_action)?;
    Ok(m.finish())
}

/// Writes an LPTS in Storm's DRN format as an MDP with choice labels and exact values.
pub fn write_drn(l: &Lpts) -> String {
    let mut out =
        String::from("// Exported by cove (an LPTS: each choice is labelled with its action)\n");
    let _ = write!(
        out,
        "@type: MDP\n@value_type: double\n@parameters\n\n@reward_models\n\n@nr_states\n{}\n@nr_choices\n{}\n@model\n",
        l.num_states(),
        l.num_transitions()
    );
    for s in 0..l.num_states() {
        let _ = write!(out, "state {s}");
        if s == l.initial() {
            out.push_str(" init");
        }
        if l.outgoing(s).is_empty() {
            out.push_str(" deadlock");
        }
        let name = l.state_name(s).replace('\n', " ");
        let _ = writeln!(out, "\n//{name}");
        for &t in l.outgoing(s) {
            let tr = l.transition(t);
            let _ = writeln!(out, "\taction {}", l.action_name(tr.action));
            for (u, p) in tr.dist.entries() {
                let _ = writeln!(out, "\t\t{u} : {p}");
            }
        }
    }
    out
}

/// Reads PRISM's explicit transition file (`.tra`: `STATES TRANSITIONS` then
/// `SRC DST PROB` for a DTMC, or `STATES CHOICES TRANSITIONS` then
/// `SRC CHOICE DST PROB [ACTION]` for an MDP) with an optional label file (`.lab`) whose
/// `init` label gives the start state (state 0 otherwise).
pub fn parse_tra(tra: &str, lab: Option<&str>) -> Result<Lpts, ParseError> {
    let mut lines = tra
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((hl, header)) = lines.next() else {
        return err(1, 1, "empty transition file");
    };
    let head: Vec<usize> = header
        .split_whitespace()
        .map(|w| w.parse())
        .collect::<Result<_, _>>()
        .or_else(|_| err(hl + 1, 1, "the first line must hold two or three counts"))?;
    let (n, mdp) = match head.as_slice() {
        [n, _] => (*n, false),
        [n, _, _] => (*n, true),
        _ => return err(hl + 1, 1, "the first line must hold two or three counts"),
    };
    if n == 0 {
        return err(hl + 1, 1, "no states");
    }
    // (src, choice) -> (action, entries, first line)
    let mut choices: Vec<((StateId, usize), RawChoice)> = Vec::new();
    let mut index = std::collections::HashMap::new();
    for (k, line) in lines {
        let w: Vec<&str> = line.split_whitespace().collect();
        let ln = k + 1;
        let (src, ch, dst, p, act) = match (mdp, w.as_slice()) {
            (false, [s, d, p]) => (*s, "0", *d, *p, None),
            (true, [s, c, d, p]) => (*s, *c, *d, *p, None),
            (true, [s, c, d, p, a]) => (*s, *c, *d, *p, Some(*a)),
            _ => return err(ln, 1, "malformed transition line"),
        };
        let num = |x: &str| -> Result<usize, ParseError> {
            x.parse()
                .ok()
                .filter(|&v| v < n)
                .map_or_else(|| err(ln, 1, format!("bad state `{x}`")), Ok)
        };
        let ch: usize = ch
            .parse()
            .map_or_else(|_| err(ln, 1, format!("bad choice `{ch}`")), Ok)?;
        let (src, dst) = (num(src)?, num(dst)?);
        let p = parse_value(p)
            .filter(|p| p.is_positive())
            .map_or_else(|| err(ln, 1, format!("bad probability `{p}`")), Ok)?;
        let key = (src, ch);
        let at = *index.entry(key).or_insert_with(|| {
            choices.push((key, (act.unwrap_or("tau").to_string(), Vec::new(), ln)));
            choices.len() - 1
        });
        choices[at].1.1.push((dst, p));
    }
    let mut initial = None;
    if let Some(lab) = lab {
        let mut init_id = None;
        for (k, line) in lab.lines().enumerate() {
            let t = line.trim();
            if k == 0 {
                for decl in t.split_whitespace() {
                    if let Some((id, name)) = decl.split_once('=')
                        && name.trim_matches('"') == "init"
                    {
                        init_id = Some(id.to_string());
                    }
                }
            } else if let Some((s, ls)) = t.split_once(':')
                && let Some(id) = &init_id
                && ls.split_whitespace().any(|x| x == id)
            {
                initial = s.trim().parse::<usize>().ok().filter(|&s| s < n);
            }
        }
    }
    let mut m = Numbered {
        n,
        names: (0..n).map(|s| format!("s{s}")).collect(),
        initial,
        trans: Vec::new(),
    };
    for ((src, _), (a, entries, ln)) in choices {
        let d = distribution(entries).or_else(|e| err(ln, 1, e))?;
        m.trans.push((src, a, d));
    }
    Ok(m.finish())
}
