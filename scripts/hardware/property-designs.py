#!/usr/bin/env python3
"""Writes the arbiter designs of crates/cove-aig/tests/data/properties/: AIGER 1.9 circuits
with several bad-state properties and justice (liveness) properties whose answers are known
by construction, for the per-property manifest crates/cove-aig/tests/data/properties.tsv.

Every design has N clients. A client's request is a latch r_i (set by input in_i, held until
granted); the grant g_i is combinational. A starvation monitor per client: a shared latch s
(set once by input s_in: "from now on") and k_i ("client i was granted after s"); justice
property j_i = {s, r_i, not k_i} asks for a fair run on which client i is pending, after s,
infinitely often without ever being granted again: such a run exists iff client i can starve.
Bad properties b_i = g_i & g_(i+1) (two neighbours granted at once; never) and, in the
round-robin designs, one reachable bad (client N-1 granted after client 0 was: depth ~2N).

  rr_N            token rotates every step: every j_i holds; b_0..b_(N-1) hold, b_N fails
  rr_stall_N      token moves only when input adv is 1; fairness {adv}: every j_i holds
  rr_stall_unfair_N  the same without the fairness constraint: every j_i fails
  priority_N      fixed priority 0 > 1 > ...: j_0 holds, the others fail
  priority_fair_N the same with fairness {not r_0}: j_0, j_1 hold, the others fail

Usage: scripts/hardware/property-designs.py OUTDIR  (prints the manifest lines; python3 only)
"""
import os
import sys


class Aig:
    def __init__(self):
        self.next_var = 1
        self.inputs, self.latches, self.ands = [], [], []
        self.bad, self.justice, self.fair = [], [], []
        self.cache = {}

    def input(self):
        v = self.next_var * 2
        self.next_var += 1
        self.inputs.append(v)
        return v

    def latch(self, init):
        v = self.next_var * 2
        self.next_var += 1
        self.latches.append([v, None, init])
        return v

    def set_next(self, lit, nxt):
        for l in self.latches:
            if l[0] == lit:
                l[1] = nxt
                return
        raise KeyError(lit)

    def AND(self, a, b):
        if a == 0 or b == 0 or a == (b ^ 1):
            return 0
        if a == 1:
            return b
        if b == 1 or a == b:
            return a
        key = (min(a, b), max(a, b))
        if key not in self.cache:
            v = self.next_var * 2
            self.next_var += 1
            self.ands.append((v, key[1], key[0]))
            self.cache[key] = v
        return self.cache[key]

    def OR(self, a, b):
        return self.AND(a ^ 1, b ^ 1) ^ 1

    def text(self):
        m = self.next_var - 1
        head = f"aag {m} {len(self.inputs)} {len(self.latches)} 0 {len(self.ands)} {len(self.bad)} 0 {len(self.justice)} {len(self.fair)}"
        out = [head]
        out += [str(i) for i in self.inputs]
        out += [f"{l} {n} {init}" for l, n, init in self.latches]
        out += [str(b) for b in self.bad]
        out += [str(len(j)) for j in self.justice]
        for j in self.justice:
            out += [str(x) for x in j]
        out += [str(f) for f in self.fair]
        out += [f"{a} {b} {c}" for a, b, c in self.ands]
        return "\n".join(out) + "\n"


def arbiter(n, kind):
    a = Aig()
    ins = [a.input() for _ in range(n)]
    s_in = a.input()
    adv = a.input() if kind.startswith("rr_stall") else None
    r = [a.latch(0) for _ in range(n)]
    s = a.latch(0)
    k = [a.latch(0) for _ in range(n)]
    if kind.startswith("rr"):
        t = [a.latch(1 if i == 0 else 0) for i in range(n)]
        g = [a.AND(t[i], r[i]) for i in range(n)]
        for i in range(n):
            prev = t[(i - 1) % n]
            if adv is None:
                a.set_next(t[i], prev)
            else:  # t_i' = adv ? t_(i-1) : t_i
                a.set_next(t[i], a.OR(a.AND(adv, prev), a.AND(adv ^ 1, t[i])))
    else:
        g, higher = [], 0
        for i in range(n):
            g.append(a.AND(r[i], higher ^ 1))
            higher = a.OR(higher, r[i])
    for i in range(n):
        a.set_next(r[i], a.OR(ins[i], a.AND(r[i], g[i] ^ 1)))
        a.set_next(k[i], a.OR(k[i], a.AND(s, g[i])))
    a.set_next(s, a.OR(s, s_in))
    for i in range(n):
        a.bad.append(a.AND(g[i], g[(i + 1) % n]))
    answers = [f"b{i}=0" for i in range(n)]
    if kind == "rr":
        h = a.latch(0)  # client 0 was granted before
        a.set_next(h, a.OR(h, g[0]))
        a.bad.append(a.AND(h, g[n - 1]))
        answers.append(f"b{n}=1")
    for i in range(n):
        a.justice.append([s, r[i], k[i] ^ 1])
    if kind == "rr_stall":
        a.fair.append(adv)
    if kind == "priority_fair":
        a.fair.append(r[0] ^ 1)
    for i in range(n):
        fails = {
            "rr": False,
            "rr_stall": False,
            "rr_stall_unfair": True,
            "priority": i >= 1,
            "priority_fair": i >= 2,
        }[kind]
        answers.append(f"j{i}={int(fails)}")
    return a.text(), " ".join(answers)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for kind in ["rr", "rr_stall", "rr_stall_unfair", "priority", "priority_fair"]:
        for n in [3, 6, 12]:
            text, answers = arbiter(n, kind)
            name = f"{kind}_{n}.aag"
            with open(os.path.join(out, name), "w") as f:
                f.write(text)
            print(f"AIGER-live\tproperties/{name}\t{answers}")


if __name__ == "__main__":
    main()
