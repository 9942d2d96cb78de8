"""``runtime.scipy.special``: scipy.special on tensors.

Its ufuncs (``gammaln``, ``erf``, ``iv``, ``expit``...) are scipy's own objects: they reach the tape
through numpy's ufunc protocol, and their rules are in ``runtime/rules/scipy_special.py``.  Its
Python-level functions -- ``logsumexp``, ``softmax``, ``log_softmax``, ``polygamma``,
``multigammaln``, ``zeta`` -- are primitives wrapping scipy's (one recorded op each).  Any other
name is scipy's own function, which refuses tensors that a tape records.
"""

import scipy.special as _scipy_special

from ..rules import scipy_special as _rules
from ..rules.scipy_special import log_softmax, multigammaln, polygamma, softmax, zeta  # noqa: F401


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """``scipy.special.logsumexp``: log(sum(b * exp(a))) along ``axis``, without overflow; with
    ``return_sign=True``, (log|sum|, sign of the sum)."""
    if return_sign:
        return _rules.logsumexp_with_sign(a, axis, b, keepdims)
    return _rules.logsumexp(a, axis, b, keepdims)


def __getattr__(name):
    return getattr(_scipy_special, name)


def __dir__():
    return sorted(set(globals()) | set(dir(_scipy_special)))
