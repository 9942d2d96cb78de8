"""What the entry points take as the function and its arguments.

A primitive with a rule (``np.sin``), a ``functools.partial`` and a callable object are
differentiated like the function they stand for; anything else is a TypeError that says what
can be differentiated.  A list argument that numpy reads as an array works as numpy would; a
tangent, ``v`` or cotangent of the wrong shape is a ValueError naming both shapes.
References are analytic or finite differences.
"""

import functools
import math

import numpy as np
import pytest

from tests.fd import assert_close, numeric_grad, numeric_jvp
from transpiler import differentiate, grad, jvp, value_and_grad, vjp
from transpiler.higher import hessian, hvp, jacobian

X = np.array([0.3, -1.2, 0.7])


@pytest.mark.parametrize("prim,ref", [
    (np.sin, np.cos), (np.exp, np.exp), (np.tanh, lambda x: 1 - np.tanh(x) ** 2),
    (math.sin, math.cos), (math.exp, math.exp), (np.sqrt, lambda x: 0.5 / np.sqrt(x)),
])
def test_a_primitive_is_differentiated_through_its_rule(prim, ref):
    assert_close(grad(prim)(0.7), ref(0.7), 1e-12, 1e-12, what=f"grad({prim.__name__})")
    if isinstance(prim, np.ufunc):
        assert_close(grad(lambda x: np.sum(prim(x)))(np.abs(X)), ref(np.abs(X)), 1e-12, 1e-12)
        assert_close(vjp(prim, np.abs(X))[1](np.ones(3)), ref(np.abs(X)), 1e-12, 1e-12)
    assert_close(jvp(prim, (0.7,), (2.0,))[1], 2.0 * ref(0.7), 1e-12, 1e-12, what="jvp")
    assert_close(hvp(prim, 0.7, 1.0), numeric_grad(grad(prim), 0.7), 1e-6, 1e-8, what="hvp")
    assert_close(differentiate(prim).grad(0.7), ref(0.7), 1e-12, 1e-12, what="differentiate")


def test_a_binary_primitive_takes_wrt():
    y, x = 0.4, -0.9
    assert_close(grad(np.arctan2)(y, x), x / (x * x + y * y), 1e-12, 1e-12)
    assert_close(grad(np.arctan2, wrt=1)(y, x), -y / (x * x + y * y), 1e-12, 1e-12)
    assert_close(grad(np.hypot, wrt=(0, 1))(3.0, 4.0), (0.6, 0.8), 1e-12, 1e-12)


def h(x, c=1.0, d=0.0):
    return np.sin(x) * c + d * x


@pytest.mark.parametrize("p,ref", [
    (functools.partial(h, c=2.0), lambda x: 2.0 * np.cos(x)),
    (functools.partial(h, c=2.0, d=3.0), lambda x: 2.0 * np.cos(x) + 3.0),
    (functools.partial(np.multiply, 3.0), lambda x: 3.0 + 0 * x),
])
def test_a_partial_is_its_function_with_the_fixed_arguments(p, ref):
    assert_close(grad(p)(0.5), ref(0.5), 1e-12, 1e-12, what="grad")
    assert_close(value_and_grad(p)(0.5)[1], ref(0.5), 1e-12, 1e-12, what="value_and_grad")
    assert_close(jvp(p, (0.5,), (1.0,))[1], ref(0.5), 1e-12, 1e-12, what="jvp")
    assert_close(hvp(p, 0.5, 1.0), numeric_grad(grad(p), 0.5), 1e-6, 1e-8, what="hvp")
    assert_close(jacobian(p)(X), np.diag(ref(X)), 1e-12, 1e-12, what="jacobian")


def test_a_partial_fixing_a_positional_argument_shifts_wrt():
    def g(a, x):
        return a * x ** 3

    p = functools.partial(g, 2.0)
    assert_close(grad(p)(0.5), 6.0 * 0.25, 1e-12, 1e-12)
    assert_close(grad(p, wrt="x")(0.5), 6.0 * 0.25, 1e-12, 1e-12)
    assert_close(grad(functools.partial(h, d=1.0), wrt="c")(0.5, 2.0), np.sin(0.5), 1e-12, 1e-12)


class Cubic:
    def __init__(self, a):
        self.a = a

    def __call__(self, x):
        return self.a * x ** 3


def test_a_callable_object_is_its_bound_call():
    obj = Cubic(2.0)
    assert_close(grad(obj)(0.5), 1.5, 1e-12, 1e-12)
    assert_close(jvp(obj, (0.5,), (2.0,))[1], 3.0, 1e-12, 1e-12)
    assert_close(vjp(obj, 0.5)[1](1.0), 1.5, 1e-12, 1e-12)
    assert_close(hvp(obj, 0.5, 1.0), 6.0, 1e-12, 1e-12)
    assert_close(hessian(obj)(0.5), 6.0, 1e-12, 1e-12)
    assert_close(differentiate(obj).grad(0.5), 1.5, 1e-12, 1e-12)


@pytest.mark.parametrize("bad", [None, 42, "f", [1, 2], 3.5])
@pytest.mark.parametrize("entry", [grad, value_and_grad, differentiate, hessian, jacobian])
def test_what_is_not_a_function_is_a_clear_type_error(entry, bad):
    if entry is differentiate and bad is None:
        return          # differentiate(None) is differentiate(): the decorator with its defaults
    with pytest.raises(TypeError, match="takes the function to differentiate") as e:
        entry(bad)
    assert type(bad).__name__ in str(e.value)


def test_a_callable_without_source_or_rule_says_to_define_a_rule():
    with pytest.raises(TypeError, match="runtime.rules.define") as e:
        grad(ord)
    assert "ord" in str(e.value)
    with pytest.raises(TypeError, match="takes the function"):
        hvp(None, 0.5, 1.0)
    with pytest.raises(TypeError, match="takes the function"):
        jvp(42, (0.5,), (1.0,))
    with pytest.raises(TypeError, match="takes the function"):
        vjp(None, 0.5)


def summed(x):
    return np.sum(np.sin(x) * x)


LIST = [0.5, -0.3]


def test_a_list_argument_is_read_as_numpy_reads_it():
    f = lambda x: np.sum(np.sin(x) * x)      # noqa: E731  (the case as written)
    want = numeric_grad(lambda a: f(a), np.array(LIST))
    got = grad(f)(LIST)
    assert isinstance(got, list) and len(got) == 2
    assert_close(np.array(got), want, 1e-6, 1e-8, what="grad of a list")
    assert_close(np.array(vjp(summed, LIST)[1](1.0)), want, 1e-6, 1e-8, what="vjp of a list")
    assert_close(jvp(summed, (LIST,), ([1.0, 0.0],))[1], want[0], 1e-6, 1e-8, what="jvp along a list")
    hess = np.stack([numeric_jvp(lambda a: np.array(grad(summed)(list(a))), [np.array(LIST)], [e])
                     for e in np.eye(2)], axis=1)
    assert_close(hvp(f, LIST, [1.0, 0.0]), hess[:, 0], 1e-5, 1e-7, what="hvp with list primal and v")
    assert_close(hvp(summed, (LIST,), np.array([0.0, 1.0])), hess[:, 1], 1e-5, 1e-7, what="hvp, tuple")


def two(x, y):
    return np.sum(x * y ** 2)


def test_hvp_reads_a_tuple_as_the_arguments_and_anything_else_as_one():
    y = np.array([1.0, 2.0, 3.0])
    assert_close(hvp(two, (X, y), y, wrt=1), 2 * X * y, 1e-12, 1e-12)
    assert_close(hvp(summed, X, np.ones(3)), numeric_jvp(grad(summed), [X], [np.ones(3)]), 1e-5, 1e-7)


@pytest.mark.parametrize("call,words", [
    (lambda: hvp(summed, X, 1.0), "v (a direction for `x`) has shape (), but `x` has shape (3,)"),
    (lambda: hvp(summed, X, np.ones(2)), "shape (2,), but `x` has shape (3,)"),
    (lambda: hvp(summed, 0.5, X), "shape (3,), but `x` has shape ()"),
    (lambda: jvp(summed, (X,), (np.ones(2),)), "the tangent of `x` has shape (2,), but `x` has shape (3,)"),
    (lambda: vjp(np.sin, X)[1](np.ones(2)), "the cotangent has shape (2,), but the value has shape (3,)"),
])
def test_a_direction_of_the_wrong_shape_names_both_shapes(call, words):
    with pytest.raises(ValueError) as e:
        call()
    assert words in str(e.value)


@differentiate(mode="forward")
def fw(x, y):
    return x * y + np.sin(x)


@differentiate(mode="forward", wrt=0)
def fw0(x, y):
    return x * y + np.sin(x)


def test_forward_mode_jvp_takes_one_tangent_per_argument():
    value, d = fw.jvp((1.0, 2.0), (1.0, 0.5))
    assert_close(value, 2.0 + np.sin(1.0), 1e-12, 1e-12)
    assert_close(d, numeric_jvp(fw, [1.0, 2.0], [1.0, 0.5]), 1e-6, 1e-8, what="both tangents")
    assert_close(fw.jvp((1.0, 2.0), (1.0,))[1], 2.0 + np.cos(1.0), 1e-12, 1e-12, what="wrt=0 only")


def test_jvp_with_tangents_for_other_arguments_says_what_to_pass():
    with pytest.raises(ValueError) as e:
        fw0.jvp((1.0, 2.0), (1.0, 0.5))
    assert "2 tangent(s) given" in str(e.value) and "(x)" in str(e.value) and "(dx,)" in str(e.value)


def tuple_out(x):
    return [x, [x * 2.0, 2.0]], {"a": np.sum(x)}


def dict_out(x):
    return {"a": x * 3.0, "b": np.sum(x)}


def test_structured_outputs_get_a_seed_of_ones_in_their_structure():
    assert_close(grad(tuple_out)(X), np.full(3, 4.0), 1e-12, 1e-12, what="nested list and dict in a tuple")
    assert_close(grad(dict_out)(X), np.full(3, 4.0), 1e-12, 1e-12, what="dict")
    assert_close(vjp(dict_out, X)[1](), np.full(3, 4.0), 1e-12, 1e-12, what="vjp of a dict")


def test_jacobian_of_several_outputs_says_it_needs_one():
    with pytest.raises(TypeError, match="returns a tuple, and a Jacobian needs one array"):
        jacobian(lambda x: (np.sin(x), x))(X)
