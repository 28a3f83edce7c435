//! Invariants over the clauses' own terms: syntax-guided candidates filtered by Houdini.
//!
//! Model-based projection and Farkas generalization (Spacer, spacer-abs) build lemmas from
//! the linear atoms of the cubes they meet; the quotient of a `div` or `mod` becomes a fresh
//! variable that is projected away, so a lemma can never mention `(div (div x 10) 10)` even
//! when the invariant needs exactly that term. Two programs that count the digits of the same
//! number in different strides (llreve's `loop__digits10_inl`) are related only through such
//! terms: `x = y div 10` and "the counters agree while the second loop runs". z3 finds these
//! because its lemmas reuse the clauses' terms; this engine does the same, FreqHorn / ICE
//! style, with the language fixed in advance:
//!
//! - **atoms**, per predicate: every comparison in a clause constraint (also an `ite`
//!   condition inside its arithmetic) whose variables are all arguments of one predicate
//!   occurrence (body or head), read over the predicate's parameters, in both polarities and
//!   as `a <= b`, `a >= b` over its two sides; `x_i = t` for a head argument `t` that is a
//!   term over the clause's argument variables (how facts define one argument through
//!   another: `P(y div 10, y)`); and, from the values the facts determine, `x_i ⋈ v_i` and
//!   `x_i − x_j ⋈ v_i − v_j` for `⋈ ∈ {=, <=, >=}` (counters that start together), and
//!   `x_i mod k = v_i mod k`, `(x_i − x_j) mod k = (v_i − v_j) mod k` for the constant
//!   divisors `k` of the clauses' `mod`/`div` terms (counters that step together while one
//!   of them is reduced);
//! - **guards**: the atoms of the query clauses, both polarities (they split the state space
//!   where the property is decided: "loop 2 finished", "loop 1 finished");
//! - **candidates**: every atom, and `g → a` for every guard `g` and every atom or other
//!   guard `a`.
//!
//! Houdini (`houdini::houdini`, shared with spacer-abs and the bounds pass)
//! keeps the maximal inductive subset. If it excludes every query, it is the answer's
//! invariant (checked like every other answer by the driver's independent checker);
//! otherwise the engine answers unknown. Candidates come from syntax only and Houdini keeps
//! only inductive ones, so the language affects which safe systems are proved, never
//! soundness.

use crate::engine::{BuildEngine, Control, Engine, Stats};
use crate::houdini::houdini;
use crate::invariant_map::InvMap;
use crate::preprocess::bounds::initial_values;
use crate::result::{ChcResult, Invariants, UnknownReason};
use crate::system::{ChcSystem, PredApp};
use cove_logic::{
    FuncId, Op, Rational, Sort, TermId, TermStore, Value, VarId, free_vars, substitute,
};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::{FxHashMap, FxHashSet};

/// Predicates with more arguments than this get no candidates.
const MAX_ARITY: usize = 16;
/// At most this many atoms per predicate (before the guards multiply them).
const MAX_ATOMS: usize = 160;
/// At most this many guards per predicate.
const MAX_GUARDS: usize = 12;
/// At most this many divisors give congruence candidates.
const MAX_MODULI: usize = 3;
/// At most this many congruence atoms per predicate.
const MAX_CONGRUENCES: usize = 48;
/// At most this many fact clauses are asked for initial values.
const MAX_FACTS: usize = 16;
/// A parameter compared by equation with at least this many constants is a location.
const MIN_LOCATIONS: usize = 3;
/// At most this many location-guarded candidates per predicate.
const MAX_LOCATION_CANDIDATES: usize = 6000;
/// At most this many clauses: Houdini checks every clause per round.
const MAX_CLAUSES: usize = 200;

/// Options of the Houdini over the clauses' terms: which candidate rounds run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermsConfig {
    /// The atoms guarded by the queries' atoms, then with the congruences.
    pub base: bool,
    /// The atoms guarded by the values of location-like parameters (many more candidates).
    pub locations: bool,
}

impl Default for TermsConfig {
    fn default() -> TermsConfig {
        TermsConfig {
            base: true,
            locations: true,
        }
    }
}

impl TermsConfig {
    /// The base rounds only (the portfolio's short first entry).
    pub fn without_locations() -> TermsConfig {
        TermsConfig {
            base: true,
            locations: false,
        }
    }
}

impl BuildEngine for TermsConfig {
    const NAME: &'static str = "terms";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(TermHoudini {
            config: self.clone(),
            stats: Stats::default(),
        })
    }
}

/// The engine (`--engine terms`).
#[derive(Default)]
pub struct TermHoudini {
    config: TermsConfig,
    stats: Stats,
}

impl Engine for TermHoudini {
    fn name(&self) -> &'static str {
        TermsConfig::NAME
    }

    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult {
        if let Some(why) = crate::system::unsupported_feature(sys, store) {
            return ChcResult::Unknown(UnknownReason::Unsupported(why));
        }
        if sys.clauses.len() > MAX_CLAUSES {
            return ChcResult::Unknown(UnknownReason::Incomplete("terms: too many clauses".into()));
        }
        self.stats.clear();
        // Congruence candidates (`mod` terms) make every Houdini check harder for the
        // solver, so they come in a second round, only when the first one fails; the second
        // round starts again from the whole language, since the candidates the first one
        // dropped may be inductive relative to a congruence.
        // A third round guards the atoms by the values of location-like parameters (see
        // [`location_guards`]): the invariants of programs with a program counter (threads
        // of a thread-modular encoding, `pc = 7 → x ≠ 0`), many more candidates, so last.
        let base = InvMap::new(store, sys);
        let lang = language(store, sys, &base.params, ctl, Shapes::Candidates);
        for round in [Round::Base, Round::Congruences, Round::Locations] {
            let run = match round {
                Round::Base | Round::Congruences => self.config.base,
                Round::Locations => self.config.locations,
            };
            if !run {
                continue;
            }
            let mut map = base.clone();
            let added = fill(store, &lang, &mut map, round);
            if round != Round::Base && added == 0 {
                continue;
            }
            // A predicate without arguments (an error location, `CHC_COMP_FALSE`, whose
            // query is `CHC_COMP_FALSE → false`) has one candidate: that it never holds.
            for &p in &sys.preds {
                if map.params[&p].is_empty() {
                    let f = store.mk_false();
                    map.sets.insert(p, vec![f]);
                }
            }
            match self.round(store, sys, map, ctl) {
                Ok(Some(inv)) => return ChcResult::Sat(inv),
                Ok(None) => {}
                Err(r) => return ChcResult::Unknown(r),
            }
        }
        ChcResult::Unknown(UnknownReason::Incomplete(
            "terms: the inductive candidates do not exclude the queries".into(),
        ))
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

impl TermHoudini {
    /// Houdini on the candidates in `map`: the invariants if their inductive subset excludes
    /// the queries.
    fn round(
        &mut self,
        store: &mut TermStore,
        sys: &ChcSystem,
        mut map: InvMap,
        ctl: &Control,
    ) -> Result<Option<Invariants>, UnknownReason> {
        let start = map.size();
        self.stats
            .push(("terms-candidates".into(), start.to_string()));
        if start == 0 {
            return Ok(None);
        }
        if ctl.verbosity > 2 {
            eprintln!("{}", sys.to_smtlib(store));
            for set in map.sets.values() {
                for &f in set {
                    eprintln!("terms: candidate {}", store.display(f));
                }
            }
        }
        houdini(store, sys, &mut map, ctl)?;
        if ctl.verbosity > 1 {
            for set in map.sets.values() {
                for &f in set {
                    eprintln!("terms: inductive {}", store.display(f));
                }
            }
        }
        self.stats
            .push(("terms-inductive".into(), map.size().to_string()));
        if ctl.verbosity > 0 {
            eprintln!("terms: {} of {start} candidates inductive", map.size());
        }
        Ok(excludes_queries(store, sys, &map, ctl)?.then(|| map.invariants(store)))
    }
}

/// True if no query clause is satisfiable under `map`.
pub(crate) fn excludes_queries(
    store: &mut TermStore,
    sys: &ChcSystem,
    map: &InvMap,
    ctl: &Control,
) -> Result<bool, UnknownReason> {
    for c in sys.clauses.iter().filter(|c| c.head.is_none()) {
        let mut s = SmtSolver::new();
        s.set_limits(cove_smt::Limits::of(ctl));
        s.assert(store, c.constraint);
        for b in &c.body {
            let t = map.apply(store, b.pred, &b.args);
            s.assert(store, t);
        }
        match s.check(store) {
            SmtResult::Unsat => {}
            SmtResult::Sat => return Ok(false),
            r => {
                return Err(ctl
                    .should_stop()
                    .unwrap_or_else(|| UnknownReason::Incomplete(format!("terms: SMT {r:?}"))));
            }
        }
    }
    Ok(true)
}

/// The comparisons (arithmetic `<=, <, >=, >, =, distinct`) in `t`: in its Boolean
/// structure and in the conditions of `ite` terms inside its arithmetic (`D = ite(4 <= B,
/// B mod 4, B + 1)` contributes `4 <= B`, the case split of the loop body, even though the
/// equation itself mentions the successor `D`).
pub(crate) fn comparisons(store: &TermStore, t: TermId, out: &mut Vec<TermId>) {
    let mut stack = vec![t];
    let mut seen = FxHashSet::default();
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        let args = store.args(t);
        match store.op(t) {
            Op::Le | Op::Lt | Op::Ge | Op::Gt => out.push(t),
            Op::Eq | Op::Distinct if store.sort(args[0]).is_arith() => out.push(t),
            Op::Not | Op::And | Op::Or | Op::Implies | Op::Xor | Op::Eq | Op::Ite => {}
            _ if store.sort(t).is_arith() => {}
            _ => continue,
        }
        // Reversed, so that the atoms come out in the order they are written.
        stack.extend(args.iter().rev().copied())
    }
}

/// The closed comparisons `a <= b` and `a >= b` over the two sides of a comparison `t`
/// (none for `distinct` with more than two sides). A bound the program tests is often the
/// bound it keeps in the other direction: a loop that runs while `B < 4` and steps by one
/// keeps `B <= 4`, which neither `4 <= B` nor its negation states.
fn closed_sides(store: &mut TermStore, t: TermId, out: &mut Vec<TermId>) {
    let args = store.args(t).to_vec();
    if args.len() == 2
        && matches!(
            store.op(t),
            Op::Le | Op::Lt | Op::Ge | Op::Gt | Op::Eq | Op::Distinct
        )
    {
        let le = store.mk_le(args[0], args[1]);
        let ge = store.mk_ge(args[0], args[1]);
        out.extend([le, ge]);
    }
}

/// The constant divisors `k >= 2` of the `mod` and `div` terms of `t` (into `out`, without
/// repetition).
fn moduli(store: &TermStore, t: TermId, seen: &mut FxHashSet<TermId>, out: &mut Vec<Rational>) {
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        if !seen.insert(t) {
            continue;
        }
        let args = store.args(t);
        if matches!(store.op(t), Op::Mod | Op::IntDiv)
            && let Some(k) = store.as_num(args[1]).map(Rational::abs)
            && k.is_integer()
            && k > Rational::from(1)
            && !out.contains(&k)
        {
            out.push(k);
        }
        stack.extend(args.iter().copied());
    }
}

/// The predicate's parameters for the argument variables of `app` (an argument that is not a
/// variable, or a variable given twice, is skipped).
fn arg_map(store: &mut TermStore, app: &PredApp, params: &[VarId]) -> FxHashMap<VarId, TermId> {
    let mut m = FxHashMap::default();
    let mut twice = FxHashSet::default();
    for (a, &p) in app.args.iter().zip(params) {
        if let Some(v) = store.as_var(*a) {
            let pt = store.mk_var(p);
            if m.insert(v, pt).is_some() {
                twice.insert(v);
            }
        }
    }
    for v in twice {
        m.remove(&v);
    }
    m
}

/// `t` over `app`'s parameters, if every variable of `t` is an argument variable of `app`
/// and `t` has at least one.
fn over_params(store: &mut TermStore, t: TermId, m: &FxHashMap<VarId, TermId>) -> Option<TermId> {
    let vs = free_vars(store, t);
    (!vs.is_empty() && vs.iter().all(|v| m.contains_key(v))).then(|| substitute(store, t, m))
}

/// Per predicate: its atoms, guards and congruence atoms (see the module doc).
#[derive(Default)]
struct Lang {
    atoms: Vec<TermId>,
    guards: Vec<TermId>,
    congruences: Vec<TermId>,
}

fn push_both(store: &mut TermStore, out: &mut Vec<TermId>, t: TermId) {
    let n = store.mk_not(t);
    out.extend([t, n]);
}

/// The language of every predicate of arity at most [`MAX_ARITY`] (`params`: each
/// predicate's parameters), deduplicated and within the budgets.
fn language(
    store: &mut TermStore,
    sys: &ChcSystem,
    params: &FxHashMap<FuncId, Vec<VarId>>,
    ctl: &Control,
    shape: Shapes,
) -> FxHashMap<FuncId, Lang> {
    let mut lang: FxHashMap<FuncId, Lang> = FxHashMap::default();
    for c in &sys.clauses {
        let mut occs: Vec<&PredApp> = c.body.iter().collect();
        occs.extend(c.head.as_ref());
        let mut cmps = Vec::new();
        comparisons(store, c.constraint, &mut cmps);
        for app in occs {
            let params = params[&app.pred].clone();
            if params.len() > MAX_ARITY {
                continue;
            }
            let m = arg_map(store, app, &params);
            let l = lang.entry(app.pred).or_default();
            for &a in &cmps {
                if let Some(t) = over_params(store, a, &m) {
                    if c.head.is_none() {
                        push_both(store, &mut l.guards, t);
                    } else {
                        push_both(store, &mut l.atoms, t);
                        if shape == Shapes::Candidates {
                            closed_sides(store, t, &mut l.atoms);
                        }
                    }
                }
            }
            // An argument given as a term (or a constant) over the occurrence's argument
            // variables: `P(y div 10, y)` says `x_0 = x_1 div 10`, a query `P(x, 0)` that
            // the property is decided where `x_1 = 0`.
            for (a, &p) in app.args.iter().zip(&params) {
                if store.as_var(*a).is_some() || !store.sort(*a).is_arith() {
                    continue;
                }
                let vs = free_vars(store, *a);
                if vs.iter().all(|v| m.contains_key(v)) {
                    let t = substitute(store, *a, &m);
                    let x = store.mk_var(p);
                    let eq = store.mk_eq(x, t);
                    if c.head.is_none() {
                        push_both(store, &mut l.guards, eq);
                    } else {
                        push_both(store, &mut l.atoms, eq);
                    }
                }
            }
            // One variable given for two arguments: `P(a, v, v)` says `x_1 = x_2` where
            // the clause applies (a thread reading a shared variable into its local).
            for i in 0..app.args.len() {
                for j in i + 1..app.args.len() {
                    if app.args[i] == app.args[j]
                        && store.as_var(app.args[i]).is_some()
                        && store.sort(app.args[i]).is_arith()
                    {
                        let xi = store.mk_var(params[i]);
                        let xj = store.mk_var(params[j]);
                        let eq = store.mk_eq(xi, xj);
                        if c.head.is_none() {
                            push_both(store, &mut l.guards, eq);
                        } else {
                            push_both(store, &mut l.atoms, eq);
                        }
                    }
                }
            }
        }
    }
    // The divisors the clauses compute with, for congruences.
    let mut ks = Vec::new();
    let mut seen = FxHashSet::default();
    for c in &sys.clauses {
        moduli(store, c.constraint, &mut seen, &mut ks);
        for app in c.body.iter().chain(c.head.as_ref()) {
            for &a in &app.args {
                moduli(store, a, &mut seen, &mut ks);
            }
        }
    }
    ks.truncate(MAX_MODULI);
    // Bounds, differences and congruences at the values the facts determine.
    let init = match shape {
        Shapes::Candidates => initial_values(store, sys, MAX_FACTS, ctl),
        Shapes::Predicates => FxHashMap::default(),
    };
    for (&p, states) in &init {
        let params = params[&p].clone();
        if params.len() > MAX_ARITY {
            continue;
        }
        let l = lang.entry(p).or_default();
        for s in states {
            let vals: Vec<(TermId, cove_logic::Rational)> = params
                .iter()
                .zip(s)
                .filter_map(|(&x, v)| match v {
                    Some(Value::Num(r)) if store.var_sort(x) == Sort::Int => {
                        Some((store.mk_var(x), r.clone()))
                    }
                    _ => None,
                })
                .collect();
            for (i, (x, vx)) in vals.iter().enumerate() {
                let k = store.mk_num(vx.clone(), Sort::Int);
                let le = store.mk_le(*x, k);
                let ge = store.mk_ge(*x, k);
                l.atoms.extend([le, ge]);
                for (y, vy) in &vals[i + 1..] {
                    let d = store.mk_sub(*x, *y);
                    let mut dv = vx.clone();
                    dv -= vy;
                    let k = store.mk_num(dv.clone(), Sort::Int);
                    let eq = store.mk_eq(d, k);
                    let le = store.mk_le(d, k);
                    let ge = store.mk_ge(d, k);
                    l.atoms.extend([eq, le, ge]);
                    congruences(store, d, &dv, &ks, &mut l.congruences);
                }
                congruences(store, *x, vx, &ks, &mut l.congruences);
            }
        }
    }
    for l in lang.values_mut() {
        dedup(&mut l.atoms);
        dedup(&mut l.guards);
        dedup(&mut l.congruences);
        l.atoms.truncate(MAX_ATOMS);
        l.guards.truncate(MAX_GUARDS);
        l.congruences.truncate(MAX_CONGRUENCES);
    }
    // Closed under the clauses that only permute a predicate's arguments (`P(x, y, z) →
    // P(x, z, y)`: the symmetry of a thread-modular encoding, which swaps the threads'
    // slots): a candidate is inductive only together with its permuted copies. (After the
    // budgets: the copies of the atoms kept.)
    for (p, perm) in permutations(store, sys) {
        let Some(l) = lang.get_mut(&p) else { continue };
        let ps = &params[&p];
        let m: FxHashMap<VarId, TermId> = perm
            .iter()
            .enumerate()
            .map(|(i, &j)| (ps[i], store.mk_var(ps[j])))
            .collect();
        for list in [&mut l.atoms, &mut l.guards] {
            let n = list.len();
            for k in 0..n {
                let t = substitute(store, list[k], &m);
                list.push(t);
            }
            dedup(list);
        }
    }
    lang
}

/// Per predicate, the positive atoms of its `terms` language (atoms and guards, each once,
/// `not` and two-sided `distinct` read as the comparison they negate): the predicates of
/// [`crate::engines::predabs`], which combines them by any Boolean structure instead of
/// the fixed candidate shapes of this engine.
pub(crate) fn positive_atoms(
    store: &mut TermStore,
    sys: &ChcSystem,
    params: &FxHashMap<FuncId, Vec<VarId>>,
    ctl: &Control,
) -> FxHashMap<FuncId, Vec<TermId>> {
    let lang = language(store, sys, params, ctl, Shapes::Predicates);
    let mut out = FxHashMap::default();
    for (p, l) in lang {
        let mut atoms = Vec::new();
        for &a in l.guards.iter().chain(&l.atoms) {
            let t = orient(store, a);
            if store.as_bool(t).is_none() {
                atoms.push(t);
            }
        }
        dedup(&mut atoms);
        out.insert(p, atoms);
    }
    out
}

/// What [`language`] is for: the candidates of this engine, or the predicates of
/// [`crate::engines::predabs`], whose abstract domain grows exponentially with them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Shapes {
    /// Every atom, with the closed sides of comparisons and the facts' values.
    Candidates,
    /// The clauses' comparisons and argument equations only.
    Predicates,
}

/// The candidate rounds of the engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Round {
    /// Atoms, and atoms guarded by the queries' atoms.
    Base,
    /// The base candidates with the congruence atoms.
    Congruences,
    /// The base candidates and the atoms guarded by location values.
    Locations,
}

/// Per predicate, the argument permutations of the clauses `P(x̄) ∧ φ → P(x̄ ∘ π)` whose
/// head's arguments are the body's argument variables in another order: `perm[i] = j` when
/// the head's `i`-th argument is the body's `j`-th.
pub(crate) fn permutations(store: &TermStore, sys: &ChcSystem) -> Vec<(FuncId, Vec<usize>)> {
    let mut out: Vec<(FuncId, Vec<usize>)> = Vec::new();
    for c in &sys.clauses {
        let (Some(h), [b]) = (&c.head, c.body.as_slice()) else {
            continue;
        };
        if h.pred != b.pred || h.args == b.args {
            continue;
        }
        let mut perm = Vec::with_capacity(h.args.len());
        for a in &h.args {
            match b.args.iter().position(|x| x == a) {
                Some(j) if store.as_var(*a).is_some() && !perm.contains(&j) => perm.push(j),
                _ => break,
            }
        }
        let distinct = {
            let mut seen = FxHashSet::default();
            b.args.iter().all(|a| seen.insert(*a))
        };
        if perm.len() == h.args.len() && distinct && !out.contains(&(h.pred, perm.clone())) {
            out.push((h.pred, perm));
        }
    }
    out
}

/// Fills `map` with the candidates of `lang` for `round`; returns how many candidates the
/// round adds to the base round's (congruence atoms, location-guarded atoms).
fn fill(
    store: &mut TermStore,
    lang: &FxHashMap<FuncId, Lang>,
    map: &mut InvMap,
    round: Round,
) -> usize {
    let mut added = 0;
    for (&p, l) in lang {
        let mut atoms = l.atoms.clone();
        if round == Round::Congruences {
            added += l.congruences.len();
            atoms.extend(&l.congruences);
        }
        let mut set = atoms.clone();
        // Guards are consequents too: `g → h` for two query atoms is the property itself
        // when the query is `g ∧ ¬h`, which is often the invariant's last conjunct.
        let consequents: Vec<TermId> = atoms.iter().chain(&l.guards).copied().collect();
        for &g in &l.guards {
            let not_g = store.mk_not(g);
            for &a in &consequents {
                if a != g && a != not_g {
                    set.push(store.mk_implies(g, a));
                }
            }
        }
        if round == Round::Locations {
            let before = set.len();
            for (x, g) in location_guards(store, &l.atoms) {
                for &a in &consequents {
                    if set.len() - before >= MAX_LOCATION_CANDIDATES {
                        break;
                    }
                    if !free_vars(store, a).contains(&x) {
                        set.push(store.mk_implies(g, a));
                    }
                }
            }
            added += set.len() - before;
        }
        dedup(&mut set);
        set.retain(|&f| store.as_bool(f).is_none());
        if !set.is_empty() {
            map.sets.insert(p, set);
        }
    }
    added
}

/// The equations `x = k` among `atoms` of the parameters `x` that are compared by equation
/// with at least [`MIN_LOCATIONS`] constants: program counters, whose values select what
/// holds of the other variables (`pc = 7 → x ≠ 0`, `pc₁ = 3 → pc₂ ≠ 5` between threads).
fn location_guards(store: &TermStore, atoms: &[TermId]) -> Vec<(VarId, TermId)> {
    let mut by_var: Vec<(VarId, Vec<TermId>)> = Vec::new();
    for &a in atoms {
        if !matches!(store.op(a), Op::Eq) {
            continue;
        }
        let args = store.args(a);
        if args.len() != 2 {
            continue;
        }
        let x = match (store.as_var(args[0]), store.as_var(args[1])) {
            (Some(x), None) if store.as_num(args[1]).is_some() => x,
            (None, Some(x)) if store.as_num(args[0]).is_some() => x,
            _ => continue,
        };
        match by_var.iter_mut().find(|(y, _)| *y == x) {
            Some((_, eqs)) => eqs.push(a),
            None => by_var.push((x, vec![a])),
        }
    }
    by_var
        .into_iter()
        .filter(|(_, eqs)| eqs.len() >= MIN_LOCATIONS)
        .flat_map(|(x, eqs)| eqs.into_iter().map(move |g| (x, g)))
        .collect()
}

/// `t mod k = v mod k` for each divisor `k`: the residue `t` has at the facts' value `v`.
/// Loops that step two counters by the same amount and reduce one of them (`a := (a + 1)
/// mod 5`, `b := b + 1`) keep the counters congruent although no linear relation holds.
fn congruences(
    store: &mut TermStore,
    t: TermId,
    v: &Rational,
    ks: &[Rational],
    out: &mut Vec<TermId>,
) {
    for k in ks {
        let kt = store.mk_num(k.clone(), Sort::Int);
        let m = store.mk_raw(Op::Mod, &[t, kt], Sort::Int);
        let r = store.mk_num(v.int_mod(k), Sort::Int);
        out.push(store.mk_eq(m, r));
    }
}

/// Removes repeated entries, keeping the first occurrence.
fn dedup(v: &mut Vec<TermId>) {
    let mut seen = FxHashSet::default();
    v.retain(|t| seen.insert(*t));
}

/// An atom read positively, with equations in one orientation (`x = 0`, never also
/// `0 = x`): the predicate that a comparison and its negation both give.
pub(crate) fn orient(store: &mut TermStore, a: TermId) -> TermId {
    let mut t = a;
    if matches!(store.op(t), Op::Not) {
        t = store.args(t)[0];
    }
    if matches!(store.op(t), Op::Distinct | Op::Eq) && store.args(t).len() == 2 {
        let (mut x, mut y) = (store.args(t)[0], store.args(t)[1]);
        if store.as_num(x).is_some() || (store.as_num(y).is_none() && x > y) {
            std::mem::swap(&mut x, &mut y);
        }
        t = store.mk_eq(x, y);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn solve(src: &str) -> ChcResult {
        let mut store = TermStore::new();
        let sys = crate::frontend::parse_chc(src.as_bytes(), &mut store).expect("parses");
        let ctl = Control {
            deadline: Some(Instant::now() + Duration::from_secs(20)),
            ..Default::default()
        };
        let r = TermHoudini::default().solve(&mut store, &sys, &ctl);
        if let ChcResult::Sat(inv) = &r {
            crate::cert::check_invariants(&mut store, &sys, inv, &ctl).expect("valid invariants");
        }
        r
    }

    /// `x` follows `y div 10` from the fact `P(y div 10, y)`: the invariant `x = y div 10`
    /// exists only as a term of the clauses.
    const SHIFT: &str = "(set-logic HORN)(declare-fun P (Int Int) Bool)
        (assert (forall ((y Int)) (=> (>= y 0) (P (div y 10) y))))
        (assert (forall ((x Int) (y Int))
          (=> (and (P x y) (>= y 10)) (P (div x 10) (div y 10)))))";

    #[test]
    fn proves_a_relation_stated_by_a_fact_s_div_term() {
        let src = format!(
            "{SHIFT}(assert (forall ((x Int) (y Int)) (=> (and (P x y) (< y 10) (> x 0)) false)))"
        );
        assert!(matches!(solve(&src), ChcResult::Sat(_)));
    }

    #[test]
    fn never_proves_an_unsafe_system() {
        // (x, y) = (1, 10) is reachable.
        let src =
            format!("{SHIFT}(assert (forall ((x Int) (y Int)) (=> (and (P x y) (>= x 1)) false)))");
        assert!(!matches!(solve(&src), ChcResult::Sat(_)));
    }

    /// Two phases: while `f` is set, `x` and `y` shrink together; then `f` drops. The proof
    /// needs the guarded `f = 0 → y <= 9` (a query atom guarding a clause atom) and the
    /// unguarded `x = y div 10`.
    const PHASES: &str = "(set-logic HORN)(declare-fun Q (Int Int Int) Bool)
        (assert (forall ((y Int)) (Q (div y 10) y 1)))
        (assert (forall ((x Int) (y Int) (f Int))
          (=> (and (Q x y f) (not (= f 0)) (>= y 10)) (Q (div x 10) (div y 10) f))))
        (assert (forall ((x Int) (y Int) (f Int))
          (=> (and (Q x y f) (not (= f 0)) (<= y 9)) (Q x y 0))))";

    #[test]
    fn proves_with_a_guard_from_the_query() {
        let src = format!(
            "{PHASES}(assert (forall ((x Int) (y Int)) (=> (and (Q x y 0) (> x 0)) false)))"
        );
        assert!(matches!(solve(&src), ChcResult::Sat(_)));
    }

    /// `a` counts modulo 3, `b` counts up from -30 and wraps at 2 (`ite(b >= 2, R, b + 1)`).
    /// Safe with `R = 0`: the proof needs the congruence `(a - b) mod 3 = 0`, the bound
    /// `b <= 2` (the ite condition read in the other direction) and `b >= 0 → a = b`.
    fn wrap(r: i64) -> String {
        format!(
            "(set-logic HORN)(declare-fun P (Int Int) Bool)
            (assert (forall ((a Int) (b Int)) (=> (and (= a 0) (= b (- 30))) (P a b))))
            (assert (forall ((a Int) (b Int) (c Int) (d Int))
              (=> (and (P a b) (= c (mod (+ a 1) 3)) (= d (ite (>= b 2) {r} (+ b 1)))) (P c d))))
            (assert (forall ((a Int) (b Int)) (=> (and (P a b) (>= b 0) (not (= a b))) false)))"
        )
    }

    #[test]
    fn proves_a_congruence_with_a_bound_from_an_ite_condition() {
        assert!(matches!(solve(&wrap(0)), ChcResult::Sat(_)));
    }

    #[test]
    fn congruence_candidates_do_not_prove_an_unsafe_wrap() {
        // Wrapping to 1 after (2, 2) reaches (0, 1).
        assert!(!matches!(solve(&wrap(1)), ChcResult::Sat(_)));
    }

    /// Two threads of a lock protocol in the thread-modular style: `Inv(lock, pc₁, pc₂)`,
    /// only the first slot steps (acquire at 0 if the lock is free, 1 → 2, release at 2),
    /// a clause swaps the slots, and the error location is a predicate without arguments.
    /// With `check_lock` false the acquire ignores the lock and both threads reach 1.
    fn mutex(check_lock: bool) -> String {
        let free = if check_lock { "0" } else { "l" };
        format!(
            "(set-logic HORN)(declare-fun Inv (Int Int Int) Bool)(declare-fun Err () Bool)
            (assert (Inv 0 0 0))
            (assert (forall ((l Int) (q Int)) (=> (Inv {free} 0 q) (Inv 1 1 q))))
            (assert (forall ((l Int) (q Int)) (=> (Inv l 1 q) (Inv l 2 q))))
            (assert (forall ((l Int) (q Int)) (=> (Inv l 2 q) (Inv 0 0 q))))
            (assert (forall ((l Int) (p Int) (q Int)) (=> (Inv l p q) (Inv l q p))))
            (assert (forall ((l Int)) (=> (Inv l 1 1) Err)))
            (assert (=> Err false))"
        )
    }

    fn solve_budgeted(src: &str, config: TermsConfig) -> ChcResult {
        let mut store = TermStore::new();
        let sys = crate::frontend::parse_chc(src.as_bytes(), &mut store).expect("parses");
        let ctl = Control::default().with_work_budget(20_000_000);
        let r = config.create().solve(&mut store, &sys, &ctl);
        if let ChcResult::Sat(inv) = &r {
            crate::cert::check_invariants(&mut store, &sys, inv, &ctl).expect("valid invariants");
        }
        r
    }

    #[test]
    fn location_guards_prove_a_thread_modular_mutex() {
        let only_locations = TermsConfig {
            base: false,
            locations: true,
        };
        assert!(matches!(
            solve_budgeted(&mutex(true), only_locations),
            ChcResult::Sat(_)
        ));
    }

    #[test]
    fn location_guards_never_prove_a_mutex_without_the_lock() {
        assert!(!matches!(
            solve_budgeted(&mutex(false), TermsConfig::default()),
            ChcResult::Sat(_)
        ));
    }

    #[test]
    fn guarded_candidates_do_not_prove_a_reachable_state() {
        // y = 5, f = 0, x = 0 is reachable.
        let src = format!(
            "{PHASES}(assert (forall ((x Int) (y Int)) (=> (and (Q x y 0) (>= y 5)) false)))"
        );
        assert!(!matches!(solve(&src), ChcResult::Sat(_)));
    }
}
