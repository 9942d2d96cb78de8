"""Python-float arguments: the gradient runs a variant specialised on them (no
``unbroadcast``/``ones_like`` bookkeeping), without any annotation, and stays correct.
"""

import ast
import math

import numpy as np
from hypothesis import given, settings, strategies as st

from tests.fd import assert_close, numeric_grad
from tests.transpiler.checks import check
from transpiler import differentiate, grad
from transpiler.backend.inline import inline_temporaries
from transpiler.backend.release import release_dead


def scalar_loop(x, a):
    y = x
    for i in range(50):
        y = math.sin(y) * a + 0.1 * y
    return y


def counter_loop(x, n):
    s = 0.0
    for i in range(n):
        s = s + x * i + math.cos(s)
    return s


def mixed(x, v):
    return np.sum(np.sin(x * v) + x * x)


def _variant(d, *args):
    return d._t.get(d._wrt, False, floats=d._t.floats(args, {}))


def test_float_variant_has_no_broadcasting_bookkeeping():
    d = differentiate(scalar_loop, wrt=(0, 1))
    generic = d.source
    special = _variant(d, 0.3, 0.9).source
    assert "unbroadcast" in generic and "ones_like" in generic
    assert "unbroadcast" not in special and "ones_like" not in special, special
    # and the specialised gradient is the right one
    gx, ga = d.grad(0.3, 0.9)
    fd_x = numeric_grad(lambda x: scalar_loop(float(x), 0.9), 0.3)
    fd_a = numeric_grad(lambda a: scalar_loop(0.3, float(a)), 0.9)
    assert_close(gx, fd_x, 1e-6, 1e-8, what="d/dx")
    assert_close(ga, fd_a, 1e-6, 1e-8, what="d/da")


def test_range_counter_is_a_scalar():
    d = differentiate(counter_loop)
    assert "unbroadcast" not in _variant(d, 0.4, 7).source
    assert_close(d.grad(0.4, 7), numeric_grad(lambda x: counter_loop(float(x), 7), 0.4), 1e-6, 1e-8)


def test_arrays_after_floats_use_the_general_code():
    d = differentiate(mixed, wrt=(0, 1))
    v = np.array([0.2, -1.0, 0.7])
    gf = d.grad(0.5, v)                         # x a float: specialised
    ga = d.grad(np.array([0.5, 0.5, 0.5]), v)   # x an array: general, with unbroadcast
    assert np.shape(gf[0]) == () and np.shape(ga[0]) == (3,)
    assert_close(np.sum(ga[0]), gf[0], 1e-12, 1e-12, what="float vs array x")
    check(mixed, 0.5, v, wrt=(0, 1))
    check(mixed, np.array([0.5, -0.1, 2.0]), v, wrt=(0, 1))


def test_vjp_and_value_and_grad_with_floats():
    d = differentiate(scalar_loop, wrt=0)
    value, g = d.value_and_grad(0.3, 0.9)
    assert value == scalar_loop(0.3, 0.9)
    _, pullback = d.vjp(0.3, 0.9)
    assert_close(pullback(2.0), 2.0 * g, 1e-12, 1e-12, what="pullback(2.0)")


def builtins_on_floats(x, a):
    s = float(a)
    for i in range(4):
        s = s + abs(x) * math.exp(-s * 0.1) * i
    return s


def test_float_and_abs_of_scalars_are_scalars():
    d = differentiate(builtins_on_floats)
    assert "unbroadcast" not in _variant(d, 0.7, 0.2).source
    assert_close(d.grad(0.7, 0.2), numeric_grad(lambda x: builtins_on_floats(float(x), 0.2), 0.7),
                 1e-6, 1e-8)
    assert_close(d.grad(-0.7, 0.2), numeric_grad(lambda x: builtins_on_floats(float(x), 0.2), -0.7),
                 1e-6, 1e-8)


def chain(x, y):
    a = math.sin(x) * y
    b = a * 0.9 + x * 0.1
    c = math.tanh(b + a)
    d = c - 0.5 * b
    return math.cos(d) + 0.1 * c


def test_float_variant_folds_single_use_temporaries_and_stays_exact():
    """``t4 = b + a`` / ``c = math.tanh(t4)`` is generated as ``c = tanh(b + a)`` (and adjoint
    temporaries alike; ``from math import tanh``), and the gradient still matches central
    differences."""
    d = differentiate(chain, wrt=(0, 1))
    special = "\n".join(ln.strip() for ln in _variant(d, 0.7, -0.4).source.splitlines()
                        if not ln.strip().startswith("#"))            # the code, not the comments
    assert "\nc = tanh(b + a)\n" in special and "math.tanh(t4)" in d.source, special
    assert "\nb = a * 0.9 + x * 0.1\n" in special and "t2 =" not in special, special
    assert "from math import" in special and "math." not in special, special    # bare names
    g = grad(chain, wrt=(0, 1))
    for x, y in ((0.7, -0.4), (-1.3, 2.0)):
        gx, gy = g(x, y)
        gx2, gy2 = g(x, y)                       # the second call takes the checked fast path
        assert (gx, gy) == (gx2, gy2)
        assert_close(gx, numeric_grad(lambda v: chain(float(v), y), x), 1e-6, 1e-8, what="d/dx")
        assert_close(gy, numeric_grad(lambda v: chain(x, float(v)), y), 1e-6, 1e-8, what="d/dy")


# Random programs (straight-line, with loop and branch bodies) run before and after inline_temporaries (then release_dead, as
# optimize does) must give bit-identical values: floats rebound (accumulators, parameters),
# arrays computed from a parameter that is later written in place, math and numpy calls.
_FLOATS = ("x", "y", "a", "b", "c")
_ARRAYS = ("w", "u")


@st.composite
def _expr(draw, names, depth=2):
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        if draw(st.booleans()):
            return draw(st.sampled_from(sorted(names)))
        return repr(draw(st.sampled_from([0.5, 2.0, -1.25])))
    kind = draw(st.integers(0, 2))
    if kind == 0:
        fn = draw(st.sampled_from(["math.sin", "math.cos", "math.tanh", "np.sin"]))
        return f"{fn}({draw(_expr(names, depth - 1))})"
    op = draw(st.sampled_from(["+", "-", "*"]))
    return f"({draw(_expr(names, depth - 1))} {op} {draw(_expr(names, depth - 1))})"


@st.composite
def _program(draw):
    bound, arrays, lines = {"x", "y"}, set(), []
    for _ in range(draw(st.integers(1, 12))):
        kind = draw(st.integers(0, 6))
        if kind <= 2:
            target = draw(st.sampled_from(_FLOATS))
            lines.append(f"{target} = {draw(_expr(bound))}")
            bound.add(target)
        elif kind == 3:
            target = draw(st.sampled_from(_ARRAYS))
            lines.append(f"{target} = v * {draw(_expr(bound, 1))}")
            arrays.add(target)
        elif kind == 4:
            lines.append(f"v[{draw(st.integers(0, 2))}] = {draw(_expr(bound, 1))}")     # in place
        elif kind == 5:
            lines.append(f"{draw(st.sampled_from(sorted(bound)))} += 1.0")
        else:                    # a loop or branch: its body is a block temporaries fold within
            header = draw(st.sampled_from(["for k in range(3):", "if x > 0.0:"]))
            lines.append(header)
            for _ in range(draw(st.integers(1, 4))):
                # a branch may not run: it rebinds only names bound before it
                names = _FLOATS if header.startswith("for") else sorted(bound)
                target = draw(st.sampled_from(names))
                lines.append(f"    {target} = {draw(_expr(bound))}")
                if draw(st.booleans()):
                    lines.append(f"    {draw(st.sampled_from(sorted(bound)))} *= 0.5")
                bound.add(target)          # read by later lines, and by the next iteration
    out = ", ".join(sorted(bound) + sorted(arrays))
    return "def f(x, y, v):\n" + "".join(f"    {ln}\n" for ln in lines) + f"    return ({out},)\n"


def _run(tree, x, y):
    namespace = {"math": math, "np": np}
    exec(compile(ast.fix_missing_locations(tree), "<inline test>", "exec"), namespace)
    return namespace["f"](x, y, np.array([0.25, -1.5, 2.0]))


@settings(max_examples=300, deadline=None)
@given(_program(), st.floats(-2.0, 2.0), st.floats(-2.0, 2.0))
def test_inlined_temporaries_give_bit_identical_values(source, x, y):
    def resolve(node):
        return eval(compile(ast.Expression(node), "<resolve>", "eval"), {"math": math, "np": np})

    want = _run(ast.parse(source), x, y)
    tree = ast.parse(source)
    release_dead(inline_temporaries(tree.body[0], resolve))
    got = _run(tree, x, y)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert np.array_equal(g, w, equal_nan=True), (source, ast.unparse(tree))


def test_calls_that_consume_an_iterator_are_not_moved():
    """``math.fsum(it)`` read later would see what a call in between left of the iterator."""
    source = "def f(it):\n    t = math.fsum(it)\n    u = math.fsum(it)\n    return (u, t)\n"
    tree = ast.parse(source)
    inline_temporaries(tree.body[0], lambda node: eval(compile(ast.Expression(node), "<r>", "eval"),
                                                          {"math": math}))
    namespace = {"math": math}
    exec(compile(ast.fix_missing_locations(tree), "<inline test>", "exec"), namespace)
    assert namespace["f"](iter([1.0, 2.0])) == (0.0, 3.0), ast.unparse(tree)


def test_a_reduction_writing_into_out_is_not_moved_across():
    """``np.sum(x, 0, None, buf)`` (out given by position) writes into ``buf``: a temporary
    reading ``buf`` must not move past it, nor may the call move."""
    source = ("def f(x, buf):\n    t = buf * 1.0\n    u = np.sum(x, 0, None, buf)\n"
              "    return (u, t)\n")
    tree = ast.parse(source)
    inline_temporaries(tree.body[0], lambda node: eval(compile(ast.Expression(node), "<r>", "eval"), {"np": np}))
    namespace = {"np": np}
    exec(compile(ast.fix_missing_locations(tree), "<inline test>", "exec"), namespace)
    u, t = namespace["f"](np.array([[1.0, 2.0], [3.0, 4.0]]), np.zeros(2))
    assert np.array_equal(t, [0.0, 0.0]) and np.array_equal(u, [4.0, 6.0]), ast.unparse(tree)
