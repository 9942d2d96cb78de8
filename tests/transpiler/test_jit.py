"""``jit=True``: gradients compiled with numba, checked against central finite differences.

Each test also checks that numba really compiled the variant (no fallback), except the
fallback tests, which check the one warning and its line.  numba compiles slowly (about a
second per variant on a busy machine), so the functions are few and module-level, and each
variant is compiled once per process and shared by the tests that call it.
"""

import gc
import math
import os
import pickle
import sys
import warnings

import numpy as np
import pytest

numba = pytest.importorskip("numba")     # the [jit] extra (CI installs every extra: nothing skips there)

from tests.fd import assert_close, numeric_grad  # noqa: E402
from transpiler import differentiate, grad, value_and_grad  # noqa: E402
from transpiler.jit import JitFallbackWarning, jitted  # noqa: E402
from transpiler.variants import transformer  # noqa: E402


def issue_loop(x, n):
    for i in range(n):
        x = x + 0.01 * (np.sin(x) * np.cos(x) - 0.1 * x)
    return x


def control(x, a, n):
    """Branches, a while loop, and for loops with a start, a step and a negative step (their
    reversed ranges are rewritten for numba)."""
    s = 0.0
    for i in range(n):
        if x > 0.5:
            s = s + x * a
        else:
            s = s - math.exp(x * a)
        x = x * 0.9 + 0.05 * math.sin(s)
    for i in range(2, n):
        s = s + math.cos(s * a) * i * 0.01
    for i in range(1, n, 3):
        s = s * (1.0 + 0.001 * i * x)
    for i in range(n, 0, -2):
        s = s + 0.01 * math.sin(s + i * a)
    while s * s < 400.0:
        s = s * 1.7 + a
    return s


def elementwise(x):
    return np.sum(np.sin(x) * x)


def indexed(x):
    s = 0.0
    for i in range(len(x)):
        s = s + (np.sin(x[i]) * x[i]) ** 2
    return s


def uses_einsum(x):
    y = x * 2.0
    z = np.einsum("i,i->", y, x)
    return z * 3.0


EINSUM_LINE = uses_einsum.__code__.co_firstlineno + 2


def _fd_scalar(f, args, k):
    """d f / d args[k] for a Python-float argument, by central differences."""
    def at(v):
        new = list(args)
        new[k] = float(v)
        return f(*new)
    return float(numeric_grad(at, args[k]))


def _compiled(fn):
    """How many variants of ``fn`` numba compiled and runs (no fallback)."""
    n = 0
    for gen in transformer(fn).cache.values():
        run = getattr(gen, "_jitted", None)
        if run is not None and not run.failed:
            n += bool(run.dispatcher.signatures)        # the argument types numba compiled for
    return n


@pytest.fixture
def no_fallback():
    with warnings.catch_warnings():
        warnings.simplefilter("error", JitFallbackWarning)
        yield


def test_issue_loop_matches_fd_and_plain_gradient(no_fallback):
    g = grad(issue_loop, jit=True)
    for x in (0.3, -1.2):
        got = g(x, 200)
        assert type(got) is float
        assert_close(got, _fd_scalar(issue_loop, [x, 200], 0), 1e-7, 1e-9, "jit vs FD")
        assert abs(got - grad(issue_loop)(x, 200)) <= 1e-13 * max(1.0, abs(got))
    assert _compiled(issue_loop) >= 1
    assert g(0.3, 200, 2.0) == pytest.approx(2.0 * g(0.3, 200), rel=1e-14)   # the seed argument


def test_value_and_grad_and_decorator(no_fallback):
    value, dx = value_and_grad(issue_loop, jit=True)(0.7, 50)
    assert value == pytest.approx(issue_loop(0.7, 50), rel=1e-14)
    assert_close(dx, _fd_scalar(issue_loop, [0.7, 50], 0), 1e-7, 1e-9, "value_and_grad jit vs FD")
    d = differentiate(issue_loop, jit=True)
    assert d(0.7, 50) == issue_loop(0.7, 50)
    assert d.grad(0.7, 50) == pytest.approx(dx, rel=1e-14)
    v2, d2 = d.value_and_grad(0.7, 50)
    assert (v2, d2) == pytest.approx((value, dx), rel=1e-14)


@pytest.mark.parametrize("x, a, n", [(0.3, 0.8, 7), (0.9, 1.1, 12), (0.2, 0.5, 0)])
def test_control_flow(no_fallback, x, a, n):
    g = grad(control, wrt=(0, 1), jit=True)
    dx, da = g(x, a, n)
    plain = grad(control, wrt=(0, 1))(x, a, n)
    assert_close(dx, _fd_scalar(control, [x, a, n], 0), 1e-6, 1e-8, "d/dx jit vs FD")
    assert_close(da, _fd_scalar(control, [x, a, n], 1), 1e-6, 1e-8, "d/da jit vs FD")
    assert_close((dx, da), plain, 1e-12, 1e-14, "jit vs plain gradient")
    assert _compiled(control) >= 1


def test_arrays(no_fallback):
    x = np.linspace(-1.0, 2.0, 7)
    for f in (elementwise, indexed):
        got = grad(f, jit=True)(x)
        assert isinstance(got, np.ndarray) and got.dtype == np.float64 and got.shape == x.shape
        assert_close(got, numeric_grad(f, x), 1e-6, 1e-8, f"{f.__name__}: jit vs FD")
        assert_close(got, grad(f)(x), 1e-12, 1e-14, f"{f.__name__}: jit vs plain gradient")
        assert _compiled(f) >= 1, f.__name__


def test_fallback_warns_once_at_the_line():
    x = np.array([0.5, -1.0, 2.0])
    g = grad(uses_einsum, jit=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = [g(x) for _ in range(3)] + [grad(uses_einsum, jit=True)(x)]
    ours = [w for w in caught if issubclass(w.category, JitFallbackWarning)]
    assert len(ours) == 1, [str(w.message) for w in caught]
    message = str(ours[0].message)
    assert f"{__file__}, line {EINSUM_LINE}" in message and "np.einsum" in message, message
    assert ours[0].filename == __file__               # points at the caller, not at adjoin
    for r in results:
        assert_close(r, numeric_grad(uses_einsum, x), 1e-6, 1e-8, "fallback vs FD")
    assert issubclass(JitFallbackWarning, UserWarning)


def test_fallback_without_a_location_names_the_function():
    x = np.array([0.5, -1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", JitFallbackWarning)
        grad(uses_einsum, jit=True)(x)
    gen = next(g for g in transformer(uses_einsum).cache.values() if getattr(g, "_jitted", None))
    where = gen._jitted._where(Exception("no location in this message"))
    assert where.endswith("def uses_einsum") and __file__ in where


def test_without_numba_says_how_to_install(monkeypatch):
    import transpiler.jit as jit
    monkeypatch.setitem(sys.modules, "numba", None)      # `import numba` raises ImportError
    for make in (lambda: grad(elementwise, jit=True), lambda: value_and_grad(elementwise, jit=True),
                 lambda: differentiate(elementwise, jit=True)):
        with pytest.raises(ImportError, match=r"pip install adjoin\[jit\]"):
            make()
    assert jit.INSTALL == "pip install adjoin[jit]"


def test_forward_mode_refuses_jit():
    with pytest.raises(ValueError, match="reverse-mode"):
        differentiate(elementwise, mode="forward", jit=True)


def test_pickles_and_keeps_jit(no_fallback):
    cloudpickle = pytest.importorskip("cloudpickle")
    g = grad(issue_loop, jit=True)
    back = pickle.loads(cloudpickle.dumps(g))
    assert back._jit and back(0.3, 200) == g(0.3, 200)
    d = pickle.loads(cloudpickle.dumps(differentiate(issue_loop, jit=True)))
    assert d._jit and d.grad(0.3, 200) == g(0.3, 200)


def test_reversed_range_rewrite_counts_down_like_reversed():
    """The rewrite of reversed(range(a, b, s)) against Python's own reversed, without numba."""
    import ast
    from transpiler.jit import _count_down
    for a in range(-4, 5):
        for b in range(-4, 5):
            for s in (1, 2, 3, -1, -2, -3):
                for step in (str(s), "s"):       # a literal step, and one known only at run time
                    node = ast.parse(f"reversed(range(a, b, {step}))", mode="eval").body
                    down = ast.unparse(_count_down(node))
                    assert list(eval(down, {"a": a, "b": b, "s": s})) == list(reversed(range(a, b, s))), \
                        (a, b, s, down)
            for text in ("reversed(range(a, b))", "reversed(range(b))"):
                down = ast.unparse(_count_down(ast.parse(text, mode="eval").body))
                assert list(eval(down, {"a": a, "b": b})) == list(eval(text)), (text, down)


def test_indexed_reads_add_in_place_only_into_private_arrays():
    """``b = add_at(b, ...)`` becomes an in-place add only where no other name can hold ``b``."""
    import ast
    from runtime.rules.containers import zero_grad
    from runtime.rules.inplace import add_at
    from transpiler.jit import ADD_INTO, _private
    known = {"zero_grad": zero_grad, "add_at": add_at}

    def private(body, params="x"):
        node = ast.parse(f"def f({params}):\n" + "".join(f"    {line}\n" for line in body)).body[0]
        return _private(node, lambda func: known.get(getattr(func, "id", None)), add_at)

    adds = ["b = add_at(b, 1.0, x, 0)", "b = add_at(b, 2.0, x, 1)"]
    assert private(["b = zero_grad(x)"] + adds + ["return b"]) == {"b"}
    assert private(["b = zero_grad(x)", "b = b * 2.0"] + adds + ["return (b, x)"]) == {"b"}
    assert private(["b = zero_grad(x)", "c = b"] + adds + ["return c"]) == set()        # an alias
    assert private(["b = zero_grad(x)", "push(b)"] + adds + ["return b"]) == set()      # saved
    assert private(["b = x"] + adds + ["return b"]) == set()                            # the argument
    assert private(adds + ["return b"], "x, b") == set()                                # a parameter
    assert private(["b = zero_grad(x)", "b = unbroadcast(b, x)"] + adds + ["return b"]) == set()
    x = np.linspace(-1.0, 2.0, 7)
    assert_close(grad(indexed, jit=True)(x), numeric_grad(indexed, x), 1e-6, 1e-8, "in place vs FD")
    gen = next(g for g in transformer(indexed).cache.values() if getattr(g, "_jitted", None))
    assert ADD_INTO in gen._jitted.code


def _rss():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _jit_closure(c):
    def f(x):
        y = x
        for _ in range(3):
            y = np.sin(y * c)
        return np.sum(y)
    return f


def test_dropped_jitted_closures_leave_memory_flat(no_fallback):
    """numba never frees compiled code (about 3 MB a compilation): closures of one def share one
    compilation, their numbers passed in, so 40 jitted closures made and dropped keep memory flat
    (before: +141 MB for 50)."""
    if not os.path.exists("/proc/self/statm"):
        pytest.skip("reads the resident size from /proc")
    x = np.linspace(-1.0, 1.0, 3)

    def churn(n, start):
        for i in range(n):
            c = start + i / n
            f = _jit_closure(c)
            got = grad(f, jit=True)(x)
            assert_close(got, numeric_grad(f, x), 1e-6, 1e-8, f"jitted closure c={c}")
            assert_close(got, grad(f)(x), 1e-12, 1e-14, "jit vs plain")
        gc.collect()

    churn(3, 0.5)                              # warm up: the one compilation happens here
    before = _rss()
    churn(40, 1.0)
    grew = _rss() - before
    assert grew < 30_000_000, f"resident memory grew by {grew / 1e6:.0f} MB over 40 jitted closures"
