"""Both packages stay layered, and the arrows between them point one way.

Inside a package, layers lowest first (``PACKAGES``): a module belongs to the layer named by its
first subpackage; every other module (the package's top level, other subpackages) is the
package's surface, on top.  A module may import its own layer and the layers below.

Between the packages: ``runtime`` never imports ``transpiler``; ``transpiler`` imports only
``runtime.rules`` (and the shared version number) at module level: the tape is reached through a
bridge loaded on first use.

Every import counts -- at module level, inside a function or a class, relative or absolute, or
through ``importlib.import_module("...")`` -- since an import moved into a function to dodge a
circle is still a dependency.  The scanner reads source only; nothing under test is imported.
"""

import ast
import os
import textwrap

import pytest

PACKAGES = {
    "runtime": ["rules", "engine"],                                      # then the TF surface
    "transpiler": ["core", "frontend", "backend", "analysis", "modes", "bridge"],  # then the API surface
}
"""Each package's layers, lowest first (see runtime/__init__.py and transpiler/core/ir.py)."""

RUNTIME_SEEN_BY_TRANSPILER = ("runtime.rules", "runtime._version")
"""What transpiler modules may import of runtime at module level: the rules, and the version
number both packages share (``runtime/__init__`` itself loads nothing on import)."""

LAZY_BRIDGE = "transpiler.bridge."
"""The bridge's modules (transpiler/bridge/ but its ``__init__``) are loaded on first use -- when a
tensor first reaches a differentiated function, or a differentiated function first calls runtime --
so they may import the tape at module level; no module ``import transpiler`` loads may import them
at module level."""

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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


def _deferred_nodes(tree):
    """The ids of nodes inside a function or lambda (imports there run on call, not on import)."""
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inside.update(id(n) for n in ast.walk(node) if n is not node)
    return inside


def imports(name, path, mods):
    """[(imported module, line, at module level)] for every import of a known module in the file."""
    here = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    found = []
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    deferred = _deferred_nodes(tree)
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
            known = _known(t, mods)
            if known is not None and known != name:
                found.append((known, node.lineno, id(node) not in deferred))
    return found


def layer(name, layers):
    """The rank of a module's layer: its first subpackage's place in ``layers``, else the surface."""
    parts = name.split(".")
    return layers.index(parts[1]) if len(parts) > 1 and parts[1] in layers else len(layers)


def graph(roots):
    """{module: [(imported module, line, at module level)]} over the packages {name: folder}."""
    mods = {}
    for package, root in roots.items():
        mods.update(modules(root, package))
    return {m: imports(m, p, mods) for m, p in mods.items()}


def _package_of(name):
    return name.split(".")[0]


def upward(edges, packages):
    """Imports from a lower layer to a higher one inside a package, as readable lines."""
    out = []
    for m, targets in sorted(edges.items()):
        pkg = _package_of(m)
        layers = packages[pkg]
        names = layers + ["surface"]
        for t, line, _ in targets:
            if _package_of(t) == pkg and layer(t, layers) > layer(m, layers):
                out.append(f"{m} (layer {names[layer(m, layers)]}) imports {t} "
                           f"(layer {names[layer(t, layers)]}) at line {line}")
    return out


def circles(edges):
    """Groups of modules that import each other (strongly connected components of size > 1)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w, _, _ in edges.get(v, ()):
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


def runtime_importing_transpiler(edges):
    return [f"{m} imports {t} at line {line}" for m, targets in sorted(edges.items())
            if _package_of(m) == "runtime" for t, line, _ in targets if _package_of(t) == "transpiler"]


def transpiler_loading_the_tape(edges, allowed=()):
    """Transpiler modules that import more of runtime than ``runtime.rules`` at module level, or a
    module of the bridge (which is loaded on first use) at module level."""
    out = []
    for m, targets in sorted(edges.items()):
        if _package_of(m) != "transpiler" or m in allowed or m.startswith(LAZY_BRIDGE):
            continue
        for t, line, at_import in targets:
            if at_import and _package_of(t) == "runtime" and not any(
                    t == part or t.startswith(part + ".") for part in RUNTIME_SEEN_BY_TRANSPILER):
                out.append(f"{m} imports {t} at line {line}")
            elif at_import and t.startswith(LAZY_BRIDGE):
                out.append(f"{m} imports {t} at line {line} (the bridge loads on first use)")
    return out


def _edges():
    return graph({p: os.path.join(ROOT, p) for p in PACKAGES})


# --- the packages ----------------------------------------------------------------------------------

@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_every_layer_exists(package):
    mods = modules(os.path.join(ROOT, package), package)
    for name in PACKAGES[package]:
        assert f"{package}.{name}" in mods, f"{package}/{name}/ is missing (or has no __init__.py)"


def test_no_import_circle():
    assert circles(_edges()) == []


def test_no_upward_import():
    assert upward(_edges(), PACKAGES) == []


def test_runtime_never_imports_the_transpiler():
    assert runtime_importing_transpiler(_edges()) == []


def test_transpiler_imports_only_runtime_rules_at_import_time():
    assert transpiler_loading_the_tape(_edges()) == []


# --- the scanner itself, on small planted packages ------------------------------------------------

TRANSPILER_LAYERS = PACKAGES["transpiler"]
RUNTIME_LAYERS = PACKAGES["runtime"]


def _package(tmp_path, name, files):
    root = tmp_path / name
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return str(root)


def _transpiler_like(tmp_path, ir_source):
    """A package with the transpiler's layers whose core/ir.py is ``ir_source``."""
    return _package(tmp_path, "pkg", {
        "__init__.py": "", "api.py": "from .modes import reverse\n",
        **{f"{n}/__init__.py": "" for n in TRANSPILER_LAYERS},
        "modes/reverse.py": "from ..core import ir\n", "core/ir.py": ir_source + "\n"})


@pytest.mark.parametrize("statement", [
    "from ..modes import reverse",              # relative, at module level
    "def f():\n    from ..modes.reverse import g",     # inside a function
    "class C:\n    def f(self):\n        import pkg.modes.reverse",     # absolute, in a method
    "def f():\n    from .. import api",         # to the surface
    "import importlib\nimportlib.import_module('pkg.modes.reverse')",
])
def test_scanner_finds_a_planted_upward_import(tmp_path, statement):
    edges = graph({"pkg": _transpiler_like(tmp_path, statement)})
    found = upward(edges, {"pkg": TRANSPILER_LAYERS})
    assert len(found) == 1 and found[0].startswith("pkg.core.ir (layer core) imports"), found


def test_scanner_finds_a_planted_circle(tmp_path):
    root = _package(tmp_path, "pkg", {
        "__init__.py": "", **{f"{n}/__init__.py": "" for n in TRANSPILER_LAYERS},
        "modes/a.py": "from . import b\n", "modes/b.py": "def f():\n    from .a import x\n",
        "modes/c.py": "from . import a\n"})
    edges = graph({"pkg": root})
    assert circles(edges) == [["pkg.modes.a", "pkg.modes.b"]]
    assert upward(edges, {"pkg": TRANSPILER_LAYERS}) == []


def _runtime_like(tmp_path, files):
    return _package(tmp_path, "runtime", {
        "__init__.py": "", "ops/__init__.py": "", "ops/math_ops.py": "from ..engine import tensor\n",
        "rules/__init__.py": "", "rules/registry.py": "", "engine/__init__.py": "",
        "engine/tensor.py": "from ..rules import registry\n", **files})


@pytest.mark.parametrize("module, statement, layers", [
    ("rules/registry.py", "from ..engine import tensor", "rules, engine"),
    ("rules/registry.py", "def f():\n    import runtime", "rules, surface"),
    ("engine/tensor.py", "def f():\n    from ..ops.math_ops import add", "engine, surface"),
    ("engine/tensor.py", "from .. import namespace", "engine, surface"),
])
def test_scanner_finds_a_planted_upward_import_in_runtime(tmp_path, module, statement, layers):
    root = _runtime_like(tmp_path, {module: statement + "\n", "namespace.py": ""})
    found = upward(graph({"runtime": root}), {"runtime": RUNTIME_LAYERS})
    low, high = layers.split(", ")
    assert len(found) == 1 and f"(layer {low}) imports" in found[0] and f"(layer {high})" in found[0], found


def test_a_layer_may_import_its_own_package_init(tmp_path):
    root = _runtime_like(tmp_path, {"engine/tape.py": "from ..rules import lookup\nfrom . import tensor\n"})
    assert upward(graph({"runtime": root}), {"runtime": RUNTIME_LAYERS}) == []


@pytest.mark.parametrize("statement, found", [
    ("from runtime.rules import registry", False),
    ("import runtime.rules.registry", False),
    ("def f():\n    from runtime.engine import tensor", False),    # on first use: a bridge's way
    ("from runtime.engine import tensor", True),
    ("from runtime.engine.tensor import apply", True),
    ("import runtime", True),
    ("from runtime import GradientTape", True),
])
def test_scanner_finds_a_planted_import_of_the_tape(tmp_path, statement, found):
    runtime = _runtime_like(tmp_path, {})
    transpiler = _package(tmp_path, "transpiler", {"__init__.py": "", "interop.py": statement + "\n"})
    edges = graph({"runtime": runtime, "transpiler": transpiler})
    lines = transpiler_loading_the_tape(edges)
    assert bool(lines) == found and all(line.startswith("transpiler.interop imports runtime") for line in lines)
    assert transpiler_loading_the_tape(edges, allowed=["transpiler.interop"]) == []


@pytest.mark.parametrize("statement, found", [
    ("from .bridge import tape_call", True),
    ("from .bridge.tape_call import call", True),
    ("def f():\n    from .bridge.tape_call import call", False),      # on first use
    ("from . import bridge", False),                                    # its light __init__
])
def test_scanner_finds_a_planted_module_level_import_of_the_bridge(tmp_path, statement, found):
    runtime = _runtime_like(tmp_path, {})
    transpiler = _package(tmp_path, "transpiler", {
        "__init__.py": "", "api.py": statement + "\n", "bridge/__init__.py": "",
        "bridge/tape_call.py": "from runtime.engine import tensor\n"})     # the bridge itself may
    lines = transpiler_loading_the_tape(graph({"runtime": runtime, "transpiler": transpiler}))
    assert bool(lines) == found and all(line.startswith("transpiler.api imports transpiler.bridge") for line in lines)


@pytest.mark.parametrize("statement", [
    "import transpiler", "def f():\n    from transpiler.api import grad",
    "import importlib\nimportlib.import_module('transpiler.api')"])
def test_scanner_finds_runtime_importing_the_transpiler(tmp_path, statement):
    runtime = _runtime_like(tmp_path, {"engine/tape.py": statement + "\n"})
    transpiler = _package(tmp_path, "transpiler", {"__init__.py": "", "api.py": ""})
    found = runtime_importing_transpiler(graph({"runtime": runtime, "transpiler": transpiler}))
    assert len(found) == 1 and found[0].startswith("runtime.engine.tape imports transpiler"), found
