"""``jit=True`` on code numba cannot take as generated (transpiler/jit_calls.py): a loop whose
save stack mixes an index with floats, an MLP with ``np.max(..., axis=1, keepdims=True)`` and
``np.tanh`` on a large array.  Each must compile (no JitFallbackWarning) and its compiled code
must run to the end (no bail-out to plain numpy), with the plain gradient's numbers; the
rewritten helpers match numpy on their own.  Speed is measured in benchmarks/jit.py, not here.
"""

import ast
import warnings

import numpy as np
import pytest

numba = pytest.importorskip("numba")

from tests.fd import assert_close, numeric_grad  # noqa: E402
from transpiler import grad  # noqa: E402
from transpiler import jit_calls  # noqa: E402
from transpiler.jit import JitFallbackWarning, require_numba  # noqa: E402
from transpiler.variants import transformer  # noqa: E402


def chain(x, k):
    e = 0.0
    for i in range(len(x) - 1):
        d = x[i + 1] - x[i]
        e = e + k * (d - 1.0) ** 2
    return e


def mlp(W1, b1, W2, b2, X, Y):
    h = np.tanh(X @ W1 + b1)
    z = h @ W2 + b2
    m = np.max(z, axis=1, keepdims=True)
    e = np.exp(z - m)
    p = e / np.sum(e, axis=1, keepdims=True)
    return -np.sum(Y * np.log(p)) / X.shape[0]


def _compiled_runs(fn, args):
    """The results of every compiled variant of ``fn`` called directly, so a bail-out (which
    the caller would hide by rerunning plain numpy) raises here."""
    out = []
    for gen in transformer(fn).cache.values():
        run = getattr(gen, "_jitted", None)
        if run is not None:
            assert not run.failed
            out.append(run.compiled(*args))
    assert out
    return out


@pytest.fixture
def no_fallback():
    with warnings.catch_warnings():
        warnings.simplefilter("error", JitFallbackWarning)
        yield


def test_loop_with_an_index_saved_next_to_floats_compiles(no_fallback):
    x = np.cumsum(np.linspace(0.5, 1.5, 9))
    got = grad(chain, jit=True)(x, 0.7)
    assert_close(got, numeric_grad(lambda v: chain(v, 0.7), x), 1e-6, 1e-8, "jit vs FD")
    for direct in _compiled_runs(chain, (x, 0.7)):
        assert_close(direct, grad(chain)(x, 0.7), 1e-12, 1e-14, "compiled vs plain")


def test_mlp_with_axis_reductions_and_large_tanh_compiles(no_fallback):
    rng = np.random.default_rng(1)
    W1, b1 = rng.standard_normal((20, 64)) * 0.3, rng.standard_normal(64) * 0.1   # h: 32x64 > _LARGE
    W2, b2 = rng.standard_normal((64, 5)) * 0.3, rng.standard_normal(5) * 0.1
    X, Y = rng.standard_normal((32, 20)), np.eye(5)[rng.integers(0, 5, 32)]
    args = (W1, b1, W2, b2, X, Y)
    g = grad(mlp, wrt=(0, 1, 2, 3), jit=True)(*args)
    plain = grad(mlp, wrt=(0, 1, 2, 3))(*args)
    for k in (1, 3):
        at = lambda v: mlp(*args[:k], v, *args[k + 1:])    # noqa: E731
        assert_close(g[k], numeric_grad(at, args[k]), 1e-6, 1e-8, f"jit d/d arg {k} vs FD")
    for direct in _compiled_runs(mlp, args):
        for a, b in zip(direct, plain):
            assert_close(a, b, 1e-12, 1e-14, "compiled vs plain")


@pytest.mark.parametrize("name", ["sum", "max", "min", "mean", "prod"])
def test_reduction_helpers_match_numpy(name):
    require_numba()
    a2 = np.random.default_rng(2).standard_normal((4, 3))
    for (op, keep), helper in jit_calls._REDUCERS.items():
        if op is not getattr(np, name):
            continue
        for a in (a2, a2[1], np.asfortranarray(a2)):
            axes = (None, 0, -1) + ((1, -2) if a.ndim == 2 else ())
            for axis in axes:
                if axis is None and not keep and a.ndim == 2:
                    continue                # (left to numba's own np.<name>(a))
                got = numba.njit(lambda a, axis: helper(a, axis))(a, axis)
                want = op(a, axis=axis, keepdims=keep)
                assert np.shape(got) == np.shape(want), (name, keep, axis, a.shape)
                assert_close(got, want, 1e-13, 1e-15, f"{name} keepdims={keep} axis={axis}")


def test_large_ufunc_helpers_match_numpy():
    require_numba()
    for n in (5, 3000):            # numba's own loop, numpy's through object mode
        a = np.linspace(0.1, 0.9, n).reshape(-1, 5)
        for f in (np.tanh, np.exp, np.log, np.arcsin):
            helper = jit_calls._CALLERS[f]
            got = numba.njit(lambda a: helper(a))(a)
            assert got.shape == a.shape and np.allclose(got, f(a), rtol=1e-14, atol=0), f
            assert numba.njit(lambda v: helper(v))(0.3) == pytest.approx(f(0.3), rel=1e-14)
            assert np.allclose(numba.njit(lambda a: helper(a))(a.T), f(a.T), rtol=1e-14, atol=0)


def _stack_source(body):
    return ("def f(x):\n    stack = []\n    push = stack.append\n    pop = stack.pop\n"
            + "".join(f"    {line}\n" for line in body))


def _split(body):
    node = ast.parse(_stack_source(body)).body[0]
    jit_calls._per_name_stacks(node)
    return ast.unparse(node)


def _run(code, x):
    ns = {}
    exec(compile(code, "<stack>", "exec"), ns)
    return ns["f"](x)


def test_save_stack_splits_by_name_only_when_pushes_and_pops_pair_by_name():
    body = ["out = []",
            "for i in range(3):", "    t = x[i] * 2.0", "    push(t)", "    push(i)",
            "    for j in range(i):", "        u = t + j", "        push(u)",
            "    push(i)",
            "for i in reversed(range(3)):", "    i = pop()",
            "    for j in reversed(range(i)):", "        u = pop()", "        out.append(u)",
            "    i = pop()", "    t = pop()", "    out.append((i, t))",
            "return out"]
    code = _split(body)
    assert "stack_t.append(t)" in code and "t = stack_t.pop()" in code and "stack_i = []" in code
    assert "push" not in code and "pop()" not in code.replace("stack_i.pop()", "").replace(
        "stack_t.pop()", "").replace("stack_u.pop()", "")
    x = np.array([0.5, -1.0, 2.0])
    assert _run(code, x) == _run(_stack_source(body), x)     # what the one list gave
    for unusual in (["push(t + 1)"], ["u = pop()"], ["s = stack"], ["pop()"], ["q = pop"]):
        assert "stack_" not in _split(["t = 1.0", "push(t)"] + unusual), unusual
