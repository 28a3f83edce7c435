//! The Level-N Boolean programs: a parametric family whose call tree grows exponentially while
//! its state space grows linearly (thesis Fig. 1.1, adapted from Ball–Rajamani's Bebop paper;
//! see `thesis-spec.md` §8.2 — the figure's code is not in the extracted text, so this is our
//! reconstruction of its shape, not a copy).
//!
//! Usage: `cargo run --release -p cove-chc --example level_n -- N [safe|unsafe] [chc|inline]`
//!
//! # The program
//!
//! ```text
//! main()            { x := nd(); y := Level1(x); assert(y == x); }
//! Level<i>(x) : y   { if (nd()) { y := x; }                         // skip path
//!                     else { t := Level<i+1>(x); y := Level<i+1>(t); } }   // i < N
//! Level<N>(x) : y   { y := !x; }                                    // safe variant
//! Level<N>(x) : y   { if (nd()) y := !x; else y := x; }             // unsafe variant
//! ```
//!
//! Every procedure has one Boolean parameter and one Boolean result, so the program has O(N)
//! states (a program counter and two or three Booleans per procedure), but `Level1`'s call tree
//! has 2^(N-1) calls of `LevelN` at its leaves.
//!
//! # Why the answers are what they are
//!
//! Write the summary of `Level<i>` as a relation on {0,1}. In the safe variant `Level<N>` is
//! negation, and each `Level<i>`, i < N, is identity ∪ `Level<i+1>` ∘ `Level<i+1>`; negation
//! composed with itself is identity, so every `Level<i>` with i < N is the identity and the
//! assertion holds for N >= 2 (for N = 1, `Level1` is the negation and the system is unsafe, so
//! the safe variant needs N >= 2). Spacer has to find the N summaries "y = x" (i < N) and
//! "y != x" (i = N); an unrolling has to refute all 2^(N-1) leaf combinations.
//!
//! In the unsafe variant `Level<N>` may negate or keep its argument. The only way for `Level1`
//! to negate is through `Level2`, …, down to `Level<N>` (the skip path keeps the value), so every
//! counterexample is a derivation of depth N + 1 that passes through all levels and, at the
//! bottom, uses *two different* facts of `Level<N>` (one negating, one keeping): a layered
//! unrolling that keeps one fact per predicate and layer (Cove's BMC) cannot build it.
//!
//! # Output
//!
//! `chc` (default): the clause system in SMT-LIB2 HORN, one clause per branch:
//!
//! ```text
//! Main(x, y)      <- Level1(x, y)
//! false           <- Main(x, y) ∧ x != y
//! Level<i>(x, y)  <- y = x                                    (i < N)
//! Level<i>(x, y)  <- Level<i+1>(x, t) ∧ Level<i+1>(t, y)      (i < N)
//! Level<N>(x, y)  <- y = ¬x        (and, unsafe only, Level<N>(x, y) <- y = x)
//! ```
//!
//! `inline`: the tree-like unrolling of the same program as a quantifier-free SMT-LIB2 script
//! (what an inlining BMC engine builds): one copy of `Level<i>`'s body per node of the call tree
//! (2^N - 1 nodes), with a Boolean `s_p` choosing the skip path of node `p`. It is satisfiable iff
//! the CHC system is unsafe. The recursion is bounded (`Level<N>` calls nothing), so the
//! unrolling is exact, not an approximation.

use std::fmt::Write as _;
use std::io::Write as _;

/// Which variant of the program to print.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Variant {
    Safe,
    Unsafe,
}

/// The CHC encoding of the Level-N program.
fn chc(n: usize, variant: Variant) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "; Level-{n} Boolean program ({} variant), thesis Fig. 1.1",
        name(variant)
    );
    let _ = writeln!(
        s,
        "; expect: {}",
        if variant == Variant::Safe && n >= 2 {
            "sat"
        } else {
            "unsat"
        }
    );
    s.push_str("(set-logic HORN)\n");
    s.push_str("(declare-fun Main (Bool Bool) Bool)\n");
    for i in 1..=n {
        let _ = writeln!(s, "(declare-fun Level{i} (Bool Bool) Bool)");
    }
    s.push_str("(assert (forall ((x Bool) (y Bool)) (=> (Level1 x y) (Main x y))))\n");
    s.push_str("(assert (forall ((x Bool) (y Bool)) (=> (and (Main x y) (not (= x y))) false)))\n");
    for i in 1..n {
        let j = i + 1;
        let _ = writeln!(
            s,
            "(assert (forall ((x Bool) (y Bool)) (=> (= y x) (Level{i} x y))))"
        );
        let _ = writeln!(
            s,
            "(assert (forall ((x Bool) (t Bool) (y Bool)) (=> (and (Level{j} x t) (Level{j} t y)) (Level{i} x y))))"
        );
    }
    let _ = writeln!(
        s,
        "(assert (forall ((x Bool) (y Bool)) (=> (= y (not x)) (Level{n} x y))))"
    );
    if variant == Variant::Unsafe {
        let _ = writeln!(
            s,
            "(assert (forall ((x Bool) (y Bool)) (=> (= y x) (Level{n} x y))))"
        );
    }
    s.push_str("(check-sat)\n(exit)\n");
    s
}

/// The tree-like unrolling: node `k` (heap numbering, root 1) at level `i` has input `x_k`,
/// output `y_k` and, below level N, a skip choice `s_k`; its children are `2k` and `2k + 1`.
fn inline(n: usize, variant: Variant, out: &mut impl std::io::Write) -> std::io::Result<()> {
    writeln!(
        out,
        "; tree-like unrolling of the Level-{n} Boolean program ({} variant)",
        name(variant)
    )?;
    writeln!(
        out,
        "; sat iff the program is unsafe; {} call-tree nodes",
        (1u64 << n) - 1
    )?;
    // Purely propositional; declared QF_LIA because that is a logic every solver here accepts.
    writeln!(out, "(set-logic QF_LIA)")?;
    let nodes: u64 = (1u64 << n) - 1;
    for k in 1..=nodes {
        writeln!(
            out,
            "(declare-fun x{k} () Bool)\n(declare-fun y{k} () Bool)"
        )?;
        if k < (1u64 << (n - 1)) {
            writeln!(out, "(declare-fun s{k} () Bool)")?;
        }
    }
    // main: assert(y == x) fails.
    writeln!(out, "(assert (not (= x1 y1)))")?;
    for k in 1..=nodes {
        if k < (1u64 << (n - 1)) {
            let (a, b) = (2 * k, 2 * k + 1);
            writeln!(out, "(assert (=> s{k} (= y{k} x{k})))")?;
            writeln!(
                out,
                "(assert (=> (not s{k}) (and (= x{a} x{k}) (= x{b} y{a}) (= y{k} y{b}))))"
            )?;
        } else if variant == Variant::Safe {
            writeln!(out, "(assert (= y{k} (not x{k})))")?;
        } else {
            writeln!(out, "(assert (or (= y{k} (not x{k})) (= y{k} x{k})))")?;
        }
    }
    writeln!(out, "(check-sat)\n(exit)")
}

fn name(v: Variant) -> &'static str {
    match v {
        Variant::Safe => "safe",
        Variant::Unsafe => "unsafe",
    }
}

fn usage() -> ! {
    eprintln!("usage: level_n N [safe|unsafe] [chc|inline]   (N >= 1; inline needs N <= 40)");
    std::process::exit(1)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(n) = args
        .first()
        .and_then(|a| a.parse::<usize>().ok())
        .filter(|&n| n >= 1)
    else {
        usage()
    };
    let variant = match args.get(1).map(String::as_str) {
        None | Some("safe") => Variant::Safe,
        Some("unsafe") => Variant::Unsafe,
        Some(_) => usage(),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let res = match args.get(2).map(String::as_str) {
        None | Some("chc") => out.write_all(chc(n, variant).as_bytes()),
        Some("inline") if n <= 40 => inline(n, variant, &mut out),
        Some(_) => usage(),
    };
    if let Err(e) = res.and_then(|()| out.flush()) {
        eprintln!("level_n: {e}");
        std::process::exit(1);
    }
}
