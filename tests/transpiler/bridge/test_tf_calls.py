"""``tf.*`` calls in transpiled code (transpiler/bridge/tf_calls.py and the twins in tf_twins/).

Every function below is TF-style code run two ways: as written, on the runtime's ops (``import
runtime as tf``), which is the reference -- its value, and central finite differences of it in
float64 -- and transpiled, where tf_calls.py writes each ``tf`` call as a numpy primitive or a
numpy twin.  The transpiled value must equal the runtime's, the reverse and forward derivatives
its finite differences, and (for scalar functions) the Hessian-vector product its mixed second
differences.  The runtime ops share no code with the twins, only the primitives' rules with the
aliases, and the finite differences share none with either derivative.
"""

import numpy as np
import pytest

import runtime as tf
import transpiler
from tests.fd import assert_close, numeric_jvp, numeric_vjp
from transpiler import TranspileError

RNG = np.random.default_rng(11)


def pos(*shape):
    """Positive values away from 0 (log, sqrt, rsqrt ...)."""
    return RNG.uniform(0.5, 1.5, shape)


def sym(*shape):
    """Values of both signs, away from 0 (kinks of relu, abs, ...)."""
    return RNG.choice([-1.0, 1.0], shape) * RNG.uniform(0.2, 1.2, shape)


def spd(n):
    a = RNG.uniform(-1, 1, (n, n))
    return a @ a.T + n * np.eye(n)


# --- the functions (Tangent's tf tests, then a sweep of common tf ops) ----------------------------

def matmul_t(a, b, ta, tb):
    return tf.matmul(a, b, transpose_a=ta, transpose_b=tb)


def matmul_adjoint(a, b):
    return tf.reduce_sum(tf.matmul(a, b, adjoint_a=True, transpose_b=True) ** 2)


def matmul_batched(a, b, ta):
    return tf.matmul(a, b, transpose_a=ta)


def reshape_shape(t):
    return tf.reshape(tf.reshape(t, (-1,)), tf.shape(t)) * t


def rsqrt(t):
    return tf.math.rsqrt(t)


def squared_difference(a, b):
    return tf.math.squared_difference(a, b)


def conv_same(x, k, strides):
    return tf.reduce_sum(tf.square(tf.nn.conv2d(x, k, strides, 'SAME')))


def conv_valid_dilated(x, k):
    return tf.nn.conv2d(x, k, 1, 'VALID', dilations=2)


def conv_strided(x, k):
    return tf.reduce_sum(tf.tanh(tf.nn.conv2d(x, k, [1, 2, 2, 1], 'SAME')))


def depthwise_same(x, k):
    return tf.reduce_sum(tf.square(tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], 'SAME')))


def depthwise_dilated(x, k):
    return tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], 'VALID', dilations=[2, 1])


def depthwise_strided(x, k):
    return tf.reduce_sum(tf.tanh(tf.nn.depthwise_conv2d(x, k, [1, 2, 2, 1], 'SAME')))


def separable(x, dk, pk):
    return tf.reduce_sum(tf.sin(tf.nn.separable_conv2d(x, dk, pk, [1, 1, 1, 1], 'SAME')))


def max_pool(x, sizes, strides):
    return tf.reduce_sum(tf.square(tf.nn.max_pool(x, sizes, strides, 'SAME')))


def max_pool2d_valid(x):
    return tf.nn.max_pool2d(x, 2, 1, 'VALID')


def avg_pool(x, sizes, strides):
    return tf.reduce_sum(tf.square(tf.nn.avg_pool(x, sizes, strides, 'SAME')))


def one_d(x, k):
    y = tf.nn.conv1d(x, k, 1, 'SAME') + tf.nn.conv1d(x, k, [1, 1, 1], 'SAME', dilations=1)
    return (tf.reduce_sum(tf.square(tf.nn.max_pool1d(y, 2, 1, 'SAME'))) + tf.reduce_sum(tf.nn.avg_pool1d(y, 3, 2, 'VALID'))
            + tf.reduce_sum(tf.tanh(tf.nn.conv1d(x, k, 2, 'VALID'))))


def avg_pool2d_valid(x):
    return tf.nn.avg_pool2d(x, [2, 3], [1, 2], 'VALID')


def reductions(x):
    return (tf.reduce_sum(x, axis=[0, 2]) + tf.reduce_mean(x, 1, keepdims=True)[0, 0, 0]
            + tf.reduce_max(x, axis=-1)[0] * tf.reduce_min(x) + tf.reduce_prod(x, axis=[1, 2])[1])


def reductions_stats(x):
    return (tf.math.reduce_variance(x, axis=0) + tf.math.reduce_std(x, [0], keepdims=True)[0]
            + tf.math.reduce_euclidean_norm(x, axis=0) + tf.reduce_logsumexp(x, axis=0))


def elementwise(x):
    return tf.square(x) + tf.exp(x) * tf.math.log(x) + tf.tanh(x) * tf.sigmoid(x) + tf.sqrt(x)


def activations(x):
    return (tf.nn.relu(x) + tf.nn.leaky_relu(x, alpha=0.1) + tf.nn.elu(x) + tf.nn.selu(x) + tf.nn.gelu(x)
            + tf.nn.silu(x) + tf.nn.relu6(3.0 * x) + tf.math.softplus(x) + tf.math.log_sigmoid(x)
            + tf.math.softsign(x) + tf.nn.gelu(x, approximate=True))


def softmaxes(x):
    return tf.nn.softmax(x) * tf.nn.log_softmax(x, axis=0) + tf.math.softmax(x, axis=0) + tf.nn.log_softmax(x)


def shapes(x):
    y = tf.transpose(tf.reshape(x, [2, 3, 2]), perm=[2, 0, 1])
    z = tf.squeeze(tf.expand_dims(y, 1), axis=1)
    w = tf.transpose(tf.transpose(z, conjugate=True), perm=np.array([2, 1, 0]))     # (a twin: not literals)
    return tf.concat([z, tf.stack([y[0], y[1]], axis=0) * 2.0], axis=0) * tf.concat([w, w], 0)


def tiles(x):
    return tf.tile(x, [2, 3]) * tf.broadcast_to(tf.reduce_sum(x), [4, 6])


def selecting(x, y):
    picked = tf.gather(x, [2, 0, 1], axis=1) + tf.gather(y, [1, 1, 0])
    clipped = tf.clip_by_value(picked, 0.0, 0.8)
    return tf.where(x > 0, clipped, tf.maximum(x, y) * tf.minimum(x, y))


def creation(x):
    c = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=tf.float64)
    return (x * c + tf.zeros_like(x) + tf.ones_like(x) * tf.cast(tf.shape(x)[0], tf.float64)
            + tf.convert_to_tensor(x) * tf.constant(2.0, dtype=tf.float64, shape=[2, 3]))


def casts(x):
    return tf.cast(x, tf.float64) * tf.cast(tf.cast(x, tf.int32), tf.float64) + tf.cast(x, 'float64') ** 2


def einsums(a, b):
    return tf.einsum('ij,jk->ik', a, b) + tf.tensordot(a, b, axes=1) + tf.tensordot(a, b, [[1], [0]])


def sums(a, b):
    return tf.add_n([a, b, a * b]) + tf.math.cumsum(a, axis=1, exclusive=True, reverse=True) \
        + tf.math.cumprod(b, axis=0, exclusive=True) + tf.reverse(a, [1]) + tf.math.scalar_mul(2.0, b)


def padded(x):
    return tf.pad(x, [[1, 0], [0, 2]]) * 3.0 + tf.pad(x, [[0, 1], [2, 0]], constant_values=1.0)


def padded_numpy(x):
    """The reference for ``padded`` (the runtime's tf.pad adds constant_values inside the region too)."""
    return np.pad(x, [[1, 0], [0, 2]]) * 3.0 + np.pad(x, [[0, 1], [2, 0]], constant_values=1.0)


def safe_math(x, y):
    return (tf.math.xlogy(x, y) + tf.math.xdivy(x, y) + tf.math.divide_no_nan(x, y)
            + tf.math.reciprocal_no_nan(y) + tf.math.lgamma(y) + tf.math.digamma(y)
            + tf.math.bessel_i0e(x) + tf.math.bessel_i1e(x) + tf.math.erf(x) + tf.math.polygamma(1.0, y))


def linalg(a, b):
    s = tf.matmul(a, a, transpose_b=True) + 4.0 * tf.eye(3, dtype=tf.float64)
    return (tf.reduce_sum(tf.linalg.solve(s, b)) + tf.linalg.trace(s) * tf.linalg.logdet(s)
            + tf.reduce_sum(tf.linalg.inv(s, adjoint=True) * tf.linalg.matrix_transpose(a))
            + tf.linalg.det(s) + tf.reduce_sum(tf.linalg.matvec(a, b[:, 0], transpose_a=True))
            + tf.reduce_sum(tf.linalg.diag_part(a) * tf.linalg.diag(b[:, 1])[0])
            + tf.reduce_sum(tf.linalg.cholesky(s)))


def norms(x):
    return (tf.norm(x) + tf.reduce_sum(tf.norm(x, ord=1, axis=1)) * tf.norm(x, ord=np.inf, axis=0)[0]
            + tf.norm(x, ord=3, axis=0, keepdims=True)[0, 1] + tf.reduce_sum(tf.math.l2_normalize(x, axis=1)))


def losses(logits, labels):
    return tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(labels, logits)
                         + tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)[:, 0]
                         + tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 0], logits=logits)
                         + tf.nn.l2_loss(logits))


def layers(x, w, b):
    mean, var = tf.nn.moments(x, axes=[0])
    y = tf.nn.batch_normalization(x, mean, var, offset=b, scale=w, variance_epsilon=1e-3)
    return tf.nn.bias_add(y, b) + tf.nn.embedding_lookup(tf.reshape(x, [4, 3]), [1, 1, 0, 2])


def creation_more(x, s):
    hot = tf.one_hot([0, 2], 3, dtype=tf.float64)
    picked = tf.one_hot([1, 0], 3, on_value=s, off_value=-s)
    count = tf.cast(tf.shape(tf.where(x > 0))[0], tf.float64)
    return (x * hot + picked * x + tf.fill([2, 3], s) * tf.cast(tf.range(3), tf.float64) * count
            + tf.linspace(s, 2.0 * s, 3) * x + tf.zeros([2, 3], tf.float64) + tf.eye(2, 3, dtype=tf.float64) * x)


def rearranging(x):
    a, b = tf.split(x, [1, -1], axis=1)
    c, d, e = tf.split(x, 3, axis=0)
    rows = tf.unstack(x, axis=0)
    values, idx = tf.math.top_k(x, k=2)
    return (tf.reduce_sum(a * b) + tf.reduce_sum(c * d * e) + tf.reduce_sum(rows[1] * rows[2] * rows[0])
            + tf.reduce_sum(tf.sort(x, direction='DESCENDING') * tf.cast(tf.range(4), tf.float64))
            + tf.reduce_sum(tf.sort(x, axis=0) * x) + tf.reduce_sum(values * tf.cast(idx, tf.float64))
            + tf.reduce_sum(tf.boolean_mask(x, [True, False, True]) ** 2) + tf.reduce_sum(tf.gather_nd(x, [[0, 1], [2, 3]]) ** 3)
            + tf.reduce_sum(tf.roll(x, 1, axis=1) * x) + tf.reduce_sum(tf.repeat(x, 2, axis=0) ** 2))


def decompositions(a, b):
    s, u, v = tf.linalg.svd(a)
    q, r = tf.linalg.qr(a)
    return (tf.reduce_sum(s) + tf.reduce_sum(tf.matmul(u[:, :1], v[:, :1], transpose_b=True) * b)
            + tf.reduce_sum(tf.abs(tf.linalg.diag_part(r))) + tf.reduce_sum(tf.matmul(q, r) * b)
            + tf.reduce_sum(tf.linalg.pinv(a) * tf.transpose(b)) + tf.reduce_sum(tf.linalg.lstsq(a, b[:, :2]))
            + tf.reduce_sum(tf.linalg.lstsq(a, b[:, :2], l2_regularizer=0.5))
            + tf.reduce_sum(tf.linalg.band_part(a, 1, 0) * b) + tf.reduce_sum(tf.linalg.svd(a, compute_uv=False) ** 2)
            + tf.reduce_sum(tf.slice(a, [1, 0], [2, -1]) * tf.slice(b, [0, 1], [2, 2])[:, :1])
            + tf.reduce_sum(tf.linalg.triangular_solve(tf.matmul(a, a, adjoint_a=True) + 3.0 * tf.eye(3, dtype=tf.float64), b[:3])
                            * tf.linalg.triangular_solve(tf.linalg.adjoint(a[:3]) + 3.0 * tf.eye(3, dtype=tf.float64),
                                                         b[1:], lower=False, adjoint=True)))


def more_math(x, y):
    ids = [0, 0, 2]
    return (tf.reduce_sum(tf.math.multiply_no_nan(x, y)) + tf.reduce_sum(tf.saturate_cast(x, tf.float64))
            + tf.reduce_sum(tf.clip_by_norm(x, 1.0, axes=[1])) + tf.reduce_sum(tf.clip_by_norm(y, 100.0))
            + tf.reduce_sum(tf.math.xlog1py(x, y)) + tf.reduce_sum(tf.cast(tf.truncatediv(3, 2), tf.float64) * x)
            + tf.reduce_sum(tf.math.unsorted_segment_sum(x, ids, 4) ** 2) + tf.reduce_sum(tf.math.segment_sum(y, ids) ** 2)
            + tf.reduce_sum(tf.math.unsorted_segment_mean(x, ids, 4) ** 2) + tf.reduce_sum(tf.math.segment_mean(y, ids) ** 3))


def more_losses(logits, labels):
    per_example = tf.reduce_sum(tf.nn.weighted_cross_entropy_with_logits(labels, logits, pos_weight=1.5), axis=1)
    return (tf.nn.compute_average_loss(per_example) + tf.nn.compute_average_loss(per_example, sample_weight=[0.3, 0.7],
                                                                                  global_batch_size=4))


CASES = [
    # fn, args, wrt, hvp (scalar output: Hessian-vector product against second differences)
    (matmul_t, lambda: (pos(3, 4), pos(3, 4), True, False), (0, 1), False),
    (matmul_t, lambda: (pos(4, 3), pos(4, 3), False, True), (0, 1), False),
    (matmul_t, lambda: (pos(4, 3), pos(3, 4), True, True), (0, 1), False),
    (matmul_adjoint, lambda: (pos(3, 2), pos(4, 3)), (0, 1), True),
    (matmul_batched, lambda: (pos(2, 3, 4), pos(2, 3, 5), True), (0, 1), False),
    (reshape_shape, lambda: (pos(3, 4),), (0,), False),
    (rsqrt, lambda: (pos(3, 4),), (0,), False),
    (squared_difference, lambda: (pos(3, 4), pos(3, 4)), (0, 1), False),
    (conv_same, lambda: (sym(2, 5, 5, 3), sym(3, 3, 3, 2), [1, 1, 1, 1]), (0, 1), True),
    (conv_valid_dilated, lambda: (sym(1, 6, 5, 2), sym(2, 2, 2, 3)), (0, 1), False),
    (conv_strided, lambda: (sym(1, 5, 4, 2), sym(3, 2, 2, 2)), (0, 1), True),
    (depthwise_same, lambda: (sym(2, 5, 4, 3), sym(3, 3, 3, 2)), (0, 1), True),
    (depthwise_dilated, lambda: (sym(1, 6, 5, 2), sym(2, 2, 2, 1)), (0, 1), False),
    (depthwise_strided, lambda: (sym(1, 5, 4, 2), sym(3, 2, 2, 3)), (0, 1), True),
    (separable, lambda: (sym(1, 4, 4, 2), sym(2, 2, 2, 2), sym(1, 1, 4, 3)), (0, 1, 2), True),
    (max_pool, lambda: (sym(2, 5, 5, 3), [1, 2, 2, 1], [1, 1, 1, 1]), (0,), True),
    (max_pool2d_valid, lambda: (sym(1, 4, 5, 2),), (0,), False),
    (avg_pool, lambda: (sym(2, 5, 5, 3), [1, 2, 2, 1], [1, 2, 2, 1]), (0,), True),
    (avg_pool2d_valid, lambda: (sym(1, 4, 7, 2),), (0,), False),
    (one_d, lambda: (sym(2, 7, 3), sym(3, 3, 2)), (0, 1), True),
    (reductions, lambda: (pos(3, 4, 2),), (0,), False),
    (reductions_stats, lambda: (pos(3, 4),), (0,), False),
    (elementwise, lambda: (pos(3, 4),), (0,), False),
    (activations, lambda: (sym(3, 4),), (0,), False),
    (softmaxes, lambda: (sym(3, 4),), (0,), False),
    (shapes, lambda: (sym(3, 4),), (0,), False),
    (tiles, lambda: (sym(2, 2),), (0,), False),
    (selecting, lambda: (sym(3, 3), sym(3, 3)), (0, 1), False),
    (creation, lambda: (pos(2, 3),), (0,), False),
    (casts, lambda: (RNG.uniform(1.1, 1.9, (2, 3)),), (0,), False),
    (einsums, lambda: (sym(2, 3), sym(3, 4)), (0, 1), False),
    (sums, lambda: (pos(3, 3), pos(3, 3)), (0, 1), False),
    (padded, lambda: (sym(2, 3),), (0,), False),
    (safe_math, lambda: (np.array([0.3, 0.7, -0.4, 1.3]), pos(4)), (0, 1), False),
    (linalg, lambda: (sym(3, 3), sym(3, 2)), (0, 1), True),
    (norms, lambda: (sym(3, 4),), (0,), True),
    (losses, lambda: (sym(2, 3), np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])), (0,), True),
    (layers, lambda: (sym(4, 3), pos(3), sym(3)), (0, 1, 2), False),
    (creation_more, lambda: (sym(2, 3), sym()), (0, 1), False),
    (rearranging, lambda: (sym(3, 4),), (0,), False),     # second order through a list: see docs/transpiler/tf-calls.md
    (decompositions, lambda: (sym(4, 3), sym(4, 3)), (0, 1), False),
    (more_math, lambda: (sym(3, 2), np.array([[0.3, 0.0], [0.5, 1.2], [0.0, 0.8]])), (0, 1), True),
    (more_losses, lambda: (sym(2, 3), np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]])), (0, 1), True),
]
IDS = [f"{c[0].__name__}-{i}" for i, c in enumerate(CASES)]


NUMPY_REFERENCE = {padded: padded_numpy}


def reference(f):
    """``f`` run on the runtime's ops (or its numpy reference), as float64 numpy."""
    f_ref = NUMPY_REFERENCE.get(f, f)
    return lambda *args: np.asarray(f_ref(*args), dtype=np.float64)


@pytest.fixture(params=range(len(CASES)), ids=IDS)
def case(request):
    f, make, wrt, _ = CASES[request.param]
    return f, list(make()), wrt


def test_value_and_reverse(case):
    f, args, wrt = case
    want = reference(f)(*args)
    value, pull = transpiler.vjp(f, *args, wrt=wrt)
    assert_close(value, want, 1e-12, 1e-12, what=f"{f.__name__} value")
    seed = RNG.uniform(0.5, 1.5, np.shape(want))
    got = pull(seed)
    got = got if isinstance(got, tuple) else (got,)
    for w, g in zip(wrt, got):
        assert_close(g, numeric_vjp(reference(f), args, w, seed), what=f"{f.__name__} d/d arg {w}")


def test_forward(case):
    f, args, wrt = case
    tangents = [RNG.uniform(-1, 1, np.shape(args[w])) for w in wrt]
    _, got = transpiler.jvp(f, tuple(args), tuple(tangents), wrt=wrt)

    def along(*moved):
        full = list(args)
        for w, m in zip(wrt, moved):
            full[w] = m
        return reference(f)(*full)
    want = numeric_jvp(along, [args[w] for w in wrt], tangents)
    assert_close(got, want, what=f"{f.__name__} forward")


SCALAR = [i for i, c in enumerate(CASES) if c[3]]


@pytest.mark.parametrize("index", SCALAR, ids=[IDS[i] for i in SCALAR])
def test_hvp(index):
    """u . H v against the mixed second difference of the runtime's value, for two directions u."""
    f, make, _, _ = CASES[index]
    args = list(make())
    ref = reference(f)
    v = RNG.uniform(-1, 1, np.shape(args[0]))
    hv = transpiler.hvp(f, tuple(args), v, wrt=0)
    h = 1e-4
    for _ in range(2):
        u = RNG.uniform(-1, 1, np.shape(args[0]))

        def at(a, b):
            return float(ref(args[0] + a * h * u + b * h * v, *args[1:]))
        want = (at(1, 1) - at(1, -1) - at(-1, 1) + at(-1, -1)) / (4 * h * h)
        assert_close(np.sum(u * hv), want, 1e-5, 1e-6, what=f"{f.__name__} hvp")


def test_twin_is_readable_code():
    """A composed tf call is a call of its numpy twin, differentiated as a callee in the generated module."""
    source = transpiler.grad(rsqrt).source
    assert "fwd_rsqrt" in source and "np.sqrt" in source and "runtime.ops.math_ops" not in source


# --- refusals: located, naming the real function and what to write instead ------------------------

def uses_dropout(x):
    return tf.reduce_sum(tf.nn.dropout(x, 0.5))


def gathers_batched(x):
    return tf.reduce_sum(tf.gather(x, [[0], [1]], axis=1, batch_dims=1))


def sparse_matmul(a):
    return tf.reduce_sum(tf.matmul(a, a, a_is_sparse=True))


def global_norms(x):
    return tf.linalg.global_norm([x, 2.0 * x])


def norm_matrix_ord(x):
    return tf.norm(x, ord=1, axis=[0, 1])


@pytest.mark.parametrize("f, words", [
    (uses_dropout, ["tf.nn.dropout", "mask"]),
    (gathers_batched, ["tf.gather", "batch_dims"]),
    (sparse_matmul, ["tf.matmul", "a_is_sparse"]),
    (global_norms, ["tf.linalg.global_norm", "np.sqrt(sum(np.sum(t * t)"]),
])
def test_refused_with_a_located_message(f, words):
    with pytest.raises(TranspileError) as err:
        transpiler.grad(f)(sym(2, 2))
    message = str(err.value)
    assert "test_tf_calls.py:" in message and f.__name__ not in words
    for word in words:
        assert word in message, message


def test_matrix_norm_orders_raise_rather_than_compute_a_vector_norm():
    with pytest.raises(ValueError, match="ord='euclidean'"):
        transpiler.grad(norm_matrix_ord)(sym(2, 2))


# --- values the finite differences above cannot reach -------------------------------------------

def axes_in_a_variable(x, axes, keep):
    return tf.reduce_sum(x, axes, keep) * tf.reduce_max(x, axis=axes) + tf.reduce_logsumexp(x, axes)


@pytest.mark.parametrize("axes", [[0, 2], np.array([0, 2]), 1, (1,)])
def test_axes_held_in_a_variable_are_read_when_the_code_runs(axes):
    """numpy takes no list of axes: a name standing for one goes through tf_twins/ops.axis_ (a twin)."""
    x = pos(2, 3, 4)
    for keep in (False, True):
        def ref(x):
            return reference(axes_in_a_variable)(x, axes, keep)
        g = transpiler.grad(axes_in_a_variable)(x, axes, keep)
        assert_close(g, numeric_vjp(ref, [x], 0, np.ones(np.shape(ref(x)))), what=f"{axes} {keep}")
        _, d = transpiler.jvp(axes_in_a_variable, (x, axes, keep), (x,), wrt=0)
        assert_close(d, numeric_jvp(ref, [x], [x]), what=f"{axes} {keep} forward")


def test_safe_divisions_at_zero_match_the_runtime():
    """At x == 0 (or y == 0) xlogy, xdivy, divide_no_nan, reciprocal_no_nan give 0, as TF does."""
    x, y = np.array([0.0, 0.0, 0.5]), np.array([0.0, 2.0, 0.0])
    value = transpiler.value_and_grad(safe_zero, wrt=(0, 1))(x, y)[0]
    assert_close(value, reference(safe_zero)(x, y), 0, 0)     # 0 where x == 0 (nan at x=0.5, y=0: 0.5 log 0)


def safe_zero(x, y):
    return tf.math.xlogy(x, y) + tf.math.xdivy(x, y) + tf.math.divide_no_nan(x, y) + tf.math.reciprocal_no_nan(y)


# --- inside a GradientTape: the generated code runs on tensors (transpiler/interop.py) ------------

def tensors_plain(x, k):
    y = tf.nn.conv2d(x, k, 1, 'SAME')
    z = tf.nn.max_pool(y, 2, 1, 'SAME') + tf.nn.avg_pool2d(y, 2, 1, 'SAME') * tf.cast(tf.shape(y)[1], tf.float64)
    return (tf.reduce_sum(tf.square(z)) + tf.reduce_sum(tf.matmul(x[0, 0], x[0, 1], transpose_a=True))
            + tf.reduce_sum(tf.cast(x, tf.float64) * tf.math.rsqrt(x * x + 1.0)) + tf.reduce_sum(tf.nn.softmax(x))
            + tf.reduce_sum(tf.gather(x, [1, 0], axis=3) * tf.constant(2.0, dtype=tf.float64)))


on_tensors = transpiler.differentiate(tensors_plain, wrt=(0, 1))


def test_twins_run_on_tensors_inside_a_gradient_tape():
    """The transpiled gradient (not op-by-op recording: the source builds) recorded as one op."""
    assert "fwd_conv2d" in on_tensors.source
    x, k = sym(1, 3, 3, 3), sym(2, 2, 3, 2)
    xt, kt = tf.constant(x), tf.constant(k)
    with tf.GradientTape() as tape:
        tape.watch([xt, kt])
        out = on_tensors(xt, kt)
    gx, gk = tape.gradient(out, [xt, kt])
    ref = reference(tensors_plain)
    assert_close(gx, numeric_vjp(ref, [x, k], 0, 1.0), what="tape d/dx")
    assert_close(gk, numeric_vjp(ref, [x, k], 1, 1.0), what="tape d/dk")


def constant_of_x(x):
    return tf.reduce_sum(tf.constant(x) * 2.0)


def test_tf_constant_is_a_constant_and_the_warning_names_it():
    """As the runtime's tf.constant (whose tape gradient is None), it cuts the gradient, like
    tf.stop_gradient; the zero-gradient warning says where."""
    with pytest.warns(transpiler.ZeroGradientWarning, match=r"`tf.constant\(\)` at .*test_tf_calls.py"):
        g = transpiler.grad(constant_of_x)(np.array([1.0, 2.0]))
    assert_close(g, np.zeros(2), 0, 0)
    xt = tf.constant(np.array([1.0, 2.0]))
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = constant_of_x(xt)
    assert tape.gradient(y, xt) is None


# --- the documentation's example (docs/transpiler/tf-calls.md) ------------------------------------

def loss(images, kernel):
    feature = tf.nn.relu(tf.nn.conv2d(images, kernel, strides=1, padding="SAME"))
    pooled = tf.nn.max_pool2d(feature, ksize=2, strides=2, padding="VALID")
    return tf.reduce_mean(tf.math.squared_difference(pooled, 1.0))


def test_docs_example():
    import pathlib
    section = (pathlib.Path(__file__).resolve().parents[3] / "docs" / "transpiler" / "tf-calls.md").read_text(
        encoding="utf-8")
    differentiated = transpiler.differentiate(loss, wrt=(0, 1))
    body = section[section.index("def dlossdimages_kernel"):section.index("    ...\n")]
    assert body in differentiated.source
    images, kernel = sym(2, 4, 4, 3), sym(3, 3, 3, 2)
    gi, gk = differentiated.grad(images, kernel)
    assert_close(gi, numeric_vjp(reference(loss), [images, kernel], 0, 1.0), what="d images")
    assert_close(gk, numeric_vjp(reference(loss), [images, kernel], 1, 1.0), what="d kernel")
