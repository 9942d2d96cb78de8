"""Second derivatives of real losses through |z|, sign(z) and angle(z) of complex intermediates.

abs' rules read ``np.sign``, so a sign treated as constant on complex values gave zero curvature
for |z| (silently wrong hvp in both halves).  The reference is a four-point finite difference of
the primal alone, so no rule under test takes part in it.
"""

import numpy as np
import pytest

import runtime as tf
import transpiler
from tests.fd import assert_close
from tests.runtime.rules.rules_check import tape_hvp


def fft_magnitude(x):
    return np.sum(np.abs(np.fft.fft(x)) * np.linspace(0.5, 1.5, x.shape[0]))


# The others read z = x[:2] + i x[2:].  The tape, like TF, refuses `1j * <float tensor>`, so it
# builds z by a cast; the transpiled losses build it with plain arithmetic.
def modulus_times(z, x):
    return np.abs(z[0]) * x[2] + np.abs(z[0] * z[1] - 0.5 * z[1]) ** 1.5


def phase_real_part(z, x):
    return np.sum(np.real(np.sign(z) * np.conj(z[::-1])) + np.imag(np.sign(z * z)))


def builtin_abs_on_elements(z, x):
    return abs(z[0]) * abs(z[1] - 2j * z[0]) + abs(z[0] + z[1]) ** 2


def angle_and_abs(z, x):
    w = z * np.exp(0.5j * z[::-1])
    return np.sum(np.angle(w + 0.5) * np.abs(w - 0.25j))


def transpiled(core):
    def loss(x):
        return core(x[:2] + 1j * x[2:], x)
    loss.__name__ = core.__name__
    return loss


def on_tape(core):
    def loss(x):
        return core(tf.cast(x[:2], tf.complex128) + 1j * tf.cast(x[2:], tf.complex128), x)
    return loss


def plain(core):
    return lambda x: core(x[:2] + 1j * x[2:], x)


CORES = [modulus_times, phase_real_part, builtin_abs_on_elements, angle_and_abs]
LOSSES = [fft_magnitude] + [transpiled(c) for c in CORES]
TAPE_LOSSES = [(fft_magnitude, fft_magnitude)] + [(on_tape(c), plain(c)) for c in CORES]
X = np.array([0.3, -1.2, 0.7, 2.0])


def fd_hvp(f, x, v, h=1e-4):
    """Directional second differences: the i-th entry is u_i^T H v with u_i the i-th unit vector."""
    out = np.zeros_like(x)
    for i in range(x.size):
        u = np.zeros_like(x)
        u[i] = 1.0
        out[i] = (f(x + h * u + h * v) - f(x + h * u - h * v)
                  - f(x - h * u + h * v) + f(x - h * u - h * v)) / (4 * h * h)
    return out


@pytest.mark.parametrize("f", LOSSES, ids=[f.__name__ for f in LOSSES])
@pytest.mark.parametrize("seed", [0, 1])
def test_transpiler_hvp(f, seed):
    v = np.random.default_rng(seed).standard_normal(X.size)
    got = transpiler.hvp(f)(X, v)
    assert not np.iscomplexobj(got)
    assert_close(got, fd_hvp(f, X, v), 1e-4, 1e-5, what=f"transpiler hvp {f.__name__}")


@pytest.mark.parametrize("f", LOSSES, ids=[f.__name__ for f in LOSSES])
def test_transpiler_forward_over_reverse(f):
    v = np.random.default_rng(2).standard_normal(X.size)
    _, got = transpiler.jvp(transpiler.grad(f), (X,), (v,))
    assert_close(got, fd_hvp(f, X, v), 1e-4, 1e-5, what=f"jvp of grad {f.__name__}")


@pytest.mark.parametrize("f, reference", TAPE_LOSSES, ids=["fft_magnitude"] + [c.__name__ for c in CORES])
def test_tape_hvp(f, reference):
    v = np.random.default_rng(3).standard_normal(X.size)
    got = tape_hvp(f, [X], 0, 1.0, v)
    assert_close(got, fd_hvp(reference, X, v), 1e-4, 1e-5, what="tape hvp")


def test_modulus_hessian_is_the_analytic_one():
    """|x + iy| has Hessian [[y^2, -xy], [-xy, x^2]] / r^3: an exact reference with no FD."""
    a, b = 0.6, -0.8
    want = np.array([[b * b, -a * b], [-a * b, a * a]]) / np.hypot(a, b) ** 3
    point = np.array([a, b])
    for row, e in zip(want, np.eye(2)):
        got = transpiler.hvp(lambda x: np.abs(x[0] + 1j * x[1]))(point, e)
        assert_close(got, row, 1e-12, 1e-12, what="transpiler |z| Hessian row")
        got = tape_hvp(lambda x: np.abs(tf.cast(x[0], tf.complex128) + 1j * tf.cast(x[1], tf.complex128)),
                       [point], 0, 1.0, e)
        assert_close(got, row, 1e-12, 1e-12, what="tape |z| Hessian row")


def test_sign_of_real_values_stays_piecewise_constant():
    x = tf.Variable(np.array([-2.0, 0.5, 3.0]))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(np.sign(x) * x)
    assert_close(tape.gradient(y, x).numpy(), np.sign(x.numpy()), 0, 0, what="sign(x) * x")
    assert_close(transpiler.grad(lambda v: np.sum(np.sign(v) * v))(x.numpy()), np.sign(x.numpy()), 0, 0,
                 what="transpiled sign(x) * x")


def _parts_loss(a, b, make):
    z = make(a, b)
    return np.sum(np.abs(z * z - 0.3) ** 1.5 + np.real(z) * np.imag(z * z))


def test_tf_complex():
    """tf.complex(a, b) = a + ib: gradient, hvp and forward mode vs FD of the same loss in numpy."""
    rng = np.random.default_rng(4)
    a0, b0 = rng.standard_normal(3), rng.standard_normal(3)
    va, vb = rng.standard_normal(3), rng.standard_normal(3)
    x0, v = np.concatenate([a0, b0]), np.concatenate([va, vb])
    reference = lambda x: _parts_loss(x[:3], x[3:], lambda a, b: a + 1j * b)  # noqa: E731

    def loss(x):
        return _parts_loss(x[:3], x[3:], tf.complex)

    h = 1e-6
    fd_grad = np.array([(reference(x0 + h * e) - reference(x0 - h * e)) / (2 * h) for e in np.eye(6)])
    x = tf.Variable(x0)
    with tf.GradientTape() as tape:
        y = loss(x)
    got = tape.gradient(y, x)
    assert got.dtype == tf.float64
    assert_close(got.numpy(), fd_grad, 1e-5, 1e-6, what="tf.complex gradient")
    assert_close(tape_hvp(loss, [x0], 0, 1.0, v), fd_hvp(reference, x0, v), 1e-4, 1e-5, what="tf.complex hvp")
    with tf.autodiff.ForwardAccumulator(x, tf.constant(v)) as acc:
        y = loss(x)
    assert_close(acc.jvp(y).numpy(), fd_grad @ v, 1e-5, 1e-6, what="tf.complex forward mode")


def test_tf_complex_dtypes():
    single = tf.complex(tf.constant([1.0], tf.float32), tf.constant([2.0], tf.float32))
    assert single.dtype == tf.complex64 and complex(single.numpy()[0]) == 1 + 2j
    assert tf.complex(tf.constant(1.0, tf.float64), tf.constant(-3.0, tf.float64)).dtype == tf.complex128
    with pytest.raises(TypeError, match="two float32 or two float64"):
        tf.complex(tf.constant(1.0, tf.float32), tf.constant(1.0, tf.float64))


@pytest.mark.parametrize("order", ["forward_over_reverse", "reverse_over_reverse"])
def test_complex_source_hessian_of_norm_is_the_closed_form(order):
    """A ForwardAccumulator over a tape runs JVP rules on tensors, and those mix real and complex
    (``norm_grad``'s ``g * conj(x) / n``): TF's refusal of mixed-dtype operators once broke every
    forward-over-reverse Hessian of a complex linalg function (InvalidArgumentError inside a rule).
    With TF's convention the gradient of |x| is x / |x|, and its derivative along u is
    u / |x| - x Re<x, u> / |x|^3."""
    rng = np.random.default_rng(3)
    x0 = rng.standard_normal(4) + 1j * rng.standard_normal(4)
    u0 = rng.standard_normal(4) + 1j * rng.standard_normal(4)
    x, u = tf.constant(x0), tf.constant(u0)
    if order == "forward_over_reverse":
        with tf.autodiff.ForwardAccumulator(x, u) as acc:
            with tf.GradientTape() as tape:
                tape.watch(x)
                s = np.linalg.norm(x)
            g = tape.gradient(s, x)
        got = acc.jvp(g).numpy()
    else:        # the gradient of Re<g, u>, TF's convention: the same vector
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as tape:
                tape.watch(x)
                s = np.linalg.norm(x)
            g = tape.gradient(s, x)
            r = np.real(np.sum(g * np.conj(u)))
        got = outer.gradient(r, x).numpy()
    n = np.linalg.norm(x0)
    want = u0 / n - x0 * np.real(np.vdot(x0, u0)) / n ** 3
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12, err_msg=order)   # complex: both parts
