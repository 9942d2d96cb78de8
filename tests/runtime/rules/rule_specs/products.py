"""Specs for products: matmul, dot, outer, inner, vdot, tensordot, kron, cross."""

import numpy as np
from hypothesis import strategies as st

from . import broadcast_shapes, shape, spec, values


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


if hasattr(np, "vecdot"):
    @spec(np.vecdot, argnums=(0, 1))
    def _vecdot(draw, rng):
        sa, sb = broadcast_shapes(draw, 2, max_dims=2)
        k = draw(st.integers(1, 3))
        return [values(rng, tuple(sa) + (k,)), values(rng, tuple(sb) + (k,))], {}

if hasattr(np, "matvec"):
    @spec(np.matvec, argnums=(0, 1))
    def _matvec(draw, rng):
        sa, sb = broadcast_shapes(draw, 2, max_dims=2)
        n, k = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        return [values(rng, tuple(sa) + (n, k)), values(rng, tuple(sb) + (k,))], {}

    @spec(np.vecmat, argnums=(0, 1))
    def _vecmat(draw, rng):
        sa, sb = broadcast_shapes(draw, 2, max_dims=2)
        n, k = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        return [values(rng, tuple(sa) + (k,)), values(rng, tuple(sb) + (k, n))], {}


@spec(np.polyval, argnums=(0, 1))
def _polyval(draw, rng):
    return [values(rng, (draw(st.integers(1, 4)),)), values(rng, shape(draw))], {}


@spec(np.vander)
def _vander(draw, rng):
    return [values(rng, (draw(st.integers(1, 4)),), 0.2, 2, signed=True)], \
        {"N": draw(st.one_of(st.none(), st.integers(1, 4))), "increasing": draw(st.booleans())}


def conv(fn):
    def make(draw, rng):
        return [values(rng, (draw(st.integers(1, 5)),)), values(rng, (draw(st.integers(1, 5)),)),
                draw(st.sampled_from(["full", "same", "valid"]))], {}
    from . import add
    add(fn, make, argnums=(0, 1))


conv(np.convolve)
conv(np.correlate)


@spec(np.interp, argnums=(0, 2))
def _interp(draw, rng):
    n = draw(st.integers(2, 5))
    xp = np.cumsum(values(rng, (n,), 0.3, 1))
    return [values(rng, shape(draw), xp[0] - 0.5, xp[-1] + 0.5), xp, values(rng, (n,))], {}


def poly_pair(fn):
    def make(draw, rng):
        return [values(rng, (draw(st.integers(1, 4)),)), values(rng, (draw(st.integers(1, 4)),))], {}
    from . import add
    add(fn, make, argnums=(0, 1))


for _fn in (np.polymul, np.polyadd, np.polysub):
    poly_pair(_fn)


@spec(np.polyder)
def _polyder(draw, rng):
    return [values(rng, (draw(st.integers(2, 5)),)), draw(st.integers(1, 2))], {}


@spec(np.polyint)
def _polyint(draw, rng):
    return [values(rng, (draw(st.integers(1, 4)),)), draw(st.integers(1, 2))], {}


if hasattr(np.linalg, "matrix_transpose"):
    from . import SPECS, Spec

    for _top, _alias in ((np.matmul, np.linalg.matmul), (np.vecdot, np.linalg.vecdot)):
        _base = next(s for s in SPECS if s.fn is _top)
        SPECS.append(Spec(_alias, _base.make, _base.argnums, label=f"linalg.{_top.__name__}"))

    @spec(np.linalg.outer, argnums=(0, 1))
    def _linalg_outer(draw, rng):
        return [values(rng, (draw(st.integers(1, 3)),)), values(rng, (draw(st.integers(1, 3)),))], {}

    @spec(np.linalg.matrix_transpose)
    def _linalg_matrix_transpose(draw, rng):
        return [values(rng, shape(draw, min_dims=2))], {}

    @spec(np.linalg.cross, argnums=(0, 1))
    def _linalg_cross(draw, rng):
        sa, sb = broadcast_shapes(draw, 2, max_dims=2)
        a, b = values(rng, tuple(sa) + (3,)), values(rng, tuple(sb) + (3,))
        if draw(st.booleans()) and a.ndim == b.ndim:
            return [np.moveaxis(a, -1, 0), np.moveaxis(b, -1, 0)], {"axis": 0}
        return [a, b], {}
