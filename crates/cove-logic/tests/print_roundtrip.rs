//! Printing then reading a term gives back the same term (same id in the same store), for
//! random well-sorted terms with sharing, quantifiers, odd symbol names and all numerals.

use cove_logic::print::term_to_string;
use cove_logic::smtlib::{Command, parse_script};
use cove_logic::{FuncId, Op, Rational, Sort, TermId, TermStore, VarId};

use cove_testkit::Rng;

struct Gen {
    rng: Rng,
    free: Vec<VarId>,
    pred: FuncId,
    /// Terms available for reuse, per quantifier scope (innermost last), by sort.
    pools: Vec<Vec<TermId>>,
    /// Variables bound by the enclosing quantifiers.
    bound: Vec<VarId>,
    next_bound: u32,
}

impl Gen {
    fn pick(&mut self, s: &TermStore, sort: Sort) -> Option<TermId> {
        let all: Vec<TermId> = self
            .pools
            .iter()
            .flatten()
            .copied()
            .filter(|&t| s.sort(t) == sort)
            .collect();
        (!all.is_empty()).then(|| all[self.rng.below(all.len())])
    }

    fn leaf(&mut self, s: &mut TermStore, sort: Sort) -> TermId {
        let vars: Vec<VarId> = self
            .free
            .iter()
            .chain(self.bound.iter())
            .copied()
            .filter(|&v| s.var_sort(v) == sort)
            .collect();
        if !vars.is_empty() && self.rng.chance(60, 100) {
            return s.mk_var(vars[self.rng.below(vars.len())]);
        }
        match sort {
            Sort::Bool => s.mk_bool(self.rng.chance(50, 100)),
            Sort::Int => {
                let v = self.rng.below(21) as i64 - 10;
                let v = if self.rng.chance(10, 100) {
                    Rational::from_bigint(num_big(v))
                } else {
                    Rational::int(v)
                };
                s.mk_num(v, Sort::Int)
            }
            Sort::Real => {
                let v = Rational::new(self.rng.below(21) as i64 - 10, 1 + self.rng.below(4) as i64);
                s.mk_num(v, Sort::Real)
            }
            Sort::Array(_) | Sort::BitVec(_) | Sort::Dt(_) => {
                unreachable!("the generator makes no arrays or bit-vectors")
            }
        }
    }

    fn term(&mut self, s: &mut TermStore, sort: Sort, depth: u32) -> TermId {
        if depth > 0
            && self.rng.chance(25, 100)
            && let Some(t) = self.pick(s, sort)
        {
            return t;
        }
        if depth == 0 || self.rng.chance(15, 100) {
            return self.leaf(s, sort);
        }
        let d = depth - 1;
        let t = match sort {
            Sort::Bool => match self.rng.below(12) {
                0 => {
                    let a = self.term(s, Sort::Bool, d);
                    s.mk(Op::Not, &[a]).unwrap()
                }
                1 | 2 => {
                    let n = 2 + self.rng.below(3);
                    let args: Vec<TermId> = (0..n).map(|_| self.term(s, Sort::Bool, d)).collect();
                    s.mk(
                        if self.rng.chance(50, 100) {
                            Op::And
                        } else {
                            Op::Or
                        },
                        &args,
                    )
                    .unwrap()
                }
                3 => {
                    let (a, b) = (self.term(s, Sort::Bool, d), self.term(s, Sort::Bool, d));
                    s.mk(
                        if self.rng.chance(50, 100) {
                            Op::Implies
                        } else {
                            Op::Xor
                        },
                        &[a, b],
                    )
                    .unwrap()
                }
                4 | 5 => {
                    let srt = if self.rng.chance(50, 100) {
                        Sort::Int
                    } else {
                        Sort::Real
                    };
                    let (a, b) = (self.term(s, srt, d), self.term(s, srt, d));
                    let op = [Op::Le, Op::Lt, Op::Ge, Op::Gt, Op::Eq][self.rng.below(5)].clone();
                    s.mk(op, &[a, b]).unwrap()
                }
                6 => {
                    let args: Vec<TermId> = (0..3).map(|_| self.term(s, Sort::Int, d)).collect();
                    s.mk(Op::Distinct, &args).unwrap()
                }
                7 => {
                    let (a, b) = (self.term(s, Sort::Int, d), self.term(s, Sort::Real, d));
                    s.mk(Op::App(self.pred), &[a, b]).unwrap()
                }
                8 => {
                    let a = self.term(s, Sort::Real, d);
                    s.mk(Op::IsInt, &[a]).unwrap()
                }
                9 | 10 => {
                    let forall = self.rng.chance(50, 100);
                    let k = 1 + self.rng.below(2);
                    let vars: Vec<VarId> = (0..k)
                        .map(|_| {
                            self.next_bound += 1;
                            let srt = if self.rng.chance(70, 100) {
                                Sort::Int
                            } else {
                                Sort::Real
                            };
                            s.var(&format!("b{}", self.next_bound), srt)
                        })
                        .collect();
                    self.bound.extend(&vars);
                    self.pools.push(vec![]);
                    let body = self.term(s, Sort::Bool, d);
                    self.pools.pop();
                    self.bound.truncate(self.bound.len() - vars.len());
                    s.mk(
                        if forall {
                            Op::Forall(vars.into())
                        } else {
                            Op::Exists(vars.into())
                        },
                        &[body],
                    )
                    .unwrap()
                }
                _ => {
                    let c = self.term(s, Sort::Bool, d);
                    let (a, b) = (self.term(s, Sort::Bool, d), self.term(s, Sort::Bool, d));
                    s.mk(Op::Ite, &[c, a, b]).unwrap()
                }
            },
            Sort::Int | Sort::Real => match self.rng.below(9) {
                0 | 1 => {
                    let n = 2 + self.rng.below(3);
                    let args: Vec<TermId> = (0..n).map(|_| self.term(s, sort, d)).collect();
                    s.mk(
                        if self.rng.chance(60, 100) {
                            Op::Add
                        } else {
                            Op::Mul
                        },
                        &args,
                    )
                    .unwrap()
                }
                2 => {
                    let (a, b) = (self.term(s, sort, d), self.term(s, sort, d));
                    s.mk(Op::Sub, &[a, b]).unwrap()
                }
                3 => {
                    let a = self.term(s, sort, d);
                    if s.as_num(a).is_some() {
                        a
                    } else {
                        s.mk(Op::Neg, &[a]).unwrap()
                    }
                }
                4 => {
                    let a = self.term(s, sort, d);
                    s.mk(Op::Abs, &[a]).unwrap()
                }
                5 => {
                    let c = self.term(s, Sort::Bool, d);
                    let (a, b) = (self.term(s, sort, d), self.term(s, sort, d));
                    s.mk(Op::Ite, &[c, a, b]).unwrap()
                }
                6 if sort == Sort::Int => {
                    let a = self.term(s, Sort::Int, d);
                    let b = self.term(s, Sort::Int, d);
                    s.mk(
                        if self.rng.chance(50, 100) {
                            Op::IntDiv
                        } else {
                            Op::Mod
                        },
                        &[a, b],
                    )
                    .unwrap()
                }
                7 if sort == Sort::Int => {
                    let a = self.term(s, Sort::Real, d);
                    s.mk(Op::ToInt, &[a]).unwrap()
                }
                6 => {
                    let a = self.term(s, Sort::Real, d);
                    let b = self.term(s, Sort::Real, d);
                    // Numeral / nonzero numeral reads back folded: keep one side symbolic.
                    if s.as_num(a).is_some() && s.as_num(b).is_some_and(|v| !v.is_zero()) {
                        a
                    } else {
                        s.mk(Op::Div, &[a, b]).unwrap()
                    }
                }
                7 => {
                    let a = self.term(s, Sort::Int, d);
                    s.mk(Op::ToReal, &[a]).unwrap()
                }
                _ => self.leaf(s, sort),
            },
            Sort::Array(_) | Sort::BitVec(_) | Sort::Dt(_) => {
                unreachable!("the generator makes no arrays or bit-vectors")
            }
        };
        self.pools.last_mut().expect("pool").push(t);
        t
    }
}

fn num_big(v: i64) -> num_bigint::BigInt {
    num_bigint::BigInt::from(v) * num_bigint::BigInt::from(10).pow(30)
}

#[test]
fn random_terms_round_trip() {
    let mut rng = Rng::from_state(0x9E37_79B9_7F4A_7C15);
    for round in 0..2000 {
        let mut s = TermStore::new();
        let names = [
            ("x", Sort::Int),
            ("y", Sort::Int),
            ("a b", Sort::Int),
            ("r", Sort::Real),
            ("2r", Sort::Real),
            ("p", Sort::Bool),
            ("let", Sort::Bool),
        ];
        let free: Vec<VarId> = names.iter().map(|&(n, srt)| s.var(n, srt)).collect();
        let pred = s
            .declare_func("P", &[Sort::Int, Sort::Real], Sort::Bool)
            .unwrap();
        let mut g = Gen {
            rng: Rng::from_state(rng.next_u64() | 1),
            free: free.clone(),
            pred,
            pools: vec![vec![]],
            bound: vec![],
            next_bound: 0,
        };
        let depth = 2 + (round % 7) as u32;
        let t = g.term(&mut s, Sort::Bool, depth);
        let printed = term_to_string(&s, t);
        let mut src = String::from("(set-logic HORN)\n(declare-fun P (Int Real) Bool)\n");
        for &v in &free {
            src.push_str(&format!(
                "(declare-const {} {})\n",
                cove_logic::print::symbol(s.var_name(v)),
                s.var_sort(v)
            ));
        }
        src.push_str(&format!("(assert {printed})\n"));
        let script = parse_script(src.as_bytes(), &mut s).unwrap_or_else(|e| panic!("{e}\n{src}"));
        let Some((Command::Assert { term, .. }, _)) = script.commands.last() else {
            panic!()
        };
        assert_eq!(
            *term,
            t,
            "round {round}:\n{printed}\nread back as\n{}",
            term_to_string(&s, *term)
        );
    }
}

#[test]
fn large_shared_dags_round_trip_with_lets() {
    let mut s = TermStore::new();
    let x = s.var("x", Sort::Int);
    let mut t = s.mk_var(x);
    for i in 0..40 {
        let c = s.mk_int(i);
        let u = s.mk(Op::Add, &[t, c]).unwrap();
        t = s.mk(Op::Mul, &[u, u]).unwrap();
    }
    let zero = s.mk_int(0);
    let b = s.mk(Op::Gt, &[t, zero]).unwrap();
    let inner = s.mk(Op::And, &[b, b]).unwrap();
    let q = s.mk(Op::Forall(vec![x].into()), &[inner]).unwrap();
    let printed = term_to_string(&s, q);
    assert!(printed.len() < 4000, "{}", printed.len());
    assert!(printed.starts_with("(forall ((x Int)) (let ("), "{printed}");
    let script = parse_script(format!("(assert {printed})").as_bytes(), &mut s).unwrap();
    let Command::Assert { term, .. } = &script.commands[0].0 else {
        panic!()
    };
    assert_eq!(*term, q);
}
