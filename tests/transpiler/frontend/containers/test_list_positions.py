"""Writes into a list by a position counted from its end (``l[-1] = ...``, ``l[i] += ...`` with
``i < 0``, ``del l[-1]``) followed or preceded by changes of its length (append, insert, pop,
extend, ``+=``, ``l = l + [v]``, ``l * 2``, ``del``, ``l[a:b] = items``), straight-line, in loops and through calls
(issue 11 section 2).

The derivative of such a write must name the slot it wrote by its position in the list as it was
then: ``l[-1]`` of a two-item list that grows later is slot 1, not the last slot of the longer
list (before the fix, ``grad(f)(1.5)`` of the first case below gave 11.0 instead of 9.0).

Each case is checked against central finite differences in float64: reverse mode, forward mode
and the Hessian (forward over reverse) against second differences of the function itself.  A
hypothesis generator writes random sequences of these edits; each program either matches or is
refused with a ``TranspileError``.
"""

import linecache

import numpy as np
import pytest
from hypothesis import given, strategies as st

from tests.fd import assert_close, numeric_grad
from tests.transpiler.checks import check
from transpiler import TranspileError, differentiate, grad, hvp

X = np.array([0.7, -0.4, 1.3])


def neg_then_append(x):
    l = [x[0] * 1.0, x[1] * 2.0]
    l[-1] = x[2] * 3.0
    l.append(x[0] * 5.0)
    return l[0] * l[1] + l[2] * l[1]


def neg2_then_insert(x):
    l = [x[0], x[1] * 2.0, x[2] * 3.0]
    l[-2] = x[0] * x[2]
    l.insert(0, x[1] * 5.0)
    return l[0] + l[1] * 2.0 + l[2] * 3.0 + l[3] * l[0]


def neg_then_pop_front(x):
    l = [x[0], x[1] * 2.0, x[2] * 3.0]
    l[-1] = np.sin(x[0]) * 7.0
    l.pop(0)
    return l[0] * l[1]


def neg_augmented_then_append(x):
    l = [x[0], x[1] * 2.0]
    l[-1] += x[2] * 4.0
    l.append(x[0] * x[1])
    return l[0] + l[1] * l[1] + l[2]


def append_then_neg_in_loop(x):
    l = []
    for i in range(3):
        l.append(x[i] * (i + 1.0))
        l[-1] = l[-1] * l[-1]
    return l[0] + l[1] * 3.0 + l[2] * 5.0


def neg_then_append_in_loop(x):
    l = [x[0]]
    for i in range(3):
        l[-1] = l[-1] * x[i]
        l.append(x[i] + i)
    return l[0] + 2.0 * l[1] + 3.0 * l[2] + 4.0 * l[3]


def del_neg_then_append(x):
    l = [x[0], x[1] * 2.0, x[2] * 3.0]
    del l[-1]
    l.append(x[2] * x[0])
    return l[0] + l[1] * 2.0 + l[2] * 3.0


def extend_then_neg3(x):
    l = [x[0], x[1] * 2.0]
    l.extend([x[2] * 3.0])
    l[-3] = x[1] * 8.0
    l.append(x[0])
    return l[0] * l[1] + l[2] * 3.0 + l[3]


def neg_then_extend(x):
    l = [x[0], x[1] * 2.0]
    l[-1] = x[2] * 3.0
    l.extend([x[0] * 4.0, x[1]])
    return l[0] + l[1] * 2.0 + l[2] * l[3]


def computed_negative_index(x):
    l = [x[0], x[1] * 2.0]
    i = -1
    l[i] = x[2] * 3.0
    l.append(x[0] * 5.0)
    return l[0] + l[1] * l[2]


def neg_then_pop_then_append(x):
    l = [x[0], x[1] * 2.0, x[2] * 3.0]
    l[-1] = x[0] * 3.0
    l.pop()
    l.append(x[1] * x[2])
    return l[0] + l[1] + l[2] * 2.0


def writes_between_appends(x):
    l = [x[0], x[1] * 2.0]
    l.append(x[2] * 5.0)
    l[-1] = x[0] * 3.0
    l.append(x[1] * 5.0)
    l[-2] = l[-1] * l[-3]
    return l[0] + l[1] * 2.0 + l[2] * 3.0 + l[3]


def neg_then_plus_equals(x):
    l = [x[0] * 1.0, x[1] * 2.0]
    l[-1] = x[2] * 3.0
    l += [x[0] * 5.0]
    return l[0] + 2.0 * l[1] * l[2]


def list_call_then_append(x):
    l = list((x[0], x[1] * 2.0))
    l[-1] = x[2] * 3.0
    l.append(x[0] * 5.0)
    return l[0] + 2.0 * l[1] + l[2] * l[1]


def comprehension_then_append(x):
    l = [x[0] * k for k in (1.0, 2.0)]
    l[-1] = x[2] * 3.0
    l.append(x[1] * 5.0)
    return l[0] * l[1] + l[2]


def append_del_neg_write(x):
    l = [x[0], x[1] * 2.0]
    l.append(x[2] * 5.0)
    del l[-3]
    l[-1] = x[0] * x[2]
    return l[0] + 2.0 * l[1]


def negative_key_of_a_dict(x):
    d = {-1: x[0], 0: x[1] * 2.0}
    d[-1] = x[2] * 3.0
    d[5] = x[0]
    del d[0]
    return d[-1] * d[5]


def grown_in_loop_written_by_counter(x):
    l = [x[0]]
    for i in range(3):
        l.append(x[i] * 2.0)
        l[i - 2] = l[i - 2] + x[i] * l[0]
    return l[0] + l[1] * 2.0 + l[2] * 3.0 + l[3]


def extend_reading_the_list(x):
    l = [x[0] * 1.0]
    l.extend([x[1] * 0.5, l[-1] * x[0]])        # l[-1] is read before x[1] * 0.5 is added
    l += [x[2], l[-1] * x[2]]
    return l[0] * 0.5 + l[1] * 0.75 + l[2] * l[4] + l[3]


def _pair(x):
    return [x[0] * x[1], np.sin(x[2])]               # a list literal returned by a callee


def _pair_by_name(x):
    l = [x[0], x[1] * 2.0]
    return l


def _written(x, i):
    l = _pair(x)
    l[i] = x[2] * 3.0                               # computed index into a list from a call
    return l


def list_returned_by_a_callee(x):
    l = _pair(x)
    a, b = _pair_by_name(x)
    return l[0] + l[1] * 2.0 + a * b


def computed_index_then_copy_then_grow(x):
    l = _pair(x)
    i = -1
    l[i] = x[0] * 3.0
    m = list(l)
    m.append(x[1] * 5.0)
    n = m.copy()
    n.append(x[2])
    return n[0] + n[1] * 2.0 + n[2] * n[3]


def callee_writes_caller_grows(x):
    l = _written(x, -1)
    l.append(x[0] * 5.0)
    return l[0] + l[1] * 2.0 + l[2] * x[1]


def join_then_write_from_end(x):
    l = [x[0] * 1.0, x[1] * 2.0]
    l = l + [x[2] * 4.0]
    l[-1] = x[0] * 3.0
    l.append(x[1] * 5.0)
    return l[0] + l[1] + l[2] * l[0] + 7.0 * l[3]


def repeat_a_list_of_expressions(x):
    l = [x[0] * x[1]] * 2
    l[-1] = x[2] * 3.0
    l.append(np.sin(x[0]))
    return l[0] + 2.0 * l[1] * l[0] + l[2]


def join_names_and_literals(x):
    a = [x[0], x[1] * x[2]]
    b = [np.sin(x[2])]
    m = a + b + [x[0] * 3.0, a[0] * 2.0]
    n = m * 2
    return m[0] + m[1] * m[2] + m[3] + n[5] * n[4] + n[3]


def join_a_list_with_itself(x):
    l = [x[0], x[1] * 2.0]
    l = l + l
    l = l * 2
    l[-2] = l[-1] * x[2]
    return l[0] + l[3] * 2.0 + l[5] * l[6] + len(l)


def slice_write(x):  # (slice writes were refused; assign_slice_ models them)
    l = [x[0], x[1] * 2.0, x[2]]
    l[-2:] = [x[0] * 5.0, x[1] * 6.0]
    l.append(x[0])
    return l[0] + l[1] + l[3]


def slice_write_of_a_name(x):
    l = [x[0], x[1] * 2.0, x[2]]
    m = [x[0] * 5.0]
    l[1:] = m
    l.append(x[0])
    return l[0] + l[1] + l[2]


def plus_equals_then_slice(x):
    l = [x[0] * x[0], x[1] * 0.5]
    l += [x[2] * x[0], x[1] * x[2]]                # l has four items now, not the literal's two
    m = l[1:]
    t = [x[0], x[1] * 3.0]
    t *= 2
    return l[0] + m[0] + m[1] * m[2] + t[3] * t[0]


def plus_equals_then_sum_of_a_copy(x):
    l = [x[0] * x[0], x[1] * 0.5]
    l += [x[2] * x[0] * x[1]]
    return sum(l[:]) * x[2]                         # was the sum of the literal's two items: wrong, silently


CASES = [plus_equals_then_sum_of_a_copy, plus_equals_then_slice, join_then_write_from_end, repeat_a_list_of_expressions, join_names_and_literals, join_a_list_with_itself,
         list_returned_by_a_callee, computed_index_then_copy_then_grow, callee_writes_caller_grows,
         extend_reading_the_list, neg_then_append, neg2_then_insert, neg_then_pop_front, neg_augmented_then_append,
         append_then_neg_in_loop, neg_then_append_in_loop, del_neg_then_append, extend_then_neg3,
         neg_then_extend, computed_negative_index, neg_then_pop_then_append, writes_between_appends,
         neg_then_plus_equals, list_call_then_append, comprehension_then_append, append_del_neg_write,
         negative_key_of_a_dict, grown_in_loop_written_by_counter, slice_write, slice_write_of_a_name]


def hessian_vector_fd(f, x, v, eps=1e-4):
    """``H v`` from finite differences of finite-difference gradients (no transpiled code)."""
    return (numeric_grad(f, x + eps * v) - numeric_grad(f, x - eps * v)) / (2 * eps)


@pytest.mark.parametrize("fn", CASES, ids=[f.__name__ for f in CASES])
def test_reverse_forward_and_hvp_match_finite_differences(fn):
    expected = numeric_grad(fn, X)
    assert_close(grad(fn)(X), expected, what=f"{fn.__name__} reverse")
    v = np.array([0.3, -1.1, 0.8])
    _, t = differentiate(fn, mode="forward").jvp((X,), (v,))
    assert_close(t, expected @ v, what=f"{fn.__name__} forward")
    assert_close(hvp(fn, X, v), hessian_vector_fd(fn, X, v), rtol=1e-4, atol=1e-5, what=f"{fn.__name__} hvp")


def the_reported_case(x):
    l = [x * 1.0, x * 2.0]
    l[-1] = x * 3.0
    l.append(x * 5.0)
    return l[0] + l[1] + l[2]


def test_the_reported_case_is_nine():
    assert grad(the_reported_case)(1.5) == 9.0


def nested_write(x):
    grid = [[x[0], x[1] * 2.0], [x[2] * 3.0, x[0] * 4.0]]
    grid[-1][-1] = x[1] * 9.0
    grid.append([x[0]])
    return grid[0][0] + grid[1][1] * 2.0 + grid[2][0]


def slice_delete(x):
    l = [x[0], x[1] * 2.0, x[2]]
    del l[-2:]
    return l[0]


@pytest.mark.parametrize("fn", [nested_write],
                         ids=lambda f: f.__name__)
def test_what_is_not_modelled_is_refused_at_its_line(fn):
    with pytest.raises(TranspileError) as info:
        grad(fn)(X)
    assert info.value.filename == __file__ and info.value.lineno


def slice_delete_then_grow(x):
    l = [x[0], x[1] * 2.0, x[2]]
    del l[1:]
    l.append(x[1] * x[2])
    return l[0] * l[-1]


@pytest.mark.parametrize("fn", [slice_delete, slice_delete_then_grow], ids=lambda f: f.__name__)
def test_a_deleted_slice_of_a_local_list(fn):
    """``del l[i:j]`` is ``l[i:j] = []``: the items after it move down, and their gradients with them."""
    check(fn, X)


def test_del_of_an_array_item_fails_as_in_python():
    def f(x):
        y = x * 2.0
        del y[0]
        return np.sum(y)
    with pytest.raises((TypeError, ValueError)):
        f(X)
    with pytest.raises((TypeError, ValueError, TranspileError)):
        grad(f)(X)


# --- random sequences of edits -------------------------------------------------------------------
ITEMS = ["x[{j}] * {c}", "np.sin(x[{j}]) * {c}", "x[{j}] * x[{k}]", "l[{p}] * x[{j}]"]


@st.composite
def programs(draw):
    """Source lines of a function of ``x`` (3 numbers) editing one list, with a model of its length."""
    n = draw(st.integers(1, 3))
    lines = ["l = [" + ", ".join(f"x[{i % 3}] * {i + 1.0}" for i in range(n)) + "]"]

    def item():
        pattern = draw(st.sampled_from(ITEMS if n else ITEMS[:3]))
        return pattern.format(j=draw(st.integers(0, 2)), k=draw(st.integers(0, 2)),
                              c=draw(st.sampled_from(["0.5", "2.0", "-1.5"])),
                              p=draw(st.integers(-n, n - 1)) if n else 0)

    def position(extra=0):
        return draw(st.integers(-(n + extra), n + extra - 1))

    in_loop = draw(st.booleans())
    for _ in range(draw(st.integers(1, 6))):
        ops = ["append", "insert", "extend", "plus_equals", "join", "splice"] + (["set", "add", "pop", "del"] if n else [])
        op = draw(st.sampled_from(ops))
        if op == "append":
            lines.append(f"l.append({item()})")
            n += 1
        elif op == "insert":
            lines.append(f"l.insert({draw(st.integers(-n - 1, n + 1))}, {item()})")
            n += 1
        elif op == "extend":
            lines.append(f"l.extend([{item()}, {item()}])")
            n += 2
        elif op == "splice":          # l[a:b] = [..]: Python clamps the bounds; the list may grow or shrink
            a, b, m = draw(st.integers(-n - 1, n + 1)), draw(st.integers(-n - 1, n + 1)), draw(st.integers(0, 2))
            lines.append(f"l[{a}:{b}] = [{', '.join(item() for _ in range(m))}]")
            lo, hi, _ = slice(a, b).indices(n)
            n += m - max(hi - lo, 0)
        elif op == "plus_equals":
            lines.append(f"l += [{item()}]")
            n += 1
        elif op == "join":
            lines.append(f"l = l + [{item()}]" if n > 3 or draw(st.booleans()) else "l = l * 2")
            n = n + 1 if lines[-1].startswith("l = l +") else 2 * n
        elif op == "set":
            lines.append(f"l[{position()}] = {item()}")
        elif op == "add":
            lines.append(f"l[{position()}] += {item()}")
        elif op == "pop":
            lines.append(f"l.pop({position()})" if draw(st.booleans()) else "l.pop()")
            n -= 1
        else:
            lines.append(f"del l[{position()}]")
            n -= 1
    if in_loop and n:
        # one more edit per trip, its position counted from the end: the list grows every trip
        k = draw(st.integers(1, n))
        lines += ["for i in range(2):", "    l.append(x[i] * l[-1])", f"    l[-{k}] = l[-{k}] * x[2]"]
        n += 2
    lines.append("return " + (" + ".join(f"l[{i}] * {0.5 + 0.25 * i}" for i in range(n)) or "x[0] * 0.0"))
    return lines


_counter = [0]


def build(lines):
    _counter[0] += 1
    filename = f"<list-positions-{_counter[0]}>"
    source = "def prog(x):\n" + "".join(f"    {line}\n" for line in lines)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"np": np}
    exec(compile(source, filename, "exec"), namespace)
    return namespace["prog"], source


@given(programs())
def test_random_edit_sequences_match_or_are_refused(lines):
    fn, source = build(lines)
    expected = numeric_grad(fn, X)
    try:
        got = grad(fn)(X)
    except TranspileError:
        return
    assert_close(got, expected, what=f"reverse\n{source}")
    v = np.array([0.3, -1.1, 0.8])
    _, t = differentiate(fn, mode="forward").jvp((X,), (v,))
    assert_close(t, expected @ v, what=f"forward\n{source}")
