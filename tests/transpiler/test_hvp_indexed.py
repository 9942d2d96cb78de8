"""``hvp`` through a loop of indexed reads keeps the gradient's O(1) work and memory per read.

The gradient adds each read's adjoint into its array in place (``bx = add_at(bx, g, x, i)``).
Forward over that, the tangent of the add is the same add on the tangents
(``dbx = add_at(dbx, dg, x, i)``, add_at's ``linear_in``), and the loop's carried copies are
coalesced so both arrays are held by one name (backend/peephole.py) and add in place.  Before,
each read built a zero array of x's size (``scatter_add``) and copied the gradient: quadratic.
Checked by what the generated code does and what it keeps, not by time.
"""

import ast
import gc
import tracemalloc

import numpy as np

from runtime.rules.inplace import add_at
from tests.fd import assert_close
from transpiler import hvp
from transpiler.higher import _hvp_gen


def indexed(x):
    s = 0.0
    for i in range(len(x)):
        s = s + (np.sin(x[i]) * x[i]) ** 2
    return s


def pairs(x):
    e = 0.0
    for i in range(len(x) - 1):
        d = x[i + 1] - x[i]
        e = e + 3.0 * (d - 1.0) ** 2
    return e


def _hessian(f, x, h=1e-4):
    """Central differences of central differences (f is cheap and smooth)."""
    n = x.size
    H = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            def at(a, b):
                y = x.copy()
                y[i] += a
                y[j] += b
                return f(y)
            H[i, j] = (at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)
    return H


def _loops(source):
    return [n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.For, ast.While))]


def test_hvp_matches_finite_differences():
    rng = np.random.default_rng(3)
    for f in (indexed, pairs):
        x, v = rng.uniform(0.2, 1.5, 6), rng.standard_normal(6)
        assert_close(hvp(f)(x, v), _hessian(f, x) @ v, 1e-5, 1e-6, f"{f.__name__}: hvp vs FD")


def test_each_read_adds_in_place_in_the_tangent_loop():
    for f in (indexed, pairs):
        source = _hvp_gen(f, 0)[1].source
        for loop in _loops(source):
            for call in (n for n in ast.walk(loop) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)):
                assert call.func.id not in ("scatter_add", "broadcast_like") or not _is_array_sized(call), \
                    ast.unparse(call)
            adds = [s for s in ast.walk(loop) if isinstance(s, ast.Assign) and isinstance(s.value, ast.Call)
                    and isinstance(s.value.func, ast.Name) and s.value.func.id == "add_at"]
            for s in adds:      # `b = add_at(b, ...)`: one name holds the array, so it adds in place
                assert s.targets[0].id == s.value.args[0].id, ast.unparse(s)
        assert any("add_at(d" in ast.unparse(s) for s in ast.walk(ast.parse(source))
                   if isinstance(s, ast.Assign)), source          # the tangent's own add


def _is_array_sized(call):
    return any(isinstance(a, ast.Name) and a.id.startswith(("bx", "dbx")) for a in call.args)


def test_add_at_adds_into_a_private_array():
    out = np.zeros(4)
    got = add_at(out, 2.0, np.ones(4), 1)
    assert got is out and out[1] == 2.0
    held = np.zeros(4)
    alias = held                                      # noqa: F841  (a second name: must copy)
    assert add_at(held, 2.0, np.ones(4), 1) is not held


def _kept_per_read(f, n):
    """Peak bytes Python and numpy hold during one hvp call, per element of x."""
    h = hvp(f)
    x, v = np.linspace(0.2, 1.2, n), np.ones(n)
    h(x, v)
    gc.collect()
    tracemalloc.start()
    try:
        h(x, v)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / n


def test_what_it_keeps_per_read_does_not_grow_with_n():
    """The saved values are a few numbers per read (O(1)), not an array per read (O(n))."""
    for f in (indexed, pairs):
        small, large = _kept_per_read(f, 1000), _kept_per_read(f, 8000)
        assert large < 1.5 * small and large < 2000, (f.__name__, small, large)
