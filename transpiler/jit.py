"""``jit=True``: the generated gradient compiled with numba (optional extra ``adjoin[jit]``).

The generated code of a variant is already plain Python on floats and arrays, so numba's
nopython mode compiles most scalar and array-element code as it is.  On a copy, ``numba_ready``
rewrites two things: ``reversed(range(...))`` becomes a range that counts down (numba has no
``reversed``), and ``b = add_at(b, g, x, i)`` adds into ``b`` in place where no other name can
hold ``b`` (the runtime decides that by reference count, which numba cannot read).  The
runtime's adjoint helpers the code calls get numba twins (``_twins``) for the cases numba can
type; anything else -- a construct outside numba's nopython subset -- makes the compilation
fail, and the variant then runs as plain numpy, with one ``JitFallbackWarning`` naming the
user's line (``_where``).

Compilation is lazy (numba compiles on the first call, per argument types) and the jitted
function is kept on its variant, so a process compiles each variant once.
"""

import ast
import re
import types
import warnings
import weakref

import numpy as np

from .backend.codegen import compile_function, free_names, to_source
from .backend.release import without_releases
from . import jit_calls
from .core.astutil import copy_ast
from .core.ir import MISSING
from .core.once import GENERATING
from .frontend.control import blocks
from .modes import floats as _floats
from .relocate import raised_at, user_level, user_line

__all__ = ["JitFallbackWarning", "require_numba", "jitted", "view"]

INSTALL = "pip install adjoin[jit]"


class JitFallbackWarning(UserWarning):
    """``jit=True`` could not compile a gradient with numba; it runs as plain numpy instead."""


class _Bailout(Exception):
    """Raised inside jitted code by a twin that meets a case it does not model: the call
    reruns as plain numpy."""


def require_numba():
    """numba, or an ImportError that says how to install it."""
    try:
        import numba
    except ImportError as e:
        raise ImportError(f"jit=True compiles the gradient with numba, which is not installed: "
                          f"{INSTALL} (or pip install numba)") from e
    _twins(numba)
    return numba


def jitted(gen):
    """The variant ``gen`` (a ``Generated``) as a callable that runs it compiled with numba."""
    run = getattr(gen, "_jitted", None)
    if run is None:
        with GENERATING:          # one _Jitted per variant, whichever thread asks first
            run = getattr(gen, "_jitted", None)
            if run is None:
                run = gen._jitted = _Jitted(gen)
    return run


def view(gen):
    """``gen`` as the callers of a variant read it (function, seed_name, wrt, single), with the
    function jitted."""
    return types.SimpleNamespace(function=jitted(gen), seed_name=gen.seed_name, wrt=gen.wrt, single=gen.single)


_WARNED = weakref.WeakKeyDictionary()    # user function -> places already warned about

RERUN = (_Bailout,) + _floats.FALLBACK_ERRORS
"""Errors after which the call reruns as plain numpy, which then returns or raises as it always
does: a twin's bail-out; ``math`` errors of the float variant (modes/floats.py falls back to numpy
there); numba raising ZeroDivisionError where numpy returns inf."""


class _Jitted:
    """Calls the numba-compiled variant; falls back to ``gen.function`` (plain numpy) for good
    when numba cannot compile it, and for one call when the compiled code bails out."""

    def __init__(self, gen):
        numba = require_numba()
        self.gen = gen
        self.errors = (numba.core.errors.NumbaError,)
        node = numba_ready(copy_ast(gen.node), gen.ctx.resolve)
        # the variant's context, plus the in-place add numba_ready may call
        ctx = types.SimpleNamespace(injected={**gen.ctx.injected, ADD_INTO: add_into, **jit_calls.HELPERS},
                                    parsed=gen.ctx.parsed)
        values, entry = _shared(numba, node, ctx)
        self.node, self.code, self.filename, self.dispatcher = entry
        run = self.dispatcher
        if values:
            run = lambda *args, **kwargs: self.dispatcher(*values, *args, **kwargs)   # noqa: E731
        self.compiled = blocks.guard(run, gen.ctx, raised_at)
        self.failed = False

    def __call__(self, *args, **kwargs):
        if not self.failed:
            try:
                return self.compiled(*args, **kwargs)
            except self.errors as e:
                self._give_up(e)
            except RERUN:
                pass
        return self.gen.function(*args, **kwargs)      # outside the handler: no chained traceback

    def _give_up(self, error):
        """numba cannot compile this variant: plain numpy from now on, and one warning."""
        self.failed = True
        where = self._where(error)
        seen = _WARNED.setdefault(self.gen.ctx.parsed.fn, set())
        if where not in seen:                 # once per function and place, whatever the variant
            seen.add(where)
            warnings.warn(JitFallbackWarning(
                f"jit=True: numba cannot compile the gradient of {self._name()} ({where}); it runs "
                f"as plain numpy instead. numba says: {_first_line(error)}"), stacklevel=user_level())

    def _name(self):
        return f"{self.gen.ctx.parsed.name}()"

    def _where(self, error):
        """The user's file and line of the construct numba refused, if it can be told, else
        the function's first line."""
        parsed = self.gen.ctx.parsed
        fallback = f"{parsed.filename}, line {self.node.lineno}: def {parsed.name}"
        found = [int(n) for f, n in re.findall(r'File "([^"]*)", line (\d+)', str(error)) if f == self.filename]
        if not found:
            return fallback
        line = found[-1] - 1                       # compile_function wraps the source in one def line
        user = user_line(self.node, self.code, line, parsed)
        if user is None:
            return fallback
        return f"{parsed.filename}, line {user}: {parsed.line(user).strip()}"


_SHARED = {}
"""(generated code, the objects its other free names stand for) -> (node, code, file name, numba
dispatcher).  numba never frees the machine code it compiles, so a compilation per function would
keep memory for good (about 3 MB each: a closure made in a loop would grow without bound).
Functions whose gradients read the same code -- closures of one ``def``, above all -- share one
compilation, their free numbers and arrays passed as leading arguments instead of frozen in."""


def _data(value):
    return isinstance(value, (bool, int, float, complex, np.number, np.bool_)) or \
        isinstance(value, np.ndarray) and value.dtype.kind in "biufc"


def _shared(numba, node, ctx):
    """``(values to pass first, (node, code, file name, dispatcher))`` for the variant ``node``."""
    scope = ctx.parsed.scope
    free = free_names(node)
    found = {}
    for name in free:
        value = ctx.injected[name] if name in ctx.injected else scope.lookup(name)
        if value is not MISSING:
            found[name] = value
    data = [n for n in free if n in found and _data(found[n])]
    args = node.args
    if args.vararg is not None or args.kwarg is not None or args.kwonlyargs or args.posonlyargs:
        data = []                    # (leading parameters would not fit this signature)
    node = copy_ast(node)
    node.args.args = [ast.arg(n) for n in data] + node.args.args
    code = to_source(node)
    others = tuple((n, id(found[n])) for n in free if n in found and n not in data)
    key = (code, others, ctx.parsed.filename, node.lineno)
    entry = _SHARED.get(key)
    if entry is None:
        with GENERATING:
            entry = _SHARED.get(key)
            if entry is None:
                bind = types.SimpleNamespace(injected={n: found[n] for n, _ in others}, parsed=ctx.parsed)
                plain = compile_function(node, code, bind)
                # boundscheck: an index out of range raises IndexError, as in Python, not a read past the end
                entry = _SHARED[key] = (node, code, plain.__code__.co_filename, numba.njit(plain, boundscheck=True),
                                        [found[n] for n, _ in others])      # (what the ids in the key stand for)
    return tuple(found[n] for n in data), entry[:4]


def _first_line(error):
    lines = [ln for ln in str(error).splitlines() if ln.strip()]
    return lines[1].strip() if len(lines) > 1 and lines[0].startswith("Failed in") else \
        (lines[0].strip() if lines else type(error).__name__)


# --- the rewrite ------------------------------------------------------------------------------

def numba_ready(fn_node, resolve):
    """``fn_node`` with ``reversed(range(...))`` counting down instead (numba has no reversed), and
    ``b = add_at(b, g, x, i)`` adding into ``b`` in place (``add_into``) where ``b`` is private."""
    without_releases(fn_node)          # a float variant's `del` lines (backend/release.py): numba has no del
    for n in ast.walk(fn_node):
        if isinstance(n, ast.For):
            down = _count_down(n.iter)
            if down is not None:
                n.iter = ast.copy_location(down, n.iter)
    from runtime.rules.inplace import add_at
    private = _private(fn_node, resolve, add_at)
    for n in ast.walk(fn_node):
        if _self_add(n, resolve, add_at) in private:
            n.value.func = ast.Name(ADD_INTO, ast.Load())
            n.value.args = [n.value.args[0], n.value.args[1], n.value.args[3]]
    jit_calls.rewrite(fn_node, resolve)      # numpy calls and the save stack in forms numba types
    return ast.fix_missing_locations(fn_node)


ADD_INTO = "adjoin_add_into"


def add_into(out, g, idx):
    """``out[idx] += g`` in place, for an ``out`` no other name holds (``_private``); numba runs
    its twin (``_twins``), this is its meaning in Python."""
    np.add.at(out, idx, g)
    return out


def _self_add(n, resolve, add_at):
    """``b`` for a statement ``b = add_at(b, g, x, i)``, else None."""
    if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
            and isinstance(n.value, ast.Call) and len(n.value.args) == 4 and not n.value.keywords \
            and isinstance(n.value.args[0], ast.Name) and n.value.args[0].id == n.targets[0].id \
            and resolve(n.value.func) is add_at:
        return n.targets[0].id
    return None


def _private(fn_node, resolve, add_at):
    """Names ``b`` of ``b = add_at(b, ...)`` whose array no other name can hold: every value bound
    to ``b`` is new (``zero_grad(...)``, arithmetic, ``add_at(b, ...)``), not a parameter, and ``b``
    is read only by arithmetic, ``return`` and its own ``add_at`` -- so adding in place changes
    nothing anyone else sees (the runtime's ``add_at`` checks this by reference count instead)."""
    from runtime.rules.containers import zero_grad
    names = {_self_add(n, resolve, add_at) for n in ast.walk(fn_node)} - {None}
    names -= {a.arg for a in ast.walk(fn_node.args) if isinstance(a, ast.arg)}
    parents = {id(c): p for p in ast.walk(fn_node) for c in ast.iter_child_nodes(p)}
    for n in ast.walk(fn_node):
        if not (isinstance(n, ast.Name) and n.id in names):
            continue
        up = parents.get(id(n))
        if isinstance(n.ctx, ast.Store):
            fresh = isinstance(up, ast.Assign) and len(up.targets) == 1 and up.targets[0] is n and (
                isinstance(up.value, (ast.BinOp, ast.UnaryOp)) or _self_add(up, resolve, add_at) == n.id
                or isinstance(up.value, ast.Call) and resolve(up.value.func) is zero_grad)
        else:
            owner = parents.get(id(up))
            fresh = isinstance(up, (ast.BinOp, ast.UnaryOp, ast.Return)) \
                or isinstance(up, ast.Tuple) and isinstance(owner, ast.Return) \
                or isinstance(up, ast.Call) and up.args[:1] == [n] and _self_add(owner, resolve, add_at) == n.id
        if not fresh:
            names.discard(n.id)
    return names


def _simple(e):
    return isinstance(e, (ast.Name, ast.Constant)) or (
        isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub) and isinstance(e.operand, ast.Constant))


def _count_down(it):
    """A ``range(...)`` running as ``reversed(range(a, b, s))`` when a, b and s are names or int
    literals (evaluated more than once, so nothing with a side effect), else None."""
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "reversed"
            and len(it.args) == 1 and not it.keywords):
        return None
    r = it.args[0]
    if not (isinstance(r, ast.Call) and isinstance(r.func, ast.Name) and r.func.id == "range"
            and 1 <= len(r.args) <= 3 and not r.keywords and all(_simple(a) for a in r.args)):
        return None
    args = [ast.unparse(a) for a in r.args]
    if len(args) == 1:
        text = f"range({args[0]} - 1, -1, -1)"
    elif len(args) == 2:
        text = f"range({args[1]} - 1, {args[0]} - 1, -1)"
    else:              # any non-zero step, known at run time: count the items, start at the last
        a, b, step = args
        sign = f"(1 if {step} > 0 else -1)"
        count = f"max(0, ({b} - {a} - {sign} + {step}) // {step})"
        text = f"range({a} + ({count} - 1) * {step}, {a} - {sign}, -{step})"
    return ast.parse(text, mode="eval").body


# --- numba twins of the runtime's adjoint helpers --------------------------------------------

_DONE = []


def _twins(numba):
    """Teach numba the runtime helpers generated code calls, for the argument types it can
    type exactly; other cases bail out (the call reruns as plain numpy).  Once per process."""
    if _DONE:
        return
    with GENERATING:
        if not _DONE:
            _teach(numba)
            jit_calls.teach(numba)
            _DONE.append(True)


def _teach(numba):
    import numpy as np
    from numba import types as nt
    from numba.extending import overload
    from runtime.rules.containers import ones_tree, zero_grad
    from runtime.rules.inplace import add_at
    from runtime.rules.reductions import tie_mask
    from runtime.rules.support import expand_reduced, unbroadcast

    def number(t):
        return isinstance(t, (nt.Float, nt.Integer, nt.Boolean))

    @overload(zero_grad)
    def _zero_grad(x):
        if isinstance(x, nt.Array):
            return lambda x: np.zeros_like(x)
        if number(x):
            return lambda x: 0.0

    @overload(ones_tree)
    def _ones_tree(x):
        if isinstance(x, nt.Array):
            return lambda x: np.ones_like(x)
        if number(x):
            return lambda x: 1.0

    @overload(unbroadcast)
    def _unbroadcast(g, x):
        if number(g) and number(x):
            return lambda g, x: g
        if isinstance(g, nt.Array) and number(x):
            return lambda g, x: np.sum(g)
        if isinstance(g, nt.Array) and isinstance(x, nt.Array) and g.ndim == x.ndim:
            def same(g, x):
                if g.shape != x.shape:
                    raise _Bailout("unbroadcast: shapes differ")
                return g
            return same

    @overload(tie_mask)
    def _tie_mask(a, best, like):
        if isinstance(a, nt.Array) and isinstance(like, nt.Array):
            def mask(a, best, like):
                return np.where(a == best, np.ones_like(like), np.zeros_like(like))
            return mask

    @overload(expand_reduced)
    def _expand_reduced(g, x, axis=None, keepdims=False):
        if number(g) and isinstance(x, nt.Array) and isinstance(axis, (nt.NoneType, nt.Omitted)):
            def full(g, x, axis=None, keepdims=False):
                return np.full(x.shape, g, x.dtype)
            return full

    @overload(add_into)
    def _add_into(out, g, idx):
        if isinstance(out, nt.Array) and out.ndim == 1 and number(g) and isinstance(idx, nt.Integer):
            def add(out, g, idx):
                out[idx] += g
                return out
            return add

    @overload(add_at)
    def _add_at(out, g, x, idx):
        # a copy, not an in-place add: numba cannot tell whether ``out`` is shared
        if isinstance(out, nt.Array) and out.ndim == 1 and number(g) and isinstance(idx, nt.Integer):
            def add(out, g, x, idx):
                new = out.copy()
                new[idx] += g
                return new
            return add
