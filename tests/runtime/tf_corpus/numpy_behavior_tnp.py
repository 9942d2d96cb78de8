import tensorflow as tf

tnp = tf.experimental.numpy

# numpy's names on tensors: results are tensors; plain Python floats become float64
t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
print(tnp.sum(t, axis=0), tnp.mean(t), tnp.dot(t, t))
print(tnp.asarray([1.0, 2.0]), tnp.array(1.5), tnp.ones(3), tnp.arange(3), tnp.linspace(0, 1, 3))
print(tnp.concatenate([t, t]), tnp.pi, tnp.newaxis)
print(tnp.reshape(t, (4,)), tnp.transpose(t), tnp.exp(t))

# a list of tensors is one array, on the tape too
a = tf.Variable(2.0)
b = tf.Variable(-1.0)
with tf.GradientTape() as tape:
    s = tnp.array([a, b * 3.0, a * b])
    y = tnp.sum(s * tnp.array([1.0, 2.0, 3.0], dtype=tnp.float32))
print(s)
print(y, tape.gradient(y, [a, b]))
