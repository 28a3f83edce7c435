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

fn state(l: &cove_prob::Lpts, name: &str) -> usize {
    (0..l.num_states())
        .find(|&s| l.state_name(s) == name)
        .unwrap_or_else(|| panic!("no state {name}"))
}

#[test]
fn rewards_labels_and_exponents_are_read() {
    let l = build(
        "dtmc\nconst double e = 1e-1;\nmodule m\n x : [0..1];\n [a] x = 0 -> e : (x' = 1) + .9 : true;\nendmodule\n\
         rewards \"steps\"\n [a] true : 1;\n x = 1 : 2.5;\nendrewards\nrewards\n true : 1;\nendrewards\nlabel \"one\" = x = 1;\n",
    );
    assert_eq!(l.num_states(), 2);
    let d = &l.transition(l.outgoing(0)[0]).dist;
    assert_eq!(d.prob(state(&l, "x=1")), Rational::new(1, 10));
}

#[test]
fn global_variables_and_init_blocks() {
    let src = "mdp\nglobal g : [0..3];\nmodule a\n x : [0..1];\n [] x = 0 & g < 3 -> (x' = 1) & (g' = g + 1);\nendmodule\n\
               module b\n y : [0..1];\n [] y = 0 & g < 3 -> (y' = 1) & (g' = g + 1);\nendmodule\n";
    let l = build(src);
    // (g,x,y): 000, 110, 101, 211; the last deadlocks and gets a self-loop.
    assert_eq!(l.num_states(), 4);
    assert_eq!(l.num_transitions(), 5);
    // Several initial states hang below a root `init`.
    let src2 = "mdp\nmodule a\n x : [0..3];\n [step] x < 3 -> (x' = x + 1);\nendmodule\ninit x = 1 | x = 2 endinit\n";
    let l = build(src2);
    assert_eq!(l.state_name(l.initial()), "init");
    assert_eq!(l.outgoing(l.initial()).len(), 2);
    assert_eq!(l.num_states(), 4); // root + x = 1, 2, 3
    let (_, _, m) = err("module a\n x : [0..3] init 0;\nendmodule\ninit x = 1 endinit\n");
    assert!(m.contains("init"), "{m}");
    // Globals couple modules: they cannot be built one by one.
    assert!(cove_prob::prism::build_module_lpts(src, &BuildOptions::default()).is_err());
}

#[test]
fn system_composition_hiding_and_renaming() {
    // Storm (symbolic engine) builds 21 states for this model (stormpy's example
    // files/mdp/system_composition.nm).
    let src = "mdp\nmodule one\n x : [0 .. 2] init 0;\n [a] x=0 -> (x'=1);\n [] x>=0 -> (x'=2);\n [done] x>=1 -> true;\nendmodule\n\
               module two\n y : [0 .. 2] init 0;\n [b] y=0 -> (y'=1);\n [] y>=0 -> (y'=2);\n [done] y>=1 -> true;\nendmodule\n\
               module three\n z : [0 .. 2] init 0;\n [a] z=0 -> (z'=1);\n [] x=0&y=0&z=1 -> (z'=2);\n [loop] z>=1 -> true;\nendmodule\n\
               system\n ((one || two {b <- a}) / {a}) {done <- loop} || three\nendsystem\n";
    let l = build(src);
    assert_eq!(l.num_states(), 21);
    // `a` is hidden below the renaming: `three`'s `a` cannot synchronize with anything.
    let src2 = "mdp\nmodule p\n x : [0..1];\n [a] x = 0 -> (x' = 1);\nendmodule\n\
                module q\n y : [0..1];\n [a] y = 0 -> (y' = 1);\nendmodule\nsystem p ||| q endsystem\n";
    assert_eq!(build(src2).num_states(), 4); // interleaved
    let src3 = src2.replace("p ||| q", "p || q");
    assert_eq!(build(&src3).num_states(), 2); // synchronized
    let src4 = src2.replace("p ||| q", "p |[a]| q");
    assert_eq!(build(&src4).num_states(), 2);
    let (_, _, m) = err(&src2.replace("p ||| q", "p ||| r"));
    assert!(m.contains("undefined module `r`"), "{m}");
}

#[test]
fn functions_unbounded_ints_and_limits() {
    let l = build(
        "module m\n n : int init 0;\n [inc] n < func(max, 2, pow(2, 2)) & log(8, 2) = 3 & round(2.5) = 3 & floor(-0.5) = -1 -> (n' = n + 1);\nendmodule\n",
    );
    assert_eq!(l.num_states(), 5);
    let opts = BuildOptions {
        max_states: 100,
        ..Default::default()
    };
    let e = build_lpts(
        "module m\n n : int init 0;\n [inc] true -> (n' = n + 1);\nendmodule\n",
        &opts,
    )
    .unwrap_err();
    assert!(e.message.contains("more than 100"), "{e}");
}

#[test]
fn probability_sums_within_prism_tolerance() {
    let l = build(
        "dtmc\nmodule m\n x : [0..3];\n [] x = 0 -> 0.333333 : (x' = 1) + 0.333333 : (x' = 2) + 0.333333 : (x' = 3);\nendmodule\n",
    );
    let d = &l.transition(l.outgoing(0)[0]).dist;
    assert_eq!(d.prob(state(&l, "x=1")), Rational::new(1, 3));
    let (_, _, m) = err(
        "module m\n x : [0..3];\n [] x = 0 -> 0.3333 : (x' = 1) + 0.3333 : (x' = 2) + 0.3333 : (x' = 3);\nendmodule\n",
    );
    assert!(m.contains("sum to"), "{m}");
}

#[test]
fn dtmc_overlapping_guards_are_uniform_and_deadlocks_loop() {
    let src =
        "dtmc\nmodule m\n x : [0..2];\n [] x = 0 -> (x' = 1);\n [] x = 0 -> (x' = 2);\nendmodule\n";
    let l = build(src);
    // One transition: 1/2 to each (PRISM/Storm); x = 1 and x = 2 get self-loops.
    assert_eq!(l.outgoing(0).len(), 1);
    let d = &l.transition(l.outgoing(0)[0]).dist;
    assert_eq!(d.prob(state(&l, "x=1")), Rational::new(1, 2));
    assert_eq!(l.num_transitions(), 3);
    let one = state(&l, "x=1");
    assert_eq!(
        l.transition(l.outgoing(one)[0]).dist.prob(one),
        Rational::ONE
    );
    // In an mdp the same guards are a nondeterministic choice; without self-loops the
    // deadlocks stay.
    let opts = BuildOptions {
        deadlock_self_loops: false,
        ..Default::default()
    };
    let l = build_lpts(&src.replace("dtmc", "mdp"), &opts).unwrap();
    assert_eq!(l.outgoing(0).len(), 2);
    assert_eq!(l.num_transitions(), 2);
}

#[test]
fn unsupported_model_types_are_refused_clearly() {
    for t in ["ctmc", "pta", "pomdp", "ma", "smg"] {
        let (l, c, m) = err(&format!("{t}\nmodule m\n x : [0..1];\nendmodule\n"));
        assert_eq!((l, c), (1, 1));
        assert!(m.contains("not supported") && m.contains("mdp"), "{m}");
    }
}
