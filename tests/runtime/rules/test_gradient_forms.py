"""np.gradient in every form, in both halves, against finite differences of numpy's np.gradient.

The rule covered one axis (or a 1-d array), a scalar spacing and edge_order=1 and refused the rest
(autograd's test_gradient: n-d arrays with axis=None and tuples of axes).  Now: every axis form,
one scalar spacing or one per axis, coordinate arrays, edge_order 1 and 2; several axes give a tuple.
A scalar spacing is differentiated too (the result is divided by it); coordinate arrays are refused.
"""

import numpy as np
import pytest

import runtime as tf
import transpiler
from tests import halves

RNG = np.random.default_rng(11)
ENV = {"C5": np.cumsum(RNG.uniform(0.4, 1.2, 5)), "C4": np.cumsum(RNG.uniform(0.4, 1.2, 4)),
       "C9": np.cumsum(RNG.uniform(0.4, 1.2, 9))}

FORMS = [
    ((9,), ""), ((9,), ", 0.3"), ((9,), ", edge_order=2"), ((9,), ", C9, edge_order=2"),
    ((6, 5), ""), ((6, 5), ", 0.5, 2.0"), ((6, 5), ", axis=1"), ((6, 5), ", axis=-2, edge_order=2"),
    ((3, 5, 4), ""), ((3, 5, 4), ", axis=(0, 1)"), ((3, 5, 4), ", axis=(0, -1)"), ((3, 5, 4), ", axis=None"),
    ((3, 5, 4), ", 0.7, C5, C4, edge_order=2"), ((3, 5, 4), ", C5, axis=1"),
    ((3, 5, 4), ", 2.0, axis=(2, 1)"), ((2, 3), ""), ((3,), ", edge_order=2"),
]


def _expression(call, x):
    """A nonlinear scalar of every part of ``call``'s result (a tuple for several axes)."""
    out = eval(call, {"np": np, "x": x, **ENV})
    if not isinstance(out, tuple):
        return f"{call} ** 2"
    return " + ".join(f"{call}[{i}] ** 2 * {i + 1.0}" for i in range(len(out)))


@pytest.mark.parametrize("shape, arguments", FORMS, ids=[f"{s}{a}" for s, a in FORMS])
def test_every_form_in_both_halves(shape, arguments):
    x = RNG.standard_normal(shape)
    call = f"np.gradient(x{arguments})"
    f = halves.function(_expression(call, x), "x", [x], env=ENV)
    halves.check(f, [x], what=call)


@pytest.mark.parametrize("shape, arguments", [((7,), "x, h"), ((4, 5), "x, h"), ((4, 5), "x, 0.5, h"),
                                              ((4, 5), "x, h, axis=0"), ((3, 4, 5), "x, h, axis=(0, 2)")])
def test_a_scalar_spacing_is_differentiated(shape, arguments):
    x = RNG.standard_normal(shape)
    call = f"np.gradient({arguments})"
    f = halves.function(_expression(call.replace("h", "0.8"), x).replace("0.8", "h"), "h, x", [0.8, x])
    halves.check(f, [np.float64(0.8), x], argnums=(0,), what=call)


def with_coordinates(c, x):
    return np.sum(np.gradient(x, c) ** 2)


def test_coordinate_arrays_are_refused_not_cut():
    x, c = RNG.standard_normal(5), ENV["C5"]
    with pytest.raises((NotImplementedError, transpiler.TranspileError), match="coordinate arrays"):
        transpiler.grad(with_coordinates)(c, x)
    ct = tf.constant(c)
    with pytest.raises(NotImplementedError, match="coordinate arrays"):
        with tf.GradientTape() as tape:
            tape.watch(ct)
            y = with_coordinates(ct, x)
        tape.gradient(y, ct)
