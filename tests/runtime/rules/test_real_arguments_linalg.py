"""Real arguments get real gradients in the families with registries of their own: numpy.linalg
(test_linalg_registry's SAMPLES) and scipy.linalg (test_scipy_linalg's CASES).

test_real_arguments enumerates the rule specs, which leave these families to their own registry
tests; here every sample of two or more float arrays is run with one differentiated argument real
and another array argument complex (``np.linalg.solve(a, b)`` with real ``a`` and complex ``b``).
The VJP rule for the real argument, given a complex cotangent g, must return a real array equal to
the finite-difference gradient of L = Re(sum(g * f)) (the cotangent convention of ``complexes``).
"""

import warnings

import numpy as np
import pytest

from runtime.rules import lookup
from tests.fd import assert_close, numeric_grad
from tests.runtime.rules.test_linalg_registry import SAMPLES


def _float_arrays(args):
    return [i for i, a in enumerate(args) if isinstance(a, np.ndarray) and a.dtype.kind == "f" and a.size]


def _linalg_samples():
    for fn, sample in SAMPLES.items():
        if sample is None:
            continue
        args, kwargs, argnums, picks, _ = sample
        if picks is None and len(_float_arrays(args)) >= 2:
            yield getattr(fn, "__name__", repr(fn)), fn, list(args), dict(kwargs), argnums


def _scipy_samples():
    try:
        from tests.runtime.rules.test_scipy_linalg import CASES
    except pytest.skip.Exception:          # no scipy
        return
    rng = np.random.default_rng(4)
    for case in CASES:
        if case.picks is not None or "real" not in case.dtypes:
            continue
        args, kwargs = case.make(rng, "real")
        argnums = tuple(a for a in case.at if isinstance(a, int))
        if len(_float_arrays(args)) >= 2 and argnums:
            yield case.label, case.fn, list(args), dict(kwargs), argnums


SAMPLED = list(_linalg_samples()) + list(_scipy_samples())


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _solves_its_equation(label, args, ans):
    """scipy 1.17's solve_sylvester(a, b, q) with a real ``a`` and a complex ``b`` returns a matrix
    that does not solve a x + x b = q (residual ~0.2; with a cast to complex it is 1e-15): the primal
    itself is wrong there, so there is no derivative to compare with."""
    if label != "solve_sylvester":
        return True
    a, b, q = args
    return np.max(np.abs(a @ ans + ans @ b - q)) < 1e-8


def _mixed_cases(label, fn, args, kwargs, argnums, rng):
    """(k, j, args with args[j] complex, f(args)) wherever the function takes the complex input."""
    for k in argnums:
        if k not in _float_arrays(args):
            continue
        for j in _float_arrays(args):
            if j == k:
                continue
            new = list(args)
            new[j] = args[j] + 1j * rng.uniform(0.2, 1.0, np.shape(args[j]))
            try:
                ans = _quiet(fn, *new, **kwargs)
            except Exception:
                continue
            if isinstance(ans, (tuple, list)) or not np.iscomplexobj(ans) or not np.all(np.isfinite(ans)):
                continue
            if _solves_its_equation(label, new, ans):
                yield k, j, new, ans


def test_the_audit_reaches_the_solvers_and_products():
    labels = {label for label, *_ in SAMPLED}
    assert {"solve", "matmul", "outer", "lstsq_solution"} <= labels, labels
    if any(label.startswith("solve assume_a") for label in labels):
        assert {"solve_sylvester", "solve_banded"} <= labels, labels


@pytest.mark.parametrize("label,fn,args,kwargs,argnums", SAMPLED, ids=[s[0] for s in SAMPLED])
def test_vjp_rule_of_a_real_argument_is_real(label, fn, args, kwargs, argnums):
    rng = np.random.default_rng(11)
    rule = lookup(fn)
    cases = list(_mixed_cases(label, fn, args, kwargs, argnums, rng))
    for k, j, new, ans in cases:
        g = rng.standard_normal(np.shape(ans)) + 1j * rng.standard_normal(np.shape(ans))
        try:
            got = _quiet(rule.vjp(k), g, ans, *new, **kwargs)
        except NotImplementedError as e:     # the rule refuses complex input: never silent
            assert "complex" in str(e), f"{label}: {e}"
            continue

        def loss(x):
            at = list(new)
            at[k] = x
            return np.real(np.sum(g * _quiet(fn, *at, **kwargs)))
        what = f"{label}: argument {k} real, argument {j} complex"
        assert not np.iscomplexobj(got), f"{what}: a complex gradient"
        assert_close(got, numeric_grad(loss, new[k]), what=what)
