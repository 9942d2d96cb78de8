"""``jit=True``: numpy calls and idioms of generated code that numba cannot type, rewritten into
forms it can (used by jit.py on its copy of a variant; the plain variant is untouched).

* the save stack: ``push(t)`` ... ``t = pop()`` on one list holds values of several types (an
  int index next to a float), which numba cannot put in one list.  Each saved name gets a list
  of its own (``_per_name_stacks``): pushes and pops pair by name (modes/reverse_control.py
  pops exactly the names it pushed, last first), so every name's own list sees the same
  last-in-first-out order;
* ``np.ones_like(v)`` of a number is a 0-d array in numba, which does not unify with the
  float the adjoint later assigns to the same name: a seed of a number is a number here;
* numpy's transcendental ufuncs on arrays (``np.tanh(h)``): numba compiles them to a libm call
  per element, 5-7x slower than numpy's vectorised loops, so on an array of more than
  ``_LARGE`` elements the compiled code calls numpy's own (numba's object mode) -- numba's
  compiled form stays for numbers and small arrays, where that call would cost more;
* reductions with ``axis`` and ``keepdims`` (``np.max(z, axis=1, keepdims=True)``): numba's
  ``np.max`` takes no axis and its ``np.sum`` no keepdims; they become helpers written with
  the reductions numba has (one per row or column) for 1-d and 2-d arrays.

The helpers' Python bodies say what they mean; ``teach`` gives numba their compiled forms.
"""

import ast

import numpy as np

__all__ = ["rewrite", "teach", "HELPERS"]

_REDUCTIONS = {"sum": np.sum, "max": np.max, "min": np.min, "amax": np.max, "amin": np.min,
               "mean": np.mean, "prod": np.prod}


def _reducer(op, keep):
    def reduce(a, axis=None):
        return op(a, axis=axis, keepdims=keep)
    reduce.__name__ = f"adjoin_{op.__name__}{'_keep' if keep else ''}"
    reduce.__qualname__ = reduce.__name__
    return reduce


def ones_like(v):
    """``np.ones_like(v)``; numba's twin gives a number for a number."""
    return np.ones_like(v)


_UFUNCS = ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin",
           "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh")
_LARGE = 1024


def _caller(ufunc):
    def call(a):
        return ufunc(a)
    call.__name__ = call.__qualname__ = f"adjoin_np_{ufunc.__name__}"
    return call


_CALLERS = {getattr(np, n): _caller(getattr(np, n)) for n in _UFUNCS}
_REDUCERS = {(op, keep): _reducer(op, keep) for op in set(_REDUCTIONS.values()) for keep in (False, True)}
ONES_LIKE = "adjoin_ones_like"
HELPERS = {ONES_LIKE: ones_like, **{f.__name__: f for f in (*_REDUCERS.values(), *_CALLERS.values())}}
"""Names the rewritten code calls -> their Python meaning (jit.py injects them)."""


def rewrite(fn_node, resolve):
    """Rewrite ``fn_node`` in place (see the module docstring); ``resolve`` maps an expression
    to the object it names."""
    _per_name_stacks(fn_node)
    for n in ast.walk(fn_node):
        if not isinstance(n, ast.Call):
            continue
        f = resolve(n.func)
        if f is np.ones_like and len(n.args) == 1 and not n.keywords:
            n.func = ast.Name(ONES_LIKE, ast.Load())
            continue
        if f in _CALLERS and len(n.args) == 1 and not n.keywords:
            n.func = ast.Name(_CALLERS[f].__name__, ast.Load())
            continue
        new = _reduction(n, f)
        if new is not None:
            helper, n.args, n.keywords = new[0], new[1], []
            if helper is not None:
                n.func = ast.Name(helper, ast.Load())
    return fn_node


def _reduction(call, f):
    """(helper name, arguments) for ``np.<reduction>(a, axis=..., keepdims=<constant>)``; (None,
    [a]) where the reduction is over the whole array (numba takes ``np.<reduction>(a)``); None
    for anything else (left as it is)."""
    op = next((v for k, v in _REDUCTIONS.items() if getattr(np, k, None) is f), None)
    if op is None or len(call.args) not in (1, 2):
        return None
    words = {k.arg: k.value for k in call.keywords}
    if set(words) - {"axis", "keepdims"} or (len(call.args) == 2 and "axis" in words):
        return None
    axis = call.args[1] if len(call.args) == 2 else words.get("axis")
    keep = words.get("keepdims", ast.Constant(False))
    if not (isinstance(keep, ast.Constant) and isinstance(keep.value, bool)):
        return None
    if (axis is None or isinstance(axis, ast.Constant) and axis.value is None) and not keep.value:
        return None if not call.keywords else (None, call.args[:1])
    if axis is None:
        axis = ast.Constant(None)
    return _REDUCERS[op, keep.value].__name__, [call.args[0], axis]


# --- the save stack ---------------------------------------------------------------------

def _per_name_stacks(fn_node):
    """``stack = []; push = stack.append; pop = stack.pop`` with ``push(t)`` / ``t = pop()``
    becomes one list per saved name, when the stack is used only that way."""
    body = fn_node.body
    for k in range(len(body) - 2):
        stack = _bound(body[k], lambda v: isinstance(v, ast.List) and not v.elts)
        if stack is None:
            continue
        push = _bound(body[k + 1], lambda v: _method(v, stack, "append"))
        pop = _bound(body[k + 2], lambda v: _method(v, stack, "pop"))
        if push is None or pop is None:
            continue
        prelude = {id(n) for s in body[k:k + 3] for n in ast.walk(s)}
        pushed, popped, understood = set(), set(), set()
        for s in ast.walk(fn_node):
            if isinstance(s, ast.Expr) and _call_of(s.value, push) and len(s.value.args) == 1 \
                    and not s.value.keywords and isinstance(s.value.args[0], ast.Name):
                pushed.add(s.value.args[0].id)
                understood.add(id(s.value.func))
            elif isinstance(s, ast.Assign) and _call_of(s.value, pop) and not s.value.args \
                    and not s.value.keywords and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
                popped.add(s.targets[0].id)
                understood.add(id(s.value.func))
        others = [n for n in ast.walk(fn_node) if isinstance(n, ast.Name) and n.id in (stack, push, pop)
                  and id(n) not in prelude and id(n) not in understood]
        if not others and popped <= pushed:
            _split(fn_node, k, stack, push, pop, sorted(pushed))
        return


def _split(fn_node, k, stack, push, pop, names):
    lists = {n: f"{stack}_{n}" for n in names}
    at = fn_node.body[k]
    fn_node.body[k:k + 3] = [ast.copy_location(ast.Assign([ast.Name(lists[n], ast.Store())], ast.List([], ast.Load())), at)
                             for n in names]
    for s in ast.walk(fn_node):
        if isinstance(s, ast.Expr) and _call_of(s.value, push):
            name = s.value.args[0].id
            s.value.func = ast.Attribute(ast.Name(lists[name], ast.Load()), "append", ast.Load())
        elif isinstance(s, ast.Assign) and _call_of(s.value, pop):
            name = s.targets[0].id
            s.value.func = ast.Attribute(ast.Name(lists[name], ast.Load()), "pop", ast.Load())


def _bound(s, test):
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) and test(s.value):
        return s.targets[0].id
    return None


def _method(v, stack, attr):
    return isinstance(v, ast.Attribute) and v.attr == attr and isinstance(v.value, ast.Name) and v.value.id == stack


def _call_of(v, name):
    return isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == name


# --- numba's forms ----------------------------------------------------------------------

def teach(numba):
    """Compiled forms of ``HELPERS`` (called once per process by jit.py)."""
    from numba import types as nt
    from numba.extending import overload

    @overload(ones_like)
    def _ones_like(v):
        if isinstance(v, nt.Array):
            return lambda v: np.ones_like(v)
        if isinstance(v, nt.Float):
            return lambda v: 1.0
        if isinstance(v, (nt.Integer, nt.Boolean)):
            return lambda v: 1

    for ufunc, helper in _CALLERS.items():
        _teach_caller(numba, overload, nt, ufunc, helper)
    for (op, keep), helper in _REDUCERS.items():
        _teach_reduction(numba, overload, nt, op, keep, helper)


def _teach_reduction(numba, overload, nt, op, keep, helper):
    @overload(helper)
    def _reduce(a, axis=None):
        if not isinstance(a, nt.Array) or a.ndim not in (1, 2) or not isinstance(a.dtype, (nt.Float, nt.Complex)):
            return None
        whole = isinstance(axis, (nt.NoneType, nt.Omitted))
        if a.ndim == 1:
            if whole or isinstance(axis, nt.Integer):
                if keep:
                    return lambda a, axis=None: np.full(1, op(a))
                return lambda a, axis=None: op(a)
            return None
        if whole:
            if keep:
                return lambda a, axis=None: np.full((1, 1), op(a))
            return None          # (numba takes np.op(a) itself; the rewrite leaves it)
        if not isinstance(axis, nt.Integer):
            return None

        @numba.njit
        def reduced(a, ax):
            n, m = a.shape
            if ax == 1:
                out = np.empty(n, a.dtype)
                for i in range(n):
                    out[i] = op(a[i])
                return out
            out = np.empty(m, a.dtype)
            for j in range(m):
                out[j] = op(a[:, j])
            return out

        if keep:
            def kept(a, axis=None):
                ax = axis + 2 if axis < 0 else axis
                out = reduced(a, ax)
                return out.reshape((a.shape[0], 1)) if ax == 1 else out.reshape((1, a.shape[1]))
            return kept

        def dropped(a, axis=None):
            return reduced(a, axis + 2 if axis < 0 else axis)
        return dropped


def _teach_caller(numba, overload, nt, ufunc, helper):
    @overload(helper)
    def _call(a):
        if isinstance(a, (nt.Float, nt.Complex, nt.Integer)):
            return lambda a: ufunc(a)
        if not (isinstance(a, nt.Array) and isinstance(a.dtype, (nt.Float, nt.Complex))):
            return None
        out_type = nt.Array(a.dtype, a.ndim, "C")

        def call(a):
            if a.size < _LARGE:
                return ufunc(a)
            with numba.objmode(out=out_type):
                out = np.ascontiguousarray(ufunc(a))
            return out
        return call
