"""adjoin in one minute: the TF-compatible tape and the transpiler.

Run: python examples/demo.py
"""

import numpy as np

import runtime as tf
from transpiler import differentiate

print("== runtime: TensorFlow's GradientTape, unchanged ==")
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
print("dy/dx =", tape.gradient(y, x))

x1, x2 = tf.Variable(2.0), tf.Variable(3.0)
with tf.GradientTape(persistent=True) as outer:
    with tf.GradientTape(persistent=True) as inner:
        z = (x1 + 5) * (x2 ** 2)
    first = inner.gradient(z, [x1, x2])
second = [outer.gradient(g, [x1, x2]) for g in first]
print("gradient:", first)
print("hessian: ", second)

print()
print("== transpiler: gradients as readable numpy code ==")


@differentiate
def f(x):
    return np.sum(np.sin(x * x))


f.show()
print("f.grad([0.5, 1.0]) =", f.grad(np.array([0.5, 1.0])))
