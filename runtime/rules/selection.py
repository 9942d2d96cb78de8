"""Rules for selecting elementwise functions: maximum/minimum, fmax/fmin, where, clip, select,
copysign, nan_to_num.

Edge behaviour follows TensorFlow (see shared/TF-BEHAVIOUR.md, "Values at the edges"):

* ``maximum``/``minimum``: at a tie the whole gradient goes to the first argument (fmax/fmin too).
* ``clip`` passes the gradient exactly at the bounds, 0 strictly outside them.
"""

import numpy as np

from .forms import jvp_like
from .registry import define
from .support import broadcast_like, unbroadcast


# TF: at a tie (x == y) the whole gradient goes to the first argument.
def maximum_vjp_x(g, ans, x, y):
    return unbroadcast(np.where(x >= y, g, 0.0), x)


def maximum_vjp_y(g, ans, x, y):
    return unbroadcast(np.where(x >= y, 0.0, g), y)


define(np.maximum, vjp=(maximum_vjp_x, maximum_vjp_y), jvp=jvp_like(maximum_vjp_x, maximum_vjp_y))


def minimum_vjp_x(g, ans, x, y):
    return unbroadcast(np.where(x <= y, g, 0.0), x)


def minimum_vjp_y(g, ans, x, y):
    return unbroadcast(np.where(x <= y, 0.0, g), y)


define(np.minimum, vjp=(minimum_vjp_x, minimum_vjp_y), jvp=jvp_like(minimum_vjp_x, minimum_vjp_y))


# np.where(cond, x, y): the condition gets no gradient.  (The one-argument form returns
# indices and has no differentiable argument.)
def where_vjp_x(g, ans, condition, x=None, y=None):
    return unbroadcast(np.where(condition, g, 0.0), x)


def where_vjp_y(g, ans, condition, x=None, y=None):
    return unbroadcast(np.where(condition, 0.0, g), y)


define(np.where, vjp=(None, where_vjp_x, where_vjp_y), jvp=(None,) + jvp_like(where_vjp_x, where_vjp_y))


# np.clip(a, a_min, a_max): the gradient passes where a lies within the bounds, bounds included
# (there ans == a exactly); a bound gets the gradient where a lies beyond it.
def clip_vjp_a(g, ans, a, a_min=None, a_max=None, out=None, min=None, max=None):
    return unbroadcast(np.where(ans == a, g, 0.0), a)


def clip_vjp_min(g, ans, a, a_min=None, a_max=None, out=None, min=None, max=None):
    return unbroadcast(np.where(np.logical_and(ans != a, ans == a_min), g, 0.0), a_min)


def clip_vjp_max(g, ans, a, a_min=None, a_max=None, out=None, min=None, max=None):
    return unbroadcast(np.where(np.logical_and(ans != a, ans == a_max), g, 0.0), a_max)


define(
    np.clip,
    vjp=(clip_vjp_a, clip_vjp_min, clip_vjp_max),
    jvp=jvp_like(clip_vjp_a, clip_vjp_min, clip_vjp_max),
)


# fmax / fmin: like maximum / minimum, but a NaN loses to a number (the number gets the gradient).
def fmax_vjp_x(g, ans, x1, x2):
    return unbroadcast(np.where(np.logical_or(x1 >= x2, np.isnan(x2)), g, 0.0), x1)


def fmax_vjp_y(g, ans, x1, x2):
    return unbroadcast(np.where(np.logical_or(x1 >= x2, np.isnan(x2)), 0.0, g), x2)


define(np.fmax, vjp=(fmax_vjp_x, fmax_vjp_y), jvp=jvp_like(fmax_vjp_x, fmax_vjp_y))


def fmin_vjp_x(g, ans, x1, x2):
    return unbroadcast(np.where(np.logical_or(x1 <= x2, np.isnan(x2)), g, 0.0), x1)


def fmin_vjp_y(g, ans, x1, x2):
    return unbroadcast(np.where(np.logical_or(x1 <= x2, np.isnan(x2)), 0.0, g), x2)


define(np.fmin, vjp=(fmin_vjp_x, fmin_vjp_y), jvp=jvp_like(fmin_vjp_x, fmin_vjp_y))


# copysign(x1, x2) = |x1| with the sign of x2: d/dx1 = +-1, d/dx2 = 0 (a step in x2).
def copysign_vjp_x(g, ans, x1, x2):
    return unbroadcast(g * np.copysign(1.0, x1) * np.copysign(1.0, x2), x1)


def copysign_vjp_y(g, ans, x1, x2):
    return unbroadcast(np.zeros_like(g), x2)


define(np.copysign, vjp=(copysign_vjp_x, copysign_vjp_y), jvp=jvp_like(copysign_vjp_x, copysign_vjp_y))


# nan_to_num: the gradient passes where x is finite; replaced values (NaN, +-inf) are constants.
def nan_to_num_vjp(g, ans, x, copy=True, nan=0.0, posinf=None, neginf=None):
    return np.where(np.isfinite(x), g, 0.0)


define(np.nan_to_num, vjp=(nan_to_num_vjp,), jvp=jvp_like(nan_to_num_vjp))


# np.select(condlist, choicelist, default): each element comes from the first choice whose
# condition holds, else from default.  The choices' VJP is a tuple (one gradient per choice).
def select_vjp_choices(g, ans, condlist, choicelist, default=0):
    zero = np.zeros_like(g)
    n = len(choicelist)
    return tuple(unbroadcast(np.select(condlist, [g if j == k else zero for j in range(n)], 0.0), c)
                 for k, c in enumerate(choicelist))


def select_vjp_default(g, ans, condlist, choicelist, default=0):
    return unbroadcast(np.select(condlist, [np.zeros_like(g)] * len(condlist), g), default)


def select_jvp_choices(t, ans, condlist, choicelist, default=0):
    return broadcast_like(np.select(condlist, t, 0.0), ans)


def select_jvp_default(t, ans, condlist, choicelist, default=0):
    return np.select(condlist, [np.zeros_like(ans)] * len(condlist), broadcast_like(t, ans))


define(np.select, vjp=(None, select_vjp_choices, select_vjp_default),
       jvp=(None, select_jvp_choices, select_jvp_default))


# heaviside(x1, x2): 0 below 0, 1 above, x2 where x1 == 0 (so x2 receives the gradient there)
def heaviside_vjp_x1(g, ans, x1, x2):
    return unbroadcast(np.zeros_like(g), x1)


def heaviside_vjp_x2(g, ans, x1, x2):
    return unbroadcast(np.where(x1 == 0, g, 0.0), x2)


define(np.heaviside, vjp=(heaviside_vjp_x1, heaviside_vjp_x2), jvp=jvp_like(heaviside_vjp_x1, heaviside_vjp_x2))
