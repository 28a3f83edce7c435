//! Storm's DRN format and PRISM's explicit `.tra`/`.lab` files.

use cove_prob::drn::{parse_drn, parse_tra, write_drn};
use cove_prob::{parse_lpts, simulates};

/// As Storm 1.x/2.x writes it (`stormpy` export with choice labels and valuations).
const STORM_MDP: &str = "// Exported by storm
// Original model type: MDP
@type: MDP
@value_type: double
@parameters

@reward_models

@nr_states
3
@nr_choices
4
@model
state 0 init
//[s=0]
\taction toss
\t\t1 : 0.5
\t\t2 : 0.5
\taction skip
\t\t2 : 1
state 1
//[s=1]
\taction __NOLABEL__
\t\t0 : 1
state 2 deadlock done
//[s=2]
\taction __NOLABEL__
\t\t2 : 1
";

#[test]
fn reads_storm_output() {
    let l = parse_drn(STORM_MDP).unwrap();
    assert_eq!((l.num_states(), l.num_transitions()), (3, 4));
    assert_eq!(l.state_name(l.initial()), "[s=0]");
    let same =
        parse_lpts("init a\na -toss-> 1/2 : b + 1/2 : c\na -skip-> c\nb -tau-> a\nc -tau-> c\n")
            .unwrap();
    assert!(simulates(&l, &same) && simulates(&same, &l));
}

#[test]
fn tolerance_and_refusals() {
    // three times 0.3333333333 is accepted (PRISM's tolerance) and divided by the sum
    let d = "@type: DTMC\n@nr_states\n3\n@model\nstate 0 init\n\taction 0\n\t\t0 : 0.3333333333\n\t\t1 : 0.3333333333\n\t\t2 : 0.3333333333\nstate 1\nstate 2\n";
    let l = parse_drn(d).unwrap();
    let p = &l.transitions()[0].dist;
    assert_eq!(p.entries()[0].1, cove_logic::Rational::new(1, 3));
    // a sum that is off is an error at the action's line
    let bad = d.replace("2 : 0.3333333333", "2 : 0.3");
    let e = parse_drn(&bad).unwrap_err();
    assert_eq!(e.line, 6, "{e}");
    let ctmc = "@type: CTMC\n@nr_states\n1\n@model\nstate 0\n";
    assert!(parse_drn(ctmc).unwrap_err().message.contains("CTMC"));
}

#[test]
fn write_then_read_is_the_same_lpts() {
    let l = parse_lpts("init p\np -a-> 2/3 : s + 1/3 : t\np -a-> s\ns -b-> 1/7 : s + 6/7 : p\n")
        .unwrap();
    let back = parse_drn(&write_drn(&l)).unwrap();
    assert_eq!(back.num_states(), l.num_states());
    assert_eq!(back.num_transitions(), l.num_transitions());
    assert!(simulates(&l, &back) && simulates(&back, &l));
}

#[test]
fn reads_prism_explicit_files() {
    // an MDP: states choices transitions, then src choice dst prob [action]
    let tra = "3 3 4\n0 0 1 0.5\n0 0 2 0.5\n0 1 2 1 skip\n1 0 0 1\n";
    let lab = "0=\"init\" 1=\"deadlock\"\n1: 0\n2: 1\n";
    let l = parse_tra(tra, Some(lab)).unwrap();
    assert_eq!((l.num_states(), l.num_transitions()), (3, 3));
    assert_eq!(l.state_name(l.initial()), "s1");
    // a DTMC without labels starts in state 0
    let l = parse_tra("2 2\n0 1 1\n1 1 1\n", None).unwrap();
    assert_eq!(l.state_name(l.initial()), "s0");
    assert_eq!(parse_tra("2 2\n0 1 2\n", None).unwrap_err().line, 2);
}
