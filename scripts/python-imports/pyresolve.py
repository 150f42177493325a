#!/usr/bin/env python3
"""Compare graph-retrieve's Python import edges with what Python's import
system resolves for the same files (issue 47's acceptance measurement).

Standard library only; never imports the checkout's code. Resolution walks
the path the way importlib's PathFinder/FileFinder does:
  * a top-level name is looked up in each sys.path root in order: a
    directory with __init__.py is a regular package (stop), else name.py is a
    module (stop), else a bare directory is a namespace-package portion
    (collected, search continues); portions only if nothing else was found;
  * a submodule is looked up the same way in the parent package's __path__
    (one dir for a regular package, all portions for a namespace package);
  * stdlib names win over the checkout (the checkout is assumed installed,
    i.e. after the stdlib on sys.path) -- any shadowing is reported;
  * `from P import n`: P.n if P is a package and P.n is a module, else the
    name n in P's own file (P/__init__.py or P.py);
  * relative imports use the importing file's __package__.
Only .py source files count as modules (a lone .pyi stub is not importable).

Usage:
  python3 pyresolve.py NAME CHECKOUT EDGES.json --roots R1 [R2 ...] \
      --files D1 [D2 ...] [--out report.json] [--max-list 30]
  --roots : the sys.path entries, relative to CHECKOUT ('.' = the root)
  --files : folders (relative to CHECKOUT) whose .py files are measured
"""
from __future__ import annotations

import argparse
import ast
import collections
import json
import os
import sys

STDLIB = set(sys.stdlib_module_names) | set(sys.builtin_module_names)
SKIP_DIRS = {"__pycache__", ".git", ".tox", ".venv", "node_modules"}


class Resolver:
    def __init__(self, checkout: str, roots: list[str]):
        self.checkout = os.path.abspath(checkout)
        self.roots = [os.path.normpath(os.path.join(self.checkout, r)) for r in roots]
        self.cache: dict[str, tuple | None] = {}
        self.shadowed: set[str] = set()

    def rel(self, p: str) -> str:
        return os.path.relpath(p, self.checkout).replace(os.sep, "/")

    @staticmethod
    def _find_in(dirs: list[str], name: str):
        """One FileFinder pass over `dirs` for `name`. Returns
        ('pkg', file, [dir]) | ('mod', file, None) | ('ns', None, portions) | None"""
        portions = []
        for d in dirs:
            cand = os.path.join(d, name)
            if os.path.isdir(cand):
                init = os.path.join(cand, "__init__.py")
                if os.path.isfile(init):
                    return ("pkg", init, [cand])
            f = cand + ".py"
            if os.path.isfile(f):
                return ("mod", f, None)
            if os.path.isdir(cand):
                portions.append(cand)
        if portions:
            return ("ns", None, portions)
        return None

    def find(self, modname: str):
        """Spec-like tuple for a dotted module name inside the checkout:
        (kind, file-or-None, path-list) ; or 'external' ; or 'missing'."""
        if modname in self.cache:
            return self.cache[modname]
        parts = modname.split(".")
        if parts[0] in STDLIB:
            if self._find_in(self.roots, parts[0]) is not None:
                self.shadowed.add(parts[0])
            res = "external"
        else:
            spec = self._find_in(self.roots, parts[0])
            if spec is None:
                res = "external"
            else:
                res = spec
                for i, p in enumerate(parts[1:], 1):
                    kind, _f, path = res
                    if kind == "mod":
                        res = "missing"  # a plain module has no submodules
                        break
                    sub = self._find_in(path, p)
                    if sub is None:
                        # a namespace package may have further portions installed
                        # elsewhere (poetry + poetry-core): then it is external
                        res = "external-ns" if kind == "ns" else "missing"
                        break
                    res = sub
        self.cache[modname] = res
        return res

    def module_of(self, relpath: str):
        """(module name, package name) of a checkout file, by the first root holding it."""
        ap = os.path.join(self.checkout, relpath)
        for r in self.roots:
            if ap.startswith(r + os.sep):
                sub = os.path.relpath(ap, r)[:-3].split(os.sep)
                if sub[-1] == "__init__":
                    sub = sub[:-1]
                    return ".".join(sub), ".".join(sub)
                return ".".join(sub), ".".join(sub[:-1])
        return None, None


def python_targets(res: Resolver, relpath: str, tree: ast.AST):
    """Yield (lineno, import text, module, name-or-None, outcome) per imported
    module/name; outcome is ('file', relpath) | ('external',) | ('missing',)
    | ('nsonly', dirs) | ('badrel',)"""
    _mod, pkg = res.module_of(relpath)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                text = f"import {a.name}" + (f" as {a.asname}" if a.asname else "")
                yield node.lineno, text, a.name, None, outcome(res, a.name)
        elif isinstance(node, ast.ImportFrom):
            dots = "." * node.level
            names = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in node.names)
            text = f"from {dots}{node.module or ''} import {names}"
            if node.level:
                if pkg is None:
                    yield node.lineno, text, dots + (node.module or ""), None, ("badrel",)
                    continue
                base = pkg.split(".") if pkg else []
                up = node.level - 1
                if up > len(base) or (not base):
                    yield node.lineno, text, dots + (node.module or ""), None, ("badrel",)
                    continue
                base = base[: len(base) - up] if up else base
                full = ".".join(base + ([node.module] if node.module else []))
            else:
                full = node.module
            base_out = outcome(res, full)
            spec = res.find(full)
            for a in node.names:
                if a.name != "*" and isinstance(spec, tuple) and spec[0] in ("pkg", "ns"):
                    sub = res._find_in(spec[2], a.name)
                    if sub is not None:
                        yield node.lineno, text, full + "." + a.name, a.name, outcome(res, full + "." + a.name)
                        continue
                yield node.lineno, text, full, a.name, base_out


def outcome(res: Resolver, modname: str):
    spec = res.find(modname)
    if spec in ("external", "external-ns"):
        return ("external",)
    if spec == "missing":
        return ("missing",)
    kind, f, path = spec
    if kind == "ns":
        return ("nsonly", [res.rel(p) for p in path])
    return ("file", res.rel(f))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("checkout")
    ap.add_argument("edges")
    ap.add_argument("--roots", nargs="+", required=True)
    ap.add_argument("--files", nargs="+", required=True)
    ap.add_argument("--exclude", nargs="*", default=[], help="path prefixes to leave out")
    ap.add_argument("--out")
    ap.add_argument("--max-list", type=int, default=30)
    ap.add_argument("--basedir", action="store_true",  # only for files outside the package roots
                    help="also put each file's base dir first on sys.path: the first folder upward without "
                         "__init__.py (pytest's default 'prepend' import mode; a script's own folder)")
    args = ap.parse_args()

    res = Resolver(args.checkout, args.roots)
    g = json.load(open(args.edges))
    gfiles = {n["id"] for n in g["nodes"] if n["kind"] == "file"}
    out_edges = collections.defaultdict(list)  # source -> [(target, names)]
    via_edges = set()  # (source, target) edges that follow a re-export chain ("via")
    for e in g["edges"]:
        if e["kind"] in ("import", "reexport"):
            out_edges[e["source"]].append((e["target"], set(e.get("names") or [])))
            if e.get("via"):
                via_edges.add((e["source"], e["target"]))
    diags = collections.defaultdict(list)  # path -> [(line, message)]
    for d in g["diagnostics"]:
        line = None
        m = d["message"].rsplit(" on line ", 1)
        if len(m) == 2 and m[1].strip().isdigit():
            line = int(m[1])
        diags[d["path"]].append((d["kind"], line, d["message"]))

    files = []
    for fd in args.files:
        top = os.path.join(res.checkout, fd)
        for dp, dns, fns in os.walk(top):
            dns[:] = sorted(x for x in dns if x not in SKIP_DIRS)
            for fn in sorted(fns):
                if fn.endswith(".py"):
                    rp = res.rel(os.path.join(dp, fn))
                    if not any(rp.startswith(x) for x in args.exclude):
                        files.append(rp)

    # per (file, target): list of (line, text, module, name)
    pairs = collections.OrderedDict()
    records = collections.defaultdict(list)  # file -> [(line, text, mod, name, outcome)]
    other = collections.Counter()
    nonlocal_details = []  # imports Python does not land in the checkout but we do
    syntax_errors = []
    resolvers = {}
    for rp in files:
        fres = res
        under_root = any(os.path.join(res.checkout, rp).startswith(r + os.sep) and r != res.checkout for r in res.roots)
        if args.basedir and not under_root:
            # a test or script: its base dir first (pytest 'prepend' mode / a script's own folder),
            # then the checkout root (pytest's rootdir conftest, `python -m pytest`), then the package roots
            d = os.path.dirname(os.path.join(res.checkout, rp))
            while os.path.isfile(os.path.join(d, "__init__.py")) and d != res.checkout:
                d = os.path.dirname(d)
            base = os.path.relpath(d, res.checkout)
            key = tuple(dict.fromkeys(os.path.normpath(r) for r in [base, "."] + args.roots))
            if key not in resolvers:
                resolvers[key] = Resolver(args.checkout, list(key))
            fres = resolvers[key]
        try:
            tree = ast.parse(open(os.path.join(res.checkout, rp), "rb").read(), rp)
        except SyntaxError as ex:
            syntax_errors.append(f"{rp}: {ex}")
            continue
        for line, text, mod, name, oc in python_targets(fres, rp, tree):
            records[rp].append((line, text, mod, name, oc))
            if oc[0] == "file":
                pairs.setdefault((rp, oc[1]), []).append((line, text, mod, name))
            else:
                other[oc[0]] += 1
                if oc[0] in ("missing", "nsonly", "badrel"):
                    nonlocal_details.append((rp, line, text, oc))

    # classify
    counts = collections.Counter()
    disagreements = []
    py_targets_by_file = collections.defaultdict(set)
    for (rp, t) in pairs:
        py_targets_by_file[rp].add(t)
    for (rp, t), occ in pairs.items():
        edges = out_edges.get(rp, [])
        if any(tt == t for tt, _ in edges):
            counts["same"] += 1
            continue
        names = {n for _l, _t, _m, n in occ if n} or {"*"}
        lines = {l for l, *_ in occ}
        mods = {m for _l, _t, m, _n in occ}
        ours = None
        if rp not in gfiles:
            cat, cause, ours = "unresolved", "importing file not in graph", "(file not scanned)"
        else:
            # another local file for the same names, not among Python's targets
            others = [(tt, nn) for tt, nn in edges if not tt.startswith("pkg:") and tt not in py_targets_by_file[rp]
                      and (nn & names or "*" in nn or names == {"*"})]
            ext = [tt for tt, nn in edges if tt.startswith("pkg:") and tt[4:] == next(iter(mods)).split(".")[0]]
            dg = [m for k, l, m in diags.get(rp, []) if l in lines]
            if others:
                cat, ours = "other", ", ".join(sorted({tt for tt, _ in others}))
                cause = "resolved to another file"
            elif dg:
                cat, ours = "unresolved", "unresolved: " + dg[0]
                cause = "target not in graph" if t not in gfiles else "unresolved"
            elif ext:
                cat, ours, cause = "external", ", ".join(ext), "external"
            else:
                cat, ours, cause = "unresolved", "(no edge, no diagnostic)", "no edge"
                if t not in gfiles:
                    cause = "target not in graph"
        counts[cat] += 1
        disagreements.append({"file": rp, "lines": sorted(lines), "import": occ[0][1], "python": t,
                              "ours": ours, "category": cat, "cause": cause})

    # edges we have to checkout files that Python does not have for that file
    extra = []
    measured = set(files)
    for rp in files:
        for tt, nn in out_edges.get(rp, []):
            if tt.startswith("pkg:") or tt in py_targets_by_file[rp]:
                continue
            recs = [r for r in records[rp] if (r[3] in nn) or ("*" in nn and r[3] is None)]
            tdir = tt.rsplit("/", 1)[0] + "/"
            if (rp, tt) in via_edges:
                cause = "followed a re-export to the defining file (via)"
            elif tt.endswith("/__init__.py") and any(t.startswith(tdir) for t in py_targets_by_file[rp]):
                cause = "package __init__ of a submodule Python imports"
            elif tt.endswith(".pyi"):
                cause = "stub .pyi (Python finds no .py)"
            elif recs and all(r[4][0] == "external" for r in recs):
                cause = "Python resolves it OUTSIDE the checkout (stdlib/installed): wrong local edge"
            elif recs and any(r[4][0] == "missing" for r in recs):
                cause = "Python cannot import it (missing module)"
            else:
                cause = "other"
            extra.append({"file": rp, "ours": tt, "names": sorted(nn), "cause": cause,
                          "imports": sorted({f"{r[0]}: {r[1]}" for r in recs})[:3]})

    total = len(pairs)
    report = {
        "name": args.name, "roots": args.roots, "files_measured": len(files),
        "files_in_graph": len(measured & gfiles), "syntax_errors": syntax_errors,
        "own_import_pairs": total,
        "same": counts["same"], "other": counts["other"],
        "unresolved": counts["unresolved"], "external": counts["external"],
        "share_same": round(100 * counts["same"] / total, 2) if total else None,
        "python_not_in_checkout": dict(other),
        "python_failures": [{"file": f, "line": l, "import": t, "outcome": o[0]} for f, l, t, o in nonlocal_details],
        "stdlib_shadowed": sorted(res.shadowed.union(*[r.shadowed for r in resolvers.values()])),
        "causes": dict(collections.Counter(d["cause"] for d in disagreements)),
        "disagreements": disagreements,
        "extra_causes": dict(collections.Counter(x["cause"] for x in extra)),
        "extra_edges": extra,
    }
    if args.out:
        json.dump(report, open(args.out, "w"), indent=1)
    pct = lambda n: f"{100 * n / total:.1f}%" if total else "-"
    print(f"== {args.name}: {len(files)} files measured ({report['files_in_graph']} in graph), roots {args.roots}")
    print(f"   own imports (file, target) pairs: {total}")
    print(f"   same file: {counts['same']} ({pct(counts['same'])})  other file: {counts['other']} ({pct(counts['other'])})"
          f"  unresolved: {counts['unresolved']} ({pct(counts['unresolved'])})  external: {counts['external']} ({pct(counts['external'])})")
    print(f"   Python outcomes not in checkout: {dict(other)}; stdlib-shadowed: {report['stdlib_shadowed']}")
    print(f"   causes: {report['causes']}")
    for d in disagreements[: args.max_list]:
        print(f"   - {d['file']}:{d['lines'][0]}  {d['import']}  python={d['python']}  ours={d['ours']}")
    if len(disagreements) > args.max_list:
        print(f"   ... {len(disagreements) - args.max_list} more")
    if nonlocal_details:
        print(f"   Python cannot find in checkout ({len(nonlocal_details)}):")
        for f, l, t, o in nonlocal_details[:15]:
            print(f"     {f}:{l} {t} -> {o[0]}")
    print(f"   extra local edges ours has that Python lacks: {len(extra)}: {report['extra_causes']}")
    for x in extra:
        if x["cause"].startswith(("Python resolves", "other", "stub", "Python cannot")):
            print(f"     [{x['cause'][:30]}] {x['file']} -> {x['ours']} {x['names']} {x['imports']}")
    if syntax_errors:
        print(f"   syntax errors: {syntax_errors[:5]}")


if __name__ == "__main__":
    main()
