//! Thesis Fig. 2.4: the run of BndSafety for `M(m) ⊨_1 m0 >= 2m + 4` on the program of
//! Fig. 2.3. With the thesis's "maximal j" query split (our default), Cove's run at bound 1
//! is the thesis's, step for step:
//! 1. query `<D, true, 0>`, answered by MUST with the fact `d = d0 - 1`;
//! 2. query `<T, t0 < 2t, 0>` (the Fig. 2.7 projection), answered by MAY: `t0 >= 2t`;
//! 3. query `<D, d > d0 - 1, 0>`, answered by MAY: `d <= d0 - 1`;
//! 4. MAY at `<M, 1>`: `m0 >= 2m + 4`, and propagation proves safety.

use cove_chc::engines::spacer::{Spacer, SpacerConfig, TraceEvent};
use cove_chc::frontend::parse_chc;
use cove_chc::{ChcResult, Control, Engine};
use cove_logic::TermStore;

#[test]
fn fig_2_4_run_is_reproduced() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/corpus/thesis-mtd-safe.smt2");
    let src = std::fs::read(path).unwrap();
    let mut store = TermStore::new();
    let sys = parse_chc(&src, &mut store).unwrap();
    let mut spacer = Spacer::new(SpacerConfig {
        trace: true,
        ..Default::default()
    });
    let result = spacer.solve(&mut store, &sys, &Control::default());
    assert!(matches!(result, ChcResult::Sat(_)));

    // The run at bound 1 starts when M is queried at level 1.
    let trace = spacer.trace();
    let start = trace
        .iter()
        .position(|e| matches!(e, TraceEvent::Query { pred, level: 1, .. } if pred == "M"))
        .expect("M is queried at level 1");
    // M's query is re-examined after each answered child; those re-visits are not steps of
    // the figure.
    let run: Vec<String> = trace[start + 1..]
        .iter()
        .filter(|e| !matches!(e, TraceEvent::Query { pred, .. } if pred == "M"))
        .take(7)
        .map(|e| match e {
            TraceEvent::Query { pred, level, cube } => format!("query {pred}@{level}: {cube}"),
            TraceEvent::Lemma { pred, level, lemma } => format!("lemma {pred}@{level}: {lemma}"),
            TraceEvent::Fact { pred, fact } => format!("fact {pred}: {fact}"),
        })
        .collect();
    let expected = [
        // 1. <D, true, 0> by MUST: d = d0 - 1 (parameters a0 = d0, a1 = d).
        "query D@0: true",
        "fact D: (= (+ a0 (* (- 1) a1)) 1)",
        // 2. <T, t0 < 2t, 0> by MAY: t0 >= 2t.
        "query T@0: (<= (+ a0 (* (- 2) a1)) (- 1))",
        "lemma T@0: (<= (+ (* (- 1) a0) (* 2 a1)) 0)",
        // 3. <D, d > d0 - 1, 0> by MAY: d <= d0 - 1.
        "query D@0: (<= (+ a0 (* (- 1) a1)) 0)",
        "lemma D@0: (<= (+ (* (- 1) a0) a1) (- 1))",
        // 4. MAY for M at level 1: m0 >= 2m + 4.
        "lemma M@1: (<= (+ (* (- 1) a0) (* 2 a1)) (- 4))",
    ];
    assert_eq!(run, expected, "full trace: {trace:#?}");
}
