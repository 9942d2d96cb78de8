"""Rules for scipy.special: its ufuncs (which reach the tape through numpy's ufunc protocol) and
its Python-level functions (``logsumexp``, ``softmax``, ``polygamma``...), wrapped here as
primitives so they run on tensors too (``runtime.scipy.special`` exports the wrappers).

Imported only when a scipy.special callable is looked up (the index names them), so
``import runtime.rules`` never imports scipy.  Derivatives are the closed forms (DLMF);
where a partial derivative exists but has no closed form -- the order of a Bessel function,
the shape parameters of the incomplete gamma and beta functions -- the slot refuses
(``refused.refuse``) rather than give a silent zero.  Integer parameters (polygamma's n,
multigammaln's d) get no gradient.
"""

import numpy as np
from scipy import special as _sc
from scipy.special import (beta, betainc, betaincinv, betaln, digamma, entr, erfcinv, erfcx, erfinv,
                           expit, gamma, gammainc, gammaincc, gammainccinv, gammaincinv, gammaln,
                           gammasgn, i0, i0e, i1, i1e, iv, ive, j0, j1, jv, k0, k0e, k1, k1e, kl_div,
                           kv, kve, log_expit, log_ndtr, loggamma, logit, ndtr, ndtri, rel_entr,
                           rgamma, stdtr, stdtrit, xlog1py, xlogy, y0, y1, yn, yv)

from . import activations, special
from .forms import elementwise, namesake, symmetric
from .refused import refuse
from .registry import define, nondifferentiable, primitive
from .support import expand_reduced, shape_of, unbroadcast

_SQRT_2PI = 2.5066282746310002
_HALF_SQRT_PI = 0.886226925452758
_LOG_PI = 1.1447298858494002


# --- scipy's Python-level functions as primitives (runtime.scipy.special exports these) ---------------

@primitive
def polygamma(n, x):
    """``scipy.special.polygamma``: the n-th derivative of digamma (n = 0: digamma itself)."""
    return _sc.polygamma(n, x)


@primitive
def multigammaln(a, d):
    """``scipy.special.multigammaln``: the log of the multivariate gamma function of dimension d."""
    return _sc.multigammaln(a, d)


@primitive
def zeta(x, q=None):
    """``scipy.special.zeta``: the Hurwitz zeta function (Riemann's when q is None)."""
    return _sc.zeta(x, q)


@primitive
def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """``scipy.special.logsumexp`` (return_sign=True has two results: runtime.scipy composes it)."""
    return _sc.logsumexp(a, axis=axis, b=b, keepdims=keepdims, return_sign=return_sign)


@primitive
def softmax(x, axis=None):
    """``scipy.special.softmax``."""
    return _sc.softmax(x, axis=axis)


@primitive
def log_softmax(x, axis=None):
    """``scipy.special.log_softmax``."""
    return _sc.log_softmax(x, axis=axis)


# --- gamma and its relatives -------------------------------------------------------------------------

namesake(gammaln, special.d_lgamma, "gammaln")
namesake(loggamma, special.d_lgamma, "loggamma")     # (the principal branch of log gamma, complex too)


@elementwise(gamma)
def d_gamma(ans, x):
    return ans * digamma(x)


@elementwise(rgamma)
def d_rgamma(ans, x):
    return -ans * digamma(x)


namesake(digamma, special.d_digamma, "digamma")
namesake((_sc.polygamma, polygamma), special.d_polygamma, "polygamma", broadcasting=True)


@elementwise((_sc.multigammaln, multigammaln), broadcasting=False)
def d_multigammaln(ans, a, d):
    return np.sum(digamma(np.expand_dims(a, -1) - 0.5 * np.arange(d)), axis=-1), None


@elementwise(beta)
def d_beta(ans, a, b):
    both = digamma(a + b)
    return ans * (digamma(a) - both), ans * (digamma(b) - both)


@elementwise(betaln)
def d_betaln(ans, a, b):
    both = digamma(a + b)
    return digamma(a) - both, digamma(b) - both


nondifferentiable(gammasgn)


# --- error functions, the normal distribution, logistic functions ------------------------------------

elementwise(_sc.erf, name="sc_erf")(special.d_erf)
elementwise(_sc.erfc, name="sc_erfc")(special.d_erfc)


@elementwise(erfinv)
def d_erfinv(ans, x):
    return _HALF_SQRT_PI * np.exp(ans * ans)


@elementwise(erfcinv)
def d_erfcinv(ans, x):
    return -_HALF_SQRT_PI * np.exp(ans * ans)


@elementwise(erfcx)
def d_erfcx(ans, x):
    return 2.0 * x * ans - 2.0 / np.sqrt(np.pi)


@elementwise(ndtr)
def d_ndtr(ans, x):
    return np.exp(-0.5 * x * x) / _SQRT_2PI


@elementwise(log_ndtr)
def d_log_ndtr(ans, x):
    return np.exp(-0.5 * x * x - ans) / _SQRT_2PI


@elementwise(ndtri)
def d_ndtri(ans, x):
    return _SQRT_2PI * np.exp(0.5 * ans * ans)


elementwise(expit, name="expit")(activations.d_sigmoid)


@elementwise(logit)
def d_logit(ans, x):
    return 1.0 / (x * (1.0 - x))


@elementwise(log_expit)
def d_log_expit(ans, x):
    return expit(-x)


# --- x log y and the entropies -------------------------------------------------------------------------

@elementwise(xlogy)
def d_xlogy(ans, x, y):
    return np.log(y), x / y


@elementwise(xlog1py)
def d_xlog1py(ans, x, y):
    return np.log1p(y), x / (1.0 + y)


@elementwise(entr)
def d_entr(ans, x):
    return -np.log(x) - 1.0


@elementwise(rel_entr)
def d_rel_entr(ans, x, y):
    return np.log(x / y) + 1.0, -x / y


@elementwise(kl_div)
def d_kl_div(ans, x, y):
    return np.log(x / y), 1.0 - x / y


# --- Bessel functions: recurrences for the derivative in x (DLMF 10.6, 10.29) ----------------------------

_ORDER = "the derivative of a Bessel function with respect to its order has no closed form"


namesake(i0, special.d_i0, "i0")


@elementwise(i1)
def d_i1(ans, x):
    return (i0(x) + iv(2.0, x)) / 2.0


@elementwise(i0e)
def d_i0e(ans, x):
    return i1e(x) - np.sign(x) * ans


@elementwise(i1e)
def d_i1e(ans, x):
    return (i0e(x) + ive(2.0, x)) / 2.0 - np.sign(x) * ans


@elementwise(iv)
def d_iv(ans, v, x):
    return None, (iv(v - 1.0, x) + iv(v + 1.0, x)) / 2.0


@elementwise(ive)
def d_ive(ans, v, x):
    return None, (ive(v - 1.0, x) + ive(v + 1.0, x)) / 2.0 - np.sign(x) * ans


@elementwise(j0)
def d_j0(ans, x):
    return -j1(x)


@elementwise(j1)
def d_j1(ans, x):
    return (j0(x) - jv(2.0, x)) / 2.0


@elementwise(jv)
def d_jv(ans, v, x):
    return None, (jv(v - 1.0, x) - jv(v + 1.0, x)) / 2.0


@elementwise(y0)
def d_y0(ans, x):
    return -y1(x)


@elementwise(y1)
def d_y1(ans, x):
    return (y0(x) - yv(2.0, x)) / 2.0


@elementwise(yv)
def d_yv(ans, v, x):
    return None, (yv(v - 1.0, x) - yv(v + 1.0, x)) / 2.0


@elementwise(yn)
def d_yn(ans, n, x):
    return None, (yn(n - 1, x) - yn(n + 1, x)) / 2.0


@elementwise(k0)
def d_k0(ans, x):
    return -k1(x)


@elementwise(k1)
def d_k1(ans, x):
    return -(k0(x) + kv(2.0, x)) / 2.0


@elementwise(k0e)
def d_k0e(ans, x):
    return ans - k1e(x)


@elementwise(k1e)
def d_k1e(ans, x):
    return ans - (k0e(x) + kve(2.0, x)) / 2.0


@elementwise(kv)
def d_kv(ans, v, x):
    return None, -(kv(v - 1.0, x) + kv(v + 1.0, x)) / 2.0


@elementwise(kve)
def d_kve(ans, v, x):
    return None, ans - (kve(v - 1.0, x) + kve(v + 1.0, x)) / 2.0


for _fn in (iv, ive, jv, yv, kv, kve):
    refuse(_fn, 0, "v", _ORDER)


# --- incomplete gamma and beta functions, Student's t: the density in x; the shapes refuse ----------------

_SHAPE = "the derivative of a regularized incomplete {} function with respect to {} has no closed form"


@elementwise(gammainc)
def d_gammainc(ans, a, x):
    return None, np.exp(xlogy(a - 1.0, x) - x - gammaln(a))


@elementwise(gammaincc)
def d_gammaincc(ans, a, x):
    return None, -np.exp(xlogy(a - 1.0, x) - x - gammaln(a))


@elementwise(gammaincinv)
def d_gammaincinv(ans, a, y):
    return None, np.exp(ans + gammaln(a) - xlogy(a - 1.0, ans))


@elementwise(gammainccinv)
def d_gammainccinv(ans, a, y):
    return None, -np.exp(ans + gammaln(a) - xlogy(a - 1.0, ans))


@elementwise(betainc)
def d_betainc(ans, a, b, x):
    return None, None, np.exp(xlogy(a - 1.0, x) + xlog1py(b - 1.0, -x) - betaln(a, b))


@elementwise(betaincinv)
def d_betaincinv(ans, a, b, y):
    return None, None, np.exp(betaln(a, b) - xlogy(a - 1.0, ans) - xlog1py(b - 1.0, -ans))


@elementwise(stdtr)
def d_stdtr(ans, df, x):
    return None, np.exp(t_log_density(df, x))


@elementwise(stdtrit)
def d_stdtrit(ans, df, p):
    return None, np.exp(-t_log_density(df, ans))


def t_log_density(df, x):
    """log of Student's t density with df degrees of freedom at x (stdtr's derivative)."""
    half = 0.5 * (df + 1.0)
    return gammaln(half) - gammaln(0.5 * df) - 0.5 * (np.log(df) + _LOG_PI) - half * np.log1p(x * x / df)


for _fn in (gammainc, gammaincc, gammaincinv, gammainccinv):
    refuse(_fn, 0, "a", _SHAPE.format("gamma", "its shape a"))
for _fn in (betainc, betaincinv):
    refuse(_fn, 0, "a", _SHAPE.format("beta", "its shapes a and b"))
    refuse(_fn, 1, "b", _SHAPE.format("beta", "its shapes a and b"))
refuse(stdtr, 0, "df", "the derivative of Student's t distribution function with respect to the degrees "
                       "of freedom has no closed form")
refuse(stdtrit, 0, "df", "the derivative of Student's t quantile function with respect to the degrees "
                         "of freedom has no closed form")


# --- zeta: in q, d/dq zeta(x, q) = -x zeta(x + 1, q); in x, a series of logarithms --------------------
# d^k/dx^k zeta(x, q) = (-1)^k sum_n log(n + q)^k (n + q)^-x: the first terms summed, the rest by the
# Euler-Maclaurin formula (the tail's integral in closed form, Bernoulli corrections of f(v) = log(v)^k
# v^-x), which also continues Riemann's zeta (q = 1) below x = 1.

_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510, 43867 / 798, -174611 / 330)


def _zeta_derivative_scalar(k, x, q, terms=12):
    import math
    k, x, q = int(k), float(x), float(q)
    total = sum(math.log(n + q) ** k * (n + q) ** -x for n in range(terms))
    u = terms + q
    log_u = math.log(u)
    total += u ** (1.0 - x) * sum(math.factorial(k) // math.factorial(k - m) * log_u ** (k - m) / (x - 1.0) ** (m + 1)
                                   for m in range(k + 1))
    coefficients, power = [0.0] * k + [1.0], x          # f(v) = sum_i c_i log(v)^i v^-power, at v = u

    def f():
        return sum(c * log_u ** i for i, c in enumerate(coefficients)) * u ** -power
    total += f() / 2.0
    for j, b in enumerate(_BERNOULLI, 1):
        for _ in range(1 if j == 1 else 2):             # up to f's derivative of order 2j - 1
            coefficients = [(i + 1) * coefficients[i + 1] - power * c if i < k else -power * c
                            for i, c in enumerate(coefficients)]
            power += 1.0
        total -= b / math.factorial(2 * j) * f()
    return (-1) ** k * total


_zeta_derivative_elementwise = np.frompyfunc(_zeta_derivative_scalar, 3, 1)


@primitive
def zeta_derivative(k, x, q):
    """The k-th derivative of the Hurwitz zeta function zeta(x, q) in x, elementwise."""
    out = np.asarray(_zeta_derivative_elementwise(k, x, q), dtype=np.float64)
    return out[()] if out.ndim == 0 else out


@elementwise(zeta_derivative)
def d_zeta_derivative(ans, k, x, q):
    lower = np.maximum(k - 1, 0)
    return None, zeta_derivative(k + 1, x, q), -x * zeta_derivative(k, x + 1.0, q) - k * zeta_derivative(lower, x + 1.0, q)


def hurwitz(q):
    """zeta(x) is zeta(x, 1)."""
    return 1.0 if q is None else q


@elementwise((_sc.zeta, zeta))
def d_zeta(ans, x, q=None):
    return zeta_derivative(1, x, hurwitz(q)), -x * zeta(x + 1.0, q)


# --- logsumexp, softmax, log_softmax: reductions along axis -------------------------------------------
# (logsumexp's return_sign=True has two results: runtime.scipy and the transpiler compose it from
# this primitive, see scipy_twins)

def broadcast_against(a, b):
    """``a`` broadcast against the weights ``b`` (logsumexp reduces the broadcast shape)."""
    return a if b is None else np.broadcast_to(a, np.broadcast_shapes(shape_of(a), shape_of(b)))


def spread_over(g, x, axis, keepdims):
    """``g``, shaped like logsumexp's result, spread over x's shape (``expand_reduced``; scipy gives a
    0-d x's result the shape (1,) when keepdims is set)."""
    if keepdims and len(shape_of(x)) == 0:
        g = np.reshape(g, ())
    return expand_reduced(g, x, axis, keepdims)


def softmax_weights(ans, x, axis, keepdims, b=None):
    """d ans / d a (times the weights b, when given): exp(x - ans) on x's (the broadcast) shape."""
    weights = np.exp(x - spread_over(ans, x, axis, keepdims))
    return weights if b is None else weights * b


def logsumexp_vjp_a(g, ans, a, axis=None, b=None, keepdims=False, return_sign=False):
    x = broadcast_against(a, b)
    return unbroadcast(spread_over(g, x, axis, keepdims) * softmax_weights(ans, x, axis, keepdims, b), a)


def logsumexp_vjp_b(g, ans, a, axis=None, b=None, keepdims=False, return_sign=False):
    x = broadcast_against(a, b)
    return unbroadcast(spread_over(g, x, axis, keepdims) * softmax_weights(ans, x, axis, keepdims), b)


def logsumexp_jvp_a(t, ans, a, axis=None, b=None, keepdims=False, return_sign=False):
    x = broadcast_against(a, b)
    return np.reshape(np.sum(t * softmax_weights(ans, x, axis, keepdims, b), axis=axis, keepdims=keepdims), shape_of(ans))


def logsumexp_jvp_b(t, ans, a, axis=None, b=None, keepdims=False, return_sign=False):
    x = broadcast_against(a, b)
    return np.reshape(np.sum(t * softmax_weights(ans, x, axis, keepdims), axis=axis, keepdims=keepdims), shape_of(ans))


define((_sc.logsumexp, logsumexp), vjp=(logsumexp_vjp_a, None, logsumexp_vjp_b),
       jvp=(logsumexp_jvp_a, None, logsumexp_jvp_b))


@symmetric((_sc.softmax, softmax))
def softmax_vjp(g, ans, x, axis=None):
    return ans * (g - np.sum(g * ans, axis=axis, keepdims=True))


def log_softmax_vjp(g, ans, x, axis=None):
    return g - np.exp(ans) * np.sum(g, axis=axis, keepdims=True)


def log_softmax_jvp(t, ans, x, axis=None):
    return t - np.sum(np.exp(ans) * t, axis=axis, keepdims=True)


define((_sc.log_softmax, log_softmax), vjp=(log_softmax_vjp,), jvp=(log_softmax_jvp,))


# --- logsumexp(..., return_sign=True): two results, composed of the primitive above -------------------

@primitive
def logsumexp_sign(a, axis=None, b=None):
    """The sign of sum(b * exp(a)) along axis, with the reduced axes kept (piecewise constant)."""
    return _sc.logsumexp(a, axis=axis, b=b, keepdims=True, return_sign=True)[1]


nondifferentiable(logsumexp_sign)


def logsumexp_with_sign(a, axis=None, b=None, keepdims=False):
    """``scipy.special.logsumexp(a, axis, b, keepdims, return_sign=True)``: log|sum(b exp(a))| is the
    log-sum-exp with the weights b times the sum's sign (which makes the sum positive)."""
    sign = logsumexp_sign(a, axis, b)
    value = logsumexp(a, axis, sign if b is None else b * sign, keepdims)
    return value, np.reshape(sign, np.shape(value))
