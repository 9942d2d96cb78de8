"""Rewrites of numpy calls on tensors that the tape cannot record as they are: ``np.split`` and
its family become slices, ``np.einsum``'s sublist form its subscripts string, ``np.atleast_1d(a, b)``
one call per array, ``np.where(c)`` ``np.nonzero(c)``, ``np.frexp`` an ``np.ldexp``, ``np.full(shape, t, like=t)`` a broadcast of
``t``; ``np.copyto`` of a recorded tensor is refused.  ``protocol`` looks calls up in ``REWRITES``
and ``UFUNC_REWRITES``.
"""

import inspect

import numpy as np

from ..rules.registry import TENSOR_TYPES as _TENSOR_TYPES
from ..rules.support import einsum_subscripts
from .conversion import _unwrap
from .recording import _state, contains_tracked

CONVERSION_ADVICE = (
    "Build arrays from tensors with np.stack([...]) or tf.stack (np.full(shape, t) as "
    "np.full(shape, t, like=t) or t * np.ones(shape)), pass a tensor itself to the numpy function "
    "(numpy hands a call to the tape only when a tensor is one of its direct arguments), or take "
    "its value deliberately with t.numpy() (no gradient) or inside `with tape.stop_recording():`.")


def _refuse_copyto(args, kwargs):
    """np.copyto (what np.full(shape, t, dtype=...) and np.full_like call) writes into an ndarray."""
    if _state.tapes and contains_tracked(list(args) + list(kwargs.values())):
        raise TypeError("np.copyto (or np.full / np.full_like with a tensor fill value) writes a tensor "
                        "that a GradientTape is recording into a plain numpy array, which would silently "
                        "drop its gradient. " + CONVERSION_ADVICE)
    return np.copyto(*[_unwrap(a) for a in args], **{k: _unwrap(v) for k, v in kwargs.items()})


def _split_pieces(ary, sections, axis):
    """The pieces of np.split / np.array_split as slices of ``ary`` (numpy's own boundaries)."""
    n = ary.shape[axis]
    if isinstance(sections, (int, np.integer)):
        parts = np.array_split(np.arange(n), sections)
        bounds = [(int(p[0]), int(p[-1]) + 1) if len(p) else (n, n) for p in parts]
    else:
        edges = [0] + [int(i) for i in sections] + [n]
        bounds = list(zip(edges[:-1], edges[1:]))
    lead = (slice(None),) * (axis % ary.ndim)
    return [ary[lead + (slice(a, b),)] for a, b in bounds]


def _split(func, axis_of):
    def run(args, kwargs):
        bound = inspect.signature(func).bind(*args, **kwargs)
        bound.apply_defaults()
        a = bound.arguments
        ary = a["ary"]
        axis = axis_of(ary, a.get("axis", 0))
        sections = a["indices_or_sections"]
        if func is np.split and isinstance(sections, (int, np.integer)) and ary.shape[axis] % sections:
            raise ValueError("array split does not result in an equal division")
        return _split_pieces(ary, sections, axis)
    return run


def _einsum(args, kwargs):
    converted = einsum_subscripts(args)
    if converted is None:
        return NotImplemented
    subscripts, operands = converted
    return np.einsum(subscripts, *operands, **kwargs)


def _atleast(func):
    def run(args, kwargs):
        if len(args) == 1:
            return NotImplemented
        return tuple(func(a) for a in args)
    return run


def _unstack(args, kwargs):
    bound = inspect.signature(np.unstack).bind(*args, **kwargs)
    bound.apply_defaults()
    x, axis = bound.arguments["x"], bound.arguments["axis"]
    lead = (slice(None),) * (axis % x.ndim)
    return tuple(x[lead + (i,)] for i in range(x.shape[axis]))


def _full(args, kwargs):
    """``np.full(shape, fill, dtype, like=tensor)``: the fill value broadcast (recorded when a tensor)."""
    bound = inspect.signature(np.full).bind(*args, **kwargs)
    a = bound.arguments
    fill, dtype = a["fill_value"], a.get("dtype")
    if type(fill) not in _TENSOR_TYPES:
        return np.full(a["shape"], fill, dtype)
    ones = np.ones(a["shape"], dtype=dtype if dtype is not None else _unwrap(fill).dtype)
    return fill * ones


def _where(args, kwargs):
    if len(args) + len(kwargs) != 1:
        return NotImplemented
    return np.nonzero(*args, **kwargs)


REWRITES = {
    np.split: _split(np.split, lambda ary, axis: axis),
    np.array_split: _split(np.array_split, lambda ary, axis: axis),
    np.hsplit: _split(np.hsplit, lambda ary, axis: 0 if ary.ndim == 1 else 1),
    np.vsplit: _split(np.vsplit, lambda ary, axis: 0),
    np.dsplit: _split(np.dsplit, lambda ary, axis: 2),
    np.einsum: _einsum,
    np.atleast_1d: _atleast(np.atleast_1d),
    np.atleast_2d: _atleast(np.atleast_2d),
    np.atleast_3d: _atleast(np.atleast_3d),
    np.where: _where,
    np.full: _full,
    np.copyto: _refuse_copyto,
}
if hasattr(np, "unstack"):
    REWRITES[np.unstack] = _unstack

def _frexp(x):
    """np.frexp on a tensor: the mantissa is x scaled by 2**-e, e (an integer) read off its value."""
    exponent = np.frexp(_unwrap(x))[1]
    return np.ldexp(x, -exponent), np.zeros_like(x, dtype=exponent.dtype) + exponent


# ufuncs with two results: each result recorded on its own
UFUNC_REWRITES = {
    np.modf: lambda x: (np.subtract(x, np.trunc(x)), np.trunc(x)),
    np.divmod: lambda x, y: (np.floor_divide(x, y), np.mod(x, y)),
    np.frexp: _frexp,
}

