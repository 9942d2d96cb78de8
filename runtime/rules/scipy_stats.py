"""scipy.stats distributions as compositions of differentiable primitives ("twins").

``norm_logpdf(x, loc=0.0, scale=1.0)`` computes what ``scipy.stats.norm.logpdf`` computes, with
numpy functions and scipy.special ufuncs that have rules, so both halves differentiate it like any
numpy code: with respect to ``x`` and every parameter, in both modes, to any order.  No rule is
written here: the derivatives are those of the primitives (``ndtr``, ``gammainc``, ``xlogy``...),
and a parameter whose derivative has no closed form (Student's t distribution function in ``df``,
the incomplete gamma function in its shape) refuses through its primitive (``refused``).

``TWINS`` maps ``(distribution name, method)`` to its twin; a twin's parameters after the first are
the distribution's own (shapes, then ``loc`` and ``scale``), named and ordered as scipy names them,
so ``norm.logpdf(x, loc, scale)``, keywords and frozen distributions (``norm(loc, scale)``) bind
to them as they bind to scipy's method.  The transpiler writes a call of scipy's method as a call
of its twin (which it differentiates as it does a user function); ``runtime.scipy.stats`` calls the
twins on tensors.

Outside a distribution's support the twins give scipy's values (``-inf`` log-density, 0 or 1
probabilities) through ``np.where``; the branch not taken is evaluated at a safe point (``inside``)
so that its derivative is finite and the gradient there is exactly 0.
"""

import numpy as np
from scipy.special import (betainc, betaincinv, betaln, expit, gammainc, gammaincc, gammaincinv,
                           gammaln, log_expit, log_ndtr, logit, ndtr, ndtri, stdtr, stdtrit, xlog1py, xlogy)

from .scipy_special import t_log_density

_HALF_LOG_2PI = 0.9189385332046727
_LOG_2PI = 1.8378770664093453
_LOG_2 = 0.6931471805599453
_LOG_PI = 1.1447298858494002


def standardized(x, loc, scale):
    return (x - loc) / scale


def inside(condition, y, safe):
    """``y`` where ``condition`` holds, else ``safe`` (a point where the other branch is finite)."""
    return np.where(condition, y, safe)


# --- norm -----------------------------------------------------------------------------------------------

def norm_logpdf(x, loc=0.0, scale=1.0):
    z = standardized(x, loc, scale)
    return -0.5 * z * z - np.log(scale) - _HALF_LOG_2PI


def norm_pdf(x, loc=0.0, scale=1.0):
    return np.exp(norm_logpdf(x, loc, scale))


def norm_cdf(x, loc=0.0, scale=1.0):
    return ndtr(standardized(x, loc, scale))


def norm_logcdf(x, loc=0.0, scale=1.0):
    return log_ndtr(standardized(x, loc, scale))


def norm_sf(x, loc=0.0, scale=1.0):
    return ndtr(-standardized(x, loc, scale))


def norm_logsf(x, loc=0.0, scale=1.0):
    return log_ndtr(-standardized(x, loc, scale))


def norm_ppf(q, loc=0.0, scale=1.0):
    return loc + scale * ndtri(q)


def norm_isf(q, loc=0.0, scale=1.0):
    return loc - scale * ndtri(q)


# --- Student's t ----------------------------------------------------------------------------------------

def t_logpdf(x, df, loc=0.0, scale=1.0):
    return t_log_density(df, standardized(x, loc, scale)) - np.log(scale)


def t_pdf(x, df, loc=0.0, scale=1.0):
    return np.exp(t_logpdf(x, df, loc, scale))


def t_cdf(x, df, loc=0.0, scale=1.0):
    return stdtr(df, standardized(x, loc, scale))


def t_logcdf(x, df, loc=0.0, scale=1.0):
    return np.log(t_cdf(x, df, loc, scale))


def t_sf(x, df, loc=0.0, scale=1.0):
    return stdtr(df, -standardized(x, loc, scale))


def t_logsf(x, df, loc=0.0, scale=1.0):
    return np.log(t_sf(x, df, loc, scale))


def t_ppf(q, df, loc=0.0, scale=1.0):
    return loc + scale * stdtrit(df, q)


# --- gamma and chi2 (chi2 with df is gamma with a = df / 2 and twice the scale) ------------------------

def gamma_logpdf(x, a, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    ys = inside(y >= 0, y, 1.0)
    return np.where(y >= 0, xlogy(a - 1.0, ys) - ys - gammaln(a), -np.inf) - np.log(scale)


def gamma_pdf(x, a, loc=0.0, scale=1.0):
    return np.exp(gamma_logpdf(x, a, loc, scale))


def gamma_cdf(x, a, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    return gammainc(a, inside(y > 0, y, 0.0))


def gamma_logcdf(x, a, loc=0.0, scale=1.0):
    return np.log(gamma_cdf(x, a, loc, scale))


def gamma_sf(x, a, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    return gammaincc(a, inside(y > 0, y, 0.0))


def gamma_logsf(x, a, loc=0.0, scale=1.0):
    return np.log(gamma_sf(x, a, loc, scale))


def gamma_ppf(q, a, loc=0.0, scale=1.0):
    return loc + scale * gammaincinv(a, q)


def chi2_logpdf(x, df, loc=0.0, scale=1.0):
    return gamma_logpdf(x, 0.5 * df, loc, 2.0 * scale)


def chi2_pdf(x, df, loc=0.0, scale=1.0):
    return np.exp(chi2_logpdf(x, df, loc, scale))


def chi2_cdf(x, df, loc=0.0, scale=1.0):
    return gamma_cdf(x, 0.5 * df, loc, 2.0 * scale)


def chi2_logcdf(x, df, loc=0.0, scale=1.0):
    return gamma_logcdf(x, 0.5 * df, loc, 2.0 * scale)


def chi2_sf(x, df, loc=0.0, scale=1.0):
    return gamma_sf(x, 0.5 * df, loc, 2.0 * scale)


def chi2_logsf(x, df, loc=0.0, scale=1.0):
    return gamma_logsf(x, 0.5 * df, loc, 2.0 * scale)


def chi2_ppf(q, df, loc=0.0, scale=1.0):
    return gamma_ppf(q, 0.5 * df, loc, 2.0 * scale)


# --- beta -----------------------------------------------------------------------------------------------

def beta_logpdf(x, a, b, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    within = (y >= 0) & (y <= 1)
    ys = inside(within, y, 0.5)
    return np.where(within, xlogy(a - 1.0, ys) + xlog1py(b - 1.0, -ys) - betaln(a, b), -np.inf) - np.log(scale)


def beta_pdf(x, a, b, loc=0.0, scale=1.0):
    return np.exp(beta_logpdf(x, a, b, loc, scale))


def beta_cdf(x, a, b, loc=0.0, scale=1.0):
    return betainc(a, b, np.clip(standardized(x, loc, scale), 0.0, 1.0))


def beta_logcdf(x, a, b, loc=0.0, scale=1.0):
    return np.log(beta_cdf(x, a, b, loc, scale))


def beta_sf(x, a, b, loc=0.0, scale=1.0):
    return betainc(b, a, 1.0 - np.clip(standardized(x, loc, scale), 0.0, 1.0))


def beta_logsf(x, a, b, loc=0.0, scale=1.0):
    return np.log(beta_sf(x, a, b, loc, scale))


def beta_ppf(q, a, b, loc=0.0, scale=1.0):
    return loc + scale * betaincinv(a, b, q)


# --- expon ----------------------------------------------------------------------------------------------

def expon_logpdf(x, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    return np.where(y >= 0, -y, -np.inf) - np.log(scale)


def expon_pdf(x, loc=0.0, scale=1.0):
    return np.exp(expon_logpdf(x, loc, scale))


def expon_cdf(x, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    return -np.expm1(-inside(y > 0, y, 0.0))


def expon_logcdf(x, loc=0.0, scale=1.0):
    return np.log(expon_cdf(x, loc, scale))


def expon_sf(x, loc=0.0, scale=1.0):
    return np.exp(expon_logsf(x, loc, scale))


def expon_logsf(x, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    return -inside(y > 0, y, 0.0)


def expon_ppf(q, loc=0.0, scale=1.0):
    return loc - scale * np.log1p(-q)


# --- laplace --------------------------------------------------------------------------------------------

def laplace_logpdf(x, loc=0.0, scale=1.0):
    return -np.abs(standardized(x, loc, scale)) - np.log(2.0 * scale)


def laplace_pdf(x, loc=0.0, scale=1.0):
    return np.exp(laplace_logpdf(x, loc, scale))


def laplace_cdf(x, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    below = y < 0
    return np.where(below, 0.5 * np.exp(inside(below, y, 0.0)), 1.0 - 0.5 * np.exp(-inside(below, 0.0, y)))


def laplace_logcdf(x, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    below = y < 0
    return np.where(below, inside(below, y, 0.0) - _LOG_2, np.log1p(-0.5 * np.exp(-inside(below, 0.0, y))))


def laplace_sf(x, loc=0.0, scale=1.0):
    return laplace_cdf(-x, -loc, scale)


def laplace_logsf(x, loc=0.0, scale=1.0):
    return laplace_logcdf(-x, -loc, scale)


def laplace_ppf(q, loc=0.0, scale=1.0):
    below = q <= 0.5
    return loc + scale * np.where(below, np.log(2.0 * inside(below, q, 0.25)),
                                  -np.log(2.0 - 2.0 * inside(below, 0.75, q)))


# --- logistic -------------------------------------------------------------------------------------------

def logistic_logpdf(x, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    return log_expit(y) + log_expit(-y) - np.log(scale)


def logistic_pdf(x, loc=0.0, scale=1.0):
    return np.exp(logistic_logpdf(x, loc, scale))


def logistic_cdf(x, loc=0.0, scale=1.0):
    return expit(standardized(x, loc, scale))


def logistic_logcdf(x, loc=0.0, scale=1.0):
    return log_expit(standardized(x, loc, scale))


def logistic_sf(x, loc=0.0, scale=1.0):
    return expit(-standardized(x, loc, scale))


def logistic_logsf(x, loc=0.0, scale=1.0):
    return log_expit(-standardized(x, loc, scale))


def logistic_ppf(q, loc=0.0, scale=1.0):
    return loc + scale * logit(q)


# --- cauchy ---------------------------------------------------------------------------------------------

def cauchy_logpdf(x, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    return -np.log1p(y * y) - np.log(scale) - _LOG_PI


def cauchy_pdf(x, loc=0.0, scale=1.0):
    return np.exp(cauchy_logpdf(x, loc, scale))


def cauchy_cdf(x, loc=0.0, scale=1.0):
    return 0.5 + np.arctan(standardized(x, loc, scale)) / np.pi


def cauchy_logcdf(x, loc=0.0, scale=1.0):
    return np.log(cauchy_cdf(x, loc, scale))


def cauchy_sf(x, loc=0.0, scale=1.0):
    return 0.5 - np.arctan(standardized(x, loc, scale)) / np.pi


def cauchy_logsf(x, loc=0.0, scale=1.0):
    return np.log(cauchy_sf(x, loc, scale))


def cauchy_ppf(q, loc=0.0, scale=1.0):
    return loc + scale * np.tan(np.pi * (q - 0.5))


# --- lognorm --------------------------------------------------------------------------------------------

def lognorm_logpdf(x, s, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    log_y = np.log(inside(y > 0, y, 1.0))
    return np.where(y > 0, -log_y - np.log(s) - _HALF_LOG_2PI - log_y * log_y / (2.0 * s * s), -np.inf) \
        - np.log(scale)


def lognorm_pdf(x, s, loc=0.0, scale=1.0):
    return np.exp(lognorm_logpdf(x, s, loc, scale))


def lognorm_cdf(x, s, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    return np.where(y > 0, ndtr(np.log(inside(y > 0, y, 1.0)) / s), 0.0)


def lognorm_logcdf(x, s, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    return np.where(y > 0, log_ndtr(np.log(inside(y > 0, y, 1.0)) / s), -np.inf)


def lognorm_sf(x, s, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    return np.where(y > 0, ndtr(-np.log(inside(y > 0, y, 1.0)) / s), 1.0)


def lognorm_logsf(x, s, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    return np.where(y > 0, log_ndtr(-np.log(inside(y > 0, y, 1.0)) / s), 0.0)


def lognorm_ppf(q, s, loc=0.0, scale=1.0):
    return loc + scale * np.exp(s * ndtri(q))


# --- uniform on [loc, loc + scale] ----------------------------------------------------------------------

def uniform_logpdf(x, loc=0.0, scale=1.0):
    y = standardized(x, loc, scale)
    return np.where((y >= 0) & (y <= 1), -np.log(scale), -np.inf)


def uniform_pdf(x, loc=0.0, scale=1.0):
    return np.exp(uniform_logpdf(x, loc, scale))


def uniform_cdf(x, loc=0.0, scale=1.0):
    return np.clip(standardized(x, loc, scale), 0.0, 1.0)


def uniform_logcdf(x, loc=0.0, scale=1.0):
    return np.log(uniform_cdf(x, loc, scale))


def uniform_sf(x, loc=0.0, scale=1.0):
    return 1.0 - uniform_cdf(x, loc, scale)


def uniform_logsf(x, loc=0.0, scale=1.0):
    return np.log(uniform_sf(x, loc, scale))


def uniform_ppf(q, loc=0.0, scale=1.0):
    return loc + scale * q


# --- poisson (k is discrete: no gradient flows into it) -------------------------------------------------

def poisson_logpmf(k, mu, loc=0):
    n = np.floor(k - loc)
    valid = (n >= 0) & (n == k - loc)
    return np.where(valid, xlogy(n, mu) - gammaln(n + 1.0) - mu, -np.inf)


def poisson_pmf(k, mu, loc=0):
    return np.exp(poisson_logpmf(k, mu, loc))


def poisson_cdf(k, mu, loc=0):
    n = np.floor(k - loc)
    return np.where(n >= 0, gammaincc(np.maximum(n, 0.0) + 1.0, mu), 0.0)


def poisson_logcdf(k, mu, loc=0):
    return np.log(poisson_cdf(k, mu, loc))


def poisson_sf(k, mu, loc=0):
    n = np.floor(k - loc)
    return np.where(n >= 0, gammainc(np.maximum(n, 0.0) + 1.0, mu), 1.0)


def poisson_logsf(k, mu, loc=0):
    return np.log(poisson_sf(k, mu, loc))


# --- dirichlet: x holds the components along its first axis (as scipy reads it) ---------------------------

def dirichlet_logpdf(x, alpha):
    a = np.reshape(alpha, np.shape(alpha) + (1,) * (np.ndim(x) - 1))
    log_norm = np.sum(gammaln(alpha)) - gammaln(np.sum(alpha))
    return np.sum(xlogy(a - 1.0, x), axis=0) - log_norm


def dirichlet_pdf(x, alpha):
    return np.exp(dirichlet_logpdf(x, alpha))


# --- multivariate_normal: x's last axis is the dimension (scipy squeezes the result) ----------------------

def multivariate_normal_logpdf(x, mean=None, cov=1, allow_singular=False):
    dim, mean, cov = mvn_parameters(mean, cov)
    dev = mvn_quantiles(x, dim) - mean
    if allow_singular:
        rank, log_det, precision = psd_pseudo_inverse(cov)
        maha = np.sum(np.matmul(dev, precision) * dev, axis=-1)
    else:
        rank, log_det = dim, np.linalg.slogdet(cov)[1]
        maha = np.sum(np.transpose(np.linalg.solve(cov, np.transpose(dev))) * dev, axis=-1)
    return np.squeeze(-0.5 * (rank * _LOG_2PI + log_det + maha))


def multivariate_normal_pdf(x, mean=None, cov=1, allow_singular=False):
    return np.exp(multivariate_normal_logpdf(x, mean, cov, allow_singular))


def multivariate_normal_entropy(mean=None, cov=1):
    dim, mean, cov = mvn_parameters(mean, cov)
    rank, log_det, precision = psd_pseudo_inverse(cov)
    return 0.5 * (rank * (_LOG_2PI + 1.0) + log_det)


def mvn_parameters(mean, cov):
    """(dimension, mean, covariance matrix) as scipy reads them: a scalar covariance is a multiple of
    the identity, a vector a diagonal; the dimension comes from the mean, else from the covariance."""
    if mean is not None:
        dim = np.size(mean)
    elif np.ndim(cov) > 0:
        dim = np.shape(cov)[0]
    else:
        dim = 1
    mean = np.zeros(dim) if mean is None else np.reshape(mean, (dim,))
    if np.ndim(cov) == 0:
        cov = cov * np.eye(dim)
    elif np.ndim(cov) == 1:
        cov = np.diag(cov)
    else:                               # scipy reads the lower triangle (eigh(lower=True))
        cov = np.tril(cov) + np.transpose(np.tril(cov, -1))
    return dim, mean, cov


def mvn_quantiles(x, dim):
    """x with the dimension on its last axis: a scalar is one point; a vector is one point, or, in one
    dimension, a row of points."""
    if np.ndim(x) == 0:
        return np.reshape(x, (1,))
    if np.ndim(x) == 1 and dim == 1:
        return np.reshape(x, (-1, 1))
    return x


def psd_pseudo_inverse(cov):
    """(rank, log pseudo-determinant, pseudo-inverse) of a symmetric positive semi-definite matrix:
    eigenvalues below scipy's cut-off (1e6 machine epsilons of the largest) count as zero."""
    s, u = np.linalg.eigh(cov)
    keep = s > 1e6 * np.finfo(np.float64).eps * np.max(np.abs(s))
    safe = np.where(keep, s, 1.0)
    inverse = np.where(keep, 1.0 / safe, 0.0)
    precision = np.matmul(u * inverse, np.transpose(u))
    return np.sum(np.where(keep, 1.0, 0.0)), np.sum(np.where(keep, np.log(safe), 0.0)), precision


# --- the table ------------------------------------------------------------------------------------------

METHODS = ("logpdf", "pdf", "logpmf", "pmf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf", "entropy")

DISTRIBUTIONS = ("norm", "t", "gamma", "chi2", "beta", "expon", "laplace", "logistic", "cauchy", "lognorm",
                 "uniform", "poisson", "dirichlet", "multivariate_normal")

TWINS = {(name, method): globals()[f"{name}_{method}"]
         for name in DISTRIBUTIONS for method in METHODS if f"{name}_{method}" in globals()}
"""(scipy.stats distribution name, method) -> the twin computing it."""


# --- scipy's methods as twin calls (for the transpiler, which writes them so) ---------------------------

_PARAMETERS = {}


def parameters(name):
    """The parameters of distribution ``name`` in scipy's order (shapes, then loc and scale)."""
    if name not in _PARAMETERS:
        import inspect
        method = next(m for m in ("logpdf", "logpmf") if (name, m) in TWINS)
        _PARAMETERS[name] = tuple(inspect.signature(TWINS[name, method]).parameters)[1:]
    return _PARAMETERS[name]


def bind_parameters(name, args, kwds):
    """``{parameter: value}`` of ``name(*args, **kwds)`` (a frozen distribution's parameters)."""
    import inspect
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    signature = inspect.Signature([inspect.Parameter(p, kind) for p in parameters(name)])
    return dict(signature.bind_partial(*args, **kwds).arguments)


def distribution_name(obj):
    """The name of scipy.stats' distribution ``obj`` (the public object itself), else None."""
    import sys
    stats = sys.modules.get("scipy.stats")
    if stats is None:
        return None
    return next((n for n in DISTRIBUTIONS if getattr(stats, n, None) is obj), None)


def twin_call(method):
    """``(twin, {frozen parameter: value})`` when calling ``method`` computes what a twin computes --
    ``scipy.stats.norm.logpdf``, ``norm(0, 2).logpdf``, ``multivariate_normal(m, c).logpdf``, a frozen
    ``runtime.scipy.stats`` method -- else None."""
    own = getattr(method, "__adjoin_twin_call__", None)          # runtime.scipy.stats' frozen methods
    if own is not None:
        return own()
    owner, name = getattr(method, "__self__", None), getattr(method, "__name__", None)
    if owner is None or name is None:
        return None
    dist = distribution_name(owner)
    if dist is not None:
        twin = TWINS.get((dist, name))
        return None if twin is None else (twin, {})
    frozen = _frozen(owner)
    if frozen is None:
        return None
    dist, params = frozen
    twin = TWINS.get((dist, name))
    return None if twin is None else (twin, params)


def _frozen(obj):
    """(distribution name, {parameter: value}) of one of scipy.stats' frozen distributions."""
    inner = getattr(obj, "dist", None)
    if inner is not None and hasattr(obj, "args") and hasattr(obj, "kwds"):      # rv_frozen
        name = getattr(inner, "name", None)
        public = distribution_name(getattr(sys_stats(), name, None)) if name else None
        if public is None or type(inner) is not type(getattr(sys_stats(), public)):
            return None
        return public, bind_parameters(public, obj.args, obj.kwds)
    inner = getattr(obj, "_dist", None)
    for name, fields in (("multivariate_normal", ("mean", "cov", "allow_singular")), ("dirichlet", ("alpha",))):
        public = getattr(sys_stats(), name, None)
        if inner is not None and public is not None and type(inner) is type(public):
            return name, {f: getattr(obj, f) for f in fields}
    return None


def sys_stats():
    import sys
    return sys.modules.get("scipy.stats")



def defaults(name):
    """{parameter: default} of the distribution's parameters that have one (loc=0.0, scale=1.0, ...)."""
    import inspect
    method = next(m for m in ("logpdf", "logpmf") if (name, m) in TWINS)
    return {p.name: p.default for p in inspect.signature(TWINS[name, method]).parameters.values()
            if p.default is not inspect.Parameter.empty}
