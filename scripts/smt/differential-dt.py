#!/usr/bin/env python3
"""Differential run of Cove's datatype theory against z3 on random datatype scripts.

The scripts come from the generator the tests use (crates/cove-smt/tests/dtgen, through
`examples/dt_scripts.rs`): Peano numbers, integer lists, mutually recursive trees/forests,
an enumeration and a record; constructors, selectors (also on the wrong constructor),
testers, ite, equalities, distinct, linear integer atoms. Even-numbered scripts are planted
(satisfiable by construction).

Usage (from the repository root):
    cargo build --release -p cove-cli && cargo build --release -p cove-smt --example dt_scripts
    python3 scripts/smt/differential-dt.py [N] [SEED] [TIMEOUT_S]

Needs z3 on PATH (`pip install z3-solver`). Prints the counts; exits 1 on any
disagreement (sat vs unsat) and keeps those scripts in ./dt-disagreements/.
"""
import collections
import os
import shutil
import subprocess
import sys
import tempfile

n = int(sys.argv[1]) if len(sys.argv) > 1 else 500
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
timeout = int(sys.argv[3]) if len(sys.argv) > 3 else 10
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
cove = os.path.join(root, "target/release/cove")
gen = os.path.join(root, "target/release/examples/dt_scripts")


def answer(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 5).stdout
    except subprocess.TimeoutExpired:
        return "timeout"
    first = out.strip().splitlines()[0] if out.strip() else "error"
    return first if first in ("sat", "unsat", "unknown") else "error"


tmp = tempfile.mkdtemp(prefix="dt-diff-")
subprocess.run([gen, str(n), str(seed), tmp], check=True)
counts = collections.Counter()
bad = []
for i in range(n):
    f = os.path.join(tmp, f"dt-{seed}-{i}.smt2")
    c = answer([cove, "smt", "--timeout", str(timeout), f])
    z = answer(["z3", f"-T:{timeout}", f])
    counts[(c, z)] += 1
    if {c, z} == {"sat", "unsat"} or (i % 2 == 0 and c == "unsat"):
        bad.append(f)
for (c, z), k in sorted(counts.items()):
    print(f"cove {c:8} z3 {z:8} {k}")
both = sum(k for (c, z), k in counts.items() if c == z and c in ("sat", "unsat"))
print(f"{n} scripts (seed {seed}): {both} answered alike by both, {len(bad)} disagreements")
if bad:
    os.makedirs("dt-disagreements", exist_ok=True)
    for f in bad:
        shutil.copy(f, "dt-disagreements")
    sys.exit(1)
shutil.rmtree(tmp)
