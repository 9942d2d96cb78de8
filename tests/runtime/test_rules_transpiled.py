"""A sample of the rules run the way the transpiler uses them: inlined into generated gradient
code (``transpiler.grad``, reverse mode) and tangent code (``transpiler.jvp``, forward mode),
each against central finite differences of the primitive.

Each case becomes a small function ``f(x, c1, ...) = sum(prim(..., x, ..., **kw) * w)`` with the
differentiated argument ``x`` and everything else passed in as constants.
"""

import linecache
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fd import assert_close, numeric_grad
from tests.runtime.rule_specs import all_specs
from transpiler import grad, jvp

SAMPLE = [
    "sin", "arctan2", "logaddexp2", "fmax", "copysign", "sinc", "nan_to_num", "clip", "absolute", "angle",
    "nansum", "nanstd", "std", "median", "quantile", "average", "ptp", "cumprod", "diff", "trapezoid",
    "tile", "repeat", "roll", "rot90", "pad", "diag", "tril", "kron", "tensordot", "inner", "cross", "dot",
    "sort", "partition", "take_along_axis", "linspace", "append", "polyval", "convolve", "interp", "vander",
    "i0", "gradient", "cov", "delete", "resize", "logspace", "float_power", "heaviside", "unique",
]
SPECS = {s.label: s for s in all_specs()}
CASES = [SPECS[name] for name in SAMPLE]
SCALARS = [s for s in all_specs() if s.scalar and s.label in ("gamma/1", "lgamma/1", "erf/1", "remainder/2",
                                                               "hypot/4", "max/3", "copysign/2")]


def build(prim, args, kwargs, k):
    """f(x, c...) = np.sum(prim(args with x at k, **kwargs) * w), from generated source."""
    names = [f"c{i}" for i in range(len(args))]
    names[k] = "x"
    kw = ", ".join(f"{key}=k_{key}" for key in kwargs)
    call = f"prim({', '.join(names)}{', ' if kw and names else ''}{kw})"
    params = ", ".join(["x"] + [n for n in names if n != "x"] + [f"k_{key}" for key in kwargs] + ["w"])
    src = f"def f({params}):\n    return np.sum({call} * w)\n"
    filename = f"<rules sample {getattr(prim, '__name__', 'prim')} {len(linecache.cache)}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    namespace = {"np": np, "prim": prim}
    exec(compile(src, filename, "exec"), namespace)
    rest = [a for i, a in enumerate(args) if i != k] + list(kwargs.values())
    return namespace["f"], rest


def check(spec, args, kwargs, rng):
    for k in spec.argnums:
        if isinstance(args[k], (list, tuple)):
            continue
        x0 = np.asarray(args[k], dtype=np.float64)
        w = rng.standard_normal(np.shape(spec.fn(*args, **kwargs)))
        f, rest = build(spec.fn, args, kwargs, k)
        phi = lambda x: f(x, *rest, w)  # noqa: E731
        want = numeric_grad(phi, x0)
        got = grad(f)(x0, *rest, w)
        assert_close(got, want, what=f"transpiled VJP {spec.label} arg {k} kwargs={kwargs}")
        t = rng.standard_normal(x0.shape)
        _, got_t = jvp(f, (x0, *rest, w), (t,), wrt=(0,))
        want_t = (phi(x0 + 1e-6 * t) - phi(x0 - 1e-6 * t)) / 2e-6
        assert_close(got_t, want_t, what=f"transpiled JVP {spec.label} arg {k} kwargs={kwargs}")


@pytest.mark.parametrize("spec", CASES, ids=[s.label for s in CASES])
@settings(max_examples=2, deadline=None, derandomize=True)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_inlined_rules(spec, data, seed):
    rng = np.random.default_rng(seed)
    args, kwargs = spec.make(data.draw, rng)
    with np.errstate(all="ignore"):
        check(spec, args, kwargs, rng)


@pytest.mark.parametrize("spec", SCALARS, ids=[s.label for s in SCALARS])
@settings(max_examples=2, deadline=None, derandomize=True)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_inlined_scalar_rules(spec, data, seed):
    args, _ = spec.make(data.draw, np.random.default_rng(seed))
    for k in spec.argnums:
        names = [f"c{i}" for i in range(len(args))]
        names[k] = "x"
        params = ", ".join(["x"] + [n for n in names if n != "x"])
        src = f"def f({params}):\n    return prim({', '.join(names)}) * 3.0\n"
        filename = f"<scalar rule sample {spec.label} {k} {len(linecache.cache)}>"
        linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
        namespace = {"prim": spec.fn, "math": math}
        exec(compile(src, filename, "exec"), namespace)
        f = namespace["f"]
        rest = [a for i, a in enumerate(args) if i != k]
        x0 = args[k]
        want = (f(x0 + 1e-6, *rest) - f(x0 - 1e-6, *rest)) / 2e-6
        assert_close(grad(f)(x0, *rest), want, what=f"transpiled {spec.label} arg {k}")
        assert_close(jvp(f, (x0, *rest), (1.0,), wrt=(0,))[1], want, what=f"transpiled JVP {spec.label} arg {k}")


# --- issue 12's transpiler cases ---------------------------------------------------------------------

def _lin(a, b):
    return np.sum(np.linspace(a, b, 5) ** 2 * np.arange(1.0, 6.0).reshape(5, 1, 1))


def _r(x):
    return np.sum(np.r_[x, 2.0 * x, 3.0] ** 2)


def _c(x):
    return np.sum(np.c_[x, x * x] * np.array([1.0, -2.0]))


def _einsum_sublist(x, y):
    return np.sum(np.einsum(x, [0, 1], y, [1, 2], [2, 0]) ** 2)


def _abs_complex(x, y):
    return np.sum(np.abs(x + 1j * y) * np.array([1.0, 2.0]))


def _fd(f, args, k):
    return numeric_grad(lambda v: f(*[v if i == k else a for i, a in enumerate(args)]), args[k])


@pytest.mark.parametrize("f,args", [
    (_lin, (np.array([0.5, 1.0]).reshape(2, 1), np.array([2.0, 3.0]))),
    (_r, (np.array([0.5, -1.5]),)),
    (_c, (np.array([0.5, -1.5, 2.0]),)),
    (_einsum_sublist, (np.arange(6.0).reshape(2, 3) / 5, np.arange(12.0).reshape(3, 4) / 7)),
    (_abs_complex, (np.array([3.0, 1.0]), np.array([4.0, -2.0]))),
], ids=["linspace endpoints", "np.r_", "np.c_", "einsum sublists", "abs of x + 1j*y"])
def test_issue_cases_get_the_finite_difference_gradients(f, args):
    wrt = tuple(range(len(args)))
    got = grad(f, wrt=wrt)(*args)
    got = got if isinstance(got, tuple) else (got,)
    for k, g in enumerate(got):
        assert np.isrealobj(g), "real parameters must get real gradients"
        assert_close(g, _fd(f, args, k), what=f"{f.__name__} d/d arg {k}")
        t = np.ones_like(args[k])
        tangents = tuple(t if i == k else np.zeros_like(a) for i, a in enumerate(args))
        _, d = jvp(f, args, tangents)
        assert_close(d, np.sum(_fd(f, args, k) * t), what=f"{f.__name__} JVP arg {k}")


def test_no_rule_error_names_the_real_function_and_file():
    from transpiler import TranspileError, differentiate

    def uses_corrcoef(x):
        return np.sum(np.corrcoef(x))
    with pytest.raises(TranspileError) as err:
        differentiate(uses_corrcoef)
    text = str(err.value)
    assert "np.corrcoef has no derivative rule" in text and "runtime/rules/statistics.py" in text
    assert "numpy_extra" not in text


def test_r_with_slices_is_refused():
    from transpiler import TranspileError, differentiate

    def ranged(x):
        return np.sum(np.r_[x, 0:3])
    with pytest.raises(TranspileError, match="slices or string directives"):
        differentiate(ranged)


def _c3(x):
    return np.sum(np.c_[x, 2.0 * x] * np.arange(24.0).reshape(2, 3, 4))


def test_c_of_three_dimensional_items_joins_the_last_axis_like_numpy():
    x = np.arange(12.0).reshape(2, 3, 2) / 10
    assert_close(grad(_c3)(x), numeric_grad(_c3, x))


# --- second order through decompositions in the transpiler ---------------------------------------------
# The transpiler differentiates the rules' VJP helpers; dtype_of and value_of are registered as
# non-differentiable, so these go through.  Rules that read one triangle are compared with finite
# differences of f at the matrix that triangle stands for (their first-order convention).

SPD = np.array([[2.0, 0.3, 0.1], [0.3, 1.5, 0.2], [0.1, 0.2, 1.0]])
DIRECTION = np.array([[0.5, -0.2, 0.7], [-0.2, 0.3, 0.1], [0.7, 0.1, -0.4]])
WEIGHTS = np.arange(1.0, 10.0).reshape(3, 3)


def _chol(a):
    return np.sum(np.linalg.cholesky(a) ** 3 * WEIGHTS)


def _eigvalsh(a):
    return np.sum(np.linalg.eigvalsh(a) ** 3)


def _pinv(a):
    return np.sum(np.linalg.pinv(a) ** 3 * WEIGHTS)


def _symmetric(f):
    return lambda a: f((a + a.T) / 2)          # cholesky: TF's symmetric gradient


def _lower(f):
    return lambda a: f(np.tril(a) + np.tril(a, -1).T)   # eigvalsh reads the lower triangle


SECOND = {"cholesky": (_chol, _symmetric), "eigvalsh": (_eigvalsh, _lower), "pinv": (_pinv, None)}


@pytest.mark.parametrize("name", SECOND)
def test_transpiled_second_order_through_decompositions(name):
    from transpiler.higher import hvp
    f, convention = SECOND[name]
    ref = f if convention is None else convention(f)
    first = grad(f)

    def along(a):
        return np.sum(first(a) * DIRECTION)
    eps = 1e-4
    want = (numeric_grad(ref, SPD + eps * DIRECTION) - numeric_grad(ref, SPD - eps * DIRECTION)) / (2 * eps)
    assert_close(hvp(f, SPD, DIRECTION), want, rtol=1e-4, atol=1e-4, what=f"{name} hvp")
    assert_close(grad(along)(SPD), want, rtol=1e-4, atol=1e-4, what=f"{name} grad of grad")

