#!/usr/bin/env python3
"""Differential testing of `cove smt` against z3 on random QF_ALIA scripts.

Generates N random scripts over Int variables and (Array Int Int) variables with reads,
store chains, constant arrays, `ite` over arrays, array equalities and disequalities
(chains of equal copies included, as in the unrollings of CHC systems), runs cove and z3
and reports agreements, disagreements (files kept in OUT_DIR) and unknowns.

With --array-index the scripts also have (Array (Array Int Int) Int) variables (arrays indexed
by arrays, as Solidity's bytes-keyed mappings are), written and read at array terms.

Usage: scripts/smt/differential-arrays.py [-n 300] [--seed 1] [--timeout 10] [--array-index] [--cove target/release/cove]
Needs z3 on PATH. Exit code 1 on any disagreement or crash.
"""

import argparse
import os
import random
import subprocess
import sys


def gen(rng, array_index=False):
    nx, na = rng.randint(1, 4), rng.randint(1, 4)
    nm = rng.randint(1, 2) if array_index else 0
    xs = [f"x{i}" for i in range(nx)]
    arrs = [f"a{i}" for i in range(na)]
    maps = [f"m{i}" for i in range(nm)]
    lines = ["(set-logic QF_ALIA)"]
    lines += [f"(declare-const {x} Int)" for x in xs]
    lines += [f"(declare-const {a} (Array Int Int))" for a in arrs]
    lines += [f"(declare-const {m} (Array (Array Int Int) Int))" for m in maps]

    def mterm(d=0):
        r = rng.random()
        if r < 0.5 or d > 2:
            return rng.choice(maps)
        if r < 0.85:
            return f"(store {mterm(d + 1)} {aterm(d + 1)} {iterm(d + 1)})"
        return f"((as const (Array (Array Int Int) Int)) {num(rng.randint(-1, 2))})"

    def num(k):
        return str(k) if k >= 0 else f"(- {-k})"

    def iterm(d=0):
        r = rng.random()
        if r < 0.4 or d > 2:
            return rng.choice(xs)
        if r < 0.6:
            return num(rng.randint(-2, 3))
        if maps and r < 0.7:
            return f"(select {mterm(d + 1)} {aterm(d + 1)})"
        if r < 0.8:
            return f"(select {aterm(d + 1)} {iterm(d + 1)})"
        return f"(+ {iterm(d + 1)} {num(rng.randint(-1, 2))})"

    def aterm(d=0):
        r = rng.random()
        if r < 0.45 or d > 2:
            return rng.choice(arrs)
        if r < 0.75:
            return f"(store {aterm(d + 1)} {iterm(d + 1)} {iterm(d + 1)})"
        if r < 0.85:
            return f"((as const (Array Int Int)) {num(rng.randint(-1, 2))})"
        return f"(ite {atom(d + 1)} {aterm(d + 1)} {aterm(d + 1)})"

    def atom(d=0):
        r = rng.random()
        if maps and r < 0.1 and d <= 2:
            return f"(= {mterm(d + 1)} {mterm(d + 1)})"
        if r < 0.35 and d <= 2:
            return f"(= {aterm(d + 1)} {aterm(d + 1)})"
        op = rng.choice(["=", "<=", "<", "distinct"])
        return f"({op} {iterm(d + 1)} {iterm(d + 1)})"

    # A chain of copies, as Spacer queries over unrollings have.
    if na >= 2 and rng.random() < 0.5:
        for k in range(na - 1):
            lines.append(f"(assert (= a{k} a{k + 1}))")
    for _ in range(rng.randint(1, 5)):
        a = atom()
        if rng.random() < 0.3:
            a = f"(not {a})"
        if rng.random() < 0.2:
            a = f"(or {a} {atom()})"
        lines.append(f"(assert {a})")
    lines.append("(check-sat)")
    return "\n".join(lines) + "\n"


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        out = p.stdout.strip().splitlines()
        return (out[0] if out else "none"), p.returncode
    except subprocess.TimeoutExpired:
        return "timeout", 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--cove", default="target/release/cove")
    ap.add_argument("--out", default="/tmp/cove-diff-arrays")
    ap.add_argument("--array-index", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    counts = {"agree": 0, "disagree": 0, "unknown": 0, "crash": 0}
    for k in range(a.n):
        path = os.path.join(a.out, f"r{k}.smt2")
        with open(path, "w") as f:
            f.write(gen(rng, a.array_index))
        c, rc = run([a.cove, "smt", path], a.timeout)
        z, _ = run(["z3", f"-T:{int(a.timeout)}", path], a.timeout + 2)
        if rc not in (0,):
            counts["crash"] += 1
            print(f"crash rc={rc}: {path}")
            continue
        if c in ("sat", "unsat") and z in ("sat", "unsat"):
            if c == z:
                counts["agree"] += 1
                os.remove(path)
            else:
                counts["disagree"] += 1
                print(f"DISAGREE cove={c} z3={z}: {path}")
        else:
            counts["unknown"] += 1
            print(f"unknown cove={c} z3={z}: {path}")
    print(counts)
    return 1 if counts["disagree"] or counts["crash"] else 0


if __name__ == "__main__":
    sys.exit(main())
