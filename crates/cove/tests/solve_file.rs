//! `cove::solve_file` on each input language: the answers in the language's convention,
//! checked, one per question; refusals typed; and the one-answer guarantee when a phase
//! cannot stop (a read that blocks on a pipe).

use cove::solve_file::{Detail, solve_file_all};
use cove::{Control, FileConfig, FileError, InputFormat, Safety, solve_file};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn data(rel: &str) -> PathBuf {
    repo().join("crates/cove-aig/tests/data").join(rel)
}

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cove-solve-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn horn_clauses_one_answer_per_question_with_witnesses() {
    let f = temp(
        "two.smt2",
        "(set-logic HORN)
         (declare-fun inv (Int) Bool)
         (assert (forall ((x Int)) (=> (= x 0) (inv x))))
         (assert (forall ((x Int)) (=> (and (inv x) (< x 10)) (inv (+ x 1)))))
         (assert (forall ((x Int)) (=> (and (inv x) (> x 10)) false)))
         (check-sat)
         (assert (forall ((x Int)) (=> (and (inv x) (= x 3)) false)))
         (check-sat)",
    );
    let config = FileConfig {
        model: true,
        counterexample: true,
        ..FileConfig::with_engine("spacer", 1).unwrap()
    };
    let answers = solve_file_all(&f, &config, &Control::default()).unwrap();
    assert_eq!(answers.len(), 2);
    let (sat, unsat) = (&answers[0], &answers[1]);
    assert_eq!(
        (sat.format, sat.safety, sat.verdict),
        (InputFormat::Chc, Safety::Safe, "sat")
    );
    assert!(
        sat.text.starts_with("sat\n(define-fun inv ((x0 Int)) Bool"),
        "{}",
        sat.text
    );
    assert_eq!(sat.validation, "valid");
    assert!(matches!(sat.detail, Detail::Chc(_)));
    assert_eq!((unsat.safety, unsat.verdict), (Safety::Unsafe, "unsat"));
    assert!(
        unsat.witness.as_deref().unwrap().contains("(derivation"),
        "{}",
        unsat.text
    );
    assert!(!unsat.overran && !unsat.certificate_failed);
}

#[test]
fn aiger_answers_in_the_hwmcc_convention() {
    let ctl = Control::default();
    let config = FileConfig::default();
    let safe = solve_file_all(&data("mod6_safe.aag"), &config, &ctl).unwrap();
    assert_eq!(safe.len(), 1);
    assert_eq!(
        (safe[0].format, safe[0].safety),
        (InputFormat::Aiger, Safety::Safe)
    );
    assert_eq!(
        (safe[0].verdict, safe[0].text.as_str()),
        ("safe", "0\nb0\n.\n")
    );
    assert_eq!(safe[0].validation, "valid");
    assert_eq!(safe[0].properties, vec![("b0".to_string(), Safety::Safe)]);
    // Binary AIGER, one engine by name.
    let ic3 = FileConfig::with_engine("ic3", 1).unwrap();
    let unsafe_ = solve_file_all(&data("counter4_unsafe.aig"), &ic3, &ctl).unwrap();
    assert_eq!(unsafe_[0].safety, Safety::Unsafe);
    assert!(
        unsafe_[0].text.starts_with("1\nb0\n"),
        "{}",
        unsafe_[0].text
    );
    assert!(matches!(unsafe_[0].detail, Detail::Aiger(_)));
}

#[test]
fn btor2_answers_with_word_level_witnesses() {
    let ctl = Control::default();
    let config = FileConfig::default();
    let safe = solve_file_all(&data("btor2/counter_safe.btor2"), &config, &ctl).unwrap();
    assert_eq!(
        (safe[0].format, safe[0].safety),
        (InputFormat::Btor2, Safety::Safe)
    );
    assert_eq!(safe[0].text, "unsat\nb0\n.\n");
    let bad = solve_file_all(&data("btor2/counter_unsafe.btor2"), &config, &ctl).unwrap();
    assert_eq!((bad[0].safety, bad[0].verdict), (Safety::Unsafe, "unsafe"));
    assert!(bad[0].text.starts_with("sat\nb0\n#0\n"), "{}", bad[0].text);
    assert!(bad[0].text.ends_with(".\n"));
    assert_eq!(bad[0].validation, "valid");
}

#[test]
fn refusals_are_typed_and_positioned() {
    let ctl = Control::default();
    let circuit_engine = FileConfig::with_engine("ic3", 0).unwrap();
    let chc = repo().join("examples/counter.smt2");
    match solve_file_all(&chc, &circuit_engine, &ctl) {
        Err(FileError::Config(m)) => assert!(m.contains("not Horn clauses"), "{m}"),
        other => panic!("{:?}", other.map(|v| v.len())),
    }
    assert!(
        FileConfig::with_engine("magic", 0)
            .unwrap_err()
            .contains("unknown engine")
    );
    let broken = temp("broken.aag", "aag 1 1 0 1 0\n2\n9\n");
    match solve_file_all(&broken, &FileConfig::default(), &ctl) {
        Err(FileError::Input(m)) => assert!(m.contains("broken.aag:"), "{m}"),
        other => panic!("{:?}", other.map(|v| v.len())),
    }
    let bad_btor = temp("bad.btor2", "1 sort bitvec 4\n2 frobnicate 1\n");
    match solve_file_all(&bad_btor, &FileConfig::default(), &ctl) {
        Err(FileError::Input(m)) => assert!(m.contains("bad.btor2:2:"), "{m}"),
        other => panic!("{:?}", other.map(|v| v.len())),
    }
    let missing = repo().join("no-such-file.smt2");
    assert!(matches!(
        solve_file_all(&missing, &FileConfig::default(), &ctl),
        Err(FileError::Io(_))
    ));
}

/// A read that blocks (a pipe no one writes to) cannot poll the limit: the caller still gets
/// its one `unknown`, marked as an overrun, soon after the deadline.
#[cfg(unix)]
#[test]
fn a_phase_that_cannot_stop_still_gets_one_answer() {
    let dir = std::env::temp_dir().join(format!("cove-solve-file-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pipe = dir.join("stuck.aag");
    let made = std::process::Command::new("mkfifo").arg(&pipe).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("mkfifo unavailable: skipped");
        return;
    }
    let ctl = Control::default().with_timeout(std::time::Duration::from_millis(200));
    let mut answers = vec![];
    let n = solve_file(&pipe, &FileConfig::default(), &ctl, |a| answers.push(a)).unwrap();
    assert_eq!(n, 1);
    let a = &answers[0];
    assert!(a.overran);
    assert_eq!((a.safety, a.text.as_str()), (Safety::Unknown, "2\nb0\n.\n"));
    // Let the blocked reader go.
    let _ = std::fs::OpenOptions::new().write(true).open(&pipe);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The generated BTOR2 memories, through the facade: the small ones bit-blasted, those too
/// large for the blaster (2^20 and 2^32 cells) decided as Horn clauses over arrays. Every
/// answer is the known one and checked; every witness replays on the model as read.
#[test]
fn btor2_memories_of_every_size_have_their_known_answers() {
    let dir = data("btor2/memories");
    let manifest = std::fs::read_to_string(dir.join("memories.tsv")).unwrap();
    let mut large = 0;
    for line in manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (file, expected) = (dir.join(f[1]), f[2]);
        let src = std::fs::read(&file).unwrap();
        let model = cove_aig::btor2::parse_btor2(&src).unwrap();
        if model.unblastable_array().is_some() {
            large += 1;
        }
        // Bounded by work (every design here needs a few thousand units); the deadline is a
        // safety net only.
        let ctl = Control::default()
            .with_work_budget(2_000_000)
            .with_timeout(std::time::Duration::from_secs(120));
        let a = solve_file_all(&file, &FileConfig::default(), &ctl).unwrap();
        assert_eq!(a.len(), 1);
        let a = &a[0];
        let want = if expected == "sat" {
            Safety::Unsafe
        } else {
            Safety::Safe
        };
        assert_eq!(a.safety, want, "{}: {:?} {}", f[1], a.reason, a.engine);
        assert_eq!(a.validation, "valid", "{}", f[1]);
        if model.unblastable_array().is_some() {
            assert!(matches!(a.detail, Detail::Chc(_)), "{}: over arrays", f[1]);
        }
        if expected == "sat" {
            let w = cove_aig::btor2_sim::parse_witness(&a.text).unwrap();
            cove_aig::btor2_sim::check_witness(&model, &w).unwrap();
        }
    }
    assert!(
        large >= 8,
        "the manifest has memories beyond the bit-blaster"
    );
}

/// Mutated BTOR2 models with memories too large to blast: a positioned refusal or an answer
/// (checked, or unknown), never a panic, through the Horn-clause route.
#[test]
fn mutated_large_memories_are_refused_or_answered() {
    let dir = data("btor2/memories");
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut below = |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let (mut refused, mut answered) = (0, 0);
    for name in [
        "mem_even_32_safe",
        "mirror_32_unsafe",
        "fifo_20_safe",
        "uninit_32_8",
    ] {
        let src = std::fs::read(dir.join(format!("{name}.btor2"))).unwrap();
        for k in 0..12 {
            let mut s = src.clone();
            for _ in 0..1 + below(3) {
                let i = below(s.len() as u64) as usize;
                match below(3) {
                    0 => s[i] = b"0123456789 -\nx"[below(14) as usize],
                    1 => {
                        s.remove(i);
                    }
                    _ => s.insert(i, b"1 \n-"[below(4) as usize]),
                }
            }
            let f = temp(
                &format!("mut_{name}_{k}.btor2"),
                &String::from_utf8_lossy(&s),
            );
            let ctl = Control::default()
                .with_work_budget(50_000)
                .with_timeout(std::time::Duration::from_secs(30));
            match solve_file_all(&f, &FileConfig::default(), &ctl) {
                Ok(a) => {
                    assert_eq!(a.len(), 1);
                    assert!(
                        !a[0].certificate_failed,
                        "{name} {k}: {:?}",
                        a[0].validation
                    );
                    answered += 1;
                }
                Err(FileError::Input(msg)) => {
                    assert!(msg.contains(".btor2:"), "a position: {msg}");
                    refused += 1;
                }
                Err(e) => panic!("{name} {k}: {e:?}"),
            }
        }
    }
    assert!(
        refused > 0 && answered > 0,
        "{refused} refused, {answered} answered"
    );
}
