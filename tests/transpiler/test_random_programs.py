"""Hypothesis writes random straight-line programs; transpiler == tape == finite differences.

Programs mix operators, numpy calls, reductions with axis/keepdims, conditional
expressions, tuple unpacking and reuse of values over 1-3 inputs whose shapes broadcast.
Each program is registered with linecache under a fake file name, the way notebook
cells are, so ``inspect.getsource`` reads it like any other function.
"""

import linecache

import numpy as np
from hypothesis import given, strategies as st

from runtime.rules.activations import sigmoid
from tests.fd import assert_close
from tests.transpiler.checks import check, fd_grads

SHAPES = [(2, 3), (3,), (1, 3), (2, 1), ()]

BINARY = ["{a} + {b}", "{a} - {b}", "{a} * {b}", "{a} / ({b} * {b} + 1.0)", "np.maximum({a}, {b})",
          "np.arctan2({a}, {b} * {b} + 0.5)", "{a} * 2.5 - {b}"]
UNARY = ["np.sin({a})", "np.cos({a})", "np.tanh({a})", "-{a}", "{a} ** 2", "np.sqrt({a} * {a} + 1.0)",
         "np.log({a} * {a} + 1.0)", "sigmoid({a})", "np.exp(np.tanh({a}))", "abs({a}) * {a}",
         "{a} / 3", "1.5 ** np.tanh({a})"]
REDUCE = ["np.sum({a}, axis=-1, keepdims=True)", "np.mean({a}, axis=0, keepdims=True)",
          "np.max({a}, axis=-1, keepdims=True)", "np.sum({a}) * {b}"]

_counter = [0]


@st.composite
def programs(draw):
    n = draw(st.integers(1, 3))
    shapes = [draw(st.sampled_from(SHAPES)) for _ in range(n)]
    names = [f"x{i}" for i in range(n)]
    ndim = {name: len(s) for name, s in zip(names, shapes)}
    lines = []
    live = list(names)
    for k in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["binary", "unary", "reduce", "ifexp", "unpack"]))
        a = draw(st.sampled_from(live))
        b = draw(st.sampled_from(live))
        v = f"v{k}"
        if kind == "binary":
            expr = draw(st.sampled_from(BINARY)).format(a=a, b=b)
            nd = max(ndim[a], ndim[b])
        elif kind == "unary":
            expr = draw(st.sampled_from(UNARY)).format(a=a)
            nd = ndim[a]
        elif kind == "reduce" and ndim[a] > 0:
            expr = draw(st.sampled_from(REDUCE)).format(a=a, b=b)
            nd = ndim[b] if expr.startswith(f"np.sum({a}) *") else ndim[a]
        elif kind == "ifexp":
            expr = f"{a} * 2.0 if {b}.ndim > 0 else {a} - {b}"
            nd = ndim[a] if ndim[b] > 0 else max(ndim[a], ndim[b])
        else:
            w = f"w{k}"
            lines.append(f"{v}, {w} = {a} * {b}, {a} - 1.0")
            ndim[v], ndim[w] = max(ndim[a], ndim[b]), ndim[a]
            live += [v, w]
            continue
        lines.append(f"{v} = {expr}")
        ndim[v] = nd
        live.append(v)
    out = live[-1]
    ret = draw(st.sampled_from([out, f"np.sum({out} * {live[0]})", f"{out} + {live[-2] if len(live) > 1 else out}"]))
    lines.append(f"return {ret}")
    seed = draw(st.integers(0, 2 ** 31 - 1))
    return names, shapes, lines, seed


def build(names, lines):
    _counter[0] += 1
    filename = f"<random-program-{_counter[0]}>"
    source = f"def prog({', '.join(names)}):\n" + "".join(f"    {line}\n" for line in lines)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"np": np, "sigmoid": sigmoid}
    exec(compile(source, filename, "exec"), namespace)
    return namespace["prog"], source


@given(programs())
def test_random_program(program):
    names, shapes, lines, seed = program
    fn, source = build(names, lines)
    rng = np.random.default_rng(seed)
    args = [rng.normal(size=s) if s else np.float64(rng.normal()) for s in shapes]
    wrt = tuple(range(len(names))) if len(names) > 1 else 0
    try:
        d = check(fn, *args, wrt=wrt, rtol=1e-4, atol=1e-5)
        _again_with_other_lengths(fn, d, shapes, wrt, rng)
    except AssertionError as e:
        raise AssertionError(f"program:\n{source}\n{e}") from None


_SAME_NDIM = {2: [(2, 3), (1, 3), (2, 1), (1, 1), (4, 3)], 1: [(3,), (1,), (5,)]}


def _again_with_other_lengths(fn, d, shapes, wrt, rng):
    """The same function (its variants cached) on arguments of the same ndims and other
    lengths, axes of length 1 among them: each must run the variant of its own lengths
    (``analysis/signature.py``), whatever ran before.  Shapes the program cannot take
    (numpy raises in it) are skipped: the gradient may run where only a value it does not need
    would have raised (dead code is removed)."""
    for _ in range(2):
        other = [rng.choice(len(_SAME_NDIM[len(s)])) if len(s) in _SAME_NDIM else None for s in shapes]
        new = [_SAME_NDIM[len(s)][k] if k is not None else s for s, k in zip(shapes, other)]
        args = [rng.normal(size=s) if s else np.float64(rng.normal()) for s in new]
        try:
            fn(*args)
        except ValueError:
            continue
        idx = list(wrt) if isinstance(wrt, tuple) else [wrt]
        got = d.grad(*args)
        got = got if isinstance(wrt, tuple) else (got,)
        for i, g in zip(idx, got):
            assert np.shape(g) == np.shape(args[i]), (new, i, np.shape(g))
            assert_close(g, fd_grads(fn, args, [i])[0], 1e-4, 1e-5, what=f"shapes {new}: d/d arg {i}")
