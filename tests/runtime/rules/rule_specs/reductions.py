"""Specs for reductions, NaN-ignoring reductions, order statistics and running reductions."""

import numpy as np
from hypothesis import strategies as st

from runtime.rules.calculus import gradient_along

from . import add, axis_of, shape, spec, values


def reduction(fn, tuples=True, min_side=1, nan=False, extra=None):
    def make(draw, rng):
        shp = shape(draw, min_side=min_side)
        x = values(rng, shp)
        if nan and x.size > 1:
            x.flat[draw(st.integers(0, x.size - 1))] = np.nan
        kwargs = {"axis": axis_of(draw, len(shp), tuples=tuples), "keepdims": draw(st.booleans())}
        if extra:
            kwargs.update(extra(draw))
        return [x], kwargs
    add(fn, make)


for _fn in (np.sum, np.mean, np.max, np.min, np.prod, np.ptp):
    reduction(_fn, tuples=_fn is not np.ptp)
reduction(np.var, extra=lambda draw: {"ddof": draw(st.integers(0, 0))})
reduction(np.std, extra=lambda draw: {"ddof": 0})
# every slice keeps a non-NaN element (sides >= 2, one NaN at most)
for _fn in (np.nansum, np.nanmean, np.nanprod, np.nanmax, np.nanmin, np.nanvar, np.nanstd):
    reduction(_fn, min_side=2, nan=True)


@spec(np.median)
def _median(draw, rng):
    shp = shape(draw, max_side=4)
    return [values(rng, shp)], {"axis": axis_of(draw, len(shp)), "keepdims": draw(st.booleans())}


def _q(draw, rng, scale):
    q = draw(st.one_of(st.floats(0, 1), st.lists(st.floats(0, 1), min_size=1, max_size=3)))
    return np.asarray(q) * scale


@spec(np.quantile)
def _quantile(draw, rng):
    shp = shape(draw, max_side=4)
    return [values(rng, shp), _q(draw, rng, 1.0)], {"axis": axis_of(draw, len(shp)), "keepdims": draw(st.booleans())}


@spec(np.percentile)
def _percentile(draw, rng):
    shp = shape(draw, max_side=4)
    return [values(rng, shp), _q(draw, rng, 100.0)], {"axis": axis_of(draw, len(shp))}


@spec(np.average, argnums=(0, 2))
def _average(draw, rng):
    shp = shape(draw, min_dims=1)
    axis = axis_of(draw, len(shp), none=False)
    wshape = (shp[axis],) if draw(st.booleans()) else shp
    return [values(rng, shp), axis, values(rng, wshape, 0.5, 2)], {"keepdims": draw(st.booleans())}


def running(fn, zeros=False):
    def make(draw, rng):
        shp = shape(draw, max_side=4)
        x = values(rng, shp, 0.3, 2, signed=True)
        if zeros and x.size > 1:       # none, one or two zeros (a lane may hold both)
            for _ in range(draw(st.integers(0, 2))):
                x.flat[draw(st.integers(0, x.size - 1))] = 0.0
        return [x], {"axis": axis_of(draw, len(shp), none=True)}
    add(fn, make)


running(np.cumsum)
running(np.cumprod, zeros=True)


@spec(np.nancumsum)
def _nancumsum(draw, rng):
    shp = shape(draw, min_dims=1, min_side=2)
    x = values(rng, shp)
    x.flat[0] = np.nan
    return [x], {"axis": axis_of(draw, len(shp))}


@spec(np.diff)
def _diff(draw, rng):
    shp = shape(draw, min_dims=1, min_side=3, max_side=4)
    kwargs = {"n": draw(st.integers(1, 2)), "axis": axis_of(draw, len(shp), none=False)}
    if draw(st.booleans()):
        kwargs["prepend"] = 0.5
    if draw(st.booleans()):
        kwargs["append"] = np.ones(tuple(1 if i == kwargs["axis"] % len(shp) else n for i, n in enumerate(shp)))
    return [values(rng, shp)], kwargs


@spec(np.trapezoid, argnums=(0, 1))
def _trapezoid_x(draw, rng):
    shp = shape(draw, min_dims=1, min_side=2)
    axis = axis_of(draw, len(shp), none=False)
    x = np.cumsum(values(rng, (shp[axis],) if draw(st.booleans()) else shp, 0.2, 1), axis=0 if False else -1)
    if np.ndim(x) > 1:
        x = np.cumsum(values(rng, shp, 0.2, 1), axis=axis)
    return [values(rng, shp), x], {"axis": axis}


@spec(np.trapezoid, argnums=(0, 2), label="trapezoid(dx)", second=False,
      why="np.trapezoid does not dispatch on dx=: a tensor dx is refused on the tape")
def _trapezoid_dx(draw, rng):
    shp = shape(draw, min_dims=1, min_side=2)
    return [values(rng, shp), None, values(rng, (), 0.2, 1)], {"axis": axis_of(draw, len(shp), none=False)}


@spec(np.nancumprod)
def _nancumprod(draw, rng):
    shp = shape(draw, min_dims=1, min_side=2)
    x = values(rng, shp, 0.3, 2, signed=True)
    x.flat[0] = np.nan
    return [x], {"axis": axis_of(draw, len(shp))}


def nan_order(fn, q_scale=None):
    def make(draw, rng):
        shp = shape(draw, min_dims=1, min_side=2, max_side=4)
        x = values(rng, shp)
        x.flat[draw(st.integers(0, x.size - 1))] = np.nan
        args = [x] if q_scale is None else [x, _q(draw, rng, q_scale)]
        return args, {"axis": axis_of(draw, len(shp)), "keepdims": draw(st.booleans())}
    add(fn, make)


nan_order(np.nanmedian)
nan_order(np.nanquantile, 1.0)
nan_order(np.nanpercentile, 100.0)


@spec(np.ediff1d)
def _ediff1d(draw, rng):
    kwargs = {}
    if draw(st.booleans()):
        kwargs["to_begin"] = np.array([1.0, 2.0])
    if draw(st.booleans()):
        kwargs["to_end"] = 3.0
    return [values(rng, shape(draw, min_dims=1, min_side=2))], kwargs


if hasattr(np, "cumulative_sum"):
    for _fn in (np.cumulative_sum, np.cumulative_prod):
        def _make(draw, rng, _fn=_fn):
            shp = shape(draw, min_dims=1, max_side=4)
            axis = axis_of(draw, len(shp), none=len(shp) == 1)
            return [values(rng, shp, 0.3, 2, signed=True)], {"axis": axis, "include_initial": draw(st.booleans())}
        add(_fn, _make)


@spec(np.gradient, argnums=(0, 1))
def _gradient(draw, rng):
    """Any axes, a scalar spacing (differentiated too), edge_order 1 or 2 (3 points at least)."""
    shp = shape(draw, min_dims=1, min_side=3, max_side=4)
    kwargs = {"axis": axis_of(draw, len(shp), tuples=True), "edge_order": draw(st.sampled_from([1, 2]))}
    return [values(rng, shp), float(rng.uniform(0.5, 2))], kwargs


@spec(gradient_along, argnums=(0, 1))
def _gradient_along(draw, rng):
    shp = shape(draw, min_dims=1, min_side=3, max_side=4)
    return [values(rng, shp), float(rng.uniform(0.5, 2)), draw(st.integers(-len(shp), len(shp) - 1)),
            draw(st.sampled_from([1, 2]))], {}


@spec(np.unwrap)
def _unwrap(draw, rng):
    shp = shape(draw, min_dims=1, max_side=4)
    return [values(rng, shp, -9, 9)], {"axis": axis_of(draw, len(shp), none=False)}


@spec(np.cov)
def _cov(draw, rng):
    return [values(rng, (draw(st.integers(1, 3)), draw(st.integers(2, 4))))], \
        {"bias": draw(st.booleans())}
