"""List, dict, tuple and set operations inside differentiated functions (frontend/containers/): ``extend``,
``insert``, ``pop``, ``+``/``*``, slices and slice writes, ``del``, ``get``/``items``/``keys``/``values``/
``update``/``setdefault``/``|``, ``reversed`` of dict views, lists passed to and from callees, sets of constants
and nested array literals.

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


def del_list_slice(x):
    items = [x[0], x[1] * 2.0, np.sin(x[2]), x[3] * x[0]]
    del items[1:3]
    items.append(x[1])
    return items[0] * items[1] + items[-1] ** 2 + len(items)


def li_extend(x):
    a = [x[0]]
    a.extend([x[1], x[2] * 2.0])
    return a[0] * a[1] + a[2]


def li_insert(x):
    a = [x[0], x[1]]
    a.insert(1, x[2] * x[2])
    return a[0] + a[1] * 3.0 + a[2] * a[1]


def li_pop(x):
    a = [x[0], x[1], x[2]]
    b = a.pop()
    c = a.pop(0)
    return b * c + a[0]


def li_pop_loop(x):
    a = []
    for i in range(4):
        a.append(x[i] * x[i])
    s = 0.0
    while len(a) > 1:
        v = a.pop(0)
        s = s + v * a[-1]
    a.insert(0, x[1])
    a.insert(-1, x[2] * 3.0)
    a.insert(10, x[3])
    return s + a[0] * a[1] + a[2] * a[-1]


def li_pop_statement(x):
    a = [x[0] * 2.0, x[1], x[2]]
    a.pop()
    a.pop(-2)
    return a[0] * x[3]


def li_add(x):
    a = [x[0]] + [x[1], x[2]]
    return a[0] * a[2] + a[1]


def li_mul(x):
    a = [x[0]] * 3
    return a[0] + a[1] * a[2]


def li_slice(x):
    a = [x[0], x[1], x[2], x[3]]
    b = a[1:3]
    return b[0] * b[1] + sum(a[::2])


def li_slice_of_appended(x):
    a = [x[0], x[1]]
    a.append(x[2] * 2.0)
    return sum(a[1:]) * a[0] + a[::-2][1]


def li_slice_twice(x):
    a = [x[i] * 2.0 for i in range(4)]
    b = a[::-1][:2]
    return b[0] * b[1]


def li_slice_in_loop(x):
    a = []
    s = 0.0
    for i in range(4):
        a.append(np.sin(x[i]))
        s = s + sum(a[-2:]) * x[i]
    return s


def li_slice_negative(x):
    a = [x[0] * 2.0, x[1], x[2]]
    return a[-1] * a[:-1][0]


def li_iadd(x):
    a = [x[0]]
    a += [x[1]]
    return a[0] * a[1]


def di_get(x):
    d = {"a": x[0], "b": x[1]}
    return d.get("a") * d.get("c", x[2])


def di_items(x):
    d = {"a": x[0], "b": x[1] * 3.0}
    s = 0.0
    for k, v in d.items():
        s = s + v * v
    return s


def di_keys(x):
    d = {"a": x[0], "b": x[1]}
    s = 0.0
    for k in d.keys():
        s = s + d[k] * x[2]
    return s


def di_values(x):
    d = {"a": x[0], "b": x[1]}
    return sum(d.values()) * x[3]


def di_update(x):
    d = {"a": x[0]}
    d.update({"b": x[1], "a": x[2]})
    return d["a"] * d["b"]


def di_update_kwargs(x):
    d = {"a": x[0]}
    d.update(b=x[1] * x[1])
    return d["a"] + d["b"]


def di_setdefault(x):
    d = {"a": x[0]}
    v = d.setdefault("b", x[1] * 2.0)
    w = d.setdefault("a", x[2])
    return v * w + d["b"]


def di_pop(x):
    d = {"a": x[0], "b": x[1]}
    a = d.pop("a")
    c = d.pop("c", x[2])
    return a * c + d["b"]


def di_pop_statement(x):
    d = {"a": x[0], "b": x[1]}
    d.pop("a")
    d["c"] = x[2]
    return sum(d.values()) * x[3]


def di_pop_in_loop(x):
    d = {"k0": x[0]}
    s = 0.0
    for i in range(1, 4):
        old, new = "k" + str(i - 1), "k" + str(i)
        v = d.pop(old)
        d[new] = v * x[i]
        w = d.pop("none", 0.5)
        s = s + d.get(new) + w * x[0]
    return s


def di_or(x):
    d = {"a": x[0], "b": x[1]} | {"b": x[2] * 2.0}
    return d["a"] * d["b"]


def di_comprehension_items(x):
    d = {"a": x[0], "b": x[1]}
    return sum([v * 2.0 for k, v in d.items()]) * x[2]


def tu_concat(x):
    t = (x[0], x[1]) + (x[2],)
    return t[0] * t[2] + t[1]


def tu_mul(x):
    a = x[0] * 2.0
    t = (a,) * 2
    return t[0] * t[1]


def tu_unpack_star(x):
    a, *rest = [x[0], x[1], x[2]]
    return a * sum(rest)


def mix_zip_dict(x):
    d = dict(zip(["u", "v", "w"], [x[0], x[1], x[2]]))
    return sum(d.values()) * d.get("u") + d.get("z", x[3])


def mix_extend_then_sum(x):
    a = []
    a.extend([x[0] * x[1], x[2]])
    a += [x[3]]
    return sum(a) * a[0]


def mix_setdefault_loop(x):
    d = {}
    for i in range(3):
        d.setdefault("s", x[i] * 0.5)
        d["s"] = d["s"] * x[i]
    return d["s"]


def mix_dict_update_loop(x):
    d = {"a": x[0]}
    for i in range(1, 4):
        d.update(a=d["a"] * x[i])
    return d["a"]


def set_of_constants(x):
    s = 0.0
    for c in {1.0, 2.0, 3.0}:
        s = s + c * x[0] * x[1]
    return s


def set_bound_to_a_name(x):
    s = 0.0
    cs = set([0.5, 2.0, 2.0])
    for c in cs:
        s = s + np.sin(c * x[2])
    return s


def nested_array_literal_3(x):
    return np.sum(np.array([[[x[0], 2 * x[1]], [x[0] * x[2], 1.0]]]) ** 2)


def nested_array_literal_2(x):
    a = np.array([[x[0], 2 * x[1]], [x[0] * x[2], np.sin(x[3])]])
    return np.sum(a ** 2) + a[1, 0] * a[0, 1]


def nested_array_literal_of_rows(x):
    rows = [[x[0], x[1] * x[2]], [x[3], 1.0]]
    return np.sum(np.array([rows, rows]) ** 3) + rows[0][1]


def rv_dict(x):
    d = {"a": x[0], "b": x[1] * 2.0, "c": np.sin(x[2])}
    s = 0.0
    for k in reversed(d):
        s = s * x[3] + d[k]
    return s * s


def rv_dict_items(x):
    d = {"a": x[0], "bb": x[1] * x[2]}
    d["ccc"] = np.cos(x[3])
    s = 0.0
    for k, v in reversed(d.items()):
        s = s * x[0] + v * len(k)
    return s * s


def rv_dict_values_enumerate(x):
    d = {"p": x[0] * x[1], "q": x[2], "r": x[3] ** 2}
    s = 0.0
    for i, k in enumerate(reversed(d)):
        s = s + d[k] * (i + 1.0) * x[i]
    for v in reversed(d.values()):
        s = s * 0.5 + v
    return s


def rv_zip_dict_and_list(x):
    d = {"p": x[0], "q": x[1] * 3.0}
    s = 0.0
    for a, b in zip(reversed(d), [x[2], x[3]]):
        s = s + d[a] * b
    return s


def rv_enumerate_and_zip_views(x):
    d = {"a": x[0], "bb": x[1] * x[2], "c": np.cos(x[3])}
    s = 0.0
    for i, (k, v) in enumerate(d.items()):
        s = s + v * (i + len(k))
    for v, k in zip(d.values(), reversed(d.keys())):
        s = s * 0.5 + v * d[k]
    for i, kv in enumerate(reversed(d.items()), 1):
        s = s + kv[1] * i
    return s


def _three_list(x):
    return [x[0], x[1] * 2.0, np.sin(x[2])]


def sl_callee_list(x):
    l = _three_list(x)
    l[1:] = [x[3] * x[0], x[1], np.exp(x[2])]        # grows by one
    return l[0] * l[1] + l[2] * l[3] + l[-1]


def sl_grow_then_write_last(x):
    l = [x[0], x[1]]
    l[1:1] = [x[2], x[3] ** 2]                        # an insertion
    l[-1] = l[-1] * x[0]
    return l[0] + l[1] * l[2] + l[3]


def sl_shrink(x):
    l = [x[0], x[1], x[2], x[3]]
    l[:3] = [x[0] * x[1]]
    l.append(x[2] * 2.0)
    return l[0] * l[1] + l[-1]


def sl_extended_slice(x):
    l = [x[0], x[1], x[2], x[3]]
    l[::2] = [x[1] * 2.0, np.cos(x[3])]
    return l[0] * l[1] + l[2] * l[3]


def sl_rows_of_an_array(x):
    l = [x[0], x[1], x[2]]
    l[1:] = x[2:] * x[0]                              # the array's items
    return l[0] * l[1] + l[2] ** 2


def sl_array_copy(x):
    y = x.copy()
    y[1:3] = y[:2] * x[3]
    return np.sum(y ** 2)


def sl_in_loop(x):
    l = [x[0]]
    for i in range(1, 4):
        l[i:] = [l[-1] * x[i], x[i]]
    return l[0] + l[1] * l[-1] + len(l)


def _joined(xs, ys):
    zs = xs + ys
    return zs[0] * zs[-1] + zs[1]


def cl_join_list_arguments(x):
    xs, ys = [x[0], x[1] * 2.0], [np.sin(x[2]), x[3]]
    return _joined(xs, ys)


def _cube_value(value):
    out = value
    for _ in range(2):
        out = out * value
    return out


def _same(lst):
    return lst


def cl_list_literal_through_identity(x):
    l = [x[0] * x[1], x[2]]
    m = _same(l)                                      # l itself: `2 * m` repeats a list
    return sum(2 * m) * m[0] + _same([x[3], x[0]])[0]


def cl_looped_callee_param_named_value(x):
    return np.sum(_cube_value(x) * x[0])


def cl_unstack_in_callee(x):
    a, b = tf.unstack(tf.reshape(x, (2, 2)))
    return tf.reduce_sum(a * b + tf.sin(a))


def li_extend_by_names(x):
    l = [x[0]]
    more = [x[1] * x[2], np.sin(x[3])]
    l.extend(more)
    l.extend(x[2:] * x[0])                            # an array's items
    for v in more:
        l.extend([v * v])
    return l[0] * l[1] + l[2] * l[-1] + l[3] * l[4]


def di_update_from_names(x):
    a = {"p": x[0], "q": x[1]}
    b = {"q": x[2] * 2.0, "r": x[3]}
    a.update(b)
    a.update([("s", x[0] * x[1])])
    return a["p"] * a["q"] + a["r"] * a["s"]


def li_extend_then_write_the_source(x):
    m = [x[0] * 2.0, x[1]]
    l = [x[2]]
    l.extend(m)                                       # copies m's items: m stays its own list
    m[0] = x[3]
    base = {"w": x[0], "b": x[1]}
    upd = {"w": base["w"] * x[2]}
    base.update(upd)
    upd["w"] = x[3] * 3.0
    return l[1] * m[0] + l[2] + base["w"] * upd["w"] + base["b"]


def li_join_append_read_last(x):
    more = [x[1], np.sin(x[3])]
    l = [x[0]] + more
    l.append(more[1] * more[1])
    return l[2] * l[-1]                               # grad(grad) read l[-1] at slot 2, not 3


def set_of_differentiable_values(x):
    s = 0.0
    for v in {x[0], x[1]}:              # equal values merge and the order follows the values
        s = s + v * v
    return s


def set_comprehension_iterated(x):
    s = 0.0
    for c in {k * 0.5 for k in range(3)}:
        s = s + c * x[0]
    return s


def test_a_set_passed_in_is_iterated_in_its_own_order():
    def f(x, cs):
        s = 0.0
        for c in cs:
            s = s + np.sin(c * x)
        return s
    cs = {0.5, 2.0, 3.0}
    expected = sum(c * np.cos(c * S) for c in cs)
    assert np.isclose(grad(f)(S, cs), expected) and np.isclose(grad(f)(S, frozenset(cs)), expected)


def test_scalar_second_derivative_of_a_three_level_array_literal():
    def f(x):
        return np.sum(np.array([[[x, 2 * x], [x * x, 1.0]]]) ** 2)
    x, eps = 0.7, 1e-4
    second = (f(x + eps) - 2 * f(x) + f(x - eps)) / eps ** 2      # finite differences of f itself
    assert np.isclose(grad(grad(f))(x), second, rtol=1e-5)
    from transpiler import hvp
    assert np.isclose(hvp(f, x, 1.0), second, rtol=1e-5)


def test_adding_into_the_cotangent_of_a_list_leaves_its_items_alone():
    from runtime.rules.inplace import add_at
    from runtime.rules.support import item_array
    row = np.zeros(2)
    x = item_array([np.ones(2), np.ones(2)])
    out = item_array([row, np.zeros(2)])
    total = add_at(out, item_array([1.0, 2.0]), x, 0)
    assert np.array_equal(row, np.zeros(2))          # another cotangent may hold this item
    assert np.array_equal(np.asarray(total[0], dtype=float), [1.0, 2.0])


def del_with_a_step(x):
    items = [x[0], x[1], x[2]]
    del items[::2]
    return items[0]


def test_del_of_a_stepped_slice_is_refused_and_says_what_may_be_deleted():
    with pytest.raises(TranspileError) as info:
        grad(del_with_a_step)(V)
    assert info.value.filename == __file__ and "`del lst[i:j]` without a step" in str(info.value), info.value


# Not supported: each is refused with a TranspileError located at its own line.
REFUSED = [set_of_differentiable_values, set_comprehension_iterated]


@pytest.mark.parametrize("fn", REFUSED, ids=[f.__name__ for f in REFUSED])
def test_refused_at_the_users_line(fn):
    with pytest.raises(TranspileError) as info:
        grad(fn)(V)
    assert info.value.filename == __file__ and info.value.lineno, info.value


CASES = [
    (set_of_constants, (V,), 0),
    (set_bound_to_a_name, (V,), 0),
    (nested_array_literal_3, (V,), 0),
    (nested_array_literal_2, (V,), 0),
    (nested_array_literal_of_rows, (V,), 0),
    (del_list_slice, (V,), 0),
    (li_extend, (V,), 0),
    (li_insert, (V,), 0),
    (li_pop, (V,), 0),
    (li_pop_loop, (V,), 0),
    (li_pop_statement, (V,), 0),
    (di_pop, (V,), 0),
    (di_pop_statement, (V,), 0),
    (di_pop_in_loop, (V,), 0),
    (li_add, (V,), 0),
    (li_mul, (V,), 0),
    (li_slice, (V,), 0),
    (li_slice_negative, (V,), 0),
    (li_iadd, (V,), 0),
    (li_slice_of_appended, (V,), 0),
    (li_slice_twice, (V,), 0),
    (li_slice_in_loop, (V,), 0),
    (di_get, (V,), 0),
    (di_items, (V,), 0),
    (di_keys, (V,), 0),
    (di_values, (V,), 0),
    (di_update, (V,), 0),
    (di_update_kwargs, (V,), 0),
    (di_setdefault, (V,), 0),
    (di_or, (V,), 0),
    (di_comprehension_items, (V,), 0),
    (tu_concat, (V,), 0),
    (tu_mul, (V,), 0),
    (tu_unpack_star, (V,), 0),
    (mix_zip_dict, (V,), 0),
    (mix_extend_then_sum, (V,), 0),
    (mix_setdefault_loop, (V,), 0),
    (mix_dict_update_loop, (V,), 0),
    (li_join_append_read_last, (V,), 0),
    (li_extend_then_write_the_source, (V,), 0),
    (li_extend_by_names, (V,), 0),
    (di_update_from_names, (V,), 0),
    (rv_dict, (V,), 0),
    (rv_dict_items, (V,), 0),
    (rv_dict_values_enumerate, (V,), 0),
    (rv_zip_dict_and_list, (V,), 0),
    (rv_enumerate_and_zip_views, (V,), 0),
    (sl_callee_list, (V,), 0),
    (sl_grow_then_write_last, (V,), 0),
    (sl_shrink, (V,), 0),
    (sl_extended_slice, (V,), 0),
    (sl_rows_of_an_array, (V,), 0),
    (sl_array_copy, (V,), 0),
    (sl_in_loop, (V,), 0),
    (cl_join_list_arguments, (V,), 0),
    (cl_list_literal_through_identity, (V,), 0),
    (cl_looped_callee_param_named_value, (V,), 0),
    (cl_unstack_in_callee, (V,), 0),
]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)   # finite differences; the tape cannot run list sorts etc.
