#!/usr/bin/env python3
"""Cross-checks Cove against Storm through DRN files (not a test: needs stormpy).

For each PRISM model given (default: the benchmark families' components and their full
compositions, written by `cove prob bench --write-models`):
  1. Storm builds it: states, choices, transitions;
  2. Cove builds it and exports DRN (`cove prob export --to drn`); Storm reads that DRN
     with exact rationals: the counts must equal step 1's;
  3. Storm's own DRN export (with choice labels) is read by Cove and checked against the
     PRISM model by strong simulation in both directions (`cove prob simulate`): both
     must hold (the two tools built the same model up to simulation equivalence).

usage: scripts/prob/storm-drn-check.py [--cove BIN] [--dir DIR] [MODEL.prism ...]
"""
import glob, os, subprocess, sys, tempfile, time
import stormpy, stormpy.io

def counts(m):
    return (m.nr_states, m.nr_choices, m.nr_transitions)

def storm_prism(path):
    prog = stormpy.parse_prism_program(path)
    o = stormpy.BuilderOptions()
    o.set_build_choice_labels(True)
    o.set_build_state_valuations(True)
    return stormpy.build_model(prog, options=o)

def run(cmd, timeout=600):
    t = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    return r, time.time() - t

def main():
    args = sys.argv[1:]
    cove = "target/release/cove"
    d = None
    if "--cove" in args:
        i = args.index("--cove"); cove = args[i + 1]; del args[i:i + 2]
    if "--dir" in args:
        i = args.index("--dir"); d = args[i + 1]; del args[i:i + 2]
    tmp = tempfile.mkdtemp(prefix="cove-drn-")
    models = args
    if not models:
        d = d or os.path.join(tmp, "models")
        subprocess.run([cove, "prob", "bench", "--families", "sn,mer", "--max-n", "3",
                        "--write-models", d], check=True, capture_output=True)
        for l1 in sorted(glob.glob(os.path.join(d, "*.l1.prism"))):
            l2 = l1.replace(".l1.", ".l2.")
            full = l1.replace(".l1.", ".full.")
            # the whole system: both components' modules in one PRISM file
            with open(full, "w") as f:
                f.write(open(l1).read())
                f.write(open(l2).read().replace("mdp\n", "", 1))
            models += [l1, l2, full]
    bad = 0
    print("| model | Storm states/choices/transitions | Storm reading Cove's DRN | Cove simulates Storm's DRN both ways |")
    print("|---|---|---|---|")
    for p in models:
        try:
            ms = storm_prism(p)
        except Exception as e:
            print(f"| {os.path.basename(p)} | Storm: {e} | | |")
            continue
        drn = os.path.join(tmp, os.path.basename(p) + ".cove.drn")
        r, _ = run([cove, "prob", "export", p, "--to", "drn", "-o", drn])
        if r.returncode != 0:
            print(f"| {os.path.basename(p)} | {counts(ms)} | cove export failed: {r.stderr.strip()} | |"); bad += 1
            continue
        mc = stormpy.build_model_from_drn[stormpy.Rational](drn)
        same = counts(mc) == counts(ms)
        sdrn = os.path.join(tmp, os.path.basename(p) + ".storm.drn")
        stormpy.io.export_to_drn(ms, sdrn)
        a, ta = run([cove, "prob", "simulate", sdrn, p])
        b, tb = run([cove, "prob", "simulate", p, sdrn])
        both = a.stdout.startswith("holds") and b.stdout.startswith("holds")
        bad += (not same) + (not both)
        print(f"| {os.path.basename(p)} | {counts(ms)} | {counts(mc)} {'same' if same else 'DIFFERENT'} "
              f"| {'holds both ways' if both else 'MISMATCH'} ({ta:.1f} s + {tb:.1f} s) |")
    sys.exit(1 if bad else 0)

main()
