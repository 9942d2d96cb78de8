"""Builtins inside differentiated functions, as frontend/desugar.py writes them: ``max``/``min`` (with ``key=``),
``sum``, ``pow``, ``abs``, ``sorted``, ``zip``/``enumerate``/``reversed``, ``map``/``filter``, ``dict``/``list``/
``tuple``, ``isinstance``, ``len``, ``.item()``, ``.astype``; and the builtins adjoin refuses, saying what works.

Every function in ``CASES`` is also swept by tests/transpiler/corpus.py through forward mode (test_forward.py)
and second order (test_higher.py).  Each takes numbers or arrays only and builds its structures itself.
"""

import numpy as np
import pytest

import runtime as tf

from tests.transpiler.checks import check
from transpiler import TranspileError, grad

rng = np.random.default_rng(2026)
V = rng.normal(size=4)
W = rng.normal(size=4)
M = rng.normal(size=(2, 3))
T3 = rng.normal(size=(2, 3, 4))
S = 0.7
T = -0.4


def bi_max_two(x):
    return max(x[0], x[1]) * x[2]


def bi_max_const(x):
    return max(x[0], 0.3) + min(x[1], -5.0) * x[2]


def bi_min_three(x):
    return min(x[0], x[1], x[2]) ** 2


def bi_max_iterable(x):
    return max([x[0] * 2.0, x[1], x[2] + 1.0])


def bi_min_tuple(x):
    return min((x[0], x[3])) * x[1]


def bi_min_key(x):
    return min([x[0], x[1], x[2]], key=abs) * 3.0


def bi_abs(x):
    return abs(x[0]) * abs(x[1]) + np.sum(abs(x))


def bi_pow(x):
    return pow(x[0], 3) + pow(x[1] * x[1], 0.5) + pow(2.0, x[2])


def bi_sum_start(x):
    return sum([x[0], x[1] * x[2]], start=x[3])


def bi_sum_start_positional(x):
    return sum([x * x, np.sin(x)], 1.0)[2]


def bi_zip(x, y):
    s = 0.0
    for a, b in zip([x[0], x[1]], [y[2], y[3]]):
        s = s + a * b
    return s


def bi_enumerate(x):
    s = 0.0
    for i, v in enumerate([x[0], x[1], x[2]]):
        s = s + (i + 1.0) * v * v
    return s


def bi_enumerate_start(x):
    s = 0.0
    for i, v in enumerate([x[2], x[3]], start=2):
        s = s + i * np.sin(v)
    return s


def bi_reversed(x):
    s = 0.0
    w = 1.0
    for v in reversed([x[0], x[1], x[2]]):
        s = s + w * v
        w = w * v
    return s


def bi_sorted(x):
    a = sorted([x[0], x[1], x[2], x[3]])
    return a[0] * 3.0 + a[-1] * a[1]


def bi_sorted_reverse(x):
    a = sorted([x[0], x[1], x[2]], reverse=True)
    return a[0] - a[2] * a[1]


def bi_sorted_local_list(x):
    items = [x[0] * 2.0, x[1], np.sin(x[2])]
    items.append(x[3] - 0.5)
    s = sorted(items)
    return s[0] * s[1] + s[-1] ** 2


def bi_sorted_local_list_key_reverse(x):
    items = []
    for k in range(4):
        items.append(x[k] * (k + 1.0))
    s = sorted(items, key=lambda v: (v - 0.3) ** 2, reverse=True)
    return s[0] * s[2] + s[1] + sum(s[1:])


def bi_max_min_key_of_local_list(x):
    items = [x[0], x[1] * x[2], x[3]]
    return max(items, key=lambda v: abs(v)) * min(items, key=lambda v: v * v) + max(items)


def bi_map_builtin(x):
    return sum(map(np.sin, [x[0], x[1]]))


def bi_map_two(x, y):
    return sum(map(lambda a, b: a * b, [x[0], x[1]], [y[0], y[1]]))


def bi_filter(x):
    return sum(filter(lambda v: v > -10.0, [x[0], x[1], x[2]]))


def bi_dict_kwargs(x):
    d = dict(a=x[0], b=x[1] * 2.0)
    return d["a"] * d["b"]


def bi_dict_pairs(x):
    d = dict([("a", x[0]), ("b", x[1])])
    return d["a"] + d["b"] ** 2


def bi_dict_zip(x):
    d = dict(zip(["p", "q"], [x[0], x[3]]))
    return d["p"] * d["q"]


def bi_list(x):
    a = list((x[0], x[1]))
    return a[0] * a[1]


def bi_list_of_range(x):
    idx = list(range(3))
    return x[idx[2]] * x[idx[1]]


def bi_tuple(x):
    t = tuple([x[0], x[1] * 2.0])
    return t[0] + t[1] * t[0]


def bi_isinstance(x):
    y = x * 2.0
    if isinstance(y, np.ndarray):
        y = y * x
    if isinstance(3, float):
        y = y * 0.0
    return np.sum(y)


def bi_range_negative(x):
    s = 0.0
    for i in range(3, -1, -1):
        s = s * 0.5 + x[i]
    return s


def bi_range_negative_step2(x):
    s = 1.0
    for i in range(3, 0, -2):
        s = s * x[i]
    return s


def bi_len(x):
    return np.sum(x) / len(x) + len([x[0], x[1]]) * x[1]


def bi_sorted_of_expressions(x):
    return sum(sorted([x[0] * 2.0, x[1], np.sin(x[2])])) * x[3]


def bi_sorted_key_of_expressions(x):
    top = sorted([x[0] * x[1], x[2] - 1.0, x[3] ** 2], key=abs, reverse=True)
    return top[0] + 2.0 * top[2]


def bi_max_key_of_expressions(x):
    return max([x[0] * 3.0, np.cos(x[1])], key=lambda v: v * v) * x[2]


def bi_astype_int(x):
    k = (x * 3.0).astype(int)
    return np.sum(x * x) + np.sum(k * x)


def bi_astype_float(x):
    return np.sum(x.astype(np.float64) * x) + np.sum(x.astype(x.dtype) ** 3)


def tf_reduce_list_axis(t):
    return tf.reduce_sum(t * t, [0, 1, 2]) + tf.reduce_sum(tf.reduce_mean(t, axis=[0, 2]) ** 2)


def tf_reduce_list_axis_more(t):
    a = tf.reduce_max(t, [1, 2]) * tf.reduce_min(t, axis=[0, 1])[:2]
    return tf.reduce_sum(a) + tf.reduce_sum(tf.reduce_prod(t, [0, 2]))


def mix_max_in_loop(x):
    s = 0.0
    for i in range(4):
        s = s + max(x[i], 0.1) * x[i]
    return s


def mix_min_arrays_elementwise(x, y):
    return np.sum(np.minimum(x, y) * max(x[0], y[0], 0.2))


def mix_map_over_rows(m):
    return sum(map(lambda r: np.sum(r * r), [m[0], m[1]]))


def mix_filter_then_max(x):
    kept = list(filter(lambda v: v < 100.0, [x[0], x[1], x[2]]))
    return max(kept) * x[3]


def mix_min_of_built_list(x):
    a = []
    for i in range(4):
        a.append(x[i] * x[(i + 1) % 4])
    return min(a) * max(a) + x[0]


def mix_sorted_top2(x):
    top = sorted([x[0], x[1], x[2], x[3]], key=abs, reverse=True)[:2]
    return top[0] * top[1]


def mix_reversed_enumerate(x):
    s = 0.0
    for i, v in enumerate(reversed([x[0], x[1], x[2]])):
        s = s + (i + 1.0) * v ** 2
    return s


def mix_nested_max_min(x):
    return max(min(x[0], x[1]), min(x[2], x[3]), 0.0) * np.sum(x)


def mix_pow_mod_free(x):
    return np.sum(pow(x, 2)) + pow(abs(x[0]) + 1.0, x[1])


def item_of_a_sum(x):
    s = np.sum(x * x)
    return s.item() * 2.0 + x[0]


def item_of_a_one_element_slice(x):
    y = x[1:2] * 3.0
    return y.item() * x[0] + np.reshape(x[2], (1, 1)).item() ** 2


def test_a_cast_to_integers_warns_that_the_gradient_is_zero_and_names_the_line():
    import warnings

    from transpiler import ZeroGradientWarning

    def cut(x):
        return np.sum((x * 3.0).astype(np.int32) * 1.0)

    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        np.testing.assert_array_equal(grad(cut)(V), np.zeros(4))
    msgs = [str(w.message) for w in seen if issubclass(w.category, ZeroGradientWarning)]
    assert len(msgs) == 1 and "`.astype(np.int32)`" in msgs[0] and f"{__file__}:" in msgs[0], msgs


def test_item_of_more_than_one_element_fails_as_numpy_does():
    def f(x):
        return (x * 2.0).item()
    with pytest.raises(ValueError, match="size 1"):
        f(V)
    with pytest.raises(ValueError, match="size 1"):
        grad(f)(V)


def zip_kept_as_a_value(x):
    pairs = list(zip([x[0], x[1]], [3.0, 4.0]))
    return pairs[0][0] * pairs[1][1]


def zip_kept_in_a_comprehension(x):
    pairs = [(a, b) for a, b in zip([x[0], x[1]], [3.0, 4.0])]
    return pairs[0][0] * pairs[1][1]


def sorted_of_an_argument(x):
    s = sorted(x)
    return s[0] * s[1]


def sorted_of_a_copy(x):
    items = [v for v in x]
    s = sorted(items)
    return s[0] * s[1]


@pytest.mark.parametrize("refused, instead, words", [
    (zip_kept_as_a_value, zip_kept_in_a_comprehension, "pairs = [(a, b) for a, b in zip(xs, ys)]"),
    (sorted_of_an_argument, sorted_of_a_copy, "items = [v for v in xs]"),
])
def test_a_builtin_used_as_adjoin_does_not_model_says_what_works(refused, instead, words):
    """The message names a way to write it that works; that way gives the right gradient."""
    with pytest.raises(TranspileError) as info:
        grad(refused)(V)
    assert info.value.filename == __file__ and words in str(info.value), info.value
    assert "runtime.rules.define" not in str(info.value), info.value
    check(instead, V)


CASES = [
    (item_of_a_sum, (V,), 0),
    (item_of_a_one_element_slice, (V,), 0),
    (bi_max_two, (V,), 0),
    (bi_max_const, (V,), 0),
    (bi_min_three, (V,), 0),
    (bi_max_iterable, (V,), 0),
    (bi_min_tuple, (V,), 0),
    (bi_min_key, (V,), 0),
    (bi_abs, (V,), 0),
    (bi_pow, (V,), 0),
    (bi_sum_start, (V,), 0),
    (bi_sum_start_positional, (V,), 0),
    (bi_zip, (V, W), (0, 1)),
    (bi_enumerate, (V,), 0),
    (bi_enumerate_start, (V,), 0),
    (bi_reversed, (V,), 0),
    (bi_sorted, (V,), 0),
    (bi_sorted_reverse, (V,), 0),
    (bi_sorted_local_list, (V,), 0),
    (bi_sorted_local_list_key_reverse, (V,), 0),
    (bi_max_min_key_of_local_list, (V,), 0),
    (bi_map_builtin, (V,), 0),
    (bi_map_two, (V, W), (0, 1)),
    (bi_filter, (V,), 0),
    (bi_dict_kwargs, (V,), 0),
    (bi_dict_pairs, (V,), 0),
    (bi_dict_zip, (V,), 0),
    (bi_list, (V,), 0),
    (bi_list_of_range, (V,), 0),
    (bi_tuple, (V,), 0),
    (bi_isinstance, (V,), 0),
    (bi_range_negative, (V,), 0),
    (bi_range_negative_step2, (V,), 0),
    (bi_len, (V,), 0),
    (mix_sorted_top2, (V,), 0),
    (bi_sorted_of_expressions, (V,), 0),
    (bi_sorted_key_of_expressions, (V,), 0),
    (bi_max_key_of_expressions, (V,), 0),
    (bi_astype_int, (V,), 0),
    (bi_astype_float, (V,), 0),
    (tf_reduce_list_axis, (T3,), 0),
    (tf_reduce_list_axis_more, (T3,), 0),
    (mix_max_in_loop, (V,), 0),
    (mix_min_arrays_elementwise, (V, W), (0, 1)),
    (mix_map_over_rows, (M,), 0),
    (mix_filter_then_max, (V,), 0),
    (mix_min_of_built_list, (V,), 0),
    (mix_reversed_enumerate, (V,), 0),
    (mix_nested_max_min, (V,), 0),
    (mix_pow_mod_free, (V,), 0),
]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)   # finite differences; the tape cannot run list sorts etc.
