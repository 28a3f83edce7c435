#!/usr/bin/env python3
"""Builds every PRISM model bundled with stormpy with Storm and with Cove's front end
(the prism_stats example) and compares state counts. Not a test: needs stormpy.

usage: scripts/prob/storm-compare.py [--cove PATH_TO_prism_stats] [--timeout S]
"""
import glob, os, subprocess, sys, time
import stormpy, stormpy.examples.files as ef

# Values for constants the files leave open (given to both tools).
CONSTS = {
    "brp.pm": "N=16,MAX=2",
    "coin2.nm": "K=2",
    "firewire.nm": "delay=3,fast=0.5",
    "slipgrid_sketch.nm": "V=2",
    "wlan0_collide.nm": "COL=2,TRANS_TIME_MAX=10",
    "brp16_2.pm": "pL=0.8,pK=0.9,TOMsg=0.2,TOAck=0.1",
    "brp_rewards16_2.pm": "pL=0.8,pK=0.9,TOMsg=0.2,TOAck=0.1",
    "crowds3_5.pm": "PF=0.8,badC=0.1",
    "herman5.pm": "p=0.3",
    "parametric_die.pm": "p=0.3,q=0.6",
    "coin2_2.pm": "p1=0.3,p2=0.6",
    "pmdp/two_dice.nm": "p1=0.3,p2=0.6",
    "maze_2_par.prism": "i=0.5",
}

def storm_build(path, consts):
    prog = stormpy.parse_prism_program(path)
    if consts:
        prog, _ = stormpy.instantiate_constants(prog, consts)
    if prog.has_undefined_constants:
        return None, "undefined constants"
    mt = str(prog.model_type).replace("PrismModelType.", "")
    try:
        m = stormpy.build_model(prog)
    except Exception:
        # The explicit builder refuses custom `system` compositions; the symbolic one does not.
        m = stormpy.build_symbolic_model(prog)
        mt += ", symbolic"
    return m, mt

def main():
    cove = "target/release/examples/prism_stats"
    timeout = 60
    a = sys.argv[1:]
    if "--cove" in a:
        cove = a[a.index("--cove") + 1]
    if "--timeout" in a:
        timeout = float(a[a.index("--timeout") + 1])
    root = os.path.dirname(ef.__file__)
    files = sorted(f for ext in ("pm", "nm", "prism") for f in glob.glob(f"{root}/**/*.{ext}", recursive=True))
    same = differ = cove_err = storm_err = 0
    for f in files:
        name = os.path.relpath(f, root)
        consts = CONSTS.get(name.removeprefix("files/"), CONSTS.get(os.path.basename(f), ""))
        try:
            t = time.time()
            m, mt = storm_build(f, consts)
            st = "-" if m is None else f"{m.nr_states}"
            storm_note = mt if m is not None else mt
            ts = time.time() - t
        except Exception as e:  # Storm refuses the model
            m, st, storm_note, ts = None, "-", "error: " + str(e).splitlines()[0][:60] if str(e) else "error", 0
        try:
            t = time.time()
            out = subprocess.run([cove, f, consts], capture_output=True, text=True, timeout=timeout).stdout.strip()
            tc = time.time() - t
        except subprocess.TimeoutExpired:
            out, tc = "timeout", timeout
        entries_note = ""
        if out.startswith("states"):
            cs = out.split()[1]
            ce = out.split()[5]
            if m is not None and "DTMC" in storm_note:
                # A DTMC has one distribution per state: the matrix entries must agree too.
                entries_note = "entries same" if str(m.nr_transitions) == ce else f"ENTRIES DIFFER storm {m.nr_transitions} cove {ce}"
        else:
            cs = "-"
        if m is None:
            storm_err += 1
            verdict = "storm-refuses"
        elif cs == "-":
            cove_err += 1
            verdict = "cove-refuses"
        elif cs == st:
            same += 1
            verdict = "same"
        else:
            differ += 1
            verdict = "DIFFERENT"
        print(f"{name:45} storm {st:>8} ({ts:5.2f}s, {storm_note})  cove {cs:>8} ({tc:5.2f}s)  {verdict} {entries_note} {out if cs == '-' else ''}")
    print(f"\nfiles {len(files)}: same state count {same}, different {differ}, Cove refuses {cove_err}, Storm refuses {storm_err}")

main()
