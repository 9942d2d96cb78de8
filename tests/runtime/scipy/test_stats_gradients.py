"""Every scipy.stats method runtime.scipy differentiates, on the tape: gradients (GradientTape),
tangents (ForwardAccumulator) and second order (nested tapes) against central finite differences
of scipy's own method, with respect to x and every parameter."""

import numpy as np
import pytest

pytest.importorskip("scipy")

import runtime as tf  # noqa: E402
from runtime.rules.scipy_stats import twin_call  # noqa: E402
from tests.fd import assert_close  # noqa: E402
from tests.runtime.rules.test_every_rule import _fd_of_fd, _flat, _phi  # noqa: E402
from tests.runtime.scipy.twin_specs import SPECS  # noqa: E402

EPS = 1e-6


def _fd_grad(phi, args, k):
    x = np.array(args[k], dtype=np.float64)
    out = np.zeros_like(x)
    for i in range(x.size):
        for sign in (1.0, -1.0):
            moved = x.copy()
            moved.reshape(-1)[i] += sign * EPS
            out.reshape(-1)[i] += sign * phi(args[:k] + [moved] + args[k + 1:]) / (2 * EPS)
    return out


def _on_tensors(twin, args, k, x):
    new = [tf.constant(a) if isinstance(a, (np.ndarray, np.floating)) else a for a in args]
    new[k] = x
    return twin(*new)


@pytest.mark.parametrize("spec", SPECS, ids=[s.label for s in SPECS])
def test_method_on_the_tape(spec):
    rng = np.random.default_rng(sum(map(ord, spec.label)))
    args, kwargs = spec.make(None, rng)
    twin = twin_call(spec.fn)[0]          # what runtime.scipy.stats.<name>.<method> is
    weights = [rng.standard_normal(np.shape(o)) for o in _flat(spec.fn(*args))]
    phi = _phi(spec.fn, {}, weights)
    for k in spec.argnums:
        what = f"{spec.label} argument {k}"
        want = _fd_grad(phi, args, k)
        x = tf.constant(np.asarray(args[k], dtype=np.float64))
        t = rng.standard_normal(np.shape(args[k]))
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                out = _on_tensors(twin, args, k, x)
                s = tf.reduce_sum(out * weights[0])
            g = inner.gradient(s, x, unconnected_gradients=tf.UnconnectedGradients.ZERO)
            gv = tf.reduce_sum(g * t)
        assert_close(g.numpy(), want, what=f"gradient {what}")
        with tf.autodiff.ForwardAccumulator(x, tf.constant(t)) as acc:
            out = _on_tensors(twin, args, k, x)
        assert_close(acc.jvp(out, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy(), _jvp_reference(spec.fn, args, k, t), what=f"tangent {what}")
        u = rng.standard_normal(np.shape(args[k]))
        reference = _fd_of_fd(phi, args, k, t, u, False)
        h = outer.gradient(gv, x)            # (None: linear in x, e.g. a quantile in loc)
        got = 0.0 if h is None else float(np.sum(h.numpy() * u))
        assert_close(got, reference, rtol=2e-4, atol=2e-4 * (1 + abs(reference)), what=f"second order {what}")


def _jvp_reference(fn, args, k, t):
    plus = list(args)
    minus = list(args)
    plus[k] = args[k] + EPS * t
    minus[k] = args[k] - EPS * t
    return (fn(*plus) - fn(*minus)) / (2 * EPS)


def test_dirichlet_in_x_against_its_closed_form():
    """x lies on the simplex, where scipy refuses a step off it: d logpdf / dx_i = (alpha_i - 1) / x_i."""
    from runtime import scipy as sp
    alpha = np.array([1.5, 2.0, 3.0])
    x = tf.constant(np.array([[0.2, 0.3], [0.3, 0.1], [0.5, 0.6]]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(sp.stats.dirichlet.logpdf(x, alpha))
    assert_close(tape.gradient(y, x).numpy(), (alpha[:, None] - 1) / x.numpy(), what="dirichlet x")
