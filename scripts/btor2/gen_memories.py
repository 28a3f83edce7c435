#!/usr/bin/env python3
"""Writes BTOR2 designs with memories (array sorts) whose answers are known by construction,
and their manifest (`track<TAB>path<TAB>expected`, `sat` = a bad state is reachable), into
crates/cove-aig/tests/data/btor2/memories/. Run from the repository's root; the files are
committed, so the tests and CI need no Python.

Families (A = index width, memories of 2^A cells; those of more than 2^20 bits are beyond the
bit-blaster and decided over the theory of arrays):
- mem_even_A_{safe,unsafe}: a memory initialised to zero, written at an input address with an
  input value whose low bit is cleared; the bad state reads an odd value at an input address.
  The unsafe variant forgets to clear the bit when it writes the last cell.
- fifo_A_{safe,unsafe}: a FIFO of 2^A 4-bit cells (head, tail, count); pushes store values
  below 8. Bad: the count exceeds the depth, or a pop reads a value of 8 or more. The safe
  FIFO refuses pushes when full; the unsafe one does not and overflows after 2^A + 1 pushes
  (a counterexample of depth 2^A + 1).
- uninit_A: an uninitialised memory; bad when its last cell holds a given value (unsafe at
  depth 0: the witness gives the memory's cell).
- mirror_A_{safe,unsafe}: two memories written alike under the same enable (ite over
  arrays); bad when they differ (array equality). The unsafe one writes value + 1 into the
  second memory's cell 0.
"""
import os

OUT = "crates/cove-aig/tests/data/btor2/memories"


class B:
    def __init__(self):
        self.lines = []
        self.n = 0

    def __call__(self, *parts):
        self.n += 1
        self.lines.append(" ".join(str(p) for p in (self.n,) + parts))
        return self.n

    def text(self, comment):
        return "".join(f"; {c}\n" for c in comment.splitlines()) + "\n".join(self.lines) + "\n"


def mem_even(a, safe):
    b = B()
    idx, elem, bit = b("sort bitvec", a), b("sort bitvec", 8), b("sort bitvec", 1)
    arr = b("sort array", idx, elem)
    zero = b("zero", elem)
    mem = b("state", arr, "mem")
    b("init", arr, mem, zero)
    waddr, wdata, raddr = b("input", idx, "waddr"), b("input", elem, "wdata"), b("input", idx, "raddr")
    mask = b("consth", elem, "fe")
    even = b("and", elem, wdata, mask)
    if not safe:
        last = b("ones", idx)
        at_last = b("eq", bit, waddr, last)
        even = b("ite", elem, at_last, wdata, even)
    w = b("write", arr, mem, waddr, even)
    b("next", arr, mem, w)
    r = b("read", elem, mem, raddr)
    low = b("slice", bit, r, 0, 0)
    b("bad", low)
    return b.text(f"mem_even: 2^{a} cells of 8 bits written with even values ({'safe' if safe else 'unsafe: the last cell gets odd values'})")


def fifo(a, safe):
    b = B()
    idx, data, cnt_s, bit = b("sort bitvec", a), b("sort bitvec", 4), b("sort bitvec", a + 1), b("sort bitvec", 1)
    arr = b("sort array", idx, data)
    z4, zi, zc = b("zero", data), b("zero", idx), b("zero", cnt_s)
    mem = b("state", arr, "mem")
    b("init", arr, mem, z4)
    head, tail, count = b("state", idx, "head"), b("state", idx, "tail"), b("state", cnt_s, "count")
    for s, z in ((head, zi), (tail, zi), (count, zc)):
        b("init", idx if z != zc else cnt_s, s, z)
    push, pop, din = b("input", bit, "push"), b("input", bit, "pop"), b("input", data, "din")
    depth = b("constd", cnt_s, 2 ** a)
    notfull = b("ult", bit, count, depth)
    zc2 = b("zero", cnt_s)
    nonempty = b("ugt", bit, count, zc2)
    do_push = b("and", bit, push, notfull) if safe else push
    do_pop = b("and", bit, pop, nonempty)
    seven = b("constd", data, 7)
    small = b("and", data, din, seven)
    w = b("write", arr, mem, tail, small)
    mem_n = b("ite", arr, do_push, w, mem)
    b("next", arr, mem, mem_n)
    one_i = b("one", idx)
    tail_inc = b("add", idx, tail, one_i)
    head_inc = b("add", idx, head, one_i)
    b("next", idx, tail, b("ite", idx, do_push, tail_inc, tail))
    b("next", idx, head, b("ite", idx, do_pop, head_inc, head))
    one_c = b("one", cnt_s)
    up = b("ite", cnt_s, do_push, b("add", cnt_s, count, one_c), count)
    down = b("ite", cnt_s, do_pop, b("sub", cnt_s, up, one_c), up)
    b("next", cnt_s, count, down)
    over = b("ugt", bit, count, depth)
    out = b("read", data, mem, head)
    eight = b("constd", data, 8)
    big = b("ugte", bit, out, eight)
    bad_pop = b("and", bit, do_pop, big)
    b("bad", b("or", bit, over, bad_pop))
    return b.text(f"fifo: 2^{a} cells of 4 bits ({'safe: pushes refused when full' if safe else 'unsafe: overflows after 2^A + 1 pushes'})")


def uninit(a, elem):
    b = B()
    idx, e, bit = b("sort bitvec", a), b("sort bitvec", elem), b("sort bitvec", 1)
    arr = b("sort array", idx, e)
    mem = b("state", arr, "mem")
    b("next", arr, mem, mem)
    last = b("ones", idx)
    r = b("read", e, mem, last)
    want = b("ones", e)
    b("bad", b("eq", bit, r, want))
    return b.text(f"uninit: an uninitialised memory of 2^{a} cells of {elem} bits; bad when the last cell is all ones (unsafe at depth 0)")


def mirror(a, safe):
    b = B()
    idx, e, bit = b("sort bitvec", a), b("sort bitvec", 4), b("sort bitvec", 1)
    arr = b("sort array", idx, e)
    z = b("zero", e)
    m1, m2 = b("state", arr, "m1"), b("state", arr, "m2")
    b("init", arr, m1, z)
    b("init", arr, m2, z)
    en, addr, val = b("input", bit, "en"), b("input", idx, "addr"), b("input", e, "val")
    val2 = val
    if not safe:
        zi = b("zero", idx)
        at0 = b("eq", bit, addr, zi)
        val2 = b("ite", e, at0, b("inc", e, val), val)
    b("next", arr, m1, b("ite", arr, en, b("write", arr, m1, addr, val), m1))
    b("next", arr, m2, b("ite", arr, en, b("write", arr, m2, addr, val2), m2))
    b("bad", b("neq", bit, m1, m2))
    return b.text(f"mirror: two memories of 2^{a} cells written alike ({'safe' if safe else 'unsafe: cell 0 of the second gets value + 1'})")


def main():
    os.makedirs(OUT, exist_ok=True)
    rows = []

    def put(name, text, expected):
        with open(os.path.join(OUT, name + ".btor2"), "w") as f:
            f.write(text)
        rows.append(f"BTOR2-arrays\t{name}.btor2\t{expected}")

    for a in (1, 2, 4, 8):
        put(f"mem_even_{a}_safe", mem_even(a, True), "unsat")
        put(f"mem_even_{a}_unsafe", mem_even(a, False), "sat")
    for a in (1, 2, 3, 4):
        put(f"fifo_{a}_safe", fifo(a, True), "unsat")
        put(f"fifo_{a}_unsafe", fifo(a, False), "sat")
    for a, e in ((1, 8), (4, 8), (8, 8), (12, 4), (16, 1)):
        put(f"uninit_{a}_{e}", uninit(a, e), "sat")
    for a in (1, 2, 3):
        put(f"mirror_{a}_safe", mirror(a, True), "unsat")
        put(f"mirror_{a}_unsafe", mirror(a, False), "sat")
    # Memories too large to bit-blast (more than 2^20 bits): decided over the theory of arrays.
    for a in (20, 32):
        put(f"mem_even_{a}_safe", mem_even(a, True), "unsat")
        put(f"mem_even_{a}_unsafe", mem_even(a, False), "sat")
        put(f"mirror_{a}_safe", mirror(a, True), "unsat")
        put(f"mirror_{a}_unsafe", mirror(a, False), "sat")
    put("uninit_32_8", uninit(32, 8), "sat")
    put("fifo_20_safe", fifo(20, True), "unsat")
    with open(os.path.join(OUT, "memories.tsv"), "w") as f:
        f.write("# BTOR2 designs with memories, answers known by construction (scripts/btor2/gen_memories.py).\n")
        f.write("# sat = a bad state is reachable. Read by tests/btor2_memories.rs and .ci/run's harness step.\n")
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
