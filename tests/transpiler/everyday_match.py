"""``match`` statements (Python 3.10+ syntax, so in a module of their own)."""

import numpy as np

from tests.transpiler import test_everyday as ev

V = ev.V


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
        case [a, b, *rest]:
            y = a * b + sum(rest)
    return y


def ma_class(x):
    b = ev.Box(x[0], x[1])
    match b:
        case ev.Pair():
            y = 0.0
        case ev.Box(v=v):
            y = v * b.scale
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


MATCH_CASES = [(ma_literal, (V,), 0), (ma_sequence, (V,), 0), (ma_class, (V,), 0), (ma_mapping, (V,), 0),
               (ma_guard, (V,), 0)]
