"""Control flow: if/elif/else, for over range/arrays/zip/enumerate, while, break, continue,
return from branches and loops, augmented assignment in loops.

Every function is checked: transpiler == finite differences, and == the runtime tape
where the function runs on tensors (Python control flow on scalar tensors uses bool()).
"""

import math

import numpy as np
import pytest

from tests.transpiler.checks import check
from transpiler import differentiate

rng = np.random.default_rng(1)
V = rng.normal(size=5)
X = rng.normal(size=(4, 3))
W = rng.normal(size=(3, 3)) * 0.5
P = rng.uniform(0.5, 1.5, size=4)


# --- if / elif / else ------------------------------------------------------------------
def if_scalar(x):
    if x > 0:
        y = x * x
    else:
        y = -3.0 * x
    return y


def if_elif_else(x):
    s = np.sum(x)
    if s > 1.0:
        y = np.sin(x)
    elif s > -1.0:
        y = x * x
    else:
        y = np.exp(x)
    return np.sum(y * x)


def if_no_else(x):
    y = x * 2.0
    if np.sum(x) > 0:
        y = y * x
    return y


def if_nested(x, w):
    if x > 0:
        if w > 0:
            z = x * w
        else:
            z = x - w
        z = z * z
    else:
        z = w * 3.0
    return z + x


def if_bool_ops(x, w):
    if x > 0 and not w < 0:
        y = x * w
    elif x < -1 or w > 2:
        y = x + w
    else:
        y = x * x
    return y


def if_chained_cmp(x):
    if -1.0 < x < 1.0:
        return x ** 3
    return x * 2.0


def return_in_branches(x):
    if x > 0.5:
        return np.sin(x) * x
    elif x > -0.5:
        return x * x
    return -x


def return_tuple_branches(x, w):
    if x > 0:
        return x * w, x + w
    return w, x * x


def if_on_int(x, n):
    if n > 2:
        y = x * n
    else:
        y = x / n
    return np.sum(y * y)


def if_new_var_both_branches(x):
    if np.mean(x) > 0:
        scale = np.tanh(x)
    else:
        scale = x * 0.5
    return np.sum(scale * x)


def ifexp_and_if(x):
    a = x * 2 if x > 1 else x * 3
    if a > 0:
        a = a * a
    return a


# --- for over range ---------------------------------------------------------------------
def for_sum(x):
    s = 0.0
    for i in range(5):
        s = s + x * i
    return s


def for_product(x):
    p = 1.0
    for i in range(1, 6):
        p = p * (x + i)
    return p


def for_recurrence(x, a):
    y = x
    for i in range(6):
        y = y * a + np.sin(y)
    return y


def for_negative_step(x):
    s = x
    for i in range(10, 0, -3):
        s = np.sin(s) * i + s
    return s


def for_data_count(x, n):
    y = x
    for i in range(int(n)):
        y = np.cos(y) + y * 0.5
    return np.sum(y)


def for_zero_trips(x):
    y = x * 2.0
    for i in range(0):
        y = y * y
    return y


def for_nested(x):
    s = x * 0.0
    for i in range(3):
        for j in range(i, 4):
            s = s + np.sin(x * j) * (i + 1)
    return np.sum(s)


def for_index_rows(x):
    total = 0.0
    for i in range(x.shape[0]):
        total = total + np.sum(x[i] * x[i]) * (i + 1)
    return total


def for_rnn(xs, w):
    h = np.zeros(3)
    for t in range(xs.shape[0]):
        h = np.tanh(w @ h + xs[t])
    return np.sum(h)


def for_rnn_wrt_w(xs, w):
    h = np.zeros(3)
    for t in range(xs.shape[0]):
        h = np.tanh(w @ h + xs[t])
    return np.sum(h * h)


def for_over_rows(x):
    s = 0.0
    for row in x:
        s = s + np.sum(np.sin(row) * row)
    return s


def for_zip(x, p):
    s = 0.0
    for a, b in zip(x, p):
        s = s + a * b * a
    return s


def for_enumerate(x):
    s = 0.0
    for i, a in enumerate(x):
        s = s + a * (i + 1.0) + np.sin(a) * s
    return s


def for_branch_inside(x):
    s = 0.0
    for i in range(x.shape[0]):
        if x[i] > 0:
            s = s + x[i] * x[i]
        else:
            s = s - np.sin(x[i]) * s
    return s


def for_ifexp_inside(x):
    y = x
    for i in range(4):
        y = y * 1.1 if y > 0.2 else np.cos(y) + y
    return y


def for_carried_unused(x):
    y = x
    for i in range(3):
        y = x * (i + 2.0)
    return y * y


def for_defined_inside(x):
    s = 0.0
    for i in range(3):
        t = x * (i + 1.0)
        s = s + t * t
    return s + t


def for_two_accumulators(x):
    a = 1.0
    b = 0.0
    for i in range(4):
        a, b = b + x, a * x
    return a * b


def for_augassign(x):
    s = 0.0
    p = 1.0
    for i in range(4):
        s += x * i
        p *= np.cos(x) + 2.0
        s -= p / 10.0
    return s + p


def for_aug_array(x):
    acc = x * 1.0
    for i in range(3):
        acc += np.sin(acc)
        acc *= 0.9
    return np.sum(acc)


def for_exp_ans(x):
    y = x
    for i in range(3):
        y = np.exp(y * 0.3)
    return np.sum(y)


def for_else(x):
    y = x
    for i in range(3):
        y = y * 1.5
    else:
        y = y + np.sin(y)
    return y


def for_break(x):
    y = x
    for i in range(100):
        y = y * 1.3 + 0.1
        if y > 4.0:
            break
    return y


def for_break_else(x):
    y = x
    for i in range(3):
        if y > 10.0:
            break
        y = y * 2.0
    else:
        y = -y
    return y


def for_continue(x):
    s = 0.0
    for i in range(6):
        if i % 2 == 0:
            continue
        s = s + np.sin(x * i)
    return s


def for_continue_data(x):
    s = 0.0
    for i in range(x.shape[0]):
        if x[i] < 0:
            continue
        s = s + x[i] ** 2
    return s


def for_return_inside(x):
    y = x
    for i in range(10):
        y = y * 2.0
        if y > 3.0:
            return y * i
    return y


def for_break_nested(x):
    s = 0.0
    for i in range(4):
        for j in range(4):
            if j > i:
                break
            s = s + x * (i - j + 1.0)
        s = np.sin(s)
    return s


# --- while -------------------------------------------------------------------------------
def while_data_exit(x):
    y = x
    while y < 10.0:
        y = y * 1.5 + 0.2
    return y


def while_counter(x):
    i = 0
    y = x
    while i < 5:
        y = np.sin(y) + y * i
        i = i + 1
    return y


def while_break(x):
    y = x
    n = 0
    while True:
        y = y * y * 0.5 + 1.0
        n = n + 1
        if y > 5.0 or n > 20:
            break
    return y


def while_continue(x):
    i = 0
    s = 0.0
    while i < 6:
        i += 1
        if i == 3:
            continue
        s = s + x ** i / i
    return s


def while_in_for(x):
    s = 0.0
    for i in range(3):
        y = x * (i + 1.0)
        while y < 8.0:
            y = y * 2.0
        s = s + y
    return s


def while_array(x):
    y = x
    k = 0
    while np.sum(y * y) < 50.0 and k < 10:
        y = y * 1.5 + np.sin(y)
        k += 1
    return np.sum(y)


# --- a variable redefined with a different shape (straight-line and across loop trips) -----
def redefine_shapes(x):
    y = x
    y = np.sum(y)
    y = y * x
    y = np.outer(y, x)
    return np.sum(y ** 2)


def loop_grows_value(x):
    h = x
    for i in range(3):
        h = np.concatenate([h, h * 0.5])
    return np.sum(h ** 2)


def loop_shrinks_value(x):
    h = np.outer(x, x)
    for i in range(2):
        h = np.sum(h, axis=0) * x
    return np.sum(h)


def scalar_becomes_array(x):
    s = 0.0
    for i in range(3):
        s = s + x * i
    return np.sum(s ** 2)


# --- cases -------------------------------------------------------------------------------
CASES = [
    (if_scalar, (0.7,), 0), (if_scalar, (-0.7,), 0),
    (redefine_shapes, (V,), 0), (loop_grows_value, (V,), 0), (loop_shrinks_value, (V,), 0),
    (scalar_becomes_array, (V,), 0),
    (if_elif_else, (V,), 0), (if_elif_else, (V * 0.01,), 0), (if_elif_else, (-V - 1.0,), 0),
    (if_no_else, (V,), 0), (if_no_else, (-np.abs(V),), 0),
    (if_nested, (0.5, 0.3), (0, 1)), (if_nested, (0.5, -0.3), (0, 1)), (if_nested, (-0.5, 0.3), (0, 1)),
    (if_bool_ops, (0.5, 0.3), (0, 1)), (if_bool_ops, (-2.0, 3.0), (0, 1)), (if_bool_ops, (-0.5, 0.3), (0, 1)),
    (if_chained_cmp, (0.5,), 0), (if_chained_cmp, (1.5,), 0),
    (return_in_branches, (0.8,), 0), (return_in_branches, (0.1,), 0), (return_in_branches, (-0.8,), 0),
    (if_on_int, (V, 3), 0), (if_on_int, (V, 1), 0),
    (if_new_var_both_branches, (V,), 0), (if_new_var_both_branches, (-np.abs(V),), 0),
    (ifexp_and_if, (0.4,), 0), (ifexp_and_if, (1.4,), 0), (ifexp_and_if, (-0.4,), 0),
    (for_sum, (V,), 0), (for_product, (0.3,), 0), (for_recurrence, (0.3, 0.8), (0, 1)),
    (for_negative_step, (0.4,), 0), (for_data_count, (V, 4), 0), (for_data_count, (V, 0), 0),
    (for_zero_trips, (V,), 0), (for_nested, (V,), 0), (for_index_rows, (X,), 0),
    (for_rnn, (X, W), (0, 1)), (for_rnn_wrt_w, (X, W), 1),
    (for_over_rows, (X,), 0), (for_zip, (V[:4], P), (0, 1)), (for_enumerate, (V,), 0),
    (for_branch_inside, (V,), 0), (for_ifexp_inside, (0.5,), 0), (for_ifexp_inside, (-0.5,), 0),
    (for_carried_unused, (0.5,), 0), (for_defined_inside, (0.5,), 0), (for_two_accumulators, (0.7,), 0),
    (for_augassign, (0.6,), 0), (for_aug_array, (V,), 0), (for_exp_ans, (V,), 0), (for_else, (0.3,), 0),
    (for_break, (0.5,), 0), (for_break, (5.0,), 0), (for_break_else, (0.5,), 0), (for_break_else, (20.0,), 0),
    (for_continue, (0.4,), 0), (for_continue_data, (V,), 0),
    (for_return_inside, (0.3,), 0), (for_return_inside, (0.001,), 0), (for_break_nested, (0.3,), 0),
    (while_data_exit, (0.5,), 0), (while_data_exit, (20.0,), 0), (while_counter, (0.5,), 0),
    (while_break, (0.5,), 0), (while_continue, (0.7,), 0), (while_in_for, (0.7,), 0),
    (while_array, (V,), 0),
]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=lambda v: getattr(v, "__name__", None) or "")
def test_fd_and_tape(fn, args, wrt):
    check(fn, *args, wrt=wrt)


def scalar_loop(x, a):
    y = x
    for i in range(50):
        y = math.sin(y) * a + 0.1 * y
    return y


def test_math_scalar_loop_fd():
    check(scalar_loop, 0.3, 0.9, wrt=(0, 1), tape=False)


def test_same_function_any_trip_count():
    d = differentiate(for_data_count)
    for n in (0, 1, 3, 10):
        check(for_data_count, V, n)
    loops = [line for line in d.source.splitlines() if line.strip().startswith("for ")]
    assert len(loops) == 2, d.source   # one primal loop, one adjoint loop: not unrolled


def test_only_needed_values_are_saved():
    def f(x, a):
        y = x
        for i in range(10):
            t = y * a
            y = t + 1.0
        return y

    src = differentiate(f).source
    # y*a needs y (for da) -- the sum needs nothing; t is never saved
    assert "push(y_1)" in src, src
    assert "push(t" not in src, src


def test_straight_line_if_saves_nothing():
    src = differentiate(if_elif_else).source
    assert "stack" not in src
