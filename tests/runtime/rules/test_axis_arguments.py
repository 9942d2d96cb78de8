"""Every rule whose primitive takes axis arguments, at every value of each such argument.

The registry test draws one axis per case; np.cross's JVP ignored its axisa/axisb/axisc/axis
and nothing drew them.  Here each spec's drawn case is re-run with each axis-like parameter
(``axis``, ``axes``, ``axis1``/``axis2``, ``axisa``/``axisb``/``axisc``, ``source``/``destination``)
set in turn to None, every int axis (negative ones too) and every pair of distinct axes, wherever
numpy accepts the value; each VJP and JVP rule is compared with finite differences of the
primitive (the registry test's first-order check).  Both halves run these same rules.
"""

import inspect
import itertools
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runtime.rules import lookup
from tests import halves
from tests.runtime.rules.rule_specs import all_specs
from tests.runtime.rules.test_every_rule import check_first_order

AXIS_PARAMETERS = ("axis", "axes", "axis1", "axis2", "axisa", "axisb", "axisc", "source", "destination")


def _rule_parameters(spec):
    rule = lookup(spec.fn)
    fn = next((f for f in rule.vjps + rule.jvps if f is not None), None) if rule is not None else None
    if fn is None:
        return None, []
    sig = inspect.signature(fn)
    return sig, [p for p in sig.parameters if p in AXIS_PARAMETERS]


SPECS = [s for s in all_specs() if not s.scalar and _rule_parameters(s)[1]]


def _candidates(ndim):
    values = [None] + list(range(-ndim, ndim))
    values += [pair for pair in itertools.permutations(range(ndim), 2)]
    return values + [tuple(range(ndim))] if ndim > 2 else values


def _ndim(args):
    return max([np.ndim(a) for a in args if not isinstance(a, (list, tuple))] +
               [np.ndim(b) for a in args if isinstance(a, (list, tuple)) for b in a] + [0])


def _variants(spec, args, kwargs):
    """(args, kwargs, what changed) with one axis parameter set to each value numpy accepts."""
    sig, names = _rule_parameters(spec)
    try:
        bound = sig.bind("g", "ans", *args, **kwargs)
    except TypeError:
        return
    for name in names:
        for value in _candidates(_ndim(args)):
            b = sig.bind("g", "ans", *args, **kwargs)
            b.arguments[name] = value
            new_args, new_kwargs = _as_call(sig, b, names, max(spec.argnums))
            try:
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    out = spec.fn(*new_args, **new_kwargs)
            except Exception:
                continue                        # numpy itself refuses this value
            if any(np.size(o) == 0 for o in (out if isinstance(out, (list, tuple)) else [out])):
                continue
            yield new_args, new_kwargs, f"{name}={value!r}"
    del bound


def _as_call(sig, bound, names, last_positional):
    """The primitive's arguments: positional up to the last differentiated one, then axis
    parameters and whatever follows them as keywords (a third positional argument of a ufunc
    such as np.vecdot is ``out``, not ``axis``)."""
    args, kwargs, keywords = [], {}, False
    for i, p in enumerate(list(sig.parameters.values())[2:]):
        keywords = keywords or (p.name in names and i > last_positional) or p.kind is p.KEYWORD_ONLY
        if p.name not in bound.arguments:
            continue
        value = bound.arguments[p.name]
        if p.kind is p.VAR_POSITIONAL:
            args.extend(value)
        elif p.kind is p.VAR_KEYWORD:
            kwargs.update(value)
        elif keywords:
            kwargs[p.name] = value
        else:
            args.append(value)
    return args, kwargs


@pytest.mark.parametrize("spec", SPECS, ids=[s.label for s in SPECS])
@settings(max_examples=2, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_every_axis_value(spec, data, seed):
    rng = np.random.default_rng(seed)
    args, kwargs = spec.make(data.draw, rng)
    for new_args, new_kwargs, what in _variants(spec, args, kwargs):
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                check_first_order(spec, new_args, new_kwargs, rng)
            except AssertionError as e:
                raise AssertionError(f"{spec.label} with {what}: {e}") from None


def test_the_audit_reaches_the_axis_rules():
    labels = {s.label for s in SPECS}
    assert {"cross", "sum", "moveaxis", "swapaxes", "diagonal", "trace", "tensordot", "cumsum"} <= labels, labels
    assert len(SPECS) >= 50


@pytest.mark.parametrize("expression", [
    "np.median(x, axis=(0, 2))", "np.quantile(x, [0.3, 0.8], axis=(2, 0), keepdims=True)",
    "np.percentile(x, 40.0, axis=(-1, 1))", "np.nanmedian(x, axis=(0, 1))",
    "np.nanquantile(x, 0.3, axis=(1, 2), keepdims=True)",
])
def test_quantiles_over_several_axes_in_both_halves(expression):
    """A tuple of axes crashed inside the rule (``axis % ndim`` on a tuple)."""
    x = np.random.default_rng(2).permutation(24).reshape(2, 3, 4) / 7.0      # no ties
    halves.check(halves.function(expression, "x", [x]), [x], what=expression)
