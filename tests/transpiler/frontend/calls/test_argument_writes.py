"""Functions of yours that change what they are given (frontend/calls/nested.py ``_links``): inlined, their
writes into a list or array argument are new versions of the caller's variable, as the one object is in
Python; ``p += v`` on a parameter changes the caller's array or list and leaves the caller's number alone
(decided when the code runs). Also ``y = x; y += v`` where the value is a number or tuple (a new value: no
alias can see it), and ``*args`` into functions that take no derivative (``rs.randn(*x.shape)``).

Refused, located: the value passed has a second name here, is an argument of the differentiated function,
or the callee also rebinds the parameter; ``y += v`` on an array another name holds (when the code runs);
a differentiable value of unknown length splatted into a call.

Every function in ``CASES`` is also swept by tests/transpiler/corpus.py through forward mode (test_forward.py)
and second order (test_higher.py).
"""

import numpy as np
import pytest

from tests.transpiler.checks import check
from transpiler import TranspileError, differentiate, grad, hvp, jvp

V = np.array([0.3, -0.7, 1.2, 0.5])
M = np.array([[0.2, -0.4, 0.9], [1.1, 0.3, -0.6]])


# --- callees that write into an array or list argument ---------------------------------------------
def _set_first(a, v):
    a[0] = v


def _scale_middle(a, c):
    a[1:-1] = a[1:-1] * c


def _push(lst, v):
    lst.append(v)


def _push_two(lst, v):
    lst.append(v)
    lst.append(v * v)


def _extend(lst, items):
    lst.extend(items)


def _insert_front(lst, v):
    lst.insert(0, v)


def _drop_last(lst):
    lst.pop()


def _sort_list(lst):
    lst.sort()


def _reverse_list(lst):
    lst.reverse()


def _set_key(d, k, v):
    d[k] = v


def _add_into(a, v):
    a += v


def _mul_into(a, c):
    a *= c
    return a


def _add_twice(a, v):
    a += v
    a += v * v


def _write_and_return(a, v):
    a[0] = a[0] * v
    return a[0] + v


def _outer_calls_inner(a, v):
    _set_first(a, v * 2.0)
    a[1] = a[1] + v


def _row_write(m, v):
    m[0, :] = m[0, :] * v


def _write_in_loop(a, c):
    for i in range(len(a)):
        a[i] = a[i] * c + i


def _project(vx, vy):
    """A shortened form of the pressure projection in autograd's fluid simulation."""
    p = np.zeros(vx.shape)
    for k in range(3):
        p = (np.roll(vx, 1, axis=0) + np.roll(vy, -1, axis=1) + np.roll(p, 1, axis=0)) / 4.0
    vx -= 0.5 * (np.roll(p, -1, axis=0) - p)
    vy -= 0.5 * (np.roll(p, -1, axis=1) - p)
    return vx, vy


def aw_array_item(x):
    a = x * 2.0
    _set_first(a, np.sin(x[1]))
    return np.sum(a * x)


def aw_array_slice(x):
    a = np.cos(x)
    _scale_middle(a, x[0])
    return np.sum(a * a)


def aw_list_append(x):
    lst = []
    _push(lst, x * 2.0)
    _push(lst, np.sin(x))
    return np.sum(lst[0] * lst[1])


def aw_list_append_in_loop(x):
    lst = []
    for i in range(3):
        _push(lst, x * (i + 1.0))
    return np.sum(lst[0] * lst[2] + lst[1])


def aw_list_append_two(x):
    lst = [x]
    _push_two(lst, np.tanh(x))
    return np.sum(lst[1] * lst[2] * lst[0])


def aw_list_extend(x):
    lst = [x]
    _extend(lst, [x * 3.0, np.exp(x)])
    return np.sum(lst[0] + lst[1] * lst[2])


def aw_list_insert(x):
    lst = [x, x * 2.0]
    _insert_front(lst, np.sin(x))
    return np.sum(lst[0] * lst[2])


def aw_list_pop(x):
    lst = [x * 3.0, x, x * x]
    _drop_last(lst)
    return np.sum(lst[-1] * lst[0])


def aw_list_sort(x):
    lst = [x * 3.0, x, x * x - 1.0]
    _sort_list(lst)
    return lst[0] * 2.0 + lst[2]


def aw_list_reverse(x):
    lst = [x * 3.0, x, x * x]
    _reverse_list(lst)
    return lst[0] * 2.0 + lst[1]


def aw_dict_key(x):
    d = {"a": x}
    _set_key(d, "b", x * x)
    return np.sum(d["a"] * d["b"])


def aw_augmented_array(x):
    a = x * 1.5
    _add_into(a, np.sin(x))
    return np.sum(a * x)


def aw_augmented_number(x):
    s = x * 1.5
    _add_into(s, x * x)           # a number: the callee's s is a new value, the caller's stays
    return s * x


def aw_augmented_returned(x):
    a = x * 1.0
    b = _mul_into(a, x[0])        # b is a itself
    return np.sum(a + b * x)


def aw_augmented_twice(x):
    a = np.exp(x)
    _add_twice(a, x)
    return np.sum(a)


def aw_write_and_return(x):
    a = x * 1.0
    r = _write_and_return(a, x[2])
    return np.sum(a * r)


def aw_callee_calls_callee(x):
    a = x * x
    _outer_calls_inner(a, x[3])
    return np.sum(a * x)


def aw_row_of_matrix(m):
    a = m * 2.0
    _row_write(a, m[1, 1])
    return np.sum(a * m)


def aw_write_in_loop(x):
    a = np.sin(x)
    _write_in_loop(a, x[0])
    return np.sum(a * a)


def aw_callee_in_loop(x):
    a = x * 1.0
    for i in range(3):
        _set_first(a, a[0] * x[i])
    return np.sum(a)


def aw_project(x):
    vx = np.reshape(x[:4], (2, 2)) * 1.0
    vy = np.reshape(x[4:], (2, 2)) * 1.0
    for t in range(2):
        vxu = vx * 0.9 + vy * 0.1
        vyu = vy * 0.9 - vx * 0.1
        vx, vy = _project(vxu, vyu)
    return np.sum(vx * vx) + np.sum(np.sin(vy))


def aw_project_reads_argument_after(x):
    vx = np.reshape(x[:4], (2, 2)) * 1.0
    vy = np.reshape(x[4:], (2, 2)) * 1.0
    a, b = _project(vx, vy)
    return np.sum(vx * a) + np.sum(np.sin(vy) * b)    # vx is a: the projection changed it


def aw_nested_writes_list(x):
    lst = [x, 1.0]

    def put(target, v):
        target[0] = v

    put(lst, x * 3.0)
    return np.sum(lst[0] * x)


def aw_nested_appends(x):
    out = []

    def emit(target, v):
        target.append(v * v)

    for i in range(2):
        emit(out, x + i)
    return np.sum(out[0] + out[1])


# --- numbers and tuples cannot alias: `y = x; y += v` is a new value ---------------------------------
def im_float_alias(x):
    s = x[0] * 2.0                 # a numpy scalar: immutable
    y = s
    y += s * x[1]
    return y * s


def im_float_alias_loop(x):
    s = np.sum(x)
    y = s
    for i in range(3):
        y += y * x[i]
    return y + s


def im_int_alias(x):
    n = 2
    m = n
    m += 1
    return x * n + x * m


def im_tuple_alias(x):
    t = (x, 2.0)
    u = t
    u += (x * x,)
    return t[0] * u[2] + len(t)


def im_array_item_alias(x):
    a = x[0]
    b = a
    b *= x[1]
    return a + b


def im_sum_then_alias(x):
    s = np.sum(x)
    t = s
    t -= np.prod(x)
    return s * t


# --- *args into functions that take no derivative ------------------------------------------------
def st_randn_of_shape(x):
    rs = np.random.RandomState(0)
    return np.sum(x * rs.randn(*x.shape))


def st_zeros_of_shape(m):
    z = np.zeros(*m.shape[1:])
    return np.sum(m[0] + z) * np.sum(m)


def st_ones_then_reshape(m):
    o = np.ones(m.shape).reshape(*m.shape)
    return np.sum(o * np.sin(m))


def st_normal_of_shape(x):
    g = np.random.default_rng(4)
    noise = g.standard_normal(size=x.shape)
    scale = np.random.RandomState(1).rand(*x.shape)
    return np.sum(x * noise + scale * x * x)


CASES = [
    (aw_array_item, (V,), 0), (aw_array_slice, (V,), 0), (aw_list_append, (V,), 0),
    (aw_list_append_in_loop, (V,), 0), (aw_list_append_two, (V,), 0), (aw_list_extend, (V,), 0),
    (aw_list_insert, (V,), 0), (aw_list_pop, (V,), 0), (aw_list_sort, (0.7,), 0), (aw_list_reverse, (0.7,), 0),
    (aw_dict_key, (V,), 0), (aw_augmented_array, (V,), 0), (aw_augmented_number, (0.7,), 0),
    (aw_augmented_returned, (V,), 0), (aw_augmented_twice, (V,), 0), (aw_write_and_return, (V,), 0),
    (aw_callee_calls_callee, (V,), 0), (aw_row_of_matrix, (M,), 0), (aw_write_in_loop, (V,), 0),
    (aw_callee_in_loop, (V,), 0), (aw_project, (np.linspace(0.1, 0.8, 8),), 0),
    (aw_project_reads_argument_after, (np.linspace(-0.3, 0.6, 8),), 0), (aw_nested_writes_list, (V,), 0),
    (aw_nested_appends, (V,), 0),
    (im_float_alias, (V,), 0), (im_float_alias_loop, (V,), 0), (im_int_alias, (0.7,), 0),
    (im_tuple_alias, (0.7,), 0), (im_array_item_alias, (V,), 0), (im_sum_then_alias, (V,), 0),
    (st_randn_of_shape, (V,), 0), (st_zeros_of_shape, (M,), 0), (st_ones_then_reshape, (M,), 0),
    (st_normal_of_shape, (V,), 0),
]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)


def test_the_callers_variable_changes_as_in_python():
    """The write is seen by the caller (not only by the returned value): the plain function agrees."""
    a = V * 1.0
    _add_into(a, V)
    assert np.allclose(a, 2 * V)                      # (Python's own behaviour, which the cases rely on)
    g = grad(aw_augmented_array)(V)
    assert np.allclose(g, 3 * V + np.sin(V) + V * np.cos(V)), g


# --- refused, located -------------------------------------------------------------------------------
def rf_second_name(x):
    a = x * 1.0
    b = a
    _set_first(a, x[1])
    return np.sum(a * b)


def rf_own_argument(x):
    _set_first(x, 2.0)
    return np.sum(x)


def _changes_and_rebinds(a, v):
    a[0] = v
    a = a * 2.0
    return a


def rf_changes_and_rebinds(x):
    a = x * 1.0
    _changes_and_rebinds(a, x[1])
    return np.sum(a)


def rf_passed_twice(x):
    a = x * 1.0
    _outer_calls_inner(a, 1.0)
    _scale_middle(a, 2.0)
    lst = [a]
    _push(lst, lst)
    return np.sum(a)


def rf_star_of_unknown_length(x):
    v = x * 2.0
    return np.maximum(*v[:2]) + np.hypot(*v)


def rf_item_of_list_changed(x):
    lst = [x * 1.0]
    _set_first(lst[0], x[1])
    return np.sum(lst[0])


REFUSED = [
    (rf_second_name, "has another name here"),
    (rf_own_argument, "argument of the differentiated function"),
    (rf_changes_and_rebinds, "also assigns `a` a new value"),
    (rf_star_of_unknown_length, "splatted"),
]


@pytest.mark.parametrize("mode", ["reverse", "forward"])
@pytest.mark.parametrize("fn,words", REFUSED, ids=[c[0].__name__ for c in REFUSED])
def test_refused_at_the_users_line(fn, words, mode):
    with pytest.raises(TranspileError, match=words) as info:
        d = differentiate(fn, mode=mode)
        d.grad(V) if mode == "reverse" else d.jvp((V,), (np.ones(4),))
    assert info.value.filename == __file__ and info.value.hint, info.value


def im_array_alias(x):
    a = x * 1.0
    b = a
    b += x                     # changes a too: refused when the code runs (an array), at this line
    return np.sum(a * b)


def im_array_alias_through_callee(x):
    a = x * 1.0
    b = a
    _add_into(b, x)            # b has a second name: the callee's `+=` is checked when the code runs
    return np.sum(a * b)


@pytest.mark.parametrize("fn", [im_array_alias, im_array_alias_through_callee])
def test_augmented_alias_of_an_array_is_refused_when_it_runs(fn):
    for run in (lambda: grad(fn)(V), lambda: differentiate(fn, mode="forward").jvp((V,), (np.ones(4),))):
        with pytest.raises(TranspileError, match="changes an array in place") as info:
            run()
        assert info.value.filename == __file__


# --- a Python float parameter: `y = x; y += v` rebinds y alone ----------------------------------------
def pf_float_parameter(x):
    y = x
    y += x * x
    return y * x


def pf_float_parameter_loop(x):
    y = x
    for i in range(3):
        y += y * 0.5 + np.sin(x)
    return y * x


@pytest.mark.parametrize("fn", [pf_float_parameter, pf_float_parameter_loop])
def test_python_float_parameter_aliased_then_augmented(fn):
    x, e = 0.7, 1e-6
    fd = (fn(x + e) - fn(x - e)) / (2 * e)
    assert abs(grad(fn)(x) - fd) < 1e-6
    assert abs(jvp(fn, (x,), (1.0,))[1] - fd) < 1e-6
    g = grad(fn)
    fd2 = (g(x + 1e-5) - g(x - 1e-5)) / 2e-5
    assert abs(hvp(fn, (x,), 1.0) - fd2) < 1e-5
    with pytest.raises(TranspileError, match="changes an array in place"):
        grad(fn)(np.array(x))          # a 0-d array would change in place: refused at the user's line


# --- the loops' own check (a variable changed in a loop body that the loop did not carry is refused) -----
def lp_nested_loops_reuse_target(x, a):
    v = np.sin(x) * a
    k = 0
    while k < 0 and a > 0.0:        # no trips: its generated adjoint nests `for _ in range(..)` loops
        k += 1
        j = 0
        while j < 0 and a > 0.0:
            j += 1
            v += 0.3 * np.sin(a)
        if a > 0.0:
            break
    return np.sum(v * v)


def test_a_loop_target_rebound_inside_is_not_taken_for_a_lost_change():
    """The check must not fire on a loop's own target rebound by an inner loop (`for _ in ...` nested in
    `for _ in ...`, as second-order code reads first-order code): the random-program search found it."""
    x, a = np.array([0.3, -0.2]), 0.7
    g = grad(lp_nested_loops_reuse_target)
    fd = (g(x + 1e-5 * np.ones(2), a) - g(x - 1e-5 * np.ones(2), a)) / 2e-5
    assert np.allclose(hvp(lp_nested_loops_reuse_target, (x, a), np.ones(2)), fd, atol=1e-6)
