//! Justice properties: the two safety reductions of [`crate::liveness`] side by side.
//!
//! One thread asks the configured engine about the looping circuit (liveness-to-safety): a
//! counterexample becomes a lasso of the input circuit and is replayed there
//! ([`crate::trace_check::check_lasso`]) before it counts; a proof counts as it is. The other
//! thread asks about the counting circuit (k-liveness) for `k = 0, 1, 2, 4, …` with IC3 (or the
//! configured engine, when one is named): a proof decides the property, a counterexample only
//! moves `k` on. The first definite answer stops the other thread. Every safety question goes
//! through [`super::solve`], so each answer is certified on the circuit it is about, and the
//! reductions and limits are those of any other run.

use super::EngineChoice;
use super::properties::{Solved, merge, overall};
use super::{SolveConfig, Validation};
use crate::engines::ic3::Ic3Config;
use crate::liveness::{counting, lasso_of_looping_trace, looping};
use crate::{Aig, EngineConfig, Verdict};
use cove_control::{Control, UnknownReason};
use std::time::{Duration, Instant};

/// One justice property's verdict: a lasso (`bad_index` = the number of bad properties +
/// `justice`) or a proof of one of the two safety circuits, with its check and engine.
pub(super) fn solve_justice(
    aig: &Aig,
    justice: usize,
    cfg: &SolveConfig,
    ctl: &Control,
) -> (Verdict, Validation, &'static str) {
    let plain = SolveConfig {
        certificate: None,
        witness: None,
        ..cfg.clone()
    };
    let (a, b) = (ctl.child(), ctl.child());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        let tx1 = tx.clone();
        let (plain, a_ctl) = (&plain, &a);
        scope.spawn(move || {
            let _ = tx1.send(by_looping(aig, justice, plain, a_ctl));
        });
        let b_ctl = &b;
        scope.spawn(move || {
            let _ = tx.send(by_counting(aig, justice, plain, b_ctl));
        });
        let mut last: Option<(Verdict, Validation, &'static str)> = None;
        for r in rx.iter() {
            if !matches!(r.0, Verdict::Unknown(_)) {
                a.stop();
                b.stop();
                return r;
            }
            // A failed check outweighs everything; a limit says more than giving up.
            let keep = match &last {
                None => true,
                Some((_, val, _)) if val.is_failed() => false,
                Some((Verdict::Unknown(UnknownReason::Incomplete(_)), _, _)) => true,
                _ => r.1.is_failed(),
            };
            if keep {
                last = Some(r);
            }
        }
        last.unwrap_or_else(|| {
            (
                Verdict::Unknown(UnknownReason::Incomplete("no liveness answer".into())),
                Validation::NotApplicable,
                "liveness",
            )
        })
    })
}

/// The looping circuit: a counterexample is a lasso, checked on `aig`.
fn by_looping(
    aig: &Aig,
    justice: usize,
    cfg: &SolveConfig,
    ctl: &Control,
) -> (Verdict, Validation, &'static str) {
    let circuit = looping(aig, justice);
    let out = super::solve(&circuit, cfg, ctl);
    match out.verdict {
        Verdict::Unsafe(t) => {
            let mut lasso = lasso_of_looping_trace(aig, &t);
            lasso.bad_index = aig.bad.len() + justice;
            match crate::trace_check::check_lasso(aig, &lasso, justice) {
                Ok(_) => (Verdict::Unsafe(lasso), out.validation, out.engine),
                Err(e) => {
                    let why = format!("lasso failed simulation on the input circuit: {e}");
                    let (v, val) = super::certify::failed(why);
                    (v, val, out.engine)
                }
            }
        }
        v => (v, out.validation, out.engine),
    }
}

/// The counting circuits for growing `k`, until one is proved or the limits stop it.
///
/// `k` doubles (0, 1, 2, 4, 8, …) instead of counting up: a proof for any `k` proves the
/// property, and a counterexample for `k` refutes every smaller `k` as well, so stepping by
/// one only re-proves what the last counterexample already said. Doubling reaches a provable
/// `k` (at most twice the least one) in logarithmically many IC3 runs; on the 12-client
/// arbiters of `tests/data/properties.tsv`, whose least `k` grows with the client's index
/// (14 to 25), that is 6 runs per property instead of up to 26.
fn by_counting(
    aig: &Aig,
    justice: usize,
    cfg: &SolveConfig,
    ctl: &Control,
) -> (Verdict, Validation, &'static str) {
    let engine = match &cfg.engine {
        EngineChoice::Portfolio(_) => EngineConfig::Ic3(Ic3Config::default()).into(),
        e => e.clone(),
    };
    let cfg = SolveConfig {
        engine,
        ..cfg.clone()
    };
    let mut k = 0;
    loop {
        let out = super::solve(&counting(aig, justice, k), &cfg, ctl);
        match out.verdict {
            Verdict::Unsafe(_) if out.validation.is_valid() => {
                k = (2 * k).max(1);
                if ctl.verbosity > 1 {
                    eprintln!("k-liveness: k = {k}");
                }
            }
            v => return (v, out.validation, out.engine),
        }
    }
}

/// The first time slice of a justice property when several are open ([`solve_all`]).
const FIRST_SLICE: Duration = Duration::from_secs(1);

/// Every property of a circuit with justice properties: the bad ones as
/// [`super::properties::solve_all`] decides them (on the circuit without its liveness
/// part), then the justice properties. No certificate file is written for such a circuit
/// (`proved` stays empty): the HWMCC certificate format covers safety only.
///
/// Justice properties are decided one at a time, so with several open they take turns in
/// rounds of time slices that double (1 s, 2 s, 4 s, …; the last open one runs without
/// a slice): a property that no engine settles must not take the time of every property
/// after it, as it would in file order. A property that ends `unknown` for a reason of its
/// own (not its slice) is settled as that `unknown`. Re-running a property in a longer slice
/// repeats at most as much work as all its earlier slices together, which is no more than the
/// slice it is settled in.
pub(super) fn solve_all(aig: &Aig, cfg: &SolveConfig, ctl: &Control) -> Solved<'static> {
    let plain = SolveConfig {
        certificate: None,
        witness: None,
        ..cfg.clone()
    };
    let safety = Aig {
        justice: Vec::new(),
        fairness: Vec::new(),
        ..aig.clone()
    };
    let mut verdicts = Vec::new();
    let mut validation = Validation::NotApplicable;
    let mut engine = cfg.engine.name();
    if !safety.bad.is_empty() {
        let s = super::properties::solve_all(&safety, &plain, ctl);
        verdicts = s.properties;
        validation = s.validation;
        engine = s.engine;
    }
    let mut justice: Vec<Option<Verdict>> = vec![None; aig.justice.len()];
    let mut open: Vec<usize> = (0..aig.justice.len()).collect();
    let mut slice = FIRST_SLICE;
    while !open.is_empty() {
        let mut still_open = Vec::new();
        for (pos, &j) in open.iter().enumerate() {
            if let Some(reason) = ctl.should_stop() {
                justice[j] = Some(Verdict::Unknown(reason));
                continue;
            }
            // The last open property (also: the only one) runs under the caller's limits.
            let alone = open.len() == 1 || (still_open.is_empty() && pos + 1 == open.len());
            let sub = if alone {
                ctl.child()
            } else {
                ctl.child_with_budget(slice)
            };
            let t0 = Instant::now();
            let (v, val, e) = solve_justice(aig, j, &plain, &sub);
            if ctl.verbosity > 0 {
                let word = match &v {
                    Verdict::Unsafe(_) => "fails".to_string(),
                    Verdict::Safe(_) => "holds".to_string(),
                    Verdict::Unknown(r) => format!("unknown ({r})"),
                };
                let secs = t0.elapsed().as_secs_f64();
                eprintln!("justice property {j}: {word} by {e} in {secs:.2} s");
            }
            let sliced_out = !alone
                && matches!(v, Verdict::Unknown(_))
                && !val.is_failed()
                && ctl.should_stop().is_none()
                && sub.should_stop().is_some();
            if sliced_out {
                still_open.push(j);
            } else {
                justice[j] = Some(v);
                validation = merge(validation, val);
                engine = e;
            }
        }
        open = still_open;
        slice = slice.saturating_mul(2);
    }
    verdicts.extend(justice.into_iter().map(|v| {
        v.unwrap_or(Verdict::Unknown(UnknownReason::Incomplete(
            "justice property not reached".into(),
        )))
    }));
    Solved {
        overall: overall(&verdicts),
        properties: verdicts,
        validation,
        engine,
        proved: None,
    }
}
