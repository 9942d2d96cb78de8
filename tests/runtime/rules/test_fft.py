"""np.fft rules (runtime/rules/fft.py) against finite differences of numpy itself.

The complex convention under test: for a real loss L of a complex output z, the cotangent is
dL/dRe(z) - i dL/dIm(z); a cotangent ``gbar`` therefore stands for ``L = real(sum(gbar * z))``.
A complex input's gradient is dL/dRe(a) - i dL/dIm(a), a real input's is dL/da (and real).
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import runtime as tf
from runtime.rules import lookup
from runtime.rules.fft import real_part
from tests.fd import EPS, assert_close, numeric_grad, numeric_jvp
from tests.runtime.rules.linalg_check import check_second_order
from tests.runtime.rules.rules_check import seeds

norms = st.sampled_from([None, "backward", "ortho", "forward"])


def _random(rng, shape, complex_):
    x = rng.standard_normal(shape)
    return x + 1j * rng.standard_normal(shape) if complex_ else x


def check_complex_vjp(fn, a, kwargs, rng, rtol=1e-5, atol=1e-6):
    rule = lookup(fn)
    ans = fn(a, **kwargs)
    g = _random(rng, np.shape(ans), np.iscomplexobj(ans))
    got = rule.vjp(0)(g, ans, a, **kwargs)

    def loss(x):
        return np.real(np.sum(g * fn(x, **kwargs)))

    what = f"{rule.name} vjp shape={np.shape(a)} kwargs={kwargs}"
    if np.iscomplexobj(a):
        want = numeric_grad(lambda re: loss(re + 1j * a.imag), a.real) \
            - 1j * numeric_grad(lambda im: loss(a.real + 1j * im), a.imag)
        assert_close(got.real, want.real, rtol, atol, what=what + " (real part)")
        assert_close(got.imag, want.imag, rtol, atol, what=what + " (imaginary part)")
    else:
        assert not np.iscomplexobj(got), f"{what}: a real input got a complex gradient"
        assert_close(got, numeric_grad(loss, a), rtol, atol, what=what)


def check_complex_jvp(fn, a, kwargs, rng, rtol=1e-5, atol=1e-6):
    rule = lookup(fn)
    ans = fn(a, **kwargs)
    t = _random(rng, np.shape(a), np.iscomplexobj(a))
    got = rule.jvp(0)(t, ans, a, **kwargs)
    want = (fn(a + EPS * t, **kwargs) - fn(a - EPS * t, **kwargs)) / (2 * EPS)
    what = f"{rule.name} jvp shape={np.shape(a)} kwargs={kwargs}"
    assert_close(np.real(got), np.real(want), rtol, atol, what=what)
    assert_close(np.imag(got), np.imag(want), rtol, atol, what=what)


def check_both(fn, a, kwargs, rng):
    check_complex_vjp(fn, a, kwargs, rng)
    check_complex_jvp(fn, a, kwargs, rng)


# --- 1-d ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fn", [np.fft.fft, np.fft.ifft], ids=["fft", "ifft"])
@given(shape=st.sampled_from([(5,), (4,), (2, 3), (3, 4, 2)]), complex_=st.booleans(),
       n=st.sampled_from([None, 2, 7]), axis=st.sampled_from([-1, 0]), norm=norms, seed=seeds)
def test_fft_ifft(fn, shape, complex_, n, axis, norm, seed):
    rng = np.random.default_rng(seed)
    check_both(fn, _random(rng, shape, complex_), {"n": n, "axis": axis, "norm": norm}, rng)


@given(shape=st.sampled_from([(5,), (6,), (2, 3), (3, 4, 2)]), n=st.sampled_from([None, 3, 4, 8]),
       axis=st.sampled_from([-1, 0]), norm=norms, seed=seeds)
def test_rfft(shape, n, axis, norm, seed):
    rng = np.random.default_rng(seed)
    check_both(np.fft.rfft, rng.standard_normal(shape), {"n": n, "axis": axis, "norm": norm}, rng)


@given(shape=st.sampled_from([(5,), (4,), (2, 3), (3, 4, 2)]), complex_=st.booleans(),
       n=st.sampled_from([None, 3, 4, 9]), axis=st.sampled_from([-1, 0]), norm=norms, seed=seeds)
def test_irfft(shape, complex_, n, axis, norm, seed):
    """Also checks that the ignored imaginary parts (bins 0 and n/2) get no gradient."""
    rng = np.random.default_rng(seed)
    check_both(np.fft.irfft, _random(rng, shape, complex_), {"n": n, "axis": axis, "norm": norm}, rng)


@given(shape=st.sampled_from([(5,), (4,), (2, 3), (3, 4, 2)]), complex_=st.booleans(),
       n=st.sampled_from([None, 3, 4, 9]), axis=st.sampled_from([-1, 0]), norm=norms, seed=seeds)
def test_hfft(shape, complex_, n, axis, norm, seed):
    rng = np.random.default_rng(seed)
    check_both(np.fft.hfft, _random(rng, shape, complex_), {"n": n, "axis": axis, "norm": norm}, rng)


@given(shape=st.sampled_from([(5,), (6,), (2, 3), (3, 4, 2)]), n=st.sampled_from([None, 3, 4, 8]),
       axis=st.sampled_from([-1, 0]), norm=norms, seed=seeds)
def test_ihfft(shape, n, axis, norm, seed):
    rng = np.random.default_rng(seed)
    check_both(np.fft.ihfft, rng.standard_normal(shape), {"n": n, "axis": axis, "norm": norm}, rng)


# --- n-d --------------------------------------------------------------------------------------------

ND = [np.fft.fftn, np.fft.ifftn, np.fft.fft2, np.fft.ifft2, np.fft.rfftn, np.fft.irfftn, np.fft.rfft2,
      np.fft.irfft2]


@pytest.mark.parametrize("fn", ND, ids=[f.__name__ for f in ND])
@given(shape=st.sampled_from([(3, 4), (4, 3, 2), (2, 5)]), complex_=st.booleans(),
       variant=st.sampled_from(["default", "axes", "s", "s_axes"]), norm=norms, seed=seeds)
def test_nd(fn, shape, complex_, variant, norm, seed):
    rng = np.random.default_rng(seed)
    real_only = fn in (np.fft.rfftn, np.fft.rfft2)
    a = _random(rng, shape, complex_ and not real_only)
    kw = {"norm": norm}
    two = fn.__name__.endswith("2")
    if variant in ("axes", "s_axes"):
        kw["axes"] = (0, -1) if len(shape) > 2 or not two else (-1, 0)
    if variant in ("s", "s_axes"):
        k = 2 if two or "axes" in kw else len(shape)
        kw["s"] = tuple(int(v) for v in rng.integers(2, 6, size=k))
        if "axes" not in kw and not two:
            kw["axes"] = tuple(range(len(shape) - k, len(shape)))
    check_both(fn, a, kw, rng)


@pytest.mark.parametrize("fn", [np.fft.fftshift, np.fft.ifftshift], ids=["fftshift", "ifftshift"])
@given(shape=st.sampled_from([(5,), (4,), (3, 4)]), axes=st.sampled_from([None, 0, -1, (0,)]),
       complex_=st.booleans(), seed=seeds)
def test_shifts(fn, shape, axes, complex_, seed):
    rng = np.random.default_rng(seed)
    check_both(fn, _random(rng, shape, complex_), {"axes": axes}, rng)


# --- real-valued losses of complex intermediates, on the tape and through the transpiler -------------

def power(x):
    z = np.fft.fft(x)
    return real_part(z) ** 2 + real_part(-1j * z) ** 2         # |fft(x)|^2


def roundtrip(x):
    return real_part(np.fft.ifft(np.fft.fft(np.sin(x)) * np.fft.fft(x)))


def convolve(x):
    return np.fft.irfft(np.fft.rfft(x) * np.fft.rfft(x * x), n=x.shape[-1])


def shifted_2d(x):
    return real_part(np.fft.fftshift(np.fft.ifft2(np.fft.fft2(x) ** 2)))


def half_nd(x):
    return np.fft.irfftn(np.fft.rfftn(x, norm="ortho") ** 2, s=x.shape, norm="ortho")


def hermitian(x):
    return np.fft.hfft(np.fft.ihfft(x) ** 2, n=x.shape[-1])


LOSSES = [power, roundtrip, convolve, shifted_2d, half_nd, hermitian]


def _tape_grad(f, x):
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = np.sum(f(v) * np.cos(np.arange(x.size).reshape(x.shape)))
    return tape.gradient(y, v).numpy()


@pytest.mark.parametrize("f", LOSSES, ids=[f.__name__ for f in LOSSES])
def test_tape_real_losses(f):
    x = np.random.default_rng(6).standard_normal((3, 4))
    want = numeric_grad(lambda y: np.sum(f(y) * np.cos(np.arange(y.size).reshape(y.shape))), x)
    got = _tape_grad(f, x)
    assert got.dtype == np.float64
    assert_close(got, want, 1e-5, 1e-6, what=f.__name__)


@pytest.mark.parametrize("f", LOSSES, ids=[f.__name__ for f in LOSSES])
def test_tape_second_order(f):
    check_second_order(f, np.random.default_rng(7).standard_normal((3, 4)))


def test_sum_abs_fft_squared_is_parseval():
    """sum |fft(x)|^2 = n sum x^2, so the gradient is 2 n x (an independent analytic reference)."""
    x = np.random.default_rng(8).standard_normal(6)
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = np.sum(power(v))
    assert_close(tape.gradient(y, v).numpy(), 2 * 6 * x, 1e-10, 1e-10, what="Parseval")


def test_transpiler_grad_and_jvp():
    from transpiler import grad, jvp

    def f(x):
        y = np.fft.irfft(np.fft.rfft(x) * np.fft.rfft(np.sin(x)), n=x.shape[0])
        z = np.fft.ifftshift(np.fft.irfftn(np.fft.fftn(x * x)[:, :3], s=(3, 4)))
        return np.sum(y * y) + np.sum(z * x)

    x = np.random.default_rng(9).standard_normal((3, 4))
    assert_close(grad(f)(x), numeric_grad(f, x), 1e-5, 1e-6, what="transpiler grad")
    t = np.random.default_rng(10).standard_normal((3, 4))
    assert_close(jvp(f, (x,), (t,))[1], numeric_jvp(f, [x], [t]), 1e-5, 1e-6, what="transpiler jvp")


# --- tf.signal ------------------------------------------------------------------------------------------

def test_tf_signal_on_the_tape():
    x = np.random.default_rng(11).standard_normal((2, 6))

    def f(v):
        z = tf.signal.rfft(v)
        y = tf.signal.irfft(z * z, fft_length=[6])
        w = tf.signal.irfft2d(tf.signal.rfft2d(v, fft_length=[2, 4]) ** 2, fft_length=[2, 4])
        return tf.reduce_sum(y * v) + tf.reduce_sum(tf.signal.fftshift(w) * v[:, :4])

    def ref(v):
        z = np.fft.rfft(v)
        w = np.fft.irfft2(np.fft.rfft2(v, s=(2, 4)) ** 2, s=(2, 4))
        return np.sum(np.fft.irfft(z * z, n=6) * v) + np.sum(np.fft.fftshift(w) * v[:, :4])

    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = f(v)
    assert_close(tape.gradient(y, v).numpy(), numeric_grad(ref, x), 1e-5, 1e-6, what="tf.signal")


def test_tf_signal_types_match_tf():
    z = tf.signal.rfft(tf.constant(np.arange(4.0, dtype=np.float32)))
    assert z.dtype == tf.complex64 and z.shape == (3,)
    assert tf.signal.irfft(z).dtype == tf.float32
    assert tf.signal.fft(z).dtype == tf.complex64
    with pytest.raises(TypeError, match="complex64, complex128"):
        tf.signal.fft(tf.constant([1.0, 2.0]))
    with pytest.raises(TypeError, match="float32, float64"):
        tf.signal.rfft(z)
    with pytest.raises(ValueError, match="fft_length"):
        tf.signal.rfft2d(tf.constant(np.ones((2, 2))), fft_length=[2])


def test_transpiler_with_tf_signal_aliases():
    from transpiler import grad

    def f(x):
        return tf.reduce_sum(tf.signal.irfft(tf.signal.rfft(x) ** 2) * x)

    x = np.random.default_rng(12).standard_normal(8)
    assert_close(grad(f)(x), numeric_grad(f, x), 1e-5, 1e-6, what="transpiled tf.signal")
