"""Variants per argument signature: Python floats get ``math`` functions (with a numpy fallback
where ``math`` raises), adjoints reuse the primal's values instead of recomputing them, loops save
only what their adjoint reads, and ``f.show(*args)`` prints the variant those arguments run.

Every gradient is checked against central differences (tests/fd.py).
"""

import io
import math
import warnings
from contextlib import redirect_stdout

import numpy as np
import pytest

from tests.fd import assert_close, numeric_grad
from tests.transpiler.checks import check
from transpiler import differentiate, grad


def loop(x, n):
    for i in range(n):
        x = x + 0.01 * (np.sin(x) * np.cos(x) - 0.1 * x)
    return x


def _fd(fn, x, *rest):
    return numeric_grad(lambda v: fn(float(v), *rest), x)


def _variant(d, *args):
    return d._t.get(d._wrt, False, floats=d._t.floats(args, {}))


def _code(source):
    """The generated lines without ``# grad of: <user's line>`` comments."""
    return "\n".join(ln for ln in source.splitlines() if not ln.strip().startswith("#"))


def test_numpy_on_floats_runs_math_and_matches_finite_differences():
    d = differentiate(loop)
    special = _code(_variant(d, 0.3, 50).source)
    assert "math.sin(" in special and "math.cos(" in special and "np." not in special, special
    assert "np.sin(" in d.source                                 # show() prints the general code
    for x in (0.3, -1.2, 2.5):
        assert_close(d.grad(x, 50), _fd(loop, x, 50), 1e-6, 1e-8, what=f"x={x}")
    assert isinstance(d.grad(0.3, 50), float)


def test_loop_saves_only_what_the_adjoint_reads():
    special = _variant(differentiate(loop), 0.3, 50).source
    pushes = [ln.strip() for ln in special.splitlines() if ln.strip().startswith("push(")]
    assert len(pushes) == 2, special                 # sin(x) and cos(x); not x, not the products
    general = _code(differentiate(loop).source)
    assert general.count("np.cos(") == 1 and general.count("np.sin(") == 1, general   # reused


def test_show_with_arguments_prints_their_variant():
    d = differentiate(loop)
    out = io.StringIO()
    with redirect_stdout(out):
        d.show(0.3, 50)
    assert "math.sin(" in out.getvalue()
    out = io.StringIO()
    with redirect_stdout(out):
        d.show()
    assert "np.sin(" in _code(out.getvalue()) and "math." not in _code(out.getvalue())


def log_times(x):
    return np.log(x) * x + np.sqrt(x)


def test_math_errors_fall_back_to_numpy():
    d = differentiate(log_times)
    assert "math.log(" in _code(_variant(d, 0.5).source)
    assert_close(d.grad(0.5), _fd(log_times, 0.5), 1e-6, 1e-8)
    general = d._t.get(0, False).function
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = general(np.float64(0.0))                  # numpy: inf/nan with a warning
        got = d.grad(0.0)                                # math.log(0.0) raises: falls back
        got_neg = d.grad(-1.0)
        want_neg = general(np.float64(-1.0))
    np.testing.assert_equal(got, want)
    np.testing.assert_equal(got_neg, want_neg)


def fractional_power(x):
    y = np.sin(x)
    return y ** 0.5 + y


def test_fractional_power_keeps_numpy():
    d = differentiate(fractional_power)
    assert "math." not in _code(_variant(d, 0.4).source)   # (-0.3) ** 0.5 would be complex with math
    assert_close(d.grad(0.4), _fd(fractional_power, 0.4), 1e-6, 1e-8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(d.grad(-0.4))               # numpy's nan, as the primal gives


def sin_cos_arrays(x):
    a = np.sin(x)
    b = np.cos(x)
    return np.sum(a * b + np.exp(x) * a)


def test_reuse_with_arrays():
    src = _code(differentiate(sin_cos_arrays).source)
    assert src.count("np.cos(") == 1 and src.count("np.sin(") == 1 and src.count("np.exp(") == 1, src
    check(sin_cos_arrays, np.array([0.2, -0.7, 1.3]))


def carried(x):
    s = 0.0
    for i in range(4):
        c = np.cos(x)
        x = np.sin(x) * 0.9 + c * 0.1      # the sine's rule reads cos(x) of this same x
        s = s + np.cos(x)                  # cos of the new x: not the c above
    return s


def test_reuse_respects_rebinding_in_loops():
    d = differentiate(carried)
    for x in (0.3, 1.1):
        assert_close(d.grad(x), _fd(carried, x), 1e-6, 1e-8, what=f"floats x={x}")
    check(carried, np.array([0.3, -0.8]))


def test_negation_folding_is_exact():
    def f(x, a):
        y = x
        for i in range(30):
            y = y - 0.3 * np.tanh(y) * a
        return y
    d = grad(f, wrt=(0, 1))
    gx, ga = d(0.4, 0.7)
    assert_close(gx, _fd(f, 0.4, 0.7), 1e-6, 1e-8)
    assert_close(ga, numeric_grad(lambda a: f(0.4, float(a)), 0.7), 1e-6, 1e-8)


@pytest.mark.parametrize("x", [0.3, np.float64(0.3)])
def test_numpy_float64_scalars_take_the_float_variant(x):
    d = differentiate(loop)
    assert_close(d.grad(x, 20), _fd(loop, 0.3, 20), 1e-6, 1e-8)


def test_math_functions_of_the_user_stay():
    def f(x):
        return math.sin(x) * np.cos(x)
    d = differentiate(f)
    assert_close(d.grad(0.8), _fd(f, 0.8), 1e-6, 1e-8)
