#!/usr/bin/env python3
"""Compares z3 with the exact answers of the datatype differential test's systems.

`crates/cove-chc/tests/adt_differential.rs` generates CHC systems over records,
enumerations, sums and lists whose exact answer it computes (a least fixpoint over a
finite domain the clauses bound). With COVE_DIFF_DUMP=DIR it writes each system to DIR as
`SEED-K.smt2`, first line `; expected: sat|unsat`. This script runs z3 on every file and
reports where z3 disagrees with the exact answer (a check of the generator and of the
test's reading of SMT-LIB, independent of Cove; the Rust test never depends on z3).

Usage:
  COVE_DIFF_DUMP=/tmp/adt-diff cargo test --release -p cove-chc --test adt_differential
  scripts/chc/differential-adt-z3.py /tmp/adt-diff [--timeout 10]
Needs z3 on PATH (`python3 -m pip install z3-solver`). Exit code 1 on any disagreement.
"""

import argparse
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--z3", default="z3")
    args = ap.parse_args()
    counts = {"agree": 0, "disagree": 0, "unknown": 0}
    for name in sorted(os.listdir(args.dir)):
        if not name.endswith(".smt2"):
            continue
        path = os.path.join(args.dir, name)
        with open(path) as f:
            first = f.readline().strip()
        expected = first.removeprefix("; expected: ")
        try:
            out = subprocess.run(
                [args.z3, f"-T:{args.timeout}", path],
                capture_output=True,
                text=True,
                timeout=args.timeout + 5,
            ).stdout.split()
            got = out[0] if out else "unknown"
        except subprocess.TimeoutExpired:
            got = "unknown"
        if got not in ("sat", "unsat"):
            counts["unknown"] += 1
        elif got == expected:
            counts["agree"] += 1
        else:
            counts["disagree"] += 1
            print(f"{path}: expected {expected}, z3 {got}")
    print(" ".join(f"{k} {v}" for k, v in counts.items()))
    sys.exit(1 if counts["disagree"] else 0)


if __name__ == "__main__":
    main()
