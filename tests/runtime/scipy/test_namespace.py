"""runtime.scipy: scipy's public names on tensors, and the refusal that points there when a tensor
reaches scipy's own code."""

import numpy as np
import pytest

pytest.importorskip("scipy")

import scipy.signal  # noqa: E402
import scipy.special  # noqa: E402
import scipy.stats  # noqa: E402

import runtime as tf  # noqa: E402
from runtime import scipy as sp  # noqa: E402
from runtime.rules import scipy_stats  # noqa: E402


def test_the_namespace_mirrors_scipy():
    assert tf.scipy is sp
    assert sp.special.gammaln is scipy.special.gammaln          # ufuncs: scipy's own objects
    assert sp.special.erf is scipy.special.erf
    assert sp.stats.norm.logpdf is scipy_stats.norm_logpdf      # methods: the twins
    assert sp.stats.norm.rvs == scipy.stats.norm.rvs            # what has no twin: scipy's own
    assert sp.stats.ttest_ind is scipy.stats.ttest_ind
    assert sp.signal.lfilter is scipy.signal.lfilter
    for name in ("special", "stats", "signal", "fft", "linalg", "integrate"):
        assert name in dir(sp)
    with pytest.raises(AttributeError, match="mirrors scipy"):
        sp.optimize


@pytest.mark.parametrize("call, name", [
    (lambda t: scipy.stats.norm.logpdf(t, 0.0, 2.0), "scipy.stats.norm.logpdf"),
    (lambda t: scipy.stats.norm(1.0, 2.0).cdf(t), "scipy.stats.norm(...).cdf"),
    (lambda t: scipy.stats.multivariate_normal.logpdf(t, np.zeros(3)), "scipy.stats.multivariate_normal.logpdf"),
    (lambda t: scipy.special.logsumexp(t), "scipy.special.logsumexp"),
    (lambda t: scipy.signal.convolve(t, np.ones(2)), "scipy.signal.convolve"),
])
def test_a_tensor_reaching_scipy_is_refused_with_the_mirror_named(call, name):
    x = tf.constant(np.array([0.2, -1.0, 1.5]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(TypeError) as e:
            call(x)
    message = str(e.value)
    assert message.startswith(name + " converts its arguments"), message
    assert "runtime." + name in message


def test_outside_a_tape_scipy_reads_tensors_as_values():
    x = tf.constant(np.array([0.2, -1.0]))
    np.testing.assert_allclose(scipy.stats.norm.logpdf(x), scipy.stats.norm.logpdf(x.numpy()))


def test_methods_keywords_and_frozen_distributions_on_the_tape():
    x = tf.constant(np.array([0.2, -1.0, 1.5]))
    s = tf.constant(1.7, dtype=tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, s])
        by_position = sp.stats.norm.logpdf(x, 0.3, s)
        by_keyword = sp.stats.norm.logpdf(x, scale=s, loc=0.3)
        frozen = sp.stats.norm(0.3, scale=s).logpdf(x)
    want = scipy.stats.norm.logpdf(x.numpy(), 0.3, 1.7)
    z = (x.numpy() - 0.3) / 1.7
    for y in (by_position, by_keyword, frozen):
        np.testing.assert_allclose(y.numpy(), want)
        dx, ds = tape.gradient(y, [x, s])
        np.testing.assert_allclose(dx.numpy(), -z / 1.7)                  # closed forms
        np.testing.assert_allclose(ds.numpy(), np.sum(z * z - 1.0) / 1.7)


def test_logsumexp_with_its_sign():
    x = tf.constant(np.array([0.2, -1.0, 1.5]))
    b = np.array([1.0, -2.0, -3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        value, sign = sp.special.logsumexp(x, b=b, return_sign=True)
    want_value, want_sign = scipy.special.logsumexp(x.numpy(), b=b, return_sign=True)
    np.testing.assert_allclose(value.numpy(), want_value)
    assert float(sign) == want_sign == -1.0
    total = np.sum(b * np.exp(x.numpy()))
    np.testing.assert_allclose(tape.gradient(value, x).numpy(), b * np.exp(x.numpy()) / total)


def test_scipy_fft_runs_numpy_fft():
    x = tf.constant(np.array([0.2, -1.0, 1.5, 0.5]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.real(sp.fft.rfft(x, workers=2)) ** 2)
    np.testing.assert_allclose(y.numpy(), np.sum(np.real(scipy.fft.rfft(x.numpy())) ** 2))
    assert tape.gradient(y, x) is not None
    with pytest.raises(NotImplementedError, match="plan"):
        sp.fft.fft(x, plan=object())


@pytest.mark.parametrize("name, method", sorted(scipy_stats.TWINS))
def test_every_twin_computes_scipys_value(name, method):
    """Values against scipy itself, inside and outside each distribution's support."""
    args, kwargs, points = _twin_case(name, method)
    want = getattr(getattr(scipy.stats, name), method)(*points, *args, **kwargs)
    got = scipy_stats.TWINS[name, method](*points, *args, **kwargs)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)


def _twin_case(name, method):
    rng = np.random.default_rng(abs(hash((name, method))) % 2**32)
    if name == "poisson":
        return (2.3,), {"loc": 1}, (np.array([0.0, 1.0, 2.0, 5.0, 3.5, -1.0, 9.0]),)
    if name == "dirichlet":
        alpha = np.array([1.5, 2.0, 3.0])
        return (alpha,), {}, (rng.dirichlet(alpha, size=4).T,)
    if name == "multivariate_normal":
        a = rng.standard_normal((3, 3))
        cov, mean = a @ a.T + np.eye(3), rng.standard_normal(3)
        if method == "entropy":
            return (mean, cov), {}, ()
        return (mean, cov), {"allow_singular": True}, (rng.standard_normal((5, 3)),)
    shapes = {"t": (3.5,), "gamma": (2.3,), "chi2": (3.1,), "beta": (2.2, 3.1), "lognorm": (0.7,)}.get(name, ())
    loc, scale = 0.3, 1.7
    if method in ("ppf", "isf"):
        points = rng.uniform(0.01, 0.99, 7)
    else:
        points = loc + scale * np.concatenate([rng.uniform(-3.0, 3.0, 6), [-0.5, 0.0, 0.5, 1.0, 1.5]])
    return shapes, {"loc": loc, "scale": scale}, (points,)


def test_a_derivative_without_closed_form_is_refused_on_the_tape():
    """iv's order: a gradient through it raises (never a silent zero); one through x alone works."""
    from runtime.rules.refused import NoDerivativeError
    v, x = tf.constant(1.5, dtype=tf.float64), tf.constant(2.0, dtype=tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([v, x])
        y = scipy.special.iv(v, x)
    dx = tape.gradient(y, x)
    np.testing.assert_allclose(dx.numpy(), (scipy.special.iv(0.5, 2.0) + scipy.special.iv(2.5, 2.0)) / 2)
    with pytest.raises(NoDerivativeError, match=r"scipy.special.iv\(\) has no derivative with respect to `v`"):
        tape.gradient(y, v)
