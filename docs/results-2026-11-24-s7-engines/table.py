import csv, os, sys
import os
d = os.path.dirname(os.path.abspath(__file__))
engs = ["kind","pdkind","imc","lawi","tpa","split-tpa","spacer","spacer-abs","bmc"]
solved = {}
for e in engs:
    p = f"{d}/{e}.csv"
    if not os.path.exists(p): continue
    s = set()
    for r in csv.DictReader(open(p)):
        if r["cove_verdict"] == "solved":
            s.add((r["track"], r["path"]))
        if r["cove_verdict"] == "wrong":
            print("WRONG", e, r["path"])
    solved[e] = s
port = set()
p = f"{d}/portfolio.csv"
if os.path.exists(p):
    for r in csv.DictReader(open(p)):
        if r["cove_verdict"] == "solved": port.add((r["track"], r["path"]))
        if r["cove_verdict"] == "wrong": print("WRONG portfolio", r["path"])
tracks = ["LRA-Lin", "LIA-Lin"]
print("| engine | " + " | ".join(f"{t} solved | {t} unique" for t in tracks) + " |")
print("|---|" + "---|---|" * len(tracks))
for e, s in solved.items():
    cells = []
    for t in tracks:
        mine = {x for x in s if x[0] == t}
        others = set().union(*[o for k, o in solved.items() if k != e])
        uniq = {x for x in mine if x not in others}
        cells += [str(len(mine)), str(len(uniq))]
    print(f"| {e} | " + " | ".join(cells) + " |")
allu = set().union(*solved.values())
cells = []
for t in tracks:
    cells += [str(len({x for x in allu if x[0]==t})), "–"]
print("| union of the engines alone | " + " | ".join(cells) + " |")
if port:
    cells = []
    for t in tracks:
        cells += [str(len({x for x in port if x[0]==t})), "–"]
    print("| default portfolio (2 threads) | " + " | ".join(cells) + " |")
    for t in tracks:
        print(t, "portfolio-not-union:", sorted(x[1] for x in port - allu if x[0]==t))
        print(t, "union-not-portfolio:", sorted(x[1] for x in allu - port if x[0]==t))
for e, s in solved.items():
    others = set().union(*[o for k, o in solved.items() if k != e])
    u = sorted(x[1].split('/')[-1] for x in s - others)
    if u: print(e, "unique:", u)
