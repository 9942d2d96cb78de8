"""`+` and `*` on lists and tuples the transpiler cannot see as literals: concatenation and
repetition.  Literal ones (``[a] + [b]``) are rewritten by the front end (test_everyday.py).  For
the rest the reverse sweep cannot tell which slots of the result came from which operand, so it
must refuse -- these used to return wrong gradients with no error -- and forward mode must either
be right or refuse.  Also ``tuple(...)``/``list(...)`` of containers of differentiable values."""

import numpy as np
import pytest

from tests.fd import assert_close, numeric_grad
from transpiler import grad, jvp

X = np.array([1.0, 2.0, 3.0])


def comprehension_plus_literal(x):
    a = [v * 2.0 for v in x]
    b = a + [x[0]]
    return b[0] * b[3]


def names_plus_names(x):
    a = [x[0], x[1]]
    c = [x[2]]
    b = a + c
    return b[0] * b[2]


def tuples_plus_tuples(x):
    a = (x[0], x[1])
    c = (x[2],)
    b = a + c
    return b[0] * b[2]


def first_slot_only(x):
    a = [x[0], x[1]]
    c = [x[2]]
    b = a + c
    return b[0] * 3.0


def constant_in_front(x):
    a = [x[0], x[1]]
    b = [5.0] + a
    return b[1] * 2.0


def tuple_of_generator_plus_tuple(x):
    a = tuple(v * 1.0 for v in x)
    b = (5.0,) + a
    return b[1] * 2.0


def repetition(x):
    a = [v for v in x]
    b = a * 2
    return b[0] * b[4]


CONCATENATIONS = [comprehension_plus_literal, names_plus_names, tuples_plus_tuples, first_slot_only,
                  constant_in_front, tuple_of_generator_plus_tuple, repetition]


@pytest.mark.parametrize("f", CONCATENATIONS, ids=lambda f: f.__name__)
def test_reverse_is_right_or_refuses(f):
    # joins of local lists assigned whole (`b = a + [v]`, `b = a * 2`) are written as appends
    # (frontend/list_joins.py, tests/transpiler/test_list_positions.py); the rest must refuse
    try:
        got = grad(f)(X)
    except TypeError as e:
        assert "concatenation" in str(e)
        return
    assert_close(got, numeric_grad(f, X), what=f.__name__)


@pytest.mark.parametrize("f", CONCATENATIONS, ids=lambda f: f.__name__)
def test_forward_is_right_or_refuses(f):
    want = numeric_grad(f, X)
    for i in range(3):
        try:
            _, got = jvp(f, (X,), (np.eye(3)[i],))
        except TypeError as e:
            assert "concatenation" in str(e)
            continue
        assert_close(got, want[i], what=f"{f.__name__} along e{i}")


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
    t = np.array([0.3, -1.1, 0.7])
    _, got = jvp(f, (X,), (t,))
    assert_close(got, want @ t, what=f"forward {f.__name__}")


def test_tuple_of_a_generator_is_a_tuple():
    """`tuple(<generator>) + (n,)` is tuple concatenation of integers (a shape), not an error."""
    x = np.arange(6.0).reshape(2, 3) / 7.0
    assert_close(grad(tuple_of_generator_as_shape)(x), numeric_grad(tuple_of_generator_as_shape, x))
