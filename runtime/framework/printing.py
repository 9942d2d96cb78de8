"""``tf.print``: TensorFlow's formatting, to stderr by default.

Tensors print without ``tf.Tensor(...)`` around them: ``[1 2.5]`` for floats (shortest
``%g``-style text that reads back as the same float32/float64, so 2.0 is ``2`` and 1/3 in
float32 is ``0.333333343``), and each dimension longer than ``2 * summarize`` is elided to
its first and last ``summarize`` entries (``[0 1 2 ... 7 8 9]``).
"""

import sys

import numpy as np

from ..engine.logger import get_logger
from ..engine.tensor import _TensorBase

__all__ = ["print_", "format_value", "get_logger"]


def _float_text(v, dtype):
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    if dtype == np.float64:
        short, long_ = 15, 17
        back = float
    else:
        short, long_ = 6, 9
        back = np.float32 if dtype == np.float32 else np.float16
    text = "%.*g" % (short, v)
    if back(float(text)) != back(v):
        text = "%.*g" % (long_, v)
    return text


def _scalar_text(v, dtype):
    if dtype.kind == "f":
        return _float_text(float(v), dtype)
    if dtype.kind == "b":
        return "1" if v else "0"
    if dtype.kind in "OSU":
        return v.decode() if isinstance(v, bytes) else str(v)
    if dtype.kind == "c":
        return str(complex(v))
    return str(int(v))


def _array_text(a, summarize, indent=1):
    if a.ndim == 0:
        return _scalar_text(a[()], a.dtype)
    n = a.shape[0]
    if summarize >= 0 and n > 2 * summarize:
        idx = list(range(summarize)) + [None] + list(range(n - summarize, n))
    else:
        idx = list(range(n))
    parts = ["..." if i is None else _array_text(a[i], summarize, indent + 1) for i in idx]
    if a.ndim == 1:
        return "[" + " ".join(parts) + "]"
    sep = "\n" + " " * indent
    return "[" + sep.join(parts) + "]"


def format_value(x, summarize=3, top=True):
    """The text ``tf.print`` shows for one input."""
    if isinstance(x, _TensorBase):
        return _array_text(np.asarray(x._value), summarize)
    if isinstance(x, (np.ndarray, np.generic)):
        return _array_text(np.asarray(x), summarize)
    if isinstance(x, str):
        return x if top else repr(x)
    if isinstance(x, list):
        return "[" + ", ".join(format_value(v, summarize, False) for v in x) + "]"
    if isinstance(x, tuple):
        inner = ", ".join(format_value(v, summarize, False) for v in x)
        return "(" + inner + ("," if len(x) == 1 else "") + ")"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{format_value(k, summarize, False)}: {format_value(v, summarize, False)}"
                               for k, v in x.items()) + "}"
    return str(x)


def print_(*inputs, output_stream=None, summarize=3, sep=" ", end="\n", name=None):
    """``tf.print(*inputs)``: writes to sys.stderr unless ``output_stream`` says otherwise."""
    if summarize is None:
        summarize = 3
    text = sep.join(format_value(x, summarize) for x in inputs) + end
    stream = sys.stderr if output_stream is None else output_stream
    if isinstance(stream, str):
        if stream.startswith("file://"):
            with open(stream[len("file://"):], "a") as f:
                f.write(text)
            return None
        stream = sys.stdout if stream in ("stdout", "sys.stdout") else sys.stderr
    elif isinstance(stream, int):  # a logging level
        get_logger().log(stream, text.rstrip("\n"))
        return None
    stream.write(text)
    return None
