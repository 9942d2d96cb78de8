"""Specs for the scipy families (scipy_special, scipy_signal): the registry test checks each rule
against central finite differences of scipy's own function, first and second order."""

import numpy as np
import scipy.special as sc
from hypothesis import strategies as st

from runtime.rules import scipy_signal as sig
from runtime.rules import scipy_special as rs

from . import add, axis_of, broadcast_shapes, shape, values

# fn, domain (lo, hi, signed)
UNARY = [
    (sc.gammaln, (0.3, 4, False)), (sc.loggamma, (0.3, 4, False)), (sc.gamma, (0.3, 3, False)),
    (sc.rgamma, (0.3, 3, False)), (sc.digamma, (0.5, 4, False)),
    (sc.erf, (-2, 2, False)), (sc.erfc, (-2, 2, False)), (sc.erfinv, (-0.9, 0.9, False)),
    (sc.erfcinv, (0.1, 1.9, False)), (sc.erfcx, (-1, 2, False)),
    (sc.ndtr, (-3, 3, False)), (sc.log_ndtr, (-3, 3, False)), (sc.ndtri, (0.05, 0.95, False)),
    (sc.expit, (-3, 3, False)), (sc.logit, (0.1, 0.9, False)), (sc.log_expit, (-3, 3, False)),
    (sc.entr, (0.2, 3, False)),
    (sc.i0, (-3, 3, False)), (sc.i1, (-3, 3, False)), (sc.i0e, (0.1, 3, True)), (sc.i1e, (0.1, 3, True)),
    (sc.j0, (0.2, 8, False)), (sc.j1, (0.2, 8, False)), (sc.y0, (0.5, 8, False)), (sc.y1, (0.5, 8, False)),
    (sc.k0, (0.3, 4, False)), (sc.k1, (0.3, 4, False)), (sc.k0e, (0.3, 4, False)), (sc.k1e, (0.3, 4, False)),
]


def unary(fn, dom):
    def make(draw, rng):
        return [values(rng, shape(draw), *dom)], {}
    add(fn, make, label=f"scipy.special.{fn.__name__}")


for _fn, _dom in UNARY:
    unary(_fn, _dom)


def binary(fn, first, second, argnums, integer_first=False, label=None):
    """fn(a, b) with a and b broadcasting; ``integer_first``: a is an integer order."""
    def make(draw, rng):
        sa, sb = broadcast_shapes(draw)
        a = rng.integers(first[0], first[1] + 1, size=sa).astype(np.float64) if integer_first \
            else values(rng, sa, *first)
        return [a, values(rng, sb, *second)], {}
    add(fn, make, argnums=argnums, label=label or f"scipy.special.{fn.__name__}")


# Bessel functions of a real order v (no derivative in v: refused), incomplete functions in x
for _fn, _x in ((sc.iv, (0.2, 4)), (sc.ive, (0.2, 4)), (sc.jv, (0.5, 8)), (sc.yv, (0.5, 8)),
                (sc.kv, (0.3, 4)), (sc.kve, (0.3, 4))):
    binary(_fn, (0.5, 3), _x, argnums=(1,))
binary(sc.yn, (0, 3), (0.5, 8), argnums=(1,), integer_first=True)
binary(rs.polygamma, (0, 2), (0.5, 4), argnums=(1,), integer_first=True, label="scipy.special.polygamma")
binary(rs.zeta, (1.5, 4), (0.5, 3), argnums=(0, 1), label="scipy.special.zeta")
add(rs.zeta, lambda draw, rng: ([values(rng, shape(draw), 0.3, 4)], {}), label="scipy.special.zeta(x)")   # Riemann's


def _zeta_derivative(draw, rng):
    sx, sq = broadcast_shapes(draw)
    return [draw(st.integers(0, 2)), values(rng, sx, 1.5, 4), values(rng, sq, 0.5, 3)], {}


add(rs.zeta_derivative, _zeta_derivative, argnums=(1, 2), label="zeta_derivative")
for _fn in (sc.gammainc, sc.gammaincc):
    binary(_fn, (0.5, 3), (0.2, 4), argnums=(1,))
for _fn in (sc.gammaincinv, sc.gammainccinv):
    binary(_fn, (0.5, 3), (0.1, 0.9), argnums=(1,))
binary(sc.stdtr, (1, 6), (-3, 3), argnums=(1,))
binary(sc.stdtrit, (1, 6), (0.1, 0.9), argnums=(1,))
binary(sc.beta, (0.5, 3), (0.5, 3), argnums=(0, 1))
binary(sc.betaln, (0.5, 3), (0.5, 3), argnums=(0, 1))
binary(sc.xlogy, (-2, 2), (0.2, 3), argnums=(0, 1))
binary(sc.xlog1py, (-2, 2), (-0.5, 3), argnums=(0, 1))
binary(sc.rel_entr, (0.2, 3), (0.2, 3), argnums=(0, 1))
binary(sc.kl_div, (0.2, 3), (0.2, 3), argnums=(0, 1))


def ternary_last(fn, dom):
    def make(draw, rng):
        sa, sb, sx = broadcast_shapes(draw, n=3)
        return [values(rng, sa, 0.5, 3), values(rng, sb, 0.5, 3), values(rng, sx, *dom)], {}
    add(fn, make, argnums=(2,), label=f"scipy.special.{fn.__name__}")


ternary_last(sc.betainc, (0.1, 0.9))
ternary_last(sc.betaincinv, (0.1, 0.9))


def _multigammaln(draw, rng):
    d = draw(st.integers(1, 3))
    return [values(rng, shape(draw), 0.5 * d + 0.5, 4), d], {}


add(rs.multigammaln, _multigammaln, label="scipy.special.multigammaln")


def _logsumexp(draw, rng):
    shp = shape(draw)
    a = values(rng, shp)
    axis = axis_of(draw, len(shp), tuples=True)
    weighted = draw(st.booleans())
    b = values(rng, draw(st.sampled_from([shp, shp[1:], ()])), 0.2, 2) if weighted else None
    return [a, axis, b, draw(st.booleans())], {}


add(rs.logsumexp, _logsumexp, argnums=(0,), label="scipy.special.logsumexp")


def _logsumexp_b(draw, rng):
    args, kwargs = _logsumexp(draw, rng)
    if args[2] is None:
        args[2] = values(rng, np.shape(args[0]), 0.2, 2)
    return args, kwargs


add(rs.logsumexp, _logsumexp_b, argnums=(0, 2), label="scipy.special.logsumexp(b)")


def along_axis(fn):
    def make(draw, rng):
        shp = shape(draw)
        return [values(rng, shp)], {"axis": axis_of(draw, len(shp), tuples=True)}
    add(fn, make, label=f"scipy.special.{fn.__name__}")


along_axis(rs.softmax)
along_axis(rs.log_softmax)


# --- convolutions: two n-d operands; 'valid' needs one at least as large as the other on every axis -------

def _operands(draw, rng, ndim=None, mode=None):
    ndim = ndim or draw(st.integers(1, 3))
    mode = mode or draw(st.sampled_from(["full", "same", "valid"]))
    s1 = tuple(draw(st.integers(1, 5)) for _ in range(ndim))
    if mode == "valid":
        small = tuple(draw(st.integers(1, n)) for n in s1)
        s1, s2 = (s1, small) if draw(st.booleans()) else (small, s1)
    else:
        s2 = tuple(draw(st.integers(1, 4)) for _ in range(ndim))
    return values(rng, s1), values(rng, s2), mode


def convolution(fn, name):
    def make(draw, rng):
        a, b, mode = _operands(draw, rng)
        return [a, b, mode], {"method": draw(st.sampled_from(["auto", "direct", "fft"]))}
    add(fn, make, argnums=(0, 1), label=f"scipy.signal.{name}")


convolution(sig.convolve, "convolve")
convolution(sig.correlate, "correlate")


def _fftconvolve(draw, rng):
    ndim = draw(st.integers(1, 3))
    mode = draw(st.sampled_from(["full", "same", "valid"]))
    axes = draw(st.one_of(st.none(), st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True)))
    conv = range(ndim) if axes is None else axes
    s1, s2 = [], []
    bigger = draw(st.booleans())
    for ax in range(ndim):
        if ax in conv:
            n, m = draw(st.integers(1, 5)), draw(st.integers(1, 5))
            if mode == "valid":
                n, m = (max(n, m), min(n, m)) if bigger else (min(n, m), max(n, m))
        else:                       # not convolved: broadcast
            n = draw(st.integers(1, 3))
            m = draw(st.sampled_from([n, 1]))
            n, m = (n, m) if draw(st.booleans()) else (m, n)
        s1.append(n)
        s2.append(m)
    return [values(rng, tuple(s1)), values(rng, tuple(s2)), mode, axes], {}


add(sig.fftconvolve, _fftconvolve, argnums=(0, 1), label="scipy.signal.fftconvolve")
