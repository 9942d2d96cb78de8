"""Pass 1: a Python function -> its ``FunctionDef`` AST plus a scope resolving free names.

Line and column numbers are shifted to the user's file so every later error and every
``# grad of:`` comment points at what the user wrote.  Names are resolved against the
function's closure, then its globals, then builtins -- the same order Python uses.
"""

import ast
import builtins
import inspect
import tokenize
import linecache
import weakref
import textwrap

from ...core.astutil import walk
from ...core.errors import TranspileError, Unresolved
from ...core.ir import MISSING
from .lines import source_lines

__all__ = ["Parsed", "Scope", "parse_function", "weakly", "wrt_names", "MISSING"]


class Scope:
    """Resolves the free names of one function (closure cells, globals, builtins)."""

    def __init__(self, fn):
        self.globals = getattr(fn, "__globals__", {})
        self.closure = {}
        code = getattr(fn, "__code__", None)
        cells = getattr(fn, "__closure__", None) or ()
        if code is not None:
            for name, cell in zip(code.co_freevars, cells):
                try:
                    self.closure[name] = cell.cell_contents
                except ValueError:  # empty cell: defined later in the enclosing function
                    pass

    def lookup(self, name):
        """The object bound to ``name``, or MISSING."""
        if name in self.closure:
            return self.closure[name]
        if name in self.globals:
            return self.globals[name]
        return getattr(builtins, name, MISSING)

    def evaluate(self, node):
        """Value of a static dotted name (``np.linalg.norm``); raises Unresolved."""
        if isinstance(node, ast.Name):
            value = self.lookup(node.id)
            if value is MISSING:
                raise Unresolved(node.id, node)
            return value
        if isinstance(node, ast.Attribute):
            base = self.evaluate(node.value)
            try:
                return getattr(base, node.attr)
            except AttributeError:
                raise Unresolved(ast.unparse(node), node) from None
        raise Unresolved(ast.unparse(node), node)


class Parsed:
    """A parsed function: its AST, where it came from, and its scope."""

    def __init__(self, fn, node, filename, lines):
        self._fn = weakly(fn)        # the caches that hold a Parsed are keyed weakly by fn
        self.node = node
        self.filename = filename
        self.lines = lines          # file line number -> text (the function's own lines)
        self.scope = Scope(fn)
        self.name = node.name

    @property
    def fn(self):
        return self._fn()

    def line(self, lineno):
        return self.lines.get(lineno) or linecache.getline(self.filename, lineno) or ""

    def error(self, message, node=None, hint=None):
        """A TranspileError pointing at ``node`` in the user's file."""
        lineno = getattr(node, "lineno", None) or self.node.lineno
        col = getattr(node, "col_offset", 0) if node is not None else self.node.col_offset
        return TranspileError(message, self.filename, lineno, col, self.line(lineno) or None, hint)

    def segment(self, node):
        """The user's source text of a statement, on one line."""
        first = getattr(node, "lineno", None)
        last = getattr(node, "end_lineno", first)
        if first is None:
            return ""
        text = " ".join(self.line(i).strip() for i in range(first, (last or first) + 1))
        if first == last and getattr(node, "end_col_offset", None) is not None:
            raw = self.line(first).encode()      # the AST's columns count UTF-8 bytes
            text = raw[node.col_offset:node.end_col_offset].decode(errors="replace").strip() or text
        return " ".join(text.split())


def weakly(obj):
    """A weak reference to ``obj`` when it takes one, else a callable returning ``obj``."""
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: obj


def _lambda_as_def(module, fn):
    """``lambda v: e`` as ``def lambda_(v): return e`` when it is the only lambda with these
    parameters in the lines ``inspect`` gives for it; else None."""
    code = fn.__code__
    params = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    found = [n for n in walk(module) if isinstance(n, ast.Lambda)
             and [a.arg for a in n.args.posonlyargs + n.args.args + n.args.kwonlyargs] == params
             and (n.args.vararg is None) == (not code.co_flags & inspect.CO_VARARGS)
             and (n.args.kwarg is None) == (not code.co_flags & inspect.CO_VARKEYWORDS)]
    if len(found) != 1:
        return None
    lam = found[0]
    ret = ast.copy_location(ast.Return(lam.body), lam.body)
    node = ast.copy_location(ast.FunctionDef("lambda_", lam.args, [ret], [], None), lam)
    if "type_params" in ast.FunctionDef._fields:
        node.type_params = []
    return ast.fix_missing_locations(node)


def _enclosing_class(fn):
    """The name of the class whose body ``fn`` is written in (directly or in a function nested in
    one of its methods), from its qualified name; None outside classes."""
    parts = fn.__qualname__.split(".")[:-1]
    while len(parts) >= 2 and parts[-1] == "<locals>":
        parts = parts[:-2]
    return parts[-1] if parts else None


def _mangle_private_names(node, fn):
    """Rename ``__x`` to ``_Class__x`` as CPython does inside a class body: the generated code is
    compiled outside the class, where ``self.__x`` would name another attribute."""
    owner = (_enclosing_class(fn) or "").lstrip("_")
    if not owner:
        return
    compiled, codes = set(), [fn.__code__]      # the names CPython mangled (a stand-in's qualname
    while codes:                                # may look like a class's and is not one)
        code = codes.pop()
        compiled.update(code.co_names + code.co_varnames + code.co_freevars + code.co_cellvars)
        codes.extend(c for c in code.co_consts if hasattr(c, "co_names"))

    def mangled(name):
        private = name and name.startswith("__") and not name.endswith("__")
        return f"_{owner}{name}" if private and f"_{owner}{name}" in compiled else name

    for n in walk(node):
        for field in ("id", "attr", "arg"):                 # Name, Attribute, arg and keyword
            if isinstance(getattr(n, field, None), str):
                setattr(n, field, mangled(getattr(n, field)))
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n is not node:
            n.name = mangled(n.name)
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            n.names = [mangled(v) for v in n.names]


def _place(module, lines, indent):
    """Number the nodes of ``module`` as in the user's file: the source had ``lines`` lines above
    it and was dedented by ``indent`` columns (``ast.increment_lineno`` and the column shift in
    one walk)."""
    for n in walk(module):
        if "lineno" in n._attributes:
            n.lineno = getattr(n, "lineno", 0) + lines
        if "end_lineno" in n._attributes and (end := getattr(n, "end_lineno", 0)) is not None:
            n.end_lineno = end + lines
        if indent and hasattr(n, "col_offset"):
            n.col_offset += indent
            if getattr(n, "end_col_offset", None) is not None:
                n.end_col_offset += indent


def parse_function(fn):
    """Read ``fn``'s source (files, IPython cells via linecache, nested functions, methods)."""
    specialise = getattr(fn, "_adjoin_specialise", None)    # calls.Specialised: *args bound
    fn = inspect.unwrap(fn)
    if isinstance(fn, (staticmethod, classmethod)):
        fn = fn.__func__
    if inspect.ismethod(fn):
        fn = fn.__func__
    if not inspect.isfunction(fn):
        raise TypeError(f"adjoin can only differentiate Python functions, not {type(fn).__name__}")
    carried = getattr(fn, "_adjoin_source", None)    # (filename, first line, text): source/pickled.py
    module = None            # (source_lines may parse the lines already)
    try:
        if carried is not None:
            filename, first, text = carried
            lines = text.splitlines(True)
        else:
            filename = inspect.getsourcefile(fn) or fn.__code__.co_filename
            lines, first, module = source_lines(fn)
    except (SyntaxError, tokenize.TokenError) as e:     # (inspect's tokenizer: the lines do not tokenize)
        raise TranspileError(f"cannot parse the source of {fn.__qualname__}()", fn.__code__.co_filename,
                             fn.__code__.co_firstlineno, 0, None,
                             f"the lines read for it do not tokenize on their own ({e.args[0] if e.args else e}): "
                             "the file may have changed since it was imported, or its text holds line "
                             "separators other than newlines") from None
    except (OSError, TypeError):
        raise TranspileError(
            f"cannot read the source of {fn.__qualname__}()",
            fn.__code__.co_filename, fn.__code__.co_firstlineno, 0, None,
            "adjoin transforms source code: define the function in a file or a notebook cell, "
            "not with exec() or in the interactive prompt",
        ) from None
    indent = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
    try:
        module = module or ast.parse(textwrap.dedent("".join(lines)))
    except SyntaxError as e:
        header = lines[0].lstrip() if lines else ""
        if fn.__name__ == "<lambda>" or not header.startswith(("def ", "async def ", "@")):
            hint = "lambdas and functions defined on one line with other code are not supported; use a def statement"
        else:
            hint = (f"the lines read for it do not parse on their own ({e.msg}): the file may have changed "
                    f"since it was imported, or its text holds line separators other than newlines")
        raise TranspileError(f"cannot parse the source of {fn.__qualname__}()", filename, first, 0,
                             None, hint) from None
    _place(module, first - 1, indent)     # before a lambda's def is made: its nodes copy these places
    node = next((n for n in module.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if fn.__name__ == "<lambda>":
        node = _lambda_as_def(module, fn)
    if node is None:
        raise TranspileError(f"{fn.__qualname__} is not defined by a def statement", filename, first,
                             indent, lines[0] if lines else None,
                             "write the function with def (a lambda is read when it is the only "
                             "lambda with its parameters on its lines)")
    node.decorator_list = []
    node.returns = None
    _mangle_private_names(node, fn)
    parsed = Parsed(fn, node, filename, {first + i: text for i, text in enumerate(lines)})
    if isinstance(node, ast.AsyncFunctionDef):
        raise parsed.error("async functions cannot be differentiated", node,
                           "differentiate a plain (synchronous) def")
    if specialise is not None:
        specialise(parsed)
    return parsed


def wrt_names(node, wrt, what="wrt"):
    """Normalize ``wrt`` (int, name or a tuple of them) to (tuple of parameter names, single)."""
    a = node.args
    positional = [p.arg for p in a.posonlyargs + a.args]
    every = positional + [p.arg for p in a.kwonlyargs]
    single = not isinstance(wrt, (tuple, list))
    out = []
    for w in ([wrt] if single else wrt):
        if isinstance(w, bool) or not isinstance(w, (int, str)):
            raise TypeError(f"{what} must be parameter indices or names, not {w!r}")
        if isinstance(w, int):
            if not -len(positional) <= w < len(positional):
                star = (f"; the gradient with respect to items of `*{a.vararg.arg}` is generated per call "
                        f"(grad(f, wrt=...)(args), value_and_grad, vjp, jvp, hvp), so it has no code before "
                        f"a call (.source, differentiating it again): give {node.name}() named parameters "
                        f"for those") if a.vararg else ""
                raise ValueError(f"{what}={w}: {node.name}() has {len(positional)} positional "
                                 f"parameter(s) ({', '.join(positional)}){star}")
            w = positional[w]
        elif w not in every:
            raise ValueError(f"{what}={w!r}: {node.name}() has no parameter named {w!r} "
                             f"(parameters: {', '.join(every)})")
        out.append(w)
    if not out:
        raise ValueError(f"{what} is empty: name at least one parameter to differentiate with respect to")
    return tuple(out), single
