#!/usr/bin/env python3
# Rule 5 of regress/lint.sh: the files of one program, as a graph of who
# calls (or reads) whom, read from their objects with nm, must have no
# circle but the router's (docs/layout.md).  Usage: lint_calls.py BUILD DIR...
import os, subprocess, sys

# The router of a program may be one circle, as relayd's proc.c with
# control.c: the files that pass messages, never an operation.
ROUTERS = {
    "supervisor/spaced": {"control", "request", "streams", "gitinst"},
}


def symbols(objs):
    # One nm for a program's objects: a process an object took most of
    # lint's time on a loaded machine.
    syms = {o: (set(), set()) for o in objs}
    if not objs:
        return syms
    out = subprocess.run(["nm", "-g", "-A"] + objs, capture_output=True,
                         text=True, check=True).stdout
    for line in out.splitlines():
        obj, _, rest = line.partition(":")
        f = rest.split()
        if obj not in syms:
            continue
        defined, used = syms[obj]
        if len(f) == 2 and f[0] == "U":
            used.add(f[1])
        elif len(f) == 3 and f[1] in "TDBRCVW":
            defined.add(f[2])
    return syms


def circles(nodes, edges):
    # Tarjan's strongly connected components, iterative.
    index, low, on, stack, out, n = {}, {}, set(), [], [], [0]
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = n[0]; n[0] += 1
        stack.append(root); on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = n[0]; n[0] += 1
                    stack.append(w); on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                c = set()
                while True:
                    w = stack.pop(); on.discard(w); c.add(w)
                    if w == v:
                        break
                if len(c) > 1:
                    out.append(c)
    return out


def main():
    build, dirs = sys.argv[1], sys.argv[2:]
    rc = 0
    for d in dirs:
        objdir = os.path.join(build, d)
        if not os.path.isdir(objdir):
            print(f"circle {d}: no objects under {objdir}")
            rc = 1
            continue
        names = sorted(f[:-2] for f in os.listdir(objdir)
                       if f.endswith(".o") and
                       os.path.exists(os.path.join(d, f[:-2] + ".c")))
        objs = symbols([os.path.join(objdir, n + ".o") for n in names])
        syms = {n: objs[os.path.join(objdir, n + ".o")] for n in names}
        owner = {}
        for n, (defined, _) in syms.items():
            for s in defined:
                owner[s] = n
        edges = {n: {owner[s] for s in syms[n][1] if s in owner} - {n}
                 for n in names}
        allowed = ROUTERS.get(d, set())
        for c in circles(names, edges):
            if c <= allowed:
                continue
            ties = []
            for a in sorted(c):
                for b in sorted(edges[a] & c):
                    why = sorted(s for s in syms[a][1] if owner.get(s) == b)
                    ties.append(f"{a}.c -> {b}.c ({', '.join(why[:4])})")
            print(f"circle {d}: {len(c)} files: " +
                  "; ".join(ties))
            rc = 1
    return 0


sys.exit(main())
