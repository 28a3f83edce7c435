#!/usr/bin/env python3
"""Import circles between the files of a crate: every strongly connected component of the
graph "file A's code (comments aside) names a module path `crate::…` (or `super::…`) that
resolves to file B", unit test modules aside. Prints components of more than `--max` files (default 2) and exits 1
when there is one.

    python3 scripts/import_cycles.py crates/cove-aig/src crates/cove-cli/src
"""
import os
import re
import sys


def module_files(src):
    """Module path (tuple) -> file, for the files under `src`."""
    out = {}
    for root, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(root, f)
            rel = os.path.relpath(path, src)[:-3].split(os.sep)
            if rel[-1] in ("mod", "lib", "main"):
                rel = rel[:-1]
            out[tuple(rel)] = path
    return out


def resolve(mods, parts):
    """The file of the longest module prefix of `parts`."""
    for n in range(len(parts), 0, -1):
        if tuple(parts[:n]) in mods:
            return mods[tuple(parts[:n])]
    return None


PATH = re.compile(r"\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
GROUP = re.compile(r"\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^}]*)\}", re.S)


def edges(src):
    mods = module_files(src)
    by_file = {v: k for k, v in mods.items()}
    graph = {f: set() for f in mods.values()}
    for f, mod in by_file.items():
        # Code only: a doc comment's link (`[`crate::loc`]`) is no import, and a unit
        # test module (`#[cfg(test)] mod tests`, at the end of its file) that runs the
        # driver end to end is no part of the crate's structure.
        source = open(f, encoding="utf-8").read()
        cut = source.find("#[cfg(test)]\nmod tests")
        if cut >= 0:
            source = source[:cut]
        text = "\n".join(line.split("//")[0] for line in source.splitlines())
        here = list(mod) if os.path.basename(f) in ("mod.rs", "lib.rs", "main.rs") else list(mod[:-1])
        refs = []
        for m in PATH.finditer(text):
            refs.append((m.group(1), m.group(2).split("::")[1:]))
        for m in GROUP.finditer(text):
            base = m.group(2).split("::")[1:] if m.group(2) else []
            for item in m.group(3).split(","):
                item = item.strip().split("::")
                if item and item[0]:
                    refs.append((m.group(1), base + item))
        for root, parts in refs:
            full = parts if root == "crate" else here[:-1] + parts if here else parts
            g = resolve(mods, full)
            if g and g != f:
                graph[f].add(g)
    return graph


def sccs(graph):
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    for v0 in graph:
        if v0 in index:
            continue
        work = [(v0, iter(sorted(graph[v0])))]
        index[v0] = low[v0] = n[0]
        n[0] += 1
        stack.append(v0)
        on.add(v0)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n[0]
                    n[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def main():
    args = sys.argv[1:]
    limit = 2
    if "--max" in args:
        i = args.index("--max")
        limit = int(args[i + 1])
        del args[i : i + 2]
    bad = False
    for src in args:
        comps = [c for c in sccs(edges(src)) if len(c) > limit]
        for c in comps:
            bad = True
            print(f"{src}: circle of {len(c)} files: " + " ".join(os.path.relpath(f, src) for f in c))
        if not comps:
            print(f"{src}: no import circle of more than {limit} files")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
