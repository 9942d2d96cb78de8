"""Everyday Python inside differentiated functions (issue 11 section 3): lambdas, builtins,
splatting, list/dict/tuple methods, classes, walrus, match, del, assert, try and raise.

Every function here is in ``CASES``, so tests/transpiler/corpus.py sweeps it through reverse
mode against finite differences (test_reverse below), forward mode (test_forward.py) and second
order (test_higher.py).  Each takes numbers or arrays only and builds its structures itself.
"""

import dataclasses
import functools
import re
import sys
from collections import namedtuple

import numpy as np
import pytest

import runtime as tf

from tests.transpiler.checks import check
from transpiler import TranspileError, differentiate, grad, jvp

rng = np.random.default_rng(2026)
V = rng.normal(size=4)
W = rng.normal(size=4)
M = rng.normal(size=(2, 3))
T3 = rng.normal(size=(2, 3, 4))
S = 0.7
T = -0.4


# --- lambdas ----------------------------------------------------------------------------------
SQUARE = lambda v: v * v  # noqa: E731  (a module-level lambda)


def apply_twice(fn, v):
    return fn(fn(v))


def make_scaler(c):
    return lambda v: v * c


def make_poly(a, b):
    def p(t):
        return a * t * t + b
    return p


def apply_scaled(g, v, scale=2.0):
    y = g(v) * scale
    return y


def compose(f, g, v):
    return f(g(v))


def lam_local(x):
    f = lambda v: np.sin(v) * 2.0  # noqa: E731
    return np.sum(f(x))


def lam_module(x):
    return np.sum(SQUARE(x) + x)


def lam_map(x):
    return sum(map(lambda v: v * v, [x[0], x[1], x[2]]))


def lam_sorted_key(x):
    items = sorted([x[0], x[1], x[2], x[3]], key=lambda v: -v)
    return items[0] * 2.0 + items[1]


def lam_max_key(x):
    return max([x[0], x[1], x[2]], key=lambda v: v * v) * x[3]


def lam_higher_order(x):
    return np.sum(apply_twice(lambda v: np.tanh(v) * 1.5, x))


def lam_factory(x):
    scale = make_scaler(3.0)
    return np.sum(scale(x) * x)


def lam_closure_over_active(x):
    g = lambda v: v * x[0]  # noqa: E731
    return np.sum(g(x) * g(x[1]))


def lam_to_user_function(x):
    return np.sum(apply_scaled(lambda t: t * t, x))


def lam_nested_def_to_user_function(x):
    c = x[0]

    def sq(t):
        return t * t * c

    v = x * 2.0                          # compose and apply_scaled have their own `v`
    return np.sum(compose(np.sin, sq, x)) + np.sum(apply_scaled(lambda v: v * c, v, scale=3.0))


def lam_to_user_function_in_loop(x):
    s = 0.0
    for i in range(3):
        s = s + apply_scaled(lambda t: t * x[i + 1], x[i])
    return s


def lam_factory_over_active(x):
    s = make_scaler(x[0])
    return np.sum(s(x) * x)


def lam_factory_def_over_active(x):
    p = make_poly(x[0], x[1] * 2.0)
    return p(x[2]) + p(x[3])


def lam_local_factory(x):
    def make(c):
        return lambda t: t * c
    g = make(x[0] ** 2)
    return np.sum(g(x))


def lam_nonlocal_in_loop(x):
    total = 1.0
    count = 0

    def add(v):
        nonlocal total, count
        total = total * v + count
        count = count + 1
        return total

    s = 0.0
    for i in range(4):
        s = s + add(x[i])
        if x[i] > 0:
            add(x[0])
    return total + s


def lam_nonlocal_step(x):
    acc = x[0]

    def step():
        nonlocal acc
        acc = np.sin(acc) * x[1]

    for _ in range(3):
        step()
    return acc


def lam_partial(x):
    f = functools.partial(np.power, x)
    return np.sum(f(2.0))


def _weighted(a, b, w):
    return a * w + b


def lam_partial_now(x):
    return functools.partial(_weighted, w=x[2])(x[0], x[1]) * x[3]


def lam_partial_user(x):
    f = functools.partial(_weighted, w=2.5)
    return np.sum(f(x, np.cos(x)))


def lam_nested_def_closure(x):
    c = np.exp(x[0])

    def inner(v):
        return v * c

    return np.sum(inner(x) ** 2)


def lam_nonlocal(x):
    total = 0.0

    def add(v):
        nonlocal total
        total = total + v * v

    add(x[0])
    add(x[1] * 2.0)
    return total


# --- builtins ---------------------------------------------------------------------------------
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


def del_list_slice(x):
    items = [x[0], x[1] * 2.0, np.sin(x[2]), x[3] * x[0]]
    del items[1:3]
    items.append(x[1])
    return items[0] * items[1] + items[-1] ** 2 + len(items)


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


# --- splatting --------------------------------------------------------------------------------
def _three(a, b, c):
    return a * b + c


def _kw(a, b=1.0, c=2.0):
    return a * b - c


def _varargs(*vs):
    s = 0.0
    for v in vs:
        s = s + v * v
    return s


def _varkw(a, **kw):
    return a * kw["scale"] + kw["shift"]


def sp_list(x):
    args = [x[0], x[1], x[2]]
    return _three(*args)


def sp_tuple(x):
    return _three(*(x[0], x[1]), x[3])


def sp_dict(x):
    kw = {"b": x[1], "c": x[2]}
    return _kw(x[0], **kw)


def sp_dict_literal(x):
    return _kw(x[0], **{"c": x[3] * x[3]})


def sp_varargs_call(x):
    return _varargs(x[0], x[1] * 2.0, x[2])


def sp_varargs_splat(x):
    return _varargs(*[x[0], x[3]])


def sp_varkw(x):
    return _varkw(x[0], scale=x[1], shift=x[2])


def star_params(*xs):
    return xs[0] * xs[1] + np.sin(xs[0])


# --- lists ------------------------------------------------------------------------------------
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


# --- dicts ------------------------------------------------------------------------------------
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


# --- classes ----------------------------------------------------------------------------------
class Box:
    def __init__(self, v, scale):
        self.v = v
        self.scale = scale * 2.0

    def value(self):
        return self.v * self.scale

    @property
    def square(self):
        return self.v * self.v

    @staticmethod
    def twice(a):
        return a * 2.0

    @classmethod
    def of(cls, v):
        return cls(v, 1.5)


class BigBox(Box):
    def __init__(self, v, scale, extra):
        super().__init__(v, scale)
        self.extra = extra

    def value(self):
        return super().value() + self.extra * self.v


@dataclasses.dataclass
class Pair:
    a: float
    b: float

    def prod(self):
        return self.a * self.b


Point = namedtuple("Point", ["x", "y"])


class Accumulator:
    """State changed by its methods, across loop trips."""
    RATE = 0.5

    def __init__(self, start):
        self.total = start
        self.steps = 0

    def add(self, v):
        self.total = self.total * self.RATE + v * v
        self.steps = self.steps + 1
        return self.total

    def mean(self):
        return self.total / self.steps


class Scaled(Box):
    @property
    def square(self):
        return super().square * self.scale

    def twice_value(self):
        return self.value() * 2.0


def cl_methods_in_loop(x):
    acc = Accumulator(x[0])
    s = 0.0
    for i in range(1, 4):
        s = s + acc.add(x[i])
    return s + acc.mean()


def cl_attr_in_loop_and_branch(x):
    b = Box(x[0], x[1])
    for i in range(3):
        if x[i] > 0.0:
            b.v = b.v * x[i + 1]
        else:
            b.v += x[3]
    return b.value()


def cl_object_per_trip(x):
    s = 0.0
    for i in range(3):
        b = Box(x[i], x[i + 1])
        s = s + b.value()
    return s


def cl_property_super_chain(x):
    b = Scaled(x[2], x[3])
    return b.square + b.twice_value() + Box.twice(b.v)


def cl_two_objects(x):
    a = Box(x[0], 1.0)
    b = BigBox(a.value(), x[1], x[2])
    a.v = b.value()
    return a.value() * b.extra


def cl_dataclass_method_and_write(x):
    p = Pair(x[0], x[1])
    p.a = p.prod() + x[2]
    return p.prod() * p.b


class Empty:
    pass


def cl_plain_object_attribute(x):
    o = Empty()
    o.w = x[0] * 2.0
    o.w = o.w * x[1]
    return o.w * x[2]


def cl_init(x):
    b = Box(x[0], x[1])
    return b.value() * b.v


def cl_property(x):
    b = Box(x[0], 1.0)
    return b.square + b.scale * x[2]


def cl_staticmethod(x):
    return Box.twice(x[0]) * x[1]


def cl_classmethod(x):
    b = Box.of(x[2])
    return b.value()


def cl_inherit_super(x):
    b = BigBox(x[0], x[1], x[2])
    return b.value()


def cl_attr_write(x):
    b = Box(x[0], 1.0)
    b.v = b.v * x[1]
    b.extra = x[2]
    return b.value() + b.extra


def cl_dataclass(x):
    p = Pair(x[0], x[1] * 2.0)
    return p.prod() + p.a


def cl_dataclass_fields(x):
    p = Pair(x[0], b=x[1] * 2.0)
    return p.a * p.b + p.a


def cl_namedtuple_in_loop(x):
    s = 0.0
    for i in range(3):
        p = Point(x[i], x[i + 1])
        s = s + p.x * p.y
    return s


def cl_namedtuple(x):
    p = Point(x[0], x[1])
    return p.x * p.y + p[0]


def cl_namedtuple_replace(x):
    p = Point(x[0], x[1])
    q = p._replace(y=x[2] * 3.0)
    return q.x * q.y + p.y


def cl_namedtuple_unpack(x):
    a, b = Point(x[0] * 2.0, x[3])
    return a * b


# --- statements -------------------------------------------------------------------------------
def st_walrus(x):
    if (y := x[0] * 2.0) > -100.0:
        return y * x[1]
    return y


def st_walrus_expr(x):
    return np.sum((z := np.sin(x)) * z)


def st_del(x):
    a = x * 2.0
    b = a * x
    del a
    return np.sum(b)


def st_assert(x):
    y = x * x
    assert y.shape == (4,), "shape changed"
    return np.sum(y)


def st_try_else_finally(x):
    try:
        y = x * 2.0
    except ValueError:
        y = x * 5.0
    else:
        y = y * x
    finally:
        z = 1.0
    return np.sum(y) * z


def st_raise_not_taken(x):
    if x.shape[0] > 10:
        raise ValueError("too long")
    return np.sum(x * 3.0 * x)


def st_raise_in_else_not_taken(x):
    y = x * 2.0
    if y.shape[0] == 4:
        y = y * x
    else:
        raise ValueError("bad shape")
    return np.sum(y)


# --- more combinations ------------------------------------------------------------------------
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


def mix_dict_kwargs_splat(x):
    params = dict(b=x[1], c=x[2] * x[3])
    return _kw(x[0], **params)


def mix_walrus_in_comprehension_free(x):
    if (n := len(x)) > 2:
        y = x * n
    else:
        y = x
    return np.sum(y * y)


def mix_walrus_chain(x):
    a = (b := x[0] * 2.0) + (c := x[1] * b)
    return a * c


def mix_partial_in_loop(x):
    f = functools.partial(_weighted, b=x[3])
    s = 0.0
    for i in range(3):
        s = s + f(x[i], w=2.0)
    return s


def mix_zip_dict(x):
    d = dict(zip(["u", "v", "w"], [x[0], x[1], x[2]]))
    return sum(d.values()) * d.get("u") + d.get("z", x[3])


def mix_extend_then_sum(x):
    a = []
    a.extend([x[0] * x[1], x[2]])
    a += [x[3]]
    return sum(a) * a[0]


def mix_reversed_enumerate(x):
    s = 0.0
    for i, v in enumerate(reversed([x[0], x[1], x[2]])):
        s = s + (i + 1.0) * v ** 2
    return s


def mix_tuple_splat_user(x):
    t = (x[0], x[1]) + (x[2],)
    return _three(*t)


def mix_nested_max_min(x):
    return max(min(x[0], x[1]), min(x[2], x[3]), 0.0) * np.sum(x)


def mix_pow_mod_free(x):
    return np.sum(pow(x, 2)) + pow(abs(x[0]) + 1.0, x[1])


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


# --- lambdas made in a loop body, splatted slices, .item(), iterating sets (issue 11 section 3) ---
def _apply_twice_scaled(fn, v):
    return fn(fn(v)) * 0.5


def loop_lambda_same_trip(x):
    s = 0.0
    for i in range(3):
        h = lambda v: v * x[i]  # noqa: E731
        s = s + h(x[i + 1])
    return s


def loop_lambda_over_trip_value(x):
    s = 0.0
    for i in range(3):
        c = np.sin(x[i]) * 2.0
        h = lambda v, w=1.0: v * c + w  # noqa: E731
        s = s + h(x[3])
    return s


def loop_lambda_passed(x):
    s = 0.0
    for i in range(3):
        s = s + _apply_twice_scaled(lambda v: v * x[i], x[i + 1])
    return s


def loop_lambda_in_map_and_sorted(x):
    s = 0.0
    for i in range(2):
        s = s + sum(map(lambda v: v * x[i], [x[2], x[3]]))
        l = sorted([x[0], x[1] * x[i], x[2]], key=lambda v: -v)
        s = s + l[0] * 2.0 + l[1]
    return s


def loop_lambda_called_directly(x):
    s = 0.0
    for i in range(3):
        s = s + (lambda v: v * x[i] + s)(x[i + 1])
    return s


def loop_lambda_carries_state(x):
    s = x[0]
    i = 0
    while i < 3:
        h = lambda v: v * s + x[i]  # noqa: E731
        s = h(x[i + 1])
        i += 1
    return s


def splat_array_slice(x):
    return _three(*x[:2], x[3]) + _three(*x[1:4])


def splat_array_slice_step(x):
    return _three(*x[0:4:2], 1.0) + _three(*x[1:4:2], x[0])


def splat_list_slice(x):
    l = [x[0], x[1] * 2.0, x[2]]
    l.append(x[3] * x[0])
    return _three(*l[1:4])


def item_of_a_sum(x):
    s = np.sum(x * x)
    return s.item() * 2.0 + x[0]


def item_of_a_one_element_slice(x):
    y = x[1:2] * 3.0
    return y.item() * x[0] + np.reshape(x[2], (1, 1)).item() ** 2


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


# --- reversed() of dicts, slice writes into lists, lists passed to and from callees -----------
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


ERRORS5_CASES = [
    (li_join_append_read_last, (V,), 0), (li_extend_then_write_the_source, (V,), 0),
    (li_extend_by_names, (V,), 0), (di_update_from_names, (V,), 0),
    (rv_dict, (V,), 0), (rv_dict_items, (V,), 0), (rv_dict_values_enumerate, (V,), 0),
    (rv_zip_dict_and_list, (V,), 0), (rv_enumerate_and_zip_views, (V,), 0), (sl_callee_list, (V,), 0), (sl_grow_then_write_last, (V,), 0),
    (sl_shrink, (V,), 0), (sl_extended_slice, (V,), 0), (sl_rows_of_an_array, (V,), 0), (sl_array_copy, (V,), 0),
    (sl_in_loop, (V,), 0), (cl_join_list_arguments, (V,), 0), (cl_list_literal_through_identity, (V,), 0), (cl_looped_callee_param_named_value, (V,), 0),
    (cl_unstack_in_callee, (V,), 0),
]


if sys.version_info >= (3, 10):
    from tests.transpiler.everyday_match import MATCH_CASES
else:  # pragma: no cover - match needs Python 3.10
    MATCH_CASES = []


CASES = [
    (loop_lambda_same_trip, (V,), 0), (loop_lambda_over_trip_value, (V,), 0), (loop_lambda_passed, (V,), 0),
    (loop_lambda_in_map_and_sorted, (V,), 0), (loop_lambda_called_directly, (V,), 0),
    (loop_lambda_carries_state, (V,), 0), (splat_array_slice, (V,), 0), (splat_array_slice_step, (V,), 0),
    (splat_list_slice, (V,), 0), (item_of_a_sum, (V,), 0), (item_of_a_one_element_slice, (V,), 0),
    (set_of_constants, (V,), 0), (set_bound_to_a_name, (V,), 0),
    (nested_array_literal_3, (V,), 0), (nested_array_literal_2, (V,), 0), (nested_array_literal_of_rows, (V,), 0),
    (lam_local, (V,), 0), (lam_map, (V,), 0), (lam_sorted_key, (V,), 0),
    (lam_max_key, (V,), 0), (lam_closure_over_active, (V,), 0), (lam_partial, (V,), 0), (lam_partial_user, (V,), 0),
    (lam_nested_def_closure, (V,), 0), (bi_max_two, (V,), 0), (bi_max_const, (V,), 0), (bi_min_three, (V,), 0), (bi_max_iterable, (V,), 0),
    (bi_min_tuple, (V,), 0), (bi_min_key, (V,), 0), (bi_abs, (V,), 0), (bi_pow, (V,), 0),
    (bi_sum_start, (V,), 0), (bi_sum_start_positional, (V,), 0), (bi_zip, (V, W), (0, 1)),
    (bi_enumerate, (V,), 0), (bi_enumerate_start, (V,), 0), (bi_reversed, (V,), 0), (bi_sorted, (V,), 0),
    (bi_sorted_reverse, (V,), 0), (bi_sorted_local_list, (V,), 0), (bi_sorted_local_list_key_reverse, (V,), 0),
    (bi_max_min_key_of_local_list, (V,), 0), (del_list_slice, (V,), 0), (bi_map_builtin, (V,), 0), (bi_map_two, (V, W), (0, 1)),
    (bi_filter, (V,), 0), (bi_dict_kwargs, (V,), 0), (bi_dict_pairs, (V,), 0), (bi_dict_zip, (V,), 0),
    (bi_list, (V,), 0), (bi_list_of_range, (V,), 0), (bi_tuple, (V,), 0), (bi_isinstance, (V,), 0),
    (bi_range_negative, (V,), 0), (bi_range_negative_step2, (V,), 0), (bi_len, (V,), 0),
    (sp_list, (V,), 0), (sp_tuple, (V,), 0), (sp_dict, (V,), 0), (sp_dict_literal, (V,), 0),
    (sp_varargs_call, (V,), 0), (sp_varargs_splat, (V,), 0), (sp_varkw, (V,), 0),
    (li_extend, (V,), 0), (li_insert, (V,), 0), (li_pop, (V,), 0), (li_pop_loop, (V,), 0),
    (li_pop_statement, (V,), 0), (di_pop, (V,), 0), (di_pop_statement, (V,), 0), (di_pop_in_loop, (V,), 0),
    (li_add, (V,), 0), (li_mul, (V,), 0),
    (li_slice, (V,), 0), (li_slice_negative, (V,), 0), (li_iadd, (V,), 0), (li_slice_of_appended, (V,), 0),
    (li_slice_twice, (V,), 0), (li_slice_in_loop, (V,), 0), (mix_sorted_top2, (V,), 0),
    (bi_sorted_of_expressions, (V,), 0), (bi_sorted_key_of_expressions, (V,), 0),
    (bi_max_key_of_expressions, (V,), 0), (bi_astype_int, (V,), 0), (bi_astype_float, (V,), 0),
    (tf_reduce_list_axis, (T3,), 0), (tf_reduce_list_axis_more, (T3,), 0),
    (di_get, (V,), 0), (di_items, (V,), 0), (di_keys, (V,), 0), (di_values, (V,), 0), (di_update, (V,), 0),
    (di_update_kwargs, (V,), 0), (di_setdefault, (V,), 0), (di_or, (V,), 0),
    (di_comprehension_items, (V,), 0), (tu_concat, (V,), 0), (tu_mul, (V,), 0), (tu_unpack_star, (V,), 0),
    (cl_staticmethod, (V,), 0), (cl_init, (V,), 0), (cl_plain_object_attribute, (V,), 0), (cl_property, (V,), 0), (cl_classmethod, (V,), 0),
    (cl_inherit_super, (V,), 0), (cl_attr_write, (V,), 0), (cl_dataclass, (V,), 0),
    (cl_methods_in_loop, (V,), 0), (cl_attr_in_loop_and_branch, (V,), 0), (cl_object_per_trip, (V,), 0),
    (cl_property_super_chain, (V,), 0), (cl_two_objects, (V,), 0), (cl_dataclass_method_and_write, (V,), 0), (st_walrus, (V,), 0), (st_walrus_expr, (V,), 0), (st_del, (V,), 0), (st_assert, (V,), 0),
    (st_try_else_finally, (V,), 0), (st_raise_not_taken, (V,), 0), (st_raise_in_else_not_taken, (V,), 0),
    (lam_module, (V,), 0), (lam_factory, (V,), 0), (lam_higher_order, (V,), 0), (lam_nonlocal, (V,), 0),
    (lam_to_user_function, (V,), 0), (lam_nested_def_to_user_function, (V,), 0),
    (lam_to_user_function_in_loop, (V,), 0), (lam_factory_over_active, (V,), 0),
    (lam_factory_def_over_active, (V,), 0), (lam_local_factory, (V,), 0), (lam_nonlocal_in_loop, (V,), 0),
    (lam_nonlocal_step, (V,), 0), (lam_partial_now, (V,), 0),
    (cl_namedtuple, (V,), 0), (cl_namedtuple_replace, (V,), 0), (cl_namedtuple_unpack, (V,), 0),
    (cl_dataclass_fields, (V,), 0), (cl_namedtuple_in_loop, (V,), 0),
    (mix_max_in_loop, (V,), 0), (mix_min_arrays_elementwise, (V, W), (0, 1)), (mix_map_over_rows, (M,), 0),
    (mix_dict_kwargs_splat, (V,), 0), (mix_filter_then_max, (V,), 0), (mix_min_of_built_list, (V,), 0),
    (mix_walrus_in_comprehension_free, (V,), 0), (mix_walrus_chain, (V,), 0), (mix_partial_in_loop, (V,), 0),
    (mix_zip_dict, (V,), 0), (mix_extend_then_sum, (V,), 0), (mix_reversed_enumerate, (V,), 0),
    (mix_tuple_splat_user, (V,), 0), (mix_nested_max_min, (V,), 0), (mix_pow_mod_free, (V,), 0),
    (mix_setdefault_loop, (V,), 0), (mix_dict_update_loop, (V,), 0),
] + ERRORS5_CASES + MATCH_CASES


# Not supported yet: each is refused with a TranspileError located at its own line (never an
# internal error, never a number).
def cl_returned(x):
    b = Box(x[0], x[1])
    return b


def cl_passed_on(x):
    b = Box(x[0], x[1])
    return _three(b, x[1], x[2])


def cl_stored(x):
    b = Box(x[0], x[1])
    items = [b]
    return items[0].value()


def cl_made_in_one_branch(x):
    b = Box(x[0], 1.0)
    if x[1] > 0.0:
        b = Box(x[1], 2.0)
    return b.value()


class WithSetter:
    def __init__(self, v):
        self.v = v                      # runs the setter below

    @property
    def v(self):
        return self._v

    @v.setter
    def v(self, value):
        self._v = value * 2.0


def cl_property_setter(x):
    b = WithSetter(x[0])
    return b.v * x[1]


def cl_missing_attribute(x):
    b = Box(x[0], 1.0)
    return b.nothing * x[1]


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


REFUSED = [set_of_differentiable_values, set_comprehension_iterated, cl_returned, cl_passed_on, cl_stored, cl_made_in_one_branch, cl_missing_attribute, cl_property_setter]


@pytest.mark.parametrize("fn", REFUSED, ids=[f.__name__ for f in REFUSED])
def test_refused_at_the_users_line(fn):
    with pytest.raises(TranspileError) as info:
        grad(fn)(V)
    assert info.value.filename == __file__ and info.value.lineno, info.value


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


def star_scaled(a, *xs, scale=2.0, **kw):
    s = a * 0.0
    for v in xs:
        s = s + np.sin(v) * v * a
    return np.sum(s * scale * kw.get("extra", 1.0))


def _fd(fn, args, i, eps=1e-6):
    """d fn / d args[i] by central differences, one element at a time (float64)."""
    from tests.fd import numeric_grad
    return numeric_grad(lambda xi: fn(*args[:i], xi, *args[i + 1:]), args[i], eps)


def test_star_parameter_items_by_index_name_and_tuple_match_finite_differences():
    from tests.fd import assert_close
    args = (S, T)
    assert_close(grad(star_params)(*args), _fd(star_params, args, 0))
    assert_close(grad(star_params, wrt=1)(*args), _fd(star_params, args, 1))
    assert_close(grad(star_params, wrt=-1)(*args), _fd(star_params, args, 1))
    for wrt in ("xs", (0, 1)):
        got = grad(star_params, wrt=wrt)(*args)
        assert isinstance(got, tuple) and len(got) == 2
        for i in range(2):
            assert_close(got[i], _fd(star_params, args, i))
    value, g = differentiate(star_params, wrt="xs").value_and_grad(*args)
    assert value == star_params(*args) and np.allclose(g, [_fd(star_params, args, i) for i in range(2)])


def test_star_parameter_items_with_named_and_keyword_parameters():
    from tests.fd import assert_close
    args = (0.5, V, W[:1] * 1.0, 1.3)
    f = lambda *a: star_scaled(*a, scale=3.0, extra=0.5)  # noqa: E731  (the reference: no adjoin)
    ga, gxs = grad(star_scaled, wrt=("a", "xs"))(*args, scale=3.0, extra=0.5)
    assert_close(ga, _fd(f, args, 0))
    assert len(gxs) == 3
    for i, g in enumerate(gxs):
        assert_close(g, _fd(f, args, i + 1), what=f"item {i}")
    assert_close(grad(star_scaled, wrt=2)(*args, scale=3.0, extra=0.5), _fd(f, args, 2))
    # the function is generated per number of items: another call shape gets its own code
    assert_close(grad(star_scaled, wrt=1)(0.5, V), _fd(lambda *a: star_scaled(*a), (0.5, V), 1))


def test_star_parameter_items_forward_vjp_and_hvp_match_finite_differences():
    from tests.fd import assert_close
    from transpiler import hvp, vjp
    args = (0.5, V, 1.3)
    f = lambda *a: star_scaled(*a)  # noqa: E731
    direction = W
    _, t = differentiate(star_scaled, wrt=1, mode="forward").jvp(args, (direction,))
    assert_close(t, _fd(f, args, 1) @ direction)
    _, t = jvp(star_scaled, args, (0.3, direction, -0.7))
    assert_close(t, 0.3 * _fd(f, args, 0) + _fd(f, args, 1) @ direction - 0.7 * _fd(f, args, 2))
    value, pullback = vjp(star_scaled, *args, wrt="xs")
    g1, g2 = pullback(2.0)
    assert_close(g1, 2.0 * _fd(f, args, 1))
    assert_close(g2, 2.0 * _fd(f, args, 2))
    eps = 1e-4
    step = lambda sign: (*args[:1], V + sign * eps * direction, *args[2:])  # noqa: E731
    hv = (_fd(f, step(1), 1) - _fd(f, step(-1), 1)) / (2 * eps)
    assert_close(hvp(star_scaled, args, direction, wrt=1), hv, rtol=1e-4, atol=1e-5)


def test_a_set_passed_in_is_iterated_in_its_own_order():
    def f(x, cs):
        s = 0.0
        for c in cs:
            s = s + np.sin(c * x)
        return s
    cs = {0.5, 2.0, 3.0}
    expected = sum(c * np.cos(c * S) for c in cs)
    assert np.isclose(grad(f)(S, cs), expected) and np.isclose(grad(f)(S, frozenset(cs)), expected)


def test_item_of_more_than_one_element_fails_as_numpy_does():
    def f(x):
        return (x * 2.0).item()
    with pytest.raises(ValueError, match="size 1"):
        f(V)
    with pytest.raises(ValueError, match="size 1"):
        grad(f)(V)


def test_a_splatted_slice_longer_than_the_array_is_an_error_not_a_number():
    def f(x):
        return _three(*x[:3])
    with pytest.raises(IndexError):
        grad(f)(V[:2])


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


def test_star_parameter_code_before_a_call_says_what_works():
    with pytest.raises(ValueError, match=r"items of `\*xs` is generated per call"):
        grad(star_params).source


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)   # finite differences; the tape cannot run list sorts etc.


def walrus_read_before(x):
    y = x[0]
    z = _three(y, (y := x[1] * 2.0), y)          # the first y is the old value: not hoisted
    return z


def walrus_in_and(x):
    if x[0] > -100.0 and (y := x[1] * 3.0) > -100.0:
        return y * x[2]
    return x[3]


@pytest.mark.parametrize("fn", [walrus_read_before, walrus_in_and], ids=lambda f: f.__name__)
def test_walrus_that_cannot_move_is_refused_at_its_line(fn):
    with pytest.raises(TranspileError, match=":=") as info:
        grad(fn)(V)
    assert info.value.filename == __file__ and "y :=" in info.value.text


def test_raise_fires_in_the_gradient_call_as_in_the_function():
    big = np.zeros(11)
    for call in (st_raise_not_taken, grad(st_raise_not_taken),
                 lambda a: differentiate(st_raise_not_taken, mode="forward").jvp((a,), (a,))):
        with pytest.raises(ValueError, match="too long"):
            call(big)


def test_partial_rebound_or_passed_on_is_not_rewritten():
    def f(x):
        g = functools.partial(_weighted, w=2.0)
        g = functools.partial(_weighted, w=3.0)      # bound twice: left as written (refused)
        return g(x[0], x[1])
    with pytest.raises(TypeError, match="cannot differentiate through functools.partial"):
        grad(f)(V)


CUBE = lambda v: np.sum(v ** 3)  # noqa: E731
TWO = (lambda v: v * 2.0, lambda v: v * 3.0)


def test_a_lambda_is_differentiated_directly():
    from tests.fd import numeric_grad
    assert np.allclose(grad(CUBE)(V), numeric_grad(CUBE, V))
    assert "def dlambda_dv(" in grad(CUBE).source


def test_two_lambdas_with_the_same_parameters_on_one_line_are_refused():
    with pytest.raises(TranspileError, match="only lambda with its parameters") as info:
        grad(TWO[0])(0.5)
    assert info.value.filename == __file__





def _other_module_apply(x):
    return np.sum(functools.reduce(lambda a, b: a + b, [x, x * 2.0]))


def lam_factory_in_loop(x):
    s = 0.0
    for i in range(2):
        g = make_scaler(x[i])
        s = s + g(x[3])
    return s


def lam_passed_changes_caller(x):
    total = x[0]

    def add(v):
        nonlocal total
        total = total + v
        return v

    return apply_scaled(add, x[1]) + total


def _called_result(x):
    return make_scaler(x[0])(x[1])


@pytest.mark.parametrize("fn,words", [
    (_called_result, "calling the result of `make_scaler(x[0])` directly is not supported"),
    (_other_module_apply, "passed to `map`, `filter`, `sorted`, `max`, `min` or to a plain function defined in this module"),
    (lam_factory_in_loop, "a function made by a call inside a loop"),
    (lam_passed_changes_caller, "changes `total` of the function that made it"),
], ids=["called_result", "other_module", "factory_in_loop", "passed_changes_caller"])
def test_functions_passed_around_that_are_refused(fn, words):
    with pytest.raises(TranspileError, match=re.escape(words)) as info:
        grad(fn)(V)
    assert info.value.filename == __file__ and info.value.lineno


def zip_kept_as_a_value(x):
    pairs = list(zip([x[0], x[1]], [3.0, 4.0]))
    return pairs[0][0] * pairs[1][1]


def zip_kept_in_a_comprehension(x):
    pairs = [(a, b) for a, b in zip([x[0], x[1]], [3.0, 4.0])]
    return pairs[0][0] * pairs[1][1]


def sorted_of_an_argument(x):
    s = sorted(x)
    return s[0] * s[1]


def del_with_a_step(x):
    items = [x[0], x[1], x[2]]
    del items[::2]
    return items[0]


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


def test_del_of_a_stepped_slice_is_refused_and_says_what_may_be_deleted():
    with pytest.raises(TranspileError) as info:
        grad(del_with_a_step)(V)
    assert info.value.filename == __file__ and "`del lst[i:j]` without a step" in str(info.value), info.value
