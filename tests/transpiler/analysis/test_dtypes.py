"""Every gradient has its parameter's dtype: float32, float16 and complex parameters over the whole
corpus (tests/transpiler/corpus.py), in reverse and forward mode, at second order and through the
interop op.

Values are checked against central differences of the user's function in float64 (tests/fd.py),
with tolerances for the narrower dtype; a case whose primal does not run in that dtype (a
comparison on complex numbers, an overflow in float16) is left out for that dtype only, when the
tests are collected (a guard test checks how many remain).
"""

import warnings

import numpy as np
import pytest

import runtime as tf
from tests.fd import EPS
from tests.transpiler import corpus as corpora
from transpiler import differentiate, grad, hvp, jvp

CASES = corpora.cases()
DTYPES = {"float32": (np.float32, 2e-2), "float16": (np.float16, 2.5e-1), "complex128": (np.complex128, 1e-5)}


def _cast(args, idx, dtype):
    """``args`` with the float64 arrays among the wrt arguments in ``dtype`` (None: there is none)."""
    new = list(args)
    hit = False
    for i in idx:
        if isinstance(args[i], np.ndarray) and args[i].dtype == np.float64:
            new[i] = args[i].astype(dtype)
            hit = True
    return new if hit else None


def _fd_grad(fn, args, i):
    """d sum(real(fn)) / d args[i] by central differences, every argument in float64."""
    base = [np.asarray(a, dtype=np.float64) if isinstance(a, np.ndarray) else a for a in args]
    x = np.array(base[i], dtype=np.float64)
    out = np.zeros_like(x)
    flat, gflat = x.reshape(-1), out.reshape(-1)
    for k in range(flat.size):
        old = flat[k]
        vals = []
        for step in (EPS, -EPS):
            flat[k] = old + step
            call = list(base)
            call[i] = x.copy()
            vals.append(float(np.sum(np.real(fn(*call)))))
        flat[k] = old
        gflat[k] = (vals[0] - vals[1]) / (2 * EPS)
    return out


def _runs(fn, args):
    """The primal runs in this dtype and gives finite values."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = fn(*args)
    except Exception:
        return False
    leaves = out if isinstance(out, (tuple, list)) else (out,)
    return all(np.all(np.isfinite(np.asarray(v))) for v in leaves
               if isinstance(v, (np.ndarray, np.generic, float)))


def _close(got, want, tol, what):
    got = np.real(np.asarray(got, dtype=np.complex128))
    scale = max(1.0, float(np.max(np.abs(want))) if np.size(want) else 1.0)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale, err_msg=what)


def _applicable(dtype_name):
    """(id, fn, args cast to the dtype, wrt) for every corpus case with a float64 array among its wrt
    arguments whose primal runs in that dtype: chosen when the tests are collected, so no test skips."""
    out = []
    for name, fn, args, wrt in CASES:
        new = _cast(args, corpora.wrt_indices(fn, wrt), DTYPES[dtype_name][0])
        if new is not None and _runs(fn, new):
            out.append((f"{name}-{dtype_name}", fn, new, wrt, dtype_name))
    return out


APPLICABLE = {d: _applicable(d) for d in DTYPES}


def test_the_sweep_covers_most_of_the_corpus():
    """The sweep cannot shrink unnoticed: most array cases run in every dtype."""
    arrays = sum(_cast(a, corpora.wrt_indices(f, w), np.float32) is not None for _, f, a, w in CASES)
    assert arrays >= 100, arrays
    for d in DTYPES:
        assert len(APPLICABLE[d]) >= 0.6 * arrays, (d, len(APPLICABLE[d]), arrays)


@pytest.mark.parametrize("fn,new,wrt,dtype_name", [c[1:] for d in DTYPES for c in APPLICABLE[d]],
                         ids=[c[0] for d in DTYPES for c in APPLICABLE[d]])
def test_reverse_gradient_has_the_parameters_dtype(fn, new, wrt, dtype_name):
    dtype, tol = DTYPES[dtype_name]
    idx = corpora.wrt_indices(fn, wrt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = grad(fn, wrt=wrt)(*new)
    gs = g if isinstance(wrt, tuple) else (g,)
    for i, gi in zip(idx, gs):
        if isinstance(new[i], np.ndarray):
            assert isinstance(gi, np.ndarray) and gi.dtype == new[i].dtype, \
                f"{fn.__name__}: gradient dtype {getattr(gi, 'dtype', type(gi))} for a {new[i].dtype} parameter"
            if dtype_name != "float16" or np.all(np.isfinite(gi)):
                _close(gi, _fd_grad(fn, new, i), tol, f"{fn.__name__} in {dtype_name}")


@pytest.mark.parametrize("fn,new,wrt", [c[1:4] for c in APPLICABLE["float32"]],
                         ids=[c[0] for c in APPLICABLE["float32"]])
def test_forward_tangent_has_the_outputs_dtype(fn, new, wrt):
    idx = corpora.wrt_indices(fn, wrt)
    rng = np.random.default_rng(0)
    tangents = tuple(rng.normal(size=np.shape(new[i])).astype(np.float32) if isinstance(new[i], np.ndarray)
                     else float(rng.normal()) for i in idx)
    value, tout = jvp(fn, new, tangents, wrt=wrt)
    for v, t in zip(value if isinstance(value, tuple) else (value,), tout if isinstance(tout, tuple) else (tout,)):
        if isinstance(v, np.ndarray) and v.dtype.kind == "f":
            assert getattr(t, "dtype", None) == v.dtype, f"{fn.__name__}: tangent {getattr(t, 'dtype', t)}"
    # the tangent is the gradient of sum(out * ones) . tangents for a single output: check that sum
    if not isinstance(value, tuple) and np.ndim(value) == 0 and len(idx) == 1 and isinstance(new[idx[0]], np.ndarray):
        want = float(np.sum(_fd_grad(fn, new, idx[0]) * tangents[0].astype(np.float64)))
        _close(tout, np.float64(want), 2e-2, f"{fn.__name__}: float32 jvp")


N = 40
_rng = np.random.default_rng(3)
A = _rng.normal(size=(N, N)) / np.sqrt(N)


def tanh_sq(x):
    return np.sum(np.tanh(A.astype(x.dtype) @ x)) ** 2


def tanh_sq_hvp(x, v):
    """The analytic Hessian-vector product of tanh_sq, in float64."""
    t = np.tanh(A @ x)
    d = 1 - t * t
    w = A @ v
    return A.T @ (2 * np.sum(d * w) * d - 4 * np.sum(t) * t * d * w)


def sin_x(x):
    return np.sum(np.sin(x) * x)


def sin_x_hvp(x, v):
    return (2 * np.cos(x) - x * np.sin(x)) * v


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("f,analytic", [(tanh_sq, tanh_sq_hvp), (sin_x, sin_x_hvp)])
def test_second_order_keeps_the_dtype(f, analytic, dtype):
    x = _rng.normal(size=N) * 0.3
    v = _rng.normal(size=N)
    h = hvp(f)(x.astype(dtype), v.astype(dtype))
    assert h.dtype == dtype
    tol = 2e-3 if dtype == np.float32 else 5e-2
    _close(h, analytic(x, v), tol, f"hvp of {f.__name__} in {np.dtype(dtype).name}")
    gg = grad(grad(f))(x.astype(dtype))           # reverse over reverse: H @ ones
    assert gg.dtype == dtype
    _close(gg, analytic(x, np.ones(N)), tol, f"grad(grad({f.__name__})) in {np.dtype(dtype).name}")


@differentiate(wrt=(0, 1))
def layer(x, w):
    h = np.tanh(x @ w)
    return np.sum(h * h)


def test_interop_op_gives_float32_gradients():
    x = np.linspace(-1.0, 1.0, 6).reshape(2, 3)
    w = np.linspace(0.5, -0.7, 12).reshape(3, 4)
    xt, wt = tf.constant(x.astype(np.float32)), tf.Variable(w.astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = layer(xt, wt)
    gx, gw = tape.gradient(y, [xt, wt])
    assert gx.dtype == tf.float32 and gw.dtype == tf.float32
    h = np.tanh(x @ w)
    dz = 2 * h * (1 - h * h)                      # analytic: d sum(tanh(z)^2) / dz
    _close(gx.numpy(), dz @ w.T, 1e-5, "interop gx")
    _close(gw.numpy(), x.T @ dz, 1e-5, "interop gw")


def _two_of_three(xs):
    return xs[0] * xs[1]


def test_every_item_of_a_list_of_floats_gets_a_number():
    """Items the result does not read get a zero of their kind too, not a 0-d array."""
    from transpiler import grad
    got = grad(_two_of_three)([0.7, -0.2, 1.5])
    assert [float(v) for v in got] == [-0.2, 0.7, 0.0]
    assert all(np.ndim(v) == 0 and not isinstance(v, np.ndarray) for v in got), [type(v) for v in got]
