"""Numpy-level helpers that derivative rules call.

Each is either a composition of registered primitives or a primitive itself, so a rule that
uses them stays differentiable (higher-order derivatives run the rules on tensors).  The
transpiler copies the ``.raw`` source of the ones a generated module uses into standalone
output, so they must depend on numpy alone.
"""

import numpy as np

from .registry import define, nondifferentiable, primitive


def shape_of(x):
    """Shape of an array, tensor, Python number or nested list (tuples compare equal)."""
    s = getattr(x, "shape", None)
    return np.shape(x) if s is None else tuple(s)


_float64, _ndarray = np.float64, np.ndarray


def unbroadcast(g, x):
    """Sum ``g`` over the axes along which ``x`` was broadcast, so the result has x's shape.

    A real ``x`` gets the real part of a complex ``g`` (see ``complexes``: real parameters
    get real gradients).
    """
    gc = g.__class__
    if gc is _ndarray and g.dtype.kind != "c":   # the tape's hot path: real arrays
        xshape = getattr(x, "shape", None)
        if g.shape == xshape or (x.__class__ is float and not g.shape):     # (a 0-d seed onto a Python float)
            return g
        if x.__class__ is _ndarray and x.dtype.kind != "O":
            return _sum_to(g, g.shape, xshape)
    elif gc is _float64 or gc is float:
        xc = x.__class__
        if xc is _float64 or xc is float:
            return g                 # a loop's real scalars (hvp through indexed reads): nothing to sum
    if _complex_onto_real(g, x):
        g = np.real(g)
    gshape = getattr(g, "shape", None)
    if gshape is not None and gshape == getattr(x, "shape", None):
        return g
    if _adds_by_slot(x):
        return g        # x is itself a container's cotangent (code differentiated again)
    if isinstance(g, Grads) and isinstance(x, (list, tuple, dict)) and \
            (isinstance(x, dict) or g.length is None or g.length == len(x)):
        return g        # g is the cotangent of the container x itself (a slot holding x)
    if _read_as_array(g, x):
        return g        # numpy read the list x as an array (np.sin(x) * x)
    # a cotangent of a longer container: x was concatenated (`lst + [v]`), refused below
    if isinstance(g, (dict, list, tuple)) or isinstance(x, (dict, list, tuple)):
        raise TypeError(CONTAINER_ARITHMETIC)   # `lst + [v]`, `t * 2` on a Python list or tuple
    gshape = shape_of(g)
    xshape = shape_of(x)
    if gshape == xshape:
        return g
    return _sum_to(g, gshape, xshape)


def _sum_to(g, gshape, xshape):
    """``g`` (of shape ``gshape``) summed over the axes broadcasting added or stretched to reach it."""
    lead = len(gshape) - len(xshape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(xshape) if n == 1 and gshape[i + lead] != 1
    )
    if axes:
        g = np.sum(g, axis=axes)
    return np.reshape(g, xshape)


def _read_as_array(g, x):
    """Is ``g`` a numeric array of exactly the shape numpy reads the list or tuple ``x`` as?
    Then ``x`` met an array in a numpy operation, which read it as an array; a concatenation
    or repetition that kept the shape (``l + []``, ``l * 1``) has the same cotangent."""
    if not (isinstance(x, (list, tuple)) and type(g) is np.ndarray and g.dtype.kind in "fc"):
        return False
    try:
        return np.shape(x) == g.shape
    except ValueError:           # a ragged list: no array shape
        return False


def _complex_onto_real(g, x):
    """True when cotangent ``g`` is complex and ``x`` is real (cheap for real numpy arrays)."""
    dt = getattr(g, "dtype", None)
    if dt is None:
        return isinstance(g, complex) and not _is_complex(x)
    if getattr(dt, "kind", "c") != "c":
        return False
    return _is_complex(g) and not _is_complex(x)


def _is_complex(v):
    dt = getattr(v, "dtype", None)
    if dt is None:
        return isinstance(v, complex)
    return np.dtype(getattr(dt, "as_numpy_dtype", dt)).kind == "c"


def broadcast_like(t, ans):
    """Broadcast a tangent ``t`` to the shape of ``ans`` (for JVPs of broadcasting ops)."""
    tc, ac = t.__class__, ans.__class__
    if (tc is _float64 or tc is float) and (ac is _float64 or ac is float):
        return t
    if _adds_by_slot(ans):
        return t        # (see unbroadcast)
    if isinstance(t, (dict, list, tuple)) or isinstance(ans, (dict, list, tuple)):
        raise TypeError(CONTAINER_ARITHMETIC)
    ashape = shape_of(ans)
    if shape_of(t) == ashape:
        return t
    return np.broadcast_to(t, ashape)


def memory_order(order, a):
    """``order`` of np.reshape / np.ravel as "C" or "F": "A" and "K" read ``a``'s layout (the
    derivative refuses a layout that is neither, where "K" would follow the strides)."""
    if order in ("C", "F", None):
        return order or "C"
    flags = np.asarray(value_of(a)).flags
    if flags.f_contiguous and not flags.c_contiguous:
        return "F"
    if order == "A" or flags.c_contiguous:
        return "C"
    raise NotImplementedError(f"order={order!r} of an array that is neither C- nor Fortran-contiguous has no "
                              f"derivative rule in adjoin; pass order='C' or order='F'")


def normalize_axes(axis, ndim):
    """``axis`` (None, int or tuple, possibly negative) as a sorted tuple of non-negative ints."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        return tuple(sorted(a % ndim for a in axis))
    return (axis % ndim,)


def expand_reduced(g, x, axis=None, keepdims=False):
    """Undo a reduction's shape change: broadcast ``g`` (shaped like the reduction) to x's shape."""
    xshape = shape_of(x)
    if type(g) in (float, int, complex) and isinstance(getattr(x, "dtype", None), np.dtype):
        g = np.asarray(g, dtype=np.result_type(g, x))   # a Python-number seed: x's float32 stays float32
    if not keepdims and axis is not None:
        g = np.reshape(g, keepdims_shape(xshape, axis))
    return np.broadcast_to(g, xshape)


def keepdims_shape(xshape, axis):
    """The shape a reduction over ``axis`` has with keepdims=True."""
    axes = normalize_axes(axis, len(xshape))
    return tuple(1 if i in axes else n for i, n in enumerate(xshape))


def is_basic_index(idx):
    """True when ``idx`` selects by ints, slices, None and Ellipsis only (no repeated elements)."""
    items = idx if isinstance(idx, tuple) else (idx,)
    for it in items:
        if not (it is None or it is Ellipsis or isinstance(it, (int, np.integer, slice))):
            return False
    return True


@primitive
def scatter_add(g, x, idx):
    """A zero array shaped like ``x`` with ``g`` added at ``x[idx]`` (the adjoint of indexing)."""
    if _is_array_items(x) and isinstance(idx, (int, np.integer)):
        # an item of a tuple of arrays (e.g. split_like / unstack in generated gradients) or of
        # such a tuple's cotangent (an item_array, when this code is differentiated again): dense
        out = item_array([np.zeros(shape_of(a)) for a in x])
        out[idx] = g
        return out
    if isinstance(x, (list, tuple, dict)):       # a Python container: a sparse cotangent
        return scatter_into_container(g, x, idx)
    dtype = getattr(g, "dtype", None)
    if dtype is None:       # a Python number or a tuple: x's floating dtype (float32 stays float32)
        xdtype = getattr(x, "dtype", None)
        if isinstance(xdtype, np.dtype) and xdtype.kind in "fc":
            dtype = np.result_type(g, xdtype) if type(g) in (float, int, complex) else xdtype
        else:
            dtype = np.result_type(float)
    out = np.zeros(shape_of(x), dtype=dtype)
    if is_basic_index(idx):
        out[idx] = g
    else:
        np.add.at(out, idx, g)
    return out


def _adds_by_slot(x):
    """A cotangent of a container (a sparse Grads or a dense item_array): ``+`` adds it slot
    by slot, where on a Python list or tuple it would concatenate."""
    return isinstance(x, Grads) or isinstance(x, np.ndarray) and x.dtype == object and x.ndim == 1


def _is_array_items(x):
    """A tuple of arrays, or an item_array: its cotangent is an item_array."""
    if isinstance(x, np.ndarray):
        return x.dtype == object and x.ndim == 1
    return isinstance(x, tuple) and all(isinstance(a, np.ndarray) for a in x)


def scatter_add_vjp(g, ans, gin, x, idx):
    return g[slot_of(x, idx)]


def slot_of(x, idx):
    """The slot ``scatter_add(g, x, idx)`` fills: a negative index of a list or tuple counted from
    the end of ``x`` itself, not from the end of a cotangent read at it (that of a list grown
    after the read is longer: ``l = a + b; l.append(v); l[-1]`` differentiated twice)."""
    if not isinstance(x, (list, tuple)):
        return idx
    if isinstance(idx, (int, np.integer)) and not isinstance(idx, bool) and idx < 0:
        return int(idx) + len(x)
    if isinstance(idx, slice):
        raise NotImplementedError("second derivatives through a slice of a list that adjoin did not see "
                                  "made (an argument's `l[1:]`) are not supported; pass the slice, or "
                                  "make the list in the function that slices it")
    return idx


nondifferentiable(slot_of)


def scatter_add_jvp(t, ans, gin, x, idx):
    return scatter_add(t, x, idx)


define(scatter_add, vjp=(scatter_add_vjp, None, None), jvp=(scatter_add_jvp, None, None))


# --- static helpers for reductions and shape rules ----------------------------------------
# These compute shapes, counts and index tuples from static information (shapes, axes); the
# few that touch an array do so through registered primitives (indexing) only.


def reduced_size(xshape, axis):
    """How many elements of an array shaped ``xshape`` a reduction over ``axis`` combines."""
    n = 1
    for a in normalize_axes(axis, len(xshape)):
        n *= xshape[a]
    return n


nondifferentiable(memory_order)


def value_of(x):
    """The numpy value of an array or tensor, read without recording (for checks and indices only)."""
    read = getattr(x, "numpy", None)
    return np.asarray(read() if read is not None else x)


def inverse_permutation(axes, ndim):
    """The ``axes`` argument that undoes ``np.transpose(x, axes)`` (negative axes allowed)."""
    axes = [a % ndim for a in axes]
    inverse = [0] * ndim
    for i, a in enumerate(axes):
        inverse[a] = i
    return tuple(inverse)


def axis_index(indices, axis, ndim):
    """The index tuple that selects ``indices`` along ``axis``: ``x[axis_index(i, ax, x.ndim)]``
    equals ``np.take(x, i, axis=ax)``."""
    return (slice(None),) * (axis % ndim) + (indices,)


def split_like(g, arrays, axis):
    """Cut ``g`` into pieces shaped like ``arrays`` along ``axis`` (the adjoint of concatenate).

    With ``axis=None`` (concatenate of flattened arrays) each piece is reshaped like its array.
    """
    pieces = []
    start = 0
    for a in arrays:
        s = shape_of(a)
        if axis is None:
            n = 1
            for d in s:
                n *= d
            pieces.append(np.reshape(g[start:start + n], s))
        else:
            n = s[axis]
            ax = axis % len(s)
            pieces.append(g[(slice(None),) * ax + (slice(start, start + n),)])
        start += n
    return tuple(pieces)


def item_array(items):
    """``items`` in a 1-d object array: the cotangent of a tuple-valued result.  It adds item
    by item (a tuple would concatenate) and its items may differ in shape."""
    out = np.empty(len(items), dtype=object)
    for i, item in enumerate(items):
        out[i] = item
    return out


def items_like(h, likes):
    """The cotangent ``h`` of a tuple (an item_array, tuple, sparse Grads or zero) as a list
    with one array per item of ``likes``: zeros where h holds nothing."""
    parts = dict(_slots(h))
    return [parts[i] if i in parts else np.zeros(shape_of(a)) for i, a in enumerate(likes)]


def unstack(g, n, axis):
    """The ``n`` slices of ``g`` along ``axis``, as a tuple (the adjoint of stack)."""
    ax = axis % np.ndim(g)
    return tuple(g[(slice(None),) * ax + (i,)] for i in range(n))


def numpy_dtype(dtype):
    """A numpy dtype from a numpy dtype, type, name or a TF-style DType (``.as_numpy_dtype``)."""
    return np.dtype(getattr(dtype, "as_numpy_dtype", dtype))


def dtype_of(x):
    """The numpy dtype of an array, tensor or Python number."""
    dt = getattr(x, "dtype", None)
    if dt is None:
        return np.result_type(x)
    return numpy_dtype(dt)


def is_floating(x):
    """True when ``x`` holds floating-point (or complex) values: the dtypes gradients flow through."""
    return np.issubdtype(dtype_of(x), np.inexact)


# --- cotangents of Python containers (lists, tuples, dicts; see containers.py) ------------------

CONTAINER_ARITHMETIC = (
    "`+` or `*` on lists or tuples (concatenation, repetition) cannot be differentiated; build lists "
    "with .append(v) and arrays with np.concatenate / np.stack")


class Grads(dict):
    """Cotangent of a list, tuple or dict: slot -> cotangent; a missing slot is zero.

    ``a + b`` adds slot by slot; the other operand may be another Grads, a dense list,
    tuple or dict of cotangents, a zero (number or all-zero array from ``np.zeros_like``)
    or a dense array whose rows are the slots of a list.
    """

    __array_ufunc__ = None          # ndarray + Grads defers to Grads.__radd__
    length = None                   # of the list or tuple it stands for: g[-1] reads its last slot

    def __add__(self, other):
        out = self.copy()
        out.length = out.length or _length(other)
        for key, value in _slots(other):
            out[key] = out[key] + value if key in out else value
        return out

    __radd__ = __add__

    def copy(self):
        out = Grads(self)
        out.length = self.length
        return out

    def __missing__(self, key):
        if isinstance(key, (int, np.integer)) and key < 0 and self.length:
            return self[int(key) + self.length]
        return 0.0

    def _refuse(self, *other):
        raise TypeError(CONTAINER_ARITHMETIC)

    __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = __neg__ = __pow__ = _refuse

    def __repr__(self):
        return f"Grads({dict.__repr__(self)})"


def _length(value):
    """The length of the list or tuple whose cotangent ``value`` is, if it is known."""
    if isinstance(value, Grads):
        return value.length
    if isinstance(value, (list, tuple)) or isinstance(value, np.ndarray) and value.dtype == object \
            and value.ndim == 1:
        return len(value)
    return None


def _slots(value):
    """(slot, cotangent) pairs of a derivative of a container in any representation."""
    if value is None or isinstance(value, (int, float)) and value == 0:
        return ()
    if isinstance(value, dict):
        return value.items()
    if isinstance(value, (list, tuple)):
        return enumerate(value)
    if isinstance(value, np.ndarray) and value.dtype == object and value.ndim == 1:
        return enumerate(value)     # an item_array: the dense cotangent of a tuple of arrays
    array = np.asarray(value)
    if array.dtype == object or not np.any(array):
        return ()                   # a zero: np.zeros_like of a list or dict
    return enumerate(array)


def _container_slot(x, idx):
    """The Grads key for ``x[idx]``: lists count from the front."""
    if isinstance(x, (list, tuple)):
        if not isinstance(idx, (int, np.integer)):
            raise NotImplementedError("the derivative of a slice of a Python list is not supported; "
                                      "index single elements, or np.stack the list into an array first")
        return int(idx) % len(x)
    if isinstance(x, Grads) and x.length and isinstance(idx, (int, np.integer)):
        return int(idx) % x.length          # the cotangent of a list, indexed like the list
    return idx


def scatter_into_container(g, x, idx):
    """``scatter_add`` for a list, tuple or dict ``x``: a Grads with ``g`` at slot ``idx`` (for a
    slice, ``g``'s slots at the positions the slice took: ``l[1:]`` of a list passed in)."""
    if isinstance(x, (list, tuple)) and isinstance(idx, slice):
        return take_part(g, x, idx.start, idx.stop, idx.step)
    out = Grads({_container_slot(x, idx): g})
    out.length = _length(x)
    return out


# `l[i:j:k]` of a list or tuple is containers.take; the cotangent of l is made here, next to
# scatter_add, which it is for an array (and which calls it for a list's slice).

def _positions(x, start, stop, step):
    return range(len(x))[start:stop:step]


@primitive
def take_part(g, x, start, stop, step):
    """The cotangent of ``x`` in ``x[start:stop:step]`` from the slice's cotangent ``g``."""
    if not isinstance(x, (list, tuple)):
        return scatter_add(g, x, slice(start, stop, step))
    positions = _positions(x, start, stop, step)
    out = Grads()
    out.length = len(x)
    for key, value in _slots(g):
        out[positions[int(key)]] = value        # (slice positions are distinct)
    return out


def take_part_vjp_g(h, ans, g, x, start, stop, step):
    if not isinstance(x, (list, tuple)):
        return h[start:stop:step]
    parts = dict(_slots(h))
    out = Grads({j: parts[p] for j, p in enumerate(_positions(x, start, stop, step)) if p in parts})
    out.length = len(_positions(x, start, stop, step))
    return out


def take_part_jvp_g(t, ans, g, x, start, stop, step):
    return take_part(t, x, start, stop, step)


define(take_part, vjp=(take_part_vjp_g, None, None, None, None), jvp=(take_part_jvp_g, None, None, None, None))


# --- einsum's sublist form ----------------------------------------------------------------------

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def einsum_subscripts(args):
    """``np.einsum(x, [0, 1], y, [1, 2], [0, 2])`` (the sublist form) as ``("ab,bc->ac", [x, y])``.

    Returns None when ``args`` is already the string form.
    """
    if not args or isinstance(args[0], str):
        return None

    def letters(sub):
        return "".join("..." if s is Ellipsis else _LETTERS[int(s)] for s in sub)

    pairs = list(args)
    out = letters(pairs.pop()) if len(pairs) % 2 else None
    operands, subs = pairs[0::2], [letters(s) for s in pairs[1::2]]
    return ",".join(subs) + ("" if out is None else "->" + out), operands


def sublist_subscripts(sublists, output=None):
    """The subscripts string of einsum's sublist form from its sublists (``[0, 1], [1, 2]`` ->
    ``"ab,bc"``), for generated code whose sublists are only known when it runs."""
    pairs = [v for sub in sublists for v in (None, sub)]
    return einsum_subscripts(pairs + ([] if output is None else [output]))[0]
