"""Rules for products that contract axes: dot, outer, inner, vdot, tensordot, kron, cross
(matmul is with the operators in ``arithmetic``; einsum in ``linalg``).

Every one is bilinear, so each VJP is the product of the cotangent with the other operand,
contracted over the axes the result kept from it, and each JVP is the product itself with
one operand replaced by its tangent.  ``unbroadcast`` gives a real operand the real part of a
complex product (a real argument gets a real gradient).
"""

import numpy as np

from .registry import define
from .support import shape_of, unbroadcast


# np.dot: scalars multiply; with b 1-d the last axis of a is contracted with b; otherwise the
# last axis of a with the second-to-last of b, the result's axes being a's free ones then b's.
def dot_vjp_a(g, ans, a, b, out=None):
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return unbroadcast(g * b, a)
    if np.ndim(b) == 1:
        return unbroadcast(np.expand_dims(g, -1) * b if np.ndim(a) > 1 else g * b, a)
    nb = np.ndim(b)
    free_b = list(range(np.ndim(g) - nb + 1, np.ndim(g)))
    return unbroadcast(np.tensordot(g, b, axes=(free_b, list(range(nb - 2)) + [nb - 1])), a)


def dot_vjp_b(g, ans, a, b, out=None):
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return unbroadcast(a * g, b)
    na = np.ndim(a) - 1
    if np.ndim(b) == 1:
        return unbroadcast(np.tensordot(a, g, axes=(list(range(na)), list(range(na)))), b)
    return unbroadcast(np.moveaxis(np.tensordot(a, g, axes=(list(range(na)), list(range(na)))), 0, -2), b)


def dot_jvp_a(t, ans, a, b, out=None):
    return np.dot(t, b)


def dot_jvp_b(t, ans, a, b, out=None):
    return np.dot(a, t)


define(np.dot, vjp=(dot_vjp_a, dot_vjp_b), jvp=(dot_jvp_a, dot_jvp_b))


# np.outer flattens its operands.
def outer_vjp_a(g, ans, a, b, out=None):
    return unbroadcast(np.reshape(np.dot(g, np.ravel(b)), shape_of(a)), a)


def outer_vjp_b(g, ans, a, b, out=None):
    return unbroadcast(np.reshape(np.dot(np.ravel(a), g), shape_of(b)), b)


def outer_jvp_a(t, ans, a, b, out=None):
    return np.outer(t, b)


def outer_jvp_b(t, ans, a, b, out=None):
    return np.outer(a, t)


define(np.outer, vjp=(outer_vjp_a, outer_vjp_b), jvp=(outer_jvp_a, outer_jvp_b))


# np.inner contracts the last axes (scalars multiply); the result's axes are a's then b's.
def inner_vjp_a(g, ans, a, b):
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return unbroadcast(g * b, a)
    na, nb = np.ndim(a) - 1, np.ndim(b) - 1
    return unbroadcast(np.tensordot(g, b, axes=(list(range(na, na + nb)), list(range(nb)))), a)


def inner_vjp_b(g, ans, a, b):
    if np.ndim(a) == 0 or np.ndim(b) == 0:
        return unbroadcast(a * g, b)
    na = np.ndim(a) - 1
    return unbroadcast(np.tensordot(g, a, axes=(list(range(na)), list(range(na)))), b)


def inner_jvp_a(t, ans, a, b):
    return np.inner(t, b)


def inner_jvp_b(t, ans, a, b):
    return np.inner(a, t)


define(np.inner, vjp=(inner_vjp_a, inner_vjp_b), jvp=(inner_jvp_a, inner_jvp_b))


# np.vdot: sum(conj(a) * b) over the flattened operands.
def vdot_vjp_a(g, ans, a, b):
    return unbroadcast(np.reshape(np.conj(g * np.ravel(b)), shape_of(a)), a)


def vdot_vjp_b(g, ans, a, b):
    return unbroadcast(np.reshape(g * np.conj(np.ravel(a)), shape_of(b)), b)


def vdot_jvp_a(t, ans, a, b):
    return np.vdot(t, b)


def vdot_jvp_b(t, ans, a, b):
    return np.vdot(a, t)


define(np.vdot, vjp=(vdot_vjp_a, vdot_vjp_b), jvp=(vdot_jvp_a, vdot_jvp_b))


# np.tensordot(a, b, axes): the cotangent contracted with the other operand over that
# operand's free axes gives the contracted axes back, in the order tensordot leaves them.
def tensordot_axes(axes, na, nb):
    """(contracted axes of a, contracted axes of b, free axes of a, free axes of b), non-negative."""
    if np.ndim(axes) == 0:
        ca, cb = list(range(na - axes, na)), list(range(axes))
    else:
        ca, cb = axes
        ca = [ca] if np.ndim(ca) == 0 else list(ca)
        cb = [cb] if np.ndim(cb) == 0 else list(cb)
    ca, cb = [int(i) % na for i in ca], [int(i) % nb for i in cb]
    return ca, cb, [i for i in range(na) if i not in ca], [i for i in range(nb) if i not in cb]


def tensordot_vjp_a(g, ans, a, b, axes=2):
    ca, cb, fa, fb = tensordot_axes(axes, np.ndim(a), np.ndim(b))
    r = np.tensordot(g, b, axes=(list(range(len(fa), len(fa) + len(fb))), fb))
    order = fa + [ca[j] for j in np.argsort(cb)]         # which axis of a each axis of r is
    return unbroadcast(np.transpose(r, np.argsort(order)), a)


def tensordot_vjp_b(g, ans, a, b, axes=2):
    ca, cb, fa, fb = tensordot_axes(axes, np.ndim(a), np.ndim(b))
    r = np.tensordot(a, g, axes=(fa, list(range(len(fa)))))
    order = [cb[j] for j in np.argsort(ca)] + fb
    return unbroadcast(np.transpose(r, np.argsort(order)), b)


def tensordot_jvp_a(t, ans, a, b, axes=2):
    return np.tensordot(t, b, axes)


def tensordot_jvp_b(t, ans, a, b, axes=2):
    return np.tensordot(a, t, axes)


define(np.tensordot, vjp=(tensordot_vjp_a, tensordot_vjp_b), jvp=(tensordot_jvp_a, tensordot_jvp_b))


# np.kron: result[i * nb + j] = a[i] * b[j] along every axis (shapes padded with leading 1s).
def kron_layout(sa, sb):
    """(a's padded shape, b's padded shape, the interleaved (a_k, b_k) shape of the result)."""
    d = max(len(sa), len(sb))
    pa, pb = (1,) * (d - len(sa)) + tuple(sa), (1,) * (d - len(sb)) + tuple(sb)
    return pa, pb, tuple(x for pair in zip(pa, pb) for x in pair)


def kron_vjp_a(g, ans, a, b):
    pa, pb, inter = kron_layout(shape_of(a), shape_of(b))
    spread_b = np.reshape(b, tuple(x for n in pb for x in (1, n)))
    h = np.sum(np.reshape(g, inter) * spread_b, axis=tuple(range(1, 2 * len(pa), 2)))
    return unbroadcast(np.reshape(h, shape_of(a)), a)


def kron_vjp_b(g, ans, a, b):
    pa, pb, inter = kron_layout(shape_of(a), shape_of(b))
    spread_a = np.reshape(a, tuple(x for n in pa for x in (n, 1)))
    h = np.sum(np.reshape(g, inter) * spread_a, axis=tuple(range(0, 2 * len(pa), 2)))
    return unbroadcast(np.reshape(h, shape_of(b)), b)


def kron_jvp_a(t, ans, a, b):
    return np.kron(t, b)


def kron_jvp_b(t, ans, a, b):
    return np.kron(a, t)


define(np.kron, vjp=(kron_vjp_a, kron_vjp_b), jvp=(kron_jvp_a, kron_jvp_b))


# np.cross(a, b, axisa, axisb, axisc, axis): the vectors of a (along axisa) and b (along axisb)
# broadcast against each other; the result's vectors lie along axisc (``axis`` sets all three).
# It is bilinear: the JVP is np.cross itself with one operand replaced by its tangent, and
# d<g, a x b>/da = b x g, d/db = g x a on 3-vectors.  2-vectors count as 3-vectors with a zero
# third component; when both are 2-vectors the result is that third component alone (no axis).
def cross_cotangent_vectors(g, a, b, axisa, axisb, axisc, axis):
    """(a's vectors, b's vectors, g's 3-vectors, a's vector axis, b's), each vector along the last axis."""
    if axis is not None:
        axisa, axisb, axisc = axis, axis, axis
    va, vb = np.moveaxis(a, axisa, -1), np.moveaxis(b, axisb, -1)
    if shape_of(va)[-1] == 2 and shape_of(vb)[-1] == 2:
        gv = np.stack([np.zeros_like(g), np.zeros_like(g), g], axis=-1)
    else:
        gv = np.moveaxis(g, axisc, -1)
    return va, vb, gv, axisa, axisb


def as_3_vectors(v):
    """Vectors along the last axis with a zero third component appended to 2-vectors."""
    if shape_of(v)[-1] == 3:
        return v
    return np.concatenate([v, np.zeros_like(v[..., :1])], axis=-1)


def cross_vjp_a(g, ans, a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    va, vb, gv, axisa, axisb = cross_cotangent_vectors(g, a, b, axisa, axisb, axisc, axis)
    da = np.cross(as_3_vectors(vb), gv)[..., :shape_of(va)[-1]]
    return np.moveaxis(unbroadcast(da, va), -1, axisa)


def cross_vjp_b(g, ans, a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    va, vb, gv, axisa, axisb = cross_cotangent_vectors(g, a, b, axisa, axisb, axisc, axis)
    db = np.cross(gv, as_3_vectors(va))[..., :shape_of(vb)[-1]]
    return np.moveaxis(unbroadcast(db, vb), -1, axisb)


def cross_jvp_a(t, ans, a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    return np.cross(t, b, axisa, axisb, axisc, axis)


def cross_jvp_b(t, ans, a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    return np.cross(a, t, axisa, axisb, axisc, axis)


define(np.cross, vjp=(cross_vjp_a, cross_vjp_b), jvp=(cross_jvp_a, cross_jvp_b))
