"""A call through a module whose attribute is named like a list method (``np.append``,
``np.insert``) is a function call, not a mutation of a variable called ``np``: inside a loop it
used to make ``np`` a loop-carried value set to None, and the gradient came out zero."""

import numpy as np

from tests.fd import assert_close, numeric_grad
from transpiler import grad, jvp


def append_in_loop(x):
    y = np.array([])
    for v in x:
        y = np.append(y, v * 2.0)
    return np.sum(y ** 2)


def append_to_a_prefix_in_loop(x):
    acc = np.zeros(3)
    for i in range(3):
        acc = np.append(acc[:i], np.sin(x[i]) ** 2)
    return np.sum(acc * np.arange(1.0, 4.0))


def test_np_append_in_a_loop():
    x = np.array([0.4, -1.2, 0.9])
    for f in (append_in_loop, append_to_a_prefix_in_loop):
        want = numeric_grad(f, x)
        assert_close(grad(f)(x), want, what=f"reverse {f.__name__}")
        t = np.array([1.0, 0.3, -0.5])
        assert_close(jvp(f, (x,), (t,))[1], want @ t, what=f"forward {f.__name__}")
