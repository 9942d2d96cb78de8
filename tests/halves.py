"""One function checked in both halves, against central finite differences of the function itself.

``function("np.cross(a, b, axisc=0)", "a, b", args)`` makes ``f(a, b) = sum(w * <expression>)``
from generated source (registered with linecache, so the transpiler reads it as it reads a user's
function), ``w`` a fixed random weight of the expression's shape at ``args`` (a complex expression
is weighted through its real and imaginary parts).  ``check(f, args)`` then compares, for each
differentiated argument:

* reverse: ``transpiler.grad`` and a ``GradientTape`` gradient with the finite-difference gradient;
* forward: ``transpiler.jvp`` and a ``ForwardAccumulator`` along a random tangent with the
  finite-difference directional derivative;
* second order: ``transpiler.hvp`` and nested ``GradientTape``s with finite differences (along the
  same vector) of the finite-difference gradient.

No reference here calls a derivative rule, so a wrong rule fails.  Arguments are real float64
arrays; a complex input is made inside the expression from real parts (``a + 1j * b``).
"""

import linecache
import warnings

import numpy as np

from tests.fd import assert_close, numeric_grad

_COUNT = [0]


def _compile(src, namespace, what):
    _COUNT[0] += 1
    filename = f"<halves {_COUNT[0]}: {what[:50]}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    exec(compile(src, filename, "exec"), namespace)
    return namespace["f"]


def quiet(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with np.errstate(all="ignore"):
            return fn(*args)


def function(expression, params, args, env=None, seed=0):
    """``f(<params>) = np.sum(w * (<expression>))`` with ``np`` and the names of ``env`` as globals."""
    namespace = {"np": np, **(env or {})}
    value = quiet(_compile(f"def f({params}):\n    return {expression}\n", dict(namespace), expression), *args)
    rng = np.random.default_rng(seed)
    namespace["w"] = rng.standard_normal(np.shape(value))
    if np.iscomplexobj(value):
        namespace["w2"] = rng.standard_normal(np.shape(value))
        body = f"np.sum(w * np.real({expression}) + w2 * np.imag({expression}))"
    else:
        body = f"np.sum(w * ({expression}))"
    return _compile(f"def f({params}):\n    return {body}\n", namespace, expression)


def _at(args, k, x):
    new = list(args)
    new[k] = x
    return new


def fd_gradient(f, args, k):
    return numeric_grad(lambda x: quiet(f, *_at(args, k, x)), np.asarray(args[k], dtype=np.float64))


def fd_hvp(f, args, k, v, h=1e-3):
    """Richardson-extrapolated finite differences of the finite-difference gradient along v."""
    x = np.asarray(args[k], dtype=np.float64)

    def diff(e):
        return (fd_gradient(f, _at(args, k, x + e * v), k) - fd_gradient(f, _at(args, k, x - e * v), k)) / (2 * e)

    return (4 * diff(h / 2) - diff(h)) / 3


def check(f, args, argnums=None, second=True, rtol=1e-5, atol=1e-6, what="", halves=("transpiler", "tape")):
    """Every differentiated argument of ``f`` at ``args``, both halves, both modes, second order."""
    import runtime as tf
    import transpiler

    args = [np.asarray(a, dtype=np.float64) for a in args]
    argnums = range(len(args)) if argnums is None else argnums
    rng = np.random.default_rng(1)
    for k in argnums:
        where = f"{what} argument {k}"
        want = fd_gradient(f, args, k)
        t = rng.standard_normal(args[k].shape)
        want_t = np.sum(want * t)
        v = rng.standard_normal(args[k].shape)
        want_h = fd_hvp(f, args, k, v) if second else None
        h_atol = 1e-4 * max(1.0, float(np.max(np.abs(want_h), initial=0.0))) if second else None
        if "transpiler" in halves:
            got = quiet(transpiler.grad(f, wrt=k), *args)
            assert not np.iscomplexobj(got), f"transpiler reverse {where}: a complex gradient of a real argument"
            assert_close(got, want, rtol, atol, what=f"transpiler reverse {where}")
            _, got_t = quiet(transpiler.jvp, f, tuple(args), (t,), (k,))
            assert_close(got_t, want_t, rtol, atol, what=f"transpiler forward {where}")
            if second:
                got_h = quiet(lambda: transpiler.hvp(f, tuple(args), v, wrt=k))
                assert_close(got_h, want_h, 1e-4, h_atol, what=f"transpiler second order {where}")
        if "tape" in halves:
            assert_close(_tape_gradient(tf, f, args, k), want, rtol, atol, what=f"tape reverse {where}")
            x = tf.constant(args[k])
            with tf.autodiff.ForwardAccumulator(x, tf.constant(t)) as acc:
                y = quiet(f, *_at(args, k, x))
            got_t = acc.jvp(y)
            assert_close(0.0 if got_t is None else got_t.numpy(), want_t, rtol, atol, what=f"tape forward {where}")
            if second:
                assert_close(_tape_hvp(tf, f, args, k, v), want_h, 1e-4, h_atol, what=f"tape second order {where}")


def _tape_gradient(tf, f, args, k):
    x = tf.constant(args[k])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = quiet(f, *_at(args, k, x))
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)    # a complex cotangent cast to real
        g = tape.gradient(y, x)
    return np.zeros_like(args[k]) if g is None else g.numpy()


def _tape_hvp(tf, f, args, k, v):
    x = tf.constant(args[k])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = quiet(f, *_at(args, k, x))
        gv = tf.reduce_sum(inner.gradient(y, x) * v)
    h = outer.gradient(gv, x)
    return np.zeros_like(args[k]) if h is None else h.numpy()
