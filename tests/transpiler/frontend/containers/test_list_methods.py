"""List methods that change a list in place (frontend/containers/writes.py, edits.py): ``reverse()``,
``sort(key=, reverse=)``, ``remove(v)``, ``clear()`` -- each a new version of the list whose items are read
from the old one by position (the positions found on the values, no gradient through them) -- and
``lst[i] += v``.  Called on something that is not a list when the code runs, each is refused at its line.

Every function in ``CASES`` is also swept by tests/transpiler/corpus.py through forward mode (test_forward.py)
and second order (test_higher.py).
"""

import numpy as np
import pytest

from tests.transpiler.checks import check
from transpiler import TranspileError, grad

V = np.array([0.3, -0.7, 1.2, 0.5])


def lm_reverse(x):
    lst = [x[0], x[1] * 2.0, x[2]]
    lst.reverse()
    return lst[0] * 3.0 + lst[1] * lst[2]


def lm_reverse_twice_and_append(x):
    lst = [x[0], x[1]]
    lst.reverse()
    lst.append(x[2] * x[3])
    lst.reverse()
    return lst[0] - lst[1] * lst[2]


def lm_sort(x):
    lst = [x[0], x[1], x[2], x[3]]
    lst.sort()
    return lst[0] * 3.0 + lst[1] - lst[3] ** 2


def lm_sort_key_reverse(x):
    lst = [x[0], x[1], x[2]]
    lst.sort(key=lambda v: -v, reverse=True)
    return lst[0] * 3.0 + lst[1]


def lm_sort_key_function(x):
    lst = [x[0] * 2.0, x[1], x[2] + 1.0]
    lst.sort(key=abs)
    return lst[0] * lst[1] + lst[2]


def lm_sort_pairs_by_key(x):
    rows = [(x[0], 2.0), (x[1], 1.0), (x[2], 3.0)]
    rows.sort(key=lambda r: r[1])
    return rows[0][0] * 10.0 + rows[1][0] * 5.0 + rows[2][0]


def lm_sort_arrays_by_norm(x):
    parts = [x[:2], x[2:] * 3.0]
    parts.sort(key=lambda p: float(np.sum(p * p)))
    return np.sum(parts[0] * 2.0) + np.sum(parts[1] ** 2)


def lm_remove(x):
    lst = [x[0], 2.0, x[2]]
    lst.remove(2.0)
    return lst[0] * lst[1]


def lm_remove_first_equal(x):
    lst = [x[0], 5.0, x[1], 5.0]
    lst.remove(5.0)
    return lst[0] * lst[1] + lst[2] * x[3]


def lm_clear_and_refill(x):
    lst = [x[0]]
    lst.clear()
    lst.append(x[1] * 2.0)
    lst.append(x[2])
    return lst[0] * lst[1]


def lm_clear_dict(x):
    d = {"a": x[0]}
    d.clear()
    d["b"] = x[1] ** 2
    return d["b"] * x[2]


def lm_item_add(x):
    lst = [x[0], x[1]]
    lst[0] += x[2]
    lst[1] *= lst[0]
    return lst[0] * lst[1]


def lm_sort_in_loop(x):
    lst = [x[0], x[1], x[2]]
    s = 0.0
    for i in range(2):
        lst.sort(reverse=i == 0)
        s = s + lst[0] * (i + 1.0)
        lst[0] = lst[0] * 0.5
    return s


CASES = [
    (lm_reverse, (V,), 0),
    (lm_reverse_twice_and_append, (V,), 0),
    (lm_sort, (V,), 0),
    (lm_sort_key_reverse, (V,), 0),
    (lm_sort_key_function, (V,), 0),
    (lm_sort_pairs_by_key, (V,), 0),
    (lm_sort_arrays_by_norm, (V,), 0),
    (lm_remove, (V,), 0),
    (lm_remove_first_equal, (V,), 0),
    (lm_clear_and_refill, (V,), 0),
    (lm_clear_dict, (V,), 0),
    (lm_item_add, (V,), 0),
    (lm_sort_in_loop, (V,), 0),
]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=lambda v: v.__name__ if callable(v) else "")   # (CASES grows below)
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)


# --- a list inside a list built here, changed at a constant position (containers/writes.inner_write) ---------
def lm_inner_append(x):
    grid = [[x], [x * 2.0]]
    grid[1].append(x * x)
    return np.sum(grid[1][1] * grid[0][0] + grid[1][0])


def lm_inner_item_write(x):
    grid = [[x, 1.0], [x * 2.0, 3.0]]
    grid[1][0] = np.sin(x)
    grid[0][1] += x
    return np.sum(grid[1][0] * grid[0][0] + grid[0][1] * grid[1][1])


def lm_inner_pop_and_insert(x):
    grid = [[x, x * 3.0, x * x], [np.exp(x)]]
    grid[0].pop()
    grid[1].insert(0, x * 0.5)
    return np.sum(grid[0][1] * grid[1][0] + grid[1][1] * grid[0][0])


def lm_inner_sort(x):
    grid = [[x[0] * 3.0, x[1], x[2] - 1.0], [x]]
    grid[0].sort()
    return np.sum(grid[0][0] * grid[1][0] + grid[0][2])


def lm_inner_three_writes(x):
    rows = [[x, x], [x * 2.0, x], [x * 3.0]]
    rows[0][1] = rows[0][0] * rows[1][0]
    rows[2].append(rows[0][1] * 2.0)
    rows[1][1] = rows[1][1] * x      # (`*=` would change x itself: rows[1][1] is x)
    return np.sum(rows[0][1] + rows[2][1] * rows[1][1])


CASES += [(f, (V,), 0) for f in (lm_inner_append, lm_inner_item_write, lm_inner_pop_and_insert, lm_inner_sort,
                                  lm_inner_three_writes)]


def lr_inner_has_a_name(x):
    row = [x]
    grid = [row, [x * 2.0]]
    grid[0].append(x * x)          # row changes too in Python
    return np.sum(row[-1] * grid[0][1])


def lr_inner_twice(x):
    r = [x]
    grid = [r, r]
    grid[0].append(x)              # grid[1] is the same list
    return np.sum(grid[1][-1])


def lr_inner_in_loop(x):
    grid = [[x], [x * 2.0]]
    for i in range(3):
        grid[1].append(x * i)
    return np.sum(grid[1][3])


@pytest.mark.parametrize("fn", [lr_inner_has_a_name, lr_inner_twice, lr_inner_in_loop])
def test_inner_list_changes_that_cannot_be_followed_are_refused(fn):
    with pytest.raises(TranspileError, match="container inside") as info:
        grad(fn)(V)
    assert info.value.filename == __file__


# --- refused at the user's line when the code runs: the value is not a list --------------------------------
def lr_sort_an_array(x):
    y = x * 2.0
    y.sort()
    return np.sum(y * V)


def lr_reverse_a_tuple_made_elsewhere(x, items):
    items.reverse()
    return x * items[0]


def test_sort_of_an_array_is_refused_at_its_line():
    with pytest.raises(TranspileError, match="np.sort") as info:
        grad(lr_sort_an_array)(V)
    assert info.value.filename == __file__ and info.value.lineno == lr_sort_an_array.__code__.co_firstlineno + 2


def test_a_parameter_list_changed_in_place_is_refused():
    with pytest.raises(TranspileError):
        grad(lr_reverse_a_tuple_made_elsewhere)(0.5, [1.0, 2.0])
