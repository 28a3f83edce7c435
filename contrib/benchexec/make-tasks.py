#!/usr/bin/env python3
"""Turn a Cove benchmark manifest (`track<TAB>path<TAB>expected`) into BenchExec task
definitions, one YAML file per instance, so that BenchExec scores answers as correct or
wrong.

    contrib/benchexec/make-tasks.py ../shared/bench/chc.tsv --root ../shared/bench \
        --out contrib/benchexec/tasks

writes `OUT/<track>/<n>.yml` with `input_files` relative to the YAML file, the property
file `chc-sat.prp` and `expected_verdict: true` for `sat` (safe), `false` for `unsat`
(unknown expectations get no verdict). Standard library only.
"""

import argparse
import os
import re
import sys

PROPERTY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "chc-sat.prp")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("manifest")
    ap.add_argument("--root", help="directory the manifest paths are relative to "
                    "(default: the manifest's directory)")
    ap.add_argument("--out", required=True, help="output directory for the task files")
    args = ap.parse_args()
    root = os.path.abspath(args.root or os.path.dirname(args.manifest))
    counts = {}
    with open(args.manifest) as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) < 2:
                sys.exit(f"{args.manifest}:{lineno}: expected track<TAB>path[<TAB>expected]")
            track, path = cols[0], cols[1]
            expected = cols[2].strip() if len(cols) > 2 else ""
            if track == "track" and path == "path":
                continue  # header line
            tdir = os.path.join(args.out, re.sub(r"[^A-Za-z0-9_.-]", "_", track))
            os.makedirs(tdir, exist_ok=True)
            stem = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.splitext(os.path.basename(path))[0])
            counts[track] = counts.get(track, 0) + 1
            yml = os.path.join(tdir, f"{counts[track]:04d}-{stem}.yml")
            input_file = os.path.relpath(os.path.join(root, path), tdir)
            prop = os.path.relpath(PROPERTY, tdir)
            with open(yml, "w") as out:
                out.write("format_version: '2.0'\n")
                out.write(f"input_files: '{input_file}'\n")
                out.write("properties:\n")
                out.write(f"  - property_file: '{prop}'\n")
                if expected in ("sat", "unsat"):
                    verdict = "true" if expected == "sat" else "false"
                    out.write(f"    expected_verdict: {verdict}\n")
    for track, n in sorted(counts.items()):
        print(f"{track}: {n} tasks in {os.path.join(args.out, track)}")


if __name__ == "__main__":
    main()
