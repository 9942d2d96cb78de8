"""Hypothesis: for random straight-line programs, the gradient through the recorded generated
adjoint equals the gradient of the same program recorded op by op on the tape -- first and
second order -- and both equal finite differences (the tape and the transpiler read the same
rules, so agreeing with each other alone would not catch a wrong rule).  Programs come from the
transpiler's own generator (tests/transpiler).
"""

import numpy as np
from hypothesis import given

import runtime as tf
from tests.fd import numeric_jvp, numeric_vjp
from tests.transpiler.test_random_programs import build, programs
from transpiler import differentiate


def _derivatives(fn, inputs, r, u):
    """(value, first-order gradients, second-order gradients) of sum(fn(*inputs) * r)."""
    with tf.GradientTape(persistent=True) as outer:
        with tf.GradientTape() as inner:
            out = fn(*inputs)
            loss = tf.reduce_sum(out * r)
        rules = [node[0].name for node in inner._nodes]
        g1 = inner.gradient(loss, inputs, unconnected_gradients=tf.UnconnectedGradients.ZERO)
        s = tf.add_n([tf.reduce_sum(g * w) for g, w in zip(g1, u)])
    g2 = outer.gradient(s, inputs, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return out, g1, g2, rules


@given(programs())
def test_recorded_adjoint_equals_op_by_op(program):
    names, shapes, lines, seed = program
    fn, source = build(names, lines)
    rng = np.random.default_rng(seed)
    inputs = [tf.Variable(rng.normal(size=s)) for s in shapes]
    u = [rng.normal(size=s) for s in shapes]
    wrt = tuple(range(len(names))) if len(names) > 1 else 0
    d = differentiate(fn, wrt=wrt)
    out0 = fn(*[x.numpy() for x in inputs])
    r = rng.normal(size=np.shape(out0))

    got = _derivatives(d, inputs, r, u)
    want = _derivatives(fn, inputs, r, u)
    try:
        assert got[3] == [f"{fn.__qualname__} (transpiled)", "np.multiply", "np.sum"], got[3]
        np.testing.assert_allclose(got[0].numpy(), want[0].numpy(), rtol=1e-10, atol=1e-12)
        for a, b in zip(got[1], want[1]):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-7, atol=1e-9)
        for a, b in zip(got[2], want[2]):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-7, atol=1e-9)
        xs = [x.numpy() for x in inputs]
        for i, a in enumerate(got[1]):           # first order: finite differences of the program
            np.testing.assert_allclose(a.numpy(), numeric_vjp(fn, xs, i, r), rtol=1e-5, atol=1e-6)
        for j, b in enumerate(got[2]):           # second order: finite differences of sum(g . u)
            def s(*ys):
                g = _derivatives(fn, [tf.Variable(y) for y in ys], r, u)[1]
                return sum(float(np.sum(gi.numpy() * ui)) for gi, ui in zip(g, u))
            step = [np.zeros_like(x) for x in xs]
            for k in range(np.size(xs[j])):
                step[j] = np.zeros(np.size(xs[j]))
                step[j][k] = 1.0
                step[j] = step[j].reshape(np.shape(xs[j]))
                want_k = numeric_jvp(s, xs, step, eps=1e-5)
                np.testing.assert_allclose(np.ravel(b.numpy())[k], want_k, rtol=1e-4, atol=1e-5)
            step[j] = np.zeros_like(xs[j])
    except AssertionError as e:
        raise AssertionError(f"program:\n{source}\n{e}") from None
