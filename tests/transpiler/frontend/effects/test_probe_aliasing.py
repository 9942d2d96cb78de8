"""Silent wrong gradients found by probing everyday code, each now modelled or refused at the
user's line (issue 11 section 2).  Every case here returned a wrong number with no error before.

* a function of yours that returns its argument (or a part or view of it): ``m = ident(l)``
  then a write through ``m`` or ``l`` changes both in Python, while adjoin gave ``m`` a new
  value -- now both names are shared, so the write is refused;
* a function returning a list (``return [a, b]``): the list was taken for a tuple of outputs of
  which none was returned, so its gradient was zero -- now it is one value with a container
  cotangent, in a callee and at the top level;
* a dict walked by enumerate, zip, max, min, sum, list, tuple: its keys (the values were taken);
* a named list of tuples passed to a function (`np.array(rows)`): the inner values got nothing.

Concatenation and dict merges are in test_concatenation.py.
"""

import numpy as np
import pytest

from tests.fd import assert_close, numeric_grad, numeric_vjp
from transpiler import TranspileError, grad, jvp
from transpiler.higher import hvp

X = np.array([0.3, -0.7, 1.1, 0.45])


def ident(v):
    return v


def first(v):
    return v[0]


def pick(a, b, c):
    return b if c > 0 else a


def transposed(v):
    return v.T


def list_written_through_result(x):
    l = [x[0], x[1]]
    m = ident(l)
    m[0] = x[2] * 3.0
    return l[0] * l[1]


def array_written_through_result(x):
    y = x * 1.0
    z = ident(y)
    z[0] = x[2] * 3.0
    return np.sum(y ** 2)


def array_written_through_argument(x):
    y = x * 1.0
    z = ident(y)
    y[0] = x[2] * 3.0
    return np.sum(z ** 2)


def inner_list_of_argument(x):
    g = [[x[0], x[1]], [x[2]]]
    r = first(g)
    r[0] = x[3] * 2.0
    return g[0][0] * g[0][1]


def one_of_two_arguments(x):
    a = x * 1.0
    b = x * 2.0
    c = pick(a, b, 1.0)
    c[0] = 5.0
    return np.sum(b ** 2)


def view_of_argument(x):
    A = x.reshape(2, 2) * 1.0
    B = transposed(A)
    B[0, 1] = 5.0 * x[0]
    return np.sum(A ** 2)


@pytest.mark.parametrize("f", [list_written_through_result, array_written_through_result,
                               array_written_through_argument, inner_list_of_argument, one_of_two_arguments,
                               view_of_argument], ids=lambda f: f.__name__)
def test_write_through_a_returned_argument_is_refused(f):
    for mode in ("reverse", "forward"):
        with pytest.raises(TranspileError) as e:
            grad(f)(X.copy()) if mode == "reverse" else jvp(f, (X.copy(),), (X,))
        assert "test_probe_aliasing.py" in str(e.value), str(e.value)      # located at the user's line


def returned_argument_only_read(x):
    y = x * 1.0
    z = ident(y)
    return np.sum(z * y) + first(z) * 2.0


def test_returned_argument_read_only_still_works():
    assert_close(grad(returned_argument_only_read)(X.copy()), numeric_grad(returned_argument_only_read, X))


def _pair(x):
    return [x[0] * 2.0, x[1] * x[2]]


def _named_pair(x):
    out = [x[0] * 2.0, x[1]]
    return out


def _squares(x):
    out = []
    for v in x:
        out.append(v * v)
    return out


def _scalar_and_list(x):
    return x[0] * 3.0, [x[1] * x[0], x[2]]


def callee_list(x):
    a = _pair(x)
    return a[0] * a[1] + np.sin(a[1])


def callee_named_list(x):
    a = _named_pair(x)
    return a[0] * a[1]


def callee_appended_list(x):
    return sum(_squares(x)) * x[0]


def callee_tuple_holding_a_list(x):
    s, l = _scalar_and_list(x)
    return s * l[0] + l[1]


CALLEES = [callee_list, callee_named_list, callee_appended_list, callee_tuple_holding_a_list]


def _reverse_forward_hvp(f, second=True):
    """grad and jvp of ``f`` at X against central differences; hvp against differences of grad."""
    want = numeric_grad(f, X)
    assert_close(grad(f)(X.copy()), want, what=f"reverse {f.__name__}")
    t = np.array([0.5, -1.0, 0.25, 2.0])
    assert_close(jvp(f, (X.copy(),), (t,))[1], want @ t, what=f"forward {f.__name__}")
    if second:
        eps, g = 1e-5, grad(f)
        h = (np.asarray(g(X + eps * t)) - np.asarray(g(X - eps * t))) / (2 * eps)
        assert_close(hvp(f, X.copy(), t), h, rtol=1e-4, atol=1e-6, what=f"hvp {f.__name__}")


@pytest.mark.parametrize("f", CALLEES, ids=lambda f: f.__name__)
def test_callee_returning_a_list(f):
    _reverse_forward_hvp(f)


def returns_a_list(x):
    return [x[0] * 2.0, x[1] * x[0]]


def test_top_level_list_output():
    """grad of a function returning a list: the seed is one cotangent per item."""
    x = X[:2].copy()
    for seed in ([1.0, 0.0], [0.0, 1.0], [0.5, -2.0]):
        want = numeric_vjp(lambda v: np.array(returns_a_list(v)), [x], 0, np.array(seed))
        assert_close(grad(returns_a_list)(x, seed), want, what=f"seed {seed}")
    _, d = jvp(returns_a_list, (x,), (np.array([1.0, 0.0]),))
    assert_close(np.array(d, dtype=float), [2.0, x[1]])


# --- a dict walked by enumerate, zip, max, min, sum, list, tuple: its keys, never its values --------
# (int keys make the values' positions and the keys coincide: the values' gradients were returned
# for the keys, or the keys read as values)

def enumerate_dict_keys(x):
    d = {1: x[0], 0: x[1]}
    s = 0.0
    for i, k in enumerate(d):
        s = s + k * (i + 1.0) * x[2] + d[k] * i
    return s


def zip_dict(x):
    d = {1: x[0], 0: x[1]}
    s = 0.0
    for k, v in zip(d, [x[2], x[3]]):
        s = s + d[k] * v
    return s


def _walk(d):
    s = 0.0
    for i, k in enumerate(d):
        s = s + d[k] * (i + 1.0)
    return s


def enumerate_dict_argument(x):
    return _walk({1: x[0], 0: x[1]})


def max_min_sum_of_dict(x):
    d = {1: x[0], 0: x[1] * 2.0}
    return max(d) * x[0] + min(d) * x[1] + sum(d) * x[2] + d[0]


def keys_as_list_and_tuple(x):
    d = {1: x[0], 0: x[1]}
    ks, kt = list(d), tuple(d)
    return ks[0] * x[2] + kt[1] * x[3] + d[0] * d[1]


DICT_WALKS = [enumerate_dict_keys, zip_dict, enumerate_dict_argument, max_min_sum_of_dict, keys_as_list_and_tuple]


@pytest.mark.parametrize("f", DICT_WALKS, ids=lambda f: f.__name__)
def test_dict_walked_by_its_keys(f):
    _reverse_forward_hvp(f, second=f is not max_min_sum_of_dict)   # (max/min have no second-order rule)


# --- a named list of tuples passed to a function: the front end passes its (nested) literal, whose
# inner tuples' values got no gradient (np.array(rows) had gradient zero) ------------------------

def array_of_named_rows(x):
    rows = [(x[0], x[1] * 2.0), (x[2], x[3])]
    A = np.array(rows)
    return np.sum(A ** 2) + A[0, 1] * A[1, 0]


def array_of_named_nested_lists(x):
    rows = [[x[0], x[1] * 2.0], [x[2], x[3]]]
    return np.sum(np.array(rows) ** 3)


def dict_of_named_pairs(x):
    pairs = [("p", x[0] * x[1]), ("q", x[2]), ("p", x[3] * 3.0)]
    d = dict(pairs)
    return d["p"] * d["q"]


def dict_copied_then_merged(x):
    d1 = {"p": x[0] * x[0], "q": [x[1], x[2]]}
    d4 = dict(d1)
    d4 |= {"p": x[3] * x[0]}
    return d4["p"] * d4["q"][1] + d1["p"]


NESTED = [array_of_named_rows, array_of_named_nested_lists, dict_of_named_pairs, dict_copied_then_merged]


@pytest.mark.parametrize("f", NESTED, ids=lambda f: f.__name__)
def test_named_nested_literal_arguments(f):
    _reverse_forward_hvp(f)
