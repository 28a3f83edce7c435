#!/usr/bin/env python3
"""Rewrites AIGER safety designs as liveness questions: the first bad property (or, in an
old-style file, the first output) becomes justice property j0, "bad infinitely often".
A design where bad is unreachable then holds its justice property too, so the liveness
path (k-liveness, liveness-to-safety) can be timed against the safety question on the
same circuits (BENCHMARKS.md, hardware liveness row).

Usage: scripts/hardware/to-justice.py MANIFEST OUTDIR [--expected unsat]
  writes OUTDIR/NAME.live.aig for every line of MANIFEST (`track<TAB>path<TAB>expected`,
  paths relative to the manifest's folder) with the given expected answer, and two
  manifests OUTDIR/safety.tsv and OUTDIR/live.tsv with absolute paths (`--root /`).
Needs: python3 only.
"""
import os
import sys


def to_justice(data: bytes) -> bytes:
    nl = data.index(b"\n")
    head = data[:nl].split()
    kind = head[0]
    nums = [int(x) for x in head[1:]] + [0] * (9 - len(head[1:]))
    m, i, l, o, a, b, c, j, f = nums
    if j or f:
        raise ValueError("already has liveness properties")
    pos = nl + 1

    def line():
        nonlocal pos
        e = data.index(b"\n", pos)
        text = data[pos:e]
        pos = e + 1
        return text

    inputs = [line() for _ in range(i)] if kind == b"aag" else []
    latches = [line() for _ in range(l)]
    outs = [line() for _ in range(o)]
    bads = [line() for _ in range(b)]
    cons = [line() for _ in range(c)]
    if b == 0:
        bads, outs = outs, []
    if not bads:
        raise ValueError("no property")
    header = b" ".join([kind] + [str(x).encode() for x in [m, i, l, len(outs), a, 0, c, 1, 0]])
    body = b"".join(x + b"\n" for x in inputs + latches + outs + cons)
    return header + b"\n" + body + b"1\n" + bads[0] + b"\n" + data[pos:]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    manifest, out = sys.argv[1], sys.argv[2]
    want = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--expected" else "unsat"
    root = os.path.dirname(os.path.abspath(manifest))
    os.makedirs(out, exist_ok=True)
    safety, live = [], []
    for row in open(manifest):
        parts = row.rstrip("\n").split("\t")
        if len(parts) < 3 or parts[2] != want:
            continue
        src = os.path.join(root, parts[1])
        name = os.path.basename(src).rsplit(".", 1)[0]
        dst = os.path.abspath(os.path.join(out, name + ".live.aig"))
        with open(src, "rb") as fh:
            data = fh.read()
        with open(dst, "wb") as fh:
            fh.write(to_justice(data))
        safety.append(f"{parts[0]}\t{src}\t{want}\n")
        live.append(f"{parts[0]}\t{dst}\t{want}\n")
    open(os.path.join(out, "safety.tsv"), "w").writelines(safety)
    open(os.path.join(out, "live.tsv"), "w").writelines(live)
    print(f"{len(live)} designs written to {out}")


if __name__ == "__main__":
    main()
