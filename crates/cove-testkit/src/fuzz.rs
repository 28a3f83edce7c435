//! Building blocks of the mutation fuzzers that feed the SMT-LIB2 and CHC readers.
//!
//! Each step edits a byte buffer in place using only the given [`Rng`], drawing its random
//! numbers in a fixed order, so a fuzz run is a pure function of its seed. The drivers keep
//! their own choice and weighting of steps (what they fuzz differs); this module keeps the
//! steps themselves in one place. Steps whose name says "in a non-empty buffer" must not be
//! called on an empty one (the drivers guard them and fall through to another step).

use crate::Rng;

/// Fuzzing time in seconds: `COVE_FUZZ_SECS` if set to a number, otherwise `default` (kept
/// short so that the ordinary test run stays fast; set the variable for a long campaign).
pub fn fuzz_secs(default: f64) -> f64 {
    std::env::var("COVE_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Overwrites one random byte of a non-empty buffer with a random value.
pub fn overwrite_byte(rng: &mut Rng, v: &mut [u8]) {
    let i = rng.below(v.len());
    v[i] = rng.next_u64() as u8;
}

/// Inserts one of `tokens` at a random position.
pub fn insert_token(rng: &mut Rng, v: &mut Vec<u8>, tokens: &[&str]) {
    let i = rng.below(v.len() + 1);
    let t = tokens[rng.below(tokens.len())].as_bytes();
    v.splice(i..i, t.iter().copied());
}

/// Deletes a run of 1 to `max` bytes (clipped at the end) from a non-empty buffer.
pub fn delete_run(rng: &mut Rng, v: &mut Vec<u8>, max: usize) {
    let len = v.len();
    let i = rng.below(len);
    let j = (i + 1 + rng.below(max)).min(len);
    v.drain(i..j);
}

/// Copies a run of 1 to `max` bytes of a non-empty buffer to a random position.
pub fn duplicate_run(rng: &mut Rng, v: &mut Vec<u8>, max: usize) {
    let len = v.len();
    let i = rng.below(len);
    let j = (i + 1 + rng.below(max)).min(len);
    let chunk = v[i..j].to_vec();
    let k = rng.below(len + 1);
    v.splice(k..k, chunk);
}

/// Inserts a run of 1 to `max` bytes of a random one of `seeds` at a random position (the
/// buffer is unchanged if that seed is empty). `seeds` must not be empty.
pub fn insert_from_seed(rng: &mut Rng, v: &mut Vec<u8>, seeds: &[Vec<u8>], max: usize) {
    let other = &seeds[rng.below(seeds.len())];
    if !other.is_empty() {
        let i = rng.below(other.len());
        let j = (i + 1 + rng.below(max)).min(other.len());
        let k = rng.below(v.len() + 1);
        v.splice(k..k, other[i..j].iter().copied());
    }
}

/// Inserts `0..max` random bytes at a random position.
pub fn insert_random_bytes(rng: &mut Rng, v: &mut Vec<u8>, max: usize) {
    let n = rng.below(max);
    let i = rng.below(v.len() + 1);
    v.splice(i..i, (0..n).map(|_| rng.next_u64() as u8));
}

/// `0..max` random bytes.
pub fn random_bytes(rng: &mut Rng, max: usize) -> Vec<u8> {
    (0..rng.below(max)).map(|_| rng.next_u64() as u8).collect()
}

/// A random balanced `( ... )` span `(start, end)` of `v` (end exclusive), if `v` has an
/// opening parenthesis and the chosen one is closed.
pub fn balanced_span(rng: &mut Rng, v: &[u8]) -> Option<(usize, usize)> {
    let opens: Vec<usize> = (0..v.len()).filter(|&i| v[i] == b'(').collect();
    let i = *opens.get(rng.below(opens.len()))?;
    let mut depth = 0usize;
    for (j, &b) in v.iter().enumerate().skip(i) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some((i, j + 1));
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_keep_their_promises() {
        let mut rng = Rng::new(3);
        let seeds = vec![b"(a (b c))".to_vec(), Vec::new()];
        for _ in 0..2000 {
            let mut v = b"(x (y) z)".to_vec();
            overwrite_byte(&mut rng, &mut v);
            insert_token(&mut rng, &mut v, &["(", "tok"]);
            delete_run(&mut rng, &mut v, 4);
            if !v.is_empty() {
                duplicate_run(&mut rng, &mut v, 4);
            }
            insert_from_seed(&mut rng, &mut v, &seeds, 5);
            insert_random_bytes(&mut rng, &mut v, 3);
            assert!(random_bytes(&mut rng, 5).len() < 5);
            if let Some((i, j)) = balanced_span(&mut rng, &v) {
                assert_eq!((v[i], v[j - 1]), (b'(', b')'));
            }
        }
    }
}
