"""np.linalg.norm, svd, eigh and eig of complex matrices, in both halves, against finite differences
of the real and imaginary parts.

These rules refused complex input (and eig any non-symmetric matrix).  Each case builds z = a + i b
from two real arrays and differentiates a real loss of the result with respect to a and to b (the
real and imaginary parts): first order in both modes, second order.  Eigenvector and singular-vector
phases are arbitrary, so those enter through |v| (a loss that does not depend on them), as in
autograd's tests.
"""

import numpy as np
import pytest

from tests import halves

RNG = np.random.default_rng(3)
Z = "np.add(a, np.multiply(1j, b))"          # (np.add / np.multiply: on the tape `+` keeps TF's dtype rules)
SQUARE = (RNG.standard_normal((4, 4)), RNG.standard_normal((4, 4)))
WIDE = (RNG.standard_normal((3, 5)), RNG.standard_normal((3, 5)))
TALL = (RNG.standard_normal((2, 5, 3)), RNG.standard_normal((2, 5, 3)))
VECTOR = (RNG.standard_normal(6), RNG.standard_normal(6))
CUBE = (RNG.standard_normal((3, 4, 2)), RNG.standard_normal((3, 4, 2)))

CASES = [
    ("np.linalg.norm(Z)", VECTOR), ("np.linalg.norm(Z, ord=3)", VECTOR), ("np.linalg.norm(Z, ord=1)", VECTOR),
    ("np.linalg.norm(Z, ord=np.inf)", VECTOR), ("np.linalg.norm(Z)", SQUARE), ("np.linalg.norm(Z, 'fro')", WIDE),
    ("np.linalg.norm(Z, axis=1)", CUBE), ("np.linalg.norm(Z, axis=(0, 2))", CUBE),
    ("np.linalg.norm(Z, ord='nuc')", WIDE), ("np.linalg.norm(Z, ord=2)", SQUARE), ("np.linalg.norm(Z, ord=-2, axis=(1, 2))", TALL),
    ("np.linalg.norm(Z, ord=1)", SQUARE), ("np.linalg.norm(Z, ord=np.inf, axis=(1, 2))", CUBE),
    ("np.linalg.norm(Z, ord='nuc', axis=(0, 1))", CUBE),
    ("np.linalg.svd(Z, compute_uv=False)", WIDE), ("np.linalg.svd(Z, full_matrices=False)[1]", TALL),
    ("np.abs(np.linalg.svd(Z, full_matrices=False)[0])", WIDE), ("np.abs(np.linalg.svd(Z, full_matrices=False)[2])", WIDE),
    ("np.abs(np.linalg.svd(Z, full_matrices=False)[0])", TALL), ("np.abs(np.linalg.svd(Z, full_matrices=False)[2])", TALL),
    ("np.abs(np.linalg.svd(Z)[2])", SQUARE),
    ("np.linalg.eigvalsh(Z)", SQUARE), ("np.linalg.eigh(Z)[0]", SQUARE), ("np.linalg.eigh(Z, 'U')[0]", SQUARE),
    ("np.abs(np.linalg.eigh(Z)[1])", SQUARE), ("np.abs(np.linalg.eigh(Z, 'U')[1])", SQUARE),
    ("np.linalg.eig(Z)[0]", SQUARE), ("np.abs(np.linalg.eig(Z)[1])", SQUARE), ("np.linalg.eigvals(Z)", SQUARE),
]


@pytest.mark.parametrize("expression, parts", CASES, ids=[f"{e}-{p[0].shape}" for e, p in CASES])
def test_complex_input_in_both_halves(expression, parts):
    expression = expression.replace("Z", Z)
    f = halves.function(expression, "a, b", list(parts))
    halves.check(f, list(parts), what=expression)


EIG_REAL = RNG.standard_normal((5, 5))        # real, not symmetric: complex eigenvalues


@pytest.mark.parametrize("expression", ["np.abs(np.linalg.eig(a)[0])", "np.abs(np.linalg.eig(a)[1])",
                                        "np.real(np.linalg.eigvals(a)) ** 2"])
def test_eig_of_a_real_matrix_with_complex_eigenvalues(expression):
    assert np.iscomplexobj(np.linalg.eigvals(EIG_REAL))
    f = halves.function(expression, "a", [EIG_REAL])
    halves.check(f, [EIG_REAL], what=expression)
