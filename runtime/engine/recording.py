"""What is recording in this thread: the active tapes and accumulators, innermost last."""

import threading

from ..rules.registry import TENSOR_TYPES


class _ThreadState(threading.local):
    def __init__(self):
        self.tapes = []  # tapes currently recording in this thread, innermost last
        self.in_rules = 0  # > 0 while a recorded gradient sweep runs derivative rules on tensors


_state = _ThreadState()


def tracked(x):
    """True when a recording tape tracks ``x`` (or would watch it on first use, a trainable Variable)."""
    for tape in _state.tapes:
        ids = getattr(tape, "_tracked", None)
        if ids is None:             # a ForwardAccumulator: the tensors that carry a tangent
            entry = tape._tangents.get(id(x))
            if entry is not None and entry[0] is x:
                return True
            continue
        if id(x) in ids:
            return True
        if getattr(x, "_trainable", False) and tape._watch_accessed:     # only variables have _trainable
            return True
    return False


def contains_tracked(x):
    """True when ``x`` (a tensor, or a nested list or tuple) holds a tensor a recording tape tracks."""
    if isinstance(x, (list, tuple)):
        return any(contains_tracked(v) for v in x)
    return type(x) in TENSOR_TYPES and tracked(x)
