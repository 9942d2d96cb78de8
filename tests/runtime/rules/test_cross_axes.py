"""np.cross with every axisa/axisb/axisc/axis, in both halves, against finite differences.

Forward mode ignored the axis arguments (np.cross(t, b) with the default axes: a wrong tangent for 46
of autograd's 108 combinations) and reverse mode refused them.
"""

import itertools

import numpy as np
import pytest

from tests import halves

AXES = list(itertools.product([-1, 0, 1], [-1, 0, 1], [-1, 0, 1], [None, -1, 0, 1]))


def _keywords(axisa, axisb, axisc, axis):
    return f"axisa={axisa}, axisb={axisb}, axisc={axisc}, axis={axis}"


@pytest.mark.parametrize("axes", AXES, ids=[_keywords(*a).replace(" ", "") for a in AXES])
def test_square_operands(axes):
    rng = np.random.default_rng(3)
    args = [rng.standard_normal((3, 3)), rng.standard_normal((3, 3))]
    f = halves.function(f"np.cross(a, b, {_keywords(*axes)})", "a, b", args)
    halves.check(f, args, second=False, what=_keywords(*axes))


@pytest.mark.parametrize("axes", AXES[::7], ids=[_keywords(*a).replace(" ", "") for a in AXES[::7]])
def test_square_operands_second_order(axes):
    rng = np.random.default_rng(4)
    args = [rng.standard_normal((3, 3)), rng.standard_normal((3, 3))]
    f = halves.function(f"np.cross(a, b, {_keywords(*axes)}) ** 2", "a, b", args)
    halves.check(f, args, what=_keywords(*axes))


# broadcasting, vectors on different axes, and 2-vectors (deprecated by numpy 2, still computed)
CASES = [
    ((2, 3, 4), (3, 1), "axisa=1, axisb=0"),
    ((3, 2), (4, 1, 3), "axisa=0, axisc=1"),
    ((5, 3), (3,), "axisc=0"),
    ((2, 4), (4, 3), "axisa=0, axisb=1"),          # 2-vectors with 3-vectors
    ((3, 2), (2,), "axisa=1, axisc=0"),            # 3-vectors with 2-vectors
    ((2, 4), (4, 2), "axisa=0"),                   # 2-vectors with 2-vectors: a scalar each
    ((4, 2), (2,), ""),
]


@pytest.mark.parametrize("sa, sb, keywords", CASES)
def test_broadcasting_and_short_vectors(sa, sb, keywords):
    rng = np.random.default_rng(5)
    args = [rng.standard_normal(sa), rng.standard_normal(sb)]
    kwargs = eval(f"dict({keywords})")
    try:
        np.cross(*args, **kwargs)
    except ValueError as refused:               # numpy 2.5 took 2-vectors out: both halves refuse too
        assert 2 in sa + sb and "3-dimensional" in str(refused)
        expression = f"np.sum(np.cross(a, b{', ' if keywords else ''}{keywords}) ** 2)"
        _both_halves_raise(halves._compile(f"def f(a, b):\n    return {expression}\n", {"np": np}, expression),
                           args, ValueError)
        return
    f = halves.function(f"np.cross(a, b{', ' if keywords else ''}{keywords}) ** 2", "a, b", args)
    halves.check(f, args, what=f"{sa} x {sb} {keywords}")


def _both_halves_raise(f, args, kind):
    import runtime as tf
    import transpiler
    with pytest.raises(kind):
        transpiler.grad(f, wrt=(0, 1))(*args)
    a, b = tf.Variable(args[0]), tf.Variable(args[1])
    with pytest.raises(kind):
        with tf.GradientTape() as tape:
            y = f(a, b)
        tape.gradient(y, [a, b])
