"""GradientTape: records operations on watched tensors and runs the backward sweep.

Recording: :func:`runtime.engine.tensor.apply` hands every differentiable op to each tape that is
recording in this thread; a tape keeps the op when one of its inputs is something it
tracks (a watched tensor, an accessed trainable variable, or an output of a kept op).

Backward: the kept ops are already in topological order, so the sweep walks them in
reverse, calling each input's VJP rule.  When no tape is recording, rules run on plain
numpy values (fast).  When a tape is recording, they run on the tensors themselves, so the
gradient computation is recorded too and can be differentiated again.
"""

import enum
import math as _math

import numpy as np

from . import errors, nest
from . import tensor as _tensor
from ..rules import gather as _gather_rules
from ..rules.registry import RULES as _RULES
from .indexed_slices import IndexedSlices, as_public as _public_slices, to_dense as _to_dense
from .logger import get_logger
from .numerics import _QUIET, _quiet_reset, _quiet_set, flush_subnormals, subnormals
from .recording import _state
from .shapes import TensorShape
from .tensor import Tensor, _TensorBase, _wrap, constant
from .variable import Variable

__all__ = ["GradientTape", "UnconnectedGradients", "stop_gradient"]

def _warn(message, *args):
    """Log as TF does, on the "tensorflow" logger (``logging`` is loaded on first use: import time)."""
    get_logger().warning(message, *args)


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` returns for a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


def _unconnected_mode(value):
    if isinstance(value, UnconnectedGradients):
        return value
    try:
        return UnconnectedGradients(value)
    except ValueError:
        raise ValueError(
            f"Unknown value for unconnected_gradients: {value!r}; use "
            f"tf.UnconnectedGradients.NONE ('none') or tf.UnconnectedGradients.ZERO ('zero')."
        ) from None


def _is_tensor(x):
    return isinstance(x, _TensorBase)


def _differentiable_dtype(x):
    return x._value.dtype.kind in "fc"


class GradientTape:
    """Records operations for automatic differentiation (``tf.GradientTape``)."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed = watch_accessed_variables
        self._nodes = []          # (rule, args, values, kwargs, output) in execution order
        self._tracked = set()     # ids of tensors whose gradients this tape can compute
        self._keep = []           # keeps watched objects alive so their ids stay unique
        self._watched_vars = {}   # id -> Variable, for watched_variables()
        self._recording = False
        self._used = False

    # --- context ------------------------------------------------------------------------
    def __enter__(self):
        self._push()
        if _tensor._EXPLAIN is not None and not hasattr(self, "_explain_seq"):
            _tensor._EXPLAIN.tape_entered(self)
        return self

    def __exit__(self, *exc):
        self._pop()
        return False

    def _push(self):
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter an already-active "
                             "tape. Use a new tf.GradientTape() for a new recording.")
        _state.tapes.append(self)
        self._recording = True

    def _pop(self):
        if self._recording:
            tapes = _state.tapes
            for i in range(len(tapes) - 1, -1, -1):
                if tapes[i] is self:
                    del tapes[i]
                    break
            self._recording = False

    def stop_recording(self):
        """A context in which this tape does not record (TF: ``with tape.stop_recording():``)."""
        return _StopRecording(self)

    def reset(self):
        """Forget everything recorded so far; recording continues if inside the ``with`` block."""
        self._nodes = []
        self._tracked = set()
        self._keep = []
        self._watched_vars = {}
        self._used = False

    # --- watching -----------------------------------------------------------------------
    def watch(self, tensor):
        """Track ``tensor`` (a tensor, variable, or a nested list/tuple/dict of them)."""
        for t in nest.flatten(tensor):
            if not _is_tensor(t):
                raise ValueError(
                    f"Passed in object {t!r} of type '{type(t).__name__}', not tf.Tensor or tf.Variable "
                    f"or ExtensionType. Watch a tensor instead, e.g. tape.watch(tf.constant({t!r}))."
                )
            if not _differentiable_dtype(t):
                _warn("The dtype of the watched tensor must be floating (e.g. tf.float32), got %r", t.dtype)
            self._track(t)

    def _track(self, t):
        if id(t) not in self._tracked:
            self._tracked.add(id(t))
            self._keep.append(t)
            if isinstance(t, Variable):
                self._watched_vars[id(t)] = t

    def watched_variables(self):
        """The variables this tape watches, in the order they were created."""
        return tuple(sorted(self._watched_vars.values(), key=lambda v: v._uid))

    # --- recording (called by tensor.apply) -----------------------------------------------
    def _record(self, rule, args, vals, kwargs, out):
        tracked = self._tracked
        hit = False
        for a in args:
            ta = type(a)
            if ta is Tensor:
                if id(a) in tracked:
                    hit = True
            elif ta is Variable:
                if id(a) in tracked:
                    hit = True
                elif self._watch_accessed and a._trainable:
                    self._track(a)
                    hit = True
            elif ta is list or ta is tuple:
                if self._record_seq(a):
                    hit = True
            elif isinstance(a, _TensorBase):  # subclasses, e.g. Keras weights
                if id(a) in tracked:
                    hit = True
                elif isinstance(a, Variable) and self._watch_accessed and a._trainable:
                    self._track(a)
                    hit = True
        if hit:
            self._nodes.append((rule, args, vals, kwargs, out))
            tracked.add(id(out))

    def _note_reads(self, args):
        if self._watch_accessed:
            for a in args:
                if isinstance(a, Variable) and a._trainable:
                    self._track(a)

    def _record_seq(self, seq):
        hit = False
        for a in seq:
            if isinstance(a, (list, tuple)):
                hit = self._record_seq(a) or hit
            elif isinstance(a, Variable) and id(a) not in self._tracked and self._watch_accessed and a._trainable:
                self._track(a)
                hit = True
            elif _is_tensor(a) and id(a) in self._tracked:
                hit = True
        return hit

    # --- gradients ----------------------------------------------------------------------
    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d target / d sources: the result has the structure of ``sources``; targets are summed."""
        if self._used and not self._persistent:
            raise RuntimeError(
                "A non-persistent GradientTape can only be used to compute one set of gradients "
                "(or jacobians); create it with tf.GradientTape(persistent=True) to call gradient() "
                "more than once"
            )
        mode = _unconnected_mode(unconnected_gradients)
        targets = _flat_tensors(target, "target")
        flat_sources = _flat_tensors(sources, "sources")
        seeds = [tf_convention(s) for s in _seeds(targets, output_gradients)]

        if self._recording:
            if self._persistent:
                _warn(
                    "Calling GradientTape.gradient on a persistent tape inside its context is "
                    "significantly less efficient than calling it outside the context (it causes "
                    "the gradient ops to be recorded on the tape, leading to increased CPU and "
                    "memory usage). Only call GradientTape.gradient inside the context if you "
                    "actually want to trace the gradient in order to compute higher order derivatives."
                )
            else:
                self._pop()  # a non-persistent tape silently stops recording
        if not self._persistent:
            self._used = True

        tracked = self._tracked
        quiet = _quiet_set(_QUIET)  # rules on plain values: no FP warnings (TF)
        try:
            grads = self._backward(targets, seeds, flat_sources)
        finally:
            _quiet_reset(quiet)
        self._end_call()

        results, fresh = [], []
        for s in flat_sources:
            g = grads.get(id(s))
            if g is None or not _differentiable_dtype(s):
                if mode is UnconnectedGradients.ZERO:
                    g = np.zeros(s._value.shape, dtype=s._value.dtype)
                else:
                    results.append(None)
                    continue
            g = tf_convention(g)
            if type(g) is IndexedSlices:
                results.append(_public_slices(g))
            elif isinstance(g, _TensorBase):
                results.append(_as_gradient(g, s))
            else:
                results.append(_as_gradient(g, s, flush=False))
                fresh.append(results[-1])
        _flush_gradients(fresh)
        if _tensor._EXPLAIN is not None:
            self._explain(flat_sources, results, targets, tracked, "gradient")
        return nest.pack_sequence_as(sources, results)

    def _explain(self, flat_sources, results, targets, tracked, what):
        """tf.debugging.enable_gradient_explanations(): one warning per None, saying why."""
        missing = [s for s, r in zip(flat_sources, results) if r is None]
        if missing:
            _tensor._EXPLAIN.explain(missing, targets, self, tracked, what)

    def _backward(self, targets, seeds, sources):
        """Accumulated gradients keyed by id, for every source reachable from the targets."""
        nodes = self._nodes[:]  # a persistent tape may record this very sweep
        source_ids = self._connectable(sources, targets)
        relevant = _reachable(nodes, source_ids)

        higher = bool(_state.tapes)  # record the sweep itself for higher-order derivatives
        grads = {}
        for t, seed in zip(targets, seeds):
            if id(t) in relevant:
                if not higher and isinstance(seed, _TensorBase):
                    seed = seed._value
                _accumulate(grads, id(t), seed)

        get, pop = grads.get, grads.pop
        for rule, args, vals, kwargs, out in reversed(nodes):
            oid = id(out)
            if oid not in relevant:
                continue
            g = get(oid) if oid in source_ids else pop(oid, None)
            if g is None:
                continue
            if type(g) is IndexedSlices:
                g = _to_dense(g)
            if higher:
                call_args, ans = args, out
            else:
                call_args, ans = vals, out._value
            if rule is _GATHER_RULE and _sparse_gather(grads, g, args, vals, kwargs, source_ids):
                continue
            vjps = rule.vjps
            nv = len(vjps)
            for i, a in enumerate(args):
                # _needs_grad, rule.vjp and _distribute inlined for a tensor argument (the hot path)
                ia = id(a)
                if ia in relevant:
                    if i >= nv:
                        continue
                    vjp = vjps[i]
                    if vjp is None or a._value.dtype.kind not in "fc":
                        continue
                    if higher:
                        contrib = _recorded_rule(vjp, g, ans, call_args, kwargs)
                    else:
                        contrib = vjp(g, ans, *call_args, **kwargs) if kwargs else vjp(g, ans, *call_args)
                    if contrib is not None:
                        prev = get(ia)
                        grads[ia] = contrib if prev is None else prev + contrib
                elif (type(a) is list or type(a) is tuple) and _any_in(a, relevant):
                    vjp = rule.vjp(i)
                    if vjp is None:
                        continue
                    if higher:
                        contrib = _recorded_rule(vjp, g, ans, call_args, kwargs)
                    else:
                        contrib = vjp(g, ans, *call_args, **kwargs) if kwargs else vjp(g, ans, *call_args)
                    _distribute(grads, a, contrib, relevant)
        return grads

    def _connectable(self, sources, targets):
        """Ids of the sources that can receive a gradient: those this tape tracks (TF: an
        unwatched tensor gets None even when it is an input of a recorded op) and the targets."""
        tracked = self._tracked
        target_ids = {id(t) for t in targets}
        return {id(s) for s in sources if id(s) in tracked or id(s) in target_ids}

    # --- jacobians ------------------------------------------------------------------------
    def _begin_call(self):
        """What gradient/jacobian share: the one-use check and in-context recording rules."""
        if self._used and not self._persistent:
            raise RuntimeError(
                "A non-persistent GradientTape can only be used to compute one set of gradients "
                "(or jacobians); create it with tf.GradientTape(persistent=True) to call gradient() "
                "more than once"
            )
        if self._recording:
            if self._persistent:
                _warn(
                    "Calling GradientTape.jacobian on a persistent tape inside its context is "
                    "significantly less efficient than calling it outside the context (it causes "
                    "the gradient ops to be recorded on the tape, leading to increased CPU and "
                    "memory usage). Only call GradientTape.jacobian inside the context if you "
                    "actually want to trace the gradient in order to compute higher order derivatives."
                )
            else:
                self._pop()
        if not self._persistent:
            self._used = True

    def _end_call(self):
        """A used non-persistent tape frees its record but still reports what it watched
        (TF: ``watched_variables()`` after ``gradient()`` lists them)."""
        if not self._persistent:
            watched = self._watched_vars
            self.reset()
            self._watched_vars = watched
            self._used = True

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d target[i...] / d source[j...] for every pair: shape ``target.shape + source.shape``.

        One backward sweep with a batch of one-hot cotangents (see ``runtime.engine.batching``).
        """
        mode = _unconnected_mode(unconnected_gradients)
        target = _flat_tensors(target, "target")
        if len(target) != 1:
            raise TypeError("GradientTape.jacobian: target must be a single tensor")
        target = target[0]
        flat_sources = _flat_tensors(sources, "sources")
        self._begin_call()
        tshape = tuple(np.shape(target._value))
        n = _math.prod(tshape)
        dt = target._value.dtype
        seeds = _one_hot_seeds(n, dt, tshape) if dt.kind in "fc" else None
        tracked = self._tracked
        grads = self._backward_batched(target, seeds, flat_sources, n) if seeds is not None and n else {}
        self._end_call()
        results = []
        for s in flat_sources:
            sshape = tuple(np.shape(s._value))
            g = grads.get(id(s))
            if not _differentiable_dtype(s) or (g is None and mode is UnconnectedGradients.NONE):
                results.append(None)
                continue
            if g is None:
                results.append(_wrap(np.zeros(tshape + sshape, dtype=s._value.dtype)))
                continue
            g = g.reshape(tshape + sshape) if type(g) is np.ndarray else np.reshape(g, tshape + sshape)
            results.append(_as_gradient(tf_convention(g), s))
        if _tensor._EXPLAIN is not None:
            self._explain(flat_sources, results, [target], tracked, "jacobian")
        return nest.pack_sequence_as(sources, results)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example jacobians: target [b, y...] and source [b, x...] give [b, y..., x...].

        Assumes example i of the target depends only on example i of the source (as TF does).
        An unconnected source gives zeros (TF's behaviour), an integer source None.
        """
        _unconnected_mode(unconnected_gradients)
        target = _flat_tensors(target, "target")[0]
        source = _flat_tensors(source, "source")[0]
        tshape = tuple(np.shape(target._value))
        sshape = tuple(np.shape(source._value))
        if len(tshape) < 1 or len(sshape) < 1 or tshape[0] != sshape[0]:
            raise ValueError(
                f"Need first dimension of target shape ({TensorShape(tshape)}) and source shape "
                f"({TensorShape(sshape)}) to match."
            )
        self._begin_call()
        b, ty = tshape[0], tshape[1:]
        n = _math.prod(ty)
        dt = target._value.dtype
        grads = {}
        if dt.kind in "fc" and n and b:
            seeds = np.broadcast_to(np.eye(n, dtype=dt).reshape((n, 1) + ty), (n,) + tshape).copy()
            grads = self._backward_batched(target, seeds, [source], n)
        tracked = self._tracked
        self._end_call()
        if not _differentiable_dtype(source):
            if _tensor._EXPLAIN is not None:
                self._explain([source], [None], [target], tracked, "batch_jacobian")
            return None
        g = grads.get(id(source))
        if g is None:
            return _wrap(np.zeros(tshape + sshape[1:], dtype=source._value.dtype))
        g = np.moveaxis(g, 0, 1)
        return _as_gradient(tf_convention(np.reshape(g, tshape + sshape[1:])), source)

    def _backward_batched(self, target, seeds, sources, n):
        """Like ``_backward`` with cotangents that carry a leading batch axis of size n."""
        quiet = _quiet_set(_QUIET)  # no FP warnings, as in TF
        try:
            return self._backward_batched_sweep(target, seeds, sources, n)
        finally:
            _quiet_reset(quiet)

    def _backward_batched_sweep(self, target, seeds, sources, n):
        batching = _batching()
        nodes = self._nodes[:]
        source_ids = self._connectable(sources, [target])
        relevant = _reachable(nodes, source_ids)
        higher = bool(_state.tapes)
        grads = {}
        if id(target) in relevant:
            grads[id(target)] = seeds
        for rule, args, vals, kwargs, out in reversed(nodes):
            oid = id(out)
            if oid not in relevant:
                continue
            g = grads.get(oid) if oid in source_ids else grads.pop(oid, None)
            if g is None:
                continue
            call_args = args if higher else vals
            ans = out if higher else out._value
            kw = kwargs or {}
            slices = None
            for i, a in enumerate(args):
                if not _needs_grad(a, relevant):
                    continue
                vjp = rule.vjp(i)
                if vjp is None:
                    continue
                contrib = None
                try:
                    contrib = batching.batched_vjp(vjp, g, ans, call_args, kw)
                    if not _batch_shaped(contrib, a, n):
                        contrib = None
                except batching.Fallback:
                    contrib = None
                if contrib is None:
                    if slices is None:
                        slices = [g[k] for k in range(n)]
                    contrib = _stack_contributions(
                        [vjp(gk, ans, *call_args, **kw) for gk in slices], type(a) in (list, tuple))
                _distribute(grads, a, contrib, relevant)
        return grads


def tf_convention(g):
    """A complex cotangent in TF's convention from the rules' own, and back (it is its own inverse).

    The rules compute autograd's (and the transpiler's) cotangent, d/dRe - i d/dIm for a real loss;
    TF's gradient is its conjugate, d/dRe + i d/dIm, the direction a descent step subtracts.  The
    tape conjugates at its boundary -- the output gradients coming in, the complex gradients
    going out, a custom_gradient's grad_fn both ways -- so every rule keeps one convention."""
    if type(g) is IndexedSlices:
        values = g.values._value if isinstance(g.values, _TensorBase) else g.values
        return IndexedSlices(np.conj(g.values), g.indices, g.dense_shape) if np.iscomplexobj(values) else g
    value = g._value if isinstance(g, _TensorBase) else g
    # + 0.0 turns the -0j that conj makes of a real gradient into TF's +0j
    return np.conj(g) + 0.0 if value is not None and np.iscomplexobj(value) else g


def _recorded_rule(vjp, g, ans, args, kwargs):
    """A VJP run on tensors (a sweep recorded for higher order).  The rules are numpy code and
    mix real and complex operands (``g * conj(sign(z))`` with a real ``g``); TF's refusal of
    mixed-dtype operators is for user code, so it is lifted while a rule runs."""
    _state.in_rules += 1
    try:
        return vjp(g, ans, *args, **kwargs) if kwargs else vjp(g, ans, *args)
    finally:
        _state.in_rules -= 1


_SEEDS = {}
"""(n, dtype, shape) -> read-only one-hot cotangents of a jacobian, kept when small: building
np.eye each call costs a few percent of a 100 x 100 jacobian (the rules never write into g)."""


def _one_hot_seeds(n, dt, tshape):
    """``np.eye(n)`` shaped ``(n,) + tshape``: the batch of cotangents that picks each output."""
    key = (n, dt, tshape)
    seeds = _SEEDS.get(key)
    if seeds is None:
        seeds = np.eye(n, dtype=dt).reshape((n,) + tshape)
        if seeds.nbytes <= 1 << 20:
            seeds.flags.writeable = False
            if len(_SEEDS) >= 8:
                _SEEDS.clear()
            _SEEDS[key] = seeds
    return seeds


def _batching():
    """runtime.engine.batching, imported on the first jacobian (it is not needed before)."""
    global _batching_module
    if _batching_module is None:
        from . import batching
        _batching_module = batching
    return _batching_module


_batching_module = None


def _reachable(nodes, source_ids):
    """Ids of the sources and of every recorded output that depends on one of them."""
    relevant = set(source_ids)
    for rule, args, vals, kwargs, out in nodes:
        for a in args:
            if id(a) in relevant or (type(a) in (list, tuple) and _any_in(a, relevant)):
                relevant.add(id(out))
                break
    return relevant


def _needs_grad(a, relevant):
    """Whether the backward sweep must send a gradient to argument ``a`` (a tensor or a list)."""
    if id(a) in relevant:  # only live tensors' ids are ever in ``relevant``
        return a._value.dtype.kind in "fc"
    return (type(a) is list or type(a) is tuple) and _any_in(a, relevant)


def _distribute(grads, a, contrib, relevant):
    """Add a VJP's contribution to ``a``'s gradient, item by item when ``a`` is a list of tensors."""
    ta = type(a)
    if ta is list or ta is tuple:
        for item, c in zip(_flat_items(a), _flat_items(contrib)):
            if c is not None and _is_tensor(item) and id(item) in relevant:
                _accumulate(grads, id(item), c)
    else:
        _accumulate(grads, id(a), contrib)


def _any_in(seq, ids):
    for a in seq:
        if type(a) in (list, tuple):
            if _any_in(a, ids):
                return True
        elif id(a) in ids:
            return True
    return False


def _flat_items(seq):
    out = []
    for a in seq:
        if type(a) in (list, tuple):
            out.extend(_flat_items(a))
        else:
            out.append(a)
    return out


def _accumulate(grads, key, g):
    if g is None:
        return
    prev = grads.get(key)
    grads[key] = g if prev is None else prev + g


_GATHER_RULE = _RULES[_gather_rules.gather]


def _sparse_gather(grads, g, args, vals, kwargs, source_ids):
    """TF: a gather along axis 0 straight from a source gives it an IndexedSlices gradient.

    Returns True when it handled the node (params is a source); else the dense rule runs.
    """
    params = args[0]
    if id(params) not in source_ids or (kwargs and (kwargs.get("axis") or kwargs.get("batch_dims"))):
        return False
    if not _is_tensor(params) or not _differentiable_dtype(params):
        return True
    indices = np.asarray(vals[1])
    rest = tuple(np.shape(vals[0])[1:])
    values = np.reshape(g, (indices.size,) + rest)
    flat_idx = indices.reshape(-1)
    shape = np.asarray(np.shape(vals[0]), dtype=np.int32)
    _accumulate(grads, id(params), IndexedSlices(values, flat_idx, shape))
    return True


def _batch_shaped(contrib, arg, n):
    """Is a batched contribution shaped (n,) + the argument's shape (each item, for sequences)?"""
    if contrib is None:
        return True
    if type(arg) in (list, tuple):
        items = _flat_items(arg)
        parts = _flat_items(contrib)
        return len(items) == len(parts) and all(
            c is None or tuple(np.shape(c)) == (n,) + tuple(np.shape(_value_of(x)))
            for x, c in zip(items, parts))
    shape = getattr(contrib, "shape", None)
    if shape is None:
        return True  # e.g. a custom-gradient cotangent: trusted
    value = arg._value
    return tuple(shape) == (n,) + tuple(value.shape if hasattr(value, "shape") else np.shape(value))


def _value_of(x):
    return x._value if _is_tensor(x) else x


def _stack_contributions(contribs, is_seq):
    """Stack per-element results into one batched contribution (None stays None)."""
    if is_seq:
        per_item = list(zip(*[_flat_items(c) for c in contribs]))
        return tuple(None if any(c is None for c in col) else np.stack(list(col)) for col in per_item)
    if any(c is None for c in contribs):
        return None
    return np.stack(contribs)


def _flat_tensors(structure, what):
    flat = nest.flatten(structure)
    for i, t in enumerate(flat):
        if not _is_tensor(t):
            where = what if len(flat) == 1 and not nest.is_nested(structure) else f"{what}[{i}]"
            raise TypeError(
                f"GradientTape.gradient: {where} must be a tf.Tensor or tf.Variable (or a nested "
                f"structure of them), got {type(t).__name__}: {t!r}"
            )
    return flat


def _seeds(targets, output_gradients):
    """One cotangent per flat target: ones, or the matching ``output_gradients`` entry."""
    if output_gradients is None:
        return [np.ones(t._value.shape, dtype=t._value.dtype) for t in targets]
    flat = nest.flatten(output_gradients)
    if len(flat) != len(targets):
        raise ValueError(
            f"GradientTape.gradient: output_gradients has {len(flat)} entries but target has "
            f"{len(targets)}; give one gradient per target."
        )
    seeds = []
    for t, og in zip(targets, flat):
        if og is None:  # TF refuses it too (it cannot convert None to a tensor)
            raise ValueError(
                "GradientTape.gradient: an output_gradients entry is None; give a tensor for every "
                "target, e.g. tf.ones_like(target) for a plain gradient.")
        value = og if _is_tensor(og) else constant(og, dtype=t.dtype)
        want = t._value.dtype
        if value._value.dtype != want:
            raise errors.InvalidArgumentError(
                f"GradientTape.gradient: an output_gradients entry is {value._value.dtype.name} but its "
                f"target is {want.name}; give it the target's dtype (tf.cast(g, tf.{want.name})).")
        if tuple(value.shape) != tuple(t._value.shape):
            raise ValueError(
                f"GradientTape.gradient: output_gradients entry has shape {TensorShape(value.shape)} "
                f"but its target has shape {TensorShape(t._value.shape)}; they must match."
            )
        seeds.append(value)
    return seeds


def _as_gradient(g, source, flush=True):
    """A gradient as a Tensor with the source's dtype and shape; subnormal values flushed to zero
    as TF's kernels flush them (``d log_sigmoid(x)/dx`` at 100 is 0, not 3.8e-44) unless
    ``flush`` is False (the caller flushes: ``_flush_gradients``)."""
    if isinstance(g, _TensorBase):
        return g if type(g) is Tensor else _wrap(g._value)
    want = source._value.dtype
    if getattr(g, "dtype", None) != want or not isinstance(g, (np.ndarray, np.generic)):
        g = np.asarray(g, dtype=want)
        if g.ndim == 0:
            g = g[()]
    if flush:
        g = flush_subnormals(g)
    if isinstance(g, np.ndarray) and not g.flags.writeable:
        g = g.copy()
    return _wrap(g)


def _flush_gradients(tensors):
    """flush_subnormals on new gradient tensors (made by ``_as_gradient(..., flush=False)``).

    Several small float arrays of one dtype (a model's biases) get one test for all of them:
    numpy's per-call cost, not the arrays' size, dominates their test, so this is cheaper than
    one each.  A large one (a weight matrix) is tested on its own: copying it into the joint
    array would cost more than the call it saves.
    """
    if len(tensors) > 1:
        small = []
        dt = getattr(tensors[0]._value, "dtype", None)
        for t in tensors:
            v = t._value
            if type(v) is not np.ndarray or v.dtype != dt:
                break
            if v.size <= _JOINT_TEST:
                small.append(t)
        else:
            if dt.kind == "f" and (not small or subnormals(np.concatenate([t._value for t in small], axis=None)) is None):
                tensors = [t for t in tensors if t._value.size > _JOINT_TEST]
    for t in tensors:
        t._value = flush_subnormals(t._value)


_JOINT_TEST = 4096
"""Gradients up to this size share one subnormal test (``_flush_gradients``)."""


class _StopRecording:
    __slots__ = ("_tape", "_was")

    def __init__(self, tape):
        self._tape = tape

    def __enter__(self):
        if not self._tape._recording:
            raise RuntimeError(
                "tape.stop_recording() was used while the tape is not recording: use it inside "
                "the tape's `with tf.GradientTape() as tape:` block.")
        self._was = self._tape._recording
        if self._was:
            self._tape._pop()
        return self

    def __exit__(self, *exc):
        if self._was:
            self._tape._push()
        return False


def stop_gradient(input, name=None):
    """The same value, cut off from every tape: no gradient flows through it."""
    value = input._value if _is_tensor(input) else constant(input)._value
    out = _wrap(value)
    if _tensor._EXPLAIN is not None:
        _tensor._EXPLAIN.derived("stop", "tf.stop_gradient", (input,), out)
    return out
