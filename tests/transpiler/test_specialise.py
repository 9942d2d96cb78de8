"""Variants per argument signature: Python floats get ``math`` functions (with a numpy fallback
where ``math`` raises), adjoints reuse the primal's values instead of recomputing them, loops save
only what their adjoint reads, and ``f.show(*args)`` prints the variant those arguments run.

Every gradient is checked against central differences (tests/fd.py).
"""

import io
import math
import warnings
from contextlib import redirect_stdout

import numpy as np
import pytest

from tests.fd import assert_close, numeric_grad
from tests.transpiler.checks import check
from transpiler import differentiate, grad


def loop(x, n):
    for i in range(n):
        x = x + 0.01 * (np.sin(x) * np.cos(x) - 0.1 * x)
    return x


def _fd(fn, x, *rest):
    return numeric_grad(lambda v: fn(float(v), *rest), x)


def _variant(d, *args):
    return d._t.get(d._wrt, False, floats=d._t.floats(args, {}))


def _code(source):
    """The generated lines without ``# grad of: <user's line>`` comments."""
    return "\n".join(ln for ln in source.splitlines() if not ln.strip().startswith("#"))


def test_numpy_on_floats_runs_math_and_matches_finite_differences():
    d = differentiate(loop)
    special = _code(_variant(d, 0.3, 50).source)
    assert "from math import cos, sin" in special and " sin(x" in special and "np." not in special, special
    assert "np.sin(" in d.source                                 # show() prints the general code
    for x in (0.3, -1.2, 2.5):
        assert_close(d.grad(x, 50), _fd(loop, x, 50), 1e-6, 1e-8, what=f"x={x}")
    assert isinstance(d.grad(0.3, 50), float)


def test_loop_saves_only_what_the_adjoint_reads():
    special = _variant(differentiate(loop), 0.3, 50).source
    pushes = [ln.strip() for ln in special.splitlines() if ln.strip().startswith("push(")]
    assert len(pushes) == 2, special                 # sin(x) and cos(x); not x, not the products
    general = _code(differentiate(loop).source)
    assert general.count("np.cos(") == 1 and general.count("np.sin(") == 1, general   # reused


def test_show_with_arguments_prints_their_variant():
    d = differentiate(loop)
    out = io.StringIO()
    with redirect_stdout(out):
        d.show(0.3, 50)
    assert "from math import" in out.getvalue() and " sin(" in out.getvalue()
    out = io.StringIO()
    with redirect_stdout(out):
        d.show()
    assert "np.sin(" in _code(out.getvalue()) and "math" not in _code(out.getvalue())


def log_times(x):
    return np.log(x) * x + np.sqrt(x)


def test_math_errors_fall_back_to_numpy():
    d = differentiate(log_times)
    assert "from math import log, sqrt" in _code(_variant(d, 0.5).source)
    assert_close(d.grad(0.5), _fd(log_times, 0.5), 1e-6, 1e-8)
    general = d._t.get(0, False).function
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = general(np.float64(0.0))                  # numpy: inf/nan with a warning
        got = d.grad(0.0)                                # math.log(0.0) raises: falls back
        got_neg = d.grad(-1.0)
        want_neg = general(np.float64(-1.0))
    np.testing.assert_equal(got, want)
    np.testing.assert_equal(got_neg, want_neg)


def fractional_power(x):
    y = np.sin(x)
    return y ** 0.5 + y


def test_fractional_power_keeps_numpy():
    d = differentiate(fractional_power)
    assert "math" not in _code(_variant(d, 0.4).source)   # (-0.3) ** 0.5 would be complex with math
    assert_close(d.grad(0.4), _fd(fractional_power, 0.4), 1e-6, 1e-8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(d.grad(-0.4))               # numpy's nan, as the primal gives


def sin_cos_arrays(x):
    a = np.sin(x)
    b = np.cos(x)
    return np.sum(a * b + np.exp(x) * a)


def test_reuse_with_arrays():
    src = _code(differentiate(sin_cos_arrays).source)
    assert src.count("np.cos(") == 1 and src.count("np.sin(") == 1 and src.count("np.exp(") == 1, src
    check(sin_cos_arrays, np.array([0.2, -0.7, 1.3]))


def carried(x):
    s = 0.0
    for i in range(4):
        c = np.cos(x)
        x = np.sin(x) * 0.9 + c * 0.1      # the sine's rule reads cos(x) of this same x
        s = s + np.cos(x)                  # cos of the new x: not the c above
    return s


def test_reuse_respects_rebinding_in_loops():
    d = differentiate(carried)
    for x in (0.3, 1.1):
        assert_close(d.grad(x), _fd(carried, x), 1e-6, 1e-8, what=f"floats x={x}")
    check(carried, np.array([0.3, -0.8]))


def test_negation_folding_is_exact():
    def f(x, a):
        y = x
        for i in range(30):
            y = y - 0.3 * np.tanh(y) * a
        return y
    d = grad(f, wrt=(0, 1))
    gx, ga = d(0.4, 0.7)
    assert_close(gx, _fd(f, 0.4, 0.7), 1e-6, 1e-8)
    assert_close(ga, numeric_grad(lambda a: f(0.4, float(a)), 0.7), 1e-6, 1e-8)


@pytest.mark.parametrize("x", [0.3, np.float64(0.3)])
def test_numpy_float64_scalars_take_the_float_variant(x):
    d = differentiate(loop)
    assert "from math import" in _variant(d, x, 20).source
    assert_close(d.grad(x, 20), _fd(loop, 0.3, 20), 1e-6, 1e-8)


def test_math_functions_of_the_user_stay():
    def f(x):
        return math.sin(x) * np.cos(x)
    d = differentiate(f)
    assert_close(d.grad(0.8), _fd(f, 0.8), 1e-6, 1e-8)


# --- arrays: variants specialised on each argument's ndim (backend/shapes.py) ---------------

def mlp(W1, b1, W2, X, Y):
    h = np.tanh(X @ W1 + b1)
    logits = h @ W2
    m = np.max(logits, axis=1, keepdims=True)
    z = logits - m
    logp = z - np.log(np.sum(np.exp(z), axis=1, keepdims=True))
    return -np.sum(Y * logp) / X.shape[0]


def _mlp_args(dtype=np.float64):
    rng = np.random.default_rng(3)
    args = (rng.normal(size=(4, 5)), rng.normal(size=5), rng.normal(size=(5, 3)), rng.normal(size=(6, 4)),
            np.eye(3)[rng.integers(0, 3, size=6)])
    return tuple(a.astype(dtype) for a in args)


def _fd_args(f, args, i):
    return numeric_grad(lambda v: f(*args[:i], v, *args[i + 1:]), args[i])


def test_array_variant_has_exact_shape_code_and_matches_finite_differences():
    d = differentiate(mlp, wrt=(0, 1, 2))
    args = _mlp_args()
    special, general = _code(_variant(d, *args).source), _code(d.source)
    assert "matmul_vjp" in general and "matmul_vjp" not in special, special
    assert "@ W2.T" in special and "X.T @" in special and "h.T @" in special, special
    assert special.count("unbroadcast(") < general.count("unbroadcast("), special
    assert "expand_reduced(m, logits" not in special, special      # `logits == m` broadcasts the same
    assert "-np.sum(bz, axis=1, keepdims=True)" in special, special   # the sum unbroadcast does, exactly
    assert "expand_reduced(bt5" not in special, special           # read once, by `bt5 * t4`: broadcasts
    for i, g in enumerate(d.grad(*args)):
        assert_close(g, _fd_args(mlp, args, i), 1e-5, 1e-7, what=f"d/d arg {i}")
    assert d._t.cache.get(((0, 1, 2), False, d._t.floats(args, {}))) is not None   # the call ran it


def add_sum(a, b):
    return np.sum(np.tanh(a + b) * a)


@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 1), (3, 4)), ((3, 4), (1, 4)), ((1, 1), (3, 4)),
                                    ((4,), (3, 4)), ((3, 4), (4,))])
def test_broadcasting_arguments_of_one_ndim_stay_exact(shapes):
    """Two 2-d arrays, broadcasting or not, after the variant of two full ones ran: an axis of
    length 1 is part of the key (test_length_one_axes.py), so ``unbroadcast`` stays where it
    may sum."""
    rng = np.random.default_rng(len(shapes[0]) * 10 + shapes[0][-1])
    d = differentiate(add_sum, wrt=(0, 1))
    d.grad(np.ones((3, 4)), np.ones((3, 4)))          # the same ndim's variant, generated first
    a, b = rng.normal(size=shapes[0]), rng.normal(size=shapes[1])
    ga, gb = d.grad(a, b)
    assert_close(ga, _fd_args(add_sum, (a, b), 0), 1e-6, 1e-8, what=f"da {shapes}")
    assert_close(gb, _fd_args(add_sum, (a, b), 1), 1e-6, 1e-8, what=f"db {shapes}")


def centered(x, w):
    m = np.mean(x, axis=0)
    return np.sum(np.tanh(x - m) ** 2 * w)


@pytest.mark.parametrize("shape", [(4, 3), (1, 3), (4, 1)])
def test_leading_axes_are_summed_exactly(shape):
    d = differentiate(centered)
    x, w = np.random.default_rng(2).normal(size=shape), np.linspace(0.5, 1.5, shape[1])
    special = _code(_variant(d, x, w).source)
    assert "= -np.sum(bt1, axis=0)" in special and "unbroadcast(-bt1, m)" in _code(d.source), special
    assert_close(d.grad(x, w), numeric_grad(lambda v: centered(v, w), x), 1e-6, 1e-8, what=str(shape))


def test_same_dtype_other_ndim_is_another_variant():
    d = differentiate(add_sum, wrt=(0, 1))
    x1, x2 = np.array([0.3, -0.2]), np.array([[0.3, -0.2], [0.5, 0.1]])
    for a in (x1, x2, x1):
        ga, _ = d.grad(a, a + 1.0)
        assert_close(ga, _fd_args(add_sum, (a, a + 1.0), 0), 1e-6, 1e-8, what=f"ndim {a.ndim}")


def complex_scale(x):
    y = x * (1.0 + 2.0j)
    return np.sum(np.real(y * np.conj(y)) + np.real(y))


def test_complex_values_onto_real_parameters_keep_their_real_part():
    """``unbroadcast`` also takes the real part of a complex cotangent of a real value: it
    stays wherever a value may be complex."""
    d = differentiate(complex_scale)
    x = np.array([[0.3, -0.4], [1.1, 0.2]])
    g = d.grad(x)
    assert g.dtype == np.float64
    assert_close(g, numeric_grad(complex_scale, x), 1e-6, 1e-8)


def _shown(d, *args):
    out = io.StringIO()
    with redirect_stdout(out):
        d.show(*args)
    return out.getvalue()


def test_show_prints_the_general_variant_and_with_arguments_the_specialised_one():
    d = differentiate(mlp, wrt=(0, 1, 2))
    assert "matmul_vjp" in _shown(d)
    assert "matmul_vjp" not in _shown(d, *_mlp_args()) and "\n    del " not in _shown(d, *_mlp_args())
    d = differentiate(loop)
    assert "\n    del " not in _shown(d) and "\n    del " in _shown(d, 0.3, 10)   # floats: released


def branchy(x, c):
    t = np.sin(x)
    if c > 0:
        u = t * 2.0
        t = t + u
    for i in range(2):
        v = np.cos(t)
        t = t * v
    return np.sum(t * x)


@pytest.mark.parametrize("c", [1.0, -1.0])
def test_released_locals_and_values_bound_in_branches_and_loops(c):
    """Dead locals are released (``del``) only where they are surely bound: ``u`` (bound in a
    branch) and ``v`` (in a loop) are not."""
    d = differentiate(branchy)
    for x in (0.3, -0.7, 1.2):
        assert_close(d.grad(x, c), _fd(branchy, x, c), 1e-6, 1e-8, what=f"x={x} c={c}")
    special = _variant(d, 0.3, c).source
    released = [n.strip(",") for ln in special.splitlines() if ln.strip().startswith("del ") for n in ln.split()[1:]]
    assert released and "u" not in released and "v" not in released, special


def complex_of_real(x):
    v = x * 2.0
    z = v * (1.0 + 2.0j)
    return np.sum(np.abs(z) ** 2 + np.abs(z + 1.0))


@pytest.mark.parametrize("x", [0.3, np.array(0.3), np.array([0.3, -1.1])])
def test_complex_cotangent_of_a_real_value_keeps_its_real_part(x):
    """``unbroadcast`` also takes the real part of a complex cotangent of a real value, so it
    stays where the cotangent may be complex (a Python float's gradient is not cast)."""
    g = differentiate(complex_of_real).grad(x)
    assert np.isrealobj(g)
    assert_close(g, numeric_grad(complex_of_real, x), 1e-6, 1e-8)


def test_float32_array_variant_keeps_float32():
    d = differentiate(mlp, wrt=(0, 1, 2))
    args32 = _mlp_args(np.float32)
    args64 = _mlp_args()
    for g32, g64 in zip(d.grad(*args32), d.grad(*args64)):
        assert g32.dtype == np.float32
        assert_close(g32, g64, 1e-3, 1e-5)


@differentiate(wrt=(0, 1, 2))
def tape_layer(x, w, b):
    h = np.tanh(x @ w + b)
    return np.sum(h * h)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_interop_op_runs_the_variant_of_its_arguments(dtype):
    import runtime as tf
    from transpiler.bridge import tape_call
    rng = np.random.default_rng(5)
    x, w, b = rng.normal(size=(2, 3)), rng.normal(size=(3, 4)), rng.normal(size=4)
    xt, wt, bt = tf.constant(x.astype(dtype)), tf.Variable(w.astype(dtype)), tf.Variable(b.astype(dtype))
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tape_layer(xt, wt, bt)
    grads = tape.gradient(y, [xt, wt, bt])
    tol = (1e-6, 1e-8) if dtype == np.float64 else (1e-3, 1e-4)
    for i, g in enumerate(grads):
        assert g.numpy().dtype == dtype
        assert_close(g.numpy(), _fd_args(tape_layer._fn, (x, w, b), i), *tol, what=f"d/d arg {i}")
    entries = [e for k, e in tape_call._CACHE[tape_layer._t].items() if "w:2f" in k[-1]]
    assert entries and entries[0].pair is not None
    backward = _code(entries[0].pair.source)
    assert "@ w.T" in backward and "x.T @" in backward and "matmul_vjp" not in backward, backward


def pair_sum(p, x):
    a, b = p
    return np.sum(np.sin(a * x) + b * b * x)


def table_sum(p, x):
    return np.sum(np.tanh(p["W"] * x) + p["b"] * x)


def _fd_leaves(fn, container, x):
    """Central differences of ``fn`` with respect to each leaf of list/tuple/dict ``container``."""
    keys = list(container) if isinstance(container, dict) else range(len(container))
    out = []
    for k in keys:
        def at(v, k=k):
            c = dict(container) if isinstance(container, dict) else list(container)
            c[k] = v if isinstance(container[k], np.ndarray) else float(v)
            return fn(c if not isinstance(container, tuple) else tuple(c), x)
        out.append(numeric_grad(at, container[k]))
    return out


@pytest.mark.parametrize("p", [[0.5, 2.0], (0.5, 2.0), [np.array([0.5, 1.0]), np.array([2.0, -1.0])],
                               [np.float32([0.5, 1.0]), np.array([2.0, -1.0])], [np.array([[0.5]]), 2.0]])
def test_container_structure_is_part_of_the_variant_key_and_gradients_stay_right(p):
    """Lists, tuples and dicts are keyed by their structure (``signature.structure``), in the
    variant key and in the fast path's signature: each call, first or later, gets its
    argument's structure and each leaf's dtype back, and matches central differences."""
    g = grad(pair_sum)
    for _ in range(3):                             # the first call checks, the later ones run the fast path
        got = g(p, 3.0)
        assert type(got) is type(p) and len(got) == 2
        for leaf, gl, want in zip(p, got, _fd_leaves(pair_sum, p, 3.0)):
            assert np.shape(gl) == np.shape(leaf)
            if isinstance(leaf, np.ndarray):
                assert gl.dtype == leaf.dtype
            tol = (1e-3, 1e-4) if getattr(leaf, "dtype", None) == np.float32 else (1e-6, 1e-8)
            assert_close(gl, want, *tol)


def test_list_of_floats_and_list_of_arrays_are_different_variants():
    d = differentiate(pair_sum)
    floats, arrays = ([0.5, 2.0], 3.0), ([np.array([0.5, 1.0]), np.array([2.0, -1.0])], 3.0)
    key_f, key_a = d._t.floats(floats, {}), d._t.floats(arrays, {})
    assert "p=[f...]" in key_f and "p=[1f...]" in key_a and key_f != key_a
    assert d._t.floats(([0.5, 2.0, 4.0], 3.0), {}) == key_f        # any length: one variant
    assert d._t.floats(((0.5, 2.0), 3.0), {}) != key_f               # a tuple is another structure
    assert "p=[2f,f]" in d._t.floats(([np.ones((1, 1)), 2.0], 3.0), {})
    d.grad(*floats), d.grad(*arrays)
    assert d._t.get(0, False, floats=key_f) is not d._t.get(0, False, floats=key_a)
    assert ((0, False, key_f) in d._t.cache) and ((0, False, key_a) in d._t.cache)


def test_dict_structure_keys_and_gradients():
    d = differentiate(table_sum)
    p = {"W": np.array([[0.3, -0.2], [0.1, 0.4]]), "b": 0.5}
    assert "p={'W':2f,'b':f}" in d._t.floats((p, 2.0), {})
    for _ in range(2):
        got = d.grad(p, 2.0)
        assert list(got) == ["W", "b"]
        want = _fd_leaves(table_sum, p, 2.0)
        assert_close(got["W"], want[0], 1e-6, 1e-8) and assert_close(got["b"], want[1], 1e-6, 1e-8)


def test_same_structure_with_integer_leaves_is_checked_again():
    """The fast path is keyed by each leaf's type, so integers in a list seen before with floats
    still get the clear error of the full checks."""
    g = grad(pair_sum)
    g([0.5, 2.0], 3.0)
    g([0.5, 2.0], 3.0)
    with pytest.raises(TypeError, match="integer"):
        g([1, 2], 3.0)


def list_total(p, x):
    s = 0.0
    for v in p:
        s = s + np.sin(v * x)
    return s


def test_lists_of_any_length_share_one_key_and_get_their_own_length_back():
    g = grad(list_total)
    for p in ([0.5, 2.0], [0.5, 2.0, -1.0], [0.3], [0.5, 2.0]):
        got = g(p, 3.0)
        assert type(got) is list and len(got) == len(p)
        for gl, want in zip(got, _fd_leaves(list_total, p, 3.0)):
            assert_close(gl, want, 1e-6, 1e-8)
    assert len(g._checked) == 1, list(g._checked)
