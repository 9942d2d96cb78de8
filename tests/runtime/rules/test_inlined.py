"""A sample of the rules run the way the transpiler uses them: inlined into generated gradient
code (``transpiler.grad``, reverse mode) and tangent code (``transpiler.jvp``, forward mode),
each against central finite differences of the primitive.

Each case becomes a small function ``f(x, c1, ...) = sum(prim(..., x, ..., **kw) * w)`` with the
differentiated argument ``x`` and everything else passed in as constants.
"""

import itertools
import linecache
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import runtime
from tests.fd import assert_close, numeric_grad
from tests.runtime.rules.rule_specs import all_specs
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


def _ranged(x):
    return np.sum(np.r_[x, 0:3, x[:1] * 2.0, 1:2:3j, 4:10:3] * np.arange(12.0)) + np.sum(np.r_[x, 1:4] ** 2)


def test_r_with_slices_in_both_modes():
    """np.r_'s slices are ranges (np.arange; a complex step np.linspace's count): they were refused."""
    x = np.array([0.5, -1.5, 2.0])
    want = numeric_grad(_ranged, x)
    assert_close(grad(_ranged)(x), want)
    t = np.array([1.0, -0.5, 0.25])
    assert_close(jvp(_ranged, (x,), (t,))[1], np.sum(want * t))


def test_r_with_a_string_directive_is_refused():
    from transpiler import TranspileError, differentiate

    def directed(x):
        return np.sum(np.r_["0,2", x, x])
    with pytest.raises(TranspileError, match="string directives"):
        differentiate(directed)


def _c3(x):
    return np.sum(np.c_[x, 2.0 * x] * np.arange(24.0).reshape(2, 3, 4))


def test_c_of_three_dimensional_items_joins_the_last_axis_like_numpy():
    x = np.arange(12.0).reshape(2, 3, 2) / 10
    assert_close(grad(_c3)(x), numeric_grad(_c3, x))


# --- second order through decompositions, norms, einsum in the transpiler-----------------------------------------
# The transpiler differentiates the rules' VJP helpers; dtype_of and value_of are registered as
# non-differentiable, so these go through.  Rules that read one triangle are compared with finite
# differences of f at the matrix that triangle stands for (their first-order convention).  Each
# reference differentiates numpy itself twice (central differences of central differences), never
# a rule; eigenvectors and singular vectors enter through even powers or products that do not
# depend on their arbitrary signs.

SPD = np.array([[2.0, 0.3, 0.1], [0.3, 1.5, 0.2], [0.1, 0.2, 1.0]])
DIRECTION = np.array([[0.5, -0.2, 0.7], [-0.2, 0.3, 0.1], [0.7, 0.1, -0.4]])
WEIGHTS = np.arange(1.0, 10.0).reshape(3, 3)
# a 4 x 3 matrix with singular values far apart and no ties in its row or column sums
TALL = np.array([[2.0, 0.3, 0.1], [0.3, 1.5, 0.2], [0.1, 0.2, 1.0], [0.4, -0.3, 0.5]])
TALL_DIRECTION = np.array([[0.3, -0.5, 0.2], [0.1, 0.4, -0.3], [-0.6, 0.2, 0.1], [0.2, 0.7, -0.1]])
TALL_WEIGHTS = np.arange(1.0, 13.0).reshape(4, 3) / 6


def _chol(a):
    return np.sum(np.linalg.cholesky(a) ** 3 * WEIGHTS)


def _eigvalsh(a):
    return np.sum(np.linalg.eigvalsh(a) ** 3)


def _pinv(a):
    return np.sum(np.linalg.pinv(a) ** 3 * WEIGHTS)


def _eigh(a):
    w, v = np.linalg.eigh(a)
    return np.sum(v ** 4 * WEIGHTS) + np.sum(w ** 3)


def _eig(a):
    w, v = np.linalg.eig(a + a.T)
    return np.sum(np.real(v) ** 4 * WEIGHTS) + np.sum(np.real(w) ** 3)


def _svd(a):
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    return np.sum(u ** 4 * TALL_WEIGHTS) + np.sum(vh ** 2 * WEIGHTS) + np.sum(s ** 3)


def _svd_square(a):
    u, s, vh = np.linalg.svd(a)
    return np.sum(np.matmul(u * s ** 2, vh) * WEIGHTS)


def _qr(a):
    q, r = np.linalg.qr(a)
    return np.sum(q ** 3 * TALL_WEIGHTS) + np.sum(r ** 2 * WEIGHTS)


def _slogdet(a):
    sign, logdet = np.linalg.slogdet(a)
    return sign * logdet ** 2


def _norm_axis(a):
    return np.sum(np.linalg.norm(a, ord=3, axis=1) ** 2 * np.arange(1.0, 5.0))


def _norm_keepdims(a):
    return np.sum(np.linalg.norm(a, axis=0, keepdims=True) ** 3 * WEIGHTS[0])


def _norm_inf(a):
    return np.sum(np.linalg.norm(a, np.inf, axis=1) ** 2) + np.linalg.norm(a, -np.inf, axis=(0, 1)) ** 2


def _norm_1(a):
    return np.linalg.norm(a, 1) ** 3 + np.sum(np.linalg.norm(a, 1, axis=0) ** 2 * WEIGHTS[1])


def _norm_spectral(a):
    return np.linalg.norm(a, 2) ** 2 * np.linalg.norm(a, -2, axis=(1, 0), keepdims=True)[0, 0]


def _norm_nuc_fro(a):
    return np.linalg.norm(a, "nuc") ** 2 + np.linalg.norm(a, "fro", axis=(0, 1)) ** 3


def _norm_half(a):
    return np.sum(np.linalg.vector_norm(a, ord=0.5, axis=0) ** 2) + np.linalg.matrix_norm(a, ord="nuc") ** 2


def _einsum(a):
    return np.sum(np.einsum("ij,kj,k->i", a, a ** 2, a[:, 0]) * np.arange(1.0, 5.0))


def _einsum_summed_letters(a):
    return np.sum(np.einsum("ij,jk,kl->il", a, a.T, np.sin(a)) * np.einsum("ij->j", a) ** 2)


def _cumulative(a):
    return np.sum(np.nancumprod(a, axis=0) * TALL_WEIGHTS) + np.sum(np.cumulative_prod(a, axis=1) ** 2) \
        + np.sum(np.trapezoid(a ** 3, axis=0) * WEIGHTS[0])


def _symmetric(f):
    return lambda a: f((a + a.T) / 2)          # cholesky: TF's symmetric gradient


def _lower(f):
    return lambda a: f(np.tril(a) + np.tril(a, -1).T)   # eigvalsh reads the lower triangle


SECOND = {"cholesky": (_chol, _symmetric, SPD), "eigvalsh": (_eigvalsh, _lower, SPD), "pinv": (_pinv, None, SPD),
          "eigh vectors": (_eigh, _lower, SPD), "eig of a symmetric matrix": (_eig, None, SPD),
          "svd vectors": (_svd, None, TALL), "svd of a square matrix": (_svd_square, None, SPD + 0.2 * DIRECTION.T),
          "qr": (_qr, None, TALL), "slogdet": (_slogdet, None, SPD - 1.2 * np.eye(3)),
          "norm axis=1 ord=3": (_norm_axis, None, TALL), "norm keepdims": (_norm_keepdims, None, SPD),
          "norm inf and -inf": (_norm_inf, None, TALL), "norm ord=1": (_norm_1, None, TALL),
          "norm 2 and -2": (_norm_spectral, None, TALL), "norm nuc and fro": (_norm_nuc_fro, None, TALL),
          "vector_norm and matrix_norm": (_norm_half, None, TALL),
          "einsum": (_einsum, None, TALL), "einsum with summed letters": (_einsum_summed_letters, None, TALL),
          "nancumprod, cumulative_prod, trapezoid": (_cumulative, None, TALL)}


@pytest.mark.parametrize("name", SECOND)
def test_transpiled_second_order(name):
    """hvp (forward over reverse) and grad of grad (reverse over reverse) of rules whose VJPs are
    transformed again."""
    from transpiler.higher import hvp
    f, convention, a = SECOND[name]
    direction = DIRECTION if a.shape == (3, 3) else TALL_DIRECTION
    ref = f if convention is None else convention(f)
    first = grad(f)

    def along(a):
        return np.sum(first(a) * direction)
    eps = 1e-4
    want = (numeric_grad(ref, a + eps * direction) - numeric_grad(ref, a - eps * direction)) / (2 * eps)
    assert_close(hvp(f, a, direction), want, rtol=1e-4, atol=1e-4, what=f"{name} hvp")
    assert_close(grad(along)(a), want, rtol=1e-4, atol=1e-4, what=f"{name} grad of grad")


# --- third order through einsum (runtime/rules/linalg/einsum_higher.py) ---------------------------------

def _einsum_cubic(x):
    """A cubic polynomial of x through einsums with summed letters, a trace and a diagonal."""
    return np.einsum("ij,jk,ki->", x, x, x) + np.sum(np.einsum("ii,ij->j", x, x) * np.einsum("ij->i", x)) \
        + np.einsum("ij,jk,k->", x, np.sin(x), x[0])


def _mixed_difference(f, x, directions, h=0.25):
    """d^n f / d directions by the mixed central difference of step h (n = len(directions));
    exact up to rounding for a polynomial of degree n, and close for a smooth f."""
    n = len(directions)
    total = 0.0
    for signs in itertools.product((1.0, -1.0), repeat=n):
        total += np.prod(signs) * f(x + h * sum(s * d for s, d in zip(signs, directions)))
    return total / (2 * h) ** n


def test_einsum_third_order_in_both_halves():
    """grad(grad(grad(f))) in the transpiler (einsum_vjp_k's rules, then contraction's) and three
    nested tapes, against a mixed third difference of f itself.  The sin term makes f not exactly
    cubic, so the step is small: h = 1e-3 (an error O(h^2), about 1e-6 relative here)."""
    rng = np.random.default_rng(31)
    x0, c = rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    ones = np.ones((3, 3))
    want = _mixed_difference(_einsum_cubic, x0, [ones, ones, c], h=1e-3)
    got = np.sum(grad(grad(grad(_einsum_cubic)))(x0) * c)
    assert_close(got, want, rtol=1e-5, atol=1e-5, what="transpiler grad of grad of grad")
    x = runtime.constant(x0)
    with runtime.GradientTape() as t3:
        t3.watch(x)
        with runtime.GradientTape() as t2:
            t2.watch(x)
            with runtime.GradientTape() as t1:
                t1.watch(x)
                y = _einsum_cubic(x)
            g1 = runtime.reduce_sum(t1.gradient(y, x))
        g2 = runtime.reduce_sum(t2.gradient(g1, x))
    assert_close(np.sum(t3.gradient(g2, x).numpy() * c), want, rtol=1e-5, atol=1e-5, what="three nested tapes")
