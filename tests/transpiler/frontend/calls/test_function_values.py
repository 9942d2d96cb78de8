"""Functions as values (frontend/calls/nested.py): a callee that hands out a nested function or a lambda,
alone or in a tuple with other values (autograd's ``flat, unflatten = flatten(params)``), called later,
kept in a tuple and called through it; ``grad(g)(x)`` called directly inside differentiated code and
functions that call ``grad`` differentiated again; ``functools.partial`` objects and callable objects as
callees.  A handed-out function used as a value (returned from the differentiated function, an operand)
is refused, located.

Every function in ``CASES`` is also swept by tests/transpiler/corpus.py through forward mode (test_forward.py)
and second order (test_higher.py).
"""

import functools

import numpy as np
import pytest

from tests.transpiler.checks import check
from transpiler import TranspileError, differentiate, grad

V = np.array([0.3, -0.7, 1.2, 0.5])
P = np.array([0.4, -0.2, 0.9, 0.1, -0.6, 0.3])


def flatten(parts):
    """A list of arrays as one vector, and the function that rebuilds the list from a vector."""
    flat = np.concatenate([np.ravel(p) for p in parts])
    shapes = [np.shape(p) for p in parts]

    def unflatten(v):
        out = []
        at = 0
        for s in shapes:
            n = int(np.prod(s))
            out.append(np.reshape(v[at:at + n], s))
            at = at + n
        return out

    return flat, unflatten


def make_pair(a):
    return a * 2.0, lambda v: v * a


def make_two(a, b):
    def scale(v):
        return v * a

    def shift(v):
        return v + b

    return scale, shift


def with_norm(v):
    n = np.sqrt(np.sum(v * v))
    return n, lambda w: w / n


def loglike(w):
    return np.sum(np.sin(w) * w)


def _affine(v, a, b=1.0):
    return v * a + b


class Poly:
    def __init__(self, c):
        self.c = c

    def __call__(self, v):
        return self.c * v * v


P2 = Poly(2.0)


def fv_flatten_unflatten(x):
    W = np.reshape(x[:4], (2, 2))
    b = x[4:]
    flat, unflatten = flatten([W, b])
    W2, b2 = unflatten(flat * 2.0)
    return np.sum(np.tanh(W2 @ b2)) + np.sum(flat * flat)


def fv_unflatten_twice(x):
    flat, unflatten = flatten([x[:2], np.reshape(x[2:], (2, 2))])
    a, m = unflatten(np.sin(flat))
    c, n = unflatten(flat * flat)
    return np.sum(m @ a) + np.sum(n * c[0])


def fv_flatten_value_only(x):
    flat, _ = flatten([x[:3], x[3:] * 2.0])
    return np.dot(flat, flat)


def fv_lambda_in_tuple(x):
    y, f = make_pair(x)
    return np.sum(f(y) + f(x))


def fv_kept_tuple(x):
    parts = make_pair(x)
    return np.sum(parts[1](parts[0]))


def fv_two_closures(x):
    scale, shift = make_two(x[0], x[1])
    return np.sum(shift(scale(x)) * x)


def fv_closure_over_computed(x):
    n, normalise = with_norm(x)
    return np.sum(normalise(x) * np.exp(x)) + n


def fv_handed_out_in_loop_body(x):
    y, f = make_pair(x[0])
    s = 0.0
    for i in range(3):
        s = s + f(x[i]) * y
    return s


def fv_grad_called_directly(x):
    return np.sum(grad(loglike)(x) * x)


def fv_grad_bound(x):
    g = grad(loglike)
    return np.sum(g(x * 2.0))


def _uses_grad(v):
    return np.sum(grad(loglike)(v) ** 2)


def fv_grad_of_function_calling_grad(x):
    return _uses_grad(x) * 1.5


def fv_partial_callee(x):
    h = functools.partial(_affine, a=2.0)
    return np.sum(h(x) * x)


def fv_partial_of_active(x):
    h = functools.partial(_affine, b=x[0])
    return np.sum(h(x, 3.0))


def fv_global_callable_object(x):
    return np.sum(P2(x) * x)


def fv_callable_made_here(x):
    p = Poly(x[1])
    return np.sum(p(x))


CASES = [(f, (P if f in (fv_flatten_unflatten, fv_unflatten_twice, fv_flatten_value_only) else V,), 0) for f in (
    fv_flatten_unflatten, fv_unflatten_twice, fv_flatten_value_only, fv_lambda_in_tuple, fv_kept_tuple,
    fv_two_closures, fv_closure_over_computed, fv_handed_out_in_loop_body, fv_grad_called_directly, fv_grad_bound,
    fv_grad_of_function_calling_grad, fv_partial_callee, fv_partial_of_active, fv_global_callable_object,
    fv_callable_made_here)]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)


def rf_returned(x):
    y, f = make_pair(x)
    return f


def rf_operand(x):
    y, f = make_pair(x)
    return np.sum(y) + f


@pytest.mark.parametrize("fn", [rf_returned, rf_operand])
@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_handed_out_function_as_a_value_is_refused(fn, mode):
    with pytest.raises(TranspileError, match="used as a value") as info:
        d = differentiate(fn, mode=mode)
        d.grad(V) if mode == "reverse" else d.jvp((V,), (np.ones(4),))
    assert info.value.filename == __file__ and info.value.hint
