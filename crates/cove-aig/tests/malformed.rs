//! Malformed AIGER input: an error with a position, never a panic.

use cove_aig::parse_aiger;

#[test]
fn malformed_files_are_errors_with_positions() {
    let cases: &[(&[u8], usize, &str)] = &[
        (b"", 1, "header"),
        (b"aag\n", 1, "header"),
        (b"aag 1 2 3\n", 1, "header"),
        (b"aag 1 1 0 0 0\n", 1, "exceed the file size"),
        (b"aag 2 2 0 0 0\n2\n", 3, "end of file"),
        (b"aag 1 1 0 0 0\n3\n", 2, "even"),
        (b"aag 2 2 0 0 0\n2\n2\n", 3, "twice"),
        (b"aag 1 2 0 0 0\n2\n2\n", 1, "less than"),
        (b"aag 2 1 0 1 0\n2\n9\n", 3, "exceeds"),
        (b"aag 2 1 0 1 0\n2\n4\n", 3, "undefined"),
        (b"aag 2 0 0 0 2 1\n2\n2 4 1\n4 2 1\n", 4, "cycle"),
        (b"aag 1 0 1 0 0\n2 2 3\n", 2, "reset"),
        (b"aag 1 0 0 0 0\nx\n", 1, "ok"),
        (b"aig 2 1 0 0 1\n", 1, "exceed the file size"),
        (b"aig 2 1 0 0 1\n\x00\x00", 2, "delta"),
        (b"aig 3 1 0 0 1\n", 1, "equal"),
        (b"aag 1 1 0 0 0 0 0 1\n2\n", 3, "justice size"),
        (b"aag 1 0 0 0 0 0 0 1\n1\n4\n", 3, "exceeds"),
        (b"aag 1 0 0 0 0 0 0 1 1\n1\n2\n", 4, "fairness"),
        (b"aag 99999999999 0 0 0 0\n", 1, "large"),
        (b"aag 300000000 0 0 0 0\n", 1, "exceeds"),
        (b"aag 1 1 0 0 0\n2 5\n", 2, "found 2"),
    ];
    for &(src, line, what) in cases {
        match parse_aiger(src) {
            Ok(_) => assert_eq!(what, "ok", "{:?} parsed", String::from_utf8_lossy(src)),
            Err(e) => {
                assert_eq!(e.line, line, "{:?}: {e}", String::from_utf8_lossy(src));
                assert!(
                    e.msg.contains(what),
                    "{:?}: {e} (wanted {what})",
                    String::from_utf8_lossy(src)
                );
            }
        }
    }
}

#[test]
fn truncations_and_byte_flips_never_panic() {
    let files: [&[u8]; 3] = [
        include_bytes!("data/counter4_unsafe.aig"),
        include_bytes!("data/shift_constrained_safe.aag"),
        include_bytes!("data/mod6_safe.aig"),
    ];
    let mut checked = 0;
    for f in files {
        for cut in 0..f.len() {
            let _ = parse_aiger(&f[..cut]);
        }
        for i in 0..f.len() {
            for b in [b'0', b'9', b' ', b'\n', 0x80, 0xff, 0x00] {
                let mut g = f.to_vec();
                g[i] = b;
                if let Ok(a) = parse_aiger(&g)
                    && checked < 40
                {
                    checked += 1;
                    // Whatever parses is well formed enough to model-check.
                    let ctl = cove_aig::Control::default()
                        .with_timeout(std::time::Duration::from_millis(100));
                    let _ = cove_aig::driver::check(
                        &a,
                        &cove_aig::driver::EngineChoice::parse("bmc").unwrap(),
                        &ctl,
                    );
                }
            }
        }
    }
}

#[test]
fn deep_circuits_do_not_recurse() {
    // A chain of 200,000 and gates written in reverse order (ASCII allows any order).
    let n = 200_000u32;
    let mut s = format!("aag {} 1 0 0 {n} 1\n2\n{}\n", n + 1, 2 * (n + 1));
    for k in (0..n).rev() {
        let lhs = 2 * (k + 2);
        let rhs = if k == 0 { 2 } else { 2 * (k + 1) };
        s.push_str(&format!("{lhs} {rhs} {rhs}\n"));
    }
    let a = parse_aiger(s.as_bytes()).unwrap();
    assert_eq!(a.ands.len(), n as usize);
    let v = cove_aig::driver::check(
        &a,
        &cove_aig::driver::EngineChoice::parse("ic3").unwrap(),
        &Default::default(),
    );
    assert!(matches!(v, cove_aig::Verdict::Unsafe(_)), "{v:?}");
}
