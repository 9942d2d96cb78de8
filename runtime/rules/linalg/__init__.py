"""Rules for linear algebra: ``np.linalg`` (inv, det, slogdet, solve, lstsq, pinv, cholesky, qr,
eigh, eig, svd, norm, matrix_power, multi_dot), trace, diagonal, einsum, one module per job:
``matrix`` (shared helpers), ``inverses`` (inv, det, slogdet, solve, pinv, lstsq, matrix_power),
``eigen`` (eigh, eig), ``decompositions`` (cholesky, svd, qr), ``products`` (trace, diagonal,
einsum, multi_dot), ``einsum_higher`` (einsum's derivatives of every order), ``norms`` and
``arrayapi`` (numpy 2's array-API names).

Matrix functions work on the last two axes and broadcast over leading (batch) axes, as
numpy's and TensorFlow's do.  ``T(x)`` below is ``np.swapaxes(x, -1, -2)``.

Decompositions return several arrays.  The transpiler differentiates ``w, v = np.linalg.eigh(a)``
with one rule whose cotangent ``g`` is the tuple's (``items_like`` splits it); the tape records
one array per op, so on tensors each decomposition runs as one *packed* primitive (all outputs
stacked in one array, e.g. ``eigh_packed``) whose items are read by recorded slices
(``COMPOSITES``).  Both share the same core rule (``eigh_grad``, ``svd_grad``, ...), which reads
the outputs the forward computed rather than recomputing the decomposition.

What is refused (a clear error, never a wrong number): eigenvector and singular-vector
gradients at repeated eigenvalues / singular values (the vectors are not unique there),
``np.linalg.eig`` of a matrix that is not real symmetric, ``svd(full_matrices=True)`` of a
non-square matrix, ``svd(hermitian=True)``, ``qr`` of a wide matrix (m < n) and its ``complete``
and ``raw`` modes, complex matrices in the decompositions.  ``pinv`` and ``lstsq`` are
differentiated where the rank is locally constant (full rank).
"""


# Every rule and helper stays reachable as runtime.rules.linalg.NAME (tests and benchmarks read them).
from .matrix import *  # noqa: F401,F403
from .inverses import *  # noqa: F401,F403
from .eigen import *  # noqa: F401,F403
from .decompositions import *  # noqa: F401,F403
from .products import *  # noqa: F401,F403
from .einsum_higher import *  # noqa: F401,F403
from .norms import *  # noqa: F401,F403
from .arrayapi import *  # noqa: F401,F403
