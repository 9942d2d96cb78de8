"""``runtime.scipy.fft``: scipy.fft's transforms on tensors, computed by ``np.fft`` (whose rules are in
``runtime/rules/fft.py``).  ``workers`` and ``overwrite_x`` only change how scipy computes, so they
are accepted and ignored; ``plan`` is refused.  Other names are scipy.fft's own."""

import numpy as np
import scipy.fft as _scipy_fft

TRANSFORMS = ("fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
              "rfftn", "irfftn", "hfft", "ihfft")
__all__ = list(TRANSFORMS) + ["fftshift", "ifftshift", "fftfreq", "rfftfreq"]

fftshift, ifftshift, fftfreq, rfftfreq = np.fft.fftshift, np.fft.ifftshift, np.fft.fftfreq, np.fft.rfftfreq


def _numpy_transform(name):
    transform = getattr(np.fft, name)

    def run(x, *args, overwrite_x=False, workers=None, plan=None, **kwargs):
        if plan is not None:
            raise NotImplementedError(f"runtime.scipy.fft.{name}(plan=...) is not supported: drop the plan")
        return transform(x, *args, **kwargs)

    run.__name__ = run.__qualname__ = name
    run.__doc__ = f"``scipy.fft.{name}`` on tensors: ``np.fft.{name}`` (workers and overwrite_x ignored)."
    return run


for _name in TRANSFORMS:
    globals()[_name] = _numpy_transform(_name)
del _name


def __getattr__(name):
    return getattr(_scipy_fft, name)
