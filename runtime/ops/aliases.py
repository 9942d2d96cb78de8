"""The ``tf.*`` functions that are numpy primitives under another name.

Inside a ``@differentiate`` function the transpiler writes numpy code, so a call such as
``tf.reduce_sum(x, axis=1)`` is written as ``np.sum(x, axis=1)`` and differentiated with
``np.sum``'s rule -- the same rule the tape uses when ``tf.reduce_sum`` runs on tensors.
Only functions whose meaning on float arrays is exactly the primitive's are listed; the
transpiler rejects other ``tf.*`` calls with a message naming the numpy replacement.
"""

import numpy as np

from . import math_ops as m
from .. import nn
from ..rules import activations, special
from ..rules.arithmetic import identity
from ..rules.nondiff import stop_gradient
from ..rules.registry import alias

_UNARY = {
    m.exp: np.exp, m.expm1: np.expm1, m.log: np.log, m.log1p: np.log1p, m.sqrt: np.sqrt,
    m.square: np.square, m.reciprocal: np.reciprocal, m.negative: np.negative, m.abs: np.abs,
    m.sin: np.sin, m.cos: np.cos, m.tan: np.tan, m.asin: np.arcsin, m.acos: np.arccos,
    m.atan: np.arctan, m.sinh: np.sinh, m.cosh: np.cosh, m.tanh: np.tanh, m.asinh: np.arcsinh,
    m.acosh: np.arccosh, m.atanh: np.arctanh, m.sign: np.sign, m.floor: np.floor,
    m.ceil: np.ceil, m.round: np.round, m.sigmoid: activations.sigmoid,
    m.softplus: activations.softplus, m.erf: special.erf, m.erfc: special.erfc,
    nn.relu: activations.relu, m.identity: identity, m.stop_gradient: stop_gradient,
}

_BINARY = {
    m.add: np.add, m.subtract: np.subtract, m.multiply: np.multiply, m.divide: np.divide,
    m.pow: np.power, m.maximum: np.maximum, m.minimum: np.minimum, m.atan2: np.arctan2,
    m.matmul: np.matmul,
}

_REDUCTIONS = {
    m.reduce_sum: np.sum, m.reduce_mean: np.mean, m.reduce_max: np.max, m.reduce_min: np.min,
    m.reduce_prod: np.prod, m.reduce_logsumexp: activations.logsumexp,
}


def _params(fn):
    import inspect
    return [p for p in inspect.signature(fn).parameters if p != "name"]


for _fn, _np_fn in _UNARY.items():
    alias(_fn, _np_fn, _params(_fn)[:1])
for _fn, _np_fn in _BINARY.items():
    alias(_fn, _np_fn, _params(_fn)[:2])
for _fn, _np_fn in _REDUCTIONS.items():
    alias(_fn, _np_fn, ("input_tensor",), {"axis": "axis", "keepdims": "keepdims"})
alias(m.clip_by_value, np.clip, ("t", "clip_value_min", "clip_value_max"))
alias(m.reshape, np.reshape, ("tensor", "shape"))
alias(m.transpose, np.transpose, ("a", "perm"))
alias(m.expand_dims, np.expand_dims, ("input", "axis"))
alias(m.squeeze, np.squeeze, ("input", "axis"))
alias(m.concat, np.concatenate, ("values", "axis"))
alias(m.stack, np.stack, ("values", "axis"))
