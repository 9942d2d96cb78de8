"""Sixty-odd straight-line functions, each: transpiler == finite differences == tape."""

import math
import operator

import numpy as np
import pytest

from runtime.rules.activations import relu, sigmoid, softplus
from tests.transpiler.checks import check

rng = np.random.default_rng(0)
A = rng.normal(size=(3, 4))
B = rng.normal(size=(3, 4))
P = rng.uniform(0.5, 2.0, size=(3, 4))     # positive
V = rng.normal(size=4)
M = rng.normal(size=(4, 2))
S = 0.7                                   # a Python float
SCALE = 1.5                               # a module-level constant
W_GLOBAL = rng.normal(size=(4,))


# --- operators --------------------------------------------------------------------------
def f_add(x, y): return x + y
def f_sub(x, y): return x - y
def f_mul(x, y): return x * y
def f_div(x, y): return x / y
def f_pow_const(x): return x ** 3
def f_pow_var(x, y): return x ** y
def f_rpow(x): return 2.0 ** x
def f_neg(x): return -x + (+x) * 2
def f_matmul(x, w): return x @ w
def f_matvec(x, v): return x @ v
def f_mod(x): return x % 0.7 * x
def f_floordiv(x): return (x // 1.0) * x + x
def f_square_self(x): return x * x
def f_reuse(x): return x * x * x - x / (x * x + 1.0)
def f_scalar_consts(x): return 3 * x + 2.5 - x / 4 - 1 / (x * x + 1)


# --- broadcasting ------------------------------------------------------------------------
def f_bcast_row(x, v): return x * v + v
def f_bcast_col(x, c): return (x - c) / (c * c + 1.0)
def f_bcast_scalar_arr(x, s): return np.sum(x * s + s)
def f_bcast_3d(x, y): return x[None, :, :] * y[:, None, None]


# --- elementwise numpy -------------------------------------------------------------------
def f_sin_sq(x): return np.sin(x * x)
def f_trig(x): return np.cos(x) * np.tan(x / 3) + np.arctan(x)
def f_exp_log(x): return np.log(np.exp(x) + 1.0)
def f_sqrt(x): return np.sqrt(x) + np.cbrt(x)
def f_hyper(x): return np.tanh(x) + np.sinh(x) * np.cosh(x)
def f_abs(x): return np.abs(x) * x + abs(x)
def f_log1p_expm1(x): return np.log1p(x) + np.expm1(x)
def f_maximum(x, y): return np.maximum(x, y) * np.minimum(x, 0.3)
def f_where(x): return np.where(x > 0, x * x, -x)
def f_clip(x): return np.clip(x, -0.5, 0.5) * x
def f_square_reciprocal(x): return np.square(x) + np.reciprocal(x)
def f_log2_log10(x): return np.log2(x) + np.log10(x) + np.exp2(x)
def f_arctan2(x, y): return np.arctan2(x, y)
def f_hypot(x, y): return np.hypot(x, y)
def f_logaddexp(x, y): return np.logaddexp(x, y)
def f_activations(x): return sigmoid(x) + softplus(x) * relu(x)


# --- reductions --------------------------------------------------------------------------
def f_sum(x): return np.sum(x * x)
def f_sum_axis(x): return np.sum(x, axis=0) * np.sum(x, axis=1, keepdims=True).sum()
def f_sum_method(x): return (x * 2).sum(axis=1)
def f_mean(x): return x.mean() + np.mean(x, axis=-1).sum()
def f_max(x): return np.max(x, axis=1) + x.min()
def f_prod(x): return np.prod(x, axis=0)
def f_var_std(x): return np.var(x) + x.std(axis=0).sum()
def f_cumsum(x): return np.cumsum(x, axis=1) * x


# --- shapes and indexing -------------------------------------------------------------------
def f_reshape(x): return x.reshape(4, 3) @ x
def f_reshape_fn(x): return np.reshape(x, (2, 6)) * 2.0
def f_transpose(x): return x.T @ x + np.transpose(x).sum()
def f_getitem(x): return x[0] * np.sum(x[1:, 2:]) + np.sum(x[:, ::2])
def f_getitem_neg(x): return x[-1, :] * np.sum(x[..., 0])
def f_fancy(x): return x[[0, 0, 2]] * 2.0
def f_take(x): return np.take(x, [0, 2, 2], axis=1)
def f_concat(x, y): return np.concatenate([x, y * 2], axis=0)
def f_stack(x, y): return np.stack((x, y)).sum(axis=0) * x
def f_expand_squeeze(x): return np.squeeze(np.expand_dims(x, 0), axis=0) * x
def f_broadcast_to(v): return np.broadcast_to(v, (3, 4)) * A
def f_dot(x, w): return np.dot(x, w).sum() + x.dot(w)[0, 0]
def f_outer(v): return np.outer(v, v)
def f_swapflip(x): return np.flip(np.swapaxes(x, 0, 1), axis=0)
def f_ravel(x): return x.ravel() * np.ravel(x)[::-1]


# --- Python structure -----------------------------------------------------------------------
def f_statements(x, y):
    """A docstring is ignored."""
    a = x * y
    b = a + x
    a = np.sin(b) * a
    b = a / (b * b + 1.0)
    return np.sum(a + b)


def f_augassign(x):
    y = x * 1.0
    y += 1.0
    y *= x
    y -= 2.0 * x
    y /= 3.0
    y **= 2
    return y


def f_tuples(x, y):
    a, b = x * 2, y + 1
    c = (a, b)
    d, e = c
    a, b = b, a
    return d * e + a - b


def f_shape_attr(x):
    n, m = x.shape
    return x * n / m + x.ndim


def f_len(x):
    return x * len(x)


def f_ifexp(x):
    y = x * 2 if x.sum() > 0 else x * 3
    return y * (np.sin(x) if y.shape[0] > 1 else x)


def f_boolops(x):
    y = (x > 0) & (x < 1)
    c = x.size > 3 and x.ndim == 2
    return x * y + (x * 2 if c else x) + (x.size < 0 or 1.5) * x


def f_chained_compare(x):
    inside = 0 < x.shape[0] < 10
    return x * 2 if inside else x


def f_globals(x):
    return SCALE * x + W_GLOBAL * np.pi


def f_kwargs(x):
    return np.sum(x, axis=0, keepdims=True) * x.mean(axis=1, keepdims=True)


def f_return_scalar_from_array(x):
    return np.max(x) - np.min(x) + x[1, 1]


def f_unused_arg(x, y):
    return x * 2


def f_constant_branches(x):
    t = 1.0 if x.ndim else 2.0
    return x * t


def f_inactive(x):
    z = np.ones_like(x) * 3
    k = np.arange(x.shape[1])
    return x * z + k


def f_multi_use_param(x):
    return np.sin(x) + np.cos(x) * x + x


def f_nested_calls(x):
    return np.exp(np.tanh(np.sum(np.sin(x) * x, axis=0)))


# --- math module (scalar; the tape cannot see math.* on tensors) ---------------------------
def f_math(x): return math.sin(x) * math.exp(x) + math.log(x) + math.sqrt(x)
def f_math2(x, y): return math.atan2(x, y) + math.hypot(x, y) + math.pow(x, y)
def f_math_mix(x): return math.tanh(x) * x ** 2 + math.cos(x) / x


CASES = [
    (f_add, (A, B), (0, 1)), (f_sub, (A, B), (0, 1)), (f_mul, (A, B), (0, 1)),
    (f_div, (A, P), (0, 1)), (f_pow_const, (A,), 0), (f_pow_var, (P, B), (0, 1)), (f_rpow, (A,), 0),
    (f_neg, (A,), 0), (f_matmul, (A, M), (0, 1)), (f_matvec, (A, V), (0, 1)), (f_mod, (P,), 0),
    (f_floordiv, (P,), 0), (f_square_self, (A,), 0), (f_reuse, (A,), 0), (f_scalar_consts, (A,), 0),
    (f_bcast_row, (A, V), (0, 1)), (f_bcast_col, (A, A[:, :1].copy()), (0, 1)),
    (f_bcast_scalar_arr, (A, np.float64(S)), (0, 1)), (f_bcast_3d, (A, V), (0, 1)),
    (f_sin_sq, (A,), 0), (f_trig, (A,), 0), (f_exp_log, (A,), 0), (f_sqrt, (P,), 0), (f_hyper, (A,), 0),
    (f_abs, (A,), 0), (f_log1p_expm1, (P,), 0), (f_maximum, (A, B), (0, 1)), (f_where, (A,), 0),
    (f_clip, (A,), 0), (f_square_reciprocal, (P,), 0), (f_log2_log10, (P,), 0),
    (f_arctan2, (A, P), (0, 1)), (f_hypot, (A, B), (0, 1)), (f_logaddexp, (A, B), (0, 1)),
    (f_activations, (A,), 0),
    (f_sum, (A,), 0), (f_sum_axis, (A,), 0), (f_sum_method, (A,), 0), (f_mean, (A,), 0), (f_max, (A,), 0),
    (f_prod, (P,), 0), (f_var_std, (A,), 0), (f_cumsum, (A,), 0),
    (f_reshape, (A,), 0), (f_reshape_fn, (A,), 0), (f_transpose, (A,), 0), (f_getitem, (A,), 0),
    (f_getitem_neg, (A,), 0), (f_fancy, (A,), 0), (f_take, (A,), 0), (f_concat, (A, B), (0, 1)),
    (f_stack, (A, B), (0, 1)), (f_expand_squeeze, (A,), 0), (f_broadcast_to, (V,), 0),
    (f_dot, (A, M), (0, 1)), (f_outer, (V,), 0), (f_swapflip, (A,), 0), (f_ravel, (A,), 0),
    (f_statements, (A, B), (0, 1)), (f_augassign, (A,), 0), (f_tuples, (A, B), (0, 1)),
    (f_shape_attr, (A,), 0), (f_len, (A,), 0), (f_ifexp, (A,), 0), (f_boolops, (A,), 0),
    (f_chained_compare, (A,), 0), (f_globals, (A,), 0), (f_kwargs, (A,), 0),
    (f_return_scalar_from_array, (A,), 0), (f_unused_arg, (A, B), (0, 1)), (f_constant_branches, (A,), 0),
    (f_inactive, (A,), 0), (f_multi_use_param, (A,), 0), (f_nested_calls, (A,), 0),
]
SCALAR_CASES = [(f_math, (1.3,), 0), (f_math2, (1.3, 0.8), (0, 1)), (f_math_mix, (0.9,), 0)]


# TF tensors have no numpy methods (x.sum(), x.reshape(...), x.T, x.size): for functions
# using them the tape cannot run the same code, so they are checked against finite
# differences only.
NO_TAPE = {f_sum_axis, f_sum_method, f_mean, f_max, f_var_std, f_reshape, f_transpose, f_stack,
           f_dot, f_ravel, f_ifexp, f_boolops, f_kwargs}


@pytest.mark.parametrize("fn,args,wrt", CASES, ids=[c[0].__name__ for c in CASES])
def test_against_fd_and_tape(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=fn not in NO_TAPE)


@pytest.mark.parametrize("fn,args,wrt", SCALAR_CASES, ids=[c[0].__name__ for c in SCALAR_CASES])
def test_math_scalars(fn, args, wrt):
    check(fn, *args, wrt=wrt, tape=False)


def test_ifexp_other_branch():
    check(f_ifexp, -np.abs(A), tape=False)


def test_closure():
    w = rng.normal(size=4)
    k = 2.0

    def f(x):
        return np.sum(np.tanh(x * w) * k)

    check(f, A)
