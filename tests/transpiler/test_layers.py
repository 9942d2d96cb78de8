"""The transpiler stays layered: no import circle, and no import from a lower layer to a higher one.

Layers, lowest first (see transpiler/core/ir.py): core, frontend, backend, analysis, modes,
bridge, then the surface (every module at the package's top level).  A module may import its own
layer and the layers below.  Every import counts -- at module level, inside a function or a
class, relative or absolute -- since an import moved into a function to dodge a circle is
still a dependency.  The scanner reads source only; nothing under test is imported.
"""

import ast
import os
import textwrap

import pytest

LAYERS = ["core", "frontend", "backend", "analysis", "modes", "bridge"]     # then the surface
SURFACE = len(LAYERS)
PACKAGE = "transpiler"
ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), PACKAGE)


def modules(root, package):
    """{dotted name: path} of every module under ``root`` (a package ``__init__`` is its package)."""
    out = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith((".", "__pycache__"))]
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, f), root)[:-3].split(os.sep)
                if rel[-1] == "__init__":
                    rel = rel[:-1]
                out[".".join([package] + rel)] = os.path.join(folder, f)
    return out


def _known(name, mods):
    """The module ``name`` is or lies in (``pkg.mod.attr`` -> ``pkg.mod``), or None."""
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def imports(name, path, mods, package):
    """[(imported module, line)] for every import of a module of ``package`` anywhere in the file."""
    here = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    found = []
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = here.split(".")
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            targets = [f"{base}.{a.name}" for a in node.names]     # a submodule, or a name in base
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) and getattr(node.func, "attr", getattr(
                    node.func, "id", None)) in ("import_module", "__import__"):
            targets = [node.args[0].value]
        for t in targets:
            if t == package or t.startswith(package + "."):
                known = _known(t, mods)
                if known is not None and known != name:
                    found.append((known, node.lineno))
    return found


def layer(name, package):
    """The rank of a module's layer: its subpackage under ``package``, else the surface."""
    parts = name.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 2 and parts[1] in LAYERS else SURFACE


def graph(root, package):
    mods = modules(root, package)
    return mods, {m: imports(m, p, mods, package) for m, p in mods.items()}


def upward(edges, package):
    """Imports from a lower layer to a higher one, as readable lines."""
    names = LAYERS + ["surface"]
    return [f"{m} (layer {names[layer(m, package)]}) imports {t} (layer {names[layer(t, package)]}) "
            f"at line {line}"
            for m, out in sorted(edges.items()) for t, line in out if layer(t, package) > layer(m, package)]


def circles(edges):
    """Groups of modules that import each other (strongly connected components of size > 1)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w, _ in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_every_layer_exists():
    mods = modules(ROOT, PACKAGE)
    for name in LAYERS:
        assert f"{PACKAGE}.{name}" in mods, f"transpiler/{name}/ is missing (or has no __init__.py)"


def test_no_import_circle():
    _, edges = graph(ROOT, PACKAGE)
    assert circles(edges) == []


def test_no_upward_import():
    _, edges = graph(ROOT, PACKAGE)
    assert upward(edges, PACKAGE) == []


# --- the scanner itself, on a small planted package -------------------------------------------

def _package(tmp_path, files):
    root = tmp_path / "pkg"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return str(root)


@pytest.mark.parametrize("statement", [
    "from ..modes import reverse",              # relative, at module level
    "def f():\n    from ..modes.reverse import g",     # inside a function
    "class C:\n    def f(self):\n        import pkg.modes.reverse",     # absolute, in a method
    "def f():\n    from .. import api",         # to the surface
    "import importlib\nimportlib.import_module('pkg.modes.reverse')",
])
def test_scanner_finds_a_planted_upward_import(tmp_path, statement):
    root = _package(tmp_path, {
        "__init__.py": "", "api.py": "from .modes import reverse\n",
        **{f"{n}/__init__.py": "" for n in LAYERS},
        "modes/reverse.py": "from ..core import ir\n", "core/ir.py": statement + "\n"})
    _, edges = graph(root, "pkg")
    found = upward(edges, "pkg")
    assert len(found) == 1 and found[0].startswith("pkg.core.ir (layer core) imports"), found


def test_scanner_finds_a_planted_circle(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "", **{f"{n}/__init__.py": "" for n in LAYERS},
        "modes/a.py": "from . import b\n", "modes/b.py": "def f():\n    from .a import x\n",
        "modes/c.py": "from . import a\n"})
    _, edges = graph(root, "pkg")
    assert circles(edges) == [["pkg.modes.a", "pkg.modes.b"]]
    assert upward(edges, "pkg") == []
