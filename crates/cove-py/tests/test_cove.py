"""Tests of the Python bindings (module `cove`). Run with pytest after building the module
(scripts/python/bindings.sh does both). Everything they need is in the repository."""

import pathlib
from fractions import Fraction

import pytest

import cove

ROOT = pathlib.Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"

COUNTER = """
(set-logic HORN)
(declare-fun inv (Int) Bool)
(assert (forall ((x Int)) (=> (= x 0) (inv x))))
(assert (forall ((x Int) (y Int)) (=> (and (inv x) (< x 10) (= y (+ x 1))) (inv y))))
(assert (forall ((x Int)) (=> (and (inv x) (> x 10)) false)))
(check-sat)
"""


def counter_system(bound):
    """x counts from 0 to 10; reaching `bound` is the error."""
    s = cove.System()
    inv = s.declare("inv", ["Int"])
    s.add_clause(f"(=> (= x 0) ({inv} x))", {"x": "Int"})
    s.add_clause(f"(=> (and ({inv} x) (< x 10) (= y (+ x 1))) ({inv} y))",
                 [("x", "Int"), ("y", "Int")])
    s.add_clause(f"(=> (and ({inv} x) (>= x {bound})) false)", {"x": "Int"})
    return s


def test_solve_text_sat_with_invariants():
    r = cove.solve(COUNTER, engine="spacer", timeout=30)
    assert r.answer == "sat"
    assert r.validation == "valid"
    assert r.reason is None and r.counterexample is None
    inv = r.invariants["inv"]
    assert inv.name == "inv"
    assert inv.params == [("x0", "Int")]
    assert inv.define_fun.startswith("(define-fun inv ((x0 Int)) Bool ")
    assert r.model.strip() == inv.define_fun
    # The structured body mentions the parameter and is a list headed by an operator.
    assert isinstance(inv.term, (list, bool))

    def leaves(t):
        stack, out = [t], []
        while stack:
            x = stack.pop()
            if isinstance(x, list):
                stack.extend(x[1:])
            else:
                out.append(x)
        return out

    assert "x0" in leaves(inv.term)


def test_invariant_holds_on_reachable_states_and_excludes_the_error():
    r = cove.solve(COUNTER, engine="spacer", timeout=30)
    term = r.invariants["inv"].term
    ops = {
        "<=": lambda a, b: a <= b, "<": lambda a, b: a < b, ">=": lambda a, b: a >= b,
        ">": lambda a, b: a > b, "=": lambda a, b: a == b, "+": lambda *a: sum(a),
        "-": lambda a, b=None: -a if b is None else a - b, "*": lambda a, b: a * b,
        "and": lambda *a: all(a), "or": lambda *a: any(a), "not": lambda a: not a,
    }

    def ev(t, x):
        # Explicit stack, as the bindings themselves: terms can be deep.
        todo, done = [(t, False)], []
        while todo:
            node, expanded = todo.pop()
            if not isinstance(node, list):
                done.append(x if node == "x0" else node)
            elif not expanded:
                todo.append((node, True))
                todo.extend((a, False) for a in reversed(node[1:]))
            else:
                n = len(node) - 1
                args = done[len(done) - n:]
                del done[len(done) - n:]
                done.append(ops[node[0]](*args))
        return done[0]

    assert all(ev(term, x) for x in range(0, 11))
    assert not ev(term, 11)


def test_builder_unsat_with_counterexample():
    s = counter_system(5)
    assert s.predicates == [("inv", ["Int"])]
    assert len(s) == 3
    r = s.solve(engine="spacer", timeout=30)
    assert r.answer == "unsat"
    assert r.validation == "valid"
    cex = r.counterexample
    root = cex.steps[cex.root]
    assert root.predicate is None and root.clause == 2
    # Walk down the chain of premises: inv(5) <- inv(4) <- ... <- inv(0) by the fact.
    values = []
    step = cex.steps[root.premises[0]]
    while True:
        assert step.predicate == "inv"
        values.append(step.args[0])
        if not step.premises:
            assert step.clause == 0
            break
        step = cex.steps[step.premises[0]]
    assert values[-1] == 0 and values[0] >= 5
    assert "(derivation" in str(cex)


def test_builder_sat_and_text_round_trip():
    s = counter_system(11)
    r = cove.solve(s, engine="spacer", timeout=30)
    assert r.answer == "sat"
    again = cove.System.parse(s.to_smtlib())
    assert cove.solve(again, engine="spacer", timeout=30).answer == "sat"


def test_reals_come_back_as_fractions():
    text = """(set-logic HORN)
    (declare-fun p (Real) Bool)
    (assert (forall ((x Real)) (=> (= x (/ 1 2)) (p x))))
    (assert (forall ((x Real)) (=> (and (p x) (> x 0.25)) false)))
    """
    r = cove.solve(text, engine="spacer", timeout=30)
    assert r.answer == "unsat"
    fact = [s for s in r.counterexample.steps if s.predicate == "p"][0]
    assert fact.args == [Fraction(1, 2)]


def test_files_bytes_and_engines():
    r = cove.solve(System_from(EXAMPLES / "recursive-mtd.smt2"), timeout=60)
    assert r.answer == "sat" and set(r.invariants) == {"D", "M", "T"}
    assert cove.solve(COUNTER.encode(), engine="spacer").answer == "sat"
    # BMC never proves safety: it answers unknown with a reason.
    r = cove.solve(COUNTER, engine="bmc", timeout=2)
    assert r.answer == "unknown" and r.reason
    assert "spacer" in cove.ENGINES and "portfolio" in cove.ENGINES


def System_from(path):
    return cove.System.from_file(str(path))


def test_errors():
    with pytest.raises(cove.ParseError, match="undeclared|unknown|inv2"):
        cove.System.parse("(set-logic HORN)\n(assert (inv2 3))\n")
    s = cove.System()
    s.declare("inv", ["Int"])
    with pytest.raises(cove.ParseError):
        s.add_clause("(=> (= x 0) (inv x)")  # unbalanced
    assert len(s) == 0  # the bad clause was not kept
    with pytest.raises(ValueError, match="unknown engine"):
        cove.solve(COUNTER, engine="magic")
    with pytest.raises(ValueError, match="timeout"):
        cove.solve(COUNTER, timeout=-1)
    with pytest.raises(TypeError):
        cove.solve(42)
    assert issubclass(cove.ParseError, ValueError)


def test_several_questions():
    text = COUNTER.replace("(check-sat)", "(check-sat)\n(assert (forall ((x Int)) "
                           "(=> (and (inv x) (> x 3)) false)))\n(check-sat)")
    with pytest.raises(ValueError, match="solve_all"):
        cove.solve(text)
    answers = [r.answer for r in cove.solve_all(text, engine="spacer", timeout=30)]
    assert answers == ["sat", "unsat"]


def test_ctrl_c_stops_a_running_solve():
    import os
    import signal
    import threading
    import time

    # Hard for Spacer without abstraction (the corpus notes a Z3 time-out): runs until stopped.
    hard = (ROOT / "tests" / "corpus" / "thesis-gcnr-safe.smt2").read_text()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            cove.solve(hard, engine="spacer")
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - start < 30


def test_push_pop_and_solving_again():
    s = counter_system(11)
    assert s.solve(engine="spacer", timeout=30).answer == "sat"
    s.push()
    assert s.scopes == 1
    s.add_clause("(=> (and (inv x) (= x 4)) false)", {"x": "Int"})
    assert len(s) == 4
    r = s.solve(engine="spacer", timeout=30)
    assert r.answer == "unsat" and r.validation == "valid"
    s.pop()
    assert len(s) == 3 and s.scopes == 0
    # Back to the first system: the invariant found first answers without an engine.
    r = s.solve(engine="spacer", timeout=30)
    assert r.answer == "sat" and r.validation == "valid"
    assert s.last_reuse["answered_by"] == "lemmas"
    assert r.engine == "session:lemmas"
    # Commands as text; refused commands and bad pops raise.
    assert s.add("(assert (forall ((x Int)) (=> (and (inv x) (< x 0)) false)))") == 1
    with pytest.raises(ValueError):
        s.pop()
    with pytest.raises(cove.ParseError):
        s.add("(check-sat)")
    with pytest.raises(ValueError, match="solve_all"):
        cove.System.parse(COUNTER + "(check-sat)\n")


# A contract's state (supply s, balances a and b, transaction count n), two transfer
# functions, then mint and burn added later; assertions checked one by one as the Solidity
# SMTChecker does. (violation, expected answer)
STATE = {"s": "Int", "a": "Int", "b": "Int", "n": "Int"}
STEP = dict(STATE, s2="Int", a2="Int", b2="Int", n2="Int", k="Int")
ASSERTIONS = [
    ("(not (= (+ a b) s))", "sat"), ("(< a 0)", "sat"), ("(< b 0)", "sat"),
    ("(< s 0)", "sat"), ("(> a s)", "sat"), ("(> b s)", "sat"), ("(< n 0)", "sat"),
    ("(< s 100)", "sat"), ("(= b 50)", "unsat"), ("(>= n 3)", "unsat"),
    ("(> s 120)", "sat"), ("(= a 0)", "unsat"), ("(< (+ a b) 0)", "sat"),
    ("(and (= b 7) (= n 1))", "unsat"), ("(= (+ a b 1) s)", "sat"),
    ("(and (= n 0) (> b 0))", "sat"), ("(> (+ a b) s)", "sat"),
    ("(and (= a 30) (= b 70))", "unsat"), ("(< s b)", "sat"),
    ("(and (= n 0) (not (= s 100)))", "sat"),
]
RECHECKED = [0, 1, 2, 7, 10]
GROWING = [
    ("(< 0 k) (<= k 10) (= a2 (+ a k)) (= s2 (+ s k)) (= b2 b) (= n2 (+ n 1))",
     ["sat", "sat", "sat", "sat", "unsat"]),
    ("(< 0 k) (<= k b) (= b2 (- b k)) (= s2 (- s k)) (= a2 a) (= n2 (+ n 1))",
     ["sat", "sat", "sat", "unsat", "unsat"]),
]


def transition(s, tx):
    s.add_clause(f"(=> (and (state s a b n) {tx}) (state s2 a2 b2 n2))", STEP)


def check(s, bad):
    """One assertion checked on its own: incrementally, and from scratch on the same system."""
    s.push()
    s.add_clause(f"(=> (and (state s a b n) {bad}) false)", STATE)
    inc = s.solve(engine="spacer", timeout=60)
    scratch = cove.solve(s.to_smtlib(), engine="spacer", timeout=60)
    s.pop()
    assert inc.validation == "valid"
    return inc.answer, scratch.answer, s.last_reuse["answered_by"], s.last_reuse["houdini"]


def test_incremental_answers_match_solving_from_scratch():
    s = cove.System()
    s.declare("state", ["Int", "Int", "Int", "Int"])
    s.add_clause("(=> (and (= s 100) (= a 100) (= b 0) (= n 0)) (state s a b n))", STATE)
    transition(s, "(< 0 k) (<= k a) (= a2 (- a k)) (= b2 (+ b k)) (= s2 s) (= n2 (+ n 1))")
    transition(s, "(< 0 k) (<= k b) (= b2 (- b k)) (= a2 (+ a k)) (= s2 s) (= n2 (+ n 1))")
    runs, expected = [], []
    for bad, want in ASSERTIONS:
        runs.append(check(s, bad))
        expected.append(want)
    for tx, wants in GROWING:
        transition(s, tx)
        for i, want in zip(RECHECKED, wants):
            runs.append(check(s, ASSERTIONS[i][0]))
            expected.append(want)
    assert len(runs) == 30
    assert [r[0] for r in runs] == [r[1] for r in runs] == expected
    reused = [r[2] for r in runs]
    assert reused.count("lemmas") >= 5 and reused.count("facts") >= 1
    assert sum(1 for r in runs if r[3]) >= 2  # lemmas re-checked after each added rule
    # With reuse off, the same answers from the engine alone.
    s.incremental = False
    assert not s.incremental
    s.push()
    s.add_clause("(=> (and (state s a b n) (< s 0)) false)", STATE)
    r = s.solve(engine="spacer", timeout=60)
    assert r.answer == "sat" and s.last_reuse["answered_by"] is None
    s.pop()


def test_memory_limit_is_accepted_and_checked():
    assert cove.solve(COUNTER, engine="spacer", memory_mb=4096).answer == "sat"
    with pytest.raises(ValueError, match="memory_mb"):
        cove.solve(COUNTER, memory_mb=0)


AIG_DATA = ROOT / "crates" / "cove-aig" / "tests" / "data"


def test_solve_file_of_each_language(tmp_path):
    # Horn clauses: one answer per question, with the invariants asked for.
    [a] = cove.solve_file(EXAMPLES / "counter.smt2", model=True, timeout=60)
    assert (a.format, a.verdict, a.safety) == ("chc", "sat", "safe")
    assert a.text.startswith("sat\n(define-fun inv") and a.validation == "valid"
    # AIGER: the HWMCC witness.
    [a] = cove.solve_file(str(AIG_DATA / "mod6_safe.aag"), timeout=60)
    assert (a.format, a.verdict, a.text) == ("aiger", "safe", "0\nb0\n.\n")
    assert a.properties == [("b0", "safe")]
    [a] = cove.solve_file(AIG_DATA / "counter4_unsafe.aig", engine="ic3", timeout=60)
    assert a.safety == "unsafe" and a.text.startswith("1\nb0\n")
    # BTOR2: the word-level witness.
    [a] = cove.solve_file(AIG_DATA / "btor2" / "counter_unsafe.btor2", timeout=60)
    assert (a.format, a.verdict) == ("btor2", "unsafe")
    assert a.text.startswith("sat\nb0\n#0\n") and a.validation == "valid"
    assert "ic3" in cove.HARDWARE_ENGINES
    # Refusals.
    bad = tmp_path / "bad.aag"
    bad.write_text("aag 1 1 0 1 0\n2\n9\n")
    with pytest.raises(cove.ParseError, match="bad.aag:"):
        cove.solve_file(bad)
    with pytest.raises(OSError):
        cove.solve_file(tmp_path / "missing.aag")
    with pytest.raises(ValueError, match="not Horn clauses"):
        cove.solve_file(EXAMPLES / "counter.smt2", engine="ic3")
