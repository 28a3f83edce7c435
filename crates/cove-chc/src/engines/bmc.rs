//! Bounded model checking: is `false` derivable in at most `k` steps?
//!
//! The system is unrolled layer by layer into one incremental SMT instance. Layer `i` has,
//! per predicate `P`, a flag `at[i][P]` ("a fact of P is chosen at layer i") and argument
//! variables `x[i][P]`. A chosen fact is explained either by one clause instance with head `P`
//! whose body atoms are the facts chosen at layer `i-1`, or by stuttering (the fact of layer
//! `i-1` is kept). The query at layer `k` is checked under an assumption, so the same solver
//! serves every bound.
//!
//! Each layer holds, per predicate, as many facts ("slots") as the predicate has occurrences
//! in one clause body, so a nonlinear clause can combine different facts of one predicate.
//! Derivations needing more distinct facts of a predicate per depth are out of reach: the
//! search is incomplete there but stays sound — every model is a real derivation (a DAG
//! that may reuse facts). BMC never answers `sat`.

use crate::engine::{BuildEngine, Control, Engine, Stats};
use crate::result::{ChcResult, Derivation, DerivationStep, UnknownReason};
use crate::system::ChcSystem;
use cove_logic::{FuncId, Model, TermId, TermStore, Value, VarId, substitute};
use cove_smt::{SmtResult, SmtSolver};
use rustc_hash::FxHashMap;

/// Options of the BMC engine.
#[derive(Clone, Debug, Default)]
pub struct BmcConfig {
    /// Stop after this bound (answering unknown); `None` = until the time limit.
    pub max_depth: Option<usize>,
}

impl BuildEngine for BmcConfig {
    const NAME: &'static str = "bmc";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(Bmc::new(self.clone()))
    }
}

/// The BMC engine.
#[derive(Default)]
pub struct Bmc {
    config: BmcConfig,
    depth_reached: usize,
}

impl Bmc {
    /// A BMC engine with the given options.
    pub fn new(config: BmcConfig) -> Bmc {
        Bmc {
            config,
            depth_reached: 0,
        }
    }
}

/// A fact slot of a layer: predicate and copy index. A predicate gets as many copies per
/// layer as it has occurrences in one clause body, so a nonlinear clause can combine
/// different facts of the same predicate (e.g. two different results of one procedure).
type Slot = (FuncId, usize);

/// One clause instance in one layer: its selector and its renamed variables.
struct Instance {
    clause: usize,
    selector: TermId,
    renaming: Vec<(VarId, VarId)>,
    /// The slot this instance derives (`None` for a query).
    head: Option<Slot>,
}

struct Layer {
    /// Per slot: chosen flag and argument variables.
    at: FxHashMap<Slot, (TermId, Vec<VarId>)>,
    /// Clause instances with a head (indexed by the slot they derive).
    instances: FxHashMap<Slot, Vec<Instance>>,
    /// Stutter selectors (fact kept from the previous layer).
    stutter: FxHashMap<Slot, TermId>,
    /// Query instances of this layer.
    queries: Vec<Instance>,
}

struct Unroller<'a> {
    sys: &'a ChcSystem,
    /// Copies per predicate per layer.
    copies: FxHashMap<FuncId, usize>,
    layers: Vec<Layer>,
    /// Constraints produced so far and not yet taken by the caller.
    pending: Vec<TermId>,
}

/// For each body atom of a clause, the slot it reads: its predicate and its occurrence index.
fn body_slots(c: &crate::system::Clause) -> Vec<Slot> {
    let mut seen: FxHashMap<FuncId, usize> = FxHashMap::default();
    c.body
        .iter()
        .map(|app| {
            let k = seen.entry(app.pred).or_default();
            *k += 1;
            (app.pred, *k - 1)
        })
        .collect()
}

impl<'a> Unroller<'a> {
    fn new(sys: &'a ChcSystem) -> Unroller<'a> {
        let mut copies: FxHashMap<FuncId, usize> = sys.preds.iter().map(|p| (*p, 1)).collect();
        for c in &sys.clauses {
            for (p, k) in body_slots(c) {
                let e = copies.entry(p).or_insert(1);
                *e = (*e).max(k + 1);
            }
        }
        Unroller {
            sys,
            copies,
            layers: Vec::new(),
            pending: Vec::new(),
        }
    }

    fn rename(
        store: &mut TermStore,
        sys: &ChcSystem,
        c: usize,
        tag: &str,
    ) -> (Vec<(VarId, VarId)>, FxHashMap<VarId, TermId>) {
        let mut ren = Vec::new();
        let mut map = FxHashMap::default();
        for &v in &sys.clauses[c].vars {
            let name = format!("{}@{tag}", store.var_name(v));
            let nv = store.fresh_var(&name, store.var_sort(v));
            ren.push((v, nv));
            map.insert(v, store.mk_var(nv));
        }
        (ren, map)
    }

    fn slots(&self) -> Vec<Slot> {
        self.sys
            .preds
            .iter()
            .flat_map(|p| (0..self.copies[p]).map(move |k| (*p, k)))
            .collect()
    }

    /// Adds the definitions of layer `i` (and its query instances) to `pending`.
    fn add_layer(&mut self, store: &mut TermStore) {
        let i = self.layers.len();
        let sys = self.sys;
        let mut at = FxHashMap::default();
        for (p, k) in self.slots() {
            let name = store.func(p).name.to_string();
            let flag = store.fresh_var(&format!("at{i}_{name}#{k}"), cove_logic::Sort::Bool);
            let flag = store.mk_var(flag);
            let sorts = store.func(p).args.clone();
            let args: Vec<VarId> = sorts
                .iter()
                .enumerate()
                .map(|(j, s)| store.fresh_var(&format!("{name}{i}#{k}_{j}"), *s))
                .collect();
            at.insert((p, k), (flag, args));
        }
        let mut layer = Layer {
            at,
            instances: FxHashMap::default(),
            stutter: FxHashMap::default(),
            queries: Vec::new(),
        };
        for (ci, c) in sys.clauses.iter().enumerate() {
            // Clauses with a body need the previous layer.
            if !c.body.is_empty() && i == 0 {
                continue;
            }
            let heads: Vec<Option<Slot>> = match &c.head {
                Some(h) => (0..self.copies[&h.pred])
                    .map(|k| Some((h.pred, k)))
                    .collect(),
                None => vec![None],
            };
            let reads = body_slots(c);
            for head in heads {
                let sel = store.fresh_var(&format!("sel{i}_{ci}"), cove_logic::Sort::Bool);
                let sel = store.mk_var(sel);
                let (renaming, map) = Self::rename(store, sys, ci, &format!("{i}"));
                let mut parts = vec![substitute(store, c.constraint, &map)];
                for (app, slot) in c.body.iter().zip(&reads) {
                    let (flag, args) = &self.layers[i - 1].at[slot];
                    parts.push(*flag);
                    for (a, x) in app.args.iter().zip(args) {
                        let a = substitute(store, *a, &map);
                        let x = store.mk_var(*x);
                        parts.push(store.mk_eq(a, x));
                    }
                }
                if let (Some(h), Some(slot)) = (&c.head, head) {
                    let (_, args) = &layer.at[&slot];
                    for (a, x) in h.args.iter().zip(args.clone()) {
                        let a = substitute(store, *a, &map);
                        let x = store.mk_var(x);
                        parts.push(store.mk_eq(a, x));
                    }
                }
                let body = store.mk_and(&parts);
                let imp = store.mk_implies(sel, body);
                self.pending.push(imp);
                let inst = Instance {
                    clause: ci,
                    selector: sel,
                    renaming,
                    head,
                };
                match head {
                    Some(slot) => layer.instances.entry(slot).or_default().push(inst),
                    None => layer.queries.push(inst),
                }
            }
        }
        // at[i][slot] => one of its explanations.
        for slot in self.slots() {
            let (flag, args) = layer.at[&slot].clone();
            let mut options: Vec<TermId> = layer
                .instances
                .get(&slot)
                .map(|v| v.iter().map(|x| x.selector).collect())
                .unwrap_or_default();
            if i > 0 {
                let st = store.fresh_var(
                    &format!("stutter{i}_{}", store.func(slot.0).name),
                    cove_logic::Sort::Bool,
                );
                let st = store.mk_var(st);
                let (pflag, pargs) = self.layers[i - 1].at[&slot].clone();
                let mut parts = vec![pflag];
                for (a, b) in args.iter().zip(&pargs) {
                    let (a, b) = (store.mk_var(*a), store.mk_var(*b));
                    parts.push(store.mk_eq(a, b));
                }
                let body = store.mk_and(&parts);
                let imp = store.mk_implies(st, body);
                self.pending.push(imp);
                layer.stutter.insert(slot, st);
                options.push(st);
            }
            let any = store.mk_or(&options);
            let imp = store.mk_implies(flag, any);
            self.pending.push(imp);
        }
        self.layers.push(layer);
    }

    fn query_literal(&self, store: &mut TermStore, i: usize) -> TermId {
        let sels: Vec<TermId> = self.layers[i].queries.iter().map(|q| q.selector).collect();
        store.mk_or(&sels)
    }

    /// Reads a derivation of `false` at layer `i` off the model.
    ///
    /// A post-order walk with an explicit stack (a counterexample can be thousands of layers
    /// deep): an instance frame collects its premises one by one, a stutter frame forwards
    /// the fact of the layer below; `ret` carries the step the last finished frame produced.
    fn extract(&self, store: &TermStore, model: &Model, i: usize) -> Option<Derivation> {
        let truth = |t: TermId| model.eval(store, t).ok() == Some(Value::Bool(true));
        let q = self.layers[i].queries.iter().find(|q| truth(q.selector))?;
        let mut d = Derivation::default();
        let mut memo: FxHashMap<(usize, Slot), usize> = FxHashMap::default();
        let mut stack = vec![Frame::instance(&self.sys.clauses[q.clause], i, q, None)];
        let mut ret: Option<usize> = None;
        while let Some(top) = stack.last_mut() {
            match top {
                Frame::Instance {
                    i,
                    inst,
                    key,
                    slots,
                    premises,
                } => {
                    if let Some(r) = ret.take() {
                        premises.push(r);
                    }
                    if premises.len() < slots.len() {
                        let (below, slot) = (i.checked_sub(1)?, slots[premises.len()]);
                        self.request(&truth, &memo, below, slot, &mut stack, &mut ret)?;
                        continue;
                    }
                    let step = self.step(store, model, *i, inst, std::mem::take(premises));
                    d.steps.push(step);
                    let idx = d.steps.len() - 1;
                    if let Some(k) = *key {
                        memo.insert(k, idx);
                    }
                    stack.pop();
                    ret = Some(idx);
                }
                Frame::Stutter { key } => {
                    let r = ret.take()?;
                    memo.insert(*key, r);
                    stack.pop();
                    ret = Some(r);
                }
            }
        }
        d.root = ret?;
        Some(d)
    }

    /// Asks for the step deriving `slot` at layer `i`: found in `memo` (then put in `ret`),
    /// or a frame that will produce it is pushed. `None`: the model derives nothing there.
    fn request<'s>(
        &'s self,
        truth: &impl Fn(TermId) -> bool,
        memo: &FxHashMap<(usize, Slot), usize>,
        mut i: usize,
        slot: Slot,
        stack: &mut Vec<Frame<'s>>,
        ret: &mut Option<usize>,
    ) -> Option<()> {
        loop {
            if let Some(&s) = memo.get(&(i, slot)) {
                *ret = Some(s);
                return Some(());
            }
            let layer = &self.layers[i];
            if let Some(inst) = layer
                .instances
                .get(&slot)
                .and_then(|v| v.iter().find(|x| truth(x.selector)))
            {
                let c = &self.sys.clauses[inst.clause];
                stack.push(Frame::instance(c, i, inst, Some((i, slot))));
                return Some(());
            }
            if !layer.stutter.get(&slot).is_some_and(|s| truth(*s)) {
                return None;
            }
            stack.push(Frame::Stutter { key: (i, slot) });
            i = i.checked_sub(1)?;
        }
    }

    /// The derivation step of `inst` at layer `i`, its premises already extracted.
    fn step(
        &self,
        store: &TermStore,
        model: &Model,
        i: usize,
        inst: &Instance,
        premises: Vec<usize>,
    ) -> DerivationStep {
        let val = |v: VarId| {
            model
                .get(v)
                .cloned()
                .unwrap_or_else(|| Value::default_of(store.var_sort(v)))
        };
        let assignment: Vec<(VarId, Value)> = inst
            .renaming
            .iter()
            .map(|(orig, copy)| (*orig, val(*copy)))
            .collect();
        let head = inst.head.map(|slot| {
            let (_, args) = &self.layers[i].at[&slot];
            (slot.0, args.iter().map(|x| val(*x)).collect())
        });
        DerivationStep {
            clause: inst.clause,
            head,
            premises,
            assignment,
        }
    }
}

/// A pending node of [`Unroller::extract`]'s walk.
enum Frame<'a> {
    /// A clause instance at layer `i` whose premises (one per body slot) are being collected;
    /// `key` is the fact it derives, memoized when done.
    Instance {
        i: usize,
        inst: &'a Instance,
        key: Option<(usize, Slot)>,
        slots: Vec<Slot>,
        premises: Vec<usize>,
    },
    /// The fact `key` kept from the layer below: it is that layer's step.
    Stutter { key: (usize, Slot) },
}

impl<'a> Frame<'a> {
    fn instance(
        c: &crate::system::Clause,
        i: usize,
        inst: &'a Instance,
        key: Option<(usize, Slot)>,
    ) -> Frame<'a> {
        let slots = body_slots(c);
        Frame::Instance {
            i,
            inst,
            key,
            premises: Vec::with_capacity(slots.len()),
            slots,
        }
    }
}

/// The BMC query at exactly `depth` as one quantifier-free formula (a conjunction list):
/// satisfiable iff `false` is derivable within `depth` steps by the layered encoding. Used to
/// generate SMT benchmarks from real CHC work (`cove unroll`).
pub fn unrolling(store: &mut TermStore, sys: &ChcSystem, depth: usize) -> Vec<TermId> {
    let mut un = Unroller::new(sys);
    for _ in 0..=depth {
        un.add_layer(store);
    }
    let q = un.query_literal(store, depth);
    let mut out = std::mem::take(&mut un.pending);
    out.push(q);
    out
}

impl Engine for Bmc {
    fn name(&self) -> &'static str {
        BmcConfig::NAME
    }

    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult {
        if let Some(why) = crate::system::unsupported_feature(sys, store) {
            return ChcResult::Unknown(UnknownReason::Unsupported(why));
        }
        let mut solver = SmtSolver::new();
        solver.set_limits(cove_smt::Limits::of(ctl));
        let mut un = Unroller::new(sys);
        let mut result = None;
        for k in 0.. {
            if let Some(r) = ctl.should_stop() {
                result = Some(ChcResult::Unknown(r));
                break;
            }
            if self.config.max_depth.is_some_and(|m| k > m) {
                result = Some(ChcResult::Unknown(UnknownReason::Incomplete(format!(
                    "no counterexample up to depth {}",
                    k - 1
                ))));
                break;
            }
            un.add_layer(store);
            for t in std::mem::take(&mut un.pending) {
                solver.assert(store, t);
            }
            self.depth_reached = k;
            let q = un.query_literal(store, k);
            if ctl.verbosity > 0 {
                eprintln!("bmc: depth {k}");
            }
            match solver.check_assuming(store, &[q]) {
                SmtResult::Unsat => continue,
                SmtResult::Sat => {
                    let model = solver.model(store);
                    result = Some(match un.extract(store, &model, k) {
                        Some(d) => ChcResult::Unsat(d),
                        None => ChcResult::Unknown(UnknownReason::Incomplete(
                            "could not read a derivation off the model".into(),
                        )),
                    });
                    break;
                }
                SmtResult::Unknown(r) => {
                    result = Some(ChcResult::Unknown(match ctl.should_stop() {
                        Some(s) => s,
                        None => UnknownReason::Incomplete(format!("SMT solver: {r:?}")),
                    }));
                    break;
                }
            }
        }
        // A deep unrolling takes a tenth of a second and more to free: at a limit it is
        // freed off this thread.
        ctl.dispose(std::mem::take(&mut un.layers));
        ctl.dispose(solver);
        result.expect("the loop ends with a result")
    }

    fn stats(&self) -> Stats {
        vec![("bmc-depth".into(), self.depth_reached.to_string())]
    }
}
