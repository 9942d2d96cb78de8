"""``tf.*`` calls in a function being differentiated: written as the numpy code they are.

Generated code is numpy code, and a ``runtime`` op called on numpy arrays returns a Tensor,
so ``tf.reduce_sum(x, axis=1)`` cannot stay as it is.  This pass, run right after
normalization, rewrites each ``tf`` call in one of three ways:

* a primitive under another name (declared in ``runtime/ops/aliases.py``, or in ``_ALIASES`` here):
  the primitive's call, ``np.sum(x, axis=1)``;
* a composition (``tf.math.rsqrt``, ``tf.matmul(..., transpose_a=...)``, ``tf.nn.conv2d``,
  ``tf.shape``, ...): a call of its numpy twin in tf_twins/ (ops.py, arrays.py, linalg.py, nn.py),
  which the transpiler differentiates as it does a user function;
* anything else: a TranspileError at the call saying what to write instead.
"""

import ast
import inspect

import numpy as np

import runtime
from runtime import linalg, nn
from runtime.ops import array_extra, convolution, math_extra, math_ops as m, math_special
from runtime.rules import nn as nnrules, special
from runtime.rules.registry import Alias, alias_for, lookup

from ..core import annotations as anno
from ..frontend.traversal import calls
from .tf_twins import arrays, linalg as twin_linalg, nn as twin_nn, ops

__all__ = ["rewrite_tf_calls", "replacement_of"]


def _alias_table():
    """``tf`` functions that are one primitive, beyond runtime/ops/aliases.py's (the primitive must have a rule)."""
    table = {}

    def alias(fn, canonical, positional, keywords=()):
        assert lookup(canonical) is not None, canonical
        table[fn] = Alias(fn, canonical, positional, dict(keywords))

    for fn, np_fn in ((m.equal, np.equal), (m.not_equal, np.not_equal), (m.less, np.less),
                      (m.less_equal, np.less_equal), (m.greater, np.greater),
                      (m.greater_equal, np.greater_equal), (m.logical_and, np.logical_and),
                      (m.logical_or, np.logical_or), (m.logical_xor, np.logical_xor),
                      (m.floordiv, np.floor_divide), (m.floormod, np.mod)):
        alias(fn, np_fn, ("x", "y"))
    for fn, np_fn in ((m.logical_not, np.logical_not), (m.is_nan, np.isnan), (m.is_inf, np.isinf),
                      (m.is_finite, np.isfinite), (math_special.lgamma, special.lgamma),
                      (math_special.digamma, special.digamma), (math_special.bessel_i0, np.i0),
                      (math_special.bessel_i1, special.i1), (math_special.conj, np.conjugate),
                      (nn.relu6, nnrules.relu6)):
        alias(fn, np_fn, _params(fn)[:1])
    alias(math_special.real, np.real, ("input",))
    alias(math_special.imag, np.imag, ("input",))
    alias(math_special.polygamma, special.polygamma, ("a", "x"))
    for fn, np_fn in ((m.reduce_any, np.any), (m.reduce_all, np.all)):
        alias(fn, np_fn, ("input_tensor",), {"axis": "axis", "keepdims": "keepdims"})
    alias(m.tile, np.tile, ("input", "multiples"))
    alias(m.broadcast_to, np.broadcast_to, ("input", "shape"))
    alias(m.tensordot, np.tensordot, ("a", "b", "axes"))
    alias(m.einsum, np.einsum, ("equation", "inputs"))
    alias(m.add_n, np.sum, ("inputs",))          # with axis=0: _CONSTANT_KEYWORDS
    return table


def _params(fn):
    return [p for p in inspect.signature(fn).parameters if p != "name"]


def _replacement_table():
    """``tf`` function -> its numpy twin (a callee) or constant-valued helper (tf_twins/)."""
    t, a, la, n = ops, arrays, twin_linalg, twin_nn
    return {
        # constants (no gradient passes)
        m.shape: t.shape_, m.size: t.size_, m.rank: t.rank_, m.constant: t.constant_, runtime.constant: t.constant_,
        m.zeros_like: t.zeros_like_, m.ones_like: t.ones_like_, m.zeros: t.zeros_, m.ones: t.ones_, m.eye: t.eye_,
        m.range: t.range_, m.argmax: t.argmax_, m.argmin: t.argmin_, array_extra.argsort: t.argsort_,
        m.count_nonzero: t.count_nonzero_, array_extra.sequence_mask: t.sequence_mask_,
        math_extra.truncatediv: t.truncatediv_, math_extra.truncatemod: t.truncatemod_,
        # math (tf_twins/ops.py)
        m.rsqrt: t.rsqrt, m.squared_difference: t.squared_difference, m.cast: t.cast,
        m.saturate_cast: t.saturate_cast, m.convert_to_tensor: t.convert_to_tensor,
        runtime.convert_to_tensor: t.convert_to_tensor, m.reduce_sum: t.reduce_sum, m.reduce_mean: t.reduce_mean,
        m.reduce_max: t.reduce_max, m.reduce_min: t.reduce_min, m.reduce_prod: t.reduce_prod,
        m.reduce_logsumexp: t.reduce_logsumexp, m.reduce_variance: t.reduce_variance, m.reduce_std: t.reduce_std,
        m.reduce_euclidean_norm: t.reduce_euclidean_norm, m.cumsum: t.cumsum, math_extra.cumprod: t.cumprod,
        math_extra.multiply_no_nan: t.multiply_no_nan, m.clip_by_norm: t.clip_by_norm,
        math_extra.scalar_mul: t.scalar_mul, m.log_sigmoid: t.log_sigmoid, m.softsign: t.softsign, m.xlogy: t.xlogy,
        math_special.xlog1py: t.xlog1py, math_special.xdivy: t.xdivy, m.divide_no_nan: t.divide_no_nan,
        math_special.reciprocal_no_nan: t.reciprocal_no_nan, math_special.bessel_i0e: t.bessel_i0e,
        math_special.bessel_i1e: t.bessel_i1e,
        # arrays (tf_twins/arrays.py)
        m.transpose: a.transpose, m.gather: a.gather, m.where: a.where, m.one_hot: a.one_hot, m.fill: a.fill,
        array_extra.slice: a.slice_of, m.linspace: a.linspace, m.split: a.split, m.unstack: a.unstack, array_extra.sort: a.sort,
        m.boolean_mask: a.boolean_mask, m.gather_nd: a.gather_nd, array_extra.roll: a.roll,
        array_extra.repeat: a.repeat, math_extra.top_k: a.top_k, m.reverse: a.reverse, m.pad: a.pad,
        math_extra.unsorted_segment_sum: a.unsorted_segment_sum, math_extra.segment_sum: a.segment_sum,
        math_extra.unsorted_segment_mean: a.unsorted_segment_mean, math_extra.segment_mean: a.segment_mean,
        # products and linear algebra (tf_twins/linalg.py)
        m.matmul: la.matmul, m.matvec: la.matvec, linalg.solve: la.solve, linalg.inv: la.inv,
        linalg.trace: la.trace, linalg.diag_part: la.diag_part, linalg.diag: la.diag,
        linalg.matrix_transpose: la.matrix_transpose, linalg.band_part: la.band_part, linalg.logdet: la.logdet,
        linalg.svd: la.svd, linalg.qr: la.qr, linalg.pinv: la.pinv, linalg.lstsq: la.lstsq, m.norm: la.norm,
        m.l2_normalize: la.l2_normalize, linalg.adjoint: la.adjoint, linalg.triangular_solve: la.triangular_solve,
        # tf.nn (tf_twins/nn.py)
        convolution.conv2d: n.conv2d, convolution.depthwise_conv2d: n.depthwise_conv2d,
        convolution.separable_conv2d: n.separable_conv2d,
        convolution.max_pool2d: n.max_pool2d, convolution.max_pool: n.max_pool,
        convolution.avg_pool2d: n.avg_pool2d, convolution.avg_pool: n.avg_pool, convolution.conv1d: n.conv1d,
        convolution.max_pool1d: n.max_pool1d, convolution.avg_pool1d: n.avg_pool1d,
        nn.softmax: n.softmax, nn.log_softmax: n.log_softmax, nn.leaky_relu: n.leaky_relu, nn.elu: n.elu,
        nn.selu: n.selu, nn.gelu: n.gelu, nn.silu: n.silu, nn.l2_loss: n.l2_loss, nn.bias_add: n.bias_add,
        nn.moments: n.moments, nn.batch_normalization: n.batch_normalization,
        nn.sigmoid_cross_entropy_with_logits: n.sigmoid_cross_entropy_with_logits,
        nn.weighted_cross_entropy_with_logits: n.weighted_cross_entropy_with_logits,
        nn.softmax_cross_entropy_with_logits: n.softmax_cross_entropy_with_logits,
        nn.sparse_softmax_cross_entropy_with_logits: n.sparse_softmax_cross_entropy_with_logits,
        nn.embedding_lookup: n.embedding_lookup, nn.compute_average_loss: n.compute_average_loss,
    }


_ALIASES = _alias_table()
_CONSTANT_KEYWORDS = {m.add_n: {"axis": 0}}
"""Keywords an alias adds: ``tf.add_n([a, b])`` is ``np.sum([a, b], axis=0)``."""
_REPLACEMENTS = _replacement_table()

_HINTS = {
    "dropout": "random masks are not differentiated code: draw the mask outside (or with np.random) and "
               "multiply by it, x * mask / (1 - rate)",
    "global_norm": "write it with numpy: np.sqrt(sum(np.sum(t * t) for t in tensors))",
    "clip_by_global_norm": "write it with numpy: norm = np.sqrt(sum(np.sum(t * t) for t in ts)); "
                           "scale = clip_norm / np.maximum(norm, clip_norm); [t * scale for t in ts]",
    "segment_max": "take the maximum of each segment's rows: np.max(data[lo:hi], axis=0)",
    "segment_min": "take the minimum of each segment's rows: np.min(data[lo:hi], axis=0)",
    "unsorted_segment_max": "take the maximum of each segment's rows: np.max(data[ids == s], axis=0)",
    "unsorted_segment_min": "take the minimum of each segment's rows: np.min(data[ids == s], axis=0)",
    "scatter_nd": "write into a new array: out = np.zeros(shape); out[tuple(np.moveaxis(indices, -1, 0))] = updates",
    "tensor_scatter_nd_update": "write into a copy: out = x.copy(); out[tuple(np.moveaxis(indices, -1, 0))] = updates",
    "tensor_scatter_nd_add": "add into a copy: out = x.copy(); out[tuple(np.moveaxis(indices, -1, 0))] += updates",
    "print": "use print(...): it runs in the primal",
    "angle": "use np.angle(x)",
    "complex": "write real + 1j * imag",
    "fft3d": "use np.fft.fftn(x, axes=(-3, -2, -1))",
    "ifft3d": "use np.fft.ifftn(x, axes=(-3, -2, -1))",
    "rfft3d": "use np.fft.rfftn(x, axes=(-3, -2, -1))",
    "irfft3d": "use np.fft.irfftn(x, axes=(-3, -2, -1))",
}


def replacement_of(fn):
    """The twin or helper a ``tf`` function is written as, else None (documentation tables, tests)."""
    try:
        return _REPLACEMENTS.get(fn)
    except TypeError:
        return None


def rewrite_tf_calls(core, ctx):
    """Rewrite ``tf`` calls in ``core`` in place; reject the runtime functions not covered."""
    for node in calls(core):
        fn = anno.get(node, "prim")
        if fn is None:
            continue
        spec = alias_for(fn) or _alias_of(fn)
        twin = replacement_of(fn)
        if spec is not None and (twin is None or _fits(node, spec)):
            _rewrite(node, spec, ctx)
        elif twin is not None:
            _call_twin(node, fn, twin, ctx)
        elif getattr(fn, "_custom_gradient_rule_of", None) is not None:
            name = fn._custom_gradient_rule_of.__qualname__
            raise ctx.error(
                f"this calls the derivative rule of the tf.custom_gradient function {name}(), "
                "which the transpiler cannot differentiate again", node,
                "for higher derivatives through a custom gradient, use nested GradientTapes: "
                "they differentiate grad_fn's own ops")
        elif _is_runtime_op(fn):
            name = _public_name(fn)
            raise ctx.error(
                f"{name} is a TensorFlow-style op that adjoin's transpiler cannot write as numpy code",
                node, _HINTS.get(getattr(fn, "__name__", ""), "write it with numpy functions here, "
                                 "or compute it outside the @differentiate function and pass it in"))
    return core


def _alias_of(fn):
    try:
        return _ALIASES.get(fn)
    except TypeError:
        return None


def _bind(call, fn, ctx):
    name = _public_name(fn)
    try:
        return inspect.signature(fn).bind(*call.args, **{k.arg: k.value for k in call.keywords})
    except TypeError as e:
        raise ctx.error(f"{name}(): {e}", call, "check the arguments against TensorFlow's signature") from None


def _given(bound, fn):
    """The parameters passed with something other than their literal default (``name`` aside)."""
    params = inspect.signature(fn).parameters
    return [p for p, v in bound.arguments.items() if p != "name" and not _is_default(v, params[p])]


def _fits(call, spec):
    """Does the call pass only parameters the primitive takes (``tf.matmul(a, b)``, not ``transpose_a=``),
    and an axis numpy takes as it is (a literal, not a name that may hold a list of axes)?"""
    try:
        bound = inspect.signature(spec.fn).bind(*call.args, **{k.arg: k.value for k in call.keywords})
    except TypeError:
        return True            # _rewrite reports it
    if isinstance(bound.arguments.get("axis"), ast.Name):
        return False
    return all(p in spec.positional or p in spec.keywords for p in _given(bound, spec.fn))


def _call_twin(call, fn, twin, ctx):
    """``tf.f(...)`` -> ``twin(...)``: the arguments bound to TF's parameters, passed by name where the
    twin's parameter at that place differs; those the twin lacks must be left at their default."""
    name = _public_name(fn)
    bound = _bind(call, fn, ctx)
    takes = list(inspect.signature(twin).parameters)
    for param in _given(bound, fn):
        if param not in takes:
            raise ctx.error(f"{name}(..., {param}=...) is not supported in differentiated code", call,
                            f"leave `{param}` at its default, or write the computation with numpy")
    params = inspect.signature(fn).parameters
    if any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params.values()):
        raise ctx.error(f"{name}(): a *args parameter cannot be passed on to its twin", call)
    args, keywords = [], []
    for i, (param, value) in enumerate(bound.arguments.items()):
        if param not in takes:
            continue
        if len(args) == i and i < len(takes) and takes[i] == param and i < len(call.args):
            args.append(value)
        else:
            keywords.append(ast.keyword(param, value))
    call.args, call.keywords = args, keywords
    call.func = ctx.ref(twin, twin.__name__)
    anno.put(call, "prim", twin)
    anno.put(call, "user_text", f"{name}()")          # what a zero-gradient warning names, not the twin


def _rewrite(call, spec, ctx):
    """``tf.f(a, axis=1)`` -> ``np.g(a, axis=1)`` following the alias's parameter map
    (a ``*inputs`` parameter, as ``tf.einsum``'s, passes its arguments on one by one)."""
    name = _public_name(spec.fn)
    bound = _bind(call, spec.fn, ctx)
    args, keywords, missing = [], [], False
    for param in spec.positional:
        if param not in bound.arguments:
            missing = True
            continue
        if missing:
            raise ctx.error(f"{name}(): pass `{param}` together with the arguments before it", call,
                            "give every earlier argument explicitly")
        value = bound.arguments[param]
        if isinstance(value, tuple):
            args.extend(value)
        else:
            args.append(_axis_tuple(param, value))
    defaults = inspect.signature(spec.fn).parameters
    for param, value in bound.arguments.items():
        if param in spec.positional or param == "name" or _is_default(value, defaults[param]):
            continue
        if param not in spec.keywords:
            raise ctx.error(f"{name}(..., {param}=...) has no numpy counterpart in differentiated code",
                            call, f"leave `{param}` at its default, or write the computation with numpy")
        keywords.append(ast.keyword(spec.keywords[param], _axis_tuple(param, value)))
    keywords += [ast.keyword(k, ast.Constant(v)) for k, v in _CONSTANT_KEYWORDS.get(spec.fn, {}).items()]
    target = spec.canonical
    attr = getattr(target, "__name__", None)
    if attr is not None and getattr(np, attr, None) is target:
        call.func = ctx.ref_attr(np, "np", attr)
    else:
        call.func = ctx.ref(target, attr or "primitive")
    call.args, call.keywords = args, keywords
    anno.put(call, "prim", target)


def _axis_tuple(param, value):
    """TF takes a list of axes (``tf.reduce_sum(t, [0, 1])``); numpy takes only a tuple."""
    if param == "axis" and isinstance(value, ast.List):
        return ast.copy_location(ast.Tuple(list(value.elts), ast.Load()), value)
    return value


def _is_default(value, param):
    """An explicit argument equal to the parameter's literal default (``transpose_a=False``)."""
    return isinstance(value, ast.Constant) and param.default is not inspect.Parameter.empty \
        and type(value.value) is type(param.default) and value.value == param.default


def _is_runtime_op(fn):
    mod = getattr(fn, "__module__", None) or ""
    return mod.startswith("runtime") and not mod.startswith("runtime.rules") and lookup(fn) is None


def _public_name(fn):
    """``tf.math.reduce_sum``-style name for a runtime function (as a TF user writes it)."""
    short = getattr(fn, "__name__", repr(fn))
    for prefix, module in (("tf", runtime), ("tf.math", runtime.math), ("tf.nn", runtime.nn),
                           ("tf.linalg", runtime.linalg)):
        if getattr(module, short, None) is fn:
            return f"{prefix}.{short}"
    return f"{getattr(fn, '__module__', 'runtime')}.{short}"
