"""Every rule of the vectorised jacobian path (runtime/engine/batching.py), one case each.

Each case is a function of float64 tensors.  ``tape.jacobian`` (one batched backward sweep)
must equal the per-row loop (one ``tape.gradient`` per target element, the unbatched rules)
and central finite differences, and must run without falling back to the per-row loop -- so a
batched rule that goes wrong cannot hide behind the loop.  Shapes mix axes of distinct and of
equal lengths: a transpose by the permutation instead of its inverse keeps the shape when the
axes are equal and changes it when they are not; both must be caught.
"""

import numpy as np
import pytest

import runtime as tf
from runtime.engine import batching
from runtime.engine import tape as tape_module
from tests.fd import assert_close, numeric_grad

S, M, P = -1.0, 1.0, 2.0   # domains: signed, (0.2, 1), (1.2, 2)


def dom(kind, shape):
    return (kind, shape)


C = tf.constant

CASES = {
    # elementwise, called as numpy functions (dispatch to the registered primitive)
    "exp_exp2_expm1": (lambda x: np.exp(x) + np.exp2(x) * np.expm1(x), [dom(S, (2, 3))]),
    "logs": (lambda x: np.log(x) + np.log2(x) * np.log10(x) - np.log1p(x), [dom(M, (3, 2))]),
    "sqrt_cbrt_square_reciprocal": (
        lambda x: np.sqrt(x) * np.cbrt(x) + np.square(x) - np.reciprocal(x), [dom(M, (2, 2, 2))]),
    "abs_sign": (lambda x: np.abs(x) * x + np.sign(x) * x, [dom(S, (3, 3))]),
    "trig": (lambda x: np.sin(x) * np.cos(x) + np.tan(x * 0.5), [dom(S, (2, 3))]),
    "inverse_trig": (lambda x: np.arcsin(x * 0.8) + np.arccos(x * 0.7) * np.arctan(x), [dom(S, (3, 2))]),
    "hyperbolic": (lambda x: np.sinh(x) + np.cosh(x) * np.tanh(x), [dom(S, (2, 3))]),
    "inverse_hyperbolic": (lambda x: np.arcsinh(x) * np.arctanh(x * 0.6) + np.arccosh(x + 1.5),
                           [dom(M, (2, 2))]),
    "degrees_sign_identity": (lambda x: np.deg2rad(x) * np.rad2deg(-x) + np.positive(x) + tf.identity(x),
                              [dom(S, (3,))]),
    "activations": (lambda x: tf.sigmoid(x) + tf.nn.relu(x) * tf.nn.softplus(x) + tf.nn.relu6(x * 8.0),
                    [dom(S, (2, 3))]),
    "erf_erfc": (lambda x: tf.math.erf(x) * tf.math.erfc(x), [dom(S, (3, 2))]),
    "cast": (lambda x: tf.cast(tf.cast(x, tf.float32) * 2.0, tf.float64), [dom(S, (2, 3))]),
    "inv_det": (lambda a: np.linalg.inv(a + 3.0 * np.eye(3)) * np.linalg.det(a + 3.0 * np.eye(3)),
                [dom(S, (3, 3))]),
    # binary, broadcasting both ways
    "add_subtract": (lambda x, y: (x + y) - (y - x) * 2.0, [dom(S, (2, 3, 4)), dom(S, (3, 1))]),
    "multiply_divide": (lambda x, y: x * y / (y + 2.0) + y / x, [dom(M, (2, 3)), dom(M, (3,))]),
    "power": (lambda x, y: x ** y + y ** 2.0, [dom(M, (3, 2)), dom(M, (1, 2))]),
    "logaddexp_arctan2_hypot": (
        lambda x, y: np.logaddexp(x, y) + np.arctan2(y, x + 2.0) * np.hypot(x, y),
        [dom(S, (2, 3)), dom(S, (2, 1))]),
    "maximum_minimum": (lambda x, y: np.maximum(x, y) * np.minimum(x, y * 0.5),
                        [dom(S, (3, 3)), dom(S, (3,))]),
    "mod_fmod": (lambda x, y: np.mod(x, y) + np.fmod(x, y), [dom(P, (2, 3)), dom(M, (3,))]),
    "where": (lambda x, y: np.where(C(np.array([[True], [False], [True]])), x, y * 3.0),
              [dom(S, (3, 2)), dom(S, (2,))]),
    "clip": (lambda a, lo, hi: np.clip(a, lo - 0.5, hi + 0.5), [dom(S, (2, 3)), dom(S, (3,)), dom(S, (2, 1))]),
    "matmul_2d": (lambda a, b: a @ b, [dom(S, (2, 3)), dom(S, (3, 4))]),
    "matmul_batched": (lambda a, b: np.matmul(a, b), [dom(S, (2, 3, 3)), dom(S, (3, 2))]),
    "matmul_column": (lambda a, b: a @ b, [dom(S, (4, 3)), dom(S, (3, 1))]),
    "matvec": (lambda a, b: tf.linalg.matvec(a, b), [dom(S, (4, 3)), dom(S, (3,))]),
    "matvec_batched_matrix": (lambda a, b: np.matmul(a, b), [dom(S, (2, 4, 3)), dom(S, (3,))]),
    "vecmat": (lambda a, b: np.matmul(a, b), [dom(S, (3,)), dom(S, (3, 4))]),
    # reductions
    "sum_mean": (lambda x: np.sum(x, axis=(0, 2)) + np.sum(np.mean(x, axis=1, keepdims=True)[:, 0, :2]),
                 [dom(S, (2, 3, 2))]),
    "max_prod": (lambda x: np.max(x, axis=1) * np.prod(x, axis=1), [dom(M, (3, 4))]),
    "var_std": (lambda x: np.var(x, axis=0) + np.std(x, axis=0, ddof=1), [dom(S, (4, 3))]),
    "logsumexp": (lambda x: tf.reduce_logsumexp(x, axis=1), [dom(S, (3, 4))]),
    # nn
    "softmax_cross_entropy": (
        lambda labels, logits: tf.nn.softmax_cross_entropy_with_logits(tf.nn.softmax(labels), logits),
        [dom(S, (3, 4)), dom(S, (3, 4))]),
    # shape rules
    "broadcast_to": (lambda x: np.broadcast_to(x, (2, 3, 3)) * C(np.arange(18.0).reshape(2, 3, 3)),
                     [dom(S, (3, 1))]),
    "getitem": (lambda x: x[1:, ::-1, [0, 2, 2]] * x[0, :, :1], [dom(S, (3, 2, 3))]),
    "reshape_ravel": (lambda x: np.reshape(x, (3, 4)) * np.ravel(x)[:4], [dom(S, (2, 3, 2))]),
    "expand_squeeze": (lambda x: np.squeeze(np.expand_dims(x, 1) * x[:, None, :], axis=1), [dom(S, (2, 3))]),
    "transpose_cycle_equal": (lambda x: np.transpose(x * x, (1, 2, 0)) * C(np.arange(27.0).reshape(3, 3, 3)),
                              [dom(S, (3, 3, 3))]),
    "transpose_cycle_other_way_equal": (
        lambda x: np.transpose(x, (2, 0, 1)) * C(np.arange(27.0).reshape(3, 3, 3)), [dom(S, (3, 3, 3))]),
    "transpose_cycle_distinct": (lambda x: np.transpose(x, (1, 2, 0)) * C(np.arange(24.0).reshape(3, 4, 2)),
                                 [dom(S, (2, 3, 4))]),
    "transpose_4d_mixed": (
        lambda x: np.transpose(x, (2, 0, 3, 1)) * C(np.arange(16.0).reshape(2, 2, 2, 2)),
        [dom(S, (2, 2, 2, 2))]),
    "transpose_default": (lambda x: np.transpose(x) * C(np.arange(24.0).reshape(4, 3, 2)), [dom(S, (2, 3, 4))]),
    "tf_transpose_perm": (lambda x: tf.transpose(x, perm=[2, 0, 1]) * C(np.arange(24.0).reshape(4, 2, 3)),
                          [dom(S, (2, 3, 4))]),
    "swapaxes": (lambda x: np.swapaxes(x, 0, -1) * C(np.arange(27.0).reshape(3, 3, 3)), [dom(S, (3, 3, 3))]),
    "flip": (lambda x: np.flip(x, axis=(0, 2)) * x + np.flip(x), [dom(S, (2, 2, 3))]),
    "concatenate": (lambda x, y: np.concatenate([x, y * 2.0, x], axis=1), [dom(S, (2, 2)), dom(S, (2, 3))]),
    "stack": (lambda x, y: np.stack([x, y, x * y], axis=2), [dom(S, (2, 3)), dom(S, (2, 3))]),
    "take": (lambda x: np.take(x, np.array([2, 0, 2]), axis=1), [dom(S, (2, 3))]),
    "gather": (lambda x: tf.gather(x, [1, 1, 0], axis=1) * 2.0, [dom(S, (3, 2))]),
    "einsum": (lambda a, b, c: np.einsum("ij,jk,kl->il", a, b, c) + np.einsum("ij,ij->i", a, a)[:, None],
               [dom(S, (2, 3)), dom(S, (3, 3)), dom(S, (3, 2))]),
    "einsum_four": (lambda a, b, c, d: np.einsum("i,ij,jk,k->", a, b, c, d), 
                    [dom(S, (2,)), dom(S, (2, 3)), dom(S, (3, 2)), dom(S, (2,))]),
}


def _inputs(case, seed):
    rng = np.random.default_rng(seed)
    out = []
    for kind, shape in CASES[case][1]:
        if kind == S:
            v = rng.uniform(-0.9, 0.9, shape)
            v = np.where(np.abs(v) < 0.1, 0.3, v)  # away from the kinks of abs/relu/sign
        elif kind == M:
            v = rng.uniform(0.2, 1.0, shape)
        else:
            v = rng.uniform(1.2, 2.0, shape)
        out.append(v)
    return out


def _run(fn, values):
    return fn(*[tf.constant(v) for v in values])


def _fd_jacobian(fn, values, i, eps=1e-6):
    out = np.asarray(_run(fn, values))
    rows = []
    for k in range(out.size):
        def scalar(xi, k=k):
            vs = list(values)
            vs[i] = xi
            return np.asarray(_run(fn, vs), dtype=np.float64).reshape(-1)[k]
        rows.append(numeric_grad(scalar, values[i], eps))
    return np.stack(rows).reshape(out.shape + values[i].shape)


@pytest.fixture
def spy(monkeypatch):
    """Records which batched rules ran and every fall-back to the per-row loop."""
    seen = {"rules": set(), "fallbacks": []}
    real_batched, real_stack = batching.batched_vjp, tape_module._stack_contributions

    def batched(vjp, *a, **k):
        seen["rules"].add(vjp)
        return real_batched(vjp, *a, **k)

    def stack(contribs, is_seq):
        seen["fallbacks"].append(len(contribs))
        return real_stack(contribs, is_seq)

    monkeypatch.setattr(batching, "batched_vjp", batched)
    monkeypatch.setattr(tape_module, "_stack_contributions", stack)
    return seen


def _check(case, spy, seed=0):
    fn = CASES[case][0]
    values = _inputs(case, seed)
    xs = [tf.constant(v) for v in values]
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(xs)
        y = fn(*xs)
    jac = tape.jacobian(y, xs)
    assert not spy["fallbacks"], f"{case}: the batched path fell back to the per-row loop"
    n = int(np.prod(y.shape))
    for i, x in enumerate(xs):
        assert jac[i] is not None, case
        assert jac[i].shape == tuple(y.shape) + tuple(x.shape)
        rows = []
        for k in range(n):
            seed_k = np.zeros(n)
            seed_k[k] = 1.0
            rows.append(tape.gradient(y, x, output_gradients=tf.constant(seed_k.reshape(y.shape))).numpy())
        loop = np.stack(rows).reshape(jac[i].shape)
        assert_close(jac[i].numpy(), loop, rtol=1e-12, atol=1e-12, what=f"{case}: batched vs loop, input {i}")
        eps, tol = (1e-2, 1e-3) if case == "cast" else (1e-6, 1e-6)  # float32 inside: coarser
        assert_close(jac[i].numpy(), _fd_jacobian(fn, values, i, eps), rtol=tol, atol=tol,
                     what=f"{case}: batched vs finite differences, input {i}")


@pytest.mark.parametrize("case", sorted(CASES))
def test_batched_rule_matches_loop_and_finite_differences(case, spy):
    _check(case, spy)


def test_every_batched_rule_has_a_case(spy):
    for case in CASES:
        spy["fallbacks"].clear()
        fn = CASES[case][0]
        xs = [tf.constant(v) for v in _inputs(case, 1)]
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = fn(*xs)
        tape.jacobian(y, xs)
    missing = sorted(f"{f.__module__}.{f.__name__}" for f in batching._BATCHED if f not in spy["rules"])
    assert not missing, f"batched rules no case exercises: {missing}"
