#!/usr/bin/env python3
"""Validate Cove's CHC-COMP models (`cove solve --model`) with z3, the way the competition
checks the model track.

For each instance of a manifest (`track<TAB>path<TAB>expected`), run
`cove solve --model --timeout T FILE`; for every `sat` answer, check that the output is
exactly `sat` followed by one `define-fun` per predicate declared in the input file (after
the `define-fun-rec`/`define-funs-rec` measures the definitions apply, if any), then
build the competition's validation script

    (set-logic ALL)
    <every declaration of the input except the predicates'>
    <the model's define-fun commands>
    (push) (assert (not CLAUSE_1)) (check-sat) (pop)
    ...

and run z3 (or, with `--solver cvc5`, cvc5 through its Python API) on it: every clause
must come back `unsat` (its negation has no solution under the model, i.e. the clause
holds). Anything else is reported: `invalid` (z3 found a clause
violated), `undecided` (z3 said unknown or ran out of time), `malformed` (z3 could not
read the model, or the define-funs do not match the input's predicates).

    python3 -m pip install z3-solver          # gives the z3 binary
    scripts/chc/validate-models.py ../shared/bench/chc.tsv --timeout 5 --jobs 2
    python3 -m pip install cvc5               # optional: --solver cvc5

Exits 1 when any model is invalid or malformed. Standard library plus the z3 binary (or
the cvc5 Python package).
Writes one line per instance with `-v`, and the per-instance results as TSV with `--out`.
"""

import argparse
import concurrent.futures
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

# ---------------------------------------------------------------- s-expressions


def top_level_sexprs(text):
    """Splits SMT-LIB2 text into its top-level s-expressions (as source text), skipping
    comments, and honouring `|quoted symbols|` and "strings"."""
    out = []
    depth = 0
    start = None
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == ";":
            while i < n and text[i] != "\n":
                i += 1
            continue
        if c == "|":
            j = text.index("|", i + 1)
            i = j + 1
            continue
        if c == '"':
            j = i + 1
            while True:
                j = text.index('"', j)
                if j + 1 < n and text[j + 1] == '"':
                    j += 2
                    continue
                break
            i = j + 1
            continue
        if c == "(":
            if depth == 0:
                start = i
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                out.append(text[start : i + 1])
            if depth < 0:
                raise ValueError("unbalanced ')'")
        i += 1
    if depth != 0:
        raise ValueError("unbalanced '('")
    return out


def head_and_name(sexpr):
    """The command name and its first argument (symbol) of `(cmd name ...)`."""
    body = sexpr[1:].lstrip()
    cmd = body.split(None, 1)[0].rstrip(")")
    rest = body[len(cmd) :].lstrip()
    if rest.startswith("|"):
        name = rest[: rest.index("|", 1) + 1]
    else:
        name = ""
        for ch in rest:
            if ch.isspace() or ch in "()":
                break
            name += ch
    return cmd, name


def unquote(sym):
    return sym[1:-1] if len(sym) >= 2 and sym[0] == sym[-1] == "|" else sym


def declared_predicates(commands):
    """Names of `declare-fun … Bool` (the predicates), in order."""
    preds = []
    for c in commands:
        cmd, name = head_and_name(c)
        if cmd == "declare-fun" and c.rstrip()[:-1].rstrip().endswith("Bool"):
            preds.append(unquote(name))
        elif cmd == "declare-rel":
            preds.append(unquote(name))
    return preds


# ---------------------------------------------------------------- validation

# Runs an SMT-LIB2 script (stdin) through cvc5's parser and solver; prints the outputs.
CVC5_RUNNER = """
import sys, cvc5
tm = cvc5.TermManager()
solver = cvc5.Solver(tm)
solver.setOption("tlimit-per", sys.argv[1])
sm = cvc5.SymbolManager(tm)
parser = cvc5.InputParser(solver, sm)
parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, sys.stdin.read(), "validation")
try:
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            break
        sys.stdout.write(cmd.invoke(solver, sm))
except Exception as e:
    print('(error "%s")' % str(e).replace('"', "'").replace("\\n", " "))
"""


def run_solver(solver, script, timeout):
    """Runs the validation script; returns the solver's standard output."""
    if solver == "cvc5":
        cmd = [sys.executable, "-c", CVC5_RUNNER, str(timeout * 1000)]
        p = subprocess.run(cmd, input=script, capture_output=True, text=True,
                           timeout=timeout * 4 + 10)
        return p.stdout + ("" if p.returncode == 0 else f'(error "cvc5 exited {p.returncode}")')
    with tempfile.NamedTemporaryFile("w", suffix=".smt2", delete=False) as f:
        f.write(script)
        path = f.name
    try:
        return subprocess.run([solver, f"-T:{timeout}", path], capture_output=True,
                              text=True, timeout=timeout + 10).stdout
    finally:
        os.unlink(path)


def validation_script(input_cmds, model_cmds, predicates):
    # Names the model defines: the predicates, and declared constants whose values the
    # model states (`(define-fun c () Int 5)`); their declarations are replaced.
    preds = set(predicates) | {unquote(head_and_name(m)[1]) for m in model_cmds}
    lines = ["(set-logic ALL)"]
    for c in input_cmds:
        cmd, name = head_and_name(c)
        if cmd in ("set-logic", "check-sat", "get-model", "exit", "set-info", "set-option"):
            continue
        if cmd in ("declare-fun", "declare-const") and unquote(name) in preds:
            continue
        if cmd == "assert":
            continue
        lines.append(c)
    lines.extend(model_cmds)
    for c in input_cmds:
        cmd, _ = head_and_name(c)
        if cmd == "assert":
            clause = c[len("(assert") : -1].strip()
            lines.append(f"(push 1)\n(assert (not {clause}))\n(check-sat)\n(pop 1)")
    return "\n".join(lines) + "\n"


def check_model(input_text, cove_stdout, solver, solver_timeout):
    """Returns (status, detail) for one `sat` answer."""
    try:
        input_cmds = top_level_sexprs(input_text)
    except ValueError as e:
        return "malformed", f"input: {e}"
    lines = cove_stdout.strip().split("\n", 1)
    model_text = lines[1] if len(lines) > 1 else ""
    try:
        model_cmds = top_level_sexprs(model_text)
    except ValueError as e:
        return "malformed", f"model: {e}"
    rest = model_text
    for m in model_cmds:
        rest = rest.replace(m, "", 1)
    if rest.strip():
        return "malformed", f"text outside define-fun commands: {rest.strip()[:80]!r}"
    predicates = declared_predicates(input_cmds)
    defined = []
    for m in model_cmds:
        cmd, name = head_and_name(m)
        if cmd in ("define-fun-rec", "define-funs-rec"):
            # Measures over recursive datatypes (sizes, constructor indices) that the
            # predicates' definitions apply: not predicates themselves.
            continue
        if cmd != "define-fun":
            return "malformed", f"not a define-fun: {m[:60]}"
        defined.append(unquote(name))
    consts = {unquote(head_and_name(c)[1]) for c in input_cmds
              if head_and_name(c)[0] in ("declare-const", "declare-fun")} - set(predicates)
    defined = [d for d in defined if d not in consts]
    if sorted(defined) != sorted(predicates):
        missing = sorted(set(predicates) - set(defined))
        extra = sorted(set(defined) - set(predicates))
        dup = len(defined) != len(set(defined))
        return "malformed", f"define-funs do not match the predicates: missing {missing[:5]}, extra {extra[:5]}, duplicates {dup}"
    script = validation_script(input_cmds, model_cmds, predicates)
    name = os.path.basename(solver)
    try:
        stdout = run_solver(solver, script, solver_timeout)
    except subprocess.TimeoutExpired:
        return "undecided", f"{name} timed out"
    out = stdout.split()
    if "(error" in stdout:
        err = stdout[stdout.find("(error") :].splitlines()[0]
        return "malformed", f"{name}: {err[:160]}"
    answers = [w for w in out if w in ("sat", "unsat", "unknown", "timeout")]
    n_clauses = sum(1 for c in input_cmds if head_and_name(c)[0] == "assert")
    if "sat" in answers:
        return "invalid", f"{name}: clause {answers.index('sat')} violated"
    if len(answers) == n_clauses and all(a == "unsat" for a in answers):
        return "valid", f"{n_clauses} clauses"
    return "undecided", f"{name} answered {len(answers)}/{n_clauses} checks: {sorted(set(answers))}"


def run_one(inst, args):
    track, path, expected = inst
    full = os.path.join(args.root, path)
    try:
        with open(full) as f:
            text = f.read()
    except OSError as e:
        return inst, "error", "", str(e)
    cmd = [args.cove, "solve", "--model", "--timeout", str(args.timeout),
           *shlex.split(args.cove_args), full]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout + 30)
    except subprocess.TimeoutExpired:
        return inst, "timeout", "", "cove exceeded its own limit"
    first = p.stdout.strip().split("\n", 1)[0].strip() if p.stdout.strip() else ""
    if first != "sat":
        return inst, first or "error", "", p.stderr.strip().splitlines()[-1:] and p.stderr.strip().splitlines()[-1] or ""
    status, detail = check_model(text, p.stdout, args.solver_cmd, args.solver_timeout)
    return inst, "sat", status, detail


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("manifest")
    ap.add_argument("--root", help="base of the manifest paths (default: its directory)")
    ap.add_argument("--cove", default=None, help="cove binary (default: target/release/cove)")
    ap.add_argument("--solver", choices=["z3", "cvc5"], default="z3",
                    help="checker: the z3 binary, or cvc5's Python API (pip install cvc5)")
    ap.add_argument("--z3", default=shutil.which("z3"), help="z3 binary (default: on PATH)")
    ap.add_argument("--timeout", type=float, default=5, help="cove time limit per instance (s)")
    ap.add_argument("--solver-timeout", type=int, default=30,
                    help="checker time limit per model (s)")
    ap.add_argument("--jobs", "-j", type=int, default=1)
    ap.add_argument("--cove-args", default="", help="extra `cove solve` arguments, e.g. "
                    "'--threads 1' when running several jobs")
    ap.add_argument("--filter", help="only instances whose track or path contains this")
    ap.add_argument("--expected", choices=["sat", "unsat", "any"], default="any",
                    help="only instances with this expected answer")
    ap.add_argument("--out", help="write per-instance results (TSV) here")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    args.cove = args.cove or os.path.join(here, "..", "..", "target", "release", "cove")
    args.root = args.root or os.path.dirname(os.path.abspath(args.manifest))
    if args.solver == "cvc5":
        try:
            import cvc5  # noqa: F401
        except ImportError:
            sys.exit("cvc5 not importable: python3 -m pip install cvc5")
        args.solver_cmd = "cvc5"
    elif not args.z3:
        sys.exit("z3 not found: python3 -m pip install z3-solver")
    else:
        args.solver_cmd = args.z3
    if not os.access(args.cove, os.X_OK):
        sys.exit(f"{args.cove} not found: cargo build --release")

    insts = []
    with open(args.manifest) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            track, path, expected = line.split("\t")[:3]
            if args.filter and args.filter not in track and args.filter not in path:
                continue
            if args.expected != "any" and expected != args.expected:
                continue
            insts.append((track, path, expected))

    counts = {}
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for inst, answer, status, detail in pool.map(lambda i: run_one(i, args), insts):
            key = f"sat/{status}" if answer == "sat" else answer
            counts[key] = counts.get(key, 0) + 1
            rows.append((*inst, answer, status, detail))
            if args.verbose or status in ("invalid", "malformed"):
                print(f"{inst[1]}\t{answer}\t{status}\t{detail}", flush=True)
    if args.out:
        with open(args.out, "w") as f:
            f.write("track\tpath\texpected\tanswer\tmodel\tdetail\n")
            for r in rows:
                f.write("\t".join(str(x) for x in r) + "\n")
    sat = sum(v for k, v in counts.items() if k.startswith("sat/"))
    print(f"instances: {len(insts)}, cove sat answers: {sat}")
    for k in sorted(counts):
        print(f"  {k}: {counts[k]}")
    bad = counts.get("sat/invalid", 0) + counts.get("sat/malformed", 0)
    print(f"models valid: {counts.get('sat/valid', 0)}/{sat}, invalid or malformed: {bad}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
