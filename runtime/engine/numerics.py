"""Floating point as TF's CPU kernels do it: subnormal results flushed to zero, and no numpy
floating-point warnings (TF prints nothing for ``log(-1)`` or ``1/0``)."""

import numpy as np

__all__ = ["flush_subnormals", "subnormals"]

_TINY = {}
_fmin_reduce = np.fmin.reduce


def flush_subnormals(value):
    """``value`` with subnormal floats replaced by (signed) zero, as TF's CPU kernels give them:
    TF runs its kernels with flush-to-zero on (``tf.sigmoid(-100.0)`` is 0, not 3.8e-44)."""
    small = subnormals(value)
    if small is None:
        return value
    return np.where(small, np.copysign(np.zeros_like(value), value), value)[()]


def subnormals(value):
    """Where ``value`` has magnitudes below its dtype's smallest normal (zeros included), or None
    when it holds no subnormal.  Every gradient and some ops' results pass through here, so the
    usual case is a short vectorised test (numpy's per-call cost dominates on small arrays)."""
    dt = getattr(value, "dtype", None)
    if dt is None or dt.kind != "f":
        return None
    tiny = _TINY.get(dt)
    if tiny is None:
        tiny = _TINY[dt] = np.finfo(dt).tiny      # np.finfo costs microseconds: once per dtype
    if isinstance(value, np.ndarray) and value.ndim:
        size = value.size
        if not size:
            return None
        magnitude = np.abs(value)
        if size > _SMALL_ARRAY:
            # large: the smallest magnitude (fmin skips NaN) is normal; a reduction is cheapest
            least = _fmin_reduce(magnitude, None)
            if least >= tiny or least != least:   # no subnormal (NaN: every value is NaN)
                return None
        small = magnitude < tiny                  # NaN compares False: never flushed
        below = _count_nonzero(small)
        if not below or below == size - _count_nonzero(magnitude):
            return None                           # nothing below tiny, or only zeros
        return small
    small = abs(value) < tiny                     # a scalar or 0-d array: one comparison
    return small if small else None


_SMALL_ARRAY = 2048
"""Above this size ``subnormals`` tests the smallest magnitude (one reduction); up to it, counts
the magnitudes below tiny (a comparison and np.count_nonzero cost less than a reduction there)."""
_count_nonzero = np.count_nonzero


def _quiet_errstate():
    """numpy's error-state context variable and its all-'ignore' value (what np.errstate sets),
    so ``apply`` can silence floating-point warnings for ~0.1 us instead of np.errstate's ~3 us."""
    try:
        from numpy._core._ufunc_config import _extobj_contextvar as var
    except ImportError:  # numpy < 2: np.errstate's own context variable is not exposed
        return _NoErrstate(), None
    with np.errstate(all="ignore"):
        return var, var.get()


class _NoErrstate:
    """Stand-in for old numpy: set/reset through np.seterr (slower, same effect)."""

    def set(self, _value):
        return np.seterr(all="ignore")

    def reset(self, old):
        np.seterr(**old)


_errstate, _QUIET = _quiet_errstate()
_quiet_set, _quiet_reset = _errstate.set, _errstate.reset
