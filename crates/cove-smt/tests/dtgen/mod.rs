//! Random datatype scripts (QF_DT with integer fields) for the tests (`tests/datatypes.rs`)
//! and the differential run against z3 (`examples/dt_scripts.rs` includes this file by
//! path; `scripts/smt/differential-dt.py` drives it).
//!
//! Six datatypes: Peano numbers, integer lists, mutually recursive trees and forests (with an
//! enumeration inside), an enumeration and a record. Terms mix variables, constructors,
//! selectors (also on the wrong constructor), testers, `ite`, equalities, `distinct` and
//! linear integer atoms. A *planted* script is built around a random assignment: each clause
//! is made true under it (reading a selector on another constructor gives the default value
//! of the field sort, one of the interpretations SMT-LIB allows), so the script is
//! satisfiable and `unsat` is a bug. [`Script::eval`] evaluates the assertions under any
//! assignment, which the tests use as a sampling oracle.

#![allow(dead_code)]

use cove_testkit::Rng;
use std::fmt::Write;

/// A sort of the generated scripts.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum S {
    /// Datatype number `k` of [`DTS`].
    Dt(usize),
    /// Int.
    Int,
    /// Bool.
    Bool,
}

/// One datatype: name and constructors (name, fields (selector, sort)).
pub struct DtDecl {
    pub name: &'static str,
    pub ctors: &'static [(&'static str, &'static [(&'static str, S)])],
}

pub const NAT: usize = 0;
pub const LST: usize = 1;
pub const TREE: usize = 2;
pub const FOREST: usize = 3;
pub const COL: usize = 4;
pub const PAIR: usize = 5;

pub static DTS: [DtDecl; 6] = [
    DtDecl {
        name: "Nat",
        ctors: &[("Z", &[]), ("S", &[("pre", S::Dt(NAT))])],
    },
    DtDecl {
        name: "Lst",
        ctors: &[
            ("nil", &[]),
            ("cons", &[("hd", S::Int), ("tl", S::Dt(LST))]),
        ],
    },
    DtDecl {
        name: "Tree",
        ctors: &[
            ("leaf", &[("val", S::Int)]),
            ("node", &[("lab", S::Dt(COL)), ("kids", S::Dt(FOREST))]),
        ],
    },
    DtDecl {
        name: "Forest",
        ctors: &[
            ("fnil", &[]),
            ("fcons", &[("ftop", S::Dt(TREE)), ("frest", S::Dt(FOREST))]),
        ],
    },
    DtDecl {
        name: "Col",
        ctors: &[("red", &[]), ("green", &[]), ("blue", &[])],
    },
    DtDecl {
        name: "Pair",
        ctors: &[(
            "pair",
            &[("fst", S::Dt(NAT)), ("snd", S::Dt(LST)), ("flag", S::Bool)],
        )],
    },
];

/// The SMT-LIB declaration of all six datatypes.
pub fn declarations() -> String {
    let mut s = String::from("(declare-datatypes (");
    for d in &DTS {
        write!(s, "({} 0) ", d.name).unwrap();
    }
    s.push_str(") (");
    for d in &DTS {
        s.push('(');
        for (c, fs) in d.ctors {
            if fs.is_empty() {
                write!(s, "({c}) ").unwrap();
            } else {
                write!(s, "({c}").unwrap();
                for (f, so) in fs.iter() {
                    write!(s, " ({f} {})", sort_name(*so)).unwrap();
                }
                s.push_str(") ");
            }
        }
        s.push(')');
    }
    s.push_str("))\n");
    s
}

pub fn sort_name(s: S) -> &'static str {
    match s {
        S::Dt(k) => DTS[k].name,
        S::Int => "Int",
        S::Bool => "Bool",
    }
}

/// A value.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum V {
    I(i64),
    B(bool),
    D(usize, usize, Vec<V>),
}

/// A term.
#[derive(Clone, Debug)]
pub enum T {
    Var(usize),
    Int(i64),
    Ctor(usize, usize, Vec<T>),
    Sel(usize, usize, usize, Box<T>),
    Test(usize, usize, Box<T>),
    Eq(Box<T>, Box<T>),
    Distinct(Vec<T>),
    Add(Box<T>, Box<T>),
    Le(Box<T>, Box<T>),
    Not(Box<T>),
    Or(Vec<T>),
    Ite(Box<T>, Box<T>, Box<T>),
}

/// A generated script: variables (name, sort) and clauses.
pub struct Script {
    pub vars: Vec<(String, S)>,
    pub clauses: Vec<T>,
    /// The assignment the script was planted around, if any.
    pub planted: Option<Vec<V>>,
}

/// The default value of a sort (also the value of a selector on another constructor).
pub fn default_value(s: S) -> V {
    match s {
        S::Int => V::I(0),
        S::Bool => V::B(false),
        S::Dt(TREE) => V::D(TREE, 0, vec![V::I(0)]),
        S::Dt(PAIR) => V::D(
            PAIR,
            0,
            vec![
                default_value(S::Dt(NAT)),
                default_value(S::Dt(LST)),
                V::B(false),
            ],
        ),
        S::Dt(k) => V::D(k, 0, vec![]),
    }
}

/// A random value of `s` of depth at most `depth`.
pub fn random_value(rng: &mut Rng, s: S, depth: u32) -> V {
    match s {
        S::Int => V::I(rng.range(-2, 3)),
        S::Bool => V::B(rng.flip()),
        S::Dt(k) => {
            let d = &DTS[k];
            let leafy: Vec<usize> = (0..d.ctors.len())
                .filter(|&c| {
                    d.ctors[c]
                        .1
                        .iter()
                        .all(|f| !matches!(f.1, S::Dt(j) if j != COL))
                })
                .collect();
            let c = if depth == 0 && !leafy.is_empty() {
                leafy[rng.below(leafy.len())]
            } else {
                rng.below(d.ctors.len())
            };
            let fields = d.ctors[c]
                .1
                .iter()
                .map(|f| random_value(rng, f.1, depth.saturating_sub(1)))
                .collect();
            V::D(k, c, fields)
        }
    }
}

fn b(v: V) -> bool {
    matches!(v, V::B(true))
}

/// Evaluates `t` under `env` (wrong selectors read the default value).
pub fn eval(t: &T, env: &[V]) -> V {
    match t {
        T::Var(i) => env[*i].clone(),
        T::Int(n) => V::I(*n),
        T::Ctor(k, c, args) => V::D(*k, *c, args.iter().map(|a| eval(a, env)).collect()),
        T::Sel(k, c, f, a) => match eval(a, env) {
            V::D(_, c2, fs) if c2 == *c => fs[*f].clone(),
            _ => default_value(DTS[*k].ctors[*c].1[*f].1),
        },
        T::Test(_, c, a) => match eval(a, env) {
            V::D(_, c2, _) => V::B(c2 == *c),
            _ => V::B(false),
        },
        T::Eq(x, y) => V::B(eval(x, env) == eval(y, env)),
        T::Distinct(xs) => {
            let vs: Vec<V> = xs.iter().map(|x| eval(x, env)).collect();
            let mut ok = true;
            for i in 0..vs.len() {
                for j in i + 1..vs.len() {
                    ok &= vs[i] != vs[j];
                }
            }
            V::B(ok)
        }
        T::Add(x, y) => match (eval(x, env), eval(y, env)) {
            (V::I(a), V::I(b)) => V::I(a + b),
            _ => V::I(0),
        },
        T::Le(x, y) => match (eval(x, env), eval(y, env)) {
            (V::I(a), V::I(b)) => V::B(a <= b),
            _ => V::B(false),
        },
        T::Not(x) => V::B(!b(eval(x, env))),
        T::Or(xs) => V::B(xs.iter().any(|x| b(eval(x, env)))),
        T::Ite(c, x, y) => {
            if b(eval(c, env)) {
                eval(x, env)
            } else {
                eval(y, env)
            }
        }
    }
}

impl Script {
    /// Whether every clause holds under `env`.
    pub fn eval(&self, env: &[V]) -> bool {
        self.clauses.iter().all(|c| b(eval(c, env)))
    }

    /// The SMT-LIB text.
    pub fn to_smtlib(&self) -> String {
        let mut s = String::from("(set-logic ALL)\n");
        s.push_str(&declarations());
        for (n, so) in &self.vars {
            writeln!(s, "(declare-const {n} {})", sort_name(*so)).unwrap();
        }
        for c in &self.clauses {
            s.push_str("(assert ");
            print(&mut s, c, &self.vars);
            s.push_str(")\n");
        }
        s.push_str("(check-sat)\n");
        s
    }
}

pub fn print(s: &mut String, t: &T, vars: &[(String, S)]) {
    match t {
        T::Var(i) => s.push_str(&vars[*i].0),
        T::Int(n) if *n < 0 => write!(s, "(- {})", -n).unwrap(),
        T::Int(n) => write!(s, "{n}").unwrap(),
        T::Ctor(k, c, args) => {
            if args.is_empty() {
                s.push_str(DTS[*k].ctors[*c].0);
            } else {
                write!(s, "({}", DTS[*k].ctors[*c].0).unwrap();
                for a in args {
                    s.push(' ');
                    print(s, a, vars);
                }
                s.push(')');
            }
        }
        T::Sel(k, c, f, a) => {
            write!(s, "({} ", DTS[*k].ctors[*c].1[*f].0).unwrap();
            print(s, a, vars);
            s.push(')');
        }
        T::Test(k, c, a) => {
            write!(s, "((_ is {}) ", DTS[*k].ctors[*c].0).unwrap();
            print(s, a, vars);
            s.push(')');
        }
        T::Eq(x, y) | T::Add(x, y) | T::Le(x, y) => {
            let op = match t {
                T::Eq(..) => "=",
                T::Add(..) => "+",
                _ => "<=",
            };
            write!(s, "({op} ").unwrap();
            print(s, x, vars);
            s.push(' ');
            print(s, y, vars);
            s.push(')');
        }
        T::Distinct(xs) | T::Or(xs) => {
            s.push_str(if matches!(t, T::Or(_)) {
                "(or"
            } else {
                "(distinct"
            });
            for x in xs {
                s.push(' ');
                print(s, x, vars);
            }
            s.push(')');
        }
        T::Not(x) => {
            s.push_str("(not ");
            print(s, x, vars);
            s.push(')');
        }
        T::Ite(c, x, y) => {
            s.push_str("(ite ");
            print(s, c, vars);
            s.push(' ');
            print(s, x, vars);
            s.push(' ');
            print(s, y, vars);
            s.push(')');
        }
    }
}

struct Gen<'a> {
    rng: &'a mut Rng,
    vars: Vec<(String, S)>,
}

impl Gen<'_> {
    fn var_of(&mut self, s: S) -> Option<T> {
        let c: Vec<usize> = (0..self.vars.len())
            .filter(|&i| self.vars[i].1 == s)
            .collect();
        if c.is_empty() {
            None
        } else {
            Some(T::Var(c[self.rng.below(c.len())]))
        }
    }

    /// Selector applications that yield sort `s`: (datatype, ctor, field).
    fn sels_into(s: S) -> Vec<(usize, usize, usize)> {
        let mut out = vec![];
        for (k, d) in DTS.iter().enumerate() {
            for (c, (_, fs)) in d.ctors.iter().enumerate() {
                for (f, fl) in fs.iter().enumerate() {
                    if fl.1 == s {
                        out.push((k, c, f));
                    }
                }
            }
        }
        out
    }

    fn term(&mut self, s: S, depth: u32) -> T {
        let r = if depth == 0 { 0 } else { self.rng.below(10) };
        match s {
            S::Bool => self.atom(depth),
            S::Int => match r {
                0..=3 => self
                    .var_of(S::Int)
                    .unwrap_or_else(|| T::Int(self.rng.range(-2, 3))),
                4 => T::Int(self.rng.range(-2, 3)),
                5 => T::Add(
                    Box::new(self.term(S::Int, depth - 1)),
                    Box::new(self.term(S::Int, depth - 1)),
                ),
                6..=8 => self.sel(S::Int, depth),
                _ => T::Ite(
                    Box::new(self.atom(depth - 1)),
                    Box::new(self.term(S::Int, depth - 1)),
                    Box::new(self.term(S::Int, depth - 1)),
                ),
            },
            S::Dt(k) => match r {
                0..=3 => match self.var_of(s) {
                    Some(v) => v,
                    None => self.ctor(k, depth),
                },
                4..=6 => self.ctor(k, depth),
                7 | 8 => self.sel(s, depth),
                _ => T::Ite(
                    Box::new(self.atom(depth - 1)),
                    Box::new(self.term(s, depth - 1)),
                    Box::new(self.term(s, depth - 1)),
                ),
            },
        }
    }

    fn ctor(&mut self, k: usize, depth: u32) -> T {
        let d = &DTS[k];
        let c = if depth == 0 {
            // A constructor without fields of its own group when there is one.
            (0..d.ctors.len())
                .find(|&c| d.ctors[c].1.iter().all(|f| !matches!(f.1, S::Dt(_))))
                .unwrap_or(0)
        } else {
            self.rng.below(d.ctors.len())
        };
        let fields: Vec<S> = d.ctors[c].1.iter().map(|f| f.1).collect();
        let args = fields
            .into_iter()
            .map(|f| self.term(f, depth.saturating_sub(1)))
            .collect();
        T::Ctor(k, c, args)
    }

    fn sel(&mut self, s: S, depth: u32) -> T {
        let opts = Self::sels_into(s);
        if opts.is_empty() {
            return match s {
                S::Dt(k) => self.ctor(k, depth),
                _ => T::Int(0),
            };
        }
        let (k, c, f) = opts[self.rng.below(opts.len())];
        let inner = self.term(S::Dt(k), depth.saturating_sub(1));
        T::Sel(k, c, f, Box::new(inner))
    }

    fn dt_sort(&mut self) -> usize {
        [NAT, LST, LST, TREE, FOREST, COL, PAIR][self.rng.below(7)]
    }

    fn atom(&mut self, depth: u32) -> T {
        let d = depth.min(3);
        match self.rng.below(10) {
            0..=3 => {
                let k = self.dt_sort();
                T::Eq(
                    Box::new(self.term(S::Dt(k), d)),
                    Box::new(self.term(S::Dt(k), d)),
                )
            }
            4 | 5 => {
                let k = self.dt_sort();
                let c = self.rng.below(DTS[k].ctors.len());
                T::Test(k, c, Box::new(self.term(S::Dt(k), d)))
            }
            6 => {
                let k = self.dt_sort();
                let n = 2 + self.rng.below(2);
                T::Distinct((0..n).map(|_| self.term(S::Dt(k), d)).collect())
            }
            7 => self.sel(S::Bool, d),
            _ => T::Le(
                Box::new(self.term(S::Int, d)),
                Box::new(self.term(S::Int, d)),
            ),
        }
    }
}

/// A random script; `planted`: built to be true under a random assignment.
pub fn generate(rng: &mut Rng, planted: bool) -> Script {
    let mut vars = vec![];
    for (k, n) in [
        (NAT, 2),
        (LST, 3),
        (TREE, 2),
        (FOREST, 2),
        (COL, 1),
        (PAIR, 1),
    ] {
        let n = if rng.flip() { n } else { 1 };
        for i in 0..n {
            vars.push((format!("{}{i}", DTS[k].name.to_lowercase()), S::Dt(k)));
        }
    }
    vars.push(("i0".into(), S::Int));
    vars.push(("i1".into(), S::Int));
    let env: Vec<V> = vars.iter().map(|(_, s)| random_value(rng, *s, 3)).collect();
    let mut g = Gen { rng, vars };
    let nclauses = 2 + g.rng.below(5);
    let mut clauses = vec![];
    for _ in 0..nclauses {
        let nlits = 1 + g.rng.below(3);
        let depth = 1 + g.rng.below(3) as u32;
        let mut lits: Vec<T> = (0..nlits)
            .map(|_| {
                let a = g.atom(depth);
                if g.rng.chance(1, 3) {
                    T::Not(Box::new(a))
                } else {
                    a
                }
            })
            .collect();
        if planted && !lits.iter().any(|l| b(eval(l, &env))) {
            let i = g.rng.below(lits.len());
            let l = lits[i].clone();
            lits[i] = match l {
                T::Not(a) => *a,
                a => T::Not(Box::new(a)),
            };
        }
        clauses.push(if lits.len() == 1 {
            lits.pop().expect("one")
        } else {
            T::Or(lits)
        });
    }
    let vars = g.vars;
    Script {
        vars,
        clauses,
        planted: planted.then_some(env),
    }
}
