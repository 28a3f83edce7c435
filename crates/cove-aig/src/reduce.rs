//! Preprocessing: cone of influence, structural hashing, constant propagation and
//! sequential constant detection (ternary simulation from the reset state).
//!
//! The reduced circuit has exactly one bad property (the disjunction of the original ones)
//! and keeps, for trace reconstruction and invariant translation, where each of its inputs
//! and latches came from. Latches are never merged, so a clause over reduced latches is a
//! clause over original latches; latches found constant are reported so that the invariant
//! can state their value.
//!
//! Optionally ([`Options::merge_inputs`]), inputs that can be fixed without changing any
//! cut's range are merged to constants ([`crate::input_merge`]) after these reductions, and the
//! reductions run again so that constant propagation, the cone of influence and the constant
//! latches see the constants. Merged inputs are reported with their constant for trace
//! reconstruction.

use crate::strash::Strash;
use crate::{ALit, Aig, FALSE, Latch, TRUE};
use cove_control::{Control, UnknownReason};

/// A reduced circuit and its relation to the original.
#[derive(Clone, Debug)]
pub struct Reduced {
    /// The reduced circuit (one bad property).
    pub aig: Aig,
    /// Original input index of each reduced input.
    pub input_orig: Vec<usize>,
    /// Original latch index of each reduced latch.
    pub latch_orig: Vec<usize>,
    /// Original latches proven constant, with their value.
    pub const_latches: Vec<(usize, bool)>,
    /// Original inputs merged to a constant, with the constant (a trace of the reduced
    /// circuit is one of the original with these values).
    pub const_inputs: Vec<(usize, bool)>,
    /// Statistics of the input merging pass, when it ran.
    pub merged: Option<crate::input_merge::Merged>,
    /// Original latches merged into another by latch correspondence ([`crate::lcorr`]):
    /// `(latch, representative, negated)`, the latch equal to the representative (negated
    /// when the flag is set) in every reachable state. The representative is never merged.
    pub eq_latches: Vec<(usize, usize, bool)>,
    /// Statistics of the latch correspondence pass, when it ran: latches merged, SAT
    /// queries, rounds, seconds.
    pub lcorr: Option<(usize, usize, usize, f64)>,
}

impl Reduced {
    /// The facts the reduction relies on, as clauses over the latches of the original
    /// circuit (`var_of(i)`: the variable of original latch `i`): the constant latches and the
    /// merged latches' equalities. A proof of the reduced circuit is one of the original
    /// together with them (they are inductive together, relative to the constraints).
    pub fn aux_clauses(&self, var_of: impl Fn(usize) -> u32) -> Vec<Vec<ALit>> {
        let mut aux: Vec<Vec<ALit>> = self
            .const_latches
            .iter()
            .map(|&(i, v)| vec![2 * var_of(i) + (!v) as u32])
            .collect();
        for &(m, r, neg) in &self.eq_latches {
            let (x, y) = (2 * var_of(m), 2 * var_of(r) + neg as u32);
            aux.push(vec![x ^ 1, y]);
            aux.push(vec![x, y ^ 1]);
        }
        aux
    }
}

/// Most rounds of input merging.
const MERGE_ROUNDS: usize = 4;

/// Optional reductions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Merge inputs to constants ([`crate::input_merge`]).
    pub merge_inputs: bool,
    /// Merge latches equal in every reachable state ([`crate::lcorr`]).
    pub lcorr: bool,
}

/// Wall-clock cap of the latch correspondence pass (and at most a tenth of the time left).
const LCORR_TIME: std::time::Duration = std::time::Duration::from_secs(4);

/// Reduces `orig` (see the module documentation) with the default options.
pub fn reduce(orig: &Aig, ctl: &Control) -> Result<Reduced, UnknownReason> {
    reduce_with(orig, &Options::default(), ctl)
}

/// Reduces `orig` (see the module documentation).
pub fn reduce_with(orig: &Aig, opts: &Options, ctl: &Control) -> Result<Reduced, UnknownReason> {
    let mut red = Reduced {
        aig: orig.clone(),
        input_orig: (0..orig.inputs.len()).collect(),
        latch_orig: (0..orig.latches.len()).collect(),
        const_latches: Vec::new(),
        const_inputs: Vec::new(),
        merged: None,
        eq_latches: Vec::new(),
        lcorr: None,
    };
    simplify(&mut red, &[], true, ctl)?;
    if opts.merge_inputs {
        // Rounds until one merges nothing: constant propagation after a round simplifies
        // the regions of the next (the paper iterates the same way).
        let cfg = crate::input_merge::Config::default();
        let mctl = crate::input_merge::pass_control(&cfg, ctl);
        let mut stats: Option<crate::input_merge::Merged> = None;
        for _ in 0..MERGE_ROUNDS {
            let m = crate::input_merge::merge_inputs(&red.aig, &cfg, &mctl);
            let k = m.count();
            for (i, c) in m.consts.iter().enumerate() {
                if let Some(c) = c {
                    red.const_inputs.push((red.input_orig[i], *c));
                }
            }
            if k > 0 {
                simplify(&mut red, &m.consts, false, ctl)?;
            }
            match &mut stats {
                None => stats = Some(m),
                Some(s) => s.absorb(&m),
            }
            if k == 0 || mctl.should_stop().is_some() {
                break;
            }
        }
        red.merged = stats;
    }
    if opts.lcorr {
        latch_correspondence(&mut red, ctl)?;
    }
    Ok(red)
}

/// Merges the latches that latch correspondence finds equal (or constant), then simplifies.
fn latch_correspondence(red: &mut Reduced, ctl: &Control) -> Result<(), UnknownReason> {
    let start = std::time::Instant::now();
    let budget = ctl
        .remaining()
        .map_or(LCORR_TIME, |r| LCORR_TIME.min(r / 10));
    let pctl = ctl.child_with_budget(budget);
    let found = crate::lcorr::latch_correspondence(&red.aig, &pctl);
    let k = found.count();
    red.lcorr = Some((
        k,
        found.queries,
        found.rounds,
        start.elapsed().as_secs_f64(),
    ));
    if k == 0 {
        return Ok(());
    }
    let mut subst = vec![None; red.aig.latches.len()];
    let mut eq = vec![None; red.aig.latches.len()];
    for (i, c) in found.corr.iter().enumerate() {
        match *c {
            None => {}
            Some(crate::lcorr::Corr::Const(v)) => {
                subst[i] = Some(v);
                red.const_latches.push((red.latch_orig[i], v));
            }
            Some(crate::lcorr::Corr::Latch(j, neg)) => {
                eq[i] = Some((j, neg));
                red.eq_latches
                    .push((red.latch_orig[i], red.latch_orig[j], neg));
            }
        }
    }
    let (aig, inputs, latches) = rebuild_eq(&red.aig, &subst, &[], &eq, false, ctl)?;
    red.input_orig = inputs.iter().map(|&i| red.input_orig[i]).collect();
    red.latch_orig = latches.iter().map(|&i| red.latch_orig[i]).collect();
    red.aig = aig;
    simplify(red, &[], false, ctl)
}

/// Rebuilds `red` with the inputs of `inputs_subst` (indexed like `red.aig.inputs`; may be
/// empty) replaced by constants, then alternates rebuilds and constant latch detection until
/// nothing changes. With `merge_bad`, the bad properties become one disjunction first.
fn simplify(
    red: &mut Reduced,
    inputs_subst: &[Option<bool>],
    merge_bad: bool,
    ctl: &Control,
) -> Result<(), UnknownReason> {
    let mut subst: Vec<Option<bool>> = vec![None; red.aig.latches.len()];
    let mut in_subst = inputs_subst.to_vec();
    for round in 0..4 {
        if let Some(r) = ctl.should_stop() {
            return Err(r);
        }
        let (aig, inputs, latches) =
            rebuild(&red.aig, &subst, &in_subst, merge_bad && round == 0, ctl)?;
        in_subst.clear();
        red.input_orig = inputs.iter().map(|&i| red.input_orig[i]).collect();
        red.latch_orig = latches.iter().map(|&i| red.latch_orig[i]).collect();
        red.aig = aig;
        subst = constant_latches(&red.aig, ctl)?;
        let mut any = false;
        for (i, c) in subst.iter().enumerate() {
            if let Some(v) = c {
                red.const_latches.push((red.latch_orig[i], *v));
                any = true;
            }
        }
        if !any && round > 0 {
            break;
        }
    }
    if subst.iter().any(|c| c.is_some()) {
        let (aig, inputs, latches) = rebuild(&red.aig, &subst, &[], false, ctl)?;
        red.input_orig = inputs.iter().map(|&i| red.input_orig[i]).collect();
        red.latch_orig = latches.iter().map(|&i| red.latch_orig[i]).collect();
        red.aig = aig;
    }
    Ok(())
}

/// Rebuilds the cone of influence of the bad properties and constraints, substituting the
/// latches of `subst` and the inputs of `in_subst` (empty: none) by constants. Returns the
/// circuit and the old indices of its inputs and latches. With `merge_bad`, the bad
/// properties become one disjunction.
fn rebuild(
    aig: &Aig,
    subst: &[Option<bool>],
    in_subst: &[Option<bool>],
    merge_bad: bool,
    ctl: &Control,
) -> Result<Rebuilt, UnknownReason> {
    rebuild_eq(aig, subst, in_subst, &[], merge_bad, ctl)
}

/// A rebuilt circuit with the old indices of its inputs and latches.
type Rebuilt = (Aig, Vec<usize>, Vec<usize>);

/// [`rebuild`] that also reads latch `i` as latch `j` (negated with the flag) where
/// `eq[i] = Some((j, neg))` (`j < i`, `j` neither substituted nor merged; `eq` may be empty).
fn rebuild_eq(
    aig: &Aig,
    subst: &[Option<bool>],
    in_subst: &[Option<bool>],
    eq: &[Option<(usize, bool)>],
    merge_bad: bool,
    ctl: &Control,
) -> Result<Rebuilt, UnknownReason> {
    let m = aig.max_var as usize;
    // Where each variable is defined.
    const NONE: u32 = u32::MAX;
    let mut and_of = vec![NONE; m + 1];
    for (i, a) in aig.ands.iter().enumerate() {
        and_of[a.var as usize] = i as u32;
    }
    let mut latch_of = vec![NONE; m + 1];
    for (i, l) in aig.latches.iter().enumerate() {
        latch_of[l.var as usize] = i as u32;
    }
    // Cone of influence (explicit stack).
    let mut mark = vec![false; m + 1];
    let mut stack: Vec<u32> = Vec::new();
    let push = |l: ALit, mark: &mut Vec<bool>, stack: &mut Vec<u32>| {
        let v = (l >> 1) as usize;
        if !mark[v] {
            mark[v] = true;
            stack.push(v as u32);
        }
    };
    for &l in aig.bad.iter().chain(&aig.constraints) {
        push(l, &mut mark, &mut stack);
    }
    while let Some(v) = stack.pop() {
        let v = v as usize;
        if and_of[v] != NONE {
            let a = aig.ands[and_of[v] as usize];
            push(a.rhs0, &mut mark, &mut stack);
            push(a.rhs1, &mut mark, &mut stack);
        } else if latch_of[v] != NONE {
            let i = latch_of[v] as usize;
            if let Some(&Some((j, _))) = eq.get(i) {
                push(2 * aig.latches[j].var, &mut mark, &mut stack);
            } else if subst[i].is_none() {
                push(aig.latches[i].next, &mut mark, &mut stack);
            }
        }
    }
    let mut map = vec![FALSE; m + 1];
    let mut inputs = Vec::new();
    let mut next_var = 1u32;
    let mut out = Aig::default();
    for (i, &v) in aig.inputs.iter().enumerate() {
        if let Some(&Some(c)) = in_subst.get(i) {
            map[v as usize] = if c { TRUE } else { FALSE };
        } else if mark[v as usize] {
            map[v as usize] = 2 * next_var;
            out.inputs.push(next_var);
            inputs.push(i);
            next_var += 1;
        }
    }
    let mut latches = Vec::new();
    for (i, l) in aig.latches.iter().enumerate() {
        if !mark[l.var as usize] {
            continue;
        }
        match subst[i] {
            Some(c) => map[l.var as usize] = if c { TRUE } else { FALSE },
            None if matches!(eq.get(i), Some(Some(_))) => {
                let (j, neg) = eq[i].expect("merged");
                map[l.var as usize] = map[aig.latches[j].var as usize] ^ neg as u32;
            }
            None => {
                map[l.var as usize] = 2 * next_var;
                out.latches.push(Latch {
                    var: next_var,
                    next: FALSE,
                    init: l.init,
                });
                latches.push(i);
                next_var += 1;
            }
        }
    }
    let mut st = Strash::new(next_var);
    let ml = |map: &[ALit], l: ALit| map[(l >> 1) as usize] ^ (l & 1);
    for (k, a) in aig.ands.iter().enumerate() {
        // Circuits blasted from wide multipliers have millions of gates.
        if k % 65_536 == 65_535
            && let Some(r) = ctl.should_stop()
        {
            return Err(r);
        }
        if mark[a.var as usize] {
            let l = st.and(ml(&map, a.rhs0), ml(&map, a.rhs1));
            map[a.var as usize] = l;
        }
    }
    for (k, &i) in latches.iter().enumerate() {
        out.latches[k].next = ml(&map, aig.latches[i].next);
    }
    if merge_bad {
        // bad = ¬∧¬b_i
        let mut acc = TRUE;
        for &b in &aig.bad {
            acc = st.and(acc, ml(&map, b) ^ 1);
        }
        out.bad = vec![acc ^ 1];
    } else {
        out.bad = aig.bad.iter().map(|&b| ml(&map, b)).collect();
    }
    out.constraints = aig
        .constraints
        .iter()
        .map(|&c| ml(&map, c))
        .filter(|&c| c != TRUE)
        .collect();
    out.constraints.sort_unstable();
    out.constraints.dedup();
    out.max_var = st.next_var - 1;
    out.ands = st.ands;
    Ok((out, inputs, latches))
}

/// Latches that keep their reset value forever, by ternary simulation from the reset state
/// with all inputs unknown (sound without constraints: it over-approximates the traces).
/// A fixpoint can take one sweep over the gates per latch, so the limits of `ctl` are
/// checked before every sweep (a bit-blasted word-level design has millions of gates).
fn constant_latches(aig: &Aig, ctl: &Control) -> Result<Vec<Option<bool>>, UnknownReason> {
    const X: u8 = 2;
    let mut guess: Vec<Option<bool>> = aig.latches.iter().map(|l| l.init.value()).collect();
    let mut vals = vec![X; aig.max_var as usize + 1];
    vals[0] = 0;
    let tv = |vals: &[u8], l: ALit| {
        let v = vals[(l >> 1) as usize];
        if v == X { X } else { v ^ (l & 1) as u8 }
    };
    loop {
        if let Some(r) = ctl.should_stop() {
            return Err(r);
        }
        for (i, l) in aig.latches.iter().enumerate() {
            vals[l.var as usize] = match guess[i] {
                Some(b) => b as u8,
                None => X,
            };
        }
        for a in &aig.ands {
            let (x, y) = (tv(&vals, a.rhs0), tv(&vals, a.rhs1));
            vals[a.var as usize] = if x == 0 || y == 0 {
                0
            } else if x == 1 && y == 1 {
                1
            } else {
                X
            };
        }
        let mut changed = false;
        for (i, l) in aig.latches.iter().enumerate() {
            if let Some(b) = guess[i]
                && tv(&vals, l.next) != b as u8
            {
                guess[i] = None;
                changed = true;
            }
        }
        if !changed {
            return Ok(guess);
        }
    }
}
