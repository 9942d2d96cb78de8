import tensorflow as tf

@tf.custom_gradient
def clip_grad(x):
    def grad(dy):
        return tf.clip_by_value(dy, -0.5, 0.5)
    return x * 1.0, grad

x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = clip_grad(x) * tf.constant([3.0, -0.25])
print(tape.gradient(y, x))
