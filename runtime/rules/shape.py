"""Rules for shape manipulation, indexing, gathering and casting (products are in ``products``).

Sequence arguments (``np.concatenate(arrays)``, ``np.stack(arrays)``): the VJP rule for the
sequence returns a tuple with one gradient per element; the JVP rule receives a sequence of
tangents, one per element (zeros for the elements that are constants).
"""

import operator

import numpy as np

from .forms import reshaping, symmetric
from .registry import define, primitive
from .support import (
    axis_index,
    inverse_permutation,
    is_floating,
    memory_order,
    numpy_dtype,
    dtype_of,
    scatter_add,
    shape_of,
    split_like,
    unbroadcast,
    unstack,
)


# --- reshaping (the adjoint reshapes back) -----------------------------------------------

# order="F" reads and writes the elements column by column: the adjoint reshapes back in the
# same order ("A" and "K" name the array's own layout, read by ``memory_order``).
def reshape_vjp(g, ans, a, shape=None, order="C", newshape=None, copy=None):
    if order == "C":
        return np.reshape(g, shape_of(a))
    return np.reshape(g, shape_of(a), order=memory_order(order, a))


def reshape_jvp(t, ans, a, shape=None, order="C", newshape=None, copy=None):
    if order == "C":
        return np.reshape(t, shape_of(ans))
    return np.reshape(t, shape_of(ans), order=memory_order(order, a))


define(np.reshape, vjp=(reshape_vjp,), jvp=(reshape_jvp,))


def ravel_vjp(g, ans, a, order="C"):
    if order == "C":
        return np.reshape(g, shape_of(a))
    return np.reshape(g, shape_of(a), order=memory_order(order, a))


def ravel_jvp(t, ans, a, order="C"):
    if order == "C":
        return np.ravel(t)
    return np.ravel(t, order=memory_order(order, a))


define(np.ravel, vjp=(ravel_vjp,), jvp=(ravel_jvp,))
reshaping(np.expand_dims, "a, axis")
reshaping(np.squeeze, "a, axis=None")


# --- permuting axes ---------------------------------------------------------------------

def transpose_vjp(g, ans, a, axes=None):
    if axes is None:
        return np.transpose(g)
    return np.transpose(g, inverse_permutation(axes, np.ndim(a)))


def transpose_jvp(t, ans, a, axes=None):
    return np.transpose(t, axes)


define(np.transpose, vjp=(transpose_vjp,), jvp=(transpose_jvp,))


@symmetric(np.swapaxes)
def swapaxes_vjp(g, ans, a, axis1, axis2):
    return np.swapaxes(g, axis1, axis2)


def moveaxis_vjp(g, ans, a, source, destination):
    return np.moveaxis(g, destination, source)


def moveaxis_jvp(t, ans, a, source, destination):
    return np.moveaxis(t, source, destination)


define(np.moveaxis, vjp=(moveaxis_vjp,), jvp=(moveaxis_jvp,))


@symmetric(np.flip)
def flip_vjp(g, ans, m, axis=None):
    return np.flip(g, axis)


# --- joining ----------------------------------------------------------------------------

def concatenate_vjp(g, ans, arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    return split_like(g, arrays, axis)


def concatenate_jvp(t, ans, arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    return np.concatenate(t, axis=axis)


define(np.concatenate, vjp=(concatenate_vjp,), jvp=(concatenate_jvp,))


def stack_vjp(g, ans, arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    return unstack(g, len(arrays), axis)


def stack_jvp(t, ans, arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    return np.stack(t, axis=axis)


define(np.stack, vjp=(stack_vjp,), jvp=(stack_jvp,))


# --- broadcasting -----------------------------------------------------------------------

def broadcast_to_vjp(g, ans, array, shape, subok=False):
    return unbroadcast(g, array)


def broadcast_to_jvp(t, ans, array, shape, subok=False):
    return np.broadcast_to(t, shape)


define(np.broadcast_to, vjp=(broadcast_to_vjp,), jvp=(broadcast_to_jvp,))


# --- indexing and gathering (repeated indices accumulate) --------------------------------

def getitem_vjp(g, ans, x, idx):
    return scatter_add(g, x, idx)


def getitem_jvp(t, ans, x, idx):
    return t[idx]


define(operator.getitem, vjp=(getitem_vjp, None), jvp=(getitem_jvp, None))


def take_vjp(g, ans, a, indices, axis=None, out=None, mode="raise"):
    if axis is None:
        return np.reshape(scatter_add(g, np.ravel(a), indices), shape_of(a))
    return scatter_add(g, a, axis_index(indices, axis, np.ndim(a)))


def take_jvp(t, ans, a, indices, axis=None, out=None, mode="raise"):
    return np.take(t, indices, axis=axis)


define(np.take, vjp=(take_vjp, None), jvp=(take_jvp, None))


# --- casting ----------------------------------------------------------------------------

@primitive
def cast(x, dtype):
    """``x`` converted to ``dtype`` (numpy dtype, name or TF-style DType); floats to ints truncate."""
    return np.asarray(x).astype(numpy_dtype(dtype))


# The gradient is cast back to x's dtype; no gradient flows through a cast from or to a
# non-floating dtype (TF gives None there).
def cast_vjp(g, ans, x, dtype):
    if is_floating(x) and is_floating(ans):
        if np.iscomplexobj(g) and not np.iscomplexobj(x):
            g = np.real(g)          # a real x's cotangent is the real part (no ComplexWarning)
        return cast(g, dtype_of(x))
    return None


def cast_jvp(t, ans, x, dtype):
    if is_floating(x) and is_floating(ans):
        return cast(t, dtype_of(ans))
    return None


define(cast, vjp=(cast_vjp, None), jvp=(cast_jvp, None))
