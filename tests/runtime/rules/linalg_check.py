"""Checks for rules whose primitive returns several arrays (decompositions) and for second order.

``check_tuple_vjp`` / ``check_tuple_jvp`` extend rules_check's single-output checks: each
output gets its own random cotangent (or is compared along one random tangent) and the
reference is central finite differences of the numpy function itself.

``check_second_order`` compares ``u . H v`` of ``L(x) = sum(w * f(x))`` from two nested
GradientTapes (the rules differentiated by the rules) with a four-point finite difference of
``L`` alone, so a wrong first-order rule cannot agree with its own reference.
"""

import numpy as np

from runtime.rules import lookup
from tests.fd import assert_close, numeric_grad, numeric_jvp
from tests.runtime.rules.rules_check import tape_hvp


def _outputs(value, picks):
    """The differentiable outputs of a decomposition (``picks`` indexes the ones to check)."""
    items = tuple(value) if isinstance(value, tuple) else (value,)
    return [np.asarray(items[i], dtype=np.float64) for i in picks]


def _with(args, argnum, x):
    new = list(args)
    new[argnum] = x
    return new


def signs_fixed(fn, vectors):
    """``fn`` with the sign of each eigen/singular vector chosen continuously (LAPACK may flip one
    between two nearby inputs, which finite differences would read as a jump).

    ``vectors`` maps output index -> axis along which a vector lies (-2: columns, -1: rows); the
    first entry's flips are applied to all of them (u and vh flip together)."""
    ref = {}

    def fixed(*args, **kwargs):
        out = list(fn(*args, **kwargs))
        items = list(vectors.items())
        first, axis = items[0]
        if "signs" not in ref:
            ref["signs"] = out[first]
        s = np.sign(np.sum(out[first] * ref["signs"], axis=axis, keepdims=True))
        for i, ax in items:
            out[i] = out[i] * (s if ax == axis else np.swapaxes(s, -1, -2))
        return tuple(out)

    return fixed


def check_tuple_vjp(fn, args, argnum=0, picks=(0, 1), kwargs=None, rng=None, rtol=1e-5, atol=1e-6,
                    zero=(), vectors=None):
    """VJP of a tuple-valued primitive (outputs ``picks``; those in ``zero`` get zero cotangents)."""
    kwargs = kwargs or {}
    ref = signs_fixed(fn, vectors) if vectors else fn
    rng = rng or np.random.default_rng(0)
    rule = lookup(fn)
    ans = fn(*args, **kwargs)
    items = tuple(ans)
    gs = [np.zeros(np.shape(o)) if i in zero or i not in picks else rng.standard_normal(np.shape(o))
          for i, o in enumerate(items)]
    got = rule.vjp(argnum)(tuple(gs), ans, *args, **kwargs)

    ref(*args, **kwargs)

    def loss(x):
        out = ref(*_with(args, argnum, x), **kwargs)
        return sum(np.sum(np.asarray(out[i], dtype=np.float64) * gs[i]) for i in picks)

    want = numeric_grad(loss, args[argnum])
    assert_close(got, want, rtol, atol, what=f"{rule.name} vjp[{argnum}] picks={picks} kwargs={kwargs}")


def check_tuple_jvp(fn, args, argnum=0, picks=(0, 1), kwargs=None, rng=None, rtol=1e-5, atol=1e-6,
                    vectors=None):
    kwargs = kwargs or {}
    ref = signs_fixed(fn, vectors) if vectors else fn
    ref(*args, **kwargs)
    rng = rng or np.random.default_rng(0)
    rule = lookup(fn)
    ans = fn(*args, **kwargs)
    t = rng.standard_normal(np.shape(args[argnum]))
    got = rule.jvp(argnum)(t, ans, *args, **kwargs)
    for i in picks:
        want = numeric_jvp(lambda x: _outputs(ref(*_with(args, argnum, x), **kwargs), [i])[0],
                           [args[argnum]], [t])
        assert_close(got[i], want, rtol, atol, what=f"{rule.name} jvp[{argnum}] output {i} kwargs={kwargs}")


def check_packed(fn, a, vector_rows, kwargs=None, rng=None, rtol=1e-5, atol=1e-6):
    """VJP and JVP of a packed decomposition (``eigh_packed``...): the columns of the rows in
    ``vector_rows`` are eigen/singular vectors, whose signs are chosen continuously for FD."""
    from tests.fd import numeric_vjp
    kwargs = kwargs or {}
    rng = rng or np.random.default_rng(0)
    rule = lookup(fn)
    ans = fn(a, **kwargs)
    ref = ans[..., vector_rows, :]

    def fixed(x):
        p = np.array(fn(x, **kwargs))
        p[..., vector_rows, :] *= np.sign(np.sum(p[..., vector_rows, :] * ref, axis=-2, keepdims=True))
        return p

    g = rng.standard_normal(np.shape(ans))
    assert_close(rule.vjp(0)(g, ans, a, **kwargs), numeric_vjp(fixed, [a], 0, g), rtol, atol,
                 what=f"{rule.name} vjp")
    t = rng.standard_normal(np.shape(a))
    assert_close(rule.jvp(0)(t, ans, a, **kwargs), numeric_jvp(fixed, [a], [t]), rtol, atol,
                 what=f"{rule.name} jvp")


def check_second_order(f, x, rng=None, h=1e-4, rtol=1e-4, atol=1e-6, pairs=2):
    """Nested tapes on ``L = sum(w * f(x))`` (f returns one array) vs four-point FD of L."""
    rng = rng or np.random.default_rng(0)
    x = np.asarray(x, dtype=np.float64)
    w = rng.standard_normal(np.shape(f(x)))

    def loss(y):
        return float(np.sum(np.asarray(f(y), dtype=np.float64) * w))

    for _ in range(pairs):
        u, v = rng.standard_normal(x.shape), rng.standard_normal(x.shape)
        hv = tape_hvp(f, [x], 0, w, v)
        got = 0.0 if hv is None else float(np.sum(hv * u))
        want = (loss(x + h * u + h * v) - loss(x + h * u - h * v)
                - loss(x - h * u + h * v) + loss(x - h * u - h * v)) / (4 * h * h)
        scale = max(1.0, abs(want))
        assert abs(got - want) <= rtol * scale + atol, \
            f"second order of {getattr(f, '__name__', f)}: tape {got} vs finite differences {want}"


__all__ = ["check_tuple_vjp", "check_tuple_jvp", "check_packed", "check_second_order", "numeric_grad"]
