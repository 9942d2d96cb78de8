"""Inputs for every scipy.stats method adjoin differentiates (runtime/rules/scipy_stats.py's twins):
``Spec(fn=scipy's own method, make, argnums)``, so the reference is scipy's function under central
differences.  Arguments are in scipy's order (x, shapes, loc, scale); points lie inside the
support, away from its edges.  ``REFUSED`` lists the parameters whose derivative has no closed form
(the primitive refuses: tested in test_refusals.py)."""

import numpy as np
import scipy.stats as st

from runtime.rules.scipy_stats import TWINS, parameters
from tests.runtime.rules.rule_specs import Spec

SHAPES = {"t": (3.5,), "gamma": (2.3,), "chi2": (3.1,), "beta": (2.2, 3.1), "lognorm": (0.7,)}
POSITIVE = {"gamma", "chi2", "expon", "lognorm"}          # support y > 0
UNIT = {"beta", "uniform"}                                # support 0 < y < 1
DISTRIBUTION_FUNCTIONS = ("cdf", "logcdf", "sf", "logsf", "ppf")
REFUSED = {("t", m): (1,) for m in DISTRIBUTION_FUNCTIONS}
REFUSED.update({(d, m): (1,) for d in ("gamma", "chi2") for m in DISTRIBUTION_FUNCTIONS})
REFUSED.update({("beta", m): (1, 2) for m in DISTRIBUTION_FUNCTIONS})


def _univariate(name, method):
    shapes = SHAPES.get(name, ())
    loc, scale = 0.3, 1.7

    def make(draw, rng):
        if method in ("ppf", "isf"):
            x = rng.uniform(0.1, 0.9, 3)
        else:
            lo, hi = (0.15, 0.85) if name in UNIT else (0.3, 3.0) if name in POSITIVE else (-2.0, 2.0)
            x = loc + scale * rng.uniform(lo, hi, 3)
        return [x, *[np.float64(s) for s in shapes], np.float64(loc), np.float64(scale)], {}

    refused = REFUSED.get((name, method), ())
    argnums = [k for k in range(len(shapes) + 3) if k not in refused]
    return make, argnums


def _broadcasting(name, method):
    """norm's methods on broadcasting arguments (autograd's test: x (4, 3), loc (1, 3), scale (4, 1))."""
    def make(draw, rng):
        return [rng.standard_normal((4, 3)), rng.standard_normal((1, 3)), rng.uniform(0.5, 2.0, (4, 1))], {}
    return make, [0, 1, 2]


def _poisson(name, method):
    def make(draw, rng):
        return [np.array([0.0, 1.0, 3.0, 6.0]), rng.uniform(0.5, 4.0, 4)], {}
    return make, [1]


def _dirichlet(name, method):
    def make(draw, rng):
        alpha = rng.uniform(1.2, 3.0, 4)
        return [rng.dirichlet(alpha, size=3).T, alpha], {}
    return make, [1]                # (x: on the simplex, where scipy refuses a step off it: closed form below)


def _mvn(name, method):
    def make(draw, rng):
        a = rng.standard_normal((3, 3))
        cov, mean = a @ a.T + np.eye(3), rng.standard_normal(3)
        if method == "entropy":
            return [mean, cov], {}
        return [rng.standard_normal((4, 3)), mean, cov], {}
    return make, [1] if method == "entropy" else [0, 1, 2]


def _spec(name, method):
    maker = {"poisson": _poisson, "dirichlet": _dirichlet, "multivariate_normal": _mvn}.get(name, _univariate)
    make, argnums = maker(name, method)
    return Spec(getattr(getattr(st, name), method), make, argnums, label=f"{name}.{method}")


SPECS = [_spec(name, method) for name, method in sorted(TWINS)]
SPECS += [Spec(getattr(st.norm, m), _broadcasting("norm", m)[0], [0, 1, 2], label=f"norm.{m}(broadcast)")
          for m in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf")]

assert all(parameters(n) for n, _ in TWINS)
