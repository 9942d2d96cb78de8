"""A ``@differentiate``d function called on runtime tensors: one recorded operation.

When any argument of a :class:`~transpiler.api.Differentiable` is a ``runtime`` Tensor or
Variable, the call goes through :func:`call`:

* **outside any tape** the function runs on the plain numpy values and its outputs come
  back wrapped as Tensors (numpy in, numpy out; tensors in, tensors out);
* **inside a recording tape** the call is recorded as *one* primitive with
  :func:`runtime.tensor.apply` -- the same recording API every numpy primitive uses.  The
  primitive is a :class:`runtime.rules.registry.Rule` built once per function and argument
  structure: its ``impl`` runs the generated forward (``split.py``: numpy only, returning
  the value and exactly what the backward reads), and its VJP for each floating-point
  positional argument gives that argument's gradient (all of them come from one sweep,
  ``wrt=(i, j, ...)``, with the cotangent as the seed).

First-order sweeps run the generated backward on the forward's saved arrays: numpy speed,
and the primal is not run again.  When an outer tape is recording the sweep, the VJP
instead calls the whole generated gradient (which recomputes the primal from its inputs)
through :func:`call` as well: it is recorded as one op whose VJP is the transpiler's
gradient of that code, and so on for each further order.  (Running the generated code op
by op on tensors would cut every value it keeps in Python floats or containers off the
tape.)  If that code cannot be transformed again, it runs op by op as a last resort.

Functions that returns several arrays (``return a, b``) are recorded as one op producing a
hidden "hub" plus one tiny op per output (the scheme ``tf.custom_gradient`` uses); their
cotangents reach the generated gradient as one tuple seed.

Some calls run **op by op** instead: the original function is simply called on the
tensors, and numpy's protocols record each of its operations (correct in every case, just
without the speed-up).  That happens when

* the function reads a ``tf.Variable`` that is not an argument (a closure cell, a global,
  an attribute of ``self`` or of another argument object): the generated code cannot
  produce gradients for values it does not receive as parameters, and op-by-op recording
  watches such reads exactly as TF does;
* a floating-point tensor is passed in a keyword-only parameter or inside a list/tuple/dict;
* a forward-mode ``ForwardAccumulator`` is active (it needs JVPs, which the op has none of);
* the transpiler cannot generate the gradient (``TranspileError``: e.g. the body calls a
  ``tf`` op that is not a numpy primitive under another name, see ``tfcalls.py``);
* the output is not one float array or a flat tuple/list of arrays.
"""

import types

import numpy as np

from runtime.custom_gradient import _Cotangent, _slot_vjp
from runtime.rules.registry import define
from runtime.tensor import Tensor, Variable, _TensorBase, _state, apply

from .core.errors import TranspileError, Unresolved
from .analysis.signature import cast_like, specialisation
from .variants import transformer

__all__ = ["call", "has_tensor"]


def has_tensor(args, kwargs):
    """Whether any argument (at any depth of lists/tuples/dicts) is a runtime tensor."""
    for a in args:
        if _contains_tensor(a):
            return True
    for v in kwargs.values():
        if _contains_tensor(v):
            return True
    return False


def _contains_tensor(x):
    if isinstance(x, _TensorBase):
        return True
    if type(x) in (list, tuple):
        return any(_contains_tensor(v) for v in x)
    if type(x) is dict:
        return any(_contains_tensor(v) for v in x.values())
    return False


def _values(x):
    """The numpy value of ``x`` with tensors replaced at any depth of lists/tuples/dicts."""
    if isinstance(x, _TensorBase):
        return x._value
    t = type(x)
    if t is list or t is tuple:
        return t(_values(v) for v in x)
    if t is dict:
        return {k: _values(v) for k, v in x.items()}
    return x


def _wrap_out(x):
    """Outputs of a tape-free call: arrays become Tensors, containers keep their structure."""
    if isinstance(x, _TensorBase):
        return x
    if isinstance(x, (np.ndarray, np.generic)):
        return _tensor(x)
    t = type(x)
    if t is list or t is tuple:
        return t(_wrap_out(v) for v in x)
    if t is dict:
        return {k: _wrap_out(v) for k, v in x.items()}
    if t is float:
        return _tensor(np.float64(x))
    return x


def _tensor(value):
    t = Tensor.__new__(Tensor)
    t._value = value
    return t


def _is_float_tensor(x):
    return isinstance(x, _TensorBase) and x._value.dtype.kind in "fc"


# --- entry point --------------------------------------------------------------------------

def call(d, args, kwargs):
    """Call Differentiable ``d`` (``args`` include ``self`` for methods) with tensor arguments."""
    fn = d._fn
    recorders = _state.tapes
    if not recorders:
        # no tape: nothing to record, run at numpy speed
        return _wrap_out(fn(*[_values(a) for a in args], **{k: _values(v) for k, v in kwargs.items()}))
    entry = _entry_for(d, args, kwargs)
    if entry is None:
        return fn(*args, **kwargs)
    return entry.run(args, kwargs)


def _entry_for(d, args, kwargs):
    """The cached recorded-op entry for this call's structure, or None to run op by op."""
    for rec in _state.tapes:
        if hasattr(rec, "_tangents"):  # forward mode: follow the function's own ops
            return None
    t = d._t
    if kwargs or len(args) not in _BINDS_AS_IS.get(t, ()):
        try:
            bound = t.signature.bind(*args, **kwargs)
        except TypeError:
            return None  # let the function itself raise the usual error
        pos, kw = bound.args, bound.kwargs
        if not kwargs:  # this many positional arguments bind as themselves: skip it next time
            _BINDS_AS_IS.setdefault(t, set()).add(len(args))
    else:
        pos, kw = args, {}
    for v in kw.values():
        if _contains_tensor(v) and (not isinstance(v, _TensorBase) or _is_float_tensor(v)):
            return None
    kinds = []
    for a in pos:
        if isinstance(a, _TensorBase):
            kinds.append("f" if _is_float_tensor(a) else "c")
        elif type(a) in (list, tuple, dict) and _contains_tensor(a):
            return None
        else:
            kinds.append("c")
    wrt = tuple(i for i, k in enumerate(kinds) if k == "f")
    if not wrt or _reads_variables(t.fn, pos):
        return None
    budget = getattr(getattr(d, "_d", d), "_budget", None)     # memory_budget: checkpointed loops
    spec = _specialisation(t, pos)
    key = (len(pos), tuple(kinds), tuple(sorted(kw)), budget, spec)
    cache = _CACHE.setdefault(t, {})
    entry = cache.get(key, False)
    if entry is False:
        try:
            entry = _Entry(t, wrt, len(pos), budget, spec)
        except TranspileError:
            entry = None
        cache[key] = entry
    if entry is None:
        return None
    return _Bound(entry, pos, kw)


def _specialisation(t, pos):
    """The variant key of these positional arguments (``signature.specialisation`` of their
    values: each array's ndim and dtype kind), as a ``grad`` call on the same values gets.
    Empty when they do not bind one to one to named parameters (``*args``)."""
    params = list(t.signature.parameters.values())[:len(pos)]
    if len(params) < len(pos) or any(p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params):
        return ()
    return specialisation({p.name: (a._value if isinstance(a, _TensorBase) else a) for p, a in zip(params, pos)}, ())


class _Bound:
    """An entry with the call's arguments bound positionally."""

    __slots__ = ("entry", "pos", "kw")

    def __init__(self, entry, pos, kw):
        self.entry, self.pos, self.kw = entry, pos, kw

    def run(self, args, kwargs):
        return self.entry.run(self.pos, self.kw)


import weakref  # noqa: E402

_CACHE = weakref.WeakKeyDictionary()
"""_Transformer -> {argument structure: _Entry or None (None: run op by op)}."""

_BINDS_AS_IS = weakref.WeakKeyDictionary()
"""_Transformer -> numbers of positional arguments (no keywords) known to bind without error."""


# --- the recorded primitive ---------------------------------------------------------------

class _Call:
    """Per-call state, passed to the primitive as a keyword argument (the tape keeps it with
    the recorded op, so the VJPs of one op share it): the flat outputs, what the generated
    forward saved for its backward, and one memo."""

    __slots__ = ("outs", "single", "memo", "saved", "__weakref__")

    def __init__(self):
        self.outs = None
        self.single = True
        self.memo = None
        self.saved = None

    def __repr__(self):  # shown in rule error messages, keep it short
        return "<call>"


_KW = "_adjoin_call"


class _Entry:
    """One function + argument structure: its generated gradient and the Rules that record it."""

    def __init__(self, transformer, wrt, npos, memory_budget=None, spec=()):
        self.t = transformer
        self.wrt = wrt
        spec_wrt = wrt[0] if len(wrt) == 1 else wrt
        # the whole gradient (run on tensors when an outer tape records the sweep): the
        # general variant, as grad(grad(f)) differentiates; the pair: this call's variant
        gen = transformer.get(spec_wrt, False, memory_budget=memory_budget)
        self.gen = gen
        self.grad_fn = gen.function
        self.grad_op = None             # the gradient as a recorded op (higher orders), on first use
        self.seed_name = gen.seed_name
        self.connected = _connected(gen, len(wrt))
        name = getattr(transformer.fn, "__qualname__", "f")
        vjps = [None] * npos
        for k, i in enumerate(wrt):
            if self.connected[k]:
                vjps[i] = self._make_vjp(k)
        fn = transformer.fn
        self.pair = _split_pair(transformer, spec_wrt, memory_budget, spec)
        forward = self.pair.forward if self.pair is not None else None

        def impl(*vals, **kwargs):
            c = kwargs.pop(_KW)
            if forward is not None:  # the generated forward: numpy only, keeps what bwd reads
                out, c.saved = forward(*vals, **kwargs)
            else:
                out = fn(*vals, **kwargs)
            if type(out) in (tuple, list):
                c.single = False
                c.outs = [_as_array(o) for o in out]
                return _HUB
            return _as_array(out)

        def primitive(*args, **kwargs):  # the key under which the Rule is registered
            raise RuntimeError("internal: called only through runtime.tensor.apply")

        primitive.__qualname__ = primitive.__name__ = f"{name}[generated]"
        self.primitive = primitive
        self.rule = define(primitive, vjp=vjps, name=f"{name} (transpiled)", impl=impl)

    def _make_vjp(self, k):
        def vjp(g, ans, *args, **kwargs):
            return self._grads(g, args, kwargs)[k]
        return vjp

    def _grads(self, g, args, kwargs):
        """All wrt gradients for cotangent ``g``, computed once per (op, cotangent)."""
        c = kwargs[_KW]
        tapes = tuple(map(id, _state.tapes))
        memo = c.memo
        if memo is not None and memo[0] is g and memo[1] == tapes:
            return memo[2]
        kw = {k: v for k, v in kwargs.items() if k != _KW}
        seed = g
        if not c.single:
            parts = g.parts if isinstance(g, _Cotangent) else [g]
            seed = tuple(np.zeros(np.shape(o), dtype=o.dtype) if p is None else p
                         for p, o in zip(parts, c.outs))
        if c.saved is not None and not _state.tapes:
            # first order: the backward runs on the forward's saved arrays, no primal re-run
            res = self.pair.backward(c.saved, seed)
        else:
            # an outer tape records this sweep: the generated gradient is itself recorded as
            # one op (its VJP is the transpiler's second order, and so on for higher orders)
            kw[self.seed_name] = seed
            res = self._recorded_gradient(args, kw)
        if len(self.wrt) == 1:
            res = (res,)
        # each gradient in its input's dtype (a float32 input gets float32, see signature.py)
        res = tuple(cast_like(r, args[i]) if i < len(args) else r for r, i in zip(res, self.wrt))
        c.memo = (g, tapes, res)
        return res

    def _recorded_gradient(self, args, kw):
        """The generated gradient called on tensors through :func:`call`, i.e. recorded as one
        op whose own VJP the transpiler generates from the gradient's code.  Running that code
        op by op on tensors instead loses every value it computes with Python floats (``float(x)``,
        ``math.sin``) or Python containers: their second derivatives came out zero."""
        if self.grad_op is None:
            self.grad_op = _GeneratedGradient(self.grad_fn)
        try:
            bound = self.grad_op._t.signature.bind(*args, **kw)
        except TypeError:
            return self.grad_fn(*args, **kw)
        return call(self.grad_op, bound.args, bound.kwargs)

    def run(self, pos, kw):
        c = _Call()
        kwargs = {k: _values(v) for k, v in kw.items()}
        kwargs[_KW] = c
        out = apply(self.primitive, pos, kwargs)
        if c.single:
            return out
        hub = out
        n = len(c.outs)
        results = []
        for k in range(n):
            results.append(apply(_pick(n, k), (hub,), {_KW: c}))
        return tuple(results)


class _GeneratedGradient:
    """What :func:`call` needs of a Differentiable, for a generated gradient function."""

    __slots__ = ("_fn", "_t")

    def __init__(self, fn):
        self._fn = fn
        self._t = transformer(fn)


def _split_pair(transformer, wrt, memory_budget=None, spec=()):
    """The generated forward/backward pair specialised on ``spec`` (the arguments' ndim and
    dtype kind, ``backend/shapes.py``), or None (not available, or not generated)."""
    try:
        from .modes import split  # noqa: F401  (the pair generator)
    except ImportError:
        return None
    try:
        if spec:
            return split.transform_split(transformer.fn, wrt, None, memory_budget, spec)
        return transformer.get(wrt, False, mode="split", memory_budget=memory_budget)
    except (TranspileError, Unresolved):
        return None


def _connected(gen, n):
    """Which wrt gradients the generated code actually computes (``np.zeros_like(x)``: not)."""
    import ast

    ret = gen.node.body[-1]
    if not isinstance(ret, ast.Return):
        return [True] * n
    elts = ret.value.elts if n > 1 and isinstance(ret.value, ast.Tuple) else [ret.value]
    if len(elts) != n:
        return [True] * n
    out = []
    for e in elts:
        zero = (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute)
                and e.func.attr == "zeros_like" and len(e.args) == 1
                and isinstance(e.args[0], ast.Name) and e.args[0].id in gen.wrt)
        out.append(not zero)
    return out


def _as_array(x):
    if isinstance(x, (np.ndarray, np.generic)):
        return x
    if isinstance(x, _TensorBase):
        return x._value
    if isinstance(x, float):
        return np.float64(x)
    arr = np.asarray(x)
    return arr[()] if arr.ndim == 0 else arr


# --- several outputs: a hub op plus one pick op per output --------------------------------

_HUB = np.float32(0.0)
_PICKS = {}


def _pick(n, k):
    """The primitive ``hub -> output k`` of an n-output call (its VJP routes g to slot k)."""
    key = (n, k)
    fn = _PICKS.get(key)
    if fn is None:
        def pick(hub, **kwargs):
            raise RuntimeError("internal: called only through runtime.tensor.apply")

        def impl(hub, **kwargs):
            return kwargs[_KW].outs[k]

        pick.__qualname__ = pick.__name__ = f"output_{k}_of_{n}"
        define(pick, vjp=(_slot_vjp(k, n),), name=f"transpiled output {k}", impl=impl)
        fn = _PICKS[key] = pick
    return fn


# --- variables read without being passed ---------------------------------------------------

def _reads_variables(fn, args):
    """Does ``fn`` (or a function it calls) read a Variable it is not given as a parameter?

    Looks at closure cells, the globals its code names, and the attributes its code names
    on argument objects (``self.w``, ``model.layer.kernel``), a few levels deep.
    """
    seen = set()
    raw = getattr(fn, "__func__", fn)
    names = _code_names(raw.__code__) if isinstance(raw, types.FunctionType) else None
    for a in args:
        if not isinstance(a, (_TensorBase, np.ndarray, np.generic, int, float, complex, str)):
            if _holds_variable(a, 3, seen, names):
                return True
    return _function_reads(fn, seen, 0)


def _function_reads(fn, seen, depth):
    if isinstance(fn, _SKIP_CALLEES):  # modules (numpy's __getattr__ is slow), classes, ufuncs
        return False
    fn = getattr(fn, "_fn", fn)  # a Differentiable callee
    fn = getattr(fn, "__func__", fn)
    if id(fn) in seen or depth > 4 or not isinstance(fn, types.FunctionType):
        return False
    seen.add(id(fn))
    names = _code_names(fn.__code__)
    for cell in fn.__closure__ or ():
        try:
            v = cell.cell_contents
        except ValueError:
            continue
        if _holds_variable(v, 3, seen, names) or _function_reads(v, seen, depth + 1):
            return True
    g = fn.__globals__
    for name in names:
        if name in g:
            v = g[name]
            if _holds_variable(v, 3, seen, names) or _function_reads(v, seen, depth + 1):
                return True
    return False


def _code_names(code):
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            names |= _code_names(c)
    return names


_SKIP_CALLEES = (types.ModuleType, type, types.BuiltinFunctionType, np.ufunc, np.ndarray, np.generic,
                 int, float, complex, str, bytes, bool, type(None))

_SKIP = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
         np.ndarray, np.generic, np.ufunc, str, bytes, int, float, complex, bool)


def _holds_variable(x, depth, seen, names):
    """A Variable in ``x``: itself, an item of a container, or an attribute the code names."""
    if type(x) is Variable:
        return True
    if depth <= 0 or isinstance(x, _SKIP) or isinstance(x, _TensorBase) or id(x) in seen:
        return False
    seen.add(id(x))
    t = type(x)
    if t in (list, tuple, set, frozenset):
        return any(_holds_variable(v, depth - 1, seen, names) for v in x)
    if t is dict:
        return any(_holds_variable(v, depth - 1, seen, names) for v in x.values())
    d = getattr(x, "__dict__", None)
    if isinstance(d, dict):
        return any(_holds_variable(v, depth - 1, seen, names) for k, v in d.items()
                   if names is None or k in names)
    return False
