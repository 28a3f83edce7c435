#!/usr/bin/env python3
"""Differential testing of `cove solve` against z3 on random small CHC systems.

Generates N random linear-integer CHC systems (1-3 predicates of arity 1-2, facts,
linear and nonlinear transition clauses, queries; small coefficients and constants),
runs cove and z3 on each with a time limit and reports:

  agree      both answered the same sat/unsat
  disagree   cove and z3 answered differently (the file is kept in OUT_DIR)
  unknown    one side answered unknown / timed out
  crash      cove exited with a code other than 0 (the file is kept)

Usage: scripts/chc/differential-z3.py [-n 1000] [--seed 1] [--timeout 5] [--cove target/release/cove]
       [--out /tmp/cove-diff]
Needs z3 on PATH (`python3 -m pip install z3-solver`). Exit code 1 on any disagreement or crash.
"""

import argparse
import os
import random
import subprocess
import sys


def gen_system(rng):
    npreds = rng.randint(1, 3)
    preds = [(f"P{i}", rng.randint(1, 2)) for i in range(npreds)]
    lines = ["(set-logic HORN)"]
    for name, ar in preds:
        lines.append(f"(declare-fun {name} ({' '.join(['Int'] * ar)}) Bool)")

    def term(vs):
        # c0 + sum c_i v_i over a random subset
        parts = []
        for v in vs:
            if rng.random() < 0.5:
                c = rng.choice([-2, -1, 1, 1, 2])
                parts.append(v if c == 1 else f"(* {c} {v})" if c > 0 else f"(* (- {-c}) {v})")
        k = rng.randint(-3, 3)
        if k or not parts:
            parts.append(str(k) if k >= 0 else f"(- {-k})")
        return parts[0] if len(parts) == 1 else f"(+ {' '.join(parts)})"

    def atom(vs):
        op = rng.choice(["<=", "<", ">=", ">", "=", "<=", ">="])
        a = f"({op} {term(vs)} {term(vs)})"
        if rng.random() < 0.1:
            a = f"(not {a})"
        return a

    def constraint(vs, n):
        atoms = [atom(vs) for _ in range(n)]
        if rng.random() < 0.15 and len(atoms) >= 2:
            atoms = [f"(or {atoms[0]} {atoms[1]})"] + atoms[2:]
        if not atoms:
            return "true"
        return atoms[0] if len(atoms) == 1 else f"(and {' '.join(atoms)})"

    clauses = []
    nclauses = rng.randint(2, 6)
    kinds = ["fact"] + ["query"] + [rng.choice(["fact", "step", "step", "step", "join", "query"]) for _ in range(nclauses - 2)]
    for kind in kinds:
        vs = [f"x{i}" for i in range(rng.randint(1, 4))]
        body = []
        if kind in ("step", "query", "join"):
            nb = 2 if kind == "join" else 1
            for _ in range(nb):
                name, ar = rng.choice(preds)
                body.append(f"({name} {' '.join(rng.choice(vs) for _ in range(ar))})")
        phi = constraint(vs, rng.randint(0 if body else 1, 3))
        if kind == "query":
            head = "false"
        else:
            name, ar = rng.choice(preds)
            args = [rng.choice(vs) if rng.random() < 0.7 else term(vs) for _ in range(ar)]
            head = f"({name} {' '.join(args)})"
        prem = body + ([phi] if phi != "true" else [])
        lhs = "true" if not prem else prem[0] if len(prem) == 1 else f"(and {' '.join(prem)})"
        decl = " ".join(f"({v} Int)" for v in vs)
        clauses.append(f"(assert (forall ({decl}) (=> {lhs} {head})))")
    lines += clauses
    lines.append("(check-sat)")
    return "\n".join(lines) + "\n"


def answer(text):
    first = text.strip().split("\n")[0].strip() if text.strip() else ""
    return first if first in ("sat", "unsat") else "unknown"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=5)
    ap.add_argument("--cove", default=os.path.join(os.path.dirname(__file__), "..", "..", "target", "release", "cove"))
    ap.add_argument("--z3", default="z3")
    ap.add_argument("--out", default="/tmp/cove-diff")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    counts = {"agree": 0, "disagree": 0, "unknown": 0, "crash": 0}
    answers = {"sat": 0, "unsat": 0}
    path = os.path.join(args.out, "cur.smt2")
    for i in range(args.n):
        text = gen_system(rng)
        with open(path, "w") as f:
            f.write(text)
        lim = str(args.timeout)
        try:
            c = subprocess.run(["timeout", str(args.timeout + 5), args.cove, "solve", path, "--timeout", lim],
                               capture_output=True, text=True)
            ca, crc = answer(c.stdout), c.returncode
        except Exception as e:  # noqa: BLE001
            ca, crc = "unknown", -1
        try:
            z = subprocess.run(["timeout", str(args.timeout + 5), args.z3, f"-T:{int(args.timeout)}", path],
                               capture_output=True, text=True)
            za = answer(z.stdout)
        except Exception:  # noqa: BLE001
            za = "unknown"
        keep = None
        if crc != 0:
            counts["crash"] += 1
            keep = f"crash-{i}.smt2"
            print(f"[{i}] cove exit {crc}: {c.stderr.strip()[:200]}", flush=True)
        elif ca == "unknown" or za == "unknown":
            counts["unknown"] += 1
        elif ca == za:
            counts["agree"] += 1
            answers[ca] += 1
        else:
            counts["disagree"] += 1
            keep = f"disagree-{i}.smt2"
            print(f"[{i}] DISAGREE cove={ca} z3={za}", flush=True)
        if keep:
            with open(os.path.join(args.out, keep), "w") as f:
                f.write(text)
        if (i + 1) % 100 == 0:
            print(f"{i + 1} systems: {counts}", flush=True)
    print(f"systems={args.n} seed={args.seed} timeout={args.timeout}s {counts} agreed-answers={answers}")
    sys.exit(1 if counts["disagree"] or counts["crash"] else 0)


if __name__ == "__main__":
    main()
