"""Every entry point may be called from many threads at once on a function nobody has
differentiated yet: each thread gets the same numbers as a lone call.

Each round makes a fresh function (a new function object, so nothing is cached for it), starts
the threads together at a barrier and has each call the entry point once; the switch interval
is shortened so threads interleave inside the generation.  The expected values are analytic.
"""

import sys
import threading

import numpy as np
import pytest

from transpiler import differentiate, grad, jvp, value_and_grad, vjp
from transpiler.higher import hessian, hvp, jacobian

THREADS = 6
ROUNDS = 4


def fresh():
    """A new function object each call: f(x) = sin(x) x^2, summed over the elements."""
    def f(x):
        return np.sum(np.sin(x) * x ** 2)
    return f


def fresh_loop():
    """A new function with a loop (for memory_budget): x^4 by two squarings."""
    def f(x):
        y = x
        for _ in range(2):
            y = y * y
        return np.sum(y)
    return f


def d1(x):
    return np.cos(x) * x ** 2 + 2 * x * np.sin(x)


def d2(x):
    return -np.sin(x) * x ** 2 + 4 * x * np.cos(x) + 2 * np.sin(x)


X = np.array([0.3, -1.2, 0.7])
V = np.array([1.0, 0.5, -2.0])


def _together(call):
    """``call()`` on THREADS threads released at once; the list of results (exceptions raised)."""
    barrier = threading.Barrier(THREADS)
    results = [None] * THREADS

    def work(i):
        barrier.wait()
        try:
            results[i] = call()
        except BaseException as e:      # noqa: BLE001  (reported by the test)
            results[i] = e

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return results


def _jit_quiet():
    pytest.importorskip("numba")


CASES = {
    "grad": (lambda f: grad(f)(X), lambda: d1(X)),
    "grad-float": (lambda f: grad(f)(0.3), lambda: d1(0.3)),
    "value_and_grad": (lambda f: value_and_grad(f)(X)[1], lambda: d1(X)),
    "vjp": (lambda f: vjp(f, X)[1](1.0), lambda: d1(X)),
    "jvp": (lambda f: jvp(f, (X,), (V,))[1], lambda: np.sum(d1(X) * V)),
    "hvp": (lambda f: hvp(f, 0.3, 1.0), lambda: d2(0.3)),
    "hvp-array": (lambda f: hvp(f, X, V), lambda: d2(X) * V),
    "hessian": (lambda f: hessian(f)(X), lambda: np.diag(d2(X))),
    "jacobian": (lambda f: jacobian(f)(X), lambda: d1(X)),
    "grad-of-grad": (lambda f: grad(grad(f))(0.3), lambda: d2(0.3)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_entry_point_from_threads_on_a_fresh_function(name):
    call, expected = CASES[name]
    for _ in range(ROUNDS):
        f = fresh()
        for got in _together(lambda: call(f)):
            np.testing.assert_allclose(got, expected(), rtol=1e-10, atol=1e-12)


def test_grad_object_made_once_called_from_threads():
    for _ in range(ROUNDS):
        g = grad(fresh())
        for got in _together(lambda: g(X)):
            np.testing.assert_allclose(got, d1(X), rtol=1e-10)


@pytest.mark.parametrize("method", ["grad", "value_and_grad", "vjp", "jvp"])
def test_differentiate_methods_from_threads(method):
    for _ in range(ROUNDS):
        d = differentiate(fresh())
        calls = {"grad": lambda: d.grad(X), "value_and_grad": lambda: d.value_and_grad(X)[1],
                 "vjp": lambda: d.vjp(X)[1](1.0), "jvp": lambda: d.jvp((X,), (V,))[1]}
        want = np.sum(d1(X) * V) if method == "jvp" else d1(X)
        for got in _together(calls[method]):
            np.testing.assert_allclose(got, want, rtol=1e-10)


def test_decorating_from_threads():
    """@differentiate on one fresh function in every thread at once (the decorator generates)."""
    for _ in range(ROUNDS):
        f = fresh()
        for got in _together(lambda: differentiate(f).grad(0.3)):
            np.testing.assert_allclose(got, d1(0.3), rtol=1e-10)


def test_forward_mode_decorator_from_threads():
    for _ in range(ROUNDS):
        f = fresh()
        for got in _together(lambda: differentiate(f, mode="forward").jvp((X,), (V,))[1]):
            np.testing.assert_allclose(got, np.sum(d1(X) * V), rtol=1e-10)


def test_memory_budget_from_threads():
    for _ in range(ROUNDS):
        f = fresh_loop()
        for got in _together(lambda: grad(f, memory_budget="64KB")(X)):
            np.testing.assert_allclose(got, 4 * X ** 3, rtol=1e-10)


@pytest.mark.filterwarnings("error")
def test_jit_from_threads():
    _jit_quiet()
    for _ in range(2):
        f = fresh_loop()
        for got in _together(lambda: grad(f, jit=True)(X)):
            np.testing.assert_allclose(got, 4 * X ** 3, rtol=1e-10)


def test_star_args_from_threads():
    """wrt naming items of *args: a specialised function per call shape, made on first call."""
    for _ in range(ROUNDS):
        def f(a, *xs):
            return a * np.sum(xs[0] * xs[1])
        for got in _together(lambda: grad(f, wrt="xs")(2.0, X, V)):
            np.testing.assert_allclose(got[0], 2.0 * V)
            np.testing.assert_allclose(got[1], 2.0 * X)


def test_calls_between_fresh_functions_from_threads():
    """A fresh caller and callee: the callee's generated pair is made on first use in a thread."""
    for _ in range(ROUNDS):
        inner = fresh()

        def outer(x):
            return inner(x) * 2.0

        for got in _together(lambda: (grad(outer)(X), hvp(outer, 0.3, 1.0))):
            np.testing.assert_allclose(got[0], 2 * d1(X), rtol=1e-10)
            np.testing.assert_allclose(got[1], 2 * d2(0.3), rtol=1e-10)
