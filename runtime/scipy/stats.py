"""``runtime.scipy.stats``: scipy.stats distributions whose densities, distribution functions and
quantiles work on tensors, differentiable in ``x`` and in every parameter.

``norm``, ``t``, ``gamma``, ``chi2``, ``beta``, ``expon``, ``laplace``, ``logistic``, ``cauchy``,
``lognorm``, ``uniform``, ``poisson``, ``dirichlet`` and ``multivariate_normal`` are objects like
scipy's: ``norm.logpdf(x, loc, scale)`` (keywords too), and frozen, ``norm(loc, scale).logpdf(x)``.
Each method is a composition of primitives (``runtime/rules/scipy_stats.py``: the "twins" the
transpiler also writes for scipy's methods).  What they do not cover -- ``rvs``, ``mean``,
``fit``... -- is scipy's own method, on plain values.  Other names are scipy.stats' own.
"""

import scipy.stats as _scipy_stats

from ..rules.scipy_stats import DISTRIBUTIONS, TWINS

__all__ = list(DISTRIBUTIONS)


class Distribution:
    """A scipy.stats distribution whose differentiable methods are the twins (functions, so
    ``norm.logpdf`` can be passed around); calling it freezes its parameters."""

    def __init__(self, name):
        self.name = name
        self.scipy = getattr(_scipy_stats, name)

    def __getattr__(self, method):
        twin = TWINS.get((self.name, method))
        if twin is not None:
            return twin
        if method.startswith("__"):
            raise AttributeError(method)
        return getattr(self.scipy, method)

    def __call__(self, *args, **kwds):
        return Frozen(self, args, kwds)

    def __dir__(self):
        return sorted(set(dir(self.scipy)) | {m for (n, m) in TWINS if n == self.name})

    def __repr__(self):
        return f"<runtime.scipy.stats.{self.name}: scipy.stats.{self.name} on tensors>"


class Frozen:
    """``dist(*args, **kwds)``: the distribution with its parameters fixed (scipy's frozen one)."""

    def __init__(self, dist, args, kwds):
        self.dist, self.args, self.kwds = dist, args, kwds

    def __getattr__(self, method):
        twin = TWINS.get((self.dist.name, method))
        if twin is None:
            if method.startswith("__"):
                raise AttributeError(method)
            return getattr(self.dist.scipy(*self.args, **self.kwds), method)
        return Bound(twin, self.dist.name, self.args, self.kwds)

    def __repr__(self):
        return f"<frozen runtime.scipy.stats.{self.dist.name}{self.args}>"


class Bound:
    """A frozen distribution's method: its twin with the frozen parameters after the argument
    (``rv.logpdf(x)``; ``rv.entropy()`` has no argument)."""

    def __init__(self, twin, dist_name, args, kwds):
        self.twin, self.dist_name, self.args, self.kwds = twin, dist_name, args, kwds

    def __call__(self, *x):
        return self.twin(*x, *self.args, **self.kwds)

    def __adjoin_twin_call__(self):
        """(twin, {parameter: value}): what the transpiler writes for a call of this method."""
        from ..rules.scipy_stats import bind_parameters
        return self.twin, bind_parameters(self.dist_name, self.args, self.kwds)


for _name in DISTRIBUTIONS:
    globals()[_name] = Distribution(_name)
del _name


def __getattr__(name):
    return getattr(_scipy_stats, name)
