"""Every rule of the linalg and fft families is checked: the registry is enumerated, and a rule
without a sample here fails the test (so none can be added untested).

Each sample is checked against central finite differences of the primitive itself, VJP and JVP,
for every differentiable argument.  ``SAMPLES`` maps a primitive to
``(args, kwargs, differentiable argnums, picks of a tuple result or None, vector outputs)``.
"""

import numpy as np
import pytest

from runtime.rules import RULES, load_all
from runtime.rules import fft as F
from runtime.rules import linalg as L
from runtime.rules.linalg import einsum_higher as C
from runtime.rules.linalg import products as P
from tests.runtime.rules.linalg_check import check_tuple_jvp, check_tuple_vjp
from tests.runtime.rules.rules_check import check_jvp, check_vjp
from tests.runtime.rules.test_linalg import EIG, SVD, spd, spread, square, symmetric, with_spectrum

R = np.random.default_rng(30)
SQ = square(R, (2,), 3)
SYM = symmetric(R, (), 3)
TALL = with_spectrum(R, (), 4, 3, spread(R, 3))
B = R.standard_normal((3, 2))
V4 = R.standard_normal(4)
Z = R.standard_normal((2, 5)) + 1j * R.standard_normal((2, 5))
X = R.standard_normal((2, 5))
IMG = R.standard_normal((3, 4))


def _single(*args, argnums=(0,), **kwargs):
    return (list(args), kwargs, argnums, None, None)


def _tuple(*args, picks, vectors=None, argnums=(0,), **kwargs):
    return (list(args), kwargs, argnums, picks, vectors)


SAMPLES = {
    np.linalg.inv: _single(SQ), np.linalg.det: _single(SQ), L.logabsdet: _single(SQ),
    np.linalg.solve: _single(SQ[0], B, argnums=(0, 1)),
    np.linalg.cholesky: None,             # TF's symmetric convention: test_cholesky_with_symmetric_perturbations
    np.trace: _single(SQ, axis1=-2, axis2=-1), np.diagonal: _single(SQ, offset=1, axis1=1, axis2=2),
    np.einsum: _single("ij,jk->ik", SQ[0], B, argnums=(1, 2)),
    np.linalg.slogdet: _tuple(SQ, picks=(1,)),
    np.linalg.pinv: _single(TALL), np.linalg.lstsq: _tuple(TALL, V4, picks=(0, 1, 3), argnums=(0, 1)),
    L.lstsq_solution: _single(TALL, V4, argnums=(0, 1)),
    np.linalg.eigh: _tuple(SYM, picks=(0, 1), vectors=EIG), L.eigh_packed: _single(SYM),
    np.linalg.eigvalsh: _single(SYM),
    np.linalg.eig: _tuple(SYM, picks=(0, 1), vectors=EIG), L.eig_packed: _single(SYM),
    np.linalg.eigvals: _single(SYM),
    np.linalg.svd: _tuple(TALL, picks=(0, 1, 2), vectors=SVD, full_matrices=False),
    L.svd_packed: _single(TALL), L.svd_values: _single(TALL), np.linalg.svdvals: _single(TALL),
    L.svd_full_vectors: None,             # refuses: test_refusals
    np.linalg.qr: _tuple(TALL, picks=(0, 1)), L.qr_packed: _single(TALL),
    np.linalg.norm: _single(TALL, ord="nuc"), np.linalg.matrix_norm: _single(TALL, ord=2),
    np.linalg.vector_norm: _single(TALL, ord=3, axis=0),
    np.linalg.matrix_power: _single(SQ, 3),
    # a list argument: test_rules_linalg.py's test_multi_dot, test_multi_dot_vjp_rules and
    # test_multi_dot_second_order_in_both_halves
    np.linalg.multi_dot: None, L.multi_dot_vjp: None,
    np.linalg.matmul: _single(TALL, B, argnums=(0, 1)), np.linalg.outer: _single(V4, B[:, 0], argnums=(0, 1)),
    np.linalg.vecdot: _single(TALL, TALL ** 2, argnums=(0, 1)),
    np.linalg.cross: _single(TALL[:, :3], V4[:3], argnums=(0, 1)),
    np.linalg.trace: _single(SQ, offset=1), np.linalg.diagonal: _single(SQ, offset=-1),
    np.linalg.matrix_transpose: _single(TALL),
    L.T: _single(SQ), L.as_matrix_scalar: _single(V4),
    np.fft.fft: _single(Z, n=4), np.fft.ifft: _single(X, n=7), np.fft.rfft: _single(X, n=6),
    np.fft.irfft: _single(Z, n=7), np.fft.hfft: _single(Z), np.fft.ihfft: _single(X, norm="ortho"),
    np.fft.fft2: _single(Z), np.fft.ifft2: _single(X, s=(3, 3)), np.fft.rfft2: _single(IMG),
    np.fft.irfft2: _single(Z, s=(2, 6)), np.fft.fftn: _single(IMG, axes=(0,)),
    np.fft.ifftn: _single(Z, norm="forward"), np.fft.rfftn: _single(IMG, s=(4, 5)),
    np.fft.irfftn: _single(Z), np.fft.fftshift: _single(X), np.fft.ifftshift: _single(Z, axes=1),
    F.real_part: _single(Z),
    # einsum's VJP rules have rules of their own (second order in the transpiler): linear in the
    # cotangent (argument 0) and in every other operand (arguments 3...)
    P.einsum_vjp_0: _single(R.standard_normal((3, 2)), None, "ij,jk->ik", SQ[0], B, argnums=(0, 4)),
    P.einsum_vjp_1: _single(R.standard_normal(3), None, "ij,jj->j", SQ[0], SQ[1], argnums=(0, 3)),   # a diagonal
    P.einsum_vjp_2: _single(R.standard_normal(3), None, "ij,jk,k->i", SQ[0], B, V4[:2], argnums=(0, 3, 4)),
    # contraction(subscripts, meta, *args), einsum_vjp_k's rules of every order (einsum_higher.py): here the
    # adjoint onto operand 1 of args[1], with operand 0 replaced by args[0] (the original operand 0 unread)
    C.contraction: _single("ij,jk->ik", (2, ("adjoint", 1, 1), ((0, 0),)), SQ[1], R.standard_normal((3, 2)),
                           SQ[0], B, argnums=(2, 3, 4)),
    P.einsum_vjp_3: _single(R.standard_normal(()), None, "i,ij,jk,k->", V4[:3], SQ[1], B, V4[2:],
                            argnums=(0, 3, 4, 5)),
}


def _family_rules():
    """(fn, rule) of every registered rule of the linalg and fft families."""
    load_all()
    seen = {}
    for fn, rule in list(RULES.items()):
        mod = getattr(fn, "__module__", "") or ""
        rule_mods = {getattr(v, "__module__", "") for v in rule.vjps if v is not None}
        if mod.startswith(("numpy.linalg", "numpy.fft")) or any((m or "").startswith(("runtime.rules.linalg.", "runtime.rules.fft")) for m in rule_mods):
            if rule.differentiable and id(rule) not in seen:
                seen[id(rule)] = (rule.fn, rule)
    return list(seen.values())


def test_every_family_rule_has_a_sample():
    missing = [rule.name for fn, rule in _family_rules()
               if fn not in SAMPLES and getattr(fn, "raw", None) not in SAMPLES]
    assert not missing, f"linalg/fft rules without a sample in {__file__}: {missing}"


def _complex_aware(fn, args, argnum, kwargs):
    """check_vjp/check_jvp compare real arrays: complex samples go through test_rules_fft's checks."""
    from tests.runtime.rules.test_fft import check_complex_jvp, check_complex_vjp
    rest = [a for i, a in enumerate(args) if i != argnum]
    assert not rest, "complex samples take one argument"
    rng = np.random.default_rng(0)
    check_complex_vjp(fn, args[argnum], kwargs, rng)
    check_complex_jvp(fn, args[argnum], kwargs, rng)


@pytest.mark.parametrize("fn", [f for f, s in SAMPLES.items() if s is not None],
                         ids=[getattr(f, "__name__", repr(f)) for f, s in SAMPLES.items() if s is not None])
def test_sample(fn):
    args, kwargs, argnums, picks, vectors = SAMPLES[fn]
    rng = np.random.default_rng(1)
    for i in argnums:
        if picks is not None:
            check_tuple_vjp(fn, args, i, picks=picks, kwargs=kwargs, rng=rng, vectors=vectors)
            check_tuple_jvp(fn, args, i, picks=picks, kwargs=kwargs, rng=rng, vectors=vectors)
        elif fn.__module__.startswith("numpy.fft") or fn is F.real_part or \
                np.iscomplexobj(fn(*args, **kwargs)):
            _complex_aware(fn, args, i, kwargs)
        else:
            check_vjp(fn, args, i, kwargs=kwargs, rng=rng)
            check_jvp(fn, args, i, kwargs=kwargs, rng=rng)


def _real_samples():
    """Samples with a real first argument, as functions of it alone returning a real array."""
    out = []
    for fn, sample in SAMPLES.items():
        if sample is None:
            continue
        args, kwargs, argnums, picks, _ = sample
        i = argnums[0]
        if np.iscomplexobj(args[i]):
            continue

        def f(x, fn=fn, args=args, kwargs=kwargs, i=i, picks=picks):
            new = list(args)
            new[i] = x
            y = fn(*new, **kwargs)
            if picks is not None:     # a sign-invariant real function of the picked outputs
                y = sum(np.sum(F.real_part(y[k]) ** 2) * (k + 1) for k in picks)
            return F.real_part(y) if np.iscomplexobj(np.asarray(getattr(y, "numpy", lambda: y)())) else y

        out.append(pytest.param(f, args[i], id=getattr(fn, "__name__", repr(fn))))
    return out


@pytest.mark.parametrize("f,x", _real_samples())
def test_sample_second_order(f, x):
    """Nested tapes (the rules differentiated by the rules) against FD of FD of numpy."""
    from tests.runtime.rules.linalg_check import check_second_order
    check_second_order(f, x, np.random.default_rng(2))
