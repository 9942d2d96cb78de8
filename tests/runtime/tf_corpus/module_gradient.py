import tensorflow as tf

class Linear(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0], [2.0]], name="w")
        self.b = tf.Variable([0.5], name="b")

    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b

m = Linear()
x = tf.constant([[1.0, 1.0], [2.0, 0.0]])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(m(x) ** 2)
grads = tape.gradient(loss, m.trainable_variables)
for v, g in zip(m.trainable_variables, grads):
    print(v.name, g.numpy().tolist())
