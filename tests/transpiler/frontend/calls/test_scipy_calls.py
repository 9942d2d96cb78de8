"""scipy in the transpiler: scipy.stats methods (frozen or not, keywords, runtime.scipy names) as their
twins, scipy primitives with keywords, scipy.fft as np.fft, and the refusals; gradient, tangent and
Hessian-vector code against central finite differences of scipy's own functions."""

import warnings

import numpy as np
import pytest

pytest.importorskip("scipy")

from tests.fd import assert_close  # noqa: E402
from tests.runtime.scipy.twin_specs import SPECS  # noqa: E402
from tests.transpiler.frontend.calls import scipy_programs as programs  # noqa: E402
from tests.transpiler.test_rules_transpiled import check  # noqa: E402
from transpiler import TranspileError, differentiate, grad, hvp, jvp  # noqa: E402

EPS = 1e-6


@pytest.mark.parametrize("spec", SPECS, ids=[s.label for s in SPECS])
def test_every_stats_method_through_the_transpiler(spec):
    """The probe calls scipy's own method (``st.norm.logpdf``): the transpiler writes its twin."""
    rng = np.random.default_rng(sum(map(ord, spec.label)))
    args, kwargs = spec.make(None, rng)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")       # (a parameter the value does not depend on: a zero gradient)
        check(spec, list(args), kwargs, rng)


def _fd(f, args, k):
    x = np.array(args[k], dtype=np.float64)
    out = np.zeros_like(x)
    for i in range(x.size):
        for sign in (1.0, -1.0):
            moved = x.copy()
            moved.reshape(-1)[i] += sign * EPS
            new = list(args)
            new[k] = moved if np.ndim(x) else float(moved)
            out.reshape(-1)[i] += sign * f(*new) / (2 * EPS)
    return out


@pytest.mark.parametrize("f", programs.PROGRAMS, ids=[f.__name__ for f in programs.PROGRAMS])
def test_programs(f):
    args = [np.array([0.3, -1.2, 0.8]), 0.4, 1.3]
    rng = np.random.default_rng(0)
    for k in range(3):
        want = _fd(f, args, k)
        assert_close(grad(f, wrt=k)(*args), want, what=f"{f.__name__} reverse {k}")
        t = rng.standard_normal(np.shape(args[k])) if k == 0 else 0.7
        tangents = tuple(t if j == k else np.zeros_like(a) if j == 0 else 0.0 for j, a in enumerate(args))
        _, dt = jvp(f, tuple(args), tangents)
        assert_close(dt, np.sum(want * t), what=f"{f.__name__} forward {k}")
    v = rng.standard_normal(3)
    h = 1e-4
    g = grad(f, wrt=0)
    want = (g(args[0] + h * v, *args[1:]) - g(args[0] - h * v, *args[1:])) / (2 * h)
    assert_close(hvp(f, tuple(args), v, wrt=0), want, rtol=1e-5, atol=1e-6, what=f"{f.__name__} hvp")


def test_generated_code_calls_the_twins():
    source = differentiate(programs.frozen_in_function).source
    assert "fwd_norm_logpdf(x, loc=m, scale=s)" in source and "bwd_norm_cdf(" in source
    assert "from scipy.special import ndtr" in source            # the callees' code, importable
    code = [line for line in differentiate(programs.transforms).source.splitlines() if not line.strip().startswith("#")]
    assert any("np.fft.rfft(" in line for line in code) and not any("workers" in line for line in code)


@pytest.mark.parametrize("f, wrt, message", [
    (programs.bessel_order, 0, r"scipy.special.iv\(\) has no derivative with respect to `v`"),
    (programs.t_cdf_in_df, 0, r"scipy.special.stdtr\(\) has no derivative with respect to `df`"),
    (programs.frozen_passed_on, 1, r"`rv` holds a frozen scipy.stats distribution, and it is used as a value"),
    (programs.frozen_rebound, 1, r"`rv` holds a frozen scipy.stats distribution, and it is also bound"),
])
def test_refusals(f, wrt, message):
    with pytest.raises(TranspileError, match=message):
        grad(f, wrt=wrt)(0.8 if wrt == 0 and f is not programs.frozen_rebound else np.array([0.5, 1.5]), 1.2)


def test_the_other_arguments_of_a_refusing_primitive_differentiate():
    assert_close(grad(programs.bessel_order, wrt=1)(1.5, 2.0), _fd(programs.bessel_order, [1.5, 2.0], 1), what="iv x")


def test_a_method_passed_in_as_an_argument():
    from scipy.stats import norm
    args = [np.array([0.3, -1.2]), 0.4, norm.logpdf]
    for k in (0, 1):
        want = _fd(lambda *a: programs.method_passed_in(*a, norm.logpdf), args[:2], k)
        assert_close(grad(programs.method_passed_in, wrt=k)(*args), want, what=f"passed in {k}")


def test_a_frozen_distribution_passed_in_is_refused():
    from scipy.stats import norm
    with pytest.raises(TypeError, match=r"norm.logpdf of a frozen scipy.stats distribution passed .* \(loc, scale\)"):
        grad(programs.frozen_passed_in)(np.array([0.3]), norm(1.0, 2.0))
