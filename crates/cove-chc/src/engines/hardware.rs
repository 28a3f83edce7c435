//! Linear CHC over bit-vectors on the hardware engines: the transition-system view
//! ([`crate::ts`]) is bit-blasted into an and-inverter graph with one latch per bit of each
//! state variable, model-checked by `cove-aig` (IC3 with its lifting and generalisation), and
//! the answer is translated back: the bit-level invariant (clauses over latches) becomes a
//! bit-vector formula over the predicates' arguments (`((_ extract i i) x) = #b1` per bit), a
//! counterexample's latch values become bit-vector values of each state. Both go through
//! [`TransitionSystem::answer`] and then, like every answer, the driver's independent checker.
//!
//! # The circuit
//! The system is built without quantifier elimination (facts and queries with local variables
//! become steps from a start location or into an error location), so every formula is over
//! state, next-state and per-step local variables. With `X` the state latches, `Y` the
//! next-state inputs, `A` the local inputs and `S` a latch that is 0 only in the first step:
//! - latches `X` start free, `next(X) = Y`, `S` starts at 0 and `next(S) = 1`;
//! - the constraint is `S ? (bad(X) ∨ trans(X, Y, A)) : init(Y)`;
//! - the bad output is `S ∧ bad(X)`.
//!
//! The first step only picks an initial state; from then on every state is reachable in the
//! transition system. An AIG invariant `J(S, X)` gives the system's invariant `J(1, X)`.
//! (`bad ∨` keeps a bad state without successors visible: constraints must hold in the step
//! where the bad output fires.) The location variable of a multi-predicate system (an
//! integer with values `0..n`) is carried by a bit-vector of `⌈log₂ n⌉` bits; its equalities
//! are the only way the view uses it.
//!
//! # Why not word level
//! The hardware engines are the strongest complete engines Cove has on finite state
//! (HWMCC-tuned IC3 with ternary-simulation lifting and CTG generalisation). Bit-level
//! invariants are verbose, but they are exact and the checker validates them as any other.

use crate::engine::{BuildEngine, Control, Engine, Stats};
use crate::result::{ChcResult, UnknownReason};
use crate::system::ChcSystem;
use crate::ts::{Trace, TransitionSystem, TsAnswer};
use cove_aig::{ALit, Aig, And, Init, Latch, SafeProof, Verdict};
use cove_logic::{BvValue, Op, Rational, Sort, TermId, TermStore, Value, VarId, substitute};
use cove_smt::bv::{Blaster, GLit, Node, var_of};
use rustc_hash::{FxHashMap, FxHashSet};

/// Which `cove-aig` engine decides the circuit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HwEngine {
    /// IC3 (complete; its invariants translate back).
    Ic3,
    /// Bounded model checking (counterexamples only).
    Bmc,
}

/// Options of the hardware route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HwConfig {
    /// The `cove-aig` engine that decides the circuit (IC3 by default).
    pub engine: HwEngine,
}

impl Default for HwConfig {
    fn default() -> Self {
        HwConfig {
            engine: HwEngine::Ic3,
        }
    }
}

impl BuildEngine for HwConfig {
    const NAME: &'static str = "hw";

    fn create(&self) -> Box<dyn Engine> {
        Box::new(Hardware::new(self.engine))
    }
}

/// The engine (see the module doc).
pub struct Hardware {
    engine: HwEngine,
    stats: Stats,
}

impl Default for Hardware {
    fn default() -> Self {
        Hardware::new(HwEngine::Ic3)
    }
}

impl Hardware {
    /// The translation with `engine` deciding the circuit.
    pub fn new(engine: HwEngine) -> Hardware {
        Hardware {
            engine,
            stats: Vec::new(),
        }
    }
}

impl Engine for Hardware {
    fn name(&self) -> &'static str {
        match self.engine {
            HwEngine::Ic3 => "hw-ic3",
            HwEngine::Bmc => "hw-bmc",
        }
    }

    fn solve(&mut self, store: &mut TermStore, sys: &ChcSystem, ctl: &Control) -> ChcResult {
        let ts = match TransitionSystem::from_chc_with_qe_limit(store, sys, 0, ctl) {
            Ok(ts) => ts,
            Err(e) => return ChcResult::Unknown(e.reason()),
        };
        let circ = match Circuit::build(store, &ts, ctl) {
            Ok(c) => c,
            Err(why) => {
                // A blast cut by the limits is a timeout (or the like), not a refusal.
                let reason = ctl.should_stop().unwrap_or(UnknownReason::Unsupported(why));
                return ChcResult::Unknown(reason);
            }
        };
        self.stats = vec![
            ("hw.latches".into(), circ.aig.latches.len().to_string()),
            ("hw.inputs".into(), circ.aig.inputs.len().to_string()),
            ("hw.ands".into(), circ.aig.ands.len().to_string()),
        ];
        let engine = match self.engine {
            HwEngine::Ic3 => cove_aig::EngineConfig::Ic3(Default::default()),
            HwEngine::Bmc => cove_aig::EngineConfig::Bmc(Default::default()),
        };
        match cove_aig::driver::check(&circ.aig, &engine.into(), ctl) {
            Verdict::Safe(SafeProof::Invariant(clauses)) => {
                let inv = circ.invariant(store, &clauses);
                ts.answer(store, sys, TsAnswer::Safe(inv), ctl)
            }
            Verdict::Safe(SafeProof::KInduction { .. }) => ChcResult::Unknown(
                UnknownReason::Incomplete("a k-induction proof has no invariant".into()),
            ),
            Verdict::Unsafe(trace) => match circ.trace(&trace) {
                Some(t) => ts.answer(store, sys, TsAnswer::Unsafe(t), ctl),
                None => ChcResult::Unknown(UnknownReason::Incomplete(
                    "the circuit trace does not replay".into(),
                )),
            },
            Verdict::Unknown(r) => ChcResult::Unknown(r),
        }
    }

    fn stats(&self) -> Stats {
        self.stats.clone()
    }
}

/// Where a state variable lives in the circuit.
struct StateBits {
    /// The variable (the location's bit-vector stand-in for the location).
    var: VarId,
    /// Its latches, least significant bit first (one for a Bool).
    latches: Vec<u32>,
    /// Whether it is a Bool.
    is_bool: bool,
}

/// The blasted transition system.
pub(crate) struct Circuit {
    pub(crate) aig: Aig,
    /// Per state variable of the system (same order as `ts.vars`).
    state: Vec<StateBits>,
    /// The first-step latch.
    started: u32,
    /// The location variable and its bit-vector stand-in.
    loc: Option<(VarId, VarId, usize)>,
}

/// Replaces `loc = i` / `loc' = i` by bit-vector equalities over `lb`/`lb'`; `None` when the
/// location occurs otherwise.
fn rewrite_loc(
    store: &mut TermStore,
    t: TermId,
    map: &FxHashMap<VarId, VarId>,
    width: u32,
) -> Option<TermId> {
    let mut memo: FxHashMap<TermId, TermId> = FxHashMap::default();
    let mut stack = vec![(t, false)];
    while let Some((u, expanded)) = stack.pop() {
        if memo.contains_key(&u) {
            continue;
        }
        if let Op::Eq = store.op(u) {
            let (a, b) = (store.args(u)[0], store.args(u)[1]);
            let hit = [(a, b), (b, a)].into_iter().find_map(|(x, y)| {
                let v = store.as_var(x)?;
                let bv = *map.get(&v)?;
                let n = store.as_num(y)?.to_i64()?;
                Some((bv, n))
            });
            if let Some((bv, n)) = hit {
                let x = store.mk_var(bv);
                let k = store.mk_bv_u64(width, n as u64);
                let e = store.mk_eq(x, k);
                memo.insert(u, e);
                continue;
            }
        }
        if let Op::Var(v) = store.op(u)
            && map.contains_key(v)
        {
            return None;
        }
        let args = store.args(u).to_vec();
        if !expanded {
            stack.push((u, true));
            stack.extend(args.iter().map(|&a| (a, false)));
            continue;
        }
        let new: Vec<TermId> = args.iter().map(|a| memo[a]).collect();
        let r = if new == args {
            u
        } else {
            let term = store.get(u).clone();
            store.mk_raw(term.op, &new, term.sort)
        };
        memo.insert(u, r);
    }
    Some(memo[&t])
}

impl Circuit {
    /// Blasts `ts` (see the module doc); `Err` names what does not fit.
    pub(crate) fn build(
        store: &mut TermStore,
        ts: &TransitionSystem,
        ctl: &Control,
    ) -> Result<Circuit, String> {
        let bits_needed = |n: usize| (usize::BITS - (n.max(2) - 1).leading_zeros()).max(1);
        let mut loc = None;
        let mut map = FxHashMap::default();
        if let Some(l) = ts.location_var() {
            let n = ts.num_locations();
            let w = bits_needed(n);
            let lb = store.fresh_var("locb", Sort::BitVec(w));
            let i = ts
                .vars
                .iter()
                .position(|&v| v == l)
                .expect("loc is a state var");
            let lbn = store.fresh_var("locb'", Sort::BitVec(w));
            map.insert(l, lb);
            map.insert(ts.next[i], lbn);
            loc = Some((l, lb, n));
        }
        let w = loc.map(|(_, lb, _)| store.var_sort(lb).bv_width().expect("bv"));
        let rw = |store: &mut TermStore, t: TermId| -> Result<TermId, String> {
            match w {
                None => Ok(t),
                Some(w) => rewrite_loc(store, t, &map, w)
                    .ok_or_else(|| "the location is used beyond equalities".to_string()),
            }
        };
        let init = rw(store, ts.init)?;
        let trans = rw(store, ts.trans)?;
        let bad = rw(store, ts.bad)?;
        let cur: Vec<VarId> = ts.vars.iter().map(|v| *map.get(v).unwrap_or(v)).collect();
        let nxt: Vec<VarId> = ts.next.iter().map(|v| *map.get(v).unwrap_or(v)).collect();
        for &v in cur.iter().chain(&nxt).chain(&ts.aux) {
            let s = store.var_sort(v);
            if !(s == Sort::Bool || s.is_bv()) {
                return Err(format!(
                    "variable '{}' of sort {s} (only Bool and bit-vector states are blasted)",
                    store.var_name(v)
                ));
            }
        }
        let to_next: FxHashMap<VarId, TermId> = cur
            .iter()
            .zip(&nxt)
            .map(|(&c, &n)| (c, store.mk_var(n)))
            .collect();
        let init_next = substitute(store, init, &to_next);
        let mut b = Blaster::new();
        // Wide multipliers and dividers are millions of gates: the blaster polls the limits.
        b.set_poll(Some(ctl.clone()));
        let bits_of = |store: &mut TermStore, b: &mut Blaster, v: VarId| -> Vec<GLit> {
            let t = store.mk_var(v);
            if store.var_sort(v) == Sort::Bool {
                vec![b.bool_lit(store, t)]
            } else {
                b.word(store, t)
            }
        };
        let cur_bits: Vec<Vec<GLit>> = cur.iter().map(|&v| bits_of(store, &mut b, v)).collect();
        let nxt_bits: Vec<Vec<GLit>> = nxt.iter().map(|&v| bits_of(store, &mut b, v)).collect();
        for &a in &ts.aux {
            bits_of(store, &mut b, a);
        }
        let g_init = b.bool_lit(store, init_next);
        let g_trans = b.bool_lit(store, trans);
        let g_bad = b.bool_lit(store, bad);
        if b.abstracted() {
            return Err(format!(
                "bit-blasting stopped at a limit or at {} gates",
                cove_smt::bv::MAX_GATES
            ));
        }
        let allowed: FxHashSet<VarId> = cur.iter().chain(&nxt).chain(&ts.aux).copied().collect();
        for leaf in b.take_new_leaves() {
            match store.op(leaf) {
                Op::Var(v) if allowed.contains(v) => {}
                _ => {
                    return Err(format!(
                        "'{}' cannot be blasted",
                        cove_logic::print::term_to_string(store, leaf)
                    ));
                }
            }
        }
        let s = b.gates.input();
        let step = b.gates.or(g_bad, g_trans);
        let constraint = b.gates.mux(s, step, g_init);
        let bad_out = b.gates.and(s, g_bad);
        // Latches: the state bits (as gate inputs) and S.
        let mut latch_next: FxHashMap<u32, GLit> = FxHashMap::default();
        let mut state = Vec::new();
        for (i, bits) in cur_bits.iter().enumerate() {
            let mut latches = Vec::new();
            for (k, &g) in bits.iter().enumerate() {
                debug_assert_eq!(g & 1, 0, "a variable's bits are plain inputs");
                latch_next.insert(var_of(g), nxt_bits[i][k]);
                latches.push(var_of(g));
            }
            state.push(StateBits {
                var: cur[i],
                latches,
                is_bool: store.var_sort(cur[i]) == Sort::Bool,
            });
        }
        latch_next.insert(var_of(s), 1);
        let gates = &b.gates;
        let mut aig = Aig {
            max_var: gates.num_vars() as u32 - 1,
            ..Aig::default()
        };
        for v in 1..gates.num_vars() as u32 {
            match gates.node(v) {
                Node::Input => match latch_next.get(&v) {
                    Some(&next) => aig.latches.push(Latch {
                        var: v,
                        next: next as ALit,
                        init: if v == var_of(s) {
                            Init::Zero
                        } else {
                            Init::Free
                        },
                    }),
                    None => aig.inputs.push(v),
                },
                Node::And(x, y) => aig.ands.push(And {
                    var: v,
                    rhs0: x,
                    rhs1: y,
                }),
                Node::Const => unreachable!("only variable 0 is the constant"),
            }
        }
        aig.bad.push(bad_out);
        if constraint != cove_smt::bv::G_TRUE {
            aig.constraints.push(constraint);
        }
        Ok(Circuit {
            aig,
            state,
            started: var_of(s),
            loc,
        })
    }

    /// The system's invariant from an invariant of the circuit (clauses over latches).
    pub(crate) fn invariant(&self, store: &mut TermStore, clauses: &[Vec<ALit>]) -> TermId {
        let mut bit_term: FxHashMap<u32, TermId> = FxHashMap::default();
        for sb in &self.state {
            let t = store.mk_var(sb.var);
            if store.var_sort(sb.var) == Sort::Bool {
                bit_term.insert(sb.latches[0], t);
                continue;
            }
            for (i, &l) in sb.latches.iter().enumerate() {
                let e = store.mk_extract(i as u32, i as u32, t);
                let one = store.mk_bv_u64(1, 1);
                bit_term.insert(l, store.mk_eq(e, one));
            }
        }
        let mut conj = Vec::new();
        'clauses: for c in clauses {
            let mut lits = Vec::new();
            for &l in c {
                let v = l >> 1;
                let neg = l & 1 == 1;
                if v == self.started {
                    if !neg {
                        continue 'clauses; // S = 1 holds
                    }
                    continue; // ¬S is false
                }
                let t = bit_term[&v];
                lits.push(if neg { store.mk_not(t) } else { t });
            }
            conj.push(store.mk_or(&lits));
        }
        let inv = store.mk_and(&conj);
        match self.loc {
            None => inv,
            Some((l, lb, n)) => {
                // The location's bits as a function of the location.
                let w = store.var_sort(lb).bv_width().expect("bv");
                let lt = store.mk_var(l);
                let mut code = store.mk_bv_u64(w, (n - 1) as u64);
                for i in (0..n - 1).rev() {
                    let k = store.mk_num(Rational::from(i as i64), Sort::Int);
                    let is = store.mk_eq(lt, k);
                    let ki = store.mk_bv_u64(w, i as u64);
                    code = store.mk_ite(is, ki, code);
                }
                let m: FxHashMap<VarId, TermId> = [(lb, code)].into_iter().collect();
                substitute(store, inv, &m)
            }
        }
    }

    /// The system's trace from a certified counterexample of the circuit (`None` if it does
    /// not replay, which the certification excludes).
    pub(crate) fn trace(&self, t: &cove_aig::Trace) -> Option<Trace> {
        let aig = &self.aig;
        let mut latch_vals: Vec<bool> = t.init.clone();
        let pos: FxHashMap<u32, usize> = aig
            .latches
            .iter()
            .enumerate()
            .map(|(i, l)| (l.var, i))
            .collect();
        let mut states = Vec::new();
        for (step, inputs) in t.inputs.iter().enumerate() {
            if step > 0 {
                states.push(self.decode(&latch_vals, &pos)?);
            }
            let vals = aig.eval_step(&latch_vals, inputs);
            latch_vals = aig
                .latches
                .iter()
                .map(|l| cove_aig::lit_val(&vals, l.next))
                .collect();
        }
        (!states.is_empty()).then_some(Trace { states })
    }

    fn decode(&self, latch_vals: &[bool], pos: &FxHashMap<u32, usize>) -> Option<Vec<Value>> {
        let mut out = Vec::new();
        for sb in &self.state {
            let bits: Vec<bool> = sb.latches.iter().map(|l| latch_vals[pos[l]]).collect();
            let v = match self.loc {
                Some((_, lb, _)) if lb == sb.var => {
                    let n = BvValue::from_bits(&bits).to_u64()?;
                    Value::Num(Rational::from(n as i64))
                }
                _ if sb.is_bool => Value::Bool(bits[0]),
                _ => Value::Bv(BvValue::from_bits(&bits)),
            };
            out.push(v);
        }
        Some(out)
    }
}
