//! Explicit-state exploration of a compiled PRISM model, with PRISM's semantics:
//!
//! * the process term of `system … endsystem` (default: all modules in parallel,
//!   synchronizing each action across the modules whose alphabet contains it);
//! * in a `dtmc`, the transitions enabled in a state are combined by a **uniform choice**
//!   (each of the k gets weight 1/k), as PRISM and Storm do; the combined transition keeps
//!   its action when all k share it and is labelled `tau` otherwise;
//! * a state without any transition gets a `tau` self-loop when asked (PRISM and Storm do
//!   this for whole models);
//! * update probabilities whose sum is within PRISM's tolerance (10⁻⁵) of 1 are divided
//!   by their sum (`3 × 0.333333` is accepted and becomes `3 × 1/3`); a larger error is
//!   reported;
//! * several initial states (`init … endinit`) hang below a fresh root state `init` by
//!   Dirac `init` transitions, one per initial state (an LPTS has one initial state).

use super::PrismError;
use super::build::{BuildOptions, VarInfo};
use super::eval::{CExpr, Value, boolean, num};
use super::syntax::{Pos, SysTerm};
use crate::lpts::{Dist, Lpts, StateId};
use cove_logic::Rational;
use std::collections::HashMap;

/// Compiled assignments `(slot, value, position)`.
pub(super) type CAssigns = Vec<(usize, CExpr, Pos)>;
/// Outcomes of a move: `(probability, changed slots)`.
type Outcomes = Vec<(Rational, Vec<(usize, i64)>)>;
/// A move with full successor states.
type JointMove = (Option<usize>, Vec<(Rational, Vec<i64>)>);

/// A command with its action resolved to an index of [`Compiled::actions`].
pub(super) struct CCommand {
    pub(super) action: Option<usize>,
    pub(super) guard: CExpr,
    pub(super) updates: Vec<(CExpr, CAssigns)>,
    pub(super) pos: Pos,
}

/// A module: its commands and its alphabet (action indices).
pub(super) struct CModule {
    pub(super) name: String,
    pub(super) commands: Vec<CCommand>,
    pub(super) alphabet: Vec<usize>,
}

/// A process term with action sets resolved to flags indexed by action.
pub(super) enum CSys {
    Module(usize),
    /// Parallel composition synchronizing on the flagged actions.
    Par(Box<CSys>, Box<CSys>, Vec<bool>),
    /// Hide the flagged actions.
    Hide(Box<CSys>, Vec<bool>),
    /// Rename action i to map[i].
    Rename(Box<CSys>, Vec<usize>),
}

/// Everything exploration needs.
pub(super) struct Compiled {
    pub(super) info: Vec<VarInfo>,
    pub(super) modules: Vec<CModule>,
    pub(super) actions: Vec<String>,
    pub(super) system: CSys,
    pub(super) dtmc: bool,
    pub(super) init: Option<CExpr>,
}

fn action_index(actions: &mut Vec<String>, a: &str) -> usize {
    actions.iter().position(|x| x == a).unwrap_or_else(|| {
        actions.push(a.to_string());
        actions.len() - 1
    })
}

/// Compiles the `system` term (or the default full parallel composition of all modules).
/// Returns the term; action flags are sized to the final action table.
pub(super) fn compile_system(
    sys: Option<&SysTerm>,
    modules: &[CModule],
    actions: &mut Vec<String>,
) -> Result<CSys, PrismError> {
    let Some(t) = sys else {
        let mut acc = CSys::Module(0);
        let mut alpha: Vec<usize> = modules[0].alphabet.clone();
        for (i, m) in modules.iter().enumerate().skip(1) {
            let mut flags = vec![false; actions.len()];
            for &a in &m.alphabet {
                if alpha.contains(&a) {
                    flags[a] = true;
                } else {
                    alpha.push(a);
                }
            }
            acc = CSys::Par(Box::new(acc), Box::new(CSys::Module(i)), flags);
        }
        return Ok(acc);
    };
    // First intern every action the term mentions, so that flag vectors have one size.
    let mut stack = vec![t];
    let mut used = vec![false; modules.len()];
    while let Some(t) = stack.pop() {
        match t {
            SysTerm::Module(n, p) => {
                let Some(i) = modules.iter().position(|m| m.name == *n) else {
                    return Err(PrismError::at(*p, format!("undefined module `{n}`")));
                };
                if used[i] {
                    return Err(PrismError::at(*p, format!("module `{n}` used twice")));
                }
                used[i] = true;
            }
            SysTerm::Full(a, b) | SysTerm::Interleave(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            SysTerm::Sync(a, acts, b) => {
                for x in acts {
                    action_index(actions, x);
                }
                stack.push(a);
                stack.push(b);
            }
            SysTerm::Hide(a, acts) => {
                for x in acts {
                    action_index(actions, x);
                }
                stack.push(a);
            }
            SysTerm::Rename(a, ren) => {
                for (x, y) in ren {
                    action_index(actions, x);
                    action_index(actions, y);
                }
                stack.push(a);
            }
        }
    }
    if let Some(i) = used.iter().position(|u| !u) {
        return Err(PrismError {
            line: 0,
            col: 0,
            message: format!(
                "module `{}` does not occur in the `system` block",
                modules[i].name
            ),
            stop: None,
        });
    }
    let n = actions.len();
    Ok(build_sys(t, modules, actions, n).0)
}

/// Returns the compiled term and its alphabet (flags). Recursion is bounded by the size of
/// the `system` block, which is written by hand.
fn build_sys(t: &SysTerm, modules: &[CModule], actions: &[String], n: usize) -> (CSys, Vec<bool>) {
    let idx = |a: &str| actions.iter().position(|x| x == a).expect("interned");
    match t {
        SysTerm::Module(name, _) => {
            let i = modules
                .iter()
                .position(|m| m.name == *name)
                .expect("checked");
            let mut alpha = vec![false; n];
            for &a in &modules[i].alphabet {
                alpha[a] = true;
            }
            (CSys::Module(i), alpha)
        }
        SysTerm::Full(a, b) | SysTerm::Interleave(a, b) | SysTerm::Sync(a, _, b) => {
            let (ca, aa) = build_sys(a, modules, actions, n);
            let (cb, ab) = build_sys(b, modules, actions, n);
            let flags: Vec<bool> = match t {
                SysTerm::Full(..) => (0..n).map(|i| aa[i] && ab[i]).collect(),
                SysTerm::Interleave(..) => vec![false; n],
                SysTerm::Sync(_, acts, _) => {
                    let mut f = vec![false; n];
                    for x in acts {
                        f[idx(x)] = true;
                    }
                    f
                }
                _ => unreachable!(),
            };
            let alpha = (0..n).map(|i| aa[i] || ab[i]).collect();
            (CSys::Par(Box::new(ca), Box::new(cb), flags), alpha)
        }
        SysTerm::Hide(a, acts) => {
            let (ca, mut alpha) = build_sys(a, modules, actions, n);
            let mut f = vec![false; n];
            for x in acts {
                f[idx(x)] = true;
                alpha[idx(x)] = false;
            }
            (CSys::Hide(Box::new(ca), f), alpha)
        }
        SysTerm::Rename(a, ren) => {
            let (ca, alpha) = build_sys(a, modules, actions, n);
            let mut map: Vec<usize> = (0..n).collect();
            for (x, y) in ren {
                map[idx(x)] = idx(y);
            }
            let mut al = vec![false; n];
            for i in 0..n {
                if alpha[i] {
                    al[map[i]] = true;
                }
            }
            (CSys::Rename(Box::new(ca), map), al)
        }
    }
}

/// A move of a sub-term in one state: action (`None`: unlabelled) and outcomes as
/// `(probability, changed slots)`.
struct Move {
    action: Option<usize>,
    outcomes: Outcomes,
}

fn state_text(info: &[VarInfo], st: &[i64]) -> String {
    let parts: Vec<String> = info
        .iter()
        .zip(st)
        .map(|(v, x)| {
            if v.is_bool {
                format!("{}={}", v.name, *x != 0)
            } else {
                format!("{}={x}", v.name)
            }
        })
        .collect();
    parts.join(",")
}

fn pos_of(e: &CExpr, dflt: Pos) -> Pos {
    match e {
        CExpr::Neg(_, p)
        | CExpr::Not(_, p)
        | CExpr::Bin(_, _, _, p)
        | CExpr::Ite(_, _, _, p)
        | CExpr::Call(_, _, p) => *p,
        _ => dflt,
    }
}

/// PRISM's tolerance for probability sums.
fn tolerance() -> Rational {
    Rational::new(1, 100_000)
}

/// The outcomes of one command in state `st`.
fn command_outcomes(c: &CCommand, info: &[VarInfo], st: &[i64]) -> Result<Outcomes, PrismError> {
    let mut out = Vec::with_capacity(c.updates.len());
    let mut sum = Rational::ZERO;
    for (pe, assigns) in &c.updates {
        let p = num(pe.eval(st)?, pos_of(pe, c.pos))?;
        if p.is_negative() {
            return Err(PrismError::at(
                pos_of(pe, c.pos),
                format!(
                    "negative probability {p} in state ({})",
                    state_text(info, st)
                ),
            ));
        }
        sum += &p;
        let mut changes = Vec::with_capacity(assigns.len());
        for (i, e, pos) in assigns {
            let v = &info[*i];
            let x = match e.eval(st)? {
                Value::Bool(b) if v.is_bool => b as i64,
                Value::Num(r) if !v.is_bool && r.is_integer() => r.to_i64().ok_or_else(|| {
                    PrismError::at(*pos, format!("value of `{}` overflows 64 bits", v.name))
                })?,
                other => {
                    return Err(PrismError::at(
                        *pos,
                        format!("value {other:?} does not fit the type of `{}`", v.name),
                    ));
                }
            };
            if x < v.lo || x > v.hi {
                return Err(PrismError::at(
                    *pos,
                    format!(
                        "update sets `{}` to {x}, outside its range [{}..{}], in state ({})",
                        v.name,
                        v.lo,
                        v.hi,
                        state_text(info, st)
                    ),
                ));
            }
            changes.push((*i, x));
        }
        if p.is_positive() {
            out.push((p, changes));
        }
    }
    if !sum.is_one() {
        if (sum.clone() - Rational::ONE).abs() > tolerance() {
            return Err(PrismError::at(
                c.pos,
                format!(
                    "update probabilities sum to {sum}, not 1, in state ({})",
                    state_text(info, st)
                ),
            ));
        }
        for (p, _) in &mut out {
            *p = p.clone() / sum.clone();
        }
    }
    Ok(out)
}

/// The moves of a process term in state `st` (recursion bounded by the `system` block).
fn moves(t: &CSys, c: &Compiled, st: &[i64]) -> Result<Vec<Move>, PrismError> {
    Ok(match t {
        CSys::Module(m) => {
            let mut out = Vec::new();
            for cmd in &c.modules[*m].commands {
                if boolean(cmd.guard.eval(st)?, pos_of(&cmd.guard, cmd.pos))? {
                    out.push(Move {
                        action: cmd.action,
                        outcomes: command_outcomes(cmd, &c.info, st)?,
                    });
                }
            }
            out
        }
        CSys::Par(a, b, sync) => {
            let ma = moves(a, c, st)?;
            let mb = moves(b, c, st)?;
            let is_sync = |m: &Move| m.action.is_some_and(|x| sync[x]);
            let mut out = Vec::new();
            for x in &ma {
                if !is_sync(x) {
                    continue;
                }
                for y in mb.iter().filter(|y| y.action == x.action) {
                    let mut outcomes = Vec::with_capacity(x.outcomes.len() * y.outcomes.len());
                    for (p, cx) in &x.outcomes {
                        for (q, cy) in &y.outcomes {
                            if let Some(&(i, _)) =
                                cx.iter().find(|(i, _)| cy.iter().any(|(j, _)| i == j))
                            {
                                return Err(PrismError {
                                    line: 0,
                                    col: 0,
                                    message: format!(
                                        "synchronizing commands on `{}` both write `{}` in state ({})",
                                        c.actions[x.action.unwrap_or(0)],
                                        c.info[i].name,
                                        state_text(&c.info, st)
                                    ),
                                    stop: None,
                                });
                            }
                            let mut ch = cx.clone();
                            ch.extend_from_slice(cy);
                            outcomes.push((p * q, ch));
                        }
                    }
                    out.push(Move {
                        action: x.action,
                        outcomes,
                    });
                }
            }
            out.extend(ma.into_iter().filter(|m| !is_sync(m)));
            out.extend(mb.into_iter().filter(|m| !is_sync(m)));
            out
        }
        CSys::Hide(a, hidden) => {
            let mut ms = moves(a, c, st)?;
            for m in &mut ms {
                if m.action.is_some_and(|x| hidden[x]) {
                    m.action = None;
                }
            }
            ms
        }
        CSys::Rename(a, map) => {
            let mut ms = moves(a, c, st)?;
            for m in &mut ms {
                m.action = m.action.map(|x| map[x]);
            }
            ms
        }
    })
}

/// All valuations satisfying the `init … endinit` predicate (every variable must be
/// bounded), or the single declared initial valuation.
fn initial_states(c: &Compiled, limit: usize) -> Result<Vec<Vec<i64>>, PrismError> {
    let Some(pred) = &c.init else {
        return Ok(vec![
            c.info
                .iter()
                .map(|v| v.init.unwrap_or(if v.lo == i64::MIN { 0 } else { v.lo }))
                .collect(),
        ]);
    };
    if let Some(v) = c.info.iter().find(|v| v.lo == i64::MIN) {
        return Err(PrismError {
            line: 0,
            col: 0,
            message: format!(
                "`init … endinit` needs bounded variables; `{}` is an unbounded int",
                v.name
            ),
            stop: None,
        });
    }
    let mut out = Vec::new();
    let mut st: Vec<i64> = c.info.iter().map(|v| v.lo).collect();
    let mut checked = 0usize;
    loop {
        checked += 1;
        if checked > limit.saturating_mul(16).max(1 << 20) {
            return Err(PrismError {
                line: 0,
                col: 0,
                message: "too many valuations to enumerate for `init … endinit`".into(),
                stop: None,
            });
        }
        if boolean(pred.eval(&st)?, pos_of(pred, Pos::default()))? {
            out.push(st.clone());
        }
        // Next valuation (odometer).
        let mut k = 0;
        loop {
            if k == st.len() {
                return Ok(out);
            }
            if st[k] < c.info[k].hi {
                st[k] += 1;
                break;
            }
            st[k] = c.info[k].lo;
            k += 1;
        }
    }
}

/// Explores the reachable state space.
pub(super) fn explore(c: &Compiled, opts: &BuildOptions) -> Result<Lpts, PrismError> {
    let limit = opts.max_states;
    let inits = initial_states(c, limit)?;
    if inits.is_empty() {
        return Err(PrismError {
            line: 0,
            col: 0,
            message: "no initial state satisfies `init … endinit`".into(),
            stop: None,
        });
    }
    let root = inits.len() > 1;
    let mut lpts = Lpts::new(if root {
        "init".to_string()
    } else {
        state_text(&c.info, &inits[0])
    });
    for a in &c.actions {
        lpts.add_action(a);
    }
    let mut tau = None;
    let mut tau_id = |l: &mut Lpts| *tau.get_or_insert_with(|| l.add_action("tau"));
    let mut index: HashMap<Vec<i64>, StateId> = HashMap::new();
    let mut states: Vec<Vec<i64>> = Vec::new();
    let too_many = || PrismError {
        line: 0,
        col: 0,
        message: format!("more than {limit} reachable states"),
        stop: None,
    };
    if root {
        let init_act = lpts.add_action("init");
        for s in inits {
            if states.len() >= limit {
                return Err(too_many());
            }
            let id = lpts.add_state(state_text(&c.info, &s));
            index.insert(s.clone(), id);
            states.push(s);
            lpts.add_transition(0, init_act, Dist::dirac(id));
        }
    } else {
        index.insert(inits[0].clone(), 0);
        states.push(inits[0].clone());
    }
    let offset = usize::from(root);
    let mut next = 0;
    while next < states.len() {
        let st = states[next].clone();
        let src = next + offset;
        next += 1;
        if next.is_multiple_of(1024)
            && let Some(r) = opts.control.should_stop()
        {
            return Err(PrismError {
                line: 0,
                col: 0,
                message: format!("stopped while exploring the state space: {r}"),
                stop: Some(r),
            });
        }
        let ms = moves(&c.system, c, &st)?;
        // (action, distribution as (probability, next state)).
        let mut joint: Vec<JointMove> = ms
            .into_iter()
            .map(|m| {
                let d = m
                    .outcomes
                    .into_iter()
                    .map(|(p, ch)| {
                        let mut s2 = st.clone();
                        for (i, x) in ch {
                            s2[i] = x;
                        }
                        (p, s2)
                    })
                    .collect();
                (m.action, d)
            })
            .collect();
        if c.dtmc && joint.len() > 1 {
            let k = Rational::int(joint.len() as i64);
            let same = joint.iter().all(|(a, _)| *a == joint[0].0);
            let act = if same { joint[0].0 } else { None };
            let mut d = Vec::new();
            for (_, dd) in joint {
                for (p, s2) in dd {
                    d.push((p / &k, s2));
                }
            }
            joint = vec![(act, d)];
        }
        if joint.is_empty() && opts.deadlock_self_loops {
            joint.push((None, vec![(Rational::ONE, st.clone())]));
        }
        for (a, d) in joint {
            let a = match a {
                Some(a) => a,
                None => tau_id(&mut lpts),
            };
            let mut entries = Vec::with_capacity(d.len());
            for (p, s2) in d {
                let id = match index.get(&s2) {
                    Some(&id) => id,
                    None => {
                        if states.len() >= limit {
                            return Err(too_many());
                        }
                        let id = lpts.add_state(state_text(&c.info, &s2));
                        index.insert(s2.clone(), id);
                        states.push(s2);
                        id
                    }
                };
                entries.push((id, p));
            }
            let dist = Dist::merged(entries).expect("update probabilities checked to sum to 1");
            lpts.add_transition(src, a, dist);
        }
    }
    Ok(lpts)
}
