"""``runtime.scipy``: scipy's public names that work on tensors (as ``jax.scipy`` and
``autograd.scipy`` mirror scipy).  ``from runtime import scipy as sp; sp.stats.norm.logpdf(t)``.

scipy's own Python-level functions convert their arguments with ``np.asarray``, which the tape
refuses for a recorded tensor (the gradient would be lost); the functions here compute the same
values from primitives with derivative rules (``runtime/rules/scipy_*.py``), so they record on
tapes and give gradients in both modes and to any order.  scipy.special's ufuncs work on tensors
as they are (numpy's ufunc protocol): ``sp.special.gammaln`` *is* ``scipy.special.gammaln``.
The transpiler reads these names as scipy's, so one program runs in both halves.

Submodules load on first use: ``special``, ``stats``, ``signal``, ``fft`` (scipy.special,
scipy.stats, scipy.signal, scipy.fft) and ``linalg``, ``integrate``.  scipy must be installed
(``pip install adjoin[scipy]``).
"""

import importlib

try:
    import scipy  # noqa: F401
except ImportError as e:        # (tests/test_without_scipy.py)
    raise ImportError("runtime.scipy needs scipy, which is not installed: pip install 'adjoin[scipy]' "
                      "(or pip install scipy)") from e

SUBMODULES = ("special", "stats", "signal", "fft", "linalg", "integrate")


def __getattr__(name):
    if name in SUBMODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r} (runtime.scipy mirrors scipy's "
                         f"{', '.join(SUBMODULES)})")


def __dir__():
    return sorted(set(globals()) | set(SUBMODULES))
