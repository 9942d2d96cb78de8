"""Higher derivatives of functions that call user functions (test_higher.py runs hvp and
grad(grad) over the whole calls and classes corpora; this file adds what that cannot show).

A callee's generated fwd_g/bwd_g pair is itself differentiated from its generated source,
so recursion stays recursion at every order; callees with loops are read as a recompute
pair; functions and objects passed as arguments are found when the code runs.  Every value
is checked against an analytic derivative or central finite differences of the lower one.
"""

import numpy as np
import pytest

from tests.fd import assert_close, numeric_grad
from tests.transpiler.frontend.calls import calls_corpus as c
from tests.transpiler.frontend.objects import test_classes as k
from transpiler import TranspileError, grad, hessian, hvp, jacobian, jvp

X = np.array([0.7, -0.4, 1.3])
V = np.array([0.3, -1.1, 0.5])


def _fd(f, x, v, eps=1e-5):
    return (np.asarray(f(x + eps * v)) - np.asarray(f(x - eps * v))) / (2 * eps)


# --- scalar functions of one variable: second and third derivatives ---------------------------
def sq_times(x):
    return c.sq(x) * x                       # x**3: a plain callee


def power5(x):
    return c.power(x, 5)                     # x**5: recursion


def tree2(x):
    return c.tree(x, 2)                      # two recursive calls per level


def mutual(x):
    return c.even_step(x, 4) + x * x         # mutual recursion


def looped(x):
    return c.cumulate(x, 3)                  # a callee with a loop


def passed_function(x):
    return c.apply(c.sq, x) * x              # a function passed as an argument


def passed_primitive(x):
    return c.apply(np.sin, x) * x            # a primitive passed as an argument


SCALAR = [sq_times, power5, tree2, mutual, looped, passed_function, passed_primitive]


@pytest.mark.parametrize("f", SCALAR, ids=[f.__name__ for f in SCALAR])
def test_second_and_third_derivatives(f):
    x = 0.7
    d1, d2, d3 = grad(f), grad(grad(f)), grad(grad(grad(f)))
    assert_close(d2(x), _fd(d1, x, 1.0), 1e-6, 1e-8, what=f"{f.__name__}: grad(grad)")
    assert_close(d3(x), _fd(d2, x, 1.0), 1e-6, 1e-8, what=f"{f.__name__}: grad(grad(grad))")
    assert_close(hessian(f)(x), d2(x), 1e-10, 1e-12)
    assert_close(jvp(d1, (x,), (1.0,))[1], d2(x), 1e-10, 1e-12)


def test_powers_analytic():
    x = 0.9
    assert_close(grad(grad(power5))(x), 20 * x ** 3, 1e-12, 1e-12)
    assert_close(grad(grad(grad(power5)))(x), 60 * x ** 2, 1e-12, 1e-12)
    assert_close(grad(grad(grad(sq_times)))(x), 6.0, 1e-12, 1e-12)


# --- recursion is not unrolled at transform time ---------------------------------------------
def power_sum(x, n):
    return np.sum(c.power(x, n))


def test_recursive_hvp_source_independent_of_depth():
    h = hvp(power_sum, wrt=0)
    first = None
    for n in (2, 6, 30):
        x = np.array([0.9, 1.05])
        assert_close(h(x, n, V[:2]), n * (n - 1) * x ** (n - 2) * V[:2], 1e-10, 1e-12)
        first = first or h.source
        assert h.source == first
    # one tangent per (function, wrt): bwd_power's seed is constant at the top, not inside
    assert first.count("def jvp_fwd_power(") == 1 and first.count("def jvp_bwd_power(") == 2


# --- arrays: hessians and jacobians of gradients through calls ------------------------------
def layered(x):
    return np.sum(c.layer(x[None, :], c.W[:3], c.B) ** 2) + np.sum(c.mix(x, x * x))


def test_hessian_through_calls_against_fd():
    H = hessian(layered)(X)
    cols = np.stack([_fd(grad(layered), X, e) for e in np.eye(3)], axis=-1)
    assert_close(H, cols, 1e-5, 1e-7)
    assert_close(H, H.T, 1e-10, 1e-12)
    assert_close(jacobian(grad(layered))(X), H, 1e-10, 1e-12)
    assert_close(grad(grad(layered))(X), H @ np.ones(3), 1e-10, 1e-12)


# --- objects and functions passed as arguments (found when the code runs) -------------------
def model_loss(model, x):
    return np.sum(model(x) ** 2)


def cell_loss(cell, xs, h):
    return k.unroll(cell, xs, h)


XS = [np.array([0.1, 0.2]), np.array([-0.3, 0.4]), np.array([0.5, -0.1])]
H0 = np.array([0.5, -0.2])


@pytest.mark.parametrize("f,args,w", [
    (model_loss, (k.MODEL, k.X[:2]), 1),                  # a model's __call__ calling layers
    (cell_loss, (k.Cell(), XS, H0), 2),                   # a method returning a tuple, in a loop
    (c.compose, (c.sq, np.tanh, X), 2),                   # a function and a primitive passed in
])
def test_runtime_callees(f, args, w):
    v = np.random.default_rng(2).normal(size=np.shape(args[w]))
    g = grad(f, wrt=w)

    def at(xw):
        a = list(args)
        a[w] = xw
        return g(*a)

    assert_close(hvp(f, args, v, wrt=w), _fd(at, args[w], v), 1e-5, 1e-7, what=f.__name__)
    ones = np.ones_like(args[w])
    assert_close(grad(grad(f, wrt=w), wrt=w)(*args), hvp(f, args, ones, wrt=w), 1e-9, 1e-11)


# --- keywords to run-time callees --------------------------------------------------------------
def scaled_sin(x, k=1.0):
    return np.sin(x) * k


def with_keyword(f, x):
    return f(x, k=2.0)


def with_active_keyword(f, x):
    return f(x, k=x)


def with_axis(f, x):
    return f(x, axis=0)


def keyword_constant(x):
    return np.sum(with_keyword(scaled_sin, x) ** 2)        # sum(4 sin(x)^2)


def keyword_active(x):
    return np.sum(with_active_keyword(scaled_sin, x))      # sum(x sin(x))


def keyword_primitive(x):
    return np.sum(with_axis(np.sum, np.outer(x, x))) ** 2   # (sum x)^4


@pytest.mark.parametrize("f,hess_diag", [
    (keyword_constant, lambda x: np.diag(8 * np.cos(2 * x))),
    (keyword_active, lambda x: np.diag(2 * np.cos(x) - x * np.sin(x))),
    (keyword_primitive, lambda x: 12 * np.sum(x) ** 2 * np.ones((x.size, x.size))),
], ids=["constant", "active", "primitive"])
def test_keywords_to_runtime_callees(f, hess_diag):
    assert_close(hessian(f)(X), hess_diag(X), 1e-10, 1e-10)
    assert_close(grad(grad(f))(X), hess_diag(X) @ np.ones(3), 1e-10, 1e-10)


# --- bound methods: wrt counts the visible parameters ----------------------------------------
def test_bound_method_gradients_fix_self():
    x = k.V
    want = grad(k.Scaler.loss, wrt=1)(k.SCALER, x)
    assert_close(grad(k.SCALER.loss)(x), want, 1e-12, 1e-12)
    assert_close(grad(grad(k.SCALER.loss))(x), grad(grad(k.Scaler.loss, wrt=1), wrt=1)(k.SCALER, x),
                 1e-12, 1e-12)
    assert_close(hvp(k.SCALER.loss, x, x), hvp(k.Scaler.loss, (k.SCALER, x), x, wrt=1), 1e-12, 1e-12)
    assert_close(jacobian(grad(k.SCALER.loss))(x), hessian(k.SCALER.loss)(x), 1e-10, 1e-12)


# --- a callee with a loop and *args, specialised to the call's shape --------------------------
def looped_varargs(*xs, **kw):
    s = xs[0]
    for i in range(2):
        s = np.sin(s) * xs[1] + kw["shift"]
    return s


def calls_looped_varargs(x, y):
    return np.sum(looped_varargs(x, y * x, shift=y))


def test_looped_varargs_callee():
    y = V * 0.5
    for w in (0, 1):
        g = grad(calls_looped_varargs, wrt=w)
        want = _fd(lambda t: g(*((t, y) if w == 0 else (X, t))), (X, y)[w], V)
        assert_close(hvp(calls_looped_varargs, (X, y), V, wrt=w), want, 1e-5, 1e-7)


# --- what is refused, precisely ---------------------------------------------------------------
def looped_unused_varargs(a, *xs):
    s = a
    for i in range(2):
        s = np.sin(s) * xs[0]
    return s


def calls_looped_unused_varargs(x, y):
    return np.sum(looped_unused_varargs(x, y))


def test_looped_callee_with_inactive_varargs():
    # x binds to `a` and y to *xs: the callee is specialised to the call's shape all the same
    # (its recompute pair needs named parameters), so hvp goes through it
    def f(x):
        return calls_looped_unused_varargs(x, V)
    want = (numeric_grad(f, X + 1e-4 * V, 1e-5) - numeric_grad(f, X - 1e-4 * V, 1e-5)) / 2e-4
    assert_close(hvp(calls_looped_unused_varargs, (X, V), V), want, 1e-5, 1e-6)


def looped_unused_kwargs(a, **kw):
    s = a
    for i in range(2):
        s = np.sin(s) * kw["scale"]
    return s


def calls_looped_unused_kwargs(x, y):
    return np.sum(looped_unused_kwargs(x, scale=y))


def test_looped_callee_with_inactive_kwargs_is_refused():
    # x binds to `a`, so the callee is not specialised and keeps **kw; its recompute pair
    # (a loop's stack cannot be read again across the split pair) needs named parameters
    with pytest.raises(TranspileError, match=r"a loop and \*\*kw"):
        hvp(calls_looped_unused_kwargs, (X, V), V)

def loop_of_two(a, b):
    s = a
    for i in range(2):
        s = s * np.cos(b) + a
    return s


def looped_two(x, y):
    return np.sum(loop_of_two(x, y))


def test_mixed_partials_through_a_looped_callee_are_refused():
    # The gradient wrt x calls loop_of_two's pair with wrt (a,); read again, a pair that hands
    # a loop's stack over is replaced by a recompute pair that holds b constant, so its
    # derivative wrt y (through b) would silently lose terms: refused with a clear error.
    with pytest.raises(TranspileError, match="held constant"):
        grad(grad(looped_two, wrt=0), wrt=1)(X, V)
    first = grad(looped_two, wrt=(0, 1))                   # wrt b in the first gradient: fine
    both = grad(first, wrt=0)                               # d/dx of sum(dx) + sum(dy)

    def total(x):
        return sum(np.sum(g) for g in first(x, V))

    assert_close(both(X, V), np.array([_fd(total, X, e) for e in np.eye(3)]), 1e-6, 1e-8)


def test_third_derivative_through_a_callee_with_a_while_loop():
    # read a third time, the recompute pair of a callee's generated gradient has a parameter
    # named `bout` itself; the pair's own cotangent must not be shadowed by it (it was: a
    # silently wrong third derivative)
    x = np.array([0.00123015, 0.29874554, -0.27413786, -0.89059184])
    g2 = grad(grad(c.c_callee_while))
    eps = 1e-5
    want = np.array([(np.sum(g2(x + eps * e)) - np.sum(g2(x - eps * e))) / (2 * eps) for e in np.eye(4)])
    assert_close(grad(grad(grad(c.c_callee_while)))(x), want, 1e-5, 1e-7)
