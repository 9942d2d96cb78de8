"""Iteration over what Python programs iterate (frontend/control/loops.py, iterables.py): ``zip`` into one
name or nested targets, ``enumerate(zip(..))``, zips of zips, ``zip``/``map``/``filter``/``enumerate``
objects and dict views kept in a name and iterated once later, ``itertools.product``, ``combinations``,
``permutations``, ``chain`` over lists.

Every function in ``CASES`` is also swept by tests/transpiler/corpus.py through forward mode (test_forward.py)
and second order (test_higher.py).
"""

import itertools

import numpy as np
import pytest

from tests.transpiler.checks import check
from transpiler import TranspileError, grad

V = np.array([0.3, -0.7, 1.2, 0.5])
M = np.array([[0.2, -0.4, 0.9], [1.1, 0.3, -0.6]])


def it_zip_one_name(x):
    s = 0.0
    for pair in zip(x, x[::-1]):
        s = s + pair[0] * pair[1]
    return s


def it_zip_three_one_name(x):
    s = 0.0
    for t in zip(x, x * 2.0, np.sin(x)):
        a, b, c = t
        s = s + a * b + c
    return s


def it_enumerate_one_name(x):
    s = 0.0
    for item in enumerate(x):
        s = s + item[0] * item[1] ** 2
    return s


def it_enumerate_zip(x):
    s = 0.0
    for i, (a, b) in enumerate(zip(x, x * 2.0)):
        s = s + (i + 1) * a * b
    return s


def it_zip_of_zip(x):
    s = 0.0
    for a, (b, c) in zip(x, zip(x, np.cos(x))):
        s = s + a * b * c
    return s


def it_zip_kept(x):
    z = zip(x, x * 3.0)
    s = 0.0
    for a, b in z:
        s = s + a * b
    return s


def it_zip_kept_into_list(x):
    z = zip(x[:2], x[2:])
    pairs = list(z)
    return pairs[0][0] * pairs[1][1] + pairs[1][0]


def it_map_kept(x):
    m = map(np.sin, x)
    s = 0.0
    for v in m:
        s = s + v * v
    return s


def it_filter_kept(x):
    f = filter(lambda v: v > 0.0, [x[0], x[1], x[2]])
    return sum(f) * x[3]


def it_enumerate_kept(x):
    e = enumerate([x[0] * 2.0, x[1]])
    s = 0.0
    for i, v in e:
        s = s + (i + 2.0) * v
    return s


def it_items_kept(x):
    d = {"a": x[0], "b": x[1] * 2.0}
    it = d.items()
    s = 0.0
    for k, v in it:
        s = s + v * v
    return s


def it_values_kept(x):
    d = {"a": x[0], "b": x[1] * 2.0, "c": np.exp(x[2])}
    vals = d.values()
    return sum(vals) * x[3]


def it_product(x):
    s = 0.0
    for a, b in itertools.product([x[0], x[1]], [x[2], x[3]]):
        s = s + a * b
    return s


def it_product_repeat(x):
    s = 0.0
    for a, b in itertools.product([x[0], x[1] * 2.0], repeat=2):
        s = s + a * np.sin(b)
    return s


def it_combinations(x):
    return sum(a * b for a, b in itertools.combinations([x[0], x[1], x[2], x[3]], 2))


def it_permutations(x):
    return sum(a - b * b for a, b in itertools.permutations([x[0], x[1], x[2]], 2))


def it_combinations_with_replacement(x):
    s = 0.0
    for a, b in itertools.combinations_with_replacement([x[0], x[3]], 2):
        s = s + a * b
    return s


def it_chain(x):
    s = 0.0
    for v in itertools.chain([x[0], x[1]], [x[2] * 3.0]):
        s = s + v * v
    return s


def it_chain_from_iterable(x):
    rows = [[x[0], x[1]], [x[2]], [x[3], x[0]]]
    return sum(v * v for v in itertools.chain.from_iterable(rows))


def it_product_kept(x):
    p = itertools.product([x[0], x[1]], [x[2]])
    return sum(a * b for a, b in p)


def it_zip_rows(m):
    s = 0.0
    for row, w in zip(m, [1.0, 2.0]):
        s = s + np.sum(row * row) * w
    return s


def it_nested_tuple_target(x):
    pairs = [(x[0], (x[1], x[2])), (x[3], (x[0], x[1]))]
    s = 0.0
    for a, (b, c) in pairs:
        s = s + a * b - c
    return s


CASES = [
    (it_zip_one_name, (V,), 0),
    (it_zip_three_one_name, (V,), 0),
    (it_enumerate_one_name, (V,), 0),
    (it_enumerate_zip, (V,), 0),
    (it_zip_of_zip, (V,), 0),
    (it_zip_kept, (V,), 0),
    (it_zip_kept_into_list, (V,), 0),
    (it_map_kept, (V,), 0),
    (it_filter_kept, (V,), 0),
    (it_enumerate_kept, (V,), 0),
    (it_items_kept, (V,), 0),
    (it_values_kept, (V,), 0),
    (it_product, (V,), 0),
    (it_product_repeat, (V,), 0),
    (it_combinations, (V,), 0),
    (it_permutations, (V,), 0),
    (it_combinations_with_replacement, (V,), 0),
    (it_chain, (V,), 0),
    (it_chain_from_iterable, (V,), 0),
    (it_product_kept, (V,), 0),
    (it_zip_rows, (M,), 0),
    (it_nested_tuple_target, (V,), 0),
]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)


# --- refused: an iterator kept in a name and used twice, or changed before it is used --------------------
def ir_zip_used_twice(x):
    z = zip(x, x)
    a = sum(u * v for u, v in z)
    return a + sum(u for u, v in z)          # Python: 0.0, the zip is spent


def ir_list_changed_before_use(x):
    lst = [x[0], x[1]]
    z = zip(lst, lst)
    lst.append(x[2])
    return sum(u * v for u, v in z)


def ir_map_in_a_loop(x):
    m = map(np.sin, x)
    s = 0.0
    for i in range(2):
        for v in m:                          # the second trip finds it spent
            s = s + v
    return s


REFUSED = [ir_zip_used_twice, ir_list_changed_before_use, ir_map_in_a_loop]


@pytest.mark.parametrize("fn", REFUSED, ids=[f.__name__ for f in REFUSED])
def test_refused_at_the_users_line(fn):
    with pytest.raises(TranspileError) as info:
        grad(fn)(V)
    assert info.value.filename == __file__
    assert fn.__code__.co_firstlineno < info.value.lineno <= fn.__code__.co_firstlineno + 7
