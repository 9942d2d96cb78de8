"""Differentiable values passed to numpy functions by keyword (``np.average(x, weights=w)``): each keyword
is bound to the parameter of the same name in the function's derivative rules and differentiated like a
positional argument, in reverse and forward mode and at second order; a differentiable value in a keyword
that no rule differentiates is refused at its line, never given a silent zero.

Every function in ``CASES`` is also swept by tests/transpiler/corpus.py through forward mode (test_forward.py)
and second order (test_higher.py).
"""

import numpy as np
import pytest

from tests.transpiler.checks import check
from transpiler import TranspileError, grad, jvp

rng = np.random.default_rng(24)
V = np.array([0.3, -0.7, 1.2, 0.5])
W = np.array([0.9, 0.4, 1.3, 0.6])
M = rng.normal(size=(3, 4))
P = np.array([0.5, -1.2, 2.0])
POINTS = np.array([-0.9, -0.1, 0.2, 0.8])       # away from np.select's boundaries at -0.5 and 0.5


def kw_average_weights(w):
    return np.average(V, weights=w * w + 0.5)


def kw_average_both(x):
    return np.average(x, weights=x * x + 1.0)


def kw_average_axis(w):
    return np.sum(np.average(M, axis=1, weights=w * w + 0.1))


def kw_select_default(x):
    return np.sum(np.select([x < -.5, x < .5], [x ** 2, np.sin(x)], default=3.0 * x))


def kw_select_choices(x):
    return np.sum(np.select(condlist=[x < 0.0], choicelist=[np.cos(x)], default=x * x))


def kw_clip_lower(x):
    return np.sum(np.clip(x, a_min=x[0] * 0.1, a_max=None) * x)


def kw_clip_upper(x):
    return np.sum(np.clip(x, a_min=None, a_max=x[3] * 0.8) ** 2)


def kw_sum_first_by_name(x):
    return np.sum(a=x * x, axis=0)


def kw_outer_by_names(x):
    return np.sum(np.outer(a=x, b=np.sin(x)) ** 2)


def kw_tensordot_axes(x):
    return np.sum(np.tensordot(M, x, axes=1) ** 2)


def kw_convolve(x):
    return np.sum(np.convolve(a=x, v=W, mode="same") ** 2)


def kw_polyval(x):
    return np.sum(np.polyval(p=P * x[0], x=x))


def kw_var_ddof(x):
    return np.var(a=x * 2.0, ddof=1)


def kw_linspace_ends(x):
    return np.sum(np.linspace(start=x[0], stop=x[1], num=5) ** 2)


def kw_where_keywords(x):
    return np.sum(np.where(x > 0.0, x * 2.0, np.exp(x)))


def kw_take(x):
    return np.sum(np.take(a=x * x, indices=[0, 2, 2]))


def kw_reshape(x):
    return np.sum(np.reshape(x * 2.0, (2, 2)) @ np.reshape(a=x, newshape=(2, 2))) \
        if np.lib.NumpyVersion(np.__version__) < "2.1.0" else \
        np.sum(np.reshape(x * 2.0, (2, 2)) @ np.reshape(x, shape=(2, 2)))


def kw_stack_axis(x):
    return np.sum(np.stack([x, x * 2.0], axis=1) ** 2)


def kw_trace_offset(x):
    return np.trace(np.outer(x, x), offset=1)


CASES = [
    (kw_average_weights, (W,), 0),
    (kw_average_both, (V,), 0),
    (kw_average_axis, (W,), 0),
    (kw_select_default, (POINTS,), 0),
    (kw_select_choices, (POINTS,), 0),
    (kw_clip_lower, (V,), 0),
    (kw_clip_upper, (V,), 0),
    (kw_sum_first_by_name, (V,), 0),
    (kw_outer_by_names, (V,), 0),
    (kw_tensordot_axes, (V,), 0),
    (kw_convolve, (V,), 0),
    (kw_polyval, (V,), 0),
    (kw_var_ddof, (V,), 0),
    (kw_linspace_ends, (V,), 0),
    (kw_where_keywords, (V,), 0),
    (kw_take, (V,), 0),
    (kw_reshape, (V,), 0),
    (kw_stack_axis, (V,), 0),
    (kw_trace_offset, (V,), 0),
]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)


def test_the_issues_numbers():
    """np.average(x, weights=w) w.r.t. w gave zeros in reverse mode and a wrong tangent in forward mode."""
    x = np.array([0.2, -0.4, 1.1])
    w = np.array([0.5, 0.3, 0.9])

    def f(w):
        return np.average(x, weights=w)

    expected = (x * np.sum(w) - np.sum(w * x)) / np.sum(w) ** 2       # d/dw_i of sum(w x) / sum(w)
    np.testing.assert_allclose(grad(f)(w), expected, rtol=1e-12)
    t = np.array([0.3, -1.0, 0.4])
    np.testing.assert_allclose(jvp(f, (w,), (t,))[1], expected @ t, rtol=1e-12)


# --- refused: a differentiable value in a keyword no rule differentiates --------------------------
def kr_clip_min_keyword(x):
    return np.sum(np.clip(x, min=x[0] * 0.1))          # numpy >= 2.1's spelling: no rule reads it


def kr_take_indices_active(x):
    return np.sum(np.interp(V, xp=np.sort(x), fp=W))   # xp carries a gradient, which interp's rules give none


@pytest.mark.parametrize("fn", [kr_clip_min_keyword, kr_take_indices_active])
@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_keyword_without_a_rule_is_refused_at_its_line(fn, mode):
    if fn is kr_clip_min_keyword and np.lib.NumpyVersion(np.__version__) < "2.1.0":
        pytest.skip("np.clip takes min= from numpy 2.1")
    with pytest.raises(TranspileError, match="keyword") as info:
        if mode == "reverse":
            grad(fn)(V)
        else:
            jvp(fn, (V,), (np.ones(4),))
    assert info.value.filename == __file__ and info.value.lineno == fn.__code__.co_firstlineno + 1
