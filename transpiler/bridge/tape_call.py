"""A ``@differentiate``d function called on runtime tensors: one recorded operation.

When any argument of a :class:`~transpiler.api.Differentiable` is a ``runtime`` Tensor or
Variable, the call goes through :func:`call`:

* **outside any tape** the function runs on the plain numpy values and its outputs come
  back wrapped as Tensors (numpy in, numpy out; tensors in, tensors out);
* **inside a recording tape** the call is recorded as *one* primitive with
  :func:`runtime.engine.tensor.apply` -- the same recording API every numpy primitive uses.  The
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

While a ``ForwardAccumulator`` records, :func:`_forward_call` gives it the outputs' tangent
from the transpiler's forward mode (recorded for any tape that records as well, through the
generated gradient: J v is the VJP of u -> J^T u), so forward mode, forward-over-reverse,
reverse-over-forward and forward-over-forward are exact for the same code the reverse op is.

Some calls run **op by op** instead: the original function is simply called on the
tensors, and numpy's protocols record each of its operations (correct in every case, just
without the speed-up).  That happens when

* the function reads a ``tf.Variable`` that is not an argument (a closure cell, a global,
  an attribute of ``self`` or of another argument object): the generated code cannot
  produce gradients for values it does not receive as parameters, and op-by-op recording
  watches such reads exactly as TF does;
* a floating-point tensor is passed in a keyword-only parameter or inside a list/tuple/dict;
* the transpiler cannot generate the gradient (``TranspileError``: e.g. the body calls a
  ``tf`` op that is not a numpy primitive under another name, see ``tf_calls.py``);
* the output is not one float array or a flat tuple/list of arrays.
"""

import numpy as np

from runtime.engine.custom_gradient import _Cotangent, _slot_vjp
from runtime.rules.registry import define
from runtime.engine.recording import _state
from runtime.engine.tensor import _TensorBase, apply

from ..core.errors import TranspileError, Unresolved
from ..analysis.signature import cast_like, specialisation
from ..core.callables import transformer
from .tensor_arguments import (as_array, contains_tensor, has_tensor, is_float_tensor, reads_variables, tensor,
                          values, wrap_out)

__all__ = ["call", "has_tensor"]


# --- entry point --------------------------------------------------------------------------

def call(d, args, kwargs):
    """Call Differentiable ``d`` (``args`` include ``self`` for methods) with tensor arguments."""
    fn = d._fn
    recorders = _state.tapes
    if not recorders:
        # no tape: nothing to record, run at numpy speed
        return wrap_out(fn(*[values(a) for a in args], **{k: values(v) for k, v in kwargs.items()}))
    if any(hasattr(rec, "_tangents") for rec in recorders):
        out = _forward_call(d, args, kwargs)
        if out is not _OP_BY_OP:
            return out
        return fn(*args, **kwargs)
    entry = _entry_for(d, args, kwargs)
    if entry is None:
        return fn(*args, **kwargs)
    return entry.run(args, kwargs)


def _bind(t, args, kwargs):
    """(positional arguments, keyword arguments, wrt positions), or None to run op by op:
    the float tensors must be positional, outside containers, and the function must not read
    a Variable it is not given."""
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
        if contains_tensor(v) and (not isinstance(v, _TensorBase) or is_float_tensor(v)):
            return None
    wrt = []
    for i, a in enumerate(pos):
        if isinstance(a, _TensorBase):
            if is_float_tensor(a):
                wrt.append(i)
        elif type(a) in (list, tuple, dict) and contains_tensor(a):
            return None
    if not wrt or reads_variables(t.fn, pos):
        return None
    return pos, kw, tuple(wrt)


def _entry_for(d, args, kwargs):
    """The cached recorded-op entry for this call's structure, or None to run op by op."""
    t = d._t
    bound = _bind(t, args, kwargs)
    if bound is None:
        return None
    pos, kw, wrt = bound
    kinds = tuple("f" if i in wrt else "c" for i in range(len(pos)))
    budget = getattr(getattr(d, "_d", d), "_budget", None)     # memory_budget: checkpointed loops
    spec = _specialisation(t, pos)
    key = (len(pos), kinds, tuple(sorted(kw)), budget, spec)
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


# --- forward mode: the generated JVP, its tangent handed to each accumulator ----------------

_OP_BY_OP = object()


def _forward_call(d, args, kwargs):
    """A call while a ForwardAccumulator records: the value comes from the other recorders'
    path (one recorded op on a tape, or plain numpy), and each accumulator gets the tangent of
    the outputs from the transpiler's forward mode.  When tapes record too, that tangent is
    computed as a recorded op of its own (reverse over forward), and with several accumulators
    each one's tangent is computed while the others record it (forward over forward)."""
    t = d._t
    bound = _bind(t, args, kwargs)
    if bound is None:
        return _OP_BY_OP
    pos, kw, wrt = bound
    accumulators = [r for r in _state.tapes if hasattr(r, "_tangents")]
    seeded = [(acc, [acc._tangents.get(id(pos[i])) for i in wrt]) for acc in accumulators]
    seeded = [(acc, ts) for acc, ts in seeded if any(e is not None and e[0] is pos[i] for e, i in zip(ts, wrt))]
    try:
        forward = t.get(wrt[0] if len(wrt) == 1 else wrt, False, mode="forward")
    except (TranspileError, Unresolved):
        return _OP_BY_OP
    with _without(accumulators):
        out = call(d, pos, kw)              # the value, as the tapes (if any) record it
    outs = out if type(out) in (tuple, list) else (out,)
    for acc, entries in seeded:
        seeds = [_tangent_of(e, pos[i]) for e, i in zip(entries, wrt)]
        with _without([acc]):
            if _state.tapes and type(out) not in (tuple, list):
                tangent = _recorded_jvp(t, wrt, pos, kw, out, seeds)
            else:   # numbers only (a tape recording too sees no path through a tuple's tangents)
                named = dict(zip(forward.seed_name, values(seeds)))
                tangent = forward.function(*[values(a) for a in pos], **values(kw), **named)[1]
        tangents = tangent if type(out) in (tuple, list) else (tangent,)
        for o, tg in zip(outs, tangents):
            if isinstance(o, _TensorBase):
                tg = cast_like(tg, o._value)
                acc._tangents[id(o)] = (o, tg if isinstance(tg, _TensorBase) else tensor(as_array(tg)))
    return out


def _recorded_jvp(t, wrt, pos, kw, out, seeds):
    """J v as ops the other recorders can differentiate: the VJP u -> J^T u is linear in u, so
    J v is its own VJP at any u with cotangent v (the double-backward trick).  J^T u is the
    generated gradient recorded as one op, whose derivatives the transpiler generates too."""
    from runtime.engine.tape import GradientTape

    gen = t.get(wrt[0] if len(wrt) == 1 else wrt, False)
    u = tensor(np.zeros(np.shape(out._value), dtype=out._value.dtype))
    with GradientTape() as tape:
        tape.watch(u)
        pulled = _call_generated(gen.function, pos, {**kw, gen.seed_name: u})
    pulled = pulled if len(wrt) > 1 else (pulled,)
    return tape.gradient(list(pulled), u, output_gradients=list(seeds))


def _tangent_of(entry, primal):
    if entry is not None and entry[0] is primal:
        return entry[1]
    return tensor(np.zeros(np.shape(primal._value), dtype=primal._value.dtype))


class _without:
    """Take ``recorders`` off the recording stack for the duration of a block."""

    def __init__(self, recorders):
        self.recorders = recorders

    def __enter__(self):
        tapes = _state.tapes
        self.saved = list(tapes)
        tapes[:] = [r for r in tapes if not any(r is x for x in self.recorders)]

    def __exit__(self, *exc):
        _state.tapes[:] = self.saved
        return False


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
                c.outs = [as_array(o) for o in out]
                return _HUB
            return as_array(out)

        def primitive(*args, **kwargs):  # the key under which the Rule is registered
            raise RuntimeError("internal: called only through runtime.engine.tensor.apply")

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
        return _call_generated(self.grad_fn, args, kw)

    def run(self, pos, kw):
        c = _Call()
        kwargs = {k: values(v) for k, v in kw.items()}
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


def _call_generated(fn, args, kw):
    """Generated code ``fn`` called on tensors through :func:`call`, every argument bound
    positionally where it can be (float tensors passed by keyword would run op by op)."""
    op = _GeneratedGradient(fn)
    try:
        bound = op._t.signature.bind(*args, **kw)
    except TypeError:
        return fn(*args, **kw)
    return call(op, bound.args, bound.kwargs)


def _split_pair(transformer, wrt, memory_budget=None, spec=()):
    """The generated forward/backward pair specialised on ``spec`` (the arguments' ndim and
    dtype kind, ``backend/shapes.py``), or None (not available, or not generated)."""
    try:
        from ..modes import split  # noqa: F401  (the pair generator)
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


# --- several outputs: a hub op plus one pick op per output --------------------------------

_HUB = np.float32(0.0)
_PICKS = {}


def _pick(n, k):
    """The primitive ``hub -> output k`` of an n-output call (its VJP routes g to slot k)."""
    key = (n, k)
    fn = _PICKS.get(key)
    if fn is None:
        def pick(hub, **kwargs):
            raise RuntimeError("internal: called only through runtime.engine.tensor.apply")

        def impl(hub, **kwargs):
            return kwargs[_KW].outs[k]

        pick.__qualname__ = pick.__name__ = f"output_{k}_of_{n}"
        define(pick, vjp=(_slot_vjp(k, n),), name=f"transpiled output {k}", impl=impl)
        fn = _PICKS[key] = pick
    return fn
