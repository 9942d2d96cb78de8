"""scipy.linalg rules (runtime/rules/scipy_linalg/) against central finite differences of scipy's own
functions, in float64: VJP and JVP of every differentiable argument (real, and complex where the
rules accept it), and second order through nested tapes against finite differences of finite
differences.  The registry is enumerated: a rule of the family without a case here fails
``test_every_rule_has_a_case``.

Inputs are well conditioned: square matrices shifted from singular, symmetric positive definite
ones for the Cholesky and Hermitian solvers and the matrix functions, well-separated eigenvalues
and singular values for the decompositions.
"""

import inspect
import re
import warnings

import numpy as np
import pytest

pytest.importorskip("scipy")

import scipy.linalg as sl  # noqa: E402

from runtime.rules import RULES, load_all, lookup  # noqa: E402
from runtime.rules import scipy_linalg as S  # noqa: E402
from tests.fd import EPS, assert_close, numeric_grad  # noqa: E402
from tests.runtime.rules.linalg_check import check_second_order, signs_fixed  # noqa: E402
from tests.runtime.rules.test_linalg import EIG, SVD, spread, symmetric, with_spectrum  # noqa: E402

N = 4


def real(rng, *shape):
    return rng.standard_normal(shape)


def cplx(rng, *shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def square(rng, dtype):
    make = cplx if dtype == "complex" else real
    return make(rng, N, N) + 3 * np.eye(N)


def positive(rng, dtype, n=N):
    a = (cplx if dtype == "complex" else real)(rng, n, n)
    return a @ a.conj().T + n * np.eye(n)


def band(rng, dtype, l_and_u, n=6):
    make = cplx if dtype == "complex" else real
    ab = make(rng, sum(l_and_u) + 1, n)
    ab[l_and_u[1]] += 4          # a dominant diagonal
    return ab


class Case:
    """``make(rng, dtype) -> (args, kwargs)``; ``at``: the differentiated arguments, an index or
    (index, item) for an array inside a tuple argument; ``picks``: the outputs of a tuple result
    that carry a gradient (``vectors``: eigen/singular vectors among them, whose signs finite
    differences must hold fixed); ``dtypes``: "real" and, where the rules accept it, "complex"."""

    def __init__(self, fn, make, at=(0,), picks=None, vectors=None, dtypes=("real",), label=None):
        self.fn, self.make, self.at, self.picks, self.vectors, self.dtypes = fn, make, at, picks, vectors, dtypes
        self.label = label or getattr(fn, "__name__", repr(fn))

    def __repr__(self):
        return self.label


def _solve(assume_a, lower, transposed=False, vector=False):
    def make(rng, dtype):
        a = positive(rng, dtype) if assume_a in ("sym", "her", "pos") else square(rng, dtype)
        if assume_a == "sym" and dtype == "complex":
            a = a + a.T           # complex symmetric
        b = (cplx if dtype == "complex" else real)(rng, *((N,) if vector else (N, 2)))
        return [a, b], dict(assume_a=assume_a, lower=lower, transposed=transposed)
    return make


def _triangular(trans, lower, unit_diagonal, vector=False):
    def make(rng, dtype):
        b = (cplx if dtype == "complex" else real)(rng, *((N,) if vector else (N, 3)))
        return [square(rng, dtype), b], dict(trans=trans, lower=lower, unit_diagonal=unit_diagonal)
    return make


def _factor_then(solve_name, trans=0, lower=False, vector=False):
    def make(rng, dtype):
        b = (cplx if dtype == "complex" else real)(rng, *((N,) if vector else (N, 2)))
        if solve_name == "cho":
            c, low = sl.cho_factor(positive(rng, dtype), lower=lower)
            return [(c, low), b], {}
        lu, piv = sl.lu_factor((cplx if dtype == "complex" else real)(rng, N, N))   # pivots likely
        return [(lu, piv), b], dict(trans=trans)
    return make


def _one(builder, **kwargs):
    return lambda rng, dtype: ([builder(rng, dtype)], dict(kwargs))


BOTH = ("real", "complex")
CASES = [
    Case(sl.inv, _one(square), dtypes=BOTH),
    Case(sl.inv, lambda rng, dtype: ([positive(rng, dtype)], dict(assume_a="pos", lower=True)), dtypes=BOTH,
         label="inv assume_a=pos") if "assume_a" in sl.inv.__code__.co_varnames else None,
    Case(sl.det, _one(square), dtypes=BOTH),
    Case(sl.expm, lambda rng, dtype: ([square(rng, dtype) / 4], {}), dtypes=BOTH),
    Case(sl.logm, lambda rng, dtype: ([positive(rng, dtype, 3)], {}), dtypes=BOTH),
    Case(sl.sqrtm, _one(positive), dtypes=BOTH),
    Case(sl.solve_sylvester, lambda rng, dtype: ([square(rng, dtype), square(rng, dtype).T,
                                                  (cplx if dtype == "complex" else real)(rng, N, N)], {}),
         at=(0, 1, 2), dtypes=BOTH),
    Case(sl.cholesky, _one(positive, lower=False)),
    Case(sl.cholesky, _one(positive, lower=True), label="cholesky lower"),
    Case(sl.cho_factor, _one(positive, lower=True), picks=(0,)),
    Case(sl.cho_factor, _one(positive), picks=(0,), label="cho_factor upper"),
    Case(sl.lu_factor, lambda rng, dtype: ([(cplx if dtype == "complex" else real)(rng, N, N)], {}), picks=(0,),
         dtypes=BOTH),
    Case(sl.eigh, lambda rng, dtype: ([symmetric(rng, (), N)], {}), picks=(0, 1), vectors=EIG),
    Case(sl.eigh, lambda rng, dtype: ([symmetric(rng, (), N)], dict(lower=False, eigvals_only=True)),
         label="eigh eigvals_only upper"),
    Case(sl.svd, lambda rng, dtype: ([with_spectrum(rng, (), 5, 3, spread(rng, 3))], dict(full_matrices=False)),
         picks=(0, 1, 2), vectors=SVD),
    Case(sl.svd, lambda rng, dtype: ([with_spectrum(rng, (), 3, 5, spread(rng, 3))], dict(compute_uv=False)),
         label="svd compute_uv=False"),
    Case(sl.block_diag, lambda rng, dtype: ([real(rng, 2, 3), real(rng, 2), np.float64(1.5), real(rng, 1, 1),
                                             real(rng, 3, 2), real(rng, 2, 2)], {}), at=(0, 1, 2, 3, 4, 5)),
    Case(sl.solve_banded, lambda rng, dtype: ([(2, 1), band(rng, dtype, (2, 1)),
                                               (cplx if dtype == "complex" else real)(rng, 6, 2)], {}),
         at=(1, 2), dtypes=BOTH),
    Case(sl.solve_banded, lambda rng, dtype: ([(0, 2), band(rng, dtype, (0, 2)), real(rng, 6)], {}),
         at=(1, 2), label="solve_banded upper, a vector"),
    Case(S.band_matvec, lambda rng, dtype: ([real(rng, 4, 6), real(rng, 6, 2), 1, 2], {}), at=(0, 1)),
    Case(S.band_outer, lambda rng, dtype: ([real(rng, 6, 2), real(rng, 6, 2), 2, 1], {}), at=(0, 1)),
    Case(S.transpose_band, lambda rng, dtype: ([real(rng, 4, 6), 1, 2], {})),
    Case(S.block_logm, lambda rng, dtype: ([positive(rng, dtype, 3)], {})),
    Case(S.cho_factor_matrix, lambda rng, dtype: ([positive(rng, dtype), True], {})),
    Case(S.lu_packed, lambda rng, dtype: ([real(rng, N, N)], {})),
    Case(S.eigvalsh, lambda rng, dtype: ([symmetric(rng, (), N), "U"], {})),
    Case(S.svd_values, lambda rng, dtype: ([with_spectrum(rng, (), 4, 3, spread(rng, 3))], {})),
] + [Case(sl.solve, _solve(a, lower, vector=vector), at=(0, 1), dtypes=BOTH,
          label=f"solve assume_a={a} lower={lower}{' b vector' if vector else ''}")
     for a in (None, "gen", "sym", "her", "pos", "diagonal", "tridiagonal", "banded", "upper triangular",
               "lower triangular")
     for lower in (False, True) for vector in (False, True)
     ] + [Case(sl.solve, _solve(None, False, transposed=True), at=(0, 1), label="solve transposed")
          ] + [Case(sl.solve_triangular, _triangular(trans, lower, unit, vector), at=(0, 1), dtypes=BOTH,
                    label=f"solve_triangular trans={trans} lower={lower} unit_diagonal={unit}{' vector' if vector else ''}")
               for trans in (0, 1, 2, "T") for lower in (False, True) for unit in (False, True)
               for vector in (False, True)
               ] + [Case(sl.cho_solve, _factor_then("cho", lower=lower, vector=vector), at=((0, 0), 1),
                         label=f"cho_solve lower={lower}{' vector' if vector else ''}")
                    for lower in (False, True) for vector in (False, True)
                    ] + [Case(sl.lu_solve, _factor_then("lu", trans=trans, vector=vector), at=((0, 0), 1),
                              dtypes=BOTH, label=f"lu_solve trans={trans}{' vector' if vector else ''}")
                         for trans in (0, 1, 2) for vector in (False, True)]
CASES = [c for c in CASES if c is not None]

# Rules whose check is elsewhere in this file: refusals (no derivative to compare) and the packed
# primitives whose outputs hold eigen/singular vectors (compared through their public function).
ELSEWHERE = {S.svd_full_vectors: "test_refusals", S.eigh_packed: "test_second_order (eigh on tensors)",
             S.svd_packed: "test_second_order (svd on tensors)"}


# --- the check ----------------------------------------------------------------------------------

def _at(args, where):
    return args[where] if isinstance(where, int) else args[where[0]][where[1]]


def _with(args, where, x):
    new = list(args)
    if isinstance(where, int):
        new[where] = x
    else:
        k, j = where
        item = list(new[k])
        item[j] = x
        new[k] = tuple(item)
    return new


def _random_like(rng, x):
    shape = np.shape(x)
    return cplx(rng, *shape) if np.iscomplexobj(x) else real(rng, *shape)


def check_case(case, args, kwargs, rng):
    fn, rule = case.fn, lookup(case.fn)
    ref = signs_fixed(fn, case.vectors) if case.vectors else fn
    ans = fn(*args, **kwargs)
    ref(*args, **kwargs)
    outs = [ans[i] for i in case.picks] if case.picks else [ans]
    weights = [_random_like(rng, o) for o in outs]
    if case.picks:
        g = tuple(weights[case.picks.index(i)] if i in case.picks else np.zeros(np.shape(o))
                  for i, o in enumerate(ans))
    else:
        g = weights[0]

    def picked(value):
        return [value[i] for i in case.picks] if case.picks else [value]

    for where in case.at:
        k = where if isinstance(where, int) else where[0]
        x = np.asarray(_at(args, where))
        what = f"{case.label} argument {where} ({x.dtype})"

        def loss(y):
            return sum(np.real(np.sum(w * o)) for w, o in zip(weights, picked(ref(*_with(args, where, y), **kwargs))))

        got = rule.vjp(k)(g, ans, *args, **kwargs)
        got = got if isinstance(where, int) else got[where[1]]
        if np.iscomplexobj(x):
            want = numeric_grad(lambda re: loss(re + 1j * x.imag), x.real) \
                - 1j * numeric_grad(lambda im: loss(x.real + 1j * im), x.imag)
            assert_close(np.real(got), want.real, what=f"VJP {what} (real part)")
            assert_close(np.imag(got), want.imag, what=f"VJP {what} (imaginary part)")
        else:
            assert not np.iscomplexobj(got) or not np.any(np.imag(got)), f"VJP {what}: a complex gradient"
            assert_close(np.real(got), numeric_grad(loss, x), what=f"VJP {what}")

        t = _random_like(rng, x)
        tangent = t if isinstance(where, int) else tuple(t if j == where[1] else None
                                                         for j in range(len(args[k])))
        got = picked(rule.jvp(k)(tangent, ans, *args, **kwargs))
        plus = picked(ref(*_with(args, where, x + EPS * t), **kwargs))
        minus = picked(ref(*_with(args, where, x - EPS * t), **kwargs))
        for gi, p, m in zip(got, plus, minus):
            want = (np.asarray(p) - np.asarray(m)) / (2 * EPS)
            assert_close(np.real(gi), np.real(want), what=f"JVP {what}")
            assert_close(np.imag(gi), np.imag(want), what=f"JVP {what} (imaginary part)")


RUNS = [(c, d) for c in CASES for d in c.dtypes]


@pytest.mark.parametrize("case, dtype", RUNS, ids=[f"{c.label} {d}" for c, d in RUNS])
def test_rule(case, dtype):
    rng = np.random.default_rng(0)
    args, kwargs = case.make(rng, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # logm's accuracy notes on perturbed inputs
        check_case(case, args, kwargs, rng)


def _family_rules():
    load_all()
    seen = {}
    for rule in RULES.values():
        modules = {getattr(v, "__module__", "") or "" for v in rule.vjps if v is not None}
        if rule.differentiable and any(m.startswith("runtime.rules.scipy_linalg") for m in modules):
            seen[id(rule)] = rule
    return list(seen.values())


def test_every_rule_has_a_case():
    covered = {lookup(c.fn) for c in CASES} | {lookup(fn) for fn in ELSEWHERE}
    missing = sorted(r.name for r in _family_rules() if r not in covered)
    assert not missing, f"scipy.linalg rules without a case in {__file__}: {missing}"


# --- second order: the rules run on tensors, differentiated by the rules ---------------------------

def _second_order_cases():
    from runtime.scipy import linalg as T
    rng = np.random.default_rng(5)
    a, p, b = square(rng, "real"), positive(rng, "real"), real(rng, N, 2)
    sym = symmetric(rng, (), N)
    c_low, c_up = sl.cho_factor(p, lower=True)[0], sl.cho_factor(p)[0]
    lu, piv = sl.lu_factor(real(rng, N, N))
    ab = band(rng, "real", (1, 2))
    tall = with_spectrum(rng, (), 5, 3, spread(rng, 3))
    cases = {
        "inv": (T.inv, a), "det": (T.det, a), "expm": (lambda x: T.expm(x / 4), a), "logm": (T.logm, p),
        "sqrtm": (T.sqrtm, p),
        "solve_sylvester a": (lambda x: T.solve_sylvester(x, a.T, b @ b.T), a),
        "solve_sylvester q": (lambda x: T.solve_sylvester(a, a.T, x), p),
        "cholesky": (T.cholesky, p), "cholesky lower": (lambda x: T.cholesky(x, lower=True), p),
        "cho_factor": (lambda x: T.cho_factor(x)[0], p),
        "cho_solve c": (lambda x: T.cho_solve((x, True), b), c_low),
        "cho_solve b": (lambda x: T.cho_solve((c_up, False), x), b),
        "lu_factor": (lambda x: T.lu_factor(x)[0], a),
        "lu_solve lu": (lambda x: T.lu_solve((x, piv), b, 1), lu),
        "lu_solve b": (lambda x: T.lu_solve((lu, piv), x), b),
        "solve_banded ab": (lambda x: T.solve_banded((1, 2), x, b[:, 0].repeat(2)[:6]), ab),
        "solve_banded b": (lambda x: T.solve_banded((1, 2), ab, x), real(rng, 6, 2)),
        "eigh": (lambda x: np.concatenate([T.eigh(x)[0], np.ravel(T.eigh(x)[1] ** 2)]), sym),
        "eigh eigvals_only": (lambda x: T.eigh(x, lower=False, eigvals_only=True), sym),
        "svd": (lambda x: np.concatenate([np.ravel(T.svd(x, full_matrices=False)[0] ** 2), T.svd(x)[1]]), tall),
        "svd values": (lambda x: T.svd(x, compute_uv=False), tall),
        "block_diag": (lambda x: T.block_diag(x, b, x * x), a),
    }
    for assume_a in (None, "sym", "pos", "diagonal", "tridiagonal", "upper triangular"):
        cases[f"solve a assume_a={assume_a}"] = (lambda x, aa=assume_a: T.solve(x, b, assume_a=aa, lower=True), p)
    cases["solve b"] = (lambda x: T.solve(a, x, transposed=True), b)
    for trans in (0, 1):
        for unit in (False, True):
            cases[f"solve_triangular a trans={trans} unit_diagonal={unit}"] = (
                lambda x, tr=trans, u=unit: T.solve_triangular(x, b, tr, True, u), a)
    cases["solve_triangular b"] = (lambda x: T.solve_triangular(a, x, 1), b)
    return cases


SECOND = _second_order_cases()


@pytest.mark.parametrize("name", list(SECOND))
def test_second_order(name):
    f, x = SECOND[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check_second_order(f, x, np.random.default_rng(3))


# --- refusals: a clear error where no derivative is given -----------------------------------------

def _logm_with_error(a):
    return sl.logm(a, disp=False)[0]                # (scipy < 1.18)


def _inv_of_diagonal(a):
    return sl.inv(a, assume_a="diagonal")          # (scipy >= 1.17)


@pytest.mark.parametrize("call, match", [
    (lambda a: sl.inv(a, overwrite_a=True), "inv(overwrite_a=True) may overwrite the input"),
    (lambda a: sl.solve(a, a[0], overwrite_b=True), "solve(overwrite_b=True) may overwrite"),
    (lambda a: sl.cholesky(a + 0j), "complex input is not supported"),
    (lambda a: sl.eigh(a, np.eye(N)), "generalized eigenproblem"),
    (lambda a: sl.eigh(a, subset_by_index=[0, 1]), "subset_by_index"),
    (lambda a: sl.svd(a[:, :3]), "full_matrices=True"),
    (lambda a: sl.lu_factor(a[:, :3]), "one square matrix"),
    (lambda a: sl.solve_triangular(a, a[0], trans=5), "trans=5"),
] + ([(_logm_with_error, "disp=False) also returns an error estimate")]
     if "disp" in inspect.signature(sl.logm).parameters else []) + ([(_inv_of_diagonal, "inv(assume_a='diagonal') is not differentiated")]
     if "assume_a" in sl.inv.__code__.co_varnames else []))
def test_refusals(call, match):
    from transpiler import grad
    a = positive(np.random.default_rng(0), "real")

    def f(x):
        out = call(x)
        return np.sum(out[0] if isinstance(out, tuple) else out)
    with pytest.raises(Exception, match=re.escape(match)):
        grad(f)(a)


def test_cho_factor_other_triangle_is_what_this_scipy_leaves_there():
    """scipy < 1.18 leaves a's entries in c's other triangle (their derivative: the identity), 1.18 zeros
    (none); c holding anything else there is refused."""
    a = positive(np.random.default_rng(1), "real")
    c = sl.cho_factor(a)[0]
    full, other = S.parts(c, False)
    assert S.fill() in ("copied", "zeros")
    np.testing.assert_array_equal(c * other, a * other if S.fill() == "copied" else 0 * a)
    with pytest.raises(ValueError, match="holds neither a's entries nor zeros"):
        S.cho_factor_tangent(np.ones_like(a), c + 3.0 * other + 1.0 * (S.fill() == "zeros") * other, a, False)
