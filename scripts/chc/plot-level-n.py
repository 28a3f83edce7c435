#!/usr/bin/env python3
"""Plot scripts/chc/level-n.sh results (series, n, answer, wall_s, ...) as an SVG.

Wall time over N on a logarithmic time axis, one polyline per series; only runs that gave
an answer are plotted. Standard library only.

Usage: plot-level-n.py RESULTS.tsv OUT.svg
"""
import csv
import math
import sys

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
          "#8c564b", "#e377c2", "#7f7f7f", "#17becf", "#bcbd22"]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    series = {}
    with open(sys.argv[1], newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["answer"] in ("sat", "unsat"):
                series.setdefault(row["series"], []).append(
                    (int(row["n"]), max(float(row["wall_s"]), 0.001)))
    if not series:
        sys.exit("no answered runs to plot")
    w, h, ml, mr, mt, mb = 760, 460, 70, 200, 30, 50
    max_n = max(n for pts in series.values() for n, _ in pts)
    lo = math.floor(math.log10(min(t for pts in series.values() for _, t in pts)))
    hi = math.ceil(math.log10(max(t for pts in series.values() for _, t in pts)))
    hi = max(hi, lo + 1)

    def x(n):
        return ml + (w - ml - mr) * n / max_n

    def y(t):
        return h - mb - (h - mt - mb) * (math.log10(t) - lo) / (hi - lo)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{ml}" y="18">Level-N Boolean programs: wall time (s, log scale) over N</text>']
    for e in range(lo, hi + 1):
        yy = y(10 ** e)
        out.append(f'<line x1="{ml}" y1="{yy:.1f}" x2="{w - mr}" y2="{yy:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{ml - 8}" y="{yy + 4:.1f}" text-anchor="end">1e{e}</text>')
    step = max(1, max_n // 10)
    for n in range(0, max_n + 1, step):
        out.append(f'<text x="{x(n):.1f}" y="{h - mb + 18}" text-anchor="middle">{n}</text>')
    out.append(f'<text x="{(ml + w - mr) / 2}" y="{h - 12}" text-anchor="middle">N (procedures)</text>')
    out.append(f'<rect x="{ml}" y="{mt}" width="{w - ml - mr}" height="{h - mt - mb}" '
               'fill="none" stroke="black"/>')
    for i, (name, pts) in enumerate(sorted(series.items())):
        c = COLORS[i % len(COLORS)]
        pts.sort()
        coords = " ".join(f"{x(n):.1f},{y(t):.1f}" for n, t in pts)
        out.append(f'<polyline points="{coords}" fill="none" stroke="{c}" stroke-width="2"/>')
        for n, t in pts:
            out.append(f'<circle cx="{x(n):.1f}" cy="{y(t):.1f}" r="3" fill="{c}"/>')
        ly = mt + 16 * i + 10
        out.append(f'<line x1="{w - mr + 10}" y1="{ly}" x2="{w - mr + 30}" y2="{ly}" '
                   f'stroke="{c}" stroke-width="2"/>')
        out.append(f'<text x="{w - mr + 35}" y="{ly + 4}">{name}</text>')
    out.append("</svg>")
    with open(sys.argv[2], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
