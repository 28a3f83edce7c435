use super::*;
use crate::simplex::testutil::{Cons, Rng, lin_of, random_cons, solve_lra};
use crate::simplex::{BoundTag, Rel, Simplex, TVar};
use cove_logic::Rational;

pub(super) fn q(n: i64) -> Rational {
    Rational::int(n)
}

/// Box constraints `-b ≤ x_i ≤ b` as test constraints.
pub(super) fn boxed(nvars: usize, b: i64) -> Vec<Cons> {
    (0..nvars)
        .flat_map(|i| {
            [
                Cons {
                    lin: vec![(i, 1)],
                    rel: Rel::Ge,
                    rhs: -b,
                },
                Cons {
                    lin: vec![(i, 1)],
                    rel: Rel::Le,
                    rhs: b,
                },
            ]
        })
        .collect()
}

/// Solves with the standalone procedure; tags index `cons`.
pub(super) fn solve_lia(ints: &[bool], cons: &[Cons]) -> (LiaResult, Vec<TVar>) {
    let mut s = LiaSolver::default();
    let vars: Vec<TVar> = ints.iter().map(|&i| s.add_var(i)).collect();
    for (i, c) in cons.iter().enumerate() {
        let rr = s.add_row(&lin_of(c, &vars)).unwrap();
        s.assert_rel(&rr, c.rel, &q(c.rhs), BoundTag(i as u32));
    }
    (s.solve(), vars)
}

/// Calls `f` on every integer point of `[-b, b]^n`; stops early when `f` returns true.
pub(super) fn any_point(n: usize, b: i64, mut f: impl FnMut(&[Rational]) -> bool) -> bool {
    let mut p = vec![-b; n];
    loop {
        let vals: Vec<Rational> = p.iter().map(|&x| q(x)).collect();
        if f(&vals) {
            return true;
        }
        let mut i = 0;
        loop {
            if i == n {
                return false;
            }
            if p[i] < b {
                p[i] += 1;
                break;
            }
            p[i] = -b;
            i += 1;
        }
    }
}

/// Mixed feasibility by enumeration of the integer variables in a box and exact LRA for
/// the real ones.
pub(super) fn brute_feasible(ints: &[bool], cons: &[Cons], b: i64) -> bool {
    let int_idx: Vec<usize> = (0..ints.len()).filter(|&i| ints[i]).collect();
    any_point(int_idx.len(), b, |pt| {
        if int_idx.len() == ints.len() {
            let full: Vec<Rational> = pt.to_vec();
            return cons.iter().all(|c| c.holds(&full));
        }
        let mut all = cons.to_vec();
        for (k, &i) in int_idx.iter().enumerate() {
            all.push(Cons {
                lin: vec![(i, 1)],
                rel: Rel::Eq,
                rhs: pt[k].to_i64().unwrap(),
            });
        }
        solve_lra(ints.len(), &all).is_ok()
    })
}

pub(super) fn check_model(ints: &[bool], cons: &[Cons], vars: &[TVar], m: &[Rational]) {
    let vals: Vec<Rational> = vars.iter().map(|v| m[v.idx()].clone()).collect();
    for (i, v) in vals.iter().enumerate() {
        assert!(
            !ints[i] || v.is_integer(),
            "non-integral value {v} for int var {i}"
        );
    }
    for c in cons {
        assert!(c.holds(&vals), "{c:?} fails under {vals:?}");
    }
}

#[test]
fn random_boxed_lia_against_enumeration() {
    let mut rng = Rng::new(99);
    let (mut sat, mut unsat) = (0, 0);
    for round in 0..600 {
        let nvars = rng.range(1, 3) as usize;
        let ints = vec![true; nvars];
        let mut cons = boxed(nvars, 3);
        for _ in 0..rng.range(1, 5) {
            cons.push(random_cons(&mut rng, nvars, 3, 5, 9, 2));
        }
        let (res, vars) = solve_lia(&ints, &cons);
        let brute = brute_feasible(&ints, &cons, 3);
        match res {
            LiaResult::Sat(m) => {
                sat += 1;
                check_model(&ints, &cons, &vars, &m);
            }
            LiaResult::Unsat(core) => {
                unsat += 1;
                assert!(
                    !brute,
                    "round {round}: unsat but enumeration finds a point: {cons:?}"
                );
                // The core alone must be integer-infeasible (checked on a larger box) and
                // refuted again from scratch.
                let core_cons: Vec<Cons> =
                    core.iter().map(|t| cons[t.0 as usize].clone()).collect();
                assert!(
                    !brute_feasible(&ints, &core_cons, 9),
                    "round {round}: core {core:?} feasible"
                );
                assert!(matches!(
                    solve_lia(&ints, &core_cons).0,
                    LiaResult::Unsat(_)
                ));
            }
            LiaResult::Unknown(r) => panic!("round {round}: unknown ({r:?}) on a bounded problem"),
        }
    }
    assert!(sat > 100 && unsat > 100, "sat {sat} unsat {unsat}");
}

#[test]
fn random_mixed_problems_against_enumeration() {
    let mut rng = Rng::new(1234);
    let (mut sat, mut unsat) = (0, 0);
    for round in 0..300 {
        let nvars = rng.range(2, 4) as usize;
        let ints: Vec<bool> = (0..nvars).map(|i| i == 0 || rng.chance(1, 2)).collect();
        let mut cons = boxed(nvars, 3);
        for _ in 0..rng.range(1, 4) {
            cons.push(random_cons(&mut rng, nvars, 3, 4, 7, 2));
        }
        let (res, vars) = solve_lia(&ints, &cons);
        match res {
            LiaResult::Sat(m) => {
                sat += 1;
                check_model(&ints, &cons, &vars, &m);
            }
            LiaResult::Unsat(_) => {
                unsat += 1;
                assert!(
                    !brute_feasible(&ints, &cons, 3),
                    "round {round}: {ints:?} {cons:?}"
                );
            }
            LiaResult::Unknown(r) => panic!("round {round}: unknown ({r:?})"),
        }
    }
    assert!(sat > 50 && unsat > 50, "sat {sat} unsat {unsat}");
}

/// Gomory cuts and GCD conflicts are valid at every integer point satisfying the
/// constraints they depend on (checked by enumeration), and cuts cut off the current point.
#[test]
fn cuts_and_gcd_conflicts_are_sound() {
    let mut rng = Rng::new(77);
    let (mut cuts, mut gcds) = (0, 0);
    for _ in 0..400 {
        let nvars = rng.range(2, 3) as usize;
        let mut cons = boxed(nvars, 4);
        for _ in 0..rng.range(1, 4) {
            cons.push(random_cons(&mut rng, nvars, 3, 5, 9, 3));
        }
        let mut sx = Simplex::new();
        let vars: Vec<TVar> = (0..nvars).map(|_| sx.add_var(true)).collect();
        let mut ok = true;
        for (i, c) in cons.iter().enumerate() {
            let rr = sx.add_row(&lin_of(c, &vars)).unwrap();
            ok &= sx
                .assert_rel(&rr, c.rel, &q(c.rhs), BoundTag(i as u32))
                .is_ok();
        }
        if !ok || sx.check().is_err() {
            continue;
        }
        let holds_deps =
            |deps: &[BoundTag], pt: &[Rational]| deps.iter().all(|t| cons[t.0 as usize].holds(pt));
        let eval = |lin: &[(TVar, Rational)], pt: &[Rational]| {
            let mut s = Rational::ZERO;
            for (v, a) in lin {
                let val = match sx.definition(*v) {
                    Some(d) => d
                        .iter()
                        .fold(Rational::ZERO, |acc, (w, b)| acc + b * &pt[w.idx()]),
                    None => pt[v.idx()].clone(),
                };
                s += &(a * &val);
            }
            s
        };
        if let Some(deps) = gcd_test(&sx) {
            gcds += 1;
            assert!(
                !any_point(nvars, 12, |pt| holds_deps(&deps, pt)),
                "gcd conflict {deps:?} on {cons:?}"
            );
        }
        let basics: Vec<TVar> = sx.rows().map(|(b, _)| b).collect();
        for b in basics {
            if let Some(cut) = gomory_cut(&sx, b) {
                cuts += 1;
                let current: Vec<Rational> =
                    (0..nvars).map(|i| sx.value(vars[i]).real.clone()).collect();
                assert!(
                    eval(&cut.lin, &current) < cut.bound,
                    "cut does not cut off the point"
                );
                let violated = any_point(nvars, 12, |pt| {
                    holds_deps(&cut.deps, pt) && eval(&cut.lin, pt) < cut.bound
                });
                assert!(!violated, "invalid cut {cut:?} for {cons:?}");
            }
        }
    }
    assert!(cuts > 50, "only {cuts} cuts");
    let _ = gcds;
}

pub(super) fn encode(ints: &[bool], cons: &[Cons]) -> LiaResult {
    solve_lia(ints, cons).0
}

pub(super) fn c(lin: &[(usize, i64)], rel: Rel, rhs: i64) -> Cons {
    Cons {
        lin: lin.to_vec(),
        rel,
        rhs,
    }
}

#[test]
fn unbounded_parity_is_refuted() {
    // x = 2a, x = 2b + 1 over unbounded integers.
    let cons = [
        c(&[(0, 1), (1, -2)], Rel::Eq, 0),
        c(&[(0, 1), (2, -2)], Rel::Eq, 1),
    ];
    assert_eq!(
        encode(&[true; 3], &cons),
        LiaResult::Unsat(vec![BoundTag(0), BoundTag(1)])
    );
    // x + y = 2z + 1, x = y.
    let cons = [
        c(&[(0, 1), (1, 1), (2, -2)], Rel::Eq, 1),
        c(&[(0, 1), (1, -1)], Rel::Eq, 0),
    ];
    assert!(matches!(encode(&[true; 3], &cons), LiaResult::Unsat(_)));
}

#[test]
fn mod_div_encodings() {
    // x mod 3 = 2 ∧ x mod 6 = 1: x = 3q1 + r1, 0 ≤ r1 < 3, r1 = 2; x = 6q2 + r2, r2 = 1.
    // Vars: x=0, q1=1, r1=2, q2=3, r2=4.
    let mut cons = vec![
        c(&[(0, 1), (1, -3), (2, -1)], Rel::Eq, 0),
        c(&[(2, 1)], Rel::Ge, 0),
        c(&[(2, 1)], Rel::Lt, 3),
        c(&[(2, 1)], Rel::Eq, 2),
        c(&[(0, 1), (3, -6), (4, -1)], Rel::Eq, 0),
        c(&[(4, 1)], Rel::Ge, 0),
        c(&[(4, 1)], Rel::Lt, 6),
        c(&[(4, 1)], Rel::Eq, 1),
    ];
    assert!(matches!(encode(&[true; 5], &cons), LiaResult::Unsat(_)));
    // x mod 3 = 2 ∧ x mod 5 = 1 ∧ x ≥ 100 is satisfiable (x ≡ 11 mod 15).
    cons[4] = c(&[(0, 1), (3, -5), (4, -1)], Rel::Eq, 0);
    cons[6] = c(&[(4, 1)], Rel::Lt, 5);
    cons.push(c(&[(0, 1)], Rel::Ge, 100));
    let ints = [true; 5];
    let (res, vars) = solve_lia(&ints, &cons);
    match res {
        LiaResult::Sat(m) => {
            check_model(&ints, &cons, &vars, &m);
            assert_eq!(m[vars[0].idx()].int_mod(&q(15)), q(11));
        }
        r => panic!("expected sat, got {r:?}"),
    }
    // x div 4 = y ∧ x = 4y + 5 is unsat (remainder 5 out of range).
    let cons = [
        c(&[(0, 1), (1, -4), (2, -1)], Rel::Eq, 0),
        c(&[(2, 1)], Rel::Ge, 0),
        c(&[(2, 1)], Rel::Le, 3),
        c(&[(0, 1), (1, -4)], Rel::Eq, 5),
    ];
    assert!(matches!(encode(&[true; 3], &cons), LiaResult::Unsat(_)));
}

#[test]
fn strict_bounds_on_integers_round() {
    // 0 < x < 1 has no integer solution; 2x > 1 ∧ 2x < 3 forces x = 1.
    let cons = [c(&[(0, 1)], Rel::Gt, 0), c(&[(0, 1)], Rel::Lt, 1)];
    assert!(matches!(encode(&[true], &cons), LiaResult::Unsat(_)));
    let cons = [c(&[(0, 2)], Rel::Gt, 1), c(&[(0, 2)], Rel::Lt, 3)];
    match encode(&[true], &cons) {
        LiaResult::Sat(m) => assert_eq!(m[0], q(1)),
        r => panic!("{r:?}"),
    }
}

#[test]
fn unbounded_search_reports_unknown_honestly() {
    // Under a tiny budget without cuts, any answer must be right; running out is Unknown.
    let mut s = LiaSolver::new(LiaConfig {
        max_nodes: 3,
        max_depth: 2,
        int: IntConfig {
            eager_cuts: 0,
            cut_period: 0,
            max_cuts: 0,
        },
    });
    let x = s.add_var(true);
    let y = s.add_var(true);
    let r = s.add_row(&[(x, q(7)), (y, q(-5))]).unwrap();
    s.assert_rel(&r, Rel::Ge, &Rational::new(1, 2), BoundTag(0));
    s.assert_rel(&r, Rel::Le, &Rational::new(4, 3), BoundTag(1));
    let r2 = s.add_row(&[(x, q(3)), (y, q(11))]).unwrap();
    s.assert_rel(&r2, Rel::Ge, &Rational::new(1000, 7), BoundTag(2));
    s.assert_rel(&r2, Rel::Le, &Rational::new(1001, 7), BoundTag(3));
    match s.solve() {
        LiaResult::Unknown(_) => {}
        LiaResult::Sat(m) => {
            let (xv, yv) = (&m[x.idx()], &m[y.idx()]);
            assert!(xv.is_integer() && yv.is_integer());
        }
        LiaResult::Unsat(_) => {
            // Must agree with enumeration: 7x - 5y = 1 and 3x + 11y = 143 (only integer
            // candidate value) — verify directly.
            let found = (-100..100).any(|xv: i64| {
                (-100..100).any(|yv: i64| 7 * xv - 5 * yv == 1 && 3 * xv + 11 * yv == 143)
            });
            assert!(!found);
        }
    }
}

#[test]
fn incremental_lia_push_pop() {
    let mut rng = Rng::new(4242);
    for _ in 0..60 {
        let nvars = 3;
        let ints = vec![true; nvars];
        let mut s = LiaSolver::default();
        let vars: Vec<TVar> = ints.iter().map(|&i| s.add_var(i)).collect();
        let mut active: Vec<Vec<Cons>> = vec![boxed(nvars, 3)];
        for (i, cn) in active[0].iter().enumerate() {
            let rr = s.add_row(&lin_of(cn, &vars)).unwrap();
            s.assert_rel(&rr, cn.rel, &q(cn.rhs), BoundTag(i as u32));
        }
        let mut all: Vec<Cons> = active[0].clone();
        for _ in 0..12 {
            match rng.next() % 4 {
                0 => {
                    s.push();
                    active.push(Vec::new());
                }
                1 if active.len() > 1 => {
                    s.pop(1);
                    active.pop();
                }
                _ => {
                    let cn = random_cons(&mut rng, nvars, 3, 4, 8, 2);
                    let rr = s.add_row(&lin_of(&cn, &vars)).unwrap();
                    s.assert_rel(&rr, cn.rel, &q(cn.rhs), BoundTag(all.len() as u32));
                    all.push(cn.clone());
                    active.last_mut().unwrap().push(cn);
                    let flat: Vec<Cons> = active.iter().flatten().cloned().collect();
                    let brute = brute_feasible(&ints, &flat, 3);
                    match s.solve() {
                        LiaResult::Sat(m) => check_model(&ints, &flat, &vars, &m),
                        LiaResult::Unsat(core) => {
                            assert!(!brute);
                            let core_cons: Vec<Cons> =
                                core.iter().map(|t| all[t.0 as usize].clone()).collect();
                            assert!(!brute_feasible(&ints, &core_cons, 8));
                        }
                        LiaResult::Unknown(r) => panic!("unknown {r:?}"),
                    }
                }
            }
        }
    }
}

#[test]
fn gcd_test_with_fixed_reals() {
    // 5x3 = -11, -x2 - 5x0 - 2x4 = -2, -6x4 = 1, -6x1 + 5x0 = -7; x0, x2 integer.
    let ints = [true, false, true, false, false, false];
    let cons = [
        c(&[(3, 5)], Rel::Eq, -11),
        c(&[(2, -1), (0, -5), (4, -2)], Rel::Eq, -2),
        c(&[(4, -6)], Rel::Eq, 1),
        c(&[(1, -6), (0, 5)], Rel::Eq, -7),
    ];
    assert_eq!(
        encode(&ints, &cons),
        LiaResult::Unsat(vec![BoundTag(1), BoundTag(2)])
    );
}

/// Farkas interpolants of relaxation conflicts over integer variables (bounds rounded by
/// the simplex) are integer interpolants: checked by enumeration on a box.
#[test]
fn farkas_interpolants_over_integers() {
    use crate::simplex::farkas_interpolant;
    let mut rng = Rng::new(808);
    let mut checked = 0;
    for _ in 0..400 {
        let nvars = rng.range(1, 3) as usize;
        let mut cons = boxed(nvars, 3);
        for _ in 0..rng.range(1, 4) {
            cons.push(random_cons(&mut rng, nvars, 3, 4, 8, 2));
        }
        let in_a: Vec<bool> = (0..cons.len()).map(|_| rng.chance(1, 2)).collect();
        let mut sx = Simplex::new();
        let vars: Vec<TVar> = (0..nvars).map(|_| sx.add_var(true)).collect();
        let mut conflict = None;
        for (i, cn) in cons.iter().enumerate() {
            let rr = sx.add_row(&lin_of(cn, &vars)).unwrap();
            if let Err(e) = sx.assert_rel(&rr, cn.rel, &q(cn.rhs), BoundTag(i as u32)) {
                conflict = Some(e);
                break;
            }
        }
        let conflict = match conflict.map_or_else(|| sx.check().err(), Some) {
            Some(c) => c,
            None => continue,
        };
        let itp = farkas_interpolant(&sx, &conflict, |t| in_a[t.0 as usize]);
        let holds_itp = |pt: &[Rational]| {
            let s = itp
                .lin
                .iter()
                .fold(Rational::ZERO, |acc, (v, a)| acc + a * &pt[v.idx()]);
            if itp.strict {
                s < itp.bound
            } else {
                s <= itp.bound
            }
        };
        let side = |a: bool, pt: &[Rational]| {
            cons.iter()
                .zip(&in_a)
                .filter(|(_, x)| **x == a)
                .all(|(cn, _)| cn.holds(pt))
        };
        assert!(
            !any_point(nvars, 6, |pt| side(true, pt) && !holds_itp(pt)),
            "A does not imply {itp:?}"
        );
        assert!(
            !any_point(nvars, 6, |pt| side(false, pt) && holds_itp(pt)),
            "I ∧ B satisfiable: {itp:?}"
        );
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}
