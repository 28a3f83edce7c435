//! Liveness as safety: the two circuits through which the safety engines decide a justice
//! property ([`Aig::justice`]).
//!
//! A justice property fails when some infinite path — invariant constraints holding at every
//! step, every fairness literal true infinitely often — makes each of its literals true
//! infinitely often. A finite circuit has such a path exactly when it has one shaped like a
//! lasso: a stem to a state `s`, then a loop back to `s` on which every literal holds at
//! least once. Two reductions to safety follow, and the driver runs them side by side
//! (`driver/liveness.rs`), because each is good at one answer:
//!
//! - [`looping`] (liveness-to-safety, Biere, Artho and Schuppan, FMICS 2002) guesses the
//!   loop's start with a fresh input, keeps a copy of the state there and remembers which
//!   literals held since; its bad state is "back at the copied state with every literal
//!   seen". A counterexample *is* a lasso (the last step closes the loop), which
//!   [`crate::trace_check::check_lasso`] replays on the input circuit; a proof proves the
//!   property too, but the doubled state makes proofs hard.
//! - [`counting`] (k-liveness, Claessen and Sörensson, FMCAD 2012) counts how often all the
//!   literals have been seen ("rounds"); its bad state is round `k + 1`. A proof for some `k`
//!   says no path has more than `k` rounds, so none has infinitely many: the property
//!   holds. Its counterexamples say nothing (another `k` may succeed), so `k` grows. Proofs
//!   come at small `k` far more often than the looping circuit's do, which is why HWMCC's
//!   liveness entries lead with it.
//!
//! Both circuits keep the input circuit's inputs and latches first, in order, so a trace of
//! either starts with a trace of the input circuit; both carry the input circuit's
//! constraints, and neither has liveness properties of its own.

use crate::{ALit, Aig, And, FALSE, Init, Latch, TRUE};

/// Builds new gates and latches after an existing circuit, folding constants.
struct Extend {
    aig: Aig,
}

impl Extend {
    /// A copy of `aig`'s inputs, latches, gates and constraints, without properties.
    fn of(aig: &Aig) -> Extend {
        Extend {
            aig: Aig {
                max_var: aig.max_var,
                inputs: aig.inputs.clone(),
                latches: aig.latches.clone(),
                outputs: Vec::new(),
                bad: Vec::new(),
                constraints: aig.constraints.clone(),
                ands: aig.ands.clone(),
                justice: Vec::new(),
                fairness: Vec::new(),
            },
        }
    }

    fn var(&mut self) -> u32 {
        self.aig.max_var += 1;
        self.aig.max_var
    }

    fn input(&mut self) -> ALit {
        let v = self.var();
        self.aig.inputs.push(v);
        2 * v
    }

    /// A latch reset to 0 whose next-state function is set later ([`Extend::set_next`]).
    fn latch(&mut self) -> (usize, ALit) {
        let v = self.var();
        self.aig.latches.push(Latch {
            var: v,
            next: FALSE,
            init: Init::Zero,
        });
        (self.aig.latches.len() - 1, 2 * v)
    }

    fn set_next(&mut self, latch: usize, next: ALit) {
        self.aig.latches[latch].next = next;
    }

    fn and(&mut self, a: ALit, b: ALit) -> ALit {
        if a == FALSE || b == FALSE || a == b ^ 1 {
            return FALSE;
        }
        if a == TRUE || a == b {
            return b;
        }
        if b == TRUE {
            return a;
        }
        let v = self.var();
        self.aig.ands.push(And {
            var: v,
            rhs0: a,
            rhs1: b,
        });
        2 * v
    }

    fn or(&mut self, a: ALit, b: ALit) -> ALit {
        self.and(a ^ 1, b ^ 1) ^ 1
    }

    fn and_all(&mut self, lits: impl IntoIterator<Item = ALit>) -> ALit {
        lits.into_iter().fold(TRUE, |acc, l| self.and(acc, l))
    }

    /// `c ? a : b`.
    fn mux(&mut self, c: ALit, a: ALit, b: ALit) -> ALit {
        let x = self.and(c, a);
        let y = self.and(c ^ 1, b);
        self.or(x, y)
    }

    fn equal(&mut self, a: ALit, b: ALit) -> ALit {
        let x = self.and(a, b);
        let y = self.and(a ^ 1, b ^ 1);
        self.or(x, y)
    }
}

/// The literals a lasso of justice property `justice` must see on its loop: the property's
/// own and every fairness constraint.
fn loop_literals(aig: &Aig, justice: usize) -> Vec<ALit> {
    aig.justice[justice]
        .iter()
        .chain(&aig.fairness)
        .copied()
        .collect()
}

/// The liveness-to-safety circuit of justice property `justice` (see the module
/// documentation): the input circuit's inputs and then one more, *save*; its latches and then
/// *saved*, one copy per latch, and one *seen* flag per loop literal; one bad property.
///
/// When *save* is first 1 (at step `t`), the copies take the current state; from then on a
/// literal true at a step marks its flag. The bad property holds at step `n > t` when the
/// state equals the copy and every flag is set: steps `t..n` are a loop. A counterexample
/// therefore maps back to a lasso of the input circuit by dropping the last step and every
/// added value ([`lasso_of_looping_trace`]).
pub fn looping(aig: &Aig, justice: usize) -> Aig {
    let mut e = Extend::of(aig);
    let save = e.input();
    let (saved_i, saved) = e.latch();
    // The loop has started at or before this step.
    let started = e.or(saved, save);
    e.set_next(saved_i, started);
    let save_now = e.and(saved ^ 1, save);
    let mut same = Vec::with_capacity(aig.latches.len());
    for l in &aig.latches {
        let (copy_i, copy) = e.latch();
        let next = e.mux(save_now, 2 * l.var, copy);
        e.set_next(copy_i, next);
        same.push(e.equal(copy, 2 * l.var));
    }
    let mut seen = Vec::new();
    for x in loop_literals(aig, justice) {
        let (flag_i, flag) = e.latch();
        let now = e.and(started, x);
        let next = e.or(flag, now);
        e.set_next(flag_i, next);
        seen.push(flag);
    }
    let closed = e.and_all(same);
    let all_seen = e.and_all(seen);
    let back = e.and(saved, closed);
    let bad = e.and(back, all_seen);
    e.aig.bad.push(bad);
    e.aig
}

/// The lasso of the input circuit behind a counterexample `t` of [`looping`]`(aig, _)`: the
/// input circuit's initial values and inputs, without the last step (the one that found the
/// loop closed). `bad_index` is left as it is.
pub fn lasso_of_looping_trace(aig: &Aig, t: &crate::Trace) -> crate::Trace {
    let steps = t.inputs.len().saturating_sub(1);
    crate::Trace {
        init: t.init.iter().take(aig.latches.len()).copied().collect(),
        inputs: t.inputs[..steps]
            .iter()
            .map(|i| i.iter().take(aig.inputs.len()).copied().collect())
            .collect(),
        bad_index: t.bad_index,
    }
}

/// The k-liveness circuit of justice property `justice` for bound `k` (see the module
/// documentation): one *seen* flag per loop literal, a round ends at a step where every
/// literal is seen (or holds now) and clears the flags, and latches `c_1..c_k` record that at
/// least `i` rounds have ended; the bad property is a round ending with `c_k` set, i.e. round
/// `k + 1`. A proof of this circuit shows the justice property holds.
pub fn counting(aig: &Aig, justice: usize, k: usize) -> Aig {
    let mut e = Extend::of(aig);
    let lits = loop_literals(aig, justice);
    let mut flags = Vec::with_capacity(lits.len());
    let mut now_or_seen = Vec::with_capacity(lits.len());
    for &x in &lits {
        let (flag_i, flag) = e.latch();
        flags.push(flag_i);
        now_or_seen.push(e.or(flag, x));
    }
    let round = e.and_all(now_or_seen.iter().copied());
    for (i, &flag_i) in flags.iter().enumerate() {
        let next = e.and(now_or_seen[i], round ^ 1);
        e.set_next(flag_i, next);
    }
    // c[i] = "at least i + 1 rounds have ended before this step".
    let mut below = TRUE;
    for _ in 0..k {
        let (c_i, c) = e.latch();
        let reach = e.and(below, round);
        let next = e.or(c, reach);
        e.set_next(c_i, next);
        below = c;
    }
    let bad = e.and(below, round);
    e.aig.bad.push(bad);
    e.aig
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace_check::check_lasso;
    use crate::{Trace, parse_aiger};

    /// A toggling latch; justice: the latch is 1 infinitely often (fails: the toggle loop).
    const TOGGLE: &str = "aag 1 0 1 0 0 0 0 1 0\n2 3\n1\n2\n";

    #[test]
    fn parse_and_write_keep_liveness() {
        let a = parse_aiger(TOGGLE.as_bytes()).expect("parses");
        assert_eq!(a.justice, vec![vec![2]]);
        assert!(
            a.bad.is_empty(),
            "outputs are not properties when justice is given"
        );
        let back = parse_aiger(crate::write::to_aag(&a).as_bytes()).expect("round trip");
        assert_eq!(back, a);
    }

    #[test]
    fn looping_circuit_traces_are_lassos() {
        let a = parse_aiger(TOGGLE.as_bytes()).expect("parses");
        let l = looping(&a, 0);
        assert_eq!(l.bad.len(), 1);
        assert!(l.justice.is_empty());
        // save at step 0 (state 0), step 1 (state 1), closed at step 2 (state 0 again).
        let t = Trace {
            init: vec![false; l.latches.len()],
            inputs: vec![vec![true], vec![false], vec![false]],
            bad_index: 0,
        };
        let mut tt = t.clone();
        crate::trace_check::check_trace(&l, &mut tt).expect("a counterexample of the L2S circuit");
        let lasso = lasso_of_looping_trace(&a, &tt);
        assert_eq!(lasso.inputs.len(), 2);
        assert_eq!(check_lasso(&a, &lasso, 0), Ok(0));
    }

    #[test]
    fn counting_circuit_bad_after_k_rounds() {
        let a = parse_aiger(TOGGLE.as_bytes()).expect("parses");
        for k in 0..4 {
            let c = counting(&a, 0, k);
            // The latch is 1 at steps 1, 3, 5, …: round k + 1 ends at step 2k + 1.
            let mut t = Trace {
                init: vec![false; c.latches.len()],
                inputs: vec![vec![]; 2 * k + 2],
                bad_index: 0,
            };
            crate::trace_check::check_trace(&c, &mut t).expect("round k + 1 is reachable");
            assert_eq!(t.inputs.len(), 2 * k + 2);
        }
    }
}
