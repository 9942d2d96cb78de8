"""Is the source adjoin read the code that runs?

adjoin differentiates a function's source text, read from its file (or a notebook cell, or a
pickle).  The text can differ from the running code: the file was edited after the import, the
function was made with ``exec`` under a file name that holds something else, a pickle carried
other text.  Differentiating that text would give the derivative of another function, with no
error.  ``same_code(fn, text, filename)`` compiles the text as the function was compiled --
inside scopes that give its free variables cells, inside its class (``super()``, private names),
after the imports of its module (CPython calls a method of an imported name differently), with
its ``__future__`` flags, with its asserts rewritten when pytest rewrote its module -- and looks
for a code object equal to ``fn.__code__`` in bytecode, constants, names and signature (line
numbers aside).
"""

import __future__
import ast
import linecache
import textwrap
import types
import weakref

from .once import parse

__all__ = ["same_code"]

_FUTURE = 0
for _name in __future__.all_feature_names:
    _FUTURE |= getattr(__future__, _name).compiler_flag

_KIND = 0x04 | 0x08 | 0x20 | 0x80 | 0x100 | 0x200     # *args, **kwargs, generator, coroutine, async gen.

_CHECKED = weakref.WeakKeyDictionary()       # fn -> (code, text) found to match


def same_code(fn, text, filename=None):
    """True when ``text`` (the function's source: its own lines, any indentation, read from
    ``filename``) compiles to ``fn``'s code object.  A lambda may share its lines with other code."""
    code = fn.__code__
    try:
        if _CHECKED.get(fn) == (code, text):
            return True
    except TypeError:
        pass
    want = _key(code)
    body = textwrap.dedent(text)
    rewritten = "@pytest_ar" in getattr(fn, "__globals__", {})     # pytest rewrote the module's asserts
    texts = _wrappings(fn, body, _imported(fn, filename))
    if rewritten:           # (code generated from it is compiled as it is: try both)
        texts += [_as_pytest_did(t) for t in texts]
    for wrapped in texts:
        try:
            module = compile(wrapped, "<adjoin source check>", "exec", flags=code.co_flags & _FUTURE,
                             dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError):
            continue
        if any(_key(c) == want for c in _codes(module) if c.co_name == code.co_name):
            try:
                _CHECKED[fn] = (code, text)
            except TypeError:
                pass
            return True
    return False


def _as_pytest_did(text):
    """``text`` as an AST with its asserts rewritten by pytest's import hook (which rewrites the
    test modules it imports), so a function of a test module compiles to its running code."""
    try:
        from _pytest.assertion.rewrite import rewrite_asserts
        tree = parse(text)
        rewrite_asserts(tree, text.encode())
        return tree
    except Exception:            # noqa: BLE001  (another pytest: compare the text as it is)
        return text


def _wrappings(fn, body, imported):
    """The text inside the scopes the function was defined in: after its module's imports, in a
    function giving its free variables cells, in the class its qualified name names (several
    guesses, most likely first)."""
    code = fn.__code__
    free = [v for v in code.co_freevars if v != "__class__"]
    parts = getattr(fn, "__qualname__", "").split(".")
    owner = parts[-2] if len(parts) >= 2 and parts[-2] != "<locals>" else None
    classes = ([owner, None] if owner else [None]) + (["C"] if "__class__" in code.co_freevars and not owner else [])
    texts = []
    for names in imported:
        head = "".join(f"import sys as {n}\n" for n in sorted(names))
        for cls in classes:
            text = body
            if cls is not None:
                text = f"class {cls}:\n" + textwrap.indent(text, "    ")
            if free:
                text = "def __adjoin_scope__():\n    " + " = ".join(free) + " = None\n" + textwrap.indent(text, "    ")
            texts.append(head + text)
    return texts


_IMPORTS = {}          # (file name, hash of its text) -> names its top level binds by import


def _imported(fn, filename):
    """Candidate sets of the module-level names bound by ``import`` where ``fn`` was compiled:
    read from its file when it parses, else guessed from the modules among its globals."""
    lines = linecache.getlines(filename) if filename else []
    if lines:
        text = "".join(lines)
        key = (filename, hash(text))
        names = _IMPORTS.get(key)
        if names is None:
            try:
                tree = parse(text)
            except (SyntaxError, ValueError, RecursionError):
                tree = None
            names = None if tree is None else frozenset(
                (a.asname or a.name.partition(".")[0]) for n in _module_level(tree.body)
                if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names if a.name != "*")
            if len(_IMPORTS) > 256:
                _IMPORTS.clear()
            _IMPORTS[key] = names
        if names is not None:
            return [names]
    modules = frozenset(k for k, v in getattr(fn, "__globals__", {}).items()
                        if isinstance(v, types.ModuleType) and k.isidentifier())
    return [modules, frozenset()]


def _module_level(body):
    """The statements of a module's own scope, inside ``try``/``if``/``with``/loops too (``try: import
    tensorflow as tf``), not inside functions and classes."""
    todo = list(body)
    while todo:
        n = todo.pop()
        yield n
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            todo.extend(c for c in ast.iter_child_nodes(n) if isinstance(c, ast.stmt) or isinstance(c, ast.excepthandler))


def _codes(code):
    """Every code object nested in ``code``."""
    todo = [code]
    while todo:
        c = todo.pop()
        yield c
        todo.extend(k for k in c.co_consts if isinstance(k, types.CodeType))


def _own_part(const):
    """A nested function's qualified name (a constant before Python 3.11) without the scopes the check
    wraps the text in, which are guesses (``f.<locals>.<listcomp>`` inside ``outer.<locals>.``)."""
    if isinstance(const, str) and ".<locals>." in const:
        return const.split(".<locals>.", 1)[1]
    return const


def _key(code):
    """What must agree: bytecode, constants (nested code by its own key), names, parameters."""
    consts = tuple(_key(c) if isinstance(c, types.CodeType) else (type(c).__name__, repr(_own_part(c)))
                   for c in code.co_consts)
    return (code.co_code, consts, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars,
            code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount, code.co_flags & _KIND)
