"""np.linalg rules (runtime/rules/linalg/) against finite differences of numpy itself.

Inputs are well conditioned: square matrices are shifted away from singular, symmetric ones
get well-separated eigenvalues, matrices for the SVD well-separated singular values.  The
degenerate cases (repeated eigenvalues / singular values, non-symmetric eig, full_matrices)
are refusals, tested as such.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import runtime as tf
from runtime.rules import linalg as L
from runtime.rules.fft import real_part
from tests.fd import assert_close, numeric_grad, numeric_jvp
from tests.runtime.rules.linalg_check import check_packed, check_second_order, check_tuple_jvp, check_tuple_vjp
from tests.runtime.rules.rules_check import check_jvp, check_vjp, seeds

batches = st.sampled_from([(), (2,)])
sides = st.integers(1, 4)


def square(rng, batch, n):
    return rng.standard_normal(batch + (n, n)) + 3 * np.eye(n)


def spd(rng, batch, n):
    a = rng.standard_normal(batch + (n, n))
    return np.matmul(a, np.swapaxes(a, -1, -2)) + n * np.eye(n)


def with_spectrum(rng, batch, m, n, values):
    """An m x n matrix (batch) with singular values (or, square and symmetric, eigenvalues) ``values``."""
    q1 = np.linalg.qr(rng.standard_normal(batch + (m, m)))[0]
    q2 = np.linalg.qr(rng.standard_normal(batch + (n, n)))[0]
    k = min(m, n)
    middle = np.zeros(batch + (m, n))
    middle[..., np.arange(k), np.arange(k)] = values
    if m == n and values is not None and np.any(np.asarray(values) < 0):
        return np.matmul(np.matmul(q1, middle), np.swapaxes(q1, -1, -2))
    return np.matmul(np.matmul(q1, middle), np.swapaxes(q2, -1, -2))


def spread(rng, k, lo=1.0):
    """k well-separated values (gaps >= 0.5) in random order, with random signs when ``signed``."""
    return lo + np.arange(k) * 0.7 + rng.uniform(0, 0.2, size=k)


def symmetric(rng, batch, n, w=None):
    """A symmetric matrix with eigenvalues ``w`` (default: well separated, some negative)."""
    w = spread(rng, n, lo=-1.5) if w is None else w
    q = np.linalg.qr(rng.standard_normal(batch + (n, n)))[0]
    return np.matmul(q * w, np.swapaxes(q, -1, -2))


# --- single-output functions ---------------------------------------------------------------------

@given(batch=batches, n=sides, seed=seeds)
def test_inv_det_logabsdet(batch, n, seed):
    rng = np.random.default_rng(seed)
    a = square(rng, batch, n)
    for fn in (np.linalg.inv, np.linalg.det, L.logabsdet):
        check_vjp(fn, [a], rng=rng)
        check_jvp(fn, [a], rng=rng)


@given(batch=batches, n=sides, k=st.sampled_from([None, 1, 3]), seed=seeds)
def test_solve(batch, n, k, seed):
    rng = np.random.default_rng(seed)
    a = square(rng, batch, n)
    b = rng.standard_normal((n,) if k is None else batch + (n, k))
    for i in (0, 1):
        check_vjp(np.linalg.solve, [a, b], i, rng=rng)
        check_jvp(np.linalg.solve, [a, b], i, rng=rng)


@given(batch=batches, m=sides, n=sides, hermitian=st.booleans(), seed=seeds)
def test_pinv(batch, m, n, hermitian, seed):
    rng = np.random.default_rng(seed)
    if hermitian:
        # eigenvalues at least 0.5 from zero: near zero, pinv's entries reach 1e6 and FD loses digits
        values = spread(rng, n, lo=0.5) * rng.choice([-1.0, 1.0], size=n)
        # noise in the upper triangle, which hermitian=True ignores (eigh reads the lower one)
        a = symmetric(rng, batch, n, values) + rng.standard_normal(batch + (n, n)) * np.triu(np.ones((n, n)), 1)
    else:
        a = with_spectrum(rng, batch, m, n, spread(rng, min(m, n)))
    kw = {"hermitian": hermitian}
    check_vjp(np.linalg.pinv, [a], kwargs=kw, rng=rng)
    check_jvp(np.linalg.pinv, [a], kwargs=kw, rng=rng)


@given(batch=batches, n=sides, seed=seeds)
def test_cholesky_with_symmetric_perturbations(batch, n, seed):
    """TensorFlow's convention: the gradient is symmetric, so compare along symmetric directions."""
    rng = np.random.default_rng(seed)
    a = spd(rng, batch, n)
    g = rng.standard_normal(np.shape(a))
    got = L.cholesky_vjp(g, np.linalg.cholesky(a), a)
    e = rng.standard_normal(np.shape(a))
    e = e + np.swapaxes(e, -1, -2)
    want = numeric_jvp(lambda x: np.sum(np.linalg.cholesky(x) * g), [a], [e])
    assert_close(np.sum(got * e), want, 1e-5, 1e-6, what="cholesky vjp . symmetric direction")
    t = L.cholesky_jvp(e, np.linalg.cholesky(a), a)
    assert_close(t, numeric_jvp(np.linalg.cholesky, [a], [e]), 1e-5, 1e-6, what="cholesky jvp")


@given(batch=batches, n=sides, uplo=st.sampled_from(["L", "U"]), seed=seeds)
def test_eigvalsh_reads_one_triangle(batch, n, uplo, seed):
    rng = np.random.default_rng(seed)
    a = symmetric(rng, batch, n) + rng.standard_normal(batch + (n, n)) * 0.1   # the other half is ignored
    a = np.where(np.tril(np.ones((n, n)), -1 if uplo == "U" else 0) if uplo == "L" else
                 np.triu(np.ones((n, n))) > 0, symmetric(rng, batch, n), a)
    check_vjp(np.linalg.eigvalsh, [a], kwargs={"UPLO": uplo}, rng=rng)
    check_jvp(np.linalg.eigvalsh, [a], kwargs={"UPLO": uplo}, rng=rng)


@pytest.mark.parametrize("ord", [None, 2, 1, np.inf, -np.inf, 0, 3, 0.5, -1, -2.5])
@given(shape=st.sampled_from([(4,), (3, 4), (2, 3, 2)]), keepdims=st.booleans(), seed=seeds)
def test_vector_norms(ord, shape, keepdims, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.5, 2.0, size=shape) * rng.choice([-1, 1], size=shape)
    axis = None if len(shape) == 1 else int(rng.integers(-len(shape), len(shape)))
    if ord is None and axis is not None and rng.random() < 0.3:
        axis = None             # the 2-norm of everything, any rank
    kw = {"ord": ord, "axis": axis, "keepdims": keepdims}
    check_vjp(np.linalg.norm, [x], kwargs=kw, rng=rng)
    check_jvp(np.linalg.norm, [x], kwargs=kw, rng=rng)


@pytest.mark.parametrize("ord", [None, "fro", "nuc", 2, -2, 1, -1, np.inf, -np.inf])
@given(shape=st.sampled_from([(3, 3), (4, 2), (2, 3, 4)]), keepdims=st.booleans(), seed=seeds)
def test_matrix_norms(ord, shape, keepdims, seed):
    rng = np.random.default_rng(seed)
    if len(shape) == 2:
        x, axis = with_spectrum(rng, (), *shape, spread(rng, min(shape))), None
    else:
        axis = ((0, 2), (2, 1), (-1, -3))[int(rng.integers(3))]
        x = np.moveaxis(with_spectrum(rng, (shape[1],), shape[0], shape[2], spread(rng, 2)), 0, 1)
    x = x + rng.uniform(-0.05, 0.05, size=x.shape)          # breaks ties in the 1- and inf-norms
    kw = {"ord": ord, "axis": axis, "keepdims": keepdims}
    check_vjp(np.linalg.norm, [x], kwargs=kw, rng=rng)
    check_jvp(np.linalg.norm, [x], kwargs=kw, rng=rng)


def test_norm_ties_split_evenly_and_zero_vector_is_nan():
    g = L.norm_vjp(1.0, 2.0, np.array([2.0, -2.0, 1.0]), ord=np.inf)
    assert_close(g, [0.5, -0.5, 0.0], what="tied inf-norm")
    with np.errstate(invalid="ignore"):
        assert np.all(np.isnan(L.norm_vjp(1.0, 0.0, np.zeros(3))))
    x = tf.Variable(np.zeros(3))
    with tf.GradientTape() as tape:
        y = np.linalg.norm(x)
    with np.errstate(invalid="ignore"):
        assert np.all(np.isnan(tape.gradient(y, x).numpy()))     # TF-BEHAVIOUR.md: NaN at zero


@given(batch=batches, n=sides, power=st.integers(-3, 4), seed=seeds)
def test_matrix_power(batch, n, power, seed):
    rng = np.random.default_rng(seed)
    # I plus a perturbation of spectral norm about 2/3: invertible and well conditioned, so the
    # finite differences of negative powers stay accurate (square(...) / 3 could be near singular)
    a = np.eye(n) + rng.standard_normal(batch + (n, n)) / (3 * np.sqrt(n))
    check_vjp(np.linalg.matrix_power, [a, power], rng=rng)
    check_jvp(np.linalg.matrix_power, [a, power], rng=rng)


def chain(rng, k, vec_first, vec_last):
    """k matrices that chain, the first a vector (a row) or the last a vector (a column) if asked."""
    dims = list(rng.integers(1, 4, size=k + 1))
    arrays = [rng.standard_normal((dims[i], dims[i + 1])) for i in range(k)]
    if vec_first:
        arrays[0] = arrays[0][0]
    if vec_last:
        arrays[-1] = arrays[-1][:, 0]
    return arrays


@given(k=st.integers(2, 4), vec_first=st.booleans(), vec_last=st.booleans(), seed=seeds)
def test_multi_dot(k, vec_first, vec_last, seed):
    rng = np.random.default_rng(seed)
    arrays = chain(rng, k, vec_first, vec_last)
    ans = np.linalg.multi_dot(arrays)
    g = rng.standard_normal(np.shape(ans))
    got = L.multi_dot_vjp(g, ans, arrays)
    ts = [rng.standard_normal(np.shape(a)) for a in arrays]
    for i in range(k):
        def f(x, i=i):
            return np.linalg.multi_dot([x if j == i else a for j, a in enumerate(arrays)])
        assert_close(got[i], numeric_grad(lambda x: np.sum(f(x) * g), arrays[i]), what=f"multi_dot vjp {i}")
    want = numeric_jvp(lambda *xs: np.linalg.multi_dot(list(xs)), arrays, ts)
    assert_close(L.multi_dot_jvp(ts, ans, arrays), want, what="multi_dot jvp")


@given(k=st.integers(2, 4), vec_first=st.booleans(), vec_last=st.booleans(), seed=seeds)
def test_multi_dot_vjp_rules(k, vec_first, vec_last, seed):
    """multi_dot_vjp's own rules (what second order meets) against finite differences of
    multi_dot_vjp, which test_multi_dot checks against multi_dot."""
    from runtime.rules.linalg import products as P
    rng = np.random.default_rng(seed)
    arrays = chain(rng, k, vec_first, vec_last)
    ans = np.linalg.multi_dot(arrays)
    g, tg = rng.standard_normal(np.shape(ans)), rng.standard_normal(np.shape(ans))
    hs = tuple(rng.standard_normal(np.shape(a)) for a in arrays)     # the cotangent of the tuple
    ts = [rng.standard_normal(np.shape(a)) for a in arrays]

    def phi(g, arrays):
        return sum(np.sum(h * p) for h, p in zip(hs, L.multi_dot_vjp(g, None, arrays)))
    assert_close(P.multi_dot_vjp_vjp_g(hs, None, g, ans, arrays), numeric_grad(lambda x: phi(x, arrays), g),
                 what="vjp in g")
    got = P.multi_dot_vjp_vjp_arrays(hs, None, g, ans, arrays)
    for j in range(k):
        want = numeric_grad(lambda x, j=j: phi(g, [x if i == j else a for i, a in enumerate(arrays)]), arrays[j])
        assert_close(got[j], want, what=f"vjp in matrix {j}")
    along_g = P.multi_dot_vjp_jvp_g(tg, None, g, ans, arrays)
    along_arrays = P.multi_dot_vjp_jvp_arrays(ts, None, g, ans, arrays)
    for i in range(k):
        assert_close(along_g[i], numeric_jvp(lambda x, i=i: L.multi_dot_vjp(x, None, arrays)[i], [g], [tg]),
                     what=f"jvp in g, item {i}")
        want = numeric_jvp(lambda *xs, i=i: L.multi_dot_vjp(g, None, list(xs))[i], arrays, ts)
        assert_close(along_arrays[i], want, what=f"jvp in the matrices, item {i}")



CONTRACTIONS = [   # (subscripts, meta, shapes of args): every target kind, substitutions, a diagonal
    ("ij,jk->ik", (0, None, ()), [(2, 3), (3, 2)]),
    ("ij,jk->ik", (1, None, ((1, 0),)), [(3, 2), (2, 3), (3, 2)]),
    ("ij,jk->ik", (1, ("adjoint", 0, 0), ()), [(2, 2), (2, 3), (3, 2)]),
    ("ii,ij->j", (2, ("adjoint", 0, 1), ((1, 0),)), [(3, 2), (2,), (3, 3), (3, 2)]),
    ("ij,j,jk->k", (2, ("adjoint", 2, 0), ((0, 1),)), [(2,), (4, 3), (4, 3), (3,), (3, 2)]),
    ("ij,jk->ik", (0, ("zeros", 1), ()), [(2, 3), (3, 2)]),
    ("ij,jk->ik", (1, ("times_zero", (0, None, ())), ()), [(2, 3), (2, 3), (3, 2)]),
]


@pytest.mark.parametrize("subscripts, meta, shapes", CONTRACTIONS, ids=[str(c[1]) for c in CONTRACTIONS])
def test_contraction_rules(subscripts, meta, shapes):
    """contraction's rules for every array argument (vjp_meta/jvp_meta's bookkeeping) against finite
    differences of contraction; the registry sample and the third-order tests run them again."""
    from runtime.rules.linalg.einsum_higher import contraction
    rng = np.random.default_rng(24)
    args = [subscripts, meta] + [rng.standard_normal(s) for s in shapes]
    for p in range(2, len(args)):
        check_vjp(contraction, args, p, rng=rng)
        check_jvp(contraction, args, p, rng=rng)


W3 = np.random.default_rng(23).standard_normal(3)


def chained(x):
    """multi_dots whose matrices all move with x (a 1-d last and a 1-d first one): every cross
    term of the Hessian."""
    return np.sum(np.linalg.multi_dot([x, np.sin(x).T, x * 2.0, x[:, 0]]) ** 2) \
        + np.sum(np.linalg.multi_dot([x[0], np.cos(x), x]) * W3)


def test_multi_dot_second_order_in_both_halves():
    """Hessian-vector products of ``chained`` against finite differences of finite differences of
    it: the transpiler's hvp (forward over reverse: the JVP rules of multi_dot_vjp) and grad of
    grad (reverse over reverse: its VJP rules), nested tapes and a forward accumulator over a tape."""
    from transpiler import grad, hvp
    rng = np.random.default_rng(22)
    x0, v = rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    eps = 1e-4

    def fd_hvp(v):
        return (numeric_grad(chained, x0 + eps * v, 1e-5) - numeric_grad(chained, x0 - eps * v, 1e-5)) / (2 * eps)
    want = fd_hvp(v)
    assert_close(hvp(chained, x0, v), want, 1e-4, 1e-4, what="transpiler hvp")
    assert_close(grad(grad(chained))(x0), fd_hvp(np.ones((3, 3))), 1e-4, 1e-4, what="transpiler grad of grad")
    x = tf.constant(x0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = chained(x)
        gv = tf.reduce_sum(inner.gradient(y, x) * v)
    assert_close(outer.gradient(gv, x).numpy(), want, 1e-4, 1e-4, what="nested tapes")
    with tf.autodiff.ForwardAccumulator(x, tf.constant(v)) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = chained(x)
        g = tape.gradient(y, x)
    assert_close(acc.jvp(g).numpy(), want, 1e-4, 1e-4, what="forward accumulator over a tape")


# --- decompositions (several outputs) --------------------------------------------------------------

EIG = {1: -2}            # eigenvectors are columns of v
SVD = {0: -2, 2: -1}     # singular vectors: columns of u, rows of vh (they flip together)


@given(batch=batches, n=sides, uplo=st.sampled_from(["L", "U"]), seed=seeds)
def test_eigh(batch, n, uplo, seed):
    rng = np.random.default_rng(seed)
    a = symmetric(rng, batch, n)
    a = a + rng.standard_normal(a.shape) * (np.triu(np.ones((n, n)), 1) if uplo == "L" else np.tril(np.ones((n, n)), -1))
    kw = {"UPLO": uplo}
    check_tuple_vjp(np.linalg.eigh, [a], kwargs=kw, rng=rng, vectors=EIG)
    check_tuple_vjp(np.linalg.eigh, [a], kwargs=kw, rng=rng, picks=(0,))
    check_tuple_jvp(np.linalg.eigh, [a], kwargs=kw, rng=rng, vectors=EIG)
    check_packed(L.eigh_packed, a, slice(1, None), kwargs=kw, rng=rng)


@given(batch=batches, n=sides, seed=seeds)
def test_eig_of_symmetric_matrices(batch, n, seed):
    rng = np.random.default_rng(seed)
    a = symmetric(rng, batch, n)
    check_tuple_vjp(np.linalg.eig, [a], rng=rng, vectors=EIG)
    check_tuple_jvp(np.linalg.eig, [a], rng=rng, vectors=EIG)
    check_vjp(np.linalg.eigvals, [a], rng=rng)
    check_jvp(np.linalg.eigvals, [a], rng=rng)
    check_packed(L.eig_packed, a, slice(1, None), rng=rng)


@given(batch=batches, m=sides, n=sides, seed=seeds)
def test_svd(batch, m, n, seed):
    rng = np.random.default_rng(seed)
    a = with_spectrum(rng, batch, m, n, spread(rng, min(m, n)))
    kw = {"full_matrices": False}
    check_tuple_vjp(np.linalg.svd, [a], kwargs=kw, rng=rng, picks=(0, 1, 2), vectors=SVD)
    check_tuple_vjp(np.linalg.svd, [a], kwargs=kw, rng=rng, picks=(1,))
    check_tuple_jvp(np.linalg.svd, [a], kwargs=kw, rng=rng, picks=(0, 1, 2), vectors=SVD)
    check_vjp(np.linalg.svd, [a], kwargs={"compute_uv": False}, rng=rng)
    check_jvp(np.linalg.svd, [a], kwargs={"compute_uv": False}, rng=rng)
    check_packed(L.svd_packed, a, np.arange(m + 1 + n) != m, rng=rng)
    if m == n:      # square: full_matrices=True is the same factorisation
        check_tuple_vjp(np.linalg.svd, [a], rng=rng, picks=(0, 1, 2), vectors=SVD)


@given(batch=batches, n=sides, extra=st.integers(0, 2), mode=st.sampled_from(["reduced", "r"]), seed=seeds)
def test_qr(batch, n, extra, mode, seed):
    rng = np.random.default_rng(seed)
    a = with_spectrum(rng, batch, n + extra, n, spread(rng, n))
    if mode == "r":
        check_vjp(np.linalg.qr, [a], kwargs={"mode": "r"}, rng=rng)
        check_jvp(np.linalg.qr, [a], kwargs={"mode": "r"}, rng=rng)
        return
    check_tuple_vjp(np.linalg.qr, [a], rng=rng)
    check_tuple_vjp(np.linalg.qr, [a], rng=rng, picks=(1,))
    check_tuple_jvp(np.linalg.qr, [a], rng=rng)
    check_vjp(L.qr_packed, [a], rng=rng)
    check_jvp(L.qr_packed, [a], rng=rng)


@given(batch=batches, n=sides, seed=seeds)
def test_slogdet(batch, n, seed):
    rng = np.random.default_rng(seed)
    a = square(rng, batch, n) * rng.choice([-1.0, 1.0])
    check_tuple_vjp(np.linalg.slogdet, [a], rng=rng, picks=(1,))
    check_tuple_jvp(np.linalg.slogdet, [a], rng=rng, picks=(0, 1))


@given(m=st.integers(1, 5), n=sides, k=st.sampled_from([None, 1, 2]), seed=seeds)
def test_lstsq(m, n, k, seed):
    rng = np.random.default_rng(seed)
    a = with_spectrum(rng, (), m, n, spread(rng, min(m, n)))
    b = rng.standard_normal((m,) if k is None else (m, k))
    picks = (0, 1, 3)
    for i in (0, 1):
        check_tuple_vjp(np.linalg.lstsq, [a, b], i, rng=rng, picks=picks)
        check_tuple_jvp(np.linalg.lstsq, [a, b], i, rng=rng, picks=picks)
        check_vjp(L.lstsq_solution, [a, b], i, rng=rng)
        check_jvp(L.lstsq_solution, [a, b], i, rng=rng)


# --- refusals: clear errors where the derivative is undefined or not supported ---------------------

def test_repeated_eigenvalues_refuse_vector_gradients_but_not_value_gradients():
    rng = np.random.default_rng(1)
    q = np.linalg.qr(rng.standard_normal((3, 3)))[0]
    a = np.matmul(q * np.array([1.0, 1.0, 2.0]), q.T)
    w, v = np.linalg.eigh(a)
    with pytest.raises(np.linalg.LinAlgError, match="two eigenvalues are equal"):
        L.eigh_vjp((np.zeros(3), np.ones((3, 3))), (w, v), a)
    with pytest.raises(np.linalg.LinAlgError, match="not unique"):
        L.eigh_jvp(np.ones((3, 3)), (w, v), a)
    # eigenvalues alone are fine: the gradient of w.sum() (the trace) is the identity
    assert_close(L.eigh_vjp((np.ones(3), np.zeros((3, 3))), (w, v), a), np.eye(3), 1e-10, 1e-10)
    x = tf.constant(a)
    with tf.GradientTape() as tape:
        tape.watch(x)
        w_t, v_t = np.linalg.eigh(x)
        y = np.sum(v_t * v_t[:, :1])
    with pytest.raises(np.linalg.LinAlgError, match="two eigenvalues are equal"):
        tape.gradient(y, x)


def test_repeated_singular_values_refuse_vector_gradients():
    a = np.diag([2.0, 2.0, 1.0])
    ans = np.linalg.svd(a, full_matrices=False)
    with pytest.raises(np.linalg.LinAlgError, match="two singular values are equal"):
        L.svd_vjp((np.ones((3, 3)), np.zeros(3), np.zeros((3, 3))), ans, a, full_matrices=False)
    assert_close(L.svd_vjp((np.zeros((3, 3)), np.ones(3), np.zeros((3, 3))), ans, a, full_matrices=False),
                 np.eye(3), 1e-10, 1e-10)


def test_refusals():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    tall = rng.standard_normal((4, 2))
    ans = np.linalg.svd(tall)
    with pytest.raises(NotImplementedError, match="full_matrices=False"):
        L.svd_vjp((np.ones((4, 4)), np.zeros(2), np.zeros((2, 2))), ans, tall)
    # the singular values alone of full_matrices=True are fine
    check_tuple_vjp(np.linalg.svd, [tall], picks=(1,))
    with pytest.raises(NotImplementedError, match="hermitian=False"):
        L.svd_vjp((np.ones((3, 3)), np.ones(3), np.ones((3, 3))), np.linalg.svd(a), a, hermitian=True)
    wide = rng.standard_normal((2, 4))
    with pytest.raises(NotImplementedError, match="wide matrix"):
        L.qr_vjp((np.ones((2, 2)), np.ones((2, 4))), np.linalg.qr(wide), wide)
    with pytest.raises(NotImplementedError, match="'complete'"):
        L.qr_vjp((np.ones((4, 4)), np.ones((4, 2))), np.linalg.qr(tall, mode="complete"), tall, mode="complete")
    low_rank = np.outer(np.arange(1.0, 4.0), np.arange(1.0, 3.0))
    res = np.linalg.lstsq(low_rank, np.ones(3))
    with pytest.raises(np.linalg.LinAlgError, match="full rank"):
        L.lstsq_vjp_a((np.ones(2), np.zeros(0), 0, np.zeros(2)), res, low_rank, np.ones(3))


def test_eig_of_a_non_symmetric_matrix_on_the_tape():
    """(It was refused: eig was differentiated for symmetric matrices only.)  The eigenvalues sum to
    the trace, whose gradient is the identity."""
    x = tf.constant(np.array([[2.0, 1.0], [0.0, 3.0]]))
    with tf.GradientTape() as tape:
        tape.watch(x)
        w, v = np.linalg.eig(x)
        y = np.sum(w)
    assert_close(tape.gradient(y, x).numpy(), np.eye(2), 1e-12, 1e-12)


# --- on the tape: np.linalg on tensors records; second order against FD of FD of numpy -------------

def _tape_grad(f, x):
    v = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = f(v)
    return tape.gradient(y, v).numpy()


TAPE_CASES = {
    "eigh": (lambda a: np.sum(np.linalg.eigh(a)[0] ** 2) + np.sum(np.linalg.eigh(a)[1][0] ** 4), "sym"),
    "eig": (lambda a: np.sum(real_part(np.linalg.eig(a)[0]) ** 3)          # numpy >= 2.5: complex
            + np.sum(real_part(np.linalg.eig(a)[1][:, 0]) ** 4), "sym"),
    "svd": (lambda a: np.sum(np.linalg.svd(a, full_matrices=False)[0][0] ** 4)     # even powers:
            + np.sum(np.linalg.svd(a, full_matrices=False)[1] ** 2)             # the vectors' signs
            + np.sum(np.linalg.svd(a, full_matrices=False)[2][:, 0] ** 4), "tall"),  # are arbitrary
    "svdvals": (lambda a: np.sum(np.sin(np.linalg.svd(a, compute_uv=False))), "tall"),
    "qr": (lambda a: np.sum(np.linalg.qr(a)[0] ** 3) + np.sum(np.linalg.qr(a)[1] ** 2), "tall"),
    "slogdet": (lambda a: np.linalg.slogdet(a)[1] * np.linalg.slogdet(a)[0], "square"),
    "pinv": (lambda a: np.sum(np.linalg.pinv(a) ** 3), "tall"),
    "lstsq": (lambda a: np.sum(np.linalg.lstsq(a, np.arange(4.0))[0] ** 3)
              + np.sum(np.linalg.lstsq(a, np.arange(4.0))[1]), "tall"),
    "norm_nuc": (lambda a: np.linalg.norm(a, "nuc") ** 2, "tall"),
    "norm_2": (lambda a: np.linalg.norm(a, 2) * np.linalg.norm(a, -2), "tall"),
    "norm_axis": (lambda a: np.sum(np.linalg.norm(a, ord=3, axis=1) ** 2)
                  + np.linalg.norm(a, axis=0, keepdims=True) ** 3, "tall"),
    "norm_inf_1": (lambda a: np.linalg.norm(a, np.inf, axis=1) ** 2 + np.linalg.norm(a, 1, axis=(1, 0), keepdims=True)
                   * np.linalg.norm(a, -np.inf), "tall"),
    "norm_fro_nuc_axes": (lambda a: np.linalg.norm(a, "fro", axis=(0, 1)) ** 3 + np.linalg.norm(a, "nuc", axis=(1, 0)),
                          "tall"),
    "einsum": (lambda a: np.einsum("ij,kj,k->i", a, a ** 2, a[:, 0]), "tall"),
    "matrix_power": (lambda a: np.sum(np.linalg.matrix_power(a, 3) * np.linalg.matrix_power(a, -2)), "square"),
    "multi_dot": (lambda a: np.sum(np.linalg.multi_dot([a, np.ones((a.shape[1], 2)), np.ones(2)]) ** 2), "tall"),
}


def _input(kind, rng):
    if kind == "sym":
        return symmetric(rng, (), 3)
    if kind == "tall":
        return with_spectrum(rng, (), 4, 3, spread(rng, 3))
    return square(rng, (), 3)


@pytest.mark.parametrize("name", sorted(TAPE_CASES))
def test_tape_first_order(name):
    f, kind = TAPE_CASES[name]
    rng = np.random.default_rng(3)
    a = _input(kind, rng)
    if kind == "sym":
        got = _tape_grad(f, a)
        e = rng.standard_normal(a.shape)
        e = e + e.T                       # eigh reads one triangle: compare along symmetric directions
        assert_close(np.sum(got * e), numeric_jvp(f, [a], [e]), 1e-5, 1e-6, what=name)
    else:
        assert_close(_tape_grad(f, a), numeric_grad(f, a), 1e-5, 1e-6, what=name)


@pytest.mark.parametrize("name", sorted(TAPE_CASES))
def test_tape_second_order(name):
    f, kind = TAPE_CASES[name]
    rng = np.random.default_rng(4)
    a = _input(kind, rng)
    if kind == "sym":          # a function of the symmetric part only, so any direction is fair
        def g(x):
            return f((x + np.swapaxes(x, -1, -2)) / 2)
        check_second_order(g, a, rng)
    else:
        check_second_order(f, a, rng)


# --- through the transpiler ---------------------------------------------------------------------------

def test_transpiler_grad_and_jvp_of_decompositions():
    from transpiler import grad, jvp

    def f(a):
        u, s, vh = np.linalg.svd(a, full_matrices=False)
        w, v = np.linalg.eigh(np.matmul(a.T, a))
        q, r = np.linalg.qr(a)
        return np.sum(u[0] ** 4) + np.sum(s ** 2) + np.sum(w) + np.sum(v[0] ** 4) + np.sum(r ** 2) \
            + np.linalg.norm(a, "nuc") + np.linalg.slogdet(np.matmul(a.T, a))[1]

    rng = np.random.default_rng(5)
    a = with_spectrum(rng, (), 4, 3, spread(rng, 3))
    assert_close(grad(f)(a), numeric_grad(f, a), 1e-5, 1e-6, what="transpiler grad")
    t = rng.standard_normal(a.shape)
    assert_close(jvp(f, (a,), (t,))[1], numeric_jvp(f, [a], [t]), 1e-5, 1e-6, what="transpiler jvp")


# --- tf.linalg: TF's layouts, on the tape and through the transpiler ---------------------------------

def test_tf_linalg_svd_layout_and_gradient():
    a = with_spectrum(np.random.default_rng(11), (), 4, 3, spread(np.random.default_rng(12), 3))
    s, u, v = tf.linalg.svd(tf.constant(a))
    assert (s.shape, u.shape, v.shape) == ((3,), (4, 3), (3, 3))
    assert_close(np.matmul(u.numpy() * s.numpy(), v.numpy().T), a, 1e-12, 1e-12, what="a = u diag(s) v^T")
    assert_close(tf.linalg.svd(tf.constant(a), compute_uv=False).numpy(), s.numpy(), 1e-12, 1e-12)

    def f(x):
        s, u, v = tf.linalg.svd(x)
        return tf.reduce_sum(s ** 3) + tf.reduce_sum(v[0] ** 4) + tf.reduce_sum(u[:, 1] ** 4)

    def ref(x):
        uu, ss, vh = np.linalg.svd(x, full_matrices=False)
        return np.sum(ss ** 3) + np.sum(vh[:, 0] ** 4) + np.sum(uu[:, 1] ** 4)

    assert_close(_tape_grad(f, a), numeric_grad(ref, a), 1e-5, 1e-6, what="tf.linalg.svd gradient")


def test_tf_linalg_eigh_qr_slogdet_pinv_lstsq_gradients():
    rng = np.random.default_rng(13)
    sym = symmetric(rng, (), 3)
    tall = with_spectrum(rng, (), 4, 3, spread(rng, 3))
    sq = square(rng, (), 3)
    rhs = rng.standard_normal((4, 2))
    cases = [
        (lambda x: tf.reduce_sum(tf.linalg.eigh(x)[0] ** 3) + tf.reduce_sum(tf.linalg.eigh(x)[1][0] ** 4),
         lambda x: np.sum(np.linalg.eigh(x)[0] ** 3) + np.sum(np.linalg.eigh(x)[1][0] ** 4), sym),
        (lambda x: tf.reduce_sum(tf.linalg.eigvalsh(x) ** 3), lambda x: np.sum(np.linalg.eigvalsh(x) ** 3), sym),
        (lambda x: tf.reduce_sum(tf.linalg.qr(x)[0] ** 3) + tf.reduce_sum(tf.linalg.qr(x)[1]),
         lambda x: np.sum(np.linalg.qr(x)[0] ** 3) + np.sum(np.linalg.qr(x)[1]), tall),
        (lambda x: tf.linalg.slogdet(x)[1], lambda x: np.linalg.slogdet(x)[1], sq),
        (lambda x: tf.reduce_sum(tf.linalg.pinv(x) ** 2), lambda x: np.sum(np.linalg.pinv(x) ** 2), tall),
        (lambda x: tf.reduce_sum(tf.linalg.lstsq(x, tf.constant(rhs)) ** 2),
         lambda x: np.sum(np.linalg.lstsq(x, rhs)[0] ** 2), tall),
        (lambda x: tf.reduce_sum(tf.linalg.lstsq(tf.linalg.matrix_transpose(x), tf.constant(rhs[:3]),
                                                 l2_regularizer=0.5) ** 2),
         lambda x: np.sum(np.matmul(x, np.linalg.solve(np.matmul(x.T, x) + 0.5 * np.eye(3), rhs[:3])) ** 2),
         tall),
    ]
    for f, ref, a in cases:
        assert_close(_tape_grad(f, a), numeric_grad(ref, a), 1e-5, 1e-6, what="tf.linalg")


def test_tf_linalg_errors_and_dtypes():
    x32 = tf.constant(np.diag([1.0, 2.0]).astype(np.float32))
    e, v = tf.linalg.eigh(x32)
    assert e.dtype == tf.float32 and v.dtype == tf.float32
    sign, logdet = tf.linalg.slogdet(tf.constant([[0.0, 2.0], [3.0, 0.0]]))
    assert float(sign) == -1.0 and abs(float(logdet) - np.log(6.0)) < 1e-6
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.linalg.eigh(tf.constant(np.ones((2, 3))))


def test_transpiler_with_tf_linalg_aliases():
    from transpiler import grad

    def f(x):
        w, v = tf.linalg.eigh(x)
        return tf.reduce_sum(w ** 3) + tf.linalg.det(x) + tf.linalg.slogdet(x)[1]

    a = symmetric(np.random.default_rng(14), (), 3) + 4 * np.eye(3)
    e = np.random.default_rng(15).standard_normal((3, 3))
    e = e + e.T
    assert_close(np.sum(grad(f)(a) * e), numeric_jvp(f, [a], [e]), 1e-5, 1e-6, what="transpiled tf.linalg")


def f_det_inv(x):
    return np.linalg.det(x) * np.sum(np.linalg.inv(x))


def test_transpiler_second_order_through_det_and_inv():
    """Rules written as single expressions are inlined and transformed again (T is a primitive)."""
    from transpiler import higher

    rng = np.random.default_rng(16)
    a, v = square(rng, (), 3), rng.standard_normal((3, 3))
    h = 1e-4
    got = np.sum(higher.hvp(f_det_inv)(a, v) * v)
    want = (f_det_inv(a + 2 * h * v) - 2 * f_det_inv(a) + f_det_inv(a - 2 * h * v)) / (4 * h * h)
    assert abs(got - want) <= 1e-5 * max(1.0, abs(want))


def test_forward_accumulator_through_decompositions_and_ffts():
    rng = np.random.default_rng(17)
    a = with_spectrum(rng, (), 4, 3, spread(rng, 3))
    t = rng.standard_normal(a.shape)

    def f(x):
        u, s, vh = np.linalg.svd(x, full_matrices=False)
        q, r = np.linalg.qr(x)
        w, v = np.linalg.eigh(np.matmul(np.swapaxes(x, 0, 1), x))
        return np.sum(s ** 2) + np.sum(u[0] ** 4) + np.sum(r ** 3) + np.sum(w) + np.sum(v[1] ** 4) \
            + np.sum(np.fft.irfft(np.fft.rfft(x) ** 2, n=3) * x)

    x = tf.constant(a)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(t)) as acc:
        y = f(x)
    assert_close(acc.jvp(y).numpy(), numeric_jvp(f, [a], [t]), 1e-5, 1e-6, what="ForwardAccumulator")


def test_complex_matrices_are_refused_where_the_rule_assumes_real():
    rng = np.random.default_rng(18)
    z = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    h = np.matmul(z, z.conj().T) + 3 * np.eye(3)
    cases = [
        (L.cholesky_vjp, (np.ones((3, 3)), np.linalg.cholesky(h), h)),
        (L.slogdet_vjp, ((0, 1.0), np.linalg.slogdet(z), z)),
        (L.pinv_vjp, (np.ones((3, 3)), np.linalg.pinv(z), z)),
        (L.qr_vjp, ((np.ones((3, 3)), np.ones((3, 3))), np.linalg.qr(z), z)),
    ]           # (norm, svd, eigh and eig take complex input: tests/runtime/rules/test_complex_linalg.py)
    for rule, args in cases:
        with pytest.raises(NotImplementedError, match="complex input"):
            rule(*args)
    # holomorphic ones are fine: d det / dA = det(A) A^-T (the convention's plain transpose)
    got, want = L.det_vjp(1.0, np.linalg.det(z), z), np.linalg.det(z) * np.linalg.inv(z).T
    assert_close(got.real, want.real, 1e-12, 1e-12)
    assert_close(got.imag, want.imag, 1e-12, 1e-12)


B4 = np.random.default_rng(19).standard_normal(4)


def lstsq_everything(x):
    sol, res, rank, sv = np.linalg.lstsq(x, B4, rcond=None)
    return np.sum(sol ** 2) + np.sum(res) + np.sum(sv ** 3)


def pinv_and_norms(x):
    return np.sum(np.linalg.pinv(x) ** 2) + np.linalg.norm(x, 2) + np.linalg.norm(x, axis=0, ord=3)[1]


def powers_and_chains(x):
    m = x[:3]
    return np.sum(np.linalg.matrix_power(m, 3)) + np.sum(np.linalg.multi_dot([x, m, m]))


@pytest.mark.parametrize("f", [lstsq_everything, pinv_and_norms, powers_and_chains],
                         ids=["lstsq", "pinv_norm", "matrix_power_multi_dot"])
def test_transpiler_grad_and_jvp_of_the_rest(f):
    from transpiler import grad, jvp

    rng = np.random.default_rng(20)
    a = with_spectrum(rng, (), 4, 3, spread(rng, 3))
    t = rng.standard_normal(a.shape)
    assert_close(grad(f)(a), numeric_grad(f, a), 1e-5, 1e-6, what=f"transpiler grad {f.__name__}")
    assert_close(jvp(f, (a,), (t,))[1], numeric_jvp(f, [a], [t]), 1e-5, 1e-6, what=f"transpiler jvp {f.__name__}")


def test_tape_jacobian_of_singular_values_and_an_fft():
    rng = np.random.default_rng(21)
    a = with_spectrum(rng, (), 4, 3, spread(rng, 3))
    x = tf.constant(a)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        s = np.linalg.svd(x, compute_uv=False)
        y = np.fft.irfft(np.fft.rfft(x) ** 2, n=3)
    for out, f in ((s, lambda v: np.linalg.svd(v, compute_uv=False)),
                   (y, lambda v: np.fft.irfft(np.fft.rfft(v) ** 2, n=3))):
        jac = tape.jacobian(out, x).numpy()
        want = np.stack([numeric_grad(lambda v, i=i: f(v).reshape(-1)[i], a)
                         for i in range(np.size(out.numpy()))]).reshape(jac.shape)
        assert_close(jac, want, 1e-5, 1e-6, what="jacobian")


# --- numpy 2's array-API functions in np.linalg -------------------------------------------------------

@given(batch=batches, m=sides, n=sides, seed=seeds)
def test_svdvals_matrix_transpose(batch, m, n, seed):
    rng = np.random.default_rng(seed)
    a = with_spectrum(rng, batch, m, n, spread(rng, min(m, n)))
    for fn in (np.linalg.svdvals, np.linalg.matrix_transpose):
        check_vjp(fn, [a], rng=rng)
        check_jvp(fn, [a], rng=rng)


@pytest.mark.parametrize("ord", ["fro", "nuc", 2, -2, 1, -1, np.inf, -np.inf])
@given(keepdims=st.booleans(), seed=seeds)
def test_matrix_norm(ord, keepdims, seed):
    rng = np.random.default_rng(seed)
    x = np.stack([with_spectrum(rng, (), 3, 2, spread(rng, 2)) for _ in range(2)])
    x = x + rng.uniform(-0.05, 0.05, size=x.shape)
    check_vjp(np.linalg.matrix_norm, [x], kwargs={"ord": ord, "keepdims": keepdims}, rng=rng)
    check_jvp(np.linalg.matrix_norm, [x], kwargs={"ord": ord, "keepdims": keepdims}, rng=rng)


@pytest.mark.parametrize("ord", [2, 1, np.inf, -np.inf, 0, 3, 0.5, -1])
@given(axis=st.sampled_from([None, 0, -1, (0, 2), (-1, 1)]), keepdims=st.booleans(), seed=seeds)
def test_vector_norm(ord, axis, keepdims, seed):
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.5, 2.0, size=(2, 3, 2)) * rng.choice([-1, 1], size=(2, 3, 2))
    check_vjp(np.linalg.vector_norm, [x], kwargs={"ord": ord, "axis": axis, "keepdims": keepdims}, rng=rng)
    check_jvp(np.linalg.vector_norm, [x], kwargs={"ord": ord, "axis": axis, "keepdims": keepdims}, rng=rng)


@given(shapes=st.sampled_from([((3,), (2, 3)), ((2, 3), (2, 3)), ((4, 1, 3), (2, 3))]),
       axis=st.sampled_from([-1, None]), seed=seeds)
def test_vecdot_cross_matmul_outer(shapes, axis, seed):
    rng = np.random.default_rng(seed)
    x1, x2 = rng.standard_normal(shapes[0]), rng.standard_normal(shapes[1])
    kw = {} if axis is None else {"axis": axis}
    for fn in (np.linalg.vecdot, np.linalg.cross):
        for i in (0, 1):
            check_vjp(fn, [x1, x2], i, kwargs=kw, rng=rng)
            check_jvp(fn, [x1, x2], i, kwargs=kw, rng=rng)
    m1, m2 = rng.standard_normal((2, 3, 4)), rng.standard_normal((4, 2))
    v1, v2 = rng.standard_normal(3), rng.standard_normal(4)
    for fn, args in ((np.linalg.matmul, [m1, m2]), (np.linalg.matmul, [v1, m1]), (np.linalg.outer, [v1, v2])):
        for i in (0, 1):
            check_vjp(fn, args, i, rng=rng)
            check_jvp(fn, args, i, rng=rng)


@given(batch=batches, n=sides, offset=st.integers(-1, 1), seed=seeds)
def test_linalg_trace_and_diagonal(batch, n, offset, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(batch + (n, n + 1))
    for fn in (np.linalg.trace, np.linalg.diagonal):
        check_vjp(fn, [x], kwargs={"offset": offset}, rng=rng)
        check_jvp(fn, [x], kwargs={"offset": offset}, rng=rng)


def array_api_mix(x):
    v = np.linalg.vector_norm(x, axis=0, ord=3)
    c = np.linalg.cross(x[:3, 0], x[:3, 1] ** 2)
    return np.linalg.matrix_norm(x, ord="nuc") * np.sum(np.linalg.svdvals(x) ** 2) + np.sum(v * c) \
        + np.linalg.trace(np.linalg.matmul(np.linalg.matrix_transpose(x), x)) \
        + np.sum(np.linalg.vecdot(x, x ** 3, axis=0)) + np.sum(np.linalg.diagonal(x) * np.linalg.outer(x[0], x[1]))


def test_array_api_functions_on_the_tape_and_through_the_transpiler():
    from transpiler import grad

    rng = np.random.default_rng(22)
    a = with_spectrum(rng, (), 4, 3, spread(rng, 3))
    want = numeric_grad(array_api_mix, a)
    assert_close(grad(array_api_mix)(a), want, 1e-5, 1e-6, what="transpiler")
    assert_close(_tape_grad(array_api_mix, a), want, 1e-5, 1e-6, what="tape")
    check_second_order(array_api_mix, a, rng)


def test_eig_second_order_in_non_symmetric_directions():
    """eig reads all of a: its rule is the general one, so differentiating it again off the
    symmetric matrices (where first order is defined) is right, not just the symmetric part."""
    rng = np.random.default_rng(23)
    a = symmetric(rng, (), 3)
    check_second_order(lambda x: real_part(np.linalg.eigvals(x)) ** 3, a, rng)
    check_second_order(lambda x: real_part(np.linalg.eig(x)[1]) ** 2, a, rng)


def test_values_alone_at_repeated_eigenvalues_in_forward_mode():
    q = np.linalg.qr(np.random.default_rng(24).standard_normal((3, 3)))[0]
    a = np.matmul(q * np.array([1.0, 1.0, 2.0]), q.T)
    t = np.random.default_rng(25).standard_normal((3, 3))
    t = t + t.T
    for fn in (np.linalg.eigvals, np.linalg.eigvalsh):
        got = np.sort(np.real(L.eigvals_jvp(t, fn(a), a) if fn is np.linalg.eigvals else L.eigvalsh_jvp(t, fn(a), a)))
        # the sum of the eigenvalue tangents is the trace of t whatever the vectors
        assert abs(np.sum(got) - np.trace(t)) < 1e-10


def test_full_matrices_on_the_tape_values_fine_vectors_refused():
    a = with_spectrum(np.random.default_rng(26), (), 4, 3, spread(np.random.default_rng(27), 3))
    x = tf.constant(a)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        u, s, vh = np.linalg.svd(x)                  # numpy's default full_matrices=True
        by_values = np.sum(s ** 2)
        by_vectors = np.sum(u ** 3)
    assert u.shape == (4, 4) and vh.shape == (3, 3)
    assert_close(tape.gradient(by_values, x).numpy(), 2 * a, 1e-10, 1e-10, what="d sum(s^2) = 2a")
    with pytest.raises(NotImplementedError, match="full_matrices=False"):
        tape.gradient(by_vectors, x)
