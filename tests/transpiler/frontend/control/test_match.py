"""``match`` statements inside differentiated functions, written as ``if``/``elif`` chains
(frontend/control/match.py).

Every function in ``CASES`` is also swept by tests/transpiler/corpus.py through forward mode (test_forward.py)
and second order (test_higher.py).
"""

import numpy as np
import pytest

from tests.transpiler.checks import check

rng = np.random.default_rng(2026)
V = rng.normal(size=4)


def ma_literal(x):
    n = 2
    match n:
        case 1:
            y = x * 1.0
        case 2:
            y = x * x
        case _:
            y = x
    return np.sum(y)


def ma_sequence(x):
    match [x[0], x[1] * 2.0, x[2]]:
        case [a]:
            y = a
        case [a, b]:
            y = a - b
        case [a, *_, c]:
            y = a * c + x[3]
    return y


def ma_class(x):
    match x:
        case list():
            y = x[0]
        case np.ndarray(ndim=1) if x.shape[0] > 2:
            y = x[1] * x[2]
    return y


def ma_or_and_capture(x):
    k = 3
    match (k, x[0] * 2.0):
        case (1 | 2, v):
            y = v
        case (3, v) if k > 1:
            y = v * v * x[1]
        case _:
            y = x[2]
    return y


def ma_mapping(x):
    d = {"kind": "sq", "v": x[0]}
    match d:
        case {"kind": "lin", "v": v}:
            y = v
        case {"kind": "sq", "v": v}:
            y = v * v * x[1]
    return y


def ma_guard(x):
    k = 3
    match k:
        case int() if k > 5:
            y = x[0]
        case int():
            y = x[0] * x[1]
    return y


CASES = [(ma_literal, (V,), 0), (ma_sequence, (V,), 0), (ma_class, (V,), 0), (ma_mapping, (V,), 0),
         (ma_guard, (V,), 0),
         (ma_or_and_capture, (V,), 0)]


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_reverse(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)   # finite differences; the tape cannot run every construct
