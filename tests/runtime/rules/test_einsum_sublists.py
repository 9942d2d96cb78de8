"""np.einsum's sublist form in both halves, the sublists written out or held in names.

The transpiler refused sublists held in names ("must be written out"), which is how autograd's
tests call it (81 of their checks); now such sublists become the subscripts string when the code
runs.  A subscripts string held in a global name is the string form.
"""

import numpy as np
import pytest

from tests import halves

RNG = np.random.default_rng(5)
A, B = RNG.standard_normal((3, 4)), RNG.standard_normal((4, 2))
ENV = {"B": B, "S0": [0, 1], "S1": [1, 2], "OUT": [2, 0], "ELL": [Ellipsis, 1], "SUBS": "ij,jk->ki",
       "T0": (0, 1), "T1": (1,)}

CASES = [
    "np.einsum(a, [0, 1], B, [1, 2])",
    "np.einsum(a, [0, 1], B, [1, 2], [2, 0])",
    "np.einsum(a, S0, B, S1)",
    "np.einsum(a, S0, B, S1, OUT)",
    "np.einsum(a, S0, a, S0, [0])",
    "np.einsum(a, ELL, B, S1, [Ellipsis, 2])",
    "np.einsum(a, T0, B[:, 0], T1)",
    "np.einsum(a, [0, 1])",
    "np.einsum(SUBS, a, B)",
]


@pytest.mark.parametrize("expression", CASES)
def test_in_both_halves(expression):
    f = halves.function(f"np.sin({expression})", "a", [A], env=ENV)
    halves.check(f, [A], what=expression)


def test_both_operands():
    f = halves.function("np.einsum(a, S0, b, S1, OUT) ** 2", "a, b", [A, B], env=ENV)
    halves.check(f, [A, B], what="two operands")
