"""How tensor values print, character for character as TF prints them: the ``numpy=`` part of a
repr and the value part of ``str``."""

import numpy as np


def _numpy_text(value):
    """The ``numpy=`` part of a repr: a scalar shows its exact Python value, arrays numpy's repr."""
    if np.ndim(value) == 0:
        v = value.item() if hasattr(value, "item") else value
        if isinstance(v, bytes):
            return repr(v)
        return repr(v)
    text = repr(np.asarray(value))
    return "\n" + text if "\n" in text else text


def _value_text(value):
    """The value part of ``str(tensor)``: numpy's str of the array."""
    text = str(np.asarray(value)) if np.ndim(value) else str(value)
    return "\n" + text if "\n" in text else text

