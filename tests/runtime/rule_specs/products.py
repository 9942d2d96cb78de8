"""Specs for products: matmul, dot, outer, inner, vdot, tensordot, kron, cross."""

import numpy as np
from hypothesis import strategies as st

from . import add, broadcast_shapes, shape, spec, values


@spec(np.matmul, argnums=(0, 1))
def _matmul(draw, rng):
    n, k, m = (draw(st.integers(1, 3)) for _ in range(3))
    ba, bb = broadcast_shapes(draw, 2, max_dims=2)
    a = (k,) if draw(st.booleans()) else tuple(ba) + (n, k)
    b = (k,) if draw(st.booleans()) else tuple(bb) + (k, m)
    return [values(rng, a), values(rng, b)], {}


@spec(np.dot, argnums=(0, 1))
def _dot(draw, rng):
    k = draw(st.integers(1, 3))
    na, nb = draw(st.integers(0, 3)), draw(st.integers(0, 3))
    a = tuple(draw(st.integers(1, 3)) for _ in range(na - 1)) + (k,) if na else ()
    if nb == 0:
        b = ()
    elif nb == 1:
        b = (k,)
    else:
        b = tuple(draw(st.integers(1, 3)) for _ in range(nb - 2)) + (k, draw(st.integers(1, 3)))
    return [values(rng, a), values(rng, b)], {}


@spec(np.outer, argnums=(0, 1))
def _outer(draw, rng):
    return [values(rng, shape(draw)), values(rng, shape(draw))], {}


@spec(np.inner, argnums=(0, 1))
def _inner(draw, rng):
    k = draw(st.integers(1, 3))
    a = shape(draw, max_dims=2) + (k,) if draw(st.booleans()) else ()
    b = shape(draw, max_dims=2) + (k,)
    return [values(rng, a), values(rng, b)], {}


@spec(np.vdot, argnums=(0, 1))
def _vdot(draw, rng):
    shp = shape(draw, min_dims=1)
    return [values(rng, shp), values(rng, tuple(reversed(shp)))], {}


@spec(np.tensordot, argnums=(0, 1))
def _tensordot(draw, rng):
    a = shape(draw, min_dims=1)
    k = draw(st.integers(0, len(a)))
    if draw(st.booleans()):
        return [values(rng, a), values(rng, a[len(a) - k:] + shape(draw, max_dims=2))], {"axes": k}
    perm = draw(st.permutations(range(len(a))))
    ca = perm[:max(k, 1)]
    b_extra = shape(draw, max_dims=1)
    order = draw(st.permutations(range(len(ca))))
    cb_shape = tuple(a[ca[i]] for i in order)
    b = b_extra + cb_shape
    cb = [len(b_extra) + order.index(j) for j in range(len(ca))]
    return [values(rng, a), values(rng, b)], {"axes": (list(ca), cb)}


@spec(np.kron, argnums=(0, 1))
def _kron(draw, rng):
    return [values(rng, shape(draw)), values(rng, shape(draw))], {}


@spec(np.cross, argnums=(0, 1))
def _cross(draw, rng):
    sa, sb = broadcast_shapes(draw, 2, max_dims=2)
    return [values(rng, tuple(sa) + (3,)), values(rng, tuple(sb) + (3,))], {}


def _unused():
    return add
