"""adjoin in one minute: the README's three examples, in order (tests/test_readme.py keeps them equal).

Run: python examples/demo.py
"""

import runtime as tf

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
print("gradient:", first)
print("hessian: ", [outer.gradient(g, [x1, x2]) for g in first])

import numpy as np
from transpiler import differentiate

@differentiate
def f(x):
    return np.sum(np.sin(x * x))

f.show()
print("f.grad([0.5, 1.0]) =", f.grad(np.array([0.5, 1.0])))

@differentiate(wrt=(1, 2))
def dense(x, w, b):
    return np.tanh(x @ w + b)

w, b = tf.Variable([[0.1], [0.2]]), tf.Variable([0.3])
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(dense(tf.constant([[1.0, 2.0]]), w, b) ** 2)   # one op on the tape
print("dloss/db =", tape.gradient(loss, b))
