"""Pass 6: AST -> readable source -> a compiled function in the user's own globals.

Source is printed with astor (without its line wrapping); any node astor cannot print
falls back to ``ast.unparse``, so Python 3.10-3.13 all work.  The compiled function sees
the user's module globals live; the few extra names generated code needs (a helper, the
rule module's ``np``, closure values) are bound around it, so nothing is written into the
user's module.  ``standalone_module`` writes the same function as a file that needs only
numpy: the helpers it uses are copied in.
"""

import ast
import builtins
import inspect
import linecache
import math
import weakref
import re
import sys
import textwrap
import types
import warnings

import numpy as np

from ..core import annotations as anno
from ..core.astutil import collect, statements
from ..core.errors import TranspileError
from ..core.ir import COMMENT

__all__ = ["to_source", "compile_function", "origin", "module_source", "standalone_module"]

_PRINTER = []       # [astor's printing function, or None without astor]: made on first use


def _printer():
    """astor's printer with its visitor method found once per node class (astor builds the
    method's name and looks it up for every node: a tenth of printing a generated function).
    Imported when code is first printed: ``import transpiler`` need not pay for astor."""
    if not _PRINTER:
        try:
            with warnings.catch_warnings():       # astor 0.8 touches ast.Num on import (3.12+)
                warnings.simplefilter("ignore", DeprecationWarning)
                import astor
        except ImportError:  # pragma: no cover - astor is a dependency, but degrade gracefully
            _PRINTER.append(None)
            return None

        class _Generator(astor.code_gen.SourceGenerator):
            _visitors = {}

            def visit(self, node):
                cls = node.__class__
                method = self._visitors.get(cls)
                if method is None:
                    method = getattr(type(self), "visit_" + cls.__name__, None)
                    if method is None:
                        raise AttributeError(f"No defined handler for node of type {cls.__name__}")
                    self._visitors[cls] = method
                return method(self, node)

        def print_with_astor(node):
            return astor.to_source(node, pretty_source="".join, source_generator_class=_Generator)

        _PRINTER.append(print_with_astor)
    return _PRINTER[0]


def _astor(node):
    printer = _printer()
    if printer is None:
        raise RuntimeError("astor is not installed")
    return printer(node)


def _comments(node):
    """The comment statements under ``node``: (statement, its text)."""
    return [(s, s.value.value) for s in statements(node) if s.__class__ is ast.Expr
            and s.value.__class__ is ast.Constant and s.value.value.__class__ is str
            and s.value.value.startswith(COMMENT)]


def to_source(node):
    """Python source for ``node`` (a FunctionDef or Module), with comment markers as comments.

    While it is printed, each comment statement holds a placeholder name instead of its
    string: a NUL character and the comment's number (no line of source can hold a NUL).
    The printer spends on a name a fraction of what it spends on a string, and the text is
    put back by number (the string would have been printed as its repr, on one line, and
    read back)."""
    comments = _comments(node)
    saved = [s.value for s, _ in comments]
    for k, (s, _) in enumerate(comments):
        s.value = ast.Name(f"\0{k}", ast.Load())
    try:
        try:
            text = _astor(node)
        except Exception:
            text = _unparse_by_statement(node)
    finally:
        for (s, _), value in zip(comments, saved):
            if anno.has(s.value, "pp"):
                anno.put(value, "pp", anno.get(s.value, "pp"))            # as astor leaves it
            s.value = value
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped[:1] == "\0":
            indent = line[: len(line) - len(line.lstrip())]
            lines.append(indent + "# " + comments[int(stripped[1:])][1][len(COMMENT):])
            continue
        if stripped[:1] in "'\"" and COMMENT[1:] in stripped:
            try:
                value = ast.literal_eval(stripped)
            except Exception:
                value = None
            if isinstance(value, str) and value.startswith(COMMENT):
                indent = line[: len(line) - len(line.lstrip())]
                lines.append(indent + "# " + value[len(COMMENT):])
                continue
        lines.append(line)
    return "\n".join(lines) + "\n"


def _unparse_by_statement(node):
    """astor failed somewhere: print what it can, ``ast.unparse`` the rest."""
    if isinstance(node, ast.FunctionDef):
        stub = ast.FunctionDef(node.name, node.args, [ast.Pass()], [], None,
                               **({"type_params": []} if "type_params" in ast.FunctionDef._fields else {}))
        header = ast.unparse(ast.fix_missing_locations(stub))
        header = header.splitlines()[0]
        body = []
        for s in node.body:
            try:
                body.append(_astor(s).rstrip("\n"))
            except Exception:
                body.append(ast.unparse(s))
        return header + "\n" + textwrap.indent("\n".join(body), "    ") + "\n"
    return ast.unparse(node) + "\n"


_COUNTER = [0]


_NAMES = {ast.Name: 0}


def free_names(fn_node, names=None):
    """Names the generated function reads but never binds, first read first; ``names``: its
    ``Name`` nodes when the caller has them already (optimize), in the order to give them."""
    if isinstance(fn_node, ast.ClassDef):           # a helper class (the Grads cotangent)
        return [n for m in fn_node.body if isinstance(m, ast.FunctionDef) for n in free_names(m)] + \
               [n.id for b in fn_node.bases for n in ast.walk(b) if isinstance(n, ast.Name)]
    bound = {a.arg for a in fn_node.args.posonlyargs + fn_node.args.args + fn_node.args.kwonlyargs}
    for extra in (fn_node.args.vararg, fn_node.args.kwarg):
        if extra is not None:
            bound.add(extra.arg)
    loads = {}                          # an ordered set: first read first
    for n in collect(fn_node, _NAMES)[0] if names is None else names:
        if n.ctx.__class__ is ast.Store:
            bound.add(n.id)
        elif n.ctx.__class__ is ast.Load:
            loads[n.id] = None
    out = [name for name in loads if name not in bound]
    return out


def compile_function(fn_node, source, ctx, free=None):
    """Compile the generated ``source`` in the user's globals plus injected/closure names;
    ``free``: ``free_names(fn_node)`` when the caller has it already."""
    extra = dict(ctx.injected)
    closure = ctx.parsed.scope.closure
    for name in free_names(fn_node) if free is None else free:
        if name in closure and name not in extra:
            extra[name] = closure[name]
    names = sorted(extra)
    _COUNTER[0] += 1
    filename = f"<adjoin {_COUNTER[0]}: {fn_node.name}>"
    wrapped = "def __adjoin_bind__({}):\n{}    return {}\n".format(
        ", ".join(names), textwrap.indent(source, "    "), fn_node.name)
    linecache.cache[filename] = (len(wrapped), None, wrapped.splitlines(True), filename)
    namespace = {}
    exec(compile(wrapped, filename, "exec"), ctx.parsed.fn.__globals__, namespace)
    fn = namespace["__adjoin_bind__"](*[extra[n] for n in names])
    forget_source_with(fn, filename)
    parsed = ctx.parsed            # (its lines and place, not the Parsed: that holds the user's objects)
    _ORIGINS[filename] = (fn_node, source, types.SimpleNamespace(
        filename=parsed.filename, lines=parsed.lines, name=parsed.name, node=types.SimpleNamespace(lineno=parsed.node.lineno)))
    weakref.finalize(fn, _ORIGINS.pop, filename, None)
    return fn


_ORIGINS = {}       # file name of generated code -> (its AST, its text, where its user function is)


def origin(filename):
    """``(AST, text, where)`` of the generated code compiled under ``filename`` (while its function
    lives), else None: how an error in generated code finds the user's line.  ``where`` has the
    user function's ``filename``, ``lines`` (number -> text), ``name`` and ``node.lineno``."""
    return _ORIGINS.get(filename)


def forget_source_with(fn, filename):
    """Keep ``filename``'s lines in linecache (tracebacks, inspect) exactly as long as ``fn`` lives."""
    weakref.finalize(fn, linecache.cache.pop, filename, None)


def _import_line(name, obj):
    if isinstance(obj, types.ModuleType):
        mod = obj.__name__
        return f"import {mod}" if name == mod else f"import {mod} as {name}"
    mod = getattr(obj, "__module__", None)
    qual = getattr(obj, "__name__", None)
    special = sys.modules.get("scipy.special")
    if mod is None and special is not None and getattr(special, qual or "", None) is obj:
        mod = "scipy.special"                   # its ufuncs have no __module__
    if mod and qual:
        return f"from {mod} import {qual}" if name == qual else f"from {mod} import {qual} as {name}"
    return f"# {name} = {obj!r}"


def module_source(fn_node, source, ctx, note=None):
    """What ``f.source`` shows: a module -- imports for every outside name, then the function."""
    head = [f"# {line}" for line in (note or [])]
    plain, grouped = [], {}
    scope = ctx.parsed.scope
    nodes = fn_node if isinstance(fn_node, (list, tuple)) else [fn_node]   # a split pair: both
    for name in dict.fromkeys(n for node in nodes for n in free_names(node)):
        obj = ctx.injected[name] if name in ctx.injected else scope.lookup(name)
        if getattr(builtins, name, None) is obj or getattr(obj, "_adjoin_callee", False):
            continue          # a builtin, or a callee's generated function (printed below)
        if name in scope.closure and not (isinstance(obj, types.ModuleType) or (callable(obj) and (
                getattr(obj, "__module__", None) or "").startswith(("numpy", "runtime.", "transpiler."))
                and "<" not in getattr(obj, "__qualname__", "<"))):
            continue      # a closure value of the user's (a generated function's helpers are imported)
        mod = getattr(obj, "__module__", None)
        qual = getattr(obj, "__name__", None)
        if not isinstance(obj, types.ModuleType) and mod and qual == name and mod != "__main__" \
                and not mod.startswith("numpy"):
            grouped.setdefault(mod, []).append(name)
        elif isinstance(obj, types.ModuleType) or callable(obj):
            plain.append(_import_line(name, obj))
    lines = sorted(set(plain)) + [f"from {m} import {', '.join(sorted(n))}" for m, n in sorted(grouped.items())]
    head.extend(lines)
    return ("\n".join(head) + "\n\n\n" if head else "") + source


# --- standalone modules ----------------------------------------------------------------

def _helper_source(obj, name):
    raw = getattr(obj, "raw", obj)
    node = ast.parse(textwrap.dedent(inspect.getsource(raw))).body[0]
    node.decorator_list = []
    node.name = name
    return node, raw


def _writable(obj):
    """Can ``_literal`` write ``obj`` (numbers, strings, None, and tuples of them)?"""
    if isinstance(obj, tuple):
        return all(_writable(v) for v in obj)
    return isinstance(obj, (int, float, complex, str, bytes, bool, type(None)))


def _literal(obj):
    """Python source for a constant, also where ``repr`` is not source: ``inf`` and ``nan``
    (``float('inf')``) and numpy's scalars (``np.float64(1.5)`` is written ``1.5``)."""
    if isinstance(obj, bool) or obj is None or isinstance(obj, (str, bytes)):
        return repr(obj)
    if isinstance(obj, int):
        return repr(int(obj))
    if isinstance(obj, float):
        value = float(obj)
        return repr(value) if math.isfinite(value) else f"float({str(value)!r})"
    if isinstance(obj, complex):
        return f"complex({_literal(obj.real)}, {_literal(obj.imag)})"
    if isinstance(obj, list):
        return "[" + ", ".join(_literal(v) for v in obj) + "]"
    if isinstance(obj, tuple):
        return "(" + "".join(_literal(v) + ", " for v in obj) + ")"
    return repr(obj)


def standalone_module(generated, extra=None):
    """A module text defining the gradient function(s), needing only numpy at run time.

    ``generated`` is a list of Generated results (one per function written); ``extra`` maps
    names to runtime helpers to copy in as well (``restructure`` for transpiler.distributed).
    Objects of the user's own modules are imported (the docstring names those modules); what
    cannot be written or imported raises TranspileError at the user's line.
    """
    imports, helpers, constants, done = [], [], [], {}
    bodies = []

    def need(name, obj, gen):
        if name in done:
            return
        done[name] = obj
        if isinstance(obj, types.ModuleType):
            imports.append(_import_line(name, obj))
            return
        if getattr(obj, "_adjoin_callee", False):
            callee(name, obj)
            return
        mod = getattr(obj, "__module__", "") or ""
        if (mod.startswith("runtime.") or mod == "transpiler.frontend.calls.primal_helpers") and callable(obj):
            node, raw = _helper_source(obj, name)
            owner = getattr(raw, "__globals__", None) or vars(sys.modules[raw.__module__])
            for dep in free_names(node):
                if dep in done:
                    continue
                if dep in owner:
                    need(dep, owner[dep], None)
            helpers.append(to_source(node))
            return
        if mod.startswith("transpiler"):
            raise _needs_adjoin(gen, name)
        if isinstance(obj, np.generic) and obj.dtype.kind in "biufc":
            imports.append("import numpy")
            constants.append(f"{name} = numpy.{obj.dtype.name}({_literal(obj.item())})")
            return
        if isinstance(obj, (int, float, complex, str, bytes, bool, type(None), tuple)) and _writable(obj):
            constants.append(f"{name} = {_literal(obj)}")
            return
        if isinstance(obj, np.ndarray) and obj.size <= 10000 and obj.dtype.kind in "biufc":
            imports.append("import numpy")
            constants.append(f"{name} = numpy.array({_literal(obj.tolist())}, dtype=numpy.{obj.dtype.name})")
            return
        if isinstance(obj, (np.ufunc, types.BuiltinFunctionType)) or mod.startswith("numpy"):
            imports.append(_import_line(name, obj))
            return
        if mod and mod != "__main__" and getattr(obj, "__name__", None):     # a function or class
            imports.append(_import_line(name, obj))
            return
        owner = gen.ctx.parsed.fn.__globals__.get("__name__") if gen is not None else None
        if owner and owner != "__main__" and getattr(sys.modules.get(owner), name, None) is obj:
            imports.append(f"from {owner} import {name}")       # a global object of the user's module
            return
        what = f"a {type(obj).__name__} of {owner or 'the program'}"
        raise (gen.ctx.parsed.error if gen is not None else _plain_error)(
            f"cannot write `{name}` ({what}) into a standalone module",
            None, "pass it as an argument instead" + (
                ", or define it in an importable module" if owner == "__main__" else ""))

    def callee(name, proxy):
        """A called user function's generated code, with what it needs in turn."""
        gen, node, code = proxy.function_node()
        done.setdefault(node.name, proxy)
        for dep in free_names(node):
            if dep == node.name:
                continue                     # a recursive call to itself
            value = gen.ctx.injected[dep] if dep in gen.ctx.injected else gen.ctx.parsed.scope.lookup(dep)
            if getattr(builtins, dep, None) is value:
                continue
            need(dep, value, gen)
        bodies.append(code if name == node.name else f"{code.rstrip()}\n\n\n{name} = {node.name}\n")

    for gen in generated:
        ctx = gen.ctx
        for name in free_names(gen.node):
            value = ctx.injected[name] if name in ctx.injected else ctx.parsed.scope.lookup(name)
            if getattr(builtins, name, None) is value:
                continue
            need(name, value, gen)
        bodies.append(gen.code)
    for name, obj in (extra or {}).items():
        need(name, obj, None)
    seen = []
    for line in imports:
        if line not in seen:
            seen.append(line)
    names = ", ".join(g.node.name for g in generated)
    parts = [f'"""Gradients generated by adjoin: {names}.\n\n{_needs(seen)}"""', "\n".join(seen)]
    if constants:
        parts.append("\n".join(constants))
    parts.extend(h.rstrip("\n") for h in helpers)
    parts.extend(b.rstrip("\n") for b in bodies)
    return "\n\n\n".join(p for p in parts if p) + "\n"


def _needs(import_lines):
    """The docstring's sentence on what the module imports at run time."""
    others = sorted({line.split()[1].split(".")[0] for line in import_lines if line.startswith(("import ", "from "))}
                    - {"numpy"})
    if not others:
        return "Needs only numpy at run time."
    return f"Needs numpy and {', '.join(others)} at run time (imported below)."


def _plain_error(message, node=None, hint=None):
    return TranspileError(message, hint=hint)


def _needs_adjoin(gen, name):
    """The refusal of a call whose function is known only at run time (``fn(x)`` for a parameter
    ``fn``, ``self.layer(x)``): its gradient is generated when called, which needs adjoin."""
    call = next((n for n in ast.walk(gen.node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id == name and n.args), None) if gen is not None else None
    what = f"`{ast.unparse(call.args[0])}`" if call is not None and name == "call_forward" else "a function"
    where = gen.ctx.parsed.error if gen is not None else _plain_error
    return where(f"{gen.ctx.parsed.name if gen is not None else 'the function'}() calls {what}, which is "
                 "passed in at run time: its gradient is generated when it is called, which needs adjoin, "
                 "so it cannot be written into a standalone module (nor sent to transpiler.distributed's "
                 "workers, which run one)", call,
                 "call a function defined at module level instead, whose gradient is then written into "
                 "the module, or differentiate in this process with transpiler.grad")
