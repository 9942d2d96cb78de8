"""ForwardAccumulator.jvp of something that is not a tensor is a clear TypeError (it crashed with
AttributeError: '_value', and TF 2.21 crashes with AttributeError: '_id')."""

import numpy as np
import pytest

import runtime as tf


@pytest.mark.parametrize("value", [np.float32(3.0), 3.0, np.array([1.0, 2.0])], ids=["numpy scalar", "float", "array"])
def test_a_value_that_is_not_a_tensor(value):
    x = tf.constant(1.0)
    with tf.autodiff.ForwardAccumulator(x, tf.constant(1.0)) as acc:
        y = x * 2.0
    assert float(acc.jvp(y)) == 2.0
    with pytest.raises(TypeError, match="ForwardAccumulator.jvp takes tensors"):
        acc.jvp(value)
    with pytest.raises(TypeError, match=type(value).__name__):
        acc.jvp([y, value])
