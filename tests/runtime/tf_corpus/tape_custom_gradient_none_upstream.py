import tensorflow as tf


@tf.custom_gradient
def clip_grad(x):
    def grad(upstream):
        return tf.clip_by_value(upstream, -1.0, 1.0)
    return tf.identity(x), grad


x = tf.Variable([1.0, 2.0])
with tf.GradientTape() as tape:
    y = clip_grad(x) * tf.constant([5.0, 0.5])
print(tape.gradient(y, x))
with tf.GradientTape() as tape:
    y = tf.reduce_sum(clip_grad(x * 3.0) ** 2)
print(tape.gradient(y, x))
