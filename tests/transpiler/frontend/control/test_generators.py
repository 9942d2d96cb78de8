"""Generators (frontend/control/iterables.py): a callee with ``yield`` / ``yield from`` is differentiated as
the list of what it yields, where its items are all taken -- a ``for`` loop or a comprehension over it,
``list``/``sum``/``tuple``/``zip``/``enumerate`` of it, ``yield from`` it, a name it is kept in and iterated
once, or a function of yours that iterates it once; other uses are refused at their line.

Every function in ``CASES`` is also swept by tests/transpiler/corpus.py through forward mode (test_forward.py)
and second order (test_higher.py).
"""

import numpy as np
import pytest

from tests.transpiler.checks import check
from transpiler import TranspileError, grad

rng = np.random.default_rng(23)
V = np.array([0.3, -0.7, 1.2, 0.5])
P = rng.normal(size=11) * 0.5                 # the weights of a two-layer net, flat
X = rng.normal(size=(3, 2))
SHAPES = [(2, 2), (2, 1)]


def squares(x):
    for v in x:
        yield v * v


def pairs(params):
    for i in range(0, len(params) - 1, 2):
        yield params[i], params[i + 1]


def unpack_layers(weights):
    """autograd's bayesian_neural_net: (W, b) per layer, read off one flat vector."""
    for m, n in SHAPES:
        yield weights[:m * n].reshape((m, n)), weights[m * n:m * n + n]
        weights = weights[(m + 1) * n:]


def squares_then_more(x):
    yield from squares(x)
    yield x[0] * 3.0
    yield from (np.sin(v) for v in x[1:3])


def countdown(x, n):
    k = 0
    while k < n:
        yield x[k] * (n - k)
        k += 1


def early_return(x):
    for v in x:
        if v > 1.0:
            return
        yield np.exp(v)


def running_products(x):
    acc = 1.0
    for v in x:
        acc = acc * v
        yield acc


def consume(items):
    total = 0.0
    for v in items:
        total = total + np.sin(v)
    return total


def ge_for_loop(x):
    s = 0.0
    for v in squares(x):
        s = s + v
    return s


def ge_sum(x):
    return sum(squares(x))


def ge_list_and_index(x):
    items = list(squares(x))
    return items[0] * items[2] + items[-1]


def ge_pairs_unpacked(x):
    s = 0.0
    for a, b in pairs(x):
        s = s + a * b
    return s


def ge_layers(w):
    h = X
    for W, b in unpack_layers(w):
        h = np.tanh(h @ W + b)
    return np.sum(h)


def ge_yield_from(x):
    return sum(list(squares_then_more(x)))


def ge_while_generator(x):
    return sum(countdown(x, 3))


def ge_return_stops(x):
    return sum(early_return(x))


def ge_comprehension(x):
    return np.sum(np.array([v * 2.0 for v in running_products(x)]))


def ge_kept_in_a_name(x):
    g = squares(x)
    y = x * 2.0
    s = 0.0
    for v in g:
        s = s + v * y[0]
    return s


def ge_passed_on(x):
    return consume(squares(x))


def ge_kept_and_passed_on(x):
    g = running_products(x)
    return consume(g)


def ge_zip_with_list(x):
    s = 0.0
    for a, b in zip(squares(x), x):
        s = s + a * b
    return s


def ge_enumerate(x):
    s = 0.0
    for i, v in enumerate(running_products(x)):
        s = s + (i + 1) * v
    return s


def ge_nested_generator(x):
    def halves(v):
        for t in v:
            yield t / 2.0
    return sum(halves(x * x))


def ge_tuple(x):
    a, b, c, d = tuple(squares(x))
    return a * d - b * c


CASES = [
    (ge_for_loop, (V,), 0),
    (ge_sum, (V,), 0),
    (ge_list_and_index, (V,), 0),
    (ge_pairs_unpacked, (V,), 0),
    (ge_layers, (P,), 0),
    (ge_yield_from, (V,), 0),
    (ge_while_generator, (V,), 0),
    (ge_return_stops, (V,), 0),
    (ge_comprehension, (V,), 0),
    (ge_kept_in_a_name, (V,), 0),
    (ge_passed_on, (V,), 0),
    (ge_kept_and_passed_on, (V,), 0),
    (ge_zip_with_list, (V,), 0),
    (ge_enumerate, (V,), 0),
    (ge_nested_generator, (V,), 0),
    (ge_tuple, (V,), 0),
]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)


# --- refused: uses whose items are not all taken, once ------------------------------------------------
def gr_next(x):
    return next(squares(x)) * 2.0


def gr_iterated_twice(x):
    g = squares(x)
    a = sum(g)
    return a + sum(g)                    # the second sum is 0.0 in Python: the generator is spent


def gr_changed_in_between(x):
    lst = [x[0], x[1]]
    g = squares(lst)
    lst.append(x[2])                     # the generator sees the longer list when it runs
    return sum(g)


def gr_break(x):
    s = 0.0
    for v in countdown(x, 4):
        if v > 1.0:
            break
        s = s + v
    return s


def gr_send_value(x):
    def echo():
        got = yield x[0]
        yield got
    return sum(echo())


REFUSED = [gr_next, gr_iterated_twice, gr_changed_in_between, gr_break, gr_send_value]


@pytest.mark.parametrize("fn", REFUSED, ids=[f.__name__ for f in REFUSED])
def test_refused_at_the_users_line(fn):
    with pytest.raises(TranspileError) as info:
        grad(fn)(V)
    assert info.value.filename == __file__
    assert fn.__code__.co_firstlineno < info.value.lineno <= fn.__code__.co_firstlineno + 8
