//! PRISM-subset front end: exploration results and errors with line:column.

use cove_logic::Rational;
use cove_prob::prism::{BuildOptions, build_lpts};

fn build(src: &str) -> cove_prob::Lpts {
    build_lpts(src, &BuildOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn err(src: &str) -> (usize, usize, String) {
    let e = build_lpts(src, &BuildOptions::default()).unwrap_err();
    (e.line, e.col, e.message)
}

const COIN: &str = "mdp
const double p = 0.25;
formula done = x = 2;
module coin
  x : [0..2] init 0;
  [toss] x = 0 -> p : (x' = 1) + 1 - p : (x' = 2);
  [toss] x = 0 -> 1/2 : (x' = 1) + 1/2 : (x' = 2);
  [stop] done -> true;
  [again] x = 1 -> (x' = 0);
endmodule
";

#[test]
fn explores_a_single_module() {
    let l = build(COIN);
    assert_eq!(l.num_states(), 3);
    assert_eq!(l.num_transitions(), 4);
    assert!(!l.is_reactive());
    let toss = l.action_id("toss").unwrap();
    let t = l
        .outgoing(0)
        .iter()
        .map(|&t| l.transition(t))
        .find(|t| t.action == toss)
        .unwrap();
    let one = (0..l.num_states())
        .find(|&s| l.state_name(s) == "x=1")
        .unwrap();
    assert_eq!(t.dist.prob(one), Rational::new(1, 4));
}

#[test]
fn synchronizes_and_renames() {
    let src = "mdp
module a
  s : [0..1];
  [go] s = 0 -> 1/2 : (s' = 1) + 1/2 : (s' = 0);
  [back] s = 1 -> (s' = 0);
endmodule
module b = a [s = t, back = back2] endmodule
";
    let l = build(src);
    // go synchronizes (product of two coin flips), back/back2 interleave.
    assert_eq!(l.num_states(), 4);
    let go = l.action_id("go").unwrap();
    let t = l.transition(l.outgoing(0)[0]);
    assert_eq!(t.action, go);
    assert_eq!(t.dist.len(), 4);
    assert!(
        t.dist
            .entries()
            .iter()
            .all(|(_, p)| *p == Rational::new(1, 4))
    );
    assert!(l.action_id("back2").is_some());
}

#[test]
fn constants_from_outside() {
    let src = "const int N;\nmodule m\n x : [0..N];\n [inc] x < N -> (x' = x + 1);\nendmodule\n";
    let opts = BuildOptions {
        constants: vec![("N".into(), "5".into())],
        ..Default::default()
    };
    assert_eq!(build_lpts(src, &opts).unwrap().num_states(), 6);
    let (l, c, m) = err(src);
    assert_eq!((l, c), (1, 11));
    assert!(m.contains("no value"));
}

#[test]
fn undefined_identifier_has_position() {
    let (l, c, m) = err("module m\n  x : [0..2];\n  [a] x = 0 -> (x' = y + 1);\nendmodule\n");
    assert_eq!((l, c), (3, 22));
    assert!(m.contains("undefined identifier `y`"), "{m}");
}

#[test]
fn out_of_range_update_has_position() {
    let (l, c, m) = err("module m\n  x : [0..2];\n  [a] true -> (x' = x + 1);\nendmodule\n");
    assert_eq!((l, c), (3, 16));
    assert!(m.contains("outside its range"), "{m}");
}

#[test]
fn probabilities_must_sum_to_one() {
    let (l, c, m) = err(
        "module m\n  x : [0..2];\n  [a] x = 0 -> 0.5 : (x' = 1) + 0.4 : (x' = 2);\nendmodule\n",
    );
    assert_eq!((l, c), (3, 3));
    assert!(m.contains("sum to 9/10"), "{m}");
}

#[test]
fn syntax_errors_have_positions() {
    let (l, c, m) = err("module m\n  x : [0..2]\n  [a] true -> true;\nendmodule\n");
    assert_eq!((l, c), (3, 3));
    assert!(m.contains("expected `;`"), "{m}");
    let (l, c, _) = err("module m\n  x : [0..2];\n  [a] x = 0 -> (x' = 1);\n");
    assert_eq!((l, c), (4, 1));
    let (l, c, m) = err("module m\n  x : [0..2];\n  [a] x = 0 -> (x' = true);\nendmodule\n");
    assert_eq!((l, c), (3, 17));
    assert!(m.contains("type"), "{m}");
    let (l, c, m) =
        err("module m\n  x : [0..2];\nendmodule\nmodule n\n  [a] true -> (x' = 1);\nendmodule\n");
    assert_eq!((l, c), (5, 16));
    assert!(m.contains("another module"), "{m}");
}

#[test]
fn unlabelled_commands_are_tau() {
    let l = build("module m\n b : bool;\n [] !b -> (b' = true);\nendmodule\n");
    assert_eq!(l.num_states(), 2);
    assert_eq!(l.action_name(l.transition(0).action), "tau");
}

#[test]
fn conditional_expressions() {
    let l = build(
        "const int K = 2;\nmodule m\n x : [0..3];\n [a] x < 3 -> (x < K ? 1/3 : 2/3) : (x' = x + 1) + (x < K ? 2/3 : 1/3) : (x' = 0);\nendmodule\n",
    );
    assert_eq!(l.num_states(), 4);
}
