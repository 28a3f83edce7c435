//! Builds a PRISM model and prints its size, for comparisons with other tools:
//! `cargo run --release -p cove-prob --example prism_stats -- MODEL [NAME=VALUE,...] [--max-states N]`.
//! Output: `states S transitions T entries E initial I` or `error LINE:COL: message`.

use cove_prob::prism::{BuildOptions, build_lpts};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: prism_stats MODEL [NAME=VALUE,...] [--max-states N]");
        std::process::exit(1);
    };
    let mut opts = BuildOptions::default();
    let mut i = 1;
    while i < args.len() {
        if args[i] == "--max-states" {
            opts.max_states = args[i + 1].parse().expect("a number");
            i += 2;
            continue;
        }
        for c in args[i].split(',').filter(|c| !c.is_empty()) {
            let (n, v) = c.split_once('=').expect("NAME=VALUE");
            opts.constants.push((n.to_string(), v.to_string()));
        }
        i += 1;
    }
    let src = std::fs::read_to_string(path).expect("readable model");
    match build_lpts(&src, &opts) {
        Ok(l) => {
            let root = l.action_id("init").is_some() && l.state_name(l.initial()) == "init";
            let entries: usize = l.transitions().iter().map(|t| t.dist.len()).sum::<usize>()
                - if root {
                    l.outgoing(l.initial()).len()
                } else {
                    0
                };
            println!(
                "states {} transitions {} entries {entries} initial {}",
                l.num_states() - usize::from(root),
                l.num_transitions()
                    - if root {
                        l.outgoing(l.initial()).len()
                    } else {
                        0
                    },
                if root {
                    l.outgoing(l.initial()).len()
                } else {
                    1
                }
            );
        }
        Err(e) => println!("error {e}"),
    }
}
