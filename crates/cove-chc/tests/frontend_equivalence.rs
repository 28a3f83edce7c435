//! The clausification is an equivalence: for random assertions over predicates, quantifiers
//! and arithmetic, the assertion and the conjunction of its clauses agree under random
//! interpretations of the predicates, with every variable and quantifier ranging over a
//! small integer grid (lifting quantifiers is exact over any domain, so a finite one
//! checks it pointwise). Assertions the front end rejects as non-Horn are skipped.

use cove_chc::PredApp;
use cove_chc::frontend::{ErrorKind, parse_chc};
use cove_logic::print::term_to_string;
use cove_logic::{FuncId, Op, Sort, TermId, TermStore, VarId};
use cove_testkit::Rng;
use rustc_hash::FxHashMap;

const GRID: [i64; 4] = [-1, 0, 1, 2];

#[derive(Clone, Copy, PartialEq, Debug)]
enum Val {
    B(bool),
    I(i64),
}

/// A pseudo-random predicate interpretation.
fn interp(seed: u64, f: FuncId, args: &[i64]) -> bool {
    let mut h = seed ^ (u64::from(f.0) + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for &a in args {
        h = (h ^ a as u64).wrapping_mul(0x100_0000_01B3).rotate_left(17);
    }
    h.is_multiple_of(3)
}

fn eval(s: &TermStore, t: TermId, env: &mut FxHashMap<VarId, i64>, seed: u64) -> Val {
    let args = s.args(t);
    let b = |v: Val| match v {
        Val::B(b) => b,
        Val::I(_) => panic!("sort"),
    };
    let i = |v: Val| match v {
        Val::I(i) => i,
        Val::B(_) => panic!("sort"),
    };
    let ev = |k: usize, env: &mut FxHashMap<VarId, i64>| eval(s, args[k], env, seed);
    match s.op(t) {
        Op::Bool(v) => Val::B(*v),
        Op::Num(n) => Val::I(n.to_i64().expect("small")),
        Op::Var(v) => {
            if s.var_sort(*v) == Sort::Bool {
                Val::B(env[v] != 0)
            } else {
                Val::I(env[v])
            }
        }
        Op::App(f) => {
            let vals: Vec<i64> = (0..args.len()).map(|k| i(ev(k, env))).collect();
            Val::B(interp(seed, *f, &vals))
        }
        Op::Not => Val::B(!b(ev(0, env))),
        Op::And => Val::B((0..args.len()).all(|k| b(ev(k, env)))),
        Op::Or => Val::B((0..args.len()).any(|k| b(ev(k, env)))),
        Op::Implies => Val::B(!b(ev(0, env)) || b(ev(1, env))),
        Op::Xor => Val::B(b(ev(0, env)) != b(ev(1, env))),
        Op::Eq => Val::B(ev(0, env) == ev(1, env)),
        Op::Ite => {
            if b(ev(0, env)) {
                ev(1, env)
            } else {
                ev(2, env)
            }
        }
        Op::Add => Val::I((0..args.len()).map(|k| i(ev(k, env))).sum()),
        Op::Sub => Val::I(i(ev(0, env)) - i(ev(1, env))),
        Op::Neg => Val::I(-i(ev(0, env))),
        Op::Le => Val::B(i(ev(0, env)) <= i(ev(1, env))),
        Op::Lt => Val::B(i(ev(0, env)) < i(ev(1, env))),
        Op::Ge => Val::B(i(ev(0, env)) >= i(ev(1, env))),
        Op::Gt => Val::B(i(ev(0, env)) > i(ev(1, env))),
        op @ (Op::Forall(vs) | Op::Exists(vs)) => {
            let forall = matches!(op, Op::Forall(_));
            let saved: Vec<Option<i64>> = vs.iter().map(|v| env.get(v).copied()).collect();
            let r = all_assignments(vs, env, &mut |env| b(eval(s, args[0], env, seed)) == forall);
            for (v, old) in vs.iter().zip(saved) {
                match old {
                    Some(x) => env.insert(*v, x),
                    None => env.remove(v),
                };
            }
            Val::B(if forall { r } else { !r })
        }
        op => panic!("unexpected {op:?}"),
    }
}

/// True if `pred` holds for every grid assignment of `vars` (on top of `env`).
fn all_assignments(
    vars: &[VarId],
    env: &mut FxHashMap<VarId, i64>,
    pred: &mut dyn FnMut(&mut FxHashMap<VarId, i64>) -> bool,
) -> bool {
    let Some((&v, rest)) = vars.split_first() else {
        return pred(env);
    };
    GRID.iter().all(|&g| {
        env.insert(v, g);
        all_assignments(rest, env, pred)
    })
}

struct Gen<'a> {
    rng: Rng,
    s: &'a mut TermStore,
    preds: Vec<FuncId>,
    scope: Vec<VarId>,
    names: u32,
}

impl Gen<'_> {
    fn int(&mut self) -> TermId {
        let v = self.scope[self.rng.below(self.scope.len())];
        let vt = self.s.mk_var(v);
        match self.rng.below(3) {
            0 => vt,
            1 => self.s.mk_int(self.rng.below(3) as i64 - 1),
            _ => {
                let c = self.s.mk_int(1);
                self.s.mk(Op::Add, &[vt, c]).unwrap()
            }
        }
    }

    fn formula(&mut self, depth: u32) -> TermId {
        let leaf = depth == 0 || self.rng.below(5) == 0;
        let k = if leaf {
            self.rng.below(3)
        } else {
            3 + self.rng.below(9)
        };
        match k {
            0 | 1 => {
                let p = self.preds[self.rng.below(self.preds.len())];
                let n = self.s.func(p).args.len();
                let args: Vec<TermId> = (0..n).map(|_| self.int()).collect();
                self.s.mk(Op::App(p), &args).unwrap()
            }
            2 => {
                let (a, b) = (self.int(), self.int());
                let op = [Op::Le, Op::Lt, Op::Eq][self.rng.below(3)].clone();
                self.s.mk(op, &[a, b]).unwrap()
            }
            3 => {
                let a = self.formula(depth - 1);
                self.s.mk(Op::Not, &[a]).unwrap()
            }
            4 | 5 => {
                let n = 2 + self.rng.below(2);
                let args: Vec<TermId> = (0..n).map(|_| self.formula(depth - 1)).collect();
                self.s
                    .mk(
                        if self.rng.below(2) == 0 {
                            Op::And
                        } else {
                            Op::Or
                        },
                        &args,
                    )
                    .unwrap()
            }
            6 | 7 => {
                let (a, b) = (self.formula(depth - 1), self.formula(depth - 1));
                self.s.mk(Op::Implies, &[a, b]).unwrap()
            }
            8 => {
                let (c, a, b) = (
                    self.formula(depth - 1),
                    self.formula(depth - 1),
                    self.formula(depth - 1),
                );
                self.s.mk(Op::Ite, &[c, a, b]).unwrap()
            }
            9 => {
                let (a, b) = (self.formula(depth - 1), self.formula(depth - 1));
                self.s.mk(Op::Xor, &[a, b]).unwrap()
            }
            _ => {
                // Reuse an outer name sometimes, to exercise renaming apart.
                let v = if self.rng.below(3) == 0 {
                    self.scope[self.rng.below(self.scope.len())]
                } else {
                    self.names += 1;
                    self.s.var(&format!("w{}", self.names), Sort::Int)
                };
                self.scope.push(v);
                let body = self.formula(depth - 1);
                self.scope.pop();
                let q = if self.rng.below(2) == 0 {
                    Op::Forall(vec![v].into())
                } else {
                    Op::Exists(vec![v].into())
                };
                self.s.mk(q, &[body]).unwrap()
            }
        }
    }
}

#[test]
fn clauses_are_equivalent_to_the_assertion() {
    let mut rng = Rng::from_state(0xDEC0_DE00_1234_5679);
    let (mut checked, mut non_horn, mut clauses_seen) = (0, 0, 0);
    for round in 0..1500 {
        let mut s = TermStore::new();
        let p = s.declare_func("P", &[Sort::Int], Sort::Bool).unwrap();
        let q = s
            .declare_func("Q", &[Sort::Int, Sort::Int], Sort::Bool)
            .unwrap();
        let outer: Vec<VarId> = ["x", "y"].iter().map(|n| s.var(n, Sort::Int)).collect();
        let mut g = Gen {
            rng: Rng::from_state(rng.next_u64() | 1),
            s: &mut s,
            preds: vec![p, q],
            scope: outer.clone(),
            names: 0,
        };
        let f = g.formula(1 + (round % 4) as u32);
        let text = format!(
            "(set-logic HORN)\n(declare-fun P (Int) Bool)\n(declare-fun Q (Int Int) Bool)\n(assert (forall ((x Int) (y Int)) {}))\n",
            term_to_string(&s, f)
        );
        let mut s2 = TermStore::new();
        let sys = match parse_chc(text.as_bytes(), &mut s2) {
            Ok(sys) => sys,
            Err(e) if e.kind == ErrorKind::NonHorn => {
                non_horn += 1;
                continue;
            }
            Err(e) => panic!("{e}\n{text}"),
        };
        // Both stores declared P, Q, x, y first, in the same order.
        let x2: Vec<VarId> = ["x", "y"].iter().map(|n| s2.var(n, Sort::Int)).collect();
        for seed in 0..4u64 {
            let mut env = FxHashMap::default();
            let ok = all_assignments(&outer, &mut env, &mut |env| {
                let orig = eval(&s, f, env, seed) == Val::B(true);
                let mut env2: FxHashMap<VarId, i64> =
                    outer.iter().zip(&x2).map(|(v, w)| (*w, env[v])).collect();
                let clauses_hold = sys.clauses.iter().all(|c| {
                    let extra: Vec<VarId> =
                        c.vars.iter().copied().filter(|v| !x2.contains(v)).collect();
                    all_assignments(&extra, &mut env2.clone(), &mut |e| {
                        let atom_holds = |a: &PredApp, e: &mut FxHashMap<VarId, i64>| {
                            let vals: Vec<i64> = a
                                .args
                                .iter()
                                .map(|&t| match eval(&s2, t, e, seed) {
                                    Val::I(i) => i,
                                    Val::B(_) => panic!(),
                                })
                                .collect();
                            interp(seed, a.pred, &vals)
                        };
                        let body = c.body.iter().all(|a| atom_holds(a, e));
                        let cons = eval(&s2, c.constraint, e, seed) == Val::B(true);
                        let head = c.head.as_ref().is_some_and(|h| atom_holds(h, e));
                        !(body && cons) || head
                    })
                });
                env2.clear();
                orig == clauses_hold
            });
            assert!(
                ok,
                "round {round}, seed {seed}: clauses differ from\n{text}\nclauses:\n{}",
                cove_chc::print::system_to_smtlib(&sys, &s2)
            );
        }
        checked += 1;
        clauses_seen += sys.clauses.len();
    }
    println!(
        "{checked} assertions checked ({clauses_seen} clauses), {non_horn} rejected as non-Horn"
    );
    assert!(checked > 300);
}
