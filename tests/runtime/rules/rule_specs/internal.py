"""Specs for the numpy-level helpers generated gradients call (their rules make generated code
differentiable again) and for package-defined primitives."""

import numpy as np
from hypothesis import strategies as st

from runtime.rules import lookup
from runtime.rules.adjoint_helpers import sum_like
from runtime.rules.arithmetic import add_terms
from runtime.rules.containers import setitem
from runtime.rules.nn import softmax_cross_entropy
from runtime.rules.support import broadcast_like, expand_reduced, scatter_add, split_like, unbroadcast, unstack

from . import add, axis_of, broadcast_shapes, shape, spec, values


@spec(unbroadcast)
def _unbroadcast(draw, rng):
    sx, sg = broadcast_shapes(draw)
    full = np.broadcast_shapes(sx, sg)
    return [values(rng, full), values(rng, sx)], {}


@spec(add_terms)
def _add_terms(draw, rng):
    sa, sb = broadcast_shapes(draw)
    return [values(rng, sa), values(rng, sb), "user_primitive"], {}


@spec(broadcast_like)
def _broadcast_like(draw, rng):
    st_, sa = broadcast_shapes(draw)
    return [values(rng, st_), values(rng, np.broadcast_shapes(st_, sa))], {}


def _reduced(draw, rng):
    shp = shape(draw)
    axis = axis_of(draw, len(shp), tuples=True)
    keepdims = draw(st.booleans())
    x = values(rng, shp)
    return x, axis, keepdims, np.sum(x, axis=axis, keepdims=keepdims)


@spec(expand_reduced)
def _expand_reduced(draw, rng):
    x, axis, keepdims, r = _reduced(draw, rng)
    return [values(rng, np.shape(r)), x, axis, keepdims], {}


@spec(sum_like)
def _sum_like(draw, rng):
    x, axis, keepdims, r = _reduced(draw, rng)
    return [values(rng, np.shape(x)), r, x, axis, keepdims], {}


@spec(split_like)
def _split_like(draw, rng):
    base = shape(draw, min_dims=1)
    arrays = [values(rng, (draw(st.integers(1, 3)),) + base[1:]) for _ in range(draw(st.integers(1, 3)))]
    return [np.concatenate(arrays), arrays, 0], {}


@spec(unstack)
def _unstack(draw, rng):
    shp = shape(draw, min_dims=1)
    axis = axis_of(draw, len(shp), none=False)
    return [values(rng, shp), shp[axis], axis], {}


@spec(scatter_add)
def _scatter_add(draw, rng):
    shp = shape(draw, min_dims=1, max_side=4)
    idx = draw(st.sampled_from([0, slice(1, None), np.array([0, 0, -1])]))
    x = values(rng, shp)
    return [values(rng, np.shape(x[idx])), x, idx], {}


@spec(setitem, argnums=(0, 2))
def _setitem(draw, rng):
    shp = shape(draw, min_dims=1, min_side=3, max_side=4)
    idx = draw(st.sampled_from([0, -1, slice(1, None), np.array([0, 2])]))
    x = values(rng, shp)
    return [x, idx, values(rng, np.shape(x[idx]))], {}


@spec(softmax_cross_entropy, argnums=(0, 1))
def _softmax_cross_entropy(draw, rng):
    shp = shape(draw, min_dims=1)
    labels = values(rng, shp, 0.1, 1)
    return [labels / np.sum(labels, axis=-1, keepdims=True), values(rng, shp)], {}   # TF: labels sum to 1


# --- the rules of bilinear VJP/JVP rules: each as a function of (g or t, ans, a, b) ------------------

def bilinear(prim, make_ab):
    rule = lookup(prim)
    for which, fn in (("vjp", rule.vjp(0)), ("vjp", rule.vjp(1)), ("jvp", rule.jvp(0)), ("jvp", rule.jvp(1))):
        inner = lookup(fn)
        argnums = tuple(i for i in range(4) if inner.vjp(i) is not None)

        def make(draw, rng, fn=fn, which=which):
            a, b = make_ab(draw, rng)
            ans = prim(a, b)
            if which == "vjp":
                first = values(rng, np.shape(ans))
            else:
                first = values(rng, np.shape(a) if fn is rule.jvp(0) else np.shape(b))
            return [first, ans, a, b], {}
        add(fn, make, argnums=argnums, label=fn.__name__)


def _matmul_ab(draw, rng):
    n, k, m = (draw(st.integers(1, 3)) for _ in range(3))
    return values(rng, (n, k)), values(rng, (k, m))


def _dot_ab(draw, rng):
    k = draw(st.integers(1, 3))
    return values(rng, shape(draw, max_dims=2) + (k,)), values(rng, (k,) + shape(draw, max_dims=1))


bilinear(np.matmul, _matmul_ab)
bilinear(np.dot, _dot_ab)


from runtime.rules.inplace import add_at, set_at  # noqa: E402


@spec(add_at, argnums=(0, 1))
def _add_at(draw, rng):
    shp = shape(draw, min_dims=1, max_side=4)
    idx = draw(st.sampled_from([0, slice(1, None), np.array([0, 0, -1])]))
    x = values(rng, shp)
    return [values(rng, shp), values(rng, np.shape(x[idx])), x, idx], {}


@spec(set_at, argnums=(0, 2))
def _set_at(draw, rng):
    shp = shape(draw, min_dims=1, min_side=3, max_side=4)
    idx = draw(st.sampled_from([0, -1, slice(1, None), np.array([0, 2])]))
    x = values(rng, shp)
    return [x, idx, values(rng, np.shape(x[idx]))], {}
