"""Real arguments get real gradients: every primitive of two or more arrays, with one argument real
and another complex, in both halves.

``np.kron(a, b)`` with real ``a`` and complex ``b`` gave ``a`` a complex gradient (its real part
right).  Inside a program the imaginary part then did harm: for ``u = np.real(a * P)`` followed by
``np.kron(u, B)``, np.real's rule passed the complex cotangent of ``u`` on and the transpiler's
gradient of ``a`` was wrong (4.45 came out 3.45).

For each spec whose primitive takes several float arrays, each differentiated argument ``k`` stays
real and each other array argument ``j`` becomes complex:

* the VJP rule for ``k``, given a complex cotangent, returns a real array equal to the finite-
  difference gradient of L = Re(sum(g * f)) (the cotangent convention of ``complexes``);
* both halves differentiate ``sum(w * Re f(..., Re(x * P), ...))`` (np.multiply: on the tape ``*`` keeps TF's dtype rules) (``P`` complex) with respect to x:
  a complex cotangent left on the real ``Re(x * P)`` would turn into a wrong real gradient.
"""

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from runtime.rules import lookup
from tests import halves
from tests.fd import assert_close, numeric_grad
from tests.runtime.rules.rule_specs import all_specs


def _float_arrays(args):
    return [i for i, a in enumerate(args) if isinstance(a, np.ndarray) and a.dtype.kind == "f" and a.size]


# TF's softmax_cross_entropy gradient is softmax - labels by convention (labels summing to one):
# real labels only, as in TF.
SPECS = [s for s in all_specs() if not s.scalar and s.label != "softmax_cross_entropy"]


def _cases(spec, args, kwargs, rng):
    """(k, j, args with args[j] complex) wherever numpy computes a finite complex result."""
    arrays = _float_arrays(args)
    for k in spec.argnums:
        if k not in arrays:
            continue
        for j in arrays:
            if j == k:
                continue
            new = list(args)
            new[j] = args[j] + 1j * rng.uniform(0.2, 1.0, np.shape(args[j]))
            try:
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    ans = spec.fn(*new, **kwargs)
            except Exception:
                continue            # numpy has no complex form of it (arctan2, fmax, ...)
            if isinstance(ans, (tuple, list)) or not np.iscomplexobj(ans) or not np.all(np.isfinite(ans)):
                continue
            yield k, j, new, ans


def _mixed(spec):
    """Specs with a real/complex case (drawn once, deterministically)."""
    out = []
    for s in SPECS:
        found = []

        @settings(max_examples=1, derandomize=True, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(data=st.data())
        def probe(data):
            args, kwargs = s.make(data.draw, np.random.default_rng(0))
            found.extend(_cases(s, args, kwargs, np.random.default_rng(1)))
        try:
            probe()
        except Exception:
            continue
        if found:
            out.append(s)
    return out


MIXED = _mixed(SPECS)


def test_the_audit_reaches_the_products():
    labels = {s.label for s in MIXED}
    assert {"kron", "dot", "tensordot", "outer", "inner", "convolve", "multiply", "matmul"} <= labels, labels


@pytest.mark.parametrize("spec", MIXED, ids=[s.label for s in MIXED])
@settings(max_examples=2, derandomize=True, deadline=None, phases=[Phase.generate],
          suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_vjp_rule_of_a_real_argument_is_real(spec, data, seed):
    rng = np.random.default_rng(seed)
    args, kwargs = spec.make(data.draw, rng)
    rule = lookup(spec.fn)
    for k, j, new, ans in _cases(spec, args, kwargs, rng):
        g = rng.standard_normal(np.shape(ans)) + 1j * rng.standard_normal(np.shape(ans))
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", DeprecationWarning)
            try:
                got = rule.vjp(k)(g, ans, *new, **kwargs)
            except NotImplementedError:
                continue            # the rule refuses complex input (np.linalg.vecdot): never silent

            def loss(x):
                at = list(new)
                at[k] = x
                return np.real(np.sum(g * spec.fn(*at, **kwargs)))
            want = numeric_grad(loss, new[k])
        what = f"{spec.label}: argument {k} real, argument {j} complex, kwargs={kwargs}"
        assert not np.iscomplexobj(got), f"{what}: a complex gradient"
        assert_close(got, want, what=what)


def _call_source(spec, args, kwargs, k):
    names = [f"c{i}" for i in range(len(args))]
    names[k] = "np.real(np.multiply(x, P))"
    keywords = "".join(f", {key}=k_{key}" for key in kwargs)
    return f"np.real(prim({', '.join(names)}{keywords}))"


# What one half refuses here (never a silent number): the case runs in the other half only.
TRANSPILER_ONLY = {
    "operator.mul": "tape: `*` follows TF's dtype rules (a complex constant times a float64 tensor is refused)",
    "full_like": "tape: numpy fills its own array with np.copyto, refused for a recorded fill value",
    "linalg.vecdot": "the rule refuses complex input",
    "trapezoid(dx)": "tape: numpy's trapezoid calls .sum() on dx times y, a tensor method only with "
                     "experimental_enable_numpy_behavior()",
}


@pytest.mark.parametrize("spec", MIXED, ids=[s.label for s in MIXED])
@settings(max_examples=1, derandomize=True, deadline=None, phases=[Phase.generate],
          suppress_health_check=list(HealthCheck))
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_both_halves(spec, data, seed):
    rng = np.random.default_rng(seed)
    args, kwargs = spec.make(data.draw, rng)
    for k, j, new, ans in _cases(spec, args, kwargs, rng):
        P = np.exp(1j * rng.uniform(0.3, 1.2, np.shape(args[k])))     # u = Re(x * P) is args[k]
        x = args[k] / np.real(P)
        env = {"prim": spec.fn, "P": P, **{f"c{i}": a for i, a in enumerate(new)},
               **{f"k_{key}": v for key, v in kwargs.items()}}
        f = halves.function(_call_source(spec, new, kwargs, k), "x", [x], env=env)
        what = f"{spec.label}: argument {k} real, argument {j} complex"
        if spec.label == "linalg.vecdot":
            try:
                halves.check(f, [x], second=False, what=what)
            except NotImplementedError as e:
                assert "complex" in str(e)
            continue
        halves.check(f, [x], second=False, what=what,
                     halves=("transpiler",) if spec.label in TRANSPILER_ONLY else ("transpiler", "tape"))
