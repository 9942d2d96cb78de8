"""Objects made in the function used as values (frontend/objects/instances.py): passed to functions of yours
(inlined, so the object's fields stay shared state), returned by them, given other names, stored in lists,
tuples and dicts read at constant positions or looped over (the loop unrolled, each trip's object known),
compared (``is``, a dataclass's ``==``), built inline (``S(1.5).twice(x)``), called (``__call__``), used as
context managers (``with Timer() as t:``); and attributes of arrays (``x.real``, ``x.T``).

Every function in ``CASES`` is also swept by tests/transpiler/corpus.py through forward mode (test_forward.py)
and second order (test_higher.py).
"""

import dataclasses
import time
from collections import namedtuple

import numpy as np
import pytest

from tests.transpiler.checks import check
from transpiler import TranspileError, grad

V = np.array([0.3, -0.7, 1.2, 0.5])
M = np.array([[0.2, -0.4, 0.9], [1.1, 0.3, -0.6]])


class Scale:
    def __init__(self, k):
        self.k = k

    def twice(self, x):
        return self.k * x * 2.0

    def __call__(self, v):
        return v * self.k + 1.0


@dataclasses.dataclass
class Layer:
    w: float
    b: float

    def apply(self, v):
        return np.tanh(self.w * v + self.b)


class Counter:
    def __init__(self):
        self.total = 0.0
        self.n = 0

    def add(self, v):
        self.total = self.total + v
        self.n = self.n + 1


class Timer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start
        return False


class Matrix:
    def __init__(self, a):
        self.a = a

    def __eq__(self, other):
        return float(np.sum(self.a)) == float(np.sum(other.a))


Pair = namedtuple("Pair", ["u", "v"])


def use_scale(s, x):
    return s.twice(x) + s.k


def make_scale(v):
    return Scale(v * 2.0)


def make_layer(w, b):
    layer = Layer(w, b)
    return layer


def feed(counter, v):
    counter.add(v * v)
    counter.add(v)


def run_layers(layers, h):
    for layer in layers:
        h = layer.apply(h)
    return h


def ob_inline_method(x):
    return np.sum(Scale(1.5).twice(x)) + Scale(x[0]).k


def ob_passed(x):
    s = Scale(x[0])
    return np.sum(use_scale(s, x))


def ob_returned(x):
    s = make_scale(x[1])
    return s.k * x[0] + np.sum(s.twice(x))


def ob_returned_via_name(x):
    layer = make_layer(x[0], x[1])
    return layer.apply(x[2])


def ob_changed_by_callee(x):
    c = Counter()
    feed(c, x[0])
    feed(c, x[1] * 2.0)
    return c.total / c.n


def ob_second_name(x):
    a = Scale(x[0])
    b = a
    b.k = b.k * x[1]
    return a.k * 3.0


def ob_list_loop(x):
    objs = [Scale(x[0]), Scale(x[1])]
    t = 0.0
    for o in objs:
        t = t + o.twice(x[2])
    return t


def ob_dataclass_layers(x):
    layers = [Layer(x[0], x[1]), Layer(x[2], x[3])]
    h = 0.5
    for layer in layers:
        h = layer.apply(h)
    return h


def ob_layers_passed(x):
    layers = [Layer(x[0], x[1]), Layer(x[2], x[3])]
    return run_layers(layers, 0.3) * 2.0


def ob_enumerate_objects(x):
    objs = [Scale(x[0]), Scale(x[1] * 2.0), Scale(x[2])]
    s = 0.0
    for i, o in enumerate(objs):
        s = s + (i + 1) * o.k ** 2
    return s


def ob_zip_objects(x):
    objs = [Scale(x[0]), Scale(x[1])]
    weights = (2.0, x[3])
    s = 0.0
    for o, w in zip(objs, weights):
        s = s + o.k * w
    return s


def ob_list_index_and_append(x):
    objs = [Scale(x[0])]
    objs.append(Scale(x[1] * 3.0))
    objs[0] = Scale(x[2])
    return objs[0].k * objs[1].k + objs[-1].twice(x[3])


def ob_tuple_unpack(x):
    pair = (Scale(x[0]), Layer(x[1], x[2]))
    s, layer = pair
    return s.k * layer.apply(x[3])


def ob_dict_of_objects(x):
    d = {"first": Scale(x[0]), "second": Scale(x[1])}
    d["third"] = Scale(x[2] * 2.0)
    s = 0.0
    for key, o in d.items():
        s = s + o.k * len(key)
    return s + d["first"].k


def ob_dict_values(x):
    d = {"a": Layer(x[0], 0.1), "b": Layer(x[1], -0.2)}
    return sum(layer.apply(x[2]) for layer in [d["a"], d["b"]]) + sum([v.w for v in d.values()])


def ob_identity(x):
    a = Scale(x[0])
    b = a
    c = Scale(x[0])
    s = x[1] if a is b else x[2]
    t = x[3] if a is c else x[0] * 2.0
    return s * t


def ob_dataclass_equality(x):
    p = Layer(1.0, 2.0)
    q = Layer(1.0, 2.0)
    r = Layer(1.0, 3.0)
    out = x[0] if p == q else x[1]
    return out * (x[2] if p != r else x[3])


def ob_custom_equality(x):
    a = Matrix(np.ones(2))
    b = Matrix(np.array([0.5, 1.5]))
    return x[0] * 3.0 if a == b else x[1]


def ob_callable_object(x):
    f = Scale(x[0])
    return np.sum(f(x) * x)


def ob_callable_inline(x):
    return np.sum(Scale(2.0)(x) ** 2)


def ob_with_timer(x):
    with Timer() as t:
        y = np.sin(x) * x
    return np.sum(y) + 0.0 * t.seconds


def ob_with_counter_in_loop(x):
    c = Counter()
    for i in range(3):
        c.add(x[i] * x[i + 1])
    return c.total * x[3]


def ob_namedtuple_in_list(x):
    pts = [Pair(x[0], x[1]), Pair(x[2], x[3])]
    return sum(p.u * p.v for p in pts)


def ob_array_attributes(x):
    return np.sum(x.real * 2.0) + np.sum(M.T @ x[:2]) + np.sum(x.imag)


def ob_matrix_attributes(m):
    return np.sum(m.T @ m) + np.sum(m.real ** 3)


CASES = [
    (ob_inline_method, (V,), 0),
    (ob_passed, (V,), 0),
    (ob_returned, (V,), 0),
    (ob_returned_via_name, (V,), 0),
    (ob_changed_by_callee, (V,), 0),
    (ob_second_name, (V,), 0),
    (ob_list_loop, (V,), 0),
    (ob_dataclass_layers, (V,), 0),
    (ob_layers_passed, (V,), 0),
    (ob_enumerate_objects, (V,), 0),
    (ob_zip_objects, (V,), 0),
    (ob_list_index_and_append, (V,), 0),
    (ob_tuple_unpack, (V,), 0),
    (ob_dict_of_objects, (V,), 0),
    (ob_dict_values, (V,), 0),
    (ob_identity, (V,), 0),
    (ob_dataclass_equality, (V,), 0),
    (ob_custom_equality, (V,), 0),
    (ob_callable_object, (V,), 0),
    (ob_callable_inline, (V,), 0),
    (ob_with_timer, (V,), 0),
    (ob_with_counter_in_loop, (V,), 0),
    (ob_namedtuple_in_list, (V,), 0),
    (ob_array_attributes, (V,), 0),
    (ob_matrix_attributes, (M,), 0),
]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)


# --- refused at the user's line ---------------------------------------------------------------------------
def orf_returned_from_the_differentiated_function(x):
    return Scale(x[0])


def orf_operand(x):
    s = Scale(x[0])
    return s * 2.0


def orf_list_at_unknown_position(x):
    objs = [Scale(x[0]), Scale(x[1])]
    i = int(x[2] > 0)
    return objs[i].k


def orf_passed_to_numpy(x):
    return np.sum(np.array([Scale(x[0])]))


REFUSED = [orf_returned_from_the_differentiated_function, orf_operand, orf_list_at_unknown_position,
           orf_passed_to_numpy]


@pytest.mark.parametrize("fn", REFUSED, ids=[f.__name__ for f in REFUSED])
def test_refused_at_the_users_line(fn):
    with pytest.raises(TranspileError) as info:
        grad(fn)(V)
    assert info.value.filename == __file__
    assert fn.__code__.co_firstlineno < info.value.lineno <= fn.__code__.co_firstlineno + 4


# --- an object made in one branch or the other (objects/instances.merge_branches) ----------------------------
def ov_made_in_both_branches(x):
    if np.sum(x) > 0:
        b = Layer(x[0], 0.5)
    else:
        b = Layer(np.sin(x[0]), x[1])
    return np.sum(b.apply(x) * x)


def ov_replaced_in_one_branch(x):
    s = Scale(x[0])
    if x[1] < 0:
        s = Scale(x[2] * 2.0)
    return np.sum(s.twice(x))


def ov_branch_in_loop(x):
    total = Counter()
    for i in range(3):
        c = Scale(x[i])
        if i > 0:
            c = Scale(np.cos(x[i]))
        total.add(c.twice(x[3]))
    return total.total * total.n


BRANCH_CASES = [(ov_made_in_both_branches, (V,), 0), (ov_made_in_both_branches, (-V,), 0),
                (ov_replaced_in_one_branch, (V,), 0), (ov_replaced_in_one_branch, (-V,), 0),
                (ov_branch_in_loop, (V,), 0)]
CASES = CASES + BRANCH_CASES          # (a new list: test_reverse above keeps its own; the corpus reads this one)


@pytest.mark.parametrize("fn,args,wrt", BRANCH_CASES, ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(BRANCH_CASES)])
def test_object_made_in_a_branch(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)


def ovr_other_name_sees_it(x):
    a = Scale(x[0])
    b = a
    if x[1] > 0:
        b = Scale(x[2])
    b.k = b.k * 3.0                 # changes a too when the branch did not run
    return np.sum(a.twice(x) + b.twice(x))


def ovr_rebound_each_trip(x):
    s = Scale(x[0])
    for i in range(2):
        s = Scale(s.k * x[i])
    return np.sum(s.twice(x))


@pytest.mark.parametrize("fn", [ovr_other_name_sees_it, ovr_rebound_each_trip])
def test_object_rebound_where_it_cannot_be_followed_is_refused(fn):
    with pytest.raises(TranspileError, match="changes across a loop or a branch") as info:
        grad(fn)(V)
    assert info.value.filename == __file__
