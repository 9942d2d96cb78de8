"""Shared checks for the derivative-rule tests (tests/runtime/rules/test_*.py).

Every check compares a rule against central finite differences of the primitive itself:

* ``check_vjp``: the VJP rule, called directly on float64 arrays, against ``numeric_vjp``;
* ``check_jvp``: the JVP rule against ``numeric_jvp`` along a random tangent;
* ``check_hvp``: second order.  Nested ``GradientTape``s run the VJP rule on tensors (so the
  rule itself is differentiated by the rules it calls); the Hessian-vector product they give
  is compared with finite differences (along the same vector) of the finite-difference
  gradient of the primitive itself, a reference that never calls the rule, so a wrong
  first-order rule fails here too.
* ``check_hvp_by_fd``: the tape-free reference for scalar ``math`` rules (which cannot run
  on tensors): the derivative of the VJP rule, by finite differences, against a nested
  finite-difference second derivative of the primitive.

Arguments not being differentiated (indices, conditions, axes) are held fixed by closing
over them, so they are never converted to float.
"""

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from runtime.rules import lookup
from tests.fd import assert_close, numeric_grad, numeric_jvp, numeric_vjp


# --- inputs ---------------------------------------------------------------------------------

def shapes(min_dims=0, max_dims=3, max_side=4):
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=1, max_side=max_side)


def broadcastable(n=2, max_dims=3, max_side=3):
    """``n`` mutually broadcastable shapes (e.g. (3, 1) with (1, 4), or () with (2, 3))."""
    return hnp.mutually_broadcastable_shapes(num_shapes=n, min_dims=0, max_dims=max_dims,
                                             max_side=max_side).map(lambda b: b.input_shapes)


seeds = st.integers(0, 2**32 - 1)


def values(rng, shape, lo=-2.0, hi=2.0, signed=False):
    """Uniform values in [lo, hi]; with ``signed`` a random sign too (for domains like |x| > lo)."""
    x = rng.uniform(lo, hi, size=shape)
    if signed:
        x = x * rng.choice([-1.0, 1.0], size=shape)
    return np.asarray(x, dtype=np.float64)


def _shapes(args):
    return [getattr(a, "shape", type(a).__name__) for a in args]


# --- first order ----------------------------------------------------------------------------

def _partial(fn, args, argnum, kwargs):
    """fn as a function of argument ``argnum`` alone."""
    def f(xi):
        new = list(args)
        new[argnum] = xi
        return fn(*new, **kwargs)
    return f


def check_vjp(fn, args, argnum=0, kwargs=None, rng=None, rtol=1e-5, atol=1e-6):
    kwargs = kwargs or {}
    rng = rng or np.random.default_rng(0)
    rule = lookup(fn)
    assert rule is not None and rule.differentiable, f"no rule for {fn}"
    vjp = rule.vjp(argnum)
    assert vjp is not None, f"{rule.name}: no VJP for argument {argnum}"
    ans = fn(*args, **kwargs)
    g = rng.standard_normal(np.shape(ans))
    got = vjp(g, ans, *args, **kwargs)
    want = numeric_vjp(_partial(fn, args, argnum, kwargs), [args[argnum]], 0, g)
    assert_close(got, want, rtol, atol, what=f"{rule.name} vjp[{argnum}] shapes={_shapes(args)} kwargs={kwargs}")
    return got


def check_jvp(fn, args, argnum=0, kwargs=None, rng=None, rtol=1e-5, atol=1e-6):
    kwargs = kwargs or {}
    rng = rng or np.random.default_rng(0)
    rule = lookup(fn)
    jvp = rule.jvp(argnum)
    assert jvp is not None, f"{rule.name}: no JVP for argument {argnum}"
    ans = fn(*args, **kwargs)
    t = rng.standard_normal(np.shape(args[argnum]))
    got = jvp(t, ans, *args, **kwargs)
    want = numeric_jvp(_partial(fn, args, argnum, kwargs), [args[argnum]], [t])
    assert_close(got, want, rtol, atol, what=f"{rule.name} jvp[{argnum}] shapes={_shapes(args)} kwargs={kwargs}")
    return got


# --- second order ---------------------------------------------------------------------------

def tape_hvp(fn, args, argnum, w, v, kwargs=None):
    """d/dx <d/dx <w, fn(x)>, v> through two nested GradientTapes (x = args[argnum])."""
    import runtime as tf

    kwargs = kwargs or {}
    x = tf.constant(np.asarray(args[argnum], dtype=np.float64))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            new = list(args)
            new[argnum] = x
            y = np.sum(fn(*new, **kwargs) * w)
        g = inner.gradient(y, x)
        gv = np.sum(g * v)
    h = outer.gradient(gv, x)
    return None if h is None else np.asarray(h.numpy())


def check_hvp(fn, args, argnum=0, kwargs=None, rng=None, rtol=1e-4, atol=1e-5, eps=1e-3):
    """Tape HVP (the rules differentiated by the rules) vs FD of the FD gradient of fn."""
    kwargs = kwargs or {}
    rng = rng or np.random.default_rng(0)
    rule = lookup(fn)
    name = rule.name if rule is not None else getattr(fn, "__name__", repr(fn))
    ans = fn(*args, **kwargs)
    w = rng.standard_normal(np.shape(ans))
    x = np.asarray(args[argnum], dtype=np.float64)
    v = rng.standard_normal(np.shape(x))

    def phi(xi):
        new = list(args)
        new[argnum] = xi
        return np.sum(np.asarray(fn(*new, **kwargs), dtype=np.float64) * w)

    def diff(h):
        return (numeric_grad(phi, x + h * v, 1e-5) - numeric_grad(phi, x - h * v, 1e-5)) / (2 * h)

    coarse, fine = diff(eps), diff(eps / 2)
    want = (4 * fine - coarse) / 3                      # Richardson: O(eps^4), stable near poles
    # rounding in finite differences of finite differences grows with the size of phi itself
    atol = atol * max(1.0, float(np.max(np.abs(want), initial=0.0)), abs(float(phi(x))) / 10)
    # a kink (max, mod) within eps of x makes the reference meaningless there: draw another input
    assume(np.allclose(coarse, fine, rtol=1e-2, atol=100 * atol))
    got = tape_hvp(fn, args, argnum, w, v, kwargs)
    if got is None:  # gradient independent of x: the second derivative is identically zero
        got = np.zeros_like(x)
    assert_close(got, want, rtol, atol, what=f"{name} hvp[{argnum}] shapes={_shapes(args)} kwargs={kwargs}")


def check_hvp_by_fd(fn, args, argnum=0, rng=None, rtol=1e-3, atol=1e-4, eps=1e-4):
    """Tape-free reference: FD along v of the VJP rule vs nested FD of the primitive."""
    rng = rng or np.random.default_rng(0)
    rule = lookup(fn)
    vjp = rule.vjp(argnum)
    x = float(args[argnum])
    v = 1.0
    w = float(rng.standard_normal())

    def at(xi):
        new = list(args)
        new[argnum] = xi
        return new

    def rule_grad(xi):
        new = at(xi)
        return vjp(w, fn(*new), *new)

    by_rule = (rule_grad(x + eps * v) - rule_grad(x - eps * v)) / (2 * eps)
    f = lambda xi: w * fn(*at(float(xi)))  # noqa: E731
    by_fd = (numeric_grad(f, x + eps * v, eps) - numeric_grad(f, x - eps * v, eps)) / (2 * eps)
    assert_close(by_rule, by_fd, rtol, atol, what=f"{rule.name} second order[{argnum}]")


def check_binary(fn, dx, dy, shp, seed, second_order=False):
    """Both arguments of a binary primitive on drawn broadcasting shapes.

    ``dx``/``dy`` are the ``values`` domains (lo, hi, signed) of each argument.  First order
    checks VJP and JVP against finite differences; second order checks the tape's HVP.
    """
    rng = np.random.default_rng(seed)
    args = [values(rng, shp[0], *dx), values(rng, shp[1], *dy)]
    for i in (0, 1):
        if second_order:
            check_hvp(fn, args, i, rng=rng)
        else:
            check_vjp(fn, args, i, rng=rng)
            check_jvp(fn, args, i, rng=rng)
