//! Graphviz DOT output for LPTSes and counterexample trees.
//!
//! A transition `s −a→ μ` is drawn as an edge labelled `a` from `s` to a small point node
//! standing for `μ`, and from there one edge per support state labelled with its exact
//! probability (Dirac transitions are drawn as a single edge). The start state has a
//! double border.

use crate::lpts::Lpts;
use std::fmt::Write as _;

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// DOT text for `l`. `extra_label(s)` adds a second label line to state `s` (for example
/// the execution mapping of a counterexample); return `None` for no extra line.
pub fn to_dot_with(l: &Lpts, name: &str, extra_label: &dyn Fn(usize) -> Option<String>) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "digraph \"{}\" {{", esc(name));
    let _ = writeln!(o, "  rankdir=TB;\n  node [shape=circle, fontsize=10];");
    for s in 0..l.num_states() {
        let mut label = esc(l.state_name(s));
        if let Some(x) = extra_label(s) {
            let _ = write!(label, "\\n[{}]", esc(&x));
        }
        let shape = if s == l.initial() {
            ", shape=doublecircle"
        } else {
            ""
        };
        let _ = writeln!(o, "  n{s} [label=\"{label}\"{shape}];");
    }
    for (i, t) in l.transitions().iter().enumerate() {
        let a = esc(l.action_name(t.action));
        if t.dist.is_dirac() {
            let tgt = t.dist.entries()[0].0;
            let _ = writeln!(o, "  n{} -> n{tgt} [label=\"{a}\"];", t.src);
        } else {
            let _ = writeln!(o, "  d{i} [shape=point, width=0.08];");
            let _ = writeln!(o, "  n{} -> d{i} [label=\"{a}\", arrowhead=none];", t.src);
            for (s, p) in t.dist.entries() {
                let _ = writeln!(o, "  d{i} -> n{s} [label=\"{p}\", style=dashed];");
            }
        }
    }
    o.push_str("}\n");
    o
}

/// DOT text for `l` with state names only.
pub fn to_dot(l: &Lpts, name: &str) -> String {
    to_dot_with(l, name, &|_| None)
}
