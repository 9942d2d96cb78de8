"""The arrays inside an ODE's ``args`` (nested tuples and lists), as one flat vector and back: the
adjoint integrates the parameters' gradient as part of its state."""

import numpy as np

from ..registry import TENSOR_TYPES
from ..support import dtype_of, shape_of


def items(x):
    """The leaves of ``x`` (tuples and lists opened), in order."""
    if type(x) in (tuple, list):
        return [leaf for item in x for leaf in items(item)]
    return [x]


def differentiable(leaf):
    """A float (or complex) array, tensor or number: something a gradient can reach."""
    if isinstance(leaf, bool):
        return False
    if isinstance(leaf, (float, complex)) or type(leaf) in TENSOR_TYPES or isinstance(leaf, (np.ndarray, np.generic)):
        try:
            return dtype_of(leaf).kind in "fc"
        except TypeError:
            return False
    return False


def size_of(args):
    return sum(int(np.prod(shape_of(leaf))) for leaf in items(args) if differentiable(leaf))


def flatten(grads, args):
    """The gradients of ``args``' differentiable leaves (``grads`` shaped like ``args``; None: zero)
    as one vector."""
    parts = []
    for g, leaf in zip(items_like(grads, args), items(args)):
        if differentiable(leaf):
            parts.append(np.zeros(int(np.prod(shape_of(leaf)))) if g is None else np.ravel(g))
    return np.concatenate(parts) if parts else np.zeros(0)


def items_like(grads, args):
    """The leaves of ``grads`` laid out as ``args``'s (None where ``grads`` holds nothing)."""
    if type(args) in (tuple, list):
        if grads is None:
            grads = [None] * len(args)
        return [g for gi, a in zip(grads, args) for g in items_like(gi, a)]
    return [grads]


def unflatten(vector, args):
    """``vector`` (as ``flatten`` lays it out) shaped like ``args``: each differentiable leaf's part in
    its shape, zeros for other numbers, None for anything else."""
    offset = [0]

    def build(a):
        if type(a) in (tuple, list):
            return type(a)(build(item) for item in a)
        if differentiable(a):
            n = int(np.prod(shape_of(a)))
            part = np.reshape(vector[offset[0]:offset[0] + n], shape_of(a))
            offset[0] += n
            return part
        if isinstance(a, (int, np.integer, np.ndarray)) and not isinstance(a, bool):
            return np.zeros(shape_of(a))
        return None
    return build(args)


def tangent_leaves(tangents, args):
    """``tangents`` of ``args`` (shaped like them; None: zero) with zeros filled in where a
    differentiable leaf has None, so a JVP sees a full tangent."""
    def build(t, a):
        if type(a) in (tuple, list):
            ts = [None] * len(a) if t is None else list(t)
            return type(a)(build(ti, ai) for ti, ai in zip(ts, a))
        if differentiable(a):
            return np.zeros(shape_of(a), dtype=dtype_of(a)) if t is None else t
        return None
    return build(tangents, args)
