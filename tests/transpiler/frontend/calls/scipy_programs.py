"""Functions calling scipy as programs do (tests/transpiler/test_scipy_calls.py differentiates them)."""

import numpy as np
import scipy.fft
import scipy.signal
import scipy.special
import scipy.stats as st
from scipy.special import logsumexp
from scipy.stats import multivariate_normal, norm

from runtime import scipy as sp

FROZEN = norm(0.5, scale=2.0)
FROZEN_MVN = multivariate_normal(np.zeros(3), np.eye(3) + 0.5)
FROZEN_T = sp.stats.t(4.0, loc=0.1)


def keywords(x, m, s):
    return np.sum(norm.logpdf(x, scale=s, loc=m)) + np.sum(st.t.cdf(x, 3.0, loc=m, scale=s))


def frozen_in_function(x, m, s):
    rv = norm(m, s)
    total = np.sum(rv.logpdf(x))
    for i in range(2):
        rv = norm(m * (i + 1), s)
        total = total + np.sum(rv.cdf(x))
    return total


def frozen_inline(x, m, s):
    return np.sum(st.gamma(2.5, loc=m, scale=s).logpdf(x + 3.0) + norm(m, s).sf(x))


def frozen_global(x, m, s):
    return np.sum(FROZEN.logpdf(x * m) * s) + FROZEN_MVN.logpdf(x) + np.sum(FROZEN_T.logcdf(x))


def runtime_names(x, m, s):
    rv = sp.stats.norm(m, s)
    return np.sum(sp.stats.norm.logpdf(x, m, s)) + sp.special.logsumexp(x * s) + np.sum(rv.cdf(x)) \
        + np.sum(sp.special.gammaln(x + 3.0) * m)


def weighted_logsumexp(x, m, s):
    return logsumexp(x, b=m * np.ones(3) + s) + scipy.special.logsumexp(x * s, axis=0, keepdims=True)[0]


def signed_logsumexp(x, m, s):
    value, sign = logsumexp(x, b=np.array([1.0, -2.0, -3.0]) * s, return_sign=True)
    return value * sign + m


def transforms(x, m, s):
    spectrum = scipy.fft.rfft(x * s, workers=2)
    return np.sum(np.abs(spectrum) ** 2) + np.sum(np.real(sp.fft.fft(x + m)))


def convolutions(x, m, s):
    kernel = np.array([1.0, m, s])
    return np.sum(scipy.signal.convolve(x, kernel, mode="same") ** 2) \
        + np.sum(scipy.signal.fftconvolve(x, kernel * s, "valid") * m) \
        + np.sum(sp.signal.correlate(x, kernel, mode="full", method="direct"))


def mvn_and_dirichlet(x, m, s):
    cov = np.eye(3) * s + 0.1
    return np.sum(multivariate_normal.logpdf(np.stack([x, x * m]), np.zeros(3) + m, cov)) \
        + st.dirichlet.logpdf(np.array([0.2, 0.3, 0.5]), np.abs(x) + s)


PROGRAMS = [keywords, frozen_in_function, frozen_inline, frozen_global, runtime_names, weighted_logsumexp,
            signed_logsumexp, transforms, convolutions, mvn_and_dirichlet]


# --- refused ----------------------------------------------------------------------------------------

def bessel_order(v, x):
    return scipy.special.iv(v, x)


def t_cdf_in_df(df, x):
    return np.sum(st.t.cdf(x, df))


def frozen_passed_on(x, m):
    rv = norm(m, 1.0)
    return helper(rv, x)


def helper(rv, x):
    return np.sum(x)


def frozen_rebound(x, m):
    rv = norm(m, 1.0)
    rv = x
    return np.sum(rv)


def method_passed_in(x, m, logpdf):
    return np.sum(logpdf(x, m, 2.0))


def frozen_passed_in(x, rv):
    return np.sum(rv.logpdf(x))
