"""Assignment forms, data structures and pass-through statements.

Every case is checked in reverse mode (transpiler == finite differences, == the runtime tape
where the tape can run the same function) and in forward mode (jvp == finite differences).
``CASES`` holds functions of arrays; ``STRUCT_CASES`` functions of dicts, lists and tuples,
whose gradients have the structure of the argument.
"""

import tracemalloc

import numpy as np
import pytest

from tests.fd import assert_close, numeric_grad, numeric_jvp
from tests.transpiler.checks import check
from transpiler import TranspileError, differentiate, grad

rng = np.random.default_rng(7)
V = rng.normal(size=5)
U = rng.uniform(0.5, 1.5, size=5)
X3 = rng.normal(size=3)
W = rng.normal(size=(3, 3)) * 0.5
SCALE = 1.5            # a global constant read by a case


# --- subscript assignment ---------------------------------------------------------------------
# TF tensors are immutable and numpy's `out[i] = tensor` drops the tape, so cases that write
# into arrays are checked against finite differences only (NO_TAPE).

def set_const_element(x):
    y = x * 2.0
    y[0] = 3.0
    return np.sum(y * x)


def set_active_element(x):
    out = np.zeros(3)
    out[1] = x[0] * x[2]
    out[2] = np.sin(x[1])
    return out


def set_slice(x):
    y = np.zeros(7)
    y[1:4] = x[:3] ** 2
    y[5:] = x[3:] * 3.0
    return np.sum(y * y)


def set_rows_and_columns(x):
    m = np.zeros((3, 3))
    m[1, :] += x
    m[:, 2] += x * x
    m[0] = np.cos(x)
    return np.sum(m @ m)


def set_in_loop(x):
    out = np.zeros(len(x))
    for i in range(len(x)):
        out[i] = x[i] * x[i - 1]
    return np.sum(np.sin(out))


def recurrence_in_place(x):
    y = x.copy()
    for i in range(1, len(y)):
        y[i] = 0.5 * y[i - 1] + y[i] ** 2
    return y


def overwritten_value_still_read(x):
    y = x * 1.0
    a = y * y
    y[0] = 0.0
    y[2] += a[1]
    return np.sum(a) + np.sum(y * x)


def matrix_entries(x):
    m = np.eye(3)
    m[0, 1] = x[0]
    m[2, :] = x
    return m @ x


def broadcast_write(x):
    m = np.ones((2, 3))
    m[:, 1] = np.sum(x)        # a scalar written into a column
    return np.sum(m * m) * x[0]


def fancy_index_write(x):
    y = np.zeros(5)
    y[[0, 3]] = x[:2] * x[2]
    return np.sum(np.exp(y))


# --- unpacking, comparisons, shapes ---------------------------------------------------------

def tuple_swap(x):
    a, b = x[0], x[1]
    a, b = b, a * b
    return a * b + a


def starred_front(x):
    first, *rest = x
    return first * np.sum(np.stack(rest))


def starred_middle(x):
    a, *mid, b = x
    return a * b + sum(mid)


def starred_tuple_literal(x):
    p, *q = (x * 2.0, x * 3.0, np.sin(x))
    return np.sum(p * q[0] * q[1])


def chained_comparison(x):
    s = np.sum(x)
    if -10.0 < s < 10.0 <= 20.0:
        y = x ** 2
    else:
        y = x
    return np.sum(y)


def shape_changes(x):
    y = np.sum(x)
    y = y * x
    y = np.outer(y, x)
    y = np.sum(y, axis=0)
    return y


def nested_tuples(x):
    pair = ((x, x * 2.0), np.sin(x))
    (a, b), c = pair
    return np.sum(a * b * c)


# --- lists ----------------------------------------------------------------------------------

def list_append_sum(x):
    terms = []
    for i in range(4):
        terms.append(x * i)
    return np.sum(sum(terms) * terms[1])


def list_append_index(x):
    ys = []
    for v in x:
        ys.append(v * v)
    return ys[-1] * ys[0] + ys[2]


def list_stack_matmul(x):
    rows = []
    for i in range(3):
        rows.append(np.tanh(x * (i + 1)))
    return np.sum(np.stack(rows) @ W)


def list_mean(x):
    vals = []
    for v in x:
        if v > 0:
            vals.append(np.exp(v))
    return sum(vals) / len(vals)


def list_literal_then_append(x):
    lst = [x]
    lst.append(x * x)
    return np.sum(lst[0] * lst[1])


def list_iterate(x):
    parts = [x, np.sin(x), x * 3.0]
    parts.append(x ** 2)
    s = 0.0
    for p in parts:
        s = s + np.sum(p * p)
    return s


def list_comprehension(x):
    prods = [x[i] * x[i + 1] for i in range(len(x) - 1)]
    return sum(prods)


def list_comprehension_if(x):
    return np.sum(np.stack([np.sin(v) * x[0] for v in x if v > -0.5]))


def nested_generator(x):
    return sum(x[i] * x[j] for i in range(3) for j in range(i))


def generator_sum(x):
    return sum(x[i] ** 2 for i in range(len(x)))


def generator_over_rows(x):
    return sum(np.sin(v) * v for v in x)


def array_from_list(x):
    squares = []
    for v in x:
        squares.append(v * v)
    return np.sum(np.array(squares) * x) + np.sum(np.asarray([x[0], x[1]]) ** 3)


def numpy_over_comprehensions(x):
    return np.sum([x[i] ** 2 for i in range(len(x))]) + np.mean([np.sin(v) for v in x])


def tuple_of_generator(x):
    t = tuple(v * 2.0 for v in x)
    return t[0] * t[-1]


def list_element_write(x):
    lst = [x * 1.0, x * 2.0]          # `lst[0] += ...` on x itself would change the caller's x
    lst[1] = x ** 3
    lst[0] += 1.0
    return np.sum(lst[0] * lst[1])


def ragged_list(x):
    parts = []
    parts.append(np.sum(x))
    parts.append(x * 2.0)
    return np.sum(parts[0] * parts[1])


def ragged_concatenate(x):
    pieces = []
    for i in range(3):
        pieces.append(x[:i + 1] * 2.0)
    return np.sum(np.concatenate(pieces) ** 2)


def ragged_write_in_branch(x):
    parts = [x[0], x[1:] * 3.0]
    if np.sum(x) > 0:
        parts[1] = x[1:] ** 2
    return np.sum(np.concatenate([parts[0] * np.ones(1), parts[1]]))


def list_of_lists(x):
    grid = []
    for i in range(2):
        row = []
        for j in range(2):
            row.append(x[i] * x[j])
        grid.append(row)
    return grid[0][1] * grid[1][1] + sum(grid[1])


def tuple_values(x):
    t = (x, x * x)
    a = t[0]
    s, c = (np.sin(t[1]), np.cos(a))
    return np.sum(s * c)


# --- dicts built in the function ------------------------------------------------------------

def dict_literal(x):
    d = {"a": x * 2.0, "b": np.sin(x)}
    return np.sum(d["a"] * d["b"])


def dict_writes(x):
    d = {}
    d["u"] = x
    d["v"] = d["u"] ** 2
    d["u"] = d["u"] * 3.0
    return np.sum(d["v"] * d["u"])


def dict_items_loop(x):
    d = {"a": x, "b": x * x}
    s = 0.0
    for k, v in d.items():
        s = s + np.sum(v) * len(k)
    return s


def dict_comprehension(x):
    d = {name: x * (i + 1) for i, name in enumerate(["p", "q", "r"])}
    s = 0.0
    for v in d.values():
        s = s + np.sum(np.sin(v))
    return s


def dict_in_branch(x):
    d = {"a": 1.0, "b": x}
    if np.sum(x) > 0:
        d["a"] = x * 2.0
    lst = [0.5]
    if np.sum(x) < 100.0:
        lst[0] = np.sum(x ** 2)
    return np.sum(d["a"] * d["b"]) * lst[0]


# --- pass-through statements and constants --------------------------------------------------

def with_errstate(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.log(x)
        z = y * x
    return np.sum(z)


def try_that_does_not_fire(x):
    try:
        y = x * 2.0
    except ZeroDivisionError:
        y = x
    else:
        y = y + 1.0
    finally:
        z = np.sum(y * y)
    return z


def constants_and_ints(x):
    """A docstring, then non-differentiable values used as constants."""
    n = len(x)
    name = "scale"
    flag = n > 2 and name == "scale"
    shape = x.shape
    assert shape[0] == n, "shape mismatch"
    if flag:
        pass
    k = int(n / 2)
    return np.sum(x * SCALE) * k + x[0] * shape[0]


def seeded_noise(x):
    np.random.seed(0)
    noise = np.random.normal(size=x.shape)
    return np.sum(x * noise + x * x)


def generator_noise(x):
    g = np.random.default_rng(3)
    noise = g.normal(size=x.shape)
    return np.sum(np.sin(x) * noise)


def removes(x):
    lst = [x, x * 2]
    lst.remove(x)
    return sum(lst)


CASES = [
    (removes, (0.7,), 0),
    (set_const_element, (V,), 0),
    (set_active_element, (X3,), 0),
    (set_slice, (V,), 0),
    (set_rows_and_columns, (X3,), 0),
    (set_in_loop, (V,), 0),
    (recurrence_in_place, (U * 0.5,), 0),
    (overwritten_value_still_read, (V,), 0),
    (matrix_entries, (X3,), 0),
    (broadcast_write, (X3,), 0),
    (fancy_index_write, (X3,), 0),
    (tuple_swap, (V,), 0),
    (starred_front, (V,), 0),
    (starred_middle, (V,), 0),
    (starred_tuple_literal, (V,), 0),
    (chained_comparison, (V,), 0),
    (shape_changes, (X3,), 0),
    (nested_tuples, (V,), 0),
    (list_append_sum, (V,), 0),
    (list_append_index, (V,), 0),
    (list_stack_matmul, (X3,), 0),
    (list_mean, (V,), 0),
    (list_literal_then_append, (V,), 0),
    (list_iterate, (V,), 0),
    (list_comprehension, (V,), 0),
    (list_comprehension_if, (V,), 0),
    (nested_generator, (V,), 0),
    (generator_sum, (V,), 0),
    (generator_over_rows, (W,), 0),
    (list_element_write, (V,), 0),
    (array_from_list, (V,), 0),
    (numpy_over_comprehensions, (V,), 0),
    (tuple_of_generator, (V,), 0),
    (ragged_list, (V,), 0),
    (tuple_values, (V,), 0),
    (ragged_concatenate, (V,), 0),
    (ragged_write_in_branch, (V,), 0),
    (list_of_lists, (V,), 0),
    (dict_literal, (V,), 0),
    (dict_writes, (V,), 0),
    (dict_items_loop, (V,), 0),
    (dict_comprehension, (V,), 0),
    (dict_in_branch, (U,), 0),
    (with_errstate, (U,), 0),
    (try_that_does_not_fire, (V,), 0),
    (constants_and_ints, (V,), 0),
    (seeded_noise, (V,), 0),
    (generator_noise, (V,), 0),
]

NO_TAPE = {
    set_const_element, set_active_element, set_slice, set_rows_and_columns, set_in_loop,
    recurrence_in_place, overwritten_value_still_read, matrix_entries, broadcast_write, fancy_index_write,
    array_from_list,      # np.array / np.sum of a list of tensors cannot dispatch to the tape:
    numpy_over_comprehensions,   # numpy turns the list into a constant array
}


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=fn not in NO_TAPE)


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_forward(fn, args, wrt):
    t = np.random.default_rng(3).normal(size=np.shape(args[wrt]))
    value, tout = differentiate(fn, wrt=wrt, mode="forward").jvp(args, (t,))
    assert_close(value, fn(*args), 1e-12, 1e-12, what=f"{fn.__name__}: value")
    full = [np.zeros(np.shape(a)) for a in args]
    full[wrt] = t
    assert_close(tout, numeric_jvp(fn, args, full), 1e-5, 1e-6, what=f"{fn.__name__}: jvp vs fd")


HVP_CASES = [(fn, args, wrt) for fn, args, wrt in CASES if np.ndim(fn(*args)) == 0]   # hvp needs a scalar


@pytest.mark.parametrize("fn,args,wrt", HVP_CASES, ids=[c[0].__name__ for c in HVP_CASES])
def test_second_order(fn, args, wrt):
    """Generated gradients (setitem, slot, Grads...) differentiate again: hvp == FD of the gradient."""
    from transpiler import grad
    from transpiler.higher import hvp
    v = np.random.default_rng(4).normal(size=np.shape(args[wrt]))
    g = grad(fn, wrt=wrt)
    want = numeric_jvp(lambda *a: g(*a), args, [v if i == wrt else np.zeros(np.shape(a))
                                                for i, a in enumerate(args)])
    assert_close(hvp(fn, *args, v, wrt=wrt), want, 1e-4, 1e-5, what=fn.__name__)


def test_corpus_size():
    assert len(CASES) >= 35


# --- gradients with respect to dicts, lists and tuples --------------------------------------

def dict_params(params, x):
    h = np.tanh(x @ params["w"] + params["b"])
    return np.sum(h ** 2)


def nested_dict_params(params, x):
    layer = params["layer"]
    y = x @ layer["w"] * params["scale"]
    return np.sum(np.sin(y))


def dict_params_items(params):
    s = 0.0
    for name, value in params.items():
        s = s + np.sum(value ** 2) * len(name)
    return s


def list_of_weights(ws, x):
    h = x
    for w in ws:
        h = np.tanh(h @ w)
    return np.sum(h)


def tuple_of_arrays(pair):
    a, b = pair
    return np.sum(a * np.sin(b))


def list_of_floats(xs):
    return xs[0] * xs[1] ** 2 + xs[2]


D = {"w": rng.normal(size=(3, 2)), "b": rng.normal(size=2), "unused": np.ones(2)}
ND = {"layer": {"w": rng.normal(size=(3, 2))}, "scale": 0.7}
X43 = rng.normal(size=(4, 3))
WS = [rng.normal(size=(3, 3)) * 0.5, rng.normal(size=(3, 2))]

STRUCT_CASES = [
    (dict_params, (D, X43), 0),
    (nested_dict_params, (ND, X43), 0),
    (dict_params_items, ({"ab": V, "c": X3},), 0),
    (list_of_weights, (WS, X43), 0),
    (tuple_of_arrays, ((V, U),), 0),
    (list_of_floats, ([0.5, 1.5, -2.0],), 0),
]


def _leaves(tree, path=()):
    if isinstance(tree, dict):
        for k, v in tree.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(tree, (list, tuple)):
        for i, v in enumerate(tree):
            yield from _leaves(v, path + (i,))
    else:
        yield path, tree


def _replace(tree, path, value):
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(tree, dict):
        return {k: _replace(v, rest, value) if k == head else v for k, v in tree.items()}
    return type(tree)(_replace(v, rest, value) if i == head else v for i, v in enumerate(tree))


def _get(tree, path):
    for p in path:
        tree = tree[p]
    return tree


def _same_structure(a, b):
    if isinstance(a, (dict, list, tuple)):
        assert type(a) is type(b), f"{type(a).__name__} != {type(b).__name__}"
    if isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            _same_structure(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _same_structure(x, y)
    else:
        assert np.shape(a) == np.shape(b)


@pytest.mark.parametrize("fn,args,wrt", STRUCT_CASES, ids=[c[0].__name__ for c in STRUCT_CASES])
def test_structured_gradient(fn, args, wrt):
    """The gradient has the argument's structure, and each leaf == finite differences."""
    d = differentiate(fn, wrt=wrt)
    g = d.grad(*args)
    _same_structure(g, args[wrt])
    for path, leaf in _leaves(args[wrt]):
        def f_leaf(v):
            new = list(args)
            new[wrt] = _replace(args[wrt], path, v)
            return fn(*new)
        assert_close(_get(g, path), numeric_grad(f_leaf, leaf), 1e-5, 1e-6,
                     what=f"{fn.__name__}: d/d {path}\n{d.source}")


@pytest.mark.parametrize("fn,args,wrt", STRUCT_CASES, ids=[c[0].__name__ for c in STRUCT_CASES])
def test_structured_gradient_matches_tape(fn, args, wrt):
    """The runtime tape takes the same nested structure of sources and returns its gradients."""
    import runtime as tf
    paths = [p for p, _ in _leaves(args[wrt])]
    tensors = [tf.constant(np.asarray(leaf, dtype=np.float64)) for _, leaf in _leaves(args[wrt])]
    tree = args[wrt]
    for p, t in zip(paths, tensors):
        tree = _replace(tree, p, t)
    new = [tf.constant(a) if isinstance(a, np.ndarray) else a for a in args]
    new[wrt] = tree
    with tf.GradientTape() as tape:
        tape.watch(tensors)
        y = fn(*new)
    expected = tape.gradient(y, tensors, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    got = differentiate(fn, wrt=wrt).grad(*args)
    for p, e in zip(paths, expected):
        assert_close(_get(got, p), e.numpy(), 1e-6, 1e-8, what=f"{fn.__name__}: {p} vs tape")


@pytest.mark.parametrize("fn,args,wrt", STRUCT_CASES, ids=[c[0].__name__ for c in STRUCT_CASES])
def test_structured_forward(fn, args, wrt):
    r = np.random.default_rng(5)
    tangent = args[wrt]
    for p, leaf in _leaves(args[wrt]):
        tangent = _replace(tangent, p, r.normal(size=np.shape(leaf)) if np.ndim(leaf) else float(r.normal()))
    _, tout = differentiate(fn, wrt=wrt, mode="forward").jvp(args, (tangent,))
    eps = 1e-6

    def moved(sign):
        tree = args[wrt]
        for p, leaf in _leaves(args[wrt]):
            step = sign * eps * np.asarray(_get(tangent, p))
            tree = _replace(tree, p, np.asarray(leaf, dtype=np.float64) + step)
        new = list(args)
        new[wrt] = tree
        return np.asarray(fn(*new), dtype=np.float64)

    assert_close(tout, (moved(1) - moved(-1)) / (2 * eps), 1e-5, 1e-6, what=f"{fn.__name__}: jvp vs fd")


def test_missing_dict_entries_are_zeros():
    g = differentiate(dict_params).grad(D, X43)
    assert set(g) == {"w", "b", "unused"}
    assert np.array_equal(g["unused"], np.zeros(2))


def test_tuple_wrt_with_a_dict_and_an_array():
    gd, gx = differentiate(dict_params, wrt=(0, 1)).grad(D, X43)
    assert isinstance(gd, dict) and isinstance(gx, np.ndarray) and gx.shape == X43.shape
    value, (gd2, _) = differentiate(dict_params, wrt=(0, "x")).value_and_grad(D, X43)
    assert_close(value, dict_params(D, X43))
    assert_close(gd2["w"], gd["w"])


def test_list_and_tuple_types_are_kept():
    assert isinstance(differentiate(list_of_weights).grad(WS, X43), list)
    assert isinstance(differentiate(tuple_of_arrays).grad((V, U)), tuple)
    assert differentiate(list_of_floats).grad([0.5, 1.5, -2.0]) == pytest.approx([2.25, 1.5, 1.0])


def test_dict_of_ints_is_refused():
    with pytest.raises(TypeError, match="integer"):
        differentiate(dict_params).grad({"w": 1, "b": D["b"]}, X43)


# --- effects happen once per call -------------------------------------------------------------

def prints(x):
    print("value of x:", x[0])
    for i in range(2):
        print("step", i)
        x = x * 2.0
    return np.sum(x * x)


@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_print_runs_once_per_call(capsys, mode):
    d = differentiate(prints, mode=mode)
    capsys.readouterr()
    if mode == "reverse":
        assert_close(d.grad(X3), 32.0 * X3)
    else:
        d.jvp((X3,), (np.ones(3),))
    out = capsys.readouterr().out
    assert out.count("value of x:") == 1 and out.count("step 0") == 1 and out.count("step 1") == 1, out


def prints_straight(x):
    print("value of x:", x[0])
    y = x * 2.0
    print("y is", y[1])
    return np.sum(y * y)


@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_print_without_loops_runs_once_per_call(capsys, mode):
    d = differentiate(prints_straight, mode=mode)
    capsys.readouterr()
    if mode == "reverse":
        assert_close(d.grad(X3), 8.0 * X3)
    else:
        assert_close(d.jvp((X3,), (np.ones(3),))[1], np.sum(8.0 * X3))
    out = capsys.readouterr().out
    assert out.count("value of x:") == 1 and out.count("y is") == 1, out


def test_random_draws_happen_once_per_call():
    """After f.grad the global generator is where the plain call leaves it."""
    def draws(x):
        noise = np.random.normal(size=3)
        unused = np.random.normal(size=2)    # a draw nobody reads still advances the state  # noqa: F841
        return np.sum(x * noise)

    d = differentiate(draws)
    np.random.seed(11)
    expected_grad = np.random.normal(size=3)
    np.random.seed(11)
    draws(X3)
    after_call = np.random.random()
    np.random.seed(11)
    g = d.grad(X3)
    after_grad = np.random.random()
    assert_close(g, expected_grad)
    assert after_call == after_grad


class Recorder:
    """A context manager that counts how often it is entered and left."""

    def __init__(self):
        self.enters = self.exits = 0

    def __enter__(self):
        self.enters += 1
        return 2.0

    def __exit__(self, *exc):
        self.exits += 1
        return False


REC = Recorder()


def with_recorder(x):
    with REC as factor:
        y = x * factor
    return np.sum(np.sin(y))


def test_with_enters_and_exits_once_per_call():
    d = differentiate(with_recorder)
    REC.enters = REC.exits = 0
    g = d.grad(X3)
    assert (REC.enters, REC.exits) == (1, 1)
    assert_close(g, 2.0 * np.cos(2.0 * X3))
    value, _ = differentiate(with_recorder, mode="forward").jvp((X3,), (np.ones(3),))
    assert (REC.enters, REC.exits) == (2, 2)


def test_with_returning_inside_the_block():
    def f(x):
        with np.errstate(all="ignore"):
            return np.sum(np.sqrt(x))
    check(f, U)


def test_writes_into_a_parameter_are_refused():
    """The primal changes the caller's array; a gradient working on its own copy would not, so the
    two calls would leave the caller's data different: refused at the line, with the copy to take."""
    def f(x):
        x[0] = x[1] ** 2
        return np.sum(x * x)

    with pytest.raises(TranspileError, match="changes the argument `x` in place") as info:
        differentiate(f)
    assert "x = x.copy()" in info.value.hint

    def g(x):
        x = np.array(x)
        x[0] = x[1] ** 2
        return np.sum(x * x)

    y = V.copy()
    check(g, y, tape=False)
    assert np.array_equal(y, V)


# --- the cost of writing into an array in a loop ---------------------------------------------

def fill(x):
    out = np.zeros(len(x))
    for i in range(len(x)):
        out[i] = np.sin(x[i]) * x[i]
    return np.sum(out * out)


def _peak(fn, n):
    x = np.linspace(0.1, 1.0, n)
    fn(x)                                    # warm up
    tracemalloc.start()
    fn(x)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def test_saved_values_per_write_do_not_grow_with_the_array():
    """A loop writing x[i] saves a few scalars per iteration, never a copy of the array.

    (Each write still copies the array in the primal: O(n) time per write, see docs/transpiler/speed.md.)
    """
    g = differentiate(fill).grad
    n1, n2 = 1000, 2000
    per_iteration = (_peak(g, n2) - _peak(g, n1)) / (n2 - n1)
    assert per_iteration < 400, per_iteration          # a saved array would be 8 * n bytes
    check(fill, V, tape=False)                         # numpy's out[i] = tensor drops the tape


# --- errors -------------------------------------------------------------------------------------

COUNTER = 0


def writes_global(x):
    global COUNTER
    COUNTER = COUNTER + 1
    return x * 2


def uses_eval(x):
    return eval("x * 2")


def raises(x):
    if np.sum(x) < 0:
        raise ValueError("negative")
    return x * 2


def extends_list(x):
    lst = [x]
    lst.extend([x * 2])
    return sum(lst)


def test_raise_in_a_branch_and_extend_of_a_local_list_work():
    """Once refused; now a ``raise`` is primal code (it fires in the gradient call as in the
    function) and ``.extend`` of a literal on a local list is a series of appends."""
    x = np.array([0.5, 1.5])
    check(raises, x, tape=False)
    check(extends_list, x, tape=False)
    with pytest.raises(ValueError, match="negative"):
        differentiate(raises).grad(-x)


def aliased_write(x):
    y = x * 1.0
    z = y
    z[0] = 0.0
    return np.sum(y)


def nested_write(x):
    m = np.zeros((2, 2))
    m[0][1] = x
    return np.sum(m)


def dict_unpacking(x):
    d = {"a": x}
    e = {**d, "b": x}
    return e["a"] * e["b"]


async def async_function(x):
    return x * 2


def write_after_append(x):
    rows = []
    row = np.zeros(3)
    for i in range(3):
        row[i] = x[i]            # in Python every entry of rows is this same array
        rows.append(row)
    return np.sum(np.stack(rows))


def row_then_inplace(x):
    m = np.outer(x, x)
    row = m[0]                   # a view: `m += 1.0` changes it in Python
    m += 1.0
    return np.sum(row * m)


@pytest.mark.parametrize("fn,words,advice", [
    (write_after_append, "shares its array", "copy"),
    (writes_global, "`global`", "return the new value"),
    (uses_eval, "`eval`", "ordinary Python"),
    (aliased_write, "shares its array", "copy"),
    (nested_write, "element of an element", "x[i, j]"),
    (dict_unpacking, "`**` unpacking", "d[k] = v"),
    (async_function, "async functions", "synchronous"),
])
def test_errors_point_at_the_construct(fn, words, advice):
    with pytest.raises(TranspileError) as info:
        differentiate(fn)
    err = info.value
    text = str(err)
    assert words in text, text
    assert advice in (err.hint or ""), err.hint
    assert err.filename.endswith("test_structures.py")
    assert err.lineno >= fn.__code__.co_firstlineno and err.text and "^" in text


def test_augmented_write_through_a_view_is_refused_when_it_runs():
    """`m += 1.0` after `row = m[0]`: m is an array here, which `+=` changes in place (row too); the
    check runs with the gradient, at the user's line (for a number, `+=` would make a new value)."""
    with pytest.raises(TranspileError, match="changes an array in place") as info:
        grad(row_then_inplace)(np.array([0.3, -0.2]))
    err = info.value
    assert err.filename.endswith("test_structures.py") and err.lineno == row_then_inplace.__code__.co_firstlineno + 3
    assert ".copy()" in err.hint or "copy" in err.hint


def try_that_fires(x):
    try:
        y = x / np.sum(x)
        if np.sum(x) == 0.0:
            y = [][0]
    except IndexError:
        y = x
    return np.sum(y * y)


def test_a_handler_that_fires_is_a_clear_error_at_run_time():
    d = differentiate(try_that_fires)
    check(try_that_fires, V, tape=False)        # the handler does not fire here
    with pytest.raises(TranspileError) as info:
        d.grad(np.array([1.0, -1.0]))
    err = info.value
    assert "IndexError" in str(err) and "`except` handler" in str(err) and err.text.strip() == "except IndexError:"
    assert "check for the failing case" in err.hint


def relu_by_mask(x):
    y = x.copy()
    y[y < 0] = 0.0
    return np.sum(y * y)


def test_boolean_mask_write():
    check(relu_by_mask, V, tape=False)


def test_writes_inside_a_recorded_op_and_its_second_derivative():
    """A @differentiate'd function with x[i] = v, called on tensors: one op on the tape whose
    backward (generated code) runs on tensors again for the second derivative."""
    import runtime as tf
    fill_d = differentiate(fill)
    xt = tf.constant(np.array([0.3, 0.5, 0.7]))
    with tf.GradientTape() as outer:
        outer.watch(xt)
        with tf.GradientTape() as inner:
            inner.watch(xt)
            y = fill_d(xt)
        g = inner.gradient(y, xt)
        s = tf.reduce_sum(g * g)
    assert_close(g.numpy(), fill_d.grad(xt.numpy()))
    expected = numeric_grad(lambda v: np.sum(fill_d.grad(v) ** 2), xt.numpy())
    assert_close(outer.gradient(s, xt).numpy(), expected, 1e-5, 1e-6)


def concatenated_list(x):
    lst = [x[0]]
    lst = [x[1] * 2.0] + lst        # (`lst = lst + [v]` is written as an append: containers/list_joins.py)
    return sum(lst)


def truncating_write(x):
    counts = np.zeros(3, dtype=int)
    counts[0] = x[0] * 2.0
    return np.sum(counts * x)


def test_truncation_is_an_error_not_a_wrong_gradient():
    with pytest.raises(TypeError, match="float dtype"):
        differentiate(truncating_write).grad(V)


def test_list_concatenation_is_differentiated():
    """`lst + [v]` gives each operand its own slots (test_concatenation.py has the rest)."""
    assert_close(differentiate(concatenated_list).grad(V), numeric_grad(concatenated_list, V))


@pytest.mark.parametrize("fn,args", [(fill, (V,)), (dict_params, (D, X43)), (list_comprehension, (V,))],
                         ids=["write_in_loop", "dict_argument", "comprehension"])
def test_standalone_module_needs_only_numpy(fn, args):
    """`python -m transpiler ... -o` copies setitem, Grads and friends into the module."""
    from runtime.rules.containers import restructure
    from transpiler.api import transform
    from transpiler.backend.codegen import standalone_module
    gen = transform(fn)
    text = standalone_module([gen])
    assert "runtime" not in text and "transpiler" not in text
    namespace = {}
    exec(compile(text, "<standalone>", "exec"), namespace)
    got = namespace[gen.node.name](*args)
    want = differentiate(fn).grad(*args)
    if isinstance(want, dict):
        got = restructure(got, args[0])
        for k in want:
            assert_close(got[k], want[k])
    else:
        assert_close(got, want)
