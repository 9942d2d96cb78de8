"""`+` and `*` on lists and tuples (concatenation, repetition), their slices, and `|` on dicts,
where the operands are names, call results or arguments rather than literals (literal ones,
``[a] + [b]``, the front end joins: frontend/containers/test_lists_and_dicts.py).

``frontend/aliasing.sequence_operators`` writes them as ``concat``/``repeat``/``take``/``merge``
(runtime/rules/containers.py), whose cotangent gives each operand its own run of the result's
slots (or, for a dict, the keys whose value came from it).  These used to raise a TypeError
(or NotImplementedError, for a slice) when the gradient ran, or -- for ``a + a``, a list returned
by a callee, ``d |= {...}`` -- to return a wrong gradient with no error.  Each is checked against central finite differences in
reverse and forward mode and to second order (hvp, grad of grad).
"""

import numpy as np
import pytest

from runtime.rules.containers import (Grads, concat_part, concat_part_vjp_g, repeat_part, repeat_part_vjp_g,
                                      take_part, take_part_vjp_g)
from runtime.rules.support import _slots
from tests.fd import assert_close, numeric_grad
from transpiler import grad, jvp
from transpiler.higher import hvp

X = np.array([0.7, -1.3, 1.1, 0.4])


def comprehension_plus_literal(x):
    a = [v * 2.0 for v in x]
    b = a + [x[0]]
    return b[0] * b[4] + b[1] * b[3]


def names_plus_names(x):
    a = [x[0], x[1]]
    c = [x[2] * x[3]]
    b = a + c
    return b[0] * b[2] + b[1]


def tuples_plus_tuples(x):
    a = (x[0], x[1])
    c = (x[2],)
    b = a + c
    return b[0] * b[2] + np.sin(b[1])


def tuple_unpacked(x):
    a = (x[0], x[1])
    p, q, r = a + (x[2] * 2.0,)
    return p * r + q ** 2


def constant_in_front(x):
    a = [x[0], x[1]]
    b = [5.0] + a
    return b[1] * 2.0 + b[2] * b[0]


def constant_name_in_front(x):
    c = [1.0, 2.0]
    b = c + [x[2] * 3.0, x[0]]
    return b[2] * b[3] + b[0] * b[1]


def tuple_of_generator_plus_tuple(x):
    a = tuple(v * 1.0 for v in x)
    b = (5.0,) + a
    return b[1] * 2.0 + b[4] ** 2


def list_plus_itself(x):
    a = [x[0], x[1] * x[2]]
    b = a + a
    return b[0] * b[3] + b[1]


def negative_indices(x):
    a = [x[0]]
    b = a + [x[1] * 3.0, x[2]]
    return b[-1] * b[-2] + b[-3]


def summed_and_iterated(x):
    a = [x[0], x[1]]
    b = a + [x[2] * 3.0]
    s = sum(b) * x[3]
    for v in b:
        s = s + v * v
    return s


def accumulated_in_a_loop(x):
    acc = []
    for v in x:
        acc = acc + [v * v]
    return acc[0] * acc[3] + acc[1] - acc[2]


def augmented(x):
    a = [x[0], x[1]]
    c = [x[2] * 2.0]
    a += c
    return a[0] * a[2] + a[1]


def arrays_in_lists(x):
    a = [x[:2]]
    b = a + [x[2:] * 2.0]
    return np.sum(b[0] * b[1]) + np.sum(np.stack(b) ** 2)


def lists_in_a_dict(x):
    d = {"p": [x[0]], "q": [x[1] * 2.0]}
    b = d["p"] + d["q"]
    return b[0] * b[1]


def repetition(x):
    a = [x[0], x[1] * 2.0]
    b = a * 3
    return b[0] * b[3] + b[5]


def repetition_on_the_left(x):
    a = [v for v in x]
    b = 2 * a
    return b[0] * b[7] + sum(b)


def tuple_repetition(x):
    t = (x[0], x[1] * 2.0) * 2
    return t[0] * t[3]


def _pair(x):
    return [x[0] * 2.0, x[1]]


def _squares(x):
    out = []
    for v in x:
        out.append(v * v)
    return out


def callee_lists(x):
    a = _pair(x)
    b = a + _squares(x)
    return b[0] * b[3] + b[1] * b[5]


def callee_list_plus_itself(x):
    a = _pair(x)
    b = a + a
    return b[0] * b[3] + b[1]


def callee_list_repeated(x):
    b = _pair(x) * 2
    return b[0] * b[3]


def callee_list_read(x):
    """A list returned by a callee: its gradient used to be zero (the callee's adjoint dropped it)."""
    a = _pair(x)
    return a[0] * a[1]


def dict_or_equals(x):
    d = {"a": x[0]}
    d |= {"b": x[1], "a": x[2]}
    return d["a"] * d["b"]


def dict_or(x):
    d = {"a": x[0], "b": x[3]}
    e = d | {"b": x[1] * 2.0}
    return e["a"] * e["b"] + d["b"]


def _dict_of(x):
    return {"a": x[0], "b": x[1] * 2.0}


def callee_dicts_or(x):
    m = _dict_of(x) | _dict_of(x * 3.0)
    return m["a"] * m["b"]


def _four(x):
    return [x[0], x[1] * 2.0, x[2], x[3] ** 2]


def slice_of_callee_list(x):
    l = _four(x)
    m = l[1:]
    return m[0] * m[2] + l[0] + sum(l[-3:-1])


def reversed_slice(x):
    l = _four(x)
    m = l[::-2]
    return m[0] * m[1]


def reversed_local_list(x):
    l = [x[0], x[1], x[2]]
    s = 0.0
    for v in reversed(l):
        s = s * 0.5 + v * v
    return s


def tuple_slice(x):
    t = (x[0], x[1] * 2.0, x[2])
    u = t[1:] + t[:1]
    return u[0] * u[1] + u[2]


CASES = [comprehension_plus_literal, names_plus_names, tuples_plus_tuples, tuple_unpacked, constant_in_front,
         constant_name_in_front, tuple_of_generator_plus_tuple, list_plus_itself, negative_indices,
         summed_and_iterated, accumulated_in_a_loop, augmented, arrays_in_lists, lists_in_a_dict, repetition,
         repetition_on_the_left, tuple_repetition, callee_lists, callee_list_plus_itself, callee_list_repeated,
         callee_list_read, dict_or_equals, dict_or, callee_dicts_or, slice_of_callee_list, reversed_slice,
         reversed_local_list, tuple_slice]


@pytest.mark.parametrize("f", CASES, ids=lambda f: f.__name__)
def test_reverse(f):
    assert_close(grad(f)(X.copy()), numeric_grad(f, X), what=f.__name__)


@pytest.mark.parametrize("f", CASES, ids=lambda f: f.__name__)
def test_forward(f):
    t = np.array([0.5, -1.0, 0.25, 2.0])
    _, got = jvp(f, (X.copy(),), (t,))
    assert_close(got, numeric_grad(f, X) @ t, what=f.__name__)


@pytest.mark.parametrize("f", CASES, ids=lambda f: f.__name__)
def test_hvp(f):
    """Forward over reverse, against central differences of the (checked) gradient."""
    t, eps = np.array([0.3, 0.8, -0.6, 1.2]), 1e-5
    g = grad(f)
    want = (np.asarray(g(X + eps * t)) - np.asarray(g(X - eps * t))) / (2 * eps)
    assert_close(hvp(f, X.copy(), t), want, rtol=1e-4, atol=1e-6, what=f.__name__)


@pytest.mark.parametrize("f", [names_plus_names, list_plus_itself, repetition, dict_or], ids=lambda f: f.__name__)
def test_grad_of_grad(f):
    """Reverse over reverse: grad(grad(f)) seeds the gradient with ones, so it gives H @ ones,
    against central differences of the gradient along ones."""
    eps, ones = 1e-5, np.ones(4)
    want = (np.asarray(grad(f)(X + eps * ones)) - np.asarray(grad(f)(X - eps * ones))) / (2 * eps)
    assert_close(grad(grad(f))(X.copy()), want, rtol=1e-4, atol=1e-6, what=f.__name__)


def argument_plus_itself(xs):
    b = xs + xs
    return b[0] * b[3] + b[1]


def argument_dicts_merged(p, q):
    m = p | q
    return m["a"] * m["b"] + q["b"]


def test_argument_lists_and_dicts():
    """Arguments are lists or dicts only at run time: `xs + xs` (the reverse sweep once took both
    operands for one array) and `p | q` (once a bitwise or, passing no derivative) are modelled."""
    xs = [np.float64(0.5), np.float64(2.0)]
    got = grad(argument_plus_itself)(xs)
    assert_close(np.array(got), [xs[1], xs[0] + 1.0])                    # b = [x0, x1, x0, x1]
    p, q = {"a": np.float64(0.5), "b": np.float64(2.0)}, {"b": np.float64(1.5)}
    gp, gq = grad(argument_dicts_merged, wrt=(0, 1))(p, q)
    assert_close(gp["a"], q["b"]) and assert_close(gp["b"], 0.0)
    assert_close(gq["b"], p["a"] + 1.0)
    _, d = jvp(argument_dicts_merged, (p, q), ({"a": 1.0, "b": 1.0}, {"b": 0.0}))
    assert_close(d, q["b"])


def masks(x):
    return x > 0.0, x < -0.5


def mask_or(x):
    a, b = masks(x)
    return np.sum(np.where(a | b, x ** 2, x)) + np.sum(np.where((x > 1.0) | (x < -1.0), x, 0.0))


def test_or_of_masks_stays_an_or():
    assert_close(grad(mask_or)(X.copy()), numeric_grad(mask_or, X))


def test_parts_are_transposes():
    """<concat_part(g), h> == <g, concat_part_vjp_g(h)>, and the same for repeat_part and take_part:
    the rules second derivatives read are each other's adjoints."""
    rng = np.random.default_rng(3)
    a, b = [1.0, 2.0], [3.0, 4.0, 5.0]

    def dot(u, v):
        pv = dict(_slots(v))
        return sum(float(np.vdot(w, pv[k])) for k, w in _slots(u) if k in pv)

    g = Grads({i: rng.normal() for i in range(5)})
    for right in (False, True):
        h = Grads({i: rng.normal() for i in range(len(b if right else a))})
        assert np.isclose(dot(concat_part(g, a, b, right), h), dot(g, concat_part_vjp_g(h, None, g, a, b, right)))
    g6 = Grads({i: rng.normal() for i in range(6)})
    h = Grads({0: rng.normal(), 1: rng.normal()})
    assert np.isclose(dot(repeat_part(g6, a, 3), h), dot(g6, repeat_part_vjp_g(h, None, g6, a, 3)))
    x = [1.0, 2.0, 3.0, 4.0, 5.0]
    for bounds in [(1, None, None), (None, None, -2), (-3, -1, None)]:
        n = len(x[slice(*bounds)])
        g = Grads({i: rng.normal() for i in range(n)})
        h = Grads({i: rng.normal() for i in range(5)})
        assert np.isclose(dot(take_part(g, x, *bounds), h), dot(g, take_part_vjp_g(h, None, g, x, *bounds)))


def tuple_of_list(x):
    items = [x[0] * x[1], x[2]]
    t = tuple(items)
    return t[0] * t[1] + t[-1]


def tuple_of_generator_as_shape(x):
    s = x.shape
    moved = tuple(d for i, d in enumerate(s) if i != 0) + (s[0],)
    return np.sum(np.sin(x.reshape(moved)) ** 2)


def list_of_tuple(x):
    t = (x[0], x[1] * 2.0)
    items = list(t)
    return items[0] * items[1]


@pytest.mark.parametrize("f", [tuple_of_list, list_of_tuple], ids=lambda f: f.__name__)
def test_tuple_and_list_of_a_container(f):
    want = numeric_grad(f, X)
    assert_close(grad(f)(X), want, what=f"reverse {f.__name__}")
    t = np.array([0.3, -1.1, 0.7, 0.2])
    _, got = jvp(f, (X,), (t,))
    assert_close(got, want @ t, what=f"forward {f.__name__}")


def test_tuple_of_a_generator_is_a_tuple():
    """`tuple(<generator>) + (n,)` is tuple concatenation of integers (a shape), not an error."""
    x = np.arange(6.0).reshape(2, 3) / 7.0
    assert_close(grad(tuple_of_generator_as_shape)(x), numeric_grad(tuple_of_generator_as_shape, x))
