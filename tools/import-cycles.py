#!/usr/bin/env python3
"""Lists the cycles in the import graph of each crate's modules (crates/*/src and the command
line's src/): a node is a module (a file, or a folder's mod.rs), named after its crate, an edge
`A -> B` a `use crate::B...` (or `crate::B::` path) written in A. Between crates there can be no
cycle: Cargo refuses one. Modules nested
in one another (a folder and its files) are not counted as importing each other through
`super::`. Exits 1 when there is a cycle.

    python3 tools/import-cycles.py            # modules at every depth
    python3 tools/import-cycles.py --depth 2  # only each crate's top-level modules
"""
import os
import re
import sys

depth = None
if "--depth" in sys.argv:
    depth = int(sys.argv[sys.argv.index("--depth") + 1])
repo = os.path.join(os.path.dirname(__file__), "..")
roots = {"referee": os.path.join(repo, "src")}
for name in sorted(os.listdir(os.path.join(repo, "crates"))):
    roots[name] = os.path.join(repo, "crates", name, "src")


def module_of(crate, root, path):
    rel = os.path.relpath(path, root)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return (crate,) + tuple(rel)


modules = {}
for crate, root in roots.items():
    for folder, _, files in os.walk(root):
        for name in files:
            if name.endswith(".rs"):
                path = os.path.join(folder, name)
                modules[module_of(crate, root, path)] = path

def clip(module):
    return module if depth is None else module[:depth]

known = {clip(m) for m in modules}
edges = {}
path_re = re.compile(r"\b(crate|super)((?:::[a-z_][a-z0-9_]*)+|::\{)")
group_re = re.compile(r"(?:^|[{,])\s*([a-z_][a-z0-9_]*(?:::[a-z_][a-z0-9_]*)*)")


def targets(module, path, text):
    """The module paths named by `crate::...` and `super::...` in `text`, absolute."""
    for match in path_re.finditer(text):
        head, rest = match.group(1), match.group(2)
        if head == "crate":
            base = module[:1]
        else:
            # `super` of a file is its folder's module; of a mod.rs, the folder's parent.
            base = module[:-1]
        if rest == "::{":
            end = text.index("}", match.end())
            for item in group_re.findall(text[match.end():end]):
                yield base + tuple(item.split("::"))
        else:
            yield base + tuple(rest[2:].split("::"))
for module, path in modules.items():
    text = open(path, encoding="utf-8").read()
    # Test modules may import anything; the graph is about the code itself.
    text = text.split("#[cfg(test)]")[0]
    # Doc links and comments name modules without importing them.
    text = "\n".join(line.split("//")[0] for line in text.splitlines())
    source = clip(module)
    for parts in targets(module, path, text):
        # The longest prefix that is a module.
        for n in range(len(parts), 0, -1):
            target = clip(parts[:n])
            if target in known:
                break
        else:
            continue
        if target == source or not source or not target:
            continue
        # A module and the modules inside it are one unit.
        if target[: len(source)] == source or source[: len(target)] == target:
            continue
        edges.setdefault(source, set()).add(target)

# Tarjan's strongly connected components.
index, low, stack, on, sccs = {}, {}, [], set(), []
counter = [0]


def connect(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in edges.get(v, ()):
        if w not in index:
            connect(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        scc = []
        while True:
            w = stack.pop()
            on.discard(w)
            scc.append(w)
            if w == v:
                break
        if len(scc) > 1:
            sccs.append(scc)


sys.setrecursionlimit(10000)
for v in sorted(known):
    if v not in index:
        connect(v)
name = lambda m: "::".join(m) or "crate"
for scc in sccs:
    members = set(scc)
    print("cycle:", ", ".join(sorted(name(m) for m in scc)))
    for a in sorted(members):
        for b in sorted(edges.get(a, ())):
            if b in members:
                print(f"  {name(a)} -> {name(b)}")
print(f"{len(sccs)} cycles among {len(known)} modules")
sys.exit(1 if sccs else 0)
