"""ForwardAccumulator: forward-mode autodiff on the tapes' recorder stack (``tf.autodiff``).

A ForwardAccumulator sits on the same per-thread recorder stack as tapes.  For every op that
runs while it is active and has an input with a tangent, it combines the input tangents with
the op's JVP rules into the output's tangent.  The JVP rules run on tensors whenever another
tape or accumulator is recording, so a tape can differentiate a JVP (back-over-forward) and
an accumulator can follow a tape's backward sweep (forward-over-back: Hessian-vector products).
"""

import numpy as np

from . import nest
from .numerics import _QUIET, _quiet_reset, _quiet_set
from .recording import _state
from .tape import UnconnectedGradients, _unconnected_mode
from .tape import _flat_items as _flat
from .tensor import Tensor, _TensorBase, _wrap, constant

__all__ = ["ForwardAccumulator"]


class ForwardAccumulator:
    """Computes Jacobian-vector products with forward-mode autodiff (``tf.autodiff.ForwardAccumulator``)."""

    def __init__(self, primals, tangents):
        flat_p = nest.flatten(primals)
        flat_t = nest.flatten(tangents)
        if len(flat_p) != len(flat_t):
            raise ValueError(
                f"primals and tangents must have the same structure; got {len(flat_p)} primals "
                f"and {len(flat_t)} tangents")
        self._tangents = {}   # id(tensor) -> (tensor, tangent Tensor)
        self._recording = False
        self._busy = False
        for p, t in zip(flat_p, flat_t):
            if not isinstance(p, _TensorBase):
                raise TypeError(f"primals must be tensors or variables, got {type(p).__name__}")
            t = t if isinstance(t, _TensorBase) else constant(t, dtype=p.dtype)
            if tuple(t.shape) != tuple(p.shape):
                raise ValueError(
                    f"Tangent {t!r} has shape {t.shape} but its primal has shape {p.shape}")
            if t.dtype != p.dtype:
                raise ValueError(f"Tangent dtype {t.dtype.name} does not match primal dtype {p.dtype.name}")
            if p._value.dtype.kind in "fc":
                self._tangents[id(p)] = (p, t)

    def __enter__(self):
        if self._recording:
            raise ValueError("Accumulator is already recording.")
        _state.tapes.append(self)
        self._recording = True
        return self

    def __exit__(self, *exc):
        tapes = _state.tapes
        for i in range(len(tapes) - 1, -1, -1):
            if tapes[i] is self:
                del tapes[i]
                break
        self._recording = False
        return False

    def jvp(self, primals, unconnected_gradients=UnconnectedGradients.NONE):
        """The tangent of each tensor in ``primals`` (same structure); None (or zeros) if unconnected."""
        mode = _unconnected_mode(unconnected_gradients)

        def one(p):
            entry = self._tangents.get(id(p))
            if entry is not None and entry[0] is p:
                return entry[1]
            if not isinstance(p, _TensorBase):
                raise TypeError(
                    f"ForwardAccumulator.jvp takes tensors (or nested structures of them), not "
                    f"{type(p).__name__} {p!r}: pass the tensor computed under the accumulator; a number or "
                    f"numpy value made from it (float(t), t.numpy()) carries no tangent")
            if mode is UnconnectedGradients.ZERO:
                return _wrap(np.zeros(np.shape(p._value), dtype=p._value.dtype))
            return None

        return nest.map_structure(one, primals)

    # --- called by runtime.engine.tensor.apply for each differentiable op -------------------------
    def _note_reads(self, args):
        """A non-differentiable op (a comparison): no tangent to carry (a tape would watch here)."""

    def _record(self, rule, args, vals, kwargs, out):
        if self._busy:
            return
        tangents = self._tangents
        found = False
        for a in args:
            ta = type(a)
            if ta is list or ta is tuple:
                if any(id(x) in tangents for x in _flat(a)):
                    found = True
                    break
            elif id(a) in tangents:
                found = True
                break
        if not found:
            return
        self._busy = True
        quiet = _quiet_set(_QUIET)  # TF prints no floating-point warnings
        try:
            tangent = self._jvp(rule, args, vals, kwargs, out)
        finally:
            _quiet_reset(quiet)
            self._busy = False
        if tangent is not None:
            self._tangents[id(out)] = (out, tangent)

    def _jvp(self, rule, args, vals, kwargs, out):
        # run the rules on tensors when someone else records (so they can differentiate this)
        others = any(t is not self for t in _state.tapes)
        call_args = args if others else vals
        ans = out if others else out._value
        total = None
        for i, a in enumerate(args):
            ta = type(a)
            if ta is list or ta is tuple:
                items = _flat(a)
                if not any(id(x) in self._tangents for x in items):
                    continue
                t = type(a)(self._tangent_or_zeros(x, others) for x in items)
            else:
                entry = self._tangents.get(id(a))
                if entry is None:
                    continue
                t = entry[1] if others else entry[1]._value
            jvp = rule.jvp(i)
            if jvp is None:
                continue
            if others:      # on tensors: a rule mixes real and complex as numpy does (tape.py)
                _state.in_rules += 1
            try:
                c = jvp(t, ans, *call_args, **kwargs) if kwargs else jvp(t, ans, *call_args)
            finally:
                if others:
                    _state.in_rules -= 1
            if c is None:
                continue
            total = c if total is None else total + c
        if total is None:
            return None
        if isinstance(total, _TensorBase):
            return total if type(total) is Tensor else _wrap(total._value)
        want = out._value.dtype
        total = np.asarray(total)
        if total.dtype != want:
            total = total.astype(want)
        if total.shape != np.shape(out._value):
            total = np.broadcast_to(total, np.shape(out._value)).copy()
        return _wrap(total[()] if total.ndim == 0 else total)

    def _tangent_or_zeros(self, x, as_tensor):
        entry = self._tangents.get(id(x))
        if entry is not None:
            return entry[1] if as_tensor else entry[1]._value
        v = x._value if isinstance(x, _TensorBase) else np.asarray(x)
        z = np.zeros(np.shape(v), dtype=getattr(v, "dtype", np.float32))
        return _wrap(z) if as_tensor else z

