//! Merging inputs to constants by range preservation (Gajavelly et al., FMCAD 2019, Alg. 2
//! `TryToMergeInputTo0`: "reparameterization without logic insertion").
//!
//! # The reduction
//! A *region* `R` is a set of and gates. Its *outputs* `C` are the gates of `R` that are
//! roots (a latch's next-state function, the bad literal, a constraint) or feed a gate outside
//! `R`; its *dominated inputs* are the inputs all of whose fanouts lie in `R` (and that are no
//! root themselves); its *sources* `Z` are every other literal `R` reads: latches, the other
//! inputs, gates outside `R`. Every path from a dominated input to a root leaves `R` through
//! `C`, so the dominated inputs act on the rest of the circuit only through `C`'s values.
//! Write `F(x, Y, Z)` for the outputs as a function of one dominated input `x`, the other
//! dominated inputs `Y` and the sources. `x` may be replaced by the constant `c` iff
//!
//! ```text
//!     ∀Z, Y ∃Y′:  F(¬c, Y, Z) = F(c, Y′, Z)
//! ```
//!
//! (every output value producible with `x = ¬c` is producible with `x = c`, for every value
//! of the sources). The check is a CEGAR loop over two incremental solvers, without computing
//! the whole range: solver 1 holds two copies of the region (`x = ¬c` and `x = c`; gates that
//! do not depend on `x` shared) and asks for a valuation where the copies' outputs differ;
//! its `x = ¬c` outputs and sources `r` go to solver 2, one copy with `x = c` and `Y` free, as
//! assumptions. Solver 2 UNSAT: `r` is lost with `x = c`, no merge. SAT: `r` is producible, so
//! it is blocked in solver 1 and the loop repeats. Solver 1 UNSAT: for every `Y, Z` either
//! flipping `x` changes nothing (`Y′ = Y`) or the outputs were blocked, i.e. producible with
//! `x = c`: merge.
//!
//! # Why it is sound (and complete)
//! Merging `x` to `c` keeps, from every state and every value of the inputs outside `R`, the
//! set of possible values of `C`, hence the set of successor states together with the values
//! of the bad literal and of the constraints (they depend on the dominated inputs only through
//! `C`, and `Y′` differs from `Y` only on dominated inputs). So:
//! - every trace of the merged circuit is a trace of the original with `x = c` (trace
//!   reconstruction puts `c` for `x`; the driver re-simulates it on the original anyway);
//! - every original step `s → s′` (with `x = ¬c`, `Y`) has a merged step `s → s′` with `Y′`
//!   and the same bad and constraint values, so an inductive invariant or a k-induction proof
//!   of the merged circuit is one of the original, which the driver checks independently on
//!   the original circuit.
//!
//! Merges are applied one after the other; each later check encodes the inputs merged before
//! as constants, i.e. it runs on the circuit merged so far. Fixing an input removes edges, so a
//! region of the original circuit still dominates its inputs in the merged one.
//!
//! # Regions (cut selection)
//! - *Dominator cuts*: the gates post-dominated by one gate `g` (its subtree in the
//!   post-dominator tree of the combinational graph, roots leading to a virtual sink), with
//!   `g` the only output. For each input the highest dominator within the size limit whose
//!   region reads at most [`Config::dom_sources`] sources is used: a larger region only
//!   makes the check easier to pass (the preserved range is coarser).
//! - *Fanout regions*, for inputs left over: the union of the dominator regions of the
//!   input's fanout gates (multi-output, at most [`Config::cut_width`] outputs and
//!   [`Config::cut_sources`] sources), the cheap stand-in for the paper's combinational
//!   min-cuts.
//!
//! # Effort
//! The paper's limits: at most [`Config::iterations`] loop iterations per check and a budget
//! per SAT call (here conflicts, [`Config::conflicts`]). A region that exhausts a budget is
//! not tried again. The whole pass has a wall-clock cap ([`Config::time`]) on top of the
//! run's [`Control`]: it is preprocessing and must not eat the engines' time.

use crate::fanout::Fanouts;
use crate::{ALit, Aig};
use cove_control::Control;
use cove_sat::{Limits, Lit, NoTheory, SolveResult, Solver};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// Limits of the pass.
#[derive(Clone, Debug)]
pub struct Config {
    /// Largest region (nodes of the post-dominator subtree) analysed.
    pub max_region: usize,
    /// Sources allowed in a dominator region (the paper's "Dom4").
    pub dom_sources: usize,
    /// Outputs allowed in a fanout region (the paper's min-cut width 32).
    pub cut_width: usize,
    /// Sources allowed in a fanout region (the paper's 16).
    pub cut_sources: usize,
    /// CEGAR iterations per check (the paper's 1024).
    pub iterations: usize,
    /// Conflicts per SAT call.
    pub conflicts: u64,
    /// Wall-clock cap of the whole pass.
    pub time: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_region: 1000,
            dom_sources: 4,
            cut_width: 32,
            cut_sources: 16,
            iterations: 1024,
            conflicts: 1000,
            time: Duration::from_secs(2),
        }
    }
}

/// What one round of the pass found (the statistics also sum over rounds, see
/// [`Merged::absorb`]).
#[derive(Clone, Debug, Default)]
pub struct Merged {
    /// Per input (file order of the analysed circuit): the constant it was merged to.
    pub consts: Vec<Option<bool>>,
    /// Inputs merged.
    pub merged: usize,
    /// Rounds run.
    pub rounds: usize,
    /// Inputs of the analysed circuit.
    pub inputs: usize,
    /// Regions analysed.
    pub regions: usize,
    /// Merge checks run (input, constant).
    pub checks: usize,
    /// SAT calls made.
    pub sat_calls: usize,
    /// Checks cut short by a budget (not merged).
    pub exhausted: usize,
    /// Wall-clock time of the pass.
    pub time: Duration,
    /// Latches of the analysed circuit (for the statistics).
    pub latches: usize,
    /// And gates of the analysed circuit.
    pub ands: usize,
}

impl Merged {
    /// Number of inputs merged by this round.
    pub fn count(&self) -> usize {
        self.consts.iter().filter(|c| c.is_some()).count()
    }

    /// Adds the statistics of a later round (the circuit sizes stay those of the first).
    pub fn absorb(&mut self, later: &Merged) {
        self.merged += later.merged;
        self.rounds += later.rounds;
        self.regions += later.regions;
        self.checks += later.checks;
        self.sat_calls += later.sat_calls;
        self.exhausted += later.exhausted;
        self.time += later.time;
    }
}

/// The control of a whole pass (all its rounds): `ctl` with at most a tenth of the time left
/// and at most [`Config::time`].
pub fn pass_control(cfg: &Config, ctl: &Control) -> Control {
    let budget = ctl.remaining().map_or(cfg.time, |r| cfg.time.min(r / 10));
    ctl.child_with_budget(budget)
}

const NONE: u32 = Fanouts::NONE;

/// The combinational graph: fanouts, roots, post-dominator tree.
struct Graph {
    /// The gate defining each variable and the gates reading it.
    fan: Fanouts,
    /// Whether the variable is read by a root.
    root: Vec<bool>,
    /// Immediate post-dominator (`sink` = the virtual sink, `NONE` = reaches no root).
    idom: Vec<u32>,
    /// Pre-order number in the post-dominator tree and the end of the subtree's numbers.
    tin: Vec<u32>,
    tout: Vec<u32>,
    /// Nodes by pre-order number.
    by_tin: Vec<u32>,
}

impl Graph {
    fn new(aig: &Aig) -> Graph {
        let m = aig.max_var as usize;
        let sink = (m + 1) as u32;
        let fan = Fanouts::new(aig);
        let mut root = vec![false; m + 1];
        let roots = aig.latches.iter().map(|l| l.next);
        for l in roots
            .chain(aig.bad.iter().copied())
            .chain(aig.constraints.iter().copied())
        {
            root[(l >> 1) as usize] = true;
        }
        // Post-dominators on a DAG: one pass, fanouts before fanins (Cooper-Harvey-Kennedy
        // intersection by depth in the tree).
        let mut idom = vec![NONE; m + 2];
        let mut depth = vec![0u32; m + 2];
        idom[m + 1] = sink;
        let order = aig
            .ands
            .iter()
            .rev()
            .map(|a| a.var)
            .chain(aig.inputs.iter().copied())
            .chain(aig.latches.iter().map(|l| l.var));
        for v in order {
            let vu = v as usize;
            let mut d = if root[vu] { sink } else { NONE };
            for &w in fan.of(vu) {
                if idom[w as usize] == NONE {
                    continue;
                }
                d = if d == NONE {
                    w
                } else {
                    intersect(&idom, &depth, d, w)
                };
            }
            idom[vu] = d;
            if d != NONE {
                depth[vu] = depth[d as usize] + 1;
            }
        }
        // Pre-order numbering of the tree (children lists, explicit stack).
        let mut ch_count = vec![0u32; m + 3];
        for &p in &idom[1..=m] {
            if p != NONE {
                ch_count[p as usize + 1] += 1;
            }
        }
        for v in 0..m + 2 {
            ch_count[v + 1] += ch_count[v];
        }
        let mut ch = vec![0u32; ch_count[m + 2] as usize];
        let mut fill = ch_count.clone();
        for (v, &p) in idom.iter().enumerate().take(m + 1).skip(1) {
            if p != NONE {
                ch[fill[p as usize] as usize] = v as u32;
                fill[p as usize] += 1;
            }
        }
        let mut tin = vec![NONE; m + 2];
        let mut tout = vec![NONE; m + 2];
        let mut by_tin = Vec::new();
        let mut stack: Vec<(u32, bool)> = vec![(sink, false)];
        while let Some((v, done)) = stack.pop() {
            let vu = v as usize;
            if done {
                tout[vu] = by_tin.len() as u32;
                continue;
            }
            tin[vu] = by_tin.len() as u32;
            by_tin.push(v);
            stack.push((v, true));
            for &c in &ch[ch_count[vu] as usize..ch_count[vu + 1] as usize] {
                stack.push((c, false));
            }
        }
        Graph {
            fan,
            root,
            idom,
            tin,
            tout,
            by_tin,
        }
    }

    fn fanouts(&self, v: usize) -> &[u32] {
        self.fan.of(v)
    }

    /// Nodes post-dominated by `g` (including `g`).
    fn subtree(&self, g: u32) -> &[u32] {
        &self.by_tin[self.tin[g as usize] as usize..self.tout[g as usize] as usize]
    }

    fn subtree_size(&self, g: u32) -> usize {
        (self.tout[g as usize] - self.tin[g as usize]) as usize
    }
}

fn intersect(idom: &[u32], depth: &[u32], mut a: u32, mut b: u32) -> u32 {
    while a != b {
        while depth[a as usize] > depth[b as usize] {
            a = idom[a as usize];
        }
        while depth[b as usize] > depth[a as usize] {
            b = idom[b as usize];
        }
        if a != b {
            a = idom[a as usize];
            b = idom[b as usize];
        }
    }
    a
}

/// A region ready for the merge checks (see the module documentation).
#[derive(Debug)]
struct Region {
    /// And gates, topologically ordered (indices into `aig.ands`).
    gates: Vec<u32>,
    /// Output variables.
    outputs: Vec<u32>,
    /// Dominated input variables.
    dominated: Vec<u32>,
    /// Source variables (latches, other inputs, gates outside).
    sources: Vec<u32>,
}

/// The region made of the and gates among `vars`, with outputs, dominated inputs
/// and sources derived from the graph; `None` if it exceeds `width` outputs or `max_src`
/// sources. Merged inputs are constants: neither dominated nor sources.
fn region(
    aig: &Aig,
    g: &Graph,
    vars: &[u32],
    merged: &[Option<bool>],
    input_idx: &[u32],
    width: usize,
    max_src: usize,
) -> Option<Region> {
    let mut inside: HashSet<u32> = HashSet::with_capacity(vars.len());
    let mut gates = Vec::new();
    for &v in vars {
        if g.fan.and_of(v as usize) != NONE {
            inside.insert(v);
            gates.push(g.fan.and_of(v as usize));
        }
    }
    gates.sort_unstable();
    let mut outputs = Vec::new();
    let mut dominated = Vec::new();
    let mut sources = Vec::new();
    let mut seen: HashSet<u32> = HashSet::new();
    for &gi in &gates {
        let a = aig.ands[gi as usize];
        if g.root[a.var as usize]
            || g.fanouts(a.var as usize)
                .iter()
                .any(|w| !inside.contains(w))
        {
            outputs.push(a.var);
            if outputs.len() > width {
                return None;
            }
        }
        for r in [a.rhs0, a.rhs1] {
            let v = r >> 1;
            if v == 0 || inside.contains(&v) || !seen.insert(v) {
                continue;
            }
            let ii = input_idx[v as usize];
            if ii != NONE && merged[ii as usize].is_some() {
                continue;
            }
            if ii != NONE
                && !g.root[v as usize]
                && g.fanouts(v as usize).iter().all(|w| inside.contains(w))
            {
                dominated.push(v);
            } else {
                sources.push(v);
                if sources.len() > max_src {
                    return None;
                }
            }
        }
    }
    Some(Region {
        gates,
        outputs,
        dominated,
        sources,
    })
}

/// Outcome of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    Merge,
    Keep,
    Exhausted,
}

/// SAT literals of one copy of a region.
struct Copy {
    map: HashMap<u32, Lit>,
    fls: Lit,
}

impl Copy {
    fn lit(&self, l: ALit) -> Lit {
        let v = l >> 1;
        let x = if v == 0 { self.fls } else { self.map[&v] };
        if l & 1 == 1 { !x } else { x }
    }
}

fn fresh(s: &mut Solver) -> Lit {
    Lit::new(s.new_var(), false)
}

fn and_clauses(s: &mut Solver, x: Lit, b: Lit, c: Lit) {
    s.add_clause(&[!x, b]);
    s.add_clause(&[!x, c]);
    s.add_clause(&[x, !b, !c]);
}

/// What every check reads.
struct Ctx<'a> {
    aig: &'a Aig,
    /// Index in `aig.inputs` of each input variable (`NONE` otherwise).
    input_idx: Vec<u32>,
    cfg: &'a Config,
    /// Per SAT call: the conflict budget and the pass's control.
    limits: Limits,
}

/// Checks whether input `x` of `reg` can be merged to `c` (Alg. 2), with the inputs of
/// `merged` fixed; counts SAT calls in `sat_calls`.
fn try_merge(
    cx: &Ctx,
    reg: &Region,
    x: u32,
    c: bool,
    merged: &[Option<bool>],
    sat_calls: &mut usize,
) -> Check {
    let (aig, input_idx, limits) = (cx.aig, &cx.input_idx, &cx.limits);
    // Solver 1: copy A with x = ¬c, copy B with x = c; gates not depending on x shared.
    let mut s1 = Solver::new();
    let fls1 = fresh(&mut s1);
    s1.add_clause(&[!fls1]);
    let mut a = Copy {
        map: HashMap::new(),
        fls: fls1,
    };
    // Solver 2: one copy with x = c, every dominated input and source free.
    let mut s2 = Solver::new();
    let fls2 = fresh(&mut s2);
    s2.add_clause(&[!fls2]);
    let mut b2 = Copy {
        map: HashMap::new(),
        fls: fls2,
    };
    let konst = |f: Lit, v: bool| if v { !f } else { f };
    for &v in reg.sources.iter().chain(&reg.dominated) {
        if v == x {
            a.map.insert(v, konst(fls1, !c));
            b2.map.insert(v, konst(fls2, c));
        } else {
            a.map.insert(v, fresh(&mut s1));
            b2.map.insert(v, fresh(&mut s2));
        }
    }
    let mut b = Copy {
        map: a.map.clone(),
        fls: fls1,
    };
    b.map.insert(x, konst(fls1, c));
    // Merged inputs read by the region are constants in every copy.
    let mut dep: HashMap<u32, bool> = HashMap::new();
    dep.insert(x, true);
    for &gi in &reg.gates {
        let g = aig.ands[gi as usize];
        for r in [g.rhs0, g.rhs1] {
            let v = r >> 1;
            let ii = input_idx.get(v as usize).copied().unwrap_or(NONE);
            if ii != NONE
                && let Some(k) = merged[ii as usize]
            {
                a.map.insert(v, konst(fls1, k));
                b.map.insert(v, konst(fls1, k));
                b2.map.insert(v, konst(fls2, k));
            }
        }
        let d = dep.get(&(g.rhs0 >> 1)).copied().unwrap_or(false)
            || dep.get(&(g.rhs1 >> 1)).copied().unwrap_or(false);
        dep.insert(g.var, d);
        let la = fresh(&mut s1);
        and_clauses(&mut s1, la, a.lit(g.rhs0), a.lit(g.rhs1));
        a.map.insert(g.var, la);
        let lb = if d {
            let lb = fresh(&mut s1);
            and_clauses(&mut s1, lb, b.lit(g.rhs0), b.lit(g.rhs1));
            lb
        } else {
            la
        };
        b.map.insert(g.var, lb);
        let l2 = fresh(&mut s2);
        and_clauses(&mut s2, l2, b2.lit(g.rhs0), b2.lit(g.rhs1));
        b2.map.insert(g.var, l2);
    }
    // Some output differs between the copies.
    let mut differ = Vec::new();
    for &o in &reg.outputs {
        if !dep[&o] {
            continue;
        }
        let (la, lb) = (a.lit(2 * o), b.lit(2 * o));
        let e = fresh(&mut s1);
        s1.add_clause(&[!e, la, lb]);
        s1.add_clause(&[!e, !la, !lb]);
        differ.push(e);
    }
    if !s1.add_clause(&differ) {
        return Check::Merge;
    }
    // The valuation r ranges over the A outputs and the sources.
    let watched: Vec<(Lit, Lit)> = reg
        .outputs
        .iter()
        .map(|&o| (a.lit(2 * o), b2.lit(2 * o)))
        .chain(reg.sources.iter().map(|&z| (a.lit(2 * z), b2.lit(2 * z))))
        .collect();
    for _ in 0..cx.cfg.iterations {
        *sat_calls += 1;
        match s1.solve_limited(&[], &mut NoTheory, limits) {
            SolveResult::Unsat => return Check::Merge,
            SolveResult::Unknown => return Check::Exhausted,
            SolveResult::Sat => {}
        }
        let model = s1.model();
        let val = |l: Lit| model[l.var().index()] ^ l.is_neg();
        let assume: Vec<Lit> = watched
            .iter()
            .map(|&(l1, l2)| if val(l1) { l2 } else { !l2 })
            .collect();
        let block: Vec<Lit> = watched
            .iter()
            .map(|&(l1, _)| if val(l1) { !l1 } else { l1 })
            .collect();
        *sat_calls += 1;
        match s2.solve_limited(&assume, &mut NoTheory, limits) {
            SolveResult::Unsat => return Check::Keep,
            SolveResult::Unknown => return Check::Exhausted,
            SolveResult::Sat => {}
        }
        if !s1.add_clause(&block) {
            return Check::Merge;
        }
    }
    Check::Exhausted
}

/// Runs one round of the pass on `aig` (see the module documentation) under `ctl` (see
/// [`pass_control`]). Never fails: a limit only ends the round early with the merges found
/// so far.
pub fn merge_inputs(aig: &Aig, cfg: &Config, ctl: &Control) -> Merged {
    let start = Instant::now();
    let mut input_idx = vec![NONE; aig.max_var as usize + 1];
    for (i, &v) in aig.inputs.iter().enumerate() {
        input_idx[v as usize] = i as u32;
    }
    let cx = Ctx {
        aig,
        input_idx,
        cfg,
        limits: Limits {
            conflicts: Some(cfg.conflicts),
            control: ctl.clone(),
        },
    };
    let input_idx = &cx.input_idx;
    let mut out = Merged {
        consts: vec![None; aig.inputs.len()],
        rounds: 1,
        inputs: aig.inputs.len(),
        latches: aig.latches.len(),
        ands: aig.ands.len(),
        ..Merged::default()
    };
    let g = Graph::new(aig);
    let sink = aig.max_var + 1;
    // Dominator cuts: for each input, its highest dominator within the limits.
    let mut fits: HashMap<u32, bool> = HashMap::new();
    let mut cut_of: Vec<(u32, u32)> = Vec::new(); // (pre-order number, cut gate)
    let mut dom_cut = vec![NONE; aig.inputs.len()];
    for &x in &aig.inputs {
        let mut best = NONE;
        let mut d = g.idom[x as usize];
        while d != NONE && d != sink && g.subtree_size(d) <= cfg.max_region {
            let ok = *fits.entry(d).or_insert_with(|| {
                region(
                    aig,
                    &g,
                    g.subtree(d),
                    &out.consts,
                    input_idx,
                    1,
                    cfg.dom_sources,
                )
                .is_some()
            });
            if ok {
                best = d;
            }
            d = g.idom[d as usize];
        }
        if best != NONE {
            cut_of.push((g.tin[best as usize], best));
            dom_cut[input_idx[x as usize] as usize] = best;
        }
    }
    cut_of.sort_unstable();
    cut_of.dedup();
    // Inputs merged after a region was computed are encoded as constants by `try_merge`, so
    // a region stays valid for the whole pass.
    let attempt = |reg: &Region, out: &mut Merged| {
        out.regions += 1;
        for &x in &reg.dominated {
            let ii = input_idx[x as usize] as usize;
            if out.consts[ii].is_some() || ctl.should_stop().is_some() {
                continue;
            }
            for c in [false, true] {
                out.checks += 1;
                match try_merge(&cx, reg, x, c, &out.consts, &mut out.sat_calls) {
                    Check::Merge => {
                        out.consts[ii] = Some(c);
                        break;
                    }
                    Check::Keep => {}
                    Check::Exhausted => {
                        // A region that exhausts the budget is not analysed further.
                        out.exhausted += 1;
                        return;
                    }
                }
            }
        }
    };
    for &(_, cut) in &cut_of {
        if ctl.should_stop().is_some() {
            break;
        }
        let sub = g.subtree(cut);
        if let Some(reg) = region(aig, &g, sub, &out.consts, input_idx, 1, cfg.dom_sources) {
            attempt(&reg, &mut out);
        }
    }
    // Fanout regions for the inputs not merged yet: the union of the highest dominator
    // regions (within the size limit) of the input's fanout gates.
    for (ii, &x) in aig.inputs.iter().enumerate() {
        if out.consts[ii].is_some() || ctl.should_stop().is_some() {
            continue;
        }
        let mut tops: Vec<u32> = Vec::new();
        for &w in g.fanouts(x as usize) {
            if g.idom[w as usize] == NONE {
                continue; // a dead gate (reaches no root)
            }
            let mut top = w;
            let mut d = g.idom[w as usize];
            while d != sink && d != NONE && g.subtree_size(d) <= cfg.max_region {
                top = d;
                d = g.idom[d as usize];
            }
            tops.push(top);
        }
        tops.sort_unstable();
        tops.dedup();
        // One top that the dominator phase already analysed with this input: same region.
        if tops.len() == 1 && dom_cut[ii] == tops[0] {
            continue;
        }
        let mut vars: Vec<u32> = Vec::new();
        for &t in &tops {
            vars.extend_from_slice(g.subtree(t));
            if vars.len() > cfg.max_region {
                break;
            }
        }
        if vars.len() > cfg.max_region {
            continue;
        }
        vars.sort_unstable();
        vars.dedup();
        let Some(reg) = region(
            aig,
            &g,
            &vars,
            &out.consts,
            input_idx,
            cfg.cut_width,
            cfg.cut_sources,
        ) else {
            continue;
        };
        if reg.dominated.contains(&x) {
            attempt(&reg, &mut out);
        }
    }
    out.merged = out.count();
    out.time = start.elapsed();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::{EngineChoice, SolveConfig, solve};
    use crate::reduce::{Options, reduce_with};
    use crate::{Aig, Verdict, parse_aiger};

    /// The driver's verdict with engine `name` and reductions `opts`.
    fn check_opts(aig: &Aig, name: &str, opts: &Options, ctl: &Control) -> Verdict {
        let cfg = SolveConfig {
            engine: EngineChoice::parse(name).expect("an engine"),
            reduce: *opts,
            ..SolveConfig::default()
        };
        solve(aig, &cfg, ctl).verdict
    }

    fn consts(src: &str) -> Vec<Option<bool>> {
        let aig = parse_aiger(src.as_bytes()).expect("valid aag");
        merge_inputs(&aig, &Config::default(), &Control::default()).consts
    }

    /// Latch' = x ⊕ y with both inputs used nowhere else: either one may be fixed (the other
    /// still produces both values); x is tried first and goes to 0, then y must stay.
    #[test]
    fn xor_merges_one_input() {
        let src = "aag 6 2 1 0 3 1\n2\n4\n6 12\n6\n8 2 4\n10 3 5\n12 9 11\n";
        assert_eq!(consts(src), vec![Some(false), None]);
    }

    /// Latch' = x ∧ y: x = 1 keeps both values (y decides); x = 0 would lose the value 1.
    #[test]
    fn and_of_two_dominated_inputs_merges_to_one() {
        let src = "aag 4 2 1 0 1 1\n2\n4\n6 8\n6\n8 2 4\n";
        assert_eq!(consts(src), vec![Some(true), None]);
    }

    /// x ∧ l with l a latch: for l = 1 the value depends on x alone, no merge. And when x also
    /// feeds a second latch, y in x ∧ y is no longer backed by a dominated partner: no merge.
    #[test]
    fn no_merge_without_a_dominated_partner() {
        let src = "aag 3 1 1 0 1 1\n2\n4 6\n4\n6 2 4\n";
        assert_eq!(consts(src), vec![None]);
        let src = "aag 6 2 2 0 2 1\n2\n4\n6 10\n8 12\n6\n10 2 4\n12 2 8\n";
        assert_eq!(consts(src), vec![None, None]);
    }

    /// Constraint x ∨ y: x = 0 keeps both values of the constraint (y decides). z is a latch's
    /// next-state function itself: no region, no merge.
    #[test]
    fn constraint_inputs_merge() {
        let src = "aag 5 3 1 0 1 1 1\n2\n4\n6\n10 6\n10\n9\n8 3 5\n";
        assert_eq!(consts(src), vec![Some(false), None, None]);
        // End to end (the reduction may order the gate's fanins the other way, so either x or
        // y is merged to 0): the counterexample needs z = 1 and the constraint, so the other
        // one is 1 at every step.
        let aig = parse_aiger(src.as_bytes()).expect("valid aag");
        let opts = Options {
            merge_inputs: true,
            lcorr: false,
        };
        let ctl = Control::default();
        let red = reduce_with(&aig, &opts, &ctl).expect("reduced");
        assert_eq!(red.const_inputs.len(), 1);
        let (m, c) = red.const_inputs[0];
        assert!(m < 2 && !c);
        match check_opts(&aig, "ic3", &opts, &ctl) {
            Verdict::Unsafe(t) => {
                assert!(t.inputs.iter().all(|v| !v[m] && v[1 - m]));
            }
            v => panic!("expected unsafe, got {v:?}"),
        }
    }

    /// Where a two-bit counter mod 3 counts when inc = x ∧ y: x is merged to 1.
    fn counter(bad: &str) -> String {
        format!(
            "aag 14 2 2 0 10 1\n2\n4\n6 19\n8 27\n28\n10 2 4\n12 7 9\n14 10 12\n16 11 6\n\
             18 15 17\n20 6 9\n22 10 20\n24 11 8\n26 23 25\n28 {bad}\n"
        )
    }

    #[test]
    fn counter_safe_proof_checks_on_the_original() {
        let aig = parse_aiger(counter("6 8").as_bytes()).expect("valid aag");
        let ctl = Control::default();
        let opts = Options {
            merge_inputs: true,
            lcorr: false,
        };
        let red = reduce_with(&aig, &opts, &ctl).expect("reduced");
        // x or y (symmetric; the reduction may swap the gate's fanins) is merged to 1.
        assert_eq!(red.const_inputs.len(), 1);
        assert!(red.const_inputs[0].0 < 2 && red.const_inputs[0].1);
        assert_eq!(red.aig.inputs.len(), 1);
        for engine in ["ic3", "kind"] {
            assert!(matches!(
                check_opts(&aig, engine, &opts, &ctl),
                Verdict::Safe(_)
            ));
        }
    }

    /// State (c1, c0) = (1, 0) is reached after two counts: the witness must give the merged
    /// input its constant 1 (the default 0 would not count) and re-simulates on the original.
    #[test]
    fn counter_witness_prints_the_merged_constant_one() {
        let aig = parse_aiger(counter("8 7").as_bytes()).expect("valid aag");
        let ctl = Control::default();
        let opts = Options {
            merge_inputs: true,
            lcorr: false,
        };
        let red = reduce_with(&aig, &opts, &ctl).expect("reduced");
        assert_eq!(red.const_inputs.len(), 1);
        let m = red.const_inputs[0].0;
        for engine in ["ic3", "bmc"] {
            match check_opts(&aig, engine, &opts, &ctl) {
                Verdict::Unsafe(mut t) => {
                    assert!(t.inputs.iter().all(|v| v[m]));
                    assert_eq!(t.inputs.iter().filter(|v| v[1 - m]).count(), 2);
                    assert!(crate::trace_check::check_trace(&aig, &mut t).is_ok());
                }
                v => panic!("expected unsafe, got {v:?}"),
            }
        }
    }

    /// A mux latch p' = en ? d : p: en = 1 keeps every value (d = p reproduces the hold), so
    /// en is merged; the two-latch version with en and d shared needs the fanout region.
    #[test]
    fn mux_enable_merges_and_shared_enable_does_not() {
        // 8 = en ∧ d, 10 = ¬en ∧ p, p' = ¬(¬8 ∧ ¬10).
        let src = "aag 6 2 1 0 3 1\n2\n4\n6 13\n6\n8 2 4\n10 3 6\n12 9 11\n";
        assert_eq!(consts(src), vec![Some(true), None]);
        // Two latches p, q loaded from the same d under the same en: en = 1 would lose the
        // states where p ≠ q are held (sources range over all values), so nothing merges.
        // 10 = en ∧ d shared, p' = 10 ∨ (¬en ∧ p), q' = 10 ∨ (¬en ∧ q).
        let src = "aag 9 2 2 0 5 1\n2\n4\n6 15\n8 19\n6\n\
                   10 2 4\n12 3 6\n14 11 13\n16 3 8\n18 11 17\n";
        assert_eq!(consts(src), vec![None, None]);
    }

    /// p' = x ∧ y, q' = x ∧ z: no single gate dominates x, the fanout region {p', q'} does,
    /// and x = 1 keeps every pair (y and z decide).
    #[test]
    fn fanout_region_merges_a_shared_input() {
        let src = "aag 7 3 2 0 2 1\n2\n4\n6\n8 12\n10 14\n8\n12 2 4\n14 2 6\n";
        assert_eq!(consts(src), vec![Some(true), None, None]);
    }

    /// The sample designs in tests/data keep their verdicts with the pass on.
    #[test]
    fn data_files_keep_their_verdicts() {
        let ctl = Control::default();
        let opts = Options {
            merge_inputs: true,
            lcorr: false,
        };
        for (src, safe) in [
            (include_str!("../tests/data/mod6_safe.aag"), true),
            (include_str!("../tests/data/mod6_unsafe.aag"), false),
            (include_str!("../tests/data/constraint_safe.aag"), true),
            (
                include_str!("../tests/data/shift_constrained_safe.aag"),
                true,
            ),
            (include_str!("../tests/data/counter4_unsafe.aag"), false),
        ] {
            let aig = parse_aiger(src.as_bytes()).expect("valid aag");
            let v = check_opts(&aig, "ic3", &opts, &ctl);
            assert_eq!(matches!(v, Verdict::Safe(_)), safe, "{v:?}");
            assert_eq!(matches!(v, Verdict::Unsafe(_)), !safe, "{v:?}");
        }
    }
}
