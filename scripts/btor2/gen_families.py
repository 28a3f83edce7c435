#!/usr/bin/env python3
"""Parametrised word-level hardware families, each written twice: as BTOR2 (word level) and as
AIGER (bit level, built gate by gate here, independently of Cove's bit-blaster), so that
`cove solve X.btor2` can be compared with `cove solve X.aag` on the same design.

  counter_W_M_T: a W-bit counter with an enable input counts 0..M-1 and wraps to 0;
                 bad when it equals T (unsafe iff T < M, at depth T).
  twin_W:        two W-bit counters step together under one enable (wrapping at 2^W);
                 bad when they differ (safe; needs the relational invariant a = b).

Usage: gen_families.py OUTDIR   (writes NAME.btor2 and NAME.aag, prints `NAME<TAB>expected`)
"""
import os
import sys


class Aig:
    def __init__(self):
        self.n = 0
        self.inputs, self.latches, self.ands, self.bad = [], [], [], []

    def var(self):
        self.n += 1
        return 2 * self.n

    def inp(self):
        v = self.var()
        self.inputs.append(v)
        return v

    def latch(self):
        v = self.var()
        self.latches.append([v, 0])
        return v

    def AND(self, a, b):
        if a == 0 or b == 0:
            return 0
        if a == 1:
            return b
        if b == 1:
            return a
        v = self.var()
        self.ands.append((v, a, b))
        return v

    def OR(self, a, b):
        return self.AND(a ^ 1, b ^ 1) ^ 1

    def XOR(self, a, b):
        return self.OR(self.AND(a, b ^ 1), self.AND(a ^ 1, b))

    def MUX(self, c, t, e):
        return self.OR(self.AND(c, t), self.AND(c ^ 1, e))

    def eq_const(self, bits, k):
        r = 1
        for i, b in enumerate(bits):
            r = self.AND(r, b if (k >> i) & 1 else b ^ 1)
        return r

    def inc(self, bits):
        out, c = [], 1
        for b in bits:
            out.append(self.XOR(b, c))
            c = self.AND(b, c)
        return out

    def text(self):
        lines = ["aag %d %d %d 0 %d %d" % (self.n, len(self.inputs), len(self.latches), len(self.ands), len(self.bad))]
        lines += [str(i) for i in self.inputs]
        lines += ["%d %d" % (l, nx) for l, nx in self.latches]
        lines += [str(b) for b in self.bad]
        lines += ["%d %d %d" % g for g in self.ands]
        return "\n".join(lines) + "\n"


def counter(w, m, t):
    btor = f"""1 sort bitvec {w}
2 sort bitvec 1
3 input 2 en
4 state 1 cnt
5 zero 1
6 init 1 4 5
7 constd 1 {m - 1}
8 eq 2 4 7
9 inc 1 4
10 ite 1 8 5 9
11 ite 1 3 10 4
12 next 1 4 11
13 constd 1 {t}
14 eq 2 4 13
15 bad 14
"""
    a = Aig()
    en = a.inp()
    cnt = [a.latch() for _ in range(w)]
    wrap = a.eq_const(cnt, m - 1)
    inc = a.inc(cnt)
    for i, l in enumerate(a.latches):
        stepped = a.MUX(wrap, 0, inc[i])
        l[1] = a.MUX(en, stepped, cnt[i])
    a.bad.append(a.eq_const(cnt, t))
    return btor, a.text(), "unsafe" if t < m else "safe"


def twin(w):
    btor = f"""1 sort bitvec {w}
2 sort bitvec 1
3 input 2 en
4 zero 1
5 state 1 a
6 state 1 b
7 init 1 5 4
8 init 1 6 4
9 inc 1 5
10 inc 1 6
11 ite 1 3 9 5
12 ite 1 3 10 6
13 next 1 5 11
14 next 1 6 12
15 neq 2 5 6
16 bad 15
"""
    g = Aig()
    en = g.inp()
    xa = [g.latch() for _ in range(w)]
    xb = [g.latch() for _ in range(w)]
    ia, ib = g.inc(xa), g.inc(xb)
    for i in range(w):
        g.latches[i][1] = g.MUX(en, ia[i], xa[i])
        g.latches[w + i][1] = g.MUX(en, ib[i], xb[i])
    same = 1
    for i in range(w):
        same = g.AND(same, g.XOR(xa[i], xb[i]) ^ 1)
    g.bad.append(same ^ 1)
    return btor, g.text(), "safe"


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    designs = {}
    for w in (8, 12, 16):
        m = (1 << w) - 3
        designs[f"counter_{w}_{m}_{m + 1}"] = counter(w, m, m + 1)
        designs[f"counter_{w}_{m}_{min(m - 1, 200)}"] = counter(w, m, min(m - 1, 200))
    for w in (8, 16, 32):
        designs[f"twin_{w}"] = twin(w)
    for name, (btor, aag, expected) in designs.items():
        with open(os.path.join(out, name + ".btor2"), "w") as f:
            f.write(btor)
        with open(os.path.join(out, name + ".aag"), "w") as f:
            f.write(aag)
        print(f"{name}\t{expected}")


if __name__ == "__main__":
    main()
