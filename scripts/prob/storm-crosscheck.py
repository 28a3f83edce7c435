"""Cross-check Cove's PRISM builder against Storm, component by component.

For every `*.prism` model in MODELS (e.g. the thesis families written by
`cove prob bench --write-models MODELS --methods mono`), build it with Cove
(`cove prob export --to drn`) and with Storm (stormpy, from the PRISM source), and compare
the numbers of states, choices and transitions. The transitions on Cove's side are counted
by Storm reading Cove's DRN file back, so the row also checks that the export is valid
DRN. Needs `pip install stormpy` (2.0). Prints a TSV; exit status 1 if any row differs.

    python3 scripts/prob/storm-crosscheck.py target/release/cove MODELS [DRN_DIR]
"""
import glob
import os
import re
import subprocess
import sys
import time

import stormpy


def main():
    cove, models = sys.argv[1], sys.argv[2]
    drn_dir = sys.argv[3] if len(sys.argv) > 3 else os.path.join(models, "drn")
    os.makedirs(drn_dir, exist_ok=True)
    print("model\tcove_states\tstorm_states\tcove_choices\tstorm_choices"
          "\tcove_transitions\tstorm_transitions\tverdict\tcove_s\tstorm_s")
    differ = 0
    for f in sorted(glob.glob(os.path.join(models, "*.prism"))):
        name = os.path.basename(f)[: -len(".prism")]
        out = os.path.join(drn_dir, name + ".drn")
        t0 = time.time()
        r = subprocess.run([cove, "prob", "export", f, "--to", "drn", "-o", out],
                           capture_output=True, text=True)
        cove_s = time.time() - t0
        if r.returncode != 0:
            print(f"{name}\tcove error: {r.stderr.strip()[:80]}")
            differ += 1
            continue
        head = open(out).read(4096)
        states = int(re.search(r"@nr_states\s+(\d+)", head).group(1))
        choices = int(re.search(r"@nr_choices\s+(\d+)", head).group(1))
        t0 = time.time()
        m = stormpy.build_model(stormpy.parse_prism_program(f))
        storm_s = time.time() - t0
        back = stormpy.build_model_from_drn(out)
        ours = (states, choices, back.nr_transitions)
        theirs = (m.nr_states, m.nr_choices, m.nr_transitions)
        verdict = "EQUAL" if ours == theirs else "DIFF"
        differ += verdict != "EQUAL"
        print(f"{name}\t{ours[0]}\t{theirs[0]}\t{ours[1]}\t{theirs[1]}\t{ours[2]}\t{theirs[2]}"
              f"\t{verdict}\t{cove_s:.2f}\t{storm_s:.2f}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
