//! Runs one CHC file with engine options that `cove solve` does not expose (yet), for
//! measurements with `cove bench --vs`: prints `sat`/`unsat`/`unknown` after checking the
//! certificate against the input system (an invalid certificate prints `unknown`).
//!
//! `cargo run --release -p cove-chc --example engine_opts -- FILE SECS [OPTION...]`, options:
//! `engine=spacer|spacer-abs`, `variant=pba|concretize|cegar` (spacer-abs),
//! `seeds=0|1`, `reuse=0|1` (spacer-abs), `global=0|1`, `subsume=0|1`, `concretize=0|1`, `conjecture=0|1`
//! (Spacer's global guidance, also inside spacer-abs), `verbose=N` (`-v`/`-vv` trace).

use cove_chc::cert::{check_derivation, check_invariants};
use cove_chc::engines::spacer::{Spacer, SpacerConfig};
use cove_chc::engines::spacer_abs::{SpacerAbs, SpacerAbsConfig, Variant};
use cove_chc::preprocess::{PreprocessConfig, solve_preprocessed};
use cove_chc::{ChcResult, Control, Engine};
use cove_logic::TermStore;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: engine_opts FILE SECS [engine=..] [variant=..] [global=0|1] ...");
        std::process::exit(1);
    }
    let secs: f64 = args[2].parse().expect("SECS");
    let mut spacer = SpacerConfig::default();
    let mut abs = SpacerAbsConfig::default();
    let mut use_abs = false;
    let mut verbosity = 0;
    for a in &args[3..] {
        let (k, v) = a.split_once('=').expect("option=value");
        match k {
            "engine" => use_abs = v == "spacer-abs",
            "variant" => abs.variant = Variant::parse(v).expect("pba|concretize|cegar"),
            "seeds" => abs.seeds = v == "1",
            "reuse" => abs.reuse = v == "1",
            "global" => spacer.global = v == "1",
            "verbose" => verbosity = v.parse().expect("verbose=N"),
            "subsume" => spacer.subsume = v == "1",
            "concretize" => spacer.concretize = v == "1",
            "conjecture" => spacer.conjecture = v == "1",
            _ => panic!("unknown option {k}"),
        }
    }
    abs.spacer = spacer.clone();
    let mut engine: Box<dyn Engine> = if use_abs {
        Box::new(SpacerAbs::new(abs))
    } else {
        Box::new(Spacer::new(spacer))
    };
    let src = std::fs::read(&args[1]).expect("readable file");
    let mut store = TermStore::new();
    let sys = cove_chc::frontend::parse_chc(&src, &mut store).expect("parsable CHC file");
    let ctl = Control {
        deadline: Some(Instant::now() + Duration::from_secs_f64(secs)),
        verbosity,
        ..Default::default()
    };
    let opts = PreprocessConfig::default();
    let result = solve_preprocessed(&mut store, &sys, &opts, engine.as_mut(), &ctl);
    let limits = Control {
        deadline: Some(Instant::now() + Duration::from_secs(10)),
        ..Default::default()
    };
    let ok = match &result {
        ChcResult::Sat(inv) => check_invariants(&mut store, &sys, inv, &limits).is_ok(),
        ChcResult::Unsat(d) => check_derivation(&store, &sys, d).is_ok(),
        ChcResult::Unknown(_) => true,
    };
    println!("{}", if ok { result.verdict() } else { "unknown" });
    for (k, v) in engine.stats() {
        eprintln!("{k}: {v}");
    }
}
