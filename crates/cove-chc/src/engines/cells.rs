//! Quantified invariants over arrays by cell abstraction: Spacer on the system where every
//! array argument is seen through one distinguished cell (Monniaux and Gonnord, *Cell
//! morphing*, SAS 2016; Braine, Gonnord and Monniaux, *Data abstraction*, 2021).
//!
//! Every predicate `P(ā, x̄)` whose arguments `ā` are arrays of scalars becomes
//! `P#(k̄, ā[k], x̄)`: one index `k_s` per index sort `s` of its arrays, then each array's
//! cell at its sort's index in place of the array; an invariant `I#` of the abstract system
//! gives `P(ā, x̄) := ∀k̄. I#(k̄, ā[k], x̄)`. A clause `B(b̄) ∧ φ → H(h̄)` becomes
//! `⋀_{t̄ ∈ T} B#(t̄, b̄[t], …) ∧ φ → H#(k̄, h̄[k], …)` for a fresh `k̄`: the body is
//! instantiated at the cells the clause can know of (the head's `k̄`, the indices `φ`
//! reads, the witnesses below; at most four of them), which the body's
//! universal invariants allow, and the head holds at every cell because `k̄` is arbitrary.
//! So `sat` carries over, and the certificate checker confirms it like every answer (it
//! instantiates the body's quantifiers at the clause's indices, `cert_quantifiers`).
//! `unsat` of the abstraction says nothing (its counterexample may pick different cells at
//! different steps), and this engine never answers it.
//!
//! A predicate defined by facts alone (a function's summary, which the preprocessing has
//! inlined down to its paths) gets a *witness* cell as well: `∃j̄ ∀k̄. I#(j̄, k̄, ā[j],
//! ā[k], x̄)`. The path that fails reads the array at an index it picks (`arr[i] ≠ 42`),
//! which becomes the witness; every cell `k̄` still carries the frame (the post-state equals
//! the pre-state), which a witness alone would lose.
//!
//! # Why
//! Solidity contracts keep state in arrays and mappings whose safety needs a statement
//! about every cell: after `arr.push(42)` only, `∀i < arr.length. arr[i] = 42`; a mapping
//! written only as `m[t] = S(t, 0)` satisfies `∀t. m[t].a = t ∨ m[t].a = 0`. No
//! quantifier-free invariant over the arrays says that, and Spacer over the arrays runs to
//! the limit; over the cells it is a small arithmetic invariant (z3 finds these with its
//! quantified generalization, solc's `fp.spacer.q3.use_qgen`).

use crate::engine::{BuildEngine, Control, Engine, Stats};
use crate::engines::spacer::{Spacer, SpacerConfig};
use crate::result::{ChcResult, Invariants, UnknownReason};
use crate::system::{ChcSystem, Clause, PredApp};
use cove_logic::{FuncId, FuncInterp, Sort, TermId, TermStore, VarId, substitute};
use rustc_hash::FxHashMap;

/// Options of the cell abstraction.
#[derive(Clone, Debug)]
pub struct CellsConfig {
    /// The engine run on the abstract system.
    pub spacer: SpacerConfig,
    /// Work units (conflicts, theory checks, …; see `cove_control::WorkBudget`) the inner
    /// Spacer may spend: the abstraction either has a small invariant, found with little
    /// search, or its run is spurious counterexamples and slow queries over the arrays it
    /// leaves whole. Bounded by work, its effort is the same under any limit.
    pub work: u64,
}

impl Default for CellsConfig {
    fn default() -> CellsConfig {
        CellsConfig {
            spacer: SpacerConfig::default(),
            work: WORK,
        }
    }
}

/// The default of [`CellsConfig::work`].
const WORK: u64 = 20_000;

impl BuildEngine for CellsConfig {
    const NAME: &'static str = "spacer-cells";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(Cells {
            cfg: self.clone(),
            stats: Vec::new(),
        })
    }
}

/// Spacer over the cell abstraction.
pub struct Cells {
    cfg: CellsConfig,
    stats: Stats,
}

/// How one predicate is abstracted.
struct Abstracted {
    /// The abstract predicate.
    pred: FuncId,
    /// The index sorts of its arrays, in order.
    sorts: Vec<Sort>,
    /// Also seen through a witness cell `j̄` (`∃j̄ ∀k̄`): predicates defined by facts only (a
    /// function's summary, whose derivation reads at an index it picks), whose every cell
    /// (`k̄`) still carries the frame (the post-state equal to the pre-state).
    witness: bool,
}

impl Abstracted {
    /// The number of index parameters (`j̄` then `k̄`).
    fn n_index(&self) -> usize {
        self.sorts.len() * if self.witness { 2 } else { 1 }
    }
}

/// Whether an argument of sort `s` is seen through a cell: an array of scalars.
fn is_cell_array(s: Sort) -> bool {
    s.is_array()
        && !s.index_sort().expect("array").is_array()
        && !s.elem_sort().expect("array").is_array()
}

/// At most this many instances of one body atom, or heads of one clause.
const MAX_CELLS: usize = 4;

/// The abstract system, and per abstracted predicate how it was abstracted. `None` when no
/// predicate has an array of scalars, or a clause writes an array of arrays.
fn abstract_system(
    store: &mut TermStore,
    sys: &ChcSystem,
) -> Option<(ChcSystem, FxHashMap<FuncId, Abstracted>)> {
    let mut map: FxHashMap<FuncId, Abstracted> = FxHashMap::default();
    let mut preds = Vec::with_capacity(sys.preds.len());
    for &p in &sys.preds {
        let args: Vec<Sort> = store.func(p).args.to_vec();
        let mut sorts: Vec<Sort> = args
            .iter()
            .filter(|s| is_cell_array(**s))
            .map(|s| s.index_sort().expect("array"))
            .collect();
        if sorts.is_empty() {
            preds.push(p);
            continue;
        }
        sorts.sort();
        sorts.dedup();
        let witness = sys
            .clauses
            .iter()
            .filter(|c| c.head.as_ref().is_some_and(|h| h.pred == p))
            .all(|c| c.body.is_empty());
        let copies = if witness { 2 } else { 1 };
        let mut sig: Vec<Sort> = Vec::new();
        for _ in 0..copies {
            sig.extend_from_slice(&sorts);
        }
        for &s in &args {
            if is_cell_array(s) {
                for _ in 0..copies {
                    sig.push(s.elem_sort().expect("array"));
                }
            } else {
                sig.push(s);
            }
        }
        let name = format!("{}#cell", store.func(p).name);
        let mut name_k = name.clone();
        let mut n = 0;
        let q = loop {
            match store.declare_func(&name_k, &sig, Sort::Bool) {
                Ok(q) => break q,
                Err(_) => {
                    n += 1;
                    name_k = format!("{name}{n}");
                }
            }
        };
        preds.push(q);
        map.insert(
            p,
            Abstracted {
                pred: q,
                sorts,
                witness,
            },
        );
    }
    // Arrays of arrays stay whole in the abstraction: written by a clause, they make the
    // abstract queries as hard as the original ones (an array of records, flattened: Spacer
    // spent seconds per query at its first bound and found nothing), which the portfolio's
    // Spacer already solves. Only passed along (Solidity's cryptographic functions as
    // arrays), they cost nothing.
    let whole = sys
        .clauses
        .iter()
        .any(|c| uses_whole_array(store, c.constraint));
    if map.is_empty() || whole {
        return None;
    }
    let mut clauses = Vec::with_capacity(sys.clauses.len());
    for c in &sys.clauses {
        let mut vars = c.vars.clone();
        let reads = read_indices(store, c.constraint);
        // Cells worth knowing in this clause, per sort: the head's, the witnesses of the
        // body's summaries, the indices read.
        let mut known: FxHashMap<Sort, Vec<TermId>> = FxHashMap::default();
        // The head: every cell (fresh `k̄`); a summary's witness `j̄` at the cells read, one
        // clause per choice (each a way to derive it).
        let mut heads: Vec<Option<PredApp>> = Vec::new();
        match c.head.as_ref() {
            None => heads.push(None),
            Some(h) => match map.get(&h.pred) {
                None => heads.push(Some(h.clone())),
                Some(a) => {
                    let ks: Vec<TermId> = a
                        .sorts
                        .iter()
                        .map(|&s| {
                            let k = fresh_cell(store, &mut vars, s);
                            known.entry(s).or_default().push(k);
                            k
                        })
                        .collect();
                    if a.witness {
                        for js in cell_tuples(store, &mut vars, &a.sorts, &reads) {
                            heads.push(Some(cell_app(store, a, h, Some(&js), &ks)));
                        }
                    } else {
                        heads.push(Some(cell_app(store, a, h, None, &ks)));
                    }
                }
            },
        }
        // The body's summaries: a witness each (fresh `j̄`), which the other atoms learn.
        let mut witnesses: Vec<(usize, Vec<TermId>)> = Vec::new();
        for (i, b) in c.body.iter().enumerate() {
            if let Some(a) = map.get(&b.pred).filter(|a| a.witness) {
                let js: Vec<TermId> = a
                    .sorts
                    .iter()
                    .map(|&s| fresh_cell(store, &mut vars, s))
                    .collect();
                for (&s, &j) in a.sorts.iter().zip(&js) {
                    known.entry(s).or_default().push(j);
                }
                witnesses.push((i, js));
            }
        }
        for (&s, ts) in &reads {
            let e = known.entry(s).or_default();
            for &t in ts {
                if !e.contains(&t) {
                    e.push(t);
                }
            }
        }
        // Body atoms: instances at the cells worth knowing (some cell when there is none).
        let mut body = Vec::with_capacity(c.body.len());
        for (i, b) in c.body.iter().enumerate() {
            let Some(a) = map.get(&b.pred) else {
                body.push(b.clone());
                continue;
            };
            let js = witnesses.iter().find(|w| w.0 == i).map(|w| w.1.clone());
            for ks in cell_tuples(store, &mut vars, &a.sorts, &known) {
                body.push(cell_app(store, a, b, js.as_deref(), &ks));
            }
        }
        for head in heads {
            clauses.push(Clause {
                vars: vars.clone(),
                body: body.clone(),
                constraint: c.constraint,
                head,
                origin: c.origin,
            });
        }
    }
    Some((ChcSystem { preds, clauses }, map))
}

/// Whether `t` reads or writes an array that is not an array of scalars (outside
/// quantifiers).
fn uses_whole_array(store: &TermStore, t: TermId) -> bool {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        match store.op(u) {
            cove_logic::Op::Forall(_) | cove_logic::Op::Exists(_) => continue,
            cove_logic::Op::Select | cove_logic::Op::Store
                if !is_cell_array(store.sort(store.args(u)[0])) =>
            {
                return true;
            }
            _ => {}
        }
        stack.extend_from_slice(store.args(u));
    }
    false
}

/// A fresh cell variable of sort `s`, added to the clause's `vars`.
fn fresh_cell(store: &mut TermStore, vars: &mut Vec<VarId>, s: Sort) -> TermId {
    let v = store.fresh_var("cell", s);
    vars.push(v);
    store.mk_var(v)
}

/// Tuples of cells, one per sort of `sorts`, drawn from `cells` (a fresh cell for a sort with
/// none): at most [`MAX_CELLS`] tuples, the first candidates first.
fn cell_tuples(
    store: &mut TermStore,
    vars: &mut Vec<VarId>,
    sorts: &[Sort],
    cells: &FxHashMap<Sort, Vec<TermId>>,
) -> Vec<Vec<TermId>> {
    let mut tuples: Vec<Vec<TermId>> = vec![Vec::new()];
    for &s in sorts {
        let mut ts: Vec<TermId> = cells.get(&s).cloned().unwrap_or_default();
        ts.truncate(MAX_CELLS);
        if ts.is_empty() {
            ts.push(fresh_cell(store, vars, s));
        }
        let mut next = Vec::new();
        for t in &tuples {
            for &x in &ts {
                if next.len() < MAX_CELLS {
                    let mut t = t.clone();
                    t.push(x);
                    next.push(t);
                }
            }
        }
        tuples = next;
    }
    tuples
}

/// The position in `a.sorts` of an array's index sort.
fn sort_slot(a: &Abstracted, s: Sort) -> usize {
    a.sorts
        .iter()
        .position(|&x| Some(x) == s.index_sort())
        .expect("its index sort is listed")
}

/// `P#(j̄, k̄, ā[j], ā[k], x̄)` for the application `P(ā, x̄)` (`j̄` only for a summary).
fn cell_app(
    store: &mut TermStore,
    a: &Abstracted,
    app: &PredApp,
    js: Option<&[TermId]>,
    ks: &[TermId],
) -> PredApp {
    let mut args: Vec<TermId> = js.unwrap_or_default().to_vec();
    args.extend_from_slice(ks);
    for &t in &app.args {
        let s = store.sort(t);
        if is_cell_array(s) {
            let slot = sort_slot(a, s);
            if let Some(js) = js {
                args.push(store.mk_select(t, js[slot]));
            }
            args.push(store.mk_select(t, ks[slot]));
        } else {
            args.push(t);
        }
    }
    PredApp { pred: a.pred, args }
}

/// The index terms of the reads in `t` of arrays of scalars, per index sort, in term order
/// (quantified subterms skipped).
pub(crate) fn read_indices(store: &TermStore, t: TermId) -> FxHashMap<Sort, Vec<TermId>> {
    let mut out: FxHashMap<Sort, Vec<TermId>> = FxHashMap::default();
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack = vec![t];
    while let Some(u) = stack.pop() {
        if !seen.insert(u) {
            continue;
        }
        match store.op(u) {
            cove_logic::Op::Forall(_) | cove_logic::Op::Exists(_) => continue,
            cove_logic::Op::Select if is_cell_array(store.sort(store.args(u)[0])) => {
                let i = store.args(u)[1];
                out.entry(store.sort(i)).or_default().push(i);
            }
            _ => {}
        }
        stack.extend_from_slice(store.args(u));
    }
    for v in out.values_mut() {
        v.sort();
        v.dedup();
    }
    out
}

/// `P(ā, x̄) := ∀k̄. I#(k̄, ā[k], x̄)`, for a summary `∃j̄ ∀k̄. I#(j̄, k̄, ā[j], ā[k], x̄)`;
/// the other predicates as they are.
fn concretize(
    store: &mut TermStore,
    sys: &ChcSystem,
    map: &FxHashMap<FuncId, Abstracted>,
    inv: Invariants,
) -> Invariants {
    let mut defs = FxHashMap::default();
    for &p in &sys.preds {
        let Some(a) = map.get(&p) else {
            if let Some(d) = inv.defs.get(&p) {
                defs.insert(p, d.clone());
            }
            continue;
        };
        let Some(d) = inv.defs.get(&a.pred) else {
            continue;
        };
        let sorts: Vec<Sort> = store.func(p).args.to_vec();
        let params: Vec<VarId> = sorts
            .iter()
            .enumerate()
            .map(|(i, &s)| store.fresh_var(&format!("x{i}"), s))
            .collect();
        let js: Vec<VarId> = if a.witness {
            a.sorts.iter().map(|&s| store.fresh_var("j", s)).collect()
        } else {
            Vec::new()
        };
        let ks: Vec<VarId> = a.sorts.iter().map(|&s| store.fresh_var("k", s)).collect();
        let mut sub: FxHashMap<VarId, TermId> = FxHashMap::default();
        let mut next = 0;
        for &v in js.iter().chain(&ks) {
            sub.insert(d.params[next], store.mk_var(v));
            next += 1;
        }
        debug_assert_eq!(next, a.n_index());
        for (&x, &s) in params.iter().zip(&sorts) {
            let xt = store.mk_var(x);
            if is_cell_array(s) {
                let slot = sort_slot(a, s);
                if a.witness {
                    let j = store.mk_var(js[slot]);
                    sub.insert(d.params[next], store.mk_select(xt, j));
                    next += 1;
                }
                let k = store.mk_var(ks[slot]);
                sub.insert(d.params[next], store.mk_select(xt, k));
            } else {
                sub.insert(d.params[next], xt);
            }
            next += 1;
        }
        let body = substitute(store, d.body, &sub);
        let body = store.mk_quant(true, &ks, body);
        let body = store.mk_quant(false, &js, body);
        defs.insert(p, FuncInterp { params, body });
    }
    Invariants {
        defs,
        measures: inv.measures,
    }
}

impl Engine for Cells {
    fn name(&self) -> &'static str {
        CellsConfig::NAME
    }

    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult {
        let Some((abs, map)) = abstract_system(store, sys) else {
            return ChcResult::Unknown(UnknownReason::Incomplete(
                "no predicate has an array of scalars to see through a cell (or a clause writes an array of arrays)".into(),
            ));
        };
        let mut spacer = Spacer::new(self.cfg.spacer.clone());
        let sub = ctl.child().with_work_cap(self.cfg.work);
        let r = spacer.solve(store, &abs, &sub);
        self.stats = spacer.stats();
        if ctl.verbosity > 0 {
            let left = sub.work_cap.as_ref().map_or(0, |w| w.remaining());
            eprintln!(
                "spacer-cells: {} of {} work units",
                self.cfg.work - left,
                self.cfg.work
            );
        }
        match r {
            ChcResult::Sat(inv) => ChcResult::Sat(concretize(store, sys, &map, inv)),
            // A counterexample of the abstraction may pick different cells at different
            // steps: it says nothing about the system.
            ChcResult::Unsat(_) => ChcResult::Unknown(UnknownReason::Incomplete(
                "the cell abstraction has a counterexample (it may be spurious)".into(),
            )),
            u => u,
        }
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}
