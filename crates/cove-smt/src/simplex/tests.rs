use super::testutil::{Cons, Rng, assert_cons, check_farkas, lin_of, random_cons, solve_lra};
use super::*;
use cove_logic::Rational;

fn q(n: i64) -> Rational {
    Rational::int(n)
}

fn dq(n: i64) -> DeltaRational {
    DeltaRational::from(n)
}

#[test]
fn strict_bounds_give_open_interval_model() {
    let mut sx = Simplex::new();
    let x = sx.add_var(false);
    sx.assert_lower(x, DeltaRational::above(q(0)), BoundTag(0))
        .unwrap();
    sx.assert_upper(x, DeltaRational::below(q(1)), BoundTag(1))
        .unwrap();
    sx.check().unwrap();
    let m = sx.concrete_model();
    assert!(m[0] > q(0) && m[0] < q(1));
}

#[test]
fn strict_conflict_has_exact_certificate() {
    // x + y <= 1, x >= 1, y > 0
    let mut sx = Simplex::new();
    let x = sx.add_var(false);
    let y = sx.add_var(false);
    let s = sx.add_row(&[(x, q(2)), (y, q(2))]).unwrap();
    assert_eq!(s.factor, Rational::new(1, 2));
    sx.assert_rel(&s, Rel::Le, &q(1), BoundTag(0)).unwrap();
    sx.assert_lower(x, dq(1), BoundTag(1)).unwrap();
    sx.assert_lower(y, DeltaRational::above(q(0)), BoundTag(2))
        .unwrap();
    let c = sx.check().unwrap_err();
    assert!(c.verify(&sx), "{c:?}");
    assert_eq!(c.tags(), vec![BoundTag(0), BoundTag(1), BoundTag(2)]);
}

#[test]
fn rows_are_shared_up_to_scaling() {
    let mut sx = Simplex::new();
    let x = sx.add_var(false);
    let y = sx.add_var(false);
    let a = sx.add_row(&[(x, q(1)), (y, q(-2))]).unwrap();
    let b = sx.add_row(&[(y, q(4)), (x, q(-2))]).unwrap();
    assert_eq!(a.var, b.var);
    assert_eq!(a.factor, q(1));
    assert_eq!(b.factor, Rational::new(-1, 2));
    let c = sx.add_row(&[(x, Rational::new(3, 2))]).unwrap();
    assert_eq!((c.var, c.factor), (x, Rational::new(2, 3)));
    assert!(sx.add_row(&[(x, q(1)), (x, q(-1))]).is_none());
    // A form over a slack is expanded: (x - 2y) + y = x - y.
    let d = sx.add_row(&[(a.var, q(1)), (y, q(1))]).unwrap();
    assert_eq!(sx.definition(d.var).unwrap(), &[(x, q(1)), (y, q(-1))]);
}

/// Random LRA conjunctions: models are checked by evaluation, conflicts by the
/// independent Farkas checker.
#[test]
fn random_lra_conjunctions() {
    let mut rng = Rng::new(7);
    let (mut sat, mut unsat) = (0, 0);
    for round in 0..1500 {
        let nvars = rng.range(1, 6) as usize;
        let ncons = rng.range(1, 9) as usize;
        let cons: Vec<Cons> = (0..ncons)
            .map(|_| random_cons(&mut rng, nvars, 4, 4, 6, 1))
            .collect();
        let mut sx = Simplex::new();
        if round % 2 == 0 {
            sx.set_bland_threshold(0);
        }
        let vars: Vec<TVar> = (0..nvars).map(|_| sx.add_var(false)).collect();
        let mut record = Vec::new();
        let mut result = Ok(());
        for (i, c) in cons.iter().enumerate() {
            let (rr, r) = assert_cons(&mut sx, &vars, c, i as u32);
            record.push((c.clone(), rr));
            if r.is_err() {
                result = r;
                break;
            }
        }
        if result.is_ok() {
            result = sx.check();
        }
        sx.check_invariants().unwrap();
        match result {
            Ok(()) => {
                sat += 1;
                let m = sx.concrete_model();
                let vals: Vec<Rational> = vars.iter().map(|v| m[v.idx()].clone()).collect();
                for c in &cons {
                    assert!(c.holds(&vals), "round {round}: {c:?} fails under {vals:?}");
                }
            }
            Err(conf) => {
                unsat += 1;
                assert!(conf.verify(&sx));
                let ints = vec![false; record.len()];
                check_farkas(&conf.terms, &record, &ints, nvars)
                    .unwrap_or_else(|e| panic!("round {round}: {e}\n{cons:?}\n{conf:?}"));
            }
        }
    }
    assert!(sat > 200 && unsat > 200, "sat {sat} unsat {unsat}");
}

/// Push/pop sequences against solving the active constraints from scratch.
#[test]
fn incremental_push_pop_matches_scratch() {
    let mut rng = Rng::new(11);
    for round in 0..150 {
        let nvars = rng.range(2, 5) as usize;
        let mut sx = Simplex::new();
        let vars: Vec<TVar> = (0..nvars).map(|_| sx.add_var(false)).collect();
        // Stack of frames; each frame holds its constraints (tags index `all`).
        let mut frames: Vec<Vec<usize>> = vec![Vec::new()];
        let mut all: Vec<Cons> = Vec::new();
        let mut record = Vec::new();
        let mut failed_at: Option<usize> = None; // frame depth where an assert failed
        for _step in 0..40 {
            match rng.next() % 6 {
                0 => {
                    sx.push();
                    frames.push(Vec::new());
                }
                1 if frames.len() > 1 => {
                    let k = rng.range(1, frames.len() as i64 - 1) as usize;
                    sx.pop(k);
                    frames.truncate(frames.len() - k);
                    if failed_at.is_some_and(|d| d >= frames.len()) {
                        failed_at = None;
                    }
                }
                _ => {
                    if failed_at.is_some() {
                        continue;
                    }
                    let c = random_cons(&mut rng, nvars, 3, 3, 5, 1);
                    let tag = all.len();
                    let (rr, r) = assert_cons(&mut sx, &vars, &c, tag as u32);
                    all.push(c.clone());
                    record.push((c, rr));
                    frames.last_mut().unwrap().push(tag);
                    if let Err(conf) = r {
                        let ints = vec![false; record.len()];
                        check_farkas(&conf.terms, &record, &ints, nvars).unwrap();
                        failed_at = Some(frames.len() - 1);
                        continue;
                    }
                    let active: Vec<Cons> =
                        frames.iter().flatten().map(|&t| all[t].clone()).collect();
                    let scratch = solve_lra(nvars, &active);
                    match sx.check() {
                        Ok(()) => {
                            assert!(
                                scratch.is_ok(),
                                "round {round}: incremental sat, scratch unsat"
                            );
                            let m = sx.concrete_model();
                            let vals: Vec<Rational> =
                                vars.iter().map(|v| m[v.idx()].clone()).collect();
                            assert!(active.iter().all(|c| c.holds(&vals)));
                        }
                        Err(conf) => {
                            assert!(
                                scratch.is_err(),
                                "round {round}: incremental unsat, scratch sat"
                            );
                            let ints = vec![false; record.len()];
                            check_farkas(&conf.terms, &record, &ints, nvars).unwrap();
                            let active_tags: Vec<usize> =
                                frames.iter().flatten().copied().collect();
                            assert!(
                                conf.terms
                                    .iter()
                                    .all(|t| active_tags.contains(&(t.tag.0 as usize)))
                            );
                            failed_at = Some(frames.len() - 1);
                        }
                    }
                    sx.check_invariants().unwrap();
                }
            }
        }
    }
}

/// Interpolants: A ⊨ I, and I ∧ B is unsatisfiable; I mentions only shared variables.
#[test]
fn farkas_interpolants_are_interpolants() {
    let mut rng = Rng::new(23);
    let mut checked = 0;
    for _ in 0..800 {
        let nvars = rng.range(2, 5) as usize;
        let ncons = rng.range(2, 8) as usize;
        let cons: Vec<Cons> = (0..ncons)
            .map(|_| random_cons(&mut rng, nvars, 3, 3, 5, 1))
            .collect();
        let in_a: Vec<bool> = (0..ncons).map(|_| rng.chance(1, 2)).collect();
        let mut sx = Simplex::new();
        let vars: Vec<TVar> = (0..nvars).map(|_| sx.add_var(false)).collect();
        let mut conflict = None;
        for (i, c) in cons.iter().enumerate() {
            if let (_, Err(e)) = assert_cons(&mut sx, &vars, c, i as u32) {
                conflict = Some(e);
                break;
            }
        }
        let conflict = match conflict {
            Some(c) => c,
            None => match sx.check() {
                Ok(()) => continue,
                Err(c) => c,
            },
        };
        let itp = farkas_interpolant(&sx, &conflict, |t| in_a[t.0 as usize]);
        // Shared variables only.
        let occurs = |side: bool, v: usize| {
            cons.iter()
                .zip(&in_a)
                .any(|(c, &a)| a == side && c.lin.iter().any(|(w, _)| *w == v))
        };
        for (v, _) in &itp.lin {
            let i = vars.iter().position(|w| w == v).expect("problem variable");
            assert!(
                occurs(true, i) && occurs(false, i),
                "non-shared variable in {itp:?}"
            );
        }
        // I as test constraints over small integer coefficients (scale to integers).
        let (i_cons, i_neg) = interpolant_cons(&itp, &vars);
        let a_part: Vec<Cons> = cons
            .iter()
            .zip(&in_a)
            .filter(|(_, a)| **a)
            .map(|(c, _)| c.clone())
            .collect();
        let b_part: Vec<Cons> = cons
            .iter()
            .zip(&in_a)
            .filter(|(_, a)| !**a)
            .map(|(c, _)| c.clone())
            .collect();
        if let Some(neg) = i_neg {
            let mut a_not_i = a_part.clone();
            a_not_i.push(neg);
            assert!(
                solve_lra(nvars, &a_not_i).is_err(),
                "A does not imply {itp:?}"
            );
        } else {
            // I is a constant: true unless the constant is false.
            assert!(itp_constant_true(&itp) || solve_lra(nvars, &a_part).is_err());
        }
        let mut i_b = b_part.clone();
        match i_cons {
            Some(c) => i_b.push(c),
            None if itp_constant_true(&itp) => {}
            None => continue, // I is false: trivially unsat with B.
        }
        assert!(
            solve_lra(nvars, &i_b).is_err(),
            "I ∧ B satisfiable: {itp:?}"
        );
        checked += 1;
    }
    assert!(checked > 100, "only {checked} interpolants checked");
}

fn itp_constant_true(itp: &Interpolant) -> bool {
    if itp.strict {
        Rational::ZERO < itp.bound
    } else {
        Rational::ZERO <= itp.bound
    }
}

/// `I` and `¬I` as test constraints (None when `I` has no variables).
fn interpolant_cons(itp: &Interpolant, vars: &[TVar]) -> (Option<Cons>, Option<Cons>) {
    if itp.lin.is_empty() {
        return (None, None);
    }
    let mut den = Rational::ONE;
    for (_, a) in &itp.lin {
        den = den.lcm(&Rational::from_bigint(a.denom()));
    }
    den = den.lcm(&Rational::from_bigint(itp.bound.denom()));
    let lin: Vec<(usize, i64)> = itp
        .lin
        .iter()
        .map(|(v, a)| {
            (
                vars.iter().position(|w| w == v).unwrap(),
                (a * &den).to_i64().unwrap(),
            )
        })
        .collect();
    let rhs = (&itp.bound * &den).to_i64().unwrap();
    let (rel, neg) = if itp.strict {
        (Rel::Lt, Rel::Ge)
    } else {
        (Rel::Le, Rel::Gt)
    };
    (
        Some(Cons {
            lin: lin.clone(),
            rel,
            rhs,
        }),
        Some(Cons { lin, rel: neg, rhs }),
    )
}

/// Implied bounds: each reason's Farkas sum is exactly the implied bound, and the bound
/// holds in every model (checked: constraints ∧ ¬bound is unsat).
#[test]
fn implied_bounds_are_explained_and_valid() {
    let mut rng = Rng::new(5);
    let mut seen = 0;
    for _ in 0..400 {
        let nvars = rng.range(2, 4) as usize;
        let ncons = rng.range(2, 6) as usize;
        let cons: Vec<Cons> = (0..ncons)
            .map(|_| random_cons(&mut rng, nvars, 3, 3, 5, 1))
            .collect();
        let mut sx = Simplex::new();
        let vars: Vec<TVar> = (0..nvars).map(|_| sx.add_var(false)).collect();
        let mut ok = true;
        for (i, c) in cons.iter().enumerate() {
            ok &= assert_cons(&mut sx, &vars, c, i as u32).1.is_ok();
        }
        if !ok || sx.check().is_err() {
            continue;
        }
        for ib in sx.implied_bounds() {
            seen += 1;
            let (lin, c) = linear_combination(&sx, &ib.reason);
            let expect = match sx.definition(ib.var) {
                Some(d) => d.to_vec(),
                None => vec![(ib.var, q(1))],
            };
            let (expect, rhs) = match ib.kind {
                BoundKind::Upper => (expect, ib.bound.clone()),
                BoundKind::Lower => (
                    expect.into_iter().map(|(v, a)| (v, -a)).collect(),
                    ib.bound.neg(),
                ),
            };
            assert_eq!(lin, expect);
            assert_eq!(c, rhs);
            // Semantic check with a fresh solver: the negated bound must be infeasible.
            let mut fresh = Simplex::new();
            let fv: Vec<TVar> = (0..nvars).map(|_| fresh.add_var(false)).collect();
            for (i, c) in cons.iter().enumerate() {
                assert_cons(&mut fresh, &fv, c, i as u32).1.unwrap();
            }
            let lin_b: Vec<(TVar, Rational)> = expect_form(&sx, ib.var, &vars, &fv);
            let rr = fresh.add_row(&lin_b).unwrap();
            let rel = match (ib.kind, ib.bound.delta.signum()) {
                (BoundKind::Upper, d) if d < 0 => Rel::Ge,
                (BoundKind::Upper, _) => Rel::Gt,
                (BoundKind::Lower, d) if d > 0 => Rel::Le,
                (BoundKind::Lower, _) => Rel::Lt,
            };
            let r = fresh.assert_rel(&rr, rel, &ib.bound.real, BoundTag(999));
            assert!(
                r.is_err() || fresh.check().is_err(),
                "implied bound {ib:?} not valid"
            );
        }
    }
    assert!(seen > 50, "only {seen} implied bounds");
}

fn expect_form(sx: &Simplex, v: TVar, vars: &[TVar], fv: &[TVar]) -> Vec<(TVar, Rational)> {
    let map = |w: TVar| fv[vars.iter().position(|x| *x == w).unwrap()];
    match sx.definition(v) {
        Some(d) => d.iter().map(|(w, a)| (map(*w), a.clone())).collect(),
        None => vec![(map(v), q(1))],
    }
}

/// A chain of equalities forces many pivots; Bland-only and heuristic runs agree.
#[test]
fn long_chain_pivots() {
    for bland in [0, 1000] {
        let n = 60;
        let mut sx = Simplex::new();
        sx.set_bland_threshold(bland);
        let xs: Vec<TVar> = (0..n).map(|_| sx.add_var(false)).collect();
        let mut tag = 0;
        for i in 0..n - 1 {
            let c = Cons {
                lin: vec![(i + 1, 1), (i, -1)],
                rel: Rel::Ge,
                rhs: 1,
            };
            let rr = sx.add_row(&lin_of(&c, &xs)).unwrap();
            sx.assert_rel(&rr, c.rel, &q(c.rhs), BoundTag(tag)).unwrap();
            tag += 1;
        }
        sx.assert_lower(xs[0], dq(0), BoundTag(tag)).unwrap();
        sx.assert_upper(xs[n - 1], dq(n as i64 - 1), BoundTag(tag + 1))
            .unwrap();
        sx.check().unwrap();
        let m = sx.concrete_model();
        for (i, x) in xs.iter().enumerate() {
            assert_eq!(m[x.idx()], q(i as i64));
        }
        sx.push();
        sx.assert_upper(
            xs[n - 1],
            DeltaRational::below(q(n as i64 - 1)),
            BoundTag(tag + 2),
        )
        .unwrap();
        let c = sx.check().unwrap_err();
        assert!(c.verify(&sx));
        assert_eq!(c.terms.len(), n + 1);
        sx.pop(1);
        sx.check().unwrap();
    }
}

#[test]
fn limited_check_resumes() {
    let n = 30;
    let mut sx = Simplex::new();
    let xs: Vec<TVar> = (0..n).map(|_| sx.add_var(false)).collect();
    for i in 0..n - 1 {
        let rr = sx.add_row(&[(xs[i + 1], q(1)), (xs[i], q(-1))]).unwrap();
        sx.assert_rel(&rr, Rel::Ge, &q(1), BoundTag(i as u32))
            .unwrap();
    }
    sx.assert_lower(xs[0], dq(0), BoundTag(100)).unwrap();
    let mut rounds = 0;
    while !sx.check_limited(3).unwrap() {
        rounds += 1;
        sx.check_invariants().unwrap();
    }
    assert!(rounds > 0);
    let m = sx.concrete_model();
    assert!((0..n - 1).all(|i| &m[xs[i + 1].idx()] - &m[xs[i].idx()] >= q(1)));
}
