"""Rules for scipy.linalg, one module per job: ``structure`` (what a solver reads of a matrix, the
shared helpers), ``solves`` (inv, det, solve, solve_triangular), ``banded`` (solve_banded),
``factors`` (cholesky, cho_factor/cho_solve, lu_factor/lu_solve), ``functions`` (expm, logm,
sqrtm, solve_sylvester), ``spectral`` (eigh, svd), ``blocks`` (block_diag).

Where scipy's function is numpy's math (inv, det, solve, cholesky, eigh, svd) its rules are
numpy's rules (runtime/rules/linalg/) with scipy's parameters.  Each function has a primitive
wrapper of the same name here (runtime.scipy.linalg exports them): on tensors it records one
op; scipy's own functions convert their input with np.asarray.  Functions returning several
arrays (cho_factor, lu_factor, eigh, svd) record single-output primitives on tensors
(``cho_factor_matrix``, ``lu_packed``, ``eigh_packed``, ``svd_packed``) whose results
runtime.scipy.linalg splits.
"""

from .structure import *  # noqa: F401,F403
from .solves import *  # noqa: F401,F403
from .banded import *  # noqa: F401,F403
from .factors import *  # noqa: F401,F403
from .functions import *  # noqa: F401,F403
from .spectral import *  # noqa: F401,F403
from .blocks import *  # noqa: F401,F403
